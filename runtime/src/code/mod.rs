//! Code mode (feature `code`): a model writes one short JavaScript program against the
//! API's typed surface (the declarations of [`Catalog::typescript`]) instead of calling
//! tools one by one, so intermediate results stay out of its context.
//!
//! The program runs in an embedded QuickJS engine ([`rquickjs`]) with no ambient
//! authority: no file system, network, environment, module loading, wall clock or
//! randomness (`Math.random` is a fixed-seed generator, `Date` is absent, `now()` is a
//! monotonic count of milliseconds since the script started). What it can reach is one
//! global per API (`github.issues_get({...})`), each function a host function that
//! goes through the caller's [`Host`] — for [`Executor::code`], [`Executor::call`]: the
//! same argument checks, gate, rate limits, timeouts and result budget as a direct
//! call. [`Limits`] bound wall time, CPU time (an interrupt handler), memory, the number
//! of calls and the size of what comes back.
//!
//! Why QuickJS and not Boa: QuickJS has the two guarantees a sandbox needs built in —
//! a memory limit enforced by its allocator and an interrupt handler polled by the
//! interpreter — where Boa limits loop iterations, recursion and stack but not memory.
//! It is also the lighter of the two: a program that evaluates `6*7` builds cold in
//! 41 s into 1.7 MB with `rquickjs` 0.14, in 155 s into 16.0 MB with `boa_engine` 0.22
//! (release, 2 cores, `CARGO_INCREMENTAL=0`, 2026-12-04).
//!
//! [`Catalog::typescript`]: crate::Catalog::typescript
//! [`Executor::code`]: crate::Executor::code
//! [`Executor::call`]: crate::Executor::call

mod convert;
mod engine;
mod guard;
pub(crate) mod tools;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};

pub use tools::{Code, EXECUTE, SEARCH};

use crate::error::Error;
use crate::paginate::PageLimits;

/// What a script's API functions call: a tool by its catalog name with JSON arguments,
/// across pages (`fn.all(args, limits)`) when limits are given.
/// [`Executor::code`](crate::Executor::code) hands [`Executor::call`](crate::Executor::call)
/// and [`Executor::call_all`](crate::Executor::call_all); the MCP server adds its
/// confirmation dialogue.
pub type Host = Arc<
    dyn Fn(
            String,
            Value,
            Option<PageLimits>,
        ) -> Pin<Box<dyn Future<Output = Result<Value, Error>> + Send>>
        + Send
        + Sync,
>;

/// Namespace → function name → tool name: what a script can call.
pub(crate) type Apis =
    Arc<std::collections::BTreeMap<String, std::collections::BTreeMap<String, String>>>;

/// Bounds on one script run. Every one is enforced by the engine, not by the script's
/// good will: a loop is interrupted, an allocation fails, a call is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// From start to result, waiting for calls included.
    pub wall: Duration,
    /// Time spent running the script itself (not waiting for calls).
    pub cpu: Duration,
    /// The engine's heap, in bytes.
    pub memory: usize,
    /// API calls a run may make.
    pub calls: usize,
    /// Bytes of JSON the result and the captured logs may take together.
    pub output: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            wall: Duration::from_secs(60),
            cpu: Duration::from_secs(5),
            memory: 64 << 20,
            calls: 100,
            output: 256 << 10,
        }
    }
}

/// What a run gives back: the script's return value or why it failed, what it logged,
/// and every call it made, in the order it made them.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub result: Result<Value, Failure>,
    /// `console.log` (and `info`, `warn`, `error`, `debug`) lines, within
    /// [`Limits::output`].
    pub logs: Vec<String>,
    pub calls: Vec<CallRecord>,
}

/// One API call a script made.
#[derive(Debug, Clone, PartialEq)]
pub struct CallRecord {
    /// The tool's catalog name.
    pub tool: String,
    /// `"ok"`, or the error's code ([`Error::code`]).
    pub status: String,
    /// The upstream HTTP status of a failed call, when there was one.
    pub http_status: Option<u16>,
    pub duration: Duration,
}

