//! Input a service tool or prompt asks of the client before it can answer
//! (elicitation, sampling, roots), in both eras: at 2026-07-28 the request is answered
//! `input_required` and the client calls again with its responses and the
//! `requestState` this server signed (a tampered, foreign or replayed state is
//! refused); on a connection that can carry requests to the client (stdio), the
//! server asks over it and runs the tool again with the answers. Either way the tool
//! is written once: it looks at [`Context::response`] and asks for what is missing.

use std::future::Future;
use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::fail;
use super::tools::Context;
use crate::serve::mcp::approvals::Approvals;
use crate::serve::mcp::codes;
use crate::serve::mcp::elicit::Peer;

/// Rounds a tool may ask for input on one connection before it is stopped.
const MOST_ROUNDS: usize = 8;

/// One question to the client, under a key the tool chooses.
#[derive(Debug, Clone, PartialEq)]
pub struct InputRequest {
    key: String,
    method: String,
    params: Value,
}

impl InputRequest {
    /// Any request a client answers (`elicitation/create`, `sampling/createMessage`,
    /// `roots/list`).
    pub fn new(key: impl Into<String>, method: impl Into<String>, params: Value) -> Self {
        InputRequest {
            key: key.into(),
            method: method.into(),
            params,
        }
    }

    /// Asks the user, through a form of `requested_schema` (a flat object schema).
    pub fn elicit(key: impl Into<String>, message: &str, requested_schema: Value) -> Self {
        let params = json!({"message": message, "requestedSchema": requested_schema});
        InputRequest::new(key, "elicitation/create", params)
    }

    /// Asks the client's model to answer `prompt` in at most `max_tokens`.
    pub fn sample(key: impl Into<String>, prompt: &str, max_tokens: u32) -> Self {
        let params = json!({
            "messages": [{"role": "user", "content": {"type": "text", "text": prompt}}],
            "maxTokens": max_tokens,
        });
        InputRequest::new(key, "sampling/createMessage", params)
    }

    /// Asks for the client's roots.
    pub fn list_roots(key: impl Into<String>) -> Self {
        InputRequest::new(key, "roots/list", json!({}))
    }

    /// The client capability answering it needs.
    fn capability(&self) -> Option<&'static str> {
        match self.method.as_str() {
            "elicitation/create" => Some("elicitation"),
            "sampling/createMessage" => Some("sampling"),
            "roots/list" => Some("roots"),
            _ => None,
        }
    }
}

/// What a tool or prompt needs before it can answer, and the state it wants back
/// with the responses (carried by the client, integrity-protected by the server).
#[derive(Debug, Clone, PartialEq)]
pub struct InputRequired {
    requests: Vec<InputRequest>,
    state: Value,
}

impl InputRequired {
    pub fn new(requests: Vec<InputRequest>) -> InputRequired {
        InputRequired {
            requests,
            state: Value::Null,
        }
    }

    /// State to have back in the next round ([`Context::state`]). At 2026-07-28 the
    /// client carries it in the `requestState`: signed, so it cannot be changed, but
    /// not encrypted, so it can be read — keep secrets out of it.
    pub fn state(mut self, state: Value) -> InputRequired {
        self.state = state;
        self
    }

    pub(super) fn state_value(&self) -> Value {
        self.state.clone()
    }

    /// The requests as the protocol's `inputRequests` map.
    pub(super) fn requests_map(&self) -> Map<String, Value> {
        match requests_json(self) {
            Value::Object(map) => map,
            _ => Map::new(),
        }
    }
}

/// How a tool's questions reach the client.
#[derive(Debug, Clone)]
pub(in crate::serve::mcp) enum Rounds {
    /// 2026-07-28: answered `input_required`; the client calls again.
    Stateless {
        approvals: Arc<Approvals>,
        caller: Option<Arc<str>>,
        capabilities: Value,
    },
    /// A live connection: asked over it.
    Peer(Peer),
    /// No way to ask.
    Nobody,
}

/// What one run of a tool or prompt gave.
pub(super) enum Step {
    Done(Value),
    /// A JSON-RPC error object.
    Failed(Value),
    Asks(InputRequired),
}

