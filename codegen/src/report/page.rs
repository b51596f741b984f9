//! The page itself: the HTML skeleton with the styles, the script, the table data (JSON
//! in a `<script type="application/json">`), the compressed details blocks and the
//! graph's SVG put in place.

use std::io::Write;

use serde_json::{Value, json};

use super::block::{close_block, open_block};
use super::graph::Drawing;
use super::html::escape;
use super::tools::Tools;
use crate::ir;

const TEMPLATE: &str = include_str!("assets/page.html");
const STYLE: &str = include_str!("assets/report.css");
const SCRIPT: &str = include_str!("assets/report.js");

pub struct Parts<'a> {
    pub title: &'a str,
    /// Each API's name, version, description, base URL, source and tool count
    /// ([`apis`]).
    pub apis: &'a Value,
    pub readiness: &'a Readiness,
    pub tools: &'a Tools,
    pub fidelity: &'a [Value],
    pub graph: &'a Drawing,
    /// Where the details' provider exports come from.
    pub exports: Option<&'a dyn super::ExportSource>,
}

/// What the page says of each API: name, version, description, base URL, source and
/// tool count (made when the report is prepared, so the API need not outlive that).
pub fn apis(apis: &[ir::Api]) -> Value {
    Value::Array(
        apis.iter()
            .map(|api| {
                json!({
                    "name": api.name,
                    "version": api.version,
                    "description": super::tools::cut(&api.description, 300),
                    "base_url": crate::source::base_url::redact(&api.base_url),
                    "source": api.source.as_ref().map(|l| l.file.path.clone()),
                    "tools": api.operations.len(),
                })
            })
            .collect(),
    )
}

/// Writes the page to `out` as it is made: the template's text and each part in
/// turn, the details a block of tools at a time — the page (Graph beta's is 172 MB) is
/// never held whole, nor copied to fill the template.
///
/// # Errors
/// Writing to `out` failed, or reading the tools' details back from their temporary
/// file did.
pub fn write(parts: &Parts<'_>, out: &mut dyn Write) -> std::io::Result<()> {
    let mut rest = TEMPLATE;
    // Each marker replaced once, in one pass (a value that happens to hold a marker is
    // not expanded again).
    while let Some((at, marker)) = MARKERS
        .iter()
        .filter_map(|m| rest.find(m).map(|at| (at, *m)))
        .min_by_key(|(at, _)| *at)
    {
        out.write_all(&rest.as_bytes()[..at])?;
        match marker {
            "{{TITLE}}" => out.write_all(escape(parts.title).as_bytes())?,
            "{{STYLE}}" => out.write_all(STYLE.as_bytes())?,
            // Made here and dropped once written; the rows and the readiness section
            // are written in place from their text, never copied into it.
            "{{DATA}}" => write_data(out, &data(parts), &parts.tools.rows, parts.readiness)?,
            "{{GRAPH}}" if parts.graph.svg.is_empty() => out.write_all(
                b"<p class=\"empty\">No data-flow edges: no tool's output was found to feed another's input.</p>",
            )?,
            "{{GRAPH}}" => out.write_all(parts.graph.svg.as_bytes())?,
            "{{BLOCKS}}" => write_blocks(parts, out)?,
            _ => out.write_all(SCRIPT.as_bytes())?,
        }
        rest = &rest[at + marker.len()..];
    }
    out.write_all(rest.as_bytes())
}

/// The template's markers; [`write`] says what each is replaced by.
const MARKERS: [&str; 6] = [
    "{{TITLE}}",
    "{{STYLE}}",
    "{{DATA}}",
    "{{GRAPH}}",
    "{{BLOCKS}}",
    "{{SCRIPT}}",
];

/// What the page's data says of the readiness report, made when the report is
/// prepared: the report is dropped then (Graph beta's as a value took ~14 MB, and was
/// copied again into the page's data).
#[derive(Debug)]
pub struct Readiness {
    /// `{"score", "status", "checks", "coverage", "findings"}`, scrubbed as the page's
    /// data is, each finding `[severity, code, tool, message, source]`.
    text: Box<serde_json::value::RawValue>,
    score: Value,
    status: Value,
    warnings: usize,
    infos: usize,
}

