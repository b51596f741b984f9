//! Clients and catalogs for the 40 real APIs of the dev corpus, compiled (and linted)
//! as a user's crate would compile them.

include!(concat!(env!("OUT_DIR"), "/corpus.rs"));
