//! Conformance tests of adapters: `{name}-adapter-tests.yaml` next to an adapter is
//! read and checked against the adapter's tools here (a case naming an unknown tool or
//! argument, a missing or misspelt field, is a located error); the runtime's
//! `toolwright::conformance` runs the cases, from `toolwright test` or from the
//! `#[test]`s `Config::tests(true)` emits.
//!
//! ```yaml
//! tests:
//!   - name: lists open issues
//!     tool: list_issues
//!     arguments: {state: open}
//!     request:
//!       method: GET
//!       path: /issues
//!       query: {state: open}
//!       headers: {authorization: "Bearer ${TRACKER_TOKEN}"}
//!     response: {status: 200, body: [{number: 1, title: Crash}]}
//!     returns: [{number: 1, title: Crash}]
//! ```

use std::collections::BTreeSet;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::diagnostics::{Diagnostic, Diagnostics, Location, SourceFile, codes, did_you_mean};
use crate::ir;
use crate::related::{self, Kind};
use crate::source::yaml::{self, Node, NodeValue};

/// The conformance tests of one adapter.
#[derive(Debug, Clone)]
pub struct Suite {
    /// The tests file.
    pub file: PathBuf,
    /// The API the adapter describes.
    pub api: String,
    pub cases: Vec<Case>,
}

/// One case, as the runtime reads it (`toolwright::conformance::Case` as JSON).
#[derive(Debug, Clone)]
pub struct Case {
    pub name: String,
    pub tool: String,
    pub json: Value,
    /// `file:line:col` of the case, for reports.
    pub at: String,
}

const CASE_FIELDS: &[&str] = &[
    "name",
    "tool",
    "arguments",
    "request",
    "response",
    "returns",
    "error",
];
const REQUEST_FIELDS: &[&str] = &["method", "path", "query", "headers", "body"];
const RESPONSE_FIELDS: &[&str] = &["status", "headers", "body", "content_type"];

/// Reads the tests file of every adapter among `files` that has one, checking each
/// case against the adapter's API in `apis`.
pub fn load(files: &[PathBuf], apis: &[ir::Api], diagnostics: &mut Diagnostics) -> Vec<Suite> {
    let mut suites = Vec::new();
    for (tests, api) in related::with_apis(files, apis, Kind::Tests) {
        let Some(file) = related::read(&tests, diagnostics) else {
            continue;
        };
        let cases = read(&file, &apis[api], diagnostics);
        suites.push(Suite {
            file: tests,
            api: apis[api].name.clone(),
            cases,
        });
    }
    suites
}

/// The cases of one tests file; every problem is reported, and the cases without one
/// are kept.
pub fn read(file: &Arc<SourceFile>, api: &ir::Api, diagnostics: &mut Diagnostics) -> Vec<Case> {
    let mut reader = Reader {
        file,
        diagnostics,
        tools: crate::emit::plans(api)
            .into_iter()
            .filter(|p| p.exposed)
            .map(|p| {
                let args = p.input_schema["properties"]
                    .as_object()
                    .map(|o| o.keys().cloned().collect())
                    .unwrap_or_default();
                (p.name, args)
            })
            .collect(),
    };
    let limits = yaml::Limits {
        what: "tests file",
        ..yaml::Limits::document(file.text.len())
    };
    let root = match yaml::parse(file, 0..file.text.len(), 1, limits) {
        Ok(root) => root,
        Err(d) => {
            reader.diagnostics.push(d);
            return Vec::new();
        }
    };
    let Some(entries) = reader.mapping(&root, "the tests file", &["tests"]) else {
        return Vec::new();
    };
    let Some(list) = entries
        .iter()
        .find(|(k, ..)| k == "tests")
        .map(|(.., v)| *v)
    else {
        reader.error(
            codes::MISSING_FIELD,
            root.span.clone(),
            "the tests file has no `tests` list",
            "start the file with `tests:` and list the cases under it",
        );
        return Vec::new();
    };
    let NodeValue::Seq(items) = &list.value else {
        reader.wrong_type(list, "tests", "a list of cases");
        return Vec::new();
    };
    let mut names = BTreeSet::new();
    let mut cases = Vec::new();
    for item in items {
        let before = reader.diagnostics.error_count();
        let case = reader.case(item);
        if let Some(case) = case {
            if !names.insert(case.name.clone()) {
                reader.error(
                    codes::DUPLICATE_OPERATION,
                    item.span.clone(),
                    &format!("two cases are named `{}`", case.name),
                    "give each case its own name",
                );
            } else if reader.diagnostics.error_count() == before {
                cases.push(case);
            }
        }
    }
    cases
}

struct Reader<'a> {
    file: &'a Arc<SourceFile>,
    diagnostics: &'a mut Diagnostics,
    /// Each tool of the API with its argument names.
    tools: Vec<(String, BTreeSet<String>)>,
}

