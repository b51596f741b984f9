//! Compile-time behaviour of `#[derive(ToolSchema)]`: every supported shape compiles
//! (`ui/pass`), every misuse fails with a reviewed message on the user's tokens
//! (`ui/fail/*.stderr`, generated with this machine's rustc; `TRYBUILD=overwrite`
//! regenerates them).

use std::path::{Path, PathBuf};

/// trybuild compiles the cases as a crate of its own under
/// `<target>/tests/trybuild/toolwright`, which is the `CARGO_MANIFEST_DIR` the derive
/// sees. The cases bound to declared operations name `tests/adapters/...` and
/// `tests/openapi/...`; put those files where they are looked for, wherever the target
/// directory is.
fn place_bound_sources() {
    let target = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("target dir")
        .to_owned();
    let project = target.join("tests/trybuild/toolwright");
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace");
    for file in ["tests/adapters/notes-adapter.md", "tests/openapi/shop.yaml"] {
        let to = project.join(file);
        std::fs::create_dir_all(to.parent().expect("parent")).expect("create dir");
        std::fs::copy(workspace.join(file), &to).expect("copy a bound source");
    }
}

#[test]
fn ui() {
    place_bound_sources();
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/pass/*.rs");
    t.compile_fail("tests/ui/fail/*.rs");
}
