//! Paths and operations: names, parameters, request bodies, responses, security,
//! descriptions and hints.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};

use super::aliases;
use super::naming;
use super::schema;
use super::security;
use super::{Doc, deref, escape};
use super::{links, media};
use crate::diagnostics::codes;
use crate::ir::{self, BodyEncoding, Crude, Method, ParamLocation, Schema, SchemaType, Style};
use crate::source::placeholder;

pub(super) const METHODS: &[&str] = &[
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// An operation found under `paths`: its path, method, path item, object and pointer.
type Found<'v> = (&'v str, Method, &'v Value, &'v Value, String);

/// OpenAPI 3.2's methods beyond the fixed eight: `query`, and `additionalOperations`
/// (any other method, keyed as it is sent). In a 3.0 or 3.1 document these keys mean
/// nothing, and saying so beats dropping the operation without a word.
fn additional<'v>(
    doc: &mut Doc<'_>,
    item: &'v Value,
    item_pointer: &str,
    path: &'v str,
    found: &mut Vec<Found<'v>>,
) {
    let v32 = doc.version == super::Version::V32;
    for key in ["query", "additionalOperations"] {
        if item.get(key).is_some() && !v32 {
            doc.warn(
                codes::UNSUPPORTED,
                &format!("{item_pointer}/{key}"),
                format!(
                    "`{key}` is OpenAPI 3.2; this {} document's operations there are skipped",
                    doc.root.tree()["openapi"].as_str().unwrap_or("3.x")
                ),
                "declare `openapi: 3.2.0` to use it",
            );
        }
    }
    if !v32 {
        return;
    }
    if let Some(op) = item.get("query") {
        found.push((
            path,
            Method::Query,
            item,
            op,
            format!("{item_pointer}/query"),
        ));
    }
    let Some(Value::Object(others)) = item.get("additionalOperations") else {
        return;
    };
    for (name, op) in others {
        let pointer = format!("{item_pointer}/additionalOperations/{}", escape(name));
        let fixed = METHODS.contains(&name.to_ascii_lowercase().as_str())
            || name.eq_ignore_ascii_case("query");
        if fixed {
            doc.warn(
                codes::UNSUPPORTED,
                &pointer,
                format!("`{name}` has a field of its own on the path item; this entry is skipped"),
                format!("move the operation to `{}` (OpenAPI 3.2: additionalOperations must not repeat the fixed methods)", name.to_ascii_lowercase()),
            );
            continue;
        }
        match Method::named(name) {
            Some(method) => found.push((path, method, item, op, pointer)),
            None => doc.warn(
                codes::UNSUPPORTED,
                &pointer,
                format!("`{name}` is no HTTP method name (letters, digits and `!#$%&'*+-.^_`|~`, up to 64); operation skipped"),
                "key the operation by the method exactly as it is sent, e.g. `LINK`",
            ),
        }
    }
}

pub fn all(doc: &mut Doc<'_>, schemes: &[ir::SecurityScheme]) -> Vec<ir::Operation> {
    let Some(Value::Object(_)) = doc.root.tree().get("paths") else {
        doc.warn(
            codes::UNSUPPORTED,
            "",
            "the document has no `paths`",
            "add operations under `paths`",
        );
        return Vec::new();
    };
    let root = doc.root;
    // Every operation first, so that names are chosen knowing all of them: what naming
    // reads of each is kept, each path item dropped after (in a JSON document they are
    // parsed one at a time, and again below to be lowered).
    let mut sites = Vec::new();
    for (path, item) in root.path_items_checked() {
        let item = match item {
            Ok(item) => item,
            Err(invalid) => {
                // What parsing the whole document said before it was read an item at
                // a time; the item is left out (read as null below).
                doc.invalid_json(invalid.offset, &invalid.message);
                continue;
            }
        };
        for (path, method, _, op, _) in item_operations(doc, path, &item) {
            let text = |key: &str| op.get(key).and_then(Value::as_str).map(str::to_owned);
            sites.push((
                method,
                path.to_owned(),
                text("summary")
                    .filter(|s| !s.trim().is_empty() && !placeholder::is_placeholder(s, None)),
                text("operationId"),
                text(naming::EXTENSION),
            ));
        }
    }
    let names = naming::assign(
        &sites
            .iter()
            .map(
                |(method, path, summary, operation_id, explicit)| naming::Site {
                    method: *method,
                    path,
                    summary: summary.as_deref(),
                    operation_id: operation_id.as_deref(),
                    explicit: explicit.as_deref(),
                },
            )
            .collect::<Vec<_>>(),
    );
    drop(sites);
    let tag_aliases = aliases::of_tags(doc);
    // One operation per name at most: no room grown past it (Graph beta's 22,361
    // would grow room for 32,768, ~6 MB).
    let mut out = Vec::with_capacity(names.len());
    let mut names = names.into_iter();
    for (path, item) in root.path_items() {
        // Found as above, so in the same order; what finding them says was said there.
        doc.quiet = true;
        let found = item_operations(doc, path, &item);
        doc.quiet = false;
        for ((path, method, item, op, pointer), named) in found.into_iter().zip(&mut names) {
            let seen = doc.placeholders.len();
            if let Some(mut o) = operation(doc, path, method, item, op, &pointer, schemes, named) {
                // The placeholders read for this operation that are its own or its path
                // item's (a shared definition's belong to no one operation).
                let item_pointer = pointer.rsplit_once('/').map_or("", |(item, _)| item);
                o.placeholders = doc.placeholders[seen..]
                    .iter()
                    .filter(|(at, _)| {
                        at.strip_prefix(item_pointer)
                            .is_some_and(|rest| rest.starts_with('/'))
                    })
                    .map(|(at, text)| ir::Placeholder {
                        text: text.clone(),
                        source: doc.location(at),
                    })
                    .collect();
                o.aliases = aliases::of_operation(doc, op, &pointer, &tag_aliases);
                // Said once, as aliases, not again among the operation's extensions.
                o.meta.remove(aliases::EXTENSION);
                // Kept for the whole build: the room left from growing its lists goes
                // (a list of a few responses grows room for four).
                o.params.shrink_to_fit();
                o.responses.shrink_to_fit();
                out.push(o);
            }
        }
    }
    out
}

/// The operations of the path item `item` at `path`, in the order they are named and
/// lowered: the fixed methods, then OpenAPI 3.2's.
fn item_operations<'a: 'v, 'v>(
    doc: &mut Doc<'a>,
    path: &'v str,
    item: &'v Value,
) -> Vec<Found<'v>> {
    let mut found = Vec::new();
    let item_pointer = format!("/paths/{}", escape(path));
    let Ok((item, item_pointer)) = deref(doc.root, item, item_pointer.clone()) else {
        doc.warn(
            codes::REFERENCE,
            &item_pointer,
            "cannot resolve the path item's `$ref`; path skipped",
            "fix the reference",
        );
        return found;
    };
    for method_name in METHODS {
        let Some(op) = item.get(*method_name) else {
            continue;
        };
        let pointer = format!("{item_pointer}/{method_name}");
        let Some(method) = Method::parse(&method_name.to_ascii_uppercase()) else {
            doc.warn(
                codes::UNSUPPORTED,
                &pointer,
                format!(
                    "{} operations are not supported; skipped",
                    method_name.to_ascii_uppercase()
                ),
                "TRACE has no use for API clients",
            );
            continue;
        };
        found.push((path, method, item, op, pointer));
    }
    additional(doc, item, &item_pointer, path, &mut found);
    found
}

