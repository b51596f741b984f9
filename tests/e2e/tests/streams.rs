//! Bytes and streams through the generated `shop` client, against real loopback
//! servers: binary bodies as `Bytes`, a download read as it arrives past the buffered
//! limit, uploads from bytes, a file and a stream (byte for byte what the by-name
//! base64 path sends), server-sent events with a dropped connection resumed with
//! `Last-Event-ID`, JSON lines decoded lazily, and by-name calls that collect a
//! stream within their budget.

use std::time::Duration;

use serde_json::json;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use toolwright::stream::{FilePart, Upload};
use toolwright::{Bytes, CredentialSource, Executor, ExecutorBuilder};
use toolwright_e2e::openapi::{catalog, shop};
use toolwright_loopback::{Response, Server};

fn builder(url: &str) -> ExecutorBuilder {
    Executor::builder(catalog())
        .base_url("shop", url)
        .credentials(CredentialSource::from_fn(|name| {
            (name == "SHOP_BEARER_AUTH").then(|| "user-token".to_owned())
        }))
}

/// Bytes that are not text, with no repeating period a bug could hide in.
fn noise(len: usize) -> Vec<u8> {
    let mut x: u32 = 0x9e37_79b9;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            (x >> 24) as u8
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_15_mb_download_streams_while_the_buffered_calls_are_refused() {
    let image = noise(15 << 20);
    let served = image.clone();
    let server = Server::start(move |_| Response {
        status: 200,
        content_type: "image/png".into(),
        body: served.clone(),
        headers: Vec::new(),
    });
    let executor = builder(&server.url()).build().unwrap();
    let client = shop::Client::new(executor.clone());
    let input = shop::DownloadProductImageInput::new(7);

    // The by-name call and the buffered typed method keep the 10 MB limit.
    let by_name = executor
        .call("downloadProductImage", json!({"productId": 7}))
        .await
        .unwrap_err();
    assert_eq!(by_name.code(), "UPSTREAM_BODY_TOO_LARGE", "{by_name}");
    let buffered = client.download_product_image(&input).await.unwrap_err();
    assert_eq!(buffered.code(), "UPSTREAM_BODY_TOO_LARGE", "{buffered}");

    // The stream is not bounded by it: status and headers first, then every byte.
    let mut stream = client.download_product_image_stream(&input).await.unwrap();
    assert_eq!(stream.status(), 200);
    assert_eq!(stream.content_type(), Some("image/png"));
    assert_eq!(stream.content_length(), Some(15 << 20));
    let mut received = Vec::with_capacity(image.len());
    let mut chunks = 0;
    while let Some(chunk) = stream.chunk().await {
        received.extend_from_slice(&chunk.unwrap());
        chunks += 1;
    }
    assert!(chunks > 1, "the body came in one piece: it was buffered");
    assert!(
        received == image,
        "the streamed bytes differ from the served ones"
    );
    assert_eq!(server.requests()[2].path(), "/products/7/image");

    // Saved to a file.
    let path = std::env::temp_dir().join(format!("toolwright-download-{}", std::process::id()));
    let stream = client.download_product_image_stream(&input).await.unwrap();
    assert_eq!(stream.save(&path).await.unwrap(), image.len() as u64);
    assert!(std::fs::read(&path).unwrap() == image);
    std::fs::remove_file(&path).unwrap();

    // The executor's stream limit, when the service sets one.
    let limited = builder(&server.url())
        .max_stream_bytes(1 << 20)
        .build()
        .unwrap();
    let stream = shop::Client::new(limited)
        .download_product_image_stream(&input)
        .await
        .unwrap();
    let error = stream.write_to(&mut tokio::io::sink()).await.unwrap_err();
    assert_eq!(error.code(), "UPSTREAM_BODY_TOO_LARGE", "{error}");
    assert!(error.to_string().contains("1048576"), "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_small_binary_answer_is_bytes_not_base64() {
    let server = Server::start(|_| Response {
        status: 200,
        content_type: "image/png".into(),
        body: vec![0x89, b'P', b'N', b'G', 0, 0xff],
        headers: Vec::new(),
    });
    let executor = builder(&server.url()).build().unwrap();
    let bytes: Bytes = shop::Client::new(executor.clone())
        .download_product_image(&shop::DownloadProductImageInput::new(7))
        .await
        .unwrap();
    assert_eq!(&bytes[..], [0x89, b'P', b'N', b'G', 0, 0xff]);
    // By name, JSON has no bytes: base64 text.
    let value = executor
        .call("downloadProductImage", json!({"productId": 7}))
        .await
        .unwrap();
    assert_eq!(value, json!({"result": "iVBORwD/"}));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uploads_from_bytes_a_file_and_a_stream_send_what_the_base64_path_sends() {
    let server = Server::start(|_| Response::text(204, ""));
    let executor = builder(&server.url()).build().unwrap();
    let client = shop::Client::new(executor.clone());
    let manual = noise(300_000);
    let path = std::env::temp_dir().join(format!("toolwright-upload-{}", std::process::id()));
    std::fs::write(&path, &manual).unwrap();

    // By name: base64 in the JSON arguments.
    executor
        .call(
            "replaceProductManual",
            json!({"productId": 3, "body": base64(&manual)}),
        )
        .await
        .unwrap();
    // Typed, the body a `Bytes` field.
    let input = shop::ReplaceProductManualInput::new(3, Bytes::from(manual.clone()));
    client.replace_product_manual(&input).await.unwrap();
    // Typed, the body from bytes, a file and a stream of chunks (the input's own body
    // field is not sent).
    let head = shop::ReplaceProductManualInput::new(3, Bytes::new());
    client
        .replace_product_manual_upload(&head, Upload::bytes(manual.clone()))
        .await
        .unwrap();
    client
        .replace_product_manual_upload(&head, Upload::file(&path).await.unwrap())
        .await
        .unwrap();
    let chunks: Vec<Result<Bytes, std::io::Error>> = manual
        .chunks(7_000)
        .map(|c| Ok(Bytes::copy_from_slice(c)))
        .collect();
    client
        .replace_product_manual_upload(&head, Upload::stream(Iter(chunks.into_iter()), None))
        .await
        .unwrap();
    std::fs::remove_file(&path).unwrap();

    let sent = server.requests();
    assert_eq!(sent.len(), 5);
    for (i, request) in sent.iter().enumerate() {
        assert_eq!(request.method, "PUT", "request {i}");
        assert_eq!(request.path(), "/products/3/manual", "request {i}");
        assert_eq!(
            request.header("content-type"),
            Some("application/pdf"),
            "request {i}"
        );
        assert!(
            request.body == manual,
            "request {i}: the bytes on the server differ"
        );
    }
    // A file's length is known: `Content-Length`; a stream's is not: chunked.
    assert_eq!(sent[3].header("content-length"), Some("300000"));
    assert_eq!(sent[4].header("transfer-encoding"), Some("chunked"));
    assert_eq!(sent[4].header("content-length"), None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_multipart_file_part_is_the_base64_paths_part_with_its_name_and_type() {
    let server = Server::start(|_| Response::json(200, &json!({"url": "https://x/1.png"})));
    let executor = builder(&server.url()).build().unwrap();
    let image = noise(5_000);
    executor
        .call(
            "uploadProductImage",
            json!({"productId": 1, "file": base64(&image), "caption": "c"}),
        )
        .await
        .unwrap();
    let mut input = shop::UploadProductImageInput::new(1, Bytes::from(image.clone()).into());
    input.caption = Some("c".into());
    let client = shop::Client::new(executor.clone());
    client.upload_product_image(&input).await.unwrap();
    // A file name and media type for the part: typed, and by name as a data URL.
    input.file = FilePart::new(image.clone())
        .filename("front \"1\".png")
        .media_type("image/png");
    client.upload_product_image(&input).await.unwrap();
    executor
        .call(
            "uploadProductImage",
            json!({"productId": 1, "file": format!("data:image/png;filename=front%20%221%22.png;base64,{}", base64(&image))}),
        )
        .await
        .unwrap();
    let sent = server.requests();
    for named in &sent[2..] {
        let body = String::from_utf8_lossy(&named.body);
        assert!(
            body.contains(
                "name=\"file\"; filename=\"front _1_.png\"\r\nContent-Type: image/png\r\n"
            ),
            "{body:.300}"
        );
        assert!(part(&named.body, &boundary(named)) == image);
    }
    let body = String::from_utf8_lossy(&sent[1].body);
    assert!(
        body.contains("filename=\"file\"\r\nContent-Type: application/octet-stream"),
        "{body:.300}"
    );
    assert!(part(&sent[0].body, &boundary(&sent[0])) == image);
    assert!(part(&sent[1].body, &boundary(&sent[1])) == image);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_one_shot_stream_is_never_retried_and_a_file_is() {
    // 503 first, then 204: PUT is idempotent, so a replayable body is sent again.
    let calls = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let seen = calls.clone();
    let server = Server::start(move |_| {
        if seen
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst)
            .is_multiple_of(2)
        {
            Response::text(503, "busy").header("retry-after", "0")
        } else {
            Response::text(204, "")
        }
    });
    let executor = builder(&server.url()).build().unwrap();
    let client = shop::Client::new(executor);
    let head = shop::ReplaceProductManualInput::new(3, Bytes::new());
    client
        .replace_product_manual_upload(&head, Upload::bytes(&b"replayable"[..]))
        .await
        .unwrap();
    assert_eq!(server.take_requests().len(), 2);
    let once = vec![Ok::<_, std::io::Error>(Bytes::from_static(b"once"))];
    let error = client
        .replace_product_manual_upload(&head, Upload::stream(Iter(once.into_iter()), Some(4)))
        .await
        .unwrap_err();
    assert_eq!(error.code(), "UPSTREAM_UNAVAILABLE", "{error}");
    assert!(error.to_string().contains("one-shot stream"), "{error}");
    assert_eq!(server.take_requests().len(), 1);
}

/// One HTTP/1.1 request read off `socket`: its head (lower-cased header names).
async fn read_head(socket: &mut BufReader<TcpStream>) -> Vec<(String, String)> {
    let mut headers = Vec::new();
    let mut line = String::new();
    socket.read_line(&mut line).await.unwrap();
    loop {
        line.clear();
        if socket.read_line(&mut line).await.unwrap() == 0 || line.trim().is_empty() {
            return headers;
        }
        if let Some((n, v)) = line.split_once(':') {
            headers.push((n.trim().to_ascii_lowercase(), v.trim().to_owned()));
        }
    }
}

/// A chunk of a chunked body.
fn chunk(data: &str) -> String {
    format!("{:x}\r\n{data}\r\n", data.len())
}

const STREAM_HEAD: &str =
    "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_sent_events_resume_after_a_dropped_connection() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let server = tokio::spawn(async move {
        let mut asked = Vec::new();
        // The first connection: a comment, a retry, two events (one with data on two
        // lines, JSON split across them, an id), a keep-alive, then the connection
        // drops mid-stream (no last chunk).
        let (socket, _) = listener.accept().await.unwrap();
        let mut socket = BufReader::new(socket);
        asked.push(read_head(&mut socket).await);
        let first = [
            ": the stream starts\n\nretry: 50\n",
            "id: 1\nevent: status\ndata: {\"orderId\": \"a\",\ndata:  \"status\": \"paid\"}\n\n",
            ":keep-alive\n\n",
            "data: {\"orderId\": \"b\", \"status\": \"pending\"}\r\nid: 2\r\n\r\n",
            "data: {\"orderId\": \"lost\", \"sta",
        ];
        socket.write_all(STREAM_HEAD.as_bytes()).await.unwrap();
        for part in first {
            socket.write_all(chunk(part).as_bytes()).await.unwrap();
            socket.flush().await.unwrap();
        }
        drop(socket);
        // The reconnection, with the last id: the rest, and a proper end.
        let (socket, _) = listener.accept().await.unwrap();
        let mut socket = BufReader::new(socket);
        asked.push(read_head(&mut socket).await);
        socket.write_all(STREAM_HEAD.as_bytes()).await.unwrap();
        let rest = "id: 3\ndata: {\"orderId\": \"c\", \"status\": \"shipped\"}\n\n";
        socket.write_all(chunk(rest).as_bytes()).await.unwrap();
        socket.write_all(b"0\r\n\r\n").await.unwrap();
        socket.flush().await.unwrap();
        asked
    });
    let executor = builder(&url).build().unwrap();
    let mut events = shop::Client::new(executor)
        .watch_orders(&shop::WatchOrdersInput::default())
        .await
        .unwrap()
        .reconnect(2);
    let mut seen = Vec::new();
    let started = std::time::Instant::now();
    while let Some(event) = events.next_event().await {
        seen.push(event.unwrap());
    }
    let orders: Vec<(&str, &str, Option<&str>)> = seen
        .iter()
        .map(|e| (e.event.as_str(), e.data.order_id.as_str(), e.id.as_deref()))
        .collect();
    assert_eq!(
        orders,
        [
            ("status", "a", Some("1")),
            ("message", "b", Some("2")),
            ("message", "c", Some("3"))
        ]
    );
    assert!(matches!(seen[0].data.status, shop::OrderStatus::Paid));
    // `retry` came in the first event's block; the others set none.
    assert_eq!(seen[0].retry, Some(Duration::from_millis(50)));
    assert_eq!(seen[1].retry, None);
    // The server's `retry: 50` was the wait before reconnecting.
    assert!(started.elapsed() >= Duration::from_millis(50));
    let asked = server.await.unwrap();
    let header =
        |h: &[(String, String)], n: &str| h.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
    assert_eq!(header(&asked[0], "last-event-id"), None);
    assert_eq!(header(&asked[1], "last-event-id").as_deref(), Some("2"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_thousand_json_lines_are_decoded_as_they_arrive() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let (first_seen, wait_first) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(async move {
        let (socket, _) = listener.accept().await.unwrap();
        let mut socket = BufReader::new(socket);
        read_head(&mut socket).await;
        socket
            .write_all(b"HTTP/1.1 200 OK\r\ncontent-type: application/x-ndjson\r\ntransfer-encoding: chunked\r\n\r\n")
            .await
            .unwrap();
        let line = |i: usize| format!("{{\"orderId\": \"o{i}\", \"total\": {i}.5}}\n");
        let first: String = (0..100).map(line).collect();
        socket.write_all(chunk(&first).as_bytes()).await.unwrap();
        socket.flush().await.unwrap();
        // The rest only once the client has decoded an item: it does not wait for
        // the whole body.
        wait_first.await.unwrap();
        for start in (100..10_000).step_by(700) {
            let part: String = (start..(start + 700).min(10_000)).map(line).collect();
            socket.write_all(chunk(&part).as_bytes()).await.unwrap();
        }
        socket.write_all(b"0\r\n\r\n").await.unwrap();
        socket.flush().await.unwrap();
        let mut rest = Vec::new();
        let _ = socket.read_to_end(&mut rest).await;
    });
    let executor = builder(&url).build().unwrap();
    let mut lines = shop::Client::new(executor)
        .export_orders(&shop::ExportOrdersInput::default())
        .await
        .unwrap();
    // Bounded: a client that waited for the whole body would wait forever here.
    let first = tokio::time::timeout(Duration::from_secs(10), lines.next_item())
        .await
        .expect("the first line decoded before the body ended")
        .unwrap()
        .unwrap();
    assert_eq!(first.order_id, "o0");
    first_seen.send(()).unwrap();
    let mut count = 1;
    let mut total = first.total.unwrap();
    while let Some(item) = lines.next_item().await {
        let item = item.unwrap();
        assert_eq!(item.order_id, format!("o{count}"));
        total += item.total.unwrap();
        count += 1;
    }
    assert_eq!(count, 10_000);
    assert_eq!(total, (0..10_000).map(|i| i as f64 + 0.5).sum::<f64>());
    server.await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn by_name_calls_collect_a_stream_within_their_budget() {
    // A finite stream: every event, `complete`.
    let server = Server::start(|_| {
        Response {
        status: 200,
        content_type: "text/event-stream".into(),
        body: b"data: {\"orderId\": \"a\", \"status\": \"paid\"}\nid: 9\n\n: ping\n\ndata: not json\n\n"
            .to_vec(),
        headers: Vec::new(),
    }
    });
    let executor = builder(&server.url()).build().unwrap();
    let value = executor.call("watchOrders", json!({})).await.unwrap();
    // Data that is not the described object is kept as it came, and named.
    assert_eq!(
        value,
        json!({"events": [
            {"event": "message", "data": {"orderId": "a", "status": "paid"}, "id": "9"},
            {"event": "message", "data": "not json", "id": "9"},
        ], "complete": true, "invalid": [
            {"at": "events[1]", "error": "does not fit the item schema: expected an object, found \"not json\""},
        ]})
    );
    // The catalog's output schema says so.
    let schema = executor
        .catalog()
        .get("watchOrders")
        .unwrap()
        .output_schema
        .clone();
    assert!(schema.unwrap().contains("\"complete\""));

    // A stream that never ends: what arrived before the call's time ran out.
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        let (socket, _) = listener.accept().await.unwrap();
        let mut socket = BufReader::new(socket);
        read_head(&mut socket).await;
        socket.write_all(STREAM_HEAD.as_bytes()).await.unwrap();
        for i in 0.. {
            let event = format!("data: {{\"orderId\": \"{i}\", \"status\": \"paid\"}}\n\n");
            if socket.write_all(chunk(&event).as_bytes()).await.is_err() {
                return;
            }
            socket.flush().await.unwrap();
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    });
    let executor = builder(&url).build().unwrap();
    let value = executor
        .with_timeout(Duration::from_millis(400))
        .call("watchOrders", json!({}))
        .await
        .unwrap();
    assert_eq!(value["complete"], false, "{value}");
    let events = value["events"].as_array().unwrap();
    assert!(events.len() >= 3, "{value}");
    assert!(
        value["cut"].as_str().unwrap().contains("time ran out"),
        "{value}"
    );

    // JSON lines by name.
    let server = Server::start(|_| Response {
        status: 200,
        content_type: "application/x-ndjson".into(),
        body: b"{\"orderId\": \"x\"}\n{\"orderId\": \"y\", \"total\": 2}\n".to_vec(),
        headers: Vec::new(),
    });
    let executor = builder(&server.url()).build().unwrap();
    let value = executor.call("exportOrders", json!({})).await.unwrap();
    assert_eq!(
        value,
        json!({"items": [{"orderId": "x"}, {"orderId": "y", "total": 2}], "complete": true})
    );
}

/// Issue #58 (F05): a collected stream is bounded by what its values take in memory
/// and by their number, not by wire bytes: 50,000 empty events are 0.35 MB on the
/// wire (1.5 M of them fit the 10 MB budget and took 2.3 GB) but are cut at 10,000,
/// and a few large ones by the memory budget.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_collected_stream_is_cut_by_count_and_memory_with_a_note() {
    let server = Server::start(|_| Response {
        status: 200,
        content_type: "text/event-stream".into(),
        body: "data: \n\n".repeat(50_000).into_bytes(),
        headers: Vec::new(),
    });
    let executor = builder(&server.url()).build().unwrap();
    let value = executor.call("watchOrders", json!({})).await.unwrap();
    assert_eq!(value["complete"], false, "{}", value["cut"]);
    assert_eq!(value["events"].as_array().unwrap().len(), 10_000);
    assert!(
        value["cut"]
            .as_str()
            .unwrap()
            .starts_with("the events passed the count limit: cut at 10000 events"),
        "{}",
        value["cut"]
    );

    // Lines of 100 small objects each: about 6 KB of memory per line for 1.2 KB of
    // wire, so a 200 KB budget keeps a few dozen.
    let line = format!("[{}]\n", vec!["{\"a\":1}"; 100].join(","));
    let server = Server::start(move |_| Response {
        status: 200,
        content_type: "application/x-ndjson".into(),
        body: line.repeat(1000).into_bytes(),
        headers: Vec::new(),
    });
    let executor = builder(&server.url())
        .max_response_bytes(200_000)
        .build()
        .unwrap();
    let value = executor.call("exportOrders", json!({})).await.unwrap();
    let kept = value["items"].as_array().unwrap().len();
    assert!((10..100).contains(&kept), "{kept}");
    assert!(
        value["cut"].as_str().unwrap().starts_with(&format!(
            "the lines passed the call's memory budget: cut at {kept} items"
        )),
        "{}",
        value["cut"]
    );
}

/// A stream over an iterator (what `futures::stream::iter` does).
struct Iter<I>(I);

impl<I: Iterator + Unpin> futures_core::Stream for Iter<I> {
    type Item = I::Item;
    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<I::Item>> {
        std::task::Poll::Ready(self.0.next())
    }
}

fn base64(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// The file part's bytes in a multipart body, between its headers and the next
/// boundary.
fn part(body: &[u8], boundary: &str) -> Vec<u8> {
    let start = find(body, b"name=\"file\"").unwrap();
    let from = start + find(&body[start..], b"\r\n\r\n").unwrap() + 4;
    let to = from + find(&body[from..], format!("\r\n--{boundary}").as_bytes()).unwrap();
    body[from..to].to_vec()
}

fn boundary(request: &toolwright_loopback::Request) -> String {
    request
        .header("content-type")
        .unwrap()
        .split("boundary=")
        .nth(1)
        .unwrap()
        .to_owned()
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}
