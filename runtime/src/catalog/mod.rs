//! The tool catalog: tools sorted by name, looked up by binary search; views of it
//! ([`select`]), retrieval over it ([`search`]), its results as one short line per
//! tool ([`compact`]) and a model's reordering of them ([`rerank`]).
//!
//! Generated catalogs are `static` arrays already sorted at build time, so lookup does
//! no hashing and no allocation, and iteration order is stable.

pub mod compact;
pub mod embedded;
pub mod flows;
mod lookup;
pub mod meta;
pub mod rerank;
pub mod search;
pub mod select;

pub use rerank::Reranker;
pub use search::{DenseIndex, Embedder, SearchHit};
pub use toolwright_query::{Selection, Selector};

use std::borrow::Cow;

use serde_json::{Map, Value, json};

use crate::descriptor::{Api, BodyEncoding, Definition, Operation, Text};

/// Behaviour hints for a tool, as MCP defines them. All four are always set explicitly
/// (MCP's implicit defaults treat an unannotated tool as destructive and open-world).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Annotations {
    pub read_only: bool,
    pub destructive: bool,
    pub idempotent: bool,
    pub open_world: bool,
}

/// One tool: what an LLM sees, plus the descriptor the executor runs.
#[derive(Debug, Clone)]
pub struct Tool {
    pub name: Text,
    pub title: Text,
    pub description: Text,
    /// JSON Schema (2020-12) of the arguments, rendered at build time.
    pub input_schema: Text,
    /// JSON Schema of the structured result, when the response is described. A root
    /// that is only a `$ref` to one of the API's object definitions (and maybe a
    /// `description`) stands for that definition, inlined (with that description):
    /// generated catalogs store it so, for the many tools that return one shared type.
    /// [`Catalog::output_schema_value`] gives it whole, as MCP wants it (`type:
    /// object` at the root).
    pub output_schema: Option<Text>,
    pub annotations: Annotations,
    /// Extra, inspectable metadata (`_meta` in `tools/list`), as JSON text.
    pub meta: Option<Text>,
    pub operation: Cow<'static, Operation>,
    /// The IO contract codegen computed (what the tool consumes and produces), as JSON
    /// text; see [`Tool::contract`].
    pub contract: Option<Text>,
}

impl Tool {
    /// The tool's IO contract — `{consumes: [...], produces: [...], links: [...]}`,
    /// each field with its JSON pointer, location, kind (`data`, `context`, `auth`),
    /// type and the resource key it identifies — as the build computed it (read from
    /// the static catalog, not recomputed). `None` for tools without one (resources a
    /// service defines in code).
    pub fn contract(&self) -> Option<serde_json::Value> {
        serde_json::from_str(self.contract.as_deref()?).ok()
    }

    /// The request media types the operation accepts (OpenAPI `requestBody.content`),
    /// the default one first, then by preference (JSON > form > multipart > other).
    pub fn request_media_types(&self) -> Vec<String> {
        let mut listed: Vec<String> = self
            .meta
            .as_deref()
            .map(parse_rendered)
            .and_then(|meta| {
                meta.pointer("/toolwright/native/requestMediaTypes")
                    .and_then(Value::as_array)
                    .map(|list| {
                        list.iter()
                            .filter_map(Value::as_str)
                            .map(str::to_owned)
                            .collect()
                    })
            })
            .unwrap_or_default();
        listed.sort_by_key(
            |m| match crate::descriptor::BodyEncoding::for_media_type(m) {
                crate::descriptor::BodyEncoding::Json => 0,
                crate::descriptor::BodyEncoding::Form => 1,
                crate::descriptor::BodyEncoding::Multipart => 2,
                _ => 3,
            },
        );
        let default = self.operation.content_type.to_string();
        std::iter::once(default.clone())
            .chain(listed.into_iter().filter(|m| *m != default))
            .collect()
    }

