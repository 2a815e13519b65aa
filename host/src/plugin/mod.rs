//! The host's view of a plugin, whatever runs it.
//!
//! The MCP layer talks to plugins only through [`PluginBackend`] and gives
//! each request a [`CallSession`]. The backends are a library loaded into
//! the process, created at once or on first use from the plugin cache
//! ([`dylib`], [`cache`]), and a library loaded into a confined worker
//! process of its own (`crate::isolation`); the MCP layer is the same for
//! both. Finding and loading libraries is [`discovery`]: [`load`] each file,
//! then [`assemble`] the registry, reporting how each fared ([`report`]);
//! a plugin reports what changes after it was loaded through [`changes`].

pub mod assemble;
pub mod cache;
pub mod changes;
pub mod copies;
pub mod discovery;
pub mod dylib;
pub mod link;
pub mod load;
pub mod report;
pub mod threads;

use std::{path::PathBuf, sync::Arc};

use futures::future::BoxFuture;
use serde_json::{Value, value::RawValue};
use tokio_util::sync::CancellationToken;

use self::cache::Offer;

/// Severity of a plugin's log record.
pub use tracing::Level;

/// Why a request to the client produced no answer.
#[derive(Debug, Clone)]
pub enum ClientRequestError {
    /// The client did not declare the capability the request needs.
    Unsupported(String),
    /// The request was sent and failed, or could not be sent.
    Failed(String),
}

/// The kinds of request that run plugin code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequestKind {
    /// `tools/call`.
    Tool,
    /// `prompts/get`.
    Prompt,
    /// `resources/read`.
    Resource,
    /// `completion/complete` of a prompt's argument.
    Completion,
}

impl RequestKind {
    /// The MCP method.
    pub fn method(self) -> &'static str {
        match self {
            Self::Tool => "tools/call",
            Self::Prompt => "prompts/get",
            Self::Resource => "resources/read",
            Self::Completion => "completion/complete",
        }
    }
}

/// Which request a session serves: its kind and the item it names (a tool,
/// a prompt, a URI), for accounting and messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Requested {
    /// The kind.
    pub kind: RequestKind,
    /// The tool's or prompt's served name, or the URI read.
    pub item: String,
}

impl std::fmt::Display for Requested {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} '{}'", self.kind.method(), self.item)
    }
}

/// What one running request (a tool call, a prompt, a read, a completion) may ask of the host.
pub trait CallSession: Send + Sync + 'static {
    /// Which request this is.
    fn requested(&self) -> &Requested;

    /// Forwards progress to the client, if it asked for progress.
    fn progress(&self, progress: f64, total: Option<f64>, message: Option<String>);

    /// Fires when the client cancels the call, the call times out or the
    /// host shuts down.
    fn cancellation(&self) -> &CancellationToken;

    /// The client's negotiated feature tags.
    fn features(&self) -> &[String];

    /// Logs on behalf of the call, to the host's log and the calling client.
    fn log(&self, level: Level, message: &str);

    /// Sends `method` to the calling client and awaits the answer.
    fn client_request(&self, method: String, params: Value) -> BoxFuture<'static, Result<Value, ClientRequestError>>;

    /// The calling client's roots that are local folders (asked once per
    /// session): a plugin in a worker may write there. Empty when the client
    /// has none or cannot be asked.
    fn roots(&self) -> BoxFuture<'static, Vec<PathBuf>> {
        Box::pin(async { Vec::new() })
    }
}

/// Why a plugin did not answer a request with what was asked. Each kind
/// has its JSON-RPC answer (see `crate::call`): the plugin's own refusals keep
/// its words, a fault is the host's account of what broke.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", content = "message", rename_all = "camelCase")]
pub enum PluginError {
    /// The plugin refused the request's arguments (`-32602`).
    InvalidParams(String),
    /// The plugin has nothing at the address asked (`-32002`, resource not found).
    NotFound(String),
    /// The plugin could not serve the request, in its own words (`-32603`).
    Failed(String),
    /// The plugin broke or could not be reached: it panicked, answered
    /// something malformed, its worker ended, its threads are held, it could
    /// not be created (`-32603`, naming the cause).
    Fault(String),
}

