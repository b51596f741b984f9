//! Rules across attributes, one function per rule, run after parsing so that every
//! violation of a type is reported in one build.

use std::collections::BTreeMap;

use crate::attr::Errors;
use crate::model::{Field, Item, Shape};
use crate::types;

pub fn check(item: &Item, errors: &mut Errors) {
    let fields: Vec<&Field> = match &item.shape {
        Shape::Struct(_, fields) => fields.iter().collect(),
        Shape::Enum(_, variants) => variants.iter().flat_map(|v| &v.fields).collect(),
    };
    for field in &fields {
        unsupported_type(field, errors);
        conflicting_roles(field, errors);
        keyword_fits_type(field, errors);
        bounds_in_order(field, errors);
    }
    match &item.shape {
        Shape::Struct(..) => {
            rename_collisions(item.named_fields(), errors);
            roles_need_a_resource(item, &fields, errors);
        }
        Shape::Enum(_, variants) => {
            for variant in variants {
                rename_collisions(&variant.fields, errors);
            }
            roles_only_on_structs(&fields, errors);
        }
    }
    binding_pairs(item, errors);
}

/// Raw pointers, function pointers and trait objects can never be described: say so on
/// the type rather than as a missing trait implementation.
fn unsupported_type(field: &Field, errors: &mut Errors) {
    if !(field.in_input || field.in_output) {
        return;
    }
    if let Some(why) = types::unsupported(field.ty) {
        errors.spanned(
            field.ty,
            format!(
                "unsupported type for field `{}`: {why}",
                field.display_name()
            ),
        );
    }
}

/// A field cannot be both sent only by the server and only by the client, and roles
/// need the field on the wire.
fn conflicting_roles(field: &Field, errors: &mut Errors) {
    let a = &field.attrs;
    if let (Some(_), Some(span)) = (a.read_only.get(), a.write_only.span) {
        errors.at(span, format!("conflicting tool attributes on `{}`: `read_only` and `write_only` exclude each other", field.display_name()));
    }
    if let (Some(_), Some(span)) = (a.created_time.get(), a.updated_time.span) {
        errors.at(span, format!("conflicting tool attributes on `{}`: a field is either `created_time` or `updated_time`", field.display_name()));
    }
    if let Some(span) = a.primary_key.span {
        if !(field.in_input && field.in_output) {
            errors.at(span, format!("conflicting attributes on `{}`: a `primary_key` must be serialized and deserialized, but serde skips it", field.display_name()));
        }
        if let Some(write_only) = a.write_only.span {
            errors.at(write_only, format!("conflicting tool attributes on `{}`: a `primary_key` is returned, so it cannot be `write_only`", field.display_name()));
        }
        if types::option_inner(field.ty).is_some() {
            errors.spanned(
                field.ty,
                format!(
                    "the primary key `{}` cannot be an `Option`: every record has one",
                    field.display_name()
                ),
            );
        }
    }
    let role = [
        &a.primary_key.span,
        &a.created_time.span,
        &a.updated_time.span,
        &a.read_only.span,
    ]
    .into_iter()
    .find_map(|s| *s);
    if field.flatten
        && let Some(span) = role
    {
        errors.at(span, format!("conflicting attributes on `{}`: a `#[serde(flatten)]` field has no property of its own to give a role", field.display_name()));
    }
}

/// `minimum` on a string, `pattern` on a number: the keyword would never apply.
fn keyword_fits_type(field: &Field, errors: &mut Errors) {
    let Some(json) = types::json_type(field.ty) else {
        return;
    };
    let a = &field.attrs;
    let numeric = json == "integer" || json == "number";
    for (name, span) in [("minimum", a.minimum.span), ("maximum", a.maximum.span)] {
        if let Some(span) = span.filter(|_| !numeric) {
            errors.at(
                span,
                format!(
                    "`{name}` applies to numbers, but `{}` is a {json}{}",
                    field.display_name(),
                    if json == "string" {
                        "; use `min_length` / `max_length`"
                    } else {
                        ""
                    }
                ),
            );
        }
    }
    for (name, span) in [
        ("min_length", a.min_length.span),
        ("max_length", a.max_length.span),
        ("pattern", a.pattern.span),
    ] {
        if let Some(span) = span.filter(|_| json != "string") {
            errors.at(
                span,
                format!(
                    "`{name}` applies to strings, but `{}` is a{} {json}",
                    field.display_name(),
                    if json == "integer" || json == "array" || json == "object" {
                        "n"
                    } else {
                        ""
                    }
                ),
            );
        }
    }
}

