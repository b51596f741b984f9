//! The service's own tools answered in Rust with MCP content (text, images, audio,
//! embedded resources), progress and log messages: what a tool needs when its result
//! is more than a JSON value (`ExecutorBuilder::resource` covers record verbs).

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

use serde_json::{Map, Value, json};
use tokio::sync::mpsc::UnboundedSender;

use super::BoxFuture;
use super::content::Content;
use super::input::InputRequired;
use super::tasks::TaskSupport;
use crate::catalog::Annotations;

pub(super) type Handle =
    Arc<dyn Fn(Value, Context) -> BoxFuture<'static, ToolOutput> + Send + Sync>;

/// A tool the service answers itself, listed and called next to the catalog's.
///
/// ```
/// use serde_json::json;
/// use toolwright::serve::mcp::{Content, ServiceTool, ToolOutput};
/// let echo = ServiceTool::new("echo", "Says the text back", |args, _cx| async move {
///     match args["text"].as_str() {
///         Some(text) => ToolOutput::content(vec![Content::text(text)]),
///         None => ToolOutput::error("`text` is required"),
///     }
/// })
/// .input_schema(json!({"type": "object", "properties": {"text": {"type": "string"}},
///                      "required": ["text"]}));
/// ```
#[derive(Clone)]
pub struct ServiceTool {
    pub(super) name: String,
    title: Option<String>,
    description: String,
    input_schema: Value,
    output_schema: Option<Value>,
    annotations: Option<Annotations>,
    pub(super) task_support: TaskSupport,
    pub(super) handle: Handle,
}

impl std::fmt::Debug for ServiceTool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServiceTool")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl ServiceTool {
    /// A tool taking no arguments (see [`ServiceTool::input_schema`]) answered by
    /// `handle`, which gets the call's arguments and a [`Context`].
    pub fn new<F, Fut>(name: impl Into<String>, description: impl Into<String>, handle: F) -> Self
    where
        F: Fn(Value, Context) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ToolOutput> + Send + 'static,
    {
        ServiceTool {
            name: name.into(),
            title: None,
            description: description.into(),
            input_schema: json!({"type": "object", "properties": {}}),
            output_schema: None,
            annotations: None,
            task_support: TaskSupport::Forbidden,
            handle: Arc::new(move |args, cx| Box::pin(handle(args, cx))),
        }
    }

    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// The JSON Schema of its arguments (an object schema).
    pub fn input_schema(mut self, schema: Value) -> Self {
        self.input_schema = schema;
        self
    }

    /// The JSON Schema of its structured result ([`ToolOutput::structured`]).
    pub fn output_schema(mut self, schema: Value) -> Self {
        self.output_schema = Some(schema);
        self
    }

    /// Its behaviour hints (read-only, destructive, idempotent, open world).
    pub fn annotations(mut self, annotations: Annotations) -> Self {
        self.annotations = Some(annotations);
        self
    }

    /// Whether it runs as a task (the Tasks extension, 2026-07-28): the handler
    /// answers [`ToolOutput::as_task`] when the work should go on in the background.
    pub fn task_support(mut self, support: TaskSupport) -> Self {
        self.task_support = support;
        self
    }

    pub(in crate::serve::mcp) fn input_schema_value(&self) -> &Value {
        &self.input_schema
    }

    /// Its `tools/list` entry.
    pub(super) fn entry(&self) -> Value {
        let mut entry = json!({
            "name": self.name,
            "description": self.description,
            "inputSchema": self.input_schema,
        });
        if let Some(title) = &self.title {
            entry["title"] = json!(title);
        }
        if let Some(schema) = &self.output_schema {
            entry["outputSchema"] = schema.clone();
        }
        match self.task_support {
            TaskSupport::Forbidden => {}
            TaskSupport::Optional => entry["execution"] = json!({"taskSupport": "optional"}),
            TaskSupport::Required => entry["execution"] = json!({"taskSupport": "required"}),
        }
        if let Some(a) = &self.annotations {
            entry["annotations"] = json!({
                "readOnlyHint": a.read_only,
                "destructiveHint": a.destructive,
                "idempotentHint": a.idempotent,
                "openWorldHint": a.open_world,
            });
        }
        entry
    }
}

/// What a service tool answers.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolOutput {
    content: Vec<Content>,
    structured: Option<Value>,
    is_error: bool,
    /// What the tool must be told before it can answer.
    pub(super) asks: Option<InputRequired>,
    /// Go on as a task (the handler runs again in it).
    pub(super) as_task: bool,
    /// A protocol-level failure: the JSON-RPC error object.
    pub(super) failure: Option<Value>,
}

impl ToolOutput {
    /// A result made of these blocks.
    pub fn content(content: Vec<Content>) -> ToolOutput {
        ToolOutput {
            content,
            structured: None,
            is_error: false,
            asks: None,
            as_task: false,
            failure: None,
        }
    }

    /// Go on in the background: when the client declared the Tasks extension the call
    /// answers a task and the handler runs again inside it ([`Context::in_task`]);
    /// otherwise it runs again at once, in the request.
    pub fn as_task() -> ToolOutput {
        ToolOutput {
            as_task: true,
            ..ToolOutput::content(Vec::new())
        }
    }

