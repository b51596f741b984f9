//! The in-process responder: a [`Transport`] that records each request and answers
//! with a canned response, without a socket.

use std::sync::{Arc, Mutex};

use super::Canned;
use crate::transport::{ResponseFuture, Transport};

/// Records requests and answers each with the same canned response.
#[derive(Debug, Clone)]
pub struct Responder {
    canned: Arc<Canned>,
    requests: Arc<Mutex<Vec<http::Request<Vec<u8>>>>>,
}

impl Responder {
    pub fn new(canned: Canned) -> Self {
        Responder {
            canned: Arc::new(canned),
            requests: Arc::default(),
        }
    }

    /// The requests received, in order.
    pub fn requests(&self) -> Vec<http::Request<Vec<u8>>> {
        let requests = self.requests.lock().unwrap_or_else(|p| p.into_inner());
        requests.iter().map(copy).collect()
    }

    fn response(&self) -> http::Response<Vec<u8>> {
        let canned = &*self.canned;
        let body = match (&canned.body, canned.content_type.contains("json")) {
            (serde_json::Value::String(text), false) => text.clone().into_bytes(),
            (value, _) => value.to_string().into_bytes(),
        };
        let mut response = http::Response::new(body);
        *response.status_mut() =
            http::StatusCode::from_u16(canned.status).unwrap_or(http::StatusCode::OK);
        let headers = response.headers_mut();
        let pairs = std::iter::once(("content-type", canned.content_type.as_str()))
            .chain(canned.headers.iter().map(|(n, v)| (n.as_str(), v.as_str())));
        for (name, value) in pairs {
            if let (Ok(name), Ok(value)) = (
                http::HeaderName::from_bytes(name.as_bytes()),
                http::HeaderValue::from_str(value),
            ) {
                // Past the header map's capacity (32,768) a case cannot be answered as
                // written; it then fails on what is missing instead of panicking.
                if headers.try_append(name, value).is_err() {
                    break;
                }
            }
        }
        response
    }
}

/// `http::Request` is not `Clone` (its extensions are not): the parts a case compares.
fn copy(request: &http::Request<Vec<u8>>) -> http::Request<Vec<u8>> {
    let mut out = http::Request::new(request.body().clone());
    *out.method_mut() = request.method().clone();
    *out.uri_mut() = request.uri().clone();
    *out.headers_mut() = request.headers().clone();
    out
}

impl Transport for Responder {
    fn send(&self, request: http::Request<Vec<u8>>) -> ResponseFuture<'_> {
        let response = self.response();
        self.requests
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(request);
        Box::pin(async move { Ok(response) })
    }
}
