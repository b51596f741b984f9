//! The one argument check behind every call: a tool's input JSON Schema (2020-12, as
//! the catalog advertises it) compiled once into a tree of checks, then run on each
//! call's arguments. Typed calls (a struct built by hand, serialized) and by-name calls
//! (JSON from a model) go through the same compiled schema, so they refuse the same
//! arguments with the same text, and nothing the catalog advertises goes unchecked.
//!
//! Covered keywords: `type` (with `null` in type arrays), `enum`, `const`,
//! `minimum`/`maximum`, `exclusiveMinimum`/`exclusiveMaximum`, `multipleOf`,
//! `minLength`/`maxLength` (in characters), `pattern` (compiled once; the ECMA-262
//! subset that `regex-lite` shares), `format` (`date`, `date-time`, `time`, `uuid`,
//! `email`, `byte`, `duration`, `int32`, `int64`), `items`, `prefixItems`, `minItems`/`maxItems`,
//! `uniqueItems`, `properties`, `required`, `dependentRequired`, `additionalProperties`,
//! `minProperties`/`maxProperties`, `allOf`/`anyOf`/`oneOf`/`not`, and `$ref` into
//! `#/$defs`. Other keywords are annotations here.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::{Map, Number, Value};

use super::ArgumentError;
use super::format::Format;

/// A compiled input schema.
#[derive(Debug)]
pub struct SchemaCheck {
    root: Node,
    /// `$defs`, compiled once each; a `$ref` points here by index.
    definitions: Vec<Node>,
}

#[derive(Debug)]
enum Node {
    /// `true`, or a schema with nothing to check.
    Any,
    /// `false`.
    Never,
    Checks(Box<Checks>),
}

/// JSON types as a small set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Types(u8);

impl Types {
    const NULL: u8 = 1;
    const BOOLEAN: u8 = 2;
    const INTEGER: u8 = 4;
    const NUMBER: u8 = 8;
    const STRING: u8 = 16;
    const ARRAY: u8 = 32;
    const OBJECT: u8 = 64;
    const NAMES: [(u8, &'static str); 7] = [
        (Self::STRING, "string"),
        (Self::INTEGER, "integer"),
        (Self::NUMBER, "number"),
        (Self::BOOLEAN, "boolean"),
        (Self::ARRAY, "array"),
        (Self::OBJECT, "object"),
        (Self::NULL, "null"),
    ];

    fn named(name: &str) -> u8 {
        Self::NAMES
            .iter()
            .find(|(_, n)| *n == name)
            .map_or(0, |(bit, _)| *bit)
    }

    /// An `integer` must be written as one (`1`, not `1.0`): that is how typed
    /// clients read it and how it goes on the wire.
    fn accepts(self, value: &Value) -> bool {
        let bit = match value {
            Value::Null => Self::NULL,
            Value::Bool(_) => Self::BOOLEAN,
            Value::Number(n) if n.is_f64() => Self::NUMBER,
            Value::Number(_) => Self::INTEGER | Self::NUMBER,
            Value::String(_) => Self::STRING,
            Value::Array(_) => Self::ARRAY,
            Value::Object(_) => Self::OBJECT,
        };
        self.0 & bit != 0
    }

    fn describe(self) -> String {
        let names: Vec<&str> = Self::NAMES
            .iter()
            .filter(|(bit, _)| self.0 & bit != 0)
            .map(|(_, n)| *n)
            .collect();
        match names.as_slice() {
            [one] => article(one),
            [rest @ .., last] => format!(
                "{} or {}",
                rest.iter()
                    .map(|n| article(n))
                    .collect::<Vec<_>>()
                    .join(", "),
                article(last)
            ),
            [] => "nothing".into(),
        }
    }
}

fn article(name: &str) -> String {
    match name {
        "null" => "null".into(),
        n if n.starts_with(['a', 'e', 'i', 'o', 'u']) => format!("an {n}"),
        n => format!("a {n}"),
    }
}

#[derive(Debug, Default)]
struct Checks {
    types: Option<Types>,
    enum_values: Option<Vec<Value>>,
    constant: Option<Value>,
    minimum: Option<Number>,
    maximum: Option<Number>,
    exclusive_minimum: Option<Number>,
    exclusive_maximum: Option<Number>,
    multiple_of: Option<f64>,
    min_length: Option<u64>,
    max_length: Option<u64>,
    pattern: Option<(String, regex_lite::Regex)>,
    format: Option<Format>,
    items: Option<Node>,
    prefix_items: Vec<Node>,
    min_items: Option<u64>,
    max_items: Option<u64>,
    unique_items: bool,
    properties: Vec<(String, Node)>,
    required: Vec<String>,
    /// `dependentRequired`: when the key is present, these must be too.
    dependent_required: Vec<(String, Vec<String>)>,
    additional: Additional,
    min_properties: Option<u64>,
    max_properties: Option<u64>,
    all_of: Vec<Node>,
    any_of: Vec<Node>,
    one_of: Vec<Node>,
    not: Option<Node>,
    reference: Option<usize>,
}

#[derive(Debug, Default)]
enum Additional {
    #[default]
    Allowed,
    Denied,
    Schema(Node),
}

impl SchemaCheck {
    /// Compiles `schema`, resolving `#/$defs/<name>` in the schema's own `$defs`, then
    /// through `definition` (an API's shared definitions, fetched only when reached).
    /// Unresolvable references and unsupported patterns check nothing rather than
    /// refuse everything: the catalog stays usable.
    pub fn compile(schema: &Value, definition: &dyn Fn(&str) -> Option<Value>) -> SchemaCheck {
        let own = schema.get("$defs").and_then(Value::as_object);
        let lookup = |name: &str| {
            own.and_then(|o| o.get(name))
                .cloned()
                .or_else(|| definition(name))
        };
        let mut compiler = Compiler {
            sources: &lookup,
            index: BTreeMap::new(),
            compiled: Vec::new(),
        };
        let root = compiler.node(schema);
        SchemaCheck {
            root,
            definitions: compiler
                .compiled
                .into_iter()
                .map(|n| n.unwrap_or(Node::Any))
                .collect(),
        }
    }

