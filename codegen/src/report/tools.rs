//! Per tool: a table row (what the list shows, sorts and filters by) and the details
//! (what its pane shows), both from the same plan the catalog is generated from, the
//! artifact's entries, edges and findings, and the source text.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use serde_json::value::RawValue;
use serde_json::{Value, json};

use super::link::Link;
use crate::contract::artifact;
use crate::diagnostics::SourceFile;
use crate::emit::{self, plan};
use crate::ir;
use crate::source::openapi;

/// Lines of source shown per tool at most, and characters per line.
const EXCERPT_LINES: usize = 80;
const EXCERPT_COLUMNS: usize = 240;
/// A one-line document (minified JSON) shows this many characters of the operation.
const EXCERPT_CHARS: usize = 4_000;

/// Every tool of the report, sorted by name.
#[derive(Debug, Default)]
pub struct Tools {
    /// Each row as JSON text, scrubbed: `[name, api, group, method, path, flags,
    /// summary, warnings, infos, in, out]` (Graph beta's 22,361 as value trees took
    /// ~12 MB, and were copied again into the page's data).
    pub rows: Vec<Box<RawValue>>,
    /// Each row's tool name, as read.
    pub names: Vec<String>,
    /// Each tool's details as JSON text (an object), made as soon as the tool is read
    /// and put aside gzip-compressed, in `spool`: the number of each row's. Exports
    /// are written in later, a block of tools at a time ([`Tools::write_detail`]).
    pub details: Vec<usize>,
    /// Where the details wait for the page: a temporary file (Microsoft Graph beta's
    /// are ~130 MB compressed), else memory.
    pub spool: super::spool::Spool,
    /// Per tool, the credentials its details held whole (an example under
    /// `password`): taken out of its exports too, where an export may have moved
    /// the example into a description.
    pub secrets: Vec<std::collections::BTreeSet<String>>,
    /// Tool name → position in `rows`.
    pub index: BTreeMap<String, usize>,
    /// Per API, in order: `{"input": {name: schema}, "output": {name: schema}}` (see
    /// [`write_definitions`]) as the page's compressed element, made as soon as the API
    /// is read (an error is kept for the page to report).
    pub definitions: Vec<std::io::Result<Vec<u8>>>,
}

/// Row flags: the annotations, and whether the tool is listed at all.
pub const READ_ONLY: u64 = 1;
pub const DESTRUCTIVE: u64 = 2;
pub const IDEMPOTENT: u64 = 4;
pub const OPEN_WORLD: u64 = 8;
pub const NOT_EXPOSED: u64 = 16;

/// Whether `api` was read from an adapter file.
pub fn is_adapter(api: &ir::Api) -> bool {
    api.source
        .as_ref()
        .is_some_and(|l| l.file.path.ends_with(".md"))
}

/// What the report keeps of a document as written once its tree is dropped: the
/// credentials each operation holds as written (found by the shared scrubber, with its
/// path item's shared parameters) — an `api_key` parameter the security scheme
/// supplies is in no schema of the details, yet its default is in the source lines.
#[derive(Debug, Default)]
pub struct Written {
    /// (path, method) → the credentials found, when there are any.
    pub secrets: BTreeMap<(String, String), BTreeSet<String>>,
}

impl From<openapi::Raw> for Written {
    fn from(raw: openapi::Raw) -> Written {
        let mut secrets = BTreeMap::new();
        // One path item at a time: a JSON document's are parsed only here.
        for (path, item) in raw.path_items() {
            let Some(item) = item.as_object() else {
                continue;
            };
            // Every member but the shared parameters that is an object: the methods
            // (an extension looked up by no operation costs nothing but its walk).
            for (method, op) in item
                .iter()
                .filter(|(k, v)| *k != "parameters" && v.is_object())
            {
                let mut written = op.clone();
                if let (Some(shared), Some(map)) = (item.get("parameters"), written.as_object_mut())
                {
                    map.insert("x-path-parameters".into(), shared.clone());
                }
                let mut found = BTreeSet::new();
                toolwright_query::redact::value(&mut written, &mut found);
                if !found.is_empty() {
                    secrets.insert((path.to_owned(), method.clone()), found);
                }
            }
        }
        Written { secrets }
    }
}

