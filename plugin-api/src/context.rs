//! What the host hands a plugin: [`PluginContext`] once, when the plugin is
//! created, and a [`CallContext`] with every call.

use std::sync::Arc;

use abi_stable::std_types::{RNone, RResult, RSome, RStr, RString};
use serde::{Deserialize, de::DeserializeOwned};
use serde_json::Value;

use crate::{
    abi::{CallServicesBox, HostServicesBox, level},
    locks::{self, LockError, LockGuard, LockRequest},
};

/// Severity of a log record, as the host's `tracing` sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// Very fine detail.
    Trace,
    /// Detail for whoever debugs the plugin.
    Debug,
    /// Normal operation.
    Info,
    /// Something odd that did not stop the work.
    Warn,
    /// Something failed.
    Error,
}

impl Level {
    fn to_abi(self) -> u8 {
        match self {
            Level::Trace => level::TRACE,
            Level::Debug => level::DEBUG,
            Level::Info => level::INFO,
            Level::Warn => level::WARN,
            Level::Error => level::ERROR,
        }
    }
}

/// A logger whose records the host re-emits under the plugin's own target
/// (`plugin::<name>`), so `RUST_LOG=plugin::<name>=debug` filters them, and
/// forwards to MCP clients that asked for log messages.
#[derive(Clone)]
pub struct Logger {
    sink: LogSink,
}

#[derive(Clone)]
enum LogSink {
    Host(Arc<HostServicesBox>),
    Call(Arc<CallServicesBox>),
    /// Nowhere: a context with no host behind it.
    Discard,
    #[cfg(feature = "testkit")]
    Capture(Arc<std::sync::Mutex<Vec<(Level, String)>>>),
}

impl Logger {
    /// Emits a record at `level`.
    pub fn log(&self, level: Level, message: impl AsRef<str>) {
        let message = RStr::from(message.as_ref());
        match &self.sink {
            LogSink::Host(host) => host.log(level.to_abi(), message),
            LogSink::Call(call) => call.log(level.to_abi(), message),
            LogSink::Discard => {}
            #[cfg(feature = "testkit")]
            LogSink::Capture(records) => {
                records.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).push((level, message.to_string()))
            }
        }
    }

    /// Emits a debug record.
    pub fn debug(&self, message: impl AsRef<str>) {
        self.log(Level::Debug, message)
    }

    /// Emits an info record.
    pub fn info(&self, message: impl AsRef<str>) {
        self.log(Level::Info, message)
    }

    /// Emits a warning.
    pub fn warn(&self, message: impl AsRef<str>) {
        self.log(Level::Warn, message)
    }

    /// Emits an error record.
    pub fn error(&self, message: impl AsRef<str>) {
        self.log(Level::Error, message)
    }

    #[cfg(feature = "testkit")]
    pub(crate) fn capture(records: Arc<std::sync::Mutex<Vec<(Level, String)>>>) -> Self {
        Self { sink: LogSink::Capture(records) }
    }
}

/// Configuration and services for a plugin's whole life.
///
/// Configuration comes from the host's `appsettings.json`: the plugin's own
/// section (`Plugins.Settings.<plugin name>`) and the shared
/// `Plugins.Config` section that all plugins read.
#[derive(Clone)]
pub struct PluginContext {
    config: Arc<Value>,
    services: PluginServices,
    logger: Logger,
}

#[derive(Clone)]
enum PluginServices {
    Host(Arc<HostServicesBox>),
    #[cfg(feature = "testkit")]
    Kit(Arc<crate::testkit::KitPlugin>),
}

impl PluginContext {
    pub(crate) fn from_host(host: Arc<HostServicesBox>) -> Self {
        let config = serde_json::from_str(host.plugin_config().as_str()).unwrap_or(Value::Null);
        Self {
            config: Arc::new(config),
            services: PluginServices::Host(Arc::clone(&host)),
            logger: Logger { sink: LogSink::Host(host) },
        }
    }

    #[cfg(feature = "testkit")]
    pub(crate) fn in_memory(config: Value, kit: Arc<crate::testkit::KitPlugin>, logger: Logger) -> Self {
        Self { config: Arc::new(config), services: PluginServices::Kit(kit), logger }
    }

    /// The plugin's own configuration section (`Null` when there is none).
    pub fn config(&self) -> &Value {
        &self.config
    }

