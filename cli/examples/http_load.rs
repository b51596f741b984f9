//! `serve --http` under load, measured from outside (run by `benches/http_load.sh`,
//! release build). The server is the `toolwright` binary in its own process, with one
//! bearer token per caller (1,000 callers), in front of a loopback API; this program is
//! the clients, each request a fresh HTTP/1.1 connection. The API stand-in is a tokio
//! server with keep-alive (the tests' thread-per-connection server, with its backlog of
//! 128, is what broke first at 1,000 calls at once — for the executor alone as well).
//!
//! 1. 1,000 sessions at once, each `initialize`, `tools/list`, three `tools/call`s:
//!    every call answered once; requests per second, p50/p99 of `tools/call`;
//! 2. the same call through the executor alone, in this process: p50/p99;
//! 3. 20,000 sessions opened and abandoned: the server's peak and final RSS, and how
//!    many of them are still live at the end (each pinged by its caller);
//! 4. a 50 MB body, and JSON nested 100,000 deep: the status each gets;
//! 5. one caller sending 10,000 calls as fast as 64 connections allow while 9 others
//!    call steadily: how many of the flood are refused (`429`), and the p99 of the
//!    others' calls;
//! 6. one caller holding 600 connections with bodies that never finish and 300 tasks
//!    of slow (3 s) calls while another calls steadily: the other's p50/p99 and
//!    failures (the third security review's F2/F3).
//!
//! Sessions that failed say why (connect, reset, closed). Runs before 2026-12-03 lost up
//! to 179 of the 1,000 sessions to `Connection reset by peer` before any answer: the
//! kernel's accept queue (1,024 from `TcpListener::bind`) overflowed under the burst
//! (`ListenOverflows` in /proc/net/netstat), and overflowed connections were reset.
//! The server now listens with a backlog of 4,096, and so does the API stand-in.
//!
//! The tools are the example tracker adapter's without its `rate_limits` (600 a
//! minute): the executor honours a declared limit by waiting, which is what the first
//! runs of this bench measured instead of the server (every call past the 600th waited
//! out the minute).
//!
//! usage: http_load TOOLWRIGHT_BINARY

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const CALLERS: usize = 1_000;

fn token(caller: usize) -> String {
    format!("load-test-token-{caller:06}-abcdef")
}

/// One request on a fresh connection: status, headers+body text. Status 0: no answer,
/// and the text says what happened instead.
async fn send(port: u16, token: &str, session: Option<&str>, body: &[u8]) -> (u16, String) {
    let mut stream = match tokio::net::TcpStream::connect(("127.0.0.1", port)).await {
        Ok(stream) => stream,
        Err(e) => return (0, format!("connect: {e}")),
    };
    let mut head = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nConnection: close\r\nAuthorization: Bearer {token}\r\nContent-Length: {}\r\n",
        body.len()
    );
    if let Some(id) = session {
        head.push_str(&format!(
            "Mcp-Session-Id: {id}\r\nMCP-Protocol-Version: 2025-11-25\r\n"
        ));
    } else if let Some(message) = stateless(body) {
        // 2026-07-28 mirrors the revision, method and tool in headers.
        head.push_str(&format!(
            "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: {}\r\n",
            message["method"].as_str().unwrap_or_default()
        ));
        if let Some(name) = message.pointer("/params/name").and_then(Value::as_str) {
            head.push_str(&format!("Mcp-Name: {name}\r\n"));
        }
    }
    head.push_str("\r\n");
    if let Err(e) = stream.write_all(head.as_bytes()).await {
        return (0, format!("write: {e}"));
    }
    // A refused body may be cut off mid-way: the status is what counts then.
    let _ = stream.write_all(body).await;
    let mut answer = Vec::new();
    let read = stream.read_to_end(&mut answer).await;
    let text = String::from_utf8_lossy(&answer).into_owned();
    match text.get(9..12).and_then(|s| s.parse().ok()) {
        Some(status) => (status, text),
        None => (
            0,
            match read {
                Err(e) => format!("read: {e} after {} bytes", answer.len()),
                Ok(_) => format!("closed after {} bytes", answer.len()),
            },
        ),
    }
}

