//! Clients and catalogs for the 40 real APIs of the dev corpus and 27 Google Discovery
//! documents, compiled (and linted) as a user's crate would compile them.

include!(concat!(env!("OUT_DIR"), "/corpus.rs"));
