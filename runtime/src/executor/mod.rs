//! The one generic executor. Typed client methods and call-by-name both end here:
//! descriptor + JSON arguments -> request -> transport -> status check -> JSON.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use crate::auth::{self, CredentialSource};
use crate::catalog::{Catalog, Tool};
use crate::descriptor::Operation;
use crate::error::Error;
use crate::resource::{ErrorKind, Handler, Resource, Verb, handler};
use crate::transport::{CallPolicy, Transport};
use crate::validate;

mod paging;
mod streaming;

/// A by-name call's result.
pub(crate) struct Answer {
    /// The structured result.
    pub value: Value,
    /// The result is bytes (base64 text, maybe wrapped in `{"result": ...}`) of this
    /// media type (an MCP server sends them as content blocks of that type).
    #[cfg_attr(not(feature = "mcp"), allow(dead_code))]
    pub bytes_of: Option<String>,
}

impl Answer {
    fn value(value: Value) -> Answer {
        Answer {
            value,
            bytes_of: None,
        }
    }
}

/// A success response, as the executor hands it on.
pub(crate) struct Reply {
    pub status: u16,
    pub headers: http::HeaderMap,
    pub body: Value,
}

/// Runs the tools of a [`Catalog`]. Cheap to clone (shared state behind an `Arc`).
///
/// The catalog usually comes from `toolwright-codegen` (`catalog()` in the generated
/// `toolwright.rs`); here it is empty and a service's own resource answers the call:
///
/// ```
/// use serde::{Deserialize, Serialize};
/// use toolwright::{Catalog, Executor, Resource, ToolSchema, resource::ResourceError};
///
/// /// A city.
/// #[derive(Clone, ToolSchema, Serialize, Deserialize)]
/// #[tool(resource(get))]
/// struct City {
///     /// Its name.
///     #[tool(primary_key)]
///     name: String,
///     /// Inhabitants.
///     population: u32,
/// }
///
/// /// The service's own store of cities.
/// struct Cities;
///
/// impl Resource for Cities {
///     type Record = City;
///     async fn get(&self, name: String) -> Result<City, ResourceError> {
///         Ok(City { name, population: 1_000 })
///     }
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let executor = Executor::builder(Catalog::empty()).resource(Cities).build()?;
/// // By name, with JSON arguments, as a model sends them:
/// let city = executor.call("get_City", serde_json::json!({"name": "Lyon"})).await?;
/// assert_eq!(city["population"], 1000);
/// // A model's mistake is refused before anything runs, naming the argument:
/// let error = executor.call("get_City", serde_json::json!({})).await.unwrap_err();
/// assert_eq!(error.code(), "VALIDATION_ARGUMENTS");
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct Executor {
    inner: Arc<Inner>,
    /// Limits every call carries to the transport (see [`Executor::with_timeout`]).
    policy: CallPolicy,
    /// Where the transport counts the bytes of answers as they arrive (an MCP call
    /// whose client asked for progress).
    received: Option<Arc<crate::transport::Received>>,
}

struct Inner {
    catalog: Catalog,
    /// Tools the service answers itself (resources), by tool name.
    handlers: BTreeMap<String, (Arc<dyn Handler>, Verb)>,
    transport: Arc<dyn Transport>,
    base_urls: BTreeMap<String, String>,
    credentials: CredentialSource,
    /// OAuth 2 tokens fetched for client credentials schemes.
    tokens: auth::oauth::Tokens,
    /// Token endpoints set by the service, by API name (else the scheme's own).
    token_urls: BTreeMap<String, String>,
    /// APIs called on the MCP caller's behalf instead of with the service's
    /// credentials: with the caller's own token, or one exchanged for it.
    pass_through: BTreeMap<String, auth::CallerCredential>,
    /// Operations sent with another of their request media types, by tool name.
    media_types: BTreeMap<String, Operation>,
    /// Each tool's input schema, compiled on the tool's first call.
    /// (indexed like the catalog's tools: no lookup by name on the call path).
    checks: Vec<std::sync::OnceLock<validate::SchemaCheck>>,
    /// Who each request of a rate-limited API is for (by tool name), worked out once.
    targets: BTreeMap<String, crate::transport::CallTarget>,
    /// How paginated tools page (by tool name), read once from their metadata.
    plans: BTreeMap<String, crate::paginate::Plan>,
    gate: crate::gate::Policy,
    /// Set by [`ExecutorBuilder::gate`]: every call is shown to the policy.
    custom_gate: bool,
    /// Each API's declared trust level (`trust.level`), by API name.
    trust: BTreeMap<String, String>,
    /// Which tools declare a danger level or ask for confirmation (indexed like the
    /// catalog's tools): the default gate skips the others without reading metadata.
    declares: Vec<bool>,
    approver: Option<crate::gate::Approver>,
    /// MCP servers answering the tools of `mcp://` APIs, by API name.
    #[cfg(feature = "mcp-client")]
    mcp: BTreeMap<String, McpServer>,
    /// Each GraphQL API's output types, read on the first `selection` argument.
    graphql_types: BTreeMap<String, std::sync::OnceLock<crate::graphql::TypeTable>>,
    /// Limits of streamed answers.
    streams: streaming::Limits,
    /// Tools whose answer is a stream of events or lines (by tool name): a by-name
    /// call collects it.
    stream_forms: BTreeMap<String, streaming::Form>,
}

