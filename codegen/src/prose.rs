//! Description text as sources give it, put in order once for every stage (a leaf:
//! reading folds a spec's `info.description`, emitting every tool's).

/// Descriptions: paragraphs kept, source line-wraps folded into spaces, trimmed.
/// Fenced code blocks keep their lines (folding them would turn a fence into text that
/// no longer reads as code, or into a fence with the code as its info string).
pub fn fold(text: &str) -> String {
    let mut blocks: Vec<String> = Vec::new();
    let mut paragraph: Vec<&str> = Vec::new();
    let mut fence: Option<(char, usize, Vec<&str>)> = None;
    let flush = |paragraph: &mut Vec<&str>, blocks: &mut Vec<String>| {
        if !paragraph.is_empty() {
            blocks.push(paragraph.join(" "));
            paragraph.clear();
        }
    };
    for line in text.lines() {
        if let Some((c, len, lines)) = &mut fence {
            let trimmed = line.trim();
            let run = trimmed.len() - trimmed.trim_start_matches(*c).len();
            lines.push(line.trim_end());
            if run >= *len && trimmed[run..].trim().is_empty() {
                blocks.push(lines.join("\n"));
                fence = None;
            }
            continue;
        }
        let trimmed = line.trim_start();
        if let Some((c, len, _)) = fence_marker(trimmed) {
            flush(&mut paragraph, &mut blocks);
            fence = Some((c, len, vec![trimmed.trim_end()]));
        } else if trimmed.is_empty() {
            flush(&mut paragraph, &mut blocks);
        } else {
            paragraph.extend(trimmed.split_whitespace());
        }
    }
    flush(&mut paragraph, &mut blocks);
    if let Some((_, _, lines)) = fence {
        blocks.push(lines.join("\n"));
    }
    blocks.join("\n\n")
}

/// `(fence char, run length, info string)` when `line` starts with a fence.
pub(crate) fn fence_marker(line: &str) -> Option<(char, usize, &str)> {
    let c = line.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let len = line.len() - line.trim_start_matches(c).len();
    let info = &line[len..];
    // A backtick fence's info string cannot hold a backtick (that is inline code).
    (len >= 3 && !(c == '`' && info.contains('`'))).then_some((c, len, info))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_wraps_keeps_paragraphs() {
        assert_eq!(fold("  a\n b\n\n c  \n"), "a b\n\nc");
        assert_eq!(
            fold("a\nb\n```\n  x\n\n  y\n```\nc"),
            "a b\n\n```\n  x\n\n  y\n```\n\nc"
        );
    }
}
