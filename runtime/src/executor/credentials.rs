//! What authenticates a request: the service's credentials for the scheme that
//! applies, an OAuth 2 token fetched and cached for it, or — for APIs called on an
//! MCP caller's behalf — the caller's own token or one exchanged for it.

use std::sync::Arc;

use super::Executor;
use crate::auth;
use crate::descriptor::Operation;
use crate::error::Error;

impl Executor {
    /// The credentials for `op`, fetching an OAuth 2 token when a client credentials
    /// scheme is the one that applies; also the token, so that a 401 can replace it.
    pub(super) async fn credentials(
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
        let (planned, chosen) = auth::resolve(api, &op.security, &self.inner.credentials)?;
        // Which alternative was applied, by scheme names (never values): the answer
        // to "why did this request carry that key" when a server refuses it.
        #[cfg(feature = "tracing")]
        tracing::debug!(
            target: "toolwright::auth",
            tool = %op.name,
            api = %api.name,
            security = %chosen.map_or_else(
                || "none".to_owned(),
                |i| op.security[i].schemes.join(" + ")
            ),
            "security requirement applied"
        );
        #[cfg(not(feature = "tracing"))]
        let _ = chosen;
        for planned in planned {
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
        let refuse = |message: String| Error::Request {
            tool: op.name.to_string(),
            message,
        };
        if let Some(token) = crate::caller::token() {
            // A caller's credential never crosses the network in clear text (as a
            // client secret never does).
            if !auth::oauth::secure_url(base_url) {
                return Err(refuse(format!(
                    "API `{}` is called with the caller's credentials, and its base URL `{base_url}` is not https: they would be sent in clear text",
                    api.name
                )));
            }
            let exchange = match credential {
                auth::CallerCredential::Token => {
                    forwardable(&api.name, base_url).map_err(refuse)?;
                    return Ok((vec![auth::bearer(&token)], None));
                }
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
}

/// Whether the caller's own token may go to the API at `base_url` as it is. The MCP
/// specification forbids passing through a token issued for the MCP server: only a
/// JWT whose audience also names the API (its origin) goes; a static token of this
/// server (no claims) or one for this server alone is refused, naming what works.
fn forwardable(api: &str, base_url: &str) -> Result<(), String> {
    let Some(claims) = crate::caller::claims() else {
        return Err(format!(
            "API `{api}` would be called with the caller's token for this MCP server, which is one of its static tokens: forwarding it would hand this server's own credential to the API; give the API its own credentials instead"
        ));
    };
    // An audience names the API when the API's base URL is it or lies under it
    // (`https://api.example.com` names `https://api.example.com/v1`; this server's
    // own `https://gw.example.com/mcp` does not name `https://gw.example.com/api`).
    let base = base_url.to_ascii_lowercase();
    let names_the_api = |aud: &str| {
        let aud = aud.to_ascii_lowercase();
        let aud = aud.trim_end_matches('/');
        base.strip_prefix(aud)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(['/', '?', '#']))
    };
    let audiences: Vec<&str> = match claims.get("aud") {
        Some(serde_json::Value::String(one)) => vec![one.as_str()],
        Some(serde_json::Value::Array(many)) => {
            many.iter().filter_map(serde_json::Value::as_str).collect()
        }
        _ => Vec::new(),
    };
    if audiences.iter().any(|aud| names_the_api(aud)) {
        return Ok(());
    }
    let wanted = base_url;
    Err(format!(
        "API `{api}` would be called with the caller's token, which was issued for this MCP server and not for `{wanted}` (its `aud`); the MCP specification forbids passing such a token through: exchange it (`--exchange`) or use a claim the identity provider put in it (`--pass-through-claim`)"
    ))
}
