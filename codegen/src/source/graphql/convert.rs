//! A GraphQL schema rewritten as the OpenAPI 3.1 document that says the same thing to
//! the reader: one `POST` operation per query and mutation field, whose JSON body
//! holds the field's arguments (and `selection`), whose response is the field's value
//! as the default selection returns it; input objects, enums and custom scalars are
//! shared schemas. The GraphQL document each operation sends is kept beside it
//! ([`ir::GraphqlCall`]), and so is a compact table of the schema's output types, against which
//! the runtime checks a `selection` argument.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::{Map, Value, json};

use super::model::{InputValue, Kind, Place, Schema, TypeDef, TypeRef};
use super::scalars;
use super::shape::{Shapes, described_as};
use crate::ir;
use crate::source::openapi::escape;

/// What conversion gives the reader, and what it keeps for after.
#[derive(Debug)]
pub struct Converted {
    pub doc: Value,
    /// (pointer into `doc`, where it came from), for locating findings.
    pub places: Vec<(String, Place)>,
    /// Each tool's GraphQL call, by tool name.
    pub calls: BTreeMap<String, ir::GraphqlCall>,
    /// Each tool's field, by tool name (for its source location).
    pub fields: BTreeMap<String, Place>,
}

/// The argument that extends a tool's default selection, unless the field has an
/// argument of that name (then [`SELECTION_FALLBACK`]).
pub const SELECTION: &str = "selection";
pub const SELECTION_FALLBACK: &str = "graphql_selection";

