//! Which calls a model may make on its own: a policy the service sets looks at each
//! by-name call (what models make) — its danger level, whether its source asks for
//! confirmation, its annotations, the trust level of its API, its arguments — and
//! allows it, denies it, or asks for an approval that an async callback gives (a
//! person in the loop, a second check). Without a callback, a call that needs approval is refused with
//! `CONFIRMATION_REQUIRED`; nothing is sent. Typed calls are the service's own code
//! and are not gated.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use serde_json::Value;

use crate::catalog::{Annotations, Tool};

/// What the policy decides for one call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Allow,
    /// Runs only if the approval callback says yes; the text says why it is asked.
    Confirm(String),
    /// Never runs; the text says why.
    Deny(String),
}

/// A call waiting for the policy (and perhaps for approval).
#[derive(Debug, Clone)]
pub struct PendingCall {
    pub tool: String,
    pub title: String,
    /// The arguments as given (already checked against the tool's schema).
    pub arguments: Value,
    pub annotations: Annotations,
    /// The source's `danger_level` (`safe`, `reversible`, `destructive`,
    /// `dangerous`, `forbidden`), when it gave one.
    pub danger_level: Option<String>,
    /// The source's `requires_confirmation`.
    pub requires_confirmation: bool,
    /// The API's trust level (an adapter's `trust.level`: `official`, `verified`,
    /// `community`, `untrusted`), when it gave one.
    pub trust: Option<String>,
    /// Who asked for the call: the authenticated MCP client's name (a static token's
    /// name, a JWT's subject) when it came through an HTTP endpoint with
    /// authorization; `None` over stdio, for typed calls and calls from the service's
    /// own code. A policy may decide by it; an approver should show it.
    pub caller: Option<Arc<str>>,
}

impl PendingCall {
    pub(crate) fn new(tool: &Tool, arguments: Value, trust: Option<&str>) -> PendingCall {
        let meta = tool
            .meta
            .as_deref()
            .filter(|m| m.contains("dangerLevel") || m.contains("requiresConfirmation"))
            .and_then(|m| serde_json::from_str::<Value>(m).ok());
        let field = |k: &str| {
            meta.as_ref()
                .and_then(|m| m.pointer(&format!("/toolwright/{k}")).cloned())
        };
        PendingCall {
            tool: tool.name.to_string(),
            title: tool.title.to_string(),
            arguments,
            annotations: tool.annotations,
            danger_level: field("dangerLevel").and_then(|v| v.as_str().map(str::to_owned)),
            requires_confirmation: field("requiresConfirmation") == Some(Value::Bool(true)),
            trust: trust.map(str::to_owned),
            caller: crate::caller::name(),
        }
    }
}

/// The policy: a function of the pending call.
pub type Policy = Arc<dyn Fn(&PendingCall) -> Verdict + Send + Sync>;

/// The approval callback: `true` lets the call run.
pub type Approver =
    Arc<dyn Fn(PendingCall) -> Pin<Box<dyn Future<Output = bool> + Send>> + Send + Sync>;

/// The default policy: `forbidden` never runs; `dangerous`, a source asking for
/// confirmation, or anything but a read on an `untrusted` API needs approval;
/// everything else runs.
pub fn default_policy(call: &PendingCall) -> Verdict {
    match call.danger_level.as_deref() {
        Some("forbidden") => Verdict::Deny("its danger level is `forbidden`".into()),
        Some("dangerous") => Verdict::Confirm("its danger level is `dangerous`".into()),
        _ if call.requires_confirmation => {
            Verdict::Confirm("its description asks for confirmation".into())
        }
        _ if call.trust.as_deref() == Some("untrusted") && !call.annotations.read_only => {
            Verdict::Confirm("its API's trust level is `untrusted` and it changes data".into())
        }
        _ => Verdict::Allow,
    }
}

/// A stricter policy a service may pick: [`default_policy`], plus approval for every
/// call annotated destructive.
pub fn confirm_destructive(call: &PendingCall) -> Verdict {
    match default_policy(call) {
        Verdict::Allow if call.annotations.destructive => {
            Verdict::Confirm("it is destructive".into())
        }
        other => other,
    }
}
