//! A plugin run in a worker process of its own (`Plugins.Isolation:
//! process`): the host's side of [`super::worker`].
//!
//! The worker is the host's own executable (`mcp-plugin-host
//! plugin-worker`), spoken to over its stdin and a protocol pipe with the
//! messages of [`super::wire`]; its stderr goes to the host's log under the
//! plugin's target. A fault in the worker (a signal, an exit, a call that
//! does not stop when abandoned) costs only the calls in flight in it: each
//! is answered with an error naming the plugin and the cause, and the next
//! use starts a new worker, after a pause that doubles with each failure.
//! After [`WorkerLimits::max_failures`] failures within [`FAILURE_WINDOW`]
//! the plugin is given up and withdrawn (reported failed) until its library
//! changes or the host restarts.
//!
//! A plugin runs one worker per set of client roots it is called for (its
//! Landlock rules let it write those folders; see [`Inner::worker`]), at
//! most [`MAX_WORKERS`]. Before any of this, [`probe`] reads which plugin an
//! unknown library holds in a short-lived worker, so the host need not open it.
//!
//! Workers die with the host: each asks the kernel for SIGKILL when the
//! host goes (see [`super::confine::die_with_parent`]; so they are all
//! started from one thread that lives as long as the host, since the
//! kernel ties that signal to the thread that started the child), and a
//! worker whose plugin is no longer used (a reload replaced it and its last
//! call ended) is killed.

use std::{
    collections::{HashMap, VecDeque},
    io::{BufRead, BufReader, Write},
    path::PathBuf,
    process::{Child, ChildStdin, Command, ExitStatus, Stdio},
    sync::{
        Arc, Mutex, OnceLock,
        atomic::{AtomicU64, Ordering},
        mpsc,
    },
    time::{Duration, Instant},
};

use futures::{FutureExt, future::BoxFuture};
use serde_json::{Value, json};
use tokio::sync::{Notify, oneshot};

use super::{
    confine,
    wire::{FromWorker, Hello, Identity, Init, Lists, Probe, Start, ToWorker, WireClientError},
};
use crate::plugin::{
    CallSession, ClientRequestError, PluginBackend, PluginError,
    cache::Offer,
    completion_values, copies,
    link::{HostLink, WireLockRequest, level_from_abi},
    locked, resource_contents,
};
use crate::{locks::HeldKey, logging, settings::WorkerLimits};

/// Failures older than this do not count towards giving a plugin up.
pub const FAILURE_WINDOW: Duration = Duration::from_secs(60);
/// The pause before the first restart; it doubles with each failure in the window.
const FIRST_PAUSE: Duration = Duration::from_millis(100);
/// The longest pause before a restart.
const LONGEST_PAUSE: Duration = Duration::from_secs(5);
/// How long a worker may take to load its plugin.
const START_WAIT: Duration = Duration::from_secs(30);
/// How long a worker has to drop a call the host abandoned before it is killed
/// (a plugin that blocks its thread never yields to be dropped).
const DROP_WAIT: Duration = Duration::from_secs(1);
/// Why a worker is killed when its plugin is dropped (a reload): no failure.
const NO_LONGER_SERVED: &str = "its plugin is no longer served";
/// Why an idle worker is closed to make room for one with other client roots: no failure.
const MADE_ROOM: &str = "closed to make room for a worker with other client roots";
/// The most worker processes one plugin runs at once, one per set of client roots (a worker's
/// Landlock rules cannot be widened once it runs). Enough for a few clients over HTTP and a
/// client whose roots change; few enough that a plugin cannot multiply its processes without end.
pub const MAX_WORKERS: usize = 4;
/// The worker's last stderr lines kept to tell why it ended.
const STDERR_TAIL: usize = 32;

/// A worker and the client roots its rules let it write.
struct Pooled {
    /// Local folders, sorted; empty for a worker under the configured rules alone.
    roots: Vec<PathBuf>,
    worker: Arc<Worker>,
    /// When it was last given a request: the idle one used longest ago makes room.
    used: Instant,
}

/// A plugin served by a worker process.
pub struct ProcessPlugin {
    name: String,
    version: String,
    offer: Arc<Offer>,
    inner: Arc<Inner>,
}

/// The library a plugin's workers load: a private copy ([`crate::plugin::copies`]),
/// made when the first worker starts if the plugin cache served the plugin
/// until then, and loaded by every worker after it.
struct LibrarySource {
    /// The operator's file, copied once a worker needs it (the copy itself when one was given).
    file: PathBuf,
    copy: Mutex<Option<PathBuf>>,
}

impl LibrarySource {
    fn path(&self) -> Result<PathBuf, String> {
        let mut copy = locked(&self.copy);
        if let Some(copy) = &*copy {
            return Ok(copy.clone());
        }
        let made = copies::copy(&self.file)?.path;
        *copy = Some(made.clone());
        Ok(made)
    }
}