    /// Checks `value`; the error names the first offending path.
    ///
    /// # Errors
    /// The path, the constraint and the value that broke it.
    pub fn check(&self, value: &Value) -> Result<(), ArgumentError> {
        self.node(&self.root, value, &Path::Root, 0)
            .map_err(|(path, message)| ArgumentError { path, message })
    }

    fn node(&self, node: &Node, value: &Value, path: &Path<'_>, depth: usize) -> Outcome {
        // Recursive definitions check recursive data: bounded by the data's depth,
        // which the JSON parser already limits; this guards against a bad schema.
        if depth > 256 {
            return Ok(());
        }
        match node {
            Node::Any => Ok(()),
            Node::Never => Err((path.written(), "no value is allowed here".into())),
            Node::Checks(c) => self.checks(c, value, path, depth),
        }
    }

    fn checks(&self, c: &Checks, value: &Value, path: &Path<'_>, depth: usize) -> Outcome {
        let fail = |path: &Path<'_>, message: String| Err((path.written(), message));
        if let Some(types) = c.types
            && !types.accepts(value)
        {
            return fail(
                path,
                format!("expected {}, found {}", types.describe(), shown(value)),
            );
        }
        if let Some(i) = c.reference {
            self.node(&self.definitions[i], value, path, depth + 1)?;
        }
        if let Some(values) = &c.enum_values
            && !values.iter().any(|v| same(v, value))
        {
            let allowed: Vec<String> = values.iter().map(shown).collect();
            return fail(
                path,
                format!(
                    "must be one of {} (enum), found {}",
                    allowed.join(", "),
                    shown(value)
                ),
            );
        }
        if let Some(constant) = &c.constant
            && !same(constant, value)
        {
            return fail(
                path,
                format!(
                    "must be {} (const), found {}",
                    shown(constant),
                    shown(value)
                ),
            );
        }
        match value {
            Value::Number(n) => self.number(c, n, path)?,
            Value::String(s) => self.string(c, s, path)?,
            Value::Array(items) => self.array(c, items, path, depth)?,
            Value::Object(map) => self.object(c, map, path, depth)?,
            _ => {}
        }
        for sub in &c.all_of {
            self.node(sub, value, path, depth + 1)?;
        }
        if !c.any_of.is_empty() {
            self.alternatives(&c.any_of, value, path, depth, false)?;
        }
        if !c.one_of.is_empty() {
            self.alternatives(&c.one_of, value, path, depth, true)?;
        }
        if let Some(not) = &c.not
            && self.node(not, value, path, depth + 1).is_ok()
        {
            return fail(
                path,
                format!("must not match the `not` schema, found {}", shown(value)),
            );
        }
        Ok(())
    }

