//! The adapter format's own example (`tests/seed/resources-adapter.md`, verbatim from its
//! specification) compiled into typed code by a build script and called over loopback:
//! `pagination: {style: cursor}` walks the pages through the cursor it brings,
//! `supports_fields: true` is a typed `fields` argument that reaches the API, and
//! `create_resource` sends its params as a JSON body.

use serde_json::{Value, json};
use toolwright::Executor;
use toolwright_e2e::seed::{self, resources};
use toolwright_loopback::Server;
use toolwright_loopback::seed::{RESOURCES, resources as api};

fn client(server: &Server) -> resources::Client {
    let executor = Executor::builder(seed::catalog())
        .base_url("resources", server.url())
        .build()
        .expect("executor");
    resources::Client::new(executor)
}

#[tokio::test]
async fn typed_pages_follow_the_cursor_the_style_brings() {
    let server = api();
    let input = resources::ListResourcesInput {
        cursor: None,
        fields: None,
    };
    let mut pages = client(&server).list_resources_pages(&input).expect("pages");
    let mut ids = Vec::new();
    let mut count = 0;
    while let Some(page) = pages.next_page().await {
        let page = page.expect("page");
        count += 1;
        assert_eq!(page.number, count);
        for item in page.value["data"].as_array().expect("data") {
            ids.push(item["id"].as_u64().expect("id"));
        }
    }
    assert_eq!(count, 3);
    assert_eq!(ids, (0..RESOURCES as u64).collect::<Vec<_>>());
    let queries: Vec<Option<String>> = server
        .requests()
        .iter()
        .map(|r| r.query().map(str::to_owned))
        .collect();
    assert_eq!(
        queries,
        [None, Some("cursor=c3".into()), Some("cursor=c6".into())]
    );
}

#[tokio::test]
async fn the_typed_fields_argument_reaches_the_api() {
    let server = api();
    let input = resources::ListResourcesInput {
        cursor: None,
        fields: Some(vec!["id".into(), "title".into()]),
    };
    let out = client(&server).list_resources(&input).await.expect("call");
    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(
        requests[0].query().map(|q| q.replace("%2C", ",")),
        Some("fields=id,title".into())
    );
    let out = serde_json::to_value(out).expect("json");
    assert_eq!(out["data"][0], json!({"id": 0, "title": "r0"}), "{out}");
}

#[tokio::test]
async fn create_sends_its_params_as_a_json_body() {
    let server = api();
    let mut input = resources::CreateResourceInput::new("First");
    input.body = Some("hello".into());
    client(&server).create_resource(&input).await.expect("call");
    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    let sent = &requests[0];
    assert_eq!((sent.method.as_str(), sent.path()), ("POST", "/resources"));
    assert_eq!(sent.header("content-type"), Some("application/json"));
    let body: Value = sent.json();
    assert_eq!(body, json!({"title": "First", "body": "hello"}));
}
