//! JSON lines (`application/x-ndjson`, `application/jsonl`): one JSON value per line,
//! decoded as its line completes.

use std::collections::VecDeque;
use std::marker::PhantomData;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::BytesMut;
use futures_core::Stream;
use serde::de::DeserializeOwned;

use super::ByteStream;
use crate::error::Error;

/// Longest line accepted (see the event stream's limit).
const MAX_LINE: usize = 16 << 20;

/// A JSON-lines body as a [`Stream`] of decoded items: only the line being received is
/// held in memory. Blank lines are skipped; a line that does not decode is an error
/// naming its number, and the stream goes on after it.
pub struct JsonLines<T> {
    body: ByteStream,
    pending: BytesMut,
    ready: VecDeque<Result<T, Error>>,
    line: u64,
    ended: bool,
    item: PhantomData<fn() -> T>,
}

// Never pinned in place (no field is projected): movable whatever `T` is.
impl<T> Unpin for JsonLines<T> {}

impl<T> std::fmt::Debug for JsonLines<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JsonLines")
            .field("body", &self.body)
            .field("line", &self.line)
            .finish_non_exhaustive()
    }
}

impl<T: DeserializeOwned> JsonLines<T> {
    pub(super) fn new(body: ByteStream) -> JsonLines<T> {
        JsonLines {
            body,
            pending: BytesMut::new(),
            ready: VecDeque::new(),
            line: 0,
            ended: false,
            item: PhantomData,
        }
    }

    /// The next item; `None` at the end of the body.
    pub async fn next_item(&mut self) -> Option<Result<T, Error>> {
        super::next(self).await
    }

    fn decode(&mut self, line: &[u8]) {
        self.line += 1;
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        let item = serde_json::from_slice(line).map_err(|e| Error::Decode {
            tool: self.body.tool().to_owned(),
            message: format!("JSON line {}: {e}", self.line),
        });
        self.ready.push_back(item);
    }
}

impl<T: DeserializeOwned> Stream for JsonLines<T> {
    type Item = Result<T, Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = &mut *self;
        loop {
            if let Some(item) = this.ready.pop_front() {
                return Poll::Ready(Some(item));
            }
            if this.ended {
                return Poll::Ready(None);
            }
            match Pin::new(&mut this.body).poll_next(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Some(Ok(chunk))) => {
                    let mut start = this.pending.len();
                    this.pending.extend_from_slice(&chunk);
                    while let Some(end) = this.pending[start..].iter().position(|b| *b == b'\n') {
                        let line = this.pending.split_to(start + end + 1);
                        this.decode(&line[..line.len() - 1]);
                        start = 0;
                    }
                    if this.pending.len() > MAX_LINE {
                        this.ended = true;
                        return Poll::Ready(Some(Err(Error::Decode {
                            tool: this.body.tool().to_owned(),
                            message: format!(
                                "JSON line {} is longer than {MAX_LINE} bytes",
                                this.line + 1
                            ),
                        })));
                    }
                }
                Poll::Ready(Some(Err(e))) => {
                    this.ended = true;
                    return Poll::Ready(Some(Err(e)));
                }
                Poll::Ready(None) => {
                    this.ended = true;
                    // The last line may end without a line break.
                    let rest = std::mem::take(&mut this.pending);
                    this.decode(&rest);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(chunks: &[&'static [u8]]) -> Vec<Result<serde_json::Value, String>> {
        let body = chunks.iter().fold(bytes::BytesMut::new(), |mut all, c| {
            all.extend_from_slice(c);
            all
        });
        let stream = ByteStream::from_bytes(200, http::HeaderMap::new(), body.freeze());
        let mut items = JsonLines::<serde_json::Value>::new(stream);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let mut out = Vec::new();
            while let Some(item) = items.next_item().await {
                out.push(item.map_err(|e| e.to_string()));
            }
            out
        })
    }

    #[test]
    fn lines_blank_lines_crlf_and_a_last_line_without_a_break() {
        let out = lines(&[b"{\"a\":1}\r\n\n[2]\n3"]);
        assert_eq!(out.len(), 3);
        assert_eq!(out[0].as_ref().unwrap(), &serde_json::json!({"a": 1}));
        assert_eq!(out[2].as_ref().unwrap(), &serde_json::json!(3));
        let out = lines(&[b"{}\n{oops\n{}\n"]);
        assert!(
            out[1].as_ref().unwrap_err().contains("JSON line 2"),
            "{out:?}"
        );
        assert!(out[2].is_ok());
    }
}
