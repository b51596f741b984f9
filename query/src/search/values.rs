//! Values in a query. People name the thing they mean by its value — `#42`, `@bob`,
//! `octo-org/widgets`, `v2.0...v2.1`, `cus_9s6XKz`, `jane@example.com`, `$50` — where
//! a tool declares a parameter. Split into words, a value is noise that matches the
//! wrong tools (`octo-org` → "org"); recognised, it says which kind of parameter the
//! wanted tool takes. Each kind stands for the words APIs commonly name such a
//! parameter with; nothing here is specific to one API.

use std::borrow::Cow;

use super::Language;

/// What kind of parameter a value in a query fills.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ValueKind {
    /// `#42`, `42`: an issue, order or item number.
    Number,
    /// `@bob`: a user's handle.
    Handle,
    /// `owner/name`: a repository (or any two-part name).
    OwnerName,
    /// `v2.0...v2.1`, `main..dev`: two refs to compare.
    Range,
    /// `jane@example.com`.
    Email,
    /// `$50`, `30 EUR`, `€9.99`.
    Money,
    /// `20%`.
    Percent,
    /// `9fceb02`: a commit hash.
    Hash,
    /// `v1.4.0`, `2.0`: a version or tag.
    Version,
    /// `src/main.rs`: a file's path.
    FilePath,
    /// `https://…`.
    Url,
    /// `cus_9s6XKz`: an identifier whose prefix names its resource (`cus`).
    PrefixedId(String),
    /// "called dotfiles", "named regression": a name the request gives a thing.
    Name,
    /// "last week", "today", "since Dec 1", "3 days ago": when, which a list's
    /// time filter takes.
    Time,
}

impl ValueKind {
    /// One of each kind (a prefixed id's prefix empty): what a language's table of
    /// parameter words is hashed over.
    pub const ALL: &'static [ValueKind] = &[
        ValueKind::Number,
        ValueKind::Handle,
        ValueKind::OwnerName,
        ValueKind::Range,
        ValueKind::Email,
        ValueKind::Money,
        ValueKind::Percent,
        ValueKind::Hash,
        ValueKind::Version,
        ValueKind::FilePath,
        ValueKind::Url,
        ValueKind::PrefixedId(String::new()),
        ValueKind::Name,
        ValueKind::Time,
    ];
}

/// Currency codes and signs money is written with (ISO 4217's most traded, which no
/// query means as a word).
const CURRENCIES: &[&str] = &[
    "usd", "eur", "gbp", "jpy", "chf", "cad", "aud", "nzd", "cny", "inr", "sek", "nok", "dkk",
    "pln", "brl", "mxn", "sgd", "hkd", "zar", "krw",
];
const CURRENCY_SIGNS: &[char] = &['$', '€', '£', '¥', '₹'];

