//! Adapter ↔ OpenAPI drift: an adapter that describes the same API as an OpenAPI
//! document (its companion `{name}-adapter-openapi.yaml`, or a pair given to
//! `Config::pair`) is compared with it, operation by operation and parameter by
//! parameter, and every disagreement is a located warning (TW140): an operation only
//! one of them has, another method or path, a parameter only one of them takes, placed
//! elsewhere, of another type, or required in one only.
//!
//! Operations are matched by method and path shape (`/issues/{number}` and
//! `/issues/{id}` are the same path), then by name; parameters by their wire name.

use std::collections::{BTreeMap, BTreeSet};

use crate::diagnostics::{Diagnostic, Diagnostics, Location, codes};
use crate::ir::{self, ParamLocation, SchemaType};

/// `/a/{x}/b` → `/a/{}/b`: paths that differ only in placeholder names are the same.
fn shape(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut depth = 0;
    for c in path.trim_end_matches('/').chars() {
        match c {
            '{' => {
                depth += 1;
                out.push('{');
            }
            '}' => {
                depth -= 1;
                out.push('}');
            }
            _ if depth > 0 => {}
            _ => out.push(c),
        }
    }
    out
}

fn kind(t: SchemaType) -> &'static str {
    t.as_str().unwrap_or("any")
}

fn place(l: ParamLocation) -> &'static str {
    match l {
        ParamLocation::Body | ParamLocation::RequestBody => "body",
        other => other.as_str(),
    }
}

/// Compares `adapter` with `openapi`, the same API described twice.
pub fn compare(adapter: &ir::Api, openapi: &ir::Api, diagnostics: &mut Diagnostics) {
    let other = openapi.source.as_ref().map_or_else(
        || "the OpenAPI document".to_owned(),
        |l| format!("`{}`", l.file.path),
    );
    let warn = |at: Option<&Location>, message: String, help: &str| {
        let mut d = Diagnostic::warning(codes::DRIFT, message).help(help.to_owned());
        if let Some(at) = at {
            d = d.at(at.clone());
        }
        d
    };
    let by_route: BTreeMap<(&str, String), &ir::Operation> = openapi
        .operations
        .iter()
        .map(|op| ((op.method.as_str(), shape(&op.path)), op))
        .collect();
    let by_name: BTreeMap<&str, &ir::Operation> = openapi
        .operations
        .iter()
        .map(|op| (op.name.as_str(), op))
        .collect();
    let mut matched = BTreeSet::new();
    for op in &adapter.operations {
        let route = (op.method.as_str(), shape(&op.path));
        let twin = match by_route.get(&route) {
            Some(twin) => Some(*twin),
            None => {
                let twin = by_name.get(op.name.as_str()).copied();
                let message = match twin {
                    Some(twin) => format!(
                        "`{}` maps to `{} {}`, but {other} has it at `{} {}`",
                        op.name,
                        op.method.as_str(),
                        op.path,
                        twin.method.as_str(),
                        twin.path
                    ),
                    None => format!(
                        "`{}` (`{} {}`) is not in {other}",
                        op.name,
                        op.method.as_str(),
                        op.path
                    ),
                };
                diagnostics.push(warn(
                    op.source.as_ref(),
                    message,
                    "make the adapter's `maps_to` and the OpenAPI document agree",
                ));
                twin
            }
        };
        if let Some(twin) = twin {
            matched.insert(twin.name.as_str());
            params(op, twin, &other, diagnostics, &warn);
        }
    }
    // Where each OpenAPI operation is written, for the ones the adapter lacks.
    let raw = openapi
        .source
        .as_ref()
        .and_then(|l| Some((l, crate::source::openapi::raw(&l.file)?)));
    for op in openapi
        .operations
        .iter()
        .filter(|op| !matched.contains(op.name.as_str()))
    {
        let at = raw.as_ref().and_then(|(l, raw)| {
            let span = raw
                .operations
                .get(&(op.path.clone(), op.method.as_str().to_ascii_lowercase()))?;
            Some(Location {
                file: std::sync::Arc::clone(&l.file),
                span: span.start..span.start + op.method.as_str().len(),
            })
        });
        diagnostics.push(warn(
            at.as_ref().or(adapter.source.as_ref()),
            format!(
                "{other} has `{} {}` (`{}`), which adapter `{}` does not map",
                op.method.as_str(),
                op.path,
                op.name,
                adapter.name
            ),
            "add it to the adapter's operations, or remove it from the OpenAPI document",
        ));
    }
}

fn params(
    op: &ir::Operation,
    twin: &ir::Operation,
    other: &str,
    diagnostics: &mut Diagnostics,
    warn: &impl Fn(Option<&Location>, String, &str) -> Diagnostic,
) {
    let theirs: BTreeMap<&str, &ir::Param> =
        twin.params.iter().map(|p| (p.name.as_str(), p)).collect();
    let mut seen = BTreeSet::new();
    for p in &op.params {
        let at = p.source.as_ref().or(op.source.as_ref());
        let Some(t) = theirs.get(p.name.as_str()) else {
            diagnostics.push(warn(
                at,
                format!(
                    "`{}` takes `{}` ({}), which {other} does not declare for `{} {}`",
                    op.name,
                    p.name,
                    place(p.location),
                    twin.method.as_str(),
                    twin.path
                ),
                "declare the parameter in both, or in neither",
            ));
            continue;
        };
        seen.insert(t.name.as_str());
        if place(p.location) != place(t.location) {
            diagnostics.push(warn(
                at,
                format!(
                    "`{}`: `{}` goes in the {} here, in the {} in {other}",
                    op.name,
                    p.name,
                    place(p.location),
                    place(t.location)
                ),
                "place the parameter the same way in both (`in:` in the adapter)",
            ));
        }
        let (mine, yours) = (p.schema.ty, t.schema.ty);
        if mine != yours && mine != SchemaType::Any && yours != SchemaType::Any {
            diagnostics.push(warn(
                at,
                format!(
                    "`{}`: `{}` is {} here, {} in {other}",
                    op.name,
                    p.name,
                    kind(mine),
                    kind(yours)
                ),
                "give the parameter the same type in both",
            ));
        }
        if p.required != t.required {
            diagnostics.push(warn(
                at,
                format!(
                    "`{}`: `{}` is {} here, {} in {other}",
                    op.name,
                    p.name,
                    if p.required { "required" } else { "optional" },
                    if t.required { "required" } else { "optional" }
                ),
                "make the parameter required in both, or optional in both",
            ));
        }
    }
    for t in twin
        .params
        .iter()
        .filter(|t| !seen.contains(t.name.as_str()))
    {
        diagnostics.push(warn(
            op.source.as_ref(),
            format!(
                "{other} declares `{}` ({}{}) for `{} {}`, which `{}` does not take",
                t.name,
                place(t.location),
                if t.required { ", required" } else { "" },
                twin.method.as_str(),
                twin.path,
                op.name
            ),
            "add the parameter to the adapter's `params`, or remove it from the OpenAPI document",
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_compare_by_shape() {
        assert_eq!(shape("/issues/{number}/"), shape("/issues/{id}"));
        assert_ne!(shape("/issues/{n}"), shape("/issue/{n}"));
    }
}
