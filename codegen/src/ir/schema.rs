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
    pub default: Option<Value>,
    /// Allowed values (`enum`).
    pub enum_values: Vec<Value>,
    pub minimum: Option<Value>,
    pub maximum: Option<Value>,
    pub pattern: Option<String>,
    /// Item schema of an array.
    pub items: Option<Box<Schema>>,
    /// Properties of an object, in source order.
    pub properties: Vec<(String, Schema)>,
    /// Required property names of an object.
    pub required: Vec<String>,
    /// Keywords the source gave that the model has no field for (kept, rendered as is).
    pub extensions: BTreeMap<String, Value>,
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

    /// Renders JSON Schema 2020-12 (no `$schema`: the catalog's consumers assume it).
    pub fn to_json(&self, direction: Direction) -> Value {
        let mut out = Map::new();
        if let Some(ty) = self.ty.as_str() {
            out.insert("type".into(), json!(ty));
        }
        if let Some(d) = &self.description {
            out.insert("description".into(), json!(d));
        }
        if let Some(f) = &self.format {
            out.insert("format".into(), json!(f));
        }
        if !self.enum_values.is_empty() {
            out.insert("enum".into(), Value::Array(self.enum_values.clone()));
        }
        if let Some(v) = &self.default {
            out.insert("default".into(), v.clone());
        }
        if let Some(v) = &self.minimum {
            out.insert("minimum".into(), v.clone());
        }
        if let Some(v) = &self.maximum {
            out.insert("maximum".into(), v.clone());
        }
        if let Some(p) = &self.pattern {
            out.insert("pattern".into(), json!(p));
        }
        if let Some(items) = &self.items {
            out.insert("items".into(), items.to_json(direction));
        }
        for (k, v) in &self.extensions {
            out.entry(k.clone()).or_insert_with(|| v.clone());
        }
        if self.ty == SchemaType::Object {
            let properties: Map<String, Value> = self
                .properties
                .iter()
                .map(|(name, s)| (name.clone(), s.to_json(direction)))
                .collect();
            out.insert("properties".into(), Value::Object(properties));
            if !self.required.is_empty() {
                out.insert("required".into(), json!(self.required));
            }
            if direction == Direction::Input && !self.properties.is_empty() {
                out.insert("additionalProperties".into(), json!(false));
            }
        }
        Value::Object(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
