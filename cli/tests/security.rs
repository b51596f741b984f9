//! `serve --http` under the attacks of the third security review
//! (`shared/research/security-review-r3.md`), each reproduced over real HTTP against a
//! real `toolwright serve` process and a loopback API that records what reaches it.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};
use toolwright_loopback::{Response, Server};

const ALICE: &str = "alice-token-0123456789abcdef";
const BOB: &str = "bob-token-0123456789abcdef00";
const MODERN: &str = "2026-07-28";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A child process killed when dropped.
struct Serving(Child);

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `serve --http` of the example adapter (`delete_issue` needs confirmation) for two
/// callers, alice and bob, against `api`; `extra` adds flags.
fn serve(api: &Server, extra: &[&str]) -> (Serving, u16) {
    let mut flags = vec!["--auth-token", "alice=T_ALICE", "--auth-token", "bob=T_BOB"];
    flags.extend_from_slice(extra);
    serve_open(api, &flags)
}

/// `serve --http` of the example adapter against `api` with `flags` only (no
/// authorization unless they add it).
fn serve_open(api: &Server, flags: &[&str]) -> (Serving, u16) {
    let port = toolwright_loopback::free_port();
    let child = Command::new(env!("CARGO_BIN_EXE_toolwright"))
        .args(["serve", "examples/issue-tracker/adapters", "--base-url"])
        .arg(format!("tracker={}/api/v1", api.url()))
        .args(["--http", &format!("127.0.0.1:{port}")])
        .args(flags)
        .current_dir(root())
        .env_clear()
        .env("T_ALICE", ALICE)
        .env("T_BOB", BOB)
        .env("TRACKER_TOKEN", "upstream-t0ken")
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let serving = Serving(child);
    toolwright_loopback::wait_listening(port, Duration::from_secs(30), "serve --http").unwrap();
    (serving, port)
}

/// One POST of `body` (raw text) with `headers`: the status code and the body.
fn post_raw(port: u16, headers: &[(&str, &str)], body: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let mut head = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    // A connection the server closed (evicted, refused) reads as status 0.
    let _ = write!(stream, "{head}\r\n{body}");
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    let status = answer
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let chunked = head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked");
    (
        status,
        if chunked {
            dechunk(body)
        } else {
            body.to_owned()
        },
    )
}

/// A chunked HTTP/1.1 body put back together.
fn dechunk(mut rest: &str) -> String {
    let mut out = String::new();
    while let Some((size, after)) = rest.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if size == 0 || after.len() < size {
            break;
        }
        out.push_str(&after[..size]);
        rest = after[size..].trim_start_matches("\r\n");
    }
    out
}

/// A 2026-07-28 request by the holder of `token`: `method` with `params`, stamped with
/// the revision and `capabilities`, its `Mcp-Name` from their `name` or `taskId`, and
/// `headers` added; the status and the JSON answer.
fn modern_request(
    port: u16,
    token: &str,
    method: &str,
    mut params: Value,
    capabilities: Value,
    headers: &[(&str, &str)],
) -> (u16, Value) {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": capabilities,
    });
    let name = params
        .get("name")
        .or_else(|| params.get("taskId"))
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let body = json!({"jsonrpc": "2.0", "id": 3, "method": method, "params": params});
    let bearer = format!("Bearer {token}");
    let mut all = vec![
        ("Authorization", bearer.as_str()),
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
        ("MCP-Protocol-Version", MODERN),
        ("Mcp-Method", method),
    ];
    if !name.is_empty() {
        all.push(("Mcp-Name", name.as_str()));
    }
    all.extend_from_slice(headers);
    let (status, text) = post_raw(port, &all, &body.to_string());
    let answer = serde_json::from_str(&text).unwrap_or_else(|_| json!({"raw": text}));
    (status, answer)
}

/// A 2026-07-28 `tools/call` of `tool` by the holder of `token`, with `extra` params
/// (`requestState`, `inputResponses`) merged in: the status and the JSON answer.
fn modern_call(port: u16, token: &str, tool: &str, arguments: Value, extra: Value) -> (u16, Value) {
    let mut params = json!({"name": tool, "arguments": arguments});
    if let Value::Object(extra) = extra {
        params.as_object_mut().unwrap().extend(extra);
    }
    modern_request(
        port,
        token,
        "tools/call",
        params,
        json!({"elicitation": {}}),
        &[],
    )
}

fn approve() -> Value {
    json!({"confirm": {"action": "accept", "content": {"approve": true}}})
}

/// The loopback API: a DELETE of an issue succeeds (and is recorded).
fn issue_api() -> Server {
    Server::start(|req| match req.method.as_str() {
        "DELETE" => Response::text(204, ""),
        _ => Response::json(200, &json!({"number": 7, "title": "t", "state": "open"})),
    })
}

