//! Confirmations as MCP elicitations: a call the gate wants approved (and that the
//! service does not approve itself with `approve_with`) is put to the client's user
//! instead of failing with `CONFIRMATION_REQUIRED`, when the client can ask.
//!
//! - 2026-07-28 (stateless): the `tools/call` answer is an `input_required` result
//!   holding one `elicitation/create` request and a `requestState` only this server
//!   can make, bound to the caller, the tool and its arguments, expiring and good once
//!   (`approvals`); the client asks its user and calls again with `inputResponses` and
//!   the state. Other arguments, another tool or another caller are refused.
//! - 2025-06-18 / 2025-11-25 over stdio: the server sends `elicitation/create` to a
//!   client that declared the `elicitation` capability and waits for its answer.
//!
//! Only an explicit yes runs the call; decline, cancel, a timeout or a malformed
//! answer leave it unrun (`CONFIRMATION_REQUIRED`, declined).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use tokio::sync::{mpsc, oneshot};

/// The key of the one input request a confirmation makes.
pub(super) const KEY: &str = "confirm";
/// Where a 2026-07-28 request says what its client can do.
pub(super) const CAPABILITIES_META: &str = "io.modelcontextprotocol/clientCapabilities";

/// The `elicitation/create` parameters asking to run `tool` with `args`.
pub(super) fn request(title: &str, reason: &str, args: &Value) -> Value {
    let mut shown = args.to_string();
    if shown.len() > 600 {
        let cut = (0..=600)
            .rev()
            .find(|i| shown.is_char_boundary(*i))
            .unwrap_or(0);
        shown.truncate(cut);
        shown.push_str(" …");
    }
    json!({
        "mode": "form",
        "message": format!("Allow the assistant to run \u{201c}{title}\u{201d}? It needs approval: {reason}.\nArguments: {shown}"),
        "requestedSchema": {
            "type": "object",
            "properties": {
                "approve": {
                    "type": "boolean",
                    "title": "Run it",
                    "description": "Yes runs this call once, with exactly these arguments.",
                }
            },
            "required": ["approve"],
        },
    })
}

/// Whether an elicitation answer is an explicit yes.
pub(super) fn approved(answer: &Value) -> bool {
    answer.get("action").and_then(Value::as_str) == Some("accept")
        && answer.pointer("/content/approve") == Some(&Value::Bool(true))
}

/// A 2026-07-28 request whose client can elicit.
pub(super) fn modern_client_elicits(params: &Value) -> bool {
    params
        .pointer(&format!(
            "/_meta/{}/elicitation",
            CAPABILITIES_META.replace('/', "~1")
        ))
        .is_some()
}

/// The client at the other end of a stateful (stdio) connection: requests to it,
/// and the answers routed back by the transport.
#[derive(Debug, Clone)]
pub(crate) struct Peer {
    out: mpsc::UnboundedSender<String>,
    pending: Arc<Mutex<HashMap<String, oneshot::Sender<Value>>>>,
    next: Arc<AtomicU64>,
    /// The client declared `elicitation` in `initialize`.
    elicits: Arc<AtomicBool>,
}

impl Peer {
    pub(crate) fn new(out: mpsc::UnboundedSender<String>) -> Peer {
        Peer {
            out,
            pending: Arc::default(),
            next: Arc::default(),
            elicits: Arc::default(),
        }
    }

    /// Notes what an `initialize` request says the client can do.
    pub(crate) fn initialized(&self, params: &Value) {
        let elicits = params.pointer("/capabilities/elicitation").is_some();
        self.elicits.store(elicits, Ordering::Release);
    }

    pub(super) fn elicits(&self) -> bool {
        self.elicits.load(Ordering::Acquire)
    }

    /// Routes a message that answers one of this server's requests; `false` when it
    /// is not such an answer.
    pub(crate) fn answered(&self, message: &Value) -> bool {
        if message.get("method").is_some()
            || (message.get("result").is_none() && message.get("error").is_none())
        {
            return false;
        }
        let Some(id) = message.get("id").and_then(Value::as_str) else {
            return false;
        };
        let waiting = lock(&self.pending).remove(id);
        if let Some(waiting) = waiting {
            let _ = waiting.send(message.clone());
        }
        true
    }

    /// Sends `method` to the client and waits for its result (`None`: an error
    /// answer, a closed connection, or no answer in time).
    pub(super) async fn request(&self, method: &str, params: Value) -> Option<Value> {
        let id = format!("toolwright-{}", self.next.fetch_add(1, Ordering::Relaxed));
        let (answer, waiting) = oneshot::channel();
        lock(&self.pending).insert(id.clone(), answer);
        let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        if self.out.send(message.to_string()).is_err() {
            lock(&self.pending).remove(&id);
            return None;
        }
        let outcome = tokio::time::timeout(super::approvals::ANSWER_TIMEOUT, waiting).await;
        lock(&self.pending).remove(&id);
        outcome.ok()?.ok()?.get("result").cloned()
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_explicit_yes_approves() {
        assert!(approved(
            &json!({"action": "accept", "content": {"approve": true}})
        ));
        for no in [
            json!({"action": "accept", "content": {"approve": false}}),
            json!({"action": "accept", "content": {"approve": "true"}}),
            json!({"action": "accept"}),
            json!({"action": "decline"}),
            json!({"action": "cancel", "content": {"approve": true}}),
            json!(null),
        ] {
            assert!(!approved(&no), "{no}");
        }
    }
}
