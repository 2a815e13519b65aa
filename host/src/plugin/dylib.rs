//! Plugins loaded into the host's process from `cdylib` libraries through
//! the stable ABI of `mcp-plugin-api`.
//!
//! Loading checks the library's ABI before any of its tools is trusted: a
//! library built against another major version of the plugin API is
//! refused with one line that names both versions. Nothing is ever
//! unloaded (abi_stable never closes a library), so a refused or disabled
//! library stays mapped but unused.

use std::{path::Path, sync::Arc};

use abi_stable::{
    library::{LibraryError, lib_header_from_path},
    sabi_trait::TD_Opaque,
    std_types::{RErr, RNone, ROk, ROption, RResult, RSome, RStr, RString},
};
use async_ffi::FfiFuture;
use futures::{FutureExt, future::BoxFuture};
use mcp_plugin_api::abi::{
    self, CallServices, CallServices_TO, HeldLock, HeldLock_TO, HostServices, HostServices_TO, LockOutcome,
    PluginInstanceBox, PluginModuleRef, RequestError,
};
use serde_json::{Map, Value, json, value::RawValue};

use super::{
    CallSession, ClientRequestError, Level, PluginBackend, PluginError,
    discovery::{Relist, Relisting},
    threads::CallThreads,
};
use crate::{
    locks::{HeldKey, LockRequest, LockTable},
    logging::PluginLog,
    state::ResourceUpdates,
};

/// Why a library could not be loaded as a plugin.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be opened as a dynamic library.
    #[error("not a loadable library: {0}")]
    Open(String),
    /// The library does not export a plugin root module.
    #[error("not an mcp-plugin-host plugin (it exports no plugin module)")]
    NotAPlugin,
    /// The library was built against an incompatible plugin API.
    #[error("incompatible ABI: built against mcp-plugin-api {plugin}, this host speaks {host}")]
    IncompatibleAbi {
        /// The plugin API version the library declares.
        plugin: String,
        /// The host's plugin API version.
        host: String,
    },
    /// The library declares a compatible version but its types differ
    /// (built from a modified or mismatched plugin API).
    #[error(
        "incompatible ABI: it declares mcp-plugin-api {declared} but its types do not match this host's \
         mcp-plugin-api {host}; rebuild it against mcp-plugin-api {host}"
    )]
    LayoutMismatch {
        /// The version the library declares.
        declared: String,
        /// The host's plugin API version.
        host: String,
    },
    /// The plugin's constructor failed or panicked.
    #[error("{0}")]
    Create(String),
}

/// A library whose root module passed the ABI check, before the plugin is created.
pub struct Library {
    module: PluginModuleRef,
    abi_version: String,
}

impl Library {
    /// Opens `path` and checks its ABI. The long abi_stable report of a
    /// layout mismatch is kept at debug level; the error is one line.
    pub fn open(path: &Path) -> Result<Self, LoadError> {
        let header = lib_header_from_path(path).map_err(|error| match error {
            LibraryError::GetSymbolError { .. } => LoadError::NotAPlugin,
            // The loader's own words (e.g. "invalid ELF header"), not abi_stable's multi-line frame.
            LibraryError::OpenError { err, .. } => LoadError::Open(first_line(&err.to_string())),
            other => LoadError::Open(first_line(&other.to_string())),
        })?;
        let declared = header.version_strings().version.to_string();
        let incompatible =
            || LoadError::IncompatibleAbi { plugin: declared.clone(), host: abi::ABI_VERSION.to_owned() };
        match header.init_root_module::<PluginModuleRef>() {
            Ok(module) => Ok(Self { module, abi_version: declared.clone() }),
            Err(LibraryError::IncompatibleVersionNumber { .. }) => Err(incompatible()),
            Err(LibraryError::AbiInstability(details)) => {
                tracing::debug!(file = %path.display(), "ABI layout mismatch:\n{details}");
                Err(LoadError::LayoutMismatch { declared: declared.clone(), host: abi::ABI_VERSION.to_owned() })
            }
            Err(other) => Err(LoadError::Open(first_line(&other.to_string()))),
        }
    }

