//! `toolwright check`: every problem of the inputs at once, then the readiness advice.

use std::process::ExitCode;

use toolwright_codegen::Analysis;

use super::analyze;
use crate::args::{Format, Inputs};
use crate::findings;

pub(crate) fn run(inputs: &Inputs, format: Format, styled: bool) -> ExitCode {
    if format == Format::Json {
        let analysis = inputs.analysis();
        println!(
            "{}",
            serde_json::to_string_pretty(&analysis.to_json()).unwrap_or_default()
        );
        return if analysis.has_errors() {
            ExitCode::FAILURE
        } else {
            ExitCode::SUCCESS
        };
    }
    match analyze(inputs, styled) {
        Some(a) => {
            readiness(&a);
            let ops: usize = a.apis.iter().map(|api| api.operations.len()).sum();
            eprintln!("ok: {} API(s), {ops} operation(s)", a.apis.len());
            ExitCode::SUCCESS
        }
        None => ExitCode::FAILURE,
    }
}

/// Groups of findings printed by `check` (the artifact holds them all).
pub(crate) const SHOWN_FINDINGS: usize = 10;

/// The readiness report's score and first findings, as warnings (never errors, strict
/// or not: they are advice about how well models will do, not faults of the inputs).
pub(crate) fn readiness(analysis: &Analysis) {
    use toolwright_codegen::contract;
    let (contracts, edges) =
        contract::build_with_edges(&analysis.apis, &contract::FieldRoles::default());
    let report = contract::readiness::report(&analysis.apis, &contracts, &edges);
    // Gone before the document is parsed again for the findings' places: together they
    // were `check`'s peak on Microsoft Graph beta (~60 MB more).
    drop((contracts, edges));
    let warnings: Vec<_> = report
        .findings
        .iter()
        .filter(|f| f.severity == "warning")
        // `check` has said each of these where it is already (TW137).
        .filter(|f| f.code != "placeholder_text")
        .collect();
    let groups = findings::group(warnings.iter().copied(), &findings::positions(analysis));
    for group in groups.iter().take(SHOWN_FINDINGS) {
        eprint!("{}", group.render());
    }
    let more = groups.len().saturating_sub(SHOWN_FINDINGS);
    eprintln!(
        "readiness: {:.1}/100 ({}), {} warning(s){}{}",
        report.score,
        report.status,
        warnings.len(),
        if groups.len() < warnings.len() {
            format!(" ({} distinct)", groups.len())
        } else {
            String::new()
        },
        if more > 0 {
            format!(", {more} more in `toolwright artifact`")
        } else {
            String::new()
        }
    );
}
