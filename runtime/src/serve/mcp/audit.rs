//! One audit record per `tools/call`: who called which tool of which API, how it ended
//! and how long it took — never argument values, results or credentials. Records go to
//! the sink given to [`Server::audit`](super::Server::audit) and, with feature
//! `tracing`, are `INFO` events of target `toolwright::audit`.
//!
//! The caller is known to the transport (an HTTP request's token), not to the server
//! answering the message: it is read from [`crate::caller`].

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};

/// What one `tools/call` did.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct AuditRecord {
    /// Who called (`None` over stdio or an endpoint without authorization).
    pub caller: Option<Arc<str>>,
    /// The tool's name as the client called it.
    pub tool: String,
    /// The API the tool calls (`None` for an unknown tool or a meta-tool).
    pub api: Option<String>,
    /// `ok`, the error code of a failed call (`UPSTREAM_STATUS`, `VALIDATION_ARGUMENTS`,
    /// ...), or `refused` (a protocol error: unknown tool, bad params).
    pub outcome: String,
    pub duration: Duration,
    /// The JSON-RPC request id, as JSON text.
    pub request_id: String,
}

impl AuditRecord {
    /// The record as one JSON object (what `toolwright serve --audit` prints).
    pub fn to_json(&self) -> Value {
        json!({
            "caller": self.caller.as_deref(),
            "tool": self.tool,
            "api": self.api,
            "outcome": self.outcome,
            "duration_ms": u64::try_from(self.duration.as_millis()).unwrap_or(u64::MAX),
            "request_id": self.request_id,
        })
    }
}

/// The outcome of a `tools/call` answer: its error code when it failed.
pub(super) fn outcome(result: &Result<Value, (i64, String)>) -> String {
    match result {
        Err(_) => "refused".into(),
        Ok(result) if result.get("isError") == Some(&Value::Bool(true)) => result
            .pointer("/_meta/toolwright/code")
            .and_then(Value::as_str)
            .unwrap_or("error")
            .to_owned(),
        Ok(_) => "ok".into(),
    }
}

/// A sink for records (cheap to clone).
#[derive(Clone)]
pub(super) struct Sink(pub(super) Arc<dyn Fn(&AuditRecord) + Send + Sync>);

impl std::fmt::Debug for Sink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Sink")
    }
}

/// Hands `record` to `sink` and to `tracing`.
pub(super) fn emit(sink: Option<&Sink>, record: &AuditRecord) {
    #[cfg(feature = "tracing")]
    tracing::info!(
        target: "toolwright::audit",
        caller = record.caller.as_deref().unwrap_or("-"),
        tool = %record.tool,
        api = record.api.as_deref().unwrap_or("-"),
        outcome = %record.outcome,
        duration_ms = u64::try_from(record.duration.as_millis()).unwrap_or(u64::MAX),
        request_id = %record.request_id,
        "tools/call"
    );
    if let Some(Sink(sink)) = sink {
        sink(record);
    }
}
