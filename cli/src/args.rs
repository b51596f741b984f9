//! The command line's types: every command, its options and the groups of options
//! several commands share, as clap parses them.

use std::path::PathBuf;

use clap::{Args as ClapArgs, Parser, Subcommand, ValueEnum};
use toolwright_codegen::Analysis;

use crate::overview;

pub(crate) const AFTER_HELP: &str = "\
INPUT is an adapter file (`<name>-adapter.md`), an OpenAPI 3.0/3.1 document (`.json`,
`.yaml`, `.yml`), a Google Discovery document (`.json` with `discoveryVersion`), or a
directory searched for them. Credentials are read from the
environment variables the inputs name.

Exit codes: 0 success; 1 the inputs have errors, or the call failed; 2 usage error.";

/// Turn API descriptions (adapter files, OpenAPI, Google Discovery, GraphQL, MCP) into a
/// typed Rust client and an LLM tool catalog, or run them directly.
#[derive(Debug, Parser)]
#[command(name = "toolwright", version, after_help = AFTER_HELP, max_term_width = overview::WIDTH)]
pub(crate) struct Cli {
    /// When to colour diagnostics (also off when NO_COLOR is set).
    #[arg(long, value_enum, default_value_t = Color::Auto, global = true)]
    pub(crate) color: Color,
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Color {
    /// Colour when standard error is a terminal and NO_COLOR is not set.
    Auto,
    Always,
    Never,
}

// Parsed once per run: the size of the largest variant (`serve`'s options) costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Check the inputs and report every problem at once (file:line:col).
    #[command(after_help = AFTER_HELP)]
    Check {
        #[command(flatten)]
        inputs: Inputs,
        /// `human` (rustc-style) or `json` (one object: diagnostics, counts) on stdout.
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
    },
    /// Run the adapters' conformance tests offline.
    ///
    /// The cases are `{name}-adapter-tests.yaml` next to each adapter: each case's call
    /// runs against an in-process responder, its request compared with the one the case
    /// expects.
    #[command(after_help = AFTER_HELP)]
    Test {
        #[command(flatten)]
        inputs: Inputs,
    },
    /// Print the catalog: an overview on a terminal, JSON otherwise.
    ///
    /// On a terminal, each tool's name and summary; with `--json`, or when standard
    /// output is a pipe or a file, the catalog as it is (an MCP `tools/list` object with
    /// the full schemas), or exported for an MCP client or a model API (`--format`),
    /// with its rules applied.
    #[command(after_help = AFTER_HELP)]
    Catalog {
        #[command(flatten)]
        inputs: Inputs,
        #[command(flatten)]
        export: ExportArgs,
        /// The full JSON on a terminal too (where the default is a short overview:
        /// each tool's name and summary); a pipe or a file always gets the JSON.
        #[arg(long)]
        json: bool,
    },
    /// Write the collection artifact (tool graph, contracts, readiness) as JSON.
    ///
    /// One JSON file: the evidence-only tool graph, every tool's IO contract, the
    /// readiness report and the sources' manifest.
    #[command(after_help = AFTER_HELP)]
    Artifact {
        /// Adapter files, OpenAPI or Google Discovery documents, GraphQL schemas (SDL or
        /// introspection JSON), saved MCP `tools/list` results, or directories holding them.
        #[arg(value_name = "INPUT", required_unless_present = "schema")]
        paths: Vec<PathBuf>,
        /// Turn warnings into errors.
        #[arg(long)]
        strict: bool,
        /// Where to write it (`-`: standard output).
        #[arg(long, value_name = "FILE", required_unless_present = "schema")]
        out: Option<PathBuf>,
        /// A previous artifact: its manual edges and metadata, and fields this
        /// version does not know, are kept.
        #[arg(long, value_name = "FILE")]
        previous: Option<PathBuf>,
        /// An input the service fills itself (tenant, site): `context`, not data.
        #[arg(long = "context-field", value_name = "NAME")]
        context_fields: Vec<String>,
        /// An input that is a credential although no security scheme says so.
        #[arg(long = "auth-field", value_name = "NAME")]
        auth_fields: Vec<String>,
        /// An input that pages (beyond the usual `page`, `limit`, `cursor`…).
        #[arg(long = "paging-field", value_name = "NAME")]
        paging_fields: Vec<String>,
        /// An input that filters a search (beyond the usual `q`, `query`, `filter`…).
        #[arg(long = "search-field", value_name = "NAME")]
        search_fields: Vec<String>,
        /// Print the artifact's JSON Schema instead (no inputs read).
        #[arg(long)]
        schema: bool,
        #[command(flatten)]
        select: Selectors,
    },
    /// Write the inspection report, one self-contained HTML page.
    ///
    /// The page needs no network: every tool (filterable, sortable), its schemas,
    /// annotations and their provenance, contract, exports, native metadata and source
    /// lines, the data-flow graph, the readiness findings and each source's fidelity
    /// matrix.
    #[command(after_help = AFTER_HELP)]
    Report {
        #[command(flatten)]
        inputs: Inputs,
        /// Where to write it (`-`: standard output).
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// The page's title (default: the APIs' names).
        #[arg(long)]
        title: Option<String>,
        /// Leave out each tool's MCP, OpenAI, Anthropic and Gemini exports.
        #[arg(long)]
        no_exports: bool,
    },
    /// Save an MCP server's `tools/list` as a JSON file, to use as a source.
    ///
    /// The file holds the server's tools with its info, prompts and resources, and is
    /// read like an OpenAPI document: `toolwright mcp-snapshot --out everything.json --
    /// npx -y @modelcontextprotocol/server-everything`.
    McpSnapshot {
        /// Where to write it (`-`: standard output).
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// Seconds the server may take to start and answer.
        #[arg(long, value_name = "SECONDS", default_value_t = 30.0)]
        timeout: f64,
        /// The server's command and its arguments.
        #[arg(required = true, last = true, value_name = "COMMAND")]
        command: Vec<String>,
    },
    /// Find the tools that best match a request in words ("open a new bug report").
    ///
    /// Prints `name<TAB>score<TAB>summary` per line, best first.
    #[command(after_help = AFTER_HELP)]
    Search {
        /// What the tool should do, as a person or a model would ask.
        query: String,
        #[command(flatten)]
        inputs: Inputs,
        /// How many tools to list (default 5; 20 with `--compact`).
        #[arg(long, short = 'k', value_name = "N")]
        k: Option<usize>,
        /// One JSON array (name, score, summary, api, method, path) instead.
        #[arg(long, conflicts_with = "typescript")]
        json: bool,
        /// One short `name: summary` line per tool (at most 25 tokens), what
        /// `search_tools` answers with `detail: "compact"`; with `--json`, a JSON
        /// array of those lines.
        #[arg(long, conflicts_with = "typescript")]
        compact: bool,
        /// The matching tools as TypeScript declarations instead (what a model
        /// writing a script against the API reads).
        #[arg(long)]
        typescript: bool,
    },
    /// Write exactly what build.rs writes; `include!` DIR/toolwright.rs.
    #[command(after_help = AFTER_HELP)]
    Generate {
        #[command(flatten)]
        inputs: Inputs,
        /// The directory to write to.
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        #[command(flatten)]
        types: TypeOptions,
    },
    /// Serve the inputs' tools to MCP clients, over stdio or streamable HTTP.
    ///
    /// The inputs are interpreted: nothing is compiled.
    #[command(after_help = AFTER_HELP)]
    Serve {
        #[command(flatten)]
        inputs: Inputs,
        #[command(flatten)]
        upstream: Upstream,
        /// Serve streamable HTTP on ADDR (e.g. 127.0.0.1:8080, endpoint `/mcp`)
        /// instead of stdio.
        #[arg(long, value_name = "ADDR")]
        http: Option<std::net::SocketAddr>,
        #[command(flatten)]
        options: ServeOptions,
    },
    /// Call one tool with JSON arguments (the inputs interpreted, nothing compiled).
    #[command(after_help = AFTER_HELP)]
    Call {
        #[command(flatten)]
        inputs: Inputs,
        /// The tool's name, as the catalog lists it.
        #[arg(long, value_name = "NAME")]
        tool: String,
        /// The arguments, a JSON object (`{}` when left out).
        #[arg(long, value_name = "JSON")]
        args: Option<String>,
        /// A paginated tool: read up to N pages and print `{items, pages, complete,
        /// next}` (`next`: the arguments that resume after the last page read).
        #[arg(long, value_name = "N")]
        pages: Option<usize>,
        #[command(flatten)]
        upstream: Upstream,
    },
}