/// Says where a derived name came from (TW131), and why it was scoped when it was:
/// `toolwright check` shows these.
fn report_name(
    doc: &mut Doc<'_>,
    method: Method,
    path: &str,
    pointer: &str,
    named: &naming::Named,
) {
    let naming::Origin::Derived { plain, shared_with } = &named.origin else {
        return;
    };
    let mut message = format!(
        "{} {path} has no operationId; named `{}`",
        method.as_str(),
        named.name
    );
    if !shared_with.is_empty() {
        // Three are enough to see why; vocadb has seven `list_names`.
        const SHOWN: usize = 3;
        let mut others = shared_with[..shared_with.len().min(SHOWN)].join(", ");
        if shared_with.len() > SHOWN {
            others.push_str(&format!(" and {} more", shared_with.len() - SHOWN));
        }
        message.push_str(&format!(
            " (disambiguated: `{plain}` would also name {others})"
        ));
    }
    doc.warn(
        codes::OPERATION_ID,
        pointer,
        message,
        format!(
            "add an `operationId` (or `{}`) to choose the tool name",
            naming::EXTENSION
        ),
    );
}

/// Argument names LLM providers accept (`^[A-Za-z0-9_.-]{1,64}$`).
fn field_name(raw: &str) -> String {
    let mut out = String::new();
    for c in raw.chars() {
        if c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-') {
            out.push(c);
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    let out = out.trim_matches('_');
    let mut out = if out.is_empty() {
        "value".to_owned()
    } else {
        out.to_owned()
    };
    out.truncate(64);
    out
}

#[allow(clippy::too_many_arguments)]
fn operation(
    doc: &mut Doc<'_>,
    path: &str,
    method: Method,
    item: &Value,
    op: &Value,
    pointer: &str,
    schemes: &[ir::SecurityScheme],
    named: naming::Named,
) -> Option<ir::Operation> {
    let mut meta = BTreeMap::new();
    if let Some(id) = op.get("operationId").and_then(Value::as_str) {
        meta.insert("operationId".to_owned(), json!(id));
    }
    report_name(doc, method, path, pointer, &named);
    let naming::Named {
        name,
        raw: raw_name,
        ..
    } = named;

    let mut params = Vec::new();
    let mut fields = BTreeSet::new();
    // Path-level parameters, overridden by operation-level ones with the same name+in.
    let mut declared: Vec<(Value, String)> = Vec::new();
    for (source, base) in [
        (
            item,
            pointer
                .rsplit_once('/')
                .map_or(pointer, |(p, _)| p)
                .to_owned(),
        ),
        (op, pointer.to_owned()),
    ] {
        if let Some(Value::Array(list)) = source.get("parameters") {
            for (i, p) in list.iter().enumerate() {
                let at = format!("{base}/parameters/{i}");
                match deref(doc.root, p, at.clone()) {
                    Ok((p, at)) => {
                        let key = |v: &Value| (v.get("name").cloned(), v.get("in").cloned());
                        declared.retain(|(d, _)| key(d) != key(p));
                        declared.push((p.clone(), at));
                    }
                    Err(reference) => doc.warn(
                        codes::REFERENCE,
                        &at,
                        format!("cannot resolve `{reference}`; parameter skipped"),
                        "fix the reference",
                    ),
                }
            }
        }
    }
    for (p, at) in &declared {
        if let Some(param) = parameter(doc, p, at, &mut fields) {
            params.push(param);
        }
    }
    // OpenAPI 3.2: a querystring is the whole query, so no `in: query` beside it.
    if params
        .iter()
        .any(|p| p.location == ParamLocation::QueryString)
        && params.iter().any(|p| p.location == ParamLocation::Query)
    {
        doc.warn(
            codes::UNSUPPORTED,
            pointer,
            "this operation has both an `in: querystring` parameter and `in: query` ones; the query parameters are appended after the querystring",
            "describe the query parameters inside the querystring's schema instead (OpenAPI 3.2 forbids mixing them)",
        );
    }
    for placeholder in path.split('{').skip(1).filter_map(|s| s.split('}').next()) {
        if !params
            .iter()
            .any(|p| p.location == ParamLocation::Path && p.name == placeholder)
        {
            doc.warn(
                codes::UNSUPPORTED,
                pointer,
                format!("path placeholder `{{{placeholder}}}` has no parameter; added as a required string"),
                format!("declare `{placeholder}` with `in: path`"),
            );
            params.push(ir::Param {
                name: placeholder.to_owned(),
                field: unique_field(&mut fields, placeholder),
                location: ParamLocation::Path,
                required: true,
                schema: doc.sharing.schema(Schema::of(SchemaType::String)),
                style: Style::Simple,
                explode: false,
                allow_reserved: false,
                content_type: None,
                source: None,
            });
        }
    }

    let body = request_body(doc, op, pointer, &mut params, &mut fields, &mut meta);
    if body.refused {
        return None;
    }
    let body_description = body.description.clone();
    let responses = responses(doc, op, pointer, &mut meta);
    let mut security = security::requirements(doc, op, pointer, schemes);
    credential_params(&mut params, &mut security, schemes, &mut meta);

    let summary = op
        .get("summary")
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty());
    let summary = doc.said(summary, None, &format!("{pointer}/summary"));
    let summary = summary.as_deref();
    let details = op
        .get("description")
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty());
    let details = doc.said(details, None, &format!("{pointer}/description"));
    let details = details.as_deref();
    let mut description = match (summary, details) {
        (Some(s), Some(d)) if d.starts_with(s) => d.to_owned(),
        (Some(s), Some(d)) => format!("{s}\n\n{d}"),
        (Some(s), None) => s.to_owned(),
        (None, Some(d)) => d.to_owned(),
        (None, None) => String::new(),
    };
    // An empty body description says nothing (clever-cloud's `putSelf` has one).
    if let Some(b) = body_description
        .as_deref()
        .map(str::trim)
        .filter(|b| !b.is_empty())
    {
        let lead = ir::BODY_DESCRIPTION_LEAD;
        description = if description.is_empty() {
            format!("{lead}{b}")
        } else {
            format!("{description}\n\n{lead}{b}")
        };
    }
    // Said in the catalog after what the operation does (`emit::plan`).
    if op.get("deprecated").and_then(Value::as_bool) == Some(true) {
        meta.insert("deprecated".into(), json!(true));
    }
    for key in ["tags", "externalDocs", "callbacks", "servers"] {
        if let Some(v) = op.get(key) {
            meta.insert(key.to_owned(), v.clone());
        }
    }
    if let Value::Object(map) = op {
        for (k, v) in map.iter().filter(|(k, _)| k.starts_with("x-")) {
            meta.insert(k.clone(), v.clone());
        }
    }
    // The scopes each alternative needs (the IR keeps the schemes' names).
    if let Some(security) = op
        .get("security")
        .or_else(|| doc.root.tree().get("security"))
        && security
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_object)
            .flat_map(|r| r.values())
            .any(|scopes| scopes.as_array().is_some_and(|s| !s.is_empty()))
    {
        meta.insert("security".into(), security.clone());
    }
    // The path item's summary, description and extensions belong to each of its
    // operations: kept with each, under `pathItem`.
    if let Value::Object(map) = item {
        let shared: serde_json::Map<String, Value> = map
            .iter()
            .filter(|(k, _)| k.starts_with("x-") || matches!(k.as_str(), "summary" | "description"))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        if !shared.is_empty() {
            meta.insert("pathItem".into(), Value::Object(shared));
        }
    }
    if raw_name != name {
        meta.insert("originalName".into(), json!(raw_name));
    }
    let flag = |keys: &[&str]| {
        keys.iter()
            .find_map(|k| op.get(*k).and_then(Value::as_bool))
    };
    let safety = ir::SafetyHints {
        danger_level: match flag(&["x-destructive", "x-destructive-hint"]) {
            Some(true) => Some(ir::DangerLevel::Destructive),
            Some(false) => Some(ir::DangerLevel::Safe),
            None => None,
        },
        requires_confirmation: flag(&["x-requires-confirmation"]).unwrap_or(false),
        non_idempotent: flag(&["x-idempotent", "x-idempotent-hint"]).map(|idempotent| !idempotent),
        read_only: flag(&["x-read-only", "x-read-only-hint"]),
        open_world: flag(&["x-open-world", "x-open-world-hint"]),
    };
    let pagination = super::pagination::detect(doc, method, op, pointer, &params);
    Some(ir::Operation {
        name,
        kind: match method {
            Method::Get | Method::Head | Method::Options | Method::Query => Crude::Read,
            Method::Post => Crude::Create,
            Method::Put | Method::Patch => Crude::Update,
            Method::Delete => Crude::Delete,
            Method::Other(_) => Crude::Execute,
        },
        method,
        // `/assetservers#name`: a fragment tells apart operations that share a path
        // (AWS and OSIsoft do this); it is never sent, so the request goes to the
        // path before it (with it, the query would land in the fragment).
        path: path.split('#').next().unwrap_or(path).to_owned(),
        // Without a summary (Discovery methods, Kubernetes), a short first sentence of
        // the description titles the tool; an MCP tool keeps its own name.
        summary: summary.map(str::to_owned).or_else(|| {
            op.get("x-mcp-tool")
                .is_none()
                .then(|| details.and_then(first_sentence))
                .flatten()
                .filter(|s| s.split_whitespace().count() >= 2)
                .map(str::to_owned)
        }),
        description: (!description.is_empty()).then_some(description),
        params,
        body: body.encoding,
        content_type: body.content_type,
        body_required: body.required,
        security,
        responses,
        pagination,
        supports_fields: false,
        safety,
        input_keywords: body.input_keywords,
        meta: doc.sharing.share(meta),
        source: None,
        graphql: None,
        examples: Vec::new(),
        aliases: Vec::new(),
        placeholders: Vec::new(),
        workflow: None,
    })
}

