//! The snapshots of `codegen/tests/golden.rs`, compiled.

include!("../expected/toolwright.rs");
