//! A response body read chunk by chunk.

use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use futures_core::Stream;
use serde::de::DeserializeOwned;

use super::{Chunks, Events, JsonLines, next};
use crate::error::{Error, TransportError, TransportKind};

/// A response whose body is read as it arrives: its status and headers first, then
/// its chunks, as a [`Stream`] of [`Bytes`].
///
/// Memory stays flat however long the body is: each chunk is handed over and dropped.
/// Reading stops with an error when a chunk does not arrive within the idle timeout
/// or the body passes the stream's byte limit (both set on the executor:
/// `ExecutorBuilder::idle_timeout`, `ExecutorBuilder::max_stream_bytes`).
pub struct ByteStream {
    status: u16,
    headers: http::HeaderMap,
    chunks: Chunks,
    /// The tool, for errors.
    tool: String,
    limit: Option<u64>,
    idle: Option<Duration>,
    /// The running idle timer (reset at each chunk).
    timer: Option<Pin<Box<tokio::time::Sleep>>>,
    received: u64,
    done: bool,
}

impl std::fmt::Debug for ByteStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ByteStream")
            .field("tool", &self.tool)
            .field("status", &self.status)
            .field("received", &self.received)
            .finish_non_exhaustive()
    }
}

impl ByteStream {
    /// The response `response` of tool `tool`, its body read with the given limits.
    pub(crate) fn new(
        tool: &str,
        response: http::Response<Chunks>,
        limit: Option<u64>,
        idle: Option<Duration>,
    ) -> ByteStream {
        let (parts, chunks) = response.into_parts();
        ByteStream {
            status: parts.status.as_u16(),
            headers: parts.headers,
            chunks,
            tool: tool.to_owned(),
            limit,
            idle,
            timer: None,
            received: 0,
            done: false,
        }
    }

    /// A body already in memory, as one chunk (what a transport that cannot stream
    /// hands over).
    pub fn from_bytes(status: u16, headers: http::HeaderMap, body: Bytes) -> ByteStream {
        let once = once(body);
        let mut response = http::Response::new(once);
        *response.status_mut() = http::StatusCode::from_u16(status).unwrap_or_default();
        *response.headers_mut() = headers;
        ByteStream::new("", response, None, None)
    }

    /// The HTTP status (a success: a failure is an [`Error::Status`] before any stream).
    pub fn status(&self) -> u16 {
        self.status
    }

    /// The response headers.
    pub fn headers(&self) -> &http::HeaderMap {
        &self.headers
    }

    /// The `Content-Type`, when the server sent one.
    pub fn content_type(&self) -> Option<&str> {
        self.headers.get(http::header::CONTENT_TYPE)?.to_str().ok()
    }

    /// The `Content-Length`, when the server sent one.
    pub fn content_length(&self) -> Option<u64> {
        self.headers
            .get(http::header::CONTENT_LENGTH)?
            .to_str()
            .ok()?
            .parse()
            .ok()
    }

    /// Bytes received so far.
    pub fn received(&self) -> u64 {
        self.received
    }

    /// The next chunk; `None` at the end of the body.
    pub async fn chunk(&mut self) -> Option<Result<Bytes, Error>> {
        next(self).await
    }

    /// Writes the whole body to `sink` (a file, a socket, `tokio::io::sink()`), chunk
    /// by chunk, and flushes it. Returns the number of bytes written.
    ///
    /// # Errors
    /// The body could not be read (see [`ByteStream`]), or `sink` failed.
    pub async fn write_to<W: tokio::io::AsyncWrite + Unpin>(
        mut self,
        sink: &mut W,
    ) -> Result<u64, Error> {
        use tokio::io::AsyncWriteExt as _;
        let mut written = 0;
        while let Some(chunk) = self.chunk().await {
            let chunk = chunk?;
            sink.write_all(&chunk).await.map_err(|e| self.io_error(e))?;
            written += chunk.len() as u64;
        }
        sink.flush().await.map_err(|e| self.io_error(e))?;
        Ok(written)
    }

