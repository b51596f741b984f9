//! One reading of a request, made once, before any term is looked up. In this order:
//!
//! 1. **values** — `#42`, `@bob`, `owner/name`, `cus_9s6X`, "last week" — are taken out
//!    of the request's whitespace tokens ([`Techniques::VALUES`], [`Techniques::TIMES`]);
//! 2. **acronyms** — `PR`, `PRs` — are found among the tokens left, their plural `s`
//!    dropped ([`Techniques::ACRONYMS`]);
//! 3. whether it is a **question**, and whether it says **"I"**, of the request as
//!    written;
//! 4. the **grammar readings** rewrite the tokens ("make … private" updates, "stop
//!    following" unfollows, "without merging" does not merge, "don't …" calls off;
//!    [`Techniques::LEXICON`]);
//! 5. the **words**: split (identifiers too), stop words out — the request language's
//!    as well as the catalog's — but a phrase's particle kept, stemmed;
//! 6. the **intent** — read, delete or other — from the words and the question
//!    ([`Techniques::AGREEMENT`]).
//!
//! The slots of terms the index looks up are made from this reading alone.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use super::intent::{self, Intent};
use super::values::{self, ValueKind};
use super::{Index, Language, PHRASE_GAP, Techniques, grammar, text};

/// What a request says, read once.
pub(super) struct Reading {
    /// The kinds of the values taken out, in order.
    pub(super) values: Vec<ValueKind>,
    /// Its words written in capitals, as the index analyses them.
    pub(super) acronyms: HashSet<String>,
    pub(super) question: bool,
    /// Whether it says "I": the caller.
    pub(super) speaker: bool,
    /// Its words, analysed, after the grammar readings.
    pub(super) words: Vec<String>,
    /// A word's stem in the request's language where that differs from the catalog
    /// language's (only for a request in another language: [`Index::search_in`]).
    pub(super) alternates: HashMap<String, String>,
    /// What it asks to do (with [`Techniques::AGREEMENT`]).
    pub(super) intent: Option<Intent>,
}

impl Reading {
    /// Reads `query` for `index`, written in `request` (the index's own language or
    /// another).
    pub(super) fn of(query: &str, index: &Index<'_>, request: &Language) -> Reading {
        let techniques = index.techniques();
        let language = index.language();
        // 1. Values.
        let (mut tokens, values): (Vec<Cow<'_, str>>, _) = if techniques.has(Techniques::VALUES) {
            values::extract(language, query, techniques.has(Techniques::TIMES))
        } else {
            (
                query.split_whitespace().map(Cow::Borrowed).collect(),
                Vec::new(),
            )
        };
        // 2. Acronyms.
        let mut acronyms = HashSet::new();
        if techniques.has(Techniques::ACRONYMS) {
            for token in &mut tokens {
                if let Some(plain) = take_acronyms(token, techniques, language, &mut acronyms) {
                    *token = Cow::Owned(plain);
                }
            }
        }
        // 3. Question, speaker.
        let question = is_question(language, query);
        let speaker = says_i(language, query);
        // 4. Grammar.
        let lexicon = techniques.has(Techniques::LEXICON);
        if lexicon {
            grammar::read(query, &mut tokens, index);
        }
        // 5. Words.
        let other = (request != language).then_some(request);
        let mut alternates = HashMap::new();
        let words = words(
            &tokens,
            techniques,
            language,
            other,
            lexicon,
            &mut alternates,
        );
        // 6. Intent.
        let intent = techniques
            .has(Techniques::AGREEMENT)
            .then(|| intent::intent(language, query, &words, question));
        Reading {
            values,
            acronyms,
            question,
            speaker,
            words,
            alternates,
            intent,
        }
    }
}

