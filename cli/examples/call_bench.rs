//! What a call by name costs over the HTTP it makes (run by `benches/call_overhead.sh`,
//! release build), on GitHub's catalog (interpreted):
//!
//! 1. `executor.call("users_get_by_username", …)` against a loopback API, and the same
//!    request written by hand with reqwest (same client defaults, JSON parsed),
//!    interleaved, many rounds each: the ratio is the executor's overhead (target
//!    ≤ 1.05). Against two loopback APIs: one that keeps connections open (hyper, as
//!    real APIs do; the shortest round trip, so the strictest ratio), and one that
//!    closes each (a connect and a server thread per call);
//! 2. argument validation plus request building for a typical write
//!    (`issues_create`: owner, repo, title, body, labels), through a transport that
//!    answers at once: median per call (target ≤ 5 µs).
//!
//! usage: call_bench GITHUB_SPEC.json
//!
//! `CALL_BENCH_ONLY=<0..4>` runs one variant of part 1 alone (to profile it: syscalls,
//! wake-ups; see `VARIANTS`), `CALL_BENCH_ONLY=5` part 2 alone;
//! `CALL_BENCH_SERVER=keep-alive|close` one API only; `CALL_BENCH_ROUNDS` sets the
//! rounds; `CALL_BENCH_RUNTIME=current` runs on one thread instead of two workers.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use toolwright::transport::{ResponseFuture, Transport};
use toolwright_loopback::{Response, Server as Loopback};

/// Part 1's variants, in the order of their samples.
const VARIANTS: [&str; 5] = [
    "call by name",
    "hand-written reqwest",
    "call by name without the retry layer",
    "the ReqwestTransport alone, no executor",
    "hand-written reqwest with the executor's timeouts and redirect rules",
];

/// What the loopback APIs answer.
const USER: &[u8] = br#"{"login":"octocat","id":1}"#;

fn median<T: PartialOrd + Copy>(mut samples: Vec<T>) -> T {
    samples.sort_unstable_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
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

/// A loopback API that keeps connections open: hyper's HTTP/1 server on a thread
/// (and runtime) of its own. Returns its base URL.
fn keep_alive_api() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a loopback port");
    listener
        .set_nonblocking(true)
        .expect("a non-blocking socket");
    let url = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("the API's runtime");
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            while let Ok((stream, _)) = listener.accept().await {
                tokio::spawn(async move {
                    let answer = hyper::service::service_fn(|_| async {
                        let body = http_body_util::Full::new(bytes::Bytes::from_static(USER));
                        http::Response::builder()
                            .header("content-type", "application/json")
                            .body(body)
                    });
                    let io = hyper_util::rt::TokioIo::new(stream);
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(io, answer)
                        .await;
                });
            }
        });
    });
    url
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

fn env<T: std::str::FromStr>(name: &str) -> Option<T> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}

async fn bench() {
    let spec = std::env::args()
        .nth(1)
        .expect("usage: call_bench GITHUB_SPEC.json");
    let analysis = toolwright_codegen::analyze(&[spec.into()], false);
    let catalog = toolwright_cli::interpret::catalog(&analysis.apis).expect("catalog");
    drop(analysis);
    let only: Option<usize> = env("CALL_BENCH_ONLY");
    let server = std::env::var("CALL_BENCH_SERVER").ok();
    let closing = Loopback::start(|_| Response::json(200, &serde_json::from_slice(USER).unwrap()));
    let apis = [
        (
            "keep-alive",
            "an API that keeps connections open (hyper)",
            keep_alive_api(),
            1000,
        ),
        (
            "close",
            "an API that closes each connection (a connect and a server thread per call)",
            closing.url(),
            600,
        ),
    ];
    if only.is_none_or(|o| o < 5) {
        for (key, what, url, rounds) in apis {
            if server.as_deref().is_some_and(|s| s != key) {
                continue;
            }
            let rounds = env("CALL_BENCH_ROUNDS").unwrap_or(rounds);
            println!("{what}, {rounds} rounds:");
            compare(&catalog, &url, rounds, only).await;
        }
    }
    if only.is_none_or(|o| o == 5) {
        building(catalog).await;
    }
}