/// A 2026-07-28 message (its `_meta` names the revision), parsed.
fn stateless(body: &[u8]) -> Option<Value> {
    if body.len() > 1 << 20 {
        return None;
    }
    let message: Value = serde_json::from_slice(body).ok()?;
    message
        .pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion")
        .is_some()
        .then_some(message)
}

fn session_of(answer: &str) -> Option<String> {
    answer.lines().find_map(|line| {
        let lower = line.to_ascii_lowercase();
        lower
            .strip_prefix("mcp-session-id: ")
            .map(|v| v.trim().to_owned())
    })
}

fn init() -> Vec<u8> {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
           "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                      "clientInfo": {"name": "load", "version": "1"}}})
    .to_string()
    .into_bytes()
}

fn get_issue(n: usize) -> Value {
    json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
           "params": {"name": "get_issue", "arguments": {"project": "web", "number": n + 1}}})
}

/// The API the tools call: answers every request with an issue, keeping connections
/// alive; counts what it answered.
struct Api {
    port: u16,
    answered: Arc<AtomicUsize>,
}

impl Api {
    async fn start() -> Api {
        // The server's own backlog (4,096), so a burst queues here too.
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind(([127, 0, 0, 1], 0).into()).unwrap();
        let listener = socket.listen(4096).unwrap();
        let port = listener.local_addr().unwrap().port();
        let answered = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&answered);
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                tokio::spawn(Api::connection(stream, Arc::clone(&counter)));
            }
        });
        Api { port, answered }
    }

    async fn connection(mut stream: tokio::net::TcpStream, answered: Arc<AtomicUsize>) {
        let mut buffer = Vec::new();
        let mut chunk = [0u8; 4096];
        loop {
            // One request head (GETs carry no body), then the answer; again.
            let end = loop {
                if let Some(end) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
                    break end + 4;
                }
                match stream.read(&mut chunk).await {
                    Ok(0) | Err(_) => return,
                    Ok(n) => buffer.extend_from_slice(&chunk[..n]),
                }
            };
            // Issue 666 is slow (3 s): what a caller hogging call slots asks for.
            let slow = buffer[..end]
                .split(|b| *b == b'\r')
                .next()
                .is_some_and(|line| line.windows(4).any(|w| w == b"/666"));
            buffer.drain(..end);
            if slow {
                tokio::time::sleep(Duration::from_secs(3)).await;
            }
            let body = r#"{"number":7,"title":"T","state":"open"}"#;
            let answer = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            );
            if stream.write_all(answer.as_bytes()).await.is_err() {
                return;
            }
            answered.fetch_add(1, Ordering::Relaxed);
        }
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Requests answered since the last call.
    fn take(&self) -> usize {
        self.answered.swap(0, Ordering::Relaxed)
    }
}

/// A 2026-07-28 `tools/call`: no session needed.
fn stateless_call(n: usize) -> Value {
    json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call",
           "params": {"name": "get_issue", "arguments": {"project": "web", "number": n + 1},
                      "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                                "io.modelcontextprotocol/clientCapabilities": {}}}})
}

fn percentile(samples: &mut [Duration], p: f64) -> Duration {
    if samples.is_empty() {
        return Duration::ZERO;
    }
    samples.sort_unstable();
    let at = ((samples.len() as f64 - 1.0) * p).round() as usize;
    samples[at]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1e3)
}

