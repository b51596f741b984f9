//! Corpus check: every operation of every spec in `tests/data/corpus/dev`, called by
//! name through the interpreted catalog (what `toolwright call`/`serve` run) against
//! Prism mocking that spec with request validation (`--errors`), with arguments
//! synthesized from the tool's own input schema. Prints, per spec, how many requests
//! Prism accepted and rejected, then every rejection with Prism's reasons.
//!
//! Run: `benches/prism_corpus.sh` (or `cargo run -p toolwright-e2e --example
//! prism_corpus -- [SPEC...]`). Needs `npm ci` in `tests/prism`.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};
use toolwright::{CredentialSource, Error, Executor};
use toolwright_loopback::prism::Prism;

/// A value the schema accepts, as simple as possible: required properties, plus
/// optional scalars (so that parameter encodings are exercised too).
fn synthesize(schema: &Value, defs: &dyn Fn(&str) -> Option<Value>, depth: usize) -> Value {
    if depth > 6 {
        return Value::Null;
    }
    let Some(object) = schema.as_object() else {
        return json!("x");
    };
    if let Some(r) = object.get("$ref").and_then(Value::as_str)
        && let Some(target) = r.strip_prefix("#/$defs/").and_then(defs)
    {
        return synthesize(&target, defs, depth + 1);
    }
    if let Some(v) = object.get("const") {
        return v.clone();
    }
    if let Some(Value::Array(values)) = object.get("enum")
        && let Some(first) = values.iter().find(|v| !v.is_null())
    {
        return first.clone();
    }
    if let Some(example) = object.get("examples").and_then(|e| e.get(0)) {
        return example.clone();
    }
    if let Some(default) = object.get("default") {
        return default.clone();
    }
    for key in ["oneOf", "anyOf", "allOf"] {
        if let Some(Value::Array(options)) = object.get(key)
            && let Some(first) = options
                .iter()
                .find(|o| o.get("type") != Some(&json!("null")))
        {
            return synthesize(first, defs, depth + 1);
        }
    }
    let ty = match object.get("type") {
        Some(Value::String(t)) => t.as_str(),
        Some(Value::Array(types)) => types
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .unwrap_or("string"),
        _ if object.contains_key("properties") => "object",
        _ if object.contains_key("items") => "array",
        _ => "string",
    };
    let number = |k: &str| object.get(k).and_then(Value::as_f64);
    match ty {
        "integer" => {
            let mut v = number("minimum").map_or(1, |m| m.ceil() as i64);
            if let Some(x) = number("exclusiveMinimum") {
                v = v.max(x.floor() as i64 + 1);
            }
            if let Some(m) = number("multipleOf").filter(|m| *m >= 1.0) {
                let m = m as i64;
                v = (v + m - 1) / m * m;
            }
            if let Some(max) = number("maximum") {
                v = v.min(max as i64);
            }
            json!(v)
        }
        "number" => {
            let low = number("minimum")
                .or(number("exclusiveMinimum"))
                .unwrap_or(0.0);
            let high = number("maximum")
                .or(number("exclusiveMaximum"))
                .unwrap_or(low + 2.0);
            json!((low + high) / 2.0)
        }
        "boolean" => json!(true),
        "array" => {
            let item = object.get("items").cloned().unwrap_or(json!({}));
            let n = object
                .get("minItems")
                .and_then(Value::as_u64)
                .unwrap_or(1)
                .max(1);
            let items: Vec<Value> = (0..n)
                .map(|i| {
                    let v = synthesize(&item, defs, depth + 1);
                    match (&v, object.get("uniqueItems")) {
                        (Value::String(s), Some(Value::Bool(true))) => json!(format!("{s}{i}")),
                        (Value::Number(_), Some(Value::Bool(true))) => json!(i + 1),
                        _ => v,
                    }
                })
                .collect();
            Value::Array(items)
        }
        "object" => {
            let required: Vec<&str> = object
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let mut out = Map::new();
            if let Some(Value::Object(props)) = object.get("properties") {
                for (name, prop) in props {
                    if prop.get("readOnly") == Some(&json!(true)) {
                        continue;
                    }
                    let scalar = matches!(
                        prop.get("type").and_then(Value::as_str),
                        Some("string" | "integer" | "number" | "boolean")
                    );
                    if required.contains(&name.as_str()) || (scalar && depth == 0) {
                        out.insert(name.clone(), synthesize(prop, defs, depth + 1));
                    }
                }
            }
            // `dependentRequired`: what a given property brings along.
            if let (Some(Value::Object(deps)), Some(Value::Object(props))) =
                (object.get("dependentRequired"), object.get("properties"))
            {
                let given: Vec<String> = out.keys().cloned().collect();
                for key in given {
                    for dep in deps
                        .get(&key)
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                    {
                        if let Some(dep) = dep.as_str()
                            && !out.contains_key(dep)
                            && let Some(schema) = props.get(dep)
                        {
                            out.insert(dep.to_owned(), synthesize(schema, defs, depth + 1));
                        }
                    }
                }
            }
            Value::Object(out)
        }
        _ => {
            let format = object.get("format").and_then(Value::as_str).unwrap_or("");
            let min = object.get("minLength").and_then(Value::as_u64).unwrap_or(1) as usize;
            let text = match format {
                "date" => "2024-01-31".to_owned(),
                "date-time" => "2024-01-31T12:00:00Z".to_owned(),
                "time" => "12:00:00Z".to_owned(),
                "duration" => "PT1H".to_owned(),
                "uuid" => "123e4567-e89b-12d3-a456-426614174000".to_owned(),
                "email" => "a@example.com".to_owned(),
                "uri" | "url" => "https://example.com/x".to_owned(),
                "ipv4" => "192.0.2.1".to_owned(),
                "binary" | "byte" => "aGk=".to_owned(),
                _ if object.get("contentEncoding").is_some() => "aGk=".to_owned(),
                _ => "a".repeat(min.max(1)),
            };
            json!(text)
        }
    }
}