fn unique_field(fields: &mut BTreeSet<String>, raw: &str) -> String {
    let base = field_name(raw);
    let mut candidate = base.clone();
    let mut n = 2;
    while !fields.insert(candidate.clone()) {
        candidate = format!("{base}_{n}");
        n += 1;
    }
    candidate
}

fn parameter(
    doc: &mut Doc<'_>,
    p: &Value,
    at: &str,
    fields: &mut BTreeSet<String>,
) -> Option<ir::Param> {
    let name = p.get("name").and_then(Value::as_str)?.to_owned();
    let location = match p.get("in").and_then(Value::as_str) {
        Some("path") => ParamLocation::Path,
        Some("query") => ParamLocation::Query,
        Some("header") => ParamLocation::Header,
        Some("cookie") => ParamLocation::Cookie,
        Some("querystring") if doc.version == super::Version::V32 => {
            return querystring(doc, p, name, at, fields);
        }
        other => {
            doc.warn(
                codes::UNSUPPORTED,
                at,
                format!("parameter `{name}` has location {other:?}; skipped"),
                "use in: path, query, header or cookie",
            );
            return None;
        }
    };
    if location == ParamLocation::Header
        && ["accept", "content-type", "authorization"].contains(&name.to_ascii_lowercase().as_str())
    {
        // OpenAPI: these are described elsewhere (media types, security) and ignored here.
        return None;
    }
    let (mut schema, content_type) = match (p.get("schema"), p.get("content")) {
        (Some(s), _) => (schema::lower(doc, s, &format!("{at}/schema"), 0), None),
        (None, Some(Value::Object(content))) => match content.iter().next() {
            Some((media, m)) => {
                let m = media::media_object(doc, m, &format!("{at}/content/{}", escape(media)));
                let s = m
                    .get("schema")
                    .map(|s| {
                        schema::lower(doc, s, &format!("{at}/content/{}/schema", escape(media)), 0)
                    })
                    .unwrap_or_default();
                let (_, concrete) = concrete_media(media, &s);
                (s, Some(concrete))
            }
            None => (Schema::default(), None),
        },
        _ => (Schema::of(SchemaType::String), None),
    };
    if schema.description.is_none() {
        let said = p.get("description").and_then(Value::as_str);
        schema.description = doc.said(said, Some(&name), &format!("{at}/description"));
    } else if schema
        .description
        .as_deref()
        .is_some_and(|d| placeholder::is_placeholder(d, Some(&name)))
    {
        // The schema's own description copies the parameter's name.
        let said = schema.description.take();
        doc.said(
            said.as_deref(),
            Some(&name),
            &format!("{at}/schema/description"),
        );
    }
    if p.get("deprecated").and_then(Value::as_bool) == Some(true) {
        schema.deprecated = true;
    }
    let default_style = ir::Style::default_for(location);
    let style = match p.get("style").and_then(Value::as_str) {
        Some(s) => {
            match ir::Style::ALL.iter().find(|(n, _)| *n == s) {
                Some((_, st)) => *st,
                None => {
                    doc.warn(codes::UNSUPPORTED, &format!("{at}/style"), format!("unknown style `{s}`; using the default"), "use form, simple, label, matrix, spaceDelimited, pipeDelimited or deepObject");
                    default_style
                }
            }
        }
        None => default_style,
    };
    let explode = p
        .get("explode")
        .and_then(Value::as_bool)
        .unwrap_or(matches!(style, Style::Form | Style::Cookie));
    let (style, explode) = match &content_type {
        // Content-based parameters carry their value serialized in the media type
        // (JSON text), then encoded for the location like any text.
        Some(media) => {
            schema
                .extensions
                .insert("contentMediaType".into(), json!(media));
            (Style::Form, false)
        }
        None => (style, explode),
    };
    Some(ir::Param {
        field: unique_field(fields, &name),
        name,
        location,
        required: location == ParamLocation::Path
            || p.get("required").and_then(Value::as_bool) == Some(true),
        schema: doc.sharing.schema(schema),
        style,
        explode,
        allow_reserved: p.get("allowReserved").and_then(Value::as_bool) == Some(true),
        // Located on demand (findings only): scanning a large document per
        // parameter would make reading quadratic.
        source: None,
        content_type,
    })
}

