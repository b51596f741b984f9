//! Reading, lowering and checking the inputs of one run (the first half of
//! [`Config::generate`](crate::Config::generate), which the CLI's `check` runs alone).

use std::path::PathBuf;

use crate::diagnostics::{self, Diagnostic, Diagnostics, Severity};
use crate::{check, conformance, examples, ir, source};

/// Everything a run learned: the inputs, the lowered APIs and the findings.
#[derive(Debug)]
pub struct Analysis {
    pub inputs: source::Inputs,
    pub apis: Vec<ir::Api>,
    /// The adapters' conformance tests (`{name}-adapter-tests.yaml`).
    pub suites: Vec<conformance::Suite>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Analysis {
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }

    /// All findings rendered, separated by blank lines, plus a summary line.
    pub fn render(&self) -> String {
        self.render_styled(false)
    }

    /// [`Analysis::render`], coloured (ANSI) when `styled` (for terminals).
    pub fn render_styled(&self, styled: bool) -> String {
        let mut out: Vec<String> = self
            .diagnostics
            .iter()
            .map(|d| diagnostics::render_with(d, styled))
            .collect();
        let errors = self
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count();
        let warnings = self.diagnostics.len() - errors;
        if errors + warnings > 0 {
            out.push(format!("{errors} error(s), {warnings} warning(s)"));
        }
        out.join("\n\n")
    }

    /// The findings as JSON, for editors and CI (`toolwright check --format json`):
    /// `{"diagnostics": [{code, severity, file, line, column, end_line, end_column,
    /// message, label, help}], "errors": N, "warnings": N}`. Its JSON Schema ships as
    /// `cli/diagnostics.schema.json`.
    pub fn to_json(&self) -> serde_json::Value {
        let errors = self
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count();
        serde_json::json!({
            "diagnostics": self.diagnostics.iter().map(Diagnostic::to_json).collect::<Vec<_>>(),
            "errors": errors,
            "warnings": self.diagnostics.len() - errors,
        })
    }
}

/// Reads, lowers and checks `inputs` (files, or directories searched for
/// `*-adapter.md`). In strict mode warnings count as errors.
pub fn analyze(inputs: &[PathBuf], strict: bool) -> Analysis {
    analyze_with(inputs, &source::Options::default(), strict)
}

/// [`analyze`] with what a build says beyond the files: API names, GraphQL
/// endpoints and custom scalar schemas.
pub fn analyze_with(inputs: &[PathBuf], options: &source::Options, strict: bool) -> Analysis {
    let described: Vec<(PathBuf, &str)> = inputs.iter().map(|p| (p.clone(), "input")).collect();
    analyze_described(&described, &[], options, strict)
}

/// [`analyze`] on one document held in memory: an adapter when `name` ends in
/// `.md`, else an OpenAPI or Google Discovery document (JSON or YAML). `name` is what diagnostics show
/// as the file. For tools that already hold the text, and for fuzzing.
pub fn analyze_text(name: &str, text: &str, strict: bool) -> Analysis {
    let mut diags = Diagnostics::default();
    let file = diagnostics::SourceFile::new(name, text);
    let api = source::read(&file, &mut diags);
    let apis: Vec<ir::Api> = api.into_iter().collect();
    check::check(&apis, &mut diags);
    if strict {
        diags.promote_warnings();
    }
    Analysis {
        inputs: source::Inputs {
            files: vec![PathBuf::from(name)],
            ..source::Inputs::default()
        },
        apis,
        suites: Vec::new(),
        diagnostics: diags.sorted(),
    }
}

/// [`analyze`], each input with the noun a finding about it uses (`adapter`,
/// `OpenAPI document`): a missing `.openapi(path)` says so.
pub(crate) fn analyze_described(
    inputs: &[(PathBuf, &str)],
    pairs: &[(PathBuf, PathBuf)],
    options: &source::Options,
    strict: bool,
) -> Analysis {
    let mut diags = Diagnostics::default();
    let mut found = source::discover(inputs, &mut diags);
    found.companions.extend(pairs.iter().cloned());
    found.options = options.clone();
    let mut apis = source::load(&found, &mut diags);
    // Each adapter that has an OpenAPI twin is compared with it.
    for (index, twin) in source::twins(&found, &apis, &mut diags) {
        check::drift::compare(&apis[index], &twin, &mut diags);
    }
    check::check(&apis, &mut diags);
    examples::attach(&found.files, &mut apis, &mut diags);
    let suites = conformance::load(&found.files, &apis, &mut diags);
    if strict {
        diags.promote_warnings();
    }
    Analysis {
        inputs: found,
        apis,
        suites,
        diagnostics: diags.sorted(),
    }
}
