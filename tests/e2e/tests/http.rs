//! Typed and by-name calls against a real HTTP server on loopback: what goes over the
//! wire (method, encoded path, query, headers with auth, body) and how errors come back.

use serde_json::{Value, json};
use toolwright::{CredentialSource, Error, Executor};
use toolwright_e2e::adapters::{billing, catalog, notes, weather};
use toolwright_loopback::{Request, Response, Server};

fn credentials() -> CredentialSource {
    CredentialSource::from_fn(|name| {
        Some(
            match name {
                "NOTES_TOKEN" => "notes-secret",
                "WEATHER_KEY" => "wk 1&2",
                "BILLING_USER" => "shop",
                "BILLING_PASSWORD" => "pa:ss",
                _ => return None,
            }
            .to_owned(),
        )
    })
}

fn handler(req: &Request) -> Response {
    match (req.method.as_str(), req.path()) {
        ("POST", "/v2/notebooks/work%2Fhome/notes") => {
            Response::json(201, &json!({"id": 7, "title": req.json()["title"]}))
        }
        ("GET", "/v2/notebooks/work/notes/7") => Response::json(
            200,
            &json!({"id": 7, "title": "T", "text": "body", "extra": 1}),
        ),
        ("GET", "/v2/notebooks/work/notes/404") => Response::json(
            404,
            &json!({"error": {"message": "note 404 does not exist"}}),
        ),
        ("GET", "/v2/notes") => Response::json(200, &json!({"hits": []})),
        ("PUT", "/v2/notebooks/work/notes/7") => Response::json(200, &json!({"ok": true})),
        ("DELETE", "/v2/notebooks/work/notes/7") => Response::text(204, ""),
        ("GET", "/current") => {
            Response::json(200, &json!({"temperature": 21.5, "conditions": "sunny"}))
        }
        ("GET", "/forecast/Z%C3%BCrich") => {
            Response::json(200, &json!([{"day": "2026-12-01", "high": 3.0}]))
        }
        ("POST", "/charges") => Response::json(402, &json!({"message": "card declined"})),
        ("POST", "/charges/ch_1/refund") => Response::text(200, "refunded"),
        _ => Response::text(500, "unexpected request"),
    }
}

fn executor(server: &Server) -> Executor {
    Executor::builder(catalog())
        .base_url("notes", format!("{}/v2", server.url()))
        .base_url("weather", server.url())
        .base_url("billing", server.url())
        .credentials(credentials())
        .build()
        .expect("executor")
}

#[tokio::test]
async fn typed_call_sends_path_body_and_bearer_auth() {
    let server = Server::start(handler);
    let client = notes::Client::new(executor(&server));
    let created = client
        .create_note(&notes::CreateNoteInput {
            notebook: "work/home".into(),
            title: "Plan".into(),
            text: None,
            tags: Some(vec!["a".into(), "b".into()]),
            meta: Some(notes::CreateNoteInputMeta {
                source: "cli".into(),
                pinned: Some(true),
            }),
        })
        .await
        .expect("create_note");
    assert_eq!(
        created,
        notes::CreateNoteOutput {
            id: 7,
            title: "Plan".into()
        }
    );

    let [req] = &server.take_requests()[..] else {
        panic!("one request")
    };
    assert_eq!(req.method, "POST");
    assert_eq!(
        req.target, "/v2/notebooks/work%2Fhome/notes",
        "`/` stays inside the segment"
    );
    assert_eq!(req.header("authorization"), Some("Bearer notes-secret"));
    assert_eq!(req.header("content-type"), Some("application/json"));
    assert_eq!(
        req.json(),
        json!({"title": "Plan", "tags": ["a", "b"], "meta": {"source": "cli", "pinned": true}}),
        "optional fields left out, path params not in the body"
    );
}

#[tokio::test]
async fn by_name_call_sends_query_and_returns_json() {
    let server = Server::start(handler);
    let exec = executor(&server);
    let result = exec
        .call(
            "search_notes",
            json!({"q": "rust & go", "tag": ["x", "y"], "limit": 5, "exact": true}),
        )
        .await
        .expect("search_notes");
    assert_eq!(result, json!({"hits": []}));
    let [req] = &server.take_requests()[..] else {
        panic!("one request")
    };
    assert_eq!(req.method, "GET");
    assert_eq!(
        req.target,
        "/v2/notes?q=rust%20%26%20go&tag=x&tag=y&limit=5&exact=true"
    );
    assert!(req.body.is_empty());
}