/// What the worker's supervision shares with the calls in flight.
struct Inner {
    library: LibrarySource,
    link: HostLink,
    limits: WorkerLimits,
    offer: Arc<Offer>,
    /// The lists the running worker last announced, when they changed since its offer.
    relisted: Relisted,
    /// The running workers, each for one set of client roots; locked while one starts, so
    /// concurrent calls share it.
    workers: tokio::sync::Mutex<Vec<Pooled>>,
    health: Arc<Health>,
}

/// A worker's prompts and resources once its plugin announced a change of them.
type Relisted = Arc<Mutex<Option<Lists>>>;

/// The failures of a plugin's workers, which decide when (and whether) the next one starts.
struct Health {
    plugin: String,
    max_failures: usize,
    state: Mutex<(VecDeque<Instant>, Option<String>)>,
    on_failure: Option<Box<dyn Fn(String) + Send + Sync>>,
}

impl Health {
    /// Records a failure at `at`; at the limit, gives the plugin up and has it withdrawn.
    fn failed(&self, at: Instant) {
        let mut state = locked(&self.state);
        let (failures, given_up) = &mut *state;
        failures.push_back(at);
        while failures.front().is_some_and(|first| at.duration_since(*first) > FAILURE_WINDOW) {
            failures.pop_front();
        }
        if failures.len() >= self.max_failures && given_up.is_none() {
            let problem = format!(
                "plugin {}: its worker process failed {} times within {} s; the plugin is withdrawn until its \
                 library changes or the host restarts",
                self.plugin,
                failures.len(),
                FAILURE_WINDOW.as_secs()
            );
            drop(state);
            self.give_up(problem);
        }
    }

    /// Stops serving the plugin, for `problem`.
    fn give_up(&self, problem: String) {
        tracing::error!("{problem}");
        locked(&self.state).1 = Some(problem.clone());
        if let Some(on_failure) = &self.on_failure {
            on_failure(problem);
        }
    }

    /// Why the plugin was given up, if it was.
    fn given_up(&self) -> Option<String> {
        locked(&self.state).1.clone()
    }

    /// When the next worker may start: a pause after the last failure that doubles with each one in the window.
    fn next_start(&self) -> Option<Instant> {
        let state = locked(&self.state);
        let last = state.0.back()?;
        let doublings = u32::try_from(state.0.len() - 1).unwrap_or(u32::MAX).min(16);
        Some(*last + FIRST_PAUSE.saturating_mul(1 << doublings).min(LONGEST_PAUSE))
    }
}

impl ProcessPlugin {
    /// Starts a worker for the library `copy` (a private copy), holding plugin
    /// `link.plugin`, and reads its offer. Blocks until the worker has loaded
    /// the plugin.
    pub fn start(
        copy: PathBuf,
        link: HostLink,
        limits: WorkerLimits,
        on_failure: Option<Box<dyn Fn(String) + Send + Sync>>,
    ) -> Result<(Self, Arc<Offer>), String> {
        let health = Health::new(&link.plugin, &limits, on_failure);
        let relisted = Relisted::default();
        let (worker, hello) = Worker::start(&copy, &link, &limits, &health, &relisted)?;
        let offer = Arc::new(hello.offer);
        let source = LibrarySource { file: copy.clone(), copy: Mutex::new(Some(copy)) };
        let plugin = Self::with_health(
            source,
            link,
            limits,
            (hello.version, Arc::clone(&offer)),
            health,
            relisted,
            Some(worker),
        );
        Ok((plugin, offer))
    }

    /// A plugin the plugin cache knows, in the library `file`: its worker starts on first use,
    /// from a private copy of `file` made then. Never fails where there are workers (the
    /// seam's other side refuses).
    pub fn new(
        file: PathBuf,
        link: HostLink,
        limits: WorkerLimits,
        version: String,
        offer: Arc<Offer>,
        on_failure: Option<Box<dyn Fn(String) + Send + Sync>>,
    ) -> Result<Self, String> {
        let health = Health::new(&link.plugin, &limits, on_failure);
        let source = LibrarySource { file, copy: Mutex::new(None) };
        Ok(Self::with_health(source, link, limits, (version, offer), health, Relisted::default(), None))
    }

    fn with_health(
        library: LibrarySource,
        link: HostLink,
        limits: WorkerLimits,
        (version, offer): (String, Arc<Offer>),
        health: Arc<Health>,
        relisted: Relisted,
        worker: Option<Arc<Worker>>,
    ) -> Self {
        let name = link.plugin.clone();
        let inner = Arc::new(Inner {
            library,
            link,
            limits,
            offer: Arc::clone(&offer),
            relisted,
            workers: tokio::sync::Mutex::new(
                worker.map(|worker| Pooled { roots: Vec::new(), worker, used: Instant::now() }).into_iter().collect(),
            ),
            health,
        });
        Self { name, version, offer, inner }
    }
}

