//! The threads a plugin's calls run on: a few single-worker tokio runtimes per plugin,
//! owned by the host, never the host's MCP workers.
//!
//! Plugin code is polled wherever its future is polled. Polled on the host's
//! own workers, one plugin that spins or blocks inside an async call (a busy
//! loop, `std::thread::sleep`, blocking I/O) would stall `ping`, `tools/list`,
//! every other plugin and the call's own timeout. So every future a plugin
//! returns (tool calls, prompts, resource reads, completions) is created and polled on
//! [`CallThreads`] of its own, and the host awaits only a join handle: a
//! stuck plugin thread leaves the host's workers free, the timeout is
//! answered on schedule, and dropping the host's side (cancel, timeout,
//! shutdown) aborts the task, which drops the plugin's future on the
//! plugin's thread (mcp-plugin-api drops it inside the plugin's runtime).
//!
//! The threads: [`CALL_THREADS`] per plugin, started on its first call, each a
//! tokio runtime of one worker; a call goes to the thread with the fewest
//! calls on it. One multi-worker runtime would share work better, but every
//! hand-over then woke two of its idle workers (the second to keep stealing),
//! which cost a call over stdio 55 µs of CPU instead of 21 (docs/benchmarks.md,
//! "Plugin call threads").
//!
//! The bound: [`CALL_THREADS`] threads per plugin.
//! A call that blocks one of them leaves the others to the plugin's next
//! calls. A request the host stopped (timed out or cancelled) whose thread has
//! not come back is *stuck*, and says so in one WARN line once it has held
//! the thread for [`STUCK_WAIT`]. Once every thread of a plugin is stuck, its
//! new requests are answered at once with an error naming what holds them,
//! instead of queueing behind threads that may never return. Prompts,
//! resource reads and completions may hold at most `CALL_THREADS - 1`: one
//! stuck read cannot starve the plugin's tool calls. Nothing can take a
//! thread back from native code: only a restart (or `Plugins.Isolation =
//! process`) does.

use std::{
    collections::BTreeMap,
    future::Future,
    sync::{
        Arc, Mutex, OnceLock,
        atomic::{AtomicU8, AtomicU64, AtomicUsize, Ordering},
    },
    time::Duration,
};

use futures::{FutureExt, future::BoxFuture};

use super::{RequestKind, Requested, locked};

/// How many threads each plugin's calls run on.
pub const CALL_THREADS: usize = 4;

/// How long a stopped request may keep its thread before it is reported stuck.
pub const STUCK_WAIT: Duration = Duration::from_secs(1);

/// A plugin's own call threads, started on first use.
pub struct CallThreads {
    plugin: String,
    /// In a worker process the caller's threads are the plugin's own: the
    /// worker serves one plugin, and a call stuck there is ended by the host
    /// killing the worker, which it does when the worker cannot drop the call.
    inline: bool,
    threads: OnceLock<Result<Vec<CallThread>, String>>,
    /// Requests the host stopped whose task is still running (see [`TaskState`]).
    stuck: Arc<Stuck>,
}

/// The requests the host stopped that still hold a thread, by task.
#[derive(Default)]
struct Stuck {
    /// How many, for the check every request makes (no lock).
    total: AtomicUsize,
    /// How many of them are not tool calls.
    not_tools: AtomicUsize,
    /// What each is, for messages.
    held: Mutex<BTreeMap<u64, Requested>>,
}

impl Stuck {
    fn add(&self, id: u64, requested: &Requested) {
        locked(&self.held).insert(id, requested.clone());
        if requested.kind != RequestKind::Tool {
            self.not_tools.fetch_add(1, Ordering::AcqRel);
        }
        self.total.fetch_add(1, Ordering::AcqRel);
    }

    fn remove(&self, id: u64) {
        if let Some(requested) = locked(&self.held).remove(&id) {
            if requested.kind != RequestKind::Tool {
                self.not_tools.fetch_sub(1, Ordering::AcqRel);
            }
            self.total.fetch_sub(1, Ordering::AcqRel);
        }
    }