impl fmt::Debug for Executor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Executor")
            .field("tools", &self.inner.catalog.tools().len())
            .field("base_urls", &self.inner.base_urls)
            .finish_non_exhaustive()
    }
}

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
    limits: Vec<(String, crate::transport::Limit)>,
    gate: crate::gate::Policy,
    custom_gate: bool,
    approver: Option<crate::gate::Approver>,
    /// MCP servers answering the tools of `mcp://` APIs, by API name.
    #[cfg(feature = "mcp-client")]
    mcp: BTreeMap<String, McpServer>,
}

/// An MCP server the executor sends an API's tools to.
#[cfg(feature = "mcp-client")]
#[derive(Debug, Clone)]
enum McpServer {
    Stdio(Arc<crate::transport::McpStdio>),
    Http(Arc<crate::transport::McpHttp>),
}

impl fmt::Debug for ExecutorBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ExecutorBuilder")
            .field("tools", &self.catalog.tools().len())
            .field("base_urls", &self.base_urls)
            .field("policy", &self.policy)
            .field("limits", &self.limits)
            .field("approver", &self.approver.is_some())
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
        self.resources.push((
            crate::resource::verb_tools::<R::Record>(),
            handler(resource),
        ));
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
    pub fn rate_limit(mut self, api: impl Into<String>, limit: crate::transport::Limit) -> Self {
        self.limits.push((api.into(), limit));
        self
    }

    /// Decides which by-name calls (what models make) run, need approval, or never
    /// run (default [`gate::default_policy`](crate::gate::default_policy): `forbidden`
    /// never, `dangerous` or `requires_confirmation` after approval).
    pub fn gate(
        mut self,
        policy: impl Fn(&crate::gate::PendingCall) -> crate::gate::Verdict + Send + Sync + 'static,
    ) -> Self {
        self.gate = Arc::new(policy);
        self.custom_gate = true;
        self
    }

    /// Asks `approve` before a call the gate wants confirmed; it runs if the future
    /// gives `true`. Without one, such calls fail with `CONFIRMATION_REQUIRED`.
    pub fn approve_with<F, Fut>(mut self, approve: F) -> Self
    where
        F: Fn(crate::gate::PendingCall) -> Fut + Send + Sync + 'static,
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
            McpServer::Stdio(Arc::new(crate::transport::McpStdio::new(program, args))),
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
        match crate::transport::McpHttp::new(url) {
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
    pub fn mcp_http_server(
        mut self,
        api: impl Into<String>,
        server: crate::transport::McpHttp,
    ) -> Self {
        self.mcp
            .insert(api.into(), McpServer::Http(Arc::new(server)));
        self
    }

    /// Finishes the executor.
    ///
    /// # Errors
    /// A base URL override names an API the catalog does not have or holds a query or
    /// fragment, or the default transport cannot start.
    pub fn build(self) -> Result<Executor, Error> {
        if let Some(error) = self.deferred {
            return Err(error);
        }
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
        let mut catalog = self.catalog;
        let mut handlers = BTreeMap::new();
        for (verb_tools, handler) in self.resources {
            let mut tools = Vec::with_capacity(verb_tools.len());
            for (verb, tool) in verb_tools {
                handlers.insert(tool.name.to_string(), (handler.clone(), verb));
                tools.push(tool);
            }
            catalog = catalog
                .merge(
                    Catalog::from_tools(tools, Vec::new())
                        .map_err(|message| Error::Catalog { message })?,
                )
                .map_err(|message| Error::Catalog { message })?;
        }
        let mut media_types = BTreeMap::new();
        for (name, media) in &self.media_types {
            let tool = catalog.get(name).ok_or_else(|| Error::UnknownTool {
                name: name.clone(),
                suggestion: catalog.suggest(name).map(str::to_owned),
            })?;
            let op = tool
                .with_media_type(media)
                .map_err(|message| Error::Catalog { message })?;
            media_types.insert(name.clone(), op);
        }
        let remote = catalog
            .tools()
            .iter()
            .any(|t| t.operation.api != crate::resource::LOCAL_API);
        let mut limits = self.limits;
        for api in catalog.apis() {
            for limit in crate::transport::rate_limit::declared(&api.meta_json()) {
                limits.push((api.name.to_string(), limit));
            }
        }
        let targets: BTreeMap<String, crate::transport::CallTarget> = catalog
            .tools()
            .iter()
            .filter(|t| limits.iter().any(|(api, _)| *api == t.operation.api))
            .map(|t| (t.name.to_string(), call_target(t)))
            .collect();
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
        let declares = catalog
            .tools()
            .iter()
            .map(|t| {
                t.meta.as_deref().is_some_and(|m| {
                    m.contains("\"dangerLevel\"") || m.contains("\"requiresConfirmation\"")
                })
            })
            .collect();
        let checks = (0..catalog.tools().len())
            .map(|_| std::sync::OnceLock::new())
            .collect();
        let graphql_types = catalog
            .apis()
            .iter()
            .filter(|a| a.graphql.is_some())
            .map(|a| (a.name.to_string(), std::sync::OnceLock::new()))
            .collect();
        let plans = catalog
            .tools()
            .iter()
            .filter_map(|t| {
                Some((
                    t.name.to_string(),
                    crate::paginate::Plan::of(t.meta.as_deref())?,
                ))
            })
            .collect();
        let stream_forms = catalog
            .tools()
            .iter()
            .filter_map(|t| Some((t.name.to_string(), streaming::form_of(t)?)))
            .collect();
        let transport = match self.transport {
            Some(t) => layered(t, limits),
            None if remote => default_transport(&self.policy, limits)?,
            // Only the service's own tools: no HTTP client needed (nor the `reqwest`
            // feature).
            None => Arc::new(NoTransport),
        };
        Ok(Executor {
            policy: self.policy,
            received: None,
            inner: Arc::new(Inner {
                catalog,
                handlers,
                media_types,
                transport,
                base_urls: self.base_urls,
                credentials: self.credentials,
                tokens: auth::oauth::Tokens::default(),
                token_urls: self.token_urls,
                pass_through: self.pass_through,
                checks,
                targets,
                plans,
                trust,
                declares,
                gate: self.gate,
                custom_gate: self.custom_gate,
                approver: self.approver,
                #[cfg(feature = "mcp-client")]
                mcp: self.mcp,
                graphql_types,
                streams: self.streams,
                stream_forms,
            }),
        })
    }
}

