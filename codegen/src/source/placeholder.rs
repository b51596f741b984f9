//! Text that says nothing: a description or summary a spec's generator or author left
//! as a placeholder (`XXXXXXXXX`, `TODO`, `string`, `description`, `.`, or the name
//! of the thing it describes). Such text is treated as missing, so the catalog
//! composes a description as for any undescribed item instead of showing a model
//! the placeholder.

/// Words that, alone, describe nothing (compared lowercased, trailing punctuation
/// trimmed).
const EMPTY_WORDS: &[&str] = &[
    "todo",
    "tbd",
    "tba",
    "fixme",
    "placeholder",
    "description",
    "desc",
    "summary",
    "string",
    "integer",
    "number",
    "boolean",
    "object",
    "array",
    "null",
    "none",
    "n/a",
    "na",
    "undefined",
    "lorem ipsum",
    "test",
];

/// Whether `text` is a placeholder; `name` is what it describes (a parameter or
/// property name), whose bare copy says nothing either.
pub fn is_placeholder(text: &str, name: Option<&str>) -> bool {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return false; // absent already, not a placeholder to report
    }
    let words = trimmed
        .trim_end_matches(['.', ':', '!', '?'])
        .trim()
        .to_ascii_lowercase();
    // A lone punctuation mark (`.`, `-`, `...`).
    if !trimmed.chars().any(char::is_alphanumeric) {
        return true;
    }
    // `XXXX`, `xxxxxxxxx`: a run of one letter.
    if words.len() >= 2 && words.chars().all(|c| c == 'x') {
        return true;
    }
    if EMPTY_WORDS.contains(&words.as_str()) {
        return true;
    }
    name.is_some_and(|name| folded(name) == folded(&words))
}

/// `petId`, `pet_id`, `Pet ID` → `petid`.
fn folded(s: &str) -> String {
    s.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::is_placeholder;

    #[test]
    fn placeholders_are_recognised() {
        for text in [
            "XXXXXXXXX",
            "xxxx",
            "TODO",
            "todo.",
            "string",
            "Description",
            ".",
            "-",
            "...",
        ] {
            assert!(is_placeholder(text, None), "{text}");
        }
        assert!(is_placeholder("pet_id", Some("petId")));
        assert!(is_placeholder("Pet ID", Some("pet_id")));
    }

    #[test]
    fn real_text_is_kept() {
        for text in [
            "The pet's id.",
            "X coordinate",
            "x",
            "A string to search for",
            "Test mode: no charge is made.",
            "",
        ] {
            assert!(!is_placeholder(text, None), "{text}");
        }
        assert!(!is_placeholder("The pet id", Some("petId")));
    }
}