    /// Why a request of `kind` cannot run now, if it cannot: every thread is held, or (for a
    /// request other than a tool call) all but the one kept for tool calls.
    fn refusal(&self, plugin: &str, kind: RequestKind) -> Option<String> {
        let total = self.total.load(Ordering::Acquire);
        let full = total >= CALL_THREADS
            || (kind != RequestKind::Tool && self.not_tools.load(Ordering::Acquire) >= CALL_THREADS - 1);
        if !full {
            return None;
        }
        let held: Vec<String> = locked(&self.held).values().map(Requested::to_string).collect();
        let which = if total >= CALL_THREADS {
            format!("all {CALL_THREADS} of its call threads are held")
        } else {
            format!("{} of its {CALL_THREADS} call threads are held (the last is kept for tool calls)", total)
        };
        Some(format!(
            "plugin '{plugin}' cannot take this request: {which} by requests that were stopped (timed out or \
             cancelled) but never returned ({}), which means code in the plugin blocks or spins; restart the server, \
             or run the plugin with Plugins.Isolation = \"process\"",
            held.join(", ")
        ))
    }
}

/// One of a plugin's call threads: a tokio runtime of one worker, and how
/// many calls it holds (started and not yet finished or dropped there).
struct CallThread {
    runtime: tokio::runtime::Runtime,
    load: Arc<AtomicUsize>,
}

/// Set once the host's side of a call is dropped before the call finished.
const ABANDONED: u8 = 1;
/// Set once the task finished or was dropped on its thread.
const FINISHED: u8 = 2;

/// Whether the host abandoned a request and whether its task ended. Whichever comes second sees
/// the other's bit: an abandon before the end counts the request as stuck, the end uncounts it.
struct TaskState {
    id: u64,
    requested: Requested,
    plugin: String,
    flags: AtomicU8,
    /// The load of the thread the request runs on, given back when it ends.
    load: Arc<AtomicUsize>,
    stuck: Arc<Stuck>,
}

impl TaskState {
    fn abandon(self: &Arc<Self>) {
        if self.flags.fetch_or(ABANDONED, Ordering::AcqRel) & FINISHED != 0 {
            return;
        }
        self.stuck.add(self.id, &self.requested);
        // A task that yields is dropped at once; one that does not is reported, once.
        let state = Arc::clone(self);
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                tokio::time::sleep(STUCK_WAIT).await;
                if state.flags.load(Ordering::Acquire) & FINISHED == 0 {
                    tracing::warn!(
                        "plugin '{}': the stopped {} still holds one of its call threads {} s later ({} of {CALL_THREADS} \
                         held); code in the plugin blocks or spins",
                        state.plugin,
                        state.requested,
                        STUCK_WAIT.as_secs_f64(),
                        state.stuck.total.load(Ordering::Acquire)
                    );
                }
            });
        }
    }

    fn finish(&self) {
        self.load.fetch_sub(1, Ordering::AcqRel);
        if self.flags.fetch_or(FINISHED, Ordering::AcqRel) & ABANDONED != 0 {
            self.stuck.remove(self.id);
        }
    }
}

/// Marks the task finished when the plugin's future is done or dropped, on the plugin's thread.
struct FinishGuard(Arc<TaskState>);

impl Drop for FinishGuard {
    fn drop(&mut self) {
        self.0.finish();
    }
}

/// The host's side of a call: aborts the task when dropped before it finished.
struct Handle<T> {
    join: tokio::task::JoinHandle<T>,
    state: Arc<TaskState>,
    done: bool,
}

impl<T> Future for Handle<T> {
    type Output = Result<T, String>;

    fn poll(mut self: std::pin::Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<Self::Output> {
        let polled = self.join.poll_unpin(cx);
        if polled.is_ready() {
            self.done = true;
        }
        polled.map(|joined| joined.map_err(|error| format!("the plugin's call task ended abnormally: {error}")))
    }
}

impl<T> Drop for Handle<T> {
    fn drop(&mut self) {
        if !self.done {
            self.join.abort();
            self.state.abandon();
        }
    }
}

/// Numbers the tasks of every plugin, to tell stuck ones apart.
static NEXT_TASK: AtomicU64 = AtomicU64::new(0);

impl CallThreads {
    /// The call threads of plugin `plugin`; none is started yet.
    pub fn new(plugin: &str) -> Self {
        Self::with(plugin, false)
    }

