//! Arazzo workflows as typed client methods (build.rs generates them): one call runs
//! every step through the executor against a loopback stand-in, and the typed output
//! carries what the steps answered. The specification's pet-coupons example (its two
//! wrong parameter names corrected), and ours over its API with a `retry` and an
//! `end`.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::json;
use toolwright::{CredentialSource, Error, Executor};
use toolwright_e2e::{arazzo, arazzo_example};
use toolwright_loopback::{Response, Server};

fn executor(catalog: toolwright::Catalog, server: &Server) -> Executor {
    Executor::builder(catalog)
        .base_url("pet-coupons", server.url())
        .credentials(CredentialSource::from_fn(|_| Some("t0ken".into())))
        .build()
        .unwrap()
}

#[tokio::test]
async fn the_pet_coupons_example_runs_as_a_typed_method() {
    let server = Server::start(|request| match (request.method.as_str(), request.path()) {
        ("GET", "/pet/findByTags") => {
            Response::json(200, &json!([{"id": 7, "name": "Rex", "photoUrls": []}]))
        }
        ("GET", "/pet/7/coupons") => Response::json(200, &json!({"id": 1, "couponCode": "SUMMER"})),
        ("POST", "/store/order") => {
            let mut order = request.json();
            order["id"] = json!(99);
            Response::json(200, &order)
        }
        _ => Response::json(404, &json!({"message": "no such route"})),
    });
    let client =
        arazzo_example::pet_coupons::Client::new(executor(arazzo_example::catalog(), &server));
    let input = arazzo_example::pet_coupons::ApplyCouponInput {
        my_pet_tags: Some(vec!["puppy".into(), "dalmatian".into()]),
        ..Default::default()
    };
    let output = client.apply_coupon(&input).await.unwrap();
    assert_eq!(output.apply_coupon_pet_order_id, Some(99));
    let seen = server.take_requests();
    let targets: Vec<&str> = seen.iter().map(|r| r.target.as_str()).collect();
    assert_eq!(
        targets,
        [
            "/pet/findByTags?tags=puppy&tags=dalmatian",
            "/pet/7/coupons",
            "/store/order"
        ]
    );
    // The nested `place-order` workflow's step, with the earlier steps' outputs.
    assert_eq!(
        seen[2].json(),
        json!({"petId": 7, "couponCode": "SUMMER", "status": "placed", "complete": false})
    );
}

#[tokio::test]
async fn a_typed_workflow_retries_and_ends_as_its_document_says() {
    let lookups = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&lookups);
    let server = Server::start(
        move |request| match (request.method.as_str(), request.path()) {
            ("POST", "/store/order") => Response::json(200, &json!({"id": 41, "status": "placed"})),
            ("GET", "/store/order/41") => match counted.fetch_add(1, Ordering::SeqCst) {
                0 => Response::json(404, &json!({"message": "not yet"})),
                1 => Response::json(200, &json!({"id": 41, "status": "placed"})),
                _ => Response::json(400, &json!({"message": "bad id"})),
            },
            ("GET", "/pet/7/coupons") => Response::json(200, &json!({"couponCode": "SUMMER"})),
            _ => Response::json(500, &json!({"message": "no such route"})),
        },
    );
    let client = arazzo::pet_coupons::Client::new(executor(arazzo::catalog(), &server));
    let input = arazzo::pet_coupons::OrderAndConfirmInput::new(7);
    let output = client.order_and_confirm(&input).await.unwrap();
    assert_eq!(output.order_id, Some(41));
    assert_eq!(output.coupon.as_deref(), Some("SUMMER"));
    assert_eq!(lookups.load(Ordering::SeqCst), 2, "one retry after the 404");
    assert_eq!(server.take_requests().len(), 4);
    // Now every lookup is a 400: `give-up` ends the workflow at `confirm`.
    let err = client.order_and_confirm(&input).await.unwrap_err();
    assert!(
        matches!(&err, Error::Workflow { step, status: Some(400), .. } if step == "confirm"),
        "{err}"
    );
    let targets: Vec<String> = server
        .take_requests()
        .iter()
        .map(|r| r.target.clone())
        .collect();
    assert_eq!(targets, ["/store/order", "/store/order/41"]);
}
