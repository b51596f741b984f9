//! `toolwright search`: the tools that best match a request in words.

use std::process::ExitCode;

use super::analyze_to_catalog;
use crate::args::Inputs;
use crate::output::print_all;

pub(crate) fn run(
    inputs: &Inputs,
    query: &str,
    k: Option<usize>,
    (json, compact, typescript): (bool, bool, bool),
    styled: bool,
) -> ExitCode {
    let Some((_, catalog)) = analyze_to_catalog(inputs, styled) else {
        return ExitCode::FAILURE;
    };
    let k = k.unwrap_or(if compact {
        toolwright::catalog::compact::LIMIT
    } else {
        5
    });
    let hits = catalog.search(query, k);
    let summary = |t: &toolwright::Tool| -> String {
        let line = t.description.lines().next().unwrap_or_default();
        line.chars().filter(|c| !c.is_control()).collect()
    };
    if typescript {
        if !hits.is_empty()
            && print_all(&catalog.typescript_brief(hits.iter().map(|h| h.tool)))
                != ExitCode::SUCCESS
        {
            return ExitCode::FAILURE;
        }
    } else if compact {
        let lines = hits
            .iter()
            .map(|h| toolwright::catalog::compact::line(&h.tool.name, h.tool));
        if json {
            let lines: Vec<String> = lines.collect();
            println!(
                "{}",
                serde_json::to_string_pretty(&lines).unwrap_or_default()
            );
        } else {
            lines.for_each(|line| println!("{line}"));
        }
    } else if json {
        let list: Vec<serde_json::Value> = hits
            .iter()
            .map(|h| {
                serde_json::json!({
                    "name": h.tool.name,
                    "score": (h.score * 1000.0).round() / 1000.0,
                    "summary": summary(h.tool),
                    "api": h.tool.operation.api,
                    "method": h.tool.operation.method.as_str(),
                    "path": h.tool.operation.path,
                })
            })
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&list).unwrap_or_default()
        );
    } else {
        for h in &hits {
            println!("{}\t{:.3}\t{}", h.tool.name, h.score, summary(h.tool));
        }
    }
    if hits.is_empty() {
        eprintln!("no tool matches `{query}`");
    }
    ExitCode::SUCCESS
}
