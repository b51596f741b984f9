//! How many code-mode scripts run at once, per caller and in all: each script's engine
//! may hold its whole memory limit, so the number running is what bounds the memory
//! code mode can take (the third security review's F8: 100 scripts of one caller took
//! a server to 2.8 GB). A caller past its share, or any caller while every slot is
//! taken, is told so as a tool error, and nothing runs.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Scripts running at once, all callers together, by default.
pub const DEFAULT_SCRIPTS: usize = 16;
/// Scripts one caller may run at once by default (a quarter of the total).
pub const DEFAULT_SCRIPTS_PER_CALLER: usize = 4;

/// The scripts running now, per caller (`None`: a caller without a name, over stdio
/// or a server without authorization).
#[derive(Debug)]
pub(super) struct Scripts {
    total: usize,
    per_caller: usize,
    running: Arc<Mutex<Running>>,
}

#[derive(Debug, Default)]
struct Running {
    all: usize,
    by_caller: HashMap<Option<Arc<str>>, usize>,
}

/// One script running; dropping it frees its place.
#[derive(Debug)]
pub(super) struct Place {
    running: Arc<Mutex<Running>>,
    caller: Option<Arc<str>>,
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut running = lock(&self.running);
        running.all -= 1;
        if let Some(n) = running.by_caller.get_mut(&self.caller) {
            *n -= 1;
            if *n == 0 {
                running.by_caller.remove(&self.caller);
            }
        }
    }
}

impl Scripts {
    pub(super) fn new(total: usize, per_caller: usize) -> Scripts {
        Scripts {
            total: total.max(1),
            per_caller: per_caller.max(1),
            running: Arc::default(),
        }
    }

    /// A place for one more script of `caller`, or why there is none.
    pub(super) fn admit(&self, caller: Option<Arc<str>>) -> Result<Place, String> {
        let mut running = lock(&self.running);
        let own = running.by_caller.get(&caller).copied().unwrap_or(0);
        if own >= self.per_caller {
            return Err(format!(
                "this caller is running as many scripts as it may at once ({}); run this one when one of them has finished",
                self.per_caller
            ));
        }
        if running.all >= self.total {
            return Err(format!(
                "the server is running as many scripts as it takes at once ({}); retry shortly",
                self.total
            ));
        }
        running.all += 1;
        *running.by_caller.entry(caller.clone()).or_insert(0) += 1;
        Ok(Place {
            running: Arc::clone(&self.running),
            caller,
        })
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_caller_runs_its_share_and_the_total_is_bounded() {
        let scripts = Scripts::new(3, 2);
        let mallory = Some(Arc::<str>::from("mallory"));
        let first = scripts.admit(mallory.clone()).unwrap();
        let _second = scripts.admit(mallory.clone()).unwrap();
        assert!(scripts.admit(mallory.clone()).unwrap_err().contains("(2)"));
        let bob = scripts.admit(Some("bob".into())).unwrap();
        assert!(scripts.admit(None).unwrap_err().contains("(3)"));
        drop(first);
        assert!(scripts.admit(mallory).is_ok());
        drop(bob);
        assert!(scripts.admit(None).is_ok());
    }
}
