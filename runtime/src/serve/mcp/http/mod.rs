//! MCP over streamable HTTP (feature `mcp-http`): one endpoint (`/mcp` by default),
//! `POST` a JSON-RPC message and get its answer as `application/json` (a notification
//! gets `202 Accepted`), sessions per 2025-06-18/2025-11-25 (`Mcp-Session-Id` issued by
//! `initialize`, required afterwards, ended by `DELETE`; 2026-07-28 requests are
//! stateless and need none, but mirror their revision, method and tool in headers,
//! `mirror.rs`), `MCP-Protocol-Version` checked, and `Origin` checked against loopback
//! (or a configured allow-list) so a web page cannot drive the server through the user's
//! browser (DNS rebinding). Binds where it is told — [`Http::bind`] defaults to `127.0.0.1`.
//!
//! [`Http::handle`] answers one `http::Request`, so a service can mount the endpoint in
//! its own hyper/axum server; [`Http::serve`] is a standalone hyper server.

mod auth;
mod callers;
mod listen;
mod mirror;
mod sessions;

pub use auth::{Authorization, BearerTokens, Caller, MIN_TOKEN_LEN, TokenError};
#[cfg(feature = "mcp-oauth")]
pub use auth::{OAuth, OAuthError};
pub use listen::Limits;

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use http::{Method, Request, Response, StatusCode, header};
use http_body_util::{BodyExt, Limited};
use serde_json::Value;

use super::{MAX_MESSAGE, MODERN_VERSION, PROTOCOL_VERSIONS, Server, codes, error};

/// The streamable HTTP endpoint over a [`Server`]. Cheap to clone.
///
/// ```no_run
/// use toolwright::serve::mcp::{BearerTokens, Http, Server};
/// # async fn run(executor: toolwright::Executor) -> Result<(), Box<dyn std::error::Error>> {
/// // Each client's token from the environment (at least 16 characters), by client name.
/// let tokens = BearerTokens::new().from_env("agent", "AGENT_MCP_TOKEN")?;
/// Http::new(Server::new(executor))
///     .auth(tokens)
///     .serve("0.0.0.0:8080".parse()?)
///     .await?;
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct Http {
    server: Server,
    path: String,
    origins: Arc<BTreeSet<String>>,
    sessions: Arc<sessions::Sessions>,
    /// Session id → the response streams of its calls in flight, each able to carry
    /// requests to the client (elicitation, sampling) whose answers come back as
    /// POSTs of that session.
    peers: Arc<Mutex<HashMap<String, Vec<super::Peer>>>>,
    /// Per-caller call rates and the cap on calls in flight.
    callers: Arc<callers::Callers>,
    limits: Limits,
    log: listen::Log,
    /// Who may call; `None`: anyone who reaches the socket.
    auth: Option<Authorization>,
    /// The server as each combination of mapped scopes sees it (OAuth scopes mapped
    /// to tools), the most recently used `MAX_VIEWS`.
    #[cfg_attr(not(feature = "mcp-oauth"), allow(dead_code))]
    views: Arc<std::sync::Mutex<Views>>,
    /// Serving off loopback without `auth` was asked for explicitly.
    open: bool,
}

impl Http {
    /// The endpoint at `/mcp`, accepting requests without `Origin` or from loopback
    /// origins only.
    pub fn new(server: Server) -> Self {
        Http {
            // A remote client's "yes" is not a person's: see `client_approvals`.
            server: server.client_approvals(false),
            path: "/mcp".into(),
            origins: Arc::default(),
            sessions: Arc::new(sessions_for(&Limits::default())),
            peers: Arc::default(),
            callers: Arc::new(callers_for(&Limits::default())),
            limits: Limits::default(),
            log: listen::Log::new(None),
            auth: None,
            views: Arc::default(),
            open: false,
        }
    }

