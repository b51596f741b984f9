//! An in-memory issue tracker speaking the API the adapter describes.

use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use toolwright_loopback::{Request, Response, Server};

/// On an ephemeral loopback port, for the walkthrough.
pub fn start() -> Server {
    let issues: Arc<Mutex<Vec<Value>>> = Arc::default();
    Server::start(move |req| handle(req, &issues))
}

/// On `addr`, for another program to call (`--serve`).
pub fn bind(addr: &str) -> std::io::Result<Server> {
    let issues: Arc<Mutex<Vec<Value>>> = Arc::default();
    Server::bind(addr, move |req| handle(req, &issues))
}

fn handle(req: &Request, issues: &Mutex<Vec<Value>>) -> Response {
    if req.header("authorization") != Some("Bearer demo-token") {
        return Response::json(401, &json!({"message": "missing or wrong bearer token"}));
    }
    let Ok(mut issues) = issues.lock() else {
        return Response::json(500, &json!({"message": "state poisoned"}));
    };
    let segments: Vec<&str> = req
        .path()
        .trim_start_matches("/api/v1/")
        .split('/')
        .collect();
    match (req.method.as_str(), segments.as_slice()) {
        ("POST", ["projects", _, "issues"]) => {
            let body = req.json();
            let issue = json!({
                "number": issues.len() + 1,
                "title": body["title"],
                "state": "open",
                "labels": body.get("labels").cloned().unwrap_or(json!([])),
            });
            issues.push(issue.clone());
            Response::json(201, &issue)
        }
        ("GET", ["projects", _, "issues"]) => {
            // Two a page; the cursor is where the next page starts.
            let start: usize = req
                .query()
                .and_then(|q| q.split('&').find_map(|p| p.strip_prefix("cursor=")))
                .and_then(|c| c.parse().ok())
                .unwrap_or(0);
            let page: Vec<Value> = issues.iter().skip(start).take(2).cloned().collect();
            let response = Response::json(200, &Value::Array(page));
            if start + 2 < issues.len() {
                response.header("X-Next-Cursor", &(start + 2).to_string())
            } else {
                response
            }
        }
        ("GET" | "PATCH", ["projects", _, "issues", number]) => {
            let found = number
                .parse::<usize>()
                .ok()
                .and_then(|n| issues.get_mut(n.wrapping_sub(1)));
            match found {
                Some(issue) => {
                    if req.method == "PATCH" {
                        issue["state"] = json!("closed");
                    }
                    Response::json(200, issue)
                }
                None => Response::json(
                    404,
                    &json!({"message": format!("issue {number} not found")}),
                ),
            }
        }
        _ => Response::json(404, &json!({"message": "no such route"})),
    }
}
