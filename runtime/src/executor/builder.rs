//! Configuring an executor: where each API lives, how requests travel, what runs
//! beside the generated tools; `build()` checks it all and works out each tool's
//! state once.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use super::{Executor, Inner, state, streaming};
use crate::auth::{self, CredentialSource};
use crate::catalog::{Catalog, Reranker, Tool};
use crate::descriptor::Operation;
use crate::error::{Error, TransportError};
use crate::gate;
use crate::resource::{Handler, LOCAL_API, Resource, Verb, handler, verb_tools};
use crate::transport::{CallPolicy, Limit, ResponseFuture, Transport, rate_limit};
#[cfg(feature = "mcp-client")]
use crate::transport::{McpHttp, McpStdio};
#[cfg(feature = "reqwest")]
use crate::transport::{RateLimit, ReqwestTransport, Retry};

/// A registered resource: its verb tools and the handler that answers them.
type Registered = (Vec<(Verb, Tool)>, Arc<dyn Handler>);

/// Configures an [`Executor`]: where each API lives, how requests travel, what runs
/// beside the generated tools.
///
/// ```no_run
/// # fn catalog() -> toolwright::Catalog { toolwright::Catalog::empty() }
/// # fn main() -> Result<(), toolwright::Error> {
/// let executor = toolwright::Executor::builder(catalog()) // the generated catalog
///     .base_url("tracker", "https://staging.tracker.example.com/api/v1") // never from arguments
///     .build()?;
/// // Every call of this handle gives up after 10 s; clones share everything else.
/// let quick = executor.with_timeout(std::time::Duration::from_secs(10));
/// # let _ = quick;
/// # Ok(())
/// # }
/// ```
#[must_use = "a builder does nothing until `build()`"]
pub struct ExecutorBuilder {
    catalog: Catalog,
    /// The first configuration error a method met, reported by `build()`.
    deferred: Option<Error>,
    media_types: BTreeMap<String, String>,
    resources: Vec<Registered>,
    transport: Option<Arc<dyn Transport>>,
    base_urls: BTreeMap<String, String>,
    credentials: CredentialSource,
    token_urls: BTreeMap<String, String>,
    /// APIs called on the MCP caller's behalf instead of with the service's
    /// credentials: with the caller's own token, or one exchanged for it.
    pass_through: BTreeMap<String, auth::CallerCredential>,
    policy: CallPolicy,
    streams: streaming::Limits,
    limits: Vec<(String, Limit)>,
    gate: gate::Policy,
    custom_gate: bool,
    approver: Option<gate::Approver>,
    reranker: Option<Arc<dyn Reranker>>,
    /// MCP servers answering the tools of `mcp://` APIs, by API name.
    #[cfg(feature = "mcp-client")]
    mcp: BTreeMap<String, McpServer>,
}

/// An MCP server the executor sends an API's tools to.
#[cfg(feature = "mcp-client")]
#[derive(Debug, Clone)]
pub(super) enum McpServer {
    Stdio(Arc<McpStdio>),
    Http(Arc<McpHttp>),
}

impl fmt::Debug for ExecutorBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ExecutorBuilder")
            .field("tools", &self.catalog.tools().len())
            .field("base_urls", &self.base_urls)
            .field("policy", &self.policy)
            .field("limits", &self.limits)
            .field("approver", &self.approver.is_some())
            .field("reranker", &self.reranker.is_some())
            .finish_non_exhaustive()
    }
}

impl fmt::Debug for dyn Handler {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Handler")
    }
}

impl fmt::Debug for dyn Transport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Transport")
    }
}

impl ExecutorBuilder {
    /// The APIs given an MCP server.
    fn mcp_apis(&self) -> impl Iterator<Item = &String> {
        #[cfg(feature = "mcp-client")]
        let apis = self.mcp.keys();
        #[cfg(not(feature = "mcp-client"))]
        let apis = std::iter::empty();
        apis
    }

    /// Sends requests through `transport` instead of the default one.
    pub fn transport(mut self, transport: impl Transport) -> Self {
        self.transport = Some(Arc::new(transport));
        self
    }

