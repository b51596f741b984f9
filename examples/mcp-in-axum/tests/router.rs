//! The service's router, served by axum on loopback: its own route answers, and
//! requests to `/mcp` reach the MCP endpoint through it — refused without the token,
//! a session and a tool call with it.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use serde_json::{Value, json};
use toolwright::serve::mcp::BearerTokens;

const TOKEN: &str = "axum-example-token-0123456789";

fn request(port: u16, method: &str, path: &str, headers: &[(&str, &str)], body: &Value) -> String {
    let body = if body.is_null() {
        String::new()
    } else {
        body.to_string()
    };
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    write!(stream, "{head}\r\n{body}").unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer
}

fn header<'a>(answer: &'a str, name: &str) -> Option<&'a str> {
    answer.split("\r\n\r\n").next()?.lines().find_map(|line| {
        let (k, v) = line.split_once(':')?;
        k.eq_ignore_ascii_case(name).then(|| v.trim())
    })
}

#[test]
fn the_mcp_endpoint_answers_through_the_services_router() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let port = listener.local_addr().unwrap().port();
    let app = mcp_in_axum::app(BearerTokens::new().token("team", TOKEN).unwrap()).unwrap();
    runtime.spawn(async move { axum::serve(listener, app).await });

    let health = request(port, "GET", "/health", &[], &Value::Null);
    assert!(
        health.starts_with("HTTP/1.1 200") && health.ends_with("ok"),
        "{health}"
    );

    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                      "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                                 "clientInfo": {"name": "t", "version": "1"}}});
    let refused = request(port, "POST", "/mcp", &[], &init);
    assert!(refused.starts_with("HTTP/1.1 401"), "{refused}");
    assert!(header(&refused, "www-authenticate").is_some_and(|c| c.starts_with("Bearer")));

    let bearer = format!("Bearer {TOKEN}");
    let started = request(port, "POST", "/mcp", &[("Authorization", &bearer)], &init);
    assert!(started.starts_with("HTTP/1.1 200"), "{started}");
    let session = header(&started, "mcp-session-id")
        .expect("a session")
        .to_owned();
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                      "params": {"name": "get_City", "arguments": {"name": "Lyon"}}});
    let answer = request(
        port,
        "POST",
        "/mcp",
        &[
            ("Authorization", &bearer),
            ("Mcp-Session-Id", &session),
            ("MCP-Protocol-Version", "2025-11-25"),
        ],
        &call,
    );
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("\"population\":522250"), "{answer}");
}
