//! Names models accept: tool names `^[A-Za-z][A-Za-z0-9_]*$` within a length budget,
//! argument keys `^[A-Za-z_][A-Za-z0-9_]{0,63}$`.
//!
//! Shortening keeps meaning: first filler words go, then long words are abbreviated,
//! and only then are trailing words replaced by a short stable hash of the whole
//! name, so a word is never cut in half and two long names stay distinct.

use std::collections::{BTreeMap, BTreeSet};

/// Property keys every provider accepts (Gemini's are the narrowest).
pub const KEY_LIMIT: usize = 64;

/// Words that carry little meaning in an operation name, dropped first.
const FILLER: &[&str] = &[
    "a", "an", "and", "at", "by", "for", "from", "in", "into", "of", "on", "or", "the", "to",
    "via", "with",
];

/// Abbreviations a reader of API names recognises, applied second.
const ABBREVIATIONS: &[(&str, &str)] = &[
    ("administrator", "admin"),
    ("administrators", "admins"),
    ("application", "app"),
    ("applications", "apps"),
    ("attribute", "attr"),
    ("attributes", "attrs"),
    ("authentication", "auth"),
    ("authorization", "authz"),
    ("configuration", "config"),
    ("configurations", "configs"),
    ("dependencies", "deps"),
    ("dependency", "dep"),
    ("deployment", "deploy"),
    ("deployments", "deploys"),
    ("description", "desc"),
    ("directory", "dir"),
    ("enterprise", "ent"),
    ("enterprises", "ents"),
    ("environment", "env"),
    ("environments", "envs"),
    ("identifier", "id"),
    ("information", "info"),
    ("management", "mgmt"),
    ("message", "msg"),
    ("messages", "msgs"),
    ("notification", "notif"),
    ("notifications", "notifs"),
    ("organization", "org"),
    ("organizations", "orgs"),
    ("parameter", "param"),
    ("parameters", "params"),
    ("permission", "perm"),
    ("permissions", "perms"),
    ("reference", "ref"),
    ("references", "refs"),
    ("repositories", "repos"),
    ("repository", "repo"),
    ("specification", "spec"),
    ("statistics", "stats"),
    ("subscription", "sub"),
    ("subscriptions", "subs"),
    ("temporary", "tmp"),
    ("version", "ver"),
    ("versions", "vers"),
];

/// Characters of the hash suffix (`_` and six hex digits): 2^24 values, and the
/// kept words differ too, so collisions between shortened names are rare; they are
/// still detected and resolved.
const HASH_LEN: usize = 7;

/// `name` within `budget` characters. `name` is expected to be a valid tool name or key
/// already (see [`keys`]); the result is, too.
pub fn shorten(name: &str, budget: usize) -> String {
    if name.len() <= budget {
        return name.to_owned();
    }
    let mut words = split(name);
    // Filler words go, except a leading one (it may be all there is to a verb).
    let mut i = words.len();
    while i > 1 {
        i -= 1;
        if FILLER.contains(&words[i].1.to_ascii_lowercase().as_str()) {
            words.remove(i);
            if join(&words).len() <= budget {
                return join(&words);
            }
        }
    }
    for word in &mut words {
        if let Some((_, short)) = ABBREVIATIONS
            .iter()
            .find(|(long, _)| long.eq_ignore_ascii_case(&word.1))
        {
            word.1 = match_case(&word.1, short);
        }
    }
    let joined = join(&words);
    if joined.len() <= budget {
        return joined;
    }
    hashed(&words, name, budget)
}

/// Whole words from the start of `words` that fit `budget` with a hash of `original`.
fn hashed(words: &[(String, String)], original: &str, budget: usize) -> String {
    let room = budget.saturating_sub(HASH_LEN);
    let mut kept = Vec::new();
    for word in words {
        kept.push(word.clone());
        if join(&kept).len() > room {
            kept.pop();
            break;
        }
    }
    let mut out = join(&kept);
    if out.is_empty() {
        // Not even the first word fits: a letter keeps the name valid.
        out.push('t');
    }
    let hash = format!("{:016x}", fnv1a(original.as_bytes()));
    let digits = budget.saturating_sub(out.len() + 1).min(6);
    out.push('_');
    out.push_str(&hash[..digits.max(1)]);
    out
}

