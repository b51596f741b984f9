//! `#[derive(ToolSchema)]`: doc comments become descriptions, fields become JSON Schema
//! properties (exactly as serde reads them), resource verbs become tools, and a type
//! bound to an adapter or OpenAPI operation is checked against it at compile time.
//!
//! The stages: `model` (serde's parse + our `#[tool]` attributes), `check` (rules
//! across attributes), `schema` (the schema body), `resource` (verb tools),
//! `binding` (compile-time checks against a declared operation), `lint` (missing
//! descriptions). Every error of a type is reported in one build, on the user's tokens.

mod attr;
mod binding;
mod check;
mod docs;
mod lint;
mod model;
mod resource;
mod schema;
mod types;

use proc_macro::TokenStream;
use proc_macro2::{Ident, Span};
use quote::quote;
use serde_derive_internals::{Ctxt, Derive, ast};
use syn::{DeriveInput, parse_macro_input};

use attr::Errors;
use model::Item;

/// Derives `toolwright::ToolSchema`; see the `toolwright` crate for the attributes.
#[proc_macro_derive(ToolSchema, attributes(tool))]
pub fn derive_tool_schema(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand(&input).into()
}

fn expand(input: &DeriveInput) -> proc_macro2::TokenStream {
    // serde's own reading of its attributes. When it finds errors, serde's derive (which
    // the type also has) reports them; we stay silent but keep the trait implemented so
    // that the rest of the crate does not cascade into "trait not implemented" errors.
    let cx = Ctxt::new();
    let container = ast::Container::from_ast(
        &cx,
        input,
        Derive::Deserialize,
        &Ident::new("__serde", Span::call_site()),
    );
    let serde_ok = cx.check().is_ok();
    let Some(container) = container.filter(|_| serde_ok) else {
        return fallback(input);
    };
    let mut errors = Errors::default();
    let item = Item::from_serde(&container, &mut errors);
    check::check(&item, &mut errors);
    let warnings = lint::missing_docs(&item, &mut errors);
    let resource = resource::expand(&item, &mut errors);
    let binding = binding::expand(&item, &mut errors);
    if !errors.is_empty() {
        let compile_errors = errors.into_compile_errors();
        let fallback = fallback(input);
        return quote!(#compile_errors #fallback);
    }
    let body = schema::body(&item);
    let ident = &item.ident;
    let (impl_generics, ty_generics, where_clause) = with_bounds(input);
    let name = &item.name;
    let schema_name = if item.transparent {
        quote!(::core::option::Option::None)
    } else {
        quote!(::core::option::Option::Some(::toolwright::__private::Cow::Borrowed(#name)))
    };
    quote! {
        #[automatically_derived]
        impl #impl_generics ::toolwright::ToolSchema for #ident #ty_generics #where_clause {
            fn schema_name() -> ::core::option::Option<::toolwright::__private::Cow<'static, str>> {
                #schema_name
            }

            fn schema(generator: &mut ::toolwright::SchemaGenerator) -> ::toolwright::__private::serde_json::Value {
                #body
            }
        }
        #resource
        #binding
        #warnings
    }
}

/// Every type parameter must have a schema itself.
fn with_bounds(
    input: &DeriveInput,
) -> (
    syn::ImplGenerics<'_>,
    syn::TypeGenerics<'_>,
    Option<syn::WhereClause>,
) {
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let mut where_clause = where_clause
        .cloned()
        .unwrap_or_else(|| syn::parse_quote!(where));
    for param in input.generics.type_params() {
        let ident = &param.ident;
        where_clause
            .predicates
            .push(syn::parse_quote!(#ident: ::toolwright::ToolSchema));
    }
    (impl_generics, ty_generics, Some(where_clause))
}

/// An implementation that compiles whatever the errors, to avoid cascades.
fn fallback(input: &DeriveInput) -> proc_macro2::TokenStream {
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    quote! {
        #[automatically_derived]
        impl #impl_generics ::toolwright::ToolSchema for #ident #ty_generics #where_clause {
            fn schema(_: &mut ::toolwright::SchemaGenerator) -> ::toolwright::__private::serde_json::Value {
                ::toolwright::__private::serde_json::Value::Bool(true)
            }
        }
    }
}
