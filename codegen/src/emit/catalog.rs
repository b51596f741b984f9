//! The entry file `toolwright.rs`: one module per API, the API table, and the static
//! tool catalog sorted by name (binary search at run time, no hashing).

use proc_macro2::TokenStream;
use quote::quote;

use super::names;
use super::plan::ToolPlan;
use crate::ir;

/// One API's part of the entry file.
pub struct ApiEntry<'a> {
    pub api: &'a ir::Api,
    pub module: String,
    pub file_name: String,
    pub plans: Vec<ToolPlan>,
}

pub fn entry_file(entries: &[ApiEntry<'_>]) -> TokenStream {
    let modules = entries.iter().map(|e| {
        let module = names::ident(&e.module);
        let file = &e.file_name;
        let doc = names::doc(&module_doc(e.api));
        quote! {
            #doc
            #[allow(dead_code)]
            pub mod #module {
                include!(#file);
            }
        }
    });
    let apis: Vec<TokenStream> = entries.iter().map(|e| api(e.api)).collect();
    let api_count = proc_macro2::Literal::usize_unsuffixed(apis.len());

    let mut tools: Vec<(&ToolPlan, &ApiEntry<'_>, usize)> = entries
        .iter()
        .flat_map(|e| e.plans.iter().enumerate().map(move |(i, p)| (p, e, i)))
        .filter(|(p, _, _)| p.exposed)
        .collect();
    tools.sort_by(|a, b| a.0.name.cmp(&b.0.name));
    let tool_count = proc_macro2::Literal::usize_unsuffixed(tools.len());
    let tools = tools
        .into_iter()
        .map(|(plan, entry, index)| tool(plan, entry, index));

    quote! {
        #(#modules)*

        /// Every API of this catalog, with default base URLs and auth.
        #[allow(dead_code)]
        pub static APIS: [::toolwright::Api; #api_count] = [#(#apis),*];

        /// Every tool, sorted by name.
        #[allow(dead_code)]
        pub static TOOLS: [::toolwright::Tool; #tool_count] = [#(#tools),*];

        /// The generated tool catalog.
        #[allow(dead_code)]
        pub fn catalog() -> ::toolwright::Catalog {
            ::toolwright::Catalog::from_static(&TOOLS, &APIS)
        }
    }
}

/// Rustdoc for an API module: its description, then the adapter's Markdown body.
fn module_doc(api: &ir::Api) -> String {
    let mut doc = api.description.clone();
    if !api.docs.is_empty() {
        doc.push_str("\n\n");
        // Untagged code fences would become doctests in the user's crate.
        let mut in_fence = false;
        for line in api.docs.lines() {
            let trimmed = line.trim_start();
            if trimmed.starts_with("```") {
                if !in_fence && trimmed.trim() == "```" {
                    doc.push_str(&line.replacen("```", "```text", 1));
                } else {
                    doc.push_str(line);
                }
                in_fence = !in_fence;
            } else {
                doc.push_str(line);
            }
            doc.push('\n');
        }
    }
    doc.trim_end().to_owned()
}

fn cow(text: &str) -> TokenStream {
    quote!(::toolwright::__private::Cow::Borrowed(#text))
}

fn api(api: &ir::Api) -> TokenStream {
    let name = cow(&api.name);
    let base_url = cow(&api.base_url);
    let schemes = api.schemes.iter().map(|scheme| {
        let name = cow(&scheme.name);
        let kind = match &scheme.kind {
            ir::SchemeKind::Bearer { token_env } => {
                let env = cow(token_env);
                quote!(::toolwright::SchemeKind::Bearer { token_env: #env })
            }
            ir::SchemeKind::ApiKey { key_env, placement } => {
                let env = cow(key_env);
                let placement = match placement {
                    ir::KeyPlacement::Header(n) => {
                        let n = cow(n);
                        quote!(::toolwright::KeyPlacement::Header(#n))
                    }
                    ir::KeyPlacement::Query(n) => {
                        let n = cow(n);
                        quote!(::toolwright::KeyPlacement::Query(#n))
                    }
                    ir::KeyPlacement::Cookie(n) => {
                        let n = cow(n);
                        quote!(::toolwright::KeyPlacement::Cookie(#n))
                    }
                };
                quote!(::toolwright::SchemeKind::ApiKey { key_env: #env, placement: #placement })
            }
            ir::SchemeKind::Basic {
                username_env,
                password_env,
            } => {
                let (u, p) = (cow(username_env), cow(password_env));
                quote!(::toolwright::SchemeKind::Basic { username_env: #u, password_env: #p })
            }
        };
        quote!(::toolwright::SecurityScheme { name: #name, kind: #kind })
    });
    let definitions = super::definitions(api)
        .into_iter()
        .map(|(name, input, output)| {
            let (name, input, output) = (cow(&name), cow(&input), cow(&output));
            quote!(::toolwright::Definition { name: #name, input: #input, output: #output })
        });
    let meta = if api.meta.is_empty() {
        quote!(::std::option::Option::None)
    } else {
        let text = cow(&serde_json::to_string(&api.meta).unwrap_or_default());
        quote!(::std::option::Option::Some(#text))
    };
    quote! {
        ::toolwright::Api {
            name: #name,
            base_url: #base_url,
            schemes: ::toolwright::__private::Cow::Borrowed(&[#(#schemes),*]),
            definitions: ::toolwright::__private::Cow::Borrowed(&[#(#definitions),*]),
            meta: #meta,
        }
    }
}

fn tool(plan: &ToolPlan, entry: &ApiEntry<'_>, index: usize) -> TokenStream {
    let module = names::ident(&entry.module);
    let input = names::ident(&format!("{}Input", names::pascal(&plan.name)));
    let name = cow(&plan.name);
    let title = cow(&plan.title);
    let description = cow(&plan.description);
    let input_schema = cow(&plan.input_schema.to_string());
    let output_schema = match &plan.output_schema {
        Some(s) => {
            let s = cow(&s.to_string());
            quote!(::std::option::Option::Some(#s))
        }
        None => quote!(::std::option::Option::None),
    };
    let meta = cow(&plan.meta.to_string());
    let a = plan.annotations;
    let (read_only, destructive, idempotent, open_world) =
        (a.read_only, a.destructive, a.idempotent, a.open_world);
    quote! {
        ::toolwright::Tool {
            name: #name,
            title: #title,
            description: #description,
            input_schema: #input_schema,
            output_schema: #output_schema,
            annotations: ::toolwright::Annotations {
                read_only: #read_only,
                destructive: #destructive,
                idempotent: #idempotent,
                open_world: #open_world,
            },
            meta: ::std::option::Option::Some(#meta),
            operation: ::toolwright::__private::Cow::Borrowed(&#module::OPERATIONS[#index]),
            validate: ::std::option::Option::Some(::toolwright::validate::typed::<#module::#input>),
        }
    }
}
