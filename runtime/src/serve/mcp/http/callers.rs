//! What one caller may take of a shared endpoint: calls per second (a token bucket per
//! caller, refused with `429` and `Retry-After` when empty) and, for everyone together,
//! calls in flight (refused with `503` when full), so one busy client cannot starve
//! the others or grow the server without bound.

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
}

/// A call in flight; dropping it frees the slot.
#[derive(Debug)]
pub(super) struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Callers {
    pub(super) fn new(rate: u32, max_in_flight: usize) -> Self {
        Callers {
            rate,
            buckets: Mutex::default(),
            max_in_flight: max_in_flight.max(1),
            in_flight: Arc::default(),
        }
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
        let callers = Callers::new(5, 100);
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
        let callers = Callers::new(0, 2);
        let a = callers.admit(Some("a")).unwrap();
        let _b = callers.admit(None).unwrap();
        assert_eq!(callers.admit(Some("c")).unwrap_err(), Refused::Busy);
        drop(a);
        assert!(callers.admit(Some("c")).is_ok());
    }
}