    fn alternatives(
        &self,
        options: &[Node],
        value: &Value,
        path: &Path<'_>,
        depth: usize,
        exactly_one: bool,
    ) -> Outcome {
        let mut first_error = None;
        let mut matched = 0;
        for option in options {
            match self.node(option, value, path, depth + 1) {
                Ok(()) => matched += 1,
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        match (matched, exactly_one) {
            (0, _) => {
                let (at, why) = first_error.unwrap_or_default();
                let keyword = if exactly_one { "oneOf" } else { "anyOf" };
                let here = path.written();
                let at = if at == here {
                    String::new()
                } else {
                    format!(" (at `{at}`)")
                };
                Err((
                    here,
                    format!(
                        "matches none of the {} alternatives ({keyword}); the first says: {why}{at}",
                        options.len()
                    ),
                ))
            }
            (1, _) | (_, false) => Ok(()),
            (n, true) => Err((
                path.written(),
                format!("matches {n} of the alternatives, but must match exactly one (oneOf)"),
            )),
        }
    }

    fn number(&self, c: &Checks, n: &Number, path: &Path<'_>) -> Outcome {
        let fail = |message: String| Err((path.written(), message));
        let bounds = [
            (&c.minimum, "at least", "minimum", false),
            (&c.maximum, "at most", "maximum", true),
            (
                &c.exclusive_minimum,
                "greater than",
                "exclusiveMinimum",
                false,
            ),
            (&c.exclusive_maximum, "less than", "exclusiveMaximum", true),
        ];
        for (i, (bound, words, keyword, upper)) in bounds.into_iter().enumerate() {
            let Some(bound) = bound else { continue };
            let order = compare(n, bound);
            let exclusive = i >= 2;
            let bad = match (upper, exclusive) {
                (false, false) => order.is_lt(),
                (true, false) => order.is_gt(),
                (false, true) => order.is_le(),
                (true, true) => order.is_ge(),
            };
            if bad {
                return fail(format!("must be {words} {bound} ({keyword}), found {n}"));
            }
        }
        if let Some(m) = c.multiple_of {
            let ok = match (n.as_i64(), m.fract() == 0.0 && m.abs() < 9.0e15) {
                (Some(i), true) => i % (m as i64) == 0,
                _ => {
                    let q = n.as_f64().unwrap_or(0.0) / m;
                    (q - q.round()).abs() <= 1e-9 * q.abs().max(1.0)
                }
            };
            if !ok {
                return fail(format!("must be a multiple of {m} (multipleOf), found {n}"));
            }
        }
        if let Some(format) = c.format
            && let Err(why) = format.check_number(n)
        {
            return fail(format!("{why}, found {n}"));
        }
        Ok(())
    }

    fn string(&self, c: &Checks, s: &str, path: &Path<'_>) -> Outcome {
        let fail = |message: String| Err((path.written(), message));
        if c.min_length.is_some() || c.max_length.is_some() {
            let len = s.chars().count() as u64;
            if let Some(min) = c.min_length
                && len < min
            {
                return fail(format!(
                    "must be at least {min} characters long (minLength), found {len}: {}",
                    shown_str(s)
                ));
            }
            if let Some(max) = c.max_length
                && len > max
            {
                return fail(format!(
                    "must be at most {max} characters long (maxLength), found {len}: {}",
                    shown_str(s)
                ));
            }
        }
        if let Some((source, regex)) = &c.pattern
            && !regex.is_match(s)
        {
            return fail(format!(
                "must match the pattern `{source}`, found {}",
                shown_str(s)
            ));
        }
        if let Some(format) = c.format
            && let Err(why) = format.check_str(s)
        {
            return fail(format!("{why}, found {}", shown_str(s)));
        }
        Ok(())
    }

    fn array(&self, c: &Checks, items: &[Value], path: &Path<'_>, depth: usize) -> Outcome {
        let len = items.len() as u64;
        if let Some(min) = c.min_items
            && len < min
        {
            return Err((
                path.written(),
                format!("must hold at least {min} items (minItems), found {len}"),
            ));
        }
        if let Some(max) = c.max_items
            && len > max
        {
            return Err((
                path.written(),
                format!("must hold at most {max} items (maxItems), found {len}"),
            ));
        }
        if c.unique_items {
            let mut seen: Vec<String> = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                let key = canonical(item);
                if let Some(first) = seen.iter().position(|k| *k == key) {
                    return Err((
                        path.written(),
                        format!(
                            "items must be unique (uniqueItems), but items {first} and {i} are both {}",
                            shown(item)
                        ),
                    ));
                }
                seen.push(key);
            }
        }
        for (i, item) in items.iter().enumerate() {
            let schema = c.prefix_items.get(i).or(c.items.as_ref());
            if let Some(schema) = schema {
                self.node(schema, item, &Path::Index(path, i), depth + 1)?;
            }
        }
        Ok(())
    }

    fn object(
        &self,
        c: &Checks,
        map: &Map<String, Value>,
        path: &Path<'_>,
        depth: usize,
    ) -> Outcome {
        let count = map.len() as u64;
        if let Some(min) = c.min_properties
            && count < min
        {
            return Err((
                path.written(),
                format!("must hold at least {min} properties (minProperties), found {count}"),
            ));
        }
        if let Some(max) = c.max_properties
            && count > max
        {
            return Err((
                path.written(),
                format!("must hold at most {max} properties (maxProperties), found {count}"),
            ));
        }
        if matches!(c.additional, Additional::Denied) {
            for key in map.keys() {
                if !c.properties.iter().any(|(name, _)| name == key) {
                    let known: Vec<&str> = c.properties.iter().map(|(n, _)| n.as_str()).collect();
                    return Err((
                        Path::Field(path, key).written(),
                        if known.is_empty() {
                            "unknown field; this object takes no fields".to_owned()
                        } else {
                            format!("unknown field; expected one of: {}", known.join(", "))
                        },
                    ));
                }
            }
        }
        for name in &c.required {
            if !map.contains_key(name) {
                let expected = c
                    .properties
                    .iter()
                    .find(|(n, _)| n == name)
                    .and_then(|(_, node)| self.expected(node))
                    .map(|t| format!(" of type {t}"))
                    .unwrap_or_default();
                return Err((
                    Path::Field(path, name).written(),
                    format!("missing required field{expected}"),
                ));
            }
        }
        for (given, needed) in &c.dependent_required {
            if !map.contains_key(given) {
                continue;
            }
            if let Some(missing) = needed.iter().find(|n| !map.contains_key(n.as_str())) {
                return Err((
                    Path::Field(path, missing).written(),
                    format!("missing field: required when `{given}` is given (dependentRequired)"),
                ));
            }
        }
        for (name, node) in &c.properties {
            if let Some(value) = map.get(name) {
                self.node(node, value, &Path::Field(path, name), depth + 1)?;
            }
        }
        if let Additional::Schema(node) = &c.additional {
            for (key, value) in map {
                if !c.properties.iter().any(|(name, _)| name == key) {
                    self.node(node, value, &Path::Field(path, key), depth + 1)?;
                }
            }
        }
        Ok(())
    }

    /// The type a node expects, for "missing required field of type X".
    fn expected(&self, node: &Node) -> Option<String> {
        match node {
            Node::Checks(c) => match (c.types, c.reference) {
                (Some(t), _) => Some(
                    Types::NAMES
                        .iter()
                        .filter(|(bit, _)| t.0 & bit != 0 && *bit != Types::NULL)
                        .map(|(_, n)| *n)
                        .collect::<Vec<_>>()
                        .join(" or "),
                ),
                (None, Some(i)) => self.expected(&self.definitions[i]),
                _ => None,
            },
            _ => None,
        }
    }
}

type Outcome = Result<(), (String, String)>;

/// Where a value sits in the arguments (`labels[1]`, `price.currency`): a chain of
/// frames on the stack, written out only for an error — valid arguments are checked
/// without building (or copying, per `anyOf` option) a path string.
enum Path<'a> {
    Root,
    Field(&'a Path<'a>, &'a str),
    Index(&'a Path<'a>, usize),
}

impl Path<'_> {
    fn written(&self) -> String {
        let mut out = String::new();
        self.write_to(&mut out);
        out
    }

