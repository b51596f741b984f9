//! Parameter specs (`{ type: string, required: true, ... }`) into IR schemas. The same
//! reader serves params, array `items`, nested `properties` and response `schema`s.

use std::ops::Range;

use serde_json::Value;

use super::fields::Reader;
use crate::diagnostics::{Diagnostic, codes};
use crate::ir::{ParamLocation, Schema, SchemaType};
use crate::source::yaml::{Node, NodeValue};

/// A parameter as written.
pub struct Spec {
    pub schema: Schema,
    pub required: bool,
    /// `in:` if given (our extension), with its span.
    pub location: Option<(ParamLocation, Range<usize>)>,
    pub span: Range<usize>,
}

const KNOWN: &[&str] = &[
    "type",
    "required",
    "description",
    "default",
    "enum",
    "minimum",
    "maximum",
    "pattern",
    "format",
    "in",
    "items",
    "properties",
];

/// Reads one spec. `name` is used in messages.
pub fn spec(r: &mut Reader<'_>, name: &str, node: &Node) -> Option<Spec> {
    let mut f = r.fields(node, "parameter")?;
    let ty = match f.get("type") {
        Some(t) => match t
            .as_str()
            .and_then(|s| SchemaType::ALL.iter().find(|(n, _)| *n == s))
        {
            Some((_, ty)) => *ty,
            None => {
                r.push(
                    Diagnostic::error(
                        codes::PARAM_TYPE,
                        format!("unknown type {} for `{name}`", describe(t)),
                    )
                    .at(r.location(t.span.clone()))
                    .help("use one of: string, integer, number, boolean, array, object"),
                );
                SchemaType::Any
            }
        },
        None => {
            r.push(
                Diagnostic::warning(
                    codes::MISSING_FIELD,
                    format!("`{name}` has no `type`; assuming string"),
                )
                .at(r.location(node.span.clone()))
                .help("add `type: string` (or integer, number, boolean, array, object)"),
            );
            SchemaType::String
        }
    };
    let mut schema = Schema::of(ty);
    let required = match f.get("required") {
        None => false,
        Some(Node {
            value: NodeValue::Bool(b),
            ..
        }) => *b,
        Some(other) => {
            r.push(
                Diagnostic::error(codes::REQUIRED_NOT_BOOL, format!("`required` of `{name}` must be true or false"))
                    .at(r.location(other.span.clone()))
                    .label(format!("found {}", describe(other)))
                    .help("write `required: true` or `required: false` (YAML 1.2: `yes`/`no` are strings)"),
            );
            false
        }
    };
    schema.description = r.opt_str(&mut f, "description").map(|t| t.value);
    schema.format = r.opt_str(&mut f, "format").map(|t| t.value);
    let pattern = r.opt_str(&mut f, "pattern");
    if let Some((p, why)) = pattern
        .as_ref()
        .and_then(|p| Some((p, crate::ir::unchecked_pattern(&p.value)?)))
    {
        r.push(
            Diagnostic::warning(
                codes::SCHEMA,
                format!("`pattern` of `{name}` is kept but not checked at run time: {why}"),
            )
            .at(r.location(p.span.clone()))
            .help("write it without look-around or back-references if calls should be checked against it"),
        );
    }
    schema.pattern = pattern.map(|t| t.value);
    for (key, slot) in [
        ("minimum", &mut schema.minimum),
        ("maximum", &mut schema.maximum),
    ] {
        if let Some(n) = f.get(key) {
            match n.value {
                NodeValue::Int(_) | NodeValue::UInt(_) | NodeValue::Float(_) => {
                    warn_if_lossy(r, key, n);
                    *slot = Some(Box::new(n.to_json()));
                }
                _ => r.wrong_type(n, key, "a number"),
            }
        }
    }
    if let Some(e) = f.get("enum") {
        match &e.value {
            NodeValue::Seq(items) => {
                for item in items {
                    warn_if_lossy(r, "enum", item);
                    check_fits(r, name, "enum value", item, ty);
                    schema.enum_values.push(item.to_json());
                }
            }
            _ => r.wrong_type(e, "enum", "a list of allowed values"),
        }
    }
    if let Some(d) = f.get("default") {
        warn_if_lossy(r, "default", d);
        check_fits(r, name, "default", d, ty);
        schema.default = Some(Box::new(d.to_json()));
    }
    let location = r.opt_str(&mut f, "in").and_then(|t| {
        match ParamLocation::ALL.iter().find(|(n, _)| *n == t.value) {
            Some((_, loc)) => Some((*loc, t.span)),
            None => {
                r.push(
                    Diagnostic::error(
                        codes::UNKNOWN_VALUE,
                        format!("unknown parameter location `{}`", t.value),
                    )
                    .at(r.location(t.span))
                    .help("use one of: path, query, header, cookie, body"),
                );
                None
            }
        }
    });
    if let Some(items) = f.get("items") {
        if ty != SchemaType::Array {
            r.wrong_type(items, "items", "used only with `type: array`");
        }
        if let Some(item) = spec(r, &format!("{name}[]"), items) {
            schema.items = Some(Box::new(item.schema));
        }
    } else if ty == SchemaType::Array {
        schema.items = Some(Box::new(Schema::of(SchemaType::String)));
        r.push(
            Diagnostic::warning(
                codes::MISSING_FIELD,
                format!("array `{name}` has no `items`; assuming strings"),
            )
            .at(r.location(node.span.clone()))
            .help("add `items: { type: string }` (or the item type)"),
        );
    }
    if let Some(props) = f.get("properties")
        && let Some(mut pf) = r.fields(props, "properties")
    {
        pf.use_all();
        let entries: Vec<(String, Node)> = pf
            .entries()
            .map(|(k, _, v)| (k.to_owned(), v.clone()))
            .collect();
        for (prop, value) in entries {
            if let Some(s) = spec(r, &format!("{name}.{prop}"), &value) {
                if s.required {
                    schema.required.push(prop.clone());
                }
                schema.properties.push((prop, s.schema));
            }
        }
    }
    // Unknown keys (warned about) stay on the schema as extra keywords.
    schema.extensions = r.finish(f, KNOWN);
    Some(Spec {
        schema,
        required,
        location,
        span: node.span.clone(),
    })
}

