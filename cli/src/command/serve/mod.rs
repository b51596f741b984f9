//! `toolwright serve`: the inputs' tools to MCP clients, over stdio or streamable HTTP.

use std::path::PathBuf;
use std::process::ExitCode;

use toolwright_cli::terminal::safe;
use toolwright_codegen::Analysis;

use super::{analyze, executor};
use crate::args::{Inputs, ServeMode, ServeOptions, Upstream};
use crate::memory;

mod http;
mod offers;

use http::{authorization, http_limits};
use offers::{offer_resources, offer_snapshot};

pub(crate) fn run(
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
            // Edits are picked up on both transports; only stdio can tell the client
            // (streamable HTTP here opens no stream for server messages), so HTTP
            // clients are just told not to cache the list.
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

/// Re-reads the inputs when one of them changes (polled twice a second: no file
/// watcher dependency for a development server) and swaps the served catalog; a broken
/// edit keeps the last good catalog and prints its diagnostics.
pub(crate) fn watch_inputs(
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
