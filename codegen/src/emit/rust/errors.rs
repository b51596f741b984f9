//! `<Op>Error`: the typed bodies of the error statuses an operation documents, read from
//! a `toolwright::Error::Status` with `from_error`.
//!
//! Large APIs document the same few error shapes on most operations (GitHub: 797 error
//! types, 123 distinct — "404 with a `BasicError`" on 124 operations). Every enum costs
//! the user's build its derives and `from_error`, so operations whose errors have the
//! same statuses and body types share one enum, named after its statuses
//! (`Status403Or404Error`), and each operation's `<Op>Error` is an alias of it: user
//! code names, matches and calls `from_error` on `<Op>Error` as before. A shape only
//! one operation has stays an enum of that name.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use super::{TypeGen, by_specificity, names, status_pattern, status_variant};
use crate::ir::{self, Direction};

/// One operation's error enum, its types already made; written by [`emit`] once every
/// operation's is known.
pub(super) struct ErrorEnum {
    /// `<Op>Error`.
    name: String,
    /// The operation's type prefix, for its docs.
    pascal: String,
    variants: Vec<Variant>,
    /// The features the operation is behind.
    gate: Option<BTreeSet<String>>,
}

struct Variant {
    ident: String,
    /// The body's Rust type.
    ty: String,
    /// `404`, `400..=499`; `None` for `default`, matched last.
    pattern: Option<String>,
    doc: Option<String>,
}

/// What two operations must agree on to share an enum: each variant's name, body type
/// and status pattern.
type Shape<'a> = Vec<(&'a str, &'a str, Option<&'a str>)>;

impl ErrorEnum {
    fn shape(&self) -> Shape<'_> {
        self.variants
            .iter()
            .map(|v| (v.ident.as_str(), v.ty.as_str(), v.pattern.as_deref()))
            .collect()
    }
}

/// `op`'s error enum, or `None` when it documents no error body. Makes the bodies'
/// types now, so that they come in the operation's order.
pub(super) fn collect(
    types: &mut TypeGen<'_>,
    op_names: &names::OperationNames,
    op: &ir::Operation,
) -> Option<ErrorEnum> {
    let pascal = &op_names.pascal;
    let errors = op
        .responses
        .iter()
        .filter(|r| !r.status.starts_with('2') && r.schema.is_some());
    let variants: Vec<Variant> = by_specificity(errors)
        .into_iter()
        .filter_map(|r| {
            let schema = r.schema.as_deref()?;
            let name = status_variant(&r.status);
            Some(Variant {
                ident: names::ident(&name),
                ty: types.ty(schema, &format!("{pascal}{name}"), Direction::Output),
                pattern: status_pattern(&r.status),
                doc: r.description.clone(),
            })
        })
        .collect();
    (!variants.is_empty()).then(|| ErrorEnum {
        name: op_names.error.clone(),
        pascal: pascal.clone(),
        variants,
        gate: types.gate.clone(),
    })
}

/// Writes the operations' error types: an enum per shape that only one operation has,
/// otherwise one shared enum per shape and an alias per operation.
pub(super) fn emit(types: &mut TypeGen<'_>, errors: &[ErrorEnum]) {
    // Shapes in order of first use, so output follows the source.
    let mut order: Vec<Vec<&ErrorEnum>> = Vec::new();
    let mut group_of: BTreeMap<Shape<'_>, usize> = BTreeMap::new();
    for error in errors {
        let group = *group_of.entry(error.shape()).or_insert_with(|| {
            order.push(Vec::new());
            order.len() - 1
        });
        order[group].push(error);
    }
    let outer_gate = types.gate.take();
    for group in order {
        match group.as_slice() {
            [only] => {
                types.gate.clone_from(&only.gate);
                let doc = format!(
                    "The documented error bodies of `{}`, by status.",
                    only.pascal
                );
                let variants = variant_defs(&only.variants, |v| v.doc.clone());
                let impls = from_error(&names::ident(&only.name), &only.variants);
                types.status_enum(&only.name, &doc, &variants, &impls);
            }
            [first, ..] => shared(types, &group, first),
            [] => {}
        }
    }
    types.gate = outer_gate;
}

