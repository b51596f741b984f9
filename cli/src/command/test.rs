//! `toolwright test`: the adapters' conformance cases, run offline.

use std::process::ExitCode;

use super::analyze_to_catalog;
use crate::args::Inputs;

/// `toolwright test`: a line per case (`test NAME ... ok`), then each failure with
/// its diff, then `N passed, N failed`; exit 1 when a case failed.
pub(crate) fn run(inputs: &Inputs, styled: bool) -> ExitCode {
    let Some((analysis, catalog)) = analyze_to_catalog(inputs, styled) else {
        return ExitCode::FAILURE;
    };
    let cases: Vec<_> = analysis
        .suites
        .iter()
        .flat_map(|suite| suite.cases.iter())
        .collect();
    if cases.is_empty() {
        eprintln!(
            "note: no conformance tests: an adapter's tests sit next to it as `<name>-adapter-tests.yaml`"
        );
    }
    let (mut passed, mut failures) = (0, Vec::new());
    for case in cases {
        let outcome = serde_json::from_value(case.json.clone())
            .map_err(|e| format!("the case does not parse: {e}"))
            .and_then(|parsed| {
                toolwright::conformance::run_blocking(catalog.clone(), &parsed)
                    .map_err(|f| f.message)
            });
        match outcome {
            Ok(()) => {
                println!("test {} ... ok", case.name);
                passed += 1;
            }
            Err(why) => {
                println!("test {} ... FAILED", case.name);
                failures.push((case, why));
            }
        }
    }
    for (case, why) in &failures {
        println!("\n---- {} ({}) ----\n{why}", case.name, case.at);
    }
    println!("\n{passed} passed, {} failed", failures.len());
    if failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