/// The server's resident memory now and at its peak (`/proc`), in MiB.
fn rss(pid: u32) -> (f64, f64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok())
            .map_or(0.0, |kib| kib / 1024.0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// A whole session: initialize, list, three calls. The calls' latencies, or why not.
async fn session(port: u16, caller: usize) -> Result<Vec<Duration>, String> {
    let token = token(caller);
    let (status, answer) = send(port, &token, None, &init()).await;
    let id = session_of(&answer).ok_or(format!("initialize: {status} {answer}"))?;
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}).to_string();
    let (status, answer) = send(port, &token, Some(&id), list.as_bytes()).await;
    if status != 200 {
        return Err(format!(
            "tools/list: {status} {}",
            answer.lines().next().unwrap_or("")
        ));
    }
    let mut took = Vec::new();
    for n in 0..3 {
        let call = get_issue(caller * 3 + n).to_string();
        let started = Instant::now();
        let (status, answer) = send(port, &token, Some(&id), call.as_bytes()).await;
        took.push(started.elapsed());
        if status != 200 || !answer.contains("\"structuredContent\"") {
            return Err(format!(
                "tools/call: {status} {}",
                answer.lines().next().unwrap_or("")
            ));
        }
    }
    Ok(took)
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let binary = std::env::args()
        .nth(1)
        .expect("usage: http_load TOOLWRIGHT_BINARY");
    let api = Api::start().await;
    let work = std::env::temp_dir().join(format!("toolwright-load-{}", std::process::id()));
    std::fs::create_dir_all(&work).unwrap();
    let tokens: String = (0..CALLERS)
        .map(|i| format!("caller{i} {}\n", token(i)))
        .collect();
    std::fs::write(work.join("tokens"), tokens).unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let adapter =
        std::fs::read_to_string(root.join("examples/issue-tracker/adapters/tracker-adapter.md"))
            .unwrap()
            .replace("rate_limits:\n  requests_per_minute: 600\n", "");
    std::fs::create_dir_all(work.join("adapters")).unwrap();
    std::fs::write(work.join("adapters/tracker-adapter.md"), adapter).unwrap();
    let port = toolwright_loopback::free_port();
    let mut server = std::process::Command::new(&binary)
        .arg("serve")
        .arg(work.join("adapters"))
        .arg("--base-url")
        .arg(format!("tracker={}/api/v1", api.url()))
        .args(["--http", &format!("127.0.0.1:{port}")])
        .arg("--auth-tokens")
        .arg(work.join("tokens"))
        .args(["--max-connections", "4096", "--max-calls-in-flight", "1024"])
        .current_dir(&root)
        .env("TRACKER_TOKEN", "upstream-t0ken")
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the toolwright binary");
    let pid = server.id();
    toolwright_loopback::wait_listening(port, Duration::from_secs(30), "serve --http").unwrap();
    let (rss_start, _) = rss(pid);
    println!("server RSS at start: {rss_start:.1} MiB");

    // 1. 1,000 sessions at once.
    let started = Instant::now();
    let tasks: Vec<_> = (0..CALLERS)
        .map(|caller| tokio::spawn(session(port, caller)))
        .collect();
    let (mut calls, mut failed) = (Vec::new(), Vec::new());
    for task in tasks {
        match task.await.unwrap() {
            Ok(took) => calls.extend(took),
            Err(why) => failed.push(why),
        }
    }
    let elapsed = started.elapsed();
    let requests = CALLERS * 5;
    let upstream = api.take();
    println!(
        "1. {CALLERS} concurrent sessions: {} of {} calls answered, {} sessions failed{}, the API got {upstream} requests; {:.0} requests/s; tools/call p50 {} p99 {}",
        calls.len(),
        CALLERS * 3,
        failed.len(),
        failed
            .first()
            .map(|f| format!(" (first: {f})"))
            .unwrap_or_default(),
        requests as f64 / elapsed.as_secs_f64(),
        ms(percentile(&mut calls, 0.5)),
        ms(percentile(&mut calls, 0.99)),
    );

    let mut reasons = std::collections::BTreeMap::<String, usize>::new();
    for why in &failed {
        *reasons.entry(why.clone()).or_default() += 1;
    }
    for (why, count) in reasons {
        println!("   {count} sessions: {why}");
    }

    // 2. The executor alone.
    let analysis = toolwright_codegen::analyze(&[work.join("adapters")], false);
    let catalog = toolwright_cli::interpret::catalog(&analysis.apis).expect("catalog");
    let executor = toolwright::Executor::builder(catalog)
        .base_url("tracker", format!("{}/api/v1", api.url()))
        .credentials(toolwright::auth::CredentialSource::from_fn(|_| {
            Some("upstream-t0ken".into())
        }))
        .build()
        .unwrap();
    let mut alone = Vec::new();
    for n in 0..2_000 {
        let args = json!({"project": "web", "number": n + 1});
        let started = Instant::now();
        executor.call("get_issue", args).await.unwrap();
        alone.push(started.elapsed());
    }
    let started = Instant::now();
    let tasks: Vec<_> = (0..CALLERS * 3)
        .map(|n| {
            let executor = executor.clone();
            tokio::spawn(async move {
                let started = Instant::now();
                let outcome = executor
                    .call("get_issue", json!({"project": "web", "number": n + 1}))
                    .await
                    .map(|_| ())
                    .map_err(|e| e.to_string());
                (started.elapsed(), outcome)
            })
        })
        .collect();
    let (mut together, mut errors, mut first_error) = (Vec::new(), 0, None);
    for task in tasks {
        let (took, outcome) = task.await.unwrap();
        together.push(took);
        if let Err(e) = outcome {
            errors += 1;
            first_error.get_or_insert(e);
        }
    }
    if let Some(e) = first_error {
        println!("   first failure of the executor alone: {e}");
    }
    let together_elapsed = started.elapsed();
    api.take();
    println!(
        "2. the executor alone: 2,000 calls one after another p50 {} p99 {}; {} at once: {errors} failed, {:.0} calls/s, p50 {} p99 {}",
        ms(percentile(&mut alone, 0.5)),
        ms(percentile(&mut alone, 0.99)),
        CALLERS * 3,
        (CALLERS * 3) as f64 / together_elapsed.as_secs_f64(),
        ms(percentile(&mut together, 0.5)),
        ms(percentile(&mut together, 0.99)),
    );

    // 3. 20,000 sessions opened and abandoned, 64 at a time.
    let opened = Arc::new(std::sync::Mutex::new(Vec::new()));
    let next = Arc::new(AtomicUsize::new(0));
    let workers: Vec<_> = (0..64)
        .map(|_| {
            let (opened, next) = (Arc::clone(&opened), Arc::clone(&next));
            tokio::spawn(async move {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= 20_000 {
                        break;
                    }
                    let caller = i % CALLERS;
                    let (_, answer) = send(port, &token(caller), None, &init()).await;
                    if let Some(id) = session_of(&answer) {
                        opened.lock().unwrap().push((caller, id));
                    }
                }
            })
        })
        .collect();
    for worker in workers {
        worker.await.unwrap();
    }
    let opened = std::mem::take(&mut *opened.lock().unwrap());
    let (rss_now, rss_peak) = rss(pid);
    let ping = json!({"jsonrpc": "2.0", "id": 3, "method": "ping"}).to_string();
    let mut live = 0;
    for chunk in opened.chunks(64) {
        let pings: Vec<_> = chunk
            .iter()
            .map(|(caller, id)| {
                let (token, id, ping) = (token(*caller), id.clone(), ping.clone());
                tokio::spawn(async move { send(port, &token, Some(&id), ping.as_bytes()).await.0 })
            })
            .collect();
        for ping in pings {
            live += usize::from(ping.await.unwrap() == 200);
        }
    }
    println!(
        "3. 20,000 sessions opened ({} got an id) and abandoned: server RSS {rss_now:.1} MiB now, {rss_peak:.1} MiB at peak; {live} still live at the end",
        opened.len()
    );

    // 4. Oversized and deeply nested bodies.
    let big = vec![b' '; 50 << 20];
    let started = Instant::now();
    let (status_big, _) = send(port, &token(0), None, &big).await;
    let big_took = started.elapsed();
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let (status_deep, _) = send(port, &token(0), None, deep.as_bytes()).await;
    println!(
        "4. a 50 MB body: {status_big} (in {}); JSON 100,000 deep: {status_deep}",
        ms(big_took)
    );

    // 5. One caller floods, nine call steadily.
    let flood_statuses = Arc::new(std::sync::Mutex::new(Vec::new()));
    let sent = Arc::new(AtomicUsize::new(0));
    let flood_started = Instant::now();
    let flooders: Vec<_> = (0..64)
        .map(|_| {
            let (statuses, sent) = (Arc::clone(&flood_statuses), Arc::clone(&sent));
            tokio::spawn(async move {
                let token = token(1);
                loop {
                    let n = sent.fetch_add(1, Ordering::Relaxed);
                    if n >= 10_000 {
                        break;
                    }
                    let call = stateless_call(n).to_string();
                    let (status, _) = send(port, &token, None, call.as_bytes()).await;
                    statuses.lock().unwrap().push(status);
                }
            })
        })
        .collect();
    let steady: Vec<_> = (2..11)
        .map(|caller| {
            tokio::spawn(async move {
                let token = token(caller);
                let mut took = Vec::new();
                let mut refused = 0;
                for n in 0..50 {
                    let call = stateless_call(n).to_string();
                    let started = Instant::now();
                    let (status, _) = send(port, &token, None, call.as_bytes()).await;
                    took.push(started.elapsed());
                    refused += usize::from(status != 200);
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                (took, refused)
            })
        })
        .collect();
    for flooder in flooders {
        flooder.await.unwrap();
    }
    let flood_took = flood_started.elapsed();
    let (mut others, mut others_refused) = (Vec::new(), 0);
    for caller in steady {
        let (took, refused) = caller.await.unwrap();
        others.extend(took);
        others_refused += refused;
    }
    let statuses = std::mem::take(&mut *flood_statuses.lock().unwrap());
    let count = |s: u16| statuses.iter().filter(|x| **x == s).count();
    println!(
        "5. one caller's 10,000 calls in {:.1} s: {} answered, {} refused with 429, {} other; nine others' {} calls: {} refused, p50 {} p99 {}",
        flood_took.as_secs_f64(),
        count(200),
        count(429),
        statuses.len() - count(200) - count(429),
        others.len(),
        others_refused,
        ms(percentile(&mut others, 0.5)),
        ms(percentile(&mut others, 0.99)),
    );
    // 6. One caller holds connections with bodies that never finish and hogs call slots
    //    with slow calls; another calls steadily.
    let mut held = Vec::new();
    for _ in 0..600 {
        let Ok(mut stream) = tokio::net::TcpStream::connect(("127.0.0.1", port)).await else {
            continue;
        };
        let head = format!(
            "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{{",
            token(1)
        );
        let _ = stream.write_all(head.as_bytes()).await;
        held.push(stream);
    }
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let hog_statuses = Arc::new(std::sync::Mutex::new(Vec::new()));
    let hogs: Vec<_> = (0..300)
        .map(|_| {
            let (stop, statuses) = (Arc::clone(&stop), Arc::clone(&hog_statuses));
            tokio::spawn(async move {
                while !stop.load(Ordering::Relaxed) {
                    let call = stateless_call(665).to_string();
                    let (status, _) = send(port, &token(1), None, call.as_bytes()).await;
                    statuses.lock().unwrap().push(status);
                    if status != 200 {
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                }
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (mut other, mut other_failed) = (Vec::new(), 0);
    for n in 0..200 {
        let call = stateless_call(n).to_string();
        let started = Instant::now();
        let (status, _) = send(port, &token(2), None, call.as_bytes()).await;
        other.push(started.elapsed());
        other_failed += usize::from(status != 200);
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    stop.store(true, Ordering::Relaxed);
    for hog in hogs {
        hog.await.unwrap();
    }
    drop(held);
    let statuses = std::mem::take(&mut *hog_statuses.lock().unwrap());
    let count = |s: u16| statuses.iter().filter(|x| **x == s).count();
    println!(
        "6. one caller with 600 bodies that never finish and 300 tasks of 3 s calls: {} of its calls answered, {} refused with 429, {} other; another caller's 200 calls: {other_failed} failed, p50 {} p99 {}",
        count(200),
        count(429),
        statuses.len() - count(200) - count(429),
        ms(percentile(&mut other, 0.5)),
        ms(percentile(&mut other, 0.99)),
    );
    let (rss_end, rss_peak) = rss(pid);
    println!("server RSS at the end: {rss_end:.1} MiB (peak {rss_peak:.1} MiB)");
    let _ = server.kill();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(&work);
}
