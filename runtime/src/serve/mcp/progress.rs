//! `notifications/progress` for calls whose request carries a `progressToken`: one
//! when the call starts, then one per interval while the API has not answered, so a
//! client can show that a slow call is alive (and keep its request timeout from
//! firing, for clients that reset it on progress).

use std::future::Future;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::sync::mpsc::UnboundedSender;

/// Runs `call`, reporting on `notify` until it finishes. Until the answer's body
/// starts arriving, progress counts the notifications sent (it must increase) with no
/// `total`; then it is the bytes `received`, with the `Content-Length` as `total` when
/// the server sent one (a notification only when more arrived).
pub(super) async fn while_running<T>(
    call: impl Future<Output = T>,
    token: &Value,
    what: &str,
    every: Duration,
    received: &crate::transport::Received,
    notify: &UnboundedSender<String>,
) -> T {
    let send = |n: u64, total: Option<u64>, message: String| {
        let mut params = json!({"progressToken": token, "progress": n, "message": message});
        if let Some(total) = total {
            params["total"] = json!(total);
        }
        let note = json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": params});
        let _ = notify.send(note.to_string());
    };
    send(0, None, format!("calling {what}"));
    let started = tokio::time::Instant::now();
    let mut ticks = tokio::time::interval_at(started + every, every);
    tokio::pin!(call);
    let mut last = 0;
    loop {
        tokio::select! {
            done = &mut call => return done,
            _ = ticks.tick() => {
                let elapsed = started.elapsed();
                match received.get() {
                    (0, _) => {
                        last += 1;
                        send(last, None, format!("waiting for {what} ({elapsed:.0?})"));
                    }
                    (bytes, total) if bytes > last => {
                        last = bytes;
                        let of = total.map(|t| format!(" of {t}")).unwrap_or_default();
                        send(bytes, total, format!("received {bytes}{of} bytes from {what} ({elapsed:.0?})"));
                    }
                    _ => {}
                }
            }
        }
    }
}
