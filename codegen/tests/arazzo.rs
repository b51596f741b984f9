//! Arazzo documents read and checked (`source::arazzo`, then lowered into tools):
//! the specification's own examples (`tests/arazzo/spec`, verbatim from
//! OAI/Arazzo-Specification examples/1.0.0 at fc140d2), each with the errors it
//! really has (a case-mismatched operationId, outputs no step declares, parameter
//! names and a body property its operations do not have, sources that are remote or
//! missing), and a broken document with every finding located.

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
    // Then lowered into tools (which also checks what a step sends against its
    // operation: parameter names, body properties); the checker's findings again
    // are dropped.
    let mut lowered = Diagnostics::default();
    toolwright_codegen::source::arazzo::lower::read(&file, &mut lowered);
    for d in lowered.iter() {
        if !diagnostics.iter().any(|seen| seen.message == d.message) {
            diagnostics.push(d.clone());
        }
    }
    (document, diagnostics)
}

/// Each example's errors, as (line, message start): `toolwright check` finds these
/// in the examples as published.
#[test]
fn the_specifications_examples_are_checked_and_their_real_errors_located() {
    let expect: [(&str, &[(usize, &str)]); 6] = [
        // `refresh-token-flow` sends `refresh_token` in a form whose schema has no
        // such property (the example's OpenAPI document left it out).
        (
            "spec/oauth.arazzo.yaml",
            &[(
                61,
                "the request body of `get_token` has no property `refresh_token`",
            )],
        ),
        // `apply-coupon` names parameters its operations call `tags` and `petId`.
        (
            "spec/pet-coupons.arazzo.yaml",
            &[
                (26, "`findPetsByTags` has no parameter `pet_tags` in query"),
                (40, "`getPetCoupons` has no parameter `pet_id` in path"),
            ],
        ),
        // Its source is remote (not fetched): nothing to make tools over.
        (
            "spec/LoginAndRetrievePets.arazzo.yaml",
            &[(8, "no OpenAPI document this one names could be read")],
        ),
        // The first step calls `PAR`, but its OpenAPI document names the operation
        // `Par` (operationIds are case-sensitive).
        (
            "spec/FAPI-PAR.arazzo.yaml",
            &[(102, "no source has an operation `PAR`")],
        ),
        // Outputs no step declares (`redirectAuthToken`, `loanTransactionId` twice),
        // `.outputs.` left out of a workflow output, and a remote source.
        (
            "spec/bnpl-arazzo.yaml",
            &[
                (231, "this expression names output `redirectAuthToken`"),
                (242, "this expression names output `loanTransactionId`"),
                (253, "this expression names output `loanTransactionId`"),
                (
                    260,
                    "`$steps.retrieveFinalizedPaymentPlan.finalizedPaymentPlan`",
                ),
                (7, "no OpenAPI document this one names could be read"),
            ],
        ),
        // `./animals.yaml`, which the repository does not hold.
        (
            "spec/ExtendedParametersExample.arazzo.yaml",
            &[
                (8, "cannot read `"),
                (5, "no OpenAPI document this one names could be read"),
            ],
        ),
    ];
    for (name, errors) in expect {
        let (document, diagnostics) = check(name);
        assert!(!document.unwrap().workflows.is_empty(), "{name}");
        let found: Vec<(usize, String)> = diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| (d.line_col().map_or(0, |(l, _)| l), d.message.clone()))
            .collect();
        assert_eq!(found.len(), errors.len(), "{name}: {found:#?}");
        for ((line, message), (want_line, start)) in found.iter().zip(errors) {
            assert!(message.starts_with(start), "{name}: {message}");
            assert_eq!(line, want_line, "{name}: {message}");
        }
    }
    // bnpl's one jsonpath criterion beyond the form toolwright evaluates
    // (`$[?count(@.products) > 0]`) is a located warning, not dropped.
    let (_, diagnostics) = check("spec/bnpl-arazzo.yaml");
    let warned: Vec<usize> = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Warning && d.message.contains("never holds"))
        .filter_map(|d| d.line_col().map(|(l, _)| l))
        .collect();
    assert_eq!(warned, [123, 130]);
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
        (
            "the request body of `placeOrder` has no property `when`",
            29,
        ),
        ("the document names no server", 0),
        (
            "a `$request.` expression is not evaluated by toolwright",
            55,
        ),
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

