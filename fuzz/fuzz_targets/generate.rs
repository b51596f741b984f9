//! The code generator: whatever a reader accepts (the first byte picks an OpenAPI JSON
//! or YAML document, an adapter file or a GraphQL SDL), every generated Rust file must
//! parse as Rust. The emitter writes code as text, so this is the net that a token
//! stream and a formatter used to be: a name, a doc text or a literal from the input
//! can never leave the generated code syntactically broken.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let name = match pick % 4 {
        0 => "fuzz.json",
        1 => "fuzz.yaml",
        2 => "fuzz-adapter.md",
        _ => "fuzz.graphql",
    };
    let text = String::from_utf8_lossy(rest);
    let analysis = toolwright_codegen::analyze_text(name, &text, false);
    if analysis.has_errors() || analysis.apis.is_empty() {
        return;
    }
    let files = toolwright_codegen::emit::generate(&analysis.apis);
    for (file, bytes) in &files {
        if !file.ends_with(".rs") {
            continue;
        }
        let code = std::str::from_utf8(bytes).expect("generated code is UTF-8");
        if let Err(e) = syn::parse_file(code) {
            let line = e.span().start().line;
            let shown: Vec<&str> = code.lines().skip(line.saturating_sub(3)).take(5).collect();
            panic!(
                "{file} does not parse: {e} at line {line}:\n{}",
                shown.join("\n")
            );
        }
    }
});
