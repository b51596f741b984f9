//! `toolwright catalog`: the overview on a terminal, the catalog's JSON or an export
//! otherwise.

use std::io::IsTerminal;
use std::process::ExitCode;

use toolwright_cli::interpret;

use super::analyze;
use crate::args::{CatalogFormat, ExportArgs, ExportMode, Inputs};
use crate::output::print_all;
use crate::overview;

pub(crate) fn run(inputs: &Inputs, export: &ExportArgs, json: bool, styled: bool) -> ExitCode {
    let Some(analysis) = analyze(inputs, styled) else {
        return ExitCode::FAILURE;
    };
    // A person at a terminal asking for the catalog as it is gets the overview;
    // exports and anything read by a program get JSON.
    let overview = !json
        && export.format == CatalogFormat::Catalog
        && export.mode == ExportMode::Direct
        && std::io::stdout().is_terminal();
    match interpret::catalog(&analysis.apis) {
        Ok(c) if overview => print_all(&overview::render(c.tools())),
        Ok(c) if export.format == CatalogFormat::Typescript => {
            if export.mode != ExportMode::Direct {
                eprintln!(
                    "error: `--format typescript` declares the API's own tools; `--mode` \
                     applies to tool exports (leave it out)"
                );
                return ExitCode::FAILURE;
            }
            print_all(&c.typescript())
        }
        Ok(c) => {
            let meta = match export.mode {
                ExportMode::Direct => false,
                ExportMode::Meta | ExportMode::Groups => true,
                #[cfg(feature = "code")]
                ExportMode::Code => true,
                ExportMode::Auto => c.tools().len() > export.meta_above,
            };
            let c = match (meta, export.mode) {
                (true, ExportMode::Groups) => toolwright::catalog::meta::groups(&c),
                #[cfg(feature = "code")]
                (true, ExportMode::Code) => toolwright::code::tools(&c),
                (true, _) => toolwright::catalog::meta::tools(c.tools().len()),
                (false, _) => c,
            };
            let json = match export.options() {
                None => c.to_tools_list(),
                Some(options) => {
                    let export = c.export_with(&options);
                    for warning in export.warnings() {
                        eprintln!("warning: {warning}");
                    }
                    export.to_json()
                }
            };
            let mut text = serde_json::to_string_pretty(&json).unwrap_or_default();
            text.push('\n');
            print_all(&text)
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
