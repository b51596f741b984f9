//! `toolwright serve` used by a real MCP client — the PyPI `mcp` 2.x client
//! (`tests/mcp/client.py`; `pip install "mcp>=2.3,<3"`) — over stdio and over
//! streamable HTTP (`--http`), in both protocol eras: its legacy mode (`initialize`,
//! 2025-11-25) and its auto mode (`server/discover`, the stateless 2026-07-28). The
//! tools hit a loopback API.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};
use toolwright_loopback::{Response, Server};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_owned()
}

fn api() -> Server {
    Server::start(|req| match req.path() {
        "/api/v1/projects/web/issues/7" => Response::json(
            200,
            &json!({"number": 7, "title": "Login fails", "state": "open", "labels": ["bug"]}),
        ),
        _ => Response::json(404, &json!({"message": "issue not found"})),
    })
}

/// `toolwright serve` over the example's adapter, against the loopback `api`.
fn serve_args(api: &Server) -> Vec<String> {
    vec![
        "serve".into(),
        "examples/issue-tracker/adapters".into(),
        "--page-size".into(),
        "2".into(),
        "--base-url".into(),
        format!("tracker={}/api/v1", api.url()),
    ]
}

/// A server on streamable HTTP, stopped when dropped.
struct HttpServe(std::process::Child, String);

