//! The fidelity matrix (seed 000's audit, made per source and counted): for each aspect
//! of a source format, how many the raw document holds, how many the import kept as
//! native metadata, how many became first-class IR, how many this report shows, and
//! how many were lost — with the import's findings for that file, by code, so a loss
//! is never silent.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};

use crate::diagnostics::{Diagnostic, Severity};
use crate::ir::{self, ParamLocation};
use crate::source::{adapter, discovery, graphql, mcp, openapi};

/// Findings listed per code in the matrix, at most.
const EXAMPLES: usize = 5;

/// One aspect's counts.
struct Row {
    aspect: &'static str,
    raw: usize,
    native: usize,
    ir: usize,
    /// Set aside by a rule of the format itself (OpenAPI ignores `Accept`,
    /// `Content-Type` and `Authorization` header parameters): normalised, not lost.
    by_rule: usize,
    note: &'static str,
}

impl Row {
    fn to_json(&self) -> Value {
        // What neither IR nor native metadata holds. The report shows every IR item and
        // every native value, so "shown" is what was kept.
        let kept = self.ir.max(self.native);
        json!({
            "aspect": self.aspect,
            "raw": self.raw,
            "native": self.native,
            "ir": self.ir,
            "by_rule": self.by_rule,
            "shown": kept,
            "lost": self.raw.saturating_sub(kept + self.by_rule),
            "note": self.note,
        })
    }
}

/// The entry of one API: `{api, source, format, rows: [...], findings: [...]}`;
/// `raw` is its document as written when it is a JSON or YAML one.
pub fn source(api: &ir::Api, raw: Option<&openapi::Raw>, diagnostics: &[Diagnostic]) -> Value {
    let file = api.source.as_ref().map(|l| &l.file);
    let path = file.map(|f| f.path.clone()).unwrap_or_default();
    let (format, rows) = match (raw, file) {
        (_, Some(file)) if graphql::is_graphql(api) => (
            format!(
                "GraphQL ({})",
                if graphql::is_sdl(&file.path) {
                    "SDL"
                } else {
                    "introspection"
                }
            ),
            graphql::model_of(file)
                .map(|schema| graphql_rows(api, &schema))
                .unwrap_or_default(),
        ),
        (Some(raw), _) if mcp::is_tools_list(&raw.root) => {
            ("MCP tools/list".to_owned(), mcp_rows(api, &raw.root))
        }
        (Some(raw), _) if discovery::is_discovery(&raw.root) => (
            format!(
                "Google Discovery {}",
                raw.root
                    .get("discoveryVersion")
                    .and_then(Value::as_str)
                    .unwrap_or("v1")
            ),
            discovery_rows(api, &raw.root),
        ),
        (Some(raw), _) => (
            format!(
                "OpenAPI {}",
                raw.root
                    .get("openapi")
                    .and_then(Value::as_str)
                    .unwrap_or("3")
            ),
            openapi_rows(api, raw),
        ),
        (None, Some(file)) => (
            "adapter (MCP-AQL)".to_owned(),
            adapter::front_matter(file)
                .map(|fm| adapter_rows(api, &fm))
                .unwrap_or_default(),
        ),
        (None, None) => ("unknown".to_owned(), Vec::new()),
    };
    json!({
        "api": api.name,
        "source": path,
        "format": format,
        "rows": rows.iter().map(Row::to_json).collect::<Vec<_>>(),
        "findings": findings(&path, diagnostics),
    })
}

/// The findings of reading `path`, grouped by code: count and the first few, located.
fn findings(path: &str, diagnostics: &[Diagnostic]) -> Vec<Value> {
    let mut by_code: BTreeMap<&str, Vec<&Diagnostic>> = BTreeMap::new();
    for d in diagnostics
        .iter()
        .filter(|d| d.location.as_ref().is_some_and(|l| l.file.path == path))
    {
        by_code.entry(d.code).or_default().push(d);
    }
    by_code
        .into_iter()
        .map(|(code, found)| {
            json!({
                "code": code,
                "severity": if found.iter().any(|d| d.severity == Severity::Error) { "error" } else { "warning" },
                "count": found.len(),
                "examples": found.iter().take(EXAMPLES).map(|d| json!({
                    "at": d.location.as_ref().map(crate::diagnostics::Location::display),
                    "message": d.message,
                })).collect::<Vec<_>>(),
            })
        })
        .collect()
}

