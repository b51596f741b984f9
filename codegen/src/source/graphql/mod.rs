//! GraphQL schemas (SDL `.graphql`/`.gql`, or an introspection result as JSON) into
//! the IR.
//!
//! Normalise syntax, not meaning: every query and mutation field becomes a tool
//! (`query_repository`, `mutation_createIssue`) whose input is the field's arguments
//! and whose output is what its default selection returns ([`shape`]); the schema is
//! rewritten as the OpenAPI 3.1 document that says so ([`convert`]) and read by the
//! OpenAPI reader, so a GraphQL API gets the same client, catalog, executor and
//! diagnostics as any other — every finding located in the GraphQL file. Each
//! operation keeps the GraphQL document it sends ([`ir::GraphqlCall`]); the executor
//! posts `{query, variables}` to the endpoint and turns `errors` into a tool error.
//! Subscriptions, directive definitions and applied directives are kept as native
//! metadata (`x-graphql`).

pub mod convert;
pub mod introspection;
pub mod model;
pub mod scalars;
pub mod sdl;
pub mod shape;

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::Value;

use crate::diagnostics::{Diagnostic, Diagnostics, Location, SourceFile, codes};
use crate::ir;
use crate::source::openapi::{self, locate::Locator};

/// What a build says about its GraphQL inputs beyond the files.
#[derive(Debug, Default, Clone)]
pub struct Options {
    /// Each API's endpoint (the schema does not name one), by API name.
    pub endpoints: BTreeMap<String, String>,
    /// Schemas of custom scalars, by scalar name, replacing [`scalars::custom`].
    pub scalars: BTreeMap<String, Value>,
}

/// Whether `api` was read from a GraphQL schema.
pub fn is_graphql(api: &ir::Api) -> bool {
    api.meta
        .get("format")
        .and_then(Value::as_str)
        .is_some_and(|f| f.starts_with("graphql"))
}

/// The schema `file` holds, read again (findings dropped: reading it the first time
/// reported them).
pub fn model_of(file: &Arc<SourceFile>) -> Option<model::Schema> {
    let mut ignored = Diagnostics::default();
    if is_sdl(&file.path) {
        return Some(sdl::read(file, &mut ignored));
    }
    let root: Value = serde_json::from_str(&file.text).ok()?;
    Some(introspection::read(file, &root, &mut ignored))
}

/// Whether a file is GraphQL SDL, by its extension.
pub fn is_sdl(path: &str) -> bool {
    path.ends_with(".graphql") || path.ends_with(".gql") || path.ends_with(".graphqls")
}

/// Whether a file's head looks like an introspection result.
pub fn looks_like(path: &std::path::Path, head: &str) -> bool {
    path.extension().is_some_and(|e| e == "json") && head.contains("\"__schema\"")
}

/// Whether a parsed JSON document is an introspection result.
pub fn is_introspection(root: &Value) -> bool {
    introspection::schema_of(root).is_some()
}

/// Reads an SDL file.
/// `named` gives the name the API goes by (the build may rename it), which its
/// endpoint is looked up by.
pub fn read_sdl(
    file: &Arc<SourceFile>,
    options: &Options,
    named: &dyn Fn(&str) -> String,
    diagnostics: &mut Diagnostics,
) -> Option<ir::Api> {
    let schema = sdl::read(file, diagnostics);
    lower(file, schema, "graphql-sdl", (options, named), diagnostics)
}

/// Reads a parsed introspection result.
pub fn read_introspection(
    file: &Arc<SourceFile>,
    root: &Value,
    options: &Options,
    named: &dyn Fn(&str) -> String,
    diagnostics: &mut Diagnostics,
) -> Option<ir::Api> {
    let schema = introspection::read(file, root, diagnostics);
    lower(
        file,
        schema,
        "graphql-introspection",
        (options, named),
        diagnostics,
    )
}

