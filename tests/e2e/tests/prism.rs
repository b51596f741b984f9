//! Every operation of `tests/openapi/shop.yaml`, called through the typed client and by
//! name against Prism (`@stoplight/prism-cli`) in mock mode with request validation
//! (`--errors`): a request that does not match the spec comes back as an error status,
//! so every call succeeding means zero validation errors.

use std::path::Path;

use serde_json::{Value, json};
use toolwright::{CredentialSource, Executor};
use toolwright_e2e::openapi::{catalog, shop};
use toolwright_loopback::prism::Prism;

/// Prism mocking `tests/openapi/<spec>`.
fn start_prism(spec: &str) -> Prism {
    let spec = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../openapi")
        .join(spec);
    Prism::start(&spec).unwrap_or_else(|e| panic!("{e}"))
}

fn credentials() -> CredentialSource {
    CredentialSource::from_fn(|name| {
        let value = match name {
            "SHOP_BEARER_AUTH" => "user-token",
            "SHOP_API_KEY" => "key-123",
            "SHOP_BASIC_AUTH_USERNAME" => "shop",
            "SHOP_BASIC_AUTH_PASSWORD" => "secret",
            _ => return None,
        };
        Some(value.to_owned())
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_operation_typed_and_by_name_passes_prism_validation() {
    let prism = start_prism("shop.yaml");
    let exec = Executor::builder(catalog())
        .base_url("shop", &prism.url)
        .credentials(credentials())
        .build()
        .unwrap();
    let client = shop::Client::new(exec.clone());
    let money = || shop::Money {
        amount: 1299,
        currency: "EUR".into(),
    };

    // Typed: one call per operation.
    let page = client
        .list_products(&shop::ListProductsInput {
            filter_category: Some("tools".into()),
            tags: Some(vec!["a".into(), "b".into()]),
            limit: Some(10),
            sort: Some(shop::ListProductsInputSort::Price),
            x_trace_id: Some("trace-1".into()),
            top: Some(5),
        })
        .await
        .expect("listProducts");
    let _ = page.items;
    let created = client
        .create_product(&shop::CreateProductInput {
            name: "Hammer".into(),
            price: money(),
            tags: Some(vec!["tools".into()]),
            kind: Some(shop::ProductKind::Physical),
        })
        .await
        .expect("createProduct");
    match created {
        shop::CreateProductResponse::Status201(product) => assert!(!product.name.is_empty()),
        other => panic!("Prism answers the first documented status, 201: {other:?}"),
    }
    client
        .get_product(&shop::GetProductInput { product_id: 7 })
        .await
        .expect("getProduct");
    client
        .replace_product(&shop::ReplaceProductInput {
            product_id: 7,
            name: "Hammer 2".into(),
            price: money(),
            tags: None,
            kind: None,
        })
        .await
        .expect("replaceProduct");
    client
        .delete_product(&shop::DeleteProductInput { product_id: 7 })
        .await
        .expect("deleteProduct");
    client
        .upload_product_image(&shop::UploadProductImageInput {
            product_id: 7,
            file: toolwright::stream::FilePart::new(&b"\x89PNG\r\n\x1a\n"[..])
                .filename("front.png"),
            caption: Some("front".into()),
        })
        .await
        .expect("uploadProductImage");
    client
        .submit_order(&shop::SubmitOrderInput {
            product_id: 7,
            quantity: 2,
            note: Some("gift wrap".into()),
        })
        .await
        .expect("submitOrder");
    client
        .import_catalog(&shop::ImportCatalogInput {
            body: "name,price\nHammer,1299\n".into(),
        })
        .await
        .expect("importCatalog");
    client
        .search(&shop::SearchInput {
            ids: vec![1, 2, 3],
            colors: Some(vec!["red".into(), "blue".into()]),
            price: Some(shop::SearchInputPrice {
                min: Some(1),
                max: Some(50),
            }),
        })
        .await
        .expect("search");
    let image = client
        .download_product_image_stream(&shop::DownloadProductImageInput::new(7))
        .await
        .expect("downloadProductImage");
    assert_eq!(image.status(), 200);
    client
        .replace_product_manual(&shop::ReplaceProductManualInput::new(
            7,
            toolwright::Bytes::from_static(b"%PDF-1.7\n"),
        ))
        .await
        .expect("replaceProductManual");
    client
        .replace_product_manual_upload(
            &shop::ReplaceProductManualInput::new(7, toolwright::Bytes::new()),
            toolwright::stream::Upload::bytes(&b"%PDF-1.7\n"[..]),
        )
        .await
        .expect("replaceProductManual from an upload");
    // Prism answers the streams with their examples.
    let mut events = client
        .watch_orders(&shop::WatchOrdersInput::default())
        .await
        .expect("watchOrders");
    let event = events.next_event().await.unwrap().unwrap();
    assert_eq!(
        (event.data.order_id.as_str(), event.id.as_deref()),
        ("o1", Some("1"))
    );
    let mut lines = client
        .export_orders(&shop::ExportOrdersInput::default())
        .await
        .expect("exportOrders");
    assert_eq!(lines.next_item().await.unwrap().unwrap().total, Some(12.5));

    // By name: the same operations with JSON arguments, as an LLM sends them.
    let calls: Vec<(&str, Value)> = vec![
        (
            "listProducts",
            json!({"filter_category": "tools", "tags": ["a"], "limit": 3, "sort": "-price", "X-Trace-Id": "t", "top": 1}),
        ),
        (
            "createProduct",
            json!({"name": "Saw", "price": {"amount": 500, "currency": "USD"}}),
        ),
        ("getProduct", json!({"productId": 1})),
        (
            "replaceProduct",
            json!({"productId": 1, "name": "Saw", "price": {"amount": 1, "currency": "USD"}, "kind": "digital"}),
        ),
        ("deleteProduct", json!({"productId": 1})),
        (
            "uploadProductImage",
            json!({"productId": 1, "file": "AAEC"}),
        ),
        ("submitOrder", json!({"productId": 1, "quantity": 1})),
        ("importCatalog", json!({"body": "name\nSaw\n"})),
        (
            "search",
            json!({"ids": [4], "colors": ["green"], "price": {"min": 2}}),
        ),
        ("downloadProductImage", json!({"productId": 2})),
        (
            "replaceProductManual",
            json!({"productId": 2, "body": "JVBERi0xLjcK"}),
        ),
        ("watchOrders", json!({})),
        ("exportOrders", json!({})),
    ];
    assert_eq!(
        calls.len(),
        catalog()
            .tools()
            .iter()
            .filter(|t| t.operation.api == "shop")
            .count(),
        "every shop tool is called"
    );
    for (tool, args) in calls {
        let result = exec
            .call(tool, args)
            .await
            .unwrap_or_else(|e| panic!("{tool}: {e}"));
        if let Some(schema) = catalog().get(tool).unwrap().output_schema.as_ref() {
            let schema: Value = serde_json::from_str(schema).unwrap();
            assert!(
                result.is_object(),
                "{tool}: structured output must be an object for {schema}"
            );
        }
    }

    // A constraint the catalog advertises is enforced before anything is sent...
    let bad = json!({"name": "x", "price": {"amount": 1, "currency": "euro"}});
    let err = exec.call("createProduct", bad.clone()).await.unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid arguments for `createProduct`: field `price.currency`: must match the pattern `^[A-Z]{3}$`, found \"euro\""
    );
    // ...and Prism refuses the same request (its validation is live): sent through a
    // copy of the catalog whose checks are switched off.
    let tools: Vec<toolwright::Tool> = catalog()
        .tools()
        .iter()
        .cloned()
        .map(|mut tool| {
            tool.input_schema = "{}".into();
            tool
        })
        .collect();
    let unchecked = Executor::builder(
        toolwright::Catalog::from_tools(tools, catalog().apis().to_vec()).unwrap(),
    )
    .base_url("shop", &prism.url)
    .credentials(credentials())
    .build()
    .unwrap();
    let err = unchecked.call("createProduct", bad).await.unwrap_err();
    assert!(
        matches!(err, toolwright::Error::Status { status: 422, .. }),
        "{err}"
    );
    // The documented 422 body, typed. `replaceProduct` documents a 422 with a Problem
    // too, so both error types are one enum (`Status422Error`) under two names.
    let typed: Option<shop::ReplaceProductError> = shop::CreateProductError::from_error(&err);
    match typed {
        Some(shop::CreateProductError::Status422(problem)) => {
            // Prism mocks the documented 422 body (a Problem) for invalid requests.
            assert!(problem.title.is_some(), "{problem:?}");
        }
        other => panic!("expected the typed 422 body, got {other:?}"),
    }
    // getProduct documents only `default`: any error status decodes as it.
    let not_found = toolwright::Error::status(
        "getProduct",
        404,
        "gone",
        json!({"title": "Not found"}),
        Vec::new(),
    );
    assert!(matches!(
        shop::GetProductError::from_error(&not_found),
        Some(shop::GetProductError::Default(shop::Problem {
            title: Some(_),
            ..
        }))
    ));
}

/// The request constructs of `tests/openapi/wire.yaml`, each sent by name to Prism
/// mocking that document with request validation: wildcard media types made concrete,
/// the API key sent once as the scheme says, an empty required body, a content-based
/// query parameter, multipart parts with their media types, form properties with their
/// encoding. Every call succeeding means Prism found nothing to refuse.
#[tokio::test(flavor = "multi_thread")]
async fn wire_constructs_pass_prism_validation() {
    let prism = start_prism("wire.yaml");
    let exec = Executor::builder(catalog())
        .base_url("wire", &prism.url)
        .credentials(CredentialSource::from_fn(|name| {
            matches!(
                name,
                "WIRE_API_KEY" | "WIRE_API_TOKEN" | "WIRE_APP_ID" | "WIRE_QUERY_TOKEN"
            )
            .then(|| "k".to_owned())
        }))
        .build()
        .unwrap();
    let calls: Vec<(&str, Value)> = vec![
        ("aspnetBody", json!({"theme": "dark", "size": 2})),
        ("wildcardOnly", json!({"size": 2})),
        ("anyMediaJsonSchema", json!({"note": "hi"})),
        ("keyedSearch", json!({"q": "x"})),
        ("putPrefs", json!({})),
        ("filtered", json!({"filter": {"color": "red", "size": 2}})),
        ("reserved", json!({"path": "a/b:c"})),
        // Prism reads every multipart part as a string: a JSON part (`meta`) is no
        // object to it and repeated parts (`tags`) no array, so those two are checked
        // byte for byte in `wire.rs` instead.
        (
            "upload",
            json!({"file": "aGk=", "avatar": "iVBO", "count": 3, "title": "T"}),
        ),
        (
            "submitForm",
            json!({"ids": [1, 2], "tags": ["a", "b"], "filter": {"color": "red"}, "raw": "a/b"}),
        ),
        ("putCover", json!({"body": "/9j/4AAQ"})),
        (
            "createSender",
            json!({"nickname": "n", "from": "a@example.com"}),
        ),
        ("getReport", json!({})),
        // The request causes a validating server rejected (#29).
        ("eitherCredential", json!({"q": "x"})),
        ("bothCredentials", json!({})),
        // Trello's shape: both required keys, whichever alternative carries them (#64).
        ("getCard", json!({"id": "c1"})),
        ("createNote", json!({"text": "hi"})),
        ("batchNotes", json!({"body": [{"text": "a"}]})),
        // Repeated parts (`tags`) are no array to Prism: byte for byte in `wire.rs`.
        (
            "uploadItem",
            json!({"name": "box", "body": {"name": "Box", "count": 3, "public": true}}),
        ),
    ];
    assert_eq!(
        calls.len(),
        catalog()
            .tools()
            .iter()
            .filter(|t| t.operation.api == "wire")
            .count(),
        "every wire tool is called"
    );
    for (tool, args) in calls {
        exec.call(tool, args)
            .await
            .unwrap_or_else(|e| panic!("{tool}: {e}"));
    }
}
