//! The catalog in the tool formats of MCP clients and model APIs, each with its
//! provider's rules applied, and the way back ([`Mapping`]) so calls made with the
//! exported names and keys run the catalog's tools.
//!
//! ```
//! use toolwright::export::{ExportOptions, Profile};
//! # let catalog = toolwright::Catalog::empty();
//! let export = catalog.export(Profile::OpenAi);
//! let request_tools = export.document()["tools"].clone(); // what the API takes
//! for warning in export.warnings() {
//!     eprintln!("{warning}"); // e.g. a tool exported non-strict, and why
//! }
//! // A service whose model client adds `mcp__tracker__` to every name:
//! let export = catalog.export_with(&ExportOptions::new(Profile::Mcp).client_prefix("mcp__tracker__"));
//! # let _ = (request_tools, export);
//! ```
//!
//! | rule | MCP | OpenAI | Anthropic | Gemini |
//! |---|---|---|---|---|
//! | tool names | `^[A-Za-z][A-Za-z0-9_]*$`, 48 (room for a client prefix) | 64 | 64 | 63 |
//! | argument keys | `^[A-Za-z_][A-Za-z0-9_]{0,63}$` everywhere | | | |
//! | `$ref`/`$defs`, `allOf` | inlined (recursion cut at a described node), merged | | | |
//! | strict | – | on: closed objects, all keys required, optional as `null` | opt-in: closed objects, no bounds | – |
//! | moved into descriptions | `not`/`if`, unknown formats | + `uri`, lengths when strict | + bounds when strict | + `const` of non-strings, maps, exclusive bounds |
//!
//! Descriptions lose HTML, GitHub-style alert markers, "for more information" links
//! and relative links (resolved against the tool's documentation site when known),
//! and fit a budget per tool (1,024 characters by default) and per property (300).

mod mapping;
pub mod names;
mod schema;
mod typescript;
// Prose cleaning lives in the leaf crate: the generator cleans catalog descriptions
// with it too.
pub use toolwright_query::prose as text;

use std::fmt;

use serde_json::{Map, Value, json};

pub use mapping::{Keys, Mapping, ToolMapping};
use schema::Dialect;

use crate::catalog::{Catalog, Tool};

/// A target format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Profile {
    /// MCP `tools/list` entries portable across clients in the field.
    Mcp,
    /// OpenAI Responses API `tools` (function tools; namespaces when deferred).
    OpenAi,
    /// Anthropic Messages API `tools`.
    Anthropic,
    /// Gemini `tools[].functionDeclarations`.
    Gemini,
}

impl Profile {
    /// Every profile.
    pub const ALL: [Profile; 4] = [
        Profile::Mcp,
        Profile::OpenAi,
        Profile::Anthropic,
        Profile::Gemini,
    ];

    /// The profile's name as the CLI spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Profile::Mcp => "mcp",
            Profile::OpenAi => "openai",
            Profile::Anthropic => "anthropic",
            Profile::Gemini => "gemini",
        }
    }

    /// The longest tool name the target accepts.
    pub fn name_limit(self) -> usize {
        match self {
            Profile::Gemini => 63,
            _ => 64,
        }
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Profile {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Profile::ALL
            .into_iter()
            .find(|p| p.as_str().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                format!("unknown profile `{s}`; expected mcp, openai, anthropic or gemini")
            })
    }
}

/// How to export: the target and its budgets.
///
/// ```
/// use toolwright::export::{ExportOptions, Profile};
/// let options = ExportOptions::new(Profile::OpenAi).name_budget(40).strict(false);
/// assert_eq!(options.max_name_len(), 40);
/// let export = toolwright::Catalog::empty().export_with(&options);
/// assert!(export.warnings().is_empty());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportOptions {
    profile: Profile,
    name_budget: usize,
    description_budget: usize,
    strict: bool,
    defer_loading: bool,
}

/// Room MCP names leave for a client's prefix (`mcp__<server>__`) within 64.
const MCP_NAME_BUDGET: usize = 48;

/// Characters of a tool's description by default.
pub const DESCRIPTION_BUDGET: usize = 1_024;

impl ExportOptions {
    /// The profile's defaults: its name limit (48 for MCP, leaving room for client
    /// prefixes), 1,024 characters of description, strict for OpenAI only, nothing
    /// deferred.
    pub fn new(profile: Profile) -> Self {
        ExportOptions {
            profile,
            name_budget: match profile {
                Profile::Mcp => MCP_NAME_BUDGET,
                other => other.name_limit(),
            },
            description_budget: DESCRIPTION_BUDGET,
            strict: profile == Profile::OpenAi,
            defer_loading: false,
        }
    }

