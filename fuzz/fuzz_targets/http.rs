//! The `serve --http` request path and its authorization header parsers: any bytes as
//! one HTTP request (a request line, header lines, a body) to the MCP endpoint of the
//! example adapter's catalog, with no authorization, static bearer tokens, OAuth JWTs
//! (a key set the transport answers) or OAuth introspection (every token inactive).
//! Nothing may panic, every answer is a well-formed HTTP status, and with
//! authorization nothing reaches the API for a request without the one valid token.
#![no_main]

use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use bytes::Bytes;
use http_body_util::Full;
use libfuzzer_sys::fuzz_target;
use toolwright::Executor;
use toolwright::serve::mcp::{BearerTokens, Http, OAuth, Server};
use toolwright::transport::{ResponseFuture, Transport};

/// The one token the static-token endpoint accepts.
const TOKEN: &str = "fuzz-team-token-0123456789";

/// API calls that reached the transport.
static CALLS: AtomicUsize = AtomicUsize::new(0);

/// Answers the API (counted), the key set and introspection at once, offline.
struct Answer;

impl Transport for Answer {
    fn send(&self, request: http::Request<Vec<u8>>) -> ResponseFuture<'_> {
        let path = request.uri().path().to_owned();
        let body: &[u8] = match path.as_str() {
            "/jwks" => br#"{"keys": [{"kty": "OKP", "crv": "Ed25519", "kid": "k", "x": "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}]}"#,
            "/introspect" => br#"{"active": false}"#,
            _ => {
                CALLS.fetch_add(1, Ordering::Relaxed);
                b"{}"
            }
        };
        let body = body.to_vec();
        Box::pin(async move {
            Ok(http::Response::builder()
                .status(200)
                .header("content-type", "application/json")
                .body(body)
                .unwrap())
        })
    }
}

struct Endpoints {
    runtime: tokio::runtime::Runtime,
    open: Http,
    tokens: Http,
    jwt: Http,
    introspection: Http,
}

fn endpoints() -> &'static Endpoints {
    static ENDPOINTS: OnceLock<Endpoints> = OnceLock::new();
    ENDPOINTS.get_or_init(|| {
        let adapter = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../examples/issue-tracker/adapters/tracker-adapter.md");
        let analysis = toolwright_codegen::analyze(&[adapter], false);
        assert!(!analysis.has_errors(), "{}", analysis.render());
        let catalog = toolwright_cli::interpret::catalog(&analysis.apis).unwrap();
        let executor = Executor::builder(catalog)
            .transport(Answer)
            .base_url("tracker", "https://api.example.com/v1")
            .build()
            .unwrap();
        let server = Server::new(executor);
        let issuer = "https://id.example.com";
        let resource = "https://mcp.example.com/mcp";
        let oauth = || {
            OAuth::new(issuer, resource)
                .unwrap()
                .jwks_uri(format!("{issuer}/jwks"))
                .unwrap()
        };
        Endpoints {
            runtime: tokio::runtime::Builder::new_current_thread()
                .enable_time()
                .build()
                .unwrap(),
            open: Http::new(server.clone()),
            tokens: Http::new(server.clone())
                .auth(BearerTokens::new().token("team", TOKEN).unwrap()),
            jwt: Http::new(server.clone()).auth(oauth()),
            introspection: Http::new(server).auth(
                oauth()
                    .introspection(
                        format!("{issuer}/introspect"),
                        "client",
                        "secret",
                        std::time::Duration::from_secs(60),
                    )
                    .unwrap(),
            ),
        }
    })
}

/// `METHOD PATH\nName: value\n...\n\nbody`, leniently: what `http` cannot take is
/// left out, as a server's parser would refuse it before the endpoint saw it.
fn request(text: &[u8]) -> Option<http::Request<Full<Bytes>>> {
    let split = text
        .windows(2)
        .position(|w| w == b"\n\n")
        .unwrap_or(text.len());
    let (head, body) = text.split_at(split);
    let body = body.get(2..).unwrap_or_default();
    let head = std::str::from_utf8(head).ok()?;
    let mut lines = head.lines();
    let mut first = lines.next()?.splitn(2, ' ');
    let method = first.next()?;
    let path = first.next().unwrap_or("/mcp");
    let mut builder = http::Request::builder().method(method).uri(path);
    for line in lines {
        if let Some((name, value)) = line.split_once(':') {
            builder = builder.header(name.trim(), value.trim());
        }
    }
    builder.body(Full::new(Bytes::copy_from_slice(body))).ok()
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Some(request) = request(rest) else {
        return;
    };
    let endpoints = endpoints();
    let presents_the_token = request
        .headers()
        .get_all(http::header::AUTHORIZATION)
        .iter()
        .any(|v| {
            v.as_bytes()
                .windows(TOKEN.len())
                .any(|w| w == TOKEN.as_bytes())
        });
    let endpoint = match pick % 4 {
        0 => &endpoints.open,
        1 => &endpoints.tokens,
        2 => &endpoints.jwt,
        _ => &endpoints.introspection,
    };
    let before = CALLS.load(Ordering::Relaxed);
    let response = endpoints.runtime.block_on(endpoint.handle(request));
    let status = response.status().as_u16();
    assert!((200..600).contains(&status), "{status}");
    let called = CALLS.load(Ordering::Relaxed) != before;
    match pick % 4 {
        // Only the one valid static token reaches the API.
        1 => assert!(
            !called || presents_the_token,
            "a call without the token ran"
        ),
        // No JWT the fuzzer makes is signed by the key set's key, and introspection
        // says every token is inactive.
        2 | 3 => assert!(!called, "a call with a made-up token ran"),
        _ => {}
    }
});