/// Part 1 against the API at `base`: every variant once per round, interleaved.
async fn compare(catalog: &toolwright::Catalog, base: &str, rounds: usize, only: Option<usize>) {
    let api_name = catalog.apis()[0].name.to_string();
    let executor = toolwright::Executor::builder(catalog.clone())
        .base_url(&api_name, base)
        .credentials(toolwright::CredentialSource::from_fn(|_| None))
        .build()
        .unwrap();
    // The same, without the retry layer (what it costs on a call that needs none).
    let bare = toolwright::Executor::builder(catalog.clone())
        .base_url(&api_name, base)
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
    let url = format!("{base}/users/octocat");
    let mut samples: [Vec<Duration>; 5] = Default::default();
    let warm_up = 50;
    for round in 0..rounds + warm_up {
        // Each variant takes each place in the round in turn: what runs right after
        // what (the server's threads, a socket in TIME_WAIT) is spread evenly.
        for slot in 0..5 {
            let variant = (slot + round) % 5;
            if only.is_some_and(|o| o != variant) {
                continue;
            }
            // The arguments arrive as JSON, as a model sends them.
            let args = json!({"username": "octocat"});
            let started = Instant::now();
            let value: Value = match variant {
                0 => executor.call("users_get_by_username", args).await.unwrap(),
                1 => {
                    let response = client
                        .get(&url)
                        .header("accept", "application/json, */*;q=0.5")
                        .send()
                        .await
                        .unwrap();
                    serde_json::from_slice(&response.bytes().await.unwrap()).unwrap()
                }
                2 => bare.call("users_get_by_username", args).await.unwrap(),
                3 => {
                    let request = http::Request::get(&url)
                        .header("accept", "application/json, */*;q=0.5")
                        .body(Vec::new())
                        .unwrap();
                    let response = transport.send(request).await.unwrap();
                    serde_json::from_slice(response.body()).unwrap()
                }
                _ => {
                    let response = guarded
                        .get(&url)
                        .header("accept", "application/json, */*;q=0.5")
                        .timeout(Duration::from_secs(60))
                        .send()
                        .await
                        .unwrap();
                    serde_json::from_slice(&response.bytes().await.unwrap()).unwrap()
                }
            };
            let took = started.elapsed();
            assert_eq!(
                value.pointer("/result/login").unwrap_or(&value["login"]),
                "octocat",
                "{variant}: {value}"
            );
            if round >= warm_up {
                samples[variant].push(took);
            }
        }
    }
    if only.is_some() {
        return;
    }
    // Two estimates of the same ratio: of the medians, and the median of each round's
    // own ratio (the variants of a round ran within a millisecond of each other, so a
    // machine that slows down for a while moves both sides of it).
    let ratios = |a: usize, b: usize| {
        let paired = median(
            samples[a]
                .iter()
                .zip(&samples[b])
                .map(|(x, y)| x.as_secs_f64() / y.as_secs_f64())
                .collect(),
        );
        let of_medians =
            median(samples[a].clone()).as_secs_f64() / median(samples[b].clone()).as_secs_f64();
        (of_medians, paired)
    };
    for (variant, name) in VARIANTS.iter().enumerate() {
        let took = median(samples[variant].clone());
        if variant == 0 {
            println!("  {name} {took:.1?}");
        } else {
            let (of_medians, paired) = ratios(0, variant);
            println!(
                "  {name} {took:.1?}: call by name / this = {of_medians:.3}x (medians), {paired:.3}x (median of rounds)"
            );
        }
    }
}

/// Part 2: validation + request building, without I/O.
async fn building(catalog: toolwright::Catalog) {
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
