//! Schemas of derived types: snapshots (`tests/snapshots/*.json`, `TOOLWRIGHT_BLESS=1`
//! rewrites them), and equivalence with serde checked by outside validators: every
//! schema against the JSON Schema 2020-12 metaschema, every sample value with the
//! verdict serde gives it, and the rendered OpenAPI 3.1 document with
//! openapi-spec-validator (`validate_schemas.py`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use toolwright::resource::{OpenApi, tools};
use toolwright::{Direction, ToolSchema};

/// A product for sale.
#[derive(Debug, ToolSchema, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[tool(resource(get, search, create, update, patch, delete))]
struct Product {
    /// Stock keeping unit.
    #[tool(primary_key, pattern = "^[A-Z0-9-]+$", example = "MUG-1")]
    sku: String,
    /// Display name.
    #[tool(min_length = 1, max_length = 80)]
    display_name: String,
    /// Price in cents.
    #[tool(minimum = 1)]
    price_cents: u32,
    /// Where it is stocked.
    #[serde(default)]
    locations: Vec<Location>,
    /// What kind of product it is.
    kind: Kind,
    /// Optional discount, percent.
    discount: Option<u8>,
    /// Set by the server.
    #[tool(created_time)]
    created_at: String,
}

/// A warehouse location.
#[derive(Debug, ToolSchema, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Location {
    /// Warehouse code.
    warehouse: String,
    /// Units in stock.
    units: u16,
}

/// Product kinds, internally tagged.
#[derive(Debug, ToolSchema, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Kind {
    /// A physical good.
    Physical {
        /// Weight in grams.
        grams: u32,
    },
    /// A download.
    Digital {
        /// Download URL.
        #[tool(format = "uri")]
        url: String,
    },
    /// A gift card.
    GiftCard,
}

/// Externally tagged, with every variant shape.
#[derive(Debug, ToolSchema, Serialize, Deserialize)]
enum Event {
    /// Unit.
    Ping,
    /// Newtype.
    Message(String),
    /// Tuple.
    Move(i32, i32),
    /// Struct.
    Resize {
        /// Width.
        w: u16,
        /// Height.
        h: u16,
    },
}

/// Adjacently tagged.
#[derive(Debug, ToolSchema, Serialize, Deserialize)]
#[serde(tag = "op", content = "args")]
enum Command_ {
    /// Stop.
    Stop,
    /// Go to a floor.
    Go(u8),
}

/// Untagged.
#[derive(Debug, ToolSchema, Serialize, Deserialize)]
#[serde(untagged)]
enum Amount {
    /// Whole units.
    Units(u64),
    /// Written out.
    Text(String),
}

/// A recursive tree.
#[derive(Debug, ToolSchema, Serialize, Deserialize)]
struct Tree {
    /// Label.
    label: String,
    /// Children.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    children: Vec<Tree>,
}

/// Skips, defaults, flatten, tuples and sets.
#[derive(Debug, ToolSchema, Serialize, Deserialize)]
#[allow(dead_code)] // `secret` is only deserialized
struct Settings {
    /// Only accepted.
    #[serde(skip_serializing, default)]
    secret: String,
    /// Only returned.
    #[serde(skip_deserializing)]
    version: u32,
    /// A pair.
    pair: (bool, String),
    /// Unique labels.
    labels: std::collections::BTreeSet<String>,
    /// Extra settings.
    #[serde(flatten)]
    extra: BTreeMap<String, String>,
}

/// Flattened enum and optional struct, per-variant untagged, rename_all_fields.
#[derive(Debug, ToolSchema, Serialize, Deserialize)]
struct Envelope {
    /// Message id.
    id: u32,
    /// The payload, flattened (internally tagged).
    #[serde(flatten)]
    payload: Payload,
    /// Optional paging, flattened.
    #[serde(flatten)]
    paging: Option<Paging>,
}

/// A payload.
#[derive(Debug, ToolSchema, Serialize, Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "lowercase",
    rename_all_fields = "camelCase"
)]
enum Payload {
    /// Text.
    Text {
        /// The body.
        body_text: String,
    },
    /// Raw bytes, base64.
    Blob {
        /// Encoded bytes.
        data_base64: String,
    },
}

