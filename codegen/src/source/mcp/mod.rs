//! MCP servers as a source: a saved `tools/list` result (`{"tools": [...]}`, the
//! JSON-RPC response holding it, or `toolwright mcp-snapshot`'s file, which adds the
//! server's info, prompts and resources) into the IR.
//!
//! As with Google Discovery, the tools are rewritten as the OpenAPI 3.1 document that
//! says the same thing and read by the OpenAPI reader: each tool is `POST
//! /tools/{name}` whose JSON body is its `inputSchema` (one argument per property) and
//! whose response is its `outputSchema`; a schema's own `$defs` become shared
//! definitions (`<tool>.<def>`). Annotations become hints (`readOnlyHint`,
//! `destructiveHint`, `idempotentHint`, `openWorldHint` — declared, so not derived
//! from the method); everything else a tool says (`title`, `icons`, `_meta`, …) and the
//! server's prompts and resources are kept as native metadata. The API's base URL is
//! `mcp://<api>`: the executor sends its tools through the MCP client the service
//! registers for it (`ExecutorBuilder::mcp_stdio`) as `tools/call`.

pub mod live;

use std::sync::Arc;

use serde_json::{Map, Value, json};

use crate::diagnostics::{Diagnostics, Location, SourceFile};
use crate::ir;
use crate::source::openapi::{self, escape, locate::Locator};

/// The tools of a saved `tools/list`, wherever the file keeps them.
fn tools(root: &Value) -> Option<&Vec<Value>> {
    root.get("tools")
        .or_else(|| root.pointer("/result/tools"))
        .and_then(Value::as_array)
}

/// Whether a parsed JSON document is a saved MCP `tools/list`.
pub fn is_tools_list(root: &Value) -> bool {
    tools(root).is_some() && root.get("openapi").is_none() && root.get("paths").is_none()
}

/// Whether a file's head looks like a saved `tools/list`.
pub fn looks_like(path: &std::path::Path, head: &str) -> bool {
    path.extension().is_some_and(|e| e == "json")
        && head.contains("\"tools\"")
        && head.contains("\"inputSchema\"")
}

/// Reads a parsed `tools/list`.
pub fn read(
    file: &Arc<SourceFile>,
    root: &Value,
    diagnostics: &mut Diagnostics,
) -> Option<ir::Api> {
    let base = if root.get("tools").is_some() {
        ""
    } else {
        "/result"
    };
    let list = tools(root)?;
    let mut paths = Map::new();
    let mut schemas = Map::new();
    let mut prefixes = Vec::new();
    let mut spans = Vec::new();
    for (i, tool) in list.iter().enumerate() {
        let at = format!("{base}/tools/{i}");
        let Some(name) = tool.get("name").and_then(Value::as_str) else {
            diagnostics.push(
                crate::diagnostics::Diagnostic::warning(
                    crate::diagnostics::codes::UNSUPPORTED,
                    "a tool without a `name`; skipped",
                )
                .at(Location {
                    file: Arc::clone(file),
                    span: Locator::Json.locate(&file.text, &at),
                })
                .help("every tool of a `tools/list` result needs a name"),
            );
            continue;
        };
        let path = format!("/tools/{name}");
        let op_pointer = format!("/paths/{}/post", escape(&path));
        prefixes.push((op_pointer.clone(), at.clone()));
        prefixes.push((
            format!("{op_pointer}/requestBody/content/application~1json/schema"),
            format!("{at}/inputSchema"),
        ));
        prefixes.push((
            format!("{op_pointer}/responses/200/content/application~1json/schema"),
            format!("{at}/outputSchema"),
        ));
        let input = hoist(
            name,
            tool.get("inputSchema"),
            &mut schemas,
            &mut prefixes,
            &at,
            "inputSchema",
        );
        let mut op = json!({
            "operationId": name,
            "description": tool.get("description").cloned().unwrap_or(json!("")),
            "responses": {"200": {"description": "The tool's result"}},
        });
        // A tool that takes nothing has no body (its call sends `{}`).
        let takes_nothing = input
            .get("properties")
            .and_then(Value::as_object)
            .is_none_or(|p| p.is_empty())
            && input
                .get("additionalProperties")
                .is_none_or(|a| a == &Value::Bool(false))
            && ["oneOf", "anyOf", "allOf", "$ref"]
                .iter()
                .all(|k| input.get(*k).is_none());
        if !takes_nothing {
            op["requestBody"] =
                json!({"required": true, "content": {"application/json": {"schema": input}}});
        }
        if let Some(output) = tool.get("outputSchema") {
            let output = hoist(
                name,
                Some(output),
                &mut schemas,
                &mut prefixes,
                &at,
                "outputSchema",
            );
            op["responses"]["200"]["content"] = json!({"application/json": {"schema": output}});
        }
        let hints = tool.get("annotations");
        for (hint, extension) in [
            ("readOnlyHint", "x-read-only-hint"),
            ("destructiveHint", "x-destructive-hint"),
            ("idempotentHint", "x-idempotent-hint"),
            ("openWorldHint", "x-open-world-hint"),
        ] {
            if let Some(v) = hints.and_then(|h| h.get(hint)).filter(|v| v.is_boolean()) {
                op[extension] = v.clone();
            }
        }
        // Everything else the tool says, as it says it.
        let mut native: Map<String, Value> = tool
            .as_object()
            .into_iter()
            .flatten()
            .filter(|(k, _)| !matches!(k.as_str(), "inputSchema" | "outputSchema" | "description"))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        native.insert("name".into(), json!(name));
        op["x-mcp-tool"] = Value::Object(native);
        paths.insert(path, json!({ "post": op }));
        spans.push((name.to_owned(), at));
    }
    let server = root.get("serverInfo");
    let mut doc = json!({
        "openapi": "3.1.0",
        "info": {
            "title": server.and_then(|s| s.get("title").or(s.get("name"))).cloned().unwrap_or(json!("MCP server")),
            "version": server.and_then(|s| s.get("version")).cloned().unwrap_or(json!("0")),
        },
        // Replaced below: the tools go through an MCP client, not HTTP.
        "servers": [{"url": "https://mcp.invalid"}],
        "paths": paths,
        "components": {"schemas": schemas},
    });
    let mut mcp = Map::new();
    for key in [
        "serverInfo",
        "protocolVersion",
        "capabilities",
        "instructions",
        "prompts",
        "resources",
        "resourceTemplates",
        "command",
    ] {
        if let Some(v) = root.get(key) {
            mcp.insert(key.to_owned(), v.clone());
        }
    }
    doc["x-mcp"] = Value::Object(mcp);
    let locator = Locator::translated(prefixes, Locator::Json);
    let mut api = openapi::read_root(file, doc, &locator, diagnostics)?;
    api.base_url = format!("mcp://{}", api.name);
    api.meta.remove("openapi");
    api.meta.remove("servers");
    api.meta.insert("format".into(), Value::from("mcp-tools"));
    for op in &mut api.operations {
        let tool = op
            .meta
            .get("x-mcp-tool")
            .and_then(|t| t.get("name"))
            .and_then(Value::as_str);
        if let Some((_, at)) = spans.iter().find(|(name, _)| Some(name.as_str()) == tool) {
            op.source = Some(Location {
                file: Arc::clone(file),
                span: Locator::Json.locate(&file.text, at),
            });
        }
        op.kind = if op.safety.read_only == Some(true) {
            ir::Crude::Read
        } else {
            ir::Crude::Execute
        };
    }
    Some(api)
}