    /// One key of the plugin's own section, deserialized.
    ///
    /// The key is matched without regard to ASCII case (an exact match
    /// first), as the host matches its own settings and as `check` matches a
    /// section against the plugin's settings schema: `greeting` in
    /// `appsettings.json` is read as `Greeting`.
    ///
    /// `Ok(None)` when the key is absent; `Err` names the key and why its
    /// value does not fit `T`, ready to show to the operator.
    pub fn setting<T: DeserializeOwned>(&self, key: &str) -> Result<Option<T>, String> {
        let found = self.config.get(key).or_else(|| {
            self.config.as_object()?.iter().find(|(name, _)| name.eq_ignore_ascii_case(key)).map(|(_, value)| value)
        });
        match found {
            None | Some(Value::Null) => Ok(None),
            Some(value) => T::deserialize(value).map(Some).map_err(|error| format!("setting '{key}': {error}")),
        }
    }

    /// The value of `Plugins.Config.<key>`, shared by every plugin, as the
    /// original .NET host offered it. Strings come back as they are; other
    /// JSON values as their JSON text.
    pub fn get_config(&self, key: &str) -> Option<String> {
        let value = match &self.services {
            PluginServices::Host(host) => match host.shared_config(RStr::from(key)) {
                RSome(text) => serde_json::from_str(text.as_str()).ok()?,
                RNone => return None,
            },
            #[cfg(feature = "testkit")]
            PluginServices::Kit(kit) => kit.shared.get(key)?.clone(),
        };
        match value {
            Value::String(text) => Some(text),
            Value::Null => None,
            other => Some(other.to_string()),
        }
    }

    /// The plugin's logger.
    pub fn logger(&self) -> &Logger {
        &self.logger
    }

    /// What the host serves: its name and version, the protocol versions it speaks, and every
    /// loaded plugin with its tools, prompts and resources. `None` from a host that predates
    /// this service; during the plugin's own initialisation the plugin list is not complete
    /// yet, so ask from a call.
    pub fn host_info(&self) -> Option<Value> {
        match &self.services {
            PluginServices::Host(host) => {
                serde_json::from_str(host.host_info().as_str()).ok().filter(|v: &Value| !v.is_null())
            }
            #[cfg(feature = "testkit")]
            PluginServices::Kit(kit) => kit.host_info.clone(),
        }
    }

    /// Tells the host that something the plugin serves changed, so that it tells the clients:
    /// [`Announcement::ResourceUpdated`] reaches every session subscribed to that URI as
    /// `notifications/resources/updated`; [`Announcement::PromptsChanged`] and
    /// [`Announcement::ResourcesChanged`] make the host read the plugin's prompts or resources
    /// again and send `notifications/*/list_changed` when they differ. Callable from any thread,
    /// at any time (during a call, after it, from a watcher); it never waits. On a host that
    /// predates announcements it does nothing but log at debug level.
    pub fn announce(&self, announcement: Announcement) {
        let heard = match &self.services {
            PluginServices::Host(host) => host.announce(RString::from(announcement.to_json().to_string())),
            #[cfg(feature = "testkit")]
            PluginServices::Kit(kit) => kit.announce(announcement.clone()),
        };
        if !heard {
            self.logger.debug(format!("the host does not take announcements; {announcement:?} is not passed on"));
        }
    }

    /// Takes a lock shared by every plugin of the host (see [`crate::locks`]).
    /// The lock is held until the returned guard is dropped.
    pub async fn lock(&self, request: &LockRequest) -> Result<LockGuard, LockError> {
        let request = serde_json::to_string(request).expect("a lock request serializes");
        let outcome = match &self.services {
            PluginServices::Host(host) => host.acquire_lock(RString::from(request)).await,
            #[cfg(feature = "testkit")]
            PluginServices::Kit(kit) => kit.acquire_lock(&request),
        };
        locks::decode(outcome.info, outcome.guard)
    }
}

/// A change of what a plugin serves, for [`PluginContext::announce`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Announcement {
    /// The contents at this URI changed (a resource's URI, or one of a template's URIs).
    ResourceUpdated(String),
    /// The plugin's prompts are not the ones it offered before.
    PromptsChanged,
    /// The plugin's resources or resource templates are not the ones it offered before.
    ResourcesChanged,
}

impl Announcement {
    /// The announcement as it crosses the ABI ([`crate::abi::HostServices::announce`]).
    fn to_json(&self) -> Value {
        match self {
            Announcement::ResourceUpdated(uri) => serde_json::json!({ "resourceUpdated": uri }),
            Announcement::PromptsChanged => serde_json::json!({ "listChanged": ["prompts"] }),
            Announcement::ResourcesChanged => serde_json::json!({ "listChanged": ["resources"] }),
        }
    }
}

