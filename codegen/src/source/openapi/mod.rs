//! OpenAPI 3.0, 3.1 and 3.2 documents (JSON or YAML) into the IR.
//!
//! Our own thin model over `serde_json::Value` rather than `openapiv3`: openapiv3 rejects
//! 3.1 (numeric `exclusiveMinimum`, type arrays, `$defs`) and a down-conversion would lose
//! `const`, conditionals and `$defs` that the 2020-12 catalog keeps. Schemas are
//! normalised *up* to JSON Schema 2020-12; whatever has no IR field stays as a keyword or
//! as metadata. Problems degrade one schema or one operation, never the document.

mod aliases;
mod links;
pub(crate) mod locate;
mod media;
mod naming;
mod operations;
mod pagination;
mod raw;
mod schema;
mod security;
mod tags;
mod tree;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde_json::Value;

use crate::diagnostics::{Diagnostic, Diagnostics, Location, SourceFile, codes};
use crate::ir;
use crate::source::yaml;
use locate::Locator;
pub use raw::{Raw, raw, raw_outline};

/// Whether a file looks like an OpenAPI (or Swagger) document by name and content.
pub fn looks_like(path: &std::path::Path, head: &str) -> bool {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    matches!(ext, "json" | "yaml" | "yml") && (head.contains("openapi") || head.contains("swagger"))
}

/// Which OpenAPI line the document follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Version {
    V30,
    V31,
    /// 3.2: 3.1's schemas, plus `query` and `additionalOperations`, `in: querystring`,
    /// `itemSchema`, nested tags, `$self`, reusable media types, the device flow.
    V32,
}

/// One document being read: its tree, where to find things, and the findings.
pub(crate) struct Doc<'a> {
    pub root: tree::Root<'a>,
    pub version: Version,
    pub api_name: String,
    file: &'a Arc<SourceFile>,
    locator: &'a Locator,
    diagnostics: &'a mut Diagnostics,
    /// Definitions lowered so far, and those referenced but not yet lowered.
    pub definitions: BTreeMap<String, ir::Schema>,
    pub pending: BTreeSet<String>,
    /// Definitions being lowered right now (a reference back to one is a cycle).
    pub lowering: BTreeSet<String>,
    /// Every operationId, once a link needs them (found once per document).
    pub operation_ids: Option<BTreeSet<String>>,
    /// Literal placeholders treated as missing, in reading order: (pointer, text).
    pub placeholders: Vec<(String, String)>,
    /// Where a JSON document's root members and path items are, found once a finding
    /// is located.
    index: std::cell::OnceCell<locate::Index>,
    /// Findings are not reported (a path item read again says nothing new).
    pub quiet: bool,
    /// The operations' equal native metadata shared (response summaries, a path
    /// item's extensions under each of its methods).
    pub sharing: ir::Sharing,
}

impl Doc<'_> {
    pub fn location(&self, pointer: &str) -> Location {
        let text = &self.file.text;
        let span = match self.locator {
            Locator::Json => {
                let index = self.index.get_or_init(|| locate::index(text));
                locate::locate_json(text, index, pointer)
            }
            _ => self.locator.locate(text, pointer),
        };
        Location {
            file: Arc::clone(self.file),
            span,
        }
    }

    /// `text` unless it is a placeholder (`XXXX`, `TODO`, a copy of `name`), which is
    /// treated as missing. A literal placeholder is reported where it is (TW137); a bare
    /// copy of the name is dropped without a word — generators write them by the
    /// thousand into documents their users cannot change (Google's own Discovery
    /// documents have them), and a warning the user cannot act on is noise that fails
    /// strict builds.
    pub fn said(
        &mut self,
        text: Option<&str>,
        name: Option<&str>,
        pointer: &str,
    ) -> Option<String> {
        let text = text?;
        if !crate::source::placeholder::is_placeholder(text, name) {
            return Some(text.to_owned());
        }
        if !crate::source::placeholder::is_placeholder(text, None) {
            return None;
        }
        self.placeholders
            .push((pointer.to_owned(), text.trim().to_owned()));
        self.warn(
            codes::PLACEHOLDER,
            pointer,
            format!("placeholder text `{}` treated as missing", text.trim()),
            "write what it is, or leave it out: a description is composed from the name and place",
        );
        None
    }

    /// A path item that is JSON text but no JSON value (see `tree::Invalid`), reported
    /// as the whole document's parse reports it.
    pub(crate) fn invalid_json(&mut self, offset: usize, message: &str) {
        self.diagnostics.push(
            Diagnostic::error(codes::YAML_SYNTAX, format!("invalid JSON: {message}"))
                .at(Location {
                    file: Arc::clone(self.file),
                    span: offset..offset + 1,
                })
                .help("fix the JSON syntax of the document"),
        );
    }

    pub fn warn(
        &mut self,
        code: &'static str,
        pointer: &str,
        message: impl Into<String>,
        help: impl Into<String>,
    ) {
        if self.quiet {
            return;
        }
        let d = Diagnostic::warning(code, message)
            .at(self.location(pointer))
            .label(self.locator.translate(pointer).into_owned())
            .help(help);
        self.diagnostics.push(d);
    }
}

