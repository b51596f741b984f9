//! The page itself: the HTML skeleton with the styles, the script, the table data (JSON
//! in a `<script type="application/json">`), the compressed details blocks and the
//! graph's SVG put in place.

use std::io::Write as _;

use base64::Engine as _;
use serde_json::{Value, json};

use super::graph::Drawing;
use super::html::escape;
use super::tools::Tools;
use crate::ir;

const TEMPLATE: &str = include_str!("assets/page.html");
const STYLE: &str = include_str!("assets/report.css");
const SCRIPT: &str = include_str!("assets/report.js");

pub struct Parts<'a> {
    pub title: &'a str,
    pub apis: &'a [ir::Api],
    pub artifact: &'a Value,
    pub tools: &'a Tools,
    pub fidelity: &'a [Value],
    pub graph: &'a Drawing,
    /// Where the details' provider exports come from.
    pub exports: Option<&'a dyn super::ExportSource>,
}

pub fn assemble(parts: &Parts<'_>) -> String {
    let report = parts
        .artifact
        .get("readiness_report")
        .cloned()
        .unwrap_or(Value::Null);
    let findings: Vec<Value> = report
        .get("findings")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|f| {
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
    let mut data = json!({
        "title": parts.title,
        "generator": concat!("toolwright ", env!("CARGO_PKG_VERSION")),
        "apis": parts.apis.iter().map(|api| json!({
            "name": api.name,
            "version": api.version,
            "description": super::tools::cut(&api.description, 300),
            "base_url": crate::source::base_url::redact(&api.base_url),
            "source": api.source.as_ref().map(|l| l.file.path.clone()),
            "tools": api.operations.len(),
        })).collect::<Vec<_>>(),
        "summary": {
            "tools": parts.tools.rows.len(),
            "edges": parts.graph.total,
            "drawn": parts.graph.drawn,
            "nodes": parts.graph.nodes,
            "score": report.get("score"),
            "status": report.get("status"),
            "warnings": count("warning"),
            "infos": count("info"),
        },
        "columns": ["name", "api", "group", "method", "path", "flags", "summary", "warnings", "infos", "in", "out"],
        "rows": parts.tools.rows,
        "chunk": super::CHUNK,
        "readiness": {
            "score": report.get("score"),
            "status": report.get("status"),
            "checks": report.get("checks"),
            "coverage": report.get("coverage"),
            "findings": findings,
        },
        "fidelity": parts.fidelity,
        "exports": parts.exports.map(|e| e.profiles()).unwrap_or_default(),
    });
    // The table's texts come from the documents as written (an API's description, a
    // finding quoting a summary): whatever credential they hold stays out of the page.
    crate::contract::artifact::scrub(&mut data);
    let mut blocks = String::new();
    // Each tool's exports are made, compressed into its block and dropped: the page
    // never holds more than one tool's.
    for (i, start) in (0..parts.tools.details.len())
        .step_by(super::CHUNK)
        .enumerate()
    {
        let end = (start + super::CHUNK).min(parts.tools.details.len());
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        // Writing to a Vec cannot fail.
        let _ = gz.write_all(b"[");
        for index in start..end {
            if index > start {
                let _ = gz.write_all(b",");
            }
            let name = parts.tools.rows[index][0].as_str().unwrap_or_default();
            let exports = parts.exports.map(|e| e.exports(name));
            let _ = parts.tools.write_detail(&mut gz, index, exports.as_ref());
        }
        let _ = gz.write_all(b"]");
        put_block(
            &mut blocks,
            &format!("tw-chunk-{i}"),
            &gz.finish().unwrap_or_default(),
        );
    }
    for (i, defs) in parts.tools.definitions.iter().enumerate() {
        block(
            &mut blocks,
            &format!("tw-defs-{i}"),
            &serde_json::to_vec(defs).unwrap_or_default(),
        );
    }
    let graph = if parts.graph.svg.is_empty() {
        "<p class=\"empty\">No data-flow edges: no tool's output was found to feed another's input.</p>".to_owned()
    } else {
        parts.graph.svg.clone()
    };
    fill(
        TEMPLATE,
        &[
            ("{{TITLE}}", &escape(parts.title)),
            ("{{STYLE}}", STYLE),
            ("{{DATA}}", &script_json(&data)),
            ("{{GRAPH}}", &graph),
            ("{{BLOCKS}}", &blocks),
            ("{{SCRIPT}}", SCRIPT),
        ],
    )
}

/// `template` with each marker replaced once, in one pass (a value that happens to
/// hold a marker is not expanded again).
fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out =
        String::with_capacity(template.len() + values.iter().map(|(_, v)| v.len()).sum::<usize>());
    let mut rest = template;
    while let Some((at, marker, value)) = values
        .iter()
        .filter_map(|(m, v)| rest.find(m).map(|at| (at, *m, *v)))
        .min_by_key(|(at, _, _)| *at)
    {
        out.push_str(&rest[..at]);
        out.push_str(value);
        rest = &rest[at + marker.len()..];
    }
    out.push_str(rest);
    out
}

/// A details block: JSON text, gzip-compressed, base64, in an inert `<script>` element.
fn block(out: &mut String, id: &str, json: &[u8]) {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    // Writing to a Vec cannot fail.
    let _ = gz.write_all(json);
    put_block(out, id, &gz.finish().unwrap_or_default());
}

/// A block already compressed, as [`block`] writes it.
fn put_block(out: &mut String, id: &str, bytes: &[u8]) {
    out.push_str("<script type=\"application/gzip+base64\" id=\"");
    out.push_str(id);
    out.push_str("\">");
    out.push_str(&base64::engine::general_purpose::STANDARD.encode(bytes));
    out.push_str("</script>\n");
}

/// JSON safe inside a `<script>` element: `<` is written `\u003c` (only strings hold
/// one), so no `</script>` or `<!--` can end or change the element.
fn script_json(value: &Value) -> String {
    serde_json::to_string(value)
        .unwrap_or_default()
        .replace('<', "\\u003c")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_are_filled_once() {
        let out = fill("a{{X}}b{{Y}}c", &[("{{X}}", "{{Y}}"), ("{{Y}}", "2")]);
        assert_eq!(out, "a{{Y}}b2c");
    }

    #[test]
    fn script_json_cannot_close_its_element() {
        let text = script_json(&json!({"d": "</script><script>alert(1)</script>"}));
        assert!(!text.contains("</script"));
        let back: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back["d"], "</script><script>alert(1)</script>");
    }

    #[test]
    fn blocks_are_gzip_of_the_json() {
        let mut out = String::new();
        block(&mut out, "b", br#"{"a":[1,2]}"#);
        let b64 = out.split('>').nth(1).unwrap().split('<').next().unwrap();
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(b64)
            .unwrap();
        let mut text = String::new();
        std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut text)
            .unwrap();
        assert_eq!(text, r#"{"a":[1,2]}"#);
    }
}
