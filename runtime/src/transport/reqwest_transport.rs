use std::time::Duration;

use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body::{Body as _, Frame, SizeHint};

use super::{CallPolicy, ResponseFuture, Transport};
use crate::error::{TransportError, TransportKind};
use crate::stream::Upload;

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

/// Installs rustls's *ring* provider as the process default unless the service already
/// installed one (reqwest is built without a bundled provider).
///
/// rustls 0.23.48 deprecates `crypto::ring::default_provider` (ring has no post-quantum
/// key exchange) and offers no ring provider under another name: its replacement is
/// aws-lc-rs, a C build this crate avoids. rustls's own feature-based choice (used by
/// `ClientConfig::builder()`) calls the same function and panics when a service's tree
/// also enables aws-lc-rs, so the call stays here, allowed rather than expected: the
/// older releases a lock file may pin do not deprecate it. A service that wants
/// post-quantum key exchange installs aws-lc-rs's provider first; that one stays.
#[allow(deprecated)]
fn install_ring_provider() {
    if rustls::crypto::CryptoProvider::get_default().is_none() {
        let _ = rustls::crypto::ring::default_provider().install_default();
    }
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
        install_ring_provider();
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
    fn open(&self, request: http::Request<Upload>) -> super::OpenFuture<'_> {
        let policy = CallPolicy::of(&request);
        let uri = request.uri().clone();
        let method = request.method().clone();
        let request = request.map(|upload| {
            let len = upload.len();
            reqwest::Body::wrap(UploadBody {
                chunks: upload.into_chunks(),
                len,
            })
        });
        let converted = reqwest::Request::try_from(request);
        Box::pin(async move {
            let target = format!(
                "{}://{}{}",
                uri.scheme_str().unwrap_or("http"),
                uri.authority()
                    .map_or("", |a| a.as_str().rsplit('@').next().unwrap_or("")),
                uri.path()
            );
            let request =
                converted.map_err(|e| TransportError::with_source("invalid request", e))?;
            // The call's timeout bounds the wait for the response head only: the body
            // may take as long as it keeps arriving (the stream's idle timeout).
            let head = tokio::time::timeout(
                policy.timeout.max(Duration::from_millis(1)),
                self.client.execute(request),
            )
            .await
            .map_err(|_| {
                TransportError::new(format!(
                    "{method} {target}: no response within {} ms",
                    policy.timeout.as_millis()
                ))
                .kind_of(TransportKind::Timeout)
            })?
            .map_err(|e| {
                let kind = classify(&e);
                TransportError::with_source(format!("{method} {target} failed"), e.without_url())
                    .kind_of(kind)
            })?;
            let response: http::Response<reqwest::Body> = head.into();
            Ok(response.map(|body| -> crate::stream::Chunks {
                Box::pin(BodyChunks {
                    body,
                    what: format!("{method} {target}"),
                })
            }))
        })
    }

    fn send(&self, request: http::Request<Vec<u8>>) -> ResponseFuture<'_> {
        // Converted before the future is built, so that the future holds one request,
        // not both forms of it: it stays under 1 KB, which the allocator serves from
        // its per-thread cache on every call. (It is sent at the first poll, as
        // futures are: reqwest starts the request's timer then.)
        let policy = CallPolicy::of(&request);
        let received = request
            .extensions()
            .get::<std::sync::Arc<super::Received>>()
            .cloned();
        // Where the request went, written only for an error: no query (it may hold an
        // API key) and no user info.
        let uri = request.uri().clone();
        let method = request.method().clone();
        let sent = request.body().len();
        let converted = reqwest::Request::try_from(request);
        Box::pin(async move {
            // A code-mode script's call holds its request body while it waits for the
            // answer: charged to the script's memory with the answer (`meter`).
            crate::meter::charge(sent).map_err(|over| {
                TransportError::new(format!("{method} {}: {over}", uri.path()))
                    .kind_of(TransportKind::ScriptMemory)
            })?;
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
            if let Some(length) = response.content_length() {
                if length > limit as u64 {
                    return Err(too_large(format!("Content-Length {length}")));
                }
                if let Some(received) = &received {
                    received.expect(length);
                }
            }
            let mut body = Vec::new();
            while let Some(chunk) = response.chunk().await.map_err(failed)? {
                if body.len() + chunk.len() > limit {
                    return Err(too_large(format!("more than {limit} bytes sent")));
                }
                // A code-mode script's calls read their answers within its memory limit.
                crate::meter::charge(chunk.len()).map_err(|over| {
                    TransportError::new(format!("{method} {}: {over}", target()))
                        .kind_of(TransportKind::ScriptMemory)
                })?;
                body.extend_from_slice(&chunk);
                if let Some(received) = &received {
                    received.add(chunk.len());
                }
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

/// An upload as reqwest's body: its chunks as data frames, its length (when known) as
/// the exact size hint, which becomes `Content-Length` (else the body is chunked).
struct UploadBody {
    chunks: crate::stream::Chunks,
    len: Option<u64>,
}

impl http_body::Body for UploadBody {
    type Data = Bytes;
    type Error = TransportError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, TransportError>>> {
        self.chunks
            .as_mut()
            .poll_next(cx)
            .map(|chunk| chunk.map(|r| r.map(Frame::data)))
    }

    fn size_hint(&self) -> SizeHint {
        self.len
            .map_or_else(SizeHint::default, SizeHint::with_exact)
    }
}

/// A response body's data frames as chunks (trailers skipped).
struct BodyChunks {
    body: reqwest::Body,
    what: String,
}

impl futures_core::Stream for BodyChunks {
    type Item = Result<Bytes, TransportError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        loop {
            let frame = match Pin::new(&mut self.body).poll_frame(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(None) => return Poll::Ready(None),
                Poll::Ready(Some(frame)) => frame,
            };
            match frame {
                Ok(frame) => match frame.into_data() {
                    Ok(data) if data.is_empty() => continue,
                    Ok(data) => return Poll::Ready(Some(Ok(data))),
                    Err(_) => continue,
                },
                Err(e) => {
                    let kind = match classify(&e) {
                        TransportKind::Other => TransportKind::Reset,
                        kind => kind,
                    };
                    return Poll::Ready(Some(Err(TransportError::with_source(
                        format!("{}: reading the body failed", self.what),
                        e.without_url(),
                    )
                    .kind_of(kind))));
                }
            }
        }
    }
}
