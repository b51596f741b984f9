//! `toolwright report`: the inspection report, opened in headless Chromium (Debian's
//! `chromium`, driven by `playwright-core` from `tests/browser`) and used as a person
//! would — filter, sort, open a tool's schemas, contract, exports and source, the
//! readiness findings, the graph and the fidelity matrix, by mouse and keyboard — with
//! no console error and no request leaving the file. Screenshots go to
//! `target/report-screenshots/`. The file itself: deterministic, self-contained, and
//! free of the credentials its inputs hold.

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use base64::Engine as _;
use serde_json::{Value, json};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_owned()
}

fn toolwright(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_toolwright"))
        .args(args)
        .current_dir(root())
        .output()
        .unwrap()
}

fn report(inputs: &[&str], out: &Path, extra: &[&str]) -> String {
    let out_arg = out.to_str().unwrap();
    let mut args = vec!["report"];
    args.extend(inputs);
    args.extend(["--out", out_arg]);
    args.extend(extra);
    let run = toolwright(&args);
    assert!(
        run.status.success(),
        "toolwright report failed: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    std::fs::read_to_string(out).unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("toolwright-report-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Installs playwright-core from its lock file on first use; Chromium is Debian's.
fn browser_dir() -> PathBuf {
    toolwright_loopback::npm_package("browser", "node_modules/playwright-core").unwrap();
    let dir = root().join("tests/browser");
    assert!(
        Path::new("/usr/bin/chromium").exists(),
        "headless Chromium is needed: `apt-get install chromium` (Debian)"
    );
    dir
}

/// Runs `tests/browser/report.mjs` on `file`; its JSON result.
fn in_browser(file: &Path, config: Value) -> Value {
    let dir = browser_dir();
    let shots = root().join("target/report-screenshots");
    let mut config = config;
    config["file"] = json!(file.canonicalize().unwrap());
    config["shots"] = json!(shots);
    let out = Command::new("node")
        .arg("report.mjs")
        .arg(config.to_string())
        .current_dir(&dir)
        .output()
        .expect("node is needed for the browser tests");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let result: Value = stdout
        .lines()
        .rev()
        .find_map(|l| serde_json::from_str(l).ok())
        .unwrap_or_else(|| {
            panic!(
                "no result from the browser: {stdout}\n{}",
                String::from_utf8_lossy(&out.stderr)
            )
        });
    assert!(out.status.success(), "in the browser: {result:#}");
    eprintln!("{result}");
    result
}

/// The details blocks of a report, inflated.
fn blocks(html: &str) -> Vec<String> {
    html.split("<script type=\"application/gzip+base64\" id=\"")
        .skip(1)
        .map(|rest| {
            let body = rest
                .split_once("\">")
                .unwrap()
                .1
                .split_once("</script>")
                .unwrap()
                .0;
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(body)
                .unwrap();
            let mut text = String::new();
            flate2::read::GzDecoder::new(&bytes[..])
                .read_to_string(&mut text)
                .unwrap();
            text
        })
        .collect()
}

fn github() -> PathBuf {
    // Beside the report it is written with (`github.html`), named so the API is `github`.
    let path = scratch("github").join("github.json");
    if !path.exists() {
        let unpacked =
            toolwright_loopback::corpus::big("github.com_api.github.com.json", "github.json");
        std::fs::copy(unpacked, &path).unwrap();
    }
    path
}

#[test]
fn adapter_report_in_a_browser() {
    let dir = scratch("tracker");
    let out = dir.join("tracker.html");
    let html = report(&["examples/issue-tracker/adapters"], &out, &[]);
    let rows = html.matches("\"create_issue\"").count();
    assert!(rows >= 1);
    in_browser(
        &out,
        json!({
            "name": "tracker",
            "tools": 5,
            "filter": "issue get",
            "expect": "get_issue",
            "tool": "list_issues",
            "exports": true,
            "edges": true,
            "findings": false,
            "produces": true,
            // From tracker-adapter-examples.md.
            "example": "What's still open on the web project?",
        }),
    );
}

/// A Google Discovery document: its tools, source lines and fidelity matrix.
#[test]
fn discovery_report_in_a_browser() {
    let dir = scratch("discovery");
    let out = dir.join("library.html");
    let html = report(&["tests/discovery"], &out, &[]);
    assert!(
        html.contains("Google Discovery v1"),
        "the fidelity matrix names the format"
    );
    let result = in_browser(
        &out,
        json!({
            "name": "discovery",
            "tools": 7,
            "filter": "books list",
            "expect": "library_shelves_books_list",
            "tool": "library_shelves_books_list",
            "exports": true,
            "edges": false,
            "findings": true,
            "produces": true,
        }),
    );
    // The source lines are the method's, in the Discovery file.
    assert!(
        result["source_first_line"].as_u64().unwrap() > 100,
        "{result}"
    );
}

/// GitHub's 1,223 tools: the report opens, the filter finds `pulls_merge`, its details
/// show exports, edges, findings and producers, and the graph draws the strongest
/// 4,000 of its edges. How fast it opens and filters (target: under a second) is
/// measured by `benches/report.sh`, not here: a shared CI machine's timing is noise.
#[test]
fn github_report_opens_filters_and_draws_the_strongest_edges() {
    let spec = github();
    let out = spec.with_file_name("github.html");
    let html = report(&[spec.to_str().unwrap()], &out, &[]);
    eprintln!("GitHub report: {} bytes", html.len());
    let result = in_browser(
        &out,
        json!({
            "name": "github",
            "tools": 1223,
            "filter": "pulls merge",
            "expect": "pulls_merge",
            "tool": "pulls_merge",
            "exports": true,
            "edges": true,
            "findings": true,
            "produces": true,
        }),
    );
    eprintln!(
        "GitHub open + filter: {} ms (not a target here; see benches/report.sh)",
        result["open_and_filter_ms"]
    );
    // 10,446 edges: the strongest 4,000 are drawn.
    assert_eq!(result["graph"]["edges"], 4_000);
}

/// 20,000 tools: the table stays virtualised and quick; the graph draws its strongest
/// edges and says how many there are.
#[test]
fn twenty_thousand_tools() {
    let dir = scratch("large");
    let spec = dir.join("large.json");
    let mut paths = serde_json::Map::new();
    for i in 0..10_000 {
        paths.insert(
            format!("/things{i}"),
            json!({"get": {"operationId": format!("list_things{i}"), "summary": format!("List things of kind {i}"),
                "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/Thing"}}}}}}}}),
        );
        paths.insert(
            format!("/things{i}/{{thingId}}"),
            json!({"get": {"operationId": format!("get_thing{i}"), "summary": format!("Get a thing of kind {i}"),
                "parameters": [{"name": "thingId", "in": "path", "required": true, "schema": {"type": "integer"}}],
                "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}}}}}}),
        );
    }
    let doc = json!({
        "openapi": "3.1.0",
        "info": {"title": "Large", "version": "1"},
        "servers": [{"url": "https://large.example.com"}],
        "paths": paths,
        "components": {"schemas": {"Thing": {"type": "object", "required": ["id"], "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}}}},
    });
    std::fs::write(&spec, doc.to_string()).unwrap();
    let out = dir.join("large.html");
    let html = report(&[spec.to_str().unwrap()], &out, &["--no-exports"]);
    eprintln!("20,000-tool report: {} bytes", html.len());
    let result = in_browser(
        &out,
        json!({
            "name": "large",
            "tools": 20_000,
            "filter": "get_thing1234",
            "expect": "get_thing1234",
            "tool": "get_thing777",
            "exports": false,
            "edges": true,
            "findings": false,
            "produces": true,
        }),
    );
    eprintln!(
        "20,000 tools: open {} ms, filter {} ms",
        result["open_ms"], result["filter_ms"]
    );
    assert_eq!(
        result["graph"]["edges"], 4_000,
        "the strongest 4,000 of 100,000 edges are drawn"
    );
}

#[test]
fn reports_are_deterministic_self_contained_and_free_of_credentials() {
    let dir = scratch("secrets");
    let spec = dir.join("vault.yaml");
    std::fs::write(
        &spec,
        r#"openapi: 3.0.3
info: {title: Vault, version: "1"}
servers:
  - url: https://vault.example.com/v1
paths:
  /secrets/{name}:
    get:
      operationId: getSecret
      x-test-account:
        user: admin
        password: hunter2
      description: Reads a secret. Try it with `ghp_0123456789abcdefghij0123456789abcd`.
      parameters:
        - name: name
          in: path
          required: true
          schema: {type: string}
        - name: token
          in: header
          schema: {type: string, example: "tok-live-9f8e7d6c5b4a"}
        - name: X-Trace
          in: header
          schema: {type: string}
          example: "sk_live_abcdefghijklmnop"
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  value: {type: string}
                  password: {type: string, example: correct-horse-battery}
                  note: {type: string, example: "</script><script>alert(1)</script>"}
"#,
    )
    .unwrap();
    let first = report(&[spec.to_str().unwrap()], &dir.join("a.html"), &[]);
    let second = report(&[spec.to_str().unwrap()], &dir.join("b.html"), &[]);
    assert!(first == second, "two runs give the same bytes");

    // Self-contained: no external resource of any kind, and a policy that forbids them.
    assert!(first.contains(
        "content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\""
    ));
    for tag in [
        "<link", "<img", "<iframe", "<object", "<embed", " src=", "@import", "url(",
    ] {
        assert!(!first.contains(tag), "the page holds `{tag}`");
    }
    // Nothing from the inputs can close a script element or inject markup.
    assert_eq!(
        first.matches("</script>").count(),
        first.matches("<script").count()
    );

    let everything = format!("{first}\n{}", blocks(&first).join("\n"));
    assert!(
        everything.contains("getSecret"),
        "the details are in the blocks"
    );
    assert!(everything.contains("<redacted>"));
    for secret in [
        "hunter2",
        "ghp_0123456789abcdefghij0123456789abcd",
        "tok-live-9f8e7d6c5b4a",
        "sk_live_abcdefghijklmnop",
        "correct-horse-battery",
    ] {
        assert!(!everything.contains(secret), "the report holds `{secret}`");
    }
}

/// The 40 dev specs: each report is written, and its fidelity matrix accounts for every
/// operation (raw = IR, nothing lost there) and lists the import's findings.
#[test]
fn dev_corpus_reports_account_for_every_operation() {
    let dir = scratch("corpus");
    let corpus = toolwright_loopback::corpus::dev();
    let mut specs: Vec<PathBuf> = std::fs::read_dir(&corpus)
        .expect("tests/data/corpus/dev")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    specs.sort();
    assert_eq!(specs.len(), 40);
    let mut findings = 0;
    for spec in &specs {
        let out = dir.join("r.html");
        let html = report(&[spec.to_str().unwrap()], &out, &["--no-exports"]);
        let data = toolwright_loopback::report_data(&html);
        let fidelity = &data["fidelity"][0];
        let operations = &fidelity["rows"][0];
        assert_eq!(operations["aspect"], "Operations");
        assert_eq!(
            operations["raw"],
            operations["ir"],
            "{}: {operations}",
            spec.display()
        );
        assert_eq!(
            operations["ir"].as_u64().unwrap() as usize,
            data["rows"].as_array().unwrap().len(),
            "{}",
            spec.display()
        );
        findings += fidelity["findings"].as_array().unwrap().len();
    }
    assert!(findings > 0, "some dev spec has import findings to show");
}

/// One scrubber for every pane and file (#64): credential-shaped defaults, examples and
/// enum values — under a credential's name (the `api_key` parameter the security scheme
/// supplies, so in no input schema; a `token` header; a `password` body property; a
/// `client_secret` in the response) and by their text (a token in prose) — are found
/// nowhere: not in the report's page or any of its panes (details, source view,
/// exports), not in any file `generate` writes (typed or catalog-only), not in the
/// artifact, not in any export of the catalog.
#[test]
fn credential_samples_reach_no_pane_and_no_file() {
    let dir = scratch("samples");
    let spec = dir.join("keys.yaml");
    std::fs::write(
        &spec,
        r#"openapi: 3.0.3
info: {title: Keys, version: "1"}
servers:
  - url: https://keys.example.com/v1
components:
  securitySchemes:
    api_key: {type: apiKey, in: query, name: api_key}
security:
  - api_key: []
paths:
  /boards/{id}:
    parameters:
      - name: X-Api-Key
        in: header
        schema: {type: string, default: "hk-path-default-58c1"}
    post:
      operationId: updateBoard
      description: Updates a board. Try it with `ghp_9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f`.
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
        - name: api_key
          in: query
          required: true
          schema: {type: string, default: "k-default-7f3a9c2e", example: "k-example-11d4"}
        - name: token
          in: header
          schema: {type: string, enum: ["t-enum-5b8d1e4f"]}
          examples:
            demo: {summary: A demo token, value: "t-examples-2c6e"}
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                name: {type: string}
                password: {type: string, default: "pw-default-9d1c", example: "pw-example-3f7a"}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  id: {type: string}
                  client_secret: {type: string, enum: ["cs-enum-4e8a6b"]}
"#,
    )
    .unwrap();
    let spec = spec.to_str().unwrap();
    let mut outputs: Vec<(String, String)> = Vec::new();

    let page = report(&[spec], &dir.join("keys.html"), &[]);
    assert!(page.contains("updateBoard"));
    outputs.extend(
        blocks(&page)
            .into_iter()
            .map(|b| ("a report block".to_owned(), b)),
    );
    outputs.push(("the report page".into(), page));
    for catalog_only in [false, true] {
        let out = dir.join(format!("generated-{catalog_only}"));
        let out_arg = out.to_str().unwrap().to_owned();
        let mut args = vec!["generate", spec, "--out", &out_arg];
        if catalog_only {
            args.push("--catalog-only");
        }
        let run = toolwright(&args);
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        for file in std::fs::read_dir(&out).unwrap() {
            let path = file.unwrap().path();
            let bytes = std::fs::read(&path).unwrap();
            outputs.push((
                path.display().to_string(),
                String::from_utf8_lossy(&bytes).into(),
            ));
        }
    }
    let artifact = dir.join("keys.json");
    let run = toolwright(&["artifact", spec, "--out", artifact.to_str().unwrap()]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    outputs.push((
        "the artifact".into(),
        std::fs::read_to_string(&artifact).unwrap(),
    ));
    for format in [
        "catalog",
        "mcp",
        "openai",
        "anthropic",
        "gemini",
        "typescript",
    ] {
        let run = toolwright(&["catalog", spec, "--json", "--format", format]);
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        outputs.push((
            format!("the {format} export"),
            String::from_utf8_lossy(&run.stdout).into(),
        ));
    }
    assert!(outputs.len() > 10, "{} outputs", outputs.len());

    let secrets = [
        "hk-path-default-58c1",
        "ghp_9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f",
        "k-default-7f3a9c2e",
        "k-example-11d4",
        "t-enum-5b8d1e4f",
        "t-examples-2c6e",
        "pw-default-9d1c",
        "pw-example-3f7a",
        "cs-enum-4e8a6b",
    ];
    let found: Vec<String> = outputs
        .iter()
        .flat_map(|(name, text)| {
            secrets
                .iter()
                .filter(|s| text.contains(**s))
                .map(move |s| format!("{s} in {name}"))
        })
        .collect();
    assert_eq!(found, Vec::<String>::new(), "0 credentials in the outputs");
}
