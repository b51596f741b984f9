//! One test per diagnostic: the exact rendered text, with line and column counted in
//! the adapter file itself. Cases live in `diagnostics/cases.txt` so that the YAML of
//! each reads as a user would write it.

use std::path::PathBuf;

use toolwright_codegen::diagnostics::Severity;

struct Case {
    name: String,
    file: String,
    text: String,
    expected: String,
}

/// Parses `cases.txt`: `=== name file-name` starts a case, `--- expected` starts its
/// expected output.
fn cases() -> Vec<Case> {
    let raw = include_str!("diagnostics/cases.txt");
    let mut out = Vec::new();
    for block in raw.split("\n=== ").skip(1) {
        let (header, rest) = block.split_once('\n').unwrap();
        let (name, file) = header.split_once(' ').unwrap();
        let (text, expected) = rest.split_once("\n--- expected\n").unwrap();
        out.push(Case {
            name: name.into(),
            file: file.trim().into(),
            text: format!("{text}\n"),
            expected: expected.trim_end().into(),
        });
    }
    out
}

fn write(case: &Case) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("diagnostics")
        .join(&case.name);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(&case.file);
    std::fs::write(&path, &case.text).unwrap();
    path
}

fn render(paths: &[PathBuf], strict: bool) -> String {
    let analysis = toolwright_codegen::analyze(paths, strict);
    let base = format!("{}/diagnostics/", env!("CARGO_TARGET_TMPDIR"));
    analysis.render().replace(&base, "")
}

#[test]
fn every_case_renders_exactly() {
    let bless = std::env::var_os("TOOLWRIGHT_BLESS").is_some();
    let mut failures = Vec::new();
    let mut blessed = String::new();
    for case in cases() {
        let actual = render(&[write(&case)], case.name.starts_with("strict_"));
        if bless {
            blessed.push_str(&format!(
                "\n=== {} {}\n{}--- expected\n{}\n",
                case.name, case.file, case.text, actual
            ));
        } else if actual != case.expected {
            failures.push(format!(
                "case `{}`:\n--- expected\n{}\n--- actual\n{}\n",
                case.name, case.expected, actual
            ));
        }
    }
    if bless {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/diagnostics/cases.txt");
        let head = std::fs::read_to_string(path).unwrap();
        let head = head.split("\n=== ").next().unwrap().to_owned();
        std::fs::write(path, head + &blessed).unwrap();
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn duplicate_operation_across_adapters() {
    let text = |name: &str| {
        format!(
            "---\nname: {name}\ntype: adapter\nversion: \"1.0.0\"\ndescription: d\ntarget:\n  base_url: https://x.example\n  transport: http\n  protocol: rest\n  serialization: json\noperations:\n  read:\n    - name: ping\n      maps_to: GET /ping\n      description: d\n---\n"
        )
    };
    let mk = |name: &str| Case {
        name: format!("cross_{name}"),
        file: format!("{name}-adapter.md"),
        text: text(name),
        expected: String::new(),
    };
    let (a, b) = (write(&mk("alpha")), write(&mk("beta")));
    let analysis = toolwright_codegen::analyze(&[a, b], false);
    let errors: Vec<_> = analysis
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].code, "TW116");
    assert_eq!(errors[0].line_col(), Some((13, 7)));
    assert_eq!(
        render(&[write(&mk("alpha")), write(&mk("beta"))], false),
        "error[TW116]: operation `ping` is also defined by adapter `alpha`
  --> cross_beta/beta-adapter.md:13:7
   |
13 |     - name: ping
   |       ^ first defined at cross_alpha/alpha-adapter.md:13:7
   |
   = help: tool names must be unique across all adapters of a catalog; rename one

1 error(s), 0 warning(s)"
    );
}

#[test]
fn all_problems_of_a_file_are_reported_in_one_run() {
    let case = cases()
        .into_iter()
        .find(|c| c.name == "many_problems")
        .unwrap();
    let analysis = toolwright_codegen::analyze(&[write(&case)], false);
    let found: Vec<(&str, (usize, usize))> = analysis
        .diagnostics
        .iter()
        .map(|d| (d.code, d.line_col().unwrap()))
        .collect();
    assert!(found.len() >= 6, "{found:?}");
    assert!(analysis.has_errors());
}

#[test]
fn unknown_fields_warn_and_are_kept() {
    let case = Case {
        name: "kept".into(),
        file: "t-adapter.md".into(),
        text: "---\nname: t\ntype: adapter\nversion: \"1.0.0\"\ndescription: d\nowner: team-a\ntarget: { base_url: \"https://t.example\", transport: http, protocol: rest, serialization: json, region: eu }\noperations:\n  read:\n    - name: s\n      maps_to: GET /s\n      description: d\n      cache_ttl: 60\n      params:\n        q: { type: string, x-example: hello }\n      response: { type: object, fields: [a], envelope: data }\n---\n".into(),
        expected: String::new(),
    };
    let analysis = toolwright_codegen::analyze(&[write(&case)], false);
    let codes: Vec<&str> = analysis.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["TW105"; 5]);
    let api = &analysis.apis[0];
    assert_eq!(api.meta["owner"], "team-a");
    assert_eq!(api.meta["target.region"], "eu");
    let op = &api.operations[0];
    assert_eq!(*op.meta["cache_ttl"], 60);
    assert_eq!(*op.meta["response.envelope"], "data");
    assert_eq!(op.params[0].schema.extensions["x-example"], "hello");
}
