//! The fusion rows: a sentence model's vectors, computed beforehand by
//! `benches/retrieval/embed.py`, served through the runtime's [`Embedder`] hook so that
//! [`Catalog::search_fused`] runs exactly as a service would run it.
//!
//! The model runs outside this program because the default build ships none; what this
//! program needs to know is which texts the runtime asks to embed, so it first records
//! them ([`texts`]) and later answers them from the file ([`Vectors`]).

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use toolwright::Catalog;
use toolwright::catalog::{DenseIndex, Embedder};

/// Writes every text fusion embeds for these catalogs and queries, one a line: each
/// tool's text as [`DenseIndex::new`] builds it, then each query.
pub fn texts(
    loaded: &BTreeMap<String, Catalog>,
    queries: &[Vec<String>],
    out: &Path,
) -> Result<(), String> {
    let recorder = Recorder::default();
    for catalog in loaded.values() {
        DenseIndex::new(catalog, &recorder);
    }
    let mut lines = recorder.0.into_inner();
    lines.extend(queries.iter().map(|q| q[1].clone()));
    if let Some(bad) = lines.iter().find(|l| l.contains('\n')) {
        return Err(format!("a text to embed spans lines: {bad:?}"));
    }
    lines.sort();
    lines.dedup();
    std::fs::write(out, lines.join("\n") + "\n").map_err(|e| format!("{}: {e}", out.display()))
}

/// Collects the texts it is asked to embed and answers with no vectors.
#[derive(Default)]
struct Recorder(RefCell<Vec<String>>);

impl Embedder for Recorder {
    fn embed(&self, texts: &[&str]) -> Vec<Vec<f32>> {
        self.0
            .borrow_mut()
            .extend(texts.iter().map(|t| (*t).to_owned()));
        texts.iter().map(|_| Vec::new()).collect()
    }
}

/// The vectors `embed.py` wrote, looked up by their text. A text it did not embed is
/// counted in `missing` (and gets no vector, which fusion ignores).
pub struct Vectors {
    by_text: HashMap<String, Vec<f32>>,
    pub missing: RefCell<usize>,
}

impl Vectors {
    pub fn read(path: &Path) -> Result<Vectors, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut by_text = HashMap::new();
        for (n, line) in text.lines().enumerate() {
            #[derive(serde::Deserialize)]
            struct Line {
                text: String,
                vector: Vec<f32>,
            }
            let row: Line = serde_json::from_str(line)
                .map_err(|e| format!("{}:{}: {e}", path.display(), n + 1))?;
            by_text.insert(row.text, row.vector);
        }
        Ok(Vectors {
            by_text,
            missing: RefCell::new(0),
        })
    }

    /// The catalog's dense index, and the same tool vectors kept here for the
    /// cosine-only row (normalised, in catalog order).
    pub fn index(&self, catalog: &Catalog) -> (DenseIndex, Vec<Vec<f32>>) {
        let kept = Keeping(self, RefCell::default());
        let index = DenseIndex::new(catalog, &kept);
        let mut vectors = kept.1.into_inner();
        vectors.iter_mut().for_each(|v| normalise(v));
        (index, vectors)
    }

    /// The rank of the first of `expected` among all tools by cosine alone (0-based,
    /// `None` past the top 10).
    pub fn dense_rank(
        &self,
        catalog: &Catalog,
        tool_vectors: &[Vec<f32>],
        query: &str,
        expected: &[&str],
    ) -> Option<usize> {
        let mut q = self.embed(&[query]).pop().unwrap_or_default();
        normalise(&mut q);
        let mut scored: Vec<(usize, f32)> = tool_vectors
            .iter()
            .enumerate()
            .map(|(doc, v)| (doc, v.iter().zip(&q).map(|(a, b)| a * b).sum()))
            .collect();
        scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        scored
            .iter()
            .take(10)
            .position(|(doc, _)| expected.contains(&catalog.tools()[*doc].name.as_ref()))
    }
}

/// Answers from the file and keeps a copy of every vector it hands out.
struct Keeping<'a>(&'a Vectors, RefCell<Vec<Vec<f32>>>);

impl Embedder for Keeping<'_> {
    fn embed(&self, texts: &[&str]) -> Vec<Vec<f32>> {
        let vectors = self.0.embed(texts);
        self.1.borrow_mut().extend(vectors.iter().cloned());
        vectors
    }
}

fn normalise(v: &mut [f32]) {
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        v.iter_mut().for_each(|x| *x /= norm);
    }
}

impl Embedder for Vectors {
    fn embed(&self, texts: &[&str]) -> Vec<Vec<f32>> {
        texts
            .iter()
            .map(|t| {
                self.by_text.get(*t).cloned().unwrap_or_else(|| {
                    *self.missing.borrow_mut() += 1;
                    Vec::new()
                })
            })
            .collect()
    }
}
