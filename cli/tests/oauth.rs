//! OAuth 2 client credentials against a real loopback server that plays both the
//! token endpoint and the API: one token for many (and concurrent) calls, fetched
//! again before it expires and once when the API rejects it; a refused client is an
//! error naming what the endpoint said, with the secret nowhere, and nothing sent to
//! the API. The scheme comes from `tests/oauth/reports.yaml` (a relative `tokenUrl`,
//! resolved against the base URL); the corpus's twinehealth spec lowers the same way.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine as _;
use serde_json::json;
use toolwright::descriptor::SchemeKind;
use toolwright::{CredentialSource, Error, Executor, ExecutorBuilder};
use toolwright_loopback::{Request, Response, Server};

const CLIENT_ID: &str = "reports-bot";
const CLIENT_SECRET: &str = "s3cret:with/odd chars";

/// What the token endpoint does.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    /// Tokens that live `expires_in` seconds.
    Grant { expires_in: u64 },
    /// `401 invalid_client`.
    Refuse,
}

struct Idp {
    server: Server,
    /// Tokens issued so far.
    issued: Arc<AtomicUsize>,
    /// Tokens the API accepts.
    valid: Arc<Mutex<Vec<String>>>,
    /// The API answers 401 to every token.
    refuse_all: Arc<AtomicBool>,
}

impl Idp {
    fn start(mode: Mode) -> Idp {
        let issued = Arc::new(AtomicUsize::new(0));
        let valid: Arc<Mutex<Vec<String>>> = Arc::default();
        let refuse_all = Arc::new(AtomicBool::new(false));
        let (count, accepted, refuse) = (
            Arc::clone(&issued),
            Arc::clone(&valid),
            Arc::clone(&refuse_all),
        );
        let server = Server::start(move |request: &Request| {
            if request.path() == "/oauth/token" {
                return token_endpoint(request, mode, &count, &accepted);
            }
            let token = request
                .header("authorization")
                .and_then(|h| h.strip_prefix("Bearer "))
                .unwrap_or("");
            if refuse.load(Ordering::SeqCst) || !accepted.lock().unwrap().iter().any(|t| t == token)
            {
                return Response::json(401, &json!({"message": "token not accepted"}));
            }
            Response::json(200, &json!({"id": 7, "token_seen": token}))
        });
        Idp {
            server,
            issued,
            valid,
            refuse_all,
        }
    }

    fn api_calls(&self) -> usize {
        self.server
            .requests()
            .iter()
            .filter(|r| r.path() != "/oauth/token")
            .count()
    }

    fn token_requests(&self) -> Vec<Request> {
        self.server
            .requests()
            .into_iter()
            .filter(|r| r.path() == "/oauth/token")
            .collect()
    }
}

fn token_endpoint(
    request: &Request,
    mode: Mode,
    issued: &AtomicUsize,
    valid: &Mutex<Vec<String>>,
) -> Response {
    let basic = request
        .header("authorization")
        .and_then(|h| h.strip_prefix("Basic "))
        .and_then(|b| base64::engine::general_purpose::STANDARD.decode(b).ok())
        .and_then(|b| String::from_utf8(b).ok())
        .unwrap_or_default();
    let form: BTreeMap<String, String> = form_urlencoded(&request.body);
    let (id, secret) = basic.split_once(':').unwrap_or(("", ""));
    let client_ok = decode(id) == CLIENT_ID && decode(secret) == CLIENT_SECRET;
    if mode == Mode::Refuse {
        // Slow enough that every concurrent call is waiting for this one exchange when
        // it fails, even on a loaded machine (CI once saw a call start after a quick
        // refusal and make a second exchange).
        std::thread::sleep(Duration::from_millis(300));
    }
    if mode == Mode::Refuse
        || !client_ok
        || form.get("grant_type").map(String::as_str) != Some("client_credentials")
    {
        return Response::json(
            401,
            &json!({"error": "invalid_client", "error_description": "Client authentication failed"}),
        );
    }
    let Mode::Grant { expires_in } = mode else {
        unreachable!()
    };
    // Slow enough that concurrent calls overlap the exchange.
    std::thread::sleep(Duration::from_millis(50));
    let n = issued.fetch_add(1, Ordering::SeqCst) + 1;
    let token = format!("tok-{n}");
    valid.lock().unwrap().push(token.clone());
    Response::json(
        200,
        &json!({"access_token": token, "token_type": "Bearer", "expires_in": expires_in,
                "scope": form.get("scope")}),
    )
}

fn form_urlencoded(body: &[u8]) -> BTreeMap<String, String> {
    String::from_utf8_lossy(body)
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .map(|(k, v)| (decode(k), decode(v)))
        .collect()
}

fn decode(text: &str) -> String {
    percent_encoding::percent_decode_str(&text.replace('+', " "))
        .decode_utf8_lossy()
        .into_owned()
}