impl Health {
    fn new(plugin: &str, limits: &WorkerLimits, on_failure: Option<Box<dyn Fn(String) + Send + Sync>>) -> Arc<Self> {
        Arc::new(Self {
            plugin: plugin.to_owned(),
            max_failures: limits.max_failures.unwrap_or(DEFAULT_MAX_FAILURES).max(1) as usize,
            state: Mutex::default(),
            on_failure,
        })
    }
}

/// The worker goes when nothing uses the plugin any more: a reload has
/// replaced it and its last call has ended.
impl Drop for Inner {
    fn drop(&mut self) {
        for pooled in self.workers.get_mut() {
            pooled.worker.kill(NO_LONGER_SERVED);
        }
    }
}

impl Inner {
    /// The worker to send a request to for a client whose roots are `roots`
    /// (local folders, sorted; empty for none): the one whose rules let it
    /// write exactly those, once it has settled any call it was told to
    /// drop, else a new one after the pause its plugin's failures call for.
    /// At [`MAX_WORKERS`] the idle worker used longest ago is closed first.
    async fn worker(&self, roots: &[PathBuf]) -> Result<Arc<Worker>, String> {
        let mut workers = self.workers.lock().await;
        if let Some(at) = workers.iter().position(|pooled| pooled.roots == roots) {
            let worker = Arc::clone(&workers[at].worker);
            worker.settle().await;
            if worker.ended().is_none() {
                workers[at].used = Instant::now();
                return Ok(worker);
            }
            workers.remove(at);
        }
        workers.retain(|pooled| pooled.worker.ended().is_none());
        if let Some(problem) = self.health.given_up() {
            return Err(problem);
        }
        if workers.len() >= MAX_WORKERS {
            let idle = workers
                .iter()
                .enumerate()
                .filter(|(_, pooled)| pooled.worker.idle())
                .min_by_key(|(_, pooled)| pooled.used)
                .map(|(at, _)| at);
            let Some(at) = idle else {
                return Err(format!(
                    "plugin {}: its {MAX_WORKERS} worker processes are all busy with calls for other clients' roots; \
                     try again when one of those calls is done",
                    self.link.plugin
                ));
            };
            workers.remove(at).worker.kill(MADE_ROOM);
        }
        if let Some(next_start) = self.health.next_start() {
            tokio::time::sleep_until(next_start.into()).await;
        }
        let mut limits = self.limits.clone();
        if !roots.is_empty() {
            limits.write_paths.get_or_insert_with(Vec::new).extend(roots.iter().cloned());
        }
        let file = self
            .library
            .path()
            .map_err(|problem| format!("plugin {}: its worker could not be started: {problem}", self.link.plugin))?;
        let (link, health, relisted) = (self.link.clone(), Arc::clone(&self.health), Arc::clone(&self.relisted));
        let started = tokio::task::spawn_blocking(move || Worker::start(&file, &link, &limits, &health, &relisted))
            .await
            .map_err(|error| format!("plugin {}: its worker could not be started: {error}", self.link.plugin))?;
        let (worker, hello) = started.inspect_err(|_| self.health.failed(Instant::now()))?;
        if !hello.offer.same_as(&self.offer) {
            worker.kill("it offers something else");
            let problem = format!(
                "plugin {}: its restarted worker offers other tools, prompts or resources than when the host \
                 started; it is withdrawn until its library changes or the host restarts",
                self.link.plugin
            );
            self.health.give_up(problem.clone());
            return Err(problem);
        }
        // A new worker's plugin starts from its offer again.
        *locked(&self.relisted) = None;
        workers.push(Pooled { roots: roots.to_vec(), worker: Arc::clone(&worker), used: Instant::now() });
        Ok(worker)
    }
}

/// Failures within [`FAILURE_WINDOW`] after which a plugin is given up, unless `MaxFailures` says otherwise.
pub const DEFAULT_MAX_FAILURES: u32 = 5;

impl ProcessPlugin {
    /// Sends a request for a client with no roots the worker may write (a prompt, a resource
    /// read, a completion: these have no call through which the plugin could write for the
    /// client) and awaits its answer.
    fn request(
        &self,
        session: Arc<dyn CallSession>,
        message: impl FnOnce(u64, Vec<String>) -> ToWorker + Send + 'static,
    ) -> BoxFuture<'static, Result<Value, PluginError>> {
        let inner = Arc::clone(&self.inner);
        async move {
            let worker = inner.worker(&[]).await.map_err(PluginError::Fault)?;
            worker.request(session, message, Reply::Answer).await
        }
        .boxed()
    }
}

