//! Words out of text: the same out of a tool's texts at build time and out of a query
//! at run time (identifier splitting; what a language does with the words is its
//! [`super::Language`]).

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_words_are_whole_words() {
        let stop = |w| crate::search::ENGLISH.is_stop_word(w);
        assert!(stop("the") && stop("whose") && stop("s"));
        assert!(!stop("repo") && !stop("") && !stop("thee"));
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
}
