//! A tool's retrieval document, from the texts the catalog already holds (so the
//! generator, from its plans, and the runtime, from a catalog built in code, index the
//! same words).

use serde_json::Value;

/// The texts of one tool that retrieval looks at.
#[derive(Debug, Clone, Default)]
pub struct Document {
    /// The tool name (`issues_create`).
    pub name: String,
    pub title: String,
    /// The description's first paragraph.
    pub summary: String,
    /// The rest of the description.
    pub description: String,
    /// Argument names and their descriptions.
    pub params: Vec<(String, String)>,
    /// What the tool returns, in the API's words: the first paragraph of the
    /// description of the object it returns, or of the items of the list it returns
    /// ("A Location represents a grouping of readers.").
    pub result: String,
    /// Whether the source marks the operation deprecated (`_meta.toolwright.native`).
    pub deprecated: bool,
    /// The names of the boolean arguments (`private`, `archived`): the states a tool sets.
    pub flags: Vec<String>,
    /// The values the arguments' `enum`s allow (of an array argument, its items').
    pub enum_values: Vec<String>,
    pub tags: Vec<String>,
    /// Upper-case HTTP method.
    pub method: String,
    /// Path template (`/repos/{owner}/{repo}/issues`).
    pub path: String,
    /// CRUDE group, lower-case.
    pub group: String,
    /// The source's operation id, when there is one.
    pub operation_id: String,
    /// Phrases the source says should bring this tool up (an adapter's `triggers`).
    pub triggers: Vec<String>,
    /// Words or phrases the API's users call this tool by (`x-toolwright-aliases`, an
    /// adapter operation's `aliases`; `_meta.toolwright.aliases`).
    pub aliases: Vec<String>,
    /// Requests in words the tool's usage examples answer (`_meta.toolwright.examples`).
    pub examples: Vec<String>,
    /// Summaries of tools this one feeds or is fed by (IO contract links), filled by
    /// [`Document::link_neighbours`].
    pub neighbours: Vec<String>,
    /// Operation ids or tool names this tool's contract links to.
    pub links: Vec<String>,
}

/// Enums longer than this are left out of [`Document::enum_values`].
const MAX_ENUM_VALUES: usize = 24;

/// What a catalog holds about one tool, borrowed.
#[derive(Clone, Copy)]
pub struct ToolTexts<'a> {
    pub name: &'a str,
    pub title: &'a str,
    pub description: &'a str,
    pub input_schema: &'a Value,
    /// The tool's `outputSchema` as the catalog stores it (`null` when it has none):
    /// its `$ref`s name the API's shared definitions.
    pub output_schema: &'a Value,
    /// The output form of one of the API's shared definitions, by name.
    pub definition: &'a dyn Fn(&str) -> Option<Value>,
    /// The tool's `_meta`.
    pub meta: &'a Value,
    pub method: &'a str,
    pub path: &'a str,
    /// Its API's metadata.
    pub api_meta: &'a Value,
    /// The operations its IO contract links to ([`contract_links`]).
    pub links: &'a [String],
}

impl std::fmt::Debug for ToolTexts<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The definition lookup is a function: shown by the tool it serves.
        f.debug_struct("ToolTexts")
            .field("name", &self.name)
            .field("method", &self.method)
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