    fn write_to(&self, out: &mut String) {
        match self {
            Path::Root => {}
            Path::Field(parent, key) => {
                parent.write_to(out);
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(key);
            }
            Path::Index(parent, i) => {
                parent.write_to(out);
                let _ = write!(out, "[{i}]");
            }
        }
    }
}

/// A value as an error shows it: JSON, cut to a readable length.
fn shown(value: &Value) -> String {
    let text = value.to_string();
    truncate(&text, 80)
}

fn shown_str(s: &str) -> String {
    shown(&Value::String(s.to_owned()))
}

/// `text` in its first `max` characters, with its whole length when cut.
fn truncate(text: &str, max: usize) -> String {
    match crate::cut::chars(text, max) {
        (head, "") => head.to_owned(),
        (head, _) => format!("{head}… ({} characters)", text.chars().count()),
    }
}

/// JSON Schema equality: numbers by value (`1` equals `1.0`), objects by content.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => compare(x, y).is_eq(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

/// A key equal for values [`same`] calls equal (sorted object keys, numbers as f64
/// unless both are integers).
fn canonical(value: &Value) -> String {
    match value {
        Value::Number(n) => match n.as_i64() {
            Some(i) => i.to_string(),
            None => match n.as_u64() {
                Some(u) => u.to_string(),
                None => {
                    let f = n.as_f64().unwrap_or(0.0);
                    if f.fract() == 0.0 && f.abs() < 9.0e15 {
                        (f as i64).to_string()
                    } else {
                        f.to_string()
                    }
                }
            },
        },
        Value::Array(items) => {
            format!(
                "[{}]",
                items.iter().map(canonical).collect::<Vec<_>>().join(",")
            )
        }
        Value::Object(map) => {
            let mut entries: Vec<(&String, String)> =
                map.iter().map(|(k, v)| (k, canonical(v))).collect();
            entries.sort();
            let inner: Vec<String> = entries
                .into_iter()
                .map(|(k, v)| format!("{}:{v}", Value::String(k.clone())))
                .collect();
            format!("{{{}}}", inner.join(","))
        }
        other => other.to_string(),
    }
}

/// Exact comparison where both are integers; as floats otherwise.
fn compare(a: &Number, b: &Number) -> std::cmp::Ordering {
    let int = |n: &Number| {
        n.as_i64()
            .map(i128::from)
            .or_else(|| n.as_u64().map(i128::from))
    };
    match (int(a), int(b)) {
        (Some(x), Some(y)) => x.cmp(&y),
        _ => {
            let (x, y) = (a.as_f64().unwrap_or(0.0), b.as_f64().unwrap_or(0.0));
            x.partial_cmp(&y).unwrap_or(std::cmp::Ordering::Equal)
        }
    }
}

struct Compiler<'a> {
    sources: &'a dyn Fn(&str) -> Option<Value>,
    /// Definition name → index in `compiled`.
    index: BTreeMap<String, usize>,
    /// `None` while a definition is being compiled (a recursive reference to it is
    /// still a valid `Ref`).
    compiled: Vec<Option<Node>>,
}

