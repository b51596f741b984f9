//! Builders the derive's generated code calls: objects (structs, struct variants) and
//! enums in each serde representation. Kept here, not in the macro's output, so that the
//! representation rules are ordinary tested code and generated code stays small.

use serde_json::{Map, Value, json};

use super::SchemaGenerator;

/// The schema of an object: properties in declaration order, `required`, flattened parts.
#[derive(Debug, Default)]
pub struct Object {
    properties: Map<String, Value>,
    required: Vec<String>,
    /// Flattened enums and other non-object parts: all must hold.
    all_of: Vec<Value>,
    additional: Option<Value>,
}

impl Object {
    pub fn new() -> Self {
        Object::default()
    }

    /// Adds a property.
    pub fn property(&mut self, name: &str, schema: Value, required: bool) {
        self.properties.insert(name.to_owned(), schema);
        if required && !self.required.iter().any(|r| r == name) {
            self.required.push(name.to_owned());
        }
    }

    /// Merges a `#[serde(flatten)]` field's schema: its properties join ours, a map
    /// opens ours to extra properties, anything else must hold as well (`allOf`).
    pub fn flatten(&mut self, generator: &SchemaGenerator, schema: &Value, optional: bool) {
        let schema = generator.resolve(schema);
        let Some(map) = schema.as_object() else {
            return;
        };
        if let Some(Value::Object(props)) = map.get("properties") {
            for (name, prop) in props {
                self.properties.insert(name.clone(), prop.clone());
            }
            if !optional && let Some(Value::Array(required)) = map.get("required") {
                for name in required.iter().filter_map(Value::as_str) {
                    if !self.required.iter().any(|r| r == name) {
                        self.required.push(name.to_owned());
                    }
                }
            }
        }
        if let Some(extra) = map.get("additionalProperties")
            && extra != &Value::Bool(false)
        {
            self.additional = Some(extra.clone());
        }
        if map.contains_key("oneOf") || map.contains_key("anyOf") || map.contains_key("allOf") {
            self.all_of.push(Value::Object(map.clone()));
        }
    }

    /// `#[serde(deny_unknown_fields)]`.
    pub fn deny_unknown_fields(&mut self) {
        if self.additional.is_none() {
            self.additional = Some(Value::Bool(false));
        }
    }

    pub fn finish(self) -> Value {
        let mut out = Map::new();
        out.insert("type".into(), json!("object"));
        out.insert("properties".into(), Value::Object(self.properties));
        if !self.required.is_empty() {
            out.insert("required".into(), json!(self.required));
        }
        if let Some(additional) = self.additional {
            out.insert("additionalProperties".into(), additional);
        }
        if !self.all_of.is_empty() {
            out.insert("allOf".into(), Value::Array(self.all_of));
        }
        Value::Object(out)
    }
}

