//! `#[tool(resource(...))]`: the `Record` implementation (key, server-assigned fields,
//! verbs) and two companion types the verbs take: `<Type>Draft` (what a client sends
//! to create or replace a record: every field but the server-assigned ones) and
//! `<Type>Patch` (the draft's fields, each optional, minus the key). Both derive
//! `Deserialize` and `ToolSchema`, so a verb's input schema and its validation are one.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{Attribute, Meta};

use crate::attr::{Errors, VERBS};
use crate::model::{Field, Item, Shape};
use crate::types;

pub fn expand(item: &Item, errors: &mut Errors) -> TokenStream {
    let Some(verbs) = item.attrs.resource.get() else {
        return TokenStream::new();
    };
    let span = item
        .attrs
        .resource
        .span
        .unwrap_or_else(|| item.ident.span());
    let fields = match &item.shape {
        Shape::Struct(serde_derive_internals::ast::Style::Struct, fields) => fields,
        _ => {
            errors.at(span, "a resource must be a struct with named fields: its fields are the record's properties");
            return TokenStream::new();
        }
    };
    if !item.input.generics.params.is_empty() {
        errors.spanned(
            &item.input.generics,
            "a resource cannot be generic: its tools are named after one concrete type",
        );
        return TokenStream::new();
    }
    if !item
        .name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_')
    {
        errors.at(span, format!("the resource name `{}` must be letters, digits and `_` to make valid tool names; rename the type", item.name));
    }
    let keys: Vec<&Field> = fields
        .iter()
        .filter(|f| f.attrs.primary_key.get().is_some())
        .collect();
    for extra in keys.iter().skip(1) {
        errors.at(
            extra.attrs.primary_key.span.unwrap_or(span),
            format!(
                "two primary keys: `{}` and `{}`; a resource has one `#[tool(primary_key)]` field",
                keys[0].display_name(),
                extra.display_name()
            ),
        );
    }
    let key = keys.first().copied();
    if key.is_none() {
        for verb in verbs
            .iter()
            .filter(|v| ["get", "update", "patch", "delete"].contains(&v.verb.to_string().as_str()))
        {
            errors.spanned(&verb.verb, format!("the verb `{}` addresses one record by its key, but `{}` has no `#[tool(primary_key)]` field", verb.verb, item.ident));
        }
    }
    let server_assigned = |f: &Field| {
        let a = &f.attrs;
        a.created_time.get().is_some()
            || a.updated_time.get().is_some()
            || a.read_only.get().is_some()
    };
    let key_in_draft = key.is_some_and(|k| !server_assigned(k));
    let draft_fields: Vec<&Field> = fields
        .iter()
        .filter(|f| f.in_input && !server_assigned(f))
        .collect();
    let draft_ident = format_ident!("{}Draft", item.ident);
    let patch_ident = format_ident!("{}Patch", item.ident);
    let vis = &item.input.vis;
    let record = &item.ident;
    let flatten = fields.iter().any(|f| f.flatten);
    // Both companions read the record's names the same way.
    let companion_serde = container_serde(&item.input.attrs, !item.deny_unknown_fields && !flatten);

    let draft_body = draft_fields.iter().map(|f| {
        let attrs = f.original.attrs.iter().filter(|a| keep_for_draft(a));
        let ident = &f.ident;
        let ty = f.ty;
        quote!(#(#attrs)* pub #ident: #ty,)
    });
    let patch_body = draft_fields
        .iter()
        .filter(|f| !key.is_some_and(|k| std::ptr::eq(**f, k)))
        .map(|f| {
            let docs = f
                .original
                .attrs
                .iter()
                .filter(|a| a.path().is_ident("doc") || a.path().is_ident("tool"));
            let renames = patch_serde(&f.original.attrs);
            let ident = &f.ident;
            let ty = f.ty;
            let ty = if types::option_inner(ty).is_some() {
                quote!(#ty)
            } else {
                quote!(::core::option::Option<#ty>)
            };
            quote!(#(#docs)* #renames pub #ident: #ty,)
        });

    let name = &item.name;
    let description = item
        .attrs
        .common
        .description
        .get()
        .map(syn::LitStr::value)
        .or_else(|| item.description.clone());
    let description = match description {
        Some(d) => quote!(::core::option::Option::Some(#d)),
        None => quote!(::core::option::Option::None),
    };
    let (key_ty, key_name) = match key {
        Some(k) => {
            let ty = k.ty;
            let n = &k.ser_name;
            (quote!(#ty), quote!(::core::option::Option::Some(#n)))
        }
        None => (quote!(()), quote!(::core::option::Option::None)),
    };
    let assigned: Vec<&String> = fields
        .iter()
        .filter(|f| server_assigned(f))
        .map(|f| &f.ser_name)
        .collect();
    let write_only: Vec<&String> = fields
        .iter()
        .filter(|f| f.attrs.write_only.get().is_some())
        .map(|f| &f.ser_name)
        .collect();
    let verb_specs = verbs.iter().filter(|v| VERBS.contains(&v.verb.to_string().as_str())).map(|v| {
        let variant = format_ident!("{}", capitalized(&v.verb.to_string()));
        let idempotent = v.idempotent;
        quote!(::toolwright::resource::VerbSpec { verb: ::toolwright::resource::Verb::#variant, idempotent: #idempotent })
    });
    let draft_doc = format!(
        "The fields a client sends to create or replace a [`{record}`] (server-assigned fields left out)."
    );
    let patch_doc =
        format!("The fields of a [`{record}`] a patch may change; absent ones stay as they are.");
    quote! {
        #[doc = #draft_doc]
        #[derive(::toolwright::__private::serde::Deserialize, ::toolwright::ToolSchema)]
        #[serde(crate = "::toolwright::__private::serde")]
        #companion_serde
        #[tool(__companion)]
        #[allow(dead_code)]
        #vis struct #draft_ident {
            #(#draft_body)*
        }

        #[doc = #patch_doc]
        #[derive(::toolwright::__private::serde::Deserialize, ::toolwright::ToolSchema)]
        #[serde(crate = "::toolwright::__private::serde")]
        #companion_serde
        #[tool(__companion)]
        #[allow(dead_code)]
        #vis struct #patch_ident {
            #(#patch_body)*
        }

        #[automatically_derived]
        impl ::toolwright::resource::Record for #record {
            type Key = #key_ty;
            type Draft = #draft_ident;
            type Patch = #patch_ident;
            const SPEC: ::toolwright::resource::ResourceSpec = ::toolwright::resource::ResourceSpec {
                name: #name,
                description: #description,
                key: #key_name,
                key_in_draft: #key_in_draft,
                server_assigned: &[#(#assigned),*],
                write_only: &[#(#write_only),*],
                verbs: &[#(#verb_specs),*],
            };
        }
    }
}

fn capitalized(verb: &str) -> String {
    let mut chars = verb.chars();
    chars
        .next()
        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

/// Draft fields keep their docs, serde and tool attributes: same names, same defaults.
fn keep_for_draft(attr: &Attribute) -> bool {
    ["doc", "serde", "tool"]
        .iter()
        .any(|n| attr.path().is_ident(n))
}

/// The container's `rename_all` (and `deny_unknown_fields`, added when `deny` and not
/// already there): the companions read the same property names as the record.
fn container_serde(attrs: &[Attribute], deny: bool) -> TokenStream {
    let mut kept = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let _ = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename_all") {
                let value: syn::LitStr = meta.value()?.parse()?;
                kept.push(quote!(rename_all = #value));
            } else if meta.path.is_ident("deny_unknown_fields") {
                kept.push(quote!(deny_unknown_fields));
            } else if meta.input.peek(syn::Token![=]) {
                let _: syn::Expr = meta.value()?.parse()?;
            } else if meta.input.peek(syn::token::Paren) {
                meta.parse_nested_meta(|_| Ok(()))?;
            }
            Ok(())
        });
    }
    if deny {
        kept.push(quote!(deny_unknown_fields));
    }
    if kept.is_empty() {
        TokenStream::new()
    } else {
        quote!(#[serde(#(#kept),*)])
    }
}

/// A patch field keeps its names (`rename`, `alias`); its type changed to `Option`, so
/// defaults and custom (de)serializers of the record's field no longer apply.
fn patch_serde(attrs: &[Attribute]) -> TokenStream {
    let mut kept = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        if let Meta::List(_) = &attr.meta {
            let _ = attr.parse_nested_meta(|meta| {
                if meta.path.is_ident("rename") || meta.path.is_ident("alias") {
                    if meta.input.peek(syn::Token![=]) {
                        let value: syn::LitStr = meta.value()?.parse()?;
                        let path = &meta.path;
                        kept.push(quote!(#path = #value));
                    } else {
                        let content;
                        syn::parenthesized!(content in meta.input);
                        let inner: TokenStream = content.parse()?;
                        let path = &meta.path;
                        kept.push(quote!(#path(#inner)));
                    }
                } else if meta.input.peek(syn::Token![=]) {
                    let _: syn::Expr = meta.value()?.parse()?;
                } else if meta.input.peek(syn::token::Paren) {
                    meta.parse_nested_meta(|_| Ok(()))?;
                }
                Ok(())
            });
        }
    }
    if kept.is_empty() {
        TokenStream::new()
    } else {
        quote!(#[serde(#(#kept),*)])
    }
}