    /// No threads of its own: the plugin's futures are polled by whoever awaits them. For a
    /// worker process, where every thread is the plugin's (see `inline`).
    pub fn inline(plugin: &str) -> Self {
        Self::with(plugin, true)
    }

    fn with(plugin: &str, inline: bool) -> Self {
        Self { plugin: plugin.to_owned(), inline, threads: OnceLock::new(), stuck: Arc::default() }
    }

    /// The thread with the fewest calls on it (a stuck one keeps its call, so new calls avoid it).
    fn least_loaded(&self) -> Result<&CallThread, String> {
        let started = self.threads.get_or_init(|| {
            (0..CALL_THREADS)
                .map(|_| {
                    let runtime = tokio::runtime::Builder::new_multi_thread()
                        .worker_threads(1)
                        .thread_name(format!("calls-{}", self.plugin))
                        .enable_all()
                        .build()
                        .map_err(|error| {
                            format!("the call threads of plugin '{}' could not start: {error}", self.plugin)
                        })?;
                    Ok(CallThread { runtime, load: Arc::default() })
                })
                .collect()
        });
        let threads = started.as_ref().map_err(Clone::clone)?;
        Ok(threads.iter().min_by_key(|thread| thread.load.load(Ordering::Acquire)).expect("CALL_THREADS > 0"))
    }

