//! One validation for every path: the same invalid arguments, sent by name to the
//! generated catalog, by name to the catalog `toolwright call`/`serve` interpret at
//! run time, and (where the type allows the value) through the typed client, are
//! refused with identical errors naming the argument, the constraint and the value —
//! and nothing is sent. Covers every constraint keyword the catalog advertises
//! (`tests/openapi/constraints.yaml`).

use std::path::Path;

use serde_json::{Value, json};
use toolwright::Executor;
use toolwright_e2e::openapi::{catalog, constraints};
use toolwright_loopback::{Response, Server};

fn server() -> Server {
    Server::start(|_| Response {
        status: 204,
        content_type: "application/json".into(),
        body: Vec::new(),
        headers: Vec::new(),
    })
}

fn compiled(server: &Server) -> Executor {
    Executor::builder(catalog())
        .base_url("constraints", server.url())
        .build()
        .unwrap()
}

fn interpreted(server: &Server) -> Executor {
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("../openapi/constraints.yaml");
    let analysis = toolwright_codegen::analyze(&[spec], false);
    assert!(!analysis.has_errors(), "{}", analysis.render());
    let catalog = toolwright_cli::interpret::catalog(&analysis.apis).unwrap();
    Executor::builder(catalog)
        .base_url("constraints", server.url())
        .build()
        .unwrap()
}

const ID: &str = "123e4567-e89b-12d3-a456-426614174000";

/// Valid arguments with `field` set to `value`.
fn with(field: &str, value: Value) -> Value {
    let mut args = json!({"id": ID, "email": "a@example.com"});
    args[field] = value;
    args
}

fn cases() -> Vec<(Value, &'static str)> {
    vec![
        (
            with("limit", json!("ten")),
            r#"field `limit`: expected an integer, found "ten""#,
        ),
        (
            with("limit", json!(2.5)),
            "field `limit`: expected an integer, found 2.5",
        ),
        (
            with("kind", json!("song")),
            r#"field `kind`: must be one of "book", "film" (enum), found "song""#,
        ),
        (
            with("version", json!(3)),
            "field `version`: must be 2 (const), found 3",
        ),
        (
            with("limit", json!(0)),
            "field `limit`: must be at least 1 (minimum), found 0",
        ),
        (
            with("limit", json!(101)),
            "field `limit`: must be at most 100 (maximum), found 101",
        ),
        (
            with("ratio", json!(0)),
            "field `ratio`: must be greater than 0 (exclusiveMinimum), found 0",
        ),
        (
            with("ratio", json!(1)),
            "field `ratio`: must be less than 1 (exclusiveMaximum), found 1",
        ),
        (
            with("step", json!(12)),
            "field `step`: must be a multiple of 5 (multipleOf), found 12",
        ),
        (
            with("code", json!("A")),
            r#"field `code`: must be at least 2 characters long (minLength), found 1: "A""#,
        ),
        (
            with("code", json!("ABCDE")),
            r#"field `code`: must be at most 4 characters long (maxLength), found 5: "ABCDE""#,
        ),
        (
            with("code", json!("ab")),
            r#"field `code`: must match the pattern `^[A-Z]+$`, found "ab""#,
        ),
        (
            with("tags", json!([])),
            "field `tags`: must hold at least 1 items (minItems), found 0",
        ),
        (
            with("tags", json!(["a", "b", "c", "d"])),
            "field `tags`: must hold at most 3 items (maxItems), found 4",
        ),
        (
            with("tags", json!(["a", "a"])),
            r#"field `tags`: items must be unique (uniqueItems), but items 0 and 1 are both "a""#,
        ),
        (
            with("tags", json!(["a", 1])),
            "field `tags[1]`: expected a string, found 1",
        ),
        (
            json!({"id": ID}),
            "field `email`: missing required field of type string",
        ),
        (
            with("extra", json!(1)),
            "field `extra`: unknown field; expected one of: at, code, email, flag, id, kind, limit, on, ratio, small, step, tags, version",
        ),
        (
            with("id", json!("not-a-uuid")),
            r#"field `id`: must be a UUID (format uuid), found "not-a-uuid""#,
        ),
        (
            with("on", json!("2023-02-29")),
            r#"field `on`: must be a date like 2024-01-31 (format date), found "2023-02-29""#,
        ),
        (
            with("at", json!("yesterday")),
            r#"field `at`: must be a date-time like 2024-01-31T12:00:00Z (format date-time), found "yesterday""#,
        ),
        (
            with("email", json!("nobody")),
            r#"field `email`: must be an email address (format email), found "nobody""#,
        ),
        (
            with("small", json!(3_000_000_000u64)),
            "field `small`: must fit a 32-bit signed integer (format int32), found 3000000000",
        ),
        (
            json!([1]),
            "expected a JSON object of arguments, found an array",
        ),
    ]
}

