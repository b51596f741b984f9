//! Read-only operations of the catalog offered as resources, the way a user chooses
//! (`Server::operations_as_resources`): a `GET` that needs no argument is a resource at
//! `toolwright://api/<api><path>`; a `GET` whose required arguments are all path
//! parameters is a resource template with those parameters as its variables (each
//! completable with the values its schema enumerates, or else its examples). Reading
//! one runs the tool through the executor — validation, authorization, the gate and
//! limits as for a call — and gives its JSON.

use std::sync::{Arc, RwLock};

use serde_json::{Map, Value};

use super::content::ResourceContents;
use super::documents::{Document, Reading, Template};
use crate::catalog::{Catalog, Tool};
use crate::descriptor::{Method, ParamLocation, ValueKind};
use crate::executor::Executor;
use crate::serve::mcp::budget;

/// The resources and templates `keep` chooses among `catalog`'s read-only `GET`s.
pub(super) fn offered(
    catalog: &Catalog,
    executor: &Arc<RwLock<Executor>>,
    keep: &dyn Fn(&Tool) -> bool,
    result_budget: usize,
) -> (Vec<Document>, Vec<Template>) {
    let (mut documents, mut templates) = (Vec::new(), Vec::new());
    for tool in catalog.tools() {
        let op = &tool.operation;
        let required_elsewhere = op
            .params
            .iter()
            .any(|p| p.required && p.location != ParamLocation::Path);
        if op.method != Method::Get
            || !tool.annotations.read_only
            || required_elsewhere
            || op.body_required
            || !keep(tool)
        {
            continue;
        }
        let mut uri = format!("toolwright://api/{}", op.api);
        let mut variables = Vec::new();
        let mut rest = op.path.as_ref();
        // `{wire}` placeholders become `{field}` variables (the tool's argument names).
        while let Some(open) = rest.find('{') {
            let Some(close) = rest[open..].find('}') else {
                break;
            };
            uri.push_str(&rest[..open]);
            let wire = &rest[open + 1..open + close];
            let field = op
                .params
                .iter()
                .find(|p| p.location == ParamLocation::Path && p.wire_name.as_ref() == wire)
                .map_or(wire, |p| p.field.as_ref());
            uri.push_str(&format!("{{{field}}}"));
            variables.push(field.to_owned());
            rest = &rest[open + close + 1..];
        }
        uri.push_str(rest);
        let name = tool.name.to_string();
        let kinds: Vec<(String, ValueKind)> = op
            .params
            .iter()
            .filter(|p| p.location == ParamLocation::Path)
            .map(|p| (p.field.to_string(), p.kind))
            .collect();
        let executor = Arc::clone(executor);
        let read = move |reading: Reading| {
            let (executor, name, kinds) = (Arc::clone(&executor), name.clone(), kinds.clone());
            async move {
                let args: Map<String, Value> = reading
                    .params
                    .into_iter()
                    .map(|(field, text)| {
                        let kind = kinds.iter().find(|(f, _)| *f == field).map(|(_, k)| *k);
                        (field, typed(&text, kind))
                    })
                    .collect();
                let executor = executor
                    .read()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .clone();
                // The catalog may have been replaced since: still a read-only GET?
                let still = executor
                    .catalog()
                    .get(&name)
                    .is_some_and(|t| t.operation.method == Method::Get && t.annotations.read_only);
                if !still {
                    return Err(format!("`{name}` is no longer a read-only GET operation"));
                }
                let schema = executor
                    .catalog()
                    .get(&name)
                    .map(|t| executor.catalog().input_schema_value(t))
                    .unwrap_or_default();
                let mut value = executor
                    .call(&name, Value::Object(args))
                    .await
                    .map_err(|e| e.to_string())?;
                // Cut to the result budget as a tool result is, with the same note.
                let note = budget::fit(&mut value, result_budget, &schema);
                let mut text = serde_json::to_string_pretty(&value).unwrap_or_default();
                if let Some(note) = note {
                    text = format!("{text}\n\n{note}");
                }
                Ok(vec![ResourceContents::text(
                    reading.uri,
                    "application/json",
                    text,
                )])
            }
        };
        let title = tool.title.to_string();
        let description = tool.description.to_string();
        if variables.is_empty() {
            let mut document = Document::read_with(uri, tool.name.to_string(), read)
                .title(title)
                .description(description)
                .mime_type("application/json");
            document.tool = Some(tool.name.to_string());
            documents.push(document);
        } else {
            let schema = catalog.input_schema_value(tool);
            let mut template = Template::new(uri, tool.name.to_string(), read)
                .title(title)
                .description(description)
                .mime_type("application/json");
            for variable in &variables {
                // What the source enumerates for it: its enum, else its examples.
                let values = ["enum", "examples"].iter().find_map(|key| {
                    schema
                        .pointer(&format!("/properties/{variable}/{key}"))
                        .and_then(Value::as_array)
                        .filter(|values| !values.is_empty())
                });
                if let Some(values) = values {
                    let values = values.iter().map(|v| match v {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    });
                    template = template.complete(variable.clone(), values);
                }
            }
            template.tool = Some(tool.name.to_string());
            templates.push(template);
        }
    }
    (documents, templates)
}

/// A path value as the argument type the tool takes (a number stays text when it is
/// not one: validation then names the argument).
fn typed(text: &str, kind: Option<ValueKind>) -> Value {
    let parsed = match kind {
        Some(ValueKind::Integer) => text.parse::<i64>().ok().map(Value::from),
        Some(ValueKind::Number) => text.parse::<f64>().ok().map(Value::from),
        Some(ValueKind::Boolean) => text.parse::<bool>().ok().map(Value::from),
        _ => None,
    };
    parsed.unwrap_or_else(|| Value::String(text.to_owned()))
}
