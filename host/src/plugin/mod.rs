//! The host's view of a plugin, whatever runs it.
//!
//! The MCP layer talks to plugins only through [`PluginBackend`] and gives
//! each call a [`CallSession`]. The backends are a library loaded into the
//! process ([`dylib`]), the same created on first use from the plugin cache
//! ([`lazy`], [`cache`]), and a library loaded into a confined worker
//! process of its own for crash isolation ([`process`], speaking [`wire`]
//! to `crate::worker`); the MCP layer is the same for all three.

pub mod cache;
#[cfg(unix)]
pub mod confine;
pub mod copies;
pub mod discovery;
pub mod dylib;
pub mod lazy;
#[cfg(unix)]
pub mod process;
pub mod threads;
pub mod wire;

use std::{path::PathBuf, sync::Arc};

use futures::future::BoxFuture;
use serde_json::{Value, value::RawValue};
use tokio_util::sync::CancellationToken;

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

/// What one running call may ask of the host.
pub trait CallSession: Send + Sync + 'static {
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

/// A loaded plugin.
pub trait PluginBackend: Send + Sync + 'static {
    /// The plugin's name.
    fn name(&self) -> &str;

    /// The plugin's version.
    fn version(&self) -> &str;

    /// The plugin's tool descriptors (MCP `Tool` objects as JSON text), in
    /// its own order. Text, because the host parses each straight into its
    /// own `Tool` and the plugin cache stores them as they came.
    fn tools(&self) -> Result<Vec<Box<RawValue>>, String>;

    /// Runs tool number `index` with JSON `arguments`; yields a JSON
    /// `CallToolResult`. Dropping the future abandons the call.
    fn call(&self, index: u32, arguments: String, session: Arc<dyn CallSession>) -> BoxFuture<'static, String>;

    /// The plugin's prompts (MCP `Prompt` objects).
    fn prompts(&self) -> Vec<Value>;

    /// Renders prompt number `index`; yields a JSON `GetPromptResult` or a
    /// message for the client.
    fn get_prompt(&self, index: u32, arguments: Value) -> BoxFuture<'static, Result<Value, String>>;

    /// Completion values for an argument of prompt number `index`.
    fn complete_prompt(&self, index: u32, argument: &str, value: &str) -> Vec<String>;

    /// The plugin's resources and resource templates (MCP objects).
    fn resources(&self) -> Vec<Value>;

    /// Reads `uri` through resource number `index` for a client (`request`: JSON `{roots?}`,
    /// what the host learnt of the reading client); yields MCP resource contents or a message
    /// for the client.
    fn read_resource(&self, index: u32, uri: String, request: Value) -> BoxFuture<'static, Result<Vec<Value>, String>>;
}

/// Locks `mutex`, taking it over from a holder that panicked: what the
/// plugin backends guard (pending requests, workers, logs) stays usable
/// whatever a call did.
pub(crate) fn locked<T>(mutex: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A JSON tool result saying why a call could not run (the plugin never answered it).
pub(crate) fn error_result(message: &str) -> String {
    serde_json::json!({ "content": [{ "type": "text", "text": message }], "isError": true }).to_string()
}
