//! How a GET operation pages, from what the document says: an explicit
//! `x-pagination` (our settings, see [`ir::Pagination::settings_of`]) or Azure's
//! `x-ms-pageable`; a declared `Link` response header; or a recognisable pair of a
//! position parameter and a response field — `cursor`/`page_token`/`continue`
//! with a next-cursor field, Stripe's `starting_after` with `has_more`, `offset`,
//! `page`. Nothing is guessed from a parameter alone when the response cannot say
//! where the next page is.

use std::collections::{BTreeMap, HashSet};

use serde_json::{Map, Value, json};

use super::{Doc, deref};
use crate::diagnostics::codes;
use crate::ir::{self, Method, ParamLocation};

/// Query parameters that carry an opaque cursor.
const CURSOR_PARAMS: &[&str] = &[
    "cursor",
    "page_token",
    "pagetoken",
    "next_token",
    "nexttoken",
    "continuation_token",
    "continuationtoken",
    "continue",
    "page[cursor]",
    "starting_after",
    "after",
    "marker",
];
/// Response fields that hold the next cursor, as paths.
const NEXT_FIELDS: &[&str] = &[
    "next_cursor",
    "nextCursor",
    "next_page_token",
    "nextPageToken",
    "next_token",
    "nextToken",
    "continuation_token",
    "continuationToken",
    "meta.next_cursor",
    "meta.nextCursor",
    "response_metadata.next_cursor",
    "metadata.continue",
    "pagination.next_cursor",
    "next_page",
    "next_page_url",
    "meta.next_page_url",
    "links.next",
    "next",
];
const HAS_MORE_FIELDS: &[&str] = &["has_more", "hasMore", "more"];
/// The items field of a page: the envelope names contracts look through.
const ITEM_FIELDS: &[&str] = crate::shapes::ENVELOPES;
const LIMIT_PARAMS: &[&str] = &[
    "limit",
    "per_page",
    "page_size",
    "pagesize",
    "size",
    "count",
    "max_results",
    "maxresults",
    "page[size]",
    "page[limit]",
];

/// The operation's pagination, if the document shows one.
pub fn detect(
    doc: &mut Doc<'_>,
    method: Method,
    op: &Value,
    pointer: &str,
    params: &[ir::Param],
) -> Option<ir::Pagination> {
    // Declared pagination holds for any method (a search or a GraphQL query is a
    // POST); what is recognised without a declaration, for GET only.
    if let Some(declared) = op.get("x-pagination") {
        return explicit(doc, declared, &format!("{pointer}/x-pagination"), params);
    }
    if method != Method::Get {
        return None;
    }
    if let Some(pageable) = op.get("x-ms-pageable") {
        return ms_pageable(pageable);
    }
    let success = success_response(doc.root, op);
    let query: Vec<&ir::Param> = params
        .iter()
        .filter(|p| p.location == ParamLocation::Query)
        .collect();
    let find = |names: &[&str]| {
        names.iter().find_map(|n| {
            query
                .iter()
                .find(|p| p.name.eq_ignore_ascii_case(n))
                .map(|p| p.field.clone())
        })
    };
    let mut settings = BTreeMap::new();
    if let Some(limit) = find(LIMIT_PARAMS) {
        settings.insert("limit_param".to_owned(), json!(limit));
    }
    let (response, headers) = success?;
    let fields = schema_fields(doc.root, response);
    if let Some(items) = ITEM_FIELDS
        .iter()
        .find(|f| fields.get(**f) == Some(&"array"))
    {
        settings.insert("items".to_owned(), json!(items));
    }
    let style = if headers.keys().any(|h| h.eq_ignore_ascii_case("link")) {
        "link_header"
    } else if let Some(cursor) = find(CURSOR_PARAMS).or_else(|| {
        // A string `page` is a cursor (Stripe's search).
        find(&["page"]).filter(|f| {
            query
                .iter()
                .any(|p| p.field == *f && p.schema.ty == ir::SchemaType::String)
        })
    }) {
        let has_more = HAS_MORE_FIELDS
            .iter()
            .find(|f| fields.get(**f) == Some(&"boolean"));
        if let Some(next) = NEXT_FIELDS.iter().find(|f| fields.contains_key(**f)) {
            settings.insert("next_cursor".to_owned(), json!(next));
        } else if cursor == "starting_after" && has_more.is_some() && settings.contains_key("items")
        {
            // Stripe: the cursor is the last item's id.
            settings.insert("cursor_from_item".to_owned(), json!("id"));
        } else {
            return None;
        }
        if let Some(more) = has_more {
            settings.insert("has_more".to_owned(), json!(more));
        }
        settings.insert("cursor_param".to_owned(), json!(cursor));
        "cursor"
    } else if let Some(offset) =
        find(&["offset", "skip", "start"]).filter(|_| settings.contains_key("limit_param"))
    {
        settings.insert("offset_param".to_owned(), json!(offset));
        "offset"
    } else if let Some(page) =
        find(&["page", "page[number]", "page_number", "pagenumber"]).filter(|f| {
            query
                .iter()
                .any(|p| p.field == *f && p.schema.ty == ir::SchemaType::Integer)
        })
    {
        let param = query.iter().find(|p| p.field == page);
        if param.is_some_and(|p| p.schema.minimum.as_deref() == Some(&json!(0))) {
            settings.insert("start".to_owned(), json!(0));
        }
        settings.insert("page_param".to_owned(), json!(page));
        "page"
    } else {
        return None;
    };
    Some(ir::Pagination {
        style: style.to_owned(),
        settings,
    })
}