fn deletes(api: &Server) -> usize {
    api.take_requests()
        .iter()
        .filter(|r| r.method == "DELETE")
        .count()
}

/// The state the first revision of the gate handed out: an unkeyed FNV-1a of the tool
/// and its arguments, which any client could compute for itself.
fn forged_state(tool: &str, canonical_args: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in format!("{tool}\0{canonical_args}").bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("toolwright-confirm-v1:{hash:016x}")
}

/// F1: a caller cannot approve its own dangerous call. A state it made up (the old
/// unkeyed hash, or anything else), a state issued to another caller, for other
/// arguments, tampered with, or used once already is refused with `-32602` and
/// nothing reaches the API; only a state this server issued for this caller and this
/// call, answered with a yes, runs it — once.
#[test]
fn only_a_state_this_server_issued_to_this_caller_approves_a_call_once() {
    let api = issue_api();
    let (_serving, port) = serve(&api, &["--trust-client-approval"]);
    let args = json!({"project": "web", "number": 7});

    // The review's reproduction: a self-computed state and a self-made "yes".
    let forged = forged_state("delete_issue", r#"{"number":7,"project":"web"}"#);
    let (_, answer) = modern_call(
        port,
        ALICE,
        "delete_issue",
        args.clone(),
        json!({"requestState": forged, "inputResponses": approve()}),
    );
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    assert_eq!(
        deletes(&api),
        0,
        "a forged approval reached the API: {answer}"
    );

    // An approval without any state is no approval either.
    let (_, answer) = modern_call(
        port,
        ALICE,
        "delete_issue",
        args.clone(),
        json!({"inputResponses": approve()}),
    );
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    assert_eq!(deletes(&api), 0, "{answer}");

    // The real round trip: asked, then answered with the state it was given.
    let ask = |token: &str, args: &Value| {
        let (status, answer) = modern_call(port, token, "delete_issue", args.clone(), json!({}));
        assert_eq!(status, 200, "{answer}");
        assert_eq!(answer["result"]["resultType"], "input_required", "{answer}");
        answer["result"]["requestState"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let state = ask(ALICE, &args);
    assert!(!state.contains("toolwright-confirm-v1"), "{state}");

    // Another caller cannot use alice's state.
    let (_, answer) = modern_call(
        port,
        BOB,
        "delete_issue",
        args.clone(),
        json!({"requestState": state, "inputResponses": approve()}),
    );
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    // Nor can alice use it for other arguments.
    let (_, answer) = modern_call(
        port,
        ALICE,
        "delete_issue",
        json!({"project": "web", "number": 8}),
        json!({"requestState": state, "inputResponses": approve()}),
    );
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    // Nor tampered with (the conformance suite's check).
    let (_, answer) = modern_call(
        port,
        ALICE,
        "delete_issue",
        args.clone(),
        json!({"requestState": format!("{state}-TAMPERED"), "inputResponses": approve()}),
    );
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    assert_eq!(deletes(&api), 0);

    // The person's yes, with the state as issued: the call runs, once.
    let (_, answer) = modern_call(
        port,
        ALICE,
        "delete_issue",
        args.clone(),
        json!({"requestState": state, "inputResponses": approve()}),
    );
    assert_eq!(answer["result"]["isError"], false, "{answer}");
    assert_eq!(deletes(&api), 1, "{answer}");
    // Replayed: refused, nothing sent.
    let (_, answer) = modern_call(
        port,
        ALICE,
        "delete_issue",
        args.clone(),
        json!({"requestState": state, "inputResponses": approve()}),
    );
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    assert_eq!(deletes(&api), 0, "a replayed approval ran again: {answer}");

    // A "no" to a real state runs nothing and uses the state up.
    let state = ask(ALICE, &args);
    let no = json!({"confirm": {"action": "decline"}});
    let (_, answer) = modern_call(
        port,
        ALICE,
        "delete_issue",
        args.clone(),
        json!({"requestState": state, "inputResponses": no}),
    );
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    assert_eq!(deletes(&api), 0);
}

/// F1 by default: a server cannot tell a person's yes from the client's own, so over
/// HTTP a call that needs confirmation is refused even after the full round trip with
/// a state this server issued, unless the operator trusts its clients
/// (`--trust-client-approval`).
#[test]
fn over_http_a_clients_own_yes_approves_nothing_unless_trusted() {
    let api = issue_api();
    let (_serving, port) = serve(&api, &[]);
    let args = json!({"project": "web", "number": 5});
    let (_, answer) = modern_call(port, ALICE, "delete_issue", args.clone(), json!({}));
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    assert_eq!(
        answer["result"]["_meta"]["toolwright"]["code"], "CONFIRMATION_REQUIRED",
        "{answer}"
    );
    // Answering anyway, with any state: still nothing runs.
    let (_, answer) = modern_call(
        port,
        ALICE,
        "delete_issue",
        args,
        json!({"requestState": "tw2.x.1.y", "inputResponses": approve()}),
    );
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    assert_eq!(deletes(&api), 0, "{answer}");
}

/// F1 through the meta and group tools: the inner call is gated the same way.
#[test]
fn forged_approvals_are_refused_through_meta_and_group_tools() {
    let api = issue_api();
    for (mode, tool, arguments) in [
        (
            "meta",
            "call_tool",
            json!({"name": "delete_issue", "arguments": {"project": "web", "number": 6}}),
        ),
        (
            "groups",
            "mcp_aql_delete",
            json!({"operation": "delete_issue", "params": {"project": "web", "number": 6}}),
        ),
    ] {
        let (_serving, port) = serve(&api, &["--mode", mode, "--trust-client-approval"]);
        let forged = forged_state("delete_issue", r#"{"number":6,"project":"web"}"#);
        let (_, answer) = modern_call(
            port,
            ALICE,
            tool,
            arguments,
            json!({"requestState": forged, "inputResponses": approve()}),
        );
        assert_eq!(answer["error"]["code"], -32602, "{mode}: {answer}");
        assert_eq!(deletes(&api), 0, "{mode}: {answer}");
    }
}

/// F9: a protocol version in `_meta` that is not a string does not make a request
/// stateless (it is refused as an unsupported version), and a POST whose body is not
/// declared `application/json` (a CORS-simple `text/plain` form a web page can send
/// without a preflight) is refused before anything runs.
#[test]
fn a_non_string_version_or_a_non_json_content_type_is_refused() {
    let api = issue_api();
    let (_serving, port) = serve_open(&api, &[]);
    let creates = || {
        api.take_requests()
            .iter()
            .filter(|r| r.method == "POST")
            .count()
    };
    for version in [json!(null), json!(1), json!(["2026-07-28"])] {
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "create_issue", "arguments": {"project": "web", "title": "csrf"},
            "_meta": {"io.modelcontextprotocol/protocolVersion": version}}});
        let (status, text) = post_raw(
            port,
            &[
                ("Origin", "http://localhost:3000"),
                ("Content-Type", "application/json"),
            ],
            &body.to_string(),
        );
        assert_eq!(status, 400, "{version}: {text}");
        assert_eq!(creates(), 0, "{version}: {text}");
    }
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "create_issue", "arguments": {"project": "web", "title": "csrf"},
        "_meta": {"io.modelcontextprotocol/protocolVersion": MODERN}}});
    let (status, text) = post_raw(
        port,
        &[
            ("Origin", "http://localhost:3000"),
            ("Content-Type", "text/plain;charset=UTF-8"),
            ("MCP-Protocol-Version", MODERN),
            ("Mcp-Method", "tools/call"),
            ("Mcp-Name", "create_issue"),
        ],
        &body.to_string(),
    );
    assert_eq!(status, 415, "{text}");
    assert_eq!(creates(), 0, "{text}");
}

