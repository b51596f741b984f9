//! A client for MCP servers over stdio: the transport of APIs read from a saved
//! `tools/list` (`mcp://<api>` base URLs). The server is started on first use,
//! `initialize`d, and kept; a call is `tools/call` with the tool's validated arguments.
//! One request is in flight per server at a time (stdio is one ordered stream; the
//! calls of one server queue). A server that exits, or a call that times out, ends the
//! session; the next call starts the server again.
//!
//! The executor sees an HTTP exchange, so validation, gating, timeouts and tracing
//! stay the executor's (MCP calls are not retried): a result is `200` with the
//! `structuredContent` (or the whole result when there is none), a result with
//! `isError` is `502` with `{"error": <its text>, "content": [...]}`.

use std::process::Stdio;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::sync::Mutex;

use crate::error::{TransportError, TransportKind};

/// The revision this client asks for (servers answer with the one they speak).
pub(crate) const PROTOCOL_VERSION: &str = "2025-06-18";
/// Longest line a server may send (a result larger than this ends the session).
const MAX_LINE: usize = 64 * 1024 * 1024;

/// An MCP server run as a child process, spoken to over its stdin and stdout.
#[derive(Debug)]
pub struct McpStdio {
    program: String,
    args: Vec<String>,
    /// Variables the server is given beyond the inherited ones.
    env: Vec<(String, String)>,
    session: Mutex<Option<Session>>,
}

/// What the server inherits of this process's environment: enough to run, never the
/// service's credentials (a server could hand them to a model; the reference server
/// has a tool that lists its environment). Give it more with [`McpStdio::env`].
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

#[derive(Debug)]
struct Session {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
    /// What the server said about itself in `initialize`.
    info: Value,
}

impl McpStdio {
    /// A server started as `program args...` (not started until first used).
    pub fn new(
        program: impl Into<String>,
        args: impl IntoIterator<Item = impl Into<String>>,
    ) -> Self {
        McpStdio {
            program: program.into(),
            args: args.into_iter().map(Into::into).collect(),
            env: Vec::new(),
            session: Mutex::new(None),
        }
    }

    /// Gives the server the variable `key` (of this process's environment it inherits
    /// only `PATH`, `HOME`, `USER`, `LOGNAME`, `SHELL`, `TERM`, `LANG`, `TMPDIR` and
    /// `SYSTEMROOT`).
    pub fn env(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.env.push((key.into(), value.into()));
        self
    }

    /// Calls tool `name` with `arguments`; the `CallToolResult` as the server sent it.
    ///
    /// # Errors
    /// The server cannot start, answers with a JSON-RPC error, exits, or takes longer
    /// than `timeout`.
    pub async fn call_tool(
        &self,
        name: &str,
        arguments: Value,
        timeout: Duration,
    ) -> Result<Value, TransportError> {
        self.request(
            "tools/call",
            json!({"name": name, "arguments": arguments}),
            timeout,
        )
        .await
    }

    /// Everything a `*/list` method lists (`tools/list`, `prompts/list`,
    /// `resources/list`), following `nextCursor`; `key` names the array (`tools`).
    ///
    /// # Errors
    /// As [`McpStdio::call_tool`].
    pub async fn list(
        &self,
        method: &str,
        key: &str,
        timeout: Duration,
    ) -> Result<Vec<Value>, TransportError> {
        let mut all = Vec::new();
        let mut cursor: Option<Value> = None;
        for _ in 0..1_000 {
            let params = match &cursor {
                Some(c) => json!({ "cursor": c }),
                None => json!({}),
            };
            let page = self.request(method, params, timeout).await?;
            all.extend(
                page.get(key)
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default(),
            );
            match page.get("nextCursor").filter(|c| !c.is_null()) {
                Some(next) if Some(next) != cursor.as_ref() => cursor = Some(next.clone()),
                _ => break,
            }
        }
        Ok(all)
    }

    /// The server's `initialize` result (starting it if needed).
    ///
    /// # Errors
    /// As [`McpStdio::call_tool`].
    pub async fn server_info(&self, timeout: Duration) -> Result<Value, TransportError> {
        let mut guard = self.session.lock().await;
        let session = self.started(&mut guard, timeout).await?;
        Ok(session.info.clone())
    }

    /// Any request (`prompts/get`, `resources/read`...) and its result.
    pub(crate) async fn request(
        &self,
        method: &str,
        params: Value,
        timeout: Duration,
    ) -> Result<Value, TransportError> {
        let mut guard = self.session.lock().await;
        let outcome = tokio::time::timeout(timeout, async {
            let session = self.started(&mut guard, timeout).await?;
            session.exchange(method, params).await
        })
        .await;
        match outcome {
            Ok(Ok(result)) => Ok(result),
            Ok(Err(e)) => {
                // The stream may be mid-message: start afresh next time.
                end(&mut guard).await;
                Err(e)
            }
            Err(_) => {
                end(&mut guard).await;
                Err(TransportError::new(format!(
                    "MCP server `{}`: `{method}` took longer than {} ms",
                    self.program,
                    timeout.as_millis()
                ))
                .kind_of(TransportKind::Timeout))
            }
        }
    }

