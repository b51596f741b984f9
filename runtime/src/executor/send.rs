//! The one send path: the request built from checked arguments, with the limits and
//! permissions it carries to the transport; credentials, one new token after a 401;
//! the status checked and the body read as JSON. GraphQL fields go as one POST of
//! `{query, variables}`; tools of MCP APIs through their server.

use serde_json::{Map, Value};

#[cfg(feature = "mcp-client")]
use super::builder::McpServer;
use super::response::{decode_body, status_error};
use super::{Executor, Found, Reply};
use crate::descriptor::{BodyEncoding, Operation, Param, ParamLocation, ParamStyle, ValueKind};
use crate::error::{Error, TransportError, TransportKind};
#[cfg(feature = "tracing")]
use crate::transport::Attempts;
use crate::transport::{CallPolicy, ResponseFuture};
#[cfg(feature = "mcp-client")]
use crate::transport::{mcp_client, mcp_http};
use crate::{auth, graphql, request, shorten};

/// What a GraphQL call puts on the wire: the document and its variables, as the JSON
/// body's two properties.
static GRAPHQL_PARAMS: [Param; 2] = [
    graphql_param("query", ValueKind::String),
    graphql_param("variables", ValueKind::Object),
];

const fn graphql_param(name: &'static str, kind: ValueKind) -> Param {
    Param {
        field: std::borrow::Cow::Borrowed(name),
        wire_name: std::borrow::Cow::Borrowed(name),
        location: ParamLocation::Body,
        required: true,
        kind,
        style: ParamStyle::Form,
        explode: false,
        allow_reserved: false,
        content_type: None,
    }
}

impl Executor {
    /// A request other than `tools/call` (`prompts/get`, `resources/read`) to the MCP
    /// server of `api` (an API read from a saved MCP server), with this executor's
    /// timeout: what an MCP server serving its tools proxies of its prompts and
    /// resources.
    ///
    /// # Errors
    /// No server was given for `api`, or it fails, answers an error or times out.
    #[cfg(feature = "mcp-client")]
    pub async fn mcp_request(
        &self,
        api: &str,
        method: &str,
        params: Value,
    ) -> Result<Value, TransportError> {
        match self.inner.mcp.get(api) {
            Some(super::builder::McpServer::Stdio(server)) => {
                server.request(method, params, self.policy.timeout).await
            }
            Some(super::builder::McpServer::Http(server)) => {
                server
                    .request(&*self.inner.transport, method, params, self.policy)
                    .await
            }
            None => Err(TransportError::new(format!(
                "`{method}` goes to MCP server `{api}`, which this service was not given: `--mcp-server {api}=COMMAND|URL` in the CLI, `.mcp_stdio(..)`/`.mcp_http(..)` on the executor"
            ))
            .kind_of(TransportKind::Connect)),
        }
    }

    /// A tool of an MCP API: `tools/call` through the server the service gave for it.
    async fn mcp(
        &self,
        op: &Operation,
        request: http::Request<Vec<u8>>,
    ) -> Result<http::Response<Vec<u8>>, TransportError> {
        let tool = op.path.strip_prefix("/tools/").unwrap_or(&op.path);
        #[cfg(feature = "mcp-client")]
        match self.inner.mcp.get(op.api.as_ref()) {
            Some(McpServer::Stdio(server)) => {
                return mcp_client::send(server, tool, request).await;
            }
            Some(McpServer::Http(server)) => {
                return mcp_http::send(server, &*self.inner.transport, tool, request).await;
            }
            None => {}
        }
        drop(request);
        Err(TransportError::new(format!(
            "`{}` is a tool of MCP server `{}`: give the executor its server with `.mcp_stdio(\"{}\", program, args)` or `.mcp_http(..)` (feature `mcp-client`), or `--mcp-server {}=COMMAND|URL` in the CLI",
            tool, op.api, op.api, op.api
        ))
        .kind_of(TransportKind::Connect))
    }

    /// Sends `op` (the operation as sent: a media type chosen) with checked `args`;
    /// to `target` (a next-page URL on the API's origin) instead of the URL `args`
    /// make, when given. The one send path under every call form but streams.
    pub(super) async fn send(
        &self,
        op: &Operation,
        found: Option<Found<'_>>,
        args: &Map<String, Value>,
        target: Option<&str>,
    ) -> Result<Reply, Error> {
        refuse_workflow(op)?;
        let Some(call) = &op.graphql else {
            return self.send_http(op, found, args, target).await;
        };
        // A GraphQL field: one POST of `{query, variables}`, answered with `data`.
        let (api, _) = self.api(&op.api)?;
        let types = self
            .inner
            .graphql_types
            .get(api.name.as_ref())
            .and_then(|slot| {
                let text = api.graphql.as_deref()?;
                Some(slot.get_or_init(|| graphql::TypeTable::parse(text)))
            });
        let body = graphql::body(call, types, args).map_err(|message| Error::InvalidArguments {
            tool: op.name.to_string(),
            message,
        })?;
        // What goes on the wire: the same call, its body the document and variables.
        let wire = Operation {
            name: op.name.clone(),
            api: op.api.clone(),
            method: op.method,
            path: op.path.clone(),
            params: std::borrow::Cow::Borrowed(&GRAPHQL_PARAMS),
            body: BodyEncoding::Json,
            content_type: std::borrow::Cow::Borrowed("application/json"),
            body_required: true,
            security: op.security.clone(),
            wrap_output: op.wrap_output,
            json_response: op.json_response,
            graphql: None,
            workflow: None,
        };
        let mut reply = self.send_http(&wire, found, &body, target).await?;
        reply.body = graphql::outcome(call, &op.name, std::mem::take(&mut reply.body))?;
        Ok(reply)
    }

