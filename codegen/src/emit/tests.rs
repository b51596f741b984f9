//! The adapters' conformance cases as `#[test]` functions of the user's crate
//! (`Config::tests(true)`): `cargo test` runs each through
//! `toolwright::conformance::run_json` against the generated catalog, offline.

use crate::conformance::Suite;
use crate::ir;

use super::names;

/// The `#[cfg(test)]` module for the entry file (empty when there are no cases). A
/// case whose tool this build does not generate (left out by a selector) is emitted
/// ignored, with the reason, rather than dropped.
pub fn module(suites: &[Suite], apis: &[ir::Api]) -> String {
    let cases: Vec<_> = suites
        .iter()
        .flat_map(|s| s.cases.iter().map(move |c| (s, c)))
        .collect();
    if cases.is_empty() {
        return String::new();
    }
    let mut scope = names::Scope::default();
    let mut code = String::from(
        "\n/// The adapters' conformance tests (`*-adapter-tests.yaml`), run offline.\n\
         #[cfg(test)]\n\
         // The entry file is included before the user's own items.\n\
         #[allow(clippy::items_after_test_module)]\n\
         mod adapter_conformance {\n",
    );
    for (suite, case) in cases {
        let generated = apis.iter().any(|api| {
            api.name == suite.api && api.operations.iter().any(|op| op.name == case.tool)
        });
        let name = scope.claim(&names::snake(&format!("{}_{}", suite.api, case.name)));
        let json = serde_json::to_string(&case.json).unwrap_or_default();
        let ignore = if generated {
            String::new()
        } else {
            format!(
                "    #[ignore = {}]\n",
                names::lit(&format!("`{}` is not in this build's selection", case.tool))
            )
        };
        code.push_str(&format!(
            "    /// {}\n    #[test]\n{ignore}    fn {}() {{\n        \
             if let Err(failure) = ::toolwright::conformance::run_json(super::catalog(), {}) {{\n            \
             panic!(\"{{failure}}\");\n        }}\n    }}\n",
            case.at.replace(['\n', '\r'], " "),
            names::ident(&name),
            names::lit(&json),
        ));
    }
    code.push_str("}\n");
    code
}