/// Converts `schema`; `scalars` maps custom scalar names to the schemas the user chose.
pub fn convert(schema: &Schema, scalar_overrides: &BTreeMap<String, Value>) -> Converted {
    let mut places = Vec::new();
    let mut calls = BTreeMap::new();
    let mut fields = BTreeMap::new();
    let mut paths = Map::new();
    let mut shapes = Shapes::default();
    let roots = [
        ("query", schema.query.as_deref()),
        ("mutation", schema.mutation.as_deref()),
    ];
    for (operation, root) in roots {
        let Some(root) = root.and_then(|r| schema.types.get(r)) else {
            continue;
        };
        for field in &root.fields {
            if field.name.starts_with("__") {
                continue;
            }
            let tool = format!("{operation}_{}", field.name);
            let path = format!("/#{tool}");
            let pointer = format!("/paths/{}/post", escape(&path));
            places.push((pointer.clone(), field.at.clone()));
            fields.insert(tool.clone(), field.at.clone());
            let (selection, output) = shapes.of(schema, &field.ty);
            let extra = selection.as_ref().map(|_| {
                if field.args.iter().any(|a| a.name == SELECTION) {
                    SELECTION_FALLBACK
                } else {
                    SELECTION
                }
            });
            let mut properties = Map::new();
            let mut required = Vec::new();
            let body = format!("{pointer}/requestBody/content/application~1json/schema");
            for arg in &field.args {
                places.push((
                    format!("{body}/properties/{}", escape(&arg.name)),
                    arg.at.clone(),
                ));
                properties.insert(arg.name.clone(), input(schema, arg));
                if arg.is_required() {
                    required.push(arg.name.clone());
                }
            }
            if let Some(extra) = extra {
                properties.insert(
                    extra.to_owned(),
                    json!({
                        "type": "string",
                        "description": format!(
                            "More fields of `{}` to select, in GraphQL syntax, along with the default ones (e.g. `{}`); checked against the schema before the call.",
                            field.ty.named(),
                            example(schema, field.ty.named())
                        ),
                    }),
                );
            }
            let mut op = json!({
                "operationId": tool,
                "description": description(field.description.as_deref(), field.deprecated.as_deref(), operation, &field.name),
                "responses": {"200": {
                    "description": format!("The value of `{}`", field.name),
                    "content": {"application/json": {"schema": output}},
                }},
            });
            if !properties.is_empty() {
                let mut body_schema = json!({"type": "object", "properties": properties});
                if !required.is_empty() {
                    body_schema["required"] = json!(required);
                }
                op["requestBody"] = json!({
                    "required": !required.is_empty(),
                    "content": {"application/json": {"schema": body_schema}},
                });
            }
            if field.deprecated.is_some() {
                op["deprecated"] = json!(true);
            }
            if let Some(pages) = pagination(schema, field) {
                op["x-pagination"] = pages;
            }
            if operation == "query" {
                // Queries read (the spec allows no side effects); a mutation says
                // nothing about itself, so nothing is derived for it.
                op["x-read-only-hint"] = json!(true);
                op["x-idempotent-hint"] = json!(true);
            }
            let mut native =
                json!({"operation": operation, "field": field.name, "type": field.ty.to_string()});
            if !field.directives.is_empty() {
                native["directives"] = json!(field.directives);
            }
            op["x-graphql"] = native;
            paths.insert(path, crate::source::object([("post", op)]));
            calls.insert(
                tool.clone(),
                ir::GraphqlCall {
                    head: head(operation, &tool, field),
                    field: field.name.clone(),
                    selection: selection.clone().unwrap_or_default(),
                    returns: selection
                        .as_ref()
                        .map(|_| field.ty.named().to_owned())
                        .unwrap_or_default(),
                    selection_argument: extra.unwrap_or_default().to_owned(),
                },
            );
        }
    }
    let mut components = shapes.definitions;
    for t in schema.types.values() {
        let at = format!("/components/schemas/{}", escape(&t.name));
        match t.kind {
            Kind::InputObject => {
                places.push((at, t.at.clone()));
                components.insert(t.name.clone(), input_object(schema, t));
            }
            Kind::Enum => {
                places.push((at, t.at.clone()));
                components.insert(t.name.clone(), enumeration(t));
            }
            Kind::Scalar if !scalars::is_built_in(&t.name) => {
                places.push((at, t.at.clone()));
                let mut s = scalar_overrides
                    .get(&t.name)
                    .cloned()
                    .unwrap_or_else(|| scalars::custom(&t.name));
                if let Some(d) = &t.description
                    && s.get("description").is_none()
                {
                    s = described_as(s, d);
                }
                components.insert(t.name.clone(), s);
            }
            _ => {}
        }
    }
    let mut graphql = json!({
        "types": schema.types.len(),
        "directives": schema.directives,
    });
    if let Some(sub) = schema
        .subscription
        .as_ref()
        .and_then(|s| schema.types.get(s))
    {
        // Subscriptions need a streaming transport; recorded, not made tools.
        graphql["subscriptions"] = json!(
            sub.fields
                .iter()
                .map(|f| json!({"name": f.name, "type": f.ty.to_string(), "description": f.description}))
                .collect::<Vec<_>>()
        );
    }
    let applied: Map<String, Value> = schema
        .types
        .values()
        .filter(|t| !t.directives.is_empty())
        .map(|t| (t.name.clone(), json!(t.directives)))
        .collect();
    if !applied.is_empty() {
        graphql["typeDirectives"] = Value::Object(applied);
    }
    let doc = json!({
        "openapi": "3.1.0",
        "info": {
            "title": "GraphQL API",
            "version": "graphql",
            "description": schema.description,
        },
        // Replaced by the reader's caller: the endpoint is not in the schema.
        "servers": [{"url": "https://graphql.invalid"}],
        "paths": paths,
        "components": {
            "schemas": components,
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer", "description": "A bearer token, when the endpoint asks for one"}},
        },
        // A token when one is set, anonymous otherwise: the schema does not say which
        // the endpoint needs.
        "security": [{"bearer": []}, {}],
        "x-graphql": graphql,
    });
    Converted {
        doc,
        places,
        calls,
        fields,
    }
}

