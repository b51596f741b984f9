//! Arazzo workflows into tools: the one OpenAPI document the Arazzo document names
//! is read as usual, with one operation added per workflow (`POST
//! /x-arazzo/<workflowId>`, its JSON body the workflow's `inputs`), so the workflow's
//! input schema, argument names and typed input struct come from the same reader as
//! every other tool's. Then each workflow operation gets its steps (the runtime's
//! descriptor data, `toolwright::workflow`), its output schema (each output typed by
//! the response schema it reads, where the expression says), and annotations derived
//! from its steps' tools.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::{Map, Value, json};
use toolwright_query::arazzo::{Expression, Source as From, Written};

use crate::diagnostics::{Diagnostic, Diagnostics, Location, SourceFile, codes};
use crate::ir::{self, ParamLocation, Schema};
use crate::source::openapi::{self, locate::Locator};

/// Where synthetic workflow operations live in the OpenAPI document.
const PREFIX: &str = "/x-arazzo/";

/// The file and its locator, to place findings.
struct Here<'a> {
    file: &'a Arc<SourceFile>,
    locator: &'a Locator,
}

impl Here<'_> {
    fn location(&self, pointer: &str) -> Location {
        Location {
            file: Arc::clone(self.file),
            span: self.locator.locate(&self.file.text, pointer),
        }
    }

    fn error(&self, pointer: &str, message: String, help: &str) -> Diagnostic {
        Diagnostic::error(codes::TARGET, message)
            .at(self.location(pointer))
            .label(pointer.to_owned())
            .help(help)
    }

    fn warning(&self, pointer: &str, message: String, help: &str) -> Diagnostic {
        Diagnostic::warning(codes::UNSUPPORTED, message)
            .at(self.location(pointer))
            .label(pointer.to_owned())
            .help(help)
    }
}

/// Reads an Arazzo document as an API: its OpenAPI source's operations, and one
/// tool per workflow. `None` when it cannot be (each reason reported).
pub fn read(file: &Arc<SourceFile>, diagnostics: &mut Diagnostics) -> Option<ir::Api> {
    let document = super::read(file, diagnostics)?;
    let (root, locator) = openapi::parse(file, &mut Diagnostics::default())?;
    let here = Here {
        file,
        locator: &locator,
    };
    let openapi: Vec<(usize, &super::Source)> = document
        .sources
        .iter()
        .enumerate()
        .filter(|(_, s)| s.read)
        .collect();
    let [(index, source)] = openapi[..] else {
        let message = if openapi.is_empty() {
            "no OpenAPI document this one names could be read, so its workflows do not become tools"
                .to_owned()
        } else {
            format!(
                "the workflows become tools over one local OpenAPI document; this one names {}",
                openapi.len()
            )
        };
        diagnostics.push(here.error(
            "/sourceDescriptions",
            message,
            "name one local OpenAPI document (split workflows over several APIs into one Arazzo document each)",
        ));
        return None;
    };
    let base = std::path::Path::new(&file.path)
        .parent()
        .map(std::path::Path::to_path_buf)
        .unwrap_or_default();
    let path = base.join(&source.url);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| {
            diagnostics.push(here.error(
                &format!("/sourceDescriptions/{index}/url"),
                format!("cannot read `{}`: {e}", path.display()),
                "give the OpenAPI document's path relative to the Arazzo document",
            ));
        })
        .ok()?;
    let source_file = SourceFile::new(path.display().to_string(), text);
    let (mut doc, doc_locator) = openapi::parse(&source_file, diagnostics)?;
    let workflows: Vec<(usize, &Value, String)> = root
        .get("workflows")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
        .filter_map(|(i, w)| {
            let id = w.get("workflowId")?.as_str()?;
            (!id.is_empty()).then(|| (i, w, id.to_owned()))
        })
        .collect();
    for (i, w, id) in &workflows {
        add_operation(&here, &root, &mut doc, *i, w, id, diagnostics);
    }
    let mut api = openapi::read_root(&source_file, doc, &doc_locator, diagnostics)?;
    // The workflow operations by workflowId. A workflow that runs others as steps
    // is lowered after them, so their annotations and output types are known (in a
    // ring of workflows, in document order).
    let mut done: BTreeMap<String, ir::Workflow> = BTreeMap::new();
    for (i, w, id) in in_dependency_order(&workflows) {
        let at = format!("/workflows/{i}");
        let Some(position) = api
            .operations
            .iter()
            .position(|o| o.path == format!("{PREFIX}{id}"))
        else {
            continue;
        };
        let Some((workflow, outputs)) = lower(&here, &root, &api, &done, &at, w, id, diagnostics)
        else {
            continue;
        };
        let op = &mut api.operations[position];
        op.kind = if workflow.read_only {
            ir::Crude::Read
        } else {
            ir::Crude::Execute
        };
        op.source = Some(here.location(&at));
        // Each argument is where the workflow's `inputs` declare it (the document
        // findings about it point at).
        for p in &mut op.params {
            p.source = Some(here.location(&format!(
                "{at}/inputs/properties/{}",
                p.name.replace('~', "~0").replace('/', "~1")
            )));
        }
        op.meta.remove("x-toolwright-name");
        op.meta.insert(
            "arazzo".into(),
            json!({"workflowId": id, "document": file.path}),
        );
        if let Some(response) = op.responses.first_mut() {
            response.schema = Some(outputs);
        }
        op.workflow = Some(workflow.clone());
        done.insert(id.clone(), workflow);
    }
    // Workflows whose steps could not all be lowered were reported: their
    // operations are not tools of their own.
    api.operations
        .retain(|o| !o.path.starts_with(PREFIX) || o.workflow.is_some());
    Some(api)
}

