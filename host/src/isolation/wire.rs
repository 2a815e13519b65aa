//! The messages between the host and a plugin's worker process
//! ([`super::supervisor`] on the host's side, [`super::worker`] in the worker).
//!
//! One JSON object a line, `{"type": …, "body": …}` (the type first, so the
//! body is read straight into its variant: tool descriptors stay raw text),
//! on the worker's stdin (to the worker) and on its
//! protocol pipe (from it; see [`super::worker`] for why that is not plain
//! stdout); the worker's stderr is its log channel. Requests carry an `id`
//! chosen by the side that asks; the answer names the same id. Plugin
//! payloads (tool arguments and results) travel as JSON text, as they cross
//! the ABI, so neither side parses what it only passes on.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::plugin::{PluginError, cache::Offer};
use crate::settings::WorkerLimits;

/// The first message on a worker's stdin: serve a plugin, or only say which
/// plugin a library holds.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "type", content = "body", rename_all = "camelCase")]
pub enum Start {
    /// Load the library and serve its plugin; answered by [`FromWorker::Ready`].
    Serve(Init),
    /// Open the library, confined, and say which plugin it holds; answered by
    /// [`FromWorker::Identity`], after which the worker ends. The host asks this
    /// of a library it does not know yet, so that the code a library runs when
    /// it is opened never runs in the host before the host knows whether the
    /// plugin is to run in a worker.
    Probe(Probe),
}

/// What a probe needs: the library, and what confines the worker before it opens it.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Probe {
    /// The library to open.
    pub file: PathBuf,
    /// What confines the worker (the `*` entry of `Plugins.Workers`: the plugin is not known yet).
    pub limits: WorkerLimits,
}

/// Which plugin a library holds, as a probe read it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Identity {
    /// The plugin's name.
    pub name: String,
    /// The plugin's version.
    pub version: String,
    /// The plugin-API version the library was built against.
    pub abi_version: String,
    /// The JSON Schema of the plugin's settings, if it declares one (or why it
    /// cannot be read), so `check` validates an isolated plugin's section
    /// without opening its library in the host.
    #[serde(default)]
    pub settings_schema: Option<Result<Value, String>>,
}

/// What the worker needs to load its plugin.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Init {
    /// The library to load.
    pub file: PathBuf,
    /// The plugin's name, as the host found it (the worker refuses another).
    pub plugin: String,
    /// The plugin's own configuration section.
    pub config: Value,
    /// `Plugins.Config`.
    pub shared: Map<String, Value>,
    /// What confines the worker.
    pub limits: WorkerLimits,
}

/// What a worker offers, once its plugin is created.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Hello {
    /// The plugin's version.
    pub version: String,
    /// Its tools, prompts and resources.
    pub offer: Offer,
}

/// A message from the host to a worker.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "type", content = "body", rename_all = "camelCase")]
pub enum ToWorker {
    /// Runs tool number `index`; answered by [`FromWorker::Result`].
    Call {
        /// The call's id.
        id: u64,
        /// The tool's index in the plugin's list.
        index: u32,
        /// The arguments, JSON text.
        arguments: String,
        /// The client's feature tags.
        features: Vec<String>,
    },
    /// The soft cancel: fires the request's cancel signal (a call, a prompt, a read, a completion).
    Cancel {
        /// The call's id.
        id: u64,
    },
    /// The hard cancel: the host gave up on the request; its future is
    /// dropped and [`FromWorker::Dropped`] confirms it.
    Drop {
        /// The call's id.
        id: u64,
    },
    /// Renders prompt number `index`; answered by [`FromWorker::Answer`]. Cancelled and
    /// dropped as a call is.
    GetPrompt {
        /// The request's id.
        id: u64,
        /// The prompt's index.
        index: u32,
        /// Its arguments.
        arguments: Value,
        /// The client's feature tags.
        #[serde(default)]
        features: Vec<String>,
    },
    /// Reads `uri` through resource number `index`; answered by [`FromWorker::Answer`].
    /// Cancelled and dropped as a call is.
    ReadResource {
        /// The request's id.
        id: u64,
        /// The resource's index.
        index: u32,
        /// The URI read.
        uri: String,
        /// What the plugin may know of the reading client (its roots), as
        /// [`PluginBackend::read_resource`](crate::plugin::PluginBackend::read_resource) passes it.
        #[serde(default)]
        request: Value,
        /// The client's feature tags.
        #[serde(default)]
        features: Vec<String>,
    },
    /// Completion values for a prompt argument; answered by [`FromWorker::Answer`]. Cancelled
    /// and dropped as a call is.
    Complete {
        /// The request's id.
        id: u64,
        /// The prompt's index.
        index: u32,
        /// The argument's name.
        argument: String,
        /// What the client typed so far.
        value: String,
        /// The client's feature tags.
        #[serde(default)]
        features: Vec<String>,
    },
    /// The client's answer to a [`FromWorker::ClientRequest`].
    ClientAnswer {
        /// The id the worker gave the request.
        id: u64,
        /// The answer, or why there is none.
        answer: Result<Value, WireClientError>,
    },
    /// The host's answer to a [`FromWorker::Lock`]: the lock table's JSON answer, and whether the key is held.
    LockAnswer {
        /// The id the worker gave the request.
        id: u64,
        /// The lock table's answer (JSON text).
        info: String,
        /// Whether a key is now held for the worker, until [`FromWorker::Unlock`].
        granted: bool,
    },
    /// The host's answer to a [`FromWorker::HostInfo`].
    HostInfo {
        /// The id the worker gave the request.
        id: u64,
        /// What the host serves (JSON text).
        info: String,
    },
}