    /// The plugin's declared name.
    pub fn name(&self) -> String {
        self.module.name().to_string()
    }

    /// The plugin's declared version.
    pub fn version(&self) -> String {
        self.module.version().to_string()
    }

    /// The JSON Schema the plugin declares for its own configuration section;
    /// `Ok(None)` when it declares none or predates the declaration.
    pub fn settings_schema(&self) -> Result<Option<Value>, String> {
        let Some(schema) = self.module.settings_schema() else { return Ok(None) };
        match serde_json::from_str(schema().as_str()) {
            Ok(Value::Null) => Ok(None),
            Ok(schema) => Ok(Some(schema)),
            Err(error) => Err(format!("its settings schema is not JSON: {error}")),
        }
    }

    /// The plugin-API version the library was built against.
    pub fn abi_version(&self) -> &str {
        &self.abi_version
    }

    /// Creates the plugin with its configuration and logger: the host's own
    /// services in process, or those a worker forwards to the host. `threads`
    /// is where its calls run: its own in the host, the worker's in a worker.
    pub fn create(&self, link: impl HostServices + 'static, threads: CallThreads) -> Result<DylibPlugin, LoadError> {
        let name = self.name();
        let version = self.version();
        let services = HostServices_TO::from_value(link, TD_Opaque);
        match (self.module.create())(services) {
            ROk(instance) => Ok(DylibPlugin { name, version, instance: Arc::new(instance), threads }),
            RErr(message) => Err(LoadError::Create(message.into_string())),
        }
    }
}

fn first_line(text: &str) -> String {
    text.lines().find(|line| !line.trim().is_empty()).unwrap_or(text).trim().to_owned()
}

/// What the host lends a plugin for its whole life.
#[derive(Clone)]
pub struct HostLink {
    /// The plugin's name, to tell lock holders apart.
    pub plugin: String,
    /// The plugin's own configuration section.
    pub config: Value,
    /// `Plugins.Config`.
    pub shared: Arc<Map<String, Value>>,
    /// Where the plugin's log records go.
    pub log: PluginLog,
    /// The host-wide lock table.
    pub locks: Arc<LockTable>,
    /// The host's runtime: lock waits run there, since a plugin may poll
    /// from a thread of its own runtime.
    pub runtime: tokio::runtime::Handle,
    /// What the host serves, replaced whenever that changes (start-up, reload).
    pub catalog: Arc<arc_swap::ArcSwap<Value>>,
    /// Where the plugin's resource updates go, to every session.
    pub updates: ResourceUpdates,
    /// Told when the plugin announces that its lists changed (a serving host's reloader).
    pub relist: Option<Relist>,
}

/// An announcement as it crosses the ABI ([`HostServices::announce`]).
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct WireAnnouncement {
    resource_updated: Option<String>,
    #[serde(default)]
    list_changed: Vec<String>,
}

impl HostLink {
    /// Passes a plugin's announcement (its JSON text, [`HostServices::announce`])
    /// on: a resource update to the sessions, a list change to the reloader.
    /// A worker's announcements arrive here too, so both ways of running a
    /// plugin announce alike.
    pub fn pass_on(&self, announcement: &str) {
        let announcement = match serde_json::from_str::<WireAnnouncement>(announcement) {
            Ok(announcement) => announcement,
            Err(error) => {
                tracing::warn!(plugin = %self.plugin, "a malformed announcement was ignored: {error}");
                return;
            }
        };
        if let Some(uri) = announcement.resource_updated {
            tracing::debug!(plugin = %self.plugin, uri, "resource updated");
            self.updates.announce(uri);
        }
        let lists = &announcement.list_changed;
        let (prompts, resources) = (lists.iter().any(|l| l == "prompts"), lists.iter().any(|l| l == "resources"));
        if (prompts || resources)
            && let Some(relist) = &self.relist
        {
            relist(Relisting { plugin: self.plugin.clone(), prompts, resources });
        }
    }
}

impl HostServices for HostLink {
    fn plugin_config(&self) -> RString {
        RString::from(self.config.to_string())
    }

