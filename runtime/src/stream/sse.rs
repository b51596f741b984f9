//! Server-sent events (`text/event-stream`), parsed as the HTML living standard
//! says (§9.2.6): lines end with CRLF, LF or CR; a leading BOM is dropped; `:` starts
//! a comment (keep-alives); `event`, `data` (several lines joined with `\n`), `id`
//! (kept for the following events and for reconnecting; one with a NUL is ignored)
//! and `retry` (digits only) are the fields; a blank line dispatches the event, and
//! one with no data is dropped; an event the stream ends in the middle of is dropped.

use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::{Buf as _, BytesMut};
use futures_core::Stream;
use serde::de::DeserializeOwned;

use super::ByteStream;
use crate::error::Error;

/// Longest line accepted (a stream that sends more without a line break is broken
/// or hostile; it fails rather than growing the buffer without end).
const MAX_LINE: usize = 16 << 20;

/// Wait before reconnecting when the server gave no `retry` (the standard leaves it to
/// the client; browsers wait a few seconds).
const DEFAULT_RETRY: Duration = Duration::from_secs(3);

/// One server-sent event.
#[derive(Debug, Clone, PartialEq)]
pub struct Event<T> {
    /// The event type (`message` when the server named none).
    pub event: String,
    /// The data: its lines joined with `\n`, decoded.
    pub data: T,
    /// The last event id the stream set (it carries over to later events).
    pub id: Option<String>,
    /// The reconnection time the server asked for, when this event's block set one.
    pub retry: Option<Duration>,
}

/// What an event's data becomes: `Ok(None)` ends the stream.
type Decode<T> = fn(&str) -> Result<Option<T>, String>;

pub(super) fn raw(data: &str) -> Result<Option<String>, String> {
    Ok(Some(data.to_owned()))
}

pub(super) fn json<T: DeserializeOwned>(data: &str) -> Result<Option<T>, String> {
    if data.trim() == "[DONE]" {
        return Ok(None);
    }
    serde_json::from_str(data)
        .map(Some)
        .map_err(|e| format!("an event's data is not the JSON expected: {e}"))
}

/// Opens the stream again after a dropped connection, sending `Last-Event-ID` when
/// the stream had one.
pub(crate) type Reopen = Box<
    dyn Fn(Option<String>) -> Pin<Box<dyn Future<Output = Result<ByteStream, Error>> + Send>>
        + Send
        + Sync,
>;

/// A `text/event-stream` body as a [`Stream`] of [`Event`]s, decoded as they arrive.
///
/// With [`reconnect`](Events::reconnect) (and an executor behind it), a connection
/// that drops mid-stream is opened again after the server's `retry` time, with
/// `Last-Event-ID`, up to the given number of times; the stream's end is the end.
pub struct Events<T> {
    body: Option<ByteStream>,
    decode: Decode<T>,
    parser: Parser,
    ready: VecDeque<Result<Event<T>, Error>>,
    reopen: Option<Reopen>,
    reconnects_left: u32,
    state: State,
    tool: String,
}

enum State {
    Reading,
    Waiting(Pin<Box<tokio::time::Sleep>>),
    Opening(Pin<Box<dyn Future<Output = Result<ByteStream, Error>> + Send>>),
    Done,
}

// Never pinned in place (no field is projected): movable whatever `T` is.
impl<T> Unpin for Events<T> {}

impl<T> std::fmt::Debug for Events<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Events")
            .field("tool", &self.tool)
            .field("last_event_id", &self.parser.last_id)
            .finish_non_exhaustive()
    }
}

impl<T> Events<T> {
    pub(super) fn new(body: ByteStream, decode: Decode<T>) -> Events<T> {
        Events {
            tool: body.tool().to_owned(),
            body: Some(body),
            decode,
            parser: Parser::default(),
            ready: VecDeque::new(),
            reopen: None,
            reconnects_left: 0,
            state: State::Reading,
        }
    }

    /// Lets the stream reconnect up to `times` times (see [`Events`]). Needs a stream
    /// the executor opened (`Executor::execute_events`); otherwise it does nothing.
    pub fn reconnect(mut self, times: u32) -> Self {
        self.reconnects_left = times;
        self
    }

    pub(crate) fn reopen_with(mut self, reopen: Reopen) -> Self {
        self.reopen = Some(reopen);
        self
    }

    /// The last event id seen (what a reconnection sends as `Last-Event-ID`).
    pub fn last_event_id(&self) -> Option<&str> {
        self.parser.last_id.as_deref().filter(|id| !id.is_empty())
    }

    /// The next event; `None` at the end of the stream.
    pub async fn next_event(&mut self) -> Option<Result<Event<T>, Error>> {
        super::next(self).await
    }

    fn dispatch(&mut self, raw: RawEvent) {
        let event = match (self.decode)(&raw.data) {
            Ok(Some(data)) => Ok(Event {
                event: raw.event,
                data,
                id: raw.id,
                retry: raw.retry,
            }),
            Ok(None) => {
                self.state = State::Done;
                return;
            }
            Err(message) => Err(Error::Decode {
                tool: self.tool.clone(),
                message,
            }),
        };
        self.ready.push_back(event);
    }
}

