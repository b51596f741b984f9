//! A request body that is not (only) in memory.

use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use futures_core::Stream;

use super::Chunks;
use crate::error::TransportError;

/// Size of the chunks a file is read in.
const FILE_CHUNK: usize = 64 * 1024;

/// A request body: bytes, a file, or a stream of chunks.
///
/// Bytes and files can be sent again, so a call with one is retried like any other
/// (the file is read again from its start); a stream is read once, so a call with one
/// is sent once whatever happens, and says so when it fails.
pub struct Upload {
    source: Source,
}

enum Source {
    Bytes(Bytes),
    File { path: PathBuf, len: u64 },
    Stream { chunks: Chunks, len: Option<u64> },
}

impl std::fmt::Debug for Upload {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.source {
            Source::Bytes(b) => write!(f, "Upload::bytes({} bytes)", b.len()),
            Source::File { path, len } => {
                write!(f, "Upload::file({}, {len} bytes)", path.display())
            }
            Source::Stream { len, .. } => write!(f, "Upload::stream(length {len:?})"),
        }
    }
}

impl Upload {
    /// Bytes in memory.
    pub fn bytes(bytes: impl Into<Bytes>) -> Upload {
        Upload {
            source: Source::Bytes(bytes.into()),
        }
    }

    /// The file at `path`, read in chunks as it is sent (its length, known now, is the
    /// request's `Content-Length`).
    ///
    /// # Errors
    /// The file's metadata cannot be read (it does not exist, is not a file...).
    pub async fn file(path: impl Into<PathBuf>) -> std::io::Result<Upload> {
        let path = path.into();
        let meta = tokio::fs::metadata(&path).await?;
        if !meta.is_file() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("{} is not a file", path.display()),
            ));
        }
        Ok(Upload {
            source: Source::File {
                path,
                len: meta.len(),
            },
        })
    }

    /// Chunks from `stream`, sent as they come: with `Content-Length: len` when the
    /// length is known, chunked otherwise. Read once: never retried.
    pub fn stream<S, E>(stream: S, len: Option<u64>) -> Upload
    where
        S: Stream<Item = Result<Bytes, E>> + Send + 'static,
        E: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        // In a mutex only to be `Sync` (as a request body must be): it is only ever
        // reached through `&mut`, which needs no lock.
        struct Mapped<S>(std::sync::Mutex<Pin<Box<S>>>);
        impl<S, E> Stream for Mapped<S>
        where
            S: Stream<Item = Result<Bytes, E>>,
            E: Into<Box<dyn std::error::Error + Send + Sync>>,
        {
            type Item = Result<Bytes, TransportError>;
            fn poll_next(
                mut self: Pin<&mut Self>,
                cx: &mut Context<'_>,
            ) -> Poll<Option<Self::Item>> {
                let inner = self
                    .0
                    .get_mut()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                inner.as_mut().poll_next(cx).map(|item| {
                    item.map(|r| {
                        r.map_err(|e| {
                            TransportError::new(format!("the upload's stream failed: {}", e.into()))
                        })
                    })
                })
            }
        }
        Upload {
            source: Source::Stream {
                chunks: Box::pin(Mapped(std::sync::Mutex::new(Box::pin(stream)))),
                len,
            },
        }
    }

    /// The body's length, when known.
    pub fn len(&self) -> Option<u64> {
        match &self.source {
            Source::Bytes(b) => Some(b.len() as u64),
            Source::File { len, .. } => Some(*len),
            Source::Stream { len, .. } => *len,
        }
    }

    /// Whether the body is empty (`false` when its length is unknown).
    pub fn is_empty(&self) -> bool {
        self.len() == Some(0)
    }

    /// Whether the body can be sent again (bytes and files can, streams cannot).
    pub fn is_replayable(&self) -> bool {
        !matches!(self.source, Source::Stream { .. })
    }

    /// Another handle on the same body, when it can be sent again.
    pub fn try_clone(&self) -> Option<Upload> {
        let source = match &self.source {
            Source::Bytes(b) => Source::Bytes(b.clone()),
            Source::File { path, len } => Source::File {
                path: path.clone(),
                len: *len,
            },
            Source::Stream { .. } => return None,
        };
        Some(Upload { source })
    }

    /// The bytes, when the body is in memory.
    pub fn as_bytes(&self) -> Option<&Bytes> {
        match &self.source {
            Source::Bytes(b) => Some(b),
            _ => None,
        }
    }

    /// The body's chunks, read as they are sent.
    pub fn into_chunks(self) -> Chunks {
        match self.source {
            Source::Bytes(b) => super::body::once(b),
            Source::Stream { chunks, .. } => chunks,
            Source::File { path, .. } => Box::pin(FileChunks {
                path,
                state: FileState::Closed,
            }),
        }
    }

    /// The whole body in memory (for transports that send bodies whole).
    ///
    /// # Errors
    /// The file or the stream could not be read.
    pub async fn into_bytes(self) -> Result<Bytes, TransportError> {
        if let Source::Bytes(b) = self.source {
            return Ok(b);
        }
        let mut all = bytes::BytesMut::with_capacity(self.len().unwrap_or(0).min(1 << 20) as usize);
        let mut chunks = self.into_chunks();
        while let Some(chunk) = super::next(&mut chunks).await {
            all.extend_from_slice(&chunk?);
        }
        Ok(all.freeze())
    }
}

