//! What a build script tells cargo: the files to watch, every finding as a
//! `cargo::warning`/`cargo::error` line, and where the inspection report is.

use std::path::{Path, PathBuf};

use crate::Analysis;
use crate::diagnostics::{self, Severity};

/// Whether this process is a build script (cargo sets both variables for one).
pub(crate) fn in_build_script() -> bool {
    std::env::var_os("CARGO_MANIFEST_DIR").is_some() && std::env::var_os("OUT_DIR").is_some()
}

/// `rerun-if-changed` for every file and directory the run read (each once: an input
/// file is also a found file), then each finding, line by line, at its level.
pub(crate) fn announce<'a>(analysis: &'a Analysis, inputs: impl Iterator<Item = &'a PathBuf>) {
    let mut seen = std::collections::BTreeSet::new();
    for path in analysis
        .inputs
        .files
        .iter()
        .chain(&analysis.inputs.dirs)
        .chain(analysis.inputs.companions.iter().map(|(_, c)| c))
        .chain(analysis.suites.iter().map(|s| &s.file))
        .chain(inputs)
    {
        if seen.insert(path) {
            println!("cargo::rerun-if-changed={}", path.display());
        }
    }
    for d in &analysis.diagnostics {
        let level = if d.severity == Severity::Error {
            "error"
        } else {
            "warning"
        };
        for line in diagnostics::render(d).lines() {
            println!("cargo::{level}={line}");
        }
    }
}

/// The report's path, for the crate (`env!("TOOLWRIGHT_REPORT")`) and the person
/// building it.
pub(crate) fn report_written(path: &Path) {
    println!("cargo::rustc-env=TOOLWRIGHT_REPORT={}", path.display());
    println!("toolwright: inspection report at {}", path.display());
}
