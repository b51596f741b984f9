//! The `operations` mapping: CRUDE groups, `maps_to`, params, responses and hints.

use std::collections::BTreeMap;
use std::ops::Range;

use serde_json::Value;

use super::fields::{Reader, Text};
use super::params;
use crate::diagnostics::{Diagnostic, codes};
use crate::ir::{
    self, BodyEncoding, Crude, DangerLevel, Method, ParamLocation, Schema, SchemaType,
};
use crate::source::yaml::{Node, NodeValue};

/// The fields an operation may have (the report counts the others as unknown).
pub(crate) const KNOWN: &[&str] = &[
    "name",
    "maps_to",
    "description",
    "aliases",
    "params",
    "response",
    "pagination",
    "supports_fields",
    "danger_level",
    "requires_confirmation",
    "non_idempotent",
    "body",
];

pub fn all(r: &mut Reader<'_>, node: &Node, key_span: Range<usize>) -> Vec<ir::Operation> {
    let Some(mut groups) = r.fields(node, "operations") else {
        return Vec::new();
    };
    groups.use_all();
    let mut out = Vec::new();
    let mut seen: BTreeMap<String, Range<usize>> = BTreeMap::new();
    let entries: Vec<(String, Node, Node)> = groups
        .entries()
        .map(|(k, kn, v)| (k.to_owned(), kn.clone(), v.clone()))
        .collect();
    for (group, key, list) in entries {
        let Some((_, kind)) = Crude::ALL.iter().find(|(n, _)| *n == group) else {
            r.push(
                Diagnostic::error(
                    codes::UNKNOWN_GROUP,
                    format!("unknown operation group `{group}`"),
                )
                .at(r.location(key.span.clone()))
                .label("not a CRUDE group")
                .help("group operations under create, read, update, delete or execute"),
            );
            continue;
        };
        let NodeValue::Seq(items) = &list.value else {
            if !matches!(list.value, NodeValue::Null) {
                r.wrong_type(&list, &group, "a list of operations");
            }
            continue;
        };
        for item in items {
            if let Some(op) = operation(r, item, *kind, &mut seen) {
                out.push(op);
            }
        }
    }
    if out.is_empty() && seen.is_empty() {
        r.push(
            Diagnostic::error(codes::NO_OPERATIONS, "the adapter declares no operations")
                .at(r.location(key_span))
                .help("add at least one operation, e.g. under `read:` a `- name: ... maps_to: GET /...`"),
        );
    }
    out
}

