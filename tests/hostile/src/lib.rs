//! Clients generated from the hostile and unusual inputs in `inputs/`, one module each,
//! compiled (and linted with `-D warnings` in CI) as a user's crate would compile them.

include!(concat!(env!("OUT_DIR"), "/inputs.rs"));
