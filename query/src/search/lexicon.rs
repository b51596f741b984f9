//! An API-vocabulary lexicon: words people use for the same intent or the same kind of
//! resource ("open a ticket" for `issues/create`, "remove" for `DELETE`). A query word
//! in a group also looks for the group's other words, at a lower weight.
//!
//! Groups are general API vocabulary — verbs of CRUD and actions, and the resource
//! nouns common APIs share — not phrases of any one API's documentation.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::text::stem;

const GROUPS: &[&[&str]] = &[
    // Intents.
    &[
        "create", "new", "add", "open", "make", "post", "submit", "file", "raise", "register",
        "insert", "generate", "setup", "cut",
    ],
    &[
        "list",
        "all",
        "every",
        "browse",
        "enumerate",
        "index",
        "many",
        "show",
        "find",
        "search",
    ],
    &[
        "get",
        "show",
        "view",
        "fetch",
        "retrieve",
        "read",
        "see",
        "look",
        "detail",
        "info",
        "information",
        "inspect",
        "check",
        "describe",
        "display",
        "lookup",
    ],
    &[
        "update",
        "edit",
        "change",
        "modify",
        "rename",
        "set",
        "patch",
        "adjust",
        "alter",
        "configure",
        "replace",
        "amend",
    ],
    &[
        "delete", "remove", "drop", "erase", "destroy", "discard", "purge", "clear", "unset",
        "wipe", "trash", "revoke",
    ],
    &[
        "cancel",
        "abort",
        "stop",
        "terminate",
        "void",
        "halt",
        "kill",
        "expire",
    ],
    // Chat shorthand for the same intents.
    &["delete", "nuke", "scrap", "ditch"],
    &["undo", "reverse", "reversal", "revert", "rollback"],
    &["update", "bump", "increase", "decrease", "raise", "lower"],
    &["get", "grab", "pull"],
    &["reaction", "react", "emoji", "upvote", "thumbs"],
    &["enable", "activate", "turn", "allow", "on"],
    &["disable", "deactivate", "suspend", "pause", "off"],
    &["send", "email", "notify", "deliver", "dispatch"],
    &["upload", "attach", "import"],
    &["download", "export", "archive"],
    &["assign", "allocate", "give", "grant"],
    &["approve", "accept", "confirm", "authorize"],
    &["reject", "decline", "deny", "dismiss"],
    &["merge", "combine", "squash"],
    &["select", "choose", "pick"],
    &["permission", "allow", "permit"],
    &["redact", "scrub", "censor"],
    &[
        "star",
        "favorite",
        "favourite",
        "like",
        "bookmark",
        "save",
        "stargazer",
    ],
    &["follow", "subscribe", "watch"],
    &["block", "ban", "mute"],
    &["lock", "freeze"],
    &["unlock", "unfreeze"],
    &[
        "count",
        "total",
        "stats",
        "statistics",
        "metrics",
        "summary",
        "usage",
    ],
    &["search", "find", "query", "lookup", "look", "filter"],
    &[
        "run", "execute", "trigger", "invoke", "launch", "dispatch", "kick",
    ],
    &["rerun", "retry", "restart", "redo", "again"],
    &["close", "resolve", "finish", "complete", "done"],
    &["copy", "duplicate", "clone", "fork"],
    &["check", "verify", "validate", "test"],
    &["move", "transfer", "relocate"],
    // "What happened" asks for the record of events.
    &[
        "history", "log", "audit", "timeline", "events", "activity", "happen",
    ],
    &[
        "current",
        "me",
        "mine",
        "my",
        "authenticated",
        "self",
        "own",
    ],
    // Resources.
    &["issue", "bug", "ticket", "problem", "defect"],
    &["repository", "repo", "project", "codebase"],
    &["pull", "pr", "merge"],
    &[
        "user",
        "person",
        "people",
        "member",
        "account",
        "profile",
        "someone",
        "individual",
    ],
    &[
        "organization",
        "organisation",
        "org",
        "company",
        "enterprise",
    ],
    &["team", "group", "squad"],
    &[
        "comment",
        "reply",
        "note",
        "remark",
        "feedback",
        "discussion",
    ],
    &["file", "document", "attachment", "content", "contents"],
    &["label", "tag", "category"],
    &["release", "version"],
    &["branch", "ref"],
    &["commit", "revision", "changeset"],
    &[
        "workflow", "pipeline", "action", "actions", "ci", "job", "build",
    ],
    &["secret", "credential", "password", "token", "key"],
    // "Whenever someone pushes…": a call on each event is a webhook.
    &["webhook", "hook", "callback", "whenever"],
    // A gist is GitHub's word for what everyone else calls a snippet or a paste.
    &["gist", "snippet", "paste"],
    &["customer", "client", "buyer", "shopper", "payer"],
    &["payment", "pay", "charge", "transaction", "purchase"],
    &["refund", "reimburse", "reimbursement", "return"],
    &["invoice", "bill", "billing", "receipt"],
    &["subscription", "plan", "recurring", "membership"],
    &["product", "item", "goods", "sku", "article", "sell"],
    &["price", "cost", "pricing", "amount", "fee", "rate"],
    &["card", "credit"],
    &["dispute", "chargeback"],
    &["coupon", "discount", "promo", "promotion", "voucher"],
    &["balance", "funds", "money"],
    &["payout", "withdraw", "withdrawal"],
    &["song", "track", "music", "tune", "tracks"],
    &["artist", "singer", "musician", "band"],
    &["album", "record"],
    &["playlist", "mix"],
    &["weather", "forecast", "temperature", "climate"],
    &["mail", "email", "message"],
    &["message", "chat", "conversation", "thread", "channel"],
    &["image", "picture", "photo", "photograph", "screenshot"],
    &["address", "location", "place", "station"],
    &["permission", "access", "role", "collaborator", "rights"],
    &["notification", "alert", "notice"],
    &["schedule", "calendar", "appointment", "booking"],
    &["report", "analytics", "insight", "dashboard"],
    &[
        "setting",
        "settings",
        "preference",
        "config",
        "configuration",
        "option",
    ],
    &["key", "identifier", "id"],
    &["folder", "directory", "dir"],
    &["website", "site", "homepage", "page", "pages"],
    &[
        "limit",
        "quota",
        "remaining",
        "left",
        "allowance",
        "throttle",
    ],
];