#[tokio::test]
async fn compiled_and_interpreted_calls_refuse_alike_and_send_nothing() {
    let server = server();
    let (compiled, interpreted) = (compiled(&server), interpreted(&server));
    let cases = cases();
    for (args, expected) in &cases {
        let a = compiled
            .call("constrained", args.clone())
            .await
            .unwrap_err();
        let b = interpreted
            .call("constrained", args.clone())
            .await
            .unwrap_err();
        let expected = format!("invalid arguments for `constrained`: {expected}");
        assert_eq!(a.to_string(), expected, "compiled, {args}");
        assert_eq!(b.to_string(), expected, "interpreted, {args}");
    }
    assert!(server.requests().is_empty(), "nothing is sent");
    // Valid arguments pass both, and go out identically.
    let valid = json!({
        "id": ID, "email": "a@example.com", "kind": "book", "version": 2, "limit": 100,
        "ratio": 0.5, "step": 10, "code": "AB", "on": "2024-02-29",
        "at": "2024-01-31T12:00:00+01:00", "small": -5, "tags": ["a", "b"], "flag": true
    });
    compiled.call("constrained", valid.clone()).await.unwrap();
    interpreted.call("constrained", valid).await.unwrap();
    let sent = server.requests();
    assert_eq!(sent.len(), 2);
    assert_eq!(sent[0].target, sent[1].target);
    assert_eq!(sent[0].body, sent[1].body);
}

#[tokio::test]
async fn typed_inputs_built_by_hand_get_the_same_checks() {
    let server = server();
    let client = constraints::Client::new(compiled(&server));
    let base = || constraints::ConstrainedInput {
        id: ID.into(),
        email: "a@example.com".into(),
        kind: None,
        version: None,
        limit: None,
        ratio: None,
        step: None,
        code: None,
        on: None,
        at: None,
        small: None,
        tags: None,
        flag: None,
    };
    let typed = [
        (
            constraints::ConstrainedInput {
                limit: Some(0),
                ..base()
            },
            with("limit", json!(0)),
        ),
        (
            constraints::ConstrainedInput {
                code: Some("ab".into()),
                ..base()
            },
            with("code", json!("ab")),
        ),
        (
            constraints::ConstrainedInput {
                tags: Some(vec!["a".into(), "a".into()]),
                ..base()
            },
            with("tags", json!(["a", "a"])),
        ),
        (
            constraints::ConstrainedInput {
                email: "nobody".into(),
                ..base()
            },
            with("email", json!("nobody")),
        ),
        (
            constraints::ConstrainedInput {
                id: "x".into(),
                ..base()
            },
            with("id", json!("x")),
        ),
    ];
    let by_name = compiled(&server);
    for (input, args) in typed {
        let typed_error = client.constrained(&input).await.unwrap_err().to_string();
        let name_error = by_name
            .call("constrained", args)
            .await
            .unwrap_err()
            .to_string();
        assert_eq!(typed_error, name_error);
    }
    assert!(server.requests().is_empty());
    // A typed call is checked and serialized when the method is called: the future
    // does not hold the input, and sends nothing until it is awaited.
    let pending = {
        let input = base();
        client.constrained(&input)
    };
    assert!(server.requests().is_empty(), "sent before it was awaited");
    pending.await.unwrap();
    assert_eq!(server.requests().len(), 1);
}