    /// Overrides the base URL of API `api` (for staging, or a loopback test server).
    /// Arguments can never change it.
    pub fn base_url(mut self, api: impl Into<String>, url: impl Into<String>) -> Self {
        self.base_urls.insert(api.into(), url.into());
        self
    }

    /// Serves a resource: its declared verbs become tools (`get_Product`, ...) in the
    /// executor's catalog, and calling them by name runs `resource`.
    pub fn resource<R: Resource>(mut self, resource: R) -> Self {
        self.resources
            .push((verb_tools::<R::Record>(), handler(resource)));
        self
    }

    /// Sends `tool`'s request body as `media_type`, one of the media types its
    /// description lists (see [`Tool::request_media_types`]), instead of the preferred one
    /// (JSON > form > multipart > other). Applies to typed and by-name calls.
    pub fn media_type(mut self, tool: impl Into<String>, media_type: impl Into<String>) -> Self {
        self.media_types.insert(tool.into(), media_type.into());
        self
    }

    /// Each call's total time, retries and waits included (default 60 s; never
    /// unbounded). [`Executor::with_timeout`] changes it per call.
    pub fn timeout(mut self, timeout: std::time::Duration) -> Self {
        self.policy.timeout = timeout;
        self
    }

    /// Time to establish a connection, for the default transport (default 10 s).
    pub fn connect_timeout(mut self, timeout: std::time::Duration) -> Self {
        self.policy.connect_timeout = timeout;
        self
    }

    /// Attempts per call in all (default 3; 1 turns retries off). Only idempotent
    /// operations are sent again — GET, HEAD, OPTIONS, PUT and DELETE unless declared
    /// `non_idempotent`, others only when declared idempotent — after a connection
    /// failure or timeout, or a 429/502/503/504 (honouring `Retry-After`).
    pub fn max_attempts(mut self, attempts: u32) -> Self {
        self.policy.max_attempts = attempts.max(1);
        self
    }

    /// Largest response body a call accepts (default 10 MB); larger ones fail with
    /// `UPSTREAM_BODY_TOO_LARGE` without being read further.
    pub fn max_response_bytes(mut self, bytes: usize) -> Self {
        self.policy.max_response_bytes = bytes;
        self
    }

    /// Largest body a streamed answer may have (`<method>_stream`, `_events`,
    /// `_lines`, [`Executor::call_stream`]); none by default: a stream's memory stays
    /// flat however long it is.
    pub fn max_stream_bytes(mut self, bytes: u64) -> Self {
        self.streams.max_bytes = Some(bytes);
        self
    }

    /// Longest wait for the next chunk of a streamed answer (default 30 s); the
    /// call's timeout bounds only the wait for its head.
    pub fn idle_timeout(mut self, timeout: std::time::Duration) -> Self {
        self.streams.idle = timeout;
        self
    }

    /// Holds `api`'s requests to `limit` (on top of the limits its adapter declares in
    /// `rate_limits`), shared by all concurrent calls and clones of the executor. A
    /// call that would wait past its timeout fails with `RATE_LIMIT_CLIENT`.
    /// Enforced with the `reqwest` feature (it brings the timer).
    pub fn rate_limit(mut self, api: impl Into<String>, limit: Limit) -> Self {
        self.limits.push((api.into(), limit));
        self
    }

    /// Reorders the lexical search's top candidates with a model the service brings,
    /// for `search_tools` ([`Executor::call_meta`], the MCP server's meta mode) and
    /// [`Executor::search`]. Without one the lexical order stands (the default).
    pub fn reranker(mut self, reranker: impl Reranker + 'static) -> Self {
        self.reranker = Some(Arc::new(reranker));
        self
    }

    /// Decides which by-name calls (what models make) run, need approval, or never
    /// run (default [`gate::default_policy`](crate::gate::default_policy): `forbidden`
    /// never, `dangerous` or `requires_confirmation` after approval).
    pub fn gate(
        mut self,
        policy: impl Fn(&gate::PendingCall) -> gate::Verdict + Send + Sync + 'static,
    ) -> Self {
        self.gate = Arc::new(policy);
        self.custom_gate = true;
        self
    }

