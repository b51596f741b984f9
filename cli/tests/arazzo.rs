//! Arazzo workflows run end to end, by name, against loopback stand-ins for the APIs
//! of the specification's own examples (`codegen/tests/arazzo/spec`, verbatim): each
//! step a call through the executor, its request asserted as the stand-in saw it.
//! `pet-orders.arazzo.yaml` (ours, over the examples' pet API) adds what the examples
//! lack: an `onFailure` `retry` and an `onFailure` `end`.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::json;
use toolwright::{CredentialSource, Error, Executor};
use toolwright_loopback::{Request, Response, Server};

fn document(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../codegen/tests/arazzo")
        .join(name)
}

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// The executor over the API the document names, sent to `server`.
fn executor(analysis: &toolwright_codegen::Analysis, api: &str, server: &Server) -> Executor {
    let catalog = toolwright_cli::interpret::catalog(&analysis.apis).unwrap();
    Executor::builder(catalog)
        .base_url(api, server.url())
        .credentials(CredentialSource::from_fn(|_| Some("t0ken".into())))
        .build()
        .unwrap()
}

fn form(request: &Request) -> Vec<(String, String)> {
    String::from_utf8_lossy(&request.body)
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect()
}

/// The OAuth example: `refresh-token-flow` sends `refresh_token` in a form its
/// token operation does not have (an error where it is written); the other two run —
/// `authorization-code-flow` in two steps, the second carrying the code the first
/// answered.
#[test]
fn the_oauth_example_runs_every_step_by_name() {
    let analysis = toolwright_codegen::analyze(&[document("spec/oauth.arazzo.yaml")], false);
    let errors: Vec<(String, usize)> = errors(&analysis);
    assert_eq!(
        errors,
        [(
            "the request body of `get_token` has no property `refresh_token`".to_owned(),
            61
        )]
    );
    let server = Server::start(|request| match (request.method.as_str(), request.path()) {
        ("GET", "/authorize") => {
            Response::json(200, &json!({"code": "c0de", "access_token": "pre"}))
        }
        ("POST", "/oauth/token") => {
            let body = form(request);
            let has = |k: &str, v: &str| body.iter().any(|(a, b)| a == k && b == v);
            if has("grant_type", "authorization_code") && has("code", "c0de") {
                Response::json(
                    200,
                    &json!({"access_token": "a1", "refresh_token": "r1", "expires_in": 60}),
                )
            } else {
                Response::json(200, &json!({"error": "invalid_grant"}))
            }
        }
        _ => Response::json(404, &json!({"message": "no such route"})),
    });
    let executor = executor(&analysis, "oauth", &server);
    let names = tool_names(&executor);
    assert!(!names.contains(&"refresh_token_flow"), "{names:?}");
    let rt = rt();
    let outputs = rt
        .block_on(executor.call(
            "authorization_code_flow",
            json!({"client_id": "app", "client_secret": "s3cret", "redirect_uri": "https://app.example/cb"}),
        ))
        .unwrap();
    assert_eq!(
        outputs,
        json!({"access_token": "a1", "refresh_token": "r1", "expires_in": 60})
    );
    let seen = server.take_requests();
    let steps: Vec<(String, String)> = seen
        .iter()
        .map(|r| (r.method.clone(), r.path().to_owned()))
        .collect();
    assert_eq!(
        steps,
        [
            ("GET".to_owned(), "/authorize".to_owned()),
            ("POST".to_owned(), "/oauth/token".to_owned()),
        ]
    );
    assert_eq!(
        seen[0].query(),
        Some(
            "client_id=app&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&response_type=code&scope=read&state=12345"
        )
    );
    let token_form = form(&seen[1]);
    for pair in [
        ("grant_type", "authorization_code"),
        ("code", "c0de"),
        ("client_secret", "s3cret"),
    ] {
        assert!(
            token_form.contains(&(pair.0.into(), pair.1.into())),
            "{token_form:?}"
        );
    }

    // `client-credentials-flow`'s jsonpath criterion (`$[?@.access_token != null]`)
    // does not hold on an answer without a token: the step fails, named.
    let err = rt
        .block_on(executor.call(
            "client_credentials_flow",
            json!({"client_id": "x", "client_secret": "y"}),
        ))
        .unwrap_err();
    assert_eq!(err.code(), "WORKFLOW_STEP_FAILED");
    let text = err.to_string();
    assert!(
        text.contains("step `get-client-creds-token`") && text.contains("get-token"),
        "{text}"
    );
    assert!(text.contains("$[?@.access_token != null]"), "{text}");
    assert_eq!(server.take_requests().len(), 1);
}

