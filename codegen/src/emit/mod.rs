//! Emitters: IR → generated files. Every output reads only the IR (through the
//! per-tool [`plan::ToolPlan`]), is formatted by prettyplease and is deterministic.

mod catalog;
mod codec;
mod data;
pub mod embedded;
pub mod names;
pub mod plan;
mod rust;
mod search;
pub mod text;

use std::collections::BTreeMap;

use crate::ir;

/// Name of the entry file to `include!`.
pub const ENTRY_FILE: &str = "toolwright.rs";

/// The catalog's search index, embedded with `include_bytes!` by the entry file.
pub const SEARCH_FILE: &str = "toolwright_search.idx";

/// Generated files: name → content.
pub type Files = BTreeMap<String, Vec<u8>>;

/// The module name of an API (`github-api` → `github_api`).
pub fn module_name(api: &ir::Api) -> String {
    names::snake(&api.name)
}

/// Definitions some operation reaches (through parameters, bodies or any response);
/// the others produce neither types nor catalog entries.
pub fn reachable_definitions(api: &ir::Api) -> std::collections::BTreeSet<String> {
    let roots = api.operations.iter().flat_map(|op| {
        op.params
            .iter()
            .map(|p| &p.schema)
            .chain(op.responses.iter().filter_map(|r| r.schema.as_ref()))
    });
    ir::reachable(roots, &api.definitions)
}

/// The API's definitions that some tool reaches, rendered as (name, input, output)
/// JSON Schema texts.
pub fn definitions(api: &ir::Api) -> Vec<(String, String, String)> {
    reachable_definitions(api)
        .into_iter()
        .filter_map(|name| {
            let def = api.definitions.get(&name)?;
            let input = def.to_json(ir::Direction::Input).to_string();
            let output = def.to_json(ir::Direction::Output).to_string();
            Some((name, input, output))
        })
        .collect()
}

/// Plans for every operation of an API, in source order.
pub fn plans(api: &ir::Api) -> Vec<plan::ToolPlan> {
    // The contracts (one graph over the whole API) and the per-operation plans do not
    // depend on each other: two threads (on Graph's 22,000 operations each is seconds).
    let (plans, contracts) = std::thread::scope(|scope| {
        let contracts = scope.spawn(|| {
            // The default field roles (the artifact takes the configured ones).
            crate::contract::build(
                std::slice::from_ref(api),
                &crate::contract::FieldRoles::default(),
            )
            .into_iter()
            .map(|c| serde_json::to_string(&c.contract).unwrap_or_default())
            .collect::<Vec<_>>()
        });
        let plans: Vec<plan::ToolPlan> = api
            .operations
            .iter()
            .map(|op| plan::plan(api, op))
            .collect();
        // A panic there is a generator bug; surface it unchanged.
        let contracts = contracts
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (plans, contracts)
    });
    plans
        .into_iter()
        .zip(contracts)
        .map(|(plan, contract)| plan::ToolPlan { contract, ..plan })
        .collect()
}

/// Which operations get Rust types and client methods; the others are catalog-only
/// (tool and descriptor: callable by name, listed, checked against their schema).
#[derive(Debug, Clone, Default)]
pub enum Typed {
    /// Every operation (the default).
    #[default]
    All,
    /// None: the catalog and descriptors only.
    None,
    /// The operations the selection keeps.
    Only(toolwright_query::Selection),
}

impl Typed {
    /// Per operation of `api`, in source order: typed or not.
    fn marks(&self, api: &ir::Api) -> Vec<bool> {
        api.operations
            .iter()
            .map(|op| match self {
                Typed::All => true,
                Typed::None => false,
                Typed::Only(selection) => {
                    crate::select::with_facts(&api.name, op, |f| selection.keeps(f))
                }
            })
            .collect()
    }
}

/// How the typed code is generated.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Which operations get Rust types.
    pub typed: Typed,
    /// Every type implements both `Serialize` and `Deserialize` (by default inputs
    /// are only written and outputs only read).
    pub full_serde: bool,
    /// Methods of tagged operations, and the types only they use, are compiled only
    /// with a cargo feature of their tag (`<api>-<tag>`).
    pub features_by_tag: bool,
}

/// Generates all files for `apis` (already checked: unique names), every operation
/// typed.
pub fn generate(apis: &[ir::Api]) -> Files {
    generate_with(apis, &Options::default())
}

