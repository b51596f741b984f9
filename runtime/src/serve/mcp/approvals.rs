//! The `requestState` of a 2026-07-28 confirmation: proof that this server put this
//! exact call to this caller's user, which only this server can make and which is good
//! once.
//!
//! A stateless client answers a confirmation by calling again with the answer and the
//! state it was given, so the state is all that ties the answer to the question. If a
//! client could make one itself, it could approve its own dangerous call (the third
//! security review's F1). So a state is `tw2.<nonce>.<expiry>.<mac>`: HMAC-SHA256,
//! under a key drawn from the OS's CSPRNG when the server is made, over the caller's
//! name, the tool, its arguments (canonical JSON), the nonce and the expiry. The server
//! also keeps the nonces it issued and has not yet seen answered (bounded, oldest
//! dropped first), so a state is redeemed once: a replay, a state made by another
//! process or one past its expiry is refused.
//!
//! The key and the ledger live in the process: behind a load balancer, a caller's
//! answer must reach the instance that asked (otherwise it is refused and the client
//! asks again).

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ring::hmac;
use ring::rand::{SecureRandom, SystemRandom};
use serde_json::Value;

/// How long a person may take to answer (the state's lifetime).
pub(super) const ANSWER_TIMEOUT: Duration = Duration::from_secs(300);
/// Unanswered confirmations kept at most, all callers together.
const MAX_PENDING: usize = 4096;
/// Unanswered confirmations kept at most for one caller: a caller asking for more
/// drops its own oldest, never another caller's.
const MAX_PENDING_PER_CALLER: usize = 32;
const PREFIX: &str = "tw2";
/// A state that also carries what a service tool asked and its own state between
/// rounds (`tw3.<nonce>.<expiry>.<payload>.<mac>`), MAC'd with the rest.
const CARRYING: &str = "tw3";

type Nonce = [u8; 16];

/// The confirmation states this server issued and has not seen redeemed.
pub(super) struct Approvals {
    key: hmac::Key,
    random: SystemRandom,
    pending: Mutex<Pending>,
}

impl std::fmt::Debug for Approvals {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Approvals").finish_non_exhaustive()
    }
}

#[derive(Default)]
struct Pending {
    /// Issued, unanswered nonces and whose they are.
    by_nonce: HashMap<Nonce, Option<String>>,
    /// How many each caller holds (only callers holding some).
    held: HashMap<Option<String>, usize>,
    /// The same nonces in the order they were issued, with when they expire (the
    /// lifetime is fixed, so this is also the order they expire in).
    order: VecDeque<(Nonce, Instant)>,
}

impl Pending {
    fn insert(&mut self, nonce: Nonce, owner: Option<String>, expires: Instant) {
        *self.held.entry(owner.clone()).or_default() += 1;
        self.by_nonce.insert(nonce, owner);
        self.order.push_back((nonce, expires));
    }

    /// Drops `nonce` from the map and the counts (not from `order`); whether it was held.
    fn remove(&mut self, nonce: &Nonce) -> bool {
        let Some(owner) = self.by_nonce.remove(nonce) else {
            return false;
        };
        if let Some(n) = self.held.get_mut(&owner) {
            *n -= 1;
            if *n == 0 {
                self.held.remove(&owner);
            }
        }
        true
    }

    /// Drops the oldest state issued to `owner`.
    fn drop_oldest_of(&mut self, owner: &Option<String>) {
        let at = self
            .order
            .iter()
            .position(|(n, _)| self.by_nonce.get(n) == Some(owner));
        if let Some((dropped, _)) = at.and_then(|at| self.order.remove(at)) {
            self.remove(&dropped);
        }
    }
}

/// Why an answered state does not approve the call.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Refused {
    /// Not a state this server makes, or not for this caller, tool and arguments.
    Forged,
    /// Past its expiry.
    Expired,
    /// Answered once already, or dropped (another process, or too many unanswered).
    Used,
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Refused::Forged => {
                "`requestState` fails this server's integrity check: it was not issued for this caller, this tool and these arguments"
            }
            Refused::Expired => "`requestState` has expired: call again without it to be asked again",
            Refused::Used => {
                "`requestState` was used already or is no longer held: call again without it to be asked again"
            }
        })
    }
}

