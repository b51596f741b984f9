//! Calls whose body is not held whole in memory: answers read as they arrive (files,
//! server-sent events, JSON lines) and request bodies read from a file or a stream.
//! The same arguments check, credentials, request building and transport layers
//! (rate limits, retries) as every other call; only the body handling differs.

use std::time::Duration;

use bytes::Bytes;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::response::{decode_body, status_error};
use super::{Executor, Found};
use crate::descriptor::{Operation, ParamLocation};
use crate::error::Error;
use crate::stream::{ByteStream, Events, JsonLines, Upload};
use crate::transport::CallPolicy;

/// Largest error body read from a failed streamed call (it becomes the error's `body`).
const MAX_ERROR_BODY: usize = 64 * 1024;

/// The limits of streamed answers (see `ExecutorBuilder::max_stream_bytes` and
/// `ExecutorBuilder::idle_timeout`).
#[derive(Debug, Clone, Copy)]
pub(super) struct Limits {
    pub(super) max_bytes: Option<u64>,
    pub(super) idle: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_bytes: None,
            idle: Duration::from_secs(30),
        }
    }
}

impl Executor {
    /// Calls tool `name` by name with JSON arguments (checked and gated like
    /// [`call`](Executor::call)) and returns its answer as a stream: for downloads
    /// and event streams a service reads itself rather than hands to a model.
    ///
    /// # Errors
    /// As [`call`](Executor::call); a non-success status is an [`Error::Status`] with
    /// the start of the body.
    pub async fn call_stream(&self, name: &str, args: Value) -> Result<ByteStream, Error> {
        let found = self.find(name)?;
        let args = self.admitted(found, args, false).await?;
        self.open(found.operation(), Some(found), &args, None, None)
            .await
    }

    /// Runs `op` with a typed input and returns its answer as a stream (generated
    /// `<method>_stream` methods).
    pub async fn execute_stream<I: Serialize>(
        &self,
        op: &Operation,
        input: &I,
    ) -> Result<ByteStream, Error> {
        let call = self.typed(op, input)?;
        self.open(call.op, call.found, &call.args, None, None).await
    }

    /// Runs `op` with a typed input and returns its whole answer as bytes (generated
    /// methods of binary answers: the bytes as sent, no base64 on the way), within
    /// the call's `max_response_bytes`.
    pub async fn execute_bytes<I: Serialize>(
        &self,
        op: &Operation,
        input: &I,
    ) -> Result<Bytes, Error> {
        let call = self.typed(op, input)?;
        let limit = self.policy.max_response_bytes;
        let answer = self
            .open(call.op, call.found, &call.args, None, None)
            .await?;
        answer.collect(limit).await
    }

    /// Runs `op` with a typed input, its request body read from `body` instead of the
    /// input's body field (which is not sent), and decodes the answer into `O`
    /// (generated `<method>_upload` methods).
    pub async fn execute_upload<I: Serialize, O: DeserializeOwned>(
        &self,
        op: &Operation,
        input: &I,
        body: Upload,
    ) -> Result<O, Error> {
        let call = self.typed(op, input)?;
        let limit = self.policy.max_response_bytes;
        let answer = self
            .open(call.op, call.found, &call.args, Some(body), None)
            .await?;
        let content_type = answer.content_type().unwrap_or("").to_owned();
        let bytes = answer.collect(limit).await?;
        super::decode(op, decode_body(&content_type, &bytes))
    }

