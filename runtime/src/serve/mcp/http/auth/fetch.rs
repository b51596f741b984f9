//! The requests a resource server makes to its authorization server — the issuer's
//! metadata and keys (GET), token introspection (POST) — over https (or to this
//! machine), bounded in time and size, read as JSON. Errors name the URL and what went
//! wrong, never a credential.

use serde_json::Value;
use std::time::Duration;

use crate::transport::{CallPolicy, Transport};

/// Bytes of an answer we read (real metadata, key sets and introspection answers are a
/// few KiB).
const MAX_DOCUMENT: usize = 256 * 1024;
/// How long one request may take.
const FETCH_TIMEOUT: Duration = Duration::from_secs(10);

/// GETs `url` and reads it as JSON.
pub(super) async fn get_json(url: &str, transport: &dyn Transport) -> Result<Value, String> {
    let request = http::Request::get(url)
        .header(http::header::ACCEPT, "application/json")
        .body(Vec::new());
    send(url, request, &http::Method::GET, transport).await
}

/// POSTs the form `body` to `url` with this server's `Basic` client credentials and
/// reads the answer as JSON.
pub(super) async fn post_form(
    url: &str,
    basic: &str,
    body: String,
    transport: &dyn Transport,
) -> Result<Value, String> {
    let request = http::Request::post(url)
        .header(
            http::header::CONTENT_TYPE,
            "application/x-www-form-urlencoded",
        )
        .header(http::header::ACCEPT, "application/json")
        .header(http::header::AUTHORIZATION, format!("Basic {basic}"))
        .body(body.into_bytes());
    send(url, request, &http::Method::POST, transport).await
}

async fn send(
    url: &str,
    request: http::Result<http::Request<Vec<u8>>>,
    method: &http::Method,
    transport: &dyn Transport,
) -> Result<Value, String> {
    if !crate::auth::oauth::secure_url(url) {
        return Err(format!(
            "`{url}` is not https: the authorization server must be reached over https (or on this machine)"
        ));
    }
    let mut request = request.map_err(|_| format!("`{url}` is not a valid URL"))?;
    request.extensions_mut().insert(CallPolicy {
        timeout: FETCH_TIMEOUT,
        max_response_bytes: MAX_DOCUMENT,
        ..CallPolicy::for_method(method)
    });
    let response = transport
        .send(request)
        .await
        .map_err(|e| format!("`{url}` could not be reached: {e}"))?;
    if !response.status().is_success() {
        return Err(format!("`{url}` answered {}", response.status()));
    }
    serde_json::from_slice(response.body()).map_err(|e| format!("`{url}` is not JSON: {e}"))
}
