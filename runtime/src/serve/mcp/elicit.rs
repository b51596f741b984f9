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

/// Characters of one argument's value shown in a confirmation before it is cut.
const SHOWN_PER_VALUE: usize = 200;

/// The `elicitation/create` parameters asking to run `tool` with `args`: every
/// argument on a line of its own, so a long value cannot push another out of sight (a
/// padded `memo` once hid `to_account`); a value longer than `SHOWN_PER_VALUE` is cut
/// with a mark saying so, and the whole arguments ride along in `_meta`.
pub(super) fn request(title: &str, reason: &str, args: &Value) -> Value {
    let mut lines = Vec::new();
    let mut cut_any = false;
    let mut show = |prefix: String, value: &Value| {
        let text = value.to_string();
        let chars = text.chars().count();
        if chars > SHOWN_PER_VALUE {
            cut_any = true;
            let kept: String = text.chars().take(SHOWN_PER_VALUE).collect();
            lines.push(format!(
                "{prefix}{kept} … [cut: {} more characters]",
                chars - SHOWN_PER_VALUE
            ));
        } else {
            lines.push(format!("{prefix}{text}"));
        }
    };
    match args {
        Value::Object(map) if !map.is_empty() => {
            for (key, value) in map {
                show(format!("{}:", Value::String(key.clone())), value);
            }
        }
        other => show(String::new(), other),
    }
    let mut message = format!(
        "Allow the assistant to run \u{201c}{title}\u{201d}? It needs approval: {reason}.\nArguments ({}):\n{}",
        lines.len(),
        lines.join("\n")
    );
    if cut_any {
        message.push_str(
            "\nSome values are cut here; the whole arguments are in this request's _meta (io.toolwright/arguments).",
        );
    }
    json!({
        "mode": "form",
        "message": message,
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
        "_meta": {"io.toolwright/arguments": args},
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
    /// The client declared `elicitation` in `initialize`.
    elicits: Arc<AtomicBool>,
    /// The capabilities it declared there.
    capabilities: Arc<Mutex<Value>>,
    /// The least severe log level it wants (`logging/setLevel`; `info` first), for
    /// this connection or session alone.
    log_level: Arc<std::sync::atomic::AtomicU8>,
}

impl Peer {
    pub(crate) fn new(out: mpsc::UnboundedSender<String>) -> Peer {
        Peer {
            out,
            pending: Arc::default(),
            elicits: Arc::default(),
            capabilities: Arc::default(),
            log_level: Arc::new(std::sync::atomic::AtomicU8::new(
                super::LogLevel::Info as u8,
            )),
        }
    }

    /// Notes what an `initialize` request says the client can do.
    pub(crate) fn initialized(&self, params: &Value) {
        let elicits = params.pointer("/capabilities/elicitation").is_some();
        self.elicits.store(elicits, Ordering::Release);
        *lock(&self.capabilities) = params.get("capabilities").cloned().unwrap_or_default();
    }

    /// What the client said it can do (`{}` before `initialize`).
    pub(super) fn capabilities(&self) -> Value {
        match &*lock(&self.capabilities) {
            Value::Null => json!({}),
            declared => declared.clone(),
        }
    }

    pub(super) fn elicits(&self) -> bool {
        self.elicits.load(Ordering::Acquire)
    }

    /// A peer for a client that declared `capabilities` (a streamable HTTP session's,
    /// from its `initialize`), reached through `out` (one response stream).
    #[cfg_attr(not(feature = "mcp-http"), allow(dead_code))]
    pub(crate) fn declared(
        out: mpsc::UnboundedSender<String>,
        capabilities: &Value,
        log_level: Arc<std::sync::atomic::AtomicU8>,
    ) -> Peer {
        let mut peer = Peer::new(out);
        peer.log_level = log_level;
        peer.initialized(&json!({ "capabilities": capabilities }));
        peer
    }

    /// The log level this client set (shared with its session).
    pub(super) fn log_level(&self) -> Arc<std::sync::atomic::AtomicU8> {
        Arc::clone(&self.log_level)
    }

    /// Whether `other` is this very peer (not a clone of another).
    #[cfg_attr(not(feature = "mcp-http"), allow(dead_code))]
    pub(crate) fn same(&self, other: &Peer) -> bool {
        Arc::ptr_eq(&self.pending, &other.pending)
    }

    /// Hands `message` to the request of this peer it answers; whether one was waiting.
    #[cfg_attr(not(feature = "mcp-http"), allow(dead_code))]
    pub(crate) fn deliver(&self, message: &Value) -> bool {
        let Some(id) = message.get("id").and_then(Value::as_str) else {
            return false;
        };
        let waiting = lock(&self.pending).remove(id);
        waiting.is_some_and(|waiting| waiting.send(message.clone()).is_ok())
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
        // Unique in the process (answers on HTTP are routed among a session's peers)
        // and not guessable: a random prefix drawn once, then a count.
        static NEXT: AtomicU64 = AtomicU64::new(0);
        static PREFIX: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        let prefix = PREFIX.get_or_init(|| {
            use ring::rand::SecureRandom;
            let mut bytes = [0u8; 12];
            let _ = ring::rand::SystemRandom::new().fill(&mut bytes);
            bytes.iter().map(|b| format!("{b:02x}")).collect()
        });
        let id = format!(
            "toolwright-{prefix}-{}",
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
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
    fn every_argument_is_shown_and_a_cut_is_marked() {
        let memo = "x".repeat(5_000);
        let question = request(
            "Send money",
            "it moves money",
            &json!({"amount": 10, "memo": memo, "to_account": "attacker-999"}),
        );
        let message = question["message"].as_str().unwrap();
        // A long value cannot push another out of sight.
        assert!(
            message.contains("\"to_account\":\"attacker-999\""),
            "{message}"
        );
        assert!(message.contains("\"amount\":10"), "{message}");
        assert!(message.contains("[cut: 4802 more characters]"), "{message}");
        assert!(message.contains("_meta"), "{message}");
        assert!(message.len() < 1_000, "{}", message.len());
        assert_eq!(
            question["_meta"]["io.toolwright/arguments"]["memo"]
                .as_str()
                .map(str::len),
            Some(5_000)
        );
        // Short arguments are shown whole, with no note.
        let short = request("Delete", "destructive", &json!({"number": 7}));
        let message = short["message"].as_str().unwrap();
        assert!(message.contains("\"number\":7"), "{message}");
        assert!(!message.contains("cut"), "{message}");
    }

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
