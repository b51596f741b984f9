//! MCP over streamable HTTP (feature `mcp-http`): one endpoint (`/mcp` by default),
//! `POST` a JSON-RPC message and get its answer as `application/json` (a notification
//! gets `202 Accepted`), sessions per 2025-06-18/2025-11-25 (`Mcp-Session-Id` issued by
//! `initialize`, required afterwards, ended by `DELETE`; 2026-07-28 requests are
//! stateless and need none), `MCP-Protocol-Version`
//! checked, and `Origin` checked against loopback (or a configured allow-list) so a web
//! page cannot drive the server through the user's browser (DNS rebinding). Binds where
//! it is told — [`Http::bind`] defaults to `127.0.0.1`.
//!
//! [`Http::handle`] answers one `http::Request`, so a service can mount the endpoint in
//! its own hyper/axum server; [`Http::serve`] is a standalone hyper server.

use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use http::{Method, Request, Response, StatusCode, header};
use http_body_util::{BodyExt, Limited};
use serde_json::Value;

use super::{MODERN_VERSION, PROTOCOL_VERSIONS, Server, codes, error};

/// Largest request body accepted (a tool call's arguments).
const MAX_BODY: usize = 4 << 20;

/// The streamable HTTP endpoint over a [`Server`]. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Http {
    server: Server,
    path: String,
    origins: Arc<BTreeSet<String>>,
    sessions: Arc<Mutex<BTreeSet<String>>>,
}

impl Http {
    /// The endpoint at `/mcp`, accepting requests without `Origin` or from loopback
    /// origins only.
    pub fn new(server: Server) -> Self {
        Http {
            server,
            path: "/mcp".into(),
            origins: Arc::default(),
            sessions: Arc::default(),
        }
    }

    /// Serves at `path` instead of `/mcp`.
    pub fn path(mut self, path: impl Into<String>) -> Self {
        self.path = path.into();
        self
    }

    /// Also accepts browser requests from `origin` (`https://app.example.com`).
    pub fn allow_origin(mut self, origin: impl Into<String>) -> Self {
        Arc::make_mut(&mut self.origins).insert(origin.into());
        self
    }

