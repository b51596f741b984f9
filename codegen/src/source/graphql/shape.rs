//! Default selection sets, and the JSON Schema of what each returns.
//!
//! A GraphQL call returns only what it selects, so each tool gets a fixed selection
//! chosen from the schema alone (the same document every build), bounded so that a
//! result fits a model's context:
//!
//! - a type's **full** shape (what a tool returning it selects): its first
//!   [`LEAVES`] scalar and enum fields, then up to [`NESTED`] fields of object,
//!   interface or union type, each with its **brief** shape; a connection (a type
//!   with `pageInfo` and `nodes` or `edges`) selects its scalar fields (`totalCount`),
//!   `pageInfo` and its items' full shape;
//! - a type's **brief** shape: its first [`BRIEF_LEAVES`] scalar and enum fields
//!   (and `__typename` for interfaces and unions; a union adds one inline fragment
//!   per member).
//!
//! Fields that need arguments, deprecated fields and nested connections (which page
//! on arguments of their own) are left out. Every shape is one shared definition of
//! the output schema (`Repository`, `Repository.brief`) whose properties are exactly
//! the selected fields, each required (GraphQL returns every field it selects) and
//! typed as the schema says (`T` non-null, `T` nullable, `[T]` arrays).

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::model::{Field, Kind, Schema, TypeDef, TypeRef};
use super::scalars;

/// Scalar and enum fields a full shape selects.
pub const LEAVES: usize = 32;
/// Object-typed fields a full shape selects (each with its brief shape).
pub const NESTED: usize = 12;
/// Scalar and enum fields a brief shape selects.
pub const BRIEF_LEAVES: usize = 6;
/// Union members a shape selects fragments of.
pub const MEMBERS: usize = 24;

/// The shapes built so far: definition name → (selection text, schema).
#[derive(Debug, Default)]
pub struct Shapes {
    pub definitions: BTreeMap<String, Value>,
    texts: BTreeMap<String, String>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Depth {
    Full,
    Brief,
}

impl Shapes {
    /// The selection set (without braces) a field returning `ty` selects, and the
    /// output schema of its value; `None` for a leaf type (no selection set).
    pub fn of(&mut self, schema: &Schema, ty: &TypeRef) -> (Option<String>, Value) {
        let named = ty.named();
        match schema.types.get(named) {
            Some(t) if t.kind.is_composite() => {
                let name = self.shape(schema, t, Depth::Full);
                let text = self.texts[&name].clone();
                (Some(text), wrap(ty, reference(&name)))
            }
            _ => (None, wrap(ty, leaf(schema, named))),
        }
    }

    /// The definition of `t`'s shape at `depth`, built once.
    fn shape(&mut self, schema: &Schema, t: &TypeDef, depth: Depth) -> String {
        let name = match depth {
            Depth::Full => t.name.clone(),
            Depth::Brief => format!("{}.brief", t.name),
        };
        if self.texts.contains_key(&name) {
            return name;
        }
        // Reserved first: a type reached again while it is being built (a field of
        // its own type) sees the name, not an endless walk. Only brief shapes nest
        // in full ones, and brief ones nest nothing, so this never shows.
        self.texts.insert(name.clone(), String::new());
        let mut selection = Selection::default();
        if matches!(t.kind, Kind::Interface | Kind::Union) {
            selection.typename();
        }
        if t.kind == Kind::Union {
            self.fragments(schema, t, &mut selection);
        } else if let (Depth::Full, Some(items)) = (depth, connection(schema, t)) {
            self.connection(schema, t, items, &mut selection);
        } else {
            let budget = match depth {
                Depth::Full => LEAVES,
                Depth::Brief => BRIEF_LEAVES,
            };
            for f in selectable(t).filter(|f| is_leaf(schema, f)).take(budget) {
                selection.leaf(f, leaf(schema, f.ty.named()), depth == Depth::Full);
            }
            if depth == Depth::Full {
                let nested = selectable(t)
                    .filter(|f| {
                        schema.types.get(f.ty.named()).is_some_and(|u| {
                            u.kind.is_composite() && connection(schema, u).is_none()
                        })
                    })
                    .take(NESTED);
                for f in nested {
                    let u = &schema.types[f.ty.named()];
                    let inner = self.shape(schema, u, Depth::Brief);
                    if self.texts[&inner].is_empty() {
                        continue;
                    }
                    let text = format!("{} {{ {} }}", f.name, self.texts[&inner]);
                    selection.push(&f.name, text, wrap(&f.ty, reference(&inner)), f, true);
                }
            }
        }
        self.texts.insert(name.clone(), selection.text());
        self.definitions.insert(
            name.clone(),
            selection.schema(t.description.as_deref(), depth),
        );
        name
    }