/// What [`collect`] reads of the documents as written ([`super::Sources`]) and of the
/// tools' artifact entries ([`entries`]).
pub struct Read<'a> {
    /// `written[i]` is what is kept of `apis[i]`'s document when it is an OpenAPI one.
    pub written: &'a [Option<Written>],
    /// Each operation's source lines ([`excerpt_of`]), the APIs' operations in order:
    /// their number in `spool`.
    pub excerpts: &'a [Option<usize>],
    /// Each operation's artifact entry ([`entries`]), in the same order.
    pub entries: &'a [Option<usize>],
    /// Where the excerpts and entries were put aside; the details are put aside
    /// there too.
    pub spool: super::spool::Spool,
}

/// Each operation's artifact entry as its details show it (`{"contract", "openapi",
/// "ai"}` of its metadata), the APIs' operations in order, put aside in
/// `spool`: each contract is dropped once its entry is made, so the details are made
/// with none alive (Graph beta's took ~45 MB, alive with the whole IR).
pub fn entries(
    apis: &[ir::Api],
    contracts: Vec<crate::contract::OperationContract>,
    spool: &mut super::spool::Spool,
) -> Vec<Option<usize>> {
    let mut contracts = contracts.into_iter();
    let ops = apis
        .iter()
        .flat_map(|api| api.operations.iter().map(move |op| (api, op)));
    ops.map(|(api, op)| {
        let contract = contracts.next()?;
        let entry = artifact::tool(api, op, &contract);
        drop(contract);
        // Written from the entry itself (a copy of its parts was a second big tool's
        // entry alive at once).
        let shown: BTreeMap<&str, Option<&Value>> = [
            ("contract", entry.pointer("/metadata/api_contract")),
            ("openapi", entry.pointer("/metadata/openapi")),
            ("ai", entry.pointer("/metadata/ai_metadata")),
        ]
        .into_iter()
        .collect();
        Some(put_aside(spool, &shown))
    })
    .collect()
}

/// A readiness finding as the artifact has it, scrubbed as the artifact is.
pub fn finding(finding: &crate::contract::readiness::Finding) -> Value {
    let mut value = serde_json::to_value(finding).unwrap_or(Value::Null);
    artifact::scrub(&mut value);
    value
}

/// The source lines `op` of `api` was read from, scrubbed, as its details show them:
/// where the reader placed it, else where `raw` (its document as written) has it.
pub fn excerpt_of(api: &ir::Api, op: &ir::Operation, raw: Option<&openapi::Raw>) -> Option<Value> {
    let file = &api.source.as_ref()?.file;
    let span = match (&op.source, raw) {
        (Some(l), _) => l.span.clone(),
        (None, Some(raw)) => raw
            .operations
            .get(&(op.path.clone(), op.method.as_str().to_ascii_lowercase()))?
            .clone(),
        _ => return None,
    };
    let mut excerpt = excerpt(file, span);
    artifact::scrub(&mut excerpt);
    Some(excerpt)
}

/// `value` as JSON text, gzip-compressed (quickly: it is read back by this process).
fn compressed(value: &Value) -> Vec<u8> {
    // Buffered: flate2 clears its output buffer on every write, and serde_json
    // writes a token at a time (see `block::BUFFER`).
    let mut gz = std::io::BufWriter::with_capacity(
        super::block::BUFFER,
        flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast()),
    );
    // Writing to a Vec cannot fail.
    let _ = serde_json::to_writer(&mut gz, value);
    gz.into_inner()
        .ok()
        .and_then(|gz| gz.finish().ok())
        .unwrap_or_default()
}

/// `value` put aside in `spool` as JSON text, not compressed: it is read back once,
/// soon ([`read_back`]). Compressed, Graph beta's entries and excerpts took a third of
/// the report's first phase to squeeze and inflate.
pub fn put_aside(spool: &mut super::spool::Spool, value: &impl serde::Serialize) -> usize {
    // Serializing a value of JSON to memory cannot fail.
    spool.push(serde_json::to_vec(value).unwrap_or_default())
}