/// Adds annotation keywords (description, bounds, examples...) to a schema. A `$ref`
/// may carry siblings in 2020-12, so references are annotated in place.
pub fn annotate(schema: &mut Value, keywords: Vec<(&'static str, Value)>) {
    if keywords.is_empty() {
        return;
    }
    if !schema.is_object() {
        *schema = json!({ "allOf": [schema.clone()] });
    }
    if let Value::Object(map) = schema {
        for (key, value) in keywords {
            map.insert(key.to_owned(), value);
        }
    }
}

/// A fixed-length array (tuples, tuple structs, tuple variants).
pub fn tuple(items: Vec<Value>) -> Value {
    let n = items.len();
    json!({
        "type": "array",
        "prefixItems": items,
        "items": false,
        "minItems": n,
        "maxItems": n,
    })
}

/// How an enum is represented (serde's `tag`, `content`, `untagged`).
#[derive(Debug, Clone, Copy)]
pub enum Representation {
    /// `{"Variant": ...}`, unit variants as `"Variant"` (serde's default).
    External,
    /// `#[serde(tag = "t")]`: the tag inside the variant's object.
    Internal { tag: &'static str },
    /// `#[serde(tag = "t", content = "c")]`.
    Adjacent {
        tag: &'static str,
        content: &'static str,
    },
    /// `#[serde(untagged)]`.
    Untagged,
}

/// A variant's fields.
#[derive(Debug)]
pub enum VariantBody {
    Unit,
    /// One unnamed field: its schema.
    Newtype(Value),
    /// Several unnamed fields: a [`tuple()`] schema.
    Tuple(Value),
    /// Named fields: an [`Object`] schema.
    Struct(Value),
}

/// One enum variant as the derive describes it.
#[derive(Debug)]
pub struct VariantSchema {
    /// Serialized name (after `rename` / `rename_all`).
    pub name: &'static str,
    pub description: Option<&'static str>,
    /// `#[serde(untagged)]` on the variant: matched by shape after the tagged ones.
    pub untagged: bool,
    pub body: VariantBody,
}

/// The schema of an enum: one alternative per variant.
pub fn enum_schema(representation: Representation, variants: Vec<VariantSchema>) -> Value {
    let all_plain_units = matches!(representation, Representation::External)
        && variants
            .iter()
            .all(|v| matches!(v.body, VariantBody::Unit) && v.description.is_none() && !v.untagged);
    if all_plain_units && !variants.is_empty() {
        let names: Vec<&str> = variants.iter().map(|v| v.name).collect();
        return json!({ "type": "string", "enum": names });
    }
    let mut tagged = Vec::new();
    let mut untagged = Vec::new();
    for variant in variants {
        let representation = if variant.untagged {
            Representation::Untagged
        } else {
            representation
        };
        let mut schema = variant_schema(representation, variant.name, variant.body);
        if let Some(description) = variant.description {
            annotate(&mut schema, vec![("description", json!(description))]);
        }
        match representation {
            Representation::Untagged => untagged.push(schema),
            _ => tagged.push(schema),
        }
    }
    match (tagged.len(), untagged.is_empty()) {
        (0, true) => Value::Bool(false),
        (0, false) => json!({ "anyOf": untagged }),
        (_, true) => json!({ "oneOf": tagged }),
        (_, false) => {
            let mut any_of = vec![json!({ "oneOf": tagged })];
            any_of.extend(untagged);
            json!({ "anyOf": any_of })
        }
    }
}

fn variant_schema(representation: Representation, name: &str, body: VariantBody) -> Value {
    let tag_only = |tag: &str| {
        json!({
            "type": "object",
            "properties": { tag: { "const": name } },
            "required": [tag],
        })
    };
    match (representation, body) {
        (Representation::External, VariantBody::Unit) => json!({ "const": name }),
        (
            Representation::External,
            VariantBody::Newtype(s) | VariantBody::Tuple(s) | VariantBody::Struct(s),
        ) => json!({
            "type": "object",
            "properties": { name: s },
            "required": [name],
            "additionalProperties": false,
        }),
        (Representation::Internal { tag }, VariantBody::Unit) => tag_only(tag),
        (Representation::Internal { tag }, VariantBody::Struct(mut s)) => {
            insert_tag(&mut s, tag, name);
            s
        }
        (Representation::Internal { tag }, VariantBody::Newtype(s) | VariantBody::Tuple(s)) => {
            let mut out = tag_only(tag);
            out["allOf"] = json!([s]);
            out
        }
        (Representation::Adjacent { tag, .. }, VariantBody::Unit) => tag_only(tag),
        (
            Representation::Adjacent { tag, content },
            VariantBody::Newtype(s) | VariantBody::Tuple(s) | VariantBody::Struct(s),
        ) => json!({
            "type": "object",
            "properties": { tag: { "const": name }, content: s },
            "required": [tag, content],
        }),
        (Representation::Untagged, VariantBody::Unit) => json!({ "type": "null" }),
        (
            Representation::Untagged,
            VariantBody::Newtype(s) | VariantBody::Tuple(s) | VariantBody::Struct(s),
        ) => s,
    }
}

/// Puts the tag first among an object's properties and its required names.
fn insert_tag(schema: &mut Value, tag: &str, name: &str) {
    let Value::Object(map) = schema else {
        return;
    };
    let mut properties = Map::new();
    properties.insert(tag.to_owned(), json!({ "const": name }));
    if let Some(Value::Object(existing)) = map.remove("properties") {
        properties.extend(existing);
    }
    map.insert("properties".into(), Value::Object(properties));
    let mut required = vec![json!(tag)];
    if let Some(Value::Array(existing)) = map.remove("required") {
        required.extend(existing);
    }
    map.insert("required".into(), Value::Array(required));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(name: &'static str) -> VariantSchema {
        VariantSchema {
            name,
            description: None,
            untagged: false,
            body: VariantBody::Unit,
        }
    }

    #[test]
    fn plain_unit_enums_are_string_enums() {
        let s = enum_schema(Representation::External, vec![unit("a"), unit("b")]);
        assert_eq!(s, json!({"type": "string", "enum": ["a", "b"]}));
    }

    #[test]
    fn internal_tags_go_first() {
        let mut object = Object::new();
        object.property("x", json!({"type": "integer"}), true);
        let s = enum_schema(
            Representation::Internal { tag: "kind" },
            vec![VariantSchema {
                name: "Point",
                description: Some("A point."),
                untagged: false,
                body: VariantBody::Struct(object.finish()),
            }],
        );
        assert_eq!(
            s,
            json!({"oneOf": [{
                "type": "object",
                "properties": {"kind": {"const": "Point"}, "x": {"type": "integer"}},
                "required": ["kind", "x"],
                "description": "A point.",
            }]})
        );
    }
}
