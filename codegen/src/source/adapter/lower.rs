//! The adapter document: identity, target, auth and metadata.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use super::fields::{Fields, Reader, Text};
use super::operations;
use crate::diagnostics::{Diagnostic, codes};
use crate::ir;
use crate::source::base_url;
use crate::source::yaml::Node;

const KNOWN: &[&str] = &[
    "name",
    "type",
    "version",
    "description",
    "target",
    "operations",
    "author",
    "tags",
    "triggers",
    "created",
    "modified",
    "auth",
    "trust",
    "rate_limits",
];

pub fn api(r: &mut Reader<'_>, root: &Node, docs: String, yaml_start: usize) -> Option<ir::Api> {
    let mut f = r.fields(root, "the adapter front matter")?;
    // A mapping's own span is its first key; point "missing field" at the opening fence
    // line's successor instead, which is where the front matter starts.
    f.span = yaml_start..yaml_start;

    let name = r.req_str(
        &mut f,
        "name",
        "add `name: my-api` (the file is `my-api-adapter.md`)",
    );
    if let Some(name) = &name {
        check_name(r, name);
    }
    check_type(r, &mut f);
    let version = r.req_str(&mut f, "version", "add `version: \"1.0.0\"`");
    if let Some(v) = &version
        && !is_semver(&v.value)
    {
        r.push(
            Diagnostic::error(
                codes::VERSION,
                format!("`{}` is not a semantic version", v.value),
            )
            .at(r.location(v.span.clone()))
            .label("expected MAJOR.MINOR.PATCH")
            .help("write the version as three numbers, e.g. `version: \"1.0.0\"`"),
        );
    }
    let description = r.req_str(
        &mut f,
        "description",
        "add `description: ...`, one sentence on what the API is for",
    );
    let mut meta = BTreeMap::new();
    let base_url = match f.get("target") {
        Some(node) => target(r, node, &mut meta),
        None => {
            r.missing(&f, "target", "add `target:` with `base_url: https://...`");
            None
        }
    };
    let auth = match f.get("auth") {
        Some(node) => auth(r, node, &mut meta),
        None => None,
    };
    let mut operations = match f.get("operations") {
        Some(node) => operations::all(
            r,
            node,
            f.key_span("operations").unwrap_or(node.span.clone()),
        ),
        None => {
            r.missing(
                &f,
                "operations",
                "add `operations:` with at least one of create/read/update/delete/execute",
            );
            Vec::new()
        }
    };

    for key in ["author", "created", "modified"] {
        if let Some(t) = r.opt_str(&mut f, key) {
            meta.insert(key.to_owned(), Value::String(t.value));
        }
    }
    for key in ["tags", "triggers"] {
        if let Some(list) = r.opt_str_list(&mut f, key) {
            meta.insert(
                key.to_owned(),
                list.into_iter().map(|t| Value::String(t.value)).collect(),
            );
        }
    }
    for key in ["trust", "rate_limits"] {
        if let Some(node) = f.get(key)
            && let Some(mut fields) = r.fields(node, key)
        {
            if key == "trust" {
                check_trust_level(r, &mut fields);
            }
            meta.insert(key.to_owned(), node.to_json());
        }
    }
    meta.extend(r.finish(f, KNOWN));
    // An adapter has one auth scheme, named after the adapter, and every operation needs it.
    let auth = auth.map(|kind| ir::SecurityScheme {
        name: name.as_ref().map(|n| n.value.clone()).unwrap_or_default(),
        kind,
        description: None,
        scopes: BTreeMap::new(),
    });
    if let Some(scheme) = &auth {
        for op in &mut operations {
            op.security = vec![vec![scheme.name.clone()]];
        }
    }

    Some(ir::Api {
        name: name?.value,
        version: version?.value,
        description: description?.value,
        docs,
        base_url: base_url?,
        schemes: auth.into_iter().collect(),
        operations,
        definitions: BTreeMap::new(),
        meta,
        source: Some(r.location(root.span.clone())),
        graphql_types: None,
    })
}

fn check_name(r: &mut Reader<'_>, name: &Text) {
    let valid = name
        .value
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic())
        && name
            .value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if !valid {
        r.push(
            Diagnostic::error(
                codes::NAME,
                format!("`{}` is not a valid adapter name", name.value),
            )
            .at(r.location(name.span.clone()))
            .label("letters, digits, `-` and `_`, starting with a letter")
            .help("rename the adapter, e.g. `name: github-api`"),
        );
        return;
    }
    let expected = format!("{}-adapter.md", name.value);
    let file_name = Path::new(&r.file.path)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("");
    if file_name != expected {
        r.push(
            Diagnostic::warning(
                codes::FILE_NAME,
                format!(
                    "the file name `{file_name}` does not match the adapter name `{}`",
                    name.value
                ),
            )
            .at(r.location(name.span.clone()))
            .label("the name in the front matter is authoritative")
            .help(format!("rename the file to `{expected}`")),
        );
    }
}

