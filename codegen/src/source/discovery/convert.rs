//! A Discovery document rewritten as the OpenAPI 3.1 document that says the same
//! thing, with a map from each converted pointer back to the Discovery pointer it came
//! from (findings are located in the Discovery file).
//!
//! What has no OpenAPI field is carried as an `x-` extension, which the OpenAPI reader
//! keeps as native metadata: `x-discovery` (service metadata: `rootUrl`,
//! `servicePath`, `batchPath`, `documentationLink`, the API-level parameters, …),
//! per method `x-discovery-method` (`id`, `scopes`, `mediaUpload`,
//! `supportsMediaDownload`, `etagRequired`, …), per schema `x-enumDescriptions` and
//! `x-annotations`.

use serde_json::{Map, Value, json};

use crate::source::object;
use crate::source::openapi::escape;

/// Google's OAuth 2 endpoints: Discovery documents list scopes but not endpoints (every
/// Google API uses these).
const AUTHORIZATION_URL: &str = "https://accounts.google.com/o/oauth2/auth";
const TOKEN_URL: &str = "https://oauth2.googleapis.com/token";

/// The converted document.
#[derive(Debug, Default)]
pub struct Converted {
    pub doc: Value,
    /// (OpenAPI pointer prefix, Discovery pointer prefix).
    pub prefixes: Vec<(String, String)>,
    /// Per operation, by its operationId: the Discovery pointer of its method.
    pub methods: Vec<(String, String)>,
}

pub fn convert(root: &Value) -> Converted {
    let mut out = Converted::default();
    let text = |k: &str| root.get(k).and_then(Value::as_str).unwrap_or("");
    let root_url = text("rootUrl").trim_end_matches('/').to_owned();
    let root_url = if root_url.is_empty() {
        // Older documents give only `baseUrl` (root and service path together).
        let base = text("baseUrl");
        let path = text("basePath");
        base.strip_suffix(path)
            .unwrap_or(base)
            .trim_end_matches('/')
            .to_owned()
    } else {
        root_url
    };
    let service_path = if root.get("servicePath").is_some() {
        text("servicePath").to_owned()
    } else {
        text("basePath").trim_start_matches('/').to_owned()
    };
    let mut paths = Map::new();
    let (security, scheme_names) = security_schemes(root);
    // The schemas and the methods are independent halves of a large document's work
    // (compute v1: about 40 ms each): the schemas on a second thread.
    let (schemas, schema_prefixes) = std::thread::scope(|scope| {
        let schemas = scope.spawn(|| {
            let mut schemas = Map::new();
            let mut prefixes = Vec::new();
            for (name, schema) in root
                .get("schemas")
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
            {
                schemas.insert(name.clone(), self::schema(schema));
                prefixes.push((
                    format!("/components/schemas/{}", escape(name)),
                    format!("/schemas/{}", escape(name)),
                ));
            }
            (schemas, prefixes)
        });
        collect(root, "", &service_path, &scheme_names, &mut paths, &mut out);
        schemas
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    });
    out.prefixes.extend(schema_prefixes);
    let mut service = Map::new();
    for key in [
        "kind",
        "id",
        "name",
        "version",
        "revision",
        "title",
        "rootUrl",
        "mtlsRootUrl",
        "servicePath",
        "basePath",
        "baseUrl",
        "batchPath",
        "documentationLink",
        "ownerDomain",
        "ownerName",
        "protocol",
        "discoveryVersion",
        "parameters",
        "features",
        "labels",
        "packagePath",
        "canonicalName",
    ] {
        if let Some(v) = root.get(key) {
            service.insert(key.to_owned(), v.clone());
        }
    }
    let mut doc = json!({
        "openapi": "3.1.0",
        "info": {
            "title": root.get("title").or(root.get("name")).cloned().unwrap_or(json!("API")),
            "version": root.get("version").cloned().unwrap_or(json!("0")),
            "description": root.get("description").cloned().unwrap_or(json!("")),
        },
        "servers": [{"url": root_url}],
        "x-discovery": service,
    });
    // Moved in, not through `json!` (which would serialize a deep copy of each: on
    // compute v1 that was half of the conversion).
    let mut components = Map::new();
    components.insert("schemas".into(), Value::Object(schemas));
    components.insert("securitySchemes".into(), Value::Object(security));
    doc["paths"] = Value::Object(paths);
    doc["components"] = Value::Object(components);
    if let Some(link) = root.get("documentationLink") {
        doc["externalDocs"] = json!({"url": link});
    }
    out.prefixes.extend([
        ("/servers/0/url".to_owned(), "/rootUrl".to_owned()),
        ("/info".to_owned(), "".to_owned()),
        ("/components/securitySchemes".to_owned(), "/auth".to_owned()),
    ]);
    out.doc = doc;
    out
}