    /// Runs `op` with a typed input and reads its answer as server-sent events whose
    /// data decodes as JSON into `T`. The stream reconnects after a dropped
    /// connection when asked to ([`Events::reconnect`]), with `Last-Event-ID`
    /// (generated `<method>_events` methods).
    pub async fn execute_events<I: Serialize, T: DeserializeOwned + 'static>(
        &self,
        op: &Operation,
        input: &I,
    ) -> Result<Events<T>, Error> {
        let call = self.typed(op, input)?;
        let body = self
            .open(call.op, call.found, &call.args, None, None)
            .await?;
        Ok(body
            .json_events()
            .reopen_with(self.reopener(call.op, call.args)))
    }

    /// [`execute_events`](Executor::execute_events) for events whose data has no
    /// schema: each event's data as text.
    pub async fn execute_text_events<I: Serialize>(
        &self,
        op: &Operation,
        input: &I,
    ) -> Result<Events<String>, Error> {
        let call = self.typed(op, input)?;
        let body = self
            .open(call.op, call.found, &call.args, None, None)
            .await?;
        Ok(body.events().reopen_with(self.reopener(call.op, call.args)))
    }

    /// Opens `op` again with the same arguments and the last event id.
    fn reopener(&self, op: &Operation, args: Map<String, Value>) -> crate::stream::sse::Reopen {
        let executor = self.clone();
        let op = op.clone();
        Box::new(move |last_id: Option<String>| {
            let executor = executor.clone();
            let op = op.clone();
            let args = args.clone();
            Box::pin(async move {
                let found = executor.lookup(&op.name);
                executor
                    .open(&op, found, &args, None, last_id.as_deref())
                    .await
            })
        })
    }

    /// Runs `op` with a typed input and reads its answer as JSON lines decoded into
    /// `T` (generated `<method>_lines` methods).
    pub async fn execute_lines<I: Serialize, T: DeserializeOwned>(
        &self,
        op: &Operation,
        input: &I,
    ) -> Result<JsonLines<T>, Error> {
        let call = self.typed(op, input)?;
        let answer = self
            .open(call.op, call.found, &call.args, None, None)
            .await?;
        Ok(answer.json_lines())
    }

    /// Sends `op` with checked `args` (the body from `upload` when given) and returns
    /// once the response head arrived. A failure status reads the start of the body
    /// into the error.
    pub(super) async fn open(
        &self,
        op: &Operation,
        found: Option<Found<'_>>,
        args: &Map<String, Value>,
        upload: Option<Upload>,
        last_event_id: Option<&str>,
    ) -> Result<ByteStream, Error> {
        super::send::refuse_workflow(op)?;
        let (api, base_url) = self.api(&op.api)?;
        if op.graphql.is_some() || base_url.starts_with("mcp://") {
            // Not HTTP bodies of their own: the answer as the call gives it.
            let reply = self.send(op, found, args, None).await?;
            let body = match reply.body {
                Value::String(text) => Bytes::from(text),
                other => Bytes::from(other.to_string()),
            };
            return Ok(ByteStream::from_bytes(reply.status, reply.headers, body));
        }
        // The input's body argument stands in for the upload's bytes: checked, then
        // left out of the request (an empty body is built in its place).
        let mut args = std::borrow::Cow::Borrowed(args);
        if upload.is_some() {
            for p in op.params.iter() {
                if p.location == ParamLocation::RequestBody {
                    args.to_mut().remove(p.field.as_ref());
                }
            }
        }
        let mut upload = upload;
        let mut rejected = None;
        loop {
            let (credentials, token) = self
                .credentials(api, op, base_url, rejected.as_deref())
                .await?;
            let request = self.request(op, found, base_url, &args, credentials, None)?;
            let (mut parts, built) = request.into_parts();
            let policy = CallPolicy {
                max_response_bytes: self
                    .inner
                    .streams
                    .max_bytes
                    .map_or(usize::MAX, |b| usize::try_from(b).unwrap_or(usize::MAX)),
                ..CallPolicy::of(&http::Request::from_parts(parts.clone(), ()))
            };
            parts.extensions.insert(policy);
            if let Some(id) = last_event_id
                && let Ok(value) = http::HeaderValue::from_str(id)
            {
                parts.headers.insert("last-event-id", value);
            }
            // A replayable upload is kept for the token retry; a stream goes at once.
            let body = match upload.as_ref().map(Upload::try_clone) {
                Some(Some(copy)) => copy,
                Some(None) => upload.take().expect("an upload"),
                None => Upload::bytes(built),
            };
            let response = self
                .inner
                .transport
                .open(http::Request::from_parts(parts, body))
                .await
                .map_err(Error::Transport)?;
            let status = response.status();
            let not_retried = response
                .extensions()
                .get::<crate::transport::NotRetried>()
                .is_some();
            // A refused cached token: one new token and one more try, when the body
            // can be sent again.
            if status == http::StatusCode::UNAUTHORIZED
                && rejected.is_none()
                && let Some(token) = token
                && upload.as_ref().is_none_or(Upload::is_replayable)
            {
                rejected = Some(token.to_string());
                continue;
            }
            let stream = ByteStream::new(
                &op.name,
                response,
                self.inner.streams.max_bytes,
                Some(self.inner.streams.idle),
            );
            if status.is_success() {
                return Ok(stream);
            }
            let headers = stream.headers().clone();
            let content_type = stream.content_type().unwrap_or("").to_owned();
            let start = error_body(stream).await;
            let mut error = status_error(op, status, &headers, decode_body(&content_type, &start));
            if not_retried && let Error::Status { message, .. } = &mut error {
                message.push_str(
                    " (not retried: the request body was a one-shot stream, which cannot be sent again; upload bytes or a file to have it retried)",
                );
            }
            return Err(error);
        }
    }
}

