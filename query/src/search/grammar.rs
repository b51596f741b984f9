//! What English grammar says about a request beyond its words, for a query read with
//! the lexicon ([`Techniques::LEXICON`]): "make my repo private" updates (the lexicon's
//! "make" creates), "stop following" asks for `unfollow`, "close it without merging"
//! does not merge, and "log … in" is one phrase though "in" is a stop word.

use std::borrow::Cow;

use super::language::Grammar;
use super::{Index, Language, NAME, text};

/// The grammar readings, over the request's whitespace tokens (its values taken
/// out), in this order: a causative "make", "stop doing", "undo"/"no longer", "without
/// doing", "don't do". `query` is the request as written.
pub(super) fn read(query: &str, tokens: &mut Vec<Cow<'_, str>>, index: &Index<'_>) {
    let language = index.language();
    let g = &language.grammar;
    if causative_make(g, query) {
        // The first token that holds the verb as a whole word.
        for token in tokens.iter_mut() {
            let read = text::replace_word(token, g.causative, g.causative_means);
            if read != **token {
                *token = Cow::Owned(read);
                break;
            }
        }
    }
    stop_doing(language, tokens, index);
    undo_doing(language, tokens, index);
    without_doing(g, tokens);
    dont_do(g, tokens);
}

/// Whether `query` says "make" as a causative ("make my repo private", "make pm_8 the
/// default card"), which sets a state of something that exists, rather than as
/// "make a…" / "make a new…", which creates: an article or "new" after the verb is
/// what English uses for a thing that does not exist yet.
fn causative_make(g: &Grammar, query: &str) -> bool {
    let mut words = query
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | '.' | ';' | ':' | '!' | '?'))
        .filter(|w| !w.is_empty());
    while let Some(word) = words.next() {
        if word.eq_ignore_ascii_case(g.causative) {
            return words
                .next()
                .is_some_and(|next| !is_one_of(next, g.creating));
        }
    }
    false
}

/// "stop following @bob" asks for the verb's opposite, `unfollow`, where the catalog
/// has the word; else the lexicon's "stop" (cancel, end) reads it. Reading it as
/// "disable" instead lost "stop watching widgets" (a subscription's delete) on the
/// tuning sets.
fn stop_doing(language: &Language, tokens: &mut Vec<Cow<'_, str>>, index: &Index<'_>) {
    let g = &language.grammar;
    if !has_word(tokens, g.stop) {
        return;
    }
    let Some(at) = tokens
        .windows(2)
        .position(|pair| is_one_of(&pair[0], g.stop) && is_gerund(g, &pair[1]))
    else {
        return;
    };
    let opposite = opposite(language, &tokens[at + 1].to_ascii_lowercase());
    // Only a word the catalog has: "unsell" would find nothing.
    if index.postings(&opposite).is_some() {
        tokens.splice(at..at + 2, [Cow::Owned(opposite)]);
    }
}