    /// The operation sending `media_type` instead of its default, if it accepts it and
    /// the arguments fit that encoding.
    ///
    /// # Errors
    /// What is wrong, naming the accepted media types.
    pub fn with_media_type(&self, media_type: &str) -> Result<Operation, String> {
        let accepted = self.request_media_types();
        if !accepted.iter().any(|m| m.eq_ignore_ascii_case(media_type)) {
            return Err(format!(
                "`{}` does not accept `{media_type}`; it accepts {}",
                self.name,
                accepted.join(", ")
            ));
        }
        let encoding = crate::descriptor::BodyEncoding::for_media_type(media_type);
        let fields = self
            .operation
            .params
            .iter()
            .any(|p| p.location == crate::descriptor::ParamLocation::Body);
        if fields && !encoding.takes_fields() {
            return Err(format!(
                "`{}` takes its body as separate arguments, which `{media_type}` cannot carry; use one of {}",
                self.name,
                accepted
                    .iter()
                    .filter(|m| crate::descriptor::BodyEncoding::for_media_type(m).takes_fields())
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        let mut op = self.operation.clone().into_owned();
        if media_type.eq_ignore_ascii_case(&op.content_type) {
            // The default, already made concrete by the generator.
            return Ok(op);
        }
        op.content_type = std::borrow::Cow::Owned(
            crate::descriptor::BodyEncoding::concrete_media_type(media_type),
        );
        // Bytes (`format: binary`, given as base64) stay bytes whatever media type
        // carries them: an upload of `text/plain` content is the decoded content.
        op.body = match (op.body, encoding) {
            (BodyEncoding::Binary, BodyEncoding::Text) => BodyEncoding::Binary,
            (_, encoding) => encoding,
        };
        Ok(op)
    }
}

/// Schemas are rendered by the generator, so a parse failure is a generator bug; still
/// never panic in a user's service: degrade to the text.
fn parse_rendered(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_owned()))
}

/// A set of tools and the APIs they call.
///
/// Generated code builds one at compile time (`catalog()`); an executor adds the tools of
/// the resources it serves. Look a tool up by the name a model gives, or hand them all
/// to a client as MCP `tools/list` does:
///
/// ```
/// # use serde::{Deserialize, Serialize};
/// # use toolwright::{Catalog, Executor, Resource, ToolSchema, resource::ResourceError};
/// #
/// # /// A city.
/// # #[derive(Clone, ToolSchema, Serialize, Deserialize)]
/// # #[tool(resource(get))]
/// # struct City {
/// #     /// Its name.
/// #     #[tool(primary_key)]
/// #     name: String,
/// #     /// Inhabitants.
/// #     population: u32,
/// # }
/// #
/// # /// The service's own store of cities.
/// # struct Cities;
/// #
/// # impl Resource for Cities {
/// #     type Record = City;
/// #     async fn get(&self, name: String) -> Result<City, ResourceError> {
/// #         Ok(City { name, population: 1_000 })
/// #     }
/// # }
/// #
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let executor = Executor::builder(Catalog::empty()).resource(Cities).build()?;
/// let catalog = executor.catalog();
/// let tool = catalog.get("get_City").expect("the resource's get verb is a tool");
/// assert_eq!(catalog.input_schema_value(tool)["required"], serde_json::json!(["name"]));
/// // A name a model got slightly wrong gets a suggestion.
/// assert_eq!(catalog.suggest("get_city"), Some("get_City"));
/// assert_eq!(catalog.to_tools_list()["tools"][0]["name"], "get_City");
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct Catalog {
    tools: Cow<'static, [Tool]>,
    apis: Cow<'static, [Api]>,
    search: search::Slot,
    names: lookup::Names,
    /// Where each tool's inputs come from, read from the contracts once.
    flows: flows::Slot,
}

impl Catalog {
    /// A catalog over generated static tables. `tools` must be sorted by name; generated
    /// code guarantees it (checked in debug builds).
    pub const fn from_static(tools: &'static [Tool], apis: &'static [Api]) -> Catalog {
        Catalog {
            tools: Cow::Borrowed(tools),
            apis: Cow::Borrowed(apis),
            search: search::Slot::new(),
            names: lookup::Names::new(),
            flows: flows::Slot::new(),
        }
    }

    /// A catalog with no tools: the start for a service whose tools are all its own
    /// resources (`Executor::builder(Catalog::empty()).resource(...)`).
    pub const fn empty() -> Catalog {
        Catalog {
            tools: Cow::Borrowed(&[]),
            apis: Cow::Borrowed(&[]),
            search: search::Slot::new(),
            names: lookup::Names::new(),
            flows: flows::Slot::new(),
        }
    }

