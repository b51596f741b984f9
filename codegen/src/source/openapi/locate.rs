//! JSON pointers back to positions in the source text, computed only when a finding
//! needs one (large documents are parsed with serde_json, which keeps no positions).

use std::collections::BTreeMap;
use std::ops::Range;

use crate::source::yaml::{Node, NodeValue};

/// Finds where a JSON pointer's value starts in the document.
pub enum Locator {
    /// JSON text: scanned on demand.
    Json,
    /// YAML: the spanned tree from parsing.
    Yaml(Node),
    /// A document converted from another format: pointers into the converted
    /// document are translated to the original's (longest matching prefix first) and
    /// located there.
    Translated {
        /// (converted prefix, original prefix), longest converted prefix first.
        prefixes: Vec<(String, String)>,
        original: Box<Locator>,
    },
    /// A document converted from a format with no JSON pointers (GraphQL SDL): each
    /// converted prefix names the place it came from, longest prefix first.
    Places(Vec<(String, Place)>),
}

/// Where a converted definition came from in its original file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// A byte range (SDL).
    Span(Range<usize>),
    /// A JSON pointer (introspection JSON), located when a finding needs it.
    Pointer(String),
}

impl Place {
    /// The byte range in `text` (JSON text for a pointer).
    pub fn span(&self, text: &str) -> Range<usize> {
        match self {
            Place::Span(r) => r.clone(),
            Place::Pointer(p) => Locator::Json.locate(text, p),
        }
    }
}

impl Locator {
    /// A translating locator over `original`; `prefixes` in any order.
    /// A locator of places; `prefixes` in any order.
    pub fn places(mut prefixes: Vec<(String, Place)>) -> Locator {
        prefixes.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then_with(|| a.0.cmp(&b.0)));
        Locator::Places(prefixes)
    }

    pub fn translated(mut prefixes: Vec<(String, String)>, original: Locator) -> Locator {
        prefixes.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then_with(|| a.0.cmp(&b.0)));
        Locator::Translated {
            prefixes,
            original: Box::new(original),
        }
    }

    /// The pointer in the original document (itself unless translated).
    pub fn translate<'p>(&self, pointer: &'p str) -> std::borrow::Cow<'p, str> {
        let Locator::Translated { prefixes, .. } = self else {
            return pointer.into();
        };
        for (from, to) in prefixes {
            if let Some(rest) = pointer.strip_prefix(from.as_str())
                && (rest.is_empty() || rest.starts_with('/'))
            {
                return format!("{to}{rest}").into();
            }
        }
        pointer.into()
    }

    /// Byte range of the value at `pointer` (`/paths/~1pets/get`), or of the deepest
    /// ancestor that exists.
    pub fn locate(&self, text: &str, pointer: &str) -> Range<usize> {
        let tokens = pointer_tokens(pointer);
        match self {
            Locator::Json => json(text, &tokens),
            Locator::Yaml(root) => yaml(root, &tokens),
            Locator::Translated { original, .. } => original.locate(text, &self.translate(pointer)),
            Locator::Places(prefixes) => prefixes
                .iter()
                .find(|(from, _)| {
                    pointer
                        .strip_prefix(from.as_str())
                        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
                })
                .map_or(0..0, |(_, place)| place.span(text)),
        }
    }

    /// Byte range of every operation under `paths` (from its method key to the end of
    /// its value), keyed by (path, method), in one walk over the document: locating
    /// each with [`Locator::locate`] would rescan `paths` once per operation.
    pub fn operations(&self, text: &str) -> BTreeMap<(String, String), Range<usize>> {
        let mut out = BTreeMap::new();
        let is_method = |m: &str| super::operations::METHODS.contains(&m);
        match self {
            Locator::Json => {
                let b = text.as_bytes();
                let Some(paths) = json_entries(b, skip_ws(b, 0))
                    .into_iter()
                    .find(|(k, _, _)| k == "paths")
                else {
                    return out;
                };
                for (path, _, item) in json_entries(b, paths.2) {
                    for (method, key, value) in json_entries(b, item) {
                        if is_method(&method) {
                            out.insert((path.clone(), method), key.start..skip_value(b, value));
                        }
                    }
                }
            }
            Locator::Translated { .. } | Locator::Places(_) => {}
            Locator::Yaml(root) => {
                let Some((_, _, paths)) = yaml_entries(root)
                    .into_iter()
                    .find(|(k, _, _)| k == "paths")
                else {
                    return out;
                };
                for (path, _, item) in yaml_entries(paths) {
                    for (method, start, value) in yaml_entries(item) {
                        if is_method(&method) {
                            out.insert((path.clone(), method), start..value.span.end.max(start));
                        }
                    }
                }
            }
        }
        out
    }
}

