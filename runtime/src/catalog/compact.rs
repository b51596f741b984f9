//! Search results a model can choose from cheaply: one line per tool, `name: summary`,
//! at most [`LINE_TOKENS`] tokens each, so the top [`LIMIT`] cost about what two full
//! schemas do; the one chosen is then fetched whole with `describe_tool`.
//!
//! Tokens are estimated, not counted with a model's tokenizer (each model has its own):
//! one per four characters, or one per word and per punctuation mark when that is more.
//! The second bound matters for tool names, which tokenizers split at every `_`.

use super::Tool;

/// Tokens one compact line may take, as [`estimate_tokens`] counts them.
pub const LINE_TOKENS: usize = 25;

/// Lines a compact search returns unless asked for another number.
pub const LIMIT: usize = 20;

/// The estimate of how many tokens `text` takes: the larger of its characters / 4
/// (rounded up) and its words plus punctuation marks (whitespace is free).
#[must_use]
pub fn estimate_tokens(text: &str) -> usize {
    let by_chars = text.chars().count().div_ceil(4);
    let (mut pieces, mut in_word) = (0, false);
    for c in text.chars() {
        if c.is_alphanumeric() {
            pieces += usize::from(!in_word);
            in_word = true;
        } else {
            pieces += usize::from(!c.is_whitespace());
            in_word = false;
        }
    }
    by_chars.max(pieces)
}

/// `tool`'s compact line under `name` (the name its caller knows it by): the name,
/// then the first line of its description (its title when it has none) cut after a
/// word so the line stays within [`LINE_TOKENS`]. The name is never cut — the model
/// has to repeat it — so a name over the budget alone is the whole line.
#[must_use]
pub fn line(name: &str, tool: &Tool) -> String {
    let summary = summary(tool);
    if summary.is_empty() {
        return name.to_owned();
    }
    // The room in characters the estimate allows, narrowed until the words fit too.
    let mut room = (LINE_TOKENS * 4).saturating_sub(name.chars().count() + 2);
    // Below this a summary says nothing worth its tokens.
    const SHORTEST: usize = 8;
    while room >= SHORTEST {
        let line = format!("{name}: {}", toolwright_query::cut::words(&summary, room));
        if estimate_tokens(&line) <= LINE_TOKENS {
            return line;
        }
        room -= 4;
    }
    name.to_owned()
}

/// The first line of the description (the title when it is empty), without control
/// characters.
fn summary(tool: &Tool) -> String {
    let first = tool
        .description
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty());
    first
        .unwrap_or(&tool.title)
        .chars()
        .filter(|c| !c.is_control())
        .collect::<String>()
        .trim()
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool(description: &str) -> Tool {
        let mut tool = Tool::meta(
            "t",
            "A title",
            description,
            serde_json::json!({"type": "object"}),
            crate::catalog::meta::RUNS_ANY_TOOL,
        );
        tool.title = "Create an issue".into();
        tool
    }

    #[test]
    fn estimates_take_the_larger_of_characters_and_pieces() {
        assert_eq!(estimate_tokens(""), 0);
        // 13 characters (4) against 2 words and 1 mark (3).
        assert_eq!(estimate_tokens("Lists issues."), 4);
        // An identifier: 4 words and 3 underscores beat 26 / 4.
        assert_eq!(estimate_tokens("repos_create_issue_comment"), 7);
        // Prose: characters win.
        assert_eq!(estimate_tokens("abcdefghijklmnop"), 4);
    }

    #[test]
    fn lines_fit_the_budget_and_keep_the_name_whole() {
        let short = line("issues_create", &tool("Create an issue.\n\nLong text."));
        assert_eq!(short, "issues_create: Create an issue.");
        let long = "Lists the check runs of a commit reference, filtered by name, status and \
                    app, newest first, with their annotations counted and each output summary";
        let name = "checks_list_for_ref";
        let cut = line(name, &tool(long));
        assert!(
            cut.starts_with("checks_list_for_ref: Lists the check runs"),
            "{cut}"
        );
        assert!(cut.ends_with('…'), "{cut}");
        assert!(estimate_tokens(&cut) <= LINE_TOKENS, "{cut}");
        // Many short words: the word count, not the length, narrows it.
        let choppy = "a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r, s, t, u, v";
        let cut = line(name, &tool(choppy));
        assert!(estimate_tokens(&cut) <= LINE_TOKENS, "{cut}");
        // No description: the title; a name past the budget: the name alone.
        assert_eq!(line("x", &tool("")), "x: Create an issue");
        let huge = "a_".repeat(20);
        assert_eq!(line(&huge, &tool(long)), huge);
    }
}
