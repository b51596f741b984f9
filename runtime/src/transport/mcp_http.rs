//! A client for MCP servers over streamable HTTP (MCP 2025-03-26 and later): each
//! JSON-RPC message is a `POST` to the server's endpoint, answered with JSON or with a
//! short event stream that carries the response (and whatever the server says first).
//! The session starts with `initialize` on first use; the server's `Mcp-Session-Id`
//! and the negotiated `MCP-Protocol-Version` go on every later request. A session the
//! server has forgotten (`404`) is started again once.
//!
//! Requests go through the executor's own [`Transport`] (timeouts, body limits,
//! same-origin redirects), never retried: a `tools/call` may not be idempotent. Only
//! `http://` to a loopback host or `https://` is taken, as for any base URL.

use serde_json::{Value, json};
use tokio::sync::Mutex;

use super::mcp_client::{initialize_params, outcome, reply_to};
use super::{CallPolicy, Transport};
use crate::error::{TransportError, TransportKind};

/// An MCP server at a streamable HTTP endpoint (`https://host/mcp`).
#[derive(Debug)]
pub struct McpHttp {
    url: http::Uri,
    /// Sent with every request (e.g. `Authorization`); never logged.
    headers: http::HeaderMap,
    session: Mutex<Option<Session>>,
}

#[derive(Debug)]
struct Session {
    /// `Mcp-Session-Id`, when the server keeps sessions.
    id: Option<http::HeaderValue>,
    /// The revision the server answered `initialize` with.
    protocol: http::HeaderValue,
    next_id: u64,
}

impl McpHttp {
    /// A server at `url`.
    ///
    /// # Errors
    /// `url` is not an absolute `https://` URL, or `http://` to a host other than
    /// `localhost`, `127.0.0.1` or `[::1]` (headers would travel in clear).
    pub fn new(url: &str) -> Result<Self, String> {
        let uri: http::Uri = url
            .parse()
            .map_err(|e| format!("`{url}` is not a URL: {e}"))?;
        let host = uri.host().unwrap_or("");
        let loopback = matches!(host, "localhost" | "127.0.0.1" | "[::1]" | "::1");
        match uri.scheme_str() {
            Some("https") => {}
            Some("http") if loopback => {}
            Some("http") => {
                return Err(format!(
                    "`{url}` is plain http to another host: use https (plain http is for localhost, 127.0.0.1 or [::1])"
                ));
            }
            _ => return Err(format!("`{url}` is not an http(s) URL")),
        }
        if uri.authority().is_some_and(|a| a.as_str().contains('@')) {
            return Err(format!(
                "`{}` carries a user name or password: give credentials as a header",
                url.rsplit('@').next().unwrap_or("")
            ));
        }
        Ok(McpHttp {
            url: uri,
            headers: http::HeaderMap::new(),
            session: Mutex::new(None),
        })
    }

    /// Sends `name: value` with every request (an `Authorization` header, say).
    ///
    /// # Errors
    /// The name or value is not a valid header.
    pub fn header(mut self, name: &str, value: &str) -> Result<Self, String> {
        let name = http::HeaderName::try_from(name)
            .map_err(|e| format!("`{name}` is not a header name: {e}"))?;
        let mut value = http::HeaderValue::try_from(value)
            .map_err(|_| format!("the value of `{name}` is not a valid header value"))?;
        value.set_sensitive(true);
        self.headers.insert(name, value);
        Ok(self)
    }

    /// Calls tool `name` with `arguments` within `policy` (its timeout bounds the
    /// whole call, session start included; its body limit each answer); the
    /// `CallToolResult` as the server sent it.
    ///
    /// # Errors
    /// The server cannot be reached, answers with an HTTP or JSON-RPC error, or not
    /// within the timeout.
    pub async fn call_tool(
        &self,
        transport: &dyn Transport,
        name: &str,
        arguments: Value,
        policy: CallPolicy,
    ) -> Result<Value, TransportError> {
        let params = json!({"name": name, "arguments": arguments});
        self.request(transport, "tools/call", params, policy).await
    }

