//! Which resource an identifier's prefix abbreviates. APIs that prefix their ids
//! (`pi_3Mt…`, `in_1Mt…`, `cs_test_…`) shorten the resource's name: its initials
//! (`pi` → payment intent), its first letters (`cus` → customer), or some of its letters
//! in order (`in` → invoice, `evt` → event, `acct` → account). The candidates are the
//! API's own item collections — a path segment followed by a parameter, with the
//! namespace segments before it (`/v1/issuing/cards/{card}` → issuing card) — which the
//! index records as markers ([`markers`]) that no query word can match.

use super::{Index, Language};

/// What marks an item collection's words in the index.
pub(super) const MARKER: char = '\u{2}';

/// The index terms marking the item collections of `path`: for each segment followed by
/// a parameter, its words and those of the literal segments just before it (back to
/// the previous parameter; version segments such as `v1` left out), analysed as the
/// index analyses text.
pub(super) fn markers(path: &str, analyze: impl Fn(&str) -> Vec<String>) -> Vec<String> {
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let mut out = Vec::new();
    let mut run: Vec<&str> = Vec::new();
    for (i, segment) in segments.iter().enumerate() {
        if segment.starts_with('{') {
            run.clear();
            continue;
        }
        if !is_version(segment) {
            run.push(segment);
        }
        if segments
            .get(i + 1)
            .is_some_and(|next| next.starts_with('{'))
        {
            let words: Vec<String> = run.iter().flat_map(|s| analyze(s)).collect();
            if !words.is_empty() {
                let marker = format!("{MARKER}{}", words.join(" "));
                if !out.contains(&marker) {
                    out.push(marker);
                }
            }
        }
    }
    out
}

fn is_version(segment: &str) -> bool {
    let digits = segment
        .strip_prefix(['v', 'V'])
        .unwrap_or(segment)
        .trim_end_matches(|c: char| c.is_ascii_alphabetic());
    !digits.is_empty()
        && digits
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b'.' || b == b'-')
}

/// How well `prefix` abbreviates a resource of these words; lower is better, `None`
/// when it does not at all. It must begin with the first word's first letter; then it
/// is the word itself (`price_9`, 0), the words' initials (0), the beginning of the
/// first word (1), some of the first word's letters in order (2) or some of the words'
/// letters in order (3): `po` is a payout before it is a payment method.
pub(super) fn fit(language: &Language, prefix: &str, words: &[&str]) -> Option<u8> {
    let first = words.first()?;
    if prefix.len() < 2 || prefix.chars().next() != first.chars().next() {
        return None;
    }
    if words.len() == 1 && language.stem(prefix) == *first {
        return Some(0);
    }
    if words.len() > 1
        && words
            .iter()
            .filter_map(|w| w.chars().next())
            .eq(prefix.chars())
    {
        return Some(0);
    }
    if first.len() > prefix.len() && first.starts_with(prefix) {
        return Some(1);
    }
    if in_order(prefix, first.chars()) {
        return Some(2);
    }
    in_order(prefix, words.iter().flat_map(|w| w.chars())).then_some(3)
}

/// Whether every letter of `prefix` occurs in `letters`, in order.
fn in_order(prefix: &str, mut letters: impl Iterator<Item = char>) -> bool {
    prefix.chars().all(|c| letters.any(|l| l == c))
}

/// The item collection `prefix` abbreviates best in this index, as its words: one the
/// request names in full (`named`, its analysed words: "transfer tr_9" is a transfer,
/// though `tr` is also a terminal reader's initials), then the best [`fit`],
/// then the one the most tools address, then the shorter.
pub(super) fn resource<'a>(
    index: &Index<'a>,
    prefix: &str,
    named: &[String],
) -> Option<Vec<&'a str>> {
    let mut marker = [0u8; 4];
    let marker = MARKER.encode_utf8(&mut marker).as_bytes();
    index
        .with_prefix(marker)
        .filter_map(|(term, tools)| {
            let text = std::str::from_utf8(&term[marker.len()..]).ok()?;
            let words: Vec<&'a str> = text.split(' ').collect();
            let tier = fit(index.language(), prefix, &words)?;
            let unnamed = !words.iter().all(|w| named.iter().any(|n| n == w));
            Some(((unnamed, tier, std::cmp::Reverse(tools), text.len()), words))
        })
        .min_by(|a, b| a.0.cmp(&b.0))
        .map(|(_, words)| words)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split('_').map(str::to_owned).collect()
    }

    #[test]
    fn item_collections_with_their_namespaces() {
        assert_eq!(
            markers("/v1/issuing/cards/{card}", words),
            ["\u{2}issuing cards"]
        );
        assert_eq!(
            markers("/v1/customers/{customer}/tax_ids/{id}", words),
            ["\u{2}customers", "\u{2}tax ids"]
        );
        assert_eq!(
            markers(
                "/repos/{owner}/{repo}/issues/{issue_number}/comments",
                words
            ),
            ["\u{2}repos", "\u{2}issues"]
        );
        assert!(markers("/v1/balance", words).is_empty());
        assert_eq!(
            markers("/2010-04-01/Accounts/{AccountSid}", words),
            ["\u{2}Accounts"]
        );
    }

    #[test]
    fn prefixes_read_as_abbreviations() {
        assert_eq!(
            fit(&crate::search::ENGLISH, "pi", &["payment", "intent"]),
            Some(0)
        );
        assert_eq!(
            fit(&crate::search::ENGLISH, "cs", &["checkout", "session"]),
            Some(0)
        );
        assert_eq!(fit(&crate::search::ENGLISH, "cus", &["custom"]), Some(1));
        assert_eq!(fit(&crate::search::ENGLISH, "in", &["invoic"]), Some(1));
        assert_eq!(fit(&crate::search::ENGLISH, "pi", &["price"]), Some(2));
        assert_eq!(fit(&crate::search::ENGLISH, "evt", &["event"]), Some(2));
        assert_eq!(fit(&crate::search::ENGLISH, "acct", &["account"]), Some(2));
        assert_eq!(
            fit(&crate::search::ENGLISH, "iauth", &["issu", "author"]),
            Some(3)
        );
        assert_eq!(fit(&crate::search::ENGLISH, "po", &["payout"]), Some(2));
        assert_eq!(
            fit(&crate::search::ENGLISH, "po", &["payment", "method"]),
            Some(3)
        );
        assert_eq!(fit(&crate::search::ENGLISH, "price", &["pric"]), Some(0));
        assert_eq!(fit(&crate::search::ENGLISH, "file", &["fil"]), Some(0));
        // Another first letter, letters out of order, or a single letter: no.
        assert_eq!(
            fit(&crate::search::ENGLISH, "in", &["payment", "intent"]),
            None
        );
        assert_eq!(fit(&crate::search::ENGLISH, "txn", &["transact"]), None);
        assert_eq!(fit(&crate::search::ENGLISH, "c", &["custom"]), None);
    }
}
