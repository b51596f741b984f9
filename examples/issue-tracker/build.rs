fn main() -> Result<(), toolwright_codegen::Error> {
    // Reads every `*-adapter.md` under adapters/ and writes the typed client and the
    // tool catalog to OUT_DIR. Problems in the adapters fail the build with
    // file:line:col diagnostics. `tests(true)`: the adapter's conformance cases
    // (adapters/tracker-adapter-tests.yaml) become `#[test]`s that `cargo test` runs
    // offline.
    toolwright_codegen::Config::new()
        .adapters("adapters")
        .tests(true)
        .generate()?;
    Ok(())
}
