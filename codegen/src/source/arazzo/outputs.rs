//! A workflow's output schema: each output typed by the response schema its
//! expression reads, where that is known.

use serde_json::Value;
use toolwright_query::arazzo::{Expression, Source as From, Written};

use super::steps::Target;
use crate::ir::{self, Schema};

/// The workflow's output schema: one property per output, typed by the response
/// schema its expression reads where that is known (`$steps.s.outputs.o` whose step
/// output is `$response.body#/pointer`), else any value. Each may be `null` (an
/// output of a step the run skipped).
pub(super) fn schema(
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
    let response = target.op().success_response()?.schema.as_deref()?;
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
