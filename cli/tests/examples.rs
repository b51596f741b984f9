//! An adapter's usage examples (`{name}-adapter-examples.md`) as a user sees them: in
//! the catalog's `_meta`, as Anthropic `input_examples` (with the export's argument
//! keys), as one `Example:` line where a provider has no slot, in search; and a wrong
//! example fails the check at its line.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_owned()
}

const ADAPTERS: &str = "examples/issue-tracker/adapters";

fn toolwright(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_toolwright"))
        .args(args)
        .current_dir(root())
        .env_clear()
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into(),
        String::from_utf8_lossy(&output.stderr).into(),
    )
}

fn tools(format: &str) -> Vec<Value> {
    let (code, out, err) = toolwright(&["catalog", ADAPTERS, "--format", format]);
    assert_eq!(code, 0, "{err}");
    let value: Value = serde_json::from_str(&out).unwrap();
    let list = value.get("tools").cloned().unwrap_or(value);
    // Gemini groups its declarations: `[{functionDeclarations: [...]}]`.
    list.as_array()
        .unwrap()
        .iter()
        .flat_map(|t| match t.get("functionDeclarations") {
            Some(Value::Array(declared)) => declared.clone(),
            _ => vec![t.clone()],
        })
        .collect()
}

fn tool<'a>(tools: &'a [Value], name: &str) -> &'a Value {
    tools
        .iter()
        .find(|t| t["name"] == name)
        .unwrap_or_else(|| panic!("no {name}"))
}

#[test]
fn examples_reach_the_catalog_and_every_export() {
    let catalog = tools("catalog");
    let examples = &tool(&catalog, "list_issues")["_meta"]["toolwright"]["examples"];
    assert_eq!(
        examples[0],
        json!({"request": "What's still open on the web project?",
               "arguments": {"project": "web", "state": "open"}})
    );
    // The YAML block, as JSON.
    assert_eq!(
        examples[1]["arguments"],
        json!({"project": "web", "state": "closed", "labels": ["bug", "ui"], "fields": ["number", "title"]})
    );
    assert!(
        tool(&catalog, "get_issue")["_meta"]["toolwright"]
            .get("examples")
            .is_none()
    );

    let anthropic = tools("anthropic");
    assert_eq!(
        tool(&anthropic, "create_issue")["input_examples"],
        json!([
            {"project": "web", "title": "Login button does nothing", "labels": ["bug"]},
            {"project": "web", "title": "Checkout crashes", "priority": "urgent", "labels": ["bug"]}
        ])
    );
    assert!(
        tool(&anthropic, "get_issue")
            .get("input_examples")
            .is_none()
    );

    // No slot elsewhere: the first example closes the description, with the keys the
    // export shows and without the nulls a strict schema makes the model send.
    for format in ["openai", "gemini", "mcp"] {
        let exported = tools(format);
        let description = tool(&exported, "close_issue")["description"]
            .as_str()
            .unwrap();
        assert!(
            description.ends_with(
                "\n\nExample: \"Web #42 turned out to be a duplicate, close it\" → {\"number\":42,\"project\":\"web\",\"resolution\":\"duplicate\"}"
            ),
            "{format}: {description}"
        );
    }
}

#[test]
fn an_example_does_not_overrun_the_description_budget() {
    let (code, out, err) = toolwright(&[
        "catalog",
        ADAPTERS,
        "--format",
        "openai",
        "--description-budget",
        "80",
    ]);
    assert_eq!(code, 0, "{err}");
    let value: Value = serde_json::from_str(&out).unwrap();
    let list = value.get("tools").cloned().unwrap_or(value);
    for t in list.as_array().unwrap() {
        let description = t["description"].as_str().unwrap();
        assert!(description.chars().count() <= 80, "{description}");
        assert!(!description.contains("Example:"), "{description}");
    }
}

/// A request phrased like an example brings its tool first; without the examples
/// file, another tool ranks first. (Shows the mechanism on the example adapter; the
/// retrieval benchmarks measure quality.)
#[test]
fn search_finds_a_tool_by_its_examples() {
    let bare = std::env::temp_dir().join(format!("toolwright-examples-{}", std::process::id()));
    std::fs::create_dir_all(&bare).unwrap();
    std::fs::copy(
        root().join(ADAPTERS).join("tracker-adapter.md"),
        bare.join("tracker-adapter.md"),
    )
    .unwrap();
    let first = |dir: &str| {
        let (code, out, err) = toolwright(&["search", "still open on web", dir, "-k", "1"]);
        assert_eq!(code, 0, "{err}");
        out.split('\t').next().unwrap_or_default().to_owned()
    };
    let without = first(bare.to_str().unwrap());
    let _ = std::fs::remove_dir_all(&bare);
    assert_ne!(without, "list_issues");
    assert_eq!(first(ADAPTERS), "list_issues");
}

#[test]
fn a_wrong_example_fails_the_check_at_its_line() {
    let dir = std::env::temp_dir().join(format!("toolwright-bad-examples-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(
        root().join(ADAPTERS).join("tracker-adapter.md"),
        dir.join("tracker-adapter.md"),
    )
    .unwrap();
    std::fs::write(
        dir.join("tracker-adapter-examples.md"),
        "## create_issue\n\nFile it as asap\n\n```json\n{\"project\": \"web\", \"title\": \"Crash\", \"priority\": \"asap\"}\n```\n\n## create_isue\n\nAnything\n\n```json\n{}\n```\n",
    )
    .unwrap();
    let (code, _, err) = toolwright(&["check", dir.to_str().unwrap()]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, 1, "{err}");
    for expected in [
        "error[TW124]: the example's arguments do not fit `create_issue`'s input schema: field `priority`: must be one of \"low\", \"normal\", \"high\", \"urgent\" (enum), found \"asap\"",
        "tracker-adapter-examples.md:6:1",
        "for: File it as asap",
        "error[TW125]: the adapter has no tool `create_isue`",
        "tracker-adapter-examples.md:9:4",
        "did you mean `create_issue`?",
        "2 error(s)",
    ] {
        assert!(err.contains(expected), "{expected}\n{err}");
    }
}
