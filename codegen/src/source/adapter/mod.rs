//! Adapter files (`{name}-adapter.md`): Markdown with YAML front matter, the MCP-AQL
//! adapter format, read from the seed's prose. Reading goes file → front matter →
//! spanned YAML tree → IR, with every problem reported as a located finding.

mod fields;
mod frontmatter;
mod lower;
pub(crate) mod operations;
mod params;

use std::sync::Arc;

use crate::diagnostics::{Diagnostic, Diagnostics, Location, SourceFile, codes};
use crate::ir;
use crate::source::yaml;

/// The front matter as written, as JSON, for inspection (the report's fidelity
/// counts); `None` when it does not parse (reading it reported why).
pub fn front_matter(file: &Arc<SourceFile>) -> Option<serde_json::Value> {
    let parts = frontmatter::split(&file.text).ok()?;
    yaml::parse(
        file,
        parts.yaml,
        parts.yaml_first_line,
        yaml::Limits::FRONT_MATTER,
    )
    .ok()
    .map(|root| root.to_json())
}

/// Reads one adapter file. Returns `None` when it has errors that leave nothing usable;
/// findings go to `diagnostics` either way.
pub fn read(file: &Arc<SourceFile>, diagnostics: &mut Diagnostics) -> Option<ir::Api> {
    let parts = match frontmatter::split(&file.text) {
        Ok(parts) => parts,
        Err(error) => {
            let (message, span, help) = match error {
                frontmatter::FrontMatterError::Missing => (
                    "the file has no YAML front matter",
                    0..0,
                    "start the file with a `---` line, the adapter's YAML, then another `---` line",
                ),
                frontmatter::FrontMatterError::Unclosed(span) => (
                    "the front matter is never closed",
                    span,
                    "add a line `---` after the last line of the YAML front matter",
                ),
            };
            diagnostics.push(
                Diagnostic::error(codes::FRONT_MATTER, message)
                    .at(Location {
                        file: Arc::clone(file),
                        span,
                    })
                    .help(help),
            );
            return None;
        }
    };
    let root = match yaml::parse(
        file,
        parts.yaml.clone(),
        parts.yaml_first_line,
        yaml::Limits::FRONT_MATTER,
    ) {
        Ok(root) => root,
        Err(d) => {
            diagnostics.push(d);
            return None;
        }
    };
    let body = file.text[parts.body].trim().to_owned();
    let mut reader = fields::Reader { file, diagnostics };
    lower::api(&mut reader, &root, body, parts.yaml.start)
}