fn spec() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oauth/reports.yaml")
}

fn builder(idp: &Idp, vars: &[(&str, &str)]) -> ExecutorBuilder {
    let analysis = toolwright_codegen::analyze(&[spec()], false);
    assert!(!analysis.has_errors(), "{}", analysis.render());
    let catalog = toolwright_cli::interpret::catalog(&analysis.apis).unwrap();
    let vars: BTreeMap<String, String> = vars
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    Executor::builder(catalog)
        .base_url("reports", format!("{}/api", idp.server.url()))
        .credentials(CredentialSource::from_fn(move |name| {
            vars.get(name).cloned()
        }))
}

const CLIENT: [(&str, &str); 2] = [
    ("REPORTS_MACHINE_CLIENT_ID", CLIENT_ID),
    ("REPORTS_MACHINE_CLIENT_SECRET", CLIENT_SECRET),
];

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

#[test]
fn one_token_serves_many_and_concurrent_calls() {
    let idp = Idp::start(Mode::Grant { expires_in: 3600 });
    let mut vars = CLIENT.to_vec();
    vars.push(("REPORTS_MACHINE_SCOPES", "reports.read reports.write"));
    let executor = builder(&idp, &vars).build().unwrap();
    let rt = rt();
    // 40 calls at once, before any token exists: one exchange, every call waits for it.
    let results = rt.block_on(async {
        let calls: Vec<_> = (0..40)
            .map(|_| {
                let executor = executor.clone();
                tokio::spawn(async move { executor.call("get_report", json!({"id": 7})).await })
            })
            .collect();
        let mut out = Vec::new();
        for call in calls {
            out.push(call.await.unwrap());
        }
        out
    });
    for result in results {
        assert_eq!(result.unwrap()["token_seen"], "tok-1");
    }
    for _ in 0..5 {
        rt.block_on(executor.call("get_report", json!({"id": 7})))
            .unwrap();
    }
    let exchanges = idp.token_requests();
    assert_eq!(exchanges.len(), 1, "one token for 45 calls");
    assert_eq!(idp.issued.load(Ordering::SeqCst), 1);
    assert_eq!(idp.api_calls(), 45);
    let exchange = &exchanges[0];
    assert_eq!(exchange.method, "POST");
    assert_eq!(
        exchange.header("content-type"),
        Some("application/x-www-form-urlencoded")
    );
    let form = form_urlencoded(&exchange.body);
    assert_eq!(form["grant_type"], "client_credentials");
    assert_eq!(form["scope"], "reports.read reports.write");
    // The secret travels only in the Basic header of the exchange.
    assert!(!String::from_utf8_lossy(&exchange.body).contains("s3cret"));
    for request in idp.server.requests() {
        if request.path() != "/oauth/token" {
            assert!(
                request.headers.iter().all(|(_, v)| !v.contains("Basic")),
                "client credentials sent to the API: {request:?}"
            );
        }
    }
}

#[test]
fn tokens_are_fetched_again_before_they_expire() {
    // A 2 s token is refreshed 0.2 s before its end.
    let idp = Idp::start(Mode::Grant { expires_in: 2 });
    let executor = builder(&idp, &CLIENT).build().unwrap();
    let rt = rt();
    let first = rt
        .block_on(executor.call("get_report", json!({"id": 1})))
        .unwrap();
    assert_eq!(first["token_seen"], "tok-1");
    std::thread::sleep(Duration::from_millis(1900));
    let second = rt
        .block_on(executor.call("get_report", json!({"id": 1})))
        .unwrap();
    assert_eq!(second["token_seen"], "tok-2");
    assert_eq!(idp.token_requests().len(), 2);
}

#[test]
fn a_rejected_token_is_replaced_once() {
    let idp = Idp::start(Mode::Grant { expires_in: 3600 });
    let executor = builder(&idp, &CLIENT).build().unwrap();
    let rt = rt();
    rt.block_on(executor.call("get_report", json!({"id": 1})))
        .unwrap();
    // The API revokes every token: the next call gets a 401, fetches a new token and
    // is sent again — POST included (a 401 means it was not done).
    idp.valid.lock().unwrap().clear();
    idp.server.take_requests();
    let created = rt
        .block_on(executor.call("create_report", json!({"title": "q3"})))
        .unwrap();
    assert_eq!(created["id"], 7);
    let requests = idp.server.take_requests();
    let trail: Vec<(&str, &str)> = requests
        .iter()
        .map(|r| (r.method.as_str(), r.path()))
        .collect();
    assert_eq!(
        trail,
        [
            ("POST", "/api/reports"),
            ("POST", "/oauth/token"),
            ("POST", "/api/reports")
        ]
    );
    assert_eq!(requests[2].header("authorization"), Some("Bearer tok-2"));

    // An API that refuses every token: one new token, one more try, then the 401.
    idp.refuse_all.store(true, Ordering::SeqCst);
    let err = rt
        .block_on(executor.call("get_report", json!({"id": 1})))
        .unwrap_err();
    assert_eq!(err.code(), "PERMISSION_UNAUTHENTICATED", "{err}");
    let trail: Vec<String> = idp
        .server
        .take_requests()
        .iter()
        .map(|r| format!("{} {}", r.method, r.path()))
        .collect();
    assert_eq!(
        trail,
        [
            "GET /api/reports/1",
            "POST /oauth/token",
            "GET /api/reports/1"
        ]
    );
}

