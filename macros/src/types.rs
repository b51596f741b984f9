//! What can be known of a field's type from its tokens alone: whether it is an
//! `Option`, its JSON type when it is a well-known standard type, and types that can
//! never have a JSON form. Everything else is left to the `ToolSchema` trait bound.

use syn::{GenericArgument, PathArguments, Type};

/// Why a type can never be described, for types caught by their syntax.
pub fn unsupported(ty: &Type) -> Option<&'static str> {
    match ty {
        Type::Ptr(_) => Some("raw pointers have no JSON form; use an owned value or a reference"),
        Type::FnPtr(_) => Some("function pointers have no JSON form"),
        Type::TraitObject(_) | Type::ImplTrait(_) => {
            Some("trait objects have no JSON Schema; use a concrete type that derives `ToolSchema`")
        }
        Type::Never(_) => Some("`!` has no values to describe"),
        Type::Paren(p) => unsupported(&p.elem),
        Type::Group(g) => unsupported(&g.elem),
        Type::Reference(r) => unsupported(&r.elem),
        Type::Slice(s) => unsupported(&s.elem),
        Type::Array(a) => unsupported(&a.elem),
        Type::Tuple(t) => t.elems.iter().find_map(unsupported),
        Type::Path(p) => p.path.segments.iter().find_map(|seg| match &seg.arguments {
            PathArguments::AngleBracketed(args) => args.args.iter().find_map(|a| match a {
                GenericArgument::Type(t) => unsupported(t),
                _ => None,
            }),
            _ => None,
        }),
        _ => None,
    }
}

/// The last path segment's name and its type arguments.
fn last_segment(ty: &Type) -> Option<(String, Vec<&Type>)> {
    let Type::Path(p) = ungroup(ty) else {
        return None;
    };
    let seg = p.path.segments.last()?;
    let args = match &seg.arguments {
        PathArguments::AngleBracketed(a) => a
            .args
            .iter()
            .filter_map(|a| match a {
                GenericArgument::Type(t) => Some(t),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    Some((seg.ident.to_string(), args))
}

fn ungroup(ty: &Type) -> &Type {
    match ty {
        Type::Group(g) => ungroup(&g.elem),
        Type::Paren(p) => ungroup(&p.elem),
        _ => ty,
    }
}

/// `Option<T>` → `T`.
pub fn option_inner(ty: &Type) -> Option<&Type> {
    match last_segment(ty) {
        Some((name, args)) if name == "Option" && args.len() == 1 => Some(args[0]),
        _ => None,
    }
}

/// The JSON type of well-known types (`Option` and pointers see through to their
/// content); `None` when the tokens don't tell.
pub fn json_type(ty: &Type) -> Option<&'static str> {
    match ungroup(ty) {
        Type::Reference(r) => return json_type(&r.elem),
        Type::Array(_) | Type::Slice(_) => return Some("array"),
        Type::Tuple(t) if t.elems.is_empty() => return Some("null"),
        Type::Tuple(_) => return Some("array"),
        _ => {}
    }
    let (name, args) = last_segment(ty)?;
    Some(match name.as_str() {
        "i8" | "i16" | "i32" | "i64" | "i128" | "isize" | "u8" | "u16" | "u32" | "u64" | "u128"
        | "usize" => "integer",
        n if n.starts_with("NonZero") => "integer",
        "f32" | "f64" => "number",
        "bool" => "boolean",
        "String" | "str" | "char" => "string",
        "Vec" | "VecDeque" | "LinkedList" | "HashSet" | "BTreeSet" => "array",
        "HashMap" | "BTreeMap" | "Map" => "object",
        "Option" | "Box" | "Rc" | "Arc" | "Cow" if args.len() == 1 => return json_type(args[0]),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::parse_quote;

    #[test]
    fn classifies_standard_types() {
        let t: Type = parse_quote!(Option<Box<u8>>);
        assert_eq!(json_type(&t), Some("integer"));
        assert!(option_inner(&t).is_some());
        let t: Type = parse_quote!(std::collections::BTreeMap<String, f32>);
        assert_eq!(json_type(&t), Some("object"));
        let t: Type = parse_quote!(Product);
        assert_eq!(json_type(&t), None);
        let t: Type = parse_quote!(Vec<*const u8>);
        assert!(unsupported(&t).is_some());
    }
}
