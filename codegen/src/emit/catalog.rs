//! The entry file `toolwright.rs`: one module per API, the API table, and the static
//! tool catalog sorted by name (binary search at run time, no hashing).

use proc_macro2::TokenStream;
use quote::quote;

use super::data::Data;
use super::names;
use super::plan::ToolPlan;
use crate::ir;

/// One API's part of the entry file.
pub struct ApiEntry<'a> {
    pub api: &'a ir::Api,
    pub names: names::ApiNames,
    pub plans: Vec<ToolPlan>,
    /// Per operation: typed (a static descriptor, client method and types), or
    /// catalog-only (an entry of the embedded catalog file).
    pub typed: Vec<bool>,
}

/// The entry file's code, its `APIS` and `TOOLS` tables as text, and the embedded
/// catalog file when some tools are catalog-only.
pub fn entry_file(entries: &[ApiEntry<'_>]) -> (TokenStream, String, Option<Vec<u8>>) {
    let modules = entries.iter().map(|e| {
        let module = names::ident(&e.names.module);
        let file = e.names.file_name();
        let doc = names::doc(&module_doc(e.api));
        // Generated code follows the API description, not the user's lint settings:
        // pedantic lints (long names, many arguments, casing) are the description's
        // choices, and rustdoc lints would flag texts the sanitiser already made safe.
        quote! {
            #doc
            #[allow(dead_code, missing_docs, clippy::pedantic, rustdoc::all)]
            pub mod #module {
                include!(#file);
            }
        }
    });
    let apis: Vec<Data> = entries.iter().map(|e| api(e.api)).collect();
    let api_count = apis.len();

    // Each plan with its position in its module's `OPERATIONS` (typed ones only).
    let mut tools: Vec<(&ToolPlan, &ApiEntry<'_>, Option<usize>)> = entries
        .iter()
        .flat_map(|e| {
            let mut next = 0;
            e.plans.iter().zip(&e.typed).map(move |(p, typed)| {
                let index = typed.then(|| {
                    next += 1;
                    next - 1
                });
                (p, e, index)
            })
        })
        .filter(|(p, _, _)| p.exposed)
        .collect();
    tools.sort_by(|a, b| a.0.name.cmp(&b.0.name));
    let (typed, data): (Vec<_>, Vec<_>) = tools.into_iter().partition(|(_, _, i)| i.is_some());
    let embedded = (!data.is_empty())
        .then(|| super::embedded::file(&data.iter().map(|(p, _, _)| *p).collect::<Vec<_>>()));
    let tool_count = typed.len();
    let tools = typed
        .into_iter()
        .filter_map(|(plan, entry, index)| Some(tool(plan, entry, index?)));

    let tools_doc = if embedded.is_some() {
        "The typed tools, sorted by name; the catalog-only ones are data, embedded from \
         `toolwright_tools.json` (`catalog()` joins both)."
    } else {
        "Every tool, sorted by name."
    };
    let tables = [
        super::data::static_item(
            "Every API of this catalog, with default base URLs and auth.",
            "APIS",
            &format!("[::toolwright::Api; {api_count}]"),
            &Data::Array(apis),
        ),
        super::data::static_item(
            tools_doc,
            "TOOLS",
            &format!("[::toolwright::Tool; {tool_count}]"),
            &Data::Array(tools.collect()),
        ),
    ]
    .join("\n");
    let search_file = super::SEARCH_FILE;
    let catalog = if embedded.is_some() {
        let file = super::embedded::FILE;
        quote! {
            /// The generated tool catalog, with its search index. Its catalog-only
            /// tools are read from the embedded data on the first call, once.
            #[allow(dead_code)]
            pub fn catalog() -> ::toolwright::Catalog {
                static ALL: ::std::sync::OnceLock<&'static [::toolwright::Tool]> =
                    ::std::sync::OnceLock::new();
                let tools = ALL.get_or_init(|| {
                    ::toolwright::__private::embedded_tools(&TOOLS, include_bytes!(#file))
                });
                ::toolwright::Catalog::from_static(tools, &APIS)
                    .with_search_index(include_bytes!(#search_file))
            }
        }
    } else {
        quote! {
            /// The generated tool catalog, with its search index.
            #[allow(dead_code)]
            pub fn catalog() -> ::toolwright::Catalog {
                ::toolwright::Catalog::from_static(&TOOLS, &APIS)
                    .with_search_index(include_bytes!(#search_file))
            }
        }
    };
    let code = quote! {
        #(#modules)*

        #catalog
    };
    (code, tables, embedded)
}

/// Rustdoc for an API module: its description, then the adapter's Markdown body
/// (made inert by [`names::doc`] like every other text).
fn module_doc(api: &ir::Api) -> String {
    if api.docs.is_empty() {
        api.description.clone()
    } else if api.docs.contains(api.description.trim()) {
        // OpenAPI docs are `# title` plus the description: said once.
        api.docs.trim_end().to_owned()
    } else {
        format!("{}\n\n{}", api.description, api.docs.trim_end())
    }
}

fn api(api: &ir::Api) -> Data {
    let schemes = api
        .schemes
        .iter()
        .map(|scheme| {
            let kind = match &scheme.kind {
                ir::SchemeKind::Bearer { token_env } => Data::Struct(
                    "::toolwright::SchemeKind::Bearer",
                    vec![("token_env", Data::cow(token_env))],
                ),
                ir::SchemeKind::ClientCredentials {
                    token_env,
                    token_url,
                    client_id_env,
                    client_secret_env,
                } => Data::Struct(
                    "::toolwright::SchemeKind::ClientCredentials",
                    vec![
                        ("token_env", Data::cow(token_env)),
                        ("token_url", Data::cow(token_url)),
                        ("client_id_env", Data::cow(client_id_env)),
                        ("client_secret_env", Data::cow(client_secret_env)),
                    ],
                ),
                ir::SchemeKind::ApiKey { key_env, placement } => {
                    let (variant, name) = match placement {
                        ir::KeyPlacement::Header(n) => ("::toolwright::KeyPlacement::Header(", n),
                        ir::KeyPlacement::Query(n) => ("::toolwright::KeyPlacement::Query(", n),
                        ir::KeyPlacement::Cookie(n) => ("::toolwright::KeyPlacement::Cookie(", n),
                    };
                    let placement = Data::Wrap(variant, Box::new(Data::cow(name)), ")");
                    Data::Struct(
                        "::toolwright::SchemeKind::ApiKey",
                        vec![("key_env", Data::cow(key_env)), ("placement", placement)],
                    )
                }
                ir::SchemeKind::Basic {
                    username_env,
                    password_env,
                } => Data::Struct(
                    "::toolwright::SchemeKind::Basic",
                    vec![
                        ("username_env", Data::cow(username_env)),
                        ("password_env", Data::cow(password_env)),
                    ],
                ),
            };
            Data::Struct(
                "::toolwright::SecurityScheme",
                vec![("name", Data::cow(&scheme.name)), ("kind", kind)],
            )
        })
        .collect();
    let definitions = super::definitions(api)
        .into_iter()
        .map(|(name, input, output)| {
            Data::Struct(
                "::toolwright::Definition",
                vec![
                    ("name", Data::cow(&name)),
                    ("input", Data::cow(&input)),
                    ("output", Data::cow(&output)),
                ],
            )
        })
        .collect();
    let meta = (!api.meta.is_empty())
        .then(|| Data::cow(&serde_json::to_string(&api.meta).unwrap_or_default()));
    Data::Struct(
        "::toolwright::Api",
        vec![
            ("name", Data::cow(&api.name)),
            ("base_url", Data::cow(&api.base_url)),
            ("schemes", Data::cow_slice(schemes)),
            ("definitions", Data::cow_slice(definitions)),
            ("meta", Data::option(meta)),
            (
                "graphql",
                Data::option(api.graphql_types.as_deref().map(Data::cow)),
            ),
        ],
    )
}

fn tool(plan: &ToolPlan, entry: &ApiEntry<'_>, index: usize) -> Data {
    let module = names::ident(&entry.names.module).to_string();
    let a = plan.annotations;
    Data::Struct(
        "::toolwright::Tool",
        vec![
            ("name", Data::cow(&plan.name)),
            ("title", Data::cow(&plan.title)),
            ("description", Data::cow(&plan.description)),
            ("input_schema", Data::cow(&plan.input_schema.to_string())),
            (
                "output_schema",
                Data::option(
                    plan.output_schema
                        .as_ref()
                        .map(|s| Data::cow(&s.to_string())),
                ),
            ),
            (
                "annotations",
                Data::Struct(
                    "::toolwright::Annotations",
                    vec![
                        ("read_only", Data::bool(a.read_only)),
                        ("destructive", Data::bool(a.destructive)),
                        ("idempotent", Data::bool(a.idempotent)),
                        ("open_world", Data::bool(a.open_world)),
                    ],
                ),
            ),
            (
                "meta",
                Data::option(Some(Data::cow(&plan.meta.to_string()))),
            ),
            ("contract", Data::option(Some(Data::cow(&plan.contract)))),
            (
                "operation",
                Data::Raw(format!(
                    "::toolwright::__private::Cow::Borrowed(&{module}::OPERATIONS[{index}])"
                )),
            ),
        ],
    )
}
