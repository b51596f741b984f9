//! Arazzo 1.0.x / 1.1.x workflow documents: read with the OpenAPI documents they name,
//! and checked — every step's target (operationId, operationPath, workflowId), every
//! runtime expression (the steps, outputs and inputs it names), every criterion, every
//! `goto` (its target, and rings of unconditional ones, which never end) — each finding
//! at the file:line:col where it is written.
//!
//! `lower` turns the checked workflows into tools.

pub mod lower;
mod outputs;
mod steps;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde_json::Value;
use toolwright_query::arazzo::{Condition, Expression, Written};

use crate::diagnostics::{Diagnostic, Diagnostics, Location, SourceFile, codes};
use crate::source::openapi::locate::Locator;

/// Whether a file looks like an Arazzo document.
pub fn looks_like(path: &std::path::Path, head: &str) -> bool {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    matches!(ext, "json" | "yaml" | "yml") && head.contains("arazzo")
}

/// Whether a parsed document is an Arazzo document (its top-level `arazzo` key).
pub fn is_arazzo(root: &Value) -> bool {
    root.get("arazzo").is_some() && root.get("openapi").is_none()
}

/// One OpenAPI document a workflow calls into: its operations by operationId and by
/// pointer (`/paths/~1pets/get`).
#[derive(Debug, Default)]
pub struct Source {
    pub name: String,
    pub url: String,
    pub operation_ids: BTreeSet<String>,
    pub pointers: BTreeSet<String>,
    /// Read from disk (a remote URL is not fetched: its targets are not checked).
    pub read: bool,
}

/// What was read: the sources and the workflows' ids (for callers that go on to
/// lower them).
#[derive(Debug, Default)]
pub struct Document {
    pub sources: Vec<Source>,
    pub workflows: Vec<String>,
}

struct Reader<'a> {
    file: &'a Arc<SourceFile>,
    locator: &'a Locator,
    diagnostics: &'a mut Diagnostics,
    root: &'a Value,
}

impl Reader<'_> {
    fn report(
        &mut self,
        error: bool,
        code: &'static str,
        pointer: &str,
        message: String,
        help: &str,
    ) {
        let location = Location {
            file: Arc::clone(self.file),
            span: self.locator.locate(&self.file.text, pointer),
        };
        let d = if error {
            Diagnostic::error(code, message)
        } else {
            Diagnostic::warning(code, message)
        };
        self.diagnostics
            .push(d.at(location).label(pointer.to_owned()).help(help));
    }
}

/// Reads and checks one Arazzo document; `None` when it does not parse or is no
/// supported version.
pub fn read(file: &Arc<SourceFile>, diagnostics: &mut Diagnostics) -> Option<Document> {
    let (root, locator) = crate::source::openapi::parse(file, diagnostics)?;
    let mut reader = Reader {
        file,
        locator: &locator,
        diagnostics,
        root: &root,
    };
    match root.get("arazzo").and_then(Value::as_str) {
        Some(v) if v.starts_with("1.0.") || v.starts_with("1.1.") => {}
        other => {
            reader.report(
                true,
                codes::OPENAPI_VERSION,
                "/arazzo",
                format!(
                    "Arazzo {} is not supported",
                    other.unwrap_or("(no version)")
                ),
                "toolwright reads Arazzo 1.0.x and 1.1.x: `arazzo: 1.0.1`",
            );
            return None;
        }
    }
    let sources = sources(&mut reader);
    let workflows: Vec<(usize, &Value)> = root
        .get("workflows")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
        .collect();
    let mut ids = BTreeMap::new();
    for (i, w) in &workflows {
        let id = w.get("workflowId").and_then(Value::as_str).unwrap_or("");
        if id.is_empty() {
            reader.report(
                true,
                codes::TARGET,
                &format!("/workflows/{i}"),
                "a workflow has no `workflowId`".into(),
                "give each workflow a unique `workflowId`",
            );
        } else if ids.insert(id.to_owned(), *w).is_some() {
            reader.report(
                true,
                codes::TARGET,
                &format!("/workflows/{i}/workflowId"),
                format!("workflow `{id}` is declared twice"),
                "workflowIds are unique in a document",
            );
        }
    }
    for (i, w) in &workflows {
        workflow(&mut reader, &sources, &ids, *i, w);
    }
    Some(Document {
        sources,
        workflows: ids.keys().cloned().collect(),
    })
}

