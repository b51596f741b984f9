//! Selection and search from the command line: `--include`/`--exclude` on every
//! command (one selector syntax with `Config` and `Catalog::select`), and
//! `toolwright search`, on GitHub's real catalog.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn github() -> PathBuf {
    // Named `github.json`: the API is named after the file.
    toolwright_loopback::corpus::big("github.com_api.github.com.json", "github.json")
}

fn toolwright(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_toolwright"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn tools(stdout: &str) -> Vec<Value> {
    let list: Value = serde_json::from_str(stdout).unwrap();
    list["tools"].as_array().unwrap().clone()
}

#[test]
fn the_read_only_subset_of_github_has_only_get_tools() {
    let spec = github();
    let spec = spec.to_str().unwrap();
    let (ok, all, _) = toolwright(&["catalog", spec]);
    assert!(ok);
    let (ok, read_only, err) = toolwright(&["catalog", spec, "--include", "read-only"]);
    assert!(ok, "{err}");
    let (all, read_only) = (tools(&all), tools(&read_only));
    assert_eq!(all.len(), 1223);
    assert!(!read_only.is_empty() && read_only.len() < all.len());
    for tool in &read_only {
        assert_eq!(
            tool["_meta"]["toolwright"]["method"], "GET",
            "{}",
            tool["name"]
        );
        assert_eq!(tool["annotations"]["readOnlyHint"], true);
    }
    // Exactly the GET tools of the whole catalog.
    let gets = all
        .iter()
        .filter(|t| t["_meta"]["toolwright"]["method"] == "GET")
        .count();
    assert_eq!(read_only.len(), gets);
}

#[test]
fn includes_and_excludes_combine_and_bad_selectors_are_named() {
    let spec = github();
    let spec = spec.to_str().unwrap();
    let (ok, out, err) = toolwright(&[
        "catalog",
        spec,
        "--include",
        "tag:issues",
        "--include",
        "op:pulls_merge",
        "--exclude",
        "method:DELETE",
    ]);
    assert!(ok, "{err}");
    let listed: Vec<String> = tools(&out)
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect();
    assert!(listed.contains(&"issues_create".to_owned()));
    assert!(listed.contains(&"pulls_merge".to_owned()));
    assert!(
        !listed.iter().any(|n| n == "issues_remove_label"),
        "a DELETE"
    );
    assert!(
        listed
            .iter()
            .all(|n| n.starts_with("issues_") || n == "pulls_merge")
    );

    let (ok, _, err) = toolwright(&[
        "check",
        spec,
        "--include",
        "verb:get",
        "--exclude",
        "method:GET/1",
    ]);
    assert!(!ok);
    assert!(
        err.contains("selector `verb:get`: unknown kind `verb`"),
        "{err}"
    );
    assert!(err.contains("`GET/1` is no HTTP method"), "{err}");

    let (ok, _, err) = toolwright(&["check", spec, "--include", "tag:no-such-tag"]);
    assert!(ok, "{err}");
    assert!(err.contains("keeps no tool"), "{err}");
}

#[test]
fn generate_emits_only_the_selected_operations() {
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("select-generate");
    let _ = std::fs::remove_dir_all(&out);
    let adapters = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/issue-tracker/adapters");
    let (ok, _, err) = toolwright(&[
        "generate",
        adapters.to_str().unwrap(),
        "--include",
        "read-only",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let entry = std::fs::read_to_string(out.join("toolwright.rs")).unwrap();
    assert!(
        entry.contains("name: ::toolwright::__private::text(\"get_issue\")"),
        "{entry}"
    );
    assert!(!entry.contains("\"delete_issue\""));
    assert!(!entry.contains("\"create_issue\""));
    assert!(out.join("toolwright_search.idx").exists());
}

#[test]
fn search_prints_ranked_tools_and_json() {
    let spec = github();
    let spec = spec.to_str().unwrap();
    let (ok, out, err) = toolwright(&["search", "merge a pull request", spec, "-k", "3"]);
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    let first: Vec<&str> = lines[0].split('\t').collect();
    assert_eq!(first[0], "pulls_merge", "{out}");
    assert!(first[1].parse::<f32>().is_ok());
    assert_eq!(first[2], "Merge a pull request");

    let (ok, out, _) = toolwright(&[
        "search",
        "remove a label from an issue",
        spec,
        "--json",
        "--include",
        "method:DELETE",
    ]);
    assert!(ok);
    let hits: Vec<Value> = serde_json::from_str(&out).unwrap();
    assert_eq!(hits[0]["name"], "issues_remove_label");
    assert!(hits.iter().all(|h| h["method"] == "DELETE"));
    let scores: Vec<f64> = hits.iter().map(|h| h["score"].as_f64().unwrap()).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]));

    // Compact: the top 20 as `name: summary` lines a model can choose from.
    let (ok, out, err) = toolwright(&[
        "search",
        "merge a pull request",
        spec,
        "--compact",
        "--json",
    ]);
    assert!(ok, "{err}");
    let lines: Vec<String> = serde_json::from_str(&out).unwrap();
    assert_eq!(lines.len(), 20, "{out}");
    assert_eq!(lines[0], "pulls_merge: Merge a pull request");
    assert!(
        lines
            .iter()
            .all(|l| toolwright::catalog::compact::estimate_tokens(l) <= 25)
    );
}

