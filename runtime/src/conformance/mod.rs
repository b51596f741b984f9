//! Conformance tests of an adapter (`{name}-adapter-tests.yaml`): each [`Case`] calls
//! one tool by name with its arguments, and compares the request the executor sends
//! with the one the case expects — offline, through an in-process responder that
//! answers with the case's canned response. Credentials are placeholders
//! (`${VARIABLE}`), so no secret is needed and none can leak into a case.
//!
//! `toolwright test` runs the cases of a directory; `Config::tests(true)` in a build
//! script emits each as a `#[test]` that calls [`run_json`].

mod diff;
mod responder;

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::auth::CredentialSource;
use crate::catalog::Catalog;
use crate::executor::Executor;

pub use responder::Responder;

/// The base URL every API is called at in a case: requests never leave the process,
/// and paths compare as the adapter writes them.
pub const BASE_URL: &str = "http://adapter.test";

/// One conformance case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// Names the case in reports (`test NAME ... ok`).
    pub name: String,
    /// The tool called, by its catalog name.
    pub tool: String,
    /// The arguments, as a model sends them.
    #[serde(default = "empty_object")]
    pub arguments: Value,
    /// The request the call must send; `None`: not compared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request: Option<ExpectedRequest>,
    /// What the responder answers (default: 200 with `{}`).
    #[serde(default)]
    pub response: Canned,
    /// The value the call must return.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub returns: Option<Value>,
    /// The error code the call must fail with ([`Error::code`](crate::Error::code)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

fn empty_object() -> Value {
    Value::Object(serde_json::Map::new())
}

/// The request a case expects.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExpectedRequest {
    /// `GET`, `POST`, ... (compared without regard to case).
    pub method: String,
    /// The path after the base URL, as sent (percent-encoded).
    pub path: String,
    /// Every query parameter sent, decoded; a list for a repeated name. Compared
    /// whole: a parameter sent but not listed is a difference.
    #[serde(default)]
    pub query: BTreeMap<String, OneOrMany>,
    /// Headers compared by name (case-insensitive); `null`: must not be sent. Headers
    /// not named are not compared.
    #[serde(default)]
    pub headers: BTreeMap<String, Option<String>>,
    /// The body: compared as JSON when the request is JSON, else as text. `None`: no
    /// body may be sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<Value>,
}

/// A query parameter's value, or its values when repeated.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl OneOrMany {
    fn values(&self) -> Vec<String> {
        match self {
            OneOrMany::One(v) => vec![v.clone()],
            OneOrMany::Many(v) => v.clone(),
        }
    }
}

/// The response the in-process responder gives.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Canned {
    #[serde(default = "ok")]
    pub status: u16,
    #[serde(default)]
    pub headers: BTreeMap<String, String>,
    /// Sent as JSON unless `content_type` says otherwise (then a string is sent as is).
    #[serde(default = "empty_object")]
    pub body: Value,
    #[serde(default = "json")]
    pub content_type: String,
}

fn ok() -> u16 {
    200
}

fn json() -> String {
    "application/json".into()
}

impl Default for Canned {
    fn default() -> Self {
        Canned {
            status: ok(),
            headers: BTreeMap::new(),
            body: empty_object(),
            content_type: json(),
        }
    }
}

/// Why a case failed, readable as a report: what differs, expected against actual.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    pub case: String,
    pub message: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "case `{}`: {}", self.case, self.message)
    }
}

impl std::error::Error for Failure {}

/// Runs `case` against `catalog`, offline.
///
/// # Errors
/// A [`Failure`] saying what differs.
pub async fn run(catalog: Catalog, case: &Case) -> Result<(), Failure> {
    let fail = |message: String| Failure {
        case: case.name.clone(),
        message,
    };
    let Some(api) = catalog.get(&case.tool).map(|t| t.operation.api.to_string()) else {
        return Err(fail(format!("no tool named `{}`", case.tool)));
    };
    let responder = Responder::new(case.response.clone());
    let executor = Executor::builder(catalog)
        .transport(responder.clone())
        .base_url(api, BASE_URL)
        .credentials(placeholders())
        // The case checks the request, not the service's policy: confirmations pass.
        .approve_with(|_| async { true })
        .build()
        .map_err(|e| fail(format!("the executor could not be built: {e}")))?;
    let outcome = executor.call(&case.tool, case.arguments.clone()).await;
    let sent = responder.requests();
    if let Some(expected) = &case.request {
        match sent.first() {
            None => {
                let why = outcome
                    .as_ref()
                    .err()
                    .map(|e| format!(" (the call failed first: {} {e})", e.code()))
                    .unwrap_or_default();
                return Err(fail(format!("no request was sent{why}")));
            }
            Some(actual) => diff::compare(expected, actual).map_err(fail)?,
        }
    }
    match (outcome, &case.error) {
        (Ok(value), None) => match &case.returns {
            Some(want) if *want != value => Err(fail(format!(
                "the call returned a different value\n{}",
                diff::lines(&pretty(want), &pretty(&value))
            ))),
            _ => Ok(()),
        },
        (Ok(value), Some(code)) => Err(fail(format!(
            "expected error {code}, the call returned {}",
            pretty(&value)
        ))),
        (Err(e), Some(code)) if e.code() == code => Ok(()),
        (Err(e), Some(code)) => Err(fail(format!(
            "expected error {code}, the call failed with {}: {e}",
            e.code()
        ))),
        (Err(e), None) => Err(fail(format!("the call failed: {}: {e}", e.code()))),
    }
}

/// [`run`] to completion on this thread (the responder never waits, so no async
/// runtime is needed): what generated `#[test]`s call.
///
/// # Errors
/// As [`run`].
pub fn run_blocking(catalog: Catalog, case: &Case) -> Result<(), Failure> {
    block_on(run(catalog, case))
}

/// [`run_blocking`] of a case written as JSON (how generated tests hold their cases).
///
/// # Errors
/// A case that does not parse, or as [`run`].
pub fn run_json(catalog: Catalog, case: &str) -> Result<(), Failure> {
    let case: Case = serde_json::from_str(case).map_err(|e| Failure {
        case: String::new(),
        message: format!("the case does not parse: {e}"),
    })?;
    run_blocking(catalog, &case)
}

/// Every credential is `${NAME}`: cases state where credentials go, never what
/// they are.
fn placeholders() -> CredentialSource {
    CredentialSource::from_fn(|name| Some(format!("${{{name}}}")))
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

/// Polls `future` on this thread, parking between wake-ups.
fn block_on<F: std::future::Future>(future: F) -> F::Output {
    use std::sync::Arc;
    use std::task::{Context, Poll, Wake, Waker};

    struct Unpark(std::thread::Thread);
    impl Wake for Unpark {
        fn wake(self: Arc<Self>) {
            self.0.unpark();
        }
    }
    let waker = Waker::from(Arc::new(Unpark(std::thread::current())));
    let mut context = Context::from_waker(&waker);
    let mut future = std::pin::pin!(future);
    loop {
        match future.as_mut().poll(&mut context) {
            Poll::Ready(out) => return out,
            Poll::Pending => std::thread::park(),
        }
    }
}
