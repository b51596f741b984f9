//! What a call of each tool needs, worked out once when the executor is built: one
//! table indexed like the catalog's tools, so that a call looks its tool up once (by
//! name, through the catalog's index) and finds everything else beside it.

use std::sync::{Arc, OnceLock};

use serde_json::Value;

use super::streaming::{self, Form};
use crate::catalog::{Catalog, Tool};
use crate::descriptor::Operation;
use crate::paginate::Plan;
use crate::resource::{Handler, Verb};
use crate::transport::{CallTarget, Limit};
use crate::validate::SchemaCheck;

/// One tool's share of the executor.
pub(super) struct ToolState {
    /// The service's own resource answers it (a resource's verb tools).
    pub handler: Option<(Arc<dyn Handler>, Verb)>,
    /// The operation as sent, when the service chose another of its request media
    /// types (`ExecutorBuilder::media_type`).
    pub chosen: Option<Operation>,
    /// Its input schema, compiled on its first call.
    pub check: OnceLock<SchemaCheck>,
    /// Who its requests are for, when its API is rate-limited.
    pub target: Option<CallTarget>,
    /// How it pages, when it does.
    pub plan: Option<Plan>,
    /// It declares a danger level or asks for confirmation: the default gate skips
    /// the others without reading their metadata.
    pub declares: bool,
    /// Its answer is a stream of events or lines, which a by-name call collects.
    pub stream: Option<Form>,
    /// Its Arazzo workflow, read from the descriptor (an unreadable one: why).
    pub workflow: Option<Result<Arc<crate::workflow::Plan>, String>>,
}

/// A tool of the executor's catalog with its state.
#[derive(Clone, Copy)]
pub(super) struct Found<'a> {
    pub tool: &'a Tool,
    pub state: &'a ToolState,
}

impl<'a> Found<'a> {
    /// The operation as it is sent (with the media type the service chose).
    pub fn operation(self) -> &'a Operation {
        self.state.chosen.as_ref().unwrap_or(&self.tool.operation)
    }
}

/// Every tool's state, indexed like `catalog.tools()`. `handlers` and `chosen` are
/// by tool name; `limits` are the rate limits, by API name.
pub(super) fn states(
    catalog: &Catalog,
    mut handlers: std::collections::BTreeMap<String, (Arc<dyn Handler>, Verb)>,
    mut chosen: std::collections::BTreeMap<String, Operation>,
    limits: &[(String, Limit)],
) -> Vec<ToolState> {
    catalog
        .tools()
        .iter()
        .map(|tool| ToolState {
            handler: handlers.remove(tool.name.as_ref()),
            chosen: chosen.remove(tool.name.as_ref()),
            check: OnceLock::new(),
            target: limits
                .iter()
                .any(|(api, _)| *api == tool.operation.api)
                .then(|| call_target(tool)),
            plan: Plan::of(tool.meta.as_deref()),
            declares: tool.meta.as_deref().is_some_and(|m| {
                m.contains("\"dangerLevel\"") || m.contains("\"requiresConfirmation\"")
            }),
            stream: streaming::form_of(tool),
            workflow: tool
                .operation
                .workflow
                .as_deref()
                .map(|text| crate::workflow::Plan::parse(text).map(Arc::new)),
        })
        .collect()
}

/// Who a tool's requests are for, for the rate limiter: its API, name, path template,
/// and categories (its CRUDE kind and tags).
fn call_target(tool: &Tool) -> CallTarget {
    let meta = tool
        .meta
        .as_deref()
        .and_then(|m| serde_json::from_str::<Value>(m).ok())
        .unwrap_or_default();
    let crude = meta.pointer("/toolwright/crude").and_then(Value::as_str);
    let tags = meta
        .pointer("/toolwright/native/tags")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str);
    CallTarget {
        api: tool.operation.api.to_string(),
        tool: tool.name.to_string(),
        path: tool.operation.path.to_string(),
        categories: crude.into_iter().chain(tags).map(str::to_owned).collect(),
    }
}