    fn shared_config(&self, key: RStr<'_>) -> ROption<RString> {
        shared_setting(&self.shared, key)
    }

    fn log(&self, level: u8, message: RStr<'_>) {
        self.log.emit(level_from_abi(level), message.as_str());
    }

    fn host_info(&self) -> RString {
        RString::from(self.catalog.load().to_string())
    }

    fn announce(&self, announcement: RString) -> bool {
        self.pass_on(announcement.as_str());
        true
    }

    fn acquire_lock(&self, request: RString) -> FfiFuture<LockOutcome> {
        let refused = |message: String| LockOutcome {
            info: RString::from(json!({ "error": message }).to_string()),
            guard: RNone,
        };
        let request = match serde_json::from_str::<WireLockRequest>(request.as_str()) {
            Ok(request) => request.into_request(),
            Err(error) => {
                let outcome = refused(format!("malformed lock request: {error}"));
                return FfiFuture::new(async move { outcome });
            }
        };
        let table = Arc::clone(&self.locks);
        let plugin = self.plugin.clone();
        let acquiring = self.runtime.spawn(async move { table.acquire(&plugin, request).await });
        FfiFuture::new(async move {
            match acquiring.await {
                Ok((info, held)) => LockOutcome {
                    info: RString::from(info.to_string()),
                    guard: held.map(|held| HeldLock_TO::from_value(AbiHeldKey(held), TD_Opaque)).into(),
                },
                Err(error) => {
                    LockOutcome { info: RString::from(json!({ "error": error.to_string() }).to_string()), guard: RNone }
                }
            }
        })
    }
}

/// A lock request as it crosses the ABI: JSON `{scope, key, operation, waitMs}`.
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct WireLockRequest {
    scope: Value,
    key: String,
    operation: String,
    #[serde(default)]
    wait_ms: u64,
}

impl WireLockRequest {
    pub(super) fn into_request(self) -> LockRequest {
        LockRequest {
            scope: self.scope,
            key: self.key,
            operation: self.operation,
            wait: std::time::Duration::from_millis(self.wait_ms),
        }
    }
}

/// A granted key as the ABI's held-lock object; the plugin drops it to release the key.
struct AbiHeldKey(HeldKey);

impl HeldLock for AbiHeldKey {
    fn key(&self) -> RString {
        RString::from(self.0.key())
    }
}

/// Maps tracing's level onto the ABI's (a worker sends its plugin's call logs this way).
pub fn level_to_abi(level: Level) -> u8 {
    match level {
        Level::TRACE => abi::level::TRACE,
        Level::DEBUG => abi::level::DEBUG,
        Level::INFO => abi::level::INFO,
        Level::WARN => abi::level::WARN,
        _ => abi::level::ERROR,
    }
}

/// Maps the ABI's log level onto tracing's.
pub fn level_from_abi(level: u8) -> Level {
    match level {
        abi::level::TRACE => Level::TRACE,
        abi::level::DEBUG => Level::DEBUG,
        abi::level::INFO => Level::INFO,
        abi::level::WARN => Level::WARN,
        _ => Level::ERROR,
    }
}

/// A plugin created from a library.
pub struct DylibPlugin {
    name: String,
    version: String,
    /// Shared with the calls running on `threads`, which may outlive the plugin's last use.
    instance: Arc<PluginInstanceBox>,
    /// Where its futures are created and polled (never the host's workers).
    threads: CallThreads,
}

impl PluginBackend for DylibPlugin {
    fn name(&self) -> &str {
        &self.name
    }

    fn version(&self) -> &str {
        &self.version
    }

    fn tools(&self) -> Result<Vec<Box<RawValue>>, String> {
        match self.instance.tools() {
            ROk(json) => serde_json::from_str(json.as_str())
                .map_err(|error| format!("the plugin's tool list is not a JSON array of tools: {error}")),
            RErr(message) => Err(message.into_string()),
        }
    }

