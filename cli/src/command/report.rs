//! `toolwright report`: the inspection report, one self-contained HTML page.

use std::process::ExitCode;

use toolwright_cli::interpret;

use super::analyze;
use crate::args::Inputs;
use crate::memory;
use crate::output::write_if_changed;

pub(crate) fn run(
    inputs: &Inputs,
    out: &std::path::Path,
    title: Option<String>,
    with_exports: bool,
    styled: bool,
) -> ExitCode {
    // Large buffers (a tool's details, its exports) mapped and unmapped as they come and
    // go: left to glibc's moving threshold they come from the heap, which Microsoft
    // Graph beta's report left fragmented (more memory at its peak, and slower
    // allocation throughout; see cli/src/memory.rs).
    memory::return_large_buffers_when_freed();
    let Some(analysis) = analyze(inputs, styled) else {
        return ExitCode::FAILURE;
    };
    let options = toolwright_codegen::report::Options {
        title,
        ..Default::default()
    };
    // What the page shows of the documents as written first (the fidelity matrices,
    // the source lines): then the findings and the source text go (Graph beta's is
    // 47 MB) before the contracts are made, each location keeping only where it is.
    let sources = toolwright_codegen::report::Sources::read(&analysis.apis, &analysis.diagnostics);
    let toolwright_codegen::Analysis {
        inputs,
        mut apis,
        suites,
        diagnostics,
    } = analysis;
    drop((inputs, suites, diagnostics));
    toolwright_codegen::ir::let_go_of_text(&mut apis);
    memory::give_back_freed();
    // Everything but the exports next: what that is made from is dropped before the
    // exports' catalog is built (on Graph beta the two together were the peak).
    let prepared = match sources.prepare(&apis, &options) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: cannot make the report: {e}");
            return ExitCode::FAILURE;
        }
    };
    // The page needs nothing more of what was read. The APIs go to the exports'
    // catalog, which drops each operation once its tool is made (Graph beta's API as
    // read is the biggest thing alive).
    memory::give_back_freed();
    let catalog = if with_exports {
        match interpret::catalog_for_exports(apis) {
            Ok(c) => Some(c),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        }
    } else {
        drop(apis);
        None
    };
    let exporters = catalog.as_ref().map(ReportExports::new);
    // What the IR took is freed by now (the exports' catalog took its place).
    memory::give_back_freed();
    // The exports free and make again a tool's buffers many times a second: returning
    // each page at once costs system time and lowers no peak from here on.
    memory::keep_freed_pages_briefly();
    let tools = prepared.tools();
    // Written as it is made: Graph beta's page is 172 MB, never held whole.
    write_if_changed(out, |page| {
        prepared.write(
            exporters
                .as_ref()
                .map(|e| e as &dyn toolwright_codegen::report::ExportSource),
            page,
        )?;
        Ok(format!("{tools} tool(s), {} bytes", page.written))
    })
}

/// The report's provider exports: MCP's, OpenAI's, Anthropic's and Gemini's, each
/// with its defaults, made a block of tools at a time as the page is written.
#[derive(Debug)]
pub(crate) struct ReportExports<'c> {
    exporters: Vec<(toolwright::Profile, toolwright::export::Exporter<'c>)>,
}

impl<'c> ReportExports<'c> {
    fn new(catalog: &'c toolwright::Catalog) -> Self {
        let mcp = catalog.exporter(&toolwright::ExportOptions::new(toolwright::Profile::Mcp));
        let exporters = [
            toolwright::Profile::OpenAi,
            toolwright::Profile::Anthropic,
            toolwright::Profile::Gemini,
        ]
        .into_iter()
        .map(|p| (p, mcp.with_options(&toolwright::ExportOptions::new(p))))
        .collect::<Vec<_>>();
        let exporters = std::iter::once((toolwright::Profile::Mcp, mcp))
            .chain(exporters)
            .collect();
        ReportExports { exporters }
    }
}

impl toolwright_codegen::report::ExportSource for ReportExports<'_> {
    fn profiles(&self) -> Vec<String> {
        // By name, as the details list them.
        let mut names: Vec<String> = self
            .exporters
            .iter()
            .map(|(p, _)| p.as_str().to_owned())
            .collect();
        names.sort();
        names
    }

    fn exports(
        &self,
        tool: &str,
    ) -> std::collections::BTreeMap<String, Box<serde_json::value::RawValue>> {
        let mut out = std::collections::BTreeMap::new();
        for (profile, exporter) in &self.exporters {
            let Some(exported) = exporter.tool(tool) else {
                continue;
            };
            let warnings: Vec<&str> = exported
                .warnings
                .iter()
                .map(|w| w.message.as_str())
                .collect();
            let entry = serde_json::json!({
                "tool": exported.entry,
                "mapping": exported.mapping,
                "warnings": warnings,
            });
            if let Ok(text) = serde_json::value::to_raw_value(&entry) {
                out.insert(profile.as_str().to_owned(), text);
            }
        }
        out
    }
}
