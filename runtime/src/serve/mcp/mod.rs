//! An MCP server over an [`Executor`]'s catalog (feature `mcp`): every tool of the
//! catalog — generated, interpreted, and the service's own resources — listed and
//! callable by MCP clients.
//!
//! The protocol core ([`Server::handle`]) takes one JSON-RPC message and answers it, so
//! that transports stay thin: [`Server::serve_stdio`] is newline-delimited JSON on
//! stdin/stdout. Revisions spoken: 2025-06-18 and 2025-11-25 (negotiated in
//! `initialize`), and the stateless 2026-07-28 (no `initialize`: `server/discover`
//! names the versions, every request carries its version in
//! `_meta["io.modelcontextprotocol/protocolVersion"]`, results carry `resultType`, and
//! `tools/list` carries `ttlMs` and `cacheScope`).
//!
//! - `tools/list`: catalog order (sorted by name, deterministic), cursor pagination
//!   (page size configurable), each tool with `title`, all four annotation hints, its
//!   `_meta`, `inputSchema`/`outputSchema` self-contained (`$defs`), no `$schema`, output
//!   object-rooted.
//! - `tools/call`: the result as text plus `structuredContent` (when the tool has an
//!   output schema); upstream failures and invalid arguments are `isError` results
//!   naming the HTTP status or the field, so a model can react; an unknown tool is the
//!   protocol error `-32602`, with a did-you-mean.
//! - JSON-RPC: parse errors `-32700`, invalid requests (and batches, which these
//!   revisions removed) `-32600`, unknown methods `-32601`, bad params and invalid
//!   cursors `-32602`; `notifications/cancelled` stops the call in flight.

mod approvals;
mod audit;
mod budget;
#[cfg(feature = "code")]
mod code_mode;
mod elicit;
#[cfg(feature = "mcp-http")]
mod http;
mod modes;
mod offers;
mod progress;
mod projection;
#[cfg(feature = "code")]
mod scripts;
mod stdio;

pub use audit::AuditRecord;
pub(crate) use elicit::Peer;
#[cfg(feature = "mcp-http")]
pub use http::{
    Authorization, BearerTokens, Body, Caller, Http, Limits, MIN_TOKEN_LEN, TokenError,
};
#[cfg(feature = "mcp-oauth")]
pub use http::{OAuth, OAuthError};
pub use modes::ToolMode;
pub use offers::{
    Content, Context, Document, InputRequest, InputRequired, LogLevel, Prompt, PromptArgument,
    PromptMessage, PromptReply, Reading, ResourceBody, ResourceContents, Role, ServiceTool,
    TASKS_EXTENSION, TaskSupport, Template, ToolOutput,
};

use serde_json::{Map, Value, json};

use crate::error::Error;
use crate::executor::Executor;
use crate::export::{ExportOptions, Mapping, Profile};

/// Handshake-era revisions this server speaks, newest first. 2025-03-26 clients get
/// the same answers: what later revisions added (`title`, `outputSchema`,
/// `structuredContent`) is extra to them, and they ignore it.
pub const PROTOCOL_VERSIONS: [&str; 3] = ["2025-11-25", "2025-06-18", "2025-03-26"];

/// Largest message read, on any transport (a tool call's arguments): an HTTP body or
/// a stdio line longer than this is refused without being held.
const MAX_MESSAGE: usize = 4 << 20;

/// The stateless revision.
pub const MODERN_VERSION: &str = "2026-07-28";

/// Where a 2026-07-28 request names its revision.
const VERSION_META: &str = "io.modelcontextprotocol/protocolVersion";

/// Methods 2026-07-28 removed: a stateless request for one is an unknown method.
const REMOVED_METHODS: [&str; 5] = [
    "initialize",
    "ping",
    "logging/setLevel",
    "resources/subscribe",
    "resources/unsubscribe",
];

/// How long a 2026-07-28 client may cache `tools/list`: the catalog is fixed while a
/// server runs, and the same for every caller (`cacheScope: public`).
const LIST_TTL_MS: u64 = 300_000;

/// JSON-RPC error codes.
pub mod codes {
    pub const PARSE_ERROR: i64 = -32700;
    pub const INVALID_REQUEST: i64 = -32600;
    pub const METHOD_NOT_FOUND: i64 = -32601;
    pub const INVALID_PARAMS: i64 = -32602;
    pub const INTERNAL_ERROR: i64 = -32603;
    /// 2026-07-28: the request names a revision this server does not speak.
    pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;
    /// 2026-07-28: answering needs a client capability the request did not declare.
    pub const MISSING_CLIENT_CAPABILITY: i64 = -32021;
}

/// A listing and the catalog generation it was made for.
type Made = (u64, std::sync::Arc<Listing>);

/// Serves an executor's catalog over MCP. Cheap to clone; clones share the catalog,
/// so [`Server::replace`] on one is seen by every transport serving another.
///
/// `serve_stdio()` answers a client on stdin/stdout; `Http` (feature `mcp-http`) over
/// streamable HTTP; `handle` answers one JSON-RPC message, whatever carried it:
///
/// ```
/// # use serde::{Deserialize, Serialize};
/// # use toolwright::{Catalog, Executor, Resource, ToolSchema, resource::ResourceError};
/// #
/// # /// A city.
/// # #[derive(Clone, ToolSchema, Serialize, Deserialize)]
/// # #[tool(resource(get))]
/// # struct City {
/// #     /// Its name.
/// #     #[tool(primary_key)]
/// #     name: String,
/// #     /// Inhabitants.
/// #     population: u32,
/// # }
/// #
/// # /// The service's own store of cities.
/// # struct Cities;
/// #
/// # impl Resource for Cities {
/// #     type Record = City;
/// #     async fn get(&self, name: String) -> Result<City, ResourceError> {
/// #         Ok(City { name, population: 1_000 })
/// #     }
/// # }
/// #
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use serde_json::json;
/// let executor = Executor::builder(Catalog::empty()).resource(Cities).build()?;
/// let server = toolwright::serve::mcp::Server::new(executor);
/// let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
///                   "params": {"name": "get_City", "arguments": {"name": "Lyon"}}});
/// let answer = server.handle(call).await.expect("a request gets an answer");
/// assert_eq!(answer["result"]["structuredContent"]["population"], 1000);
/// // Over stdio, in a service's main: server.serve_stdio().await?
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct Server {
    executor: std::sync::Arc<std::sync::RwLock<Executor>>,
    /// Bumped by every [`Server::replace`]; transports turn it into
    /// `notifications/tools/list_changed`.
    changes: std::sync::Arc<tokio::sync::watch::Sender<u64>>,
    /// Every tool's `tools/list` entry, exported once per catalog (exporting means
    /// walking each schema: milliseconds per page if repeated on every request).
    /// Tagged with the catalog generation (`changes`) it was made for.
    listing: std::sync::Arc<std::sync::RwLock<Option<Made>>>,
    /// Only the tools these selections keep (any of them) are listed and callable:
    /// a caller's view (scopes over HTTP). `None`: every tool.
    view: Option<std::sync::Arc<Vec<toolwright_query::select::Selection>>>,
    /// How tools are exported to clients (names within budget, portable schemas).
    export: ExportOptions,
    list_changes: bool,
    ttl_ms: u64,
    /// Characters of JSON a result answered to a model may take.
    result_budget: usize,
    name: String,
    version: String,
    page_size: usize,
    /// How often a call with a `progressToken` reports that it is still running.
    progress_every: std::time::Duration,
    /// Every tool, meta-tools, or group tools.
    mode: ToolMode,
    /// Where each call's audit record goes (besides `tracing`).
    audit: Option<audit::Sink>,
    /// The bounds on each script in [`ToolMode::Code`].
    #[cfg(feature = "code")]
    code_limits: crate::code::Limits,
    /// The 2026-07-28 confirmation states this server issued (shared by its views).
    approvals: std::sync::Arc<approvals::Approvals>,
    /// Whether a client's elicitation answer may approve a call the gate wants
    /// confirmed ([`Server::client_approvals`]): on for `serve_stdio`, where the client
    /// is the user's own program; off elsewhere unless the service says so.
    client_approvals: bool,
    /// The code-mode scripts running, per caller and in all (shared by its views).
    #[cfg(feature = "code")]
    scripts: std::sync::Arc<scripts::Scripts>,
    /// The service's own tools, resources and prompts (shared by its views).
    offers: std::sync::Arc<offers::Offers>,
}

