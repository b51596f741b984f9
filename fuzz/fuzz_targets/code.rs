//! Code mode's sandbox: any bytes as a script, run against the example adapter's
//! catalog with an offline API, under small limits. Nothing may panic (an engine panic
//! would be a `SCRIPT_THROWN` "the script runner stopped"), every run ends with a
//! result or one of the documented failure codes, and no run makes more calls than
//! its limit.
#![no_main]

use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use toolwright::Executor;
use toolwright::code::{FailureKind, Limits};
use toolwright::transport::{ResponseFuture, Transport};

/// API calls that reached the transport in the current run.
static CALLS: AtomicUsize = AtomicUsize::new(0);

/// Answers every API call with one issue, offline.
struct Answer;

impl Transport for Answer {
    fn send(&self, _request: http::Request<Vec<u8>>) -> ResponseFuture<'_> {
        CALLS.fetch_add(1, Ordering::Relaxed);
        Box::pin(async {
            Ok(http::Response::builder()
                .status(200)
                .header("content-type", "application/json")
                .body(br#"{"number": 7, "title": "t", "state": "open"}"#.to_vec())
                .unwrap())
        })
    }
}

struct Sandbox {
    runtime: tokio::runtime::Runtime,
    executor: Executor,
}

fn sandbox() -> &'static Sandbox {
    static SANDBOX: OnceLock<Sandbox> = OnceLock::new();
    SANDBOX.get_or_init(|| {
        let adapter = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../examples/issue-tracker/adapters/tracker-adapter.md");
        let analysis = toolwright_codegen::analyze(&[adapter], false);
        assert!(!analysis.has_errors(), "{}", analysis.render());
        let catalog = toolwright_cli::interpret::catalog(&analysis.apis).unwrap();
        let executor = Executor::builder(catalog)
            .transport(Answer)
            .credentials(toolwright::CredentialSource::from_fn(|_| {
                Some("t0ken".into())
            }))
            .base_url("tracker", "https://api.example.com/v1")
            .build()
            .unwrap();
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        // The harness itself works: a script runs, and its call reaches the API.
        let outcome =
            runtime.block_on(executor.code().execute(
                "return (await tracker.get_issue({ project: 'web', number: 7 })).number;",
            ));
        assert_eq!(outcome.result, Ok(serde_json::json!(7)), "{outcome:?}");
        Sandbox { runtime, executor }
    })
}

const LIMITS: Limits = Limits {
    wall: Duration::from_millis(500),
    cpu: Duration::from_millis(200),
    memory: 8 << 20,
    calls: 5,
    output: 16 << 10,
};

fuzz_target!(|data: &[u8]| {
    let script = String::from_utf8_lossy(data);
    let sandbox = sandbox();
    CALLS.store(0, Ordering::Relaxed);
    let outcome = sandbox
        .runtime
        .block_on(sandbox.executor.code().limits(LIMITS).execute(&script));
    if let Err(failure) = &outcome.result {
        assert!(
            !failure.message.contains("the script runner stopped"),
            "the engine panicked: {failure:?}"
        );
        assert_ne!(failure.kind, FailureKind::Cancelled, "{failure:?}");
    }
    assert!(outcome.calls.len() <= LIMITS.calls, "{outcome:?}");
    assert!(CALLS.load(Ordering::Relaxed) <= LIMITS.calls, "{outcome:?}");
    let _ = outcome.to_json();
});