    /// Lets a client's elicitation answer approve a call the gate wants confirmed
    /// (default: no). A server cannot tell a person's yes from the client's own — a
    /// client, or a model steering it, can answer the confirmation itself — so over
    /// HTTP such a call is refused (`CONFIRMATION_REQUIRED`) unless the operator trusts
    /// its clients to put the question to a person. The service's own approval
    /// callback (`ExecutorBuilder::approve_with`) is the way to approve server-side.
    /// Trusted or not, an answer counts only with the `requestState` this server
    /// issued to this caller for exactly that call, once, within 5 minutes.
    #[must_use]
    pub fn client_approvals(mut self, trusted: bool) -> Self {
        self.server = self.server.client_approvals(trusted);
        // Views made for the old setting must not serve the new one.
        self.views = Arc::default();
        self
    }

    /// Requires `Authorization: Bearer <token>` on every request: one of a set of
    /// [`BearerTokens`], or (feature `mcp-oauth`) an access token [`OAuth`] accepts.
    /// Others get `401` with `WWW-Authenticate: Bearer` before their body is read.
    #[must_use]
    pub fn auth(mut self, auth: impl Into<Authorization>) -> Self {
        let auth = auth.into();
        self.auth = (!auth.is_empty()).then_some(auth);
        // Views are keyed by another authorization's scope mapping.
        self.views = Arc::default();
        self
    }

    /// Lets [`Http::serve`] listen on a non-loopback address without [`Http::auth`]:
    /// for a network where every host is trusted. Without it such a server refuses to
    /// start, since anyone who reaches the port acts with the service's credentials.
    #[must_use]
    pub fn without_auth_off_loopback(mut self) -> Self {
        self.open = true;
        self
    }

    /// Connection and session limits (see [`Limits`]); the defaults otherwise.
    #[must_use]
    pub fn limits(mut self, limits: Limits) -> Self {
        self.sessions = Arc::new(sessions_for(&limits));
        self.callers = Arc::new(callers_for(&limits));
        self.limits = limits;
        self
    }

    /// Where the standalone server reports what goes wrong around requests (a failed
    /// accept, a full connection table), at most once a second; with the `tracing`
    /// feature these are also `WARN` events of target `toolwright::serve`.
    #[must_use]
    pub fn log(mut self, sink: impl Fn(&str) + Send + Sync + 'static) -> Self {
        self.log = listen::Log::new(Some(Arc::new(sink)));
        self
    }

    /// Serves at `path` instead of `/mcp`.
    #[must_use]
    pub fn path(mut self, path: impl Into<String>) -> Self {
        self.path = path.into();
        self
    }

