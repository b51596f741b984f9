//! What a call by name costs over the HTTP it makes (run by `benches/call_overhead.sh`,
//! release build), on GitHub's catalog (interpreted):
//!
//! 1. `executor.call("users_get_by_username", …)` against a loopback API, and the same
//!    request written by hand with reqwest (same client defaults, JSON parsed),
//!    interleaved, median of many rounds each: the ratio is the executor's overhead
//!    (target ≤ 1.05);
//! 2. argument validation plus request building for a typical write
//!    (`issues_create`: owner, repo, title, body, labels), through a transport that
//!    answers at once: median per call (target ≤ 5 µs).
//!
//! usage: call_bench GITHUB_SPEC.json

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use toolwright::transport::{ResponseFuture, Transport};
use toolwright_loopback::{Response, Server as Loopback};

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort_unstable();
    samples[samples.len() / 2]
}

/// Answers every request at once, without I/O.
struct Instant200;

impl Transport for Instant200 {
    fn send(&self, _: http::Request<Vec<u8>>) -> ResponseFuture<'_> {
        Box::pin(async {
            Ok(http::Response::builder()
                .status(201)
                .header("content-type", "application/json")
                .body(b"{}".to_vec())
                .unwrap())
        })
    }
}

fn main() {
    // A service's usual runtime: two workers. `CALL_BENCH_RUNTIME=current` runs on one
    // thread instead (no cross-thread wake-ups: what is left is the work itself).
    let runtime = match std::env::var("CALL_BENCH_RUNTIME").as_deref() {
        Ok("current") => tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build(),
        _ => tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build(),
    };
    runtime.expect("a tokio runtime").block_on(bench());
}

