fn main() -> Result<(), toolwright_codegen::Error> {
    // Reads every `*-adapter.md` under adapters/ and writes the typed client and the
    // tool catalog to OUT_DIR. Problems in the adapters fail the build with
    // file:line:col diagnostics.
    toolwright_codegen::Config::new()
        .adapters("adapters")
        .generate()?;
    Ok(())
}
