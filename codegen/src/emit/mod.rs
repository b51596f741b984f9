//! Emitters: IR → generated files. Every output reads only the IR (through the
//! per-tool [`plan::ToolPlan`]), is written as laid-out text (no token streams, no
//! formatter pass) and is deterministic.

mod catalog;
mod codec;
mod data;
pub mod declarations;
pub mod embedded;
pub mod names;
pub mod plan;
mod rust;
mod search;
pub mod tests;
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
            .map(|p| &*p.schema)
            .chain(op.responses.iter().filter_map(|r| r.schema.as_deref()))
    });
    ir::reachable(roots, &api.definitions)
}

/// The API's definitions that some tool reaches, rendered as (name, input, output)
/// JSON Schema texts.
pub fn definitions(api: &ir::Api) -> Vec<(String, String, String)> {
    definitions_named(api, reachable_definitions(api))
}

/// The API's definitions `names` (as [`reachable_definitions`] found them, perhaps
/// before the operations were taken), rendered as [`definitions`] renders them.
pub fn definitions_named(
    api: &ir::Api,
    names: std::collections::BTreeSet<String>,
) -> Vec<(String, String, String)> {
    names
        .into_iter()
        .filter_map(|name| {
            let def = api.definitions.get(&name)?;
            // The catalog a service compiles in is text it serves: no credentials.
            let json = |direction| {
                let mut json = def.to_json(direction);
                toolwright_query::redact::value(&mut json, &mut std::collections::BTreeSet::new());
                json.to_string()
            };
            Some((
                name,
                json(ir::Direction::Input),
                json(ir::Direction::Output),
            ))
        })
        .collect()
}

/// Plans for every operation of an API, in source order.
pub fn plans(api: &ir::Api) -> Vec<plan::ToolPlan> {
    map_plans(api, |_, plan| plan)
}

/// Each operation's plan turned into what `each` makes of it (given the operation's
/// position in the API) as soon as it is made, the results in source order: for a
/// caller that keeps less than the plan (Graph beta's 22,361 plans, schemas as value
/// trees, take over a GB together).
pub fn map_plans<R: Send>(
    api: &ir::Api,
    each: impl Fn(usize, plan::ToolPlan) -> R + Sync,
) -> Vec<R> {
    let positions: Vec<usize> = (0..api.operations.len()).collect();
    // Each plan reads only the API.
    crate::halves::in_halves(&positions, 64, |part| {
        part.iter()
            .map(|&i| each(i, plan::plan(api, &api.operations[i])))
            .collect()
    })
}

/// [`map_plans`] for a caller done with `api`'s operations: they are taken out of it,
/// and each is dropped as soon as its plan is made, so the operations and what `each`
/// makes of them are never all alive together (Graph beta's report built its export
/// catalog beside all 22,361 operations; that was its peak). `api` keeps everything
/// else (what a plan reads besides its operation).
pub fn into_plans<R: Send>(
    api: &mut ir::Api,
    each: impl Fn(usize, plan::ToolPlan) -> R + Sync,
) -> Vec<R> {
    let operations = std::mem::take(&mut api.operations);
    let api = &*api;
    // As `map_plans`: two halves, each on a thread, when there are enough.
    crate::halves::in_owned_halves(operations, 64, |ops, start| {
        ops.into_iter()
            .enumerate()
            .map(|(i, op)| {
                let plan = plan::plan(api, &op);
                drop(op);
                each(start + i, plan)
            })
            .collect()
    })
}

/// A tool's IO contract ([`crate::contract::Contract`]) as the catalog stores it.
#[derive(Debug, Clone, Default)]
pub struct ToolContract {
    /// Compact JSON.
    pub json: String,
    /// The operations it links to (the search index's neighbours), read there without
    /// parsing `json` again.
    pub links: Vec<String>,
}

/// Bytes of contracts one API's catalog embeds whole. Past it, each contract keeps its
/// inputs, links and the result fields that identify something, and leaves out the
/// others (Microsoft Graph beta's whole contracts are 106 MB, carried by every binary
/// built on its catalog); the collection artifact has them all.
pub const CONTRACT_BUDGET: usize = 16 << 20;

/// The contract of every operation of an API (one graph over the whole API, with the
/// default field roles; the artifact takes the configured ones), in source order,
/// within [`CONTRACT_BUDGET`].
pub fn contracts(api: &ir::Api) -> Vec<ToolContract> {
    contracts_within(api, CONTRACT_BUDGET)
}

