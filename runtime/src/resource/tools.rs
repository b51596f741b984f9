//! A resource's verb tools: names, LLM-grade descriptions, per-verb input and output
//! schemas, conservative annotations, and a REST-shaped descriptor (the same shape the
//! OpenAPI rendering of the resource uses).

use std::borrow::Cow;

use serde_json::{Map, Value, json};

use super::{Record, Verb, query};
use crate::catalog::{Annotations, Tool};
use crate::descriptor::{Method, Operation, Param, ParamLocation, ParamStyle, ValueKind};
use crate::schema::{Direction, SchemaGenerator};

/// The API name of tools served by the service itself.
pub const LOCAL_API: &str = "local";

/// The tools of every verb `R` declares.
pub fn tools<R: Record>() -> Vec<Tool> {
    verb_tools::<R>()
        .into_iter()
        .map(|(_, tool)| tool)
        .collect()
}

/// Each declared verb with its tool.
pub(crate) fn verb_tools<R: Record>() -> Vec<(Verb, Tool)> {
    let schemas = Schemas::of::<R>();
    R::SPEC
        .verbs
        .iter()
        .map(|spec| {
            let verb = spec.verb;
            let (input, output) = schemas.for_verb::<R>(verb);
            let annotations = annotations(verb, spec.idempotent);
            let name = format!("{}_{}", verb.as_str(), R::SPEC.name);
            let tool = Tool {
                title: Cow::Owned(title(verb, R::SPEC.name)),
                description: Cow::Owned(description::<R>(verb)),
                input_schema: Cow::Owned(input.to_string()),
                output_schema: Some(Cow::Owned(output.to_string())),
                annotations,
                meta: Some(Cow::Owned(
                    json!({ "toolwright": { "resource": R::SPEC.name, "verb": verb.as_str() } })
                        .to_string(),
                )),
                operation: Cow::Owned(operation::<R>(&name, verb)),
                contract: Some(Cow::Owned(contract::<R>(verb, &input, &output).to_string())),
                name: Cow::Owned(name),
            };
            (verb, tool)
        })
        .collect()
}

/// The tool's IO contract, in the shape codegen gives generated tools: the inputs
/// (the key identifies the record: `milestone.slug`) and the record's fields produced
/// (`/records/*/…` for search).
fn contract<R: Record>(verb: Verb, input: &Value, output: &Value) -> Value {
    let spec = R::SPEC;
    let noun = spec.name.to_ascii_lowercase();
    let key = spec.key.unwrap_or("id");
    let required: Vec<&str> = input
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let kind_of = |schema: &Value| {
        schema
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("any")
            .to_owned()
    };
    let mut consumes = Vec::new();
    for (name, schema) in input
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let mut row = json!({
            "name": name,
            "path": format!("/{name}"),
            "location": "body",
            "required": required.contains(&name.as_str()),
            "kind": "data",
            "field_type": kind_of(schema),
        });
        if let Some(values) = schema.get("enum") {
            row["enum"] = values.clone();
        }
        if name == key && verb != Verb::Create {
            row["semantic_tag"] = json!("identifier");
            row["identifies"] = json!(format!("{noun}.{key}"));
        }
        consumes.push(row);
    }
    let (record, prefix) = match verb {
        Verb::Search => (output.pointer("/properties/records/items"), "/records/*"),
        _ => (Some(output), ""),
    };
    let mut produces = Vec::new();
    for (name, schema) in record
        .and_then(|r| r.get("properties"))
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let mut row = json!({
            "name": name,
            "path": format!("{prefix}/{name}"),
            "field_type": kind_of(schema),
            "resource": noun,
        });
        if name == key {
            row["semantic_tag"] = json!("identifier");
            row["identifies"] = json!(format!("{noun}.{key}"));
        }
        produces.push(row);
    }
    json!({"consumes": consumes, "produces": produces, "links": []})
}

/// The record's schemas, computed once per registration.
struct Schemas {
    output: Value,
}

impl Schemas {
    fn of<R: Record>() -> Schemas {
        Schemas {
            output: record_output::<R>(),
        }
    }