impl Drop for HttpServe {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn serve_http(api: &Server) -> HttpServe {
    serve_http_with(&serve_args(api))
}

/// `toolwright serve ARGS --http` on a free loopback port.
fn serve_http_with(args: &[String]) -> HttpServe {
    let port = toolwright_loopback::free_port();
    let child = Command::new(env!("CARGO_BIN_EXE_toolwright"))
        .args(args)
        .args(["--http", &format!("127.0.0.1:{port}")])
        .current_dir(root())
        .env("TRACKER_TOKEN", "t0ken")
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    toolwright_loopback::wait_listening(port, std::time::Duration::from_secs(30), "serve --http")
        .unwrap();
    HttpServe(child, format!("http://127.0.0.1:{port}/mcp"))
}

/// Runs `tests/mcp/client.py` with `args` (in the checkout, with the tracker's and the
/// shop's tokens) and returns the session it prints.
fn client(args: &[std::ffi::OsString]) -> Value {
    let output = Command::new("python3")
        .arg(root().join("cli/tests/mcp/client.py"))
        .args(args)
        .current_dir(root())
        .env("TRACKER_TOKEN", "t0ken")
        .env("SHOP_BEARER_AUTH", "user-token")
        .output()
        .expect("python3 with the MCP client (pip install \"mcp>=2.3,<3\")");
    assert!(
        output.status.success(),
        "the MCP client session failed (needs `pip install \"mcp>=2.3,<3\"`):\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

fn os(items: &[&str]) -> Vec<std::ffi::OsString> {
    items.iter().map(Into::into).collect()
}

/// One client session: over stdio (spawning `toolwright serve`), or to `url`.
fn session(mode: &str, api: &Server, calls: &Value, url: Option<&str>) -> Value {
    let mut args = os(&["--mode", mode, "--calls", &calls.to_string()]);
    match url {
        Some(url) => args.extend(os(&["--url", url])),
        None => {
            args.extend(os(&["--", env!("CARGO_BIN_EXE_toolwright")]));
            args.extend(serve_args(api).into_iter().map(Into::into));
        }
    }
    client(&args)
}

#[test]
fn an_mcp_client_lists_and_calls_the_tools() {
    let api = api();
    let calls = json!([
        ["get_issue", {"project": "web", "number": 7}],
        ["get_issue", {"project": "web", "number": 404}],
        ["get_issue", {"project": "web", "number": "seven"}],
    ]);
    let http = serve_http(&api);
    for (mode, url) in [
        ("legacy", None),
        ("auto", None),
        ("legacy", Some(http.1.as_str())),
        ("auto", Some(http.1.as_str())),
    ] {
        let out = session(mode, &api, &calls, url);
        let era = if mode == "legacy" {
            "2025-11-25"
        } else {
            "2026-07-28"
        };
        assert_eq!(out["protocolVersion"], era, "{mode} {url:?}");
        assert_eq!(out["serverInfo"]["name"], "toolwright");
        // 5 tools (the adapter's), 2 per page: the client followed every cursor.
        let tools = out["tools"].as_array().unwrap();
        assert_eq!(out["pages"], 3, "{mode}");
        let listed = names(&out["tools"]);
        assert_eq!(
            listed,
            [
                "close_issue",
                "create_issue",
                "delete_issue",
                "get_issue",
                "list_issues"
            ],
            "{mode}"
        );
        let get = tools.iter().find(|t| t["name"] == "get_issue").unwrap();
        assert_eq!(
            get["annotations"],
            json!({"title": "Get issue", "readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": true})
        );
        assert!(get["inputSchema"].get("$schema").is_none());
        assert_eq!(get["outputSchema"]["type"], "object");
        let [ok, upstream, invalid] = [0, 1, 2].map(|i| &out["calls"][i]);
        // Success: structuredContent (which the client validated against outputSchema).
        assert_eq!(ok["isError"], false, "{ok}");
        assert_eq!(ok["structuredContent"]["title"], "Login fails");
        // Upstream failure: an error result with the status, for the model.
        assert_eq!(upstream["isError"], true, "{upstream}");
        let text = upstream["content"][0]["text"].as_str().unwrap();
        assert!(text.contains("HTTP 404: issue not found"), "{text}");
        // Invalid arguments: an error result naming the field, nothing sent.
        assert_eq!(invalid["isError"], true);
        let text = invalid["content"][0]["text"].as_str().unwrap();
        assert!(
            text.contains("field `number`: expected an integer"),
            "{text}"
        );
    }
    let sent = api.requests();
    assert_eq!(sent.len(), 8, "four sessions, two sent calls each");
    assert!(
        sent.iter()
            .all(|r| r.header("authorization") == Some("Bearer t0ken"))
    );
}

/// `serve` reloads when an input changes: the client is told
/// (`notifications/tools/list_changed`) and sees the new catalog; a broken edit keeps
/// the last good catalog, with its diagnostics on stderr.
#[test]
fn serve_reloads_after_an_edit_and_keeps_the_last_good_catalog() {
    use std::io::{BufRead, BufReader, Write};
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("mcp-reload");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let original =
        std::fs::read_to_string(root().join("examples/issue-tracker/adapters/tracker-adapter.md"))
            .unwrap();
    let adapter = dir.join("tracker-adapter.md");
    std::fs::write(&adapter, &original).unwrap();
    let next = dir.join("next.md");
    std::fs::write(
        &next,
        original.replace("- name: delete_issue", "- name: remove_issue"),
    )
    .unwrap();

    // A real client sees the edit.
    let mut args = os(&["--mode", "legacy", "--edit"]);
    args.extend([next.clone().into(), adapter.clone().into()]);
    args.extend(os(&["--", env!("CARGO_BIN_EXE_toolwright"), "serve"]));
    args.push(adapter.clone().into());
    let session = client(&args);
    let before: Vec<&str> = session["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert!(before.contains(&"delete_issue"), "{before:?}");
    assert_eq!(
        session["relisted"],
        json!([
            "close_issue",
            "create_issue",
            "get_issue",
            "list_issues",
            "remove_issue"
        ])
    );

    // A broken edit: the server keeps serving what it had.
    std::fs::write(&adapter, &original).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolwright"))
        .arg("serve")
        .arg(&adapter)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(700));
    std::fs::write(
        &adapter,
        original.replace("version: \"1.2.0\"", "version: one"),
    )
    .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list"}}"#).unwrap();
    drop(stdin);
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let answer: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(
        answer["result"]["tools"].as_array().unwrap().len(),
        5,
        "{answer}"
    );
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("error[TW107]"), "{stderr}");
    assert!(
        stderr.contains("still serving the last good catalog"),
        "{stderr}"
    );
}

/// A result too long for a model's context is cut when answered over MCP: leading
/// items kept, `truncated: true` (still valid for the output schema, which the client
/// checks), and a note naming the arguments that page the result.
#[test]
fn long_results_are_cut_to_the_budget_with_a_note() {
    let api = Server::start(|_| {
        let issues: Vec<Value> = (1..=300)
            .map(|n| json!({"number": n, "title": format!("Issue number {n}"), "state": "open"}))
            .collect();
        Response::json(200, &Value::Array(issues))
    });
    let session = client(&os(&[
        "--mode",
        "auto",
        "--calls",
        r#"[["list_issues", {"project": "web"}]]"#,
        "--",
        env!("CARGO_BIN_EXE_toolwright"),
        "serve",
        "examples/issue-tracker/adapters",
        "--result-budget",
        "2000",
        "--base-url",
        &format!("tracker={}/api/v1", api.url()),
    ]));
    let call = &session["calls"][0];
    assert_eq!(call["isError"], false, "{call}");
    let structured = &call["structuredContent"];
    assert_eq!(structured["truncated"], true);
    let kept = structured["result"].as_array().unwrap().len();
    assert!(kept > 3 && kept < 300, "{kept}");
    assert_eq!(structured["result"][0]["number"], 1);
    let note = call["content"][1]["text"].as_str().unwrap();
    assert_eq!(
        note,
        format!(
            "The result was cut to fit 2000 characters: `result` to {kept} of 300 items; ask for less with `cursor`, `fields`."
        )
    );
}

/// A slow call reports progress to a client that asked for it (the client passes a
/// progress callback, so its request carries a `progressToken`): over stdio as
/// notifications before the answer, over HTTP as an SSE response that streams them.
#[test]
fn slow_calls_report_progress_over_both_transports() {
    let api = Server::start(|req| {
        std::thread::sleep(std::time::Duration::from_millis(900));
        match req.path() {
            "/api/v1/projects/web/issues/7" => {
                Response::json(200, &json!({"number": 7, "title": "Slow", "state": "open"}))
            }
            _ => Response::json(404, &json!({"message": "issue not found"})),
        }
    });
    let calls = json!([["get_issue", {"project": "web", "number": 7}]]);
    let mut args = serve_args(&api);
    args.extend(["--progress-interval".into(), "200".into()]);
    let http = serve_http_with(&args);
    for (mode, url) in [
        ("legacy", None),
        ("auto", None),
        ("legacy", Some(http.1.as_str())),
    ] {
        let mut client_args = os(&["--mode", mode, "--calls", &calls.to_string()]);
        match url {
            Some(url) => client_args.extend(os(&["--url", url])),
            None => {
                client_args.extend(os(&["--", env!("CARGO_BIN_EXE_toolwright")]));
                client_args.extend(args.iter().map(Into::into));
            }
        }
        let out = client(&client_args);
        assert_eq!(out["calls"][0]["isError"], false, "{mode} {url:?}: {out}");
        let progress = out["progress"][0].as_array().unwrap();
        // One at the start, then one per 200 ms of a 900 ms wait.
        assert!(progress.len() >= 3, "{mode} {url:?}: {progress:?}");
        assert_eq!(
            progress[0][1],
            "calling GET /projects/{project}/issues/{number}"
        );
        let counts: Vec<f64> = progress.iter().map(|p| p[0].as_f64().unwrap()).collect();
        assert!(
            counts.windows(2).all(|w| w[0] < w[1]),
            "increasing: {counts:?}"
        );
    }
}

/// Tools whose results have fields to spare take an optional `fields` argument: the
/// client (which validates `structuredContent` against the output schema) gets only
/// those fields of each item, plus the required ones.
#[test]
fn a_fields_argument_projects_the_result() {
    // `list_issues` declares `supports_fields: true`: its `fields` argument goes to the
    // API (as `fields=a,b`), which answers with those fields only, as such APIs do.
    let api = Server::start(|req| {
        let all = json!([{"number": 1, "title": "One", "state": "open", "labels": ["bug"]},
                         {"number": 2, "title": "Two", "state": "closed", "labels": []}]);
        let fields = req
            .query()
            .and_then(|q| q.split('&').find_map(|p| p.strip_prefix("fields=")))
            .map(|f| f.replace("%2C", ","));
        let Some(fields) = fields else {
            return Response::json(200, &all);
        };
        let kept: Vec<Value> = all
            .as_array()
            .unwrap()
            .iter()
            .map(|item| {
                item.as_object()
                    .unwrap()
                    .iter()
                    .filter(|(k, _)| fields.split(',').any(|f| f == k.as_str()))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect()
            })
            .collect();
        Response::json(200, &Value::Array(kept))
    });
    let calls = json!([["list_issues", {"project": "web", "fields": ["title"]}]]);
    let out = session("legacy", &api, &calls, None);
    let tool = out["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "list_issues")
        .unwrap();
    let offered = &tool["inputSchema"]["properties"]["fields"];
    assert_eq!(offered["type"], "array", "{tool}");
    let call = &out["calls"][0];
    assert_eq!(call["isError"], false, "{call}");
    let items = call["structuredContent"]["result"].as_array().unwrap();
    assert_eq!(items.len(), 2);
    for item in items {
        let keys: Vec<&String> = item.as_object().unwrap().keys().collect();
        assert!(keys.contains(&&"title".to_owned()), "{item}");
        assert!(!keys.contains(&&"labels".to_owned()), "{item}");
    }
    let sent = api.requests();
    assert_eq!(
        sent[0].query().map(|q| q.contains("fields=title")),
        Some(true),
        "{:?}",
        sent[0].query()
    );
}

/// `delete_issue` asks for confirmation (`requires_confirmation` in the adapter). A
/// client that can elicit is asked — over stdio in the handshake era (the server's own
/// `elicitation/create` request), and in the stateless era over stdio and HTTP (an
/// `input_required` result the client answers by calling again) — and the call runs
/// only after a yes. Without the capability, or after a no, nothing is sent.
#[test]
fn confirmations_are_put_to_the_user_as_elicitations() {
    let api = Server::start(|req| match req.method.as_str() {
        "DELETE" => Response {
            status: 204,
            content_type: "application/json".into(),
            body: Vec::new(),
            headers: Vec::new(),
        },
        _ => Response::json(404, &json!({"message": "no"})),
    });
    let calls = json!([["delete_issue", {"project": "web", "number": 7}]]).to_string();
    // Over HTTP a client's answer approves only when the operator trusts its clients
    // (cli/tests/security.rs shows the default refusing).
    let mut trusting = serve_args(&api);
    trusting.push("--trust-client-approval".into());
    let http = serve_http_with(&trusting);
    let deletes = || {
        api.take_requests()
            .iter()
            .filter(|r| r.method == "DELETE")
            .count()
    };
    for (mode, url) in [
        ("legacy", None),
        ("auto", None),
        ("auto", Some(http.1.as_str())),
    ] {
        for answer in [Some("accept"), Some("decline"), None] {
            let mut args = os(&["--mode", mode, "--calls", &calls]);
            if let Some(answer) = answer {
                args.extend(os(&["--elicit", answer]));
            }
            match url {
                Some(url) => args.extend(os(&["--url", url])),
                None => {
                    args.extend(os(&["--", env!("CARGO_BIN_EXE_toolwright")]));
                    args.extend(serve_args(&api).into_iter().map(Into::into));
                }
            }
            let out = client(&args);
            let what = format!("{mode} {url:?} {answer:?}: {out}");
            let call = &out["calls"][0];
            match answer {
                Some("accept") => {
                    assert_eq!(call["isError"], false, "{what}");
                    assert_eq!(deletes(), 1, "{what}");
                    let asked = &out["elicited"][0];
                    assert!(
                        asked["message"].as_str().unwrap().contains("\"number\":7"),
                        "{what}"
                    );
                    assert_eq!(
                        asked["requestedSchema"]["required"],
                        json!(["approve"]),
                        "{what}"
                    );
                }
                _ => {
                    assert_eq!(call["isError"], true, "{what}");
                    assert_eq!(
                        call["_meta"]["toolwright"]["code"], "CONFIRMATION_REQUIRED",
                        "{what}"
                    );
                    assert_eq!(deletes(), 0, "{what}");
                    assert_eq!(
                        out["elicited"].as_array().unwrap().len(),
                        usize::from(answer.is_some()),
                        "{what}"
                    );
                }
            }
        }
    }
}

/// A client session against the GitHub catalog served as meta-tools (`legacy` mode):
/// `search_tools` for `query`, `describe_tool` and `call_tool` with `arguments` on the
/// first hit, against `api`.
fn discover_in_github(api: &Server, query: &str, arguments: &str) -> Value {
    let spec = toolwright_loopback::corpus::big("github.com_api.github.com.json", "github.json");
    let mut args = os(&[
        "--mode",
        "legacy",
        "--discover",
        query,
        arguments,
        "--",
        env!("CARGO_BIN_EXE_toolwright"),
        "serve",
    ]);
    args.push(spec.into());
    args.extend(os(&["--base-url", &format!("github={}", api.url())]));
    client(&args)
}

/// The GitHub catalog (1,223 tools) served as meta-tools, as `auto` does above 128
/// tools: a real MCP client finds a tool by intent, reads its schema and calls it
/// through `call_tool`, against a loopback API.
#[test]
fn a_client_finds_describes_and_calls_a_github_tool_through_meta_tools() {
    let api = Server::start(|req| match req.path() {
        "/user/starred/rust-lang/rust" => Response::text(204, ""),
        _ => Response::json(404, &json!({"message": "Not Found"})),
    });
    let out = discover_in_github(
        &api,
        "check whether I starred a repo",
        r#"{"owner": "rust-lang", "repo": "rust"}"#,
    );
    let listed = names(&out["tools"]);
    assert_eq!(listed, ["call_tool", "describe_tool", "search_tools"]);
    let found = &out["discovered"]["search"]["structuredContent"]["tools"];
    // Exported within MCP's 48-character name budget (called back by that name).
    assert_eq!(
        found[0]["name"], "activity_check_repo_is_starred_0618cd",
        "{found}"
    );
    let tool = &out["discovered"]["describe"]["structuredContent"]["tool"];
    assert_eq!(tool["inputSchema"]["required"], json!(["owner", "repo"]));
    assert_eq!(tool["annotations"]["readOnlyHint"], true);
    let called = &out["discovered"]["call"];
    assert_eq!(called["isError"], false, "{called}");
    let sent = api.requests();
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].method, "GET");
    assert_eq!(sent[0].path(), "/user/starred/rust-lang/rust");
}

/// The GitHub catalog as meta-tools, to a real MCP client: `search_tools` with
/// `detail: "compact"` answers the top 20 as one short line each (about what two full
/// schemas take) and names `describe_tool`, whose answer for the line chosen is the
/// tool's whole definition.
#[test]
fn a_compact_search_lists_twenty_short_lines_and_describe_tool_gives_the_chosen_one() {
    let spec = toolwright_loopback::corpus::big("github.com_api.github.com.json", "github.json");
    let calls = json!([
        ["search_tools", {"query": "get a single gist", "detail": "compact"}],
        ["describe_tool", {"name": "gists_get"}],
    ]);
    let mut args = os(&["--mode", "legacy", "--calls", &calls.to_string(), "--"]);
    args.push(env!("CARGO_BIN_EXE_toolwright").into());
    args.push("serve".into());
    args.push(spec.into());
    args.extend(os(&["--mode", "meta"]));
    let out = client(&args);
    let found = &out["calls"][0]["structuredContent"];
    let lines: Vec<&str> = found["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert_eq!(lines.len(), 20, "{found}");
    assert!(lines[0].starts_with("gists_get: "), "{found}");
    for line in &lines {
        assert!(
            toolwright::catalog::compact::estimate_tokens(line)
                <= toolwright::catalog::compact::LINE_TOKENS,
            "{line}"
        );
        assert!(!line.contains('\n'), "{line}");
    }
    assert!(found["next"].as_str().unwrap().contains("describe_tool"));
    let described = &out["calls"][1]["structuredContent"]["tool"];
    assert_eq!(described["name"], "gists_get");
    assert_eq!(described["inputSchema"]["required"], json!(["gist_id"]));
}

/// A tool whose required input another tool hands out: a real MCP client's
/// `describe_tool` names those producers (the graph's likeliest first), so a model
/// knows to list gists before it gets one.
#[test]
fn describe_tool_names_the_tools_that_produce_a_required_input() {
    let api = Server::start(|req| match req.path() {
        "/gists/aa5a315d61ae9438b18d" => {
            Response::json(200, &json!({"id": "aa5a315d61ae9438b18d", "files": {}}))
        }
        _ => Response::json(404, &json!({"message": "Not Found"})),
    });
    let out = discover_in_github(
        &api,
        "get a single gist",
        r#"{"gist_id": "aa5a315d61ae9438b18d"}"#,
    );
    let found = &out["discovered"]["search"]["structuredContent"]["tools"];
    assert_eq!(found[0]["name"], "gists_get", "{found}");
    let described = &out["discovered"]["describe"]["structuredContent"];
    assert_eq!(
        described["tool"]["inputSchema"]["required"],
        json!(["gist_id"])
    );
    let producers = &described["inputs_from"]["gist_id"];
    assert_eq!(
        producers[0],
        json!({"tool": "gists_list", "from": "/*/id"}),
        "{described}"
    );
    assert!(producers.as_array().unwrap().len() <= 3, "{producers}");
    // The listing entry carries the same, for clients that read `_meta`.
    assert_eq!(
        described["tool"]["_meta"]["io.toolwright/producers"]["gist_id"],
        *producers
    );
    assert_eq!(out["discovered"]["call"]["isError"], false);
}

/// The vault fixture of #61 (containers → items → files; ids named `{containerUuid}` in
/// paths and `id` in results) served to a real MCP client: `describe_tool` names, for
/// each id a file's operation takes, the list and the create that hand it out (the
/// file upload's through its `Location` header), and code mode's `search` declares the
/// same on each argument — a model chains the calls instead of guessing ids.
#[test]
fn a_client_learns_where_each_vault_id_comes_from() {
    let spec = root().join("codegen/tests/contracts/vault.yaml");
    let serve = |mode: &str, calls: Value| {
        let mut args = os(&["--mode", "legacy", "--calls", &calls.to_string(), "--"]);
        args.push(env!("CARGO_BIN_EXE_toolwright").into());
        args.push("serve".into());
        args.push(spec.clone().into());
        args.extend(os(&["--mode", mode, "--no-auth"]));
        client(&args)
    };
    let out = serve("meta", json!([["describe_tool", {"name": "get_file"}]]));
    let described = &out["calls"][0]["structuredContent"];
    let from = |tool: &str, from: &str| json!({"tool": tool, "from": from});
    assert_eq!(
        described["inputs_from"],
        json!({
            "containerUuid": [from("list_containers", "/*/id"), from("create_container", "/id")],
            "itemUuid": [from("list_items", "/*/id"), from("create_item", "/id")],
            "fileUuid": [
                from("list_files", "/data/*/id"),
                from("attach_file", "$response.header.Location"),
            ],
        }),
        "{described}"
    );
    let out = serve(
        "code",
        json!([["search", {"query": "read the details of a file of an item", "limit": 3}]]),
    );
    let found = out["calls"][0]["content"][0]["text"].as_str().unwrap();
    let declared = found
        .split("  function get_file(")
        .nth(1)
        .unwrap_or_else(|| panic!("get_file found: {found}"));
    for line in [
        "containerUuid: string; // from list_containers()[].id, create_container().id\n",
        "itemUuid: string; // from list_items()[].id, create_item().id\n",
        "fileUuid: string; // from list_files().data[].id, attach_file() (its Location header)\n",
    ] {
        assert!(declared.contains(line), "{line} in {found}");
    }
}

/// A request in shorthand, as people type it to an agent ("PR", `#42`, `owner/name`):
/// a real MCP client's `search_tools` finds the tool first, and the call reaches the
/// API with the values the request named.
#[test]
fn a_client_finds_a_tool_from_a_shorthand_request() {
    let api = Server::start(|req| match req.path() {
        "/repos/octo-org/widgets/pulls/42/files" => Response::json(
            200,
            &json!([{"filename": "src/lib.rs", "status": "modified"}]),
        ),
        _ => Response::json(404, &json!({"message": "Not Found"})),
    });
    let out = discover_in_github(
        &api,
        "files changed in PR #42 of octo-org/widgets",
        r#"{"owner": "octo-org", "repo": "widgets", "pull_number": 42}"#,
    );
    let found = &out["discovered"]["search"]["structuredContent"]["tools"];
    assert_eq!(found[0]["name"], "pulls_list_files", "{found}");
    let called = &out["discovered"]["call"];
    assert_eq!(called["isError"], false, "{called}");
    let sent = api.requests();
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].path(), "/repos/octo-org/widgets/pulls/42/files");
}

