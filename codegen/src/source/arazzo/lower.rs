//! Arazzo workflows into tools: the one OpenAPI document the Arazzo document names
//! is read as usual, with one operation added per workflow (`POST
//! /x-arazzo/<workflowId>`, its JSON body the workflow's `inputs`), so the workflow's
//! input schema, argument names and typed input struct come from the same reader as
//! every other tool's. Then each workflow operation gets its steps and annotations
//! (`steps`) and its output schema (`outputs`).

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::{Value, json};

use crate::diagnostics::{Diagnostic, Diagnostics, Location, SourceFile, codes};
use crate::ir;
use crate::source::openapi::{self, locate::Locator};

/// Where synthetic workflow operations live in the OpenAPI document.
pub(super) const PREFIX: &str = "/x-arazzo/";

/// The file and its locator, to place findings.
pub(super) struct Here<'a> {
    file: &'a Arc<SourceFile>,
    locator: &'a Locator,
}

impl Here<'_> {
    pub(super) fn location(&self, pointer: &str) -> Location {
        Location {
            file: Arc::clone(self.file),
            span: self.locator.locate(&self.file.text, pointer),
        }
    }

    pub(super) fn error(&self, pointer: &str, message: String, help: &str) -> Diagnostic {
        Diagnostic::error(codes::TARGET, message)
            .at(self.location(pointer))
            .label(pointer.to_owned())
            .help(help)
    }

    pub(super) fn warning(&self, pointer: &str, message: String, help: &str) -> Diagnostic {
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
    // is lowered after them, so their annotations and output types are known. One in
    // a ring of workflows running each other (or running one that is) would start
    // runs without end: an error where it names the next, and no tool.
    let mut done: BTreeMap<String, ir::Workflow> = BTreeMap::new();
    let (ordered, stuck) = in_dependency_order(&workflows);
    for (i, w, id) in &stuck {
        let stuck_ids: Vec<&str> = stuck.iter().map(|(_, _, id)| id.as_str()).collect();
        let steps = w.get("steps").and_then(Value::as_array);
        if let Some((s, dep)) = steps
            .into_iter()
            .flatten()
            .enumerate()
            .find_map(|(s, step)| {
                let dep = step.get("workflowId")?.as_str()?;
                stuck_ids.contains(&dep).then_some((s, dep))
            })
        {
            diagnostics.push(here.error(
                &format!("/workflows/{i}/steps/{s}/workflowId"),
                format!(
                    "workflow `{id}` runs `{dep}`, which runs `{id}` again (directly, through \
                     others, or through a ring of its own): each run would start another"
                ),
                "make one of them call the operations itself instead of the other workflow",
            ));
        }
    }
    for (i, w, id) in ordered {
        let at = format!("/workflows/{i}");
        let Some(position) = api
            .operations
            .iter()
            .position(|o| o.path == format!("{PREFIX}{id}"))
        else {
            continue;
        };
        let Some((workflow, outputs)) =
            super::steps::lower(&here, &root, &api, &done, &at, w, id, diagnostics)
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
            json!({"workflowId": id, "document": file.path}).into(),
        );
        if let Some(response) = op.responses.first_mut() {
            response.schema = Some(outputs.into());
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

/// The workflows, each after those it runs as steps; and those that cannot be put
/// in order because they are in a ring, or run one that is.
#[allow(clippy::type_complexity)]
fn in_dependency_order<'a>(
    workflows: &'a [(usize, &'a Value, String)],
) -> (
    Vec<&'a (usize, &'a Value, String)>,
    Vec<&'a (usize, &'a Value, String)>,
) {
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
    while let Some(ready) = pending.iter().position(|(_, w, _)| {
        runs(w).iter().all(|dep| {
            out.iter().any(|(_, _, id)| id == dep) || !workflows.iter().any(|(_, _, id)| id == dep)
        })
    }) {
        out.push(pending.remove(ready));
    }
    (out, pending)
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
