//! The `tracing` feature: one `toolwright.call` span per call, with tool, API,
//! method, path template, status, attempts and duration, after an event naming the
//! security requirement applied — and never an argument
//! value, a query string or a credential. A minimal subscriber records every field.

use std::sync::{Arc, Mutex};

use serde_json::json;
use toolwright::{CredentialSource, Executor};
use toolwright_loopback::{Response, Server};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

#[derive(Default, Clone)]
struct Capture(Arc<Mutex<Vec<(String, String)>>>);

struct Fields<'a>(&'a mut Vec<(String, String)>);

impl Visit for Fields<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0.push((field.name().to_owned(), format!("{value:?}")));
    }
}

impl Subscriber for Capture {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, span: &Attributes<'_>) -> Id {
        let mut fields = self.0.lock().unwrap();
        fields.push(("span".into(), span.metadata().name().to_owned()));
        span.record(&mut Fields(&mut fields));
        Id::from_u64(1)
    }
    fn record(&self, _: &Id, values: &Record<'_>) {
        values.record(&mut Fields(&mut self.0.lock().unwrap()));
    }
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, event: &Event<'_>) {
        event.record(&mut Fields(&mut self.0.lock().unwrap()));
    }
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

/// A tracker API that answers every request with issue 7.
fn api() -> Server {
    Server::start(|_| Response::json(200, &json!({"number": 7, "title": "t", "state": "open"})))
}

/// The example tracker's catalog against `api`, with `token` as its credential.
fn tracker(api: &Server, token: &'static str) -> Executor {
    let adapters =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/issue-tracker/adapters");
    let analysis = toolwright_codegen::analyze(&[adapters], false);
    let catalog = toolwright_cli::interpret::catalog(&analysis.apis).unwrap();
    Executor::builder(catalog)
        .base_url("tracker", format!("{}/api/v1", api.url()))
        .credentials(CredentialSource::from_fn(move |_| Some(token.into())))
        .build()
        .unwrap()
}

#[test]
fn each_call_is_a_span_without_arguments_or_credentials() {
    let api = api();
    let executor = tracker(&api, "sup3r-secret-token");
    let capture = Capture::default();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    tracing::subscriber::with_default(capture.clone(), || {
        rt.block_on(executor.call(
            "get_issue",
            json!({"project": "private-project-name", "number": 7}),
        ))
        .unwrap();
    });
    let fields = capture.0.lock().unwrap().clone();
    let get = |k: &str| fields.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
    assert_eq!(
        get("span").as_deref(),
        Some("toolwright.call"),
        "{fields:?}"
    );
    assert_eq!(get("tool").as_deref(), Some("get_issue"));
    assert_eq!(get("api").as_deref(), Some("tracker"));
    assert_eq!(get("method").as_deref(), Some("\"GET\""));
    assert_eq!(
        get("path").as_deref(),
        Some("/projects/{project}/issues/{number}")
    );
    assert_eq!(get("status").as_deref(), Some("200"));
    assert_eq!(get("attempts").as_deref(), Some("1"));
    assert!(get("duration_ms").is_some());
    // Which security requirement was applied, by its schemes' names (#64).
    assert_eq!(get("security").as_deref(), Some("tracker"), "{fields:?}");
    let all = format!("{fields:?}");
    assert!(!all.contains("sup3r-secret-token"), "{all}");
    assert!(!all.contains("private-project-name"), "{all}");
}

/// Code mode: every call a script makes is an event (`toolwright::code`, "script
/// call": tool, caller, status, duration) followed by the call's own span, delivered
/// to the subscriber of whoever ran the script although the script runs on another
/// thread.
#[cfg(feature = "code")]
#[test]
fn each_call_a_script_makes_is_traced_to_the_callers_subscriber() {
    let api = api();
    let executor = tracker(&api, "t0ken");
    let capture = Capture::default();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let outcome = tracing::subscriber::with_default(capture.clone(), || {
        rt.block_on(executor.code().execute(
            "const a = await tracker.get_issue({project: 'web', number: 7});\n\
             try { await tracker.get_issue({project: 'web', number: 'x'}); } catch (e) {}\n\
             return a.number;",
        ))
    });
    assert_eq!(outcome.result, Ok(json!(7)), "{outcome:?}");
    let fields = capture.0.lock().unwrap().clone();
    let calls: Vec<(String, String)> = fields
        .iter()
        .enumerate()
        .filter(|(_, (name, value))| name == "message" && value == "script call")
        .map(|(at, _)| {
            // The event's own fields follow its message.
            let after = &fields[at + 1..];
            let field = |key: &str| {
                after
                    .iter()
                    .take_while(|(n, _)| n != "message" && n != "span")
                    .find(|(n, _)| n == key)
                    .map(|(_, v)| v.clone())
                    .unwrap_or_default()
            };
            (field("tool"), field("status"))
        })
        .collect();
    assert_eq!(
        calls,
        [
            ("\"get_issue\"".to_owned(), "\"ok\"".to_owned()),
            (
                "\"get_issue\"".to_owned(),
                "\"VALIDATION_ARGUMENTS\"".to_owned()
            )
        ],
        "{fields:?}"
    );
    assert!(
        fields
            .iter()
            .any(|(n, v)| n == "span" && v == "toolwright.call")
    );
    assert!(fields.iter().any(|(n, _)| n == "caller"), "{fields:?}");
}
