//! English: the only full language. Its tables are what the engine knows of how people
//! ask for a tool in English — synonyms, phrases, the verbs that read, write and
//! delete, stop words, question openers, the words of grammar and of time — and its
//! stemmer and spelling rule ([`stem`]). Nothing here belongs to one API: an API's own
//! words are its data (`x-toolwright-aliases`, an adapter's `aliases`).

mod stem;

use std::sync::OnceLock;

use super::{Grammar, Language, Questions, Times, Verbs};
use crate::search::values::ValueKind;

/// English, as the engine reads it.
pub static ENGLISH: Language = copy();

/// The English tables, with an empty cache (a test compares a changed copy's hash).
pub(super) const fn copy() -> Language {
    Language {
        code: "en",
        version: 1,
        stop_words: STOP_WORDS,
        is_stop_word,
        stem: stem::stem,
        synonyms: SYNONYMS,
        phrases: PHRASES,
        verbs: Verbs {
            read: READ,
            write: WRITE,
            delete: DELETE,
            delete_phrases: &["get rid"],
            implied: ["get", "list", "create", "update", "delete", "run"],
        },
        questions: Questions {
            openers: &[
                "who", "whom", "whose", "what", "what's", "whats", "which", "when", "where", "why",
                "how", "is", "are", "was", "were", "does", "do", "did", "can", "could", "has",
                "have", "who's", "whos", "any",
            ],
            speaker: &["I", "i"],
            caller: "me",
            agent_suffixes: &["er", "or"],
        },
        grammar: Grammar {
            causative: "make",
            causative_means: "update",
            creating: &["a", "an", "new", "another", "one", "some"],
            stop: &["stop", "quit"],
            undo: &["undo"],
            no_longer: &["anymore", "longer"],
            negations: &["not", "no", "nobody", "never", "none"],
            negation_endings: &["n't", "n\u{2019}t"],
            opposite_prefix: "un",
            gerund: "ing",
            without: &["without"],
            dont: &["don't", "dont", "don\u{2019}t"],
            do_not: ("do", "not"),
            call_off: "cancel",
            possessive: &["'s", "\u{2019}s"],
        },
        times: Times {
            units: &[
                "hour", "day", "week", "weekend", "month", "quarter", "year", "night", "morning",
            ],
            months: &[
                "january",
                "february",
                "march",
                "april",
                "may",
                "june",
                "july",
                "august",
                "september",
                "october",
                "november",
                "december",
            ],
            ambiguous_months: &["may", "march"],
            days: &["today", "yesterday", "tonight"],
            before_unit: &["last", "past", "this", "previous"],
            ago: "ago",
            ordinal_letters: &['s', 't', 'n', 'd', 'r', 'h'],
        },
        value_words,
        naming: &["called", "named"],
        derived: &[
            "izat", "isat", "ment", "ness", "abl", "ibl", "anc", "enc", "iz", "is", "al",
        ],
        other_spelling: stem::other_spelling,
        cache: OnceLock::new(),
    }
}

/// Generates the stop-word list and a `match` over it: the list is hashed, the
/// `match` asked of every word of every request (the compiler dispatches on the
/// length first).
macro_rules! word_set {
    ($list:ident, $test:ident: $($word:literal)|*) => {
        const $list: &[&str] = &[$($word),*];
        fn $test(word: &str) -> bool {
            matches!(word, $($word)|*)
        }
    };
}

// Words that say nothing about which tool is meant; the last ones are what an
// apostrophe leaves of a possessive or a contraction ("the org's repos", "don't",
// "we're"): split off, `s` would be a word of its own.
word_set!(STOP_WORDS, is_stop_word:
    "a" | "about" | "also" | "an" | "and" | "any" | "are" | "as" | "at" | "be" | "been"
    | "by" | "can" | "do" | "does" | "for" | "from" | "has" | "have" | "how" | "i"
    | "if" | "in" | "into" | "is" | "it" | "its" | "just" | "let" | "like" | "need"
    | "of" | "on" | "one" | "or" | "our" | "please" | "should" | "so" | "some"
    | "that" | "the" | "their" | "them" | "there" | "these" | "this" | "those" | "to"
    | "us" | "using" | "via" | "want" | "was" | "we" | "were" | "what" | "when"
    | "where" | "which" | "who" | "whose" | "will" | "with" | "would" | "you" | "your"
    | "s" | "t" | "m" | "re" | "ve" | "ll" | "d"
);

/// The words APIs name a parameter of each kind of value with (the index stems them).
fn value_words(kind: &ValueKind) -> &'static [&'static str] {
    match kind {
        ValueKind::Number => &["number", "id"],
        ValueKind::Handle => &[
            "username",
            "user",
            "login",
            "assignee",
            "reviewer",
            "member",
            "collaborator",
        ],
        ValueKind::OwnerName => &["owner", "repo", "repository"],
        ValueKind::Range => &["compare", "base", "head"],
        ValueKind::Email => &["email"],
        ValueKind::Money => &["amount", "currency"],
        ValueKind::Percent => &["percent"],
        ValueKind::Hash => &["sha", "commit", "ref"],
        ValueKind::Version => &["tag", "version", "release"],
        ValueKind::FilePath => &["path", "file", "content"],
        ValueKind::Url => &["url"],
        ValueKind::PrefixedId(_) => &["id"],
        ValueKind::Name => &["name"],
        ValueKind::Time => &["created", "since", "until"],
    }
}

/// Groups of words asking for one thing: verbs of CRUD and actions, and the resource
/// nouns common APIs share.
const SYNONYMS: &[&[&str]] = &[
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
    &["star", "favorite", "favourite", "like", "bookmark", "save"],
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
    &["customer", "client", "buyer", "shopper", "payer"],
    &["payment", "pay", "charge", "transaction", "purchase"],
    &["refund", "reimburse", "reimbursement", "return"],
    &["invoice", "bill", "billing", "receipt"],
    &["subscription", "plan", "recurring", "membership"],
    &["product", "item", "goods", "sku", "article", "sell"],
    &["price", "cost", "pricing", "amount", "fee", "rate"],
    &["card", "credit"],
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
    ("pay", "out", &["payout"]),
    ("check", "out", &["checkout"]),
    ("take", "back", &["reverse", "reversal", "revert", "refund"]),
    ("pull", "back", &["reverse", "reversal", "revert", "refund"]),
    ("pick", "up", &["resume", "continue"]),
    ("pull", "up", &["get", "show"]),
];

/// Verbs that read.
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