impl<T> Stream for Events<T> {
    type Item = Result<Event<T>, Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = &mut *self;
        loop {
            if let Some(event) = this.ready.pop_front() {
                return Poll::Ready(Some(event));
            }
            match &mut this.state {
                State::Done => return Poll::Ready(None),
                State::Waiting(timer) => {
                    if timer.as_mut().poll(cx).is_pending() {
                        return Poll::Pending;
                    }
                    let reopen = this.reopen.as_ref().expect("waiting only with a reopen");
                    this.state = State::Opening(reopen(this.parser.last_id.clone()));
                }
                State::Opening(open) => match open.as_mut().poll(cx) {
                    Poll::Pending => return Poll::Pending,
                    Poll::Ready(Ok(body)) => {
                        this.body = Some(body);
                        this.parser.restart();
                        this.state = State::Reading;
                    }
                    Poll::Ready(Err(e)) => {
                        this.state = State::Done;
                        return Poll::Ready(Some(Err(e)));
                    }
                },
                State::Reading => {
                    let Some(body) = this.body.as_mut() else {
                        this.state = State::Done;
                        continue;
                    };
                    match Pin::new(body).poll_next(cx) {
                        Poll::Pending => return Poll::Pending,
                        Poll::Ready(Some(Ok(chunk))) => {
                            let mut events = Vec::new();
                            if let Err(message) = this.parser.feed(&chunk, &mut events) {
                                this.state = State::Done;
                                return Poll::Ready(Some(Err(Error::Decode {
                                    tool: this.tool.clone(),
                                    message,
                                })));
                            }
                            for raw in events {
                                if matches!(this.state, State::Done) {
                                    break;
                                }
                                this.dispatch(raw);
                            }
                        }
                        Poll::Ready(None) => {
                            this.body = None;
                            this.state = State::Done;
                        }
                        Poll::Ready(Some(Err(e))) => {
                            this.body = None;
                            // A dropped connection, when reconnecting is allowed.
                            let dropped = matches!(&e, Error::Transport(t)
                                if matches!(t.kind(), crate::TransportKind::Reset | crate::TransportKind::Timeout | crate::TransportKind::Other));
                            if dropped && this.reopen.is_some() && this.reconnects_left > 0 {
                                this.reconnects_left -= 1;
                                let wait = this.parser.retry.unwrap_or(DEFAULT_RETRY);
                                this.state = State::Waiting(Box::pin(tokio::time::sleep(wait)));
                            } else {
                                this.state = State::Done;
                                return Poll::Ready(Some(Err(e)));
                            }
                        }
                    }
                }
            }
        }
    }
}

/// An event as parsed, before its data is decoded.
#[derive(Debug, Clone, PartialEq)]
struct RawEvent {
    event: String,
    data: String,
    id: Option<String>,
    retry: Option<Duration>,
}

/// The parsing state of one stream (the last event id and reconnection time carry
/// over a reconnection; the rest starts again).
#[derive(Debug, Default)]
struct Parser {
    pending: BytesMut,
    /// The previous chunk ended in CR: an LF starting this one ends no second line.
    after_cr: bool,
    started: bool,
    event: String,
    data: String,
    has_data: bool,
    block_retry: Option<Duration>,
    last_id: Option<String>,
    retry: Option<Duration>,
}

impl Parser {
    fn restart(&mut self) {
        self.pending.clear();
        self.after_cr = false;
        self.started = false;
        self.event.clear();
        self.data.clear();
        self.has_data = false;
        self.block_retry = None;
    }

    /// Takes in `chunk`, appending the events its lines complete to `out`.
    fn feed(&mut self, chunk: &[u8], out: &mut Vec<RawEvent>) -> Result<(), String> {
        let mut chunk = chunk;
        if self.after_cr && chunk.first() == Some(&b'\n') {
            chunk = &chunk[1..];
        }
        self.after_cr = false;
        self.pending.extend_from_slice(chunk);
        if !self.started {
            if self.pending.len() < 3 && b"\xEF\xBB\xBF".starts_with(&self.pending) {
                return Ok(());
            }
            if self.pending.starts_with(b"\xEF\xBB\xBF") {
                self.pending.advance(3);
            }
            self.started = true;
        }
        while let Some(end) = self.pending.iter().position(|b| *b == b'\n' || *b == b'\r') {
            let line = self.pending.split_to(end);
            let terminator = self.pending[0];
            self.pending.advance(1);
            if terminator == b'\r' {
                match self.pending.first() {
                    Some(b'\n') => self.pending.advance(1),
                    None => self.after_cr = true,
                    _ => {}
                }
            }
            let line = String::from_utf8_lossy(&line);
            if let Some(event) = self.line(&line) {
                out.push(event);
            }
        }
        if self.pending.len() > MAX_LINE {
            return Err(format!(
                "an event-stream line is longer than {MAX_LINE} bytes"
            ));
        }
        Ok(())
    }

