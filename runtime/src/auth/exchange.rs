//! How an MCP caller's access token becomes the credential of a downstream API that
//! should see the caller, not the service: RFC 8693 token exchange at the API's
//! authorization server. The caller's token is the `subject_token`; the service
//! authenticates as itself (its client id and secret, `Authorization: Basic`); the token
//! it gets back names the API (`audience`, `resource`) and goes on that caller's calls
//! only. Forwarding the MCP endpoint's own token unchanged (plain pass-through) works
//! only where the API accepts tokens issued for the endpoint; an exchange gives the API
//! a token issued for it.

use std::fmt;

use super::Secret;

/// What an API called on the MCP caller's behalf gets as its credential.
#[derive(Debug, Clone)]
#[cfg_attr(not(feature = "mcp-http"), allow(dead_code))]
pub(crate) enum CallerCredential {
    /// The caller's access token as presented.
    Token,
    /// The string value of this claim of the caller's token (an upstream token an
    /// identity provider put there).
    Claim(String),
    /// A token exchanged for the caller's.
    Exchange(TokenExchange),
}

/// Settings of one API's token exchange (`ExecutorBuilder::pass_through_exchanged`,
/// feature `mcp-http`).
///
/// ```
/// use toolwright::auth::TokenExchange;
/// let exchange = TokenExchange::new("https://id.example.com/oauth/token", "mcp-gateway", "s3cret")
///     .audience("https://api.example.com")
///     .scopes("issues:read issues:write");
/// ```
#[derive(Clone)]
pub struct TokenExchange {
    pub(crate) token_url: String,
    pub(crate) client_id: Secret,
    pub(crate) secret: Secret,
    pub(crate) audience: Option<String>,
    pub(crate) resource: Option<String>,
    pub(crate) scopes: Option<String>,
}

impl fmt::Debug for TokenExchange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never the client's credentials.
        f.debug_struct("TokenExchange")
            .field("token_url", &self.token_url)
            .field("audience", &self.audience)
            .field("resource", &self.resource)
            .field("scopes", &self.scopes)
            .finish_non_exhaustive()
    }
}

impl TokenExchange {
    /// Exchanges at `token_url` (https; plain http only on loopback), authenticating as
    /// `client_id` with `secret`.
    pub fn new(token_url: impl Into<String>, client_id: &str, secret: &str) -> Self {
        TokenExchange {
            token_url: token_url.into(),
            client_id: Secret(client_id.to_owned()),
            secret: Secret(secret.to_owned()),
            audience: None,
            resource: None,
            scopes: None,
        }
    }

    /// The logical name of the API the token is for (`audience`).
    #[must_use]
    pub fn audience(mut self, audience: impl Into<String>) -> Self {
        self.audience = Some(audience.into());
        self
    }

    /// The API's URL the token is for (`resource`, RFC 8707).
    #[must_use]
    pub fn resource(mut self, resource: impl Into<String>) -> Self {
        self.resource = Some(resource.into());
        self
    }

    /// Space-separated scopes to ask for.
    #[must_use]
    pub fn scopes(mut self, scopes: impl Into<String>) -> Self {
        self.scopes = Some(scopes.into());
        self
    }
}