/// The JSON value [`put_aside`] as number `index`.
fn read_back(spool: &super::spool::Spool, index: usize) -> std::io::Result<Value> {
    serde_json::from_slice(&spool.read(index)?).map_err(std::io::Error::other)
}

/// The rows and details of every operation of `apis`, with what `read` holds of their
/// documents as written and of their artifact entries; `findings` are the readiness
/// report's, `edges` the graph's (scrubbed).
///
/// # Errors
/// Reading an operation's source lines or artifact entry back from their temporary
/// file failed.
pub fn collect(
    apis: &[ir::Api],
    read: Read<'_>,
    findings: &[crate::contract::readiness::Finding],
    edges: &[Link],
) -> std::io::Result<Tools> {
    // Each tool's edges by reference, summarised when its details are made: summaries
    // of every edge made up front (two per edge) took ~190 MB on Graph beta.
    let mut edges_in: BTreeMap<&str, Vec<&Link>> = BTreeMap::new();
    let mut edges_out: BTreeMap<&str, Vec<&Link>> = BTreeMap::new();
    for edge in edges {
        edges_out.entry(&edge.source).or_default().push(edge);
        edges_in.entry(&edge.target).or_default().push(edge);
    }
    // A tool's edges as its details show them: each with the tool at its other end.
    let edge_summaries = |edges: Option<Vec<&Link>>, incoming: bool| {
        edges
            .unwrap_or_default()
            .into_iter()
            .map(|edge| {
                json!({
                    "tool": if incoming { &edge.source } else { &edge.target },
                    "confidence": edge.confidence,
                    "score": edge.score,
                    "evidence": edge.evidence,
                    "field": edge.field,
                })
            })
            .collect::<Vec<Value>>()
    };
    let mut findings_of: BTreeMap<&str, Vec<&crate::contract::readiness::Finding>> =
        BTreeMap::new();
    for f in findings {
        findings_of.entry(&f.tool).or_default().push(f);
    }

    let Read {
        written,
        excerpts,
        entries: artifact_entries,
        mut spool,
    } = read;
    let mut excerpts = excerpts.iter();
    let mut artifact_entries = artifact_entries.iter();
    let mut entries: Vec<Entry> = Vec::new();
    let mut definitions = Vec::new();
    for (api_index, api) in apis.iter().enumerate() {
        let adapter = is_adapter(api);
        let raw = written.get(api_index).and_then(Option::as_ref);
        definitions.push(super::block::element(
            &format!("tw-defs-{api_index}"),
            |w| write_definitions(api, w),
        ));
        for op in &api.operations {
            let plan = plan::plan(api, op);
            let mut entry = match artifact_entries.next() {
                Some(Some(at)) => read_back(&spool, *at)?,
                _ => Value::Null,
            };
            let own_findings: Vec<Value> = findings_of
                .get(op.name.as_str())
                .into_iter()
                .flatten()
                .map(|f| finding(f))
                .collect();
            let count = |severity: &str| {
                own_findings
                    .iter()
                    .filter(|f| f.get("severity").and_then(Value::as_str) == Some(severity))
                    .count()
            };
            let a = plan.annotations;
            let flags = u64::from(a.read_only) * READ_ONLY
                + u64::from(a.destructive) * DESTRUCTIVE
                + u64::from(a.idempotent) * IDEMPOTENT
                + u64::from(a.open_world) * OPEN_WORLD
                + u64::from(!plan.exposed) * NOT_EXPOSED;
            let summary = entry
                .pointer("/ai/one_line_summary")
                .and_then(Value::as_str)
                .unwrap_or_else(|| plan.description.lines().next().unwrap_or(""));
            let ins = edge_summaries(edges_in.remove(op.name.as_str()), true);
            let outs = edge_summaries(edges_out.remove(op.name.as_str()), false);
            let mut row = json!([
                op.name,
                api_index,
                op.kind.as_str(),
                op.method.as_str(),
                op.path,
                flags,
                cut(summary, 200),
                count("warning"),
                count("info"),
                ins.len(),
                outs.len(),
            ]);
            let mut detail = json!({
                "name": op.name,
                "title": plan.title,
                "api": api_index,
                "description": plan.description,
                "exposed": plan.exposed,
                "method": op.method.as_str(),
                "path": op.path,
                "group": op.kind.as_str(),
                "annotations": crate::ir::annotations::annotation_reasons(op, adapter)
                    .iter()
                    .map(|(hint, value, why)| json!({"hint": hint, "value": value, "why": why}))
                    .collect::<Vec<_>>(),
                "input": without_defs(plan.input_schema),
                "examples": op.examples.iter().map(|e| json!({
                    "request": e.request,
                    "arguments": e.arguments,
                })).collect::<Vec<_>>(),
                "output": plan::output_schema(api, op, false).map(without_defs),
                "wrapped": plan.wrap_output,
                "responses": op.responses.iter().map(|r| json!({
                    "status": r.status,
                    "description": r.description,
                    "json": r.json,
                    "typed": r.schema.is_some(),
                })).collect::<Vec<_>>(),
                // Moved, not copied: the entry was read back for this.
                "contract": entry.get_mut("contract").map(Value::take),
                "openapi": entry.get_mut("openapi").map(Value::take),
                "ai": entry.get_mut("ai").map(Value::take),
                "edges": {"in": ins, "out": outs},
                "findings": own_findings,
                "native": plan.meta.get("toolwright"),
            });
            // Credentials found in the structure (an example under `password`) are
            // also taken out of the source lines, which have none.
            let mut secrets = BTreeSet::new();
            toolwright_query::redact::value(&mut detail, &mut secrets);
            // The source view shows the operation as written: what the scrubber found
            // in that is taken out of its lines too.
            if let Some(found) = raw.and_then(|raw| {
                raw.secrets
                    .get(&(op.path.clone(), op.method.as_str().to_ascii_lowercase()))
            }) {
                secrets.extend(found.iter().cloned());
            }
            detail["excerpt"] = match excerpts.next() {
                Some(Some(at)) => read_back(&spool, *at)?,
                _ => Value::Null,
            };
            // Also where an export moved an example into a description.
            redact_everywhere(&mut detail, &secrets);
            // Compressed now: all tools' details are never alive at once as text.
            let compressed = compressed(&detail);
            // Scrubbed as the page's data would be: its texts come from the documents.
            artifact::scrub(&mut row);
            entries.push(Entry {
                name: op.name.clone(),
                api: api_index,
                row: serde_json::value::to_raw_value(&row).map_err(std::io::Error::other)?,
                detail: spool.push(compressed),
                secrets,
            });
        }
    }
    // Sorted by name (unique in a checked catalog; the API breaks a tie otherwise).
    entries.sort_by(|a, b| (&a.name, a.api).cmp(&(&b.name, b.api)));
    let mut tools = Tools {
        definitions,
        spool,
        ..Tools::default()
    };
    for (i, entry) in entries.into_iter().enumerate() {
        tools.index.entry(entry.name.clone()).or_insert(i);
        tools.names.push(entry.name);
        tools.rows.push(entry.row);
        tools.details.push(entry.detail);
        tools.secrets.push(entry.secrets);
    }
    Ok(tools)
}

