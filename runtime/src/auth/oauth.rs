//! Access tokens from a token endpoint: OAuth 2 client credentials (RFC 6749 §4.4), the
//! client id and secret exchanged for the service's own token; and token exchange
//! (RFC 8693), an MCP caller's token exchanged for one the API accepts on that caller's
//! behalf. Each token is cached — shared by every call and clone of the executor, one
//! per caller for exchanged ones — fetched again shortly before it expires and once
//! when the API answers 401. Concurrent calls needing a token wait for one request to
//! the endpoint instead of each sending their own.
//!
//! The secret goes only to the token endpoint, in an `Authorization: Basic` header
//! (the method every server must support), and never over plain HTTP except to a
//! loopback address. Tokens, ids and secrets never appear in errors or `Debug`.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::Secret;
use crate::descriptor::Api;
use crate::error::Error;
use crate::transport::{CallPolicy, Transport};

/// What one client credentials exchange needs.
pub(crate) struct Client<'a> {
    pub api: &'a Api,
    pub scheme: &'a str,
    pub token_url: &'a str,
    pub id: Secret,
    pub secret: Secret,
    /// Space-separated scopes to ask for; none: the server's default for the client.
    pub scopes: Option<String>,
    pub grant: Grant<'a>,
}

/// What the client presents besides its own credentials.
pub(crate) enum Grant<'a> {
    /// Nothing: a token for the client itself.
    ClientCredentials,
    /// RFC 8693: a caller's access token (`subject`), exchanged for one naming the
    /// `audience` and `resource` asked for.
    TokenExchange {
        subject: &'a str,
        audience: Option<&'a str>,
        resource: Option<&'a str>,
    },
}

/// Exchanged tokens kept at most before unused ones are dropped (one per caller token).
const MAX_SLOTS: usize = 1024;

/// Longest token endpoint answer read.
const MAX_TOKEN_RESPONSE: usize = 64 << 10;
/// A token is fetched again this long before it expires (or a tenth of its
/// lifetime, when that is shorter), so that no call goes out with one about to lapse.
const REFRESH_MARGIN: Duration = Duration::from_secs(30);

/// The executor's tokens, one slot per API, scheme, client and scopes.
#[derive(Default)]
pub(crate) struct Tokens {
    slots: std::sync::Mutex<BTreeMap<String, Arc<Slot>>>,
}

impl fmt::Debug for Tokens {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Tokens(..)")
    }
}

#[derive(Default)]
struct Slot {
    /// Counts exchanges: a caller that waited while another one ran takes its result
    /// instead of sending its own.
    exchanges: AtomicU64,
    state: tokio::sync::Mutex<State>,
}

#[derive(Default)]
struct State {
    token: Option<Cached>,
    /// The last exchange's failure, given to the callers that waited for it.
    failure: Option<String>,
}

struct Cached {
    token: Arc<str>,
    /// `None`: the server gave no lifetime; kept until the API rejects it.
    refresh_at: Option<Instant>,
}

impl Cached {
    fn fresh(&self) -> bool {
        self.refresh_at.is_none_or(|at| Instant::now() < at)
    }
}

impl Tokens {
    /// A token for `client`: the cached one while fresh, else a new one from the
    /// endpoint. `rejected` is a token the API just answered 401 to: it is replaced
    /// unless another call already replaced it.
    pub(crate) async fn token(
        &self,
        client: &Client<'_>,
        base_url: &str,
        transport: &dyn Transport,
        policy: CallPolicy,
        rejected: Option<&str>,
    ) -> Result<Arc<str>, Error> {
        let slot = {
            let mut key = format!(
                "{}\0{}\0{}\0{}",
                client.api.name,
                client.scheme,
                client.id.0,
                client.scopes.as_deref().unwrap_or("")
            );
            if let Grant::TokenExchange { subject, .. } = client.grant {
                key.insert_str(0, "exchange\0");
                key.push('\0');
                key.push_str(subject);
            }
            let mut slots = self
                .slots
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if slots.len() >= MAX_SLOTS {
                // Callers come and go: drop the exchanged tokens no call is using (they
                // are fetched again if needed); the service's own stay.
                slots.retain(|key, slot| {
                    !key.starts_with("exchange\0") || Arc::strong_count(slot) > 1
                });
            }
            Arc::clone(slots.entry(key).or_default())
        };
        let seen = slot.exchanges.load(Ordering::Acquire);
        let mut state = slot.state.lock().await;
        let usable = |c: &&Cached| c.fresh() && rejected != Some(&*c.token);
        if let Some(cached) = state.token.as_ref().filter(usable) {
            return Ok(Arc::clone(&cached.token));
        }
        if slot.exchanges.load(Ordering::Acquire) != seen
            && let Some(message) = &state.failure
        {
            // The exchange this call waited for failed: same answer, no new request.
            return Err(token_error(client, message.clone()));
        }
        let outcome = exchange(client, base_url, transport, policy).await;
        slot.exchanges.fetch_add(1, Ordering::AcqRel);
        match outcome {
            Ok(cached) => {
                let token = Arc::clone(&cached.token);
                *state = State {
                    token: Some(cached),
                    failure: None,
                };
                Ok(token)
            }
            Err(message) => {
                state.token = None;
                state.failure = Some(message.clone());
                Err(token_error(client, message))
            }
        }
    }
}

