//! `notifications/progress` for calls whose request carries a `progressToken`: one
//! when the call starts, then one per interval while the API has not answered, so a
//! client can show that a slow call is alive (and keep its request timeout from
//! firing, for clients that reset it on progress).

use std::future::Future;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::sync::mpsc::UnboundedSender;

/// Runs `call`, reporting on `notify` until it finishes. Progress counts the
/// notifications sent (it must increase); there is no `total`, as an HTTP call's
/// length is unknown.
pub(super) async fn while_running<T>(
    call: impl Future<Output = T>,
    token: &Value,
    what: &str,
    every: Duration,
    notify: &UnboundedSender<String>,
) -> T {
    let send = |n: u64, message: String| {
        let note = json!({
            "jsonrpc": "2.0",
            "method": "notifications/progress",
            "params": {"progressToken": token, "progress": n, "message": message},
        });
        let _ = notify.send(note.to_string());
    };
    send(0, format!("calling {what}"));
    let started = tokio::time::Instant::now();
    let mut ticks = tokio::time::interval_at(started + every, every);
    tokio::pin!(call);
    let mut n = 0;
    loop {
        tokio::select! {
            done = &mut call => return done,
            _ = ticks.tick() => {
                n += 1;
                send(n, format!("waiting for {what} ({:.0?})", started.elapsed()));
            }
        }
    }
}
