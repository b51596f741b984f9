//! `#[tool(adapter = "...", operation = "...")]` (or `openapi = "path"`): the type is the
//! input of a declared operation, checked at compile time the way sqlx checks queries.
//! The file is read relative to `CARGO_MANIFEST_DIR` with the same reader the build
//! uses, and every disagreement is an error on the user's field, naming the file:line
//! of the parameter. `include_bytes!` of the file makes cargo rebuild when it changes.

use std::path::{Path, PathBuf};

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::LitStr;
use toolwright_codegen::ir::{self, SchemaType};

use crate::attr::Errors;
use crate::model::{Field, Item};
use crate::types;

pub fn expand(item: &Item, errors: &mut Errors) -> TokenStream {
    let a = &item.attrs;
    let (Some(source), Some(operation)) = (a.adapter.get().or(a.openapi.get()), a.operation.get())
    else {
        return TokenStream::new();
    };
    let openapi = a.openapi.get().is_some();
    let Ok(root) = std::env::var("CARGO_MANIFEST_DIR").map(PathBuf::from) else {
        errors.spanned(
            source,
            "CARGO_MANIFEST_DIR is not set; build with cargo to check against a declared operation",
        );
        return TokenStream::new();
    };
    let (path, root) = match resolve(&root, source, openapi) {
        Ok(found) => found,
        Err(message) => {
            errors.spanned(source, message);
            return TokenStream::new();
        }
    };
    let shown = path
        .strip_prefix(&root)
        .unwrap_or(&path)
        .display()
        .to_string();
    let analysis = toolwright_codegen::analyze(std::slice::from_ref(&path), false);
    if let Some(first) = analysis
        .diagnostics
        .iter()
        .find(|d| d.severity == toolwright_codegen::diagnostics::Severity::Error)
    {
        let at = first
            .location
            .as_ref()
            .map(|l| relative(&l.display(), &root))
            .unwrap_or_else(|| shown.clone());
        errors.spanned(
            source,
            format!(
                "`{shown}` has errors, so `{}` cannot be checked against it: {at}: {}",
                item.ident, first.message
            ),
        );
        return TokenStream::new();
    }
    let wanted = operation.value();
    let found = analysis
        .apis
        .iter()
        .flat_map(|api| &api.operations)
        .find(|op| {
            op.name == wanted
                || op.meta.get("operationId").and_then(|v| v.as_str()) == Some(&wanted)
        });
    let Some(op) = found else {
        let names: Vec<&str> = analysis
            .apis
            .iter()
            .flat_map(|api| &api.operations)
            .map(|op| op.name.as_str())
            .collect();
        errors.spanned(
            operation,
            format!(
                "`{shown}` has no operation `{wanted}`; it has: {}",
                names.join(", ")
            ),
        );
        return TokenStream::new();
    };
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let place = |param: Option<&ir::Param>| -> String {
        if let Some(location) = param.map_or(op.source.as_ref(), |p| p.source.as_ref()) {
            return relative(&location.display(), &root);
        }
        let (line, col) = find_in_text(&text, &op.name, param.map(|p| p.name.as_str()));
        format!("{shown}:{line}:{col}")
    };
    compare(item, op, &place, errors);
    let tracked = path.display().to_string();
    quote! {
        const _: &[u8] = include_bytes!(#tracked);
    }
}

/// An adapter by name (`tracker` → the one `tracker-adapter.md` under the crate) or
/// by path; an OpenAPI document by path. Paths are relative to the crate's directory,
/// or to the nearest ancestor that has them (a workspace root). Returns the file and
/// the directory its path is relative to.
fn resolve(root: &Path, source: &LitStr, openapi: bool) -> Result<(PathBuf, PathBuf), String> {
    let value = source.value();
    if openapi || value.contains('/') || value.ends_with(".md") {
        return root
            .ancestors()
            .find(|dir| dir.join(&value).is_file())
            .map(|dir| (dir.join(&value), dir.to_owned()))
            .ok_or_else(|| format!("no file `{value}` in the crate's directory or its ancestors (paths are relative to {})", root.display()));
    }
    let wanted = format!("{value}-adapter.md");
    let mut found = Vec::new();
    search(root, &wanted, 0, &mut found);
    found.sort();
    match found.len() {
        1 => Ok((found.remove(0), root.to_owned())),
        0 => Err(format!(
            "no `{wanted}` under {}; give the adapter's path (`adapter = \"adapters/{wanted}\"`)",
            root.display()
        )),
        _ => Err(format!(
            "several `{wanted}` files under the crate ({}); give the path instead",
            found
                .iter()
                .map(|p| p.strip_prefix(root).unwrap_or(p).display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

fn search(dir: &Path, wanted: &str, depth: usize, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if depth < 6 && !name.starts_with('.') && name != "target" && name != "node_modules" {
                search(&path, wanted, depth + 1, found);
            }
        } else if name == wanted {
            found.push(path);
        }
    }
}

fn relative(display: &str, root: &Path) -> String {
    let prefix = format!("{}/", root.display());
    display.strip_prefix(&prefix).unwrap_or(display).to_owned()
}

/// Line and column of an OpenAPI operation (its `operationId`) or of a parameter's
/// `name` after it; the reader keeps no positions for large JSON documents.
fn find_in_text(text: &str, operation: &str, param: Option<&str>) -> (usize, usize) {
    let op_at = text
        .find(&format!("operationId: {operation}"))
        .or_else(|| text.find(&format!("\"operationId\": \"{operation}\"")))
        .or_else(|| text.find(&format!("operationId: \"{operation}\"")))
        .unwrap_or(0);
    let at = param
        .and_then(|p| {
            let rest = &text[op_at..];
            [
                format!("name: {p}"),
                format!("name: \"{p}\""),
                format!("\"name\": \"{p}\""),
                format!("{p}:"),
            ]
            .iter()
            .filter_map(|needle| {
                rest.match_indices(needle.as_str())
                    .find(|(i, m)| {
                        let next = rest[i + m.len()..].chars().next();
                        !next.is_some_and(|c| c.is_alphanumeric() || c == '_')
                    })
                    .map(|(i, _)| i)
            })
            .min()
            .map(|i| op_at + i)
        })
        .unwrap_or(op_at);
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

fn type_name(ty: SchemaType) -> Option<&'static str> {
    ty.as_str()
}

fn compare(
    item: &Item,
    op: &ir::Operation,
    place: &dyn Fn(Option<&ir::Param>) -> String,
    errors: &mut Errors,
) {
    let fields: Vec<&Field> = item
        .named_fields()
        .iter()
        .filter(|f| f.in_input && !f.flatten)
        .collect();
    let param_of = |f: &Field| {
        op.params
            .iter()
            .find(|p| p.field == f.de_name || p.name == f.de_name)
    };
    let names: Vec<&str> = op.params.iter().map(|p| p.field.as_str()).collect();
    for field in &fields {
        let span = field
            .ident
            .as_ref()
            .map_or_else(Span::call_site, syn::Ident::span);
        let Some(param) = param_of(field) else {
            errors.at(
                span,
                format!(
                    "field `{}` is not a parameter of operation `{}` ({}); its parameters are: {}",
                    field.de_name,
                    op.name,
                    place(None),
                    names.join(", ")
                ),
            );
            continue;
        };
        let declared = type_name(param.schema.ty);
        let actual = types::json_type(field.ty);
        if let (Some(declared), Some(actual)) = (declared, actual)
            && declared != actual
            && !(declared == "number" && actual == "integer")
        {
            errors.spanned(field.ty, format!(
                "type mismatch for `{}`: the parameter is declared `{declared}` at {}, but the field's type is {} `{actual}`",
                field.de_name, place(Some(param)), if actual == "integer" || actual == "array" || actual == "object" { "an" } else { "a" }
            ));
        }
        let optional = types::option_inner(field.ty).is_some() || field.has_default;
        if param.required && optional {
            errors.spanned(field.ty, format!(
                "`{}` is required by operation `{}` ({}), but the field is optional; drop the `Option` (or `#[serde(default)]`)",
                field.de_name, op.name, place(Some(param))
            ));
        } else if !param.required && !optional {
            errors.spanned(field.ty, format!(
                "`{}` is optional in operation `{}` ({}), but the field is required; make it an `Option<_>` or add `#[serde(default)]`",
                field.de_name, op.name, place(Some(param))
            ));
        }
    }
    for param in op.params.iter().filter(|p| p.required) {
        if !fields
            .iter()
            .any(|f| param_of(f).is_some_and(|p| std::ptr::eq(p, param)))
        {
            errors.spanned(&item.ident, format!(
                "missing required parameter `{}` of operation `{}` (declared at {}); add a field for it",
                param.field, op.name, place(Some(param))
            ));
        }
    }
}