#[tokio::test]
async fn typed_and_by_name_calls_are_the_same_request() {
    let server = Server::start(handler);
    let exec = executor(&server);
    let typed = notes::Client::new(exec.clone())
        .get_note(&notes::GetNoteInput {
            notebook: "work".into(),
            id: 7,
        })
        .await
        .expect("typed");
    let by_name = exec
        .call("get_note", json!({"notebook": "work", "id": 7}))
        .await
        .expect("by name");
    assert_eq!(typed.title, Some(json!("T")));
    assert_eq!(
        by_name["extra"],
        json!(1),
        "by-name results keep every field"
    );
    let requests = server.take_requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[0].target, requests[1].target);
    assert_eq!(requests[0].headers, requests[1].headers);
}

#[tokio::test]
async fn error_status_carries_upstream_message() {
    let server = Server::start(handler);
    let exec = executor(&server);
    let err = exec
        .call("get_note", json!({"notebook": "work", "id": 404}))
        .await
        .unwrap_err();
    match &err {
        Error::Status {
            status,
            message,
            body,
            ..
        } => {
            assert_eq!(*status, 404);
            assert_eq!(message, "note 404 does not exist");
            assert_eq!(body["error"]["message"], "note 404 does not exist");
        }
        other => panic!("expected a status error, got {other:?}"),
    }
    assert_eq!(
        err.to_string(),
        "`get_note` failed with HTTP 404: note 404 does not exist"
    );

    let typed = billing::Client::new(exec)
        .create_charge(&billing::CreateChargeInput {
            amount: 500,
            currency: "eur".into(),
            customer: "c_1".into(),
            idempotency_key: Some("k-1".into()),
            session: Some("s 1".into()),
        })
        .await
        .unwrap_err();
    assert!(
        matches!(typed, Error::Status { status: 402, ref message, .. } if message == "card declined")
    );
    let [req] = &server.take_requests()[1..] else {
        panic!("two requests")
    };
    assert_eq!(
        req.header("content-type"),
        Some("application/x-www-form-urlencoded")
    );
    assert_eq!(
        String::from_utf8_lossy(&req.body),
        "amount=500&currency=eur&customer=c_1"
    );
    assert_eq!(req.header("idempotency-key"), Some("k-1"));
    assert_eq!(req.header("cookie"), Some("session=s%201"));
    assert_eq!(req.header("authorization"), Some("Basic c2hvcDpwYTpzcw=="));
}

#[tokio::test]
async fn api_key_in_query_and_wrapped_array_output() {
    let server = Server::start(handler);
    let exec = executor(&server);
    let forecast = exec
        .call("forecast", json!({"city": "Zürich", "days": 2}))
        .await
        .unwrap();
    assert_eq!(
        forecast,
        json!({"result": [{"day": "2026-12-01", "high": 3.0}]}),
        "matches outputSchema"
    );
    let [req] = &server.take_requests()[..] else {
        panic!("one request")
    };
    assert_eq!(req.target, "/forecast/Z%C3%BCrich?days=2&appid=wk%201%262");

    let typed = weather::Client::new(exec)
        .forecast(&weather::ForecastInput {
            city: "Zürich".into(),
            days: None,
        })
        .await
        .unwrap();
    assert_eq!(typed[0].day, "2026-12-01");
    assert_eq!(typed[0].low, None);
}

#[tokio::test]
async fn invalid_arguments_name_the_field_and_send_nothing() {
    let server = Server::start(handler);
    let exec = executor(&server);
    let cases = [
        (
            json!({"notebook": "w"}),
            "invalid arguments for `get_note`: field `id`: missing required field of type integer",
        ),
        (
            json!({"notebook": "w", "id": "seven"}),
            "invalid arguments for `get_note`: field `id`: expected an integer, found \"seven\"",
        ),
        (
            json!({"notebook": "w", "id": 1, "force": true}),
            "invalid arguments for `get_note`: field `force`: unknown field; expected one of: id, notebook",
        ),
        (
            json!([1]),
            "invalid arguments for `get_note`: expected a JSON object of arguments, found an array",
        ),
    ];
    for (args, expected) in cases {
        let err = exec.call("get_note", args).await.unwrap_err();
        assert_eq!(err.to_string(), expected);
    }
    let err = exec.call("get_notes", json!({})).await.unwrap_err();
    assert_eq!(
        err.to_string(),
        "no tool named `get_notes` in the catalog; did you mean `get_note`?"
    );
    let err = exec
        .call("get_note", json!({"notebook": "..", "id": 1}))
        .await
        .unwrap_err();
    assert!(matches!(err, Error::Request { .. }), "{err}");
    assert!(server.requests().is_empty());
}

#[tokio::test]
async fn missing_credential_is_named() {
    let server = Server::start(handler);
    let exec = Executor::builder(catalog())
        .base_url("notes", server.url())
        .credentials(CredentialSource::from_fn(|_| None))
        .build()
        .unwrap();
    let err = exec
        .call("delete_note", json!({"notebook": "work", "id": 7}))
        .await
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the credential for API `notes` is missing: set the environment variable `NOTES_TOKEN`"
    );
    assert!(server.requests().is_empty());
}

