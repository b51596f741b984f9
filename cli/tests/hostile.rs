//! The second hostile-input campaign's reproducers, run against the real binary:
//! a schema graph that took k^depth steps to walk, `serve` over stdio fed lines that
//! are not messages, `serve --http` flooded with idle and half-open connections under
//! a 1024 open-file limit, and credentials in every place a document can hold them.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_owned()
}

fn toolwright() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_toolwright"));
    cmd.current_dir(root()).env_clear();
    cmd
}

/// Runs to the end within `limit` (a hang fails the test instead of stalling it).
fn run_within(cmd: &mut Command, limit: Duration) -> (i32, String, String) {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if started.elapsed() > limit {
            child.kill().unwrap();
            panic!("{cmd:?} ran past {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into(),
        String::from_utf8_lossy(&output.stderr).into(),
    )
}

fn tmp(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("hostile");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn schemas_that_list_one_schema_many_times_do_not_hang_any_command() {
    // Self8 is the 675-byte form that hung every command; Self50 and the nine levels
    // of eight took longer than anyone waits.
    let input = "tests/hostile/inputs/allof-fanout.yaml";
    let out = tmp("allof");
    let report = tmp("allof.html");
    let artifact = tmp("allof-artifact.json");
    let commands: [Vec<&str>; 5] = [
        vec!["check", input],
        vec!["catalog", input],
        vec!["artifact", "--out", artifact.to_str().unwrap(), input],
        vec!["report", "--out", report.to_str().unwrap(), input],
        vec!["generate", "--out", out.to_str().unwrap(), input],
    ];
    for args in commands {
        let started = Instant::now();
        let (code, _, err) = run_within(toolwright().args(&args), Duration::from_secs(20));
        assert_eq!(code, 0, "{args:?}: {err}");
        eprintln!("{}: {:?}", args[0], started.elapsed());
    }
    let (_, catalog, _) = run_within(
        toolwright().args(["catalog", input]),
        Duration::from_secs(20),
    );
    let catalog: Value = serde_json::from_str(&catalog).unwrap();
    // The fields behind the repeated members are still found.
    let tools = catalog["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 3);
    for tool in tools {
        let output = tool["outputSchema"].to_string();
        assert!(output.contains("next"), "{tool}");
    }
}

/// `serve` over stdio on the test adapters, fed `input`; its answers, one per line.
fn stdio_session(input: Vec<u8>) -> Vec<Value> {
    let mut child = toolwright()
        .args(["serve", "tests/adapters"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        // The server may answer as it reads; a write error means it stopped reading.
        let _ = stdin.write_all(&input);
    });
    let mut text = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut text)
        .unwrap();
    writer.join().unwrap();
    assert!(child.wait().unwrap().success());
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn stdio_answers_lines_that_are_not_messages_and_goes_on() {
    let message = |id: u64, method: &str| {
        format!(
            "{}\n",
            json!({"jsonrpc": "2.0", "id": id, "method": method})
        )
    };
    let mut input = message(1, "initialize").into_bytes();
    input.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"\xc3\x28\"}\n");
    input.extend_from_slice(message(3, "ping").as_bytes());
    // A 100 MB line: read past, never held.
    input.extend(std::iter::repeat_n(b'x', 100 << 20));
    input.push(b'\n');
    input.extend_from_slice(message(4, "tools/list").as_bytes());
    let answers = stdio_session(input);
    let errors: Vec<&Value> = answers.iter().filter(|a| a["id"].is_null()).collect();
    assert_eq!(errors.len(), 2, "{answers:?}");
    assert_eq!(errors[0]["error"]["code"], -32700);
    assert!(
        errors[0]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("not UTF-8")
    );
    assert!(
        errors[1]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("104857600 bytes")
    );
    for id in [1, 3, 4] {
        assert!(
            answers
                .iter()
                .any(|a| a["id"] == id && a.get("result").is_some()),
            "no answer to {id}: {answers:?}"
        );
    }
}

struct Serving(Child);

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// One `initialize` over a fresh connection: its latency, or what went wrong.
fn initialize(port: u16) -> Result<Duration, String> {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25"}}).to_string();
    let started = Instant::now();
    let mut stream = TcpStream::connect(("127.0.0.1", port)).map_err(|e| e.to_string())?;
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    write!(
        stream,
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .map_err(|e| e.to_string())?;
    let mut answer = String::new();
    stream
        .read_to_string(&mut answer)
        .map_err(|e| e.to_string())?;
    if !answer.starts_with("HTTP/1.1 200") || !answer.contains("mcp-session-id") {
        return Err(format!("unexpected answer: {answer}"));
    }
    Ok(started.elapsed())
}

/// Whether the server closed `stream` (end of input or a reset), within `within`.
fn closed_by_server(stream: &mut TcpStream, within: Duration) -> bool {
    stream.set_read_timeout(Some(within)).unwrap();
    let mut byte = [0u8; 64];
    loop {
        match stream.read(&mut byte) {
            Ok(0) => return true,
            // A `408` or `400` for the half-open ones, then the close.
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return false,
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => return false,
            Err(_) => return true,
        }
    }
}

#[test]
fn http_keeps_answering_through_idle_and_half_open_floods() {
    // The clients here hold ~4,000 sockets: lift this process's own soft limit if it
    // is lower (the hard limit allows it on the machines the project runs on).
    let _ = Command::new("prlimit")
        .args(["--pid", &std::process::id().to_string(), "--nofile=16384:"])
        .status();
    let port = toolwright_loopback::free_port();
    let address = format!("127.0.0.1:{port}");
    let mut command = Command::new("prlimit");
    command
        .args(["--nofile=1024:1024", env!("CARGO_BIN_EXE_toolwright")])
        .args(["serve", "tests/adapters", "--http", &address])
        .args(["--idle-timeout", "3", "--header-timeout", "2"])
        .current_dir(root())
        .env_clear()
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let mut server = Serving(command.spawn().unwrap());
    toolwright_loopback::wait_listening(port, Duration::from_secs(30), "toolwright serve").unwrap();

    // Before: one client's latency on a quiet server.
    let quiet: Vec<Duration> = (0..20).map(|_| initialize(port).unwrap()).collect();

    let flooding = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let client = {
        let flooding = std::sync::Arc::clone(&flooding);
        std::thread::spawn(move || {
            let mut latencies = Vec::new();
            while flooding.load(std::sync::atomic::Ordering::SeqCst) || latencies.len() < 50 {
                latencies.push(initialize(port));
                std::thread::sleep(Duration::from_millis(10));
            }
            latencies
        })
    };
    let mut held = Vec::new();
    for i in 0..4000 {
        let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
        if i % 2 == 1 {
            // Half-open: a request line and a Host header, then nothing.
            stream
                .write_all(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                .unwrap();
        }
        held.push(stream);
    }
    flooding.store(false, std::sync::atomic::Ordering::SeqCst);
    let latencies = client.join().unwrap();
    assert!(
        server.0.try_wait().unwrap().is_none(),
        "the server stopped under the flood"
    );
    let failed: Vec<&String> = latencies.iter().filter_map(|r| r.as_ref().err()).collect();
    assert!(
        failed.is_empty(),
        "{} calls failed: {failed:?}",
        failed.len()
    );
    let p99 = |mut all: Vec<Duration>| {
        all.sort();
        all[(all.len() * 99).div_ceil(100) - 1]
    };
    let flooded: Vec<Duration> = latencies.into_iter().map(Result::unwrap).collect();
    eprintln!(
        "initialize p99: quiet {:?} ({} calls), under 2,000 idle + 2,000 half-open connections {:?} ({} calls)",
        p99(quiet),
        20,
        p99(flooded.clone()),
        flooded.len()
    );

    // Every flooding socket is closed by the server: the oldest to make room, the
    // rest once idle past the timeout (3 s) or with a head unfinished past 2 s.
    let closed = held
        .iter_mut()
        .map(|s| closed_by_server(s, Duration::from_secs(8)))
        .filter(|&closed| closed)
        .count();
    assert_eq!(closed, held.len(), "sockets left open by the server");
    drop(held);
    // And it still answers.
    initialize(port).unwrap();
    assert!(server.0.try_wait().unwrap().is_none());
    let _ = server.0.kill();
    let mut log = String::new();
    server
        .0
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut log)
        .unwrap();
    assert!(
        log.contains("closing the oldest idle one"),
        "the full table is reported: {log}"
    );
}

/// Credentials in every place the campaign put them: the API's description, running
/// text glued to a key, `Bearer …`, a password in a URL, a PEM block, examples and
/// defaults, formats beyond the first list.
const SECRETS: &[&str] = &[
    "AKIAQWERTYUIOP123456",
    "sk_live_51HxYzAbCdEf0123456789",
    "ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
    "sk-proj-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2",
    "sk-ant-api03-Qw3Er4Ty5Ui6Op7As8Df9Gh0",
    "xoxa-2-1234567890-0987654321-abcdef",
    "ya29.a0ARrdaM9abcdefghijk1234567890",
    "hf_Qw3Er4Ty5Ui6Op7As8Df9Gh0Jk1Lz2Xc3",
    "npm_Qw3Er4Ty5Ui6Op7As8Df9Gh0Jk1Lz2Xc3Vb4",
    "c2VjcmV0LXBhc3N3b3JkLTk4NzY1",
    "Hunter2Pa55word",
    "MIIEowIBAAKCAQEAwJ0sTPrivateKeyBody",
];

fn leaky_spec() -> Value {
    json!({
        "openapi": "3.0.3",
        "info": {
            "title": "Leaky",
            "version": "1",
            "description": "Try it with AKIAQWERTYUIOP123456 and sk_live_51HxYzAbCdEf0123456789."
        },
        "servers": [{"url": "https://api.example.com"}],
        "paths": {"/items/{id}": {"get": {
            "operationId": "getItem",
            "summary": "Read an item (token=ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8).",
            "description": "Send `Authorization: Bearer c2VjcmV0LXBhc3N3b3JkLTk4NzY1`, or use https://admin:Hunter2Pa55word@api.example.com.\n\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAwJ0sTPrivateKeyBody\n-----END RSA PRIVATE KEY-----\n",
            "parameters": [
                {"name": "id", "in": "path", "required": true, "schema": {"type": "string"},
                 "example": "sk-proj-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2"},
                {"name": "q", "in": "query", "schema": {"type": "string",
                 "description": "A query, e.g. key=sk-ant-api03-Qw3Er4Ty5Ui6Op7As8Df9Gh0",
                 "default": "xoxa-2-1234567890-0987654321-abcdef"}},
            ],
            "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {
                "type": "object",
                "properties": {
                    "owner": {"type": "string", "example": "ya29.a0ARrdaM9abcdefghijk1234567890"},
                    "note": {"type": "string", "description": "Mirror of hf_Qw3Er4Ty5Ui6Op7As8Df9Gh0Jk1Lz2Xc3 and npm_Qw3Er4Ty5Ui6Op7As8Df9Gh0Jk1Lz2Xc3Vb4"}
                }
            }}}}}
        }}}
    })
}

