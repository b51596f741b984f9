//! Missing descriptions. Models pick tools by their descriptions, so an undocumented
//! type or field is worth a warning. Stable Rust has no warning API for proc macros;
//! the use of a `#[deprecated]` constant, spanned on the user's item, makes rustc print
//! one (once per item, with our note). `#[tool(deny_missing_docs)]` makes each one an
//! error instead.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};

use crate::attr::Errors;
use crate::model::{Field, Item, Shape};

struct Missing {
    span: Span,
    what: String,
}

fn field_documented(field: &Field) -> bool {
    field.description.is_some() || field.attrs.common.description.get().is_some()
}

fn missing(item: &Item) -> Vec<Missing> {
    let mut out = Vec::new();
    if item.description.is_none() && item.attrs.common.description.get().is_none() {
        out.push(Missing {
            span: item.ident.span(),
            what: format!("type `{}`", item.ident),
        });
    }
    let mut fields = |fields: &[Field], owner: &str| {
        for field in fields {
            let Some(ident) = &field.ident else { continue };
            let property =
                (field.in_input || field.in_output) && !field.flatten && !item.transparent;
            if property && !field_documented(field) {
                out.push(Missing {
                    span: ident.span(),
                    what: format!("field `{owner}::{ident}`"),
                });
            }
        }
    };
    match &item.shape {
        Shape::Struct(_, f) => fields(f, &item.ident.to_string()),
        Shape::Enum(_, variants) => {
            for v in variants {
                fields(&v.fields, &format!("{}::{}", item.ident, v.ident));
            }
        }
    }
    if let Shape::Enum(_, variants) = &item.shape {
        for v in variants {
            if v.description.is_none()
                && v.attrs.description.get().is_none()
                && (v.in_input || v.in_output)
            {
                out.push(Missing {
                    span: v.ident.span(),
                    what: format!("variant `{}::{}`", item.ident, v.ident),
                });
            }
        }
    }
    out
}

/// Warnings as tokens, or errors pushed to `errors` in deny mode.
pub fn missing_docs(item: &Item, errors: &mut Errors) -> TokenStream {
    let deny = item.attrs.deny_missing_docs.get().is_some();
    let mut out = TokenStream::new();
    if item.attrs.companion.get().is_some() {
        return out;
    }
    for m in missing(item) {
        let note = format!(
            "toolwright: {} has no description; models choose tools by their descriptions: add a `///` doc comment or `#[tool(description = \"...\")]`",
            m.what
        );
        if deny {
            errors.at(
                m.span,
                format!("missing description: {} (denied by `deny_missing_docs`): add a `///` doc comment or `#[tool(description = \"...\")]`", m.what),
            );
            continue;
        }
        let use_site = quote_spanned!(m.span=> missing_description);
        out.extend(quote! {
            const _: () = {
                #[deprecated(note = #note)]
                #[allow(non_upper_case_globals)]
                const missing_description: () = ();
                #use_site
            };
        });
    }
    out
}
