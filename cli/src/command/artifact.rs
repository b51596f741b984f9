//! `toolwright artifact`: the collection artifact (tool graph, contracts, readiness).

use std::process::ExitCode;

use super::analyze;
use crate::args::Inputs;
use crate::output::write_output;

pub(crate) fn run(
    inputs: &Inputs,
    out: &std::path::Path,
    previous: Option<&std::path::Path>,
    roles: toolwright_codegen::contract::FieldRoles,
    styled: bool,
) -> ExitCode {
    let previous = match previous.map(std::fs::read_to_string).transpose() {
        Ok(text) => match text.map(|t| serde_json::from_str(&t)).transpose() {
            Ok(v) => v,
            Err(e) => {
                eprintln!("error: `--previous` is not JSON: {e}");
                return ExitCode::FAILURE;
            }
        },
        Err(e) => {
            eprintln!("error: cannot read `--previous`: {e}");
            return ExitCode::FAILURE;
        }
    };
    let Some(analysis) = analyze(inputs, styled) else {
        return ExitCode::FAILURE;
    };
    let options = toolwright_codegen::contract::artifact::Options { roles, previous };
    let artifact = toolwright_codegen::contract::artifact::build(&analysis.apis, &options);
    let mut text = serde_json::to_string_pretty(&artifact).unwrap_or_default();
    text.push('\n');
    let edges = artifact["edge_stats"]["edge_count"].as_u64().unwrap_or(0);
    let what = format!(
        "{} tool(s), {edges} edge(s), readiness {}",
        artifact["tools"].as_object().map_or(0, |t| t.len()),
        artifact["readiness_report"]["score"]
    );
    write_output(out, text.as_bytes(), &what)
}