/// A tool's schema with its own `$defs` (and draft-7 `definitions`) moved to the
/// document's shared definitions, named `<tool>.<def>`, and its references rewritten.
fn hoist(
    tool: &str,
    schema: Option<&Value>,
    schemas: &mut Map<String, Value>,
    prefixes: &mut Vec<(String, String)>,
    at: &str,
    field: &str,
) -> Value {
    let mut schema = schema.cloned().unwrap_or_else(|| json!({"type": "object"}));
    // The dialect marker (`$schema`: draft-07, 2020-12) says nothing about the data.
    if let Some(map) = schema.as_object_mut() {
        map.remove("$schema");
    }
    let mut renamed = Vec::new();
    for key in ["$defs", "definitions"] {
        if let Some(Value::Object(defs)) = schema.as_object_mut().and_then(|s| s.remove(key)) {
            for (name, def) in defs {
                let shared = format!("{tool}.{name}");
                prefixes.push((
                    format!("/components/schemas/{}", escape(&shared)),
                    format!("{at}/{field}/{key}/{}", escape(&name)),
                ));
                renamed.push((
                    format!("#/{key}/{name}"),
                    format!("#/components/schemas/{shared}"),
                ));
                schemas.insert(shared, def);
            }
        }
    }
    if !renamed.is_empty() {
        rewrite(&mut schema, &renamed);
        for (name, def) in schemas.iter_mut() {
            if name.starts_with(&format!("{tool}.")) {
                rewrite(def, &renamed);
            }
        }
    }
    // MCP requires an object root; a schema that says nothing is an empty object.
    if schema.get("type").is_none() && schema.get("properties").is_some() {
        schema["type"] = json!("object");
    }
    schema
}

fn rewrite(value: &mut Value, renamed: &[(String, String)]) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(r)) = map.get_mut("$ref")
                && let Some((_, to)) = renamed.iter().find(|(from, _)| from == r)
            {
                *r = to.clone();
            }
            map.values_mut().for_each(|v| rewrite(v, renamed));
        }
        Value::Array(items) => items.iter_mut().for_each(|v| rewrite(v, renamed)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defs_are_shared_under_the_tool_name() {
        let mut schemas = Map::new();
        let mut prefixes = Vec::new();
        let s = hoist(
            "t",
            Some(
                &json!({"properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/A"}}}}}),
            ),
            &mut schemas,
            &mut prefixes,
            "/tools/0",
            "inputSchema",
        );
        assert_eq!(s["properties"]["a"]["$ref"], "#/components/schemas/t.A");
        assert_eq!(s["type"], "object");
        assert_eq!(
            schemas["t.A"]["properties"]["b"]["$ref"],
            "#/components/schemas/t.A"
        );
    }
}
