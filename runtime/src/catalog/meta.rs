//! Meta-tools for catalogs too large to hand a model: `search_tools` (a task in words →
//! tool names), `describe_tool` (one tool's schemas) and `call_tool` (name + arguments);
//! and the adapter spec's semantic endpoints ([`groups`]: one `mcp_aql_<group>` tool
//! per CRUDE group, taking `{operation, params}`).
//!
//! [`tools`] is a catalog of the three, exportable to every provider profile like any
//! catalog (`toolwright catalog --format openai --mode meta`); [`Executor::call_meta`](crate::Executor::call_meta)
//! answers a model's call to any of them — or to a tool by its own name — against the
//! executor's real catalog. The MCP server lists the same three in its meta mode.

use std::borrow::Cow;

use serde_json::{Value, json};

use super::{Annotations, Catalog, Tool, compact};
use crate::descriptor::{Method, Operation};

pub const SEARCH: &str = "search_tools";
pub const DESCRIBE: &str = "describe_tool";
pub const CALL: &str = "call_tool";
/// Results `search_tools` returns unless asked for another number (in full detail; a
/// compact search returns [`compact::LIMIT`]).
pub const DEFAULT_LIMIT: u64 = 10;
pub const MAX_LIMIT: u64 = 50;
/// The prefix of a group tool's name (`mcp_aql_read`).
pub const GROUP_PREFIX: &str = "mcp_aql_";
/// CRUDE groups.
const GROUPS: [&str; 5] = ["create", "read", "update", "delete", "execute"];

/// The API name meta-tools carry: no base URL, never sent anywhere.
const META_API: &str = "toolwright.meta";

/// The three meta-tools, for a catalog of `count` tools.
pub fn tools(count: usize) -> Catalog {
    let read = Annotations {
        read_only: true,
        destructive: false,
        idempotent: true,
        open_world: false,
    };
    let search = Tool::meta(
        SEARCH,
        "Search tools",
        &format!(
            "Find the tools for a task among {count}: describe the task in words (\"open a \
             new bug report\"); returns tool names, best first, with one-line descriptions and \
             required arguments (values such as `#42` or `owner/name` may be in the words). \
             `detail: \"compact\"` returns the top {} as one short `name: summary` line each \
             instead, to choose from cheaply. Then `{DESCRIBE}` for a tool's arguments and \
             `{CALL}` to run it.",
            compact::LIMIT
        ),
        search_schema(),
        read,
    );
    let describe = Tool::meta(
        DESCRIBE,
        "Describe a tool",
        &format!(
            "The full definition of one tool found with `{SEARCH}`: description, input \
             schema (the arguments `{CALL}` takes), output schema and annotations."
        ),
        json!({
            "type": "object",
            "properties": {"name": {"type": "string", "description": "The tool's name."}},
            "required": ["name"],
            "additionalProperties": false
        }),
        read,
    );
    let call = Tool::meta(
        CALL,
        "Call a tool",
        &format!(
            "Run one tool by name with its arguments (an object matching the input schema \
             `{DESCRIBE}` gave). Checked, gated and confirmed exactly as a direct call."
        ),
        json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "description": "The tool's name."},
                "arguments": {"type": "object", "description": "The tool's arguments."}
            },
            "required": ["name"],
            "additionalProperties": false
        }),
        RUNS_ANY_TOOL,
    );
    Catalog::from_sorted(vec![call, describe, search], Vec::new())
}

