//! The document being lowered, without holding all of it as one value tree: a JSON
//! document's path items (Microsoft Graph beta's are 42 of its 47 MB, ~400 MB as
//! values) stay text, and each is parsed when the lowering reaches it and dropped after.
//! The rest of the document (`components`, `info`, …) is a tree as before.

use std::borrow::Cow;
use std::cell::OnceCell;
use std::ops::Range;
use std::sync::Arc;

use serde_json::Value;
use serde_json::value::RawValue;

use crate::diagnostics::SourceFile;

/// A JSON document's path items as text: each path's byte range in the file.
pub(crate) struct PathItems {
    file: Arc<SourceFile>,
    /// By path, in the order a parsed document's `paths` has them (sorted).
    items: Vec<(String, Range<usize>, OnceCell<Value>)>,
    /// OpenAPI 3.2's `$self`: references naming the document by it are made local in
    /// each item as it is parsed, as in the rest of the tree.
    own: Option<String>,
}

/// The document being lowered: its tree, and its path items when they stay text (then
/// the tree's `paths` maps each path to `null`).
#[derive(Clone, Copy)]
pub(crate) struct Root<'a> {
    tree: &'a Value,
    items: Option<&'a PathItems>,
}

/// Parses a JSON document that says `openapi` and whose `paths` is an object into its
/// tree without the path items, and the path items as text; `None` when it is of
/// another shape (it is then parsed whole, as before).
pub(crate) fn split(file: &Arc<SourceFile>) -> Option<(Value, PathItems)> {
    let text = file.text.as_str();
    // The members as borrowed text, so nothing is copied.
    let members =
        serde_json::from_str::<std::collections::BTreeMap<String, &RawValue>>(text).ok()?;
    members.get("openapi")?;
    let paths = members.get("paths")?;
    let items =
        serde_json::from_str::<std::collections::BTreeMap<String, &RawValue>>(paths.get()).ok()?;
    let mut root = serde_json::Map::new();
    for (key, member) in &members {
        let value = if key == "paths" {
            Value::Object(items.keys().map(|k| (k.clone(), Value::Null)).collect())
        } else {
            serde_json::from_str(member.get()).ok()?
        };
        root.insert(key.clone(), value);
    }
    let items = items
        .into_iter()
        .map(|(path, item)| {
            let start = (item.get().as_ptr() as usize).saturating_sub(text.as_ptr() as usize);
            (path, start..start + item.get().len(), OnceCell::new())
        })
        .collect();
    Some((
        Value::Object(root),
        PathItems {
            file: Arc::clone(file),
            items,
            own: None,
        },
    ))
}

impl PathItems {
    /// References naming the document by `own` (its `$self`) become local in each item.
    pub(crate) fn set_own(&mut self, own: Option<String>) {
        self.own = own;
    }

    /// The item of `path`, parsed.
    fn parse(&self, range: &Range<usize>) -> Value {
        // The whole text was checked as JSON when it was split; a value nested deeper
        // than the parser goes is read as missing (the whole document would not parse).
        let mut item = serde_json::from_str(&self.file.text[range.clone()]).unwrap_or(Value::Null);
        if let Some(own) = &self.own {
            super::make_local(&mut item, own);
        }
        item
    }

    /// The item of `path`, parsed once and kept (a `$ref` into `#/paths/…`: rare).
    fn kept(&self, path: &str) -> Option<&Value> {
        let at = self
            .items
            .binary_search_by(|(p, _, _)| p.as_str().cmp(path))
            .ok()?;
        let (_, range, cell) = &self.items[at];
        Some(cell.get_or_init(|| self.parse(range)))
    }
}

impl<'a> Root<'a> {
    /// A document held whole.
    pub(crate) fn whole(tree: &'a Value) -> Self {
        Root { tree, items: None }
    }

    /// A document split by [`split`].
    pub(crate) fn split(tree: &'a Value, items: &'a PathItems) -> Self {
        Root {
            tree,
            items: Some(items),
        }
    }

    /// The tree (with `null` path items when they stay text).
    pub(crate) fn tree(self) -> &'a Value {
        self.tree
    }

    /// The value at a local JSON pointer, as [`Value::pointer`] on the whole document
    /// finds it.
    pub(crate) fn pointer(self, pointer: &str) -> Option<&'a Value> {
        if let (Some(items), Some(rest)) = (self.items, pointer.strip_prefix("/paths/")) {
            let (token, inner) = rest.find('/').map_or((rest, ""), |at| rest.split_at(at));
            let path = token.replace("~1", "/").replace("~0", "~");
            return items.kept(&path)?.pointer(inner);
        }
        self.tree.pointer(pointer)
    }

    /// Every path item of `paths` (an object), by path, in order: parsed one at a time
    /// when they stay text, each dropped when the caller is done with it.
    pub(crate) fn path_items(self) -> Box<dyn Iterator<Item = (&'a str, Cow<'a, Value>)> + 'a> {
        match self.items {
            Some(items) => Box::new(
                items
                    .items
                    .iter()
                    .map(|(path, range, _)| (path.as_str(), Cow::Owned(items.parse(range)))),
            ),
            None => Box::new(
                self.tree
                    .get("paths")
                    .and_then(Value::as_object)
                    .into_iter()
                    .flatten()
                    .map(|(path, item)| (path.as_str(), Cow::Borrowed(item))),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_of_other_shapes_are_not_split() {
        for text in [
            r#"{"openapi": "3.1.0", "paths": []}"#,
            r#"{"paths": {}}"#,
            "[1, 2]",
            "{",
            r#"{"openapi": "3.1.0"}"#,
        ] {
            assert!(split(&SourceFile::new("doc.json", text)).is_none());
        }
    }
}
