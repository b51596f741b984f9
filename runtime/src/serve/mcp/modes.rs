//! How a catalog is shown to clients: every tool, or — for catalogs too large to list
//! (clients cap tool lists at about 128) — three meta-tools (`search_tools`,
//! `describe_tool`, `call_tool`), or one tool per CRUDE group taking `{operation,
//! params}` (the adapter spec's semantic endpoints), or — in code mode — `search` and
//! `execute`, a script against the API's declarations.
//!
//! Meta-tool calls end in the same path as a direct call (argument checks, gating,
//! confirmation, result budget), so `call_tool` is exactly as safe as the tool itself.

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
    /// Code mode (feature `code`): `search` (TypeScript declarations of the functions
    /// for a task) and `execute` (a script calling them); see [`crate::code`].
    #[cfg(feature = "code")]
    Code,
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

pub(super) use crate::catalog::meta::{CALL, DESCRIBE, GROUP_PREFIX, SEARCH};

/// `tools/list` entries of the meta-tools or group tools (exported as every other tool).
pub(super) fn entries(
    tools: &crate::catalog::Catalog,
    export: &crate::export::ExportOptions,
) -> Vec<String> {
    tools
        .export_with(export)
        .tools()
        .iter()
        .map(Value::to_string)
        .collect()
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
