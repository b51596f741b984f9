//! The pluggable HTTP layer. The executor only sees this trait, on `http` crate types,
//! so a service can bring its own client (or a test double) without touching the rest.

use std::future::Future;
use std::pin::Pin;

use crate::error::TransportError;

#[cfg(feature = "mcp-client")]
pub(crate) mod mcp_client;
#[cfg(feature = "mcp-client")]
pub(crate) mod mcp_http;
mod policy;
pub mod rate_limit;
#[cfg(feature = "reqwest")]
mod reqwest_transport;
#[cfg(feature = "reqwest")]
mod retry;
#[cfg(feature = "mcp-client")]
pub use mcp_client::McpStdio;
#[cfg(feature = "mcp-client")]
pub use mcp_http::McpHttp;
pub use policy::{Attempts, CallPolicy, NotRetried, Received};
#[cfg(feature = "reqwest")]
pub use rate_limit::RateLimit;
pub use rate_limit::{CallTarget, Limit};
#[cfg(feature = "reqwest")]
pub use reqwest_transport::ReqwestTransport;
#[cfg(feature = "reqwest")]
pub use retry::Retry;

/// The future a [`Transport`] returns.
pub type ResponseFuture<'a> =
    Pin<Box<dyn Future<Output = Result<http::Response<Vec<u8>>, TransportError>> + Send + 'a>>;

/// The future [`Transport::open`] returns: the response as soon as its head arrived,
/// its body still to be read.
pub type OpenFuture<'a> = Pin<
    Box<
        dyn Future<Output = Result<http::Response<crate::stream::Chunks>, TransportError>>
            + Send
            + 'a,
    >,
>;

/// Sends one HTTP request and returns the whole response.
pub trait Transport: Send + Sync + 'static {
    fn send(&self, request: http::Request<Vec<u8>>) -> ResponseFuture<'_>;

    /// Sends `request`, its body read from an [`Upload`](crate::stream::Upload) as it
    /// goes out, and returns once the response head arrived, the body as chunks still
    /// to be read (streamed downloads, server-sent events, uploads from files).
    ///
    /// The default sends through [`send`](Transport::send): the upload is read into
    /// memory first and the whole answer (up to the request's
    /// [`CallPolicy::max_response_bytes`]) comes back as one chunk. Transports that can
    /// stream (the default [`ReqwestTransport`]) override it.
    fn open(&self, request: http::Request<crate::stream::Upload>) -> OpenFuture<'_> {
        Box::pin(async move {
            let (parts, upload) = request.into_parts();
            let body = upload.into_bytes().await?;
            let response = self
                .send(http::Request::from_parts(parts, body.into()))
                .await?;
            Ok(response.map(|body| crate::stream::body::once(body.into())))
        })
    }
}

/// A shared transport is a transport (so layers can wrap the executor's).
impl Transport for std::sync::Arc<dyn Transport> {
    fn send(&self, request: http::Request<Vec<u8>>) -> ResponseFuture<'_> {
        (**self).send(request)
    }

    fn open(&self, request: http::Request<crate::stream::Upload>) -> OpenFuture<'_> {
        (**self).open(request)
    }
}
