//! GraphQL schemas through the CLI: every syntax error at once and located, references
//! to undefined types named with a suggestion, GitHub's schema (npm
//! `@octokit/graphql-schema`, nobody here wrote it) read in full with nothing lost,
//! and a by-name call with `selection` against graphql-js on loopback.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use toolwright_loopback::graphql::Graphql;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn run(args: &[&str], inputs: &[&Path]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_toolwright"))
        .args(args)
        .args(inputs)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn every_syntax_error_is_reported_at_its_place() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("graphql-broken");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("broken.graphql");
    std::fs::write(
        &file,
        "type Query {\n  a: Strin\n  b(x: Int = ): Int\n}\ntype B { c: Int\n",
    )
    .unwrap();
    let (ok, _, err) = run(&["check"], &[&file]);
    assert!(!ok, "{err}");
    let shown = format!("{}:3:14", file.display());
    assert!(
        err.contains("error[TW141]") && err.contains(&shown),
        "{err}"
    );
    // Both errors at once, and the undefined type as well, with a suggestion.
    assert!(err.matches("error[TW141]").count() >= 2, "{err}");
    assert!(
        err.contains("warning[TW142]: `Query.a` is of type `Strin`")
            && err.contains("did you mean `String`?"),
        "{err}"
    );
    assert!(err.contains(&format!("{}:2:3", file.display())), "{err}");
}

#[test]
fn githubs_schema_is_read_whole() {
    let schema = root().join("tests/graphql/node_modules/@octokit/graphql-schema/schema.graphql");
    toolwright_loopback::npm_package(
        "graphql",
        "node_modules/@octokit/graphql-schema/schema.graphql",
    )
    .expect("npm ci in tests/graphql");
    let sdl = std::fs::read_to_string(&schema).unwrap();
    // Root fields counted by hand from the SDL: descriptions (`"""..."""`) taken
    // out, the lines `  name(` or `  name:` of `type Query` and `type Mutation`.
    let bare: String = sdl.split("\"\"\"").step_by(2).collect::<Vec<_>>().join("");
    let fields = |root: &str| {
        let body = bare.split_once(&format!("\ntype {root} ")).unwrap().1;
        let body = body.split_once("\n}\n").unwrap().0;
        body.lines()
            .filter(|l| {
                let name = l.strip_prefix("  ").unwrap_or("");
                let end = name
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(name.len());
                end > 0 && matches!(name[end..].chars().next(), Some('(' | ':'))
            })
            .count()
    };
    let expected = fields("Query") + fields("Mutation");
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("github-graphql-report.html");
    let (ok, _, err) = run(
        &["report", "--no-exports", "--out", out.to_str().unwrap()],
        &[&schema],
    );
    assert!(ok, "{err}");
    assert!(!err.contains("error["), "{err}");
    let html = std::fs::read_to_string(&out).unwrap();
    let data = toolwright_loopback::report_data(&html);
    assert_eq!(data["rows"].as_array().unwrap().len(), expected);
    let fidelity = &data["fidelity"][0];
    assert_eq!(fidelity["format"], "GraphQL (SDL)");
    for row in fidelity["rows"].as_array().unwrap() {
        assert_eq!(row["lost"], 0, "{row}");
    }
}

#[test]
fn a_call_by_name_with_a_selection() {
    let schema = root().join("tests/graphql/tracker.graphql");
    let server = Graphql::start(&schema).unwrap();
    let base = format!("tracker={}", server.url());
    // The API renamed and its endpoint given as generation would take them.
    let endpoint = format!("issues={}", server.url());
    let (ok, out, err) = run(
        &[
            "call",
            "--tool",
            "query_repository",
            "--args",
            r#"{"owner": "octocat", "name": "tracker", "selection": "issues(first: 5, states: [CLOSED]) { nodes { number title } }"}"#,
            "--api-name",
            "tracker=issues",
            "--graphql-endpoint",
            &endpoint,
        ],
        &[&schema],
    );
    assert!(ok, "{err}");
    assert!(!err.contains("TW134"), "{err}");
    let result: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(result["result"]["issues"]["nodes"][0]["title"], "Docs");
    assert_eq!(result["result"]["name"], "tracker");
    let sent = server.take_requests();
    assert!(
        sent[0]["query"]
            .as_str()
            .unwrap()
            .ends_with("owner { id login name } issues(first: 5, states: [CLOSED]) { nodes { number title } } } }"),
        "{}",
        sent[0]["query"]
    );

    // An error answer: the messages and paths, and a failing exit.
    let (ok, _, err) = run(
        &[
            "call",
            "--tool",
            "query_repository",
            "--args",
            r#"{"owner": "nobody", "name": "x"}"#,
            "--base-url",
            &base,
        ],
        &[&schema],
    );
    assert!(!ok);
    assert!(
        err.contains("GraphQL errors: Could not resolve to a Repository with the name 'nobody/x'. (at repository)"),
        "{err}"
    );
}

#[test]
fn an_mcp_client_calls_graphql_tools_and_their_results_fit_the_output_schemas() {
    let schema = root().join("tests/graphql/tracker.graphql");
    let server = Graphql::start(&schema).unwrap();
    let calls = serde_json::json!([
        ["query_repository", {"owner": "octocat", "name": "tracker"}],
        ["query_repository", {"owner": "octocat", "name": "tracker", "selection": "issues(first: 2) { nodes { title } }"}],
        ["query_search", {"query": "docs"}],
        ["query_node", {"id": "U_1"}],
        ["mutation_closeIssue", {"id": "I_2"}],
        ["query_repository", {"owner": "nobody", "name": "x"}],
    ]);
    // The PyPI MCP client (tests/mcp/client.py) validates each `structuredContent`
    // against the tool's `outputSchema` itself, and fails the session if one does not
    // fit.
    let output = Command::new("python3")
        .arg(root().join("cli/tests/mcp/client.py"))
        .args(["--mode", "legacy", "--calls", &calls.to_string(), "--"])
        .arg(env!("CARGO_BIN_EXE_toolwright"))
        .arg("serve")
        .arg(&schema)
        .arg("--base-url")
        .arg(format!("tracker={}", server.url()))
        .output()
        .expect("python3 with the MCP client (pip install \"mcp>=2.3,<3\")");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let session: Value = serde_json::from_slice(&output.stdout).unwrap();
    let names: Vec<&str> = session["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert!(names.contains(&"query_repository") && names.contains(&"mutation_createIssue"));
    let results = session["calls"].as_array().unwrap();
    for result in &results[..5] {
        assert_eq!(result["isError"], false, "{result}");
        assert!(result.get("structuredContent").is_some(), "{result}");
    }
    assert_eq!(
        results[1]["structuredContent"]["result"]["issues"]["nodes"][1]["title"],
        "Docs"
    );
    assert_eq!(
        results[3]["structuredContent"]["result"]["__typename"],
        "User"
    );
    assert_eq!(results[4]["structuredContent"]["result"], false);
    assert_eq!(results[5]["isError"], true);
    assert!(
        results[5]["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("Could not resolve to a Repository"),
        "{}",
        results[5]
    );
}