fn check_type(r: &mut Reader<'_>, f: &mut Fields<'_>) {
    let Some(t) = r.req_str(f, "type", "add `type: adapter`") else {
        return;
    };
    if t.value != "adapter" {
        r.push(
            Diagnostic::error(
                codes::NOT_AN_ADAPTER,
                format!("`type` is `{}`, not `adapter`", t.value),
            )
            .at(r.location(t.span))
            .label("expected `adapter`")
            .help("adapter files must declare `type: adapter`"),
        );
    }
}

/// `MAJOR.MINOR.PATCH` with optional `-pre` and `+build` (semver 2.0.0).
pub fn is_semver(v: &str) -> bool {
    let core = v.split(['-', '+']).next().unwrap_or("");
    let rest = &v[core.len()..];
    let numbers: Vec<&str> = core.split('.').collect();
    let numeric = |n: &&str| {
        !n.is_empty()
            && n.chars().all(|c| c.is_ascii_digit())
            && (n.len() == 1 || !n.starts_with('0'))
    };
    numbers.len() == 3
        && numbers.iter().all(numeric)
        && rest
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-+.".contains(c))
        && !rest.ends_with(['.', '-', '+'])
}

fn target(r: &mut Reader<'_>, node: &Node, meta: &mut BTreeMap<String, Value>) -> Option<String> {
    let mut f = r.fields(node, "target")?;
    let base_url = r.req_str(
        &mut f,
        "base_url",
        "add `base_url: https://api.example.com`",
    );
    for (key, expected) in [
        ("transport", "http"),
        ("protocol", "rest"),
        ("serialization", "json"),
    ] {
        match r.opt_str(&mut f, key) {
            Some(t) if t.value != expected => r.push(
                Diagnostic::error(codes::TARGET, format!("unsupported {key} `{}`", t.value))
                    .at(r.location(t.span))
                    .label(format!("toolwright supports `{expected}`"))
                    .help(format!("set `{key}: {expected}`")),
            ),
            Some(_) => {}
            None if f.key_span(key).is_none() => r.push(
                Diagnostic::warning(
                    codes::MISSING_FIELD,
                    format!("target has no `{key}`; assuming `{expected}`"),
                )
                .at(r.location(f.span.clone()))
                .help(format!("add `{key}: {expected}` to the target")),
            ),
            None => {}
        }
    }
    for (k, v) in r.finish(f, &["base_url", "transport", "protocol", "serialization"]) {
        meta.insert(format!("target.{k}"), v);
    }
    let url = base_url?;
    let label = match base_url::classify(&url.value) {
        base_url::Verdict::Secure => return Some(url.value),
        base_url::Verdict::Refused(why) => why,
        base_url::Verdict::Relative | base_url::Verdict::Cleartext => {
            "must be https, or http on a loopback host".to_owned()
        }
    };
    refuse_url(r, codes::BASE_URL, "base URL", &url, label);
    None
}

/// The finding for a URL credentials must not be sent to.
fn refuse_url(r: &mut Reader<'_>, code: &'static str, what: &str, url: &Text, why: String) {
    r.push(
        Diagnostic::error(code, format!("{what} `{}` is not allowed", url.value))
            .at(r.location(url.span.clone()))
            .label(why)
            .help("use `https://...`; plain `http://` is only for localhost, 127.0.0.1 or [::1]"),
    );
}

/// Keys whose string value would be a credential written into the file.
const LITERAL_CREDENTIAL_KEYS: &[&str] = &[
    "token",
    "key",
    "api_key",
    "password",
    "secret",
    "username",
    "client_secret",
    "access_token",
];