impl Server {
    /// A server for every tool of `executor`'s catalog, named `toolwright`.
    pub fn new(executor: Executor) -> Self {
        Server {
            executor: std::sync::Arc::new(std::sync::RwLock::new(executor)),
            changes: std::sync::Arc::new(tokio::sync::watch::channel(0).0),
            listing: std::sync::Arc::default(),
            view: None,
            export: ExportOptions::new(Profile::Mcp),
            list_changes: false,
            ttl_ms: LIST_TTL_MS,
            result_budget: budget::DEFAULT_BUDGET,
            name: "toolwright".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            page_size: 100,
            progress_every: std::time::Duration::from_secs(1),
            mode: ToolMode::DEFAULT,
            audit: None,
            #[cfg(feature = "code")]
            code_limits: crate::code::Limits::default(),
            approvals: std::sync::Arc::new(approvals::Approvals::new()),
            client_approvals: false,
            #[cfg(feature = "code")]
            scripts: std::sync::Arc::new(scripts::Scripts::new(
                scripts::DEFAULT_SCRIPTS,
                scripts::DEFAULT_SCRIPTS_PER_CALLER,
            )),
            offers: std::sync::Arc::default(),
        }
    }

    /// Offers a tool the service answers itself, with MCP content (images, audio,
    /// embedded resources), progress and log messages; listed after the catalog's
    /// tools, in every [`ToolMode`], to every caller. A catalog tool of the same name
    /// is hidden by it; a later one of the same name replaces it.
    #[must_use]
    pub fn tool(mut self, tool: ServiceTool) -> Self {
        std::sync::Arc::make_mut(&mut self.offers).add_tool(tool);
        self.changes.send_modify(|n| *n += 1);
        self
    }

    /// Offers a resource at a fixed URI (`resources/list`, `resources/read`); the
    /// `resources` capability is declared once there is one.
    #[must_use]
    pub fn resource(mut self, document: Document) -> Self {
        std::sync::Arc::make_mut(&mut self.offers).add_document(document);
        self
    }

    /// Offers resources whose URIs follow a template (`resources/templates/list`);
    /// `completion/complete` offers the values it was given for its variables.
    #[must_use]
    pub fn resource_template(mut self, template: Template) -> Self {
        std::sync::Arc::make_mut(&mut self.offers).add_template(template);
        self
    }

    /// Offers the catalog's read-only `GET` operations that `keep` chooses as
    /// resources: one that needs no argument at `toolwright://api/<api><path>`, one
    /// whose required arguments are all path parameters as a resource template with
    /// them as variables (completable with the values their schemas enumerate).
    /// Reading runs the tool like a call (validation, authorization, gate, limits) and
    /// gives its JSON. The choice is made on the catalog as it is now.
    #[must_use]
    pub fn operations_as_resources(mut self, keep: impl Fn(&crate::catalog::Tool) -> bool) -> Self {
        let executor = self.current();
        std::sync::Arc::make_mut(&mut self.offers).add_operations(
            executor.catalog(),
            &self.executor,
            &keep,
            self.result_budget,
        );
        self
    }

    /// Offers a prompt (`prompts/list`, `prompts/get`); `completion/complete` offers
    /// the values it was given for its arguments.
    #[must_use]
    pub fn prompt(mut self, prompt: Prompt) -> Self {
        std::sync::Arc::make_mut(&mut self.offers).add_prompt(prompt);
        self
    }