/// What a service hands a model API instead of 1,223 tools: the three meta-tools
/// (`catalog --mode meta`), answered with `Executor::call_meta` against the real
/// catalog and a loopback API.
#[test]
fn meta_tools_export_and_answer_through_the_executor() {
    use toolwright_loopback::{Response, Server};
    let spec = github();
    let (ok, out, err) = toolwright(&[
        "catalog",
        spec.to_str().unwrap(),
        "--format",
        "anthropic",
        "--mode",
        "auto",
    ]);
    assert!(ok, "{err}");
    let export: Value = serde_json::from_str(&out).unwrap();
    let listed = names(&export["tools"]);
    assert_eq!(listed, ["call_tool", "describe_tool", "search_tools"]);
    assert_eq!(
        export["tools"][2]["input_schema"]["required"],
        serde_json::json!(["query"])
    );

    let api = Server::start(|req| match req.path() {
        "/repos/octo/hello/pulls/7" => {
            Response::json(200, &serde_json::json!({"number": 7, "state": "open"}))
        }
        _ => Response::json(404, &serde_json::json!({"message": "Not Found"})),
    });
    let analysis = toolwright_codegen::analyze(&[spec], false);
    let catalog = toolwright_cli::interpret::catalog(&analysis.apis).unwrap();
    let executor = toolwright::Executor::builder(catalog)
        .base_url("github", api.url())
        .build()
        .unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let found = executor
            .call_meta("search_tools", serde_json::json!({"query": "merge a pull request", "limit": 3}))
            .await
            .unwrap();
        let listed = names(&found["tools"]);
        assert_eq!(listed[0], "pulls_merge", "{found}");
        assert_eq!(listed.len(), 3);
        assert!(found.get("note").is_none(), "{found}");
        // A request past 4 KiB is read up to there, and the answer says so (#58, F06).
        let long: String = (0..20_000).map(|i| format!(" pad{i}")).collect();
        let found = executor
            .call_meta("search_tools", serde_json::json!({"query": format!("merge a pull request{long}"), "limit": 3}))
            .await
            .unwrap();
        assert_eq!(
            found["note"],
            "the request was read up to its first 4096 bytes; describe the task in fewer words"
        );
        let described = executor
            .call_meta("describe_tool", serde_json::json!({"name": "pulls_get"}))
            .await
            .unwrap();
        assert_eq!(
            described["tool"]["inputSchema"]["required"],
            serde_json::json!(["owner", "repo", "pull_number"])
        );
        let result = executor
            .call_meta(
                "call_tool",
                serde_json::json!({"name": "pulls_get", "arguments": {"owner": "octo", "repo": "hello", "pull_number": 7}}),
            )
            .await
            .unwrap();
        assert_eq!(result["number"], 7);
        // Checked exactly as a direct call: nothing sent.
        let wrong = executor
            .call_meta(
                "call_tool",
                serde_json::json!({"name": "pulls_get", "arguments": {"owner": "octo"}}),
            )
            .await
            .unwrap_err();
        assert_eq!(wrong.code(), "VALIDATION_ARGUMENTS", "{wrong}");
        let unknown = executor
            .call_meta("describe_tool", serde_json::json!({"name": "pulls_gett"}))
            .await
            .unwrap_err();
        assert!(unknown.to_string().contains("pulls_get"), "{unknown}");
        // The semantic endpoints: an operation of the named group runs, another is refused.
        let result = executor
            .call_meta(
                "mcp_aql_read",
                serde_json::json!({"operation": "pulls_get", "params": {"owner": "octo", "repo": "hello", "pull_number": 7}}),
            )
            .await
            .unwrap();
        assert_eq!(result["number"], 7);
        let refused = executor
            .call_meta(
                "mcp_aql_read",
                serde_json::json!({"operation": "pulls_merge", "params": {}}),
            )
            .await
            .unwrap_err();
        assert!(refused.to_string().contains("not a read operation"), "{refused}");
        let bad = executor
            .call_meta("search_tools", serde_json::json!({"query": "x", "limit": 500}))
            .await
            .unwrap_err();
        assert!(bad.to_string().contains("from 1 to 50"), "{bad}");
    });
    assert_eq!(api.requests().len(), 2);
    let (ok, out, err) = toolwright(&[
        "catalog",
        spec_text(),
        "--format",
        "openai",
        "--mode",
        "groups",
    ]);
    assert!(ok, "{err}");
    let export: Value = serde_json::from_str(&out).unwrap();
    let listed = names(&export["tools"]);
    assert_eq!(
        listed,
        [
            "mcp_aql_create",
            "mcp_aql_delete",
            "mcp_aql_read",
            "mcp_aql_update"
        ]
    );
}