fn errors(analysis: &toolwright_codegen::Analysis) -> Vec<(String, usize)> {
    analysis
        .diagnostics
        .iter()
        .filter(|d| d.severity == toolwright_codegen::diagnostics::Severity::Error)
        .map(|d| (d.message.clone(), d.line_col().map_or(0, |(l, _)| l)))
        .collect()
}

/// The pet-coupons example: `apply-coupon` names parameters its operations do not
/// have (`pet_tags`, `pet_id`), reported where they are written; the other two
/// workflows run — `buy-available-pet` calls `place-order` as its last step.
#[test]
fn the_pet_coupons_example_runs_and_its_broken_workflow_is_located() {
    let analysis = toolwright_codegen::analyze(&[document("spec/pet-coupons.arazzo.yaml")], false);
    assert_eq!(
        errors(&analysis),
        [
            (
                "`findPetsByTags` has no parameter `pet_tags` in query".to_owned(),
                26
            ),
            (
                "`getPetCoupons` has no parameter `pet_id` in path".to_owned(),
                40
            ),
        ]
    );
    let server = Server::start(|request| match (request.method.as_str(), request.path()) {
        ("GET", "/pet/findByStatus") => {
            Response::json(200, &json!([{"id": 7, "name": "Rex", "photoUrls": []}]))
        }
        ("POST", "/store/order") => {
            let mut order = request.json();
            order["id"] = json!(99);
            Response::json(200, &order)
        }
        _ => Response::json(404, &json!({"message": "no such route"})),
    });
    let executor = executor(&analysis, "pet-coupons", &server);
    let names = tool_names(&executor);
    assert!(names.contains(&"buy_available_pet") && names.contains(&"place_order"));
    assert!(!names.contains(&"apply_coupon"), "{names:?}");
    let rt = rt();
    let outputs = rt
        .block_on(executor.call("buy_available_pet", json!({"store_id": "pets.example.com"})))
        .unwrap();
    assert_eq!(outputs, json!({"buy_pet_order_id": 99}));
    let seen = server.take_requests();
    assert_eq!(seen.len(), 2);
    assert_eq!(
        seen[0].target,
        "/pet/findByStatus?status=available&page=1&pageSize=10"
    );
    // The left-out optional inputs (`quantity`, `coupon_code`) are left out of the body.
    assert_eq!(
        seen[1].json(),
        json!({"petId": 7, "status": "placed", "complete": false})
    );
}

/// A step retried as its `onFailure` says (404 twice, then found: three attempts),
/// and one whose failure `end`s the workflow: the error names the step, and the
/// step after it never runs.
#[test]
fn a_retry_until_it_holds_and_an_end_that_stops_the_workflow() {
    let analysis = toolwright_codegen::analyze(&[document("pet-orders.arazzo.yaml")], false);
    assert!(!analysis.has_errors(), "{}", analysis.render());
    let lookups = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&lookups);
    // Lookups answer 404 until the third; with `broken` set, every lookup is a 400.
    let broken = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let refuse = Arc::clone(&broken);
    let server = Server::start(
        move |request| match (request.method.as_str(), request.path()) {
            ("POST", "/store/order") => Response::json(200, &json!({"id": 41, "status": "placed"})),
            ("GET", "/store/order/41") => {
                if refuse.load(Ordering::SeqCst) {
                    return Response::json(400, &json!({"message": "bad id"}));
                }
                if counted.fetch_add(1, Ordering::SeqCst) < 2 {
                    Response::json(404, &json!({"message": "not yet"}))
                } else {
                    Response::json(200, &json!({"id": 41, "status": "placed"}))
                }
            }
            ("GET", "/pet/7/coupons") => Response::json(200, &json!({"couponCode": "SUMMER"})),
            _ => Response::json(500, &json!({"message": "no such route"})),
        },
    );
    let executor = executor(&analysis, "pet-coupons", &server);
    let rt = rt();
    let outputs = rt
        .block_on(executor.call("order_and_confirm", json!({"pet_id": 7})))
        .unwrap();
    assert_eq!(
        outputs,
        json!({"order_id": 41, "status": "placed", "coupon": "SUMMER"})
    );
    let paths: Vec<String> = server
        .take_requests()
        .iter()
        .map(|r| r.target.clone())
        .collect();
    assert_eq!(
        paths,
        [
            "/store/order",
            "/store/order/41",
            "/store/order/41",
            "/store/order/41",
            "/pet/7/coupons"
        ]
    );

    // Not found four times: three retries, then the workflow fails at that step.
    let stubborn = Server::start(|request| match request.method.as_str() {
        "POST" => Response::json(200, &json!({"id": 41})),
        _ => Response::json(404, &json!({"message": "not yet"})),
    });
    let err = rt
        .block_on(
            self::executor(&analysis, "pet-coupons", &stubborn)
                .call("order_and_confirm", json!({"pet_id": 7})),
        )
        .unwrap_err();
    assert_eq!(stubborn.take_requests().len(), 1 + 4, "{err}");
    let text = err.to_string();
    assert!(
        text.contains("step `confirm`") && text.contains("after 3 retries"),
        "{text}"
    );
    assert!(matches!(
        err,
        Error::Workflow {
            status: Some(404),
            ..
        }
    ));

    // A 400 is no 404: `give-up` ends the workflow; `coupon` never runs.
    broken.store(true, Ordering::SeqCst);
    let err = rt
        .block_on(executor.call("order_and_confirm", json!({"pet_id": 7})))
        .unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("failed at step `confirm` (getOrderById → tool `getOrderById`)")
            && text.contains("HTTP 400")
            && text.contains("`give-up` ends the workflow"),
        "{text}"
    );
    let paths: Vec<String> = server
        .take_requests()
        .iter()
        .map(|r| r.target.clone())
        .collect();
    assert_eq!(paths, ["/store/order", "/store/order/41"]);
}