/// OpenAPI 3.2 `in: querystring`: the whole query string as one argument, described by
/// its single `content` entry (the runtime writes it in that media type: form fields
/// for `application/x-www-form-urlencoded`, the value's text percent-encoded for any
/// other).
fn querystring(
    doc: &mut Doc<'_>,
    p: &Value,
    name: String,
    at: &str,
    fields: &mut BTreeSet<String>,
) -> Option<ir::Param> {
    let content = match (p.get("content"), p.get("schema")) {
        (Some(Value::Object(content)), None) if content.len() == 1 => content,
        _ => {
            doc.warn(
                codes::UNSUPPORTED,
                at,
                format!("querystring parameter `{name}` needs exactly one `content` entry (and no `schema`); skipped"),
                "describe the query string with `content: {application/x-www-form-urlencoded: {schema: ...}}` (OpenAPI 3.2)",
            );
            return None;
        }
    };
    let (media, m) = content.iter().next()?;
    let media_at = format!("{at}/content/{}", escape(media));
    let m = media::media_object(doc, m, &media_at);
    if m.get("encoding").is_some() || m.get("prefixEncoding").is_some() {
        doc.warn(
            codes::UNSUPPORTED,
            &format!("{media_at}/encoding"),
            "per-field encodings of a querystring are not applied: fields go as form pairs (arrays repeat the name, objects as JSON text)",
            "leave `encoding` out, or send the fields as separate `in: query` parameters",
        );
    }
    let mut schema = m
        .get("schema")
        .map(|s| schema::lower(doc, s, &format!("{media_at}/schema"), 0))
        .unwrap_or_default();
    if schema.description.is_none() {
        let said = p.get("description").and_then(Value::as_str);
        schema.description = doc.said(said, Some(&name), &format!("{at}/description"));
    }
    if p.get("deprecated").and_then(Value::as_bool) == Some(true) {
        schema.deprecated = true;
    }
    Some(ir::Param {
        field: unique_field(fields, &name),
        name,
        location: ParamLocation::QueryString,
        required: p.get("required").and_then(Value::as_bool) == Some(true),
        schema: doc.sharing.schema(schema),
        style: Style::Form,
        explode: false,
        allow_reserved: false,
        content_type: Some(media.clone()),
        source: None,
    })
}

/// The preferred media type: JSON (`application/json`, then other JSON types, then
/// JSON wildcards), then form, then multipart, then anything else (wildcards last).
fn pick_media(content: &serde_json::Map<String, Value>) -> Option<(&String, &Value)> {
    let rank = |m: &str| {
        let m = m.to_ascii_lowercase();
        let wildcard = m.contains('*');
        if m == "application/json" {
            0
        } else if m.contains("json") {
            if wildcard { 2 } else { 1 }
        } else if m == "application/x-www-form-urlencoded" {
            3
        } else if m == "multipart/form-data" {
            4
        } else if wildcard {
            6
        } else {
            5
        }
    };
    content.iter().min_by_key(|(m, _)| rank(m))
}

fn encoding_of(media: &str) -> BodyEncoding {
    let m = media.to_ascii_lowercase();
    if m.contains("json") {
        BodyEncoding::Json
    } else if m == "application/x-www-form-urlencoded" {
        BodyEncoding::Form
    } else if m.starts_with("multipart/") {
        BodyEncoding::Multipart
    } else if m.starts_with("text/") || m.contains("xml") || m.contains("csv") || m.contains("yaml")
    {
        BodyEncoding::Text
    } else {
        BodyEncoding::Binary
    }
}

/// What a by-name call of a streaming operation returns (the runtime's
/// `executor::streaming` collects it): `{events: [{event, data, id}]}` or `{items:
/// [...]}`, with `complete` and, when the stream was cut, `cut` saying why. (An
/// `invalid` list of items that do not fit their schema comes only when some do not;
/// left out of the schema so that it adds no produced fields to the tool graph.)
fn collected(body: ir::ResponseBody, item: Option<Schema>) -> Schema {
    let described = |s: &str| Schema {
        description: Some(s.to_owned()),
        ..Schema::of(SchemaType::String)
    };
    let data = item.unwrap_or_default();
    let (key, entry) = if body == ir::ResponseBody::Events {
        let event = Schema {
            properties: vec![
                (
                    "event".into(),
                    described("The event type (`message` unless named)."),
                ),
                ("data".into(), data),
                (
                    "id".into(),
                    described("The last event id, when the stream set one."),
                ),
            ],
            required: vec!["event".into(), "data".into()],
            ..Schema::of(SchemaType::Object)
        };
        ("events", event)
    } else {
        ("items", data)
    };
    Schema {
        properties: vec![
            (
                key.into(),
                Schema {
                    items: Some(Box::new(entry)),
                    ..Schema::of(SchemaType::Array)
                },
            ),
            (
                "complete".into(),
                Schema {
                    description: Some("The stream ended: nothing was left out.".into()),
                    ..Schema::of(SchemaType::Boolean)
                },
            ),
            (
                "cut".into(),
                described("Why collecting stopped before the stream's end (size or time budget)."),
            ),
        ],
        required: vec![key.into(), "complete".into()],
        ..Schema::of(SchemaType::Object)
    }
}

/// A response media type's form for typed code.
fn response_body(media: &str) -> ir::ResponseBody {
    let m = media.to_ascii_lowercase();
    let m = m.split(';').next().unwrap_or("").trim();
    if m == "text/event-stream" {
        ir::ResponseBody::Events
    } else if toolwright_query::media::is_json_lines(m) {
        ir::ResponseBody::JsonLines
    } else {
        match encoding_of(m) {
            BodyEncoding::Json | BodyEncoding::Form => ir::ResponseBody::Json,
            BodyEncoding::Text | BodyEncoding::Multipart => ir::ResponseBody::Text,
            BodyEncoding::Binary if m.contains('*') => ir::ResponseBody::Json,
            BodyEncoding::Binary => ir::ResponseBody::Binary,
        }
    }
}

/// What an operation's request body lowered into (its arguments went to `params`).
struct Body {
    encoding: BodyEncoding,
    content_type: String,
    description: Option<String>,
    required: bool,
    /// Keywords the body adds to the tool's input schema.
    input_keywords: BTreeMap<String, Value>,
    /// The body cannot be sent as its media type says: the operation is left out.
    refused: bool,
}

