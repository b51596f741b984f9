//! How generated types read and write JSON: `Serialize`/`Deserialize` impls written
//! out (not derived) over the runtime's `codec` helpers, and only where a type needs
//! them.
//!
//! Measured on GitHub's client (1,223 operations): derived serde code was most of a
//! clean `cargo check` — the type and borrow checkers of each derive's field enum,
//! visitors and sequence reader. A written-out impl is one line per field. And a type
//! gets only the directions it is used in: operation inputs are written (the executor
//! checks arguments against the schema, never by deserializing them), outputs and
//! error bodies are read, and the types they contain follow; `Config::full_serde`
//! gives every type both.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use super::names::lit;

/// The directions a type is used in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Needs {
    pub serialize: bool,
    pub deserialize: bool,
}

impl Needs {
    pub const SERIALIZE: Needs = Needs {
        serialize: true,
        deserialize: false,
    };
    pub const DESERIALIZE: Needs = Needs {
        serialize: false,
        deserialize: true,
    };
    pub const BOTH: Needs = Needs {
        serialize: true,
        deserialize: true,
    };

    fn union(self, other: Needs) -> Needs {
        Needs {
            serialize: self.serialize || other.serialize,
            deserialize: self.deserialize || other.deserialize,
        }
    }
}

/// A type's JSON form.
#[derive(Debug)]
pub enum Codec {
    /// An object: named fields (optional ones left out when `None`), and the
    /// properties beyond them in `extra`.
    Struct {
        fields: Vec<FieldCodec>,
        extra: Option<String>,
        /// Reading refuses properties no field names (operation inputs).
        deny_unknown: bool,
    },
    /// `struct T(pub U)`, read and written as its content.
    Newtype,
    /// Untagged variants, read by trying each in order.
    Untagged(Vec<String>),
    /// Fieldless variants and their strings.
    Strings(Vec<(String, String)>),
}

#[derive(Debug)]
pub struct FieldCodec {
    /// The field, as written in code.
    pub ident: String,
    /// The property name on the wire.
    pub key: String,
    /// `T` (else `Option<T>`, left out when `None`).
    pub required: bool,
    /// `Bytes`, written as base64 text.
    pub binary: bool,
}

/// A generated item: its code (text), and its JSON form when it has one.
#[derive(Debug)]
pub struct Item {
    pub name: String,
    pub code: String,
    pub codec: Option<Codec>,
}

/// What each item needs: the roots' needs, carried to every type an item names
/// (in its fields, variants or alias), so a type written as part of an input can be
/// written too. A type nothing reaches needs nothing.
pub fn resolve(items: &[Item], graph: &Graph, roots: &[Root]) -> Vec<Needs> {
    let mut needs = vec![Needs::default(); items.len()];
    let seeds = graph.seeds(roots, |root| root.needs);
    graph.spread(&mut needs, seeds, |a, b| a.union(*b));
    needs
}

/// A type the client writes or reads directly, and the cargo features its operation
/// is behind (`None`: always compiled).
#[derive(Debug)]
pub struct Root {
    /// The type, as written in code.
    pub ty: String,
    pub needs: Needs,
    pub gate: Option<BTreeSet<String>>,
}

/// Which generated types name which.
pub struct Graph {
    /// Item by its name as written (hashed: every identifier of the module is looked
    /// up here).
    index: std::collections::HashMap<String, usize>,
    edges: Vec<BTreeSet<usize>>,
}

impl Graph {
    pub fn new(items: &[Item]) -> Self {
        // Keyed by the identifier as written in code (`Self` is written `Self_`, a
        // keyword `r#type`), which is what the code names.
        let index: std::collections::HashMap<String, usize> = items
            .iter()
            .enumerate()
            .map(|(i, item)| (super::names::ident(&item.name), i))
            .collect();
        let mut graph = Graph {
            index,
            edges: Vec::new(),
        };
        graph.edges = items.iter().map(|item| graph.named(&item.code)).collect();
        graph
    }

    /// Each item `roots` name, with what `state` says of its root.
    fn seeds<S: Clone>(&self, roots: &[Root], state: impl Fn(&Root) -> S) -> Vec<(usize, S)> {
        roots
            .iter()
            .flat_map(|root| {
                let s = state(root);
                self.named(&root.ty)
                    .into_iter()
                    .map(move |i| (i, s.clone()))
            })
            .collect()
    }

    /// Joins each seed's state into its item's, and carries every change on to the
    /// items it names, until nothing changes.
    fn spread<S: Clone + PartialEq>(
        &self,
        states: &mut [S],
        mut pending: Vec<(usize, S)>,
        join: impl Fn(&S, &S) -> S,
    ) {
        while let Some((i, state)) = pending.pop() {
            let now = join(&states[i], &state);
            if now == states[i] {
                continue;
            }
            states[i] = now.clone();
            pending.extend(self.edges[i].iter().map(|&j| (j, now.clone())));
        }
    }

