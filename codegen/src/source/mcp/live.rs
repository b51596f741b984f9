//! Recording a live MCP server's `tools/list` at build time (`Config::mcp_server`):
//! the server is started over stdio, asked for its tools (and prompts and resources
//! when it offers them) within a deadline, and stopped; the result is the snapshot
//! `toolwright mcp-snapshot` writes. Blocking and std-only: a build script has no
//! async runtime (the runtime's client, `toolwright::transport::McpStdio`, is async).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};

/// What the server inherits of the build's environment (as the runtime's client).
const INHERITED: [&str; 9] = [
    "PATH",
    "HOME",
    "USER",
    "LOGNAME",
    "SHELL",
    "TERM",
    "LANG",
    "TMPDIR",
    "SYSTEMROOT",
];

struct Server {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    next_id: u64,
    deadline: Instant,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    fn send(&mut self, message: &Value) -> Result<(), String> {
        let mut line = serde_json::to_vec(message).unwrap_or_default();
        line.push(b'\n');
        self.stdin
            .write_all(&line)
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("the server stopped reading: {e}"))
    }

    fn request(&mut self, method: &str, params: Value) -> Result<Value, String> {
        self.next_id += 1;
        let id = json!(self.next_id);
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))?;
        loop {
            let left = self.deadline.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(left) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("no answer to `{method}` in time"));
                }
                Err(RecvTimeoutError::Disconnected) => return Err("the server exited".into()),
            };
            let Ok(message) = serde_json::from_str::<Value>(&line) else {
                continue;
            };
            match (message.get("id"), message.get("method")) {
                (Some(theirs), Some(_)) => {
                    let theirs = theirs.clone();
                    self.send(&json!({"jsonrpc": "2.0", "id": theirs, "result": {}}))?;
                }
                (Some(theirs), None) if *theirs == id => {
                    if let Some(error) = message.get("error") {
                        return Err(format!(
                            "`{method}` failed: {}",
                            error
                                .get("message")
                                .and_then(Value::as_str)
                                .unwrap_or("error")
                        ));
                    }
                    return Ok(message.get("result").cloned().unwrap_or(Value::Null));
                }
                _ => {}
            }
        }
    }

    fn list(&mut self, method: &str, key: &str) -> Result<Vec<Value>, String> {
        let mut all = Vec::new();
        let mut cursor = Value::Null;
        for _ in 0..1_000 {
            let params = if cursor.is_null() {
                json!({})
            } else {
                json!({ "cursor": cursor })
            };
            let page = self.request(method, params)?;
            all.extend(
                page.get(key)
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default(),
            );
            match page.get("nextCursor") {
                Some(next) if !next.is_null() && *next != cursor => cursor = next.clone(),
                _ => break,
            }
        }
        Ok(all)
    }
}

/// What a snapshot keeps of the server's `initialize` answer (the CLI's
/// `mcp-snapshot` saves the same).
pub const SERVER_KEYS: [&str; 4] = [
    "protocolVersion",
    "serverInfo",
    "capabilities",
    "instructions",
];

/// The lists a snapshot records when the server offers them: (capability, method).
pub const OPTIONAL_LISTS: [(&str, &str); 2] =
    [("prompts", "prompts/list"), ("resources", "resources/list")];

/// The snapshot of the server `program args`, or why there is none.
pub fn record(program: &str, args: &[String], timeout: Duration) -> Result<Value, String> {
    let mut command = Command::new(program);
    command.env_clear();
    for key in INHERITED {
        if let Some(value) = std::env::var_os(key) {
            command.env(key, value);
        }
    }
    let mut child = command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start `{program}`: {e}"))?;
    let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        let _ = child.kill();
        return Err("the server's stdio is not available".into());
    };
    let (sender, lines) = channel();
    // Reads until the server closes its stdout (it is killed when recording ends).
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    let mut server = Server {
        child,
        stdin,
        lines,
        next_id: 0,
        deadline: Instant::now() + timeout,
    };
    let info = server.request(
        "initialize",
        json!({
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "toolwright-codegen", "version": env!("CARGO_PKG_VERSION")},
        }),
    )?;
    server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))?;
    let mut out = Map::new();
    for key in SERVER_KEYS {
        if let Some(v) = info.get(key) {
            out.insert(key.to_owned(), v.clone());
        }
    }
    out.insert("tools".into(), server.list("tools/list", "tools")?.into());
    for (capability, method) in OPTIONAL_LISTS {
        if info
            .pointer(&format!("/capabilities/{capability}"))
            .is_some()
        {
            out.insert(capability.into(), server.list(method, capability)?.into());
        }
    }
    Ok(Value::Object(out))
}
