//! Adapter ↔ OpenAPI drift (TW140): an adapter with a companion
//! `{name}-adapter-openapi.yaml`, or paired with `Config::pair`, is compared with it;
//! every disagreement is a located warning, and agreement is silent. The companion is
//! not an input (no duplicate tools).

use std::path::{Path, PathBuf};

use toolwright_codegen::diagnostics::Severity;

fn dir(case: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/drift")
        .join(case)
}

fn drift(analysis: &toolwright_codegen::Analysis) -> Vec<String> {
    analysis
        .diagnostics
        .iter()
        .filter(|d| d.code == "TW140")
        .map(|d| {
            assert_eq!(d.severity, Severity::Warning);
            let at = d.location.as_ref().expect("located").display();
            let file = Path::new(at.split(':').next().unwrap())
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned();
            format!(
                "{file}:{}: {}",
                at.split_once(':').unwrap().1,
                d.message
                    .replace(&dir("differ").display().to_string(), "DIR")
            )
        })
        .collect()
}

#[test]
fn agreeing_descriptions_are_silent_and_the_companion_is_no_input() {
    let analysis = toolwright_codegen::analyze(&[dir("agree")], false);
    assert!(drift(&analysis).is_empty(), "{:?}", drift(&analysis));
    assert_eq!(
        analysis.apis.len(),
        1,
        "the companion is not read as an input"
    );
    assert_eq!(analysis.inputs.companions.len(), 1);
}

#[test]
fn every_disagreement_is_a_located_warning() {
    let analysis = toolwright_codegen::analyze(&[dir("differ")], false);
    let mut found = drift(&analysis);
    found.sort();
    let other = "`DIR/shelf-adapter-openapi.yaml`";
    let mut expected = vec![
        format!(
            "shelf-adapter-openapi.yaml:15:5: {other} has `GET /books/{{id}}/pages` (`listPages`), which adapter `shelf` does not map"
        ),
        format!(
            "shelf-adapter.md:13:7: {other} declares `lang` (query) for `GET /books/{{id}}`, which `get_book` does not take"
        ),
        format!("shelf-adapter.md:17:9: `get_book`: `id` is integer here, string in {other}"),
        format!(
            "shelf-adapter.md:18:9: `get_book`: `fields` goes in the query here, in the header in {other}"
        ),
        format!(
            "shelf-adapter.md:18:9: `get_book`: `fields` is optional here, required in {other}"
        ),
        format!(
            "shelf-adapter.md:20:7: `add_book` maps to `POST /books`, but {other} has it at `PUT /library/books`"
        ),
        format!("shelf-adapter.md:24:9: `add_book`: `title` is required here, optional in {other}"),
        format!(
            "shelf-adapter.md:25:9: `add_book` takes `pages` (body), which {other} does not declare for `PUT /library/books`"
        ),
    ];
    expected.sort();
    assert_eq!(found, expected);
    // Strict mode makes them errors, like every warning.
    let strict = toolwright_codegen::analyze(&[dir("differ")], true);
    assert!(strict.has_errors());
}

#[test]
fn config_pairs_an_adapter_with_any_document() {
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("drift-pair");
    let err = toolwright_codegen::Config::new()
        .adapters(dir("agree").join("shelf-adapter.md"))
        .pair(
            dir("agree").join("shelf-adapter.md"),
            dir("differ").join("shelf-adapter-openapi.yaml"),
        )
        .out_dir(&out)
        .cargo_directives(false)
        .strict(true)
        .generate()
        .expect_err("strict: drift fails the build");
    let text = err.to_string();
    assert!(text.contains("error[TW140]"), "{text}");
    assert!(text.contains("`add_book` maps to `POST /books`"), "{text}");
}
