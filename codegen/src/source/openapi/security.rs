//! `securitySchemes` and `security` requirements. Credentials are never arguments:
//! each scheme reads environment variables named `<API>_<SCHEME>` (+ `_USERNAME` /
//! `_PASSWORD` for basic auth), listed in the catalog metadata.

use serde_json::Value;

use super::{Doc, escape};
use crate::diagnostics::codes;
use crate::ir::{KeyPlacement, SchemeKind, SecurityScheme};

/// `PETSTORE_API_KEY` for API `petstore`, scheme `api_key`.
pub fn env_name(api: &str, scheme: &str) -> String {
    let raw = format!("{api}_{scheme}");
    let mut out = String::new();
    for c in heck::ToShoutySnakeCase::to_shouty_snake_case(raw.as_str()).chars() {
        out.push(if c.is_ascii_alphanumeric() { c } else { '_' });
    }
    out
}

pub fn schemes(doc: &mut Doc<'_>) -> Vec<SecurityScheme> {
    let Some(Value::Object(map)) = doc.root.pointer("/components/securitySchemes") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (name, value) in map {
        let pointer = format!("/components/securitySchemes/{}", escape(name));
        let (value, pointer) = match super::deref(doc.root, value, pointer.clone()) {
            Ok(v) => v,
            Err(reference) => {
                doc.warn(
                    codes::REFERENCE,
                    &pointer,
                    format!("cannot resolve `{reference}`; scheme skipped"),
                    "fix the reference",
                );
                continue;
            }
        };
        let env = env_name(&doc.api_name, name);
        let description = value
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let kind = match (
            value.get("type").and_then(Value::as_str),
            value.get("scheme").and_then(Value::as_str),
        ) {
            (Some("apiKey"), _) => {
                let key = value
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or("X-API-Key")
                    .to_owned();
                let placement = match value.get("in").and_then(Value::as_str) {
                    Some("query") => KeyPlacement::Query(key),
                    Some("cookie") => KeyPlacement::Cookie(key),
                    _ => KeyPlacement::Header(key),
                };
                SchemeKind::ApiKey {
                    key_env: env,
                    placement,
                }
            }
            (Some("http"), Some(s)) if s.eq_ignore_ascii_case("basic") => SchemeKind::Basic {
                username_env: format!("{env}_USERNAME"),
                password_env: format!("{env}_PASSWORD"),
            },
            (Some("http"), Some(s)) if s.eq_ignore_ascii_case("bearer") => {
                SchemeKind::Bearer { token_env: env }
            }
            (Some("oauth2" | "openIdConnect"), _) => SchemeKind::Bearer { token_env: env },
            (kind, scheme) => {
                doc.warn(
                    codes::SECURITY,
                    &pointer,
                    format!(
                        "security scheme `{name}` ({} {}) is not supported; operations needing only it are sent without credentials",
                        kind.unwrap_or("?"),
                        scheme.unwrap_or("")
                    ),
                    "supported: apiKey (header, query, cookie), http basic, http bearer, oauth2, openIdConnect",
                );
                continue;
            }
        };
        out.push(SecurityScheme {
            name: name.clone(),
            kind,
            description,
        });
    }
    out
}

/// An operation's requirements (`security` of the operation, else of the document):
/// alternatives in order, each a list of scheme names; `{}` allows anonymous calls.
pub fn requirements(
    doc: &mut Doc<'_>,
    op: &Value,
    pointer: &str,
    schemes: &[SecurityScheme],
) -> Vec<Vec<String>> {
    let (list, at) = match op.get("security") {
        Some(v) => (v, format!("{pointer}/security")),
        None => match doc.root.get("security") {
            Some(v) => (v, "/security".to_owned()),
            None => return Vec::new(),
        },
    };
    let Value::Array(alternatives) = list else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, alternative) in alternatives.iter().enumerate() {
        let Value::Object(names) = alternative else {
            continue;
        };
        let mut requirement = Vec::new();
        let mut usable = true;
        for name in names.keys() {
            if schemes.iter().any(|s| s.name == *name) {
                requirement.push(name.clone());
            } else {
                usable = false;
                doc.warn(
                    codes::SECURITY,
                    &format!("{at}/{i}"),
                    format!("security requirement names `{name}`, which is not a usable scheme; alternative skipped"),
                    "declare it under components.securitySchemes with a supported type",
                );
            }
        }
        if usable {
            out.push(requirement);
        }
    }
    out
}
