//! `serve --http` as an OAuth 2.1 resource server, against a loopback identity provider
//! (a JWK Set endpoint serving Ed25519 keys the test signs tokens with, by hand with
//! ring — not with the JWT library the server uses). A valid token is served; expired,
//! wrong audience, wrong issuer, `alg: none`, a tampered signature and an unknown key
//! get `401` with a `WWW-Authenticate` naming the metadata, and nothing reaches the
//! API; a rotated key is fetched; scopes choose the tools (`403 insufficient_scope`
//! beyond them); the caller's own token passes through to the API on its own calls
//! only; the PyPI `mcp` client connects with a token; the audit names callers, never
//! tokens. Opaque tokens are checked at a loopback introspection endpoint (RFC 7662);
//! callers' tokens are exchanged (RFC 8693) at a loopback token endpoint for the API's.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use ring::signature::{Ed25519KeyPair, KeyPair};
use serde_json::{Value, json};
use toolwright_loopback::{Response, Server};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A signing key and its id.
struct Key {
    kid: String,
    pair: Ed25519KeyPair,
}

impl Key {
    fn new(kid: &str) -> Key {
        let rng = ring::rand::SystemRandom::new();
        let pkcs8 = Ed25519KeyPair::generate_pkcs8(&rng).unwrap();
        Key {
            kid: kid.into(),
            pair: Ed25519KeyPair::from_pkcs8(pkcs8.as_ref()).unwrap(),
        }
    }

    fn jwk(&self) -> Value {
        json!({"kty": "OKP", "crv": "Ed25519", "use": "sig", "alg": "EdDSA",
               "kid": self.kid, "x": B64.encode(self.pair.public_key().as_ref())})
    }

    /// A compact JWS of `claims`, with `header` fields over the defaults.
    fn sign(&self, claims: &Value, header: &Value) -> String {
        let mut head = json!({"alg": "EdDSA", "typ": "at+jwt", "kid": self.kid});
        for (k, v) in header.as_object().unwrap() {
            head[k] = v.clone();
        }
        let input = format!(
            "{}.{}",
            B64.encode(head.to_string()),
            B64.encode(claims.to_string())
        );
        let signature = self.pair.sign(input.as_bytes());
        format!("{input}.{}", B64.encode(signature.as_ref()))
    }
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// The identity provider: its issuer URL and the keys its JWK Set publishes.
struct Idp {
    server: Server,
    keys: Arc<Mutex<Vec<Value>>>,
    /// How long the JWK Set takes to answer (none: at once).
    delay: Arc<Mutex<Option<Duration>>>,
}

impl Idp {
    fn start(keys: &[&Key]) -> Idp {
        let published = Arc::new(Mutex::new(keys.iter().map(|k| k.jwk()).collect::<Vec<_>>()));
        let shared = Arc::clone(&published);
        let delay = Arc::new(Mutex::new(None));
        let slow = Arc::clone(&delay);
        let server = Server::start(move |request| {
            let keys = shared.lock().unwrap().clone();
            match request.path() {
                "/jwks" => {
                    let pause = *slow.lock().unwrap();
                    if let Some(pause) = pause {
                        std::thread::sleep(pause);
                    }
                    Response::json(200, &json!({"keys": keys}))
                }
                _ => Response::json(404, &json!({"error": "not found"})),
            }
        });
        Idp {
            server,
            keys: published,
            delay,
        }
    }

    /// Makes the JWK Set take `pause` to answer from now on.
    fn slow_down(&self, pause: Duration) {
        *self.delay.lock().unwrap() = Some(pause);
    }

    /// How many times the JWK Set was fetched.
    fn fetches(&self) -> usize {
        self.server
            .requests()
            .iter()
            .filter(|r| r.path() == "/jwks")
            .count()
    }

    fn issuer(&self) -> String {
        self.server.url()
    }