/// The words of `tokens`: split, the stop words of `language` (and of `other`, the
/// request's language when it is another) out, stemmed. With the lexicon, a stop word
/// that completes a phrase begun at most [`PHRASE_GAP`] words before ("log in", "sign
/// bob in") stays, as the phrase means something neither word does alone.
fn words(
    tokens: &[Cow<'_, str>],
    techniques: Techniques,
    language: &Language,
    other: Option<&Language>,
    lexicon: bool,
    alternates: &mut HashMap<String, String>,
) -> Vec<String> {
    let mut raw = Vec::new();
    for token in tokens {
        text::words(token, techniques.has(Techniques::SPLIT), &mut raw);
    }
    let stem = techniques.has(Techniques::STEM);
    let mut words: Vec<String> = Vec::with_capacity(raw.len());
    for word in raw {
        if language.is_stop_word(&word) {
            let particle = lexicon
                && words
                    .iter()
                    .rev()
                    .take(PHRASE_GAP + 1)
                    .any(|first| language.phrase(first, &word).is_some());
            if particle {
                words.push(word);
            }
            continue;
        }
        if other.is_some_and(|other| other.is_stop_word(&word)) {
            continue;
        }
        if !stem {
            words.push(word);
            continue;
        }
        let stemmed = language.stem(&word);
        if let Some(other) = other {
            let theirs = other.stem(&word);
            if theirs != stemmed {
                alternates.insert(stemmed.clone(), theirs);
            }
        }
        words.push(stemmed);
    }
    words
}

/// The acronyms of `token` (two to five capitals, perhaps a plural `s`: `PR`, `PRs`,
/// `CI`), as the index analyses them, added to `found`; and the token with their
/// plural `s` dropped, when one was (split as an identifier, `PRs` would be `p` and
/// `rs`).
fn take_acronyms(
    token: &str,
    techniques: Techniques,
    language: &Language,
    found: &mut HashSet<String>,
) -> Option<String> {
    let mut out = String::with_capacity(token.len());
    let mut changed = false;
    let mut word = String::new();
    let mut flush = |word: &mut String, out: &mut String| {
        let caps = word.strip_suffix('s').unwrap_or(word);
        if (2..=5).contains(&caps.len()) && caps.bytes().all(|b| b.is_ascii_uppercase()) {
            found.extend(super::analyze(caps, techniques, language));
            changed |= caps.len() != word.len();
            out.push_str(caps);
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in token.chars() {
        if c.is_alphanumeric() {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    changed.then_some(out)
}

/// Whether `query` says "I" ("I", "I'm", "I've").
fn says_i(language: &Language, query: &str) -> bool {
    query
        .split(|c: char| !c.is_alphanumeric() && c != '\'' && c != '\u{2019}')
        .any(|w| {
            let w = w.split(['\'', '\u{2019}']).next().unwrap_or_default();
            language.questions.speaker.contains(&w)
        })
}

/// Whether `query` is a question: it opens with a question word or an auxiliary verb
/// ("who…", "how many…", "is bob…", "can it…"), or ends with a question mark.
fn is_question(language: &Language, query: &str) -> bool {
    let first = query
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_lowercase();
    language.questions.openers.contains(&first.as_str()) || query.trim_end().ends_with('?')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::ENGLISH;

    #[test]
    fn i_is_the_caller() {
        for query in [
            "which orgs am I in",
            "the orgs I'm in",
            "repos I\u{2019}ve starred",
        ] {
            assert!(says_i(&ENGLISH, query), "{query}");
        }
        for query in ["list issues", "CI is red", "in_77", "my repos"] {
            assert!(!says_i(&ENGLISH, query), "{query}");
        }
    }

    #[test]
    fn acronyms_are_found_and_their_plural_dropped() {
        let mut found = HashSet::new();
        let t = Techniques::DEFAULT.with(Techniques::ACRONYMS);
        assert_eq!(
            take_acronyms("PRs,", t, &ENGLISH, &mut found).as_deref(),
            Some("PR,")
        );
        assert_eq!(take_acronyms("prs", t, &ENGLISH, &mut found), None);
        assert_eq!(take_acronyms("CI", t, &ENGLISH, &mut found), None);
        assert!(found.contains("pr") && found.contains("ci"), "{found:?}");
    }
}