/// Two words that together name one thing ("bug report" is an issue, not a report):
/// the pair stands for these words instead.
const PHRASES: &[(&str, &str, &[&str])] = &[
    ("bug", "report", &["issue", "bug"]),
    ("pull", "request", &["pull"]),
    ("merge", "request", &["pull"]),
    ("credit", "card", &["card"]),
    ("money", "back", &["refund"]),
    ("give", "back", &["refund", "return"]),
    ("turn", "on", &["enable"]),
    ("turn", "off", &["disable"]),
    ("switch", "on", &["enable"]),
    ("switch", "off", &["disable"]),
    ("thumbs", "up", &["reaction"]),
    ("hook", "up", &["create", "connect"]),
    ("set", "up", &["create", "setup"]),
    ("kick", "off", &["run", "trigger", "start"]),
    ("sign", "up", &["create", "register"]),
    ("log", "in", &["login", "session", "authenticated"]),
    ("sign", "in", &["login", "session", "authenticated"]),
    ("get", "rid", &["delete", "remove"]),
    ("api", "key", &["key", "token"]),
    ("phone", "number", &["phone"]),
    ("e", "mail", &["email"]),
    // Phrasal verbs, the everyday English for API verbs ("kick bob out of the org",
    // "hand the repo over"); the object may stand between the two words.
    ("kick", "out", &["remove", "delete"]),
    ("throw", "out", &["remove", "delete"]),
    ("clear", "out", &["remove", "delete"]),
    ("take", "off", &["remove", "delete"]),
    ("tear", "down", &["delete"]),
    ("clean", "up", &["delete"]),
    ("throw", "away", &["delete"]),
    ("hand", "over", &["transfer"]),
    ("shut", "down", &["stop", "disable"]),
    ("shut", "off", &["stop", "disable"]),
    ("call", "off", &["cancel"]),
    ("look", "over", &["review"]),
    ("sign", "off", &["approve", "review"]),
    ("spin", "up", &["create", "start"]),
    ("roll", "back", &["rollback", "revert"]),
    ("bring", "back", &["restore", "resume"]),
    ("back", "up", &["backup", "export"]),
    ("lock", "down", &["protect", "protection", "lock"]),
    ("log", "out", &["logout", "session"]),
    ("opt", "out", &["unsubscribe", "disable"]),
    ("top", "up", &["topup", "fund"]),
    ("pay", "out", &["payout"]),
    ("write", "off", &["uncollectible"]),
    ("check", "out", &["checkout"]),
    ("take", "back", &["reverse", "reversal", "revert", "refund"]),
    ("pull", "back", &["reverse", "reversal", "revert", "refund"]),
    ("pick", "up", &["resume", "continue"]),
    ("pull", "up", &["get", "show"]),
];

/// The words a phrase of two stems stands for, as stems.
pub fn phrase(first: &str, second: &str) -> Option<&'static [String]> {
    /// First stem → (second stem, what the pair means). Asked for every word of a
    /// query and its next few, most of which open no phrase: one hash decides.
    type Stemmed = HashMap<String, Vec<(String, Vec<String>)>>;
    static STEMMED: OnceLock<Stemmed> = OnceLock::new();
    STEMMED
        .get_or_init(|| {
            let mut by_first: Stemmed = HashMap::new();
            for (a, b, words) in PHRASES {
                by_first
                    .entry(stem(a))
                    .or_default()
                    .push((stem(b), words.iter().map(|w| stem(w)).collect()));
            }
            by_first
        })
        .get(first)?
        .iter()
        .find(|(b, _)| b == second)
        .map(|(_, words)| words.as_slice())
}

/// Each word's stem → the stems of every word sharing a group with it.
fn table() -> &'static HashMap<String, Vec<String>> {
    static TABLE: OnceLock<HashMap<String, Vec<String>>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table: HashMap<String, Vec<String>> = HashMap::new();
        for group in GROUPS {
            let stems: Vec<String> = group.iter().map(|w| stem(w)).collect();
            for s in &stems {
                let entry = table.entry(s.clone()).or_default();
                for other in &stems {
                    if other != s && !entry.contains(other) {
                        entry.push(other.clone());
                    }
                }
            }
        }
        for list in table.values_mut() {
            list.sort();
        }
        table
    })
}

/// The related stems of a word's stem (empty when it is in no group).
pub fn related(stem: &str) -> &'static [String] {
    table().get(stem).map_or(&[], Vec::as_slice)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synonyms_are_symmetric_and_stemmed() {
        assert!(related(&stem("bug")).contains(&stem("issue")));
        assert!(related(&stem("issues")).contains(&stem("ticket")));
        assert!(related(&stem("removing")).contains(&stem("delete")));
        assert!(related("zzz").is_empty());
        assert_eq!(
            phrase(&stem("bug"), &stem("reports")),
            Some(&[stem("issue"), stem("bug")][..])
        );
    }
}
