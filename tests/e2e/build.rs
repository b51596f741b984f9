fn main() -> Result<(), toolwright_codegen::Error> {
    toolwright_codegen::Config::new()
        .adapters("../adapters")
        .generate()?;
    Ok(())
}
