//! Code blocks in any description of `inputs/` (every code block there is a
//! `compile_error!`) never become doctests in the crate that includes the generated
//! code, and raw HTML shows as text in the rendered docs. Runs cargo itself, on this
//! crate, exactly as a user's `cargo test` and `cargo doc` would.

use std::path::Path;
use std::process::Command;

fn cargo(args: &[&str]) -> String {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(cargo)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("RUSTDOCFLAGS")
        .output()
        .expect("cargo runs");
    let text = format!(
        "{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.status.success(), "cargo {args:?} failed:\n{text}");
    text
}

#[test]
fn generated_docs_hold_no_doctest() {
    let out = cargo(&["test", "--doc", "-p", "toolwright-hostile"]);
    assert!(out.contains("running 0 tests"), "{out}");
    assert!(!out.contains("doctest from"), "{out}");
}

#[test]
fn raw_html_is_text_in_the_rendered_docs() {
    let out = cargo(&[
        "doc",
        "--no-deps",
        "-p",
        "toolwright-hostile",
        "--message-format",
        "short",
    ]);
    let target = std::env::var("CARGO_TARGET_DIR").map_or_else(
        |_| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"),
        Into::into,
    );
    for (module, from) in [
        ("input_docs", "the API description"),
        ("input_docs_adapter", "the Markdown body"),
    ] {
        let page = target.join(format!("doc/toolwright_hostile/{module}/docs/index.html"));
        let html = std::fs::read_to_string(&page)
            .unwrap_or_else(|e| panic!("{}: {e}\n{out}", page.display()));
        assert!(
            !html.contains("<script>alert"),
            "raw script tag in {}",
            page.display()
        );
        // rustdoc renders the quotes typographically.
        let shown = format!("&lt;script&gt;alert(“raw HTML from {from}”)");
        assert!(
            html.contains(&shown),
            "{shown} is not shown in {}",
            page.display()
        );
        // The code blocks are still there, as text.
        assert!(html.contains(&format!("doctest from {from}")));
    }
}