/// JSON pointer token escaping.
pub(crate) fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// Looks a local reference up in the document.
pub(crate) fn lookup<'v>(root: tree::Root<'v>, reference: &str) -> Option<&'v Value> {
    let pointer = reference.strip_prefix('#')?;
    root.pointer(pointer)
}

/// Follows `$ref` chains (non-schema objects: parameters, bodies, responses...).
pub(crate) fn deref<'v>(
    root: tree::Root<'v>,
    mut value: &'v Value,
    mut pointer: String,
) -> Result<(&'v Value, String), String> {
    for _ in 0..32 {
        let Some(reference) = value.get("$ref").and_then(Value::as_str) else {
            return Ok((value, pointer));
        };
        match lookup(root, reference) {
            Some(target) => {
                value = target;
                pointer = reference.trim_start_matches('#').to_owned();
            }
            None => return Err(reference.to_owned()),
        }
    }
    Err("a $ref chain longer than 32 links".to_owned())
}

/// Reads one OpenAPI document.
pub fn read(file: &Arc<SourceFile>, diagnostics: &mut Diagnostics) -> Option<ir::Api> {
    if file.path.ends_with(".json")
        && let Some((root, items)) = tree::split(file)
    {
        return read_split(file, root, Some(items), &Locator::Json, diagnostics);
    }
    let (root, locator) = parse(file, diagnostics)?;
    read_root(file, root, &locator, diagnostics)
}

pub(crate) use tree::split;

/// Parses a JSON or YAML document (by the file's extension) into its value and a way
/// back from pointers to positions; a syntax error is reported, located.
pub(crate) fn parse(
    file: &Arc<SourceFile>,
    diagnostics: &mut Diagnostics,
) -> Option<(Value, Locator)> {
    if file.path.ends_with(".json") {
        match serde_json::from_str::<Value>(&file.text) {
            Ok(v) => Some((v, Locator::Json)),
            Err(e) => {
                let offset = file.offset(e.line(), e.column());
                diagnostics.push(
                    Diagnostic::error(codes::YAML_SYNTAX, format!("invalid JSON: {e}"))
                        .at(Location {
                            file: Arc::clone(file),
                            span: offset..offset + 1,
                        })
                        .help("fix the JSON syntax of the document"),
                );
                None
            }
        }
    } else {
        match yaml::parse(
            file,
            0..file.text.len(),
            1,
            yaml::Limits::document(file.text.len()),
        ) {
            Ok(node) => Some((node.to_json(), Locator::Yaml(node))),
            Err(d) => {
                diagnostics.push(d);
                None
            }
        }
    }
}

/// Lowers a parsed document. `locator` places findings in `file`: for a document
/// converted from another format (Google Discovery) it translates the OpenAPI
/// pointers back to the original's.
pub(crate) fn read_root(
    file: &Arc<SourceFile>,
    root: Value,
    locator: &Locator,
    diagnostics: &mut Diagnostics,
) -> Option<ir::Api> {
    read_split(file, root, None, locator, diagnostics)
}