/// Paging.
#[derive(Debug, ToolSchema, Serialize, Deserialize)]
struct Paging {
    /// Page number.
    page: u32,
}

/// Tagged with an untagged fallback variant.
#[derive(Debug, ToolSchema, Serialize, Deserialize)]
enum Value_ {
    /// A flag.
    Flag(bool),
    /// Anything else, as text.
    #[serde(untagged)]
    Other(String),
}

/// A generic page.
#[derive(Debug, ToolSchema, Serialize, Deserialize)]
#[serde(transparent)]
struct Items<T> {
    items: Vec<T>,
}

struct Case {
    name: &'static str,
    input: Value,
    output: Value,
    /// (instance, direction, serde's verdict)
    instances: Vec<(Value, Direction, bool)>,
}

fn case<T: ToolSchema + Serialize + DeserializeOwned>(
    name: &'static str,
    values: Vec<T>,
    inputs: Vec<Value>,
) -> Case {
    let mut instances = Vec::new();
    for v in &values {
        instances.push((serde_json::to_value(v).unwrap(), Direction::Output, true));
    }
    for input in inputs {
        let accepted = serde_json::from_value::<T>(input.clone()).is_ok();
        instances.push((input, Direction::Input, accepted));
    }
    Case {
        name,
        input: T::json_schema_for(Direction::Input),
        output: T::json_schema_for(Direction::Output),
        instances,
    }
}

fn cases() -> Vec<Case> {
    vec![
        case(
            "product",
            vec![Product {
                sku: "MUG-1".into(),
                display_name: "Mug".into(),
                price_cents: 800,
                locations: vec![Location {
                    warehouse: "B".into(),
                    units: 3,
                }],
                kind: Kind::GiftCard,
                discount: None,
                created_at: "2026-11-30".into(),
            }],
            vec![
                json!({"sku": "A", "displayName": "x", "priceCents": 1, "kind": {"type": "physical", "grams": 5}, "createdAt": "t"}),
                json!({"sku": "A", "displayName": "x", "priceCents": 1, "kind": {"type": "digital"}, "createdAt": "t"}),
                json!({"sku": "A", "displayName": "x", "priceCents": -1, "kind": {"type": "gift_card"}, "createdAt": "t"}),
                json!({"sku": "A", "displayName": "x", "priceCents": 1, "kind": {"type": "gift_card"}, "createdAt": "t",
                       "locations": [{"warehouse": "B", "units": 70000}]}),
                json!({"sku": "A", "displayName": "x", "priceCents": 1, "kind": {"type": "gift_card"}, "createdAt": "t",
                       "locations": [{"warehouse": "B", "units": 1, "aisle": 4}]}),
            ],
        ),
        case(
            "event",
            vec![
                Event::Ping,
                Event::Message("hi".into()),
                Event::Move(1, -2),
                Event::Resize { w: 1, h: 2 },
            ],
            vec![
                json!("Ping"),
                json!({"Move": [1]}),
                json!({"Resize": {"w": 1}}),
                json!("Pong"),
            ],
        ),
        case(
            "command",
            vec![Command_::Stop, Command_::Go(3)],
            vec![json!({"op": "Go", "args": 300}), json!({"op": "Stop"})],
        ),
        case(
            "amount",
            vec![Amount::Units(3), Amount::Text("three".into())],
            vec![json!(4), json!("four"), json!(true)],
        ),
        case(
            "tree",
            vec![Tree {
                label: "root".into(),
                children: vec![Tree {
                    label: "leaf".into(),
                    children: vec![],
                }],
            }],
            vec![
                json!({"label": "a", "children": [{"label": "b"}]}),
                json!({"children": []}),
            ],
        ),
        case(
            "envelope",
            vec![Envelope {
                id: 1,
                payload: Payload::Text {
                    body_text: "hi".into(),
                },
                paging: Some(Paging { page: 2 }),
            }],
            vec![
                json!({"id": 1, "kind": "blob", "dataBase64": "AA=="}),
                json!({"id": 1, "kind": "text", "bodyText": "hi", "page": 3}),
                json!({"id": 1, "kind": "text", "body_text": "hi"}),
                json!({"id": 1, "kind": "video", "bodyText": "hi"}),
            ],
        ),
        case(
            "value",
            vec![Value_::Flag(true), Value_::Other("x".into())],
            vec![
                json!({"Flag": false}),
                json!("free text"),
                json!({"Flag": "no"}),
                json!(3),
            ],
        ),
        case(
            "items",
            vec![Items {
                items: vec![Tree {
                    label: "a".into(),
                    children: vec![],
                }],
            }],
            vec![
                json!([{"label": "a"}]),
                json!({"items": []}),
                json!([{"children": []}]),
            ],
        ),
        case(
            "settings",
            vec![Settings {
                secret: "s".into(),
                version: 2,
                pair: (true, "x".into()),
                labels: ["a".to_owned()].into(),
                extra: [("theme".to_owned(), "dark".to_owned())].into(),
            }],
            vec![
                json!({"secret": "s", "pair": [true, "x"], "labels": ["a"], "theme": "dark"}),
                json!({"pair": [true], "labels": []}),
            ],
        ),
    ]
}