    fn publish(&self, keys: &[&Key]) {
        *self.keys.lock().unwrap() = keys.iter().map(|k| k.jwk()).collect();
    }
}

/// A child process killed when dropped; its stderr is collected.
struct Serving {
    child: Child,
    stderr: Arc<Mutex<String>>,
}

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Serving {
    fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// Its stderr once a line satisfying `wanted` arrived (the server writes a call's
    /// audit line after the answer is sent, so it may trail the answer), or after 10 s.
    fn stderr_with(&self, wanted: impl Fn(&str) -> bool) -> String {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        loop {
            let stderr = self.stderr();
            if stderr.lines().any(&wanted) || std::time::Instant::now() > deadline {
                return stderr;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }
}

/// `serve` of the example adapter on a free loopback port, accepting the IdP's tokens
/// for `http://127.0.0.1:PORT/mcp`.
fn serve(api: &Server, idp: &Idp, extra: &[&str]) -> (Serving, u16) {
    let port = toolwright_loopback::free_port();
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolwright"))
        .args(["serve", "examples/issue-tracker/adapters", "--base-url"])
        .arg(format!("tracker={}/api/v1", api.url()))
        .args(["--http", &format!("127.0.0.1:{port}")])
        .args(["--oauth-issuer", &idp.issuer()])
        .args(["--oauth-resource", &resource(port)])
        .args(["--oauth-jwks", &format!("{}/jwks", idp.issuer())])
        .args(["--oauth-key-refresh", "0", "--audit"])
        .args(extra)
        .current_dir(root())
        .env_clear()
        .env("TRACKER_TOKEN", "upstream-t0ken")
        .env("INTROSPECTION_SECRET", "s3cret")
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = Arc::new(Mutex::new(String::new()));
    let sink = Arc::clone(&stderr);
    let pipe = child.stderr.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(pipe).lines().map_while(Result::ok) {
            let mut all = sink.lock().unwrap();
            all.push_str(&line);
            all.push('\n');
        }
    });
    let serving = Serving { child, stderr };
    toolwright_loopback::wait_listening(port, Duration::from_secs(30), "serve --http").unwrap();
    (serving, port)
}

fn resource(port: u16) -> String {
    format!("http://127.0.0.1:{port}/mcp")
}

/// Claims of a token for `port`'s endpoint from `idp`, with `extra` over them.
fn claims(idp: &Idp, port: u16, extra: &Value) -> Value {
    let mut claims = json!({"iss": idp.issuer(), "aud": resource(port), "sub": "alice",
                            "iat": now(), "exp": now() + 300, "scope": "tools:read tools:write"});
    for (k, v) in extra.as_object().unwrap() {
        claims[k] = v.clone();
    }
    claims
}

/// One HTTP request: the status line, headers and body.
fn request(
    port: u16,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> String {
    let message = body;
    let body = body.map(Value::to_string).unwrap_or_default();
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    if let Some(token) = token {
        head.push_str(&format!("Authorization: Bearer {token}\r\n"));
    }
    // A 2026-07-28 request mirrors its revision, method and tool in headers.
    let stateless = message.is_some_and(|m| {
        m.pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion")
            .is_some()
    });
    if let Some(method) = message
        .and_then(|m| m["method"].as_str())
        .filter(|_| stateless)
    {
        head.push_str(&format!(
            "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: {method}\r\n"
        ));
        let named = |key: &str| message.and_then(|m| m.pointer(key)?.as_str());
        if let Some(name) = named("/params/name").or_else(|| named("/params/uri")) {
            head.push_str(&format!("Mcp-Name: {name}\r\n"));
        }
    }
    write!(stream, "{head}\r\n{body}").unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer
}

/// A 2026-07-28 (stateless) request: no session needed.
fn rpc(method: &str, params: Value) -> Value {
    let mut params = params;
    params["_meta"] = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                             "io.modelcontextprotocol/clientCapabilities": {}});
    json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
}

fn call(name: &str, arguments: Value) -> Value {
    rpc("tools/call", json!({"name": name, "arguments": arguments}))
}

fn post(port: u16, token: Option<&str>, body: &Value) -> String {
    request(port, "POST", "/mcp", token, Some(body))
}

fn body_json(answer: &str) -> Value {
    let (_, mut body) = answer.split_once("\r\n\r\n").unwrap_or_default();
    let mut whole = String::new();
    if header(answer, "transfer-encoding") == Some("chunked") {
        // `SIZE\r\nDATA\r\n` ... `0\r\n\r\n`
        while let Some((size, rest)) = body.split_once("\r\n") {
            let size = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
            if size == 0 {
                break;
            }
            whole.push_str(&rest[..size]);
            body = &rest[size + 2..];
        }
        body = &whole;
    }
    serde_json::from_str(body).unwrap_or(Value::Null)
}

fn header<'a>(answer: &'a str, name: &str) -> Option<&'a str> {
    let head = answer.split("\r\n\r\n").next()?;
    head.lines().find_map(|line| {
        let (k, v) = line.split_once(':')?;
        k.eq_ignore_ascii_case(name).then(|| v.trim())
    })
}

fn issue_api() -> Server {
    Server::start(|_| Response::json(200, &json!({"number": 7, "title": "T", "state": "open"})))
}

