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
