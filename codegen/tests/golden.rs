//! Snapshot tests of the generated code for `tests/adapters` (three adapters),
//! `tests/openapi`, `tests/openapi32` (OpenAPI 3.2), `tests/discovery` (a Google Discovery document) and `tests/mcp` (the
//! saved `tools/list` of the reference MCP server) and `tests/graphql` (a GraphQL
//! schema; its `node_modules` are not inputs). The
//! snapshots live in `tests/golden/expected/` and are compiled (with clippy, as part of
//! the workspace) by the `toolwright-golden` crate. Regenerate after a reviewed change
//! with `TOOLWRIGHT_BLESS=1 cargo test -p toolwright-codegen --test golden`.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_owned()
}

fn generate(input: &str, out: &Path) -> toolwright_codegen::Generated {
    toolwright_codegen::Config::new()
        .adapters(root().join(input))
        .out_dir(out)
        .cargo_directives(false)
        .generate()
        .expect("generation succeeds")
}

/// (inputs, snapshot directory, expected files)
const CASES: &[(&str, &str, &[&str])] = &[
    (
        "tests/adapters",
        "tests/golden/expected",
        &[
            "billing.rs",
            "notes.rs",
            "toolwright.rs",
            "toolwright_search.idx",
            "weather.rs",
        ],
    ),
    (
        "tests/openapi",
        "tests/golden/expected-openapi",
        &[
            "constraints.rs",
            "library.rs",
            "shop.rs",
            "toolwright.rs",
            "toolwright_search.idx",
            "wire.rs",
        ],
    ),
    (
        "tests/openapi32",
        "tests/golden/expected-openapi32",
        &["bakery.rs", "toolwright.rs", "toolwright_search.idx"],
    ),
    (
        "tests/discovery",
        "tests/golden/expected-discovery",
        &["library_v1.rs", "toolwright.rs", "toolwright_search.idx"],
    ),
    (
        "tests/mcp",
        "tests/golden/expected-mcp",
        &["everything.rs", "toolwright.rs", "toolwright_search.idx"],
    ),
    (
        "tests/graphql",
        "tests/golden/expected-graphql",
        &["toolwright.rs", "toolwright_search.idx", "tracker.rs"],
    ),
];

#[test]
fn generated_code_matches_snapshots() {
    let bless = std::env::var_os("TOOLWRIGHT_BLESS").is_some();
    let mut stale = Vec::new();
    for (input, snapshots, files) in CASES {
        let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
            .join("golden")
            .join(snapshots.replace('/', "_"));
        let _ = std::fs::remove_dir_all(&out);
        let generated = generate(input, &out);
        assert_eq!(generated.files, *files);
        let expected_dir = root().join(snapshots);
        std::fs::create_dir_all(&expected_dir).unwrap();
        for name in &generated.files {
            // Bytes: the search index is binary.
            let actual = std::fs::read(out.join(name)).unwrap();
            let path = expected_dir.join(name);
            if bless {
                std::fs::write(&path, &actual).unwrap();
            } else if std::fs::read(&path).ok().as_deref() != Some(actual.as_slice()) {
                stale.push(format!("{snapshots}/{name}"));
            }
        }
    }
    assert!(
        stale.is_empty(),
        "snapshots differ: {stale:?}; review and bless with TOOLWRIGHT_BLESS=1"
    );
}

#[test]
fn generation_is_deterministic_and_writes_only_changes() {
    let base = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("determinism");
    let _ = std::fs::remove_dir_all(&base);
    for (input, _, _) in CASES {
        let one = generate(input, &base.join("one"));
        generate(input, &base.join("two"));
        for name in &one.files {
            let a = std::fs::read(base.join("one").join(name)).unwrap();
            let b = std::fs::read(base.join("two").join(name)).unwrap();
            assert!(a == b, "{input}: {name} differs between two runs");
        }
    }
    let first = generate("tests/openapi", &base.join("a"));
    assert_eq!(first.written.len(), first.files.len());
    let modified = |dir: &str| {
        std::fs::metadata(base.join(dir).join("toolwright.rs"))
            .unwrap()
            .modified()
            .unwrap()
    };
    let before = modified("a");
    let again = generate("tests/openapi", &base.join("a"));
    assert!(
        again.written.is_empty(),
        "unchanged files are not rewritten: {:?}",
        again.written
    );
    assert_eq!(modified("a"), before);
}
