fn main() -> Result<(), toolwright_codegen::Error> {
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    // Two catalogs, as two services would have: adapter files, and OpenAPI documents.
    // With the inspection report (`TOOLWRIGHT_REPORT` names it; tests/report.rs).
    toolwright_codegen::Config::new()
        .adapters("../adapters")
        .out_dir(out.join("adapters"))
        .report("toolwright-report.html")
        .generate()?;
    toolwright_codegen::Config::new()
        .adapters("../openapi")
        .out_dir(out.join("openapi"))
        .generate()?;
    // A Google Discovery document (tests/discovery.rs).
    toolwright_codegen::Config::new()
        .discovery("../discovery")
        .out_dir(out.join("discovery"))
        .generate()?;
    // A GraphQL schema (tests/graphql.rs); its endpoint is given on the executor.
    toolwright_codegen::Config::new()
        .graphql("../graphql/tracker.graphql")
        .graphql_endpoint("tracker", "https://tracker.example/graphql")
        .graphql_scalar(
            "GitObjectID",
            serde_json::json!({"type": "string", "pattern": "^[0-9a-f]{40}$"}),
        )
        .out_dir(out.join("graphql"))
        .generate()?;
    // The adapters again, `weather` typed and the rest catalog-only.
    toolwright_codegen::Config::new()
        .adapters("../adapters")
        .typed("api:weather")
        .out_dir(out.join("typed_weather"))
        .generate()?;
    // The adapter format's own example, verbatim from its specification (tests/seed.rs).
    toolwright_codegen::Config::new()
        .adapters("../seed")
        .out_dir(out.join("seed"))
        .generate()?;
    Ok(())
}
