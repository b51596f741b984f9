//! Turns an operation descriptor and JSON arguments into an HTTP request.
//!
//! This is the one place where parameters meet the wire. Path segments are
//! percent-encoded so an argument can never leave its segment; every OpenAPI style
//! (form, simple, label, matrix, spaceDelimited, pipeDelimited, deepObject) is
//! serialized here; credentials are added last.

use std::borrow::Cow;

use percent_encoding::{AsciiSet, utf8_percent_encode};
use serde_json::{Map, Value};

use crate::auth::Applied;
use crate::descriptor::{
    BodyEncoding, Method, Operation, Param, ParamLocation, ParamStyle, ValueKind,
};
use crate::percent::{COMPONENT, encode};

/// `allowReserved`: reserved characters stay as they are, except `#` (it would end
/// the URL there) and `&` (it would start another parameter): a value can never change
/// the URL's structure.
const RESERVED_KEPT: &AsciiSet = &COMPONENT
    .remove(b':')
    .remove(b'/')
    .remove(b'?')
    .remove(b'[')
    .remove(b']')
    .remove(b'@')
    .remove(b'!')
    .remove(b'$')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')')
    .remove(b'*')
    .remove(b'+')
    .remove(b',')
    .remove(b';')
    .remove(b'=');

/// Renders a scalar for a path, query, header or form value.
fn scalar_text(value: &Value) -> String {
    scalar_str(value).into_owned()
}

/// [`scalar_text`], borrowing a string instead of copying it.
fn scalar_str(value: &Value) -> Cow<'_, str> {
    match value {
        Value::String(s) => Cow::Borrowed(s),
        Value::Null => Cow::Borrowed(""),
        other => Cow::Owned(other.to_string()),
    }
}

/// A value as (key, value) pairs: arrays repeat `name`, objects use their keys.
fn pairs(name: &str, value: &Value) -> Vec<(String, String)> {
    match value {
        Value::Array(items) => items
            .iter()
            .map(|v| (name.to_owned(), scalar_text(v)))
            .collect(),
        Value::Object(fields) => fields
            .iter()
            .map(|(k, v)| (k.clone(), scalar_text(v)))
            .collect(),
        other => vec![(name.to_owned(), scalar_text(other))],
    }
}

/// Items of an array, or `k, v, k, v` of an object (the non-exploded form).
fn flat_items(value: &Value) -> Vec<String> {
    match value {
        Value::Array(items) => items.iter().map(scalar_text).collect(),
        Value::Object(fields) => fields
            .iter()
            .flat_map(|(k, v)| [k.clone(), scalar_text(v)])
            .collect(),
        other => vec![scalar_text(other)],
    }
}

/// `simple`, `label` and `matrix` path values (already encoded).
fn path_value(p: &Param, value: &Value) -> String {
    let enc = |s: &str| encode(s);
    let name = p.wire_name.as_ref();
    let exploded_object = |sep: &str, fields: &Map<String, Value>| {
        fields
            .iter()
            .map(|(k, v)| format!("{}={}", enc(k), enc(&scalar_text(v))))
            .collect::<Vec<_>>()
            .join(sep)
    };
    let joined = |sep: &str| {
        flat_items(value)
            .iter()
            .map(|s| enc(s))
            .collect::<Vec<_>>()
            .join(sep)
    };
    match (p.style, value) {
        (ParamStyle::Label, Value::Object(f)) if p.explode => {
            format!(".{}", exploded_object(".", f))
        }
        (ParamStyle::Label, Value::Array(_)) if p.explode => format!(".{}", joined(".")),
        (ParamStyle::Label, _) => format!(".{}", joined(",")),
        (ParamStyle::Matrix, Value::Object(f)) if p.explode => {
            format!(";{}", exploded_object(";", f))
        }
        (ParamStyle::Matrix, Value::Array(items)) if p.explode => items
            .iter()
            .map(|v| format!(";{}={}", enc(name), enc(&scalar_text(v))))
            .collect(),
        (ParamStyle::Matrix, _) => format!(";{}={}", enc(name), joined(",")),
        (_, Value::Object(f)) if p.explode => exploded_object(",", f),
        _ => joined(","),
    }
}

/// Query pairs for one parameter, as (key, value) before encoding.
fn query_pairs(p: &Param, value: &Value) -> Vec<(String, String)> {
    let name = p.wire_name.as_ref();
    match (p.style, value) {
        (ParamStyle::DeepObject, Value::Object(fields)) => fields
            .iter()
            .map(|(k, v)| (format!("{name}[{k}]"), scalar_text(v)))
            .collect(),
        (ParamStyle::SpaceDelimited, Value::Array(_)) => {
            vec![(name.to_owned(), flat_items(value).join(" "))]
        }
        (ParamStyle::PipeDelimited, Value::Array(_)) => {
            vec![(name.to_owned(), flat_items(value).join("|"))]
        }
        (_, Value::Array(_) | Value::Object(_)) if p.explode => pairs(name, value),
        (_, Value::Array(_) | Value::Object(_)) => {
            vec![(name.to_owned(), flat_items(value).join(","))]
        }
        (_, other) => vec![(name.to_owned(), scalar_text(other))],
    }
}

