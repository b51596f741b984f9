//! The gate on by-name calls (what models make): the policy's verdict, and the
//! approval a `Confirm` verdict waits for. Typed calls are the service's own code
//! and pass no gate.

use serde_json::{Map, Value};

use super::{Executor, Found};
use crate::catalog::Tool;
use crate::error::Error;
use crate::gate::{PendingCall, Verdict};

impl Executor {
    /// Why tool `name` would need approval before running with `args`, when the
    /// gate asks for it and the service set no approval callback of its own (then
    /// whoever serves the call — an MCP server — may ask its client instead).
    #[cfg(feature = "mcp")]
    pub(crate) fn needs_approval(&self, name: &str, args: &Value) -> Option<String> {
        if self.inner.approver.is_some() {
            return None;
        }
        let found = self.lookup(name)?;
        if found.state.workflow.is_some() {
            return self.workflow_approval(found, args.as_object()?);
        }
        match self.judge(found, args.as_object()?)? {
            Verdict::Confirm(reason) => Some(reason),
            _ => None,
        }
    }

    /// The gate's verdict on a call, or `None` when the policy need not see it.
    pub(super) fn judge(&self, found: Found<'_>, args: &Map<String, Value>) -> Option<Verdict> {
        // The default policy only looks at what the source declared: a tool that
        // declares nothing runs without a copy of its arguments being made.
        let trusted = !self
            .inner
            .trust
            .contains_key(found.tool.operation.api.as_ref());
        if !self.inner.custom_gate && !found.state.declares && trusted {
            return None;
        }
        Some((self.inner.gate)(&self.pending(found.tool, args)))
    }

    /// The call as the policy and the approval callback see it.
    fn pending(&self, tool: &Tool, args: &Map<String, Value>) -> PendingCall {
        let trust = self.inner.trust.get(tool.operation.api.as_ref());
        PendingCall::new(tool, Value::Object(args.clone()), trust.map(String::as_str))
    }

    /// The gate: lets the call through, asks for approval, or refuses it.
    pub(super) async fn admit(
        &self,
        found: Found<'_>,
        args: &Map<String, Value>,
    ) -> Result<(), Error> {
        let Some(verdict) = self.judge(found, args) else {
            return Ok(());
        };
        let tool = found.tool;
        match verdict {
            Verdict::Allow => Ok(()),
            Verdict::Deny(reason) => Err(Error::Denied {
                tool: tool.name.to_string(),
                reason,
            }),
            Verdict::Confirm(reason) => match &self.inner.approver {
                Some(approve) if approve(self.pending(tool, args)).await => Ok(()),
                approver => Err(Error::ConfirmationRequired {
                    tool: tool.name.to_string(),
                    reason,
                    declined: approver.is_some(),
                }),
            },
        }
    }
}
