//! An adapter's related files, named as the adapter format says (`{name}-adapter.md`
//! plus a suffix): the OpenAPI document it is compared with, its conformance tests and
//! its usage examples. Leaf module: discovery skips them as inputs, and the stages that
//! read them find them here.

use std::path::{Path, PathBuf};

/// What a related file is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `{name}-adapter-openapi.{yaml,yml,json}`: the drift check's twin.
    Openapi,
    /// `{name}-adapter-tests.{yaml,yml}`: conformance tests.
    Tests,
    /// `{name}-adapter-examples.md`: usage examples.
    Examples,
}

impl Kind {
    fn suffix(self) -> &'static str {
        match self {
            Kind::Openapi => "-openapi",
            Kind::Tests => "-tests",
            Kind::Examples => "-examples",
        }
    }

    fn extensions(self) -> &'static [&'static str] {
        match self {
            Kind::Openapi => &["yaml", "yml", "json"],
            Kind::Tests => &["yaml", "yml"],
            Kind::Examples => &["md"],
        }
    }
}

/// The related file of `kind` next to `adapter`, if there is one:
/// `tracker-adapter.md` → `tracker-adapter-tests.yaml`.
pub fn find(adapter: &Path, kind: Kind) -> Option<PathBuf> {
    let stem = adapter.file_name()?.to_str()?.strip_suffix(".md")?;
    kind.extensions()
        .iter()
        .map(|ext| adapter.with_file_name(format!("{stem}{}.{ext}", kind.suffix())))
        .find(|p| p.is_file())
}

/// Each adapter among `files` that has a related file of `kind`, as (that file, the
/// position in `apis` of the API the adapter was read into). Adapters that did not
/// load are left out: their own findings say why.
pub fn with_apis(files: &[PathBuf], apis: &[crate::ir::Api], kind: Kind) -> Vec<(PathBuf, usize)> {
    files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "md"))
        .filter_map(|adapter| {
            let related = find(adapter, kind)?;
            let name = adapter.display().to_string();
            let api = apis
                .iter()
                .position(|a| a.source.as_ref().is_some_and(|l| l.file.path == name))?;
            Some((related, api))
        })
        .collect()
}

/// `path` read into a source file, or an I/O finding.
pub fn read(
    path: &Path,
    diagnostics: &mut crate::diagnostics::Diagnostics,
) -> Option<std::sync::Arc<crate::diagnostics::SourceFile>> {
    match std::fs::read_to_string(path) {
        Ok(text) => Some(crate::diagnostics::SourceFile::new(
            path.display().to_string(),
            text,
        )),
        Err(e) => {
            diagnostics.push(crate::diagnostics::Diagnostic::error(
                crate::diagnostics::codes::IO,
                format!("cannot read `{}`: {e}", path.display()),
            ));
            None
        }
    }
}

/// What related file `path` is, by its name (`None`: not one).
pub fn kind_of(path: &Path) -> Option<Kind> {
    let name = path.file_name()?.to_str()?;
    [Kind::Openapi, Kind::Tests, Kind::Examples]
        .into_iter()
        .find(|kind| {
            kind.extensions()
                .iter()
                .any(|ext| name.ends_with(&format!("-adapter{}.{ext}", kind.suffix())))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn related_files_are_named_after_their_adapter() {
        let kind = |p: &str| kind_of(Path::new(p));
        assert_eq!(kind("a/tracker-adapter-openapi.yaml"), Some(Kind::Openapi));
        assert_eq!(kind("a/tracker-adapter-tests.yml"), Some(Kind::Tests));
        assert_eq!(kind("a/tracker-adapter-examples.md"), Some(Kind::Examples));
        assert_eq!(kind("a/tracker-adapter.md"), None);
        assert_eq!(kind("a/tracker.yaml"), None);
        assert_eq!(kind("a/tracker-adapter-tests.json"), None);
    }
}
