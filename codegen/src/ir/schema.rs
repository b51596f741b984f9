//! A JSON-Schema-shaped schema model. Emitters render it as JSON Schema 2020-12 for the
//! catalog and as Rust types for the client, from the same node, so they agree.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

/// The JSON type of a schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SchemaType {
    /// Unconstrained: any JSON value.
    #[default]
    Any,
    String,
    Integer,
    Number,
    Boolean,
    Array,
    Object,
}

impl SchemaType {
    pub const ALL: [(&'static str, SchemaType); 6] = [
        ("string", SchemaType::String),
        ("integer", SchemaType::Integer),
        ("number", SchemaType::Number),
        ("boolean", SchemaType::Boolean),
        ("array", SchemaType::Array),
        ("object", SchemaType::Object),
    ];

    pub fn as_str(self) -> Option<&'static str> {
        SchemaType::ALL
            .iter()
            .find(|(_, t)| *t == self)
            .map(|(n, _)| *n)
    }

    /// Whether a JSON value is of this type.
    pub fn accepts(self, v: &Value) -> bool {
        match self {
            SchemaType::Any => true,
            SchemaType::String => v.is_string(),
            SchemaType::Integer => v.is_i64() || v.is_u64(),
            SchemaType::Number => v.is_number(),
            SchemaType::Boolean => v.is_boolean(),
            SchemaType::Array => v.is_array(),
            SchemaType::Object => v.is_object(),
        }
    }
}

/// One schema node.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Schema {
    pub ty: SchemaType,
    pub description: Option<String>,
    pub format: Option<String>,
    /// Boxed, as `minimum` and `maximum`: most schemas have none, and a value takes
    /// 32 bytes in place (a build holds a schema per parameter, response and property).
    pub default: Option<Box<Value>>,
    /// Allowed values (`enum`).
    pub enum_values: Vec<Value>,
    pub minimum: Option<Box<Value>>,
    pub maximum: Option<Box<Value>>,
    pub pattern: Option<String>,
    /// Item schema of an array.
    pub items: Option<Box<Schema>>,
    /// Properties of an object, in source order.
    pub properties: Vec<(String, Schema)>,
    /// Required property names of an object.
    pub required: Vec<String>,
    /// Keywords the source gave that the model has no field for (kept, rendered as is).
    pub extensions: BTreeMap<String, Value>,
    pub title: Option<String>,
    /// A reference to a named shared definition (`$defs`); other fields may refine it.
    pub reference: Option<String>,
    /// Alternatives (`oneOf` / `anyOf`).
    pub variants: Vec<Schema>,
    /// `true`: exactly one alternative matches (`oneOf`); `false`: `anyOf`.
    pub exclusive_variants: bool,
    /// Values of an object used as a map (`additionalProperties: {schema}`).
    pub additional: Option<Box<Schema>>,
    /// `null` is allowed too.
    pub nullable: bool,
    /// Set by the server; left out of inputs.
    pub read_only: bool,
    /// Sent by clients only; left out of outputs.
    pub write_only: bool,
    pub deprecated: bool,
}

/// Whether unknown object properties are allowed in rendered schemas.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Tool input: closed objects (`additionalProperties: false`), matching the
    /// generated structs that deny unknown fields.
    Input,
    /// Tool output: open objects; servers may add fields.
    Output,
}

impl Schema {
    pub fn of(ty: SchemaType) -> Schema {
        Schema {
            ty,
            ..Schema::default()
        }
    }

    /// An object schema from `(name, schema, required)` entries.
    pub fn object(entries: impl IntoIterator<Item = (String, Schema, bool)>) -> Schema {
        let mut schema = Schema::of(SchemaType::Object);
        for (name, property, required) in entries {
            if required {
                schema.required.push(name.clone());
            }
            schema.properties.push((name, property));
        }
        schema
    }

    /// Bytes carried as a base64 string (OpenAPI `format: binary`/`byte`, or
    /// `contentEncoding: base64`).
    pub fn is_binary(&self) -> bool {
        self.ty == SchemaType::String
            && (matches!(self.format.as_deref(), Some("binary" | "byte"))
                || self
                    .extensions
                    .get("contentEncoding")
                    .and_then(Value::as_str)
                    == Some("base64"))
    }

    /// Whether a property is part of the schema in this direction.
    fn visible(&self, direction: Direction) -> bool {
        match direction {
            Direction::Input => !self.read_only,
            Direction::Output => !self.write_only,
        }
    }

