//! The adapter format's own examples (`tests/seed/`, verbatim from its specification)
//! as a user runs them: checked without errors, `pagination: {style: cursor}` with no
//! cursor parameter walking pages, `supports_fields: true` sending `fields`.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};
use toolwright_loopback::Server;
use toolwright_loopback::seed::resources;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_owned()
}

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

#[test]
fn the_formats_own_example_checks_without_errors() {
    let (code, _, err) = toolwright(&["check", "tests/seed"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("0 error(s)"), "{err}");
    assert!(err.contains("ok: 1 API(s), 2 operation(s)"), "{err}");
}

/// `toolwright call` of `list_resources` against `server`, with `extra` arguments.
fn list_resources(server: &Server, extra: &[&str]) -> (i32, String, String) {
    let base_url = format!("resources={}", server.url());
    let mut args = vec![
        "call",
        "tests/seed",
        "--tool",
        "list_resources",
        "--base-url",
        &base_url,
    ];
    args.extend_from_slice(extra);
    toolwright(&args)
}

#[test]
fn cursor_pagination_without_a_cursor_parameter_walks_the_pages() {
    let server = resources();
    let (code, out, err) = list_resources(&server, &["--pages", "10"]);
    assert_eq!(code, 0, "{err}");
    let result: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(result["pages"], 3, "{result}");
    assert_eq!(result["items"].as_array().unwrap().len(), 7);
    assert_eq!(result["complete"], true);
    let queries: Vec<Option<String>> = server
        .requests()
        .iter()
        .map(|r| r.query().map(str::to_owned))
        .collect();
    assert_eq!(
        queries,
        [
            None,
            Some("cursor=c3".to_owned()),
            Some("cursor=c6".to_owned())
        ]
    );
}

#[test]
fn supports_fields_sends_the_fields_asked_for() {
    let server = resources();
    let (code, out, err) = list_resources(&server, &["--args", r#"{"fields": ["id", "title"]}"#]);
    assert_eq!(code, 0, "{err}");
    let requests = server.requests();
    let query = requests[0].query().unwrap().replace("%2C", ",");
    assert_eq!(query, "fields=id,title");
    let result: Value = serde_json::from_str(&out).unwrap();
    let first = &result["data"][0];
    assert_eq!(first, &json!({"id": 0, "title": "r0"}), "{result}");
}

#[test]
fn the_formats_own_example_makes_its_catalog() {
    let (code, out, err) = toolwright(&["catalog", "tests/seed"]);
    assert_eq!(code, 0, "{err}");
    let catalog: Value = serde_json::from_str(&out).unwrap();
    let tools = catalog["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
    assert_eq!(names, ["create_resource", "list_resources"]);
    let create = &tools[0]["inputSchema"];
    assert_eq!(create["required"], json!(["title"]));
    // `pagination: {style: cursor}` and `supports_fields: true` bring their arguments,
    // each described.
    let list = &tools[1]["inputSchema"]["properties"];
    assert_eq!(list["cursor"]["type"], "string", "{list}");
    assert!(list["cursor"]["description"].is_string(), "{list}");
    assert_eq!(list["fields"]["type"], "array", "{list}");
    assert!(list["fields"]["description"].is_string(), "{list}");
}