    /// Also accepts browser requests from `origin` (`https://app.example.com`).
    #[must_use]
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
        #[cfg(feature = "mcp-oauth")]
        if let Some(Authorization::OAuth(oauth)) = &self.auth
            && let Some(response) = metadata(oauth, &request)
        {
            return response;
        }
        if request.uri().path() != self.path {
            return plain(StatusCode::NOT_FOUND, "not found");
        }
        if let Some(origin) = request.headers().get(header::ORIGIN) {
            let origin = origin.to_str().unwrap_or("");
            if !is_loopback_origin(origin) && !self.origins.contains(origin) {
                return plain(StatusCode::FORBIDDEN, "origin not allowed");
            }
        }
        let caller = match &self.auth {
            None => None,
            Some(auth) => {
                let presented = request
                    .headers()
                    .get(header::AUTHORIZATION)
                    .map(header::HeaderValue::as_bytes);
                let executor = self.server.current();
                match auth.caller(presented, executor.transport()).await {
                    Ok(caller) => Some(caller),
                    Err(refused) => return self.refuse(auth, &refused),
                }
            }
        };
        // A POST is answered in JSON-RPC, naming the versions spoken (below).
        if request.method() != Method::POST
            && let Some(version) = request.headers().get("mcp-protocol-version")
        {
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
            // Boxed: a large future (the whole request's state), kept off the stack.
            Method::POST => Box::pin(self.post(request, session, caller)).await,
            Method::DELETE => match session {
                Some(id) if self.sessions.end(&id, caller.as_ref().map(Caller::name)) => {
                    plain(StatusCode::OK, "")
                }
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

    /// A `401`/`403`/`503` saying why, with the challenge that tells a client what to do.
    fn refuse(&self, auth: &Authorization, refused: &auth::Refusal) -> Response<Body> {
        let mut response = plain(refused.status(), &refused.text());
        if let Ok(challenge) = header::HeaderValue::from_str(&auth.challenge(refused)) {
            response
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, challenge);
        }
        response
    }

    /// The server as `caller` sees it: every tool, or the ones its scopes grant.
    fn server_for(&self, caller: Option<&Caller>) -> Server {
        #[cfg(feature = "mcp-oauth")]
        if let (Some(Authorization::OAuth(oauth)), Some(caller)) = (&self.auth, caller)
            && let Some((key, view)) = oauth.view(caller)
        {
            // Keyed by the mapped scopes held, not the scope string: scopes that map
            // to nothing cannot make new views (the third security review's F5).
            let mut views = lock(&self.views);
            let server = match views.iter().position(|(held, _)| *held == key) {
                Some(at) => views.remove(at).1,
                None => self.server.view(view),
            };
            views.push((key, server.clone()));
            if views.len() > MAX_VIEWS {
                views.remove(0);
            }
            return server;
        }
        let _ = caller;
        self.server.clone()
    }

    /// `403 insufficient_scope` for a call of a tool the caller's scopes do not grant
    /// but others do (a client may then ask for more: step-up authorization); `None`
    /// when the call may go on (to be answered as any call, or as an unknown tool).
    fn beyond_scopes(&self, server: &Server, message: &Value) -> Option<Response<Body>> {
        #[cfg(feature = "mcp-oauth")]
        if let Some(auth @ Authorization::OAuth(oauth)) = &self.auth
            && message.get("method").and_then(Value::as_str) == Some("tools/call")
            && let Some(name) = message.pointer("/params/name").and_then(Value::as_str)
            && !server.is_service_tool(name)
            && server.tool_named(name).is_none()
            && let Some(tool) = self.server.tool_named(name)
        {
            let granting = oauth.scopes_granting(|selection| {
                crate::catalog::select::with_facts(&tool, |facts| selection.keeps(facts))
            });
            if !granting.is_empty() {
                return Some(
                    self.refuse(auth, &auth::Refusal::InsufficientScope(granting.join(" "))),
                );
            }
        }
        let _ = (server, message);
        None
    }

    async fn post<B>(
        &self,
        request: Request<B>,
        session: Option<String>,
        caller: Option<Caller>,
    ) -> Response<Body>
    where
        B: http_body::Body + Send,
        B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        // The caller's share covers the body as it arrives: a caller sending bodies
        // slowly holds its own places, not the server's.
        let owner = caller.as_ref().map(Caller::name);
        let share = match self.callers.share(owner) {
            Ok(share) => share,
            Err(refused) => return too_many(refused),
        };
        let (head, body) = request.into_parts();
        // A body a web page can send without a CORS preflight (`text/plain`, a form)
        // is not a JSON-RPC message: refused before it is read, so a page on another
        // local origin cannot run tools on a server without authorization.
        if !is_json(&head.headers) {
            return plain(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "an MCP message is sent with `Content-Type: application/json`",
            );
        }
        let accepts_event_stream = head
            .headers
            .get_all(header::ACCEPT)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .any(|v| v.contains("text/event-stream"));
        let read = Limited::new(body, MAX_MESSAGE).collect();
        let body = match tokio::time::timeout(self.limits.body_timeout, read).await {
            Ok(Ok(body)) => body.to_bytes(),
            Err(_) => {
                return plain(
                    StatusCode::REQUEST_TIMEOUT,
                    "the request body did not arrive in time",
                );
            }
            Ok(Err(e)) => {
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
        if let Some(why) = mirror::mismatch(&head.headers, &message) {
            let id = message.get("id").cloned().unwrap_or(Value::Null);
            return json(
                StatusCode::BAD_REQUEST,
                error(id, mirror::HEADER_MISMATCH, &why).to_string(),
                None,
            );
        }
        let method = message.get("method").and_then(Value::as_str);
        if method == Some("tools/call")
            && head
                .headers
                .get("mcp-protocol-version")
                .map(|v| v.as_bytes())
                == Some(MODERN_VERSION.as_bytes())
            && let Some(tool) = message.pointer("/params/name").and_then(Value::as_str)
            && let Some(why) = mirror::params_mismatch(
                &head.headers,
                &message,
                &self.server_for(caller.as_ref()).mirrored_headers(tool),
            )
        {
            let id = message.get("id").cloned().unwrap_or(Value::Null);
            return json(
                StatusCode::BAD_REQUEST,
                error(id, mirror::HEADER_MISMATCH, &why).to_string(),
                None,
            );
        }
        if let Some(refused) = stateless_refusal(&head.headers, &message) {
            return refused;
        }
        // A revision that is not a string is no revision: refused, not taken as a
        // request without one (which would skip the session a 2025 request needs).
        if let Some(version) =
            message.pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion")
            && !version.is_string()
        {
            let id = message.get("id").cloned().unwrap_or(Value::Null);
            return json(
                StatusCode::BAD_REQUEST,
                super::unsupported_version(id, &version.to_string()).to_string(),
                None,
            );
        }
        // A client's answer to a request this server sent on one of its session's
        // response streams: only from the session's own caller, only to that session.
        if method.is_none() && (message.get("result").is_some() || message.get("error").is_some()) {
            return match &session {
                Some(id) if self.sessions.touch(id, owner) => {
                    let peers = lock(&self.peers).get(id).cloned().unwrap_or_default();
                    peers.iter().any(|peer| peer.deliver(&message));
                    plain(StatusCode::ACCEPTED, "")
                }
                Some(_) => plain(
                    StatusCode::NOT_FOUND,
                    "unknown or ended session; initialize again",
                ),
                None => plain(
                    StatusCode::BAD_REQUEST,
                    "an answer to this server's request is sent in the session that was asked (Mcp-Session-Id)",
                ),
            };
        }
        let initialize = method == Some("initialize");
        // 2026-07-28 is stateless: no session, the revision rides on every request.
        let stateless = method == Some("server/discover")
            || message
                .pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion")
                .is_some();
        let issued = if initialize {
            let capabilities = message
                .pointer("/params/capabilities")
                .cloned()
                .unwrap_or_default();
            Some(self.sessions.start(owner, capabilities))
        } else if stateless {
            None
        } else {
            match &session {
                Some(id) if !self.sessions.touch(id, owner) => {
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
        // A call that may notify (progress asked, or a service tool), from a client
        // that takes event streams: answered as SSE, notifications first, as they happen.
        let server = self.server_for(caller.as_ref());
        let streams = accepts_event_stream && server.may_notify(&message);
        if let Some(refused) = self.beyond_scopes(&server, &message) {
            return refused;
        }
        // Calls, and reads and prompts that may run the service's code or an API
        // call, take their place among the calls in flight.
        let slot = if matches!(
            method,
            Some("tools/call" | "resources/read" | "prompts/get")
        ) {
            // Without authorization there is no caller to hold back: only the cap on
            // calls in flight applies.
            match self.callers.admit(owner) {
                Ok(slot) => Some(slot),
                Err(refused) => return too_many(refused),
            }
        } else {
            None
        };
        if streams {
            let asking = session.filter(|_| !stateless);
            let mut response = self.stream(server, message, issued, asking, caller, slot);
            response.body_mut().keep(share);
            return response;
        }
        // The session's client, for what it set (its log level). Nothing can be
        // asked of it outside a stream: it is taken as declaring no capability.
        // Only what uses it pays for it (a catalog call does not).
        let uses_client = match method {
            Some("logging/setLevel") => true,
            Some("tools/call") => message
                .pointer("/params/name")
                .and_then(Value::as_str)
                .is_some_and(|name| server.is_service_tool(name)),
            _ => false,
        };
        let client = session
            .as_deref()
            .filter(|_| !stateless && uses_client)
            .and_then(|id| self.sessions.client(id))
            .map(|client| {
                let (closed, _) = tokio::sync::mpsc::unbounded_channel();
                super::Peer::declared(closed, &serde_json::json!({}), client.log_level)
            });
        let answer = on_behalf(caller.as_ref(), server.respond_coded(message, client));
        let answer = crate::lease::within(leased(slot), answer).await;
        let mut response = match answer {
            // 2026-07-28 gives some errors their HTTP status too: an unknown (or
            // removed) method is `404`, a revision or capability problem `400`.
            Some((answer, Some(code))) if stateless => {
                let status = match code {
                    codes::METHOD_NOT_FOUND => StatusCode::NOT_FOUND,
                    codes::UNSUPPORTED_PROTOCOL_VERSION | codes::MISSING_CLIENT_CAPABILITY => {
                        StatusCode::BAD_REQUEST
                    }
                    _ => StatusCode::OK,
                };
                json(status, answer, issued)
            }
            Some((answer, _)) => json(StatusCode::OK, answer, issued),
            None => plain(StatusCode::ACCEPTED, ""),
        };
        response.body_mut().keep(share);
        response
    }

    /// The answer to `message` as `text/event-stream`: each notification the call
    /// sends, then the response, each one `message` event; the stream then ends.
    /// `asking`: the session whose client may be sent requests on this stream.
    fn stream(
        &self,
        server: Server,
        message: Value,
        session: Option<String>,
        asking: Option<String>,
        caller: Option<Caller>,
        slot: Option<callers::Slot>,
    ) -> Response<Body> {
        let (events, body) = tokio::sync::mpsc::unbounded_channel::<Bytes>();
        // Notifications, requests to the client and then the answer go through one
        // channel, so they reach the client in the order they were sent.
        let (messages, mut queued) = tokio::sync::mpsc::unbounded_channel::<String>();
        let peer = asking.and_then(|id| {
            let client = self.sessions.client(&id)?;
            let peer =
                super::Peer::declared(messages.clone(), &client.capabilities, client.log_level);
            Some(Registered::new(&self.peers, id, peer))
        });
        // The client going away (the body dropped) stops the call: nothing would
        // read its answer, and it must not hold its place meanwhile.
        let gone = events.clone();
        tokio::spawn(async move {
            let call = on_behalf(
                caller.as_ref(),
                server.respond_linked(
                    message,
                    Some(messages.clone()),
                    peer.as_ref().map(|r| r.peer.clone()),
                ),
            );
            // The place is held until the call's script engine (if any) has
            // stopped, however the call ends.
            let call = crate::lease::within(leased(slot), call);
            let answer = tokio::select! {
                answer = call => answer,
                () = gone.closed() => None,
            };
            drop(peer);
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
}

/// A stream's peer, listed under its session for as long as the call runs (removed
/// when dropped, however the call ends: a panic included).
struct Registered {
    peers: Arc<Mutex<HashMap<String, Vec<super::Peer>>>>,
    session: String,
    peer: super::Peer,
}

impl Registered {
    fn new(
        peers: &Arc<Mutex<HashMap<String, Vec<super::Peer>>>>,
        session: String,
        peer: super::Peer,
    ) -> Registered {
        lock(peers)
            .entry(session.clone())
            .or_default()
            .push(peer.clone());
        Registered {
            peers: Arc::clone(peers),
            session,
            peer,
        }
    }
}

impl Drop for Registered {
    fn drop(&mut self) {
        let mut peers = lock(&self.peers);
        if let Some(live) = peers.get_mut(&self.session) {
            live.retain(|p| !p.same(&self.peer));
            if live.is_empty() {
                peers.remove(&self.session);
            }
        }
    }
}

/// The views of the catalog made so far, each with the mapped scopes (their places
/// in the mapping) it is for, least recently used first.
type Views = Vec<(Vec<usize>, Server)>;

/// Views of the catalog kept (each holds its own export of the tools it shows); a
/// caller whose combination of mapped scopes fell out makes it again on its next
/// request.
#[cfg_attr(not(feature = "mcp-oauth"), allow(dead_code))]
const MAX_VIEWS: usize = 32;

fn sessions_for(limits: &Limits) -> sessions::Sessions {
    sessions::Sessions::new(
        limits.max_sessions,
        limits.max_sessions_per_caller,
        limits.session_ttl,
    )
}

fn callers_for(limits: &Limits) -> callers::Callers {
    callers::Callers::new(
        limits.calls_per_second_per_caller,
        limits.max_calls_in_flight,
        limits.max_requests_per_caller,
    )
}

/// `429` with `Retry-After` for a caller past its rate, `503` when every slot for
/// calls is taken: the client is told when to come back, nothing else changes.
fn too_many(refused: callers::Refused) -> Response<Body> {
    let (status, text, after) = match refused {
        callers::Refused::Rate(wait) => (
            StatusCode::TOO_MANY_REQUESTS,
            "too many calls from this caller; retry later",
            wait.as_secs_f64().ceil().max(1.0),
        ),
        callers::Refused::Share => (
            StatusCode::TOO_MANY_REQUESTS,
            "this caller has as many requests in progress as it may; retry when one is answered",
            1.0,
        ),
        callers::Refused::Busy => (
            StatusCode::SERVICE_UNAVAILABLE,
            "the server is answering as many calls as it takes; retry shortly",
            1.0,
        ),
    };
    let mut response = plain(status, text);
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, header::HeaderValue::from(after as u64));
    response
}

/// Runs `answer` for `caller`: the audit names them, and APIs that pass the caller's
/// token through get theirs.
/// The lease an answer runs in, holding its call's slot: freed when the answer is
/// done and any script it started has stopped (a script outlives a dropped request
/// until its engine's next interrupt poll).
fn leased(slot: Option<callers::Slot>) -> crate::lease::Lease {
    let lease = crate::lease::Lease::default();
    if let Some(slot) = slot {
        lease.hold(slot);
    }
    lease
}

async fn on_behalf<F: std::future::Future>(caller: Option<&Caller>, answer: F) -> F::Output {
    let name = caller.map(|c| Arc::<str>::from(c.name()));
    let token = caller.map(|c| Arc::<str>::from(c.token()));
    let claims = caller.and_then(|c| c.claims().cloned());
    crate::caller::on_behalf(name, token, claims, answer).await
}

/// RFC 9728's protected-resource metadata, at the well-known path for the resource
/// (`/.well-known/oauth-protected-resource/mcp`). Public: a client reads it before it
/// has a token. Not at the root well-known path unless the resource is the origin
/// itself: a client that derived the root URL from the origin must find `resource`
/// equal to the origin there (§3.3), which ours is not; the `401` challenge names the
/// right URL.
#[cfg(feature = "mcp-oauth")]
fn metadata<B>(oauth: &OAuth, request: &Request<B>) -> Option<Response<Body>> {
    const WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";
    let path = request.uri().path();
    let own = oauth.metadata_url();
    let own_path = own.find(WELL_KNOWN).map_or(WELL_KNOWN, |i| &own[i..]);
    if path == WELL_KNOWN && own_path != WELL_KNOWN {
        // Said in JSON, with where the document is, for a client that looked here.
        let body = serde_json::json!({
            "error": "not_found",
            "error_description": "this resource has a path: its metadata is at resource_metadata",
            "resource_metadata": own,
        });
        return Some(json(StatusCode::NOT_FOUND, body.to_string(), None));
    }
    if path != own_path {
        return None;
    }
    if request.method() != Method::GET {
        let mut response = plain(StatusCode::METHOD_NOT_ALLOWED, "use GET");
        response
            .headers_mut()
            .insert(header::ALLOW, header::HeaderValue::from_static("GET"));
        return Some(response);
    }
    let mut response = json(StatusCode::OK, oauth.metadata().to_string(), None);
    // Any web client may read it (the MCP authorization specification's browser clients).
    response.headers_mut().insert(
        header::ACCESS_CONTROL_ALLOW_ORIGIN,
        header::HeaderValue::from_static("*"),
    );
    Some(response)
}

/// Whether `origin` is a loopback web origin, read as browsers serialize one
/// (RFC 6454: `scheme://host[:port]`, nothing else). Anything more — user info
/// (`http://127.0.0.1:80@evil.example`, whose host is `evil.example`), a path, a
/// port that is not a number — is not an origin a browser sends, so it is refused.
fn is_loopback_origin(origin: &str) -> bool {
    let Some(authority) = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
    else {
        return false;
    };
    // The host, and what follows it: nothing, or `:` and the port.
    let (host, rest) = match authority.strip_prefix('[') {
        Some(v6) => v6.split_once(']').unwrap_or(("", "?")),
        None => authority.split_at(authority.find(':').unwrap_or(authority.len())),
    };
    let port_ok = match rest.strip_prefix(':') {
        Some(port) => !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()),
        None => rest.is_empty(),
    };
    port_ok && matches!(host, "localhost" | "127.0.0.1" | "::1")
}

/// The `400` a stateless (2026-07-28) request gets before it runs: a revision this
/// server does not speak (listing those it does, echoing the one asked for), or a
/// `_meta` without the revision or the client's capabilities (`-32602`).
fn stateless_refusal(headers: &http::HeaderMap, message: &Value) -> Option<Response<Body>> {
    let id = message.get("id").cloned().unwrap_or(Value::Null);
    let header = headers
        .get("mcp-protocol-version")
        .map(|v| v.to_str().unwrap_or("\u{fffd}"));
    if let Some(version) = header
        && !PROTOCOL_VERSIONS.contains(&version)
        && version != MODERN_VERSION
    {
        return Some(json(
            StatusCode::BAD_REQUEST,
            super::unsupported_version(id, version).to_string(),
            None,
        ));
    }
    let method = message.get("method").and_then(Value::as_str);
    if header != Some(MODERN_VERSION) && method != Some("server/discover") {
        return None;
    }
    let meta = message.pointer("/params/_meta");
    let missing = if meta.is_none_or(|m| !m.is_object()) {
        Some("`_meta`")
    } else if message
        .pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion")
        .is_none()
    {
        Some("`_meta[\"io.modelcontextprotocol/protocolVersion\"]`")
    } else if !message
        .pointer("/params/_meta/io.modelcontextprotocol~1clientCapabilities")
        .is_some_and(Value::is_object)
    {
        Some("`_meta[\"io.modelcontextprotocol/clientCapabilities\"]` (an object)")
    } else {
        None
    }?;
    Some(json(
        StatusCode::BAD_REQUEST,
        error(
            id,
            codes::INVALID_PARAMS,
            &format!(
                "a {MODERN_VERSION} request carries {missing}: the revision it speaks and the client's capabilities, on every request"
            ),
        )
        .to_string(),
        None,
    ))
}

/// Whether the request declares a JSON body (`application/json`, parameters allowed).
fn is_json(headers: &http::HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|media| media.trim().eq_ignore_ascii_case("application/json"))
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

/// The endpoint as a `tower::Service`, to mount in a service's own router beside its
/// routes (axum: `Router::new().route_service("/mcp", http)`) or wrap in its tower
/// layers. Never fails: every problem is an HTTP answer.
impl<B> tower_service::Service<Request<B>> for Http
where
    B: http_body::Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    type Response = Response<Body>;
    type Error = std::convert::Infallible;
    type Future = std::pin::Pin<
        Box<dyn std::future::Future<Output = Result<Response<Body>, Self::Error>> + Send>,
    >;

    fn poll_ready(
        &mut self,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), Self::Error>> {
        std::task::Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let http = self.clone();
        Box::pin(async move { Ok(http.handle(request).await) })
    }
}

/// A response body: whole (JSON, text) or streamed (SSE), as hyper sends it.
#[derive(Debug)]
pub struct Body {
    kind: BodyKind,
    /// Keeps the connection counted busy until the body is sent (or dropped).
    busy: Option<listen::Busy>,
    /// Keeps the request counted in its caller's share until the body is sent (a
    /// caller that stops reading its answers holds its own places, not others').
    share: Option<callers::Share>,
}

#[derive(Debug)]
enum BodyKind {
    Full(Option<Bytes>),
    Stream(tokio::sync::mpsc::UnboundedReceiver<Bytes>),
}

impl Body {
    fn full(text: String) -> Body {
        Body {
            kind: BodyKind::Full(Some(Bytes::from(text))),
            busy: None,
            share: None,
        }
    }

    fn stream(chunks: tokio::sync::mpsc::UnboundedReceiver<Bytes>) -> Body {
        Body {
            kind: BodyKind::Stream(chunks),
            busy: None,
            share: None,
        }
    }

    fn hold(&mut self, busy: listen::Busy) {
        self.busy = Some(busy);
    }

    fn keep(&mut self, share: callers::Share) {
        self.share = Some(share);
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
        match &mut self.kind {
            BodyKind::Full(bytes) => {
                Poll::Ready(bytes.take().map(|b| Ok(http_body::Frame::data(b))))
            }
            BodyKind::Stream(chunks) => chunks
                .poll_recv(cx)
                .map(|chunk| chunk.map(|b| Ok(http_body::Frame::data(b)))),
        }
    }

    fn is_end_stream(&self) -> bool {
        matches!(&self.kind, BodyKind::Full(None))
    }
}

/// A poisoned lock still guards data that is whole here: every update is one insert,
/// remove or counter change.
fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
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
        let mut request = Request::post("/mcp").header("content-type", "application/json");
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
        // 2025-03-26 is still spoken (many clients in the field).
        let march = [
            ("mcp-session-id", session.as_str()),
            ("mcp-protocol-version", "2025-03-26"),
        ];
        assert_eq!(http.handle(post(&ping, &march)).await.status(), 200);
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
            .header("content-type", "application/json")
            .body(Full::new(Bytes::from("{")))
            .unwrap();
        let response = http.handle(bad).await;
        assert_eq!(response.status(), 400);
        assert!(text(response).await.contains("-32700"));
        // A body not declared JSON (what a page sends without a preflight) is refused
        // unread; a media type's parameters and case do not matter.
        for (declared, status) in [
            (None, 415),
            (Some("text/plain;charset=UTF-8"), 415),
            (Some("application/x-www-form-urlencoded"), 415),
            (Some("application/jsonp"), 415),
            (Some("Application/JSON; charset=utf-8"), 400),
        ] {
            let mut request = Request::post("/mcp");
            if let Some(declared) = declared {
                request = request.header("content-type", declared);
            }
            let request = request.body(Full::new(Bytes::from("{"))).unwrap();
            assert_eq!(http.handle(request).await.status(), status, "{declared:?}");
        }
    }

    #[tokio::test]
    async fn a_modern_request_without_its_mirrored_headers_is_refused_before_it_runs() {
        let http = endpoint();
        let list = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/list", "params": {
            "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                      "io.modelcontextprotocol/clientCapabilities": {}}}});
        let response = http.handle(post(&list, &[])).await;
        assert_eq!(response.status(), 400);
        let answer: Value = serde_json::from_str(&text(response).await).unwrap();
        assert_eq!(answer["id"], 7);
        assert_eq!(answer["error"]["code"], -32020);
        let mirrored = [
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "tools/list"),
        ];
        assert_eq!(http.handle(post(&list, &mirrored)).await.status(), 200);
        // Without the client's capabilities, or without `_meta` at all: `400`, `-32602`.
        for params in [
            json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}),
            json!({}),
        ] {
            let bare = json!({"jsonrpc": "2.0", "id": 8, "method": "tools/list", "params": params});
            let response = http.handle(post(&bare, &mirrored)).await;
            assert_eq!(response.status(), 400, "{params}");
            let answer: Value = serde_json::from_str(&text(response).await).unwrap();
            assert_eq!(answer["error"]["code"], -32602, "{params}");
        }
        // Removed and unknown methods: `404`, `-32601`.
        for method in ["initialize", "ping", "logging/setLevel", "no/such"] {
            let call = json!({"jsonrpc": "2.0", "id": 9, "method": method, "params": {
                "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                          "io.modelcontextprotocol/clientCapabilities": {}}}});
            let headers = [
                ("mcp-protocol-version", "2026-07-28"),
                ("mcp-method", method),
            ];
            let response = http.handle(post(&call, &headers)).await;
            assert_eq!(response.status(), 404, "{method}");
            let answer: Value = serde_json::from_str(&text(response).await).unwrap();
            assert_eq!(answer["error"]["code"], -32601, "{method}");
        }
    }

    #[test]
    fn only_browser_serialized_loopback_origins_are_loopback() {
        for origin in [
            "http://localhost",
            "http://localhost:5173",
            "https://127.0.0.1:8443",
            "http://[::1]:80",
            "http://[::1]",
        ] {
            assert!(is_loopback_origin(origin), "{origin}");
        }
        for origin in [
            "http://127.0.0.1:80@evil.example",
            "http://localhost@evil.example",
            "http://evil.example",
            "http://localhost.evil.example",
            "http://127.0.0.1:",
            "http://127.0.0.1:80/path",
            "http://[::1]@evil.example",
            "http://[::1",
            "localhost",
            "null",
            "file://localhost",
        ] {
            assert!(!is_loopback_origin(origin), "{origin}");
        }
    }
}
