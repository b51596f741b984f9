//! The inspection report: one self-contained HTML page that shows a catalog to a
//! person — every tool with its schemas, annotations and where each hint comes from,
//! its IO contract and graph neighbours, its readiness findings, its export for each
//! model provider (when the caller made them), its native metadata and the source
//! lines it was read from; the data-flow graph drawn as SVG; the readiness findings by
//! severity; and, per source, what its import kept, normalised or lost.
//!
//! No network and no CDN: styles, script and data are inlined, and a content security
//! policy forbids every fetch. The table's rows are plain JSON; each tool's details
//! (GitHub's are ~60 MB of JSON, mostly schemas and exports) are gzip-compressed in
//! blocks of [`CHUNK`] tools and inflated by the browser's `DecompressionStream` when a
//! tool is opened, so the page opens in well under a second at 1,223 tools and the
//! table (virtualised: only the visible rows exist) stays quick at 20,000.
//! Deterministic: the same inputs give the same bytes.

mod block;
mod fidelity;
mod graph;
mod html;
mod link;
mod page;
mod spool;
mod tools;

use std::collections::BTreeMap;

use serde_json::Value;
use serde_json::value::RawValue;

use crate::contract::{FieldRoles, artifact};
use crate::diagnostics::Diagnostic;
use crate::ir;
use crate::source::openapi;

/// Tools per compressed details block.
pub const CHUNK: usize = 64;

/// What a report is built from, beyond the APIs.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The page title (default: the APIs' names).
    pub title: Option<String>,
    /// Field roles for the contracts (as for the artifact).
    pub roles: FieldRoles,
}

/// Where a report gets each tool's provider exports (the runtime makes them:
/// `toolwright report` asks for MCP's, OpenAI's, Anthropic's and Gemini's). Asked for
/// one tool at a time, on a thread of its own, while the tool before is compressed
/// into the page, so a report never holds more than a few tools' exports: they can
/// take hundreds of KB each.
pub trait ExportSource: Sync {
    /// The profiles exported (`mcp`, `openai`, …), in the order the page shows them.
    fn profiles(&self) -> Vec<String>;

    /// The exports of the tool named: profile → its entry as JSON text
    /// (`{"tool": …, "mapping": …, "warnings": […]}`); empty when it has none.
    fn exports(&self, tool: &str) -> BTreeMap<String, Box<RawValue>>;
}

/// The report of `apis` (already read and checked) as one HTML document, without
/// provider exports (the details say how to get them). `diagnostics` are the findings
/// of reading them (shown per source in the fidelity matrix).
///
/// # Errors
/// Reading the tools' details back from their temporary file failed.
pub fn render(
    apis: &[ir::Api],
    diagnostics: &[Diagnostic],
    options: &Options,
) -> std::io::Result<String> {
    let mut page = Vec::new();
    write(apis, diagnostics, options, None, &mut page)?;
    // The page is made of text only.
    String::from_utf8(page).map_err(std::io::Error::other)
}

/// [`render`] written to `out` as it is made (a big API's page is never held whole),
/// each tool's details also showing its exports from `exports`.
///
/// # Errors
/// Writing to `out` failed, or reading the tools' details back from their temporary
/// file did.
pub fn write(
    apis: &[ir::Api],
    diagnostics: &[Diagnostic],
    options: &Options,
    exports: Option<&dyn ExportSource>,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    prepare(apis, diagnostics, options)?.write(exports, out)
}

/// A report with everything but the provider exports made: each tool's row and its
/// details (compressed), the graph drawn, the readiness report and the fidelity
/// matrices. What these are made from (the contracts, the graph's edges, the
/// documents as written) is dropped by then, so a caller that makes the exports from
/// a catalog of its own builds that catalog after [`prepare`], not beside it. It
/// borrows nothing: the APIs (and the source text they hold) may be dropped before it
/// is written.
#[derive(Debug)]
pub struct Prepared {
    /// What the page says of each API ([`page::apis`]).
    apis: Value,
    title: String,
    /// What the page shows of the readiness report.
    readiness: page::Readiness,
    tools: tools::Tools,
    fidelity: Vec<Value>,
    graph: graph::Drawing,
}

/// The report of `apis` made up to its exports ([`Prepared::write`] writes it).
///
/// # Errors
/// Reading an operation's source lines back from their temporary file failed.
pub fn prepare(
    apis: &[ir::Api],
    diagnostics: &[Diagnostic],
    options: &Options,
) -> std::io::Result<Prepared> {
    Sources::read(apis, diagnostics).prepare(apis, options)
}

/// What a report takes from the documents as written and from the findings of reading
/// them: the raw counts of the fidelity matrices, each operation's source lines (put
/// aside in a temporary file) and the credentials each holds as written.
/// Taken first, so that a caller can let go of the findings and of the source text
/// ([`ir::let_go_of_text`]) before the contracts are made: together they were the
/// report's peak (Microsoft Graph beta's text is 47 MB).
#[derive(Debug)]
pub struct Sources {
    fidelity: Vec<Value>,
    /// Per API, what is kept of its document as written when it is an OpenAPI one.
    written: Vec<Option<tools::Written>>,
    /// Each operation's source lines, the APIs' operations in order: the number they
    /// were put aside under in `spool`, when the operation has any.
    excerpts: Vec<Option<usize>>,
    spool: spool::Spool,
}