/// Why a request to the client did not produce an answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClientError {
    /// The client did not declare the capability (elicitation, sampling, roots).
    #[error("the client does not support {0}")]
    Unsupported(String),
    /// The client answered with an error, or the request could not be sent.
    #[error("the client request failed: {0}")]
    Failed(String),
}

/// What the user did with an elicitation request.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ElicitResponse {
    /// `accept`, `decline` or `cancel`.
    pub action: String,
    /// The submitted form, when accepted.
    #[serde(default)]
    pub content: Option<Value>,
}

impl ElicitResponse {
    /// Whether the user accepted.
    pub fn accepted(&self) -> bool {
        self.action == "accept"
    }
}

/// One of the client's workspace folders.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Root {
    /// A `file://` URI.
    pub uri: String,
    /// A display name.
    #[serde(default)]
    pub name: Option<String>,
}

/// Services for one request: progress, cancellation, the client's feature
/// tags and requests back to the client. A tool call gets one, and so do a
/// prompt's rendering, a resource's read and a prompt's completion
/// ([`crate::Prompt::get_with`], [`crate::Resource::read_with`],
/// [`crate::Prompt::complete_with`]).
#[derive(Clone)]
pub struct CallContext {
    services: CallServices,
    features: Arc<Vec<String>>,
}

#[derive(Clone)]
enum CallServices {
    Host(Arc<CallServicesBox>),
    /// No request behind it (a host that predates request contexts for prompts and resources):
    /// never cancelled, no progress, no client to ask; records go to `Logger`.
    Detached(Logger),
    #[cfg(feature = "testkit")]
    Kit(Arc<crate::testkit::KitServices>),
}

impl CallContext {
    pub(crate) fn from_host(services: CallServicesBox) -> Self {
        let features = serde_json::from_str(services.features().as_str()).unwrap_or_default();
        Self { services: CallServices::Host(Arc::new(services)), features: Arc::new(features) }
    }

    /// A context with no request behind it: it is never cancelled, reports no progress, has no
    /// client to ask, and logs to the plugin's log (`host`) or nowhere.
    pub(crate) fn detached(host: Option<Arc<HostServicesBox>>) -> Self {
        let logger = Logger { sink: host.map_or(LogSink::Discard, LogSink::Host) };
        Self { services: CallServices::Detached(logger), features: Arc::new(Vec::new()) }
    }

    #[cfg(feature = "testkit")]
    pub(crate) fn from_kit(services: Arc<crate::testkit::KitServices>, features: Vec<String>) -> Self {
        Self { services: CallServices::Kit(services), features: Arc::new(features) }
    }

    /// Reports progress towards `total` (when known), with an optional
    /// message. A no-op when the client did not ask for progress.
    pub fn progress(&self, progress: f64, total: Option<f64>, message: Option<&str>) {
        match &self.services {
            CallServices::Host(host) => host.progress(progress, total.into(), message.map(RString::from).into()),
            CallServices::Detached(_) => {}
            #[cfg(feature = "testkit")]
            CallServices::Kit(kit) => kit.progress(progress, total, message),
        }
    }

    /// Whether the call has been asked to stop (client cancel, timeout or
    /// shutdown). Long loops should check it and return early.
    pub fn is_cancelled(&self) -> bool {
        match &self.services {
            CallServices::Host(host) => host.is_cancelled(),
            CallServices::Detached(_) => false,
            #[cfg(feature = "testkit")]
            CallServices::Kit(kit) => kit.is_cancelled(),
        }
    }

    /// Resolves once the call is asked to stop; `select!` on it.
    pub async fn cancelled(&self) {
        match &self.services {
            CallServices::Host(host) => host.cancelled().await,
            CallServices::Detached(_) => std::future::pending().await,
            #[cfg(feature = "testkit")]
            CallServices::Kit(kit) => kit.cancelled().await,
        }
    }

    /// The client's negotiated feature tags (content negotiation), such as
    /// `agent`, `format=json` or `verbosity=compact`.
    pub fn features(&self) -> &[String] {
        &self.features
    }

    /// The value of a `key=value` feature tag, if the client sent one.
    pub fn feature_value(&self, key: &str) -> Option<&str> {
        self.features
            .iter()
            .find_map(|tag| tag.split_once('=').filter(|(name, _)| *name == key).map(|(_, value)| value))
    }

    /// A logger whose records reach this call's client as
    /// `notifications/message` (when its level allows) and the host's log.
    pub fn logger(&self) -> Logger {
        match &self.services {
            CallServices::Host(host) => Logger { sink: LogSink::Call(Arc::clone(host)) },
            CallServices::Detached(logger) => logger.clone(),
            #[cfg(feature = "testkit")]
            CallServices::Kit(kit) => kit.logger(),
        }
    }