/// OpenAPI 3.2 `style: cookie` pairs (RFC 6265 syntax, no percent-encoding): exploded,
/// an array repeats the name and an object gives one pair per property; not exploded,
/// values are joined with `,` (as `form` does) under the one name.
fn cookie_pairs(p: &Param, value: &Value) -> Vec<String> {
    let name = p.wire_name.as_ref();
    match value {
        Value::Array(_) | Value::Object(_) if p.explode => pairs(name, value)
            .into_iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect(),
        _ => vec![format!("{name}={}", flat_items(value).join(","))],
    }
}

/// A request body before encoding.
enum BodyParts<'a> {
    None,
    /// Object bodies built from per-property parameters.
    Fields(Vec<(&'a Param, &'a Value)>),
    Whole(&'a Value),
}

/// A content-based parameter's value (path, query, header, cookie) as its media
/// type's text (JSON), or `None` for plain parameters.
fn serialized(p: &Param, value: &Value) -> Option<Value> {
    p.content_type
        .as_deref()
        .filter(|m| m.contains("json"))
        .map(|_| Value::String(value.to_string()))
}

/// Builds the request. `args` must already be validated. `target`: a URL the API gave
/// for the next page (same origin as `base_url`, checked by the caller) that replaces
/// the path and query built from `args`; query credentials are added to it.
///
/// Three steps, each writing in place: the URL with its path filled in, the parts
/// that go outside the path (query, headers, cookies, body, credentials), then the
/// request assembled from them.
pub(crate) fn build(
    op: &Operation,
    base_url: &str,
    args: &Map<String, Value>,
    credentials: Vec<Applied>,
    target: Option<&str>,
) -> Result<http::Request<Vec<u8>>, String> {
    // The URL is written in one string: the base, then the path as it is filled in.
    let mut url =
        String::with_capacity(base_url.len() + op.path.len() + target.map_or(0, str::len) + 48);
    match target {
        Some(target) => url.push_str(target),
        // A next-page URL replaces the path (and the query) built from the arguments.
        None => {
            url.push_str(base_url.trim_end_matches('/'));
            fill_path(&mut url, op, args)?;
        }
    }
    let mut parts = Parts::of(op, args, target.is_some())?;
    parts.add_credentials(credentials, target);
    parts.assemble(op, url)
}

/// Appends `op`'s path to `url`, each placeholder replaced by its argument.
fn fill_path(url: &mut String, op: &Operation, args: &Map<String, Value>) -> Result<(), String> {
    let mut rest = op.path.as_ref();
    while let Some(open) = rest.find('{') {
        url.push_str(&rest[..open]);
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
        push_path_value(url, param, value)?;
        rest = &rest[close + 1..];
    }
    url.push_str(rest);
    Ok(())
}

/// Appends one path parameter's value, encoded as its style says; refuses a value
/// that would be an empty, `.` or `..` segment (a way out of the API's path).
fn push_path_value(path: &mut String, param: &Param, value: &Value) -> Result<(), String> {
    let as_text = serialized(param, value);
    let value = as_text.as_ref().unwrap_or(value);
    refuse_controls_in(param, value)?;
    // Reserved expansion (`{+name}` in Google Discovery, `allowReserved` on a path
    // parameter): the value's `/` stay separators, each segment encoded on its own
    // and none of them empty, `.` or `..`.
    let escapes = |segment: &str| segment.is_empty() || segment == "." || segment == "..";
    let escaped = match value {
        Value::String(s) if param.allow_reserved => {
            let before = path.len();
            for (i, segment) in s.split('/').enumerate() {
                if escapes(segment) {
                    path.truncate(before);
                    break;
                }
                if i > 0 {
                    path.push('/');
                }
                path.extend(utf8_percent_encode(segment, COMPONENT));
            }
            path.len() == before
        }
        // `simple`, one value (the common case): encoded in place.
        Value::String(_) | Value::Number(_) | Value::Bool(_)
            if !matches!(param.style, ParamStyle::Label | ParamStyle::Matrix) =>
        {
            let before = path.len();
            path.extend(utf8_percent_encode(&scalar_str(value), COMPONENT));
            escapes(&path[before..])
        }
        _ => {
            let segment = path_value(param, value);
            path.push_str(&segment);
            escapes(&segment)
        }
    };
    if escaped {
        return Err(format!(
            "path parameter `{}` must not be empty, `.` or `..`{}",
            param.field,
            if param.allow_reserved {
                " (nor have such a segment)"
            } else {
                ""
            }
        ));
    }
    Ok(())
}

/// What goes outside the path, in the order it goes on the wire.
struct Parts<'a> {
    /// The whole query string an `in: querystring` parameter gives, already encoded.
    query_string: Option<String>,
    /// Name, value, and whether reserved characters stay unencoded.
    query: Vec<(String, String, bool)>,
    headers: Vec<(String, String)>,
    cookies: Vec<String>,
    body: BodyParts<'a>,
    /// Credentials in headers, added last.
    auth_headers: Vec<(String, String)>,
}