fn lower(
    file: &Arc<SourceFile>,
    mut schema: model::Schema,
    format: &str,
    (options, named): (&Options, &dyn Fn(&str) -> String),
    diagnostics: &mut Diagnostics,
) -> Option<ir::Api> {
    unique(file, &mut schema, diagnostics);
    let schema = &schema;
    check(file, schema, diagnostics);
    let converted = convert::convert(schema, &options.scalars);
    let locator = Locator::places(converted.places);
    let mut api = openapi::read_root(file, converted.doc, &locator, diagnostics)?;
    api.meta.remove("openapi");
    api.meta.remove("servers");
    api.meta.insert("format".into(), Value::from(format));
    api.graphql_types = Some(convert::type_table(schema));
    let name = named(&api.name);
    api.base_url = match options.endpoints.get(&name) {
        Some(url) => {
            use crate::source::base_url::{Verdict, classify};
            let problem = match classify(url) {
                Verdict::Secure => None,
                Verdict::Relative => Some((false, format!("the endpoint `{url}` is relative"))),
                Verdict::Cleartext => Some((
                    false,
                    format!(
                        "the endpoint `{url}` is plain http: requests and tokens would travel unencrypted"
                    ),
                )),
                Verdict::Refused(why) => Some((
                    true,
                    format!(
                        "the endpoint `{}` is refused: {why}",
                        crate::source::base_url::redact(url)
                    ),
                )),
            };
            match problem {
                Some((refused, message)) => {
                    let d = if refused {
                        Diagnostic::error(codes::SERVER, message)
                    } else {
                        Diagnostic::warning(codes::SERVER, message)
                    };
                    diagnostics.push(
                        d.at(Location {
                            file: Arc::clone(file),
                            span: 0..0,
                        })
                        .help(
                            "give an https URL (plain http is for localhost, 127.0.0.1 or [::1])",
                        ),
                    );
                    if refused { String::new() } else { url.clone() }
                }
                None => url.clone(),
            }
        }
        None => {
            diagnostics.push(
                Diagnostic::warning(
                    codes::SERVER,
                    format!("the GraphQL schema `{name}` names no endpoint; the base URL is empty"),
                )
                .at(Location {
                    file: Arc::clone(file),
                    span: 0..0,
                })
                .help(format!(
                    "give it when generating (`Config::graphql_endpoint(\"{name}\", \"https://.../graphql\")`) or on the executor (`.base_url(\"{name}\", ...)`)"
                )),
            );
            String::new()
        }
    };
    // Introspection fields are located by their root type's `fields` array, scanned
    // once (a pointer per field would rescan a 5 MB document per tool).
    let mut arrays: BTreeMap<String, Vec<std::ops::Range<usize>>> = BTreeMap::new();
    for op in &mut api.operations {
        // The tool name that kept each path unique goes: every call posts to the
        // endpoint itself.
        op.path.clear();
        op.graphql = converted.calls.get(&op.name).cloned();
        let span = match converted.fields.get(&op.name) {
            Some(model::Place::Span(span)) => Some(span.clone()),
            Some(model::Place::Pointer(pointer)) => {
                pointer.rsplit_once("/fields/").and_then(|(owner, index)| {
                    let items = arrays.entry(owner.to_owned()).or_insert_with(|| {
                        openapi::locate::array_items(&file.text, &format!("{owner}/fields"))
                    });
                    items.get(index.parse::<usize>().ok()?).cloned()
                })
            }
            None => None,
        };
        if let Some(span) = span {
            op.source = Some(Location {
                file: Arc::clone(file),
                span,
            });
        }
        if op
            .graphql
            .as_ref()
            .is_some_and(|c| c.head.starts_with("query "))
        {
            op.kind = ir::Crude::Read;
        }
    }
    Some(api)
}

/// Keeps each name a type, a field's arguments or an input object gives twice once
/// (the first): the spec forbids repeats, and a second would otherwise silently replace
/// the first. Each repeat is a warning where it is (GitHub's own SDL has two).
fn unique(file: &Arc<SourceFile>, schema: &mut model::Schema, diagnostics: &mut Diagnostics) {
    /// `items` without repeated names; `repeated` hears of each one left out.
    fn first<T>(items: &mut Vec<T>, name: impl Fn(&T) -> &str, mut repeated: impl FnMut(&T)) {
        let mut seen = std::collections::BTreeSet::new();
        items.retain(|item| {
            let new = seen.insert(name(item).to_owned());
            if !new {
                repeated(item);
            }
            new
        });
    }
    let mut warn = |owner: String, what: &str, name: &str, at: &model::Place| {
        diagnostics.push(
            Diagnostic::warning(
                codes::GRAPHQL_SCHEMA,
                format!("{owner} has two {what} named `{name}`; the second is skipped"),
            )
            .at(Location {
                file: Arc::clone(file),
                span: at.span(&file.text),
            })
            .help("names must be unique: rename or remove one (an `extend` may repeat a field its type already has)"),
        );
    };
    for (name, t) in &mut schema.types {
        first(
            &mut t.fields,
            |f| &f.name,
            |f| {
                warn(format!("`{name}`"), "fields", &f.name, &f.at);
            },
        );
        first(
            &mut t.inputs,
            |v| &v.name,
            |v| {
                warn(format!("`{name}`"), "input fields", &v.name, &v.at);
            },
        );
        for f in &mut t.fields {
            let owner = format!("`{name}.{}`", f.name);
            first(
                &mut f.args,
                |a| &a.name,
                |a| {
                    warn(owner.clone(), "arguments", &a.name, &a.at);
                },
            );
        }
    }
}