/// F2 and F3: one caller holding connections with bodies that never finish, and
/// hammering a slow call from many threads, does not lock another caller out: the
/// other's cheap calls are answered (no `503`, no wait for the attacker's bodies to
/// time out), while the attacker is told `429` past its share.
#[test]
fn one_callers_slow_bodies_and_slow_calls_leave_the_others_served() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    let api = Server::start(|req| {
        if req.path().ends_with("/666") {
            std::thread::sleep(Duration::from_secs(3));
        }
        Response::json(200, &json!({"number": 7, "title": "t", "state": "open"}))
    });
    // Small numbers, the shape of the defaults: a share of a quarter of the calls.
    let (_serving, port) = serve(
        &api,
        &[
            "--max-connections",
            "16",
            "--max-calls-in-flight",
            "16",
            "--max-requests-per-caller",
            "4",
        ],
    );
    // Mallory's bodies: a head with her token and a length, then one byte, then
    // nothing (the body timeout is 30 s).
    let mut held = Vec::new();
    for _ in 0..24 {
        let Ok(mut stream) = TcpStream::connect(("127.0.0.1", port)) else {
            continue;
        };
        let head = format!(
            "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {ALICE}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{{"
        );
        let _ = stream.write_all(head.as_bytes());
        held.push(stream);
    }
    // Mallory's slow calls, from 12 threads, for as long as the test runs.
    let stop = Arc::new(AtomicBool::new(false));
    let refused = Arc::new(AtomicUsize::new(0));
    let hammer: Vec<_> = (0..12)
        .map(|_| {
            let (stop, refused) = (stop.clone(), refused.clone());
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let (status, _) = modern_call(
                        port,
                        ALICE,
                        "get_issue",
                        json!({"project": "web", "number": 666}),
                        json!({}),
                    );
                    if status == 429 {
                        refused.fetch_add(1, Ordering::Relaxed);
                        std::thread::sleep(Duration::from_millis(50));
                    }
                }
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    // Bob's cheap calls, one after another. Before the fix the first of them waited
    // for mallory's bodies to time out (about 30 s) or got `503`.
    for _ in 0..10 {
        let started = std::time::Instant::now();
        let (status, answer) = modern_call(
            port,
            BOB,
            "get_issue",
            json!({"project": "web", "number": 7}),
            json!({}),
        );
        assert_eq!(status, 200, "{answer}");
        assert_eq!(answer["result"]["isError"], false, "{answer}");
        // Not a timing target (benches/http_load.sh measures p99): a stall detector
        // far above any healthy answer and far below the attacker's 30 s bodies.
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{:?}",
            started.elapsed()
        );
    }
    stop.store(true, Ordering::Relaxed);
    for thread in hammer {
        thread.join().unwrap();
    }
    assert!(
        refused.load(Ordering::Relaxed) > 0,
        "mallory was never held back"
    );
    drop(held);
}

