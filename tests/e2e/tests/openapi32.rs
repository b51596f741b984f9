//! An OpenAPI 3.2 document (`tests/openapi32/bakery.yaml`) through its generated client
//! against loopback servers: a `query` operation and an `additionalOperations` one sent
//! with their methods, `in: querystring` parameters arriving byte for byte as the
//! specification's examples write them, an event stream whose `itemSchema` types each
//! event's JSON data, and JSON lines typed by theirs; the deprecated API key applied
//! only when the preferred scheme's token is missing; `style: cookie`; nested tags as
//! selectors.

use serde_json::json;
use toolwright::{CredentialSource, Executor};
use toolwright_e2e::openapi32::{bakery, catalog};
use toolwright_loopback::{Response, Server};

fn executor(url: &str, credentials: &'static [(&'static str, &'static str)]) -> Executor {
    Executor::builder(catalog())
        .base_url("bakery", url)
        .credentials(CredentialSource::from_fn(move |name| {
            credentials
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| (*v).to_owned())
        }))
        .build()
        .unwrap()
}

const TOKEN: &[(&str, &str)] = &[("BAKERY_BEARER", "device-token")];

fn cakes(_: &toolwright_loopback::Request) -> Response {
    Response::json(
        200,
        &json!([{"id": 1, "name": "Sponge", "flavour": "vanilla"}]),
    )
}

