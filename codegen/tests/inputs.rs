//! Directory inputs: each real path is read once, whatever links point into it.

#[cfg(unix)]
#[test]
fn symlink_loops_are_walked_once() {
    use std::os::unix::fs::symlink;
    let root = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("symlink-loops");
    let _ = std::fs::remove_dir_all(&root);
    let deep = root.join("a/b");
    std::fs::create_dir_all(&deep).unwrap();
    std::fs::copy(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/adapters/notes-adapter.md"
        ),
        deep.join("notes-adapter.md"),
    )
    .unwrap();
    // Two loops back to the top and a second way into `a`: 2^n paths if followed.
    symlink("../..", deep.join("up")).unwrap();
    symlink("../../a", deep.join("again")).unwrap();
    symlink("a", root.join("also-a")).unwrap();
    let analysis = toolwright_codegen::analyze(&[root.clone(), root.join("also-a")], false);
    assert!(!analysis.has_errors(), "{}", analysis.render());
    assert_eq!(
        analysis.inputs.files.len(),
        1,
        "{:?}",
        analysis.inputs.files
    );
    assert_eq!(analysis.apis.len(), 1);
}