/// Words with the separator before each (`_`, or empty at a camelCase boundary), so
/// joining them gives the name back.
fn split(name: &str) -> Vec<(String, String)> {
    let mut words: Vec<(String, String)> = Vec::new();
    let mut sep = String::new();
    let mut word = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if c == '_' {
            if !word.is_empty() {
                words.push((std::mem::take(&mut sep), std::mem::take(&mut word)));
            }
            sep.push('_');
            prev_lower = false;
            continue;
        }
        if c.is_ascii_uppercase() && prev_lower && !word.is_empty() {
            words.push((std::mem::take(&mut sep), std::mem::take(&mut word)));
        }
        prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        word.push(c);
    }
    if !word.is_empty() || !sep.is_empty() {
        words.push((sep, word));
    }
    words
}

fn join(words: &[(String, String)]) -> String {
    // Dropped words are never the first one, and each word keeps its own separator,
    // so what remains reads as before (a leading `_` of a key included).
    words
        .iter()
        .map(|(sep, word)| format!("{sep}{word}"))
        .collect()
}

/// `short` in the case style of `long` (`Organization` → `Org`).
fn match_case(long: &str, short: &str) -> String {
    if long.chars().all(|c| c.is_ascii_uppercase()) {
        short.to_ascii_uppercase()
    } else if long.starts_with(|c: char| c.is_ascii_uppercase()) {
        let mut s = short.to_owned();
        s[..1].make_ascii_uppercase();
        s
    } else {
        short.to_owned()
    }
}

/// Whether `word` is one of the abbreviations shortening uses (`org`, `repos`…).
pub fn is_abbreviation(word: &str) -> bool {
    ABBREVIATIONS
        .iter()
        .any(|(_, short)| short.eq_ignore_ascii_case(word))
}

