//! MCP over stdio: one JSON-RPC message per line on stdin, answers on stdout (nothing
//! else is ever written there), calls run concurrently, `notifications/cancelled`
//! aborts the one it names. The server's own requests to the client (elicitations)
//! go out on stdout too, and their answers are routed back to the call waiting.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde_json::Value;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;
use tokio::task::JoinSet;

use super::{MAX_MESSAGE, Peer, Server, codes, error};

impl Server {
    /// Serves on this process's stdin and stdout until stdin closes, then waits for the
    /// calls still running.
    ///
    /// # Errors
    /// Reading stdin or writing stdout failed.
    pub async fn serve_stdio(self) -> std::io::Result<()> {
        // The client at the other end of stdio is the user's own program: its answer
        // to a confirmation is the user's.
        self.client_approvals(true)
            .serve(tokio::io::stdin(), tokio::io::stdout())
            .await
    }

    /// Serves newline-delimited JSON-RPC on any reader and writer (stdio, a pipe, a
    /// socket, a test's in-memory duplex).
    ///
    /// # Errors
    /// Reading or writing failed.
    pub async fn serve<R, W>(self, input: R, output: W) -> std::io::Result<()>
    where
        R: AsyncRead + Unpin,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        // Lines to write: answers (already JSON text) and notifications.
        let (tx, mut rx) = mpsc::unbounded_channel::<String>();
        // A replaced catalog becomes `notifications/tools/list_changed`.
        let forwarder = self.changes().map(|mut changes| {
            let tx = tx.clone();
            tokio::spawn(async move {
                while changes.changed().await.is_ok() {
                    let note = r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#
                        .to_owned();
                    if tx.send(note).is_err() {
                        break;
                    }
                }
            })
        });
        let writer = tokio::spawn(async move {
            let mut output = output;
            while let Some(mut line) = rx.recv().await {
                line.push('\n');
                output.write_all(line.as_bytes()).await?;
                output.flush().await?;
            }
            Ok::<(), std::io::Error>(())
        });
        let peer = Peer::new(tx.clone());
        let in_flight: Arc<Mutex<HashMap<String, tokio::task::AbortHandle>>> = Arc::default();
        let mut tasks = JoinSet::new();
        let mut input = BufReader::new(input);
        let mut line = Vec::new();
        while let Some(read) = next_line(&mut input, &mut line, MAX_MESSAGE).await? {
            // A line that cannot be a message is answered as one that does not parse,
            // and the session goes on: one bad line must not end it.
            let refused = match read {
                Line::TooLong(bytes) => Some(format!(
                    "a message of {bytes} bytes; at most {MAX_MESSAGE} are read"
                )),
                Line::Read => match std::str::from_utf8(&line) {
                    Err(e) => Some(format!(
                        "the line is not UTF-8 (invalid byte at {})",
                        e.valid_up_to()
                    )),
                    Ok(text) if text.trim().is_empty() => continue,
                    Ok(_) => None,
                },
            };
            if let Some(reason) = refused {
                let _ = tx.send(error(Value::Null, codes::PARSE_ERROR, &reason).to_string());
                continue;
            }
            let message: Value = match serde_json::from_slice(&line) {
                Ok(m) => m,
                Err(e) => {
                    let _ = tx.send(
                        error(
                            Value::Null,
                            codes::PARSE_ERROR,
                            &format!("invalid JSON: {e}"),
                        )
                        .to_string(),
                    );
                    continue;
                }
            };
            if peer.answered(&message) {
                continue;
            }
            if message.get("method").and_then(Value::as_str) == Some("notifications/cancelled") {
                let target = message.pointer("/params/requestId").map(Value::to_string);
                if let Some(handle) = target.and_then(|id| lock(&in_flight).remove(&id)) {
                    handle.abort();
                }
                continue;
            }
            let key = message.get("id").map(Value::to_string);
            let (server, tx, registry) = (self.clone(), tx.clone(), Arc::clone(&in_flight));
            let peer = peer.clone();
            let task_key = key.clone();
            let handle = tasks.spawn(async move {
                let answer = server
                    .respond_linked(message, Some(tx.clone()), Some(peer))
                    .await;
                if let Some(key) = task_key {
                    lock(&registry).remove(&key);
                }
                if let Some(answer) = answer {
                    let _ = tx.send(answer);
                }
            });
            if let Some(key) = key {
                lock(&in_flight).insert(key, handle);
            }
            // Reap finished calls so the set does not grow with the session.
            while tasks.try_join_next().is_some() {}
        }
        while tasks.join_next().await.is_some() {}
        if let Some(forwarder) = forwarder {
            forwarder.abort();
            let _ = forwarder.await;
        }
        // The peer holds a sender too: the writer ends when every one is gone.
        drop(peer);
        drop(tx);
        writer.await.unwrap_or(Ok(()))
    }
}

/// What [`next_line`] read.
enum Line {
    /// A whole line, in the buffer without its newline.
    Read,
    /// A line longer than the cap (this many bytes), read past and dropped.
    TooLong(usize),
}

