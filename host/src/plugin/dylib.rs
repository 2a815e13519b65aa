//! Plugins in the host's process, from `cdylib` libraries through the
//! stable ABI of `mcp-plugin-api`: a library opened ([`Library`]), its
//! plugin created at once ([`DylibPlugin`]) or on first use
//! ([`LazyPlugin`]).
//!
//! Opening checks the library's ABI before any of its tools is trusted: a
//! library built against another major version of the plugin API is
//! refused with one line that names both versions. Nothing is ever
//! unloaded (abi_stable never closes a library), so a refused or disabled
//! library stays mapped but unused.
//!
//! Until a client calls one of its tools, reads one of its resources or
//! gets one of its prompts, a [`LazyPlugin`] answers from the descriptors
//! the plugin cache holds and its library is not even opened. The first use
//! opens the library (a private copy of it, [`super::copies`]), checks its
//! ABI, creates the plugin with its configuration and compares its offer
//! with the cached one; every later use goes straight to the created
//! plugin. If the library cannot be loaded any more, or offers something
//! else than the cache said (a plugin whose offer does not depend only on
//! its file and configuration), each use fails with a message saying so,
//! the cache entry is dropped so the next start loads the library afresh,
//! and a serving host withdraws the plugin's items (see `crate::reload`)
//! until its library changes.

use std::{
    path::{Path, PathBuf},
    sync::{Arc, Mutex, OnceLock},
    time::Instant,
};

use abi_stable::{
    library::{LibraryError, lib_header_from_path},
    sabi_trait::TD_Opaque,
    std_types::{RErr, ROk, ROption, RResult, RStr, RString},
};
use async_ffi::FfiFuture;
use futures::{FutureExt, future::BoxFuture};
use mcp_plugin_api::abi::{
    self, CallServices, CallServices_TO, CallServicesBox, HostServices, HostServices_TO, PluginInstanceBox,
    PluginModuleRef, RequestError,
};
use serde_json::{Value, json, value::RawValue};

use super::{
    CallSession, ClientRequestError, PluginBackend, PluginError,
    cache::{self, Fingerprint, Offer, PluginCache},
    completion_values, copies,
    link::{HostLink, level_from_abi},
    resource_contents,
    threads::CallThreads,
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
        self.run(session, move |instance, services| {
            instance.call(index, RString::from(arguments), services).map(|json| Ok(json.into_string()))
        })
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
        self.run(session, move |instance, services| {
            let answer = instance.get_prompt_with(index, RString::from(arguments.to_string()), services);
            // A plugin that predates typed errors refuses a prompt's arguments with a plain message.
            answer.map(|answer| decode_answer(answer, PluginError::InvalidParams))
        })
    }

    fn complete_prompt(
        &self,
        index: u32,
        argument: String,
        value: String,
        session: Arc<dyn CallSession>,
    ) -> BoxFuture<'static, Result<Vec<String>, PluginError>> {
        self.run(session, move |instance, services| {
            let answer = instance.complete_prompt_with(index, RString::from(argument), RString::from(value), services);
            answer.map(|answer| completion_values(decode_answer(answer, PluginError::Failed)?))
        })
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
        self.run(session, move |instance, services| {
            let request = RString::from(request.to_string());
            let answer = instance.read_resource_with(index, RString::from(uri), request, services);
            answer.map(|answer| resource_contents(decode_answer(answer, PluginError::Failed)?))
        })
    }
}

impl DylibPlugin {
    /// What the plugin offers now, asked of it.
    pub fn current_offer(&self) -> Result<Offer, String> {
        Ok(Offer {
            tools: self.tools()?,
            prompts: self.prompts(),
            resources: self.resources(),
            surface_sha256: OnceLock::new(),
        })
    }

    /// Runs a request of `session` on the plugin's threads: `start` calls into the plugin with
    /// the request's services there. A request that cannot run there is the plugin's fault.
    fn run<T, F>(
        &self,
        session: Arc<dyn CallSession>,
        start: impl FnOnce(&PluginInstanceBox, CallServicesBox) -> F + Send + 'static,
    ) -> BoxFuture<'static, Result<T, PluginError>>
    where
        T: Send + 'static,
        F: Future<Output = Result<T, PluginError>> + Send + Unpin + 'static,
    {
        let instance = Arc::clone(&self.instance);
        let requested = session.requested().clone();
        self.threads.run(
            &requested,
            move || {
                let held = Arc::clone(&session);
                let future = start(&instance, CallServices_TO::from_value(CallBridge { session }, TD_Opaque));
                WithSession { future, _session: held }
            },
            |reason| Err(PluginError::Fault(reason)),
        )
    }
}

/// A plugin's request future holding the request's session, which counts the request in
/// flight whatever the plugin keeps of it: shutdown waits until the future is dropped (on
/// the plugin's thread), which is what kills the processes the request started. Fields drop
/// in order: the future first, then the session.
struct WithSession<F> {
    future: F,
    _session: Arc<dyn CallSession>,
}

impl<F: Future + Unpin> Future for WithSession<F> {
    type Output = F::Output;