impl<'a> Parts<'a> {
    /// The arguments sorted by where they go (`paged`: the query comes with the
    /// next-page URL, so query arguments are left out).
    fn of(op: &'a Operation, args: &'a Map<String, Value>, paged: bool) -> Result<Self, String> {
        let mut parts = Parts {
            query_string: None,
            query: Vec::new(),
            headers: Vec::new(),
            cookies: Vec::new(),
            body: BodyParts::None,
            auth_headers: Vec::new(),
        };
        for param in op.params.iter() {
            let Some(value) = args.get(param.field.as_ref()).filter(|v| !v.is_null()) else {
                continue;
            };
            let name = param.wire_name.as_ref();
            if matches!(
                param.location,
                ParamLocation::Body | ParamLocation::RequestBody
            ) {
                match (&mut parts.body, param.location) {
                    (BodyParts::Fields(fields), ParamLocation::Body) => {
                        fields.push((param, value));
                    }
                    (_, ParamLocation::Body) => {
                        parts.body = BodyParts::Fields(vec![(param, value)])
                    }
                    _ => parts.body = BodyParts::Whole(value),
                }
                continue;
            }
            if param.location == ParamLocation::QueryString {
                if !paged {
                    parts.query_string = Some(query_string(param, value)?);
                }
                continue;
            }
            let as_text = serialized(param, value);
            let value = as_text.as_ref().unwrap_or(value);
            match param.location {
                ParamLocation::Path | ParamLocation::QueryString => {}
                ParamLocation::Query if paged => {}
                ParamLocation::Query => parts.query.extend(
                    query_pairs(param, value)
                        .into_iter()
                        .map(|(k, v)| (k, v, param.allow_reserved)),
                ),
                ParamLocation::Header => {
                    let text = header_value(param, value);
                    refuse_controls(param, &text)?;
                    parts.headers.push((name.to_owned(), text));
                }
                ParamLocation::Cookie if param.style == ParamStyle::Cookie => {
                    for pair in cookie_pairs(param, value) {
                        // Sent as written: a `;` would start another cookie.
                        if pair.contains(';') {
                            return Err(format!(
                                "cookie `{}`: a `style: cookie` value is sent as written, so it cannot hold `;`; escape it in the value",
                                param.field
                            ));
                        }
                        refuse_controls(param, &pair)?;
                        parts.cookies.push(pair);
                    }
                }
                ParamLocation::Cookie => {
                    let text = flat_items(value).join(",");
                    refuse_controls(param, &text)?;
                    parts.cookies.push(format!("{name}={}", encode(&text)));
                }
                ParamLocation::Body | ParamLocation::RequestBody => {}
            }
        }
        Ok(parts)
    }

    /// The credentials, each where its scheme puts it (a next-page URL `target` may
    /// already carry a query key).
    fn add_credentials(&mut self, credentials: Vec<Applied>, target: Option<&str>) {
        for applied in credentials {
            match applied {
                Applied::Header(name, secret) => self.auth_headers.push((name, secret.0)),
                Applied::Query(name, _) if target.is_some_and(|t| has_query_key(t, &name)) => {}
                Applied::Query(name, secret) => self.query.push((name, secret.0, false)),
                Applied::Cookie(name, secret) => {
                    self.cookies.push(format!("{name}={}", encode(&secret.0)));
                }
            }
        }
    }

    /// The request: `url` with the query appended, the headers, the encoded body.
    fn assemble(self, op: &Operation, mut url: String) -> Result<http::Request<Vec<u8>>, String> {
        // A path may carry a query of its own (`/alerts?lat={lat}`): the rest joins it.
        let mut separator = if url.contains('?') { '&' } else { '?' };
        if let Some(whole) = self.query_string.as_deref().filter(|q| !q.is_empty()) {
            url.push(separator);
            separator = '&';
            url.push_str(whole);
        }
        for (k, v, reserved) in &self.query {
            url.push(separator);
            separator = '&';
            url.push_str(&encode(k));
            url.push('=');
            let set = if *reserved { RESERVED_KEPT } else { COMPONENT };
            url.extend(utf8_percent_encode(v, set));
        }
        let (content_type, bytes) = encode_body(op, self.body)?;
        // `http` errors name the bad part (URI, header) but never echo header values, so
        // a credential cannot leak through them; the query (which may hold a key) is cut.
        let failed = |e: &dyn std::fmt::Display, url: &str| {
            format!("{e} (URL `{}`)", url.split('?').next().unwrap_or(url))
        };
        // Built in place rather than through `http::request::Builder`, which moves its
        // whole state on every header.
        let mut request = http::Request::new(bytes);
        *request.method_mut() = method(op.method);
        *request.uri_mut() = http::Uri::try_from(url.as_str()).map_err(|e| failed(&e, &url))?;
        let headers_out = request.headers_mut();
        headers_out.insert(
            http::header::ACCEPT,
            http::HeaderValue::from_static("application/json, */*;q=0.5"),
        );
        let header = |name: &str, value: &str| {
            let name =
                http::HeaderName::from_bytes(name.as_bytes()).map_err(|e| failed(&e, &url))?;
            let value = http::HeaderValue::from_str(value).map_err(|e| failed(&e, &url))?;
            Ok::<_, String>((name, value))
        };
        for (name, value) in &self.headers {
            let (name, value) = header(name, value)?;
            headers_out.append(name, value);
        }
        if !self.cookies.is_empty() {
            let (name, value) = header("cookie", &self.cookies.join("; "))?;
            headers_out.append(name, value);
        }
        if let Some(ct) = content_type {
            let (name, value) = header("content-type", &ct)?;
            headers_out.append(name, value);
        }
        for (name, value) in &self.auth_headers {
            let (name, value) = header(name, value)?;
            headers_out.append(name, value);
        }
        Ok(request)
    }
}