    /// Asks the user for input through the client (`elicitation/create`).
    /// `schema` is a flat object schema describing the form.
    pub async fn elicit(&self, message: &str, schema: Value) -> Result<ElicitResponse, ClientError> {
        let params = serde_json::json!({ "message": message, "requestedSchema": schema });
        let answer = self.client_request("elicitation/create", params).await?;
        serde_json::from_value(answer).map_err(|error| ClientError::Failed(error.to_string()))
    }

    /// Asks the client's model for a completion (`sampling/createMessage`).
    /// `params` and the answer follow the MCP schema of that request.
    pub async fn sample(&self, params: Value) -> Result<Value, ClientError> {
        self.client_request("sampling/createMessage", params).await
    }

    /// The client's workspace folders (`roots/list`).
    pub async fn roots(&self) -> Result<Vec<Root>, ClientError> {
        #[derive(Deserialize)]
        struct Roots {
            roots: Vec<Root>,
        }
        let answer = self.client_request("roots/list", Value::Object(Default::default())).await?;
        serde_json::from_value::<Roots>(answer)
            .map(|roots| roots.roots)
            .map_err(|error| ClientError::Failed(error.to_string()))
    }

    async fn client_request(&self, method: &str, params: Value) -> Result<Value, ClientError> {
        match &self.services {
            CallServices::Host(host) => {
                let answer = host.client_request(RString::from(method), RString::from(params.to_string())).await;
                decode_client_answer(answer)
            }
            CallServices::Detached(_) => Err(ClientError::Unsupported(format!(
                "'{method}' cannot be sent: the host did not pass this request's client on"
            ))),
            #[cfg(feature = "testkit")]
            CallServices::Kit(kit) => kit.client_request(method, params),
        }
    }
}

/// Decodes the host's answer to a client request.
fn decode_client_answer(answer: RResult<RString, RString>) -> Result<Value, ClientError> {
    #[derive(Deserialize)]
    struct Failure {
        kind: String,
        message: String,
    }
    match answer {
        RResult::ROk(json) => {
            serde_json::from_str(json.as_str()).map_err(|error| ClientError::Failed(error.to_string()))
        }
        RResult::RErr(json) => match serde_json::from_str::<Failure>(json.as_str()) {
            Ok(failure) if failure.kind == "unsupported" => Err(ClientError::Unsupported(failure.message)),
            Ok(failure) => Err(ClientError::Failed(failure.message)),
            Err(_) => Err(ClientError::Failed(json.into_string())),
        },
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use abi_stable::{sabi_trait::TD_Opaque, std_types::ROption};

    use super::*;
    use crate::abi::{HostServices, HostServices_TO};

    /// A host that predates announcements: `announce` keeps the ABI's default body, which is
    /// what a plugin gets from a host whose services lack the method.
    struct OldHost {
        logs: Arc<Mutex<Vec<(u8, String)>>>,
    }

    impl HostServices for OldHost {
        fn plugin_config(&self) -> RString {
            RString::from("{}")
        }

        fn shared_config(&self, _key: RStr<'_>) -> ROption<RString> {
            ROption::RNone
        }

        fn log(&self, level: u8, message: RStr<'_>) {
            self.logs.lock().unwrap().push((level, message.to_string()));
        }
    }

    #[test]
    fn an_announcement_to_a_host_that_predates_them_is_a_debug_record() {
        let logs = Arc::new(Mutex::new(Vec::new()));
        let host = HostServices_TO::from_value(OldHost { logs: Arc::clone(&logs) }, TD_Opaque);
        let context = PluginContext::from_host(Arc::new(host));
        context.announce(Announcement::ResourceUpdated("notes://1".into()));
        let logs = logs.lock().unwrap();
        assert_eq!(logs.len(), 1);
        assert_eq!(logs[0].0, level::DEBUG);
        assert!(logs[0].1.contains("does not take announcements") && logs[0].1.contains("notes://1"), "{logs:?}");
    }

    #[test]
    fn announcements_cross_the_abi_as_json() {
        assert_eq!(
            Announcement::ResourceUpdated("a://b".into()).to_json(),
            serde_json::json!({ "resourceUpdated": "a://b" })
        );
        assert_eq!(Announcement::PromptsChanged.to_json(), serde_json::json!({ "listChanged": ["prompts"] }));
        assert_eq!(Announcement::ResourcesChanged.to_json(), serde_json::json!({ "listChanged": ["resources"] }));
    }
}
