//! Inputs the fuzzers (`fuzz/`) found crashing, kept as regression tests: each is
//! read as the fuzz target read it (bytes as lossy UTF-8; `.md` an adapter, anything
//! else an OpenAPI document), checked, rendered and planned, without panicking.

use std::path::Path;

#[test]
fn fuzzed_inputs_are_diagnosed_not_crashed_on() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzzed");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(!files.is_empty());
    for file in files {
        let bytes = std::fs::read(&file).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let analysis = toolwright_codegen::analyze_text(&name, &text, false);
        let rendered = analysis.render();
        assert!(!rendered.is_empty() || !analysis.apis.is_empty(), "{name}");
        for api in &analysis.apis {
            let _ = toolwright_codegen::emit::plans(api);
        }
    }
}
