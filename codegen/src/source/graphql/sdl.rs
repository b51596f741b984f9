//! GraphQL SDL (`.graphql`, `.gql`) into the [`model`](super::model), with
//! `apollo-parser`: it recovers from syntax errors, so every one of them is reported,
//! each at its line and column, and what did parse is still read.

use std::ops::Range;
use std::sync::Arc;

use apollo_parser::cst::{self, CstNode};
use serde_json::{Map, Value, json};

use super::model::{
    DEFAULT_DEPRECATION, EnumValue, Field, InputValue, Kind, Place, Schema, TypeDef, TypeRef,
};
use crate::diagnostics::{Diagnostic, Diagnostics, Location, SourceFile, codes};

/// Nesting deeper than this (`[[[[...]]]]`, nested object values) is a syntax error,
/// not a stack overflow.
const RECURSION_LIMIT: usize = 256;

/// Reads an SDL document; syntax errors are reported and the rest is read.
pub fn read(file: &Arc<SourceFile>, diagnostics: &mut Diagnostics) -> Schema {
    let tree = apollo_parser::Parser::new(&file.text)
        .recursion_limit(RECURSION_LIMIT)
        .parse();
    for error in tree.errors() {
        let at = error.index().min(file.text.len());
        let end = (at + error.data().len()).min(file.text.len());
        diagnostics.push(
            Diagnostic::error(
                codes::GRAPHQL_SYNTAX,
                format!("GraphQL syntax: {}", readable(error.message())),
            )
            .at(Location {
                file: Arc::clone(file),
                span: at..end.max(at),
            })
            .help(
                "fix the schema so that it parses (see the GraphQL spec, section 3: Type System)",
            ),
        );
    }
    let mut schema = Schema::default();
    let mut roots_declared = false;
    for definition in tree.document().definitions() {
        let at = range(definition.syntax());
        let place = Place::Span(at.clone());
        use cst::Definition as D;
        if let Some((name, kind, about, directives)) = declared(&definition) {
            if let Some(t) = declare(&mut schema, name, kind, place, diagnostics, file) {
                t.description = description(about);
                t.directives = applied(directives);
                fill(t, &definition);
            }
            continue;
        }
        // `extend type X { ... }`: what it adds joins the type it extends.
        if let Some((name, kind)) = extension(&definition) {
            if let Some(t) = extended(&mut schema, name, kind, place) {
                fill(t, &definition);
            }
            continue;
        }
        match definition {
            D::SchemaDefinition(def) => {
                roots_declared = true;
                schema.description = description(def.description());
                roots(def.root_operation_type_definitions(), &mut schema);
            }
            D::SchemaExtension(def) => roots(def.root_operation_type_definitions(), &mut schema),
            D::DirectiveDefinition(def) => schema.directives.push(directive_definition(&def)),
            D::OperationDefinition(_) | D::FragmentDefinition(_) => diagnostics.push(
                Diagnostic::warning(
                    codes::GRAPHQL_SCHEMA,
                    "an executable definition (operation or fragment) in a schema; not read",
                )
                .at(Location {
                    file: Arc::clone(file),
                    span: at,
                })
                .help("a schema file holds type definitions only; keep queries in their own files"),
            ),
            _ => {}
        }
    }
    // Without a `schema { ... }` block the roots go by their conventional names.
    if !roots_declared {
        for (slot, name) in [
            (&mut schema.query, "Query"),
            (&mut schema.mutation, "Mutation"),
            (&mut schema.subscription, "Subscription"),
        ] {
            if slot.is_none() && schema.types.contains_key(name) {
                *slot = Some(name.to_owned());
            }
        }
    }
    schema
}

/// A type definition's name, kind, description and directives.
type Declared = (
    Option<cst::Name>,
    Kind,
    Option<cst::Description>,
    Option<cst::Directives>,
);

fn declared(definition: &cst::Definition) -> Option<Declared> {
    use cst::Definition as D;
    Some(match definition {
        D::ScalarTypeDefinition(d) => (d.name(), Kind::Scalar, d.description(), d.directives()),
        D::ObjectTypeDefinition(d) => (d.name(), Kind::Object, d.description(), d.directives()),
        D::InterfaceTypeDefinition(d) => {
            (d.name(), Kind::Interface, d.description(), d.directives())
        }
        D::UnionTypeDefinition(d) => (d.name(), Kind::Union, d.description(), d.directives()),
        D::EnumTypeDefinition(d) => (d.name(), Kind::Enum, d.description(), d.directives()),
        D::InputObjectTypeDefinition(d) => {
            (d.name(), Kind::InputObject, d.description(), d.directives())
        }
        _ => return None,
    })
}

