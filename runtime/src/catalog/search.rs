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
    /// BM25 units ([`Catalog::search_fused`]: reciprocal-rank sums; reranked: the
    /// lexical score, out of order): only the order means something.
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
        self.hits(self.index().search(query, k))
    }

    /// [`Catalog::search`] for a request written in `language`, which may be another
    /// than the catalog's (`toolwright::query::search::language::by_code("de")`, with
    /// the feature `languages`): the request's stop words are dropped as well as the
    /// catalog's, and its words are looked up as both languages stem them. Nothing is
    /// translated: what meets an English catalog is what the languages share
    /// (loanwords, names, values).
    pub fn search_in(
        &self,
        query: &str,
        k: usize,
        language: &toolwright_query::search::Language,
    ) -> Vec<SearchHit<'_>> {
        self.hits(self.index().search_in(query, k, language))
    }

    /// The tools of an index's hits.
    fn hits(&self, hits: Vec<toolwright_query::Hit>) -> Vec<SearchHit<'_>> {
        let tools = self.tools();
        hits.into_iter()
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
                let tools = self.tools().len();
                // `Index::new` checks the header (language, analysis) as `open` does.
                let refusal = match Index::new(bytes) {
                    Err(e) => Some(e.to_string()),
                    Ok(index) if index.len() != tools => Some(format!(
                        "it indexes {} tools, the catalog has {tools}",
                        index.len()
                    )),
                    Ok(_) => None,
                };
                // Said once: a stale or foreign index costs a build on first search
                // (and the build's memory), which a service should hear about.
                #[cfg(feature = "tracing")]
                if let Some(reason) = &refusal {
                    tracing::warn!(
                        target: "toolwright::search",
                        "the embedded search index is not used ({reason}); one is built from the tools"
                    );
                }
                refusal.is_none()
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
            document(catalog, tool, meta.unwrap_or(&Value::Null))
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

fn document(catalog: &Catalog, tool: &Tool, api_meta: &Value) -> Document {
    let parse = |text: Option<&str>| -> Value {
        text.and_then(|t| serde_json::from_str(t).ok())
            .unwrap_or_default()
    };
    Document::from_tool(&ToolTexts {
        name: &tool.name,
        title: &tool.title,
        description: &tool.description,
        input_schema: &parse(Some(&tool.input_schema)),
        output_schema: &parse(tool.output_schema.as_deref()),
        definition: &|name| {
            let api = catalog.api(&tool.operation.api)?;
            let def = api.definitions.iter().find(|d| d.name == name)?;
            serde_json::from_str(&def.output).ok()
        },
        meta: &parse(tool.meta.as_deref()),
        method: tool.operation.method.as_str(),
        path: &tool.operation.path,
        api_meta,
        links: &tool
            .contract
            .as_deref()
            .map(|c| toolwright_query::contract_links(&parse(Some(c))))
            .unwrap_or_default(),
    })
}

/// A dense sentence embedding a service brings (a local model, an embedding API): the
/// default build needs none. See [`Catalog::search_fused`]; a model that reads the
/// candidates and reorders them instead is a [`Reranker`](super::Reranker).
pub trait Embedder {
    /// One vector per text, all of one length.
    fn embed(&self, texts: &[&str]) -> Vec<Vec<f32>>;
}

/// Every tool's embedding (its name and summary), in catalog order; build once with
/// [`DenseIndex::new`] and keep it with the catalog.
#[derive(Debug, Clone)]
pub struct DenseIndex {
    vectors: Vec<Vec<f32>>,
}

impl DenseIndex {
    pub fn new(catalog: &Catalog, embedder: &dyn Embedder) -> DenseIndex {
        let texts: Vec<String> = catalog
            .tools()
            .iter()
            .map(|t| {
                let summary = t.description.lines().next().unwrap_or_default();
                format!("{}: {summary}", t.title)
            })
            .collect();
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let mut vectors = embedder.embed(&refs);
        vectors.iter_mut().for_each(|v| normalise(v));
        DenseIndex { vectors }
    }
}

fn normalise(v: &mut [f32]) {
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        v.iter_mut().for_each(|x| *x /= norm);
    }
}

/// Reciprocal-rank fusion's constant (the usual 60: ranks matter, scores do not).
const RRF_K: f32 = 60.0;
/// How deep each ranking goes into the fusion.
const FUSION_DEPTH: usize = 50;