/// The start of a failed call's body (up to [`MAX_ERROR_BODY`]; what could be read).
async fn error_body(mut stream: ByteStream) -> Bytes {
    let mut start = bytes::BytesMut::new();
    while start.len() < MAX_ERROR_BODY
        && let Some(Ok(chunk)) = stream.chunk().await
    {
        start.extend_from_slice(&chunk[..chunk.len().min(MAX_ERROR_BODY - start.len())]);
    }
    start.freeze()
}

/// How a tool's answer streams (what a by-name call collects).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Form {
    /// `text/event-stream`
    Events,
    /// JSON lines
    Lines,
}

/// The form of `tool`'s success answer, from the media types its source listed
/// (kept in its metadata): a stream only when no JSON form is offered beside it.
pub(super) fn form_of(tool: &crate::catalog::Tool) -> Option<Form> {
    let meta = tool.meta.as_deref()?;
    // Most tools answer JSON: their metadata is not parsed at all.
    if !["event-stream", "ndjson", "jsonl", "json-seq"]
        .iter()
        .any(|m| meta.contains(m))
    {
        return None;
    }
    let meta: Value = serde_json::from_str(meta).ok()?;
    let responses = meta.pointer("/toolwright/native/responses")?.as_object()?;
    let (_, success) = responses
        .iter()
        .filter(|(status, _)| status.starts_with('2'))
        .min_by_key(|(status, _)| status.as_str())?;
    let media: Vec<String> = success
        .get("mediaTypes")?
        .as_array()?
        .iter()
        .filter_map(Value::as_str)
        .map(|m| {
            m.split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase()
        })
        .collect();
    let lines = |m: &str| toolwright_query::media::is_json_lines(m);
    if media.iter().any(|m| m.contains("json") && !lines(m)) {
        return None;
    }
    if media.iter().any(|m| m == "text/event-stream") {
        Some(Form::Events)
    } else if media.iter().any(|m| lines(m)) {
        Some(Form::Lines)
    } else {
        None
    }
}

/// Items that do not fit their schema, listed at most per call (the count of the rest
/// is not kept: the first ones say what is wrong).
const MAX_INVALID: usize = 20;

/// Each collected event's data or line checked against the item schema the tool's
/// output schema gives it (OpenAPI 3.2 `itemSchema`, or the `schema` real documents put
/// there): the typed client would fail to decode an item that does not fit, so a call
/// by name says which did (`invalid`: the item's place and what is wrong) and still
/// returns them as they came.
struct ItemCheck {
    check: crate::validate::SchemaCheck,
    key: &'static str,
}

impl ItemCheck {
    fn of(
        tool: &crate::catalog::Tool,
        form: Form,
        shared: &dyn Fn(&str) -> Option<Value>,
    ) -> Option<ItemCheck> {
        let schema: Value = serde_json::from_str(tool.output_schema.as_deref()?).ok()?;
        let (pointer, key) = match form {
            Form::Events => ("/properties/events/items/properties/data", "events"),
            Form::Lines => ("/properties/items/items", "items"),
        };
        let item = schema.pointer(pointer)?;
        // An undescribed item (`{}`) checks nothing: no check at all.
        if item.as_object().is_some_and(serde_json::Map::is_empty) {
            return None;
        }
        let own = schema.get("$defs");
        let definition = |name: &str| {
            own.and_then(|d| d.get(name))
                .cloned()
                .or_else(|| shared(name))
        };
        Some(ItemCheck {
            check: crate::validate::SchemaCheck::compile(item, &definition),
            key,
        })
    }

    fn check(&self, at: usize, item: &Value, invalid: &mut Vec<Value>) {
        if invalid.len() < MAX_INVALID
            && let Err(e) = self.check.check(item)
        {
            invalid.push(serde_json::json!({
                "at": format!("{}[{at}]", self.key),
                "error": format!("does not fit the item schema: {e}"),
            }));
        }
    }
}