/// 64-bit FNV-1a: stable across runs, platforms and releases (std's hasher is not).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Whether `name` is a tool name every provider accepts, within `budget`.
pub fn is_tool_name(name: &str, budget: usize) -> bool {
    name.len() <= budget
        && name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Whether `key` is a property key every provider accepts.
pub fn is_key(key: &str) -> bool {
    key.len() <= KEY_LIMIT
        && key.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A tool name made valid (`repos/get-content` → `repos_get_content`), not yet shortened.
pub fn tool_name(raw: &str) -> String {
    let mut out = word_chars(raw);
    if !out.starts_with(|c: char| c.is_ascii_alphabetic()) {
        out.insert_str(0, "op_");
    }
    out
}

/// `filter[id]` → `filter_id`, `X-Trace` → `X_Trace`, `2fa` → `_2fa`.
fn key_form(raw: &str) -> String {
    let mut out = word_chars(raw);
    if out.is_empty() {
        out.push('_');
    } else if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    shorten(&out, KEY_LIMIT)
}

/// Runs of characters outside `[A-Za-z0-9_]` become one `_`; trimmed at the ends
/// unless the original starts with `_` (a key's own leading underscore is kept).
fn word_chars(raw: &str) -> String {
    let mut out = String::new();
    for c in raw.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            out.push(c);
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    let lead = raw.starts_with('_');
    let trimmed = out.trim_end_matches('_');
    let trimmed = if lead {
        trimmed
    } else {
        trimmed.trim_start_matches('_')
    };
    trimmed.to_owned()
}

/// Exported keys for one object's properties: valid keys stay as they are, others
/// take a form made valid (`filter[id]` → `filter_id`); a clash gets `_2`, `_3`… in the order of `keys`. Returns
/// original → exported.
pub fn keys<'a>(keys: impl IntoIterator<Item = &'a str>) -> BTreeMap<String, String> {
    let keys: Vec<&str> = keys.into_iter().collect();
    let mut taken: BTreeSet<String> = keys
        .iter()
        .filter(|k| is_key(k))
        .map(|k| (*k).to_owned())
        .collect();
    let mut out = BTreeMap::new();
    for key in keys {
        if is_key(key) {
            out.insert(key.to_owned(), key.to_owned());
            continue;
        }
        let base = key_form(key);
        let mut candidate = base.clone();
        let mut n = 2;
        while taken.contains(&candidate) {
            let suffix = format!("_{n}");
            candidate = format!("{}{suffix}", shorten(&base, KEY_LIMIT - suffix.len()));
            n += 1;
        }
        taken.insert(candidate.clone());
        out.insert(key.to_owned(), candidate);
    }
    out
}

/// Exported tool names for `names` (catalog order), each within `budget` and unique.
/// Returns exported names in the same order.
pub fn tool_names(names: &[&str], budget: usize) -> Vec<String> {
    let budget = budget.max(HASH_LEN + 1);
    let mut out: Vec<String> = names
        .iter()
        .map(|n| shorten(&tool_name(n), budget))
        .collect();
    // Names that came out equal (two long names sharing their first words, or a
    // shortened name meeting an untouched one) are told apart by their hashes; a
    // name that needed no change keeps it.
    loop {
        let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
        let mut clash = None;
        for (i, name) in out.iter().enumerate() {
            if let Some(&j) = seen.get(name.as_str()) {
                clash = Some((j, i));
                break;
            }
            seen.insert(name, i);
        }
        let Some((j, i)) = clash else { break };
        let pick = if out[i] == names[i] { j } else { i };
        let salt = format!("{}#{}", names[pick], out[pick]);
        let words = split(&tool_name(names[pick]));
        out[pick] = hashed(&words, &salt, budget);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const GITHUB: &str = "actions_disable_selected_repository_self_hosted_runners_organization";

    #[test]
    fn short_names_are_kept() {
        assert_eq!(shorten("get_pet", 64), "get_pet");
    }

    #[test]
    fn filler_goes_before_meaning() {
        assert_eq!(
            shorten("list_issues_for_the_repository", 24),
            "list_issues_repository"
        );
    }

    #[test]
    fn abbreviations_come_next() {
        let short = shorten(GITHUB, 64);
        assert_eq!(
            short,
            "actions_disable_selected_repo_self_hosted_runners_org"
        );
    }

    #[test]
    fn words_are_never_cut() {
        let short = shorten(GITHUB, 40);
        assert!(short.len() <= 40, "{short}");
        let (words, hash) = short.rsplit_once('_').unwrap();
        assert_eq!(hash.len(), 6);
        assert!(GITHUB.starts_with(words) || "actions_disable_selected_repo".starts_with(words));
        for word in words.split('_') {
            assert!(
                GITHUB.split('_').any(|w| w == word)
                    || ABBREVIATIONS.iter().any(|(_, s)| *s == word),
                "{word} is a cut word"
            );
        }
        assert_eq!(short, shorten(GITHUB, 40), "stable");
    }

    #[test]
    fn camel_case_names_split_into_words() {
        let short = shorten("listRepositoryInvitationsForAuthenticatedUser", 30);
        assert!(short.len() <= 30, "{short}");
        assert!(short.starts_with("listRepo"), "{short}");
    }

    #[test]
    fn keys_become_valid_and_distinct() {
        let map = keys(["filter[id]", "filter_id", "X-Trace", "2fa", "ok"]);
        assert_eq!(map["ok"], "ok");
        assert_eq!(map["filter_id"], "filter_id");
        assert_eq!(map["filter[id]"], "filter_id_2");
        assert_eq!(map["X-Trace"], "X_Trace");
        assert_eq!(map["2fa"], "_2fa");
        assert!(map.values().all(|k| is_key(k)));
    }

    #[test]
    fn tool_names_stay_unique() {
        let a = format!("{GITHUB}_a");
        let b = format!("{GITHUB}_b");
        let names = [a.as_str(), b.as_str(), "get_pet"];
        let out = tool_names(&names, 48);
        assert_eq!(out[2], "get_pet");
        assert_ne!(out[0], out[1]);
        assert!(out.iter().all(|n| is_tool_name(n, 48)), "{out:?}");
    }
}
