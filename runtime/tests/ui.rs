//! Compile-time behaviour of `#[derive(ToolSchema)]`: every supported shape compiles
//! (`ui/pass`), every misuse fails with a reviewed message on the user's tokens
//! (`ui/fail/*.stderr`, generated with this machine's rustc; `TRYBUILD=overwrite`
//! regenerates them).

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/pass/*.rs");
    t.compile_fail("tests/ui/fail/*.rs");
}
