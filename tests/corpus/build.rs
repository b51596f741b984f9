//! One module per spec of the dev corpus (`../shared/corpus/dev` next to the checkout).
//! Each spec gets its own catalog: tool names only have to be unique per API.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let corpus = manifest.join("../../../shared/corpus/dev");
    println!("cargo::rerun-if-changed={}", corpus.display());
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let mut specs: Vec<PathBuf> = match std::fs::read_dir(&corpus) {
        Ok(rd) => rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect(),
        Err(e) => panic!("the dev corpus is missing at {}: {e}", corpus.display()),
    };
    specs.sort();
    assert_eq!(specs.len(), 40, "expected the 40 specs of the dev corpus");
    let mut modules = String::new();
    for spec in &specs {
        let module = module_name(spec);
        let dir = out.join(&module);
        if let Err(e) = toolwright_codegen::Config::new()
            .adapters(spec)
            .out_dir(&dir)
            .cargo_directives(false)
            .generate()
        {
            panic!("{}: {e}", spec.display());
        }
        println!("cargo::rerun-if-changed={}", spec.display());
        writeln!(modules, "pub mod {module} {{ include!(concat!(env!(\"OUT_DIR\"), \"/{module}/toolwright.rs\")); }}").unwrap();
    }
    std::fs::write(out.join("corpus.rs"), modules).unwrap();
}

fn module_name(spec: &Path) -> String {
    let stem = spec.file_stem().unwrap().to_string_lossy();
    // `spec_` keeps the wrapper module's name apart from the API module inside it.
    let mut name: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    name.insert_str(0, "spec_");
    name
}
