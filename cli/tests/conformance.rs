//! The official MCP conformance suite (`@modelcontextprotocol/conformance`, pinned in
//! `tests/conformance`, run on the Node 24 of `tests/node`) against `toolwright serve
//! --http` of the example adapter, by requirement set (2025-11-25 and 2026-07-28),
//! without authorization and with a bearer token: every scored scenario passes except
//! those that need the suite's own fixtures — tools (`test_simple_text`,
//! `test_input_required_result_*`...), prompts (`test_prompt_with_arguments`, which
//! completions are asked about) and resources at `test://` URIs — which a server of
//! API tools does not have. `examples/mcp-conformance` implements those with the same
//! public API and passes every scored scenario (its `tests/suite.rs`).
//!
//! The suite's client sends no credentials; for the run with authorization,
//! `tests/conformance/bearer.mjs` (loaded with `node --import`) adds the token to each
//! request it makes.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// The scored scenarios that ask for the suite's fixtures (each fails only on them).
const NEED_FIXTURES: [&str; 27] = [
    "server-stateless", // `test_missing_capability`, `test_logging_tool`, ...
    "completion-complete",
    "logging-set-level", // logging is declared by servers whose tools log
    "caching",           // asks `prompts/list`, which needs prompts
    "json-schema-2020-12",
    "tools-call-simple-text",
    "tools-call-image",
    "tools-call-audio",
    "tools-call-embedded-resource",
    "tools-call-mixed-content",
    "tools-call-with-logging",
    "tools-call-error",
    "tools-call-with-progress",
    "tools-call-sampling",
    "tools-call-elicitation",
    "elicitation-sep1034-defaults",
    "elicitation-sep1330-enums",
    "resources-read-text",
    "resources-read-binary",
    "resources-templates-read",
    "resources-subscribe",
    "resources-unsubscribe",
    "prompts-list",
    "prompts-get-simple",
    "prompts-get-with-args",
    "prompts-get-embedded-resource",
    "prompts-get-with-image",
];

/// Also fixture-bound, by prefix: the input_required fixtures.
const NEED_FIXTURES_PREFIX: &str = "input-required-result-";

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

/// Runs `requirements` and checks that only fixture-bound scenarios failed (and that
/// the run did reach the server: `tools-list` passed).
fn only_fixture_scenarios_fail(url: &str, requirements: &str, bearer: Option<&str>) {
    let run = toolwright_loopback::conformance::run(url, requirements, bearer);
    let unexpected: Vec<&String> = run
        .failed
        .iter()
        .filter(|name| {
            !NEED_FIXTURES.contains(&name.as_str()) && !name.starts_with(NEED_FIXTURES_PREFIX)
        })
        // With authorization a rebound page has no token to present: the suite says
        // the scenario applies to loopback servers without it.
        .filter(|name| bearer.is_none() || name.as_str() != "dns-rebinding-protection")
        .collect();
    assert!(
        unexpected.is_empty() && run.passed.iter().any(|n| n == "tools-list"),
        "{requirements}: failed beyond the fixtures {unexpected:?}; passed {:?}\n{}",
        run.passed,
        run.text
    );
}

#[test]
fn every_scenario_that_does_not_need_the_suites_fixtures_passes() {
    let (_serving, url) = serve(&[], &[]);
    for requirements in ["2025-11-25", "2026-07-28"] {
        only_fixture_scenarios_fail(&url, requirements, None);
    }
}

#[test]
fn they_pass_with_a_bearer_token_too_and_fail_without_one() {
    let token = "conformance-token-0123456789";
    let (_serving, url) = serve(
        &["--auth-token", "conformance=CONFORMANCE_TOKEN"],
        &[("CONFORMANCE_TOKEN", token)],
    );
    for requirements in ["2025-11-25", "2026-07-28"] {
        only_fixture_scenarios_fail(&url, requirements, Some(token));
    }
    // The server does want the token: a scenario without it fails, and with another
    // one too.
    let scenario = |bearer| {
        toolwright_loopback::conformance::scenario(&url, "tools-list", "2025-11-25", bearer)
    };
    let (passed, text) = scenario(None);
    assert!(!passed, "tools-list passed without a token:\n{text}");
    let (passed, text) = scenario(Some("not-the-token-0123456789"));
    assert!(!passed, "tools-list passed with a wrong token:\n{text}");
    let (passed, text) = scenario(Some(token));
    assert!(passed, "tools-list with the token:\n{text}");
}