/// The report's details blocks (gzip, base64) as text, beside the page.
fn report_text(html: &str) -> String {
    use base64::Engine as _;
    let mut text = html.to_owned();
    for block in html
        .split("<script type=\"application/gzip+base64\"")
        .skip(1)
    {
        let b64 = block.split_once('>').unwrap().1.split('<').next().unwrap();
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(b64)
            .unwrap();
        let mut json = String::new();
        flate2::read::GzDecoder::new(&bytes[..])
            .read_to_string(&mut json)
            .unwrap();
        text.push_str(&json);
    }
    text
}

#[test]
fn no_credential_leaves_through_report_artifact_exports_or_tools_list() {
    let spec = tmp("leaky.json");
    std::fs::write(&spec, leaky_spec().to_string()).unwrap();
    let spec = spec.to_str().unwrap();
    let report = tmp("leaky.html");
    let limit = Duration::from_secs(60);
    let mut outputs: Vec<(String, String)> = Vec::new();
    let (code, _, err) = run_within(
        toolwright().args(["report", "--out", report.to_str().unwrap(), spec]),
        limit,
    );
    assert_eq!(code, 0, "{err}");
    let html = std::fs::read_to_string(&report).unwrap();
    assert!(html.contains("application/gzip+base64"));
    outputs.push(("report".into(), report_text(&html)));
    let artifact = tmp("leaky-artifact.json");
    let (code, _, err) = run_within(
        toolwright().args(["artifact", "--out", artifact.to_str().unwrap(), spec]),
        limit,
    );
    assert_eq!(code, 0, "{err}");
    outputs.push((
        "artifact".into(),
        std::fs::read_to_string(&artifact).unwrap(),
    ));
    for format in ["catalog", "mcp", "openai", "anthropic", "gemini"] {
        let (code, out, err) = run_within(
            toolwright().args(["catalog", "--format", format, spec]),
            limit,
        );
        assert_eq!(code, 0, "{format}: {err}");
        outputs.push((format!("catalog --format {format}"), out));
    }
    let list = format!(
        "{}\n{}\n",
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25"}}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
    );
    let mut child = toolwright()
        .args(["serve", spec])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(list.as_bytes())
        .unwrap();
    let listed = child.wait_with_output().unwrap();
    let listed = String::from_utf8(listed.stdout).unwrap();
    assert!(
        listed.contains("getItem") || listed.contains("get_item"),
        "{listed}"
    );
    outputs.push(("tools/list".into(), listed));

    let mut leaks = Vec::new();
    for (what, text) in &outputs {
        assert!(
            text.contains("<redacted>") || text.contains("\\u003credacted>"),
            "{what}: nothing redacted"
        );
        for secret in SECRETS {
            if text.contains(secret) {
                leaks.push(format!("{what}: {secret}"));
            }
        }
    }
    assert!(
        leaks.is_empty(),
        "{} leaks:\n{}",
        leaks.len(),
        leaks.join("\n")
    );
}
