//! Text analysis: the same words out of a tool's texts at build time and out of a query
//! at run time (identifier splitting, stop words, a light stemmer).

/// Splits `text` into lower-case words: at every character that is not a letter or a
/// digit, and (when `split_identifiers`) inside identifiers — `camelCase`,
/// `HTTPServer`, `v2beta` — so that `listRepoIssues` and `/repos/{owner}/issues` share
/// words with "list the issues of a repo".
pub fn words(text: &str, split_identifiers: bool, out: &mut Vec<String>) {
    let mut current = String::new();
    let mut prev: Option<char> = None;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if !c.is_alphanumeric() {
            flush(&mut current, out);
            prev = None;
            continue;
        }
        // `PRs`, `URLs`, `IDs`: the plural of the letters before, which name the thing.
        if c == 's'
            && split_identifiers
            && current.len() >= 2
            && prev.is_some_and(char::is_uppercase)
            && !chars.peek().is_some_and(|n| n.is_alphanumeric())
        {
            continue;
        }
        if split_identifiers && let Some(p) = prev {
            // `HTTPServer` splits before `Server`, but not `PRs` before its `s`.
            let mut ahead = chars.clone();
            let plural =
                ahead.next() == Some('s') && !ahead.next().is_some_and(char::is_alphanumeric);
            let next_lower = !plural && chars.peek().is_some_and(|n| n.is_lowercase());
            let boundary = (p.is_lowercase() && c.is_uppercase())
                || (p.is_uppercase() && c.is_uppercase() && next_lower)
                || (p.is_alphabetic() && c.is_ascii_digit())
                || (p.is_ascii_digit() && c.is_alphabetic());
            if boundary {
                flush(&mut current, out);
            }
        }
        // Most text is ASCII: lower-cased in place, without the general case's
        // iterator.
        if c.is_ascii() {
            current.push(c.to_ascii_lowercase());
        } else {
            current.extend(c.to_lowercase());
        }
        prev = Some(c);
    }
    flush(&mut current, out);
}

fn flush(current: &mut String, out: &mut Vec<String>) {
    if !current.is_empty() {
        out.push(std::mem::take(current));
    }
}

/// Words that say nothing about which tool is meant. A `match`, as it is asked of
/// every word of every request: the compiler dispatches on the length first.
pub fn is_stop_word(word: &str) -> bool {
    matches!(
        word,
        "a" | "about" | "also" | "an" | "and" | "any" | "are" | "as" | "at" | "be" | "been"
            | "by" | "can" | "do" | "does" | "for" | "from" | "has" | "have" | "how" | "i"
            | "if" | "in" | "into" | "is" | "it" | "its" | "just" | "let" | "like" | "need"
            | "of" | "on" | "one" | "or" | "our" | "please" | "should" | "so" | "some"
            | "that" | "the" | "their" | "them" | "there" | "these" | "this" | "those" | "to"
            | "us" | "using" | "via" | "want" | "was" | "we" | "were" | "what" | "when"
            | "where" | "which" | "who" | "whose" | "will" | "with" | "would" | "you" | "your"
            // What an apostrophe leaves of a possessive or a contraction ("the org's
            // repos", "don't", "we're"): split off, `s` would be a word of its own.
            | "s" | "t" | "m" | "re" | "ve" | "ll" | "d"
    )
}

/// `text` with its first whole word `word` (any case) replaced by `by`.
pub fn replace_word(text: &str, word: &str, by: &str) -> String {
    let is_word_char = |c: char| c.is_alphanumeric() || c == '_';
    let mut at = 0;
    while let Some(found) = text[at..].to_ascii_lowercase().find(word) {
        let start = at + found;
        let end = start + word.len();
        let before = text[..start]
            .chars()
            .next_back()
            .is_none_or(|c| !is_word_char(c));
        let after = text[end..].chars().next().is_none_or(|c| !is_word_char(c));
        if before && after {
            return format!("{}{by}{}", &text[..start], &text[end..]);
        }
        at = end;
    }
    text.to_owned()
}