/// What would make the schema unusable or silently wrong: no query type, and
/// references to types it does not define.
fn check(file: &Arc<SourceFile>, schema: &model::Schema, diagnostics: &mut Diagnostics) {
    let located = |place: &model::Place| Location {
        file: Arc::clone(file),
        span: place.span(&file.text),
    };
    if schema
        .query
        .as_ref()
        .is_none_or(|q| !schema.types.contains_key(q))
    {
        diagnostics.push(
            Diagnostic::error(
                codes::GRAPHQL_SCHEMA,
                "the schema has no query type: nothing to make tools of",
            )
            .at(Location {
                file: Arc::clone(file),
                span: 0..0,
            })
            .help("define `type Query { ... }` (or name the root in `schema { query: ... }`)"),
        );
    }
    let known = |name: &str| schema.types.contains_key(name) || scalars::is_built_in(name);
    for t in schema.types.values() {
        let refs = t
            .fields
            .iter()
            .map(|f| (&f.ty, &f.at, f.name.as_str()))
            .chain(
                t.fields
                    .iter()
                    .flat_map(|f| f.args.iter().map(|a| (&a.ty, &a.at, a.name.as_str()))),
            )
            .chain(t.inputs.iter().map(|v| (&v.ty, &v.at, v.name.as_str())));
        for (ty, at, name) in refs {
            if !known(ty.named()) {
                let names: Vec<&str> = schema
                    .types
                    .keys()
                    .map(String::as_str)
                    .chain(model::BUILT_IN_SCALARS)
                    .collect();
                let mut d = Diagnostic::warning(
                    codes::GRAPHQL_SCHEMA,
                    format!(
                        "`{}.{name}` is of type `{}`, which the schema does not define; taken as any JSON value",
                        t.name,
                        ty.named()
                    ),
                )
                .at(located(at));
                d = match crate::diagnostics::did_you_mean(ty.named(), &names) {
                    Some(near) => d.help(format!("did you mean `{near}`?")),
                    None => d.help("define the type (a `scalar` will do for a custom value)"),
                };
                diagnostics.push(d);
            }
        }
        for member in &t.possible {
            if !schema.types.contains_key(member) {
                diagnostics.push(
                    Diagnostic::warning(
                        codes::GRAPHQL_SCHEMA,
                        format!(
                            "union `{}` names `{member}`, which the schema does not define",
                            t.name
                        ),
                    )
                    .at(located(&t.at))
                    .help("define the member type, or take it out of the union"),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn names_given_twice_are_kept_once_and_said() {
        let analysis = crate::analyze_text(
            "dup.graphql",
            "type Query { a(x: Int, x: Int): Int }\nextend type Query { a: Int }\ninput I { f: Int f: Int }",
            false,
        );
        let messages: Vec<String> = analysis
            .diagnostics
            .iter()
            .map(|d| d.message.clone())
            .collect();
        for said in [
            "`Query.a` has two arguments named `x`; the second is skipped",
            "`Query` has two fields named `a`; the second is skipped",
            "`I` has two input fields named `f`; the second is skipped",
        ] {
            assert!(messages.contains(&said.to_owned()), "{messages:?}");
        }
        // The first `a` (with its argument) is the tool.
        let ops = &analysis.apis[0].operations;
        assert_eq!(ops.iter().filter(|o| o.name == "query_a").count(), 1);
        assert_eq!(ops[0].params.len(), 1);
    }

    #[test]
    fn introspected_tools_point_at_their_fields() {
        let text = r#"{"data": {"__schema": {"queryType": {"name": "Query"}, "types": [
          {"kind": "SCALAR", "name": "String"},
          {"kind": "OBJECT", "name": "Query", "fields": [
            {"name": "hello", "args": [], "type": {"kind": "SCALAR", "name": "String"}},
            {"name": "viewer", "args": [], "type": {"kind": "SCALAR", "name": "String"}}
          ]}
        ]}}}"#;
        let analysis = crate::analyze_text("schema.json", text, false);
        let op = analysis.apis[0]
            .operations
            .iter()
            .find(|o| o.name == "query_viewer")
            .unwrap();
        let span = op.source.as_ref().unwrap().span.clone();
        assert!(text[span].starts_with(r#"{"name": "viewer""#));
    }
}