/// The set `application/x-www-form-urlencoded` leaves as it is (WHATWG URL): ASCII
/// alphanumerics and `*-._`; a space becomes `+` separately.
const FORM_URLENCODED: &AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'*')
    .remove(b'-')
    .remove(b'.')
    .remove(b'_');

/// One form-urlencoded name or value: spaces as `+`, everything else outside the set
/// percent-encoded (what OpenAPI 3.2 shows for `in: querystring`: `a + b` →
/// `a+%2B+b`).
fn form_urlencoded(text: &str) -> String {
    text.split(' ')
        .map(|piece| utf8_percent_encode(piece, FORM_URLENCODED).to_string())
        .collect::<Vec<_>>()
        .join("+")
}

/// An `in: querystring` parameter as the whole query string (OpenAPI 3.2 §Parameter
/// Locations). `application/x-www-form-urlencoded`: the object's properties as
/// `name=value` pairs — arrays repeat the name, objects go as JSON text (the media
/// type's default for them) — with no further escaping, since the result is a query
/// string by definition. Any other media type: the value written in it (JSON text, or
/// a string as it is) and then percent-encoded as one whole, like
/// `%7B%22numbers%22%3A%5B1%2C2%5D%7D`.
fn query_string(p: &Param, value: &Value) -> Result<String, String> {
    let media = p.content_type.as_deref().unwrap_or("application/json");
    let essence = media.split(';').next().unwrap_or("").trim();
    if essence.eq_ignore_ascii_case("application/x-www-form-urlencoded") {
        let Value::Object(fields) = value else {
            return Err(format!(
                "`{}` is the whole query string as named fields: give an object, not {}",
                p.field,
                kind_name(value)
            ));
        };
        let mut out = Vec::new();
        for (name, v) in fields {
            let items: Vec<&Value> = match v {
                Value::Null => continue,
                Value::Array(items) => items.iter().collect(),
                other => vec![other],
            };
            for item in items {
                let text = match item {
                    Value::Object(_) | Value::Array(_) => item.to_string(),
                    scalar => scalar_text(scalar),
                };
                out.push(format!(
                    "{}={}",
                    form_urlencoded(name),
                    form_urlencoded(&text)
                ));
            }
        }
        return Ok(out.join("&"));
    }
    // JSON media types (`application/json`, `*+json`) write the value as JSON text;
    // others (`application/jsonpath`, `text/plain`) take a string as it is.
    let essence = essence.to_ascii_lowercase();
    let json = essence == "application/json" || essence.ends_with("+json");
    let text = match value {
        Value::String(s) if !json => s.clone(),
        other => other.to_string(),
    };
    Ok(encode(&text))
}

/// `method` as `http` names it.
fn method(method: Method) -> http::Method {
    match method {
        Method::Get => http::Method::GET,
        Method::Post => http::Method::POST,
        Method::Put => http::Method::PUT,
        Method::Patch => http::Method::PATCH,
        Method::Delete => http::Method::DELETE,
        Method::Head => http::Method::HEAD,
        Method::Options => http::Method::OPTIONS,
        // Tokens by construction (`Method::parse`, the generator's check); a name `http`
        // still refused would fail the request, never go out altered.
        Method::Query | Method::Other(_) => {
            http::Method::from_bytes(method.as_str().as_bytes()).unwrap_or(http::Method::GET)
        }
    }
}

/// Whether `url`'s query has the (unencoded) key `key`.
fn has_query_key(url: &str, key: &str) -> bool {
    let encoded = encode(key);
    url.split_once('?').is_some_and(|(_, q)| {
        q.split('&')
            .any(|pair| pair.split('=').next() == Some(encoded.as_str()))
    })
}

/// [`refuse_controls`] on every text a value is written as (strings, array items,
/// object keys and values; numbers and nested JSON never hold raw controls).
fn refuse_controls_in(p: &Param, value: &Value) -> Result<(), String> {
    match value {
        Value::String(s) => refuse_controls(p, s),
        Value::Array(items) => items
            .iter()
            .try_for_each(|item| refuse_controls(p, &scalar_str(item))),
        Value::Object(fields) => fields.iter().try_for_each(|(k, v)| {
            refuse_controls(p, k)?;
            refuse_controls(p, &scalar_str(v))
        }),
        _ => Ok(()),
    }
}

