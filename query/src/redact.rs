//! Credentials taken out of text before it leaves the process: the report, the
//! collection artifact, provider exports and MCP `tools/list`. API documents carry
//! real ones more often than one would think — a key pasted into an example, a
//! description that says "use `Authorization: Bearer …`", a server URL with a password.
//!
//! Two rules, both by shape so that they hold wherever the credential stands:
//! - [`text`]: a token of a known format (`ghp_…`, `sk_live_…`, `sk-ant-…`, `AKIA…`,
//!   JWTs, …) at any word start, also glued to a key (`token=ghp_…`); the token after
//!   `Bearer`/`Basic`, or after a credential name and `=` or `:`, when it looks random
//!   (letters and digits mixed, or long and varied); the password of `user:pass@` in a
//!   URL; a PEM private key block.
//! - [`value`]: any string under a credential-named key (`password`, `api_key`, …) and
//!   the samples (`default`, `example(s)`, `enum`, `const`) of a credential parameter or
//!   property, plus [`text`] on every other string.
//!
//! What is replaced becomes `<redacted>`. Ordinary prose, identifiers, hex digests
//! and UUIDs are left alone: a token must look like one, not merely be long.

use std::borrow::Cow;
use std::collections::BTreeSet;

use serde_json::Value;

/// What a credential is replaced with.
pub const REDACTED: &str = "<redacted>";

/// Keys whose string values are credentials, compared lowercase.
const SECRET_NAMES: &[&str] = &[
    "password",
    "passwd",
    "secret",
    "client_secret",
    "token",
    "access_token",
    "refresh_token",
    "id_token",
    "api_key",
    "apikey",
    "api-key",
    "x-api-key",
    "authorization",
    "proxy-authorization",
    "cookie",
    "session",
    "x-auth-token",
    "private_key",
];

/// Whether a key (a property, parameter or field name) names a credential.
pub fn is_secret_name(key: &str) -> bool {
    // No lowercase copy: this runs for every key of every exported schema.
    SECRET_NAMES.iter().any(|n| n.eq_ignore_ascii_case(key))
}

/// A known token format: its prefix, the characters of its body, and the body's
/// shortest length (well under the real one, so a cut-off token is still caught).
struct Format {
    prefix: &'static str,
    body: fn(u8) -> bool,
    min: usize,
}

fn alnum(b: u8) -> bool {
    b.is_ascii_alphanumeric()
}
fn word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}
fn dashed(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}
fn dotted(b: u8) -> bool {
    dashed(b) || b == b'.'
}
fn upper(b: u8) -> bool {
    b.is_ascii_uppercase() || b.is_ascii_digit()
}

