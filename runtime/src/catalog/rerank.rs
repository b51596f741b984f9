//! The last ranker: a model the service brings (a local cross-encoder, an LLM behind an
//! API) reorders the lexical search's top candidates, reading each as its compact line.
//! The lexical ranker finds what shares words with the request; a model can also know
//! that a leaked cloud key is a matter for secret scanning. None ships with toolwright.

use std::future::Future;
use std::pin::Pin;

use super::{Catalog, SearchHit, compact};

/// Candidates the lexical ranker hands a [`Reranker`] (more when more results are
/// asked for): the compact list's length, what a model reads in one go.
pub const DEPTH: usize = compact::LIMIT;

/// What [`Reranker::rerank`] returns: tool names, best first.
pub type Reranked<'a> = Pin<Box<dyn Future<Output = Vec<String>> + Send + 'a>>;

/// One candidate shown to a [`Reranker`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// The tool's name in the catalog: what the reranker answers with.
    pub name: String,
    /// Its compact line (`name: summary`, see [`compact::line`]).
    pub line: String,
}

/// A model that reorders search candidates for a request. Plug one into
/// [`Catalog::search_reranked`], or into an executor with
/// [`ExecutorBuilder::reranker`](crate::ExecutorBuilder::reranker) so that
/// `search_tools` (from [`Executor::call_meta`](crate::Executor::call_meta) and the MCP
/// server's meta mode) and [`Executor::search`](crate::Executor::search) use it.
///
/// It answers with names, best first, as a model would. What it returns is read
/// leniently: names that are not candidates and repeats are skipped, and candidates it
/// leaves out follow the ones it named, in their lexical order — a reranker can
/// reorder and promote, never lose a tool or invent one.
///
/// The future is awaited on the caller's task: a remote model is called with an async
/// client, and a local model that computes for long should run on a blocking thread
/// (`tokio::task::spawn_blocking`) inside the future.
///
/// ```
/// use toolwright::catalog::rerank::{Candidate, Reranked, Reranker};
///
/// /// Puts tools whose name mentions "issue" first (a stand-in for a model).
/// struct IssuesFirst;
///
/// impl Reranker for IssuesFirst {
///     fn rerank<'a>(&'a self, _query: &'a str, candidates: &'a [Candidate]) -> Reranked<'a> {
///         let mut names: Vec<String> = candidates.iter().map(|c| c.name.clone()).collect();
///         names.sort_by_key(|n| !n.contains("issue"));
///         Box::pin(std::future::ready(names))
///     }
/// }
/// ```
pub trait Reranker: Send + Sync {
    /// `candidates` (the lexical top, best first) reordered for `query`, as names.
    fn rerank<'a>(&'a self, query: &'a str, candidates: &'a [Candidate]) -> Reranked<'a>;
}

impl Catalog {
    /// [`Catalog::search`]'s top [`DEPTH`] (or `k`, when more) reordered by `reranker`,
    /// then the first `k`. Scores stay the lexical ones; only the order is the
    /// reranker's (see [`Reranker`] for how its answer is read).
    pub async fn search_reranked(
        &self,
        query: &str,
        k: usize,
        reranker: &dyn Reranker,
    ) -> Vec<SearchHit<'_>> {
        let hits = self.search(query, k.max(DEPTH));
        if hits.is_empty() {
            return hits;
        }
        let candidates: Vec<Candidate> = hits
            .iter()
            .map(|hit| Candidate {
                name: hit.tool.name.to_string(),
                line: compact::line(&hit.tool.name, hit.tool),
            })
            .collect();
        let order = reranker.rerank(query, &candidates).await;
        in_order(hits, &order, k)
    }
}