#[derive(Debug, Clone, ClapArgs)]
pub(crate) struct Upstream {
    /// Send API's requests to URL instead of its default base URL.
    #[arg(long = "base-url", value_name = "API=URL", value_parser = api_url)]
    pub(crate) base_urls: Vec<(String, String)>,
    /// Seconds a call may take in all, retries included.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub(crate) timeout: f64,
    /// Answer MCP API's tools (from a saved `tools/list`) through the MCP server
    /// started as COMMAND (words split on spaces) over stdio, or at URL
    /// (`https://...`, or `http://` on loopback) over streamable HTTP.
    #[arg(long = "mcp-server", value_name = "API=COMMAND|URL", value_parser = api_url)]
    pub(crate) mcp_servers: Vec<(String, String)>,
    /// `serve --http` with authorization: call API with each MCP client's own access
    /// token instead of this service's credentials (repeatable).
    #[arg(long = "pass-through", value_name = "API")]
    pub(crate) pass_through: Vec<String>,
    /// `serve --http` with OAuth: call API with the value of CLAIM of each MCP
    /// client's access token (a downstream token its identity provider put there).
    #[arg(long = "pass-through-claim", value_name = "API=CLAIM", value_parser = api_url)]
    pub(crate) pass_through_claims: Vec<(String, String)>,
    /// `serve --http` with authorization: call API with a token exchanged for each MCP
    /// client's own (RFC 8693) at TOKEN_URL (repeatable; needs `--exchange-client`).
    #[arg(long = "exchange", value_name = "API=TOKEN_URL", value_parser = api_url, requires = "exchange_client")]
    pub(crate) exchanges: Vec<(String, String)>,
    /// `--exchange`: this service's client id at the token endpoint, and the
    /// environment variable holding its secret (never on the command line).
    #[arg(long, value_name = "CLIENT_ID=ENV_VAR", value_parser = api_url, requires = "exchanges")]
    pub(crate) exchange_client: Option<(String, String)>,
    /// `--exchange`: the audience to ask a token for, per API (default: none).
    #[arg(long = "exchange-audience", value_name = "API=AUDIENCE", value_parser = api_url, requires = "exchanges")]
    pub(crate) exchange_audiences: Vec<(String, String)>,
}