    /// One line: a field, a comment, or the blank line that dispatches.
    fn line(&mut self, line: &str) -> Option<RawEvent> {
        if line.is_empty() {
            let retry = self.block_retry.take();
            let event = std::mem::take(&mut self.event);
            if !self.has_data {
                self.data.clear();
                return None;
            }
            self.has_data = false;
            let mut data = std::mem::take(&mut self.data);
            if data.ends_with('\n') {
                data.pop();
            }
            return Some(RawEvent {
                event: if event.is_empty() {
                    "message".to_owned()
                } else {
                    event
                },
                data,
                id: self.last_id.clone().filter(|id| !id.is_empty()),
                retry,
            });
        }
        if line.starts_with(':') {
            return None;
        }
        let (field, value) = match line.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (line, ""),
        };
        match field {
            "event" => value.clone_into(&mut self.event),
            "data" => {
                self.data.push_str(value);
                self.data.push('\n');
                self.has_data = true;
            }
            "id" if !value.contains('\0') => self.last_id = Some(value.to_owned()),
            "retry" if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => {
                if let Ok(ms) = value.parse() {
                    let wait = Duration::from_millis(ms);
                    self.retry = Some(wait);
                    self.block_retry = Some(wait);
                }
            }
            _ => {}
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(chunks: &[&[u8]]) -> Vec<RawEvent> {
        let mut parser = Parser::default();
        let mut out = Vec::new();
        for chunk in chunks {
            parser.feed(chunk, &mut out).unwrap();
        }
        out
    }

    #[test]
    fn the_standards_examples() {
        // §9.2.6's examples: multi-line data, comments, ids carried over, a field
        // without a colon, and the one space after the colon that is removed.
        let events = parse(&[b": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n\n"]);
        let data: Vec<&str> = events.iter().map(|e| e.data.as_str()).collect();
        assert_eq!(data, ["first event", "second event", " third event"]);
        assert_eq!(events[0].id.as_deref(), Some("1"));
        // `id` with no value resets the last id.
        assert_eq!(events[1].id, None);
        let events = parse(&[b"data\n\ndata\ndata\n\ndata:"]);
        let data: Vec<&str> = events.iter().map(|e| e.data.as_str()).collect();
        // The last, unterminated block is not dispatched.
        assert_eq!(data, ["", "\n"]);
        let events = parse(&[b"data:YHOO\ndata: +2\ndata\ndata: 10\n\n"]);
        assert_eq!(events[0].data, "YHOO\n+2\n\n10");
        assert_eq!(events[0].event, "message");
    }

    #[test]
    fn line_ends_split_across_chunks_and_a_bom() {
        let events = parse(&[
            b"\xEF",
            b"\xBB\xBFevent: add\r",
            b"\ndata: 1\r",
            b"\r",
            b"data: 2\n\n",
        ]);
        assert_eq!(events.len(), 2);
        assert_eq!(events[0].event, "add");
        assert_eq!(events[0].data, "1");
        assert_eq!(events[1].event, "message");
        assert_eq!(events[1].data, "2");
    }

    #[test]
    fn retry_only_with_digits_and_ids_without_nul() {
        let events = parse(&[b"retry: 50\nid: a\0b\ndata: x\n\nretry: 5s\ndata: y\n\n"]);
        assert_eq!(events[0].retry, Some(Duration::from_millis(50)));
        assert_eq!(events[0].id, None);
        assert_eq!(events[1].retry, None);
    }

    /// Any bytes, split anywhere, parse without panicking and into the same events as
    /// the whole (a chunk boundary inside a CRLF, a BOM or a UTF-8 sequence included).
    #[test]
    fn hostile_bytes_split_anywhere_parse_the_same() {
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        let alphabet: &[&[u8]] = &[
            b"data:",
            b"data: x",
            b"id: 7",
            b"id",
            b"event: e",
            b"retry: 12",
            b"retry: x",
            b":c",
            b"\r",
            b"\n",
            b"\r\n",
            b"\xEF\xBB\xBF",
            b"\xC3\xA9",
            b"\xC3",
            b"\0",
            b" ",
        ];
        for _ in 0..3_000 {
            let mut input = Vec::new();
            for _ in 0..next(40) {
                input.extend_from_slice(alphabet[next(alphabet.len() as u64) as usize]);
            }
            let whole = parse(&[&input]);
            let mut chunks: Vec<&[u8]> = Vec::new();
            let mut rest = &input[..];
            while !rest.is_empty() {
                let at = 1 + next(rest.len() as u64) as usize;
                chunks.push(&rest[..at]);
                rest = &rest[at..];
            }
            assert_eq!(parse(&chunks), whole, "{input:?} split as {chunks:?}");
        }
    }

    #[test]
    fn json_data_and_the_done_marker() {
        assert_eq!(
            json::<serde_json::Value>("{\"a\":1}").unwrap(),
            Some(serde_json::json!({"a": 1}))
        );
        assert_eq!(json::<serde_json::Value>("[DONE]").unwrap(), None);
        assert!(json::<u32>("nope").is_err());
    }
}
