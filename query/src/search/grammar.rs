//! What English grammar says about a request beyond its words, for a query read with
//! the lexicon ([`Techniques::LEXICON`]): "make my repo private" updates (the lexicon's
//! "make" creates), "stop following" asks for `unfollow`, "close it without merging"
//! does not merge, and "log … in" is one phrase though "in" is a stop word.

use super::{Index, PHRASE_GAP, Techniques, lexicon, text};

/// The words of `rest` (the query `query` with its values taken out), as
/// [`super::analyze`] gives them, after the readings below.
pub(super) fn words(
    query: &str,
    rest: &str,
    techniques: Techniques,
    index: &Index<'_>,
) -> Vec<String> {
    let rest = if causative_make(query) {
        text::replace_word(rest, "make", "update")
    } else {
        rest.to_owned()
    };
    let rest = without_doing(&stop_doing(&rest, index));
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
fn stop_doing(text: &str, index: &Index<'_>) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    let Some(at) = words.windows(2).position(|pair| {
        matches!(pair[0].to_ascii_lowercase().as_str(), "stop" | "quit")
            && pair[1].len() > 5
            && pair[1].to_ascii_lowercase().ends_with("ing")
    }) else {
        return text.to_owned();
    };
    let verb = text::stem(&words[at + 1].to_ascii_lowercase());
    let opposite = format!("un{verb}");
    if index.postings(&opposite).is_none() {
        return text.to_owned();
    }
    let mut out: Vec<String> = words.iter().map(|w| (*w).to_owned()).collect();
    out.splice(at..at + 2, [opposite]);
    out.join(" ")
}

/// "close PR 12 without merging": what the request says it does not do is not what
/// the tool does; the gerund goes ("without two approvals" stays: a noun it needs).
fn without_doing(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    let Some(at) = words.windows(2).position(|pair| {
        pair[0].eq_ignore_ascii_case("without")
            && pair[1].len() > 5
            && pair[1].to_ascii_lowercase().ends_with("ing")
    }) else {
        return text.to_owned();
    };
    let mut out = words;
    out.drain(at..at + 2);
    out.join(" ")
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
        assert_eq!(without_doing("close PR 12 without merging"), "close PR 12");
        assert_eq!(
            without_doing("nothing lands without two approvals"),
            "nothing lands without two approvals"
        );
    }
}