#[derive(Debug, ClapArgs)]
pub(crate) struct ServeOptions {
    /// Tools per `tools/list` page.
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub(crate) page_size: usize,
    /// Offer the read-only `GET` operations this selector keeps as MCP resources
    /// (`read-only`, `tag:repos`, `api:tracker`...): one needing no argument as a
    /// resource, one taking only path parameters as a resource template. Repeatable.
    /// Each API's documentation (an adapter's Markdown body) is always a resource.
    #[arg(long = "resources", value_name = "SELECTOR")]
    pub(crate) resources: Vec<String>,
    /// Characters of JSON a call result may take (longer arrays are cut, with a
    /// note); about 25,000 tokens by default.
    #[arg(long, value_name = "CHARS", default_value_t = 100_000)]
    pub(crate) result_budget: usize,
    /// How often a call that asked for progress reports it is still running.
    #[arg(long, value_name = "MS", default_value_t = 1_000)]
    pub(crate) progress_interval: u64,
    /// Leave room in tool names for a prefix the client adds (Claude Code's
    /// `mcp__<server>__`); names are 48 characters at most by default.
    #[arg(long, value_name = "PREFIX")]
    pub(crate) client_prefix: Option<String>,
    /// What `tools/list` shows: `auto` (every tool up to `--meta-above`, the
    /// meta-tools beyond), `direct` (every tool), `meta` (`search_tools`,
    /// `describe_tool`, `call_tool`), `groups` (one tool per CRUDE group), `code`
    /// (`search` for TypeScript declarations, `execute` to run a script against them).
    #[arg(long, value_enum, default_value_t = ServeMode::Auto)]
    pub(crate) mode: ServeMode,
    /// Above this many tools, `auto` serves the meta-tools.
    #[arg(long, value_name = "N", default_value_t = 128)]
    pub(crate) meta_above: usize,
    /// `--mode code`: API calls one script may make.
    #[cfg(feature = "code")]
    #[arg(long, value_name = "N", default_value_t = toolwright::code::Limits::default().calls)]
    pub(crate) script_calls: usize,
    /// `--mode code`: seconds one script may take, waiting for calls included.
    #[cfg(feature = "code")]
    #[arg(long, value_name = "SECONDS", default_value_t = toolwright::code::Limits::default().wall.as_secs_f64())]
    pub(crate) script_seconds: f64,
    /// `--mode code`: milliseconds of CPU one script may spend running.
    #[cfg(feature = "code")]
    #[arg(long, value_name = "MS", default_value_t = toolwright::code::Limits::default().cpu.as_millis() as u64)]
    pub(crate) script_cpu_ms: u64,
    /// `--mode code`: MiB of memory one script's engine may hold.
    #[cfg(feature = "code")]
    #[arg(long, value_name = "MIB", default_value_t = toolwright::code::Limits::default().memory >> 20)]
    pub(crate) script_memory: usize,
    /// `--mode code`: scripts run at once, all callers together (each may hold its
    /// whole `--script-memory`).
    #[cfg(feature = "code")]
    #[arg(long, value_name = "N", default_value_t = 16)]
    pub(crate) max_scripts: usize,
    /// `--mode code`: scripts one caller may run at once.
    #[cfg(feature = "code")]
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub(crate) max_scripts_per_caller: usize,
    /// `--http`: connections held open at once; past it the oldest idle one is
    /// closed to make room.
    #[arg(long, value_name = "N", default_value_t = toolwright::serve::mcp::Limits::default().max_connections)]
    pub(crate) max_connections: usize,
    /// `--http`: tool calls one caller may make per second (also its burst; 0: no
    /// limit); past it `429` with `Retry-After`.
    #[arg(long, value_name = "N", default_value_t = toolwright::serve::mcp::Limits::default().calls_per_second_per_caller)]
    pub(crate) calls_per_second: u32,
    /// `--http`: tool calls answered at once, all callers together; past it `503`.
    #[arg(long, value_name = "N", default_value_t = toolwright::serve::mcp::Limits::default().max_calls_in_flight)]
    pub(crate) max_calls_in_flight: usize,
    /// `--http`: let a client's answer to a confirmation (an elicitation) approve a
    /// call the gate wants confirmed. Off: such calls get `CONFIRMATION_REQUIRED`,
    /// since a server cannot tell a person's yes from the client's own.
    #[arg(long)]
    pub(crate) trust_client_approval: bool,
    /// `--http`: requests one caller may have in progress at once (bodies arriving
    /// and calls running); past it `429` for that caller only.
    #[arg(long, value_name = "N", default_value_t = toolwright::serve::mcp::Limits::default().max_requests_per_caller)]
    pub(crate) max_requests_per_caller: usize,
    /// `--http`: seconds a connection may stay open with no request in progress.
    #[arg(long, value_name = "SECONDS", default_value_t = toolwright::serve::mcp::Limits::default().idle_timeout.as_secs_f64())]
    pub(crate) idle_timeout: f64,
    /// `--http`: accept the bearer token in environment variable ENV_VAR, naming its
    /// holder NAME in logs (repeatable; tokens at least 16 characters).
    #[arg(long = "auth-token", value_name = "NAME=ENV_VAR", value_parser = api_url)]
    pub(crate) auth_tokens: Vec<(String, String)>,
    /// `--http`: accept the bearer tokens of FILE, one `NAME TOKEN` per line (`#`
    /// starts a comment).
    #[arg(long = "auth-tokens", value_name = "FILE")]
    pub(crate) auth_token_file: Option<PathBuf>,
    /// `--http`: serve a non-loopback address without authorization (a network where
    /// every host is trusted); refused otherwise.
    #[arg(long, conflicts_with_all = ["auth_tokens", "auth_token_file", "oauth_issuer"])]
    pub(crate) no_auth: bool,
    /// `--http`: accept OAuth 2.1 access tokens (JWTs) this authorization server
    /// issued for `--oauth-resource`, checked against its published keys.
    #[arg(long, value_name = "URL", requires = "oauth_resource", conflicts_with_all = ["auth_tokens", "auth_token_file"])]
    pub(crate) oauth_issuer: Option<String>,
    /// `--http` with `--oauth-issuer`: this endpoint's URL as clients reach it
    /// (`https://mcp.example.com/mcp`), the audience tokens must name.
    #[arg(long, value_name = "URL", requires = "oauth_issuer")]
    pub(crate) oauth_resource: Option<String>,
    /// `--oauth-issuer`'s JWK Set URL (default: found through its metadata).
    #[arg(long, value_name = "URL", requires = "oauth_issuer")]
    pub(crate) oauth_jwks: Option<String>,
    /// `--oauth-issuer`: holders of SCOPE see and call the tools SELECTOR chooses
    /// (repeatable; a scope's selectors add up). Once any is given, a token without
    /// one of these scopes is refused.
    #[arg(long = "oauth-scope", value_name = "SCOPE=SELECTOR", value_parser = api_url, requires = "oauth_issuer")]
    pub(crate) oauth_scopes: Vec<(String, String)>,
    /// `--oauth-issuer`: a token with an unknown key id refetches the keys at most
    /// this often.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 10.0,
        requires = "oauth_issuer"
    )]
    pub(crate) oauth_key_refresh: f64,
    /// `--oauth-issuer`: check every token at this introspection endpoint (RFC 7662)
    /// instead of as a JWT — for opaque tokens, or so a revoked one is refused at once
    /// (answers kept up to a minute). Needs `--oauth-client`.
    #[arg(
        long,
        value_name = "URL",
        requires_all = ["oauth_issuer", "oauth_client"]
    )]
    pub(crate) oauth_introspection: Option<String>,
    /// `--oauth-introspection`: this server's client id at the authorization server,
    /// and the environment variable holding its secret (never on the command line).
    #[arg(long, value_name = "CLIENT_ID=ENV_VAR", value_parser = api_url, requires = "oauth_introspection")]
    pub(crate) oauth_client: Option<(String, String)>,
    /// Print one audit line per tool call on stderr (`audit: {caller, tool, api,
    /// outcome, duration_ms, request_id}`; never arguments, results or credentials).
    #[arg(long)]
    pub(crate) audit: bool,
    /// `--http`: seconds for a request's head to arrive whole (and as many for its body,
    /// at least the default 30).
    #[arg(long, value_name = "SECONDS", default_value_t = toolwright::serve::mcp::Limits::default().header_timeout.as_secs_f64())]
    pub(crate) header_timeout: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ServeMode {
    Auto,
    Direct,
    Meta,
    Groups,
    #[cfg(feature = "code")]
    Code,
}

