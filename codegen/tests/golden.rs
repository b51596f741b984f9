//! Snapshot tests of the generated code for `tests/adapters` (three adapters). The
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

fn generate(out: &Path) -> toolwright_codegen::Generated {
    toolwright_codegen::Config::new()
        .adapters(root().join("tests/adapters"))
        .out_dir(out)
        .cargo_directives(false)
        .generate()
        .expect("generation succeeds")
}

#[test]
fn generated_code_matches_snapshots() {
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("golden");
    let _ = std::fs::remove_dir_all(&out);
    let generated = generate(&out);
    assert_eq!(
        generated.files,
        ["billing.rs", "notes.rs", "toolwright.rs", "weather.rs"]
    );
    let expected_dir = root().join("tests/golden/expected");
    let bless = std::env::var_os("TOOLWRIGHT_BLESS").is_some();
    let mut stale = Vec::new();
    for name in &generated.files {
        let actual = std::fs::read_to_string(out.join(name)).unwrap();
        let path = expected_dir.join(name);
        if bless {
            std::fs::write(&path, &actual).unwrap();
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(actual.as_str()) {
            stale.push(name.clone());
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
    let first = generate(&base.join("a"));
    let _second = generate(&base.join("b"));
    for name in &first.files {
        let a = std::fs::read(base.join("a").join(name)).unwrap();
        let b = std::fs::read(base.join("b").join(name)).unwrap();
        assert!(a == b, "{name} differs between two runs");
    }
    assert_eq!(first.written.len(), first.files.len());
    let modified = |dir: &str| {
        std::fs::metadata(base.join(dir).join("toolwright.rs"))
            .unwrap()
            .modified()
            .unwrap()
    };
    let before = modified("a");
    let again = generate(&base.join("a"));
    assert!(
        again.written.is_empty(),
        "unchanged files are not rewritten: {:?}",
        again.written
    );
    assert_eq!(modified("a"), before);
}