    /// Any request (`prompts/get`, `resources/read`...) and its result, in the
    /// session (made, or made again once if the server forgot it).
    pub(crate) async fn request(
        &self,
        transport: &dyn Transport,
        method: &str,
        params: Value,
        policy: CallPolicy,
    ) -> Result<Value, TransportError> {
        let timeout = policy.timeout;
        let policy = CallPolicy {
            idempotent: false,
            max_attempts: 1,
            ..policy
        };
        let mut guard = self.session.lock().await;
        let work = async {
            for fresh in [false, true] {
                if fresh || guard.is_none() {
                    *guard = Some(self.initialize(transport, policy).await?);
                }
                let Some(session) = guard.as_mut() else {
                    continue;
                };
                match self
                    .exchange(transport, session, method, params.clone(), policy)
                    .await
                {
                    // The server forgot the session (restarted, expired): once more,
                    // with a new one.
                    Err(Forgotten) if !fresh => continue,
                    Err(Forgotten) => break,
                    Ok(result) => return result,
                }
            }
            Err(TransportError::new(format!(
                "MCP server {}: the session was lost twice",
                self.url
            ))
            .kind_of(TransportKind::Reset))
        };
        match tokio::time::timeout(timeout, work).await {
            Ok(result) => result,
            Err(_) => {
                *guard = None;
                Err(TransportError::new(format!(
                    "MCP server {}: `{method}` took longer than {} ms",
                    self.url,
                    timeout.as_millis()
                ))
                .kind_of(TransportKind::Timeout))
            }
        }
    }

    async fn initialize(
        &self,
        transport: &dyn Transport,
        policy: CallPolicy,
    ) -> Result<Session, TransportError> {
        let mut session = Session {
            id: None,
            protocol: http::HeaderValue::from_static(super::mcp_client::PROTOCOL_VERSION),
            next_id: 0,
        };
        let info = match self
            .exchange(
                transport,
                &mut session,
                "initialize",
                initialize_params(),
                policy,
            )
            .await
        {
            Ok(result) => result?,
            Err(Forgotten) => {
                return Err(TransportError::new(format!(
                    "MCP server {} answered `initialize` with 404: is this its endpoint?",
                    self.url
                ))
                .kind_of(TransportKind::Connect));
            }
        };
        if let Some(version) = info
            .get("protocolVersion")
            .and_then(Value::as_str)
            .and_then(|v| http::HeaderValue::try_from(v).ok())
        {
            session.protocol = version;
        }
        let notice = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        self.post(transport, &session, &notice, policy).await?;
        Ok(session)
    }

    /// Sends request `method` and reads its response, answering the server's own
    /// requests on the way. `Err(Forgotten)`: the server does not know the session.
    async fn exchange(
        &self,
        transport: &dyn Transport,
        session: &mut Session,
        method: &str,
        params: Value,
        policy: CallPolicy,
    ) -> Result<Result<Value, TransportError>, Forgotten> {
        session.next_id += 1;
        let id = json!(session.next_id);
        let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let response = match self.post(transport, session, &message, policy).await {
            Ok(r) => r,
            Err(e) => return Ok(Err(e)),
        };
        if session.id.is_some() && forgot(&response) {
            return Err(Forgotten);
        }
        if method == "initialize"
            && let Some(given) = response.headers().get("mcp-session-id")
        {
            session.id = Some(given.clone());
        }
        if !response.status().is_success() {
            let text = String::from_utf8_lossy(response.body());
            return Ok(Err(TransportError::new(format!(
                "MCP server {}: `{method}` answered HTTP {}: {}",
                self.url,
                response.status().as_u16(),
                text.chars().take(300).collect::<String>()
            ))));
        }
        let streamed = response
            .headers()
            .get(http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|t| t.starts_with("text/event-stream"));
        let messages = if streamed {
            events(response.body())
        } else {
            match serde_json::from_slice::<Value>(response.body()) {
                Ok(Value::Array(batch)) => batch,
                Ok(one) => vec![one],
                Err(e) => {
                    return Ok(Err(TransportError::new(format!(
                        "MCP server {}: `{method}` answered with what is not JSON: {e}",
                        self.url
                    ))));
                }
            }
        };
        for message in &messages {
            match (message.get("id"), message.get("method")) {
                (Some(their_id), Some(request)) => {
                    // Answered on a request of its own; the answer needs no answer.
                    let reply = reply_to(their_id, request);
                    if let Err(e) = self.post(transport, session, &reply, policy).await {
                        return Ok(Err(e));
                    }
                }
                (Some(their_id), None) if *their_id == id => return Ok(outcome(method, message)),
                _ => {}
            }
        }
        Ok(Err(TransportError::new(format!(
            "MCP server {}: the answer to `{method}` holds no response to it",
            self.url
        ))
        .kind_of(TransportKind::Reset)))
    }

