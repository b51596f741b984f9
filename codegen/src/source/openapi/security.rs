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
            (Some("oauth2"), _) => match client_credentials_url(value) {
                // A flow toolwright can run itself: no token needs to be handed in.
                Some(token_url) => {
                    if let Some(why) = insecure_token_url(&token_url) {
                        doc.warn(
                            codes::SECURITY,
                            &format!("{pointer}/flows/clientCredentials/tokenUrl"),
                            format!("token URL `{token_url}`: {why}; calls will be refused until the service sets another"),
                            "use an https token URL, or set one with `ExecutorBuilder::token_url`",
                        );
                    }
                    SchemeKind::ClientCredentials {
                        client_id_env: format!("{env}_CLIENT_ID"),
                        client_secret_env: format!("{env}_CLIENT_SECRET"),
                        token_env: env,
                        token_url,
                    }
                }
                None => SchemeKind::Bearer { token_env: env },
            },
            (Some("openIdConnect"), _) => SchemeKind::Bearer { token_env: env },
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
        // Every flow's scopes, with what each grants (Discovery documents describe
        // them; they decide what a token must be issued for).
        let scopes = value
            .get("flows")
            .and_then(Value::as_object)
            .into_iter()
            .flat_map(|flows| flows.values())
            .filter_map(|flow| flow.get("scopes").and_then(Value::as_object))
            .flatten()
            .map(|(scope, what)| (scope.clone(), what.as_str().unwrap_or("").to_owned()))
            .collect();
        out.push(SecurityScheme {
            name: name.clone(),
            kind,
            description,
            scopes,
        });
    }
    out
}

/// Why a token URL cannot receive a client secret, if it cannot.
fn insecure_token_url(url: &str) -> Option<String> {
    use crate::source::base_url::{Verdict, classify};
    match classify(url) {
        Verdict::Secure | Verdict::Relative => None,
        Verdict::Cleartext => Some("the client secret would travel in clear text".to_owned()),
        Verdict::Refused(why) => Some(why),
    }
}

/// The token URL of an OAuth 2 scheme's client credentials flow.
fn client_credentials_url(scheme: &Value) -> Option<String> {
    scheme
        .pointer("/flows/clientCredentials/tokenUrl")
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|u| !u.is_empty())
        .map(str::to_owned)
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
        None => match doc.root.tree().get("security") {
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
    // OpenAPI 3.2: consumers should refrain from a `deprecated` scheme. The runtime
    // applies the first alternative whose credentials are at hand, so the ones without
    // a deprecated scheme go first (in their order); a deprecated one still serves when
    // it is all a caller has.
    if doc.version == super::Version::V32 {
        out.sort_by_key(|requirement| requirement.iter().any(|name| deprecated(doc, name)));
    }
    out
}

/// Whether the scheme `name` is marked `deprecated` (OpenAPI 3.2).
fn deprecated(doc: &Doc<'_>, name: &str) -> bool {
    doc.root
        .pointer(&format!("/components/securitySchemes/{}", escape(name)))
        .and_then(|s| super::deref(doc.root, s, String::new()).ok())
        .and_then(|(s, _)| s.get("deprecated"))
        .and_then(Value::as_bool)
        == Some(true)
}

/// What OpenAPI 3.2 adds to security schemes, for the catalog's metadata (absent when
/// no scheme uses it, so older documents' catalogs are unchanged): `deprecated`,
/// `oauth2MetadataUrl`, and the device authorization flow — whose token a user obtains
/// on another device and hands in like any bearer token (`<API>_<SCHEME>`).
pub fn v32_notes(doc: &Doc<'_>) -> Option<Value> {
    let Some(Value::Object(map)) = doc.root.pointer("/components/securitySchemes") else {
        return None;
    };
    let mut notes = serde_json::Map::new();
    for (name, scheme) in map {
        let Ok((scheme, _)) = super::deref(doc.root, scheme, String::new()) else {
            continue;
        };
        let mut note = serde_json::Map::new();
        if scheme.get("deprecated").and_then(Value::as_bool) == Some(true) {
            note.insert("deprecated".into(), Value::Bool(true));
        }
        if let Some(url) = scheme.get("oauth2MetadataUrl") {
            note.insert("oauth2MetadataUrl".into(), url.clone());
        }
        if let Some(flow) = scheme.pointer("/flows/deviceAuthorization") {
            let mut device = serde_json::Map::new();
            for key in ["deviceAuthorizationUrl", "tokenUrl", "refreshUrl"] {
                if let Some(v) = flow.get(key) {
                    device.insert(key.into(), v.clone());
                }
            }
            device.insert(
                "token".into(),
                Value::String(format!(
                    "obtained through the device flow and handed in as {}",
                    env_name(&doc.api_name, name)
                )),
            );
            note.insert("deviceAuthorization".into(), Value::Object(device));
        }
        if !note.is_empty() {
            notes.insert(name.clone(), Value::Object(note));
        }
    }
    (!notes.is_empty()).then_some(Value::Object(notes))
}
