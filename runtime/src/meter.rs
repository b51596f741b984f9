//! Host memory charged to the script whose calls cause it: a code-mode script's
//! `--script-memory` bounds its engine's heap, and — through a [`Pool`] of the same
//! size — what the host holds for it: the arguments of calls waiting for answers and
//! the answers being read (the third hostile-input round's F02: 100 calls with 4 MiB
//! arguments held 832 MiB under a 64 MiB limit; 100 calls each reading a 10 MB body
//! would hold a gigabyte).
//!
//! Each call of a script gets an [`Account`] and runs inside [`metered`]; the code
//! that reads an answer (the HTTP transport, a collected stream) calls [`charge`] for
//! what it keeps, which fails once the script's pool is spent. What a call charged is
//! given back when its account is dropped: when its answer has been handed to the
//! script (and is counted by the heap), or when the call is dropped. Outside a
//! script there is no account and [`charge`] always succeeds.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// One script's host memory: at most `limit` bytes at once.
#[derive(Debug)]
pub(crate) struct Pool {
    limit: usize,
    used: AtomicUsize,
}

/// What one call holds of its script's [`Pool`]; dropping it gives that back.
#[derive(Debug)]
pub(crate) struct Account {
    pool: Arc<Pool>,
    mine: AtomicUsize,
}

/// A charge the pool could not take: its limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Over {
    pub limit: usize,
}

impl std::fmt::Display for Over {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "what the script's calls in flight hold (arguments and answers being read) would \
             pass its memory limit ({} bytes); await some calls before making more",
            self.limit
        )
    }
}

impl Pool {
    #[cfg_attr(not(feature = "code"), allow(dead_code))]
    pub(crate) fn new(limit: usize) -> Arc<Pool> {
        Arc::new(Pool {
            limit,
            used: AtomicUsize::new(0),
        })
    }

    /// A new, empty account in this pool.
    #[cfg_attr(not(feature = "code"), allow(dead_code))]
    pub(crate) fn account(self: &Arc<Self>) -> Arc<Account> {
        Arc::new(Account {
            pool: Arc::clone(self),
            mine: AtomicUsize::new(0),
        })
    }

    /// Bytes charged now, all accounts together.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) fn used(&self) -> usize {
        self.used.load(Ordering::Acquire)
    }
}

impl Account {
    /// Charges `bytes`, or refuses (charging nothing) when the pool would pass its limit.
    #[cfg_attr(not(feature = "code"), allow(dead_code))]
    pub(crate) fn charge(&self, bytes: usize) -> Result<(), Over> {
        let pool = &self.pool;
        pool.used
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |used| {
                used.checked_add(bytes).filter(|total| *total <= pool.limit)
            })
            .map_err(|_| Over { limit: pool.limit })?;
        self.mine.fetch_add(bytes, Ordering::AcqRel);
        Ok(())
    }
}

impl Drop for Account {
    fn drop(&mut self) {
        let mine = *self.mine.get_mut();
        self.pool.used.fetch_sub(mine, Ordering::AcqRel);
    }
}

#[cfg(feature = "code")]
tokio::task_local! {
    static CURRENT: Arc<Account>;
}

/// Runs `call` with what it reads charged to `account`.
#[cfg(feature = "code")]
pub(crate) async fn metered<F: std::future::Future>(account: Arc<Account>, call: F) -> F::Output {
    CURRENT.scope(account, call).await
}

/// Charges `bytes` to the account of the call being run, if it has one.
pub(crate) fn charge(bytes: usize) -> Result<(), Over> {
    #[cfg(feature = "code")]
    if let Ok(charged) = CURRENT.try_with(|account| account.charge(bytes)) {
        return charged;
    }
    let _ = bytes;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accounts_share_the_pool_and_give_back_when_dropped() {
        let pool = Pool::new(100);
        let a = pool.account();
        let b = pool.account();
        a.charge(60).unwrap();
        assert_eq!(b.charge(50), Err(Over { limit: 100 }));
        b.charge(40).unwrap();
        assert_eq!(pool.used(), 100);
        drop(a);
        assert_eq!(pool.used(), 40);
        assert_eq!(b.charge(usize::MAX), Err(Over { limit: 100 }));
        drop(b);
        assert_eq!(pool.used(), 0);
    }

    #[cfg(feature = "code")]
    #[tokio::test]
    async fn a_charge_goes_to_the_call_being_run() {
        let pool = Pool::new(10);
        assert_eq!(charge(1 << 30), Ok(()), "outside a script: no account");
        let account = pool.account();
        let inside = metered(account, async { (charge(8), charge(8)) }).await;
        assert_eq!(inside, (Ok(()), Err(Over { limit: 10 })));
        assert_eq!(pool.used(), 0, "given back with the account");
    }
}
