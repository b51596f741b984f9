//! Descriptions for models: the API's prose without HTML, boilerplate or links a
//! model cannot follow, within a length budget.

use std::sync::LazyLock;

use regex_lite::Regex;

/// HTML tags as API documents use them (named, so `<owner>` placeholders survive).
static TAG: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)</?(a|b|i|u|s|em|strong|p|br|code|pre|ul|ol|li|div|span|table|tr|td|th|thead|tbody|h[1-6]|img|sup|sub|details|summary|blockquote|hr|kbd|small|del|ins|tt|dl|dt|dd|font|center)(\s[^<>]*)?/?>",
    )
    .expect("a valid pattern")
});
static COMMENT: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?s)<!--.*?-->").expect("a valid pattern"));
static LINK: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\[([^\[\]]*)\]\(([^()\s]*)\)").expect("a valid pattern"));
static ALERT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)^(>\s*)*\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]\s*(>\s*)?")
        .expect("a valid pattern")
});
static QUOTE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?m)^>\s?").expect("a valid pattern"));
/// "For more information, see [the docs](…)." — a pointer a model cannot follow.
static SEE_ALSO: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?im)(^|[.!?:] +)(For more (information|details)[^.\n]*|See )\[[^\]]*\]\([^)]*\)[^.\n]*\.")
        .expect("a valid pattern")
});
static BLANKS: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\n{3,}").expect("a valid pattern"));
static SPACES: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"[ \t]+").expect("a valid pattern"));

/// `https://host` of an `https://` URL: the base [`clean`] resolves relative links
/// against (an operation's `externalDocs`).
pub fn origin(url: &str) -> Option<String> {
    let host = url.strip_prefix("https://")?.split('/').next()?;
    Some(format!("https://{host}"))
}

/// `text` as a model should read it. Relative links resolve against `base` (an origin
/// such as `https://docs.github.com`) or lose their target.
pub fn clean(text: &str, base: Option<&str>) -> String {
    use std::borrow::Cow;
    // Each pattern runs only where its trigger occurs: most descriptions are plain
    // prose, and matching every property's description was most of an export's time.
    let mut text = Cow::Borrowed(text);
    let mut apply = |trigger: &dyn Fn(&str) -> bool, f: &dyn Fn(&str) -> Option<String>| {
        if trigger(&text)
            && let Some(changed) = f(&text)
        {
            text = Cow::Owned(changed);
        }
    };
    let owned = |c: Cow<'_, str>| match c {
        Cow::Owned(s) => Some(s),
        Cow::Borrowed(_) => None,
    };
    apply(&|t| t.contains("<!--"), &|t| {
        owned(COMMENT.replace_all(t, ""))
    });
    apply(&|t| t.contains("[!"), &|t| {
        owned(ALERT.replace_all(t, |c: &regex_lite::Captures<'_>| {
            let kind = &c[2];
            format!("{}{}: ", &kind[..1], kind[1..].to_ascii_lowercase())
        }))
    });
    apply(&|t| t.contains("]("), &|t| {
        owned(SEE_ALSO.replace_all(t, "$1"))
    });
    apply(&|t| t.contains('<'), &|t| {
        owned(TAG.replace_all(t, |c: &regex_lite::Captures<'_>| {
            match c[1].to_ascii_lowercase().as_str() {
                "br" | "p" | "div" | "li" | "tr" | "hr" | "ul" | "ol" | "table" => "\n".to_owned(),
                "code" | "tt" | "kbd" => "`".to_owned(),
                _ => String::new(),
            }
        }))
    });
    apply(&|t| t.contains("]("), &|t| {
        owned(LINK.replace_all(t, |c: &regex_lite::Captures<'_>| {
            let (label, target) = (&c[1], &c[2]);
            if target.starts_with("https://") || target.starts_with("http://") {
                format!("[{label}]({target})")
            } else if let (Some(base), true) = (base, target.starts_with('/')) {
                format!("[{label}]({}{target})", base.trim_end_matches('/'))
            } else {
                label.to_owned()
            }
        }))
    });
    apply(&|t| t.contains('>'), &|t| owned(QUOTE.replace_all(t, "")));
    apply(&|t| t.contains('&'), &|t| {
        Some(
            t.replace("&nbsp;", " ")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&#39;", "'")
                .replace("&apos;", "'")
                .replace("&amp;", "&"),
        )
    });
    apply(&|t| t.contains("  ") || t.contains('\t'), &|t| {
        owned(SPACES.replace_all(t, " "))
    });
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let text = lines.join("\n");
    if text.contains("\n\n\n") {
        BLANKS.replace_all(&text, "\n\n").trim().to_owned()
    } else {
        text.trim().to_owned()
    }
}

/// `text` within `budget` characters: cut after the last whole sentence that fits
/// (or the last whole word), marked with ` …`.
pub fn fit(text: &str, budget: usize) -> String {
    if text.chars().count() <= budget {
        return text.to_owned();
    }
    let limit = text
        .char_indices()
        .nth(budget.saturating_sub(2))
        .map_or(text.len(), |(i, _)| i);
    let head = &text[..limit];
    let sentence = head
        .rmatch_indices(['.', '!', '?'])
        .map(|(i, _)| i + 1)
        .find(|&i| text[i..].starts_with([' ', '\n']) && i >= limit / 2);
    let cut = sentence.unwrap_or_else(|| head.rfind([' ', '\n']).unwrap_or(limit));
    format!("{} …", head[..cut].trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_alerts_and_dead_links_go() {
        let text = "Creates a file.<br/>\n\n> [!NOTE]\n> Use <code>main</code> &amp; see [Delete](/rest/delete).\n\nFor more information, see [the docs](https://x.example/docs).\n<!-- internal -->Done.";
        assert_eq!(
            clean(text, None),
            "Creates a file.\n\nNote: Use `main` & see Delete.\n\nDone."
        );
        assert!(clean("[x](/a)", Some("https://docs.example")).contains("https://docs.example/a"));
        assert_eq!(clean("Use <owner>/<repo>.", None), "Use <owner>/<repo>.");
    }

    #[test]
    fn fitting_keeps_whole_sentences() {
        let text = "First sentence here. Second sentence is longer than the budget allows.";
        assert_eq!(fit(text, 40), "First sentence here. …");
        assert_eq!(fit("one two three four", 10), "one two …");
        assert_eq!(fit("short", 10), "short");
    }
}