/// The type an extension extends, and its kind.
fn extension(definition: &cst::Definition) -> Option<(Option<cst::Name>, Kind)> {
    use cst::Definition as D;
    Some(match definition {
        D::ScalarTypeExtension(d) => (d.name(), Kind::Scalar),
        D::ObjectTypeExtension(d) => (d.name(), Kind::Object),
        D::InterfaceTypeExtension(d) => (d.name(), Kind::Interface),
        D::UnionTypeExtension(d) => (d.name(), Kind::Union),
        D::EnumTypeExtension(d) => (d.name(), Kind::Enum),
        D::InputObjectTypeExtension(d) => (d.name(), Kind::InputObject),
        _ => return None,
    })
}

/// What a definition or an extension gives its type: fields, interfaces, members,
/// values, input fields (added to what it has).
fn fill(t: &mut TypeDef, definition: &cst::Definition) {
    use cst::Definition as D;
    match definition {
        D::ObjectTypeDefinition(d) => {
            t.interfaces.extend(implements(d.implements_interfaces()));
            t.fields.extend(fields(d.fields_definition()));
        }
        D::ObjectTypeExtension(d) => {
            t.interfaces.extend(implements(d.implements_interfaces()));
            t.fields.extend(fields(d.fields_definition()));
        }
        D::InterfaceTypeDefinition(d) => {
            t.interfaces.extend(implements(d.implements_interfaces()));
            t.fields.extend(fields(d.fields_definition()));
        }
        D::InterfaceTypeExtension(d) => {
            t.interfaces.extend(implements(d.implements_interfaces()));
            t.fields.extend(fields(d.fields_definition()));
        }
        D::UnionTypeDefinition(d) => t.possible.extend(members(d.union_member_types())),
        D::UnionTypeExtension(d) => t.possible.extend(members(d.union_member_types())),
        D::EnumTypeDefinition(d) => t.values.extend(enum_values(d.enum_values_definition())),
        D::EnumTypeExtension(d) => t.values.extend(enum_values(d.enum_values_definition())),
        D::InputObjectTypeDefinition(d) => t.inputs.extend(input_values(
            d.input_fields_definition()
                .map(|f| f.input_value_definitions()),
        )),
        D::InputObjectTypeExtension(d) => t.inputs.extend(input_values(
            d.input_fields_definition()
                .map(|f| f.input_value_definitions()),
        )),
        _ => {}
    }
}

/// The parser's token names (`R_CURLY`) as the characters they stand for.
fn readable(message: &str) -> String {
    let mut out = message.to_owned();
    for (token, shown) in [
        ("R_CURLY", "`}`"),
        ("L_CURLY", "`{`"),
        ("R_PAREN", "`)`"),
        ("L_PAREN", "`(`"),
        ("R_BRACK", "`]`"),
        ("L_BRACK", "`[`"),
        ("EOF", "the end of the file"),
    ] {
        out = out.replace(token, shown);
    }
    out
}

fn range(node: &apollo_parser::SyntaxNode) -> Range<usize> {
    let r = node.text_range();
    usize::from(r.start())..usize::from(r.end())
}

fn place(node: &apollo_parser::SyntaxNode) -> Place {
    Place::Span(range(node))
}

fn name(n: Option<cst::Name>) -> Option<String> {
    n.map(|n| n.text().to_string())
}

fn description(d: Option<cst::Description>) -> Option<String> {
    d.and_then(|d| d.string_value())
        .map(String::from)
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
}

/// A new named type; a second definition of a name is reported and skipped.
fn declare<'s>(
    schema: &'s mut Schema,
    n: Option<cst::Name>,
    kind: Kind,
    at: Place,
    diagnostics: &mut Diagnostics,
    file: &Arc<SourceFile>,
) -> Option<&'s mut TypeDef> {
    let name = name(n)?;
    if schema.types.contains_key(&name) {
        diagnostics.push(
            Diagnostic::error(
                codes::GRAPHQL_SCHEMA,
                format!("type `{name}` is defined twice"),
            )
            .at(Location {
                file: Arc::clone(file),
                span: at.span(&file.text),
            })
            .help("rename one, or merge them (`extend type` adds fields to a type)"),
        );
        return None;
    }
    Some(
        schema
            .types
            .entry(name.clone())
            .or_insert_with(|| TypeDef::new(name, kind, at)),
    )
}

/// The type an extension extends (declared before or after it).
fn extended(
    schema: &mut Schema,
    n: Option<cst::Name>,
    kind: Kind,
    at: Place,
) -> Option<&mut TypeDef> {
    let name = name(n)?;
    Some(
        schema
            .types
            .entry(name.clone())
            .or_insert_with(|| TypeDef::new(name, kind, at)),
    )
}