#[test]
fn valid_tokens_are_served_and_every_bad_one_is_refused_before_the_api() {
    let key = Key::new("k1");
    let idp = Idp::start(&[&key]);
    let api = issue_api();
    let (serving, port) = serve(&api, &idp, &[]);
    let get = call("get_issue", json!({"project": "web", "number": 7}));

    // The metadata is public, at the resource's well-known path; not at the root one,
    // where a client that derived the URL from the origin would find a `resource`
    // other than the origin (RFC 9728 §3.3); no response-signing algorithms (F14).
    let answer = request(
        port,
        "GET",
        "/.well-known/oauth-protected-resource/mcp",
        None,
        None,
    );
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    let metadata = body_json(&answer);
    assert_eq!(metadata["resource"], resource(port));
    assert_eq!(metadata["authorization_servers"], json!([idp.issuer()]));
    assert!(
        metadata
            .get("resource_signing_alg_values_supported")
            .is_none()
    );
    let root = request(
        port,
        "GET",
        "/.well-known/oauth-protected-resource",
        None,
        None,
    );
    assert!(root.starts_with("HTTP/1.1 404"), "{root}");
    assert_eq!(
        body_json(&root)["resource_metadata"],
        format!("http://127.0.0.1:{port}/.well-known/oauth-protected-resource/mcp"),
        "{root}"
    );

    let challenge_url = format!(
        "resource_metadata=\"http://127.0.0.1:{port}/.well-known/oauth-protected-resource/mcp\""
    );
    let none = post(port, None, &get);
    assert!(none.starts_with("HTTP/1.1 401"), "{none}");
    let challenge = header(&none, "www-authenticate").unwrap();
    assert_eq!(challenge, format!("Bearer {challenge_url}"));

    let stranger = Key::new("k1"); // the same key id, another key: a forged signature
    let valid = key.sign(&claims(&idp, port, &json!({})), &json!({}));
    let mut tampered = valid.clone();
    // Another subject, the signature left as it was.
    let parts: Vec<&str> = valid.split('.').collect();
    let other_claims = B64.encode(claims(&idp, port, &json!({"sub": "mallory"})).to_string());
    tampered = tampered.replace(parts[1], &other_claims);
    let unsigned = format!(
        "{}.{}.",
        B64.encode(json!({"alg": "none", "typ": "JWT"}).to_string()),
        parts[1]
    );
    let bad = [
        (
            "expired",
            key.sign(
                &claims(&idp, port, &json!({"exp": now() - 600})),
                &json!({}),
            ),
        ),
        (
            "not yet valid",
            key.sign(
                &claims(&idp, port, &json!({"nbf": now() + 600})),
                &json!({}),
            ),
        ),
        (
            "wrong audience",
            key.sign(
                &claims(&idp, port, &json!({"aud": "https://other.example/mcp"})),
                &json!({}),
            ),
        ),
        (
            "wrong issuer",
            key.sign(
                &claims(&idp, port, &json!({"iss": "https://evil.example"})),
                &json!({}),
            ),
        ),
        (
            "no exp",
            key.sign(
                &{
                    let mut c = claims(&idp, port, &json!({}));
                    c.as_object_mut().unwrap().remove("exp");
                    c
                },
                &json!({}),
            ),
        ),
        ("alg none", unsigned),
        (
            "HS256 with the public key as secret",
            key.sign(&claims(&idp, port, &json!({})), &json!({"alg": "HS256"})),
        ),
        ("tampered", tampered),
        (
            "forged signature",
            stranger.sign(&claims(&idp, port, &json!({})), &json!({})),
        ),
        (
            "unknown kid",
            key.sign(&claims(&idp, port, &json!({})), &json!({"kid": "nope"})),
        ),
        ("not a JWT", "abc.def".to_owned()),
    ];
    for (what, token) in &bad {
        let answer = post(port, Some(token), &get);
        assert!(answer.starts_with("HTTP/1.1 401"), "{what}: {answer}");
        let challenge = header(&answer, "www-authenticate").unwrap_or_default();
        assert!(challenge.contains(&challenge_url), "{what}: {challenge}");
        assert!(
            challenge.contains("error=\"invalid_token\""),
            "{what}: {challenge}"
        );
        assert!(
            !answer.contains(token.as_str()),
            "{what}: the token is not echoed"
        );
    }
    assert!(api.requests().is_empty(), "no bad token reached the API");

    let answer = post(port, Some(&valid), &get);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert_eq!(
        body_json(&answer)["result"]["structuredContent"]["title"],
        "T"
    );
    let requests = api.requests();
    assert_eq!(requests.len(), 1);
    // Without pass-through the API gets the service's credential, not the caller's.
    assert_eq!(
        requests[0].header("authorization"),
        Some("Bearer upstream-t0ken")
    );

    // The audit line names the caller and the tool, never the token.
    let is_audit = |l: &str| l.starts_with("audit: ") && l.contains("\"outcome\":\"ok\"");
    let stderr = serving.stderr_with(is_audit);
    let audit = stderr
        .lines()
        .find(|l| is_audit(l))
        .unwrap_or_else(|| panic!("an audit line: {stderr}"));
    let record: Value = serde_json::from_str(&audit["audit: ".len()..]).unwrap();
    assert_eq!(record["caller"], "alice");
    assert_eq!(record["tool"], "get_issue");
    assert_eq!(record["api"], "tracker");
    for (_, token) in &bad {
        assert!(!stderr.contains(token.as_str()));
    }
    assert!(!stderr.contains(&valid));
}

#[test]
fn a_rotated_key_is_fetched_and_a_retired_one_refused() {
    let old = Key::new("2026-01");
    let idp = Idp::start(&[&old]);
    let api = issue_api();
    let (_serving, port) = serve(&api, &idp, &[]);
    let get = call("get_issue", json!({"project": "web", "number": 7}));
    let by_old = old.sign(&claims(&idp, port, &json!({})), &json!({}));
    assert!(post(port, Some(&by_old), &get).starts_with("HTTP/1.1 200"));

    let new = Key::new("2026-02");
    idp.publish(&[&new]);
    let by_new = new.sign(&claims(&idp, port, &json!({})), &json!({}));
    let answer = post(port, Some(&by_new), &get);
    assert!(
        answer.starts_with("HTTP/1.1 200"),
        "the new key is fetched: {answer}"
    );
    // The old key was retired with that fetch.
    let answer = post(port, Some(&by_old), &get);
    assert!(answer.starts_with("HTTP/1.1 401"), "{answer}");
    let fetches = idp
        .server
        .requests()
        .iter()
        .filter(|r| r.path() == "/jwks")
        .count();
    assert!(
        (2..=3).contains(&fetches),
        "{fetches} fetches of the key set"
    );
}

