//! One schema walk, parameterised by the target's rules: `$ref`s inlined (recursion
//! cut at a described permissive node), `allOf` merged, keys renamed to what every
//! provider accepts, and each keyword the target rejects moved into the description,
//! so the model still sees the constraint.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::mapping::Keys;
use super::names;
use super::text;

/// What a target accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// Portable JSON Schema for MCP clients: no `$ref`, `allOf`, `not`, `if`, type
    /// arrays or unknown formats.
    Mcp,
    /// OpenAI function parameters; `strict` adds Structured Outputs' rules.
    OpenAi { strict: bool },
    /// Anthropic `input_schema`; `strict` drops bounds and closes objects.
    Anthropic { strict: bool },
    /// Gemini's OpenAPI-3.0 subset (`parameters`).
    Gemini,
}

/// Inlining stops (with a described permissive node) past this many schema nodes per
/// tool's arguments: shared definitions can multiply when copied into every use.
pub(crate) const INPUT_NODES: usize = 4_000;

/// The same for results: their schema serves validation and a glance at the shape,
/// and GitHub's would take 10 MB spelled out in full.
pub(crate) const OUTPUT_NODES: usize = 300;

/// Per property description, in characters.
pub(crate) const PROPERTY_DESCRIPTION_BUDGET: usize = 300;

/// OpenAI Structured Outputs limits (supported-schemas guide).
const STRICT_DEPTH: usize = 10;
const STRICT_PROPERTIES: usize = 5_000;
const STRICT_ENUM_VALUES: usize = 1_000;
const STRICT_CHARACTERS: usize = 120_000;

/// The result of one walk.
#[derive(Debug, Default)]
pub(crate) struct Walked {
    pub schema: Value,
    pub keys: Keys,
    /// Why the schema cannot be strict (empty when it can, or strictness was not asked).
    pub blockers: Vec<String>,
}

/// An API's definitions by name, as JSON text (the catalog's): parsed when a walk
/// reaches them.
pub(crate) type Definitions<'c> = std::collections::BTreeMap<&'c str, &'c str>;

/// Walks `schema` for `dialect`; `#/$defs/<name>` resolves in the root's own
/// `$defs`, then in `shared` (the API's definitions, each parsed once per walk).
/// `rename` turns property keys into provider-safe ones (inputs); outputs keep the
/// API's keys.
pub(crate) fn walk(
    schema: &Value,
    shared: &Definitions<'_>,
    dialect: Dialect,
    rename: bool,
    node_budget: usize,
) -> Walked {
    let local = schema
        .get("$defs")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let mut walker = Walker {
        local,
        shared,
        parsed: std::cell::RefCell::default(),
        dialect,
        rename,
        stack: Vec::new(),
        nodes: 0,
        node_budget,
        blockers: Vec::new(),
        stats: Stats::default(),
    };
    let mut keys = Keys::default();
    let mut root = walker.node(schema.clone(), &mut keys, 0, "arguments");
    if let Value::Object(map) = &mut root {
        map.remove("$defs");
        if rename && !map.contains_key("type") {
            map.insert("type".into(), json!("object"));
        }
    }
    if walker.strict() {
        if root.get("type") != Some(&json!("object")) {
            walker.block("the arguments are not an object".into());
        }
        let s = std::mem::take(&mut walker.stats);
        if s.depth > STRICT_DEPTH {
            walker.block(format!(
                "objects nest {} levels deep (strict allows {STRICT_DEPTH})",
                s.depth
            ));
        }
        if s.properties > STRICT_PROPERTIES {
            walker.block(format!(
                "{} properties (strict allows {STRICT_PROPERTIES})",
                s.properties
            ));
        }
        if s.enum_values > STRICT_ENUM_VALUES {
            walker.block(format!(
                "{} enum values (strict allows {STRICT_ENUM_VALUES})",
                s.enum_values
            ));
        }
        if s.characters > STRICT_CHARACTERS {
            walker.block(format!(
                "{} characters of names and enum values (strict allows {STRICT_CHARACTERS})",
                s.characters
            ));
        }
    }
    let mut blockers = walker.blockers;
    blockers.dedup();
    Walked {
        schema: root,
        keys,
        blockers,
    }
}