fn roots(defs: cst::CstChildren<cst::RootOperationTypeDefinition>, schema: &mut Schema) {
    for def in defs {
        let Some(named) = def.named_type().and_then(|n| name(n.name())) else {
            continue;
        };
        let Some(op) = def.operation_type() else {
            continue;
        };
        if op.query_token().is_some() {
            schema.query = Some(named);
        } else if op.mutation_token().is_some() {
            schema.mutation = Some(named);
        } else if op.subscription_token().is_some() {
            schema.subscription = Some(named);
        }
    }
}

fn implements(i: Option<cst::ImplementsInterfaces>) -> Vec<String> {
    i.into_iter()
        .flat_map(|i| i.named_types())
        .filter_map(|n| name(n.name()))
        .collect()
}

fn members(m: Option<cst::UnionMemberTypes>) -> Vec<String> {
    m.into_iter()
        .flat_map(|m| m.named_types())
        .filter_map(|n| name(n.name()))
        .collect()
}

fn ty(t: Option<cst::Type>) -> Option<TypeRef> {
    Some(match t? {
        cst::Type::NamedType(n) => TypeRef::Named(name(n.name())?),
        cst::Type::ListType(l) => TypeRef::List(Box::new(ty(l.ty())?)),
        cst::Type::NonNullType(n) => {
            let inner = match (n.named_type(), n.list_type()) {
                (Some(named), _) => TypeRef::Named(name(named.name())?),
                (None, Some(list)) => TypeRef::List(Box::new(ty(list.ty())?)),
                (None, None) => return None,
            };
            TypeRef::NonNull(Box::new(inner))
        }
    })
}

fn fields(f: Option<cst::FieldsDefinition>) -> Vec<Field> {
    f.into_iter()
        .flat_map(|f| f.field_definitions())
        .filter_map(|f| {
            Some(Field {
                name: name(f.name())?,
                description: description(f.description()),
                args: input_values(
                    f.arguments_definition()
                        .map(|a| a.input_value_definitions()),
                ),
                ty: ty(f.ty())?,
                deprecated: deprecation(f.directives()),
                directives: applied(f.directives()),
                at: place(f.syntax()),
            })
        })
        .collect()
}

fn input_values(v: Option<cst::CstChildren<cst::InputValueDefinition>>) -> Vec<InputValue> {
    v.into_iter()
        .flatten()
        .filter_map(|v| {
            Some(InputValue {
                name: name(v.name())?,
                description: description(v.description()),
                ty: ty(v.ty())?,
                default: v.default_value().and_then(|d| d.value()).map(value),
                deprecated: deprecation(v.directives()),
                at: place(v.syntax()),
            })
        })
        .collect()
}

fn enum_values(e: Option<cst::EnumValuesDefinition>) -> Vec<EnumValue> {
    e.into_iter()
        .flat_map(|e| e.enum_value_definitions())
        .filter_map(|v| {
            Some(EnumValue {
                name: name(v.enum_value()?.name())?,
                description: description(v.description()),
                deprecated: deprecation(v.directives()),
            })
        })
        .collect()
}

/// `@deprecated(reason: "...")`'s reason, when the directive is there.
fn deprecation(d: Option<cst::Directives>) -> Option<String> {
    let directive = d?
        .directives()
        .find(|d| name(d.name()).as_deref() == Some("deprecated"))?;
    let reason = directive
        .arguments()
        .into_iter()
        .flat_map(|a| a.arguments())
        .find(|a| name(a.name()).as_deref() == Some("reason"))
        .and_then(|a| a.value())
        .map(value)
        .and_then(|v| v.as_str().map(str::to_owned));
    Some(reason.unwrap_or_else(|| DEFAULT_DEPRECATION.to_owned()))
}

/// Directives other than `@deprecated`, as `{name, args}` metadata.
fn applied(d: Option<cst::Directives>) -> Vec<Value> {
    d.into_iter()
        .flat_map(|d| d.directives())
        .filter_map(|d| {
            let n = name(d.name())?;
            if n == "deprecated" {
                return None;
            }
            let args: Map<String, Value> = d
                .arguments()
                .into_iter()
                .flat_map(|a| a.arguments())
                .filter_map(|a| Some((name(a.name())?, value(a.value()?))))
                .collect();
            Some(json!({"name": n, "args": args}))
        })
        .collect()
}

fn directive_definition(def: &cst::DirectiveDefinition) -> Value {
    let args: Vec<Value> = input_values(
        def.arguments_definition()
            .map(|a| a.input_value_definitions()),
    )
    .iter()
    .map(|a| json!({"name": a.name, "type": a.ty.to_string(), "description": a.description}))
    .collect();
    let locations: Vec<Value> = def
        .directive_locations()
        .into_iter()
        .flat_map(|l| l.directive_locations())
        .filter_map(|l| l.text().map(|t| Value::from(t.to_string())))
        .collect();
    json!({
        "name": name(def.name()),
        "description": description(def.description()),
        "args": args,
        "locations": locations,
        "repeatable": def.repeatable_token().is_some(),
    })
}