/// F7: a static token is this server's own credential; `--pass-through` with static
/// tokens would hand it to the API, so `serve` refuses to start, saying what to do.
#[test]
fn passing_a_static_token_through_is_refused_at_start() {
    let api = issue_api();
    let out = Command::new(env!("CARGO_BIN_EXE_toolwright"))
        .args(["serve", "examples/issue-tracker/adapters", "--base-url"])
        .arg(format!("tracker={}/api/v1", api.url()))
        .args(["--http", "127.0.0.1:0"])
        .args(["--auth-token", "alice=T_ALICE", "--pass-through", "tracker"])
        .current_dir(root())
        .env_clear()
        .env("T_ALICE", ALICE)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--pass-through"), "{stderr}");
    assert!(stderr.contains("--exchange"), "{stderr}");
    assert!(api.requests().is_empty());
}

/// F8: one caller's memory-heavy scripts run at most its share at once (each may hold
/// the whole `--script-memory`), so the server's memory stays bounded by the scripts
/// running, not by how many the caller sends; another caller's script still runs.
#[test]
fn one_callers_scripts_run_its_share_and_memory_stays_bounded() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

    let api = issue_api();
    let (serving, port) = serve(
        &api,
        &[
            "--mode",
            "code",
            "--max-scripts",
            "8",
            "--max-scripts-per-caller",
            "2",
        ],
    );
    let pid = serving.0.id();
    let hog = "const a = []; let i = 0; while (true) { a.push(new Array(100000).fill(i++)); }";
    let peak = Arc::new(AtomicU64::new(0));
    let done = Arc::new(AtomicBool::new(false));
    let sampler = {
        let (peak, done) = (peak.clone(), done.clone());
        std::thread::spawn(move || {
            while !done.load(Ordering::Relaxed) {
                peak.fetch_max(toolwright_loopback::rss_kib(pid), Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(20));
            }
        })
    };
    let hogs: Vec<_> = (0..24)
        .map(|_| {
            std::thread::spawn(move || {
                modern_call(port, ALICE, "execute", json!({"script": hog}), json!({})).1
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(200));
    let (_, answer) = modern_call(
        port,
        BOB,
        "execute",
        json!({"script": "return 1 + 1"}),
        json!({}),
    );
    assert_eq!(answer["result"]["isError"], false, "{answer}");
    let answers: Vec<Value> = hogs.into_iter().map(|h| h.join().unwrap()).collect();
    done.store(true, Ordering::Relaxed);
    sampler.join().unwrap();
    let held_back = answers
        .iter()
        .filter(|a| a.to_string().contains("as many scripts as it may"))
        .count();
    // 24 scripts of 64 MiB at once would be 1.5 GiB; two at a time stay far below.
    let peak_mib = peak.load(Ordering::Relaxed) / 1024;
    assert!(peak_mib < 512, "peak RSS {peak_mib} MiB");
    assert!(held_back > 0, "{answers:?}");
}

/// F08 of the third hostile-input round: `--audit` records every API call a script
/// makes, not only the `execute` around them — caller, tool, API, outcome, duration,
/// and the script's request id with `#n` — and never an argument value.
#[test]
fn every_api_call_a_script_makes_is_audited() {
    let api = issue_api();
    let port = toolwright_loopback::free_port();
    let child = Command::new(env!("CARGO_BIN_EXE_toolwright"))
        .args(["serve", "examples/issue-tracker/adapters", "--base-url"])
        .arg(format!("tracker={}/api/v1", api.url()))
        .args(["--http", &format!("127.0.0.1:{port}")])
        .args(["--auth-token", "alice=T_ALICE", "--mode", "code", "--audit"])
        .current_dir(root())
        .env_clear()
        .env("T_ALICE", ALICE)
        .env("TRACKER_TOKEN", "upstream-t0ken")
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut serving = Serving(child);
    toolwright_loopback::wait_listening(port, Duration::from_secs(30), "serve --http").unwrap();
    let script = "const a = await tracker.get_issue({project: 'web', number: 7}); \
                  const b = await tracker.get_issue({project: 'secret-project', number: 8}); \
                  return [a.number, b.number];";
    let (_, answer) = modern_call(port, ALICE, "execute", json!({"script": script}), json!({}));
    assert_eq!(answer["result"]["isError"], false, "{answer}");
    let _ = serving.0.kill();
    let mut stderr = String::new();
    serving
        .0
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let records: Vec<Value> = stderr
        .lines()
        .filter_map(|l| l.strip_prefix("audit: "))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let calls: Vec<&Value> = records
        .iter()
        .filter(|r| r["tool"] == "get_issue")
        .collect();
    assert_eq!(calls.len(), 2, "{stderr}");
    for (n, call) in calls.iter().enumerate() {
        assert_eq!(call["caller"], "alice", "{call}");
        assert_eq!(call["api"], "tracker", "{call}");
        assert_eq!(call["outcome"], "ok", "{call}");
        assert_eq!(call["request_id"], format!("3#{}", n + 1), "{call}");
    }
    assert!(records.iter().any(|r| r["tool"] == "execute"), "{stderr}");
    assert!(
        !stderr.contains("secret-project"),
        "no argument values: {stderr}"
    );
}

/// The threads of process `pid` now.
fn threads(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/task")).map_or(0, Iterator::count)
}

/// F03 of the third hostile-input round: scripts whose callers hang up keep counting
/// against `--max-calls-in-flight` and `--max-scripts` until their engines have
/// stopped, and they stop. The report's waves of ten callers that hang up after 3 s,
/// each script holding 52 MiB and waiting on a slow API, left 40 scripts alive under a
/// cap of 10 (RSS 540, 1065, 1590, 2116 MiB after each wave; 14, 24, 34, 44 threads).
/// Here: three waves of four under a cap of four; after each, memory and threads are
/// back near where they started, and another caller's script runs.
#[test]
fn scripts_of_callers_that_hang_up_stop_and_free_their_places() {
    let api = Server::start(|_| {
        std::thread::sleep(Duration::from_secs(10));
        Response::json(200, &json!({"number": 7, "title": "t", "state": "open"}))
    });
    let (serving, port) = serve(
        &api,
        &[
            "--mode",
            "code",
            "--max-calls-in-flight",
            "4",
            "--max-scripts",
            "4",
            "--max-scripts-per-caller",
            "4",
            "--script-seconds",
            "40",
        ],
    );
    let pid = serving.0.id();
    let script = "const keep = []; for (let i = 0; i < 52; i++) keep.push(new Uint8Array(1 << 20).fill(i + 1)); \
                  for (let j = 0; j < 4; j++) await tracker.get_issue({project: 'web', number: 1}); \
                  return keep.length;";
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "execute",
        "arguments": {"script": script},
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientCapabilities": {},
        },
    }})
    .to_string();
    let start_rss = toolwright_loopback::rss_kib(pid) / 1024;
    let start_threads = threads(pid);
    let mut after = Vec::new();
    for _ in 0..3 {
        let callers: Vec<_> = (0..4)
            .map(|_| {
                let body = body.clone();
                std::thread::spawn(move || {
                    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
                    stream
                        .set_read_timeout(Some(Duration::from_secs(2)))
                        .unwrap();
                    let _ = write!(
                        stream,
                        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {ALICE}\r\n\
                         Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n\
                         MCP-Protocol-Version: {MODERN}\r\nMcp-Method: tools/call\r\nMcp-Name: execute\r\n\
                         Content-Length: {}\r\n\r\n{body}",
                        body.len()
                    );
                    // The caller gives up after 2 s and hangs up.
                    let mut answer = String::new();
                    let _ = stream.read_to_string(&mut answer);
                    answer
                })
            })
            .collect();
        let answers: Vec<String> = callers.into_iter().map(|c| c.join().unwrap()).collect();
        assert!(answers.iter().all(String::is_empty), "{answers:?}");
        std::thread::sleep(Duration::from_millis(500));
        after.push((toolwright_loopback::rss_kib(pid) / 1024, threads(pid)));
    }
    // Memory and threads of stopped scripts are given back (the report's numbers
    // grew by 525 MiB and 10 threads a wave).
    let (rss, thread_count) = *after.last().unwrap();
    assert!(
        rss < start_rss + 150,
        "RSS {start_rss} MiB at start, then {after:?}"
    );
    assert!(
        thread_count <= start_threads + 8,
        "{start_threads} threads at start, then {after:?}"
    );
    // Every place is free again: another caller's script runs.
    let (_, answer) = modern_call(
        port,
        BOB,
        "execute",
        json!({"script": "return 6 * 7"}),
        json!({}),
    );
    assert_eq!(
        answer["result"]["structuredContent"]["result"], 42,
        "{answer}"
    );
}

