//! README.md's "Using it in a crate", followed as a new user follows it: its shell
//! commands run as written, in a scratch directory beside a checkout of this repository
//! (outside any workspace), and its `// build.rs` and `// src/main.rs` blocks become those
//! files; nothing else is copied in. No lock file: the crate resolves today's newest
//! releases, as a new crate does. Warnings are denied (our path crates' too), and the
//! build may print none. The crate then runs against the example's stand-in API started
//! by the README's command, making its typed and by-name calls, and `cargo test` runs the
//! adapter's conformance cases.
//!
//! Then, beyond the README: a wrong conformance case fails `cargo test` with its request
//! diff, `.tests(true)` without a tests file says so, and a typo in the adapter fails the
//! build with each diagnostic once and every `rerun-if-changed` once.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output};
use std::time::Duration;

/// The port `issue-tracker --serve` listens on, which the README's `main.rs` calls.
const STAND_IN_PORT: u16 = 8733;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// The README's "Using it in a crate" section.
fn section(readme: &str) -> &str {
    let start = readme
        .find("## Using it in a crate\n")
        .expect("README.md has a section `## Using it in a crate`");
    let rest = &readme[start..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |i| i + 3);
    &rest[..end]
}

/// The section's fenced blocks, in order: (language, body).
fn blocks(section: &str) -> Vec<(&str, &str)> {
    let mut found = Vec::new();
    let mut rest = section;
    while let Some(start) = rest.find("```") {
        let after = &rest[start + 3..];
        let Some((language, body)) = after.split_once('\n') else {
            break;
        };
        let end = body.find("\n```").expect("every fence is closed");
        found.push((language.trim(), &body[..end]));
        rest = &body[end + 4..];
    }
    found
}

/// The one shell block `pick` chooses.
fn shell<'a>(blocks: &[(&str, &'a str)], what: &str, pick: impl Fn(&str) -> bool) -> &'a str {
    let mut matching = blocks
        .iter()
        .filter(|(language, body)| *language == "sh" && pick(body));
    let block = matching
        .next()
        .unwrap_or_else(|| panic!("the README section has no shell block that {what}"));
    assert!(
        matching.next().is_none(),
        "more than one shell block {what}"
    );
    block.1
}

/// The Rust block whose first line is `// {file}`.
fn file<'a>(blocks: &[(&str, &'a str)], file: &str) -> &'a str {
    let first = format!("// {file}\n");
    blocks
        .iter()
        .find(|(language, body)| *language == "rust" && body.starts_with(&first))
        .map(|(_, body)| *body)
        .unwrap_or_else(|| panic!("the README section has no ```rust block starting `// {file}`"))
}

/// A shell command as a user's terminal runs it: cargo's variables from this test's
/// own run removed, the README test's target directory, warnings denied.
fn sh(script: &str, dir: &Path, target: &Path) -> Command {
    let mut command = Command::new("bash");
    command
        .args(["-euo", "pipefail", "-c", script])
        .current_dir(dir);
    for (name, _) in std::env::vars_os() {
        let name = name.to_string_lossy();
        if (name.starts_with("CARGO") && name != "CARGO_HOME") || name.starts_with("RUST") {
            command.env_remove(&*name);
        }
    }
    if let Some(home) = std::env::var_os("RUSTUP_HOME") {
        command.env("RUSTUP_HOME", home);
    }
    command
        .env("CARGO_TARGET_DIR", target)
        .env("CARGO_TERM_COLOR", "never")
        .env("RUSTFLAGS", "-D warnings");
    command
}

fn run(script: &str, dir: &Path, target: &Path) -> (bool, String, String) {
    let Output {
        status,
        stdout,
        stderr,
    } = sh(script, dir, target).output().expect("bash runs");
    (
        status.success(),
        String::from_utf8_lossy(&stdout).into_owned(),
        String::from_utf8_lossy(&stderr).into_owned(),
    )
}

/// The stand-in server's process group, stopped however the test ends.
struct Background(Child);

impl Drop for Background {
    fn drop(&mut self) {
        // `cargo run` starts the server as its child: stop the whole group.
        let _ = Command::new("kill")
            .args(["-TERM", "--", &format!("-{}", self.0.id())])
            .status();
        let _ = self.0.wait();
    }
}

