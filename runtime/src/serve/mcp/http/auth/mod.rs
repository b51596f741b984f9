//! Who may use the HTTP endpoint. Every request must carry `Authorization: Bearer
//! <token>`; anything else is answered `401` with `WWW-Authenticate: Bearer` (RFC 6750)
//! before its body is read. The token is one of a team's static tokens
//! ([`BearerTokens`]) or, with feature `mcp-oauth`, an access token an OAuth 2.1
//! authorization server issued for this endpoint ([`OAuth`]): the endpoint is then a
//! resource server that publishes its metadata (RFC 9728) and lets the token's scopes
//! choose the tools its holder sees.

#[cfg(feature = "mcp-oauth")]
mod fetch;
#[cfg(feature = "mcp-oauth")]
mod introspect;
#[cfg(feature = "mcp-oauth")]
mod jwks;
#[cfg(feature = "mcp-oauth")]
mod oauth;
mod tokens;

use std::fmt;
use std::sync::Arc;

#[cfg(feature = "mcp-oauth")]
pub use oauth::{OAuth, OAuthError};
pub use tokens::{BearerTokens, MIN_TOKEN_LEN, TokenError};

use crate::transport::Transport;

/// How the endpoint decides who is calling ([`Http::auth`](super::Http::auth)).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Authorization {
    /// Static bearer tokens, each named.
    Tokens(BearerTokens),
    /// Access tokens from an OAuth 2.1 authorization server (JWTs, or opaque ones
    /// checked by introspection).
    #[cfg(feature = "mcp-oauth")]
    OAuth(OAuth),
}

impl From<BearerTokens> for Authorization {
    fn from(tokens: BearerTokens) -> Self {
        Authorization::Tokens(tokens)
    }
}

#[cfg(feature = "mcp-oauth")]
impl From<OAuth> for Authorization {
    fn from(oauth: OAuth) -> Self {
        Authorization::OAuth(oauth)
    }
}

/// Who is calling, as the endpoint authenticated them: what the audit line and the
/// gate's question name, and (for credential pass-through) the token they presented.
#[derive(Clone)]
pub struct Caller {
    name: Arc<str>,
    scopes: Vec<String>,
    token: Arc<str>,
    /// The token's claims (a JWT's payload, an introspection answer); none for
    /// static tokens.
    claims: Option<Arc<serde_json::Map<String, serde_json::Value>>>,
}

impl fmt::Debug for Caller {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never the token.
        f.debug_struct("Caller")
            .field("name", &self.name)
            .field("scopes", &self.scopes)
            .finish_non_exhaustive()
    }
}

impl Caller {
    pub(super) fn new(name: String, scopes: Vec<String>, token: &str) -> Self {
        Caller {
            name: name.into(),
            scopes,
            token: token.into(),
            claims: None,
        }
    }

    #[cfg_attr(not(feature = "mcp-oauth"), allow(dead_code))]
    pub(super) fn with_claims(
        mut self,
        claims: serde_json::Map<String, serde_json::Value>,
    ) -> Self {
        self.claims = Some(Arc::new(claims));
        self
    }

    /// A static token's name, or a JWT's subject (else its client id).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The scopes the token grants (none for static tokens).
    pub fn scopes(&self) -> &[String] {
        &self.scopes
    }

    /// The access token the caller presented (for credential pass-through only).
    pub(crate) fn token(&self) -> &str {
        &self.token
    }

    /// The token's claims (for a credential taken from one of them).
    pub(crate) fn claims(&self) -> Option<&Arc<serde_json::Map<String, serde_json::Value>>> {
        self.claims.as_ref()
    }
}

/// Why a request was refused. The texts say what is wrong with a token, never the
/// token.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(not(feature = "mcp-oauth"), allow(dead_code))]
pub(super) enum Refusal {
    /// No credentials: `401`, the challenge names the scheme (and the metadata).
    Missing,
    /// Credentials that are not accepted: `401`, `error="invalid_token"`.
    Invalid(String),
    /// A valid token without the scopes needed (space-separated): `403`.
    InsufficientScope(String),
    /// The tokens cannot be checked now (the issuer's keys are unreachable): `503`.
    Unavailable(String),
}