impl Readiness {
    /// The page's readiness section of `report`, whose findings are `findings`.
    pub fn of(
        report: &crate::contract::readiness::Report,
        findings: &[crate::contract::readiness::Finding],
    ) -> Readiness {
        // Scrubbed as the artifact's readiness report is (its findings one at a time).
        let mut artifact = json!({ "readiness_report": report });
        crate::contract::artifact::scrub(&mut artifact);
        let report = &artifact["readiness_report"];
        let findings: Vec<Value> = findings
            .iter()
            .map(|f| {
                let f = super::tools::finding(f);
                let s = |k: &str| f.get(k).cloned().unwrap_or(Value::Null);
                json!([
                    s("severity"),
                    s("code"),
                    s("tool"),
                    s("message"),
                    s("source")
                ])
            })
            .collect();
        let count = |severity: &str| findings.iter().filter(|f| f[0] == severity).count();
        let (warnings, infos) = (count("warning"), count("info"));
        let mut section = json!({
            "score": report.get("score"),
            "status": report.get("status"),
            "checks": report.get("checks"),
            "coverage": report.get("coverage"),
            "findings": findings,
        });
        // As the whole data's walk reaches it: its texts come from the documents.
        crate::contract::artifact::scrub(&mut section);
        Readiness {
            text: serde_json::value::to_raw_value(&section).unwrap_or_default(),
            // The summary repeats these two, scrubbed alike.
            score: section["score"].clone(),
            status: section["status"].clone(),
            warnings,
            infos,
        }
    }
}

/// The page's data: the table's rows, the summary, the readiness report and the
/// fidelity matrices (scrubbed; the rows and the readiness section were when they
/// were made, and are written in place by [`write_data`]).
fn data(parts: &Parts<'_>) -> Value {
    let readiness = parts.readiness;
    let mut data = json!({
        "title": parts.title,
        "generator": concat!("toolwright ", env!("CARGO_PKG_VERSION")),
        "apis": parts.apis,
        "summary": {
            "tools": parts.tools.rows.len(),
            "edges": parts.graph.total,
            "drawn": parts.graph.drawn,
            "nodes": parts.graph.nodes,
            "score": readiness.score,
            "status": readiness.status,
            "warnings": readiness.warnings,
            "infos": readiness.infos,
        },
        "columns": ["name", "api", "group", "method", "path", "flags", "summary", "warnings", "infos", "in", "out"],
        "rows": Value::Null,
        "chunk": super::CHUNK,
        "readiness": Value::Null,
        "fidelity": parts.fidelity,
        "exports": parts.exports.map(|e| e.profiles()).unwrap_or_default(),
    });
    // The table's texts come from the documents as written (an API's description, a
    // finding quoting a summary): whatever credential they hold stays out of the page.
    crate::contract::artifact::scrub(&mut data);
    data
}

/// Threads making the tools' exports while the page is written.
const MAKERS: usize = 2;