/// The adapter spec's semantic endpoints: one tool per CRUDE group, `{operation,
/// params}`; an operation of another group is refused without a request.
#[test]
fn groups_mode_serves_one_tool_per_crude_group() {
    let api = api();
    let calls = json!([
        ["mcp_aql_read", {"operation": "get_issue", "params": {"project": "web", "number": 7}}],
        ["mcp_aql_read", {"operation": "delete_issue", "params": {"project": "web", "number": 7}}],
    ]);
    let mut args = os(&["--mode", "legacy", "--calls", &calls.to_string(), "--"]);
    args.push(env!("CARGO_BIN_EXE_toolwright").into());
    args.extend(serve_args(&api).into_iter().map(Into::into));
    args.extend(os(&["--mode", "groups"]));
    let out = client(&args);
    let listed = names(&out["tools"]);
    assert_eq!(
        listed,
        [
            "mcp_aql_create",
            "mcp_aql_delete",
            "mcp_aql_read",
            "mcp_aql_update"
        ]
    );
    let read = &out["tools"][2];
    assert_eq!(read["annotations"]["readOnlyHint"], true);
    assert_eq!(
        read["inputSchema"]["properties"]["operation"]["enum"],
        json!(["get_issue", "list_issues"])
    );
    let [ok, wrong] = [0, 1].map(|i| &out["calls"][i]);
    assert_eq!(ok["isError"], false, "{ok}");
    assert_eq!(ok["structuredContent"]["title"], "Login fails");
    assert_eq!(wrong["isError"], true);
    let text = wrong["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("not a read operation"), "{text}");
    assert_eq!(api.requests().len(), 1);
}

/// The `name` of every object in a JSON array.
/// A legacy session with `toolwright serve tests/openapi/shop.yaml` over stdio, the
/// shop API at `url`, making `calls`.
fn shop_session(calls: &Value, url: &str, extra: &[&str]) -> Vec<std::ffi::OsString> {
    let mut args = os(&["--mode", "legacy", "--calls", &calls.to_string(), "--"]);
    let base_url = format!("shop={url}");
    args.extend(os(&[
        env!("CARGO_BIN_EXE_toolwright"),
        "serve",
        "tests/openapi/shop.yaml",
        "--base-url",
        &base_url,
    ]));
    args.extend(os(extra));
    args
}

fn names(list: &Value) -> Vec<&str> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect()
}