/// A GraphQL literal (`10`, `"x"`, `[OPEN]`, `{a: 1}`: how introspection writes a
/// default value) as JSON; `None` when it does not parse.
pub fn literal(text: &str) -> Option<Value> {
    let holder = format!("scalar S @d(v: {text})");
    let tree = apollo_parser::Parser::new(&holder)
        .recursion_limit(RECURSION_LIMIT)
        .parse();
    if tree.errors().next().is_some() {
        return None;
    }
    let cst::Definition::ScalarTypeDefinition(def) = tree.document().definitions().next()? else {
        return None;
    };
    let argument = def
        .directives()?
        .directives()
        .next()?
        .arguments()?
        .arguments()
        .next()?;
    argument.value().map(value)
}

/// A constant value as JSON (enum values as their names; a variable, which a schema
/// cannot hold, as `null`).
fn value(v: cst::Value) -> Value {
    use cst::Value as V;
    match v {
        V::StringValue(s) => Value::from(String::from(s)),
        V::IntValue(i) => {
            let text = i.source_string();
            text.trim()
                .parse::<i64>()
                .map(Value::from)
                .unwrap_or(Value::from(text.trim().to_owned()))
        }
        V::FloatValue(f) => f64::try_from(f).map(Value::from).unwrap_or(Value::Null),
        V::BooleanValue(b) => Value::Bool(bool::try_from(b).unwrap_or(false)),
        V::NullValue(_) | V::Variable(_) => Value::Null,
        V::EnumValue(e) => Value::from(e.text().to_string()),
        V::ListValue(l) => Value::Array(l.values().map(value).collect()),
        V::ObjectValue(o) => Value::Object(
            o.object_fields()
                .filter_map(|f| Some((name(f.name())?, value(f.value()?))))
                .collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> (Schema, Diagnostics) {
        let file = SourceFile::new("t.graphql", text);
        let mut d = Diagnostics::default();
        (read(&file, &mut d), d)
    }

    #[test]
    fn reads_types_fields_arguments_and_defaults() {
        let (s, d) = parse(
            r#"
"""The root"""
type Query {
  "A repo"
  repository(owner: String!, name: String!, first: Int = 10, states: [State!] = [OPEN]): Repository
  old: String @deprecated(reason: "use new")
}
enum State { OPEN CLOSED @deprecated }
type Repository implements Node { id: ID! name: String! }
interface Node { id: ID! }
extend type Repository { stars: Int }
"#,
        );
        assert!(!d.has_errors(), "{:?}", d.iter().collect::<Vec<_>>());
        assert_eq!(s.query.as_deref(), Some("Query"));
        let q = &s.types["Query"];
        let repo = q.field("repository").unwrap();
        assert_eq!(repo.description.as_deref(), Some("A repo"));
        assert_eq!(repo.args[0].ty.to_string(), "String!");
        assert!(repo.args[0].is_required());
        assert_eq!(repo.args[2].default, Some(json!(10)));
        assert!(!repo.args[2].is_required());
        assert_eq!(repo.args[3].default, Some(json!(["OPEN"])));
        assert_eq!(
            q.field("old").unwrap().deprecated.as_deref(),
            Some("use new")
        );
        assert_eq!(
            s.types["State"].values[1].deprecated.as_deref(),
            Some(DEFAULT_DEPRECATION)
        );
        assert_eq!(s.types["Repository"].fields.len(), 3);
        assert_eq!(s.types["Repository"].interfaces, ["Node"]);
    }

    #[test]
    fn every_syntax_error_is_reported_with_its_place() {
        let (s, d) = parse("type Query { a: }\ntype B { b: Int\n");
        let errors: Vec<_> = d.iter().collect();
        assert!(errors.len() >= 2, "{errors:?}");
        assert!(errors.iter().all(|e| e.code == codes::GRAPHQL_SYNTAX));
        assert!(errors[0].line_col().is_some());
        // What parsed is kept.
        assert!(s.types.contains_key("B"));
    }

    #[test]
    fn literals_read_as_json() {
        assert_eq!(literal("10"), Some(json!(10)));
        assert_eq!(literal("\"a\\nb\""), Some(json!("a\nb")));
        assert_eq!(literal("[OPEN, CLOSED]"), Some(json!(["OPEN", "CLOSED"])));
        assert_eq!(
            literal("{field: CREATED_AT, direction: DESC}"),
            Some(json!({"field": "CREATED_AT", "direction": "DESC"}))
        );
        assert_eq!(literal("null"), Some(Value::Null));
        assert_eq!(literal("{a: "), None);
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = format!(
            "type Query {{ a(x: Int = {}{}): Int }}",
            "[".repeat(5000),
            "]".repeat(5000)
        );
        let (_, d) = parse(&deep);
        assert!(d.has_errors());
    }
}
