//! # toolwright-query
//!
//! The two ways to pick tools out of a catalog, shared by `toolwright-codegen` (what is
//! generated, and the index it emits) and the `toolwright` runtime (what is served, and
//! queries against that index) so that both sides agree byte for byte:
//!
//! - [`select`]: the selector syntax (`tag:issues`, `method:GET`, `read-only`, ...);
//! - [`search`]: text analysis, the build-time index and its query-time scoring.
//!
//! And one rule both sides apply to what leaves the process: [`redact`], the
//! credential scrubber of the report, the artifact, exports and MCP `tools/list`; and
//! one check both apply to arguments: [`schema`], a tool's input JSON Schema compiled
//! once (every call at run time, adapters' usage examples at build time); and which
//! answers are JSON lines ([`media`]); HTTP method names beyond the usual seven
//! ([`method`]); and the catalog as TypeScript declarations
//! ([`declare`]), which a build writes and a server hands to a model that writes code,
//! each argument naming the tools that hand it out ([`flows`]); and where text is cut
//! for a reader ([`cut`]).
//!
//! Nothing but serde_json, regex-lite and base64 (already in both trees): it is compiled into
//! every build script and every service.

pub mod arazzo;
pub mod base64;
pub mod cut;
pub mod declare;
pub mod flows;
pub mod media;
pub mod method;
pub mod prose;
pub mod redact;
pub mod schema;
pub mod search;
pub mod select;

pub use search::{
    Analyser, Document, Hit, Index, IndexBuilder, Leftovers, Techniques, ToolTexts, Weighed,
    contract_links,
};
pub use select::{Facts, Selection, Selector};