impl Refusal {
    pub(super) fn status(&self) -> http::StatusCode {
        match self {
            Refusal::Missing | Refusal::Invalid(_) => http::StatusCode::UNAUTHORIZED,
            Refusal::InsufficientScope(_) => http::StatusCode::FORBIDDEN,
            Refusal::Unavailable(_) => http::StatusCode::SERVICE_UNAVAILABLE,
        }
    }

    /// The response's text.
    pub(super) fn text(&self) -> String {
        match self {
            Refusal::Missing => "a bearer token is required".into(),
            Refusal::Invalid(why) => format!("invalid token: {why}"),
            Refusal::InsufficientScope(scopes) => {
                format!("the token lacks the scope needed; one of: {scopes}")
            }
            // What failed inside (the issuer's URLs, its errors) is for the operator's
            // log, not for a client that has not authenticated.
            Refusal::Unavailable(_) => {
                "tokens cannot be checked now (the authorization server is unavailable); retry shortly".into()
            }
        }
    }
}

impl Authorization {
    /// Nothing configured: no authorization at all.
    pub(super) fn is_empty(&self) -> bool {
        match self {
            Authorization::Tokens(tokens) => tokens.is_empty(),
            #[cfg(feature = "mcp-oauth")]
            Authorization::OAuth(_) => false,
        }
    }

    /// The caller presenting `authorization` (the header's value).
    pub(super) async fn caller(
        &self,
        authorization: Option<&[u8]>,
        transport: &Arc<dyn Transport>,
    ) -> Result<Caller, Refusal> {
        let presented = authorization.ok_or(Refusal::Missing)?;
        let token = strip_scheme(presented)
            .ok_or_else(|| Refusal::Invalid("expected `Authorization: Bearer <token>`".into()))?;
        match self {
            Authorization::Tokens(tokens) => {
                let _ = transport; // only OAuth fetches keys
                let name = tokens
                    .holder(token)
                    .ok_or_else(|| Refusal::Invalid("not a token of this server".into()))?;
                let token = std::str::from_utf8(token).unwrap_or_default();
                Ok(Caller::new(name.to_owned(), Vec::new(), token))
            }
            #[cfg(feature = "mcp-oauth")]
            Authorization::OAuth(oauth) => {
                let token = std::str::from_utf8(token)
                    .map_err(|_| Refusal::Invalid("the token is not text".into()))?;
                oauth.validate(token, transport).await
            }
        }
    }

    /// The `WWW-Authenticate` value for `refusal`.
    pub(super) fn challenge(&self, refusal: &Refusal) -> String {
        let mut challenge = match self {
            Authorization::Tokens(_) => String::from("Bearer realm=\"mcp\""),
            #[cfg(feature = "mcp-oauth")]
            Authorization::OAuth(oauth) => {
                format!("Bearer resource_metadata=\"{}\"", oauth.metadata_url())
            }
        };
        match refusal {
            // What a first request without a token needs (MCP 2025-11-25: the scopes
            // to ask the authorization server for).
            #[cfg(feature = "mcp-oauth")]
            Refusal::Missing if matches!(self, Authorization::OAuth(_)) => {
                if let Authorization::OAuth(oauth) = self {
                    let mut scopes = oauth.scopes_granting(|_| true);
                    let mut seen = std::collections::HashSet::new();
                    scopes.retain(|s| seen.insert(s.clone()));
                    if !scopes.is_empty() {
                        challenge.push_str(&format!(", scope=\"{}\"", quoted(&scopes.join(" "))));
                    }
                }
            }
            Refusal::Missing | Refusal::Unavailable(_) => {}
            Refusal::Invalid(why) => challenge.push_str(&format!(
                ", error=\"invalid_token\", error_description=\"{}\"",
                quoted(why)
            )),
            Refusal::InsufficientScope(scopes) => challenge.push_str(&format!(
                ", error=\"insufficient_scope\", scope=\"{}\"",
                quoted(scopes)
            )),
        }
        challenge
    }
}