    fn call(
        &self,
        index: u32,
        arguments: String,
        session: Arc<dyn CallSession>,
    ) -> BoxFuture<'static, Result<String, PluginError>> {
        let instance = Arc::clone(&self.instance);
        let requested = session.requested().clone();
        self.threads.run(
            &requested,
            move || {
                let services = CallServices_TO::from_value(CallBridge { session }, TD_Opaque);
                instance.call(index, RString::from(arguments), services).map(|json| Ok(json.into_string()))
            },
            |reason| Err(PluginError::Fault(reason)),
        )
    }

    fn prompts(&self) -> Vec<Value> {
        json_array(self.instance.prompts())
    }

    fn get_prompt(
        &self,
        index: u32,
        arguments: Value,
        session: Arc<dyn CallSession>,
    ) -> BoxFuture<'static, Result<Value, PluginError>> {
        let instance = Arc::clone(&self.instance);
        let requested = session.requested().clone();
        self.threads.run(
            &requested,
            move || {
                let services = CallServices_TO::from_value(CallBridge { session }, TD_Opaque);
                let answer = instance.get_prompt_with(index, RString::from(arguments.to_string()), services);
                // A plugin that predates typed errors refuses a prompt's arguments with a plain message.
                answer.map(|answer| decode_answer(answer, PluginError::InvalidParams))
            },
            |reason| Err(PluginError::Fault(reason)),
        )
    }

    fn complete_prompt(
        &self,
        index: u32,
        argument: String,
        value: String,
        session: Arc<dyn CallSession>,
    ) -> BoxFuture<'static, Result<Vec<String>, PluginError>> {
        let instance = Arc::clone(&self.instance);
        let requested = session.requested().clone();
        self.threads.run(
            &requested,
            move || {
                let services = CallServices_TO::from_value(CallBridge { session }, TD_Opaque);
                let answer =
                    instance.complete_prompt_with(index, RString::from(argument), RString::from(value), services);
                answer.map(|answer| {
                    serde_json::from_value(decode_answer(answer, PluginError::Failed)?).map_err(|error| {
                        PluginError::Fault(format!("its completion values are not a list of strings: {error}"))
                    })
                })
            },
            |reason| Err(PluginError::Fault(reason)),
        )
    }

    fn resources(&self) -> Vec<Value> {
        json_array(self.instance.resources())
    }

    fn read_resource(
        &self,
        index: u32,
        uri: String,
        request: Value,
        session: Arc<dyn CallSession>,
    ) -> BoxFuture<'static, Result<Vec<Value>, PluginError>> {
        let instance = Arc::clone(&self.instance);
        let requested = session.requested().clone();
        self.threads.run(
            &requested,
            move || {
                let services = CallServices_TO::from_value(CallBridge { session }, TD_Opaque);
                let answer = instance.read_resource_with(
                    index,
                    RString::from(uri),
                    RString::from(request.to_string()),
                    services,
                );
                answer.map(|answer| match decode_answer(answer, PluginError::Failed)? {
                    Value::Array(contents) => Ok(contents),
                    other => Err(PluginError::Fault(format!("it answered {other} instead of a list of contents"))),
                })
            },
            |reason| Err(PluginError::Fault(reason)),
        )
    }
}

/// `Plugins.Config.<key>` (without regard to case) as it crosses the ABI, for
/// a plugin in process and in a worker alike.
pub(crate) fn shared_setting(shared: &Map<String, Value>, key: RStr<'_>) -> ROption<RString> {
    match crate::settings::get_ci(shared, key.as_str()) {
        Some(value) => RSome(RString::from(value.to_string())),
        None => RNone,
    }
}

/// A JSON array from the plugin (empty when it sent something else).
fn json_array(json: RString) -> Vec<Value> {
    serde_json::from_str(json.as_str()).unwrap_or_default()
}