/// The `sourceDescriptions`: local OpenAPI documents read (relative to this file).
fn sources(reader: &mut Reader<'_>) -> Vec<Source> {
    let mut out = Vec::new();
    let list = reader
        .root
        .get("sourceDescriptions")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if list.is_empty() {
        reader.report(true, codes::TARGET, "/sourceDescriptions", "the document names no `sourceDescriptions`".into(), "list the OpenAPI documents the workflows call: `- {name: api, url: ./api.yaml, type: openapi}`");
    }
    let base = std::path::Path::new(&reader.file.path)
        .parent()
        .map(std::path::Path::to_path_buf)
        .unwrap_or_default();
    for (i, s) in list.iter().enumerate() {
        let at = format!("/sourceDescriptions/{i}");
        let name = s
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();
        let url = s
            .get("url")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();
        let kind = s.get("type").and_then(Value::as_str).unwrap_or("openapi");
        let mut source = Source {
            name,
            url: url.clone(),
            ..Source::default()
        };
        if kind != "openapi" {
            reader.report(
                false,
                codes::UNSUPPORTED,
                &format!("{at}/type"),
                format!(
                    "source `{}` is of type `{kind}`; its workflows are not checked",
                    source.name
                ),
                "only `openapi` sources are read",
            );
            out.push(source);
            continue;
        }
        if url.contains("://") {
            reader.report(false, codes::UNSUPPORTED, &format!("{at}/url"), format!("source `{}` is remote (`{url}`); it is not fetched, so the operations steps name in it are not checked", source.name), "download it beside the Arazzo document and give its relative path");
            out.push(source);
            continue;
        }
        let path = base.join(&url);
        match std::fs::read_to_string(&path) {
            Ok(text) => {
                let value: Option<Value> = if url.ends_with(".json") {
                    serde_json::from_str(&text).ok()
                } else {
                    parsed_yaml(&text)
                };
                if let Some(value) = value {
                    index_operations(&value, &mut source);
                    source.read = true;
                } else {
                    reader.report(
                        true,
                        codes::IO,
                        &format!("{at}/url"),
                        format!("`{}` does not parse as JSON or YAML", path.display()),
                        "check the document with `toolwright check`",
                    );
                }
            }
            Err(e) => reader.report(
                true,
                codes::IO,
                &format!("{at}/url"),
                format!("cannot read `{}`: {e}", path.display()),
                "give the path of the OpenAPI document relative to the Arazzo document",
            ),
        }
        out.push(source);
    }
    out
}

/// An OpenAPI document's text as a value, through the same YAML reader the OpenAPI
/// source uses.
fn parsed_yaml(text: &str) -> Option<Value> {
    let file = SourceFile::new("source.yaml", text);
    let mut sink = Diagnostics::default();
    crate::source::openapi::parse(&file, &mut sink).map(|(v, _)| v)
}

fn index_operations(root: &Value, source: &mut Source) {
    let Some(Value::Object(paths)) = root.get("paths") else {
        return;
    };
    for (path, item) in paths {
        let Value::Object(item) = item else { continue };
        for (method, op) in item {
            if !op.is_object()
                || matches!(
                    method.as_str(),
                    "parameters" | "servers" | "summary" | "description"
                )
            {
                continue;
            }
            let escaped = path.replace('~', "~0").replace('/', "~1");
            source.pointers.insert(format!("/paths/{escaped}/{method}"));
            if let Some(id) = op.get("operationId").and_then(Value::as_str) {
                source.operation_ids.insert(id.to_owned());
            }
        }
    }
}

