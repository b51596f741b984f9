//! Percent-encoding of one URL component or form value: what a request's path
//! segments, query and cookies and an OAuth token request's form fields all use (a
//! leaf module, so that auth and request building need not import each other).

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};

/// Everything but RFC 3986 unreserved characters is encoded, `/` included.
pub(crate) const COMPONENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// Percent-encodes everything but unreserved characters (also a valid form encoding).
pub(crate) fn encode(text: &str) -> String {
    utf8_percent_encode(text, COMPONENT).to_string()
}

/// Decodes `%XX` escapes (bytes that are not UTF-8 become U+FFFD).
#[cfg_attr(not(feature = "mcp"), allow(dead_code))]
pub(crate) fn decode(text: &str) -> String {
    percent_encoding::percent_decode_str(text)
        .decode_utf8_lossy()
        .into_owned()
}