    /// Renders JSON Schema 2020-12 (no `$schema`: the catalog's consumers assume it).
    /// References render as `#/$defs/Name`; see [`render_root`] for the closure.
    pub fn to_json(&self, direction: Direction) -> Value {
        let mut out = Map::new();
        if let Some(name) = &self.reference {
            out.insert("$ref".into(), json!(format!("#/$defs/{name}")));
        }
        match (self.ty.as_str(), self.nullable) {
            (Some(ty), true) => {
                out.insert("type".into(), json!([ty, "null"]));
            }
            (Some(ty), false) => {
                out.insert("type".into(), json!(ty));
            }
            (None, _) => {}
        }
        if let Some(t) = &self.title {
            out.insert("title".into(), json!(t));
        }
        if let Some(d) = &self.description {
            out.insert("description".into(), json!(d));
        }
        if let Some(f) = &self.format {
            out.insert("format".into(), json!(f));
        }
        if !self.enum_values.is_empty() {
            let mut values = self.enum_values.clone();
            if self.nullable && !values.contains(&Value::Null) {
                values.push(Value::Null);
            }
            out.insert("enum".into(), Value::Array(values));
        }
        if let Some(v) = &self.default {
            out.insert("default".into(), (**v).clone());
        }
        if let Some(v) = &self.minimum {
            out.insert("minimum".into(), (**v).clone());
        }
        if let Some(v) = &self.maximum {
            out.insert("maximum".into(), (**v).clone());
        }
        if let Some(p) = &self.pattern {
            out.insert("pattern".into(), json!(p));
        }
        if let Some(items) = &self.items {
            out.insert("items".into(), items.to_json(direction));
        }
        if !self.variants.is_empty() {
            let mut variants: Vec<Value> =
                self.variants.iter().map(|v| v.to_json(direction)).collect();
            if self.nullable && self.ty == SchemaType::Any {
                variants.push(json!({"type": "null"}));
            }
            let keyword = if self.exclusive_variants {
                "oneOf"
            } else {
                "anyOf"
            };
            out.insert(keyword.into(), Value::Array(variants));
        } else if self.nullable && self.reference.is_some() && self.ty == SchemaType::Any {
            // `{"$ref": X}` plus null: 2020-12 has no sibling for it, so wrap.
            let reference = out.remove("$ref").unwrap_or(Value::Null);
            out.insert(
                "anyOf".into(),
                json!([{ "$ref": reference }, { "type": "null" }]),
            );
        }
        if self.read_only {
            out.insert("readOnly".into(), json!(true));
        }
        if self.write_only {
            out.insert("writeOnly".into(), json!(true));
        }
        if self.deprecated {
            out.insert("deprecated".into(), json!(true));
        }
        for (k, v) in &self.extensions {
            out.entry(k.clone()).or_insert_with(|| v.clone());
        }
        if self.ty == SchemaType::Object || !self.properties.is_empty() {
            let properties: Map<String, Value> = self
                .properties
                .iter()
                .filter(|(_, s)| s.visible(direction))
                .map(|(name, s)| (name.clone(), s.to_json(direction)))
                .collect();
            let required: Vec<&String> = self
                .required
                .iter()
                .filter(|r| properties.contains_key(r.as_str()))
                .collect();
            if !properties.is_empty() || self.additional.is_none() {
                out.insert("properties".into(), Value::Object(properties));
            }
            if !required.is_empty() {
                out.insert("required".into(), json!(required));
            }
            match &self.additional {
                Some(values) => {
                    out.insert("additionalProperties".into(), values.to_json(direction));
                }
                None if direction == Direction::Input && !self.properties.is_empty() => {
                    out.insert("additionalProperties".into(), json!(false));
                }
                None => {}
            }
        } else if !self.required.is_empty() {
            // `{required: [a]}` alone: a branch constraint on the enclosing object
            // (`oneOf: [{required: [a]}, {required: [b]}]`), kept as such.
            out.insert("required".into(), json!(self.required));
        }
        Value::Object(out)
    }

    /// The definition this schema merely stands for: a `$ref` with nothing that
    /// refines its shape (a description or `null` may ride along).
    pub fn bare_reference(&self) -> Option<&str> {
        let bare = self.ty == SchemaType::Any
            && self.properties.is_empty()
            && self.variants.is_empty()
            && self.items.is_none()
            && self.additional.is_none();
        self.reference.as_deref().filter(|_| bare)
    }

    /// Names of the definitions this schema refers to directly.
    pub fn references(&self, out: &mut Vec<String>) {
        if let Some(r) = &self.reference {
            out.push(r.clone());
        }
        for v in self.extensions.values() {
            value_references(v, out);
        }
        for child in self.children() {
            child.references(out);
        }
    }