    async fn started<'s>(
        &self,
        slot: &'s mut Option<Session>,
        timeout: Duration,
    ) -> Result<&'s mut Session, TransportError> {
        if slot.is_none() {
            let mut command = Command::new(&self.program);
            command.env_clear();
            for key in INHERITED {
                if let Some(value) = std::env::var_os(key) {
                    command.env(key, value);
                }
            }
            let mut child = command
                .envs(self.env.iter().map(|(k, v)| (k, v)))
                .args(&self.args)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .kill_on_drop(true)
                .spawn()
                .map_err(|e| {
                    TransportError::with_source(
                        format!("cannot start MCP server `{}`", self.program),
                        e,
                    )
                    .kind_of(TransportKind::Connect)
                })?;
            let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
                return Err(TransportError::new(
                    "the MCP server's stdio is not available",
                ));
            };
            let mut session = Session {
                child,
                stdin,
                stdout: BufReader::new(stdout),
                next_id: 0,
                info: Value::Null,
            };
            let init =
                tokio::time::timeout(timeout, session.exchange("initialize", initialize_params()))
                    .await
                    .map_err(|_| {
                        TransportError::new(format!(
                            "MCP server `{}` did not answer `initialize`",
                            self.program
                        ))
                        .kind_of(TransportKind::Timeout)
                    })??;
            session.info = init;
            session
                .send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
                .await?;
            *slot = Some(session);
        }
        Ok(slot.as_mut().expect("started above"))
    }
}

async fn end(slot: &mut Option<Session>) {
    if let Some(mut session) = slot.take() {
        let _ = session.child.kill().await;
    }
}

impl Session {
    async fn send(&mut self, message: &Value) -> Result<(), TransportError> {
        let mut line = serde_json::to_vec(message).unwrap_or_default();
        line.push(b'\n');
        self.stdin.write_all(&line).await.map_err(|e| {
            TransportError::with_source("the MCP server stopped reading", e)
                .kind_of(TransportKind::Reset)
        })?;
        self.stdin.flush().await.map_err(|e| {
            TransportError::with_source("the MCP server stopped reading", e)
                .kind_of(TransportKind::Reset)
        })
    }

    /// Sends a request and reads until its response, answering the server's own
    /// requests (`ping`; anything else: method not found) and skipping notifications.
    async fn exchange(&mut self, method: &str, params: Value) -> Result<Value, TransportError> {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await?;
        let mut line = String::new();
        loop {
            line.clear();
            let read = self.stdout.read_line(&mut line).await.map_err(|e| {
                TransportError::with_source("cannot read from the MCP server", e)
                    .kind_of(TransportKind::Reset)
            })?;
            if read == 0 {
                return Err(
                    TransportError::new("the MCP server exited").kind_of(TransportKind::Reset)
                );
            }
            if line.len() > MAX_LINE {
                return Err(
                    TransportError::new("the MCP server sent a message over 64 MB")
                        .kind_of(TransportKind::BodyTooLarge),
                );
            }
            let Ok(message) = serde_json::from_str::<Value>(line.trim()) else {
                continue; // not JSON-RPC (a stray log line): skipped
            };
            match (message.get("id"), message.get("method")) {
                (Some(their_id), Some(request)) => {
                    self.send(&reply_to(their_id, request)).await?;
                }
                (Some(their_id), None) if their_id == &json!(id) => {
                    return outcome(method, &message);
                }
                _ => {} // a notification, or an answer to nothing we asked
            }
        }
    }
}

/// The client's answer to a request the server made: `ping` is answered, anything
/// else (sampling, elicitation, roots) is not supported.
pub(crate) fn reply_to(id: &Value, method: &Value) -> Value {
    if method == "ping" {
        json!({"jsonrpc": "2.0", "id": id, "result": {}})
    } else {
        json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "not supported by this client"}})
    }
}

/// The response to our request `method`: its result, or its error as a failure.
pub(crate) fn outcome(method: &str, message: &Value) -> Result<Value, TransportError> {
    if let Some(error) = message.get("error") {
        return Err(TransportError::new(format!(
            "MCP `{method}` failed: {}",
            error
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or("error")
        )));
    }
    Ok(message.get("result").cloned().unwrap_or(Value::Null))
}

/// The `initialize` parameters this client sends.
pub(crate) fn initialize_params() -> Value {
    json!({
        "protocolVersion": PROTOCOL_VERSION,
        "capabilities": {},
        "clientInfo": {"name": "toolwright", "version": env!("CARGO_PKG_VERSION")},
    })
}

/// The tool arguments an executor's MCP request carries (its JSON body).
pub(crate) fn arguments(request: &http::Request<Vec<u8>>) -> Value {
    if request.body().is_empty() {
        json!({})
    } else {
        serde_json::from_slice(request.body()).unwrap_or_else(|_| json!({}))
    }
}

/// The executor's request for an MCP tool (`POST mcp://<api>/tools/<name>`, the
/// arguments as the JSON body), answered through `server` as an HTTP response.
pub(crate) async fn send(
    server: &McpStdio,
    tool: &str,
    request: http::Request<Vec<u8>>,
) -> Result<http::Response<Vec<u8>>, TransportError> {
    let policy = super::CallPolicy::of(&request);
    let result = server
        .call_tool(tool, arguments(&request), policy.timeout)
        .await?;
    Ok(as_response(&result))
}

/// A `CallToolResult` as the executor's HTTP exchange: `200` with the structured
/// content (or the whole result), `502` with the text of an `isError` result.
pub(crate) fn as_response(result: &Value) -> http::Response<Vec<u8>> {
    let failed = result.get("isError") == Some(&Value::Bool(true));
    let body = if failed {
        let text: Vec<&str> = result
            .get("content")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|c| c.get("text").and_then(Value::as_str))
            .collect();
        json!({"error": text.join("\n"), "content": result.get("content")})
    } else {
        match result.get("structuredContent") {
            Some(structured) => structured.clone(),
            None => result.clone(),
        }
    };
    let mut response = http::Response::new(serde_json::to_vec(&body).unwrap_or_default());
    *response.status_mut() = if failed {
        http::StatusCode::BAD_GATEWAY
    } else {
        http::StatusCode::OK
    };
    response.headers_mut().insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("application/json"),
    );
    response
}