/// The query's whitespace tokens without its values, and the kinds of the values
/// taken out, in order;
/// times gone by ([`ValueKind::Time`]) among them where `times`.
pub fn extract<'q>(
    language: &Language,
    query: &'q str,
    times: bool,
) -> (Vec<Cow<'q, str>>, Vec<ValueKind>) {
    let possessive = language.grammar.possessive;
    let tokens: Vec<&str> = query.split_whitespace().collect();
    let mut rest = Vec::with_capacity(tokens.len());
    let mut kinds = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let raw = tokens[i];
        let token = raw.trim_matches(|c: char| {
            matches!(c, ',' | ';' | '?' | '!' | '(' | ')' | '"' | '\'' | '`')
        });
        let token = token.strip_suffix(['.', ':']).unwrap_or(token);
        // `acct_3's name`, `@lee's repos`: the value is the owner, not `3's`.
        let token = strip_any(token, possessive);
        i += 1;
        // "30 EUR": a number, then a currency code.
        if is_amount(token)
            && let Some(next) = tokens.get(i)
            && CURRENCIES.contains(
                &next
                    .trim_matches(|c: char| !c.is_alphanumeric())
                    .to_ascii_lowercase()
                    .as_str(),
            )
        {
            kinds.push(ValueKind::Money);
            i += 1;
            continue;
        }
        // "last week", "Dec 1", "3 days ago": a time, however many words it takes.
        if times && let Some(more) = time_words(language, token, &tokens[i..]) {
            kinds.push(ValueKind::Time);
            i += more;
            continue;
        }
        // "a repo called dotfiles": the word after is a name, not a request.
        if language
            .naming
            .iter()
            .any(|w| token.eq_ignore_ascii_case(w))
            && let Some(name) = tokens.get(i)
        {
            kinds.push(ValueKind::Name);
            i += 1;
            // A quoted name runs to its closing quote ("named \"good first issue\"").
            if let Some(quote) = name
                .chars()
                .next()
                .filter(|c| matches!(c, '"' | '\'' | '`'))
                && !(name.len() > 1 && name.ends_with(quote))
                && let Some(close) = tokens[i..]
                    .iter()
                    .position(|t| t.trim_end_matches([',', '.', '?', '!']).ends_with(quote))
            {
                i += close + 1;
                continue;
            }
            // What else the name holds is still a value ("called v2.0").
            if let Some(kind) = classify(name.trim_matches(|c: char| !c.is_alphanumeric())) {
                kinds.push(kind);
            }
            continue;
        }
        match classify(token) {
            Some(kind) => kinds.push(kind),
            None => rest.push(raw),
        }
    }
    // Two versions, or two commits, are the ends of a range ("between v1.4 and v1.5");
    // a commit and a version are a tag and what it points at.
    for end in [ValueKind::Version, ValueKind::Hash] {
        if kinds.iter().filter(|k| **k == end).count() >= 2 {
            kinds.retain(|k| *k != end);
            kinds.push(ValueKind::Range);
        }
    }
    (rest.into_iter().map(Cow::Borrowed).collect(), kinds)
}

fn classify(token: &str) -> Option<ValueKind> {
    if token.is_empty() {
        return None;
    }
    if let Some(number) = token.strip_prefix('#') {
        return (!number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()))
            .then_some(ValueKind::Number);
    }
    if let Some(handle) = token.strip_prefix('@') {
        return (!handle.is_empty()
            && handle
                .chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_')))
        .then_some(ValueKind::Handle);
    }
    if token.starts_with("http://") || token.starts_with("https://") {
        return Some(ValueKind::Url);
    }
    if token.starts_with(CURRENCY_SIGNS) && is_amount(&token[token.chars().next()?.len_utf8()..]) {
        return Some(ValueKind::Money);
    }
    if let Some(number) = token.strip_suffix('%') {
        return is_amount(number).then_some(ValueKind::Percent);
    }
    if let Some((user, host)) = token.split_once('@') {
        return (!user.is_empty() && host.contains('.') && !host.ends_with('.'))
            .then_some(ValueKind::Email);
    }
    if let Some((a, b)) = token.split_once("..") {
        let b = b.trim_start_matches('.');
        return (is_name(a) && is_name(b)).then_some(ValueKind::Range);
    }
    if token.bytes().all(|b| b.is_ascii_digit()) {
        return Some(ValueKind::Number);
    }
    if is_version(token) {
        return Some(ValueKind::Version);
    }
    if token.contains('/') {
        let parts: Vec<&str> = token.split('/').collect();
        if parts.iter().any(|p| p.is_empty()) || !parts.iter().all(|p| is_name(p)) {
            return None;
        }
        let last = parts[parts.len() - 1];
        // `a/b.rs` or three parts is a path; `owner/name` (a dot may sit in a name:
        // `user/user.github.io`, but then no extension-like tail of 1-4 letters).
        let extension = last.rsplit_once('.').is_some_and(|(stem, ext)| {
            !stem.is_empty()
                && (1..=4).contains(&ext.len())
                && ext.bytes().all(|b| b.is_ascii_alphanumeric())
        });
        return Some(if parts.len() == 2 && !extension {
            ValueKind::OwnerName
        } else {
            ValueKind::FilePath
        });
    }
    if let Some((prefix, tail)) = token.split_once('_')
        && (1..=8).contains(&prefix.len())
        && prefix.bytes().all(|b| b.is_ascii_lowercase())
        && tail.bytes().all(|b| b.is_ascii_alphanumeric())
        // `cus_9s6XKz`, `cus_ABC`; not `order_id`, a word.
        && tail.bytes().any(|b| b.is_ascii_digit() || b.is_ascii_uppercase())
    {
        return Some(ValueKind::PrefixedId(prefix.to_owned()));
    }
    let hex = token.len() >= 6
        && token.len() <= 40
        && token
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase());
    if hex
        && token.bytes().any(|b| b.is_ascii_digit())
        && token.bytes().any(|b| b.is_ascii_alphabetic())
    {
        return Some(ValueKind::Hash);
    }
    None
}

