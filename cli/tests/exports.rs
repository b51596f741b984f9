//! Every export rule, checked on the catalogs of the 40 real specs in
//! `tests/data/corpus/dev` and of GitHub, Stripe and Kubernetes: each exported schema
//! obeys its profile (checked here by rules written from the providers' documentation,
//! not by the exporter's code), names are unique and within budget, and a call made
//! with the exported names and keys — as a model would send it — reaches the right
//! operation on a loopback server with the API's own wire names.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use regex_lite::Regex;
use serde_json::{Value, json};
use toolwright::descriptor::{Method, ParamLocation};
use toolwright::export::{Export, ExportOptions, Profile};
use toolwright::{Catalog, CredentialSource, Executor};
use toolwright_loopback::{Response, Server};

/// Specs to check: every dev spec, and the big ones (GitHub unpacked to a temp dir).
fn specs() -> Vec<PathBuf> {
    let mut out = specs_unfiltered();
    // TOOLWRIGHT_EXPORT_SPECS=github,stripe narrows the run while iterating.
    if let Ok(only) = std::env::var("TOOLWRIGHT_EXPORT_SPECS") {
        out.retain(|p| only.split(',').any(|o| p.to_string_lossy().contains(o)));
    }
    out
}

fn specs_unfiltered() -> Vec<PathBuf> {
    toolwright_loopback::corpus::dev_json_and_big("toolwright-exports-github.json")
}

fn catalog(spec: &Path) -> Catalog {
    let analysis = toolwright_codegen::analyze(&[spec.to_path_buf()], false);
    assert!(
        !analysis.has_errors(),
        "{}: {}",
        spec.display(),
        analysis.render()
    );
    toolwright_cli::interpret::catalog(&analysis.apis).expect("a catalog")
}

/// The variants checked: each profile's defaults, and the opt-ins.
fn variants() -> Vec<(&'static str, ExportOptions)> {
    vec![
        ("mcp", ExportOptions::new(Profile::Mcp)),
        (
            "mcp, prefix mcp__github_enterprise__",
            ExportOptions::new(Profile::Mcp).client_prefix("mcp__github_enterprise__"),
        ),
        ("openai strict", ExportOptions::new(Profile::OpenAi)),
        (
            "openai deferred",
            ExportOptions::new(Profile::OpenAi).defer_loading(true),
        ),
        ("anthropic", ExportOptions::new(Profile::Anthropic)),
        (
            "anthropic strict, deferred",
            ExportOptions::new(Profile::Anthropic)
                .strict(true)
                .defer_loading(true),
        ),
        ("gemini", ExportOptions::new(Profile::Gemini)),
    ]
}

