//! Nouns and keys: which resource a field identifies. `issue_number`, `{number}` in
//! `/issues/{number}`, and `Issue.number` all name the number; `Order.petId`
//! is an order's reference to a pet — not the order's identity, but a pet's, which a
//! caller passes on to `getPet` ([`reference_identity`]).

use std::collections::BTreeSet;

/// Words that make a field an identity of its resource.
const KEYS: &[&str] = &[
    "id", "number", "key", "uuid", "slug", "code", "no", "sid", "gid", "hash", "sha",
];
/// Words that are an identity on their own, whichever resource holds them: an
/// address, a content digest, the name a user is known by (`identity`). `issueAddress`,
/// `{address}` and `holders[].address` all name an address.
const SELF_KEYS: &[&str] = &["address", "digest", "identity"];
pub(crate) use crate::shapes::ENVELOPES;
/// Trailing words of schema names that say nothing about the resource.
const SCHEMA_SUFFIXES: &[&str] = &[
    "object",
    "response",
    "resource",
    "model",
    "dto",
    "schema",
    "details",
    "detail",
    "info",
    "entity",
    "representation",
    "full",
    "output",
    "result",
    "simple",
    "minimal",
    "basic",
    "summary",
];

pub fn snake(name: &str) -> String {
    // Already lowercase words (`user_id`, `v2`): heck would only split them at `_` and
    // join them again. The graph asks this of every field of every candidate producer
    // (millions of times on Microsoft Graph), most of them already snake case.
    if name
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
    {
        return underscored(name);
    }
    // Other names (`userPrincipalName`) come back over and over, and heck allocates a
    // word at a time: each is converted once per thread.
    thread_local! {
        static CONVERTED: std::cell::RefCell<std::collections::HashMap<String, String>> =
            std::cell::RefCell::default();
    }
    CONVERTED.with_borrow_mut(|converted| {
        if let Some(done) = converted.get(name) {
            return done.clone();
        }
        let snake = by_heck(name);
        // Bounded, for a process that reads one document after another.
        if converted.len() >= 1 << 16 {
            converted.clear();
        }
        converted.insert(name.to_owned(), snake.clone());
        snake
    })
}

/// [`snake`] the long way: heck's words, anything but ASCII letters and digits a
/// separator.
fn by_heck(name: &str) -> String {
    let s = heck::ToSnakeCase::to_snake_case(name);
    let ascii: String = s
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    underscored(&ascii)
}

/// The non-empty words between `_`s, joined by one `_`.
fn underscored(text: &str) -> String {
    text.split('_')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join("_")
}

/// Nouns whose plural and singular are one word (`releaseEventSeries`).
pub const SAME_IN_PLURAL: &[&str] = &["series", "species", "news", "data", "media", "metadata"];

/// The last word made singular (`issues` → `issue`, `categories` → `category`,
/// `statuses` → `status`); `series` stays `series`.
pub fn singular(snake: &str) -> String {
    let (head, last) = match snake.rsplit_once('_') {
        Some((h, l)) => (Some(h), l),
        None => (None, snake),
    };
    let one = if SAME_IN_PLURAL.contains(&last) {
        last.to_owned()
    } else if let Some(stem) = last.strip_suffix("ies").filter(|s| s.len() > 1) {
        format!("{stem}y")
    } else if last.ends_with("sses")
        || last.ends_with("uses")
        || last.ends_with("ches")
        || last.ends_with("shes")
        || last.ends_with("xes")
    {
        last[..last.len() - 2].to_owned()
    } else if last.len() > 2
        && last.ends_with('s')
        && !last.ends_with("ss")
        && !last.ends_with("us")
        && !last.ends_with("is")
    {
        last[..last.len() - 1].to_owned()
    } else {
        last.to_owned()
    };
    match head {
        Some(h) => format!("{h}_{one}"),
        None => one,
    }
}

/// A shared schema's resource noun: `IssueResponse` → `issue`, `simple-user` →
/// `simple_user`, `CDDriveFile` → `cd_drive_file`.
pub fn schema_noun(name: &str) -> String {
    let mut words: Vec<String> = snake(name).split('_').map(str::to_owned).collect();
    while words.len() > 1
        && words
            .last()
            .is_some_and(|w| SCHEMA_SUFFIXES.contains(&w.as_str()))
    {
        words.pop();
    }
    singular(&words.join("_"))
}

/// The resource noun of a path: the literal segment before `{param}` (or the last
/// literal one), made singular; action segments (`findByStatus`, `search`) are
/// skipped.
pub fn path_noun(path: &str, param: Option<&str>) -> Option<String> {
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let end = match param {
        Some(p) => segments.iter().position(|s| *s == format!("{{{p}}}"))?,
        None => segments.len(),
    };
    segments[..end]
        .iter()
        .rev()
        .filter(|s| !s.starts_with('{'))
        .find(|s| !is_action(s))
        .map(|s| singular(&snake(s)))
        .filter(|n| !n.is_empty())
}

