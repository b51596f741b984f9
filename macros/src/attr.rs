//! Typed parsing of `#[tool(...)]` attributes. Like serde_derive, parsing never stops at
//! the first problem: each one is recorded in the [`Errors`] and parsing goes on, so a
//! user sees every mistake of a type in one build.

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::{Attribute, Expr, Ident, Lit, LitStr};

/// Errors of one derive, combined into one compile error at the end.
#[derive(Default)]
pub struct Errors(Vec<syn::Error>);

impl Errors {
    pub fn spanned(&mut self, tokens: impl ToTokens, message: impl std::fmt::Display) {
        self.0.push(syn::Error::new_spanned(tokens, message));
    }

    pub fn at(&mut self, span: Span, message: impl std::fmt::Display) {
        self.0.push(syn::Error::new(span, message));
    }

    pub fn push(&mut self, error: syn::Error) {
        self.0.push(error);
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn into_compile_errors(self) -> TokenStream {
        self.0.into_iter().map(|e| e.to_compile_error()).collect()
    }
}

/// A value set at most once; remembers where, for "duplicate" errors.
pub struct Once<T> {
    pub value: Option<T>,
    pub span: Option<Span>,
}

impl<T> Default for Once<T> {
    fn default() -> Self {
        Once {
            value: None,
            span: None,
        }
    }
}

impl<T> Once<T> {
    fn set(&mut self, errors: &mut Errors, name: &Ident, value: T) {
        if self.value.is_some() {
            errors.spanned(name, format!("duplicate tool attribute `{name}`"));
            return;
        }
        self.value = Some(value);
        self.span = Some(name.span());
    }