/// One tool per CRUDE group present in `catalog`, each listing its operations (name and
/// one-line summary) and taking `{operation, params}`.
pub fn groups(catalog: &Catalog) -> Catalog {
    // Each tool's group once (it is read from the tool's metadata).
    let grouped: Vec<(String, &Tool)> = catalog
        .tools()
        .iter()
        .map(|t| (super::select::with_facts(t, |f| f.group.to_owned()), t))
        .collect();
    let mut tools = Vec::new();
    for group in GROUPS {
        let members: Vec<&Tool> = grouped
            .iter()
            .filter(|(g, _)| g == group)
            .map(|(_, t)| *t)
            .collect();
        if members.is_empty() {
            continue;
        }
        let names: Vec<&str> = members.iter().map(|t| t.name.as_ref()).collect();
        let list: Vec<String> = members
            .iter()
            .map(|t| {
                format!(
                    "- {}: {}",
                    t.name,
                    t.description.lines().next().unwrap_or_default()
                )
            })
            .collect();
        let read_only = group == "read";
        let title = format!("{}{} operations", group[..1].to_uppercase(), &group[1..]);
        tools.push(Tool::meta(
            &format!("{GROUP_PREFIX}{group}"),
            &title,
            &format!(
                "Runs one of the {group} operations: `operation` names it, `params` holds its \
                 arguments.\n\n{}",
                list.join("\n")
            ),
            json!({
                "type": "object",
                "properties": {
                    "operation": {"type": "string", "enum": names},
                    "params": {"type": "object", "description": "The operation's arguments."}
                },
                "required": ["operation"],
                "additionalProperties": false
            }),
            Annotations {
                read_only,
                destructive: matches!(group, "update" | "delete" | "execute"),
                idempotent: read_only,
                open_world: true,
            },
        ));
    }
    // A catalog is sorted by name.
    tools.sort_by(|a, b| a.name.cmp(&b.name));
    Catalog::from_sorted(tools, Vec::new())
}

/// The annotations of a tool that can run any other (`call_tool`, code mode's
/// `execute`): the worst of them, under-annotated rather than mis-annotated.
pub(crate) const RUNS_ANY_TOOL: Annotations = Annotations {
    read_only: false,
    destructive: true,
    idempotent: false,
    open_world: true,
};

/// `search_tools`' input: [`query_schema`] and `detail`, `full` (the default: name,
/// title, description, required arguments, score) or `compact` (one line per tool).
fn search_schema() -> Value {
    let mut schema = query_schema("tools");
    schema["properties"]["limit"]["description"] = json!(format!(
        "How many tools (default {DEFAULT_LIMIT}; {} compact).",
        compact::LIMIT
    ));
    schema["properties"]["detail"] = json!({
        "type": "string",
        "enum": ["full", "compact"],
        "description": format!(
            "`full` (default): each tool's name, title, description, required arguments and \
             score. `compact`: one `name: summary` line per tool (at most {} tokens each).",
            compact::LINE_TOKENS
        )
    });
    schema
}

/// How much of each tool a `search_tools` answer shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Detail {
    /// [`hit_json`]: name, title, description, required arguments, score.
    Full,
    /// [`compact::line`]: one line per tool.
    Compact,
}

impl Detail {
    /// The `detail` a `search_tools` call asked for.
    pub(crate) fn of(arguments: &Value) -> Result<Detail, String> {
        match arguments.get("detail") {
            None | Some(Value::Null) => Ok(Detail::Full),
            Some(v) if v == "full" => Ok(Detail::Full),
            Some(v) if v == "compact" => Ok(Detail::Compact),
            Some(_) => Err("`detail` is `full` or `compact`".to_owned()),
        }
    }

    /// Results returned when the call names no `limit`.
    fn default_limit(self) -> usize {
        match self {
            Detail::Full => DEFAULT_LIMIT as usize,
            Detail::Compact => compact::LIMIT,
        }
    }
}

/// A `search_tools` answer: `{tools}` in `detail`, each hit under the name `named`
/// gives (`None`: the tool is not shown to this caller), with `note` when there is one.
/// A compact answer says how to get a tool's whole definition.
pub(crate) fn search_answer<'c>(
    hits: &[super::SearchHit<'c>],
    detail: Detail,
    named: impl Fn(&'c Tool) -> Option<&'c str>,
    note: Option<String>,
) -> Value {
    let tools: Vec<Value> = hits
        .iter()
        .filter_map(|hit| {
            let name = named(hit.tool)?;
            Some(match detail {
                Detail::Full => hit_json(hit, name),
                Detail::Compact => Value::String(compact::line(name, hit.tool)),
            })
        })
        .collect();
    let mut out = json!({ "tools": tools });
    if detail == Detail::Compact {
        out["next"] = json!(format!(
            "`{DESCRIBE}` with {{\"name\": ...}} gives a tool's arguments and output; \
             `{CALL}` runs it"
        ));
    }
    if let Some(note) = note {
        out["note"] = json!(note);
    }
    out
}

/// The input of a search: `{query, limit}`, `limit` counting `what`.
pub(crate) fn query_schema(what: &str) -> Value {
    json!({
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "The task, in words."},
            "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT,
                      "description": format!("How many {what} (default {DEFAULT_LIMIT}).")}
        },
        "required": ["query"],
        "additionalProperties": false
    })
}

