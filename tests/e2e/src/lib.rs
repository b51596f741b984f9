//! The code toolwright generates for `tests/adapters` and `tests/openapi`, compiled as a
//! user's crate would.

pub mod adapters {
    include!(concat!(env!("OUT_DIR"), "/adapters/toolwright.rs"));
}

pub mod openapi {
    include!(concat!(env!("OUT_DIR"), "/openapi/toolwright.rs"));
}