    /// A catalog over tools built at run time. Sorts them by name.
    ///
    /// # Errors
    /// Two tools with the same name.
    pub fn from_tools(mut tools: Vec<Tool>, apis: Vec<Api>) -> Result<Catalog, String> {
        tools.sort_by(|a, b| a.name.cmp(&b.name));
        if let Some(w) = tools.windows(2).find(|w| w[0].name == w[1].name) {
            return Err(format!("two tools are named `{}`", w[0].name));
        }
        Ok(Catalog::from_sorted(tools, apis))
    }

    /// Tools already sorted by name and unique.
    pub(crate) fn from_sorted(tools: Vec<Tool>, apis: Vec<Api>) -> Catalog {
        Catalog {
            tools: Cow::Owned(tools),
            apis: Cow::Owned(apis),
            search: search::Slot::new(),
            names: lookup::Names::new(),
            flows: flows::Slot::new(),
        }
    }

    /// Joins two catalogs (for example the generated one and tools added by the service).
    ///
    /// # Errors
    /// A tool name present in both.
    pub fn merge(self, other: Catalog) -> Result<Catalog, String> {
        let mut tools = self.tools.into_owned();
        tools.extend(other.tools.iter().cloned());
        let mut apis = self.apis.into_owned();
        for api in other.apis.iter() {
            if !apis.iter().any(|a| a.name == api.name) {
                apis.push(api.clone());
            }
        }
        Catalog::from_tools(tools, apis)
    }

    /// All tools, sorted by name.
    pub fn tools(&self) -> &[Tool] {
        &self.tools
    }

    /// All APIs the tools call.
    pub fn apis(&self) -> &[Api] {
        &self.apis
    }

    /// Finds a tool by exact name.
    pub fn get(&self, name: &str) -> Option<&Tool> {
        self.index_of(name).map(|i| &self.tools[i])
    }

    /// Where the tool named `name` sits in [`Catalog::tools`]: per-tool tables
    /// indexed like it need no lookup of their own.
    pub(crate) fn index_of(&self, name: &str) -> Option<usize> {
        debug_assert!(self.tools.windows(2).all(|w| w[0].name < w[1].name));
        self.names.find(&self.tools, name)
    }

    /// Where `tool` (a reference into this catalog, from [`Catalog::get`] or
    /// [`Catalog::tools`]) sits in [`Catalog::tools`]: per-tool tables indexed by it
    /// need no lookup by name.
    pub(crate) fn position(&self, tool: &Tool) -> Option<usize> {
        let base = self.tools.as_ptr() as usize;
        let offset = (tool as *const Tool as usize).checked_sub(base)?;
        let size = std::mem::size_of::<Tool>().max(1);
        let index = offset / size;
        (offset % size == 0 && index < self.tools.len()).then_some(index)
    }

    /// Finds an API by name.
    pub fn api(&self, name: &str) -> Option<&Api> {
        self.apis.iter().find(|a| a.name == name)
    }

    /// The closest tool name to `name`, for "did you mean" hints.
    pub fn suggest(&self, name: &str) -> Option<&str> {
        closest(self.tools.iter().map(|t| t.name.as_ref()), name)
    }

    /// The catalog as the result of an MCP `tools/list` request.
    pub fn to_tools_list(&self) -> Value {
        json!({ "tools": self.tools.iter().map(|t| self.tool_json(t)).collect::<Vec<_>>() })
    }

    /// The tool's input schema with every definition it reaches under `$defs`.
    pub fn input_schema_value(&self, tool: &Tool) -> Value {
        with_definitions(&tool.input_schema, self.definitions(tool), Direction::Input)
    }

    /// The tool's output schema, self-contained like [`Catalog::input_schema_value`].
    pub fn output_schema_value(&self, tool: &Tool) -> Option<Value> {
        let schema = tool.output_schema.as_deref()?;
        Some(with_definitions(
            schema,
            self.definitions(tool),
            Direction::Output,
        ))
    }

    fn definitions(&self, tool: &Tool) -> &[Definition] {
        self.api(&tool.operation.api)
            .map_or(&[][..], |a| &a.definitions[..])
    }