/// What a GraphQL call puts on the wire: the document and its variables, as the JSON
/// body's two properties.
static GRAPHQL_PARAMS: [crate::descriptor::Param; 2] = [
    graphql_param("query", crate::descriptor::ValueKind::String),
    graphql_param("variables", crate::descriptor::ValueKind::Object),
];

const fn graphql_param(
    name: &'static str,
    kind: crate::descriptor::ValueKind,
) -> crate::descriptor::Param {
    crate::descriptor::Param {
        field: std::borrow::Cow::Borrowed(name),
        wire_name: std::borrow::Cow::Borrowed(name),
        location: crate::descriptor::ParamLocation::Body,
        required: true,
        kind,
        style: crate::descriptor::Style::Form,
        explode: false,
        allow_reserved: false,
        content_type: None,
    }
}

/// Stands in when every tool is local; never reached by them.
struct NoTransport;

impl Transport for NoTransport {
    fn send(&self, _: http::Request<Vec<u8>>) -> crate::transport::ResponseFuture<'_> {
        Box::pin(std::future::ready(Err(crate::error::TransportError::new(
            "no transport configured: this executor was built for local tools only",
        ))))
    }
}

#[cfg(feature = "reqwest")]
fn default_transport(
    policy: &CallPolicy,
    limits: Vec<(String, crate::transport::Limit)>,
) -> Result<Arc<dyn Transport>, Error> {
    let transport =
        crate::transport::ReqwestTransport::with_connect_timeout(policy.connect_timeout)
            .map_err(Error::Transport)?;
    // Retries outside the limiter: every attempt counts against the limit.
    let limited = layered(Arc::new(transport), limits);
    Ok(Arc::new(crate::transport::Retry::new(limited)))
}

/// Who a tool's requests are for, for the rate limiter: its API, name, path template,
/// and categories (its CRUDE kind and tags).
fn call_target(tool: &Tool) -> crate::transport::CallTarget {
    let meta = tool
        .meta
        .as_deref()
        .and_then(|m| serde_json::from_str::<Value>(m).ok())
        .unwrap_or_default();
    let crude = meta.pointer("/toolwright/crude").and_then(Value::as_str);
    let tags = meta
        .pointer("/toolwright/native/tags")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str);
    crate::transport::CallTarget {
        api: tool.operation.api.to_string(),
        tool: tool.name.to_string(),
        path: tool.operation.path.to_string(),
        categories: crude.into_iter().chain(tags).map(str::to_owned).collect(),
    }
}

/// `transport` behind the rate limiter, when there are limits.
#[cfg(feature = "reqwest")]
fn layered(
    transport: Arc<dyn Transport>,
    limits: Vec<(String, crate::transport::Limit)>,
) -> Arc<dyn Transport> {
    if limits.is_empty() {
        transport
    } else {
        Arc::new(crate::transport::RateLimit::new(transport, limits))
    }
}

#[cfg(not(feature = "reqwest"))]
fn layered(
    transport: Arc<dyn Transport>,
    _: Vec<(String, crate::transport::Limit)>,
) -> Arc<dyn Transport> {
    transport
}