/// Byte range of every method of a Google Discovery document (JSON), keyed by its
/// pointer (`/resources/files/methods/list`), in one walk over the text.
pub fn discovery_methods(text: &str) -> BTreeMap<String, Range<usize>> {
    fn walk(b: &[u8], object: usize, pointer: &str, out: &mut BTreeMap<String, Range<usize>>) {
        for (key, _, value) in json_entries(b, object) {
            match key.as_str() {
                "methods" => {
                    for (name, range, method) in json_entries(b, value) {
                        let at = format!("{pointer}/methods/{}", super::escape(&name));
                        out.insert(at, range.start..skip_value(b, method));
                    }
                }
                "resources" => {
                    for (name, _, resource) in json_entries(b, value) {
                        let at = format!("{pointer}/resources/{}", super::escape(&name));
                        walk(b, resource, &at, out);
                    }
                }
                _ => {}
            }
        }
    }
    let b = text.as_bytes();
    let mut out = BTreeMap::new();
    walk(b, skip_ws(b, 0), "", &mut out);
    out
}

/// The entries of a YAML mapping: key text, key start, value.
fn yaml_entries(node: &Node) -> Vec<(String, usize, &Node)> {
    match &node.value {
        NodeValue::Map(entries) => entries
            .iter()
            .filter_map(|(k, v)| Some((k.scalar_text()?, k.span.start, v)))
            .collect(),
        _ => Vec::new(),
    }
}

/// The entries of the JSON object starting at `pos`: key, key range, value start.
fn json_entries(b: &[u8], pos: usize) -> Vec<(String, Range<usize>, usize)> {
    let mut out = Vec::new();
    if b.get(pos) != Some(&b'{') {
        return out;
    }
    let mut p = skip_ws(b, pos + 1);
    while b.get(p) == Some(&b'"') {
        let key_end = skip_string(b, p);
        let key: String = serde_json::from_slice(&b[p..key_end]).unwrap_or_default();
        let value = skip_ws(b, skip_ws(b, key_end) + 1);
        out.push((key, p..key_end, value));
        p = skip_ws(b, skip_value(b, value));
        if b.get(p) == Some(&b',') {
            p = skip_ws(b, p + 1);
        }
    }
    out
}

/// Walks the spanned tree; a mapping entry is reported at its key (where a reader
/// looks), a list item at the item.
fn yaml(root: &Node, tokens: &[String]) -> Range<usize> {
    let mut node = root;
    let mut span = root.span.clone();
    for token in tokens {
        let next = match &node.value {
            NodeValue::Map(entries) => entries
                .iter()
                .find(|(k, _)| k.scalar_text().as_deref() == Some(token.as_str()))
                .map(|(k, v)| (k.span.clone(), v)),
            NodeValue::Seq(items) => token
                .parse::<usize>()
                .ok()
                .and_then(|i| items.get(i))
                .map(|v| (v.span.clone(), v)),
            _ => None,
        };
        let Some((at, value)) = next else { break };
        span = at;
        node = value;
    }
    span
}

/// A minimal JSON walker: skips values it does not descend into.
fn json(text: &str, tokens: &[String]) -> Range<usize> {
    walk(text.as_bytes(), tokens).0
}

