//! The worker process: `mcp-plugin-host plugin-worker`, started by the host
//! for a plugin whose `Plugins.Isolation` is `process` (see
//! [`super::supervisor`] for the host's side).
//!
//! It arranges to die with the host, reads its [`Start`] from stdin: a
//! probe only opens the library, confined, and says which plugin it holds
//! ([`Identity`]); otherwise the worker reads its [`Init`], confines
//! itself ([`super::confine`]), loads the library as the host would
//! in process ([`Library`]), and then serves the plugin over the messages of
//! [`super::wire`]: calls run concurrently on the worker's own
//! runtime, and whatever the plugin asks of the host (progress, logs,
//! client requests, locks, host info) is forwarded to it.
//!
//! The protocol does not travel on the worker's stdout: plugin code may
//! print there. At start the worker moves the pipe it got as stdout to a
//! descriptor of its own and points stdout at stderr
//! ([`crate::streams::take_stdout`], as the host does over stdio), so a stray
//! `println!` ends in the host's log instead of breaking a message.

use std::{
    collections::HashMap,
    io::{BufRead, Write},
    process::ExitCode,
    sync::{
        Arc, Mutex, OnceLock,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use abi_stable::sabi_trait::TD_Opaque;
use abi_stable::std_types::{ROption, RStr, RString};
use async_ffi::FfiFuture;
use futures::future::BoxFuture;
use mcp_plugin_api::abi::{self, HeldLock, HeldLock_TO, HostServices, LockOutcome};
use serde_json::{Map, Value, json};
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

use super::{
    confine,
    wire::{FromWorker, Hello, Identity, Init, Lists, Probe, Start, ToWorker, WireClientError},
};
use crate::plugin::{
    CallSession, ClientRequestError, Level, PluginBackend, RequestKind, Requested,
    dylib::{DylibPlugin, Library, LoadError},
    link::{level_to_abi, shared_setting},
    locked,
    threads::CallThreads,
};

/// How long a plugin waits for the host to say what it serves before it
/// gets an empty answer.
const HOST_INFO_WAIT: Duration = Duration::from_secs(5);

/// Runs the worker for the host whose process id is `parent`; returns only on failure to start.
pub fn run(parent: u32) -> ExitCode {
    if let Err(problem) = confine::die_with_parent(parent) {
        eprintln!("worker: {problem}");
        return ExitCode::FAILURE;
    }
    let protocol = match crate::streams::take_stdout() {
        Ok(protocol) => protocol,
        Err(error) => {
            eprintln!("worker: cannot set up the protocol pipe: {error}");
            return ExitCode::FAILURE;
        }
    };
    let outbox = Arc::new(Outbox { pipe: Mutex::new(protocol.into_writer()) });
    let mut stdin = std::io::stdin().lock();
    let mut line = String::new();
    let init: Init = match stdin.read_line(&mut line).map(|_| serde_json::from_str(&line)) {
        Ok(Ok(Start::Serve(init))) => init,
        Ok(Ok(Start::Probe(probe))) => return identify(&probe, &outbox),
        Ok(Err(error)) => return outbox.fail(format!("the worker's start message is not valid: {error}")),
        Err(error) => return outbox.fail(format!("the worker could not read its start message: {error}")),
    };
    for note in confine::confine(&init.file, &init.limits) {
        outbox.send(&FromWorker::Log { call: None, level: abi::level::INFO, message: note });
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(error) => return outbox.fail(format!("the worker could not start its runtime: {error}")),
    };
    let worker = Arc::new(Worker {
        plugin: OnceLock::new(),
        outbox: Arc::clone(&outbox),
        runtime: runtime.handle().clone(),
        calls: Mutex::new(HashMap::new()),
        waiting: Waiting::default(),
    });
    let plugin = match load(&init, &worker) {
        Ok(plugin) => plugin,
        Err(problem) => return outbox.fail(problem),
    };
    let offer = match plugin.current_offer() {
        Ok(offer) => offer,
        Err(problem) => return outbox.fail(format!("its tool list could not be read: {problem}")),
    };
    outbox.send(&FromWorker::Ready(Hello { version: plugin.version().to_owned(), offer }));
    let plugin = Arc::new(plugin);
    let _ = worker.plugin.set(Arc::clone(&plugin));
    for line in stdin.lines() {
        let Ok(line) = line else { break };
        match serde_json::from_str::<ToWorker>(&line) {
            Ok(message) => worker.handle(&plugin, message),
            Err(error) => eprintln!("worker: ignored a message that is not valid: {error}"),
        }
    }
    // The host closed the pipe: it is gone or done with this worker. Calls in flight are not waited for.
    std::process::exit(0)
}

/// Answers a probe: confines the worker, opens the library and says which
/// plugin it holds (or why it is refused, with its ABI version when that is
/// the reason), then ends without creating the plugin.
fn identify(probe: &Probe, outbox: &Outbox) -> ExitCode {
    for note in confine::confine(&probe.file, &probe.limits) {
        outbox.send(&FromWorker::Log { call: None, level: abi::level::DEBUG, message: note });
    }
    match Library::open(&probe.file) {
        Ok(library) => {
            let (name, version) = (library.name(), library.version());
            let abi_version = library.abi_version().to_owned();
            let settings_schema = library.settings_schema().transpose();
            outbox.send(&FromWorker::Identity(Identity { name, version, abi_version, settings_schema }));
            ExitCode::SUCCESS
        }
        Err(error) => {
            let incompatible_abi = match &error {
                LoadError::IncompatibleAbi { plugin: version, .. }
                | LoadError::LayoutMismatch { declared: version, .. } => Some(version.clone()),
                _ => None,
            };
            outbox.send(&FromWorker::Failed { message: error.to_string(), incompatible_abi });
            ExitCode::FAILURE
        }
    }
}

/// Opens the library and creates the plugin with links that forward to the host.
fn load(init: &Init, worker: &Arc<Worker>) -> Result<DylibPlugin, String> {
    let library = Library::open(&init.file).map_err(|error| error.to_string())?;
    if library.name() != init.plugin {
        return Err(format!("the library now holds plugin '{}', not '{}'", library.name(), init.plugin));
    }
    let link = WorkerLink { config: init.config.clone(), shared: init.shared.clone(), worker: Arc::clone(worker) };
    library.create(link, CallThreads::inline(&init.plugin)).map_err(|error| error.to_string())
}

/// The protocol pipe to the host, one message a line.
struct Outbox {
    pipe: Mutex<Box<dyn Write + Send>>,
}

impl Outbox {
    /// Sends one message; a worker whose host is gone exits.
    fn send(&self, message: &FromWorker) {
        let mut line = serde_json::to_vec(message).unwrap_or_default();
        line.push(b'\n');
        let mut pipe = locked(&self.pipe);
        if pipe.write_all(&line).and_then(|()| pipe.flush()).is_err() {
            std::process::exit(0);
        }
    }

    /// Tells the host why the plugin cannot be served, and ends.
    fn fail(&self, message: String) -> ExitCode {
        self.send(&FromWorker::Failed { message, incompatible_abi: None });
        ExitCode::FAILURE
    }
}

/// A request running in the worker (a call, a prompt, a read, a completion).
struct Running {
    cancel: CancellationToken,
    task: tokio::task::JoinHandle<()>,
}

/// The answers the worker awaits from the host, by the id it gave each request.
#[derive(Default)]
struct Waiting {
    next: AtomicU64,
    client: Mutex<HashMap<u64, oneshot::Sender<Result<Value, ClientRequestError>>>>,
    locks: Mutex<HashMap<u64, oneshot::Sender<(String, bool)>>>,
    host_info: Mutex<HashMap<u64, std::sync::mpsc::Sender<String>>>,
}

impl Waiting {
    fn id(&self) -> u64 {
        self.next.fetch_add(1, Ordering::Relaxed)
    }
}

/// The worker's state: the pipe, the calls running and the answers awaited.
struct Worker {
    /// The plugin, once created: a change of its lists is answered with them.
    plugin: OnceLock<Arc<DylibPlugin>>,
    outbox: Arc<Outbox>,
    runtime: tokio::runtime::Handle,
    calls: Mutex<HashMap<u64, Running>>,
    waiting: Waiting,
}

impl Worker {
    fn send(&self, message: &FromWorker) {
        self.outbox.send(message);
    }

    /// Acts on one message from the host.
    fn handle(self: &Arc<Self>, plugin: &Arc<DylibPlugin>, message: ToWorker) {
        match message {
            ToWorker::Call { id, index, arguments, features } => {
                let session = self.session(id, RequestKind::Tool, index, features);
                let call = plugin.call(index, arguments, Arc::clone(&session) as Arc<dyn CallSession>);
                // A tool's own failures are results; a fault here is one the worker can put in one.
                self.run(id, session, async move {
                    let result = call.await.unwrap_or_else(|fault| tool_error(fault.message()));
                    FromWorker::Result { id, result }
                });
            }
            ToWorker::GetPrompt { id, index, arguments, features } => {
                let session = self.session(id, RequestKind::Prompt, index, features);
                let answer = plugin.get_prompt(index, arguments, Arc::clone(&session) as Arc<dyn CallSession>);
                self.run(id, session, async move { FromWorker::Answer { id, answer: answer.await } });
            }
            ToWorker::ReadResource { id, index, uri, request, features } => {
                let session = self.session(id, RequestKind::Resource, index, features);
                let answer = plugin.read_resource(index, uri, request, Arc::clone(&session) as Arc<dyn CallSession>);
                self.run(id, session, async move { FromWorker::Answer { id, answer: answer.await.map(Value::Array) } });
            }
            ToWorker::Complete { id, index, argument, value, features } => {
                let session = self.session(id, RequestKind::Completion, index, features);
                let answer =
                    plugin.complete_prompt(index, argument, value, Arc::clone(&session) as Arc<dyn CallSession>);
                self.run(id, session, async move {
                    FromWorker::Answer { id, answer: answer.await.map(|values| json!(values)) }
                });
            }
            ToWorker::Cancel { id } => {
                if let Some(running) = locked(&self.calls).get(&id) {
                    running.cancel.cancel();
                }
            }
            ToWorker::Drop { id } => {
                let running = locked(&self.calls).remove(&id);
                let worker = Arc::clone(self);
                self.runtime.spawn(async move {
                    if let Some(running) = running {
                        running.task.abort();
                        let _ = running.task.await;
                    }
                    worker.send(&FromWorker::Dropped { id });
                });
            }
            ToWorker::ClientAnswer { id, answer } => {
                if let Some(waiter) = locked(&self.waiting.client).remove(&id) {
                    let _ = waiter.send(answer.map_err(|error| match error {
                        WireClientError::Unsupported(message) => ClientRequestError::Unsupported(message),
                        WireClientError::Failed(message) => ClientRequestError::Failed(message),
                    }));
                }
            }
            ToWorker::LockAnswer { id, info, granted } => {
                if let Some(waiter) = locked(&self.waiting.locks).remove(&id) {
                    let _ = waiter.send((info, granted));
                }
            }
            ToWorker::HostInfo { id, info } => {
                if let Some(waiter) = locked(&self.waiting.host_info).remove(&id) {
                    let _ = waiter.send(info);
                }
            }
        }
    }

    /// The session of request `id`: what it asks goes to the host under that id.
    fn session(self: &Arc<Self>, id: u64, kind: RequestKind, index: u32, features: Vec<String>) -> Arc<WorkerCall> {
        Arc::new(WorkerCall {
            id,
            requested: Requested { kind, item: format!("#{index}") },
            cancel: CancellationToken::new(),
            features,
            worker: Arc::clone(self),
        })
    }

    /// Runs request `id` on the worker's runtime, where the host can cancel and drop it, and
    /// sends the message its answer makes.
    fn run(
        self: &Arc<Self>,
        id: u64,
        session: Arc<WorkerCall>,
        answer: impl Future<Output = FromWorker> + Send + 'static,
    ) {
        let worker = Arc::clone(self);
        // The table is locked until the request is in it, so that a quick one cannot finish before.
        let mut calls = locked(&self.calls);
        let task = self.runtime.spawn(async move {
            let message = answer.await;
            locked(&worker.calls).remove(&id);
            worker.send(&message);
        });
        calls.insert(id, Running { cancel: session.cancel.clone(), task });
    }
}

/// A tool result saying why the call could not run (the plugin never answered it).
fn tool_error(message: &str) -> String {
    json!({ "content": [{ "type": "text", "text": message }], "isError": true }).to_string()
}

/// A request's session in the worker: everything it asks goes to the host.
struct WorkerCall {
    id: u64,
    requested: Requested,
    cancel: CancellationToken,
    features: Vec<String>,
    worker: Arc<Worker>,
}

impl CallSession for WorkerCall {
    fn requested(&self) -> &Requested {
        &self.requested
    }

    fn progress(&self, progress: f64, total: Option<f64>, message: Option<String>) {
        self.worker.send(&FromWorker::Progress { call: self.id, progress, total, message });
    }

    fn cancellation(&self) -> &CancellationToken {
        &self.cancel
    }

    fn features(&self) -> &[String] {
        &self.features
    }

    fn log(&self, level: Level, message: &str) {
        let message = message.to_owned();
        self.worker.send(&FromWorker::Log { call: Some(self.id), level: level_to_abi(level), message });
    }

    fn client_request(&self, method: String, params: Value) -> BoxFuture<'static, Result<Value, ClientRequestError>> {
        let id = self.worker.waiting.id();
        let (answer, answered) = oneshot::channel();
        locked(&self.worker.waiting.client).insert(id, answer);
        self.worker.send(&FromWorker::ClientRequest { id, call: self.id, method, params });
        Box::pin(async move {
            answered.await.unwrap_or_else(|_| Err(ClientRequestError::Failed("the host did not answer".to_owned())))
        })
    }
}

/// What the worker lends its plugin for its whole life: configuration from
/// the start message, everything else asked of the host.
struct WorkerLink {
    config: Value,
    shared: Map<String, Value>,
    worker: Arc<Worker>,
}

impl HostServices for WorkerLink {
    fn plugin_config(&self) -> RString {
        RString::from(self.config.to_string())
    }

    fn shared_config(&self, key: RStr<'_>) -> ROption<RString> {
        shared_setting(&self.shared, key)
    }

    fn log(&self, level: u8, message: RStr<'_>) {
        self.worker.send(&FromWorker::Log { call: None, level, message: message.as_str().to_owned() });
    }

    fn host_info(&self) -> RString {
        let id = self.worker.waiting.id();
        let (answer, answered) = std::sync::mpsc::channel();
        locked(&self.worker.waiting.host_info).insert(id, answer);
        self.worker.send(&FromWorker::HostInfo { id });
        let info = answered.recv_timeout(HOST_INFO_WAIT).unwrap_or_else(|_| "{}".to_owned());
        locked(&self.worker.waiting.host_info).remove(&id);
        RString::from(info)
    }

    fn announce(&self, announcement: RString) -> bool {
        let announcement = announcement.into_string();
        if !announcement.contains("listChanged") {
            self.worker.send(&FromWorker::Announce { announcement, lists: None });
            return true;
        }
        // The lists are read off the announcing thread: it may be inside the plugin.
        let worker = Arc::clone(&self.worker);
        self.worker.runtime.spawn_blocking(move || {
            let lists =
                worker.plugin.get().map(|plugin| Lists { prompts: plugin.prompts(), resources: plugin.resources() });
            worker.send(&FromWorker::Announce { announcement, lists });
        });
        true
    }

    fn acquire_lock(&self, request: RString) -> FfiFuture<LockOutcome> {
        let key = serde_json::from_str::<Value>(request.as_str())
            .ok()
            .and_then(|request| request.get("key").and_then(Value::as_str).map(str::to_owned))
            .unwrap_or_default();
        let id = self.worker.waiting.id();
        let (answer, answered) = oneshot::channel();
        locked(&self.worker.waiting.locks).insert(id, answer);
        self.worker.send(&FromWorker::Lock { id, request: request.into_string() });
        let worker = Arc::clone(&self.worker);
        FfiFuture::new(async move {
            let (info, granted) =
                answered.await.unwrap_or_else(|_| (json!({ "error": "the host did not answer" }).to_string(), false));
            let guard = granted.then(|| HeldLock_TO::from_value(WorkerHeldKey { id, key, worker }, TD_Opaque));
            LockOutcome { info: RString::from(info), guard: guard.into() }
        })
    }
}

/// A key the host's lock table holds for this worker; dropping it releases the key.
struct WorkerHeldKey {
    id: u64,
    key: String,
    worker: Arc<Worker>,
}

impl HeldLock for WorkerHeldKey {
    fn key(&self) -> RString {
        RString::from(self.key.as_str())
    }
}

impl Drop for WorkerHeldKey {
    fn drop(&mut self) {
        self.worker.send(&FromWorker::Unlock { id: self.id });
    }
}
