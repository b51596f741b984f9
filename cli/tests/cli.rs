//! The `toolwright` binary as a user runs it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};
use toolwright_loopback::{Response, Server};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_owned()
}

fn toolwright(args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_toolwright"));
    cmd.args(args).current_dir(root()).env_clear();
    cmd
}

fn run(cmd: &mut Command) -> (i32, String, String) {
    let Output {
        status,
        stdout,
        stderr,
    } = cmd.output().expect("run toolwright");
    (
        status.code().unwrap_or(-1),
        String::from_utf8_lossy(&stdout).into(),
        String::from_utf8_lossy(&stderr).into(),
    )
}

#[test]
fn check_reports_and_sets_exit_codes() {
    let (code, _, err) = run(&mut toolwright(&["check", "tests/adapters"]));
    assert_eq!(code, 0, "{err}");
    assert!(err.ends_with("ok: 3 API(s), 10 operation(s)\n"), "{err}");

    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-check");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("bad-adapter.md"),
        "---\nname: bad\ntype: adapter\nversion: \"1\"\ndescription: d\ntarget: {base_url: \"https://x.example\"}\noperations: {}\n---\n",
    )
    .unwrap();
    let (code, _, err) = run(&mut toolwright(&["check", dir.to_str().unwrap()]));
    assert_eq!(code, 1);
    assert!(
        err.contains("error[TW107]: `1` is not a semantic version"),
        "{err}"
    );
    assert!(
        err.contains("error[TW110]: the adapter declares no operations"),
        "{err}"
    );
    assert!(err.contains("2 error(s), 3 warning(s)"), "{err}");

    let (code, _, err) = run(&mut toolwright(&[
        "check",
        "--strict",
        "examples/issue-tracker/adapters",
    ]));
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run(&mut toolwright(&["check", "nope/missing-adapter.md"]));
    assert_eq!(code, 1);
    assert!(
        err.contains("error[TW128]: input `nope/missing-adapter.md` does not exist"),
        "{err}"
    );
    let (code, _, err) = run(&mut toolwright(&["frobnicate", "x"]));
    assert_eq!(code, 2);
    assert!(
        err.contains("unrecognized subcommand 'frobnicate'"),
        "{err}"
    );
}