    /// Not a tool error the model should see but a failure of the server: a JSON-RPC
    /// error (`-32603`) in the request, a `failed` task in a task.
    pub fn protocol_error(message: impl Into<String>) -> ToolOutput {
        ToolOutput {
            failure: Some(super::fail(
                crate::serve::mcp::codes::INTERNAL_ERROR,
                message,
            )),
            ..ToolOutput::content(Vec::new())
        }
    }

    /// No answer yet: the client is asked for input and the tool runs again with the
    /// responses ([`Context::response`]).
    pub fn input_required(asks: InputRequired) -> ToolOutput {
        ToolOutput {
            asks: Some(asks),
            ..ToolOutput::content(Vec::new())
        }
    }

    /// A structured result (for a tool with an output schema), also given as text.
    pub fn structured(value: Value) -> ToolOutput {
        ToolOutput {
            structured: Some(value.clone()),
            ..ToolOutput::content(vec![Content::text(value.to_string())])
        }
    }

    /// A failed call the model sees (`isError`), saying what went wrong.
    pub fn error(message: impl Into<String>) -> ToolOutput {
        ToolOutput {
            is_error: true,
            ..ToolOutput::content(vec![Content::text(message)])
        }
    }

    pub(super) fn to_json(&self) -> Value {
        let content: Vec<Value> = self.content.iter().map(Content::to_json).collect();
        let mut result = json!({"content": content, "isError": self.is_error});
        if let Some(value) = &self.structured {
            result["structuredContent"] = value.clone();
        }
        result
    }
}

/// How bad a log message is (RFC 5424 severities, as MCP names them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum LogLevel {
    Debug,
    Info,
    Notice,
    Warning,
    Error,
    Critical,
    Alert,
    Emergency,
}

impl LogLevel {
    const NAMES: [&'static str; 8] = [
        "debug",
        "info",
        "notice",
        "warning",
        "error",
        "critical",
        "alert",
        "emergency",
    ];

    pub fn as_str(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    pub(super) fn parse(name: &str) -> Option<LogLevel> {
        use LogLevel::*;
        let all = [
            Debug, Info, Notice, Warning, Error, Critical, Alert, Emergency,
        ];
        Self::NAMES.iter().position(|n| *n == name).map(|i| all[i])
    }
}

/// What a service tool can tell its client while it runs.
#[derive(Debug, Clone)]
pub struct Context {
    pub(super) notify: Option<UnboundedSender<String>>,
    pub(super) progress_token: Option<Value>,
    /// The least severe level the client wants: `logging/setLevel` before
    /// 2026-07-28, the request's `io.modelcontextprotocol/logLevel` since (none: no
    /// log messages).
    pub(super) log_level: Arc<AtomicU8>,
    /// The client's responses to what the tool asked in the round before.
    pub(super) responses: Map<String, Value>,
    /// The state the tool asked to have back ([`InputRequired::state`]).
    pub(super) state: Option<Value>,
    /// What the client declared it can do.
    pub(super) capabilities: Value,
    /// Running inside a task.
    pub(super) in_task: bool,
}

impl Context {
    pub(super) fn new(
        notify: Option<UnboundedSender<String>>,
        progress_token: Option<Value>,
        log_level: Arc<AtomicU8>,
    ) -> Context {
        Context {
            notify,
            progress_token,
            log_level,
            responses: Map::new(),
            state: None,
            capabilities: json!({}),
            in_task: false,
        }
    }

    /// Whether the tool runs inside a task (after [`ToolOutput::as_task`]).
    pub fn in_task(&self) -> bool {
        self.in_task
    }

    /// The client's response to the request asked under `key` (an elicitation's
    /// `{action, content}`, a sampling result, a roots list), once it has answered.
    pub fn response(&self, key: &str) -> Option<&Value> {
        self.responses.get(key)
    }

    /// The state given with the last [`ToolOutput::input_required`], verified.
    pub fn state(&self) -> Option<&Value> {
        self.state.as_ref()
    }

    /// Whether the client declared `capability` (`"elicitation"`, `"sampling"`,
    /// `"roots"`): ask only for what it can answer.
    pub fn client_supports(&self, capability: &str) -> bool {
        self.capabilities.get(capability).is_some()
    }

    /// Whether the client asked for progress (its request carried a `progressToken`).
    pub fn wants_progress(&self) -> bool {
        self.progress_token.is_some()
    }

    /// Sends `notifications/progress` (nothing when the client did not ask for
    /// progress). `progress` must grow from one report to the next.
    pub fn progress(&self, progress: f64, total: Option<f64>, message: Option<&str>) {
        let (Some(token), Some(notify)) = (&self.progress_token, &self.notify) else {
            return;
        };
        let mut params = json!({"progressToken": token, "progress": progress});
        if let Some(total) = total {
            params["total"] = json!(total);
        }
        if let Some(message) = message {
            params["message"] = json!(message);
        }
        let note = json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": params});
        let _ = notify.send(note.to_string());
    }

    /// Sends a log message (`notifications/message`) at `level`, when the client
    /// wants that level (`info` and above until it sets one) and can be told.
    pub fn log(&self, level: LogLevel, data: impl Into<Value>) {
        let Some(notify) = &self.notify else {
            return;
        };
        if (level as u8) < self.log_level.load(Ordering::Relaxed) {
            return;
        }
        let note = json!({"jsonrpc": "2.0", "method": "notifications/message",
                          "params": {"level": level.as_str(), "data": data.into()}});
        let _ = notify.send(note.to_string());
    }
}