/// Why a script produced no result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub kind: FailureKind,
    pub message: String,
    /// Where in the script, 1-based, when the engine knows.
    pub line: Option<u32>,
    pub column: Option<u32>,
    /// The error code of an API call the script let through uncaught.
    pub code: Option<String>,
}

/// The kinds of [`Failure`], each with a stable code ([`FailureKind::code`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailureKind {
    /// The script does not parse.
    Syntax,
    /// The script threw (or let an API error through) and did not catch it.
    Thrown,
    /// [`Limits::cpu`] reached.
    CpuLimit,
    /// [`Limits::wall`] reached.
    WallLimit,
    /// [`Limits::memory`] reached.
    MemoryLimit,
    /// [`Limits::calls`] reached.
    CallLimit,
    /// The result (with the logs) is larger than [`Limits::output`].
    OutputLimit,
    /// The result is not JSON data (a function, a cycle, nesting too deep).
    NotData,
    /// The caller stopped waiting (a cancelled request, a closed connection); no one
    /// reads this outcome, but the run stopped for it.
    Cancelled,
}

impl FailureKind {
    /// `SCRIPT_SYNTAX`, `SCRIPT_THROWN`, `LIMIT_CPU`, `LIMIT_WALL`, `LIMIT_MEMORY`,
    /// `LIMIT_CALLS`, `LIMIT_OUTPUT`, `SCRIPT_RESULT`, `CANCELLED`.
    pub fn code(self) -> &'static str {
        match self {
            FailureKind::Syntax => "SCRIPT_SYNTAX",
            FailureKind::Thrown => "SCRIPT_THROWN",
            FailureKind::CpuLimit => "LIMIT_CPU",
            FailureKind::WallLimit => "LIMIT_WALL",
            FailureKind::MemoryLimit => "LIMIT_MEMORY",
            FailureKind::CallLimit => "LIMIT_CALLS",
            FailureKind::OutputLimit => "LIMIT_OUTPUT",
            FailureKind::NotData => "SCRIPT_RESULT",
            FailureKind::Cancelled => "CANCELLED",
        }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.message)?;
        match (self.line, self.column) {
            (Some(line), Some(column)) => write!(f, " (script line {line}, column {column})"),
            (Some(line), None) => write!(f, " (script line {line})"),
            _ => Ok(()),
        }
    }
}

impl Outcome {
    /// The run as a model reads it: `{result, logs, calls}` or `{error: {code, message,
    /// line, column}, logs, calls}`; each call `{tool, status, http_status?,
    /// duration_ms}`.
    pub fn to_json(&self) -> Value {
        let calls: Vec<Value> = self
            .calls
            .iter()
            .map(|c| {
                let mut call = json!({
                    "tool": c.tool,
                    "status": c.status,
                    "duration_ms": c.duration.as_millis() as u64,
                });
                if let Some(status) = c.http_status {
                    call["http_status"] = json!(status);
                }
                call
            })
            .collect();
        let mut out = match &self.result {
            Ok(value) => json!({ "result": value }),
            Err(failure) => {
                let mut error = json!({
                    "code": failure.kind.code(),
                    "message": failure.message,
                });
                if let Some(line) = failure.line {
                    error["line"] = json!(line);
                }
                if let Some(column) = failure.column {
                    error["column"] = json!(column);
                }
                if let Some(code) = &failure.code {
                    error["error_code"] = json!(code);
                }
                json!({ "error": error })
            }
        };
        out["logs"] = json!(self.logs);
        out["calls"] = Value::Array(calls);
        out
    }
}

/// Code mode's two tools, `search` and `execute`, for the tools of `catalog` with
/// [`Limits::default`]: what [`Code::tools`] lists, for a service that exports them
/// without an executor at hand (`toolwright catalog --mode code`).
pub fn tools(catalog: &crate::Catalog) -> crate::Catalog {
    tools::tools_for(catalog, &Limits::default())
}