impl Approvals {
    /// A ledger with a fresh random key.
    ///
    /// # Panics
    /// When the OS has no randomness to give (a server cannot run safely then).
    pub(super) fn new() -> Approvals {
        let random = SystemRandom::new();
        let key = hmac::Key::generate(hmac::HMAC_SHA256, &random)
            .expect("the operating system's random number generator answers");
        Approvals {
            key,
            random,
            pending: Mutex::default(),
        }
    }

    /// A state for asking `caller` about running `tool` with `args`.
    pub(super) fn issue(&self, caller: Option<&str>, tool: &str, args: &Value) -> String {
        let (nonce, expiry) = self.fresh(caller);
        let mac = self.mac(caller, tool, args, &nonce, expiry, None);
        format!(
            "{PREFIX}.{}.{expiry}.{}",
            URL_SAFE_NO_PAD.encode(nonce),
            URL_SAFE_NO_PAD.encode(mac.as_ref())
        )
    }

    /// A state for asking `caller` for input to `target` (a tool or prompt) with
    /// `args`, carrying `payload` back to the server unaltered.
    pub(super) fn issue_carrying(
        &self,
        caller: Option<&str>,
        target: &str,
        args: &Value,
        payload: &Value,
    ) -> String {
        let (nonce, expiry) = self.fresh(caller);
        let mac = self.mac(caller, target, args, &nonce, expiry, Some(payload));
        format!(
            "{CARRYING}.{}.{expiry}.{}.{}",
            URL_SAFE_NO_PAD.encode(nonce),
            URL_SAFE_NO_PAD.encode(payload.to_string()),
            URL_SAFE_NO_PAD.encode(mac.as_ref())
        )
    }

    /// A nonce, remembered for `caller`, and its expiry.
    fn fresh(&self, caller: Option<&str>) -> (Nonce, u64) {
        let mut nonce: Nonce = [0; 16];
        self.random
            .fill(&mut nonce)
            .expect("the operating system's random number generator answers");
        self.remember(nonce, caller);
        (nonce, unix_now() + ANSWER_TIMEOUT.as_secs())
    }

    /// Takes a [`Approvals::issue_carrying`] state back: its payload, once, when it
    /// was issued for exactly this caller, target and arguments.
    pub(super) fn redeem_carrying(
        &self,
        state: &str,
        caller: Option<&str>,
        target: &str,
        args: &Value,
    ) -> Result<Value, Refused> {
        let mut parts = state.split('.');
        let (Some(CARRYING), Some(nonce), Some(expiry), Some(payload), Some(mac), None) = (
            parts.next(),
            parts.next(),
            parts.next(),
            parts.next(),
            parts.next(),
            parts.next(),
        ) else {
            return Err(Refused::Forged);
        };
        let payload: Value = URL_SAFE_NO_PAD
            .decode(payload)
            .ok()
            .and_then(|p| serde_json::from_slice(&p).ok())
            .ok_or(Refused::Forged)?;
        self.check(caller, target, args, nonce, expiry, Some(&payload), mac)?;
        Ok(payload)
    }

    /// Takes `state` back as the answer of `caller` about `tool` with `args`: `Ok` once
    /// for a state this server issued for exactly that, then never again.
    pub(super) fn redeem(
        &self,
        state: &str,
        caller: Option<&str>,
        tool: &str,
        args: &Value,
    ) -> Result<(), Refused> {
        let mut parts = state.split('.');
        let (Some(PREFIX), Some(nonce), Some(expiry), Some(mac), None) = (
            parts.next(),
            parts.next(),
            parts.next(),
            parts.next(),
            parts.next(),
        ) else {
            return Err(Refused::Forged);
        };
        self.check(caller, tool, args, nonce, expiry, None, mac)
    }