/// [`read_root`] of a document whose path items may stay text ([`split`]), each parsed
/// when it is lowered: the whole tree of a big document is never alive at once.
pub(crate) fn read_split(
    file: &Arc<SourceFile>,
    root: Value,
    mut items: Option<tree::PathItems>,
    locator: &Locator,
    diagnostics: &mut Diagnostics,
) -> Option<ir::Api> {
    let api_name = api_name(&file.path);
    let mut root = root;
    let version = match check_version(&root) {
        Ok(v) => v,
        Err((message, help)) => {
            let span = locator.locate(
                &file.text,
                if root.get("swagger").is_some() {
                    "/swagger"
                } else {
                    "/openapi"
                },
            );
            diagnostics.push(
                Diagnostic::error(codes::OPENAPI_VERSION, message)
                    .at(Location {
                        file: Arc::clone(file),
                        span,
                    })
                    .help(help),
            );
            return None;
        }
    };
    if version == Version::V32 {
        let own = self_references(&mut root);
        if let Some(items) = &mut items {
            items.set_own(own);
        }
    }
    let mut doc = Doc {
        root: match &items {
            Some(items) => tree::Root::split(&root, items),
            None => tree::Root::whole(&root),
        },
        version,
        api_name,
        file,
        locator,
        diagnostics,
        definitions: BTreeMap::new(),
        pending: BTreeSet::new(),
        lowering: BTreeSet::new(),
        operation_ids: None,
        placeholders: Vec::new(),
        index: std::cell::OnceCell::new(),
        quiet: false,
        sharing: ir::Sharing::default(),
    };
    let api = lower(&mut doc, file);
    crate::memory::drop_later(root);
    Some(api)
}

/// OpenAPI 3.2 `$self`: the document's own URI, its base for references. A `$ref`
/// (or a link's `operationRef`) that names this document by it
/// (`https://example.com/api.yaml#/components/...`) is a reference within it, rewritten to the local form (`#/components/...`) every
/// reader here follows; references to other documents are left as they are (and
/// reported where they are used, as before).
fn self_references(root: &mut Value) -> Option<String> {
    let own = root
        .get("$self")
        .and_then(Value::as_str)
        .map(|s| s.split('#').next().unwrap_or(s).to_owned())
        .filter(|s| !s.is_empty())?;
    make_local(root, &own);
    Some(own)
}