#[test]
fn help_version_and_usage_errors_follow_the_conventions() {
    for args in [&["--help"][..], &["-h"], &["help"]] {
        let (code, out, err) = run(&mut toolwright(args));
        assert_eq!(code, 0, "{args:?}: {err}");
        for command in ["check", "catalog", "generate", "call"] {
            assert!(out.contains(command), "{args:?} lists `{command}`: {out}");
        }
        assert!(
            out.contains("OpenAPI"),
            "usage mentions OpenAPI documents: {out}"
        );
        assert!(out.contains("Exit codes: 0 success; 1"), "{out}");
    }
    let (code, out, _) = run(&mut toolwright(&["--version"]));
    assert_eq!(code, 0);
    assert_eq!(out, format!("toolwright {}\n", env!("CARGO_PKG_VERSION")));
    for command in ["check", "catalog", "generate", "call"] {
        for args in [vec![command, "--help"], vec!["help", command]] {
            let (code, out, err) = run(&mut toolwright(&args));
            assert_eq!(code, 0, "{args:?}: {err}");
            assert!(
                out.contains(&format!("Usage: toolwright {command}")),
                "{args:?}: {out}"
            );
            assert!(out.contains("--strict"), "{args:?}: {out}");
        }
    }
    let (_, out, _) = run(&mut toolwright(&["check", "--help"]));
    assert!(
        out.contains("--format <FORMAT>") && out.contains("[possible values: human, json]"),
        "{out}"
    );
    // Usage errors exit with 2 and say what is wrong.
    for (args, says) in [
        (
            &["check"][..],
            "the following required arguments were not provided",
        ),
        (
            &["check", "--frmat", "json", "x"],
            "unexpected argument '--frmat'",
        ),
        (&["check", "--format", "xml", "x"], "invalid value 'xml'"),
        (&["generate", "x"], "--out <DIR>"),
        (
            &["call", "x", "--tool", "t", "--base-url", "nourl"],
            "expected API=URL",
        ),
    ] {
        let (code, _, err) = run(&mut toolwright(args));
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    let bad = "nope/missing-adapter.md";
    let (_, _, plain) = run(&mut toolwright(&["check", bad]));
    assert!(
        !plain.contains('\u{1b}'),
        "not a terminal: no colour: {plain:?}"
    );
    let (_, _, coloured) = run(&mut toolwright(&["--color", "always", "check", bad]));
    assert!(coloured.contains("\u{1b}["), "{coloured:?}");
    let (_, _, never) = run(toolwright(&["--color", "never", "check", bad]).env("NO_COLOR", "1"));
    assert!(!never.contains('\u{1b}'));
}

/// `check --format json` for editors and CI: validated against the schema that ships
/// with the CLI (`cli/diagnostics.schema.json`) by Python's `jsonschema`.
#[test]
fn check_as_json_matches_its_schema() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-json");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("bad-adapter.md"),
        "---\nname: bad\ntype: adapter\nversion: \"1\"\ndescription: d\ntarget: {base_url: \"https://x.example\"}\noperations: {}\n---\n",
    )
    .unwrap();
    let (code, out, _) = run(&mut toolwright(&[
        "check",
        "--format",
        "json",
        dir.to_str().unwrap(),
    ]));
    assert_eq!(code, 1);
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["errors"], 2);
    let first = &report["diagnostics"][0];
    assert_eq!(first["severity"], "error");
    assert!(first["code"].as_str().unwrap().starts_with("TW1"));
    assert!(first["line"].as_u64().unwrap() >= 1);
    let (code, out, _) = run(&mut toolwright(&[
        "check",
        "--format",
        "json",
        "tests/adapters",
    ]));
    assert_eq!(code, 0);
    assert_eq!(serde_json::from_str::<Value>(&out).unwrap()["errors"], 0);
    // The shipped schema accepts both reports.
    let schema = root().join("cli/diagnostics.schema.json");
    let script = "import json,sys,jsonschema\nschema=json.load(open(sys.argv[1]))\njsonschema.Draft202012Validator.check_schema(schema)\nfor p in sys.argv[2:]:\n    jsonschema.validate(json.load(open(p)), schema, cls=jsonschema.Draft202012Validator)\n";
    let report_file = dir.join("report.json");
    std::fs::write(&report_file, &out).unwrap();
    let failing = dir.join("failing.json");
    let (_, failing_out, _) = run(&mut toolwright(&[
        "check",
        "--format",
        "json",
        dir.to_str().unwrap(),
    ]));
    std::fs::write(&failing, failing_out).unwrap();
    let checked = Command::new("python3")
        .args(["-c", script])
        .arg(&schema)
        .arg(&report_file)
        .arg(&failing)
        .output()
        .expect("python3 is needed (with `pip install jsonschema`)");
    assert!(
        checked.status.success(),
        "the report does not match cli/diagnostics.schema.json (needs `pip install jsonschema`):\n{}",
        String::from_utf8_lossy(&checked.stderr)
    );
}

#[test]
fn inputs_that_hold_nothing_or_misspell_a_field_are_errors() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-inputs");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    std::fs::write(dir.join("empty/notes.md"), "# not an adapter\n").unwrap();
    let (code, _, err) = run(&mut toolwright(&[
        "check",
        dir.join("empty").to_str().unwrap(),
    ]));
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("holds no adapter (`*-adapter.md`) and no OpenAPI document"),
        "{err}"
    );
    assert!(
        err.contains("is not read: adapter files are named `<name>-adapter.md`"),
        "{err}"
    );
    // `requried` would silently make a required parameter optional: an error even
    // when lenient, with the fix.
    std::fs::create_dir_all(dir.join("typo")).unwrap();
    std::fs::write(
        dir.join("typo/t-adapter.md"),
        "---\nname: t\ntype: adapter\nversion: \"1.0.0\"\ndescription: d\ntarget: { base_url: \"https://t.example\", transport: http, protocol: rest, serialization: json }\noperations:\n  read:\n    - name: get\n      maps_to: GET /x\n      description: d\n      params:\n        q: { type: string, requried: true }\n    - name: other\n      maps_too: GET /y\n      description: d\n---\n",
    )
    .unwrap();
    let (code, _, err) = run(&mut toolwright(&[
        "check",
        dir.join("typo").to_str().unwrap(),
    ]));
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("unknown field `requried` in"), "{err}");
    assert!(err.contains("did you mean `required`?"), "{err}");
    assert!(err.contains("unknown field `maps_too`"), "{err}");
    assert!(err.contains("did you mean `maps_to`?"), "{err}");
}

