//! The one generic executor. Typed client methods and call-by-name both end here:
//! descriptor + JSON arguments -> request -> transport -> status check -> JSON.
//!
//! Every call form finds its tool once (`state::Found`: the tool and everything a
//! call of it needs, worked out at `build()`), checks its arguments, passes the gate
//! when a model made it, then `send`s — or
//! `open`s, for answers read as they arrive.
//!
//! | module | job |
//! |---|---|
//! | `builder` | configuration and `build()` |
//! | `state` | the per-tool table |
//! | `gate` | the approval policy on by-name calls |
//! | `send` | request, transport, status: the one send path |
//! | `credentials` | what authenticates a request |
//! | `response` | answers and errors as JSON |
//! | `streaming`, `paging` | calls across a stream or pages |
//! | `meta` | the meta-tools (`search_tools`, ...) |

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use crate::auth::{self, CredentialSource};
use crate::catalog::Catalog;
use crate::descriptor::Operation;
use crate::error::Error;
use crate::resource::{ErrorKind, Handler, Verb};
use crate::transport::{CallPolicy, Transport};
use crate::validate;

mod builder;
mod call;
mod credentials;
mod gate;
mod meta;
mod paging;
mod response;
mod send;
mod state;
mod streaming;
mod workflow;

pub use builder::ExecutorBuilder;
pub use call::Call;
pub use response::decode;
use response::{is_bytes, media_type};
use state::{Found, ToolState};

/// A by-name call's result.
pub(crate) struct Answer {
    /// The structured result.
    pub value: Value,
    /// The result is bytes (base64 text, maybe wrapped in `{"result": ...}`) of this
    /// media type (an MCP server sends them as content blocks of that type).
    #[cfg_attr(not(feature = "mcp"), allow(dead_code))]
    pub bytes_of: Option<String>,
}

impl Answer {
    fn value(value: Value) -> Answer {
        Answer {
            value,
            bytes_of: None,
        }
    }
}

/// A success response, as the executor hands it on.
pub(crate) struct Reply {
    pub status: u16,
    pub headers: http::HeaderMap,
    pub body: Value,
}

/// Runs the tools of a [`Catalog`]. Cheap to clone (shared state behind an `Arc`).
///
/// The catalog usually comes from `toolwright-codegen` (`catalog()` in the generated
/// `toolwright.rs`); here it is empty and a service's own resource answers the call:
///
/// ```
/// use serde::{Deserialize, Serialize};
/// use toolwright::{Catalog, Executor, Resource, ToolSchema, resource::ResourceError};
///
/// /// A city.
/// #[derive(Clone, ToolSchema, Serialize, Deserialize)]
/// #[tool(resource(get))]
/// struct City {
///     /// Its name.
///     #[tool(primary_key)]
///     name: String,
///     /// Inhabitants.
///     population: u32,
/// }
///
/// /// The service's own store of cities.
/// struct Cities;
///
/// impl Resource for Cities {
///     type Record = City;
///     async fn get(&self, name: String) -> Result<City, ResourceError> {
///         Ok(City { name, population: 1_000 })
///     }
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let executor = Executor::builder(Catalog::empty()).resource(Cities).build()?;
/// // By name, with JSON arguments, as a model sends them:
/// let city = executor.call("get_City", serde_json::json!({"name": "Lyon"})).await?;
/// assert_eq!(city["population"], 1000);
/// // A model's mistake is refused before anything runs, naming the argument:
/// let error = executor.call("get_City", serde_json::json!({})).await.unwrap_err();
/// assert_eq!(error.code(), "VALIDATION_ARGUMENTS");
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct Executor {
    inner: Arc<Inner>,
    /// Limits every call carries to the transport (see [`Executor::with_timeout`]).
    policy: CallPolicy,
    /// Where the transport counts the bytes of answers as they arrive (an MCP call
    /// whose client asked for progress).
    received: Option<Arc<crate::transport::Received>>,
}