/// Binary results are content blocks of their media type: a PNG an `image` block (the
/// PyPI client parses it as `ImageContent`), a PDF an embedded resource with its
/// `mimeType`; the structured result keeps the base64 text its output schema describes.
#[test]
fn binary_results_are_image_and_resource_content_blocks() {
    let png = [
        0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n', 0, 0, 0, 13,
    ];
    let api = Server::start(move |req| match req.path() {
        "/products/7/image" => Response {
            status: 200,
            content_type: "image/png".into(),
            body: png.to_vec(),
            headers: Vec::new(),
        },
        _ => Response {
            status: 200,
            content_type: "application/pdf".into(),
            body: b"%PDF-1.7\n\xff".to_vec(),
            headers: Vec::new(),
        },
    });
    let calls = json!([
        ["downloadProductImage", {"productId": 7}],
        ["importCatalog", {"body": "name\nSaw\n"}],
    ]);
    let out = client(&shop_session(&calls, &api.url(), &[]));
    let image = &out["calls"][0];
    assert_eq!(image["isError"], false, "{image}");
    assert_eq!(
        image["content"],
        json!([{"type": "image", "data": "iVBORw0KGgoAAAAN", "mimeType": "image/png"}])
    );
    assert_eq!(
        image["structuredContent"],
        json!({"result": "iVBORw0KGgoAAAAN"})
    );
    let pdf = &out["calls"][1];
    assert_eq!(pdf["content"][0]["type"], "resource", "{pdf}");
    assert_eq!(pdf["content"][0]["resource"]["mimeType"], "application/pdf");
    assert_eq!(pdf["content"][0]["resource"]["blob"], "JVBERi0xLjcK/w==");
}

