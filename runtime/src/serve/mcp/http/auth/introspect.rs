//! Token introspection (RFC 7662): the authorization server says whether a token is
//! active and what it grants, for tokens this server cannot read itself (opaque ones)
//! or should not trust until the issuer confirms (revocation takes effect at once).
//! The endpoint is asked with this server's own client credentials (`Authorization:
//! Basic`, the method every server supports) over https (or to this machine). Its
//! answer must say `active: true`, name this server's resource in `aud` (the MCP
//! specification's audience rule, as for JWTs), name the issuer in `iss` when it has
//! one, and be within `exp`/`nbf` with the leeway. Answers are cached for a short while
//! (never past the token's `exp`), so a client's burst of requests costs one round trip.
//!
//! Unauthenticated clients must not make this server do work for free (the third
//! security review's F6): a token that is not even RFC 6750 token syntax is refused
//! without asking; refusals are cached apart from grants and only briefly, so made-up
//! tokens can never push a valid one out (grants are evicted least recently used
//! first); and tokens the issuer does not know are budgeted — past
//! `FAILURES_PER_SECOND` (with a burst), new tokens wait (`503`, retry) instead of each
//! costing a round trip with this server's credentials.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::Value;

use super::fetch;
use crate::transport::Transport;

/// Grants kept at most; past it the least recently used goes.
const MAX_GRANTS: usize = 4096;
/// Refusals kept at most, and for how long (a token the issuer refused is junk or
/// revoked; neither is asked about twice in a row, neither is kept long).
const MAX_REFUSALS: usize = 4096;
const REFUSAL_TTL: Duration = Duration::from_secs(10);
/// Tokens the issuer does not know, per second and in a burst, before new tokens wait.
const FAILURES_PER_SECOND: f64 = 2.0;
const FAILURE_BURST: f64 = 10.0;
/// The longest token asked about (real access tokens are well under it).
const MAX_TOKEN: usize = 4096;

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
    cache: Mutex<Cache>,
}

