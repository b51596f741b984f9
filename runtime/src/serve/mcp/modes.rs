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

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::ToolMode;
    use crate::catalog::rerank::{Candidate, Reranked, Reranker};
    use crate::serve::mcp::Server;

    /// Reverses the lexical order (a stand-in for a model).
    struct Reverse;

    impl Reranker for Reverse {
        fn rerank<'a>(&'a self, _: &'a str, candidates: &'a [Candidate]) -> Reranked<'a> {
            let names = candidates.iter().rev().map(|c| c.name.clone()).collect();
            Box::pin(std::future::ready(names))
        }
    }

    fn server(reranker: bool) -> Server {
        let catalog = crate::catalog::catalog_of(&[
            ("create_issue", "Create an issue in a project"),
            ("list_issues", "List the issues of a project"),
            ("close_issue", "Close an issue"),
        ]);
        let builder = crate::Executor::builder(catalog);
        let builder = if reranker {
            builder.reranker(Reverse)
        } else {
            builder
        };
        Server::new(builder.build().unwrap()).mode(ToolMode::Meta)
    }

    async fn search(server: &Server, arguments: Value) -> Value {
        let answer = server
            .handle(json!({
                "jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": {"name": "search_tools", "arguments": arguments},
            }))
            .await
            .unwrap();
        answer["result"]["structuredContent"].clone()
    }

    #[tokio::test]
    async fn the_meta_mode_answers_compact_lines_in_the_executors_reranked_order() {
        let query = json!({"query": "create an issue in a project", "detail": "compact"});
        let lexical = search(&server(false), query.clone()).await;
        let lines: Vec<Value> = lexical["tools"].as_array().unwrap().clone();
        assert_eq!(lines[0], "create_issue: Create an issue in a project");
        assert!(lexical["next"].as_str().unwrap().contains("describe_tool"));
        let reranked = search(&server(true), query).await;
        let mut reversed = lines.clone();
        reversed.reverse();
        assert_eq!(reranked["tools"], json!(reversed));
        // The full answer, as before, unless asked.
        let full = search(&server(false), json!({"query": "create an issue"})).await;
        assert_eq!(full["tools"][0]["name"], "create_issue");
        assert!(full.get("next").is_none());
    }
}