/// The CLI interprets adapters without compiling; its catalog must be exactly the
/// generated one (the e2e crate compares its compiled catalog with the same file).
#[test]
fn catalog_matches_snapshot() {
    for (input, snapshot) in [
        ("tests/adapters", "tests/golden/expected/catalog.json"),
        (
            "tests/openapi",
            "tests/golden/expected-openapi/catalog.json",
        ),
        (
            "tests/discovery",
            "tests/golden/expected-discovery/catalog.json",
        ),
        ("tests/mcp", "tests/golden/expected-mcp/catalog.json"),
    ] {
        let (code, out, err) = run(&mut toolwright(&["catalog", input]));
        assert_eq!(code, 0, "{err}");
        let path = root().join(snapshot);
        if std::env::var_os("TOOLWRIGHT_BLESS").is_some() {
            std::fs::write(&path, &out).unwrap();
        }
        assert!(
            out == std::fs::read_to_string(&path).unwrap(),
            "{snapshot} differs"
        );
    }
}

#[test]
fn generate_writes_what_build_rs_writes() {
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-generate");
    let _ = std::fs::remove_dir_all(&out);
    let (code, _, err) = run(&mut toolwright(&[
        "generate",
        "tests/adapters",
        "--out",
        out.to_str().unwrap(),
    ]));
    assert_eq!(code, 0, "{err}");
    for name in ["billing.rs", "notes.rs", "toolwright.rs", "weather.rs"] {
        let expected =
            std::fs::read_to_string(root().join("tests/golden/expected").join(name)).unwrap();
        assert_eq!(
            std::fs::read_to_string(out.join(name)).unwrap(),
            expected,
            "{name}"
        );
    }
}

#[test]
fn call_reads_up_to_n_pages() {
    // An offset API of 7 items, 3 a page.
    let server = Server::start(|req| {
        let offset: usize = req
            .query()
            .and_then(|q| q.split('&').find_map(|p| p.strip_prefix("offset=")))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        let items: Vec<Value> = (offset..7.min(offset + 3))
            .map(|i| json!({"n": i}))
            .collect();
        Response::json(200, &Value::Array(items))
    });
    let call = |pages: &str| {
        run(toolwright(&[
            "call",
            "cli/tests/pagination/catalog.yaml",
            "--tool",
            "list_by_offset",
            "--args",
            r#"{"limit": 3}"#,
            "--pages",
            pages,
            "--base-url",
            &format!("catalog={}", server.url()),
        ])
        .env("CATALOG_KEY", "k"))
    };
    let (code, out, err) = call("2");
    assert_eq!(code, 0, "{err}");
    let result: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(result["items"].as_array().unwrap().len(), 6);
    assert_eq!(result["complete"], false);
    assert_eq!(result["next"], json!({"limit": 3, "offset": 6}));
    let (_, out, _) = call("10");
    let result: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(result["items"].as_array().unwrap().len(), 7);
    assert_eq!(result["pages"], 3);
    assert_eq!(result["complete"], true);
}

