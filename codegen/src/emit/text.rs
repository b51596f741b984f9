//! Text rules shared by every emitter (and, later, the derive macro).

use crate::prose::fence_marker;
pub use crate::prose::fold;

/// `create_issue` → `Create issue`.
pub fn title(name: &str) -> String {
    let words = heck::ToSnakeCase::to_snake_case(name).replace('_', " ");
    let mut chars = words.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// A title from an operation's summary ("Create a refund", not the name's "Post
/// refunds"): one line of plain words, markup and a final period dropped; `None` when
/// the summary is no title (empty, a paragraph, or longer than a title reads).
pub fn title_from_summary(summary: &str) -> Option<String> {
    const LONGEST: usize = 80;
    let mut title = String::with_capacity(summary.len());
    let mut in_tag = false;
    for c in summary.trim().chars() {
        match c {
            '<' if !in_tag => in_tag = true,
            '>' if in_tag => in_tag = false,
            '`' | '*' if !in_tag => {}
            _ if in_tag => {}
            c if c.is_whitespace() => {
                if !title.ends_with(' ') {
                    title.push(' ');
                }
            }
            c => title.push(c),
        }
    }
    let title = title.trim().trim_end_matches('.').trim();
    let words = title.split(' ').count();
    if title.is_empty()
        || in_tag
        || title.chars().count() > LONGEST
        || words > 12
        || summary.trim().contains('\n')
    {
        return None;
    }
    let mut chars = title.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
}

/// A title from the method and path, for an operation named after them
/// (`PostQuotesQuoteCancel` → "Cancel a quote", `GetCustomersCustomerTaxIds` → "List
/// tax ids of a customer"): REST's shape read as words. `None` when the path names no
/// resource.
pub fn title_from_path(method: &str, path: &str) -> Option<String> {
    let segments: Vec<&str> = path
        .split('/')
        .filter(|s| !s.is_empty() && !is_version(s))
        .collect();
    let words = |s: &str| s.replace(['_', '-', '.'], " ");
    let last = *segments.last()?;
    let item = last.starts_with('{');
    // The resource the path ends at, and what the operation does to it.
    let (action, resource_at) = match (method, item) {
        (_, true) => (None, segments.len().checked_sub(2)?),
        ("POST", false)
            if segments.len() >= 2
                && segments[segments.len() - 2].starts_with('{')
                && !last.ends_with('s') =>
        {
            (Some(words(last)), segments.len().checked_sub(3)?)
        }
        _ => (None, segments.len() - 1),
    };
    let resource = segments.get(resource_at).filter(|s| !s.starts_with('{'))?;
    let plural = words(resource);
    let one = singular(&plural);
    let article = |w: &str| {
        if w.starts_with(['a', 'e', 'i', 'o', 'u']) {
            "an"
        } else {
            "a"
        }
    };
    let mut title = match (method, item, &action) {
        (_, _, Some(action)) => format!("{action} {} {one}", article(&one)),
        ("GET" | "HEAD", true, _) => format!("get {} {one}", article(&one)),
        ("GET" | "HEAD", false, _) => format!("list {plural}"),
        ("POST", false, _) => format!("create {} {one}", article(&one)),
        ("DELETE", _, _) => format!("delete {} {one}", article(&one)),
        _ => format!("update {} {one}", article(&one)),
    };
    // Whose: the item the resource hangs under (`/customers/{customer}/tax_ids`).
    if let Some(owner) = resource_at
        .checked_sub(2)
        .and_then(|i| segments.get(i..i + 2))
        .filter(|pair| !pair[0].starts_with('{') && pair[1].starts_with('{'))
    {
        let owner = singular(&words(owner[0]));
        title.push_str(&format!(" of {} {owner}", article(&owner)));
    }
    let mut chars = title.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
}

/// `List` → `Lists`, `Copy` → `Copies`, `Search` → `Searches`.
pub fn third_person(verb: &str) -> String {
    let consonant_y = verb.len() > 1
        && verb.ends_with('y')
        && !verb[..verb.len() - 1].ends_with(['a', 'e', 'i', 'o', 'u']);
    if consonant_y {
        format!("{}ies", &verb[..verb.len() - 1])
    } else if verb.ends_with(['s', 'x', 'z']) || verb.ends_with("sh") || verb.ends_with("ch") {
        format!("{verb}es")
    } else {
        format!("{verb}s")
    }
}

/// `v1`, `v2beta1`: a version segment, not a resource.
pub fn is_version(segment: &str) -> bool {
    segment
        .strip_prefix('v')
        .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
}

pub use crate::contract::words::singular;

/// Characters rustc refuses in comments and literals (`text_direction_codepoint_*`):
/// they reorder how text is displayed, so code can read differently than it compiles.
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Languages a fenced block may keep: rustdoc compiles a block as a doctest when its
/// info string is empty, says `rust`, or holds only rustdoc's own attributes, so any
/// other info string is replaced by `text`.
const KEPT_LANGUAGES: &[&str] = &[
    "text",
    "json",
    "yaml",
    "yml",
    "toml",
    "xml",
    "html",
    "http",
    "sh",
    "bash",
    "shell",
    "console",
    "javascript",
    "js",
    "typescript",
    "ts",
    "python",
    "graphql",
    "sql",
    "csv",
];

/// Description text from a spec or adapter made safe to become rustdoc in a user's
/// crate. Every text that reaches a doc comment goes through here:
///
/// - every code block (fenced with backticks or tildes, at any indentation or inside
///   a list or quote, or indented by four spaces) becomes a top-level fenced block
///   whose info string is `text` (or a kept non-Rust language), so rustdoc never
///   compiles or runs it as a doctest;
/// - raw HTML outside code is escaped (`<script>` stays visible as text), autolinks
///   kept; `javascript:`/`data:`/`vbscript:` link targets are disarmed;
/// - line endings become `\n` (rustc refuses a bare CR in doc comments), and
///   direction-changing and other control characters are dropped.
///
/// Returns the text and whether it holds a code block (the emitter then also keeps
/// the docs out of doctest collection altogether, as a second line of defence).
pub fn rustdoc(text: &str) -> (String, bool) {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let text: String = text
        .chars()
        .filter(|&c| !is_bidi_control(c) && (!c.is_control() || c == '\n' || c == '\t'))
        .collect();
    let mut out: Vec<String> = Vec::new();
    let mut fence: Option<(char, usize)> = None;
    let mut indented = false;
    let mut has_code = false;
    let mut previous_is_paragraph = false;
    // The column a list item's text starts at, while in a list: a following line
    // indented less is not the item's (rustdoc would fold it in lazily; clippy's
    // `doc_lazy_continuation` says so), so a blank line ends the list before it.
    let mut list_item: Option<usize> = None;
    let mut empty_item: Option<String> = None;
    for line in text.lines() {
        let stripped = strip_containers(line);
        let fence_run = fence_marker(stripped);
        if let Some((c, len)) = fence {
            let closes = fence_run
                .is_some_and(|(fc, flen, rest)| fc == c && flen >= len && rest.trim().is_empty());
            if closes {
                out.push(c.to_string().repeat(len));
                fence = None;
            } else {
                out.push(line.to_owned());
            }
            continue;
        }
        let indent = indentation(line);
        if indented {
            if line.trim().is_empty() || indent >= 4 {
                out.push(dedent(line, 4));
                continue;
            }
            close_indented(&mut out);
            indented = false;
        }
        if let Some((c, len, info)) = fence_run {
            let language = info.split([',', ' ', '\t']).next().unwrap_or("").trim();
            let language = if KEPT_LANGUAGES.contains(&language.to_ascii_lowercase().as_str()) {
                language
            } else {
                "text"
            };
            out.push(format!("{}{language}", c.to_string().repeat(len)));
            fence = Some((c, len));
            has_code = true;
            previous_is_paragraph = false;
            continue;
        }
        // A marker alone on its line (`-`) with the item's text on the next: one line.
        if let Some(marker) = empty_item.take() {
            let text = line.trim();
            if !text.is_empty() && list_item_text(line).is_none() && !is_marker(text) {
                let joined = format!("{marker} {text}");
                list_item = list_item_text(&joined);
                previous_is_paragraph = true;
                out.push(escape_html(&disarm_links(&joined)));
                continue;
            }
            out.push(marker);
        }
        if is_marker(line.trim()) && !is_thematic_break(line.trim()) {
            empty_item = Some(line.trim_end().to_owned());
            continue;
        }
        // Inside a list item, text up to 3 columns past the item's is the item's.
        let item_text = list_item.is_some_and(|column| indent >= column && indent < column + 4);
        if indent >= 4 && !previous_is_paragraph && !line.trim().is_empty() && !item_text {
            out.push("```text".to_owned());
            out.push(dedent(line, 4));
            indented = true;
            has_code = true;
            continue;
        }
        let trimmed = line.trim();
        let mut line = std::borrow::Cow::Borrowed(line);
        match list_item_text(&line) {
            Some(column) => list_item = Some(column),
            None if trimmed.is_empty() => list_item = None,
            None => match list_item {
                // Indented less than the item's text: a paragraph of its own.
                Some(column) if indent < column => {
                    out.push(String::new());
                    list_item = None;
                }
                // Indented more (but no code block): the item's text, at its column.
                Some(column) if indent > column && indent < column + 4 => {
                    line = format!("{}{trimmed}", " ".repeat(column)).into();
                }
                _ => {}
            },
        }
        previous_is_paragraph =
            !trimmed.is_empty() && !trimmed.starts_with('#') && !is_thematic_break(trimmed);
        let column = list_item.map_or_else(|| indentation(&line), |c| c.max(indentation(&line)));
        out.push(line_breaks(
            &escape_html(&disarm_links(&line)),
            trimmed.starts_with('|'),
            column,
        ));
    }
    out.extend(empty_item);
    if indented {
        close_indented(&mut out);
    }
    if let Some((c, len)) = fence {
        out.push(c.to_string().repeat(len));
    }
    (out.join("\n"), has_code)
}

/// A list marker with nothing after it (`-`, `*`, `+`, `1.`).
fn is_marker(trimmed: &str) -> bool {
    matches!(trimmed, "-" | "*" | "+")
        || (trimmed.len() >= 2
            && trimmed.len() <= 10
            && trimmed.ends_with(['.', ')'])
            && trimmed[..trimmed.len() - 1]
                .chars()
                .all(|c| c.is_ascii_digit()))
}

/// Where a list item's text starts (`- x`, `* x`, `+ x`, `1. x`, `1) x`), in
/// columns; `None` when the line is no list item.
fn list_item_text(line: &str) -> Option<usize> {
    let indent = indentation(line);
    let rest = line.trim_start_matches([' ', '\t']);
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let marker = match rest.as_bytes().first()? {
        b'-' | b'*' | b'+' => 1,
        _ if (1..=9).contains(&digits) && rest[digits..].starts_with(['.', ')']) => digits + 1,
        _ => return None,
    };
    let after = &rest[marker..];
    let spaces = after.len() - after.trim_start_matches(' ').len();
    (1..=4)
        .contains(&spaces)
        .then_some(indent + marker + spaces)
        .filter(|_| !after.trim().is_empty())
}

/// Ends an indented block turned fenced, before the blank lines that ended it.
fn close_indented(out: &mut Vec<String>) {
    let blanks = out.iter().rev().take_while(|l| l.trim().is_empty()).count();
    let at = out.len() - blanks;
    out.insert(at, "```".to_owned());
}

/// The line without leading whitespace, block quote markers and list markers.
fn strip_containers(line: &str) -> &str {
    let mut rest = line;
    loop {
        let trimmed = rest.trim_start_matches([' ', '\t', '>']);
        let after_marker = trimmed
            .strip_prefix(['-', '*', '+'])
            .or_else(|| {
                let digits = trimmed.len()
                    - trimmed
                        .trim_start_matches(|c: char| c.is_ascii_digit())
                        .len();
                (1..=9)
                    .contains(&digits)
                    .then(|| trimmed[digits..].strip_prefix(['.', ')']))
                    .flatten()
            })
            .filter(|r| r.starts_with([' ', '\t']));
        match after_marker {
            Some(r) => rest = r,
            None => return trimmed,
        }
    }
}

fn indentation(line: &str) -> usize {
    let mut width = 0;
    for c in line.chars() {
        match c {
            ' ' => width += 1,
            '\t' => width += 4 - width % 4,
            _ => break,
        }
    }
    width
}

/// `line` with up to `width` columns of leading whitespace removed.
fn dedent(line: &str, width: usize) -> String {
    let mut removed = 0;
    let mut chars = line.char_indices();
    for (i, c) in chars.by_ref() {
        if removed >= width || !matches!(c, ' ' | '\t') {
            return line[i..].to_owned();
        }
        removed += if c == '\t' { 4 - removed % 4 } else { 1 };
    }
    String::new()
}

fn is_thematic_break(trimmed: &str) -> bool {
    ['-', '*', '_'].iter().any(|&c| {
        trimmed.chars().filter(|x| *x == c).count() >= 3
            && trimmed.chars().all(|x| x == c || x == ' ')
    })
}

/// `<` outside inline code becomes `&lt;`, so no raw HTML reaches rustdoc's output;
/// autolinks (`<https://...>`) stay links.
fn escape_html(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find(['`', '<']) {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        if rest.starts_with('`') {
            let run = rest.len() - rest.trim_start_matches('`').len();
            let ticks = &rest[..run];
            // A code span needs a closing run of exactly the same length.
            let closing = rest[run..]
                .match_indices(ticks)
                .find(|(i, _)| {
                    let after = &rest[run + i + run..];
                    !after.starts_with('`') && !rest[..run + i].ends_with('`')
                })
                .map(|(i, _)| run + i + run);
            let end = closing.unwrap_or(run);
            out.push_str(&rest[..end]);
            rest = &rest[end..];
        } else if let Some(len) = line_break_tag(rest) {
            out.push(LINE_BREAK);
            rest = &rest[len..];
        } else {
            let autolink = rest[1..]
                .find(['>', ' ', '<'])
                .filter(|&i| rest.as_bytes()[1 + i] == b'>')
                .filter(|_| {
                    let lower = rest[1..].to_ascii_lowercase();
                    ["http://", "https://", "mailto:"]
                        .iter()
                        .any(|p| lower.starts_with(p))
                });
            match autolink {
                Some(i) => {
                    out.push_str(&rest[..i + 2]);
                    rest = &rest[i + 2..];
                }
                None => {
                    out.push_str("&lt;");
                    rest = &rest[1..];
                }
            }
        }
    }
    out.push_str(rest);
    out
}

/// Where [`escape_html`] found a `<br>`: a control character, which the text can no
/// longer hold (they are filtered out first).
const LINE_BREAK: char = '\0';

/// The length of the `<br>`, `<br/>` or `<br />` (any case) `text` starts with.
fn line_break_tag(text: &str) -> Option<usize> {
    let head = text.get(..3)?;
    if !head.eq_ignore_ascii_case("<br") {
        return None;
    }
    let rest = &text[3..];
    let after = rest.trim_start_matches(' ');
    let after = after.strip_prefix('/').unwrap_or(after);
    after.starts_with('>').then(|| text.len() - after.len() + 1)
}

/// The HTML line breaks API descriptions use (`first<br/>second`) as Markdown hard
/// breaks (a `\\` ending the line), each next line indented to stay in the list item
/// it is in (`column` for the first); a piece that starts a list item starts it
/// (after a plain line end: a `\\` before it would print). In a table row, where a
/// row is one line, a space.
fn line_breaks(line: &str, table_row: bool, column: usize) -> String {
    if !line.contains(LINE_BREAK) {
        return line.to_owned();
    }
    if table_row {
        return line.replace(LINE_BREAK, " ");
    }
    let mut out = String::with_capacity(line.len() + 16);
    let mut indent = column;
    let pieces = line
        .split(LINE_BREAK)
        .enumerate()
        .map(|(i, piece)| {
            if i == 0 {
                piece.trim_end()
            } else {
                piece.trim()
            }
        })
        .filter(|piece| !piece.is_empty());
    for (i, piece) in pieces.enumerate() {
        let item = list_item_text(piece);
        if i > 0 {
            if item.is_none() {
                out.push('\\');
            }
            out.push('\n');
            // A new item sits where the first line's text does (a sibling), its text
            // one marker further in.
            if item.is_some() {
                let first_marker = list_item_text(line).map_or(0, |c| c - indentation(line));
                indent = column.saturating_sub(first_marker);
            }
            out.push_str(&" ".repeat(indent));
        }
        if let Some(text) = item.filter(|_| i > 0) {
            indent += text;
        }
        out.push_str(piece);
    }
    out
}

/// Link targets that would run script in the rendered docs point nowhere instead.
fn disarm_links(line: &str) -> String {
    let lower = line.to_ascii_lowercase();
    let mut out = String::with_capacity(line.len());
    let mut last = 0;
    for (at, _) in lower.match_indices("](") {
        let target = lower[at + 2..].trim_start();
        if ["javascript:", "data:", "vbscript:"]
            .iter()
            .any(|s| target.starts_with(s))
        {
            out.push_str(&line[last..at + 2]);
            out.push_str("#disarmed-");
            last = at + 2;
        }
    }
    out.push_str(&line[last..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_after_a_list_is_its_own_paragraph() {
        let (doc, _) = rustdoc(
            "Values:\n- \"a\" - first.\n  still first.\n- \"b\" - second.\nImportant: not an item.",
        );
        assert_eq!(
            doc,
            "Values:\n- \"a\" - first.\n  still first.\n- \"b\" - second.\n\nImportant: not an item."
        );
        // Not a list: a dash without a space, a horizontal rule.
        assert_eq!(rustdoc("-x\ny").0, "-x\ny");
        // Continuation lines at the item's column; a marker alone joins its text.
        assert_eq!(rustdoc("* `a`: one\n   two").0, "* `a`: one\n  two");
        assert_eq!(
            rustdoc("Cases:\n\n   -\n     Case 1: x\n     more.\n   -\n     Case 2").0,
            "Cases:\n\n   - Case 1: x\n     more.\n   - Case 2"
        );
    }

    fn doc(text: &str) -> String {
        rustdoc(text).0
    }

    #[test]
    fn html_line_breaks_become_markdown_hard_breaks() {
        assert_eq!(
            doc("One.<br/>Two.<BR>Three.<br />"),
            "One.\\\nTwo.\\\nThree."
        );
        // In a list item the next line stays in the item; in a table row a space.
        assert_eq!(doc("- a<br>b\n- c"), "- a\\\n  b\n- c");
        // A piece that starts an item starts it, after a plain line end; what follows
        // it stays in it.
        assert_eq!(
            doc("Example:<br>- one<br>more<br>- two<br>last"),
            "Example:\n- one\\\n  more\n- two\\\n  last"
        );
        assert_eq!(doc("- a<br>- b<br>c"), "- a\n- b\\\n  c");
        assert_eq!(doc("| a<br>b | c |"), "| a b | c |");
        // In a code span it is code; other tags are still text.
        assert_eq!(doc("`x<br>y` <brb> <br"), "`x<br>y` &lt;brb> &lt;br");
    }

    #[test]
    fn code_blocks_become_inert_text() {
        // Every code block form rustdoc would compile: fenced (backticks, tildes,
        // tagged or not, in a list or quote), indented by four spaces.
        assert_eq!(
            doc("a\n```rust\nfn main() {}\n```\nb"),
            "a\n```text\nfn main() {}\n```\nb"
        );
        assert_eq!(doc("~~~\nx\n~~~~"), "~~~text\nx\n~~~");
        assert_eq!(doc("```rust,no_run\nx\n```"), "```text\nx\n```");
        assert_eq!(doc("```json\n{}\n```"), "```json\n{}\n```");
        assert_eq!(
            doc("- step\n  ```\n  x\n  ```"),
            "- step\n```text\n  x\n```"
        );
        assert_eq!(doc("> ```\n> x\n> ```"), "```text\n> x\n```");
        assert_eq!(
            doc("Para.\n\n    let x = 1;\n    run(x);\n\nAfter."),
            "Para.\n\n```text\nlet x = 1;\nrun(x);\n```\n\nAfter."
        );
        assert_eq!(doc("# Title\n    code"), "# Title\n```text\ncode\n```");
        // A continuation line of a paragraph is no code block.
        assert_eq!(doc("Para\n    continued"), "Para\n    continued");
        // An unclosed fence is closed.
        assert_eq!(doc("```\nx"), "```text\nx\n```");
        assert!(rustdoc("```\nx\n```").1);
        assert!(!rustdoc("plain `code`").1);
    }

    #[test]
    fn verbs_in_the_third_person() {
        assert_eq!(third_person("Copy"), "Copies");
        assert_eq!(third_person("Search"), "Searches");
        assert_eq!(third_person("Get"), "Gets");
        assert_eq!(third_person("Delay"), "Delays");
    }

    #[test]
    fn html_is_escaped_outside_code() {
        assert_eq!(
            doc("<script>alert(1)</script>"),
            "&lt;script>alert(1)&lt;/script>"
        );
        assert_eq!(
            doc("`Vec<T>` and <https://x.example>"),
            "`Vec<T>` and <https://x.example>"
        );
        assert_eq!(doc("`` a ` <b> ``"), "`` a ` <b> ``");
        assert_eq!(doc("`unclosed <b>"), "`unclosed &lt;b>");
        assert_eq!(doc("```\n<b>\n```"), "```text\n<b>\n```");
        assert_eq!(
            doc("[x](javascript:alert(1))"),
            "[x](#disarmed-javascript:alert(1))"
        );
    }

    #[test]
    fn text_rustc_rejects_is_removed() {
        assert_eq!(doc("a\u{202E}b\u{2066}c\u{2069}"), "abc");
        assert_eq!(doc("a\r\nb\rc"), "a\nb\nc");
        assert_eq!(doc("nul\u{0}"), "nul");
    }

    #[test]
    fn titles_come_from_the_rest_shape_of_the_path() {
        for (method, path, title) in [
            ("POST", "/v1/quotes/{quote}/cancel", "Cancel a quote"),
            ("POST", "/v1/quotes", "Create a quote"),
            ("POST", "/v1/customers/{customer}", "Update a customer"),
            ("GET", "/v1/customers", "List customers"),
            ("GET", "/v1/invoices/{invoice}", "Get an invoice"),
            ("DELETE", "/v1/customers/{customer}", "Delete a customer"),
            (
                "GET",
                "/v1/customers/{customer}/tax_ids",
                "List tax ids of a customer",
            ),
            (
                "POST",
                "/v1/charges/{charge}/refunds",
                "Create a refund of a charge",
            ),
        ] {
            assert_eq!(
                title_from_path(method, path).as_deref(),
                Some(title),
                "{method} {path}"
            );
        }
        assert_eq!(title_from_path("GET", "/{id}"), None);
    }

    #[test]
    fn titles_come_from_summaries_that_read_as_titles() {
        assert_eq!(
            title_from_summary("Create a refund").as_deref(),
            Some("Create a refund")
        );
        assert_eq!(
            title_from_summary("  list <b>repository</b> `issues`. ").as_deref(),
            Some("List repository issues")
        );
        assert_eq!(
            title_from_summary("Set cancel_at_period_end").as_deref(),
            Some("Set cancel_at_period_end")
        );
        for not_a_title in [
            "",
            "<p>",
            "Line one\nline two",
            "This summary goes on and on, the way a paragraph does when an API puts its whole description into the summary field",
        ] {
            assert_eq!(title_from_summary(not_a_title), None, "{not_a_title}");
        }
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