#[test]
fn every_export_obeys_its_profile_and_calls_reach_the_right_operation() {
    // About 34,000 calls in all: the specs are shared out among threads, each with a
    // server of its own (a call's requests are read back from its server), and the
    // report is put back in spec order.
    let specs = specs();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
    let mut done: Vec<(usize, Vec<String>, Vec<String>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let server = Server::start(|_| Response::json(200, &json!({})));
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(spec) = specs.get(i) else { break };
                        let (report, failures) = export_and_call(spec, &server);
                        done.push((i, report, failures));
                    }
                    done
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a worker"))
            .collect()
    });
    done.sort_by_key(|(i, ..)| *i);
    let report: Vec<String> = done.iter().flat_map(|(_, r, _)| r.clone()).collect();
    let failures: Vec<String> = done.into_iter().flat_map(|(_, _, f)| f).collect();
    eprintln!("{}", report.join("\n"));
    assert!(
        failures.is_empty(),
        "{} problems:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every variant's export of `spec`, checked and each tool called through it: the
/// report's lines and the problems found.
fn export_and_call(spec: &Path, server: &Server) -> (Vec<String>, Vec<String>) {
    let catalog = catalog(spec);
    let file = spec.file_name().unwrap().to_string_lossy().into_owned();
    let mut report = Vec::new();
    let mut failures = Vec::new();
    for (variant, options) in variants() {
        let started = std::time::Instant::now();
        let export = catalog.export_with(&options);
        let exported_in = started.elapsed();
        let budget = options.max_name_len();
        let mut problems = Vec::new();
        check_export(&catalog, &export, budget, &mut problems);
        let size = export.document().to_string().len();
        let (called, unsynthesizable) = call_every_tool(&catalog, &export, server, &mut problems);
        if unsynthesizable > 0 {
            problems.push(format!(
                "{unsynthesizable} tools got no arguments made up (TOOLWRIGHT_EXPORT_SKIPPED=1 lists them): every tool must be called"
            ));
        }
        report.push(format!(
            "{file} [{variant}]: {} tools, {size} bytes, {} warnings, {called} calls ({unsynthesizable} without synthesizable arguments); exported in {exported_in:.1?}, called in {:.1?}",
            catalog.tools().len(),
            export.warnings().len(),
            started.elapsed() - exported_in,
        ));
        for p in problems.into_iter().take(10) {
            failures.push(format!("{file} [{variant}]: {p}"));
        }
    }
    (report, failures)
}

/// Names, mapping and schemas against the profile's documented rules.
fn check_export(catalog: &Catalog, export: &Export, budget: usize, problems: &mut Vec<String>) {
    let name = Regex::new(r"^[A-Za-z][A-Za-z0-9_]*$").unwrap();
    let functions = functions(export);
    let mut seen = BTreeSet::new();
    for f in &functions {
        let n = f["name"].as_str().unwrap_or_default();
        if !name.is_match(n) || n.len() > budget {
            problems.push(format!(
                "name `{n}` breaks ^[A-Za-z][A-Za-z0-9_]*$ within {budget}"
            ));
        }
        if !seen.insert(n.to_owned()) {
            problems.push(format!("name `{n}` exported twice"));
        }
        match export.mapping().get(n) {
            Some(m) if catalog.get(&m.tool).is_some() => {}
            _ => problems.push(format!("`{n}` maps to no catalog tool")),
        }
        let description = f["description"].as_str().unwrap_or_default();
        if description.chars().count() > toolwright::export::DESCRIPTION_BUDGET {
            problems.push(format!(
                "`{n}`: description of {} characters",
                description.len()
            ));
        }
        if Regex::new(r"<br\s*/?>|\]\(/")
            .unwrap()
            .is_match(description)
        {
            problems.push(format!("`{n}`: description keeps HTML or a relative link"));
        }
    }
    if seen.len() != catalog.tools().len() {
        problems.push(format!(
            "{} tools exported of {}",
            seen.len(),
            catalog.tools().len()
        ));
    }
    let warned: BTreeSet<&str> = export.warnings().iter().map(|w| w.tool.as_str()).collect();
    for f in &functions {
        let n = f["name"].as_str().unwrap_or_default();
        let (schema, rules) = match export.profile() {
            Profile::Mcp => (&f["inputSchema"], Rules::Mcp),
            Profile::OpenAi if f["strict"] == true => (&f["parameters"], Rules::OpenAiStrict),
            Profile::OpenAi => {
                let original = export.mapping().get(n).map(|m| m.tool.as_str());
                if original.is_none_or(|o| !warned.contains(o)) {
                    problems.push(format!("`{n}` is non-strict without a warning"));
                }
                (&f["parameters"], Rules::OpenAi)
            }
            Profile::Anthropic if f["strict"] == true => {
                (&f["input_schema"], Rules::AnthropicStrict)
            }
            Profile::Anthropic => (&f["input_schema"], Rules::Anthropic),
            Profile::Gemini => match f.get("parameters") {
                Some(p) => (p, Rules::Gemini),
                None => continue,
            },
        };
        if schema.get("type") != Some(&json!("object")) {
            problems.push(format!("`{n}`: the arguments' root is not `type: object`"));
        }
        check_schema(schema, rules, &format!("{n}:"), 0, problems);
        if let Some(output) = f.get("outputSchema") {
            if output.get("type") != Some(&json!("object")) {
                problems.push(format!("`{n}`: outputSchema root is not an object"));
            }
            check_schema(
                output,
                Rules::McpOutput,
                &format!("{n} output:"),
                0,
                problems,
            );
        }
    }
}

/// The function entries of an export (namespaces opened, search tools left out).
fn functions(export: &Export) -> Vec<Value> {
    let mut out = Vec::new();
    let document = export.document();
    let tools = match export.profile() {
        Profile::Gemini => document["tools"][0]["functionDeclarations"].clone(),
        _ => document["tools"].clone(),
    };
    for t in tools.as_array().into_iter().flatten() {
        match t["type"].as_str() {
            Some("namespace") => {
                let members = t["tools"].as_array().cloned().unwrap_or_default();
                assert!(members.len() < 10, "a namespace of {}", members.len());
                out.extend(members);
            }
            Some(kind) if kind.starts_with("tool_search") => {}
            _ => out.push(t.clone()),
        }
    }
    out
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Rules {
    Mcp,
    McpOutput,
    OpenAi,
    OpenAiStrict,
    Anthropic,
    AnthropicStrict,
    Gemini,
}

impl Rules {
    fn formats(self) -> &'static [&'static str] {
        match self {
            Rules::Mcp | Rules::McpOutput | Rules::Anthropic | Rules::AnthropicStrict => &[
                "date-time",
                "date",
                "time",
                "duration",
                "email",
                "hostname",
                "uri",
                "ipv4",
                "ipv6",
                "uuid",
            ],
            Rules::OpenAi | Rules::OpenAiStrict => &[
                "date-time",
                "date",
                "time",
                "duration",
                "email",
                "hostname",
                "ipv4",
                "ipv6",
                "uuid",
            ],
            Rules::Gemini => &["date-time", "int32", "int64", "float", "double", "enum"],
        }
    }

    /// Keywords the target takes (OpenAI strict and Gemini: their documented lists).
    fn allowed(self, keyword: &str) -> bool {
        const STRICT: &[&str] = &[
            "type",
            "description",
            "properties",
            "required",
            "additionalProperties",
            "items",
            "enum",
            "const",
            "anyOf",
            "pattern",
            "format",
            "multipleOf",
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "minItems",
            "maxItems",
        ];
        const GEMINI: &[&str] = &[
            "type",
            "format",
            "title",
            "description",
            "nullable",
            "enum",
            "properties",
            "required",
            "minProperties",
            "maxProperties",
            "propertyOrdering",
            "items",
            "minItems",
            "maxItems",
            "minLength",
            "maxLength",
            "pattern",
            "minimum",
            "maximum",
            "example",
            "default",
            "anyOf",
        ];
        const NEVER: &[&str] = &[
            "$schema",
            "$ref",
            "$defs",
            "definitions",
            "allOf",
            "not",
            "if",
            "then",
            "else",
        ];
        match self {
            Rules::OpenAiStrict => STRICT.contains(&keyword),
            Rules::Gemini => GEMINI.contains(&keyword),
            Rules::AnthropicStrict => {
                !NEVER.contains(&keyword)
                    && ![
                        "minimum",
                        "maximum",
                        "exclusiveMinimum",
                        "exclusiveMaximum",
                        "multipleOf",
                        "minLength",
                        "maxLength",
                        "maxItems",
                        "minProperties",
                        "maxProperties",
                    ]
                    .contains(&keyword)
            }
            _ => !NEVER.contains(&keyword),
        }
    }
}

fn check_schema(schema: &Value, rules: Rules, at: &str, depth: usize, problems: &mut Vec<String>) {
    let key = Regex::new(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$").unwrap();
    let Value::Object(map) = schema else {
        problems.push(format!("{at} a schema that is not an object"));
        return;
    };
    for (k, v) in map {
        if !rules.allowed(k) {
            problems.push(format!("{at} keyword `{k}` is not allowed"));
        }
        if k == "format" && !v.as_str().is_some_and(|f| rules.formats().contains(&f)) {
            problems.push(format!("{at} format {v} is not allowed"));
        }
    }
    if matches!(rules, Rules::Mcp | Rules::McpOutput | Rules::Gemini)
        && map.get("type").is_some_and(Value::is_array)
    {
        problems.push(format!("{at} a type array"));
    }
    if rules == Rules::Gemini
        && let Some(Value::Array(values)) = map.get("enum")
        && !values.iter().all(Value::is_string)
    {
        problems.push(format!("{at} an enum of non-strings"));
    }
    let is_object = map.contains_key("properties")
        || match map.get("type") {
            Some(Value::String(t)) => t == "object",
            Some(Value::Array(ts)) => ts.iter().any(|t| t == "object"),
            _ => false,
        };
    if is_object
        && matches!(rules, Rules::OpenAiStrict | Rules::AnthropicStrict)
        && map.get("additionalProperties") != Some(&json!(false))
    {
        problems.push(format!(
            "{at} an object without additionalProperties: false"
        ));
    }
    if let Some(Value::Object(props)) = map.get("properties") {
        if rules == Rules::OpenAiStrict {
            if depth + 1 > 10 {
                problems.push(format!("{at} objects nested more than 10 levels"));
            }
            let required: BTreeSet<&str> = map
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            let all: BTreeSet<&str> = props.keys().map(String::as_str).collect();
            if required != all {
                problems.push(format!("{at} not every property is required"));
            }
        }
        for (k, v) in props {
            if rules != Rules::McpOutput && !key.is_match(k) {
                problems.push(format!(
                    "{at} key `{k}` breaks ^[A-Za-z_][A-Za-z0-9_]{{0,63}}$"
                ));
            }
            check_schema(v, rules, &format!("{at}.{k}"), depth + 1, problems);
        }
    }
    for k in ["items", "additionalProperties"] {
        if let Some(v @ Value::Object(_)) = map.get(k) {
            check_schema(v, rules, &format!("{at}[]"), depth, problems);
        }
    }
    for k in ["anyOf", "oneOf", "prefixItems"] {
        for v in map.get(k).and_then(Value::as_array).into_iter().flatten() {
            check_schema(v, rules, at, depth, problems);
        }
    }
}

/// Calls every tool as a model would, with arguments made from the exported schema;
/// returns (calls made, tools whose arguments could not be made up).
fn call_every_tool(
    catalog: &Catalog,
    export: &Export,
    server: &Server,
    problems: &mut Vec<String>,
) -> (usize, usize) {
    let mut builder = Executor::builder(catalog.clone())
        .credentials(CredentialSource::from_fn(|_| {
            Some("test-credential".into())
        }))
        // Every tool is called, those a source marks for confirmation too.
        .gate(|_| toolwright::gate::Verdict::Allow);
    for api in catalog.apis() {
        builder = builder.base_url(api.name.as_ref(), server.url());
    }
    let executor = builder.build().expect("an executor");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let (mut called, mut skipped) = (0, 0);
    for f in functions(export) {
        let name = f["name"].as_str().unwrap_or_default();
        let schema = match export.profile() {
            Profile::Mcp => &f["inputSchema"],
            Profile::Anthropic => &f["input_schema"],
            _ => f.get("parameters").unwrap_or(&Value::Null),
        };
        let mapping = export.mapping().get(name).expect("mapped");
        // Optional arguments the export renamed are sent too, so their way back is
        // tested; if they need company (`dependentRequired`), only the required go.
        let renamed: BTreeSet<String> = mapping.keys.renamed.keys().cloned().collect();
        let Some(mut args) = sample(schema, Some(&renamed), false) else {
            if std::env::var_os("TOOLWRIGHT_EXPORT_SKIPPED").is_some() {
                eprintln!("no arguments for `{name}`: {schema}");
            }
            skipped += 1;
            continue;
        };
        let original = &mapping.tool;
        let tool = catalog.get(original).expect("in the catalog");
        server.take_requests();
        let mut result =
            runtime.block_on(executor.call_exported(export.mapping(), name, args.clone()));
        // What a model does after an error naming the field: try again, first with
        // fewer arguments, then giving values where it had sent `null` (a `oneOf`
        // whose branches all leave a key optional needs it).
        for fill in [false, true] {
            if matches!(result, Err(toolwright::Error::InvalidArguments { .. }))
                && let Some(retry) = sample(schema, Some(&BTreeSet::new()), fill)
            {
                args = retry;
                result =
                    runtime.block_on(executor.call_exported(export.mapping(), name, args.clone()));
            }
        }
        let requests = server.take_requests();
        match result {
            Ok(_) | Err(toolwright::Error::Decode { .. }) => {}
            Err(e) => {
                problems.push(format!("`{name}` ({original}) with {args}: {e}"));
                continue;
            }
        }
        called += 1;
        let Some(request) = requests.last() else {
            problems.push(format!("`{name}`: no request reached the server"));
            continue;
        };
        let op = &tool.operation;
        if request.method != method(op.method) {
            problems.push(format!(
                "`{name}`: {} instead of {}",
                request.method,
                method(op.method)
            ));
        }
        // The template with its placeholders filled by anything: what precedes the
        // query (a path's own query, `/alerts?lat={lat}`, included).
        let placeholder = Regex::new(r"\{[^}]*\}").unwrap();
        let literal: Vec<String> = placeholder
            .split(&op.path)
            .map(regex_lite::escape)
            .collect();
        let template = Regex::new(&format!("{}([?&]|$)", literal.join("[^/?&#]*"))).unwrap();
        if !template.is_match(&request.target) || op.path.contains('#') {
            problems.push(format!("`{name}`: {} is not {}", request.target, op.path));
        }
        if request.target.matches('?').count() > 1 {
            problems.push(format!("`{name}`: two queries in {}", request.target));
        }
        // Every argument sent arrives under its wire name.
        let restored = export.mapping().get(name).unwrap().keys.restore(args);
        for param in op.params.iter() {
            let Some(value) = restored.get(param.field.as_ref()) else {
                continue;
            };
            let empty = match value {
                Value::Object(m) => m.is_empty(),
                Value::Array(a) => a.is_empty(),
                other => other.is_null(),
            };
            if empty {
                continue;
            }
            // A form-exploded object goes as its own keys (`amount=1&id=1`).
            let wire_names: Vec<String> = match value {
                Value::Object(m)
                    if param.style == toolwright::descriptor::ParamStyle::Form && param.explode =>
                {
                    m.keys().cloned().collect()
                }
                _ => vec![param.wire_name.to_string()],
            };
            let wire = param.wire_name.as_ref();
            let arrived = match param.location {
                ParamLocation::Query => request.query().is_some_and(|q| {
                    q.split('&').any(|pair| {
                        let k = percent_decode(pair.split('=').next().unwrap_or_default());
                        wire_names.iter().any(|w| k.starts_with(w.as_str()))
                    })
                }),
                ParamLocation::Header => request.header(wire).is_some(),
                ParamLocation::Body => {
                    let body = request.json();
                    body.is_null() || body.get(wire).is_some() || !request.body.is_empty()
                }
                _ => true,
            };
            if !arrived {
                problems.push(format!(
                    "`{name}`: argument `{}` did not arrive as {:?} `{wire}` ({})",
                    param.field, param.location, request.target
                ));
            }
        }
    }
    (called, skipped)
}

fn method(m: Method) -> &'static str {
    m.as_str()
}

fn percent_decode(s: &str) -> String {
    percent_encoding::percent_decode_str(&s.replace('+', " "))
        .decode_utf8_lossy()
        .into_owned()
}

/// Arguments a model would send: the required ones (in strict schemas every key,
/// `null` where allowed — what a strict model sends for arguments it leaves out —
/// unless `fill`),
/// values fitting types, formats, enums, bounds and patterns. `None` when no value
/// can be made up (a pattern none of the candidates match).
fn sample(schema: &Value, extras: Option<&BTreeSet<String>>, fill: bool) -> Option<Value> {
    let Value::Object(map) = schema else {
        return Some(json!({}));
    };
    if let Some(Value::Array(values)) = map.get("enum") {
        return values
            .iter()
            .find(|v| !v.is_null())
            .cloned()
            .or(Some(Value::Null));
    }
    if let Some(c) = map.get("const") {
        return Some(c.clone());
    }
    if let Some(Value::Array(branches)) = map.get("anyOf").or_else(|| map.get("oneOf")) {
        let branch = branches
            .iter()
            .find(|b| b.get("type") != Some(&json!("null")))?;
        let mut merged = map.clone();
        merged.remove("anyOf");
        merged.remove("oneOf");
        if let Value::Object(b) = branch {
            for (k, v) in b {
                match (k.as_str(), merged.get_mut(k)) {
                    ("required", Some(Value::Array(mine))) => {
                        mine.extend(v.as_array().cloned().unwrap_or_default());
                    }
                    _ => {
                        merged.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        return sample(&Value::Object(merged), extras, fill);
    }
    let kind = match map.get("type") {
        Some(Value::String(t)) => t.clone(),
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .unwrap_or("null")
            .to_owned(),
        _ if map.contains_key("properties") => "object".into(),
        _ => "string".into(),
    };
    let description = map
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or_default();
    Some(match kind.as_str() {
        "object" => {
            let mut required: BTreeSet<&str> = map
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            // "Give exactly one of: `a`, `b` + `c`." — what the export says in words
            // where the target has no schema for it: the first set is given.
            let together = Regex::new(r"Give (exactly|at least) one of: ([^.]*)\.").unwrap();
            let mut given = BTreeSet::new();
            if let Some(c) = together.captures(description) {
                let first = c
                    .get(2)
                    .map_or("", |m| m.as_str())
                    .split(", ")
                    .next()
                    .unwrap_or_default();
                for name in first.split(" + ") {
                    required.insert(name.trim_matches('`'));
                    given.insert(name.trim_matches('`'));
                }
            }
            let mut out = serde_json::Map::new();
            for (k, v) in map
                .get("properties")
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
            {
                let nullable = match v.get("type") {
                    Some(Value::Array(ts)) => ts.iter().any(|t| t == "null"),
                    _ => v.get("nullable") == Some(&json!(true)),
                };
                if required.contains(k.as_str()) {
                    // A strict model sends `null` for what it leaves out.
                    let value = if nullable && !fill && !given.contains(k.as_str()) {
                        Value::Null
                    } else {
                        sample(v, None, fill)?
                    };
                    out.insert(k.clone(), value);
                } else if extras.is_some_and(|e| e.contains(k))
                    && let Some(value) = sample(v, None, fill)
                {
                    out.insert(k.clone(), value);
                }
            }
            Value::Object(out)
        }
        "array" => {
            let item = map
                .get("items")
                .map_or(Some(json!("x")), |i| sample(i, None, fill))?;
            let min = map
                .get("minItems")
                .and_then(Value::as_f64)
                .or_else(|| bound(description, "At least "))
                .unwrap_or(1.0)
                .max(1.0) as u64;
            Value::Array(vec![item; usize::try_from(min).unwrap_or(1)])
        }
        "integer" | "number" => {
            let min = map
                .get("minimum")
                .and_then(Value::as_f64)
                .or_else(|| {
                    map.get("exclusiveMinimum")
                        .and_then(Value::as_f64)
                        .map(|m| m + 1.0)
                })
                .or_else(|| bound(description, "Minimum "))
                .or_else(|| bound(description, "Greater than ").map(|m| m + 1.0))
                .unwrap_or(1.0);
            let n = min.max(0.0).ceil();
            if let Some(step) = map
                .get("multipleOf")
                .and_then(Value::as_f64)
                .filter(|s| *s > 0.0)
            {
                json!((n / step).ceil() * step)
            } else {
                json!(n as i64)
            }
        }
        "boolean" => json!(true),
        "null" => Value::Null,
        _ => json!(string(map, description)?),
    })
}

/// A string matching a simple pattern (`^CH[0-9a-fA-F]{32}$`, `^refs/(heads|tags)/.*$`):
/// literals, classes, `\d`/`\w`/`.`, groups (the first alternative) and
/// `{n}`/`{n,m}`/`+`/`*`/`?` (the least); look-around is not attempted (`None`).
fn from_pattern(pattern: &str) -> Option<String> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut i = 0;
    let out = sequence(&chars, &mut i)?;
    Some(out)
}

/// The first alternative of a sequence, up to `)` or the end; skips the others.
fn sequence(chars: &[char], i: &mut usize) -> Option<String> {
    let mut out = String::new();
    while *i < chars.len() {
        match chars[*i] {
            ')' => return Some(out),
            '|' => {
                // Skip the other alternatives of this level.
                let mut depth = 0;
                while *i < chars.len() {
                    match chars[*i] {
                        '\\' => *i += 1,
                        '(' => depth += 1,
                        ')' if depth == 0 => return Some(out),
                        ')' => depth -= 1,
                        _ => {}
                    }
                    *i += 1;
                }
                return Some(out);
            }
            _ => {}
        }
        let piece: String = match chars[*i] {
            '^' | '$' => {
                *i += 1;
                continue;
            }
            '(' => {
                *i += 1;
                if chars.get(*i) == Some(&'?') {
                    if chars.get(*i + 1) != Some(&':') {
                        return None;
                    }
                    *i += 2;
                }
                let inner = sequence(chars, i)?;
                if chars.get(*i) != Some(&')') {
                    return None;
                }
                *i += 1;
                inner
            }
            '\\' => {
                *i += 1;
                let c = match chars.get(*i)? {
                    'd' => '1',
                    'w' => 'a',
                    's' => ' ',
                    other => *other,
                };
                *i += 1;
                c.to_string()
            }
            '.' => {
                *i += 1;
                "a".into()
            }
            '[' => {
                let negated = chars.get(*i + 1) == Some(&'^');
                let start = *i + 1 + usize::from(negated);
                let end = start + chars[start..].iter().position(|c| *c == ']')?;
                *i = end + 1;
                let c = if negated {
                    ('a'..='z')
                        .chain('0'..='9')
                        .find(|c| !chars[start..end].contains(c))?
                } else if chars[start] == '\\' {
                    match chars.get(start + 1)? {
                        'd' => '1',
                        'w' => 'a',
                        other => *other,
                    }
                } else {
                    chars[start]
                };
                c.to_string()
            }
            c => {
                *i += 1;
                c.to_string()
            }
        };
        let times = match chars.get(*i) {
            Some('{') => {
                let end = *i + chars[*i..].iter().position(|c| *c == '}')?;
                let inside: String = chars[*i + 1..end].iter().collect();
                *i = end + 1;
                inside.split(',').next()?.trim().parse().ok()?
            }
            Some('+') => {
                *i += 1;
                1
            }
            Some('*' | '?') => {
                *i += 1;
                0
            }
            _ => 1,
        };
        for _ in 0..times {
            out.push_str(&piece);
        }
    }
    Some(out)
}

fn bound(description: &str, prefix: &str) -> Option<f64> {
    let start = description.find(prefix)? + prefix.len();
    let rest = &description[start..];
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
        .unwrap_or(rest.len());
    rest[..end].trim_end_matches('.').parse().ok()
}

fn string(map: &serde_json::Map<String, Value>, description: &str) -> Option<String> {
    let format = map.get("format").and_then(Value::as_str).or_else(|| {
        let start = description.find("Format: ")? + 8;
        description[start..].split(['.', ' ']).next()
    });
    let by_format = match format.unwrap_or_default() {
        "date-time" => Some("2024-01-02T03:04:05Z"),
        "date" => Some("2024-01-02"),
        "time" => Some("03:04:05Z"),
        "duration" => Some("P1D"),
        "email" => Some("someone@example.com"),
        "uri" | "url" => Some("https://example.com/x"),
        "hostname" => Some("example.com"),
        "ipv4" => Some("127.0.0.1"),
        "ipv6" => Some("::1"),
        "uuid" => Some("123e4567-e89b-12d3-a456-426614174000"),
        "byte" => Some("aGk="),
        "int32" | "int64" => Some("1"),
        _ => None,
    };
    let pattern = map
        .get("pattern")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .or_else(|| {
            let start = description.find("Must match the pattern `")? + 24;
            let rest = &description[start..];
            rest.find("`.").map(|end| rest[..end].to_owned())
        });
    let min = map.get("minLength").and_then(Value::as_u64).unwrap_or(0) as usize;
    let max = map
        .get("maxLength")
        .and_then(Value::as_u64)
        .map_or(usize::MAX, |m| m as usize);
    let mut candidates: Vec<String> = by_format.into_iter().map(str::to_owned).collect();
    candidates.extend(pattern.as_deref().and_then(from_pattern));
    for c in [
        "abc",
        "YWJj",
        "1",
        "a1",
        "abc-def",
        "ABC",
        "a",
        "A1",
        "2024-01-02",
        "x.y",
        "a_b",
        "abc123",
    ] {
        candidates.push(c.to_owned());
    }
    let fits = |c: &String| {
        let n = c.chars().count();
        n >= min
            && n <= max
            && pattern
                .as_ref()
                .is_none_or(|p| Regex::new(p).is_ok_and(|r| r.is_match(c)))
    };
    candidates.iter().find(|c| fits(c)).cloned().or_else(|| {
        let padded = "a".repeat(min.max(1));
        fits(&padded).then_some(padded)
    })
}

#[test]
fn shortened_names_keep_their_words() {
    let github = specs_unfiltered().pop().expect("GitHub comes last");
    let catalog = catalog(&github);
    let export = catalog.export(Profile::Mcp);
    let mut shortened = BTreeMap::new();
    for (exported, m) in export.mapping().iter() {
        if exported != m.tool {
            shortened.insert(exported.to_owned(), m.tool.clone());
        }
    }
    assert!(
        shortened.len() > 100,
        "GitHub has many long names: {}",
        shortened.len()
    );
    for (exported, original) in &shortened {
        let words: BTreeSet<&str> = original.split('_').collect();
        let parts: Vec<&str> = exported.split('_').collect();
        for (i, word) in parts.iter().enumerate() {
            let hash = i == parts.len() - 1
                && word.len() == 6
                && word.chars().all(|c| c.is_ascii_hexdigit());
            assert!(
                words.contains(word) || hash || toolwright::export::names::is_abbreviation(word),
                "`{exported}` (from `{original}`) has `{word}`, a cut word"
            );
        }
    }
    let example = "actions_disable_selected_repository_self_hosted_runners_organization";
    if let Some(name) = export.mapping().exported_name(example) {
        assert!(
            !name.contains("organiza_") && !name.ends_with("organiza"),
            "{name}"
        );
    }
}
