//! `Config::report` in a build script: the inspection report is written next to the
//! generated code, its path handed to the crate as `TOOLWRIGHT_REPORT`, and it lists
//! exactly the tools of the catalog built with it. (Opened in a browser by
//! `cli/tests/report.rs`, which writes the same page through `toolwright report`.)

use toolwright_e2e::adapters;

const REPORT: &str = include_str!(env!("TOOLWRIGHT_REPORT"));

#[test]
fn build_script_writes_the_report_of_its_catalog() {
    let path = std::path::Path::new(env!("TOOLWRIGHT_REPORT"));
    assert_eq!(path.file_name().unwrap(), "toolwright-report.html");
    assert!(path.starts_with(env!("OUT_DIR")));
    assert!(REPORT.starts_with("<!doctype html>"));
    let data = toolwright_loopback::report_data(REPORT);
    let rows: Vec<&str> = data["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r[0].as_str().unwrap())
        .collect();
    let catalog = adapters::catalog();
    let mut tools: Vec<&str> = catalog.tools().iter().map(|t| t.name.as_ref()).collect();
    tools.sort_unstable();
    // Every listed tool is in the report (which also shows `forbidden` operations).
    assert!(
        tools.iter().all(|t| rows.contains(t)),
        "{rows:?} vs {tools:?}"
    );
    assert_eq!(
        data["apis"].as_array().unwrap().len(),
        3,
        "one API per adapter file"
    );
    // Written by the builder without the runtime: it says where exports come from.
    assert_eq!(data["exports"], serde_json::json!([]));
    assert_eq!(data["fidelity"].as_array().unwrap().len(), 3);
}
