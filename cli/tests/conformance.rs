//! `toolwright test`: an adapter's conformance cases (`{name}-adapter-tests.yaml`) run
//! offline — a line per case, the failing one's request diff, `N passed, N failed`,
//! exit 1 — and a case naming an unknown tool, argument or field is a located error.

use std::path::PathBuf;
use std::process::Command;

const ADAPTER: &str = r#"---
name: notes
type: adapter
version: "1.0.0"
description: "Notes."
target:
  base_url: "https://notes.example.com/v1"
  transport: http
  protocol: rest
  serialization: json
auth:
  type: api_key
  header_name: X-Api-Key
  key_env: NOTES_KEY
operations:
  create:
    - name: add_note
      maps_to: POST /notebooks/{book}/notes
      description: Adds a note to a notebook.
      params:
        book: { type: string, required: true }
        text: { type: string, required: true }
        pinned: { type: boolean }
  read:
    - name: search_notes
      maps_to: GET /notes
      description: Finds notes by words in them.
      params:
        q: { type: string, required: true }
        tag: { type: array, items: { type: string } }
---
"#;

fn scratch(name: &str, tests: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "toolwright-conformance-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("notes-adapter.md"), ADAPTER).unwrap();
    std::fs::write(dir.join("notes-adapter-tests.yaml"), tests).unwrap();
    dir
}

fn test(dir: &PathBuf) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_toolwright"))
        .arg("test")
        .arg(dir)
        .env_clear()
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(dir);
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into(),
        String::from_utf8_lossy(&output.stderr).into(),
    )
}

#[test]
fn a_passing_and_a_failing_case() {
    let dir = scratch(
        "mixed",
        r#"tests:
  - name: adds a pinned note
    tool: add_note
    arguments: {book: "work/home", text: "call Ann", pinned: true}
    request:
      method: POST
      path: /notebooks/work%2Fhome/notes
      headers: {x-api-key: "${NOTES_KEY}", authorization: null}
      body: {text: "call Ann", pinned: true}
    response: {status: 201, body: {id: 9}}
    returns: {id: 9}
  - name: searches by tag
    tool: search_notes
    arguments: {q: "budget 2027", tag: [q1, q2]}
    request:
      method: GET
      path: /notes
      query: {q: "budget 2027", tag: q1}
"#,
    );
    let (code, out, err) = test(&dir);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(out.contains("test adds a pinned note ... ok\n"), "{out}");
    assert!(out.contains("test searches by tag ... FAILED\n"), "{out}");
    // The diff: what the case expects against what was sent, line by line.
    let diff = "the request differs (- expected, + sent)\n  GET /notes\n  query q=budget 2027\n  query tag=q1\n+ query tag=q2\n";
    assert!(out.contains(diff), "{out}");
    assert!(out.contains("notes-adapter-tests.yaml:12:5"), "{out}");
    assert!(out.ends_with("\n1 passed, 1 failed\n"), "{out}");
}

#[test]
fn the_returned_value_and_error_codes_are_compared() {
    let dir = scratch(
        "outcome",
        r#"tests:
  - name: a refused key is PERMISSION_UNAUTHENTICATED
    tool: search_notes
    arguments: {q: x}
    response: {status: 401, body: {message: bad key}}
    error: PERMISSION_UNAUTHENTICATED
  - name: a wrong argument type never reaches the API
    tool: add_note
    arguments: {book: b, text: 5}
    error: VALIDATION_ARGUMENTS
  - name: returns what the API answered
    tool: search_notes
    arguments: {q: x}
    response: {body: [{id: 1}]}
    returns: [{id: 2}]
"#,
    );
    let (code, out, _) = test(&dir);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("test a refused key is PERMISSION_UNAUTHENTICATED ... ok"),
        "{out}"
    );
    assert!(
        out.contains("test a wrong argument type never reaches the API ... ok"),
        "{out}"
    );
    assert!(
        out.contains("test returns what the API answered ... FAILED"),
        "{out}"
    );
    assert!(out.contains("-     \"id\": 2\n+     \"id\": 1\n"), "{out}");
    assert!(out.ends_with("\n2 passed, 1 failed\n"), "{out}");
}

#[test]
fn unknown_tools_arguments_and_fields_are_located_errors() {
    let dir = scratch(
        "wrong",
        r#"tests:
  - name: misspelt tool
    tool: add_notes
  - name: unknown argument
    tool: add_note
    arguments: {book: b, txt: t}
  - name: misspelt field
    tool: search_notes
    retruns: []
  - tool: search_notes
"#,
    );
    let (code, out, err) = test(&dir);
    assert_eq!(code, 1, "{out}\n{err}");
    for expected in [
        "error[TW125]: the adapter has no tool `add_notes`",
        "notes-adapter-tests.yaml:3:11",
        "did you mean `add_note`?",
        "error[TW125]: tool `add_note` has no argument `txt`",
        "notes-adapter-tests.yaml:6:26",
        "error[TW105]: unknown field `retruns` in a case",
        "did you mean `returns`?",
        "error[TW103]: a case is missing the required field `name`",
        "4 error(s)",
    ] {
        assert!(err.contains(expected), "{expected}\n{err}");
    }
    assert!(out.is_empty(), "{out}");
}

#[test]
fn the_example_adapters_tests_pass() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/issue-tracker/adapters");
    let output = Command::new(env!("CARGO_BIN_EXE_toolwright"))
        .arg("test")
        .arg(root)
        .env_clear()
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{out}");
    assert!(out.ends_with("\n6 passed, 0 failed\n"), "{out}");
}