/// A root field that returns a connection and takes `after`: cursor pages, the next
/// cursor `pageInfo.endCursor` while `pageInfo.hasNextPage`, the items `nodes` (or
/// `edges`), the page size `first`.
fn pagination(schema: &Schema, field: &super::model::Field) -> Option<Value> {
    if field.ty.is_list() {
        return None;
    }
    let connection = schema.types.get(field.ty.named())?;
    let info = schema.types.get(connection.field("pageInfo")?.ty.named())?;
    info.field("endCursor")?;
    info.field("hasNextPage")?;
    field.args.iter().find(|a| a.name == "after")?;
    let items = if connection.field("nodes").is_some() {
        "nodes"
    } else {
        connection.field("edges")?;
        "edges"
    };
    let mut pages = json!({
        "style": "cursor",
        "cursor_param": "after",
        "next_cursor": "pageInfo.endCursor",
        "has_more": "pageInfo.hasNextPage",
        "items": items,
    });
    if field.args.iter().any(|a| a.name == "first") {
        pages["limit_param"] = json!("first");
    }
    Some(pages)
}

/// `query query_repository($owner: String!, $name: String!) { repository(owner: $owner,
/// name: $name)`: the document up to the field's selection set.
fn head(operation: &str, tool: &str, field: &super::model::Field) -> String {
    let mut out = format!("{operation} {tool}");
    if !field.args.is_empty() {
        let variables: Vec<String> = field
            .args
            .iter()
            .map(|a| {
                // An argument with a default takes a nullable variable: left out, the
                // default applies (a non-null variable would have to be given).
                let ty = match (&a.ty, &a.default) {
                    (TypeRef::NonNull(inner), Some(_)) => inner.to_string(),
                    (ty, _) => ty.to_string(),
                };
                format!("${}: {ty}", a.name)
            })
            .collect();
        let _ = write!(out, "({})", variables.join(", "));
    }
    let _ = write!(out, " {{ {}", field.name);
    if !field.args.is_empty() {
        let passed: Vec<String> = field
            .args
            .iter()
            .map(|a| format!("{}: ${}", a.name, a.name))
            .collect();
        let _ = write!(out, "({})", passed.join(", "));
    }
    out
}

fn description(
    text: Option<&str>,
    deprecated: Option<&str>,
    operation: &str,
    field: &str,
) -> String {
    let mut out = text.unwrap_or("").to_owned();
    if out.is_empty() {
        out = format!("GraphQL {operation} `{field}`.");
    }
    if let Some(reason) = deprecated {
        let _ = write!(out, "\n\nDeprecation: {reason}");
    }
    out
}

/// A field to show in the `selection` argument's description: the first one the
/// default leaves out (a connection, or one that takes arguments), else the first.
fn example(schema: &Schema, named: &str) -> String {
    let Some(t) = schema.types.get(named) else {
        return "__typename".into();
    };
    let pick = t
        .fields
        .iter()
        .find(|f| f.deprecated.is_none() && !f.args.is_empty())
        .or(t.fields.first());
    match pick {
        Some(f) => {
            let args: Vec<String> = f
                .args
                .iter()
                .filter(|a| a.is_required() || a.name == "first")
                .map(|a| format!("{}: {}", a.name, sample(schema, &a.ty)))
                .collect();
            let args = if args.is_empty() {
                String::new()
            } else {
                format!("({})", args.join(", "))
            };
            let inner = match schema.types.get(f.ty.named()) {
                Some(u) if u.kind.is_composite() => {
                    let leaf = u
                        .fields
                        .iter()
                        .find(|g| {
                            schema
                                .types
                                .get(g.ty.named())
                                .is_none_or(|v| v.kind.is_leaf())
                        })
                        .map_or("__typename", |g| g.name.as_str());
                    if u.field("nodes").is_some() {
                        " { nodes { __typename } }".to_owned()
                    } else {
                        format!(" {{ {leaf} }}")
                    }
                }
                _ => String::new(),
            };
            format!("{}{args}{inner}", f.name)
        }
        None => "__typename".into(),
    }
}