/// `value`, or what its local `$ref` chain leads to (the import resolves the same).
fn resolve<'v>(doc: &'v openapi::Raw, value: &'v Value) -> &'v Value {
    let mut value = value;
    for _ in 0..16 {
        let target = value
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix('#'))
            .and_then(|pointer| doc.pointer(pointer));
        match target {
            Some(target) => value = target,
            None => break,
        }
    }
    value
}

fn len(v: Option<&Value>) -> usize {
    match v {
        Some(Value::Array(a)) => a.len(),
        Some(Value::Object(o)) => o.len(),
        _ => 0,
    }
}

fn extensions(v: Option<&Value>) -> usize {
    v.and_then(Value::as_object)
        .map_or(0, |o| o.keys().filter(|k| k.starts_with("x-")).count())
}

fn openapi_rows(api: &ir::Api, doc: &openapi::Raw) -> Vec<Row> {
    let root = &doc.root;
    const METHODS: [&str; 8] = [
        "get", "put", "post", "delete", "options", "head", "patch", "trace",
    ];
    let mut raw = RawCounts {
        extensions: extensions(Some(root)),
        ..RawCounts::default()
    };
    // One path item at a time: a JSON document's are parsed only here.
    for (_, item) in doc.path_items() {
        let item = item.as_ref();
        raw.path_extensions += extensions(Some(item));
        let shared = item.get("parameters").and_then(Value::as_array);
        for method in METHODS {
            let Some(op) = item.get(method) else { continue };
            raw.operations += 1;
            // Path-level parameters apply unless the operation redeclares them.
            let mut params = BTreeSet::new();
            for p in op
                .get("parameters")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .chain(shared.into_iter().flatten())
            {
                let resolved = resolve(doc, p);
                let (name, place) = (
                    resolved.get("name").and_then(Value::as_str).unwrap_or(""),
                    resolved.get("in").and_then(Value::as_str).unwrap_or(""),
                );
                params.insert((name.to_owned(), place.to_owned()));
            }
            // OpenAPI: `Accept`, `Content-Type` and `Authorization` header parameters
            // are ignored (media types and security schemes say those).
            let ignored = params
                .iter()
                .filter(|(name, place)| {
                    place == "header"
                        && ["accept", "content-type", "authorization"]
                            .contains(&name.to_ascii_lowercase().as_str())
                })
                .count();
            raw.parameters += params.len();
            raw.ignored_headers += ignored;
            if let Some(body) = op.get("requestBody") {
                raw.bodies += 1;
                raw.request_media += len(resolve(doc, body).get("content"));
            }
            let responses = op.get("responses").and_then(Value::as_object);
            raw.responses += responses.map_or(0, |r| r.len());
            raw.response_extras += responses
                .into_iter()
                .flat_map(|r| r.values())
                .map(|r| resolve(doc, r))
                .filter(|r| r.get("headers").is_some() || r.get("links").is_some())
                .count();
            raw.extensions += extensions(Some(op));
            raw.tagged += usize::from(op.get("tags").is_some());
            raw.callbacks += len(op.get("callbacks"));
            raw.secured +=
                usize::from(op.get("security").is_some() || root.get("security").is_some());
        }
    }
    let ops = || api.operations.iter();
    let native_len = |key: &str| ops().map(|op| len(op.native(key))).sum::<usize>();
    let credential = ops()
        .map(|op| {
            len(op
                .native("credentialParameters")
                .and_then(|c| c.get("parameters")))
        })
        .sum();
    let response_extras = ops()
        .flat_map(|op| op.native("responses").and_then(Value::as_object))
        .flat_map(|r| r.values())
        .filter(|r| r.get("headers").is_some() || r.get("links").is_some())
        .count();
    let components = root.get("components");
    vec![
        Row {
            aspect: "Operations",
            raw: raw.operations,
            native: 0,
            ir: api.operations.len(),
            by_rule: 0,
            note: "each is a tool (a `forbidden` one is typed but not listed)",
        },
        Row {
            aspect: "Parameters (path, query, header, cookie)",
            raw: raw.parameters,
            native: credential,
            ir: api
                .operations
                .iter()
                .flat_map(|op| &op.params)
                .filter(|p| !matches!(p.location, ParamLocation::Body | ParamLocation::RequestBody))
                .count(),
            by_rule: raw.ignored_headers,
            note: "with style, explode and allowReserved; an API key declared as a parameter is the scheme's (native `credentialParameters`); `Accept`, `Content-Type` and `Authorization` headers are ignored, as OpenAPI says (by rule)",
        },
        Row {
            aspect: "Request bodies",
            raw: raw.bodies,
            native: ops()
                .filter(|op| op.native("requestMediaTypes").is_some())
                .count(),
            ir: api
                .operations
                .iter()
                .filter(|op| {
                    op.params.iter().any(|p| {
                        matches!(p.location, ParamLocation::Body | ParamLocation::RequestBody)
                    })
                })
                .count(),
            by_rule: 0,
            note: "one preferred media type typed; an object body is flattened into arguments",
        },
        Row {
            aspect: "Request media types",
            raw: raw.request_media,
            native: native_len("requestMediaTypes"),
            ir: ops()
                .filter(|op| op.native("requestMediaTypes").is_some())
                .count(),
            by_rule: 0,
            note: "every one listed in `requestMediaTypes` and selectable per call",
        },
        Row {
            aspect: "Response variants (status codes)",
            raw: raw.responses,
            native: native_len("responses"),
            ir: api.operations.iter().map(|op| op.responses.len()).sum(),
            by_rule: 0,
            note: "every status in `_meta.responses`; the first 2xx types the output, error bodies typed per status",
        },
        Row {
            aspect: "Response headers and links",
            raw: raw.response_extras,
            native: response_extras,
            ir: 0,
            by_rule: 0,
            note: "kept with their response in `_meta.responses`",
        },
        Row {
            aspect: "Security schemes",
            raw: len(components.and_then(|c| c.get("securitySchemes"))),
            native: 0,
            ir: api.schemes.len(),
            by_rule: 0,
            note: "executed by the runtime (credentials from the environment)",
        },
        Row {
            aspect: "Operations with security requirements",
            raw: raw.secured,
            native: 0,
            ir: api
                .operations
                .iter()
                .filter(|op| !op.security.is_empty())
                .count(),
            by_rule: 0,
            note: "alternatives tried in order; `{}` allows anonymous calls",
        },
        Row {
            aspect: "Servers",
            raw: len(root.get("servers")),
            native: len(api.meta.get("servers")),
            ir: usize::from(!api.base_url.is_empty()),
            by_rule: 0,
            note: "the first is the default base URL; all kept (credentials in URLs masked)",
        },
        Row {
            aspect: "Component schemas",
            raw: len(components.and_then(|c| c.get("schemas"))),
            native: 0,
            ir: api.definitions.len(),
            by_rule: 0,
            note: "normalised to JSON Schema 2020-12; a degraded one is a TW133 finding",
        },
        Row {
            aspect: "Extensions (x-*) on the document and operations",
            raw: raw.extensions,
            native: api.meta.keys().filter(|k| k.starts_with("x-")).count()
                + ops()
                    .map(|op| op.meta.keys().filter(|k| k.starts_with("x-")).count())
                    .sum::<usize>(),
            ir: 0,
            by_rule: 0,
            note: "kept as native metadata; `x-destructive`, `x-idempotent`, `x-pagination`… also feed the IR",
        },
        Row {
            aspect: "Extensions (x-*) on path items",
            raw: raw.path_extensions,
            native: api
                .operations
                .iter()
                .flat_map(|op| {
                    op.native("pathItem")
                        .and_then(Value::as_object)
                        .into_iter()
                        .flat_map(|m| m.keys().filter(|k| k.starts_with("x-")))
                        .map(move |k| (op.path.as_str(), k.as_str()))
                })
                .collect::<BTreeSet<_>>()
                .len(),
            ir: 0,
            by_rule: 0,
            note: "kept with each of the path's operations, in native `pathItem`",
        },
        Row {
            aspect: "Operations with tags",
            raw: raw.tagged,
            native: ops().filter(|op| op.native("tags").is_some()).count(),
            ir: 0,
            by_rule: 0,
            note: "selectable (`tag:NAME`) and used for features by tag",
        },
        Row {
            aspect: "Callbacks",
            raw: raw.callbacks,
            native: native_len("callbacks"),
            ir: 0,
            by_rule: 0,
            note: "kept as metadata, not executed",
        },
        Row {
            aspect: "Webhooks",
            raw: len(root.get("webhooks")),
            native: len(api.meta.get("webhooks")),
            ir: 0,
            by_rule: 0,
            note: "kept as metadata, not executed",
        },
    ]
}

