//! Retries as a layer over any [`Transport`]: an idempotent call that met a
//! connection failure, a timeout of one attempt, or 429/502/503/504 is sent again,
//! after exponential backoff with full jitter (or the server's `Retry-After`, when it
//! fits), within the call's attempts and total time. Non-idempotent calls (POST unless
//! declared idempotent) are sent once, whatever happens.

use std::time::{Duration, Instant, SystemTime};

use super::{Attempts, CallPolicy, ResponseFuture, Transport};
use crate::error::{TransportError, TransportKind};
use crate::stream::Upload;

/// First backoff; doubled per attempt, capped at [`MAX_BACKOFF`].
const BASE_BACKOFF: Duration = Duration::from_millis(100);
const MAX_BACKOFF: Duration = Duration::from_secs(5);

/// [`Transport`] `T`, retrying as the request's [`CallPolicy`] allows.
#[derive(Debug, Clone)]
pub struct Retry<T> {
    inner: T,
}

impl<T: Transport> Retry<T> {
    pub fn new(inner: T) -> Self {
        Retry { inner }
    }
}

impl<T: Transport> Transport for Retry<T> {
    fn send(&self, request: http::Request<Vec<u8>>) -> ResponseFuture<'_> {
        // Taken apart before the future is built, so that it holds the parts once
        // (not also the request they came from): the future stays under 1 KB, which
        // the allocator serves from its per-thread cache on every call.
        let policy = CallPolicy::of(&request);
        let mut kept = Some(request.into_parts());
        Box::pin(async move {
            let started = Instant::now();
            let deadline = started + policy.timeout;
            let mut attempt = 1;
            loop {
                // A copy is kept only while another attempt may follow: a call that
                // cannot be retried (or its last attempt) sends the request itself.
                let last = !policy.idempotent || attempt >= policy.max_attempts;
                let (parts, body) = match (last, kept.take()) {
                    (false, Some((parts, body))) => {
                        let copy = (parts.clone(), body.clone());
                        kept = Some((parts, body));
                        copy
                    }
                    (true, Some(request)) => request,
                    (_, None) => {
                        return Err(TransportError::new("the request was already sent"));
                    }
                };
                let mut again = http::Request::from_parts(parts, body);
                time_left(&mut again, attempt, deadline, policy);
                let outcome = self.inner.send(again).await;
                let Some(wait) = wait_before_retry(&outcome, &policy, attempt) else {
                    return annotate(outcome, attempt);
                };
                let out_of_time = Instant::now() + wait >= deadline;
                if !policy.idempotent || attempt >= policy.max_attempts || out_of_time {
                    return annotate(outcome, attempt);
                }
                // Boxed: a timer is large, and only a retry needs one.
                Box::pin(tokio::time::sleep(wait)).await;
                attempt += 1;
            }
        })
    }

    fn open(&self, request: http::Request<Upload>) -> super::OpenFuture<'_> {
        self.open_retrying(request)
    }
}

/// Streamed calls: the same rules, and a body read from a one-shot stream is never
/// sent twice (a failure that would have been retried says so).
impl<T: Transport> Retry<T> {
    fn open_retrying(&self, request: http::Request<Upload>) -> super::OpenFuture<'_> {
        let policy = CallPolicy::of(&request);
        let (parts, upload) = request.into_parts();
        Box::pin(async move {
            let deadline = Instant::now() + policy.timeout;
            let mut upload = Some(upload);
            let mut attempt = 1;
            loop {
                let body = upload.take().expect("an upload for every attempt");
                let again = body.try_clone();
                let mut request = http::Request::from_parts(parts.clone(), body);
                time_left(&mut request, attempt, deadline, policy);
                let outcome = self.inner.open(request).await;
                let wait = wait_before_retry(&outcome, &policy, attempt);
                let (Some(wait), true) = (wait, policy.idempotent) else {
                    return annotate(outcome, attempt);
                };
                let out_of_time = Instant::now() + wait >= deadline;
                if attempt >= policy.max_attempts || out_of_time {
                    return annotate(outcome, attempt);
                }
                let Some(again) = again else {
                    return match outcome {
                        Err(e) => Err(TransportError::new(format!(
                            "{e} (not retried: the request body was a one-shot stream, which cannot be sent again; upload bytes or a file to have it retried)"
                        ))
                        .kind_of(e.kind())),
                        Ok(mut response) => {
                            response.extensions_mut().insert(super::NotRetried);
                            Ok(response)
                        }
                    };
                };
                upload = Some(again);
                drop(outcome);
                Box::pin(tokio::time::sleep(wait)).await;
                attempt += 1;
            }
        })
    }
}

/// Each later attempt gets what is left of the call's time (the first carries the
/// call's own policy already).
fn time_left<B>(
    request: &mut http::Request<B>,
    attempt: u32,
    deadline: Instant,
    policy: CallPolicy,
) {
    if attempt > 1 {
        let left = deadline.saturating_duration_since(Instant::now());
        request.extensions_mut().insert(CallPolicy {
            timeout: left,
            ..policy
        });
    }
}