impl Sources {
    /// What the report of `apis` needs of their documents as written; `diagnostics` are
    /// the findings of reading them.
    pub fn read(apis: &[ir::Api], diagnostics: &[Diagnostic]) -> Sources {
        // Each OpenAPI document parsed once more, as written: the raw counts of the
        // fidelity matrix, where each operation is (the excerpts) and what credentials
        // it holds as written come from it — taken one document at a time, its tree
        // dropped before the next is read (GitHub's is ~100 MB).
        let mut sources = Sources {
            fidelity: Vec::with_capacity(apis.len()),
            written: Vec::with_capacity(apis.len()),
            excerpts: Vec::new(),
            spool: spool::Spool::new(),
        };
        for api in apis {
            let raw = match &api.source {
                Some(l) if !tools::is_adapter(api) && !crate::source::graphql::is_graphql(api) => {
                    // What the matrix counts of the schemas is how many there are.
                    openapi::raw_outline(&l.file)
                }
                _ => None,
            };
            sources
                .fidelity
                .push(fidelity::source(api, raw.as_ref(), diagnostics));
            for op in &api.operations {
                let excerpt = tools::excerpt_of(api, op, raw.as_ref());
                let at = excerpt.map(|e| tools::put_aside(&mut sources.spool, &e));
                sources.excerpts.push(at);
            }
            sources.written.push(raw.map(tools::Written::from));
        }
        sources
    }

    /// The report of `apis` (the ones read, their text let go of or not) made up to its
    /// exports ([`Prepared::write`] writes it).
    ///
    /// # Errors
    /// Reading an operation's source lines back from their temporary file failed.
    pub fn prepare(self, apis: &[ir::Api], options: &Options) -> std::io::Result<Prepared> {
        // Of the artifact, the sections the page reads whole (the graph's edges, the
        // readiness report), scrubbed as the artifact's are; each tool's entry is made
        // when its details are (GitHub's whole artifact as one tree took ~125 MB).
        let artifact::Parts {
            contracts,
            edges,
            mut report,
        } = artifact::parts(
            apis,
            &artifact::Options {
                roles: options.roles.clone(),
                previous: None,
            },
        );
        // What the page shows of each edge, scrubbed as the artifact's walk would
        // (Graph beta's 111,805 as one value tree took ~180 MB; as the artifact has
        // them, 25 MB in place).
        let mut edges: Vec<link::Link> = edges.into_iter().map(link::Link::from).collect();
        // Made in the artifact's edges' room, which they need less than half of.
        edges.shrink_to_fit();
        let Sources {
            fidelity,
            written,
            excerpts,
            mut spool,
        } = self;
        // Each tool's entry of the artifact, scrubbed as the artifact's are, put aside
        // before the details are made, so that the contracts are gone by then (GitHub's
        // whole artifact as one tree took ~125 MB).
        let entries = tools::entries(apis, contracts, &mut spool);
        // Typed until shown: Graph beta's findings as one value tree took ~14 MB.
        let findings = std::mem::take(&mut report.findings);
        let readiness = page::Readiness::of(&report, &findings);
        drop(report);
        let tools = tools::collect(
            apis,
            tools::Read {
                written: &written,
                excerpts: &excerpts,
                entries: &entries,
                spool,
            },
            &findings,
            &edges,
        )?;
        drop((written, findings));
        let graph = graph::draw(&edges, &tools.index);
        drop(edges);
        let title = options.title.clone().unwrap_or_else(|| {
            let names: Vec<&str> = apis.iter().map(|a| a.name.as_str()).collect();
            format!("toolwright report: {}", names.join(", "))
        });
        Ok(Prepared {
            apis: page::apis(apis),
            title,
            readiness,
            tools,
            fidelity,
            graph,
        })
    }
}

impl Prepared {
    /// The tools in the report.
    pub fn tools(&self) -> usize {
        self.tools.rows.len()
    }

    /// The page written to `out` as it is made, each tool's details also showing its
    /// exports from `exports`.
    ///
    /// # Errors
    /// Writing to `out` failed, or reading the tools' details back from their
    /// temporary file did.
    pub fn write(
        &self,
        exports: Option<&dyn ExportSource>,
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        page::write(
            &page::Parts {
                title: &self.title,
                apis: &self.apis,
                readiness: &self.readiness,
                tools: &self.tools,
                fidelity: &self.fidelity,
                graph: &self.graph,
                exports,
            },
            out,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_holding_a_marker_is_not_expanded() {
        let options = Options {
            title: Some("{{DATA}} & {{BLOCKS}}".into()),
            ..Options::default()
        };
        let page = render(&[], &[], &options).unwrap();
        assert!(
            page.contains("<title>{{DATA}} &amp; {{BLOCKS}}</title>"),
            "{page}"
        );
        assert_eq!(page.matches("<style>").count(), 1);
        assert!(page.trim_end().ends_with("</html>"));
    }
}