/// The OAuth 2 scheme from `auth.oauth2.scopes` (descriptions kept) and the API key
/// Google APIs take as `key`; with their names, in the order a method tries them.
fn security_schemes(root: &Value) -> (Map<String, Value>, Vec<&'static str>) {
    let mut schemes = Map::new();
    let mut names = Vec::new();
    if let Some(scopes) = root
        .pointer("/auth/oauth2/scopes")
        .and_then(Value::as_object)
    {
        let scopes: Map<String, Value> = scopes
            .iter()
            .map(|(scope, v)| {
                (
                    scope.clone(),
                    v.get("description").cloned().unwrap_or(json!("")),
                )
            })
            .collect();
        schemes.insert(
            "oauth2".into(),
            json!({
                "type": "oauth2",
                "description": "Google OAuth 2.0: an access token with the method's scopes.",
                "flows": {"authorizationCode": {
                    "authorizationUrl": AUTHORIZATION_URL,
                    "tokenUrl": TOKEN_URL,
                    "scopes": scopes,
                }},
            }),
        );
        names.push("oauth2");
    }
    let takes_key = root.pointer("/parameters/key").is_some();
    if takes_key {
        schemes.insert(
            "key".into(),
            json!({"type": "apiKey", "in": "query", "name": "key",
                   "description": "An API key (public data, quota)."}),
        );
        names.push("key");
    }
    (schemes, names)
}

/// Every method of `node` and of its nested resources, as path operations.
fn collect(
    node: &Value,
    pointer: &str,
    service_path: &str,
    schemes: &[&str],
    paths: &mut Map<String, Value>,
    out: &mut Converted,
) {
    for (name, method) in node
        .get("methods")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let at = format!("{pointer}/methods/{}", escape(name));
        operation(method, &at, service_path, schemes, paths, out);
    }
    for (name, resource) in node
        .get("resources")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let at = format!("{pointer}/resources/{}", escape(name));
        collect(resource, &at, service_path, schemes, paths, out);
    }
}

