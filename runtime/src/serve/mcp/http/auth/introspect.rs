//! Token introspection (RFC 7662): the authorization server says whether a token is
//! active and what it grants, for tokens this server cannot read itself (opaque ones)
//! or should not trust until the issuer confirms (revocation takes effect at once).
//! The endpoint is asked with this server's own client credentials (`Authorization:
//! Basic`, the method every server supports) over https (or to this machine). Its
//! answer must say `active: true`, name this server's resource in `aud` (the MCP
//! specification's audience rule, as for JWTs), name the issuer in `iss` when it has
//! one, and be within `exp`/`nbf` with the leeway. Answers are cached for a short while
//! (never past the token's `exp`), so a client's burst of requests costs one round trip.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::Value;

use super::fetch;
use crate::transport::Transport;

/// Answers kept at most; past it, expired ones go, then all (a flood of made-up tokens
/// must not grow memory).
const MAX_CACHED: usize = 4096;

/// What an active token grants: the caller's name and scopes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Granted {
    pub name: String,
    pub scopes: Vec<String>,
    /// The whole answer (a credential may be taken from one of its members).
    pub claims: serde_json::Map<String, Value>,
}

/// Why a token is not accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Rejected {
    /// The answer says no (inactive, another audience, expired): `401`.
    Invalid(String),
    /// The endpoint could not be asked: `503`.
    Unavailable(String),
}

/// The endpoint, this server's credentials for it, and the answers cached.
pub(super) struct Introspection {
    endpoint: String,
    /// `Basic` credentials, already encoded (never shown).
    basic: String,
    cache_for: Duration,
    cache: Mutex<HashMap<Arc<str>, Kept>>,
}

/// An answer (or why the token was refused) and until when it is kept.
type Kept = (Instant, Result<Granted, String>);

impl fmt::Debug for Introspection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Introspection")
            .field("endpoint", &self.endpoint)
            .field("cache_for", &self.cache_for)
            .finish_non_exhaustive()
    }
}

impl Introspection {
    pub(super) fn new(
        endpoint: String,
        client_id: &str,
        secret: &str,
        cache_for: Duration,
    ) -> Self {
        let form = crate::percent::encode;
        Introspection {
            endpoint,
            basic: crate::base64::encode(
                format!("{}:{}", form(client_id), form(secret)).as_bytes(),
            ),
            cache_for,
            cache: Mutex::default(),
        }
    }

    /// What `token` grants, for this server (`resource`) and `issuer`.
    pub(super) async fn check(
        &self,
        token: &str,
        issuer: &str,
        resource: &str,
        leeway: Duration,
        transport: &dyn Transport,
    ) -> Result<Granted, Rejected> {
        if let Some(answer) = self.cached(token) {
            return answer.map_err(Rejected::Invalid);
        }
        let body = format!(
            "token={}&token_type_hint=access_token",
            crate::percent::encode(token)
        );
        let answer = fetch::post_form(&self.endpoint, &self.basic, body, transport)
            .await
            .map_err(Rejected::Unavailable)?;
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_secs();
        let judged = judge(&answer, issuer, resource, leeway.as_secs(), now);
        // Kept no longer than the token lives (an inactive answer: the usual while).
        let lives = answer
            .get("exp")
            .and_then(Value::as_u64)
            .map(|exp| Duration::from_secs(exp.saturating_sub(now)));
        let keep = lives.map_or(self.cache_for, |lives| lives.min(self.cache_for));
        self.remember(token, keep, judged.clone());
        judged.map_err(Rejected::Invalid)
    }

    fn cached(&self, token: &str) -> Option<Result<Granted, String>> {
        let cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
        let (until, answer) = cache.get(token)?;
        (Instant::now() < *until).then(|| answer.clone())
    }

    fn remember(&self, token: &str, keep: Duration, answer: Result<Granted, String>) {
        if keep.is_zero() {
            return;
        }
        let mut cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
        if cache.len() >= MAX_CACHED {
            let now = Instant::now();
            cache.retain(|_, (until, _)| *until > now);
            if cache.len() >= MAX_CACHED {
                cache.clear();
            }
        }
        cache.insert(token.into(), (Instant::now() + keep, answer));
    }
}