#[derive(Default)]
struct RawCounts {
    operations: usize,
    parameters: usize,
    bodies: usize,
    request_media: usize,
    responses: usize,
    response_extras: usize,
    /// On the document and operations.
    extensions: usize,
    path_extensions: usize,
    ignored_headers: usize,
    tagged: usize,
    callbacks: usize,
    secured: usize,
}

fn discovery_rows(api: &ir::Api, root: &Value) -> Vec<Row> {
    let mut methods = Vec::new();
    fn walk<'v>(node: &'v Value, out: &mut Vec<&'v Value>) {
        for m in node
            .get("methods")
            .and_then(Value::as_object)
            .into_iter()
            .flat_map(|m| m.values())
        {
            out.push(m);
        }
        for r in node
            .get("resources")
            .and_then(Value::as_object)
            .into_iter()
            .flat_map(|r| r.values())
        {
            walk(r, out);
        }
    }
    walk(root, &mut methods);
    fn native(op: &ir::Operation) -> Option<&Value> {
        op.native("x-discovery-method")
    }
    let uploads = api
        .operations
        .iter()
        .filter(|op| native(op).is_some_and(|n| n.get("upload").is_some()))
        .count();
    let method_ops = api.operations.len() - uploads;
    let declared = |key: &str| methods.iter().filter(|m| m.get(key).is_some()).count();
    let raw_params: usize = methods.iter().map(|m| len(m.get("parameters"))).sum();
    let ir_params = api
        .operations
        .iter()
        .filter(|op| native(op).is_none_or(|n| n.get("upload").is_none()))
        .flat_map(|op| &op.params)
        .filter(|p| !matches!(p.location, ParamLocation::Body | ParamLocation::RequestBody))
        .count()
        - declared_true(&methods, "supportsMediaDownload");
    let service = api.meta.get("x-discovery");
    const SERVICE: [&str; 7] = [
        "rootUrl",
        "servicePath",
        "batchPath",
        "documentationLink",
        "mtlsRootUrl",
        "revision",
        "ownerDomain",
    ];
    let scopes_raw = len(root.pointer("/auth/oauth2/scopes"));
    let scopes_ir: usize = api.schemes.iter().map(|s| s.scopes.len()).sum();
    vec![
        Row {
            aspect: "Methods (resources and nested resources)",
            raw: methods.len(),
            native: 0,
            ir: method_ops,
            by_rule: 0,
            note: "each is a tool named by its id (`drive.files.list` → `drive_files_list`)",
        },
        Row {
            aspect: "Parameters",
            raw: raw_params,
            native: 0,
            ir: ir_params,
            by_rule: 0,
            note: "`repeated` → arrays sent as repeated keys; `{+name}` keeps its `/`; string defaults typed; `pattern`, `minimum`, `maximum` checked",
        },
        Row {
            aspect: "Schemas",
            raw: len(root.get("schemas")),
            native: 0,
            ir: api.definitions.len(),
            by_rule: 0,
            note: "`$ref` by name; `required`, `readOnly`, `additionalProperties`, int64 as strings",
        },
        Row {
            aspect: "OAuth 2 scopes (with descriptions)",
            raw: scopes_raw,
            native: 0,
            ir: scopes_ir,
            by_rule: 0,
            note: "in the security scheme and the API's `securityScopes`; each method's scopes in its native `security`",
        },
        Row {
            aspect: "Media uploads",
            raw: declared("mediaUpload"),
            native: uploads,
            ir: uploads,
            by_rule: 0,
            note: "a second tool, `<id>_upload`: the content as the body, `uploadType=media` (the resumable protocol is not offered)",
        },
        Row {
            aspect: "Media downloads",
            raw: declared_true(&methods, "supportsMediaDownload"),
            native: 0,
            ir: declared_true(&methods, "supportsMediaDownload"),
            by_rule: 0,
            note: "an `alt` argument (`media` downloads the content)",
        },
        Row {
            aspect: "API-level parameters (fields, alt, key, prettyPrint…)",
            raw: len(root.get("parameters")),
            native: len(service.and_then(|s| s.get("parameters"))),
            ir: usize::from(root.pointer("/parameters/key").is_some()),
            by_rule: 0,
            note: "kept in native `x-discovery`; `key` is the API key scheme",
        },
        Row {
            aspect: "Service metadata (rootUrl, servicePath, batchPath, documentationLink…)",
            raw: SERVICE.iter().filter(|k| root.get(**k).is_some()).count(),
            native: SERVICE
                .iter()
                .filter(|k| service.and_then(|s| s.get(**k)).is_some())
                .count(),
            ir: usize::from(!api.base_url.is_empty()),
            by_rule: 0,
            note: "`rootUrl` is the base URL; the rest in native `x-discovery`",
        },
        Row {
            aspect: "etagRequired",
            raw: declared_true(&methods, "etagRequired"),
            native: api
                .operations
                .iter()
                .filter(|op| {
                    native(op).and_then(|n| n.get("etagRequired")) == Some(&Value::Bool(true))
                })
                .count(),
            ir: 0,
            by_rule: 0,
            note: "said in the tool's description and kept in native metadata",
        },
    ]
}

