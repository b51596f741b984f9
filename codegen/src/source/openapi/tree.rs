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
    /// The whole document, made only for a reference to all of it or to all its paths.
    whole: OnceCell<Value>,
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
    split_with(file, false)
}

/// The component maps an outline keeps the names of only (see [`outline`]).
const OUTLINED: [&str; 2] = ["schemas", "examples"];

/// `root` with each member of its `components.schemas` and `components.examples` made
/// `null`: their names are kept, for what counts them.
pub(crate) fn outline(root: &mut Value) {
    for map in OUTLINED {
        if let Some(Value::Object(members)) = root.pointer_mut(&format!("/components/{map}")) {
            members.values_mut().for_each(|v| *v = Value::Null);
        }
    }
}

/// [`split`]; with `outlined`, the members of `components.schemas` and
/// `components.examples` are never parsed (each is `null`, see [`outline`]).
pub(crate) fn split_with(file: &Arc<SourceFile>, outlined: bool) -> Option<(Value, PathItems)> {
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
        } else if outlined && key == "components" {
            outlined_components(member)?
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
            whole: OnceCell::new(),
        },
    ))
}

/// `components` parsed with the maps [`outline`] empties left unparsed.
fn outlined_components(components: &RawValue) -> Option<Value> {
    let Ok(members) =
        serde_json::from_str::<std::collections::BTreeMap<String, &RawValue>>(components.get())
    else {
        // Not an object: as it is.
        return serde_json::from_str(components.get()).ok();
    };
    let mut out = serde_json::Map::new();
    for (key, member) in members {
        let names_only = OUTLINED
            .contains(&key.as_str())
            .then(|| {
                serde_json::from_str::<std::collections::BTreeMap<String, &RawValue>>(member.get())
                    .ok()
            })
            .flatten();
        let value = match names_only {
            Some(names) => Value::Object(names.into_keys().map(|k| (k, Value::Null)).collect()),
            None => serde_json::from_str(member.get()).ok()?,
        };
        out.insert(key, value);
    }
    Some(Value::Object(out))
}

impl PathItems {
    /// References naming the document by `own` (its `$self`) become local in each item.
    pub(crate) fn set_own(&mut self, own: Option<String>) {
        self.own = own;
    }

    /// The item at `range`, parsed. Its text was checked as JSON when it was split, but
    /// not as a value is (nesting depth, numbers out of range, lone surrogates): what
    /// fails here is [`Invalid`], and the reader reports it (`Root::path_items_checked`).
    fn parse(&self, range: &Range<usize>) -> Result<Value, Invalid> {
        let text = &self.file.text[range.clone()];
        let mut item: Value = serde_json::from_str(text).map_err(|e| Invalid {
            message: e
                .to_string()
                .rsplit_once(" at line ")
                .map_or_else(|| e.to_string(), |(message, _)| message.to_owned()),
            offset: range.start + offset_in(text, e.line(), e.column()),
        })?;
        if let Some(own) = &self.own {
            super::make_local(&mut item, own);
        }
        Ok(item)
    }

    /// The item of `path`, parsed once and kept (a `$ref` into `#/paths/…`: rare).
    fn kept(&self, path: &str) -> Option<&Value> {
        let at = self
            .items
            .binary_search_by(|(p, _, _)| p.as_str().cmp(path))
            .ok()?;
        let (_, range, cell) = &self.items[at];
        // An item that does not parse was reported when it was read (it reads as null).
        Some(cell.get_or_init(|| self.parse(range).unwrap_or(Value::Null)))
    }
}

/// A path item as read: its value, or why its text is none.
pub(crate) type Checked<'a> = Result<Cow<'a, Value>, Invalid>;

/// A path item whose text is JSON but no value: what is wrong, and where in the file.
pub(crate) struct Invalid {
    pub message: String,
    pub offset: usize,
}