fn workflow(
    reader: &mut Reader<'_>,
    sources: &[Source],
    workflows: &BTreeMap<String, &Value>,
    index: usize,
    w: &Value,
) {
    let at = format!("/workflows/{index}");
    let steps = steps_of(w);
    if steps.is_empty() {
        reader.report(
            true,
            codes::TARGET,
            &format!("{at}/steps"),
            "the workflow has no steps".into(),
            "add at least one step",
        );
    }
    // Each step's declared outputs, to check `$steps.<id>.outputs.<name>`.
    let mut outputs: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (i, step) in steps.iter().enumerate() {
        let id = step.get("stepId").and_then(Value::as_str).unwrap_or("");
        let names = step
            .get("outputs")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .map(|(k, _)| k.as_str())
            .collect();
        if outputs.insert(id, names).is_some() {
            reader.report(
                true,
                codes::TARGET,
                &format!("{at}/steps/{i}/stepId"),
                format!("step `{id}` is declared twice in this workflow"),
                "stepIds are unique within a workflow",
            );
        }
    }
    let inputs: Option<BTreeSet<&str>> = w
        .pointer("/inputs/properties")
        .and_then(Value::as_object)
        .map(|p| p.keys().map(String::as_str).collect());
    let check = Check {
        outputs: &outputs,
        inputs: inputs.as_ref(),
        workflows,
    };
    for (i, step) in steps.iter().enumerate() {
        let here = format!("{at}/steps/{i}");
        target(reader, sources, workflows, &here, step);
        for (key, value) in step.as_object().into_iter().flatten() {
            match key.as_str() {
                "parameters" | "requestBody" | "outputs" => {
                    expressions_in(reader, &check, &format!("{here}/{key}"), value);
                }
                "successCriteria" => criteria(reader, &check, &format!("{here}/{key}"), value),
                "onSuccess" | "onFailure" => {
                    actions(reader, &check, &outputs, &format!("{here}/{key}"), value);
                }
                _ => {}
            }
        }
    }
    if let Some(out) = w.get("outputs") {
        expressions_in(reader, &check, &format!("{at}/outputs"), out);
    }
    goto_rings(reader, &at, &steps);
}

/// What expressions may name in one workflow.
struct Check<'a> {
    outputs: &'a BTreeMap<&'a str, BTreeSet<&'a str>>,
    inputs: Option<&'a BTreeSet<&'a str>>,
    workflows: &'a BTreeMap<String, &'a Value>,
}

impl Check<'_> {
    /// Why `e` names something this workflow does not have.
    fn missing(&self, e: &Expression) -> Option<(String, String)> {
        match e {
            Expression::StepOutput { step, output, .. } => match self.outputs.get(step.as_str()) {
                None => Some((
                    format!("names step `{step}`, which this workflow does not have"),
                    format!(
                        "one of: {}",
                        self.outputs.keys().copied().collect::<Vec<_>>().join(", ")
                    ),
                )),
                Some(names) if !names.contains(output.as_str()) => Some((
                    format!(
                        "names output `{output}` of step `{step}`, which the step does not declare"
                    ),
                    format!(
                        "declare it under the step's `outputs`, or use one of: {}",
                        names.iter().copied().collect::<Vec<_>>().join(", ")
                    ),
                )),
                _ => None,
            },
            Expression::Inputs(name, _) => match self.inputs {
                Some(inputs) if !inputs.contains(name.as_str()) => Some((
                    format!(
                        "names input `{name}`, which the workflow's `inputs` schema does not declare"
                    ),
                    "add it under `inputs.properties`".into(),
                )),
                _ => None,
            },
            Expression::Workflow {
                workflow,
                inputs,
                name,
                ..
            } => {
                let w = self.workflows.get(workflow.as_str());
                let Some(w) = w else {
                    return Some((
                        format!("names workflow `{workflow}`, which the document does not have"),
                        "use a declared workflowId".into(),
                    ));
                };
                let declared = if *inputs {
                    w.pointer(&format!("/inputs/properties/{name}"))
                } else {
                    w.pointer(&format!("/outputs/{name}"))
                };
                declared.is_none().then(|| {
                    (
                        format!(
                            "names {} `{name}` of workflow `{workflow}`, which it does not declare",
                            if *inputs { "input" } else { "output" }
                        ),
                        "declare it in that workflow".into(),
                    )
                })
            }
            _ => None,
        }
    }
}