/// Why a request to the client failed, as it crosses the pipe.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "kind", content = "message", rename_all = "camelCase")]
pub enum WireClientError {
    /// The client did not declare the capability.
    Unsupported(String),
    /// The request failed.
    Failed(String),
}

/// A message from a worker to the host.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "type", content = "body", rename_all = "camelCase")]
pub enum FromWorker {
    /// The plugin is created (the first message).
    Ready(Hello),
    /// The plugin could not be loaded or created (the first and last message).
    Failed {
        /// Why.
        message: String,
        /// The plugin-API version the library declares, when it was refused for its ABI.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        incompatible_abi: Option<String>,
    },
    /// Which plugin the library holds: the answer to [`Start::Probe`] (the first and last message).
    Identity(Identity),
    /// A call's result (JSON `CallToolResult` text).
    Result {
        /// The call's id.
        id: u64,
        /// The result.
        result: String,
    },
    /// A dropped call is gone.
    Dropped {
        /// The call's id.
        id: u64,
    },
    /// The answer to a prompt, resource or completion request.
    Answer {
        /// The request's id.
        id: u64,
        /// The answer, or why the plugin gave none.
        answer: Result<Value, PluginError>,
    },
    /// A call's progress.
    Progress {
        /// The call's id.
        call: u64,
        /// Progress so far.
        progress: f64,
        /// The total, when known.
        total: Option<f64>,
        /// A message.
        message: Option<String>,
    },
    /// A log record: of a call (to the host log and the calling client), or of the plugin's logger.
    Log {
        /// The call it belongs to, if any.
        call: Option<u64>,
        /// The ABI's level number.
        level: u8,
        /// The message.
        message: String,
    },
    /// A request to the calling client (elicitation, sampling, roots).
    ClientRequest {
        /// The worker's id for the request.
        id: u64,
        /// The call that asks.
        call: u64,
        /// The method.
        method: String,
        /// Its parameters.
        params: Value,
    },
    /// Asks the host's lock table for a key (the ABI's lock request, JSON text).
    Lock {
        /// The worker's id for the request, and for the key it may grant.
        id: u64,
        /// The request.
        request: String,
    },
    /// Releases the key granted to request `id`.
    Unlock {
        /// The request's id.
        id: u64,
    },
    /// Asks what the host serves.
    HostInfo {
        /// The worker's id for the request.
        id: u64,
    },
    /// The plugin announced a resource update or a change of its lists: the
    /// announcement's JSON text as it crossed the ABI, passed on as if the
    /// plugin ran in the host.
    Announce {
        /// The announcement.
        announcement: String,
        /// For a change of lists, the plugin's lists as they are now: the
        /// host serves a worker's lists from what it was told.
        #[serde(default)]
        lists: Option<Lists>,
    },
}

/// A plugin's prompts and resources, as a worker re-reads them after the
/// plugin announced that they changed.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Lists {
    /// MCP `Prompt` objects.
    pub prompts: Vec<Value>,
    /// MCP `Resource` and `ResourceTemplate` objects.
    pub resources: Vec<Value>,
}