/// F06 of the third hostile-input round: `search_tools` of a served catalog reads a
/// request up to 4 KiB and says it was cut; the report's 0.39 MB requests of distinct
/// words took 13 s each and stalled other callers.
#[test]
fn a_long_search_tools_request_is_cut_with_a_note() {
    let api = issue_api();
    let (_serving, port) = serve(&api, &["--mode", "meta"]);
    let long: String = (0..50_000).map(|i| format!(" close{i}")).collect();
    let started = std::time::Instant::now();
    let (_, answer) = modern_call(
        port,
        ALICE,
        "search_tools",
        json!({"query": format!("close an issue{long}")}),
        json!({}),
    );
    let took = started.elapsed();
    let found = &answer["result"]["structuredContent"];
    assert_eq!(
        found["note"],
        "the request was read up to its first 4096 bytes; describe the task in fewer words",
        "{answer}"
    );
    assert_eq!(found["tools"][0]["name"], "close_issue", "{answer}");
    assert!(took < Duration::from_secs(5), "{took:?}");
    let (_, short) = modern_call(
        port,
        ALICE,
        "search_tools",
        json!({"query": "close an issue"}),
        json!({}),
    );
    assert!(
        short["result"]["structuredContent"].get("note").is_none(),
        "{short}"
    );
}

