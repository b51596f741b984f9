//! One module per command; what several of them share (reading the inputs, the
//! executor of interpreted inputs) is here.

use toolwright_cli::interpret;
use toolwright_codegen::Analysis;

use crate::args::{Inputs, Upstream};

pub(crate) mod artifact;
pub(crate) mod call;
pub(crate) mod catalog;
pub(crate) mod check;
pub(crate) mod generate;
pub(crate) mod mcp_snapshot;
pub(crate) mod report;
pub(crate) mod search;
pub(crate) mod serve;
pub(crate) mod test;

/// The executor for interpreted inputs, with the base-URL overrides.
pub(crate) fn executor(
    analysis: &Analysis,
    upstream: &Upstream,
) -> Result<toolwright::Executor, String> {
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

/// Analyzes the inputs, keeps the selected tools and prints findings; `None` when there
/// are errors.
pub(crate) fn analyze(inputs: &Inputs, styled: bool) -> Option<Analysis> {
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
pub(crate) fn analyze_to_catalog(
    inputs: &Inputs,
    styled: bool,
) -> Option<(Analysis, toolwright::Catalog)> {
    let analysis = analyze(inputs, styled)?;
    match interpret::catalog(&analysis.apis) {
        Ok(catalog) => Some((analysis, catalog)),
        Err(e) => {
            eprintln!("error: {e}");
            None
        }
    }
}
