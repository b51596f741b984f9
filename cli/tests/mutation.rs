//! Mutation test: a few hundred mutants of real specs (the dev corpus), of a Google
//! Discovery document and a saved MCP `tools/list`, and of the test adapters and a
//! GraphQL schema, made with a fixed seed, each run through `toolwright generate` in its own
//! process (a panic, a stack overflow or a hang would be caught there, not take the
//! test down). Every mutant must end in under 10 s with success or reported
//! diagnostics, never a crash; a sample of the accepted ones is compiled together, as a
//! user's crate would compile them, with warnings denied.
//!
//! `TOOLWRIGHT_MUTANTS=N` changes the number of mutants (default 240),
//! `TOOLWRIGHT_MUTATION_SEED=S` the seed, `TOOLWRIGHT_BIN=PATH` the binary under test
//! (e.g. an older build, to see what the mutants find there).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// Small, varied specs of the dev corpus (generation in a debug build stays fast).
const SPECS: &[&str] = &[
    "trapstreet.com_api.json",
    "deutschebahn.com_betriebsstellen.json",
    "carbondoomsday.com_api.json",
    "circl.lu_hashlookup.json",
    "hubapi.com_conversations.json",
    "openuv.io_api.json",
    "symanto.net_api.json",
    "azure.com_monitor-metrics_API.json",
    "6-dot-authentiqio.appspot.com_api.json",
    "etmdb.com_api.json",
    "amazonaws.com_sso.json",
    "pandorabots.com_api.json",
];

/// Documents of the other sources, from this repository: a Google Discovery document
/// and a saved MCP `tools/list`.
const OTHER_SOURCES: &[&str] = &[
    "tests/discovery/library.v1.json",
    "tests/mcp/everything.json",
];

const ADAPTERS: &[&str] = &["notes", "billing", "weather"];

/// Characters inserted into a line: multi-byte ones (spans), YAML syntax.
const INSERTS: &[&str] = &["é", "😀", "\u{2028}", "\"", "'", ":", "&a", "*a", "["];

const LIMIT: Duration = Duration::from_secs(10);

/// splitmix64: a fixed seed gives the same mutants on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Texts that have broken generators: names the generator uses itself, names that
/// fold together, code and markup, text rustc refuses, non-status response keys.
const WEIRD_NAMES: &[&str] = &[
    "Client",
    "new",
    "executor",
    "OPERATIONS",
    "toolwright",
    "self",
    "type",
    "GetXInput",
    "4xx",
    "4XX",
    "x-error",
    "-1",
    "404'",
    "{x}",
    "",
    "é",
    "a/b",
    "a~b",
    "Ünïcödé",
    "getX",
    "get_x",
    "std",
    "catalog",
    "TOOLS",
];

const WEIRD_TEXTS: &[&str] = &[
    "```rust\nfn main() { std::process::exit(3) }\n```",
    "    std::process::exit(4);",
    "<script>alert(1)</script>",
    "a\u{202e}b\u{2066}c",
    "bare\rcarriage",
    "\u{feff}bom",
    "é😀\u{2028}",
    "javascript:alert(1)",
    "file:///etc/passwd",
    "https://user:secret@api.example.com",
    "http://api.example.com",
];

fn weird_value(rng: &mut Rng, refs: &[String]) -> Value {
    match rng.below(12) {
        0 => Value::Null,
        1 => json!(-1),
        2 => json!(u64::MAX),
        3 => json!(1e300),
        4 => json!(""),
        5 => json!({}),
        6 => json!([]),
        7 => json!(true),
        8 => json!(rng.pick(WEIRD_TEXTS)),
        9 => json!(rng.pick(WEIRD_NAMES)),
        10 if !refs.is_empty() => json!({ "$ref": rng.pick(refs) }),
        _ => json!({ "$ref": "#/components/schemas/DoesNotExist" }),
    }
}

/// Paths (as key/index lists) to every node of `value`, in document order.
fn paths(value: &Value, prefix: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
    out.push(prefix.clone());
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                prefix.push(json!(k));
                paths(v, prefix, out);
                prefix.pop();
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                prefix.push(json!(i));
                paths(v, prefix, out);
                prefix.pop();
            }
        }
        _ => {}
    }
}

