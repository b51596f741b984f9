//! The languages of the Snowball stemmers (feature `languages`): a stemmer from
//! `rust-stemmers` and NLTK's stop words from `stop-words`, and nothing else — no
//! lexicon, no grammar. They read *requests*: a catalog's text is analysed in English.

use std::collections::HashSet;
use std::sync::{LazyLock, OnceLock};

use rust_stemmers::{Algorithm, Stemmer};

use super::{Grammar, Language, Questions, Times, Verbs};

/// One language: its code, its Snowball algorithm, its stemmer and stop-word set
/// (made on first use), and the [`Language`] over them.
struct Snowball {
    code: &'static str,
    algorithm: Algorithm,
}

/// Generates, per language, the functions a [`Language`] points to (a function
/// pointer cannot capture which stemmer it is) and the lazily made [`Language`].
macro_rules! snowball {
    ($($name:ident $code:literal $algorithm:ident),* $(,)?) => {
        $(
            #[allow(non_snake_case)]
            mod $name {
                use super::*;

                const SNOWBALL: Snowball = Snowball {
                    code: $code,
                    algorithm: Algorithm::$algorithm,
                };

                fn stemmer() -> &'static Stemmer {
                    static STEMMER: LazyLock<Stemmer> =
                        LazyLock::new(|| Stemmer::create(SNOWBALL.algorithm));
                    &STEMMER
                }

                fn stop_set() -> &'static HashSet<&'static str> {
                    static SET: LazyLock<HashSet<&'static str>> =
                        LazyLock::new(|| stop_words::get(SNOWBALL.code).iter().copied().collect());
                    &SET
                }

                fn stem(word: &str) -> String {
                    stemmer().stem(word).into_owned()
                }

                fn is_stop_word(word: &str) -> bool {
                    stop_set().contains(word)
                }

                pub(super) static LANGUAGE: LazyLock<Language> = LazyLock::new(|| {
                    language(SNOWBALL.code, stop_words::get(SNOWBALL.code), stem, is_stop_word)
                });
            }
        )*

        pub(super) fn by_code(code: &str) -> Option<&'static Language> {
            match code {
                $($code => Some(&*$name::LANGUAGE),)*
                _ => None,
            }
        }
    };
}

snowball! {
    danish "da" Danish,
    dutch "nl" Dutch,
    finnish "fi" Finnish,
    french "fr" French,
    german "de" German,
    hungarian "hu" Hungarian,
    italian "it" Italian,
    norwegian "no" Norwegian,
    portuguese "pt" Portuguese,
    romanian "ro" Romanian,
    russian "ru" Russian,
    spanish "es" Spanish,
    swedish "sv" Swedish,
}

/// A language with a stemmer and stop words only: every other table empty, so that
/// nothing English is read into a request in it.
fn language(
    code: &'static str,
    stop_words: &'static [&'static str],
    stem: fn(&str) -> String,
    is_stop_word: fn(&str) -> bool,
) -> Language {
    Language {
        code,
        version: 1,
        stop_words,
        is_stop_word,
        stem,
        synonyms: &[],
        phrases: &[],
        verbs: Verbs {
            read: &[],
            write: &[],
            delete: &[],
            delete_phrases: &[],
            implied: [""; 6],
        },
        questions: Questions {
            openers: &[],
            speaker: &[],
            caller: "",
            agent_suffixes: &[],
        },
        grammar: Grammar {
            causative: "",
            causative_means: "",
            creating: &[],
            stop: &[],
            undo: &[],
            no_longer: &[],
            negations: &[],
            negation_endings: &[],
            opposite_prefix: "",
            gerund: "",
            without: &[],
            dont: &[],
            do_not: ("", ""),
            call_off: "",
            possessive: &[],
        },
        times: Times {
            units: &[],
            months: &[],
            ambiguous_months: &[],
            days: &[],
            before_unit: &[],
            ago: "",
            ordinal_letters: &[],
        },
        value_words: |_| &[],
        naming: &[],
        derived: &[],
        other_spelling: |_, _| false,
        cache: OnceLock::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_has_its_stemmer_and_stop_words() {
        for code in [
            "da", "nl", "fi", "fr", "de", "hu", "it", "no", "pt", "ro", "ru", "es", "sv",
        ] {
            let language = by_code(code).unwrap();
            assert_eq!(language.code(), code);
            assert!(!language.stop_words.is_empty(), "{code}");
            assert_ne!(
                language.analysis_hash(),
                super::super::ENGLISH.analysis_hash()
            );
        }
        let german = by_code("de").unwrap();
        assert!(german.is_stop_word("die") && !german.is_stop_word("team"));
        assert_eq!(german.stem("mitglieder"), german.stem("mitglied"));
    }
}
