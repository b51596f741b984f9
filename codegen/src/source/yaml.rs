//! YAML into a spanned tree (adapter front matter, OpenAPI documents).
//!
//! serde-saphyr parses with budgets (alias expansion, nesting depth, node count) so that
//! alias bombs and deep nesting are refused quickly with bounded memory. The result is a
//! generic tree with a byte span (in the *file*, not the YAML block) on every node, so
//! readers can validate every field and report all problems at once.

use std::fmt;
use std::ops::Range;
use std::sync::Arc;

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use serde_saphyr::Spanned;

use crate::diagnostics::{Diagnostic, Location, SourceFile, codes};

/// A YAML node with its span in the file.
#[derive(Debug, Clone)]
pub struct Node {
    pub value: NodeValue,
    pub span: Range<usize>,
}

#[derive(Debug, Clone)]
pub enum NodeValue {
    Null,
    Bool(bool),
    Int(i64),
    /// Above `i64::MAX`: kept exact rather than turned into a float.
    UInt(u64),
    Float(f64),
    Str(String),
    Seq(Vec<Node>),
    Map(Vec<(Node, Node)>),
}

impl Node {
    /// The YAML type name, for "expected X, found Y" messages.
    pub fn kind(&self) -> &'static str {
        match self.value {
            NodeValue::Null => "null",
            NodeValue::Bool(_) => "a boolean",
            NodeValue::Int(_) | NodeValue::UInt(_) => "an integer",
            NodeValue::Float(_) => "a number",
            NodeValue::Str(_) => "a string",
            NodeValue::Seq(_) => "a list",
            NodeValue::Map(_) => "a mapping",
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            NodeValue::Str(s) => Some(s),
            _ => None,
        }
    }

    /// A scalar's text (keys like `200` are integers in YAML).
    pub fn scalar_text(&self) -> Option<String> {
        match &self.value {
            NodeValue::Str(s) => Some(s.clone()),
            NodeValue::Int(i) => Some(i.to_string()),
            NodeValue::UInt(u) => Some(u.to_string()),
            NodeValue::Float(f) => Some(f.to_string()),
            NodeValue::Bool(b) => Some(b.to_string()),
            _ => None,
        }
    }

    /// The node as JSON (for defaults, enums and native metadata).
    pub fn to_json(&self) -> Value {
        match &self.value {
            NodeValue::Null => Value::Null,
            NodeValue::Bool(b) => Value::Bool(*b),
            NodeValue::Int(i) => Value::from(*i),
            NodeValue::UInt(u) => Value::from(*u),
            NodeValue::Float(f) => {
                serde_json::Number::from_f64(*f).map_or(Value::Null, Value::Number)
            }
            NodeValue::Str(s) => Value::String(s.clone()),
            NodeValue::Seq(items) => Value::Array(items.iter().map(Node::to_json).collect()),
            NodeValue::Map(entries) => Value::Object(
                entries
                    .iter()
                    .map(|(k, v)| (k.scalar_text().unwrap_or_default(), v.to_json()))
                    .collect(),
            ),
        }
    }
}

/// The raw tree as serde-saphyr gives it, before spans are mapped to the file.
struct Raw(RawValue);

enum RawValue {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(f64),
    Str(String),
    Seq(Vec<Spanned<Raw>>),
    Map(Vec<(Spanned<Raw>, Spanned<Raw>)>),
}

impl<'de> Deserialize<'de> for Raw {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(RawVisitor)
    }
}

struct RawVisitor;