/// The formats recognised anywhere. Each is a published prefix of a provider's
/// secret tokens (publishable keys such as Stripe's `pk_` are not secrets).
const FORMATS: &[Format] = &[
    Format {
        prefix: "ghp_",
        body: alnum,
        min: 20,
    },
    Format {
        prefix: "gho_",
        body: alnum,
        min: 20,
    },
    Format {
        prefix: "ghs_",
        body: alnum,
        min: 20,
    },
    Format {
        prefix: "ghu_",
        body: alnum,
        min: 20,
    },
    Format {
        prefix: "ghr_",
        body: alnum,
        min: 20,
    },
    Format {
        prefix: "github_pat_",
        body: word,
        min: 20,
    },
    Format {
        prefix: "glpat-",
        body: dashed,
        min: 16,
    },
    Format {
        prefix: "sk_live_",
        body: alnum,
        min: 10,
    },
    Format {
        prefix: "sk_test_",
        body: alnum,
        min: 10,
    },
    Format {
        prefix: "rk_live_",
        body: alnum,
        min: 10,
    },
    Format {
        prefix: "rk_test_",
        body: alnum,
        min: 10,
    },
    Format {
        prefix: "whsec_",
        body: alnum,
        min: 16,
    },
    Format {
        prefix: "sk-proj-",
        body: dashed,
        min: 16,
    },
    Format {
        prefix: "sk-ant-",
        body: dashed,
        min: 16,
    },
    Format {
        prefix: "sk-",
        body: dashed,
        min: 20,
    },
    Format {
        prefix: "xoxb-",
        body: dashed,
        min: 10,
    },
    Format {
        prefix: "xoxp-",
        body: dashed,
        min: 10,
    },
    Format {
        prefix: "xoxa-",
        body: dashed,
        min: 10,
    },
    Format {
        prefix: "xoxr-",
        body: dashed,
        min: 10,
    },
    Format {
        prefix: "xoxs-",
        body: dashed,
        min: 10,
    },
    Format {
        prefix: "xapp-",
        body: dashed,
        min: 10,
    },
    Format {
        prefix: "AKIA",
        body: upper,
        min: 16,
    },
    Format {
        prefix: "ASIA",
        body: upper,
        min: 16,
    },
    Format {
        prefix: "AIza",
        body: dashed,
        min: 30,
    },
    Format {
        prefix: "ya29.",
        body: dotted,
        min: 20,
    },
    Format {
        prefix: "hf_",
        body: alnum,
        min: 30,
    },
    Format {
        prefix: "npm_",
        body: alnum,
        min: 30,
    },
    Format {
        prefix: "pypi-",
        body: dashed,
        min: 40,
    },
    Format {
        prefix: "shpat_",
        body: alnum,
        min: 24,
    },
    Format {
        prefix: "shpss_",
        body: alnum,
        min: 24,
    },
    Format {
        prefix: "dop_v1_",
        body: alnum,
        min: 32,
    },
    Format {
        prefix: "SG.",
        body: dotted,
        min: 30,
    },
    Format {
        prefix: "eyJ",
        body: dotted,
        min: 20,
    },
];

/// Words after which the next token is a credential (`Authorization: Bearer x`).
const SCHEMES: &[&str] = &["bearer", "basic", "token"];

/// `text` with every credential it holds replaced by [`REDACTED`]; borrowed when there
/// is none (the usual case, so a catalog's texts are not copied).
pub fn text(text: &str) -> Cow<'_, str> {
    let spans = find(text);
    if spans.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (start, end) in spans {
        if start < at {
            // Overlaps the previous span (already replaced).
            at = at.max(end);
            continue;
        }
        out.push_str(&text[at..start]);
        out.push_str(REDACTED);
        at = end;
    }
    out.push_str(&text[at..]);
    Cow::Owned(out)
}

/// Redacts in place every credential in a JSON value (see the module's rules); the
/// strings replaced whole are added to `found`, so that the same values can be taken
/// out of text that has no structure (a source excerpt) with [`known`].
pub fn value(value: &mut Value, found: &mut BTreeSet<String>) {
    walk(value, None, found);
}

/// Replaces every occurrence of the `found` values in `text`.
pub fn known<'t>(text: &'t str, found: &BTreeSet<String>) -> Cow<'t, str> {
    let mut out = Cow::Borrowed(text);
    for secret in found.iter().filter(|s| s.len() >= 4) {
        if out.contains(secret.as_str()) {
            out = Cow::Owned(out.replace(secret.as_str(), REDACTED));
        }
    }
    out
}