    /// The `(argument, header)` pairs a tool's input schema marks with
    /// `x-mcp-header` (SEP-2243): a 2026-07-28 client mirrors each such argument into an
    /// `Mcp-Param-<header>` request header.
    #[cfg_attr(not(feature = "mcp-http"), allow(dead_code))]
    pub(crate) fn mirrored_headers(&self, tool: &str) -> Vec<(String, String)> {
        let schema = match self.offers.tool(tool) {
            Some(service) => service.input_schema_value().clone(),
            None => self.listing().inputs.get(tool).cloned().unwrap_or_default(),
        };
        let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
            return Vec::new();
        };
        properties
            .iter()
            .filter_map(|(argument, property)| {
                let header = property.get("x-mcp-header")?.as_str()?;
                Some((argument.clone(), header.to_owned()))
            })
            .collect()
    }

    /// Whether answering `message` may send notifications or requests to the client
    /// before its answer (a transport then streams it): a call of a service tool, one
    /// asking progress, or any call when the client may approve the gate's questions.
    #[cfg_attr(not(feature = "mcp-http"), allow(dead_code))]
    pub(crate) fn may_notify(&self, message: &Value) -> bool {
        let params = message.get("params").unwrap_or(&Value::Null);
        if message.get("method").and_then(Value::as_str) != Some("tools/call") {
            return false;
        }
        let name = params
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let modern = params
            .pointer("/_meta/io.modelcontextprotocol~1protocolVersion")
            .is_some();
        if modern && self.offers.refused_early(name, params) {
            // An error with its own HTTP status, which a stream would hide.
            return false;
        }
        if params.pointer("/_meta/progressToken").is_some() {
            return true;
        }
        let service_tool = self.offers.tool(name).is_some();
        if modern {
            // 2026-07-28 asks the client nothing over a stream (input_required
            // instead), and logs only when the request names a level: otherwise the
            // answer, an error included, goes out with its own HTTP status.
            service_tool
                && params
                    .pointer("/_meta/io.modelcontextprotocol~1logLevel")
                    .is_some()
        } else {
            service_tool || self.client_approvals
        }
    }

    /// How many [`ToolMode::Code`] scripts run at once: `total` for every caller
    /// together (default 16) and `per_caller` for one caller (default 4). Each script
    /// may hold its whole memory limit ([`Server::code_limits`]), so `total` times
    /// that limit bounds what code mode takes; a script past either is a tool error
    /// saying so, and does not run.
    #[cfg(feature = "code")]
    #[must_use]
    pub fn concurrent_scripts(mut self, total: usize, per_caller: usize) -> Self {
        self.scripts = std::sync::Arc::new(scripts::Scripts::new(total, per_caller));
        self
    }

    /// The bounds on each script `execute` runs in [`ToolMode::Code`] (default
    /// [`Limits::default`](crate::code::Limits::default)).
    #[cfg(feature = "code")]
    #[must_use]
    pub fn code_limits(mut self, limits: crate::code::Limits) -> Self {
        self.code_limits = limits;
        self
    }

    /// Hands `sink` an [`AuditRecord`] after every `tools/call`: caller, tool, API,
    /// outcome, duration, request id — never arguments, results or credentials. With
    /// the `tracing` feature the same records are `INFO` events of target
    /// `toolwright::audit` whether or not a sink is set.
    #[must_use]
    pub fn audit(mut self, sink: impl Fn(&AuditRecord) + Send + Sync + 'static) -> Self {
        self.audit = Some(audit::Sink(std::sync::Arc::new(sink)));
        self
    }

    /// What `tools/list` shows (default [`ToolMode::DEFAULT`]: every tool up to 128,
    /// `search_tools`/`describe_tool`/`call_tool` above). Every tool stays callable by
    /// its own name in every mode.
    #[must_use]
    pub fn mode(mut self, mode: ToolMode) -> Self {
        self.mode = mode;
        self
    }

    /// How often a call whose request carries a `progressToken` sends
    /// `notifications/progress` while it waits for the API (default every second;
    /// the first is sent when the call starts).
    #[must_use]
    pub fn progress_interval(mut self, every: std::time::Duration) -> Self {
        self.progress_every = every.max(std::time::Duration::from_millis(10));
        self
    }

    /// The name and version clients see in `serverInfo`.
    #[must_use]
    pub fn info(mut self, name: impl Into<String>, version: impl Into<String>) -> Self {
        self.name = name.into();
        self.version = version.into();
        self
    }

    /// Declares `tools.listChanged`: the catalog may be [replaced](Server::replace)
    /// while serving, and clients are told when it is.
    #[must_use]
    pub fn list_changes(mut self, on: bool) -> Self {
        self.list_changes = on;
        if on {
            self.ttl_ms = 0;
        }
        self
    }

    /// How long 2026-07-28 clients may cache `tools/list` (default 5 minutes; 0 when
    /// the catalog can change, see [`Server::list_changes`]).
    #[must_use]
    pub fn cache_ttl(mut self, ttl: std::time::Duration) -> Self {
        self.ttl_ms = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX);
        self
    }

    /// Serves `executor`'s catalog from now on (e.g. after its sources were edited);
    /// calls in flight finish on the old one. Transports send
    /// `notifications/tools/list_changed` when [`Server::list_changes`] is on.
    pub fn replace(&self, executor: Executor) {
        *self
            .executor
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = executor;
        // Listings of the old catalog (this server's and its views') are stale now.
        self.changes.send_modify(|n| *n += 1);
    }

    /// This server as a caller with `selections` sees it: only the tools one of them
    /// keeps are listed, searched and callable (others are unknown tools); calls in
    /// flight, the catalog and its replacements are shared.
    #[cfg_attr(not(feature = "mcp-oauth"), allow(dead_code))]
    pub(crate) fn view(&self, selections: Vec<toolwright_query::select::Selection>) -> Server {
        Server {
            listing: std::sync::Arc::default(),
            view: Some(std::sync::Arc::new(selections)),
            ..self.clone()
        }
    }

    /// Lets a client's answer to a confirmation (an elicitation) approve a call the
    /// gate wants confirmed. Off by default, except in [`Server::serve_stdio`], whose
    /// client is the user's own program: a server cannot tell a person's yes from the
    /// client's own, so over a network only a client the operator trusts to ask a
    /// person should be let approve (`Http::client_approvals` says the same for
    /// streamable HTTP). Off, such a call is answered `CONFIRMATION_REQUIRED`; the
    /// service's own approval callback (`ExecutorBuilder::approve_with`) approves
    /// server-side. On or off, a 2026-07-28 answer counts only with the `requestState`
    /// this server issued to this caller for exactly that call, once, within 5 minutes.
    #[must_use]
    pub fn client_approvals(mut self, trusted: bool) -> Server {
        self.client_approvals = trusted;
        self
    }

    /// The tool a client's name for it stands for, in this server's view.
    pub(crate) fn tool_named(&self, exported: &str) -> Option<crate::catalog::Tool> {
        let listing = self.listing();
        let own = &listing.mapping.get(exported)?.tool;
        self.current().catalog().get(own).cloned()
    }

    /// Whether `name` is one of the service's own tools ([`Server::tool`]).
    pub(crate) fn is_service_tool(&self, name: &str) -> bool {
        self.offers.tool(name).is_some()
    }

    /// Whether a catalog tool is in this server's view (a caller's scopes).
    fn sees(&self, catalog_name: &str) -> bool {
        self.view.is_none() || self.listing().exported_of.contains_key(catalog_name)
    }

    /// The audit record of one `tools/call`.
    fn record(
        &self,
        id: &Value,
        params: &Value,
        result: &Result<Value, (i64, String)>,
        duration: std::time::Duration,
    ) {
        // A tool by name; a resource read by its URI.
        let tool = params
            .get("name")
            .or_else(|| params.get("uri"))
            .and_then(Value::as_str)
            .unwrap_or_default();
        let api = if self.is_service_tool(tool) {
            None
        } else {
            self.tool_named(tool).map(|t| t.operation.api.to_string())
        };
        let record = AuditRecord {
            caller: crate::caller::name(),
            tool: tool.to_owned(),
            api,
            outcome: audit::outcome(result),
            duration,
            request_id: id.to_string(),
        };
        audit::emit(self.audit.as_ref(), &record);
    }

    /// The executor serving now.
    fn current(&self) -> Executor {
        self.executor
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// A receiver that changes whenever the catalog is replaced (for transports).
    pub(crate) fn changes(&self) -> Option<tokio::sync::watch::Receiver<u64>> {
        self.list_changes.then(|| self.changes.subscribe())
    }

    /// Characters of JSON a call result may take when answered to a model (default
    /// 100,000, about 25,000 tokens): longer arrays are cut, with `truncated: true` and
    /// a note naming the tool's paging and filter arguments.
    #[must_use]
    pub fn result_budget(mut self, characters: usize) -> Self {
        self.result_budget = characters.max(1);
        self
    }

    /// How tools are shown to clients: by default [`Profile::Mcp`]'s rules (names
    /// within 48 characters, leaving room for a client's `mcp__<server>__` prefix;
    /// provider-safe argument keys; schemas without `$ref`). Calls are translated back.
    /// Options for another profile are taken as MCP's defaults: only MCP entries are
    /// MCP tools.
    #[must_use]
    pub fn export(mut self, options: ExportOptions) -> Self {
        self.export = if options.profile() == Profile::Mcp {
            options
        } else {
            ExportOptions::new(Profile::Mcp)
        };
        self
    }

    /// Tools per `tools/list` page (at least 1; default 100).
    #[must_use]
    pub fn page_size(mut self, size: usize) -> Self {
        self.page_size = size.max(1);
        self
    }

    /// Answers one JSON-RPC message: `Some(response)` for a request (or an invalid
    /// message), `None` for a notification.
    pub async fn handle(&self, message: Value) -> Option<Value> {
        let text = self.respond(message).await?;
        Some(serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    /// [`Server::handle`], the answer as the JSON text that goes on the wire (what
    /// transports send): `tools/list` pages are put together from tool entries
    /// rendered once, not re-serialized per request.
    pub async fn respond(&self, message: Value) -> Option<String> {
        self.respond_notifying(message, None).await
    }

    /// [`Server::respond`], sending `notifications/progress` (JSON text) to `notify`
    /// while a `tools/call` that carries a `progressToken` runs.
    pub(crate) async fn respond_notifying(
        &self,
        message: Value,
        notify: Option<tokio::sync::mpsc::UnboundedSender<String>>,
    ) -> Option<String> {
        self.respond_linked(message, notify, None).await
    }

    /// [`Server::respond`], with the JSON-RPC error code when the answer is an error
    /// (a transport picks its status from it).
    #[cfg_attr(not(feature = "mcp-http"), allow(dead_code))]
    pub(crate) async fn respond_coded(
        &self,
        message: Value,
        peer: Option<Peer>,
    ) -> Option<(String, Option<i64>)> {
        // Boxed: the answer's future holds every kind of request's state (a call, a
        // script, a task), too large for a worker thread's stack in debug builds.
        let answer = Box::pin(self.answer(message, None, peer)).await?;
        Some(match answer {
            Answer::Value(v) => {
                let code = v.pointer("/error/code").and_then(Value::as_i64);
                (v.to_string(), code)
            }
            Answer::Text(t) => (t, None),
        })
    }

    /// [`Server::respond_notifying`] on a connection that can also send requests to
    /// its client (`peer`: stdio), for elicitations.
    pub(crate) async fn respond_linked(
        &self,
        message: Value,
        notify: Option<tokio::sync::mpsc::UnboundedSender<String>>,
        peer: Option<Peer>,
    ) -> Option<String> {
        Box::pin(self.answer(message, notify, peer))
            .await
            .map(|answer| match answer {
                Answer::Value(v) => v.to_string(),
                Answer::Text(t) => t,
            })
    }

    async fn answer(
        &self,
        message: Value,
        notify: Option<tokio::sync::mpsc::UnboundedSender<String>>,
        peer: Option<Peer>,
    ) -> Option<Answer> {
        let Value::Object(message) = message else {
            let why = if message.is_array() {
                "batches are not supported by MCP 2025-06-18 and later; send one message at a time"
            } else {
                "a JSON-RPC message must be an object"
            };
            return Some(Answer::Value(error(
                Value::Null,
                codes::INVALID_REQUEST,
                why,
            )));
        };
        let id = message.get("id").cloned();
        let method = message.get("method").and_then(Value::as_str);
        let valid = message.get("jsonrpc").and_then(Value::as_str) == Some("2.0")
            && method.is_some()
            && id
                .as_ref()
                .is_none_or(|id| id.is_string() || id.is_i64() || id.is_u64());
        let (Some(method), true) = (method, valid) else {
            return Some(Answer::Value(error(
                id.unwrap_or(Value::Null),
                codes::INVALID_REQUEST,
                "not a JSON-RPC 2.0 request: needs `jsonrpc: \"2.0\"`, a `method`, and a string or integer `id`",
            )));
        };
        let params = message.get("params").cloned().unwrap_or(Value::Null);
        // Notifications get no answer (`initialized`, `cancelled` is handled by the
        // transport, which knows what is in flight).
        let id = id?;
        let stamp = params.pointer(&format!("/_meta/{}", VERSION_META.replace('/', "~1")));
        // A revision that is not a string is none this server speaks (taking it as no
        // revision would answer it as a handshake-era request).
        if let Some(stamp) = stamp.filter(|v| !v.is_string()) {
            return Some(Answer::Value(unsupported_version(id, &stamp.to_string())));
        }
        let stamped = stamp.and_then(Value::as_str);
        let modern = match stamped {
            Some(MODERN_VERSION) => true,
            Some(other) => return Some(Answer::Value(unsupported_version(id, other))),
            None if method == "server/discover" => {
                return Some(Answer::Value(error(
                    id,
                    codes::INVALID_PARAMS,
                    "`server/discover` is a 2026-07-28 request: its `_meta` names the revision (`io.modelcontextprotocol/protocolVersion`) and the client's capabilities (`io.modelcontextprotocol/clientCapabilities`)",
                )));
            }
            None => false,
        };
        if modern {
            // What a stateless request must say about its client (`{}` for nothing).
            let capabilities = params.pointer(&format!(
                "/_meta/{}",
                elicit::CAPABILITIES_META.replace('/', "~1")
            ));
            if !capabilities.is_some_and(Value::is_object) {
                return Some(Answer::Value(error(
                    id,
                    codes::INVALID_PARAMS,
                    "a 2026-07-28 request's `_meta` carries `io.modelcontextprotocol/clientCapabilities`, an object (`{}` when the client offers nothing)",
                )));
            }
            if REMOVED_METHODS.contains(&method) {
                return Some(Answer::Value(error(
                    id,
                    codes::METHOD_NOT_FOUND,
                    &format!(
                        "`{method}` was removed in {MODERN_VERSION}: there is no handshake or session (`server/discover` says what this server speaks)"
                    ),
                )));
            }
        }
        if method == "tools/list" {
            return Some(match self.list(&params, modern) {
                Ok(text) => {
                    Answer::Text(format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{text}}}"#))
                }
                Err((code, message)) => Answer::Value(error(id, code, &message)),
            });
        }
        // How a service tool or prompt asks the client for input.
        let rounds = if modern {
            let capabilities = params
                .pointer(&format!(
                    "/_meta/{}",
                    elicit::CAPABILITIES_META.replace('/', "~1")
                ))
                .cloned()
                .unwrap_or_default();
            offers::Rounds::Stateless {
                approvals: self.approvals.clone(),
                caller: crate::caller::name(),
                capabilities,
            }
        } else {
            peer.clone()
                .map_or(offers::Rounds::Nobody, offers::Rounds::Peer)
        };
        let started = std::time::Instant::now();
        if let Some(answered) = self
            .offers
            .answer(
                method,
                &params,
                &rounds,
                modern.then_some(self.ttl_ms),
                notify.clone(),
                &|tool| self.sees(tool),
            )
            .await
        {
            if matches!(method, "tools/call" | "resources/read") {
                let outcome = answered.clone().map_err(|e| {
                    let code = e["code"].as_i64().unwrap_or(codes::INTERNAL_ERROR);
                    (code, e["message"].as_str().unwrap_or_default().to_owned())
                });
                self.record(&id, &params, &outcome, started.elapsed());
            }
            return Some(Answer::Value(match answered {
                Ok(mut result) => {
                    if modern && let Value::Object(map) = &mut result {
                        map.entry("resultType").or_insert(json!("complete"));
                    }
                    json!({"jsonrpc": "2.0", "id": id, "result": result})
                }
                Err(error) => json!({"jsonrpc": "2.0", "id": id, "error": error}),
            }));
        }
        let result = match method {
            "server/discover" => Ok(self.discover()),
            "initialize" => {
                if let Some(peer) = &peer {
                    peer.initialized(&params);
                }
                Ok(self.initialize(&params))
            }
            "ping" => Ok(json!({})),
            "tools/call" => {
                let asker = if modern {
                    (self.client_approvals && elicit::modern_client_elicits(&params))
                        .then(|| Asker::Retry(self.approvals.clone()))
                } else {
                    peer.filter(|p| self.client_approvals && p.elicits())
                        .map(Asker::Peer)
                };
                let started = std::time::Instant::now();
                let result = self.call(&params, notify, asker, &id).await;
                self.record(&id, &params, &result, started.elapsed());
                result
            }
            other => Err((
                codes::METHOD_NOT_FOUND,
                format!("method `{other}` is not supported by this server"),
            )),
        };
        Some(Answer::Value(match result {
            Ok(mut result) => {
                if modern && let Value::Object(map) = &mut result {
                    map.entry("resultType").or_insert(json!("complete"));
                }
                json!({"jsonrpc": "2.0", "id": id, "result": result})
            }
            Err((code, message)) => error(id, code, &message),
        }))
    }

    /// 2026-07-28's `server/discover`: the revisions, capabilities and identity a
    /// stateless client needs instead of `initialize`.
    fn discover(&self) -> Value {
        let mut versions: Vec<&str> = PROTOCOL_VERSIONS.iter().rev().copied().collect();
        versions.push(MODERN_VERSION);
        json!({
            "supportedVersions": versions,
            "capabilities": self.capabilities(false),
            "ttlMs": self.ttl_ms(),
            "cacheScope": "public",
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": self.name, "version": self.version}},
        })
    }

    /// What this server offers: tools always, the rest when there is some.
    fn capabilities(&self, stateful: bool) -> Value {
        let mut capabilities = Map::new();
        capabilities.insert("tools".into(), json!({"listChanged": self.list_changes}));
        self.offers.capabilities(&mut capabilities, stateful);
        // Code-mode scripts run as tasks for clients that take them.
        #[cfg(feature = "code")]
        if !stateful && self.listing().mode == ToolMode::Code {
            capabilities.insert("extensions".into(), json!({ TASKS_EXTENSION: {} }));
        }
        Value::Object(capabilities)
    }

    fn ttl_ms(&self) -> u64 {
        self.ttl_ms
    }

    fn initialize(&self, params: &Value) -> Value {
        let asked = params.get("protocolVersion").and_then(Value::as_str);
        let version = asked
            .filter(|v| PROTOCOL_VERSIONS.contains(v))
            .unwrap_or(PROTOCOL_VERSIONS[0]);
        json!({
            "protocolVersion": version,
            // Truthful: tools, and what the service offers besides.
            "capabilities": self.capabilities(true),
            "serverInfo": {"name": self.name, "version": self.version},
        })
    }

    /// The exported entries of every tool, in catalog order.
    fn listing(&self) -> std::sync::Arc<Listing> {
        let generation = *self.changes.borrow();
        if let Some((made_for, done)) = self
            .listing
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .as_ref()
            && *made_for == generation
        {
            return std::sync::Arc::clone(done);
        }
        let executor = self.current();
        let viewed;
        let catalog = match &self.view {
            Some(view) => {
                viewed = executor.catalog().subset(|tool| {
                    crate::catalog::select::with_facts(tool, |facts| {
                        view.iter().any(|selection| selection.keeps(facts))
                    })
                });
                &viewed
            }
            None => executor.catalog(),
        };
        let export = catalog.export_with(&self.export);
        let mut listing = Listing {
            entries: Vec::new(),
            inputs: std::collections::BTreeMap::new(),
            projections: std::collections::BTreeMap::new(),
            mapping: export.mapping().clone(),
            shown: Vec::new(),
            mode: self.mode.resolve(catalog.tools().len()),
            entry_of: std::collections::BTreeMap::new(),
            exported_of: std::collections::BTreeMap::new(),
            group_of: std::collections::BTreeMap::new(),
            producers: std::collections::BTreeMap::new(),
            #[cfg(feature = "code")]
            code: None,
        };
        // Catalog name → exported name, for the producers each entry names.
        let exported: std::collections::BTreeMap<&str, &str> = listing
            .mapping
            .iter()
            .map(|(exported, m)| (m.tool.as_str(), exported))
            .collect();
        let incoming = catalog.producers();
        for tool in export.tools() {
            let mut tool = tool.clone();
            let name = tool["name"].as_str().unwrap_or_default().to_owned();
            // Where its inputs come from: the tools whose results they take.
            let own = listing.mapping.get(&name).map(|m| m.tool.clone());
            if let (Some(op), Some(mapped)) = (
                own.as_deref().and_then(|own| catalog.get(own)),
                listing.mapping.get(&name),
            ) {
                mirror_header_params(&mut tool["inputSchema"], &op.operation, &mapped.keys);
            }
            if let Some(inputs) = own.as_deref().and_then(|own| incoming.get(own)) {
                let producers: serde_json::Map<String, Value> = inputs
                    .iter()
                    .filter_map(|(input, producers)| {
                        let shown: Vec<Value> = producers
                            .iter()
                            .filter_map(|p| {
                                let tool = exported.get(p.tool.as_str())?;
                                Some(json!({"tool": tool, "from": p.from}))
                            })
                            .collect();
                        (!shown.is_empty()).then(|| (input.clone(), Value::Array(shown)))
                    })
                    .collect();
                if !producers.is_empty() {
                    if !tool["_meta"].is_object() {
                        tool["_meta"] = json!({});
                    }
                    tool["_meta"]["io.toolwright/producers"] = Value::Object(producers.clone());
                    listing
                        .producers
                        .insert(name.clone(), Value::Object(producers));
                }
            }
            if let Some(output) = tool.get("outputSchema").cloned()
                && let Some(p) = projection::Projection::offer(&mut tool["inputSchema"], &output)
            {
                listing.projections.insert(name.clone(), p);
            }
            if let Some(own) = listing
                .mapping
                .get(&name)
                .and_then(|m| catalog.get(&m.tool))
            {
                listing
                    .exported_of
                    .insert(own.name.to_string(), name.clone());
                // Only group tools ask which group a tool is in.
                if listing.mode == ToolMode::Groups {
                    let group = crate::catalog::select::with_facts(own, |f| f.group.to_owned());
                    listing.group_of.insert(name.clone(), group);
                }
            }
            listing.entry_of.insert(name.clone(), listing.entries.len());
            listing.entries.push(tool.to_string());
            listing.inputs.insert(name, tool["inputSchema"].clone());
        }
        listing.shown = match listing.mode {
            ToolMode::Meta => modes::entries(
                &crate::catalog::meta::tools(listing.entries.len()),
                &self.export,
            ),
            ToolMode::Groups => {
                modes::entries(&crate::catalog::meta::groups(catalog), &self.export)
            }
            #[cfg(feature = "code")]
            ToolMode::Code => {
                let code = crate::code::Code::over(executor.clone(), catalog.clone())
                    .limits(self.code_limits);
                let shown = modes::entries(&code.tools(), &self.export);
                listing.code = Some(code);
                shown
            }
            _ => listing.entries.clone(),
        };
        // The service's own tools, after the catalog's (hiding any of the same name).
        for (name, entry) in self.offers.tool_entries() {
            if let Some(&i) = listing.entry_of.get(name)
                && let Some(shown) = listing.shown.iter().position(|e| *e == listing.entries[i])
            {
                listing.shown.remove(shown);
            }
            listing.shown.push(entry);
        }
        let entries = std::sync::Arc::new(listing);
        *self
            .listing
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner) =
            Some((generation, std::sync::Arc::clone(&entries)));
        entries
    }

    /// A `tools/list` result object as JSON text.
    fn list(&self, params: &Value, modern: bool) -> Result<String, (i64, String)> {
        let listing = self.listing();
        let tools = &listing.shown;
        let start = match params.get("cursor") {
            None | Some(Value::Null) => 0,
            Some(Value::String(cursor)) => cursor
                .strip_prefix("offset:")
                .and_then(|n| n.parse::<usize>().ok())
                .filter(|n| *n < tools.len())
                .ok_or_else(|| {
                    (
                        codes::INVALID_PARAMS,
                        format!(
                            "invalid cursor `{cursor}`: pass a `nextCursor` this server returned"
                        ),
                    )
                })?,
            Some(_) => return Err((codes::INVALID_PARAMS, "`cursor` must be a string".into())),
        };
        let end = (start + self.page_size).min(tools.len());
        let mut result = Map::new();
        if end < tools.len() {
            result.insert("nextCursor".into(), json!(format!("offset:{end}")));
        }
        if modern {
            result.insert("ttlMs".into(), json!(self.ttl_ms()));
            result.insert("cacheScope".into(), json!("public"));
            result.insert("resultType".into(), json!("complete"));
        }
        let mut text = String::from(r#"{"tools":["#);
        text.push_str(&tools[start..end].join(","));
        text.push(']');
        for (key, value) in &result {
            text.push_str(&format!(",{}:{value}", Value::String(key.clone())));
        }
        text.push('}');
        Ok(text)
    }

    /// `tools/call`: a meta-tool or group tool (in those modes), else the tool itself.
    async fn call(
        &self,
        params: &Value,
        notify: Option<tokio::sync::mpsc::UnboundedSender<String>>,
        asker: Option<Asker>,
        #[cfg_attr(not(feature = "code"), allow(unused_variables))] request_id: &Value,
    ) -> Result<Value, (i64, String)> {
        let Some(name) = params.get("name").and_then(Value::as_str) else {
            return Err((codes::INVALID_PARAMS, "`tools/call` needs a `name`".into()));
        };
        let listing = self.listing();
        let arguments = params.get("arguments").cloned().unwrap_or(json!({}));
        #[cfg(feature = "code")]
        if let Some(code) = &listing.code {
            // A script holds its place until its engine has stopped, which may be
            // after this answer is dropped (the engine stops at its next interrupt
            // poll): the place goes in the answer's lease, which the run keeps.
            let lease = crate::lease::current();
            if name == crate::code::EXECUTE {
                match self.scripts.admit(crate::caller::name()) {
                    Ok(place) => lease.hold(place),
                    Err(why) => return Ok(modes::mistake(&why)),
                }
            }
            let audit = code_mode::ScriptAudit {
                sink: self.audit.clone(),
                caller: crate::caller::name(),
                request_id: request_id.to_string(),
                calls: std::sync::atomic::AtomicUsize::new(0),
            };
            // 2026-07-28 with the Tasks extension: the script runs as a task, so a
            // call it makes that the gate wants confirmed waits for the client's
            // answer (`tasks/update`) instead of failing; the script keeps its place.
            let capabilities = params.pointer(&format!(
                "/_meta/{}",
                elicit::CAPABILITIES_META.replace('/', "~1")
            ));
            if name == crate::code::EXECUTE && capabilities.is_some_and(offers::declares_tasks) {
                // The task takes the answer's lease along: the places stay held
                // until the script's engine has stopped, after this answer.
                let (code, task_lease) = (code.clone(), lease.clone());
                let trusted = self.client_approvals;
                let created = self.offers.tasks().create_with(
                    crate::caller::name(),
                    move |inbox| async move {
                        let asker = trusted.then(|| Asker::Task(std::sync::Arc::new(inbox)));
                        Ok(crate::lease::within(
                            task_lease,
                            code_mode::call(&code, crate::code::EXECUTE, &arguments, asker, audit),
                        )
                        .await)
                    },
                );
                return created.map_err(|e| {
                    let code = e["code"].as_i64().unwrap_or(codes::INTERNAL_ERROR);
                    (code, e["message"].as_str().unwrap_or_default().to_owned())
                });
            }
            let answer = code_mode::call(code, name, &arguments, asker, audit);
            return Ok(crate::lease::within(lease, answer).await);
        }
        let target = match (listing.mode, name) {
            (ToolMode::Meta, modes::SEARCH) => {
                return Ok(self.search_tools(&listing, &arguments).await);
            }
            (ToolMode::Meta, modes::DESCRIBE) => return Ok(describe_tool(&listing, &arguments)),
            (ToolMode::Meta, modes::CALL) => match arguments.get("name").and_then(Value::as_str) {
                Some(tool) => (tool.to_owned(), arguments.get("arguments").cloned()),
                None => return Ok(modes::mistake("`call_tool` needs the tool's `name`")),
            },
            (ToolMode::Groups, group) if group.starts_with(modes::GROUP_PREFIX) => {
                let group = &group[modes::GROUP_PREFIX.len()..];
                let Some(operation) = arguments.get("operation").and_then(Value::as_str) else {
                    return Ok(modes::mistake(&format!("`{name}` needs an `operation`")));
                };
                let exported = listing.resolve(operation);
                if listing.group_of.get(exported).map(String::as_str) != Some(group) {
                    return Ok(modes::mistake(&format!(
                        "`{operation}` is not a {group} operation; `{name}` lists its operations"
                    )));
                }
                (operation.to_owned(), arguments.get("params").cloned())
            }
            _ => return self.call_tool(params, notify, asker).await,
        };
        // The inner call, as if the client had called the tool directly (keeping the
        // outer request's `_meta`, confirmation answers and state).
        let (tool, inner_args) = target;
        let mut inner = params.clone();
        inner["name"] = json!(listing.resolve(&tool));
        inner["arguments"] = inner_args.unwrap_or(json!({}));
        self.call_tool(&inner, notify, asker).await
    }

    /// `search_tools`: the catalog's index (and the executor's reranker), answered
    /// with exported names.
    async fn search_tools(&self, listing: &Listing, arguments: &Value) -> Value {
        let Some(query) = arguments.get("query").and_then(Value::as_str) else {
            return modes::mistake("`search_tools` needs a `query`: the task, in words");
        };
        let detail = match crate::catalog::meta::Detail::of(arguments) {
            Ok(d) => d,
            Err(e) => return modes::mistake(&e),
        };
        let limit = match crate::catalog::meta::search_limit(arguments, detail) {
            Ok(n) => n,
            Err(e) => return modes::mistake(&e),
        };
        let executor = self.current();
        // A request past the length search reads is cut, and the answer says so.
        let (query, cut) = crate::catalog::meta::read_request(query);
        let hits = executor.search(query, limit).await;
        modes::result(crate::catalog::meta::search_answer(
            &hits,
            detail,
            |tool| {
                listing
                    .exported_of
                    .get(tool.name.as_ref())
                    .map(String::as_str)
            },
            cut,
        ))
    }

    /// A tool itself (what `tools/call` runs for its name).
    async fn call_tool(
        &self,
        params: &Value,
        notify: Option<tokio::sync::mpsc::UnboundedSender<String>>,
        asker: Option<Asker>,
    ) -> Result<Value, (i64, String)> {
        let Some(name) = params.get("name").and_then(Value::as_str) else {
            return Err((codes::INVALID_PARAMS, "`tools/call` needs a `name`".into()));
        };
        let arguments = params.get("arguments").cloned().unwrap_or(json!({}));
        let executor = self.current();
        let listing = self.listing();
        let catalog = executor.catalog();
        let tool = listing.mapping.get(name).and_then(|m| catalog.get(&m.tool));
        let Some(tool) = tool else {
            let hint = listing
                .suggest(name)
                .map(|s| format!("; did you mean `{s}`?"))
                .unwrap_or_default();
            return Err((
                codes::INVALID_PARAMS,
                format!("unknown tool `{name}`{hint}"),
            ));
        };
        let structured = tool.output_schema.is_some();
        let projection = listing.projections.get(name);
        let mut arguments = arguments;
        let fields = projection.and_then(|_| projection::Projection::take(&mut arguments));
        let (target, arguments) = listing.mapping.translate(name, arguments);
        let approved = match executor.needs_approval(target, &arguments) {
            None => false,
            Some(reason) => match asker {
                // Nobody to ask: the executor answers `CONFIRMATION_REQUIRED`.
                None => false,
                Some(asker) => {
                    let question = elicit::request(&tool.title, &reason, &arguments);
                    match asker.ask(params, target, &arguments, question).await {
                        Asked::Yes => true,
                        Asked::Pending(result) => return Ok(result),
                        Asked::Refused(why) => return Err((codes::INVALID_PARAMS, why)),
                        Asked::No => {
                            return Ok(tool_error(&Error::ConfirmationRequired {
                                tool: target.to_owned(),
                                reason,
                                declined: true,
                            }));
                        }
                    }
                }
            },
        };
        let token = params.pointer("/_meta/progressToken").cloned();
        let outcome = match (token, notify) {
            (Some(token), Some(notify)) => {
                // The transport counts the answer's bytes; progress reports them.
                let received = std::sync::Arc::new(crate::transport::Received::new());
                let counting = executor.counting(received.clone());
                let call = counting.call_answering(target, arguments, approved);
                let what = format!("{} {}", tool.operation.method.as_str(), tool.operation.path);
                let every = self.progress_every;
                progress::while_running(call, &token, &what, every, &received, &notify).await
            }
            _ => executor.call_answering(target, arguments, approved).await,
        };
        Ok(match outcome {
            Ok(crate::executor::Answer {
                value,
                bytes_of: Some(media),
            }) => bytes_result(value, &media, target, structured, self.result_budget),
            Ok(crate::executor::Answer { mut value, .. }) => {
                if let (Some(p), Some(fields)) = (projection, &fields) {
                    p.apply(&mut value, fields);
                }
                let schema = listing.inputs.get(name).cloned().unwrap_or_default();
                let note = budget::fit(&mut value, self.result_budget, &schema);
                let mut content = vec![json!({"type": "text", "text": value.to_string()})];
                if let Some(note) = note {
                    content.push(json!({"type": "text", "text": note}));
                }
                let mut result = json!({"content": content, "isError": false});
                if structured && value.is_object() {
                    result["structuredContent"] = value;
                }
                result
            }
            Err(e) => tool_error(&e),
        })
    }
}

/// Marks each argument the operation sends as an HTTP header with `x-mcp-header`
/// (SEP-2243, 2026-07-28): a client mirrors it into `Mcp-Param-<header>` so a gateway
/// can route on it without reading the body, and the server checks the two agree.
/// Only scalar top-level arguments, and header names that are tokens.
fn mirror_header_params(
    input_schema: &mut Value,
    op: &crate::descriptor::Operation,
    keys: &crate::export::Keys,
) {
    use crate::descriptor::{ParamLocation, ValueKind};
    let Some(properties) = input_schema
        .get_mut("properties")
        .and_then(Value::as_object_mut)
    else {
        return;
    };
    for param in op
        .params
        .iter()
        .filter(|p| p.location == ParamLocation::Header)
    {
        let scalar = matches!(
            param.kind,
            ValueKind::String | ValueKind::Integer | ValueKind::Number | ValueKind::Boolean
        );
        let token = !param.wire_name.is_empty()
            && param
                .wire_name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b));
        // The argument as the export names it (keys may be renamed for a target).
        let exported = keys
            .renamed
            .iter()
            .find(|(_, original)| original.as_str() == param.field.as_ref())
            .map_or(param.field.as_ref(), |(exported, _)| exported.as_str());
        if let (true, true, Some(Value::Object(property))) =
            (scalar, token, properties.get_mut(exported))
        {
            property.insert("x-mcp-header".into(), json!(param.wire_name.as_ref()));
        }
    }
}