fn node_mut<'a>(mut value: &'a mut Value, path: &[Value]) -> &'a mut Value {
    for step in path {
        value = match step {
            Value::String(k) => &mut value[k.as_str()],
            Value::Number(i) => &mut value[i.as_u64().unwrap_or(0) as usize],
            _ => value,
        };
    }
    value
}

/// One structural mutation of an OpenAPI document.
fn mutate_json(rng: &mut Rng, doc: &mut Value) {
    let schema_names: Vec<String> = doc
        .pointer("/components/schemas")
        .and_then(Value::as_object)
        .map(|m| {
            m.keys()
                .map(|k| format!("#/components/schemas/{k}"))
                .collect()
        })
        .unwrap_or_default();
    let mut all = Vec::new();
    paths(doc, &mut Vec::new(), &mut all);
    let path = rng.pick(&all).clone();
    let refs = schema_names.clone();
    match rng.below(8) {
        // Replace a node with an odd value.
        0 | 1 => *node_mut(doc, &path) = weird_value(rng, &refs),
        // Rename or add a key.
        2 | 3 => {
            let node = node_mut(doc, &path);
            if let Value::Object(map) = node {
                let new_key = rng.pick(WEIRD_NAMES).to_string();
                let value = match map.keys().nth(rng.below(map.len())).cloned() {
                    Some(old) if rng.below(2) == 0 => map.remove(&old).unwrap_or(Value::Null),
                    Some(old) => map.get(&old).cloned().unwrap_or(Value::Null),
                    None => weird_value(rng, &refs),
                };
                map.insert(new_key, value);
            } else {
                *node = weird_value(rng, &refs);
            }
        }
        // Delete a key or an item.
        4 => {
            if let Some((last, parent)) = path.split_last() {
                match (node_mut(doc, parent), last) {
                    (Value::Object(map), Value::String(k)) => {
                        map.remove(k);
                    }
                    (Value::Array(items), Value::Number(i)) => {
                        let i = i.as_u64().unwrap_or(0) as usize;
                        if i < items.len() {
                            items.remove(i);
                        }
                    }
                    _ => {}
                }
            }
        }
        // Reference cycles: point a schema at another (or itself), or wrap it.
        5 if !schema_names.is_empty() => {
            let target = rng.pick(&schema_names).clone();
            let name = rng
                .pick(&schema_names)
                .trim_start_matches("#/components/schemas/")
                .to_owned();
            let wrapped = match rng.below(5) {
                0 => json!({ "$ref": target }),
                1 => json!({ "anyOf": [{ "$ref": target }] }),
                2 => json!({ "allOf": [{ "$ref": target }, { "$ref": target }] }),
                // The second campaign's hang: a schema whose `allOf` lists another (or
                // itself) many times, beside properties of its own. A walk without a
                // visited set takes k^depth steps through it.
                3 => {
                    let mut members = vec![json!({ "$ref": target }); 2 + rng.below(7)];
                    members.push(json!({"properties": {"next": {"type": "string"}}}));
                    json!({ "allOf": members })
                }
                _ => json!({ "type": "array", "items": { "$ref": target } }),
            };
            doc["components"]["schemas"][name] = wrapped;
        }
        // A subtree copied somewhere else.
        6 => {
            let from = rng.pick(&all).clone();
            let copy = node_mut(doc, &from).clone();
            *node_mut(doc, &path) = copy;
        }
        // Odd response keys or servers.
        _ => {
            if rng.below(2) == 0 {
                doc["servers"] = json!([{ "url": rng.pick(WEIRD_TEXTS) }]);
            } else if let Some(Value::Object(paths)) = doc.get_mut("paths")
                && let Some(item) = paths.values_mut().next()
                && let Some(Value::Object(op)) = item
                    .as_object_mut()
                    .and_then(|m| m.values_mut().find(|v| v.is_object()))
            {
                op.entry("responses").or_insert_with(|| json!({}))
                    [rng.pick(WEIRD_NAMES).to_string()] = json!({
                    "description": rng.pick(WEIRD_TEXTS),
                    "content": {"application/json": {"schema": {"type": "object", "properties": {"a": {"type": "string"}}}}}
                });
            }
        }
    }
}

