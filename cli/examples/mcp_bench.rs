//! MCP serving costs, measured (run by `benches/mcp_serve.sh`, release build):
//!
//! 1. `tools/list` pages of GitHub's catalog (1,223 tools, interpreted, 100 per page):
//!    time per page through `Server::handle`, after start-up (median of every page over
//!    several passes);
//! 2. a `tools/call` to a loopback API: the executor's own call, and the same call as a
//!    JSON-RPC round trip through the stdio transport (an in-memory pipe), median of
//!    many calls each; the difference is what MCP adds.
//!
//! usage: mcp_bench GITHUB_SPEC.json

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use toolwright::serve::mcp::Server;
use toolwright_loopback::{Response, Server as Loopback};

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort_unstable();
    samples[samples.len() / 2]
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let spec = std::env::args()
        .nth(1)
        .expect("usage: mcp_bench GITHUB_SPEC.json");
    let analysis = toolwright_codegen::analyze(&[spec.into()], false);
    let catalog = toolwright_cli::interpret::catalog(&analysis.apis).expect("catalog");
    let api_name = catalog.apis()[0].name.to_string();
    let tools = catalog.tools().len();

    // 1. tools/list pages.
    let executor = toolwright::Executor::builder(catalog.clone())
        .build()
        .unwrap();
    // Every tool listed (the default would serve meta-tools above 128).
    let server = Server::new(executor)
        .mode(toolwright::serve::mcp::ToolMode::Direct)
        .page_size(100);
    let mut samples = Vec::new();
    let mut bytes = 0;
    for pass in 0..6 {
        let mut cursor: Option<String> = None;
        loop {
            let params = match &cursor {
                Some(c) => json!({"cursor": c}),
                None => json!({}),
            };
            let request =
                json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": params});
            let started = Instant::now();
            // What a transport does: the answer as the text that goes on the wire.
            let text = server.respond(request).await.unwrap();
            let took = started.elapsed();
            if pass > 0 {
                samples.push(took);
                bytes += text.len();
            }
            let answer: Value = serde_json::from_str(&text).unwrap();
            cursor = answer["result"]["nextCursor"].as_str().map(str::to_owned);
            if cursor.is_none() {
                break;
            }
        }
    }
    println!(
        "tools/list, {tools} tools, 100 per page: median {:.2} ms per page ({} pages timed, {:.0} KB per page)",
        median(samples.clone()).as_secs_f64() * 1e3,
        samples.len(),
        bytes as f64 / samples.len() as f64 / 1024.0
    );

    // 2. tools/call overhead over stdio.
    let api = Loopback::start(|_| Response::json(200, &json!({"login": "octocat", "id": 1})));
    let executor = toolwright::Executor::builder(catalog)
        .base_url(api_name, api.url())
        .build()
        .unwrap();
    let name = "users_get_by_username";
    let args = json!({"username": "octocat"});
    executor
        .call(name, args.clone())
        .await
        .expect("the bench tool exists");
    let rounds = 300;
    let mut direct = Vec::new();
    for _ in 0..rounds {
        let started = Instant::now();
        std::hint::black_box(executor.call(name, args.clone()).await.unwrap());
        direct.push(started.elapsed());
    }
    let (client, server_side) = tokio::io::duplex(1 << 20);
    let (server_read, mut client_write) = (server_side, client);
    let (mut out_read, out_write) = tokio::io::duplex(1 << 20);
    let serving = tokio::spawn(Server::new(executor).serve(server_read, out_write));
    let mut lines = BufReader::new(&mut out_read).lines();
    let mut over_mcp = Vec::new();
    for i in 0..rounds {
        let request = json!({"jsonrpc": "2.0", "id": i, "method": "tools/call",
            "params": {"name": name, "arguments": args}});
        let started = Instant::now();
        client_write
            .write_all(format!("{request}\n").as_bytes())
            .await
            .unwrap();
        let line = lines.next_line().await.unwrap().unwrap();
        over_mcp.push(started.elapsed());
        let answer: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(answer["result"]["isError"], false, "{answer}");
    }
    drop(client_write);
    let _ = serving.await;
    let (d, m) = (median(direct), median(over_mcp));
    println!(
        "tools/call to a loopback API: executor {:.1} µs, over MCP stdio {:.1} µs, MCP adds {:.1} µs (median of {rounds})",
        d.as_secs_f64() * 1e6,
        m.as_secs_f64() * 1e6,
        (m.as_secs_f64() - d.as_secs_f64()) * 1e6
    );
}
