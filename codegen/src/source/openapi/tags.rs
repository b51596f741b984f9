//! OpenAPI 3.2 nested tags: each tag's `parent` places it in a hierarchy, and each
//! operation learns where its tags sit (`tagPaths`: `products/cakes`), which selectors
//! match (`tag:products` selects the subtree, `tag:products/cakes` one branch). A
//! `parent` that names no tag, or a ring of parents, is reported where it is written
//! and the tag stays a root.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::Doc;
use crate::diagnostics::codes;
use crate::ir;

/// Adds `tagPaths` to each operation with a tag below another.
pub fn place(doc: &mut Doc<'_>, operations: &mut [ir::Operation]) {
    let parents = parents(doc);
    if parents.is_empty() {
        return;
    }
    for op in operations {
        let paths: Vec<Value> = op
            .tags()
            .filter(|t| parents.contains_key(*t))
            .map(|t| json!(path(&parents, t)))
            .collect();
        if !paths.is_empty() {
            op.meta
                .insert("tagPaths".into(), Value::Array(paths).into());
        }
    }
}

/// Each tag with a usable `parent` → that parent (checked: known, no ring).
fn parents(doc: &mut Doc<'_>) -> BTreeMap<String, String> {
    let Some(Value::Array(tags)) = doc.root.tree().get("tags") else {
        return BTreeMap::new();
    };
    let known: Vec<&str> = tags
        .iter()
        .filter_map(|t| t.get("name").and_then(Value::as_str))
        .collect();
    let mut parents = BTreeMap::new();
    for (i, tag) in tags.iter().enumerate() {
        let (Some(name), Some(parent)) = (
            tag.get("name").and_then(Value::as_str),
            tag.get("parent").and_then(Value::as_str),
        ) else {
            continue;
        };
        if !known.contains(&parent) {
            doc.warn(
                codes::UNSUPPORTED,
                &format!("/tags/{i}/parent"),
                format!("tag `{name}` names the parent `{parent}`, which is no tag of the document; `{name}` is placed at the top"),
                format!("declare `{parent}` under the top-level `tags`, or correct the name"),
            );
            continue;
        }
        parents.insert(name.to_owned(), parent.to_owned());
    }
    // A ring of parents (`a` under `b` under `a`) has no top: each tag in one is
    // reported and cut loose, so every path below ends.
    let names: Vec<String> = parents.keys().cloned().collect();
    for name in names {
        let mut seen = vec![name.as_str()];
        let mut current = name.as_str();
        while let Some(parent) = parents.get(current) {
            if seen.contains(&parent.as_str()) {
                let at = tags
                    .iter()
                    .position(|t| t.get("name").and_then(Value::as_str) == Some(&name))
                    .unwrap_or(0);
                doc.warn(
                    codes::UNSUPPORTED,
                    &format!("/tags/{at}/parent"),
                    format!(
                        "tag `{name}` is its own ancestor ({} → {parent}); it is placed at the top",
                        seen.join(" → ")
                    ),
                    "OpenAPI 3.2 forbids circular parents: remove one `parent` of the ring",
                );
                parents.remove(&name);
                break;
            }
            seen.push(parent);
            current = parent;
        }
    }
    parents
}

/// `root/.../tag` for a tag known to have no ring above it.
fn path(parents: &BTreeMap<String, String>, tag: &str) -> String {
    let mut chain = vec![tag];
    let mut current = tag;
    while let Some(parent) = parents.get(current) {
        chain.push(parent);
        current = parent;
    }
    chain.reverse();
    chain.join("/")
}

#[cfg(test)]
mod tests {
    #[test]
    fn nested_tags_place_operations_and_bad_parents_are_reported() {
        let text = r#"{"openapi": "3.2.0", "info": {"title": "t", "version": "1"},
          "servers": [{"url": "https://api.example.com"}],
          "tags": [{"name": "products", "kind": "nav"},
                   {"name": "cakes", "parent": "products", "summary": "Cakes"},
                   {"name": "sponge", "parent": "cakes"},
                   {"name": "lost", "parent": "nowhere"},
                   {"name": "a", "parent": "b"}, {"name": "b", "parent": "a"}],
          "paths": {"/cakes": {"get": {"operationId": "listSponge", "tags": ["sponge", "lost", "a"],
                                       "responses": {"200": {"description": "ok"}}}}}}"#;
        let analysis = crate::analysis::analyze_text("shop.json", text, false);
        let op = &analysis.apis[0].operations[0];
        assert_eq!(
            *op.meta["tagPaths"],
            serde_json::json!(["products/cakes/sponge"])
        );
        let messages: Vec<String> = analysis
            .diagnostics
            .iter()
            .map(|d| d.message.clone())
            .collect();
        assert!(
            messages
                .iter()
                .any(|m| m.contains("`nowhere`, which is no tag")),
            "{messages:?}"
        );
        assert_eq!(
            messages
                .iter()
                .filter(|m| m.contains("is its own ancestor"))
                .count(),
            1,
            "{messages:?}"
        );
    }
}