    fn poll(mut self: std::pin::Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<F::Output> {
        self.future.poll_unpin(cx)
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

/// A plugin whose library is loaded on first use.
pub struct LazyPlugin {
    name: String,
    version: String,
    file: PathBuf,
    offer: Arc<Offer>,
    cache_entry: Option<(PathBuf, String)>,
    link: Mutex<Option<HostLink>>,
    created: OnceLock<Result<DylibPlugin, String>>,
    on_failure: Option<Box<dyn Fn(String) + Send + Sync>>,
    verified: Option<Fingerprint>,
}

impl LazyPlugin {
    /// A plugin named `name` in `file` that offered `offer` when last loaded.
    /// `on_failure` hears why, if its creation fails (a serving host then
    /// stops listing its items).
    pub fn new(
        name: String,
        version: String,
        file: PathBuf,
        offer: Arc<Offer>,
        cache_file: Option<PathBuf>,
        link: HostLink,
        on_failure: Option<Box<dyn Fn(String) + Send + Sync>>,
    ) -> Self {
        let cache_entry = cache_file.map(|cache_file| (cache_file, cache::key(&file)));
        Self {
            name,
            version,
            file,
            offer,
            cache_entry,
            link: Mutex::new(Some(link)),
            created: OnceLock::new(),
            on_failure,
            verified: None,
        }
    }

    /// With the lock file in force: the library must still have
    /// `fingerprint`, the one it had when it was checked against the lock,
    /// when the plugin is created.
    pub fn verified_as(mut self, fingerprint: Option<Fingerprint>) -> Self {
        self.verified = fingerprint;
        self
    }

    /// The created plugin, creating it on the first call.
    fn created(&self) -> Result<&DylibPlugin, String> {
        let created = self.created.get_or_init(|| {
            let started = Instant::now();
            let created = self.create();
            match &created {
                Ok(_) => tracing::info!(
                    "created plugin {} from {} on first use in {:.1} ms",
                    self.name,
                    self.file.display(),
                    started.elapsed().as_secs_f64() * 1000.0
                ),
                Err(problem) => {
                    tracing::error!("{problem}");
                    if let Some((cache_file, key)) = &self.cache_entry {
                        PluginCache::forget_on_disk(cache_file, key);
                    }
                    if let Some(on_failure) = &self.on_failure {
                        on_failure(problem.clone());
                    }
                }
            }
            created
        });
        created.as_ref().map_err(Clone::clone)
    }

    fn create(&self) -> Result<DylibPlugin, String> {
        let failed =
            |problem: String| format!("plugin {} ({}) could not be loaded: {problem}", self.name, self.file.display());
        let copy = copies::copy(&self.file).map_err(failed)?;
        if let Some(verified) = &self.verified
            && copy.fingerprint.as_ref() != Some(verified)
        {
            return Err(failed(
                "its library changed after the host checked it against the lock file; it is withdrawn until a \
                 reload checks it again"
                    .to_owned(),
            ));
        }
        let library = Library::open(&copy.path).map_err(|error| failed(error.to_string()))?;
        if library.name() != self.name {
            return Err(failed(format!(
                "the library now holds plugin '{}'; it is withdrawn until its library changes or the host restarts",
                library.name()
            )));
        }
        let link = self.link.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).take();
        let link = link.ok_or_else(|| failed("an earlier attempt failed".to_owned()))?;
        let plugin = library.create(link, CallThreads::new(&self.name)).map_err(|error| failed(error.to_string()))?;
        if !plugin.current_offer().map_err(failed)?.same_as(&self.offer) {
            return Err(failed(
                "it offers other tools, prompts or resources than when the host started; it is withdrawn until its \
                 library changes or the host restarts"
                    .to_owned(),
            ));
        }
        Ok(plugin)
    }
}

impl PluginBackend for LazyPlugin {
    fn name(&self) -> &str {
        &self.name
    }

    fn version(&self) -> &str {
        &self.version
    }

    fn offer(&self) -> Option<&Offer> {
        Some(&self.offer)
    }

    fn call(
        &self,
        index: u32,
        arguments: String,
        session: Arc<dyn CallSession>,
    ) -> BoxFuture<'static, Result<String, PluginError>> {
        match self.created() {
            Ok(plugin) => plugin.call(index, arguments, session),
            Err(problem) => unavailable(problem),
        }
    }

    fn get_prompt(
        &self,
        index: u32,
        arguments: Value,
        session: Arc<dyn CallSession>,
    ) -> BoxFuture<'static, Result<Value, PluginError>> {
        match self.created() {
            Ok(plugin) => plugin.get_prompt(index, arguments, session),
            Err(problem) => unavailable(problem),
        }
    }

    fn complete_prompt(
        &self,
        index: u32,
        argument: String,
        value: String,
        session: Arc<dyn CallSession>,
    ) -> BoxFuture<'static, Result<Vec<String>, PluginError>> {
        match self.created() {
            Ok(plugin) => plugin.complete_prompt(index, argument, value, session),
            Err(problem) => unavailable(problem),
        }
    }

    fn read_resource(
        &self,
        index: u32,
        uri: String,
        request: Value,
        session: Arc<dyn CallSession>,
    ) -> BoxFuture<'static, Result<Vec<Value>, PluginError>> {
        match self.created() {
            Ok(plugin) => plugin.read_resource(index, uri, request, session),
            Err(problem) => unavailable(problem),
        }
    }
}

/// The answer to every request of a plugin that could not be created.
fn unavailable<T: Send + 'static>(problem: String) -> BoxFuture<'static, Result<T, PluginError>> {
    futures::future::ready(Err(PluginError::Fault(problem))).boxed()
}
