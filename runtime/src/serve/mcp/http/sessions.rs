//! MCP sessions of the streamable HTTP endpoint: issued by `initialize`, ended by
//! `DELETE`, by idling past their time to live, or — when the set is full — by being
//! the least recently used. Without the last two a client that initializes in a loop
//! grows the set for as long as the server runs. A session belongs to the caller who
//! started it: another caller presenting its id is told it does not exist, and one
//! caller holds at most `per_caller` (its oldest ends first), so one client cannot push
//! everyone else's sessions out.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::lock;

/// When a session was last used, who started it, and its client (what its
/// `initialize` declared, the log level it set).
type Session = (Instant, Option<Arc<str>>, Client);

/// What a session knows of its client.
#[derive(Debug, Clone)]
pub(super) struct Client {
    pub capabilities: Arc<serde_json::Value>,
    /// `logging/setLevel`'s level, for this session alone.
    pub log_level: Arc<std::sync::atomic::AtomicU8>,
}

#[derive(Debug)]
pub(super) struct Sessions {
    /// Session id → when last used, and who started it (`None`: no authorization).
    last_used: Mutex<HashMap<String, Session>>,
    max: usize,
    per_caller: usize,
    ttl: Duration,
}

impl Sessions {
    pub(super) fn new(max: usize, per_caller: usize, ttl: Duration) -> Self {
        Sessions {
            last_used: Mutex::default(),
            max: max.max(1),
            per_caller: per_caller.max(1),
            ttl,
        }
    }

    /// A new session of `owner`, made room for.
    pub(super) fn start(&self, owner: Option<&str>, capabilities: serde_json::Value) -> String {
        let id = new_session_id();
        let now = Instant::now();
        let mut sessions = lock(&self.last_used);
        if sessions.len() >= self.max {
            sessions.retain(|_, (used, _, _)| now.duration_since(*used) < self.ttl);
        }
        let owned = |who: &Option<Arc<str>>| who.as_deref() == owner;
        if owner.is_some()
            && sessions.values().filter(|(_, who, _)| owned(who)).count() >= self.per_caller
        {
            let oldest = sessions
                .iter()
                .filter(|(_, (_, who, _))| owned(who))
                .min_by_key(|(_, (used, _, _))| *used)
                .map(|(id, _)| id.clone());
            if let Some(oldest) = oldest {
                sessions.remove(&oldest);
            }
        }
        if sessions.len() >= self.max {
            let oldest = sessions
                .iter()
                .min_by_key(|(_, (used, _, _))| *used)
                .map(|(id, _)| id.clone());
            if let Some(oldest) = oldest {
                sessions.remove(&oldest);
            }
        }
        let client = Client {
            capabilities: Arc::new(capabilities),
            log_level: Arc::new(std::sync::atomic::AtomicU8::new(
                crate::serve::mcp::LogLevel::Info as u8,
            )),
        };
        sessions.insert(id.clone(), (now, owner.map(Arc::from), client));
        id
    }

    /// What session `id` knows of its client (`None` for no such session).
    pub(super) fn client(&self, id: &str) -> Option<Client> {
        lock(&self.last_used)
            .get(id)
            .map(|(_, _, client)| client.clone())
    }

    /// Whether `id` is a live session of `owner`; using it keeps it alive.
    pub(super) fn touch(&self, id: &str, owner: Option<&str>) -> bool {
        let now = Instant::now();
        let mut sessions = lock(&self.last_used);
        match sessions.get_mut(id) {
            Some((_, who, _)) if who.as_deref() != owner => false,
            Some((used, _, _)) if now.duration_since(*used) < self.ttl => {
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

    /// Ends `owner`'s session `id`; false when it has no such session.
    pub(super) fn end(&self, id: &str, owner: Option<&str>) -> bool {
        let mut sessions = lock(&self.last_used);
        if sessions
            .get(id)
            .is_some_and(|(_, who, _)| who.as_deref() == owner)
        {
            sessions.remove(id);
            return true;
        }
        false
    }

    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        lock(&self.last_used).len()
    }
}

/// 128 random bits as hex, from the OS's CSPRNG (the MCP security best practices ask
/// for a secure random number generator; sessions are also bound to their caller).
fn new_session_id() -> String {
    use ring::rand::SecureRandom;
    let mut bits = [0u8; 16];
    ring::rand::SystemRandom::new()
        .fill(&mut bits)
        .expect("the operating system's random number generator answers");
    bits.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_sets_drop_the_least_recently_used_and_idle_ones_expire() {
        let sessions = Sessions::new(3, 10, Duration::from_secs(3600));
        let ids: Vec<String> = (0..3)
            .map(|_| sessions.start(None, serde_json::json!({})))
            .collect();
        std::thread::sleep(Duration::from_millis(2));
        assert!(sessions.touch(&ids[0], None));
        let fourth = sessions.start(None, serde_json::json!({}));
        assert_eq!(sessions.len(), 3);
        assert!(sessions.touch(&ids[0], None), "recently used, kept");
        assert!(!sessions.touch(&ids[1], None), "least recently used, ended");
        assert!(sessions.touch(&fourth, None));
        assert!(sessions.end(&fourth, None) && !sessions.end(&fourth, None));

        let short = Sessions::new(10, 10, Duration::from_millis(50));
        let id = short.start(None, serde_json::json!({}));
        assert!(short.touch(&id, None));
        std::thread::sleep(Duration::from_millis(150));
        assert!(!short.touch(&id, None), "idle past its time to live");
        assert_eq!(short.len(), 0);
    }

    #[test]
    fn a_session_is_its_callers_alone_and_one_caller_cannot_crowd_out_others() {
        let sessions = Sessions::new(100, 2, Duration::from_secs(3600));
        let bobs = sessions.start(Some("bob"), serde_json::json!({}));
        let first = sessions.start(Some("alice"), serde_json::json!({}));
        assert!(
            !sessions.touch(&first, Some("bob")),
            "another caller's session is unknown"
        );
        assert!(!sessions.end(&first, Some("bob")));
        assert!(!sessions.touch(&first, None));
        std::thread::sleep(Duration::from_millis(2));
        let _second = sessions.start(Some("alice"), serde_json::json!({}));
        let _third = sessions.start(Some("alice"), serde_json::json!({}));
        assert!(
            !sessions.touch(&first, Some("alice")),
            "alice's oldest ended"
        );
        assert!(sessions.touch(&bobs, Some("bob")), "bob's untouched");
        assert_eq!(sessions.len(), 3);
    }
}
