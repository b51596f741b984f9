//! Usage examples of adapters: `{name}-adapter-examples.md` next to an adapter holds,
//! under a `## tool_name` heading per tool, requests in words each followed by the
//! arguments a model should send for it (a fenced JSON or YAML block). They are checked
//! against the tool's input schema here — the same check the runtime runs on every
//! call — and attached to the operation: the catalog's `_meta`, the exports, the report
//! and the search index carry them from there.
//!
//! ````markdown
//! ## create_issue
//!
//! Report that the login button does nothing on the web project
//!
//! ```json
//! {"project": "web", "title": "Login button does nothing", "labels": ["bug"]}
//! ```
//! ````

use std::ops::Range;
use std::path::PathBuf;
use std::sync::Arc;

use serde_json::Value;
use toolwright_query::schema::SchemaCheck;

use crate::diagnostics::{Diagnostic, Diagnostics, Location, SourceFile, codes, did_you_mean};
use crate::ir;
use crate::related::{self, Kind};
use crate::source::yaml;

/// An example as written, before it is checked.
#[derive(Debug)]
struct Written {
    tool: String,
    /// The `## tool` heading's span.
    tool_span: Range<usize>,
    request: String,
    /// The fenced block's contents.
    code: Range<usize>,
    /// Its first line in the file.
    code_line: usize,
    yaml: bool,
}

/// Reads the examples file of every adapter among `files` that has one, and attaches
/// each example that fits its tool to the operation.
pub fn attach(files: &[PathBuf], apis: &mut [ir::Api], diagnostics: &mut Diagnostics) {
    for (path, api) in related::with_apis(files, apis, Kind::Examples) {
        if let Some(file) = related::read(&path, diagnostics) {
            read(&file, &mut apis[api], diagnostics);
        }
    }
}

/// Reads one examples file into `api`'s operations; every problem is reported at its
/// line.
pub fn read(file: &Arc<SourceFile>, api: &mut ir::Api, diagnostics: &mut Diagnostics) {
    let written = split(file, diagnostics);
    if written.is_empty() {
        return;
    }
    let plans = crate::emit::plans(api);
    let definitions = crate::emit::definitions(api);
    let definition = |name: &str| {
        definitions
            .iter()
            .find(|(n, ..)| n == name)
            .and_then(|(_, input, _)| serde_json::from_str(input).ok())
    };
    let at = |span: Range<usize>| Location {
        file: Arc::clone(file),
        span,
    };
    let names: Vec<&str> = plans.iter().map(|p| p.name.as_str()).collect();
    let mut attached: Vec<(String, ir::Example)> = Vec::new();
    for example in written {
        let Some(plan) = plans.iter().find(|p| p.name == example.tool) else {
            let help = match did_you_mean(&example.tool, &names) {
                Some(close) => format!("did you mean `{close}`?"),
                None => format!("the adapter's tools: {}", names.join(", ")),
            };
            diagnostics.push(
                Diagnostic::error(
                    codes::UNKNOWN_VALUE,
                    format!("the adapter has no tool `{}`", example.tool),
                )
                .at(at(example.tool_span.clone()))
                .label("examples of this section are for this tool")
                .help(help),
            );
            continue;
        };
        let Some(arguments) = arguments(file, &example, diagnostics) else {
            continue;
        };
        let check = SchemaCheck::compile(&plan.input_schema, &definition);
        if let Err(why) = check.check(&arguments) {
            diagnostics.push(
                Diagnostic::error(
                    codes::VALUE_MISMATCH,
                    format!(
                        "the example's arguments do not fit `{}`'s input schema: {why}",
                        example.tool
                    ),
                )
                .at(at(example.code.clone()))
                .label(format!("for: {}", short(&example.request)))
                .help("write the arguments as a model must send them; `toolwright catalog` shows the tool's schema"),
            );
            continue;
        }
        attached.push((
            example.tool,
            ir::Example {
                request: example.request,
                arguments,
            },
        ));
    }
    for (tool, example) in attached {
        if let Some(op) = api.operations.iter_mut().find(|op| op.name == tool) {
            op.examples.push(example);
        }
    }
}