fn operation(
    r: &mut Reader<'_>,
    node: &Node,
    kind: Crude,
    seen: &mut BTreeMap<String, Range<usize>>,
) -> Option<ir::Operation> {
    let mut f = r.fields(node, "operation")?;
    let name = r.req_str(&mut f, "name", "add `name: list_items` (the tool name)");
    if let Some(n) = &name {
        if !is_tool_name(&n.value) {
            r.push(
                Diagnostic::error(
                    codes::NAME,
                    format!("`{}` is not a valid operation name", n.value),
                )
                .at(r.location(n.span.clone()))
                .label("must match ^[A-Za-z][A-Za-z0-9_]{0,63}$")
                .help("LLM providers accept only letters, digits and `_`; e.g. `list_issues`"),
            );
        }
        if let Some(first) = seen.get(&n.value) {
            let (line, _) = r.file.line_col(first.start);
            r.push(
                Diagnostic::error(
                    codes::DUPLICATE_OPERATION,
                    format!("duplicate operation name `{}`", n.value),
                )
                .at(r.location(n.span.clone()))
                .label(format!("first defined on line {line}"))
                .help("operation names become tool names and must be unique; rename one"),
            );
        } else {
            seen.insert(n.value.clone(), n.span.clone());
        }
    }
    let maps_to = r.req_str(&mut f, "maps_to", "add `maps_to: \"GET /items/{id}\"`");
    let target = maps_to
        .as_ref()
        .and_then(|m| parse_maps_to(r, &m.value, m.span.clone()));
    let description = r.opt_str(&mut f, "description").map(|t| t.value);
    // Words the API's users call the operation by, for search (as OpenAPI's
    // `x-toolwright-aliases`).
    let aliases: Vec<String> = r
        .opt_str_list(&mut f, "aliases")
        .into_iter()
        .flatten()
        .map(|t| t.value)
        .collect();
    if description.is_none()
        && let Some(n) = &name
    {
        r.push(
            Diagnostic::warning(codes::MISSING_DESCRIPTION, format!("operation `{}` has no description", n.value))
                .at(r.location(n.span.clone()))
                .label("a description is composed from the method and path")
                .help("add `description:` saying what the operation does and when to use it; LLMs pick tools by it"),
        );
    }
    let supports_fields = r.opt_bool(&mut f, "supports_fields").unwrap_or(false);
    let requires_confirmation = r.opt_bool(&mut f, "requires_confirmation").unwrap_or(false);
    let non_idempotent = r.opt_bool(&mut f, "non_idempotent");
    let danger_level = r.opt_str(&mut f, "danger_level").and_then(|t| {
        let found = DangerLevel::ALL
            .iter()
            .find(|(n, _)| *n == t.value)
            .map(|(_, d)| *d);
        if found.is_none() {
            r.push(
                Diagnostic::error(
                    codes::UNKNOWN_VALUE,
                    format!("unknown danger_level `{}`", t.value),
                )
                .at(r.location(t.span))
                .help("use one of: safe, reversible, destructive, dangerous, forbidden"),
            );
        }
        found
    });
    let body = match r.opt_str(&mut f, "body") {
        None => BodyEncoding::Json,
        Some(t) if t.value == "json" => BodyEncoding::Json,
        Some(t) if t.value == "form" => BodyEncoding::Form,
        Some(t) => {
            r.push(
                Diagnostic::error(
                    codes::UNKNOWN_VALUE,
                    format!("unknown body encoding `{}`", t.value),
                )
                .at(r.location(t.span))
                .help("use `body: json` (the default) or `body: form`"),
            );
            BodyEncoding::Json
        }
    };
    let pagination = f.get("pagination").and_then(|p| pagination(r, p));
    let mut responses = Vec::new();
    let mut response_extra = BTreeMap::new();
    if let Some(resp) = f.get("response")
        && let Some((response, extra)) = response(r, resp)
    {
        responses.push(response);
        response_extra = extra;
    }
    let params_node = f.get("params");
    let mut meta = r.finish(f, KNOWN);
    meta.extend(
        response_extra
            .into_iter()
            .map(|(k, v)| (format!("response.{k}"), v)),
    );

    let (method, path, path_span) = target?;
    let mut params = params_node
        .map(|p| params(r, p, method, &path))
        .unwrap_or_default();
    check_placeholders(r, &path, &path_span, &params);
    let pagination = pagination.and_then(|(p, named)| pagination_params(r, p, named, &mut params));
    if supports_fields
        && !params
            .iter()
            .any(|p| p.name == "fields" || p.field == "fields")
    {
        params.push(fields_param(responses.first()));
    }
    Some(ir::Operation {
        name: name?.value,
        kind,
        method,
        path,
        summary: None,
        description,
        params,
        content_type: match body {
            BodyEncoding::Form => "application/x-www-form-urlencoded",
            _ => "application/json",
        }
        .to_owned(),
        body,
        body_required: false,
        security: Vec::new(),
        responses,
        pagination,
        supports_fields,
        safety: ir::SafetyHints {
            danger_level,
            requires_confirmation,
            non_idempotent,
            ..ir::SafetyHints::default()
        },
        input_keywords: BTreeMap::new(),
        meta: ir::natives(meta),
        source: Some(r.location(node.span.clone())),
        graphql: None,
        examples: Vec::new(),
        aliases,
        placeholders: Vec::new(),
        workflow: None,
    })
}