/// The byte offset in `text` of serde_json's 1-based `line` and `column`.
fn offset_in(text: &str, line: usize, column: usize) -> usize {
    let start = if line <= 1 {
        0
    } else {
        text.match_indices('\n')
            .nth(line - 2)
            .map_or(text.len(), |(at, _)| at + 1)
    };
    (start + column.saturating_sub(1)).min(text.len())
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
        // The document itself, or its `paths` (`#`, `#/paths`: rare): made whole once.
        if let Some(items) = self.items
            && (pointer.is_empty() || pointer == "/paths")
        {
            let whole = items.whole.get_or_init(|| {
                let mut whole = self.tree.clone();
                if let Some(paths) = whole.get_mut("paths") {
                    *paths = Value::Object(
                        self.path_items()
                            .map(|(path, item)| (path.to_owned(), item.into_owned()))
                            .collect(),
                    );
                }
                whole
            });
            return whole.pointer(pointer);
        }
        if let (Some(items), Some(rest)) = (self.items, pointer.strip_prefix("/paths/")) {
            let (token, inner) = rest.find('/').map_or((rest, ""), |at| rest.split_at(at));
            let path = token.replace("~1", "/").replace("~0", "~");
            return items.kept(&path)?.pointer(inner);
        }
        self.tree.pointer(pointer)
    }

    /// Every path item of `paths` (an object), by path, in order: parsed one at a time
    /// when they stay text, each dropped when the caller is done with it. One that does
    /// not parse reads as null (see [`Root::path_items_checked`]).
    pub(crate) fn path_items(self) -> Box<dyn Iterator<Item = (&'a str, Cow<'a, Value>)> + 'a> {
        Box::new(
            self.path_items_checked()
                .map(|(path, item)| (path, item.unwrap_or(Cow::Owned(Value::Null)))),
        )
    }

    /// [`Root::path_items`], with each item that does not parse as what is wrong.
    pub(crate) fn path_items_checked(
        self,
    ) -> Box<dyn Iterator<Item = (&'a str, Checked<'a>)> + 'a> {
        match self.items {
            Some(items) => Box::new(
                items
                    .items
                    .iter()
                    .map(|(path, range, _)| (path.as_str(), items.parse(range).map(Cow::Owned))),
            ),
            None => Box::new(
                self.tree
                    .get("paths")
                    .and_then(Value::as_object)
                    .into_iter()
                    .flatten()
                    .map(|(path, item)| (path.as_str(), Ok(Cow::Borrowed(item)))),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_item_that_is_no_value_says_where_and_why() {
        let text = "{\"openapi\": \"3.1.0\", \"paths\": {\"/a\": {\"get\": {}},\n \"/b\": {\"get\": {\"x\": 1e400}}}}";
        let file = SourceFile::new("doc.json", text);
        let (tree, items) = split(&file).unwrap();
        let root = Root::split(&tree, &items);
        let read: Vec<(&str, bool)> = root
            .path_items_checked()
            .map(|(path, item)| (path, item.is_ok()))
            .collect();
        assert_eq!(read, [("/a", true), ("/b", false)]);
        let Some((_, Err(invalid))) = root.path_items_checked().nth(1) else {
            panic!("the second item is invalid");
        };
        assert_eq!(invalid.message, "number out of range");
        // Where the parser stopped: the number's last digit, as a whole parse says.
        assert!(text[..=invalid.offset].ends_with("1e400"));
        assert_eq!(file.line_col(invalid.offset).0, 2);
        // The document and its paths, looked up whole, have the items.
        let whole: Value = serde_json::from_str(&text.replace("1e400", "1")).unwrap();
        assert_eq!(root.pointer("/paths/~1a"), whole.pointer("/paths/~1a"));
        assert_eq!(root.pointer("/paths").unwrap()["/a"], whole["paths"]["/a"]);
        assert!(root.pointer("/paths").unwrap()["/b"].is_null());
        assert_eq!(root.pointer("").unwrap()["openapi"], "3.1.0");
    }

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
