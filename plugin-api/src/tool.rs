//! What a tool is: its description for clients ([`ToolSpec`]) and its
//! behaviour ([`Tool`]).

use std::{future::Future, pin::Pin, sync::Arc};

use serde::Serialize;
use serde_json::Value;

use crate::{CallContext, ToolResult};

/// Hints that tell clients how careful to be with a tool.
///
/// They are hints, not guarantees; MCP clients use them to decide whether to
/// ask the user before a call. `None` leaves the MCP default in place
/// (not read-only, destructive, not idempotent, open-world).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Annotations {
    /// The tool does not modify its environment.
    #[serde(rename = "readOnlyHint", skip_serializing_if = "Option::is_none")]
    pub read_only: Option<bool>,
    /// The tool may perform destructive updates (meaningful when not read-only).
    #[serde(rename = "destructiveHint", skip_serializing_if = "Option::is_none")]
    pub destructive: Option<bool>,
    /// Calling the tool twice with the same arguments has no further effect.
    #[serde(rename = "idempotentHint", skip_serializing_if = "Option::is_none")]
    pub idempotent: Option<bool>,
    /// The tool talks to an open world of external entities (network, registries).
    #[serde(rename = "openWorldHint", skip_serializing_if = "Option::is_none")]
    pub open_world: Option<bool>,
}

impl Annotations {
    fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

/// A tool's description, as clients see it in `tools/list`.
///
/// Build one with [`ToolSpec::new`] and the chained setters:
///
/// ```
/// use mcp_plugin_api::ToolSpec;
/// use serde_json::json;
///
/// let spec = ToolSpec::new("echo", "Returns its input.")
///     .title("Echo")
///     .input_schema(json!({
///         "type": "object",
///         "properties": { "text": { "type": "string" } },
///         "required": ["text"]
///     }))
///     .read_only(true);
/// assert_eq!(spec.name(), "echo");
/// ```
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolSpec {
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<String>,
    description: String,
    input_schema: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    output_schema: Option<Value>,
    #[serde(skip_serializing_if = "Annotations::is_empty")]
    annotations: Annotations,
}

impl ToolSpec {
    /// A tool with a name (1–128 of `A-Z a-z 0-9 _ - .`, unique in the host)
    /// and a description written for the model. It takes no arguments until
    /// [`Self::input_schema`] says otherwise.
    pub fn new(name: impl Into<String>, description: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            title: None,
            description: description.into(),
            input_schema: serde_json::json!({ "type": "object" }),
            output_schema: None,
            annotations: Annotations::default(),
        }
    }

    /// A short human-readable name for user interfaces.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// The JSON Schema (an object schema) the arguments must satisfy. The
    /// host validates every call against it before the tool runs.
    pub fn input_schema(mut self, schema: Value) -> Self {
        self.input_schema = schema;
        self
    }

    /// The JSON Schema of the tool's `structuredContent`. The host checks
    /// every successful result against it.
    pub fn output_schema(mut self, schema: Value) -> Self {
        self.output_schema = Some(schema);
        self
    }

    /// Replaces all annotations at once.
    pub fn annotations(mut self, annotations: Annotations) -> Self {
        self.annotations = annotations;
        self
    }

    /// Marks the tool as one that does not modify its environment.
    pub fn read_only(mut self, value: bool) -> Self {
        self.annotations.read_only = Some(value);
        self
    }

    /// Marks the tool as one that may destroy data.
    pub fn destructive(mut self, value: bool) -> Self {
        self.annotations.destructive = Some(value);
        self
    }

    /// Marks repeated identical calls as harmless.
    pub fn idempotent(mut self, value: bool) -> Self {
        self.annotations.idempotent = Some(value);
        self
    }

    /// Marks the tool as reaching outside the machine.
    pub fn open_world(mut self, value: bool) -> Self {
        self.annotations.open_world = Some(value);
        self
    }

    /// The tool's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The tool's input schema.
    pub fn get_input_schema(&self) -> &Value {
        &self.input_schema
    }

    /// The tool's output schema, if it declared one.
    pub fn get_output_schema(&self) -> Option<&Value> {
        self.output_schema.as_ref()
    }

    /// The tool's annotations.
    pub fn get_annotations(&self) -> &Annotations {
        &self.annotations
    }
}

/// An error a tool returns instead of a result. The host turns it into a
/// result with `isError: true`, so the model can read it and try again.
///
/// Prompts and resources return it too; there the host answers with a
/// JSON-RPC error whose code follows how the error was made:
/// [`ToolError::invalid_argument`] is `-32602` (invalid params),
/// [`ToolError::not_found`] `-32002` (resource not found), any other `-32603`
/// (internal error) naming the plugin.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct ToolError {
    message: String,
    structured: Option<Value>,
    kind: ErrorKind,
}

