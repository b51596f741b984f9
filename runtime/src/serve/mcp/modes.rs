//! How a catalog is shown to clients: every tool, or — for catalogs too large to list
//! (clients cap tool lists at about 128) — three meta-tools (`search_tools`,
//! `describe_tool`, `call_tool`), or one tool per CRUDE group taking `{operation,
//! params}` (the adapter spec's semantic endpoints).
//!
//! Meta-tool calls end in the same path as a direct call (argument checks, gating,
//! confirmation, result budget), so `call_tool` is exactly as safe as the tool itself.

use std::collections::BTreeMap;

use serde_json::{Value, json};

/// What `tools/list` shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolMode {
    /// Every tool, one MCP tool each.
    Direct,
    /// `search_tools`, `describe_tool` and `call_tool`.
    Meta,
    /// `mcp_aql_create`, `mcp_aql_read`, ... : one tool per CRUDE group present.
    Groups,
    /// [`ToolMode::Direct`] up to `max_tools` tools, [`ToolMode::Meta`] above.
    Auto { max_tools: usize },
}

impl ToolMode {
    /// Meta-tools above 128 tools (OpenAI's and Copilot's cap on a tool list).
    pub const DEFAULT: ToolMode = ToolMode::Auto { max_tools: 128 };

    pub(super) fn resolve(self, tools: usize) -> ToolMode {
        match self {
            ToolMode::Auto { max_tools } if tools > max_tools => ToolMode::Meta,
            ToolMode::Auto { .. } => ToolMode::Direct,
            other => other,
        }
    }
}

impl Default for ToolMode {
    fn default() -> Self {
        ToolMode::DEFAULT
    }
}

pub(super) use crate::catalog::meta::{CALL, DESCRIBE, SEARCH};

/// The prefix of a group tool's name.
pub(super) const GROUP_PREFIX: &str = "mcp_aql_";

/// The three meta-tools' `tools/list` entries (the catalog's meta-tools, exported as
/// every other tool is).
pub(super) fn meta_entries(tools: usize, export: &crate::export::ExportOptions) -> Vec<String> {
    crate::catalog::meta::tools(tools)
        .export_with(export)
        .tools()
        .iter()
        .map(Value::to_string)
        .collect()
}

/// One group tool's entry: its operations (exported names) with one-line summaries.
pub(super) fn group_entry(group: &str, operations: &[(String, String)]) -> String {
    let names: Vec<&str> = operations.iter().map(|(n, _)| n.as_str()).collect();
    let list: Vec<String> = operations
        .iter()
        .map(|(name, summary)| format!("- {name}: {summary}"))
        .collect();
    let read_only = group == "read";
    json!({
        "name": format!("{GROUP_PREFIX}{group}"),
        "title": format!("{} operations", capitalised(group)),
        "description": format!(
            "Runs one of this server's {group} operations: `operation` names it, `params` \
             holds its arguments.\n\n{}",
            list.join("\n")
        ),
        "inputSchema": {
            "type": "object",
            "properties": {
                "operation": {"type": "string", "enum": names},
                "params": {"type": "object", "description": "The operation's arguments."}
            },
            "required": ["operation"],
            "additionalProperties": false
        },
        "annotations": {
            "title": format!("{} operations", capitalised(group)),
            "readOnlyHint": read_only,
            "destructiveHint": group == "delete" || group == "execute" || group == "update",
            "idempotentHint": read_only,
            "openWorldHint": true
        },
    })
    .to_string()
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// A meta-tool's answer: its JSON as text and as structured content.
pub(super) fn result(value: Value) -> Value {
    json!({
        "content": [{"type": "text", "text": value.to_string()}],
        "structuredContent": value,
        "isError": false,
    })
}

/// A meta-tool call the model got wrong: an error result it can read and fix.
pub(super) fn mistake(message: &str) -> Value {
    json!({"content": [{"type": "text", "text": message}], "isError": true})
}

/// Group → its operations (exported name, one-line summary), groups in CRUDE order.
pub(super) type Groups = BTreeMap<usize, (String, Vec<(String, String)>)>;

/// Where a CRUDE group sorts.
pub(super) fn group_order(group: &str) -> usize {
    ["create", "read", "update", "delete", "execute"]
        .iter()
        .position(|g| *g == group)
        .unwrap_or(5)
}
