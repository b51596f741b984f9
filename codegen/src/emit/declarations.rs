//! The `.d.ts` file [`Config::declarations`](crate::Config::declarations) asks for:
//! the generated catalog as TypeScript declarations, printed by the same
//! [`toolwright_query::declare`] the runtime prints them with, from the same texts
//! the static catalog holds, each argument naming its producers by the same rule
//! ([`toolwright_query::flows`]) from the same contracts — so the file equals
//! `Catalog::typescript()` of the generated catalog.

use std::collections::BTreeSet;

use toolwright_query::declare::{self, Definition, Function, Namespace};
use toolwright_query::flows::{self, LinkOf};

use crate::ir;

/// The declarations of every tool `apis` expose, sorted by name as the catalog is.
pub fn render(apis: &[ir::Api]) -> String {
    struct Texts {
        api: String,
        name: String,
        description: String,
        input: String,
        output: Option<String>,
    }
    let mut tools: Vec<Texts> = Vec::new();
    let mut definitions: Vec<Vec<(String, String, String)>> = Vec::new();
    // Each exposed tool's contract links, as the catalog embeds them (one graph per API).
    let mut links: Vec<(String, Vec<crate::contract::Link>)> = Vec::new();
    for api in apis {
        let contracts = crate::contract::build(
            std::slice::from_ref(api),
            &crate::contract::FieldRoles::default(),
        );
        for (plan, contract) in super::plans(api).into_iter().zip(contracts) {
            if !plan.exposed {
                continue;
            }
            links.push((plan.name.clone(), contract.contract.links));
            tools.push(Texts {
                api: plan.api,
                name: plan.name,
                description: plan.description,
                input: plan.input_schema.to_string(),
                output: plan.output_schema.map(|s| s.to_string()),
            });
        }
        definitions.push(super::definitions(api));
    }
    tools.sort_by(|a, b| a.name.cmp(&b.name));
    // In the catalog's order (by name), as the runtime reads them.
    links.sort_by(|a, b| a.0.cmp(&b.0));
    let exposed: BTreeSet<&str> = links.iter().map(|(name, _)| name.as_str()).collect();
    let incoming = flows::incoming(
        links.iter().flat_map(|(source, links)| {
            links.iter().map(move |link| LinkOf {
                source,
                name: &link.name,
                operation_id: &link.operation_id,
                parameters: &link.parameters,
                inferred: link.inferred,
                rank: link.rank,
            })
        }),
        |t| exposed.contains(t),
    );
    let functions: Vec<Function<'_>> = tools
        .iter()
        .map(|t| Function {
            api: &t.api,
            name: &t.name,
            description: &t.description,
            input: &t.input,
            output: t.output.as_deref(),
        })
        .collect();
    let borrowed: Vec<Vec<Definition<'_>>> = definitions
        .iter()
        .map(|ds| {
            ds.iter()
                .map(|(name, input, output)| Definition {
                    name,
                    input,
                    output,
                })
                .collect()
        })
        .collect();
    let namespaces: Vec<Namespace<'_>> = apis
        .iter()
        .zip(&borrowed)
        .map(|(api, definitions)| Namespace {
            name: &api.name,
            definitions,
        })
        .collect();
    let origins = |tool: &str, argument: &str| flows::origins(&incoming, tool, argument);
    declare::render_with_origins(&namespaces, &functions, usize::MAX, &origins)
}