/// Events or lines one by-name call collects at most, whatever their size.
pub(crate) const MAX_COLLECTED: usize = 10_000;

impl Executor {
    /// A by-name call of a streaming tool: its events or lines collected until the
    /// stream ends, what they take in memory passes the call's `max_response_bytes`
    /// (each kept value's [`weight`](crate::paginate::weight): 10 MB of empty events
    /// were 1.5 M values and 2.3 GB when only their data was counted), their number
    /// passes [`MAX_COLLECTED`], or the call's timeout runs out — whichever comes first;
    /// `complete` and `cut` say which.
    pub(super) async fn collect_stream(
        &self,
        op: &Operation,
        found: Option<Found<'_>>,
        args: &Map<String, Value>,
        form: Form,
    ) -> Result<Value, Error> {
        let deadline = tokio::time::Instant::now() + self.policy.timeout;
        let budget = self.policy.max_response_bytes;
        let items = found.and_then(|f| {
            let api = self.inner.catalog.api(&f.tool.operation.api);
            // The output side of the API's shared definitions (`#/$defs/Name`).
            let shared = |name: &str| {
                api?.definitions
                    .iter()
                    .find(|d| d.name == name)
                    .and_then(|d| serde_json::from_str(&d.output).ok())
            };
            ItemCheck::of(f.tool, form, &shared)
        });
        let mut invalid = Vec::new();
        let body = self.open(op, found, args, None, None).await?;
        let mut taken = Vec::new();
        let mut size = 0;
        let mut cut = None;
        // Data that is a JSON object or array is kept as JSON, anything else as text.
        let data = |text: String| match serde_json::from_str::<Value>(&text) {
            Ok(v @ (Value::Object(_) | Value::Array(_))) => v,
            _ => Value::String(text),
        };
        let key = match form {
            Form::Events => {
                let mut events = body.events();
                loop {
                    let next = tokio::time::timeout_at(deadline, events.next_event()).await;
                    let event = match next {
                        Err(_) => {
                            cut = Some("the call's time ran out while the stream was still open");
                            break;
                        }
                        Ok(None) => break,
                        Ok(Some(event)) => event?,
                    };
                    let data = data(event.data);
                    if let Some(items) = &items {
                        items.check(taken.len(), &data, &mut invalid);
                    }
                    let mut entry = serde_json::json!({"event": event.event, "data": data});
                    if let Some(id) = event.id {
                        entry["id"] = Value::String(id);
                    }
                    let weight = crate::paginate::weight(&entry);
                    size += weight;
                    if size > budget {
                        cut = Some("the events passed the call's memory budget");
                        break;
                    }
                    if crate::meter::charge(weight).is_err() {
                        cut = Some("the events passed the memory limit of the script calling");
                        break;
                    }
                    if taken.len() == MAX_COLLECTED {
                        cut = Some("the events passed the count limit");
                        break;
                    }
                    taken.push(entry);
                }
                "events"
            }
            Form::Lines => {
                let mut lines = body.json_lines::<Value>();
                loop {
                    let next = tokio::time::timeout_at(deadline, lines.next_item()).await;
                    let item = match next {
                        Err(_) => {
                            cut = Some("the call's time ran out while the stream was still open");
                            break;
                        }
                        Ok(None) => break,
                        Ok(Some(item)) => item?,
                    };
                    if let Some(items) = &items {
                        items.check(taken.len(), &item, &mut invalid);
                    }
                    let weight = crate::paginate::weight(&item);
                    size += weight;
                    if size > budget {
                        cut = Some("the lines passed the call's memory budget");
                        break;
                    }
                    if crate::meter::charge(weight).is_err() {
                        cut = Some("the lines passed the memory limit of the script calling");
                        break;
                    }
                    if taken.len() == MAX_COLLECTED {
                        cut = Some("the lines passed the count limit");
                        break;
                    }
                    taken.push(item);
                }
                "items"
            }
        };
        let mut out = serde_json::json!({key: taken, "complete": cut.is_none()});
        if !invalid.is_empty() {
            out["invalid"] = Value::Array(invalid);
        }
        if let Some(cut) = cut {
            out["cut"] = Value::String(format!(
                "{cut}: cut at {} {key} (call `{}` from code with `Executor::call_stream` to read all of it)",
                out[key].as_array().map_or(0, Vec::len),
                op.name
            ));
        }
        Ok(out)
    }
}
