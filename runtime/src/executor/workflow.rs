//! Running an Arazzo workflow tool: each step is a call of another tool through this
//! executor — by-name steps of a by-name call with the same checks and gate as a
//! model's direct call, typed ones as the service's own — so validation, auth,
//! limits, retries and result budgets apply to every step unchanged. Runtime
//! expressions are evaluated against the workflow's inputs, the earlier steps'
//! outputs and the step's own answer; criteria and actions decide where to go next.

use std::collections::{BTreeMap, BTreeSet};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Map, Value};
use toolwright_query::arazzo::{Condition, Expression, Scope, Written, pointed};

use super::{Executor, Found};
use crate::error::Error;
use crate::workflow::{Action, Criterion, MAX_DEPTH, MAX_RETRY_AFTER, MAX_STEPS, Plan, Step};

/// What one workflow call may still spend, shared with the workflows it runs:
/// steps in all, and how deep they nest.
#[derive(Clone, Default)]
pub(super) struct Budget {
    steps: Arc<AtomicUsize>,
    depth: usize,
}

/// How the workflow was called, which decides how its steps are.
#[derive(Clone, Copy)]
pub(super) enum Gate {
    /// By name (a model's call): every step is checked and gated as a direct call.
    /// `approved`: the caller got approval for the whole workflow (an MCP client's
    /// elicitation naming its gated steps).
    ByName { approved: bool },
    /// Typed (the service's own code): the steps' arguments are checked, no gate.
    Typed,
}

/// What one step got: its answer, or why it got none.
struct Exchange {
    status: Option<u16>,
    headers: Vec<(String, String)>,
    body: Value,
    /// The call failed: the HTTP status's message or the transport error.
    failure: Option<String>,
}

/// The state of one run: the inputs and every finished step's outputs.
struct Run {
    inputs: Map<String, Value>,
    outputs: BTreeMap<String, Map<String, Value>>,
}

/// What expressions see: the run, and the step's answer once it has one.
struct StepScope<'a> {
    run: &'a Run,
    exchange: Option<&'a Exchange>,
}

impl Scope for StepScope<'_> {
    fn value(&self, e: &Expression) -> Option<Value> {
        use toolwright_query::arazzo::Source as S;
        match e {
            Expression::Inputs(name, pointer) => {
                pointed(self.run.inputs.get(name)?.clone(), pointer.as_deref())
            }
            Expression::StepOutput {
                step,
                output,
                pointer,
            } => pointed(
                self.run.outputs.get(step)?.get(output)?.clone(),
                pointer.as_deref(),
            ),
            Expression::StatusCode => self.exchange?.status.map(Value::from),
            // In a step that runs a workflow: that workflow's outputs (its answer).
            Expression::Outputs(name, pointer) => {
                pointed(self.exchange?.body.get(name)?.clone(), pointer.as_deref())
            }
            Expression::Response(S::Body(pointer)) => {
                pointed(self.exchange?.body.clone(), pointer.as_deref())
            }
            Expression::Response(S::Header(name)) => self
                .exchange?
                .headers
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(name))
                .map(|(_, v)| Value::String(v.clone())),
            _ => None,
        }
    }
}

/// Evaluates a value as written, reading objects and arrays through. `Ok(None)`: an
/// optional input the call left out (the property or argument is left out too, as
/// the input schema allowed); `Err` names any other expression with no value.
fn evaluate(written: &Value, scope: &dyn Scope) -> Result<Option<Value>, String> {
    match written {
        Value::Object(map) => {
            let mut out = Map::new();
            for (k, v) in map {
                if let Some(v) = evaluate(v, scope)? {
                    out.insert(k.clone(), v);
                }
            }
            Ok(Some(Value::Object(out)))
        }
        Value::Array(items) => {
            let mut out = Vec::new();
            for v in items {
                out.push(evaluate(v, scope)?.unwrap_or(Value::Null));
            }
            Ok(Some(Value::Array(out)))
        }
        scalar => {
            let parsed = Written::parse(scalar)?;
            match parsed.evaluate(scope) {
                Some(v) => Ok(Some(v)),
                None if matches!(parsed, Written::Expression(Expression::Inputs(..))) => Ok(None),
                None => Err(format!(
                    "`{}` has no value",
                    scalar.as_str().unwrap_or_default()
                )),
            }
        }
    }
}