#[cfg(not(feature = "reqwest"))]
fn default_transport(
    _: &CallPolicy,
    _: Vec<(String, crate::transport::Limit)>,
) -> Result<Arc<dyn Transport>, Error> {
    Err(Error::Transport(crate::error::TransportError::new(
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
            gate: Arc::new(crate::gate::default_policy),
            custom_gate: false,
            approver: None,
            #[cfg(feature = "mcp-client")]
            mcp: BTreeMap::new(),
        }
    }

    /// This executor with another total time per call (sharing everything else):
    /// `executor.with_timeout(Duration::from_secs(5)).call(...)`.
    pub fn with_timeout(&self, timeout: std::time::Duration) -> Executor {
        let mut out = self.clone();
        out.policy.timeout = timeout;
        out
    }

    /// This executor, its transport counting the bytes of answers into `received`.
    #[cfg(feature = "mcp")]
    pub(crate) fn counting(&self, received: Arc<crate::transport::Received>) -> Executor {
        let mut out = self.clone();
        out.received = Some(received);
        out
    }

    /// The transport requests go through (the MCP endpoint fetches the token
    /// issuer's keys with it).
    #[cfg(feature = "mcp-http")]
    pub(crate) fn transport(&self) -> &dyn Transport {
        &*self.inner.transport
    }

    /// The catalog this executor runs.
    pub fn catalog(&self) -> &Catalog {
        &self.inner.catalog
    }

    /// Calls a tool by the name and with the argument keys of an [export](crate::export)
    /// (what a model saw: shortened names, provider-safe keys, `null` for left-out
    /// arguments in strict schemas), translated back through its mapping.
    pub async fn call_exported(
        &self,
        mapping: &crate::export::Mapping,
        name: &str,
        args: Value,
    ) -> Result<Value, Error> {
        let (tool, args) = mapping.translate(name, args);
        self.call(tool, args).await
    }

    /// Calls a tool by name with JSON arguments, as an LLM sends them. Returns the
    /// structured result, shaped like the tool's `outputSchema`.
    pub async fn call(&self, name: &str, args: Value) -> Result<Value, Error> {
        self.call_approving(name, args, false).await
    }

    /// [`call`](Executor::call); `approved`: the caller obtained approval for this very
    /// call (an MCP client's elicitation), so a `Confirm` verdict lets it run (a `Deny`
    /// still does not).
    pub(crate) async fn call_approving(
        &self,
        name: &str,
        args: Value,
        approved: bool,
    ) -> Result<Value, Error> {
        self.call_answering(name, args, approved)
            .await
            .map(|answer| answer.value)
    }

    /// [`call_approving`](Executor::call_approving), saying also when the result is
    /// bytes (base64 text) and of which media type (an MCP server sends images and
    /// audio as such).
    pub(crate) async fn call_answering(
        &self,
        name: &str,
        args: Value,
        approved: bool,
    ) -> Result<Answer, Error> {
        let tool = self.tool(name)?;
        let args = if args.is_null() { json!({}) } else { args };
        if let Some((handler, verb)) = self.inner.handlers.get(name) {
            let Value::Object(args) = args else {
                return Err(Error::InvalidArguments {
                    tool: name.to_owned(),
                    message: "expected a JSON object of arguments".into(),
                });
            };
            return handler
                .call(*verb, args)
                .await
                .map(Answer::value)
                .map_err(|error| match error.kind {
                    ErrorKind::Invalid => Error::InvalidArguments {
                        tool: name.to_owned(),
                        message: error.message,
                    },
                    _ => Error::Resource {
                        tool: name.to_owned(),
                        error,
                    },
                });
        }
        let args = self.checked_arguments(tool, args)?;
        if !approved {
            self.admit(tool, &args).await?;
        } else if let Some(crate::gate::Verdict::Deny(reason)) = self.judge(tool, &args) {
            return Err(Error::Denied {
                tool: tool.name.to_string(),
                reason,
            });
        }
        if let Some(form) = self.inner.stream_forms.get(name) {
            return Ok(Answer::value(
                self.collect_stream(&tool.operation, &args, *form).await?,
            ));
        }
        let reply = self.send_chosen(&tool.operation, &args, None).await?;
        // Only a string result can be bytes: JSON answers skip the header.
        let media = reply
            .body
            .is_string()
            .then(|| reply.headers.get(http::header::CONTENT_TYPE)?.to_str().ok())
            .flatten()
            .map(media_type)
            .filter(|m| is_bytes(m))
            .map(str::to_ascii_lowercase);
        let body = reply.body;
        Ok(Answer {
            value: if tool.operation.wrap_output {
                json!({ "result": body })
            } else {
                body
            },
            bytes_of: media,
        })
    }

    /// The tool named `name`, or an error suggesting the closest name.
    fn tool(&self, name: &str) -> Result<&Tool, Error> {
        let catalog = &self.inner.catalog;
        catalog.get(name).ok_or_else(|| Error::UnknownTool {
            name: name.to_owned(),
            suggestion: catalog.suggest(name).map(str::to_owned),
        })
    }

    /// API `api` and its base URL (the service's override, else the description's).
    fn api(&self, api: &str) -> Result<(&crate::descriptor::Api, &str), Error> {
        let found = self
            .inner
            .catalog
            .api(api)
            .ok_or_else(|| Error::UnknownApi {
                name: api.to_owned(),
            })?;
        let base_url = self
            .inner
            .base_urls
            .get(api)
            .map_or(&*found.base_url, |u| u);
        Ok((found, base_url))
    }

    /// Why tool `name` would need approval before running with `args`, when the
    /// gate asks for it and the service set no approval callback of its own (then
    /// whoever serves the call — an MCP server — may ask its client instead).
    #[cfg(feature = "mcp")]
    pub(crate) fn needs_approval(&self, name: &str, args: &Value) -> Option<String> {
        if self.inner.approver.is_some() {
            return None;
        }
        let tool = self.inner.catalog.get(name)?;
        let args = args.as_object()?;
        match self.judge(tool, args)? {
            crate::gate::Verdict::Confirm(reason) => Some(reason),
            _ => None,
        }
    }

    /// The gate's verdict on a call, or `None` when the policy need not see it.
    fn judge(&self, tool: &Tool, args: &Map<String, Value>) -> Option<crate::gate::Verdict> {
        // The default policy only looks at what the source declared: a tool that
        // declares nothing runs without a copy of its arguments being made.
        let declares = match self.inner.catalog.position(tool) {
            Some(i) => self.inner.declares.get(i).copied().unwrap_or(true),
            None => true,
        };
        let trusted = !self.inner.trust.contains_key(tool.operation.api.as_ref());
        if !self.inner.custom_gate && !declares && trusted {
            return None;
        }
        Some((self.inner.gate)(&self.pending(tool, args)))
    }

    /// The call as the policy and the approval callback see it.
    fn pending(&self, tool: &Tool, args: &Map<String, Value>) -> crate::gate::PendingCall {
        let trust = self.inner.trust.get(tool.operation.api.as_ref());
        crate::gate::PendingCall::new(tool, Value::Object(args.clone()), trust.map(String::as_str))
    }

    /// The gate: lets the call through, asks for approval, or refuses it.
    async fn admit(&self, tool: &Tool, args: &Map<String, Value>) -> Result<(), Error> {
        use crate::gate::Verdict;
        let Some(verdict) = self.judge(tool, args) else {
            return Ok(());
        };
        match verdict {
            Verdict::Allow => Ok(()),
            Verdict::Deny(reason) => Err(Error::Denied {
                tool: tool.name.to_string(),
                reason,
            }),
            Verdict::Confirm(reason) => match &self.inner.approver {
                Some(approve) if approve(self.pending(tool, args)).await => Ok(()),
                approver => Err(Error::ConfirmationRequired {
                    tool: tool.name.to_string(),
                    reason,
                    declined: approver.is_some(),
                }),
            },
        }
    }

    /// Checks `args` against the tool's input schema (compiled on the tool's first call).
    fn check(&self, tool: &Tool, args: &Value) -> Result<(), validate::ArgumentError> {
        let compile = || {
            let schema: Value =
                serde_json::from_str(&tool.input_schema).unwrap_or(Value::Bool(true));
            let api = self.inner.catalog.api(&tool.operation.api);
            let definition = |name: &str| {
                let defs = &api?.definitions;
                defs.iter()
                    .find(|d| d.name == name)
                    .and_then(|d| serde_json::from_str(&d.input).ok())
            };
            validate::SchemaCheck::compile(&schema, &definition)
        };
        let catalog = &self.inner.catalog;
        let slot = catalog
            .position(tool)
            .or_else(|| catalog.get(&tool.name).and_then(|t| catalog.position(t)))
            .and_then(|i| self.inner.checks.get(i));
        match slot {
            Some(slot) => slot.get_or_init(compile).check(args),
            // Not one of this catalog's tools (not reached through the executor's own
            // paths): compiled for this check only.
            None => compile().check(args),
        }
    }

    /// Validates a tool's JSON arguments against its input schema: the one check for
    /// generated and interpreted tools alike.
    fn checked_arguments(&self, tool: &Tool, args: Value) -> Result<Map<String, Value>, Error> {
        let args = if args.is_null() { json!({}) } else { args };
        let invalid = |e: validate::ArgumentError| Error::InvalidArguments {
            tool: tool.name.to_string(),
            message: e.to_string(),
        };
        validate::require_object(&args).map_err(invalid)?;
        self.check(tool, &args).map_err(invalid)?;
        match args {
            Value::Object(args) => Ok(args),
            _ => Err(Error::InvalidArguments {
                tool: tool.name.to_string(),
                message: "expected a JSON object of arguments".into(),
            }),
        }
    }

    /// Like [`call`](Executor::call), sending the request body as `media_type` (one of
    /// the tool's [`request_media_types`](Tool::request_media_types)).
    pub async fn call_as(&self, name: &str, args: Value, media_type: &str) -> Result<Value, Error> {
        let tool = self.tool(name)?;
        let op = tool
            .with_media_type(media_type)
            .map_err(|message| Error::InvalidArguments {
                tool: name.to_owned(),
                message,
            })?;
        let args = self.checked_arguments(tool, args)?;
        self.admit(tool, &args).await?;
        let body = self.send_exactly(&op, &args, None).await?.body;
        Ok(if op.wrap_output {
            json!({ "result": body })
        } else {
            body
        })
    }

    /// Runs `op` with a typed input and decodes the response into `O`. This is what
    /// generated client methods call.
    pub async fn execute<I: Serialize, O: DeserializeOwned>(
        &self,
        op: &Operation,
        input: &I,
    ) -> Result<O, Error> {
        let (_, body) = self.execute_raw(op, input).await?;
        decode(op, body)
    }

    /// Runs `op` with a typed input; returns the success status and the body as JSON.
    /// Generated methods whose successes differ by status use it to pick a variant.
    pub async fn execute_raw<I: Serialize>(
        &self,
        op: &Operation,
        input: &I,
    ) -> Result<(u16, Value), Error> {
        let args = self.typed_arguments(op, input)?;
        self.send_with_status(op, &args).await
    }

    /// A typed input as checked JSON arguments.
    fn typed_arguments<I: Serialize>(
        &self,
        op: &Operation,
        input: &I,
    ) -> Result<Map<String, Value>, Error> {
        let not_an_object = || Error::InvalidArguments {
            tool: op.name.to_string(),
            message: "the input did not serialize to a JSON object".into(),
        };
        let args = serde_json::to_value(input).map_err(|_| not_an_object())?;
        // A struct built by hand can break constraints its type cannot express
        // (ranges, patterns, lengths): the same check as a by-name call.
        if let Some(tool) = self.inner.catalog.get(&op.name) {
            self.check(tool, &args)
                .map_err(|e| Error::InvalidArguments {
                    tool: op.name.to_string(),
                    message: e.to_string(),
                })?;
        }
        match args {
            Value::Object(args) => Ok(args),
            _ => Err(not_an_object()),
        }
    }

    async fn send_with_status(
        &self,
        op: &Operation,
        args: &Map<String, Value>,
    ) -> Result<(u16, Value), Error> {
        let reply = self.send_chosen(op, args, None).await?;
        Ok((reply.status, reply.body))
    }

    /// Sends `op` with the request media type the service chose for it.
    async fn send_chosen(
        &self,
        op: &Operation,
        args: &Map<String, Value>,
        target: Option<&str>,
    ) -> Result<Reply, Error> {
        let op = self.inner.media_types.get(op.name.as_ref()).unwrap_or(op);
        self.send_exactly(op, args, target).await
    }

    /// A tool of an MCP API: `tools/call` through the server the service gave for it.
    async fn mcp(
        &self,
        op: &Operation,
        request: http::Request<Vec<u8>>,
    ) -> Result<http::Response<Vec<u8>>, crate::error::TransportError> {
        let tool = op.path.strip_prefix("/tools/").unwrap_or(&op.path);
        #[cfg(feature = "mcp-client")]
        match self.inner.mcp.get(op.api.as_ref()) {
            Some(McpServer::Stdio(server)) => {
                return crate::transport::mcp_client::send(server, tool, request).await;
            }
            Some(McpServer::Http(server)) => {
                return crate::transport::mcp_http::send(
                    server,
                    &*self.inner.transport,
                    tool,
                    request,
                )
                .await;
            }
            None => {}
        }
        drop(request);
        Err(crate::error::TransportError::new(format!(
            "`{}` is a tool of MCP server `{}`: give the executor its server with `.mcp_stdio(\"{}\", program, args)` or `.mcp_http(..)` (feature `mcp-client`), or `--mcp-server {}=COMMAND|URL` in the CLI",
            tool, op.api, op.api, op.api
        ))
        .kind_of(crate::error::TransportKind::Connect))
    }

    /// Sends `op` as given (no media-type override); to `target` (a next-page URL on
    /// the API's origin) instead of the URL `args` make, when given.
    async fn send_exactly(
        &self,
        op: &Operation,
        args: &Map<String, Value>,
        target: Option<&str>,
    ) -> Result<Reply, Error> {
        let Some(call) = &op.graphql else {
            return self.send_http(op, args, target).await;
        };
        // A GraphQL field: one POST of `{query, variables}`, answered with `data`.
        let (api, _) = self.api(&op.api)?;
        let types = self
            .inner
            .graphql_types
            .get(api.name.as_ref())
            .and_then(|slot| {
                let text = api.graphql.as_deref()?;
                Some(slot.get_or_init(|| crate::graphql::TypeTable::parse(text)))
            });
        let body =
            crate::graphql::body(call, types, args).map_err(|message| Error::InvalidArguments {
                tool: op.name.to_string(),
                message,
            })?;
        // What goes on the wire: the same call, its body the document and variables.
        let wire = Operation {
            name: op.name.clone(),
            api: op.api.clone(),
            method: op.method,
            path: op.path.clone(),
            params: std::borrow::Cow::Borrowed(&GRAPHQL_PARAMS),
            body: crate::descriptor::BodyEncoding::Json,
            content_type: std::borrow::Cow::Borrowed("application/json"),
            body_required: true,
            security: op.security.clone(),
            wrap_output: op.wrap_output,
            json_response: op.json_response,
            graphql: None,
        };
        let mut reply = self.send_http(&wire, &body, target).await?;
        reply.body = crate::graphql::outcome(call, &op.name, std::mem::take(&mut reply.body))?;
        Ok(reply)
    }

    /// Sends `op` over HTTP (or its MCP server) as described.
    async fn send_http(
        &self,
        op: &Operation,
        args: &Map<String, Value>,
        target: Option<&str>,
    ) -> Result<Reply, Error> {
        let (api, base_url) = self.api(&op.api)?;
        let (credentials, token) = self.credentials(api, op, base_url, None).await?;
        let request = self.request(op, base_url, args, credentials, target)?;
        let mut response = if base_url.starts_with("mcp://") {
            traced(op, Box::pin(self.mcp(op, request))).await
        } else {
            traced(op, self.inner.transport.send(request)).await
        }
        .map_err(Error::Transport)?;
        if response.status() == http::StatusCode::UNAUTHORIZED
            && let Some(rejected) = token
        {
            // The API no longer takes the cached token (revoked, rotated, expired
            // early): one new token, one more try. A 401 means nothing was done.
            let (credentials, _) = self.credentials(api, op, base_url, Some(&rejected)).await?;
            let request = self.request(op, base_url, args, credentials, target)?;
            response = traced(op, self.inner.transport.send(request))
                .await
                .map_err(Error::Transport)?;
        }
        let status = response.status();
        let content_type = response
            .headers()
            .get(http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        let bytes = response.body();
        let body = decode_body(content_type, bytes);
        if status.is_success() {
            // A JSON response (as the description or the server says) that does not
            // parse is a failure, not a string result.
            let says_json = content_type
                .as_bytes()
                .windows(4)
                .any(|w| w.eq_ignore_ascii_case(b"json"));
            if (op.json_response || says_json)
                && body.is_string()
                && serde_json::from_slice::<Value>(bytes).is_err()
            {
                return Err(Error::Decode {
                    tool: op.name.to_string(),
                    message: format!(
                        "HTTP {} with content type `{}` is not JSON: {}",
                        status.as_u16(),
                        if content_type.is_empty() {
                            "(none)"
                        } else {
                            content_type
                        },
                        crate::shorten::prefix(&String::from_utf8_lossy(bytes), 200)
                    ),
                });
            }
            Ok(Reply {
                status: status.as_u16(),
                headers: std::mem::take(response.headers_mut()),
                body,
            })
        } else {
            Err(status_error(op, status, response.headers(), body))
        }
    }
}

/// A non-success answer as the error a call returns.
fn status_error(
    op: &Operation,
    status: http::StatusCode,
    headers: &http::HeaderMap,
    body: Value,
) -> Error {
    let message = upstream_message(&body)
        .unwrap_or_else(|| status.canonical_reason().unwrap_or("").to_owned());
    Error::Status {
        tool: op.name.to_string(),
        status: status.as_u16(),
        // The whole body stays in `body`; the message is for humans and models.
        message: crate::shorten::prefix(&message, 500),
        body,
        headers: headers_that_matter(headers),
    }
}

impl Executor {
    /// The credentials for `op`, fetching an OAuth 2 token when a client credentials
    /// scheme is the one that applies; also the token, so that a 401 can replace it.
    async fn credentials(
        &self,
        api: &crate::descriptor::Api,
        op: &Operation,
        base_url: &str,
        rejected: Option<&str>,
    ) -> Result<(Vec<auth::Applied>, Option<Arc<str>>), Error> {
        if let Some(credential) = self.inner.pass_through.get(api.name.as_ref()) {
            return self
                .caller_credentials(api, op, credential, base_url, rejected)
                .await;
        }
        let mut applied = Vec::new();
        let mut token = None;
        for planned in auth::resolve(api, &op.security, &self.inner.credentials)? {
            match planned {
                auth::Planned::Ready(a) => applied.push(a),
                auth::Planned::Token(mut client) => {
                    if let Some(url) = self.inner.token_urls.get(api.name.as_ref()) {
                        client.token_url = url;
                    }
                    let t = self.token(&client, base_url, rejected).await?;
                    applied.push(auth::bearer(&t));
                    token = Some(t);
                }
            }
        }
        Ok((applied, token))
    }

    /// A token from `client`'s token endpoint, cached and shared (see `auth::oauth`);
    /// `rejected` is one the API just refused.
    async fn token(
        &self,
        client: &auth::oauth::Client<'_>,
        base_url: &str,
        rejected: Option<&str>,
    ) -> Result<Arc<str>, Error> {
        self.inner
            .tokens
            .token(
                client,
                base_url,
                &*self.inner.transport,
                self.policy,
                rejected,
            )
            .await
    }

    /// The MCP caller's own token, or one exchanged for it, for an API called on
    /// the caller's behalf.
    async fn caller_credentials(
        &self,
        api: &crate::descriptor::Api,
        op: &Operation,
        credential: &auth::CallerCredential,
        base_url: &str,
        rejected: Option<&str>,
    ) -> Result<(Vec<auth::Applied>, Option<Arc<str>>), Error> {
        if let Some(token) = crate::caller::token() {
            let exchange = match credential {
                auth::CallerCredential::Token => return Ok((vec![auth::bearer(&token)], None)),
                auth::CallerCredential::Claim(claim) => {
                    let claims = crate::caller::claims();
                    let value = claims.as_ref().and_then(|c| c.get(claim)?.as_str());
                    return match value {
                        Some(value) if !value.is_empty() => Ok((vec![auth::bearer(value)], None)),
                        _ => Err(Error::Request {
                            tool: op.name.to_string(),
                            message: format!(
                                "API `{}` is called with claim `{claim}` of the caller's token, and this caller's token has no such string claim",
                                api.name
                            ),
                        }),
                    };
                }
                auth::CallerCredential::Exchange(exchange) => exchange,
            };
            let client = auth::oauth::Client {
                api,
                scheme: "token-exchange",
                token_url: &exchange.token_url,
                id: exchange.client_id.clone(),
                secret: exchange.secret.clone(),
                scopes: exchange.scopes.clone(),
                grant: auth::oauth::Grant::TokenExchange {
                    subject: &token,
                    audience: exchange.audience.as_deref(),
                    resource: exchange.resource.as_deref(),
                },
            };
            let exchanged = self.token(&client, base_url, rejected).await?;
            return Ok((vec![auth::bearer(&exchanged)], Some(exchanged)));
        }
        Err(Error::Request {
            tool: op.name.to_string(),
            message: format!(
                "API `{}` is called with the caller's own token, and this call has no authenticated caller (it did not come through an MCP endpoint with authorization)",
                api.name
            ),
        })
    }

    /// `op`'s request, with the limits and permissions it carries to the transport.
    fn request(
        &self,
        op: &Operation,
        base_url: &str,
        args: &Map<String, Value>,
        credentials: Vec<auth::Applied>,
        target: Option<&str>,
    ) -> Result<http::Request<Vec<u8>>, Error> {
        let mut request =
            crate::request::build(op, base_url, args, credentials, target).map_err(|message| {
                Error::Request {
                    tool: op.name.to_string(),
                    message,
                }
            })?;
        let idempotent = self.inner.catalog.get(&op.name).map_or(
            matches!(
                op.method,
                crate::descriptor::Method::Get
                    | crate::descriptor::Method::Head
                    | crate::descriptor::Method::Options
            ),
            |t| t.annotations.idempotent,
        );
        let policy = CallPolicy {
            idempotent,
            ..self.policy
        };
        // Transports read a missing policy as the method's default (`CallPolicy::of`).
        if policy != CallPolicy::for_method(request.method()) {
            request.extensions_mut().insert(policy);
        }
        if let Some(target) = self.inner.targets.get(op.name.as_ref()) {
            request.extensions_mut().insert(target.clone());
        }
        if let Some(received) = &self.received {
            request.extensions_mut().insert(received.clone());
        }
        Ok(request)
    }
}

/// The transport's answer, inside a `toolwright.call` span (feature `tracing`): tool,
/// API, method and path template, then status, attempts and duration. Never argument
/// values, URLs with their queries, or credentials.
#[cfg(feature = "tracing")]
async fn traced(
    op: &Operation,
    send: crate::transport::ResponseFuture<'_>,
) -> Result<http::Response<Vec<u8>>, crate::error::TransportError> {
    use tracing::Instrument;
    let span = tracing::info_span!(
        "toolwright.call",
        tool = %op.name,
        api = %op.api,
        method = op.method.as_str(),
        path = %op.path,
        status = tracing::field::Empty,
        attempts = tracing::field::Empty,
        duration_ms = tracing::field::Empty,
        error = tracing::field::Empty,
    );
    // No subscriber wants it (none installed, or filtered out): no clock, no records.
    if span.is_disabled() {
        return send.await;
    }
    let started = std::time::Instant::now();
    let outcome = send.instrument(span.clone()).await;
    span.record("duration_ms", started.elapsed().as_secs_f64() * 1e3);
    match &outcome {
        Ok(response) => {
            span.record("status", response.status().as_u16());
            let attempts = response.extensions().get::<crate::transport::Attempts>();
            span.record("attempts", attempts.map_or(1, |a| a.0));
        }
        Err(e) => {
            span.record("error", e.code());
        }
    }
    outcome
}

#[cfg(not(feature = "tracing"))]
async fn traced(
    _: &Operation,
    send: crate::transport::ResponseFuture<'_>,
) -> Result<http::Response<Vec<u8>>, crate::error::TransportError> {
    send.await
}

/// Request ids, `Retry-After` and rate-limit counters (never cookies or anything
/// else a server sends).
fn headers_that_matter(headers: &http::HeaderMap) -> Vec<(String, String)> {
    headers
        .iter()
        .filter(|(name, _)| {
            let n = name.as_str();
            n == "retry-after"
                || n.ends_with("request-id")
                || n.ends_with("requestid")
                || n == "cf-ray"
                || n == "traceparent"
                || n.starts_with("x-ratelimit-")
                || n.starts_with("ratelimit")
        })
        .filter_map(|(name, value)| Some((name.to_string(), value.to_str().ok()?.to_owned())))
        .collect()
}

/// Decodes a response body into the operation's output type.
pub fn decode<O: DeserializeOwned>(op: &Operation, body: Value) -> Result<O, Error> {
    validate::deserialize_owned::<O>(body).map_err(|e| Error::Decode {
        tool: op.name.to_string(),
        message: e.to_string(),
    })
}

/// The body as JSON for JSON media types (or untyped bodies that parse), text for
/// text, base64 for other bytes, `null` when empty.
fn decode_body(content_type: &str, bytes: &[u8]) -> Value {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Value::Null;
    }
    let media = media_type(content_type);
    let json = has(media, "json");
    if (json || media.is_empty())
        && let Ok(v) = serde_json::from_slice(bytes)
    {
        return v;
    }
    match std::str::from_utf8(bytes) {
        Ok(text) if !is_bytes(media) => Value::String(text.to_owned()),
        _ => Value::String(crate::base64::encode(bytes)),
    }
}

/// The media type of a `Content-Type` (without parameters).
fn media_type(content_type: &str) -> &str {
    content_type.split(';').next().unwrap_or("").trim()
}

/// Whether `media` names `part` (ASCII case-insensitive).
fn has(media: &str, part: &str) -> bool {
    media
        .as_bytes()
        .windows(part.len())
        .any(|w| w.eq_ignore_ascii_case(part.as_bytes()))
}

/// A media type whose bodies are bytes (base64 in a JSON result): any named type
/// that is not JSON or text.
fn is_bytes(media: &str) -> bool {
    let textual = media
        .get(..5)
        .is_some_and(|m| m.eq_ignore_ascii_case("text/"))
        || [
            "json",
            "xml",
            "csv",
            "yaml",
            "javascript",
            "x-www-form-urlencoded",
        ]
        .iter()
        .any(|t| has(media, t));
    !media.is_empty() && !textual
}

/// The human message of an error body, in the shapes APIs commonly use.
fn upstream_message(body: &Value) -> Option<String> {
    match body {
        Value::String(s) => Some(s.trim().to_owned()),
        Value::Object(map) => ["message", "error_description", "detail", "error", "title"]
            .iter()
            .find_map(|k| match map.get(*k)? {
                Value::String(s) => Some(s.clone()),
                nested @ Value::Object(_) => upstream_message(nested),
                _ => None,
            })
            // GraphQL (`{"errors": [{"message": ...}]}`) and JSON:API answers.
            .or_else(|| {
                let first = map.get("errors")?.as_array()?.first()?;
                upstream_message(first)
            })
            .or_else(|| Some(body.to_string())),
        Value::Null => None,
        other => Some(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn upstream_messages() {
        assert_eq!(
            upstream_message(&json!({"message": "nope"})).unwrap(),
            "nope"
        );
        assert_eq!(
            upstream_message(&json!({"error": {"message": "deep"}})).unwrap(),
            "deep"
        );
        assert_eq!(
            upstream_message(&json!("plain text\n")).unwrap(),
            "plain text"
        );
        assert_eq!(upstream_message(&Value::Null), None);
    }
}
