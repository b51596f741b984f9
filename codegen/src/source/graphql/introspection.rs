//! An introspection result (`{"__schema": ...}` or `{"data": {"__schema": ...}}`, the
//! answer to the standard introspection query) into the [`model`](super::model). Each
//! definition keeps its JSON pointer, located only when a finding needs it.

use std::sync::Arc;

use serde_json::{Value, json};

use super::model::{
    DEFAULT_DEPRECATION, EnumValue, Field, InputValue, Kind, Place, Schema, TypeDef, TypeRef,
};
use crate::diagnostics::{Diagnostic, Diagnostics, Location, SourceFile, codes};

/// The `__schema` object and its pointer, wherever the file keeps it.
pub fn schema_of(root: &Value) -> Option<(&Value, &'static str)> {
    if let Some(s) = root.get("__schema") {
        return Some((s, "/__schema"));
    }
    root.pointer("/data/__schema")
        .map(|s| (s, "/data/__schema"))
}

/// Reads an introspection result; what does not read is reported and skipped.
pub fn read(file: &Arc<SourceFile>, root: &Value, diagnostics: &mut Diagnostics) -> Schema {
    let mut schema = Schema::default();
    let Some((s, base)) = schema_of(root) else {
        return schema;
    };
    let root_name = |key: &str| {
        s.get(key)
            .and_then(|t| t.get("name"))
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    schema.description = s.get("description").and_then(text);
    schema.query = root_name("queryType");
    schema.mutation = root_name("mutationType");
    schema.subscription = root_name("subscriptionType");
    schema.directives = s
        .get("directives")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|d| {
            json!({
                "name": d.get("name"),
                "description": d.get("description").and_then(text),
                "args": d.get("args").and_then(Value::as_array).into_iter().flatten()
                    .map(|a| json!({"name": a.get("name"), "type": a.get("type").and_then(type_ref).map(|t| t.to_string()), "description": a.get("description").and_then(text)}))
                    .collect::<Vec<_>>(),
                "locations": d.get("locations"),
                "repeatable": d.get("isRepeatable").and_then(Value::as_bool).unwrap_or(false),
            })
        })
        .collect();
    let types = s.get("types").and_then(Value::as_array);
    if types.is_none() {
        diagnostics.push(
            Diagnostic::error(
                codes::GRAPHQL_SCHEMA,
                "`__schema.types` is not a list of types",
            )
            .at(Location {
                file: Arc::clone(file),
                span: Place::Pointer(format!("{base}/types")).span(&file.text),
            })
            .help("give the introspection query's whole answer (`__schema { types { ... } }`)"),
        );
    }
    for (i, t) in types.into_iter().flatten().enumerate() {
        let at = format!("{base}/types/{i}");
        let name = t.get("name").and_then(Value::as_str);
        let kind = t.get("kind").and_then(Value::as_str).and_then(kind);
        let (Some(name), Some(kind)) = (name, kind) else {
            diagnostics.push(
                Diagnostic::warning(
                    codes::GRAPHQL_SCHEMA,
                    "a type without a `name` or with an unknown `kind`; skipped",
                )
                .at(Location {
                    file: Arc::clone(file),
                    span: Place::Pointer(at).span(&file.text),
                })
                .help("each type of `__schema.types` has a `name` and a `kind` (OBJECT, INTERFACE, UNION, ENUM, INPUT_OBJECT, SCALAR)"),
            );
            continue;
        };
        let mut def = TypeDef::new(name.to_owned(), kind, Place::Pointer(at.clone()));
        def.description = t.get("description").and_then(text);
        let (fields, bad_fields) = read_list(t, &at, "fields", field);
        let (inputs, bad_inputs) = read_list(t, &at, "inputFields", input_value);
        def.fields = fields;
        def.inputs = inputs;
        let unread = bad_fields
            .into_iter()
            .map(|p| (p, "field"))
            .chain(bad_inputs.into_iter().map(|p| (p, "input field")));
        for (pointer, what) in unread {
            diagnostics.push(
                Diagnostic::warning(
                    codes::GRAPHQL_SCHEMA,
                    format!("a {what} of `{name}` cannot be read; skipped"),
                )
                .at(Location {
                    file: Arc::clone(file),
                    span: Place::Pointer(pointer).span(&file.text),
                })
                .help("each needs a `name` and a `type` (`{kind, name}`, or `{kind: LIST|NON_NULL, ofType}` nested at most 32 deep)"),
            );
        }
        // A default written as a literal that does not parse is left out, and said.
        let unparsed = def
            .fields
            .iter()
            .flat_map(|f| &f.args)
            .chain(&def.inputs)
            .filter(|v| v.default.is_none());
        for v in unparsed {
            let Place::Pointer(pointer) = &v.at else {
                continue;
            };
            let written = root
                .pointer(pointer)
                .and_then(|raw| raw.get("defaultValue"))
                .and_then(Value::as_str);
            if let Some(written) = written {
                diagnostics.push(
                    Diagnostic::warning(
                        codes::GRAPHQL_SCHEMA,
                        format!(
                            "the default of `{}` (`{written}`) is not a GraphQL value; left out",
                            v.name
                        ),
                    )
                    .at(Location {
                        file: Arc::clone(file),
                        span: Place::Pointer(format!("{pointer}/defaultValue")).span(&file.text),
                    })
                    .help("write it as GraphQL writes values: `10`, `\"text\"`, `[OPEN]`, `{field: 1}`"),
                );
            }
        }
        def.values = list(t, "enumValues")
            .filter_map(|(_, v)| {
                Some(EnumValue {
                    name: v.get("name")?.as_str()?.to_owned(),
                    description: v.get("description").and_then(text),
                    deprecated: deprecation(v),
                })
            })
            .collect();
        def.possible = names(t, "possibleTypes");
        def.interfaces = names(t, "interfaces");
        schema.types.insert(def.name.clone(), def);
    }
    schema
}