/// Given with the OpenAPI document it names (or a directory holding both), an
/// Arazzo document brings that document's operations itself: one API, not two of
/// one name.
#[test]
fn the_source_given_beside_its_arazzo_document_is_read_once() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/arazzo");
    let analysis = toolwright_codegen::analyze(
        &[
            dir.join("pet-orders.arazzo.yaml"),
            dir.join("spec/pet-coupons.openapi.yaml"),
        ],
        false,
    );
    assert!(!analysis.has_errors(), "{}", analysis.render());
    assert_eq!(analysis.apis.len(), 1);
    let api = &analysis.apis[0];
    assert!(api.operations.iter().any(|o| o.name == "order_and_confirm"));
    assert_eq!(
        api.operations
            .iter()
            .filter(|o| o.name == "placeOrder")
            .count(),
        1
    );
}

/// A step's input taken from an earlier step's output is an edge of the tool graph
/// between those steps' tools, scored like an OpenAPI link and naming its evidence
/// `arazzo_step`.
#[test]
fn every_step_input_from_an_earlier_step_is_a_graph_edge() {
    use toolwright_codegen::contract::{self, FieldRoles};
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/arazzo");
    let analysis = toolwright_codegen::analyze(&[dir.join("pet-coupons.fixed.arazzo.yaml")], false);
    assert!(!analysis.has_errors(), "{}", analysis.render());
    let contracts = contract::build(&analysis.apis, &FieldRoles::default());
    let declared: Vec<(String, String, String, String)> = contract::graph::edges(&contracts)
        .into_iter()
        .filter(|e| e.evidence_sources.iter().any(|s| s == "arazzo_step"))
        .map(|e| {
            assert_eq!(e.confidence, "extracted");
            assert!(e.conf_score >= 0.95, "{e:?}");
            let flow = e.data_flow.unwrap();
            (
                e.source.to_string(),
                e.target.to_string(),
                flow.field,
                flow.from_path.as_deref().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    let expect = [
        (
            "findPetsByTags",
            "getPetCoupons",
            "petId",
            "$response.body#/0/id",
        ),
        (
            "findPetsByTags",
            "place_order",
            "pet_id",
            "$response.body#/0/id",
        ),
        (
            "getPetCoupons",
            "place_order",
            "coupon_code",
            "$response.body#/couponCode",
        ),
        (
            "findPetsByStatus",
            "place_order",
            "pet_id",
            "$response.body#/0/id",
        ),
    ];
    let expect: Vec<(String, String, String, String)> = expect
        .iter()
        .map(|(a, b, c, d)| ((*a).into(), (*b).into(), (*c).into(), (*d).into()))
        .collect();
    let mut declared = declared;
    declared.sort();
    let mut expect = expect;
    expect.sort();
    assert_eq!(declared, expect);
}

/// Workflows that run each other would start runs without end: each is an error
/// where it names the next, and neither becomes a tool; the others still do.
#[test]
fn workflows_that_run_each_other_are_refused_where_they_do() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/arazzo/ring.arazzo.yaml");
    let file = SourceFile::new(
        path.to_str().unwrap(),
        std::fs::read_to_string(&path).unwrap(),
    );
    let mut diagnostics = Diagnostics::default();
    let api = toolwright_codegen::source::arazzo::lower::read(&file, &mut diagnostics).unwrap();
    let rings: Vec<(String, usize)> = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| (d.message.clone(), d.line_col().map_or(0, |(line, _)| line)))
        .collect();
    assert_eq!(rings.len(), 2, "{rings:#?}");
    assert!(
        rings[0]
            .0
            .contains("workflow `outer` runs `inner`, which runs `outer` again"),
        "{rings:#?}"
    );
    assert_eq!(rings[0].1, 17, "{rings:#?}");
    assert_eq!(rings[1].1, 28, "{rings:#?}");
    let workflows: Vec<&str> = api
        .operations
        .iter()
        .filter(|o| o.workflow.is_some())
        .map(|o| o.name.as_str())
        .collect();
    assert_eq!(workflows, ["fine"]);
}
