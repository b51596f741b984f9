//! JSON Schemas of Rust types: the [`ToolSchema`] trait behind `#[derive(ToolSchema)]`.
//!
//! A schema depends on the direction a value travels (serde's contract): an *input* is
//! deserialized (fields with a default may be left out, `skip_deserializing` fields do
//! not exist), an *output* is serialized (`Option` fields may be `null`,
//! `skip_serializing` fields do not exist). Every schema is JSON Schema 2020-12; named
//! types are shared under `$defs`, so recursion works.

mod build;
mod impls;

use std::any::type_name;
use std::borrow::Cow;
use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

pub use build::{Object, Representation, VariantBody, VariantSchema, annotate, enum_schema, tuple};
pub use impls::StringKey;

/// Which way a value travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    /// Sent to us (tool arguments): serde's deserialize contract.
    Input,
    /// Sent by us (tool results): serde's serialize contract.
    Output,
}

/// A type with a JSON Schema. Derive it with `#[derive(ToolSchema)]`; the common
/// standard types implement it here.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no JSON Schema: it does not implement `toolwright::ToolSchema`",
    label = "no JSON Schema for this type",
    note = "derive it with `#[derive(ToolSchema)]`, or use a supported type (numbers, bool, strings, Option, Vec, sets, maps with string keys, tuples, arrays, Box/Rc/Arc)"
)]
pub trait ToolSchema {
    /// Fields of this type may be left out (true for `Option`).
    const OPTIONAL: bool = false;

    /// The key under `$defs` for types shared by reference; `None` inlines the type
    /// everywhere (primitives and containers).
    fn schema_name() -> Option<Cow<'static, str>> {
        None
    }

    /// Identity of the type among shared definitions: two types with one `schema_name`
    /// get distinct keys. Pointers (`Box<T>`...) share their pointee's identity.
    fn schema_id() -> Cow<'static, str> {
        Cow::Borrowed(type_name::<Self>())
    }

    /// The schema of this type, registering the types it refers to in `generator`.
    fn schema(generator: &mut SchemaGenerator) -> Value;

    /// The schema merged into a parent by `#[serde(flatten)]`: the body itself, never
    /// a `$ref` (and for `Option<T>`, `T`'s body).
    fn flatten_schema(generator: &mut SchemaGenerator) -> Value {
        Self::schema(generator)
    }

    /// The input (deserialize) schema, with every referenced type under `$defs`.
    fn json_schema() -> Value {
        SchemaGenerator::root::<Self>(Direction::Input)
    }

    /// The schema for `direction`, with every referenced type under `$defs`.
    fn json_schema_for(direction: Direction) -> Value {
        SchemaGenerator::root::<Self>(direction)
    }
}

/// Collects the shared definitions of one root schema.
#[derive(Debug)]
pub struct SchemaGenerator {
    direction: Direction,
    definitions: Map<String, Value>,
    /// Rust type → its `$defs` key; two types with the same short name get distinct keys.
    keys: BTreeMap<Cow<'static, str>, String>,
}

impl SchemaGenerator {
    /// A generator for one direction.
    pub fn new(direction: Direction) -> Self {
        SchemaGenerator {
            direction,
            definitions: Map::new(),
            keys: BTreeMap::new(),
        }
    }

    /// The direction being described.
    pub fn direction(&self) -> Direction {
        self.direction
    }

    /// The schema of `T` as a root: its own body, plus `$defs` for everything reached.
    pub fn root<T: ToolSchema + ?Sized>(direction: Direction) -> Value {
        let mut generator = SchemaGenerator::new(direction);
        let schema = T::schema(&mut generator);
        generator.finish(schema)
    }

    /// Adds the collected definitions to `schema` under `$defs`.
    pub fn finish(self, mut schema: Value) -> Value {
        if self.definitions.is_empty() {
            return schema;
        }
        match &mut schema {
            Value::Object(map) => {
                map.insert("$defs".into(), Value::Object(self.definitions));
                schema
            }
            // `true`/`false` roots cannot hold keywords; wrap them.
            other => json!({ "allOf": [other.clone()], "$defs": self.definitions }),
        }
    }

    /// The definitions collected so far.
    pub fn definitions(&self) -> &Map<String, Value> {
        &self.definitions
    }

    /// The schema to use where a `T` appears: a `$ref` for named types (defined once),
    /// the schema itself for the others.
    pub fn subschema<T: ToolSchema + ?Sized>(&mut self) -> Value {
        let Some(name) = T::schema_name() else {
            return T::schema(self);
        };
        let id = T::schema_id();
        if let Some(key) = self.keys.get(&id) {
            return reference(key);
        }
        let key = self.free_key(&name);
        self.keys.insert(id, key.clone());
        // A placeholder first, so that a recursive type finds its own key.
        self.definitions.insert(key.clone(), Value::Bool(true));
        let schema = T::schema(self);
        self.definitions.insert(key.clone(), schema);
        reference(&key)
    }

    /// The schema of `T` with no `$ref` at the top (for `flatten`, which merges it).
    pub fn inline<T: ToolSchema + ?Sized>(&mut self) -> Value {
        T::schema(self)
    }

    /// Follows a top-level `$ref` into the definitions.
    pub fn resolve<'a>(&'a self, schema: &'a Value) -> &'a Value {
        schema
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix("#/$defs/"))
            .and_then(|key| self.definitions.get(key))
            .unwrap_or(schema)
    }

    fn free_key(&self, name: &str) -> String {
        let taken = |k: &str| self.keys.values().any(|v| v == k);
        if !taken(name) {
            return name.to_owned();
        }
        (2..)
            .map(|n| format!("{name}{n}"))
            .find(|k| !taken(k))
            .unwrap_or_default()
    }
}

fn reference(key: &str) -> Value {
    json!({ "$ref": format!("#/$defs/{key}") })
}

/// `schema`, also accepting `null` (outputs of `Option`).
pub fn nullable(schema: Value) -> Value {
    let Value::Object(mut map) = schema else {
        return schema;
    };
    let simple = !map.contains_key("$ref")
        && !map.contains_key("oneOf")
        && !map.contains_key("anyOf")
        && !map.contains_key("allOf")
        && !map.contains_key("const");
    match map.get_mut("type") {
        Some(Value::String(t)) if simple => {
            let t = std::mem::take(t);
            map.insert("type".into(), json!([t, "null"]));
        }
        Some(Value::Array(types)) if simple => {
            if !types.iter().any(|t| t == "null") {
                types.push(json!("null"));
            }
        }
        _ => return json!({ "anyOf": [Value::Object(map), { "type": "null" }] }),
    }
    if let Some(Value::Array(values)) = map.get_mut("enum")
        && !values.contains(&Value::Null)
    {
        values.push(Value::Null);
    }
    Value::Object(map)
}

/// Serializes an attribute value (`#[tool(example = ...)]`) for a schema.
#[doc(hidden)]
pub fn to_json<T: serde::Serialize + ?Sized>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nullable_forms() {
        assert_eq!(
            nullable(json!({"type": "string"})),
            json!({"type": ["string", "null"]})
        );
        assert_eq!(
            nullable(json!({"type": "string", "enum": ["a"]})),
            json!({"type": ["string", "null"], "enum": ["a", null]})
        );
        assert_eq!(
            nullable(json!({"$ref": "#/$defs/A"})),
            json!({"anyOf": [{"$ref": "#/$defs/A"}, {"type": "null"}]})
        );
    }
}
