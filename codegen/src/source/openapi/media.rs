//! OpenAPI 3.2 media types: reusable ones (`components/mediaTypes`) followed where
//! they are used, and what sequential media (`itemSchema`, `itemEncoding`,
//! `prefixEncoding`) says: an event stream's data type, or a located finding for what
//! the generated code does not use.

use serde_json::Value;

use super::{Doc, deref, escape, schema};
use crate::diagnostics::codes;
use crate::ir::{self, Schema};

/// A Media Type Object, following OpenAPI 3.2's references to `components/mediaTypes`
/// (an unresolvable one is reported and reads as an empty media type).
/// Borrowed as written; a referenced one is copied (rare, and small).
pub(super) fn media_object<'v>(
    doc: &mut Doc<'_>,
    m: &'v Value,
    at: &str,
) -> std::borrow::Cow<'v, Value> {
    use std::borrow::Cow;
    if m.get("$ref").is_none() {
        return Cow::Borrowed(m);
    }
    match deref(doc.root, m, at.to_owned()) {
        Ok((m, _)) => Cow::Owned(m.clone()),
        Err(reference) => {
            doc.warn(
                codes::REFERENCE,
                at,
                format!("cannot resolve the media type's `{reference}`; read as untyped"),
                "fix the reference (reusable media types live under `components/mediaTypes`)",
            );
            Cow::Owned(Value::Null)
        }
    }
}

/// What an OpenAPI 3.2 sequential media type declares that the generated code does not
/// use, said where it is: item-by-item parts of `multipart/mixed` (read as text),
/// positional encodings.
pub(super) fn sequential_findings(
    doc: &mut Doc<'_>,
    media: &str,
    m: &Value,
    body: ir::ResponseBody,
    at: &str,
) {
    let here = |key: &str| format!("{at}/content/{}/{key}", escape(media));
    if m.get("itemSchema").is_some()
        && !matches!(body, ir::ResponseBody::Events | ir::ResponseBody::JsonLines)
    {
        doc.warn(
            codes::UNSUPPORTED,
            &here("itemSchema"),
            format!("the items of a `{media}` answer are not read one by one: it comes back whole, as text"),
            "item streams are typed for text/event-stream and the JSON sequence types (application/jsonl, application/x-ndjson, application/json-seq)",
        );
    }
    for key in ["itemEncoding", "prefixEncoding"] {
        if m.get(key).is_some() {
            doc.warn(
                codes::UNSUPPORTED,
                &here(key),
                format!("`{key}` (multipart parts by position) is not applied to answers"),
                "nothing to do unless the parts' encodings matter to you: the answer is returned as the media type says",
            );
        }
    }
}

/// The type of an OpenAPI 3.2 event stream's `data`, from the `itemSchema` that
/// describes each event: `data`'s `contentSchema` (JSON data of that type),
/// `contentMediaType` JSON alone (any JSON), otherwise none (the data is text). An
/// `itemSchema` whose `data` cannot be found (behind `oneOf` variants, say) is reported
/// and its data is read as any JSON value.
pub(super) fn event_data(doc: &mut Doc<'_>, m: &Value, at: &str) -> Option<Schema> {
    let item = m.get("itemSchema")?;
    let at = format!("{at}/itemSchema");
    let (event, event_at) = match deref(doc.root, item, at.clone()) {
        Ok(found) => found,
        Err(_) => return Some(schema::lower(doc, item, &at, 0)),
    };
    let data_at = format!("{event_at}/properties/data");
    let Some(data) = event.pointer("/properties/data") else {
        doc.warn(
            codes::UNSUPPORTED,
            &at,
            "this event schema has no `properties.data` at its top: each event's data is read as any JSON value",
            "describe `data` under `properties` (with `contentMediaType: application/json` and `contentSchema` for JSON data)",
        );
        return Some(Schema::default());
    };
    if let Some(content) = data.get("contentSchema") {
        return Some(schema::lower(
            doc,
            content,
            &format!("{data_at}/contentSchema"),
            0,
        ));
    }
    let json = data
        .get("contentMediaType")
        .and_then(Value::as_str)
        .is_some_and(|m| m.to_ascii_lowercase().contains("json"));
    json.then(Schema::default)
}
