//! A document as written, for inspection (the report's source excerpts and fidelity
//! counts), without holding its whole value tree: a JSON document's `paths` (Graph
//! beta's are 42 of its 47 MB, ~500 MB as one tree) stay text, each path item parsed
//! when it is looked at and dropped after.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::Arc;

use serde_json::Value;

use super::locate::Locator;
use super::tree::{PathItems, Root};
use crate::diagnostics::SourceFile;
use crate::source::yaml;

/// A document as written: its JSON value (a JSON document's path items left out, see
/// [`Raw::path_items`]) and where each operation is in the text.
#[derive(Default)]
pub struct Raw {
    /// The document; when the path items are kept as text, `paths` maps each path to
    /// `null` (its members, and so what a format check sees, are the document's).
    pub root: Value,
    /// (path, method) → byte range of the operation in the file.
    pub operations: BTreeMap<(String, String), Range<usize>>,
    /// A JSON document's path items as text.
    items: Option<PathItems>,
}

impl std::fmt::Debug for Raw {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Raw")
            .field("root", &self.root)
            .field("operations", &self.operations)
            .finish_non_exhaustive()
    }
}

/// Parses `file` again, as [`super::read`] does, without lowering it; `None` when it
/// does not parse (reading it reported why).
pub fn raw(file: &Arc<SourceFile>) -> Option<Raw> {
    raw_with(file, false)
}

/// [`raw`] without the document's schemas and examples: `components.schemas` and
/// `components.examples` keep their names, each `null`. For what only counts them
/// (a report's fidelity matrix): Microsoft Graph beta's, parsed, took ~44 MB while the
/// whole API as read was alive.
pub fn raw_outline(file: &Arc<SourceFile>) -> Option<Raw> {
    raw_with(file, true)
}

fn raw_with(file: &Arc<SourceFile>, outlined: bool) -> Option<Raw> {
    if !file.path.ends_with(".json") {
        let node = yaml::parse(
            file,
            0..file.text.len(),
            1,
            yaml::Limits::document(file.text.len()),
        )
        .ok()?;
        let mut root = node.to_json();
        if outlined {
            super::tree::outline(&mut root);
        }
        let operations = Locator::Yaml(node).operations(&file.text);
        return Some(Raw {
            root,
            operations,
            items: None,
        });
    }
    let operations = Locator::Json.operations(&file.text);
    // The path items as text when the document has them; else parsed whole, as before.
    let (root, items) = match super::tree::split_with(file, outlined) {
        Some((root, items)) => (root, Some(items)),
        None => {
            let mut root = serde_json::from_str::<Value>(&file.text).ok()?;
            if outlined {
                super::tree::outline(&mut root);
            }
            (root, None)
        }
    };
    Some(Raw {
        root,
        operations,
        items,
    })
}

impl Raw {
    fn tree(&self) -> Root<'_> {
        match &self.items {
            Some(items) => Root::split(&self.root, items),
            None => Root::whole(&self.root),
        }
    }

    /// Every path item of `paths` (an object), by path, in order: parsed one at a time
    /// when the document's path items were left as text.
    pub fn path_items(&self) -> Box<dyn Iterator<Item = (&str, Cow<'_, Value>)> + '_> {
        self.tree().path_items()
    }

    /// The value at a local JSON pointer (`/components/parameters/id`), as
    /// [`Value::pointer`] on the whole document finds it.
    pub fn pointer(&self, pointer: &str) -> Option<&Value> {
        self.tree().pointer(pointer)
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
        let text = r##"{"openapi": "3.1.0", "paths": {"/a/{id}": {"parameters": [{"$ref": "#/paths/~1b/get/parameters/0"}], "get": {"x": 1}}, "/b": {"get": {"parameters": [{"name": "q", "in": "query"}]}}, "/c~d": {"get": {}}}, "components": {"parameters": {"p": {"name": "p"}}}}"##;
        let file = SourceFile::new("doc.json", text);
        let raw = raw(&file).unwrap();
        assert!(raw.items.is_some());
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
            "/paths/~1c~0d",
            "/nothing",
        ] {
            assert_eq!(raw.pointer(pointer), doc.pointer(pointer), "{pointer}");
        }
        assert_eq!(raw.root["paths"].as_object().unwrap().len(), 3);
        assert_eq!(raw.root["components"], doc["components"]);
        assert_eq!(raw.operations.len(), 3);
    }

    /// An outline is the document with each schema and example `null`, whichever way
    /// it was read (split, whole or YAML).
    #[test]
    fn outlines_keep_the_names_of_schemas_and_examples_only() {
        let json = r##"{"openapi": "3.1.0", "paths": {"/a": {"get": {"x": 1}}}, "components": {"schemas": {"A": {"type": "object"}, "B": {"$ref": "#/components/schemas/A"}}, "examples": {"e": {"value": 1}}, "parameters": {"p": {"name": "p"}}}}"##;
        let yaml = "openapi: 3.1.0\npaths:\n  /a:\n    get: {x: 1}\ncomponents:\n  schemas:\n    A: {type: object}\n    B: {$ref: '#/components/schemas/A'}\n  examples:\n    e: {value: 1}\n  parameters:\n    p: {name: p}\n";
        let mut expected = whole(json);
        for name in ["A", "B"] {
            expected["components"]["schemas"][name] = Value::Null;
        }
        expected["components"]["examples"]["e"] = Value::Null;
        for (path, text) in [("doc.json", json), ("doc.yaml", yaml)] {
            let outline = raw_outline(&SourceFile::new(path, text)).unwrap();
            let mut root = outline.root.clone();
            if outline.items.is_some() {
                root["paths"] = whole(json)["paths"].clone();
            }
            assert_eq!(root, expected, "{path}");
            assert_eq!(outline.path_items().count(), 1, "{path}");
            assert_eq!(
                outline.pointer("/components/parameters/p"),
                Some(&serde_json::json!({"name": "p"})),
                "{path}"
            );
        }
    }

    #[test]
    fn documents_of_other_shapes_are_parsed_whole() {
        for text in [r#"{"paths": []}"#, r#"[1, 2]"#] {
            let raw = raw(&SourceFile::new("doc.json", text)).unwrap();
            assert!(raw.items.is_none());
            assert_eq!(raw.root, whole(text));
        }
        assert!(raw(&SourceFile::new("doc.json", "{")).is_none());
    }
}