    /// Writes the whole body to the file at `path` (created or truncated).
    ///
    /// # Errors
    /// As [`write_to`](ByteStream::write_to); or the file could not be created.
    pub async fn save(self, path: impl AsRef<std::path::Path>) -> Result<u64, Error> {
        let mut file = tokio::fs::File::create(path.as_ref())
            .await
            .map_err(|e| self.io_error(e))?;
        self.write_to(&mut file).await
    }

    /// The whole body in memory, up to `max_bytes` (a longer body is an error).
    ///
    /// # Errors
    /// The body could not be read, or it is longer than `max_bytes`.
    pub async fn collect(mut self, max_bytes: usize) -> Result<Bytes, Error> {
        let mut all = bytes::BytesMut::new();
        while let Some(chunk) = self.chunk().await {
            let chunk = chunk?;
            if all.len() + chunk.len() > max_bytes {
                return Err(self.too_large(max_bytes as u64));
            }
            all.extend_from_slice(&chunk);
        }
        Ok(all.freeze())
    }

    /// The body as server-sent events, their `data` as text.
    pub fn events(self) -> Events<String> {
        Events::new(self, super::sse::raw)
    }

    /// The body as server-sent events, each event's `data` decoded as JSON into `T`
    /// (a `data` of `[DONE]`, the end marker several model APIs send, ends the stream).
    pub fn json_events<T: DeserializeOwned + 'static>(self) -> Events<T> {
        Events::new(self, super::sse::json::<T>)
    }

    /// The body as JSON lines (`application/x-ndjson`, `application/jsonl`), each line
    /// decoded into `T` as it arrives.
    pub fn json_lines<T: DeserializeOwned>(self) -> JsonLines<T> {
        JsonLines::new(self)
    }

    pub(crate) fn tool(&self) -> &str {
        &self.tool
    }

    fn io_error(&self, e: std::io::Error) -> Error {
        Error::Transport(TransportError::with_source(
            format!("`{}`: writing the streamed body failed", self.tool),
            e,
        ))
    }

    fn too_large(&self, limit: u64) -> Error {
        Error::Transport(
            TransportError::new(format!(
                "`{}`: the streamed body is larger than the limit of {limit} bytes",
                self.tool
            ))
            .kind_of(TransportKind::BodyTooLarge),
        )
    }
}

impl Stream for ByteStream {
    type Item = Result<Bytes, Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = &mut *self;
        if this.done {
            return Poll::Ready(None);
        }
        match this.chunks.as_mut().poll_next(cx) {
            Poll::Ready(Some(Ok(chunk))) => {
                this.timer = None;
                this.received += chunk.len() as u64;
                if let Some(limit) = this.limit
                    && this.received > limit
                {
                    this.done = true;
                    return Poll::Ready(Some(Err(this.too_large(limit))));
                }
                Poll::Ready(Some(Ok(chunk)))
            }
            Poll::Ready(Some(Err(e))) => {
                this.done = true;
                Poll::Ready(Some(Err(Error::Transport(e))))
            }
            Poll::Ready(None) => {
                this.done = true;
                Poll::Ready(None)
            }
            Poll::Pending => {
                let Some(idle) = this.idle else {
                    return Poll::Pending;
                };
                let timer = this
                    .timer
                    .get_or_insert_with(|| Box::pin(tokio::time::sleep(idle)));
                if timer.as_mut().poll(cx).is_ready() {
                    this.done = true;
                    return Poll::Ready(Some(Err(Error::Transport(
                        TransportError::new(format!(
                            "`{}`: no data for {} ms while reading the streamed body (after {} bytes)",
                            this.tool,
                            idle.as_millis(),
                            this.received
                        ))
                        .kind_of(TransportKind::Timeout),
                    ))));
                }
                Poll::Pending
            }
        }
    }
}

use std::future::Future as _;

/// A stream of one chunk.
pub(crate) fn once(body: Bytes) -> Chunks {
    struct Once(Option<Bytes>);
    impl Stream for Once {
        type Item = Result<Bytes, TransportError>;
        fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Self::Item>> {
            Poll::Ready(self.0.take().filter(|b| !b.is_empty()).map(Ok))
        }
    }
    Box::pin(Once(Some(body)))
}