fn describe(node: &Node) -> String {
    match &node.value {
        NodeValue::Str(s) => format!("`{s}`"),
        _ => node.kind().to_owned(),
    }
}

/// Warns when an `enum` value or `default` does not fit the declared type; the value
/// is kept (sloppy sources keep working).
fn check_fits(r: &mut Reader<'_>, name: &str, what: &str, node: &Node, ty: SchemaType) {
    let value: Value = node.to_json();
    if !ty.accepts(&value) {
        r.push(
            Diagnostic::warning(
                codes::VALUE_MISMATCH,
                format!(
                    "{what} of `{name}` does not fit its type `{}`",
                    ty.as_str().unwrap_or("any")
                ),
            )
            .at(r.location(node.span.clone()))
            .label(format!("found {}", node.kind()))
            .help("change the value or the parameter's `type`; the value is kept as written"),
        );
    }
}

/// A number no 64-bit integer holds was read as a float: say so where it is written.
fn warn_if_lossy(r: &mut Reader<'_>, key: &str, node: &Node) {
    let value = node.to_json();
    if crate::ir::exceeds_64_bits(&value) {
        r.push(
            Diagnostic::warning(
                codes::VALUE_MISMATCH,
                format!(
                    "`{key}` is beyond the 64-bit integer range; it is kept as the float `{value}`"
                ),
            )
            .at(r.location(node.span.clone()))
            .help("use a value within 64 bits, or a string if it is an identifier"),
        );
    }
}