/// One line-level mutation of a text file (adapters, YAML).
fn mutate_text(rng: &mut Rng, text: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    if lines.is_empty() {
        return text.to_owned();
    }
    let i = rng.below(lines.len());
    match rng.below(9) {
        0 => {
            lines.remove(i);
        }
        1 => {
            let line = lines[i].clone();
            lines.insert(i, line);
        }
        2 => {
            let j = rng.below(lines.len());
            lines.swap(i, j);
        }
        3 => lines[i] = format!("  {}", lines[i]),
        4 => lines[i] = lines[i].trim_start().to_owned(),
        5 => {
            let indent: String = lines[i].chars().take_while(|c| *c == ' ').collect();
            let weird = match rng.below(5) {
                0 => "requried: true".to_owned(),
                1 => format!("description: {:?}", rng.pick(WEIRD_TEXTS)),
                2 => format!("{}: {{ type: string }}", rng.pick(WEIRD_NAMES)),
                3 => "maps_to: \"GET /{x}/{x}\"".to_owned(),
                _ => "minimum: 99999999999999999999999".to_owned(),
            };
            lines.insert(i, format!("{indent}{weird}"));
        }
        6 => {
            // Cut the file at a character boundary.
            let joined = lines.join("\n");
            let mut at = rng.below(joined.len());
            while !joined.is_char_boundary(at) {
                at -= 1;
            }
            return joined[..at].to_owned();
        }
        7 => return format!("\u{feff}{}", lines.join("\n")),
        _ => {
            let line = &lines[i];
            if let Some((at, _)) = line.char_indices().nth(rng.below(line.chars().count())) {
                let mut changed = line.clone();
                let insert: &&str = rng.pick(INSERTS);
                changed.insert_str(at, insert);
                lines[i] = changed;
            }
        }
    }
    lines.join("\n") + "\n"
}

enum Outcome {
    Accepted,
    Refused,
}

/// Runs `toolwright generate` on one mutant; panics (with the reproducer's path) on
/// a crash, a panic or a run over the limit.
fn generate(input: &Path, out: &Path) -> Outcome {
    let started = Instant::now();
    let binary = std::env::var_os("TOOLWRIGHT_BIN")
        .unwrap_or_else(|| env!("CARGO_BIN_EXE_toolwright").into());
    let mut child = Command::new(binary)
        .arg("generate")
        .arg(input)
        .arg("--out")
        .arg(out)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run toolwright");
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for toolwright") {
            break status;
        }
        if started.elapsed() > LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{}: generate ran over {LIMIT:?}", input.display());
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let mut stderr = String::new();
    if let Some(mut pipe) = child.stderr.take() {
        use std::io::Read;
        let _ = pipe.read_to_string(&mut stderr);
    }
    match status.code() {
        Some(0) => Outcome::Accepted,
        Some(1) if !stderr.contains("panicked") => Outcome::Refused,
        other => panic!(
            "{}: generate crashed (exit {other:?}):\n{stderr}",
            input.display()
        ),
    }
}