/// A media type fit for the wire: a wildcard (`application/*+json`, `*/*`, `text/*`)
/// is never sent as such. JSON wildcards, and `*/*` or `application/*` with a schema
/// that describes JSON data (an object, array or typed scalar), send
/// `application/json`; other text wildcards `text/plain`; the rest
/// `application/octet-stream`.
fn concrete_media(media: &str, schema: &Schema) -> (BodyEncoding, String) {
    let lower = media.to_ascii_lowercase();
    if !lower.contains('*') {
        return (encoding_of(&lower), media.to_owned());
    }
    let describes_json = schema.reference.is_some()
        || !schema.properties.is_empty()
        || !schema.variants.is_empty()
        || (schema.ty != SchemaType::Any && !schema.is_binary());
    if lower.contains("json")
        || (matches!(lower.as_str(), "*/*" | "application/*") && describes_json)
    {
        (BodyEncoding::Json, "application/json".to_owned())
    } else if lower.starts_with("text/") {
        (BodyEncoding::Text, "text/plain".to_owned())
    } else {
        (BodyEncoding::Binary, "application/octet-stream".to_owned())
    }
}

/// Lowers the request body into parameters: an object body is flattened into one
/// argument per property (when no name collides), anything else is one `body` argument.
fn request_body(
    doc: &mut Doc<'_>,
    op: &Value,
    pointer: &str,
    params: &mut Vec<ir::Param>,
    fields: &mut BTreeSet<String>,
    meta: &mut BTreeMap<String, Value>,
) -> Body {
    let default = Body {
        encoding: BodyEncoding::Json,
        content_type: "application/json".to_owned(),
        description: None,
        required: false,
        input_keywords: BTreeMap::new(),
        refused: false,
    };
    let Some(body) = op.get("requestBody") else {
        return default;
    };
    let at = format!("{pointer}/requestBody");
    let Ok((body, at)) = deref(doc.root, body, at.clone()) else {
        doc.warn(
            codes::REFERENCE,
            &at,
            "cannot resolve the request body's `$ref`; body skipped",
            "fix the reference",
        );
        return default;
    };
    let Some(Value::Object(content)) = body.get("content") else {
        return default;
    };
    let Some((media, written)) = pick_media(content) else {
        return default;
    };
    let resolved = media::media_object(doc, written, &format!("{at}/content/{}", escape(media)));
    let media_object: &Value = &resolved;
    if doc.version == super::Version::V32 {
        for key in ["itemSchema", "itemEncoding", "prefixEncoding"] {
            if media_object.get(key).is_some() {
                doc.warn(
                    codes::UNSUPPORTED,
                    &format!("{at}/content/{}/{key}", escape(media)),
                    format!("a request body streamed item by item (`{key}`) is not sent as a stream; the body is the `schema` alone, sent whole"),
                    "describe the whole body with `schema` (an array of the items), or call the operation with `Executor::call_upload`",
                );
            }
        }
    }
    meta.insert(
        "requestMediaTypes".into(),
        json!(content.keys().collect::<Vec<_>>()),
    );
    let required = body.get("required").and_then(Value::as_bool) == Some(true);
    let description = body
        .get("description")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let schema_pointer = format!("{at}/content/{}/schema", escape(media));
    let mut schema = match media_object.get("schema") {
        Some(s) => schema::lower(doc, s, &schema_pointer, 0),
        None => Schema::default(),
    };
    let (mut encoding, content_type) = concrete_media(media, &schema);
    // `format: byte` is base64 text on the wire (Spotify's image upload); only
    // `format: binary` (or no format) is raw bytes from a base64 argument.
    if encoding == BodyEncoding::Binary && schema.format.as_deref() == Some("byte") {
        encoding = BodyEncoding::Text;
    }
    let done = |description, input_keywords| Body {
        encoding,
        content_type: content_type.clone(),
        description,
        required,
        input_keywords,
        refused: false,
    };
    if matches!(encoding, BodyEncoding::Binary | BodyEncoding::Text) {
        let binary = encoding == BodyEncoding::Binary;
        // A string schema's own constraints (`format: byte`, lengths, examples) still
        // describe the text that goes out.
        let text = schema.ty == SchemaType::String && !binary;
        schema = Schema {
            ty: SchemaType::String,
            description: schema.description.clone().or_else(|| description.clone()),
            format: schema.format.clone().filter(|_| text),
            pattern: schema.pattern.clone().filter(|_| text),
            extensions: if text {
                schema.extensions.clone()
            } else {
                BTreeMap::new()
            },
            ..Schema::default()
        };
        if binary {
            schema
                .extensions
                .insert("contentEncoding".into(), json!("base64"));
            schema
                .extensions
                .insert("contentMediaType".into(), json!(content_type));
        }
        params.push(whole_body(fields, schema, required));
        return done(None, BTreeMap::new());
    }
    // Follow a reference to see the object's properties.
    let object = match (&schema.reference, schema.ty) {
        (Some(name), SchemaType::Any) => {
            // A ring of bare references keeps its `reference` until the document's
            // end, so the filter below already leaves it alone.
            super::schema::lower_referenced(doc);
            doc.definitions
                .get(name)
                .cloned()
                .filter(|d| d.reference.is_none())
        }
        (None, _) => Some(schema.clone()),
        _ => None,
    };
    // `type` wins over stray `properties` (`type: array` with them is an array).
    let flattenable = object.as_ref().filter(|o| {
        matches!(o.ty, SchemaType::Object | SchemaType::Any)
            && o.variants.is_empty()
            && o.additional.is_none()
            && !o.properties.is_empty()
            && !o.nullable
            && o.properties
                .iter()
                .all(|(n, _)| !fields.contains(&field_name(n)))
    });
    if let Some(object) = flattenable {
        let encodings = media_object.get("encoding").and_then(Value::as_object);
        let mut body_fields: Vec<(String, bool)> = Vec::new();
        // `readOnly` where a property's `$ref` leads counts too (an `id` typed by a
        // shared read-only `Id`): the server sets it, so it is not an argument.
        super::schema::lower_referenced(doc);
        let writable: Vec<&(String, Schema)> = object
            .properties
            .iter()
            .filter(|(_, s)| !read_only(&doc.definitions, s))
            .collect();
        for (prop, prop_schema) in writable {
            let mut prop_schema = prop_schema.clone();
            if encoding == BodyEncoding::Multipart && prop_schema.is_binary() {
                prop_schema
                    .extensions
                    .entry("contentEncoding".into())
                    .or_insert(json!("base64"));
            }
            let spec = encodings.and_then(|e| e.get(prop));
            let mut param = ir::Param {
                name: prop.clone(),
                field: unique_field(fields, prop),
                location: ParamLocation::Body,
                required: required && object.required.contains(prop),
                style: Style::Form,
                explode: true,
                allow_reserved: false,
                content_type: None,
                source: None,
                schema: doc.sharing.schema(prop_schema),
            };
            match encoding {
                BodyEncoding::Multipart => {
                    param.content_type = Some(part_media(doc, spec, &param.schema));
                }
                BodyEncoding::Form => form_encoding(
                    doc,
                    spec,
                    &mut param,
                    &format!("{at}/content/{}/encoding/{}", escape(media), escape(prop)),
                ),
                _ => {}
            }
            body_fields.push((param.field.clone(), object.required.contains(prop)));
            params.push(param);
        }
        let about = description.or(object.description.clone());
        return done(about, optional_body_keywords(required, &body_fields));
    }
    // Form and multipart bodies are named fields: a body of another type (a string, an
    // array) has none to send, and validating servers refuse it whatever is sent.
    let ty = object.as_ref().map_or(schema.ty, |o| o.ty);
    if matches!(encoding, BodyEncoding::Form | BodyEncoding::Multipart)
        && !matches!(ty, SchemaType::Object | SchemaType::Any)
    {
        doc.warn(
            codes::UNSUPPORTED,
            &schema_pointer,
            format!(
                "the `{media}` body is named fields, but this one is of type `{}`; the operation is left out rather than sent with an empty body",
                ty.as_str().unwrap_or("any")
            ),
            "describe the body as an object whose properties are the fields",
        );
        return Body {
            refused: true,
            ..done(None, BTreeMap::new())
        };
    }
    if schema.description.is_none() {
        schema.description = description;
    }
    params.push(whole_body(fields, schema, required));
    done(None, BTreeMap::new())
}