#[test]
fn scopes_choose_the_tools_a_caller_lists_and_calls() {
    let key = Key::new("k");
    let idp = Idp::start(&[&key]);
    let api = issue_api();
    let (_serving, port) = serve(
        &api,
        &idp,
        &[
            "--oauth-scope",
            "tools:read=read-only",
            "--oauth-scope",
            "tools:write=group:create,update",
            "--oauth-scope",
            "tools:write=read-only",
        ],
    );
    // The first 401 names the scopes to ask for (MCP 2025-11-25).
    let none = post(port, None, &rpc("tools/list", json!({})));
    let challenge = header(&none, "www-authenticate").unwrap();
    assert!(
        challenge.ends_with(r#", scope="tools:read tools:write""#),
        "{challenge}"
    );
    let token = |scope: &str| key.sign(&claims(&idp, port, &json!({"scope": scope})), &json!({}));
    let names = |token: &str| -> Vec<String> {
        let answer = post(port, Some(token), &rpc("tools/list", json!({})));
        body_json(&answer)["result"]["tools"]
            .as_array()
            .unwrap_or_else(|| panic!("{answer}"))
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_owned())
            .collect()
    };
    let reader = token("tools:read");
    assert_eq!(names(&reader), ["get_issue", "list_issues"]);
    assert_eq!(
        names(&token("tools:write")),
        ["close_issue", "create_issue", "get_issue", "list_issues"]
    );
    assert_eq!(names(&token("tools:read tools:write")).len(), 4);

    // A write tool with a read scope: 403 naming the scope that grants it, nothing sent.
    let create = call("create_issue", json!({"project": "web", "title": "x"}));
    let answer = post(port, Some(&reader), &create);
    assert!(answer.starts_with("HTTP/1.1 403"), "{answer}");
    let challenge = header(&answer, "www-authenticate").unwrap();
    assert!(
        challenge.contains("error=\"insufficient_scope\""),
        "{challenge}"
    );
    assert!(challenge.contains("scope=\"tools:write\""), "{challenge}");
    // A tool no scope grants is unknown to everyone.
    let delete = call("delete_issue", json!({"project": "web", "number": 7}));
    let answer = post(port, Some(&token("tools:read tools:write")), &delete);
    assert!(answer.contains("unknown tool `delete_issue`"), "{answer}");
    // A token with none of the mapped scopes is refused outright.
    let answer = post(port, Some(&token("profile")), &rpc("tools/list", json!({})));
    assert!(answer.starts_with("HTTP/1.1 403"), "{answer}");
    assert!(api.requests().is_empty(), "nothing reached the API");
    assert!(
        post(
            port,
            Some(&reader),
            &call("get_issue", json!({"project": "web", "number": 7}))
        )
        .starts_with("HTTP/1.1 200")
    );
    assert_eq!(api.requests().len(), 1);
}

#[test]
fn each_callers_own_token_reaches_the_api_on_its_own_calls() {
    let key = Key::new("k");
    let idp = Idp::start(&[&key]);
    let api = issue_api();
    let (serving, port) = serve(&api, &idp, &["--pass-through", "tracker"]);
    // Tokens the identity provider issued for this MCP server and the API both: only
    // those may be passed through (the MCP specification forbids forwarding a token
    // issued for the MCP server alone).
    let both = json!([resource(port), api.url()]);
    let alice = key.sign(
        &claims(&idp, port, &json!({"sub": "alice", "aud": both})),
        &json!({}),
    );
    let bob = key.sign(
        &claims(&idp, port, &json!({"sub": "bob", "aud": both})),
        &json!({}),
    );
    // A token for this server alone is refused, and nothing reaches the API.
    let ours = key.sign(&claims(&idp, port, &json!({"sub": "carol"})), &json!({}));
    let answer = post(
        port,
        Some(&ours),
        &call("get_issue", json!({"project": "web", "number": 1})),
    );
    assert!(
        answer.contains("forbids passing such a token through"),
        "{answer}"
    );
    assert!(api.take_requests().is_empty(), "{answer}");
    // Interleaved, from threads at once.
    let threads: Vec<_> = (0..8u64)
        .map(|i| {
            let token = if i.is_multiple_of(2) {
                alice.clone()
            } else {
                bob.clone()
            };
            std::thread::spawn(move || {
                let number = 100 + i;
                let answer = post(
                    port,
                    Some(&token),
                    &call("get_issue", json!({"project": "web", "number": number})),
                );
                assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
            })
        })
        .collect();
    for thread in threads {
        thread.join().unwrap();
    }
    let requests = api.requests();
    assert_eq!(requests.len(), 8);
    for request in &requests {
        let number: u64 = request.path().rsplit('/').next().unwrap().parse().unwrap();
        let expected = if number.is_multiple_of(2) {
            &alice
        } else {
            &bob
        };
        assert_eq!(
            request.header("authorization"),
            Some(format!("Bearer {expected}").as_str()),
            "call {number}"
        );
    }
    let stderr = serving.stderr();
    assert!(
        !stderr.contains(&alice) && !stderr.contains(&bob),
        "tokens stay out of logs"
    );
    assert!(!stderr.contains("upstream-t0ken"));
}

