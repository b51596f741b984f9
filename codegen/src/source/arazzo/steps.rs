//! A workflow's steps as the runtime's descriptor data (`toolwright::workflow`):
//! each step's tool, its arguments (parameters and body properties resolved to the
//! tool's argument names), criteria and actions — with the annotations its tools
//! give it. What a step sends that its operation does not take is an error here.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::lower::{Here, PREFIX};
use crate::diagnostics::Diagnostics;
use crate::ir::{self, ParamLocation, Schema};

/// What one step calls.
pub(super) enum Target<'a> {
    Operation(&'a ir::Operation),
    Workflow(&'a ir::Operation),
}

impl Target<'_> {
    pub(super) fn op(&self) -> &ir::Operation {
        match self {
            Target::Operation(op) | Target::Workflow(op) => op,
        }
    }
}

/// A workflow's descriptor data, annotations and output schema.
#[allow(clippy::too_many_arguments)]
pub(super) fn lower(
    here: &Here<'_>,
    root: &Value,
    api: &ir::Api,
    done: &BTreeMap<String, ir::Workflow>,
    at: &str,
    w: &Value,
    id: &str,
    diagnostics: &mut Diagnostics,
) -> Option<(ir::Workflow, Schema)> {
    let steps = super::steps_of(w);
    let shared: Vec<Value> = w
        .get("parameters")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let mut planned = Vec::new();
    let mut targets = Vec::new();
    let mut ok = true;
    let (mut read_only, mut destructive, mut idempotent) = (true, false, true);
    for (i, step) in steps.iter().enumerate() {
        let here_step = format!("{at}/steps/{i}");
        let Some(target) = target(api, step) else {
            // The checker said why (an unknown operation or workflow).
            ok = false;
            continue;
        };
        let op = target.op();
        match &target {
            Target::Operation(op) => {
                let a = crate::ir::annotations::annotations(op);
                read_only &= a.read_only;
                destructive |= a.destructive;
                idempotent &= a.idempotent;
            }
            Target::Workflow(op) => {
                let workflow = op.path.strip_prefix(PREFIX).and_then(|id| done.get(id));
                read_only &= workflow.is_some_and(|w| w.read_only);
                destructive |= workflow.is_none_or(|w| w.destructive);
                idempotent &= workflow.is_some_and(|w| w.idempotent);
            }
        }
        let mut arguments = Map::new();
        // The workflow's parameters apply to every step; a step's own override them.
        let own = step
            .get("parameters")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let is_operation = matches!(target, Target::Operation(_));
        for (k, p) in shared
            .iter()
            .map(|p| (None, p))
            .chain(own.iter().enumerate().map(|(k, p)| (Some(k), p)))
        {
            let pointer = match k {
                Some(k) => format!("{here_step}/parameters/{k}"),
                None => format!("{at}/parameters"),
            };
            let p = resolved(root, p);
            let name = p.get("name").and_then(Value::as_str).unwrap_or("");
            let place = p.get("in").and_then(Value::as_str);
            let found = op.params.iter().find(|q| {
                q.name == name
                    && match place {
                        Some(place) => q.location.as_str() == place,
                        None if is_operation => {
                            !matches!(q.location, ParamLocation::Body | ParamLocation::RequestBody)
                        }
                        None => true,
                    }
            });
            match found {
                Some(q) => {
                    arguments.insert(
                        q.field.clone(),
                        p.get("value").cloned().unwrap_or(Value::Null),
                    );
                }
                // A workflow-wide parameter applies where the step has it.
                None if k.is_none() => {}
                None => {
                    ok = false;
                    let known: Vec<String> = op
                        .params
                        .iter()
                        .filter(|q| q.location != ParamLocation::RequestBody)
                        .map(|q| format!("{} ({})", q.name, q.location.as_str()))
                        .collect();
                    diagnostics.push(here.error(
                        &pointer,
                        format!(
                            "`{}` has no parameter `{name}`{}",
                            op.name,
                            place.map(|p| format!(" in {p}")).unwrap_or_default()
                        ),
                        &format!("its parameters: {}", known.join(", ")),
                    ));
                }
            }
        }
        let body = match step.get("requestBody") {
            Some(b) => match body(
                here,
                &format!("{here_step}/requestBody"),
                op,
                b,
                diagnostics,
            ) {
                Some(b) => b,
                None => {
                    ok = false;
                    Value::Null
                }
            },
            None => Value::Null,
        };
        let mut actions = |key: &str| -> Value {
            step.get(key).map_or(Value::Null, |list| {
                Value::Array(action_list(
                    here,
                    root,
                    &format!("{here_step}/{key}"),
                    list,
                    diagnostics,
                ))
            })
        };
        let on_success = actions("onSuccess");
        let on_failure = actions("onFailure");
        let called = ["operationId", "operationPath", "workflowId"]
            .iter()
            .find_map(|k| step.get(*k).and_then(Value::as_str))
            .unwrap_or("");
        planned.push(json!({
            "step": step.get("stepId").and_then(Value::as_str).unwrap_or(""),
            "tool": op.name,
            "operation": called,
            "arguments": arguments,
            "body": body,
            "criteria": criteria(root, step.get("successCriteria")),
            "on_success": on_success,
            "on_failure": on_failure,
            "outputs": step.get("outputs").cloned().unwrap_or(json!({})),
        }));
        targets.push((
            step.get("stepId").and_then(Value::as_str).unwrap_or(""),
            target,
        ));
    }
    if !ok {
        return None;
    }
    let mut workflow_actions = |key: &str| -> Value {
        Value::Array(
            w.get(key)
                .map(|list| action_list(here, root, &format!("{at}/{key}"), list, diagnostics))
                .unwrap_or_default(),
        )
    };
    let on_success = workflow_actions("successActions");
    let on_failure = workflow_actions("failureActions");
    let plan = json!({
        "workflow": id,
        "steps": planned,
        "outputs": w.get("outputs").cloned().unwrap_or(json!({})),
        "on_success": on_success,
        "on_failure": on_failure,
    });
    let outputs = super::outputs::schema(api, &steps, &targets, w.get("outputs"));
    Some((
        ir::Workflow {
            plan,
            read_only,
            destructive: destructive && !read_only,
            idempotent,
        },
        outputs,
    ))
}