/// One tool as [`collect`] makes it, before the tools are sorted.
struct Entry {
    name: String,
    /// The API's number (breaks a tie of names).
    api: usize,
    row: Box<RawValue>,
    /// Its details' number in the spool.
    detail: usize,
    secrets: BTreeSet<String>,
}

/// The definitions some tool of `api` reaches, as `{"input": {name: schema}, "output":
/// {name: schema}}` JSON text written to `out`, scrubbed, names in order. One
/// definition rendered at a time: as a value tree, Graph beta's took ~45 MB for as
/// long as the page was being made, and as one text 15.7 MB, at the report's peak.
fn write_definitions(api: &ir::Api, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let names = emit::reachable_definitions(api);
    out.write_all(b"{")?;
    for (label, direction) in [
        ("input", ir::Direction::Input),
        ("output", ir::Direction::Output),
    ] {
        if direction == ir::Direction::Output {
            out.write_all(b",")?;
        }
        write!(out, "{}:{{", json!(label))?;
        let mut first = true;
        for name in &names {
            let Some(def) = api.definitions.get(name) else {
                continue;
            };
            // Under its name, as the scrubber would see it inside the whole object: a
            // definition named like a credential has its samples taken out.
            let mut one = Value::Object(
                [(name.clone(), def.to_json(direction))]
                    .into_iter()
                    .collect(),
            );
            artifact::scrub(&mut one);
            let text = one.to_string();
            if !first {
                out.write_all(b",")?;
            }
            first = false;
            // `{"name":schema}` without its braces.
            out.write_all(&text.as_bytes()[1..text.len() - 1])?;
        }
        out.write_all(b"}")?;
    }
    out.write_all(b"}")
}

