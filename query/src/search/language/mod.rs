//! The language seam: everything the engine knows of one human language — its stop
//! words and stemmer, the synonyms and phrases people use for API verbs and common
//! resources, the verbs that read, write and delete, question openers, negations, the
//! words of grammar and of time — behind one [`Language`]. The rest of the engine holds
//! no word of any language.
//!
//! English ([`ENGLISH`]) is the only full language and the one every index is built in
//! unless told otherwise. With the cargo feature `languages`, [`by_code`] also knows
//! the languages of the Snowball stemmers (German `de`, French `fr`, Spanish `es`, …):
//! their stemmer and stop words, and no lexicon. Such a language is meant for
//! *requests*: [`crate::Index::search_in`] reads a request in it over a catalog written
//! in English (see [`crate::Index::search_in`] for how the two meet).
//!
//! An index records the code of its language and a hash of the analysis
//! ([`Language::analysis_hash`]); an index whose language this build lacks, or whose
//! analysis differs from this build's, is refused by [`crate::Index::open`] with an
//! error that says so (a catalog then builds its own index from its tools).

mod english;
#[cfg(feature = "languages")]
mod snowball;

use std::collections::HashMap;
use std::sync::OnceLock;

pub use english::ENGLISH;

use super::values::ValueKind;

/// What a method and path imply a tool does (see `rest_verb` in the engine); the
/// language names each in its lexicon's words ([`Verbs::word`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Verb {
    Get,
    List,
    Create,
    Update,
    Delete,
    Run,
}

/// A language's analysis of text and requests. The fields are the language's tables;
/// the engine reads them through this type only.
pub struct Language {
    /// ISO 639-1 code (`en`), recorded in an index's header.
    code: &'static str,
    /// Bumped whenever the language's code changes what it does in a way its tables do
    /// not show (its stemmer's rules, its spelling rule).
    version: u32,
    pub(super) stop_words: &'static [&'static str],
    pub(super) is_stop_word: fn(&str) -> bool,
    pub(super) stem: fn(&str) -> String,
    /// Groups of words asking for one thing ("remove", "delete", "drop").
    pub(super) synonyms: &'static [&'static [&'static str]],
    /// Two words that together mean others ("kick … out" → remove, delete).
    pub(super) phrases: &'static [(&'static str, &'static str, &'static [&'static str])],
    pub(super) verbs: Verbs,
    pub(super) questions: Questions,
    pub(super) grammar: Grammar,
    pub(super) times: Times,
    /// The words APIs name a parameter of each kind of value with.
    pub(super) value_words: fn(&ValueKind) -> &'static [&'static str],
    /// Words after which the next is a name ("a repo called dotfiles").
    pub(super) naming: &'static [&'static str],
    /// Derivational suffixes as the stemmer leaves them, longest first where one ends
    /// another (`Techniques::DERIVATION`).
    pub(super) derived: &'static [&'static str],
    /// Whether two stems are one word in two spellings (`Techniques::SPELLING`).
    pub(super) other_spelling: fn(&[u8], &[u8]) -> bool,
    /// What is computed from the tables once (stemmed lexicon, intent lists, hash).
    cache: OnceLock<Cache>,
}

/// The verbs of a request that say what it does with what it names
/// (`Techniques::AGREEMENT`), and the words of the implied [`Verb`]s.
pub(super) struct Verbs {
    pub(super) read: &'static [&'static str],
    /// Verbs that change something ("show me how to delete…" is a delete).
    pub(super) write: &'static [&'static str],
    pub(super) delete: &'static [&'static str],
    /// Phrases that delete though no word of theirs is a verb that does ("get rid").
    pub(super) delete_phrases: &'static [&'static str],
    /// [`Verb::Get`], [`Verb::List`], … in this order, in the lexicon's words.
    pub(super) implied: [&'static str; 6],
}

impl Verbs {
    pub(super) fn word(&self, verb: Verb) -> &'static str {
        self.implied[verb as usize]
    }
}

/// How a request says it is a question, and who "I" is.
pub(super) struct Questions {
    /// First words of a question ("who…", "how many…", "is bob…").
    pub(super) openers: &'static [&'static str],
    /// The words for the speaker ("I"): the caller, whom APIs name the authenticated
    /// user.
    pub(super) speaker: &'static [&'static str],
    /// The lexicon word for the caller (`me`).
    pub(super) caller: &'static str,
    /// Suffixes that make an agent noun of a verb ("watch" → "watcher").
    pub(super) agent_suffixes: &'static [&'static str],
}