/// A `reference` (`$components.parameters.x`, `$components.successActions.y`)
/// resolved in the Arazzo document's components, its own fields (a `value`) on top.
fn resolved(root: &Value, item: &Value) -> Value {
    let Some(reference) = item.get("reference").and_then(Value::as_str) else {
        return item.clone();
    };
    let pointer = reference
        .strip_prefix("$components.")
        .map(|rest| format!("/components/{}", rest.replace('.', "/")));
    let mut out = pointer
        .and_then(|p| root.pointer(&p))
        .cloned()
        .unwrap_or_else(|| item.clone());
    if let (Value::Object(out), Value::Object(own)) = (&mut out, item) {
        for (k, v) in own {
            if k != "reference" {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    out
}

/// What a step calls: an operation of the source, or a workflow of this document.
fn target<'a>(api: &'a ir::Api, step: &Value) -> Option<Target<'a>> {
    if let Some(id) = step.get("operationId").and_then(Value::as_str) {
        let id = id
            .strip_prefix("$sourceDescriptions.")
            .and_then(|r| r.split_once('.'))
            .map_or(id, |(_, id)| id);
        return api
            .operations
            .iter()
            .find(|o| o.native("operationId").and_then(Value::as_str) == Some(id))
            .map(Target::Operation);
    }
    if let Some(path) = step.get("operationPath").and_then(Value::as_str) {
        let pointer = path.split_once('#')?.1;
        let rest = pointer.strip_prefix("/paths/")?;
        let (escaped, method) = rest.rsplit_once('/')?;
        let route = escaped.replace("~1", "/").replace("~0", "~");
        return api
            .operations
            .iter()
            .find(|o| o.path == route && o.method.as_str().eq_ignore_ascii_case(method))
            .map(Target::Operation);
    }
    let id = step.get("workflowId").and_then(Value::as_str)?;
    api.operations
        .iter()
        .find(|o| o.path == format!("{PREFIX}{id}"))
        .map(Target::Workflow)
}

/// A step's `requestBody` for the runtime: the payload, and where it goes in the
/// tool's arguments.
fn body(
    here: &Here<'_>,
    at: &str,
    op: &ir::Operation,
    b: &Value,
    diagnostics: &mut Diagnostics,
) -> Option<Value> {
    let whole = op
        .params
        .iter()
        .find(|p| p.location == ParamLocation::RequestBody);
    let fields: BTreeMap<&str, &str> = op
        .params
        .iter()
        .filter(|p| p.location == ParamLocation::Body)
        .map(|p| (p.name.as_str(), p.field.as_str()))
        .collect();
    if whole.is_none() && fields.is_empty() {
        diagnostics.push(here.error(
            at,
            format!("`{}` takes no request body", op.name),
            "leave `requestBody` out of this step",
        ));
        return None;
    }
    // A payload written as an object goes property by property into the body's
    // arguments: each must be one of them (the tool's input is closed).
    if whole.is_none()
        && let Some(Value::Object(payload)) = b.get("payload")
    {
        let unknown: Vec<&String> = payload
            .keys()
            .filter(|k| !fields.contains_key(k.as_str()))
            .collect();
        for name in &unknown {
            diagnostics.push(here.error(
                &format!(
                    "{at}/payload/{}",
                    name.replace('~', "~0").replace('/', "~1")
                ),
                format!("the request body of `{}` has no property `{name}`", op.name),
                &format!(
                    "its properties: {}",
                    fields.keys().copied().collect::<Vec<_>>().join(", ")
                ),
            ));
        }
        if !unknown.is_empty() {
            return None;
        }
    }
    if let Some(media) = b.get("contentType").and_then(Value::as_str)
        && !media.eq_ignore_ascii_case(&op.content_type)
        && op.workflow.is_none()
        && !op.path.starts_with(PREFIX)
    {
        diagnostics.push(here.warning(
            &format!("{at}/contentType"),
            format!(
                "the body is sent as `{}`, the operation's media type, not `{media}`",
                op.content_type
            ),
            "drop `contentType`, or make it the operation's first request media type",
        ));
    }
    let replacements: Vec<Value> = b
        .get("replacements")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|r| {
            json!([
                r.get("target").and_then(Value::as_str).unwrap_or(""),
                r.get("value").cloned().unwrap_or(Value::Null)
            ])
        })
        .collect();
    let renamed: Map<String, Value> = fields
        .iter()
        .filter(|(wire, field)| wire != field)
        .map(|(wire, field)| ((*wire).to_owned(), Value::from(*field)))
        .collect();
    Some(json!({
        "payload": b.get("payload").cloned().unwrap_or(json!({})),
        "field": whole.map(|p| p.field.clone()),
        "fields": renamed,
        "replacements": replacements,
    }))
}

