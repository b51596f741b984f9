//! Arazzo workflows as the executor runs them: the descriptor data a workflow tool
//! carries (`Operation::workflow`, JSON text written by `toolwright-codegen` from an
//! Arazzo document), read once when the executor is built.
//!
//! ```json
//! {"workflow": "loginAndBuy",
//!  "steps": [{"step": "login", "tool": "login_user", "operation": "loginUser",
//!             "arguments": {"username": "$inputs.username"},
//!             "body": {"payload": {"qty": "$inputs.qty"}, "field": null,
//!                      "fields": {"qty": "qty"}, "replacements": []},
//!             "criteria": [{"condition": "$statusCode == 200", "type": "simple"}],
//!             "on_success": null, "on_failure": [{"name": "again", "type": "retry",
//!                                                "retry_after": 1, "retry_limit": 3}],
//!             "outputs": {"token": "$response.body#/token"}}],
//!  "outputs": {"token": "$steps.login.outputs.token"},
//!  "on_success": [], "on_failure": []}
//! ```
//!
//! Values are written as the Arazzo document writes them: a string starting with `$`
//! is a runtime expression, one holding `{$...}` a template, anything else a
//! constant (objects and arrays are read through, string by string). The
//! expressions and conditions are `toolwright_query::arazzo`'s, shared with the
//! generator that checked them.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::{Map, Value};

/// Steps run in one workflow call at most, the steps of the workflows it runs
/// included (a `goto` ring guarded by criteria that keep holding, or retries across
/// several steps, cannot run forever).
pub const MAX_STEPS: usize = 256;

/// How deep workflows may run workflows as steps (the generator refuses rings; a
/// catalog made otherwise still cannot recurse without end).
pub const MAX_DEPTH: usize = 8;

/// The longest `retryAfter` waited, in seconds: a longer one is cut to this.
pub const MAX_RETRY_AFTER: f64 = 60.0;

/// One workflow.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Plan {
    /// Its `workflowId`.
    pub workflow: String,
    pub steps: Vec<Step>,
    /// The workflow's `outputs`: name → value as written.
    #[serde(default)]
    pub outputs: Map<String, Value>,
    /// The workflow's `successActions` / `failureActions`: what a step without its
    /// own does.
    #[serde(default)]
    pub on_success: Vec<Action>,
    #[serde(default)]
    pub on_failure: Vec<Action>,
}

/// One step: a call of `tool` (an operation's tool, or another workflow's).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// Its `stepId`.
    pub step: String,
    /// The tool called, by name.
    pub tool: String,
    /// What the document names as the step's target (`operationId`,
    /// `operationPath`, `workflowId`), for messages.
    pub operation: String,
    /// The tool's arguments: argument name → value as written.
    #[serde(default)]
    pub arguments: Map<String, Value>,
    #[serde(default)]
    pub body: Option<Body>,
    /// `successCriteria`: all must hold. None: the call must succeed (HTTP 2xx).
    #[serde(default)]
    pub criteria: Vec<Criterion>,
    /// `onSuccess` / `onFailure`; `None`: the workflow's, else the defaults
    /// (success: the next step; failure: the workflow fails).
    #[serde(default)]
    pub on_success: Option<Vec<Action>>,
    #[serde(default)]
    pub on_failure: Option<Vec<Action>>,
    /// The step's `outputs`: name → value as written, read from its response.
    #[serde(default)]
    pub outputs: Map<String, Value>,
}

/// A step's `requestBody`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Body {
    /// The payload as written.
    pub payload: Value,
    /// The argument that takes the whole body, when the operation has one; else the
    /// payload is an object whose properties are arguments.
    #[serde(default)]
    pub field: Option<String>,
    /// Body property (wire name) → argument name, where they differ.
    #[serde(default)]
    pub fields: BTreeMap<String, String>,
    /// `replacements`: (JSON pointer into the payload, value as written).
    #[serde(default)]
    pub replacements: Vec<(String, Value)>,
}

/// A criterion: a `simple` condition, a `regex` over its `context`, or a type the
/// executor does not evaluate (the generator warned of it; the step fails saying so).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Criterion {
    pub condition: String,
    #[serde(rename = "type", default = "simple")]
    pub kind: String,
    #[serde(default)]
    pub context: Option<String>,
}

fn simple() -> String {
    "simple".to_owned()
}

/// An `onSuccess` / `onFailure` action.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Action {
    pub name: String,
    /// `end`, `goto` or `retry`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The step to go to (a `goto`, or where a `retry` goes instead of repeating).
    #[serde(default)]
    pub step: Option<String>,
    /// The workflow to go to, by `workflowId` (not executed: see the docs).
    #[serde(default)]
    pub workflow: Option<String>,
    /// Seconds before a retry.
    #[serde(default)]
    pub retry_after: Option<f64>,
    /// Retries at most (default 1, as the specification says).
    #[serde(default)]
    pub retry_limit: Option<u32>,
    /// The action applies when all hold.
    #[serde(default)]
    pub criteria: Vec<Criterion>,
}

impl Plan {
    /// Reads a descriptor's workflow text.
    ///
    /// # Errors
    /// What does not fit the format, naming where.
    pub fn parse(text: &str) -> Result<Plan, String> {
        let plan: Plan = serde_json::from_str(text).map_err(|e| e.to_string())?;
        for step in &plan.steps {
            for action in step
                .on_success
                .iter()
                .chain(&step.on_failure)
                .flatten()
                .chain(&plan.on_success)
                .chain(&plan.on_failure)
            {
                if let Some(target) = &action.step
                    && plan.index_of(target).is_none()
                {
                    return Err(format!(
                        "action `{}` of step `{}` goes to step `{target}`, which the workflow does not have",
                        action.name, step.step
                    ));
                }
            }
        }
        Ok(plan)
    }

    /// The position of step `id`.
    pub fn index_of(&self, id: &str) -> Option<usize> {
        self.steps.iter().position(|s| s.step == id)
    }
}
