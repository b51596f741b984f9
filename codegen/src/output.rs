//! Writing generated files (only when the content changed, so cargo does not rebuild
//! the user's crate for nothing), and [`Generated`], what a run wrote.

use std::path::{Path, PathBuf};

use crate::Error;
use crate::emit::Files;

/// Writes `files` into `dir`; returns the names that were (re)written.
pub fn write_all(dir: &Path, files: &Files) -> Result<Vec<String>, Error> {
    std::fs::create_dir_all(dir).map_err(|source| Error::Io {
        path: dir.to_owned(),
        source,
    })?;
    let mut written = Vec::new();
    for (name, content) in files {
        let path = dir.join(name);
        if std::fs::read(&path).is_ok_and(|old| old == *content) {
            continue;
        }
        std::fs::write(&path, content).map_err(|source| Error::Io {
            path: path.clone(),
            source,
        })?;
        written.push(name.clone());
    }
    Ok(written)
}

/// What [`Config::generate`](crate::Config::generate) produced.
#[derive(Debug, Clone)]
pub struct Generated {
    pub out_dir: PathBuf,
    /// Every generated file name.
    pub files: Vec<String>,
    /// The files whose content changed and were rewritten.
    pub written: Vec<String>,
    /// Rendered warnings (empty when none).
    pub warnings: String,
    /// Errors reported through `cargo::error` inside a build script (cargo fails the
    /// build after the script; nothing was generated). Outside a build script errors
    /// are returned as [`Error::Diagnostics`] instead.
    pub errors: usize,
}