/// One enum for every operation in `group` (same shape as `first`), and an alias each.
fn shared(types: &mut TypeGen<'_>, group: &[&ErrorEnum], first: &ErrorEnum) {
    let statuses: Vec<&str> = first
        .variants
        .iter()
        .map(|v| v.ident.strip_prefix("Status").unwrap_or(&v.ident))
        .collect();
    let name = types
        .scope
        .claim(&format!("Status{}Error", statuses.join("Or")));
    let ident = names::ident(&name);
    let aliases: Vec<String> = group.iter().map(|e| format!("`{}`", e.name)).collect();
    let shown = aliases.len().min(4);
    let more = match aliases.len() - shown {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    let doc = format!(
        "Error bodies by status, shared by the {} operations that document these statuses \
         with these body types: their error types ({}{more}) are aliases of this one.",
        group.len(),
        aliases[..shown].join(", ")
    );
    // A variant's description where the operations agree on it; otherwise each
    // different one.
    let variants = variant_defs(&first.variants, |v| {
        let mut seen: Vec<&str> = Vec::new();
        for error in group {
            let same = error.variants.iter().find(|w| w.ident == v.ident);
            if let Some(doc) = same.and_then(|w| w.doc.as_deref())
                && !seen.contains(&doc)
            {
                seen.push(doc);
            }
        }
        (!seen.is_empty()).then(|| seen.join(" / "))
    });
    types.enum_item(&name, &doc, &variants, &from_error(&ident, &first.variants));
    for error in group {
        types.gate.clone_from(&error.gate);
        let listed: Vec<String> = error
            .variants
            .iter()
            .map(|v| {
                let status = v.ident.strip_prefix("Status").unwrap_or("default");
                match &v.doc {
                    Some(doc) => format!("`{status}`: {}", doc.trim().trim_end_matches('.')),
                    None => format!("`{status}`"),
                }
            })
            .collect();
        let doc = names::doc(
            &format!(
                "The documented error bodies of `{}`, by status ([`{ident}`]): {}.",
                error.pascal,
                listed.join("; ")
            ),
            "",
        );
        let alias = names::ident(&error.name);
        types.need(&alias, super::Needs::DESERIALIZE);
        types.push(
            &error.name,
            None,
            format!("{doc}pub type {alias} = {ident};\n"),
        );
    }
}

/// The enum's variants, each with the doc `doc` gives it.
fn variant_defs(variants: &[Variant], doc: impl Fn(&Variant) -> Option<String>) -> String {
    let mut defs = String::new();
    for v in variants {
        if let Some(text) = doc(v) {
            defs.push_str(&names::doc(&text, "    "));
        }
        let _ = writeln!(defs, "    {}({}),", v.ident, v.ty);
    }
    defs
}

/// `from_error` on `ident`: the variant of the error's status, when its body decodes.
fn from_error(ident: &str, variants: &[Variant]) -> String {
    let mut arms = String::new();
    let mut fallback = "::std::option::Option::None".to_owned();
    for v in variants {
        let decode = format!(
            "::toolwright::__private::serde_json::from_value(body.clone()).ok().map(Self::{})",
            v.ident
        );
        match &v.pattern {
            Some(pattern) => {
                let _ = writeln!(arms, "            {pattern} => {decode},");
            }
            None => fallback = decode,
        }
    }
    let lookup = if arms.is_empty() {
        format!("        let _ = status;\n        {fallback}\n")
    } else {
        format!("        match *status {{\n{arms}            _ => {fallback},\n        }}\n")
    };
    format!(
        "impl {ident} {{\n    \
         /// The typed body of `error` when it is an error status documented here and the\n    \
         /// body fits; `None` otherwise.\n    \
         pub fn from_error(error: &::toolwright::Error) -> ::std::option::Option<Self> {{\n        \
         let ::toolwright::Error::Status {{ status, body, .. }} = error else {{\n            \
         return ::std::option::Option::None;\n        }};\n\
         {lookup}    }}\n}}\n"
    )
}