/// F16 of the third hostile-input round: what a caller sends that reaches `serve`'s
/// stderr (an audit record's request id) is escaped for the terminal. JSON escapes
/// ESC but leaves C1 controls such as U+009B (CSI, "ESC [") as they are, so an id of
/// `\u{9b}2J` cleared the operator's screen.
#[test]
fn a_callers_bytes_in_serves_stderr_are_escaped_for_the_terminal() {
    let api = issue_api();
    let port = toolwright_loopback::free_port();
    let child = Command::new(env!("CARGO_BIN_EXE_toolwright"))
        .args(["serve", "examples/issue-tracker/adapters", "--base-url"])
        .arg(format!("tracker={}/api/v1", api.url()))
        .args(["--http", &format!("127.0.0.1:{port}")])
        .args(["--auth-token", "alice=T_ALICE", "--audit"])
        .current_dir(root())
        .env_clear()
        .env("T_ALICE", ALICE)
        .env("TRACKER_TOKEN", "upstream-t0ken")
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut serving = Serving(child);
    toolwright_loopback::wait_listening(port, Duration::from_secs(30), "serve --http").unwrap();
    let body = json!({"jsonrpc": "2.0", "id": "\u{9b}2J\u{9b}31mpwned", "method": "tools/call", "params": {
        "name": "get_issue",
        "arguments": {"project": "web", "number": 7},
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientCapabilities": {},
        },
    }});
    let bearer = format!("Bearer {ALICE}");
    let (status, _) = post_raw(
        port,
        &[
            ("Authorization", &bearer),
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
            ("MCP-Protocol-Version", MODERN),
            ("Mcp-Method", "tools/call"),
            ("Mcp-Name", "get_issue"),
        ],
        &body.to_string(),
    );
    assert_eq!(status, 200);
    let _ = serving.0.kill();
    let mut stderr = String::new();
    serving
        .0
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let audit = stderr
        .lines()
        .find(|l| l.starts_with("audit: "))
        .unwrap_or_else(|| panic!("{stderr}"));
    assert!(!stderr.contains('\u{9b}'), "{stderr:?}");
    assert!(audit.contains("\\u{9b}2J\\u{9b}31mpwned"), "{audit:?}");
}

