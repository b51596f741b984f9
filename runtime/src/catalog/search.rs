//! Retrieval over a catalog: the index the generator embedded, or one built from the
//! tools on first use (catalogs made in code, merged or selected).

use std::sync::{Arc, OnceLock};

use serde_json::Value;
use toolwright_query::{Document, Index, IndexBuilder, Techniques, ToolTexts};

use super::{Catalog, Tool};

/// A catalog's index: embedded by the generator, or built lazily.
#[derive(Clone)]
pub(super) struct Slot {
    embedded: Option<&'static [u8]>,
    /// Whether `embedded` passed `Index::new` and fits the tools (checked once: the
    /// full check is linear in the index's size).
    usable: OnceLock<bool>,
    built: OnceLock<Arc<[u8]>>,
}

impl std::fmt::Debug for Slot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Not the bytes (hundreds of kilobytes for a large catalog).
        let bytes = self
            .embedded
            .map(<[u8]>::len)
            .or(self.built.get().map(|b| b.len()));
        f.debug_struct("SearchIndex")
            .field("embedded", &self.embedded.is_some())
            .field("bytes", &bytes)
            .finish()
    }
}

impl Slot {
    pub(super) const fn new() -> Slot {
        Slot {
            embedded: None,
            usable: OnceLock::new(),
            built: OnceLock::new(),
        }
    }

    pub(super) const fn embedded(bytes: &'static [u8]) -> Slot {
        Slot {
            embedded: Some(bytes),
            usable: OnceLock::new(),
            built: OnceLock::new(),
        }
    }
}

/// One search result.
#[derive(Debug, Clone, Copy)]
pub struct SearchHit<'a> {
    pub tool: &'a Tool,
    /// BM25 units: only the order means something.
    pub score: f32,
}

impl Catalog {
    /// A generated catalog with the search index the generator built for it (bytes of
    /// `toolwright_query::IndexBuilder::build`). An index that does not fit the tools is
    /// never used: the catalog builds its own on first search instead.
    #[must_use]
    pub fn with_search_index(mut self, bytes: &'static [u8]) -> Catalog {
        self.search = Slot::embedded(bytes);
        self
    }

    /// The `k` tools that best match `query` (what a person or a model would ask: "open a
    /// new bug report in a project"), best first.
    pub fn search(&self, query: &str, k: usize) -> Vec<SearchHit<'_>> {
        let tools = self.tools();
        self.index()
            .search(query, k)
            .into_iter()
            .filter_map(|hit| {
                Some(SearchHit {
                    tool: tools.get(hit.doc)?,
                    score: hit.score,
                })
            })
            .collect()
    }

    /// The index searches use.
    pub fn search_index(&self) -> Index<'_> {
        self.index()
    }

    fn index(&self) -> Index<'_> {
        if let Some(bytes) = self.search.embedded {
            let usable = *self.search.usable.get_or_init(|| {
                Index::new(bytes).is_ok_and(|index| index.len() == self.tools().len())
            });
            if usable && let Ok(index) = Index::open(bytes) {
                return index;
            }
        }
        let bytes = self
            .search
            .built
            .get_or_init(|| build(self, Techniques::DEFAULT).into());
        // Built here from this catalog's tools: well-formed by construction.
        Index::open(bytes).unwrap_or_else(|_| empty())
    }
}

/// An index of nothing (never used in practice: what this catalog builds always reads).
fn empty() -> Index<'static> {
    static EMPTY: std::sync::LazyLock<Vec<u8>> =
        std::sync::LazyLock::new(|| IndexBuilder::new(Techniques::DEFAULT).build());
    match Index::open(&EMPTY) {
        Ok(index) => index,
        Err(_) => unreachable!("the builder writes what the reader reads"),
    }
}

/// Every tool's retrieval document, in catalog order.
pub fn documents(catalog: &Catalog) -> Vec<Document> {
    // Each API's metadata parsed once (an OpenAPI document's can be large).
    let api_meta: std::collections::BTreeMap<&str, Value> = catalog
        .apis()
        .iter()
        .map(|api| (api.name.as_ref(), api.meta_json()))
        .collect();
    let mut docs: Vec<Document> = catalog
        .tools()
        .iter()
        .map(|tool| {
            let meta = api_meta.get(tool.operation.api.as_ref());
            document(tool, meta.unwrap_or(&Value::Null))
        })
        .collect();
    Document::link_neighbours(&mut docs);
    docs
}

/// The index bytes for `catalog` under `techniques` (what the generator embeds, for
/// the default techniques).
pub fn build(catalog: &Catalog, techniques: Techniques) -> Vec<u8> {
    let mut builder = IndexBuilder::new(techniques);
    for doc in documents(catalog) {
        builder.add(&doc);
    }
    builder.build()
}

fn document(tool: &Tool, api_meta: &Value) -> Document {
    let parse = |text: Option<&str>| -> Value {
        text.and_then(|t| serde_json::from_str(t).ok())
            .unwrap_or_default()
    };
    Document::from_tool(&ToolTexts {
        name: &tool.name,
        title: &tool.title,
        description: &tool.description,
        input_schema: &parse(Some(&tool.input_schema)),
        meta: &parse(tool.meta.as_deref()),
        method: tool.operation.method.as_str(),
        path: &tool.operation.path,
        api_meta,
        contract: tool
            .contract
            .is_some()
            .then(|| parse(tool.contract.as_deref()))
            .as_ref(),
    })
}