/// The operations an IO contract (as JSON) links to: its `links[].operation_id`.
pub fn contract_links(contract: &Value) -> Vec<String> {
    contract
        .get("links")
        .and_then(Value::as_array)
        .map(|links| {
            links
                .iter()
                .filter_map(|l| l.get("operation_id").and_then(Value::as_str))
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

impl Document {
    /// The document of a catalog tool: its texts, `inputSchema` (argument names and
    /// descriptions), `_meta.toolwright` (tags, CRUDE group, operation id, usage
    /// examples, aliases), the
    /// operation's method and path, and its API's metadata (adapter `triggers`).
    pub fn from_tool(tool: &ToolTexts<'_>) -> Document {
        let ToolTexts {
            name,
            title,
            description,
            input_schema,
            output_schema,
            definition,
            meta,
            method,
            path,
            api_meta,
            links,
        } = *tool;
        let (summary, rest) = description.split_once("\n\n").unwrap_or((description, ""));
        let params = input_schema
            .get("properties")
            .and_then(Value::as_object)
            .map(|props| {
                props
                    .iter()
                    .map(|(name, schema)| {
                        let text = schema
                            .get("description")
                            .and_then(Value::as_str)
                            .unwrap_or_default();
                        (name.clone(), text.to_owned())
                    })
                    .collect()
            })
            .unwrap_or_default();
        let flags = input_schema
            .get("properties")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .filter(|(_, schema)| is_boolean(schema))
            .map(|(name, _)| name.clone())
            .collect();
        let enum_values = input_schema
            .get("properties")
            .and_then(Value::as_object)
            .into_iter()
            .flat_map(|props| props.values())
            .flat_map(|schema| [schema.get("enum"), schema.pointer("/items/enum")])
            .flatten()
            .filter_map(Value::as_array)
            // A long enum is a list of other things (every event type a webhook can
            // subscribe to), not what the tool does.
            .filter(|values| values.len() <= MAX_ENUM_VALUES)
            .flatten()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect();
        let strings = |value: Option<&Value>| -> Vec<String> {
            value
                .and_then(Value::as_array)
                .map(|list| {
                    list.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_owned)
                        .collect()
                })
                .unwrap_or_default()
        };
        let ours = meta.get("toolwright").unwrap_or(&Value::Null);
        let native = ours.get("native").unwrap_or(&Value::Null);
        let mut tags = strings(native.get("tags"));
        tags.extend(strings(ours.get("tags")));
        Document {
            name: name.to_owned(),
            title: title.to_owned(),
            summary: summary.trim().to_owned(),
            description: rest.trim().to_owned(),
            params,
            result: result_description(output_schema, definition),
            deprecated: native.get("deprecated") == Some(&Value::Bool(true)),
            flags,
            enum_values,
            tags,
            method: method.to_owned(),
            path: path.to_owned(),
            group: ours
                .get("crude")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
            operation_id: native
                .get("operationId")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
            triggers: strings(api_meta.get("triggers")),
            aliases: strings(ours.get("aliases")),
            examples: ours
                .get("examples")
                .and_then(Value::as_array)
                .map(|list| {
                    list.iter()
                        .filter_map(|e| e.get("request").and_then(Value::as_str))
                        .map(str::to_owned)
                        .collect()
                })
                .unwrap_or_default(),
            neighbours: Vec::new(),
            links: links.to_vec(),
        }
    }

    /// Gives each document the summaries of the documents it links to and is linked
    /// from (by tool name or operation id): the data-flow graph's words.
    pub fn link_neighbours(docs: &mut [Document]) {
        let mut by_id = std::collections::HashMap::new();
        for (i, d) in docs.iter().enumerate() {
            by_id.insert(d.name.clone(), i);
            if !d.operation_id.is_empty() {
                by_id.insert(d.operation_id.clone(), i);
            }
        }
        let mut pairs = Vec::new();
        for (i, d) in docs.iter().enumerate() {
            for target in &d.links {
                if let Some(&j) = by_id.get(target)
                    && j != i
                {
                    pairs.push((i, j));
                    pairs.push((j, i));
                }
            }
        }
        pairs.sort_unstable();
        pairs.dedup();
        for (i, j) in pairs {
            let summary = docs[j].summary.clone();
            docs[i].neighbours.push(summary);
        }
    }
}

/// How deep [`result_description`] follows `$ref`s and list envelopes before it
/// gives up (a schema can refer to itself).
const MAX_RESULT_HOPS: usize = 4;

/// The first paragraph of what an output schema says it is: the object's own
/// description (a reference's refining one first), or, for a list in an envelope
/// (`{data: [...], has_more}`) or a bare array, its items'. Empty when the schema says
/// nothing.
pub fn result_description(
    output_schema: &Value,
    definition: &dyn Fn(&str) -> Option<Value>,
) -> String {
    let mut owned;
    let mut schema = output_schema;
    for _ in 0..MAX_RESULT_HOPS {
        let own = schema
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .trim();
        if !own.is_empty() {
            return first_paragraph(own);
        }
        if let Some(target) = schema.get("$ref").and_then(Value::as_str) {
            let name = target.strip_prefix("#/$defs/").unwrap_or(target);
            match output_schema
                .pointer(&format!("/$defs/{name}"))
                .cloned()
                .or_else(|| definition(name))
            {
                Some(next) => {
                    owned = next;
                    schema = &owned;
                    continue;
                }
                None => break,
            }
        }
        match schema.get("items").or_else(|| only_array_property(schema)) {
            Some(next) => {
                owned = next.clone();
                schema = &owned;
            }
            None => break,
        }
    }
    String::new()
}

/// The items of an envelope's one array property (`data`, `items`, `results`).
fn only_array_property(schema: &Value) -> Option<&Value> {
    let mut arrays = schema
        .get("properties")?
        .as_object()?
        .values()
        .filter_map(|p| p.get("items"));
    let items = arrays.next()?;
    arrays.next().is_none().then_some(items)
}

/// A description's first paragraph, its Markdown link targets left out (their words
/// are a URL's, not the object's).
fn first_paragraph(text: &str) -> String {
    let paragraph = text.split("\n\n").next().unwrap_or_default();
    let mut out = String::with_capacity(paragraph.len());
    let mut rest = paragraph;
    while let Some(at) = rest.find("](") {
        out.push_str(&rest[..at]);
        rest = &rest[at + 2..];
        rest = rest.find(')').map_or("", |end| &rest[end + 1..]);
    }
    out.push_str(rest);
    out
}

/// A schema whose type is `boolean` (alone, or with `null`).
fn is_boolean(schema: &Value) -> bool {
    match schema.get("type") {
        Some(Value::String(t)) => t == "boolean",
        Some(Value::Array(types)) => types.iter().any(|t| t == "boolean"),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn none(_: &str) -> Option<Value> {
        None
    }

    #[test]
    fn a_result_says_what_it_is_through_references_and_list_envelopes() {
        let defs = |name: &str| {
            (name == "topup").then(|| {
                json!({"description": "To top up your balance, you create a top-up.\n\nRelated guide: [Top-ups](https://example.com/x).",
                       "type": "object"})
            })
        };
        // A shared definition, by reference.
        let one = json!({"$ref": "#/$defs/topup"});
        assert_eq!(
            result_description(&one, &defs),
            "To top up your balance, you create a top-up."
        );
        // A reference's own description refines the definition's.
        let refined = json!({"$ref": "#/$defs/topup", "description": "A top-up."});
        assert_eq!(result_description(&refined, &defs), "A top-up.");
        // A list in an envelope: its items'.
        let list = json!({"description": "", "type": "object", "properties": {
            "data": {"type": "array", "items": {"$ref": "#/$defs/topup"}},
            "has_more": {"type": "boolean"}}});
        assert!(result_description(&list, &defs).starts_with("To top up"));
        // A link's text stays, its target goes.
        let linked = json!({"description": "A [reader](https://example.com/readers) device."});
        assert_eq!(result_description(&linked, &none), "A [reader device.");
        // Nothing said, an unknown reference, a reference to itself: empty.
        assert_eq!(result_description(&Value::Null, &none), "");
        assert_eq!(result_description(&json!({"$ref": "#/$defs/x"}), &none), "");
        let itself = |_: &str| Some(json!({"$ref": "#/$defs/loop"}));
        assert_eq!(
            result_description(&json!({"$ref": "#/$defs/loop"}), &itself),
            ""
        );
    }

    #[test]
    fn deprecation_is_read_from_the_native_metadata() {
        let document = |meta: Value| {
            let texts = ToolTexts {
                name: "GetCustomersCustomerCards",
                title: "List cards",
                description: "You can see a list of the cards.\n\nDeprecated.",
                input_schema: &Value::Null,
                output_schema: &Value::Null,
                definition: &none,
                meta: &meta,
                method: "GET",
                path: "/v1/customers/{customer}/cards",
                api_meta: &Value::Null,
                links: &[],
            };
            Document::from_tool(&texts)
        };
        let marked = json!({"toolwright": {"native": {"deprecated": true}}});
        assert!(document(marked).deprecated);
        // The word in prose is not the source's mark.
        assert!(!document(json!({"toolwright": {"native": {}}})).deprecated);
        let unmarked = json!({"toolwright": {"native": {"deprecated": false}}});
        assert!(!document(unmarked).deprecated);
    }
}