/// A long download reports the bytes received so far, with the `Content-Length` as
/// its total, to a client that asked for progress.
#[test]
fn long_downloads_report_the_bytes_received() {
    use std::io::{BufRead, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        let (socket, _) = listener.accept().unwrap();
        let mut reader = std::io::BufReader::new(socket.try_clone().unwrap());
        let mut line = String::new();
        while reader.read_line(&mut line).unwrap_or(0) > 2 {
            line.clear();
        }
        let mut socket = socket;
        let total = 16 * 8192;
        write!(
            socket,
            "HTTP/1.1 200 OK\r\ncontent-type: image/png\r\ncontent-length: {total}\r\n\r\n"
        )
        .unwrap();
        // 16 pieces, 60 ms apart: about a second in all.
        for _ in 0..16 {
            socket.write_all(&[7; 8192]).unwrap();
            socket.flush().unwrap();
            std::thread::sleep(std::time::Duration::from_millis(60));
        }
    });
    let calls = json!([["downloadProductImage", {"productId": 7}]]);
    let extra = ["--progress-interval", "100", "--result-budget", "400000"];
    let out = client(&shop_session(&calls, &url, &extra));
    assert_eq!(out["calls"][0]["content"][0]["type"], "image", "{out}");
    let progress = out["progress"][0].as_array().unwrap();
    let bytes: Vec<(f64, &str)> = progress
        .iter()
        .filter(|p| p[1].as_str().unwrap().starts_with("received"))
        .map(|p| (p[0].as_f64().unwrap(), p[1].as_str().unwrap()))
        .collect();
    assert!(bytes.len() >= 3, "{progress:?}");
    assert!(
        bytes[0]
            .1
            .contains(" of 131072 bytes from GET /products/{productId}/image"),
        "{bytes:?}"
    );
    assert!(
        bytes.windows(2).all(|w| w[0].0 < w[1].0),
        "increasing: {bytes:?}"
    );
    assert!(bytes.iter().all(|b| b.0 <= 131_072.0), "{bytes:?}");
}

