//! Google Discovery documents nobody here wrote (`google-api-python-client`'s): every
//! method is a tool — many share a path (`v2/{+name}` gets a service, a job, an
//! execution…), none may be lost — and each document's fidelity matrix shows nothing
//! lost. The corpus crate compiles the same documents (tests/corpus/build.rs).

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

const DOCUMENTS: &[&str] = &[
    "drive.v3",
    "gmail.v1",
    "calendar.v3",
    "youtube.v3",
    "compute.v1",
    "run.v2",
    "logging.v2",
    "iam.v1",
    "storage.v1",
    "cloudresourcemanager.v3",
];

fn documents() -> PathBuf {
    let out = Command::new("python3")
        .args([
            "-c",
            "import googleapiclient, os; print(os.path.join(os.path.dirname(googleapiclient.__file__), 'discovery_cache', 'documents'))",
        ])
        .output()
        .expect("python3");
    assert!(
        out.status.success(),
        "the Google Discovery documents are needed: pip install google-api-python-client"
    );
    PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())
}

fn methods(node: &Value) -> Vec<&Value> {
    let mut out: Vec<&Value> = node
        .get("methods")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|m| m.values())
        .collect();
    for resource in node
        .get("resources")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|r| r.values())
    {
        out.extend(methods(resource));
    }
    out
}

#[test]
fn every_method_is_a_tool_and_nothing_is_lost() {
    let dir = documents();
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("discovery-report.html");
    for name in DOCUMENTS {
        let path = dir.join(format!("{name}.json"));
        let doc: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        let all = methods(&doc);
        let uploads = all
            .iter()
            .filter(|m| m.get("mediaUpload").is_some())
            .count();
        let run = Command::new(env!("CARGO_BIN_EXE_toolwright"))
            .args(["report", "--no-exports", "--out"])
            .arg(&out)
            .arg(&path)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&run.stderr);
        assert!(run.status.success(), "{name}: {err}");
        assert!(!err.contains("warning[TW"), "{name}: {err}");
        let html = std::fs::read_to_string(&out).unwrap();
        let data = toolwright_loopback::report_data(&html);
        assert_eq!(
            data["rows"].as_array().unwrap().len(),
            all.len() + uploads,
            "{name}: one tool per method, and one more per media upload"
        );
        for row in data["fidelity"][0]["rows"].as_array().unwrap() {
            assert_eq!(row["lost"], 0, "{name}: {row}");
        }
    }
}
