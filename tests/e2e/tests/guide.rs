//! Every Rust snippet of the guide (`docs/*.md`) compiles: `build.rs` turns each
//! ```rust block into the body of an async function (given an `executor`, the model's
//! `call`, and a generated `catalog()` in scope), included here. A snippet that stops
//! compiling fails this test's build.

use toolwright_e2e::adapters::catalog;

/// A function call as a model's answer holds it (`docs/models.md`).
#[derive(Debug)]
pub struct Call {
    pub name: String,
    pub arguments: serde_json::Value,
}

mod snippets {
    use super::{Call, catalog};
    // `docs/streams.md` uses the shop API of `tests/openapi`.
    #[allow(unused_imports)]
    use toolwright_e2e::openapi::shop;
    include!(concat!(env!("OUT_DIR"), "/guide.rs"));
}

#[test]
fn every_rust_block_of_the_guide_is_compiled() {
    // Counted again from the files as they are now: none left out of `guide.rs`.
    let docs = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs");
    let mut blocks = 0;
    for entry in std::fs::read_dir(docs).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|ext| ext == "md") {
            let text = std::fs::read_to_string(&path).unwrap();
            blocks += text.lines().filter(|line| *line == "```rust").count();
        }
    }
    assert!(blocks >= 5, "the guide has Rust snippets");
    assert_eq!(snippets::SNIPPETS, blocks);
}