/// A 2026-07-28 request of a client that takes tasks, by the holder of `token`:
/// `method` with `params`; the JSON answer.
fn tasks_request(port: u16, token: &str, method: &str, params: Value) -> Value {
    let capabilities = json!({
        "elicitation": {},
        "extensions": {"io.modelcontextprotocol/tasks": {}},
    });
    modern_request(port, token, method, params, capabilities, &[]).1
}

/// Polls `tasks/get` until the task leaves `working`; its last answer.
fn settled(port: u16, token: &str, task: &str) -> Value {
    for _ in 0..200 {
        let got = tasks_request(port, token, "tasks/get", json!({"taskId": task}));
        if got["result"]["status"] != "working" {
            return got;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("task {task} still working after 10 s");
}

/// At 2026-07-28 a script cannot wait inside its request for a confirmation; for a
/// client that takes tasks it runs as one: the call the gate wants confirmed parks the
/// task in `input_required` with the question, the yes arrives with `tasks/update`, and
/// the call then runs once. Another caller can neither see nor answer the task, and
/// without a trusted client nothing is asked (the call is `CONFIRMATION_REQUIRED`).
#[test]
fn a_script_that_hits_the_gate_waits_as_a_task_for_the_clients_answer() {
    let api = issue_api();
    let (_serving, port) = serve(&api, &["--mode", "code", "--trust-client-approval"]);
    let script = "await tracker.delete_issue({project: 'web', number: 7}); return 'deleted';";
    let created = tasks_request(
        port,
        ALICE,
        "tools/call",
        json!({"name": "execute", "arguments": {"script": script}}),
    );
    assert_eq!(created["result"]["resultType"], "task", "{created}");
    let task = created["result"]["taskId"].as_str().unwrap().to_owned();
    let asking = settled(port, ALICE, &task);
    assert_eq!(asking["result"]["status"], "input_required", "{asking}");
    let (key, question) = asking["result"]["inputRequests"]
        .as_object()
        .and_then(|m| m.iter().next())
        .map(|(k, v)| (k.clone(), v.clone()))
        .unwrap();
    assert_eq!(question["method"], "elicitation/create", "{question}");
    assert_eq!(deletes(&api), 0, "nothing runs before the answer");
    // Bob cannot see or answer Alice's task.
    let foreign = tasks_request(port, BOB, "tasks/get", json!({"taskId": task}));
    assert_eq!(foreign["error"]["code"], -32602, "{foreign}");
    let answer = json!({key.clone(): {"action": "accept", "content": {"approve": true}}});
    let foreign = tasks_request(
        port,
        BOB,
        "tasks/update",
        json!({"taskId": task, "inputResponses": answer}),
    );
    assert_eq!(foreign["error"]["code"], -32602, "{foreign}");
    assert_eq!(deletes(&api), 0);
    let ack = tasks_request(
        port,
        ALICE,
        "tasks/update",
        json!({"taskId": task, "inputResponses": answer}),
    );
    assert_eq!(ack["result"], json!({"resultType": "complete"}), "{ack}");
    let done = settled(port, ALICE, &task);
    assert_eq!(done["result"]["status"], "completed", "{done}");
    assert_eq!(done["result"]["result"]["isError"], false, "{done}");
    assert_eq!(deletes(&api), 1);

    // Without --trust-client-approval the script's call is not asked about.
    let api = issue_api();
    let (_serving, port) = serve(&api, &["--mode", "code"]);
    let created = tasks_request(
        port,
        ALICE,
        "tools/call",
        json!({"name": "execute", "arguments": {"script": script}}),
    );
    let task = created["result"]["taskId"].as_str().unwrap().to_owned();
    let done = settled(port, ALICE, &task);
    assert_eq!(done["result"]["status"], "completed", "{done}");
    let text = done["result"]["result"].to_string();
    assert!(text.contains("CONFIRMATION_REQUIRED"), "{text}");
    assert_eq!(deletes(&api), 0);
}

/// An answer to a request the server sent on a session's stream counts only from that
/// session's own caller: another caller presenting the session id (with or without a
/// 2026-07-28 `_meta` that once skipped the session check) is told the session does
/// not exist.
#[test]
fn only_a_sessions_own_caller_can_answer_its_requests() {
    let api = issue_api();
    let (_serving, port) = serve(&api, &[]);
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {"elicitation": {}},
        "clientInfo": {"name": "t", "version": "1"}}});
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    let body = init.to_string();
    write!(
        stream,
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nAuthorization: Bearer {ALICE}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    let session = answer
        .lines()
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case("mcp-session-id")
                .then(|| v.trim().to_owned())
        })
        .unwrap_or_else(|| panic!("{answer}"));
    for response in [
        json!({"jsonrpc": "2.0", "id": "toolwright-0", "result": {"action": "accept"}}),
        json!({"jsonrpc": "2.0", "id": "toolwright-0", "result": {"action": "accept"},
               "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": MODERN}}}),
    ] {
        let bob = format!("Bearer {BOB}");
        let (status, _) = post_raw(
            port,
            &[
                ("Authorization", &bob),
                ("Content-Type", "application/json"),
                ("Mcp-Session-Id", &session),
            ],
            &response.to_string(),
        );
        assert_eq!(status, 404, "{response}");
        let alice = format!("Bearer {ALICE}");
        let (status, _) = post_raw(
            port,
            &[
                ("Authorization", &alice),
                ("Content-Type", "application/json"),
                ("Mcp-Session-Id", &session),
            ],
            &response.to_string(),
        );
        assert_eq!(status, 202, "{response}");
    }
}