    /// Verifies a state's parts and spends its nonce.
    #[allow(clippy::too_many_arguments)]
    fn check(
        &self,
        caller: Option<&str>,
        tool: &str,
        args: &Value,
        nonce: &str,
        expiry: &str,
        payload: Option<&Value>,
        mac: &str,
    ) -> Result<(), Refused> {
        let nonce: Nonce = URL_SAFE_NO_PAD
            .decode(nonce)
            .ok()
            .and_then(|n| n.try_into().ok())
            .ok_or(Refused::Forged)?;
        let expiry: u64 = expiry.parse().map_err(|_| Refused::Forged)?;
        let mac = URL_SAFE_NO_PAD.decode(mac).map_err(|_| Refused::Forged)?;
        // The MAC first: a state that fails it consumes nothing, so a caller cannot
        // spend another caller's pending confirmation by sending it tampered.
        hmac::verify(
            &self.key,
            &message(caller, tool, args, &nonce, expiry, payload),
            &mac,
        )
        .map_err(|_| Refused::Forged)?;
        if unix_now() > expiry {
            self.forget(&nonce);
            return Err(Refused::Expired);
        }
        if self.forget(&nonce) {
            Ok(())
        } else {
            Err(Refused::Used)
        }
    }

    fn mac(
        &self,
        caller: Option<&str>,
        tool: &str,
        args: &Value,
        nonce: &Nonce,
        expiry: u64,
        payload: Option<&Value>,
    ) -> hmac::Tag {
        hmac::sign(
            &self.key,
            &message(caller, tool, args, nonce, expiry, payload),
        )
    }

    fn remember(&self, nonce: Nonce, caller: Option<&str>) {
        let mut pending = lock(&self.pending);
        let now = Instant::now();
        while let Some((oldest, expires)) = pending.order.front().copied() {
            if expires > now {
                break;
            }
            pending.order.pop_front();
            pending.remove(&oldest);
        }
        let owner = caller.map(str::to_owned);
        if pending.held.get(&owner).copied().unwrap_or(0) >= MAX_PENDING_PER_CALLER {
            pending.drop_oldest_of(&owner);
        } else if pending.by_nonce.len() >= MAX_PENDING {
            // Full: the caller holding the most gives up its oldest, so callers
            // asking for many cannot push out the few of another.
            let most = pending
                .held
                .iter()
                .max_by_key(|(_, n)| **n)
                .map(|(holder, _)| holder.clone());
            if let Some(most) = most {
                pending.drop_oldest_of(&most);
            }
        }
        pending.insert(nonce, owner, now + ANSWER_TIMEOUT);
    }

    /// Drops `nonce`; whether it was pending.
    fn forget(&self, nonce: &Nonce) -> bool {
        let mut pending = lock(&self.pending);
        if !pending.remove(nonce) {
            return false;
        }
        pending.order.retain(|(n, _)| n != nonce);
        true
    }

    #[cfg(test)]
    fn pending(&self) -> usize {
        lock(&self.pending).by_nonce.len()
    }
}

/// What the MAC covers, each part length-prefixed so no two inputs run together.
fn message(
    caller: Option<&str>,
    tool: &str,
    args: &Value,
    nonce: &Nonce,
    expiry: u64,
    payload: Option<&Value>,
) -> Vec<u8> {
    let mut canonical = String::new();
    canonical_json(args, &mut canonical);
    let mut out = Vec::with_capacity(64 + canonical.len());
    let mut part = |bytes: &[u8]| {
        out.extend_from_slice(&(bytes.len() as u64).to_be_bytes());
        out.extend_from_slice(bytes);
    };
    // A confirmation and a carrying state never stand for each other.
    part(match payload {
        None => b"toolwright confirmation v2".as_slice(),
        Some(_) => b"toolwright input state v3".as_slice(),
    });
    // No caller (stdio, a server without authorization) differs from every name.
    match caller {
        None => part(b"\0"),
        Some(name) => part(format!("caller:{name}").as_bytes()),
    }
    part(tool.as_bytes());
    part(canonical.as_bytes());
    part(nonce);
    part(&expiry.to_be_bytes());
    if let Some(payload) = payload {
        let mut canonical = String::new();
        canonical_json(payload, &mut canonical);
        part(canonical.as_bytes());
    }
    out
}