/// How long to wait before sending again after `outcome`, or `None` when it is final
/// (the policy's attempts and time are checked by the caller).
fn wait_before_retry<B>(
    outcome: &Result<http::Response<B>, TransportError>,
    policy: &CallPolicy,
    attempt: u32,
) -> Option<Duration> {
    match outcome {
        Ok(response) if retryable_status(response.status().as_u16()) => {
            match retry_after(response.headers(), policy.max_retry_after) {
                Asked::Nothing => Some(backoff(attempt)),
                Asked::Wait(wait) => Some(wait),
                Asked::TooLong => None,
            }
        }
        Ok(_) => None,
        Err(e) if retryable_failure(e) => Some(backoff(attempt)),
        Err(_) => None,
    }
}

/// Records how many attempts were made, when more than one: an `Attempts` extension
/// on a response (none: sent once — the common case costs no allocation), and in the
/// message of an error.
fn annotate<B>(
    outcome: Result<http::Response<B>, TransportError>,
    attempts: u32,
) -> Result<http::Response<B>, TransportError> {
    match outcome {
        Ok(mut response) if attempts > 1 => {
            response.extensions_mut().insert(Attempts(attempts));
            Ok(response)
        }
        Err(e) if attempts > 1 => Err(e.after_attempts(attempts)),
        once => once,
    }
}

fn retryable_status(status: u16) -> bool {
    matches!(status, 429 | 502 | 503 | 504)
}

fn retryable_failure(e: &TransportError) -> bool {
    matches!(
        e.kind(),
        TransportKind::Connect | TransportKind::Dns | TransportKind::Timeout | TransportKind::Reset
    )
}

/// Full jitter: a uniformly random wait up to the exponential bound.
fn backoff(attempt: u32) -> Duration {
    let bound = BASE_BACKOFF
        .saturating_mul(1 << attempt.saturating_sub(1).min(16))
        .min(MAX_BACKOFF);
    bound.mul_f64(random_unit())
}

/// A number in [0, 1) from the clock and a counter: jitter needs spread, not secrecy.
fn random_unit() -> f64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let mut x = nanos ^ COUNTER.fetch_add(0x9e37_79b9_7f4a_7c15, Ordering::Relaxed);
    // splitmix64
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^= x >> 31;
    (x >> 11) as f64 / (1u64 << 53) as f64
}

/// What a `Retry-After` asks.
#[derive(Debug, PartialEq, Eq)]
enum Asked {
    /// No (readable) header: our own backoff.
    Nothing,
    Wait(Duration),
    /// Longer than the cap: the answer goes back as it is (the server said not now).
    TooLong,
}

/// `Retry-After` as seconds or an HTTP date.
fn retry_after(headers: &http::HeaderMap, cap: Duration) -> Asked {
    let Some(value) = headers
        .get(http::header::RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
    else {
        return Asked::Nothing;
    };
    let wait = match value.parse::<u64>() {
        Ok(seconds) => Duration::from_secs(seconds),
        Err(_) => match httpdate(value) {
            Some(at) => at
                .duration_since(SystemTime::now())
                .unwrap_or(Duration::ZERO),
            None => return Asked::Nothing,
        },
    };
    if wait > cap {
        Asked::TooLong
    } else {
        Asked::Wait(wait)
    }
}

/// An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the form HTTP requires senders
/// to use.
fn httpdate(text: &str) -> Option<SystemTime> {
    let parts: Vec<&str> = text.split_whitespace().collect();
    let [_, day, month, year, time, "GMT"] = parts.as_slice() else {
        return None;
    };
    let day: u64 = day.parse().ok()?;
    let month = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    .iter()
    .position(|m| m == month)? as u64
        + 1;
    let year: u64 = year.parse().ok()?;
    let hms: Vec<u64> = time
        .split(':')
        .map(|p| p.parse().ok())
        .collect::<Option<_>>()?;
    let [h, m, s] = hms.as_slice() else {
        return None;
    };
    // Days from the civil date (Howard Hinnant's algorithm).
    let (y, mo) = if month <= 2 {
        (year - 1, month + 9)
    } else {
        (year, month - 3)
    };
    let era = y / 400;
    let yoe = y - era * 400;
    let doy = (153 * mo + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe;
    let days = days.checked_sub(719_468)?;
    let seconds = days * 86_400 + h * 3_600 + m * 60 + s;
    Some(SystemTime::UNIX_EPOCH + Duration::from_secs(seconds))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn http_dates_parse() {
        let t = httpdate("Sun, 06 Nov 1994 08:49:37 GMT").unwrap();
        assert_eq!(
            t.duration_since(SystemTime::UNIX_EPOCH).unwrap().as_secs(),
            784_111_777
        );
        assert!(httpdate("yesterday").is_none());
    }

    #[test]
    fn backoff_is_bounded_and_jittered() {
        for attempt in 1..20 {
            assert!(backoff(attempt) <= MAX_BACKOFF);
        }
        let waits: std::collections::BTreeSet<_> = (0..20).map(|_| backoff(3)).collect();
        assert!(waits.len() > 10, "jitter spreads waits");
    }

    #[test]
    fn retry_after_takes_seconds_and_caps() {
        let mut h = http::HeaderMap::new();
        h.insert(http::header::RETRY_AFTER, "2".parse().unwrap());
        assert_eq!(
            retry_after(&h, Duration::from_secs(30)),
            Asked::Wait(Duration::from_secs(2))
        );
        h.insert(http::header::RETRY_AFTER, "3600".parse().unwrap());
        assert_eq!(retry_after(&h, Duration::from_secs(30)), Asked::TooLong);
        assert_eq!(
            retry_after(&http::HeaderMap::new(), Duration::from_secs(30)),
            Asked::Nothing
        );
    }
}
