//! How one tool pages, read from its catalog metadata (`_meta.toolwright.pagination`,
//! written by codegen from the adapter's `pagination` or the OpenAPI document's hints),
//! and the step from one page to the next.

use serde_json::{Map, Value};

/// The ways APIs hand out the next page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PageStyle {
    /// An opaque value from the page (a field, a header, or the last item's id) goes
    /// into a request parameter (`cursor`, `page_token`, `starting_after`).
    Cursor,
    /// `offset` advances by the number of items received.
    Offset,
    /// `page` counts up from its first number.
    Page,
    /// The `Link` header's `rel="next"` URL.
    LinkHeader,
}

/// Where the next cursor is.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Locator {
    /// A field of the body, by path (`meta.next_cursor`).
    Field(Vec<String>),
    /// A response header.
    Header(String),
}

/// A tool's pagination.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Plan {
    pub style: PageStyle,
    /// The input field the cursor, offset or page number goes in.
    param: String,
    /// The input field of the page size, when the tool has one.
    limit_param: Option<String>,
    /// Where the next cursor is; `None`: the usual field names.
    next: Option<Locator>,
    /// The next cursor is this field of the page's last item (Stripe's `id`).
    from_item: Option<String>,
    /// The field saying whether more pages follow.
    has_more: Option<Vec<String>>,
    /// The items' field; `None`: the body when it is an array, else the usual names.
    items: Option<Vec<String>>,
    /// The first page's number (`page` style).
    start: i64,
}

/// Where the next page comes from.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Next {
    /// The same tool with these arguments.
    Args(Map<String, Value>),
    /// A URL the API gave (a `Link` header, a `next` field holding a URL).
    Url(String),
}

/// Names APIs use for a page's items, in the order tried.
const ITEM_FIELDS: &[&str] = &[
    "data", "items", "results", "values", "value", "records", "entries", "elements", "nodes",
    "list",
];
/// Names APIs use for the next cursor, in the order tried.
const CURSOR_FIELDS: &[&str] = &[
    "next_cursor",
    "nextCursor",
    "next_page_token",
    "nextPageToken",
    "next_token",
    "nextToken",
    "continuation_token",
    "continuationToken",
    "cursor",
    "next",
    "meta.next_cursor",
    "meta.nextCursor",
    "response_metadata.next_cursor",
    "metadata.continue",
    "pagination.next_cursor",
    "paging.next",
    "links.next",
    "@odata.nextLink",
    "nextLink",
];

impl Plan {
    /// The plan a tool's metadata declares, if any.
    pub(crate) fn of(meta: Option<&str>) -> Option<Plan> {
        let meta = meta.filter(|m| m.contains("\"pagination\""))?;
        let meta: Value = serde_json::from_str(meta).ok()?;
        let p = meta.pointer("/toolwright/pagination")?;
        let text = |k: &str| p.get(k).and_then(Value::as_str).map(str::to_owned);
        let path = |k: &str| text(k).map(|t| split_path(&t));
        let style = match text("style")?.as_str() {
            "cursor" | "token" => PageStyle::Cursor,
            "offset" => PageStyle::Offset,
            "page" => PageStyle::Page,
            "link_header" => PageStyle::LinkHeader,
            _ => return None,
        };
        let param = match style {
            PageStyle::Cursor => text("cursor_param").unwrap_or_else(|| "cursor".into()),
            PageStyle::Offset => text("offset_param").unwrap_or_else(|| "offset".into()),
            PageStyle::Page => text("page_param").unwrap_or_else(|| "page".into()),
            PageStyle::LinkHeader => String::new(),
        };
        Some(Plan {
            style,
            param,
            limit_param: text("limit_param"),
            next: text("next_cursor").map(|t| match t.strip_prefix("header:") {
                Some(h) => Locator::Header(h.trim().to_ascii_lowercase()),
                None => Locator::Field(split_path(&t)),
            }),
            from_item: text("cursor_from_item"),
            has_more: path("has_more"),
            items: path("items"),
            start: p.get("start").and_then(Value::as_i64).unwrap_or(1),
        })
    }

