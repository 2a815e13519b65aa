//! Prompts: message templates a plugin offers users through their client
//! (MCP `prompts/list`, `prompts/get`, and completion of their arguments).

use std::{future::Future, pin::Pin, sync::Arc};

use serde::Serialize;
use serde_json::{Map, Value};

use crate::{Content, ToolError};

/// One argument a prompt takes.
#[derive(Debug, Clone, Serialize)]
pub struct PromptArgument {
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<String>,
    required: bool,
}

impl PromptArgument {
    /// An argument the user must supply.
    pub fn required(name: impl Into<String>, description: impl Into<String>) -> Self {
        Self { name: name.into(), description: Some(description.into()), required: true }
    }

    /// An argument the user may leave out.
    pub fn optional(name: impl Into<String>, description: impl Into<String>) -> Self {
        Self { name: name.into(), description: Some(description.into()), required: false }
    }
}

/// A prompt's description, as clients see it in `prompts/list`.
#[derive(Debug, Clone, Serialize)]
pub struct PromptSpec {
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    arguments: Vec<PromptArgument>,
}

impl PromptSpec {
    /// A prompt with a name (unique in the host) and a description.
    pub fn new(name: impl Into<String>, description: impl Into<String>) -> Self {
        Self { name: name.into(), title: None, description: Some(description.into()), arguments: Vec::new() }
    }

    /// A short human-readable name for user interfaces.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Adds an argument.
    pub fn argument(mut self, argument: PromptArgument) -> Self {
        self.arguments.push(argument);
        self
    }

    /// The prompt's name.
    pub fn name(&self) -> &str {
        &self.name
    }
}

/// Who speaks a prompt message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The user.
    User,
    /// The model.
    Assistant,
}

/// One message of a prompt.
#[derive(Debug, Clone, Serialize)]
pub struct PromptMessage {
    /// Who speaks it.
    pub role: Role,
    /// What is said.
    pub content: Content,
}

impl PromptMessage {
    /// A message from the user.
    pub fn user(content: Content) -> Self {
        Self { role: Role::User, content }
    }

    /// A message from the model.
    pub fn assistant(content: Content) -> Self {
        Self { role: Role::Assistant, content }
    }
}

/// What `prompts/get` returns.
#[derive(Debug, Clone, Serialize)]
pub struct PromptResult {
    /// A description of this rendering of the prompt.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The messages.
    pub messages: Vec<PromptMessage>,
}

impl PromptResult {
    /// A result made of `messages`.
    pub fn new(messages: Vec<PromptMessage>) -> Self {
        Self { description: None, messages }
    }
}

/// A prompt: a description, a renderer, and optional argument completion.
pub trait Prompt: Send + Sync + 'static {
    /// The prompt's description.
    fn spec(&self) -> PromptSpec;

    /// Renders the prompt. The host has checked that required arguments
    /// are present; an `Err` reaches the client as an invalid-params error.
    fn get(&self, arguments: Map<String, Value>) -> impl Future<Output = Result<PromptResult, ToolError>> + Send;

    /// Suggestions for `argument` given what the user typed so far.
    fn complete(&self, argument: &str, value: &str) -> Vec<String> {
        let _ = (argument, value);
        Vec::new()
    }
}

type BoxPromptFuture = Pin<Box<dyn Future<Output = Result<PromptResult, ToolError>> + Send + 'static>>;

trait ErasedPrompt: Send + Sync + 'static {
    fn spec(&self) -> PromptSpec;
    fn get_boxed(self: Arc<Self>, arguments: Map<String, Value>) -> BoxPromptFuture;
    fn complete(&self, argument: &str, value: &str) -> Vec<String>;
}

impl<T: Prompt> ErasedPrompt for T {
    fn spec(&self) -> PromptSpec {
        Prompt::spec(self)
    }

    fn get_boxed(self: Arc<Self>, arguments: Map<String, Value>) -> BoxPromptFuture {
        Box::pin(async move { self.get(arguments).await })
    }

    fn complete(&self, argument: &str, value: &str) -> Vec<String> {
        Prompt::complete(self, argument, value)
    }
}

/// A type-erased prompt, as a plugin hands its prompts to `export_plugin!`.
#[derive(Clone)]
pub struct BoxedPrompt(Arc<dyn ErasedPrompt>);

impl BoxedPrompt {
    /// The prompt's description.
    pub fn spec(&self) -> PromptSpec {
        self.0.spec()
    }

    /// Renders the prompt; the future owns what it needs.
    pub fn get(
        &self,
        arguments: Map<String, Value>,
    ) -> impl Future<Output = Result<PromptResult, ToolError>> + 'static {
        Arc::clone(&self.0).get_boxed(arguments)
    }

    /// Completion suggestions.
    pub fn complete(&self, argument: &str, value: &str) -> Vec<String> {
        self.0.complete(argument, value)
    }
}

impl<T: Prompt> From<T> for BoxedPrompt {
    fn from(prompt: T) -> Self {
        Self(Arc::new(prompt))
    }
}