/// The byte range of each item of the JSON array at `pointer`, in one scan (empty when
/// there is no array there): locating each item by its own pointer would rescan the
/// document once per item.
pub fn array_items(text: &str, pointer: &str) -> Vec<Range<usize>> {
    let tokens = pointer_tokens(pointer);
    let bytes = text.as_bytes();
    let (_, pos, reached) = walk(bytes, &tokens);
    let mut items = Vec::new();
    if !reached || bytes.get(pos) != Some(&b'[') {
        return items;
    }
    let mut p = skip_ws(bytes, pos + 1);
    while p < bytes.len() && bytes[p] != b']' {
        let end = skip_value(bytes, p);
        items.push(p..end);
        p = skip_ws(bytes, end);
        if bytes.get(p) == Some(&b',') {
            p = skip_ws(bytes, p + 1);
        } else {
            break;
        }
    }
    items
}

/// The members of a JSON object: key, key range, value start.
pub type Members = Vec<(String, Range<usize>, usize)>;

/// A JSON document's root members and its path items, each found in one scan, so
/// that locating many findings (placeholders under `paths` and `components`) need not
/// skip what comes before them each time: Graph beta's `paths` are 42 MB.
#[derive(Debug, Default)]
pub struct Index {
    root: Members,
    /// The members of the first `paths` member.
    paths: Members,
}

/// The index of JSON `text` (empty when it is no object).
pub fn index(text: &str) -> Index {
    let b = text.as_bytes();
    let root = json_entries(b, skip_ws(b, 0));
    let paths = root
        .iter()
        .find(|(key, _, _)| key == "paths")
        .map(|(_, _, value)| json_entries(b, *value))
        .unwrap_or_default();
    Index { root, paths }
}

/// [`Locator::locate`] of a JSON document, starting from what `index` found.
pub fn locate_json(text: &str, index: &Index, pointer: &str) -> Range<usize> {
    let tokens = pointer_tokens(pointer);
    let bytes = text.as_bytes();
    // The first member of each name, as the walk from the root finds it.
    let first = |members: &Members, token: Option<&String>| {
        token.and_then(|t| members.iter().find(|(key, _, _)| key == t).cloned())
    };
    match first(&index.root, tokens.first()) {
        Some((name, key, value)) => match first(&index.paths, tokens.get(1)) {
            Some((_, item_key, item)) if name == "paths" => {
                walk_from(bytes, item, item_key, &tokens[2..]).0
            }
            _ => walk_from(bytes, value, key, &tokens[1..]).0,
        },
        None => json(text, &tokens),
    }
}

/// Follows `tokens` from the root: the range to show for the deepest one found, where
/// that value starts, and whether every token was found.
fn walk(bytes: &[u8], tokens: &[String]) -> (Range<usize>, usize, bool) {
    let pos = skip_ws(bytes, 0);
    walk_from(bytes, pos, pos..pos + 1, tokens)
}

/// [`walk`] from the value at `pos`, shown as `found` when no token is found.
fn walk_from(
    bytes: &[u8],
    mut pos: usize,
    mut found: Range<usize>,
    tokens: &[String],
) -> (Range<usize>, usize, bool) {
    let mut reached = 0;
    for token in tokens {
        match bytes.get(pos) {
            Some(b'{') => {
                let mut p = skip_ws(bytes, pos + 1);
                let mut hit = None;
                while bytes.get(p) == Some(&b'"') {
                    let key_start = p;
                    let key_end = skip_string(bytes, p);
                    p = skip_ws(bytes, key_end);
                    p = skip_ws(bytes, p + 1); // ':'
                    if key_is(&bytes[key_start..key_end], token) {
                        hit = Some((key_start..key_end, p));
                        break;
                    }
                    p = skip_ws(bytes, skip_value(bytes, p));
                    if bytes.get(p) == Some(&b',') {
                        p = skip_ws(bytes, p + 1);
                    }
                }
                let Some((key, value)) = hit else { break };
                found = key;
                pos = value;
            }
            Some(b'[') => {
                let Ok(index) = token.parse::<usize>() else {
                    break;
                };
                let mut p = skip_ws(bytes, pos + 1);
                for _ in 0..index {
                    p = skip_ws(bytes, skip_value(bytes, p));
                    if bytes.get(p) == Some(&b',') {
                        p = skip_ws(bytes, p + 1);
                    }
                }
                found = p..p + 1;
                pos = p;
            }
            _ => break,
        }
        reached += 1;
    }
    (found, pos, reached == tokens.len())
}