impl PluginBackend for ProcessPlugin {
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
        let inner = Arc::clone(&self.inner);
        async move {
            let roots = session.roots().await;
            let worker = inner.worker(&roots).await.map_err(PluginError::Fault)?;
            let call = |id, features| ToWorker::Call { id, index, arguments, features };
            worker.request(session, call, Reply::Tool).await
        }
        .boxed()
    }

    fn prompts(&self) -> Vec<Value> {
        locked(&self.inner.relisted).as_ref().map_or_else(|| self.offer.prompts.clone(), |lists| lists.prompts.clone())
    }

    fn get_prompt(
        &self,
        index: u32,
        arguments: Value,
        session: Arc<dyn CallSession>,
    ) -> BoxFuture<'static, Result<Value, PluginError>> {
        self.request(session, move |id, features| ToWorker::GetPrompt { id, index, arguments, features })
    }

    fn complete_prompt(
        &self,
        index: u32,
        argument: String,
        value: String,
        session: Arc<dyn CallSession>,
    ) -> BoxFuture<'static, Result<Vec<String>, PluginError>> {
        let asked =
            self.request(session, move |id, features| ToWorker::Complete { id, index, argument, value, features });
        async move { completion_values(asked.await?) }.boxed()
    }

    fn resources(&self) -> Vec<Value> {
        locked(&self.inner.relisted)
            .as_ref()
            .map_or_else(|| self.offer.resources.clone(), |lists| lists.resources.clone())
    }

    fn read_resource(
        &self,
        index: u32,
        uri: String,
        request: Value,
        session: Arc<dyn CallSession>,
    ) -> BoxFuture<'static, Result<Vec<Value>, PluginError>> {
        let asked =
            self.request(session, move |id, features| ToWorker::ReadResource { id, index, uri, request, features });
        async move { resource_contents(asked.await?) }.boxed()
    }
}

/// What the host awaits from a worker, by the id it gave the request: the request's session (for
/// its progress, logs and client requests) and where its answer goes.
struct Pending {
    session: Arc<dyn CallSession>,
    reply: Reply,
}

/// Where the answer to a request goes.
enum Reply {
    /// A tool call's result (JSON `CallToolResult` text).
    Tool(oneshot::Sender<Result<String, PluginError>>),
    /// A prompt, resource or completion answer.
    Answer(oneshot::Sender<Result<Value, PluginError>>),
}

impl Reply {
    /// Answers with a fault (the worker ended).
    fn fail(self, message: String) {
        match self {
            Reply::Tool(sender) => drop(sender.send(Err(PluginError::Fault(message)))),
            Reply::Answer(sender) => drop(sender.send(Err(PluginError::Fault(message)))),
        }
    }
}

/// One running worker process.
struct Worker {
    plugin: String,
    pid: nix::unistd::Pid,
    stdin: Mutex<ChildStdin>,
    next: AtomicU64,
    pending: Mutex<HashMap<u64, Pending>>,
    /// Calls the host gave up on that the worker has not yet confirmed dropped, with their
    /// sessions: a call counts as in flight until then, so shutdown waits for the drop,
    /// which kills the processes the call started.
    abandoned: Mutex<HashMap<u64, Option<Arc<dyn CallSession>>>>,
    /// Keys the host's lock table holds for the plugin, by the worker's request id.
    held: Mutex<HashMap<u64, HeldKey>>,
    /// Why the host killed the worker, if it did.
    killed_because: Mutex<Option<String>>,
    /// Why the worker ended and when, once it has.
    ended: OnceLock<(String, Instant)>,
    /// Woken when an abandoned call is settled or the worker ends.
    settled: Notify,
    link: HostLink,
    health: Arc<Health>,
    /// Where the lists this worker announces are kept for the plugin.
    relisted: Relisted,
}

/// Starts `command` from the one thread that starts every worker, which
/// lives as long as the host (the parent-death signal follows that thread).
fn spawn(command: Command) -> std::io::Result<Child> {
    type Order = (Command, mpsc::Sender<std::io::Result<Child>>);
    static SPAWNER: OnceLock<Mutex<mpsc::Sender<Order>>> = OnceLock::new();
    let spawner = SPAWNER.get_or_init(|| {
        let (orders, received) = mpsc::channel::<Order>();
        let started = std::thread::Builder::new().name("worker-spawner".to_owned()).spawn(move || {
            for (mut command, reply) in received {
                let _ = reply.send(command.spawn());
            }
        });
        if let Err(error) = started {
            tracing::error!("cannot start the thread that starts plugin workers: {error}");
        }
        Mutex::new(orders)
    });
    let (reply, spawned) = mpsc::channel();
    locked(spawner).send((command, reply)).map_err(|_| std::io::Error::other("the worker spawner is gone"))?;
    spawned.recv().map_err(|_| std::io::Error::other("the worker spawner is gone"))?
}