    /// The items `code` names.
    fn named(&self, code: &str) -> BTreeSet<usize> {
        let mut out = BTreeSet::new();
        idents(code, &mut |ident| {
            // Type names are Pascal case (or raw): most identifiers (paths, fields,
            // keywords) cannot be one.
            let candidate =
                ident.starts_with(|c: char| c.is_ascii_uppercase()) || ident.starts_with("r#");
            if let Some(&i) = candidate.then(|| self.index.get(ident)).flatten() {
                out.insert(i);
            }
        });
        out
    }
}

/// The features each item is compiled under: `None` when some always-compiled
/// operation reaches it (or nothing does), else the features of every operation that
/// reaches it — a type used by two tags' operations is there when either is enabled.
pub fn gates(items: &[Item], graph: &Graph, roots: &[Root]) -> Vec<Option<BTreeSet<String>>> {
    #[derive(Clone, PartialEq)]
    enum Gate {
        Unreached,
        Always,
        Features(BTreeSet<String>),
    }
    let join = |a: &Gate, b: &Gate| match (a, b) {
        (Gate::Always, _) | (_, Gate::Always) => Gate::Always,
        (Gate::Unreached, g) | (g, Gate::Unreached) => g.clone(),
        (Gate::Features(x), Gate::Features(y)) => Gate::Features(x.union(y).cloned().collect()),
    };
    let mut gates = vec![Gate::Unreached; items.len()];
    let seeds = graph.seeds(roots, |root| {
        root.gate.clone().map_or(Gate::Always, Gate::Features)
    });
    graph.spread(&mut gates, seeds, join);
    // A type no operation reaches (a definition only an untyped value refers to) is
    // always compiled, and so must be every type it names.
    let unreached: Vec<(usize, Gate)> = (0..items.len())
        .filter(|&i| gates[i] == Gate::Unreached)
        .map(|i| (i, Gate::Always))
        .collect();
    graph.spread(&mut gates, unreached, join);
    gates
        .into_iter()
        .map(|g| match g {
            Gate::Features(features) => Some(features),
            Gate::Always | Gate::Unreached => None,
        })
        .collect()
}

/// `#[cfg(any(feature = "a", ...))]`.
pub fn cfg(features: &BTreeSet<String>) -> String {
    let features: Vec<String> = features
        .iter()
        .map(|f| format!("feature = {}", lit(f)))
        .collect();
    format!("#[cfg(any({}))]\n", features.join(", "))
}

/// Calls `found` with each identifier of generated code (`r#type` whole), skipping
/// comments, string literals and lifetimes: only what the code names.
fn idents<'a>(code: &'a str, found: &mut impl FnMut(&'a str)) {
    let bytes = code.as_bytes();
    let is_start = |b: u8| b.is_ascii_alphabetic() || b == b'_';
    let is_part = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'r' if raw_string(&bytes[i..]).is_some() => {
                // A raw string `r"..."`, `r#"..."#` (it closes at a quote followed by
                // as many `#` as it opened with).
                let hashes = raw_string(&bytes[i..]).unwrap_or(0);
                let close = |at: usize| {
                    bytes[at] == b'"'
                        && bytes.len() > at + hashes
                        && bytes[at + 1..=at + hashes].iter().all(|&b| b == b'#')
                };
                i += 2 + hashes;
                while i < bytes.len() && !close(i) {
                    i += 1;
                }
                i += 1 + hashes;
            }
            b'\'' => {
                i += 1;
                while i < bytes.len() && is_part(bytes[i]) {
                    i += 1;
                }
            }
            b if is_start(b) => {
                let start = i;
                if b == b'r' && bytes.get(i + 1) == Some(&b'#') {
                    i += 2;
                }
                while i < bytes.len() && is_part(bytes[i]) {
                    i += 1;
                }
                found(&code[start..i]);
            }
            b if b.is_ascii_digit() => {
                while i < bytes.len() && is_part(bytes[i]) {
                    i += 1;
                }
            }
            _ => i += 1,
        }
    }
}

/// The number of `#` of a raw string literal starting `text` (`r"`, `r#"`, ...).
fn raw_string(text: &[u8]) -> Option<usize> {
    let hashes = text.get(1..)?.iter().take_while(|&&b| b == b'#').count();
    (text.first() == Some(&b'r') && text.get(1 + hashes) == Some(&b'"')).then_some(hashes)
}

const SERDE: &str = "::toolwright::__private::serde";
const CODEC: &str = "::toolwright::__private::codec";

