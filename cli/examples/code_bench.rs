//! What code mode costs (run by `benches/code_mode.sh`, release build), on GitHub's
//! catalog (interpreted) against a loopback API: ten calls made one by one from Rust
//! (`executor.call`), the same ten from one script (awaited one by one, then all at
//! once with `Promise.all`), and a script that calls nothing (the engine's start-up).
//! Rounds interleave the variants; each prints its median over the rounds and its
//! ratio to the ten direct calls.
//!
//! usage: code_bench GITHUB_SPEC.json   (`CODE_BENCH_ROUNDS` sets the rounds, default 30)

use std::time::{Duration, Instant};

use serde_json::json;
use toolwright_loopback::{Response, Server};

const SEQUENTIAL: &str = r#"
const logins = [];
for (let i = 0; i < 10; i++) {
  const user = await github.users_get_by_username({ username: "octocat" });
  logins.push(user.login);
}
return logins.length;
"#;

const CONCURRENT: &str = r#"
const users = await Promise.all(
  Array.from({ length: 10 }, () => github.users_get_by_username({ username: "octocat" })));
return users.length;
"#;

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort_unstable();
    samples[samples.len() / 2]
}

fn main() {
    let spec = std::env::args()
        .nth(1)
        .expect("usage: code_bench GITHUB_SPEC.json");
    let rounds: usize = std::env::var("CODE_BENCH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(30);
    let analysis = toolwright_codegen::analyze(&[std::path::PathBuf::from(spec)], false);
    assert!(!analysis.has_errors(), "{}", analysis.render());
    let catalog = toolwright_cli::interpret::catalog(&analysis.apis).expect("the catalog");
    let api = catalog.apis()[0].name.to_string();
    let server = Server::start(|_| Response::json(200, &json!({"login": "octocat", "id": 1})));
    let executor = toolwright::Executor::builder(catalog)
        .base_url(&api, server.url())
        .credentials(toolwright::CredentialSource::from_fn(|_| {
            Some("ghp_bench".into())
        }))
        .build()
        .expect("the executor");
    let code = executor.code();
    let namespace = toolwright::query::declare::identifier(&api);
    let sequential = SEQUENTIAL.replace("github.", &format!("{namespace}."));
    let concurrent = CONCURRENT.replace("github.", &format!("{namespace}."));
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    let mut samples: [Vec<Duration>; 4] = Default::default();
    for round in 0..=rounds {
        let started = Instant::now();
        rt.block_on(async {
            for _ in 0..10 {
                executor
                    .call("users_get_by_username", json!({"username": "octocat"}))
                    .await
                    .expect("a direct call");
            }
        });
        let direct = started.elapsed();
        let timed = |script: &str| {
            let started = Instant::now();
            let outcome = rt.block_on(code.execute(script));
            assert!(outcome.result.is_ok(), "{outcome:?}");
            started.elapsed()
        };
        let one_by_one = timed(&sequential);
        let together = timed(&concurrent);
        let empty = timed("return 1;");
        // The first round warms connections and caches.
        if round > 0 {
            for (bucket, sample) in samples
                .iter_mut()
                .zip([direct, one_by_one, together, empty])
            {
                bucket.push(sample);
            }
        }
    }
    let [direct, one_by_one, together, empty] = samples.map(median);
    println!("median of {rounds} rounds (ten calls each but the last):");
    for (what, took) in [
        ("10 direct calls (executor.call)", direct),
        ("a script, 10 calls awaited one by one", one_by_one),
        ("a script, 10 calls with Promise.all", together),
        ("a script with no call (engine start-up)", empty),
    ] {
        println!(
            "  {what:<42} {:>8.2} ms  {:>5.2}x",
            took.as_secs_f64() * 1000.0,
            took.as_secs_f64() / direct.as_secs_f64()
        );
    }
}