/// Starts a worker confined by `limits` and gives it its start message;
/// yields the child and its stdin, protocol pipe and stderr.
fn launch(
    limits: &WorkerLimits,
    start: &Start,
) -> Result<(Child, ChildStdin, std::process::ChildStdout, std::process::ChildStderr), String> {
    let executable = std::env::current_exe().map_err(|error| error.to_string())?;
    let mut command = Command::new(executable);
    command
        .arg("plugin-worker")
        .arg("--parent-pid")
        .arg(std::process::id().to_string())
        .env_clear()
        .envs(confine::environment(limits))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = spawn(command).map_err(|error| error.to_string())?;
    let (Some(mut stdin), Some(stdout), Some(stderr)) = (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        let _ = child.kill();
        let _ = child.wait();
        return Err("its pipes could not be opened".to_owned());
    };
    let mut line = serde_json::to_vec(start).unwrap_or_default();
    line.push(b'\n');
    if let Err(error) = stdin.write_all(&line).and_then(|()| stdin.flush()) {
        let _ = child.kill();
        let _ = child.wait();
        return Err(error.to_string());
    }
    Ok((child, stdin, stdout, stderr))
}

/// Relays a worker's stderr to the host's log under `plugin`'s target, on a thread of its own.
fn relay(
    stderr: std::process::ChildStderr,
    plugin: &str,
    tail: &Arc<Mutex<VecDeque<String>>>,
) -> std::io::Result<std::thread::JoinHandle<()>> {
    let (target, tail) = (logging::plugin_target(plugin), Arc::clone(tail));
    std::thread::Builder::new()
        .name(format!("worker-stderr-{plugin}"))
        .spawn(move || relay_stderr(stderr, &target, &tail))
}

/// Why a probe found no plugin to serve in a library.
#[derive(Debug)]
pub struct Refusal {
    /// One line for the operator.
    pub message: String,
    /// The plugin-API version the library declares, when it was refused for its ABI.
    pub incompatible_abi: Option<String>,
}

/// Opens `file` in a short-lived worker confined by `limits` and says which
/// plugin it holds, so that a library the host does not know yet runs none
/// of its code in the host (its ELF initialisers run when it is opened)
/// before the host knows whether the plugin is to run in a worker. The
/// worker is killed once it has answered.
pub fn probe(file: &std::path::Path, limits: &WorkerLimits) -> Result<Identity, Refusal> {
    let started = Instant::now();
    let label = file.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
    let refused = |message: String| Refusal { message, incompatible_abi: None };
    let failed = |problem: String| refused(format!("it could not be opened in a probe worker process: {problem}"));
    let probe = Probe { file: file.to_owned(), limits: limits.clone() };
    let (mut child, stdin, stdout, stderr) = launch(limits, &Start::Probe(probe)).map_err(failed)?;
    let tail = Arc::new(Mutex::new(VecDeque::new()));
    let stderr_reader = match relay(stderr, &label, &tail) {
        Ok(reader) => reader,
        Err(error) => {
            let _ = child.kill();
            let _ = child.wait();
            return Err(failed(error.to_string()));
        }
    };
    let (answer, answered) = mpsc::sync_channel(1);
    let target = logging::plugin_target(&label);
    let reader = std::thread::Builder::new().name(format!("probe-{label}")).spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            match serde_json::from_str::<FromWorker>(&line) {
                Ok(FromWorker::Log { level, message, .. }) => logging::emit(&target, level_from_abi(level), &message),
                Ok(FromWorker::Identity(identity)) => return drop(answer.send(Ok(identity))),
                Ok(FromWorker::Failed { message, incompatible_abi }) => {
                    return drop(answer.send(Err(Refusal { message, incompatible_abi })));
                }
                Ok(_) | Err(_) => {}
            }
        }
    });
    if let Err(error) = reader {
        let _ = child.kill();
        let _ = child.wait();
        return Err(failed(error.to_string()));
    }
    let answer = answered.recv_timeout(START_WAIT);
    // What it had to say is said: a library whose unloading hangs must not hold the host.
    if !matches!(answer, Err(mpsc::RecvTimeoutError::Disconnected)) {
        let _ = child.kill();
    }
    drop(stdin);
    let status = child.wait();
    // Its last lines tell a crash's cause; bounded, as a process the library started may hold the pipe.
    let read_until = Instant::now() + DROP_WAIT;
    while !stderr_reader.is_finished() && Instant::now() < read_until {
        std::thread::sleep(Duration::from_millis(5));
    }
    tracing::debug!("probed {label} in {:.1} ms", started.elapsed().as_secs_f64() * 1000.0);
    match answer {
        Ok(answer) => answer,
        Err(mpsc::RecvTimeoutError::Timeout) => {
            Err(failed(format!("it did not open the library within {} s", START_WAIT.as_secs())))
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => Err(failed(match status {
            Ok(status) => format!("it {}", describe_exit(status, &locked(&tail))),
            Err(error) => format!("it ended, and its exit status could not be read: {error}"),
        })),
    }
}

