//! Rust identifiers from source names: snake/Pascal case, keywords made raw, anything
//! else made safe, and collisions resolved deterministically.

use std::collections::BTreeSet;

use heck::{ToPascalCase, ToSnakeCase};
use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

/// A `snake_case` identifier for a field, method or module.
pub fn snake(name: &str) -> String {
    let s = sanitize(&name.to_snake_case());
    if s.is_empty() || s.chars().all(|c| c == '_') {
        return "field".to_owned();
    }
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        format!("_{s}")
    } else {
        s
    }
}

/// A `PascalCase` identifier for a type or variant.
pub fn pascal(name: &str) -> String {
    let s = sanitize(&name.to_pascal_case());
    if s.is_empty() {
        "Value".to_owned()
    } else if s.starts_with(|c: char| c.is_ascii_digit()) {
        format!("V{s}")
    } else {
        s
    }
}

fn sanitize(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect()
}

/// Makes an `Ident`, raw for keywords (`r#type`); `self`/`Self`/`super`/`crate` get `_`.
pub fn ident(name: &str) -> Ident {
    if matches!(name, "self" | "Self" | "super" | "crate" | "_" | "") {
        return Ident::new(&format!("{name}_"), Span::call_site());
    }
    if syn::parse_str::<Ident>(name).is_ok() {
        Ident::new(name, Span::call_site())
    } else {
        Ident::new_raw(name, Span::call_site())
    }
}

/// Doc attributes for `text`, one per line, so prettyplease renders `/// line`.
pub fn doc(text: &str) -> TokenStream {
    let lines = text.trim().lines().map(|l| {
        if l.is_empty() {
            String::new()
        } else {
            format!(" {l}")
        }
    });
    quote!(#(#[doc = #lines])*)
}

/// Hands out unique names within one scope.
#[derive(Debug, Default)]
pub struct Scope {
    taken: BTreeSet<String>,
}

impl Scope {
    /// `name`, or `name2`, `name3`... if already taken.
    pub fn claim(&mut self, name: &str) -> String {
        let mut candidate = name.to_owned();
        let mut n = 2;
        while !self.taken.insert(candidate.clone()) {
            candidate = format!("{name}{n}");
            n += 1;
        }
        candidate
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(snake("X-Trace-Id"), "x_trace_id");
        assert_eq!(snake("2fa"), "_2fa");
        assert_eq!(pascal("in progress"), "InProgress");
        assert_eq!(pascal("1.0"), "V10");
        assert_eq!(ident("type").to_string(), "r#type");
        assert_eq!(ident("self").to_string(), "self_");
        let mut s = Scope::default();
        assert_eq!(s.claim("A"), "A");
        assert_eq!(s.claim("A"), "A2");
    }
}
