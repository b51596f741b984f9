//! One module per input in `inputs/`, each generated on its own (their tool names may
//! repeat across inputs). Any generator error fails the build with its diagnostics.

use std::fmt::Write as _;
use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let inputs = manifest.join("inputs");
    println!("cargo::rerun-if-changed={}", inputs.display());
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let mut files: Vec<PathBuf> = std::fs::read_dir(&inputs)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let mut modules = String::new();
    for file in &files {
        let stem = file.file_stem().unwrap().to_string_lossy();
        let module = format!("input_{}", stem.replace(['-', '.'], "_"));
        // Each input twice: as the tests use it, and with the optional derives off
        // (`derive_clone(false)`, `derive_partial_eq(false)`), which must compile
        // without warnings too: no generated code may lean on them.
        for (module, lean) in [(module.clone(), false), (format!("lean_{module}"), true)] {
            let dir = out.join(&module);
            // Both serde directions on every type: the tests read and write the
            // recursive and hostile types' JSON both ways. The GraphQL input keeps the
            // default directions: each type gets what its uses need, by its written name.
            let graphql = file.extension().is_some_and(|e| e == "graphql");
            if let Err(e) = toolwright_codegen::Config::new()
                .input(file)
                .full_serde(!graphql)
                .derive_clone(!lean)
                .derive_partial_eq(!lean)
                .out_dir(&dir)
                .cargo_directives(false)
                .generate()
            {
                panic!("{}: {e}", file.display());
            }
            writeln!(
                modules,
                "pub mod {module} {{ include!(concat!(env!(\"OUT_DIR\"), \"/{module}/toolwright.rs\")); }}"
            )
            .unwrap();
        }
        println!("cargo::rerun-if-changed={}", file.display());
    }
    std::fs::write(out.join("inputs.rs"), modules).unwrap();
}
