//! The derive's view of a type: serde's own parse (names, skips, defaults, flatten,
//! representation — exactly as serde reads them) joined with our `#[tool]` attributes
//! and doc comments.

use serde_derive_internals::ast::{self, Data, Style};
use serde_derive_internals::attr::TagType;
use syn::{Attribute, Ident, Type};

use crate::attr::{self, Common, ContainerAttrs, Errors, FieldAttrs};
use crate::docs;

pub struct Item<'a> {
    pub ident: Ident,
    pub input: &'a syn::DeriveInput,
    pub attrs: ContainerAttrs,
    pub description: Option<String>,
    /// Serialized name of the type (its `$defs` key).
    pub name: String,
    pub shape: Shape<'a>,
    pub deny_unknown_fields: bool,
    pub transparent: bool,
    pub from: Option<Type>,
    pub into: Option<Type>,
}

pub enum Shape<'a> {
    Struct(Style, Vec<Field<'a>>),
    Enum(Representation, Vec<Variant<'a>>),
}

pub enum Representation {
    External,
    Internal(String),
    Adjacent(String, String),
    Untagged,
}

pub struct Field<'a> {
    pub ty: &'a Type,
    pub ident: Option<Ident>,
    pub original: &'a syn::Field,
    pub attrs: FieldAttrs,
    pub description: Option<String>,
    pub de_name: String,
    pub ser_name: String,
    pub in_input: bool,
    pub in_output: bool,
    /// May be left out of an input (`#[serde(default)]` on it or its container).
    pub has_default: bool,
    /// May be left out of an output (`skip_serializing_if`).
    pub skip_if: bool,
    pub flatten: bool,
    pub transparent: bool,
    /// `with`/`serialize_with`/`deserialize_with`: the type's schema may not match.
    pub custom_serde: bool,
    pub deprecated: bool,
}

pub struct Variant<'a> {
    pub ident: Ident,
    pub attrs: Common,
    pub description: Option<String>,
    pub de_name: String,
    pub ser_name: String,
    pub in_input: bool,
    pub in_output: bool,
    pub untagged: bool,
    pub style: Style,
    pub fields: Vec<Field<'a>>,
}

impl<'a> Item<'a> {
    pub fn from_serde(container: &ast::Container<'a>, errors: &mut Errors) -> Item<'a> {
        let input = container.original;
        // Container attributes first, so that errors come in source order.
        let attrs = attr::container(&input.attrs, errors);
        let container_default = !container.attrs.default().is_none();
        let shape = match &container.data {
            Data::Struct(style, fields) => Shape::Struct(
                *style,
                fields
                    .iter()
                    .map(|f| Field::new(f, container_default, errors))
                    .collect(),
            ),
            Data::Enum(variants) => Shape::Enum(
                match container.attrs.tag() {
                    TagType::External => Representation::External,
                    TagType::Internal { tag } => Representation::Internal(tag.clone()),
                    TagType::Adjacent { tag, content } => {
                        Representation::Adjacent(tag.clone(), content.clone())
                    }
                    TagType::None => Representation::Untagged,
                },
                variants.iter().map(|v| Variant::new(v, errors)).collect(),
            ),
        };
        Item {
            ident: container.ident.clone(),
            input,
            attrs,
            description: docs::description(&input.attrs),
            name: container.attrs.name().deserialize_name().value.clone(),
            shape,
            deny_unknown_fields: container.attrs.deny_unknown_fields(),
            transparent: container.attrs.transparent(),
            from: container
                .attrs
                .type_from()
                .or(container.attrs.type_try_from())
                .cloned(),
            into: container.attrs.type_into().cloned(),
        }
    }

    /// Named fields of a struct (empty for enums and tuple structs).
    pub fn named_fields(&self) -> &[Field<'a>] {
        match &self.shape {
            Shape::Struct(Style::Struct, fields) => fields,
            _ => &[],
        }
    }
}

impl<'a> Field<'a> {
    fn new(field: &ast::Field<'a>, container_default: bool, errors: &mut Errors) -> Field<'a> {
        let a = &field.attrs;
        Field {
            ty: field.ty,
            ident: field.original.ident.clone(),
            original: field.original,
            attrs: attr::field(&field.original.attrs, errors),
            description: docs::description(&field.original.attrs),
            de_name: a.name().deserialize_name().value.clone(),
            ser_name: a.name().serialize_name().value.clone(),
            in_input: !a.skip_deserializing(),
            in_output: !a.skip_serializing(),
            has_default: container_default || !a.default().is_none(),
            skip_if: a.skip_serializing_if().is_some(),
            flatten: a.flatten(),
            transparent: a.transparent(),
            custom_serde: a.serialize_with().is_some() || a.deserialize_with().is_some(),
            deprecated: has_deprecated(&field.original.attrs),
        }
    }

    /// The Rust name, for messages (`0` for tuple fields).
    pub fn display_name(&self) -> String {
        self.ident
            .as_ref()
            .map_or_else(|| self.de_name.clone(), ToString::to_string)
    }
}

impl<'a> Variant<'a> {
    fn new(variant: &ast::Variant<'a>, errors: &mut Errors) -> Variant<'a> {
        let a = &variant.attrs;
        Variant {
            ident: variant.ident.clone(),
            attrs: attr::variant(&variant.original.attrs, errors),
            description: docs::description(&variant.original.attrs),
            de_name: a.name().deserialize_name().value.clone(),
            ser_name: a.name().serialize_name().value.clone(),
            in_input: !a.skip_deserializing(),
            in_output: !a.skip_serializing(),
            untagged: a.untagged(),
            style: variant.style,
            fields: variant
                .fields
                .iter()
                .map(|f| Field::new(f, false, errors))
                .collect(),
        }
    }
}

fn has_deprecated(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|a| a.path().is_ident("deprecated"))
}