#[test]
fn a_claim_of_the_callers_token_can_be_the_apis_credential() {
    let key = Key::new("k");
    let idp = Idp::start(&[&key]);
    let api = issue_api();
    let (serving, port) = serve(
        &api,
        &idp,
        &["--pass-through-claim", "tracker=tracker_token"],
    );
    let alice = key.sign(
        &claims(
            &idp,
            port,
            &json!({"sub": "alice", "tracker_token": "tracker-key-of-alice"}),
        ),
        &json!({}),
    );
    let bob = key.sign(&claims(&idp, port, &json!({"sub": "bob"})), &json!({}));
    let get = call("get_issue", json!({"project": "web", "number": 7}));
    let answer = post(port, Some(&alice), &get);
    assert_eq!(body_json(&answer)["result"]["isError"], false, "{answer}");
    let requests = api.take_requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(
        requests[0].header("authorization"),
        Some("Bearer tracker-key-of-alice")
    );
    // Bob's token has no such claim: refused, nothing sent (not the service's own key).
    let answer = post(port, Some(&bob), &get);
    assert_eq!(body_json(&answer)["result"]["isError"], true, "{answer}");
    assert!(answer.contains("tracker_token"), "{answer}");
    assert_eq!(api.take_requests().len(), 0);
    assert!(!serving.stderr().contains("tracker-key-of-alice"));
}

/// A token endpoint doing RFC 8693 exchanges for the client `mcp-server`: the caller's
/// JWT in, `api-token-for-<its subject>` out.
fn exchange_endpoint() -> Server {
    Server::start(|request| {
        if !from_the_server(request) {
            return Response::json(401, &json!({"error": "invalid_client"}));
        }
        let field = |name: &str| form_field(request, name);
        if field("grant_type").as_deref() != Some("urn:ietf:params:oauth:grant-type:token-exchange")
            || field("subject_token_type").as_deref()
                != Some("urn:ietf:params:oauth:token-type:access_token")
            || field("audience").as_deref() != Some("tracker-api")
        {
            return Response::json(400, &json!({"error": "invalid_request"}));
        }
        let subject = field("subject_token").unwrap_or_default();
        let payload = subject.split('.').nth(1).unwrap_or_default();
        let claims: Value = B64
            .decode(payload)
            .ok()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or(Value::Null);
        let Some(sub) = claims["sub"].as_str() else {
            return Response::json(400, &json!({"error": "invalid_grant"}));
        };
        Response::json(
            200,
            &json!({"access_token": format!("api-token-for-{sub}"), "token_type": "Bearer",
                    "issued_token_type": "urn:ietf:params:oauth:token-type:access_token",
                    "expires_in": 300}),
        )
    })
}

#[test]
fn each_caller_gets_a_token_exchanged_for_its_own() {
    let key = Key::new("k");
    let idp = Idp::start(&[&key]);
    let api = issue_api();
    let sts = exchange_endpoint();
    let token_url = format!("tracker={}/token", sts.url());
    let (serving, port) = serve(
        &api,
        &idp,
        &[
            "--exchange",
            &token_url,
            "--exchange-client",
            "mcp-server=INTROSPECTION_SECRET",
            "--exchange-audience",
            "tracker=tracker-api",
        ],
    );
    let alice = key.sign(&claims(&idp, port, &json!({"sub": "alice"})), &json!({}));
    let bob = key.sign(&claims(&idp, port, &json!({"sub": "bob"})), &json!({}));
    for (number, token) in [(100, &alice), (101, &bob), (102, &alice), (103, &bob)] {
        let answer = post(
            port,
            Some(token),
            &call("get_issue", json!({"project": "web", "number": number})),
        );
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        assert_eq!(body_json(&answer)["result"]["isError"], false, "{answer}");
    }
    // Each call carried its caller's exchanged token, never the MCP token itself.
    let requests = api.take_requests();
    assert_eq!(requests.len(), 4);
    for request in &requests {
        let number: u64 = request.path().rsplit('/').next().unwrap().parse().unwrap();
        let who = if number.is_multiple_of(2) {
            "alice"
        } else {
            "bob"
        };
        assert_eq!(
            request.header("authorization"),
            Some(format!("Bearer api-token-for-{who}").as_str()),
            "call {number}"
        );
    }
    // One exchange per caller: the second call of each reused it.
    assert_eq!(sts.take_requests().len(), 2);
    let stderr = serving.stderr();
    assert!(
        !stderr.contains(&alice) && !stderr.contains("api-token-for"),
        "{stderr}"
    );
}

#[test]
fn the_mcp_client_connects_with_an_access_token() {
    let key = Key::new("k");
    let idp = Idp::start(&[&key]);
    let api = issue_api();
    let (_serving, port) = serve(&api, &idp, &[]);
    let token = key.sign(&claims(&idp, port, &json!({})), &json!({}));
    let calls = json!([["get_issue", {"project": "web", "number": 7}]]);
    let output = Command::new("python3")
        .arg(root().join("cli/tests/mcp/client.py"))
        .args(["--mode", "legacy", "--calls", &calls.to_string()])
        .args(["--url", &resource(port), "--bearer-env", "MCP_ACCESS_TOKEN"])
        .env("MCP_ACCESS_TOKEN", &token)
        .output()
        .expect("python3 with the MCP client (pip install \"mcp>=2.3,<3\")");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let session: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        session["calls"][0]["structuredContent"]["title"], "T",
        "{session}"
    );
}