/// What the executor does not evaluate, in words; `None` for what it does.
fn unevaluated(e: &Expression) -> Option<&'static str> {
    match e {
        Expression::Url => Some("`$url`"),
        Expression::Method => Some("`$method`"),
        Expression::Request(_) => Some("a `$request.` expression"),
        Expression::Workflow { .. } => Some("a `$workflows.` expression"),
        Expression::SourceDescription(..) => Some("a `$sourceDescriptions.` expression"),
        Expression::Components(_) => Some("a `$components.` expression"),
        _ => None,
    }
}

fn expression_findings(
    reader: &mut Reader<'_>,
    check: &Check<'_>,
    at: &str,
    expressions: &[Expression],
) {
    for e in expressions {
        if let Some(what) = unevaluated(e) {
            reader.report(
                false,
                codes::UNSUPPORTED,
                at,
                format!("{what} is not evaluated by toolwright: at run time it has no value, and the step fails saying so"),
                "read the value from the inputs, a step's outputs or its response (`$inputs.x`, `$steps.s.outputs.o`, `$response.body#/x`, `$statusCode`)",
            );
        }
        if let Some((message, help)) = check.missing(e) {
            reader.report(
                true,
                codes::TARGET,
                at,
                format!("this expression {message}"),
                &help,
            );
        }
    }
}

fn expressions_in(reader: &mut Reader<'_>, check: &Check<'_>, at: &str, value: &Value) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                expressions_in(reader, check, &format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")), v);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                expressions_in(reader, check, &format!("{at}/{i}"), v);
            }
        }
        scalar => match Written::expressions_in(scalar) {
            Ok(found) => expression_findings(reader, check, at, &found),
            Err(e) => reader.report(true, codes::TARGET, at, e, "write a runtime expression as the Arazzo specification defines it (`$steps.<id>.outputs.<name>`, `$response.body#/id`, ...)"),
        },
    }
}

fn criteria(reader: &mut Reader<'_>, check: &Check<'_>, at: &str, list: &Value) {
    for (i, c) in list.as_array().into_iter().flatten().enumerate() {
        let here = format!("{at}/{i}");
        if let Some(context) = c.get("context") {
            expressions_in(reader, check, &format!("{here}/context"), context);
        }
        let kind = c
            .get("type")
            .and_then(|t| t.as_str().or_else(|| t.get("type")?.as_str()))
            .unwrap_or("simple");
        let Some(text) = c.get("condition").and_then(Value::as_str) else {
            reader.report(
                true,
                codes::TARGET,
                &here,
                "a criterion has no `condition`".into(),
                "add `condition: $statusCode == 200`",
            );
            continue;
        };
        match kind {
            "simple" => match Condition::parse(text) {
                Ok(condition) => {
                    let found: Vec<Expression> =
                        condition.expressions().into_iter().cloned().collect();
                    expression_findings(reader, check, &format!("{here}/condition"), &found);
                }
                Err(e) => reader.report(
                    true,
                    codes::TARGET,
                    &format!("{here}/condition"),
                    format!("condition `{text}`: {e}"),
                    "literals, runtime expressions, < <= > >= == !=, !, && and || with parentheses",
                ),
            },
            "regex" => {
                if let Err(e) = regex_lite::Regex::new(text) {
                    reader.report(
                        true,
                        codes::TARGET,
                        &format!("{here}/condition"),
                        format!("regex `{text}`: {e}"),
                        "fix the pattern",
                    );
                }
            }
            "jsonpath" => {
                let context = c
                    .get("context")
                    .and_then(Value::as_str)
                    .unwrap_or("$response.body");
                if let Err(e) = Condition::jsonpath_filter(text, context) {
                    reader.report(
                        false,
                        codes::UNSUPPORTED,
                        &format!("{here}/condition"),
                        format!("{e}; the criterion never holds"),
                        "write it as a simple condition (`$response.body#/field != null`)",
                    );
                }
            }
            other => reader.report(
                false,
                codes::UNSUPPORTED,
                &format!("{here}/type"),
                format!("`{other}` criteria are not evaluated; the criterion never holds"),
                "use a simple, regex or jsonpath (`$[?@.field != null]`) condition",
            ),
        }
    }
}