pub fn is_action(segment: &str) -> bool {
    let s = snake(segment);
    let first = s.split('_').next().unwrap_or("");
    s.contains("_by_")
        || matches!(
            first,
            "find"
                | "search"
                | "list"
                | "get"
                | "login"
                | "logout"
                | "batch"
                | "bulk"
                | "count"
                | "content"
                | "download"
                | "upload"
                | "export"
                | "import"
                | "query"
                | "me"
        )
        || segment.starts_with("v") && segment[1..].chars().all(|c| c.is_ascii_digit() || c == '.')
        || segment == "api"
}

pub fn is_envelope(name: &str) -> bool {
    ENVELOPES.contains(&name.to_ascii_lowercase().as_str())
}

/// `noun.key` for an input: `issue_number` → `issue.number`; `{id}` in `/pets/{id}` →
/// `pet.id`; `username` in `/user/{username}` → `user.name`; `{txid}` → `tx.id` when
/// `tx` is one of the API's `nouns`; `{address}` → `address.address`.
pub fn consumer_identity(
    field: &str,
    path_noun: Option<&str>,
    nouns: &BTreeSet<String>,
) -> Option<String> {
    let s = snake(field);
    let words: Vec<&str> = s.split('_').collect();
    let last = *words.last()?;
    if words.len() == 1 {
        if KEYS.contains(&last) {
            return path_noun.map(|n| format!("{n}.{last}"));
        }
        if let Some(noun) = path_noun
            && let Some(rest) = s.strip_prefix(last_word(noun))
            && (KEYS.contains(&rest) || rest == "name")
        {
            return Some(format!("{noun}.{rest}"));
        }
        return self_key(last).or_else(|| glued(&s, nouns));
    }
    if KEYS.contains(&last) || last == "name" {
        let noun = singular(&words[..words.len() - 1].join("_"));
        return Some(format!("{noun}.{last}"));
    }
    key_first(&s)
        .or_else(|| self_key(last))
        .or_else(|| glued(last, nouns))
}

/// `noun.key` for a response leaf that refers to another resource: `petId` → `pet.id`,
/// `default_role_sid` → `default_role.sid`, `issueTxid` → `tx.id` (when `tx` is one of
/// the API's `nouns`), `issueAddress` → `address.address`. Names are not references.
pub fn reference_identity(field: &str, nouns: &BTreeSet<String>) -> Option<String> {
    let s = snake(field);
    let words: Vec<&str> = s.split('_').collect();
    let last = *words.last()?;
    if words.len() > 1 && KEYS.contains(&last) {
        let noun = singular(&words[..words.len() - 1].join("_"));
        return Some(format!("{noun}.{last}"));
    }
    key_first(&s)
        .or_else(|| self_key(&singular(last)))
        .or_else(|| glued(last, nouns))
}

/// An opaque id written before its noun, as some schemas name foreign keys: `id_log`
/// → `log.id`, `idx_site` → `site.id`. Only opaque ids (`id`, `idx`, `uuid`): other
/// keys read that way are phrases (`number_of_items`, `code_verifier`).
fn key_first(snake: &str) -> Option<String> {
    let (first, rest) = snake.split_once('_')?;
    let key = match first {
        "id" | "idx" => "id",
        "uuid" => "uuid",
        _ => return None,
    };
    Some(format!("{}.{key}", singular(rest)))
}

/// One of a list of keys: `history_item_ids` → `history_item_id`, `ids` → `id`,
/// `digests` → `digest`, `addresses` → `address`; `None` when the last word is no
/// plural of a key (`tags`).
pub fn one_key(snake: &str) -> Option<String> {
    let (head, last) = match snake.rsplit_once('_') {
        Some((h, l)) => (Some(h), l),
        None => (None, snake),
    };
    let is_key = |w: &str| KEYS.contains(&w) || SELF_KEYS.contains(&w) || w == "name";
    let one = [last.strip_suffix("es"), last.strip_suffix('s')]
        .into_iter()
        .flatten()
        .find(|w| is_key(w))?;
    Some(match head {
        Some(h) => format!("{h}_{one}"),
        None => one.to_owned(),
    })
}

/// `address` → `address.address`: a word that is an identity by itself.
fn self_key(word: &str) -> Option<String> {
    SELF_KEYS.contains(&word).then(|| format!("{word}.{word}"))
}