struct Inner {
    catalog: Catalog,
    /// What a call of each tool needs, indexed like the catalog's tools.
    tools: Vec<ToolState>,
    transport: Arc<dyn Transport>,
    base_urls: BTreeMap<String, String>,
    credentials: CredentialSource,
    /// OAuth 2 tokens fetched for client credentials schemes.
    tokens: auth::oauth::Tokens,
    /// Token endpoints set by the service, by API name (else the scheme's own).
    token_urls: BTreeMap<String, String>,
    /// APIs called on the MCP caller's behalf instead of with the service's
    /// credentials: with the caller's own token, or one exchanged for it.
    pass_through: BTreeMap<String, auth::CallerCredential>,
    gate: crate::gate::Policy,
    /// Set by [`ExecutorBuilder::gate`]: every call is shown to the policy.
    custom_gate: bool,
    /// Each API's declared trust level (`trust.level`), by API name.
    trust: BTreeMap<String, String>,
    approver: Option<crate::gate::Approver>,
    /// The last ranker of searches, when the service brought one.
    reranker: Option<Arc<dyn crate::catalog::Reranker>>,
    /// MCP servers answering the tools of `mcp://` APIs, by API name.
    #[cfg(feature = "mcp-client")]
    mcp: BTreeMap<String, builder::McpServer>,
    /// Each GraphQL API's output types, read on the first `selection` argument.
    graphql_types: BTreeMap<String, std::sync::OnceLock<crate::graphql::TypeTable>>,
    /// Limits of streamed answers.
    streams: streaming::Limits,
}

impl fmt::Debug for Executor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Executor")
            .field("tools", &self.inner.catalog.tools().len())
            .field("base_urls", &self.inner.base_urls)
            .finish_non_exhaustive()
    }
}

/// A typed call past its checks.
struct Typed<'a> {
    /// The operation as sent (with the media type the service chose).
    op: &'a Operation,
    /// Its tool, when the catalog has one of that name (a typed client may be given
    /// an executor for another catalog: then the call goes as its descriptor says).
    found: Option<Found<'a>>,
    args: Map<String, Value>,
}

impl Executor {
    /// This executor with another total time per call (sharing everything else):
    /// `executor.with_timeout(Duration::from_secs(5)).call(...)`.
    pub fn with_timeout(&self, timeout: std::time::Duration) -> Executor {
        let mut out = self.clone();
        out.policy.timeout = timeout;
        out
    }

    /// This executor, its transport counting the bytes of answers into `received`.
    #[cfg(feature = "mcp")]
    pub(crate) fn counting(&self, received: Arc<crate::transport::Received>) -> Executor {
        let mut out = self.clone();
        out.received = Some(received);
        out
    }

    /// The transport requests go through (the MCP endpoint fetches the token
    /// issuer's keys with it).
    #[cfg(feature = "mcp-http")]
    pub(crate) fn transport(&self) -> &Arc<dyn Transport> {
        &self.inner.transport
    }

    /// The catalog this executor runs.
    pub fn catalog(&self) -> &Catalog {
        &self.inner.catalog
    }