fn walk(value: &mut Value, key: Option<&str>, found: &mut BTreeSet<String>) {
    match value {
        Value::String(s) => {
            let named = key.is_some_and(is_secret_name);
            if named && !s.is_empty() {
                found.insert(std::mem::replace(s, REDACTED.into()));
            } else if let Cow::Owned(clean) = text(s) {
                if clean == REDACTED {
                    found.insert(std::mem::take(s));
                }
                *s = clean;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| walk(v, key, found)),
        // A schema's `dependentRequired` lists property names under property names
        // (`client_secret: [grant_type]`): names, never a credential's value.
        Value::Object(map) if key == Some("dependentRequired") => {
            map.values_mut().for_each(|v| walk(v, Some(""), found));
        }
        Value::Object(map) => {
            // A parameter row names its credential in `name`, a schema its property:
            // their samples are the credential's.
            let credential = key.is_some_and(is_secret_name)
                || map
                    .get("name")
                    .and_then(Value::as_str)
                    .is_some_and(is_secret_name);
            for (k, v) in map.iter_mut() {
                let is_sample = matches!(
                    k.as_str(),
                    "default" | "examples" | "example" | "const" | "enum" | "x-example"
                );
                if credential && k == "enum" {
                    enumeration(v, found);
                    continue;
                }
                if credential && is_sample {
                    sample(v, found);
                    continue;
                }
                // What describes the credential further (a parameter's `schema` or
                // `content`, a schema's `items` or `allOf` branches) is the credential's
                // too; its `properties` are named by their own keys.
                let inherits = credential
                    && match v {
                        Value::Object(_) => !matches!(
                            k.as_str(),
                            "properties"
                                | "patternProperties"
                                | "$defs"
                                | "definitions"
                                | "dependentSchemas"
                        ),
                        Value::Array(_) => {
                            matches!(k.as_str(), "allOf" | "anyOf" | "oneOf" | "prefixItems")
                        }
                        _ => false,
                    };
                // `name` itself is the credential's name, not its value.
                let key = match k.as_str() {
                    _ if inherits => "secret",
                    "name" => "",
                    other => other,
                };
                walk(v, Some(key), found);
            }
        }
        _ => {}
    }
}

/// A credential's `enum`: its values taken out like any sample's, except plain words
/// (`bearer`, `active`: letters and `_`, at most 24). An enum is a contract the typed
/// client and the argument check hold to, and a plain word names a kind, not a secret.
pub fn enumeration(values: &mut Value, found: &mut BTreeSet<String>) {
    match values {
        Value::Array(items) => items.iter_mut().for_each(|v| enumeration(v, found)),
        Value::String(s) if is_plain_word(s) => {}
        other => sample(other, found),
    }
}

fn is_plain_word(s: &str) -> bool {
    !s.is_empty() && s.len() <= 24 && s.bytes().all(|b| b.is_ascii_alphabetic() || b == b'_')
}

/// A credential's sample, whatever its shape (a string, a list of them, OpenAPI's
/// `examples: {name: {value: …}}`): every string taken out (and added to `found`),
/// except what describes an example (its `summary`, `description`), which is prose
/// and scrubbed as such.
pub fn sample(value: &mut Value, found: &mut BTreeSet<String>) {
    match value {
        Value::String(s) if !s.is_empty() => {
            found.insert(std::mem::replace(s, REDACTED.into()));
        }
        Value::Array(items) => items.iter_mut().for_each(|v| sample(v, found)),
        Value::Object(map) => {
            for (k, v) in map.iter_mut() {
                if matches!(k.as_str(), "summary" | "description") {
                    walk(v, Some(k), found);
                } else {
                    sample(v, found);
                }
            }
        }
        _ => {}
    }
}

/// The byte spans of `text` to replace, in order (they may overlap).
fn find(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        // `_` and `-` join words here: `sort_key=…` is not a `key=…`.
        let starts_word = i == 0 || !dashed(bytes[i - 1]);
        if starts_word && b.is_ascii_alphanumeric() {
            if let Some(end) = known_format(bytes, i) {
                spans.push((i, end));
                i = end;
                continue;
            }
            if let Some(span) = after_keyword(text, i) {
                spans.push(span);
                i = span.1;
                continue;
            }
        }
        if b == b':'
            && bytes[i..].starts_with(b"://")
            && let Some(span) = url_password(bytes, i + 3)
        {
            spans.push(span);
            i = span.1;
            continue;
        }
        if b == b'-'
            && bytes[i..].starts_with(b"-----BEGIN ")
            && let Some(end) = pem_block(text, i)
        {
            spans.push((i, end));
            i = end;
            continue;
        }
        i += 1;
    }
    spans
}

/// For each first byte of a format's prefix, the set of second bytes (all ASCII) that
/// follow it: a word is compared with the formats only when its first two bytes begin
/// one. Most words begin none, and this runs at every word of every text that leaves
/// the process (a tenth of generating Microsoft Graph went to comparing prefixes).
const PREFIX_STARTS: [u128; 256] = {
    let mut table = [0u128; 256];
    let mut i = 0;
    while i < FORMATS.len() {
        let prefix = FORMATS[i].prefix.as_bytes();
        assert!(prefix.len() >= 2 && prefix[1] < 128);
        table[prefix[0] as usize] |= 1 << prefix[1];
        i += 1;
    }
    table
};