    fn key_property(&self, key: &str) -> Value {
        self.output
            .get("properties")
            .and_then(|p| p.get(key))
            .cloned()
            .unwrap_or(Value::Bool(true))
    }

    /// `(inputSchema, outputSchema)` of one verb.
    fn for_verb<R: Record>(&self, verb: Verb) -> (Value, Value) {
        let spec = R::SPEC;
        let key = spec.key.unwrap_or("id");
        let key_only = || {
            json!({
                "type": "object",
                "properties": { key: self.key_property(key) },
                "required": [key],
                "additionalProperties": false,
            })
        };
        let draft = || SchemaGenerator::root::<R::Draft>(Direction::Input);
        match verb {
            Verb::Get => (key_only(), self.output.clone()),
            Verb::Search => {
                let properties = self
                    .output
                    .get("properties")
                    .and_then(Value::as_object)
                    .cloned()
                    .unwrap_or_default();
                let input = query::schema(&properties, spec.name);
                let (record, defs) = split_definitions(self.output.clone());
                let output = with_definitions(
                    json!({
                        "type": "object",
                        "properties": { "records": {
                            "description": format!("The matching {} records.", spec.name),
                            "type": "array",
                            "items": record,
                        }},
                        "required": ["records"],
                    }),
                    defs,
                );
                (input, output)
            }
            Verb::Create => (draft(), self.output.clone()),
            Verb::Update if spec.key_in_draft => (draft(), self.output.clone()),
            Verb::Update => (
                with_key(draft(), key, self.key_property(key)),
                self.output.clone(),
            ),
            Verb::Patch => {
                let patch = SchemaGenerator::root::<R::Patch>(Direction::Input);
                (
                    with_key(patch, key, self.key_property(key)),
                    self.output.clone(),
                )
            }
            Verb::Delete => (
                key_only(),
                json!({
                    "type": "object",
                    "properties": {
                        "deleted": { "const": true },
                        key: self.key_property(key),
                    },
                    "required": ["deleted", key],
                }),
            ),
        }
    }
}

/// The record as returned: `required` = non-`Option` fields ∪ key ∪ server-assigned,
/// write-only fields removed.
fn record_output<R: Record>() -> Value {
    let mut schema = SchemaGenerator::root::<R>(Direction::Output);
    let spec = R::SPEC;
    if let Value::Object(map) = &mut schema {
        if let Some(Value::Object(props)) = map.get_mut("properties") {
            for name in spec.write_only {
                props.remove(*name);
            }
        }
        let mut required: Vec<Value> = match map.remove("required") {
            Some(Value::Array(r)) => r,
            _ => Vec::new(),
        };
        required.retain(|r| !spec.write_only.iter().any(|w| r == w));
        for name in spec.key.iter().chain(spec.server_assigned) {
            if !required.iter().any(|r| r == name) {
                required.push(json!(name));
            }
        }
        map.insert("required".into(), Value::Array(required));
    }
    schema
}

/// Adds the required key property to an object schema.
fn with_key(mut schema: Value, key: &str, key_schema: Value) -> Value {
    if let Value::Object(map) = &mut schema {
        let props = map
            .entry("properties")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(props) = props {
            let mut ordered = Map::new();
            ordered.insert(key.to_owned(), key_schema);
            ordered.extend(std::mem::take(props));
            *props = ordered;
        }
        let required = map.entry("required").or_insert_with(|| json!([]));
        if let Value::Array(required) = required {
            required.insert(0, json!(key));
        }
    }
    schema
}

fn split_definitions(mut schema: Value) -> (Value, Option<Value>) {
    let defs = schema.as_object_mut().and_then(|m| m.remove("$defs"));
    (schema, defs)
}

fn with_definitions(mut schema: Value, defs: Option<Value>) -> Value {
    if let (Some(defs), Value::Object(map)) = (defs, &mut schema) {
        map.insert("$defs".into(), defs);
    }
    schema
}

fn title(verb: Verb, name: &str) -> String {
    match verb {
        Verb::Get => format!("Get {name}"),
        Verb::Search => format!("Search {name} records"),
        Verb::Create => format!("Create {name}"),
        Verb::Update => format!("Replace {name}"),
        Verb::Patch => format!("Update {name} fields"),
        Verb::Delete => format!("Delete {name}"),
    }
}