/// The words of the grammar readings (`grammar.rs`).
pub(super) struct Grammar {
    /// The verb that is causative before a complement ("make my repo private").
    pub(super) causative: &'static str,
    /// What it is replaced by when it is.
    pub(super) causative_means: &'static str,
    /// Words after which that verb creates instead ("make a…", "make new…").
    pub(super) creating: &'static [&'static str],
    /// Verbs that stop what their gerund does ("stop following").
    pub(super) stop: &'static [&'static str],
    /// Words that take back what a verb did ("undo").
    pub(super) undo: &'static [&'static str],
    /// Words that, after a negation, say a state should end ("anymore").
    pub(super) no_longer: &'static [&'static str],
    pub(super) negations: &'static [&'static str],
    /// Word endings that negate ("n't").
    pub(super) negation_endings: &'static [&'static str],
    /// The prefix of a verb's opposite (`un`).
    pub(super) opposite_prefix: &'static str,
    /// The ending of a gerund (`ing`).
    pub(super) gerund: &'static str,
    /// Words after which a gerund is what the request does not do ("without").
    pub(super) without: &'static [&'static str],
    /// A request opening with one of these does not want done what follows.
    pub(super) dont: &'static [&'static str],
    /// The same in two words ("do not").
    pub(super) do_not: (&'static str, &'static str),
    /// What such a request asks for instead.
    pub(super) call_off: &'static str,
    /// Endings that make a possessive ("'s"), taken off a value.
    pub(super) possessive: &'static [&'static str],
}

/// The words of a time gone by ("last week", "3 days ago", "Dec 1").
pub(super) struct Times {
    pub(super) units: &'static [&'static str],
    pub(super) months: &'static [&'static str],
    /// Months that are verbs too, times only before a day ("May 3").
    pub(super) ambiguous_months: &'static [&'static str],
    /// Days named alone ("today").
    pub(super) days: &'static [&'static str],
    /// Words before a unit ("last week").
    pub(super) before_unit: &'static [&'static str],
    /// The word after a count and a unit ("3 days ago").
    pub(super) ago: &'static str,
    /// Letters an ordinal may end with (`1st`, `2nd`, `3rd`, `4th`).
    pub(super) ordinal_letters: &'static [char],
}

/// A language's tables as the engine asks them: stemmed once, by hash.
struct Cache {
    /// Each word's stem → the stems of every word sharing a synonym group with it.
    related: HashMap<String, Vec<String>>,
    /// First stem → (second stem, what the pair means).
    phrases: HashMap<String, Vec<(String, Vec<String>)>>,
    /// The read, write and delete verbs, stemmed.
    intent: [Vec<String>; 3],
    hash: u64,
}

impl std::fmt::Debug for Language {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Language")
            .field("code", &self.code)
            .field("analysis_hash", &self.analysis_hash())
            .finish_non_exhaustive()
    }
}

impl PartialEq for Language {
    fn eq(&self, other: &Language) -> bool {
        self.code == other.code && self.analysis_hash() == other.analysis_hash()
    }
}

impl Language {
    /// Its ISO 639-1 code (`en`).
    #[must_use]
    pub fn code(&self) -> &'static str {
        self.code
    }

    /// A stable hash of the analysis: the language's code, version and every table,
    /// and its stemmer's output on every word of them. An index records it, and one
    /// built with other tables is not read with these.
    #[must_use]
    pub fn analysis_hash(&self) -> u64 {
        self.cache().hash
    }

    /// Whether `word` (lower case) says nothing about which tool is meant.
    #[must_use]
    pub fn is_stop_word(&self, word: &str) -> bool {
        (self.is_stop_word)(word)
    }

    /// The stem of `word` (lower case).
    #[must_use]
    pub fn stem(&self, word: &str) -> String {
        (self.stem)(word)
    }

    /// The related stems of a word's stem (empty when it is in no synonym group).
    pub(super) fn related(&self, stem: &str) -> &[String] {
        self.cache().related.get(stem).map_or(&[], Vec::as_slice)
    }

    /// The words a phrase of two stems stands for, as stems.
    pub(super) fn phrase(&self, first: &str, second: &str) -> Option<&[String]> {
        self.cache()
            .phrases
            .get(first)?
            .iter()
            .find(|(b, _)| b == second)
            .map(|(_, words)| words.as_slice())
    }

    /// The read, write and delete verbs, stemmed.
    pub(super) fn intent_verbs(&self) -> &[Vec<String>; 3] {
        &self.cache().intent
    }

    fn cache(&self) -> &Cache {
        self.cache.get_or_init(|| Cache::of(self))
    }
}