    /// A connection's own scalar fields (`totalCount`; `issueCount`, `userCount`, … on
    /// a search), `pageInfo` and its items.
    fn connection(&mut self, schema: &Schema, t: &TypeDef, items: Items<'_>, s: &mut Selection) {
        for f in selectable(t).filter(|f| is_leaf(schema, f)).take(LEAVES) {
            s.leaf(f, leaf(schema, f.ty.named()), true);
        }
        if let Some(f) = t.field("pageInfo")
            && let Some(info) = schema.types.get(f.ty.named())
        {
            let inner = self.shape(schema, info, Depth::Brief);
            let text = format!("pageInfo {{ {} }}", self.texts[&inner]);
            s.push("pageInfo", text, wrap(&f.ty, reference(&inner)), f, true);
        }
        let (field, node_type) = match items {
            Items::Nodes(f, node) | Items::Edges(f, node) => (f, node),
        };
        let inner = self.shape(schema, node_type, Depth::Full);
        let body = self.texts[&inner].clone();
        match items {
            Items::Nodes(..) => {
                let text = format!("nodes {{ {body} }}");
                s.push(
                    "nodes",
                    text,
                    wrap(&field.ty, reference(&inner)),
                    field,
                    true,
                );
            }
            Items::Edges(..) => {
                // `edges { cursor node { ... } }`: each edge's node, under `node`.
                let edge = schema.types.get(field.ty.named());
                let node = edge.and_then(|e| e.field("node"));
                let cursor = edge.and_then(|e| e.field("cursor")).is_some();
                let mut properties = Map::new();
                let mut required = Vec::new();
                if cursor {
                    properties.insert("cursor".into(), json!({"type": "string"}));
                    required.push("cursor");
                }
                if let Some(node) = node {
                    properties.insert("node".into(), wrap(&node.ty, reference(&inner)));
                    required.push("node");
                }
                let edge_schema =
                    json!({"type": "object", "properties": properties, "required": required});
                let text = format!(
                    "edges {{ {}node {{ {body} }} }}",
                    if cursor { "cursor " } else { "" }
                );
                s.push("edges", text, wrap(&field.ty, edge_schema), field, true);
            }
        }
    }

    /// `... on Member { <brief leaves> }` for each object member of a union; a field
    /// two members share with different types is selected from the first only (the
    /// same response key with two types does not validate).
    fn fragments(&mut self, schema: &Schema, t: &TypeDef, s: &mut Selection) {
        let mut seen: BTreeMap<String, String> = BTreeMap::new();
        for member in t.possible.iter().take(MEMBERS) {
            let Some(m) = schema.types.get(member).filter(|m| m.kind == Kind::Object) else {
                continue;
            };
            let mut parts = Vec::new();
            for f in selectable(m)
                .filter(|f| is_leaf(schema, f))
                .take(BRIEF_LEAVES)
            {
                let ty = f.ty.to_string();
                match seen.get(&f.name) {
                    Some(other) if *other != ty => continue,
                    Some(_) => {}
                    None => {
                        seen.insert(f.name.clone(), ty);
                        // Present only when the value is of a member that has it.
                        s.optional(&f.name, wrap(&f.ty, leaf(schema, f.ty.named())));
                    }
                }
                parts.push(f.name.clone());
            }
            if !parts.is_empty() {
                s.text
                    .push(format!("... on {member} {{ {} }}", parts.join(" ")));
            }
        }
    }
}

/// Where a connection's items are.
#[derive(Clone, Copy)]
enum Items<'s> {
    /// `nodes: [T]`
    Nodes(&'s Field, &'s TypeDef),
    /// `edges: [E]`, `E.node: T`
    Edges(&'s Field, &'s TypeDef),
}