fn sample(schema: &Schema, ty: &TypeRef) -> String {
    match ty {
        TypeRef::NonNull(t) => sample(schema, t),
        TypeRef::List(t) => format!("[{}]", sample(schema, t)),
        TypeRef::Named(n) => match n.as_str() {
            "Int" => "10".into(),
            "Float" => "1.5".into(),
            "Boolean" => "true".into(),
            _ => match schema.types.get(n) {
                Some(t) if t.kind == Kind::Enum => t
                    .values
                    .first()
                    .map_or_else(|| "\"\"".into(), |v| v.name.clone()),
                _ => "\"...\"".into(),
            },
        },
    }
}

/// An input position's schema: built-ins inline, named types by reference; `null`
/// is not offered (an optional argument is left out instead).
fn input_type(schema: &Schema, ty: &TypeRef) -> Value {
    match ty {
        TypeRef::NonNull(t) => input_type(schema, t),
        TypeRef::List(t) => json!({"type": "array", "items": input_type(schema, t)}),
        TypeRef::Named(n) => match schema.types.get(n) {
            Some(t) if !(t.kind == Kind::Scalar && scalars::is_built_in(n)) => {
                json!({"$ref": format!("#/components/schemas/{}", escape(n))})
            }
            _ => scalars::built_in(n),
        },
    }
}

/// An argument or input field: its type with description, default, deprecation.
fn input(schema: &Schema, v: &InputValue) -> Value {
    let mut s = input_type(schema, &v.ty);
    if let Some(d) = &v.description {
        s = described_as(s, d);
    }
    if let Some(default) = &v.default {
        s["default"] = default.clone();
    }
    if let Some(reason) = &v.deprecated {
        s["deprecated"] = json!(true);
        let d = s.get("description").and_then(Value::as_str).unwrap_or("");
        s["description"] = json!(format!("{d}\n\nDeprecated: {reason}").trim().to_owned());
    }
    s
}

fn input_object(schema: &Schema, t: &TypeDef) -> Value {
    let properties: Map<String, Value> = t
        .inputs
        .iter()
        .map(|v| (v.name.clone(), input(schema, v)))
        .collect();
    let required: Vec<&str> = t
        .inputs
        .iter()
        .filter(|v| v.is_required())
        .map(|v| v.name.as_str())
        .collect();
    let mut s = json!({"type": "object", "properties": properties});
    if !required.is_empty() {
        s["required"] = json!(required);
    }
    if let Some(d) = &t.description {
        s["description"] = json!(d);
    }
    // `@oneOf` input objects: exactly one field is given.
    if t.directives.iter().any(|d| d["name"] == "oneOf") {
        s["minProperties"] = json!(1);
        s["maxProperties"] = json!(1);
    }
    s
}

/// An enum: its values, and what each means when the schema says.
fn enumeration(t: &TypeDef) -> Value {
    let mut description = t.description.clone().unwrap_or_default();
    let described: Vec<String> = t
        .values
        .iter()
        .filter(|v| v.description.is_some() || v.deprecated.is_some())
        .map(|v| {
            let mut line = format!("- `{}`", v.name);
            if let Some(d) = &v.description {
                let _ = write!(line, ": {d}");
            }
            if let Some(r) = &v.deprecated {
                let _ = write!(line, " (deprecated: {r})");
            }
            line
        })
        .collect();
    if !described.is_empty() {
        if !description.is_empty() {
            description.push_str("\n\n");
        }
        description.push_str(&described.join("\n"));
    }
    let mut s = json!({"type": "string", "enum": t.values.iter().map(|v| v.name.as_str()).collect::<Vec<_>>()});
    if !description.is_empty() {
        s["description"] = json!(description);
    }
    s
}

