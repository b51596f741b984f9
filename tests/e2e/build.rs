fn main() -> Result<(), toolwright_codegen::Error> {
    // The fixtures hold warnings on purpose (the tests check them): past the first
    // catalog (whose directives tests/report.rs relies on), cargo is told only which
    // inputs to watch, so a build of the tests prints no `warning[TW…]` lines that look
    // like problems. An error still fails the build, rendered.
    for input in [
        "../openapi",
        "../discovery",
        "../graphql/tracker.graphql",
        "../seed",
        "../openapi32",
        "../../codegen/tests/arazzo",
    ] {
        println!("cargo::rerun-if-changed={input}");
    }
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
        .cargo_directives(false)
        .generate()?;
    // An OpenAPI 3.2 document using what 3.2 adds (tests/openapi32.rs).
    toolwright_codegen::Config::new()
        .adapters("../openapi32")
        .out_dir(out.join("openapi32"))
        .cargo_directives(false)
        .generate()?;
    // A Google Discovery document (tests/discovery.rs).
    toolwright_codegen::Config::new()
        .discovery("../discovery")
        .out_dir(out.join("discovery"))
        .cargo_directives(false)
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
        .cargo_directives(false)
        .generate()?;
    // The adapters again, `weather` typed and the rest catalog-only.
    toolwright_codegen::Config::new()
        .adapters("../adapters")
        .typed("api:weather")
        .out_dir(out.join("typed_weather"))
        .cargo_directives(false)
        .generate()?;
    // The adapters once more, every tool's entry embedded as data (`embed_tools`).
    toolwright_codegen::Config::new()
        .adapters("../adapters")
        .embed_tools(true)
        .out_dir(out.join("embedded_tools"))
        .cargo_directives(false)
        .generate()?;
    // The adapter format's own example, verbatim from its specification (tests/seed.rs).
    toolwright_codegen::Config::new()
        .adapters("../seed")
        .out_dir(out.join("seed"))
        .cargo_directives(false)
        .generate()?;
    // Arazzo workflows as typed methods (tests/arazzo.rs): ours over the
    // specification's pet-coupons API, and the specification's pet-coupons and OAuth
    // examples (corrected copies: two wrong parameter names; a broken workflow left out).
    toolwright_codegen::Config::new()
        .arazzo("../../codegen/tests/arazzo/pet-orders.arazzo.yaml")
        .out_dir(out.join("arazzo"))
        .cargo_directives(false)
        .generate()?;
    toolwright_codegen::Config::new()
        .arazzo("../../codegen/tests/arazzo/pet-coupons.fixed.arazzo.yaml")
        .out_dir(out.join("arazzo_example"))
        .cargo_directives(false)
        .generate()?;
    toolwright_codegen::Config::new()
        .arazzo("../../codegen/tests/arazzo/oauth.fixed.arazzo.yaml")
        .out_dir(out.join("arazzo_oauth"))
        .cargo_directives(false)
        .generate()?;
    guide_snippets(&out);
    Ok(())
}

/// Every ```rust block of the guide (`docs/*.md`), each as the body of an async function
/// in `OUT_DIR/guide.rs`, which `tests/guide.rs` compiles: a snippet that stops compiling
/// fails the build of that test. The function gets what the guide's prose assumes:
/// an `executor`, the model's `call`, and the generated `catalog()` in scope.
fn guide_snippets(out: &std::path::Path) {
    let docs = std::path::Path::new("../../docs");
    println!("cargo::rerun-if-changed={}", docs.display());
    let mut files: Vec<_> = std::fs::read_dir(docs)
        .expect("docs/ is readable")
        .map(|entry| entry.expect("a docs/ entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    files.sort();
    let mut code = String::new();
    let mut count = 0;
    for file in &files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(file).expect("a guide page is readable");
        let mut lines = text.lines().enumerate();
        while let Some((number, line)) = lines.next() {
            if line != "```rust" {
                continue;
            }
            let body: Vec<&str> = lines
                .by_ref()
                .map(|(_, line)| line)
                .take_while(|line| *line != "```")
                .collect();
            count += 1;
            let ident = format!(
                "docs_{}_line_{}",
                name.trim_end_matches(".md").replace('-', "_"),
                number + 1
            );
            code.push_str(&format!(
                "/// docs/{name}:{}\n#[allow(unused, unreachable_code, clippy::all)]\npub async fn {ident}(executor: ::toolwright::Executor, call: Call) -> Result<(), Box<dyn std::error::Error>> {{\n{}\nOk(())\n}}\n\n",
                number + 1,
                body.join("\n")
            ));
        }
    }
    code.push_str(&format!(
        "/// How many snippets the guide has.\npub const SNIPPETS: usize = {count};\n"
    ));
    std::fs::write(out.join("guide.rs"), code).expect("OUT_DIR is writable");
}
