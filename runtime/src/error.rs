//! Errors of the runtime. Messages name what is wrong and how to fix it; they never
//! contain credential values.

use std::fmt;

/// Everything a call can fail with.
///
/// The enum and its struct variants are `#[non_exhaustive]`: a new kind of failure, or
/// a new field of one, is not a breaking change. Match a variant with `..`
/// (`Error::Status { status, .. }`); [`Error::status`] makes a status error (a test's
/// answer for a typed error's `from_error`, a mock transport's).
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// No tool of that name in the catalog.
    #[non_exhaustive]
    UnknownTool {
        name: String,
        suggestion: Option<String>,
    },
    /// The arguments do not fit the tool's input.
    #[non_exhaustive]
    InvalidArguments { tool: String, message: String },
    /// A credential's environment variable is not set.
    #[non_exhaustive]
    MissingCredential { api: String, env: String },
    /// No API of that name is known to the executor.
    #[non_exhaustive]
    UnknownApi { name: String },
    /// The request could not be built (for example a bad base URL).
    #[non_exhaustive]
    Request { tool: String, message: String },
    /// The transport failed before a response arrived.
    Transport(TransportError),
    /// The server answered with a non-success status.
    #[non_exhaustive]
    Status {
        tool: String,
        status: u16,
        /// The upstream message, from the body's `message`/`error`/`detail`, or the body text.
        message: String,
        /// The whole response body (JSON when it parses, else a string).
        body: serde_json::Value,
        /// The response headers that matter to a caller: request ids (to quote to the
        /// API's support), `Retry-After` and rate-limit counters. Lower-cased names.
        headers: Vec<(String, String)>,
    },
    /// The response body did not fit the operation's output type.
    #[non_exhaustive]
    Decode { tool: String, message: String },
    /// A resource served by this service failed (not found, conflict...).
    #[non_exhaustive]
    Resource {
        tool: String,
        error: crate::resource::ResourceError,
    },
    /// Tools could not be put together in one catalog (two with the same name).
    #[non_exhaustive]
    Catalog { message: String },
    /// The executor's configuration cannot work (e.g. a base URL with a query).
    #[non_exhaustive]
    Config { message: String },
    /// The call needs approval ([`gate`](crate::gate)) and did not get it: no approval
    /// callback is set, or it said no. Nothing was sent.
    #[non_exhaustive]
    ConfirmationRequired {
        tool: String,
        reason: String,
        /// An approval callback was asked and declined.
        declined: bool,
    },
    /// The service's policy does not let this call run. Nothing was sent.
    #[non_exhaustive]
    Denied { tool: String, reason: String },
    /// No OAuth 2 access token could be obtained (the token endpoint refused the
    /// client, was unreachable, or answered something unusable). The call was not sent.
    #[non_exhaustive]
    Token { api: String, message: String },
    /// A GraphQL endpoint answered with `errors` (HTTP 200 or not).
    #[non_exhaustive]
    Graphql {
        tool: String,
        /// Each error's message, with its path when it has one.
        message: String,
        /// The `errors` array as sent.
        errors: serde_json::Value,
        /// Whatever `data` came with them (partial results), or `null`.
        data: serde_json::Value,
    },
    /// A step of an Arazzo workflow failed, and no `onFailure` action carried the
    /// workflow on (or one ended it).
    #[non_exhaustive]
    Workflow {
        /// The workflow's tool.
        tool: String,
        /// The failing step's `stepId`.
        step: String,
        /// What the step calls (its operationId, operationPath or workflowId) and the
        /// tool that runs it.
        operation: String,
        /// Why: criteria not met, the HTTP status, an expression with no value...
        reason: String,
        /// The step's last HTTP status, when it got an answer.
        status: Option<u16>,
    },
}

impl Error {
    /// An [`Error::Status`] for an answer of `tool` with `status`: `message` for people
    /// and models, `body` the whole answer (JSON, or a string), `headers` those that
    /// matter to a caller (lower-cased names).
    pub fn status(
        tool: impl Into<String>,
        status: u16,
        message: impl Into<String>,
        body: serde_json::Value,
        headers: Vec<(String, String)>,
    ) -> Error {
        Error::Status {
            tool: tool.into(),
            status,
            message: message.into(),
            body,
            headers,
        }
    }