/// The introspection answer's verdict at `now` (seconds since the epoch).
fn judge(
    answer: &Value,
    issuer: &str,
    resource: &str,
    leeway: u64,
    now: u64,
) -> Result<Granted, String> {
    if answer.get("active") != Some(&Value::Bool(true)) {
        return Err(
            "the issuer says the access token is not active (revoked, expired or unknown)".into(),
        );
    }
    let audiences: Vec<&str> = match answer.get("aud") {
        Some(Value::String(one)) => vec![one.as_str()],
        Some(Value::Array(many)) => many.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    if !audiences.contains(&resource) {
        return Err(if audiences.is_empty() {
            "the issuer's introspection answer names no audience; this server accepts only tokens issued for it (`aud`)".into()
        } else {
            "the access token was not issued for this server".into()
        });
    }
    if let Some(named) = answer.get("iss").and_then(Value::as_str)
        && named.trim_end_matches('/') != issuer.trim_end_matches('/')
    {
        return Err("the access token comes from another issuer".into());
    }
    if let Some(exp) = answer.get("exp").and_then(Value::as_u64)
        && exp.saturating_add(leeway) <= now
    {
        return Err("the access token has expired".into());
    }
    if let Some(nbf) = answer.get("nbf").and_then(Value::as_u64)
        && nbf > now.saturating_add(leeway)
    {
        return Err("the access token is not valid yet".into());
    }
    let name = ["sub", "username", "client_id"]
        .iter()
        .find_map(|k| answer.get(*k).and_then(Value::as_str))
        .unwrap_or("(no subject)")
        .to_owned();
    let scopes = answer
        .get("scope")
        .and_then(Value::as_str)
        .unwrap_or("")
        .split_whitespace()
        .map(str::to_owned)
        .collect();
    let claims = answer.as_object().cloned().unwrap_or_default();
    Ok(Granted {
        name,
        scopes,
        claims,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const ISS: &str = "https://id.example.com";
    const RES: &str = "https://mcp.example.com/mcp";

    fn verdict(answer: Value) -> Result<Granted, String> {
        judge(&answer, ISS, RES, 60, 1_000_000)
    }

    #[test]
    fn an_active_token_for_this_server_is_granted_its_scopes() {
        let granted = verdict(json!({"active": true, "aud": [RES, "other"], "iss": ISS,
            "sub": "alice", "scope": "tools:read tools:write", "exp": 1_000_100}))
        .unwrap();
        assert_eq!(granted.name, "alice");
        assert_eq!(granted.scopes, ["tools:read", "tools:write"]);
        // Without a subject, the client is the caller.
        let granted = verdict(json!({"active": true, "aud": RES, "client_id": "ci"})).unwrap();
        assert_eq!(granted.name, "ci");
    }

    #[test]
    fn every_other_answer_is_refused_saying_why() {
        for (answer, why) in [
            (json!({"active": false}), "not active"),
            (json!({"aud": RES}), "not active"),
            (json!({"active": "true", "aud": RES}), "not active"),
            (json!({"active": true}), "names no audience"),
            (
                json!({"active": true, "aud": "https://elsewhere/mcp"}),
                "not issued for this server",
            ),
            (
                json!({"active": true, "aud": RES, "iss": "https://evil"}),
                "another issuer",
            ),
            (
                json!({"active": true, "aud": RES, "exp": 999_940}),
                "expired",
            ),
            (
                json!({"active": true, "aud": RES, "nbf": 1_000_061}),
                "not valid yet",
            ),
        ] {
            let refused = verdict(answer.clone()).unwrap_err();
            assert!(refused.contains(why), "{answer}: {refused}");
        }
        // Within the leeway: still accepted.
        assert!(verdict(json!({"active": true, "aud": RES, "exp": 999_941})).is_ok());
    }
}