/// The `Serialize` and `Deserialize` impls `needs` asks for, written to `out`.
pub fn impls(out: &mut String, name: &str, codec: &Codec, needs: Needs) {
    let ident = super::names::ident(name);
    if needs.serialize {
        let _ = write!(
            out,
            "impl {SERDE}::Serialize for {ident} {{\n    \
             fn serialize<S: {SERDE}::Serializer>(\n        \
             &self,\n        \
             serializer: S,\n    \
             ) -> ::std::result::Result<S::Ok, S::Error> {{\n"
        );
        serialize_body(codec, out);
        out.push_str("    }\n}\n");
    }
    if needs.deserialize {
        // A struct's field reader names its type (it is a function of its own, where
        // `Self` is not in scope): a type named `D` takes another parameter name.
        let d = if ident == "D" { "__D" } else { "D" };
        let _ = write!(
            out,
            "impl<'de> {SERDE}::Deserialize<'de> for {ident} {{\n    \
             fn deserialize<{d}: {SERDE}::Deserializer<'de>>(\n        \
             deserializer: {d},\n    \
             ) -> ::std::result::Result<Self, {d}::Error> {{\n"
        );
        deserialize_body(name, codec, out);
        out.push_str("    }\n}\n");
    }
}

// Bodies say `Self`, never the type's name: a schema named `S` or `D` would be the
// generic parameter there (a struct's field reader, which must name its type, is the
// one exception: `impls` renames the parameter for a type named `D`). They are written
// at the indentation of a method body.
fn serialize_body(codec: &Codec, out: &mut String) {
    const IN: &str = "        ";
    match codec {
        Codec::Struct { fields, extra, .. } => {
            if fields.is_empty() && extra.is_none() {
                let _ = writeln!(
                    out,
                    "{IN}{SERDE}::ser::SerializeMap::end(serializer.serialize_map(::std::option::Option::Some(0))?)"
                );
                return;
            }
            let _ = writeln!(out, "{IN}use {SERDE}::ser::SerializeMap as _;");
            let _ = writeln!(
                out,
                "{IN}let mut map = serializer.serialize_map(::std::option::Option::None)?;"
            );
            for f in fields {
                let (field, key) = (&f.ident, lit(&f.key));
                // Bytes go out as base64 text (JSON has no bytes).
                let wrap = |value: &str| {
                    if f.binary {
                        format!("&::toolwright::__private::codec::Base64({value})")
                    } else {
                        value.to_owned()
                    }
                };
                if f.required {
                    let value = wrap(&format!("&self.{field}"));
                    let _ = writeln!(out, "{IN}map.serialize_entry({key}, {value})?;");
                } else {
                    let value = wrap("value");
                    let _ = write!(
                        out,
                        "{IN}if let ::std::option::Option::Some(value) = &self.{field} {{\n\
                         {IN}    map.serialize_entry({key}, {value})?;\n\
                         {IN}}}\n"
                    );
                }
            }
            if let Some(field) = extra {
                let _ = write!(
                    out,
                    "{IN}for (key, value) in &self.{field} {{\n\
                     {IN}    map.serialize_entry(key, value)?;\n\
                     {IN}}}\n"
                );
            }
            let _ = writeln!(out, "{IN}map.end()");
        }
        Codec::Newtype => {
            let _ = writeln!(
                out,
                "{IN}{SERDE}::Serialize::serialize(&self.0, serializer)"
            );
        }
        Codec::Untagged(variants) => {
            let _ = writeln!(out, "{IN}match self {{");
            for v in variants {
                let _ = writeln!(
                    out,
                    "{IN}    Self::{v}(value) => {SERDE}::Serialize::serialize(value, serializer),"
                );
            }
            let _ = writeln!(out, "{IN}}}");
        }
        Codec::Strings(variants) => {
            let texts: Vec<String> = variants.iter().map(|(_, text)| lit(text)).collect();
            let _ = writeln!(
                out,
                "{IN}serializer.serialize_str([{}][*self as usize])",
                texts.join(", ")
            );
        }
    }
}

