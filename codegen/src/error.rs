//! Why generation failed.

use std::fmt;
use std::path::PathBuf;

/// Why generation failed.
#[non_exhaustive]
pub enum Error {
    /// The inputs have errors; all findings, rendered.
    Diagnostics(String),
    /// `OUT_DIR` is not set and no output directory was configured.
    NoOutDir,
    /// `Config::include`/`exclude` selectors that do not parse, one message each.
    Selectors(Vec<String>),
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Diagnostics(rendered) => f.write_str(rendered),
            Error::NoOutDir => f.write_str(
                "OUT_DIR is not set: call generate() from build.rs, or set Config::out_dir",
            ),
            Error::Io { path, source } => write!(f, "cannot write `{}`: {source}", path.display()),
            Error::Selectors(errors) => f.write_str(&errors.join("\n")),
        }
    }
}

// `fn main() -> Result<(), Error>` prints the error with Debug; show the readable text.
impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\n{self}")
    }
}

impl std::error::Error for Error {}