fn auth(
    r: &mut Reader<'_>,
    node: &Node,
    meta: &mut BTreeMap<String, Value>,
) -> Option<ir::SchemeKind> {
    let mut f = r.fields(node, "auth")?;
    let mut literal = false;
    let entries: Vec<(String, Node)> = f
        .entries()
        .map(|(k, _, v)| (k.to_owned(), v.clone()))
        .collect();
    for (key, value) in &entries {
        if LITERAL_CREDENTIAL_KEYS.contains(&key.as_str()) && value.as_str().is_some() {
            literal = true;
            f.get(key);
            r.push(
                Diagnostic::error(
                    codes::LITERAL_CREDENTIAL,
                    format!("literal credential in `auth.{key}`"),
                )
                .at(r.location(value.span.clone()))
                .label("credentials must not be written into adapter files")
                .help(format!(
                    "put the value in an environment variable and name it: `{}_env: MY_API_{}`",
                    if *key == "key" || *key == "api_key" {
                        "key"
                    } else {
                        key.as_str()
                    },
                    key.to_ascii_uppercase()
                )),
            );
        }
    }
    let kind = r.req_str(
        &mut f,
        "type",
        "add `type: bearer` (or none, api_key, basic, oauth2)",
    )?;
    if literal {
        // The finding above already says what to write instead; don't pile on.
        f.use_all();
        r.finish(f, &[]);
        return None;
    }
    let env = |r: &mut Reader<'_>, f: &mut Fields<'_>, key: &str| -> Option<String> {
        let t = r.req_str(
            f,
            key,
            &format!(
                "add `{key}: MY_API_{}`, the environment variable holding it",
                key.trim_end_matches("_env").to_ascii_uppercase()
            ),
        )?;
        check_env_name(r, &t).then_some(t.value)
    };
    let result = match kind.value.as_str() {
        "none" => None,
        "bearer" => {
            env(r, &mut f, "token_env").map(|token_env| ir::SchemeKind::Bearer { token_env })
        }
        "api_key" => {
            let key_env = env(r, &mut f, "key_env");
            let header = r.opt_str(&mut f, "header_name").map(|t| t.value);
            let query = r.opt_str(&mut f, "query_param").map(|t| t.value);
            let placement = match (query, header) {
                (Some(q), _) => ir::KeyPlacement::Query(q),
                (None, h) => ir::KeyPlacement::Header(h.unwrap_or_else(|| "X-API-Key".to_owned())),
            };
            key_env.map(|key_env| ir::SchemeKind::ApiKey { key_env, placement })
        }
        "oauth2" => {
            // Client credentials: toolwright fetches and refreshes the token itself.
            let token_url = r.req_str(
                &mut f,
                "token_url",
                "add `token_url: https://auth.example.com/oauth/token`, the token endpoint",
            );
            let token_url = token_url.filter(|url| {
                let why = match base_url::classify(&url.value) {
                    // Relative: resolved against the base URL at run time.
                    base_url::Verdict::Secure | base_url::Verdict::Relative => return true,
                    base_url::Verdict::Refused(why) => why,
                    base_url::Verdict::Cleartext => {
                        "the client secret would travel in clear text".to_owned()
                    }
                };
                refuse_url(r, codes::AUTH, "token URL", url, why);
                false
            });
            let client_id_env = env(r, &mut f, "client_id_env");
            let client_secret_env = env(r, &mut f, "client_secret_env");
            let token_env = env(r, &mut f, "token_env");
            Some(ir::SchemeKind::ClientCredentials {
                token_url: token_url?.value,
                client_id_env: client_id_env?,
                client_secret_env: client_secret_env?,
                token_env: token_env?,
            })
        }
        "basic" => {
            let username_env = env(r, &mut f, "username_env");
            let password_env = env(r, &mut f, "password_env");
            Some(ir::SchemeKind::Basic {
                username_env: username_env?,
                password_env: password_env?,
            })
        }
        other => {
            r.push(
                Diagnostic::error(codes::AUTH, format!("unknown auth type `{other}`"))
                    .at(r.location(kind.span.clone()))
                    .help("use one of: none, bearer, api_key, basic, oauth2"),
            );
            None
        }
    };
    let extra = r.finish(
        f,
        &[
            "type",
            "token_env",
            "key_env",
            "header_name",
            "query_param",
            "username_env",
            "password_env",
            "token_url",
            "client_id_env",
            "client_secret_env",
        ],
    );
    for (k, v) in extra {
        meta.insert(format!("auth.{k}"), v);
    }
    result
}

/// Trust levels the runtime's gate knows (`toolwright::gate`): `untrusted` APIs get
/// every call that changes something confirmed.
const TRUST_LEVELS: &[&str] = &["official", "verified", "community", "untrusted"];

fn check_trust_level(r: &mut Reader<'_>, fields: &mut Fields<'_>) {
    let Some(level) = r.opt_str(fields, "level") else {
        return;
    };
    if !TRUST_LEVELS.contains(&level.value.as_str()) {
        r.push(
            Diagnostic::warning(
                codes::UNKNOWN_VALUE,
                format!("unknown trust level `{}`", level.value),
            )
            .at(r.location(level.span))
            .label("kept as metadata; the gate treats it like no level")
            .help(format!("use one of: {}", TRUST_LEVELS.join(", "))),
        );
    }
}

/// An environment variable name, and not a credential pasted where a name belongs.
fn check_env_name(r: &mut Reader<'_>, t: &Text) -> bool {
    let v = &t.value;
    let is_name = v
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && v.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    let looks_secret = v.len() >= 20
        && v.chars().any(|c| c.is_ascii_lowercase())
        && v.chars().any(|c| c.is_ascii_digit());
    if is_name && !looks_secret {
        return true;
    }
    let (code, message) = if looks_secret || !is_name && v.len() >= 16 {
        (
            codes::LITERAL_CREDENTIAL,
            "this looks like a credential, not an environment variable name",
        )
    } else {
        (codes::AUTH, "not a valid environment variable name")
    };
    r.push(
        Diagnostic::error(code, message)
            .at(r.location(t.span.clone()))
            .label("expected a name like `TRACKER_TOKEN`")
            .help("store the credential in an environment variable and write its name here"),
    );
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn semver() {
        for ok in ["1.0.0", "0.1.2-alpha.1", "10.20.30+build.5"] {
            assert!(is_semver(ok), "{ok}");
        }
        for bad in ["1.0", "1", "01.0.0", "1.0.0.", "v1.0.0", "1.a.0", ""] {
            assert!(!is_semver(bad), "{bad}");
        }
    }
}
