//! Credentials: read from the environment at call time, applied to the request.
//!
//! Only variable *names* live in descriptors and generated code; values are read when a
//! call is made and never appear in errors or `Debug` output. OAuth 2 client
//! credentials are exchanged for tokens (`oauth`, internal), and so are MCP callers'
//! tokens for APIs that should see the caller ([`TokenExchange`], RFC 8693).

use std::fmt;
use std::sync::Arc;

use crate::base64;
use crate::descriptor::{Api, KeyPlacement, Requirement, SchemeKind};
use crate::error::Error;

mod exchange;
pub(crate) mod oauth;

pub(crate) use exchange::CallerCredential;
pub use exchange::TokenExchange;

/// Where credential values come from. The default reads process environment variables;
/// services and tests can supply their own lookup.
#[derive(Clone)]
pub struct CredentialSource(Arc<Lookup>);

type Lookup = dyn Fn(&str) -> Option<String> + Send + Sync;

impl CredentialSource {
    /// Reads `std::env::var`.
    pub fn env() -> Self {
        CredentialSource(Arc::new(|name| std::env::var(name).ok()))
    }

    /// Uses a custom lookup from variable name to value.
    pub fn from_fn(f: impl Fn(&str) -> Option<String> + Send + Sync + 'static) -> Self {
        CredentialSource(Arc::new(f))
    }

    fn get(&self, api: &Api, name: &str) -> Result<String, Error> {
        self.find(name).ok_or_else(|| Error::MissingCredential {
            api: api.name.to_string(),
            env: name.to_owned(),
        })
    }

    /// The variable's value, when set and not empty.
    fn find(&self, name: &str) -> Option<String> {
        (self.0)(name).filter(|v| !v.is_empty())
    }
}

impl Default for CredentialSource {
    fn default() -> Self {
        CredentialSource::env()
    }
}

impl fmt::Debug for CredentialSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("CredentialSource(..)")
    }
}

/// A credential ready to put on a request.
pub(crate) enum Applied {
    Header(String, Secret),
    Query(String, Secret),
    Cookie(String, Secret),
}

/// A credential, or what is needed to fetch one (an OAuth 2 token).
pub(crate) enum Planned<'a> {
    Ready(Applied),
    Token(oauth::Client<'a>),
}

/// A credential value that never prints itself.
#[derive(Clone)]
pub(crate) struct Secret(pub(crate) String);

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}

/// Credentials for `security`: the first requirement whose every scheme has its
/// credentials wins (its index beside them; `None` when none applies and anonymous
/// access is allowed). With none satisfiable, the error names what the first one needs.
pub(crate) fn resolve<'a>(
    api: &'a Api,
    security: &[Requirement],
    source: &CredentialSource,
) -> Result<(Vec<Planned<'a>>, Option<usize>), Error> {
    // Credentials are sent when some requirement can be met, even if another one
    // (`{}`) allows anonymous calls: authenticated calls see more.
    let mut first_error = None;
    for (i, requirement) in security.iter().enumerate() {
        if requirement.schemes.is_empty() {
            continue;
        }
        let applied: Result<Vec<Planned<'a>>, Error> = requirement
            .schemes
            .iter()
            .map(|name| apply(api, name, source))
            .collect();
        match applied {
            Ok(applied) => return Ok((applied, Some(i))),
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    let anonymous = security.is_empty() || security.iter().any(|r| r.schemes.is_empty());
    match first_error {
        Some(e) if !anonymous => Err(e),
        _ => Ok((Vec::new(), None)),
    }
}

fn apply<'a>(api: &'a Api, scheme: &str, source: &CredentialSource) -> Result<Planned<'a>, Error> {
    let Some(scheme) = api.schemes.iter().find(|s| s.name == scheme) else {
        return Err(Error::Request {
            tool: String::new(),
            message: format!("API `{}` has no security scheme `{scheme}`", api.name),
        });
    };
    Ok(Planned::Ready(match &scheme.kind {
        SchemeKind::Bearer { token_env } => bearer(source.get(api, token_env)?),
        SchemeKind::ClientCredentials {
            token_env,
            token_url,
            client_id_env,
            client_secret_env,
        } => match source.find(token_env) {
            // A token handed in wins: the service manages it.
            Some(token) => bearer(token),
            None => {
                return Ok(Planned::Token(oauth::Client {
                    api,
                    scheme: &scheme.name,
                    token_url,
                    id: Secret(source.get(api, client_id_env)?),
                    secret: Secret(source.get(api, client_secret_env)?),
                    scopes: source.find(&format!("{token_env}_SCOPES")),
                    grant: oauth::Grant::ClientCredentials,
                }));
            }
        },
        SchemeKind::ApiKey { key_env, placement } => {
            let key = Secret(source.get(api, key_env)?);
            match placement {
                KeyPlacement::Header(name) => Applied::Header(name.to_ascii_lowercase(), key),
                KeyPlacement::Query(name) => Applied::Query(name.to_string(), key),
                KeyPlacement::Cookie(name) => Applied::Cookie(name.to_string(), key),
            }
        }
        SchemeKind::Basic {
            username_env,
            password_env,
        } => {
            let user = source.get(api, username_env)?;
            let password = source.get(api, password_env)?;
            Applied::Header(
                "authorization".into(),
                Secret(format!(
                    "Basic {}",
                    base64::encode(format!("{user}:{password}").as_bytes())
                )),
            )
        }
    }))
}

/// `Authorization: Bearer <token>`.
pub(crate) fn bearer(token: impl fmt::Display) -> Applied {
    Applied::Header("authorization".into(), Secret(format!("Bearer {token}")))
}
