//! The data flows an Arazzo workflow declares: a step's argument (a parameter, or a
//! property of its request body) taken from an earlier step's output is an edge
//! from that step's tool to this one's — explicit, like an OpenAPI link.

use serde_json::Value;
use toolwright_query::arazzo::{Expression, Written};

use crate::ir;

/// One declared flow: `field` of `target`'s input is `from` (a runtime expression
/// on `source`'s answer).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Flow {
    pub workflow: String,
    pub step: String,
    pub source: String,
    pub target: String,
    pub field: String,
    pub from: String,
}

/// The flows of `op`'s workflow (none for an operation that is no workflow).
pub fn flows(op: &ir::Operation) -> Vec<Flow> {
    let Some(workflow) = &op.workflow else {
        return Vec::new();
    };
    let plan = &workflow.plan;
    let steps: Vec<&Value> = plan
        .get("steps")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .collect();
    let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).unwrap_or("").to_owned();
    let mut out = Vec::new();
    for step in &steps {
        // Each argument of the step, as written: parameters by argument name, body
        // properties by theirs.
        let mut written: Vec<(String, &Value)> = step
            .get("arguments")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .map(|(k, v)| (k.clone(), v))
            .collect();
        if let Some(body) = step.get("body").filter(|b| b.is_object()) {
            let payload = &body["payload"];
            match body.get("field").and_then(Value::as_str) {
                Some(field) => written.push((field.to_owned(), payload)),
                None => {
                    for (name, v) in payload.as_object().into_iter().flatten() {
                        let field = body
                            .pointer(&format!(
                                "/fields/{}",
                                name.replace('~', "~0").replace('/', "~1")
                            ))
                            .and_then(Value::as_str)
                            .unwrap_or(name);
                        written.push((field.to_owned(), v));
                    }
                }
            }
        }
        for (field, value) in written {
            let Ok(found) = Written::expressions_in(value) else {
                continue;
            };
            for e in found {
                let Expression::StepOutput {
                    step: from, output, ..
                } = e
                else {
                    continue;
                };
                let Some(producer) = steps
                    .iter()
                    .find(|s| s.get("step").and_then(Value::as_str) == Some(from.as_str()))
                else {
                    continue;
                };
                let expression = producer
                    .pointer(&format!(
                        "/outputs/{}",
                        output.replace('~', "~0").replace('/', "~1")
                    ))
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_owned();
                out.push(Flow {
                    workflow: op.name.clone(),
                    step: text(step, "step"),
                    source: text(producer, "tool"),
                    target: text(step, "tool"),
                    field: field.clone(),
                    from: expression,
                });
            }
        }
    }
    out
}
