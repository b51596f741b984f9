//! The catalog's retrieval index, built here from the same texts the catalog holds so
//! that a service never builds one at start-up (the runtime builds the identical index
//! from a `Catalog` when it has none, e.g. after `Catalog::select`).

use std::cell::RefCell;
use std::collections::HashMap;

use serde_json::Value;
use toolwright_query::{Analyser, Document, IndexBuilder, Techniques, ToolTexts, Weighed};

use super::catalog::ApiEntry;

/// Every exposed tool's document, in catalog order (sorted by name), without the
/// operations its contract links to, and its texts weighed into terms: they read only
/// the plans, so they are made while the contracts are (on Microsoft Graph the
/// generator waited ~0.9 s for those with a core idle). [`index`] adds the links and
/// the linked tools' words.
pub struct Documents {
    docs: Vec<Document>,
    /// Per document, its API's and its operation's positions (where its contract is).
    places: Vec<(usize, usize)>,
    /// Per document, its terms but its neighbours'.
    weighed: Vec<Weighed>,
    /// What weighed them, and goes on in the index builder.
    analyser: Analyser,
}

/// The documents of `entries`' exposed tools ([`Documents`]), on this thread.
pub fn documents(entries: &[ApiEntry<'_>]) -> Documents {
    // What the runtime reads back from `Api::meta` (`null` when there is none); once
    // per API (an OpenAPI document's metadata can be large).
    let api_meta: Vec<Value> = entries
        .iter()
        .map(|entry| {
            if entry.api.meta.is_empty() {
                Value::Null
            } else {
                serde_json::to_value(&entry.api.meta).unwrap_or_default()
            }
        })
        .collect();
    // A definition's scrubbed JSON, made once per API: thousands of tools name the
    // same few (Microsoft Graph's `user`, with hundreds of properties).
    let definitions: Vec<Definitions<'_>> = entries
        .iter()
        .map(|entry| Definitions {
            api: entry.api,
            made: RefCell::default(),
        })
        .collect();
    let mut tools: Vec<Tool<'_>> = Vec::new();
    for (place, ((entry, meta), definitions)) in
        entries.iter().zip(&api_meta).zip(&definitions).enumerate()
    {
        tools.extend(
            entry
                .plans
                .iter()
                .enumerate()
                .filter(|(_, p)| p.exposed)
                .map(|(i, p)| (p, (place, i), meta, definitions)),
        );
    }
    tools.sort_by(|a, b| a.0.name.cmp(&b.0.name));
    let docs: Vec<Document> = tools
        .iter()
        .map(|(plan, _, api_meta, definitions)| {
            Document::from_tool(&ToolTexts {
                name: &plan.name,
                title: &plan.title,
                description: &plan.description,
                input_schema: &plan.input_schema,
                output_schema: plan.output_schema.as_ref().unwrap_or(&Value::Null),
                definition: &|name| definitions.get(name),
                meta: &plan.meta,
                method: plan.method.as_str(),
                path: &plan.path,
                api_meta,
                links: &[],
            })
        })
        .collect();
    let places = tools.iter().map(|(_, place, _, _)| *place).collect();
    // Tens of thousands of small allocations on a large catalog: freed off the way.
    drop(tools);
    let made: Vec<_> = definitions
        .into_iter()
        .map(|d| d.made.into_inner())
        .collect();
    crate::memory::drop_later(made);
    let mut analyser = Analyser::new(Techniques::DEFAULT);
    let weighed = docs.iter().map(|doc| analyser.weigh(doc)).collect();
    Documents {
        docs,
        places,
        weighed,
        analyser,
    }
}

/// The index bytes over `documents`, once `entries`' contracts are in: each document
/// given the operations its contract links to, and the summaries of the tools it
/// links to or is linked from.
pub fn index(entries: &[ApiEntry<'_>], documents: Documents) -> Vec<u8> {
    let Documents {
        mut docs,
        places,
        weighed,
        analyser,
    } = documents;
    for (doc, &(api, operation)) in docs.iter_mut().zip(&places) {
        // Contracts are computed for every operation; a missing one (never) links none.
        if let Some(contract) = entries[api].contracts.get().and_then(|c| c.get(operation)) {
            doc.links.clone_from(&contract.links);
        }
    }
    Document::link_neighbours(&mut docs);
    let mut builder = IndexBuilder::with_analyser(analyser);
    for (doc, weighed) in docs.iter().zip(weighed) {
        builder.add_weighed(weighed, &doc.neighbours);
    }
    let (bytes, held) = builder.build_leaving();
    // Millions of small allocations on a large catalog: freed off the way.
    crate::memory::drop_later((docs, held));
    bytes
}

/// A tool as its document is read: its plan, where its contract will be (its API's and
/// operation's positions), its API's metadata and definitions.
type Tool<'a> = (
    &'a super::plan::ToolPlan,
    (usize, usize),
    &'a Value,
    &'a Definitions<'a>,
);

/// An API's definitions as the index reads them (output JSON, scrubbed), each made on
/// first use.
struct Definitions<'a> {
    api: &'a crate::ir::Api,
    made: RefCell<HashMap<String, Option<Value>>>,
}

impl Definitions<'_> {
    fn get(&self, name: &str) -> Option<Value> {
        if let Some(made) = self.made.borrow().get(name) {
            return made.clone();
        }
        let json = self.api.definitions.get(name).map(|def| {
            let mut json = def.to_json(crate::ir::Direction::Output);
            toolwright_query::redact::value(&mut json, &mut std::collections::BTreeSet::new());
            json
        });
        self.made.borrow_mut().insert(name.to_owned(), json.clone());
        json
    }
}
