//! The endpoint as an OAuth 2.1 resource server (the MCP authorization specification,
//! 2025-06-18 onward): access tokens are JWTs an authorization server issued for this
//! endpoint, checked against the issuer's published keys — signature, `iss`, `aud`
//! (this server's resource URI, RFC 8707), `exp` and `nbf` with a small leeway, and an
//! algorithm from an allow-list of asymmetric ones (never `none`, never a shared-secret
//! `HS*`, which anyone holding the public JWK Set could forge) — or, for opaque
//! tokens, by asking the issuer's introspection endpoint (RFC 7662, `introspect.rs`).
//! The token's scopes can choose which tools its holder sees and calls.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde_json::{Map, Value, json};
use toolwright_query::select::Selection;

use super::introspect::{Introspection, Rejected};
use super::jwks::{Jwks, KeyError};
use super::{Caller, Refusal};
use crate::transport::Transport;

/// Algorithms accepted unless [`OAuth::algorithms`] says otherwise.
const DEFAULT_ALGORITHMS: [Algorithm; 9] = [
    Algorithm::RS256,
    Algorithm::RS384,
    Algorithm::RS512,
    Algorithm::PS256,
    Algorithm::PS384,
    Algorithm::PS512,
    Algorithm::ES256,
    Algorithm::ES384,
    Algorithm::EdDSA,
];

/// An OAuth 2.1 resource server's settings (cheap to clone; clones share the key cache).
///
/// ```
/// use toolwright::serve::mcp::OAuth;
/// let oauth = OAuth::new("https://id.example.com", "https://mcp.example.com/mcp")?
///     .jwks_uri("https://id.example.com/.well-known/jwks.json")?
///     .scope("tools:read", ["read-only"])?       // holders of `tools:read` see read-only tools
///     .scope("tools:admin", ["api:*"])?;          // ... and of `tools:admin` every tool
/// # Ok::<(), toolwright::serve::mcp::OAuthError>(())
/// ```
#[derive(Clone)]
pub struct OAuth {
    issuer: String,
    resource: String,
    /// The key cache, rebuilt by the settings below (clones made after share it).
    jwks: Arc<Jwks>,
    jwks_uri: Option<String>,
    min_refresh: Duration,
    max_age: Duration,
    algorithms: Vec<Algorithm>,
    leeway: Duration,
    /// Scope → the tools it grants; empty: every valid token sees every tool.
    scopes: Arc<Vec<(String, Selection)>>,
    /// Tokens checked by the issuer's introspection endpoint instead of as JWTs.
    introspection: Option<Arc<Introspection>>,
}

impl fmt::Debug for OAuth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OAuth")
            .field("issuer", &self.issuer)
            .field("resource", &self.resource)
            .field("algorithms", &self.algorithms)
            .field("introspection", &self.introspection)
            .field(
                "scopes",
                &self.scopes.iter().map(|(s, _)| s).collect::<Vec<_>>(),
            )
            .finish_non_exhaustive()
    }
}

/// A setting [`OAuth`] cannot use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OAuthError(String);

impl fmt::Display for OAuthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for OAuthError {}

impl OAuth {
    /// Accepts access tokens `issuer` issued for `resource` — this endpoint's URL as
    /// clients reach it (`https://mcp.example.com/mcp`), the audience tokens must name.
    /// The keys are found through the issuer's metadata unless [`OAuth::jwks_uri`]
    /// names them.
    ///
    /// # Errors
    /// Either URL is not https (plain http is accepted for this machine only) or has a
    /// fragment.
    pub fn new(issuer: impl Into<String>, resource: impl Into<String>) -> Result<Self, OAuthError> {
        let issuer = issuer.into();
        let resource = resource.into();
        for (what, url) in [("issuer", &issuer), ("resource", &resource)] {
            if !crate::auth::oauth::secure_url(url) || url.contains('#') {
                return Err(OAuthError(format!(
                    "the {what} `{url}` must be an https URL without a fragment (http only for localhost)"
                )));
            }
        }
        let (min_refresh, max_age) = (Duration::from_secs(10), Duration::from_secs(600));
        Ok(OAuth {
            jwks: Arc::new(Jwks::new(issuer.clone(), None, min_refresh, max_age)),
            jwks_uri: None,
            min_refresh,
            max_age,
            issuer,
            resource,
            algorithms: DEFAULT_ALGORITHMS.to_vec(),
            leeway: Duration::from_secs(60),
            scopes: Arc::default(),
            introspection: None,
        })
    }

