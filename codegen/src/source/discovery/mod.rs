//! Google Discovery documents (REST descriptions: `discoveryVersion`) into the IR.
//!
//! Normalise syntax, not meaning: the document is rewritten as the OpenAPI 3.1 document
//! that says the same thing ([`convert`]) and read by the OpenAPI reader, so a
//! Discovery API gets exactly the same client, catalog, executor and diagnostics —
//! every finding located in the Discovery file (pointers are translated back). Resources
//! and nested resources become operations named by the method id (`drive.files.list`
//! → `drive_files_list`); `{+name}` path parameters keep their `/` (reserved
//! expansion); `repeated` parameters are arrays sent as repeated keys; OAuth 2 scopes
//! (with their descriptions) and the `key` API key become security schemes; a method
//! with `mediaUpload` gets a second tool, `<id>_upload`, that sends the content itself
//! (`uploadType=media`); `supportsMediaDownload` adds `alt=media`. What has no IR
//! field is kept as native metadata (`x-discovery`, `x-discovery-method`).

pub mod convert;

use std::sync::Arc;

use serde_json::Value;

use crate::diagnostics::{Diagnostics, Location, SourceFile};
use crate::ir;
use crate::source::openapi::{self, locate::Locator};

/// Whether a file's head looks like a Discovery document.
pub fn looks_like(path: &std::path::Path, head: &str) -> bool {
    path.extension().is_some_and(|e| e == "json")
        && (head.contains("\"discoveryVersion\"") || head.contains("discovery#restDescription"))
}

/// Whether a parsed JSON document is a Discovery document.
pub fn is_discovery(root: &Value) -> bool {
    root.get("discoveryVersion").is_some()
}

/// Reads a parsed Discovery document.
pub fn read(
    file: &Arc<SourceFile>,
    root: &Value,
    diagnostics: &mut Diagnostics,
) -> Option<ir::Api> {
    // Where each method is in the file (the report's source lines, readiness
    // findings) is found by scanning the text: on a second thread meanwhile.
    let (api, spans, method_pointers) = std::thread::scope(|scope| {
        let spans = scope.spawn(|| openapi::locate::discovery_methods(&file.text));
        let converted = convert::convert(root);
        let locator = Locator::translated(converted.prefixes, Locator::Json);
        let api = openapi::read_root(file, converted.doc, &locator, diagnostics);
        let spans = spans
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (api, spans, converted.methods)
    });
    let mut api = api?;
    // Each operation points at its method; an upload operation at its `mediaUpload`,
    // inside its method.
    let methods: std::collections::BTreeMap<&str, &str> = method_pointers
        .iter()
        .map(|(name, at)| (name.as_str(), at.trim_end_matches("/mediaUpload")))
        .collect();
    for op in &mut api.operations {
        // The method id that kept the path unique as an OpenAPI key goes.
        if let Some((path, _)) = op.path.split_once('#') {
            op.path = path.to_owned();
        }
        if let Some(span) = methods.get(op.name.as_str()).and_then(|at| spans.get(*at)) {
            op.source = Some(Location {
                file: Arc::clone(file),
                span: span.clone(),
            });
        }
    }
    api.meta.remove("openapi");
    api.meta
        .insert("format".into(), Value::from("google-discovery"));
    Some(api)
}