    /// A stable code for the kind of failure, for programs and models to branch on
    /// (messages may change; codes do not): `VALIDATION_ARGUMENTS`, `NOT_FOUND_TOOL`,
    /// `PERMISSION_DENIED`, `RATE_LIMIT_EXCEEDED`, `UPSTREAM_*`, …
    pub fn code(&self) -> &'static str {
        match self {
            Error::UnknownTool { .. } => "NOT_FOUND_TOOL",
            Error::InvalidArguments { .. } => "VALIDATION_ARGUMENTS",
            Error::MissingCredential { .. } => "PERMISSION_MISSING_CREDENTIAL",
            Error::UnknownApi { .. } => "NOT_FOUND_API",
            Error::Request { .. } => "VALIDATION_REQUEST",
            Error::Transport(e) => e.code(),
            Error::Status { status, .. } => match status {
                401 => "PERMISSION_UNAUTHENTICATED",
                403 => "PERMISSION_DENIED",
                404 | 410 => "NOT_FOUND_UPSTREAM",
                408 | 504 => "UPSTREAM_TIMEOUT",
                409 => "UPSTREAM_CONFLICT",
                422 | 400 => "VALIDATION_UPSTREAM",
                429 => "RATE_LIMIT_EXCEEDED",
                500..=599 => "UPSTREAM_UNAVAILABLE",
                _ => "UPSTREAM_STATUS",
            },
            Error::Decode { .. } => "UPSTREAM_DECODE",
            Error::Resource { .. } => "RESOURCE_FAILED",
            Error::Catalog { .. } => "CONFIG_CATALOG",
            Error::Config { .. } => "CONFIG_EXECUTOR",
            Error::ConfirmationRequired { .. } => "CONFIRMATION_REQUIRED",
            Error::Denied { .. } => "PERMISSION_DENIED_POLICY",
            Error::Token { .. } => "PERMISSION_TOKEN",
            Error::Graphql { .. } => "UPSTREAM_GRAPHQL",
            Error::Workflow { .. } => "WORKFLOW_STEP_FAILED",
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::UnknownTool { name, suggestion } => {
                write!(f, "no tool named `{name}` in the catalog")?;
                if let Some(s) = suggestion {
                    write!(f, "; did you mean `{s}`?")?;
                }
                Ok(())
            }
            Error::InvalidArguments { tool, message } => {
                write!(f, "invalid arguments for `{tool}`: {message}")
            }
            Error::MissingCredential { api, env } => write!(
                f,
                "the credential for API `{api}` is missing: set the environment variable `{env}`"
            ),
            Error::UnknownApi { name } => write!(f, "no API named `{name}` is registered"),
            Error::Request { tool, message } => {
                write!(f, "cannot build the request for `{tool}`: {message}")
            }
            Error::Transport(e) => write!(f, "transport error: {e}"),
            Error::Status {
                tool,
                status,
                message,
                ..
            } => {
                write!(f, "`{tool}` failed with HTTP {status}: {message}")
            }
            Error::Resource { tool, error } => write!(f, "`{tool}` failed: {error}"),
            Error::Catalog { message } => write!(f, "cannot build the catalog: {message}"),
            Error::Config { message } => write!(f, "cannot build the executor: {message}"),
            Error::ConfirmationRequired {
                tool,
                reason,
                declined: true,
            } => write!(f, "`{tool}` was not approved ({reason}); it was not run"),
            Error::ConfirmationRequired { tool, reason, .. } => write!(
                f,
                "`{tool}` needs approval before it runs ({reason}); it was not run"
            ),
            Error::Denied { tool, reason } => {
                write!(f, "`{tool}` is not allowed to run: {reason}")
            }
            Error::Token { api, message } => {
                write!(f, "no OAuth 2 access token for API `{api}`: {message}")
            }
            Error::Decode { tool, message } => {
                write!(
                    f,
                    "the response of `{tool}` does not fit its output type: {message}"
                )
            }
            Error::Graphql { tool, message, .. } => {
                write!(f, "`{tool}` failed: GraphQL errors: {message}")
            }
            Error::Workflow {
                tool,
                step,
                operation,
                reason,
                ..
            } => write!(
                f,
                "workflow `{tool}` failed at step `{step}` ({operation}): {reason}"
            ),
        }
    }
}

/// Messages carry their whole cause chain (a transport failure says why the
/// connection failed), so there is no separate `source()` to print twice.
impl std::error::Error for Error {}