fn operation(
    method: &Value,
    at: &str,
    service_path: &str,
    schemes: &[&str],
    paths: &mut Map<String, Value>,
    out: &mut Converted,
) {
    let text = |k: &str| method.get(k).and_then(Value::as_str).unwrap_or("");
    let id = text("id").to_owned();
    let http = text("httpMethod").to_ascii_lowercase();
    let (path, reserved) = template(&format!("/{service_path}{}", text("path")));
    // Many methods share a path (`v2/{+name}` gets a service, a job, an execution…):
    // the OpenAPI key carries the method id to stay unique, and reading takes it off
    // again (`discovery::read`).
    let path = format!("{path}#{id}");
    let op_pointer = format!("/paths/{}/{http}", escape(&path));
    out.prefixes.push((op_pointer.clone(), at.to_owned()));

    let mut op = Map::new();
    op.insert("operationId".into(), json!(tool_name(&id)));
    if let Some(d) = method.get("description") {
        op.insert("description".into(), d.clone());
    }
    if method.get("deprecated") == Some(&json!(true)) {
        op.insert("deprecated".into(), json!(true));
    }
    // Path parameters in `parameterOrder`, then the rest by name (the document's order).
    let declared = method.get("parameters").and_then(Value::as_object);
    let order: Vec<&str> = method
        .get("parameterOrder")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let mut names: Vec<&String> = declared.into_iter().flat_map(|d| d.keys()).collect();
    names.sort_by_key(|n| {
        (
            order.iter().position(|o| o == n).unwrap_or(usize::MAX),
            n.to_string(),
        )
    });
    let mut params = Vec::new();
    for name in names {
        let p = &declared.expect("names come from it")[name];
        let i = params.len();
        let discovery = format!("{at}/parameters/{}", escape(name));
        out.prefixes.push((
            format!("{op_pointer}/parameters/{i}/schema"),
            discovery.clone(),
        ));
        out.prefixes
            .push((format!("{op_pointer}/parameters/{i}"), discovery));
        params.push(parameter(name, p, reserved.contains(name)));
    }
    let supports_download = method.get("supportsMediaDownload") == Some(&json!(true));
    if supports_download {
        params.push(json!({
            "name": "alt", "in": "query",
            "description": "`media` downloads the content itself instead of the JSON metadata.",
            "schema": {"type": "string", "enum": ["json", "media"], "default": "json"},
        }));
    }
    op.insert("parameters".into(), Value::Array(params));
    if let Some(r) = method.pointer("/request/$ref").and_then(Value::as_str) {
        op.insert(
            "requestBody".into(),
            json!({"required": true, "content": {"application/json": {"schema": {"$ref": format!("#/components/schemas/{r}")}}}}),
        );
        out.prefixes
            .push((format!("{op_pointer}/requestBody"), format!("{at}/request")));
    }
    let mut ok = json!({"description": "Successful response"});
    if let Some(r) = method.pointer("/response/$ref").and_then(Value::as_str) {
        ok["content"] =
            json!({"application/json": {"schema": {"$ref": format!("#/components/schemas/{r}")}}});
        if supports_download {
            ok["content"]["*/*"] = json!({"schema": {"type": "string", "format": "binary"}});
        }
        out.prefixes.push((
            format!("{op_pointer}/responses/200"),
            format!("{at}/response"),
        ));
    }
    op.insert("responses".into(), object([("200", ok)]));
    let scopes: Vec<Value> = method
        .get("scopes")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if let Some(s) = op_security(schemes, &scopes) {
        op.insert("security".into(), s);
    }
    let mut native = Map::new();
    for key in [
        "id",
        "path",
        "flatPath",
        "scopes",
        "mediaUpload",
        "supportsMediaUpload",
        "supportsMediaDownload",
        "useMediaDownloadService",
        "supportsSubscription",
        "etagRequired",
        "apiVersion",
    ] {
        if let Some(v) = method.get(key) {
            native.insert(key.to_owned(), v.clone());
        }
    }
    op.insert("x-discovery-method".into(), Value::Object(native));
    if method.get("etagRequired") == Some(&json!(true)) {
        let d = op
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();
        op.insert(
            "description".into(),
            json!(
                format!("{d}\n\nThe request must carry the resource's current etag (`If-Match`).")
                    .trim()
            ),
        );
    }
    out.methods.push((tool_name(&id), at.to_owned()));
    paths
        .entry(path.clone())
        .or_insert_with(|| json!({}))
        .as_object_mut()
        .expect("path items are objects")
        .insert(http.clone(), Value::Object(op));

    // A method that takes media gets a second operation: the simple upload, the
    // content itself as the body (`uploadType=media`).
    if let Some(upload) = method
        .pointer("/mediaUpload/protocols/simple/path")
        .and_then(Value::as_str)
    {
        let (upload_path, reserved) = template(upload);
        let upload_path = format!("{upload_path}#{id}.upload");
        let upload_pointer = format!("/paths/{}/{http}", escape(&upload_path));
        out.prefixes
            .push((upload_pointer, format!("{at}/mediaUpload")));
        let mut params: Vec<Value> = method
            .get("parameters")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .map(|(name, p)| parameter(name, p, reserved.contains(name)))
            .collect();
        params.push(json!({
            "name": "uploadType", "in": "query", "required": true,
            "description": "Always `media`: the body is the content itself.",
            "schema": {"type": "string", "enum": ["media"]},
        }));
        let accept: Vec<Value> = method
            .pointer("/mediaUpload/accept")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_else(|| vec![json!("*/*")]);
        let content: Map<String, Value> = accept
            .iter()
            .filter_map(Value::as_str)
            .map(|m| {
                (
                    m.to_owned(),
                    json!({"schema": {"type": "string", "format": "binary"}}),
                )
            })
            .collect();
        let mut op = json!({
            "operationId": tool_name(&format!("{id}.upload")),
            "description": format!(
                "Uploads the content for `{id}` (simple upload, at most {} bytes).",
                method.pointer("/mediaUpload/maxSize").and_then(Value::as_str).unwrap_or("an unstated number of")
            ),
            "parameters": params,
            "requestBody": {"required": true, "content": content},
            "responses": {"200": {"description": "Successful response"}},
            "x-discovery-method": {"id": id, "upload": method.get("mediaUpload")},
        });
        if let Some(r) = method.pointer("/response/$ref").and_then(Value::as_str) {
            op["responses"]["200"]["content"] = json!({"application/json": {"schema": {"$ref": format!("#/components/schemas/{r}")}}});
        }
        if let Some(s) = op_security(schemes, &scopes) {
            op["security"] = s;
        }
        out.methods.push((
            tool_name(&format!("{id}.upload")),
            format!("{at}/mediaUpload"),
        ));
        paths
            .entry(upload_path)
            .or_insert_with(|| json!({}))
            .as_object_mut()
            .expect("path items are objects")
            .insert(http, op);
    }
}