/// How far past its CPU or wall limit a run may go before the caller's side stops
/// waiting for the engine (which stops at its next interrupt poll).
const GRACE: Duration = Duration::from_millis(500);
/// How often the caller's side looks at the run's clock.
const WATCH_EVERY: Duration = Duration::from_millis(50);

/// Runs `source` (the body of an async function: `await` and `return` work at its top
/// level) with one global per API of `apis` — namespace → function → tool, the names
/// of [`Catalog::typescript`](crate::Catalog::typescript) — each function calling
/// `host` with the tool's name.
///
/// The script runs on a blocking thread of the current tokio runtime (a busy loop must
/// not stall the runtime's workers until the CPU limit stops it); its calls run
/// concurrently when it awaits several at once (`Promise.all`).
///
/// The run's life is the caller's: dropping this future (a cancelled request, a
/// closed connection) halts the script, which stops at its next interrupt poll, or at
/// once when it is waiting for calls (they are dropped, so no further request is
/// sent). What the caller holds for it (the [`lease`](crate::lease) of the answer: the
/// server's places for calls and scripts) is freed when the engine has stopped. And the answer never waits on the engine longer than a limit plus
/// [`GRACE`]: a watchdog on the caller's side reads the run's clock and answers with
/// the limit if the engine has not stopped by then.
///
/// # Panics
/// Outside a tokio runtime.
pub(crate) async fn run(source: &str, apis: Apis, host: Host, limits: Limits) -> Outcome {
    let source = source.to_owned();
    let caller = crate::caller::snapshot();
    let handle = tokio::runtime::Handle::current();
    let clock = Arc::new(engine::Clock::new(limits));
    let _halt_when_dropped = HaltOnDrop(Arc::clone(&clock));
    // The caller's subscriber and span follow the script to its thread, so its calls'
    // events land where the caller's would.
    #[cfg(feature = "tracing")]
    let (dispatch, span) = (
        tracing::dispatcher::get_default(Clone::clone),
        tracing::Span::current(),
    );
    let clock_in = Arc::clone(&clock);
    // What the caller holds for this run (a place under the server's caps) stays held
    // until the engine's thread is done, not only until this future is.
    let lease = crate::lease::current();
    let task = tokio::task::spawn_blocking(move || {
        let _held_until_the_engine_stops = lease;
        let work = || handle.block_on(engine::run(&source, apis, host, clock_in, caller));
        #[cfg(feature = "tracing")]
        return tracing::dispatcher::with_default(&dispatch, || span.in_scope(work));
        #[cfg(not(feature = "tracing"))]
        work()
    });
    let mut task = std::pin::pin!(task);
    let mut watchdog = std::pin::pin!(overdue(&clock));
    let finished = std::future::poll_fn(|cx| {
        if let std::task::Poll::Ready(done) = task.as_mut().poll(cx) {
            return std::task::Poll::Ready(Ok(done));
        }
        watchdog.as_mut().poll(cx).map(Err)
    })
    .await;
    match finished {
        Ok(Ok(outcome)) => outcome,
        // The engine does not panic on any script; if it ever does, the run fails
        // instead of the server.
        Ok(Err(e)) => Outcome {
            result: Err(Failure {
                kind: FailureKind::Thrown,
                message: format!("the script runner stopped: {e}"),
                line: None,
                column: None,
                code: None,
            }),
            logs: Vec::new(),
            calls: Vec::new(),
        },
        Err(mut stopped) => {
            #[cfg(feature = "tracing")]
            tracing::warn!(
                target: "toolwright::code",
                limit = stopped.kind.code(),
                "a script passed its limit inside a built-in that does not poll the \
                 interrupt handler; answered without waiting for the engine"
            );
            stopped
                .message
                .push_str(" (it was stopped inside a built-in; its logs and calls are not listed)");
            Outcome {
                result: Err(stopped),
                logs: Vec::new(),
                calls: Vec::new(),
            }
        }
    }
}