/// Decodes a plugin's answer to a prompt, resource or completion request: JSON on success, a
/// [`RequestError`] on failure, or from a plugin that predates those a plain message, which
/// `legacy` makes an error of.
fn decode_answer(
    answer: RResult<RString, RString>,
    legacy: impl FnOnce(String) -> PluginError,
) -> Result<Value, PluginError> {
    match answer {
        ROk(json) => serde_json::from_str(json.as_str())
            .map_err(|error| PluginError::Fault(format!("its answer is not JSON: {error}"))),
        RErr(json) => Err(match serde_json::from_str::<RequestError>(json.as_str()) {
            Ok(error) => match error.kind.as_str() {
                RequestError::INVALID_PARAMS => PluginError::InvalidParams(error.message),
                RequestError::NOT_FOUND => PluginError::NotFound(error.message),
                RequestError::PANICKED => PluginError::Fault(format!("it panicked: {}", error.message)),
                _ => PluginError::Failed(error.message),
            },
            Err(_) => legacy(json.into_string()),
        }),
    }
}

/// Presents a [`CallSession`] to a plugin as the ABI's call services.
struct CallBridge {
    session: Arc<dyn CallSession>,
}

impl CallServices for CallBridge {
    fn progress(&self, progress: f64, total: ROption<f64>, message: ROption<RString>) {
        self.session.progress(progress, total.into_option(), message.into_option().map(RString::into_string));
    }

    fn is_cancelled(&self) -> bool {
        self.session.cancellation().is_cancelled()
    }

    fn cancelled(&self) -> FfiFuture<()> {
        FfiFuture::new(self.session.cancellation().clone().cancelled_owned())
    }

    fn features(&self) -> RString {
        RString::from(serde_json::to_string(self.session.features()).unwrap_or_else(|_| "[]".to_owned()))
    }

    fn log(&self, level: u8, message: RStr<'_>) {
        self.session.log(level_from_abi(level), message.as_str());
    }

    fn client_request(&self, method: RString, params: RString) -> FfiFuture<RResult<RString, RString>> {
        let session = Arc::clone(&self.session);
        FfiFuture::new(async move {
            let failure = |kind: &str, message: String| {
                RErr(RString::from(json!({ "kind": kind, "message": message }).to_string()))
            };
            let params = match serde_json::from_str(params.as_str()) {
                Ok(params) => params,
                Err(error) => {
                    return failure("failed", format!("the request parameters are not JSON: {error}"));
                }
            };
            match session.client_request(method.into_string(), params).await {
                Ok(answer) => ROk(RString::from(answer.to_string())),
                Err(ClientRequestError::Unsupported(message)) => failure("unsupported", message),
                Err(ClientRequestError::Failed(message)) => failure("failed", message),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;

    fn link(relisted: Arc<Mutex<Vec<Relisting>>>) -> HostLink {
        HostLink {
            plugin: "notes".to_owned(),
            config: json!({}),
            shared: Arc::new(Map::new()),
            log: PluginLog::new("notes"),
            locks: Arc::default(),
            runtime: tokio::runtime::Handle::current(),
            catalog: Arc::default(),
            updates: ResourceUpdates::default(),
            relist: Some(Arc::new(move |relisting| relisted.lock().unwrap().push(relisting))),
        }
    }

    #[tokio::test]
    async fn announcements_go_to_the_sessions_and_the_reloader() {
        let relisted = Arc::new(Mutex::new(Vec::new()));
        let link = link(Arc::clone(&relisted));
        let mut updates = link.updates.subscribe();
        assert!(link.announce(RString::from(r#"{"resourceUpdated":"notes://1"}"#)));
        assert_eq!(updates.try_recv().unwrap(), "notes://1");
        assert!(link.announce(RString::from(r#"{"listChanged":["resources"]}"#)));
        let relisted = relisted.lock().unwrap();
        assert_eq!((relisted[0].plugin.as_str(), relisted[0].prompts, relisted[0].resources), ("notes", false, true));
    }

    #[tokio::test]
    async fn a_malformed_announcement_is_dropped_without_harm() {
        let relisted = Arc::new(Mutex::new(Vec::new()));
        let link = link(Arc::clone(&relisted));
        let mut updates = link.updates.subscribe();
        for malformed in ["not json", r#"{"resourceUpdated":42}"#, r#"{"somethingElse":true}"#] {
            // Heard (the host takes announcements), but nothing is passed on.
            assert!(link.announce(RString::from(malformed)));
        }
        assert!(updates.try_recv().is_err());
        assert!(relisted.lock().unwrap().is_empty());
    }
}
