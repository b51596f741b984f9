//! Scoring a request's slots against the index: every document its words find, with
//! its score, and the best `k` of them. The search's hot path (on GitHub's 1,223 tools a
//! request reads a few thousand postings), so the per-document tallies live in a
//! thread's scratch space between searches and the inner loops carry no branch a
//! posting's document could mislead.

use super::format::PostingList;
use super::{Hit, Index, NAME, NAME_WEIGHT, PARAM, Slots, Term};

/// How a search scores what its slots found.
#[derive(Clone, Copy)]
pub(super) struct Scoring {
    /// [`super::Techniques::COVERAGE`].
    pub(super) coverage: bool,
    /// [`super::Techniques::NAMES`].
    pub(super) names: bool,
    /// Markers whose tools' scores are scaled by these ([`super::Techniques::AGREEMENT`],
    /// [`super::Techniques::DEPRECATED`]).
    pub(super) scale: [Option<(&'static str, f32)>; 2],
}

/// Per-document tallies of one search, all zero between searches.
#[derive(Default)]
struct Scratch {
    total: Vec<f32>,
    matched: Vec<u16>,
    best: Vec<f32>,
    touched: Marks,
    found: Marks,
}

/// Documents listed once each, into a buffer sized for every document: listing one is
/// a store and an add, not a branch. Which documents a posting list adds first is as
/// good as random, so a branch per posting missed its guess about half the time.
#[derive(Default)]
struct Marks {
    docs: Vec<u32>,
    len: usize,
}

impl Marks {
    /// Empty, with room for `n` documents.
    fn reset(&mut self, n: usize) {
        if self.docs.len() <= n {
            self.docs.resize(n + 1, 0);
        }
        self.len = 0;
    }

    /// Lists `doc` where `new`. Past room for every document (only in an index whose
    /// lists repeat a document, which `IndexBuilder` never writes) it is dropped.
    #[inline(always)]
    fn mark(&mut self, doc: u32, new: bool) {
        if let Some(at) = self.docs.get_mut(self.len) {
            *at = doc;
            self.len += usize::from(new);
        }
    }

    /// Adds each posting's `weight` × impact into `tallies[doc]` (where `max`, keeps
    /// the larger of the two instead), listing each document whose tally was zero. The
    /// search's inner loop: the choice made once per list, no branch per posting but
    /// the bounds checks, and the count kept in a register.
    #[inline(always)]
    fn gather(
        &mut self,
        postings: impl Iterator<Item = (u32, f32)>,
        weight: f32,
        max: bool,
        tallies: &mut [f32],
    ) {
        let (docs, mut len) = (&mut self.docs[..], self.len);
        if max {
            for (doc, impact) in postings {
                // In range in any index `Index::new` accepted; never a panic.
                if let (Some(slot), Some(at)) = (tallies.get_mut(doc as usize), docs.get_mut(len)) {
                    let (score, was) = (weight * impact, *slot);
                    *at = doc;
                    len += usize::from(was == 0.0);
                    // `max` without its NaN cases (no score is NaN).
                    *slot = if score > was { score } else { was };
                }
            }
        } else {
            for (doc, impact) in postings {
                if let (Some(slot), Some(at)) = (tallies.get_mut(doc as usize), docs.get_mut(len)) {
                    let was = *slot;
                    *at = doc;
                    len += usize::from(was == 0.0);
                    *slot = was + weight * impact;
                }
            }
        }
        self.len = len;
    }

    fn as_slice(&self) -> &[u32] {
        &self.docs[..self.len]
    }
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}

impl Index<'_> {
    /// The `k` best documents the core words find, with their scores, best first
    /// (ties: catalog order).
    pub(super) fn tally(&self, slots: &Slots<'_>, scoring: &Scoring, k: usize) -> Vec<Hit> {
        // The per-document tallies live in this thread's scratch space between
        // searches and only the documents found are visited and zeroed again
        // (allocating, zeroing and scanning them per search cost a sixth of its time on
        // GitHub's catalog); a search inside a search (none today) gets its own.
        SCRATCH.with(|cell| match cell.try_borrow_mut() {
            Ok(mut scratch) => self.tally_in(slots, scoring, k, &mut scratch),
            Err(_) => self.tally_in(slots, scoring, k, &mut Scratch::default()),
        })
    }

    fn tally_in(
        &self,
        slots: &Slots<'_>,
        scoring: &Scoring,
        k: usize,
        scratch: &mut Scratch,
    ) -> Vec<Hit> {
        let Scoring {
            coverage,
            names,
            scale,
        } = *scoring;
        let (words, core) = (&slots.terms, slots.core);
        let n = self.len();
        for tallies in [&mut scratch.total, &mut scratch.best] {
            if tallies.len() < n {
                tallies.resize(n, 0.0);
            }
        }
        if scratch.matched.len() < n {
            scratch.matched.resize(n, 0);
        }
        let Scratch {
            total,
            matched,
            best,
            touched,
            found,
        } = scratch;
        // This catalog's documents only: a posting past them is skipped, never counted.
        let (total, matched, best) = (&mut total[..n], &mut matched[..n], &mut best[..n]);
        found.reset(n);
        for (i, terms) in words.iter().enumerate() {
            let auxiliary = i >= core;
            if auxiliary && self.rank_found(terms, coverage, found.as_slice(), total, matched) {
                continue;
            }
            touched.reset(n);
            for (term, weight) in terms {
                let Some(postings) = self.postings(term) else {
                    continue;
                };
                touched.gather(postings, *weight, coverage, best);
            }
            for &doc in touched.as_slice() {
                let d = doc as usize;
                if auxiliary && matched[d] == 0 {
                    best[d] = 0.0;
                    continue;
                }
                found.mark(doc, matched[d] == 0);
                total[d] += best[d];
                matched[d] += 1;
                best[d] = 0.0;
            }
        }
        if names {
            // `best` is all zero again here: it takes each tool's share of its name
            // that the query's terms explain.
            let mut marker = String::new();
            // Each name marker once (by its id: numbers, not strings, to compare).
            let mut looked: Vec<usize> = Vec::with_capacity(64);
            // Every core term, values' too: `octo-org/widgets` explains "repo".
            for (term, _) in words[..core].iter().flatten() {
                let term = term.strip_prefix(PARAM).unwrap_or(term);
                marker.clear();
                marker.push(NAME);
                marker.push_str(term);
                let Some(id) = self.find(&marker) else {
                    continue;
                };
                if looked.contains(&id) {
                    continue;
                }
                looked.push(id);
                for (doc, share) in self.postings_of(id) {
                    let d = doc as usize;
                    if matched.get(d).is_some_and(|m| *m > 0) {
                        best[d] += share;
                    }
                }
            }
        }
        // The tools a marker names have their scores scaled (only those found).
        for (marker, factor) in scale.into_iter().flatten() {
            let Some(postings) = self.postings(marker) else {
                continue;
            };
            for (doc, _) in postings {
                if let Some(score) = total.get_mut(doc as usize) {
                    *score *= factor;
                }
            }
        }
        let words = words.len() as f32;
        let found = found.as_slice();
        let mut hits = Best::new(k, found.len());
        for &doc in found {
            let d = doc as usize;
            let mut score = total[d];
            if names {
                score *= 1.0 - NAME_WEIGHT + NAME_WEIGHT * best[d].min(1.0);
                best[d] = 0.0;
            }
            if score > 0.0 {
                hits.offer(Hit {
                    doc: d,
                    score: if coverage {
                        // Matching every word of the query beats matching one very well.
                        score * f32::from(matched[d]) / words
                    } else {
                        score
                    },
                });
            }
            // Zero again for the next search.
            total[d] = 0.0;
            matched[d] = 0;
        }
        hits.ranked()
    }

    /// An auxiliary slot ranks only the tools already found: where they are few and its
    /// terms' lists long ("get", "list" for a question), each is looked up in the lists
    /// instead of scanning them. Returns false, having done nothing, where a scan is
    /// cheaper.
    fn rank_found(
        &self,
        terms: &[Term<'_>],
        coverage: bool,
        found: &[u32],
        total: &mut [f32],
        matched: &mut [u16],
    ) -> bool {
        let lists: Vec<(PostingList<'_>, f32)> = terms
            .iter()
            .filter_map(|(term, weight)| Some((self.posting_list(term)?, *weight)))
            .collect();
        let scanned: usize = lists.iter().map(|(list, _)| list.len()).sum();
        let searches = found.len() * lists.len() * (usize::BITS - scanned.leading_zeros()) as usize;
        if searches >= scanned {
            return false;
        }
        for &doc in found {
            let d = doc as usize;
            let mut best: Option<f32> = None;
            for (list, weight) in &lists {
                if let Some(impact) = list.impact(doc) {
                    let score = weight * impact;
                    best = Some(match best {
                        Some(b) if coverage => b.max(score),
                        Some(b) => b + score,
                        None => score,
                    });
                }
            }
            if let (Some(best), Some(t), Some(m)) = (best, total.get_mut(d), matched.get_mut(d)) {
                *t += best;
                *m += 1;
            }
        }
        true
    }
}

/// The best `k` of the hits offered, best first (ties: catalog order).
struct Best {
    k: usize,
    hits: Vec<Hit>,
    /// Whether `hits` holds only the best so far, in order (a few of many) rather than
    /// every hit, to select from at the end.
    kept_in_order: bool,
}

impl Best {
    /// For the best `k` of up to `offers` hits.
    fn new(k: usize, offers: usize) -> Best {
        // A model's top 5 or 10 of a thousand tools found: one comparison with the
        // worst kept for most hits (selecting among all of them took a sixteenth of
        // the search). Many of few: selecting at the end costs less than inserting.
        let kept_in_order = k.saturating_mul(16) < offers;
        Best {
            k,
            hits: Vec::with_capacity(if kept_in_order { k + 1 } else { offers }),
            kept_in_order,
        }
    }

    fn offer(&mut self, hit: Hit) {
        if !self.kept_in_order {
            self.hits.push(hit);
            return;
        }
        if self.hits.len() == self.k
            && self.hits.last().is_some_and(|worst| {
                // Most hits score lower than the worst kept: one float comparison.
                hit.score < worst.score || by_rank(&hit, worst).is_ge()
            })
        {
            return;
        }
        let at = self
            .hits
            .partition_point(|kept| by_rank(kept, &hit).is_lt());
        self.hits.insert(at, hit);
        self.hits.truncate(self.k);
    }

    fn ranked(self) -> Vec<Hit> {
        let Best { k, mut hits, .. } = self;
        if k < hits.len() {
            hits.select_nth_unstable_by(k, by_rank);
            hits.truncate(k);
        }
        // Already in order where kept in order; sorting a sorted few is a pass.
        hits.sort_by(by_rank);
        hits
    }
}

/// Higher scores first, then catalog order.
fn by_rank(a: &Hit, b: &Hit) -> std::cmp::Ordering {
    b.score.total_cmp(&a.score).then(a.doc.cmp(&b.doc))
}
