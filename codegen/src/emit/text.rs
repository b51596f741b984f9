//! Text rules shared by every emitter (and, later, the derive macro).

/// Descriptions: paragraphs kept, source line-wraps folded into spaces, trimmed.
pub fn fold(text: &str) -> String {
    text.split("\n\n")
        .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// `create_issue` → `Create issue`.
pub fn title(name: &str) -> String {
    let words = heck::ToSnakeCase::to_snake_case(name).replace('_', " ");
    let mut chars = words.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// A naive English singular, good enough for composed descriptions.
pub fn singular(word: &str) -> String {
    if let Some(stem) = word.strip_suffix("ies") {
        format!("{stem}y")
    } else if word.ends_with("sses")
        || word.ends_with("ches")
        || word.ends_with("shes")
        || word.ends_with("xes")
    {
        word[..word.len() - 2].to_owned()
    } else if word.ends_with('s') && !["ss", "us", "is"].iter().any(|e| word.ends_with(e)) {
        word[..word.len() - 1].to_owned()
    } else {
        word.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_wraps_keeps_paragraphs() {
        assert_eq!(fold("  a\n b\n\n c  \n"), "a b\n\nc");
    }

    #[test]
    fn titles_and_singulars() {
        assert_eq!(title("create_issue"), "Create issue");
        assert_eq!(title("listIssues"), "List issues");
        assert_eq!(singular("issues"), "issue");
        assert_eq!(singular("categories"), "category");
        assert_eq!(singular("boxes"), "box");
        assert_eq!(singular("status"), "status");
    }
}