/// Whether a criterion holds; `Err`: it cannot be evaluated (and so does not hold).
fn holds(criterion: &Criterion, scope: &dyn Scope) -> Result<bool, String> {
    match criterion.kind.as_str() {
        "simple" => Ok(Condition::parse(&criterion.condition)?.holds(scope)),
        "regex" => {
            let context = criterion.context.as_deref().unwrap_or("$response.body");
            let value = Expression::parse(context)?;
            let text = match scope.value(&value) {
                Some(Value::String(s)) => s,
                Some(Value::Null) | None => return Ok(false),
                Some(other) => other.to_string(),
            };
            let regex = regex_lite::Regex::new(&criterion.condition)
                .map_err(|e| format!("regex `{}`: {e}", criterion.condition))?;
            Ok(regex.is_match(&text))
        }
        "jsonpath" => {
            let context = criterion.context.as_deref().unwrap_or("$response.body");
            Ok(Condition::jsonpath_filter(&criterion.condition, context)?.holds(scope))
        }
        other => Err(format!(
            "a `{other}` criterion (`{}`) is not evaluated by toolwright",
            criterion.condition
        )),
    }
}

/// Whether all criteria hold, or the first that does not (and why).
fn all_hold(criteria: &[Criterion], scope: &dyn Scope) -> Result<(), String> {
    for c in criteria {
        match holds(c, scope) {
            Ok(true) => {}
            Ok(false) => return Err(format!("criterion `{}` does not hold", c.condition)),
            Err(why) => return Err(why),
        }
    }
    Ok(())
}

/// The first action whose criteria all hold.
fn chosen<'a>(actions: &[&'a Action], scope: &dyn Scope) -> Option<&'a Action> {
    actions
        .iter()
        .copied()
        .find(|a| all_hold(&a.criteria, scope).is_ok())
}

/// A step's own actions, then the workflow's that it does not override by name: the
/// specification lets a step override workflow-level actions, not remove them.
fn actions<'a>(own: Option<&'a [Action]>, shared: &'a [Action]) -> Vec<&'a Action> {
    let own = own.unwrap_or_default();
    own.iter()
        .chain(
            shared
                .iter()
                .filter(|a| !own.iter().any(|o| o.name == a.name)),
        )
        .collect()
}

type Boxed<'a, T> = Pin<Box<dyn Future<Output = Result<T, Error>> + Send + 'a>>;

impl Executor {
    /// The workflow a tool runs, when it is one.
    pub(super) fn workflow_of(&self, found: Found<'_>) -> Option<Result<Arc<Plan>, Error>> {
        found.state.workflow.as_ref().map(|plan| {
            plan.clone().map_err(|message| Error::Catalog {
                message: format!(
                    "the workflow of tool `{}` cannot be read: {message}",
                    found.tool.name
                ),
            })
        })
    }

    /// Why a by-name call of workflow `found` needs approval before it runs: the
    /// steps whose tools the gate would ask about, judged with the arguments known
    /// before the run (its inputs and constants; a value an earlier step answers is
    /// not known yet). An MCP server asks its client once for the whole workflow;
    /// approved, those steps run (a `Deny` still refuses them).
    #[cfg(feature = "mcp")]
    pub(super) fn workflow_approval(
        &self,
        found: Found<'_>,
        inputs: &Map<String, Value>,
    ) -> Option<String> {
        let reasons = self.approval_at(found, inputs, 0)?;
        Some(format!(
            "{reasons}\n(An approval covers one send of each step named with what it sends; \
             a step sent again by a retry or a loop, or named without its arguments, is \
             refused, nothing sent.)"
        ))
    }