    /// The target.
    pub fn profile(&self) -> Profile {
        self.profile
    }

    /// The longest tool name this export produces.
    pub fn max_name_len(&self) -> usize {
        self.name_budget
    }

    /// Longest exported tool name (capped at the target's limit; at least 8).
    #[must_use]
    pub fn name_budget(mut self, characters: usize) -> Self {
        self.name_budget = characters.clamp(8, self.profile.name_limit());
        self
    }

    /// Leaves room for a prefix the client adds to every name (Claude Code's
    /// `mcp__<server>__`, for one) within the target's limit.
    #[must_use]
    pub fn client_prefix(self, prefix: &str) -> Self {
        let limit = self.profile.name_limit();
        self.name_budget(limit.saturating_sub(prefix.len()))
    }

    /// Longest tool description, in characters (cut at a sentence, marked ` …`).
    #[must_use]
    pub fn description_budget(mut self, characters: usize) -> Self {
        self.description_budget = characters.max(16);
        self
    }

    /// Strict schemas (OpenAI Structured Outputs, Anthropic strict tool use). Tools
    /// that cannot be strict are exported non-strict, with a warning saying why.
    /// No effect for MCP and Gemini.
    #[must_use]
    pub fn strict(mut self, on: bool) -> Self {
        self.strict = on;
        self
    }

    /// Deferred loading where the provider has it: Anthropic `defer_loading` tools
    /// behind its tool-search tool; OpenAI namespaces of fewer than 10 functions
    /// (grouped by tag) with `defer_loading` and `tool_search`. No effect for MCP
    /// and Gemini.
    #[must_use]
    pub fn defer_loading(mut self, on: bool) -> Self {
        self.defer_loading = on;
        self
    }
}