/// Whether `schema` is `readOnly`, itself or where its references lead.
fn read_only(definitions: &BTreeMap<String, Schema>, schema: &Schema) -> bool {
    let mut current = schema;
    // Bounded: a ring of bare references has no end.
    for _ in 0..16 {
        if current.read_only {
            return true;
        }
        match current.reference.as_ref().and_then(|r| definitions.get(r)) {
            Some(target) => current = target,
            None => return false,
        }
    }
    false
}

/// An optional body whose object requires some properties, flattened into arguments:
/// the body may be left out, but once any of its properties is given, the required ones
/// must be too — `dependentRequired` says exactly that (each body argument requires the
/// body's required ones), so the flattened input keeps the description's meaning.
fn optional_body_keywords(required: bool, fields: &[(String, bool)]) -> BTreeMap<String, Value> {
    let needed: Vec<&str> = fields
        .iter()
        .filter(|(_, r)| *r)
        .map(|(f, _)| f.as_str())
        .collect();
    if required || needed.is_empty() {
        return BTreeMap::new();
    }
    let dependencies: serde_json::Map<String, Value> = fields
        .iter()
        .map(|(field, _)| {
            let others: Vec<&str> = needed.iter().copied().filter(|n| n != field).collect();
            (field.clone(), json!(others))
        })
        .filter(|(_, others)| others.as_array().is_some_and(|a| !a.is_empty()))
        .collect();
    [("dependentRequired".to_owned(), Value::Object(dependencies))].into()
}

/// A multipart part's media type: the `encoding.contentType` the description gives
/// (its first, when it lists several), else OpenAPI's default for the property's type:
/// bytes `application/octet-stream`, objects and arrays of objects `application/json`,
/// everything else `text/plain`. Array properties are sent one part per item.
fn part_media(definitions: &Doc<'_>, spec: Option<&Value>, schema: &Schema) -> String {
    if let Some(given) = spec
        .and_then(|e| e.get("contentType"))
        .and_then(Value::as_str)
        .and_then(|list| list.split(',').next())
        .map(str::trim)
        .filter(|m| !m.is_empty() && !m.contains('*'))
    {
        return given.to_owned();
    }
    let item = match (schema.ty, &schema.items) {
        (SchemaType::Array, Some(items)) => items.as_ref(),
        _ => schema,
    };
    let item = crate::ir::follow(item, &definitions.definitions);
    if item.is_binary() {
        "application/octet-stream".to_owned()
    } else if item.ty == SchemaType::Object
        || !item.properties.is_empty()
        || (item.ty == SchemaType::Array && schema.ty != SchemaType::Array)
        || (item.ty == SchemaType::Any && item.reference.is_some())
    {
        "application/json".to_owned()
    } else {
        "text/plain".to_owned()
    }
}

/// `application/x-www-form-urlencoded` properties are serialized like query
/// parameters, with the `style`, `explode` and `allowReserved` their `encoding` gives.
fn form_encoding(doc: &mut Doc<'_>, spec: Option<&Value>, param: &mut ir::Param, at: &str) {
    let Some(spec) = spec else { return };
    if let Some(style) = spec.get("style").and_then(Value::as_str) {
        match ir::Style::ALL.iter().find(|(n, _)| *n == style) {
            Some((_, s)) => param.style = *s,
            None => doc.warn(
                codes::UNSUPPORTED,
                &format!("{at}/style"),
                format!("unknown style `{style}`; using form"),
                "use form, spaceDelimited, pipeDelimited or deepObject",
            ),
        }
    }
    param.explode = spec
        .get("explode")
        .and_then(Value::as_bool)
        .unwrap_or(param.style == Style::Form);
    param.allow_reserved = spec.get("allowReserved").and_then(Value::as_bool) == Some(true);
}

/// An API key the security scheme supplies is not also asked of the model: a
/// parameter with the scheme's name and location leaves the tool's input (the
/// credential is sent in its place), with a note in the tool's metadata.
///
/// The runtime applies one alternative of `security` — the first whose credentials are
/// all at hand — so the requirements are rewritten to say what a validating server
/// reads: every credential parameter the operation requires is sent, whichever
/// alternative carries it (see [`require_every_credential`]).
fn credential_params(
    params: &mut Vec<ir::Param>,
    security: &mut Vec<Vec<String>>,
    schemes: &[ir::SecurityScheme],
    meta: &mut BTreeMap<String, Value>,
) {
    let placement = |name: &str| -> Option<(ParamLocation, String)> {
        let scheme = schemes.iter().find(|s| s.name == name)?;
        match &scheme.kind {
            ir::SchemeKind::ApiKey { placement, .. } => Some(match placement {
                ir::KeyPlacement::Header(n) => (ParamLocation::Header, n.clone()),
                ir::KeyPlacement::Query(n) => (ParamLocation::Query, n.clone()),
                ir::KeyPlacement::Cookie(n) => (ParamLocation::Cookie, n.clone()),
            }),
            _ => None,
        }
    };
    let supplies = |(location, name): &(ParamLocation, String), p: &ir::Param| {
        *location == p.location
            && if p.location == ParamLocation::Header {
                p.name.eq_ignore_ascii_case(name)
            } else {
                p.name == *name
            }
    };
    let keys: Vec<(ParamLocation, String)> = security
        .iter()
        .flatten()
        .filter_map(|name| placement(name))
        .collect();
    let mut dropped = Vec::new();
    let mut required = Vec::new();
    params.retain(|p| {
        let supplied = keys.iter().any(|key| supplies(key, p));
        if supplied {
            dropped.push(json!({"name": p.name, "in": p.location.as_str()}));
            if p.required {
                required.push(p.clone());
            }
        }
        !supplied
    });
    if !required.is_empty() {
        *security = require_every_credential(std::mem::take(security), &required, |scheme, p| {
            placement(scheme).is_some_and(|key| supplies(&key, p))
        });
    }
    if !dropped.is_empty() {
        meta.insert(
            "credentialParameters".into(),
            json!({
                "note": "supplied by the API key security scheme, not by the caller",
                "parameters": dropped,
            }),
        );
    }
}