/// A result that is bytes: an `image` or `audio` content block for those media
/// types, an embedded resource (a `blob` with its `mimeType`) for others, and the
/// structured `{"result": <base64>}` when the tool declares an output schema. Bytes
/// over the result budget are not cut (a cut image is no image): the call is an error
/// saying how large they are instead.
fn bytes_result(value: Value, media: &str, tool: &str, structured: bool, budget: usize) -> Value {
    let data = match &value {
        Value::String(b64) => b64.as_str(),
        other => other.get("result").and_then(Value::as_str).unwrap_or(""),
    };
    if data.len() > budget {
        let size = data.len() / 4 * 3;
        // An error: there is no structured result to give (clients require one
        // for a tool with an output schema), and the model must not take a note for
        // the bytes.
        return json!({"content": [{"type": "text", "text": format!(
            "`{tool}` answered {size} bytes of {media}, more than this server's result budget ({budget} characters of base64); fetch it from code (`Executor::call_stream`) instead"
        )}], "isError": true});
    }
    let block = match media.split('/').next() {
        Some(kind @ ("image" | "audio")) => {
            json!({"type": kind, "data": data, "mimeType": media})
        }
        _ => json!({"type": "resource", "resource": {
            "uri": format!("toolwright://result/{tool}"),
            "mimeType": media,
            "blob": data,
        }}),
    };
    let mut result = json!({"content": [block], "isError": false});
    if structured {
        result["structuredContent"] = match value {
            Value::String(_) => json!({ "result": value }),
            other => other,
        };
    }
    result
}

