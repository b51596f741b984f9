//! What one caller may take of a shared endpoint: calls per second (a token bucket per
//! caller, refused with `429` and `Retry-After` when empty), requests in progress of
//! its own — from the first byte of the body to the last of the answer, so slow bodies
//! and slow calls count alike — (its share, refused with `429` when taken) and, for
//! everyone together, calls in flight (refused with `503` when full), so one busy
//! client cannot starve the others or grow the server without bound.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::lock;

/// Buckets kept at most; past it, the ones full again (idle callers) are dropped.
const MAX_TRACKED: usize = 10_000;

#[derive(Debug)]
pub(super) struct Callers {
    /// Calls per second per caller (0: unlimited); also the burst.
    rate: u32,
    buckets: Mutex<HashMap<Arc<str>, Bucket>>,
    max_in_flight: usize,
    in_flight: Arc<AtomicUsize>,
    /// Requests one caller may have in progress (its share).
    max_own: usize,
    own: Arc<InProgress>,
}

#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

/// Why a call was not let through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Refused {
    /// This caller's rate is spent: retry after this long.
    Rate(Duration),
    /// Every slot for calls in flight is taken.
    Busy,
    /// This caller has its whole share of calls in flight.
    Share,
}

/// A call in flight; dropping it frees the slot.
#[derive(Debug)]
pub(super) struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// One request of a caller in progress; dropping it gives the caller its place back.
#[derive(Debug)]
pub(super) struct Share(Option<(Arc<InProgress>, Arc<str>)>);

/// Requests in progress per caller (only callers with some are kept).
type InProgress = Mutex<HashMap<Arc<str>, usize>>;

impl Drop for Share {
    fn drop(&mut self) {
        if let Some((own, caller)) = &self.0 {
            let mut own = lock(own);
            if let Some(n) = own.get_mut(caller) {
                *n -= 1;
                if *n == 0 {
                    own.remove(caller);
                }
            }
        }
    }
}

impl Callers {
    pub(super) fn new(rate: u32, max_in_flight: usize, max_own: usize) -> Self {
        Callers {
            rate,
            buckets: Mutex::default(),
            max_in_flight: max_in_flight.max(1),
            in_flight: Arc::default(),
            max_own: max_own.max(1),
            own: Arc::default(),
        }
    }

    /// One more request of `caller` in progress (`None`: unauthenticated, which has
    /// no share: authorization refuses it before its body is read), or `Share` when
    /// it has its whole share in progress already.
    pub(super) fn share(&self, caller: Option<&str>) -> Result<Share, Refused> {
        let Some(caller) = caller else {
            return Ok(Share(None));
        };
        let mut own = lock(&self.own);
        let n = own.entry(Arc::from(caller)).or_insert(0);
        if *n >= self.max_own {
            return Err(Refused::Share);
        }
        *n += 1;
        Ok(Share(Some((Arc::clone(&self.own), Arc::from(caller)))))
    }

    /// Lets one call of `caller` (`None`: unauthenticated) through, or says why not.
    pub(super) fn admit(&self, caller: Option<&str>) -> Result<Slot, Refused> {
        if let Some(caller) = caller
            && self.rate > 0
        {
            self.take(caller)?;
        }
        let taken = self.in_flight.fetch_add(1, Ordering::AcqRel);
        let slot = Slot(Arc::clone(&self.in_flight));
        if taken >= self.max_in_flight {
            return Err(Refused::Busy);
        }
        Ok(slot)
    }

    fn take(&self, caller: &str) -> Result<(), Refused> {
        let rate = f64::from(self.rate);
        let now = Instant::now();
        let mut buckets = lock(&self.buckets);
        if buckets.len() >= MAX_TRACKED && !buckets.contains_key(caller) {
            buckets.retain(|_, b| b.tokens + now.duration_since(b.at).as_secs_f64() * rate < rate);
        }
        let bucket = buckets.entry(Arc::from(caller)).or_insert(Bucket {
            tokens: rate,
            at: now,
        });
        bucket.tokens =
            (bucket.tokens + now.duration_since(bucket.at).as_secs_f64() * rate).min(rate);
        bucket.at = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            Err(Refused::Rate(Duration::from_secs_f64(
                (1.0 - bucket.tokens) / rate,
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_busy_caller_is_held_back_and_others_are_not() {
        let callers = Callers::new(5, 100, 100);
        let mut slots = Vec::new();
        for _ in 0..5 {
            slots.push(callers.admit(Some("alice")).unwrap());
        }
        let Err(Refused::Rate(wait)) = callers.admit(Some("alice")) else {
            panic!("the sixth call in a second is refused");
        };
        assert!(
            wait > Duration::ZERO && wait <= Duration::from_millis(200),
            "{wait:?}"
        );
        assert!(
            callers.admit(Some("bob")).is_ok(),
            "another caller has its own rate"
        );
        std::thread::sleep(Duration::from_millis(250));
        assert!(callers.admit(Some("alice")).is_ok(), "the bucket refills");
    }

    #[test]
    fn calls_in_flight_are_capped_and_freed() {
        let callers = Callers::new(0, 2, 2);
        let a = callers.admit(Some("a")).unwrap();
        let _b = callers.admit(None).unwrap();
        assert_eq!(callers.admit(Some("c")).unwrap_err(), Refused::Busy);
        drop(a);
        assert!(callers.admit(Some("c")).is_ok());
    }

    #[test]
    fn one_caller_takes_only_its_share_of_the_requests_in_progress() {
        let callers = Callers::new(0, 8, 2);
        let first = callers.share(Some("mallory")).unwrap();
        let _second = callers.share(Some("mallory")).unwrap();
        assert_eq!(callers.share(Some("mallory")).unwrap_err(), Refused::Share);
        // The refusal took nothing: bob has his own share, and the total is untouched.
        let bobs: Vec<Share> = (0..2)
            .map(|_| callers.share(Some("bob")).unwrap())
            .collect();
        assert_eq!(callers.share(Some("bob")).unwrap_err(), Refused::Share);
        assert!(callers.admit(Some("bob")).is_ok());
        drop(first);
        assert!(callers.share(Some("mallory")).is_ok());
        drop(bobs);
        assert_eq!(
            lock(&callers.own).len(),
            1,
            "callers with nothing in progress are not kept"
        );
    }
}
