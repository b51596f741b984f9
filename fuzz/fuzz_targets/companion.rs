//! An adapter's companion files: any bytes as its conformance tests
//! (`-adapter-tests.yaml`) and as its usage examples (`-adapter-examples.md`), read
//! and checked against the example adapter's tools. Nothing may panic, and every
//! finding renders (its location within the file).
#![no_main]

use std::sync::{Arc, OnceLock};

use libfuzzer_sys::fuzz_target;
use toolwright_codegen::diagnostics::{Diagnostics, SourceFile};

fn adapter() -> &'static toolwright_codegen::ir::Api {
    static API: OnceLock<toolwright_codegen::ir::Api> = OnceLock::new();
    API.get_or_init(|| {
        let adapter = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../examples/issue-tracker/adapters/tracker-adapter.md");
        let analysis = toolwright_codegen::analyze(&[adapter], false);
        assert!(!analysis.has_errors(), "{}", analysis.render());
        analysis.apis.into_iter().next().unwrap()
    })
}

fn render(diagnostics: Diagnostics) {
    for finding in diagnostics.sorted() {
        let _ = toolwright_codegen::diagnostics::render(&finding);
        let _ = finding.to_json();
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    let tests: Arc<SourceFile> = SourceFile::new("fuzz-adapter-tests.yaml", text.clone());
    let mut diagnostics = Diagnostics::default();
    let _ = toolwright_codegen::conformance::read(&tests, adapter(), &mut diagnostics);
    render(diagnostics);
    let examples = SourceFile::new("fuzz-adapter-examples.md", text);
    let mut api = adapter().clone();
    let mut diagnostics = Diagnostics::default();
    toolwright_codegen::examples::read(&examples, &mut api, &mut diagnostics);
    render(diagnostics);
});