/// Code mode through the PyPI client over stdio: `search` gives declarations, `execute`
/// runs a script that lists, picks, reads and deletes (the deletion put to the user as
/// an elicitation while the script waits), handling a missing issue itself.
#[cfg(feature = "code")]
#[test]
fn code_mode_searches_and_runs_a_script_through_a_real_client() {
    let api = Server::start(|req| match (req.method.as_str(), req.path()) {
        ("GET", "/api/v1/projects/web/issues") => Response::json(
            200,
            &json!([
                {"number": 6, "title": "Typo", "state": "open"},
                {"number": 7, "title": "Login fails", "state": "open"}
            ]),
        ),
        ("GET", "/api/v1/projects/web/issues/7") => Response::json(
            200,
            &json!({"number": 7, "title": "Login fails", "state": "open", "labels": ["bug"]}),
        ),
        ("DELETE", "/api/v1/projects/web/issues/7") => Response::json(
            200,
            &json!({"number": 7, "title": "Login fails", "state": "closed"}),
        ),
        _ => Response::json(404, &json!({"message": "issue not found"})),
    });
    let script = r#"
        // As declared: an array result comes as `{result: [...]}`.
        const open = (await tracker.list_issues({ project: "web" })).result;
        const login = open.find(i => i.title.startsWith("Login"));
        const issue = await tracker.get_issue({ project: "web", number: login.number });
        let missing = null;
        try { await tracker.get_issue({ project: "web", number: 99 }); }
        catch (e) { missing = e.code; }
        await tracker.delete_issue({ project: "web", number: issue.number });
        console.log(`deleted #${issue.number}`);
        return { deleted: issue.number, labels: issue.labels, missing };
    "#;
    let calls = json!([
        ["search", {"query": "remove an issue for good", "limit": 3}],
        ["execute", {"script": script}],
        ["execute", {"script": "while (true) {}"}],
    ]);
    let mut args = os(&[
        "--mode",
        "legacy",
        "--calls",
        &calls.to_string(),
        "--elicit",
        "accept",
    ]);
    args.extend(os(&["--", env!("CARGO_BIN_EXE_toolwright")]));
    args.extend(serve_args(&api).into_iter().map(Into::into));
    args.extend(os(&["--mode", "code", "--script-cpu-ms", "500"]));
    let out = client(&args);
    assert_eq!(names(&out["tools"]), ["execute", "search"], "{out}");
    let found = out["calls"][0]["content"][0]["text"].as_str().unwrap();
    assert!(found.contains("namespace tracker"), "{found}");
    assert!(found.contains("function delete_issue("), "{found}");
    let ran = &out["calls"][1];
    assert_eq!(ran["isError"], false, "{ran}");
    assert_eq!(
        ran["structuredContent"]["result"],
        json!({"deleted": 7, "labels": ["bug"], "missing": "NOT_FOUND_UPSTREAM"}),
        "{ran}"
    );
    assert_eq!(ran["structuredContent"]["logs"], json!(["deleted #7"]));
    let tools: Vec<&str> = ran["structuredContent"]["calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["tool"].as_str().unwrap())
        .collect();
    assert_eq!(
        tools,
        ["list_issues", "get_issue", "get_issue", "delete_issue"]
    );
    // The deletion was asked about, and went out only once approved.
    assert_eq!(out["elicited"].as_array().unwrap().len(), 1, "{out}");
    assert!(api.requests().iter().any(|r| r.method == "DELETE"));
    // A runaway script is an error result the model can read.
    let stuck = &out["calls"][2];
    assert_eq!(stuck["isError"], true, "{stuck}");
    assert_eq!(
        stuck["structuredContent"]["error"]["code"], "LIMIT_CPU",
        "{stuck}"
    );
}

/// Code mode over GitHub's own description (1,223 functions) through the PyPI client,
/// over streamable HTTP: `search` finds the issue functions from a request in words,
/// and one `execute` lists issues across `Link`-header pages, picks one, reads it,
/// closes it and handles a missing one — five requests, one round trip for the model.
#[cfg(feature = "code")]
#[test]
fn code_mode_over_githubs_description_through_a_real_client() {
    let api = Server::start(toolwright_loopback::octo_widgets_issues);
    let spec = toolwright_loopback::corpus::big("github.com_api.github.com.json", "github.json");
    let http = serve_http_with(&[
        "serve".into(),
        spec.display().to_string(),
        "--mode".into(),
        "code".into(),
        "--no-auth".into(),
        "--base-url".into(),
        format!("github={}", api.url()),
    ]);
    let script = r#"
        const where = { owner: "octo-org", repo: "widgets" };
        const open = await github.issues_list_for_repo.all({ ...where, per_page: 2 });
        const crash = open.items.find(i => i.title.startsWith("Crash"));
        const issue = await github.issues_get({ ...where, issue_number: crash.number });
        const closed = await github.issues_update({ ...where, issue_number: issue.number, state: "closed" });
        let missing = null;
        try { await github.issues_get({ ...where, issue_number: 99 }); }
        catch (e) { missing = e.status; }
        return { pages: open.pages, closed: closed.state, missing };
    "#;
    let calls = json!([
        ["search", {"query": "close an issue in my repo", "limit": 5}],
        ["execute", {"script": script}],
    ]);
    let out = client(&os(&[
        "--mode",
        "auto",
        "--calls",
        &calls.to_string(),
        "--url",
        &http.1,
    ]));
    assert_eq!(names(&out["tools"]), ["execute", "search"], "{out}");
    let found = out["calls"][0]["content"][0]["text"].as_str().unwrap();
    assert!(found.contains("declare namespace github {"), "{found}");
    assert!(found.contains("function issues_update("), "{found}");
    let ran = &out["calls"][1];
    assert_eq!(ran["isError"], false, "{ran}");
    assert_eq!(
        ran["structuredContent"]["result"],
        json!({"pages": 2, "closed": "closed", "missing": 404}),
        "{ran}"
    );
    let sent: Vec<String> = api
        .requests()
        .iter()
        .map(|r| format!("{} {}", r.method, r.path()))
        .collect();
    assert_eq!(
        sent,
        [
            "GET /repos/octo-org/widgets/issues",
            "GET /repos/octo-org/widgets/issues",
            "GET /repos/octo-org/widgets/issues/3",
            "PATCH /repos/octo-org/widgets/issues/3",
            "GET /repos/octo-org/widgets/issues/99",
        ]
    );
}

/// An Arazzo workflow over a real API of the corpus (GoDaddy's Shoppers API:
/// `cli/tests/mcp/shoppers.arazzo.yaml`) served to the PyPI client: listed as a tool,
/// and one `tools/call` runs all three steps — create, read back, update — each
/// request carrying what the one before answered.
#[test]
fn one_tool_call_runs_a_whole_arazzo_workflow() {
    let api = Server::start(|req| match (req.method.as_str(), req.path()) {
        ("POST", "/v1/shoppers/subaccount") => {
            Response::json(200, &json!({"shopperId": "s-81", "customerId": "c-1"}))
        }
        ("GET", "/v1/shoppers/s-81") => Response::json(
            200,
            &json!({"shopperId": "s-81", "nameFirst": "Ada", "nameLast": "Lovelace",
                    "email": "ada@example.com", "marketId": "en-GB"}),
        ),
        ("POST", "/v1/shoppers/s-81") => Response::json(200, &json!({"shopperId": "s-81"})),
        _ => Response::json(404, &json!({"message": "no such route"})),
    });
    let inputs = json!({"email": "ada@example.com", "password": "pw-1", "name_first": "Ada",
                        "name_last": "Lovelace", "contact_email": "ada@analytical.example"});
    let calls = json!([["onboard_shopper", inputs]]).to_string();
    let mut args = os(&["--mode", "legacy", "--calls", &calls, "--"]);
    args.push(env!("CARGO_BIN_EXE_toolwright").into());
    args.extend(os(&[
        "serve",
        "cli/tests/mcp/shoppers.arazzo.yaml",
        "--base-url",
        &format!("ote-godaddy_com_shoppers={}", api.url()),
    ]));
    let out = client(&args);
    let tool = out["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "onboard_shopper")
        .unwrap_or_else(|| panic!("no workflow tool in {}", out["tools"]));
    assert_eq!(
        tool["inputSchema"]["required"],
        json!([
            "contact_email",
            "email",
            "name_first",
            "name_last",
            "password"
        ])
    );
    let call = &out["calls"][0];
    assert_eq!(call["isError"], false, "{call}");
    assert_eq!(
        call["structuredContent"],
        json!({"shopper_id": "s-81", "market": "en-GB"})
    );
    let seen = api.take_requests();
    let steps: Vec<(&str, &str)> = seen.iter().map(|r| (r.method.as_str(), r.path())).collect();
    assert_eq!(
        steps,
        [
            ("POST", "/v1/shoppers/subaccount"),
            ("GET", "/v1/shoppers/s-81"),
            ("POST", "/v1/shoppers/s-81"),
        ]
    );
    assert_eq!(
        seen[0].json(),
        json!({"email": "ada@example.com", "password": "pw-1", "nameFirst": "Ada", "nameLast": "Lovelace"})
    );
    assert_eq!(seen[2].json(), json!({"email": "ada@analytical.example"}));
}