#[test]
fn the_readme_crate_builds_runs_and_reports_failures_once() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let blocks = blocks(section(&readme));
    // Outside any cargo workspace (`cargo new` inside one would join it), next to a
    // checkout: "here it sits next to your crate, in `../toolwright`".
    let base = std::env::temp_dir().join(format!("toolwright-readme-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(&base).unwrap();
    std::os::unix::fs::symlink(root(), base.join("toolwright")).unwrap();
    // The README crate's own target directory beside the workspace's (its dependencies
    // are resolved afresh, so they differ from the workspace's), kept between runs.
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let target = tmp.parent().unwrap().join("readme");

    // Make the crate, copy the adapter, add the dependencies.
    let setup = shell(&blocks, "runs `cargo new`", |b| b.contains("cargo new "));
    let (ok, stdout, stderr) = run(setup, &base, &target);
    assert!(ok, "the README's setup commands fail:\n{stdout}\n{stderr}");
    let name = setup
        .split("cargo new ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap();
    let app = base.join(name);
    std::fs::write(app.join("build.rs"), file(&blocks, "build.rs")).unwrap();
    std::fs::write(app.join("src/main.rs"), file(&blocks, "src/main.rs")).unwrap();

    // Builds on today's releases, without a warning from anyone.
    let (ok, stdout, stderr) = run("cargo build", &app, &target);
    assert!(ok, "the README's crate does not build:\n{stdout}\n{stderr}");
    assert!(
        !stderr.contains("warning"),
        "the README's crate builds with warnings:\n{stderr}"
    );

    // Runs against the stand-in API the README starts.
    let serve = shell(&blocks, "starts the stand-in API", |b| {
        b.contains("--serve")
    });
    assert!(
        TcpListener::bind(("127.0.0.1", STAND_IN_PORT)).is_ok(),
        "port {STAND_IN_PORT} is taken: the stand-in API cannot start"
    );
    // The workspace's own target directory and flags: the example is already built.
    let mut server = sh(serve, &app, tmp.parent().unwrap());
    server.env_remove("RUSTFLAGS");
    std::os::unix::process::CommandExt::process_group(&mut server, 0);
    let _server = Background(server.spawn().expect("bash runs"));
    toolwright_loopback::wait_listening(STAND_IN_PORT, Duration::from_secs(900), serve)
        .unwrap_or_else(|e| panic!("{e}"));
    let commands = shell(&blocks, "runs the crate", |b| {
        b.contains("cargo run") && !b.contains("--serve")
    });
    let command = |prefix: &str| {
        commands
            .lines()
            .find(|l| l.contains(prefix))
            .unwrap_or_else(|| panic!("no `{prefix}` line in the README's commands"))
    };
    let (ok, stdout, stderr) = run(command("cargo run"), &app, &target);
    assert!(ok, "the README's crate fails:\n{stdout}\n{stderr}");
    for expected in [
        "created #",
        " Login fails\n",
        "get_issue → {",
        "\"title\":\"Login fails\"",
        "5 tools in the catalog",
    ] {
        assert!(stdout.contains(expected), "{expected:?} not in:\n{stdout}");
    }
    // The same without the token: one readable line, not a Debug dump.
    let without_token = command("cargo run").replace("TRACKER_TOKEN=demo-token ", "");
    let (ok, _, stderr) = run(&without_token, &app, &target);
    assert!(!ok, "a missing token must fail");
    let last = stderr.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("error: ") && last.contains("TRACKER_TOKEN") && !last.contains(" {"),
        "{stderr}"
    );
    let (ok, stdout, stderr) = run(command("cargo test"), &app, &target);
    assert!(ok, "{stdout}\n{stderr}");
    assert!(
        stdout.contains("test result: ok. 6 passed; 0 failed"),
        "{stdout}"
    );

    let adapters = app.join("adapters");
    let tests_file = adapters.join("tracker-adapter-tests.yaml");
    // Build-script output: every input once in the rerun-if-changed lines.
    let outputs: Vec<PathBuf> = std::fs::read_dir(target.join("debug/build"))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|dir| {
            dir.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(&format!("{name}-")))
        })
        .map(|dir| dir.join("output"))
        .filter(|output| output.exists())
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

    // One case expecting another path: `cargo test` fails it with the request diff.
    let cases = std::fs::read_to_string(&tests_file).unwrap()
        + "\n  - name: expects the wrong path\n    tool: get_issue\n    arguments: {project: web, number: 7}\n    request: {method: GET, path: /projects/web/issue/7}\n";
    std::fs::write(&tests_file, cases).unwrap();
    let (ok, stdout, stderr) = run("cargo test", &app, &target);
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

    // `.tests(true)` and no tests file: a warning, not a silent 0 tests.
    std::fs::remove_file(&tests_file).unwrap();
    let (ok, _, stderr) = run("cargo build", &app, &target);
    assert!(ok, "{stderr}");
    assert!(
        stderr.contains("tests(true): no adapter has a `{name}-adapter-tests.yaml` beside it"),
        "{stderr}"
    );

    // A typo that changes meaning: an error, shown once.
    let adapter = adapters.join("tracker-adapter.md");
    let text = std::fs::read_to_string(&adapter).unwrap();
    std::fs::write(
        &adapter,
        text.replacen("required: true", "requried: true", 1),
    )
    .unwrap();
    let (ok, _, stderr) = run("cargo build", &app, &target);
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
    let _ = std::fs::remove_dir_all(&base);
}
