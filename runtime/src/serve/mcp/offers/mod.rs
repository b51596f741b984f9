//! What a server offers besides the catalog's tools: the service's own tools with rich
//! results ([`ServiceTool`]), resources ([`Document`], [`Template`]), prompts
//! ([`Prompt`]) and completions of their arguments. Each capability is declared only
//! when something is offered under it.

mod content;
mod documents;
mod input;
mod operations;
mod prompts;
mod tasks;
mod tools;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

use serde_json::{Map, Value, json};
use tokio::sync::mpsc::UnboundedSender;

pub use content::{Content, ResourceBody, ResourceContents};
pub use documents::{Document, Reading, Template};
pub(super) use input::Rounds;
pub use input::{InputRequest, InputRequired};
pub use prompts::{Prompt, PromptArgument, PromptMessage, PromptReply, Role};
#[cfg(feature = "code")]
pub(super) use tasks::declared as declares_tasks;
pub use tasks::{EXTENSION as TASKS_EXTENSION, TaskSupport};
pub(super) use tasks::{Inbox, Tasks};
pub use tools::{Context, LogLevel, ServiceTool, ToolOutput};

use super::codes;

type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Most values one `completion/complete` answer carries (the protocol's limit).
const MOST_COMPLETIONS: usize = 100;

/// The offers of one server (shared by its clones and views).
#[derive(Debug, Clone, Default)]
pub(super) struct Offers {
    /// Sorted by name, so `tools/list` stays in one order.
    tools: Vec<ServiceTool>,
    documents: Vec<Document>,
    templates: Vec<Template>,
    prompts: Vec<Prompt>,
    /// The tasks service tools run as (2026-07-28, the Tasks extension).
    tasks: Arc<tasks::Tasks>,
}

/// A result, or the JSON-RPC error object (`code`, `message`, `data`).
type Answered = Result<Value, Value>;

fn fail(code: i64, message: impl Into<String>) -> Value {
    json!({"code": code, "message": message.into()})
}

impl Offers {
    /// Adds (or replaces, by name) a tool.
    pub(super) fn add_tool(&mut self, tool: ServiceTool) {
        self.tools.retain(|t| t.name != tool.name);
        let at = self.tools.partition_point(|t| t.name < tool.name);
        self.tools.insert(at, tool);
    }

    /// Adds (or replaces, by URI) a document.
    pub(super) fn add_document(&mut self, document: Document) {
        self.documents.retain(|d| d.uri != document.uri);
        self.documents.push(document);
    }

    pub(super) fn add_template(&mut self, template: Template) {
        self.templates
            .retain(|t| t.template() != template.template());
        self.templates.push(template);
    }

    /// Adds the read-only operations `keep` chooses as resources and templates.
    pub(super) fn add_operations(
        &mut self,
        catalog: &crate::catalog::Catalog,
        executor: &Arc<std::sync::RwLock<crate::executor::Executor>>,
        keep: &dyn Fn(&crate::catalog::Tool) -> bool,
        result_budget: usize,
    ) {
        let (documents, templates) = operations::offered(catalog, executor, keep, result_budget);
        for document in documents {
            self.add_document(document);
        }
        for template in templates {
            self.add_template(template);
        }
    }

    /// Adds (or replaces, by name) a prompt.
    pub(super) fn add_prompt(&mut self, prompt: Prompt) {
        self.prompts.retain(|p| p.name != prompt.name);
        self.prompts.push(prompt);
    }

    /// The tasks of this server (service tools' and code-mode scripts').
    #[cfg_attr(not(feature = "code"), allow(dead_code))]
    pub(super) fn tasks(&self) -> &Arc<Tasks> {
        &self.tasks
    }

    pub(super) fn tool(&self, name: &str) -> Option<&ServiceTool> {
        self.tools.iter().find(|t| t.name == name)
    }

    /// The tools' `tools/list` entries as JSON text, by name.
    pub(super) fn tool_entries(&self) -> impl Iterator<Item = (&str, String)> {
        self.tools
            .iter()
            .map(|t| (t.name.as_str(), t.entry().to_string()))
    }

    /// Adds the capabilities of what is offered. `stateful`: a handshake-era client,
    /// which may subscribe and set a log level (2026-07-28 removed both).
    pub(super) fn capabilities(&self, into: &mut Map<String, Value>, stateful: bool) {
        if !self.documents.is_empty() || !self.templates.is_empty() {
            let mut resources = json!({"listChanged": false});
            if stateful {
                // Subscriptions are accepted; what is offered here does not change
                // while the server runs, so no update ever follows.
                resources["subscribe"] = json!(true);
            }
            into.insert("resources".into(), resources);
        }
        if !self.prompts.is_empty() {
            into.insert("prompts".into(), json!({"listChanged": false}));
        }
        if !self.prompts.is_empty() || !self.templates.is_empty() {
            into.insert("completions".into(), json!({}));
        }
        if stateful && !self.tools.is_empty() {
            into.insert("logging".into(), json!({}));
        }
        if !stateful && self.runs_tasks() {
            into.insert("extensions".into(), json!({ tasks::EXTENSION: {} }));
        }
    }

    /// The answer to `method` when it is one of these offers' (`None`: not theirs).
    pub(super) async fn answer(
        &self,
        method: &str,
        params: &Value,
        rounds: &Rounds,
        ttl_ms: Option<u64>,
        notify: Option<UnboundedSender<String>>,
        visible: &(dyn Fn(&str) -> bool + Sync),
    ) -> Option<Answered> {
        let stateful = ttl_ms.is_none();
        if let (
            "tasks/get" | "tasks/update" | "tasks/cancel",
            false,
            Rounds::Stateless {
                caller,
                capabilities,
                ..
            },
        ) = (method, stateful, rounds)
        {
            if !tasks::declared(capabilities) {
                return Some(Err(tasks::extension_required(&format!("`{method}`"))));
            }
            return Some(self.tasks.answer(method, params, caller.as_deref()));
        }
        if method == "tools/call" {
            let name = params.get("name").and_then(Value::as_str)?;
            let tool = self.tool(name)?;
            return Some(self.call(tool, params, notify, rounds, stateful).await);
        }
        let mut answered = self
            .answer_plain(method, params, stateful, rounds, visible)
            .await?;
        // 2026-07-28: lists and reads say how long a client may keep them. The lists
        // and fixed documents do not change while serving; other reads are made anew.
        if let (Some(ttl), Ok(Value::Object(result))) = (ttl_ms, &mut answered) {
            let cacheable = match method {
                "resources/list" | "resources/templates/list" | "prompts/list" => true,
                "resources/read" => self.fixed(params),
                _ => false,
            };
            if cacheable {
                // Lists of operations differ by the caller's view of the catalog.
                let scope = if self.reads_operations() && method != "prompts/list" {
                    "private"
                } else {
                    "public"
                };
                result.insert("ttlMs".into(), json!(ttl));
                result.insert("cacheScope".into(), json!(scope));
            } else if method == "resources/read" {
                result.insert("ttlMs".into(), json!(0));
                result.insert("cacheScope".into(), json!("private"));
            }
        }
        Some(answered)
    }

    /// Whether `params.uri` names a document whose contents never change.
    fn fixed(&self, params: &Value) -> bool {
        let uri = params.get("uri").and_then(Value::as_str);
        self.documents
            .iter()
            .any(|d| Some(d.uri.as_str()) == uri && d.fixed)
    }

    async fn answer_plain(
        &self,
        method: &str,
        params: &Value,
        stateful: bool,
        rounds: &Rounds,
        visible: &(dyn Fn(&str) -> bool + Sync),
    ) -> Option<Answered> {
        Some(match method {
            "resources/list" if self.has_resources() => Ok(json!({
                "resources": self.documents.iter()
                    .filter(|d| d.tool.as_deref().is_none_or(visible))
                    .map(Document::entry)
                    .collect::<Vec<_>>()
            })),
            "resources/templates/list" if self.has_resources() => Ok(json!({
                "resourceTemplates": self.templates.iter()
                    .filter(|t| t.tool.as_deref().is_none_or(visible))
                    .map(Template::entry)
                    .collect::<Vec<_>>()
            })),
            "resources/read" if self.has_resources() => self.read(params, visible).await,
            "resources/subscribe" | "resources/unsubscribe" if stateful && self.has_resources() => {
                self.known(params, visible).map(|_| json!({}))
            }
            "prompts/list" if !self.prompts.is_empty() => Ok(json!({
                "prompts": self.prompts.iter().map(Prompt::entry).collect::<Vec<_>>()
            })),
            "prompts/get" if !self.prompts.is_empty() => self.prompt(params, rounds).await,
            "completion/complete" if !self.prompts.is_empty() || !self.templates.is_empty() => {
                self.complete(params, visible)
            }
            "logging/setLevel" if stateful && !self.tools.is_empty() => {
                match params
                    .get("level")
                    .and_then(Value::as_str)
                    .and_then(LogLevel::parse)
                {
                    Some(level) => {
                        // The connection's (session's) own level; without one (a
                        // message handled alone) there is nothing to keep it for.
                        if let Rounds::Peer(peer) = rounds {
                            peer.log_level().store(level as u8, Ordering::Relaxed);
                        }
                        Ok(json!({}))
                    }
                    None => Err(fail(
                        codes::INVALID_PARAMS,
                        "`level` must be one of debug, info, notice, warning, error, critical, alert, emergency",
                    )),
                }
            }
            _ => return None,
        })
    }

    /// Runs a service tool, asking the client for the input it needs.
    async fn call(
        &self,
        tool: &ServiceTool,
        params: &Value,
        notify: Option<UnboundedSender<String>>,
        rounds: &Rounds,
        stateful: bool,
    ) -> Answered {
        let arguments = params.get("arguments").cloned().unwrap_or(json!({}));
        if !arguments.is_object() {
            return Ok(ToolOutput::error("`arguments` must be an object").to_json());
        }
        let log_level = if let Rounds::Peer(peer) = rounds {
            peer.log_level()
        } else if stateful {
            Arc::new(AtomicU8::new(LogLevel::Info as u8))
        } else {
            // 2026-07-28: only a request naming a level gets log messages.
            let asked = params
                .pointer("/_meta/io.modelcontextprotocol~1logLevel")
                .and_then(Value::as_str)
                .and_then(LogLevel::parse);
            Arc::new(AtomicU8::new(asked.map_or(u8::MAX, |l| l as u8)))
        };
        let token = params.pointer("/_meta/progressToken").cloned();
        let cx = Context::new(notify, token, log_level);
        let target = format!("tool:{}", tool.name);
        // A task when the client declared the extension (2026-07-28 only).
        let owner = match rounds {
            Rounds::Stateless {
                caller,
                capabilities,
                ..
            } if tasks::declared(capabilities) => Some(caller.clone()),
            _ => None,
        };
        if tool.task_support == TaskSupport::Required && owner.is_none() {
            let what = format!("`{}` runs only as a task: it", tool.name);
            return Err(tasks::extension_required(&what));
        }
        input::run(&target, params, rounds, cx, |cx| {
            let (handle, arguments) = (Arc::clone(&tool.handle), arguments.clone());
            let (tasks, owner) = (Arc::clone(&self.tasks), owner.clone());
            let supports = tool.task_support != TaskSupport::Forbidden;
            async move {
                let mut output = handle(arguments.clone(), cx.clone()).await;
                if output.as_task && supports {
                    let mut cx = cx;
                    if let Some(owner) = owner {
                        return match tasks.create(owner, handle, arguments, cx) {
                            Ok(created) => input::Step::Done(created),
                            Err(error) => input::Step::Failed(error),
                        };
                    }
                    // No task to go on in: the rest runs in the request.
                    cx.in_task = true;
                    output = handle(arguments, cx).await;
                }
                match (output.asks.clone(), output.failure.clone(), output.as_task) {
                    (_, Some(error), _) => input::Step::Failed(error),
                    (_, _, true) => input::Step::Failed(fail(
                        codes::INTERNAL_ERROR,
                        "a tool without task support asked to become a task",
                    )),
                    (Some(asks), _, _) => input::Step::Asks(asks),
                    (None, None, false) => input::Step::Done(output.to_json()),
                }
            }
        })
        .await
    }

    /// Whether calling `name` with `params` (2026-07-28) is refused before it runs: a
    /// task-only tool for a client without the Tasks extension.
    pub(super) fn refused_early(&self, name: &str, params: &Value) -> bool {
        let capabilities = params
            .pointer("/_meta/io.modelcontextprotocol~1clientCapabilities")
            .unwrap_or(&Value::Null);
        self.tool(name).is_some_and(|t| {
            t.task_support == TaskSupport::Required && !tasks::declared(capabilities)
        })
    }

    /// Whether some tool runs as a task.
    fn runs_tasks(&self) -> bool {
        self.tools
            .iter()
            .any(|t| t.task_support != TaskSupport::Forbidden)
    }

    /// Whether some resource reads through a catalog tool.
    fn reads_operations(&self) -> bool {
        self.documents.iter().any(|d| d.tool.is_some())
            || self.templates.iter().any(|t| t.tool.is_some())
    }

    fn has_resources(&self) -> bool {
        !self.documents.is_empty() || !self.templates.is_empty()
    }

    fn uri(params: &Value) -> Result<&str, Value> {
        params
            .get("uri")
            .and_then(Value::as_str)
            .ok_or_else(|| fail(codes::INVALID_PARAMS, "needs a `uri` (a string)"))
    }

    /// The document or template serving `params.uri`, with the variables' values.
    fn known(
        &self,
        params: &Value,
        visible: &(dyn Fn(&str) -> bool + Sync),
    ) -> Result<(Reading, &documents::Read), Value> {
        let uri = Self::uri(params)?;
        let reading = |params| Reading {
            uri: uri.to_owned(),
            params,
        };
        // What reads through a catalog tool the caller does not see is not there.
        let seen = |tool: &Option<String>| tool.as_deref().is_none_or(visible);
        if let Some(d) = self
            .documents
            .iter()
            .find(|d| d.uri == uri && seen(&d.tool))
        {
            return Ok((reading(Default::default()), &d.read));
        }
        self.templates
            .iter()
            .filter(|t| seen(&t.tool))
            .find_map(|t| t.matches(uri).map(|p| (reading(p), &t.read)))
            .ok_or_else(|| {
                // SEP-2164: the URI rides in the error's data.
                let mut e = fail(
                    codes::INVALID_PARAMS,
                    format!("resource not found: `{uri}`"),
                );
                e["data"] = json!({"uri": uri});
                e
            })
    }

    async fn read(&self, params: &Value, visible: &(dyn Fn(&str) -> bool + Sync)) -> Answered {
        let (reading, read) = self.known(params, visible)?;
        match read(reading).await {
            Ok(contents) if !contents.is_empty() => Ok(json!({
                "contents": contents.iter().map(ResourceContents::to_json).collect::<Vec<_>>()
            })),
            Ok(_) => Err(fail(codes::INVALID_PARAMS, "the resource has no contents")),
            Err(why) => Err(fail(codes::INTERNAL_ERROR, why)),
        }
    }

    async fn prompt(&self, params: &Value, rounds: &Rounds) -> Answered {
        let Some(name) = params.get("name").and_then(Value::as_str) else {
            return Err(fail(codes::INVALID_PARAMS, "`prompts/get` needs a `name`"));
        };
        let Some(prompt) = self.prompts.iter().find(|p| p.name == name) else {
            return Err(fail(
                codes::INVALID_PARAMS,
                format!("unknown prompt `{name}`"),
            ));
        };
        let args = prompt
            .arguments_from(params.get("arguments").unwrap_or(&Value::Null))
            .map_err(|why| fail(codes::INVALID_PARAMS, why))?;
        let cx = Context::new(None, None, Arc::new(AtomicU8::new(u8::MAX)));
        let target = format!("prompt:{name}");
        input::run(&target, params, rounds, cx, |cx| {
            let (render, args) = (Arc::clone(&prompt.render), args.clone());
            async move {
                match render(args, cx).await {
                    Ok(PromptReply::Messages(messages)) => {
                        input::Step::Done(json!({"messages": Prompt::messages_json(&messages)}))
                    }
                    Ok(PromptReply::InputRequired(asks)) => input::Step::Asks(asks),
                    Err(why) => input::Step::Failed(fail(codes::INTERNAL_ERROR, why)),
                }
            }
        })
        .await
    }

    /// `completion/complete`: the offered values of a prompt's or template's argument
    /// that start with what the user typed (case aside), then those containing it.
    fn complete(&self, params: &Value, visible: &(dyn Fn(&str) -> bool + Sync)) -> Answered {
        let bad = |why: &str| Err(fail(codes::INVALID_PARAMS, why.to_owned()));
        let Some(argument) = params.pointer("/argument/name").and_then(Value::as_str) else {
            return bad("`completion/complete` needs `argument.name`");
        };
        let typed = params
            .pointer("/argument/value")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_lowercase();
        let offered: &[String] = match params.pointer("/ref/type").and_then(Value::as_str) {
            Some("ref/prompt") => {
                let name = params
                    .pointer("/ref/name")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                let Some(prompt) = self.prompts.iter().find(|p| p.name == name) else {
                    return Err(fail(
                        codes::INVALID_PARAMS,
                        format!("unknown prompt `{name}`"),
                    ));
                };
                prompt
                    .arguments
                    .iter()
                    .find(|a| a.name() == argument)
                    .map_or(&[], |a| &a.values)
            }
            Some("ref/resource") => {
                let uri = params
                    .pointer("/ref/uri")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                let template = self
                    .templates
                    .iter()
                    .find(|t| t.template() == uri && t.tool.as_deref().is_none_or(visible));
                let Some(template) = template else {
                    return Err(fail(
                        codes::INVALID_PARAMS,
                        format!("unknown resource template `{uri}`"),
                    ));
                };
                template.values.get(argument).map_or(&[], Vec::as_slice)
            }
            _ => return bad("`ref.type` must be `ref/prompt` or `ref/resource`"),
        };
        let starting = offered
            .iter()
            .filter(|v| v.to_lowercase().starts_with(&typed));
        let containing = offered.iter().filter(|v| {
            let v = v.to_lowercase();
            !v.starts_with(&typed) && v.contains(&typed)
        });
        let all: Vec<&String> = starting.chain(containing).collect();
        let shown: Vec<&String> = all.iter().take(MOST_COMPLETIONS).copied().collect();
        Ok(json!({"completion": {
            "values": shown,
            "total": all.len(),
            "hasMore": all.len() > shown.len(),
        }}))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offers() -> Offers {
        let mut offers = Offers::default();
        offers.add_prompt(
            Prompt::new("p", |args| async move {
                Ok(vec![PromptMessage::user(Content::text(format!(
                    "hi {}",
                    args["who"]
                )))])
            })
            .argument(PromptArgument::required("who", "whom").complete(["Paris", "park", "Lyon"])),
        );
        offers.add_document(Document::text("a://doc", "doc", "text/plain", "body"));
        offers.add_template(Template::new("a://items/{id}", "item", |r| async move {
            Ok(vec![ResourceContents::text(
                r.uri,
                "text/plain",
                r.params["id"].clone(),
            )])
        }));
        offers
    }

    #[tokio::test]
    async fn reads_lists_and_prompts_answer_as_the_protocol_says() {
        let offers = offers();
        let read = |uri: &str| json!({"uri": uri});
        let doc = offers
            .answer_plain(
                "resources/read",
                &read("a://doc"),
                true,
                &Rounds::Nobody,
                &|_| true,
            )
            .await
            .unwrap();
        assert_eq!(doc.unwrap()["contents"][0]["text"], "body");
        let item = offers
            .answer_plain(
                "resources/read",
                &read("a://items/7"),
                true,
                &Rounds::Nobody,
                &|_| true,
            )
            .await
            .unwrap();
        assert_eq!(item.unwrap()["contents"][0]["text"], "7");
        let missing = offers
            .answer_plain(
                "resources/read",
                &read("a://nope"),
                true,
                &Rounds::Nobody,
                &|_| true,
            )
            .await
            .unwrap();
        assert_eq!(missing.unwrap_err()["data"]["uri"], "a://nope");
        let got = offers
            .answer_plain(
                "prompts/get",
                &json!({"name": "p", "arguments": {"who": "you"}}),
                true,
                &Rounds::Nobody,
                &|_| true,
            )
            .await
            .unwrap()
            .unwrap();
        assert_eq!(got["messages"][0]["content"]["text"], "hi you");
        let short = offers
            .answer_plain(
                "prompts/get",
                &json!({"name": "p"}),
                true,
                &Rounds::Nobody,
                &|_| true,
            )
            .await
            .unwrap();
        assert!(
            short.unwrap_err()["message"]
                .as_str()
                .unwrap()
                .contains("`who`")
        );
        // Not offered: not answered here (the server says the method is unknown).
        assert!(
            offers
                .answer_plain(
                    "logging/setLevel",
                    &json!({"level": "info"}),
                    true,
                    &Rounds::Nobody,
                    &|_| true
                )
                .await
                .is_none()
        );
        assert!(
            offers
                .answer_plain(
                    "resources/subscribe",
                    &read("a://doc"),
                    false,
                    &Rounds::Nobody,
                    &|_| true
                )
                .await
                .is_none()
        );
    }

    #[test]
    fn completions_put_prefixes_first_then_what_contains_the_text() {
        let offers = offers();
        let ask = |value: &str| {
            offers
                .complete(
                    &json!({"ref": {"type": "ref/prompt", "name": "p"},
                            "argument": {"name": "who", "value": value}}),
                    &|_| true,
                )
                .unwrap()
        };
        assert_eq!(ask("par")["completion"]["values"], json!(["Paris", "park"]));
        assert_eq!(ask("y")["completion"]["values"], json!(["Lyon"]));
        assert_eq!(ask("")["completion"]["total"], 3);
    }
}
