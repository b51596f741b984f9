//! What English grammar says about a request beyond its words, for a query read with
//! the lexicon ([`Techniques::LEXICON`]): "make my repo private" updates (the lexicon's
//! "make" creates), "stop following" asks for `unfollow`, "close it without merging"
//! does not merge, and "log … in" is one phrase though "in" is a stop word.

use std::borrow::Cow;

use super::{Index, NAME, PHRASE_GAP, Techniques, lexicon, text};

/// The words of `rest` (the query `query` with its values taken out), as
/// [`super::analyze`] gives them, after the readings below.
pub(super) fn words(
    query: &str,
    rest: &str,
    techniques: Techniques,
    index: &Index<'_>,
) -> Vec<String> {
    // Each reading copies the text only when it applies (most requests: none).
    let mut rest = Cow::Borrowed(rest);
    if causative_make(query) {
        rest = Cow::Owned(text::replace_word(&rest, "make", "update"));
    }
    if let Some(read) = stop_doing(&rest, index) {
        rest = Cow::Owned(read);
    }
    if let Some(read) = undo_doing(&rest, index) {
        rest = Cow::Owned(read);
    }
    if let Some(read) = without_doing(&rest) {
        rest = Cow::Owned(read);
    }
    if let Some(read) = dont_do(&rest) {
        rest = Cow::Owned(read);
    }
    keeping_particles(&rest, techniques)
}

/// Whether `query` says "make" as a causative ("make my repo private", "make pm_8 the
/// default card"), which sets a state of something that exists, rather than as
/// "make a…" / "make a new…", which creates: an article or "new" after the verb is
/// what English uses for a thing that does not exist yet.
fn causative_make(query: &str) -> bool {
    const CREATES: &[&str] = &["a", "an", "new", "another", "one", "some"];
    let mut words = query
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | '.' | ';' | ':' | '!' | '?'))
        .filter(|w| !w.is_empty());
    while let Some(word) = words.next() {
        if word.eq_ignore_ascii_case("make") {
            return words
                .next()
                .is_some_and(|next| !CREATES.iter().any(|c| next.eq_ignore_ascii_case(c)));
        }
    }
    false
}

