//! Prompts: message templates a plugin offers users through their client
//! (MCP `prompts/list`, `prompts/get`, and completion of their arguments).

use std::{future::Future, pin::Pin, sync::Arc};

use serde::Serialize;
use serde_json::{Map, Value};

use crate::{CallContext, Content, ToolError};

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
///
/// Implement [`Self::get`], or [`Self::get_with`] when rendering needs the
/// request (its cancel signal, progress, logs to the client, requests to
/// the client); likewise [`Self::complete`] or the asynchronous
/// [`Self::complete_with`] for suggestions that take time to find. The host
/// calls the `*_with` forms, whose default bodies call the others.
pub trait Prompt: Send + Sync + 'static {
    /// The prompt's description.
    fn spec(&self) -> PromptSpec;

    /// Renders the prompt. The host has checked that required arguments
    /// are present. An `Err` reaches the client as a JSON-RPC error:
    /// `-32602` (invalid params) when made with [`ToolError::invalid_argument`],
    /// else `-32603` (internal error) naming the plugin.
    fn get(&self, arguments: Map<String, Value>) -> impl Future<Output = Result<PromptResult, ToolError>> + Send {
        let _ = arguments;
        std::future::ready(Err(ToolError::new(format!(
            "prompt '{}' cannot be rendered: it implements neither Prompt::get nor Prompt::get_with",
            self.spec().name()
        ))))
    }

    /// Renders the prompt for one request: `ctx` is the request's, as a tool
    /// call's is. The host stops a rendering that outlives its time limit or
    /// that the client cancels as it stops a tool call: the cancel signal,
    /// then the future is dropped. By default, [`Self::get`].
    fn get_with(
        &self,
        arguments: Map<String, Value>,
        ctx: CallContext,
    ) -> impl Future<Output = Result<PromptResult, ToolError>> + Send {
        let _ = ctx;
        self.get(arguments)
    }

    /// Suggestions for `argument` given what the user typed so far.
    fn complete(&self, argument: &str, value: &str) -> Vec<String> {
        let _ = (argument, value);
        Vec::new()
    }

    /// Suggestions for `argument` for one request, asynchronously: implement
    /// it instead of [`Self::complete`] when finding them takes time (an
    /// outside program, a file scan), so they are found without holding a
    /// thread, under the host's time limit for completions. By default,
    /// [`Self::complete`].
    fn complete_with(&self, argument: &str, value: &str, ctx: CallContext) -> impl Future<Output = Vec<String>> + Send {
        let _ = ctx;
        std::future::ready(self.complete(argument, value))
    }
}

type BoxPromptFuture = Pin<Box<dyn Future<Output = Result<PromptResult, ToolError>> + Send + 'static>>;
type BoxCompletionFuture = Pin<Box<dyn Future<Output = Vec<String>> + Send + 'static>>;

trait ErasedPrompt: Send + Sync + 'static {
    fn spec(&self) -> PromptSpec;
    fn get_boxed(self: Arc<Self>, arguments: Map<String, Value>, ctx: CallContext) -> BoxPromptFuture;
    fn complete(&self, argument: &str, value: &str) -> Vec<String>;
    fn complete_boxed(self: Arc<Self>, argument: String, value: String, ctx: CallContext) -> BoxCompletionFuture;
}

impl<T: Prompt> ErasedPrompt for T {
    fn spec(&self) -> PromptSpec {
        Prompt::spec(self)
    }

    fn get_boxed(self: Arc<Self>, arguments: Map<String, Value>, ctx: CallContext) -> BoxPromptFuture {
        Box::pin(async move { self.get_with(arguments, ctx).await })
    }

    fn complete(&self, argument: &str, value: &str) -> Vec<String> {
        Prompt::complete(self, argument, value)
    }

    fn complete_boxed(self: Arc<Self>, argument: String, value: String, ctx: CallContext) -> BoxCompletionFuture {
        Box::pin(async move { self.complete_with(&argument, &value, ctx).await })
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

    /// Renders the prompt with no request behind it (never cancelled, no
    /// client to ask); the future owns what it needs.
    pub fn get(
        &self,
        arguments: Map<String, Value>,
    ) -> impl Future<Output = Result<PromptResult, ToolError>> + 'static {
        self.get_with(arguments, CallContext::detached(None))
    }

    /// Renders the prompt for the request `ctx` belongs to.
    pub fn get_with(
        &self,
        arguments: Map<String, Value>,
        ctx: CallContext,
    ) -> impl Future<Output = Result<PromptResult, ToolError>> + 'static {
        Arc::clone(&self.0).get_boxed(arguments, ctx)
    }

    /// Completion suggestions, from [`Prompt::complete`].
    pub fn complete(&self, argument: &str, value: &str) -> Vec<String> {
        self.0.complete(argument, value)
    }

    /// Completion suggestions for the request `ctx` belongs to, from [`Prompt::complete_with`].
    pub fn complete_with(
        &self,
        argument: &str,
        value: &str,
        ctx: CallContext,
    ) -> impl Future<Output = Vec<String>> + 'static {
        Arc::clone(&self.0).complete_boxed(argument.to_owned(), value.to_owned(), ctx)
    }
}

impl<T: Prompt> From<T> for BoxedPrompt {
    fn from(prompt: T) -> Self {
        Self(Arc::new(prompt))
    }
}