#[derive(Default)]
struct Cache {
    /// Active tokens: what they grant, until when, and when last used.
    grants: HashMap<Arc<str>, (Instant, Granted, Instant)>,
    /// Refused tokens: why, and until when.
    refusals: HashMap<Arc<str>, (Instant, String)>,
    /// Refusals the issuer may still give before new tokens wait.
    budget: f64,
    budget_at: Option<Instant>,
}

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
        if !is_token_syntax(token) {
            return Err(Rejected::Invalid(
                "the access token is not a bearer token (RFC 6750 syntax)".into(),
            ));
        }
        if let Some(answer) = self.cached(token) {
            return answer.map_err(Rejected::Invalid);
        }
        // The budget is taken before asking (so concurrent unknown tokens cannot all
        // pass) and given back when the issuer knows the token as active.
        if !self.take_budget() {
            return Err(Rejected::Unavailable(
                "too many unknown tokens were presented lately".into(),
            ));
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
        let judged = judge(&answer, token, issuer, resource, leeway.as_secs(), now);
        // Kept no longer than the token lives.
        let lives = numeric_date(answer.get("exp"))
            .ok()
            .flatten()
            .map(|exp| Duration::from_secs(exp.saturating_sub(now)));
        let keep = lives.map_or(self.cache_for, |lives| lives.min(self.cache_for));
        // Only tokens the issuer does not know as active spend the budget: those are
        // what anyone can make up; an active token refused here (another audience,
        // expired) came from the issuer.
        if answer.get("active") == Some(&Value::Bool(true)) {
            self.refund();
        }
        self.remember(token, keep, judged.clone());
        judged.map_err(Rejected::Invalid)
    }

    fn cached(&self, token: &str) -> Option<Result<Granted, String>> {
        let mut cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
        let now = Instant::now();
        if let Some((until, granted, used)) = cache.grants.get_mut(token)
            && now < *until
        {
            *used = now;
            return Some(Ok(granted.clone()));
        }
        let (until, why) = cache.refusals.get(token)?;
        (now < *until).then(|| Err(why.clone()))
    }

    /// Takes one unit of the budget for asking the issuer about a new token; `false`
    /// when none is left (tokens the issuer did not know spent it).
    fn take_budget(&self) -> bool {
        self.take_budget_at(Instant::now())
    }

    /// [`take_budget`](Self::take_budget) as of `now` (tests hold the clock still).
    fn take_budget_at(&self, now: Instant) -> bool {
        let mut cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
        cache.refill(now);
        if cache.budget < 1.0 {
            return false;
        }
        cache.budget -= 1.0;
        true
    }

    /// Gives back the unit an active token took.
    fn refund(&self) {
        let mut cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
        cache.budget = (cache.budget + 1.0).min(FAILURE_BURST);
    }

    fn remember(&self, token: &str, keep: Duration, answer: Result<Granted, String>) {
        let mut cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
        let now = Instant::now();
        match answer {
            Ok(granted) => {
                if keep.is_zero() {
                    return;
                }
                if cache.grants.len() >= MAX_GRANTS && !cache.grants.contains_key(token) {
                    cache.grants.retain(|_, (until, _, _)| *until > now);
                    if cache.grants.len() >= MAX_GRANTS
                        && let Some(oldest) = cache
                            .grants
                            .iter()
                            .min_by_key(|(_, (_, _, used))| *used)
                            .map(|(k, _)| k.clone())
                    {
                        cache.grants.remove(&oldest);
                    }
                }
                cache
                    .grants
                    .insert(token.into(), (now + keep, granted, now));
            }
            Err(why) => {
                if cache.refusals.len() >= MAX_REFUSALS && !cache.refusals.contains_key(token) {
                    cache.refusals.retain(|_, (until, _)| *until > now);
                    if cache.refusals.len() >= MAX_REFUSALS
                        && let Some(first) = cache
                            .refusals
                            .iter()
                            .min_by_key(|(_, (until, _))| *until)
                            .map(|(k, _)| k.clone())
                    {
                        cache.refusals.remove(&first);
                    }
                }
                let keep = keep.min(REFUSAL_TTL).max(Duration::from_secs(1));
                cache.refusals.insert(token.into(), (now + keep, why));
            }
        }
    }
}

impl Cache {
    /// The refusal budget, grown by the time since it was last looked at.
    fn refill(&mut self, now: Instant) {
        let elapsed = self
            .budget_at
            .map_or(f64::INFINITY, |at| now.duration_since(at).as_secs_f64());
        self.budget = (self.budget + elapsed * FAILURES_PER_SECOND).clamp(0.0, FAILURE_BURST);
        self.budget_at = Some(now);
    }
}

/// RFC 6750's `b64token`: what a bearer token can be at all (and not absurdly long).
fn is_token_syntax(token: &str) -> bool {
    let body = token.trim_end_matches('=');
    !body.is_empty()
        && token.len() <= MAX_TOKEN
        && body
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~+/".contains(&b))
}

/// A NumericDate claim (`exp`, `nbf`): seconds since the epoch, an integer or not
/// (RFC 7519 allows fractions). `Ok(None)` when absent; an error for any other type.
fn numeric_date(value: Option<&Value>) -> Result<Option<u64>, ()> {
    match value {
        None => Ok(None),
        Some(Value::Number(n)) => n
            .as_u64()
            .or_else(|| n.as_f64().filter(|f| *f >= 0.0).map(|f| f as u64))
            .map(Some)
            .ok_or(()),
        Some(_) => Err(()),
    }
}