fn token_error(client: &Client<'_>, message: String) -> Error {
    Error::Token {
        api: client.api.name.to_string(),
        message,
    }
}

/// One request to the token endpoint. The error is a message naming the endpoint
/// and what it said (its `error` and `error_description`, never the body whole).
async fn exchange(
    client: &Client<'_>,
    base_url: &str,
    transport: &dyn Transport,
    policy: CallPolicy,
) -> Result<Cached, String> {
    let url = resolve_url(base_url, client.token_url);
    check_scheme(&url)?;
    let mut body = match &client.grant {
        Grant::ClientCredentials => String::from("grant_type=client_credentials"),
        Grant::TokenExchange {
            subject,
            audience,
            resource,
        } => {
            let access = "urn:ietf:params:oauth:token-type:access_token";
            let mut body = format!(
                "grant_type={}&subject_token={}&subject_token_type={}&requested_token_type={}",
                form("urn:ietf:params:oauth:grant-type:token-exchange"),
                form(subject),
                form(access),
                form(access)
            );
            for (name, value) in [("audience", audience), ("resource", resource)] {
                if let Some(value) = value {
                    body.push_str(&format!("&{name}={}", form(value)));
                }
            }
            body
        }
    };
    if let Some(scopes) = &client.scopes {
        body.push_str("&scope=");
        body.push_str(&form(scopes));
    }
    let basic = crate::base64::encode(
        format!("{}:{}", form(&client.id.0), form(&client.secret.0)).as_bytes(),
    );
    let mut request = http::Request::post(&url)
        .header(
            http::header::CONTENT_TYPE,
            "application/x-www-form-urlencoded",
        )
        .header(http::header::ACCEPT, "application/json")
        .header(http::header::AUTHORIZATION, format!("Basic {basic}"))
        .body(body.into_bytes())
        .map_err(|_| format!("the token URL `{url}` is not a valid URL"))?;
    // Asking again for a token has no effect beyond the token: safe to retry.
    request.extensions_mut().insert(CallPolicy {
        idempotent: true,
        max_response_bytes: MAX_TOKEN_RESPONSE,
        ..policy
    });
    let obtained = Instant::now();
    let response = transport
        .send(request)
        .await
        .map_err(|e| format!("the token endpoint `{url}` could not be reached: {e}"))?;
    let status = response.status().as_u16();
    let json: Option<Value> = serde_json::from_slice(response.body()).ok();
    if !(200..300).contains(&status) {
        let said = json
            .as_ref()
            .and_then(|j| {
                let error = j.get("error")?.as_str()?;
                Some(match j.get("error_description").and_then(Value::as_str) {
                    Some(d) => format!("`{error}`: {}", clip(d)),
                    None => format!("`{error}`"),
                })
            })
            .unwrap_or_else(|| "no OAuth error in the body".to_owned());
        let hint = if said.contains("invalid_client") || status == 401 {
            "; check the client id and secret"
        } else if said.contains("invalid_scope") {
            "; check the scopes asked for"
        } else {
            ""
        };
        return Err(format!(
            "the token endpoint `{url}` answered HTTP {status} ({said}){hint}"
        ));
    }
    let Some(Value::Object(answer)) = json else {
        return Err(format!(
            "the token endpoint `{url}` answered HTTP {status} without a JSON object"
        ));
    };
    let token = answer
        .get("access_token")
        .and_then(Value::as_str)
        .filter(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_graphic() || b == b' '))
        .ok_or_else(|| {
            format!("the token endpoint `{url}` answered without a usable `access_token`")
        })?;
    if let Some(kind) = answer.get("token_type").and_then(Value::as_str)
        && !kind.eq_ignore_ascii_case("bearer")
    {
        return Err(format!(
            "the token endpoint `{url}` gave a `{}` token; only bearer tokens are supported",
            clip(kind)
        ));
    }
    // Some servers send the lifetime as a string.
    let lifetime = answer.get("expires_in").and_then(|v| {
        v.as_u64()
            .or_else(|| v.as_f64().map(|f| f.max(0.0) as u64))
            .or_else(|| v.as_str()?.trim().parse().ok())
    });
    Ok(Cached {
        token: Arc::from(token),
        refresh_at: lifetime.map(|secs| {
            let lifetime = Duration::from_secs(secs);
            obtained + lifetime - REFRESH_MARGIN.min(lifetime / 10)
        }),
    })
}