    /// Asks `approve` before a call the gate wants confirmed; it runs if the future
    /// gives `true`. Without one, such calls fail with `CONFIRMATION_REQUIRED`.
    pub fn approve_with<F, Fut>(mut self, approve: F) -> Self
    where
        F: Fn(gate::PendingCall) -> Fut + Send + Sync + 'static,
        Fut: std::future::Future<Output = bool> + Send + 'static,
    {
        self.approver = Some(Arc::new(move |call| Box::pin(approve(call))));
        self
    }

    /// Reads credentials from `source` instead of the process environment.
    pub fn credentials(mut self, source: CredentialSource) -> Self {
        self.credentials = source;
        self
    }

    /// Fetches API `api`'s OAuth 2 client credentials tokens from `url` instead of
    /// the token endpoint its description names (a staging identity provider, a
    /// loopback test server). Plain `http://` is refused except on loopback.
    pub fn token_url(mut self, api: impl Into<String>, url: impl Into<String>) -> Self {
        self.token_urls.insert(api.into(), url.into());
        self
    }

    /// Calls API `api` with the MCP caller's own access token (`Authorization: Bearer`)
    /// instead of the credentials its description names: each call a client makes
    /// through an [`Http`](crate::serve::mcp::Http) endpoint with authorization carries
    /// that client's token, and only on its own calls. A call without an authenticated
    /// caller (stdio, typed, by name in the service) is refused, never sent with the
    /// service's credentials. Feature `mcp-http`.
    #[cfg(feature = "mcp-http")]
    pub fn pass_through(mut self, api: impl Into<String>) -> Self {
        self.pass_through
            .insert(api.into(), auth::CallerCredential::Token);
        self
    }

    /// Calls API `api` with the value of claim `claim` of each MCP caller's access
    /// token (`Authorization: Bearer <value>`): for identity providers that put the
    /// caller's token for a downstream API in a claim of the token they issue. A call
    /// whose caller's token lacks the claim (or has a non-string one, or is a static
    /// token) is refused, never sent with the service's credentials. Feature `mcp-http`.
    #[cfg(feature = "mcp-http")]
    pub fn pass_through_claim(mut self, api: impl Into<String>, claim: impl Into<String>) -> Self {
        self.pass_through
            .insert(api.into(), auth::CallerCredential::Claim(claim.into()));
        self
    }

    /// Calls API `api` on behalf of each MCP caller with a token exchanged for the
    /// caller's own (RFC 8693 token exchange at `exchange`'s token endpoint): the API
    /// gets a token issued for it, naming the caller, instead of the MCP endpoint's
    /// token (which [`pass_through`](Self::pass_through) forwards as it is). Exchanged
    /// tokens are cached per caller token until shortly before they expire, and
    /// replaced once when the API answers 401. A call without an authenticated caller is
    /// refused, never sent with the service's credentials. Feature `mcp-http`.
    #[cfg(feature = "mcp-http")]
    pub fn pass_through_exchanged(
        mut self,
        api: impl Into<String>,
        exchange: auth::TokenExchange,
    ) -> Self {
        self.pass_through
            .insert(api.into(), auth::CallerCredential::Exchange(exchange));
        self
    }

    /// Answers the tools of MCP API `api` (read from a saved `tools/list`; its base URL
    /// is `mcp://<api>`) through the MCP server started as `program args...` over
    /// stdio, on the first call (feature `mcp-client`).
    #[cfg(feature = "mcp-client")]
    pub fn mcp_stdio(
        mut self,
        api: impl Into<String>,
        program: impl Into<String>,
        args: impl IntoIterator<Item = impl Into<String>>,
    ) -> Self {
        self.mcp.insert(
            api.into(),
            McpServer::Stdio(Arc::new(McpStdio::new(program, args))),
        );
        self
    }

    /// Sends the tools of MCP API `api` to the server at `url` over streamable HTTP
    /// (feature `mcp-client`), through the executor's transport. A `url` that is not
    /// `https://`, or `http://` to a loopback host, fails [`build`](Self::build), as
    /// every other configuration error does.
    #[cfg(feature = "mcp-client")]
    pub fn mcp_http(mut self, api: impl Into<String>, url: &str) -> Self {
        let api = api.into();
        match McpHttp::new(url) {
            Ok(server) => self.mcp_http_server(api, server),
            Err(message) => {
                self.deferred.get_or_insert(Error::Config {
                    message: format!("the MCP server of `{api}`: {message}"),
                });
                self
            }
        }
    }