    /// Answers one HTTP request to the endpoint.
    pub async fn handle<B>(&self, request: Request<B>) -> Response<Body>
    where
        B: http_body::Body + Send,
        B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        if request.uri().path() != self.path {
            return plain(StatusCode::NOT_FOUND, "not found");
        }
        if let Some(origin) = request.headers().get(header::ORIGIN) {
            let origin = origin.to_str().unwrap_or("");
            if !is_loopback_origin(origin) && !self.origins.contains(origin) {
                return plain(StatusCode::FORBIDDEN, "origin not allowed");
            }
        }
        if let Some(version) = request.headers().get("mcp-protocol-version") {
            let version = version.to_str().unwrap_or("");
            if !PROTOCOL_VERSIONS.contains(&version) && version != MODERN_VERSION {
                return plain(
                    StatusCode::BAD_REQUEST,
                    &format!(
                        "unsupported MCP-Protocol-Version `{version}`; this server speaks {}",
                        PROTOCOL_VERSIONS.join(", ")
                    ),
                );
            }
        }
        let session = request
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        match *request.method() {
            Method::POST => self.post(request, session).await,
            Method::DELETE => match session {
                Some(id) if lock(&self.sessions).remove(&id) => plain(StatusCode::OK, ""),
                Some(_) => plain(StatusCode::NOT_FOUND, "unknown session"),
                None => plain(StatusCode::BAD_REQUEST, "missing Mcp-Session-Id"),
            },
            // No server-initiated messages: there is no stream to open.
            _ => {
                let mut response = plain(StatusCode::METHOD_NOT_ALLOWED, "use POST");
                response.headers_mut().insert(
                    header::ALLOW,
                    header::HeaderValue::from_static("POST, DELETE"),
                );
                response
            }
        }
    }

    async fn post<B>(&self, request: Request<B>, session: Option<String>) -> Response<Body>
    where
        B: http_body::Body + Send,
        B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        let accepts_event_stream = request
            .headers()
            .get_all(header::ACCEPT)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .any(|v| v.contains("text/event-stream"));
        let body = match Limited::new(request.into_body(), MAX_BODY).collect().await {
            Ok(body) => body.to_bytes(),
            Err(e) => {
                return plain(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    &format!("cannot read the body: {e}"),
                );
            }
        };
        let message: Value = match serde_json::from_slice(&body) {
            Ok(m) => m,
            Err(e) => {
                return json(
                    StatusCode::BAD_REQUEST,
                    error(
                        Value::Null,
                        codes::PARSE_ERROR,
                        &format!("invalid JSON: {e}"),
                    )
                    .to_string(),
                    None,
                );
            }
        };
        let method = message.get("method").and_then(Value::as_str);
        let initialize = method == Some("initialize");
        // 2026-07-28 is stateless: no session, the revision rides on every request.
        let stateless = method == Some("server/discover")
            || message
                .pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion")
                .is_some();
        let issued = if initialize {
            let id = new_session_id();
            lock(&self.sessions).insert(id.clone());
            Some(id)
        } else if stateless {
            None
        } else {
            match &session {
                Some(id) if !lock(&self.sessions).contains(id) => {
                    return plain(
                        StatusCode::NOT_FOUND,
                        "unknown or ended session; initialize again",
                    );
                }
                Some(_) => None,
                None => {
                    return plain(
                        StatusCode::BAD_REQUEST,
                        "missing Mcp-Session-Id: send `initialize` first",
                    );
                }
            }
        };
        // A call that asks for progress, from a client that takes event streams:
        // answered as SSE, the progress notifications first, as they happen.
        let streams = accepts_event_stream
            && method == Some("tools/call")
            && message.pointer("/params/_meta/progressToken").is_some();
        if streams {
            return self.stream(message, issued);
        }
        match self.server.respond(message).await {
            Some(answer) => json(StatusCode::OK, answer, issued),
            None => plain(StatusCode::ACCEPTED, ""),
        }
    }

    /// The answer to `message` as `text/event-stream`: each notification the call
    /// sends, then the response, each one `message` event; the stream then ends.
    fn stream(&self, message: Value, session: Option<String>) -> Response<Body> {
        let (events, body) = tokio::sync::mpsc::unbounded_channel::<Bytes>();
        // Notifications and then the answer go through one channel, so they reach
        // the client in the order they were sent.
        let (messages, mut queued) = tokio::sync::mpsc::unbounded_channel::<String>();
        let server = self.server.clone();
        tokio::spawn(async move {
            let answer = server
                .respond_notifying(message, Some(messages.clone()))
                .await;
            if let Some(answer) = answer {
                let _ = messages.send(answer);
            }
        });
        tokio::spawn(async move {
            while let Some(json) = queued.recv().await {
                let event = Bytes::from(format!("event: message\ndata: {json}\n\n"));
                if events.send(event).is_err() {
                    break;
                }
            }
        });
        let mut response = Response::new(Body::stream(body));
        let headers = response.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            header::HeaderValue::from_static("text/event-stream"),
        );
        headers.insert(
            header::CACHE_CONTROL,
            header::HeaderValue::from_static("no-cache"),
        );
        if let Some(id) = session.and_then(|id| header::HeaderValue::from_str(&id).ok()) {
            headers.insert("mcp-session-id", id);
        }
        response
    }

    /// A standalone server on `addr` (loopback unless told otherwise), until the
    /// process ends.
    ///
    /// # Errors
    /// The address cannot be bound.
    pub async fn serve(self, addr: SocketAddr) -> std::io::Result<()> {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        loop {
            let (stream, _) = listener.accept().await?;
            let endpoint = self.clone();
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |request| {
                    let endpoint = endpoint.clone();
                    async move { Ok::<_, std::convert::Infallible>(endpoint.handle(request).await) }
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                    .await;
            });
        }
    }

    /// [`Http::serve`] on `127.0.0.1:port`.
    ///
    /// # Errors
    /// The port cannot be bound.
    pub async fn bind(self, port: u16) -> std::io::Result<()> {
        self.serve(SocketAddr::from(([127, 0, 0, 1], port))).await
    }
}

fn is_loopback_origin(origin: &str) -> bool {
    let host = origin
        .split_once("://")
        .map_or(origin, |(_, rest)| rest)
        .split('/')
        .next()
        .unwrap_or("");
    let host = if let Some(v6) = host.strip_prefix('[') {
        v6.split(']').next().unwrap_or("")
    } else {
        host.split(':').next().unwrap_or("")
    };
    matches!(host, "localhost" | "127.0.0.1" | "::1")
}

/// 128 random bits as hex, from the OS (through std's hasher seeds, no extra crate).
fn new_session_id() -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut out = String::with_capacity(32);
    for _ in 0..2 {
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        out.push_str(&format!("{:016x}", hasher.finish()));
    }
    out
}

fn plain(status: StatusCode, text: &str) -> Response<Body> {
    let mut response = Response::new(Body::full(text.to_owned()));
    *response.status_mut() = status;
    if !text.is_empty() {
        response.headers_mut().insert(
            header::CONTENT_TYPE,
            header::HeaderValue::from_static("text/plain; charset=utf-8"),
        );
    }
    response
}

fn json(status: StatusCode, text: String, session: Option<String>) -> Response<Body> {
    let mut response = Response::new(Body::full(text));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("application/json"),
    );
    if let Some(id) = session.and_then(|id| header::HeaderValue::from_str(&id).ok()) {
        headers.insert("mcp-session-id", id);
    }
    response
}