impl Worker {
    /// Starts a worker for `file` and waits until it has created the plugin.
    fn start(
        file: &std::path::Path,
        link: &HostLink,
        limits: &WorkerLimits,
        health: &Arc<Health>,
        relisted: &Relisted,
    ) -> Result<(Arc<Self>, Hello), String> {
        let plugin = &link.plugin;
        let failed = |problem: String| format!("plugin {plugin}: its worker process could not be started: {problem}");
        let started = Instant::now();
        let init = Init {
            file: file.to_owned(),
            plugin: plugin.clone(),
            config: link.config.clone(),
            shared: (*link.shared).clone(),
            limits: limits.clone(),
        };
        let (child, stdin, stdout, stderr) = launch(limits, &Start::Serve(init)).map_err(failed)?;
        let worker = Arc::new(Self {
            plugin: plugin.clone(),
            pid: nix::unistd::Pid::from_raw(child.id() as i32),
            stdin: Mutex::new(stdin),
            next: AtomicU64::new(1),
            pending: Mutex::new(HashMap::new()),
            abandoned: Mutex::new(HashMap::new()),
            held: Mutex::new(HashMap::new()),
            killed_because: Mutex::new(None),
            ended: OnceLock::new(),
            settled: Notify::new(),
            link: link.clone(),
            health: Arc::clone(health),
            relisted: Arc::clone(relisted),
        });
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        let stderr_reader = relay(stderr, plugin, &tail).map_err(|error| failed(error.to_string()))?;
        let (ready, hello) = mpsc::sync_channel(1);
        {
            let worker = Arc::clone(&worker);
            std::thread::Builder::new()
                .name(format!("worker-{plugin}"))
                .spawn(move || worker.serve(child, stdout, stderr_reader, tail, ready))
                .map_err(|error| failed(error.to_string()))?;
        }
        match hello.recv_timeout(START_WAIT) {
            Ok(Ok(hello)) => {
                tracing::info!(
                    "plugin {plugin}: worker process {} started in {:.1} ms",
                    worker.pid,
                    started.elapsed().as_secs_f64() * 1000.0
                );
                Ok((worker, hello))
            }
            Ok(Err(problem)) => Err(format!("plugin {plugin} could not be loaded in its worker process: {problem}")),
            Err(_) => {
                worker.kill("it did not load its plugin in time");
                Err(failed(format!("it did not load the plugin within {} s", START_WAIT.as_secs())))
            }
        }
    }