#[derive(Debug, Default)]
struct Stats {
    depth: usize,
    properties: usize,
    enum_values: usize,
    characters: usize,
}

struct Walker<'a> {
    local: Map<String, Value>,
    shared: &'a Definitions<'a>,
    /// The shared definitions parsed so far in this walk: a big schema reaches one
    /// many times (Graph beta: ~1.5 million times for ~510,000 parses).
    parsed: std::cell::RefCell<std::collections::HashMap<String, Value>>,
    dialect: Dialect,
    rename: bool,
    /// Definitions being inlined, outermost first: meeting one again is recursion.
    stack: Vec<String>,
    nodes: usize,
    node_budget: usize,
    blockers: Vec<String>,
    stats: Stats,
}

impl Walker<'_> {
    fn strict(&self) -> bool {
        matches!(
            self.dialect,
            Dialect::OpenAi { strict: true } | Dialect::Anthropic { strict: true }
        )
    }

    /// Definition `name`: the schema's own, else the API's.
    fn definition(&self, name: &str) -> Option<Value> {
        if let Some(own) = self.local.get(name) {
            return Some(own.clone());
        }
        let text = self.shared.get(name)?;
        let mut parsed = self.parsed.borrow_mut();
        let value = parsed
            .entry(name.to_owned())
            .or_insert_with(|| super::parse(text));
        Some(value.clone())
    }

    /// A property name as exported (sanitized when keys are renamed).
    fn export_key(&self, name: &str) -> String {
        if self.rename {
            names::keys([name])
                .remove(name)
                .unwrap_or_else(|| name.to_owned())
        } else {
            name.to_owned()
        }
    }

    fn block(&mut self, why: String) {
        if self.strict() && !self.blockers.contains(&why) {
            self.blockers.push(why);
        }
    }

    /// One schema node; `keys` collects the renames of the object(s) it describes.
    /// `depth` counts object levels; `at` names the node in warnings. Takes the
    /// schema by value: its parts move into the result instead of being copied at
    /// every level.
    fn node(&mut self, schema: Value, keys: &mut Keys, depth: usize, at: &str) -> Value {
        self.nodes += 1;
        let input = match schema {
            Value::Object(input) => input,
            // `true` accepts anything, `false` nothing: both as plain schemas.
            Value::Bool(false) => {
                return json!({"description": "No value is accepted here.", "enum": []});
            }
            _ => return self.permissive(at, "any value"),
        };
        if let Some(name) = reference(&input) {
            return self.inline(input, &name, keys, depth, at);
        }
        let mut map = input;
        if map.contains_key("allOf") {
            map = self.merge_all_of(map, at);
        }
        let mut notes: Vec<String> = Vec::new();
        let mut prose = String::new();
        let mut out = Map::new();
        let mut object_here = false;
        // Keywords in a fixed order, so output is deterministic whatever the input order.
        let mut entries: Vec<(String, Value)> = map.into_iter().collect();
        entries.sort_by(|a, b| order(&a.0).cmp(&order(&b.0)).then(a.0.cmp(&b.0)));
        let mut required: Option<Vec<String>> = None;
        let mut renames = BTreeMap::new();
        for (key, value) in entries {
            match key.as_str() {
                "$schema" | "$id" | "$comment" | "$defs" | "definitions" | "$anchor"
                | "readOnly" | "writeOnly" => {}
                k if k.starts_with("x-") => {}
                "title" => {
                    if self.dialect == Dialect::Gemini {
                        out.insert(key, value);
                    }
                }
                "description" => {
                    if let Some(d) = value.as_str() {
                        prose = text::clean(d, None);
                    }
                }
                "type" => self.type_keyword(&value, &mut out, &mut notes),
                "properties" => {
                    object_here = true;
                    let Value::Object(props) = value else {
                        continue;
                    };
                    renames = if self.rename {
                        names::keys(props.keys().map(String::as_str))
                    } else {
                        props.keys().map(|k| (k.clone(), k.clone())).collect()
                    };
                    self.stats.depth = self.stats.depth.max(depth + 1);
                    let mut walked = Map::new();
                    for (original, sub) in props {
                        let exported = renames[&original].clone();
                        self.stats.properties += 1;
                        self.stats.characters += exported.len();
                        let mut child = Keys::default();
                        let node =
                            self.node(sub, &mut child, depth + 1, &format!("{at}.{original}"));
                        if exported != original {
                            keys.renamed.insert(exported.clone(), original);
                        }
                        keys.nest(&exported, child);
                        walked.insert(exported, node);
                    }
                    out.insert("properties".into(), Value::Object(walked));
                }
                "required" => {
                    required = value.as_array().map(|r| {
                        r.iter()
                            .filter_map(Value::as_str)
                            .map(str::to_owned)
                            .collect()
                    });
                }
                "items" => {
                    let mut child = Keys::default();
                    let node = self.node(value, &mut child, depth, &format!("{at}[]"));
                    keys.set_items(child);
                    out.insert(key, node);
                }
                "prefixItems" => {
                    if self.dialect == Dialect::Mcp {
                        let mut child = Keys::default();
                        let items: Vec<Value> = match value {
                            Value::Array(items) => items
                                .into_iter()
                                .map(|v| self.node(v, &mut child, depth, at))
                                .collect(),
                            _ => Vec::new(),
                        };
                        out.insert(key, Value::Array(items));
                    } else {
                        self.block(format!("`{at}` is a tuple"));
                        notes.push(format!("A tuple: {}.", compact(&value)));
                    }
                }
                "additionalProperties" => {
                    object_here = true;
                    self.additional(value, &mut out, &mut notes, keys, depth, at);
                }
                "anyOf" | "oneOf" => {
                    let branches = value.as_array().map_or(&[][..], Vec::as_slice);
                    // A branch that accepts anything makes the union no constraint.
                    if branches.iter().any(|v| v == &json!({})) {
                        continue;
                    }
                    // `oneOf: [{required: [a]}, {required: [b]}]`: which arguments go
                    // together, said in words where the target has no such schema.
                    if self.dialect != Dialect::Mcp
                        && let Some(sets) = required_sets(branches)
                    {
                        let sets: Vec<String> = sets
                            .iter()
                            .map(|set| {
                                let names: Vec<String> = set
                                    .iter()
                                    .map(|n| {
                                        let key = renames.get(n).cloned();
                                        format!("`{}`", key.unwrap_or_else(|| self.export_key(n)))
                                    })
                                    .collect();
                                names.join(" + ")
                            })
                            .collect();
                        let how = if key == "oneOf" {
                            "exactly one"
                        } else {
                            "at least one"
                        };
                        notes.push(format!("Give {how} of: {}.", sets.join(", ")));
                        continue;
                    }
                    let branches: Vec<Value> = match value {
                        Value::Array(list) => list
                            .into_iter()
                            .map(|v| self.node(v, keys, depth, at))
                            .collect(),
                        _ => Vec::new(),
                    };
                    let native = key == "anyOf" || self.dialect == Dialect::Mcp;
                    if !native {
                        notes.push("Exactly one of these alternatives.".into());
                    }
                    let name = if native { key } else { "anyOf".into() };
                    out.insert(name, Value::Array(branches));
                }
                "enum" => self.enum_keyword(value, &mut out, &mut notes),
                "const" => {
                    if self.dialect == Dialect::Gemini {
                        match value {
                            Value::String(_) => {
                                out.insert("enum".into(), json!([value]));
                            }
                            other => notes.push(format!("Must be {}.", compact(&other))),
                        }
                    } else {
                        self.stats.characters += compact(&value).len();
                        out.insert(key, value);
                    }
                }
                "format" => {
                    let Some(f) = value.as_str() else { continue };
                    if self.takes_format(f) {
                        out.insert(key, value);
                    } else {
                        notes.push(format!("Format: {f}."));
                    }
                }
                "default" | "examples" | "example" => {
                    let value = match (key.as_str(), value) {
                        ("examples", Value::Array(mut list)) if !list.is_empty() => list.remove(0),
                        ("examples", _) => continue,
                        (_, v) => v,
                    };
                    if self.dialect == Dialect::Gemini {
                        let name = if key == "default" {
                            "default"
                        } else {
                            "example"
                        };
                        out.insert(name.into(), value);
                    } else if key == "default" {
                        if self.strict() {
                            notes.push(format!("Default: {}.", compact(&value)));
                        } else {
                            out.insert(key, value);
                        }
                    } else if self.dialect == Dialect::Mcp {
                        out.insert("examples".into(), json!([value]));
                    } else {
                        notes.push(format!("Example: {}.", compact(&value)));
                    }
                }
                other => {
                    if self.keeps(other, &value) {
                        out.insert(key, value);
                    } else if let Some(note) = moved(other, &value) {
                        // The executor still checks the original schema, so a model
                        // that misses the note gets an error naming it.
                        notes.push(note);
                    }
                }
            }
        }
        if object_here || out.get("type") == Some(&json!("object")) {
            self.close_object(&mut out, keys, required.as_deref(), &renames, at);
        } else if let Some(required) = required {
            // `required` without `properties` (a branch constraint): keep as is where
            // allowed, the names exported.
            let list: Vec<Value> = required.iter().map(|r| json!(r)).collect();
            if self.dialect == Dialect::Mcp {
                out.insert("required".into(), Value::Array(list));
            }
        }
        if self.strict()
            && !out.contains_key("type")
            && !out.contains_key("anyOf")
            && !out.contains_key("enum")
            && !out.contains_key("const")
        {
            self.block(format!("`{at}` accepts any JSON value"));
        }
        if let Some(text) = describe(&prose, &notes) {
            out.insert("description".into(), json!(text));
        }
        Value::Object(out)
    }

    fn inline(
        &mut self,
        input: Map<String, Value>,
        name: &str,
        keys: &mut Keys,
        depth: usize,
        at: &str,
    ) -> Value {
        let described = input.get("description").and_then(Value::as_str);
        if self.stack.iter().any(|n| n == name) {
            self.block(format!("`{at}` is recursive (`{name}`)"));
            let why = format!(
                "{}: the same shape as an enclosing value (recursive), not spelled out again",
                described.unwrap_or(name)
            );
            return self.permissive(at, &why);
        }
        if self.nodes > self.node_budget {
            self.block(format!("`{at}` is too large to spell out"));
            let why = format!(
                "{}: details omitted (schema too large)",
                described.unwrap_or(name)
            );
            return self.permissive(at, &why);
        }
        let Some(target) = self.definition(name) else {
            return self.permissive(at, &format!("`{name}` (not described)"));
        };
        // Siblings of `$ref` (a description, a default) refine the target.
        let mut merged = match target {
            Value::Object(t) => t,
            other => {
                let mut m = Map::new();
                m.insert("allOf".into(), json!([other]));
                m
            }
        };
        for (k, v) in input {
            if k != "$ref" {
                merged.insert(k, v);
            }
        }
        self.stack.push(name.to_owned());
        let out = self.node(Value::Object(merged), keys, depth, at);
        self.stack.pop();
        out
    }

    /// A node that accepts any value, saying what it stands for. Strict targets
    /// cannot express "anything" (the walk is marked non-strict).
    fn permissive(&mut self, at: &str, why: &str) -> Value {
        self.block(format!("`{at}` accepts any JSON value"));
        let mut why = why.to_owned();
        if !why.ends_with('.') {
            why.push('.');
        }
        if let Some(first) = why.get(..1) {
            why = first.to_ascii_uppercase() + &why[1..];
        }
        json!({ "description": why })
    }

    /// Whether the target takes `format: f`: the portable list (OpenAI's without
    /// `uri`, which fails its whole request), or Gemini's OpenAPI formats.
    fn takes_format(&self, f: &str) -> bool {
        const PORTABLE: &[&str] = &[
            "date-time",
            "date",
            "time",
            "duration",
            "email",
            "hostname",
            "uri",
            "ipv4",
            "ipv6",
            "uuid",
        ];
        const GEMINI: &[&str] = &["date-time", "int32", "int64", "float", "double", "enum"];
        match self.dialect {
            Dialect::Mcp | Dialect::Anthropic { .. } => PORTABLE.contains(&f),
            Dialect::OpenAi { .. } => f != "uri" && PORTABLE.contains(&f),
            Dialect::Gemini => GEMINI.contains(&f),
        }
    }

    /// Whether a keyword not handled above stays as it is.
    fn keeps(&self, keyword: &str, value: &Value) -> bool {
        const BOUNDS: &[&str] = &[
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "multipleOf",
        ];
        const SIZES: &[&str] = &[
            "minLength",
            "maxLength",
            "minItems",
            "maxItems",
            "minProperties",
            "maxProperties",
        ];
        let bound = BOUNDS.contains(&keyword);
        let size = SIZES.contains(&keyword);
        match self.dialect {
            Dialect::Mcp => {
                bound
                    || size
                    || matches!(
                        keyword,
                        "pattern"
                            | "uniqueItems"
                            | "deprecated"
                            | "contentEncoding"
                            | "contentMediaType"
                    )
            }
            Dialect::OpenAi { strict: false } | Dialect::Anthropic { strict: false } => {
                bound || size || matches!(keyword, "pattern" | "uniqueItems")
            }
            Dialect::OpenAi { strict: true } => {
                bound || matches!(keyword, "minItems" | "maxItems" | "pattern")
            }
            Dialect::Anthropic { strict: true } => match keyword {
                "minItems" => matches!(value.as_u64(), Some(0 | 1)),
                "pattern" => value
                    .as_str()
                    .is_some_and(|p| !has_lookaround(p) && !has_backreference(p)),
                _ => false,
            },
            Dialect::Gemini => {
                (bound && matches!(keyword, "minimum" | "maximum"))
                    || size
                    || matches!(keyword, "pattern" | "propertyOrdering")
            }
        }
    }

    fn type_keyword(
        &mut self,
        value: &Value,
        out: &mut Map<String, Value>,
        notes: &mut Vec<String>,
    ) {
        let Value::Array(types) = value else {
            out.insert("type".into(), value.clone());
            return;
        };
        let null = types.iter().any(|t| t == "null");
        let others: Vec<&Value> = types.iter().filter(|t| *t != "null").collect();
        match (self.dialect, others.as_slice()) {
            // OpenAI and Anthropic take type arrays as they are.
            (Dialect::OpenAi { .. } | Dialect::Anthropic { .. }, _) => {
                out.insert("type".into(), value.clone());
            }
            (Dialect::Gemini, [one]) => {
                out.insert("type".into(), (*one).clone());
                if null {
                    out.insert("nullable".into(), json!(true));
                }
            }
            (Dialect::Gemini, many) => {
                notes.push(format!("One of the types {}.", compact(value)));
                let _ = many;
                if null {
                    out.insert("nullable".into(), json!(true));
                }
            }
            (Dialect::Mcp, [one]) if !null => {
                out.insert("type".into(), (*one).clone());
            }
            (Dialect::Mcp, _) => {
                // Type arrays break some MCP gateways: the same as `anyOf` branches.
                let branches: Vec<Value> = types.iter().map(|t| json!({"type": t})).collect();
                out.insert("anyOf".into(), Value::Array(branches));
            }
        }
    }

    fn enum_keyword(
        &mut self,
        value: Value,
        out: &mut Map<String, Value>,
        notes: &mut Vec<String>,
    ) {
        let Value::Array(values) = value else { return };
        self.stats.enum_values += values.len();
        self.stats.characters += values.iter().map(|v| compact(v).len()).sum::<usize>();
        if self.dialect == Dialect::Gemini && !values.iter().all(Value::is_string) {
            let listed: Vec<String> = values.iter().map(compact).collect();
            notes.push(format!("One of: {}.", listed.join(", ")));
            return;
        }
        out.insert("enum".into(), Value::Array(values));
    }

    fn additional(
        &mut self,
        value: Value,
        out: &mut Map<String, Value>,
        notes: &mut Vec<String>,
        keys: &mut Keys,
        depth: usize,
        at: &str,
    ) {
        if value == Value::Bool(false) {
            if self.dialect != Dialect::Gemini {
                out.insert("additionalProperties".into(), json!(false));
            }
            return;
        }
        if self.strict() {
            self.block(format!("`{at}` takes keys of its own choosing (a map)"));
        }
        let described = if value == Value::Bool(true) || value == json!({}) {
            if self.dialect != Dialect::Gemini {
                out.insert("additionalProperties".into(), value);
                return;
            }
            "Any other keys are allowed.".to_owned()
        } else {
            let mut child = Keys::default();
            let node = self.node(value, &mut child, depth + 1, &format!("{at}.*"));
            keys.set_values(child);
            if self.dialect == Dialect::Gemini {
                format!(
                    "Any other keys are allowed; each value: {}.",
                    compact(&node)
                )
            } else {
                out.insert("additionalProperties".into(), node);
                return;
            }
        };
        notes.push(described);
    }

    /// Required lists in exported names; strict targets close every object, list
    /// every property as required and make the optional ones nullable (a `null` the
    /// executor drops on the way back).
    fn close_object(
        &mut self,
        out: &mut Map<String, Value>,
        keys: &mut Keys,
        required: Option<&[String]>,
        renames: &BTreeMap<String, String>,
        at: &str,
    ) {
        let required: Vec<String> = required
            .unwrap_or_default()
            .iter()
            .map(|r| renames.get(r).cloned().unwrap_or_else(|| r.clone()))
            .collect();
        if !out.contains_key("type") && !out.contains_key("anyOf") {
            out.insert("type".into(), json!("object"));
        }
        if self.dialect == Dialect::Gemini {
            out.remove("additionalProperties");
        }
        if !self.strict() {
            if !required.is_empty() {
                out.insert("required".into(), json!(required));
            }
            return;
        }
        match out.get("additionalProperties") {
            Some(Value::Bool(false)) => {}
            // A map: blocked where it was met.
            Some(_) => {}
            None if out.contains_key("properties") => {
                out.insert("additionalProperties".into(), json!(false));
            }
            None => {
                self.block(format!("`{at}` is an object with any keys"));
                return;
            }
        }
        if self.dialect != (Dialect::OpenAi { strict: true }) {
            if !required.is_empty() {
                out.insert("required".into(), json!(required));
            }
            return;
        }
        let mut all = Vec::new();
        let mut stuck = Vec::new();
        let props = out.entry("properties").or_insert_with(|| json!({}));
        if let Value::Object(props) = props {
            for (name, schema) in props.iter_mut() {
                all.push(json!(name));
                if !required.contains(name) && !accepts_null(schema) {
                    if make_nullable(schema) {
                        keys.nulls.insert(name.clone());
                    } else {
                        stuck.push(name.clone());
                    }
                }
            }
        }
        for name in stuck {
            self.block(format!(
                "`{at}.{name}` is optional and cannot be made nullable"
            ));
        }
        out.insert("required".into(), Value::Array(all));
    }

    /// `allOf` folded into the node: properties and required lists joined, other
    /// keywords taken from the first branch that has them. Branches that are not
    /// objects (or conflict) are described instead.
    fn merge_all_of(&mut self, mut map: Map<String, Value>, at: &str) -> Map<String, Value> {
        let Some(Value::Array(branches)) = map.remove("allOf") else {
            return map;
        };
        for branch in branches {
            let resolved = self.resolve_shallow(&branch);
            let Value::Object(branch) = resolved else {
                continue;
            };
            for (k, v) in branch {
                match (k.as_str(), map.get_mut(&k)) {
                    ("properties", Some(Value::Object(mine))) => {
                        if let Value::Object(theirs) = v {
                            for (pk, pv) in theirs {
                                mine.entry(pk).or_insert(pv);
                            }
                        }
                    }
                    ("required", Some(Value::Array(mine))) => {
                        for r in v.as_array().into_iter().flatten() {
                            if !mine.contains(r) {
                                mine.push(r.clone());
                            }
                        }
                    }
                    ("allOf", _) => {
                        let nested =
                            self.merge_all_of([("allOf".to_owned(), v)].into_iter().collect(), at);
                        for (nk, nv) in nested {
                            map.entry(nk).or_insert(nv);
                        }
                    }
                    ("description", Some(_)) => {}
                    (_, Some(existing)) if *existing != v => {
                        self.block(format!("`{at}` combines conflicting `{k}` constraints"));
                    }
                    (_, Some(_)) => {}
                    (_, None) => {
                        map.insert(k, v);
                    }
                }
            }
        }
        map
    }

    /// `branch` with a top-level `$ref` replaced by its target (siblings kept).
    fn resolve_shallow(&self, branch: &Value) -> Value {
        let mut seen = Vec::new();
        let mut current = branch.clone();
        while let Value::Object(map) = &current {
            let Some(name) = reference(map) else { break };
            if seen.contains(&name) || self.stack.contains(&name) {
                // Recursion through `allOf`: described, not followed.
                return json!({});
            }
            let Some(target) = self.definition(&name) else {
                return json!({});
            };
            let mut merged = target.as_object().cloned().unwrap_or_default();
            for (k, v) in map {
                if k != "$ref" {
                    merged.insert(k.clone(), v.clone());
                }
            }
            seen.push(name);
            current = Value::Object(merged);
        }
        current
    }
}

