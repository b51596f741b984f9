//! The entry file `toolwright.rs`: one module per API, the API table, and the static
//! tool catalog sorted by name (binary search at run time, no hashing).

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
    /// Per operation, its contract: set once computed (the API's module is written
    /// meanwhile), before the tables and the index read it.
    pub contracts: std::sync::OnceLock<Vec<super::ToolContract>>,
}

impl ApiEntry<'_> {
    /// Each plan with its contract, in source order.
    pub fn plans_with_contracts(&self) -> impl Iterator<Item = (&ToolPlan, &super::ToolContract)> {
        let contracts = self.contracts.get().map_or(&[][..], Vec::as_slice);
        // Contracts are computed for every operation; a missing one (never) reads as
        // none rather than shifting the others.
        static NONE: super::ToolContract = super::ToolContract {
            json: String::new(),
            links: Vec::new(),
        };
        self.plans
            .iter()
            .enumerate()
            .map(move |(i, p)| (p, contracts.get(i).unwrap_or(&NONE)))
    }
}

/// Writes the entry file's code and its `APIS` and `TOOLS` tables to `code`; returns
/// the embedded catalog file when some tools are catalog-only, or every tool is data
/// (`embed_all`: `TOOLS` is then empty).
pub fn entry_file(code: &mut String, entries: &[ApiEntry<'_>], embed_all: bool) -> Option<Vec<u8>> {
    for e in entries {
        let module = names::ident(&e.names.module);
        let file = names::lit(&e.names.file_name());
        let doc = names::doc(&module_doc(e.api), "");
        // Generated code follows the API description, not the user's lint settings:
        // pedantic lints (long names, many arguments, casing) are the description's
        // choices, and rustdoc lints would flag texts the sanitiser already made safe.
        code.push_str(&format!(
            "{doc}#[allow(dead_code, missing_docs, clippy::pedantic, rustdoc::all)]\n\
             pub mod {module} {{\n    include!({file});\n}}\n"
        ));
    }
    let apis: Vec<Data> = entries.iter().map(|e| api(e.api, true)).collect();
    let bare_apis: Vec<Data> = entries.iter().map(|e| api(e.api, false)).collect();
    let api_count = apis.len();

    // Each plan with its position in its module's `OPERATIONS` (typed ones only).
    type Row<'e> = (
        &'e ToolPlan,
        &'e super::ToolContract,
        &'e ApiEntry<'e>,
        Option<usize>,
    );
    let mut tools: Vec<Row<'_>> = entries
        .iter()
        .flat_map(|e| {
            let mut next = 0;
            e.plans_with_contracts()
                .zip(&e.typed)
                .map(move |((p, c), typed)| {
                    let index = typed.then(|| {
                        next += 1;
                        next - 1
                    });
                    (p, c, e, index)
                })
        })
        .filter(|(p, ..)| p.exposed)
        .collect();
    tools.sort_by(|a, b| a.0.name.cmp(&b.0.name));
    let (typed, data): (Vec<_>, Vec<_>) = tools
        .into_iter()
        .partition(|(.., i)| i.is_some() && !embed_all);
    let embedded = (!data.is_empty()).then(|| {
        super::embedded::file(&data.iter().map(|(p, c, ..)| (*p, *c)).collect::<Vec<_>>())
    });
    let tool_count = typed.len();
    let tools = typed
        .into_iter()
        .filter_map(|(plan, contract, entry, index)| Some(tool(plan, contract, entry, index?)));

    let tools_doc = if embed_all {
        "Empty: every tool is data, embedded from `toolwright_tools.json` (`catalog()` reads \
         them)."
    } else if embedded.is_some() {
        "The typed tools, sorted by name; the catalog-only ones are data, embedded from \
         `toolwright_tools.json` (`catalog()` joins both)."
    } else {
        "Every tool, sorted by name."
    };
    let search_file = names::lit(super::SEARCH_FILE);
    if embedded.is_some() {
        let file = names::lit(super::embedded::FILE);
        code.push_str(&format!(
            "/// The generated tool catalog, with its search index. Its catalog-only tools are read\n\
             /// from the embedded data on the first call, once.\n\
             #[allow(dead_code)]\n\
             pub fn catalog() -> ::toolwright::Catalog {{\n    \
             static ALL: ::std::sync::OnceLock<&'static [::toolwright::Tool]> =\n        \
             ::std::sync::OnceLock::new();\n    \
             let tools = ALL.get_or_init(|| {{\n        \
             ::toolwright::__private::embedded_tools(&TOOLS, include_bytes!({file}))\n    \
             }});\n    \
             ::toolwright::Catalog::from_static(tools, &APIS)\n        \
             .with_search_index(include_bytes!({search_file}))\n}}\n"
        ));
    } else {
        code.push_str(&format!(
            "/// The generated tool catalog, with its search index.\n\
             #[allow(dead_code)]\n\
             pub fn catalog() -> ::toolwright::Catalog {{\n    \
             ::toolwright::Catalog::from_static(&TOOLS, &APIS)\n        \
             .with_search_index(include_bytes!({search_file}))\n}}\n"
        ));
    }
    code.push_str(
        "\n/// The APIs alone (base URLs, auth), without the tools: for a service that makes only\n\
         /// typed calls (`Executor::builder(apis_only())`). The tools, their schemas, the\n\
         /// shared schema definitions and the search index are then never referenced, and\n\
         /// the linker leaves them out of the binary. Typed inputs are checked by their Rust\n\
         /// types only (not by the schemas' ranges and patterns), and calls by name find no\n\
         /// tool.\n\
         #[allow(dead_code)]\n\
         pub fn apis_only() -> ::toolwright::Catalog {\n    \
         ::toolwright::Catalog::from_static(&[], &BARE_APIS)\n}\n",
    );
    code.push('\n');
    // `APIS` without the schema definitions, which only tools use: on GitHub's
    // description they are 3.6 MB of text.
    super::data::static_item(
        code,
        "The APIs as `apis_only()` gives them: `APIS` without the shared schema definitions.",
        "BARE_APIS",
        &format!("[::toolwright::descriptor::Api; {api_count}]"),
        &Data::Array(bare_apis),
    );
    code.push('\n');
    super::data::static_item(
        code,
        "Every API of this catalog, with default base URLs and auth.",
        "APIS",
        &format!("[::toolwright::descriptor::Api; {api_count}]"),
        &Data::Array(apis),
    );
    code.push('\n');
    super::data::static_item(
        code,
        tools_doc,
        "TOOLS",
        &format!("[::toolwright::Tool; {tool_count}]"),
        &Data::Array(tools.collect()),
    );
    embedded
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

/// `api`'s descriptor; `with_definitions: false` leaves the shared schema definitions
/// out (what typed calls without tools need).
fn api(api: &ir::Api, with_definitions: bool) -> Data {
    let schemes = api
        .schemes
        .iter()
        .map(|scheme| {
            let kind = match &scheme.kind {
                ir::SchemeKind::Bearer { token_env } => Data::Struct(
                    "::toolwright::descriptor::SchemeKind::Bearer",
                    vec![("token_env", Data::cow(token_env))],
                ),
                ir::SchemeKind::ClientCredentials {
                    token_env,
                    token_url,
                    client_id_env,
                    client_secret_env,
                } => Data::Struct(
                    "::toolwright::descriptor::SchemeKind::ClientCredentials",
                    vec![
                        ("token_env", Data::cow(token_env)),
                        ("token_url", Data::cow(token_url)),
                        ("client_id_env", Data::cow(client_id_env)),
                        ("client_secret_env", Data::cow(client_secret_env)),
                    ],
                ),
                ir::SchemeKind::ApiKey { key_env, placement } => {
                    let (variant, name) = match placement {
                        ir::KeyPlacement::Header(n) => {
                            ("::toolwright::descriptor::KeyPlacement::Header(", n)
                        }
                        ir::KeyPlacement::Query(n) => {
                            ("::toolwright::descriptor::KeyPlacement::Query(", n)
                        }
                        ir::KeyPlacement::Cookie(n) => {
                            ("::toolwright::descriptor::KeyPlacement::Cookie(", n)
                        }
                    };
                    let placement = Data::Wrap(variant, Box::new(Data::cow(name)), ")");
                    Data::Struct(
                        "::toolwright::descriptor::SchemeKind::ApiKey",
                        vec![("key_env", Data::cow(key_env)), ("placement", placement)],
                    )
                }
                ir::SchemeKind::Basic {
                    username_env,
                    password_env,
                } => Data::Struct(
                    "::toolwright::descriptor::SchemeKind::Basic",
                    vec![
                        ("username_env", Data::cow(username_env)),
                        ("password_env", Data::cow(password_env)),
                    ],
                ),
            };
            Data::Struct(
                "::toolwright::descriptor::SecurityScheme",
                vec![("name", Data::cow(&scheme.name)), ("kind", kind)],
            )
        })
        .collect();
    let definitions = if with_definitions {
        super::definitions(api)
    } else {
        Vec::new()
    };
    let definitions = definitions
        .into_iter()
        .map(|(name, input, output)| {
            Data::Struct(
                "::toolwright::descriptor::Definition",
                vec![
                    ("name", Data::cow(&name)),
                    ("input", Data::cow_owned(input)),
                    ("output", Data::cow_owned(output)),
                ],
            )
        })
        .collect();
    let meta = (!api.meta.is_empty())
        .then(|| Data::cow_owned(serde_json::to_string(&api.meta).unwrap_or_default()));
    Data::Struct(
        "::toolwright::descriptor::Api",
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

fn tool(
    plan: &ToolPlan,
    contract: &super::ToolContract,
    entry: &ApiEntry<'_>,
    index: usize,
) -> Data {
    let module = names::ident(&entry.names.module);
    let a = plan.annotations;
    Data::Struct(
        "::toolwright::Tool",
        vec![
            ("name", Data::cow(&plan.name)),
            ("title", Data::cow(&plan.title)),
            ("description", Data::cow(&plan.description)),
            (
                "input_schema",
                Data::cow_owned(plan.input_schema.to_string()),
            ),
            (
                "output_schema",
                Data::option(
                    plan.output_schema
                        .as_ref()
                        .map(|s| Data::cow_owned(s.to_string())),
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
                Data::option(Some(Data::cow_owned(plan.meta.to_string()))),
            ),
            ("contract", Data::option(Some(Data::cow(&contract.json)))),
            (
                "operation",
                Data::Raw(format!(
                    "::toolwright::__private::operation(&{module}::OPERATIONS[{index}])"
                )),
            ),
        ],
    )
}
