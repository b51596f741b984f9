//! MCP servers as a source, live: the npm servers `@modelcontextprotocol/server-everything`
//! and `server-filesystem` (pinned in `tests/mcp-servers`) are asked for their
//! `tools/list` by `toolwright mcp-snapshot` (the runtime's stdio MCP client), the
//! snapshots are read like any API description (no findings), generate code that a
//! crate compiles with `#![deny(warnings)]`, and their tools are called by name through
//! the runtime's client — real results, the server's own errors, arguments checked
//! before anything is sent, and no credential of the service in the server's
//! environment — over stdio, and over streamable HTTP.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_owned()
}

/// The servers' entry points, installed from the lock file on first use.
fn servers() -> (String, String) {
    let package = |name: &str| {
        toolwright_loopback::npm_package(
            "mcp-servers",
            &format!("node_modules/@modelcontextprotocol/{name}/dist/index.js"),
        )
        .unwrap()
    };
    let everything = package("server-everything");
    let filesystem = package("server-filesystem");
    (
        everything.display().to_string(),
        filesystem.display().to_string(),
    )
}

fn toolwright(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_toolwright"))
        .args(args)
        .env("SERVICE_API_TOKEN", "sk_live_service_secret_1234")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

struct Live {
    dir: PathBuf,
    everything: String,
    filesystem: String,
    files: PathBuf,
}

fn live(name: &str) -> Live {
    let (everything, filesystem) = servers();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("mcp-source-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    let files = dir.join("files");
    std::fs::create_dir_all(&files).unwrap();
    std::fs::write(files.join("notes.txt"), "first line\nsecond line\n").unwrap();
    let files = files.canonicalize().unwrap();
    for (api, command) in [
        ("everything", vec!["node", &everything, "stdio"]),
        (
            "filesystem",
            vec!["node", &filesystem, files.to_str().unwrap()],
        ),
    ] {
        let out = dir.join(format!("{api}.json"));
        let mut args = vec!["mcp-snapshot", "--out", out.to_str().unwrap(), "--"];
        args.extend(command);
        let (code, _, err) = toolwright(&args);
        assert_eq!(code, 0, "{err}");
    }
    Live {
        dir,
        everything,
        filesystem,
        files,
    }
}

#[test]
fn live_tools_lists_become_catalogs_and_compiling_clients() {
    let live = live("generate");
    let everything = live.dir.join("everything.json");
    let filesystem = live.dir.join("filesystem.json");
    let snapshot: Value = serde_json::from_slice(&std::fs::read(&everything).unwrap()).unwrap();
    assert_eq!(snapshot["serverInfo"]["name"], "mcp-servers/everything");
    assert!(snapshot["tools"].as_array().unwrap().len() >= 10);
    assert!(
        !snapshot["prompts"].as_array().unwrap().is_empty(),
        "prompts recorded"
    );

    for spec in [&everything, &filesystem] {
        let (code, _, err) = toolwright(&["check", spec.to_str().unwrap()]);
        assert_eq!(code, 0, "{err}");
        assert!(!err.contains("warning[TW"), "{err}");
    }
    // Annotations as the server declared them; names made safe; the original kept.
    let (_, out, _) = toolwright(&["catalog", everything.to_str().unwrap()]);
    let catalog: Value = serde_json::from_str(&out).unwrap();
    let tool = |name: &str| {
        catalog["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == name)
            .unwrap_or_else(|| panic!("{name}"))
            .clone()
    };
    let sum = tool("get_sum");
    assert_eq!(sum["annotations"]["readOnlyHint"], true);
    assert_eq!(sum["annotations"]["openWorldHint"], false);
    assert_eq!(
        sum["_meta"]["toolwright"]["native"]["x-mcp-tool"]["name"],
        "get-sum"
    );
    assert_eq!(
        sum["inputSchema"]["required"],
        serde_json::json!(["a", "b"])
    );
    let structured = tool("get_structured_content");
    assert!(structured["outputSchema"]["properties"]["temperature"].is_object());

    // A crate that uses both generated clients, warnings denied.
    let generated = live.dir.join("generated");
    let (code, _, err) = toolwright(&[
        "generate",
        everything.to_str().unwrap(),
        filesystem.to_str().unwrap(),
        "--out",
        generated.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let krate = live.dir.join("crate");
    std::fs::create_dir_all(krate.join("src")).unwrap();
    std::fs::write(
        krate.join("Cargo.toml"),
        format!(
            "[package]\nname = \"mcp_source\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\n\
             [dependencies]\ntoolwright = {{ path = {:?}, default-features = false }}\n\n[workspace]\n",
            root().join("runtime").display().to_string()
        ),
    )
    .unwrap();
    std::fs::write(
        krate.join("src/lib.rs"),
        format!(
            "#![deny(warnings)]\npub mod api {{ include!({:?}); }}\n\
             pub async fn sum(client: &api::everything::Client) -> Result<::toolwright::__private::serde_json::Value, ::toolwright::Error> {{\n\
             \x20   client.get_sum(&api::everything::GetSumInput::new(1.0, 2.0)).await\n}}\n\
             pub async fn weather(client: &api::everything::Client) -> Option<f64> {{\n\
             \x20   let input = api::everything::GetStructuredContentInput::new(api::everything::GetStructuredContentInputLocation::Chicago);\n\
             \x20   client.get_structured_content(&input).await.ok().map(|w| w.temperature)\n}}\n",
            generated.join("toolwright.rs").display().to_string()
        ),
    )
    .unwrap();
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| root().join("target"), PathBuf::from)
        .join("mutants");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["check", "--quiet", "--message-format", "short"])
        .current_dir(&krate)
        .env("CARGO_TARGET_DIR", target)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn tools_are_called_through_the_runtime_mcp_client() {
    let live = live("call");
    let everything = live.dir.join("everything.json");
    let filesystem = live.dir.join("filesystem.json");
    let server = format!("everything=node {} stdio", live.everything);
    let call = |spec: &Path, server: &str, tool: &str, args: &str| {
        toolwright(&[
            "call",
            spec.to_str().unwrap(),
            "--mcp-server",
            server,
            "--tool",
            tool,
            "--args",
            args,
        ])
    };

    let (code, out, err) = call(
        &everything,
        &server,
        "echo",
        r#"{"message": "hello, server"}"#,
    );
    assert_eq!(code, 0, "{err}");
    let result: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(result["content"][0]["text"], "Echo: hello, server");

    // A declared output schema: the structured content is the result.
    let (code, out, err) = call(
        &everything,
        &server,
        "get_structured_content",
        r#"{"location": "Chicago"}"#,
    );
    assert_eq!(code, 0, "{err}");
    let result: Value = serde_json::from_str(&out).unwrap();
    assert!(result["temperature"].is_number(), "{result}");

    // Arguments are checked against the server's schema before it is even started.
    let (code, _, err) = call(
        &everything,
        "everything=/nonexistent/server",
        "get_sum",
        r#"{"a": "one", "b": 2}"#,
    );
    assert_eq!(code, 1);
    assert!(err.contains("`a`"), "{err}");
    assert!(!err.contains("cannot start"), "{err}");

    // The server never sees the service's credentials (only PATH, HOME, ...).
    let (code, out, err) = call(&everything, &server, "get_env", "{}");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("PATH"), "{out}");
    assert!(!out.contains("sk_live_service_secret_1234"), "{out}");
    assert!(!out.contains("SERVICE_API_TOKEN"), "{out}");

    // A second server, its real results and its own refusals.
    let server = format!(
        "filesystem=node {} {}",
        live.filesystem,
        live.files.display()
    );
    let path = live.files.join("notes.txt");
    let (code, out, err) = call(
        &filesystem,
        &server,
        "read_text_file",
        &format!(r#"{{"path": {:?}}}"#, path.display().to_string()),
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("first line"), "{out}");
    let (code, _, err) = call(
        &filesystem,
        &server,
        "read_text_file",
        r#"{"path": "/etc/passwd"}"#,
    );
    assert_eq!(code, 1);
    assert!(err.contains("outside allowed directories"), "{err}");

    // A server that never answers: the call's timeout holds.
    let started = std::time::Instant::now();
    let (code, _, err) = toolwright(&[
        "call",
        everything.to_str().unwrap(),
        "--mcp-server",
        "everything=sleep 30",
        "--timeout",
        "1",
        "--tool",
        "echo",
        "--args",
        r#"{"message": "x"}"#,
    ]);
    assert_eq!(code, 1);
    assert!(
        err.contains("did not answer `initialize`") || err.contains("took longer"),
        "{err}"
    );
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );

    // No server given: the error says how to give one.
    let (code, _, err) = toolwright(&[
        "call",
        everything.to_str().unwrap(),
        "--tool",
        "echo",
        "--args",
        r#"{"message": "x"}"#,
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("--mcp-server everything=COMMAND"), "{err}");
}

/// `Config::mcp_server`: build.rs records the live server into a snapshot and builds
/// from it; a server that cannot run falls back to the snapshot (a warning), and with no
/// snapshot either generation fails saying so.
#[test]
fn build_scripts_record_a_live_server_and_fall_back_to_the_snapshot() {
    let (everything, _) = servers();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("mcp-source-config");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let snapshot = dir.join("everything.json");
    let generate = |program: &str, args: Vec<String>| {
        toolwright_codegen::Config::new()
            .mcp_server(&snapshot, program, args)
            .mcp_timeout(std::time::Duration::from_secs(20))
            .out_dir(dir.join("out"))
            .cargo_directives(false)
            .generate()
    };
    let live = generate("node", vec![everything, "stdio".into()]).unwrap();
    assert!(
        live.files.contains(&"everything.rs".to_owned()),
        "{:?}",
        live.files
    );
    let recorded: Value = serde_json::from_slice(&std::fs::read(&snapshot).unwrap()).unwrap();
    assert!(recorded["tools"].as_array().unwrap().len() >= 10);
    assert!(live.warnings.is_empty(), "{}", live.warnings);

    let offline = generate("/nonexistent/mcp-server", Vec::new()).unwrap();
    assert!(
        offline.warnings.contains("could not be recorded"),
        "{}",
        offline.warnings
    );
    assert!(offline.files.contains(&"everything.rs".to_owned()));

    std::fs::remove_file(&snapshot).unwrap();
    let err = generate("/nonexistent/mcp-server", Vec::new()).unwrap_err();
    assert!(err.to_string().contains("there is no snapshot"), "{err}");
}

/// `server-everything` serving streamable HTTP on a free loopback port; stopped when
/// dropped.
struct HttpServer {
    child: std::process::Child,
    port: u16,
}

impl HttpServer {
    fn start(everything: &str, port: u16) -> HttpServer {
        let child = Command::new("node")
            .args([everything, "streamableHttp"])
            .env("PORT", port.to_string())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        toolwright_loopback::wait_listening(
            port,
            std::time::Duration::from_secs(30),
            "server-everything (streamable HTTP)",
        )
        .unwrap();
        HttpServer { child, port }
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}/mcp", self.port)
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn tools_are_called_over_streamable_http() {
    let live = live("http");
    let everything = live.dir.join("everything.json");
    let port = toolwright_loopback::free_port();
    let server = HttpServer::start(&live.everything, port);

    // The CLI: a URL instead of a command.
    let (code, out, err) = toolwright(&[
        "call",
        everything.to_str().unwrap(),
        "--mcp-server",
        &format!("everything={}", server.url()),
        "--tool",
        "echo",
        "--args",
        r#"{"message": "over http"}"#,
    ]);
    assert_eq!(code, 0, "{err}");
    let result: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(result["content"][0]["text"], "Echo: over http");

    // The runtime: one session for several calls, and a new one when the server
    // forgets it (restarted on the same port).
    let analysis = toolwright_codegen::analyze(std::slice::from_ref(&everything), false);
    let catalog = toolwright_cli::interpret::catalog(&analysis.apis).unwrap();
    let executor = toolwright::Executor::builder(catalog)
        .mcp_http("everything", &server.url())
        .build()
        .unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let sum = executor
            .call("get_sum", serde_json::json!({"a": 2, "b": 3}))
            .await
            .unwrap();
        assert!(sum.to_string().contains('5'), "{sum}");
        let weather = executor
            .call(
                "get_structured_content",
                serde_json::json!({"location": "Chicago"}),
            )
            .await
            .unwrap();
        assert!(weather["temperature"].is_number(), "{weather}");
    });
    drop(server);
    let server = HttpServer::start(&live.everything, port);
    runtime.block_on(async {
        let echo = executor
            .call("echo", serde_json::json!({"message": "again"}))
            .await
            .unwrap();
        assert_eq!(echo["content"][0]["text"], "Echo: again");
        // Arguments are checked before anything is sent.
        let err = executor
            .call("get_sum", serde_json::json!({"a": "two", "b": 3}))
            .await
            .unwrap_err();
        assert!(
            matches!(err, toolwright::Error::InvalidArguments { .. }),
            "{err}"
        );
    });
    drop(server);

    // Plain http to another host is refused when the executor is built.
    let catalog = toolwright_cli::interpret::catalog(&analysis.apis).unwrap();
    let refused = toolwright::Executor::builder(catalog)
        .mcp_http("everything", "http://mcp.example.com/mcp")
        .build()
        .unwrap_err();
    assert!(
        refused
            .to_string()
            .contains("the MCP server of `everything`"),
        "{refused}"
    );
}

/// A snapshot's prompts and resources are served next to its tools, and getting or
/// reading one is passed on to the live server (`--mcp-server`), over stdio here.
#[test]
fn a_snapshots_prompts_and_resources_are_served_through_the_live_server() {
    use std::io::{BufRead, BufReader, Write};
    let live = live("proxy");
    let everything = live.dir.join("everything.json");
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolwright"))
        .args(["serve", everything.to_str().unwrap(), "--mcp-server"])
        .arg(format!("everything=node {} stdio", live.everything))
        .current_dir(root())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut ask = |id: u64, method: &str, params: Value| -> Value {
        let message =
            serde_json::json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        writeln!(stdin, "{message}").unwrap();
        loop {
            let mut line = String::new();
            assert!(stdout.read_line(&mut line).unwrap() > 0, "serve ended");
            let answer: Value = serde_json::from_str(&line).unwrap();
            if answer["id"] == id {
                return answer;
            }
        }
    };
    let init = ask(
        1,
        "initialize",
        serde_json::json!({"protocolVersion": "2025-11-25",
        "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
    );
    let capabilities = &init["result"]["capabilities"];
    assert!(
        capabilities["prompts"].is_object() && capabilities["resources"].is_object(),
        "{init}"
    );
    let prompts = ask(2, "prompts/list", serde_json::json!({}));
    let names: Vec<&str> = prompts["result"]["prompts"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["name"].as_str())
        .collect();
    assert!(names.contains(&"args-prompt"), "{prompts}");
    let got = ask(
        3,
        "prompts/get",
        serde_json::json!({"name": "args-prompt", "arguments": {"city": "Lyon"}}),
    );
    let text = got["result"]["messages"][0]["content"]["text"]
        .as_str()
        .unwrap_or_default();
    assert!(text.contains("Lyon"), "{got}");
    // A required argument missing is refused here, before the live server is asked.
    let short = ask(4, "prompts/get", serde_json::json!({"name": "args-prompt"}));
    assert_eq!(short["error"]["code"], -32602, "{short}");
    let resources = ask(5, "resources/list", serde_json::json!({}));
    let uri = resources["result"]["resources"][0]["uri"]
        .as_str()
        .unwrap()
        .to_owned();
    let read = ask(6, "resources/read", serde_json::json!({"uri": uri}));
    assert_eq!(read["result"]["contents"][0]["uri"], uri.as_str(), "{read}");
    drop(stdin);
    let _ = child.wait();
}