/// Whether `token` begins a time ("today", "last week", "Dec 1", "3 days ago"), and how
/// many of the `next` tokens it takes with it.
fn time_words(language: &Language, token: &str, next: &[&str]) -> Option<usize> {
    let times = &language.times;
    // Asked of every token of every request: compared in place, never copied.
    fn word<'a>(t: &'a str, possessive: &[&str]) -> &'a str {
        strip_any(
            t.trim_matches(|c: char| !c.is_alphanumeric() && c != '\''),
            possessive,
        )
    }
    let p = language.grammar.possessive;
    let is = |t: &str, words: &[&str]| words.iter().any(|w| t.eq_ignore_ascii_case(w));
    let unit = |t: &str| {
        let w = word(t, p);
        is(w, times.units)
            || w.strip_suffix(['s', 'S'])
                .is_some_and(|w| is(w, times.units))
    };
    // `1`, `24`, `1st`, `3rd`, `2024`.
    let number = |t: &str| {
        let w = word(t, p);
        (1..=4).contains(&w.len())
            && w.bytes().next().is_some_and(|b| b.is_ascii_digit())
            && w.trim_end_matches(times.ordinal_letters)
                .bytes()
                .all(|b| b.is_ascii_digit())
    };
    let first = word(token, p);
    // A time to come ("next month", "tomorrow") is when to schedule something, in
    // the request's words; a time gone by is what a list's filter takes.
    if is(first, times.days) {
        return Some(0);
    }
    // "last week", "the past 24 hours", "last month's".
    if is(first, times.before_unit) {
        return match next {
            [n, u, ..] if number(n) && unit(u) => Some(2),
            [u, ..] if unit(u) => Some(1),
            _ => None,
        };
    }
    // "3 days ago".
    if number(token)
        && let [u, ago, ..] = next
        && unit(u)
        && word(ago, p).eq_ignore_ascii_case(times.ago)
    {
        return Some(2);
    }
    // "November", "Dec 1", "May 3rd".
    let month = times.months.iter().find(|m| {
        m.eq_ignore_ascii_case(first)
            || (first.len() == 3 && m.get(..3).is_some_and(|a| a.eq_ignore_ascii_case(first)))
    })?;
    if next.first().is_some_and(|n| number(n)) {
        return Some(1);
    }
    (month.eq_ignore_ascii_case(first) && !times.ambiguous_months.contains(month)).then_some(0)
}

/// `token` without the first of `endings` it ends with.
fn strip_any<'a>(token: &'a str, endings: &[&str]) -> &'a str {
    endings
        .iter()
        .find_map(|e| token.strip_suffix(e))
        .unwrap_or(token)
}

/// `50`, `9.99`, `1,000`.
fn is_amount(token: &str) -> bool {
    !token.is_empty()
        && token.bytes().next().is_some_and(|b| b.is_ascii_digit())
        && token
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b'.' || b == b',')
}