fn actions(
    reader: &mut Reader<'_>,
    check: &Check<'_>,
    steps: &BTreeMap<&str, BTreeSet<&str>>,
    at: &str,
    list: &Value,
) {
    for (i, a) in list.as_array().into_iter().flatten().enumerate() {
        let here = format!("{at}/{i}");
        if a.get("reference").is_some() {
            continue;
        }
        let kind = a.get("type").and_then(Value::as_str).unwrap_or("");
        let allowed = if at.ends_with("onFailure") {
            &["end", "goto", "retry"][..]
        } else {
            &["end", "goto"][..]
        };
        if !allowed.contains(&kind) {
            reader.report(
                true,
                codes::TARGET,
                &format!("{here}/type"),
                format!("action type `{kind}` is not one of {}", allowed.join(", ")),
                "use one of those types",
            );
        }
        if let Some(step) = a.get("stepId").and_then(Value::as_str)
            && !steps.contains_key(step)
        {
            reader.report(
                true,
                codes::TARGET,
                &format!("{here}/stepId"),
                format!("this action goes to step `{step}`, which this workflow does not have"),
                "name a stepId of the same workflow",
            );
        }
        if let Some(w) = a.get("workflowId").and_then(Value::as_str)
            && !w.starts_with('$')
            && !check.workflows.contains_key(w)
        {
            reader.report(
                true,
                codes::TARGET,
                &format!("{here}/workflowId"),
                format!("this action goes to workflow `{w}`, which the document does not have"),
                "name a declared workflowId",
            );
        }
        if kind == "goto" && a.get("stepId").is_none() && a.get("workflowId").is_none() {
            reader.report(
                true,
                codes::TARGET,
                &here,
                "a `goto` action names no `stepId` or `workflowId`".into(),
                "say where to go",
            );
        }
        if let Some(c) = a.get("criteria") {
            criteria(reader, check, &format!("{here}/criteria"), c);
        }
    }
}

