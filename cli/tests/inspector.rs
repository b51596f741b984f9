//! `toolwright serve` used by the MCP Inspector CLI
//! (`@modelcontextprotocol/inspector@2.12.0`, pinned in `tests/inspector`), over stdio
//! and streamable HTTP, in both protocol eras (its `protocolEra: legacy | modern`),
//! against a loopback API: list the tools (following pagination), a call that succeeds,
//! one that fails upstream, one with invalid arguments.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use serde_json::{Value, json};
use toolwright_loopback::{Response, Server};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_owned()
}

/// Installs the Inspector from its lock file on first use.
fn inspector() -> PathBuf {
    toolwright_loopback::npm_package("inspector", "node_modules/.bin/mcp-inspector").unwrap()
}

struct Serve(Child);

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn serve_args(api: &Server) -> Vec<String> {
    [
        "serve",
        "examples/issue-tracker/adapters",
        "--page-size",
        "2",
        "--base-url",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([format!("tracker={}/api/v1", api.url())])
    .collect()
}

/// Runs one Inspector command; (exit code, stdout JSON, stderr).
fn run(bin: &Path, config: &Path, server: &str, method_args: &[&str]) -> (i32, Value, String) {
    let out = Command::new(bin)
        .args(["--cli", "--config"])
        .arg(config)
        .args(["--server", server, "--format", "json"])
        .args(method_args)
        .current_dir(root())
        .env("TRACKER_TOKEN", "t0ken")
        .output()
        .expect("run the MCP Inspector");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let value = serde_json::from_str(stdout.trim()).unwrap_or_else(|e| {
        panic!("{server} {method_args:?}: not JSON ({e}):\n{stdout}\n{stderr}")
    });
    (out.status.code().unwrap_or(-1), value, stderr)
}

#[test]
fn the_inspector_lists_and_calls_over_both_transports_and_eras() {
    let bin = inspector();
    let api = Server::start(|req| match req.path() {
        "/api/v1/projects/web/issues/7" => Response::json(
            200,
            &json!({"number": 7, "title": "Login fails", "state": "open", "labels": []}),
        ),
        _ => Response::json(404, &json!({"message": "issue not found"})),
    });
    let port = toolwright_loopback::free_port();
    let _http = Serve(
        Command::new(env!("CARGO_BIN_EXE_toolwright"))
            .args(serve_args(&api))
            .args(["--http", &format!("127.0.0.1:{port}")])
            .current_dir(root())
            .env("TRACKER_TOKEN", "t0ken")
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    toolwright_loopback::wait_listening(port, std::time::Duration::from_secs(30), "serve --http")
        .unwrap();
    let stdio = |era: &str| {
        json!({
            "command": env!("CARGO_BIN_EXE_toolwright"),
            "args": serve_args(&api),
            "env": {"TRACKER_TOKEN": "t0ken"},
            "protocolEra": era,
        })
    };
    let http = |era: &str| json!({"type": "streamable-http", "url": format!("http://127.0.0.1:{port}/mcp"), "protocolEra": era});
    let config = json!({"mcpServers": {
        "stdio-legacy": stdio("legacy"), "stdio-modern": stdio("modern"),
        "http-legacy": http("legacy"), "http-modern": http("modern"),
    }});
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("inspector");
    std::fs::create_dir_all(&dir).unwrap();
    let config_path = dir.join("servers.json");
    std::fs::write(&config_path, config.to_string()).unwrap();

    for (server, era) in [
        ("stdio-legacy", "2025-11-25"),
        ("stdio-modern", "2026-07-28"),
        ("http-legacy", "2025-11-25"),
        ("http-modern", "2026-07-28"),
    ] {
        let (code, init, err) = run(&bin, &config_path, server, &["--method", "initialize"]);
        assert_eq!(code, 0, "{server}: {err}");
        assert_eq!(init["result"]["protocolVersion"], era, "{server}");

        // 5 tools in pages of 2: the Inspector follows the cursors.
        let (code, list, err) = run(&bin, &config_path, server, &["--method", "tools/list"]);
        assert_eq!(code, 0, "{server}: {err}");
        let tools = list["result"]["tools"].as_array().unwrap();
        assert_eq!(tools.len(), 5, "{server}: {list}");
        assert!(
            tools
                .iter()
                .all(|t| t["annotations"]["readOnlyHint"].is_boolean())
        );

        let call = |args: &str| {
            run(
                &bin,
                &config_path,
                server,
                &[
                    "--method",
                    "tools/call",
                    "--tool-name",
                    "get_issue",
                    "--tool-args-json",
                    args,
                ],
            )
        };
        let (code, ok, err) = call(r#"{"project": "web", "number": 7}"#);
        assert_eq!(code, 0, "{server}: {err}");
        assert_eq!(
            ok["result"]["structuredContent"]["title"], "Login fails",
            "{server}"
        );
        // The Inspector exits 5 on an isError result.
        let (code, upstream, _) = call(r#"{"project": "web", "number": 404}"#);
        assert_eq!(code, 5, "{server}: {upstream}");
        assert_eq!(upstream["result"]["isError"], true);
        let text = upstream["result"]["content"][0]["text"].as_str().unwrap();
        assert!(text.contains("HTTP 404: issue not found"), "{text}");
        let (code, invalid, _) = call(r#"{"project": "web"}"#);
        assert_eq!(code, 5, "{server}: {invalid}");
        let text = invalid["result"]["content"][0]["text"].as_str().unwrap();
        assert!(
            text.contains("field `number`: missing required field"),
            "{text}"
        );
    }
}