/// `v2.0`, `1.4.0`, `v3` (a `v` and digits, or digits with dots).
fn is_version(token: &str) -> bool {
    let (v, digits) = match token.strip_prefix(['v', 'V']) {
        Some(rest) => (true, rest),
        None => (false, token),
    };
    !digits.is_empty()
        && digits
            .split('.')
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        && (v || digits.contains('.'))
}

/// A name a value may be made of (letters, digits, `-`, `_`, `.`).
fn is_name(part: &str) -> bool {
    !part.is_empty()
        && part
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

#[cfg(test)]
mod tests {
    use super::ValueKind::*;
    use super::*;
    use crate::search::ENGLISH;

    #[test]
    fn values_are_taken_out_and_classified() {
        let cases: &[(&str, &str, &[ValueKind])] = &[
            (
                "PR #42 in octo-org/widgets, what changed?",
                "PR in what changed?",
                &[Number, OwnerName],
            ),
            ("add @alice as a reviewer", "add as a reviewer", &[Handle]),
            (
                "what's different between v2.0...v2.1",
                "what's different between",
                &[Range],
            ),
            (
                "who is cus_9s6XKzkNRiz8i3",
                "who is",
                &[PrefixedId("cus".into())],
            ),
            // People shorten ids when they type them: the prefix still says what it is.
            ("resend in_77", "resend", &[PrefixedId("in".into())]),
            ("who is cus_ABC", "who is", &[PrefixedId("cus".into())]),
            ("find jane@example.com", "find", &[Email]),
            ("bill them $50 today", "bill them", &[Money, Time]),
            ("refunds from last week", "refunds from", &[Time]),
            ("the past 24 hours of events", "the of events", &[Time]),
            ("payouts since Dec 1st", "payouts since", &[Time]),
            ("charges from 3 days ago", "charges from", &[Time]),
            ("every transfer in November", "every transfer in", &[Time]),
            ("last month's bill", "bill", &[Time]),
            ("take 30 EUR now", "take now", &[Money]),
            ("a 20% off coupon", "a off coupon", &[Percent]),
            ("what did 9fceb02 change", "what did change", &[Hash]),
            ("tag it as v1.4.0", "tag it as", &[Version]),
            ("show src/main.rs", "show", &[FilePath]),
            (
                "download the logs of run 12345",
                "download the logs of run",
                &[Number],
            ),
            ("open https://example.com/x", "open", &[Url]),
            // A possessive belongs to the sentence, not to the value.
            (
                "update acct_3's business name",
                "update business name",
                &[PrefixedId("acct".into())],
            ),
            ("@lee\u{2019}s repos", "repos", &[Handle]),
            ("a new repo called dotfiles", "a new repo", &[Name]),
            (
                "a label named \"good first issue\" please",
                "a label please",
                &[Name],
            ),
            ("a label named 'wontfix", "a label", &[Name]),
            (
                "what changed between v1.4 and v1.5",
                "what changed between and",
                &[Range],
            ),
        ];
        for (query, rest, kinds) in cases {
            let (got_rest, got_kinds) = extract(&ENGLISH, query, true);
            assert_eq!(got_rest.join(" "), *rest, "{query}");
            assert_eq!(&got_kinds, kinds, "{query}");
        }
        // Without the technique a time is words.
        assert_eq!(extract(&ENGLISH, "refunds from last week", false).1, []);
    }

    #[test]
    fn words_are_not_values() {
        for query in [
            "delete the old feature branch",
            "2fa",
            "the order_id field",
            "make a new repo",
            "a deadbeef cafe", // no digit: a word, not a hash
            // A time to come is when to schedule: words. A modal is no month.
            "start the new plan next month",
            "may I see the last release",
            "march the plan forward",
        ] {
            let (_, kinds) = extract(&ENGLISH, query, true);
            assert!(kinds.is_empty(), "{query}: {kinds:?}");
        }
    }
}