#[test]
fn one_busy_caller_is_held_back_while_others_are_served_and_sessions_stay_their_own() {
    let key = Key::new("k");
    let idp = Idp::start(&[&key]);
    let api = issue_api();
    let (_serving, port) = serve(&api, &idp, &["--calls-per-second", "5"]);
    let alice = key.sign(&claims(&idp, port, &json!({"sub": "alice"})), &json!({}));
    let bob = key.sign(&claims(&idp, port, &json!({"sub": "bob"})), &json!({}));
    let get = call("get_issue", json!({"project": "web", "number": 7}));

    let flood: Vec<String> = (0..20).map(|_| post(port, Some(&alice), &get)).collect();
    let limited: Vec<&String> = flood
        .iter()
        .filter(|a| a.starts_with("HTTP/1.1 429"))
        .collect();
    assert!(limited.len() >= 10, "{} of 20 limited", limited.len());
    assert!(
        limited
            .iter()
            .all(|a| header(a, "retry-after")
                .is_some_and(|s| s.parse::<u64>().is_ok_and(|n| n >= 1)))
    );
    for _ in 0..5 {
        assert!(
            post(port, Some(&bob), &get).starts_with("HTTP/1.1 200"),
            "bob keeps being served"
        );
    }
    let served = api.requests().len();
    assert_eq!(
        served,
        20 - limited.len() + 5,
        "a refused call sends nothing"
    );

    // Alice's session is unknown to bob.
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                      "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                                 "clientInfo": {"name": "t", "version": "1"}}});
    let started = post(port, Some(&alice), &init);
    let session = header(&started, "mcp-session-id")
        .expect("a session")
        .to_owned();
    let ping = json!({"jsonrpc": "2.0", "id": 2, "method": "ping"});
    let with_session = |token: &str| {
        let body = ping.to_string();
        let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
        write!(
            stream,
            "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json\r\nConnection: close\r\nAuthorization: Bearer {token}\r\nMcp-Session-Id: {session}\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        answer
    };
    assert!(
        with_session(&bob).starts_with("HTTP/1.1 404"),
        "not bob's session"
    );
    assert!(with_session(&alice).starts_with("HTTP/1.1 200"));
}

/// Whether a request to the identity provider carries the server's client credentials
/// (`mcp-server`, `s3cret`) as `Authorization: Basic`.
fn from_the_server(request: &toolwright_loopback::Request) -> bool {
    let basic = base64::engine::general_purpose::STANDARD.encode("mcp-server:s3cret");
    request.header("authorization") == Some(format!("Basic {basic}").as_str())
}

/// Field `name` of a form-encoded request body, decoded.
fn form_field(request: &toolwright_loopback::Request, name: &str) -> Option<String> {
    String::from_utf8_lossy(&request.body)
        .split('&')
        .find_map(|pair| pair.strip_prefix(&format!("{name}=")).map(str::to_owned))
        .map(|v| {
            percent_encoding::percent_decode_str(&v)
                .decode_utf8_lossy()
                .into_owned()
        })
}

/// An introspection endpoint (RFC 7662) that knows three opaque tokens and wants the
/// server's client credentials; `audience` is filled in once the server's port is known.
fn introspection_endpoint(audience: Arc<Mutex<String>>) -> Server {
    Server::start(move |request| {
        if !from_the_server(request) {
            return Response::json(401, &json!({"error": "invalid_client"}));
        }
        let token = form_field(request, "token").unwrap_or_default();
        let aud = audience.lock().unwrap().clone();
        Response::json(
            200,
            &match token.as_str() {
                "opaque-alice-0123456789" => json!({"active": true, "aud": aud, "sub": "alice",
                    "scope": "tools:read", "exp": now() + 300}),
                "opaque-elsewhere-0123456789" => json!({"active": true,
                    "aud": "https://other.example/mcp", "sub": "bob"}),
                _ => json!({"active": false}),
            },
        )
    })
}

#[test]
fn opaque_tokens_are_checked_by_introspection() {
    let idp = Idp::start(&[]);
    let api = issue_api();
    let audience = Arc::new(Mutex::new(String::new()));
    let endpoint = introspection_endpoint(Arc::clone(&audience));
    let introspect = format!("{}/introspect", endpoint.url());
    let (serving, port) = serve(
        &api,
        &idp,
        &[
            "--oauth-introspection",
            &introspect,
            "--oauth-client",
            "mcp-server=INTROSPECTION_SECRET",
        ],
    );
    *audience.lock().unwrap() = resource(port);
    let get = call("get_issue", json!({"project": "web", "number": 7}));

    // Alice's token is active and for this server: served, twice, asked about once.
    for _ in 0..2 {
        let answer = post(port, Some("opaque-alice-0123456789"), &get);
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        assert_eq!(body_json(&answer)["result"]["isError"], false, "{answer}");
    }
    assert_eq!(api.take_requests().len(), 2);
    assert_eq!(endpoint.take_requests().len(), 1, "the answer was cached");
    assert!(
        serving.stderr().contains(r#""caller":"alice""#),
        "{}",
        serving.stderr()
    );

    // Inactive, unknown, or issued for another server: 401, nothing sent.
    for (token, why) in [
        ("opaque-revoked-0123456789", "not active"),
        ("opaque-elsewhere-0123456789", "not issued for this server"),
    ] {
        let answer = post(port, Some(token), &get);
        assert!(answer.starts_with("HTTP/1.1 401"), "{token}: {answer}");
        let challenge = header(&answer, "www-authenticate").unwrap();
        assert!(
            challenge.contains(r#"error="invalid_token""#),
            "{challenge}"
        );
        assert!(answer.contains(why), "{token}: {answer}");
    }
    assert_eq!(api.take_requests().len(), 0);

    // A flood of made-up tokens (F6): the malformed ones are not asked about at all,
    // the well-formed ones only until the refusal budget is spent (then `503`), and
    // none of them pushes alice's cached grant out.
    endpoint.take_requests();
    let answer = post(port, Some("not a token; at all"), &get);
    assert!(answer.starts_with("HTTP/1.1 401"), "{answer}");
    let mut waited = 0;
    for i in 0..300 {
        let answer = post(port, Some(&format!("junk-token-{i:04}-0123456789")), &get);
        if answer.starts_with("HTTP/1.1 503") {
            waited += 1;
        } else {
            assert!(answer.starts_with("HTTP/1.1 401"), "{answer}");
        }
    }
    assert_eq!(
        api.take_requests().len(),
        0,
        "made-up tokens reached the API"
    );
    let asked = endpoint.take_requests().len();
    assert!(asked < 20, "300 made-up tokens cost {asked} introspections");
    assert!(
        waited >= 250,
        "{waited} of 300 made-up tokens were held back"
    );
    let answer = post(port, Some("opaque-alice-0123456789"), &get);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert_eq!(
        endpoint.take_requests().len(),
        0,
        "alice's grant stayed cached"
    );
    assert_eq!(
        api.take_requests().len(),
        1,
        "only alice's call reached the API"
    );
    drop(serving);

    // The server's own client secret is wrong: tokens cannot be checked, 503.
    let (_serving, port) = serve(
        &api,
        &idp,
        &[
            "--oauth-introspection",
            &introspect,
            "--oauth-client",
            "mcp-server=TRACKER_TOKEN",
        ],
    );
    let answer = post(port, Some("opaque-alice-0123456789"), &get);
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    // What failed inside (the endpoint's URL, its answer) is not told to a client
    // that has not authenticated (F13).
    assert!(answer.contains("cannot be checked now"), "{answer}");
    assert!(!answer.contains(&introspect), "{answer}");
    assert!(!answer.contains("upstream-t0ken"), "{answer}");
    assert_eq!(api.take_requests().len(), 0);
}

/// F4 and F10: with the key endpoint hung, tokens with made-up key ids wait for the one
/// fetch in flight (or are refused from the cache), and callers whose key is known do
/// not wait at all; one made-up key id after another costs one fetch per refresh
/// interval, not one each.
#[test]
fn a_hung_key_endpoint_and_made_up_key_ids_do_not_stall_valid_callers() {
    let key = Key::new("k");
    let idp = Idp::start(&[&key]);
    let api = issue_api();
    let (_serving, port) = serve(&api, &idp, &[]);
    let alice = key.sign(&claims(&idp, port, &json!({"sub": "alice"})), &json!({}));
    let get = call("get_issue", json!({"project": "web", "number": 7}));
    let answer = post(port, Some(&alice), &get);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    let warm = idp.fetches();

    idp.slow_down(Duration::from_secs(8));
    let forger = Key::new("nope");
    let attackers: Vec<_> = (0..6)
        .map(|i| {
            let token = forger.sign(
                &claims(&idp, port, &json!({"sub": format!("mallory{i}")})),
                &json!({}),
            );
            std::thread::spawn(move || post(port, Some(&token), &call("get_issue", json!({}))))
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    for _ in 0..10 {
        let started = std::time::Instant::now();
        let answer = post(port, Some(&alice), &get);
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        // A stall detector, not a timing target: the hung fetch takes 8 s.
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "a valid caller waited {:?} behind the key fetch",
            started.elapsed()
        );
    }
    for attacker in attackers {
        let answer = attacker.join().unwrap();
        assert!(answer.starts_with("HTTP/1.1 401"), "{answer}");
    }
    // Six made-up key ids while one fetch was in flight: that one fetch, no more.
    assert!(
        idp.fetches() - warm <= 1,
        "{} fetches",
        idp.fetches() - warm
    );
}

/// F11 and F15: principals of different kinds do not collapse into one caller, and
/// tokens the JOSE rules say to refuse are refused.
#[test]
fn callers_keep_their_kind_and_unacceptable_token_headers_are_refused() {
    let key = Key::new("k");
    let idp = Idp::start(&[&key]);
    let api = issue_api();
    let (serving, port) = serve(&api, &idp, &[]);
    let get = call("get_issue", json!({"project": "web", "number": 7}));
    let client = key.sign(
        &claims(&idp, port, &json!({"client_id": "alice", "sub": null})),
        &json!({}),
    );
    let answer = post(port, Some(&client), &get);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    let stderr = serving.stderr_with(|line| line.contains("client:alice"));
    assert!(stderr.contains(r#""caller":"client:alice""#), "{stderr}");
    let nobody = key.sign(&claims(&idp, port, &json!({"sub": null})), &json!({}));
    let answer = post(port, Some(&nobody), &get);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    let stderr = serving.stderr_with(|line| line.contains(r#""caller":"token:"#));
    assert!(stderr.contains(r#""caller":"token:"#), "{stderr}");

    for (claims_over, header, why) in [
        (json!({"iss": [idp.issuer()]}), json!({}), "one issuer"),
        (
            json!({}),
            json!({"crit": ["exp"], "exp": 1}),
            "critical extensions",
        ),
        (json!({}), json!({"typ": "id_token"}), "not an access token"),
        (
            json!({}),
            json!({"typ": "logout+jwt"}),
            "not an access token",
        ),
    ] {
        let token = key.sign(&claims(&idp, port, &claims_over), &header);
        let answer = post(port, Some(&token), &get);
        assert!(answer.starts_with("HTTP/1.1 401"), "{header}: {answer}");
        assert!(answer.contains(why), "{header}: {answer}");
    }
    // The generic `JWT` and RFC 9068's `at+jwt`, in any case, are access tokens.
    for typ in ["JWT", "at+JWT", "application/at+jwt"] {
        let token = key.sign(&claims(&idp, port, &json!({})), &json!({"typ": typ}));
        let answer = post(port, Some(&token), &get);
        assert!(answer.starts_with("HTTP/1.1 200"), "{typ}: {answer}");
    }
    assert_eq!(api.take_requests().len(), 5);
}

/// F12: a caller's token never goes to an API over clear-text HTTP off this machine,
/// even when its audience names that API (as client secrets never do).
#[test]
fn a_callers_token_is_not_sent_in_clear_text() {
    let key = Key::new("k");
    let idp = Idp::start(&[&key]);
    let api = issue_api();
    // `.invalid` never resolves: if the refusal regressed, nothing would be reached.
    let remote = "http://tracker.example.invalid";
    let (_serving, port) = serve(
        &api,
        &idp,
        &[
            "--pass-through",
            "tracker",
            "--base-url",
            &format!("tracker={remote}/api/v1"),
        ],
    );
    let token = key.sign(
        &claims(&idp, port, &json!({"aud": [resource(port), remote]})),
        &json!({}),
    );
    let answer = post(
        port,
        Some(&token),
        &call("get_issue", json!({"project": "web", "number": 7})),
    );
    assert!(answer.contains("clear text"), "{answer}");
}

/// F5: views of the catalog are keyed by the mapped scopes a caller holds, not by its
/// whole scope string: 300 tokens whose scope strings differ only in scopes that map
/// to nothing make one view, and the server's memory does not grow with them (before,
/// each made its own export of a 290-operation catalog, about 5 MB).
#[test]
fn scope_strings_that_map_to_nothing_make_no_new_views() {
    let key = Key::new("k");
    let idp = Idp::start(&[&key]);
    let port = toolwright_loopback::free_port();
    let child = Command::new(env!("CARGO_BIN_EXE_toolwright"))
        .args(["serve", "tests/data/corpus/dev/osisoft.com_api.json"])
        .args(["--http", &format!("127.0.0.1:{port}")])
        .args(["--oauth-issuer", &idp.issuer()])
        .args(["--oauth-resource", &resource(port)])
        .args(["--oauth-jwks", &format!("{}/jwks", idp.issuer())])
        .args(["--oauth-scope", "tools:read=read-only"])
        .current_dir(root())
        .env_clear()
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let serving = Serving {
        child,
        stderr: Arc::default(),
    };
    let pid = serving.child.id();
    toolwright_loopback::wait_listening(port, Duration::from_secs(60), "serve --http").unwrap();
    let list = |i: usize| {
        let scope = format!("tools:read unmapped-{i}");
        let token = key.sign(&claims(&idp, port, &json!({"scope": scope})), &json!({}));
        let answer = post(port, Some(&token), &rpc("tools/list", json!({})));
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    };
    for i in 0..10 {
        list(i);
    }
    let after_ten = toolwright_loopback::rss_kib(pid);
    for i in 10..300 {
        list(i);
    }
    let grown = toolwright_loopback::rss_kib(pid).saturating_sub(after_ten);
    assert!(
        grown < 100 * 1024,
        "290 more scope strings grew the server by {grown} KiB"
    );
}

/// Read-only operations offered as resources (`--resources`) follow the caller's scopes
/// as the tools do: a caller whose scopes leave a `GET` out neither lists nor reads it
/// (and nothing reaches the API); one whose scopes keep it does both.
#[test]
fn operation_resources_follow_the_callers_scopes() {
    let key = Key::new("k");
    let idp = Idp::start(&[&key]);
    let api = issue_api();
    let (_serving, port) = serve(
        &api,
        &idp,
        &[
            "--oauth-scope",
            "tools:read=read-only",
            "--oauth-scope",
            "tools:create=group:create",
            "--resources",
            "read-only",
        ],
    );
    let token = |scope: &str| key.sign(&claims(&idp, port, &json!({"scope": scope})), &json!({}));
    let templates = |token: &str| -> Vec<String> {
        let answer = post(
            port,
            Some(token),
            &rpc("resources/templates/list", json!({})),
        );
        let listed = body_json(&answer)["result"]["resourceTemplates"].clone();
        listed
            .as_array()
            .unwrap_or_else(|| panic!("{answer}"))
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_owned())
            .collect()
    };
    let (reader, creator) = (token("tools:read"), token("tools:create"));
    assert_eq!(templates(&reader), ["get_issue", "list_issues"]);
    assert!(templates(&creator).is_empty());
    let uri = "toolwright://api/tracker/projects/web/issues/7";
    let read = rpc("resources/read", json!({"uri": uri}));
    let refused = body_json(&post(port, Some(&creator), &read));
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert!(api.requests().is_empty(), "nothing reached the API");
    let answer = body_json(&post(port, Some(&reader), &read));
    let text = answer["result"]["contents"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("{answer}"));
    assert!(text.contains("\"number\": 7"), "{text}");
    assert_eq!(api.requests().len(), 1);
    // The lists differ by caller: not for shared caches.
    let answer = body_json(&post(
        port,
        Some(&reader),
        &rpc("resources/templates/list", json!({})),
    ));
    assert_eq!(answer["result"]["cacheScope"], "private", "{answer}");
}