/// The workflows, each after those it runs as steps (a ring: in document order).
fn in_dependency_order<'a>(
    workflows: &'a [(usize, &'a Value, String)],
) -> Vec<&'a (usize, &'a Value, String)> {
    let runs = |w: &Value| -> Vec<String> {
        w.get("steps")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|s| s.get("workflowId")?.as_str().map(str::to_owned))
            .collect()
    };
    let mut pending: Vec<&(usize, &Value, String)> = workflows.iter().collect();
    let mut out: Vec<&(usize, &Value, String)> = Vec::new();
    while !pending.is_empty() {
        let ready = pending.iter().position(|(_, w, _)| {
            runs(w).iter().all(|dep| {
                out.iter().any(|(_, _, id)| id == dep)
                    || !workflows.iter().any(|(_, _, id)| id == dep)
            })
        });
        out.push(pending.remove(ready.unwrap_or(0)));
    }
    out
}

/// Adds workflow `id`'s operation to the OpenAPI document.
fn add_operation(
    here: &Here<'_>,
    root: &Value,
    doc: &mut Value,
    index: usize,
    w: &Value,
    id: &str,
    diagnostics: &mut Diagnostics,
) {
    let at = format!("/workflows/{index}");
    let mut inputs = w.get("inputs").cloned();
    // `$ref: '#/components/inputs/<name>'`: the Arazzo document's own components.
    if let Some(reference) = inputs
        .as_ref()
        .and_then(|i| i.get("$ref"))
        .and_then(Value::as_str)
        .map(str::to_owned)
    {
        inputs = reference
            .strip_prefix('#')
            .and_then(|p| root.pointer(p))
            .cloned();
        if inputs.is_none() {
            diagnostics.push(here.error(
                &format!("{at}/inputs/$ref"),
                format!("`{reference}` names nothing in this document"),
                "point at `#/components/inputs/<name>`",
            ));
        }
    }
    if let Some(inputs) = inputs.as_mut() {
        inline(root, inputs, 0);
    }
    let mut op = json!({
        "x-toolwright-name": id,
        "responses": {"200": {
            "description": "The workflow's outputs",
            "content": {"application/json": {"schema": {"type": "object"}}},
        }},
    });
    for key in ["summary", "description"] {
        if let Some(text) = w.get(key) {
            op[key] = text.clone();
        }
    }
    let takes_something = inputs
        .as_ref()
        .and_then(|i| i.get("properties"))
        .and_then(Value::as_object)
        .is_some_and(|p| !p.is_empty());
    if let Some(inputs) = inputs.filter(|_| takes_something) {
        op["requestBody"] =
            json!({"required": true, "content": {"application/json": {"schema": inputs}}});
    }
    if let Some(depends) = w.get("dependsOn") {
        diagnostics.push(here.warning(
            &format!("{at}/dependsOn"),
            format!("`dependsOn` ({depends}) is not executed: the workflow runs on its own"),
            "call the workflows it depends on first, or make them steps of this one",
        ));
    }
    if let Some(Value::Object(paths)) = doc.get_mut("paths") {
        paths.insert(format!("{PREFIX}{id}"), json!({ "post": op }));
    } else if let Value::Object(map) = doc {
        map.insert(
            "paths".into(),
            json!({ format!("{PREFIX}{id}"): { "post": op } }),
        );
    }
}