/// A response body: whole (JSON, text) or streamed (SSE), as hyper sends it.
#[derive(Debug)]
pub struct Body(BodyKind);

#[derive(Debug)]
enum BodyKind {
    Full(Option<Bytes>),
    Stream(tokio::sync::mpsc::UnboundedReceiver<Bytes>),
}

impl Body {
    fn full(text: String) -> Body {
        Body(BodyKind::Full(Some(Bytes::from(text))))
    }

    fn stream(chunks: tokio::sync::mpsc::UnboundedReceiver<Bytes>) -> Body {
        Body(BodyKind::Stream(chunks))
    }
}

impl http_body::Body for Body {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<http_body::Frame<Bytes>, Self::Error>>> {
        use std::task::Poll;
        match &mut self.0 {
            BodyKind::Full(bytes) => {
                Poll::Ready(bytes.take().map(|b| Ok(http_body::Frame::data(b))))
            }
            BodyKind::Stream(chunks) => chunks
                .poll_recv(cx)
                .map(|chunk| chunk.map(|b| Ok(http_body::Frame::data(b)))),
        }
    }

    fn is_end_stream(&self) -> bool {
        matches!(&self.0, BodyKind::Full(None))
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Catalog;
    use crate::executor::Executor;
    use http_body_util::Full;
    use serde_json::json;

    fn endpoint() -> Http {
        Http::new(Server::new(
            Executor::builder(Catalog::empty()).build().unwrap(),
        ))
    }

    fn post(body: &Value, headers: &[(&str, &str)]) -> Request<Full<Bytes>> {
        let mut request = Request::post("/mcp");
        for (k, v) in headers {
            request = request.header(*k, *v);
        }
        request
            .body(Full::new(Bytes::from(body.to_string())))
            .unwrap()
    }

    async fn text(response: Response<Body>) -> String {
        // Collected whole: a streamed (SSE) body ends when the call's answer is sent.
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    #[tokio::test]
    async fn sessions_origins_and_versions() {
        let http = endpoint();
        let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25"}});
        let ping = json!({"jsonrpc": "2.0", "id": 2, "method": "ping"});
        // Without a session: initialize first.
        assert_eq!(http.handle(post(&ping, &[])).await.status(), 400);
        let response = http.handle(post(&init, &[])).await;
        assert_eq!(response.status(), 200);
        let session = response.headers()["mcp-session-id"]
            .to_str()
            .unwrap()
            .to_owned();
        assert_eq!(session.len(), 32);
        let response = http
            .handle(post(&ping, &[("mcp-session-id", &session)]))
            .await;
        assert_eq!(response.status(), 200);
        assert_eq!(
            text(response).await,
            r#"{"id":2,"jsonrpc":"2.0","result":{}}"#
        );
        // Notifications: 202, no body.
        let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        assert_eq!(
            http.handle(post(&note, &[("mcp-session-id", &session)]))
                .await
                .status(),
            202
        );
        // A foreign origin is refused; loopback ones and the configured ones pass.
        let foreign = [
            ("mcp-session-id", session.as_str()),
            ("origin", "https://evil.example"),
        ];
        assert_eq!(http.handle(post(&ping, &foreign)).await.status(), 403);
        let local = [
            ("mcp-session-id", session.as_str()),
            ("origin", "http://localhost:5173"),
        ];
        assert_eq!(http.handle(post(&ping, &local)).await.status(), 200);
        let allowed = endpoint().allow_origin("https://app.example");
        let init_there = allowed
            .handle(post(&init, &[("origin", "https://app.example")]))
            .await;
        assert_eq!(init_there.status(), 200);
        // An unsupported protocol version header.
        let old = [
            ("mcp-session-id", session.as_str()),
            ("mcp-protocol-version", "2024-11-05"),
        ];
        assert_eq!(http.handle(post(&ping, &old)).await.status(), 400);
        // GET opens no stream; DELETE ends the session, after which it is unknown.
        let get = Request::get("/mcp").body(Full::new(Bytes::new())).unwrap();
        assert_eq!(http.handle(get).await.status(), 405);
        let delete = Request::delete("/mcp")
            .header("mcp-session-id", &session)
            .body(Full::new(Bytes::new()))
            .unwrap();
        assert_eq!(http.handle(delete).await.status(), 200);
        assert_eq!(
            http.handle(post(&ping, &[("mcp-session-id", &session)]))
                .await
                .status(),
            404
        );
        // Other paths do not exist; bad JSON is a JSON-RPC parse error.
        let elsewhere = Request::post("/other")
            .body(Full::new(Bytes::new()))
            .unwrap();
        assert_eq!(http.handle(elsewhere).await.status(), 404);
        let bad = Request::post("/mcp")
            .body(Full::new(Bytes::from("{")))
            .unwrap();
        let response = http.handle(bad).await;
        assert_eq!(response.status(), 400);
        assert!(text(response).await.contains("-32700"));
    }
}