async fn bench() {
    let spec = std::env::args()
        .nth(1)
        .expect("usage: call_bench GITHUB_SPEC.json");
    let analysis = toolwright_codegen::analyze(&[spec.into()], false);
    let catalog = toolwright_cli::interpret::catalog(&analysis.apis).expect("catalog");
    let api_name = catalog.apis()[0].name.to_string();

    // 1. By name vs by hand, same loopback endpoint.
    let api = Loopback::start(|_| Response::json(200, &json!({"login": "octocat", "id": 1})));
    let executor = toolwright::Executor::builder(catalog.clone())
        .base_url(&api_name, api.url())
        .credentials(toolwright::CredentialSource::from_fn(|_| None))
        .build()
        .unwrap();
    // The same, without the retry layer (what it costs on a call that needs none).
    let bare = toolwright::Executor::builder(catalog.clone())
        .base_url(&api_name, api.url())
        .credentials(toolwright::CredentialSource::from_fn(|_| None))
        .transport(toolwright::transport::ReqwestTransport::new().unwrap())
        .build()
        .unwrap();
    let client = reqwest::Client::builder().build().unwrap();
    // By hand again, with the safety the executor's transport always has: a connect
    // timeout, a per-request timeout, no `Referer`, redirects kept to the origin.
    let guarded = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::limited(10))
        .referer(false)
        .connect_timeout(Duration::from_secs(10))
        .build()
        .unwrap();
    let transport = toolwright::transport::ReqwestTransport::new().unwrap();
    let url = format!("{}/users/octocat", api.url());
    let args = json!({"username": "octocat"});
    let rounds = 600;
    // `CALL_BENCH_ONLY=<0..4>` runs one variant alone (to profile it: syscalls,
    // wake-ups), in the order of `samples` below.
    let only: Option<usize> = std::env::var("CALL_BENCH_ONLY")
        .ok()
        .and_then(|v| v.parse().ok());
    // [by name, by hand, by name without the retry layer, the transport alone, by hand
    // with the same timeouts]
    let mut samples: [Vec<Duration>; 5] = Default::default();
    for round in 0..rounds + 50 {
        // Each variant takes each place in the round in turn: what runs right after
        // what (the server's accept thread, a socket in TIME_WAIT) is spread evenly.
        for slot in 0..5 {
            let variant = (slot + round) % 5;
            if only.is_some_and(|o| o != variant) {
                continue;
            }
            let started = Instant::now();
            let value: Value = match variant {
                0 => executor
                    .call("users_get_by_username", args.clone())
                    .await
                    .unwrap(),
                1 => {
                    let response = client
                        .get(&url)
                        .header("accept", "application/json, */*;q=0.5")
                        .send()
                        .await
                        .unwrap();
                    serde_json::from_slice(&response.bytes().await.unwrap()).unwrap()
                }
                2 => bare
                    .call("users_get_by_username", args.clone())
                    .await
                    .unwrap(),
                4 => {
                    let response = guarded
                        .get(&url)
                        .header("accept", "application/json, */*;q=0.5")
                        .timeout(Duration::from_secs(60))
                        .send()
                        .await
                        .unwrap();
                    serde_json::from_slice(&response.bytes().await.unwrap()).unwrap()
                }
                _ => {
                    let request = http::Request::get(&url)
                        .header("accept", "application/json, */*;q=0.5")
                        .body(Vec::new())
                        .unwrap();
                    let response = transport.send(request).await.unwrap();
                    serde_json::from_slice(response.body()).unwrap()
                }
            };
            let took = started.elapsed();
            std::hint::black_box(value);
            if round >= 50 {
                samples[variant].push(took);
            }
        }
    }
    // `CALL_BENCH_ONLY=5`: none of the network variants, only part 2.
    if only.is_some_and(|o| o < 5) {
        return;
    }
    let [by_name, by_hand, by_bare, by_transport, by_guarded] = samples;
    if only.is_none() {
        let (name, hand, guarded) = (median(by_name), median(by_hand), median(by_guarded));
        println!(
            "  (no retry layer: {:.1?}; the ReqwestTransport alone, no executor: {:.1?})",
            median(by_bare),
            median(by_transport)
        );
        println!(
            "call by name {name:.1?}, hand-written reqwest {hand:.1?}: {:.3}x (median of {rounds} each, interleaved, order rotated)",
            name.as_secs_f64() / hand.as_secs_f64()
        );
        println!(
            "  hand-written reqwest with the same timeouts {guarded:.1?}: {:.3}x",
            name.as_secs_f64() / guarded.as_secs_f64()
        );
    }

    // 2. Validation + request building.
    let executor = toolwright::Executor::builder(catalog)
        .transport(Instant200)
        .credentials(toolwright::CredentialSource::from_fn(|_| {
            Some("token".into())
        }))
        .build()
        .unwrap();
    let args = json!({
        "owner": "octocat", "repo": "hello-world",
        "title": "Found a bug", "body": "It fails when …", "labels": ["bug", "p1"]
    });
    executor
        .call("issues_create", args.clone())
        .await
        .expect("valid arguments");
    let mut samples = Vec::new();
    for _ in 0..20_000 {
        let started = Instant::now();
        std::hint::black_box(executor.call("issues_create", args.clone()).await.unwrap());
        samples.push(started.elapsed());
    }
    println!(
        "issues_create: validation + request building + answer {:.2?} per call (median of 20000)",
        median(samples)
    );
    // The same call with the caches cold, as between two network round trips (the
    // kernel, the server and the other side of the connection run in between): 16 MB
    // touched before each call.
    let mut scratch = vec![0u8; 16 << 20];
    let mut samples = Vec::new();
    for round in 0..2_000u32 {
        for (i, b) in scratch.iter_mut().enumerate().step_by(64) {
            *b = b.wrapping_add((i as u32 ^ round) as u8);
        }
        let started = Instant::now();
        std::hint::black_box(executor.call("issues_create", args.clone()).await.unwrap());
        samples.push(started.elapsed());
    }
    std::hint::black_box(&scratch);
    println!(
        "  the same with cold caches {:.2?} per call (median of 2000)",
        median(samples)
    );
}