/// Halts the run when the future waiting for it is dropped.
struct HaltOnDrop(Arc<engine::Clock>);

impl Drop for HaltOnDrop {
    fn drop(&mut self) {
        self.0.halt(engine::STOP_CANCELLED);
    }
}

/// Ready with the limit once the run is past it by more than [`GRACE`].
async fn overdue(clock: &engine::Clock) -> Failure {
    loop {
        tokio::time::sleep(WATCH_EVERY).await;
        if let Some(stopped) = clock.overdue(GRACE) {
            return stopped;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::time::Instant;

    use super::*;

    /// A run whose engine cannot reach an interrupt poll (here a call that blocks the
    /// engine's thread) is still answered at its limit plus [`GRACE`].
    #[test]
    fn a_stuck_engine_is_answered_at_its_limit_plus_the_grace() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let host: Host = Arc::new(|_, _, _| {
            Box::pin(async {
                std::thread::sleep(Duration::from_secs(3));
                Ok(Value::Null)
            })
        });
        let apis: Apis = Arc::new(BTreeMap::from([(
            "api".to_owned(),
            BTreeMap::from([("stuck".to_owned(), "stuck".to_owned())]),
        )]));
        let limits = Limits {
            wall: Duration::from_millis(400),
            ..Limits::default()
        };
        let started = Instant::now();
        let outcome = rt.block_on(run("await api.stuck({}); return 1;", apis, host, limits));
        let took = started.elapsed();
        let failure = outcome.result.unwrap_err();
        assert_eq!(failure.kind, FailureKind::WallLimit, "{failure:?}");
        assert!(failure.message.contains("inside a built-in"), "{failure:?}");
        assert!(
            took >= limits.wall && took < limits.wall + GRACE + Duration::from_millis(400),
            "{took:?}"
        );
    }

    /// F03 of the third hostile-input round: what the caller holds for a run (the
    /// server's places under `--max-calls-in-flight` and `--max-scripts`) is freed
    /// when the engine has stopped, not when the caller stops waiting. Here the
    /// engine's thread is kept busy by a call for 1.5 s after the caller went away at
    /// 0.2 s; the place was freed with the request before.
    #[test]
    fn a_place_is_held_until_the_engine_stops_not_until_the_caller_goes() {
        struct Place(Arc<std::sync::Mutex<Option<Instant>>>);
        impl Drop for Place {
            fn drop(&mut self) {
                *self.0.lock().unwrap() = Some(Instant::now());
            }
        }
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let host: Host = Arc::new(|_, _, _| {
            Box::pin(async {
                std::thread::sleep(Duration::from_millis(1500));
                Ok(Value::Null)
            })
        });
        let apis: Apis = Arc::new(BTreeMap::from([(
            "api".to_owned(),
            BTreeMap::from([("busy".to_owned(), "busy".to_owned())]),
        )]));
        let freed = Arc::new(std::sync::Mutex::new(None));
        let lease = crate::lease::Lease::default();
        lease.hold(Place(freed.clone()));
        let started = Instant::now();
        let run = crate::lease::within(
            lease,
            run(
                "await api.busy({}); return 1;",
                apis,
                host,
                Limits::default(),
            ),
        );
        let gave_up =
            rt.block_on(async { tokio::time::timeout(Duration::from_millis(200), run).await });
        assert!(gave_up.is_err(), "the caller stopped waiting");
        assert_eq!(*freed.lock().unwrap(), None, "the engine is still running");
        while freed.lock().unwrap().is_none() && started.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(20));
        }
        let at = freed
            .lock()
            .unwrap()
            .expect("freed once the engine stopped");
        let took = at - started;
        assert!(took >= Duration::from_millis(1500), "freed at {took:?}");
        assert!(took < Duration::from_millis(3000), "freed at {took:?}");
    }
}