#[derive(Debug, ClapArgs)]
pub(crate) struct ExportArgs {
    /// `catalog` (as generated), or the target: `mcp`, `openai` (Responses API
    /// tools), `anthropic`, `gemini`. Exports carry `mapping` (exported names and
    /// keys → the catalog's) and `warnings`. `typescript`: the API as TypeScript
    /// declarations (a namespace per API, a function per tool), for a model that
    /// writes code against it.
    #[arg(long, value_enum, default_value_t = CatalogFormat::Catalog)]
    pub(crate) format: CatalogFormat,
    /// Longest exported tool name (default: the target's limit; 48 for MCP).
    #[arg(long, value_name = "CHARS", conflicts_with = "client_prefix")]
    pub(crate) name_budget: Option<usize>,
    /// Leave room for a prefix the client adds to names (e.g. `mcp__tracker__`).
    #[arg(long, value_name = "PREFIX")]
    pub(crate) client_prefix: Option<String>,
    /// Longest tool description, in characters.
    #[arg(long, value_name = "CHARS", default_value_t = toolwright::export::DESCRIPTION_BUDGET)]
    pub(crate) description_budget: usize,
    /// Strict schemas (default on for OpenAI; opt-in for Anthropic).
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true")]
    pub(crate) strict_schemas: Option<bool>,
    /// Deferred loading: Anthropic's tool search, OpenAI namespaces + tool search.
    #[arg(long)]
    pub(crate) defer_loading: bool,
    /// `direct`: every tool; `meta`: the three meta-tools (`search_tools`,
    /// `describe_tool`, `call_tool`); `groups`: one `mcp_aql_<group>` tool per CRUDE
    /// group; `auto`: meta above `--meta-above` tools; `code`: `search` and `execute`
    /// (code mode). A service answers meta and group tools with `Executor::call_meta`,
    /// code mode's with `Executor::code().call`.
    #[arg(long, value_enum, default_value_t = ExportMode::Direct)]
    pub(crate) mode: ExportMode,
    /// Above this many tools, `--mode auto` exports the meta-tools.
    #[arg(long, value_name = "N", default_value_t = 128)]
    pub(crate) meta_above: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ExportMode {
    Direct,
    Meta,
    Groups,
    Auto,
    #[cfg(feature = "code")]
    Code,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum CatalogFormat {
    Catalog,
    Mcp,
    Openai,
    Anthropic,
    Gemini,
    Typescript,
}

impl ExportArgs {
    pub(crate) fn options(&self) -> Option<toolwright::ExportOptions> {
        use toolwright::Profile;
        let profile = match self.format {
            CatalogFormat::Catalog | CatalogFormat::Typescript => return None,
            CatalogFormat::Mcp => Profile::Mcp,
            CatalogFormat::Openai => Profile::OpenAi,
            CatalogFormat::Anthropic => Profile::Anthropic,
            CatalogFormat::Gemini => Profile::Gemini,
        };
        let mut options = toolwright::ExportOptions::new(profile)
            .description_budget(self.description_budget)
            .defer_loading(self.defer_loading);
        if let Some(strict) = self.strict_schemas {
            options = options.strict(strict);
        }
        if let Some(prefix) = &self.client_prefix {
            options = options.client_prefix(prefix);
        }
        if let Some(budget) = self.name_budget {
            options = options.name_budget(budget);
        }
        Some(options)
    }
}

#[derive(Debug, ClapArgs)]
pub(crate) struct Inputs {
    /// Adapter files, OpenAPI or Google Discovery documents, GraphQL schemas (SDL or
    /// introspection JSON), saved MCP `tools/list` results, or directories holding them.
    #[arg(value_name = "INPUT", required = true)]
    pub(crate) paths: Vec<PathBuf>,
    /// Treat every warning as an error.
    #[arg(long)]
    pub(crate) strict: bool,
    /// Name the API read as READ (its file stem: `schema` for `schema.graphql`) NAME
    /// instead.
    #[arg(long = "api-name", value_name = "READ=NAME", value_parser = api_url)]
    pub(crate) api_names: Vec<(String, String)>,
    /// The endpoint of GraphQL API `API` (a schema does not name one).
    #[arg(long = "graphql-endpoint", value_name = "API=URL", value_parser = api_url)]
    pub(crate) graphql_endpoints: Vec<(String, String)>,
    #[command(flatten)]
    pub(crate) select: Selectors,
}

impl Inputs {
    /// The inputs read and checked, with the names and endpoints given.
    pub(crate) fn analysis(&self) -> Analysis {
        let mut options = toolwright_codegen::source::Options::default();
        options.names.extend(self.api_names.iter().cloned());
        options
            .graphql
            .endpoints
            .extend(self.graphql_endpoints.iter().cloned());
        toolwright_codegen::analyze_with(&self.paths, &options, self.strict)
    }
}

/// Which tools to keep; one selector syntax for every command and `Config`.
#[derive(Debug, Clone, Default, ClapArgs)]
pub(crate) struct Selectors {
    /// Keep the tools SELECTOR matches (repeatable; any of them): `tag:NAME`,
    /// `api:NAME`, `path:/prefix`, `op:GLOB`, `method:GET`, `group:read`, `read-only`,
    /// `destructive`; `,` between alternatives, `+` for all of several.
    #[arg(long = "include", value_name = "SELECTOR")]
    pub(crate) include: Vec<String>,
    /// Leave out the tools SELECTOR matches (after the includes).
    #[arg(long = "exclude", value_name = "SELECTOR")]
    pub(crate) exclude: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    Human,
    Json,
}

pub(crate) fn api_url(text: &str) -> Result<(String, String), String> {
    text.split_once('=')
        .map(|(api, url)| (api.to_owned(), url.to_owned()))
        .ok_or_else(|| "expected API=URL".to_owned())
}

impl Selectors {
    pub(crate) fn selection(
        &self,
    ) -> Result<toolwright::Selection, Vec<toolwright::query::select::ParseError>> {
        toolwright::Selection::parse(&self.include, &self.exclude)
    }
}

/// What `generate` makes Rust types for, and what they implement (`Config`'s switches
/// of the same names).
#[derive(clap::Args, Debug)]
pub(crate) struct TypeOptions {
    /// No Rust types or client methods for any operation: tools and descriptors
    /// only (listed, callable by name, checked against their schemas).
    #[arg(long)]
    pub catalog_only: bool,
    /// Rust types and client methods only for the operations SELECTOR matches
    /// (repeatable); the rest catalog-only.
    #[arg(long, value_name = "SELECTOR")]
    pub typed: Vec<String>,
    /// Both `Serialize` and `Deserialize` on every generated type (by default
    /// inputs are only serialized and outputs only deserialized).
    #[arg(long)]
    pub full_serde: bool,
    /// Methods of tagged operations, and the types only they use, behind a cargo
    /// feature per tag (`<api>-<tag>`).
    #[arg(long)]
    pub features_by_tag: bool,
    /// Generated structs and data enums without `#[derive(Clone)]` (a faster check).
    #[arg(long)]
    pub no_derive_clone: bool,
    /// Every tool's catalog entry embedded as data (`toolwright_tools.json`), typed ones
    /// too: `TOOLS` is empty, `catalog()` reads them once (a faster check).
    #[arg(long)]
    pub embed_tools: bool,
    /// Generated structs and data enums without `#[derive(PartialEq)]` (a faster check).
    #[arg(long)]
    pub no_derive_partial_eq: bool,
}
