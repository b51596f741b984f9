use std::time::Duration;

use super::{CallPolicy, ResponseFuture, Transport};
use crate::error::{TransportError, TransportKind};

/// Redirects followed within one origin before giving up.
const MAX_REDIRECTS: usize = 10;

/// The default transport: reqwest over rustls with the `ring` provider (no OpenSSL).
///
/// - Redirects are followed only within the request's origin (scheme, host and port):
///   a redirect elsewhere comes back as the 3xx response, so no credential — header,
///   cookie or query key — ever reaches another origin. 307/308 keep method and body
///   (same origin only); `Referer` is never sent (it would carry query-string keys).
/// - Each call's [`CallPolicy`] sets its timeout; connecting is bounded too.
/// - The body is read in chunks and the call fails as soon as it passes
///   `max_response_bytes` (a `Content-Length` over it fails before reading).
///   Responses are not decompressed (no `Accept-Encoding` is sent), so a compressed
///   answer cannot expand past the limit.
#[derive(Debug, Clone)]
pub struct ReqwestTransport {
    client: reqwest::Client,
}

impl ReqwestTransport {
    /// A transport with the defaults above.
    ///
    /// # Errors
    /// The TLS backend could not be initialised.
    pub fn new() -> Result<Self, TransportError> {
        Self::with_connect_timeout(CallPolicy::default().connect_timeout)
    }

    /// [`ReqwestTransport::new`], connecting within `connect_timeout`.
    ///
    /// # Errors
    /// The TLS backend could not be initialised.
    pub fn with_connect_timeout(connect_timeout: Duration) -> Result<Self, TransportError> {
        // reqwest is built without a bundled crypto provider, so install ring as the
        // process default. If the service already installed one, that one stays.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::custom(same_origin))
            .referer(false)
            .connect_timeout(connect_timeout)
            .build()
            .map_err(|e| TransportError::with_source("cannot build the HTTP client", e))?;
        Ok(ReqwestTransport { client })
    }

    /// Wraps a client the service configured itself (proxies, its own redirect
    /// policy...). Call policies still set each request's timeout and body limit.
    pub fn from_client(client: reqwest::Client) -> Self {
        ReqwestTransport { client }
    }
}

fn same_origin(attempt: reqwest::redirect::Attempt<'_>) -> reqwest::redirect::Action {
    let origin = |u: &reqwest::Url| {
        (
            u.scheme().to_owned(),
            u.host_str().map(str::to_owned),
            u.port_or_known_default(),
        )
    };
    let first = attempt.previous().first().map(origin);
    if attempt.previous().len() > MAX_REDIRECTS || first != Some(origin(attempt.url())) {
        attempt.stop()
    } else {
        attempt.follow()
    }
}

fn classify(e: &reqwest::Error) -> TransportKind {
    if e.is_timeout() {
        return TransportKind::Timeout;
    }
    let chain = {
        let mut text = String::new();
        let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(e);
        while let Some(c) = cause {
            text.push_str(&c.to_string().to_ascii_lowercase());
            text.push(' ');
            cause = c.source();
        }
        text
    };
    if chain.contains("dns") || chain.contains("failed to lookup") {
        TransportKind::Dns
    } else if chain.contains("certificate") || chain.contains("tls") || chain.contains("handshake")
    {
        TransportKind::Tls
    } else if e.is_connect() {
        TransportKind::Connect
    } else if e.is_body() || e.is_decode() || chain.contains("reset") || chain.contains("closed") {
        TransportKind::Reset
    } else if e.is_redirect() {
        TransportKind::Redirect
    } else {
        TransportKind::Other
    }
}

impl Transport for ReqwestTransport {
    fn send(&self, request: http::Request<Vec<u8>>) -> ResponseFuture<'_> {
        // Converted before the future is built, so that the future holds one request,
        // not both forms of it: it stays under 1 KB, which the allocator serves from
        // its per-thread cache on every call. (It is sent at the first poll, as
        // futures are: reqwest starts the request's timer then.)
        let policy = CallPolicy::of(&request);
        // Where the request went, written only for an error: no query (it may hold an
        // API key) and no user info.
        let uri = request.uri().clone();
        let method = request.method().clone();
        let converted = reqwest::Request::try_from(request);
        Box::pin(async move {
            let target = || {
                format!(
                    "{}://{}{}",
                    uri.scheme_str().unwrap_or("http"),
                    uri.authority()
                        .map_or("", |a| a.as_str().rsplit('@').next().unwrap_or("")),
                    uri.path()
                )
            };
            let failed = |e: reqwest::Error| {
                let kind = classify(&e);
                TransportError::with_source(
                    format!("{method} {} failed", target()),
                    e.without_url(),
                )
                .kind_of(kind)
            };
            let mut request =
                converted.map_err(|e| TransportError::with_source("invalid request", e))?;
            *request.timeout_mut() = Some(policy.timeout.max(Duration::from_millis(1)));
            let mut response = self.client.execute(request).await.map_err(failed)?;
            let limit = policy.max_response_bytes;
            let too_large = |read: String| {
                TransportError::new(format!(
                    "{method} {}: the response is larger than the limit of {limit} bytes ({read})",
                    target()
                ))
                .kind_of(TransportKind::BodyTooLarge)
            };
            if let Some(length) = response.content_length()
                && length > limit as u64
            {
                return Err(too_large(format!("Content-Length {length}")));
            }
            let mut body = Vec::new();
            while let Some(chunk) = response.chunk().await.map_err(failed)? {
                if body.len() + chunk.len() > limit {
                    return Err(too_large(format!("more than {limit} bytes sent")));
                }
                body.extend_from_slice(&chunk);
            }
            // Headers taken whole (copying header by header re-validates every name and
            // value), after the body: they need no room in the future while it is read.
            let mut out = http::Response::new(body);
            *out.status_mut() = response.status();
            *out.headers_mut() = std::mem::take(response.headers_mut());
            Ok(out)
        })
    }
}