    pub fn get(&self) -> Option<&T> {
        self.value.as_ref()
    }
}

/// Keywords every item (type, field, variant) may carry.
#[derive(Default)]
pub struct Common {
    pub description: Once<LitStr>,
    pub title: Once<LitStr>,
    pub examples: Vec<Expr>,
}

/// A field's `#[tool(...)]`.
#[derive(Default)]
pub struct FieldAttrs {
    pub common: Common,
    pub format: Once<LitStr>,
    pub minimum: Once<Number>,
    pub maximum: Once<Number>,
    pub min_length: Once<syn::LitInt>,
    pub max_length: Once<syn::LitInt>,
    pub pattern: Once<LitStr>,
    pub allowed: Once<Vec<Lit>>,
    pub primary_key: Once<()>,
    pub created_time: Once<()>,
    pub updated_time: Once<()>,
    pub read_only: Once<()>,
    pub write_only: Once<()>,
}

/// A resource verb and its options.
pub struct VerbAttr {
    pub verb: Ident,
    pub idempotent: bool,
}

pub const VERBS: [&str; 6] = ["get", "search", "create", "update", "patch", "delete"];

/// The type's `#[tool(...)]`.
#[derive(Default)]
pub struct ContainerAttrs {
    pub common: Common,
    pub resource: Once<Vec<VerbAttr>>,
    pub deny_missing_docs: Once<()>,
    pub adapter: Once<LitStr>,
    pub openapi: Once<LitStr>,
    pub operation: Once<LitStr>,
    /// Set on the draft and patch types a resource derive generates: their fields are
    /// the user's, already linted.
    pub companion: Once<()>,
}

const COMMON_KEYS: &str = "`description`, `title`, `example`";

fn is_tool(attr: &Attribute) -> bool {
    attr.path().is_ident("tool")
}

fn ident_of(meta: &ParseNestedMeta) -> Ident {
    meta.path
        .get_ident()
        .cloned()
        .unwrap_or_else(|| Ident::new("_", Span::call_site()))
}

/// Parses `key = value` for the keywords shared by all items. `Ok(false)`: not one.
fn common(
    common: &mut Common,
    errors: &mut Errors,
    name: &Ident,
    meta: &ParseNestedMeta,
) -> syn::Result<bool> {
    match name.to_string().as_str() {
        "description" => common.description.set(errors, name, meta.value()?.parse()?),
        "title" => common.title.set(errors, name, meta.value()?.parse()?),
        "example" => common.examples.push(meta.value()?.parse()?),
        _ => return Ok(false),
    }
    Ok(true)
}

fn unknown(errors: &mut Errors, name: &Ident, expected: &str) {
    errors.spanned(
        name,
        format!("unknown tool attribute `{name}`; expected one of {expected}"),
    );
}

/// Runs `each` over every `key` inside every `#[tool(...)]` of `attrs`.
fn for_each_key(
    attrs: &[Attribute],
    errors: &mut Errors,
    mut each: impl FnMut(&mut Errors, &Ident, &ParseNestedMeta) -> syn::Result<()>,
) {
    for attr in attrs.iter().filter(|a| is_tool(a)) {
        let mut inner = Errors::default();
        let result = attr.parse_nested_meta(|meta| {
            let name = ident_of(&meta);
            each(&mut inner, &name, &meta)
        });
        errors.0.extend(inner.0);
        if let Err(e) = result {
            errors.push(e);
        }
    }
}

pub fn field(attrs: &[Attribute], errors: &mut Errors) -> FieldAttrs {
    let mut out = FieldAttrs::default();
    for_each_key(attrs, errors, |errors, name, meta| {
        if common(&mut out.common, errors, name, meta)? {
            return Ok(());
        }
        match name.to_string().as_str() {
            "format" => out.format.set(errors, name, meta.value()?.parse()?),
            "minimum" => out.minimum.set(errors, name, number(meta)?),
            "maximum" => out.maximum.set(errors, name, number(meta)?),
            "min_length" => out.min_length.set(errors, name, meta.value()?.parse()?),
            "max_length" => out.max_length.set(errors, name, meta.value()?.parse()?),
            "pattern" => out.pattern.set(errors, name, meta.value()?.parse()?),
            "allowed" => {
                let list: syn::ExprArray = meta.value()?.parse()?;
                let mut values = Vec::new();
                for element in list.elems {
                    match element {
                        Expr::Lit(lit) => values.push(lit.lit),
                        other => errors.spanned(
                            other,
                            "`allowed` takes literals: `allowed = [\"a\", \"b\"]`",
                        ),
                    }
                }
                out.allowed.set(errors, name, values);
            }
            "primary_key" => out.primary_key.set(errors, name, ()),
            "created_time" => out.created_time.set(errors, name, ()),
            "updated_time" => out.updated_time.set(errors, name, ()),
            "read_only" => out.read_only.set(errors, name, ()),
            "write_only" => out.write_only.set(errors, name, ()),
            _ => {
                skip_value(meta)?;
                unknown(
                    errors,
                    name,
                    &format!(
                        "{COMMON_KEYS}, `format`, `minimum`, `maximum`, `min_length`, `max_length`, `pattern`, `allowed`, `primary_key`, `created_time`, `updated_time`, `read_only`, `write_only`"
                    ),
                );
            }
        }
        Ok(())
    });
    out
}

pub fn variant(attrs: &[Attribute], errors: &mut Errors) -> Common {
    let mut out = Common::default();
    for_each_key(attrs, errors, |errors, name, meta| {
        if !common(&mut out, errors, name, meta)? {
            skip_value(meta)?;
            unknown(errors, name, COMMON_KEYS);
        }
        Ok(())
    });
    out
}

pub fn container(attrs: &[Attribute], errors: &mut Errors) -> ContainerAttrs {
    let mut out = ContainerAttrs::default();
    for_each_key(attrs, errors, |errors, name, meta| {
        if common(&mut out.common, errors, name, meta)? {
            return Ok(());
        }
        match name.to_string().as_str() {
            "resource" => {
                let mut verbs: Vec<VerbAttr> = Vec::new();
                meta.parse_nested_meta(|verb_meta| {
                    let verb = ident_of(&verb_meta);
                    if !VERBS.contains(&verb.to_string().as_str()) {
                        errors.spanned(&verb, format!("unknown resource verb `{verb}`; expected one of `get`, `search`, `create`, `update`, `patch`, `delete`"));
                    } else if verbs.iter().any(|v| v.verb == verb) {
                        errors.spanned(&verb, format!("duplicate resource verb `{verb}`"));
                    }
                    let mut idempotent = false;
                    if verb_meta.input.peek(syn::token::Paren) {
                        verb_meta.parse_nested_meta(|option| {
                            if option.path.is_ident("idempotent") {
                                idempotent = true;
                            } else {
                                errors.spanned(&option.path, "unknown verb option; expected `idempotent`");
                            }
                            Ok(())
                        })?;
                    }
                    verbs.push(VerbAttr { verb, idempotent });
                    Ok(())
                })?;
                if verbs.is_empty() {
                    errors.spanned(name, "a resource needs at least one verb: `resource(get, search, create, update, patch, delete)`");
                }
                out.resource.set(errors, name, verbs);
            }
            "deny_missing_docs" => out.deny_missing_docs.set(errors, name, ()),
            "__companion" => out.companion.set(errors, name, ()),
            "adapter" => out.adapter.set(errors, name, meta.value()?.parse()?),
            "openapi" => out.openapi.set(errors, name, meta.value()?.parse()?),
            "operation" => out.operation.set(errors, name, meta.value()?.parse()?),
            _ => {
                skip_value(meta)?;
                unknown(
                    errors,
                    name,
                    &format!(
                        "{COMMON_KEYS}, `resource`, `deny_missing_docs`, `adapter`, `openapi`, `operation`"
                    ),
                );
            }
        }
        Ok(())
    });
    out
}

/// A number literal, possibly negative: the expression to emit and its value.
fn number(meta: &ParseNestedMeta) -> syn::Result<Number> {
    let expr: Expr = meta.value()?.parse()?;
    let (lit, negative) = match &expr {
        Expr::Lit(syn::ExprLit { lit, .. }) => (lit, false),
        Expr::Unary(syn::ExprUnary {
            op: syn::UnOp::Neg(_),
            expr: inner,
            ..
        }) => match &**inner {
            Expr::Lit(syn::ExprLit { lit, .. }) => (lit, true),
            _ => return Err(syn::Error::new_spanned(&expr, "expected a number")),
        },
        _ => return Err(syn::Error::new_spanned(&expr, "expected a number")),
    };
    let value: f64 = match lit {
        Lit::Int(i) => i.base10_parse()?,
        Lit::Float(f) => f.base10_parse()?,
        _ => return Err(syn::Error::new_spanned(&expr, "expected a number")),
    };
    Ok(Number {
        value: if negative { -value } else { value },
        expr,
    })
}

/// A numeric attribute value.
pub struct Number {
    pub expr: Expr,
    pub value: f64,
}

/// Consumes `= value` or `(...)` after an unknown key so parsing can go on.
fn skip_value(meta: &ParseNestedMeta) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        let _: Expr = meta.value()?.parse()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|_| Ok(()))?;
    }
    Ok(())
}
