//! Arazzo documents read and checked (`source::arazzo`): the specification's own
//! examples (`tests/arazzo/spec`, verbatim from OAI/Arazzo-Specification
//! examples/1.0.0 at fc140d2) — three without an error, three with the errors they
//! really have (a case-mismatched operationId, outputs no step declares, a source file
//! the repository lacks) — and a broken document with every finding located.

use std::path::Path;

use toolwright_codegen::diagnostics::{Diagnostics, Severity, SourceFile};

fn check(
    name: &str,
) -> (
    Option<toolwright_codegen::source::arazzo::Document>,
    Diagnostics,
) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/arazzo")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let file = SourceFile::new(path.to_str().unwrap(), text);
    let mut diagnostics = Diagnostics::default();
    let document = toolwright_codegen::source::arazzo::read(&file, &mut diagnostics);
    (document, diagnostics)
}

#[test]
fn the_specifications_examples_check_without_errors() {
    for name in [
        "spec/oauth.arazzo.yaml",
        "spec/pet-coupons.arazzo.yaml",
        "spec/LoginAndRetrievePets.arazzo.yaml",
    ] {
        let (document, diagnostics) = check(name);
        let document = document.unwrap_or_else(|| panic!("{name} not read"));
        assert!(!document.workflows.is_empty(), "{name}");
        let errors: Vec<String> = diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| d.message.clone())
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:#?}");
    }
    // FAPI-PAR's first step calls `PAR`, but its OpenAPI document names the operation
    // `Par` (operationIds are case-sensitive): the one error, where it is written.
    let (_, diagnostics) = check("spec/FAPI-PAR.arazzo.yaml");
    let errors: Vec<(String, Option<(usize, usize)>)> = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| (d.message.clone(), d.line_col()))
        .collect();
    assert_eq!(
        errors,
        [(
            "no source has an operation `PAR`".to_owned(),
            Some((102, 9))
        )]
    );
    // bnpl-arazzo.yaml names outputs no step declares (`redirectAuthToken` of the step
    // that reads it, `loanTransactionId` twice) and leaves `.outputs.` out of its
    // workflow output: four errors of the example itself.
    let (_, diagnostics) = check("spec/bnpl-arazzo.yaml");
    let lines: Vec<usize> = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .filter_map(|d| d.line_col().map(|(line, _)| line))
        .collect();
    assert_eq!(lines, [231, 242, 253, 260]);
    // ExtendedParametersExample.arazzo.yaml names `./animals.yaml`, which the
    // repository does not hold.
    let (_, diagnostics) = check("spec/ExtendedParametersExample.arazzo.yaml");
    let errors: Vec<String> = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.message.clone())
        .collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("animals.yaml"), "{errors:?}");
    // The local sources were read and their targets checked.
    let (document, _) = check("spec/pet-coupons.arazzo.yaml");
    assert!(document.unwrap().sources[0].read);
}

#[test]
fn a_broken_workflow_gets_every_finding_located() {
    let (_, diagnostics) = check("broken.arazzo.yaml");
    let found: Vec<(String, usize)> = diagnostics
        .iter()
        .map(|d| (d.message.clone(), d.line_col().map_or(0, |(line, _)| line)))
        .collect();
    let expect = [
        ("no source has an operation `noSuchOperation`", 17),
        ("names input `colour`", 21),
        ("names output `petId` of step `find`", 28),
        ("names step `nowhere`", 29),
        ("no closing `'`", 31),
        ("goes to step `missing`", 45),
        ("go to each other without end: order → check → order", 0),
    ];
    for (needle, line) in expect {
        let hit = found.iter().find(|(m, _)| m.contains(needle));
        let Some((_, at)) = hit else {
            panic!("no finding `{needle}` in {found:#?}");
        };
        if line > 0 {
            assert_eq!(*at, line, "{needle}");
        }
    }
    assert_eq!(found.len(), expect.len(), "{found:#?}");
}
