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

/// The largest related file read (4 MiB): a conformance tests file or an examples file
/// is held whole with its parsed tree, about 36 times its size (a 37 MB tests file
/// took 1.35 GB); one adapter's cases and examples fit far below it.
pub const MAX_RELATED: u64 = 4 << 20;

/// `path` read into a source file, or an I/O finding; a file over [`MAX_RELATED`] is
/// a finding at its start, not read.
pub fn read(
    path: &Path,
    diagnostics: &mut crate::diagnostics::Diagnostics,
) -> Option<std::sync::Arc<crate::diagnostics::SourceFile>> {
    read_within(path, MAX_RELATED, diagnostics)
}

fn read_within(
    path: &Path,
    limit: u64,
    diagnostics: &mut crate::diagnostics::Diagnostics,
) -> Option<std::sync::Arc<crate::diagnostics::SourceFile>> {
    use crate::diagnostics::{Diagnostic, Location, SourceFile, codes};
    if let Ok(meta) = std::fs::metadata(path)
        && meta.len() > limit
    {
        let mib = |bytes: u64| bytes as f64 / f64::from(1 << 20);
        diagnostics.push(
            Diagnostic::error(
                codes::INPUT_SIZE,
                format!(
                    "`{}` is {:.1} MiB, over the {} MiB a related file may take",
                    path.display(),
                    mib(meta.len()),
                    limit >> 20
                ),
            )
            .at(Location {
                file: SourceFile::new(path.display().to_string(), String::new()),
                span: 0..0,
            })
            .label("not read")
            .help(
                "keep a few cases or examples per tool: the file is read whole, with its \
                 parsed tree, at about 36 times its size",
            ),
        );
        return None;
    }
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

    /// F17 of issue #58: a related file over the limit is a finding at its start, not
    /// read (a 37 MB tests file took 1.35 GB).
    #[test]
    fn a_related_file_over_the_limit_is_a_located_finding() {
        let dir = std::env::temp_dir().join(format!("tw-related-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("big-adapter-tests.yaml");
        std::fs::write(&path, "cases: []\n".repeat(200_000)).unwrap();
        let mut diagnostics = crate::diagnostics::Diagnostics::default();
        assert!(read_within(&path, 1 << 20, &mut diagnostics).is_none());
        let found = diagnostics.sorted();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].code, "TW129");
        assert!(
            found[0].message.contains("is 1.9 MiB, over the 1 MiB"),
            "{}",
            found[0].message
        );
        let rendered = crate::diagnostics::render(&found[0]);
        assert!(
            rendered.contains("big-adapter-tests.yaml:1:1"),
            "{rendered}"
        );
        assert!(read_within(&path, 2 << 20, &mut Default::default()).is_some());
        std::fs::remove_dir_all(&dir).unwrap();
    }

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
