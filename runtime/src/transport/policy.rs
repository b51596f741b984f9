//! What the executor tells the transport about one call, as an extension on the
//! `http::Request`: how long it may take, whether it may be sent again, how large an
//! answer may be. Transports (and layers such as [`Retry`](super::Retry)) read it with
//! [`CallPolicy::of`] (a request without one has its method's default); a transport
//! that ignores it still works, without those guarantees.

use std::time::Duration;

/// How many times a request was sent (an extension a retrying transport puts on the
/// response when it sent it more than once; none means once).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Attempts(pub u32);

/// On a response a retrying transport would have sent again (429, 503...) had its
/// body not been a one-shot stream: the call's error says so.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotRetried;

/// A count of the response bytes received so far (and the `Content-Length`, when the
/// server sent one), as an extension on a request whose caller watches a long call
/// (an MCP client that asked for progress). Transports that read bodies in chunks add
/// to it as they go; others leave it at zero.
#[derive(Debug)]
pub struct Received {
    bytes: std::sync::atomic::AtomicU64,
    /// `u64::MAX`: no length known.
    total: std::sync::atomic::AtomicU64,
}

/// Nothing received, no length known (a derived default would say "0 bytes expected").
impl Default for Received {
    fn default() -> Self {
        Received::new()
    }
}

impl Received {
    pub fn new() -> Self {
        Received {
            bytes: std::sync::atomic::AtomicU64::new(0),
            total: std::sync::atomic::AtomicU64::new(u64::MAX),
        }
    }

    /// `n` more bytes arrived.
    pub fn add(&self, n: usize) {
        self.bytes
            .fetch_add(n as u64, std::sync::atomic::Ordering::Relaxed);
    }

    /// The body's announced length.
    pub fn expect(&self, total: u64) {
        self.total
            .store(total, std::sync::atomic::Ordering::Relaxed);
    }

    /// Bytes received so far, and the announced length.
    pub fn get(&self) -> (u64, Option<u64>) {
        let total = self.total.load(std::sync::atomic::Ordering::Relaxed);
        (
            self.bytes.load(std::sync::atomic::Ordering::Relaxed),
            (total != u64::MAX).then_some(total),
        )
    }
}

/// Limits and permissions for one call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallPolicy {
    /// The whole call, every attempt and wait included.
    pub timeout: Duration,
    /// Establishing one connection.
    pub connect_timeout: Duration,
    /// Attempts in all (1: no retry). Only idempotent calls are sent more than once.
    pub max_attempts: u32,
    /// The operation may be repeated without repeating its effect (GET, HEAD, OPTIONS,
    /// PUT, DELETE unless declared `non_idempotent`; others only when declared so).
    pub idempotent: bool,
    /// Largest response body accepted, in bytes; a longer one fails the call without
    /// being read further.
    pub max_response_bytes: usize,
    /// Longest `Retry-After` honoured; a server asking for more is not retried.
    pub max_retry_after: Duration,
}

impl Default for CallPolicy {
    /// A minute in all, 10 s to connect, 3 attempts, 10 MB, `Retry-After` up to 30 s;
    /// not idempotent (the executor says when a call is; see also
    /// [`CallPolicy::for_method`]).
    fn default() -> Self {
        CallPolicy {
            timeout: Duration::from_secs(60),
            connect_timeout: Duration::from_secs(10),
            max_attempts: 3,
            idempotent: false,
            max_response_bytes: 10 << 20,
            max_retry_after: Duration::from_secs(30),
        }
    }
}

impl CallPolicy {
    /// The policy a request carries, or else [`CallPolicy::for_method`] of its method.
    pub fn of<B>(request: &http::Request<B>) -> CallPolicy {
        request
            .extensions()
            .get::<CallPolicy>()
            .copied()
            .unwrap_or_else(|| CallPolicy::for_method(request.method()))
    }

    /// The default limits, idempotent when `method` is by definition (RFC 9110: GET,
    /// HEAD, OPTIONS, TRACE, PUT, DELETE). The executor leaves this policy off the
    /// requests it fits — most calls — which saves the extension's allocations on
    /// every call and every retry's copy.
    pub fn for_method(method: &http::Method) -> CallPolicy {
        CallPolicy {
            idempotent: method.is_idempotent(),
            ..CallPolicy::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_without_a_policy_has_its_methods_default() {
        let get = http::Request::get("http://api.test/").body(()).unwrap();
        let post = http::Request::post("http://api.test/").body(()).unwrap();
        let delete = http::Request::delete("http://api.test/").body(()).unwrap();
        assert!(CallPolicy::of(&get).idempotent);
        assert!(CallPolicy::of(&delete).idempotent);
        assert_eq!(CallPolicy::of(&post), CallPolicy::default());
        // A policy the request carries wins, whatever its method.
        let mut declared = http::Request::post("http://api.test/").body(()).unwrap();
        let policy = CallPolicy {
            idempotent: true,
            timeout: Duration::from_secs(5),
            ..CallPolicy::default()
        };
        declared.extensions_mut().insert(policy);
        assert_eq!(CallPolicy::of(&declared), policy);
    }
}
