//! Arazzo workflows as typed client methods (build.rs generates them): one call runs
//! every step through the executor against a loopback stand-in, and the typed output
//! carries what the steps answered. The specification's pet-coupons example (its two
//! wrong parameter names corrected) and OAuth example (without its broken workflow),
//! and ours over the pet-coupons API with a `retry` and an `end`.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::json;
use toolwright::{CredentialSource, Error, Executor};
use toolwright_e2e::{arazzo, arazzo_example, arazzo_oauth};
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

#[tokio::test]
async fn the_oauth_example_runs_as_typed_methods() {
    let server = Server::start(|request| match (request.method.as_str(), request.path()) {
        ("GET", "/authorize") => {
            Response::json(200, &json!({"code": "c0de", "access_token": "pre"}))
        }
        ("POST", "/oauth/token") => {
            let body = String::from_utf8_lossy(&request.body).into_owned();
            if body.contains("grant_type=authorization_code") && body.contains("code=c0de") {
                Response::json(
                    200,
                    &json!({"access_token": "a1", "refresh_token": "r1", "expires_in": 60}),
                )
            } else if body.contains("grant_type=client_credentials") {
                Response::json(200, &json!({"access_token": "cc"}))
            } else {
                Response::json(400, &json!({"error": "invalid_grant"}))
            }
        }
        _ => Response::json(404, &json!({"message": "no such route"})),
    });
    let executor = Executor::builder(arazzo_oauth::catalog())
        .base_url("oauth", server.url())
        .build()
        .unwrap();
    let client = arazzo_oauth::oauth::Client::new(executor);
    let input = arazzo_oauth::oauth::AuthorizationCodeFlowInput {
        client_id: Some("app".into()),
        client_secret: Some("s3cret".into()),
        redirect_uri: Some("https://app.example/cb".into()),
    };
    let output = client.authorization_code_flow(&input).await.unwrap();
    assert_eq!(output.access_token, Some(json!("a1")));
    assert_eq!(output.refresh_token, Some(json!("r1")));
    let input = arazzo_oauth::oauth::ClientCredentialsFlowInput {
        client_id: Some("app".into()),
        client_secret: Some("s3cret".into()),
    };
    let output = client.client_credentials_flow(&input).await.unwrap();
    assert_eq!(output.access_token, Some(json!("cc")));
    let seen: Vec<String> = server
        .take_requests()
        .iter()
        .map(|r| r.path().to_owned())
        .collect();
    assert_eq!(seen, ["/authorize", "/oauth/token", "/oauth/token"]);
}