/// The fenced block parsed as the object of arguments.
fn arguments(
    file: &Arc<SourceFile>,
    example: &Written,
    diagnostics: &mut Diagnostics,
) -> Option<Value> {
    let at = Location {
        file: Arc::clone(file),
        span: example.code.clone(),
    };
    let value = if example.yaml {
        let limits = yaml::Limits {
            what: "example",
            ..yaml::Limits::FRONT_MATTER
        };
        match yaml::parse(file, example.code.clone(), example.code_line, limits) {
            Ok(node) => node.to_json(),
            Err(d) => {
                diagnostics.push(d);
                return None;
            }
        }
    } else {
        match serde_json::from_str::<Value>(&file.text[example.code.clone()]) {
            Ok(v) => v,
            Err(e) => {
                let span = file.offset(example.code_line + e.line() - 1, e.column().max(1));
                diagnostics.push(
                    Diagnostic::error(codes::YAML_SYNTAX, format!("the example is not JSON: {e}"))
                        .at(Location {
                            file: Arc::clone(file),
                            span: span..span + 1,
                        })
                        .help("write the arguments as one JSON object, or mark the block ```yaml"),
                );
                return None;
            }
        }
    };
    if value.is_object() {
        return Some(value);
    }
    diagnostics.push(
        Diagnostic::error(
            codes::WRONG_TYPE,
            "an example's arguments must be an object (argument name: value)",
        )
        .at(at)
        .help("write `{}` for a tool without arguments"),
    );
    None
}

/// The examples of a file as written: `## tool` sections; in each, the last paragraph
/// before a fenced block is its request.
fn split(file: &Arc<SourceFile>, diagnostics: &mut Diagnostics) -> Vec<Written> {
    let text = &file.text;
    let mut out = Vec::new();
    let mut tool: Option<(String, Range<usize>)> = None;
    let mut paragraph: Vec<&str> = Vec::new();
    let mut blank_before = true;
    // (start of the contents, its line, the fence's span, yaml?)
    let mut fence: Option<(usize, usize, Range<usize>, bool)> = None;
    // Inside a block of another language.
    let mut skipping = false;
    let mut offset = 0;
    for (index, raw) in text.split_inclusive('\n').enumerate() {
        let start = offset;
        offset += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
        let trimmed = line.trim_start();
        if skipping {
            if trimmed.starts_with("```") {
                skipping = false;
                paragraph.clear();
                blank_before = true;
            }
            continue;
        }
        if let Some((from, code_line, span, yaml)) = fence.take() {
            if !trimmed.starts_with("```") {
                fence = Some((from, code_line, span, yaml));
                continue;
            }
            let request = paragraph.join(" ");
            paragraph.clear();
            match &tool {
                None => diagnostics.push(
                    Diagnostic::error(
                        codes::MISSING_FIELD,
                        "an example outside a `## tool_name` section",
                    )
                    .at(Location {
                        file: Arc::clone(file),
                        span,
                    })
                    .help("put the examples of each tool under a heading with its name: `## create_issue`"),
                ),
                Some(_) if request.is_empty() => diagnostics.push(
                    Diagnostic::error(
                        codes::MISSING_FIELD,
                        "an example without the request in words above its arguments",
                    )
                    .at(Location {
                        file: Arc::clone(file),
                        span,
                    })
                    .help("write what a user would ask, as a paragraph right above the block"),
                ),
                Some((name, tool_span)) => out.push(Written {
                    tool: name.clone(),
                    tool_span: tool_span.clone(),
                    request,
                    code: from..start,
                    code_line,
                    yaml,
                }),
            }
            blank_before = true;
            continue;
        }
        if let Some(lang) = trimmed.strip_prefix("```") {
            let lang = lang.trim();
            let yaml = matches!(lang, "yaml" | "yml");
            if yaml || matches!(lang, "" | "json") {
                fence = Some((offset, index + 2, start..start + line.len(), yaml));
            } else {
                // Another language is documentation, not an example: skipped whole.
                skipping = true;
            }
            continue;
        }
        if let Some(heading) = trimmed.strip_prefix("## ") {
            let name = heading.trim().trim_matches('`').trim().to_owned();
            let at = start + line.find(heading.trim()).unwrap_or(0);
            tool = Some((name, at..at + heading.trim().len()));
            paragraph.clear();
            blank_before = true;
        } else if trimmed.starts_with('#') {
            paragraph.clear();
            blank_before = true;
        } else if trimmed.is_empty() {
            blank_before = true;
        } else {
            if blank_before {
                paragraph.clear();
            }
            blank_before = false;
            let words = trimmed
                .trim_start_matches('>')
                .trim_start_matches(['-', '*'])
                .trim();
            paragraph.push(words);
        }
    }
    if let Some((_, _, span, _)) = fence {
        diagnostics.push(
            Diagnostic::error(codes::YAML_SYNTAX, "a code block is not closed")
                .at(Location {
                    file: Arc::clone(file),
                    span,
                })
                .help("end it with a line of three backticks"),
        );
    }
    out
}

/// `text` cut to a label's length.
fn short(text: &str) -> String {
    match text.char_indices().nth(60) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_owned(),
    }
}
