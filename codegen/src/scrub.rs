//! The one scrubber, applied to what a source said as soon as it is read: every file
//! the generator writes (typed client, tables, catalog, search index), every pane of
//! the report, the artifact and the catalog's exports are made from the IR, so none can
//! carry a credential the document happened to hold. The rules are the shared ones
//! ([`toolwright_query::redact`]): by key — the samples (`default`, `enum`, examples,
//! `const`) of a parameter or property named like a credential (`api_key`, `token`,
//! `password`, `X-Api-Key`) — and by text (a token of a known format, `Bearer …`) in
//! every description, title and sample.
//!
//! What changes is only what no call should send anyway: a credential's default and
//! examples become `<redacted>`, and so do its enum values but plain words (`bearer`:
//! a kind, and a contract the typed client holds to); credentials themselves come
//! from the environment at call time.

use std::borrow::Cow;
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use serde_json::Value;
use toolwright_query::redact;

use crate::ir;

/// Takes every credential out of `api`'s texts and samples, in place.
pub fn api(api: &mut ir::Api) {
    text(&mut api.description);
    for value in api.meta.values_mut() {
        redact::value(value, &mut BTreeSet::new());
    }
    // Every operation and definition is scrubbed on its own: a large API's definitions
    // and first half of operations on another thread.
    let half = api.operations.len() / 2;
    let halves = half >= 256
        && std::thread::scope(|scope| {
            let (first, second) = api.operations.split_at_mut(half);
            let definitions = &mut api.definitions;
            let rest = std::thread::Builder::new().spawn_scoped(scope, move || {
                let mut scrubbed = Scrubbed::new();
                first.iter_mut().for_each(|op| operation(op, &mut scrubbed));
                definitions.values_mut().for_each(|d| schema(d, false));
            });
            // No thread to be had (a process at its limit): all of it below.
            let Ok(rest) = rest else {
                return false;
            };
            let mut scrubbed = Scrubbed::new();
            second
                .iter_mut()
                .for_each(|op| operation(op, &mut scrubbed));
            rest.join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            true
        });
    if !halves {
        let mut scrubbed = Scrubbed::new();
        api.operations
            .iter_mut()
            .for_each(|op| operation(op, &mut scrubbed));
        api.definitions.values_mut().for_each(|d| schema(d, false));
    }
}

fn operation(op: &mut ir::Operation, scrubbed: &mut Scrubbed) {
    optional_text(&mut op.summary);
    optional_text(&mut op.description);
    for p in &mut op.params {
        let credential = redact::is_secret_name(&p.name);
        scrubbed
            .schemas
            .scrub(&mut p.schema, credential, |s| schema(s, credential));
    }
    for r in &mut op.responses {
        optional_text(&mut r.description);
        if let Some(s) = &mut r.schema {
            scrubbed.schemas.scrub(s, false, |s| schema(s, false));
        }
        if let Some(s) = &mut r.item {
            schema(s, false);
        }
    }
    for (key, value) in &mut op.meta {
        scrubbed
            .natives
            .scrub(value, key.clone(), |v| native(key, v));
    }
}

/// What an API's shared values became when scrubbed.
struct Scrubbed {
    /// Native metadata values, by key (a value is scrubbed under its key).
    natives: Seen<String, Value>,
    /// Parameter and response schemas, by whether they describe a credential.
    schemas: Seen<bool, ir::Schema>,
}

impl Scrubbed {
    fn new() -> Scrubbed {
        Scrubbed {
            natives: Seen(HashMap::new()),
            schemas: Seen(HashMap::new()),
        }
    }
}

/// Shared values already scrubbed, by how (`H`) and address.
struct Seen<H, T>(HashMap<(H, usize), Cleaned<T>>);

/// A shared value scrubbed: the value (kept, so its address names it), and what
/// replaces it when scrubbing changed it.
type Cleaned<T> = (Arc<T>, Option<Arc<T>>);

impl<H: Eq + std::hash::Hash, T: Clone + PartialEq> Seen<H, T> {
    /// Scrubs `value` with `clean`, `how` naming the way: a value no one else holds in
    /// place; a shared one once per way, replaced only where scrubbing changed it (the
    /// others keep sharing it).
    fn scrub(&mut self, value: &mut Arc<T>, how: H, clean: impl Fn(&mut T)) {
        if let Some(own) = Arc::get_mut(value) {
            clean(own);
            return;
        }
        let seen = self
            .0
            .entry((how, Arc::as_ptr(value) as usize))
            .or_insert_with(|| {
                let mut cleaned = T::clone(value);
                clean(&mut cleaned);
                // The original kept too: its address names it only while it lives.
                let changed = cleaned != **value;
                (value.clone(), changed.then(|| Arc::new(cleaned)))
            });
        if let Some(cleaned) = &seen.1 {
            *value = cleaned.clone();
        }
    }
}