    /// Sends `op` over HTTP (or its MCP server) as described.
    async fn send_http(
        &self,
        op: &Operation,
        found: Option<Found<'_>>,
        args: &Map<String, Value>,
        target: Option<&str>,
    ) -> Result<Reply, Error> {
        let (api, base_url) = self.api(&op.api)?;
        let (credentials, token) = self.credentials(api, op, base_url, None).await?;
        let request = self.request(op, found, base_url, args, credentials, target)?;
        let mut response = if base_url.starts_with("mcp://") {
            traced(op, Box::pin(self.mcp(op, request))).await
        } else {
            traced(op, self.inner.transport.send(request)).await
        }
        .map_err(Error::Transport)?;
        if response.status() == http::StatusCode::UNAUTHORIZED
            && let Some(rejected) = token
        {
            // The API no longer takes the cached token (revoked, rotated, expired
            // early): one new token, one more try. A 401 means nothing was done.
            let (credentials, _) = self.credentials(api, op, base_url, Some(&rejected)).await?;
            let request = self.request(op, found, base_url, args, credentials, target)?;
            response = traced(op, self.inner.transport.send(request))
                .await
                .map_err(Error::Transport)?;
        }
        let status = response.status();
        let content_type = response
            .headers()
            .get(http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        let bytes = response.body();
        let body = decode_body(content_type, bytes);
        if status.is_success() {
            // A JSON response (as the description or the server says) that does not
            // parse is a failure, not a string result.
            let says_json = content_type
                .as_bytes()
                .windows(4)
                .any(|w| w.eq_ignore_ascii_case(b"json"));
            if (op.json_response || says_json)
                && body.is_string()
                && serde_json::from_slice::<Value>(bytes).is_err()
            {
                return Err(Error::Decode {
                    tool: op.name.to_string(),
                    message: format!(
                        "HTTP {} with content type `{}` is not JSON: {}",
                        status.as_u16(),
                        if content_type.is_empty() {
                            "(none)"
                        } else {
                            content_type
                        },
                        shorten::prefix(&String::from_utf8_lossy(bytes), 200)
                    ),
                });
            }
            Ok(Reply {
                status: status.as_u16(),
                headers: std::mem::take(response.headers_mut()),
                body,
            })
        } else {
            Err(status_error(op, status, response.headers(), body))
        }
    }

    /// `op`'s request, with the limits and permissions it carries to the transport.
    pub(super) fn request(
        &self,
        op: &Operation,
        found: Option<Found<'_>>,
        base_url: &str,
        args: &Map<String, Value>,
        credentials: Vec<auth::Applied>,
        target: Option<&str>,
    ) -> Result<http::Request<Vec<u8>>, Error> {
        let mut request =
            request::build(op, base_url, args, credentials, target).map_err(|message| {
                Error::Request {
                    tool: op.name.to_string(),
                    message,
                }
            })?;
        let idempotent = found.map_or(op.method.is_safe(), |f| f.tool.annotations.idempotent);
        let policy = CallPolicy {
            idempotent,
            ..self.policy
        };
        // Transports read a missing policy as the method's default (`CallPolicy::of`).
        if policy != CallPolicy::for_method(request.method()) {
            request.extensions_mut().insert(policy);
        }
        if let Some(target) = found.and_then(|f| f.state.target.as_ref()) {
            request.extensions_mut().insert(target.clone());
        }
        if let Some(received) = &self.received {
            request.extensions_mut().insert(received.clone());
        }
        Ok(request)
    }
}

/// The transport's answer, inside a `toolwright.call` span (feature `tracing`): tool,
/// API, method and path template, then status, attempts and duration. Never argument
/// values, URLs with their queries, or credentials.
#[cfg(feature = "tracing")]
async fn traced(
    op: &Operation,
    send: ResponseFuture<'_>,
) -> Result<http::Response<Vec<u8>>, TransportError> {
    use tracing::Instrument;
    let span = tracing::info_span!(
        "toolwright.call",
        tool = %op.name,
        api = %op.api,
        method = op.method.as_str(),
        path = %op.path,
        status = tracing::field::Empty,
        attempts = tracing::field::Empty,
        duration_ms = tracing::field::Empty,
        error = tracing::field::Empty,
    );
    // No subscriber wants it (none installed, or filtered out): no clock, no records.
    if span.is_disabled() {
        return send.await;
    }
    let started = std::time::Instant::now();
    let outcome = send.instrument(span.clone()).await;
    span.record("duration_ms", started.elapsed().as_secs_f64() * 1e3);
    match &outcome {
        Ok(response) => {
            span.record("status", response.status().as_u16());
            let attempts = response.extensions().get::<Attempts>();
            span.record("attempts", attempts.map_or(1, |a| a.0));
        }
        Err(e) => {
            span.record("error", e.code());
        }
    }
    outcome
}

#[cfg(not(feature = "tracing"))]
async fn traced(
    _: &Operation,
    send: ResponseFuture<'_>,
) -> Result<http::Response<Vec<u8>>, TransportError> {
    send.await
}

/// A workflow tool has no request of its own: its steps are sent, each as its own
/// tool (`call`, `call_as` and typed calls run it). Any other way of sending it — a
/// stream, pages — is refused before credentials are looked at.
pub(super) fn refuse_workflow(op: &Operation) -> Result<(), Error> {
    match op.workflow {
        None => Ok(()),
        Some(_) => Err(Error::Request {
            tool: op.name.to_string(),
            message: "an Arazzo workflow sends no request of its own: call it with `call` \
                      (or its typed method), which runs its steps"
                .to_owned(),
        }),
    }
}