/// Who puts a confirmation to the client's user.
enum Asker {
    /// 2026-07-28: answer `input_required`; the client calls again with the answer
    /// and the state these approvals issued.
    Retry(std::sync::Arc<approvals::Approvals>),
    /// A stateful connection: ask over it and wait.
    Peer(Peer),
    /// A task (2026-07-28, the Tasks extension): it turns `input_required` until the
    /// client answers with `tasks/update`.
    #[cfg_attr(not(feature = "code"), allow(dead_code))]
    Task(std::sync::Arc<offers::Inbox>),
}

enum Asked {
    Yes,
    No,
    /// The `input_required` result to answer now.
    Pending(Value),
    /// An answer that does not come with a state this server issued for this caller
    /// and this call: a protocol error, nothing sent.
    Refused(String),
}

impl Asker {
    async fn ask(&self, params: &Value, tool: &str, args: &Value, question: Value) -> Asked {
        match self {
            Asker::Retry(approvals) => {
                let caller = crate::caller::name();
                let answer = params.pointer(&format!("/inputResponses/{}", elicit::KEY));
                match (answer, params.get("requestState")) {
                    (None, _) => Asked::Pending(json!({
                        "resultType": "input_required",
                        "inputRequests": {
                            (elicit::KEY): {"method": "elicitation/create", "params": question}
                        },
                        "requestState": approvals.issue(caller.as_deref(), tool, args),
                    })),
                    (Some(_), None) => Asked::Refused(
                        "an answer to a confirmation needs the `requestState` it was asked with; call again without `inputResponses` to be asked".into(),
                    ),
                    (Some(answer), Some(state)) => {
                        let state = state.as_str().unwrap_or_default();
                        match approvals.redeem(state, caller.as_deref(), tool, args) {
                            Ok(()) if elicit::approved(answer) => Asked::Yes,
                            Ok(()) => Asked::No,
                            Err(refused) => Asked::Refused(refused.to_string()),
                        }
                    }
                }
            }
            Asker::Peer(peer) => match peer.request("elicitation/create", question).await {
                Some(answer) if elicit::approved(&answer) => Asked::Yes,
                _ => Asked::No,
            },
            Asker::Task(inbox) => match inbox.request("elicitation/create", question).await {
                Some(answer) if elicit::approved(&answer) => Asked::Yes,
                _ => Asked::No,
            },
        }
    }
}