/// CR, LF and NUL have no place in a path segment, header or cookie: encoded they
/// would still reach servers and logs that split on them, so the call is refused.
fn refuse_controls(p: &Param, text: &str) -> Result<(), String> {
    match text
        .bytes()
        .find(|b| matches!(b, b'\r' | b'\n' | b'\0'))
        .map(char::from)
    {
        Some(c) => Err(format!(
            "`{}` holds {}, which a {} cannot carry",
            p.field,
            match c {
                '\r' => "a carriage return",
                '\n' => "a line feed",
                _ => "a NUL character",
            },
            match p.location {
                ParamLocation::Path => "path",
                ParamLocation::Header => "header",
                _ => "cookie",
            }
        )),
        None => Ok(()),
    }
}

fn header_value(p: &Param, value: &Value) -> String {
    match value {
        Value::Object(fields) if p.explode => fields
            .iter()
            .map(|(k, v)| format!("{k}={}", scalar_text(v)))
            .collect::<Vec<_>>()
            .join(","),
        other => flat_items(other).join(","),
    }
}

fn encode_body(op: &Operation, body: BodyParts<'_>) -> Result<(Option<String>, Vec<u8>), String> {
    // Written only when there is a body (not on every GET).
    let content_type = || op.content_type.to_string();
    Ok(match (op.body, body) {
        // A required body goes out even when no argument was given: the media type's
        // empty form.
        (_, BodyParts::None) if op.body_required => match op.body {
            BodyEncoding::Json => (Some(content_type()), b"{}".to_vec()),
            BodyEncoding::Multipart => {
                let (boundary, bytes) = multipart(&[])?;
                (
                    Some(format!("multipart/form-data; boundary={boundary}")),
                    bytes,
                )
            }
            _ => (Some(content_type()), Vec::new()),
        },
        (_, BodyParts::None) => (None, Vec::new()),
        // Per-property arguments make a JSON object (also when the media type is not
        // JSON but the spec described the body as an object).
        (
            BodyEncoding::Json | BodyEncoding::Binary | BodyEncoding::Text,
            BodyParts::Fields(fields),
        ) => {
            let object: Map<String, Value> = fields
                .into_iter()
                .map(|(p, v)| (p.wire_name.to_string(), v.clone()))
                .collect();
            (
                Some(content_type()),
                serde_json::to_vec(&object).map_err(|e| e.to_string())?,
            )
        }
        (BodyEncoding::Json, BodyParts::Whole(v)) => (
            Some(content_type()),
            serde_json::to_vec(v).map_err(|e| e.to_string())?,
        ),
        // Form properties serialize like query parameters, each with the style,
        // explode and allowReserved its `encoding` gives.
        (BodyEncoding::Form, BodyParts::Fields(fields)) => {
            let mut text = Vec::new();
            for (p, v) in fields {
                let set = if p.allow_reserved {
                    RESERVED_KEPT
                } else {
                    COMPONENT
                };
                for (k, v) in query_pairs(p, v) {
                    text.push(format!("{}={}", encode(&k), utf8_percent_encode(&v, set)));
                }
            }
            (Some(content_type()), text.join("&").into_bytes())
        }
        // Anything but an object has no fields: refused, never sent empty.
        (BodyEncoding::Form | BodyEncoding::Multipart, BodyParts::Whole(v)) if !v.is_object() => {
            return Err(format!(
                "a {} body is named fields: give an object, not {}",
                op.content_type,
                kind_name(v)
            ));
        }
        (BodyEncoding::Form, parts) => {
            let mut out = Vec::new();
            for (k, v) in object_fields(parts) {
                out.extend(pairs(k, v));
            }
            let text = out
                .iter()
                .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
                .collect::<Vec<_>>();
            (Some(content_type()), text.join("&").into_bytes())
        }
        (BodyEncoding::Multipart, parts) => {
            let fields: Vec<Part<'_>> = match parts {
                BodyParts::Fields(f) => f
                    .into_iter()
                    .map(|(p, v)| Part {
                        name: &p.wire_name,
                        value: v,
                        kind: p.kind,
                        media: p.content_type.as_deref(),
                    })
                    .collect(),
                whole => object_fields(whole)
                    .into_iter()
                    .map(|(name, value)| Part {
                        name,
                        value,
                        kind: ValueKind::Any,
                        media: None,
                    })
                    .collect(),
            };
            let (boundary, bytes) = multipart(&fields)?;
            (
                Some(format!("multipart/form-data; boundary={boundary}")),
                bytes,
            )
        }
        (BodyEncoding::Binary, BodyParts::Whole(Value::String(b64))) => (
            Some(content_type()),
            crate::stream::part::decode(b64)
                .ok_or("the request body must be base64-encoded bytes (or a base64 data URL)")?
                .bytes,
        ),
        (BodyEncoding::Text, BodyParts::Whole(v)) => {
            (Some(content_type()), scalar_text(v).into_bytes())
        }
        (_, BodyParts::Whole(v)) => (Some(content_type()), scalar_text(v).into_bytes()),
    })
}

/// "a string", "an array", ... for messages.
pub(crate) fn kind_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn object_fields(parts: BodyParts<'_>) -> Vec<(&str, &Value)> {
    match parts {
        BodyParts::Fields(fields) => fields
            .into_iter()
            .map(|(p, v)| (p.wire_name.as_ref(), v))
            .collect(),
        BodyParts::Whole(Value::Object(map)) => map.iter().map(|(k, v)| (k.as_str(), v)).collect(),
        _ => Vec::new(),
    }
}