    /// Reads the worker's messages until it ends, then answers what is
    /// still pending with the cause.
    fn serve(
        self: Arc<Self>,
        mut child: Child,
        stdout: std::process::ChildStdout,
        stderr_reader: std::thread::JoinHandle<()>,
        tail: Arc<Mutex<VecDeque<String>>>,
        ready: mpsc::SyncSender<Result<Hello, String>>,
    ) {
        let mut ready = Some(ready);
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            match serde_json::from_str::<FromWorker>(&line) {
                Ok(FromWorker::Ready(hello)) => {
                    if let Some(ready) = ready.take() {
                        let _ = ready.send(Ok(hello));
                    }
                }
                Ok(FromWorker::Failed { message, .. }) => {
                    if let Some(ready) = ready.take() {
                        let _ = ready.send(Err(message));
                    }
                }
                Ok(message) => self.handle(message),
                Err(error) => {
                    tracing::error!("plugin {}: its worker sent a message that is not valid: {error}", self.plugin)
                }
            }
        }
        let _ = stderr_reader.join();
        let status = child.wait();
        let killed = locked(&self.killed_because).clone();
        let cause = match (killed, status) {
            (Some(reason), _) => format!("was stopped by the host ({reason})"),
            (None, Ok(status)) => describe_exit(status, &locked(&tail)),
            (None, Err(error)) => format!("ended, and its exit status could not be read: {error}"),
        };
        let started = ready.is_none();
        if let Some(ready) = ready.take() {
            let _ = ready.send(Err(format!("its worker process {cause}")));
        }
        let killed_on_purpose = locked(&self.killed_because)
            .as_deref()
            .is_some_and(|reason| reason == NO_LONGER_SERVED || reason == MADE_ROOM);
        if started && !killed_on_purpose {
            tracing::warn!("plugin {}: its worker process {cause}", self.plugin);
        }
        let _ = self.ended.set((cause, Instant::now()));
        if started && !killed_on_purpose {
            self.health.failed(Instant::now());
        }
        let message = self.failure_message();
        for (_, pending) in locked(&self.pending).drain() {
            pending.reply.fail(message.clone());
        }
        locked(&self.held).clear();
        locked(&self.abandoned).clear();
        self.settled.notify_waiters();
    }

    /// What a request in flight is answered with when the worker has ended.
    fn failure_message(&self) -> String {
        match self.ended.get() {
            Some((cause, _)) => {
                let next = match self.health.given_up() {
                    Some(_) => "It failed too often and is withdrawn until its library changes or the host restarts.",
                    None => "It is restarted on the next call.",
                };
                format!("The plugin '{}' failed during this request: its worker process {cause}. {next}", self.plugin)
            }
            None => format!("The plugin '{}' did not answer: its worker process is gone.", self.plugin),
        }
    }

    /// Whether nothing runs in the worker for the host: no request pending,
    /// no call being dropped, no lock held.
    fn idle(&self) -> bool {
        locked(&self.pending).is_empty() && locked(&self.abandoned).is_empty() && locked(&self.held).is_empty()
    }

    /// Why the worker ended and when, once it has.
    fn ended(&self) -> Option<(String, Instant)> {
        self.ended.get().cloned()
    }

    /// Waits until every call the host abandoned is dropped by the worker
    /// (or the worker is killed for not dropping it).
    async fn settle(&self) {
        loop {
            let woken = self.settled.notified();
            if self.ended.get().is_some() || locked(&self.abandoned).is_empty() {
                return;
            }
            // Bounded, in case a wake-up is missed: the kill comes after DROP_WAIT anyway.
            let _ = tokio::time::timeout(DROP_WAIT, woken).await;
        }
    }

    /// Sends one message; a failed write means the worker is ending, which its reader reports.
    fn send(&self, message: &ToWorker) {
        let mut line = serde_json::to_vec(message).unwrap_or_default();
        line.push(b'\n');
        let mut stdin = locked(&self.stdin);
        let _ = stdin.write_all(&line).and_then(|()| stdin.flush());
    }

    /// Registers a request of `session` whose answer goes where `reply` says, and gives its id
    /// and the receiver of that answer.
    fn expect<T>(
        &self,
        session: Arc<dyn CallSession>,
        reply: impl FnOnce(oneshot::Sender<T>) -> Reply,
    ) -> (u64, oneshot::Receiver<T>) {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let (answer, answered) = oneshot::channel();
        if self.ended.get().is_some() {
            // Dropping the sender answers at once; the caller reports the failure.
            return (id, answered);
        }
        locked(&self.pending).insert(id, Pending { session, reply: reply(answer) });
        (id, answered)
    }

    /// Kills the worker, saying why in the answers to what it had in flight.
    fn kill(&self, reason: &str) {
        if self.ended.get().is_some() {
            return;
        }
        locked(&self.killed_because).get_or_insert_with(|| reason.to_owned());
        let _ = nix::sys::signal::kill(self.pid, nix::sys::signal::Signal::SIGKILL);
    }

    /// Runs one request in the worker (`message` makes it from its id and the client's feature
    /// tags): its soft cancel is passed on, and dropping the returned future drops the request
    /// in the worker.
    async fn request<T>(
        self: Arc<Self>,
        session: Arc<dyn CallSession>,
        message: impl FnOnce(u64, Vec<String>) -> ToWorker,
        reply: impl FnOnce(oneshot::Sender<Result<T, PluginError>>) -> Reply,
    ) -> Result<T, PluginError> {
        let cancel = session.cancellation().clone();
        let features = session.features().to_vec();
        let (id, mut answered) = self.expect(session, reply);
        self.send(&message(id, features));
        let mut unanswered = Abandon { worker: Arc::clone(&self), id: Some(id) };
        let mut cancelled = false;
        let answer = loop {
            tokio::select! {
                answer = &mut answered => break answer,
                () = cancel.cancelled(), if !cancelled => {
                    cancelled = true;
                    self.send(&ToWorker::Cancel { id });
                }
            }
        };
        unanswered.id = None;
        answer.unwrap_or_else(|_| Err(PluginError::Fault(self.failure_message())))
    }

    /// Acts on one message from the worker (other than its first).
    fn handle(self: &Arc<Self>, message: FromWorker) {
        match message {
            FromWorker::Ready(_) | FromWorker::Failed { .. } | FromWorker::Identity(_) => {}
            FromWorker::Result { id, result } => {
                if let Some(Pending { reply: Reply::Tool(waiter), .. }) = locked(&self.pending).remove(&id) {
                    let _ = waiter.send(Ok(result));
                }
            }
            FromWorker::Answer { id, answer } => {
                if let Some(Pending { reply: Reply::Answer(waiter), .. }) = locked(&self.pending).remove(&id) {
                    let _ = waiter.send(answer);
                }
            }
            FromWorker::Dropped { id } => {
                locked(&self.abandoned).remove(&id);
                self.settled.notify_waiters();
            }
            FromWorker::Progress { call, progress, total, message } => {
                if let Some(session) = self.session(call) {
                    session.progress(progress, total, message);
                }
            }
            FromWorker::Log { call: Some(call), level, message } => match self.session(call) {
                Some(session) => session.log(level_from_abi(level), &message),
                None => self.link.log.emit(level_from_abi(level), &message),
            },
            FromWorker::Log { call: None, level, message } => self.link.log.emit(level_from_abi(level), &message),
            FromWorker::ClientRequest { id, call, method, params } => {
                let session = self.session(call);
                let worker = Arc::clone(self);
                self.link.runtime.spawn(async move {
                    let answer = match session {
                        Some(session) => session.client_request(method, params).await,
                        None => Err(ClientRequestError::Failed("the call that asked is over".to_owned())),
                    };
                    let answer = answer.map_err(|error| match error {
                        ClientRequestError::Unsupported(message) => WireClientError::Unsupported(message),
                        ClientRequestError::Failed(message) => WireClientError::Failed(message),
                    });
                    worker.send(&ToWorker::ClientAnswer { id, answer });
                });
            }
            FromWorker::Lock { id, request } => {
                let worker = Arc::clone(self);
                self.link.runtime.spawn(async move {
                    let (info, granted) = match serde_json::from_str::<WireLockRequest>(&request) {
                        Ok(request) => {
                            let (info, held) =
                                worker.link.locks.acquire(&worker.link.plugin, request.into_request()).await;
                            let granted = held.is_some();
                            if let Some(held) = held
                                && worker.ended.get().is_none()
                            {
                                locked(&worker.held).insert(id, held);
                            }
                            (info.to_string(), granted)
                        }
                        Err(error) => {
                            (json!({ "error": format!("malformed lock request: {error}") }).to_string(), false)
                        }
                    };
                    worker.send(&ToWorker::LockAnswer { id, info, granted });
                });
            }
            FromWorker::Unlock { id } => {
                locked(&self.held).remove(&id);
            }
            FromWorker::Announce { announcement, lists } => {
                if let Some(lists) = lists {
                    *locked(&self.relisted) = Some(lists);
                }
                self.link.pass_on(&announcement);
            }
            FromWorker::HostInfo { id } => {
                self.send(&ToWorker::HostInfo { id, info: self.link.catalog.load().to_string() });
            }
        }
    }

    /// The session of request `id`, while it runs.
    fn session(&self, id: u64) -> Option<Arc<dyn CallSession>> {
        locked(&self.pending).get(&id).map(|pending| Arc::clone(&pending.session))
    }
}