/// A light suffix stemmer (plural, `-ing`, `-ed`, `-tion`, final `e`/`y`): the same
/// stem for `create`, `creates`, `created`, `creating`, `creation`, and for
/// `repository`/`repositories`. Not linguistics — both sides only need to agree.
pub fn stem(word: &str) -> String {
    if word.len() <= 3 || !word.is_ascii() || word.bytes().any(|b| b.is_ascii_digit()) {
        return word.to_owned();
    }
    let mut w = word.to_owned();
    if let Some(base) = w.strip_suffix("ies")
        && base.len() >= 2
    {
        w = format!("{base}i");
    } else if w.ends_with("sses")
        || w.ends_with("shes")
        || w.ends_with("ches")
        || w.ends_with("xes")
    {
        w.truncate(w.len() - 2);
    } else if w.ends_with('s') && !w.ends_with("ss") && !w.ends_with("us") && !w.ends_with("is") {
        w.pop();
    }
    for suffix in ["ings", "ing", "ed"] {
        if let Some(base) = w.strip_suffix(suffix)
            && base.len() >= 3
            && base.bytes().any(is_vowel)
        {
            w = base.to_owned();
            // running → run, stopped → stop (not `ll`, `ss`, `zz`: install, access).
            let b = w.as_bytes();
            if b.len() >= 2
                && b[b.len() - 1] == b[b.len() - 2]
                && !is_vowel(b[b.len() - 1])
                && !matches!(b[b.len() - 1], b'l' | b's' | b'z')
            {
                w.pop();
            }
            break;
        }
    }
    // assignee → assign, invitee → invit(e), payee stays (too short to tell).
    if let Some(base) = w.strip_suffix("ee")
        && base.len() >= 4
    {
        w = base.to_owned();
    }
    if let Some(base) = w.strip_suffix("tion")
        && base.len() >= 3
    {
        // creation → creat(e), deletion → delet(e).
        w = format!("{base}t");
    }
    if w.len() > 3 && (w.ends_with('e') || w.ends_with('y')) {
        let last = w.pop();
        if last == Some('y') {
            w.push('i');
        }
    }
    w
}

fn is_vowel(b: u8) -> bool {
    matches!(b, b'a' | b'e' | b'i' | b'o' | b'u' | b'y')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_words_are_whole_words() {
        assert!(is_stop_word("the") && is_stop_word("whose") && is_stop_word("s"));
        assert!(!is_stop_word("repo") && !is_stop_word("") && !is_stop_word("thee"));
    }

    fn split(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        words(text, true, &mut out);
        out
    }

    #[test]
    fn identifiers_split_into_words() {
        assert_eq!(split("listRepoIssues"), ["list", "repo", "issues"]);
        assert_eq!(
            split("HTTPServer v2beta"),
            ["http", "server", "v", "2", "beta"]
        );
        assert_eq!(
            split("/repos/{owner}/pulls/{pull_number}"),
            ["repos", "owner", "pulls", "pull", "number"]
        );
        assert_eq!(
            split("issues/create-comment"),
            ["issues", "create", "comment"]
        );
        assert_eq!(
            split("open PRs, URLs and IDs"),
            ["open", "pr", "url", "and", "id"]
        );
        assert_eq!(split("HTTPSession"), ["http", "session"]);
        let mut plain = Vec::new();
        words("listRepoIssues", false, &mut plain);
        assert_eq!(plain, ["listrepoissues"]);
    }

    #[test]
    fn inflections_share_a_stem() {
        for group in [
            &["create", "creates", "created", "creating", "creation"][..],
            &["repository", "repositories"],
            &["delete", "deletes", "deleted", "deleting", "deletion"],
            &["issue", "issues"],
            &["branch", "branches"],
            &["run", "runs", "running"],
            &["subscription", "subscriptions"],
            &["assign", "assignee", "assignees"],
            &["invite", "invitee", "invitees"],
        ] {
            let stems: Vec<String> = group.iter().map(|w| stem(w)).collect();
            assert!(
                stems.iter().all(|s| *s == stems[0]),
                "{group:?} → {stems:?}"
            );
        }
        assert_eq!(stem("status"), "status");
        assert_eq!(stem("access"), "access");
        assert_eq!(stem("v2"), "v2");
    }
}