#[test]
fn mutants_never_crash_hang_or_generate_code_that_does_not_compile() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let corpus = toolwright_loopback::corpus::dev();
    let count: usize = std::env::var("TOOLWRIGHT_MUTANTS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(240);
    let seed: u64 = std::env::var("TOOLWRIGHT_MUTATION_SEED")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0x7001_5717);
    let work = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("mutants");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();

    let specs: Vec<(String, Value)> = SPECS
        .iter()
        .map(|name| {
            let text = std::fs::read_to_string(corpus.join(name))
                .unwrap_or_else(|e| panic!("{name}: {e} (the dev corpus is needed)"));
            (name.to_string(), serde_json::from_str(&text).unwrap())
        })
        .chain(OTHER_SOURCES.iter().map(|path| {
            let text = std::fs::read_to_string(root.join(path)).unwrap();
            let name = Path::new(path)
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned();
            (name, serde_json::from_str(&text).unwrap())
        }))
        .collect();
    // Text documents: the adapters, and a GraphQL schema (SDL).
    let adapters: Vec<(String, String)> = ADAPTERS
        .iter()
        .map(|name| {
            let path = root.join(format!("tests/adapters/{name}-adapter.md"));
            (
                format!("{name}-adapter.md"),
                std::fs::read_to_string(path).unwrap(),
            )
        })
        .chain(std::iter::once((
            "tracker.graphql".to_owned(),
            std::fs::read_to_string(root.join("tests/graphql/tracker.graphql")).unwrap(),
        )))
        .collect();

    let mut rng = Rng(seed);
    let mut jobs: Vec<(PathBuf, PathBuf)> = Vec::new();
    for n in 0..count {
        let dir = work.join(format!("m{n:03}"));
        std::fs::create_dir_all(&dir).unwrap();
        let input = match rng.below(4) {
            // Structural mutants of a spec, 1 to 3 mutations each.
            0 | 1 => {
                let (name, spec) = rng.pick(&specs);
                let mut doc = spec.clone();
                for _ in 0..=rng.below(3) {
                    mutate_json(&mut rng, &mut doc);
                }
                let path = dir.join(name.replace(".json", "").replace(['.', '-'], "_") + ".json");
                std::fs::write(&path, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
                path
            }
            // Text mutants of a spec (as JSON text: broken syntax, BOM, cuts).
            2 => {
                let (name, spec) = rng.pick(&specs);
                let text = mutate_text(&mut rng, &serde_json::to_string_pretty(spec).unwrap());
                let path = dir.join(name.replace(".json", "").replace(['.', '-'], "_") + ".json");
                std::fs::write(&path, text).unwrap();
                path
            }
            // Text mutants of an adapter or of the GraphQL schema.
            _ => {
                let (name, text) = rng.pick(&adapters);
                let mut text = text.clone();
                for _ in 0..=rng.below(3) {
                    text = mutate_text(&mut rng, &text);
                }
                let path = dir.join(name);
                std::fs::write(&path, text).unwrap();
                path
            }
        };
        jobs.push((input, dir.join("out")));
    }

    // Two workers: the machine's cores.
    let accepted: Vec<usize> = std::thread::scope(|scope| {
        let halves: Vec<_> = (0..2)
            .map(|worker| {
                let jobs = &jobs;
                scope.spawn(move || {
                    jobs.iter()
                        .enumerate()
                        .skip(worker)
                        .step_by(2)
                        .filter(|(_, (input, out))| {
                            matches!(generate(input, out), Outcome::Accepted)
                        })
                        .map(|(i, _)| i)
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let mut all: Vec<usize> = halves.into_iter().flat_map(|h| h.join().unwrap()).collect();
        all.sort_unstable();
        all
    });
    eprintln!(
        "{} mutants: {} accepted, {} refused with diagnostics",
        jobs.len(),
        accepted.len(),
        jobs.len() - accepted.len()
    );
    assert!(
        accepted.len() * 5 >= jobs.len() && accepted.len() < jobs.len(),
        "the mutants should be a mix of accepted and refused inputs"
    );

    // Every fourth accepted mutant, compiled together in one crate.
    let crate_dir = work.join("check");
    std::fs::create_dir_all(crate_dir.join("src")).unwrap();
    let runtime = root.join("runtime");
    std::fs::write(
        crate_dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"mutants\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\n\
             [dependencies]\ntoolwright = {{ path = {:?}, default-features = false }}\n\n[workspace]\n",
            runtime.display().to_string()
        ),
    )
    .unwrap();
    let mut lib = String::from("#![deny(warnings)]\n");
    let sample: Vec<usize> = accepted.iter().copied().step_by(4).collect();
    for i in &sample {
        let out = &jobs[*i].1;
        writeln!(
            lib,
            "pub mod m{i:03} {{ include!({:?}); }}",
            out.join("toolwright.rs").display().to_string()
        )
        .unwrap();
    }
    std::fs::write(crate_dir.join("src/lib.rs"), lib).unwrap();
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from);
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(cargo)
        .args(["check", "--quiet", "--message-format", "short"])
        .current_dir(&crate_dir)
        .env("CARGO_TARGET_DIR", target.join("mutants"))
        .output()
        .expect("run cargo check");
    assert!(
        output.status.success(),
        "accepted mutants that do not compile (inputs under {}):\n{}",
        work.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    eprintln!("{} accepted mutants compiled", sample.len());
}