#[tokio::test]
async fn query_and_additional_methods_go_out_as_declared() {
    let server = Server::start(|request| match request.method.as_str() {
        "LINK" => Response::text(204, ""),
        _ => cakes(request),
    });
    let client = bakery::Client::new(executor(&server.url(), TOKEN));
    let input = bakery::SearchCakesInput {
        max_price: Some(12.5),
        ..bakery::SearchCakesInput::new("pink")
    };
    let found = client.search_cakes(&input).await.unwrap();
    assert_eq!(found[0].name, "Sponge");
    client
        .link_cake(&bakery::LinkCakeInput::new(
            7,
            "</cakes/8>; rel=\"related\"",
        ))
        .await
        .unwrap();
    // By name too: the same request.
    let executor = client.executor().clone();
    executor
        .call("searchCakes", json!({"flavour": "pink", "maxPrice": 12.5}))
        .await
        .unwrap();
    let requests = server.requests();
    assert_eq!(requests[0].method, "QUERY");
    assert_eq!(requests[0].target, "/cakes");
    assert_eq!(requests[0].body, br#"{"flavour":"pink","maxPrice":12.5}"#);
    assert_eq!(
        requests[0].header("authorization"),
        Some("Bearer device-token")
    );
    assert_eq!(requests[1].method, "LINK");
    assert_eq!(requests[1].target, "/cakes/7");
    assert_eq!(
        requests[1].header("link"),
        Some("</cakes/8>; rel=\"related\"")
    );
    assert_eq!(requests[2].method, "QUERY");
    assert_eq!(requests[2].body, requests[0].body);
}

#[tokio::test]
async fn a_querystring_parameter_is_the_whole_query_byte_for_byte() {
    let server = Server::start(cakes);
    let client = bakery::Client::new(executor(&server.url(), TOKEN));
    // `application/x-www-form-urlencoded`: form pairs, spaces as `+` (the
    // specification's `foo=a+%2B+b` example), arrays repeating the name.
    let search = bakery::FindCakesInputSearch {
        flavour: Some("a + b".into()),
        in_stock: Some(true),
        tags: Some(vec!["mini".into(), "gluten free".into()]),
    };
    client
        .find_cakes(&bakery::FindCakesInput::new(search))
        .await
        .unwrap();
    // `application/json`: the JSON text percent-encoded as one whole.
    let selector = bakery::SelectCakesInputSelector {
        numbers: Some(vec![1, 2]),
        flag: None,
    };
    client
        .select_cakes(&bakery::SelectCakesInput {
            selector: Some(selector),
        })
        .await
        .unwrap();
    // Without the optional querystring: no `?` at all.
    client
        .select_cakes(&bakery::SelectCakesInput::default())
        .await
        .unwrap();
    // By name, the same bytes.
    client
        .executor()
        .call("selectCakes", json!({"selector": {"numbers": [1, 2]}}))
        .await
        .unwrap();
    let targets: Vec<String> = server.requests().iter().map(|r| r.target.clone()).collect();
    assert_eq!(
        targets,
        [
            "/cakes/search?flavour=a+%2B+b&inStock=true&tags=mini&tags=gluten+free",
            "/cakes/select?%7B%22numbers%22%3A%5B1%2C2%5D%7D",
            "/cakes/select",
            "/cakes/select?%7B%22numbers%22%3A%5B1%2C2%5D%7D",
        ]
    );
}

#[tokio::test]
async fn item_schemas_type_an_event_stream_and_json_lines() {
    let server = Server::start(|request| {
        match request.path() {
        "/oven/events" => Response {
            status: 200,
            content_type: "text/event-stream".into(),
            body: b"retry: 100\nevent: reading\nid: r1\ndata: {\"celsius\": 180.5, \"door\": \"closed\"}\n\n\
                    : a keep-alive\n\n\
                    data: {\"celsius\": 181}\nid: r2\n\n"
                .to_vec(),
            headers: Vec::new(),
        },
        _ => Response {
            status: 200,
            content_type: "application/jsonl".into(),
            body: b"{\"level\": 1, \"message\": \"preheating\"}\n{\"level\": 2, \"message\": \"door open\"}\n"
                .to_vec(),
            headers: Vec::new(),
        },
    }
    });
    let client = bakery::Client::new(executor(&server.url(), TOKEN));
    let mut events = client
        .watch_oven(&bakery::WatchOvenInput::default())
        .await
        .unwrap();
    let mut seen = Vec::new();
    while let Some(event) = events.next_event().await {
        seen.push(event.unwrap());
    }
    assert_eq!(seen.len(), 2);
    // The SSE fields are kept beside the typed data.
    assert_eq!(seen[0].event, "reading");
    assert_eq!(seen[0].id.as_deref(), Some("r1"));
    assert_eq!(seen[0].retry, Some(std::time::Duration::from_millis(100)));
    let first: &bakery::OvenReading = &seen[0].data;
    assert_eq!(first.celsius, 180.5);
    assert!(matches!(first.door, Some(bakery::OvenReadingDoor::Closed)));
    assert_eq!(seen[1].event, "message");
    assert_eq!(seen[1].data.celsius, 181.0);

    let mut lines = client
        .read_oven_log(&bakery::ReadOvenLogInput::default())
        .await
        .unwrap();
    let mut log: Vec<bakery::LogEntry> = Vec::new();
    while let Some(entry) = lines.next_item().await {
        log.push(entry.unwrap());
    }
    let messages: Vec<(i64, &str)> = log.iter().map(|e| (e.level, e.message.as_str())).collect();
    assert_eq!(messages, [(1, "preheating"), (2, "door open")]);

    // By name: collected, the event data as JSON.
    let collected = client
        .executor()
        .call("watchOven", json!({}))
        .await
        .unwrap();
    assert_eq!(collected["events"][0]["data"]["celsius"], 180.5);
    assert_eq!(collected["complete"], true);
    assert_eq!(collected.get("invalid"), None);

    // Items that do not fit their `itemSchema` are named, and kept as they came.
    let odd = Server::start(|request| match request.path() {
        "/oven/events" => Response {
            status: 200,
            content_type: "text/event-stream".into(),
            body: b"data: {\"celsius\": 180}\n\ndata: {\"celsius\": \"hot\"}\n\n".to_vec(),
            headers: Vec::new(),
        },
        _ => Response {
            status: 200,
            content_type: "application/jsonl".into(),
            body: b"{\"level\": 1, \"message\": \"ok\"}\n{\"level\": \"high\"}\n".to_vec(),
            headers: Vec::new(),
        },
    });
    let by_name = executor(&odd.url(), TOKEN);
    let events = by_name.call("watchOven", json!({})).await.unwrap();
    assert_eq!(events["events"][1]["data"]["celsius"], "hot");
    assert_eq!(events["invalid"].as_array().unwrap().len(), 1);
    assert_eq!(events["invalid"][0]["at"], "events[1]");
    let error = events["invalid"][0]["error"].as_str().unwrap();
    assert!(error.contains("celsius"), "{error}");
    let lines = by_name.call("readOvenLog", json!({})).await.unwrap();
    assert_eq!(lines["items"].as_array().unwrap().len(), 2);
    assert_eq!(lines["invalid"][0]["at"], "items[1]");
}

#[tokio::test]
async fn the_deprecated_scheme_serves_only_when_the_preferred_one_cannot() {
    let server = Server::start(|_| Response::json(200, &json!({"id": 1, "name": "Sponge"})));
    let both: &'static [(&str, &str)] = &[
        ("BAKERY_BEARER", "device-token"),
        ("BAKERY_LEGACY_KEY", "old-key"),
    ];
    let only_legacy: &'static [(&str, &str)] = &[("BAKERY_LEGACY_KEY", "old-key")];
    for credentials in [both, only_legacy] {
        bakery::Client::new(executor(&server.url(), credentials))
            .get_cake(&bakery::GetCakeInput::new(1))
            .await
            .unwrap();
    }
    let requests = server.requests();
    assert_eq!(
        requests[0].header("authorization"),
        Some("Bearer device-token")
    );
    assert_eq!(requests[0].header("x-bakery-key"), None);
    assert_eq!(requests[1].header("authorization"), None);
    assert_eq!(requests[1].header("x-bakery-key"), Some("old-key"));
}