/// What the verb does, a blank line, then the type's description: the first sentence
/// is what a model and the search index read as the tool's summary, and the type's
/// sentence is the same for every verb of a resource.
fn description<R: Record>(verb: Verb) -> String {
    let spec = R::SPEC;
    let name = spec.name;
    let key = spec.key.unwrap_or("id");
    let mut sentence = match verb {
        Verb::Get => format!("Fetches a single {name} record by {key}."),
        Verb::Search => format!(
            "Searches {name} records by conditions on their properties and returns the matching records."
        ),
        Verb::Create => format!("Creates a {name} record and returns it."),
        Verb::Update => format!(
            "Replaces every field of the {name} record identified by {key} and returns the result."
        ),
        Verb::Patch => format!(
            "Changes only the given fields of the {name} record identified by {key} and returns the result."
        ),
        Verb::Delete => format!("Deletes the {name} record identified by {key}."),
    };
    let assigned: Vec<&str> = spec
        .server_assigned
        .iter()
        .copied()
        .filter(|f| Some(*f) != spec.key || !spec.key_in_draft)
        .collect();
    if matches!(verb, Verb::Create | Verb::Update) && !assigned.is_empty() {
        sentence.push_str(&format!(
            " The server sets {}; leave them out.",
            assigned.join(", ")
        ));
    }
    match spec.description {
        Some(doc) if !doc.trim().is_empty() => format!("{sentence}\n\n{doc}"),
        _ => sentence,
    }
}

/// Conservative hints: reads are read-only and idempotent; create only adds; update,
/// patch and delete overwrite or remove (destructive); only update (PUT semantics) is
/// idempotent unless a verb is declared so. Local tools do not reach an open world.
fn annotations(verb: Verb, declared_idempotent: bool) -> Annotations {
    let read_only = matches!(verb, Verb::Get | Verb::Search);
    Annotations {
        read_only,
        destructive: matches!(verb, Verb::Update | Verb::Patch | Verb::Delete),
        idempotent: read_only || matches!(verb, Verb::Update | Verb::Delete) || declared_idempotent,
        open_world: false,
    }
}

/// `/products`, `/products/{sku}`: the REST shape of a verb.
fn operation<R: Record>(name: &str, verb: Verb) -> Operation {
    let spec = R::SPEC;
    let collection = format!("/{}", plural(&snake(spec.name)));
    let key = spec.key.unwrap_or("id");
    let item = format!("{collection}/{{{key}}}");
    let (method, path) = match verb {
        Verb::Get => (Method::Get, item),
        Verb::Search => (Method::Post, format!("{collection}/search")),
        Verb::Create => (Method::Post, collection),
        Verb::Update => (Method::Put, item),
        Verb::Patch => (Method::Patch, item),
        Verb::Delete => (Method::Delete, item),
    };
    let params = if verb.needs_key() {
        vec![Param {
            field: Cow::Owned(key.to_owned()),
            wire_name: Cow::Owned(key.to_owned()),
            location: ParamLocation::Path,
            required: true,
            kind: ValueKind::String,
            style: ParamStyle::Simple,
            explode: false,
            allow_reserved: false,
            content_type: None,
        }]
    } else {
        Vec::new()
    };
    Operation::local(name, LOCAL_API, method, path, params)
}

fn snake(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            out.push('_');
        }
        out.extend(c.to_lowercase());
    }
    out
}

fn plural(word: &str) -> String {
    if let Some(stem) = word
        .strip_suffix('y')
        .filter(|s| !s.ends_with(['a', 'e', 'o', 'u']))
    {
        format!("{stem}ies")
    } else if word.ends_with('s')
        || word.ends_with("sh")
        || word.ends_with("ch")
        || word.ends_with('x')
    {
        format!("{word}es")
    } else {
        format!("{word}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rest_paths() {
        assert_eq!(plural(&snake("OrderLine")), "order_lines");
        assert_eq!(plural("category"), "categories");
        assert_eq!(plural("box"), "boxes");
    }
}