    /// Direct sub-schemas.
    pub fn children(&self) -> impl Iterator<Item = &Schema> {
        self.items
            .as_deref()
            .into_iter()
            .chain(self.additional.as_deref())
            .chain(self.properties.iter().map(|(_, s)| s))
            .chain(self.variants.iter())
    }
}

/// Why the run-time check cannot enforce `pattern` (it compiles patterns with
/// `regex-lite`, the ECMA-262 subset without look-around or back-references), or
/// `None` when it can.
pub fn unchecked_pattern(pattern: &str) -> Option<String> {
    thread_local! {
        // Large specs repeat a few patterns on hundreds of parameters (compute v1:
        // the project pattern on every operation); compiling each once is enough.
        static SEEN: std::cell::RefCell<std::collections::HashMap<String, Option<String>>> =
            std::cell::RefCell::default();
    }
    if let Some(known) = SEEN.with(|seen| seen.borrow().get(pattern).cloned()) {
        return known;
    }
    let why = regex_lite::RegexBuilder::new(pattern)
        .size_limit(1 << 20)
        .build()
        .err()
        .map(|e| {
            e.to_string()
                .lines()
                .next()
                .unwrap_or("unsupported syntax")
                .to_owned()
        });
    SEEN.with(|seen| {
        let mut seen = seen.borrow_mut();
        if seen.len() >= 4096 {
            seen.clear();
        }
        seen.insert(pattern.to_owned(), why.clone());
    });
    why
}

/// Whether `value` is a whole number that no 64-bit integer holds (`2^64`, `-2^63-1`,
/// `1e30`): parsers keep such numbers only as floats, so their exact digits are gone
/// and integer comparisons against them are approximate.
pub fn exceeds_64_bits(value: &Value) -> bool {
    value.as_f64().is_some_and(|f| {
        value.is_f64()
            && f.fract() == 0.0
            && !(-9.223_372_036_854_776e18..1.844_674_407_370_955_2e19).contains(&f)
    })
}

/// `#/$defs/X` references inside kept keywords.
fn value_references(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                match (
                    k.as_str(),
                    v.as_str().and_then(|r| r.strip_prefix("#/$defs/")),
                ) {
                    ("$ref", Some(name)) => out.push(name.to_owned()),
                    _ => value_references(v, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| value_references(v, out)),
        _ => {}
    }
}

/// Renders a tool-level schema. Definitions it refers to (`#/$defs/X`) are rendered
/// once per API by [`reachable`] and the emitters; the runtime adds a tool's closure.
pub fn render_root(
    schema: &Schema,
    definitions: &BTreeMap<String, Schema>,
    direction: Direction,
) -> Value {
    match inlined_root(schema, definitions) {
        Some((_, def)) => Schema {
            description: schema
                .description
                .clone()
                .or_else(|| def.description.clone()),
            ..def.clone()
        }
        .to_json(direction),
        None => schema.to_json(direction),
    }
}

/// [`render_root`] as the generated catalog stores it: a root that inlines an object
/// definition stays its reference (with the description that refines it). The
/// runtime inlines the definition when it serves or exports the schema — the rule is
/// `toolwright::Tool::output_schema`'s. On compute v1, where 500 tools return the
/// 10 KB `Operation`, that is 10 of the catalog's 27 MB.
pub fn render_root_compact(
    schema: &Schema,
    definitions: &BTreeMap<String, Schema>,
    direction: Direction,
) -> Value {
    match inlined_root(schema, definitions) {
        Some((name, _)) => {
            let mut out = Map::new();
            out.insert("$ref".into(), json!(format!("#/$defs/{name}")));
            if let Some(d) = &schema.description {
                out.insert("description".into(), json!(d));
            }
            Value::Object(out)
        }
        None => schema.to_json(direction),
    }
}

/// MCP wants `type: object` at the root: a bare reference to an object definition is
/// inlined there (refinements such as a description win over the definition's). The
/// definition's name and schema when `schema` is such a reference.
fn inlined_root<'a>(
    schema: &'a Schema,
    definitions: &'a BTreeMap<String, Schema>,
) -> Option<(&'a str, &'a Schema)> {
    let name = schema.bare_reference()?;
    let def = definitions.get(name)?;
    (!schema.nullable && def.ty == SchemaType::Object && def.reference.is_none())
        .then_some((name, def))
}