/// A failed call as the model sees it: what went wrong, and for upstream failures the
/// HTTP status and body (in `_meta`), so it can retry, fix its arguments, or give up.
fn tool_error(e: &Error) -> Value {
    let mut result = json!({
        "content": [{"type": "text", "text": e.to_string()}],
        "isError": true,
        "_meta": {"toolwright": {"code": e.code()}},
    });
    if let Error::Status {
        status,
        body,
        headers,
        ..
    } = e
    {
        let meta = &mut result["_meta"]["toolwright"];
        meta["status"] = json!(status);
        meta["body"] = body.clone();
        if !headers.is_empty() {
            meta["headers"] = headers.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
        }
    }
    result
}

fn unsupported_version(id: Value, asked: &str) -> Value {
    let mut supported: Vec<&str> = PROTOCOL_VERSIONS.iter().rev().copied().collect();
    supported.push(MODERN_VERSION);
    json!({"jsonrpc": "2.0", "id": id, "error": {
        "code": codes::UNSUPPORTED_PROTOCOL_VERSION,
        "message": format!("protocol version `{asked}` is not supported"),
        "data": {"supported": supported, "requested": asked},
    }})
}

/// The catalog as clients see it, exported once.
#[derive(Debug)]
struct Listing {
    /// `tools/list` entries as JSON text.
    entries: Vec<String>,
    /// Exported name → exported input schema (result notes name its arguments).
    inputs: std::collections::BTreeMap<String, Value>,
    /// Exported name → the `fields` argument it was offered.
    projections: std::collections::BTreeMap<String, projection::Projection>,
    mapping: Mapping,
    /// What `tools/list` shows: `entries`, or the meta-tools, or the group tools.
    shown: Vec<String>,
    /// [`ToolMode`] resolved for this catalog's size.
    mode: ToolMode,
    /// Exported name → its place in `entries`.
    entry_of: std::collections::BTreeMap<String, usize>,
    /// Catalog name → exported name.
    exported_of: std::collections::BTreeMap<String, String>,
    /// Exported name → CRUDE group.
    group_of: std::collections::BTreeMap<String, String>,
    /// Exported name → input → the tools whose results it takes (`{tool, from}`).
    producers: std::collections::BTreeMap<String, Value>,
    /// Code mode over the tools this listing shows.
    #[cfg(feature = "code")]
    code: Option<crate::code::Code>,
}

