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
                toolwright::query::cut::words(&summary(tool), room)
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
