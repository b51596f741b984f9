//! Catalog-only operations (`Config::typed` / `catalog_only`): listed and callable by
//! name exactly as typed ones, with no Rust types — against a loopback server.

use serde_json::json;
use toolwright::{CredentialSource, Executor};
use toolwright_e2e::{adapters, embedded_tools, typed_weather};
use toolwright_loopback::{Response, Server};

/// The generated sources of the partly typed catalog.
const NOTES: &str = include_str!(concat!(env!("OUT_DIR"), "/typed_weather/notes.rs"));
const WEATHER: &str = include_str!(concat!(env!("OUT_DIR"), "/typed_weather/weather.rs"));
/// Its catalog-only tools, as data.
const EMBEDDED: &str = include_str!(concat!(
    env!("OUT_DIR"),
    "/typed_weather/toolwright_tools.json"
));

/// `read` (tools read from embedded data) has the tools of `statics` (the fully typed
/// build's static tables), in order, every field alike, and the same APIs.
fn assert_same_tools(read: &toolwright::Catalog, statics: &toolwright::Catalog) {
    let names = |c: &toolwright::Catalog| -> Vec<String> {
        c.tools().iter().map(|t| t.name.to_string()).collect()
    };
    assert_eq!(names(read), names(statics));
    for (a, b) in read.tools().iter().zip(statics.tools()) {
        assert_eq!(a.title, b.title, "{}", a.name);
        assert_eq!(a.description, b.description, "{}", a.name);
        assert_eq!(a.input_schema, b.input_schema, "{}", a.name);
        assert_eq!(a.output_schema, b.output_schema, "{}", a.name);
        assert_eq!(a.annotations, b.annotations, "{}", a.name);
        assert_eq!(a.meta, b.meta, "{}", a.name);
        assert_eq!(a.contract, b.contract, "{}", a.name);
        assert_eq!(a.operation, b.operation, "{}", a.name);
    }
    assert_eq!(read.apis(), statics.apis());
}

#[test]
fn catalog_only_operations_have_no_types_but_every_tool() {
    let full = adapters::catalog();
    let partial = typed_weather::catalog();
    // The catalog-only tools are read from the embedded data file: every field as the
    // static tables of the fully typed catalog have it.
    assert_same_tools(&partial, &full);
    // Typed tools stay static; the others are data.
    assert!(
        typed_weather::TOOLS
            .iter()
            .all(|t| t.operation.api == "weather")
    );
    assert!(!typed_weather::TOOLS.is_empty());
    assert!(EMBEDDED.contains("\"name\":\"create_note\""));
    assert!(
        !EMBEDDED.contains("\"api\":\"weather\""),
        "a typed tool in the data"
    );
    assert!(
        !NOTES.contains("pub struct CreateNoteInput"),
        "a catalog-only type"
    );
    assert!(!NOTES.contains("fn create_note("));
    assert!(NOTES.contains("catalog-only"), "the client says so");
    assert!(NOTES.contains("pub static OPERATIONS"));
    assert!(WEATHER.contains("pub fn forecast("));
}

#[tokio::test]
async fn catalog_only_tools_are_called_by_name_and_checked() {
    let server = Server::start(|req| match (req.method.as_str(), req.path()) {
        ("POST", "/v2/notebooks/work/notes") => {
            Response::json(201, &json!({"id": 7, "title": req.json()["title"]}))
        }
        ("GET", "/current") => {
            Response::json(200, &json!({"temperature": 21.5, "conditions": "sunny"}))
        }
        _ => Response::text(500, "unexpected request"),
    });
    let executor = Executor::builder(typed_weather::catalog())
        .base_url("notes", format!("{}/v2", server.url()))
        .base_url("weather", server.url())
        .credentials(CredentialSource::from_fn(|name| {
            Some(match name {
                "NOTES_TOKEN" => "notes-secret".to_owned(),
                "WEATHER_KEY" => "wk".to_owned(),
                _ => return None,
            })
        }))
        .build()
        .unwrap();
    let created = executor
        .call("create_note", json!({"notebook": "work", "title": "T"}))
        .await
        .unwrap();
    assert_eq!(created["id"], 7);
    let wrong = executor
        .call("create_note", json!({"notebook": "work", "title": 5}))
        .await
        .unwrap_err();
    assert_eq!(wrong.code(), "VALIDATION_ARGUMENTS", "{wrong}");
    // The typed API next to it still has its client.
    let now = typed_weather::weather::Client::new(executor.clone())
        .current_weather(&typed_weather::weather::CurrentWeatherInput::new("Berlin"))
        .await;
    assert!(now.is_ok(), "{now:?}");
    let sent = server.requests();
    assert_eq!(sent.len(), 2, "the invalid call sent nothing");
    assert_eq!(sent[0].header("authorization"), Some("Bearer notes-secret"));
}

/// With `embed_tools`, every tool is data: `TOOLS` is empty, the catalog is the static
/// one field by field, and typed methods and calls by name work as before.
#[tokio::test]
async fn embedded_typed_tools_are_the_static_ones() {
    assert!(embedded_tools::TOOLS.is_empty());
    let full = adapters::catalog();
    let embedded = embedded_tools::catalog();
    assert_same_tools(&embedded, &full);
    // Search reads the same index.
    let found = |c: &toolwright::Catalog| -> Vec<(String, f32)> {
        c.search("weather in a city", 3)
            .iter()
            .map(|h| (h.tool.name.to_string(), h.score))
            .collect()
    };
    assert_eq!(found(&embedded), found(&full));
    assert!(!found(&full).is_empty());

    let server = Server::start(|req| match (req.method.as_str(), req.path()) {
        ("GET", "/current") => {
            Response::json(200, &json!({"temperature": 21.5, "conditions": "sunny"}))
        }
        _ => Response::text(500, "unexpected request"),
    });
    let executor = Executor::builder(embedded_tools::catalog())
        .base_url("weather", server.url())
        .credentials(CredentialSource::from_fn(|name| {
            (name == "WEATHER_KEY").then(|| "wk".to_owned())
        }))
        .build()
        .unwrap();
    let typed = embedded_tools::weather::Client::new(executor.clone())
        .current_weather(&embedded_tools::weather::CurrentWeatherInput::new("Berlin"))
        .await
        .unwrap();
    let by_name = executor
        .call("current_weather", json!({"city": "Berlin"}))
        .await
        .unwrap();
    assert_eq!(by_name["temperature"], 21.5);
    assert!(format!("{typed:?}").contains("21.5"), "{typed:?}");
    // An argument the schema refuses is refused before anything is sent.
    let wrong = executor
        .call("current_weather", json!({"city": 5}))
        .await
        .unwrap_err();
    assert_eq!(wrong.code(), "VALIDATION_ARGUMENTS", "{wrong}");
    assert_eq!(server.requests().len(), 2);
}