/// `security` as a validating server reads it when the operation also declares
/// credential parameters `required`: a parameter is required whichever alternative
/// is applied, so each requirement gains the schemes (the first in the description
/// that `supplies` it) for the required parameters it does not supply itself.
///
/// Trello's `[{api_key}, {api_token}]` with both `key` and `token` required becomes
/// `[{api_key, api_token}]`: both are sent, or the call names the one missing before
/// anything goes out. A requirement that had to grow and then asks for all another
/// one asks for and more is dropped (never the better choice: `[{api_token},
/// {api_key}]` with only `key` required is `[{api_key}]`, the token not sent); so is a
/// repeat. Requirements that needed nothing keep their place, ahead of those that
/// grew; each group keeps the description's order. Anonymous access (`{}`) becomes
/// the required credentials.
fn require_every_credential(
    security: Vec<Vec<String>>,
    required: &[ir::Param],
    supplies: impl Fn(&str, &ir::Param) -> bool,
) -> Vec<Vec<String>> {
    let order: Vec<String> = security.iter().flatten().cloned().collect();
    let mut complete = Vec::new();
    let mut grown = Vec::new();
    for mut requirement in security {
        let mut grew = false;
        for p in required {
            if requirement.iter().any(|s| supplies(s, p)) {
                continue;
            }
            if let Some(scheme) = order.iter().find(|s| supplies(s, p)) {
                requirement.push(scheme.clone());
                grew = true;
            }
        }
        if grew { &mut grown } else { &mut complete }.push(requirement);
    }
    let set = |r: &Vec<String>| r.iter().cloned().collect::<BTreeSet<String>>();
    let mut out: Vec<Vec<String>> = Vec::new();
    for requirement in complete {
        if !out.iter().any(|kept| set(kept) == set(&requirement)) {
            out.push(requirement);
        }
    }
    let grown_sets: Vec<BTreeSet<String>> = grown.iter().map(set).collect();
    for (requirement, wanted) in grown.into_iter().zip(&grown_sets) {
        let dominated = out.iter().any(|kept| set(kept).is_subset(wanted))
            || grown_sets
                .iter()
                .any(|other| other.is_subset(wanted) && other != wanted);
        if !dominated {
            out.push(requirement);
        }
    }
    out
}

fn whole_body(fields: &mut BTreeSet<String>, schema: Schema, required: bool) -> ir::Param {
    let field = if fields.contains("body") {
        unique_field(fields, "request_body")
    } else {
        unique_field(fields, "body")
    };
    ir::Param {
        name: field.clone(),
        field,
        location: ParamLocation::RequestBody,
        required,
        schema: schema.into(),
        style: Style::Form,
        explode: false,
        allow_reserved: false,
        content_type: None,
        source: None,
    }
}

/// A response key as the IR spells it: `100`..`599`, `1XX`..`5XX`, or `DEFAULT`; `None`
/// for anything else (extensions, typos), which never becomes an identifier.
fn status_key(raw: &str) -> Option<String> {
    let upper = raw.to_ascii_uppercase();
    let bytes = upper.as_bytes();
    let valid = upper == "DEFAULT"
        || (bytes.len() == 3
            && (b'1'..=b'5').contains(&bytes[0])
            && ((bytes[1].is_ascii_digit() && bytes[2].is_ascii_digit()) || &bytes[1..] == b"XX"));
    valid.then_some(upper)
}

/// Every status with its schema; media types and headers kept as metadata.
fn responses(
    doc: &mut Doc<'_>,
    op: &Value,
    pointer: &str,
    meta: &mut BTreeMap<String, Value>,
) -> Vec<ir::Response> {
    let Some(Value::Object(map)) = op.get("responses") else {
        return Vec::new();
    };
    let mut out: Vec<ir::Response> = Vec::new();
    let mut kept = serde_json::Map::new();
    for (status, response) in map {
        let at = format!("{pointer}/responses/{}", escape(status));
        let Some(key) = status_key(status) else {
            if !status.starts_with("x-") {
                doc.warn(
                    codes::SCHEMA,
                    &at,
                    format!("`{status}` is not a response status; kept as metadata only"),
                    "use an HTTP status (`200`), a range (`4XX`) or `default`",
                );
            }
            kept.insert(status.clone(), response.clone());
            continue;
        };
        if out.iter().any(|r| r.status == key) {
            doc.warn(
                codes::SCHEMA,
                &at,
                format!("response `{status}` repeats status `{key}`; the first one is used"),
                "list each status once (ranges are case-insensitive: `4XX` = `4xx`)",
            );
            kept.insert(status.clone(), response.clone());
            continue;
        }
        let Ok((response, at)) = deref(doc.root, response, at.clone()) else {
            doc.warn(
                codes::REFERENCE,
                &at,
                "cannot resolve the response's `$ref`; response skipped",
                "fix the reference",
            );
            continue;
        };
        let description = response
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let mut summary = serde_json::Map::new();
        if let Some(d) = &description {
            summary.insert("description".into(), json!(d));
        }
        // OpenAPI 3.2 gives responses a short `summary` too.
        if let Some(s) = response.get("summary") {
            summary.insert("summary".into(), s.clone());
        }
        let picked = match response.get("content") {
            Some(Value::Object(content)) => pick_media(content),
            _ => None,
        };
        let body = picked.map_or(ir::ResponseBody::Json, |(media, _)| response_body(media));
        let mut item = None;
        let json_media = picked.is_some_and(|(media, _)| {
            encoding_of(media) == BodyEncoding::Json && body == ir::ResponseBody::Json
        });
        let schema = match response.get("content") {
            Some(Value::Object(content)) if !content.is_empty() => {
                summary.insert(
                    "mediaTypes".into(),
                    json!(content.keys().collect::<Vec<_>>()),
                );
                picked.map(|(media, m)| {
                    let m: &Value =
                        &media::media_object(doc, m, &format!("{at}/content/{}", escape(media)));
                    if doc.version == super::Version::V32 {
                        media::sequential_findings(doc, media, m, body, &at);
                    }
                    let lowered = |doc: &mut Doc<'_>, key: &str| {
                        m.get(key).map(|s| {
                            schema::lower(
                                doc,
                                s,
                                &format!("{at}/content/{}/{key}", escape(media)),
                                0,
                            )
                        })
                    };
                    match body {
                        ir::ResponseBody::Json => lowered(doc, "schema").unwrap_or_default(),
                        // Each event's or line's data: OpenAPI 3.2's `itemSchema`, else
                        // the `schema` real specs put there (typed code decodes it). The
                        // catalog's output is what a by-name call returns: text.
                        // OpenAPI 3.2 says what `itemSchema` of an event stream is: the
                        // whole event (`data`, `event`, `id`, `retry`); its `data` is
                        // text, JSON when `contentMediaType`/`contentSchema` say so.
                        ir::ResponseBody::Events if doc.version == super::Version::V32 => {
                            item = media::event_data(
                                doc,
                                m,
                                &format!("{at}/content/{}", escape(media)),
                            )
                            .or_else(|| lowered(doc, "schema"));
                            collected(body, item.clone())
                        }
                        ir::ResponseBody::Events | ir::ResponseBody::JsonLines => {
                            item = lowered(doc, "itemSchema").or_else(|| lowered(doc, "schema"));
                            collected(body, item.clone())
                        }
                        // Text comes back as a string, bytes as base64 text.
                        ir::ResponseBody::Text | ir::ResponseBody::Binary => {
                            Schema::of(SchemaType::String)
                        }
                    }
                })
            }
            _ => None,
        };
        if let Some(v) = response.get("headers") {
            summary.insert("headers".into(), v.clone());
        }
        if let Some(v) = response.get("links") {
            summary.insert("links".into(), links::links(doc, v, &format!("{at}/links")));
        }
        kept.insert(status.clone(), Value::Object(summary));
        out.push(ir::Response {
            status: key,
            description,
            schema: schema.map(|s| doc.sharing.schema(s)),
            json: json_media,
            body,
            item: item.map(Box::new),
        });
    }
    meta.insert("responses".into(), Value::Object(kept));
    // The typed output comes from the first success: 200..299, then 2XX, then default.
    out.sort_by_key(|r| match r.status.as_str() {
        s if s.len() == 3 && s.starts_with('2') && s.chars().all(|c| c.is_ascii_digit()) => {
            (0, s.to_owned())
        }
        "2XX" => (1, String::new()),
        "DEFAULT" => (2, String::new()),
        s => (3, s.to_owned()),
    });
    if let Some(first) = out.first_mut()
        && first.status == "DEFAULT"
    {
        // `default` only counts as a success when no 2xx is described.
        first.status = "2XX".into();
    }
    out
}

