//! A conformance tests file (`-adapter-tests.yaml`) that asks for what the responder
//! cannot give is refused by `check` with a located error, not run as something else
//! (issue #58, F18).

use std::path::Path;
use std::process::Command;

#[test]
fn a_canned_status_outside_100_to_599_is_a_located_error() {
    let dir = std::env::temp_dir().join(format!("tw-status-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let adapters = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/issue-tracker/adapters");
    std::fs::copy(
        adapters.join("tracker-adapter.md"),
        dir.join("tracker-adapter.md"),
    )
    .unwrap();
    for status in ["0", "99", "600", "\"two hundred\""] {
        std::fs::write(
            dir.join("tracker-adapter-tests.yaml"),
            format!(
                "tests:\n  - name: odd status\n    tool: get_issue\n    arguments: {{project: web, number: 1}}\n    response:\n      status: {status}\n      body: {{number: 1, title: t, state: open}}\n"
            ),
        )
        .unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_toolwright"))
            .arg("check")
            .arg(&dir)
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stderr).to_string()
            + &String::from_utf8_lossy(&out.stdout);
        assert!(!out.status.success(), "{status}: {text}");
        assert!(
            text.contains("an HTTP status code from 100 to 599")
                && text.contains("tracker-adapter-tests.yaml:6:"),
            "{status}: {text}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
