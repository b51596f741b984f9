use super::{ResponseFuture, Transport};
use crate::error::TransportError;

/// The default transport: reqwest over rustls with the `ring` provider (no OpenSSL).
#[derive(Debug, Clone)]
pub struct ReqwestTransport {
    client: reqwest::Client,
}

impl ReqwestTransport {
    /// A transport with reqwest's defaults.
    ///
    /// # Errors
    /// The TLS backend could not be initialised.
    pub fn new() -> Result<Self, TransportError> {
        // reqwest is built without a bundled crypto provider, so install ring as the
        // process default. If the service already installed one, that one stays.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let client = reqwest::Client::builder()
            .build()
            .map_err(|e| TransportError::with_source("cannot build the HTTP client", e))?;
        Ok(ReqwestTransport { client })
    }

    /// Wraps a client the service configured itself (timeouts, proxies, ...).
    pub fn from_client(client: reqwest::Client) -> Self {
        ReqwestTransport { client }
    }
}

impl Transport for ReqwestTransport {
    fn send(&self, request: http::Request<Vec<u8>>) -> ResponseFuture<'_> {
        Box::pin(async move {
            // Where the request went, for the error: no query (it may hold an API key)
            // and no user info.
            let target = {
                let uri = request.uri();
                format!(
                    "{}://{}{}",
                    uri.scheme_str().unwrap_or("http"),
                    uri.authority()
                        .map_or("", |a| a.as_str().rsplit('@').next().unwrap_or("")),
                    uri.path()
                )
            };
            let method = request.method().clone();
            let request = reqwest::Request::try_from(request)
                .map_err(|e| TransportError::with_source("invalid request", e))?;
            let response = self.client.execute(request).await.map_err(|e| {
                TransportError::with_source(format!("{method} {target} failed"), e.without_url())
            })?;
            let mut builder = http::Response::builder().status(response.status());
            for (name, value) in response.headers() {
                builder = builder.header(name, value);
            }
            let body = response
                .bytes()
                .await
                .map_err(|e| TransportError::with_source("reading the response failed", e))?;
            builder
                .body(body.to_vec())
                .map_err(|e| TransportError::with_source("invalid response", e))
        })
    }
}