impl Catalog {
    /// [`Catalog::search`] fused with a dense embedding by reciprocal rank: each tool
    /// scores `Σ 1 / (60 + rank)` over the BM25 ranking and the cosine ranking (the top
    /// 50 of each). `dense` must come from this catalog ([`DenseIndex::new`]); one that
    /// does not fit its tools is ignored (BM25 alone).
    pub fn search_fused(
        &self,
        query: &str,
        k: usize,
        embedder: &dyn Embedder,
        dense: &DenseIndex,
    ) -> Vec<SearchHit<'_>> {
        let tools = self.tools();
        let lexical = self.index().search(query, FUSION_DEPTH);
        let mut fused = vec![0.0f32; tools.len()];
        for (rank, hit) in lexical.iter().enumerate() {
            if let Some(slot) = fused.get_mut(hit.doc) {
                *slot += 1.0 / (RRF_K + rank as f32 + 1.0);
            }
        }
        let query_vector = embedder.embed(&[query]).into_iter().next();
        if let Some(mut q) = query_vector.filter(|_| dense.vectors.len() == tools.len()) {
            normalise(&mut q);
            let mut cosine: Vec<(usize, f32)> = dense
                .vectors
                .iter()
                .enumerate()
                .filter(|(_, v)| v.len() == q.len())
                .map(|(i, v)| (i, v.iter().zip(&q).map(|(a, b)| a * b).sum()))
                .collect();
            cosine.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            for (rank, (doc, _)) in cosine.iter().take(FUSION_DEPTH).enumerate() {
                fused[*doc] += 1.0 / (RRF_K + rank as f32 + 1.0);
            }
        }
        let mut hits: Vec<SearchHit<'_>> = fused
            .iter()
            .enumerate()
            .filter(|(_, s)| **s > 0.0)
            .map(|(doc, &score)| SearchHit {
                tool: &tools[doc],
                score,
            })
            .collect();
        hits.sort_by(|a, b| {
            b.score
                .total_cmp(&a.score)
                .then(a.tool.name.cmp(&b.tool.name))
        });
        hits.truncate(k);
        hits
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Annotations;
    use crate::descriptor::{BodyEncoding, Method, Operation};

    fn tool(name: &str, description: &str) -> Tool {
        Tool {
            name: name.to_owned().into(),
            title: name.replace('_', " ").into(),
            description: description.to_owned().into(),
            input_schema: r#"{"type":"object"}"#.into(),
            output_schema: None,
            annotations: Annotations {
                read_only: true,
                destructive: false,
                idempotent: true,
                open_world: true,
            },
            meta: None,
            operation: std::borrow::Cow::Owned(Operation {
                name: name.to_owned().into(),
                api: "api".into(),
                method: Method::Get,
                path: format!("/{name}").into(),
                params: std::borrow::Cow::Borrowed(&[]),
                body: BodyEncoding::Json,
                content_type: "application/json".into(),
                body_required: false,
                security: std::borrow::Cow::Borrowed(&[]),
                wrap_output: false,
                json_response: true,
                graphql: None,
                workflow: None,
            }),
            contract: None,
        }
    }

    /// A stand-in for a sentence embedding: one dimension per concept it knows, so a
    /// query and a tool that share no word can still be near ("forecast" ~ "rain").
    struct Concepts;

    impl Embedder for Concepts {
        fn embed(&self, texts: &[&str]) -> Vec<Vec<f32>> {
            let concepts: [&[&str]; 3] = [
                &["rain", "forecast", "weather", "umbrella"],
                &["invoice", "bill"],
                &["song", "music"],
            ];
            texts
                .iter()
                .map(|t| {
                    let t = t.to_lowercase();
                    concepts
                        .iter()
                        .map(|words| words.iter().filter(|w| t.contains(*w)).count() as f32)
                        .collect()
                })
                .collect()
        }
    }

    #[test]
    fn fusion_brings_in_what_only_the_embedding_knows() {
        let catalog = Catalog::from_tools(
            vec![
                tool("get_forecast", "Weather forecast for a city"),
                tool("list_invoices", "List invoices"),
                tool("play_song", "Play a song"),
            ],
            Vec::new(),
        )
        .unwrap();
        // No shared word: BM25 alone finds nothing.
        assert!(catalog.search("do I need an umbrella", 3).is_empty());
        let dense = DenseIndex::new(&catalog, &Concepts);
        let hits = catalog.search_fused("do I need an umbrella", 3, &Concepts, &dense);
        assert_eq!(hits[0].tool.name, "get_forecast");
        // Both rankings agree: still first.
        let hits = catalog.search_fused("list the invoices", 3, &Concepts, &dense);
        assert_eq!(hits[0].tool.name, "list_invoices");
        // A dense index of another catalog is ignored, not misread.
        let other = DenseIndex::new(&Catalog::empty(), &Concepts);
        let hits = catalog.search_fused("list the invoices", 3, &Concepts, &other);
        assert_eq!(hits[0].tool.name, "list_invoices");
    }
}
