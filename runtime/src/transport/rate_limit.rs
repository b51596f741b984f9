//! Client-side rate limits as a layer over any [`Transport`]: at most `limit`
//! requests per `window`, for an API, one of its tools, or a category of its tools,
//! shared by every concurrent call and every clone of the executor (the layer sits
//! behind the executor's one `Arc`).
//!
//! A sliding window, not a token bucket: the server never sees more than `limit`
//! requests in any `window`-long stretch (a bucket of `limit` tokens refilled over the
//! window lets through up to twice that). Each request reserves the earliest slot
//! free in every rule that applies and waits for it; a wait past the call's deadline
//! fails at once with `RATE_LIMIT_CLIENT` instead of sleeping in vain.

use std::collections::VecDeque;
#[cfg(feature = "reqwest")]
use std::sync::Arc;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde_json::Value;

#[cfg(feature = "reqwest")]
use super::{CallPolicy, ResponseFuture, Transport};
#[cfg(feature = "reqwest")]
use crate::error::{TransportError, TransportKind};

/// Which requests a limit counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    /// Every request to the API.
    Api,
    /// Requests of one tool (its name, or its operation's path).
    Tool(String),
    /// Requests of tools in one category (`read`, `create`, … or a tag).
    Category(String),
}

/// At most `limit` requests per `window`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limit {
    pub limit: u32,
    pub window: Duration,
    pub scope: Scope,
}

impl Limit {
    /// `limit` requests per `window` for the whole API.
    pub fn per(limit: u32, window: Duration) -> Limit {
        Limit {
            limit: limit.max(1),
            window,
            scope: Scope::Api,
        }
    }

    /// The same limit, for one tool only.
    pub fn tool(mut self, tool: impl Into<String>) -> Limit {
        self.scope = Scope::Tool(tool.into());
        self
    }

    /// The same limit, for one category of tools only.
    pub fn category(mut self, category: impl Into<String>) -> Limit {
        self.scope = Scope::Category(category.into());
        self
    }
}

/// Who a request is for: set by the executor on every request (an `http` extension).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallTarget {
    pub api: String,
    pub tool: String,
    pub path: String,
    /// The tool's category (`read`, `create`, `update`, `delete`, `execute`) and tags.
    pub categories: Vec<String>,
}

#[derive(Debug)]
#[cfg_attr(not(feature = "reqwest"), allow(dead_code))]
struct Rule {
    api: String,
    limit: Limit,
    /// Granted slots, oldest first; at most `limit` kept.
    granted: Mutex<VecDeque<Instant>>,
}

#[cfg_attr(not(feature = "reqwest"), allow(dead_code))]
impl Rule {
    fn applies(&self, target: &CallTarget) -> bool {
        self.api == target.api
            && match &self.limit.scope {
                Scope::Api => true,
                Scope::Tool(t) => *t == target.tool || *t == target.path,
                Scope::Category(c) => target.categories.iter().any(|k| k.eq_ignore_ascii_case(c)),
            }
    }

    /// The earliest slot at or after `at` this rule grants (not yet reserved).
    fn earliest(&self, at: Instant) -> Instant {
        let granted = self
            .granted
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let limit = self.limit.limit as usize;
        if granted.len() < limit {
            return at;
        }
        (granted[granted.len() - limit] + self.limit.window).max(at)
    }

    fn reserve(&self, slot: Instant) {
        let mut granted = self
            .granted
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // Slots are reserved in increasing order per rule (see `RateLimit::send`).
        let position = granted.partition_point(|t| *t <= slot);
        granted.insert(position, slot);
        while granted.len() > self.limit.limit as usize {
            granted.pop_front();
        }
    }
}

/// [`Transport`] `T`, holding requests back to stay within the limits (feature
/// `reqwest`, for tokio's timer).
#[cfg(feature = "reqwest")]
#[derive(Debug, Clone)]
pub struct RateLimit<T> {
    inner: T,
    rules: Arc<Vec<Rule>>,
    /// Reservations across rules happen one at a time, so two rules cannot hand the
    /// same request different slots.
    reserving: Arc<Mutex<()>>,
}

#[cfg(feature = "reqwest")]
impl<T: Transport> RateLimit<T> {
    /// `inner` with `limits`, each for the API named with it.
    pub fn new(inner: T, limits: impl IntoIterator<Item = (String, Limit)>) -> Self {
        let rules = limits
            .into_iter()
            .map(|(api, limit)| Rule {
                api,
                limit,
                granted: Mutex::default(),
            })
            .collect();
        RateLimit {
            inner,
            rules: Arc::new(rules),
            reserving: Arc::default(),
        }
    }
}

#[cfg(feature = "reqwest")]
impl<T: Transport> Transport for RateLimit<T> {
    fn send(&self, request: http::Request<Vec<u8>>) -> ResponseFuture<'_> {
        Box::pin(async move {
            self.wait_for_slot(&request).await?;
            self.inner.send(request).await
        })
    }

    fn open(&self, request: http::Request<crate::stream::Upload>) -> super::OpenFuture<'_> {
        Box::pin(async move {
            self.wait_for_slot(&request).await?;
            self.inner.open(request).await
        })
    }
}