impl From<Bytes> for Upload {
    fn from(bytes: Bytes) -> Upload {
        Upload::bytes(bytes)
    }
}

impl From<Vec<u8>> for Upload {
    fn from(bytes: Vec<u8>) -> Upload {
        Upload::bytes(bytes)
    }
}

impl From<&'static [u8]> for Upload {
    fn from(bytes: &'static [u8]) -> Upload {
        Upload::bytes(bytes)
    }
}

/// A file read chunk by chunk, opened at the first poll (so an upload that is sent
/// again reads it again from its start).
struct FileChunks {
    path: PathBuf,
    state: FileState,
}

type Read = Pin<Box<dyn Future<Output = std::io::Result<(tokio::fs::File, Bytes)>> + Send + Sync>>;

enum FileState {
    Closed,
    Opening(Pin<Box<dyn Future<Output = std::io::Result<tokio::fs::File>> + Send + Sync>>),
    Reading(Read),
    Done,
}

fn read_chunk(mut file: tokio::fs::File) -> Read {
    Box::pin(async move {
        use tokio::io::AsyncReadExt as _;
        let mut buf = bytes::BytesMut::with_capacity(FILE_CHUNK);
        file.read_buf(&mut buf).await?;
        Ok((file, buf.freeze()))
    })
}

impl Stream for FileChunks {
    type Item = Result<Bytes, TransportError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = &mut *self;
        let failed = |path: &PathBuf, e: std::io::Error| {
            TransportError::with_source(format!("reading the upload {} failed", path.display()), e)
        };
        loop {
            match &mut this.state {
                FileState::Closed => {
                    let path = this.path.clone();
                    this.state = FileState::Opening(Box::pin(tokio::fs::File::open(path)));
                }
                FileState::Opening(open) => match open.as_mut().poll(cx) {
                    Poll::Pending => return Poll::Pending,
                    Poll::Ready(Ok(file)) => this.state = FileState::Reading(read_chunk(file)),
                    Poll::Ready(Err(e)) => {
                        this.state = FileState::Done;
                        return Poll::Ready(Some(Err(failed(&this.path, e))));
                    }
                },
                FileState::Reading(read) => match read.as_mut().poll(cx) {
                    Poll::Pending => return Poll::Pending,
                    Poll::Ready(Ok((_, chunk))) if chunk.is_empty() => {
                        this.state = FileState::Done;
                        return Poll::Ready(None);
                    }
                    Poll::Ready(Ok((file, chunk))) => {
                        this.state = FileState::Reading(read_chunk(file));
                        return Poll::Ready(Some(Ok(chunk)));
                    }
                    Poll::Ready(Err(e)) => {
                        this.state = FileState::Done;
                        return Poll::Ready(Some(Err(failed(&this.path, e))));
                    }
                },
                FileState::Done => return Poll::Ready(None),
            }
        }
    }
}