fn snapshots() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots")
}

fn check_snapshot(name: &str, value: &Value) {
    let path = snapshots().join(format!("{name}.json"));
    let text = serde_json::to_string_pretty(value).unwrap() + "\n";
    if std::env::var_os("TOOLWRIGHT_BLESS").is_some() {
        std::fs::write(&path, &text).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|_| {
        panic!(
            "missing snapshot {}; run with TOOLWRIGHT_BLESS=1",
            path.display()
        )
    });
    assert_eq!(
        text, expected,
        "schema snapshot {name} changed; review and bless with TOOLWRIGHT_BLESS=1"
    );
}

fn openapi() -> Value {
    OpenApi::new("Shop", "1.0.0")
        .description("Products of the shop, served by the service itself.")
        .resource::<Product>()
        .render()
}

#[test]
fn schema_snapshots() {
    for case in cases() {
        check_snapshot(
            case.name,
            &json!({ "input": case.input, "output": case.output }),
        );
    }
    let tool_list: Vec<Value> = tools::<Product>()
        .iter()
        .map(|t| {
            json!({
                "name": t.name, "title": t.title, "description": t.description,
                "inputSchema": serde_json::from_str::<Value>(&t.input_schema).unwrap(),
                "outputSchema": serde_json::from_str::<Value>(t.output_schema.as_deref().unwrap()).unwrap(),
                "annotations": format!("{:?}", t.annotations),
            })
        })
        .collect();
    check_snapshot("product_tools", &Value::Array(tool_list));
    check_snapshot("openapi", &openapi());
}

#[test]
fn outside_validators_agree_with_serde() {
    let mut entries = Vec::new();
    for case in cases() {
        for (direction, schema) in [
            (Direction::Input, &case.input),
            (Direction::Output, &case.output),
        ] {
            let instances: Vec<Value> = case
                .instances
                .iter()
                .filter(|(_, d, _)| *d == direction)
                .map(|(v, _, ok)| json!([v, ok]))
                .collect();
            entries.push(json!({ "name": format!("{} ({direction:?})", case.name), "schema": schema, "instances": instances }));
        }
    }
    for tool in tools::<Product>() {
        for (which, schema) in [
            ("input", Some(&tool.input_schema)),
            ("output", tool.output_schema.as_ref()),
        ] {
            let schema: Value = serde_json::from_str(schema.unwrap()).unwrap();
            entries.push(json!({ "name": format!("{} {which}", tool.name), "schema": schema, "instances": [] }));
        }
    }
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let cases_path = dir.join("schema-cases.json");
    let openapi_path = dir.join("openapi.json");
    std::fs::write(&cases_path, serde_json::to_string(&entries).unwrap()).unwrap();
    std::fs::write(&openapi_path, serde_json::to_string(&openapi()).unwrap()).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/validate_schemas.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(&cases_path)
        .arg(&openapi_path)
        .output()
        .expect("run python3");
    let report =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{report}");
    assert!(report.contains("0 failure(s)"), "{report}");
}