    /// One tool as an MCP `tools/list` entry, its schemas self-contained (`$defs`).
    pub fn tool_json(&self, tool: &Tool) -> Value {
        let mut out = Map::new();
        out.insert("name".into(), json!(tool.name));
        out.insert("title".into(), json!(tool.title));
        out.insert("description".into(), json!(tool.description));
        out.insert("inputSchema".into(), self.input_schema_value(tool));
        if let Some(schema) = self.output_schema_value(tool) {
            out.insert("outputSchema".into(), schema);
        }
        let a = tool.annotations;
        out.insert(
            "annotations".into(),
            json!({
                "title": tool.title,
                "readOnlyHint": a.read_only,
                "destructiveHint": a.destructive,
                "idempotentHint": a.idempotent,
                "openWorldHint": a.open_world,
            }),
        );
        if let Some(meta) = &tool.meta {
            out.insert("_meta".into(), parse_rendered(meta));
        }
        Value::Object(out)
    }
}

#[derive(Clone, Copy)]
enum Direction {
    Input,
    Output,
}

/// A rendered root schema plus every definition it reaches, under `$defs`.
fn with_definitions(root: &str, definitions: &[Definition], direction: Direction) -> Value {
    let mut value = inline_root(parse_rendered(root), |name| {
        let def = definitions.iter().find(|d| d.name == name)?;
        Some(parse_rendered(match direction {
            Direction::Input => &def.input,
            Direction::Output => &def.output,
        }))
    });
    let mut pending = Vec::new();
    references(&value, &mut pending);
    let mut defs = Map::new();
    while let Some(name) = pending.pop() {
        if defs.contains_key(&name) {
            continue;
        }
        let Some(def) = definitions.iter().find(|d| d.name == name) else {
            continue;
        };
        let rendered = parse_rendered(match direction {
            Direction::Input => &def.input,
            Direction::Output => &def.output,
        });
        references(&rendered, &mut pending);
        defs.insert(name, rendered);
    }
    if !defs.is_empty()
        && let Value::Object(map) = &mut value
    {
        map.insert("$defs".into(), Value::Object(defs));
    }
    value
}

/// A root that is only a reference to an object definition (and maybe a description
/// refining it) becomes that definition, as [`Tool::output_schema`] says; any other
/// root stays as it is.
pub(crate) fn inline_root(root: Value, definition: impl Fn(&str) -> Option<Value>) -> Value {
    let Value::Object(map) = &root else {
        return root;
    };
    let only_reference = map.keys().all(|k| k == "$ref" || k == "description");
    let name = map
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix("#/$defs/"));
    let (true, Some(name)) = (only_reference, name) else {
        return root;
    };
    match definition(name) {
        Some(Value::Object(mut def)) if def.get("type") == Some(&Value::from("object")) => {
            if let Some(description) = map.get("description") {
                def.insert("description".into(), description.clone());
            }
            Value::Object(def)
        }
        _ => root,
    }
}

/// Names behind `{"$ref": "#/$defs/<name>"}` anywhere in `value`.
fn references(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                match (
                    k.as_str(),
                    v.as_str().and_then(|r| r.strip_prefix("#/$defs/")),
                ) {
                    ("$ref", Some(name)) => out.push(name.to_owned()),
                    _ => references(v, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| references(v, out)),
        _ => {}
    }
}

/// The candidate within a third of `name`'s length in edits, the closest first.
pub(crate) fn closest<'a>(
    candidates: impl Iterator<Item = &'a str>,
    name: &str,
) -> Option<&'a str> {
    candidates
        .map(|c| (edit_distance(c, name), c))
        .filter(|(d, _)| *d <= name.len().max(3) / 3)
        .min()
        .map(|(_, c)| c)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = if ca == *cb {
                prev
            } else {
                1 + prev.min(row[j]).min(cur)
            };
            prev = cur;
        }
    }
    row[b.len()]
}

/// A catalog of tools that only have a name and a description, for tests of search,
/// ranking and the meta-tools.
#[cfg(test)]
pub(crate) fn catalog_of(tools: &[(&str, &str)]) -> Catalog {
    let tools = tools
        .iter()
        .map(|(name, description)| {
            Tool::meta(
                name,
                name,
                description,
                serde_json::json!({"type": "object"}),
                meta::RUNS_ANY_TOOL,
            )
        })
        .collect();
    Catalog::from_tools(tools, Vec::new()).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_counts_edits() {
        assert_eq!(edit_distance("create_issue", "create_isue"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("abc", "abc"), 0);
    }
}
