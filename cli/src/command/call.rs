//! `toolwright call`: one tool called with JSON arguments.

use std::process::ExitCode;

use toolwright_cli::terminal::safe;

use super::{analyze, executor};
use crate::args::{Inputs, Upstream};

pub(crate) fn run(
    inputs: &Inputs,
    tool: &str,
    args: Option<&str>,
    pages: Option<usize>,
    upstream: &Upstream,
    styled: bool,
) -> ExitCode {
    // Repeated keys are refused: a check and the server could read different values.
    let json = match args.map(toolwright::validate::parse_arguments).transpose() {
        Ok(v) => v.unwrap_or(serde_json::Value::Null),
        Err(e) => {
            eprintln!("error: `--args`: {e}");
            return ExitCode::from(2);
        }
    };
    let Some(analysis) = analyze(inputs, styled) else {
        return ExitCode::FAILURE;
    };
    let result = executor(&analysis, upstream).and_then(|executor| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| e.to_string())?;
        let outcome = match pages {
            Some(n) => {
                runtime.block_on(executor.call_all(tool, json, toolwright::PageLimits::pages(n)))
            }
            None => runtime.block_on(executor.call(tool, json)),
        };
        outcome.map_err(|e| e.to_string())
    });
    match result {
        Ok(value) => {
            println!(
                "{}",
                serde_json::to_string_pretty(&value).unwrap_or_default()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            // The message may quote the upstream's bytes.
            eprintln!("error: {}", safe(&e.to_string()));
            ExitCode::FAILURE
        }
    }
}