impl<'de> Visitor<'de> for RawVisitor {
    type Value = Raw;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any YAML value")
    }
    fn visit_unit<E>(self) -> Result<Raw, E> {
        Ok(Raw(RawValue::Null))
    }
    fn visit_none<E>(self) -> Result<Raw, E> {
        Ok(Raw(RawValue::Null))
    }
    fn visit_bool<E>(self, v: bool) -> Result<Raw, E> {
        Ok(Raw(RawValue::Bool(v)))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Raw, E> {
        Ok(Raw(RawValue::Int(v)))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Raw, E> {
        Ok(Raw(
            i64::try_from(v).map_or(RawValue::UInt(v), RawValue::Int)
        ))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Raw, E> {
        Ok(Raw(RawValue::Float(v)))
    }
    fn visit_str<E>(self, v: &str) -> Result<Raw, E> {
        Ok(Raw(RawValue::Str(v.to_owned())))
    }
    fn visit_string<E>(self, v: String) -> Result<Raw, E> {
        Ok(Raw(RawValue::Str(v)))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Raw, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Raw(RawValue::Seq(items)))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Raw, A::Error> {
        let mut entries = Vec::new();
        while let Some(entry) = map.next_entry()? {
            entries.push(entry);
        }
        Ok(Raw(RawValue::Map(entries)))
    }
}

/// Parsing limits.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// What is parsed, for messages ("front matter", "OpenAPI document").
    pub what: &'static str,
    pub max_depth: usize,
    pub max_nodes: usize,
    /// Nodes that alias expansion may add in all.
    pub max_replayed: usize,
}

impl Limits {
    /// Adapter front matter: far above any real adapter, far below what hurts.
    pub const FRONT_MATTER: Limits = Limits {
        what: "front matter",
        max_depth: 32,
        max_nodes: 50_000,
        max_replayed: 50_000,
    };

    /// A whole API document of `len` bytes. Without aliases a document cannot hold
    /// more nodes than it has bytes; aliases may add a quarter of that again (at least
    /// 10,000 nodes): real documents use anchors for a few shared fragments, while an
    /// alias bomb multiplies a few hundred bytes into millions of nodes. So any input
    /// is refused or accepted within memory proportional to its size.
    pub fn document(len: usize) -> Limits {
        let max_replayed = (len / 4).max(10_000);
        Limits {
            what: "OpenAPI document",
            max_depth: 128,
            max_nodes: len.saturating_add(max_replayed).min(20_000_000),
            max_replayed,
        }
    }
}

fn options(limits: Limits) -> serde_saphyr::Options {
    let mut budget = serde_saphyr::Budget::default();
    budget.max_depth = limits.max_depth;
    budget.max_nodes = limits.max_nodes;
    budget.max_events = limits.max_nodes.saturating_mul(4);
    budget.max_aliases = 1_000;
    let mut options = serde_saphyr::Options::default();
    options.budget = Some(budget);
    options.alias_limits.max_total_replayed_events = limits.max_replayed;
    // YAML 1.2 booleans only: `NO`, `yes`, `on` stay strings in untyped values.
    options.strict_booleans = true;
    options
}

/// Parses the YAML at `yaml` (a byte range of `file`) whose first line is file line
/// `first_line`.
pub fn parse(
    file: &Arc<SourceFile>,
    yaml: Range<usize>,
    first_line: usize,
    limits: Limits,
) -> Result<Node, Diagnostic> {
    let text = &file.text[yaml.clone()];
    let mapper = SpanMapper {
        file,
        first_line,
        limits,
    };
    match serde_saphyr::from_str_with_options::<Spanned<Raw>>(text, options(limits)) {
        Ok(root) => Ok(mapper.node(root)),
        Err(error) => Err(mapper.error(&error, yaml)),
    }
}

struct SpanMapper<'a> {
    file: &'a Arc<SourceFile>,
    first_line: usize,
    limits: Limits,
}

impl SpanMapper<'_> {
    fn span(&self, location: &serde_saphyr::Location) -> Range<usize> {
        let line = self.first_line + location.line() as usize - 1;
        let text = &self.file.text;
        let mut start = self
            .file
            .offset(line, location.column() as usize)
            .min(text.len());
        while !text.is_char_boundary(start) {
            start -= 1;
        }
        let chars = location.span().len() as usize;
        // Byte arithmetic on ASCII lines: no walk along the line per node.
        let (len, end) = self.file.chars_in_line(start, chars);
        let rest = &text[start..];
        let line_end = end - start;
        // At least one character where there is one on the line (a finding needs
        // something to point at); never past the text or inside a character (found
        // by fuzzing: a span one past the end of a file cut short).
        let len = if len == 0 {
            rest[..line_end].chars().next().map_or(0, char::len_utf8)
        } else {
            len
        };
        start..start + len
    }

    fn node(&self, raw: Spanned<Raw>) -> Node {
        let span = self.span(&raw.referenced);
        let value = match raw.value.0 {
            RawValue::Null => NodeValue::Null,
            RawValue::Bool(b) => NodeValue::Bool(b),
            RawValue::Int(i) => NodeValue::Int(i),
            RawValue::UInt(u) => NodeValue::UInt(u),
            RawValue::Float(f) => NodeValue::Float(f),
            RawValue::Str(s) => NodeValue::Str(s),
            RawValue::Seq(items) => {
                NodeValue::Seq(items.into_iter().map(|i| self.node(i)).collect())
            }
            RawValue::Map(entries) => NodeValue::Map(
                entries
                    .into_iter()
                    .map(|(k, v)| (self.node(k), self.node(v)))
                    .collect(),
            ),
        };
        Node { value, span }
    }

    fn error(&self, error: &serde_saphyr::Error, yaml: Range<usize>) -> Diagnostic {
        let span = match error.location() {
            Some(loc) if loc.line() > 0 => self.span(&loc),
            _ => yaml.start..yaml.start,
        };
        let location = Location {
            file: Arc::clone(self.file),
            span,
        };
        let text = error.without_snippet().to_string();
        // serde-saphyr appends " at line L, column C ..."; we print our own location.
        let message = text
            .split(" at line ")
            .next()
            .unwrap_or(&text)
            .trim()
            .to_owned();
        if message.contains("budget")
            || message.contains("recursion limit")
            || message.contains("limit exceeded")
        {
            Diagnostic::error(
                codes::YAML_LIMIT,
                format!("{} exceeds the YAML safety limits", self.limits.what),
            )
            .at(location)
            .label(message)
            .help(format!(
                "YAML here may nest at most {} levels, hold at most {} nodes, and grow by \
                 at most {} nodes through aliases; remove deep nesting or repeated aliases",
                self.limits.max_depth, self.limits.max_nodes, self.limits.max_replayed
            ))
        } else {
            let help = if self.limits.what == Limits::FRONT_MATTER.what {
                "fix the YAML syntax of the front matter between the `---` lines"
            } else {
                "fix the YAML syntax of the document"
            };
            Diagnostic::error(codes::YAML_SYNTAX, format!("invalid YAML: {message}"))
                .at(location)
                .label(message)
                .help(help)
        }
    }
}