/// What a [`ToolError`] says went wrong, for the JSON-RPC answer to a prompt or resource request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ErrorKind {
    Failed,
    InvalidArgument,
    NotFound,
}

impl ToolError {
    /// An error with a message for the model.
    pub fn new(message: impl Into<String>) -> Self {
        Self { message: message.into(), structured: None, kind: ErrorKind::Failed }
    }

    /// An error about one argument, in the form the host uses for schema
    /// violations: the parameter and the reason.
    pub fn invalid_argument(parameter: &str, reason: impl std::fmt::Display) -> Self {
        Self { kind: ErrorKind::InvalidArgument, ..Self::new(format!("Invalid argument '{parameter}': {reason}")) }
    }

    /// Nothing is at the address asked: a resource read of a URI the resource does not hold.
    pub fn not_found(message: impl Into<String>) -> Self {
        Self { kind: ErrorKind::NotFound, ..Self::new(message) }
    }

    /// The error as it crosses the ABI from a prompt, resource or completion request.
    pub(crate) fn to_request_error(&self) -> crate::abi::RequestError {
        let kind = match self.kind {
            ErrorKind::Failed => crate::abi::RequestError::FAILED,
            ErrorKind::InvalidArgument => crate::abi::RequestError::INVALID_PARAMS,
            ErrorKind::NotFound => crate::abi::RequestError::NOT_FOUND,
        };
        crate::abi::RequestError { kind: kind.to_owned(), message: self.message.clone() }
    }

    /// Attaches machine-readable details as `structuredContent`.
    pub fn with_structured(mut self, structured: Value) -> Self {
        self.structured = Some(structured);
        self
    }

    /// Converts the error into the result the client receives.
    pub fn into_result(self) -> ToolResult {
        let result = ToolResult::error(self.message);
        match self.structured {
            Some(structured) => result.with_structured(structured),
            None => result,
        }
    }
}

impl From<serde_json::Error> for ToolError {
    fn from(error: serde_json::Error) -> Self {
        Self::new(error.to_string())
    }
}

impl From<std::io::Error> for ToolError {
    fn from(error: std::io::Error) -> Self {
        Self::new(error.to_string())
    }
}

/// What a call yields: a result, or an error the model should see.
pub type ToolOutcome = Result<ToolResult, ToolError>;

/// A tool: a description and an async function from arguments to a result.
///
/// Implement it with a plain `async fn`:
///
/// ```
/// use mcp_plugin_api::{CallContext, Tool, ToolOutcome, ToolResult, ToolSpec};
/// use serde_json::Value;
///
/// struct Hello;
///
/// impl Tool for Hello {
///     fn spec(&self) -> ToolSpec {
///         ToolSpec::new("hello", "Greets the caller.").read_only(true)
///     }
///
///     async fn call(&self, _args: Value, _ctx: CallContext) -> ToolOutcome {
///         Ok(ToolResult::text("Hello!"))
///     }
/// }
/// ```
///
/// The arguments have already been checked against the input schema. The
/// call runs inside the plugin's own tokio runtime, so `tokio::time` and
/// `tokio::process` work; a panic costs this call only.
pub trait Tool: Send + Sync + 'static {
    /// The tool's description.
    fn spec(&self) -> ToolSpec;

    /// Runs one call.
    fn call(&self, args: Value, ctx: CallContext) -> impl Future<Output = ToolOutcome> + Send;
}

/// A boxed future of a tool call.
type BoxOutcome = Pin<Box<dyn Future<Output = ToolOutcome> + Send + 'static>>;

/// A type-erased tool, as a plugin hands its tools to [`export_plugin!`].
///
/// [`export_plugin!`]: crate::export_plugin
#[derive(Clone)]
pub struct BoxedTool(Arc<dyn ErasedTool>);

impl BoxedTool {
    /// Erases a tool's type.
    pub fn new(tool: impl Tool) -> Self {
        Self(Arc::new(tool))
    }

    /// The tool's description.
    pub fn spec(&self) -> ToolSpec {
        self.0.spec()
    }

    /// Runs one call; the future owns what it needs.
    pub fn call(&self, args: Value, ctx: CallContext) -> impl Future<Output = ToolOutcome> + Send + 'static {
        Arc::clone(&self.0).call_boxed(args, ctx)
    }
}

impl<T: Tool> From<T> for BoxedTool {
    fn from(tool: T) -> Self {
        Self::new(tool)
    }
}

trait ErasedTool: Send + Sync + 'static {
    fn spec(&self) -> ToolSpec;
    fn call_boxed(self: Arc<Self>, args: Value, ctx: CallContext) -> BoxOutcome;
}

impl<T: Tool> ErasedTool for T {
    fn spec(&self) -> ToolSpec {
        Tool::spec(self)
    }

    fn call_boxed(self: Arc<Self>, args: Value, ctx: CallContext) -> BoxOutcome {
        Box::pin(async move { self.call(args, ctx).await })
    }
}
