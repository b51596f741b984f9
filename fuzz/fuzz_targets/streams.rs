//! Collected streams: any bytes as the body of a server-sent event stream and of an
//! NDJSON stream, cut into chunks where the input says, read by by-name calls of the
//! shop fixture's streaming tools (`watchOrders`, `exportOrders`). Nothing may
//! panic; a call ends with the collected values (within the count limit) or an error.
#![no_main]

use std::pin::Pin;
use std::sync::OnceLock;
use std::task::{Context, Poll};

use bytes::Bytes;
use libfuzzer_sys::fuzz_target;
use serde_json::json;
use toolwright::Executor;
use toolwright::TransportError;
use toolwright::stream::Upload;
use toolwright::transport::{OpenFuture, ResponseFuture, Transport};

/// Streams opened: each call must reach the transport (else the input went unread).
static OPENED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

std::thread_local! {
    /// The current input: the body's chunks.
    static BODY: std::cell::RefCell<Vec<Bytes>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The body's chunks, one at a time.
struct Chunked(std::vec::IntoIter<Bytes>);

impl futures_core::Stream for Chunked {
    type Item = Result<Bytes, TransportError>;

    fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        Poll::Ready(self.0.next().map(Ok))
    }
}

/// Answers every request with the current input, as the media type its path streams.
struct Answer;

impl Transport for Answer {
    fn send(&self, _request: http::Request<Vec<u8>>) -> ResponseFuture<'_> {
        Box::pin(async { Err(TransportError::new("only streams here")) })
    }

    fn open(&self, request: http::Request<Upload>) -> OpenFuture<'_> {
        let media = if request.uri().path().ends_with("/events") {
            "text/event-stream"
        } else {
            "application/x-ndjson"
        };
        let chunks = BODY.with(|b| b.borrow().clone());
        OPENED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Box::pin(async move {
            let body = Upload::stream(Chunked(chunks.into_iter()), None).into_chunks();
            Ok(http::Response::builder()
                .status(200)
                .header("content-type", media)
                .body(body)
                .unwrap())
        })
    }
}

struct Shop {
    runtime: tokio::runtime::Runtime,
    executor: Executor,
}

fn shop() -> &'static Shop {
    static SHOP: OnceLock<Shop> = OnceLock::new();
    SHOP.get_or_init(|| {
        let spec =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/openapi/shop.yaml");
        let analysis = toolwright_codegen::analyze(&[spec], false);
        assert!(!analysis.has_errors(), "{}", analysis.render());
        let catalog = toolwright_cli::interpret::catalog(&analysis.apis).unwrap();
        let api = catalog.tools()[0].operation.api.to_string();
        let executor = Executor::builder(catalog)
            .transport(Answer)
            .credentials(toolwright::CredentialSource::from_fn(|_| {
                Some("t0ken".into())
            }))
            .base_url(&api, "https://api.example.com")
            .build()
            .unwrap();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        Shop { runtime, executor }
    })
}

fuzz_target!(|data: &[u8]| {
    // The first byte sets the chunk size (1 to 256 bytes): parsers must not care where
    // a chunk ends (inside a line, a `\r\n`, a UTF-8 character).
    let Some((&size, body)) = data.split_first() else {
        return;
    };
    let size = usize::from(size) + 1;
    let chunks: Vec<Bytes> = body.chunks(size).map(Bytes::copy_from_slice).collect();
    BODY.with(|b| *b.borrow_mut() = chunks);
    let shop = shop();
    for tool in ["watchOrders", "exportOrders"] {
        let opened = OPENED.load(std::sync::atomic::Ordering::Relaxed);
        let answer = shop.runtime.block_on(shop.executor.call(tool, json!({})));
        assert_eq!(
            OPENED.load(std::sync::atomic::Ordering::Relaxed),
            opened + 1,
            "`{tool}` did not reach the stream: {answer:?}"
        );
        if let Ok(value) = answer {
            let key = if tool == "watchOrders" {
                "events"
            } else {
                "items"
            };
            let taken = value[key].as_array().map_or(0, Vec::len);
            assert!(taken <= 10_000, "{taken} {key}");
        }
    }
});
