//! Hostile YAML is refused with a located finding, not parsed: an alias bomb and
//! 10,000-deep nesting (flow and block). Time and memory are measured by
//! `benches/yaml_limits.sh`, not here.

use std::path::PathBuf;

fn check(name: &str, yaml: &str) -> Vec<(&'static str, Option<(usize, usize)>)> {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("limits")
        .join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t-adapter.md");
    std::fs::write(&path, format!("---\n{yaml}---\n")).unwrap();
    let analysis = toolwright_codegen::analyze(&[path], false);
    analysis
        .diagnostics
        .iter()
        .map(|d| (d.code, d.line_col()))
        .collect()
}

pub fn alias_bomb() -> String {
    let mut s = String::from(
        "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
    );
    for (prev, cur) in ('a'..='h').zip('b'..='i') {
        let refs = vec![format!("*{prev}"); 9].join(",");
        s.push_str(&format!("{cur}: &{cur} [{refs}]\n"));
    }
    s
}

#[test]
fn alias_bomb_is_refused() {
    let found = check("bomb", &alias_bomb());
    assert_eq!(found, [("TW102", Some((6, 20)))]);
}

#[test]
fn ten_thousand_deep_flow_nesting_is_refused() {
    let yaml = format!("x: {}{}\n", "[".repeat(10_000), "]".repeat(10_000));
    let found = check("flow", &yaml);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].0, "TW102");
}

#[test]
fn ten_thousand_deep_block_nesting_is_refused() {
    let mut yaml = String::from("x:\n");
    for depth in 0..10_000 {
        yaml.push_str(&" ".repeat(depth * 2));
        yaml.push_str("-\n");
    }
    let found = check("block", &yaml);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "TW102");
}

#[test]
fn ten_thousand_deep_mapping_nesting_is_refused() {
    let yaml = format!("x: {}1{}\n", "{a: ".repeat(10_000), "}".repeat(10_000));
    let found = check("map", &yaml);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "TW102");
}