#[test]
fn call_runs_one_tool_with_credentials_from_the_environment() {
    let server = Server::start(|req| {
        Response::json(
            200,
            &json!({"temperature": 3.5, "conditions": "fog", "seen": req.target}),
        )
    });
    let (code, out, err) = run(toolwright(&[
        "call",
        "tests/adapters",
        "--tool",
        "current_weather",
        "--args",
        r#"{"city": "Oslo"}"#,
        "--base-url",
        &format!("weather={}", server.url()),
    ])
    .env("WEATHER_KEY", "k-123"));
    assert_eq!(code, 0, "{err}");
    let result: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(result["conditions"], "fog");
    let [req] = &server.take_requests()[..] else {
        panic!("one request")
    };
    assert_eq!(req.target, "/current?city=Oslo&appid=k-123");

    // Without the variable: a clear error, nothing sent, and the key never printed.
    let (code, out, err) = run(&mut toolwright(&[
        "call",
        "tests/adapters",
        "--tool",
        "current_weather",
        "--args",
        r#"{"city": "Oslo"}"#,
        "--base-url",
        &format!("weather={}", server.url()),
    ]));
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(err.contains("the credential for API `weather` is missing: set the environment variable `WEATHER_KEY`"), "{err}");
    assert!(server.requests().is_empty());

    let (code, _, err) = run(&mut toolwright(&[
        "call",
        "tests/adapters",
        "--tool",
        "forecast",
        "--args",
        r#"{"city": 5}"#,
    ]));
    assert_eq!(code, 1);
    assert!(
        err.contains("invalid arguments for `forecast`: field `city`: expected a string, found 5"),
        "{err}"
    );
}

#[test]
fn reference_cycles_neither_hang_nor_overflow_catalog_or_call() {
    let spec = "tests/hostile/inputs/recursive.yaml";
    let (code, out, err) = run(&mut toolwright(&["catalog", spec]));
    assert_eq!(code, 0, "{err}");
    let catalog: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(catalog["tools"][0]["name"], "getForest");
    // Nothing listens on port 9: the call gets as far as the transport.
    let (code, _, err) = run(&mut toolwright(&[
        "call",
        spec,
        "--tool",
        "getForest",
        "--args",
        "{}",
        "--base-url",
        "recursive=http://127.0.0.1:9",
    ]));
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("transport error"), "{err}");
}

/// The commands `--help` lists, the README's and docs/cli.md's lists: the same names in
/// the same order. Every help line fits in 100 columns.
#[test]
fn the_command_lists_agree_and_help_is_wrapped() {
    let (code, out, err) = run(&mut toolwright(&["--help"]));
    assert_eq!(code, 0, "{err}");
    let listed: Vec<&str> = out
        .split("Commands:\n")
        .nth(1)
        .expect("a Commands section")
        .lines()
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.strip_prefix("  ")?.split_whitespace().next())
        .filter(|name| *name != "help")
        .collect();
    assert!(listed.len() >= 10, "{out}");
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let row = readme
        .lines()
        .find(|l| l.starts_with("| [`toolwright-cli`]"))
        .expect("the README's crates table has the CLI's row");
    let in_readme: Vec<&str> = row
        .split("binary: ")
        .nth(1)
        .unwrap()
        .split('`')
        .skip(1)
        .step_by(2)
        .collect();
    assert_eq!(in_readme, listed, "README.md's list");
    let docs = std::fs::read_to_string(root().join("docs/cli.md")).unwrap();
    let in_docs: Vec<&str> = docs
        .lines()
        .filter_map(|l| l.strip_prefix("toolwright ")?.split_whitespace().next())
        .filter(|name| {
            name.starts_with(|c: char| c.is_ascii_lowercase())
                && name.chars().all(|c| c.is_ascii_lowercase() || c == '-')
        })
        .collect();
    assert_eq!(in_docs, listed, "docs/cli.md's list");
    for command in listed.iter().chain([&""]) {
        let args: Vec<&str> = [*command, "--help"]
            .into_iter()
            .filter(|a| !a.is_empty())
            .collect();
        let (code, out, err) = run(&mut toolwright(&args));
        assert_eq!(code, 0, "{err}");
        for line in out.lines() {
            assert!(
                line.chars().count() <= 100,
                "`toolwright {}` has a line of {} columns:\n{line}",
                args.join(" "),
                line.chars().count()
            );
        }
    }
}

/// The same readiness advice for several tools is one warning naming them.
#[test]
fn check_groups_a_repeated_finding() {
    let (code, _, err) = run(&mut toolwright(&[
        "check",
        "examples/issue-tracker/adapters",
    ]));
    assert_eq!(code, 0, "{err}");
    let warnings: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("warning[readiness::"))
        .collect();
    let mut distinct = warnings.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(warnings.len(), distinct.len(), "a warning repeated:\n{err}");
    assert!(
        err.contains(" tools: `"),
        "a grouped warning names its tools:\n{err}"
    );
}