/// The introspection answer's verdict at `now` (seconds since the epoch).
fn judge(
    answer: &Value,
    token: &str,
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
    let exp = numeric_date(answer.get("exp"))
        .map_err(|()| "the introspection answer's `exp` is not a NumericDate".to_owned())?;
    if let Some(exp) = exp
        && exp.saturating_add(leeway) <= now
    {
        return Err("the access token has expired".into());
    }
    let nbf = numeric_date(answer.get("nbf"))
        .map_err(|()| "the introspection answer's `nbf` is not a NumericDate".to_owned())?;
    if let Some(nbf) = nbf
        && nbf > now.saturating_add(leeway)
    {
        return Err("the access token is not valid yet".into());
    }
    let claims = answer.as_object().cloned().unwrap_or_default();
    let name = super::caller_name(&claims, token);
    let scopes = answer
        .get("scope")
        .and_then(Value::as_str)
        .unwrap_or("")
        .split_whitespace()
        .map(str::to_owned)
        .collect();
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
        judge(&answer, "opaque-token", ISS, RES, 60, 1_000_000)
    }

    #[test]
    fn an_active_token_for_this_server_is_granted_its_scopes() {
        let granted = verdict(json!({"active": true, "aud": [RES, "other"], "iss": ISS,
            "sub": "alice", "scope": "tools:read tools:write", "exp": 1_000_100}))
        .unwrap();
        assert_eq!(granted.name, "alice");
        assert_eq!(granted.scopes, ["tools:read", "tools:write"]);
        // Without a subject, the client is the caller, in a namespace of its own: a
        // client `alice` is not the user `alice`.
        let granted = verdict(json!({"active": true, "aud": RES, "client_id": "alice"})).unwrap();
        assert_eq!(granted.name, "client:alice");
        // A user whose name looks like another kind's is marked as a user.
        let granted = verdict(json!({"active": true, "aud": RES, "sub": "client:alice"})).unwrap();
        assert_eq!(granted.name, "user:client:alice");
        // Naming neither, the token is its own caller.
        let granted = verdict(json!({"active": true, "aud": RES})).unwrap();
        assert!(granted.name.starts_with("token:"), "{}", granted.name);
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
        // A NumericDate may have a fraction; a string is no NumericDate (F16).
        let past = verdict(json!({"active": true, "aud": RES, "exp": 999_000.5})).unwrap_err();
        assert!(past.contains("expired"), "{past}");
        for odd in [json!("1000100"), json!(null), json!(-5)] {
            let refused = verdict(json!({"active": true, "aud": RES, "exp": odd})).unwrap_err();
            assert!(refused.contains("NumericDate"), "{odd}: {refused}");
        }
    }

    #[test]
    fn only_bearer_token_syntax_is_asked_about() {
        for token in ["abc.DEF-_~+/123==", "a"] {
            assert!(is_token_syntax(token), "{token}");
        }
        for token in [
            "",
            "===",
            "has space",
            "semi;colon",
            "quote\"",
            "\u{e9}t\u{e9}",
        ] {
            assert!(!is_token_syntax(token), "{token}");
        }
        assert!(!is_token_syntax(&"a".repeat(MAX_TOKEN + 1)));
    }

    #[test]
    fn refusals_never_push_out_a_grant_and_spend_a_budget() {
        let introspection = Introspection::new(
            "https://id.example/introspect".into(),
            "c",
            "s",
            Duration::from_secs(60),
        );
        let granted = verdict(json!({"active": true, "aud": RES, "sub": "alice"})).unwrap();
        introspection.remember("good", Duration::from_secs(60), Ok(granted));
        // One instant for every take: what is tested is the budget's arithmetic, not
        // how fast a loaded machine runs the loop (refills follow the clock).
        let now = Instant::now();
        for i in 0..(MAX_REFUSALS * 2) {
            introspection.take_budget_at(now);
            introspection.remember(
                &format!("junk{i}"),
                Duration::from_secs(60),
                Err("no".into()),
            );
        }
        assert!(matches!(introspection.cached("good"), Some(Ok(_))));
        // Thousands of refusals spent the budget: new tokens wait, and the budget did
        // not go below nothing (it comes back within seconds).
        assert!(!introspection.take_budget_at(now));
        assert!(introspection.cache.lock().unwrap().budget >= 0.0);
    }
}
