//! Memory of a streamed download: a loopback server sends SIZE bytes (1 GiB by default,
//! generated as it goes, never held), the generated `shop` client reads them through
//! `download_product_image_stream` into a sink, and the process's peak resident set
//! (`VmHWM`, server included) is printed with the throughput. For comparison, the same
//! size read through the buffered by-name path is refused at the 10 MB limit.
//!
//! Run: `benches/streams.sh` (release build, several runs), or
//! `cargo run --release -p toolwright-e2e --example stream_download -- [SIZE_MB]`.

use std::time::Instant;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;
use toolwright::{CredentialSource, Executor};
use toolwright_e2e::openapi::{catalog, shop};

/// The server's writes: one 64 KiB block, sent again and again.
const BLOCK: usize = 64 * 1024;

fn peak_rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let megabytes: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1024);
    let size = megabytes << 20;
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        let block: Vec<u8> = (0..BLOCK).map(|i| (i * 7 % 251) as u8).collect();
        loop {
            let Ok((socket, _)) = listener.accept().await else {
                return;
            };
            let block = block.clone();
            tokio::spawn(async move {
                let mut socket = BufReader::new(socket);
                let mut line = String::new();
                while socket.read_line(&mut line).await.unwrap_or(0) > 2 {
                    line.clear();
                }
                let head = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: image/png\r\ncontent-length: {size}\r\n\r\n"
                );
                if socket.write_all(head.as_bytes()).await.is_err() {
                    return;
                }
                let mut left = size;
                while left > 0 {
                    let n = left.min(BLOCK as u64) as usize;
                    if socket.write_all(&block[..n]).await.is_err() {
                        return;
                    }
                    left -= n as u64;
                }
                let _ = socket.flush().await;
            });
        }
    });
    let executor = Executor::builder(catalog())
        .base_url("shop", &url)
        .credentials(CredentialSource::from_fn(|_| Some("token".to_owned())))
        .build()
        .unwrap();
    let before = peak_rss_kib();
    let started = Instant::now();
    let stream = shop::Client::new(executor.clone())
        .download_product_image_stream(&shop::DownloadProductImageInput::new(1))
        .await
        .unwrap();
    let written = stream.write_to(&mut tokio::io::sink()).await.unwrap();
    let elapsed = started.elapsed();
    assert_eq!(written, size, "every byte arrived");
    let refused = executor
        .call("downloadProductImage", serde_json::json!({"productId": 1}))
        .await
        .unwrap_err();
    println!(
        "streamed {} MiB in {:.2} s ({:.0} MiB/s); peak RSS {:.1} MiB (before the download {:.1} MiB); by name: {}",
        megabytes,
        elapsed.as_secs_f64(),
        megabytes as f64 / elapsed.as_secs_f64(),
        peak_rss_kib() as f64 / 1024.0,
        before as f64 / 1024.0,
        refused.code()
    );
}