    #[cfg(feature = "mcp")]
    fn approval_at(
        &self,
        found: Found<'_>,
        inputs: &Map<String, Value>,
        depth: usize,
    ) -> Option<String> {
        if depth > MAX_DEPTH {
            return Some(format!(
                "workflows run workflows more than {MAX_DEPTH} deep: the run will be refused"
            ));
        }
        let plan = found.state.workflow.as_ref()?.as_ref().ok()?;
        let run = Run {
            inputs: inputs.clone(),
            outputs: BTreeMap::new(),
        };
        let scope = StepScope {
            run: &run,
            exchange: None,
        };
        let mut reasons = Vec::new();
        for step in &plan.steps {
            let Some(tool) = self.lookup(&step.tool) else {
                continue;
            };
            // Every argument, the body's included, when the inputs decide them all;
            // else the ones they decide (the rest wait for earlier answers).
            // (An argument fed by an earlier step has no value yet: `Err`.)
            let whole = arguments(step, &run).ok();
            let known: Map<String, Value> = whole.clone().unwrap_or_else(|| {
                step.arguments
                    .iter()
                    .filter_map(|(k, v)| Some((k.clone(), evaluate(v, &scope).ok()??)))
                    .collect()
            });
            let reason = if tool.state.workflow.is_some() {
                self.approval_at(tool, &known, depth + 1)
            } else {
                match self.judge(tool, &known) {
                    Some(crate::gate::Verdict::Confirm(reason)) => Some(reason),
                    _ => None,
                }
            };
            if let Some(reason) = reason {
                // What the step sends, every argument on a line of its own and whole
                // (the workflow's inputs shown beside it may be cut; these are not).
                let sends = match &whole {
                    Some(args) => args
                        .iter()
                        .map(|(k, v)| format!("\n    {}: {v}", Value::String(k.clone())))
                        .collect::<String>(),
                    None => " (some of its arguments come from earlier steps' answers, which \
                             no one has seen yet: it is refused when it runs, nothing sent)"
                        .to_owned(),
                };
                reasons.push(format!(
                    "step `{}` calls `{}`: {reason}; it sends:{sends}",
                    step.step, step.tool
                ));
            }
        }
        (!reasons.is_empty()).then(|| reasons.join("\n"))
    }

