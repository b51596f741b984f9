//! `x-toolwright-aliases`: the words an API's users call an operation by that its own
//! text does not use ("chargeback" for a dispute, "snippet" for a gist). On an
//! operation, or on a tag of the document's top-level `tags` (then every operation
//! with the tag has them): a list of words or phrases. Search indexes them with the
//! tool's texts.

use std::collections::BTreeMap;

use serde_json::Value;

use super::Doc;
use crate::diagnostics::codes;

pub const EXTENSION: &str = "x-toolwright-aliases";

/// Each tag's aliases, by tag name.
pub fn of_tags(doc: &mut Doc<'_>) -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    let Some(Value::Array(tags)) = doc.root.tree().get("tags") else {
        return out;
    };
    for (i, tag) in tags.iter().enumerate() {
        if let (Some(name), Some(value)) =
            (tag.get("name").and_then(Value::as_str), tag.get(EXTENSION))
        {
            let list = read(doc, value, &format!("/tags/{i}/{EXTENSION}"));
            out.insert(name.to_owned(), list);
        }
    }
    out
}

/// An operation's aliases: its own, then its tags', each once.
pub fn of_operation(
    doc: &mut Doc<'_>,
    op: &Value,
    pointer: &str,
    tags: &BTreeMap<String, Vec<String>>,
) -> Vec<String> {
    let mut out = match op.get(EXTENSION) {
        Some(value) => read(doc, value, &format!("{pointer}/{EXTENSION}")),
        None => Vec::new(),
    };
    let names = op
        .get("tags")
        .and_then(Value::as_array)
        .into_iter()
        .flatten();
    for alias in names
        .filter_map(Value::as_str)
        .filter_map(|tag| tags.get(tag))
        .flatten()
    {
        if !out.contains(alias) {
            out.push(alias.clone());
        }
    }
    out
}

/// A list of strings; anything else is reported where it is and left out.
fn read(doc: &mut Doc<'_>, value: &Value, pointer: &str) -> Vec<String> {
    let strings = value.as_array().map(|list| {
        list.iter()
            .map(|v| v.as_str().map(str::trim).filter(|s| !s.is_empty()))
            .collect::<Option<Vec<&str>>>()
    });
    match strings.flatten() {
        Some(list) => list.into_iter().map(str::to_owned).collect(),
        None => {
            doc.warn(
                codes::UNSUPPORTED,
                pointer,
                format!("`{EXTENSION}` is not a list of words or phrases; ignored"),
                format!("write `{EXTENSION}: [chargeback, \"money back\"]`"),
            );
            Vec::new()
        }
    }
}
