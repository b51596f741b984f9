//! The `--http` server's limits and authorization, from the command line.

use crate::args::ServeOptions;

/// The `--http` server's limits from the command line.
pub(crate) fn http_limits(
    options: &ServeOptions,
) -> Result<toolwright::serve::mcp::Limits, String> {
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
pub(crate) fn authorization(
    options: &ServeOptions,
) -> Result<toolwright::serve::mcp::Authorization, String> {
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
pub(crate) fn bearer_tokens(
    options: &ServeOptions,
) -> Result<toolwright::serve::mcp::BearerTokens, String> {
    let mut tokens = toolwright::serve::mcp::BearerTokens::new();
    for (name, var) in &options.auth_tokens {
        tokens = tokens.from_env(name, var).map_err(|e| e.to_string())?;
    }
    if let Some(file) = &options.auth_token_file {
        tokens = tokens.from_file(file).map_err(|e| e.to_string())?;
    }
    Ok(tokens)
}
