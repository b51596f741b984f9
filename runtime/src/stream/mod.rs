//! Bodies that are not held whole in memory: a response read as it arrives
//! ([`ByteStream`]), read as server-sent events ([`Events`]) or as JSON lines
//! ([`JsonLines`]), and a request body read from a file or a stream ([`Upload`]).
//!
//! Typed clients hand these out for operations whose answer is a file, an event stream
//! or JSON lines (`<method>_stream`, `<method>_events`, `<method>_lines`) and take an
//! [`Upload`] for a binary request body (`<method>_upload`). A streamed answer is not
//! bounded by the call's `max_response_bytes` (it has its own limit, none by
//! default), and its total timeout covers only the wait for the response head: after
//! that, each chunk must arrive within the idle timeout.

pub(crate) mod body;
mod lines;
pub(crate) mod part;
pub(crate) mod sse;
mod upload;

pub use body::ByteStream;
pub use lines::JsonLines;
pub use part::FilePart;
pub use sse::{Event, Events};
pub use upload::Upload;

/// The chunks of a body as a transport hands them over.
pub type Chunks = std::pin::Pin<
    Box<
        dyn futures_core::Stream<Item = Result<bytes::Bytes, crate::error::TransportError>>
            + Send
            + Sync,
    >,
>;

/// Polls the next item of a stream held in a field (a small `StreamExt::next`).
pub(crate) fn next<S: futures_core::Stream + Unpin + ?Sized>(
    stream: &mut S,
) -> impl std::future::Future<Output = Option<S::Item>> + '_ {
    std::future::poll_fn(move |cx| std::pin::Pin::new(&mut *stream).poll_next(cx))
}