/// Follows bare references ([`Schema::bare_reference`]) from `schema` to the first
/// schema with a shape of its own. Every walk over references goes through here or
/// through [`reachable`], both of which keep a visited set: a reference cycle
/// (`A → B → A`) ends the walk at the schema where it closes instead of looping.
pub fn follow<'a>(schema: &'a Schema, definitions: &'a BTreeMap<String, Schema>) -> &'a Schema {
    let mut seen = std::collections::BTreeSet::new();
    let mut current = schema;
    while let Some(name) = current.bare_reference() {
        if !seen.insert(name) {
            break;
        }
        match definitions.get(name) {
            Some(next) => current = next,
            None => break,
        }
    }
    current
}

/// Definitions that are bare references to each other in a ring (`A: $ref B`,
/// `B: $ref A`): no shape anywhere, so no type can be built for them.
pub fn alias_cycles(definitions: &BTreeMap<String, Schema>) -> std::collections::BTreeSet<String> {
    let mut out = std::collections::BTreeSet::new();
    for start in definitions.keys() {
        let mut chain: Vec<&str> = vec![start.as_str()];
        let mut current = &definitions[start];
        while let Some(next) = current.bare_reference() {
            if let Some(at) = chain.iter().position(|n| *n == next) {
                if at == 0 {
                    out.insert(start.clone());
                }
                break;
            }
            chain.push(next);
            match definitions.get(next) {
                Some(d) => current = d,
                None => break,
            }
        }
    }
    out
}

/// Every definition reachable from `roots`, by name.
pub fn reachable<'a>(
    roots: impl IntoIterator<Item = &'a Schema>,
    definitions: &BTreeMap<String, Schema>,
) -> std::collections::BTreeSet<String> {
    let mut pending = Vec::new();
    for root in roots {
        root.references(&mut pending);
        // An inlined root contributes its definition's references.
        if let Some(def) = root.reference.as_ref().and_then(|r| definitions.get(r)) {
            def.references(&mut pending);
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    while let Some(name) = pending.pop() {
        if seen.insert(name.clone())
            && let Some(def) = definitions.get(&name)
        {
            def.references(&mut pending);
        }
    }
    seen
}

/// A hash of `schema` as `Debug` writes it, streamed (no text is made): equal
/// fingerprints are worth comparing; unequal ones are different schemas (`-0.0` and
/// `0.0` included, which `==` does not tell apart).
pub fn fingerprint(schema: &Schema) -> u64 {
    hash_of(format_args!("{schema:?}"))
}

/// A hash of the text `text` writes, streamed into the hasher (no text is made).
pub fn hash_of(text: std::fmt::Arguments<'_>) -> u64 {
    use std::hash::Hasher;
    struct Feed(std::collections::hash_map::DefaultHasher);
    impl std::fmt::Write for Feed {
        fn write_str(&mut self, s: &str) -> std::fmt::Result {
            self.0.write(s.as_bytes());
            Ok(())
        }
    }
    let mut feed = Feed(std::collections::hash_map::DefaultHasher::new());
    let _ = std::fmt::Write::write_fmt(&mut feed, text);
    feed.0.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reference(name: &str) -> Schema {
        Schema {
            reference: Some(name.into()),
            ..Schema::default()
        }
    }

    #[test]
    fn reference_cycles_end_walks() {
        let defs: BTreeMap<String, Schema> = [
            ("A".to_owned(), reference("B")),
            ("B".to_owned(), reference("C")),
            ("C".to_owned(), reference("A")),
            ("D".to_owned(), reference("A")),
            ("E".to_owned(), reference("F")),
            ("F".to_owned(), Schema::of(SchemaType::String)),
        ]
        .into();
        assert_eq!(
            alias_cycles(&defs).into_iter().collect::<Vec<_>>(),
            ["A", "B", "C"]
        );
        assert_eq!(follow(&reference("E"), &defs).ty, SchemaType::String);
        // Ends where the ring closes, without looping.
        assert!(follow(&reference("D"), &defs).bare_reference().is_some());
        assert_eq!(reachable([&reference("D")], &defs).len(), 4);
    }

    #[test]
    fn input_objects_are_closed_output_objects_open() {
        let s = Schema::object([("a".into(), Schema::of(SchemaType::String), true)]);
        assert_eq!(
            s.to_json(Direction::Input)["additionalProperties"],
            json!(false)
        );
        assert!(
            s.to_json(Direction::Output)
                .get("additionalProperties")
                .is_none()
        );
        assert_eq!(s.to_json(Direction::Input)["required"], json!(["a"]));
    }
}