impl Reader<'_> {
    fn error(&mut self, code: &'static str, span: Range<usize>, message: &str, help: &str) {
        self.diagnostics.push(
            Diagnostic::error(code, message)
                .at(Location {
                    file: Arc::clone(self.file),
                    span,
                })
                .help(help),
        );
    }

    fn wrong_type(&mut self, node: &Node, what: &str, expected: &str) {
        self.error(
            codes::WRONG_TYPE,
            node.span.clone(),
            &format!("`{what}` must be {expected}, found {}", node.kind()),
            &format!("write `{what}` as {expected}"),
        );
    }

    /// The node's entries by key; unknown keys are errors (a misspelt `retruns` would
    /// silently test nothing).
    fn mapping<'n>(
        &mut self,
        node: &'n Node,
        what: &str,
        known: &[&str],
    ) -> Option<Vec<(String, &'n Node, &'n Node)>> {
        let NodeValue::Map(entries) = &node.value else {
            self.wrong_type(node, what, "a mapping");
            return None;
        };
        let mut out = Vec::new();
        for (key, value) in entries {
            let name = key.scalar_text().unwrap_or_default();
            if !known.is_empty() && !known.contains(&name.as_str()) {
                let help = match did_you_mean(&name, known) {
                    Some(close) => format!("did you mean `{close}`?"),
                    None => format!("known fields here: {}", known.join(", ")),
                };
                self.error(
                    codes::UNKNOWN_FIELD,
                    key.span.clone(),
                    &format!("unknown field `{name}` in {what}"),
                    &help,
                );
                continue;
            }
            out.push((name, key, value));
        }
        Some(out)
    }

    fn text(&mut self, node: &Node, what: &str) -> Option<String> {
        match node.scalar_text() {
            Some(text) if !matches!(node.value, NodeValue::Null) => Some(text),
            _ => {
                self.wrong_type(node, what, "a string");
                None
            }
        }
    }

    fn case(&mut self, node: &Node) -> Option<Case> {
        let entries = self.mapping(node, "a case", CASE_FIELDS)?;
        let get = |key: &str| entries.iter().find(|(k, ..)| k == key).map(|(.., v)| *v);
        let mut json = Map::new();
        for required in ["name", "tool"] {
            if get(required).is_none() {
                self.error(
                    codes::MISSING_FIELD,
                    node.span.clone(),
                    &format!("a case is missing the required field `{required}`"),
                    "every case has a `name` and the `tool` it calls",
                );
            }
        }
        let name = self.text(get("name")?, "name")?;
        let tool_node = get("tool")?;
        let tool = self.text(tool_node, "tool")?;
        let arguments = self.tool_arguments(&tool, tool_node)?;
        if let Some(args) = get("arguments") {
            for (arg, key, _) in self.mapping(args, "arguments", &[])? {
                if !arguments.contains(&arg) {
                    let known: Vec<&str> = arguments.iter().map(String::as_str).collect();
                    let help = match did_you_mean(&arg, &known) {
                        Some(close) => format!("did you mean `{close}`?"),
                        None if known.is_empty() => format!("`{tool}` takes no arguments"),
                        None => format!("`{tool}` takes: {}", known.join(", ")),
                    };
                    self.error(
                        codes::UNKNOWN_VALUE,
                        key.span.clone(),
                        &format!("tool `{tool}` has no argument `{arg}`"),
                        &help,
                    );
                }
            }
            json.insert("arguments".into(), args.to_json());
        }
        if let Some(request) = get("request") {
            let fields = self.mapping(request, "request", REQUEST_FIELDS)?;
            for required in ["method", "path"] {
                if !fields.iter().any(|(k, ..)| k == required) {
                    self.error(
                        codes::MISSING_FIELD,
                        request.span.clone(),
                        &format!("the request is missing the required field `{required}`"),
                        "a request names at least its `method` and `path`",
                    );
                }
            }
            json.insert(
                "request".into(),
                strings(request.to_json(), &["query", "headers"]),
            );
        }
        if let Some(response) = get("response") {
            let fields = self.mapping(response, "response", RESPONSE_FIELDS)?;
            // A canned status the responder could not send would silently become 200.
            if let Some((.., status)) = fields.iter().find(|(k, ..)| k == "status") {
                let code = status
                    .to_json()
                    .as_u64()
                    .filter(|c| (100..=599).contains(c));
                if code.is_none() {
                    self.wrong_type(status, "status", "an HTTP status code from 100 to 599");
                    return None;
                }
            }
            json.insert("response".into(), strings(response.to_json(), &["headers"]));
        }
        if let Some(returns) = get("returns") {
            json.insert("returns".into(), returns.to_json());
        }
        if let Some(error) = get("error") {
            json.insert("error".into(), Value::String(self.text(error, "error")?));
        }
        json.insert("name".into(), Value::String(name.clone()));
        json.insert("tool".into(), Value::String(tool.clone()));
        let (line, col) = self.file.line_col(node.span.start);
        Some(Case {
            name,
            tool,
            json: Value::Object(json),
            at: format!("{}:{line}:{col}", self.file.path),
        })
    }

    /// The argument names of `tool`, or a finding that the API has no such tool.
    fn tool_arguments(&mut self, tool: &str, node: &Node) -> Option<BTreeSet<String>> {
        if let Some((_, args)) = self.tools.iter().find(|(name, _)| name == tool) {
            return Some(args.clone());
        }
        let known: Vec<&str> = self.tools.iter().map(|(n, _)| n.as_str()).collect();
        let help = match did_you_mean(tool, &known) {
            Some(close) => format!("did you mean `{close}`?"),
            None => format!("the adapter's tools: {}", known.join(", ")),
        };
        self.error(
            codes::UNKNOWN_VALUE,
            node.span.clone(),
            &format!("the adapter has no tool `{tool}`"),
            &help,
        );
        None
    }
}

/// `value` with the scalars under each of `keys` as strings (YAML reads `per_page: 2`
/// as a number; a query or header value is text on the wire), lists kept as lists.
fn strings(mut value: Value, keys: &[&str]) -> Value {
    fn text(v: &Value) -> Value {
        match v {
            Value::String(_) | Value::Null => v.clone(),
            Value::Array(items) => Value::Array(items.iter().map(text).collect()),
            other => Value::String(other.to_string()),
        }
    }
    for key in keys {
        if let Some(Value::Object(map)) = value.get_mut(*key) {
            for v in map.values_mut() {
                *v = text(v);
            }
        }
    }
    value
}
