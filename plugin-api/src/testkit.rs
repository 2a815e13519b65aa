//! A test kit for plugin authors: call a tool in process, without a host,
//! and inspect what it reported; or load the built library into the real
//! host and call it over MCP ([`host`]).
//!
//! | need | use |
//! |---|---|
//! | call a tool, no client behind it (progress goes nowhere) | [`TestCall::run`] and ignore [`TestCall::progress`] |
//! | record progress and log records | [`TestCall::progress`], [`TestCall::logs`] |
//! | cancel a call | [`TestCall::cancel_handle`] |
//! | content negotiation, client requests | [`TestCall::with_features`], [`TestCall::with_client`] |
//! | test initialisation, configuration, locks | [`TestPluginContext`] |
//! | that the plugin announced a resource update or a list change | [`TestPluginContext::announcements`] |
//! | the host's checks (descriptor, arguments, output) | applied by every [`TestCall`]; [`assert_descriptor_accepted`] |
//! | the real host, over MCP | [`host::HostUnderTest`] |
//!
//! Enable it for tests only:
//!
//! ```toml
//! [dev-dependencies]
//! mcp-plugin-api = { version = "1", features = ["testkit"] }
//! ```
//!
//! ```
//! use mcp_plugin_api::{CallContext, Tool, ToolOutcome, ToolResult, ToolSpec, testkit::TestCall};
//! use serde_json::{Value, json};
//!
//! struct Count;
//!
//! impl Tool for Count {
//!     fn spec(&self) -> ToolSpec {
//!         ToolSpec::new("count", "Counts to three.")
//!     }
//!     async fn call(&self, _args: Value, ctx: CallContext) -> ToolOutcome {
//!         for step in 1..=3 {
//!             ctx.progress(step as f64, Some(3.0), None);
//!         }
//!         Ok(ToolResult::text("done"))
//!     }
//! }
//!
//! let call = TestCall::new();
//! let result = call.run(&Count, json!({}));
//! assert_eq!(result.joined_text(), "done");
//! assert_eq!(call.progress().len(), 3);
//! ```

pub mod host;

use std::{
    collections::HashSet,
    sync::{Arc, Mutex},
};

use abi_stable::{sabi_trait::TD_Opaque, std_types::RString};
use cancel_flag::CancelFlag;
use serde_json::{Map, Value};

use crate::{
    Announcement, CallContext, ClientError, Level, Logger, PluginContext, Prompt, PromptResult, ReadRequest, Resource,
    ResourceContents, Tool, ToolError, ToolResult, ToolSpec,
    abi::{HeldLock, HeldLock_TO, LockOutcome},
    check::ToolSchemas,
};

/// One progress report as the tool made it.
#[derive(Debug, Clone, PartialEq)]
pub struct ProgressReport {
    /// Progress so far.
    pub progress: f64,
    /// The total, when the tool knew it.
    pub total: Option<f64>,
    /// The message, if any.
    pub message: Option<String>,
}

type ClientHandler = Arc<dyn Fn(&str, Value) -> Result<Value, ClientError> + Send + Sync>;

/// What a [`CallContext`] built by the kit records and answers.
pub(crate) struct KitServices {
    progress: Mutex<Vec<ProgressReport>>,
    logs: Arc<Mutex<Vec<(Level, String)>>>,
    cancel: CancelFlag,
    client: Mutex<Option<ClientHandler>>,
}

impl KitServices {
    pub(crate) fn progress(&self, progress: f64, total: Option<f64>, message: Option<&str>) {
        lock(&self.progress).push(ProgressReport { progress, total, message: message.map(str::to_owned) });
    }

    pub(crate) fn is_cancelled(&self) -> bool {
        self.cancel.is_set()
    }

    pub(crate) async fn cancelled(&self) {
        self.cancel.wait().await
    }

    pub(crate) fn logger(&self) -> Logger {
        Logger::capture(Arc::clone(&self.logs))
    }

