//! What a request asks to do with what it names, read from its verbs: to read it ("list",
//! "show", a question) or to delete it ("remove", "nuke"). A verb is a common word, so
//! BM25 weighs it little, yet among the tools about one resource it says which is
//! meant ([`super::Techniques::AGREEMENT`]).

use super::Language;

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

/// The intent of a request whose words (lower case, stop words out) are `words`;
/// `question` when it is one.
pub(super) fn intent(language: &Language, query: &str, words: &[String], question: bool) -> Intent {
    let [read, write, delete] = language.intent_verbs();
    let stems: Vec<String> = words.iter().map(|w| language.stem(w)).collect();
    let has = |list: &[String]| stems.iter().any(|w| list.contains(w));
    // Lower-cased only when no verb already told.
    let says = |phrases: &[&str]| {
        let lower = query.to_lowercase();
        phrases.iter().any(|p| lower.contains(p))
    };
    if has(delete) || says(language.verbs.delete_phrases) {
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
        intent(&super::super::ENGLISH, query, &words, query.ends_with('?'))
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