/// The end of a known-format token starting at `at`.
fn known_format(bytes: &[u8], at: usize) -> Option<usize> {
    let rest = &bytes[at..];
    let (&first, &second) = (rest.first()?, rest.get(1)?);
    if second >= 128 || PREFIX_STARTS[first as usize] & (1 << second) == 0 {
        return None;
    }
    FORMATS.iter().find_map(|f| {
        if !rest.starts_with(f.prefix.as_bytes()) {
            return None;
        }
        let body = rest[f.prefix.len()..]
            .iter()
            .take_while(|&&b| (f.body)(b))
            .count();
        let token = &rest[f.prefix.len()..f.prefix.len() + body];
        // Real tokens mix in digits; a placeholder (`sk_live_xxxxxxxxxx`,
        // `sk-your-key-here-please`) does not.
        let random =
            token.iter().any(u8::is_ascii_digit) && token.iter().any(u8::is_ascii_alphabetic);
        (body >= f.min && random).then_some(at + f.prefix.len() + body)
    })
}

/// A credential named just before its value: `Bearer abc…`, `token=abc…`,
/// `client_secret: abc…`. The span is the value's.
fn after_keyword(text: &str, at: usize) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    let name_len = bytes[at..].iter().take_while(|&&b| dashed(b)).count();
    let mut j = at + name_len;
    // Most words are followed by none of these: decided before the name is compared
    // (this runs at every word of every text that leaves the process).
    let after = *bytes.get(j)?;
    if !matches!(after, b' ' | b'=' | b':') || name_len > 40 {
        return None;
    }
    let name = &text[at..j];
    let any = |names: &[&str]| names.iter().any(|n| n.eq_ignore_ascii_case(name));
    let ends = |suffix: &str| {
        name.len() > suffix.len()
            && name.as_bytes()[name.len() - suffix.len()..].eq_ignore_ascii_case(suffix.as_bytes())
    };
    match after {
        b' ' if any(SCHEMES) => {}
        b'=' | b':'
            if is_secret_name(name)
                || any(&["key", "pwd", "pass"])
                || ends("_token")
                || ends("_secret")
                || ends("_password") =>
        {
            j += 1;
        }
        _ => return None,
    }
    // `name=value` (no space, as in a query or an environment line) marks a value
    // more surely than `name: value` or `Bearer value`, which prose also writes.
    let tight = after == b'=';
    while matches!(bytes.get(j), Some(b' ' | b'"' | b'\'')) {
        j += 1;
    }
    let start = j;
    let len = bytes[start..]
        .iter()
        .take_while(|&&b| dotted(b) || matches!(b, b'+' | b'/' | b'=' | b'~'))
        .count();
    let value = &text[start..start + len];
    looks_random(value, tight).then_some((start, start + len))
}

/// Whether a word reads as a generated credential rather than a word, a name or a
/// placeholder: letters and digits mixed and at least 8 long after `=`, 16 otherwise,
/// and not an all-lowercase identifier.
fn looks_random(value: &str, tight: bool) -> bool {
    let min = if tight { 8 } else { 16 };
    if value.len() < min {
        return false;
    }
    let digits = value.bytes().filter(u8::is_ascii_digit).count();
    let letters = value.bytes().filter(u8::is_ascii_alphabetic).count();
    let upper = value.bytes().any(|b| b.is_ascii_uppercase());
    let lower = value.bytes().any(|b| b.is_ascii_lowercase());
    digits > 0 && letters > 0 && (tight || (upper && lower) || distinct(value) >= 12)
}

fn distinct(value: &str) -> usize {
    value.bytes().collect::<BTreeSet<u8>>().len()
}

/// In a URL whose authority starts at `at`, the password of `user:password@`.
fn url_password(bytes: &[u8], at: usize) -> Option<(usize, usize)> {
    let authority = bytes[at..]
        .iter()
        .take_while(|&&b| {
            !matches!(
                b,
                b'/' | b'?'
                    | b'#'
                    | b' '
                    | b'"'
                    | b'\''
                    | b'<'
                    | b'>'
                    | b'\n'
                    | b'\t'
                    | b'`'
                    | b')'
            )
        })
        .count();
    let authority = &bytes[at..at + authority];
    let user_end = authority.iter().rposition(|&b| b == b'@')?;
    let colon = authority[..user_end].iter().position(|&b| b == b':')?;
    (colon + 1 < user_end).then_some((at + colon + 1, at + user_end))
}