/// The compressed details blocks, then each API's definitions, written one block at a
/// time. Each tool's exports are made (on [`MAKERS`] other threads, a tool or two
/// ahead: on Microsoft Graph making them takes longer than compressing the page),
/// compressed into its block and dropped: the page never holds more than a few tools'
/// exports.
fn write_blocks(parts: &Parts<'_>, out: &mut dyn Write) -> std::io::Result<()> {
    let details = parts.tools.details.len();
    let names = &parts.tools.names;
    let exports_of = |index: usize| parts.exports.map(|source| source.exports(&names[index]));
    std::thread::scope(|scope| {
        // Making a tool's exports takes longer than compressing its details: two
        // makers, each a tool or two ahead of the page, take turns (maker `k` makes
        // every `MAKERS`-th tool from `k`).
        let makers: Vec<_> = (0..MAKERS)
            .map(|first| {
                parts.exports?;
                let (send, ahead) = std::sync::mpsc::sync_channel(1);
                let make = move || {
                    for index in (first..names.len()).step_by(MAKERS) {
                        // The page stopped (a write failed): nothing more to make.
                        if send.send(exports_of(index)).is_err() {
                            break;
                        }
                    }
                };
                // No thread to be had (a process at its limit): its tools made here.
                std::thread::Builder::new()
                    .spawn_scoped(scope, make)
                    .ok()
                    .map(|_| ahead)
            })
            .collect();
        for (i, start) in (0..details).step_by(super::CHUNK).enumerate() {
            let end = (start + super::CHUNK).min(details);
            let mut gz = open_block(out, &format!("tw-chunk-{i}"))?;
            gz.write_all(b"[")?;
            for index in start..end {
                if index > start {
                    gz.write_all(b",")?;
                }
                // In the rows' order, one per tool.
                let exports = match &makers[index % MAKERS] {
                    // Its maker sends one per tool; none means it panicked (raised
                    // when the scope ends).
                    Some(ahead) => ahead.recv().map_err(|_| {
                        std::io::Error::other("the tools' exports stopped before the page")
                    })?,
                    None => exports_of(index),
                };
                parts.tools.write_detail(&mut gz, index, exports.as_ref())?;
            }
            gz.write_all(b"]")?;
            close_block(gz)?;
        }
        Ok::<(), std::io::Error>(())
    })?;
    // Each already a whole element, compressed when it was made.
    for defs in &parts.tools.definitions {
        match defs {
            Ok(element) => out.write_all(element)?,
            Err(e) => return Err(std::io::Error::new(e.kind(), e.to_string())),
        }
    }
    Ok(())
}

/// The page's `data` as [`write_script_json`] writes it, with the tools' `rows` (each
/// JSON text) and the `readiness` section (text) written in place of those members:
/// neither is copied into the value (Graph beta's took ~26 MB as values).
fn write_data(
    out: &mut dyn Write,
    data: &Value,
    rows: &[Box<serde_json::value::RawValue>],
    readiness: &Readiness,
) -> std::io::Result<()> {
    let Some(members) = data.as_object() else {
        return write_script_json(out, data);
    };
    let mut out = EscapeLt(out);
    out.write_all(b"{")?;
    for (i, (key, value)) in members.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        serde_json::to_writer(&mut out, key)?;
        out.write_all(b":")?;
        if key == "rows" {
            out.write_all(b"[")?;
            for (i, row) in rows.iter().enumerate() {
                if i > 0 {
                    out.write_all(b",")?;
                }
                out.write_all(row.get().as_bytes())?;
            }
            out.write_all(b"]")?;
        } else if key == "readiness" {
            out.write_all(readiness.text.get().as_bytes())?;
        } else {
            serde_json::to_writer(&mut out, value)?;
        }
    }
    out.write_all(b"}")
}

/// JSON safe inside a `<script>` element: `<` is written `\u003c` (only strings hold
/// one), so no `</script>` or `<!--` can end or change the element.
fn write_script_json(out: &mut dyn Write, value: &Value) -> std::io::Result<()> {
    serde_json::to_writer(EscapeLt(out), value)?;
    Ok(())
}

/// Writes through to the page with every `<` written `\u003c`.
struct EscapeLt<'w>(&'w mut dyn Write);

impl Write for EscapeLt<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut rest = buf;
        while let Some(at) = rest.iter().position(|&b| b == b'<') {
            self.0.write_all(&rest[..at])?;
            self.0.write_all(b"\\u003c")?;
            rest = &rest[at + 1..];
        }
        self.0.write_all(rest)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn script_json(value: &Value) -> String {
        let mut out = Vec::new();
        write_script_json(&mut out, value).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn script_json_cannot_close_its_element() {
        let text = script_json(&json!({"d": "</script><script>alert(1)</script>", "<": "<<"}));
        assert!(!text.contains('<'), "{text}");
        let back: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back["d"], "</script><script>alert(1)</script>");
        assert_eq!(back["<"], "<<");
    }
}