impl Cache {
    fn of(language: &Language) -> Cache {
        let stem = language.stem;
        let mut related: HashMap<String, Vec<String>> = HashMap::new();
        for group in language.synonyms {
            let stems: Vec<String> = group.iter().map(|w| stem(w)).collect();
            for s in &stems {
                let entry = related.entry(s.clone()).or_default();
                for other in &stems {
                    if other != s && !entry.contains(other) {
                        entry.push(other.clone());
                    }
                }
            }
        }
        for list in related.values_mut() {
            list.sort();
        }
        let mut phrases: HashMap<String, Vec<(String, Vec<String>)>> = HashMap::new();
        for (a, b, words) in language.phrases {
            phrases
                .entry(stem(a))
                .or_default()
                .push((stem(b), words.iter().map(|w| stem(w)).collect()));
        }
        let v = &language.verbs;
        let intent = [v.read, v.write, v.delete].map(|list| list.iter().map(|w| stem(w)).collect());
        Cache {
            related,
            phrases,
            intent,
            hash: hash(language),
        }
    }
}

/// FNV-1a (64 bits) over every table of `language`, each word followed by its stem:
/// the same on every platform and every build, unlike `std`'s hasher.
fn hash(language: &Language) -> u64 {
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    h.word(language.code);
    h.word(&language.version.to_string());
    let mut words = |list: &[&str]| {
        for w in list {
            h.word(w);
            h.word(&(language.stem)(w));
            h.word(if (language.is_stop_word)(w) { "1" } else { "0" });
        }
        // Lists end apart: ["a b"] is not ["a", "b"].
        h.word("\u{0}");
    };
    words(language.stop_words);
    for group in language.synonyms {
        words(group);
    }
    for (a, b, means) in language.phrases {
        words(&[a, b]);
        words(means);
    }
    let v = &language.verbs;
    for list in [v.read, v.write, v.delete, v.delete_phrases, &v.implied] {
        words(list);
    }
    let q = &language.questions;
    for list in [q.openers, q.speaker, &[q.caller], q.agent_suffixes] {
        words(list);
    }
    let g = &language.grammar;
    for list in [
        &[g.causative, g.causative_means][..],
        g.creating,
        g.stop,
        g.undo,
        g.no_longer,
        g.negations,
        g.negation_endings,
        &[
            g.opposite_prefix,
            g.gerund,
            g.do_not.0,
            g.do_not.1,
            g.call_off,
        ],
        g.without,
        g.dont,
        g.possessive,
    ] {
        words(list);
    }
    let t = &language.times;
    let ordinals: Vec<String> = t.ordinal_letters.iter().map(char::to_string).collect();
    let ordinals: Vec<&str> = ordinals.iter().map(String::as_str).collect();
    for list in [
        t.units,
        t.months,
        t.ambiguous_months,
        t.days,
        t.before_unit,
        &[t.ago],
        &ordinals,
    ] {
        words(list);
    }
    for kind in ValueKind::ALL {
        words((language.value_words)(kind));
    }
    words(language.naming);
    words(language.derived);
    h.0
}

struct Fnv(u64);

impl Fnv {
    fn word(&mut self, word: &str) {
        for b in word.bytes().chain([0xff]) {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// The language of `code` (`en`; with the feature `languages`, also `de`, `fr`, `es`,
/// … for requests), if this build has it.
#[must_use]
pub fn by_code(code: &str) -> Option<&'static Language> {
    if code == ENGLISH.code {
        return Some(&ENGLISH);
    }
    #[cfg(feature = "languages")]
    if let Some(language) = snowball::by_code(code) {
        return Some(language);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_is_stable_and_sees_every_table() {
        let first = ENGLISH.analysis_hash();
        assert_eq!(first, hash(&ENGLISH));
        // One word more in one table is another analysis.
        let other = Language {
            naming: &["called"],
            cache: OnceLock::new(),
            ..english::copy()
        };
        assert_ne!(other.analysis_hash(), first);
        assert_eq!(english::copy().analysis_hash(), first);
        assert!(by_code("en").is_some() && by_code("xx").is_none());
    }

    #[test]
    fn synonyms_are_symmetric_and_stemmed() {
        let stem = |w| ENGLISH.stem(w);
        assert!(ENGLISH.related(&stem("bug")).contains(&stem("issue")));
        assert!(ENGLISH.related(&stem("issues")).contains(&stem("ticket")));
        assert!(ENGLISH.related(&stem("removing")).contains(&stem("delete")));
        assert!(ENGLISH.related("zzz").is_empty());
        assert_eq!(
            ENGLISH.phrase(&stem("bug"), &stem("reports")),
            Some(&[stem("issue"), stem("bug")][..])
        );
    }
}