/// A connection: `pageInfo` with `nodes`, or `edges` whose items have a `node`.
fn connection<'s>(schema: &'s Schema, t: &'s TypeDef) -> Option<Items<'s>> {
    t.field("pageInfo")?;
    let composite = |name: &str| schema.types.get(name).filter(|u| u.kind.is_composite());
    if let Some(nodes) = t.field("nodes")
        && let Some(node) = composite(nodes.ty.named())
    {
        return Some(Items::Nodes(nodes, node));
    }
    let edges = t.field("edges")?;
    let edge = schema.types.get(edges.ty.named())?;
    let node = composite(edge.field("node")?.ty.named())?;
    Some(Items::Edges(edges, node))
}

/// Fields a default selection may take: no required argument, not deprecated.
fn selectable(t: &TypeDef) -> impl Iterator<Item = &Field> {
    t.fields
        .iter()
        .filter(|f| f.deprecated.is_none() && !f.args.iter().any(|a| a.is_required()))
}

fn is_leaf(schema: &Schema, f: &Field) -> bool {
    let named = f.ty.named();
    schema
        .types
        .get(named)
        .map_or_else(|| scalars::is_built_in(named), |t| t.kind.is_leaf())
}

/// The schema of a scalar or enum value.
fn leaf(schema: &Schema, named: &str) -> Value {
    match schema.types.get(named) {
        Some(t) if t.kind == Kind::Enum || !scalars::is_built_in(named) => reference(named),
        _ => scalars::built_in(named),
    }
}

fn reference(name: &str) -> Value {
    json!({"$ref": format!("#/components/schemas/{}", crate::source::openapi::escape(name))})
}

/// `inner` (the named type's schema) as `ty` wraps it: lists become arrays, and a
/// nullable position takes `null` too.
pub fn wrap(ty: &TypeRef, inner: Value) -> Value {
    fn go(ty: &TypeRef, inner: Value, nullable: bool) -> Value {
        match ty {
            TypeRef::NonNull(t) => go(t, inner, false),
            TypeRef::List(t) => {
                let list = json!({"type": "array", "items": go(t, inner, true)});
                if nullable { or_null(list) } else { list }
            }
            TypeRef::Named(_) => {
                if nullable {
                    or_null(inner)
                } else {
                    inner
                }
            }
        }
    }
    go(ty, inner, true)
}

/// `schema` or `null`.
pub fn or_null(mut schema: Value) -> Value {
    if let Some(Value::String(t)) = schema.get("type") {
        schema["type"] = json!([t.clone(), "null"]);
        return schema;
    }
    // Any value already takes null.
    let any = schema
        .as_object()
        .is_some_and(|o| o.keys().all(|k| k == "description"));
    if any {
        schema
    } else {
        json!({"anyOf": [schema, {"type": "null"}]})
    }
}

/// A selection set being built: its text and the schema of what it returns.
#[derive(Default)]
struct Selection {
    text: Vec<String>,
    properties: Map<String, Value>,
    required: Vec<String>,
}

impl Selection {
    fn typename(&mut self) {
        self.text.push("__typename".into());
        self.properties.insert(
            "__typename".into(),
            json!({"type": "string", "description": "The value's GraphQL type"}),
        );
        self.required.push("__typename".into());
    }

    fn leaf(&mut self, f: &Field, schema: Value, described: bool) {
        self.push(&f.name, f.name.clone(), wrap(&f.ty, schema), f, described);
    }

