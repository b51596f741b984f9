//! The example as a user runs it: adapter tools and derive-based resource tools in one
//! catalog, both called by name.

use std::process::Command;

#[test]
fn example_runs_end_to_end() {
    let out = Command::new(env!("CARGO_BIN_EXE_issue-tracker"))
        .env_remove("TRACKER_TOKEN")
        .output()
        .expect("run the example");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for expected in [
        "- create_Milestone ",
        "- get_issue ",
        "close_issue → {",
        "list_issues_pages → page sizes [2, 2]",
        "list_issues, all pages → 4 issues in 2 pages",
        "create_Milestone → {\"created_at\":\"2026-11-30T12:00:00Z\"",
        "search_Milestone → {\"records\":[{",
        "\"title\":\"Safari and Firefox fixes\"",
        "[\"/milestones\", \"/milestones/search\", \"/milestones/{slug}\"]",
        "create_Milestone without a title → invalid arguments for `create_Milestone`: missing field `title`",
    ] {
        assert!(
            stdout.contains(expected),
            "missing {expected:?} in:\n{stdout}"
        );
    }
}

/// `issue-tracker --mcp` serves the same catalog — adapter tools and the derived
/// Milestone resource — to a real MCP client (the PyPI `mcp` 2.x client driven by
/// `cli/tests/mcp/client.py`), which validates each `structuredContent` against the
/// tool's `outputSchema`.
#[test]
fn the_catalog_is_served_over_mcp() {
    let client =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../cli/tests/mcp/client.py");
    let calls = serde_json::json!([
        ["create_issue", {"project": "web", "title": "Crash on save"}],
        ["get_issue", {"project": "web", "number": 1}],
        ["create_Milestone", {"slug": "v1", "project": "web", "title": "First"}],
        ["get_Milestone", {"slug": "v1"}],
        ["get_Milestone", {"slug": "nope"}],
    ]);
    let out = Command::new("python3")
        .arg(client)
        .args(["--mode", "auto", "--calls", &calls.to_string(), "--"])
        .arg(env!("CARGO_BIN_EXE_issue-tracker"))
        .arg("--mcp")
        .output()
        .expect("python3 with the MCP client (pip install \"mcp>=2.3,<3\")");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let session: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(session["serverInfo"]["name"], "issue-tracker");
    let names: Vec<&str> = session["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"get_issue") && names.contains(&"get_Milestone"),
        "{names:?}"
    );
    let calls = session["calls"].as_array().unwrap();
    assert_eq!(calls[1]["structuredContent"]["title"], "Crash on save");
    assert_eq!(calls[3]["structuredContent"]["title"], "First");
    assert_eq!(calls[4]["isError"], true, "{}", calls[4]);
}