    /// Where the issuer publishes its keys (a JWK Set).
    ///
    /// # Errors
    /// The URL is not https (http only for this machine).
    pub fn jwks_uri(mut self, uri: impl Into<String>) -> Result<Self, OAuthError> {
        let uri = uri.into();
        if !crate::auth::oauth::secure_url(&uri) {
            return Err(OAuthError(format!(
                "the JWK Set URL `{uri}` must be https (http only for localhost)"
            )));
        }
        self.jwks_uri = Some(uri);
        Ok(self.fresh_keys())
    }

    /// Checks every token by asking the issuer's introspection endpoint (RFC 7662)
    /// instead of verifying it as a JWT: for opaque tokens, or so that a revoked token
    /// is refused at once. `client_id` and `secret` are this server's own credentials
    /// at the authorization server (sent as `Authorization: Basic`). The answer must
    /// say `active: true` and name this server's resource URI in `aud`; `iss`, `exp`
    /// and `nbf` are checked when present; the caller's name is `sub` (else `username`,
    /// `client_id`), its scopes `scope`. Answers are kept up to `cache_for` (never past
    /// the token's `exp`; `Duration::ZERO` asks every time).
    ///
    /// # Errors
    /// The endpoint is not https (http only for this machine).
    pub fn introspection(
        mut self,
        endpoint: impl Into<String>,
        client_id: &str,
        secret: &str,
        cache_for: Duration,
    ) -> Result<Self, OAuthError> {
        let endpoint = endpoint.into();
        if !crate::auth::oauth::secure_url(&endpoint) {
            return Err(OAuthError(format!(
                "the introspection endpoint `{endpoint}` must be https (http only for localhost)"
            )));
        }
        self.introspection = Some(Arc::new(Introspection::new(
            endpoint, client_id, secret, cache_for,
        )));
        Ok(self)
    }

    /// Tokens may be this long past `exp` or before `nbf` (clock skew; default 60 s).
    pub fn leeway(mut self, leeway: Duration) -> Self {
        self.leeway = leeway;
        self
    }

    /// A token whose key id is unknown refetches the keys at most this often (default
    /// 10 s); the keys are refetched anyway once `max_age` old (default 10 minutes).
    pub fn key_refresh(mut self, min_interval: Duration, max_age: Duration) -> Self {
        self.min_refresh = min_interval;
        self.max_age = max_age;
        self.fresh_keys()
    }

