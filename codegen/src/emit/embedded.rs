//! Catalog-only tools as data: their entries and descriptors in one JSON file the
//! entry file embeds (`include_bytes!`) and the runtime reads once
//! (`toolwright::catalog::embedded`, which documents the format).
//!
//! A static Rust table costs the compiler per field, and a huge API's descriptors are
//! millions of fields (every parameter a struct); a byte string costs it next to
//! nothing. Typed operations keep their static tables: their client methods name them.

use serde::Serialize;

use super::plan::{ParamPlan, ToolPlan};
use super::rust::{body_variant, kind_variant, location_variant, style_variant};

/// Name of the embedded catalog file, next to the entry file.
pub const FILE: &str = "toolwright_tools.json";

/// The file's bytes for `plans` (already in catalog order). Deterministic: the same
/// plans give the same bytes.
pub fn file(plans: &[(&ToolPlan, &super::ToolContract)]) -> Vec<u8> {
    // One tool a line: diffs of a regenerated file stay readable.
    let mut out = b"{\"tools\": [\n".to_vec();
    for (i, (plan, contract)) in plans.iter().enumerate() {
        if i > 0 {
            out.extend_from_slice(b",\n");
        }
        // Serializing borrowed fields cannot fail (no maps with non-string keys).
        serde_json::to_writer(&mut out, &Tool::of(plan, contract)).unwrap_or_default();
    }
    out.extend_from_slice(b"\n]}\n");
    out
}

/// A tool as the runtime reads it, borrowed from its plan.
#[derive(Serialize)]
struct Tool<'a> {
    name: &'a str,
    title: &'a str,
    description: &'a str,
    input_schema: String,
    output_schema: Option<String>,
    annotations: [bool; 4],
    meta: String,
    contract: &'a str,
    operation: Operation<'a>,
}

#[derive(Serialize)]
struct Operation<'a> {
    api: &'a str,
    method: &'static str,
    path: &'a str,
    params: Vec<Param<'a>>,
    body: &'static str,
    content_type: &'a str,
    body_required: bool,
    security: &'a [Vec<String>],
    wrap_output: bool,
    json_response: bool,
    /// `[head, field, selection, returns, selection_argument]`; absent for HTTP.
    #[serde(skip_serializing_if = "Option::is_none")]
    graphql: Option<[&'a str; 5]>,
    /// An Arazzo workflow's steps as JSON text; absent for a request.
    #[serde(skip_serializing_if = "Option::is_none")]
    workflow: Option<&'a str>,
}

/// `[field, wire_name, location, required, kind, style, explode, allow_reserved,
/// content_type]`.
type Param<'a> = (
    &'a str,
    &'a str,
    &'static str,
    bool,
    &'static str,
    &'static str,
    bool,
    bool,
    Option<&'a str>,
);

impl<'a> Tool<'a> {
    fn of(plan: &'a ToolPlan, contract: &'a super::ToolContract) -> Self {
        let a = plan.annotations;
        Tool {
            name: &plan.name,
            title: &plan.title,
            description: &plan.description,
            input_schema: plan.input_schema.to_string(),
            output_schema: plan.output_schema.as_ref().map(ToString::to_string),
            annotations: [a.read_only, a.destructive, a.idempotent, a.open_world],
            meta: plan.meta.to_string(),
            contract: &contract.json,
            operation: Operation {
                api: &plan.api,
                method: plan.method.as_str(),
                path: &plan.path,
                params: plan.params.iter().map(param).collect(),
                body: body_variant(plan.body),
                content_type: &plan.content_type,
                body_required: plan.body_required,
                security: &plan.security,
                wrap_output: plan.wrap_output,
                json_response: plan.json_response,
                graphql: plan.graphql.as_ref().map(|g| {
                    [
                        g.head.as_str(),
                        g.field.as_str(),
                        g.selection.as_str(),
                        g.returns.as_str(),
                        g.selection_argument.as_str(),
                    ]
                }),
                workflow: plan.workflow.as_deref(),
            },
        }
    }
}

fn param(p: &ParamPlan) -> Param<'_> {
    (
        &p.field,
        &p.wire_name,
        location_variant(p.location),
        p.required,
        kind_variant(p.kind),
        style_variant(p.style),
        p.explode,
        p.allow_reserved,
        p.content_type.as_deref(),
    )
}