/// `hits` in `order` (names), repeats and strangers skipped, the rest after in their
/// own order; the first `k`.
fn in_order<'c>(hits: Vec<SearchHit<'c>>, order: &[String], k: usize) -> Vec<SearchHit<'c>> {
    let mut taken = vec![false; hits.len()];
    let mut out = Vec::with_capacity(hits.len());
    for name in order {
        let found = hits.iter().position(|h| *h.tool.name == **name);
        if let Some(i) = found.filter(|&i| !taken[i]) {
            taken[i] = true;
            out.push(hits[i]);
        }
    }
    out.extend(
        hits.iter()
            .zip(&taken)
            .filter(|(_, taken)| !**taken)
            .map(|(hit, _)| *hit),
    );
    out.truncate(k);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Answers with a fixed list, whatever it is shown.
    struct Fixed(Vec<&'static str>);

    impl Reranker for Fixed {
        fn rerank<'a>(&'a self, _: &'a str, _: &'a [Candidate]) -> Reranked<'a> {
            let names = self.0.iter().map(|n| (*n).to_owned()).collect();
            Box::pin(std::future::ready(names))
        }
    }

    /// Reverses the lexical order, and records what it was shown.
    struct Reverse(std::sync::Mutex<Vec<Candidate>>);

    impl Reranker for Reverse {
        fn rerank<'a>(&'a self, _: &'a str, candidates: &'a [Candidate]) -> Reranked<'a> {
            *self.0.lock().unwrap() = candidates.to_vec();
            let names = candidates.iter().rev().map(|c| c.name.clone()).collect();
            Box::pin(std::future::ready(names))
        }
    }

    fn catalog() -> Catalog {
        super::super::catalog_of(&[
            ("close_issue", "Close an issue"),
            ("create_issue", "Create an issue in a project"),
            ("list_issues", "List the issues of a project"),
            ("play_song", "Play a song"),
        ])
    }

    fn names(hits: &[SearchHit<'_>]) -> Vec<String> {
        hits.iter().map(|h| h.tool.name.to_string()).collect()
    }

    /// The toy rerankers answer at once: one poll is enough.
    fn block_on<F: Future>(future: F) -> F::Output {
        let mut context = std::task::Context::from_waker(std::task::Waker::noop());
        match std::pin::pin!(future).poll(&mut context) {
            std::task::Poll::Ready(out) => out,
            std::task::Poll::Pending => panic!("a toy reranker answers at once"),
        }
    }

    #[test]
    fn the_reranker_order_is_the_order_returned() {
        let catalog = catalog();
        let lexical = names(&catalog.search("issue project", 10));
        assert_eq!(lexical.len(), 3, "{lexical:?}");
        let reverse = Reverse(Default::default());
        let hits = block_on(catalog.search_reranked("issue project", 10, &reverse));
        let mut reversed = lexical.clone();
        reversed.reverse();
        assert_eq!(names(&hits), reversed);
        // It was shown the lexical top as compact lines, best first.
        let shown = reverse.0.lock().unwrap().clone();
        assert_eq!(
            shown.iter().map(|c| c.name.clone()).collect::<Vec<_>>(),
            lexical
        );
        assert!(
            shown
                .iter()
                .all(|c| c.line.starts_with(&format!("{}: ", c.name)))
        );
        // `k` cuts after reordering: the reranker's best, not the lexical best.
        let top = block_on(catalog.search_reranked("issue project", 1, &reverse));
        assert_eq!(names(&top), reversed[..1]);
    }

    #[test]
    fn garbage_from_the_reranker_loses_and_invents_nothing() {
        let catalog = catalog();
        let lexical = names(&catalog.search("issue project", 10));
        // Unknown names, a tool that was no candidate, repeats, and one left out.
        let garbage = Fixed(vec![
            "no_such_tool",
            "list_issues",
            "play_song",
            "list_issues",
            "",
            "close_issue",
        ]);
        let hits = block_on(catalog.search_reranked("issue project", 10, &garbage));
        let named = ["list_issues".to_owned(), "close_issue".to_owned()];
        let mut expected = named.to_vec();
        expected.extend(lexical.iter().filter(|n| !named.contains(n)).cloned());
        assert_eq!(names(&hits), expected);
        // Nothing at all: the lexical order.
        let hits = block_on(catalog.search_reranked("issue project", 10, &Fixed(vec![])));
        assert_eq!(names(&hits), lexical);
        // No lexical candidate: the reranker is not asked and nothing is made up.
        let hits = block_on(catalog.search_reranked("zzz", 10, &Fixed(vec!["play_song"])));
        assert!(hits.is_empty());
    }
}