/// `token_url` against the API's base URL (RFC 3986 §5.2, for the forms token URLs
/// take): absolute as is, `//host/..` with the base's scheme, `/path` on the base's
/// origin, anything else relative to the base's path.
pub(crate) fn resolve_url(base_url: &str, token_url: &str) -> String {
    if token_url.contains("://") {
        return token_url.to_owned();
    }
    let (scheme, rest) = base_url.split_once("://").unwrap_or(("https", base_url));
    if let Some(authority_path) = token_url.strip_prefix("//") {
        return format!("{scheme}://{authority_path}");
    }
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    if token_url.starts_with('/') {
        return format!("{scheme}://{authority}{token_url}");
    }
    let directory = &path[..path.rfind('/').map_or(0, |i| i + 1)];
    let directory = if directory.is_empty() { "/" } else { directory };
    format!("{scheme}://{authority}{directory}{token_url}")
}

/// Client secrets travel over TLS, except to this machine (tests, sidecars).
fn check_scheme(url: &str) -> Result<(), String> {
    if secure_url(url) {
        return Ok(());
    }
    if url.to_ascii_lowercase().starts_with("http://") {
        return Err(format!(
            "refusing to send client credentials to `{url}` over plain HTTP; the token endpoint must use https"
        ));
    }
    Err(format!(
        "the token URL `{url}` is not an http(s) URL; give an absolute https URL"
    ))
}

/// Whether `url` is https, or plain http to this machine (`localhost`, a loopback
/// address): where secrets and keys may travel.
pub(crate) fn secure_url(url: &str) -> bool {
    let lower = url.to_ascii_lowercase();
    if lower.starts_with("https://") {
        return true;
    }
    let Some(rest) = lower.strip_prefix("http://") else {
        return false;
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    // After any user part; up to the port.
    let host_port = authority.rsplit('@').next().unwrap_or(authority);
    let host = if host_port.starts_with('[') {
        host_port.split_inclusive(']').next().unwrap_or(host_port)
    } else {
        host_port.split(':').next().unwrap_or(host_port)
    };
    let loopback_ip = host
        .trim_start_matches('[')
        .trim_end_matches(']')
        .parse::<std::net::IpAddr>()
        .is_ok_and(|ip| ip.is_loopback());
    host == "localhost" || loopback_ip
}

/// Form encoding (RFC 6749 §2.3.1 also asks it of the id and secret before they are
/// joined for Basic): everything but unreserved characters percent-encoded.
fn form(text: &str) -> String {
    crate::percent::encode(text)
}

/// Server text quoted in an error, kept short.
fn clip(text: &str) -> String {
    let text: String = text.chars().filter(|c| !c.is_control()).take(200).collect();
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_urls_resolve_against_the_base_url() {
        let base = "https://api.example.com/pub/v1";
        assert_eq!(
            resolve_url(base, "https://auth.example.com/token"),
            "https://auth.example.com/token"
        );
        assert_eq!(
            resolve_url(base, "/oauth/token"),
            "https://api.example.com/oauth/token"
        );
        assert_eq!(
            resolve_url(base, "//auth.example.com/t"),
            "https://auth.example.com/t"
        );
        assert_eq!(
            resolve_url(base, "token"),
            "https://api.example.com/pub/token"
        );
        assert_eq!(
            resolve_url("http://127.0.0.1:8080", "oauth/token"),
            "http://127.0.0.1:8080/oauth/token"
        );
    }

    #[test]
    fn secrets_need_tls_except_on_loopback() {
        assert!(check_scheme("https://auth.example.com/token").is_ok());
        assert!(check_scheme("http://127.0.0.1:9000/token").is_ok());
        assert!(check_scheme("http://localhost/token").is_ok());
        assert!(check_scheme("http://[::1]:80/token").is_ok());
        let plain = check_scheme("http://auth.example.com/token").unwrap_err();
        assert!(plain.contains("plain HTTP"), "{plain}");
        // A loopback-looking user part does not make a remote host local.
        assert!(check_scheme("http://127.0.0.1@evil.example/token").is_err());
        assert!(check_scheme("http://localhost.evil.example/token").is_err());
        assert!(check_scheme("http://127.evil.example/token").is_err());
        assert!(check_scheme("ftp://x/token").is_err());
    }

    #[test]
    fn form_encoding_keeps_unreserved_characters() {
        assert_eq!(form("a b+c/d-e.f_g~h:"), "a%20b%2Bc%2Fd-e.f_g~h%3A");
    }
}