/// Scrubs a native metadata value under its key, so that a credential-named entry is
/// one.
fn native(key: &str, value: &mut Value) {
    let mut keyed = Value::Object(std::iter::once((key.to_owned(), value.take())).collect());
    redact::value(&mut keyed, &mut BTreeSet::new());
    if let Value::Object(mut map) = keyed {
        *value = map.remove(key).unwrap_or(Value::Null);
    }
}

/// A schema and everything under it; `credential`: it describes a credential (its
/// parameter or property is named like one), so its samples are taken out whole.
fn schema(s: &mut ir::Schema, credential: bool) {
    optional_text(&mut s.description);
    optional_text(&mut s.title);
    let mut found = BTreeSet::new();
    if let Some(value) = &mut s.default {
        if credential {
            redact::sample(value, &mut found);
        } else {
            redact::value(value, &mut found);
        }
    }
    for value in &mut s.enum_values {
        if credential {
            redact::enumeration(value, &mut found);
        } else {
            redact::value(value, &mut found);
        }
    }
    // Values taken out are one value: an enum lists each once (a typed enum's
    // variants must differ).
    let mut seen = BTreeSet::new();
    s.enum_values.retain(|v| seen.insert(v.to_string()));
    for (key, value) in &mut s.extensions {
        let is_sample = matches!(
            key.as_str(),
            "examples" | "example" | "const" | "x-example" | "default" | "enum"
        );
        if credential && is_sample {
            redact::sample(value, &mut found);
        } else {
            redact::value(value, &mut found);
        }
    }
    for (name, property) in &mut s.properties {
        schema(property, redact::is_secret_name(name));
    }
    for inner in s.items.iter_mut().chain(s.additional.iter_mut()) {
        schema(inner, credential);
    }
    for variant in &mut s.variants {
        schema(variant, credential);
    }
}

fn text(t: &mut String) {
    if let Cow::Owned(clean) = redact::text(t) {
        *t = clean;
    }
}

fn optional_text(t: &mut Option<String>) {
    if let Some(t) = t {
        text(t);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_credentials_samples_and_token_shaped_text_are_taken_out() {
        let mut token = ir::Schema::of(ir::SchemaType::String);
        token.default = Some(Box::new(Value::from("t-default-1")));
        token.enum_values = vec![Value::from("t-enum-1"), Value::from("t-enum-2")];
        token
            .extensions
            .insert("examples".into(), serde_json::json!(["t-example-1"]));
        let mut kind = ir::Schema::of(ir::SchemaType::String);
        kind.enum_values = vec![Value::from("open"), Value::from("closed")];
        kind.default = Some(Box::new(Value::from("open")));
        let mut body = ir::Schema::object([
            ("password".to_owned(), token, false),
            ("kind".to_owned(), kind, false),
        ]);
        body.description = Some("Try ghp_abcdefghijklmnop1234567890 here.".into());
        schema(&mut body, false);
        let password = &body.properties[0].1;
        assert_eq!(
            password.default.as_deref(),
            Some(&Value::from(redact::REDACTED))
        );
        assert_eq!(password.enum_values, [Value::from(redact::REDACTED)]);
        assert_eq!(
            password.extensions["examples"],
            serde_json::json!([redact::REDACTED])
        );
        // What is no credential stays as written.
        let kind = &body.properties[1].1;
        assert_eq!(
            kind.enum_values,
            [Value::from("open"), Value::from("closed")]
        );
        assert_eq!(kind.default.as_deref(), Some(&Value::from("open")));
        assert_eq!(body.description.as_deref(), Some("Try <redacted> here."));
    }

    #[test]
    fn a_shared_schema_is_scrubbed_for_each_parameter_that_holds_it() {
        // Three parameters whose schemas are equal as written, so read as one shared
        // schema: the credential's sample goes, the others keep theirs and keep sharing.
        let query = |name: &str| {
            serde_json::json!({"name": name, "in": "query",
                "schema": {"type": "string", "default": "k-12345"}})
        };
        let spec = serde_json::json!({
            "openapi": "3.0.3",
            "info": {"title": "Shared", "version": "1"},
            "paths": {
                "/a": {"get": {"operationId": "a", "parameters": [query("api_key"), query("colour")],
                    "responses": {"200": {"description": "ok"}}}},
                "/b": {"get": {"operationId": "b", "parameters": [query("colour")],
                    "responses": {"200": {"description": "ok"}}}}
            }
        });
        let analysis = crate::analyze_text("shared.json", &spec.to_string(), false);
        let ops = &analysis.apis[0].operations;
        let param = |op: usize, name: &str| {
            let found = ops[op].params.iter().find(|p| p.name == name);
            found.unwrap_or_else(|| panic!("no {name}")).schema.clone()
        };
        let (key, colour_a, colour_b) =
            (param(0, "api_key"), param(0, "colour"), param(1, "colour"));
        assert_eq!(key.default.as_deref(), Some(&Value::from(redact::REDACTED)));
        assert_eq!(colour_a.default.as_deref(), Some(&Value::from("k-12345")));
        assert!(Arc::ptr_eq(&colour_a, &colour_b), "still one schema");
        assert!(!Arc::ptr_eq(&key, &colour_a));
    }
}