/// Replaces `$ref`s to the Arazzo document's own `#/components/inputs/...` with
/// what they name (the schema moves into the OpenAPI document, where they would
/// name nothing). Bounded: a reference ring stops at a depth of 32.
fn inline(root: &Value, value: &mut Value, depth: usize) {
    if depth > 32 {
        return;
    }
    if let Some(target) = value
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix("#/components/inputs/"))
        .and_then(|name| root.pointer(&format!("/components/inputs/{name}")))
    {
        *value = target.clone();
        inline(root, value, depth + 1);
        return;
    }
    match value {
        Value::Object(map) => map.values_mut().for_each(|v| inline(root, v, depth + 1)),
        Value::Array(items) => items.iter_mut().for_each(|v| inline(root, v, depth + 1)),
        _ => {}
    }
}

/// What one step calls.
enum Target<'a> {
    Operation(&'a ir::Operation),
    Workflow(&'a ir::Operation),
}

impl Target<'_> {
    fn op(&self) -> &ir::Operation {
        match self {
            Target::Operation(op) | Target::Workflow(op) => op,
        }
    }
}

/// A workflow's descriptor data, annotations and output schema.
#[allow(clippy::too_many_arguments)]
fn lower(
    here: &Here<'_>,
    root: &Value,
    api: &ir::Api,
    done: &BTreeMap<String, ir::Workflow>,
    at: &str,
    w: &Value,
    id: &str,
    diagnostics: &mut Diagnostics,
) -> Option<(ir::Workflow, Schema)> {
    let steps: Vec<&Value> = w
        .get("steps")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .collect();
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
                let a = crate::emit::plan::annotations(op);
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
    let outputs = output_schema(api, &steps, &targets, w.get("outputs"));
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
            .find(|o| o.meta.get("operationId").and_then(Value::as_str) == Some(id))
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

/// The workflow's output schema: one property per output, typed by the response
/// schema its expression reads where that is known (`$steps.s.outputs.o` whose step
/// output is `$response.body#/pointer`), else any value. Each may be `null` (an
/// output of a step the run skipped).
fn output_schema(
    api: &ir::Api,
    steps: &[&Value],
    targets: &[(&str, Target<'_>)],
    outputs: Option<&Value>,
) -> Schema {
    let entries = outputs
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(name, written)| {
            let mut schema = typed(api, steps, targets, written).unwrap_or_default();
            schema.nullable = true;
            (name.clone(), schema, true)
        });
    Schema::object(entries.collect::<Vec<_>>())
}

fn typed(
    api: &ir::Api,
    steps: &[&Value],
    targets: &[(&str, Target<'_>)],
    written: &Value,
) -> Option<Schema> {
    let Ok(Written::Expression(Expression::StepOutput {
        step,
        output,
        pointer,
    })) = Written::parse(written)
    else {
        return None;
    };
    let (_, target) = targets.iter().find(|(id, _)| *id == step)?;
    let declared = steps
        .iter()
        .find(|s| s.get("stepId").and_then(Value::as_str) == Some(step.as_str()))?
        .get("outputs")?
        .get(&output)?;
    let response = target.op().success_response()?.schema.as_ref()?;
    // What the step's output reads: its response body (at a pointer), or — a step
    // that runs a workflow — one of that workflow's outputs.
    let at = match Written::parse(declared) {
        Ok(Written::Expression(Expression::Response(From::Body(inner)))) => {
            walk(api, response, inner.as_deref().unwrap_or(""))?
        }
        Ok(Written::Expression(Expression::Outputs(name, inner)))
            if matches!(target, Target::Workflow(_)) =>
        {
            let output = walk(api, response, &format!("/{name}"))?;
            walk(api, &output, inner.as_deref().unwrap_or(""))?
        }
        _ => return None,
    };
    walk(api, &at, pointer.as_deref().unwrap_or(""))
}

/// The schema a JSON pointer reaches in a value of `schema`.
fn walk(api: &ir::Api, schema: &Schema, pointer: &str) -> Option<Schema> {
    let mut current = schema.clone();
    for token in pointer.split('/').skip(1) {
        let token = token.replace("~1", "/").replace("~0", "~");
        while let Some(name) = current.reference.clone() {
            current = api.definitions.get(&name)?.clone();
        }
        current = if let Some((_, p)) = current.properties.iter().find(|(n, _)| *n == token) {
            p.clone()
        } else if token.parse::<usize>().is_ok() {
            (*current.items.clone()?).clone()
        } else {
            return None;
        };
    }
    Some(current)
}
