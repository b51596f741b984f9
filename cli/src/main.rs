//! `toolwright`: check API descriptions, print their catalog, generate code, or make one
//! call. Command-line parsing is clap's (help, version, per-command help, colour
//! choice, did-you-mean for misspelt options: what Rust users expect of a CLI).

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args as ClapArgs, Parser, Subcommand, ValueEnum};
use toolwright_cli::interpret;
use toolwright_cli::terminal::safe;
use toolwright_codegen::{Analysis, Config};

mod findings;
mod memory;
mod overview;

const AFTER_HELP: &str = "\
INPUT is an adapter file (`<name>-adapter.md`), an OpenAPI 3.0/3.1 document (`.json`,
`.yaml`, `.yml`), a Google Discovery document (`.json` with `discoveryVersion`), or a
directory searched for them. Credentials are read from the
environment variables the inputs name.

Exit codes: 0 success; 1 the inputs have errors, or the call failed; 2 usage error.";

/// Turn API descriptions (adapter files, OpenAPI, Google Discovery, GraphQL, MCP) into a
/// typed Rust client and an LLM tool catalog, or run them directly.
#[derive(Debug, Parser)]
#[command(name = "toolwright", version, after_help = AFTER_HELP, max_term_width = overview::WIDTH)]
struct Cli {
    /// When to colour diagnostics (also off when NO_COLOR is set).
    #[arg(long, value_enum, default_value_t = Color::Auto, global = true)]
    color: Color,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Color {
    /// Colour when standard error is a terminal and NO_COLOR is not set.
    Auto,
    Always,
    Never,
}

// Parsed once per run: the size of the largest variant (`serve`'s options) costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
enum Command {
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
        /// How many tools to list.
        #[arg(long, short = 'k', value_name = "N", default_value_t = 5)]
        k: usize,
        /// One JSON array (name, score, summary, api, method, path) instead.
        #[arg(long, conflicts_with = "typescript")]
        json: bool,
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
        /// No Rust types or client methods for any operation: tools and descriptors
        /// only (listed, callable by name, checked against their schemas).
        #[arg(long)]
        catalog_only: bool,
        /// Rust types and client methods only for the operations SELECTOR matches
        /// (repeatable); the rest catalog-only.
        #[arg(long, value_name = "SELECTOR")]
        typed: Vec<String>,
        /// Both `Serialize` and `Deserialize` on every generated type (by default
        /// inputs are only serialized and outputs only deserialized).
        #[arg(long)]
        full_serde: bool,
        /// Methods of tagged operations, and the types only they use, behind a cargo
        /// feature per tag (`<api>-<tag>`).
        #[arg(long)]
        features_by_tag: bool,
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
struct Upstream {
    /// Send API's requests to URL instead of its default base URL.
    #[arg(long = "base-url", value_name = "API=URL", value_parser = api_url)]
    base_urls: Vec<(String, String)>,
    /// Seconds a call may take in all, retries included.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    timeout: f64,
    /// Answer MCP API's tools (from a saved `tools/list`) through the MCP server
    /// started as COMMAND (words split on spaces) over stdio, or at URL
    /// (`https://...`, or `http://` on loopback) over streamable HTTP.
    #[arg(long = "mcp-server", value_name = "API=COMMAND|URL", value_parser = api_url)]
    mcp_servers: Vec<(String, String)>,
    /// `serve --http` with authorization: call API with each MCP client's own access
    /// token instead of this service's credentials (repeatable).
    #[arg(long = "pass-through", value_name = "API")]
    pass_through: Vec<String>,
    /// `serve --http` with OAuth: call API with the value of CLAIM of each MCP
    /// client's access token (a downstream token its identity provider put there).
    #[arg(long = "pass-through-claim", value_name = "API=CLAIM", value_parser = api_url)]
    pass_through_claims: Vec<(String, String)>,
    /// `serve --http` with authorization: call API with a token exchanged for each MCP
    /// client's own (RFC 8693) at TOKEN_URL (repeatable; needs `--exchange-client`).
    #[arg(long = "exchange", value_name = "API=TOKEN_URL", value_parser = api_url, requires = "exchange_client")]
    exchanges: Vec<(String, String)>,
    /// `--exchange`: this service's client id at the token endpoint, and the
    /// environment variable holding its secret (never on the command line).
    #[arg(long, value_name = "CLIENT_ID=ENV_VAR", value_parser = api_url, requires = "exchanges")]
    exchange_client: Option<(String, String)>,
    /// `--exchange`: the audience to ask a token for, per API (default: none).
    #[arg(long = "exchange-audience", value_name = "API=AUDIENCE", value_parser = api_url, requires = "exchanges")]
    exchange_audiences: Vec<(String, String)>,
}

#[derive(Debug, ClapArgs)]
struct ServeOptions {
    /// Tools per `tools/list` page.
    #[arg(long, value_name = "N", default_value_t = 100)]
    page_size: usize,
    /// Offer the read-only `GET` operations this selector keeps as MCP resources
    /// (`read-only`, `tag:repos`, `api:tracker`...): one needing no argument as a
    /// resource, one taking only path parameters as a resource template. Repeatable.
    /// Each API's documentation (an adapter's Markdown body) is always a resource.
    #[arg(long = "resources", value_name = "SELECTOR")]
    resources: Vec<String>,
    /// Characters of JSON a call result may take (longer arrays are cut, with a
    /// note); about 25,000 tokens by default.
    #[arg(long, value_name = "CHARS", default_value_t = 100_000)]
    result_budget: usize,
    /// How often a call that asked for progress reports it is still running.
    #[arg(long, value_name = "MS", default_value_t = 1_000)]
    progress_interval: u64,
    /// Leave room in tool names for a prefix the client adds (Claude Code's
    /// `mcp__<server>__`); names are 48 characters at most by default.
    #[arg(long, value_name = "PREFIX")]
    client_prefix: Option<String>,
    /// What `tools/list` shows: `auto` (every tool up to `--meta-above`, the
    /// meta-tools beyond), `direct` (every tool), `meta` (`search_tools`,
    /// `describe_tool`, `call_tool`), `groups` (one tool per CRUDE group), `code`
    /// (`search` for TypeScript declarations, `execute` to run a script against them).
    #[arg(long, value_enum, default_value_t = ServeMode::Auto)]
    mode: ServeMode,
    /// Above this many tools, `auto` serves the meta-tools.
    #[arg(long, value_name = "N", default_value_t = 128)]
    meta_above: usize,
    /// `--mode code`: API calls one script may make.
    #[cfg(feature = "code")]
    #[arg(long, value_name = "N", default_value_t = toolwright::code::Limits::default().calls)]
    script_calls: usize,
    /// `--mode code`: seconds one script may take, waiting for calls included.
    #[cfg(feature = "code")]
    #[arg(long, value_name = "SECONDS", default_value_t = toolwright::code::Limits::default().wall.as_secs_f64())]
    script_seconds: f64,
    /// `--mode code`: milliseconds of CPU one script may spend running.
    #[cfg(feature = "code")]
    #[arg(long, value_name = "MS", default_value_t = toolwright::code::Limits::default().cpu.as_millis() as u64)]
    script_cpu_ms: u64,
    /// `--mode code`: MiB of memory one script's engine may hold.
    #[cfg(feature = "code")]
    #[arg(long, value_name = "MIB", default_value_t = toolwright::code::Limits::default().memory >> 20)]
    script_memory: usize,
    /// `--mode code`: scripts run at once, all callers together (each may hold its
    /// whole `--script-memory`).
    #[cfg(feature = "code")]
    #[arg(long, value_name = "N", default_value_t = 16)]
    max_scripts: usize,
    /// `--mode code`: scripts one caller may run at once.
    #[cfg(feature = "code")]
    #[arg(long, value_name = "N", default_value_t = 4)]
    max_scripts_per_caller: usize,
    /// `--http`: connections held open at once; past it the oldest idle one is
    /// closed to make room.
    #[arg(long, value_name = "N", default_value_t = toolwright::serve::mcp::Limits::default().max_connections)]
    max_connections: usize,
    /// `--http`: tool calls one caller may make per second (also its burst; 0: no
    /// limit); past it `429` with `Retry-After`.
    #[arg(long, value_name = "N", default_value_t = toolwright::serve::mcp::Limits::default().calls_per_second_per_caller)]
    calls_per_second: u32,
    /// `--http`: tool calls answered at once, all callers together; past it `503`.
    #[arg(long, value_name = "N", default_value_t = toolwright::serve::mcp::Limits::default().max_calls_in_flight)]
    max_calls_in_flight: usize,
    /// `--http`: let a client's answer to a confirmation (an elicitation) approve a
    /// call the gate wants confirmed. Off: such calls get `CONFIRMATION_REQUIRED`,
    /// since a server cannot tell a person's yes from the client's own.
    #[arg(long)]
    trust_client_approval: bool,
    /// `--http`: requests one caller may have in progress at once (bodies arriving
    /// and calls running); past it `429` for that caller only.
    #[arg(long, value_name = "N", default_value_t = toolwright::serve::mcp::Limits::default().max_requests_per_caller)]
    max_requests_per_caller: usize,
    /// `--http`: seconds a connection may stay open with no request in progress.
    #[arg(long, value_name = "SECONDS", default_value_t = toolwright::serve::mcp::Limits::default().idle_timeout.as_secs_f64())]
    idle_timeout: f64,
    /// `--http`: accept the bearer token in environment variable ENV_VAR, naming its
    /// holder NAME in logs (repeatable; tokens at least 16 characters).
    #[arg(long = "auth-token", value_name = "NAME=ENV_VAR", value_parser = api_url)]
    auth_tokens: Vec<(String, String)>,
    /// `--http`: accept the bearer tokens of FILE, one `NAME TOKEN` per line (`#`
    /// starts a comment).
    #[arg(long = "auth-tokens", value_name = "FILE")]
    auth_token_file: Option<PathBuf>,
    /// `--http`: serve a non-loopback address without authorization (a network where
    /// every host is trusted); refused otherwise.
    #[arg(long, conflicts_with_all = ["auth_tokens", "auth_token_file", "oauth_issuer"])]
    no_auth: bool,
    /// `--http`: accept OAuth 2.1 access tokens (JWTs) this authorization server
    /// issued for `--oauth-resource`, checked against its published keys.
    #[arg(long, value_name = "URL", requires = "oauth_resource", conflicts_with_all = ["auth_tokens", "auth_token_file"])]
    oauth_issuer: Option<String>,
    /// `--http` with `--oauth-issuer`: this endpoint's URL as clients reach it
    /// (`https://mcp.example.com/mcp`), the audience tokens must name.
    #[arg(long, value_name = "URL", requires = "oauth_issuer")]
    oauth_resource: Option<String>,
    /// `--oauth-issuer`'s JWK Set URL (default: found through its metadata).
    #[arg(long, value_name = "URL", requires = "oauth_issuer")]
    oauth_jwks: Option<String>,
    /// `--oauth-issuer`: holders of SCOPE see and call the tools SELECTOR chooses
    /// (repeatable; a scope's selectors add up). Once any is given, a token without
    /// one of these scopes is refused.
    #[arg(long = "oauth-scope", value_name = "SCOPE=SELECTOR", value_parser = api_url, requires = "oauth_issuer")]
    oauth_scopes: Vec<(String, String)>,
    /// `--oauth-issuer`: a token with an unknown key id refetches the keys at most
    /// this often.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 10.0,
        requires = "oauth_issuer"
    )]
    oauth_key_refresh: f64,
    /// `--oauth-issuer`: check every token at this introspection endpoint (RFC 7662)
    /// instead of as a JWT — for opaque tokens, or so a revoked one is refused at once
    /// (answers kept up to a minute). Needs `--oauth-client`.
    #[arg(
        long,
        value_name = "URL",
        requires_all = ["oauth_issuer", "oauth_client"]
    )]
    oauth_introspection: Option<String>,
    /// `--oauth-introspection`: this server's client id at the authorization server,
    /// and the environment variable holding its secret (never on the command line).
    #[arg(long, value_name = "CLIENT_ID=ENV_VAR", value_parser = api_url, requires = "oauth_introspection")]
    oauth_client: Option<(String, String)>,
    /// Print one audit line per tool call on stderr (`audit: {caller, tool, api,
    /// outcome, duration_ms, request_id}`; never arguments, results or credentials).
    #[arg(long)]
    audit: bool,
    /// `--http`: seconds for a request's head to arrive whole (and as many for its body,
    /// at least the default 30).
    #[arg(long, value_name = "SECONDS", default_value_t = toolwright::serve::mcp::Limits::default().header_timeout.as_secs_f64())]
    header_timeout: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ServeMode {
    Auto,
    Direct,
    Meta,
    Groups,
    #[cfg(feature = "code")]
    Code,
}

