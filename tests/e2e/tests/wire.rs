//! Every request exactly as the description says, byte for byte, for the constructs of
//! `tests/openapi/wire.yaml`: real requests to a loopback server, by name (as a model
//! sends them) and typed where the construct has a typed form.

use serde_json::{Value, json};
use toolwright::{CredentialSource, Error, Executor};
use toolwright_e2e::openapi::{catalog, wire};
use toolwright_loopback::{Request, Response, Server};

fn server() -> Server {
    Server::start(|req| match req.path() {
        "/v1/report" => Response {
            status: 200,
            content_type: "application/json".into(),
            body: b"<html>login required</html>".to_vec(),
            headers: Vec::new(),
        },
        _ => Response {
            status: 204,
            content_type: "application/json".into(),
            body: Vec::new(),
            headers: Vec::new(),
        },
    })
}

fn executor(server: &Server) -> Executor {
    Executor::builder(catalog())
        .base_url("wire", format!("{}/v1", server.url()))
        .credentials(CredentialSource::from_fn(|name| {
            Some(
                match name {
                    "WIRE_API_KEY" => "s3cret",
                    "WIRE_API_TOKEN" => "t0ken",
                    "WIRE_APP_ID" => "app-1",
                    "WIRE_QUERY_TOKEN" => "q-t0k",
                    _ => return None,
                }
                .to_owned(),
            )
        }))
        .build()
        .unwrap()
}

/// Calls `tool` by name and returns the one request the server received.
async fn sent(tool: &str, args: Value) -> Request {
    let server = server();
    executor(&server).call(tool, args).await.unwrap();
    let mut requests = server.requests();
    assert_eq!(requests.len(), 1, "{tool}: one request");
    requests.pop().unwrap()
}