    pub(crate) fn client_request(&self, method: &str, params: Value) -> Result<Value, ClientError> {
        let handler = lock(&self.client).clone();
        match handler {
            Some(handler) => handler(method, params),
            None => Err(ClientError::Unsupported(method.to_owned())),
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A handle that cancels a [`TestCall`] from another thread or task.
#[derive(Clone)]
pub struct CancelHandle(CancelFlag);

impl CancelHandle {
    /// Asks the call to stop, as a client's `notifications/cancelled` would.
    pub fn cancel(&self) {
        self.0.set();
    }
}

/// One call of a tool in process, with recording services; also one
/// rendering of a prompt, read of a resource or completion
/// ([`Self::get_prompt`], [`Self::read`], [`Self::complete`]), which get the
/// same context.
///
/// A call is checked the way the host checks it ([`crate::check`]): the
/// tool's descriptor must be one every MCP client accepts (else the call
/// panics, as the host would refuse the tool), arguments that do not match
/// the input schema are answered with the host's error result without
/// running the tool, and a successful result whose `structuredContent` does
/// not match the output schema panics (the host would replace it with an
/// error naming the plugin). [`TestCall::unchecked`] turns the argument
/// check off, to test a tool's own handling of input the host refuses.
pub struct TestCall {
    services: Arc<KitServices>,
    features: Vec<String>,
    check_arguments: bool,
}

impl Default for TestCall {
    fn default() -> Self {
        Self::new()
    }
}

impl TestCall {
    /// A call whose client supports nothing and sent no feature tags.
    pub fn new() -> Self {
        Self {
            services: Arc::new(KitServices {
                progress: Mutex::new(Vec::new()),
                logs: Arc::new(Mutex::new(Vec::new())),
                cancel: CancelFlag::default(),
                client: Mutex::new(None),
            }),
            features: Vec::new(),
            check_arguments: true,
        }
    }

    /// Hands the tool its arguments as given, without the host's check
    /// against the input schema: for testing the tool's own checks of input
    /// that the host would never let through. The descriptor and output
    /// checks still apply.
    pub fn unchecked(mut self) -> Self {
        self.check_arguments = false;
        self
    }

    /// Sets the client's feature tags (content negotiation).
    pub fn with_features(mut self, features: &[&str]) -> Self {
        self.features = features.iter().map(|tag| (*tag).to_owned()).collect();
        self
    }

    /// Answers the tool's requests to the client (`elicitation/create`,
    /// `sampling/createMessage`, `roots/list`) with `handler`.
    pub fn with_client(
        self,
        handler: impl Fn(&str, Value) -> Result<Value, ClientError> + Send + Sync + 'static,
    ) -> Self {
        *lock(&self.services.client) = Some(Arc::new(handler));
        self
    }

    /// A handle that cancels this call.
    pub fn cancel_handle(&self) -> CancelHandle {
        CancelHandle(self.services.cancel.clone())
    }

    /// The context the tool receives.
    pub fn context(&self) -> CallContext {
        CallContext::from_kit(Arc::clone(&self.services), self.features.clone())
    }

    /// Runs the tool to completion on a fresh tokio runtime, checked the way
    /// the host checks it (an `Err` becomes an error result).
    pub fn run(&self, tool: &impl Tool, args: Value) -> ToolResult {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("a tokio runtime for the test call");
        runtime.block_on(self.call(tool, args))
    }

    /// Runs the tool to completion on the caller's tokio runtime: the form
    /// for `#[tokio::test]`, where [`Self::run`] cannot start a runtime.
    pub async fn call(&self, tool: &impl Tool, args: Value) -> ToolResult {
        let spec = tool.spec();
        let schemas = checked_schemas(&spec);
        if self.check_arguments
            && let Err(problems) = schemas.check_arguments(&args)
        {
            return ToolResult::error(problems);
        }
        let result = match tool.call(args, self.context()).await {
            Ok(result) => result,
            Err(error) => error.into_result(),
        };
        // The host checks an error's structured content too (one SDK client rejects a mismatching one).
        let checked = !result.is_error || result.structured_content.is_some();
        if checked && let Err(problem) = schemas.check_output(result.structured_content.as_ref()) {
            panic!(
                "tool '{}' returned structured content that does not match its outputSchema, so the host would \
                 not pass it on: {problem}\nstructuredContent: {}",
                spec.name(),
                result.structured_content.as_ref().map_or_else(|| "(none)".to_owned(), Value::to_string)
            );
        }
        result
    }

    /// Renders `prompt` for this request, as the host does ([`Prompt::get_with`]).
    pub async fn get_prompt(
        &self,
        prompt: &impl Prompt,
        arguments: Map<String, Value>,
    ) -> Result<PromptResult, ToolError> {
        prompt.get_with(arguments, self.context()).await
    }

    /// Completion values of `prompt`'s `argument` for this request, as the host asks them
    /// ([`Prompt::complete_with`]).
    pub async fn complete(&self, prompt: &impl Prompt, argument: &str, value: &str) -> Vec<String> {
        prompt.complete_with(argument, value, self.context()).await
    }

    /// Reads `uri` through `resource` for this request, as the host does ([`Resource::read_with`]).
    pub async fn read(
        &self,
        resource: &impl Resource,
        uri: &str,
        request: &ReadRequest,
    ) -> Result<Vec<ResourceContents>, ToolError> {
        resource.read_with(uri, request, self.context()).await
    }

    /// Every progress report, in order.
    pub fn progress(&self) -> Vec<ProgressReport> {
        lock(&self.services.progress).clone()
    }

    /// Every log record the call made through its context's logger.
    pub fn logs(&self) -> Vec<(Level, String)> {
        lock(&self.services.logs).clone()
    }
}

/// Checks a tool's descriptor as the host does at load, and compiles its
/// schemas; panics with every problem when the host would refuse the tool.
///
/// [`TestCall`] applies it to every call; call it directly to check a tool
/// that a test does not call.
pub fn assert_descriptor_accepted(spec: &ToolSpec) {
    checked_schemas(spec);
}

/// What `mcp-plugin-host check` says of `section` as the settings of a plugin that declares
/// `schema` ([`Plugin::settings_schema`](crate::Plugin::settings_schema)): empty when it would
/// pass. Lets a plugin's tests pin its schema to the settings it reads.
pub fn settings_problems(schema: &Value, section: &Value) -> Vec<String> {
    crate::check::check_settings(schema, section).err().unwrap_or_default()
}

fn checked_schemas(spec: &ToolSpec) -> ToolSchemas {
    let descriptor = serde_json::to_value(spec).expect("a tool spec serializes to JSON");
    let problems = crate::check::descriptor::check_tool(&descriptor);
    if !problems.is_empty() {
        let problems: Vec<String> = problems.iter().map(ToString::to_string).collect();
        panic!(
            "the host would refuse tool '{}', because MCP clients would reject its descriptor:\n  {}",
            spec.name(),
            problems.join("\n  ")
        );
    }
    ToolSchemas::compile(spec.get_input_schema(), spec.get_output_schema())
        .unwrap_or_else(|problem| panic!("the host would refuse tool '{}': {problem}", spec.name()))
}

/// The in-memory services behind a [`TestPluginContext`]: shared
/// configuration and a lock table that behaves like the host's.
pub(crate) struct KitPlugin {
    pub(crate) shared: Map<String, Value>,
    pub(crate) host_info: Option<Value>,
    locks: Arc<Mutex<HashSet<String>>>,
    announcements: Mutex<Vec<Announcement>>,
}

impl KitPlugin {
    /// Records an announcement, as a host that takes them would.
    pub(crate) fn announce(&self, announcement: Announcement) -> bool {
        lock(&self.announcements).push(announcement);
        true
    }

    /// Grants a free key at once and refuses a held one (no waiting).
    pub(crate) fn acquire_lock(&self, request: &str) -> LockOutcome {
        let request: Value = serde_json::from_str(request).unwrap_or_default();
        let key = request["key"].as_str().unwrap_or_default().to_owned();
        let granted = lock(&self.locks).insert(key.clone());
        let mut info = serde_json::json!({ "lockScope": request["scope"], "lockKey": key });
        if !granted {
            info["lockContended"] = Value::Bool(true);
            info["lockWaitedMs"] = Value::from(0);
        }
        let guard =
            granted.then(|| HeldLock_TO::from_value(KitLock { key, table: Arc::clone(&self.locks) }, TD_Opaque));
        LockOutcome { info: RString::from(info.to_string()), guard: guard.into() }
    }
}

/// A key held in the kit's lock table; dropping it frees the key.
struct KitLock {
    key: String,
    table: Arc<Mutex<HashSet<String>>>,
}

impl HeldLock for KitLock {
    fn key(&self) -> RString {
        RString::from(self.key.as_str())
    }
}

impl Drop for KitLock {
    fn drop(&mut self) {
        lock(&self.table).remove(&self.key);
    }
}

/// A [`PluginContext`] with in-memory configuration, a captured logger and
/// an in-memory lock table, for testing a plugin's initialisation and its
/// use of locks.
pub struct TestPluginContext {
    logs: Arc<Mutex<Vec<(Level, String)>>>,
    context: PluginContext,
    kit: Arc<KitPlugin>,
}

impl TestPluginContext {
    /// A context with the plugin's own section `config` and the shared
    /// `Plugins.Config` entries `shared`.
    pub fn new(config: Value, shared: Map<String, Value>) -> Self {
        Self::build(config, shared, None)
    }

    /// As [`Self::new`], with what [`PluginContext::host_info`] answers.
    pub fn with_host_info(config: Value, shared: Map<String, Value>, host_info: Value) -> Self {
        Self::build(config, shared, Some(host_info))
    }

    fn build(config: Value, shared: Map<String, Value>, host_info: Option<Value>) -> Self {
        let logs = Arc::new(Mutex::new(Vec::new()));
        let kit = Arc::new(KitPlugin { shared, host_info, locks: Arc::default(), announcements: Mutex::default() });
        let context = PluginContext::in_memory(config, Arc::clone(&kit), Logger::capture(Arc::clone(&logs)));
        Self { logs, context, kit }
    }

    /// The context to hand the plugin.
    pub fn context(&self) -> &PluginContext {
        &self.context
    }

    /// Every record logged through the context's logger.
    pub fn logs(&self) -> Vec<(Level, String)> {
        lock(&self.logs).clone()
    }

    /// Every announcement made through the context ([`PluginContext::announce`]) or a clone
    /// of it (the one a tool keeps), in order.
    pub fn announcements(&self) -> Vec<Announcement> {
        lock(&self.kit.announcements).clone()
    }

    /// Forgets the announcements recorded so far, to assert on what one step announces.
    pub fn clear_announcements(&self) {
        lock(&self.kit.announcements).clear();
    }
}

/// A cancellation flag that can be awaited.
mod cancel_flag {
    use std::sync::Arc;
    use tokio::sync::watch;

    /// Set once, awaited by any number of tasks.
    #[derive(Clone)]
    pub(crate) struct CancelFlag(Arc<watch::Sender<bool>>);

    impl Default for CancelFlag {
        fn default() -> Self {
            Self(Arc::new(watch::channel(false).0))
        }
    }

    impl CancelFlag {
        pub(crate) fn set(&self) {
            self.0.send_replace(true);
        }

        pub(crate) fn is_set(&self) -> bool {
            *self.0.borrow()
        }

        pub(crate) async fn wait(&self) {
            let mut receiver = self.0.subscribe();
            // The sender lives in `self`, so the channel cannot close here.
            let _ = receiver.wait_for(|set| *set).await;
        }
    }
}
