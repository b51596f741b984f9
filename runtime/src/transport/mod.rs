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
pub use policy::{Attempts, CallPolicy};
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

/// Sends one HTTP request and returns the whole response.
pub trait Transport: Send + Sync + 'static {
    fn send(&self, request: http::Request<Vec<u8>>) -> ResponseFuture<'_>;
}

/// A shared transport is a transport (so layers can wrap the executor's).
impl Transport for std::sync::Arc<dyn Transport> {
    fn send(&self, request: http::Request<Vec<u8>>) -> ResponseFuture<'_> {
        (**self).send(request)
    }
}