/// References in `value` that name the document by `own` made local.
fn make_local(value: &mut Value, own: &str) {
    match value {
        Value::Object(map) => {
            for (key, v) in map.iter_mut() {
                match v {
                    Value::String(reference) if key == "$ref" || key == "operationRef" => {
                        if let Some(local) = reference
                            .strip_prefix(own)
                            .filter(|rest| rest.starts_with('#'))
                        {
                            *reference = local.to_owned();
                        }
                    }
                    other => make_local(other, own),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| make_local(v, own)),
        _ => {}
    }
}

/// The API's name: the file name without extension (`petstore.yaml` → `petstore`).
fn api_name(path: &str) -> String {
    let name = std::path::Path::new(path)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("api");
    let name = name.strip_suffix(".openapi").unwrap_or(name);
    let cleaned: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if cleaned.starts_with(|c: char| c.is_ascii_alphabetic()) {
        cleaned
    } else {
        format!("api_{cleaned}")
    }
}

fn check_version(root: &Value) -> Result<Version, (String, String)> {
    if let Some(v) = root.get("swagger") {
        return Err((
            format!(
                "Swagger {} documents are not supported",
                v.as_str().unwrap_or("2.0")
            ),
            "convert it to OpenAPI 3 first, e.g. `npx swagger2openapi in.json -o out.json`".into(),
        ));
    }
    match root.get("openapi").and_then(Value::as_str) {
        Some(v) if v.starts_with("3.0") => Ok(Version::V30),
        Some(v) if v.starts_with("3.1") => Ok(Version::V31),
        Some(v) if v.starts_with("3.2") => Ok(Version::V32),
        Some(v) => Err((
            format!("OpenAPI {v} is not supported"),
            "toolwright reads OpenAPI 3.0.x, 3.1.x and 3.2.x".into(),
        )),
        None => Err((
            "not an OpenAPI document: no `openapi` version field".into(),
            "add `openapi: 3.2.0` (or 3.1.x, 3.0.x) at the top level".into(),
        )),
    }
}

fn lower(doc: &mut Doc<'_>, file: &Arc<SourceFile>) -> ir::Api {
    let root = doc.root.tree();
    let info = root.get("info").cloned().unwrap_or(Value::Null);
    let title = info
        .get("title")
        .and_then(Value::as_str)
        .unwrap_or(&doc.api_name)
        .to_owned();
    let description = info
        .get("description")
        .and_then(Value::as_str)
        .map(crate::prose::fold)
        .filter(|d| !d.is_empty());
    let base_url = servers(doc);
    let schemes = security::schemes(doc);
    // Every named schema becomes a definition (and a Rust type), used or not.
    if let Some(Value::Object(schemas)) = root.pointer("/components/schemas") {
        for name in schemas.keys() {
            doc.pending.insert(name.clone());
        }
    }
    let mut operations = operations::all(doc, &schemes);
    schema::lower_pending(doc);
    if doc.version == Version::V32 {
        tags::place(doc, &mut operations);
    }

    let mut meta = BTreeMap::new();
    meta.insert("openapi".to_owned(), root["openapi"].clone());
    meta.insert("info".to_owned(), info.clone());
    for key in [
        "servers",
        "tags",
        "externalDocs",
        "webhooks",
        "jsonSchemaDialect",
        "$self",
    ] {
        if let Some(v) = root.get(key) {
            meta.insert(key.to_owned(), v.clone());
        }
    }
    if let Some(Value::Array(servers)) = meta.get_mut("servers") {
        for server in servers {
            if let Some(Value::String(url)) = server.get_mut("url") {
                *url = crate::source::base_url::redact(url);
            }
        }
    }
    if let Some(map) = root.as_object() {
        for (k, v) in map.iter().filter(|(k, _)| k.starts_with("x-")) {
            meta.insert(k.clone(), v.clone());
        }
    }
    let scopes: serde_json::Map<String, Value> = schemes
        .iter()
        .filter(|s| !s.scopes.is_empty())
        .map(|s| (s.name.clone(), serde_json::json!(s.scopes)))
        .collect();
    if !scopes.is_empty() {
        meta.insert("securityScopes".to_owned(), Value::Object(scopes));
    }
    if doc.version == Version::V32
        && let Some(notes) = security::v32_notes(doc)
    {
        meta.insert("securitySchemes".to_owned(), notes);
    }
    if let Some(Value::Object(components)) = root.get("components") {
        for (k, v) in components.iter().filter(|(k, _)| {
            !matches!(
                k.as_str(),
                "schemas"
                    | "parameters"
                    | "requestBodies"
                    | "responses"
                    | "securitySchemes"
                    | "mediaTypes"
            )
        }) {
            meta.insert(format!("components.{k}"), v.clone());
        }
    }
    ir::Api {
        name: doc.api_name.clone(),
        version: info
            .get("version")
            .and_then(Value::as_str)
            .unwrap_or("0.0.0")
            .to_owned(),
        description: description.clone().unwrap_or_else(|| title.clone()),
        docs: description
            .map(|d| format!("# {title}\n\n{d}"))
            .unwrap_or_default(),
        base_url,
        schemes,
        operations,
        definitions: std::mem::take(&mut doc.definitions),
        meta,
        source: Some(Location {
            file: Arc::clone(file),
            span: 0..0,
        }),
        graphql_types: None,
    }
}

/// The default base URL: the first server, variables replaced by their defaults.
fn servers(doc: &mut Doc<'_>) -> String {
    let Some(server) = doc.root.pointer("/servers/0") else {
        doc.warn(
            codes::SERVER,
            "/servers",
            "the document names no server; the base URL is empty",
            "set it on the executor: `Executor::builder(..).base_url(\"<api>\", \"https://...\")`",
        );
        return String::new();
    };
    let mut url = server
        .get("url")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    if let Some(Value::Object(vars)) = server.get("variables") {
        for (name, var) in vars {
            let default = var.get("default").and_then(Value::as_str).unwrap_or("");
            url = url.replace(&format!("{{{name}}}"), default);
        }
    }
    const OVERRIDE: &str = "set the base URL on the executor: `Executor::builder(..).base_url(\"<api>\", \"https://...\")`";
    match crate::source::base_url::classify(&url) {
        crate::source::base_url::Verdict::Secure => {}
        crate::source::base_url::Verdict::Relative => doc.warn(
            codes::SERVER,
            "/servers/0/url",
            format!("the server URL `{url}` is relative"),
            OVERRIDE,
        ),
        crate::source::base_url::Verdict::Cleartext => doc.warn(
            codes::SERVER,
            "/servers/0/url",
            format!("the server URL `{url}` is plain http: requests and credentials would travel unencrypted"),
            "use https (plain http is for localhost, 127.0.0.1 or [::1]), or set the base URL on the executor",
        ),
        crate::source::base_url::Verdict::Refused(why) => {
            let d = Diagnostic::error(
                codes::SERVER,
                format!(
                    "the server URL `{}` is refused: {why}",
                    crate::source::base_url::redact(&url)
                ),
            )
            .at(doc.location("/servers/0/url"))
            .label("/servers/0/url")
            .help(OVERRIDE);
            doc.diagnostics.push(d);
            return String::new();
        }
    }
    url
}
