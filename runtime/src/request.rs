//! Turns an operation descriptor and JSON arguments into an HTTP request.
//!
//! This is the one place where parameters meet the wire: path segments are
//! percent-encoded so an argument can never leave its segment, query and form values
//! are encoded per their style, and credentials are added last.

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use serde_json::{Map, Value};

use crate::auth::Applied;
use crate::descriptor::{BodyEncoding, Operation, ParamLocation};

/// Everything but RFC 3986 unreserved characters is encoded, `/` included.
const COMPONENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

fn encode(text: &str) -> String {
    utf8_percent_encode(text, COMPONENT).to_string()
}

/// Renders a scalar for a path, query, header or form value.
fn scalar_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// Builds the request. `args` must already be validated.
pub(crate) fn build(
    op: &Operation,
    base_url: &str,
    args: &Map<String, Value>,
    auth: Applied,
) -> Result<http::Request<Vec<u8>>, String> {
    let mut path = String::with_capacity(op.path.len() + 16);
    let mut query: Vec<(String, String)> = Vec::new();
    let mut headers: Vec<(String, String)> = Vec::new();
    let mut cookies: Vec<String> = Vec::new();
    let mut body = Map::new();

    let mut rest = op.path.as_ref();
    while let Some(open) = rest.find('{') {
        path.push_str(&rest[..open]);
        let close = rest[open..]
            .find('}')
            .map(|c| open + c)
            .ok_or("unclosed `{` in path")?;
        let name = &rest[open + 1..close];
        let param = op
            .params
            .iter()
            .find(|p| p.location == ParamLocation::Path && p.wire_name == name)
            .ok_or_else(|| format!("no parameter for path placeholder `{{{name}}}`"))?;
        let value = args
            .get(param.field.as_ref())
            .filter(|v| !v.is_null())
            .ok_or_else(|| format!("missing path parameter `{}`", param.field))?;
        let text = scalar_text(value);
        if text.is_empty() || text == "." || text == ".." {
            return Err(format!(
                "path parameter `{}` must not be empty, `.` or `..`",
                param.field
            ));
        }
        path.push_str(&encode(&text));
        rest = &rest[close + 1..];
    }
    path.push_str(rest);

    for param in op.params.iter() {
        let Some(value) = args.get(param.field.as_ref()).filter(|v| !v.is_null()) else {
            continue;
        };
        let name = param.wire_name.as_ref();
        match param.location {
            ParamLocation::Path => {}
            ParamLocation::Query => push_query(&mut query, name, value, param.explode),
            ParamLocation::Header => headers.push((name.to_owned(), joined(value))),
            ParamLocation::Cookie => cookies.push(format!("{name}={}", encode(&joined(value)))),
            ParamLocation::Body => {
                body.insert(name.to_owned(), value.clone());
            }
        }
    }

    let mut auth_header = None;
    match auth {
        Applied::None => {}
        Applied::Header(name, secret) => auth_header = Some((name, secret.0)),
        Applied::Query(name, secret) => query.push((name, secret.0)),
    }

    let mut url = String::with_capacity(base_url.len() + path.len() + 32);
    url.push_str(base_url.trim_end_matches('/'));
    url.push_str(&path);
    for (i, (k, v)) in query.iter().enumerate() {
        url.push(if i == 0 { '?' } else { '&' });
        url.push_str(&encode(k));
        url.push('=');
        url.push_str(&encode(v));
    }

    let mut builder = http::Request::builder()
        .method(op.method.as_str())
        .uri(&url)
        .header(http::header::ACCEPT, "application/json");
    for (name, value) in &headers {
        builder = builder.header(name.as_str(), value.as_str());
    }
    if !cookies.is_empty() {
        builder = builder.header(http::header::COOKIE, cookies.join("; "));
    }
    let bytes = if body.is_empty() {
        Vec::new()
    } else {
        match op.body {
            BodyEncoding::Json => {
                builder = builder.header(http::header::CONTENT_TYPE, "application/json");
                serde_json::to_vec(&Value::Object(body)).map_err(|e| e.to_string())?
            }
            BodyEncoding::Form => {
                builder = builder.header(
                    http::header::CONTENT_TYPE,
                    "application/x-www-form-urlencoded",
                );
                let mut pairs = Vec::new();
                for (k, v) in &body {
                    push_query(&mut pairs, k, v, true);
                }
                pairs
                    .iter()
                    .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
                    .collect::<Vec<_>>()
                    .join("&")
                    .into_bytes()
            }
        }
    };
    if let Some((name, value)) = auth_header {
        builder = builder.header(name.as_str(), value.as_str());
    }
    // Build errors from `http` name the bad part (URI, header); a header value that holds
    // a credential is never echoed because `http` does not include values in its errors.
    builder
        .body(bytes)
        .map_err(|e| format!("{e} (URL `{}`)", redact_query(&url, op)))
}

