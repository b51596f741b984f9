//! # toolwright-codegen
//!
//! Build-time generator: adapter files (`*-adapter.md`) and OpenAPI 3.0/3.1 documents
//! become a typed Rust client per API and one static tool catalog, written to `OUT_DIR`.
//!
//! ```no_run
//! // build.rs
//! fn main() -> Result<(), toolwright_codegen::Error> {
//!     toolwright_codegen::Config::new().adapters("adapters").generate()?;
//!     Ok(())
//! }
//! ```
//!
//! ```ignore
//! // src/lib.rs or src/main.rs
//! include!(concat!(env!("OUT_DIR"), "/toolwright.rs"));
//! ```
//!
//! The pipeline, one folder per stage: [`source`] (find and parse inputs, lower them to
//! the [`ir`]), [`check`] (cross-input rules), [`emit`] (IR → files), with
//! [`diagnostics`] collecting every finding of a run.

mod analysis;
mod cargo;
pub mod check;
mod config;
pub mod conformance;
pub mod contract;
pub mod diagnostics;
pub mod emit;
mod error;
pub mod examples;
mod halves;
pub mod ir;
mod memory;
mod output;
mod prose;
pub mod related;
pub mod report;
mod scrub;
pub mod select;
mod shapes;
pub mod source;

pub use analysis::{Analysis, analyze, analyze_text, analyze_with};
pub use config::Config;
pub use emit::ENTRY_FILE;
pub use error::Error;
pub use output::Generated;
