//! MCP sessions of the streamable HTTP endpoint: issued by `initialize`, ended by
//! `DELETE`, by idling past their time to live, or — when the set is full — by being
//! the least recently used. Without the last two a client that initializes in a loop
//! grows the set for as long as the server runs.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::lock;

#[derive(Debug)]
pub(super) struct Sessions {
    last_used: Mutex<HashMap<String, Instant>>,
    max: usize,
    ttl: Duration,
}

impl Sessions {
    pub(super) fn new(max: usize, ttl: Duration) -> Self {
        Sessions {
            last_used: Mutex::default(),
            max: max.max(1),
            ttl,
        }
    }

    /// A new session's id, made room for.
    pub(super) fn start(&self) -> String {
        let id = new_session_id();
        let now = Instant::now();
        let mut sessions = lock(&self.last_used);
        if sessions.len() >= self.max {
            sessions.retain(|_, used| now.duration_since(*used) < self.ttl);
        }
        if sessions.len() >= self.max {
            let oldest = sessions
                .iter()
                .min_by_key(|(_, used)| **used)
                .map(|(id, _)| id.clone());
            if let Some(oldest) = oldest {
                sessions.remove(&oldest);
            }
        }
        sessions.insert(id.clone(), now);
        id
    }

    /// Whether `id` is a live session; using it keeps it alive.
    pub(super) fn touch(&self, id: &str) -> bool {
        let now = Instant::now();
        let mut sessions = lock(&self.last_used);
        match sessions.get_mut(id) {
            Some(used) if now.duration_since(*used) < self.ttl => {
                *used = now;
                true
            }
            Some(_) => {
                sessions.remove(id);
                false
            }
            None => false,
        }
    }

    /// Ends `id`; false when there was no such session.
    pub(super) fn end(&self, id: &str) -> bool {
        lock(&self.last_used).remove(id).is_some()
    }

    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        lock(&self.last_used).len()
    }
}

/// 128 random bits as hex, from the OS (through std's hasher seeds, no extra crate).
fn new_session_id() -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut out = String::with_capacity(32);
    for _ in 0..2 {
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        out.push_str(&format!("{:016x}", hasher.finish()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_sets_drop_the_least_recently_used_and_idle_ones_expire() {
        let sessions = Sessions::new(3, Duration::from_secs(3600));
        let ids: Vec<String> = (0..3).map(|_| sessions.start()).collect();
        std::thread::sleep(Duration::from_millis(2));
        assert!(sessions.touch(&ids[0]));
        let fourth = sessions.start();
        assert_eq!(sessions.len(), 3);
        assert!(sessions.touch(&ids[0]), "recently used, kept");
        assert!(!sessions.touch(&ids[1]), "least recently used, ended");
        assert!(sessions.touch(&fourth));
        assert!(sessions.end(&fourth) && !sessions.end(&fourth));

        let short = Sessions::new(10, Duration::from_millis(50));
        let id = short.start();
        assert!(short.touch(&id));
        std::thread::sleep(Duration::from_millis(150));
        assert!(!short.touch(&id), "idle past its time to live");
        assert_eq!(short.len(), 0);
    }
}