    /// Runs workflow tool `found` with its checked inputs; its outputs.
    pub(super) fn run_workflow<'a>(
        &'a self,
        found: Found<'a>,
        plan: Arc<Plan>,
        inputs: Map<String, Value>,
        gate: Gate,
    ) -> Boxed<'a, Value> {
        self.run_nested(found, plan, inputs, gate, Budget::default())
    }

    /// [`run_workflow`](Self::run_workflow) within what `budget` has left.
    fn run_nested<'a>(
        &'a self,
        found: Found<'a>,
        plan: Arc<Plan>,
        inputs: Map<String, Value>,
        gate: Gate,
        budget: Budget,
    ) -> Boxed<'a, Value> {
        Box::pin(async move {
            let tool = found.tool.name.to_string();
            let mut run = Run {
                inputs,
                outputs: BTreeMap::new(),
            };
            let mut at = 0;
            // Steps sent under an approval given before the run: each once.
            let mut sent_approved: BTreeSet<usize> = BTreeSet::new();
            // Retries made so far, by step position (a retry limit is per step).
            let mut retries: BTreeMap<usize, u32> = BTreeMap::new();
            while let Some(step) = plan.steps.get(at) {
                let executed = budget.steps.fetch_add(1, Ordering::Relaxed) + 1;
                let fail = |reason: String, status: Option<u16>| Error::Workflow {
                    tool: tool.clone(),
                    step: step.step.clone(),
                    operation: format!("{} → tool `{}`", step.operation, step.tool),
                    reason,
                    status,
                };
                if executed > MAX_STEPS {
                    return Err(fail(
                        format!(
                            "the workflow ran {MAX_STEPS} steps (its nested workflows' included) without ending (a `goto` loop?)"
                        ),
                        None,
                    ));
                }
                let args = arguments(step, &run).map_err(|why| fail(why, None))?;
                // An approval given before the run covers a step only when the run's
                // inputs alone made its arguments, so the approver saw what goes out:
                // one fed by an earlier answer is gated as if nothing was approved.
                // And once: a retry or a loop back sends it again, unseen.
                let gate = match gate {
                    Gate::ByName { approved: true } => Gate::ByName {
                        approved: !depends_on_answers(step, &args, &run)
                            && sent_approved.insert(at),
                    },
                    other => other,
                };
                let exchange = self
                    .step(step, args, gate, &budget)
                    .await
                    .map_err(|e| match e {
                        // A refusal before anything was sent is the step tool's own
                        // error: the caller may approve it or fix the inputs.
                        e @ (Error::ConfirmationRequired { .. } | Error::Denied { .. }) => e,
                        other => fail(other.to_string(), None),
                    })?;
                let scope = StepScope {
                    run: &run,
                    exchange: Some(&exchange),
                };
                let verdict = if step.criteria.is_empty() {
                    match &exchange.failure {
                        None => Ok(()),
                        Some(why) => Err(why.clone()),
                    }
                } else {
                    all_hold(&step.criteria, &scope).map_err(|why| match &exchange.failure {
                        Some(failure) => format!("{why} ({failure})"),
                        None => why,
                    })
                };
                match verdict {
                    Ok(()) => {
                        let mut outputs = Map::new();
                        for (name, written) in &step.outputs {
                            let value = evaluate(written, &scope).map_err(|why| {
                                fail(format!("output `{name}`: {why}"), exchange.status)
                            })?;
                            outputs.insert(name.clone(), value.unwrap_or(Value::Null));
                        }
                        let actions = actions(step.on_success.as_deref(), &plan.on_success);
                        let scope = StepScope {
                            run: &run,
                            exchange: Some(&exchange),
                        };
                        let next = match chosen(&actions, &scope) {
                            None => Next::Step(at + 1),
                            Some(action) => next(&plan, action).map_err(|why| fail(why, None))?,
                        };
                        run.outputs.insert(step.step.clone(), outputs);
                        match next {
                            Next::Step(n) => at = n,
                            Next::End => break,
                        }
                    }
                    Err(why) => {
                        let actions = actions(step.on_failure.as_deref(), &plan.on_failure);
                        let Some(action) = chosen(&actions, &scope) else {
                            return Err(fail(why, exchange.status));
                        };
                        match action.kind.as_str() {
                            "retry" => {
                                let limit = action.retry_limit.unwrap_or(1);
                                let made = retries.entry(at).or_default();
                                if *made >= limit {
                                    return Err(fail(
                                        format!(
                                            "{why}; still failing after {limit} retries (action `{}`)",
                                            action.name
                                        ),
                                        exchange.status,
                                    ));
                                }
                                *made += 1;
                                let wait = action
                                    .retry_after
                                    .unwrap_or(0.0)
                                    .clamp(0.0, MAX_RETRY_AFTER);
                                if wait.is_finite() && wait > 0.0 {
                                    tokio::time::sleep(std::time::Duration::from_secs_f64(wait))
                                        .await;
                                }
                                if let Some(target) = &action.step {
                                    at = plan.index_of(target).unwrap_or(at);
                                }
                            }
                            _ => match next(&plan, action).map_err(|why| fail(why, None))? {
                                Next::Step(n) => at = n,
                                Next::End => {
                                    return Err(fail(
                                        format!(
                                            "{why}; its onFailure action `{}` ends the workflow",
                                            action.name
                                        ),
                                        exchange.status,
                                    ));
                                }
                            },
                        }
                    }
                }
            }
            let scope = StepScope {
                run: &run,
                exchange: None,
            };
            // An output naming a step the run skipped (a `goto` past it) is `null`;
            // any other that has no value is an error, never a quiet `null`.
            let skipped = |written: &Value| {
                let text = written.to_string();
                plan.steps.iter().any(|s| {
                    !run.outputs.contains_key(&s.step)
                        && text.contains(&format!("$steps.{}.", s.step))
                })
            };
            let mut outputs = Map::new();
            for (name, written) in &plan.outputs {
                let value = match evaluate(written, &scope) {
                    Ok(value) => value.unwrap_or(Value::Null),
                    Err(_) if skipped(written) => Value::Null,
                    Err(why) => {
                        return Err(Error::Workflow {
                            tool: tool.clone(),
                            step: "outputs".to_owned(),
                            operation: format!("the workflow's output `{name}`"),
                            reason: why,
                            status: None,
                        });
                    }
                };
                outputs.insert(name.clone(), value);
            }
            Ok(Value::Object(outputs))
        })
    }

    /// One step: its tool called with `args`, the answer kept whether it succeeded
    /// or not (criteria and actions decide). Refusals before sending are errors.
    async fn step(
        &self,
        step: &Step,
        args: Map<String, Value>,
        gate: Gate,
        budget: &Budget,
    ) -> Result<Exchange, Error> {
        let found = self.find(&step.tool)?;
        let args = match gate {
            Gate::ByName { approved } => {
                self.admitted(found, Value::Object(args), approved).await?
            }
            Gate::Typed => self.checked_arguments(found, Value::Object(args))?,
        };
        if let Some(plan) = self.workflow_of(found) {
            if budget.depth >= MAX_DEPTH {
                return Err(Error::Request {
                    tool: step.tool.clone(),
                    message: format!(
                        "workflows run workflows more than {MAX_DEPTH} deep (a ring of workflows?)"
                    ),
                });
            }
            let nested = Budget {
                steps: budget.steps.clone(),
                depth: budget.depth + 1,
            };
            let body = self.run_nested(found, plan?, args, gate, nested).await?;
            return Ok(Exchange {
                status: Some(200),
                headers: Vec::new(),
                body,
                failure: None,
            });
        }
        match self.send(found.operation(), Some(found), &args, None).await {
            Ok(reply) => Ok(Exchange {
                status: Some(reply.status),
                headers: reply
                    .headers
                    .iter()
                    .filter_map(|(k, v)| Some((k.as_str().to_owned(), v.to_str().ok()?.to_owned())))
                    .collect(),
                body: reply.body,
                failure: None,
            }),
            Err(Error::Status {
                status,
                message,
                body,
                headers,
                ..
            }) => Ok(Exchange {
                status: Some(status),
                headers,
                body,
                failure: Some(format!("HTTP {status}: {message}")),
            }),
            Err(e @ Error::Transport(_)) => Ok(Exchange {
                status: None,
                headers: Vec::new(),
                body: Value::Null,
                failure: Some(e.to_string()),
            }),
            Err(other) => Err(other),
        }
    }
}