/// A noun and a key written as one word: `txid` → `tx.id`, `previousblockhash` →
/// `block.hash` — the part before the key must be (or end with) one of the API's
/// nouns of three or more letters (two for the whole part: `tx`).
fn glued(word: &str, nouns: &BTreeSet<String>) -> Option<String> {
    KEYS.iter().find_map(|key| {
        let head = word.strip_suffix(key).filter(|h| h.len() >= 2)?;
        if nouns.contains(head) {
            return Some(format!("{head}.{key}"));
        }
        (3..head.len())
            .map(|start| &head[start..])
            .find(|tail| tail.len() >= 3 && nouns.contains(*tail))
            .map(|noun| format!("{noun}.{key}"))
    })
}

/// `noun.key` for a response leaf of resource `noun`: its own keys (`id`, `number`,
/// or `username` on a user), never references to other resources (`Order.petId`).
pub fn producer_identity(field: &str, noun: &str) -> Option<String> {
    let s = snake(field);
    if KEYS.contains(&s.as_str()) {
        return Some(format!("{noun}.{s}"));
    }
    // `id_log` on a log.
    if let Some(own) = key_first(&s).filter(|identity| {
        split_identity(identity).is_some_and(|(n, k)| same_parts((n, k), (noun, k)))
    }) {
        return Some(own);
    }
    // `history_item_id` on a `history_item`, `item_id` on one too.
    [noun, last_word(noun)].iter().find_map(|own| {
        let rest = s.strip_prefix(own)?.trim_start_matches('_');
        (KEYS.contains(&rest) || rest == "name").then(|| format!("{noun}.{rest}"))
    })
}

fn last_word(noun: &str) -> &str {
    noun.rsplit('_').next().unwrap_or(noun)
}

/// The two places an identity's noun is filed under for [`same_parts`]: its last word
/// and its letters without underscores. Identities that match always share one of
/// them with the same key — equal nouns, and one noun a qualified form of the other
/// (`big_spot_insertion`, `spot_insertion`) or both of one (`default_role`,
/// `service_role`), share the last word; `spot_insertion` and `spotinsertion` share the
/// letters. So a consumed identity is compared only with the produced ones filed under
/// its two places, not with every one of the build's.
pub fn noun_places(noun: &str) -> (&str, String) {
    (
        last_word(noun),
        noun.chars().filter(|c| *c != '_').collect(),
    )
}

/// [`same_parts`] on whole identities.
#[cfg(test)]
pub fn same_identity(produced: &str, consumed: &str) -> bool {
    match (split_identity(produced), split_identity(consumed)) {
        (Some(p), Some(c)) => same_parts(p, c),
        _ => false,
    }
}

/// `issue.number` → (`issue`, `number`): the noun and the key of an identity.
pub fn split_identity(identity: &str) -> Option<(&str, &str)> {
    identity.rsplit_once('.')
}

