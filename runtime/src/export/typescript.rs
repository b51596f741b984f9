//! The catalog as TypeScript declarations ([`toolwright_query::declare`]): what a
//! model that writes a script against the API reads, one namespace per API, shared
//! types declared once. The same printer writes the `.d.ts` file a build generates.

use toolwright_query::declare::{self, Definition, Function, Namespace};
use toolwright_query::flows;

use crate::catalog::{Catalog, Tool};

/// Bytes of shared type declarations in [`Catalog::typescript_brief`] (about 4k
/// tokens): enough for the types a script reads from, not the whole object graph a
/// result type reaches.
const BRIEF_TYPE_BYTES: usize = 16 << 10;

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
        self.declarations(tools, usize::MAX)
    }

    /// The declarations of a search result, for a model's context: `tools` in full,
    /// the shared types they reach up to about 16 KiB (4k tokens), nearest first
    /// (the rest declared `Record<string, unknown>`). What code mode's `search` and
    /// `toolwright search --typescript` answer.
    pub fn typescript_brief<'t>(&self, tools: impl IntoIterator<Item = &'t Tool>) -> String {
        self.declarations(tools, BRIEF_TYPE_BYTES)
    }

    fn declarations<'t>(
        &self,
        tools: impl IntoIterator<Item = &'t Tool>,
        type_bytes: usize,
    ) -> String {
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
        // Each argument another tool hands out names its producers (the graph's
        // likeliest, as `describe_tool` does).
        let incoming = self.producers();
        let origins = |tool: &str, argument: &str| flows::origins(&incoming, tool, argument);
        declare::render_with_origins(&namespaces, &functions, type_bytes, &origins)
    }
}