/// Runs `step` for `target` (`tool:NAME` or `prompt:NAME`), asking the client what it
/// needs the way `rounds` allows. `Err` is a JSON-RPC error object.
pub(super) async fn run<F, Fut>(
    target: &str,
    params: &Value,
    rounds: &Rounds,
    cx: Context,
    mut step: F,
) -> Result<Value, Value>
where
    F: FnMut(Context) -> Fut,
    Fut: Future<Output = Step>,
{
    let args = params.get("arguments").cloned().unwrap_or(json!({}));
    match rounds {
        Rounds::Stateless {
            approvals,
            caller,
            capabilities,
        } => {
            let mut cx = cx;
            cx.capabilities = capabilities.clone();
            match (params.get("requestState"), params.get("inputResponses")) {
                (Some(state), responses) => {
                    let state = state.as_str().unwrap_or_default();
                    let payload = approvals
                        .redeem_carrying(state, caller.as_deref(), target, &args)
                        .map_err(|refused| fail(codes::INVALID_PARAMS, refused.to_string()))?;
                    // Only the responses to what was asked count.
                    let asked = payload["asked"].as_array().cloned().unwrap_or_default();
                    let given = responses.and_then(Value::as_object);
                    cx.responses = asked
                        .iter()
                        .filter_map(Value::as_str)
                        .filter_map(|key| Some((key.to_owned(), given?.get(key)?.clone())))
                        .collect();
                    cx.state = Some(payload["state"].clone()).filter(|s| !s.is_null());
                }
                (None, Some(_)) => {
                    return Err(fail(
                        codes::INVALID_PARAMS,
                        "`inputResponses` come with the `requestState` they were asked with; call again without them to be asked",
                    ));
                }
                (None, None) => {}
            }
            match step(cx.clone()).await {
                Step::Done(result) => Ok(result),
                Step::Failed(error) => Err(error),
                Step::Asks(asks) => {
                    missing_capability(&asks, &cx.capabilities)?;
                    let keys: Vec<&str> = asks.requests.iter().map(|r| r.key.as_str()).collect();
                    let payload = json!({"asked": keys, "state": asks.state});
                    let state =
                        approvals.issue_carrying(caller.as_deref(), target, &args, &payload);
                    Ok(json!({
                        "resultType": "input_required",
                        "inputRequests": requests_json(&asks),
                        "requestState": state,
                    }))
                }
            }
        }
        Rounds::Peer(peer) => {
            let mut cx = cx;
            cx.capabilities = peer.capabilities();
            for _ in 0..MOST_ROUNDS {
                let asks = match step(cx.clone()).await {
                    Step::Done(result) => return Ok(result),
                    Step::Failed(error) => return Err(error),
                    Step::Asks(asks) => asks,
                };
                missing_capability(&asks, &cx.capabilities)?;
                let mut responses = Map::new();
                for request in &asks.requests {
                    let Some(answer) = peer.request(&request.method, request.params.clone()).await
                    else {
                        return Err(fail(
                            codes::INTERNAL_ERROR,
                            format!("the client did not answer `{}`", request.method),
                        ));
                    };
                    responses.insert(request.key.clone(), answer);
                }
                cx.responses = responses;
                cx.state = Some(asks.state).filter(|s| !s.is_null());
            }
            Err(fail(
                codes::INTERNAL_ERROR,
                format!("`{target}` asked for input more than {MOST_ROUNDS} times"),
            ))
        }
        Rounds::Nobody => match step(cx).await {
            Step::Done(result) => Ok(result),
            Step::Failed(error) => Err(error),
            Step::Asks(asks) => {
                let methods: Vec<&str> = asks.requests.iter().map(|r| r.method.as_str()).collect();
                Err(fail(
                    codes::INVALID_REQUEST,
                    format!(
                        "answering needs input from the client ({}), which this connection cannot carry: use MCP 2026-07-28 or stdio",
                        methods.join(", ")
                    ),
                ))
            }
        },
    }
}

/// `-32021` when a request needs a capability the client did not declare (SEP-2575):
/// a server must not rely on one.
fn missing_capability(asks: &InputRequired, capabilities: &Value) -> Result<(), Value> {
    let mut required = Map::new();
    for capability in asks.requests.iter().filter_map(InputRequest::capability) {
        if capabilities.get(capability).is_none() {
            required.insert(capability.to_owned(), json!({}));
        }
    }
    if required.is_empty() {
        return Ok(());
    }
    let names: Vec<&String> = required.keys().collect();
    let mut error = fail(
        codes::MISSING_CLIENT_CAPABILITY,
        format!(
            "answering needs the client capabilit{} {:?}, which this request did not declare",
            if names.len() == 1 { "y" } else { "ies" },
            names
        ),
    );
    error["data"] = json!({"requiredCapabilities": required});
    Err(error)
}

fn requests_json(asks: &InputRequired) -> Value {
    Value::Object(
        asks.requests
            .iter()
            .map(|r| {
                (
                    r.key.clone(),
                    json!({"method": r.method, "params": r.params}),
                )
            })
            .collect(),
    )
}