/// Comma-joined text of a value, for headers and cookies.
fn joined(value: &Value) -> String {
    match value {
        Value::Array(items) => items.iter().map(scalar_text).collect::<Vec<_>>().join(","),
        other => scalar_text(other),
    }
}

fn push_query(out: &mut Vec<(String, String)>, name: &str, value: &Value, explode: bool) {
    match value {
        Value::Array(items) if explode => {
            out.extend(items.iter().map(|v| (name.to_owned(), scalar_text(v))));
        }
        Value::Array(items) => out.push((
            name.to_owned(),
            items.iter().map(scalar_text).collect::<Vec<_>>().join(","),
        )),
        Value::Object(fields) if explode => {
            out.extend(fields.iter().map(|(k, v)| (k.clone(), scalar_text(v))));
        }
        Value::Object(fields) => out.push((
            name.to_owned(),
            fields
                .iter()
                .flat_map(|(k, v)| [k.clone(), scalar_text(v)])
                .collect::<Vec<_>>()
                .join(","),
        )),
        other => out.push((name.to_owned(), scalar_text(other))),
    }
}

/// Only the path, for error messages (the query may hold an API key).
fn redact_query(url: &str, _op: &Operation) -> String {
    url.split('?').next().unwrap_or(url).to_owned()
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use serde_json::json;

    use super::*;
    use crate::auth::Secret;
    use crate::descriptor::{Method, Param, ValueKind};

    fn param(field: &'static str, location: ParamLocation) -> Param {
        Param {
            field: field.into(),
            wire_name: field.into(),
            location,
            required: false,
            kind: ValueKind::Any,
            explode: true,
        }
    }

    fn op(path: &'static str, params: Vec<Param>) -> Operation {
        Operation {
            name: "t".into(),
            api: "a".into(),
            method: Method::Post,
            path: path.into(),
            params: Cow::Owned(params),
            body: BodyEncoding::Json,
            wrap_output: false,
        }
    }

    fn args(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn path_params_cannot_escape_their_segment() {
        let op = op("/repos/{id}/x", vec![param("id", ParamLocation::Path)]);
        let req = build(
            &op,
            "http://h/api/",
            &args(json!({"id": "a/../b c"})),
            Applied::None,
        )
        .unwrap();
        assert_eq!(req.uri().to_string(), "http://h/api/repos/a%2F..%2Fb%20c/x");
        for bad in ["..", ".", ""] {
            let err = build(&op, "http://h", &args(json!({ "id": bad })), Applied::None);
            assert!(err.unwrap_err().contains("must not be empty"), "{bad}");
        }
    }

    #[test]
    fn query_styles_and_body() {
        let mut labels = param("labels", ParamLocation::Query);
        labels.explode = false;
        let op = op(
            "/x",
            vec![
                labels,
                param("tag", ParamLocation::Query),
                param("title", ParamLocation::Body),
                param("X-Trace", ParamLocation::Header),
            ],
        );
        let req = build(
            &op,
            "http://h",
            &args(json!({"labels": ["a", "b"], "tag": ["x", "y&z"], "title": "T", "X-Trace": 7})),
            Applied::Header("authorization".into(), Secret("Bearer s".into())),
        )
        .unwrap();
        assert_eq!(
            req.uri().to_string(),
            "http://h/x?labels=a%2Cb&tag=x&tag=y%26z"
        );
        assert_eq!(req.headers()["x-trace"], "7");
        assert_eq!(req.headers()["authorization"], "Bearer s");
        assert_eq!(req.body(), br#"{"title":"T"}"#);
    }
}