    /// Runs the future `start` makes for `requested` on this plugin's threads: `start` itself
    /// (which calls into the plugin) runs there too. When the request cannot run (its threads
    /// are held, or could not start), `unavailable` turns the reason into its answer.
    pub fn run<T, F>(
        &self,
        requested: &Requested,
        start: impl FnOnce() -> F + Send + 'static,
        unavailable: impl FnOnce(String) -> T + Send + 'static,
    ) -> BoxFuture<'static, T>
    where
        T: Send + 'static,
        F: Future<Output = T> + Send + 'static,
    {
        if self.inline {
            return start().boxed();
        }
        if let Some(reason) = self.stuck.refusal(&self.plugin, requested.kind) {
            tracing::warn!("{reason}");
            return futures::future::ready(unavailable(reason)).boxed();
        }
        let thread = match self.least_loaded() {
            Ok(thread) => thread,
            Err(reason) => return futures::future::ready(unavailable(reason)).boxed(),
        };
        thread.load.fetch_add(1, Ordering::AcqRel);
        let state = Arc::new(TaskState {
            id: NEXT_TASK.fetch_add(1, Ordering::Relaxed),
            requested: requested.clone(),
            plugin: self.plugin.clone(),
            flags: AtomicU8::new(0),
            load: Arc::clone(&thread.load),
            stuck: Arc::clone(&self.stuck),
        });
        let finish = FinishGuard(Arc::clone(&state));
        let join = thread.runtime.spawn(async move {
            let _finish = finish;
            start().await
        });
        Handle { join, state, done: false }.map(|joined| joined.unwrap_or_else(unavailable)).boxed()
    }
}

impl Drop for CallThreads {
    /// Never waits for a thread: one stuck in plugin code would hold the host's exit forever.
    fn drop(&mut self) {
        let stuck = self.stuck.total.load(Ordering::Acquire);
        if stuck > 0 {
            tracing::warn!(
                "{stuck} stopped request(s) of plugin '{}' are still running on its threads and are left behind",
                self.plugin
            );
        }
        if let Some(Ok(threads)) = self.threads.take() {
            for thread in threads {
                thread.runtime.shutdown_background();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::{
        sync::{Mutex, mpsc},
        time::Duration,
    };

    use super::*;

    fn tool() -> Requested {
        Requested { kind: RequestKind::Tool, item: "t".to_owned() }
    }

    fn read() -> Requested {
        Requested { kind: RequestKind::Resource, item: "x://r".to_owned() }
    }

    /// Records the name of the thread it is dropped on.
    struct DropWitness(mpsc::Sender<Option<String>>);

    impl Drop for DropWitness {
        fn drop(&mut self) {
            let _ = self.0.send(std::thread::current().name().map(str::to_owned));
        }
    }

    #[tokio::test]
    async fn a_call_runs_and_is_dropped_on_the_plugins_threads() {
        let threads = CallThreads::new("witness");
        let ran_on =
            threads.run(&tool(), || async { std::thread::current().name().map(str::to_owned) }, |_| None).await;
        assert_eq!(ran_on.as_deref(), Some("calls-witness"));

        let (sender, dropped) = mpsc::channel();
        let call = threads.run(
            &tool(),
            move || async move {
                let _witness = DropWitness(sender);
                std::future::pending::<()>().await;
            },
            |_| (),
        );
        // Polled once, so the plugin's future exists; then the host gives up on it.
        assert!(tokio::time::timeout(Duration::from_millis(50), call).await.is_err());
        let dropped_on = dropped.recv_timeout(Duration::from_secs(10)).expect("the call's future is dropped");
        assert_eq!(dropped_on.as_deref(), Some("calls-witness"));
    }

    #[tokio::test]
    async fn calls_stopped_on_blocked_threads_are_counted_until_the_threads_return() {
        let threads = CallThreads::new("stuck");
        let (release, released) = mpsc::channel::<()>();
        let released = Arc::new(Mutex::new(released));
        let (started, starts) = mpsc::channel();
        let mut calls = Vec::new();
        for _ in 0..CALL_THREADS {
            let (released, started) = (Arc::clone(&released), started.clone());
            calls.push(threads.run(
                &tool(),
                move || async move {
                    let _ = started.send(());
                    // Blocks its thread, as a plugin's blocking call would.
                    let _ = released.lock().unwrap().recv();
                },
                |_| (),
            ));
        }
        for call in &mut calls {
            assert!(tokio::time::timeout(Duration::from_millis(10), call).await.is_err());
        }
        starts.recv_timeout(Duration::from_secs(10)).expect("a blocking call started");
        drop(calls);
        // Every thread is held (one blocked call holds the lock the others wait on): refused at once.
        let refused = tokio::time::timeout(
            Duration::from_secs(10),
            threads.run(&tool(), || async { "ran".to_owned() }, |reason| reason),
        )
        .await
        .expect("refused at once, not queued behind the blocked threads");
        assert!(refused.contains(&format!("all {CALL_THREADS} of its call threads are held")), "{refused}");
        drop(release);
        let mut answer = String::new();
        for _ in 0..500 {
            answer = threads.run(&tool(), || async { "ran".to_owned() }, |reason| reason).await;
            if answer == "ran" {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert_eq!(answer, "ran", "the threads serve again once the blocked calls return");
    }

    #[tokio::test]
    async fn stopped_reads_never_hold_the_thread_kept_for_tool_calls() {
        let threads = CallThreads::new("reads");
        let (release, released) = mpsc::channel::<()>();
        let released = Arc::new(Mutex::new(released));
        let (started, starts) = mpsc::channel();
        let mut reads = Vec::new();
        for _ in 0..CALL_THREADS - 1 {
            let (released, started) = (Arc::clone(&released), started.clone());
            reads.push(threads.run(
                &read(),
                move || async move {
                    let _ = started.send(());
                    let _ = released.lock().unwrap().recv();
                },
                |_| (),
            ));
        }
        for read in &mut reads {
            assert!(tokio::time::timeout(Duration::from_millis(10), read).await.is_err());
        }
        starts.recv_timeout(Duration::from_secs(10)).expect("a blocking read started");
        drop(reads);
        let refused = threads.run(&read(), || async { "ran".to_owned() }, |reason| reason).await;
        assert!(refused.contains("3 of its 4 call threads are held (the last is kept for tool calls)"), "{refused}");
        assert!(refused.contains("resources/read 'x://r'"), "{refused}");
        let call = threads.run(&tool(), || async { "ran".to_owned() }, |reason| reason);
        assert_eq!(tokio::time::timeout(Duration::from_secs(10), call).await.unwrap(), "ran");
        drop(release);
    }
}