fn spec_text() -> &'static str {
    Box::leak(github().to_string_lossy().into_owned().into_boxed_str())
}

/// The `name` of every object in a JSON array.
fn names(list: &Value) -> Vec<&str> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect()
}

/// Words an API's users call its operations by, written as data: `x-toolwright-aliases`
/// on an operation and on a tag (OpenAPI), `aliases` on an adapter operation. The
/// generated catalog's search finds each tool by them, though no text of the tool says
/// them; without them, nothing does.
#[test]
fn aliases_written_as_data_find_their_tools() {
    let dir = std::env::temp_dir().join(format!("toolwright-aliases-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let spec = |aliases: bool| {
        let (op, tag) = if aliases {
            (
                r#""x-toolwright-aliases": ["chargeback"],"#,
                r#", "x-toolwright-aliases": ["top up", "fund"]"#,
            )
        } else {
            ("", "")
        };
        format!(
            r#"{{"openapi": "3.1.0", "info": {{"title": "Pay", "version": "1"}},
              "tags": [{{"name": "topups"{tag}}}],
              "paths": {{
                "/disputes": {{"get": {{"operationId": "list_disputes", {op}
                  "summary": "List disputes", "responses": {{"200": {{"description": "ok"}}}}}}}},
                "/topups": {{"post": {{"operationId": "create_topup", "tags": ["topups"],
                  "summary": "Create a topup", "responses": {{"200": {{"description": "ok"}}}}}}}},
                "/refunds": {{"get": {{"operationId": "list_refunds",
                  "summary": "List refunds", "responses": {{"200": {{"description": "ok"}}}}}}}}
              }}}}"#
        )
    };
    let first = |file: &Path, query: &str| {
        let (ok, out, err) = toolwright(&["search", query, file.to_str().unwrap(), "-k", "1"]);
        assert!(ok, "{err}");
        out.lines()
            .next()
            .map(|l| l.split('\t').next().unwrap_or_default().to_owned())
    };
    let with = dir.join("pay.json");
    std::fs::write(&with, spec(true)).unwrap();
    assert_eq!(
        first(&with, "a chargeback").as_deref(),
        Some("list_disputes")
    );
    assert_eq!(
        first(&with, "fund my account").as_deref(),
        Some("create_topup")
    );
    let without = dir.join("bare").join("pay.json");
    std::fs::create_dir_all(without.parent().unwrap()).unwrap();
    std::fs::write(&without, spec(false)).unwrap();
    assert_eq!(first(&without, "a chargeback"), None);

    // An adapter operation's `aliases`.
    let adapter = dir.join("snips-adapter.md");
    std::fs::write(
        &adapter,
        "---\nname: snips\ntype: adapter\nversion: \"1.0.0\"\ndescription: Code snippets.\n\
         target:\n  base_url: \"https://snips.example.com\"\noperations:\n  create:\n\
         \x20   - name: create_gist\n      maps_to: \"POST /gists\"\n      description: Creates a gist.\n\
         \x20     aliases: [snippet, paste]\n  read:\n    - name: list_files\n\
         \x20     maps_to: \"GET /files\"\n      description: Lists files.\n---\n",
    )
    .unwrap();
    assert_eq!(
        first(&adapter, "save a code snippet").as_deref(),
        Some("create_gist")
    );
    let _ = std::fs::remove_dir_all(&dir);
}
