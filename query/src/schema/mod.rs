//! The argument check of a tool's input JSON Schema ([`SchemaCheck`]), shared so that
//! the runtime (every call) and the generator (an adapter's usage examples, checked at
//! build time) accept and refuse the same arguments with the same text.

mod check;
mod format;

use std::fmt;

pub use check::SchemaCheck;

/// Why a tool's arguments were rejected, with the path of the offending field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArgumentError {
    /// Dotted path to the field (`labels[0]`), empty for the whole object.
    pub path: String,
    pub message: String,
}

impl fmt::Display for ArgumentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() || self.path == "." {
            f.write_str(&self.message)
        } else {
            write!(f, "field `{}`: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for ArgumentError {}