/// Whether identities `produced` and `consumed` (`noun.key`, split by
/// [`split_identity`]; the graph splits each once) name the same thing: the same key,
/// and nouns equal or one a qualified form of the other (`simple_user` is a `user`;
/// `cd_drive_file` is a `file`), or two qualified forms of one (`default_channel_role`
/// and `service_role` are both roles).
pub fn same_parts((pn, pk): (&str, &str), (cn, ck): (&str, &str)) -> bool {
    // `spot_insertion` (a schema's name) and `spotinsertion` (a path's) are one noun.
    // No allocation: the graph compares identities millions of times on large APIs.
    fn joined(noun: &str) -> impl Iterator<Item = u8> + '_ {
        noun.bytes().filter(|b| *b != b'_')
    }
    // `big_spot_insertion` ends with `_spot_insertion`.
    let word_suffix = |long: &str, short: &str| {
        long.len() > short.len()
            && long.ends_with(short)
            && long.as_bytes()[long.len() - short.len() - 1] == b'_'
    };
    let qualified_alike = |a: &str, b: &str| match (a.rsplit_once('_'), b.rsplit_once('_')) {
        (Some((_, x)), Some((_, y))) => x == y && x.len() >= 3,
        _ => false,
    };
    pk == ck
        && (pn == cn
            || joined(pn).eq(joined(cn))
            || word_suffix(pn, cn)
            || word_suffix(cn, pn)
            || qualified_alike(pn, cn))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snake_case_words_are_what_heck_makes_of_them() {
        for name in [
            "user_id",
            "_user__id_",
            "v2beta",
            "a1b2",
            "id",
            "",
            "_",
            "2fa_code",
            "x_ms_v2",
            "userId",
            "HTTPServer",
            "user-id",
            "Ünïcode",
        ] {
            assert_eq!(snake(name), by_heck(name), "{name}");
        }
    }

    #[test]
    fn matching_identities_share_a_place() {
        let places = |identity: &str| {
            let (noun, key) = split_identity(identity).unwrap();
            let (word, letters) = noun_places(noun);
            (key.to_owned(), word.to_owned(), letters)
        };
        let share = |a: &str, b: &str| {
            let (a, b) = (places(a), places(b));
            a.0 == b.0 && (a.1 == b.1 || a.2 == b.2)
        };
        for (a, b) in [
            ("issue.number", "issue.number"),
            ("spot_insertion.id", "spotinsertion.id"),
            ("spot_insertion.id", "insertion.id"),
            ("big_spot_insertion.id", "spot_insertion.id"),
            ("default_channel_role.id", "service_role.id"),
            ("x_ab.id", "ab.id"),
        ] {
            assert!(same_identity(a, b) || same_identity(b, a), "{a} {b}");
            assert!(share(a, b), "{a} {b}");
        }
        assert!(!share("user.id", "user.name"));
        assert!(!share("user.id", "browser.id"));
    }

    #[test]
    fn identities() {
        let nouns: BTreeSet<String> = ["tx", "block", "token"].map(String::from).into();
        let consumer = |field, noun| consumer_identity(field, noun, &nouns);
        assert_eq!(
            consumer("issue_number", None).as_deref(),
            Some("issue.number")
        );
        assert_eq!(consumer("petId", None).as_deref(), Some("pet.id"));
        assert_eq!(consumer("id", Some("pet")).as_deref(), Some("pet.id"));
        assert_eq!(
            consumer("username", Some("user")).as_deref(),
            Some("user.name")
        );
        assert_eq!(consumer("file_id", None).as_deref(), Some("file.id"));
        assert_eq!(consumer("owner", Some("repo")), None);
        assert_eq!(consumer("txid", Some("rawtx")).as_deref(), Some("tx.id"));
        assert_eq!(
            consumer("blockhash", Some("block")).as_deref(),
            Some("block.hash")
        );
        assert_eq!(
            consumer("address", Some("addr")).as_deref(),
            Some("address.address")
        );
        assert_eq!(
            consumer("tokenid", Some("stakeholder")).as_deref(),
            Some("token.id")
        );
        assert_eq!(consumer("valid", None), None, "`va` is no noun");
        assert_eq!(
            one_key("history_item_ids").as_deref(),
            Some("history_item_id")
        );
        assert_eq!(one_key("ids").as_deref(), Some("id"));
        assert_eq!(one_key("digests").as_deref(), Some("digest"));
        assert_eq!(one_key("addresses").as_deref(), Some("address"));
        assert_eq!(one_key("tags"), None);
        assert_eq!(
            reference_identity("idx_site", &nouns).as_deref(),
            Some("site.id")
        );
        assert_eq!(
            reference_identity("number_of_items", &nouns),
            None,
            "a phrase, not a key"
        );
        assert_eq!(
            producer_identity("id_log", "log").as_deref(),
            Some("log.id")
        );
        assert_eq!(producer_identity("idx_site", "extension"), None);
        let reference = |field| reference_identity(field, &nouns);
        assert_eq!(reference("petId").as_deref(), Some("pet.id"));
        assert_eq!(reference("issueTxid").as_deref(), Some("tx.id"));
        assert_eq!(
            reference("previousblockhash").as_deref(),
            Some("block.hash")
        );
        assert_eq!(
            reference("issueAddress").as_deref(),
            Some("address.address")
        );
        assert_eq!(reference("addresses").as_deref(), Some("address.address"));
        assert_eq!(reference("friendly_name"), None, "names are not references");
        assert_eq!(
            producer_identity("history_item_id", "history_item").as_deref(),
            Some("history_item.id")
        );
        assert_eq!(producer_identity("id", "pet").as_deref(), Some("pet.id"));
        assert_eq!(
            producer_identity("username", "user").as_deref(),
            Some("user.name")
        );
        assert_eq!(
            producer_identity("petId", "order"),
            None,
            "a reference, not an identity"
        );
        assert!(same_identity("cd_drive_file.id", "file.id"));
        assert!(!same_identity("order.id", "pet.id"));
        assert!(!same_identity("pet.name", "pet.id"));
    }

    #[test]
    fn nouns() {
        assert_eq!(
            path_noun("/projects/{project}/issues/{number}", Some("number")).as_deref(),
            Some("issue")
        );
        assert_eq!(path_noun("/pet/findByStatus", None).as_deref(), Some("pet"));
        assert_eq!(
            path_noun("/api/v2/cddrive/files/{file-id}", Some("file-id")).as_deref(),
            Some("file")
        );
        assert_eq!(schema_noun("IssueResponse"), "issue");
        assert_eq!(schema_noun("CDDriveFile"), "cd_drive_file");
        assert_eq!(singular("categories"), "category");
        assert_eq!(singular("addresses"), "address");
        assert_eq!(singular("status"), "status");
        assert_eq!(singular("statuses"), "status");
        assert_eq!(singular("release_event_series"), "release_event_series");
        assert_eq!(singular("ids"), "id");
        assert_eq!(singular("boxes"), "box");
    }
}
