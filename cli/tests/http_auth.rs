//! `serve --http` with bearer tokens: requests without a known token get `401` with
//! `WWW-Authenticate: Bearer`, a known one is served (the PyPI `mcp` client connects
//! with it); off loopback without authorization it refuses to start, and `--no-auth`
//! starts with a warning.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};
use toolwright_loopback::{Response, Server};

const TOKEN: &str = "team-token-0123456789abcdef";

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

/// `serve` of the example adapter on a free loopback port with the team's token.
fn serve(api: &Server) -> (Serving, u16) {
    let port = toolwright_loopback::free_port();
    let child = Command::new(env!("CARGO_BIN_EXE_toolwright"))
        .args(["serve", "examples/issue-tracker/adapters", "--base-url"])
        .arg(format!("tracker={}/api/v1", api.url()))
        .args(["--http", &format!("127.0.0.1:{port}")])
        .args(["--auth-token", "team=MCP_TEAM_TOKEN"])
        .current_dir(root())
        .env_clear()
        .env("MCP_TEAM_TOKEN", TOKEN)
        .env("TRACKER_TOKEN", "upstream-t0ken")
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let serving = Serving(child);
    toolwright_loopback::wait_listening(port, Duration::from_secs(30), "serve --http").unwrap();
    (serving, port)
}

/// One POST of `body` with `authorization` (if any): the status line, headers and body.
fn post(port: u16, authorization: Option<&str>, session: Option<&str>, body: &Value) -> String {
    let body = body.to_string();
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut head = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    if let Some(value) = authorization {
        head.push_str(&format!("Authorization: {value}\r\n"));
    }
    if let Some(id) = session {
        head.push_str(&format!(
            "Mcp-Session-Id: {id}\r\nMCP-Protocol-Version: 2025-11-25\r\n"
        ));
    }
    write!(stream, "{head}\r\n{body}").unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer
}

fn initialize() -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
           "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                      "clientInfo": {"name": "t", "version": "1"}}})
}

#[test]
fn only_a_known_bearer_token_is_served() {
    let api = Server::start(|_| {
        Response::json(200, &json!({"number": 7, "title": "T", "state": "open"}))
    });
    let (_serving, port) = serve(&api);

    let none = post(port, None, None, &initialize());
    assert!(none.starts_with("HTTP/1.1 401"), "{none}");
    assert!(
        none.to_ascii_lowercase()
            .contains("www-authenticate: bearer realm=\"mcp\"\r\n"),
        "{none}"
    );
    for wrong in [
        format!("Bearer {}", &TOKEN[..TOKEN.len() - 1]),
        format!("Bearer {TOKEN}x"),
        format!("Basic {TOKEN}"),
        "Bearer upstream-t0ken".to_owned(),
    ] {
        let answer = post(port, Some(&wrong), None, &initialize());
        assert!(answer.starts_with("HTTP/1.1 401"), "{wrong}: {answer}");
        assert!(answer.contains("error=\"invalid_token\""), "{answer}");
        assert!(!answer.contains(TOKEN), "{answer}");
    }

    let bearer = format!("Bearer {TOKEN}");
    let ok = post(port, Some(&bearer), None, &initialize());
    assert!(ok.starts_with("HTTP/1.1 200"), "{ok}");
    let session = ok
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("mcp-session-id: ")
                .map(str::to_owned)
        })
        .expect("a session");
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                      "params": {"name": "get_issue", "arguments": {"project": "web", "number": 7}}});
    // The session alone is not enough: every request carries the token.
    let without = post(port, None, Some(session.trim()), &call);
    assert!(without.starts_with("HTTP/1.1 401"), "{without}");
    assert!(api.requests().is_empty(), "nothing reached the API");
    let called = post(port, Some(&bearer), Some(session.trim()), &call);
    assert!(called.starts_with("HTTP/1.1 200"), "{called}");
    assert!(called.contains("\"title\":\"T\""), "{called}");
    let requests = api.requests();
    assert_eq!(requests.len(), 1);
    // The API gets the service's own credential, never the MCP caller's token.
    assert_eq!(
        requests[0].header("authorization"),
        Some("Bearer upstream-t0ken")
    );
}

#[test]
fn the_mcp_client_connects_with_a_bearer_token() {
    let api = Server::start(|_| {
        Response::json(200, &json!({"number": 7, "title": "T", "state": "open"}))
    });
    let (_serving, port) = serve(&api);
    let calls = json!([["get_issue", {"project": "web", "number": 7}]]);
    let output = Command::new("python3")
        .arg(root().join("cli/tests/mcp/client.py"))
        .args(["--mode", "legacy", "--calls", &calls.to_string()])
        .args([
            "--url",
            &format!("http://127.0.0.1:{port}/mcp"),
            "--bearer-env",
            "MCP_TEAM_TOKEN",
        ])
        .env("MCP_TEAM_TOKEN", TOKEN)
        .output()
        .expect("python3 with the MCP client (pip install \"mcp>=2.3,<3\")");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let session: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert!(
        session["tools"].as_array().is_some_and(|t| !t.is_empty()),
        "{session}"
    );
    assert_eq!(
        session["calls"][0]["structuredContent"]["title"], "T",
        "{session}"
    );
}

/// Off loopback: without authorization `serve` refuses to start and says how to add
/// it; `--no-auth` starts, with a warning.
#[test]
fn off_loopback_needs_authorization_or_an_explicit_no_auth() {
    let refused = Command::new(env!("CARGO_BIN_EXE_toolwright"))
        .args(["serve", "tests/adapters", "--http", "0.0.0.0:0"])
        .current_dir(root())
        .env_clear()
        .output()
        .unwrap();
    assert!(!refused.status.success());
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(err.contains("refusing to serve MCP on 0.0.0.0:"), "{err}");
    assert!(err.contains("--auth-token NAME=ENV_VAR"), "{err}");
    assert!(err.contains("--no-auth"), "{err}");

    let mut open = Serving(
        Command::new(env!("CARGO_BIN_EXE_toolwright"))
            .args([
                "serve",
                "tests/adapters",
                "--http",
                "0.0.0.0:0",
                "--no-auth",
            ])
            .current_dir(root())
            .env_clear()
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let mut lines = BufReader::new(open.0.stderr.take().unwrap()).lines();
    let warning = lines
        .by_ref()
        .map_while(Result::ok)
        .find(|l| l.starts_with("warning: serving 0.0.0.0:0 without authorization"));
    assert!(warning.is_some(), "a warning at start");
    std::thread::sleep(Duration::from_millis(300));
    assert!(open.0.try_wait().unwrap().is_none(), "it keeps serving");
}