fn deserialize_body(name: &str, codec: &Codec, out: &mut String) {
    const IN: &str = "        ";
    match codec {
        Codec::Struct {
            fields,
            extra,
            deny_unknown,
        } => {
            // The fields are read in a plain function, not in the generic
            // `deserialize`: what the type checker and borrow checker pay per struct
            // (`toolwright::__private::codec::Fields`).
            const BODY: &str = "            ";
            let ident = super::names::ident(name);
            let expected = lit(&format!("struct {name}"));
            let empty = fields.is_empty() && extra.is_none();
            let refuses = *deny_unknown && extra.is_none();
            let binding = if empty && !refuses {
                "_object"
            } else {
                "object"
            };
            let _ = writeln!(
                out,
                "{IN}fn fields(\n{BODY}{binding}: &mut {CODEC}::Fields,\n\
                 {IN}) -> ::std::result::Result<{ident}, {CODEC}::FieldError> {{"
            );
            let mut value = String::new();
            if empty {
                let _ = write!(value, "{ident} {{}}");
            } else {
                let _ = writeln!(value, "{ident} {{");
                for f in fields {
                    let read = if f.required { "req" } else { "opt" };
                    let _ = writeln!(
                        value,
                        "{BODY}    {}: object.{read}({})?,",
                        f.ident,
                        lit(&f.key)
                    );
                }
                if let Some(field) = extra {
                    let _ = writeln!(value, "{BODY}    {field}: object.rest()?,");
                }
                value.push_str(BODY);
                value.push('}');
            }
            if refuses {
                let known: Vec<String> = fields.iter().map(|f| lit(&f.key)).collect();
                let _ = write!(
                    out,
                    "{BODY}let value = {value};\n\
                     {BODY}object.deny_unknown(&[{}])?;\n\
                     {BODY}::std::result::Result::Ok(value)\n",
                    known.join(", ")
                );
            } else {
                let _ = writeln!(out, "{BODY}::std::result::Result::Ok({value})");
            }
            let _ = write!(
                out,
                "{IN}}}\n{IN}{CODEC}::object(deserializer, {expected}, fields)\n"
            );
        }
        Codec::Newtype => {
            let _ = writeln!(
                out,
                "{IN}{SERDE}::Deserialize::deserialize(deserializer).map(Self)"
            );
        }
        Codec::Untagged(variants) => {
            let _ = writeln!(out, "{IN}let content = {CODEC}::content(deserializer)?;");
            for v in variants {
                let _ = write!(
                    out,
                    "{IN}if let ::std::option::Option::Some(value) = {CODEC}::attempt(&content) {{\n\
                     {IN}    return ::std::result::Result::Ok(Self::{v}(value));\n\
                     {IN}}}\n"
                );
            }
            let _ = writeln!(
                out,
                "{IN}::std::result::Result::Err({CODEC}::no_variant({}))",
                lit(name)
            );
        }
        Codec::Strings(variants) => {
            let all: Vec<String> = variants.iter().map(|(v, _)| format!("Self::{v}")).collect();
            let texts: Vec<String> = variants.iter().map(|(_, text)| lit(text)).collect();
            let _ = write!(
                out,
                "{IN}{CODEC}::variant(deserializer, &[{}])\n{IN}    .map(|i| [{}][i])\n",
                texts.join(", "),
                all.join(", ")
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(name: &str, code: &str) -> Item {
        Item {
            name: name.to_owned(),
            code: code.to_owned(),
            codec: None,
        }
    }

    fn features(names: &[&str]) -> Option<BTreeSet<String>> {
        Some(names.iter().map(|n| (*n).to_owned()).collect())
    }

    #[test]
    fn needs_and_gates_follow_the_types_an_item_names() {
        // Input -> Shared; Output -> Shared, Only; Loose (reached by nothing) -> Only.
        let items = vec![
            item("Input", "pub struct Input { s: Shared, }"),
            item("Output", "pub struct Output { s: Shared, o: Vec<Only>, }"),
            item("Shared", "pub struct Shared;"),
            item("Only", "pub struct Only;"),
            item("Loose", "pub struct Loose { o: Only, }"),
        ];
        let graph = Graph::new(&items);
        let roots = [
            Root {
                ty: "Input".to_owned(),
                needs: Needs::SERIALIZE,
                gate: features(&["api-a"]),
            },
            Root {
                ty: "::std::vec::Vec<Output>".to_owned(),
                needs: Needs::DESERIALIZE,
                gate: features(&["api-b"]),
            },
        ];
        let needs = resolve(&items, &graph, &roots);
        assert_eq!(needs[0], Needs::SERIALIZE);
        assert_eq!(needs[1], Needs::DESERIALIZE);
        assert_eq!(needs[2], Needs::BOTH, "written in one, read in the other");
        assert_eq!(needs[4], Needs::default(), "reached by nothing");
        let gates = gates(&items, &graph, &roots);
        assert_eq!(gates[0], features(&["api-a"]));
        assert_eq!(gates[2], features(&["api-a", "api-b"]));
        // `Loose` is always compiled, so `Only`, which it names, must be too.
        assert_eq!(gates[4], None);
        assert_eq!(gates[3], None);
    }

    #[test]
    fn only_the_code_names_types_not_its_comments_or_literals() {
        let code = "/// Holds a `Shelf`.\npub struct r#Book<'de> { a: Author, \
                    b: &'de str, c: [u8; 2] }\nfn f() { g(\"Shelf\", r##\"Shelf \"# Page\"##, 10usize, Tail) }";
        let mut found = Vec::new();
        idents(code, &mut |i| found.push(i));
        assert_eq!(
            found,
            [
                "pub", "struct", "r#Book", "a", "Author", "b", "str", "c", "u8", "fn", "f", "g",
                "Tail"
            ]
        );
    }
}