/// Prism's reasons for a 422, one line each.
fn reasons(body: &Value) -> Vec<String> {
    body.get("validation")
        .and_then(Value::as_array)
        .map(|v| {
            v.iter()
                .map(|e| {
                    format!(
                        "{} ({})",
                        e.get("message").and_then(Value::as_str).unwrap_or("?"),
                        e.get("location").map(Value::to_string).unwrap_or_default()
                    )
                })
                .collect()
        })
        .unwrap_or_else(|| vec![body.to_string().chars().take(200).collect()])
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/corpus/dev");
    let mut specs: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    if specs.is_empty() {
        specs = std::fs::read_dir(&corpus)
            .expect("the dev corpus")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        specs.sort();
    }
    let (mut accepted, mut rejected, mut unsynthesized, mut other) = (0, 0, 0, 0);
    let mut rejections: Vec<String> = Vec::new();
    for spec in &specs {
        let name = spec.file_name().unwrap().to_string_lossy().into_owned();
        let analysis = toolwright_codegen::analyze(std::slice::from_ref(spec), false);
        let Ok(catalog) = toolwright_cli::interpret::catalog(&analysis.apis) else {
            println!("{name}: no catalog");
            continue;
        };
        let prism = match Prism::start(spec) {
            Ok(p) => p,
            Err(e) => {
                println!("{name}: {e}");
                continue;
            }
        };
        let mut builder =
            Executor::builder(catalog.clone()).credentials(CredentialSource::from_fn(|_| {
                Some("test-credential".into())
            }));
        for api in catalog.apis() {
            builder = builder.base_url(api.name.to_string(), &prism.url);
        }
        let Ok(executor) = builder.build() else {
            println!("{name}: no executor");
            continue;
        };
        let (mut ok, mut bad) = (0, 0);
        for tool in catalog.tools() {
            let schema: Value = serde_json::from_str(&tool.input_schema).unwrap_or_default();
            let api = catalog.api(&tool.operation.api);
            let defs = |n: &str| {
                api?.definitions
                    .iter()
                    .find(|d| d.name == n)
                    .and_then(|d| serde_json::from_str(&d.input).ok())
            };
            let args = synthesize(&schema, &defs, 0);
            match executor.call(&tool.name, args.clone()).await {
                Ok(_) => ok += 1,
                Err(Error::Status {
                    status: 422, body, ..
                }) => {
                    bad += 1;
                    rejections.push(format!(
                        "{name} {} {} {}\n    args {args}\n    {}",
                        tool.name,
                        tool.operation.method.as_str(),
                        tool.operation.path,
                        reasons(&body).join("\n    ")
                    ));
                }
                Err(Error::InvalidArguments { message, .. }) => {
                    unsynthesized += 1;
                    eprintln!(
                        "{name} {}: synthesized arguments refused: {message}",
                        tool.name
                    );
                }
                // Prism answered, not with a validation error (an example it cannot
                // render, a documented non-2xx it picked): the request passed.
                Err(Error::Status { .. } | Error::Decode { .. }) => ok += 1,
                Err(e) => {
                    other += 1;
                    eprintln!("{name} {}: {e}", tool.name);
                }
            }
        }
        accepted += ok;
        rejected += bad;
        println!("{name}: {ok} accepted, {bad} rejected");
    }
    println!("\nrejections:");
    for r in &rejections {
        println!("{r}");
    }
    let total = accepted + rejected;
    println!(
        "\n{total} requests: {accepted} accepted, {rejected} rejected ({:.1}% accepted); {unsynthesized} not sent (synthesized arguments refused by our own check), {other} other failures",
        100.0 * accepted as f64 / total.max(1) as f64
    );
}