/// One multipart field: an array becomes one part per item (OpenAPI's rule for
/// `multipart/form-data`), each of the field's media type.
struct Part<'a> {
    name: &'a str,
    value: &'a Value,
    kind: ValueKind,
    /// The part's media type as described (`encoding.contentType` or the default by
    /// type); `None` (whole-body objects): strings as text, others as JSON.
    media: Option<&'a str>,
}

/// A name or media type given in an argument, fit for a part header: no quotes, no
/// line breaks or other controls (they would end the header or the parameter).
fn header_safe(text: &str) -> String {
    text.chars()
        .map(|c| if c == '"' || c.is_control() { '_' } else { c })
        .collect()
}

/// `multipart/form-data` (RFC 7578). Each part carries its media type: bytes (decoded
/// from base64) as files, JSON parts serialized, text parts as they are (`text/plain`
/// is RFC 7578's default, so it needs no header).
fn multipart(fields: &[Part<'_>]) -> Result<(String, Vec<u8>), String> {
    let mut parts: Vec<(String, Vec<u8>)> = Vec::new();
    for field in fields {
        let name = field.name.replace('"', "%22");
        // Arrays are one part per item; so are a whole-body object's (its fields
        // come without a description: `media` is `None`).
        let items: Vec<&Value> = match field.value {
            Value::Array(items) if field.kind != ValueKind::Any || field.media.is_none() => {
                items.iter().collect()
            }
            other => vec![other],
        };
        for item in items {
            // OpenAPI's defaults by type: bytes `application/octet-stream`, objects
            // (and arrays) `application/json`, every other value `text/plain`.
            let media = match (field.media, field.kind, item) {
                (Some(m), _, _) => m,
                (None, ValueKind::Binary, _) => "application/octet-stream",
                (None, _, Value::Object(_) | Value::Array(_)) => "application/json",
                (None, _, _) => "text/plain",
            };
            let disposition = format!("Content-Disposition: form-data; name=\"{name}\"");
            let (head, bytes) = if field.kind == ValueKind::Binary
                || (media == "application/octet-stream" && item.is_string())
            {
                // Base64, or a data URL that may name the file and its media type.
                let file = item
                    .as_str()
                    .and_then(crate::stream::part::decode)
                    .ok_or_else(|| {
                        format!(
                            "field `{name}` must be base64-encoded bytes (or a base64 data URL)"
                        )
                    })?;
                let filename = file
                    .filename
                    .as_deref()
                    .map_or_else(|| name.clone(), header_safe);
                let media = file
                    .media_type
                    .as_deref()
                    .map_or(media.to_owned(), header_safe);
                (
                    format!("{disposition}; filename=\"{filename}\"\r\nContent-Type: {media}"),
                    file.bytes,
                )
            } else if media.contains("json") {
                (
                    format!("{disposition}\r\nContent-Type: {media}"),
                    item.to_string().into_bytes(),
                )
            } else if media.eq_ignore_ascii_case("text/plain") {
                (disposition, scalar_text(item).into_bytes())
            } else {
                (
                    format!("{disposition}\r\nContent-Type: {media}"),
                    scalar_text(item).into_bytes(),
                )
            };
            parts.push((head, bytes));
        }
    }
    // A boundary that occurs in no part.
    let mut n: u64 = parts.iter().map(|(_, b)| b.len() as u64).sum::<u64>() ^ 0x746f_6f6c_7772_6967;
    let boundary = loop {
        let candidate = format!("toolwright-{n:016x}");
        if !parts.iter().any(|(_, b)| {
            b.windows(candidate.len())
                .any(|w| w == candidate.as_bytes())
        }) {
            break candidate;
        }
        n = n.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
    };
    let mut out = Vec::new();
    for (head, bytes) in parts {
        out.extend_from_slice(format!("--{boundary}\r\n{head}\r\n\r\n").as_bytes());
        out.extend_from_slice(&bytes);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    Ok((boundary, out))
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use serde_json::json;

    use super::*;
    use crate::auth::Secret;
    use crate::descriptor::Method;

    fn param(field: &'static str, location: ParamLocation) -> Param {
        Param {
            field: field.into(),
            wire_name: field.into(),
            location,
            required: false,
            kind: ValueKind::Any,
            style: match location {
                ParamLocation::Path | ParamLocation::Header => ParamStyle::Simple,
                _ => ParamStyle::Form,
            },
            explode: location == ParamLocation::Query,
            allow_reserved: false,
            content_type: None,
        }
    }

    fn styled(
        field: &'static str,
        location: ParamLocation,
        style: ParamStyle,
        explode: bool,
    ) -> Param {
        Param {
            style,
            explode,
            ..param(field, location)
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
            content_type: "application/json".into(),
            body_required: false,
            security: Cow::Borrowed(&[]),
            wrap_output: false,
            json_response: false,
            graphql: None,
            workflow: None,
        }
    }

    fn args(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    fn uri(op: &Operation, v: Value) -> String {
        build(op, "http://h", &args(v), vec![], None)
            .unwrap()
            .uri()
            .to_string()
    }

    #[test]
    fn path_params_cannot_escape_their_segment() {
        let op = op("/repos/{id}/x", vec![param("id", ParamLocation::Path)]);
        let req = build(
            &op,
            "http://h/api/",
            &args(json!({"id": "a/../b c"})),
            vec![],
            None,
        )
        .unwrap();
        assert_eq!(req.uri().to_string(), "http://h/api/repos/a%2F..%2Fb%20c/x");
        for bad in ["..", ".", ""] {
            let err = build(&op, "http://h", &args(json!({ "id": bad })), vec![], None);
            assert!(err.unwrap_err().contains("must not be empty"), "{bad}");
        }
    }

    #[test]
    fn reserved_path_params_keep_their_slashes_but_not_traversal() {
        let mut name = param("name", ParamLocation::Path);
        name.allow_reserved = true;
        let op = op("/v1/{name}:run", vec![name]);
        assert_eq!(
            uri(&op, json!({"name": "projects/p 1/locations/l?#"})),
            "http://h/v1/projects/p%201/locations/l%3F%23:run"
        );
        for bad in ["projects/../x", "a//b", "/a", "a/.", ""] {
            let built = build(&op, "http://h", &args(json!({ "name": bad })), vec![], None);
            assert!(built.is_err(), "{bad}");
        }
    }

    #[test]
    fn path_styles() {
        let v = json!({"id": [3, 4], "o": {"a": 1, "b": 2}});
        let cases = [
            (ParamStyle::Simple, false, "/p/3,4/a,1,b,2"),
            (ParamStyle::Simple, true, "/p/3,4/a=1,b=2"),
            (ParamStyle::Label, false, "/p/.3,4/.a,1,b,2"),
            (ParamStyle::Label, true, "/p/.3.4/.a=1.b=2"),
            (ParamStyle::Matrix, false, "/p/;id=3,4/;o=a,1,b,2"),
            (ParamStyle::Matrix, true, "/p/;id=3;id=4/;a=1;b=2"),
        ];
        for (style, explode, expected) in cases {
            let o = op(
                "/p/{id}/{o}",
                vec![
                    styled("id", ParamLocation::Path, style, explode),
                    styled("o", ParamLocation::Path, style, explode),
                ],
            );
            assert_eq!(
                uri(&o, v.clone()),
                format!("http://h{expected}"),
                "{style:?} {explode}"
            );
        }
    }

    #[test]
    fn query_styles() {
        let cases = [
            (ParamStyle::Form, true, json!(["a", "b"]), "q=a&q=b"),
            (ParamStyle::Form, false, json!(["a", "b"]), "q=a%2Cb"),
            (ParamStyle::Form, true, json!({"x": 1, "y": "z"}), "x=1&y=z"),
            (ParamStyle::Form, false, json!({"x": 1}), "q=x%2C1"),
            (
                ParamStyle::SpaceDelimited,
                false,
                json!(["a", "b"]),
                "q=a%20b",
            ),
            (
                ParamStyle::PipeDelimited,
                false,
                json!(["a", "b"]),
                "q=a%7Cb",
            ),
            (
                ParamStyle::DeepObject,
                true,
                json!({"x": 1, "y": "z"}),
                "q%5Bx%5D=1&q%5By%5D=z",
            ),
        ];
        for (style, explode, value, expected) in cases {
            let o = op("/", vec![styled("q", ParamLocation::Query, style, explode)]);
            assert_eq!(
                uri(&o, json!({ "q": value })),
                format!("http://h/?{expected}"),
                "{style:?}"
            );
        }
        let mut reserved = param("q", ParamLocation::Query);
        reserved.allow_reserved = true;
        assert_eq!(
            uri(&op("/", vec![reserved]), json!({"q": "a/b:c d"})),
            "http://h/?q=a/b:c%20d"
        );
    }

    #[test]
    fn query_headers_auth_and_json_body() {
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
            vec![Applied::Header(
                "authorization".into(),
                Secret("Bearer s".into()),
            )],
            None,
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

    #[test]
    fn multipart_binary_and_text_bodies() {
        let mut file = param("file", ParamLocation::Body);
        file.kind = ValueKind::Binary;
        let mut o = op("/up", vec![file, param("note", ParamLocation::Body)]);
        o.body = BodyEncoding::Multipart;
        let req = build(
            &o,
            "http://h",
            &args(json!({"file": "aGk=", "note": "n"})),
            vec![],
            None,
        )
        .unwrap();
        let ct = req.headers()["content-type"].to_str().unwrap().to_owned();
        let boundary = ct.strip_prefix("multipart/form-data; boundary=").unwrap();
        let body = String::from_utf8(req.body().clone()).unwrap();
        assert_eq!(
            body,
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"file\"\r\nContent-Type: application/octet-stream\r\n\r\nhi\r\n--{boundary}\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nn\r\n--{boundary}--\r\n"
            )
        );
        let mut bin = op("/b", vec![param("body", ParamLocation::RequestBody)]);
        bin.body = BodyEncoding::Binary;
        bin.content_type = "image/png".into();
        let req = build(
            &bin,
            "http://h",
            &args(json!({"body": "AAEC"})),
            vec![],
            None,
        )
        .unwrap();
        assert_eq!(req.body(), &[0, 1, 2]);
        assert_eq!(req.headers()["content-type"], "image/png");
        let mut text = op("/t", vec![param("body", ParamLocation::RequestBody)]);
        text.body = BodyEncoding::Text;
        text.content_type = "application/xml".into();
        let req = build(
            &text,
            "http://h",
            &args(json!({"body": "<a/>"})),
            vec![],
            None,
        )
        .unwrap();
        assert_eq!(req.body(), b"<a/>");
    }

    /// A form or multipart body whose whole value is no object has no fields: an error
    /// before anything is sent, never an empty body.
    #[test]
    fn field_bodies_that_are_no_object_are_refused() {
        for (encoding, content_type) in [
            (BodyEncoding::Form, "application/x-www-form-urlencoded"),
            (BodyEncoding::Multipart, "multipart/form-data"),
        ] {
            let mut o = op("/f", vec![param("body", ParamLocation::RequestBody)]);
            o.body = encoding;
            o.content_type = content_type.into();
            for value in [json!("a=1"), json!([1, 2]), json!(3)] {
                let err =
                    build(&o, "http://h", &args(json!({"body": value})), vec![], None).unwrap_err();
                assert!(err.contains("is named fields: give an object"), "{err}");
            }
        }
    }

    /// OpenAPI 3.2's own `in: querystring` examples (Parameter Object Examples), byte
    /// for byte: form fields with `+` for spaces, JSON and a JSONPath string encoded as
    /// one whole; a QUERY request keeps its method and its body.
    #[test]
    fn querystring_parameters_as_the_specification_shows_them() {
        let whole = |media: &str| Param {
            content_type: Some(Cow::Owned(media.to_owned())),
            ..param("q", ParamLocation::QueryString)
        };
        let o = op("/foo", vec![whole("application/x-www-form-urlencoded")]);
        assert_eq!(
            uri(&o, json!({"q": {"foo": "a + b", "bar": true}})),
            "http://h/foo?bar=true&foo=a+%2B+b"
        );
        let o = op("/foo", vec![whole("application/json")]);
        assert_eq!(
            uri(&o, json!({"q": {"numbers": [1, 2], "flag": null}})),
            "http://h/foo?%7B%22flag%22%3Anull%2C%22numbers%22%3A%5B1%2C2%5D%7D"
        );
        let o = op("/foo", vec![whole("application/jsonpath")]);
        assert_eq!(
            uri(&o, json!({"q": "$.a.b[1:1]"})),
            "http://h/foo?%24.a.b%5B1%3A1%5D"
        );
        // A credential in the query joins it after the whole string.
        let req = build(
            &o,
            "http://h",
            &args(json!({"q": "$.a"})),
            vec![Applied::Query(
                "key".into(),
                crate::auth::Secret("s".into()),
            )],
            None,
        )
        .unwrap();
        assert_eq!(req.uri().to_string(), "http://h/foo?%24.a&key=s");
        let o = op("/foo", vec![whole("application/x-www-form-urlencoded")]);
        let err = build(&o, "http://h", &args(json!({"q": [1]})), vec![], None).unwrap_err();
        assert!(err.contains("give an object, not an array"), "{err}");

        let mut search = op("/cakes", vec![param("body", ParamLocation::RequestBody)]);
        search.method = Method::Query;
        let req = build(
            &search,
            "http://h",
            &args(json!({"body": {"flavour": "pink"}})),
            vec![],
            None,
        )
        .unwrap();
        assert_eq!(req.method().as_str(), "QUERY");
        assert_eq!(req.body(), br#"{"flavour":"pink"}"#);
        search.method = Method::parse("LINK").unwrap();
        let req = build(&search, "http://h", &args(json!({})), vec![], None).unwrap();
        assert_eq!(req.method().as_str(), "LINK");
    }

    /// OpenAPI 3.2 `style: cookie`, as its style table says: `n1=v1; n2=v2`, nothing
    /// percent-encoded; a `;` in a value is refused rather than sent as another cookie.
    #[test]
    fn cookie_style_pairs_are_sent_as_written() {
        let cookie = |field: &'static str, explode: bool| Param {
            style: ParamStyle::Cookie,
            explode,
            ..param(field, ParamLocation::Cookie)
        };
        let o = op(
            "/c",
            vec![
                cookie("greeting", true),
                cookie("ids", true),
                cookie("pair", false),
            ],
        );
        let req = build(
            &o,
            "http://h",
            &args(json!({"greeting": "Hello%2C world!", "ids": [1, 2], "pair": ["a", "b"]})),
            vec![],
            None,
        )
        .unwrap();
        assert_eq!(
            req.headers()["cookie"],
            "greeting=Hello%2C world!; ids=1; ids=2; pair=a,b"
        );
        let err = build(
            &o,
            "http://h",
            &args(json!({"greeting": "a; b=c"})),
            vec![],
            None,
        )
        .unwrap_err();
        assert!(err.contains("cannot hold `;`"), "{err}");
    }
}