fn bounds_in_order(field: &Field, errors: &mut Errors) {
    let a = &field.attrs;
    if let (Some(min), Some(max)) = (a.minimum.get(), a.maximum.get())
        && min.value > max.value
    {
        errors.spanned(
            &max.expr,
            format!(
                "conflicting bounds on `{}`: `minimum` ({}) is above `maximum` ({})",
                field.display_name(),
                min.value,
                max.value
            ),
        );
    }
    if let (Some(min), Some(max)) = (a.min_length.get(), a.max_length.get()) {
        let (lo, hi): (u64, u64) = (
            min.base10_parse().unwrap_or(0),
            max.base10_parse().unwrap_or(u64::MAX),
        );
        if lo > hi {
            errors.spanned(
                max,
                format!(
                    "conflicting bounds on `{}`: `min_length` ({lo}) is above `max_length` ({hi})",
                    field.display_name()
                ),
            );
        }
    }
}

/// Two fields that end up with the same property name (after `rename`/`rename_all`):
/// the schema could describe only one, and serde would read the same key twice.
fn rename_collisions(fields: &[Field], errors: &mut Errors) {
    for (direction, name_of, present) in [
        (
            "input",
            (|f: &Field| f.de_name.clone()) as fn(&Field) -> String,
            (|f: &Field| f.in_input) as fn(&Field) -> bool,
        ),
        (
            "output",
            |f: &Field| f.ser_name.clone(),
            |f: &Field| f.in_output,
        ),
    ] {
        let mut seen: BTreeMap<String, &Field> = BTreeMap::new();
        let same_names = fields
            .iter()
            .all(|f| f.de_name == f.ser_name && f.in_input == f.in_output);
        if direction == "output" && same_names {
            // Already reported for the input schema.
            continue;
        }
        for field in fields
            .iter()
            .filter(|f| present(f) && !f.flatten && f.ident.is_some())
        {
            let name = name_of(field);
            if let Some(first) = seen.get(&name) {
                errors.spanned(
                    field.ident.as_ref(),
                    format!(
                        "rename collision: fields `{}` and `{}` are both serialized as `{name}` (in the {direction} schema); rename one of them",
                        first.display_name(),
                        field.display_name()
                    ),
                );
            } else {
                seen.insert(name, field);
            }
        }
    }
}

fn roles_only_on_structs(fields: &[&Field], errors: &mut Errors) {
    for field in fields {
        let a = &field.attrs;
        for span in [a.primary_key.span, a.created_time.span, a.updated_time.span]
            .into_iter()
            .flatten()
        {
            errors.at(span, "field roles (`primary_key`, `created_time`, `updated_time`) apply to the fields of a resource struct, not to enum variants");
        }
    }
}

/// Resource roles mean something only to a resource's verbs: on a plain struct they
/// would be silently ignored.
fn roles_need_a_resource(item: &Item, fields: &[&Field], errors: &mut Errors) {
    // A resource's companions (`<Type>Draft`, `<Type>Patch`) carry its fields' roles.
    if item.attrs.resource.get().is_some() || item.attrs.companion.get().is_some() {
        return;
    }
    for field in fields {
        let a = &field.attrs;
        for (span, role) in [
            (a.primary_key.span, "primary_key"),
            (a.created_time.span, "created_time"),
            (a.updated_time.span, "updated_time"),
        ] {
            if let Some(span) = span {
                errors.at(span, format!("`{role}` is a resource role, but this type is no resource: add `#[tool(resource(get, ...))]` to the type, or remove `{role}`"));
            }
        }
    }
}

/// `adapter`/`openapi` name where an operation lives, `operation` which one: all or none.
fn binding_pairs(item: &Item, errors: &mut Errors) {
    let a = &item.attrs;
    if let (Some(_), Some(span)) = (a.adapter.get(), a.openapi.span) {
        errors.at(span, "conflicting tool attributes: bind a type to an `adapter` operation or an `openapi` one, not both");
    }
    let source = a.adapter.span.or(a.openapi.span);
    match (source, a.operation.span) {
        (Some(span), None) => errors.at(span, "missing `operation = \"...\"`: name the operation this type is the input of"),
        (None, Some(span)) => errors.at(span, "`operation` needs `adapter = \"<name or path>\"` or `openapi = \"<path>\"` to say where the operation is declared"),
        _ => {}
    }
}