pub fn is_tool_name(name: &str) -> bool {
    name.len() <= 64
        && name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `"METHOD /path/{x}"`.
fn parse_maps_to(
    r: &mut Reader<'_>,
    text: &str,
    span: Range<usize>,
) -> Option<(Method, String, Range<usize>)> {
    let mut parts = text.split_whitespace();
    let (Some(method), Some(path), None) = (parts.next(), parts.next(), parts.next()) else {
        r.push(
            Diagnostic::error(
                codes::MAPS_TO,
                format!("`maps_to` must be \"METHOD /path\", found `{text}`"),
            )
            .at(r.location(span))
            .help("write the HTTP method and the path, e.g. `maps_to: \"GET /issues/{id}\"`"),
        );
        return None;
    };
    let Some(m) = Method::parse(method) else {
        r.push(
            Diagnostic::error(
                codes::HTTP_METHOD,
                format!("unknown HTTP method `{method}`"),
            )
            .at(r.location(span))
            .help("use one of: GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS (upper case)"),
        );
        return None;
    };
    let balanced = {
        let mut depth = 0i32;
        path.chars().all(|c| {
            depth += i32::from(c == '{') - i32::from(c == '}');
            (0..=1).contains(&depth)
        }) && depth == 0
    };
    if !path.starts_with('/') || !balanced || path.contains("{}") {
        r.push(
            Diagnostic::error(
                codes::MAPS_TO,
                format!("malformed path `{path}` in `maps_to`"),
            )
            .at(r.location(span))
            .help("the path starts with `/` and marks parameters as `{name}`"),
        );
        return None;
    }
    Some((m, path.to_owned(), span))
}

fn placeholders(path: &str) -> Vec<&str> {
    path.split('{')
        .skip(1)
        .filter_map(|s| s.split('}').next())
        .collect()
}

fn params(r: &mut Reader<'_>, node: &Node, method: Method, path: &str) -> Vec<ir::Param> {
    let Some(mut f) = r.fields(node, "params") else {
        return Vec::new();
    };
    f.use_all();
    let in_path = placeholders(path);
    let mut out = Vec::new();
    let entries: Vec<(String, Node, Node)> = f
        .entries()
        .map(|(k, kn, v)| (k.to_owned(), kn.clone(), v.clone()))
        .collect();
    for (name, key, value) in entries {
        let Some(spec) = params::spec(r, &name, &value) else {
            continue;
        };
        let location = match spec.location {
            Some((ParamLocation::Path, span)) if !in_path.contains(&name.as_str()) => {
                r.push(
                    Diagnostic::error(
                        codes::PARAM_WITHOUT_PLACEHOLDER,
                        format!("path parameter `{name}` has no `{{{name}}}` in the path"),
                    )
                    .at(r.location(span))
                    .help(format!(
                        "add `{{{name}}}` to `maps_to` ({path}), or move the parameter to the query"
                    )),
                );
                ParamLocation::Path
            }
            Some((loc, _)) => loc,
            None if in_path.contains(&name.as_str()) => ParamLocation::Path,
            None if matches!(
                method,
                Method::Get | Method::Delete | Method::Head | Method::Options
            ) =>
            {
                ParamLocation::Query
            }
            None => ParamLocation::Body,
        };
        let required = if location == ParamLocation::Path && !spec.required {
            if r.file
                .text
                .get(spec.span.clone())
                .is_some_and(|t| t.contains("required"))
            {
                r.push(
                    Diagnostic::warning(
                        codes::VALUE_MISMATCH,
                        format!("path parameter `{name}` is always required"),
                    )
                    .at(r.location(key.span.clone()))
                    .help("remove `required: false`; a path cannot leave a segment out"),
                );
            }
            true
        } else {
            spec.required
        };
        out.push(ir::Param {
            field: name.clone(),
            name,
            location,
            required,
            schema: spec.schema.into(),
            style: ir::Style::default_for(location),
            explode: location == ParamLocation::Query,
            allow_reserved: false,
            content_type: None,
            source: Some(r.location(key.span.clone())),
        });
    }
    out
}

fn check_placeholders(r: &mut Reader<'_>, path: &str, span: &Range<usize>, params: &[ir::Param]) {
    for name in placeholders(path) {
        if !params.iter().any(|p| p.name == name) {
            r.push(
                Diagnostic::error(
                    codes::PLACEHOLDER_WITHOUT_PARAM,
                    format!("path placeholder `{{{name}}}` has no parameter"),
                )
                .at(r.location(span.clone()))
                .help(format!(
                    "add `{name}: {{ type: string, required: true }}` under `params`"
                )),
            );
        }
    }
}

/// A pagination whose parameter names are still to be checked against the
/// operation's parameters (read later in the operation).
type Unchecked = (ir::Pagination, Vec<(&'static str, Text, bool)>);

fn pagination(r: &mut Reader<'_>, node: &Node) -> Option<Unchecked> {
    let mut f = r.fields(node, "pagination")?;
    let style = r.req_str(
        &mut f,
        "style",
        "add `style: cursor` (or offset, page, link_header, token)",
    )?;
    let styles = ir::Pagination::STYLES;
    if !styles.contains(&style.value.as_str()) {
        r.push(
            Diagnostic::error(
                codes::PAGINATION_STYLE,
                format!("unknown pagination style `{}`", style.value),
            )
            .at(r.location(style.span))
            .help(format!("use one of: {}", styles.join(", "))),
        );
        return None;
    }
    let known = ir::Pagination::settings_of(&style.value);
    let mut settings = BTreeMap::new();
    let mut named = Vec::new();
    for key in known {
        if *key == "start" {
            if let Some(node) = f.get(key) {
                match node.to_json() {
                    Value::Number(n) if n.is_i64() => {
                        settings.insert((*key).to_owned(), Value::Number(n));
                    }
                    _ => r.wrong_type(node, key, "an integer"),
                }
            }
            continue;
        }
        let Some(text) = r.opt_str(&mut f, key) else {
            continue;
        };
        if key.ends_with("_param") {
            named.push((*key, text.clone(), false));
        }
        settings.insert((*key).to_owned(), Value::String(text.value));
    }
    // What the style implies but the adapter did not name: found among the operation's
    // parameters by role, or added with its conventional name (the format is
    // declarative: `pagination: {style: cursor}` is all an adapter needs to say).
    let implied = [
        ir::Pagination::position_param(&style.value),
        ir::Pagination::limit_param(&style.value),
    ];
    for (key, default) in implied.into_iter().flatten() {
        if settings.contains_key(key) {
            continue;
        }
        let span = f.key_span("style").unwrap_or(f.span.clone());
        named.push((
            key,
            Text {
                value: default.to_owned(),
                span,
            },
            true,
        ));
    }
    let mut all_known = vec!["style"];
    all_known.extend_from_slice(known);
    let extra = r.finish(f, &all_known);
    settings.extend(extra);
    if style.value == "none" {
        return None;
    }
    Some((
        ir::Pagination {
            style: style.value,
            settings,
        },
        named,
    ))
}

/// Each parameter a pagination names is one of the operation's (by name or field);
/// stored by field, the name a call's arguments use. A parameter the style implies
/// (`defaulted`) is the operation's parameter of that role when it has one (its usual
/// name first, then the other names APIs give it), or else added to the operation.
fn pagination_params(
    r: &mut Reader<'_>,
    mut pagination: ir::Pagination,
    named: Vec<(&'static str, Text, bool)>,
    params: &mut Vec<ir::Param>,
) -> Option<ir::Pagination> {
    let mut ok = true;
    for (key, text, defaulted) in named {
        let by_name = |name: &str| {
            params
                .iter()
                .position(|p| p.name == name || p.field == name)
        };
        let found = if defaulted {
            let roles: Vec<usize> = std::iter::once(text.value.as_str())
                .chain(role_names(key).iter().copied())
                .filter_map(by_name)
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            if roles.len() > 1 {
                let names: Vec<String> = roles
                    .iter()
                    .map(|&i| format!("`{}`", params[i].name))
                    .collect();
                r.push(
                    Diagnostic::warning(
                        codes::PAGINATION_STYLE,
                        format!(
                            "`{}` pagination: several parameters could carry `{key}` ({}); `{}` is used",
                            pagination.style,
                            names.join(", "),
                            params[roles[0]].name
                        ),
                    )
                    .at(r.location(text.span.clone()))
                    .help(format!("name the one meant with `{key}: <param>`")),
                );
            }
            Some(roles.first().copied().unwrap_or_else(|| {
                params.push(implied_param(key, &text.value));
                params.len() - 1
            }))
        } else {
            by_name(&text.value)
        };
        match found {
            Some(index) => {
                pagination
                    .settings
                    .insert(key.to_owned(), Value::String(params[index].field.clone()));
            }
            None => {
                ok = false;
                r.push(
                    Diagnostic::error(
                        codes::PAGINATION_STYLE,
                        format!(
                            "`{key}` names `{}`, which is not a parameter of this operation",
                            text.value
                        ),
                    )
                    .at(r.location(text.span))
                    .help(format!(
                        "add `{}` under `params`, or name one of them",
                        text.value
                    )),
                );
            }
        }
    }
    ok.then_some(pagination)
}

/// Other names APIs give the parameter of a pagination setting (tried after the
/// conventional one).
fn role_names(key: &str) -> &'static [&'static str] {
    match key {
        "cursor_param" => &[
            "after",
            "page_token",
            "pageToken",
            "next_token",
            "nextToken",
            "starting_after",
            "continuation_token",
            "marker",
        ],
        "offset_param" => &["skip", "start"],
        "page_param" => &["page_number", "pageNumber"],
        "limit_param" => &[
            "limit",
            "per_page",
            "page_size",
            "pageSize",
            "max_results",
            "maxResults",
        ],
        _ => &[],
    }
}

/// The `fields` argument `supports_fields: true` implies: the response fields to keep,
/// sent as the comma-separated `fields` query parameter the format's runtimes send.
/// Where the response names its fields, only those are accepted.
fn fields_param(response: Option<&ir::Response>) -> ir::Param {
    let mut item = ir::Schema::of(SchemaType::String);
    let declared: Vec<Value> = response
        .and_then(|r| r.schema.as_deref())
        .map(|s| s.items.as_deref().unwrap_or(s))
        .map(|s| {
            s.properties
                .iter()
                .map(|(n, _)| Value::from(n.as_str()))
                .collect()
        })
        .unwrap_or_default();
    item.enum_values = declared;
    let mut schema = ir::Schema::of(SchemaType::Array);
    schema.items = Some(Box::new(item));
    schema.description = Some(
        "The response fields to return, and no others (all of them when left out).".to_owned(),
    );
    ir::Param {
        name: "fields".to_owned(),
        field: "fields".to_owned(),
        location: ParamLocation::Query,
        required: false,
        schema: schema.into(),
        style: ir::Style::Form,
        explode: false,
        allow_reserved: false,
        content_type: None,
        source: None,
    }
}

/// The query parameter a pagination style implies, with its conventional name and a
/// description a model can act on.
fn implied_param(key: &str, name: &str) -> ir::Param {
    let (ty, description, minimum) = match key {
        "cursor_param" => (
            SchemaType::String,
            "Where to continue: the cursor the previous page's response gave. Leave out for the first page.",
            None,
        ),
        "offset_param" => (
            SchemaType::Integer,
            "How many items to skip before this page (0 for the first page).",
            Some(0),
        ),
        "page_param" => (
            SchemaType::Integer,
            "Which page to read (the first page when left out).",
            Some(0),
        ),
        _ => (
            SchemaType::Integer,
            "How many items a page holds at most.",
            Some(1),
        ),
    };
    let mut schema = ir::Schema::of(ty);
    schema.description = Some(description.to_owned());
    schema.minimum = minimum.map(|m| Box::new(Value::from(m)));
    ir::Param {
        name: name.to_owned(),
        field: name.to_owned(),
        location: ParamLocation::Query,
        required: false,
        schema: schema.into(),
        style: ir::Style::default_for(ParamLocation::Query),
        explode: true,
        allow_reserved: false,
        content_type: None,
        source: None,
    }
}

fn response(
    r: &mut Reader<'_>,
    node: &Node,
) -> Option<(ir::Response, BTreeMap<String, serde_json::Value>)> {
    let mut f = r.fields(node, "response")?;
    let description = r.opt_str(&mut f, "description").map(|t| t.value);
    let ty = r.opt_str(&mut f, "type").and_then(|t| {
        let found = SchemaType::ALL
            .iter()
            .find(|(n, _)| *n == t.value)
            .map(|(_, ty)| *ty);
        if found.is_none() {
            r.push(
                Diagnostic::error(
                    codes::PARAM_TYPE,
                    format!("unknown response type `{}`", t.value),
                )
                .at(r.location(t.span))
                .help("use one of: string, integer, number, boolean, array, object"),
            );
        }
        found
    });
    let fields = r.opt_str_list(&mut f, "fields");
    let schema = match f.get("schema") {
        Some(s) => params::spec(r, "response", s).map(|s| s.schema),
        None => match (ty, fields) {
            (_, Some(fields)) => {
                // Field names without types: each may be any JSON value, none is promised.
                let object = Schema::object(
                    fields
                        .into_iter()
                        .map(|t| (t.value, Schema::default(), false)),
                );
                Some(match ty {
                    Some(SchemaType::Array) => Schema {
                        items: Some(Box::new(object)),
                        ..Schema::of(SchemaType::Array)
                    },
                    _ => object,
                })
            }
            (Some(SchemaType::Array), None) => Some(Schema {
                items: Some(Box::new(Schema::default())),
                ..Schema::of(SchemaType::Array)
            }),
            (Some(ty), None) => Some(Schema::of(ty)),
            (None, None) => None,
        },
    };
    let extra = r.finish(f, &["type", "fields", "description", "schema"]);
    let response = ir::Response {
        status: "200".into(),
        json: true,
        body: ir::ResponseBody::Json,
        item: None,
        description: description.clone(),
        schema: schema.map(|mut s| {
            if s.description.is_none() {
                s.description = description;
            }
            s.into()
        }),
    };
    Some((response, extra))
}
