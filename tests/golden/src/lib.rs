//! The snapshots of `codegen/tests/golden.rs`, compiled (and linted) as a user's crate.

pub mod adapters {
    include!("../expected/toolwright.rs");
}

pub mod openapi {
    include!("../expected-openapi/toolwright.rs");
}