/// "stop following @bob" asks for the verb's opposite, `unfollow`, where the catalog
/// has the word; else the lexicon's "stop" (cancel, end) reads it. Reading it as
/// "disable" instead lost "stop watching widgets" (a subscription's delete) on the
/// tuning sets.
fn stop_doing(text: &str, index: &Index<'_>) -> Option<String> {
    const STOP: &[&str] = &["stop", "quit"];
    if !has_word(text, STOP) {
        return None;
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    let at = words
        .windows(2)
        .position(|pair| is_one_of(pair[0], STOP) && is_gerund(pair[1]))?;
    let opposite = opposite(&words[at + 1].to_ascii_lowercase());
    // Only a word the catalog has: "unsell" would find nothing.
    let _postings = index.postings(&opposite)?;
    let mut out: Vec<&str> = words[..at].to_vec();
    out.push(&opposite);
    out.extend(&words[at + 2..]);
    Some(out.join(" "))
}

/// "I blocked @troll, undo it", "I don't want widgets starred anymore": a request to
/// take back what a verb did, or to be rid of the state it left, asks for the verb's
/// opposite (`unblock`, `unstar`) where a tool is named for it (a name marker, so only
/// with [`Techniques::NAMES`]). "Undo" looks at every word; "anymore" and "no longer"
/// only at the words after a negation ("nobody maintains it anymore" is not a request
/// to unarchive). "By mistake" alone says nothing of which verb: "delete the release,
/// it was a mistake" deletes.
fn undo_doing(text: &str, index: &Index<'_>) -> Option<String> {
    const TAKE_BACK: &[&str] = &["undo"];
    const NO_LONGER: &[&str] = &["anymore", "longer"];
    let take_back = has_word(text, TAKE_BACK);
    if !take_back && !has_word(text, NO_LONGER) {
        return None;
    }
    let mut words: Vec<&str> = text.split_whitespace().collect();
    let from = if take_back {
        0
    } else {
        words.iter().position(|w| is_negation(w))? + 1
    };
    let (at, opposite) = words.iter().enumerate().skip(from).find_map(|(at, word)| {
        let lower = word.to_ascii_lowercase();
        let letters = lower.trim_matches(|c: char| !c.is_ascii_alphabetic());
        let opposite = opposite(letters);
        // A word a tool is named for: "unbound" in some prose is no verb to call.
        let named = format!("{NAME}{opposite}");
        (letters.len() > 2 && index.postings(&named).is_some()).then_some((at, opposite))
    })?;
    words[at] = &opposite;
    Some(words.join(" "))
}

/// The stem of the verb that undoes `verb` (lower case): `un` and its stem.
fn opposite(verb: &str) -> String {
    format!("un{}", text::stem(verb))
}

/// "not", "no", "nobody", "never" or a word ending in "n't".
fn is_negation(word: &str) -> bool {
    let lower = word.to_ascii_lowercase();
    matches!(lower.as_str(), "not" | "no" | "nobody" | "never" | "none")
        || lower.ends_with("n't")
        || lower.ends_with("n\u{2019}t")
}

/// Whether `text` has one of `words` (any case) among its whitespace-separated words:
/// most requests have none, and are let through without copying their words.
fn has_word(text: &str, words: &[&str]) -> bool {
    text.split_whitespace().any(|w| is_one_of(w, words))
}

/// Whether `word` is one of `words`, in any case.
fn is_one_of(word: &str, words: &[&str]) -> bool {
    words.iter().any(|x| word.eq_ignore_ascii_case(x))
}

/// A word of six letters or more ending in "ing" ("following", not "ring").
fn is_gerund(word: &str) -> bool {
    word.len() > 5
        && word
            .get(word.len() - 3..)
            .is_some_and(|end| end.eq_ignore_ascii_case("ing"))
}

/// "close PR 12 without merging": what the request says it does not do is not what
/// the tool does; the gerund goes ("without two approvals" stays: a noun it needs).
fn without_doing(text: &str) -> Option<String> {
    const WITHOUT: &[&str] = &["without"];
    if !has_word(text, WITHOUT) {
        return None;
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    let at = words
        .windows(2)
        .position(|pair| is_one_of(pair[0], WITHOUT) && is_gerund(pair[1]))?;
    let mut out = words;
    out.drain(at..at + 2);
    Some(out.join(" "))
}

/// "don't send payout po_12", "do not go ahead with the refund": a request that opens
/// by telling the API not to do what it was going to asks to call that off, not to do
/// it. The negation and its verb become "cancel".
fn dont_do(text: &str) -> Option<String> {
    // Most requests open otherwise: they are turned away on their first word.
    let mut words = text.split_whitespace();
    let first = words.next()?;
    let negated = if ["don't", "dont", "don\u{2019}t"]
        .iter()
        .any(|w| first.eq_ignore_ascii_case(w))
    {
        true
    } else {
        first.eq_ignore_ascii_case("do") && words.next()?.eq_ignore_ascii_case("not")
    };
    if !negated {
        return None;
    }
    // The verb it negates goes; what the request is about stays.
    let _verb = words.next()?;
    let about: Vec<&str> = words.collect();
    (!about.is_empty()).then(|| format!("cancel {}", about.join(" ")))
}

/// [`super::analyze`] for a query read with the lexicon: a stop word that completes a
/// phrase begun at most [`PHRASE_GAP`] words before ("log in", "sign bob in") stays,
/// as the phrase means something neither word does alone.
fn keeping_particles(text: &str, techniques: Techniques) -> Vec<String> {
    let mut raw = Vec::new();
    text::words(text, techniques.has(Techniques::SPLIT), &mut raw);
    let mut words: Vec<String> = Vec::with_capacity(raw.len());
    for word in raw {
        if text::is_stop_word(&word) {
            let opens_phrase = words
                .iter()
                .rev()
                .take(PHRASE_GAP + 1)
                .any(|first| lexicon::phrase(first, &word).is_some());
            if opens_phrase {
                words.push(word);
            }
        } else if techniques.has(Techniques::STEM) {
            words.push(text::stem(&word));
        } else {
            words.push(word);
        }
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn make_with_a_complement_sets_a_state() {
        assert!(causative_make("make my repo private"));
        assert!(causative_make("Make PR 71 a draft again"));
        assert!(!causative_make("make a team called platform"));
        assert!(!causative_make("make new labels"));
        assert!(!causative_make("make"));
        assert!(!causative_make("remake the widgets repo"));
    }

    #[test]
    fn what_a_request_does_not_do_is_left_out() {
        assert_eq!(
            without_doing("close PR 12 without merging").as_deref(),
            Some("close PR 12")
        );
        assert_eq!(without_doing("nothing lands without two approvals"), None);
    }

    #[test]
    fn a_request_not_to_do_calls_it_off() {
        assert_eq!(
            dont_do("don't send payout po_12").as_deref(),
            Some("cancel payout po_12")
        );
        assert_eq!(
            dont_do("Do not renew sub_9").as_deref(),
            Some("cancel sub_9")
        );
        assert_eq!(dont_do("don't"), None);
        assert_eq!(dont_do("don't send"), None);
        assert_eq!(dont_do("which members don't have 2FA on"), None);
    }
}