    /// [`ExecutorBuilder::mcp_http`] with a server configured by the service (headers
    /// such as `Authorization`: [`McpHttp::header`](crate::transport::McpHttp::header)).
    #[cfg(feature = "mcp-client")]
    pub fn mcp_http_server(mut self, api: impl Into<String>, server: McpHttp) -> Self {
        self.mcp
            .insert(api.into(), McpServer::Http(Arc::new(server)));
        self
    }

    /// Finishes the executor.
    ///
    /// # Errors
    /// A base URL override names an API the catalog does not have or holds a query or
    /// fragment, a media type choice names an unknown tool or a media type it does not
    /// list, or the default transport cannot start.
    pub fn build(self) -> Result<Executor, Error> {
        if let Some(error) = self.deferred {
            return Err(error);
        }
        self.check_apis()?;
        let (catalog, handlers) = with_resources(self.catalog, self.resources)?;
        let chosen = chosen_media_types(&catalog, &self.media_types)?;
        let mut limits = self.limits;
        for api in catalog.apis() {
            for limit in rate_limit::declared(&api.meta_json()) {
                limits.push((api.name.to_string(), limit));
            }
        }
        let tools = state::states(&catalog, handlers, chosen, &limits);
        // An API without tools is still remote: typed calls through `apis_only()`
        // reach it with no tool in the catalog.
        let remote = catalog
            .tools()
            .iter()
            .map(|t| &*t.operation.api)
            .chain(catalog.apis().iter().map(|a| &*a.name))
            .any(|api| api != LOCAL_API);
        let transport = match self.transport {
            Some(t) => layered(t, limits),
            None if remote => default_transport(&self.policy, limits)?,
            // Only the service's own tools: no HTTP client needed (nor the `reqwest`
            // feature).
            None => Arc::new(NoTransport),
        };
        let trust = catalog
            .apis()
            .iter()
            .filter_map(|api| {
                let level = api
                    .meta_json()
                    .pointer("/trust/level")?
                    .as_str()?
                    .to_owned();
                Some((api.name.to_string(), level))
            })
            .collect();
        let graphql_types = catalog
            .apis()
            .iter()
            .filter(|a| a.graphql.is_some())
            .map(|a| (a.name.to_string(), std::sync::OnceLock::new()))
            .collect();
        Ok(Executor {
            policy: self.policy,
            received: None,
            inner: Arc::new(Inner {
                catalog,
                tools,
                transport,
                base_urls: self.base_urls,
                credentials: self.credentials,
                tokens: auth::oauth::Tokens::default(),
                token_urls: self.token_urls,
                pass_through: self.pass_through,
                trust,
                gate: self.gate,
                custom_gate: self.custom_gate,
                approver: self.approver,
                reranker: self.reranker,
                #[cfg(feature = "mcp-client")]
                mcp: self.mcp,
                graphql_types,
                streams: self.streams,
            }),
        })
    }

    /// Every API the service configured is one of the catalog's, and no base URL
    /// override holds a query or fragment.
    fn check_apis(&self) -> Result<(), Error> {
        if let Some(name) = self
            .base_urls
            .keys()
            .chain(self.token_urls.keys())
            .chain(self.pass_through.keys())
            .chain(self.mcp_apis())
            .find(|n| self.catalog.api(n).is_none())
        {
            return Err(Error::UnknownApi { name: name.clone() });
        }
        // Operation paths are appended to the base URL: a query or fragment in it would
        // swallow every one of them.
        if let Some((api, url)) = self.base_urls.iter().find(|(_, u)| u.contains(['?', '#'])) {
            return Err(Error::Config {
                message: format!(
                    "the base URL for `{api}` (`{}`) holds a query or fragment, which would swallow every operation's path; give scheme, host and path only",
                    url.split(['?', '#']).next().unwrap_or(url)
                ),
            });
        }
        Ok(())
    }
}