/// [`contracts`] within `budget` bytes of whole contracts.
fn contracts_within(api: &ir::Api, budget: usize) -> Vec<ToolContract> {
    let mut built = crate::contract::build(
        std::slice::from_ref(api),
        &crate::contract::FieldRoles::default(),
    );
    let whole =
        |contract: &crate::contract::Contract| serde_json::to_string(contract).unwrap_or_default();
    // Whole until the budget is passed: from then on (the total only grows) every
    // contract is trimmed, and the whole ones made so far are not needed (Microsoft
    // Graph beta's whole contracts were 106 MB of text, made only to be measured).
    let mut jsons: Vec<String> = Vec::with_capacity(built.len());
    let mut total = 0;
    for c in &built {
        let json = whole(&c.contract);
        total += json.len();
        if total > budget {
            jsons.clear();
            break;
        }
        jsons.push(json);
    }
    if total > budget {
        for c in &mut built {
            c.contract.produces = c
                .contract
                .produces
                .iter()
                .filter(|p| p.identifies.is_some())
                .cloned()
                .collect();
            jsons.push(whole(&c.contract));
        }
    }
    built
        .into_iter()
        .zip(jsons)
        .map(|(c, json)| ToolContract {
            json,
            links: c
                .contract
                .links
                .iter()
                .map(|l| l.operation_id.to_string())
                .collect(),
        })
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
    /// What generated structs and data enums derive besides `Debug`.
    pub derives: Derives,
    /// The typed tools' catalog entries are embedded as data too (`TOOLS` is empty).
    pub embed_tools: bool,
}

/// The standard traits generated structs and data-carrying enums derive besides
/// `Debug` (both by default). Each costs type and borrow checking per type: on a client
/// of thousands of types, leaving them off is a measurable share of the crate's check
/// time. String enums always derive `Clone, Copy, PartialEq, Eq, Hash` (cheap, and what
/// a caller matches and keys maps on).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Derives {
    pub clone: bool,
    pub partial_eq: bool,
}

impl Default for Derives {
    fn default() -> Self {
        Derives {
            clone: true,
            partial_eq: true,
        }
    }
}

impl Derives {
    /// The `#[derive(...)]` line, with `extra` (", Default") after the switched traits.
    pub(crate) fn attribute(self, extra: &str) -> String {
        let clone = if self.clone { ", Clone" } else { "" };
        let partial_eq = if self.partial_eq { ", PartialEq" } else { "" };
        format!("#[derive(Debug{clone}{partial_eq}{extra})]\n")
    }
}

/// Generates all files for `apis` (already checked: unique names), every operation
/// typed.
pub fn generate(apis: &[ir::Api]) -> Files {
    generate_with(apis, &Options::default())
}

/// [`generate`], with the given options.
pub fn generate_with(apis: &[ir::Api], options: &Options) -> Files {
    let mut apis: Vec<&ir::Api> = apis.iter().collect();
    apis.sort_by(|a, b| a.name.cmp(&b.name));
    // The contracts (one graph per API) read only the APIs: they are computed on a
    // thread of their own from the start, while the plans are made (on Microsoft
    // Graph each is a fifth of generating).
    std::thread::scope(|scope| {
        let all_contracts = || apis.iter().map(|api| contracts(api)).collect();
        // No thread to be had (a process at its limit): made here when needed.
        let contracts = std::thread::Builder::new()
            .spawn_scoped(scope, all_contracts)
            .ok();
        let entries: Vec<catalog::ApiEntry<'_>> = apis
            .iter()
            .zip(names::allocate(apis.iter().copied()))
            .map(|(api, names)| catalog::ApiEntry {
                api,
                names,
                plans: plans(api),
                typed: options.typed.marks(api),
                contracts: std::sync::OnceLock::new(),
            })
            .collect();
        let files = write_entries(&entries, options, || match contracts {
            Some(thread) => thread
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            None => all_contracts(),
        });
        crate::memory::drop_later(
            entries
                .into_iter()
                .map(|e| (e.plans, e.contracts))
                .collect::<Vec<_>>(),
        );
        files
    })
}

