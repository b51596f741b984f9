//! The official MCP conformance suite against this example: every scored scenario of
//! both requirement sets passes (2025-11-25 with its handshake and sessions,
//! 2026-07-28 stateless), with no expected-failures list, and every scenario of the
//! Tasks extension.

use std::process::{Child, Command, Stdio};
use std::time::Duration;

struct Serving(Child);

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn serve() -> (Serving, String) {
    let port = toolwright_loopback::free_port();
    let child = Command::new(env!("CARGO_BIN_EXE_mcp-conformance"))
        .args(["--http", &format!("127.0.0.1:{port}")])
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let serving = Serving(child);
    toolwright_loopback::wait_listening(port, Duration::from_secs(30), "mcp-conformance").unwrap();
    (serving, format!("http://127.0.0.1:{port}/mcp"))
}

/// Every scored scenario passes, and of the unscored ones (the Tasks extension,
/// scenarios pending in the suite) only those `pending_failures` names fail.
fn passes(requirements: &str, pending_failures: &[&str]) {
    let (_serving, url) = serve();
    let run = toolwright_loopback::conformance::run(&url, requirements, None);
    assert!(
        run.failed.is_empty() && run.passed.len() >= 30,
        "{requirements}: failed {:?}, passed {}\n{}",
        run.failed,
        run.passed.len(),
        run.text
    );
    assert_eq!(run.unscored_failed, pending_failures, "{}", run.text);
}

#[test]
fn every_scored_scenario_of_2025_11_25_passes() {
    passes("2025-11-25", &[]);
}

#[test]
fn every_scored_scenario_of_2026_07_28_and_every_tasks_scenario_passes() {
    passes("2026-07-28", &[]);
}
