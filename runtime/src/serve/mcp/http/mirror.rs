//! The request headers 2026-07-28 mirrors from the body (SEP-2243): `Mcp-Method` is the
//! JSON-RPC `method` of every request, `Mcp-Name` the `params.name` of a `tools/call`
//! (and of `prompts/get`, the `params.uri` of `resources/read`), and
//! `MCP-Protocol-Version` the revision the body's `_meta` names. They exist so a load
//! balancer, gateway or rate limiter can act without parsing the body — which works only
//! if the two agree, so a request where they do not is refused (`400`, `-32020`) before
//! anything runs.
//!
//! For a 2026-07-28 request all of them are required. Earlier revisions do not define
//! them; there a header a client sends anyway must still match (a router may already
//! have acted on it), and a missing one is fine.

use base64::Engine;
use http::HeaderMap;
use serde_json::Value;

use super::super::{MODERN_VERSION, VERSION_META};

/// JSON-RPC code of a request whose mirrored headers are missing or disagree with it.
pub const HEADER_MISMATCH: i64 = -32020;

/// Why a request's headers and body disagree; `None` when they agree.
pub fn mismatch(headers: &HeaderMap, message: &Value) -> Option<String> {
    let method = message.get("method").and_then(Value::as_str)?;
    let stamped = message
        .get("params")
        .and_then(|params| params.get("_meta"))
        .and_then(|meta| meta.get(VERSION_META))
        .and_then(Value::as_str);
    let modern = stamped == Some(MODERN_VERSION);
    let header = |name: &str| headers.get(name).map(|v| v.to_str().unwrap_or("\u{fffd}"));

    if let Some(stamped) = stamped {
        match header("mcp-protocol-version") {
            Some(given) if given != stamped => {
                return Some(format!(
                    "MCP-Protocol-Version `{given}` does not match the revision `{stamped}` the request's _meta names"
                ));
            }
            None if modern => {
                return Some(format!(
                    "missing MCP-Protocol-Version: a {MODERN_VERSION} request carries it on every POST"
                ));
            }
            _ => {}
        }
    }
    match header("mcp-method") {
        Some(given) if given != method => {
            return Some(format!(
                "Mcp-Method `{given}` does not match the request's method `{method}`"
            ));
        }
        None if modern => {
            return Some(format!(
                "missing Mcp-Method: a {MODERN_VERSION} request names its method (`{method}`) in it"
            ));
        }
        _ => {}
    }
    let key = match method {
        "tools/call" | "prompts/get" => "name",
        "tasks/get" | "tasks/update" | "tasks/cancel" => "taskId",
        "resources/read" => "uri",
        _ => return None,
    };
    let named = message
        .pointer(&format!("/params/{key}"))
        .and_then(Value::as_str)?;
    match header("mcp-name").map(decode) {
        Some(given) if given.as_deref() != Some(named) => Some(format!(
            "Mcp-Name does not match the request's {key} `{named}`"
        )),
        None if modern => Some(format!(
            "missing Mcp-Name: a {MODERN_VERSION} `{method}` names its {key} (`{named}`) in it"
        )),
        _ => None,
    }
}

/// Why a 2026-07-28 `tools/call`'s `Mcp-Param-*` headers and arguments disagree
/// (SEP-2243): each `(argument, header)` the tool's input schema marks with
/// `x-mcp-header` is mirrored into `Mcp-Param-<header>`, so a value in the body needs
/// the header (and the same value), and a header needs the value. `None` when they
/// agree.
pub fn params_mismatch(
    headers: &HeaderMap,
    message: &Value,
    mirrored: &[(String, String)],
) -> Option<String> {
    let arguments = message.pointer("/params/arguments");
    for (argument, header) in mirrored {
        let name = format!("mcp-param-{}", header.to_ascii_lowercase());
        let given = headers
            .get(&name)
            .map(|v| v.to_str().unwrap_or("\u{fffd}").trim());
        let sent = arguments
            .and_then(|a| a.get(argument))
            .filter(|v| !v.is_null());
        let expected = sent.map(|v| match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        });
        match (given, expected) {
            (None, None) => {}
            (None, Some(_)) => {
                return Some(format!(
                    "missing Mcp-Param-{header}: the argument `{argument}` is mirrored in it"
                ));
            }
            (Some(_), None) => {
                return Some(format!(
                    "Mcp-Param-{header} is sent but the argument `{argument}` is not"
                ));
            }
            (Some(given), Some(expected)) => match decode(given) {
                None => {
                    return Some(format!("Mcp-Param-{header} is not valid `=?base64?…?=`"));
                }
                Some(value) if value != expected => {
                    return Some(format!(
                        "Mcp-Param-{header} does not match the argument `{argument}`"
                    ));
                }
                Some(_) => {}
            },
        }
    }
    None
}

/// A header value as sent: plain visible ASCII, or `=?base64?…?=` for a value that is
/// not (a name with non-ASCII characters). `None` when the encoding is broken.
fn decode(value: &str) -> Option<String> {
    match value
        .strip_prefix("=?base64?")
        .and_then(|rest| rest.strip_suffix("?="))
    {
        Some(payload) => base64::engine::general_purpose::STANDARD
            .decode(payload)
            .ok()
            .and_then(|bytes| String::from_utf8(bytes).ok()),
        None => Some(value.to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        pairs
            .iter()
            .map(|(name, value)| (http::HeaderName::from_static(name), value.parse().unwrap()))
            .collect()
    }

    fn modern_call(name: &str) -> Value {
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": name, "arguments": {},
            "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}})
    }

    #[test]
    fn a_modern_request_must_mirror_its_method_name_and_revision() {
        let call = modern_call("get_issue");
        let all = [
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "tools/call"),
            ("mcp-name", "get_issue"),
        ];
        assert_eq!(mismatch(&headers(&all), &call), None);
        // Each one missing, then each one wrong.
        for (i, (name, _)) in all.iter().enumerate() {
            let mut fewer = all.to_vec();
            fewer.remove(i);
            let why = mismatch(&headers(&fewer), &call).expect(name);
            assert!(why.to_lowercase().starts_with("missing"), "{why}");
            let mut wrong = all.to_vec();
            wrong[i].1 = "2025-11-25";
            let why = mismatch(&headers(&wrong), &call).expect(name);
            assert!(why.contains("does not match"), "{why}");
        }
        // The name base64-encoded, as a client sends a non-ASCII one.
        let encoded = [
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "tools/call"),
            ("mcp-name", "=?base64?Z2V0X2lzc3Vl?="),
        ];
        assert_eq!(mismatch(&headers(&encoded), &call), None);
        let broken = [
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "tools/call"),
            ("mcp-name", "=?base64?***?="),
        ];
        assert!(mismatch(&headers(&broken), &call).is_some());
        // A listing names no tool: no Mcp-Name needed.
        let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {
            "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}});
        let listing = [
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "tools/list"),
        ];
        assert_eq!(mismatch(&headers(&listing), &list), None);
    }

    #[test]
    fn earlier_revisions_need_none_but_what_they_send_must_match() {
        let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "get_issue", "arguments": {}}});
        assert_eq!(mismatch(&HeaderMap::new(), &call), None);
        assert_eq!(
            mismatch(&headers(&[("mcp-protocol-version", "2025-11-25")]), &call),
            None
        );
        assert!(mismatch(&headers(&[("mcp-name", "delete_issue")]), &call).is_some());
        assert!(mismatch(&headers(&[("mcp-method", "tools/list")]), &call).is_some());
    }
}