/// The end of a PEM private key block starting at `at` (the text's end if it is cut).
fn pem_block(text: &str, at: usize) -> Option<usize> {
    let line_end = text[at..].find('\n').map_or(text.len(), |n| at + n);
    let header = &text[at..line_end];
    if !header.contains("PRIVATE KEY") {
        return None;
    }
    let end = text[line_end..]
        .find("-----END ")
        .map(|n| line_end + n)
        .and_then(|end| text[end + 9..].find("-----").map(|n| end + 9 + n + 5))
        .unwrap_or(text.len());
    Some(end)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn names_a_schema_lists_under_a_secrets_name_are_kept() {
        let mut schema = serde_json::json!({
            "dependentRequired": {"client_secret": ["grant_type", "client_id"]},
            "properties": {"client_secret": {"type": "string", "example": "s3cr3t-value"}},
        });
        let mut found = BTreeSet::new();
        value(&mut schema, &mut found);
        assert_eq!(
            schema["dependentRequired"]["client_secret"],
            serde_json::json!(["grant_type", "client_id"])
        );
        assert_eq!(schema["properties"]["client_secret"]["example"], REDACTED);
        assert_eq!(found.into_iter().collect::<Vec<_>>(), ["s3cr3t-value"]);
    }

    #[test]
    fn every_known_format_is_found_at_a_word_start() {
        // The two-byte filter in front of the formats must let each of them through.
        for format in FORMATS {
            let body: String = "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8s9T0"
                .chars()
                .filter(|c| (format.body)(*c as u8))
                .collect();
            let token = format!("{}{body}", format.prefix);
            let said = format!("the key is {token}, keep it");
            assert_eq!(
                text(&said),
                "the key is <redacted>, keep it",
                "{}",
                format.prefix
            );
        }
    }

    #[test]
    fn every_format_and_placement_is_redacted() {
        let cases = [
            "ghp_abcdefghijklmnop1234567890",
            "github_pat_11ABCDEFG0123456789_abcdefghijklmnop",
            "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
            "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8t",
            "sk-ant-api03-Ab3dEf6hIj9kLm2nOp5qRs8tUv",
            "xoxa-2-1234567890-abcdef",
            "ya29.a0AfH6SMBx1234567890abcdefg",
            "hf_AbCdEfGhIjKlMnOpQrStUvWxYz12345678",
            "npm_AbCdEfGhIjKlMnOpQrStUvWxYz1234567890",
            "AKIAIOSFODNN7EXAMPLE",
            "AIzaSyA1234567890abcdefghijklmnopqrstu",
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.sig123",
            "glpat-Ab3dEf6hIj9kLm2nOp5q",
        ];
        for token in cases {
            for placed in [
                token.to_owned(),
                format!("Use {token} to try it."),
                format!("token={token}"),
                format!("key={token}&x=1"),
                format!("\"{token}\","),
                format!("(`{token}`)"),
            ] {
                let out = text(&placed);
                assert!(!out.contains(token), "{placed} -> {out}");
                assert!(out.contains(REDACTED), "{placed} -> {out}");
            }
        }
    }

    #[test]
    fn keywords_urls_and_pem_blocks() {
        for (input, kept) in [
            (
                "curl -H 'Authorization: Bearer 9f8e7d6c5b4a3f2e1d0c9b8a' https://x",
                "curl -H 'Authorization: Bearer <redacted>' https://x",
            ),
            (
                "connect to https://admin:hunter2@db.example.com/x",
                "connect to https://admin:<redacted>@db.example.com/x",
            ),
            ("password=s3cretPass", "password=<redacted>"),
            (
                "client_secret: Q2xpZW50U2VjcmV0MTIzNDU2",
                "client_secret: <redacted>",
            ),
            (
                "key\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nabc\n-----END RSA PRIVATE KEY-----\nafter",
                "key\n<redacted>\nafter",
            ),
            ("-----BEGIN PRIVATE KEY-----\nMIIE cut", "<redacted>"),
        ] {
            assert_eq!(text(input), kept, "{input}");
        }
    }

    #[test]
    fn ordinary_text_is_left_alone() {
        for input in [
            "Authenticate with a Bearer token in the Authorization header.",
            "token: the token to use for the next page",
            "password: The user's password (8 characters or more).",
            "sha 6dcb09b5b57875f334f61aebed695e2e4193db5e of the commit",
            "id 123e4567-e89b-12d3-a456-426614174000",
            "Use sk_live_xxxxxxxxxxxxxxxx in production",
            "Set `Authorization: Bearer YOUR_ACCESS_TOKEN`.",
            "git@github.com:octo/repo.git and https://user@host.example/",
            "task-management-service-with-12-teams",
            "primary_key=created_at",
            "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----",
            "monkey=banana1234",
            "ask-me-anything-2024-edition-special",
        ] {
            assert_eq!(text(input), input, "{input}");
        }
    }

    #[test]
    fn values_under_credential_names_and_their_samples() {
        let mut v = json!({
            "parameters": [
                {"name": "api_key", "in": "header", "examples": ["k-123"]},
                {"name": "limit", "default": 20},
            ],
            "description": "Use ghp_abcdefghijklmnop1234 to try it.",
            "password": "hunter2",
            "properties": {"token": {"type": "string", "default": "abc"}},
        });
        let mut found = BTreeSet::new();
        value(&mut v, &mut found);
        assert_eq!(v["parameters"][0]["examples"][0], REDACTED);
        assert_eq!(v["parameters"][0]["name"], "api_key");
        assert_eq!(v["parameters"][1]["default"], 20);
        assert_eq!(v["description"], "Use <redacted> to try it.");
        assert_eq!(v["password"], REDACTED);
        assert_eq!(v["properties"]["token"]["default"], REDACTED);
        assert_eq!(v["properties"]["token"]["type"], "string");
        assert!(found.contains("hunter2"));
        assert_eq!(known("a: hunter2", &found), "a: <redacted>");
    }

    /// A credential parameter's samples where OpenAPI puts them: in its `schema`, in
    /// its `content`'s media type, as named `examples`, as `enum` values.
    #[test]
    fn samples_nested_under_a_credential_parameter() {
        let mut v = json!({
            "parameters": [
                {"name": "api_key", "in": "query",
                 "schema": {"type": "string", "default": "k-default-1",
                            "enum": ["k-enum-1"], "description": "Your key."}},
                {"name": "token", "in": "header",
                 "content": {"text/plain": {"schema": {"type": "string"}, "example": "t-ex-1"}},
                 "examples": {"demo": {"summary": "A demo token", "value": "t-demo-1"}}},
                {"name": "X-Api-Key", "in": "header",
                 "schema": {"allOf": [{"x-example": "x-allof-1"}]}},
                {"name": "filter", "schema": {"type": "string", "default": "open"}},
            ],
        });
        let mut found = BTreeSet::new();
        value(&mut v, &mut found);
        let text = v.to_string();
        for secret in ["k-default-1", "k-enum-1", "t-ex-1", "t-demo-1", "x-allof-1"] {
            assert!(!text.contains(secret), "{secret} in {text}");
            assert!(found.contains(secret), "{secret} not found");
        }
        // A plain word in a credential's enum is a kind (`bearer`), kept.
        let mut kinds = json!({"token_type": {"enum": ["bearer", "k-9f8e7d6c"]}});
        value(&mut kinds, &mut found);
        assert_eq!(kinds["token_type"]["enum"], json!(["bearer", "k-9f8e7d6c"]));
        let mut kinds = json!({"token": {"enum": ["bearer", "k-9f8e7d6c"]}});
        value(&mut kinds, &mut found);
        assert_eq!(kinds["token"]["enum"], json!(["bearer", REDACTED]));
        // What is no sample stays: types, prose, other parameters' defaults.
        for kept in ["Your key.", "A demo token", "\"open\"", "\"string\""] {
            assert!(text.contains(kept), "{kept} gone from {text}");
        }
    }
}