/// "I blocked @troll, undo it", "I don't want widgets starred anymore": a request to
/// take back what a verb did, or to be rid of the state it left, asks for the verb's
/// opposite (`unblock`, `unstar`) where a tool is named for it (a name marker, so only
/// with [`Techniques::NAMES`]). "Undo" looks at every word; "anymore" and "no longer"
/// only at the words after a negation ("nobody maintains it anymore" is not a request
/// to unarchive). "By mistake" alone says nothing of which verb: "delete the release,
/// it was a mistake" deletes.
fn undo_doing(language: &Language, tokens: &mut [Cow<'_, str>], index: &Index<'_>) {
    let g = &language.grammar;
    let take_back = has_word(tokens, g.undo);
    if !take_back && !has_word(tokens, g.no_longer) {
        return;
    }
    let from = if take_back {
        0
    } else {
        match tokens.iter().position(|w| is_negation(g, w)) {
            Some(at) => at + 1,
            None => return,
        }
    };
    let found = tokens.iter().enumerate().skip(from).find_map(|(at, word)| {
        let lower = word.to_ascii_lowercase();
        let letters = lower.trim_matches(|c: char| !c.is_ascii_alphabetic());
        let opposite = opposite(language, letters);
        // A word a tool is named for: "unbound" in some prose is no verb to call.
        let named = format!("{NAME}{opposite}");
        (letters.len() > 2 && index.postings(&named).is_some()).then_some((at, opposite))
    });
    if let Some((at, opposite)) = found {
        tokens[at] = Cow::Owned(opposite);
    }
}

/// The stem of the verb that undoes `verb` (lower case): `un` and its stem.
fn opposite(language: &Language, verb: &str) -> String {
    format!(
        "{}{}",
        language.grammar.opposite_prefix,
        language.stem(verb)
    )
}

/// "not", "no", "nobody", "never" or a word ending in "n't".
fn is_negation(g: &Grammar, word: &str) -> bool {
    let lower = word.to_ascii_lowercase();
    g.negations.contains(&lower.as_str()) || g.negation_endings.iter().any(|e| lower.ends_with(e))
}

/// Whether one of `tokens` is one of `words` (any case): most requests have none.
fn has_word(tokens: &[Cow<'_, str>], words: &[&str]) -> bool {
    tokens.iter().any(|w| is_one_of(w, words))
}

/// Whether `word` is one of `words`, in any case.
fn is_one_of(word: &str, words: &[&str]) -> bool {
    words.iter().any(|x| word.eq_ignore_ascii_case(x))
}

/// A word of six letters or more ending in "ing" ("following", not "ring").
fn is_gerund(g: &Grammar, word: &str) -> bool {
    word.len() > 5
        && word
            .get(word.len() - g.gerund.len()..)
            .is_some_and(|end| end.eq_ignore_ascii_case(g.gerund))
}

/// "close PR 12 without merging": what the request says it does not do is not what
/// the tool does; the gerund goes ("without two approvals" stays: a noun it needs).
fn without_doing(g: &Grammar, tokens: &mut Vec<Cow<'_, str>>) {
    if !has_word(tokens, g.without) {
        return;
    }
    if let Some(at) = tokens
        .windows(2)
        .position(|pair| is_one_of(&pair[0], g.without) && is_gerund(g, &pair[1]))
    {
        tokens.drain(at..at + 2);
    }
}

/// "don't send payout po_12", "do not go ahead with the refund": a request that opens
/// by telling the API not to do what it was going to asks to call that off, not to do
/// it. The negation and its verb become "cancel".
fn dont_do(g: &Grammar, tokens: &mut Vec<Cow<'_, str>>) {
    // Most requests open otherwise: they are turned away on their first word.
    let Some(first) = tokens.first() else {
        return;
    };
    let negation = if is_one_of(first, g.dont) {
        1
    } else if first.eq_ignore_ascii_case(g.do_not.0)
        && tokens
            .get(1)
            .is_some_and(|second| second.eq_ignore_ascii_case(g.do_not.1))
    {
        2
    } else {
        return;
    };
    // The verb it negates goes; what the request is about stays (and must be there).
    if tokens.len() > negation + 1 {
        tokens.splice(..=negation, [Cow::Borrowed(g.call_off)]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static G: &Grammar = &crate::search::ENGLISH.grammar;

    #[test]
    fn make_with_a_complement_sets_a_state() {
        assert!(causative_make(G, "make my repo private"));
        assert!(causative_make(G, "Make PR 71 a draft again"));
        assert!(!causative_make(G, "make a team called platform"));
        assert!(!causative_make(G, "make new labels"));
        assert!(!causative_make(G, "make"));
        assert!(!causative_make(G, "remake the widgets repo"));
    }

    /// `reading` applied to the tokens of `text`, joined again.
    fn read(reading: fn(&Grammar, &mut Vec<Cow<'_, str>>), text: &str) -> String {
        let mut tokens: Vec<Cow<'_, str>> = text.split_whitespace().map(Cow::Borrowed).collect();
        reading(G, &mut tokens);
        tokens.join(" ")
    }

    #[test]
    fn what_a_request_does_not_do_is_left_out() {
        assert_eq!(
            read(without_doing, "close PR 12 without merging"),
            "close PR 12"
        );
        let unchanged = "nothing lands without two approvals";
        assert_eq!(read(without_doing, unchanged), unchanged);
    }

    #[test]
    fn a_request_not_to_do_calls_it_off() {
        assert_eq!(
            read(dont_do, "don't send payout po_12"),
            "cancel payout po_12"
        );
        assert_eq!(read(dont_do, "Do not renew sub_9"), "cancel sub_9");
        for unchanged in ["don't", "don't send", "which members don't have 2FA on"] {
            assert_eq!(read(dont_do, unchanged), unchanged);
        }
    }
}