#[test]
fn a_refused_client_is_a_clear_error_and_nothing_reaches_the_api() {
    let idp = Idp::start(Mode::Refuse);
    let executor = builder(&idp, &CLIENT).build().unwrap();
    let rt = rt();
    let errors = rt.block_on(async {
        let calls: Vec<_> = (0..20)
            .map(|_| {
                let executor = executor.clone();
                tokio::spawn(async move { executor.call("get_report", json!({"id": 7})).await })
            })
            .collect();
        let mut out = Vec::new();
        for call in calls {
            out.push(call.await.unwrap().unwrap_err());
        }
        out
    });
    for err in &errors {
        assert_eq!(err.code(), "PERMISSION_TOKEN", "{err}");
        let text = format!("{err} {err:?}");
        assert!(text.contains("invalid_client"), "{text}");
        assert!(text.contains("check the client id and secret"), "{text}");
        assert!(
            !text.contains("s3cret") && !text.contains(CLIENT_ID),
            "{text}"
        );
        assert!(matches!(err, Error::Token { api, .. } if api == "reports"));
    }
    // Calls that waited for the failing exchange share its answer.
    assert_eq!(
        idp.token_requests().len(),
        1,
        "20 concurrent calls, one exchange"
    );
    assert_eq!(idp.api_calls(), 0);
}

#[test]
fn a_token_handed_in_is_used_as_is_and_missing_credentials_say_what_to_set() {
    let idp = Idp::start(Mode::Grant { expires_in: 3600 });
    idp.valid.lock().unwrap().push("handed-in".into());
    let executor = builder(&idp, &[("REPORTS_MACHINE", "handed-in")])
        .build()
        .unwrap();
    let rt = rt();
    let out = rt
        .block_on(executor.call("get_report", json!({"id": 7})))
        .unwrap();
    assert_eq!(out["token_seen"], "handed-in");
    assert!(idp.token_requests().is_empty());

    let executor = builder(&idp, &[]).build().unwrap();
    let err = rt
        .block_on(executor.call("get_report", json!({"id": 7})))
        .unwrap_err();
    assert_eq!(err.code(), "PERMISSION_MISSING_CREDENTIAL");
    assert!(
        err.to_string().contains("REPORTS_MACHINE_CLIENT_ID"),
        "{err}"
    );
}

#[test]
fn an_overridden_token_url_and_plain_http_rules() {
    let idp = Idp::start(Mode::Grant { expires_in: 3600 });
    // A token URL set by the service wins over the description's.
    let executor = builder(&idp, &CLIENT)
        .token_url("reports", format!("{}/oauth/token", idp.server.url()))
        .base_url("reports", format!("{}/api", idp.server.url()))
        .build()
        .unwrap();
    let rt = rt();
    rt.block_on(executor.call("get_report", json!({"id": 7})))
        .unwrap();
    assert_eq!(idp.token_requests().len(), 1);
    // A plain-HTTP endpoint off this machine never sees the secret.
    let executor = builder(&idp, &CLIENT)
        .token_url("reports", "http://auth.example.com/oauth/token")
        .build()
        .unwrap();
    let err = rt
        .block_on(executor.call("get_report", json!({"id": 7})))
        .unwrap_err();
    assert_eq!(err.code(), "PERMISSION_TOKEN");
    assert!(err.to_string().contains("plain HTTP"), "{err}");
    assert_eq!(idp.token_requests().len(), 1);
}

#[test]
fn the_corpus_client_credentials_scheme_lowers_to_a_token_flow() {
    let corpus = toolwright_loopback::corpus::dev_spec("twinehealth.com_api.json");
    let analysis = toolwright_codegen::analyze(&[corpus], false);
    let catalog = toolwright_cli::interpret::catalog(&analysis.apis).unwrap();
    let schemes: Vec<&SchemeKind> = catalog
        .apis()
        .iter()
        .flat_map(|a| a.schemes.iter().map(|s| &s.kind))
        .collect();
    assert!(
        schemes.iter().any(|k| matches!(
            k,
            SchemeKind::ClientCredentials { token_url, client_id_env, .. }
                if token_url == "/oauth/token" && client_id_env.ends_with("_CLIENT_ID")
        )),
        "{schemes:?}"
    );
}
