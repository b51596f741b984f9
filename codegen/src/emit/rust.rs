//! Rust code for one API: input/output types, the typed `Client` (thin async wrappers
//! over the shared executor) and the static operation table.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::names::{self, Scope};
use super::plan::{ParamPlan, ToolPlan, ValueKind};
use crate::ir::{self, BodyEncoding, Direction, Method, ParamLocation, Schema, SchemaType};

/// The body of `{module}.rs`.
pub fn api_module(api: &ir::Api, plans: &[ToolPlan]) -> TokenStream {
    let mut types = TypeGen::default();
    let mut methods = Vec::new();
    let mut operations = Vec::new();
    for (index, (op, plan)) in api.operations.iter().zip(plans).enumerate() {
        let pascal = names::pascal(&op.name);
        let input_schema = Schema {
            description: Some(format!("Arguments of `{}`.", op.name)),
            ..Schema::object(
                op.params
                    .iter()
                    .map(|p| (p.name.clone(), p.schema.clone(), p.required)),
            )
        };
        let input = types.named_object(&format!("{pascal}Input"), &input_schema, Direction::Input);
        let output = match op.success_response().and_then(|r| r.schema.as_ref()) {
            Some(s) if s.ty == SchemaType::Object && !s.properties.is_empty() => {
                types.named_object(&format!("{pascal}Output"), s, Direction::Output)
            }
            Some(s) => types.ty(s, &format!("{pascal}Output"), Direction::Output),
            None => quote!(::toolwright::__private::serde_json::Value),
        };
        let method = names::ident(&names::snake(&op.name));
        let doc = names::doc(&format!(
            "{}\n\n`{} {}`",
            plan.description,
            op.method.as_str(),
            op.path
        ));
        methods.push(quote! {
            #doc
            pub async fn #method(&self, input: &#input) -> ::std::result::Result<#output, ::toolwright::Error> {
                self.executor.execute(&OPERATIONS[#index], input).await
            }
        });
        operations.push(operation(plan));
    }
    let count = proc_macro2::Literal::usize_unsuffixed(operations.len());
    let items = types.items;
    let client_doc = names::doc(&format!(
        "Typed client for the `{}` API ({}). Every method runs through the shared \
         [`toolwright::Executor`], like call-by-name does.",
        api.name, api.version
    ));
    quote! {
        #(#items)*

        #client_doc
        #[derive(Debug, Clone)]
        pub struct Client {
            executor: ::toolwright::Executor,
        }

        impl Client {
            /// A client that sends through `executor` (its transport, base URL
            /// overrides and credentials).
            pub fn new(executor: ::toolwright::Executor) -> Self {
                Client { executor }
            }

            /// The executor behind this client.
            pub fn executor(&self) -> &::toolwright::Executor {
                &self.executor
            }

            #(#methods)*
        }

        /// The operation descriptors the executor runs, in source order.
        pub static OPERATIONS: [::toolwright::Operation; #count] = [#(#operations),*];
    }
}

fn cow(text: &str) -> TokenStream {
    quote!(::toolwright::__private::Cow::Borrowed(#text))
}

fn operation(plan: &ToolPlan) -> TokenStream {
    let name = cow(&plan.name);
    let api = cow(&plan.api);
    let method = format_ident!("{}", method_variant(plan.method));
    let path = cow(&plan.path);
    let params = plan.params.iter().map(param);
    let body = format_ident!("{}", body_variant(plan.body));
    let content_type = cow(&plan.content_type);
    let security = plan.security.iter().map(|schemes| {
        let schemes = schemes.iter().map(|s| cow(s));
        quote!(::toolwright::Requirement { schemes: ::toolwright::__private::Cow::Borrowed(&[#(#schemes),*]) })
    });
    let wrap = plan.wrap_output;
    quote! {
        ::toolwright::Operation {
            name: #name,
            api: #api,
            method: ::toolwright::Method::#method,
            path: #path,
            params: ::toolwright::__private::Cow::Borrowed(&[#(#params),*]),
            body: ::toolwright::BodyEncoding::#body,
            content_type: #content_type,
            security: ::toolwright::__private::Cow::Borrowed(&[#(#security),*]),
            wrap_output: #wrap,
        }
    }
}

/// Variant names shared with the runtime's enums (the CLI maps the same names).
pub fn method_variant(m: Method) -> &'static str {
    match m {
        Method::Get => "Get",
        Method::Post => "Post",
        Method::Put => "Put",
        Method::Patch => "Patch",
        Method::Delete => "Delete",
        Method::Head => "Head",
        Method::Options => "Options",
    }
}

pub fn body_variant(b: BodyEncoding) -> &'static str {
    match b {
        BodyEncoding::Json => "Json",
        BodyEncoding::Form => "Form",
        BodyEncoding::Multipart => "Multipart",
        BodyEncoding::Binary => "Binary",
        BodyEncoding::Text => "Text",
    }
}

pub fn location_variant(l: ParamLocation) -> &'static str {
    match l {
        ParamLocation::Path => "Path",
        ParamLocation::Query => "Query",
        ParamLocation::Header => "Header",
        ParamLocation::Cookie => "Cookie",
        ParamLocation::Body => "Body",
        ParamLocation::RequestBody => "RequestBody",
    }
}

pub fn style_variant(s: ir::Style) -> &'static str {
    match s {
        ir::Style::Form => "Form",
        ir::Style::Simple => "Simple",
        ir::Style::Label => "Label",
        ir::Style::Matrix => "Matrix",
        ir::Style::SpaceDelimited => "SpaceDelimited",
        ir::Style::PipeDelimited => "PipeDelimited",
        ir::Style::DeepObject => "DeepObject",
    }
}

pub fn kind_variant(k: ValueKind) -> &'static str {
    match k {
        ValueKind::Any => "Any",
        ValueKind::String => "String",
        ValueKind::Integer => "Integer",
        ValueKind::Number => "Number",
        ValueKind::Boolean => "Boolean",
        ValueKind::Array => "Array",
        ValueKind::Object => "Object",
        ValueKind::Binary => "Binary",
    }
}

fn param(p: &ParamPlan) -> TokenStream {
    let field = cow(&p.field);
    let wire = cow(&p.wire_name);
    let location = format_ident!("{}", location_variant(p.location));
    let kind = format_ident!("{}", kind_variant(p.kind));
    let style = format_ident!("{}", style_variant(p.style));
    let (required, explode, allow_reserved) = (p.required, p.explode, p.allow_reserved);
    quote! {
        ::toolwright::Param {
            field: #field,
            wire_name: #wire,
            location: ::toolwright::ParamLocation::#location,
            required: #required,
            kind: ::toolwright::ValueKind::#kind,
            style: ::toolwright::Style::#style,
            explode: #explode,
            allow_reserved: #allow_reserved,
        }
    }
}

/// Generates the named types a module needs.
#[derive(Default)]
struct TypeGen {
    scope: Scope,
    items: Vec<TokenStream>,
}

impl TypeGen {
    /// The Rust type of a schema; `hint` names any type it has to create.
    fn ty(&mut self, schema: &Schema, hint: &str, direction: Direction) -> TokenStream {
        match schema.ty {
            SchemaType::Any => quote!(::toolwright::__private::serde_json::Value),
            SchemaType::String
                if !schema.enum_values.is_empty()
                    && schema.enum_values.iter().all(|v| v.is_string()) =>
            {
                self.string_enum(hint, schema)
            }
            SchemaType::String => quote!(::std::string::String),
            SchemaType::Integer => quote!(i64),
            SchemaType::Number => quote!(f64),
            SchemaType::Boolean => quote!(bool),
            SchemaType::Array => {
                let item = match &schema.items {
                    Some(items) => self.ty(items, &format!("{hint}Item"), direction),
                    None => quote!(::toolwright::__private::serde_json::Value),
                };
                quote!(::std::vec::Vec<#item>)
            }
            SchemaType::Object if schema.properties.is_empty() => quote! {
                ::toolwright::__private::serde_json::Map<::std::string::String, ::toolwright::__private::serde_json::Value>
            },
            SchemaType::Object => self.named_object(hint, schema, direction),
        }
    }

    fn named_object(&mut self, hint: &str, schema: &Schema, direction: Direction) -> TokenStream {
        let name = self.scope.claim(&names::pascal(hint));
        let ident = names::ident(&name);
        let mut fields = Vec::new();
        let mut field_scope = Scope::default();
        for (prop, prop_schema) in &schema.properties {
            let field_name = field_scope.claim(&names::snake(prop));
            let field = names::ident(&field_name);
            let rename = (field_name != *prop).then(|| quote!(#[serde(rename = #prop)]));
            let inner = self.ty(
                prop_schema,
                &format!("{name}{}", names::pascal(prop)),
                direction,
            );
            let doc = prop_schema.description.as_deref().map(names::doc);
            if schema.required.contains(prop) {
                fields.push(quote! { #doc #rename pub #field: #inner, });
            } else {
                fields.push(quote! {
                    #doc
                    #rename
                    #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
                    pub #field: ::std::option::Option<#inner>,
                });
            }
        }
        let deny = (direction == Direction::Input).then(|| quote!(#[serde(deny_unknown_fields)]));
        let doc = schema.description.as_deref().map(names::doc);
        self.items.push(quote! {
            #doc
            #[derive(Debug, Clone, PartialEq, ::toolwright::__private::serde::Serialize, ::toolwright::__private::serde::Deserialize)]
            #[serde(crate = "::toolwright::__private::serde")]
            #deny
            pub struct #ident {
                #(#fields)*
            }
        });
        quote!(#ident)
    }

    fn string_enum(&mut self, hint: &str, schema: &Schema) -> TokenStream {
        let name = self.scope.claim(&names::pascal(hint));
        let ident = names::ident(&name);
        let mut variant_scope = Scope::default();
        let variants = schema
            .enum_values
            .iter()
            .filter_map(|v| v.as_str())
            .map(|value| {
                let variant = names::ident(&variant_scope.claim(&names::pascal(value)));
                quote!(#[serde(rename = #value)] #variant,)
            });
        let doc = schema.description.as_deref().map(names::doc);
        self.items.push(quote! {
            #doc
            #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, ::toolwright::__private::serde::Serialize, ::toolwright::__private::serde::Deserialize)]
            #[serde(crate = "::toolwright::__private::serde")]
            pub enum #ident {
                #(#variants)*
            }
        });
        quote!(#ident)
    }
}
