//! What a request asks to do with what it names, read from its verbs: to read it ("list",
//! "show", a question) or to delete it ("remove", "nuke"). A verb is a common word, so
//! BM25 weighs it little, yet among the tools about one resource it says which is
//! meant ([`super::Techniques::AGREEMENT`]).

use std::sync::OnceLock;

use super::text::stem;

/// What a request asks for, as far as its verbs tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Intent {
    /// A question, or a verb that reads, and no verb that writes.
    Read,
    /// A verb that deletes.
    Delete,
    /// Anything else: no verb it could tell, or one that writes otherwise.
    Other,
}

const READ: &[&str] = &[
    "list", "show", "get", "view", "fetch", "retrieve", "read", "see", "look", "display", "find",
    "search", "browse", "lookup", "describe", "inspect",
];

/// Verbs that change something ("show me how to delete…" is a delete).
const WRITE: &[&str] = &[
    "create", "new", "add", "make", "submit", "register", "generate", "setup", "update", "edit",
    "change", "modify", "rename", "set", "replace", "delete", "remove", "drop", "erase", "destroy",
    "discard", "purge", "clear", "revoke", "cancel", "stop", "void", "close", "reopen", "send",
    "upload", "merge", "approve", "accept", "reject", "decline", "dismiss", "enable", "disable",
    "turn", "lock", "unlock", "block", "unblock", "star", "unstar", "follow", "unfollow", "invite",
    "assign", "unassign", "transfer", "refund", "charge", "pay", "archive", "move", "restore",
    "rerun", "retry", "run", "trigger", "start", "pause", "resume", "mark", "give", "grant", "put",
    "attach", "detach", "nuke",
];

const DELETE: &[&str] = &[
    "delete", "remove", "drop", "erase", "destroy", "discard", "purge", "nuke", "scrap", "ditch",
    "trash", "wipe",
];

/// The lists stemmed, once: a search compares against them on every call.
fn stemmed() -> &'static [Vec<String>; 3] {
    static LISTS: OnceLock<[Vec<String>; 3]> = OnceLock::new();
    LISTS.get_or_init(|| [READ, WRITE, DELETE].map(|list| list.iter().map(|w| stem(w)).collect()))
}

/// The intent of a request whose words (lower case, stop words out) are `words`;
/// `question` when it is one.
pub(super) fn intent(query: &str, words: &[String], question: bool) -> Intent {
    let [read, write, delete] = stemmed();
    let stems: Vec<String> = words.iter().map(|w| stem(w)).collect();
    let has = |list: &[String]| stems.iter().any(|w| list.contains(w));
    if has(delete) || query.to_lowercase().contains("get rid") {
        Intent::Delete
    } else if (question || has(read)) && !has(write) {
        Intent::Read
    } else {
        Intent::Other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(query: &str) -> Intent {
        let words: Vec<String> = query.split_whitespace().map(str::to_lowercase).collect();
        intent(query, &words, query.ends_with('?'))
    }

    #[test]
    fn verbs_say_what_a_request_does() {
        assert_eq!(of("show the team list"), Intent::Read);
        assert_eq!(of("any teams?"), Intent::Read);
        assert_eq!(of("show me how to delete a team"), Intent::Delete);
        assert_eq!(of("nuke the team"), Intent::Delete);
        assert_eq!(of("get rid of the team"), Intent::Delete);
        assert_eq!(of("update the team list"), Intent::Other);
        assert_eq!(of("the platform team"), Intent::Other);
    }
}