/// A step the gate asks about asks for approval as a direct call of its tool would:
/// the approval callback sees that step's tool and the arguments the workflow made
/// for it; declined, the step is not sent and the workflow stops with the step
/// tool's own refusal.
#[test]
fn a_gated_step_asks_for_approval_like_a_direct_call() {
    let analysis = toolwright_codegen::analyze(&[document("pet-orders.arazzo.yaml")], false);
    let server = Server::start(|request| match request.method.as_str() {
        "POST" => Response::json(200, &json!({"id": 41, "status": "placed"})),
        _ => Response::json(
            200,
            &json!({"id": 41, "status": "placed", "couponCode": "C"}),
        ),
    });
    let catalog = toolwright_cli::interpret::catalog(&analysis.apis).unwrap();
    let asked = Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = Arc::clone(&asked);
    let approve = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let answer = Arc::clone(&approve);
    let executor = Executor::builder(catalog)
        .base_url("pet-coupons", server.url())
        .credentials(CredentialSource::from_fn(|_| Some("t0ken".into())))
        // Placing an order needs approval; reads do not.
        .gate(|call| {
            if call.tool == "placeOrder" {
                toolwright::gate::Verdict::Confirm("orders cost money".into())
            } else {
                toolwright::gate::Verdict::Allow
            }
        })
        .approve_with(move |call| {
            seen.lock()
                .unwrap()
                .push((call.tool.to_string(), call.arguments.clone()));
            let yes = answer.load(Ordering::SeqCst);
            async move { yes }
        })
        .build()
        .unwrap();
    let rt = rt();
    let err = rt
        .block_on(executor.call("order_and_confirm", json!({"pet_id": 7})))
        .unwrap_err();
    assert!(
        matches!(&err, Error::ConfirmationRequired { tool, declined: true, .. } if tool == "placeOrder"),
        "{err}"
    );
    assert_eq!(server.take_requests().len(), 0);
    // Only the gated step was asked about, with what the workflow would send.
    assert_eq!(
        *asked.lock().unwrap(),
        [(
            "placeOrder".to_owned(),
            json!({"petId": 7, "quantity": 1, "status": "placed"})
        )]
    );
    approve.store(true, Ordering::SeqCst);
    rt.block_on(executor.call("order_and_confirm", json!({"pet_id": 7})))
        .unwrap();
    assert_eq!(server.take_requests().len(), 3);
    assert_eq!(asked.lock().unwrap().len(), 2);
}

/// The names of the executor's tools, in catalog order.
fn tool_names(executor: &toolwright::Executor) -> Vec<&str> {
    executor
        .catalog()
        .tools()
        .iter()
        .map(|t| t.name.as_ref())
        .collect()
}