/// Something an export had to give up on, for one tool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// The catalog's tool name.
    pub tool: String,
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}`: {}", self.tool, self.message)
    }
}

/// A catalog's tools exported one at a time ([`Catalog::exporter`]). Deferred
/// loading's wrapping (namespaces, the search tool) belongs to a whole export, so
/// [`Catalog::export_with`] adds it, not this.
#[derive(Debug)]
pub struct Exporter<'c> {
    catalog: &'c Catalog,
    options: ExportOptions,
    /// Exported names, in catalog order.
    names: Vec<String>,
    /// Each API's definitions by name, shared by [`Exporter::with_options`].
    definitions: std::sync::Arc<std::collections::BTreeMap<&'c str, Definitions<'c>>>,
}

impl<'c> Exporter<'c> {
    /// The same catalog exported as `options` say, sharing the definitions already
    /// indexed (a report exports to four targets).
    pub fn with_options(&self, options: &ExportOptions) -> Exporter<'c> {
        let originals: Vec<&str> = self
            .catalog
            .tools()
            .iter()
            .map(|t| t.name.as_ref())
            .collect();
        Exporter {
            catalog: self.catalog,
            options: options.clone(),
            names: names::tool_names(&originals, options.name_budget),
            definitions: std::sync::Arc::clone(&self.definitions),
        }
    }

    /// The catalog's tool `name` exported; `None` when the catalog has no such tool.
    pub fn tool(&self, name: &str) -> Option<ExportedTool<'c>> {
        let tool = self.catalog.get(name)?;
        let index = self.catalog.position(tool)?;
        Some(self.export(tool, &self.names[index]))
    }

    /// Every tool exported, in catalog order.
    pub fn tools(&self) -> impl Iterator<Item = ExportedTool<'c>> + '_ {
        self.catalog
            .tools()
            .iter()
            .zip(&self.names)
            .map(|(tool, name)| self.export(tool, name))
    }

    fn export(&self, tool: &'c Tool, name: &str) -> ExportedTool<'c> {
        let none = Definitions::default();
        let defs = self
            .definitions
            .get(tool.operation.api.as_ref())
            .unwrap_or(&none);
        let mut warnings = Vec::new();
        let (mut entry, keys) = self
            .catalog
            .entry(tool, name, &self.options, defs, &mut warnings);
        // The last pass before a model or client sees the tool: a credential that a
        // document held (in a description, an example) never leaves the process.
        toolwright_query::redact::value(&mut entry, &mut std::collections::BTreeSet::new());
        ExportedTool {
            tool,
            name: name.to_owned(),
            entry,
            mapping: ToolMapping {
                tool: tool.name.to_string(),
                keys,
            },
            warnings,
        }
    }
}

/// One tool of an export, as an [`Exporter`] hands it over.
#[derive(Debug)]
#[non_exhaustive]
pub struct ExportedTool<'c> {
    /// The catalog's tool.
    pub tool: &'c Tool,
    /// Its exported name.
    pub name: String,
    /// Its entry in the target's format.
    pub entry: Value,
    /// How the exported name and keys map back to the catalog's.
    pub mapping: ToolMapping,
    /// What the export had to change or give up for this tool.
    pub warnings: Vec<Warning>,
}

/// A catalog in one target's format.
#[derive(Debug, Clone)]
pub struct Export {
    profile: Profile,
    tools: Vec<Value>,
    mapping: Mapping,
    warnings: Vec<Warning>,
}

impl Export {
    pub fn profile(&self) -> Profile {
        self.profile
    }

    /// The tool entries, catalog order (for OpenAI with deferred loading: namespaces
    /// and the search tool; for Anthropic: the search tool first).
    pub fn tools(&self) -> &[Value] {
        &self.tools
    }

    /// Exported names and keys → the catalog's.
    pub fn mapping(&self) -> &Mapping {
        &self.mapping
    }

    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// What goes into the provider's request (or MCP's `tools/list` result):
    /// `{"tools": [...]}`; for Gemini `{"tools": [{"functionDeclarations": [...]}]}`.
    pub fn document(&self) -> Value {
        match self.profile {
            Profile::Gemini => json!({"tools": [{"functionDeclarations": self.tools}]}),
            _ => json!({"tools": self.tools}),
        }
    }

    /// [`Export::document`] plus `profile`, `mapping` and `warnings`: the artifact
    /// `toolwright catalog --format` prints.
    pub fn to_json(&self) -> Value {
        let mut out = self.document();
        out["profile"] = json!(self.profile.as_str());
        out["mapping"] = serde_json::to_value(&self.mapping).unwrap_or(Value::Null);
        out["warnings"] = self
            .warnings
            .iter()
            .map(|w| json!({"tool": w.tool, "message": w.message}))
            .collect();
        out
    }
}

impl Catalog {
    /// The catalog in `profile`'s format, with its defaults.
    pub fn export(&self, profile: Profile) -> Export {
        self.export_with(&ExportOptions::new(profile))
    }

    /// The catalog exported as `options` say.
    pub fn export_with(&self, options: &ExportOptions) -> Export {
        let mut mapping = Mapping::default();
        let mut warnings = Vec::new();
        let mut entries = Vec::new();
        for exported in self.exporter(options).tools() {
            mapping.insert(exported.name, exported.mapping);
            warnings.extend(exported.warnings);
            entries.push((exported.tool, exported.entry));
        }
        let tools = match (options.profile, options.defer_loading) {
            (Profile::OpenAi, true) => namespaces(entries),
            (Profile::Anthropic, true) => {
                let mut out = vec![json!({
                    "type": "tool_search_tool_bm25_20251119",
                    "name": "tool_search_tool_bm25",
                })];
                out.extend(entries.into_iter().map(|(_, mut e)| {
                    e["defer_loading"] = json!(true);
                    e
                }));
                out
            }
            _ => entries.into_iter().map(|(_, e)| e).collect(),
        };
        Export {
            profile: options.profile,
            tools,
            mapping,
            warnings,
        }
    }

    /// Exports tools one at a time, as `options` say: what [`Catalog::export_with`]
    /// lists, without holding the whole export (a tool's schemas can take hundreds of
    /// KB spelled out, and a report shows every tool in four exports).
    pub fn exporter(&self, options: &ExportOptions) -> Exporter<'_> {
        // Names are made over the whole catalog, so each is what the full export says.
        let originals: Vec<&str> = self.tools().iter().map(|t| t.name.as_ref()).collect();
        Exporter {
            catalog: self,
            options: options.clone(),
            names: names::tool_names(&originals, options.name_budget),
            definitions: std::sync::Arc::new(
                self.apis()
                    .iter()
                    .map(|api| (api.name.as_ref(), Definitions::of(&api.definitions)))
                    .collect(),
            ),
        }
    }

    /// One tool's entry for the target, and its key renames.
    fn entry(
        &self,
        tool: &Tool,
        name: &str,
        options: &ExportOptions,
        defs: &Definitions<'_>,
        warnings: &mut Vec<Warning>,
    ) -> (Value, Keys) {
        let input = parse(&tool.input_schema);
        let dialect = |strict| match options.profile {
            Profile::Mcp => Dialect::Mcp,
            Profile::OpenAi => Dialect::OpenAi { strict },
            Profile::Anthropic => Dialect::Anthropic { strict },
            Profile::Gemini => Dialect::Gemini,
        };
        let strict_asked =
            options.strict && matches!(options.profile, Profile::OpenAi | Profile::Anthropic);
        let walk = |strict| {
            schema::walk(
                &input,
                &defs.input,
                dialect(strict),
                true,
                schema::INPUT_NODES,
            )
        };
        let mut walked = walk(strict_asked);
        let mut strict = strict_asked;
        if strict_asked && !walked.blockers.is_empty() {
            warnings.push(Warning {
                tool: tool.name.to_string(),
                message: format!("exported non-strict: {}", walked.blockers.join("; ")),
            });
            walked = walk(false);
            strict = false;
        }
        // Parsed only where it is used: the MCP entry carries it whole; elsewhere only
        // usage examples are read from it, and most tools have none.
        let meta = tool
            .meta
            .as_deref()
            .filter(|m| options.profile == Profile::Mcp || m.contains("\"examples\""))
            .and_then(|m| serde_json::from_str::<Value>(m).ok());
        // Usage examples, with the keys this export shows.
        let examples: Vec<(&str, Value)> = meta
            .as_ref()
            .and_then(|m| m.pointer("/toolwright/examples"))
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|e| {
                let request = e.get("request")?.as_str()?;
                Some((request, walked.keys.export(e.get("arguments")?.clone())))
            })
            .collect();
        let mut description = self.model_description(tool, options.description_budget);
        if options.profile != Profile::Anthropic
            && let Some((request, arguments)) = examples.first()
        {
            // No slot for examples: one in the description, if it fits the budget.
            let line = format!(
                "\n\nExample: \"{request}\" → {}",
                without_nulls(arguments.clone())
            );
            if description.chars().count() + line.chars().count() <= options.description_budget {
                description.push_str(&line);
            }
        }
        let parameters = walked.schema;
        let no_arguments = parameters
            .get("properties")
            .and_then(Value::as_object)
            .is_none_or(Map::is_empty);
        let entry = match options.profile {
            Profile::Mcp => {
                let mut e = json!({
                    "name": name,
                    "title": tool.title,
                    "description": description,
                    "inputSchema": parameters,
                });
                if let Some(output) = tool.output_schema.as_deref().map(parse) {
                    let output = crate::catalog::inline_root(output, |name| {
                        defs.output.get(name).map(|d| parse(d))
                    });
                    let walked = schema::walk(
                        &output,
                        &defs.output,
                        Dialect::Mcp,
                        false,
                        schema::OUTPUT_NODES,
                    );
                    e["outputSchema"] = walked.schema;
                }
                let a = tool.annotations;
                e["annotations"] = json!({
                    "title": tool.title,
                    "readOnlyHint": a.read_only,
                    "destructiveHint": a.destructive,
                    "idempotentHint": a.idempotent,
                    "openWorldHint": a.open_world,
                });
                if let Some(meta) = meta {
                    e["_meta"] = meta;
                }
                e
            }
            Profile::OpenAi => json!({
                "type": "function",
                "name": name,
                "description": description,
                "parameters": parameters,
                "strict": strict,
            }),
            Profile::Anthropic => {
                let mut e = json!({
                    "name": name,
                    "description": description,
                    "input_schema": parameters,
                });
                if strict {
                    e["strict"] = json!(true);
                }
                if !examples.is_empty() {
                    e["input_examples"] = examples.into_iter().map(|(_, args)| args).collect();
                }
                e
            }
            Profile::Gemini => {
                let mut e = json!({"name": name, "description": description});
                if !no_arguments {
                    e["parameters"] = parameters;
                }
                e
            }
        };
        (entry, walked.keys)
    }

    /// The tool's description cleaned for a model, within `budget` characters.
    fn model_description(&self, tool: &Tool, budget: usize) -> String {
        let base = docs_origin(tool);
        let cleaned = text::clean(&tool.description, base.as_deref());
        let cleaned = if cleaned.is_empty() {
            tool.title.to_string()
        } else {
            cleaned
        };
        text::fit(&cleaned, budget)
    }
}

/// `value` without the `null`s a strict target's arguments carry for left-out keys:
/// an example in words shows what is given.
fn without_nulls(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k, without_nulls(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(without_nulls).collect()),
        other => other,
    }
}

/// An API's definitions by name, per direction, as the catalog holds them (JSON text):
/// each is parsed where a tool's export reaches it, once per schema walked, and
/// dropped with the walk. Parsed up front, Microsoft Graph beta's took ~47 MB for as
/// long as the exporter lived; its 22,361 tools' exports parse ~600 MB of them as they
/// go (~13 s of its report's ~80, `benches/report_memory.md`).
#[derive(Debug, Default)]
struct Definitions<'c> {
    input: schema::Definitions<'c>,
    output: schema::Definitions<'c>,
}

impl<'c> Definitions<'c> {
    fn of(definitions: &'c [crate::descriptor::Definition]) -> Self {
        let mut out = Definitions::default();
        for d in definitions {
            out.input.insert(d.name.as_ref(), d.input.as_ref());
            out.output.insert(d.name.as_ref(), d.output.as_ref());
        }
        out
    }
}

/// Rendered schemas come from the generator; text that does not parse (a generator
/// bug) exports as an unconstrained schema rather than failing the export.
fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|_| json!({}))
}

/// The origin of the tool's documentation page (`externalDocs`), against which
/// relative links in its description resolve.
fn docs_origin(tool: &Tool) -> Option<String> {
    let meta: Value = serde_json::from_str(tool.meta.as_deref()?).ok()?;
    text::origin(
        meta.pointer("/toolwright/native/externalDocs/url")?
            .as_str()?,
    )
}

/// The group a tool belongs to for OpenAI namespaces: the top of its first tag's
/// OpenAPI 3.2 hierarchy (`products` for a tag under `products/cakes`: a parent and its
/// children are one namespace, split into runs like any other), else its first tag,
/// else its API.
fn group(tool: &Tool) -> String {
    let tag = tool.meta.as_deref().and_then(|m| {
        let meta: Value = serde_json::from_str(m).ok()?;
        let first = meta.pointer("/toolwright/native/tags/0")?.as_str()?;
        let top = meta
            .pointer("/toolwright/native/tagPaths")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .find(|path| path.ends_with(&format!("/{first}")))
            .and_then(|path| path.split('/').next());
        Some(top.unwrap_or(first).to_owned())
    });
    names::tool_name(&tag.unwrap_or_else(|| tool.operation.api.to_string())).to_ascii_lowercase()
}

/// OpenAI's advice: fewer than 10 functions per namespace.
const NAMESPACE_SIZE: usize = 9;

/// Functions grouped into namespaces (by tag, split into runs of at most
/// [`NAMESPACE_SIZE`]), each function deferred, then the search tool.
fn namespaces(entries: Vec<(&Tool, Value)>) -> Vec<Value> {
    let mut groups: std::collections::BTreeMap<String, Vec<(&Tool, Value)>> = Default::default();
    for (tool, entry) in entries {
        groups.entry(group(tool)).or_default().push((tool, entry));
    }
    let mut out = Vec::new();
    let mut taken = std::collections::BTreeSet::new();
    for (group, members) in groups {
        let chunks: Vec<_> = members.chunks(NAMESPACE_SIZE).map(<[_]>::to_vec).collect();
        let several = chunks.len() > 1;
        for (i, chunk) in chunks.into_iter().enumerate() {
            let base = if several {
                format!("{group}_{}", i + 1)
            } else {
                group.clone()
            };
            let mut name = names::shorten(&base, 64);
            let mut n = 2;
            while !taken.insert(name.clone()) {
                name = names::shorten(&format!("{base}_{n}"), 64);
                n += 1;
            }
            let titles: Vec<String> = chunk.iter().map(|(t, _)| t.title.to_string()).collect();
            let description = text::fit(
                &format!(
                    "{} operations: {}.",
                    group.replace('_', " "),
                    titles.join("; ")
                ),
                300,
            );
            let tools: Vec<Value> = chunk
                .into_iter()
                .map(|(_, mut e)| {
                    e["defer_loading"] = json!(true);
                    e
                })
                .collect();
            out.push(json!({
                "type": "namespace",
                "name": name,
                "description": description,
                "tools": tools,
            }));
        }
    }
    out.push(json!({"type": "tool_search"}));
    out
}