/// `describe_tool`: one tool's full `tools/list` entry, and for each input the tools
/// whose results it takes (call one of those first when the user has not given it).
fn describe_tool(listing: &Listing, arguments: &Value) -> Value {
    let Some(name) = arguments.get("name").and_then(Value::as_str) else {
        return modes::mistake("`describe_tool` needs the tool's `name`");
    };
    let name = listing.resolve(name);
    match listing.entry_of.get(name) {
        Some(&i) => {
            let mut answer = json!({
                "tool": serde_json::from_str::<Value>(&listing.entries[i]).unwrap_or_default()
            });
            if let Some(producers) = listing.producers.get(name) {
                answer["inputs_from"] = producers.clone();
            }
            modes::result(answer)
        }
        None => {
            let hint = listing
                .suggest(name)
                .map(|s| format!("; did you mean `{s}`?"))
                .unwrap_or_default();
            modes::mistake(&format!(
                "unknown tool `{name}`{hint} (`search_tools` finds tools)"
            ))
        }
    }
}

impl Listing {
    /// The exported name for `name`, which may be the exported or the catalog's name.
    fn resolve<'a>(&'a self, name: &'a str) -> &'a str {
        if self.entry_of.contains_key(name) {
            name
        } else {
            self.exported_of.get(name).map_or(name, String::as_str)
        }
    }