/// Drops a request in the worker when the host gives up on it before its
/// answer (a client cancel, a timeout, shutdown): the worker is told, and
/// killed if it has not dropped the request within [`DROP_WAIT`]. The kill
/// is logged once, when the worker ends, however many requests it held.
struct Abandon {
    worker: Arc<Worker>,
    id: Option<u64>,
}

impl Drop for Abandon {
    fn drop(&mut self) {
        let Some(id) = self.id else { return };
        let worker = &self.worker;
        let session = locked(&worker.pending).remove(&id).map(|pending| pending.session);
        if worker.ended.get().is_some() {
            return;
        }
        locked(&worker.abandoned).insert(id, session);
        if worker.ended.get().is_some() {
            // It ended after the check above and may have emptied the table before the insert.
            locked(&worker.abandoned).remove(&id);
            return;
        }
        worker.send(&ToWorker::Drop { id });
        let worker = Arc::clone(worker);
        worker.link.runtime.clone().spawn(async move {
            tokio::time::sleep(DROP_WAIT).await;
            if locked(&worker.abandoned).contains_key(&id) {
                worker.kill(&format!(
                    "a request it was told to drop was still running {} s later: code in the plugin blocks or spins",
                    DROP_WAIT.as_secs_f64()
                ));
            }
        });
    }
}

/// Relays the worker's stderr to the host's log under the plugin's target,
/// keeping the last lines to tell why it ended.
fn relay_stderr(stderr: std::process::ChildStderr, target: &str, tail: &Mutex<VecDeque<String>>) {
    for line in BufReader::new(stderr).lines() {
        let Ok(line) = line else { break };
        logging::emit(target, tracing::Level::WARN, &line);
        let mut tail = locked(tail);
        if tail.len() == STDERR_TAIL {
            tail.pop_front();
        }
        tail.push_back(line);
    }
}

/// Why a worker ended, from its exit status and its last stderr lines.
fn describe_exit(status: ExitStatus, stderr: &VecDeque<String>) -> String {
    use std::os::unix::process::ExitStatusExt;
    let said = |needle: &str| stderr.iter().any(|line| line.contains(needle));
    let told = if said("has overflowed its stack") {
        Some("stack overflow")
    } else if said("memory allocation of") && said("failed") {
        Some("out of memory")
    } else {
        None
    };
    if let Some(signal) = status.signal() {
        let name = nix::sys::signal::Signal::try_from(signal).map(|signal| signal.as_str()).unwrap_or("unknown");
        let meaning = match told {
            Some(told) => told.to_owned(),
            None if name == "SIGXCPU" => "CPU time limit exceeded".to_owned(),
            None if name == "SIGSEGV" || name == "SIGBUS" => "invalid memory access".to_owned(),
            None if name == "SIGABRT" => "aborted".to_owned(),
            None => format!("signal {signal}"),
        };
        return format!("was killed by {name} ({meaning})");
    }
    let code = status.code().unwrap_or_default();
    match told {
        Some(told) => format!("exited with code {code} ({told})"),
        None => format!("exited with code {code}"),
    }
}