#[derive(Debug, ClapArgs)]
struct ExportArgs {
    /// `catalog` (as generated), or the target: `mcp`, `openai` (Responses API
    /// tools), `anthropic`, `gemini`. Exports carry `mapping` (exported names and
    /// keys → the catalog's) and `warnings`. `typescript`: the API as TypeScript
    /// declarations (a namespace per API, a function per tool), for a model that
    /// writes code against it.
    #[arg(long, value_enum, default_value_t = CatalogFormat::Catalog)]
    format: CatalogFormat,
    /// Longest exported tool name (default: the target's limit; 48 for MCP).
    #[arg(long, value_name = "CHARS", conflicts_with = "client_prefix")]
    name_budget: Option<usize>,
    /// Leave room for a prefix the client adds to names (e.g. `mcp__tracker__`).
    #[arg(long, value_name = "PREFIX")]
    client_prefix: Option<String>,
    /// Longest tool description, in characters.
    #[arg(long, value_name = "CHARS", default_value_t = toolwright::export::DESCRIPTION_BUDGET)]
    description_budget: usize,
    /// Strict schemas (default on for OpenAI; opt-in for Anthropic).
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true")]
    strict_schemas: Option<bool>,
    /// Deferred loading: Anthropic's tool search, OpenAI namespaces + tool search.
    #[arg(long)]
    defer_loading: bool,
    /// `direct`: every tool; `meta`: the three meta-tools (`search_tools`,
    /// `describe_tool`, `call_tool`); `groups`: one `mcp_aql_<group>` tool per CRUDE
    /// group; `auto`: meta above `--meta-above` tools; `code`: `search` and `execute`
    /// (code mode). A service answers meta and group tools with `Executor::call_meta`,
    /// code mode's with `Executor::code().call`.
    #[arg(long, value_enum, default_value_t = ExportMode::Direct)]
    mode: ExportMode,
    /// Above this many tools, `--mode auto` exports the meta-tools.
    #[arg(long, value_name = "N", default_value_t = 128)]
    meta_above: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ExportMode {
    Direct,
    Meta,
    Groups,
    Auto,
    #[cfg(feature = "code")]
    Code,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum CatalogFormat {
    Catalog,
    Mcp,
    Openai,
    Anthropic,
    Gemini,
    Typescript,
}

impl ExportArgs {
    fn options(&self) -> Option<toolwright::ExportOptions> {
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
struct Inputs {
    /// Adapter files, OpenAPI or Google Discovery documents, GraphQL schemas (SDL or
    /// introspection JSON), saved MCP `tools/list` results, or directories holding them.
    #[arg(value_name = "INPUT", required = true)]
    paths: Vec<PathBuf>,
    /// Treat every warning as an error.
    #[arg(long)]
    strict: bool,
    /// Name the API read as READ (its file stem: `schema` for `schema.graphql`) NAME
    /// instead.
    #[arg(long = "api-name", value_name = "READ=NAME", value_parser = api_url)]
    api_names: Vec<(String, String)>,
    /// The endpoint of GraphQL API `API` (a schema does not name one).
    #[arg(long = "graphql-endpoint", value_name = "API=URL", value_parser = api_url)]
    graphql_endpoints: Vec<(String, String)>,
    #[command(flatten)]
    select: Selectors,
}

impl Inputs {
    /// The inputs read and checked, with the names and endpoints given.
    fn analysis(&self) -> Analysis {
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
struct Selectors {
    /// Keep the tools SELECTOR matches (repeatable; any of them): `tag:NAME`,
    /// `api:NAME`, `path:/prefix`, `op:GLOB`, `method:GET`, `group:read`, `read-only`,
    /// `destructive`; `,` between alternatives, `+` for all of several.
    #[arg(long = "include", value_name = "SELECTOR")]
    include: Vec<String>,
    /// Leave out the tools SELECTOR matches (after the includes).
    #[arg(long = "exclude", value_name = "SELECTOR")]
    exclude: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    Human,
    Json,
}

fn api_url(text: &str) -> Result<(String, String), String> {
    text.split_once('=')
        .map(|(api, url)| (api.to_owned(), url.to_owned()))
        .ok_or_else(|| "expected API=URL".to_owned())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let styled = match cli.color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stderr().is_terminal()
        }
    };
    match cli.command {
        Command::Check { inputs, format } => check(&inputs, format, styled),
        Command::Test { inputs } => test(&inputs, styled),
        Command::Search {
            query,
            inputs,
            k,
            json,
            typescript,
        } => search(&inputs, &query, k, (json, typescript), styled),
        Command::Catalog {
            inputs,
            export,
            json,
        } => catalog(&inputs, &export, json, styled),
        Command::Generate {
            inputs,
            out,
            catalog_only,
            typed,
            full_serde,
            features_by_tag,
        } => generate(
            &inputs,
            &out,
            (catalog_only, full_serde, features_by_tag),
            &typed,
            styled,
        ),
        Command::Artifact {
            paths,
            strict,
            out,
            previous,
            context_fields,
            auth_fields,
            paging_fields,
            search_fields,
            schema,
            select,
        } => {
            if schema {
                println!(
                    "{}",
                    toolwright_codegen::contract::artifact::SCHEMA.trim_end()
                );
                return ExitCode::SUCCESS;
            }
            let roles = toolwright_codegen::contract::FieldRoles {
                context: context_fields,
                auth: auth_fields,
                paging: paging_fields,
                search: search_fields,
            };
            let inputs = Inputs {
                paths,
                strict,
                api_names: Vec::new(),
                graphql_endpoints: Vec::new(),
                select,
            };
            let out = out.unwrap_or_else(|| PathBuf::from("-"));
            artifact(&inputs, &out, previous.as_deref(), roles, styled)
        }
        Command::Report {
            inputs,
            out,
            title,
            no_exports,
        } => report(&inputs, &out, title, !no_exports, styled),
        Command::McpSnapshot {
            out,
            timeout,
            command,
        } => mcp_snapshot(&out, timeout, &command),
        Command::Call {
            inputs,
            tool,
            args,
            pages,
            upstream,
        } => call(&inputs, &tool, args.as_deref(), pages, &upstream, styled),
        Command::Serve {
            inputs,
            upstream,
            http,
            options,
        } => serve(&inputs, &upstream, &options, http, styled),
    }
}

/// The executor for interpreted inputs, with the base-URL overrides.
fn executor(analysis: &Analysis, upstream: &Upstream) -> Result<toolwright::Executor, String> {
    let catalog = interpret::catalog(&analysis.apis)?;
    let mut builder = toolwright::Executor::builder(catalog).timeout(
        std::time::Duration::from_secs_f64(upstream.timeout.max(0.001)),
    );
    for (api, url) in &upstream.base_urls {
        builder = builder.base_url(api, url);
    }
    for (api, command) in &upstream.mcp_servers {
        // A URL: the server's streamable HTTP endpoint; else a command run over stdio.
        if command.starts_with("http://") || command.starts_with("https://") {
            builder = builder.mcp_http(api, command.trim());
            continue;
        }
        let mut words = command.split_whitespace();
        let program = words
            .next()
            .ok_or(format!("`--mcp-server {api}=`: no command"))?;
        builder = builder.mcp_stdio(api, program, words);
    }
    for api in &upstream.pass_through {
        builder = builder.pass_through(api);
    }
    for (api, claim) in &upstream.pass_through_claims {
        builder = builder.pass_through_claim(api, claim);
    }
    if let Some((client, var)) = &upstream.exchange_client {
        let secret = std::env::var(var).map_err(|_| {
            format!(
                "`--exchange-client {client}={var}`: the environment variable `{var}` is not set"
            )
        })?;
        for (api, token_url) in &upstream.exchanges {
            let mut exchange = toolwright::auth::TokenExchange::new(token_url, client, &secret);
            if let Some((_, audience)) = upstream.exchange_audiences.iter().find(|(a, _)| a == api)
            {
                exchange = exchange.audience(audience);
            }
            builder = builder.pass_through_exchanged(api, exchange);
        }
    }
    builder.build().map_err(|e| e.to_string())
}

/// The `--http` server's limits from the command line.
fn http_limits(options: &ServeOptions) -> Result<toolwright::serve::mcp::Limits, String> {
    let seconds = |flag: &str, value: f64| {
        std::time::Duration::try_from_secs_f64(value)
            .ok()
            .filter(|d| !d.is_zero())
            .ok_or_else(|| format!("--{flag} must be a positive number of seconds, not {value}"))
    };
    let defaults = toolwright::serve::mcp::Limits::default();
    let header_timeout = seconds("header-timeout", options.header_timeout)?;
    Ok(toolwright::serve::mcp::Limits {
        max_connections: options.max_connections.max(1),
        idle_timeout: seconds("idle-timeout", options.idle_timeout)?,
        header_timeout,
        body_timeout: defaults.body_timeout.max(header_timeout),
        calls_per_second_per_caller: options.calls_per_second,
        max_calls_in_flight: options.max_calls_in_flight.max(1),
        max_requests_per_caller: options.max_requests_per_caller.max(1),
        ..defaults
    })
}

/// The `--http` server's authorization: OAuth, or bearer tokens (none: no authorization).
fn authorization(options: &ServeOptions) -> Result<toolwright::serve::mcp::Authorization, String> {
    let Some(issuer) = &options.oauth_issuer else {
        return bearer_tokens(options).map(Into::into);
    };
    let resource = options.oauth_resource.as_deref().unwrap_or_default();
    let error = |e: toolwright::serve::mcp::OAuthError| e.to_string();
    let mut oauth = toolwright::serve::mcp::OAuth::new(issuer, resource).map_err(error)?;
    if let Some(jwks) = &options.oauth_jwks {
        oauth = oauth.jwks_uri(jwks).map_err(error)?;
    }
    let refresh = std::time::Duration::try_from_secs_f64(options.oauth_key_refresh)
        .map_err(|_| "`--oauth-key-refresh` takes seconds, 0 or more".to_owned())?;
    oauth = oauth.key_refresh(refresh, std::time::Duration::from_secs(600));
    if let (Some(endpoint), Some((client, var))) =
        (&options.oauth_introspection, &options.oauth_client)
    {
        let secret = std::env::var(var).map_err(|_| {
            format!("`--oauth-client {client}={var}`: the environment variable `{var}` is not set")
        })?;
        oauth = oauth
            .introspection(
                endpoint,
                client,
                &secret,
                std::time::Duration::from_secs(60),
            )
            .map_err(error)?;
    }
    let mut scopes: Vec<(&str, Vec<&str>)> = Vec::new();
    for (scope, selector) in &options.oauth_scopes {
        match scopes.iter_mut().find(|(s, _)| s == scope) {
            Some((_, selectors)) => selectors.push(selector),
            None => scopes.push((scope, vec![selector])),
        }
    }
    for (scope, selectors) in scopes {
        oauth = oauth.scope(scope, selectors).map_err(error)?;
    }
    Ok(oauth.into())
}

/// The `--http` server's bearer tokens (none: no authorization).
fn bearer_tokens(options: &ServeOptions) -> Result<toolwright::serve::mcp::BearerTokens, String> {
    let mut tokens = toolwright::serve::mcp::BearerTokens::new();
    for (name, var) in &options.auth_tokens {
        tokens = tokens.from_env(name, var).map_err(|e| e.to_string())?;
    }
    if let Some(file) = &options.auth_token_file {
        tokens = tokens.from_file(file).map_err(|e| e.to_string())?;
    }
    Ok(tokens)
}

fn serve(
    inputs: &Inputs,
    upstream: &Upstream,
    options: &ServeOptions,
    http: Option<std::net::SocketAddr>,
    styled: bool,
) -> ExitCode {
    // A static token is this server's own credential: passed through, the API (and
    // whoever reads its logs) could call this server as that caller.
    if !upstream.pass_through.is_empty()
        && options.oauth_issuer.is_none()
        && (!options.auth_tokens.is_empty() || options.auth_token_file.is_some())
    {
        eprintln!(
            "error: `--pass-through` would send each caller's bearer token for this MCP server to the API; with `--auth-token(s)` that is this server's own secret. Give the API its own credentials, or use OAuth (`--oauth-issuer`) with `--exchange` or `--pass-through-claim`"
        );
        return ExitCode::FAILURE;
    }
    // Diagnostics go to stderr: stdout carries nothing but the protocol.
    let Some(analysis) = analyze(inputs, styled) else {
        return ExitCode::FAILURE;
    };
    // Before any thread starts: buffers a script causes must go back to the system
    // when freed, or RSS outgrows the script limits that are meant to bound it.
    memory::return_large_buffers_when_freed();
    let result = executor(&analysis, upstream).and_then(|executor| {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .map_err(|e| e.to_string())?;
        // Edits are picked up on both transports; only stdio can tell the client
        // (streamable HTTP here opens no stream for server messages), so HTTP clients
        // are just told not to cache the list.
        let mut export = toolwright::ExportOptions::new(toolwright::Profile::Mcp);
        if let Some(prefix) = &options.client_prefix {
            export = export.client_prefix(prefix);
        }
        let catalog = executor.catalog().clone();
        let proxy = executor.clone();
        let server = toolwright::serve::mcp::Server::new(executor)
            .export(export)
            .page_size(options.page_size)
            .result_budget(options.result_budget)
            .progress_interval(std::time::Duration::from_millis(options.progress_interval))
            .mode(match options.mode {
                ServeMode::Auto => toolwright::serve::mcp::ToolMode::Auto {
                    max_tools: options.meta_above,
                },
                ServeMode::Direct => toolwright::serve::mcp::ToolMode::Direct,
                ServeMode::Meta => toolwright::serve::mcp::ToolMode::Meta,
                ServeMode::Groups => toolwright::serve::mcp::ToolMode::Groups,
                #[cfg(feature = "code")]
                ServeMode::Code => toolwright::serve::mcp::ToolMode::Code,
            })
            .list_changes(http.is_none())
            .cache_ttl(std::time::Duration::ZERO);
        #[cfg(feature = "code")]
        let server = server.code_limits(toolwright::code::Limits {
            calls: options.script_calls,
            wall: std::time::Duration::from_secs_f64(options.script_seconds.clamp(0.001, 86_400.0)),
            cpu: std::time::Duration::from_millis(options.script_cpu_ms),
            memory: options.script_memory.saturating_mul(1 << 20),
            ..toolwright::code::Limits::default()
        })
        .concurrent_scripts(options.max_scripts, options.max_scripts_per_caller);
        let server = offer_resources(server, &catalog, &analysis.apis, &options.resources)?;
        let server = analysis
            .apis
            .iter()
            .fold(server, |server, api| offer_snapshot(server, &proxy, api));
        let server = if options.audit {
            // A record holds what callers sent (the request id, a token's subject):
            // JSON leaves C1 controls such as U+009B (CSI) as they are.
            server.audit(|record| eprintln!("audit: {}", safe(&record.to_json().to_string())))
        } else {
            server
        };
        watch_inputs(inputs, &analysis, upstream, &server, styled);
        match http {
            Some(addr) => {
                eprintln!("serving MCP on http://{addr}/mcp");
                let limits = http_limits(options)?;
                let mut endpoint = toolwright::serve::mcp::Http::new(server)
                    .client_approvals(options.trust_client_approval)
                    .limits(limits)
                    .log(|message| eprintln!("warning: {}", safe(message)))
                    .auth(authorization(options)?);
                if options.no_auth {
                    if !addr.ip().is_loopback() {
                        eprintln!(
                            "warning: serving {addr} without authorization (--no-auth): every host that reaches it can call the tools with this service's credentials"
                        );
                    }
                    endpoint = endpoint.without_auth_off_loopback();
                }
                runtime.block_on(endpoint.serve(addr))
            }
            None => runtime.block_on(server.serve_stdio()),
        }
        .map_err(|e| e.to_string())
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // It may quote what an issuer, a key set or an upstream answered.
            eprintln!("error: {}", safe(&e));
            ExitCode::FAILURE
        }
    }
}

/// What a saved MCP server's snapshot lists besides its tools — prompts, resources,
/// resource templates — offered as it lists them, each `prompts/get` and
/// `resources/read` passed on to the live server (`--mcp-server`), like its tools.
fn offer_snapshot(
    server: toolwright::serve::mcp::Server,
    executor: &toolwright::Executor,
    api: &toolwright_codegen::ir::Api,
) -> toolwright::serve::mcp::Server {
    use serde_json::{Value, json};
    use toolwright::serve::mcp::{
        Document, Prompt, PromptArgument, PromptMessage, PromptReply, ResourceContents, Template,
    };
    let Some(snapshot) = api.meta.get("x-mcp") else {
        return server;
    };
    let listed = |key: &str| {
        snapshot
            .get(key)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_owned);
    // A `resources/read` of the live server, its contents read back.
    let read = |executor: toolwright::Executor, api: String| {
        move |reading: toolwright::serve::mcp::Reading| {
            let (executor, api) = (executor.clone(), api.clone());
            async move {
                let answer = executor
                    .mcp_request(&api, "resources/read", json!({"uri": reading.uri}))
                    .await
                    .map_err(|e| e.to_string())?;
                let contents = answer["contents"].as_array().cloned().unwrap_or_default();
                Ok(contents
                    .iter()
                    .filter_map(ResourceContents::from_json)
                    .collect())
            }
        }
    };
    let mut server = server;
    for resource in listed("resources") {
        let (Some(uri), Some(name)) = (text(&resource, "uri"), text(&resource, "name")) else {
            continue;
        };
        let mut document = Document::read_with(uri, name, read(executor.clone(), api.name.clone()));
        if let Some(d) = text(&resource, "description") {
            document = document.description(d);
        }
        if let Some(m) = text(&resource, "mimeType") {
            document = document.mime_type(m);
        }
        if let Some(t) = text(&resource, "title") {
            document = document.title(t);
        }
        server = server.resource(document);
    }
    for template in listed("resourceTemplates") {
        let (Some(uri), Some(name)) = (text(&template, "uriTemplate"), text(&template, "name"))
        else {
            continue;
        };
        let mut offered = Template::new(uri, name, read(executor.clone(), api.name.clone()));
        if let Some(d) = text(&template, "description") {
            offered = offered.description(d);
        }
        if let Some(m) = text(&template, "mimeType") {
            offered = offered.mime_type(m);
        }
        server = server.resource_template(offered);
    }
    for prompt in listed("prompts") {
        let Some(name) = text(&prompt, "name") else {
            continue;
        };
        let (executor, api_name, prompt_name) = (executor.clone(), api.name.clone(), name.clone());
        let mut offered = Prompt::asking(name, move |args, _| {
            let (executor, api, name) = (executor.clone(), api_name.clone(), prompt_name.clone());
            async move {
                let answer = executor
                    .mcp_request(
                        &api,
                        "prompts/get",
                        json!({"name": name, "arguments": args}),
                    )
                    .await
                    .map_err(|e| e.to_string())?;
                let messages = answer["messages"].as_array().cloned().unwrap_or_default();
                Ok(PromptReply::Messages(
                    messages
                        .iter()
                        .filter_map(PromptMessage::from_json)
                        .collect(),
                ))
            }
        });
        if let Some(d) = text(&prompt, "description") {
            offered = offered.description(d);
        }
        if let Some(t) = text(&prompt, "title") {
            offered = offered.title(t);
        }
        for argument in prompt
            .get("arguments")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let Some(arg) = text(argument, "name") else {
                continue;
            };
            let description = text(argument, "description").unwrap_or_default();
            offered = offered.argument(match argument.get("required") {
                Some(Value::Bool(true)) => PromptArgument::required(arg, description),
                _ => PromptArgument::optional(arg, description),
            });
        }
        server = server.prompt(offered);
    }
    server
}

/// Each API's documentation as a resource, and the operations `--resources` chose.
fn offer_resources(
    server: toolwright::serve::mcp::Server,
    catalog: &toolwright::Catalog,
    apis: &[toolwright_codegen::ir::Api],
    selectors: &[String],
) -> Result<toolwright::serve::mcp::Server, String> {
    let mut server = server;
    for api in apis.iter().filter(|api| !api.docs.trim().is_empty()) {
        let document = toolwright::serve::mcp::Document::text(
            format!("toolwright://docs/{}", api.name),
            format!("{} documentation", api.name),
            "text/markdown",
            api.docs.clone(),
        )
        .description(format!(
            "How to use the {} API: {}",
            api.name, api.description
        ));
        server = server.resource(document);
    }
    if selectors.is_empty() {
        return Ok(server);
    }
    let selection = toolwright::Selection::parse(selectors, [""; 0]).map_err(|errors| {
        let errors: Vec<String> = errors.iter().map(ToString::to_string).collect();
        format!("--resources: {}", errors.join("; "))
    })?;
    let chosen = catalog.select(&selection);
    Ok(server.operations_as_resources(move |tool| chosen.get(&tool.name).is_some()))
}

/// Re-reads the inputs when one of them changes (polled twice a second: no file
/// watcher dependency for a development server) and swaps the served catalog; a broken
/// edit keeps the last good catalog and prints its diagnostics.
fn watch_inputs(
    inputs: &Inputs,
    analysis: &Analysis,
    upstream: &Upstream,
    server: &toolwright::serve::mcp::Server,
    styled: bool,
) {
    let paths: Vec<PathBuf> = analysis
        .inputs
        .files
        .iter()
        .chain(&analysis.inputs.dirs)
        .cloned()
        .collect();
    let stamp = move || -> Vec<Option<(std::time::SystemTime, u64)>> {
        paths
            .iter()
            .map(|p| {
                let meta = std::fs::metadata(p).ok()?;
                Some((meta.modified().ok()?, meta.len()))
            })
            .collect()
    };
    let inputs = Inputs {
        paths: inputs.paths.clone(),
        strict: inputs.strict,
        api_names: inputs.api_names.clone(),
        graphql_endpoints: inputs.graphql_endpoints.clone(),
        select: inputs.select.clone(),
    };
    let upstream = upstream.clone();
    let server = server.clone();
    std::thread::spawn(move || {
        let mut last = stamp();
        loop {
            std::thread::sleep(std::time::Duration::from_millis(500));
            let now = stamp();
            if now == last {
                continue;
            }
            last = now;
            match analyze(&inputs, styled).map(|a| executor(&a, &upstream)) {
                Some(Ok(executor)) => {
                    eprintln!("inputs changed: serving the new catalog");
                    server.replace(executor);
                }
                Some(Err(e)) => eprintln!(
                    "inputs changed, but: {}; still serving the last good catalog",
                    safe(&e)
                ),
                None => eprintln!(
                    "inputs changed and have errors (above); still serving the last good catalog"
                ),
            }
        }
    });
}

/// Analyzes the inputs, keeps the selected tools and prints findings; `None` when there
/// are errors.
fn analyze(inputs: &Inputs, styled: bool) -> Option<Analysis> {
    let selection = match inputs.select.selection() {
        Ok(s) => s,
        Err(errors) => {
            for e in errors {
                eprintln!("error: {e}");
            }
            return None;
        }
    };
    let mut analysis = inputs.analysis();
    if !analysis.diagnostics.is_empty() {
        eprintln!("{}", analysis.render_styled(styled));
    }
    if analysis.has_errors() {
        return None;
    }
    if toolwright_codegen::select::apply(&mut analysis.apis, &selection) == 0 && !selection.is_all()
    {
        eprintln!("warning: the selection ({selection}) keeps no tool");
    }
    Some(analysis)
}

/// [`analyze`], then the interpreted catalog of what it read (an error printed when
/// there is none).
fn analyze_to_catalog(inputs: &Inputs, styled: bool) -> Option<(Analysis, toolwright::Catalog)> {
    let analysis = analyze(inputs, styled)?;
    match interpret::catalog(&analysis.apis) {
        Ok(catalog) => Some((analysis, catalog)),
        Err(e) => {
            eprintln!("error: {e}");
            None
        }
    }
}

impl Selectors {
    fn selection(
        &self,
    ) -> Result<toolwright::Selection, Vec<toolwright::query::select::ParseError>> {
        toolwright::Selection::parse(&self.include, &self.exclude)
    }
}

fn search(
    inputs: &Inputs,
    query: &str,
    k: usize,
    (json, typescript): (bool, bool),
    styled: bool,
) -> ExitCode {
    let Some((_, catalog)) = analyze_to_catalog(inputs, styled) else {
        return ExitCode::FAILURE;
    };
    let hits = catalog.search(query, k);
    let summary = |t: &toolwright::Tool| -> String {
        let line = t.description.lines().next().unwrap_or_default();
        line.chars().filter(|c| !c.is_control()).collect()
    };
    if typescript {
        if !hits.is_empty()
            && print_all(&catalog.typescript_brief(hits.iter().map(|h| h.tool)))
                != ExitCode::SUCCESS
        {
            return ExitCode::FAILURE;
        }
    } else if json {
        let list: Vec<serde_json::Value> = hits
            .iter()
            .map(|h| {
                serde_json::json!({
                    "name": h.tool.name,
                    "score": (h.score * 1000.0).round() / 1000.0,
                    "summary": summary(h.tool),
                    "api": h.tool.operation.api,
                    "method": h.tool.operation.method.as_str(),
                    "path": h.tool.operation.path,
                })
            })
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&list).unwrap_or_default()
        );
    } else {
        for h in &hits {
            println!("{}\t{:.3}\t{}", h.tool.name, h.score, summary(h.tool));
        }
    }
    if hits.is_empty() {
        eprintln!("no tool matches `{query}`");
    }
    ExitCode::SUCCESS
}

fn check(inputs: &Inputs, format: Format, styled: bool) -> ExitCode {
    if format == Format::Json {
        let analysis = inputs.analysis();
        println!(
            "{}",
            serde_json::to_string_pretty(&analysis.to_json()).unwrap_or_default()
        );
        return if analysis.has_errors() {
            ExitCode::FAILURE
        } else {
            ExitCode::SUCCESS
        };
    }
    match analyze(inputs, styled) {
        Some(a) => {
            readiness(&a);
            let ops: usize = a.apis.iter().map(|api| api.operations.len()).sum();
            eprintln!("ok: {} API(s), {ops} operation(s)", a.apis.len());
            ExitCode::SUCCESS
        }
        None => ExitCode::FAILURE,
    }
}

/// `toolwright test`: a line per case (`test NAME ... ok`), then each failure with
/// its diff, then `N passed, N failed`; exit 1 when a case failed.
fn test(inputs: &Inputs, styled: bool) -> ExitCode {
    let Some((analysis, catalog)) = analyze_to_catalog(inputs, styled) else {
        return ExitCode::FAILURE;
    };
    let cases: Vec<_> = analysis
        .suites
        .iter()
        .flat_map(|suite| suite.cases.iter())
        .collect();
    if cases.is_empty() {
        eprintln!(
            "note: no conformance tests: an adapter's tests sit next to it as `<name>-adapter-tests.yaml`"
        );
    }
    let (mut passed, mut failures) = (0, Vec::new());
    for case in cases {
        let outcome = serde_json::from_value(case.json.clone())
            .map_err(|e| format!("the case does not parse: {e}"))
            .and_then(|parsed| {
                toolwright::conformance::run_blocking(catalog.clone(), &parsed)
                    .map_err(|f| f.message)
            });
        match outcome {
            Ok(()) => {
                println!("test {} ... ok", case.name);
                passed += 1;
            }
            Err(why) => {
                println!("test {} ... FAILED", case.name);
                failures.push((case, why));
            }
        }
    }
    for (case, why) in &failures {
        println!("\n---- {} ({}) ----\n{why}", case.name, case.at);
    }
    println!("\n{passed} passed, {} failed", failures.len());
    if failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Groups of findings printed by `check` (the artifact holds them all).
const SHOWN_FINDINGS: usize = 10;

/// The readiness report's score and first findings, as warnings (never errors, strict
/// or not: they are advice about how well models will do, not faults of the inputs).
fn readiness(analysis: &Analysis) {
    use toolwright_codegen::contract;
    let (contracts, edges) =
        contract::build_with_edges(&analysis.apis, &contract::FieldRoles::default());
    let report = contract::readiness::report(&analysis.apis, &contracts, &edges);
    let warnings: Vec<_> = report
        .findings
        .iter()
        .filter(|f| f.severity == "warning")
        // `check` has said each of these where it is already (TW137).
        .filter(|f| f.code != "placeholder_text")
        .collect();
    let groups = findings::group(warnings.iter().copied(), &findings::positions(analysis));
    for group in groups.iter().take(SHOWN_FINDINGS) {
        eprint!("{}", group.render());
    }
    let more = groups.len().saturating_sub(SHOWN_FINDINGS);
    eprintln!(
        "readiness: {:.1}/100 ({}), {} warning(s){}{}",
        report.score,
        report.status,
        warnings.len(),
        if groups.len() < warnings.len() {
            format!(" ({} distinct)", groups.len())
        } else {
            String::new()
        },
        if more > 0 {
            format!(", {more} more in `toolwright artifact`")
        } else {
            String::new()
        }
    );
}

fn artifact(
    inputs: &Inputs,
    out: &std::path::Path,
    previous: Option<&std::path::Path>,
    roles: toolwright_codegen::contract::FieldRoles,
    styled: bool,
) -> ExitCode {
    let previous = match previous.map(std::fs::read_to_string).transpose() {
        Ok(text) => match text.map(|t| serde_json::from_str(&t)).transpose() {
            Ok(v) => v,
            Err(e) => {
                eprintln!("error: `--previous` is not JSON: {e}");
                return ExitCode::FAILURE;
            }
        },
        Err(e) => {
            eprintln!("error: cannot read `--previous`: {e}");
            return ExitCode::FAILURE;
        }
    };
    let Some(analysis) = analyze(inputs, styled) else {
        return ExitCode::FAILURE;
    };
    let options = toolwright_codegen::contract::artifact::Options { roles, previous };
    let artifact = toolwright_codegen::contract::artifact::build(&analysis.apis, &options);
    let mut text = serde_json::to_string_pretty(&artifact).unwrap_or_default();
    text.push('\n');
    let edges = artifact["edge_stats"]["edge_count"].as_u64().unwrap_or(0);
    let what = format!(
        "{} tool(s), {edges} edge(s), readiness {}",
        artifact["tools"].as_object().map_or(0, |t| t.len()),
        artifact["readiness_report"]["score"]
    );
    write_output(out, text.as_bytes(), &what)
}

fn report(
    inputs: &Inputs,
    out: &std::path::Path,
    title: Option<String>,
    with_exports: bool,
    styled: bool,
) -> ExitCode {
    let Some(analysis) = analyze(inputs, styled) else {
        return ExitCode::FAILURE;
    };
    let catalog = if with_exports {
        match interpret::catalog(&analysis.apis) {
            Ok(c) => Some(c),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        }
    } else {
        None
    };
    let exporters = catalog.as_ref().map(ReportExports::new);
    let options = toolwright_codegen::report::Options {
        title,
        ..Default::default()
    };
    let tools: usize = analysis.apis.iter().map(|a| a.operations.len()).sum();
    // Written as it is made: Graph beta's page is 172 MB, never held whole.
    write_streamed(out, |page| {
        toolwright_codegen::report::write(
            &analysis.apis,
            &analysis.diagnostics,
            &options,
            exporters
                .as_ref()
                .map(|e| e as &dyn toolwright_codegen::report::ExportSource),
            page,
        )?;
        Ok(format!("{tools} tool(s), {} bytes", page.written))
    })
}

/// The report's provider exports: MCP's, OpenAI's, Anthropic's and Gemini's, each
/// with its defaults, made a block of tools at a time as the page is written.
#[derive(Debug)]
struct ReportExports<'c> {
    exporters: Vec<(toolwright::Profile, toolwright::export::Exporter<'c>)>,
}

impl<'c> ReportExports<'c> {
    fn new(catalog: &'c toolwright::Catalog) -> Self {
        let mcp = catalog.exporter(&toolwright::ExportOptions::new(toolwright::Profile::Mcp));
        let exporters = [
            toolwright::Profile::OpenAi,
            toolwright::Profile::Anthropic,
            toolwright::Profile::Gemini,
        ]
        .into_iter()
        .map(|p| (p, mcp.with_options(&toolwright::ExportOptions::new(p))))
        .collect::<Vec<_>>();
        let exporters = std::iter::once((toolwright::Profile::Mcp, mcp))
            .chain(exporters)
            .collect();
        ReportExports { exporters }
    }
}

impl toolwright_codegen::report::ExportSource for ReportExports<'_> {
    fn profiles(&self) -> Vec<String> {
        // By name, as the details list them.
        let mut names: Vec<String> = self
            .exporters
            .iter()
            .map(|(p, _)| p.as_str().to_owned())
            .collect();
        names.sort();
        names
    }

    fn exports(
        &self,
        tool: &str,
    ) -> std::collections::BTreeMap<String, Box<serde_json::value::RawValue>> {
        let mut out = std::collections::BTreeMap::new();
        for (profile, exporter) in &self.exporters {
            let Some(exported) = exporter.tool(tool) else {
                continue;
            };
            let warnings: Vec<&str> = exported
                .warnings
                .iter()
                .map(|w| w.message.as_str())
                .collect();
            let entry = serde_json::json!({
                "tool": exported.entry,
                "mapping": exported.mapping,
                "warnings": warnings,
            });
            if let Ok(text) = serde_json::value::to_raw_value(&entry) {
                out.insert(profile.as_str().to_owned(), text);
            }
        }
        out
    }
}

/// Writes `bytes` to `out` (`-`: standard output), only when they changed, and says
/// what was written.
/// `text` on standard output. A reader that stops early (`| head`) is no error: the
/// rest is not wanted (and `print!` would panic on the closed pipe).
fn print_all(text: &str) -> ExitCode {
    use std::io::Write as _;
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: cannot write to standard output: {e}");
            ExitCode::FAILURE
        }
    }
}