    /// The page's items: the declared field, the body itself when it is an array, a
    /// usual field name, or the object's only array.
    pub(crate) fn items<'a>(&self, body: &'a Value) -> &'a [Value] {
        let found = match &self.items {
            Some(path) => lookup(body, path),
            None if body.is_array() => Some(body),
            None => ITEM_FIELDS
                .iter()
                .find_map(|f| body.get(f).filter(|v| v.is_array()))
                .or_else(|| {
                    let mut arrays = body.as_object()?.values().filter(|v| v.is_array());
                    let only = arrays.next()?;
                    arrays.next().is_none().then_some(only)
                }),
        };
        found.and_then(Value::as_array).map_or(&[], Vec::as_slice)
    }

    /// The request for the page after this one, or `None` at the end. `args` are the
    /// arguments this page was asked with.
    pub(crate) fn next(
        &self,
        args: &Map<String, Value>,
        headers: &http::HeaderMap,
        body: &Value,
    ) -> Option<Next> {
        let items = self.items(body);
        if let Some(path) = &self.has_more
            && lookup(body, path).and_then(Value::as_bool) == Some(false)
        {
            return None;
        }
        let with = |value: Value| {
            let mut args = args.clone();
            args.insert(self.param.clone(), value);
            Some(Next::Args(args))
        };
        match self.style {
            PageStyle::LinkHeader => link_next(headers).map(Next::Url),
            PageStyle::Cursor => {
                let cursor = if let Some(field) = &self.from_item {
                    items.last()?.get(field).cloned()?
                } else {
                    match &self.next {
                        Some(Locator::Header(name)) => {
                            Value::String(headers.get(name)?.to_str().ok()?.to_owned())
                        }
                        Some(Locator::Field(path)) => lookup(body, path)?.clone(),
                        None => CURSOR_FIELDS
                            .iter()
                            .find_map(|f| lookup(body, &split_path(f)).filter(|v| usable(v)))?
                            .clone(),
                    }
                };
                if !usable(&cursor) || args.get(&self.param) == Some(&cursor) {
                    // No cursor, or the same one again: the end (never a loop).
                    return None;
                }
                match cursor.as_str() {
                    // Some APIs give the whole next URL (`next`, `@odata.nextLink`).
                    Some(url) if url.starts_with("https://") || url.starts_with("http://") => {
                        Some(Next::Url(url.to_owned()))
                    }
                    _ => with(cursor),
                }
            }
            PageStyle::Offset | PageStyle::Page => {
                if items.is_empty() || self.short_page(args, items.len()) {
                    return None;
                }
                let current = args.get(&self.param).and_then(Value::as_i64);
                let next = match self.style {
                    PageStyle::Offset => current.unwrap_or(0) + items.len() as i64,
                    _ => current.unwrap_or(self.start) + 1,
                };
                with(Value::from(next))
            }
        }
    }

    /// Fewer items than the page size asked for: the last page.
    fn short_page(&self, args: &Map<String, Value>, received: usize) -> bool {
        self.limit_param
            .as_ref()
            .and_then(|p| args.get(p))
            .and_then(Value::as_u64)
            .is_some_and(|limit| (received as u64) < limit)
    }
}

/// A cursor worth sending: a non-empty string or a number.
fn usable(v: &Value) -> bool {
    match v {
        Value::String(s) => !s.is_empty(),
        Value::Number(_) => true,
        _ => false,
    }
}

fn split_path(path: &str) -> Vec<String> {
    // `@odata.nextLink` is one key with a dot in it.
    if path.starts_with('@') {
        return vec![path.to_owned()];
    }
    path.split('.').map(str::to_owned).collect()
}

fn lookup<'a>(body: &'a Value, path: &[String]) -> Option<&'a Value> {
    path.iter().try_fold(body, |v, k| v.get(k))
}

