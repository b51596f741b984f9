//! The `.d.ts` file [`Config::declarations`](crate::Config::declarations) asks for:
//! the generated catalog as TypeScript declarations, printed by the same
//! [`toolwright_query::declare`] the runtime prints them with, from the same texts
//! the static catalog holds — so the file equals `Catalog::typescript()` of the
//! generated catalog.

use toolwright_query::declare::{self, Definition, Function, Namespace};

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
    for api in apis {
        for plan in super::plans(api).into_iter().filter(|p| p.exposed) {
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
    declare::render(&namespaces, &functions)
}