impl PluginError {
    /// The message, whatever the kind.
    pub fn message(&self) -> &str {
        match self {
            Self::InvalidParams(message) | Self::NotFound(message) | Self::Failed(message) | Self::Fault(message) => {
                message
            }
        }
    }
}

/// A loaded plugin.
///
/// Every request that runs plugin code (a tool call, a prompt, a resource
/// read, a completion) takes the request's [`CallSession`] and returns a
/// future the host may drop at any time (that stops it); `crate::call` puts
/// every one of them under the same limits.
pub trait PluginBackend: Send + Sync + 'static {
    /// The plugin's name.
    fn name(&self) -> &str;

    /// The plugin's version.
    fn version(&self) -> &str;

    /// The offer the host kept when it loaded the plugin, for a backend that
    /// lists the plugin's tools, prompts and resources from it without
    /// running plugin code (a plugin created on first use, a plugin in a
    /// worker); `None` for one that asks its plugin, which answers those
    /// itself.
    fn offer(&self) -> Option<&Offer> {
        None
    }

    /// The plugin's tool descriptors (MCP `Tool` objects as JSON text), in
    /// its own order. Text, because the host parses each straight into its
    /// own `Tool` and the plugin cache stores them as they came. By default
    /// those of its [offer](Self::offer).
    fn tools(&self) -> Result<Vec<Box<RawValue>>, String> {
        Ok(self.offer().map_or_else(Vec::new, |offer| offer.tools.clone()))
    }

    /// Runs tool number `index` with JSON `arguments`; yields a JSON
    /// `CallToolResult` (the tool's own errors are results too), or the fault
    /// that kept the plugin from answering.
    fn call(
        &self,
        index: u32,
        arguments: String,
        session: Arc<dyn CallSession>,
    ) -> BoxFuture<'static, Result<String, PluginError>>;

    /// The plugin's prompts (MCP `Prompt` objects); by default those of its
    /// [offer](Self::offer).
    fn prompts(&self) -> Vec<Value> {
        self.offer().map_or_else(Vec::new, |offer| offer.prompts.clone())
    }

    /// Renders prompt number `index`; yields a JSON `GetPromptResult`.
    fn get_prompt(
        &self,
        index: u32,
        arguments: Value,
        session: Arc<dyn CallSession>,
    ) -> BoxFuture<'static, Result<Value, PluginError>>;

    /// Completion values for `argument` of prompt number `index`, given what the client typed.
    fn complete_prompt(
        &self,
        index: u32,
        argument: String,
        value: String,
        session: Arc<dyn CallSession>,
    ) -> BoxFuture<'static, Result<Vec<String>, PluginError>>;

    /// The plugin's resources and resource templates (MCP objects); by
    /// default those of its [offer](Self::offer).
    fn resources(&self) -> Vec<Value> {
        self.offer().map_or_else(Vec::new, |offer| offer.resources.clone())
    }

    /// Reads `uri` through resource number `index` for a client (`request`: JSON `{roots?}`,
    /// what the host learnt of the reading client); yields MCP resource contents.
    fn read_resource(
        &self,
        index: u32,
        uri: String,
        request: Value,
        session: Arc<dyn CallSession>,
    ) -> BoxFuture<'static, Result<Vec<Value>, PluginError>>;
}

/// A plugin's completion values, from the JSON it answered with.
pub(crate) fn completion_values(answer: Value) -> Result<Vec<String>, PluginError> {
    serde_json::from_value(answer)
        .map_err(|error| PluginError::Fault(format!("its completion values are not a list of strings: {error}")))
}

/// A plugin's resource contents, from the JSON it answered with.
pub(crate) fn resource_contents(answer: Value) -> Result<Vec<Value>, PluginError> {
    match answer {
        Value::Array(contents) => Ok(contents),
        other => Err(PluginError::Fault(format!("it answered {other} instead of a list of contents"))),
    }
}

/// Locks `mutex`, taking it over from a holder that panicked: what the
/// plugin backends guard (pending requests, workers, logs) stays usable
/// whatever a call did.
pub(crate) fn locked<T>(mutex: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