/// The output types, one line each, for checking a `selection` at run time:
/// `O Name field:Type field(arg,required!):Type ...` for objects (`I` interfaces, `U`
/// unions), then `P Name Member ...` for the possible types of unions and
/// interfaces. A name with no line is a scalar or enum.
pub fn type_table(schema: &Schema) -> String {
    let mut out = String::new();
    let mut implementers: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for t in schema.types.values() {
        let tag = match t.kind {
            Kind::Object => "O",
            Kind::Interface => "I",
            Kind::Union => "U",
            _ => continue,
        };
        out.push_str(tag);
        out.push(' ');
        out.push_str(&t.name);
        for f in &t.fields {
            out.push(' ');
            out.push_str(&f.name);
            if !f.args.is_empty() {
                let args: Vec<String> = f
                    .args
                    .iter()
                    .map(|a| {
                        if a.is_required() {
                            format!("{}!", a.name)
                        } else {
                            a.name.clone()
                        }
                    })
                    .collect();
                let _ = write!(out, "({})", args.join(","));
            }
            out.push(':');
            out.push_str(f.ty.named());
        }
        out.push('\n');
        for i in &t.interfaces {
            implementers.entry(i.as_str()).or_default().push(&t.name);
        }
        if t.kind == Kind::Union {
            implementers
                .entry(t.name.as_str())
                .or_default()
                .extend(t.possible.iter().map(String::as_str));
        }
    }
    for t in schema.types.values().filter(|t| t.kind == Kind::Interface) {
        // Introspection lists an interface's implementers itself.
        implementers
            .entry(t.name.as_str())
            .or_default()
            .extend(t.possible.iter().map(String::as_str));
    }
    for (name, mut members) in implementers {
        members.sort_unstable();
        members.dedup();
        let _ = writeln!(out, "P {name} {}", members.join(" "));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::{Diagnostics, SourceFile};

    fn schema(text: &str) -> Schema {
        let file = SourceFile::new("t.graphql", text);
        super::super::sdl::read(&file, &mut Diagnostics::default())
    }

    #[test]
    fn each_root_field_is_an_operation_with_its_document() {
        let s = schema(
            r#"type Query { repository(owner: String!, first: Int! = 10): Repo
                          viewer: String }
               type Mutation { star(input: StarInput!): Repo }
               input StarInput { id: ID! note: String }
               type Repo { id: ID! stars: Int }"#,
        );
        let c = convert(&s, &BTreeMap::new());
        let call = &c.calls["query_repository"];
        assert_eq!(
            call.head,
            "query query_repository($owner: String!, $first: Int) { repository(owner: $owner, first: $first)"
        );
        assert_eq!(call.selection, "id stars");
        assert_eq!(call.returns, "Repo");
        assert_eq!(call.selection_argument, "selection");
        let viewer = &c.calls["query_viewer"];
        assert_eq!(viewer.head, "query query_viewer { viewer");
        assert_eq!(viewer.selection, "");
        let op = &c.doc["paths"]["/#mutation_star"]["post"];
        assert_eq!(
            op["requestBody"]["content"]["application/json"]["schema"]["required"],
            json!(["input"])
        );
        assert!(op.get("x-read-only-hint").is_none());
        assert_eq!(
            c.doc["paths"]["/#query_repository"]["post"]["x-read-only-hint"],
            json!(true)
        );
        assert_eq!(
            c.doc["components"]["schemas"]["StarInput"]["required"],
            json!(["id"])
        );
    }

    #[test]
    fn the_type_table_names_fields_arguments_and_members() {
        let s = schema(
            "type Query { a(x: Int!, y: Int): A } type A implements N { id: ID! } interface N { id: ID! } union U = A",
        );
        let table = type_table(&s);
        assert!(table.contains("O Query a(x!,y):A\n"), "{table}");
        assert!(table.contains("I N id:ID\n"), "{table}");
        assert!(table.contains("U U\n"), "{table}");
        assert!(table.contains("P N A\n"), "{table}");
        assert!(table.contains("P U A\n"), "{table}");
    }
}