    async fn post(
        &self,
        transport: &dyn Transport,
        session: &Session,
        message: &Value,
        policy: CallPolicy,
    ) -> Result<http::Response<Vec<u8>>, TransportError> {
        let mut request = http::Request::post(self.url.clone())
            .header(http::header::CONTENT_TYPE, "application/json")
            .header(http::header::ACCEPT, "application/json, text/event-stream")
            .body(serde_json::to_vec(message).unwrap_or_default())
            .map_err(|e| TransportError::with_source("cannot build the MCP request", e))?;
        let headers = request.headers_mut();
        for (name, value) in &self.headers {
            headers.insert(name, value.clone());
        }
        if let Some(id) = &session.id {
            headers.insert("mcp-session-id", id.clone());
        }
        headers.insert("mcp-protocol-version", session.protocol.clone());
        request.extensions_mut().insert(policy);
        transport.send(request).await
    }
}

/// The server does not know the session (HTTP 404 on a request carrying its id).
struct Forgotten;

/// Whether an answer to a request that carried a session id says the session is
/// gone: 404, as the specification says, or a 400 whose error names the session (as
/// servers built on the TypeScript SDK's examples answer, `server-everything` among
/// them).
fn forgot(response: &http::Response<Vec<u8>>) -> bool {
    match response.status() {
        http::StatusCode::NOT_FOUND => true,
        http::StatusCode::BAD_REQUEST => serde_json::from_slice::<Value>(response.body())
            .ok()
            .and_then(|b| {
                b.pointer("/error/message")?
                    .as_str()
                    .map(str::to_ascii_lowercase)
            })
            .is_some_and(|m| m.contains("session")),
        _ => false,
    }
}

/// The JSON-RPC messages of an event stream: each event's `data:` lines joined by
/// newlines, events that are not JSON skipped.
fn events(body: &[u8]) -> Vec<Value> {
    let text = String::from_utf8_lossy(body);
    let mut out = Vec::new();
    let mut data = String::new();
    let flush = |data: &mut String, out: &mut Vec<Value>| {
        if !data.is_empty() {
            if let Ok(message) = serde_json::from_str(data) {
                out.push(message);
            }
            data.clear();
        }
    };
    for line in text.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.is_empty() {
            flush(&mut data, &mut out);
        } else if let Some(value) = line.strip_prefix("data:") {
            if !data.is_empty() {
                data.push('\n');
            }
            data.push_str(value.strip_prefix(' ').unwrap_or(value));
        }
    }
    flush(&mut data, &mut out);
    out
}

/// The executor's request for an MCP tool answered through `server`.
pub(crate) async fn send(
    server: &McpHttp,
    transport: &dyn Transport,
    tool: &str,
    request: http::Request<Vec<u8>>,
) -> Result<http::Response<Vec<u8>>, TransportError> {
    let policy = CallPolicy::of(&request);
    let result = server
        .call_tool(
            transport,
            tool,
            super::mcp_client::arguments(&request),
            policy,
        )
        .await?;
    Ok(super::mcp_client::as_response(&result))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_streams_yield_their_messages() {
        let body = b"event: message\r\nid: 1\r\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\r\n\r\n: a comment\n\ndata: {\"jsonrpc\":\"2.0\",\ndata: \"id\":1,\"result\":{}}\n\n";
        let messages = events(body);
        assert_eq!(messages.len(), 2);
        assert_eq!(messages[1]["id"], 1);
    }

    #[test]
    fn only_https_or_loopback_http() {
        assert!(McpHttp::new("https://mcp.example.com/mcp").is_ok());
        assert!(McpHttp::new("http://127.0.0.1:3001/mcp").is_ok());
        assert!(McpHttp::new("http://mcp.example.com/mcp").is_err());
        assert!(McpHttp::new("https://user:pw@mcp.example.com/mcp").is_err());
        assert!(McpHttp::new("ftp://x/mcp").is_err());
    }
}