fn op_security(schemes: &[&str], scopes: &[Value]) -> Option<Value> {
    let list: Vec<Value> = schemes
        .iter()
        .filter(|s| **s != "oauth2" || !scopes.is_empty())
        .map(|s| match *s {
            "oauth2" => json!({"oauth2": scopes}),
            other => json!({ other: [] }),
        })
        .collect();
    (!list.is_empty()).then_some(Value::Array(list))
}

/// `drive.files.list` → `drive_files_list` (a safe tool name).
pub fn tool_name(id: &str) -> String {
    id.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

/// A Discovery path template as an OpenAPI one (`{+name}` → `{name}`), and the names
/// that use reserved expansion (their `/` stay separators).
fn template(path: &str) -> (String, Vec<String>) {
    let mut reserved = Vec::new();
    let mut out = String::with_capacity(path.len());
    let mut rest = path;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let Some(close) = rest[open..].find('}').map(|c| open + c) else {
            break;
        };
        let inner = &rest[open + 1..close];
        let name = inner.trim_start_matches(['+', '/', '.', ';', '?', '&', '#']);
        if inner.starts_with('+') {
            reserved.push(name.to_owned());
        }
        out.push('{');
        out.push_str(name);
        out.push('}');
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    (out, reserved)
}

/// A method parameter as an OpenAPI parameter.
fn parameter(name: &str, p: &Value, reserved: bool) -> Value {
    let location = p.get("location").and_then(Value::as_str).unwrap_or("query");
    let mut schema = self::schema(p);
    let description = schema.as_object_mut().and_then(|s| s.remove("description"));
    let repeated = p.get("repeated") == Some(&json!(true));
    if repeated {
        schema = object([("type", json!("array")), ("items", schema)]);
    }
    let mut out = object([
        ("name", json!(name)),
        ("in", json!(location)),
        (
            "required",
            json!(location == "path" || p.get("required") == Some(&json!(true))),
        ),
        ("schema", schema),
    ]);
    if let Some(d) = description {
        out["description"] = d;
    }
    if p.get("deprecated") == Some(&json!(true)) {
        out["deprecated"] = json!(true);
    }
    if repeated {
        out["style"] = json!("form");
        out["explode"] = json!(true);
    }
    if reserved {
        out["allowReserved"] = json!(true);
    }
    out
}

/// A Discovery schema (JSON Schema draft 3 as Google writes it) as an OpenAPI 3.0
/// one: `$ref` by name, `required` per property, numbers in strings, `any`.
pub fn schema(s: &Value) -> Value {
    let Some(map) = s.as_object() else {
        return json!({});
    };
    if let Some(r) = map.get("$ref").and_then(Value::as_str) {
        let mut out = json!({"$ref": format!("#/components/schemas/{r}")});
        // A description next to a reference is the property's (OpenAPI 3.1: a
        // reference may carry one).
        if let Some(d) = map.get("description") {
            out["description"] = d.clone();
        }
        return out;
    }
    let mut out = Map::new();
    let mut required = Vec::new();
    for (key, value) in map {
        match key.as_str() {
            "type" if value == "any" => {}
            "type" | "format" | "pattern" | "readOnly" | "deprecated" | "enum" => {
                out.insert(key.clone(), value.clone());
            }
            // Discovery writes every default as a string (`"false"`, `"100"`): the
            // value is the declared type's.
            "default" => {
                let typed = match (map.get("type").and_then(Value::as_str), value) {
                    (Some("boolean"), Value::String(t)) => t.parse::<bool>().ok().map(Value::from),
                    (Some("integer"), Value::String(t)) => t.parse::<i64>().ok().map(Value::from),
                    (Some("number"), Value::String(t)) => t.parse::<f64>().ok().map(Value::from),
                    _ => None,
                };
                out.insert(key.clone(), typed.unwrap_or_else(|| value.clone()));
            }
            "description" => {
                out.insert(key.clone(), value.clone());
            }
            "minimum" | "maximum" => {
                let n = match value {
                    Value::String(t) => t
                        .parse::<i64>()
                        .map(Value::from)
                        .ok()
                        .or_else(|| t.parse::<f64>().ok().map(Value::from)),
                    Value::Number(_) => Some(value.clone()),
                    _ => None,
                };
                if let Some(n) = n {
                    out.insert(key.clone(), n);
                }
            }
            "properties" => {
                let mut props = Map::new();
                for (name, p) in value.as_object().into_iter().flatten() {
                    if p.get("required") == Some(&json!(true)) {
                        required.push(json!(name));
                    }
                    props.insert(name.clone(), schema(p));
                }
                out.insert("properties".into(), Value::Object(props));
            }
            "items" | "additionalProperties" if value.is_object() => {
                out.insert(key.clone(), schema(value));
            }
            "enumDescriptions" | "annotations" | "enumDeprecated" | "variant" => {
                out.insert(format!("x-{key}"), value.clone());
            }
            // `id` names the schema (the key says it); `location`, `required`,
            // `repeated` belong to the parameter or the parent.
            _ => {}
        }
    }
    // Enum values and what each means, where a model reads: in the description.
    if let (Some(values), Some(meanings)) = (
        map.get("enum").and_then(Value::as_array),
        map.get("enumDescriptions").and_then(Value::as_array),
    ) {
        let listed: Vec<String> = values
            .iter()
            .zip(meanings)
            .filter_map(|(v, m)| {
                let m = m.as_str()?.trim();
                (!m.is_empty()).then(|| format!("`{}`: {m}", v.as_str().unwrap_or_default()))
            })
            .collect();
        if !listed.is_empty() {
            let d = out
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or("")
                .trim()
                .to_owned();
            let sep = if d.is_empty() { "" } else { "\n\n" };
            out.insert(
                "description".into(),
                json!(format!("{d}{sep}{}", listed.join("\n"))),
            );
        }
    }
    if !required.is_empty() {
        out.insert("required".into(), Value::Array(required));
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_mark_reserved_expansion() {
        assert_eq!(
            template("/v1/{+name}:run/{id}"),
            ("/v1/{name}:run/{id}".to_owned(), vec!["name".to_owned()])
        );
    }

    #[test]
    fn schemas_become_openapi() {
        let s = schema(&json!({
            "type": "object",
            "properties": {
                "size": {"type": "string", "format": "int64", "required": true},
                "kind": {"type": "string", "enum": ["a", "b"], "enumDescriptions": ["first", "second"]},
                "owner": {"$ref": "User", "description": "Who owns it."},
                "n": {"type": "integer", "minimum": "1", "maximum": "10"},
                "any": {"type": "any"},
            }
        }));
        assert_eq!(s["required"], json!(["size"]));
        assert_eq!(
            s["properties"]["kind"]["description"],
            "`a`: first\n`b`: second"
        );
        assert_eq!(
            s["properties"]["owner"]["$ref"],
            "#/components/schemas/User"
        );
        assert_eq!(s["properties"]["owner"]["description"], "Who owns it.");
        assert_eq!(s["properties"]["n"]["minimum"], 1);
        assert_eq!(s["properties"]["any"], json!({}));
    }
}