#[cfg(feature = "reqwest")]
impl<T: Transport> RateLimit<T> {
    /// Waits until every limit that applies to `request` grants it a slot (at once,
    /// without a timer, when one is free); an error when that would take longer than
    /// the call may.
    async fn wait_for_slot<B>(&self, request: &http::Request<B>) -> Result<(), TransportError> {
        let Some(target) = request.extensions().get::<CallTarget>() else {
            return Ok(());
        };
        let rules: Vec<&Rule> = self.rules.iter().filter(|r| r.applies(target)).collect();
        if rules.is_empty() {
            return Ok(());
        }
        let policy = CallPolicy::of(request);
        let now = Instant::now();
        let slot = {
            let _one = self
                .reserving
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            // The first slot every rule can grant: each rule's earliest is monotonic
            // in `at`, so iterate to a fixed point.
            let mut slot = now;
            loop {
                let next = rules.iter().map(|r| r.earliest(slot)).max().unwrap_or(slot);
                if next == slot {
                    break;
                }
                slot = next;
            }
            let wait = slot.saturating_duration_since(now);
            if wait > policy.timeout {
                return Err(TransportError::new(format!(
                    "`{}` would wait {wait:.1?} for its rate limit, longer than the call may take ({:.1?})",
                    target.tool, policy.timeout
                ))
                .kind_of(TransportKind::RateLimited));
            }
            for rule in &rules {
                rule.reserve(slot);
            }
            slot
        };
        // A free slot goes out at once, without a timer (and so without needing a
        // timer-driving runtime: offline conformance runs).
        if slot > now {
            tokio::time::sleep_until(slot.into()).await;
        }
        Ok(())
    }
}

/// The limits an API's metadata declares (an adapter's `rate_limits`), in either of
/// the two shapes adapters use:
///
/// - `{requests_per_minute, requests_per_hour, requests_per_day, burst_limit}`: one
///   limit per window given; `burst_limit` caps requests per second;
/// - `{api_limits: [{scope: global|endpoint|category, endpoint?, category?, limit,
///   window: second|minute|hour|day}]}`.
pub fn declared(meta: &Value) -> Vec<Limit> {
    let Some(limits) = meta.get("rate_limits") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (key, window) in [
        ("requests_per_minute", 60),
        ("requests_per_hour", 3_600),
        ("requests_per_day", 86_400),
        ("burst_limit", 1),
    ] {
        if let Some(n) = limits.get(key).and_then(Value::as_u64) {
            out.push(Limit::per(clamp(n), Duration::from_secs(window)));
        }
    }
    for item in limits
        .get("api_limits")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let Some(limit) = item.get("limit").and_then(Value::as_u64) else {
            continue;
        };
        let window = match item.get("window").and_then(Value::as_str) {
            Some("second") => 1,
            Some("minute") | None => 60,
            Some("hour") => 3_600,
            Some("day") => 86_400,
            Some(_) => continue,
        };
        let limit = Limit::per(clamp(limit), Duration::from_secs(window));
        let text = |k: &str| item.get(k).and_then(Value::as_str).map(str::to_owned);
        out.push(match item.get("scope").and_then(Value::as_str) {
            Some("endpoint") => match text("endpoint") {
                Some(e) => limit.tool(e),
                None => continue,
            },
            Some("category") => match text("category") {
                Some(c) => limit.category(c),
                None => continue,
            },
            _ => limit,
        });
    }
    out
}

fn clamp(n: u64) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn both_shapes_are_read() {
        let flat = json!({"rate_limits": {"requests_per_minute": 60, "burst_limit": 5}});
        assert_eq!(
            declared(&flat),
            vec![
                Limit::per(60, Duration::from_secs(60)),
                Limit::per(5, Duration::from_secs(1))
            ]
        );
        let list = json!({"rate_limits": {"api_limits": [
            {"scope": "global", "limit": 100, "window": "hour"},
            {"scope": "endpoint", "endpoint": "create_issue", "limit": 2, "window": "second"},
            {"scope": "category", "category": "delete", "limit": 1, "window": "minute"},
        ]}});
        assert_eq!(
            declared(&list),
            vec![
                Limit::per(100, Duration::from_secs(3_600)),
                Limit::per(2, Duration::from_secs(1)).tool("create_issue"),
                Limit::per(1, Duration::from_secs(60)).category("delete"),
            ]
        );
    }

    #[test]
    fn a_sliding_window_never_grants_more_than_its_limit() {
        let rule = Rule {
            api: "a".into(),
            limit: Limit::per(3, Duration::from_secs(1)),
            granted: Mutex::default(),
        };
        let start = Instant::now();
        let mut slots = Vec::new();
        for _ in 0..10 {
            let slot = rule.earliest(start);
            rule.reserve(slot);
            slots.push(slot.duration_since(start));
        }
        for window in slots.windows(4) {
            assert!(window[3] - window[0] >= Duration::from_secs(1), "{slots:?}");
        }
    }
}
