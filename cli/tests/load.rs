//! Bounded load through one executor against a loopback server: 1,000 concurrent
//! calls are each answered exactly once (the server counts request ids: none lost,
//! none duplicated), and an adapter's `rate_limits` hold on the wire, measured where
//! the requests arrive.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::json;
use toolwright::{CredentialSource, Executor};
use toolwright_loopback::{Response, Server};

fn adapter(dir: &Path, rate_limits: &str, url: &str) -> Executor {
    let text = format!(
        r#"---
name: items
type: adapter
version: "1.0.0"
description: "Items, for load."
target:
  base_url: "http://127.0.0.1:9"
  transport: http
  protocol: rest
  serialization: json
auth:
  type: bearer
  token_env: ITEMS_TOKEN
{rate_limits}
operations:
  read:
    - name: get_item
      maps_to: "GET /items/{{id}}"
      description: Fetches one item by its id.
      params:
        id: {{ type: integer, required: true, description: "Item id." }}
      response:
        schema:
          type: object
          properties:
            id: {{ type: integer, required: true }}
---
# Items
"#
    );
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join("items-adapter.md");
    std::fs::write(&path, text).unwrap();
    let analysis = toolwright_codegen::analyze(&[path], false);
    assert!(!analysis.has_errors(), "{}", analysis.render());
    let catalog = toolwright_cli::interpret::catalog(&analysis.apis).unwrap();
    let builder = Executor::builder(catalog)
        .credentials(CredentialSource::from_fn(|_| Some("t".into())))
        .timeout(Duration::from_secs(60));
    builder.base_url("items", url).build().unwrap()
}

/// The server answers `/items/{id}` with `{"id": id}` and records when each came.
fn server(arrivals: Arc<Mutex<Vec<(u64, Instant)>>>) -> Server {
    Server::start(move |req| {
        let id: u64 = req
            .path()
            .rsplit('/')
            .next()
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        arrivals.lock().unwrap().push((id, Instant::now()));
        Response::json(200, &json!({"id": id}))
    })
}

#[test]
fn a_thousand_concurrent_calls_are_each_answered_once() {
    let arrivals = Arc::default();
    let server = server(Arc::clone(&arrivals));
    let dir = std::env::temp_dir().join(format!("toolwright-load-{}", std::process::id()));
    let executor = adapter(&dir.join("free"), "", &server.url());
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let results = rt.block_on(async {
        let mut tasks = tokio::task::JoinSet::new();
        for id in 0..1_000u64 {
            let executor = executor.clone();
            tasks.spawn(async move { (id, executor.call("get_item", json!({"id": id})).await) });
        }
        let mut out = Vec::new();
        while let Some(done) = tasks.join_next().await {
            out.push(done.unwrap());
        }
        out
    });
    assert_eq!(results.len(), 1_000);
    for (id, result) in &results {
        let value = result.as_ref().unwrap_or_else(|e| panic!("call {id}: {e}"));
        assert_eq!(value["id"], *id, "each call gets its own answer");
    }
    let mut seen: Vec<u64> = arrivals.lock().unwrap().iter().map(|(id, _)| *id).collect();
    seen.sort_unstable();
    assert_eq!(
        seen,
        (0..1_000).collect::<Vec<_>>(),
        "every request arrived exactly once"
    );
}

#[test]
fn an_adapters_rate_limit_holds_on_the_wire() {
    let arrivals = Arc::default();
    let server = server(Arc::clone(&arrivals));
    let dir = std::env::temp_dir().join(format!("toolwright-rate-{}", std::process::id()));
    let limits = "rate_limits:\n  api_limits:\n    - { scope: global, limit: 10, window: second }";
    let executor = adapter(&dir, limits, &server.url());
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let started = Instant::now();
    rt.block_on(async {
        let mut tasks = tokio::task::JoinSet::new();
        for id in 0..35u64 {
            // Clones share the limit.
            let executor = executor.clone();
            tasks.spawn(async move { executor.call("get_item", json!({"id": id})).await });
        }
        while let Some(done) = tasks.join_next().await {
            done.unwrap().unwrap();
        }
    });
    let took = started.elapsed();
    assert!(took >= Duration::from_secs(3), "35 calls at 10/s: {took:?}");
    let mut times: Vec<Instant> = arrivals.lock().unwrap().iter().map(|(_, t)| *t).collect();
    times.sort();
    assert_eq!(times.len(), 35);
    // In any stretch shorter than the window (less the loopback's jitter), at most 10.
    let stretch = Duration::from_millis(950);
    for (i, t) in times.iter().enumerate() {
        let within = times[i..]
            .iter()
            .take_while(|u| u.duration_since(*t) < stretch)
            .count();
        assert!(
            within <= 10,
            "{within} requests within {stretch:?} of request {i}"
        );
    }
    // A call that cannot get a slot within its timeout fails at once, client-side.
    let hurried = executor.with_timeout(Duration::from_millis(50));
    let errors = rt.block_on(async {
        let mut errors = 0;
        for id in 0..12u64 {
            if let Err(e) = hurried.call("get_item", json!({"id": 1_000 + id})).await {
                assert_eq!(e.code(), "RATE_LIMIT_CLIENT", "{e}");
                errors += 1;
            }
        }
        errors
    });
    assert!(errors >= 1, "some calls found no slot within 50 ms");
}