    fn push(&mut self, key: &str, text: String, mut schema: Value, f: &Field, described: bool) {
        if described && let Some(d) = &f.description {
            schema = described_as(schema, d);
        }
        self.text.push(text);
        self.properties.insert(key.to_owned(), schema);
        self.required.push(key.to_owned());
    }

    /// A property that only some values have (a fragment's field).
    fn optional(&mut self, key: &str, schema: Value) {
        self.properties.insert(key.to_owned(), schema);
    }

    fn text(&self) -> String {
        self.text.join(" ")
    }

    fn schema(&self, description: Option<&str>, depth: Depth) -> Value {
        let mut out = json!({
            "type": "object",
            "properties": self.properties,
            "required": self.required,
        });
        if depth == Depth::Full
            && let Some(d) = description
        {
            out["description"] = json!(d);
        }
        out
    }
}

/// `schema` with a description (next to a `$ref`, 3.1 allows it).
pub fn described_as(mut schema: Value, description: &str) -> Value {
    if let Some(map) = schema.as_object_mut() {
        map.insert("description".into(), json!(description));
    }
    schema
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::{Diagnostics, SourceFile};

    fn schema(text: &str) -> Schema {
        let file = SourceFile::new("t.graphql", text);
        super::super::sdl::read(&file, &mut Diagnostics::default())
    }

    const SDL: &str = r#"
type Query { repository(owner: String!): Repository search(query: String!, first: Int): ResultConnection! }
type Repository { id: ID! name: String! stars: Int old: String @deprecated owner: Owner!
  issues(first: Int): IssueConnection! files(path: String!): [String!] }
interface Owner { login: String! url: String }
type IssueConnection { totalCount: Int! pageInfo: PageInfo! nodes: [Issue] }
type PageInfo { hasNextPage: Boolean! endCursor: String }
type Issue { number: Int! state: IssueState! }
enum IssueState { OPEN CLOSED }
type Pull { number: Int! state: PullState! merged: Boolean! }
enum PullState { OPEN MERGED }
union Result = Issue | Pull
type ResultConnection { pageInfo: PageInfo! nodes: [Result] }
"#;

    #[test]
    fn an_object_selects_its_leaves_and_brief_nested_objects() {
        let s = schema(SDL);
        let mut shapes = Shapes::default();
        let (text, out) = shapes.of(&s, &TypeRef::Named("Repository".into()));
        // No deprecated field, no field with a required argument, no nested connection.
        assert_eq!(
            text.unwrap(),
            "id name stars owner { __typename login url }"
        );
        assert_eq!(
            out,
            json!({"anyOf": [{"$ref": "#/components/schemas/Repository"}, {"type": "null"}]})
        );
        let repo = &shapes.definitions["Repository"];
        assert_eq!(repo["required"], json!(["id", "name", "stars", "owner"]));
        assert_eq!(
            repo["properties"]["stars"],
            json!({"type": ["integer", "null"], "format": "int32"})
        );
        assert_eq!(
            repo["properties"]["owner"],
            json!({"$ref": "#/components/schemas/Owner.brief"})
        );
    }

    #[test]
    fn a_connection_selects_count_page_info_and_items() {
        let s = schema(SDL);
        let mut shapes = Shapes::default();
        let (text, _) = shapes.of(&s, &TypeRef::Named("IssueConnection".into()));
        assert_eq!(
            text.unwrap(),
            "totalCount pageInfo { hasNextPage endCursor } nodes { number state }"
        );
    }

    #[test]
    fn a_union_selects_fragments_without_conflicting_fields() {
        let s = schema(SDL);
        let mut shapes = Shapes::default();
        let (text, _) = shapes.of(&s, &TypeRef::Named("ResultConnection".into()));
        // `state` is IssueState on Issue and PullState on Pull: selected once.
        assert_eq!(
            text.unwrap(),
            "pageInfo { hasNextPage endCursor } nodes { __typename ... on Issue { number state } ... on Pull { number merged } }"
        );
        assert_eq!(
            shapes.definitions["Result"]["required"],
            json!(["__typename"])
        );
    }
}
