//! The body of `ToolSchema::schema`: structs as objects, tuples as arrays, enums in their
//! serde representation. Generated code calls the builders in `toolwright::schema`, so
//! what is generated per type stays small.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use serde_derive_internals::ast::Style;
use syn::spanned::Spanned;

use crate::model::{Field, Item, Representation, Shape, Variant};

/// `Some("…")` / `None` as tokens.
fn opt_str(text: Option<&str>) -> TokenStream {
    match text {
        Some(t) => quote!(::core::option::Option::Some(#t)),
        None => quote!(::core::option::Option::None),
    }
}

fn json(value: TokenStream) -> TokenStream {
    quote!(::toolwright::__private::serde_json::json!(#value))
}

/// Keywords added to a field's schema: description, bounds, examples...
fn field_keywords(field: &Field) -> Vec<TokenStream> {
    let a = &field.attrs;
    let mut out = Vec::new();
    let mut push = |key: &str, value: TokenStream| out.push(quote!((#key, #value)));
    let description = a
        .common
        .description
        .get()
        .map(syn::LitStr::value)
        .or_else(|| field.description.clone());
    if let Some(d) = description {
        push("description", json(quote!(#d)));
    }
    if let Some(t) = a.common.title.get() {
        push("title", json(quote!(#t)));
    }
    if let Some(f) = a.format.get() {
        push("format", json(quote!(#f)));
    }
    if let Some(n) = a.minimum.get() {
        let e = &n.expr;
        push("minimum", json(quote!(#e)));
    }
    if let Some(n) = a.maximum.get() {
        let e = &n.expr;
        push("maximum", json(quote!(#e)));
    }
    if let Some(n) = a.min_length.get() {
        push("minLength", json(quote!(#n)));
    }
    if let Some(n) = a.max_length.get() {
        push("maxLength", json(quote!(#n)));
    }
    if let Some(p) = a.pattern.get() {
        push("pattern", json(quote!(#p)));
    }
    if let Some(values) = a.allowed.get() {
        push("enum", json(quote!([#(#values),*])));
    }
    if a.read_only.get().is_some()
        || a.created_time.get().is_some()
        || a.updated_time.get().is_some()
    {
        push("readOnly", json(quote!(true)));
    }
    if a.write_only.get().is_some() {
        push("writeOnly", json(quote!(true)));
    }
    if field.deprecated {
        push("deprecated", json(quote!(true)));
    }
    if !a.common.examples.is_empty() {
        let examples = &a.common.examples;
        push(
            "examples",
            quote!(::toolwright::__private::serde_json::Value::Array(
                ::std::vec![
                    #(::toolwright::__private::to_json(&#examples)),*
                ]
            )),
        );
    }
    out
}

/// Keywords of the type itself.
fn container_keywords(item: &Item) -> Vec<TokenStream> {
    let mut out = Vec::new();
    let description = item
        .attrs
        .common
        .description
        .get()
        .map(syn::LitStr::value)
        .or_else(|| item.description.clone());
    if let Some(d) = description {
        out.push(quote!((
            "description",
            ::toolwright::__private::serde_json::json!(#d)
        )));
    }
    if let Some(t) = item.attrs.common.title.get() {
        out.push(quote!((
            "title",
            ::toolwright::__private::serde_json::json!(#t)
        )));
    }
    if !item.attrs.common.examples.is_empty() {
        let examples = &item.attrs.common.examples;
        out.push(quote!((
            "examples",
            ::toolwright::__private::serde_json::Value::Array(::std::vec![
                #(::toolwright::__private::to_json(&#examples)),*
            ])
        )));
    }
    out
}

/// A condition on the direction, or `None` when a part is absent in both.
fn presence(in_input: bool, in_output: bool) -> Option<TokenStream> {
    match (in_input, in_output) {
        (true, true) => Some(quote!(true)),
        (true, false) => Some(quote!(__input)),
        (false, true) => Some(quote!(!__input)),
        (false, false) => None,
    }
}

/// `generator.subschema::<T>()`, spanned on the user's type so that a type without a
/// schema is reported on the field.
fn subschema(field: &Field) -> TokenStream {
    let ty = field.ty;
    if field.custom_serde {
        // `with = ...` changes the wire form; the type's schema would be a guess.
        return quote!(::toolwright::__private::serde_json::Value::Bool(true));
    }
    quote_spanned!(ty.span()=> generator.subschema::<#ty>())
}

/// Statements adding `fields` to `__object`.
fn object_fields(fields: &[Field], deny_unknown_fields: bool) -> TokenStream {
    let each = fields.iter().filter_map(|field| {
        let present = presence(field.in_input, field.in_output)?;
        let ty = field.ty;
        if field.flatten {
            return Some(quote_spanned! {ty.span()=>
                if #present {
                    let __s = <#ty as ::toolwright::ToolSchema>::flatten_schema(generator);
                    __object.flatten(generator, &__s, <#ty as ::toolwright::ToolSchema>::OPTIONAL);
                }
            });
        }
        let schema = subschema(field);
        let keywords = field_keywords(field);
        let (de, ser) = (&field.de_name, &field.ser_name);
        let input_required = !field.has_default;
        let output_required = !field.skip_if;
        Some(quote! {
            if #present {
                let mut __s = #schema;
                ::toolwright::schema::annotate(&mut __s, ::std::vec![#(#keywords),*]);
                __object.property(
                    if __input { #de } else { #ser },
                    __s,
                    !<#ty as ::toolwright::ToolSchema>::OPTIONAL
                        && if __input { #input_required } else { #output_required },
                );
            }
        })
    });
    let deny = deny_unknown_fields.then(|| {
        quote!(if __input {
            __object.deny_unknown_fields();
        })
    });
    quote! {
        let mut __object = ::toolwright::schema::Object::new();
        #(#each)*
        #deny
        __object.finish()
    }
}

fn tuple(fields: &[Field]) -> TokenStream {
    let items = fields.iter().map(subschema);
    quote!(::toolwright::schema::tuple(::std::vec![#(#items),*]))
}

fn variant(item: &Item, variant: &Variant) -> Option<TokenStream> {
    let present = presence(variant.in_input, variant.in_output)?;
    let body = match variant.style {
        Style::Unit => quote!(::toolwright::schema::VariantBody::Unit),
        Style::Newtype => {
            let s = subschema(&variant.fields[0]);
            quote!(::toolwright::schema::VariantBody::Newtype(#s))
        }
        Style::Tuple => {
            let s = tuple(&variant.fields);
            quote!(::toolwright::schema::VariantBody::Tuple(#s))
        }
        Style::Struct => {
            let s = object_fields(&variant.fields, item.deny_unknown_fields);
            quote!(::toolwright::schema::VariantBody::Struct({ #s }))
        }
    };
    let description = variant
        .attrs
        .description
        .get()
        .map(syn::LitStr::value)
        .or_else(|| variant.description.clone());
    let description = opt_str(description.as_deref());
    let (de, ser, untagged) = (&variant.de_name, &variant.ser_name, variant.untagged);
    Some(quote! {
        if #present {
            __variants.push(::toolwright::schema::VariantSchema {
                name: if __input { #de } else { #ser },
                description: #description,
                untagged: #untagged,
                body: #body,
            });
        }
    })
}

/// The statements of `fn schema(generator: &mut SchemaGenerator) -> Value`.
pub fn body(item: &Item) -> TokenStream {
    let shape = match &item.shape {
        Shape::Struct(_, fields) if item.transparent => {
            let field = fields.iter().find(|f| f.transparent).unwrap_or(&fields[0]);
            subschema(field)
        }
        Shape::Struct(Style::Struct, fields) => {
            let object = object_fields(fields, item.deny_unknown_fields);
            quote!({ #object })
        }
        Shape::Struct(Style::Newtype, fields) => subschema(&fields[0]),
        Shape::Struct(Style::Tuple, fields) => tuple(fields),
        Shape::Struct(Style::Unit, _) => {
            quote!(::toolwright::__private::serde_json::json!({ "type": "null" }))
        }
        Shape::Enum(representation, variants) => {
            let representation = match representation {
                Representation::External => quote!(External),
                Representation::Internal(tag) => quote!(Internal { tag: #tag }),
                Representation::Adjacent(tag, content) => {
                    quote!(Adjacent { tag: #tag, content: #content })
                }
                Representation::Untagged => quote!(Untagged),
            };
            let each = variants.iter().filter_map(|v| variant(item, v));
            quote!({
                let mut __variants = ::std::vec::Vec::new();
                #(#each)*
                ::toolwright::schema::enum_schema(
                    ::toolwright::schema::Representation::#representation,
                    __variants,
                )
            })
        }
    };
    // `#[serde(from/try_from = ...)]` / `#[serde(into = ...)]`: the wire form is that type's.
    let shape = match (&item.from, &item.into) {
        (None, None) => shape,
        (from, into) => {
            let input = from
                .as_ref()
                .map_or_else(|| shape.clone(), |t| quote!(generator.subschema::<#t>()));
            let output = into
                .as_ref()
                .map_or_else(|| shape.clone(), |t| quote!(generator.subschema::<#t>()));
            quote!(if __input { #input } else { #output })
        }
    };
    let keywords = container_keywords(item);
    quote! {
        let __input = generator.direction() == ::toolwright::Direction::Input;
        let mut __schema: ::toolwright::__private::serde_json::Value = #shape;
        ::toolwright::schema::annotate(&mut __schema, ::std::vec![#(#keywords),*]);
        __schema
    }
}
