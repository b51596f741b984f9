//! The API behind the adapter format's own example (`tests/seed/resources-adapter.md`):
//! a cursor API of 7 resources, 3 a page, the next cursor in `next_cursor`, each item cut
//! to the `fields` asked for, and `POST /resources` answering 201 with what it was sent.

use serde_json::{Value, json};

use crate::{Request, Response, Server};

/// Number of resources the API holds.
pub const RESOURCES: usize = 7;
/// Resources per page.
pub const PAGE: usize = 3;

/// Starts the resources API on a loopback port.
pub fn resources() -> Server {
    Server::start(|req| match req.method.as_str() {
        "POST" => {
            let mut made = req.json();
            if let Some(object) = made.as_object_mut() {
                object.insert("id".into(), json!(RESOURCES));
            }
            Response::json(201, &made)
        }
        _ => list(req),
    })
}

fn list(req: &Request) -> Response {
    let query = req.query().unwrap_or("");
    let param = |name: &str| {
        query
            .split('&')
            .find_map(|p| p.strip_prefix(&format!("{name}=")))
            .map(str::to_owned)
    };
    let start: usize = param("cursor")
        .and_then(|c| c.strip_prefix('c').and_then(|n| n.parse().ok()))
        .unwrap_or(0);
    let fields = param("fields").map(|f| f.replace("%2C", ","));
    let items: Vec<Value> = (start..RESOURCES.min(start + PAGE))
        .map(|i| {
            let full = json!({"id": i, "title": format!("r{i}"), "created_at": "2026-12-02"});
            match &fields {
                Some(keep) => full
                    .as_object()
                    .into_iter()
                    .flatten()
                    .filter(|(k, _)| keep.split(',').any(|f| f == k.as_str()))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect(),
                None => full,
            }
        })
        .collect();
    let next = (start + PAGE < RESOURCES).then(|| format!("c{}", start + PAGE));
    Response::json(200, &json!({"data": items, "next_cursor": next}))
}
