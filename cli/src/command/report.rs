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
    let Some(analysis) = analyze(inputs, styled) else {
        return ExitCode::FAILURE;
    };
    let options = toolwright_codegen::report::Options {
        title,
        ..Default::default()
    };
    // Everything but the exports first: what that is made from is dropped before the
    // exports' catalog is built (on Graph beta the two together were the peak).
    let prepared =
        toolwright_codegen::report::prepare(&analysis.apis, &analysis.diagnostics, &options);
    // The page needs nothing more of what was read. The findings and the inputs go
    // now; the APIs go to the exports' catalog, which drops each operation once its
    // tool is made (Graph beta's API as read is the biggest thing alive), without
    // their source text (47 MB for Graph beta), which nothing needs any more.
    let toolwright_codegen::Analysis {
        inputs,
        apis,
        suites,
        diagnostics,
    } = analysis;
    drop((inputs, suites, diagnostics));
    memory::give_back_freed();
    let catalog = if with_exports {
        let mut apis = apis;
        apis.iter_mut()
            .for_each(toolwright_codegen::ir::Api::forget_source);
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
