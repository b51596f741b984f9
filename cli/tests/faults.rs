//! The executor against a misbehaving server (a raw TCP server on loopback, so every
//! fault is real on the wire): statuses worth retrying, `Retry-After`, an answer
//! slower than the timeout, a reset connection, a truncated body, a 15 MB body, a
//! body that is not JSON, a redirect to another port, a gzip bomb. Each case checks
//! how many times the server saw the request (POST is sent once unless declared
//! idempotent) and which error came back.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use toolwright::{CredentialSource, Error, Executor, TransportKind};

/// What the server saw: each request's method, path and headers.
type Seen = Arc<Mutex<Vec<(String, String, BTreeMap<String, String>)>>>;

struct Raw {
    port: u16,
    seen: Seen,
}

impl Raw {
    fn start(behave: fn(&str, &str, &mut TcpStream, u16)) -> Raw {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let seen: Seen = Arc::default();
        let log = Arc::clone(&seen);
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                let log = Arc::clone(&log);
                std::thread::spawn(move || {
                    let mut reader = BufReader::new(stream.try_clone().unwrap());
                    let mut line = String::new();
                    if reader.read_line(&mut line).is_err() {
                        return;
                    }
                    let mut parts = line.split_whitespace();
                    let method = parts.next().unwrap_or_default().to_owned();
                    let target = parts.next().unwrap_or_default().to_owned();
                    let mut headers = BTreeMap::new();
                    loop {
                        let mut h = String::new();
                        if reader.read_line(&mut h).is_err() || h.trim().is_empty() {
                            break;
                        }
                        if let Some((k, v)) = h.trim().split_once(':') {
                            headers.insert(k.to_ascii_lowercase(), v.trim().to_owned());
                        }
                    }
                    let length: usize = headers
                        .get("content-length")
                        .and_then(|l| l.parse().ok())
                        .unwrap_or(0);
                    let mut body = vec![0; length];
                    let _ = reader.read_exact(&mut body);
                    log.lock()
                        .unwrap()
                        .push((method.clone(), target.clone(), headers));
                    behave(&method, &target, &mut stream, port);
                });
            }
        });
        Raw { port, seen }
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Requests seen whose target starts with `prefix`.
    fn count(&self, prefix: &str) -> usize {
        self.seen
            .lock()
            .unwrap()
            .iter()
            .filter(|(_, t, _)| t.starts_with(prefix))
            .count()
    }
}

