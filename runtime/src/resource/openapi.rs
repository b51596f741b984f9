//! Resources rendered as an OpenAPI 3.1 document, from the very tools the catalog
//! serves: same names (`operationId`), descriptions and schemas. One source, two
//! consumers.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::{Record, tools};
use crate::catalog::Tool;
use crate::descriptor::{Method, ParamLocation};

/// Builds an OpenAPI 3.1 document from resource types.
#[derive(Debug, Clone)]
pub struct OpenApi {
    title: String,
    version: String,
    description: Option<String>,
    tools: Vec<Tool>,
}

impl OpenApi {
    pub fn new(title: impl Into<String>, version: impl Into<String>) -> Self {
        OpenApi {
            title: title.into(),
            version: version.into(),
            description: None,
            tools: Vec::new(),
        }
    }

    pub fn description(mut self, text: impl Into<String>) -> Self {
        self.description = Some(text.into());
        self
    }

    /// Adds every verb `R` declares.
    pub fn resource<R: Record>(mut self) -> Self {
        self.tools.extend(tools::<R>());
        self
    }

    /// The document as JSON.
    pub fn render(&self) -> Value {
        let mut components = Components::default();
        let mut paths: BTreeMap<String, Map<String, Value>> = BTreeMap::new();
        for tool in &self.tools {
            let op = &tool.operation;
            let input: Value =
                serde_json::from_str(&tool.input_schema).unwrap_or(Value::Bool(true));
            let output: Value = tool
                .output_schema
                .as_deref()
                .and_then(|s| serde_json::from_str(s).ok())
                .unwrap_or(Value::Bool(true));
            let mut input = components.adopt(input, "Input");
            let output = components.adopt(output, "Output");
            let mut operation = Map::new();
            operation.insert("operationId".into(), json!(tool.name));
            operation.insert("summary".into(), json!(tool.title));
            operation.insert("description".into(), json!(tool.description));
            let mut parameters = Vec::new();
            for param in op
                .params
                .iter()
                .filter(|p| p.location == ParamLocation::Path)
            {
                let schema = input
                    .get_mut("properties")
                    .and_then(Value::as_object_mut)
                    .and_then(|props| props.remove(param.field.as_ref()))
                    .unwrap_or(Value::Bool(true));
                if let Some(Value::Array(required)) = input.get_mut("required") {
                    required.retain(|r| r != param.field.as_ref());
                }
                let mut entry = json!({ "name": param.wire_name, "in": "path", "required": true, "schema": schema });
                if let Some(d) = entry["schema"].get("description").cloned() {
                    entry["description"] = d;
                }
                parameters.push(entry);
            }
            if !parameters.is_empty() {
                operation.insert("parameters".into(), Value::Array(parameters));
            }
            let has_body = !matches!(op.method, Method::Get | Method::Delete);
            if has_body {
                operation.insert(
                    "requestBody".into(),
                    json!({ "required": true, "content": { "application/json": { "schema": input } } }),
                );
            }
            operation.insert(
                "responses".into(),
                json!({
                    "200": { "description": "Success.", "content": { "application/json": { "schema": output } } },
                    "default": { "description": "The call failed.", "content": { "application/json": {
                        "schema": { "$ref": "#/components/schemas/Error" } } } },
                }),
            );
            let method = op.method.as_str().to_ascii_lowercase();
            paths
                .entry(op.path.to_string())
                .or_default()
                .insert(method, Value::Object(operation));
        }
        components.schemas.insert(
            "Error".into(),
            json!({
                "type": "object",
                "description": "Why a call failed.",
                "properties": { "message": { "type": "string", "description": "What went wrong." } },
                "required": ["message"],
            }),
        );
        let mut info = json!({ "title": self.title, "version": self.version });
        if let Some(d) = &self.description {
            info["description"] = json!(d);
        }
        json!({
            "openapi": "3.1.0",
            "info": info,
            "paths": paths,
            "components": { "schemas": components.schemas },
        })
    }
}

/// Shared schemas, moved from each tool schema's `$defs` to `components/schemas`. A
/// name whose input and output forms differ gets a suffix for the second one.
#[derive(Default)]
struct Components {
    schemas: Map<String, Value>,
}

impl Components {
    fn adopt(&mut self, mut schema: Value, suffix: &str) -> Value {
        let defs = match schema.as_object_mut().and_then(|m| m.remove("$defs")) {
            Some(Value::Object(defs)) => defs,
            _ => Map::new(),
        };
        let mut renames: BTreeMap<String, String> = BTreeMap::new();
        for (name, def) in &defs {
            let mut key = name.clone();
            let mut n = 1;
            while self
                .schemas
                .get(&key)
                .is_some_and(|existing| existing != &retarget(def.clone(), &BTreeMap::new()))
            {
                n += 1;
                key = if n == 2 {
                    format!("{name}{suffix}")
                } else {
                    format!("{name}{suffix}{n}")
                };
            }
            renames.insert(name.clone(), key);
        }
        for (name, def) in defs {
            let key = renames[&name].clone();
            let def = retarget(def, &renames);
            self.schemas.entry(key).or_insert(def);
        }
        retarget(schema, &renames)
    }
}

/// Rewrites `#/$defs/X` references to `#/components/schemas/<renamed X>`.
fn retarget(value: Value, renames: &BTreeMap<String, String>) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| {
                    match (
                        k.as_str(),
                        v.as_str().and_then(|r| r.strip_prefix("#/$defs/")),
                    ) {
                        ("$ref", Some(name)) => {
                            let target = renames.get(name).map_or(name, String::as_str);
                            (k, json!(format!("#/components/schemas/{target}")))
                        }
                        _ => (k, retarget(v, renames)),
                    }
                })
                .collect(),
        ),
        Value::Array(items) => {
            Value::Array(items.into_iter().map(|v| retarget(v, renames)).collect())
        }
        other => other,
    }
}