/// A step's target: exactly one of `operationId`, `operationPath`, `workflowId`, and it
/// must exist.
fn target(
    reader: &mut Reader<'_>,
    sources: &[Source],
    workflows: &BTreeMap<String, &Value>,
    at: &str,
    step: &Value,
) {
    let given: Vec<&str> = ["operationId", "operationPath", "workflowId"]
        .into_iter()
        .filter(|k| step.get(*k).is_some())
        .collect();
    if given.len() != 1 {
        reader.report(
            true,
            codes::TARGET,
            at,
            format!(
                "a step names {} of operationId, operationPath and workflowId",
                if given.is_empty() {
                    "none".to_owned()
                } else {
                    given.join(" and ")
                }
            ),
            "give exactly one",
        );
        return;
    }
    let text = step.get(given[0]).and_then(Value::as_str).unwrap_or("");
    let here = format!("{at}/{}", given[0]);
    match given[0] {
        "operationId" => {
            let (source, id) = match text
                .strip_prefix("$sourceDescriptions.")
                .and_then(|r| r.split_once('.'))
            {
                Some((name, id)) => (sources.iter().find(|s| s.name == name), id),
                None => (None, text),
            };
            let candidates: Vec<&Source> = match source {
                Some(s) => vec![s],
                None => sources.iter().collect(),
            };
            if candidates.iter().any(|s| !s.read) {
                return;
            }
            if !candidates.iter().any(|s| s.operation_ids.contains(id)) {
                reader.report(true, codes::TARGET, &here, format!("no source has an operation `{id}`"), "name an operationId of the OpenAPI documents in `sourceDescriptions` (`$sourceDescriptions.<name>.<operationId>` when there are several)");
            }
        }
        "operationPath" => {
            let found = text
                .strip_prefix("{$sourceDescriptions.")
                .and_then(|r| r.split_once(".url}#"));
            match found {
                Some((name, pointer)) => match sources.iter().find(|s| s.name == name) {
                    Some(s) if s.read && !s.pointers.contains(pointer) => reader.report(
                        true,
                        codes::TARGET,
                        &here,
                        format!("`{pointer}` is no operation of source `{name}`"),
                        "point at an operation: `#/paths/~1pets/get`",
                    ),
                    Some(_) => {}
                    None => reader.report(
                        true,
                        codes::TARGET,
                        &here,
                        format!("no source is named `{name}`"),
                        "name one of `sourceDescriptions`",
                    ),
                },
                None => reader.report(
                    true,
                    codes::TARGET,
                    &here,
                    format!("`{text}` is no operationPath"),
                    "write `{$sourceDescriptions.<name>.url}#/paths/~1pets/get`",
                ),
            }
        }
        _ => {
            if !text.starts_with('$') && !workflows.contains_key(text) {
                reader.report(
                    true,
                    codes::TARGET,
                    &here,
                    format!("no workflow `{text}` in this document"),
                    "name a declared workflowId",
                );
            }
        }
    }
}

/// Rings of `goto`s that no criteria guard: once entered, the workflow never ends.
fn goto_rings(reader: &mut Reader<'_>, at: &str, steps: &[&Value]) {
    let position: BTreeMap<&str, usize> = steps
        .iter()
        .enumerate()
        .filter_map(|(i, s)| Some((s.get("stepId")?.as_str()?, i)))
        .collect();
    // The step each one always goes to next on success: an unconditional goto, or the
    // next in order when onSuccess says nothing (failures end the workflow or retry).
    let next = |i: usize| -> Option<usize> {
        let actions = steps[i].get("onSuccess").and_then(Value::as_array);
        match actions {
            Some(list) => list.iter().find_map(|a| {
                let unconditional = a
                    .get("criteria")
                    .and_then(Value::as_array)
                    .is_none_or(Vec::is_empty);
                if !unconditional {
                    return None;
                }
                match a.get("type").and_then(Value::as_str) {
                    Some("goto") => a
                        .get("stepId")
                        .and_then(Value::as_str)
                        .and_then(|s| position.get(s).copied()),
                    _ => None,
                }
            }),
            None => (i + 1 < steps.len()).then_some(i + 1),
        }
    };
    let mut reported = BTreeSet::new();
    for start in 0..steps.len() {
        let mut seen = vec![start];
        let mut current = start;
        while let Some(n) = next(current) {
            if let Some(from) = seen.iter().position(|&s| s == n) {
                let ring: BTreeSet<usize> = seen[from..].iter().copied().collect();
                if reported.insert(ring.clone().into_iter().collect::<Vec<_>>()) {
                    let names: Vec<&str> = seen[from..]
                        .iter()
                        .filter_map(|&s| steps[s].get("stepId")?.as_str())
                        .collect();
                    reader.report(
                        true,
                        codes::TARGET,
                        &format!("{at}/steps/{}/onSuccess", seen[seen.len() - 1]),
                        format!(
                            "these steps go to each other without end: {} → {}",
                            names.join(" → "),
                            names[0]
                        ),
                        "guard one `goto` with `criteria`, or end the workflow",
                    );
                }
                break;
            }
            seen.push(n);
            current = n;
        }
    }
}

/// A workflow's steps as written (none when `steps` is missing or not a list).
pub(super) fn steps_of(w: &Value) -> Vec<&Value> {
    w.get("steps")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .collect()
}
