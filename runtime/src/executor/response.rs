//! Answers as a call returns them: bodies as JSON (or text, or base64 bytes), and
//! non-success answers as errors with the upstream's own message.

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::descriptor::Operation;
use crate::error::Error;
use crate::validate;

/// A non-success answer as the error a call returns.
pub(super) fn status_error(
    op: &Operation,
    status: http::StatusCode,
    headers: &http::HeaderMap,
    body: Value,
) -> Error {
    let message = upstream_message(&body)
        .unwrap_or_else(|| status.canonical_reason().unwrap_or("").to_owned());
    Error::Status {
        tool: op.name.to_string(),
        status: status.as_u16(),
        // The whole body stays in `body`; the message is for humans and models.
        message: crate::shorten::prefix(&message, 500),
        body,
        headers: headers_that_matter(headers),
    }
}

/// Request ids, `Retry-After` and rate-limit counters (never cookies or anything
/// else a server sends).
fn headers_that_matter(headers: &http::HeaderMap) -> Vec<(String, String)> {
    headers
        .iter()
        .filter(|(name, _)| {
            let n = name.as_str();
            n == "retry-after"
                || n.ends_with("request-id")
                || n.ends_with("requestid")
                || n == "cf-ray"
                || n == "traceparent"
                || n.starts_with("x-ratelimit-")
                || n.starts_with("ratelimit")
        })
        .filter_map(|(name, value)| Some((name.to_string(), value.to_str().ok()?.to_owned())))
        .collect()
}

/// Decodes a response body into the operation's output type.
pub fn decode<O: DeserializeOwned>(op: &Operation, body: Value) -> Result<O, Error> {
    validate::deserialize_owned::<O>(body).map_err(|e| Error::Decode {
        tool: op.name.to_string(),
        message: e.to_string(),
    })
}

/// The body as JSON for JSON media types (or untyped bodies that parse), text for
/// text, base64 for other bytes, `null` when empty.
pub(super) fn decode_body(content_type: &str, bytes: &[u8]) -> Value {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Value::Null;
    }
    let media = media_type(content_type);
    let json = has(media, "json");
    if (json || media.is_empty())
        && let Ok(v) = serde_json::from_slice(bytes)
    {
        return v;
    }
    match std::str::from_utf8(bytes) {
        Ok(text) if !is_bytes(media) => Value::String(text.to_owned()),
        _ => Value::String(crate::base64::encode(bytes)),
    }
}

/// The media type of a `Content-Type` (without parameters).
pub(super) fn media_type(content_type: &str) -> &str {
    content_type.split(';').next().unwrap_or("").trim()
}

/// Whether `media` names `part` (ASCII case-insensitive).
fn has(media: &str, part: &str) -> bool {
    media
        .as_bytes()
        .windows(part.len())
        .any(|w| w.eq_ignore_ascii_case(part.as_bytes()))
}

/// A media type whose bodies are bytes (base64 in a JSON result): any named type
/// that is not JSON or text.
pub(super) fn is_bytes(media: &str) -> bool {
    let textual = media
        .get(..5)
        .is_some_and(|m| m.eq_ignore_ascii_case("text/"))
        || [
            "json",
            "xml",
            "csv",
            "yaml",
            "javascript",
            "x-www-form-urlencoded",
        ]
        .iter()
        .any(|t| has(media, t));
    !media.is_empty() && !textual
}

/// The human message of an error body, in the shapes APIs commonly use.
fn upstream_message(body: &Value) -> Option<String> {
    match body {
        Value::String(s) => Some(s.trim().to_owned()),
        Value::Object(map) => ["message", "error_description", "detail", "error", "title"]
            .iter()
            .find_map(|k| match map.get(*k)? {
                Value::String(s) => Some(s.clone()),
                nested @ Value::Object(_) => upstream_message(nested),
                _ => None,
            })
            // GraphQL (`{"errors": [{"message": ...}]}`) and JSON:API answers.
            .or_else(|| {
                let first = map.get("errors")?.as_array()?.first()?;
                upstream_message(first)
            })
            .or_else(|| Some(body.to_string())),
        Value::Null => None,
        other => Some(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn upstream_messages() {
        assert_eq!(
            upstream_message(&json!({"message": "nope"})).unwrap(),
            "nope"
        );
        assert_eq!(
            upstream_message(&json!({"error": {"message": "deep"}})).unwrap(),
            "deep"
        );
        assert_eq!(
            upstream_message(&json!("plain text\n")).unwrap(),
            "plain text"
        );
        assert_eq!(upstream_message(&Value::Null), None);
    }
}
