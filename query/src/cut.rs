//! Text shortened for a reader: an error quoting an upstream body, a report's excerpt,
//! a summary in a one-line list. One place decides where a cut may fall (never inside
//! a character, and for prose after a word), so every shortened text reads alike; each
//! caller says how it marks what was left out.

use std::borrow::Cow;

/// `text` split after its first `max` characters: what is kept and what is left out
/// (empty when nothing is). Never splits a character.
#[must_use]
pub fn chars(text: &str, max: usize) -> (&str, &str) {
    match text.char_indices().nth(max) {
        Some((at, _)) => text.split_at(at),
        None => (text, ""),
    }
}

/// `text` in at most `max` characters (`…` included), cut after a word and marked with
/// `…` when longer. A cut that would keep less than half of `max` (one long word) falls
/// inside the word instead; punctuation left dangling before the `…` is dropped.
#[must_use]
pub fn words(text: &str, max: usize) -> Cow<'_, str> {
    if chars(text, max).1.is_empty() {
        return Cow::Borrowed(text);
    }
    let (head, _) = chars(text, max.saturating_sub(1));
    let kept = match head.rfind(' ') {
        Some(space) if head[..space].chars().count() > max / 2 => &head[..space],
        _ => head,
    };
    Cow::Owned(format!(
        "{}…",
        kept.trim_end_matches([' ', ',', ';', ':', '.'])
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chars_keeps_characters_whole() {
        assert_eq!(chars("héllo", 2), ("hé", "llo"));
        assert_eq!(chars("hé", 2), ("hé", ""));
        assert_eq!(chars("", 3), ("", ""));
        assert_eq!(chars("日本語", 1), ("日", "本語"));
        assert_eq!(chars("abc", 0), ("", "abc"));
    }

    #[test]
    fn words_cut_after_a_word_within_the_room() {
        assert_eq!(words("Lists issues.", 20), "Lists issues.");
        assert_eq!(
            words("Opens a new issue in a project, returns it", 24),
            "Opens a new issue in a…"
        );
        // Dangling punctuation goes before the mark.
        assert_eq!(words("Create, update, or delete", 9), "Create…");
        // One long word: cut inside it, still within the room.
        let long = "x".repeat(50);
        assert_eq!(words(&long, 10).chars().count(), 10);
        // Exactly the room: untouched.
        assert_eq!(words("abcde", 5), "abcde");
    }

    #[test]
    fn words_count_characters_not_bytes() {
        // Each `é` is two bytes: a byte count would put the half-way mark elsewhere.
        let text = "éééé ééé ééééé éé";
        let cut = words(text, 12);
        assert!(cut.chars().count() <= 12, "{cut}");
        assert_eq!(cut, "éééé ééé…");
        for max in 1..text.chars().count() + 2 {
            assert!(words(text, max).chars().count() <= max.max(1));
        }
    }
}
