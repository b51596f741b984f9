//! The catalog as TypeScript declarations, checked by the TypeScript compiler itself
//! (`tsc --strict`, installed by `scripts/setup-tests` in `tests/typescript`): every
//! dev spec's, GitHub's, Stripe's and Kubernetes' declarations and a search result's
//! compile; a function per tool; the `.d.ts` a build writes is the text the runtime
//! and the CLI print.

use std::path::{Path, PathBuf};
use std::process::Command;

use toolwright::Catalog;

fn specs() -> Vec<PathBuf> {
    toolwright_loopback::corpus::dev_json_and_big("toolwright-typescript-github.json")
}

fn catalog(spec: &Path) -> Catalog {
    let analysis = toolwright_codegen::analyze(&[spec.to_path_buf()], false);
    assert!(!analysis.has_errors(), "{}", analysis.render());
    toolwright_cli::interpret::catalog(&analysis.apis).expect("a catalog")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("toolwright-ts-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// `tsc --noEmit --strict` over `files`: its diagnostics, if any.
fn compile(files: &[PathBuf]) -> Result<(), String> {
    let tsc = toolwright_loopback::npm_package("typescript", "node_modules/.bin/tsc")
        .expect("the TypeScript compiler (scripts/setup-tests installs it)");
    let out = Command::new(tsc)
        .args(["--noEmit", "--strict", "--lib", "es2022"])
        .args(files)
        .output()
        .expect("tsc runs");
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stdout).into_owned())
    }
}

/// The functions a declaration text declares (two-space indent: namespace members).
fn functions(text: &str) -> Vec<&str> {
    text.lines()
        .filter_map(|l| l.strip_prefix("  function "))
        .filter_map(|l| l.split('(').next())
        .collect()
}