/// A tool's schema without its `$defs`: the page resolves references against the
/// API's definitions, stored once, not once per tool that reaches them.
fn without_defs(mut schema: Value) -> Value {
    if let Some(map) = schema.as_object_mut() {
        map.remove("$defs");
    }
    schema
}

/// The source lines of `span`, numbered: at most [`EXCERPT_LINES`] lines of at most
/// [`EXCERPT_COLUMNS`] characters; a span inside one long line (minified JSON) shows
/// the span's own text instead, up to [`EXCERPT_CHARS`].
pub fn excerpt(file: &SourceFile, span: Range<usize>) -> Value {
    let text = &file.text;
    let span = span.start.min(text.len())..span.end.min(text.len()).max(span.start);
    let (first_line, column) = file.line_col(span.start);
    let (last_line, _) = file.line_col(span.end.saturating_sub(1).max(span.start));
    // From the file's line index: scanning the text for the line's ends was two
    // passes over a one-line document per operation (quadratic on Graph beta).
    let line_start = file.line_start(span.start);
    let line_end = file.line_end(span.end);
    let total = last_line + 1 - first_line;
    if total == 1 && line_end - line_start > EXCERPT_COLUMNS {
        let shown = cut(&text[span.clone()], EXCERPT_CHARS);
        return json!({
            "file": file.path,
            "first_line": first_line,
            "column": column,
            "lines": [shown],
            "more": 0,
        });
    }
    let lines: Vec<String> = text[line_start..line_end]
        .lines()
        .take(EXCERPT_LINES)
        .map(|l| cut(&scrub_line(l), EXCERPT_COLUMNS))
        .collect();
    json!({
        "file": file.path,
        "first_line": first_line,
        "column": column,
        "more": total.saturating_sub(lines.len()),
        "lines": lines,
    })
}

impl Tools {
    /// Writes tool `index`'s details to `out` as the page reads them: its fields and,
    /// under `exports`, its entry per profile (JSON text, its credentials taken out).
    ///
    /// # Errors
    /// Writing to `out` failed, or reading the tools' details back from their
    /// temporary file did.
    pub fn write_detail(
        &self,
        out: &mut impl std::io::Write,
        index: usize,
        exports: Option<&BTreeMap<String, Box<RawValue>>>,
    ) -> std::io::Result<()> {
        let mut detail = String::new();
        std::io::Read::read_to_string(
            &mut flate2::read::GzDecoder::new(&self.spool.read(self.details[index])?[..]),
            &mut detail,
        )?;
        // An object this module wrote: `{…}`, never empty (it has a name).
        out.write_all(detail.strip_suffix('}').unwrap_or(&detail).as_bytes())?;
        out.write_all(b",\"exports\":{")?;
        for (i, (profile, exported)) in exports.into_iter().flatten().enumerate() {
            if i > 0 {
                out.write_all(b",")?;
            }
            serde_json::to_writer(&mut *out, profile)?;
            out.write_all(b":")?;
            out.write_all(redact_raw(exported, &self.secrets[index]).as_bytes())?;
        }
        out.write_all(b"}}")
    }
}