#[tokio::test]
async fn a_cookie_style_parameter_is_sent_as_rfc_6265_pairs() {
    let server = Server::start(|_| Response::json(200, &json!({"id": 1, "name": "Sponge"})));
    let client = bakery::Client::new(executor(&server.url(), TOKEN));
    let prefs = bakery::GetCakeInputPrefs {
        lang: Some("en-GB".into()),
        units: Some("metric".into()),
    };
    client
        .get_cake(&bakery::GetCakeInput {
            prefs: Some(prefs),
            ..bakery::GetCakeInput::new(1)
        })
        .await
        .unwrap();
    assert_eq!(
        server.requests()[0].header("cookie"),
        Some("lang=en-GB; units=metric")
    );
}

#[test]
fn nested_tags_select_a_subtree_or_a_branch() {
    let names = |include: &str| -> Vec<String> {
        let selection = toolwright::Selection::parse([include], Vec::<String>::new()).unwrap();
        let mut names: Vec<String> = catalog()
            .select(&selection)
            .tools()
            .iter()
            .map(|t| t.name.to_string())
            .collect();
        names.sort();
        names
    };
    let cake_tools = [
        "findCakes",
        "getCake",
        "linkCake",
        "searchCakes",
        "selectCakes",
    ];
    assert_eq!(names("tag:products"), cake_tools);
    assert_eq!(names("tag:products/cakes"), cake_tools);
    assert_eq!(names("tag:cakes"), cake_tools);
    assert_eq!(names("tag:products/oven"), Vec::<String>::new());
    assert_eq!(names("tag:oven"), ["readOvenLog", "watchOven"]);
    assert_eq!(names("method:QUERY,LINK"), ["linkCake", "searchCakes"]);
}

/// The hierarchy is the catalog's groups: OpenAI namespaces put a parent tag and the
/// tags under it together (`products` holds the cake tools tagged `cakes`).
#[test]
fn nested_tags_group_the_catalog() {
    use toolwright::export::{ExportOptions, Profile};
    let export = catalog().export_with(&ExportOptions::new(Profile::OpenAi).defer_loading(true));
    let mut namespaces: Vec<(String, usize)> = export
        .tools()
        .iter()
        .filter(|t| t["type"] == "namespace")
        .map(|t| {
            (
                t["name"].as_str().unwrap().to_owned(),
                t["tools"].as_array().map_or(0, Vec::len),
            )
        })
        .collect();
    namespaces.sort();
    assert_eq!(
        namespaces,
        [("oven".to_owned(), 2), ("products".to_owned(), 5)]
    );
}