/// The text up to the first sentence end (`. `, `.` at the end) or line break.
fn first_sentence(text: &str) -> Option<&str> {
    let text = text.trim_start();
    let end = text
        .find(". ")
        .map(|i| i + 1)
        .into_iter()
        .chain(text.find('\n'))
        .min()
        .unwrap_or(text.len());
    let sentence = text[..end].trim();
    (!sentence.is_empty()).then_some(sentence)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `require_every_credential` over query keys named like their schemes.
    fn rewritten(security: &[&[&str]], required: &[&str]) -> Vec<Vec<String>> {
        let security = security
            .iter()
            .map(|r| r.iter().map(|s| (*s).to_owned()).collect())
            .collect();
        let required: Vec<ir::Param> = required
            .iter()
            .map(|name| ir::Param {
                name: (*name).into(),
                field: (*name).into(),
                location: ParamLocation::Query,
                required: true,
                schema: Schema::default().into(),
                style: Style::Form,
                explode: true,
                allow_reserved: false,
                content_type: None,
                source: None,
            })
            .collect();
        require_every_credential(security, &required, |scheme, p| p.name == scheme)
    }

    #[test]
    fn every_required_credential_is_in_every_requirement() {
        // Trello: two alternatives, each supplying one of two required keys.
        assert_eq!(
            rewritten(&[&["key"], &["token"]], &["key", "token"]),
            [["key", "token"]]
        );
        // Only `key` required: the alternative that supplies it, the token left out.
        assert_eq!(rewritten(&[&["token"], &["key"]], &["key"]), [["key"]]);
        // An AND-requirement that already supplies everything stays as it is.
        assert_eq!(
            rewritten(&[&["key", "app"]], &["key", "app"]),
            [["key", "app"]]
        );
        // Anonymous access cannot leave out a required key.
        assert_eq!(rewritten(&[&[], &["key"]], &["key"]), [["key"]]);
        // A bearer alternative that supplies no key gains it; a complete one comes first.
        assert_eq!(
            rewritten(&[&["oauth"], &["key", "app"]], &["key"]),
            [vec!["key", "app"], vec!["oauth", "key"]]
        );
        // Two grown requirements where one asks for less: only that one.
        assert_eq!(
            rewritten(
                &[&["oauth", "token"], &["token"], &["key"]],
                &["key", "token"]
            ),
            [["token", "key"]]
        );
    }

    #[test]
    fn a_first_sentence_is_the_text_up_to_its_end() {
        assert_eq!(
            first_sentence("list or watch objects of kind Pod"),
            Some("list or watch objects of kind Pod")
        );
        assert_eq!(
            first_sentence("Gets a user. Needs a token."),
            Some("Gets a user.")
        );
        assert_eq!(first_sentence("One line\nanother"), Some("One line"));
        assert_eq!(first_sentence("  "), None);
    }

    /// The names a document's reader gives, end to end: an explicit name over the
    /// operationId (which stays in `_meta`), a derived one beside them, and
    /// placeholder text gone.
    #[test]
    fn explicit_names_win_and_placeholders_are_missing() {
        let text = r#"{"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
          "servers": [{"url": "https://api.example.com"}],
          "paths": {
            "/pets": {"get": {"operationId": "listPets", "x-toolwright-name": "browse_pets",
                              "summary": "List pets", "responses": {"200": {"description": "ok"}}}},
            "/pets/{petId}": {"get": {"summary": "XXXX", "description": "TODO",
              "parameters": [{"name": "petId", "in": "path", "required": true,
                              "description": "pet id", "schema": {"type": "string"}}],
              "responses": {"200": {"description": "ok"}}}}}}"#;
        let analysis = crate::analysis::analyze_text("pets.json", text, false);
        let ops = &analysis.apis[0].operations;
        assert_eq!(ops[0].name, "browse_pets");
        assert_eq!(*ops[0].meta["operationId"], "listPets");
        assert_eq!(ops[1].name, "get_pet");
        assert_eq!(ops[1].summary, None);
        assert_eq!(ops[1].description, None);
        assert_eq!(ops[1].params[0].schema.description, None);
        let placeholders = analysis
            .diagnostics
            .iter()
            .filter(|d| d.code == codes::PLACEHOLDER)
            .count();
        // The literal placeholders are reported; the copy of the name is only dropped.
        assert_eq!(placeholders, 2);
        // ...and kept with their operation, located, for the readiness report.
        let kept: Vec<(&str, String)> = ops[1]
            .placeholders
            .iter()
            .map(|p| (p.text.as_str(), p.source.display()))
            .collect();
        assert_eq!(
            kept,
            [
                ("XXXX", "pets.json:6:39".into()),
                ("TODO", "pets.json:6:58".into())
            ]
        );
        assert!(ops[0].placeholders.is_empty());
        let artifact = crate::contract::artifact::build(
            &analysis.apis,
            &crate::contract::artifact::Options::default(),
        );
        let findings: Vec<&Value> = artifact["readiness_report"]["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["code"] == "placeholder_text")
            .collect();
        assert_eq!(findings.len(), 1, "{findings:?}");
        assert_eq!(findings[0]["tool"], "get_pet");
        assert_eq!(
            findings[0]["message"],
            "placeholder text treated as missing: `XXXX` at pets.json:6:39, `TODO` at pets.json:6:58; write what each stands for"
        );
    }
}
