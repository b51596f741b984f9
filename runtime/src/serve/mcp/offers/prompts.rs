//! Prompts a server offers (`prompts/list`, `prompts/get`): messages a client puts
//! before its model, filled in from the arguments its user gives.

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::Arc;

use serde_json::{Value, json};

use super::BoxFuture;
use super::content::Content;
use super::input::InputRequired;
use super::tools::Context;

/// Who a prompt message is from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    User,
    Assistant,
}

/// One message of a prompt.
#[derive(Debug, Clone, PartialEq)]
pub struct PromptMessage {
    pub role: Role,
    pub content: Content,
}

impl PromptMessage {
    pub fn user(content: Content) -> PromptMessage {
        PromptMessage {
            role: Role::User,
            content,
        }
    }

    pub fn assistant(content: Content) -> PromptMessage {
        PromptMessage {
            role: Role::Assistant,
            content,
        }
    }

    /// A message as MCP sends it, read back (`None` without a known role).
    pub fn from_json(message: &Value) -> Option<PromptMessage> {
        let role = match message.get("role")?.as_str()? {
            "user" => Role::User,
            "assistant" => Role::Assistant,
            _ => return None,
        };
        let content = Content::from_json(message.get("content")?);
        Some(PromptMessage { role, content })
    }

    fn to_json(&self) -> Value {
        let role = match self.role {
            Role::User => "user",
            Role::Assistant => "assistant",
        };
        json!({"role": role, "content": self.content.to_json()})
    }
}

/// An argument a prompt takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromptArgument {
    name: String,
    description: Option<String>,
    required: bool,
    /// What `completion/complete` offers for it.
    pub(super) values: Vec<String>,
}

impl PromptArgument {
    pub fn required(name: impl Into<String>, description: impl Into<String>) -> PromptArgument {
        PromptArgument {
            name: name.into(),
            description: Some(description.into()),
            required: true,
            values: Vec::new(),
        }
    }

    pub fn optional(name: impl Into<String>, description: impl Into<String>) -> PromptArgument {
        PromptArgument {
            required: false,
            ..PromptArgument::required(name, description)
        }
    }

    /// The values `completion/complete` offers for this argument.
    pub fn complete<I, S>(mut self, values: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.values = values.into_iter().map(Into::into).collect();
        self
    }

    pub(super) fn name(&self) -> &str {
        &self.name
    }
}

/// What a prompt that may ask for input answers.
#[derive(Debug, Clone, PartialEq)]
pub enum PromptReply {
    Messages(Vec<PromptMessage>),
    /// The client is asked first; the prompt is made again with its responses.
    InputRequired(InputRequired),
}

type Render = Arc<
    dyn Fn(BTreeMap<String, String>, Context) -> BoxFuture<'static, Result<PromptReply, String>>
        + Send
        + Sync,
>;

/// A prompt: its arguments, and how its messages are made from their values.
///
/// ```
/// use toolwright::serve::mcp::{Content, Prompt, PromptArgument, PromptMessage};
/// let triage = Prompt::new("triage", |args| async move {
///     let issue = &args["issue"];
///     Ok(vec![PromptMessage::user(Content::text(format!("Triage issue #{issue}")))])
/// })
/// .description("Triage one issue")
/// .argument(PromptArgument::required("issue", "The issue's number"));
/// ```
#[derive(Clone)]
pub struct Prompt {
    pub(super) name: String,
    title: Option<String>,
    description: Option<String>,
    pub(super) arguments: Vec<PromptArgument>,
    pub(super) render: Render,
}

impl std::fmt::Debug for Prompt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Prompt")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl Prompt {
    /// A prompt named `name` whose messages `render` makes from the arguments given
    /// (every required one is there: the server checks before calling it).
    pub fn new<F, Fut>(name: impl Into<String>, render: F) -> Prompt
    where
        F: Fn(BTreeMap<String, String>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Vec<PromptMessage>, String>> + Send + 'static,
    {
        let render = Arc::new(render);
        Prompt::asking(name, move |args, _| {
            let render = Arc::clone(&render);
            async move { render(args).await.map(PromptReply::Messages) }
        })
    }

    /// A prompt that may ask the client for input before its messages can be made
    /// ([`Context::response`] has the answers on the next round).
    pub fn asking<F, Fut>(name: impl Into<String>, render: F) -> Prompt
    where
        F: Fn(BTreeMap<String, String>, Context) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<PromptReply, String>> + Send + 'static,
    {
        Prompt {
            name: name.into(),
            title: None,
            description: None,
            arguments: Vec::new(),
            render: Arc::new(move |args, cx| Box::pin(render(args, cx))),
        }
    }

    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    pub fn argument(mut self, argument: PromptArgument) -> Self {
        self.arguments.push(argument);
        self
    }

    /// Its `prompts/list` entry.
    pub(super) fn entry(&self) -> Value {
        let mut entry = json!({"name": self.name});
        if let Some(title) = &self.title {
            entry["title"] = json!(title);
        }
        if let Some(description) = &self.description {
            entry["description"] = json!(description);
        }
        if !self.arguments.is_empty() {
            let arguments: Vec<Value> = self
                .arguments
                .iter()
                .map(|a| {
                    let mut arg = json!({"name": a.name, "required": a.required});
                    if let Some(d) = a.description.as_ref().filter(|d| !d.is_empty()) {
                        arg["description"] = json!(d);
                    }
                    arg
                })
                .collect();
            entry["arguments"] = json!(arguments);
        }
        entry
    }

    /// The arguments as strings, or what is wrong with them.
    pub(super) fn arguments_from(&self, given: &Value) -> Result<BTreeMap<String, String>, String> {
        let mut args = BTreeMap::new();
        if let Some(given) = given.as_object() {
            for (name, value) in given {
                let Some(value) = value.as_str() else {
                    return Err(format!("prompt argument `{name}` must be a string"));
                };
                args.insert(name.clone(), value.to_owned());
            }
        } else if !given.is_null() {
            return Err("`arguments` must be an object of strings".into());
        }
        let missing: Vec<&str> = self
            .arguments
            .iter()
            .filter(|a| a.required && !args.contains_key(&a.name))
            .map(|a| a.name.as_str())
            .collect();
        if !missing.is_empty() {
            return Err(format!(
                "prompt `{}` needs the argument{} `{}`",
                self.name,
                if missing.len() == 1 { "" } else { "s" },
                missing.join("`, `")
            ));
        }
        Ok(args)
    }

    pub(super) fn messages_json(messages: &[PromptMessage]) -> Value {
        Value::Array(messages.iter().map(PromptMessage::to_json).collect())
    }
}
