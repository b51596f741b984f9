//! Code mode over MCP: `search` answers with declarations as text, `execute` runs the
//! script with each call confirmed as a direct call would be — a call the gate wants
//! confirmed is put to the client's user (elicitation) while the script waits.

use std::sync::Arc;

use serde_json::{Value, json};

use super::{Asker, elicit, modes};
use crate::code::{Code, EXECUTE, Host, SEARCH};
use crate::error::Error;

/// The answer to `tools/call` of `name` in code mode.
pub(super) async fn call(
    code: &Code,
    name: &str,
    arguments: &Value,
    asker: Option<Asker>,
) -> Value {
    match name {
        SEARCH => {
            let Some(query) = arguments.get("query").and_then(Value::as_str) else {
                return modes::mistake("`search` needs a `query`: the task, in words");
            };
            match crate::catalog::meta::limit(arguments) {
                Ok(limit) => {
                    // Off the async workers: a long request must not stall other
                    // clients' calls while it is read.
                    let (code, query) = (code.clone(), query.to_owned());
                    let text = tokio::task::spawn_blocking(move || code.search(&query, limit))
                        .await
                        .unwrap_or_else(|e| format!("// the search failed: {e}"));
                    json!({
                        "content": [{"type": "text", "text": text}],
                        "isError": false,
                    })
                }
                Err(e) => modes::mistake(&e),
            }
        }
        EXECUTE => match crate::code::tools::script(arguments) {
            Err(e) => modes::mistake(&format!("`execute` {e}")),
            Ok(script) => {
                let outcome = code.execute_with(script, host(code, asker)).await;
                let failed = outcome.result.is_err();
                let value = outcome.to_json();
                json!({
                    "content": [{"type": "text", "text": value.to_string()}],
                    "structuredContent": value,
                    "isError": failed,
                })
            }
        },
        other => modes::mistake(&format!(
            "unknown tool `{other}`: in code mode there are `{SEARCH}` and `{EXECUTE}`"
        )),
    }
}

/// Calls through the executor; a call needing confirmation asks the client's user
/// when the connection can (a stateless request cannot wait inside a script: the
/// script gets `CONFIRMATION_REQUIRED`).
fn host(code: &Code, asker: Option<Asker>) -> Host {
    let executor = code.executor().clone();
    let peer = match asker {
        Some(Asker::Peer(peer)) => Some(peer),
        _ => None,
    };
    Arc::new(move |tool, args, pages| {
        let executor = executor.clone();
        let peer = peer.clone();
        Box::pin(async move {
            if let Some(limits) = pages {
                return executor.call_all(&tool, args, limits).await;
            }
            let approved = match (executor.needs_approval(&tool, &args), peer) {
                (Some(reason), Some(peer)) => {
                    let title = executor
                        .catalog()
                        .get(&tool)
                        .map_or_else(|| tool.clone(), |t| t.title.to_string());
                    let question = elicit::request(&title, &reason, &args);
                    match peer.request("elicitation/create", question).await {
                        Some(answer) if elicit::approved(&answer) => true,
                        _ => {
                            return Err(Error::ConfirmationRequired {
                                tool,
                                reason,
                                declined: true,
                            });
                        }
                    }
                }
                _ => false,
            };
            executor
                .call_answering(&tool, args, approved)
                .await
                .map(|answer| answer.value)
        })
    })
}
