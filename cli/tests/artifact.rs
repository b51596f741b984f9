//! `toolwright artifact` as a user runs it: byte-identical builds (a timestamp only
//! with `SOURCE_DATE_EPOCH`), a rebuild from a previous artifact keeps manual edges,
//! manual metadata and fields it does not know, credential-like values never reach
//! the file, every artifact validates against the shipped JSON Schema (checked by
//! Python's `jsonschema`, not by our own validator), and the readiness score orders
//! a well-described spec above a poorly described one.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn corpus(name: &str) -> String {
    toolwright_loopback::corpus::dev_spec(name)
        .to_string_lossy()
        .into_owned()
}

/// Runs `toolwright artifact INPUT --out OUT EXTRA...` and returns the file's text.
fn artifact(input: &str, out: &Path, extra: &[&str], env: &[(&str, &str)]) -> String {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_toolwright"));
    cmd.args(["artifact", input, "--out"])
        .arg(out)
        .args(extra)
        .current_dir(root())
        .env_remove("SOURCE_DATE_EPOCH");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let output = cmd.output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    std::fs::read_to_string(out).unwrap()
}

fn tmp(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("artifact");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn builds_are_byte_identical_and_dated_only_when_asked() {
    let input = "codegen/tests/contracts/petstore.yaml";
    let first = artifact(input, &tmp("a1.json"), &[], &[]);
    let second = artifact(input, &tmp("a2.json"), &[], &[]);
    assert_eq!(first, second);
    let parsed: Value = serde_json::from_str(&first).unwrap();
    assert!(parsed["metadata"].get("built_at").is_none());
    let dated = artifact(
        input,
        &tmp("a3.json"),
        &[],
        &[("SOURCE_DATE_EPOCH", "1796083200")],
    );
    let dated: Value = serde_json::from_str(&dated).unwrap();
    assert_eq!(dated["metadata"]["built_at"], "2026-12-01T00:00:00Z");
    // The manifest names the source and its digest.
    let manifest = &parsed["source_snapshot_manifest"][0];
    assert_eq!(manifest["operation_count"], 19);
    assert_eq!(manifest["sha256"].as_str().unwrap().len(), 64);
}

#[test]
fn a_rebuild_keeps_manual_edges_metadata_and_unknown_fields() {
    let input = "codegen/tests/contracts/petstore.yaml";
    let first: Value = serde_json::from_str(&artifact(input, &tmp("r1.json"), &[], &[])).unwrap();
    let mut edited = first.clone();
    edited["quality_lab"] = json!({"reviewed_by": "ops", "score": 4});
    edited["metadata"]["owner"] = json!("catalog team");
    edited["tools"]["getPetById"]["metadata"]["notes"] = json!("prefer findPetsByStatus first");
    edited["tools"]["getPetById"]["metadata"]["ai_metadata"]["when_to_use"] =
        json!("Use when the pet's id is known.");
    edited["tools"]["getPetById"]["x-review"] = json!(true);
    let manual = json!({
        "source": "loginUser", "target": "deleteUser", "kind": "manual",
        "confidence": "extracted", "conf_score": 1.0,
        "evidence": "operators log in before deleting", "evidence_sources": ["manual"],
        "data_flow": {"field": "session"}, "is_manual": true, "reviewer": "ops"
    });
    edited["graph"]["edges"]
        .as_array_mut()
        .unwrap()
        .push(manual.clone());
    let previous = tmp("r-previous.json");
    std::fs::write(&previous, serde_json::to_string(&edited).unwrap()).unwrap();
    let rebuilt: Value = serde_json::from_str(&artifact(
        input,
        &tmp("r2.json"),
        &["--previous", previous.to_str().unwrap()],
        &[],
    ))
    .unwrap();
    assert_eq!(rebuilt["quality_lab"], edited["quality_lab"]);
    assert_eq!(rebuilt["metadata"]["owner"], "catalog team");
    let tool = &rebuilt["tools"]["getPetById"];
    assert_eq!(tool["metadata"]["notes"], "prefer findPetsByStatus first");
    assert_eq!(
        tool["metadata"]["ai_metadata"]["when_to_use"],
        "Use when the pet's id is known."
    );
    assert_eq!(tool["x-review"], true);
    // What the engine computes is recomputed, not frozen.
    assert_eq!(tool["metadata"]["ai_metadata"]["canonical_action"], "read");
    let edges = rebuilt["graph"]["edges"].as_array().unwrap();
    assert!(edges.contains(&manual), "the manual edge is kept whole");
    assert_eq!(
        edges.len(),
        first["graph"]["edges"].as_array().unwrap().len() + 1
    );
}

#[test]
fn credentials_never_reach_the_artifact() {
    let text = artifact("cli/tests/artifact/secrets.yaml", &tmp("s.json"), &[], &[]);
    for secret in [
        "ghp_abcdefghijklmnop1234",
        "k-9f8e7d6c5b4a3210",
        "k-0011223344556677",
        "eyJhbGciOiJIUzI1NiJ9",
        "sk_live_51Habcdefghijklmnopqrstuv",
    ] {
        assert!(!text.contains(secret), "{secret} leaked");
    }
    let parsed: Value = serde_json::from_str(&text).unwrap();
    let params = &parsed["tools"]["get_thing"]["metadata"]["openapi"]["parameters"];
    // Ordinary examples stay.
    assert_eq!(params[0]["examples"][0], "thing-42");
    assert!(text.contains("<redacted>"));
}

#[test]
fn every_artifact_validates_against_the_shipped_schema() {
    let schema = tmp("artifact.schema.json");
    let output = Command::new(env!("CARGO_BIN_EXE_toolwright"))
        .args(["artifact", "--schema"])
        .output()
        .unwrap();
    assert!(output.status.success());
    std::fs::write(&schema, &output.stdout).unwrap();
    let mut files = Vec::new();
    for (i, input) in [
        "codegen/tests/contracts/petstore.yaml".to_owned(),
        "examples/issue-tracker/adapters/tracker-adapter.md".to_owned(),
        corpus("prss.org_api.json"),
        corpus("spotify.com_api.json"),
        corpus("etmdb.com_api.json"),
        "cli/tests/artifact/secrets.yaml".to_owned(),
    ]
    .iter()
    .enumerate()
    {
        let out = tmp(&format!("v{i}.json"));
        artifact(input, &out, &["--context-field", "site"], &[]);
        files.push(out);
    }
    let script = "import json, sys, jsonschema\n\
        schema = json.load(open(sys.argv[1]))\n\
        jsonschema.Draft202012Validator.check_schema(schema)\n\
        for path in sys.argv[2:]:\n\
        \x20   jsonschema.Draft202012Validator(schema).validate(json.load(open(path)))\n\
        print('valid', len(sys.argv) - 2)\n";
    let output = Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(&schema)
        .args(&files)
        .output()
        .expect("python3 with jsonschema (pip install jsonschema)");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn readiness_orders_a_well_described_spec_above_a_poor_one() {
    let score = |name: &str| {
        let text = artifact(&corpus(name), &tmp(&format!("{name}.json")), &[], &[]);
        let parsed: Value = serde_json::from_str(&text).unwrap();
        parsed["readiness_report"]["score"].as_f64().unwrap()
    };
    // prss.org: every operation described, typed responses, ids produced by lists.
    // etmdb.com: no response schemas on its reads, few descriptions.
    let (good, poor) = (score("prss.org_api.json"), score("etmdb.com_api.json"));
    assert!(good > poor + 20.0, "good {good}, poor {poor}");
}