#[test]
fn catalog_is_sorted_annotated_and_hides_forbidden_operations() {
    let c = catalog();
    let names: Vec<&str> = c.tools().iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(
        names,
        [
            "create_charge",
            "create_note",
            "current_weather",
            "delete_note",
            "forecast",
            "get_note",
            "refund_charge",
            "replace_note",
            "search_notes",
        ]
    );
    assert!(
        c.get("purge_customer").is_none(),
        "danger_level: forbidden is not a tool"
    );
    let hints = |n: &str| {
        let t = c.tool_json(c.get(n).unwrap());
        let a = &t["annotations"];
        [
            &a["readOnlyHint"],
            &a["destructiveHint"],
            &a["idempotentHint"],
        ]
        .map(|v| v.as_bool().unwrap())
    };
    assert_eq!(hints("get_note"), [true, false, true]);
    assert_eq!(hints("delete_note"), [false, true, false]);
    assert_eq!(hints("replace_note"), [false, false, true]);
    assert_eq!(hints("create_charge"), [false, false, false]);
    assert_eq!(hints("refund_charge"), [false, true, false]);
    let refund = c.tool_json(c.get("refund_charge").unwrap());
    assert!(
        refund["description"]
            .as_str()
            .unwrap()
            .ends_with("ask the user before calling this tool.")
    );
    assert_eq!(
        refund["outputSchema"]["properties"]["result"],
        json!({"type": "string"})
    );
    let list = c.to_tools_list();
    for tool in list["tools"].as_array().unwrap() {
        assert_eq!(tool["inputSchema"]["type"], "object");
        assert_eq!(
            tool["inputSchema"]["additionalProperties"],
            Value::Bool(false)
        );
        assert!(tool.get("$schema").is_none());
    }
}

/// Each compiled tool carries its IO contract, read from the static catalog, the same
/// as the interpreted catalog's.
#[test]
fn compiled_tools_carry_their_contracts() {
    let compiled = catalog();
    let get_note = compiled.get("get_note").unwrap().contract().unwrap();
    let consumes = get_note["consumes"].as_array().unwrap();
    let id = consumes.iter().find(|c| c["name"] == "id").unwrap();
    assert_eq!(id["location"], "path");
    assert_eq!(id["kind"], "data");
    assert_eq!(id["identifies"], "note.id");
    assert!(
        consumes.iter().any(|c| c["name"] == "notebook"),
        "{get_note}"
    );
    let create = compiled.get("create_note").unwrap().contract().unwrap();
    let produces = create["produces"].as_array().unwrap();
    assert!(
        produces.iter().any(|p| p["identifies"] == "note.id"),
        "{create}"
    );
    let adapters = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../adapters");
    let analysis = toolwright_codegen::analyze(&[adapters], false);
    let interpreted = toolwright_cli::interpret::catalog(&analysis.apis).unwrap();
    for tool in compiled.tools() {
        let other = interpreted.get(&tool.name).unwrap();
        assert_eq!(tool.contract(), other.contract(), "{}", tool.name);
    }
}

/// The compiled catalog equals the one the CLI interprets from the same adapters
/// (`tests/golden/expected/catalog.json`, pinned by codegen's CLI test).
#[test]
fn compiled_catalog_equals_interpreted_catalog() {
    let expected: Value =
        serde_json::from_str(include_str!("../../golden/expected/catalog.json")).unwrap();
    assert_eq!(catalog().to_tools_list(), expected);
    let expected: Value =
        serde_json::from_str(include_str!("../../golden/expected-openapi/catalog.json")).unwrap();
    assert_eq!(toolwright_e2e::openapi::catalog().to_tools_list(), expected);
}

#[test]
fn source_metadata_stays_inspectable() {
    let c = catalog();
    assert_eq!(c.api("notes").unwrap().meta_json(), Value::Null);
    let billing = c.api("billing").unwrap();
    assert_eq!(billing.base_url, "https://billing.example.com");
}

/// A failed connection says where it went (no query: it may hold an API key) and why,
/// down the whole cause chain, not only "error sending request".
#[tokio::test]
async fn transport_errors_carry_the_url_and_the_reason() {
    let exec = Executor::builder(catalog())
        .base_url("notes", "http://127.0.0.1:9/v2")
        .credentials(credentials())
        .build()
        .unwrap();
    let err = exec
        .call("get_note", json!({"notebook": "w", "id": 1}))
        .await
        .unwrap_err();
    let text = err.to_string();
    assert!(
        // A refused connection is retried (GET is idempotent), and says so.
        text.starts_with("transport error: GET http://127.0.0.1:9/v2/notebooks/w/notes/1 failed (after 3 attempts): error sending request"),
        "{text}"
    );
    assert!(text.contains("Connection refused"), "{text}");
    assert!(!text.contains("notes-secret"), "{text}");
}