#[tokio::test]
async fn json_wildcards_send_application_json() {
    // The ASP.NET set lists `application/*+json` first in key order; `text/json` and
    // `application/json-patch+json` are concrete, so one of them goes out, never the
    // wildcard.
    let req = sent("aspnetBody", json!({"theme": "dark"})).await;
    assert_eq!(
        req.header("content-type"),
        Some("application/json-patch+json")
    );
    assert_eq!(req.body, br#"{"theme":"dark"}"#);
    // Only a wildcard: `application/json`.
    let req = sent("wildcardOnly", json!({"size": 2})).await;
    assert_eq!(req.method, "POST");
    assert_eq!(req.header("content-type"), Some("application/json"));
    assert_eq!(req.body, br#"{"size":2}"#);
    // `*/*` with an object schema: its properties are arguments, sent as JSON.
    let req = sent("anyMediaJsonSchema", json!({"note": "hi"})).await;
    assert_eq!(req.header("content-type"), Some("application/json"));
    assert_eq!(req.body, br#"{"note":"hi"}"#);
    // A media type chosen per call is made concrete the same way.
    let server = server();
    executor(&server)
        .call_as("aspnetBody", json!({"size": 1}), "application/*+json")
        .await
        .unwrap();
    assert_eq!(
        server.requests()[0].header("content-type"),
        Some("application/json")
    );
}

#[tokio::test]
async fn an_api_key_parameter_is_the_credential_and_sent_once() {
    let tool = catalog();
    let tool = tool.get("keyedSearch").unwrap();
    let schema: Value = serde_json::from_str(&tool.input_schema).unwrap();
    // Only `q` is an argument (its description is composed: the spec gives none).
    assert_eq!(schema["properties"]["q"]["type"], "string");
    assert_eq!(
        schema["properties"].as_object().unwrap().len(),
        1,
        "{schema}"
    );
    let meta: Value = serde_json::from_str(tool.meta.as_deref().unwrap()).unwrap();
    assert_eq!(
        meta["toolwright"]["native"]["credentialParameters"]["parameters"],
        json!([{"in": "query", "name": "key"}])
    );
    let req = sent("keyedSearch", json!({"q": "x"})).await;
    assert_eq!(req.target, "/v1/keyed?q=x&key=s3cret");
    // A model cannot supply it either.
    let server = server();
    let err = executor(&server)
        .call("keyedSearch", json!({"key": "mine"}))
        .await
        .unwrap_err();
    assert!(matches!(err, Error::InvalidArguments { .. }), "{err}");
    assert!(server.requests().is_empty());
}

#[tokio::test]
async fn a_required_body_goes_out_even_when_empty() {
    let req = sent("putPrefs", json!({})).await;
    assert_eq!(req.method, "PUT");
    assert_eq!(req.header("content-type"), Some("application/json"));
    assert_eq!(req.body, b"{}");
    let server = server();
    wire::Client::new(executor(&server))
        .put_prefs(&wire::PutPrefsInput {
            size: None,
            theme: None,
        })
        .await
        .unwrap();
    assert_eq!(server.requests()[0].body, b"{}");
}

#[tokio::test]
async fn typed_calls_need_no_tools_and_send_the_same_requests() {
    // `apis_only()` carries base URLs and auth but no tools: a service that makes
    // only typed calls links none of the schemas. The requests are byte for byte
    // those of the full catalog, credentials included.
    let send = |catalog: toolwright::Catalog| async move {
        let server = server();
        let executor = Executor::builder(catalog)
            .base_url("wire", format!("{}/v1", server.url()))
            .credentials(CredentialSource::from_fn(|name| {
                (name == "WIRE_API_KEY").then(|| "s3cret".to_owned())
            }))
            .build()
            .unwrap();
        let client = wire::Client::new(executor);
        client
            .put_prefs(&wire::PutPrefsInput {
                size: Some(2),
                theme: None,
            })
            .await
            .unwrap();
        client
            .keyed_search(&wire::KeyedSearchInput {
                q: Some("x".into()),
            })
            .await
            .unwrap();
        server.requests()
    };
    let full = send(catalog()).await;
    let bare = send(toolwright_e2e::openapi::apis_only()).await;
    assert_eq!(bare.len(), 2);
    for (bare, full) in bare.iter().zip(&full) {
        assert_eq!(bare.method, full.method);
        assert_eq!(bare.target, full.target);
        assert_eq!(bare.header("content-type"), full.header("content-type"));
        assert_eq!(bare.body, full.body);
    }
    assert_eq!(bare[1].target, "/v1/keyed?q=x&key=s3cret");
    // Without tools, a call by name finds none.
    assert!(
        toolwright_e2e::openapi::apis_only()
            .get("putPrefs")
            .is_none()
    );
}

#[tokio::test]
async fn content_based_parameters_are_json_then_percent_encoded() {
    let req = sent("filtered", json!({"filter": {"color": "red", "size": 2}})).await;
    assert_eq!(
        req.target,
        "/v1/filtered?filter=%7B%22color%22%3A%22red%22%2C%22size%22%3A2%7D"
    );
}

#[tokio::test]
async fn allow_reserved_never_lets_a_value_change_the_url() {
    let req = sent("reserved", json!({"path": "a/b:c?d#e&f=g"})).await;
    assert_eq!(req.target, "/v1/reserved?path=a/b:c?d%23e%26f=g");
}

#[tokio::test]
async fn multipart_parts_carry_their_media_types() {
    let req = sent(
        "upload",
        json!({
            "file": "aGk=",
            "avatar": "iVBO",
            "meta": {"a": 1},
            "tags": ["x", "y"],
            "count": 3,
            "title": "T"
        }),
    )
    .await;
    let ct = req.header("content-type").unwrap().to_owned();
    let boundary = ct.strip_prefix("multipart/form-data; boundary=").unwrap();
    let part = |head: &str, body: &[u8]| {
        let mut p = format!("--{boundary}\r\n{head}\r\n\r\n").into_bytes();
        p.extend_from_slice(body);
        p.extend_from_slice(b"\r\n");
        p
    };
    let disposition = |name: &str| format!("Content-Disposition: form-data; name=\"{name}\"");
    // The body's properties in key order (serde_json sorts them).
    let mut expected = [
        part(
            &format!(
                "{}; filename=\"avatar\"\r\nContent-Type: image/png",
                disposition("avatar")
            ),
            &[0x89, 0x50, 0x4e],
        ),
        part(&disposition("count"), b"3"),
        part(
            &format!(
                "{}; filename=\"file\"\r\nContent-Type: application/octet-stream",
                disposition("file")
            ),
            b"hi",
        ),
        part(
            &format!("{}\r\nContent-Type: application/json", disposition("meta")),
            br#"{"a":1}"#,
        ),
        [
            part(&disposition("tags"), b"x"),
            part(&disposition("tags"), b"y"),
        ]
        .concat(),
        part(&disposition("title"), b"T"),
    ]
    .concat();
    expected.extend(format!("--{boundary}--\r\n").into_bytes());
    assert_eq!(
        String::from_utf8_lossy(&req.body),
        String::from_utf8_lossy(&expected)
    );
}

#[tokio::test]
async fn form_properties_follow_their_encoding() {
    let req = sent(
        "submitForm",
        json!({
            "ids": [1, 2],
            "tags": ["a", "b"],
            "filter": {"color": "red", "size": 2},
            "raw": "a/b?c#d&e"
        }),
    )
    .await;
    assert_eq!(
        req.header("content-type"),
        Some("application/x-www-form-urlencoded")
    );
    assert_eq!(
        String::from_utf8_lossy(&req.body),
        "filter%5Bcolor%5D=red&filter%5Bsize%5D=2&ids=1%2C2&raw=a/b?c%23d%26e&tags=a%7Cb"
    );
}

#[tokio::test]
async fn format_byte_bodies_go_out_as_base64_text() {
    let req = sent("putCover", json!({"body": "/9j/4AAQ"})).await;
    assert_eq!(req.header("content-type"), Some("image/jpeg"));
    assert_eq!(req.body, b"/9j/4AAQ");
}

#[tokio::test]
async fn an_optional_body_keeps_its_required_properties() {
    // No body at all is fine...
    let req = sent("createSender", json!({})).await;
    assert!(req.body.is_empty());
    // ...but a body needs what its object requires.
    let server = server();
    let err = executor(&server)
        .call("createSender", json!({"nickname": "n"}))
        .await
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid arguments for `createSender`: field `from`: missing field: required when `nickname` is given (dependentRequired)"
    );
    assert!(server.requests().is_empty());
    let req = sent(
        "createSender",
        json!({"nickname": "n", "from": "a@example.com"}),
    )
    .await;
    assert_eq!(req.body, br#"{"from":"a@example.com","nickname":"n"}"#);
}

#[tokio::test]
async fn a_base_url_with_a_query_or_fragment_is_refused() {
    for url in ["https://h.example/v1?x=1", "https://h.example/v1#top"] {
        let err = Executor::builder(catalog())
            .base_url("wire", url)
            .build()
            .unwrap_err();
        assert!(
            matches!(&err, Error::Config { message, .. } if message.contains("query or fragment")),
            "{err}"
        );
    }
}

#[tokio::test]
async fn a_json_response_that_is_not_json_is_an_error() {
    let server = server();
    let err = executor(&server)
        .call("getReport", json!({}))
        .await
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the response of `getReport` does not fit its output type: HTTP 200 with content type `application/json` is not JSON: <html>login required</html>"
    );
}

#[tokio::test]
async fn long_upstream_messages_are_cut_and_the_body_kept() {
    let long = "x".repeat(2_000);
    let body = json!({"message": long});
    let server = Server::start(move |_| Response::json(500, &body));
    let err = executor(&server)
        .call("getReport", json!({}))
        .await
        .unwrap_err();
    let Error::Status { message, body, .. } = &err else {
        panic!("{err}");
    };
    assert_eq!(
        message.chars().count(),
        500 + "… (1500 more characters)".chars().count()
    );
    assert_eq!(body["message"].as_str().unwrap().len(), 2_000);
}

/// Alternatives: `api_token` comes first in the description, but the operation requires
/// the `key` parameter only `api_key` supplies, so that alternative is applied — the
/// token is not sent, and `key` is neither an argument nor missing.
#[tokio::test]
async fn the_alternative_that_supplies_a_required_key_is_applied() {
    let tools = catalog();
    let tool = tools.get("eitherCredential").unwrap();
    let schema: Value = serde_json::from_str(&tool.input_schema).unwrap();
    // Only `q` is an argument (its description is composed: the spec gives none).
    assert_eq!(schema["properties"]["q"]["type"], "string");
    assert_eq!(
        schema["properties"].as_object().unwrap().len(),
        1,
        "{schema}"
    );
    let req = sent("eitherCredential", json!({"q": "x"})).await;
    assert_eq!(req.target, "/v1/alternatives?q=x&key=s3cret");
    assert_eq!(req.header("x-api-token"), None);
}

/// One requirement of two schemes: both credentials go out.
#[tokio::test]
async fn every_scheme_of_a_requirement_is_applied() {
    let req = sent("bothCredentials", json!({})).await;
    assert_eq!(req.target, "/v1/both?key=s3cret");
    assert_eq!(req.header("x-app-id"), Some("app-1"));
}

#[tokio::test]
async fn a_property_read_only_through_its_ref_is_no_argument() {
    let tools = catalog();
    let schema: Value =
        serde_json::from_str(&tools.get("createNote").unwrap().input_schema).unwrap();
    assert_eq!(
        schema["properties"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["text"]
    );
    let req = sent("createNote", json!({"text": "hi"})).await;
    assert_eq!(req.body, br#"{"text":"hi"}"#);
    let server = server();
    let err = executor(&server)
        .call("createNote", json!({"text": "hi", "id": "n1"}))
        .await
        .unwrap_err();
    assert!(matches!(err, Error::InvalidArguments { .. }), "{err}");
}

#[tokio::test]
async fn an_array_body_with_stray_properties_stays_an_array() {
    let tools = catalog();
    let schema: Value =
        serde_json::from_str(&tools.get("batchNotes").unwrap().input_schema).unwrap();
    assert_eq!(schema["properties"]["body"]["type"], "array", "{schema}");
    let req = sent(
        "batchNotes",
        json!({"body": [{"text": "a"}, {"text": "b"}]}),
    )
    .await;
    assert_eq!(req.header("content-type"), Some("application/json"));
    assert_eq!(req.body, br#"[{"text":"a"},{"text":"b"}]"#);
}

/// A multipart body kept whole (its `name` is also the path's): each field a part of
/// OpenAPI's default media type for its value — numbers and booleans `text/plain`
/// (no header), objects `application/json`, an array one part per item.
#[tokio::test]
async fn a_whole_multipart_body_sends_parts_by_type() {
    let req = sent(
        "uploadItem",
        json!({
            "name": "box",
            "body": {"name": "Box", "count": 3, "public": true, "meta": {"k": "v"}, "tags": ["a", "b"]}
        }),
    )
    .await;
    assert_eq!(req.path(), "/v1/items/box");
    let ct = req.header("content-type").unwrap().to_owned();
    let boundary = ct.strip_prefix("multipart/form-data; boundary=").unwrap();
    let part = |name: &str, head: &str, body: &str| {
        format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"{head}\r\n\r\n{body}\r\n"
        )
    };
    let expected = [
        part("count", "", "3"),
        part("meta", "\r\nContent-Type: application/json", r#"{"k":"v"}"#),
        part("name", "", "Box"),
        part("public", "", "true"),
        part("tags", "", "a"),
        part("tags", "", "b"),
        format!("--{boundary}--\r\n"),
    ]
    .concat();
    assert_eq!(String::from_utf8_lossy(&req.body), expected);
}

/// Trello's shape: `security: [{api_key}, {query_token}]` while the operation requires
/// both `key` and `token`. A validating server wants both whichever alternative it
/// reads, so both go out; neither is an argument.
#[tokio::test]
async fn every_required_credential_is_sent_whichever_alternative_carries_it() {
    let tools = catalog();
    let schema: Value = serde_json::from_str(&tools.get("getCard").unwrap().input_schema).unwrap();
    assert_eq!(schema["required"], json!(["id"]), "{schema}");
    let req = sent("getCard", json!({"id": "c1"})).await;
    assert_eq!(req.target, "/v1/cards/c1?key=s3cret&token=q-t0k");
    assert_eq!(req.header("x-api-token"), None);
}

/// With one of the two keys not configured, the call fails naming its variable, and
/// nothing is sent (never a request the server would refuse for the other key).
#[tokio::test]
async fn a_missing_required_credential_is_named_before_anything_is_sent() {
    let server = server();
    let exec = Executor::builder(catalog())
        .base_url("wire", format!("{}/v1", server.url()))
        .credentials(CredentialSource::from_fn(|name| {
            (name == "WIRE_API_KEY").then(|| "s3cret".to_owned())
        }))
        .build()
        .unwrap();
    let err = exec.call("getCard", json!({"id": "c1"})).await.unwrap_err();
    match &err {
        Error::MissingCredential { env, .. } => assert_eq!(env, "WIRE_QUERY_TOKEN"),
        other => panic!("expected the missing token named, got {other}"),
    }
    assert!(err.to_string().contains("`WIRE_QUERY_TOKEN`"), "{err}");
    assert!(server.requests().is_empty());
}
