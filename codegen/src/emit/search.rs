//! The catalog's retrieval index, built here from the same texts the catalog holds so
//! that a service never builds one at start-up (the runtime builds the identical index
//! from a `Catalog` when it has none, e.g. after `Catalog::select`).

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use serde_json::Value;
use toolwright_query::{Document, IndexBuilder, Techniques, ToolTexts};

use super::catalog::ApiEntry;

/// The index bytes over every exposed tool, in catalog order (sorted by name).
pub fn index(entries: &[ApiEntry<'_>]) -> Vec<u8> {
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
            made: Mutex::default(),
        })
        .collect();
    let mut tools: Vec<Tool<'_>> = Vec::new();
    for ((entry, meta), definitions) in entries.iter().zip(&api_meta).zip(&definitions) {
        tools.extend(
            entry
                .plans_with_contracts()
                .filter(|(p, _)| p.exposed)
                .map(|(p, c)| (p, c, meta, definitions)),
        );
    }
    tools.sort_by(|a, b| a.0.name.cmp(&b.0.name));
    let documents = |tools: &[Tool<'_>]| -> Vec<Document> {
        tools
            .iter()
            .map(|(plan, contract, api_meta, definitions)| {
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
                    links: &contract.links,
                })
            })
            .collect()
    };
    // Each tool's document reads only its own texts.
    let mut docs = crate::halves::in_halves(&tools, 256, documents);
    Document::link_neighbours(&mut docs);
    let mut builder = IndexBuilder::new(Techniques::DEFAULT);
    for doc in &docs {
        builder.add(doc);
    }
    let bytes = builder.build();
    // Tens of thousands of small allocations on a large catalog: freed off the way,
    // with the definitions' JSON.
    drop(tools);
    let made: Vec<_> = definitions
        .into_iter()
        .map(|d| d.made.into_inner().unwrap_or_else(PoisonError::into_inner))
        .collect();
    crate::memory::drop_later((docs, made));
    bytes
}

/// A tool as its document is read: its plan, its contract, its API's metadata and
/// definitions.
type Tool<'a> = (
    &'a super::plan::ToolPlan,
    &'a super::ToolContract,
    &'a Value,
    &'a Definitions<'a>,
);

/// An API's definitions as the index reads them (output JSON, scrubbed), each made on
/// first use (by either of the threads that read the documents).
struct Definitions<'a> {
    api: &'a crate::ir::Api,
    made: Mutex<HashMap<String, Option<Value>>>,
}

impl Definitions<'_> {
    fn get(&self, name: &str) -> Option<Value> {
        if let Some(made) = self.lock().get(name) {
            return made.clone();
        }
        let json = self.api.definitions.get(name).map(|def| {
            let mut json = def.to_json(crate::ir::Direction::Output);
            toolwright_query::redact::value(&mut json, &mut std::collections::BTreeSet::new());
            json
        });
        self.lock().insert(name.to_owned(), json.clone());
        json
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Option<Value>>> {
        // A cache: what a panicking thread left in it is still right.
        self.made.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