/// Whether the quoted JSON string `quoted` is `token`: compared as written when it
/// has no escape (most keys; decoding each key skipped cost an allocation), decoded
/// otherwise.
fn key_is(quoted: &[u8], token: &str) -> bool {
    let inner = quoted
        .strip_prefix(b"\"")
        .and_then(|q| q.strip_suffix(b"\""));
    match inner {
        Some(inner) if !inner.contains(&b'\\') => inner == token.as_bytes(),
        _ => serde_json::from_slice::<String>(quoted).is_ok_and(|key| key == token),
    }
}

fn skip_ws(b: &[u8], mut p: usize) -> usize {
    while p < b.len() && b[p].is_ascii_whitespace() {
        p += 1;
    }
    p
}

fn skip_string(b: &[u8], mut p: usize) -> usize {
    p += 1;
    while p < b.len() {
        match b[p] {
            b'\\' => p += 2,
            b'"' => return p + 1,
            _ => p += 1,
        }
    }
    p
}

fn skip_value(b: &[u8], p: usize) -> usize {
    match b.get(p) {
        Some(b'"') => skip_string(b, p),
        Some(b'{' | b'[') => {
            let mut depth = 0usize;
            let mut q = p;
            while q < b.len() {
                match b[q] {
                    b'"' => {
                        q = skip_string(b, q);
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return q + 1;
                        }
                    }
                    _ => {}
                }
                q += 1;
            }
            q
        }
        _ => {
            let mut q = p;
            while q < b.len() && !matches!(b[q], b',' | b'}' | b']') && !b[q].is_ascii_whitespace()
            {
                q += 1;
            }
            q
        }
    }
}

/// A JSON pointer's reference tokens, unescaped (`/paths/~1pets` → `["paths", "/pets"]`).
fn pointer_tokens(pointer: &str) -> Vec<String> {
    pointer
        .split('/')
        .skip(1)
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_keys_in_json() {
        let text = "{\n  \"paths\": {\n    \"/a/{b}\": {\"get\": {\"x\": [1, {\"y\": 2}]}}\n  }\n}";
        let at = |p: &str| {
            let r = Locator::Json.locate(text, p);
            text[r].to_owned()
        };
        assert_eq!(at("/paths"), "\"paths\"");
        assert_eq!(at("/paths/~1a~1{b}/get"), "\"get\"");
        assert_eq!(at("/paths/~1a~1{b}/get/x/1/y"), "\"y\"");
        assert_eq!(at("/paths/missing"), "\"paths\"");
    }

    #[test]
    fn located_from_the_index_as_from_the_root() {
        let text = r#"{"paths": {"/a": {"get": {"x": 1}}, "/a": 2, "/\u0062": {"y": 3}}, "a\u002fb": {"c": [0, {"d": 2}]},
            "components": {"schemas": {"S": {"properties": {"description": {"description": "x"}}}}},
            "paths": {"/dup": 1}}"#;
        let index = index(text);
        assert_eq!((index.root.len(), index.paths.len()), (4, 3));
        for pointer in [
            "",
            "/paths",
            "/paths/~1a/get/x",
            "/paths/~1a/get/z",
            "/paths/~1b/y",
            "/paths/~1c",
            "/paths/~1dup",
            "/a~1b/c/1/d",
            "/a~1b/c/7",
            "/components/schemas/S/properties/description/description",
            "/components/schemas/T",
            "/nothing/here",
        ] {
            assert_eq!(
                locate_json(text, &index, pointer),
                Locator::Json.locate(text, pointer),
                "{pointer}"
            );
        }
        assert!(key_is(br#""a\u002fb""#, "a/b"));
        assert!(key_is(br#""ab""#, "ab"));
        assert!(!key_is(br#""ab""#, "a"));
    }
}
