//! The code toolwright generates for `tests/adapters`, compiled as a user's crate would.

include!(concat!(env!("OUT_DIR"), "/toolwright.rs"));
