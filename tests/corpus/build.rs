//! One module per spec of the dev corpus (`tests/data/corpus/dev`),
//! and one per Google Discovery document of [`DISCOVERY`] (from the PyPI package
//! `google-api-python-client`, which ships them). Each gets its own catalog: tool names
//! only have to be unique per API.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let corpus = manifest.join("../data/corpus/dev");
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
    let documents = discovery_documents();
    println!("cargo::rerun-if-changed={}", documents.display());
    println!("cargo::rerun-if-env-changed=TOOLWRIGHT_DISCOVERY_DOCUMENTS");
    for name in DISCOVERY {
        let spec = documents.join(format!("{name}.json"));
        let module = format!("discovery_{}", name.replace(['.', '-'], "_"));
        if let Err(e) = toolwright_codegen::Config::new()
            .discovery(&spec)
            .out_dir(out.join(&module))
            .cargo_directives(false)
            .generate()
        {
            panic!("{}: {e}", spec.display());
        }
        writeln!(modules, "pub mod {module} {{ include!(concat!(env!(\"OUT_DIR\"), \"/{module}/toolwright.rs\")); }}").unwrap();
    }
    // GitHub's GraphQL schema (npm `@octokit/graphql-schema`, installed by `npm ci`
    // in tests/graphql), as SDL and as the introspection result: the same API read
    // both ways.
    let octokit = manifest.join("../graphql/node_modules/@octokit/graphql-schema");
    println!("cargo::rerun-if-changed={}", octokit.display());
    for (file, module) in [
        ("schema.graphql", "graphql_github"),
        ("schema.json", "graphql_github_introspection"),
    ] {
        let spec = octokit.join(file);
        assert!(
            spec.is_file(),
            "GitHub's GraphQL schema is needed at {}: `npm ci` in tests/graphql",
            spec.display()
        );
        if let Err(e) = toolwright_codegen::Config::new()
            .graphql(&spec)
            .api_name("schema", "github")
            .graphql_endpoint("github", "https://api.github.com/graphql")
            .out_dir(out.join(module))
            .cargo_directives(false)
            .generate()
        {
            panic!("{}: {e}", spec.display());
        }
        writeln!(modules, "pub mod {module} {{ include!(concat!(env!(\"OUT_DIR\"), \"/{module}/toolwright.rs\")); }}").unwrap();
    }
    std::fs::write(out.join("corpus.rs"), modules).unwrap();
}

/// Google Discovery documents compiled here: the five and 22 more, small and
/// large (compute v1: 1,025 methods).
const DISCOVERY: &[&str] = &[
    "drive.v3",
    "gmail.v1",
    "calendar.v3",
    "youtube.v3",
    "compute.v1",
    "sheets.v4",
    "docs.v1",
    "slides.v1",
    "storage.v1",
    "bigquery.v2",
    "pubsub.v1",
    "people.v1",
    "tasks.v1",
    "admin.directory_v1",
    "cloudresourcemanager.v3",
    "iam.v1",
    "run.v2",
    "container.v1",
    "sqladmin.v1",
    "dns.v1",
    "logging.v2",
    "monitoring.v3",
    "translate.v3",
    "vision.v1",
    "firestore.v1",
    "forms.v1",
    "books.v1",
];

/// Where `google-api-python-client` keeps its Discovery documents
/// (`TOOLWRIGHT_DISCOVERY_DOCUMENTS` overrides).
fn discovery_documents() -> PathBuf {
    if let Some(dir) = std::env::var_os("TOOLWRIGHT_DISCOVERY_DOCUMENTS") {
        return PathBuf::from(dir);
    }
    let found = std::process::Command::new("python3")
        .args([
            "-c",
            "import googleapiclient, os; print(os.path.join(os.path.dirname(googleapiclient.__file__), 'discovery_cache', 'documents'))",
        ])
        .output();
    match found {
        Ok(out) if out.status.success() => {
            PathBuf::from(String::from_utf8_lossy(&out.stdout).trim().to_owned())
        }
        _ => panic!(
            "the Google Discovery documents are needed: `pip install google-api-python-client` (or set TOOLWRIGHT_DISCOVERY_DOCUMENTS to a directory of them)"
        ),
    }
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
