//! A response's `links`: followed through `components/links` and checked against the
//! document's operations (the tool graph makes an edge of each, `contract::graph`).

use std::collections::BTreeSet;

use serde_json::Value;

use super::operations::METHODS;
use super::{Doc, deref, escape};
use crate::diagnostics::codes;

/// A response's `links`, each `$ref` to `components/links` followed (the tool graph
/// reads them from here), each target checked: an `operationId` that names no
/// operation, or an `operationRef` that leads to none, is reported where it is written
/// (the link then leads nowhere and makes no edge).
pub(super) fn links(doc: &mut Doc<'_>, links: &Value, at: &str) -> Value {
    let Value::Object(map) = links else {
        return links.clone();
    };
    let mut out = serde_json::Map::new();
    for (name, link) in map {
        let here = format!("{at}/{}", escape(name));
        let link = match deref(doc.root, link, here.clone()) {
            Ok((link, _)) => link,
            Err(reference) => {
                doc.warn(
                    codes::REFERENCE,
                    &here,
                    format!("cannot resolve link `{name}`'s `{reference}`; the link is left out"),
                    "fix the reference (reusable links live under `components/links`)",
                );
                continue;
            }
        };
        let root = doc.root;
        if let Some(id) = link.get("operationId").and_then(Value::as_str)
            && !doc
                .operation_ids
                .get_or_insert_with(|| operation_ids(root))
                .contains(id)
        {
            doc.warn(
                codes::REFERENCE,
                &format!("{here}/operationId"),
                format!(
                    "link `{name}` leads to operation `{id}`, which the document does not have"
                ),
                "name an existing operationId, or use `operationRef: '#/paths/~1items~1{id}/get'`",
            );
        }
        if let Some(reference) = link.get("operationRef").and_then(Value::as_str)
            && !super::lookup(doc.root, reference).is_some_and(Value::is_object)
        {
            doc.warn(
                codes::REFERENCE,
                &format!("{here}/operationRef"),
                format!("link `{name}`'s operationRef `{reference}` leads to no operation of this document"),
                "point at an operation of this document (`#/paths/~1items~1{id}/get`)",
            );
        }
        out.insert(name.clone(), link.clone());
    }
    Value::Object(out)
}

/// Every `operationId` of the document (links name their targets by them).
fn operation_ids(root: super::tree::Root<'_>) -> BTreeSet<String> {
    let mut ids = BTreeSet::new();
    for (_, item) in root.path_items() {
        let Ok((item, _)) = deref(root, &item, String::new()) else {
            continue;
        };
        let additional = item
            .get("additionalOperations")
            .and_then(Value::as_object)
            .into_iter()
            .flat_map(|m| m.values());
        let fixed = METHODS
            .iter()
            .chain(&["query"])
            .filter_map(|m| item.get(*m));
        for op in fixed.chain(additional) {
            if let Some(id) = op.get("operationId").and_then(Value::as_str) {
                ids.insert(id.to_owned());
            }
        }
    }
    ids
}