/// The CRUDE group of the tool named `operation` in `catalog`.
pub(crate) fn group_of(catalog: &Catalog, operation: &str) -> Option<String> {
    let tool = catalog.get(operation)?;
    Some(super::select::with_facts(tool, |f| f.group.to_owned()))
}

impl Tool {
    pub(crate) fn meta(
        name: &str,
        title: &str,
        description: &str,
        schema: Value,
        a: Annotations,
    ) -> Tool {
        Tool {
            name: Cow::Owned(name.to_owned()),
            title: Cow::Owned(title.to_owned()),
            description: Cow::Owned(description.to_owned()),
            input_schema: Cow::Owned(schema.to_string()),
            output_schema: None,
            annotations: a,
            meta: None,
            operation: Cow::Owned(Operation::local(
                name,
                META_API,
                Method::Post,
                format!("/{name}"),
                Vec::new(),
            )),
            contract: None,
        }
    }
}

/// One `search_tools` result, under the name the caller knows the tool by.
pub(crate) fn hit_json(hit: &super::SearchHit<'_>, name: &str) -> Value {
    // The arguments a call cannot do without: enough to choose between near tools
    // without a `describe_tool` for each.
    let required = serde_json::from_str::<Value>(&hit.tool.input_schema)
        .ok()
        .and_then(|s| s.get("required").cloned())
        .unwrap_or_else(|| json!([]));
    json!({
        "name": name,
        "title": hit.tool.title,
        "description": hit.tool.description.lines().next().unwrap_or_default(),
        "required": required,
        "score": (f64::from(hit.score) * 1000.0).round() / 1000.0,
    })
}

/// What a search that found nothing says instead: the catalog's commonest tags, to
/// phrase the next query in the API's own words.
pub(crate) fn no_match(catalog: &Catalog, query: &str) -> String {
    let mut counts: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    for tool in catalog.tools() {
        let Some(meta) = tool.meta.as_deref() else {
            continue;
        };
        let Ok(meta) = serde_json::from_str::<Value>(meta) else {
            continue;
        };
        for tags in [
            meta.pointer("/toolwright/native/tags"),
            meta.pointer("/toolwright/tags"),
        ] {
            for tag in tags.and_then(Value::as_array).into_iter().flatten() {
                if let Some(tag) = tag.as_str() {
                    *counts.entry(tag.to_owned()).or_default() += 1;
                }
            }
        }
    }
    let mut tags: Vec<(String, usize)> = counts.into_iter().collect();
    tags.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let tags: Vec<String> = tags.into_iter().take(10).map(|(t, _)| t).collect();
    if tags.is_empty() {
        format!("No tool matches `{query}`. Try other words for the task.")
    } else {
        format!(
            "No tool matches `{query}`. Try the API's own words; its tools are grouped as: {}.",
            tags.join(", ")
        )
    }
}

/// A request as search reads it — its first
/// [`MAX_QUERY`](toolwright_query::search::MAX_QUERY) bytes — and, when that is not all
/// of it, the note that says so (`search_tools` and code mode's `search` both answer
/// with it: a caller must not think the rest of its words were read).
pub(crate) fn read_request(query: &str) -> (&str, Option<String>) {
    let (read, cut) = toolwright_query::search::bounded(query);
    let note = cut.then(|| {
        format!(
            "the request was read up to its first {} bytes; describe the task in fewer words",
            toolwright_query::search::MAX_QUERY
        )
    });
    (read, note)
}

/// The `limit` a `search_tools` call asked for, within bounds (`detail`'s default when
/// none).
pub(crate) fn search_limit(arguments: &Value, detail: Detail) -> Result<usize, String> {
    limit(arguments, detail.default_limit())
}

/// The `limit` a search call asked for, within bounds (`default` when none).
pub(crate) fn limit(arguments: &Value, default: usize) -> Result<usize, String> {
    match arguments.get("limit") {
        None | Some(Value::Null) => Ok(default),
        Some(v) => v
            .as_u64()
            .filter(|n| (1..=MAX_LIMIT).contains(n))
            .map(|n| n as usize)
            .ok_or_else(|| format!("`limit` must be an integer from 1 to {MAX_LIMIT}")),
    }
}