    /// The closest exported name, for did-you-mean hints.
    fn suggest(&self, name: &str) -> Option<&str> {
        crate::catalog::closest(self.mapping.iter().map(|(exported, _)| exported), name)
    }
}

/// An answer built as a value, or already as wire text (`tools/list` pages).
enum Answer {
    Value(Value),
    Text(String),
}

fn error(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_become_content_blocks_of_their_media_type_within_the_budget() {
        let wrapped = json!({"result": "AAEC"});
        let image = bytes_result(wrapped.clone(), "image/png", "pic", true, 100);
        assert_eq!(
            image,
            json!({"content": [{"type": "image", "data": "AAEC", "mimeType": "image/png"}],
                   "isError": false, "structuredContent": {"result": "AAEC"}})
        );
        let audio = bytes_result(json!("AAEC"), "audio/mpeg", "say", false, 100);
        assert_eq!(audio["content"][0]["type"], "audio");
        assert!(audio.get("structuredContent").is_none());
        let other = bytes_result(json!("AAEC"), "application/zip", "zip", true, 100);
        assert_eq!(
            other["content"][0],
            json!({"type": "resource", "resource": {"uri": "toolwright://result/zip",
                   "mimeType": "application/zip", "blob": "AAEC"}})
        );
        assert_eq!(other["structuredContent"], wrapped);
        // Over the budget: an error saying how large, never cut bytes.
        let large = bytes_result(json!("AAECAAEC"), "image/png", "pic", true, 4);
        assert_eq!(large["isError"], true);
        let text = large["content"][0]["text"].as_str().unwrap();
        assert!(text.contains("answered 6 bytes of image/png"), "{text}");
    }
}