/// The files of `entries`, once `contracts` (theirs, in order) are done.
fn write_entries(
    entries: &[catalog::ApiEntry<'_>],
    options: &Options,
    contracts: impl FnOnce() -> Vec<Vec<ToolContract>>,
) -> Files {
    let mut files = Files::new();
    let sources: Vec<String> = entries
        .iter()
        .filter_map(|e| e.api.source.as_ref().map(|s| file_name(&s.file.path)))
        .collect();
    // The API modules' code needs the plans only: it is written on a thread of its own
    // while the contracts are finished. The data tables (descriptors and catalog) and
    // the search index need both, and follow on two threads. On compute v1 each of the
    // four is 80 to 160 ms.
    let (modules, (tables, entry_file, index)) = std::thread::scope(|scope| {
        let modules = scope.spawn(|| {
            entries
                .iter()
                .map(|entry| {
                    let source = entry
                        .api
                        .source
                        .as_ref()
                        .map(|s| file_name(&s.file.path))
                        .unwrap_or_default();
                    let from = format!("the `{}` API ({source})", entry.api.name);
                    let code = rust::api_module(
                        header(&from),
                        entry.api,
                        &entry.plans,
                        &entry.names,
                        &entry.typed,
                        options,
                    );
                    (entry.names.file_name(), code)
                })
                .collect::<Vec<_>>()
        });
        // The search documents read only the plans: made and weighed while the
        // contracts are finished, on the core that would otherwise wait for them.
        let documents = scope.spawn(|| search::documents(entries));
        for (entry, built) in entries.iter().zip(contracts()) {
            let _ = entry.contracts.set(built);
        }
        let index = scope.spawn(|| {
            let documents = documents
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            search::index(entries, documents)
        });
        let tables: Vec<String> = entries
            .iter()
            .map(|e| {
                let mut table = String::new();
                rust::operations_table(&mut table, &e.plans, &e.typed);
                table
            })
            .collect();
        let mut entry = header(&sources.join(", "));
        let embedded = catalog::entry_file(&mut entry, entries, options.embed_tools);
        // A panic on another thread is a generator bug; surface it unchanged.
        let modules = modules
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        let index = index
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (modules, (tables, (entry, embedded), index))
    });
    let modules = modules
        .into_iter()
        .zip(tables)
        .map(|((name, mut code), table)| {
            code.push_str(&table);
            (name, code.into_bytes())
        });
    files.extend(modules);
    let (entry_file, embedded) = entry_file;
    files.insert(ENTRY_FILE.to_owned(), entry_file.into_bytes());
    if let Some(bytes) = embedded {
        files.insert(embedded::FILE.to_owned(), bytes);
    }
    files.insert(SEARCH_FILE.to_owned(), index);
    files
}

fn file_name(path: &str) -> String {
    std::path::Path::new(path)
        .file_name()
        .map_or_else(|| path.to_owned(), |n| n.to_string_lossy().into_owned())
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

#[cfg(test)]
mod budget_tests {
    use super::*;

    const SPEC: &str = r##"{"openapi": "3.0.3", "info": {"title": "pets", "version": "1"},
      "paths": {
        "/pets": {"get": {"operationId": "listPets", "responses": {"200": {"description": "ok",
          "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/Pet"}}}}}}}},
        "/pets/{petId}": {"get": {"operationId": "getPet",
          "parameters": [{"name": "petId", "in": "path", "required": true, "schema": {"type": "string"}}],
          "responses": {"200": {"description": "ok",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}}}}}},
      "components": {"schemas": {"Pet": {"type": "object", "properties": {
        "id": {"type": "string"}, "name": {"type": "string"}, "tag": {"type": "string"}}}}}}"##;

    /// Past the budget every contract is trimmed to the leaves that identify something;
    /// within it every contract is whole (the budget is the whole contracts' total).
    #[test]
    fn contracts_past_the_budget_are_all_trimmed() {
        let analysis = crate::analyze_text("pets.json", SPEC, false);
        let api = &analysis.apis[0];
        let whole = contracts_within(api, usize::MAX);
        let total: usize = whole.iter().map(|c| c.json.len()).sum();
        assert_eq!(
            contracts_within(api, total)
                .iter()
                .map(|c| &c.json)
                .collect::<Vec<_>>(),
            whole.iter().map(|c| &c.json).collect::<Vec<_>>()
        );
        let trimmed = contracts_within(api, total - 1);
        for (t, w) in trimmed.iter().zip(&whole) {
            assert!(t.json.len() <= w.json.len(), "{} / {}", t.json, w.json);
            assert!(!t.json.contains("\"/name\""), "{}", t.json);
        }
        assert!(whole.iter().any(|c| c.json.contains("\"/name\"")));
        assert_eq!(trimmed.len(), whole.len());
    }
}
