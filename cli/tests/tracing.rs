//! The `tracing` feature: one `toolwright.call` span per call, with tool, API,
//! method, path template, status, attempts and duration — and never an argument
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

#[test]
fn each_call_is_a_span_without_arguments_or_credentials() {
    let api = Server::start(|_| {
        Response::json(200, &json!({"number": 7, "title": "t", "state": "open"}))
    });
    let adapters =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/issue-tracker/adapters");
    let analysis = toolwright_codegen::analyze(&[adapters], false);
    let catalog = toolwright_cli::interpret::catalog(&analysis.apis).unwrap();
    let executor = Executor::builder(catalog)
        .base_url("tracker", format!("{}/api/v1", api.url()))
        .credentials(CredentialSource::from_fn(|_| {
            Some("sup3r-secret-token".into())
        }))
        .build()
        .unwrap();
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
    let all = format!("{fields:?}");
    assert!(!all.contains("sup3r-secret-token"), "{all}");
    assert!(!all.contains("private-project-name"), "{all}");
}
