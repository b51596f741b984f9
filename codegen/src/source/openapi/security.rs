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