impl Compiler<'_> {
    fn node(&mut self, schema: &Value) -> Node {
        let object = match schema {
            Value::Bool(false) => return Node::Never,
            Value::Object(o) => o,
            _ => return Node::Any,
        };
        let mut c = Checks::default();
        if let Some(reference) = object.get("$ref").and_then(Value::as_str) {
            c.reference = reference
                .strip_prefix("#/$defs/")
                .and_then(|name| self.definition(name));
        }
        match object.get("type") {
            Some(Value::String(t)) => c.types = Some(Types(Types::named(t))),
            Some(Value::Array(list)) => {
                let bits = list
                    .iter()
                    .filter_map(Value::as_str)
                    .fold(0, |acc, t| acc | Types::named(t));
                c.types = Some(Types(bits));
            }
            _ => {}
        }
        c.enum_values = object.get("enum").and_then(Value::as_array).cloned();
        c.constant = object.get("const").cloned();
        let number = |k: &str| match object.get(k) {
            Some(Value::Number(n)) => Some(n.clone()),
            _ => None,
        };
        c.minimum = number("minimum");
        c.maximum = number("maximum");
        c.exclusive_minimum = number("exclusiveMinimum");
        c.exclusive_maximum = number("exclusiveMaximum");
        c.multiple_of = object
            .get("multipleOf")
            .and_then(Value::as_f64)
            .filter(|m| *m > 0.0);
        let count = |k: &str| object.get(k).and_then(Value::as_u64);
        c.min_length = count("minLength");
        c.max_length = count("maxLength");
        c.min_items = count("minItems");
        c.max_items = count("maxItems");
        c.min_properties = count("minProperties");
        c.max_properties = count("maxProperties");
        c.unique_items = object.get("uniqueItems") == Some(&Value::Bool(true));
        c.pattern = object.get("pattern").and_then(Value::as_str).and_then(|p| {
            regex_lite::RegexBuilder::new(p)
                .size_limit(1 << 20)
                .build()
                .ok()
                .map(|r| (p.to_owned(), r))
        });
        c.format = object
            .get("format")
            .and_then(Value::as_str)
            .and_then(Format::named);
        if let Some(items) = object.get("items") {
            c.items = Some(self.node(items));
        }
        if let Some(Value::Array(prefix)) = object.get("prefixItems") {
            c.prefix_items = prefix.iter().map(|s| self.node(s)).collect();
        }
        if let Some(Value::Object(props)) = object.get("properties") {
            c.properties = props
                .iter()
                .map(|(k, s)| (k.clone(), self.node(s)))
                .collect();
        }
        if let Some(Value::Array(names)) = object.get("required") {
            c.required = names
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect();
        }
        if let Some(Value::Object(deps)) = object.get("dependentRequired") {
            c.dependent_required = deps
                .iter()
                .map(|(k, v)| {
                    let names = v.as_array().into_iter().flatten().filter_map(Value::as_str);
                    (k.clone(), names.map(str::to_owned).collect())
                })
                .collect();
        }
        c.additional = match object.get("additionalProperties") {
            Some(Value::Bool(false)) => Additional::Denied,
            Some(schema @ Value::Object(_)) => Additional::Schema(self.node(schema)),
            _ => Additional::Allowed,
        };
        let list = |this: &mut Self, k: &str| -> Vec<Node> {
            match object.get(k) {
                Some(Value::Array(items)) => items.iter().map(|s| this.node(s)).collect(),
                _ => Vec::new(),
            }
        };
        c.all_of = list(self, "allOf");
        c.any_of = list(self, "anyOf");
        c.one_of = list(self, "oneOf");
        if let Some(not) = object.get("not") {
            c.not = Some(self.node(not));
        }
        Node::Checks(Box::new(c))
    }

    fn definition(&mut self, name: &str) -> Option<usize> {
        if let Some(i) = self.index.get(name) {
            return Some(*i);
        }
        let source = (self.sources)(name)?;
        let i = self.compiled.len();
        self.index.insert(name.to_owned(), i);
        self.compiled.push(None);
        let node = self.node(&source);
        self.compiled[i] = Some(node);
        Some(i)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn check(schema: Value, value: Value) -> Result<(), String> {
        SchemaCheck::compile(&schema, &|_| None)
            .check(&value)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn every_keyword() {
        let cases = [
            (
                json!({"type": "integer"}),
                json!(1.5),
                "expected an integer, found 1.5",
            ),
            (
                json!({"type": "integer"}),
                json!(1.0),
                "expected an integer, found 1.0",
            ),
            (
                json!({"type": ["string", "null"]}),
                json!(1),
                "expected a string or null, found 1",
            ),
            (
                json!({"enum": ["a", "b"]}),
                json!("c"),
                r#"must be one of "a", "b" (enum), found "c""#,
            ),
            (json!({"const": 3}), json!(4), "must be 3 (const), found 4"),
            (
                json!({"minimum": 1}),
                json!(0),
                "must be at least 1 (minimum), found 0",
            ),
            (
                json!({"maximum": 1}),
                json!(2),
                "must be at most 1 (maximum), found 2",
            ),
            (
                json!({"exclusiveMinimum": 1}),
                json!(1),
                "must be greater than 1 (exclusiveMinimum), found 1",
            ),
            (
                json!({"exclusiveMaximum": 1}),
                json!(1),
                "must be less than 1 (exclusiveMaximum), found 1",
            ),
            (
                json!({"multipleOf": 5}),
                json!(12),
                "must be a multiple of 5 (multipleOf), found 12",
            ),
            (
                json!({"multipleOf": 0.1}),
                json!(0.35),
                "must be a multiple of 0.1 (multipleOf), found 0.35",
            ),
            (
                json!({"minLength": 2}),
                json!("é"),
                r#"must be at least 2 characters long (minLength), found 1: "é""#,
            ),
            (
                json!({"maxLength": 1}),
                json!("ab"),
                r#"must be at most 1 characters long (maxLength), found 2: "ab""#,
            ),
            (
                json!({"pattern": "^[a-z]+$"}),
                json!("A1"),
                r#"must match the pattern `^[a-z]+$`, found "A1""#,
            ),
            (
                json!({"format": "uuid"}),
                json!("x"),
                r#"must be a UUID (format uuid), found "x""#,
            ),
            (
                json!({"minItems": 1}),
                json!([]),
                "must hold at least 1 items (minItems), found 0",
            ),
            (
                json!({"maxItems": 1}),
                json!([1, 2]),
                "must hold at most 1 items (maxItems), found 2",
            ),
            (
                json!({"uniqueItems": true}),
                json!([1, 2, 1.0]),
                "items must be unique (uniqueItems), but items 0 and 2 are both 1.0",
            ),
            (
                json!({"items": {"type": "string"}}),
                json!(["a", 2]),
                "field `[1]`: expected a string, found 2",
            ),
            (
                json!({"properties": {"a": {"type": "string"}}, "required": ["a"]}),
                json!({}),
                "field `a`: missing required field of type string",
            ),
            (
                json!({"properties": {"a": {}}, "additionalProperties": false}),
                json!({"b": 1}),
                "field `b`: unknown field; expected one of: a",
            ),
            (
                json!({"additionalProperties": {"type": "integer"}}),
                json!({"k": "v"}),
                r#"field `k`: expected an integer, found "v""#,
            ),
            (
                json!({"anyOf": [{"type": "string"}, {"type": "integer"}]}),
                json!(true),
                "matches none of the 2 alternatives (anyOf); the first says: expected a string, found true",
            ),
            (
                json!({"oneOf": [{"type": "integer"}, {"type": "number"}]}),
                json!(1),
                "matches 2 of the alternatives, but must match exactly one (oneOf)",
            ),
            (
                json!({"not": {"type": "string"}}),
                json!("s"),
                r#"must not match the `not` schema, found "s""#,
            ),
            (json!(false), json!(1), "no value is allowed here"),
            (
                json!({"dependentRequired": {"a": ["b"]}}),
                json!({"a": 1}),
                "field `b`: missing field: required when `a` is given (dependentRequired)",
            ),
        ];
        for (schema, value, expected) in cases {
            assert_eq!(
                check(schema.clone(), value.clone()).unwrap_err(),
                expected,
                "{schema} {value}"
            );
        }
    }

    #[test]
    fn accepts_what_fits() {
        assert!(check(json!({"type": "number", "minimum": 1}), json!(1.0)).is_ok());
        assert!(check(json!({"enum": [1]}), json!(1.0)).is_ok());
        assert!(check(json!({"maxLength": 1}), json!("é")).is_ok());
        assert!(
            check(json!({"pattern": "b"}), json!("abc")).is_ok(),
            "patterns search"
        );
        assert!(
            check(
                json!({"format": "date-time"}),
                json!("2024-02-29T23:59:60Z")
            )
            .is_ok()
        );
        assert!(
            check(
                json!({"maximum": 18446744073709551615u64}),
                json!(18446744073709551615u64)
            )
            .is_ok()
        );
        // A pattern the engine cannot compile checks nothing rather than everything.
        assert!(check(json!({"pattern": "(?<=a)b"}), json!("zz")).is_ok());
    }

    #[test]
    fn references_and_recursion() {
        let defs: BTreeMap<String, Value> = [(
            "Tree".to_owned(),
            json!({"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/Tree"}}, "n": {"type": "integer"}}}),
        )]
        .into();
        let compiled =
            SchemaCheck::compile(&json!({"$ref": "#/$defs/Tree"}), &|n| defs.get(n).cloned());
        assert!(
            compiled
                .check(&json!({"kids": [{"kids": [{"n": 1}]}]}))
                .is_ok()
        );
        let err = compiled
            .check(&json!({"kids": [{"kids": [{"n": "x"}]}]}))
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            r#"field `kids[0].kids[0].n`: expected an integer, found "x""#
        );
    }

    #[test]
    fn long_values_are_cut() {
        let err = check(json!({"maxLength": 3}), json!("x".repeat(500))).unwrap_err();
        assert!(err.ends_with("… (502 characters)"), "{err}");
    }
}