/// `x-pagination: {style, cursor_param, next_cursor, ...}`: our settings, checked.
fn explicit(
    doc: &mut Doc<'_>,
    declared: &Value,
    pointer: &str,
    params: &[ir::Param],
) -> Option<ir::Pagination> {
    let Some(Value::Object(map)) = Some(declared) else {
        return None;
    };
    let style = map.get("style").and_then(Value::as_str).unwrap_or("");
    if !ir::Pagination::STYLES.contains(&style) || style == "none" {
        if style != "none" {
            doc.warn(
                codes::PAGINATION_STYLE,
                pointer,
                format!("`x-pagination` has no known `style` (found `{style}`); the operation is read as one page"),
                format!("set `style` to one of: {}", ir::Pagination::STYLES.join(", ")),
            );
        }
        return None;
    }
    let known = ir::Pagination::settings_of(style);
    let mut settings = BTreeMap::new();
    for (key, value) in map {
        if key == "style" {
            continue;
        }
        if !known.contains(&key.as_str()) {
            doc.warn(
                codes::PAGINATION_STYLE,
                &format!("{pointer}/{}", super::escape(key)),
                format!("`{key}` is not a setting of `{style}` pagination; ignored"),
                format!("known settings: {}", known.join(", ")),
            );
            continue;
        }
        let value = if key.ends_with("_param") {
            let name = value.as_str().unwrap_or("");
            match params.iter().find(|p| p.name == name || p.field == name) {
                Some(p) => json!(p.field),
                None => {
                    doc.warn(
                        codes::PAGINATION_STYLE,
                        &format!("{pointer}/{key}"),
                        format!("`{key}` names `{name}`, which is not a parameter of this operation; the operation is read as one page"),
                        "name one of the operation's parameters",
                    );
                    return None;
                }
            }
        } else {
            value.clone()
        };
        settings.insert(key.clone(), value);
    }
    Some(ir::Pagination {
        style: style.to_owned(),
        settings,
    })
}

/// Azure's `x-ms-pageable: {nextLinkName, itemName}`: the next page's URL is a field
/// of the body (`nextLinkName: null`: one page only).
fn ms_pageable(pageable: &Value) -> Option<ir::Pagination> {
    let next = match pageable.get("nextLinkName") {
        Some(Value::Null) => return None,
        Some(v) => v.as_str()?.to_owned(),
        None => "nextLink".to_owned(),
    };
    let items = pageable
        .get("itemName")
        .and_then(Value::as_str)
        .unwrap_or("value");
    Some(ir::Pagination {
        style: "cursor".to_owned(),
        settings: BTreeMap::from([
            ("next_cursor".to_owned(), json!(next)),
            ("items".to_owned(), json!(items)),
        ]),
    })
}

/// The first 2xx response's JSON schema and its headers.
fn success_response<'v>(
    root: super::tree::Root<'v>,
    op: &'v Value,
) -> Option<(&'v Value, &'v Map<String, Value>)> {
    static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
    let responses = op.get("responses")?.as_object()?;
    let (status, response) = responses.iter().find(|(s, _)| s.starts_with('2'))?;
    let (response, _) = deref(root, response, format!("/responses/{status}")).ok()?;
    let headers = response
        .get("headers")
        .and_then(Value::as_object)
        .unwrap_or_else(|| EMPTY.get_or_init(Map::new));
    // OpenAPI 3: content.<json media>.schema; Swagger-style `schema` is not read here.
    let schema = response
        .get("content")?
        .as_object()?
        .iter()
        .find(|(m, _)| m.contains("json"))
        .and_then(|(_, c)| c.get("schema"))
        .unwrap_or(&Value::Null);
    Some((schema, headers))
}

/// The schema's fields to two levels (`meta.next_cursor`), with their JSON type
/// (`allOf` merged, references followed).
fn schema_fields<'v>(
    root: super::tree::Root<'v>,
    schema: &'v Value,
) -> BTreeMap<String, &'static str> {
    let mut out = BTreeMap::new();
    collect(root, schema, "", &mut HashSet::new(), &mut out);
    out
}

/// Adds `schema`'s fields under `prefix` to `out`. `seen`: the schemas already merged
/// at each prefix — merging one twice adds nothing, so each is walked once there. That
/// bounds the walk by the document's size: a schema whose `allOf` lists itself eight
/// times, or nine levels that each list the next eight times, would otherwise be
/// walked once per path through them (8⁹ for the latter).
fn collect<'v>(
    root: super::tree::Root<'v>,
    schema: &'v Value,
    prefix: &str,
    seen: &mut HashSet<(*const Value, String)>,
    out: &mut BTreeMap<String, &'static str>,
) {
    let Ok((schema, _)) = deref(root, schema, String::new()) else {
        return;
    };
    if !seen.insert((std::ptr::from_ref(schema), prefix.to_owned())) {
        return;
    }
    for part in schema
        .get("allOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        collect(root, part, prefix, seen, out);
    }
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        return;
    };
    for (name, prop) in props {
        let Ok((prop, _)) = deref(root, prop, String::new()) else {
            continue;
        };
        let path = format!("{prefix}{name}");
        let ty = match prop.get("type") {
            Some(Value::String(t)) => t.as_str(),
            Some(Value::Array(ts)) => ts
                .iter()
                .find_map(|t| t.as_str().filter(|t| *t != "null"))
                .unwrap_or(""),
            _ if prop.get("properties").is_some() => "object",
            _ if prop.get("items").is_some() => "array",
            _ => "",
        };
        let ty: &'static str = match ty {
            "array" => "array",
            "boolean" => "boolean",
            "object" => "object",
            "string" => "string",
            "integer" | "number" => "number",
            _ => "any",
        };
        out.insert(path.clone(), ty);
        // Two levels: `prefix` is empty at the top.
        if prefix.is_empty() && (ty == "object" || prop.get("allOf").is_some()) {
            collect(root, prop, &format!("{path}."), seen, out);
        }
    }
}