/// The caller a token's claims name, one namespace per kind of principal so that no
/// two of them share limits, sessions, audit records or gate decisions: a user by its
/// `sub` (or introspection's `username`; `user:<sub>` when that itself starts with a
/// kind's prefix), a client acting for itself as `client:<client_id or azp>`, and a
/// token that names neither as `token:<a hash of the token>` (each such token its own
/// caller).
#[cfg(feature = "mcp-oauth")]
fn caller_name(claims: &serde_json::Map<String, serde_json::Value>, token: &str) -> String {
    let text = |name: &str| claims.get(name).and_then(serde_json::Value::as_str);
    if let Some(user) = text("sub").or_else(|| text("username")) {
        // A user whose name looks like another kind's is marked as a user.
        return if ["client:", "token:", "user:"]
            .iter()
            .any(|kind| user.starts_with(kind))
        {
            format!("user:{user}")
        } else {
            user.to_owned()
        };
    }
    if let Some(client) = text("client_id").or_else(|| text("azp")) {
        return format!("client:{client}");
    }
    let digest = ring::digest::digest(&ring::digest::SHA256, token.as_bytes());
    let hex: String = digest.as_ref()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("token:{hex}")
}

/// The well-known URL `name` of `url`: `/.well-known/<name>` put between the origin
/// and the path (RFC 8414 §3, RFC 9728 §3.1), `https://id.example/tenant` →
/// `https://id.example/.well-known/<name>/tenant`.
#[cfg(feature = "mcp-oauth")]
fn well_known(url: &str, name: &str) -> String {
    let after_scheme = url.find("://").map_or(0, |i| i + 3);
    let (origin, path) = match url[after_scheme..].find('/') {
        Some(i) => url.split_at(after_scheme + i),
        None => (url, ""),
    };
    format!("{origin}/.well-known/{name}{}", path.trim_end_matches('/'))
}

/// Text fit for a quoted-string of a header: no quotes, backslashes or controls.
fn quoted(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c == '"' || c == '\\' || c.is_control() {
                '\''
            } else {
                c
            }
        })
        .collect()
}

/// The token after `Bearer ` (the scheme's case does not matter).
fn strip_scheme(value: &[u8]) -> Option<&[u8]> {
    let (scheme, rest) = value.split_at_checked(7)?;
    scheme
        .eq_ignore_ascii_case(b"bearer ")
        .then(|| rest.trim_ascii())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn challenges_name_the_error_and_never_quote_unsafely() {
        let tokens = Authorization::from(BearerTokens::new());
        assert_eq!(tokens.challenge(&Refusal::Missing), "Bearer realm=\"mcp\"");
        assert_eq!(
            tokens.challenge(&Refusal::Invalid("bad \"one\"".into())),
            "Bearer realm=\"mcp\", error=\"invalid_token\", error_description=\"bad 'one'\""
        );
        assert_eq!(strip_scheme(b"bearer  abc "), Some(&b"abc"[..]));
        assert_eq!(strip_scheme(b"Basic abc"), None);
    }

    #[cfg(feature = "mcp-oauth")]
    #[test]
    fn well_known_urls_go_between_origin_and_path() {
        assert_eq!(
            well_known("https://id.example.com/tenant/a", "x"),
            "https://id.example.com/.well-known/x/tenant/a"
        );
        assert_eq!(
            well_known("https://mcp.example.com/mcp/", "x"),
            "https://mcp.example.com/.well-known/x/mcp"
        );
        assert_eq!(
            well_known("https://id.example.com", "x"),
            "https://id.example.com/.well-known/x"
        );
    }
}
