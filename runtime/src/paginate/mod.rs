//! Pagination: a tool whose source declares how it pages (an adapter's `pagination`,
//! or OpenAPI hints codegen recognised: `x-pagination`, `x-ms-pageable`, a declared
//! `Link` header, cursor/offset/page parameters with their response fields) can be
//! read page by page — a [`Pages`] stream of typed pages, or of items with
//! [`Pages::items`] — or all at once up to a limit
//! ([`Executor::call_all`](crate::Executor::call_all), what a model asks for).
//!
//! Every walk is bounded by [`PageLimits`] (10 pages and 1,000 items unless set), stops
//! at a repeated cursor, and follows next-page URLs only on the API's own origin, so a
//! server can neither loop a caller forever nor send it (and its credentials)
//! elsewhere.

mod pages;
mod plan;

use serde_json::Value;

pub(crate) use pages::Walk;
pub use pages::{Items, Page, Pages};
pub use plan::PageStyle;
pub(crate) use plan::{Next, Plan};

/// Bounds on one walk through the pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageLimits {
    /// Pages fetched at most (the first included).
    pub max_pages: usize,
    /// Items collected at most; the page that passes it is cut.
    pub max_items: usize,
    /// Approximate bytes of the items collected (their size in memory as JSON values:
    /// text plus a few words per value), at most; the page that passes it is cut. What
    /// bounds a walk's memory when its items are large (code mode sets it to the
    /// script's memory limit).
    pub max_bytes: usize,
}

impl Default for PageLimits {
    /// 10 pages, 1,000 items, no byte bound.
    fn default() -> Self {
        PageLimits {
            max_pages: 10,
            max_items: 1000,
            max_bytes: usize::MAX,
        }
    }
}

impl PageLimits {
    /// Up to `pages` pages (and the default item limit).
    pub fn pages(pages: usize) -> PageLimits {
        PageLimits {
            max_pages: pages.max(1),
            ..PageLimits::default()
        }
    }

    /// Up to `items` items.
    pub fn items(mut self, items: usize) -> PageLimits {
        self.max_items = items;
        self
    }

    /// Up to about `bytes` of items (see [`PageLimits::max_bytes`]).
    pub fn bytes(mut self, bytes: usize) -> PageLimits {
        self.max_bytes = bytes;
        self
    }
}

/// About what `value` takes in memory: its text, plus a few words per value for the
/// value itself (a `serde_json::Value` is 32 bytes; a map entry adds its key).
pub(crate) fn weight(value: &Value) -> usize {
    const NODE: usize = 32;
    match value {
        Value::String(s) => NODE + s.len(),
        Value::Array(items) => NODE + items.iter().map(weight).sum::<usize>(),
        Value::Object(map) => {
            NODE + map
                .iter()
                .map(|(k, v)| NODE + k.len() + weight(v))
                .sum::<usize>()
        }
        _ => NODE,
    }
}

/// Scheme, host and port (the scheme's default when not given), lower-cased.
pub(crate) fn origin(url: &str) -> Option<(String, String, u16)> {
    let uri: http::Uri = url.parse().ok()?;
    let scheme = uri.scheme_str()?.to_ascii_lowercase();
    let port = uri.port_u16().or(match scheme.as_str() {
        "https" => Some(443),
        "http" => Some(80),
        _ => None,
    })?;
    Some((scheme, uri.host()?.to_ascii_lowercase(), port))
}

#[cfg(test)]
mod tests {
    use super::origin;

    #[test]
    fn origins_compare_scheme_host_and_port() {
        assert_eq!(
            origin("https://API.example.com/v1?x=1"),
            origin("https://api.example.com:443/other")
        );
        assert_ne!(
            origin("https://api.example.com/"),
            origin("http://api.example.com/")
        );
        assert_ne!(
            origin("http://127.0.0.1:8080/"),
            origin("http://127.0.0.1:8081/")
        );
        assert_eq!(origin("/relative"), None);
    }
}
