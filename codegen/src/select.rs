//! Selection: the operations a [`Selection`] keeps, before anything is emitted (the same
//! selector syntax the runtime and the CLI take; see `toolwright_query::select`).

use serde_json::Value;
use toolwright_query::{Facts, Selection};

use crate::ir;

/// Drops the operations `selection` does not keep; returns how many were kept.
pub fn apply(apis: &mut [ir::Api], selection: &Selection) -> usize {
    let mut kept = 0;
    for api in apis.iter_mut() {
        if !selection.is_all() {
            let name = api.name.clone();
            api.operations
                .retain(|op| with_facts(&name, op, |facts| selection.keeps(facts)));
        }
        kept += api.operations.len();
    }
    kept
}

/// Runs `f` on what a selector knows of one operation: what the runtime reads back
/// from the generated tool (name, `_meta.toolwright` tags, CRUDE group and operation
/// id, method, path, annotations).
pub fn with_facts<R>(api: &str, op: &ir::Operation, f: impl FnOnce(&Facts<'_>) -> R) -> R {
    let tags: Vec<&str> = op.tags().collect();
    let tag_paths: Vec<&str> = op
        .native("tagPaths")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let annotations = crate::ir::annotations::annotations(op);
    f(&Facts {
        name: &op.name,
        api,
        operation_id: op.native("operationId").and_then(Value::as_str),
        tags: &tags,
        tag_paths: &tag_paths,
        path: &op.path,
        method: op.method.as_str(),
        group: op.kind.as_str(),
        read_only: annotations.read_only,
        destructive: annotations.destructive,
    })
}
