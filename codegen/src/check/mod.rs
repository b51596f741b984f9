//! Checks across APIs, after every source is lowered: names that must be unique in one
//! catalog (tool names, API names, generated module names).

pub mod drift;

use std::collections::BTreeMap;

use crate::diagnostics::{Diagnostic, Diagnostics, codes};
use crate::emit;
use crate::ir;

pub fn check(apis: &[ir::Api], diagnostics: &mut Diagnostics) {
    let mut modules: BTreeMap<String, &ir::Api> = BTreeMap::new();
    for api in apis {
        if let Some(first) = modules.insert(emit::module_name(api), api) {
            let mut d = Diagnostic::error(
                codes::NAME,
                format!(
                    "adapters `{}` and `{}` map to the same module name",
                    first.name, api.name
                ),
            )
            .help("adapter names must stay distinct after `-` becomes `_`; rename one");
            if let Some(loc) = &api.source {
                d = d.at(loc.clone());
            }
            diagnostics.push(d);
        }
    }
    let mut tools: BTreeMap<&str, (&ir::Api, &ir::Operation)> = BTreeMap::new();
    for api in apis {
        for op in &api.operations {
            match tools.get(op.name.as_str()) {
                Some((first_api, first_op)) if first_api.name != api.name => {
                    let first_at = first_op
                        .source
                        .as_ref()
                        .map(|l| l.display())
                        .unwrap_or_default();
                    let mut d = Diagnostic::error(
                        codes::DUPLICATE_OPERATION,
                        format!(
                            "operation `{}` is also defined by adapter `{}`",
                            op.name, first_api.name
                        ),
                    )
                    .label(format!("first defined at {first_at}"))
                    .help("tool names must be unique across all adapters of a catalog; rename one");
                    if let Some(loc) = &op.source {
                        d = d.at(loc.clone());
                    }
                    diagnostics.push(d);
                }
                Some(_) => {} // duplicates within one adapter are reported by its reader
                None => {
                    tools.insert(&op.name, (api, op));
                }
            }
        }
    }
}
