//! The GraphQL reader, end to end: any bytes as an SDL file are read, checked,
//! rendered as diagnostics and planned into tools without panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let analysis = toolwright_codegen::analyze_text("fuzz-schema.graphql", &text, false);
    let _ = analysis.render();
    let _ = analysis.to_json();
    for api in &analysis.apis {
        let _ = toolwright_codegen::emit::plans(api);
    }
});