#[test]
fn declarations_of_real_specs_compile_with_a_function_per_tool() {
    let dir = scratch("corpus");
    let mut files = Vec::new();
    let mut report = Vec::new();
    for spec in specs() {
        let catalog = catalog(&spec);
        let text = catalog.typescript();
        let declared = functions(&text);
        let names: std::collections::BTreeSet<&str> = declared.iter().copied().collect();
        assert_eq!(
            (declared.len(), names.len()),
            (catalog.tools().len(), catalog.tools().len()),
            "{}: one function per tool, each its own name",
            spec.display()
        );
        for tool in catalog.tools() {
            let id = toolwright_query::declare::identifier(&tool.name);
            assert!(names.contains(id.as_str()), "{}: no {id}", spec.display());
        }
        let stem = spec.file_stem().and_then(|s| s.to_str()).unwrap_or("spec");
        let file = dir.join(format!("{stem}.d.ts"));
        std::fs::write(&file, &text).expect("written");
        files.push(file);
        report.push(format!(
            "{stem}: {} tools, {} bytes",
            catalog.tools().len(),
            text.len()
        ));
        if stem.contains("github") {
            // What a model is handed for one question: ten functions and their types.
            let hits = catalog.search("open an issue about a failing build", 10);
            let text = catalog.typescript_of(hits.iter().map(|h| h.tool));
            assert_eq!(functions(&text).len(), 10);
            // Compiled on its own: its types would clash with the whole API's.
            let file = dir.join("github-search.d.ts");
            std::fs::write(&file, &text).expect("written");
            if let Err(diagnostics) = compile(&[file]) {
                panic!("tsc rejects the search result's declarations:\n{diagnostics}");
            }
        }
        if stem.contains("stripe") {
            // Stripe's results reach hundreds of shared types; what a model is handed
            // keeps the nearest within a budget, and still compiles.
            let hits = catalog.search("refund the last charge", 10);
            let full = catalog.typescript_of(hits.iter().map(|h| h.tool));
            let brief = catalog.typescript_brief(hits.iter().map(|h| h.tool));
            assert_eq!(functions(&brief).len(), 10);
            assert!(
                brief.len() < 64 << 10 && full.len() > 4 * brief.len(),
                "brief {} bytes, full {} bytes",
                brief.len(),
                full.len()
            );
            assert!(
                brief.contains("= Record<string, unknown>; // not shown"),
                "{brief}"
            );
            let file = dir.join("stripe-search.d.ts");
            std::fs::write(&file, &brief).expect("written");
            if let Err(diagnostics) = compile(&[file]) {
                panic!("tsc rejects the brief declarations:\n{diagnostics}");
            }
            report.push(format!(
                "stripe search: {} bytes brief, {} bytes with every type reached",
                brief.len(),
                full.len()
            ));
        }
    }
    eprintln!("{}", report.join("\n"));
    if let Err(diagnostics) = compile(&files) {
        panic!("tsc rejects the declarations:\n{diagnostics}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_compiler_would_catch_a_broken_declaration() {
    // The check above is only worth something if tsc fails on bad text.
    let dir = scratch("broken");
    let file = dir.join("broken.d.ts");
    std::fs::write(
        &file,
        "declare namespace x {\n  interface A {\n    a: string;\n  }[]\n}\n",
    )
    .expect("written");
    assert!(compile(&[file]).is_err());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_built_file_the_cli_and_the_runtime_print_the_same_declarations() {
    let spec = toolwright_loopback::corpus::dev().join("spotify.com_api.json");
    let dir = scratch("build");
    toolwright_codegen::Config::new()
        .openapi(&spec)
        .out_dir(&dir)
        .cargo_directives(false)
        .declarations("toolwright.d.ts")
        .generate()
        .expect("generated");
    let built = std::fs::read_to_string(dir.join("toolwright.d.ts")).expect("the .d.ts");
    let runtime = catalog(&spec).typescript();
    assert_eq!(built, runtime);

    let out = Command::new(env!("CARGO_BIN_EXE_toolwright"))
        .args(["catalog", "--format", "typescript"])
        .arg(&spec)
        .output()
        .expect("the CLI runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), built);
    assert!(built.contains("function add_to_queue(args: {"), "{built}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn search_prints_the_declarations_of_its_hits() {
    let spec = toolwright_loopback::corpus::dev().join("spotify.com_api.json");
    let out = Command::new(env!("CARGO_BIN_EXE_toolwright"))
        .args([
            "search",
            "add a song to my playlist",
            "-k",
            "3",
            "--typescript",
        ])
        .arg(&spec)
        .output()
        .expect("the CLI runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(functions(&text).len(), 3, "{text}");
    assert!(text.contains("function add_tracks_to_playlist("), "{text}");

    // Declarations are of the API's own tools: `--mode meta` is refused, saying why.
    let out = Command::new(env!("CARGO_BIN_EXE_toolwright"))
        .args(["catalog", "--format", "typescript", "--mode", "meta"])
        .arg(&spec)
        .output()
        .expect("the CLI runs");
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--mode"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// An argument another function hands out names it, from the tool graph, in the build's
/// `.d.ts`, the runtime's declarations and code mode's alike: a script lists pets
/// before it reads one instead of guessing an id (#61). The text still compiles.
#[test]
fn arguments_name_the_functions_that_hand_them_out() {
    let spec =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../codegen/tests/contracts/petstore.yaml");
    let text = catalog(&spec).typescript();
    let line = |function: &str, argument: &str| -> String {
        let start = text
            .find(&format!("  function {function}("))
            .unwrap_or_else(|| panic!("no `{function}`: {text}"));
        text[start..]
            .lines()
            .find(|l| {
                l.trim_start()
                    .strip_prefix(argument)
                    .is_some_and(|rest| rest.starts_with(':') || rest.starts_with("?:"))
            })
            .unwrap_or_else(|| panic!("no `{argument}` in `{function}`: {text}"))
            .trim()
            .to_owned()
    };
    assert_eq!(
        line("getPetById", "petId"),
        "petId: number; // from findPetsByStatus()[].id, findPetsByTags()[].id, addPet().id"
    );
    assert_eq!(
        line("deleteOrder", "orderId"),
        "orderId: number; // from placeOrder().id"
    );
    // An argument nothing hands out says nothing.
    assert!(!line("findPetsByStatus", "status").contains("//"), "{text}");
    let dir = scratch("origins");
    let file = dir.join("petstore.d.ts");
    std::fs::write(&file, &text).unwrap();
    compile(&[file]).expect("the declarations compile");
    let _ = std::fs::remove_dir_all(dir);
}