/// [`generate`], with the given options.
pub fn generate_with(apis: &[ir::Api], options: &Options) -> Files {
    let mut files = Files::new();
    let mut apis: Vec<&ir::Api> = apis.iter().collect();
    apis.sort_by(|a, b| a.name.cmp(&b.name));
    let entries: Vec<catalog::ApiEntry<'_>> = apis
        .iter()
        .zip(names::allocate(apis.iter().copied()))
        .map(|(api, names)| catalog::ApiEntry {
            api,
            names,
            plans: plans(api),
            typed: options.typed.marks(api),
        })
        .collect();
    // The API modules and the entry file (catalog) are independent: build and format
    // them on two threads (formatting is most of generation's time on large specs).
    let sources: Vec<String> = entries
        .iter()
        .filter_map(|e| e.api.source.as_ref().map(|s| file_name(&s.file.path)))
        .collect();
    // Two threads: the API modules' code (built as tokens, formatted by prettyplease)
    // on one, every data table (printed straight from tokens) on the other. On large
    // specs formatting is most of generation's time.
    let (modules, (tables, entry_file, index)) = std::thread::scope(|scope| {
        let data = scope.spawn(|| {
            // The index on a thread of its own: with every operation catalog-only there
            // are no modules to format, and the tables and the index are all the work.
            let index = scope.spawn(|| search::index(&entries));
            let tables: Vec<String> = entries
                .iter()
                .map(|e| rust::operations_table(&e.plans, &e.typed))
                .collect();
            let (code, catalog_tables, embedded) = catalog::entry_file(&entries);
            let entry = format_file(&sources.join(", "), code, &catalog_tables);
            let index = index
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            (tables, (entry, embedded), index)
        });
        let modules: Vec<(String, String)> = entries
            .iter()
            .map(|entry| {
                let code =
                    rust::api_module(entry.api, &entry.plans, &entry.names, &entry.typed, options);
                let source = entry
                    .api
                    .source
                    .as_ref()
                    .map(|s| file_name(&s.file.path))
                    .unwrap_or_default();
                let from = format!("the `{}` API ({source})", entry.api.name);
                (entry.names.file_name(), format_module(scope, &from, code))
            })
            .collect();
        // A panic on the data thread is a generator bug; surface it unchanged.
        let data = data
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (modules, data)
    });
    let modules = modules
        .into_iter()
        .zip(tables)
        .map(|((name, code), table)| (name, (code + &table).into_bytes()));
    files.extend(modules);
    let (entry_file, embedded) = entry_file;
    files.insert(ENTRY_FILE.to_owned(), entry_file.into_bytes());
    if let Some(bytes) = embedded {
        files.insert(embedded::FILE.to_owned(), bytes);
    }
    files.insert(SEARCH_FILE.to_owned(), index);
    crate::drop_later(entries.into_iter().map(|e| e.plans).collect::<Vec<_>>());
    files
}

fn file_name(path: &str) -> String {
    std::path::Path::new(path)
        .file_name()
        .map_or_else(|| path.to_owned(), |n| n.to_string_lossy().into_owned())
}

/// A module's code formatted in two halves at once: the types split where the work on
/// both sides is about even (a client method weighs about two thirds of a type).
fn format_module<'scope>(
    scope: &'scope std::thread::Scope<'scope, '_>,
    from: &str,
    code: rust::ModuleCode,
) -> String {
    let rust::ModuleCode {
        mut types,
        client,
        methods,
    } = code;
    let split = ((types.len() + methods * 2 / 3) / 2).min(types.len());
    let second: proc_macro2::TokenStream =
        types.split_off(split).into_iter().chain([client]).collect();
    // Token streams cannot cross threads; their text can (and re-lexing it there is
    // cheaper than formatting it here).
    let second = second.to_string();
    let second = scope.spawn(move || match syn::parse_file(&second) {
        Ok(file) => prettyplease::unparse(&file),
        Err(e) => e.to_compile_error().to_string(),
    });
    let first = unparse(types.into_iter().collect());
    let second = second
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
    header(from) + &first + &second
}

fn header(from: &str) -> String {
    // File names are the user's, and may hold anything: keep the comment one line.
    let from: String = from
        .chars()
        .map(|c| {
            if c.is_control() || text::is_bidi_control(c) {
                '?'
            } else {
                c
            }
        })
        .collect();
    format!(
        "// @generated by toolwright-codegen {} from {from}. Do not edit.\n\n",
        env!("CARGO_PKG_VERSION")
    )
}

/// prettyplease's rendering of items (a generator bug makes the build fail there,
/// with syn's message).
fn unparse(tokens: proc_macro2::TokenStream) -> String {
    // No clone of `tokens` kept for the error case: cloning then parsing forces a deep
    // copy of the whole stream (measured on GitHub's spec).
    match syn::parse2::<syn::File>(tokens) {
        Ok(file) => prettyplease::unparse(&file),
        Err(e) => e.to_compile_error().to_string(),
    }
}

/// prettyplease's rendering of `tokens`, then the data `tables` (already text).
fn format_file(from: &str, tokens: proc_macro2::TokenStream, tables: &str) -> String {
    header(from) + &unparse(tokens) + "\n" + tables
}
