//! How ready a catalog is for models, from deterministic checks: each finding names
//! the tool and where it is declared, and the score is a weighted mean of per-check
//! pass rates (a rate does not saturate the way `100 − 5·findings` does: one flaw in a
//! thousand tools costs a thousandth, not five points).

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::{Edge, OperationContract};
use crate::ir::{self, Crude, SchemaType};

/// One problem of one tool.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    /// `warning` or `info`.
    pub severity: &'static str,
    pub code: &'static str,
    pub tool: String,
    pub message: String,
    /// Where the tool is declared: `file:line:col` (adapters), `file#/paths/…/get`
    /// (OpenAPI).
    pub source: Option<String>,
}

/// The report (`readiness_report` in the artifact).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// 0–100.
    pub score: f64,
    /// `ready` (≥ 80), `warning` (≥ 50) or `poor`.
    pub status: &'static str,
    pub tool_count: usize,
    /// Per check: how many tools it applies to, how many fail it, and its weight.
    pub checks: BTreeMap<&'static str, Check>,
    pub coverage: Coverage,
    pub findings: Vec<Finding>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Check {
    pub applies: usize,
    pub failed: usize,
    pub weight: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Coverage {
    /// Read tools whose success response has a schema, over all read tools.
    pub response_schema_coverage: f64,
    pub produces_field_count: usize,
    pub consumes_field_count: usize,
    pub edge_count: usize,
}

/// The checks: (code, weight, severity).
const CHECKS: &[(&str, f64, &str)] = &[
    ("missing_response_schema", 3.0, "warning"),
    ("no_produced_fields", 2.0, "warning"),
    ("unfillable_required_input", 2.0, "warning"),
    ("missing_description", 2.0, "warning"),
    ("auth_as_data", 2.0, "warning"),
    ("permissive_input", 1.0, "info"),
    ("not_strict_exportable", 1.0, "info"),
    ("envelope_hides_result", 1.0, "info"),
    // Not scored on its own: the text a placeholder stood for is missing, and
    // `missing_description` (or the composed parameter description) already counts that.
    ("placeholder_text", 0.0, "warning"),
];

/// Input names that are credentials whatever the document says.
const CREDENTIAL_NAMES: &[&str] = &[
    "authorization",
    "api_key",
    "apikey",
    "x-api-key",
    "access_token",
    "token",
    "secret",
    "client_secret",
    "password",
    "x-auth-token",
];

/// Whether `schema` holds a map or a value of any shape (references followed, a few
/// levels deep).
fn free_form(
    schema: &ir::Schema,
    definitions: &BTreeMap<String, ir::Schema>,
    depth: usize,
) -> bool {
    if depth > 4 {
        return false;
    }
    let schema = ir::follow(schema, definitions);
    match schema.ty {
        SchemaType::Any => schema.variants.is_empty(),
        SchemaType::Object => {
            schema.additional.is_some()
                || schema.properties.is_empty()
                || schema
                    .properties
                    .iter()
                    .any(|(_, p)| free_form(p, definitions, depth + 1))
        }
        SchemaType::Array => schema
            .items
            .as_deref()
            .is_some_and(|i| free_form(i, definitions, depth + 1)),
        _ => false,
    }
}

/// Checks every operation of `apis` (whose contracts and edges are given).
pub fn report(apis: &[ir::Api], contracts: &[OperationContract], edges: &[Edge]) -> Report {
    let mut counts: BTreeMap<&'static str, (usize, usize)> =
        CHECKS.iter().map(|(c, _, _)| (*c, (0, 0))).collect();
    let mut findings = Vec::new();
    let fed: BTreeSet<(&str, &str)> = edges
        .iter()
        .filter_map(|e| Some((&*e.target, e.data_flow.as_ref()?.field.as_str())))
        .collect();
    let ops = apis
        .iter()
        .flat_map(|api| api.operations.iter().map(move |op| (api, op)));
    let (mut reads, mut read_schemas) = (0usize, 0usize);
    for ((api, op), contract) in ops.zip(contracts) {
        let source = match &op.source {
            Some(location) => Some(location.display()),
            None => api.source.as_ref().map(|l| {
                format!(
                    "{}#/paths/{}/{}",
                    l.file.path,
                    super::fields::pointer_escape(&op.path),
                    op.method.as_str().to_ascii_lowercase()
                )
            }),
        };
        let mut check = |code: &'static str, failed: bool, message: String| {
            let entry = counts.entry(code).or_default();
            entry.0 += 1;
            if failed {
                entry.1 += 1;
                let severity = CHECKS
                    .iter()
                    .find(|(c, _, _)| *c == code)
                    .map_or("info", |c| c.2);
                findings.push(Finding {
                    severity,
                    code,
                    tool: op.name.clone(),
                    message,
                    source: source.clone(),
                });
            }
        };
        let response = op.success_response().and_then(|r| r.schema.as_deref());
        if op.kind == Crude::Read {
            reads += 1;
            read_schemas += usize::from(response.is_some());
            check(
                "missing_response_schema",
                response.is_none(),
                "a read tool whose success response has no schema: a model cannot know what it returns".into(),
            );
        }
        if let Some(schema) = response {
            let resolved = ir::follow(schema, &api.definitions);
            let structured = matches!(resolved.ty, SchemaType::Object | SchemaType::Array);
            if structured {
                check(
                    "no_produced_fields",
                    contract.contract.produces.is_empty(),
                    "the response schema names no fields: nothing it returns can feed another tool"
                        .into(),
                );
                let wrapped = resolved.ty == SchemaType::Object
                    && resolved.properties.len() == 1
                    && resolved.properties.iter().all(|(name, p)| {
                        let p = ir::follow(p, &api.definitions);
                        p.ty == SchemaType::Object && !super::words::is_envelope(name)
                    });
                check(
                    "envelope_hides_result",
                    wrapped,
                    "the response wraps its result in a single object property; models read past it less reliably".into(),
                );
            }
        }
        check(
            "missing_description",
            op.description
                .as_deref()
                .is_none_or(|d| d.trim().len() < 12),
            "no description (or a few characters): models choose tools by it".into(),
        );
        let placeholders: Vec<String> = op
            .placeholders
            .iter()
            .map(|p| format!("`{}` at {}", p.text, p.source.display()))
            .collect();
        check(
            "placeholder_text",
            !placeholders.is_empty(),
            format!(
                "placeholder text treated as missing: {}; write what each stands for",
                placeholders.join(", ")
            ),
        );
        for input in contract.contract.consumes.iter() {
            if input.kind == "auth" {
                continue;
            }
            let lower = input.name.to_ascii_lowercase();
            check(
                "auth_as_data",
                CREDENTIAL_NAMES.contains(&lower.as_str()),
                format!(
                    "input `{}` looks like a credential but is an argument: a model would be asked for it",
                    input.name
                ),
            );
            if input.required && input.semantic_tag == Some("identifier") {
                let has_default = op
                    .params
                    .iter()
                    .any(|p| p.field == input.name && p.schema.default.is_some());
                let produced = fed.contains(&(op.name.as_str(), input.name.as_str()));
                check(
                    "unfillable_required_input",
                    !has_default && !produced,
                    format!(
                        "required identifier `{}` has no default and no tool of the catalog produces it: the user must know it",
                        input.name
                    ),
                );
            }
        }
        // Strict exports (OpenAI `strict: true`) need every object closed and described:
        // a map or a free-form value anywhere in the input rules them out.
        let open = op
            .params
            .iter()
            .find(|p| free_form(&p.schema, &api.definitions, 0))
            .map(|p| p.field.clone());
        check(
            "not_strict_exportable",
            open.is_some(),
            format!(
                "cannot be exported with strict schemas: `{}` holds a map or a free-form value",
                open.unwrap_or_default()
            ),
        );
        for p in op
            .params
            .iter()
            .filter(|p| p.location != ir::ParamLocation::Path)
        {
            let schema = ir::follow(&p.schema, &api.definitions);
            let free = schema.ty == SchemaType::Any
                || schema.ty == SchemaType::Object && schema.properties.is_empty();
            check(
                "permissive_input",
                free,
                format!(
                    "input `{}` takes any value: nothing guides or checks what a model sends (and strict exports cannot describe it)",
                    p.field
                ),
            );
        }
    }
    let mut checks = BTreeMap::new();
    let (mut weighted, mut total) = (0.0, 0.0);
    for (code, weight, _) in CHECKS {
        let (applies, failed) = counts.get(code).copied().unwrap_or_default();
        if applies > 0 {
            weighted += weight * (1.0 - failed as f64 / applies as f64);
            total += weight;
        }
        checks.insert(
            *code,
            Check {
                applies,
                failed,
                weight: *weight,
            },
        );
    }
    let score = if total > 0.0 {
        (100.0 * weighted / total * 10.0).round() / 10.0
    } else {
        0.0
    };
    Report {
        score,
        status: if score >= 80.0 {
            "ready"
        } else if score >= 50.0 {
            "warning"
        } else {
            "poor"
        },
        tool_count: contracts.len(),
        checks,
        coverage: Coverage {
            response_schema_coverage: if reads == 0 {
                1.0
            } else {
                read_schemas as f64 / reads as f64
            },
            produces_field_count: contracts.iter().map(|c| c.contract.produces.len()).sum(),
            consumes_field_count: contracts.iter().map(|c| c.contract.consumes.len()).sum(),
            edge_count: edges.len(),
        },
        findings,
    }
}