/// The `rel="next"` target of a `Link` header (RFC 8288): `<url>; rel="next"`, any
/// number of links, rel values space-separated, quoted or not.
fn link_next(headers: &http::HeaderMap) -> Option<String> {
    for value in headers.get_all(http::header::LINK) {
        let Ok(value) = value.to_str() else { continue };
        let mut rest = value;
        while let Some(open) = rest.find('<') {
            let close = open + rest[open..].find('>')?;
            let target = &rest[open + 1..close];
            let params_end = rest[close..].find('<').map_or(rest.len(), |i| close + i);
            // Up to the comma before the next link (GitHub lists `next` first:
            // `<…>; rel="next", <…>; rel="last"`).
            let params = rest[close + 1..params_end].trim_end().trim_end_matches(',');
            let is_next = params.split(';').any(|p| {
                let Some((k, v)) = p.split_once('=') else {
                    return false;
                };
                k.trim().eq_ignore_ascii_case("rel")
                    && v.trim()
                        .trim_matches('"')
                        .split_ascii_whitespace()
                        .any(|r| r.eq_ignore_ascii_case("next"))
            });
            if is_next {
                return Some(target.trim().to_owned());
            }
            rest = &rest[params_end..];
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn plan(pagination: Value) -> Plan {
        Plan::of(Some(
            &json!({"toolwright": {"pagination": pagination}}).to_string(),
        ))
        .unwrap()
    }

    fn args(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    fn headers(pairs: &[(&'static str, &str)]) -> http::HeaderMap {
        pairs
            .iter()
            .map(|(k, v)| {
                (
                    http::HeaderName::from_static(k),
                    http::HeaderValue::from_str(v).unwrap(),
                )
            })
            .collect()
    }

    #[test]
    fn cursors_come_from_fields_headers_or_the_last_item() {
        let none = http::HeaderMap::new();
        let p = plan(json!({"style": "cursor"}));
        let body = json!({"data": [1, 2], "meta": {"next_cursor": "c2"}});
        assert_eq!(p.items(&body), &[json!(1), json!(2)]);
        assert_eq!(
            p.next(&args(json!({"q": "x"})), &none, &body),
            Some(Next::Args(args(json!({"q": "x", "cursor": "c2"}))))
        );
        // The same cursor again, or none: the end.
        assert_eq!(p.next(&args(json!({"cursor": "c2"})), &none, &body), None);
        assert_eq!(p.next(&args(json!({})), &none, &json!({"data": []})), None);

        let p = plan(
            json!({"style": "cursor", "cursor_param": "after", "next_cursor": "header:X-Next"}),
        );
        assert_eq!(
            p.next(
                &args(json!({})),
                &headers(&[("x-next", "abc")]),
                &json!([1])
            ),
            Some(Next::Args(args(json!({"after": "abc"}))))
        );

        let stripe = plan(json!({"style": "cursor", "cursor_param": "starting_after",
            "cursor_from_item": "id", "has_more": "has_more", "items": "data"}));
        let body = json!({"data": [{"id": "a"}, {"id": "b"}], "has_more": true});
        assert_eq!(
            stripe.next(&args(json!({})), &none, &body),
            Some(Next::Args(args(json!({"starting_after": "b"}))))
        );
        let last = json!({"data": [{"id": "c"}], "has_more": false});
        assert_eq!(stripe.next(&args(json!({})), &none, &last), None);

        // A next *URL* in the body (OData, many REST APIs).
        let graph =
            plan(json!({"style": "cursor", "next_cursor": "@odata.nextLink", "items": "value"}));
        let body =
            json!({"value": [1], "@odata.nextLink": "https://g.example/v1/users?$skiptoken=x"});
        assert_eq!(
            graph.next(&args(json!({})), &none, &body),
            Some(Next::Url("https://g.example/v1/users?$skiptoken=x".into()))
        );
    }

    #[test]
    fn offsets_and_pages_count_up_until_a_short_or_empty_page() {
        let none = http::HeaderMap::new();
        let p = plan(json!({"style": "offset", "limit_param": "limit"}));
        let full = json!([1, 2]);
        assert_eq!(
            p.next(&args(json!({"limit": 2})), &none, &full),
            Some(Next::Args(args(json!({"limit": 2, "offset": 2}))))
        );
        assert_eq!(p.next(&args(json!({"limit": 3})), &none, &full), None);
        assert_eq!(p.next(&args(json!({})), &none, &json!([])), None);

        let p = plan(json!({"style": "page", "page_param": "p", "start": 0}));
        assert_eq!(
            p.next(&args(json!({})), &none, &json!({"results": [1]})),
            Some(Next::Args(args(json!({"p": 1}))))
        );
    }

    #[test]
    fn link_headers_give_the_next_url() {
        let p = plan(json!({"style": "link_header"}));
        let h = headers(&[(
            "link",
            r#"<https://api.example.com/r?page=1>; rel="prev", <https://api.example.com/r?page=3>; rel="next last""#,
        )]);
        assert_eq!(
            p.next(&args(json!({})), &h, &json!([])),
            Some(Next::Url("https://api.example.com/r?page=3".into()))
        );
        // GitHub's order: `next` first, more links after it.
        let github = headers(&[(
            "link",
            r#"<https://api.github.com/repositories/1/issues?page=2>; rel="next", <https://api.github.com/repositories/1/issues?page=9>; rel="last""#,
        )]);
        assert_eq!(
            p.next(&args(json!({})), &github, &json!([1])),
            Some(Next::Url(
                "https://api.github.com/repositories/1/issues?page=2".into()
            ))
        );
        let end = headers(&[("link", r#"<https://api.example.com/r?page=1>; rel=first"#)]);
        assert_eq!(p.next(&args(json!({})), &end, &json!([1])), None);
    }
}
