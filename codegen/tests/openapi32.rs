//! OpenAPI 3.2 changes nothing for what 3.1 already says: a 3.1 document whose version
//! line alone is changed to 3.2 generates the same code, catalog and search index —
//! but for the version itself, which the catalog's API metadata records. Checked on
//! our 3.1 fixtures and on the real documents of the dev corpus (3.0.x as published,
//! read here as 3.1 and as 3.2: the claim is about the two readings, whatever the
//! text).

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_owned()
}

/// `text` with its version line set to `version` (the first `openapi` field only).
fn with_version(text: &str, version: &str, json: bool) -> String {
    let (start, end) = if json {
        let key = text.find("\"openapi\"").expect("an openapi field");
        let open = key + text[key + 9..].find('"').unwrap() + 9;
        let close = open + 1 + text[open + 1..].find('"').unwrap();
        (open + 1, close)
    } else {
        let line = text
            .lines()
            .find(|l| l.starts_with("openapi:"))
            .expect("an openapi line");
        let start = text.find(line).unwrap() + "openapi:".len();
        (start, text.find(line).unwrap() + line.len())
    };
    let value = if json {
        version.to_owned()
    } else {
        format!(" {version}")
    };
    format!("{}{value}{}", &text[..start], &text[end..])
}

/// Generates `text` (named `name`) into `out`; the files' names and bytes.
fn generate(name: &str, text: &str, out: &Path) -> Vec<(String, Vec<u8>)> {
    let input = out.join("in");
    std::fs::create_dir_all(&input).unwrap();
    std::fs::write(input.join(name), text).unwrap();
    let generated = toolwright_codegen::Config::new()
        .adapters(&input)
        .out_dir(out.join("out"))
        .cargo_directives(false)
        .generate()
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    generated
        .files
        .iter()
        .map(|f| (f.clone(), std::fs::read(out.join("out").join(f)).unwrap()))
        .collect()
}

/// Every byte where `a` (read as 3.1) and `b` (as 3.2) differ lies inside the version
/// they were given (same length, so positions line up); how many such places.
fn differ_only_in_version(name: &str, file: &str, a: &[u8], b: &[u8]) -> usize {
    assert_eq!(a.len(), b.len(), "{name}: {file} differs in length");
    let (v31, v32) = (b"3.1.2", b"3.2.0");
    let mut places = 0;
    let mut i = 0;
    while i < a.len() {
        if a[i] == b[i] {
            i += 1;
            continue;
        }
        let start = (i.saturating_sub(4)..=i)
            .find(|&j| a.get(j..j + 5) == Some(v31) && b.get(j..j + 5) == Some(v32))
            .unwrap_or_else(|| {
                let from = i.saturating_sub(60);
                panic!(
                    "{name}: {file} differs at byte {i} beyond the version:\n3.1: {}\n3.2: {}",
                    String::from_utf8_lossy(&a[from..(i + 60).min(a.len())]),
                    String::from_utf8_lossy(&b[from..(i + 60).min(b.len())]),
                )
            });
        places += 1;
        i = start + 5;
    }
    places
}

#[test]
fn a_31_document_declared_32_generates_the_same_catalog() {
    let mut documents: Vec<PathBuf> = vec![
        root().join("tests/openapi/library.json"),
        root().join("tests/openapi/constraints.yaml"),
    ];
    let mut corpus: Vec<PathBuf> = std::fs::read_dir(root().join("tests/data/corpus/dev"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    corpus.sort();
    documents.extend(corpus);
    let base = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("openapi32-same");
    let mut compared = 0;
    for path in &documents {
        let _ = std::fs::remove_dir_all(&base);
        let name = path.file_name().unwrap().to_str().unwrap();
        let json = name.ends_with(".json");
        let text = std::fs::read_to_string(path).unwrap();
        let as31 = generate(name, &with_version(&text, "3.1.2", json), &base.join("31"));
        let as32 = generate(name, &with_version(&text, "3.2.0", json), &base.join("32"));
        let names = |files: &[(String, Vec<u8>)]| -> Vec<String> {
            files.iter().map(|(n, _)| n.clone()).collect()
        };
        assert_eq!(names(&as31), names(&as32), "{name}");
        let mut places = 0;
        for ((file, a), (_, b)) in as31.iter().zip(&as32) {
            places += differ_only_in_version(name, file, a, b);
        }
        // The API's metadata records the version: it is the one difference.
        assert!(places >= 1, "{name}: the version is recorded nowhere");
        compared += 1;
    }
    assert_eq!(compared, documents.len());
    assert!(
        compared >= 42,
        "the corpus went missing: {compared} documents"
    );
}
