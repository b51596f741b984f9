//! Several request media types on one operation: the preferred one by default, another
//! chosen per operation by the service (typed and by-name calls) or per call, checked
//! against what the description accepts. Real requests to a loopback server.

use serde_json::json;
use toolwright::{CredentialSource, Error, Executor, ExecutorBuilder};
use toolwright_e2e::openapi::{catalog, shop};
use toolwright_loopback::{Response, Server};

fn builder(server: &Server) -> ExecutorBuilder {
    Executor::builder(catalog())
        .base_url("shop", server.url())
        .credentials(CredentialSource::from_fn(|name| {
            (name == "SHOP_BEARER_AUTH").then(|| "user-token".to_owned())
        }))
}

fn server() -> Server {
    Server::start(|_| {
        Response::json(
            200,
            &json!({"id": 7, "name": "Hammer", "price": {"amount": 5, "currency": "EUR"}}),
        )
    })
}

fn args() -> serde_json::Value {
    json!({"productId": 7, "name": "Hammer 2", "price": {"amount": 5, "currency": "EUR"}})
}

#[tokio::test]
async fn preferred_media_type_by_default_and_the_listed_alternatives() {
    let server = server();
    let executor = builder(&server).build().unwrap();
    let tool = executor.catalog().get("replaceProduct").unwrap();
    assert_eq!(
        tool.request_media_types(),
        [
            "application/json",
            "application/x-www-form-urlencoded",
            "application/xml"
        ]
    );
    executor.call("replaceProduct", args()).await.unwrap();
    let sent = server.requests().pop().unwrap();
    assert_eq!(sent.header("content-type"), Some("application/json"));
    assert_eq!(
        serde_json::from_slice::<serde_json::Value>(&sent.body).unwrap()["name"],
        "Hammer 2"
    );
}

#[tokio::test]
async fn service_selects_form_for_typed_and_by_name_calls() {
    let server = server();
    let executor = builder(&server)
        .media_type("replaceProduct", "application/x-www-form-urlencoded")
        .build()
        .unwrap();
    shop::Client::new(executor.clone())
        .replace_product(&shop::ReplaceProductInput {
            product_id: 7,
            name: "Hammer 2".into(),
            price: serde_json::from_value(json!({"amount": 5, "currency": "EUR"})).unwrap(),
            tags: Some(vec!["tools".into()]),
            kind: None,
        })
        .await
        .unwrap();
    executor.call("replaceProduct", args()).await.unwrap();
    for sent in server.requests() {
        assert_eq!(sent.method, "PUT");
        assert_eq!(
            sent.header("content-type"),
            Some("application/x-www-form-urlencoded")
        );
        let body = String::from_utf8(sent.body.clone()).unwrap();
        assert!(body.contains("name=Hammer%202"), "{body}");
    }
}

#[tokio::test]
async fn per_call_choice_and_refusals() {
    let server = server();
    let executor = builder(&server).build().unwrap();
    executor
        .call_as(
            "replaceProduct",
            args(),
            "application/x-www-form-urlencoded",
        )
        .await
        .unwrap();
    assert_eq!(
        server.requests().pop().unwrap().header("content-type"),
        Some("application/x-www-form-urlencoded")
    );
    // Not listed by the description.
    let err = executor
        .call_as("replaceProduct", args(), "text/csv")
        .await
        .unwrap_err();
    assert!(err.to_string().contains("does not accept `text/csv`; it accepts application/json, application/x-www-form-urlencoded, application/xml"), "{err}");
    // Listed, but XML cannot carry the body's separate arguments: refused, not sent as JSON.
    let err = executor
        .call_as("replaceProduct", args(), "application/xml")
        .await
        .unwrap_err();
    assert!(err.to_string().contains("cannot carry"), "{err}");
    assert_eq!(server.requests().len(), 1, "refused calls send nothing");
    // A bad selection on the builder fails at build time.
    match builder(&server)
        .media_type("replaceProduct", "image/png")
        .build()
    {
        Err(Error::Catalog { message, .. }) => {
            assert!(message.contains("does not accept `image/png`"))
        }
        other => panic!("expected a catalog error, got {other:?}"),
    }
}
