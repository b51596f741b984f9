//! The issuer's signing keys (a JWK Set), fetched over HTTPS and cached. A token whose
//! key id is not in the cache makes the set be fetched again — that is how a key
//! rotation reaches us — but at most once per `min_refresh`, so tokens with made-up key
//! ids cannot make the server hammer the issuer. The whole set is also refetched once
//! it is older than `max_age`; a failed refetch keeps the keys already known.

use std::time::{Duration, Instant};

use jsonwebtoken::Algorithm;
use jsonwebtoken::jwk::{AlgorithmParameters, Jwk, PublicKeyUse};
use serde_json::Value;

use super::fetch::get_json;
use crate::transport::Transport;

/// Where the keys are, and what was fetched from there.
#[derive(Debug)]
pub(super) struct Jwks {
    issuer: String,
    /// Configured, or discovered from the issuer's metadata on first use.
    uri: Option<String>,
    min_refresh: Duration,
    max_age: Duration,
    state: tokio::sync::Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    uri: Option<String>,
    keys: Vec<Jwk>,
    fetched: Option<Instant>,
}

/// Why no key could be found for a token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum KeyError {
    /// The set has no key for this token (after refetching when allowed).
    Unknown(String),
    /// The set could not be fetched at all: the server cannot check any token.
    Unavailable(String),
}

impl Jwks {
    pub(super) fn new(
        issuer: String,
        uri: Option<String>,
        min_refresh: Duration,
        max_age: Duration,
    ) -> Self {
        Jwks {
            issuer,
            uri,
            min_refresh,
            max_age,
            state: tokio::sync::Mutex::default(),
        }
    }

    /// The key that verifies a token signed with `alg`, carrying key id `kid`.
    pub(super) async fn key(
        &self,
        kid: Option<&str>,
        alg: Algorithm,
        transport: &dyn Transport,
    ) -> Result<Jwk, KeyError> {
        let mut state = self.state.lock().await;
        let age = state.fetched.map(|at| at.elapsed());
        let stale = age.is_none_or(|age| age >= self.max_age);
        if !stale && let Some(key) = find(&state.keys, kid, alg) {
            return Ok(key.clone());
        }
        let may_refetch = age.is_none_or(|age| age >= self.min_refresh);
        if may_refetch {
            match self.fetch(&mut state, transport).await {
                Ok(keys) => {
                    state.keys = keys;
                    state.fetched = Some(Instant::now());
                }
                // Keys known before still verify until the issuer answers again.
                Err(e) if state.keys.is_empty() => return Err(KeyError::Unavailable(e)),
                Err(_) => state.fetched = Some(Instant::now()),
            }
        }
        find(&state.keys, kid, alg).cloned().ok_or_else(|| {
            KeyError::Unknown(match kid {
                Some(kid) => format!("the issuer has no key `{kid}` for {alg:?}"),
                None => {
                    format!("the token names no key id and the issuer has no single {alg:?} key")
                }
            })
        })
    }

    async fn fetch(
        &self,
        state: &mut State,
        transport: &dyn Transport,
    ) -> Result<Vec<Jwk>, String> {
        let uri = match (&self.uri, &state.uri) {
            (Some(uri), _) | (None, Some(uri)) => uri.clone(),
            (None, None) => {
                let uri = self.discover(transport).await?;
                state.uri = Some(uri.clone());
                uri
            }
        };
        let set = get_json(&uri, transport).await?;
        let keys = set
            .get("keys")
            .and_then(Value::as_array)
            .ok_or_else(|| format!("`{uri}` is not a JWK Set (no `keys` array)"))?;
        // A key of a type this server does not verify with is skipped, not fatal.
        Ok(keys
            .iter()
            .filter_map(|key| serde_json::from_value::<Jwk>(key.clone()).ok())
            .filter(|key| {
                !matches!(key.algorithm, AlgorithmParameters::OctetKey(_))
                    && key
                        .common
                        .public_key_use
                        .as_ref()
                        .is_none_or(|u| *u == PublicKeyUse::Signature)
            })
            .collect())
    }

    /// `jwks_uri` from the issuer's metadata: RFC 8414's document, else OpenID
    /// Connect's. The document must name the same issuer (RFC 8414 §3.3).
    async fn discover(&self, transport: &dyn Transport) -> Result<String, String> {
        let issuer = self.issuer.trim_end_matches('/');
        let candidates = [
            super::well_known(issuer, "oauth-authorization-server"),
            format!("{issuer}/.well-known/openid-configuration"),
        ];
        let mut failures = Vec::new();
        for url in candidates {
            match get_json(&url, transport).await {
                Ok(metadata) => {
                    let named = metadata.get("issuer").and_then(Value::as_str);
                    if named.map(|n| n.trim_end_matches('/')) != Some(issuer) {
                        return Err(format!(
                            "`{url}` names issuer {named:?}, not `{}`",
                            self.issuer
                        ));
                    }
                    return metadata
                        .get("jwks_uri")
                        .and_then(Value::as_str)
                        .map(str::to_owned)
                        .ok_or_else(|| format!("`{url}` has no `jwks_uri`"));
                }
                Err(e) => failures.push(e),
            }
        }
        Err(format!(
            "cannot find the issuer's keys: {}; give the JWK Set's URL",
            failures.join("; ")
        ))
    }
}

/// The key for `kid` (or the only key for `alg` when the token names none) whose type
/// fits `alg` and whose own `alg`, when it states one, is `alg`.
fn find<'a>(keys: &'a [Jwk], kid: Option<&str>, alg: Algorithm) -> Option<&'a Jwk> {
    let fits = |key: &&Jwk| {
        let family = matches!(
            (&key.algorithm, alg),
            (
                AlgorithmParameters::RSA(_),
                Algorithm::RS256
                    | Algorithm::RS384
                    | Algorithm::RS512
                    | Algorithm::PS256
                    | Algorithm::PS384
                    | Algorithm::PS512
            ) | (
                AlgorithmParameters::EllipticCurve(_),
                Algorithm::ES256 | Algorithm::ES384
            ) | (AlgorithmParameters::OctetKeyPair(_), Algorithm::EdDSA)
        );
        let stated = key
            .common
            .key_algorithm
            .is_none_or(|stated| format!("{stated:?}") == format!("{alg:?}"));
        family && stated
    };
    match kid {
        Some(kid) => keys
            .iter()
            .filter(fits)
            .find(|key| key.common.key_id.as_deref() == Some(kid)),
        None => {
            let mut fitting = keys.iter().filter(fits);
            let only = fitting.next()?;
            fitting.next().is_none().then_some(only)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_fits_by_id_type_and_stated_algorithm() {
        let keys: Vec<Jwk> = serde_json::from_value(serde_json::json!([
            {"kty": "OKP", "crv": "Ed25519", "x": "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo", "kid": "ed"},
            {"kty": "EC", "crv": "P-256", "kid": "ec", "alg": "ES256",
             "x": "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU", "y": "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}
        ]))
        .unwrap();
        assert!(find(&keys, Some("ed"), Algorithm::EdDSA).is_some());
        // The right id with the wrong family, or an unknown id: nothing.
        assert!(find(&keys, Some("ed"), Algorithm::ES256).is_none());
        assert!(find(&keys, Some("other"), Algorithm::EdDSA).is_none());
        // No id: the only key that fits.
        assert_eq!(
            find(&keys, None, Algorithm::ES256).and_then(|k| k.common.key_id.as_deref()),
            Some("ec")
        );
    }
}