/// `raw` with every occurrence of the `secrets` replaced, as they appear in JSON text.
fn redact_raw<'r>(
    raw: &'r RawValue,
    secrets: &std::collections::BTreeSet<String>,
) -> std::borrow::Cow<'r, str> {
    // As written inside a JSON string (quotes and backslashes escaped).
    let escaped: std::collections::BTreeSet<String> = secrets
        .iter()
        .filter_map(|s| serde_json::to_string(s).ok())
        .map(|quoted| quoted[1..quoted.len() - 1].to_owned())
        .collect();
    toolwright_query::redact::known(raw.get(), &escaped)
}

/// Every occurrence of a credential in any string of `value` replaced.
fn redact_everywhere(value: &mut Value, secrets: &std::collections::BTreeSet<String>) {
    match value {
        Value::String(text) => {
            if let std::borrow::Cow::Owned(clean) = toolwright_query::redact::known(text, secrets) {
                *text = clean;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| redact_everywhere(v, secrets)),
        Value::Object(map) => map.values_mut().for_each(|v| redact_everywhere(v, secrets)),
        _ => {}
    }
}

/// A source line with a literal under a credential-named key (`"password":
/// "hunter2"`, `api_key: abc`) redacted; well-known token formats anywhere are
/// redacted later with the rest of the details.
fn scrub_line(line: &str) -> String {
    if let Some((key, value)) = line.split_once(':') {
        let name = key
            .trim()
            .trim_start_matches('-')
            .trim()
            .trim_matches(['"', '\'']);
        let value = value.trim().trim_end_matches(',');
        let literal = !value.is_empty()
            && !value.starts_with(['{', '[', '&', '*', '|', '>', '#'])
            && value != "null";
        if literal && toolwright_query::redact::is_secret_name(name) {
            let indent = &line[..line.len() - line.trim_start().len()];
            return format!("{indent}{}: \"<redacted>\"", key.trim());
        }
    }
    line.to_owned()
}

/// `s` cut to `max` characters (with `…` when cut), on a character boundary.
pub fn cut(s: &str, max: usize) -> String {
    match toolwright_query::cut::chars(s, max) {
        (head, "") => head.to_owned(),
        (head, _) => format!("{head}…"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excerpts_number_lines_and_cut_long_ones() {
        let text = "a\nb: {\n  c: 1\n}\nz\n";
        let file = SourceFile::new("x.yaml", text);
        let start = text.find("b:").unwrap();
        let end = text.find("}").unwrap() + 1;
        let e = excerpt(&file, start..end);
        assert_eq!(e["first_line"], 2);
        assert_eq!(e["lines"], json!(["b: {", "  c: 1", "}"]));
        assert_eq!(e["more"], 0);

        let long = format!(
            "{{\"paths\": {{\"/a\": {{\"get\": {{\"x\": \"{}\"}}}}}}}}",
            "é".repeat(500)
        );
        let file = SourceFile::new("min.json", long.clone());
        let start = long.find("\"get\"").unwrap();
        let e = excerpt(&file, start..long.len() - 2);
        assert_eq!(e["first_line"], 1);
        let shown = e["lines"][0].as_str().unwrap();
        assert!(shown.starts_with("\"get\""), "{shown}");
        assert!(shown.chars().count() <= EXCERPT_CHARS + 1);
    }

    #[test]
    fn source_lines_lose_literal_credentials() {
        assert_eq!(
            scrub_line(r#"    "password": "hunter2","#),
            r#"    "password": "<redacted>""#
        );
        assert_eq!(
            scrub_line("  - api_key: abc123"),
            r#"  - api_key: "<redacted>""#
        );
        assert_eq!(scrub_line(r#"  "token": {"#), r#"  "token": {"#);
        assert_eq!(scrub_line("token:"), "token:");
        assert_eq!(
            scrub_line("description: a secret: x"),
            "description: a secret: x"
        );
    }

    #[test]
    fn cut_keeps_characters_whole() {
        assert_eq!(cut("héllo", 2), "hé…");
        assert_eq!(cut("hé", 2), "hé");
    }
}