/// Reads the next line into `line` (cleared first), holding at most `max` bytes of
/// it: the rest of a longer line is read and dropped, so memory stays bounded however
/// long a line is. `None` at the end of input.
async fn next_line<R: AsyncBufRead + Unpin>(
    input: &mut R,
    line: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<Option<Line>> {
    line.clear();
    let mut seen = 0usize;
    loop {
        let available = input.fill_buf().await?;
        if available.is_empty() {
            // End of input: a last line without its newline still counts.
            return Ok((seen > 0).then(|| outcome(seen, max)));
        }
        let newline = available.iter().position(|&b| b == b'\n');
        let chunk = &available[..newline.unwrap_or(available.len())];
        seen = seen.saturating_add(chunk.len());
        if seen <= max {
            line.extend_from_slice(chunk);
        } else {
            line.clear();
        }
        let used = newline.map_or(chunk.len(), |at| at + 1);
        input.consume(used);
        if newline.is_some() {
            // An empty line (seen 0) is still a line.
            return Ok(Some(outcome(seen, max)));
        }
    }
}

fn outcome(seen: usize, max: usize) -> Line {
    if seen > max {
        Line::TooLong(seen)
    } else {
        Line::Read
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::catalog::Catalog;
    use crate::executor::Executor;

    async fn exchange(lines: &str) -> Vec<Value> {
        exchange_bytes(lines.as_bytes()).await
    }

    async fn exchange_bytes(lines: &[u8]) -> Vec<Value> {
        let executor = Executor::builder(Catalog::empty()).build().unwrap();
        let (client, server_side) = tokio::io::duplex(1 << 16);
        let (mut out_read, out_write) = tokio::io::duplex(1 << 16);
        let server = Server::new(executor);
        let input = lines.to_owned();
        let writer = tokio::spawn(async move {
            let mut client = client;
            client.write_all(&input).await.unwrap();
        });
        server.serve(server_side, out_write).await.unwrap();
        writer.await.unwrap();
        let mut text = String::new();
        tokio::io::AsyncReadExt::read_to_string(&mut out_read, &mut text)
            .await
            .unwrap();
        text.lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    #[tokio::test]
    async fn json_rpc_errors_have_their_codes() {
        let answers = exchange(concat!(
            "{not json\n",
            "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]\n",
            "{\"id\":2,\"method\":\"ping\"}\n",
            "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"resources/list\"}\n",
            "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/list\",\"params\":{\"cursor\":\"bogus\"}}\n",
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n",
            "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}\n",
            "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"name\":\"nope\"}}\n",
        ))
        .await;
        let code = |id: Value| {
            answers
                .iter()
                .find(|a| a["id"] == id)
                .map(|a| a["error"]["code"].clone())
        };
        assert_eq!(answers.len(), 7, "{answers:?}");
        assert!(answers.iter().any(|a| a["error"]["code"] == json!(-32700)));
        assert!(
            answers
                .iter()
                .any(|a| a["error"]["code"] == json!(-32600) && a["id"].is_null())
        );
        assert_eq!(code(json!(2)), Some(json!(-32600)));
        assert_eq!(code(json!(3)), Some(json!(-32601)));
        assert_eq!(code(json!(4)), Some(json!(-32602)));
        assert_eq!(code(json!(6)), Some(json!(-32602)));
        let ping = answers.iter().find(|a| a["id"] == json!(5)).unwrap();
        assert_eq!(ping["result"], json!({}));
    }

    #[tokio::test]
    async fn bad_lines_are_answered_and_the_session_goes_on() {
        let mut input = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n".to_vec();
        input.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":\"\xff\xfe\"}\n");
        input.extend(std::iter::repeat_n(b' ', MAX_MESSAGE + 10));
        input.extend_from_slice(b"\r\n\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}");
        let answers = exchange_bytes(&input).await;
        assert_eq!(answers.len(), 4, "{answers:?}");
        let errors: Vec<&str> = answers
            .iter()
            .filter(|a| a["error"]["code"] == json!(-32700))
            .map(|a| a["error"]["message"].as_str().unwrap())
            .collect();
        assert_eq!(errors.len(), 2, "{answers:?}");
        assert!(errors.iter().any(|m| m.contains("not UTF-8")), "{errors:?}");
        assert!(errors.iter().any(|m| m.contains("at most")), "{errors:?}");
        for id in [1, 2] {
            assert!(
                answers
                    .iter()
                    .any(|a| a["id"] == json!(id) && a["result"] == json!({}))
            );
        }
    }

    #[tokio::test]
    async fn the_stateless_revision_needs_no_initialize() {
        let answers = exchange(concat!(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{}}}}\n",
            "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{}}}}\n",
            "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\",\"params\":{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2099-01-01\"}}}\n",
        ))
        .await;
        let by_id = |id: i64| {
            answers
                .iter()
                .find(|a| a["id"] == json!(id))
                .unwrap()
                .clone()
        };
        let discover = by_id(1)["result"].clone();
        assert_eq!(
            discover["supportedVersions"],
            json!(["2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"])
        );
        assert_eq!(discover["resultType"], "complete");
        assert_eq!(
            discover["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
            "toolwright"
        );
        let list = by_id(2)["result"].clone();
        assert_eq!(list["resultType"], "complete");
        assert_eq!(list["cacheScope"], "public");
        assert!(list["ttlMs"].as_u64().unwrap() > 0);
        let refused = by_id(3)["error"].clone();
        assert_eq!(refused["code"], json!(-32022));
        assert_eq!(refused["data"]["supported"][3], "2026-07-28");
    }

    #[tokio::test]
    async fn initialize_negotiates_a_revision() {
        let answers = exchange(concat!(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\"}}\n",
            "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2024-11-05\"}}\n",
            "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-03-26\"}}\n",
        ))
        .await;
        let version = |id: i64| {
            answers.iter().find(|a| a["id"] == json!(id)).unwrap()["result"]["protocolVersion"]
                .clone()
        };
        assert_eq!(version(1), json!("2025-06-18"));
        assert_eq!(version(2), json!("2025-11-25"));
        // Clients still speaking 2025-03-26 get it.
        assert_eq!(version(3), json!("2025-03-26"));
        let first = answers.iter().find(|a| a["id"] == json!(1)).unwrap();
        assert_eq!(
            first["result"]["capabilities"],
            json!({"tools": {"listChanged": false}})
        );
    }
}