/// Where a run goes after an action.
enum Next {
    Step(usize),
    End,
}

fn next(plan: &Plan, action: &Action) -> Result<Next, String> {
    match (action.kind.as_str(), &action.step, &action.workflow) {
        ("end", ..) => Ok(Next::End),
        ("goto", Some(step), _) => plan.index_of(step).map(Next::Step).ok_or_else(|| {
            format!(
                "action `{}` goes to step `{step}`, which the workflow does not have",
                action.name
            )
        }),
        ("goto", None, Some(workflow)) => Err(format!(
            "action `{}` goes to workflow `{workflow}`: going to another workflow is not executed by toolwright (call it as a step instead)",
            action.name
        )),
        (kind, ..) => Err(format!(
            "action `{}` of type `{kind}` cannot apply here",
            action.name
        )),
    }
}

/// Whether `args`, the step's arguments in `run`, differ from what the run's inputs
/// alone make of them: an earlier step's answer went into them.
fn depends_on_answers(step: &Step, args: &Map<String, Value>, run: &Run) -> bool {
    let before = Run {
        inputs: run.inputs.clone(),
        outputs: BTreeMap::new(),
    };
    arguments(step, &before).ok().as_ref() != Some(args)
}

/// A step's arguments: its parameters and body evaluated in the run so far.
fn arguments(step: &Step, run: &Run) -> Result<Map<String, Value>, String> {
    let scope = StepScope {
        run,
        exchange: None,
    };
    let mut args = Map::new();
    for (field, written) in &step.arguments {
        let value =
            evaluate(written, &scope).map_err(|why| format!("argument `{field}`: {why}"))?;
        if let Some(value) = value {
            args.insert(field.clone(), value);
        }
    }
    if let Some(body) = &step.body {
        let mut payload = evaluate(&body.payload, &scope)
            .map_err(|why| format!("request body: {why}"))?
            .unwrap_or(Value::Null);
        for (target, written) in &body.replacements {
            let value = evaluate(written, &scope)
                .map_err(|why| format!("request body replacement `{target}`: {why}"))?
                .unwrap_or(Value::Null);
            match payload.pointer_mut(target) {
                Some(slot) => *slot = value,
                None if target.is_empty() => payload = value,
                None => {
                    return Err(format!(
                        "request body replacement: the payload has nothing at `{target}`"
                    ));
                }
            }
        }
        match (&body.field, payload) {
            (Some(field), payload) => {
                args.insert(field.clone(), payload);
            }
            (None, Value::Object(properties)) => {
                for (name, value) in properties {
                    let field = body.fields.get(&name).cloned().unwrap_or(name);
                    args.insert(field, value);
                }
            }
            (None, other) => {
                return Err(format!(
                    "the request body is {} where the operation takes an object of properties",
                    crate::request::kind_name(&other)
                ));
            }
        }
    }
    Ok(args)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn step(value: Value) -> Step {
        serde_json::from_value(value).unwrap()
    }

    fn run(inputs: Value, outputs: Value) -> Run {
        Run {
            inputs: serde_json::from_value(inputs).unwrap(),
            outputs: serde_json::from_value(outputs).unwrap(),
        }
    }

    #[test]
    fn arguments_come_from_inputs_outputs_and_constants() {
        let s = step(json!({
            "step": "s", "tool": "t", "operation": "op",
            "arguments": {"id": "$steps.a.outputs.id", "auth": "Bearer {$inputs.token}", "n": 3,
                          "note": "$inputs.note"},
            "body": {"payload": {"pet": {"tag": "$inputs.tag", "x": 1}, "qty": "$inputs.qty"},
                     "fields": {"pet": "pet_body"},
                     "replacements": [["/pet/x", "$steps.a.outputs.id"]]},
        }));
        let state = run(
            json!({"token": "t0k", "tag": "cute"}),
            json!({"a": {"id": 7}}),
        );
        let args = arguments(&s, &state).unwrap();
        // `note` and `qty` are optional inputs the call left out: left out.
        assert_eq!(
            Value::Object(args),
            json!({"id": 7, "auth": "Bearer t0k", "n": 3, "pet_body": {"tag": "cute", "x": 7}})
        );
        // An earlier step's output that is not there is an error naming it.
        let missing = arguments(&s, &run(json!({}), json!({}))).unwrap_err();
        assert!(
            missing.contains("`$steps.a.outputs.id` has no value"),
            "{missing}"
        );
    }

    #[test]
    fn a_whole_body_argument_takes_the_payload_and_objects_are_required_otherwise() {
        let whole = step(json!({"step": "s", "tool": "t", "operation": "op",
            "body": {"payload": ["$inputs.a"], "field": "body"}}));
        let args = arguments(&whole, &run(json!({"a": 1}), json!({}))).unwrap();
        assert_eq!(Value::Object(args), json!({"body": [1]}));
        let split = step(json!({"step": "s", "tool": "t", "operation": "op",
            "body": {"payload": "$inputs.a"}}));
        let err = arguments(&split, &run(json!({"a": 1}), json!({}))).unwrap_err();
        assert!(
            err.contains("a number where the operation takes an object"),
            "{err}"
        );
    }

    #[test]
    fn criteria_of_each_type() {
        let state = run(json!({}), json!({}));
        let exchange = Exchange {
            status: Some(201),
            headers: vec![("x-rate".into(), "12".into())],
            body: json!({"access_token": "a", "name": "Rex the dog"}),
            failure: None,
        };
        let scope = StepScope {
            run: &state,
            exchange: Some(&exchange),
        };
        let c = |condition: &str, kind: &str, context: Option<&str>| Criterion {
            condition: condition.into(),
            kind: kind.into(),
            context: context.map(Into::into),
        };
        assert_eq!(
            holds(
                &c(
                    "$statusCode == 201 && $response.header.X-Rate > 10",
                    "simple",
                    None
                ),
                &scope
            ),
            Ok(true)
        );
        assert_eq!(
            holds(&c("^Rex", "regex", Some("$response.body#/name")), &scope),
            Ok(true)
        );
        assert_eq!(
            holds(
                &c(
                    "$[?@.access_token != null]",
                    "jsonpath",
                    Some("$response.body")
                ),
                &scope
            ),
            Ok(true)
        );
        assert_eq!(
            holds(
                &c("$[?@.refresh != null]", "jsonpath", Some("$response.body")),
                &scope
            ),
            Ok(false)
        );
        assert!(holds(&c("//pet", "xpath", None), &scope).is_err());
    }

    #[test]
    fn a_step_overrides_workflow_actions_by_name_and_keeps_the_rest() {
        let action = |name: &str, kind: &str| -> Action {
            serde_json::from_value(json!({"name": name, "type": kind})).unwrap()
        };
        let shared = [action("retry-busy", "retry"), action("give-up", "end")];
        let own = [action("give-up", "goto")];
        let merged: Vec<(&str, &str)> = actions(Some(&own), &shared)
            .iter()
            .map(|a| (a.name.as_str(), a.kind.as_str()))
            .collect();
        assert_eq!(merged, [("give-up", "goto"), ("retry-busy", "retry")]);
        let inherited: Vec<&str> = actions(None, &shared)
            .iter()
            .map(|a| a.name.as_str())
            .collect();
        assert_eq!(inherited, ["retry-busy", "give-up"]);
    }

    #[test]
    fn a_plan_going_to_a_step_it_lacks_is_refused() {
        let text = json!({"workflow": "w", "steps": [{"step": "a", "tool": "t", "operation": "op",
            "on_failure": [{"name": "x", "type": "goto", "step": "nowhere"}]}]})
        .to_string();
        let err = Plan::parse(&text).unwrap_err();
        assert!(err.contains("`nowhere`"), "{err}");
    }
}