/// Criteria for the runtime: `{condition, type, context}`, the type's name.
fn criteria(root: &Value, list: Option<&Value>) -> Value {
    Value::Array(
        list.and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|c| {
                let c = resolved(root, c);
                let kind = c
                    .get("type")
                    .and_then(|t| t.as_str().or_else(|| t.get("type")?.as_str()))
                    .unwrap_or("simple");
                let mut out = json!({
                    "condition": c.get("condition").and_then(Value::as_str).unwrap_or(""),
                    "type": kind,
                });
                if let Some(context) = c.get("context").and_then(Value::as_str) {
                    out["context"] = json!(context);
                }
                out
            })
            .collect(),
    )
}

/// Actions for the runtime; a `goto` to another workflow is reported (not executed).
fn action_list(
    here: &Here<'_>,
    root: &Value,
    at: &str,
    list: &Value,
    diagnostics: &mut Diagnostics,
) -> Vec<Value> {
    let mut out = Vec::new();
    for (i, a) in list.as_array().into_iter().flatten().enumerate() {
        let a = resolved(root, a);
        let kind = a.get("type").and_then(Value::as_str).unwrap_or("end");
        if kind == "goto" && a.get("stepId").is_none() && a.get("workflowId").is_some() {
            diagnostics.push(here.warning(
                &format!("{at}/{i}/workflowId"),
                "a `goto` to another workflow is not executed: when this action applies, the workflow fails saying so".into(),
                "make the other workflow a step (`workflowId` on a step) instead",
            ));
        }
        let mut action = json!({
            "name": a.get("name").and_then(Value::as_str).unwrap_or(""),
            "type": kind,
            "criteria": criteria(root, a.get("criteria")),
        });
        if let Some(s) = a.get("stepId").and_then(Value::as_str) {
            action["step"] = json!(s);
        }
        if let Some(s) = a.get("workflowId").and_then(Value::as_str) {
            action["workflow"] = json!(s);
        }
        if let Some(n) = a.get("retryAfter").and_then(Value::as_f64) {
            action["retry_after"] = json!(n);
        }
        if let Some(n) = a.get("retryLimit").and_then(Value::as_u64) {
            action["retry_limit"] = json!(n.min(u64::from(u32::MAX)));
        }
        out.push(action);
    }
    out
}
