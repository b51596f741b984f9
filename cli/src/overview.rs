//! `catalog` on a terminal: each API's tools, one line each (name and the first line of
//! its description), instead of the full JSON (1.2 MB for an 88-operation API), which
//! stays what a pipe, a file or `--json` gets.

use toolwright::Tool;

/// Columns the overview fits in (help text is wrapped to the same width).
pub const WIDTH: usize = 100;

/// The overview of `tools`, grouped by API in catalog order.
pub fn render(tools: &[Tool]) -> String {
    let mut apis: Vec<(&str, Vec<&Tool>)> = Vec::new();
    for tool in tools {
        let api = &*tool.operation.api;
        match apis.iter_mut().find(|(name, _)| *name == api) {
            Some((_, list)) => list.push(tool),
            None => apis.push((api, vec![tool])),
        }
    }
    let mut text = String::new();
    for (api, list) in &apis {
        text.push_str(&format!("{api}: {}\n", count(list.len())));
        let width = list
            .iter()
            .map(|t| t.name.chars().count())
            .max()
            .unwrap_or(0);
        for tool in list {
            let room = WIDTH.saturating_sub(width + 4).max(20);
            text.push_str(&format!(
                "  {:<width$}  {}\n",
                &*tool.name,
                cut(&summary(tool), room)
            ));
        }
    }
    text.push_str(&format!(
        "\n{} in {} API(s). The full catalog (an MCP `tools/list`, JSON): `--json`, or pipe it;\n\
         exports: `--format mcp|openai|anthropic|gemini|typescript`.\n",
        count(tools.len()),
        apis.len()
    ));
    text
}

fn count(n: usize) -> String {
    if n == 1 {
        "1 tool".into()
    } else {
        format!("{n} tools")
    }
}

/// The description's first line, without control characters.
fn summary(tool: &Tool) -> String {
    let line = tool.description.lines().next().unwrap_or_default();
    line.chars().filter(|c| !c.is_control()).collect()
}

/// `text` in at most `room` characters, cut at a word with `…` when longer.
fn cut(text: &str, room: usize) -> String {
    if text.chars().count() <= room {
        return text.to_owned();
    }
    let head: String = text.chars().take(room.saturating_sub(1)).collect();
    let head = match head.rfind(' ') {
        Some(space) if space > room / 2 => &head[..space],
        _ => &head[..],
    };
    format!("{}…", head.trim_end_matches([' ', ',', ';', ':', '.']))
}

#[cfg(test)]
mod tests {
    use super::cut;

    #[test]
    fn long_summaries_are_cut_at_a_word() {
        assert_eq!(cut("Lists issues.", 20), "Lists issues.");
        assert_eq!(
            cut("Opens a new issue in a project, returns it", 24),
            "Opens a new issue in a…"
        );
        assert!(cut(&"x".repeat(50), 10).chars().count() <= 10);
    }
}
