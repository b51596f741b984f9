//! What a request holds while work it started may still be running: a place under
//! `serve --http`'s `--max-calls-in-flight`, a script's place under `--max-scripts`.
//! Such a place stands for memory and a thread, so it must be freed when the work has
//! stopped, not when the request ends: a script's engine runs on a thread of its own
//! and stops at its next interrupt poll after its caller went away (the third
//! hostile-input round's F03: 40 scripts alive, 2.1 GB, under a cap of 10, because the
//! places went with the requests).
//!
//! The server runs an answer inside [`within`] with what it holds; work that leaves
//! the answer's future (a script's engine thread) takes the [`current`] lease along,
//! and the places are freed when the last holder lets go.

use std::future::Future;
use std::sync::{Arc, Mutex};

/// Places held together; freed (dropped) when the last clone is.
#[derive(Clone, Default)]
pub(crate) struct Lease(Arc<Mutex<Vec<Box<dyn Send>>>>);

tokio::task_local! {
    static CURRENT: Lease;
}

impl Lease {
    /// Adds `place` to what this lease holds.
    #[cfg_attr(not(any(feature = "mcp", test)), allow(dead_code))]
    pub(crate) fn hold(&self, place: impl Send + 'static) {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(Box::new(place));
    }
}

/// Runs `answer` with `lease` as the [`current`] one.
#[cfg_attr(not(any(feature = "mcp", test)), allow(dead_code))]
pub(crate) async fn within<F: Future>(lease: Lease, answer: F) -> F::Output {
    CURRENT.scope(lease, answer).await
}

/// The lease of the answer being run, or a new one (nothing outside holds it).
#[cfg_attr(not(feature = "code"), allow(dead_code))]
pub(crate) fn current() -> Lease {
    CURRENT.try_with(Clone::clone).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, Ordering};

    use super::*;

    struct Flag(Arc<AtomicBool>);

    impl Drop for Flag {
        fn drop(&mut self) {
            self.0.store(true, Ordering::SeqCst);
        }
    }

    #[tokio::test]
    async fn a_place_is_freed_when_the_last_holder_lets_go() {
        let freed = Arc::new(AtomicBool::new(false));
        let lease = Lease::default();
        lease.hold(Flag(freed.clone()));
        let taken = within(lease, async { current() }).await;
        assert!(!freed.load(Ordering::SeqCst), "the work still holds it");
        drop(taken);
        assert!(freed.load(Ordering::SeqCst));
        // Outside an answer: a lease of its own.
        let alone = current();
        alone.hold(Flag(freed.clone()));
    }
}
