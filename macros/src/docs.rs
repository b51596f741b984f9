//! Doc comments → descriptions, by the rule adapter Markdown follows too
//! (`toolwright_codegen::emit::text::fold`): paragraphs kept, line wraps folded, trimmed.

use syn::{Attribute, Expr, ExprLit, Lit, Meta};

/// The folded doc comment of an item; `None` when it has none (or only blank lines).
pub fn description(attrs: &[Attribute]) -> Option<String> {
    let lines: Vec<String> = attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .filter_map(|a| match &a.meta {
            Meta::NameValue(nv) => match &nv.value {
                Expr::Lit(ExprLit {
                    lit: Lit::Str(s), ..
                }) => Some(s.value()),
                _ => None,
            },
            _ => None,
        })
        // `split('\n')`, not `lines()`: an empty `///` line is a paragraph break.
        .flat_map(|doc| {
            doc.split('\n')
                .map(|l| l.trim_end().to_owned())
                .collect::<Vec<_>>()
        })
        .collect();
    let folded = toolwright_codegen::emit::text::fold(&lines.join("\n"));
    (!folded.is_empty()).then_some(folded)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_like_adapter_markdown() {
        let item: syn::DeriveInput = syn::parse_quote! {
            /// A product
            /// for sale.
            ///
            ///   Second   paragraph.
            struct P;
        };
        assert_eq!(
            description(&item.attrs).as_deref(),
            Some("A product for sale.\n\nSecond paragraph.")
        );
        let bare: syn::DeriveInput = syn::parse_quote! { struct Q; };
        assert_eq!(description(&bare.attrs), None);
    }
}