    /// The `k` tools that best match `query`, best first: [`Catalog::search`], or
    /// [`Catalog::search_reranked`] with the reranker the builder was given
    /// ([`ExecutorBuilder::reranker`]).
    pub async fn search(&self, query: &str, k: usize) -> Vec<crate::catalog::SearchHit<'_>> {
        match &self.inner.reranker {
            Some(reranker) => {
                self.inner
                    .catalog
                    .search_reranked(query, k, reranker.as_ref())
                    .await
            }
            None => self.inner.catalog.search(query, k),
        }
    }

    /// Calls a tool by the name and with the argument keys of an [export](crate::export)
    /// (what a model saw: shortened names, provider-safe keys, `null` for left-out
    /// arguments in strict schemas), translated back through its mapping.
    pub async fn call_exported(
        &self,
        mapping: &crate::export::Mapping,
        name: &str,
        args: Value,
    ) -> Result<Value, Error> {
        let (tool, args) = mapping.translate(name, args);
        self.call(tool, args).await
    }

    /// Calls a tool by name with JSON arguments, as an LLM sends them. Returns the
    /// Calls a tool by name with JSON arguments, as an LLM sends them. Returns the
    /// structured result, shaped like the tool's `outputSchema`.
    pub async fn call(&self, name: &str, args: Value) -> Result<Value, Error> {
        self.call_answering(name, args, false)
            .await
            .map(|answer| answer.value)
    }

    /// [`call`](Executor::call), saying also when the result is bytes (base64 text)
    /// and of which media type (an MCP server sends images and audio as such).
    /// `approved`: the caller obtained approval for this very call (an MCP client's
    /// elicitation), so a `Confirm` verdict lets it run (a `Deny` still does not).
    pub(crate) async fn call_answering(
        &self,
        name: &str,
        args: Value,
        approved: bool,
    ) -> Result<Answer, Error> {
        let found = self.find(name)?;
        if let Some((handler, verb)) = &found.state.handler {
            return self.answer_locally(name, handler, *verb, args).await;
        }
        let args = self.admitted(found, args, approved).await?;
        if let Some(plan) = self.workflow_of(found) {
            let gate = workflow::Gate::ByName { approved };
            let outputs = self.run_workflow(found, plan?, args, gate).await?;
            return Ok(Answer::value(outputs));
        }
        let op = found.operation();
        if let Some(form) = found.state.stream {
            let collected = self.collect_stream(op, Some(found), &args, form).await?;
            return Ok(Answer::value(collected));
        }
        let reply = self.send(op, Some(found), &args, None).await?;
        // Only a string result can be bytes: JSON answers skip the header.
        let media = reply
            .body
            .is_string()
            .then(|| reply.headers.get(http::header::CONTENT_TYPE)?.to_str().ok())
            .flatten()
            .map(media_type)
            .filter(|m| is_bytes(m))
            .map(str::to_ascii_lowercase);
        Ok(Answer {
            value: wrapped(op, reply.body),
            bytes_of: media,
        })
    }

    /// A call of one of the service's own resources, answered by its handler (which
    /// reads the arguments into the record type: its own check).
    async fn answer_locally(
        &self,
        name: &str,
        handler: &Arc<dyn Handler>,
        verb: Verb,
        args: Value,
    ) -> Result<Answer, Error> {
        let args = match args {
            Value::Null => Map::new(),
            Value::Object(args) => args,
            _ => {
                return Err(Error::InvalidArguments {
                    tool: name.to_owned(),
                    message: "expected a JSON object of arguments".into(),
                });
            }
        };
        handler
            .call(verb, args)
            .await
            .map(Answer::value)
            .map_err(|error| match error.kind {
                ErrorKind::Invalid => Error::InvalidArguments {
                    tool: name.to_owned(),
                    message: error.message,
                },
                _ => Error::Resource {
                    tool: name.to_owned(),
                    error,
                },
            })
    }

    /// The tool named `name` and its state, or an error suggesting the closest name.
    fn find(&self, name: &str) -> Result<Found<'_>, Error> {
        self.lookup(name).ok_or_else(|| Error::UnknownTool {
            name: name.to_owned(),
            suggestion: self.inner.catalog.suggest(name).map(str::to_owned),
        })
    }

    /// The tool named `name` and its state, when the catalog has it.
    fn lookup(&self, name: &str) -> Option<Found<'_>> {
        let index = self.inner.catalog.index_of(name)?;
        Some(Found {
            tool: &self.inner.catalog.tools()[index],
            state: &self.inner.tools[index],
        })
    }

    /// API `api` and its base URL (the service's override, else the description's).
    fn api(&self, api: &str) -> Result<(&crate::descriptor::Api, &str), Error> {
        let found = self
            .inner
            .catalog
            .api(api)
            .ok_or_else(|| Error::UnknownApi {
                name: api.to_owned(),
            })?;
        let base_url = self
            .inner
            .base_urls
            .get(api)
            .map_or(&*found.base_url, |u| u);
        Ok((found, base_url))
    }

    /// Checks `args` against the tool's input schema (compiled on the tool's first call).
    fn check(&self, found: Found<'_>, args: &Value) -> Result<(), validate::ArgumentError> {
        let compile = || {
            let tool = found.tool;
            let schema: Value =
                serde_json::from_str(&tool.input_schema).unwrap_or(Value::Bool(true));
            let api = self.inner.catalog.api(&tool.operation.api);
            let definition = |name: &str| {
                let defs = &api?.definitions;
                defs.iter()
                    .find(|d| d.name == name)
                    .and_then(|d| serde_json::from_str(&d.input).ok())
            };
            validate::SchemaCheck::compile(&schema, &definition)
        };
        found.state.check.get_or_init(compile).check(args)
    }

    /// Validates a by-name call's JSON arguments against the tool's input schema:
    /// the one check for generated and interpreted tools alike.
    fn checked_arguments(
        &self,
        found: Found<'_>,
        args: Value,
    ) -> Result<Map<String, Value>, Error> {
        let args = if args.is_null() { json!({}) } else { args };
        let invalid = |e: validate::ArgumentError| Error::InvalidArguments {
            tool: found.tool.name.to_string(),
            message: e.to_string(),
        };
        validate::require_object(&args).map_err(invalid)?;
        self.check(found, &args).map_err(invalid)?;
        match args {
            Value::Object(args) => Ok(args),
            _ => Err(Error::InvalidArguments {
                tool: found.tool.name.to_string(),
                message: "expected a JSON object of arguments".into(),
            }),
        }
    }

    /// A by-name call's arguments, checked and past the gate (`approved`: see
    /// [`call_answering`](Executor::call_answering)).
    async fn admitted(
        &self,
        found: Found<'_>,
        args: Value,
        approved: bool,
    ) -> Result<Map<String, Value>, Error> {
        let args = self.checked_arguments(found, args)?;
        if !approved {
            self.admit(found, &args).await?;
        } else if let Some(crate::gate::Verdict::Deny(reason)) = self.judge(found, &args) {
            return Err(Error::Denied {
                tool: found.tool.name.to_string(),
                reason,
            });
        }
        Ok(args)
    }

    /// Like [`call`](Executor::call), sending the request body as `media_type` (one of
    /// the tool's [`request_media_types`](crate::catalog::Tool::request_media_types)).
    pub async fn call_as(&self, name: &str, args: Value, media_type: &str) -> Result<Value, Error> {
        let found = self.find(name)?;
        // A workflow sends no body of its own: its steps go as their tools say.
        if found.state.workflow.is_some() {
            return self.call(name, args).await;
        }
        let op =
            found
                .tool
                .with_media_type(media_type)
                .map_err(|message| Error::InvalidArguments {
                    tool: name.to_owned(),
                    message,
                })?;
        let args = self.admitted(found, args, false).await?;
        let body = self.send(&op, Some(found), &args, None).await?.body;
        Ok(wrapped(&op, body))
    }

    /// Runs `op` with a typed input; awaiting the [`Call`] decodes the response into
    /// `O`. This is what generated client methods call. The input is checked and
    /// serialized here, when the call is made; the request is sent when the call is
    /// awaited.
    pub fn execute<'a, I: Serialize, O: DeserializeOwned>(
        &'a self,
        op: &'a Operation,
        input: &I,
    ) -> Call<'a, O> {
        match self.typed(op, input) {
            Ok(call) => Call::sending(
                op,
                Box::pin(async move {
                    if let Some((found, plan)) = self.typed_workflow(&call) {
                        return self
                            .run_workflow(found, plan?, call.args, workflow::Gate::Typed)
                            .await;
                    }
                    let reply = self.send(call.op, call.found, &call.args, None).await?;
                    Ok(reply.body)
                }),
            ),
            Err(refused) => Call::refused(op, refused),
        }
    }

    /// Runs `op` with a typed input; returns the success status and the body as JSON.
    /// Generated methods whose successes differ by status use it to pick a variant.
    pub async fn execute_raw<I: Serialize>(
        &self,
        op: &Operation,
        input: &I,
    ) -> Result<(u16, Value), Error> {
        let call = self.typed(op, input)?;
        if let Some((found, plan)) = self.typed_workflow(&call) {
            let outputs = self
                .run_workflow(found, plan?, call.args, workflow::Gate::Typed)
                .await?;
            return Ok((200, outputs));
        }
        let reply = self.send(call.op, call.found, &call.args, None).await?;
        Ok((reply.status, reply.body))
    }

    /// The workflow a typed call runs, when its tool is one.
    #[allow(clippy::type_complexity)]
    fn typed_workflow<'a>(
        &self,
        call: &Typed<'a>,
    ) -> Option<(Found<'a>, Result<Arc<crate::workflow::Plan>, Error>)> {
        let found = call.found?;
        Some((found, self.workflow_of(found)?))
    }

    /// A typed input as checked JSON arguments, with the operation as sent.
    fn typed<'a, I: Serialize>(&'a self, op: &'a Operation, input: &I) -> Result<Typed<'a>, Error> {
        let not_an_object = || Error::InvalidArguments {
            tool: op.name.to_string(),
            message: "the input did not serialize to a JSON object".into(),
        };
        let args = serde_json::to_value(input).map_err(|_| not_an_object())?;
        let found = self.lookup(&op.name);
        // A struct built by hand can break constraints its type cannot express
        // (ranges, patterns, lengths): the same check as a by-name call.
        if let Some(found) = found {
            self.check(found, &args)
                .map_err(|e| Error::InvalidArguments {
                    tool: op.name.to_string(),
                    message: e.to_string(),
                })?;
        }
        let Value::Object(args) = args else {
            return Err(not_an_object());
        };
        Ok(Typed {
            op: found.map_or(op, Found::operation),
            found,
            args,
        })
    }
}

/// A result as the tool's output schema has it: wrapped in `{"result": ...}` when
/// the answer is not an object.
fn wrapped(op: &Operation, body: Value) -> Value {
    if op.wrap_output {
        json!({ "result": body })
    } else {
        body
    }
}