/// What an MCP server asks its client before a workflow runs: the steps the gate
/// would ask about, judged on the arguments known before the run; and without
/// approval, the gated step is refused with nothing sent.
#[cfg(all(test, feature = "mcp"))]
mod approval {
    use serde_json::json;

    use crate::catalog::Catalog;
    use crate::descriptor::Api;
    use crate::{Error, Executor};

    /// `cleanup` deletes the id it is given; `purge` deletes the id an earlier step
    /// answered: both gated through `remove`.
    const CATALOG: &[u8] = br#"{"tools": [
        {"name": "find", "title": "Find", "description": "d",
         "input_schema": "{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"integer\"}}}",
         "output_schema": null, "annotations": [true, false, true, true],
         "meta": null, "contract": "{}",
         "operation": {"api": "x", "method": "GET", "path": "/things/{id}",
            "params": [["id", "id", "Path", true, "Integer", "Simple", false, false, null]],
            "body": "Json", "content_type": "application/json", "body_required": false,
            "security": [], "wrap_output": false, "json_response": true}},
        {"name": "remove", "title": "Remove", "description": "d",
         "input_schema": "{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"integer\"}}}",
         "output_schema": null, "annotations": [false, true, false, true],
         "meta": "{\"toolwright\":{\"requiresConfirmation\":true}}", "contract": "{}",
         "operation": {"api": "x", "method": "DELETE", "path": "/things/{id}",
            "params": [["id", "id", "Path", true, "Integer", "Simple", false, false, null]],
            "body": "Json", "content_type": "application/json", "body_required": false,
            "security": [], "wrap_output": false, "json_response": true}},
        {"name": "cleanup", "title": "Cleanup", "description": "d",
         "input_schema": "{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"integer\"}}}",
         "output_schema": null, "annotations": [false, true, false, true],
         "meta": null, "contract": "{}",
         "operation": {"api": "x", "method": "POST", "path": "/x-arazzo/cleanup",
            "params": [["id", "id", "Body", false, "Integer", "Form", false, false, null]],
            "body": "Json", "content_type": "application/json", "body_required": false,
            "security": [], "wrap_output": false, "json_response": true,
            "workflow": "{\"workflow\":\"cleanup\",\"steps\":[{\"step\":\"rm\",\"tool\":\"remove\",\"operation\":\"removeThing\",\"arguments\":{\"id\":\"$inputs.id\"}}]}"}},
        {"name": "purge", "title": "Purge", "description": "d",
         "input_schema": "{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"integer\"}}}",
         "output_schema": null, "annotations": [false, true, false, true],
         "meta": null, "contract": "{}",
         "operation": {"api": "x", "method": "POST", "path": "/x-arazzo/purge",
            "params": [["id", "id", "Body", false, "Integer", "Form", false, false, null]],
            "body": "Json", "content_type": "application/json", "body_required": false,
            "security": [], "wrap_output": false, "json_response": true,
            "workflow": "{\"workflow\":\"purge\",\"steps\":[{\"step\":\"look\",\"tool\":\"find\",\"operation\":\"findThing\",\"arguments\":{\"id\":\"$inputs.id\"},\"outputs\":{\"next\":\"$response.body#/next\"}},{\"step\":\"rm\",\"tool\":\"remove\",\"operation\":\"removeThing\",\"arguments\":{\"id\":\"$steps.look.outputs.next\"}}]}"}}
    ]}"#;

    /// An executor over [`CATALOG`] whose API is at `base_url`.
    fn executor(base_url: String) -> Executor {
        let tools = crate::catalog::embedded::decode(CATALOG).unwrap();
        let api = Api {
            name: "x".into(),
            base_url: base_url.into(),
            schemes: Default::default(),
            definitions: Default::default(),
            meta: None,
            graphql: None,
        };
        Executor::builder(Catalog::from_tools(tools, vec![api]).unwrap())
            .build()
            .unwrap()
    }

    #[tokio::test]
    async fn the_gated_steps_are_named_before_the_run_and_refused_without_approval() {
        // Nothing listens: a call that got through would fail to connect.
        let executor = executor("http://127.0.0.1:9".to_owned());
        let reason = executor
            .needs_approval("cleanup", &json!({"id": 5}))
            .unwrap();
        assert!(reason.contains("step `rm` calls `remove`"), "{reason}");
        let err = executor
            .call("cleanup", json!({"id": 5}))
            .await
            .unwrap_err();
        assert!(
            matches!(&err, Error::ConfirmationRequired { tool, declined: false, .. } if tool == "remove"),
            "{err}"
        );
        // A stream of a workflow would be a request of its own: refused, nothing sent
        // (nothing listens on the port; a request would fail to connect instead).
        let Err(err) = executor.call_stream("cleanup", json!({"id": 5})).await else {
            panic!("a workflow streamed");
        };
        assert!(
            err.to_string().contains("sends no request of its own"),
            "{err}"
        );
    }

    /// A workflow whose gated step deletes what an earlier step answered: the thing
    /// to delete is unknown when the client is asked, so the approval does not cover
    /// it and the delete is refused, nothing sent (before, it went out approved).
    #[tokio::test]
    async fn an_approval_given_before_the_run_does_not_cover_arguments_from_answers() {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
        let log = seen.clone();
        tokio::spawn(async move {
            while let Ok((mut socket, _)) = listener.accept().await {
                let mut buf = vec![0u8; 4096];
                let n = socket.read(&mut buf).await.unwrap_or(0);
                let head = String::from_utf8_lossy(&buf[..n]);
                log.lock()
                    .unwrap()
                    .push(head.lines().next().unwrap_or("").to_owned());
                let body = r#"{"next": 99}"#;
                let reply = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = socket.write_all(reply.as_bytes()).await;
            }
        });
        let executor = executor(format!("http://127.0.0.1:{port}"));
        let reason = executor.needs_approval("purge", &json!({"id": 5})).unwrap();
        assert!(reason.contains("earlier steps' answers"), "{reason}");
        // The client said yes to the question above.
        let Err(err) = executor
            .call_answering("purge", json!({"id": 5}), true)
            .await
        else {
            panic!("the delete went out approved");
        };
        assert!(
            matches!(&err, Error::ConfirmationRequired { tool, .. } if tool == "remove"),
            "{err}"
        );
        assert_eq!(*seen.lock().unwrap(), ["GET /things/5 HTTP/1.1"]);
    }
}
