//! A new user's crate, made from README.md's snippets verbatim (`# Cargo.toml`,
//! `// build.rs`, `// src/main.rs`), outside the workspace, with the path dependencies
//! the README gives: it must build. Its adapter's conformance tests (one of them wrong)
//! run under `cargo test`, the wrong one failing with its request diff. Then its adapter
//! gets a typo and the failed build must show each diagnostic once, and every
//! `rerun-if-changed` once.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The fenced block of `language` whose first line is `first_line`.
fn snippet(readme: &str, language: &str, first_line: &str) -> String {
    let fence = format!("```{language}\n{first_line}\n");
    let start = readme
        .find(&fence)
        .unwrap_or_else(|| panic!("README.md has no ```{language} block starting `{first_line}`"));
    let body = &readme[start + fence.len()..];
    let end = body.find("\n```").expect("closed fence");
    format!("{first_line}\n{}\n", &body[..end])
}

fn cargo(dir: &Path, target: &Path) -> (bool, String) {
    let (ok, _, stderr) = cargo_run(dir, target, "build");
    (ok, stderr)
}

/// `cargo COMMAND` in `dir`: success, stdout, stderr.
fn cargo_run(dir: &Path, target: &Path, command: &str) -> (bool, String, String) {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(cargo)
        .args([command, "--color", "never"])
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo runs");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn the_readme_snippets_build_a_crate_and_failures_show_once() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let base = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("readme");
    let _ = std::fs::remove_dir_all(&base);
    let app = base.join("app");
    std::fs::create_dir_all(app.join("src")).unwrap();
    std::fs::create_dir_all(app.join("adapters")).unwrap();
    std::fs::create_dir_all(app.join("openapi")).unwrap();
    // "a checkout of this repository next to your crate"
    std::os::unix::fs::symlink(root().canonicalize().unwrap(), base.join("toolwright")).unwrap();

    let manifest = format!(
        "[package]\nname = \"readme-app\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n{}\n[workspace]\n",
        snippet(&readme, "toml", "# Cargo.toml")
    );
    std::fs::write(app.join("Cargo.toml"), manifest).unwrap();
    std::fs::write(
        app.join("build.rs"),
        snippet(&readme, "rust", "// build.rs"),
    )
    .unwrap();
    std::fs::write(
        app.join("src/main.rs"),
        snippet(&readme, "rust", "// src/main.rs"),
    )
    .unwrap();
    let adapter = root().join("examples/issue-tracker/adapters/tracker-adapter.md");
    std::fs::copy(&adapter, app.join("adapters/tracker-adapter.md")).unwrap();
    std::fs::copy(
        root().join("tests/openapi/shop.yaml"),
        app.join("openapi/shop.yaml"),
    )
    .unwrap();
    // The workspace's versions, so the dependencies built for the tests are reused.
    std::fs::copy(root().join("Cargo.lock"), app.join("Cargo.lock")).unwrap();
    let target = root().join("target/readme");

    let (ok, stderr) = cargo(&app, &target);
    assert!(ok, "the README's crate does not build:\n{stderr}");
    assert!(!stderr.contains("warning: unused"), "{stderr}");

    // Every input once in the build script's rerun-if-changed lines.
    let outputs: Vec<PathBuf> = std::fs::read_dir(target.join("debug/build"))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path().join("output")))
        .filter(|p| {
            p.parent()
                .and_then(|d| d.file_name())
                .is_some_and(|n| n.to_string_lossy().starts_with("readme-app-"))
                && p.exists()
        })
        .collect();
    assert!(!outputs.is_empty(), "no build script output found");
    for output in &outputs {
        let text = std::fs::read_to_string(output).unwrap();
        let lines: Vec<&str> = text
            .lines()
            .filter(|l| l.contains("rerun-if-changed"))
            .collect();
        let mut unique = lines.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(
            lines.len(),
            unique.len(),
            "repeated rerun-if-changed in {}",
            output.display()
        );
    }

    // The adapter's conformance tests, plus one case that expects another path: with
    // `.tests(true)` (the README's build.rs) `cargo test` runs them all, and the wrong
    // one fails with the request diff.
    let cases = std::fs::read_to_string(adapter.with_file_name("tracker-adapter-tests.yaml"))
        .unwrap()
        + "\n  - name: expects the wrong path\n    tool: get_issue\n    arguments: {project: web, number: 7}\n    request: {method: GET, path: /projects/web/issue/7}\n";
    std::fs::write(app.join("adapters/tracker-adapter-tests.yaml"), cases).unwrap();
    let (ok, stdout, stderr) = cargo_run(&app, &target, "test");
    assert!(
        !ok,
        "the wrong case must fail `cargo test`:\n{stdout}\n{stderr}"
    );
    assert!(
        stdout.contains("test adapter_conformance::tracker_expects_the_wrong_path ... FAILED"),
        "{stdout}\n{stderr}"
    );
    assert!(
        stdout.contains("- GET /projects/web/issue/7\n+ GET /projects/web/issues/7"),
        "{stdout}"
    );
    assert!(
        stdout.contains("test result: FAILED. 6 passed; 1 failed"),
        "{stdout}"
    );
    std::fs::remove_file(app.join("adapters/tracker-adapter-tests.yaml")).unwrap();

    // A typo that changes meaning: an error, shown once.
    let text = std::fs::read_to_string(&adapter).unwrap();
    let broken = text.replacen("required: true", "requried: true", 1);
    std::fs::write(app.join("adapters/tracker-adapter.md"), broken).unwrap();
    let (ok, stderr) = cargo(&app, &target);
    assert!(!ok, "a typo must fail the build");
    let message = "unknown field `requried` in";
    assert_eq!(stderr.matches(message).count(), 1, "shown once:\n{stderr}");
    assert!(stderr.contains("did you mean `required`?"), "{stderr}");
    assert!(
        !stderr.contains("--- stdout"),
        "no second copy under --- stdout:\n{stderr}"
    );
    assert!(
        !stderr.contains("--- stderr"),
        "no third copy under --- stderr:\n{stderr}"
    );
}