/// A node's description: the source's prose within the budget, then the notes on
/// constraints the target could not take — those in full, as the model needs them
/// to make a valid call (the prose gives way first).
fn describe(prose: &str, notes: &[String]) -> Option<String> {
    let notes = notes.join(" ");
    let room = PROPERTY_DESCRIPTION_BUDGET.saturating_sub(notes.chars().count() + 1);
    let prose = if room >= 40 || notes.is_empty() {
        text::fit(prose, room.max(40))
    } else {
        String::new()
    };
    let text = match (prose.is_empty(), notes.is_empty()) {
        (true, true) => return None,
        (false, true) => prose,
        (true, false) => notes,
        (false, false) => format!("{prose} {notes}"),
    };
    Some(text)
}

/// The property sets of branches that only say which properties are required.
fn required_sets(branches: &[Value]) -> Option<Vec<Vec<String>>> {
    branches
        .iter()
        .map(|b| {
            let map = b.as_object()?;
            let only_required = map.keys().all(|k| k == "required" || k == "description");
            let names = map.get("required")?.as_array()?;
            only_required.then(|| {
                names
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
        })
        .collect()
}

/// `#/$defs/<name>` of a node, if it is a reference.
fn reference(map: &Map<String, Value>) -> Option<String> {
    map.get("$ref")?
        .as_str()?
        .strip_prefix("#/$defs/")
        .map(|n| n.replace("~1", "/").replace("~0", "~"))
}

/// Keyword order in output: what a reader wants first.
fn order(keyword: &str) -> u8 {
    match keyword {
        "type" => 0,
        "description" => 1,
        "properties" => 2,
        "required" => 3,
        "items" => 4,
        _ => 5,
    }
}

fn accepts_null(schema: &Value) -> bool {
    match schema.get("type") {
        Some(Value::String(t)) => t == "null",
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "null"),
        _ => schema
            .get("anyOf")
            .and_then(Value::as_array)
            .is_some_and(|b| b.iter().any(accepts_null)),
    }
}

/// Lets `schema` also accept `null`; false when it has no type to extend.
fn make_nullable(schema: &mut Value) -> bool {
    let Value::Object(map) = schema else {
        return false;
    };
    if let Some(Value::Array(values)) = map.get_mut("enum") {
        values.push(Value::Null);
        if !map.contains_key("type") {
            return true;
        }
    }
    if let Some(Value::String(t)) = map.get("type") {
        let t = t.clone();
        map.insert("type".into(), json!([t, "null"]));
        return true;
    }
    if let Some(Value::Array(types)) = map.get_mut("type") {
        types.push(json!("null"));
        return true;
    }
    if let Some(Value::Array(branches)) = map.get_mut("anyOf") {
        branches.push(json!({"type": "null"}));
        return true;
    }
    if let Some(constant) = map.remove("const") {
        map.insert(
            "anyOf".into(),
            json!([{"const": constant}, {"type": "null"}]),
        );
        return true;
    }
    false
}

fn has_lookaround(pattern: &str) -> bool {
    ["(?=", "(?!", "(?<=", "(?<!"]
        .iter()
        .any(|l| pattern.contains(l))
}

fn has_backreference(pattern: &str) -> bool {
    let bytes = pattern.as_bytes();
    bytes
        .windows(2)
        .any(|w| w[0] == b'\\' && (w[1].is_ascii_digit() && w[1] != b'0' || w[1] == b'k'))
}

/// A dropped keyword as words a model reads.
fn moved(keyword: &str, value: &Value) -> Option<String> {
    let n = || compact(value);
    Some(match keyword {
        "minLength" => format!("At least {} characters.", n()),
        "maxLength" => format!("At most {} characters.", n()),
        "minimum" => format!("Minimum {}.", n()),
        "maximum" => format!("Maximum {}.", n()),
        "exclusiveMinimum" => format!("Greater than {}.", n()),
        "exclusiveMaximum" => format!("Less than {}.", n()),
        "multipleOf" => format!("A multiple of {}.", n()),
        "minItems" => format!("At least {} items.", n()),
        "maxItems" => format!("At most {} items.", n()),
        "minProperties" => format!("At least {} keys.", n()),
        "maxProperties" => format!("At most {} keys.", n()),
        "uniqueItems" if value == &Value::Bool(true) => "Items must be unique.".into(),
        "pattern" => format!(
            "Must match the pattern `{}`.",
            value.as_str().unwrap_or_default()
        ),
        "deprecated" if value == &Value::Bool(true) => "Deprecated.".into(),
        "contentEncoding" => format!("Encoded as {}.", value.as_str().unwrap_or_default()),
        "contentMediaType" => format!("Media type {}.", value.as_str().unwrap_or_default()),
        "not" => format!("Must not match {}.", n()),
        "if" => format!("If it matches {},", n()),
        "then" => format!("then it must match {}.", n()),
        "else" => format!("Otherwise it must match {}.", n()),
        "dependentRequired" => {
            let Value::Object(map) = value else {
                return None;
            };
            map.iter()
                .map(|(k, v)| {
                    let also: Vec<String> = v
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_str)
                        .map(|s| format!("`{s}`"))
                        .collect();
                    format!("With `{k}`, also give {}.", also.join(", "))
                })
                .collect::<Vec<_>>()
                .join(" ")
        }
        "dependentSchemas" => format!("Depending on the keys given: {}.", n()),
        "uniqueItems"
        | "deprecated"
        | "propertyOrdering"
        | "nullable"
        | "discriminator"
        | "xml"
        | "externalDocs"
        | "contentSchema"
        | "unevaluatedProperties" => return None,
        other => format!("{other}: {}.", n()),
    })
}

/// JSON on one line, for descriptions.
fn compact(value: &Value) -> String {
    let text = value.to_string();
    if text.len() > 120 {
        let cut = text.char_indices().nth(117).map_or(text.len(), |(i, _)| i);
        format!("{}…", &text[..cut])
    } else {
        text
    }
}
