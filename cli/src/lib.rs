//! The `toolwright` command's library part: running API descriptions without
//! compiling them ([`interpret`]), shared by the binary and by tests that compare the
//! interpreted catalog with the generated one.

pub mod interpret;
pub mod terminal;