/// The handlers of the service's own tools, by tool name.
type Handlers = BTreeMap<String, (Arc<dyn Handler>, Verb)>;

/// `catalog` with the verb tools of the registered resources, and their handlers.
fn with_resources(
    mut catalog: Catalog,
    resources: Vec<Registered>,
) -> Result<(Catalog, Handlers), Error> {
    let mut handlers = BTreeMap::new();
    for (verb_tools, handler) in resources {
        let mut tools = Vec::with_capacity(verb_tools.len());
        for (verb, tool) in verb_tools {
            handlers.insert(tool.name.to_string(), (handler.clone(), verb));
            tools.push(tool);
        }
        let added =
            Catalog::from_tools(tools, Vec::new()).map_err(|message| Error::Catalog { message })?;
        catalog = catalog
            .merge(added)
            .map_err(|message| Error::Catalog { message })?;
    }
    Ok((catalog, handlers))
}

/// The operations sent with the media type the service chose, by tool name.
fn chosen_media_types(
    catalog: &Catalog,
    choices: &BTreeMap<String, String>,
) -> Result<BTreeMap<String, Operation>, Error> {
    choices
        .iter()
        .map(|(name, media)| {
            let tool = catalog.get(name).ok_or_else(|| Error::UnknownTool {
                name: name.clone(),
                suggestion: catalog.suggest(name).map(str::to_owned),
            })?;
            let op = tool
                .with_media_type(media)
                .map_err(|message| Error::Catalog { message })?;
            Ok((name.clone(), op))
        })
        .collect()
}

/// Stands in when every tool is local; never reached by them.
struct NoTransport;

impl Transport for NoTransport {
    fn send(&self, _: http::Request<Vec<u8>>) -> ResponseFuture<'_> {
        Box::pin(std::future::ready(Err(TransportError::new(
            "no transport configured: this executor was built for local tools only",
        ))))
    }
}

#[cfg(feature = "reqwest")]
fn default_transport(
    policy: &CallPolicy,
    limits: Vec<(String, Limit)>,
) -> Result<Arc<dyn Transport>, Error> {
    let transport =
        ReqwestTransport::with_connect_timeout(policy.connect_timeout).map_err(Error::Transport)?;
    // Retries outside the limiter: every attempt counts against the limit.
    let limited = layered(Arc::new(transport), limits);
    Ok(Arc::new(Retry::new(limited)))
}

/// `transport` behind the rate limiter, when there are limits.
#[cfg(feature = "reqwest")]
fn layered(transport: Arc<dyn Transport>, limits: Vec<(String, Limit)>) -> Arc<dyn Transport> {
    if limits.is_empty() {
        transport
    } else {
        Arc::new(RateLimit::new(transport, limits))
    }
}

#[cfg(not(feature = "reqwest"))]
fn layered(transport: Arc<dyn Transport>, _: Vec<(String, Limit)>) -> Arc<dyn Transport> {
    transport
}

#[cfg(not(feature = "reqwest"))]
fn default_transport(_: &CallPolicy, _: Vec<(String, Limit)>) -> Result<Arc<dyn Transport>, Error> {
    Err(Error::Transport(TransportError::new(
        "no transport configured: enable the `reqwest` feature or call `.transport(...)`",
    )))
}

impl Executor {
    /// Starts configuring an executor for `catalog`.
    pub fn builder(catalog: Catalog) -> ExecutorBuilder {
        ExecutorBuilder {
            catalog,
            deferred: None,
            resources: Vec::new(),
            media_types: BTreeMap::new(),
            transport: None,
            base_urls: BTreeMap::new(),
            credentials: CredentialSource::env(),
            token_urls: BTreeMap::new(),
            pass_through: BTreeMap::new(),
            policy: CallPolicy::default(),
            streams: streaming::Limits::default(),
            limits: Vec::new(),
            gate: Arc::new(gate::default_policy),
            custom_gate: false,
            approver: None,
            reranker: None,
            #[cfg(feature = "mcp-client")]
            mcp: BTreeMap::new(),
        }
    }
}