/// SEP-2243: an argument a catalog tool sends as an HTTP header is marked
/// `x-mcp-header` in `tools/list`, and a 2026-07-28 call must mirror it into
/// `Mcp-Param-<header>` (as sent, or `=?base64?…?=`): missing or different is refused
/// with 400/-32020 before anything reaches the API.
#[test]
fn header_arguments_are_mirrored_and_checked() {
    let api = Server::start(|_| Response::json(200, &json!({"ok": true})));
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("x-mcp-header");
    std::fs::create_dir_all(&dir).unwrap();
    let spec = dir.join("regions.json");
    let doc = json!({
        "openapi": "3.1.0",
        "info": {"title": "Regions", "version": "1"},
        "servers": [{"url": api.url()}],
        "paths": {"/weather": {"get": {
            "operationId": "get_weather",
            "summary": "Weather in a region",
            "parameters": [{"name": "X-Region", "in": "header", "required": true,
                            "description": "The region", "schema": {"type": "string"}}],
            "responses": {"200": {"description": "ok",
                "content": {"application/json": {"schema": {"type": "object"}}}}}
        }}}
    });
    std::fs::write(&spec, doc.to_string()).unwrap();
    let port = toolwright_loopback::free_port();
    let child = Command::new(env!("CARGO_BIN_EXE_toolwright"))
        .args([
            "serve",
            spec.to_str().unwrap(),
            "--http",
            &format!("127.0.0.1:{port}"),
        ])
        .args(["--auth-token", "alice=T_ALICE"])
        .env_clear()
        .env("T_ALICE", ALICE)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let _serving = Serving(child);
    toolwright_loopback::wait_listening(port, Duration::from_secs(30), "serve --http").unwrap();
    let send = |method: &str, params: Value, extra: &[(&str, &str)]| {
        modern_request(port, ALICE, method, params, json!({}), extra)
    };
    let (_, listed) = send("tools/list", json!({}), &[]);
    let tool = &listed["result"]["tools"][0];
    let property = tool["inputSchema"]["properties"]
        .as_object()
        .and_then(|p| p.values().find(|v| v.get("x-mcp-header").is_some()))
        .unwrap_or_else(|| panic!("{listed}"));
    assert_eq!(property["x-mcp-header"], "X-Region", "{listed}");
    let argument = tool["inputSchema"]["properties"]
        .as_object()
        .unwrap()
        .iter()
        .find(|(_, v)| v.get("x-mcp-header").is_some())
        .map(|(k, _)| k.clone())
        .unwrap();
    let name = tool["name"].as_str().unwrap().to_owned();
    let call = json!({"name": name, "arguments": {argument.clone(): "eu-west"}});
    let (status, refused) = send("tools/call", call.clone(), &[]);
    assert_eq!(status, 400, "{refused}");
    assert_eq!(refused["error"]["code"], -32020, "{refused}");
    let (status, refused) = send(
        "tools/call",
        call.clone(),
        &[("Mcp-Param-X-Region", "us-east")],
    );
    assert_eq!(
        (status, refused["error"]["code"].clone()),
        (400, json!(-32020)),
        "{refused}"
    );
    assert!(api.requests().is_empty(), "nothing reached the API");
    let (status, answered) = send(
        "tools/call",
        call.clone(),
        &[("Mcp-Param-X-Region", "eu-west")],
    );
    assert_eq!(status, 200, "{answered}");
    let (status, answered) = send(
        "tools/call",
        call,
        &[("Mcp-Param-X-Region", "=?base64?ZXUtd2VzdA==?=")],
    );
    assert_eq!(status, 200, "{answered}");
    let sent: Vec<String> = api
        .requests()
        .iter()
        .filter_map(|r| r.header("x-region").map(str::to_owned))
        .collect();
    assert_eq!(sent, ["eu-west", "eu-west"]);
}