    /// Accepts only tokens signed with these algorithms (`RS256`, `PS256`, `ES256`,
    /// `ES384`, `EdDSA`, ...).
    ///
    /// # Errors
    /// A name that is not an asymmetric JWS algorithm (`none` and `HS*` included).
    pub fn algorithms<I, S>(mut self, names: I) -> Result<Self, OAuthError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut algorithms = Vec::new();
        for name in names {
            let name = name.as_ref();
            let found = DEFAULT_ALGORITHMS
                .iter()
                .find(|a| format!("{a:?}") == name)
                .ok_or_else(|| {
                    OAuthError(format!(
                        "`{name}` is not an accepted token algorithm; use one of RS256, RS384, RS512, PS256, PS384, PS512, ES256, ES384, EdDSA"
                    ))
                })?;
            algorithms.push(*found);
        }
        if algorithms.is_empty() {
            return Err(OAuthError("at least one algorithm is needed".into()));
        }
        self.algorithms = algorithms;
        Ok(self)
    }

    /// Holders of `scope` see and may call the tools `selectors` choose (the selector
    /// syntax of `--include`: `read-only`, `tag:issues`, `api:github`, ...). Once any
    /// scope is mapped, a caller sees the union of its scopes' tools, and a token
    /// without any mapped scope is refused with `403 insufficient_scope`.
    ///
    /// # Errors
    /// A selector does not parse.
    pub fn scope<I, S>(mut self, scope: impl Into<String>, selectors: I) -> Result<Self, OAuthError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let scope = scope.into();
        let selection =
            Selection::parse(selectors, std::iter::empty::<&str>()).map_err(|errors| {
                OAuthError(
                    errors
                        .iter()
                        .map(|e| format!("scope `{scope}`: {e}"))
                        .collect::<Vec<_>>()
                        .join("; "),
                )
            })?;
        Arc::make_mut(&mut self.scopes).push((scope, selection));
        Ok(self)
    }

    /// A key cache for the settings as they are now.
    fn fresh_keys(mut self) -> Self {
        self.jwks = Arc::new(Jwks::new(
            self.issuer.clone(),
            self.jwks_uri.clone(),
            self.min_refresh,
            self.max_age,
        ));
        self
    }

    /// RFC 9728: where clients find [`OAuth::metadata`] — the well-known path inserted
    /// between the resource's host and path.
    pub(in crate::serve::mcp::http) fn metadata_url(&self) -> String {
        super::well_known(&self.resource, "oauth-protected-resource")
    }

    /// The protected-resource metadata document (RFC 9728).
    pub(in crate::serve::mcp::http) fn metadata(&self) -> Value {
        let mut document = json!({
            "resource": self.resource,
            "authorization_servers": [self.issuer],
            "bearer_methods_supported": ["header"],
        });
        if !self.scopes.is_empty() {
            document["scopes_supported"] =
                json!(self.scopes.iter().map(|(s, _)| s).collect::<Vec<_>>());
        }
        document
    }

    /// The scopes that grant a tool, for a `403`'s `scope` parameter.
    pub(in crate::serve::mcp::http) fn scopes_granting(
        &self,
        keeps: impl Fn(&Selection) -> bool,
    ) -> Vec<String> {
        self.scopes
            .iter()
            .filter(|(_, selection)| keeps(selection))
            .map(|(scope, _)| scope.clone())
            .collect()
    }

    /// What `caller` may see: `None` for everything, else which mapped scopes it
    /// holds (their places in the mapping: the same set for every token holding the
    /// same mapped scopes, whatever else its scope string says) and their selections.
    pub(in crate::serve::mcp::http) fn view(
        &self,
        caller: &Caller,
    ) -> Option<(Vec<usize>, Vec<Selection>)> {
        if self.scopes.is_empty() {
            return None;
        }
        Some(
            self.scopes
                .iter()
                .enumerate()
                .filter(|(_, (scope, _))| caller.scopes.contains(scope))
                .map(|(at, (_, selection))| (at, selection.clone()))
                .unzip(),
        )
    }

    /// Checks `token`; the caller it names.
    pub(super) async fn validate(
        &self,
        token: &str,
        transport: &Arc<dyn Transport>,
    ) -> Result<Caller, Refusal> {
        if let Some(introspection) = &self.introspection {
            let granted = introspection
                .check(
                    token,
                    &self.issuer,
                    &self.resource,
                    self.leeway,
                    &**transport,
                )
                .await
                .map_err(|rejected| match rejected {
                    Rejected::Invalid(why) => Refusal::Invalid(why),
                    Rejected::Unavailable(why) => Refusal::Unavailable(why),
                })?;
            return self.admit(
                Caller::new(granted.name, granted.scopes, token).with_claims(granted.claims),
            );
        }
        let invalid = |why: &str| Refusal::Invalid(why.to_owned());
        let header = jsonwebtoken::decode_header(token)
            .map_err(|_| invalid("the access token is not a JWT this server accepts"))?;
        if let Some(why) = unacceptable_header(token) {
            return Err(invalid(why));
        }
        if !self.algorithms.contains(&header.alg) {
            return Err(invalid(
                "the access token is signed with an algorithm this server does not accept",
            ));
        }
        let jwk = match self
            .jwks
            .key(header.kid.as_deref(), header.alg, transport)
            .await
        {
            Ok(jwk) => jwk,
            Err(KeyError::Unknown(why)) => return Err(Refusal::Invalid(why)),
            Err(KeyError::Unavailable(why)) => return Err(Refusal::Unavailable(why)),
        };
        let key =
            DecodingKey::from_jwk(&jwk).map_err(|_| invalid("the issuer's key cannot be used"))?;
        let mut validation = Validation::new(header.alg);
        validation.algorithms = vec![header.alg];
        validation.leeway = self.leeway.as_secs();
        validation.validate_nbf = true;
        validation.set_issuer(&[self.issuer.as_str()]);
        validation.set_audience(&[self.resource.as_str()]);
        validation.set_required_spec_claims(&["exp", "iss", "aud"]);
        let data =
            jsonwebtoken::decode::<Map<String, Value>>(token, &key, &validation).map_err(|e| {
                use jsonwebtoken::errors::ErrorKind;
                invalid(match e.kind() {
                    ErrorKind::ExpiredSignature => "the access token has expired",
                    ErrorKind::ImmatureSignature => "the access token is not valid yet",
                    ErrorKind::InvalidAudience => "the access token was not issued for this server",
                    ErrorKind::InvalidIssuer => "the access token comes from another issuer",
                    ErrorKind::InvalidSignature => "the access token's signature does not verify",
                    ErrorKind::MissingRequiredClaim(_) => {
                        "the access token lacks `exp`, `iss` or `aud`"
                    }
                    _ => "the access token is not valid",
                })
            })?;
        let claims = data.claims;
        // RFC 7519: `iss` is one string (the library also takes an array).
        if !claims.get("iss").is_some_and(Value::is_string) {
            return Err(invalid("the access token's `iss` is not one issuer"));
        }
        let text = |name: &str| claims.get(name).and_then(Value::as_str);
        // `scope` (RFC 8693/9068: space-separated), or what some issuers send instead:
        // `scp`, an array or a string.
        let mut scopes: Vec<String> = text("scope")
            .unwrap_or("")
            .split_whitespace()
            .map(str::to_owned)
            .collect();
        match claims.get("scp") {
            Some(Value::String(s)) => scopes.extend(s.split_whitespace().map(str::to_owned)),
            Some(Value::Array(items)) => {
                scopes.extend(items.iter().filter_map(Value::as_str).map(str::to_owned));
            }
            _ => {}
        }
        let name = super::caller_name(&claims, token);
        self.admit(Caller::new(name, scopes, token).with_claims(claims))
    }

    /// A caller with a valid token, unless scopes are mapped and it holds none of them.
    fn admit(&self, caller: Caller) -> Result<Caller, Refusal> {
        if let Some((_, view)) = self.view(&caller)
            && view.is_empty()
        {
            let all: Vec<&str> = self.scopes.iter().map(|(s, _)| s.as_str()).collect();
            return Err(Refusal::InsufficientScope(all.join(" ")));
        }
        Ok(caller)
    }
}

/// What the JOSE header says that this server must refuse (the library reads only the
/// members it knows): any `crit` extension, since it implements none (RFC 7515
/// §4.1.11: such a token MUST be rejected), and a `typ` that is neither an access
/// token's (`at+jwt`, RFC 9068) nor the generic `JWT` many issuers still put on theirs
/// — an ID token (`id+jwt`?), a logout token, any other kind of JWT.
fn unacceptable_header(token: &str) -> Option<&'static str> {
    use base64::Engine;
    let segment = token.split('.').next()?;
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(segment.trim_end_matches('='))
        .ok()?;
    let header: Map<String, Value> = serde_json::from_slice(&bytes).ok()?;
    if header.contains_key("crit") {
        return Some(
            "the access token's header has critical extensions this server does not implement",
        );
    }
    match header.get("typ") {
        None => None,
        Some(Value::String(typ)) => {
            let typ = typ.to_ascii_lowercase();
            let typ = typ.strip_prefix("application/").unwrap_or(&typ);
            (!matches!(typ, "at+jwt" | "jwt"))
                .then_some("the token is not an access token (its `typ` names another kind of JWT)")
        }
        Some(_) => Some("the access token's `typ` is not text"),
    }
}