/// A writer that counts the bytes written through it.
struct Counted<W> {
    inner: W,
    written: u64,
}

impl<W: std::io::Write> std::io::Write for Counted<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// [`write_output`] for what `make` writes as it goes (without holding it whole):
/// into a file beside `out`, which replaces `out` only when the bytes differ (build
/// caches and file watchers stay quiet); `make` says what it wrote.
fn write_streamed(
    out: &std::path::Path,
    make: impl FnOnce(&mut Counted<&mut dyn std::io::Write>) -> std::io::Result<String>,
) -> ExitCode {
    use std::io::Write as _;
    if out == std::path::Path::new("-") {
        let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
        let mut counted = Counted {
            inner: &mut stdout as &mut dyn std::io::Write,
            written: 0,
        };
        return match make(&mut counted).and_then(|_| stdout.flush()) {
            Ok(_) => ExitCode::SUCCESS,
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: cannot write to standard output: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let name = out.file_name().map_or_else(
        || std::ffi::OsString::from("output"),
        std::ffi::OsStr::to_owned,
    );
    let mut partial = std::ffi::OsString::from(".");
    partial.push(&name);
    partial.push(format!(".{}.partial", std::process::id()));
    let partial = out.with_file_name(partial);
    let written = std::fs::File::create(&partial).and_then(|file| {
        let mut file = std::io::BufWriter::new(file);
        let what = make(&mut Counted {
            inner: &mut file as &mut dyn std::io::Write,
            written: 0,
        })?;
        file.into_inner()
            .map_err(std::io::IntoInnerError::into_error)?;
        Ok(what)
    });
    let what = match written {
        Ok(what) => what,
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            eprintln!("error: cannot write {}: {e}", out.display());
            return ExitCode::FAILURE;
        }
    };
    if same_bytes(&partial, out) {
        let _ = std::fs::remove_file(&partial);
        eprintln!("{} is up to date: {what}", out.display());
        return ExitCode::SUCCESS;
    }
    match std::fs::rename(&partial, out) {
        Ok(()) => {
            eprintln!("wrote {}: {what}", out.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            eprintln!("error: cannot write {}: {e}", out.display());
            ExitCode::FAILURE
        }
    }
}

/// Whether files `a` and `b` hold the same bytes, compared a block at a time (false
/// when either cannot be read).
fn same_bytes(a: &std::path::Path, b: &std::path::Path) -> bool {
    use std::io::Read as _;
    let (Ok(a), Ok(b)) = (std::fs::File::open(a), std::fs::File::open(b)) else {
        return false;
    };
    if a.metadata().map(|m| m.len()).ok() != b.metadata().map(|m| m.len()).ok() {
        return false;
    }
    let (mut a, mut b) = (std::io::BufReader::new(a), std::io::BufReader::new(b));
    let (mut x, mut y) = (vec![0; 1 << 16], vec![0; 1 << 16]);
    loop {
        let n = match a.read(&mut x) {
            Ok(n) => n,
            Err(_) => return false,
        };
        if n == 0 {
            // Same length: `b` is at its end too.
            return true;
        }
        if b.read_exact(&mut y[..n]).is_err() || x[..n] != y[..n] {
            return false;
        }
    }
}

fn write_output(out: &std::path::Path, bytes: &[u8], what: &str) -> ExitCode {
    if out == std::path::Path::new("-") {
        use std::io::Write as _;
        return match std::io::stdout().write_all(bytes) {
            Ok(()) => ExitCode::SUCCESS,
            Err(_) => ExitCode::FAILURE,
        };
    }
    // Written only when it changed (build caches and file watchers stay quiet).
    if std::fs::read(out).is_ok_and(|old| old == bytes) {
        eprintln!("{} is up to date: {what}", out.display());
        return ExitCode::SUCCESS;
    }
    match std::fs::write(out, bytes) {
        Ok(()) => {
            eprintln!("wrote {}: {what}", out.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: cannot write {}: {e}", out.display());
            ExitCode::FAILURE
        }
    }
}

fn mcp_snapshot(out: &std::path::Path, timeout: f64, command: &[String]) -> ExitCode {
    let timeout = std::time::Duration::from_secs_f64(timeout.max(0.001));
    let server = toolwright::transport::McpStdio::new(&command[0], &command[1..]);
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let snapshot = runtime.block_on(async {
        let info = server.server_info(timeout).await?;
        let mut out = serde_json::Map::new();
        for key in [
            "protocolVersion",
            "serverInfo",
            "capabilities",
            "instructions",
        ] {
            if let Some(v) = info.get(key) {
                out.insert(key.to_owned(), v.clone());
            }
        }
        out.insert(
            "tools".into(),
            server.list("tools/list", "tools", timeout).await?.into(),
        );
        // Prompts and resources are recorded when the server offers them.
        let offers = |what: &str| info.pointer(&format!("/capabilities/{what}")).is_some();
        if offers("prompts") {
            out.insert(
                "prompts".into(),
                server
                    .list("prompts/list", "prompts", timeout)
                    .await?
                    .into(),
            );
        }
        if offers("resources") {
            out.insert(
                "resources".into(),
                server
                    .list("resources/list", "resources", timeout)
                    .await?
                    .into(),
            );
        }
        Ok::<_, toolwright::TransportError>(serde_json::Value::Object(out))
    });
    match snapshot {
        Ok(snapshot) => {
            let mut text = serde_json::to_string_pretty(&snapshot).unwrap_or_default();
            text.push('\n');
            let tools = snapshot["tools"].as_array().map_or(0, Vec::len);
            write_output(out, text.as_bytes(), &format!("{tools} tool(s)"))
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn catalog(inputs: &Inputs, export: &ExportArgs, json: bool, styled: bool) -> ExitCode {
    let Some(analysis) = analyze(inputs, styled) else {
        return ExitCode::FAILURE;
    };
    // A person at a terminal asking for the catalog as it is gets the overview;
    // exports and anything read by a program get JSON.
    let overview = !json
        && export.format == CatalogFormat::Catalog
        && export.mode == ExportMode::Direct
        && std::io::stdout().is_terminal();
    match interpret::catalog(&analysis.apis) {
        Ok(c) if overview => print_all(&overview::render(c.tools())),
        Ok(c) if export.format == CatalogFormat::Typescript => {
            if export.mode != ExportMode::Direct {
                eprintln!(
                    "error: `--format typescript` declares the API's own tools; `--mode` \
                     applies to tool exports (leave it out)"
                );
                return ExitCode::FAILURE;
            }
            print_all(&c.typescript())
        }
        Ok(c) => {
            let meta = match export.mode {
                ExportMode::Direct => false,
                ExportMode::Meta | ExportMode::Groups => true,
                #[cfg(feature = "code")]
                ExportMode::Code => true,
                ExportMode::Auto => c.tools().len() > export.meta_above,
            };
            let c = match (meta, export.mode) {
                (true, ExportMode::Groups) => toolwright::catalog::meta::groups(&c),
                #[cfg(feature = "code")]
                (true, ExportMode::Code) => toolwright::code::tools(&c),
                (true, _) => toolwright::catalog::meta::tools(c.tools().len()),
                (false, _) => c,
            };
            let json = match export.options() {
                None => c.to_tools_list(),
                Some(options) => {
                    let export = c.export_with(&options);
                    for warning in export.warnings() {
                        eprintln!("warning: {warning}");
                    }
                    export.to_json()
                }
            };
            let mut text = serde_json::to_string_pretty(&json).unwrap_or_default();
            text.push('\n');
            print_all(&text)
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn generate(
    inputs: &Inputs,
    out: &std::path::Path,
    (catalog_only, full_serde, features_by_tag): (bool, bool, bool),
    typed: &[String],
    styled: bool,
) -> ExitCode {
    // Read and checked once: the findings are shown here (coloured), and generation
    // goes on from the same analysis.
    let Some(analysis) = analyze(inputs, styled) else {
        return ExitCode::FAILURE;
    };
    let mut config = Config::new();
    for input in &inputs.paths {
        config.input(input);
    }
    for selector in &inputs.select.include {
        config.include(selector);
    }
    for selector in &inputs.select.exclude {
        config.exclude(selector);
    }
    for selector in typed {
        config.typed(selector);
    }
    config
        .catalog_only(catalog_only)
        .full_serde(full_serde)
        .features_by_tag(features_by_tag);
    match config
        .strict(inputs.strict)
        .out_dir(out)
        .cargo_directives(false)
        .generate_from(analysis)
    {
        Ok(g) => {
            eprintln!(
                "wrote {} of {} file(s) to {}; include `{}`",
                g.written.len(),
                g.files.len(),
                g.out_dir.display(),
                g.out_dir.join(toolwright_codegen::ENTRY_FILE).display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

fn call(
    inputs: &Inputs,
    tool: &str,
    args: Option<&str>,
    pages: Option<usize>,
    upstream: &Upstream,
    styled: bool,
) -> ExitCode {
    // Repeated keys are refused: a check and the server could read different values.
    let json = match args.map(toolwright::validate::parse_arguments).transpose() {
        Ok(v) => v.unwrap_or(serde_json::Value::Null),
        Err(e) => {
            eprintln!("error: `--args`: {e}");
            return ExitCode::from(2);
        }
    };
    let Some(analysis) = analyze(inputs, styled) else {
        return ExitCode::FAILURE;
    };
    let result = executor(&analysis, upstream).and_then(|executor| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| e.to_string())?;
        let outcome = match pages {
            Some(n) => {
                runtime.block_on(executor.call_all(tool, json, toolwright::PageLimits::pages(n)))
            }
            None => runtime.block_on(executor.call(tool, json)),
        };
        outcome.map_err(|e| e.to_string())
    });
    match result {
        Ok(value) => {
            println!(
                "{}",
                serde_json::to_string_pretty(&value).unwrap_or_default()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            // The message may quote the upstream's bytes.
            eprintln!("error: {}", safe(&e.to_string()));
            ExitCode::FAILURE
        }
    }
}
