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