/// A transport failure (connection refused, TLS, timeout...).
#[derive(Debug)]
pub struct TransportError {
    kind: TransportKind,
    message: String,
    source: Option<Box<dyn std::error::Error + Send + Sync>>,
}

/// What kind of transport failure: decides whether a call is retried, and names the
/// stable error code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum TransportKind {
    /// The host name did not resolve.
    Dns,
    /// No connection (refused, unreachable).
    Connect,
    /// The call (or connecting) took longer than allowed.
    Timeout,
    /// TLS failed (certificate, handshake).
    Tls,
    /// The connection broke while the answer was read (reset, truncated body).
    Reset,
    /// The answer is larger than the call's `max_response_bytes`.
    BodyTooLarge,
    /// What the call holds (its request body, or its answer as it is read) would take
    /// the code-mode script that made it past its memory limit.
    ScriptMemory,
    /// A redirect that is not followed (to another origin, or too many).
    Redirect,
    /// The client-side rate limit would hold the call past its deadline.
    RateLimited,
    Other,
}

impl TransportError {
    /// A failure of kind [`TransportKind::Other`] saying `message` (what a custom
    /// [`Transport`](crate::Transport) returns; [`kind_of`](Self::kind_of) classifies
    /// it, which decides whether the call is retried).
    pub fn new(message: impl Into<String>) -> Self {
        TransportError {
            kind: TransportKind::Other,
            message: message.into(),
            source: None,
        }
    }

    /// [`new`](Self::new) with the error that caused it (an HTTP client's), kept for
    /// [`cause`](Self::cause) and printed after `message` in the chain.
    pub fn with_source(
        message: impl Into<String>,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> Self {
        TransportError {
            kind: TransportKind::Other,
            message: message.into(),
            source: Some(Box::new(source)),
        }
    }

    /// The same error, classified.
    pub fn kind_of(mut self, kind: TransportKind) -> Self {
        self.kind = kind;
        self
    }

    /// What kind of failure this is.
    pub fn kind(&self) -> TransportKind {
        self.kind
    }

    /// The same error, saying it is the last of `attempts`.
    pub fn after_attempts(mut self, attempts: u32) -> Self {
        self.message = format!("{} (after {attempts} attempts)", self.message);
        self
    }

    /// The stable code of this failure (`UPSTREAM_TIMEOUT`, …).
    pub fn code(&self) -> &'static str {
        match self.kind {
            TransportKind::Dns => "UPSTREAM_DNS",
            TransportKind::Connect => "UPSTREAM_REFUSED",
            TransportKind::Timeout => "UPSTREAM_TIMEOUT",
            TransportKind::Tls => "UPSTREAM_TLS",
            TransportKind::Reset => "UPSTREAM_RESET",
            TransportKind::BodyTooLarge => "UPSTREAM_BODY_TOO_LARGE",
            TransportKind::ScriptMemory => "LIMIT_MEMORY",
            TransportKind::Redirect => "UPSTREAM_REDIRECT",
            TransportKind::RateLimited => "RATE_LIMIT_CLIENT",
            TransportKind::Other => "UPSTREAM_TRANSPORT",
        }
    }
}

/// The message, then every cause in the chain (`error sending request: client error
/// (Connect): tcp connect error: Connection refused (os error 111)`), so the reason
/// reaches the log or the model, not only the outermost "error sending request".
impl fmt::Display for TransportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        let mut cause: Option<&(dyn std::error::Error + 'static)> =
            self.source.as_deref().map(|e| e as _);
        let mut last = String::new();
        while let Some(e) = cause {
            let text = e.to_string();
            // Some errors repeat their source's text in their own.
            if !text.is_empty() && !last.contains(&text) {
                write!(f, ": {text}")?;
            }
            last = text;
            cause = e.source();
        }
        Ok(())
    }
}

/// The causes are already in the message (see `Display`), so `source()` is `None`:
/// error reporters that walk the chain would print every cause twice. The underlying
/// error stays reachable through [`TransportError::cause`].
impl std::error::Error for TransportError {}

impl TransportError {
    /// The underlying error (e.g. reqwest's), for downcasting.
    pub fn cause(&self) -> Option<&(dyn std::error::Error + Send + Sync + 'static)> {
        self.source.as_deref()
    }
}