fn mcp_rows(api: &ir::Api, root: &Value) -> Vec<Row> {
    let tools: Vec<&Value> = root
        .get("tools")
        .or_else(|| root.pointer("/result/tools"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .collect();
    let with = |key: &str| tools.iter().filter(|t| t.get(key).is_some()).count();
    let hints = |t: &Value| len(t.get("annotations"));
    let declared = |op: &ir::Operation| {
        usize::from(op.safety.read_only.is_some())
            + usize::from(op.safety.danger_level.is_some())
            + usize::from(op.safety.non_idempotent.is_some())
            + usize::from(op.safety.open_world.is_some())
    };
    fn native_tool(op: &ir::Operation) -> Option<&Value> {
        op.native("x-mcp-tool")
    }
    let server = api.meta.get("x-mcp");
    vec![
        Row {
            aspect: "Tools",
            raw: tools.len(),
            native: 0,
            ir: api.operations.len(),
            by_rule: 0,
            note: "each a tool, its name made safe (the original is kept and called)",
        },
        Row {
            aspect: "Input schemas",
            raw: with("inputSchema"),
            native: 0,
            ir: api.operations.len(),
            by_rule: 0,
            note: "as given; `$defs` shared as `<tool>.<def>`; an empty one takes no arguments",
        },
        Row {
            aspect: "Output schemas",
            raw: with("outputSchema"),
            native: 0,
            ir: api
                .operations
                .iter()
                .filter(|op| op.success_response().is_some_and(|r| r.schema.is_some()))
                .count(),
            by_rule: 0,
            note: "the structured content is the typed result",
        },
        Row {
            aspect: "Annotation hints",
            raw: tools.iter().map(|t| hints(t)).sum(),
            native: api
                .operations
                .iter()
                .filter_map(native_tool)
                .map(|t| len(t.get("annotations")))
                .sum(),
            ir: api.operations.iter().map(declared).sum(),
            by_rule: 0,
            note: "readOnly, destructive, idempotent and openWorld hints declared, not derived; `title` kept natively",
        },
        Row {
            aspect: "Other tool fields (title, icons, _meta, …)",
            raw: tools
                .iter()
                .filter_map(|t| t.as_object())
                .map(|t| {
                    t.keys()
                        .filter(|k| {
                            !matches!(
                                k.as_str(),
                                "name"
                                    | "description"
                                    | "inputSchema"
                                    | "outputSchema"
                                    | "annotations"
                            )
                        })
                        .count()
                })
                .sum(),
            native: api
                .operations
                .iter()
                .filter_map(native_tool)
                .filter_map(Value::as_object)
                .map(|t| {
                    t.keys()
                        .filter(|k| !matches!(k.as_str(), "name" | "annotations"))
                        .count()
                })
                .sum(),
            ir: 0,
            by_rule: 0,
            note: "kept as written in native `x-mcp-tool`",
        },
        Row {
            aspect: "Prompts and resources",
            raw: len(root.get("prompts")) + len(root.get("resources")),
            native: len(server.and_then(|s| s.get("prompts")))
                + len(server.and_then(|s| s.get("resources"))),
            ir: 0,
            by_rule: 0,
            note: "recorded as the API's metadata (`x-mcp`), not tools",
        },
    ]
}

fn graphql_rows(api: &ir::Api, schema: &graphql::model::Schema) -> Vec<Row> {
    use graphql::model::Kind;
    let root_fields = |root: &Option<String>| -> Vec<&graphql::model::Field> {
        root.as_ref()
            .and_then(|r| schema.types.get(r))
            .map(|t| {
                t.fields
                    .iter()
                    .filter(|f| !f.name.starts_with("__"))
                    .collect()
            })
            .unwrap_or_default()
    };
    let queries = root_fields(&schema.query);
    let mutations = root_fields(&schema.mutation);
    let subscriptions = root_fields(&schema.subscription);
    let calls = |operation: &str| {
        api.operations
            .iter()
            .filter(|op| {
                op.graphql
                    .as_ref()
                    .is_some_and(|c| c.head.starts_with(&format!("{operation} ")))
            })
            .count()
    };
    let of_kind = |kind: Kind| {
        schema
            .types
            .values()
            .filter(|t| {
                t.kind == kind && !(kind == Kind::Scalar && graphql::scalars::is_built_in(&t.name))
            })
            .map(|t| t.name.as_str())
            .collect::<Vec<_>>()
    };
    let defined = |names: &[&str]| {
        names
            .iter()
            .filter(|n| api.definitions.contains_key(**n))
            .count()
    };
    let (inputs, enums, scalars) = (
        of_kind(Kind::InputObject),
        of_kind(Kind::Enum),
        of_kind(Kind::Scalar),
    );
    let table = api.graphql_types.as_deref().unwrap_or("");
    let tabled: BTreeSet<&str> = table
        .lines()
        .filter_map(|l| {
            let mut w = l.split(' ');
            matches!(w.next(), Some("O" | "I" | "U"))
                .then(|| w.next())
                .flatten()
        })
        .collect();
    let outputs: Vec<&str> = schema
        .types
        .values()
        .filter(|t| t.kind.is_composite())
        .map(|t| t.name.as_str())
        .collect();
    let root_args: usize = queries.iter().chain(&mutations).map(|f| f.args.len()).sum();
    let ir_args: usize = api
        .operations
        .iter()
        .filter_map(|op| {
            let call = op.graphql.as_ref()?;
            Some(
                op.params
                    .iter()
                    .filter(|p| p.field != call.selection_argument)
                    .count(),
            )
        })
        .sum();
    let deprecated = queries
        .iter()
        .chain(&mutations)
        .filter(|f| f.deprecated.is_some())
        .count();
    let meta = api.meta.get("x-graphql");
    let native_subscriptions = len(meta.and_then(|m| m.get("subscriptions")));
    let applied: usize = schema
        .types
        .values()
        .filter(|t| !t.directives.is_empty())
        .count();
    vec![
        Row {
            aspect: "Query fields",
            raw: queries.len(),
            native: 0,
            ir: calls("query"),
            by_rule: 0,
            note: "each a read-only tool `query_<field>` posting its own document",
        },
        Row {
            aspect: "Mutation fields",
            raw: mutations.len(),
            native: 0,
            ir: calls("mutation"),
            by_rule: 0,
            note: "each a tool `mutation_<field>`; nothing is derived about its effects",
        },
        Row {
            aspect: "Subscription fields",
            raw: subscriptions.len(),
            native: native_subscriptions,
            ir: 0,
            by_rule: 0,
            note: "recorded in `x-graphql` (a subscription needs a stream, not a call)",
        },
        Row {
            aspect: "Arguments of root fields",
            raw: root_args,
            native: 0,
            ir: ir_args,
            by_rule: 0,
            note: "the tool's input; defaults, descriptions and deprecations kept",
        },
        Row {
            aspect: "Input object types",
            raw: inputs.len(),
            native: 0,
            ir: defined(&inputs),
            by_rule: 0,
            note: "shared schemas; non-null fields without a default are required",
        },
        Row {
            aspect: "Enum types",
            raw: enums.len(),
            native: 0,
            ir: defined(&enums),
            by_rule: 0,
            note: "string enums; each value's description and deprecation in the description",
        },
        Row {
            aspect: "Custom scalars",
            raw: scalars.len(),
            native: 0,
            ir: defined(&scalars),
            by_rule: 0,
            note: "by the documented mapping, or `Config::graphql_scalar`",
        },
        Row {
            aspect: "Object, interface and union types",
            raw: outputs.len(),
            native: 0,
            ir: outputs.iter().filter(|n| tabled.contains(**n)).count(),
            by_rule: 0,
            note: "every one in the type table a `selection` is checked against; a bounded default selection of those a tool returns",
        },
        Row {
            aspect: "Deprecated root fields",
            raw: deprecated,
            native: 0,
            ir: api
                .operations
                .iter()
                .filter(|op| {
                    op.graphql.is_some() && op.native("deprecated") == Some(&Value::Bool(true))
                })
                .count(),
            by_rule: 0,
            note: "marked deprecated, with the reason in the description",
        },
        Row {
            aspect: "Directive definitions",
            raw: schema.directives.len(),
            native: len(meta.and_then(|m| m.get("directives"))),
            ir: 0,
            by_rule: 0,
            note: "recorded in `x-graphql`",
        },
        Row {
            aspect: "Types with applied directives",
            raw: applied,
            native: len(meta.and_then(|m| m.get("typeDirectives"))),
            ir: 0,
            by_rule: 0,
            note: "recorded in `x-graphql.typeDirectives`",
        },
    ]
}

fn declared_true(methods: &[&Value], key: &str) -> usize {
    methods
        .iter()
        .filter(|m| m.get(key) == Some(&Value::Bool(true)))
        .count()
}

fn adapter_rows(api: &ir::Api, front: &Value) -> Vec<Row> {
    let ops: Vec<&Value> = front
        .get("operations")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|groups| groups.values())
        .filter_map(Value::as_array)
        .flatten()
        .collect();
    let declared = |key: &str| ops.iter().filter(|op| op.get(key).is_some()).count();
    const OPTIONAL: [&str; 7] = [
        "author",
        "tags",
        "triggers",
        "created",
        "modified",
        "trust",
        "rate_limits",
    ];
    vec![
        Row {
            aspect: "Operations",
            raw: ops.len(),
            native: 0,
            ir: api.operations.len(),
            by_rule: 0,
            note: "each is a tool (a `forbidden` one is typed but not listed)",
        },
        Row {
            aspect: "Parameters",
            raw: ops.iter().map(|op| len(op.get("params"))).sum(),
            native: 0,
            ir: api.operations.iter().map(|op| op.params.len()).sum(),
            by_rule: 0,
            note: "placed by `maps_to` and the method, or `in:`",
        },
        Row {
            aspect: "Auth",
            raw: usize::from(front.get("auth").is_some()),
            native: 0,
            ir: usize::from(
                !api.schemes.is_empty()
                    || front
                        .get("auth")
                        .and_then(|a| a.get("type"))
                        .and_then(Value::as_str)
                        == Some("none"),
            ),
            by_rule: 0,
            note: "credentials only through environment variables",
        },
        Row {
            aspect: "Pagination",
            raw: declared("pagination"),
            native: 0,
            ir: api
                .operations
                .iter()
                .filter(|op| op.pagination.is_some())
                .count(),
            by_rule: 0,
            note: "`style: none` declares no paging",
        },
        Row {
            aspect: "Safety hints (danger_level, non_idempotent)",
            raw: declared("danger_level") + declared("non_idempotent"),
            native: 0,
            ir: api
                .operations
                .iter()
                .map(|op| {
                    usize::from(op.safety.danger_level.is_some())
                        + usize::from(op.safety.non_idempotent.is_some())
                })
                .sum(),
            by_rule: 0,
            note: "feed the annotations and the runtime's gate and retries",
        },
        Row {
            aspect: "Optional metadata (author, tags, triggers, created, modified, trust, rate_limits)",
            raw: OPTIONAL.iter().filter(|k| front.get(**k).is_some()).count(),
            native: OPTIONAL
                .iter()
                .filter(|k| api.meta.contains_key(**k))
                .count(),
            ir: 0,
            by_rule: 0,
            note: "kept as metadata; trust and rate_limits also take effect at run time",
        },
        Row {
            aspect: "Unknown operation fields",
            raw: ops
                .iter()
                .filter_map(|op| op.as_object())
                .map(|o| {
                    o.keys()
                        .filter(|k| !adapter::operations::KNOWN.contains(&k.as_str()))
                        .count()
                })
                .sum(),
            native: api.operations.iter().map(|op| op.meta.len()).sum(),
            ir: 0,
            by_rule: 0,
            note: "kept as native metadata with a TW105 warning",
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row<'a>(entry: &'a Value, aspect: &str) -> &'a Value {
        entry["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["aspect"] == aspect)
            .unwrap()
    }

    #[test]
    fn counts_what_was_kept_set_aside_and_lost() {
        let text = r#"openapi: 3.1.0
info: {title: T, version: "1"}
servers: [{url: "https://t.example.com"}]
paths:
  /things:
    x-owner: team-a
    summary: Things
    get:
      operationId: listThings
      x-cost: 2
      parameters:
        - {name: Accept, in: header, schema: {type: string}}
        - {name: q, in: query, schema: {type: string}}
      responses:
        "200": {description: ok}
    trace:
      responses:
        "200": {description: ok}
"#;
        let analysis = crate::analyze_text("t.yaml", text, false);
        let file = analysis.apis[0].source.as_ref().unwrap().file.clone();
        let raw = openapi::raw(&file);
        let m = [source(
            &analysis.apis[0],
            raw.as_ref(),
            &analysis.diagnostics,
        )];
        let ops = row(&m[0], "Operations");
        assert_eq!(
            (
                ops["raw"].as_u64(),
                ops["ir"].as_u64(),
                ops["lost"].as_u64()
            ),
            (Some(2), Some(1), Some(1))
        );
        let params = row(&m[0], "Parameters (path, query, header, cookie)");
        assert_eq!(
            (
                params["raw"].as_u64(),
                params["ir"].as_u64(),
                params["by_rule"].as_u64(),
                params["lost"].as_u64()
            ),
            (Some(2), Some(1), Some(1), Some(0))
        );
        let path_ext = row(&m[0], "Extensions (x-*) on path items");
        assert_eq!(
            (
                path_ext["raw"].as_u64(),
                path_ext["native"].as_u64(),
                path_ext["lost"].as_u64()
            ),
            (Some(1), Some(1), Some(0))
        );
        assert_eq!(
            row(&m[0], "Extensions (x-*) on the document and operations")["native"],
            1
        );
        // The lost TRACE operation has its finding, located.
        let findings = m[0]["findings"].as_array().unwrap();
        assert!(
            findings.iter().any(|f| f["examples"][0]["message"]
                .as_str()
                .unwrap()
                .contains("TRACE")
                && f["examples"][0]["at"]
                    .as_str()
                    .unwrap()
                    .starts_with("t.yaml:")),
            "{findings:?}"
        );
    }
}
