//! The issuer's signing keys (a JWK Set), fetched over HTTPS and cached. A token whose
//! key id is not in the cache makes the set be fetched again — that is how a key
//! rotation reaches us — but at most once per `min_refresh`, counting failed attempts,
//! so tokens with made-up key ids cannot make the server hammer the issuer, whether it
//! answers or not. The whole set is also refetched once it is older than `max_age`.
//!
//! Nobody with a known key waits for the issuer: the cache is read under a lock held
//! for a lookup only, and one fetch runs at a time (single flight) outside it. A token
//! with an unknown key id waits for that one fetch (or is refused at once while the
//! last attempt is recent); a token whose key is known but due for a refresh is
//! verified with the cached key unless the refresh it starts answers within
//! `STALE_WAIT`. A failed refetch keeps the keys already known: while the issuer cannot
//! be reached, they keep verifying (a key the issuer retired is dropped at the first
//! successful refetch).

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use jsonwebtoken::Algorithm;
use jsonwebtoken::jwk::{AlgorithmParameters, Jwk, PublicKeyUse};
use serde_json::Value;

use super::fetch::get_json;
use crate::transport::Transport;

/// How long a token whose cached key is due for a refresh waits for that refresh
/// before it is verified with the cached key.
const STALE_WAIT: Duration = Duration::from_millis(250);

/// Where the keys are, and what was fetched from there.
#[derive(Debug)]
pub(super) struct Jwks {
    issuer: String,
    /// Configured, or discovered from the issuer's metadata on first use.
    uri: Option<String>,
    min_refresh: Duration,
    max_age: Duration,
    /// What is known; locked for lookups and updates only, never across a fetch.
    state: Mutex<State>,
    /// Held by the one fetch in flight (a detached task: a request that gave up
    /// waiting, or whose client went away, does not cancel it).
    fetching: Arc<tokio::sync::Mutex<()>>,
}

#[derive(Debug, Default)]
struct State {
    uri: Option<String>,
    keys: Arc<Vec<Jwk>>,
    /// The last successful fetch.
    fetched: Option<Instant>,
    /// The last fetch started, successful or not.
    attempted: Option<Instant>,
    /// Fetches finished, successful or not (a token that waited for the one in
    /// flight does not fetch again).
    finished: u64,
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
            state: Mutex::default(),
            fetching: Arc::default(),
        }
    }

    /// The key that verifies a token signed with `alg`, carrying key id `kid`.
    pub(super) async fn key(
        self: &Arc<Self>,
        kid: Option<&str>,
        alg: Algorithm,
        transport: &Arc<dyn Transport>,
    ) -> Result<Jwk, KeyError> {
        let (keys, fetched, attempted, finished) = {
            let state = lock(&self.state);
            (
                state.keys.clone(),
                state.fetched,
                state.attempted,
                state.finished,
            )
        };
        let due = attempted.is_none_or(|at| at.elapsed() >= self.min_refresh);
        if let Some(key) = find(&keys, kid, alg) {
            let stale = fetched.is_none_or(|at| at.elapsed() >= self.max_age);
            if stale
                && due
                && let Ok(flight) = Arc::clone(&self.fetching).try_lock_owned()
            {
                // This token starts the refresh, and waits for it only briefly: the
                // key it has is still the issuer's until the issuer says otherwise.
                let refresh = self.refresh(flight, transport);
                if tokio::time::timeout(STALE_WAIT, refresh).await.is_ok()
                    && let Some(key) = find(&lock(&self.state).keys, kid, alg)
                {
                    return Ok(key.clone());
                }
            }
            return Ok(key.clone());
        }
        // Not known: fetch again, unless an attempt was made lately (made-up key ids
        // are refused from the cache).
        if due {
            let flight = Arc::clone(&self.fetching).lock_owned().await;
            // Another token's fetch may have finished while this one waited.
            if lock(&self.state).finished == finished {
                let _ = self.refresh(flight, transport).await;
            }
        }
        let state = lock(&self.state);
        if let Some(key) = find(&state.keys, kid, alg) {
            return Ok(key.clone());
        }
        if state.keys.is_empty() {
            return Err(KeyError::Unavailable(
                "the issuer's keys could not be fetched".into(),
            ));
        }
        Err(KeyError::Unknown(match kid {
            Some(kid) => format!("the issuer has no key `{kid}` for {alg:?}"),
            None => format!("the token names no key id and the issuer has no single {alg:?} key"),
        }))
    }

    /// Runs one fetch as a task of its own, holding `flight` until it is done; the
    /// returned handle waits for it, and dropping the handle does not cancel it.
    fn refresh(
        self: &Arc<Self>,
        flight: tokio::sync::OwnedMutexGuard<()>,
        transport: &Arc<dyn Transport>,
    ) -> tokio::task::JoinHandle<()> {
        let (jwks, transport) = (Arc::clone(self), Arc::clone(transport));
        tokio::spawn(async move {
            let _flight = flight;
            let _ = jwks.refetch(&*transport).await;
        })
    }

    /// One fetch of the set (the caller holds `fetching`): the keys replace the known
    /// ones when it succeeds; the attempt is recorded either way.
    async fn refetch(&self, transport: &dyn Transport) -> Result<(), String> {
        let uri = {
            let mut state = lock(&self.state);
            state.attempted = Some(Instant::now());
            state.uri.clone()
        };
        let outcome = self.fetch(uri, transport).await;
        let mut state = lock(&self.state);
        state.finished += 1;
        match outcome {
            Ok((uri, keys)) => {
                state.uri = Some(uri);
                state.keys = Arc::new(keys);
                state.fetched = Some(Instant::now());
                Ok(())
            }
            Err(e) => {
                #[cfg(feature = "tracing")]
                tracing::warn!(target: "toolwright::auth", "the issuer's keys could not be fetched: {e}");
                Err(e)
            }
        }
    }

    /// The set at the configured or discovered URL (`known`: discovered before).
    async fn fetch(
        &self,
        known: Option<String>,
        transport: &dyn Transport,
    ) -> Result<(String, Vec<Jwk>), String> {
        let uri = match (&self.uri, known) {
            (Some(uri), _) => uri.clone(),
            (None, Some(uri)) => uri,
            (None, None) => self.discover(transport).await?,
        };
        let set = get_json(&uri, transport).await?;
        let keys = set
            .get("keys")
            .and_then(Value::as_array)
            .ok_or_else(|| format!("`{uri}` is not a JWK Set (no `keys` array)"))?;
        // A key of a type this server does not verify with is skipped, not fatal.
        let keys = keys
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
            .collect();
        Ok((uri, keys))
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

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
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
