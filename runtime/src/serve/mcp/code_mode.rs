//! Code mode over MCP: `search` answers with declarations as text, `execute` runs the
//! script with each call confirmed as a direct call would be — a call the gate wants
//! confirmed is put to the client's user (elicitation) while the script waits.

use std::sync::Arc;

use serde_json::{Value, json};

use super::{Asker, audit, elicit, modes};
use crate::code::{Code, EXECUTE, Host, SEARCH};
use crate::error::Error;

/// The answer to `tools/call` of `name` in code mode.
pub(super) async fn call(
    code: &Code,
    name: &str,
    arguments: &Value,
    asker: Option<Asker>,
    audit: ScriptAudit,
) -> Value {
    match name {
        SEARCH => {
            let Some(query) = arguments.get("query").and_then(Value::as_str) else {
                return modes::mistake("`search` needs a `query`: the task, in words");
            };
            match crate::catalog::meta::limit(
                arguments,
                crate::catalog::meta::DEFAULT_LIMIT as usize,
            ) {
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
                let outcome = code.execute_with(script, host(code, asker, audit)).await;
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
fn host(code: &Code, asker: Option<Asker>, audit: ScriptAudit) -> Host {
    let executor = code.executor().clone();
    let peer = match asker {
        Some(Asker::Peer(peer)) => Some(Channel::Peer(peer)),
        Some(Asker::Task(inbox)) => Some(Channel::Task(inbox)),
        _ => None,
    };
    let audit = Arc::new(audit);
    Arc::new(move |tool, args, pages| {
        let executor = executor.clone();
        let peer = peer.clone();
        let audit = Arc::clone(&audit);
        Box::pin(async move {
            let started = std::time::Instant::now();
            let api = executor
                .catalog()
                .get(&tool)
                .map(|t| t.operation.api.to_string());
            let result = call_for_script(&executor, peer, tool.clone(), args, pages).await;
            audit.record(tool, api, &result, started.elapsed());
            result
        })
    })
}

/// Who runs a script and where its calls' audit records go: each API call a script
/// makes is a record of its own (the third hostile-input round's F08: `--audit` saw
/// only the `execute`), its request id the script's with `#n` after it.
pub(super) struct ScriptAudit {
    pub sink: Option<audit::Sink>,
    pub caller: Option<Arc<str>>,
    pub request_id: String,
    pub calls: std::sync::atomic::AtomicUsize,
}

impl ScriptAudit {
    fn record(
        &self,
        tool: String,
        api: Option<String>,
        result: &Result<Value, Error>,
        duration: std::time::Duration,
    ) {
        let n = self
            .calls
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            + 1;
        let record = audit::AuditRecord {
            caller: self.caller.clone(),
            tool,
            api,
            outcome: match result {
                Ok(_) => "ok".into(),
                Err(e) => e.code().to_owned(),
            },
            duration,
            request_id: format!("{}#{n}", self.request_id),
        };
        audit::emit(self.sink.as_ref(), &record);
    }
}

/// Where a script's confirmations are asked: over the connection, or through the
/// task the script runs as (2026-07-28, where a request cannot wait otherwise).
#[derive(Clone)]
enum Channel {
    Peer(super::Peer),
    Task(Arc<super::offers::Inbox>),
}

impl Channel {
    async fn request(&self, method: &str, params: Value) -> Option<Value> {
        match self {
            Channel::Peer(peer) => peer.request(method, params).await,
            Channel::Task(inbox) => inbox.request(method, params).await,
        }
    }
}

/// One API call a script makes: every page of it, or the call itself after the gate.
async fn call_for_script(
    executor: &crate::Executor,
    peer: Option<Channel>,
    tool: String,
    args: Value,
    pages: Option<crate::paginate::PageLimits>,
) -> Result<Value, Error> {
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
}