/// `catalog` on a terminal: a short overview; piped: the JSON, as before; `--json`
/// asks for the JSON on a terminal too. (`script` gives the command a terminal.)
#[test]
fn catalog_is_an_overview_on_a_terminal_and_json_otherwise() {
    let bin = env!("CARGO_BIN_EXE_toolwright");
    let on_terminal = |extra: &str| {
        let (code, out, err) = run(Command::new("script")
            .args([
                "-qec",
                &format!("{bin} catalog examples/issue-tracker/adapters {extra}"),
                "/dev/null",
            ])
            .current_dir(root()));
        assert_eq!(code, 0, "{err}");
        out.replace("\r\n", "\n")
    };
    let overview = on_terminal("");
    assert!(
        overview.contains("tracker: 5 tools\n  close_issue   Closes an issue and records why")
            && overview.contains("\n  create_issue  Opens a new issue in a project."),
        "{overview}"
    );
    assert!(overview.contains("5 tools in 1 API(s)."), "{overview}");
    assert!(!overview.contains("inputSchema"), "{overview}");
    assert!(on_terminal("--json").contains("\"inputSchema\""));
    let (code, piped, err) = run(&mut toolwright(&[
        "catalog",
        "examples/issue-tracker/adapters",
    ]));
    assert_eq!(code, 0, "{err}");
    let json: Value = serde_json::from_str(&piped).expect("piped: JSON");
    assert_eq!(json["tools"].as_array().map(Vec::len), Some(5));
}

/// Issue #58 (F16): an upstream's bytes quoted in an error reach the terminal escaped,
/// so an answer cannot retitle the window, clear the screen or move the cursor.
#[test]
fn upstream_bytes_in_an_error_are_escaped_for_the_terminal() {
    let server = Server::start(|_| Response {
        status: 200,
        content_type: "application/json".into(),
        body: b"\x1b]0;pwned\x07\x1b[2J\r\0not json".to_vec(),
        headers: Vec::new(),
    });
    let (code, _, err) = run(toolwright(&[
        "call",
        "cli/tests/pagination/catalog.yaml",
        "--tool",
        "list_by_offset",
        "--args",
        r#"{"limit": 3}"#,
        "--base-url",
        &format!("catalog={}", server.url()),
    ])
    .env("CATALOG_KEY", "k"));
    assert_ne!(code, 0, "{err}");
    assert!(err.contains("is not JSON"), "{err}");
    assert!(!err.contains(['\x1b', '\x07', '\r', '\0']), "{err:?}");
    assert!(err.contains("\\u{1b}]0;pwned\\u{7}\\u{1b}[2J"), "{err:?}");
}

/// A path item that is JSON text but no JSON value (a number out of range, a lone
/// surrogate): the reader parses path items one at a time, and such an item is a
/// located error, as a whole document's parse reports it — never an operation left out
/// without a word.
#[test]
fn a_path_item_that_is_no_json_value_is_a_located_error() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-invalid-item");
    std::fs::create_dir_all(&dir).unwrap();
    for (name, bad) in [("range", "1e400"), ("surrogate", "\"\\ud800\"")] {
        let doc = dir.join(format!("{name}.json"));
        std::fs::write(
            &doc,
            format!(
                "{{\"openapi\": \"3.1.0\", \"info\": {{\"title\": \"t\", \"version\": \"1\"}},\n\
                 \"paths\": {{\"/a\": {{\"get\": {{\"operationId\": \"getA\", \"responses\": {{\"200\": {{\"description\": \"ok\"}}}}}}}},\n\
                 \"/b\": {{\"get\": {{\"operationId\": \"getB\", \"x-v\": {bad}, \"responses\": {{}}}}}}}}}}\n"
            ),
        )
        .unwrap();
        let (code, _, err) = run(&mut toolwright(&["check", doc.to_str().unwrap()]));
        assert_eq!(code, 1, "{err}");
        assert!(err.contains("error[TW"), "{err}");
        assert!(err.contains("invalid JSON: "), "{err}");
        assert!(err.contains(&format!("{name}.json:3:")), "{err}");
    }
}