fn respond(stream: &mut TcpStream, status: u16, headers: &[(&str, String)], body: &[u8]) {
    let mut head = format!(
        "HTTP/1.1 {status} X\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(body);
}

fn json_ok(stream: &mut TcpStream) {
    respond(
        stream,
        200,
        &[("Content-Type", "application/json".into())],
        b"{\"ok\":true}",
    );
}

/// The faults, by path.
fn behave(_method: &str, target: &str, stream: &mut TcpStream, _port: u16) {
    let path = target.split('?').next().unwrap_or_default();
    if let Some(code) = path
        .strip_prefix("/status/")
        .or_else(|| path.strip_prefix("/idem/"))
    {
        let code: u16 = code.parse().unwrap_or(500);
        let headers = [
            ("Content-Type", "application/json".to_owned()),
            ("Retry-After", "0".to_owned()),
            ("X-Request-Id", "req-42".to_owned()),
            ("Set-Cookie", "session=never-kept".to_owned()),
        ];
        respond(stream, code, &headers, b"{\"message\":\"try later\"}");
        return;
    }
    match path {
        "/slow" => {
            std::thread::sleep(Duration::from_secs(3));
            json_ok(stream);
        }
        "/reset" => {
            // Close without answering: the client sees the connection end.
            let _ = stream.shutdown(std::net::Shutdown::Both);
        }
        "/truncated" => {
            let _ = stream.write_all(
                b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"ok\":",
            );
            let _ = stream.shutdown(std::net::Shutdown::Both);
        }
        "/big" => {
            // 15 MB, chunked (no Content-Length to refuse it early): the client must
            // stop reading at its limit.
            let _ = stream.write_all(
                b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
            );
            let chunk = vec![b' '; 1 << 20];
            for _ in 0..15 {
                let head = format!("{:x}\r\n", chunk.len());
                if stream.write_all(head.as_bytes()).is_err()
                    || stream.write_all(&chunk).is_err()
                    || stream.write_all(b"\r\n").is_err()
                {
                    return;
                }
            }
            let _ = stream.write_all(b"0\r\n\r\n");
        }
        "/big-declared" => {
            let _ = stream.write_all(
                b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 15728640\r\n\r\n",
            );
        }
        "/text" => respond(
            stream,
            200,
            &[("Content-Type", "text/html".into())],
            b"<html>oops</html>",
        ),
        "/gzip" => {
            let bomb = gzip_bomb();
            let headers = [
                ("Content-Type", "application/json".to_owned()),
                ("Content-Encoding", "gzip".to_owned()),
            ];
            respond(stream, 200, &headers, &bomb);
        }
        "/redirect" => {
            let to = OTHER.lock().unwrap().clone();
            respond(
                stream,
                307,
                &[("Location", format!("{to}/stolen?x=1"))],
                b"",
            );
        }
        "/same-origin" => respond(stream, 307, &[("Location", "/status/200".into())], b""),
        "/deep" => {
            // 100,000 nested arrays: parsing must stop, not overflow the stack.
            let mut body = vec![b'['; 100_000];
            body.extend(vec![b']'; 100_000]);
            respond(
                stream,
                200,
                &[("Content-Type", "application/json".into())],
                &body,
            );
        }
        _ => json_ok(stream),
    }
}

/// The other origin a redirect points at (a second server, another port).
static OTHER: Mutex<String> = Mutex::new(String::new());

/// 100 MB of zeros, gzipped (about 100 KB).
fn gzip_bomb() -> Vec<u8> {
    static BOMB: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    BOMB.get_or_init(|| {
        let out = std::process::Command::new("sh")
            .args(["-c", "head -c 100000000 /dev/zero | gzip -9"])
            .output()
            .expect("gzip");
        out.stdout
    })
    .clone()
}

fn executor(server: &Raw, timeout: Duration) -> Executor {
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/faults/faults.yaml");
    let analysis = toolwright_codegen::analyze(&[spec], false);
    assert!(!analysis.has_errors(), "{}", analysis.render());
    let catalog = toolwright_cli::interpret::catalog(&analysis.apis).unwrap();
    let api = catalog.apis()[0].name.to_string();
    Executor::builder(catalog)
        .base_url(api, server.url())
        .credentials(CredentialSource::from_fn(|_| Some("s3cret".into())))
        .timeout(timeout)
        .build()
        .unwrap()
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

#[test]
fn retries_only_what_may_be_repeated() {
    let server = Raw::start(behave);
    let executor = executor(&server, Duration::from_secs(20));
    let rt = runtime();
    // (tool, code, attempts the server must see, error code)
    let cases = [
        ("get_status", 503, 3, "UPSTREAM_UNAVAILABLE"),
        ("get_status", 502, 3, "UPSTREAM_UNAVAILABLE"),
        ("get_status", 504, 3, "UPSTREAM_TIMEOUT"),
        ("get_status", 429, 3, "RATE_LIMIT_EXCEEDED"),
        ("get_status", 500, 1, "UPSTREAM_UNAVAILABLE"),
        ("get_status", 404, 1, "NOT_FOUND_UPSTREAM"),
        ("post_status", 503, 1, "UPSTREAM_UNAVAILABLE"),
        ("post_status", 429, 1, "RATE_LIMIT_EXCEEDED"),
        ("put_status", 503, 1, "UPSTREAM_UNAVAILABLE"),
        ("post_idempotent", 503, 3, "UPSTREAM_UNAVAILABLE"),
    ];
    for (tool, code, attempts, expected) in cases {
        server.seen.lock().unwrap().clear();
        let err = rt
            .block_on(executor.call(tool, json!({"code": code})))
            .expect_err("a failure status");
        let seen = server.count("/");
        assert_eq!(seen, attempts, "{tool} {code}: {seen} attempts");
        assert_eq!(err.code(), expected, "{tool} {code}: {err}");
        match err {
            Error::Status {
                status,
                message,
                headers,
                ..
            } => {
                assert_eq!(status, code);
                assert_eq!(message, "try later", "the upstream message is kept");
                // Headers that matter are kept; cookies are not.
                let has = |k: &str, v: &str| headers.iter().any(|(a, b)| a == k && b == v);
                assert!(has("x-request-id", "req-42"), "{headers:?}");
                assert!(has("retry-after", "0"), "{headers:?}");
                assert!(
                    headers.iter().all(|(k, _)| k != "set-cookie"),
                    "{headers:?}"
                );
            }
            other => panic!("{tool} {code}: {other}"),
        }
    }
    // A long Retry-After is not waited out: the 429 comes back after one attempt.
    let slow_server = Raw::start(|_, _, stream, _| {
        respond(stream, 429, &[("Retry-After", "3600".into())], b"slow down");
    });
    let executor = crate::executor(&slow_server, Duration::from_secs(20));
    let started = Instant::now();
    let err = rt
        .block_on(executor.call("get_status", json!({"code": 429})))
        .unwrap_err();
    assert_eq!(err.code(), "RATE_LIMIT_EXCEEDED");
    assert_eq!(slow_server.count("/"), 1);
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn transport_faults_fail_with_their_kind_and_bounded_resources() {
    let server = Raw::start(behave);
    let executor = executor(&server, Duration::from_millis(1_500));
    let rt = runtime();
    let kind = |e: &Error| match e {
        Error::Transport(t) => Some(t.kind()),
        _ => None,
    };

    // Slower than the call's timeout: retried within the budget (GET), then the
    // timeout, in about the timeout.
    let started = Instant::now();
    let err = rt
        .block_on(executor.call("get_fault", json!({"fault": "slow"})))
        .unwrap_err();
    assert_eq!(kind(&err), Some(TransportKind::Timeout), "{err}");
    assert_eq!(err.code(), "UPSTREAM_TIMEOUT");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    // POST: one attempt, the timeout.
    server.seen.lock().unwrap().clear();
    let err = rt
        .block_on(executor.call("post_fault", json!({"fault": "slow"})))
        .unwrap_err();
    assert_eq!(kind(&err), Some(TransportKind::Timeout), "{err}");
    assert_eq!(server.count("/slow"), 1);
    // Per call: a shorter timeout for this one.
    let started = Instant::now();
    let err = rt
        .block_on(
            executor
                .with_timeout(Duration::from_millis(300))
                .call("post_fault", json!({"fault": "slow"})),
        )
        .unwrap_err();
    assert_eq!(kind(&err), Some(TransportKind::Timeout), "{err}");
    assert!(started.elapsed() < Duration::from_secs(1));

    let executor = crate::executor(&server, Duration::from_secs(20));
    for (fault, method, attempts, expected) in [
        ("reset", "get", 3, TransportKind::Reset),
        ("reset", "post", 1, TransportKind::Reset),
        ("truncated", "get", 3, TransportKind::Reset),
        ("big", "get", 1, TransportKind::BodyTooLarge),
        ("big-declared", "get", 1, TransportKind::BodyTooLarge),
    ] {
        server.seen.lock().unwrap().clear();
        let tool = format!("{method}_fault");
        let err = rt
            .block_on(executor.call(&tool, json!({"fault": fault})))
            .unwrap_err();
        assert_eq!(kind(&err), Some(expected), "{fault} {method}: {err}");
        assert_eq!(
            server.count(&format!("/{fault}")),
            attempts,
            "{fault} {method}"
        );
    }
    // Not JSON, a gzip bomb (not decompressed: it stays 100 KB and is no JSON), and
    // JSON nested past the parser's depth limit (128).
    for fault in ["text", "gzip", "deep"] {
        let err = rt
            .block_on(executor.call("get_fault", json!({"fault": fault})))
            .unwrap_err();
        assert_eq!(err.code(), "UPSTREAM_DECODE", "{fault}: {err}");
    }
}

#[test]
fn redirects_never_carry_credentials_to_another_origin() {
    let other = Raw::start(|_, _, stream, _| json_ok(stream));
    *OTHER.lock().unwrap() = other.url();
    let server = Raw::start(behave);
    let executor = executor(&server, Duration::from_secs(10));
    let rt = runtime();
    for tool in ["get_fault", "post_fault"] {
        let args = json!({"fault": "redirect", "secret": "body-secret"});
        let args = if tool == "get_fault" {
            json!({"fault": "redirect"})
        } else {
            args
        };
        let err = rt.block_on(executor.call(tool, args)).unwrap_err();
        // Not followed: the 307 comes back as the answer.
        assert!(
            matches!(err, Error::Status { status: 307, .. }),
            "{tool}: {err}"
        );
    }
    assert_eq!(other.count("/"), 0, "nothing reached the other origin");
    // The first request had both credentials; no Referer anywhere.
    let seen = server.seen.lock().unwrap().clone();
    let (_, target, headers) = &seen[0];
    assert_eq!(headers.get("x-api-key").map(String::as_str), Some("s3cret"));
    assert!(target.contains("api_key=s3cret"), "{target}");
    assert!(seen.iter().all(|(_, _, h)| !h.contains_key("referer")));
    // Within the origin, redirects are followed (`/status/200` answers 200).
    let before = server.count("/status/200");
    rt.block_on(executor.call("get_fault", json!({"fault": "same-origin"})))
        .expect("followed within the origin");
    assert_eq!(server.count("/status/200"), before + 1);
}

#[test]
fn successful_calls_still_work() {
    let server = Raw::start(behave);
    let executor = executor(&server, Duration::from_secs(10));
    let rt = runtime();
    let value: Value = rt
        .block_on(executor.call("get_fault", json!({"fault": "fine"})))
        .unwrap();
    assert_eq!(value["ok"], true);
}

/// Arguments are untrusted: they stay inside their path segment, query value or
/// header, can never change where the request goes, and values a header or cookie
/// cannot carry (CR, LF, NUL) are refused before anything is sent.
#[test]
fn hostile_arguments_cannot_steer_the_request() {
    let server = Raw::start(behave);
    let executor = executor(&server, Duration::from_secs(10));
    let rt = runtime();
    for id in [
        "../admin",
        "a/b",
        "x?y=1",
        "x#frag",
        "%2e%2e",
        "..%2fadmin",
        "@evil.example",
        "a b",
    ] {
        server.seen.lock().unwrap().clear();
        rt.block_on(executor.call("echo", json!({"id": id})))
            .unwrap();
        let seen = server.seen.lock().unwrap().clone();
        let (_, target, _) = &seen[0];
        let path = target.split('?').next().unwrap_or_default();
        let segment = path
            .strip_prefix("/echo/")
            .unwrap_or_else(|| panic!("{id} → {target}"));
        assert!(!segment.contains(['/', '?', '#', ' ']), "{id} → {target}");
        let decoded = percent_encoding::percent_decode_str(segment).decode_utf8_lossy();
        assert_eq!(decoded, id, "the server reads back exactly the argument");
    }
    for (arg, value) in [
        ("X-Note", "a\r\nX-Injected: 1"),
        ("X-Note", "nul\0"),
        ("note", "a\r\nb"),
        ("id", "a\nb"),
    ] {
        server.seen.lock().unwrap().clear();
        let err = rt
            .block_on(executor.call("echo", json!({"id": "1", arg: value})))
            .expect_err("refused");
        assert!(
            matches!(err, Error::Request { .. } | Error::InvalidArguments { .. }),
            "{arg}: {err}"
        );
        assert_eq!(server.count("/"), 0, "{arg}: nothing was sent");
    }
    // Out of range, unknown arguments: refused before sending.
    for args in [
        json!({"id": "1", "n": 11}),
        json!({"id": "1", "host": "evil.example"}),
    ] {
        let err = rt
            .block_on(executor.call("echo", args.clone()))
            .unwrap_err();
        assert_eq!(err.code(), "VALIDATION_ARGUMENTS", "{args}: {err}");
    }
    assert_eq!(server.count("/"), 0);
}
