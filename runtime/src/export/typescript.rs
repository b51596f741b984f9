//! The catalog as TypeScript declarations ([`toolwright_query::declare`]): what a
//! model that writes a script against the API reads, one namespace per API, shared
//! types declared once. The same printer writes the `.d.ts` file a build generates.

use toolwright_query::declare::{self, Definition, Function, Namespace};

use crate::catalog::{Catalog, Tool};

impl Catalog {
    /// Every tool as TypeScript declarations.
    ///
    /// ```
    /// # let catalog = toolwright::Catalog::empty();
    /// let declarations = catalog.typescript();
    /// assert!(declarations.starts_with("// The API as TypeScript declarations"));
    /// ```
    pub fn typescript(&self) -> String {
        self.typescript_of(self.tools())
    }

    /// The declarations of `tools` only (a search result, say), with the shared types
    /// they reach; namespaces in the order of [`Catalog::apis`], tools in the order
    /// given.
    pub fn typescript_of<'t>(&self, tools: impl IntoIterator<Item = &'t Tool>) -> String {
        let tools: Vec<&Tool> = tools.into_iter().collect();
        let functions: Vec<Function<'_>> = tools
            .iter()
            .map(|t| Function {
                api: &t.operation.api,
                name: &t.name,
                description: &t.description,
                input: &t.input_schema,
                output: t.output_schema.as_deref(),
            })
            .collect();
        let definitions: Vec<Vec<Definition<'_>>> = self
            .apis()
            .iter()
            .map(|api| {
                api.definitions
                    .iter()
                    .map(|d| Definition {
                        name: &d.name,
                        input: &d.input,
                        output: &d.output,
                    })
                    .collect()
            })
            .collect();
        let mut namespaces: Vec<Namespace<'_>> = self
            .apis()
            .iter()
            .zip(&definitions)
            .map(|(api, definitions)| Namespace {
                name: &api.name,
                definitions,
            })
            .collect();
        // Tools of no described API (resources a service defines in code) still get
        // their namespace.
        for f in &functions {
            if !namespaces.iter().any(|n| n.name == f.api) {
                namespaces.push(Namespace {
                    name: f.api,
                    definitions: &[],
                });
            }
        }
        declare::render(&namespaces, &functions)
    }
}
