//! A document as written, for inspection (the report's source excerpts and fidelity
//! counts), without holding its whole value tree: a JSON document's `paths` (Graph
//! beta's are 42 of its 47 MB, ~500 MB as one tree) stay text, each path item parsed
//! when it is looked at and dropped after.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::Arc;

use serde_json::Value;
use serde_json::value::RawValue;

use super::locate::Locator;
use crate::diagnostics::SourceFile;
use crate::source::yaml;

/// A document as written: its JSON value (a JSON document's path items left out, see
/// [`Raw::path_items`]) and where each operation is in the text.
#[derive(Debug, Default)]
pub struct Raw {
    /// The document; when the path items are kept as text, `paths` maps each path to
    /// `null` (its members, and so what a format check sees, are the document's).
    pub root: Value,
    /// (path, method) → byte range of the operation in the file.
    pub operations: BTreeMap<(String, String), Range<usize>>,
    /// A JSON document's text and each path item's byte range in it, by path.
    lazy: Option<(Arc<SourceFile>, ItemRanges)>,
}

/// Path → byte range of its path item in the text.
type ItemRanges = BTreeMap<String, Range<usize>>;

/// Parses `file` again, as [`super::read`] does, without lowering it; `None` when it
/// does not parse (reading it reported why).
pub fn raw(file: &Arc<SourceFile>) -> Option<Raw> {
    if !file.path.ends_with(".json") {
        let node = yaml::parse(
            file,
            0..file.text.len(),
            1,
            yaml::Limits::document(file.text.len()),
        )
        .ok()?;
        let root = node.to_json();
        let operations = Locator::Yaml(node).operations(&file.text);
        return Some(Raw {
            root,
            operations,
            lazy: None,
        });
    }
    let operations = Locator::Json.operations(&file.text);
    let text = file.text.as_str();
    // The members as text (borrowed, so nothing is copied), then each parsed but the
    // path items; a document that is no object, or whose `paths` is none, is parsed
    // whole as before.
    let Ok(members) = serde_json::from_str::<BTreeMap<String, &RawValue>>(text) else {
        let root = serde_json::from_str::<Value>(text).ok()?;
        return Some(Raw {
            root,
            operations,
            lazy: None,
        });
    };
    let mut root = serde_json::Map::new();
    let mut lazy = None;
    for (key, member) in members {
        let items = (key == "paths")
            .then(|| serde_json::from_str::<BTreeMap<String, &RawValue>>(member.get()).ok())
            .flatten();
        let value = match items {
            Some(items) => {
                let ranges: ItemRanges = items
                    .into_iter()
                    .map(|(path, item)| (path, range_in(text, item.get())))
                    .collect();
                let placeholder = ranges.keys().map(|k| (k.clone(), Value::Null)).collect();
                lazy = Some((Arc::clone(file), ranges));
                Value::Object(placeholder)
            }
            None => serde_json::from_str(member.get()).ok()?,
        };
        root.insert(key, value);
    }
    Some(Raw {
        root: Value::Object(root),
        operations,
        lazy,
    })
}

/// Where `part`, a slice of `text`, is in it.
fn range_in(text: &str, part: &str) -> Range<usize> {
    let start = (part.as_ptr() as usize).saturating_sub(text.as_ptr() as usize);
    start..start + part.len()
}

impl Raw {
    /// Every path item of `paths` (an object), by path, in order: parsed one at a time
    /// when the document's path items were left as text.
    pub fn path_items(&self) -> Box<dyn Iterator<Item = (&str, Cow<'_, Value>)> + '_> {
        match &self.lazy {
            Some((file, ranges)) => Box::new(ranges.iter().map(|(path, range)| {
                let item = serde_json::from_str(&file.text[range.clone()]).unwrap_or(Value::Null);
                (path.as_str(), Cow::Owned(item))
            })),
            None => Box::new(
                self.root
                    .get("paths")
                    .and_then(Value::as_object)
                    .into_iter()
                    .flatten()
                    .map(|(path, item)| (path.as_str(), Cow::Borrowed(item))),
            ),
        }
    }

    /// The value at a local JSON pointer (`/components/parameters/id`), as
    /// [`Value::pointer`] on the whole document finds it.
    pub fn pointer(&self, pointer: &str) -> Option<Cow<'_, Value>> {
        if let (Some((file, ranges)), Some(rest)) = (&self.lazy, pointer.strip_prefix("/paths/")) {
            let (token, inner) = match rest.find('/') {
                Some(at) => (&rest[..at], &rest[at..]),
                None => (rest, ""),
            };
            let path = token.replace("~1", "/").replace("~0", "~");
            let range = ranges.get(&path)?;
            let item: Value = serde_json::from_str(&file.text[range.clone()]).ok()?;
            return item.pointer(inner).cloned().map(Cow::Owned);
        }
        self.root.pointer(pointer).map(Cow::Borrowed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn whole(text: &str) -> Value {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn path_items_and_pointers_are_the_documents() {
        let text = r##"{"openapi": "3.1.0", "paths": {"/a/{id}": {"parameters": [{"$ref": "#/paths/~1b/get/parameters/0"}], "get": {"x": 1}}, "/b": {"get": {"parameters": [{"name": "q", "in": "query"}]}}}, "components": {"parameters": {"p": {"name": "p"}}}}"##;
        let file = SourceFile::new("doc.json", text);
        let raw = raw(&file).unwrap();
        assert!(raw.lazy.is_some());
        let doc = whole(text);
        let items: Vec<(String, Value)> = raw
            .path_items()
            .map(|(p, v)| (p.to_owned(), v.into_owned()))
            .collect();
        let expected: Vec<(String, Value)> = doc["paths"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(p, v)| (p.clone(), v.clone()))
            .collect();
        assert_eq!(items, expected);
        for pointer in [
            "/paths/~1b/get/parameters/0",
            "/paths/~1a~1{id}/get",
            "/components/parameters/p",
            "/openapi",
            "/paths/~1c",
            "/nothing",
        ] {
            assert_eq!(
                raw.pointer(pointer).map(Cow::into_owned),
                doc.pointer(pointer).cloned(),
                "{pointer}"
            );
        }
        assert_eq!(raw.root["paths"].as_object().unwrap().len(), 2);
        assert_eq!(raw.root["components"], doc["components"]);
        assert_eq!(raw.operations.len(), 2);
    }

    #[test]
    fn documents_of_other_shapes_are_parsed_whole() {
        for text in [r#"{"paths": []}"#, r#"[1, 2]"#] {
            let raw = raw(&SourceFile::new("doc.json", text)).unwrap();
            assert!(raw.lazy.is_none());
            assert_eq!(raw.root, whole(text));
        }
        assert!(raw(&SourceFile::new("doc.json", "{")).is_none());
    }
}