fn text(v: &Value) -> Option<String> {
    v.as_str()
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
}

fn kind(k: &str) -> Option<Kind> {
    Some(match k {
        "SCALAR" => Kind::Scalar,
        "OBJECT" => Kind::Object,
        "INTERFACE" => Kind::Interface,
        "UNION" => Kind::Union,
        "ENUM" => Kind::Enum,
        "INPUT_OBJECT" => Kind::InputObject,
        _ => return None,
    })
}

fn list<'v>(t: &'v Value, key: &str) -> impl Iterator<Item = (usize, &'v Value)> {
    t.get(key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
}

/// The items of `t`'s list `key` that `read` reads, and the pointers of those it
/// cannot.
fn read_list<T>(
    t: &Value,
    at: &str,
    key: &str,
    read: impl Fn(&Value, String) -> Option<T>,
) -> (Vec<T>, Vec<String>) {
    let mut unread = Vec::new();
    let items = list(t, key)
        .filter_map(|(j, item)| {
            let pointer = format!("{at}/{key}/{j}");
            let got = read(item, pointer.clone());
            if got.is_none() {
                unread.push(pointer);
            }
            got
        })
        .collect();
    (items, unread)
}

fn names(t: &Value, key: &str) -> Vec<String> {
    list(t, key)
        .filter_map(|(_, n)| n.get("name").and_then(Value::as_str).map(str::to_owned))
        .collect()
}

/// `{kind: NON_NULL, ofType: {kind: LIST, ofType: {kind: OBJECT, name: X}}}` → `[X]!`.
fn type_ref(t: &Value) -> Option<TypeRef> {
    // Deep enough for any real schema; a hostile chain ends here.
    fn walk(t: &Value, depth: usize) -> Option<TypeRef> {
        if depth > 32 {
            return None;
        }
        match t.get("kind")?.as_str()? {
            "NON_NULL" => Some(TypeRef::NonNull(Box::new(walk(
                t.get("ofType")?,
                depth + 1,
            )?))),
            "LIST" => Some(TypeRef::List(Box::new(walk(t.get("ofType")?, depth + 1)?))),
            _ => Some(TypeRef::Named(t.get("name")?.as_str()?.to_owned())),
        }
    }
    walk(t, 0)
}

fn deprecation(v: &Value) -> Option<String> {
    if v.get("isDeprecated").and_then(Value::as_bool) != Some(true) {
        return None;
    }
    Some(
        v.get("deprecationReason")
            .and_then(text)
            .unwrap_or_else(|| DEFAULT_DEPRECATION.to_owned()),
    )
}

fn field(f: &Value, at: String) -> Option<Field> {
    Some(Field {
        name: f.get("name")?.as_str()?.to_owned(),
        description: f.get("description").and_then(text),
        args: list(f, "args")
            .filter_map(|(k, a)| input_value(a, format!("{at}/args/{k}")))
            .collect(),
        ty: type_ref(f.get("type")?)?,
        deprecated: deprecation(f),
        directives: Vec::new(),
        at: Place::Pointer(at),
    })
}

fn input_value(v: &Value, at: String) -> Option<InputValue> {
    Some(InputValue {
        name: v.get("name")?.as_str()?.to_owned(),
        description: v.get("description").and_then(text),
        ty: type_ref(v.get("type")?)?,
        // Introspection writes defaults as GraphQL literals (`10`, `[OPEN]`).
        default: v
            .get("defaultValue")
            .and_then(Value::as_str)
            .and_then(super::sdl::literal),
        deprecated: deprecation(v),
        at: Place::Pointer(at),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_standard_introspection_shape() {
        let root = json!({"data": {"__schema": {
            "queryType": {"name": "Query"}, "mutationType": null,
            "types": [
                {"kind": "OBJECT", "name": "Query", "fields": [
                    {"name": "viewer", "args": [{"name": "first", "type": {"kind": "SCALAR", "name": "Int"}, "defaultValue": "30"}],
                     "type": {"kind": "NON_NULL", "ofType": {"kind": "OBJECT", "name": "User"}}, "isDeprecated": true, "deprecationReason": null}
                ]},
                {"kind": "WHAT", "name": "X"}
            ]
        }}});
        let file = SourceFile::new("s.json", root.to_string());
        let mut d = Diagnostics::default();
        let s = read(&file, &root, &mut d);
        assert_eq!(s.query.as_deref(), Some("Query"));
        assert_eq!(s.mutation, None);
        let viewer = s.types["Query"].field("viewer").unwrap();
        assert_eq!(viewer.ty.to_string(), "User!");
        assert_eq!(viewer.args[0].default, Some(json!(30)));
        assert_eq!(viewer.deprecated.as_deref(), Some(DEFAULT_DEPRECATION));
        assert_eq!(d.iter().count(), 1, "the unknown kind is reported");
    }
}
