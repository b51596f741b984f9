//! The OpenAPI importer: any bytes as a JSON or YAML document (the first byte picks
//! which) are read, lowered, checked, rendered as diagnostics and planned.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let name = if pick % 2 == 0 {
        "fuzz.json"
    } else {
        "fuzz.yaml"
    };
    let text = String::from_utf8_lossy(rest);
    let analysis = toolwright_codegen::analyze_text(name, &text, false);
    let _ = analysis.render();
    for api in &analysis.apis {
        let _ = toolwright_codegen::emit::plans(api);
    }
});