/// JSON with object keys sorted, whatever order the client sent them in.
fn canonical_json(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(k.clone()).to_string());
                out.push(':');
                canonical_json(&map[k], out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                canonical_json(v, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_state_approves_its_own_call_once() {
        let approvals = Approvals::new();
        let args = json!({"project": "web", "number": 7});
        let state = approvals.issue(Some("alice"), "delete_issue", &args);
        // Key order is not part of the call.
        let reordered = json!({"number": 7, "project": "web"});
        assert_eq!(
            approvals.redeem(&state, Some("alice"), "delete_issue", &reordered),
            Ok(())
        );
        assert_eq!(
            approvals.redeem(&state, Some("alice"), "delete_issue", &args),
            Err(Refused::Used)
        );
        assert_eq!(approvals.pending(), 0);
    }

    #[test]
    fn a_state_is_bound_to_its_caller_tool_and_arguments() {
        let approvals = Approvals::new();
        let args = json!({"project": "web", "number": 7});
        let state = approvals.issue(Some("alice"), "delete_issue", &args);
        for (caller, tool, args) in [
            (Some("bob"), "delete_issue", args.clone()),
            (None, "delete_issue", args.clone()),
            (Some("alice"), "close_issue", args.clone()),
            (
                Some("alice"),
                "delete_issue",
                json!({"project": "web", "number": 8}),
            ),
        ] {
            assert_eq!(
                approvals.redeem(&state, caller, tool, &args),
                Err(Refused::Forged),
                "{caller:?} {tool} {args}"
            );
        }
        // None of those spent it.
        assert_eq!(
            approvals.redeem(&state, Some("alice"), "delete_issue", &args),
            Ok(())
        );
    }

    #[test]
    fn made_up_tampered_and_foreign_states_are_refused() {
        let approvals = Approvals::new();
        let other = Approvals::new();
        let args = json!({});
        let state = approvals.issue(None, "wipe", &args);
        let foreign = other.issue(None, "wipe", &args);
        let mut flipped = state.clone().into_bytes();
        let last = flipped.len() - 1;
        flipped[last] = if flipped[last] == b'A' { b'B' } else { b'A' };
        let flipped = String::from_utf8(flipped).unwrap();
        // A later expiry, with the MAC left as it was.
        let parts: Vec<&str> = state.split('.').collect();
        let later = format!("{}.{}.{}.{}", parts[0], parts[1], u64::MAX, parts[3]);
        for bad in [
            "toolwright-confirm-v1:2c33d1e17b734412".to_owned(),
            format!("{state}-TAMPERED"),
            flipped,
            later,
            foreign,
            String::new(),
            "tw2...".to_owned(),
        ] {
            assert_eq!(
                approvals.redeem(&bad, None, "wipe", &args),
                Err(Refused::Forged),
                "{bad}"
            );
        }
        assert_eq!(approvals.redeem(&state, None, "wipe", &args), Ok(()));
    }

    #[test]
    fn one_caller_cannot_crowd_out_anothers_pending_confirmations() {
        let approvals = Approvals::new();
        let args = json!({});
        let bobs = approvals.issue(Some("bob"), "wipe", &args);
        for _ in 0..(MAX_PENDING_PER_CALLER * 3) {
            approvals.issue(Some("mallory"), "wipe", &args);
        }
        assert_eq!(approvals.pending(), MAX_PENDING_PER_CALLER + 1);
        assert_eq!(approvals.redeem(&bobs, Some("bob"), "wipe", &args), Ok(()));
        // Many callers filling the whole ledger: the ones holding most give way.
        let bobs = approvals.issue(Some("bob"), "wipe", &args);
        for i in 0..(MAX_PENDING / MAX_PENDING_PER_CALLER + 4) {
            let name = format!("token:{i}");
            for _ in 0..MAX_PENDING_PER_CALLER {
                approvals.issue(Some(&name), "wipe", &args);
            }
        }
        assert!(approvals.pending() <= MAX_PENDING);
        assert_eq!(approvals.redeem(&bobs, Some("bob"), "wipe", &args), Ok(()));
    }
}
