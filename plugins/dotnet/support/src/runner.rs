//! Runs the dotnet CLI: the one place in the dotnet plugins that starts a process.
//!
//! [`Invocation::run`] starts a program (the configured dotnet path, else `dotnet` found on
//! `PATH`) with an argument vector, never through a shell, with an empty stdin and the
//! environment pinned for parseable English output ([`PINNED_ENV`]). It reads stdout and stderr
//! concurrently, line by line, hands every line to the caller in arrival order (for progress),
//! keeps a capped copy of each stream and of their interleaved transcript, and says in
//! [`RunOutcome`] how the run ended.
//!
//! Ending the process tree: the child heads a tree of its own, through `process-wrap`: on Unix a
//! process group, which its descendants join unless they leave it on purpose (`setsid`,
//! `setpgid`); on Windows a job object, which its descendants always join. A timeout, a
//! cancellation, or dropping the future of [`Invocation::run`] (the host's hard cancel) kills
//! that whole tree (`SIGKILL` to the group, or the job terminated); the first two then reap the
//! child. If the host dies hard, the tree goes too: on Linux the child gets `PR_SET_PDEATHSIG`,
//! so it dies if the thread that started it goes away (in a plugin, a worker thread of the
//! plugin's runtime); on Windows the job is killed when its handle closes with the host (its
//! descendants included). A run whose child exits by itself leaves the tree alone on Unix: what
//! the SDK keeps running on purpose (MSBuild nodes, the compiler server) survives; with
//! [`Invocation::keep_build_servers`] (Linux) the group is settled instead: the build servers
//! left in it are adopted by [`crate::servers`] and everything else there is killed (on Windows the
//! job's end takes them, the price of the kill-on-close that stands in for the parent-death
//! signal), and if such a process holds the output pipes open, reading stops [`EXIT_DRAIN`] after
//! the child exited.
//!
//! [`Invocation::spawn`] starts the same command in the background instead (a `dotnet run` or
//! `dotnet watch` session): threads of its own read its lines and reap it, so it outlives the
//! call that started it and needs no tokio runtime; when it exits, what is left of its tree is
//! killed, and [`Spawned::kill`] or dropping the [`Spawned`] kills the whole tree.
//!
//! The plugin's tokio runtime must have its I/O and time drivers enabled (`enable_all`).

use std::borrow::Cow;
use std::collections::VecDeque;
use std::ffi::OsStr;
use std::future::{Future, pending};
use std::io;
use std::path::{Path, PathBuf};
use std::pin::pin;
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, mpsc};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::process::Command;
use tokio::time::{Instant, sleep_until};

use crate::redact::{redact, redact_interleaved, redacted_command_line};

/// The program run when the plugin configuration names no dotnet path; looked up on `PATH`.
pub const DOTNET: &str = "dotnet";

/// Environment set on every run so that the CLI's output is English, free of banners and
/// first-run side effects, untracked, and written by the classic (parseable) MSBuild logger.
/// Checked on SDK 10.0.401 (docs/dotnet-sdk.md, "The environment"):
/// - `DOTNET_CLI_UI_LANGUAGE=en`: an inherited `LANG=de_DE.UTF-8` or `VSLANG=1031` turns the
///   CLI's, MSBuild's and NuGet's text German; this pin wins over both.
/// - `DOTNET_NOLOGO`, `DOTNET_CLI_TELEMETRY_OPTOUT`: no welcome text, no telemetry.
/// - `DOTNET_GENERATE_ASPNET_CERTIFICATE=false`, `DOTNET_ADD_GLOBAL_TOOLS_TO_PATH=false`: the
///   first run of a user neither creates an HTTPS development certificate nor edits the user's
///   profile behind the dev-certs tool's back (the SDK's own first-run switches; the older
///   `DOTNET_SKIP_FIRST_TIME_EXPERIENCE` is ignored since .NET Core 3.0).
/// - `DOTNET_CLI_WORKLOAD_UPDATE_NOTIFY_DISABLE=true` (a boolean the SDK parses: `1` would not
///   do): no background check for workload updates and no "Workload updates are available"
///   line after a command's own output.
/// - `MSBUILDTERMINALLOGGER=off`: the classic console logger even where stdout is a terminal,
///   and VSTest's classic summary lines.
pub const PINNED_ENV: [(&str, &str); 7] = [
    ("DOTNET_CLI_UI_LANGUAGE", "en"),
    ("DOTNET_NOLOGO", "1"),
    ("DOTNET_CLI_TELEMETRY_OPTOUT", "1"),
    ("DOTNET_GENERATE_ASPNET_CERTIFICATE", "false"),
    ("DOTNET_ADD_GLOBAL_TOOLS_TO_PATH", "false"),
    ("DOTNET_CLI_WORKLOAD_UPDATE_NOTIFY_DISABLE", "true"),
    ("MSBUILDTERMINALLOGGER", "off"),
];

/// Inherited variables removed from every run (unless the plugin settings' `Environment` sets
/// them again): `DOTNET_SYSTEM_CONSOLE_ALLOW_ANSI_COLOR_REDIRECTION`, which CI-style
/// environments export, makes MSBuild write colour escapes into redirected output (seen on SDK
/// 10.0.401; `NO_COLOR` does not stop them).
pub const REMOVED_ENV: [&str; 1] = ["DOTNET_SYSTEM_CONSOLE_ALLOW_ANSI_COLOR_REDIRECTION"];

/// Default for [`Invocation::max_output_bytes`]: 4 MiB kept per stream.
pub const DEFAULT_MAX_OUTPUT_BYTES: usize = 4 * 1024 * 1024;

/// Longest line handed over in one piece; a longer line (no newline within this many bytes) is
/// delivered as several lines, cut at character boundaries, so memory stays bounded.
pub const MAX_LINE_BYTES: usize = 1024 * 1024;

/// How long output is still read after the child exited, for descendants that keep the pipes open.
pub const EXIT_DRAIN: Duration = Duration::from_secs(1);

/// How long to wait for the killed child to be reaped before giving up on it (it stays killed;
/// tokio reaps it later).
const REAP_GRACE: Duration = Duration::from_secs(5);

/// Bytes read from a pipe at a time.
const READ_CHUNK: usize = 8 * 1024;

/// How the dotnet host starts its answer when it finds no SDK (a runtime-only install): .NET Core
/// 2.1 to 3.1 hosts print the first, .NET 5 to 7 hosts the second, .NET 8 and later hosts the
/// third (inside a longer block). The exit code 145 is checked as well ([`HOSTFXR_NO_SDK`]), since
/// the wording changes between releases.
const NO_SDK_MESSAGES: [&str; 3] = [
    "It was not possible to find any installed .NET Core SDKs",
    "It was not possible to find any installed .NET SDKs",
    "No .NET SDKs were found",
];

/// The exit code of the dotnet host (hostfxr) when SDK resolution failed (0x80008091 truncated to a
/// byte): no SDK at all, or none that satisfies global.json.
pub const HOSTFXR_NO_SDK: i32 = 145;

/// Which output stream of the process a line came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stream {
    /// Standard output.
    Stdout,
    /// Standard error.
    Stderr,
}

impl Stream {
    /// `"stdout"` or `"stderr"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Stream::Stdout => "stdout",
            Stream::Stderr => "stderr",
        }
    }

    fn index(self) -> usize {
        match self {
            Stream::Stdout => 0,
            Stream::Stderr => 1,
        }
    }
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunEnd {
    /// The process exited by itself with this code.
    Exited(i32),
    /// The process was ended by this signal, not sent by the runner.
    Signalled(i32),
    /// The caller's timeout elapsed; the process tree was killed.
    TimedOut,
    /// The caller's cancellation future completed; the process tree was killed.
    Cancelled,
    /// The program does not exist: a configured path that is missing, or a name found in no
    /// directory on `PATH`. The text says which and where it was looked for.
    ProgramNotFound(String),
    /// The process could not be started (permission denied, missing working directory, not an
    /// executable format...) or, very rarely, could not be waited for.
    FailedToStart {
        /// The kind of the underlying I/O error.
        kind: io::ErrorKind,
        /// What failed, with the operating system's message.
        message: String,
    },
}

impl RunEnd {
    /// True when the process exited by itself with code 0.
    pub fn is_success(&self) -> bool {
        *self == RunEnd::Exited(0)
    }

    /// The exit code to report: the process's own, `128 + signal` when a signal ended it (as
    /// shells do), and -1 when it did not run to its end (timed out, cancelled, never started).
    pub fn exit_code(&self) -> i32 {
        match self {
            RunEnd::Exited(code) => *code,
            RunEnd::Signalled(signal) => 128 + signal,
            RunEnd::TimedOut | RunEnd::Cancelled | RunEnd::ProgramNotFound(_) | RunEnd::FailedToStart { .. } => -1,
        }
    }
}

/// What a run produced. The output is as the process wrote it, NOT redacted: pass it through
/// [`RunOutcome::into_redacted`] (or [`redact`]) before any of it reaches a client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunOutcome {
    /// How the run ended.
    pub end: RunEnd,
    /// The program and its arguments as one display line, redacted with
    /// [`redacted_command_line`]; the program as the invocation named it (for example `dotnet`).
    pub command_line: String,
    /// The path that was executed; `None` when the program was not found.
    pub program: Option<PathBuf>,
    /// The kept stdout lines, each ending with `\n`, with a truncation marker line where lines
    /// were dropped (see [`Invocation::max_output_bytes`]).
    pub stdout: String,
    /// The kept stderr lines, like [`RunOutcome::stdout`].
    pub stderr: String,
    /// The kept lines of both streams in the order they arrived, with the truncation markers.
    pub transcript: String,
    /// Which stream each line of [`RunOutcome::transcript`] came from, so it is redacted stream
    /// by stream.
    pub transcript_streams: Vec<Stream>,
    /// How many bytes of stdout (newlines included) were dropped by the cap; 0 when none.
    pub stdout_dropped_bytes: u64,
    /// How many bytes of stderr were dropped by the cap; 0 when none.
    pub stderr_dropped_bytes: u64,
    /// The dotnet host answered that no .NET SDK is installed (a runtime-only install): it exited
    /// with [`HOSTFXR_NO_SDK`], or any line, kept or dropped, starts with one of the host's
    /// messages for it (".NET Core SDKs", ".NET SDKs", "No .NET SDKs were found").
    pub sdk_missing: bool,
    /// Time from the start of the run to its end.
    pub elapsed: Duration,
}

impl RunOutcome {
    /// The outcome with `stdout` and `stderr` redacted with [`redact`], one pass over each (a
    /// text without secrets is kept as is, without a copy), and `transcript` with
    /// [`redact_interleaved`], each stream by itself, so a private key printed on one stream is
    /// hidden whatever lines of the other come between its lines.
    pub fn into_redacted(mut self) -> Self {
        for text in [&mut self.stdout, &mut self.stderr] {
            if let Cow::Owned(redacted) = redact(text) {
                *text = redacted;
            }
        }
        let streams = self.transcript_streams.iter().map(|stream| stream.index());
        self.transcript = redact_interleaved(streams.zip(self.transcript.split('\n')));
        self
    }
}

/// One run of a program: what to run, where, with which extra environment, for how long, and
/// how much output to keep. Build it, then call [`Invocation::run`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invocation {
    program: PathBuf,
    args: Vec<String>,
    current_dir: Option<PathBuf>,
    env: Vec<(String, String)>,
    timeout: Option<Duration>,
    max_output_bytes: usize,
    keep_build_servers: bool,
}

impl Invocation {
    /// Runs `program` with `args`, each passed to the process as one argument, verbatim.
    /// A `program` with a folder in it is a path (a relative one is taken from the host's current
    /// directory); a bare name is looked up in the directories of `PATH` (the `PATH` given with
    /// [`Invocation::env`], else the host's), skipping empty entries, as the platform does: the
    /// first regular file with an execute bit on Unix, the first match with a `PATHEXT` extension
    /// (`dotnet.exe`) on Windows.
    pub fn new<I, S>(program: impl Into<PathBuf>, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Invocation {
            program: program.into(),
            args: args.into_iter().map(Into::into).collect(),
            current_dir: None,
            env: Vec::new(),
            timeout: None,
            max_output_bytes: DEFAULT_MAX_OUTPUT_BYTES,
            keep_build_servers: false,
        }
    }

    /// Runs the dotnet CLI: the path from the plugin configuration when there is one, else
    /// [`DOTNET`] from `PATH`.
    pub fn dotnet<I, S>(configured: Option<&Path>, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Invocation::new(configured.unwrap_or(Path::new(DOTNET)), args)
    }

    /// The working directory of the process (default: the host's). A directory that does not
    /// exist ends the run with [`RunEnd::FailedToStart`].
    pub fn current_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.current_dir = Some(dir.into());
        self
    }

    /// Sets one more environment variable, on top of the host's environment and of
    /// [`PINNED_ENV`] (so the caller can override a pinned value).
    pub fn env(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.env.push((key.into(), value.into()));
        self
    }

    /// Kills the process tree and ends with [`RunEnd::TimedOut`] when the run takes longer than
    /// this (default: no timeout).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// How many bytes of each stream to keep (default [`DEFAULT_MAX_OUTPUT_BYTES`]), counting
    /// each line with its newline: the first half from the start and the last half from the end
    /// (where summaries and errors are), with one marker line in the gap saying how much was
    /// dropped. The process is read to its end all the same, and the line callback sees every line.
    pub fn max_output_bytes(mut self, max: usize) -> Self {
        self.max_output_bytes = max;
        self
    }

    /// When the process exits by itself, keeps the build servers it left in its process group
    /// running and kills everything else there ([`crate::servers::settle`]; default: the group is
    /// left alone). Killing the run (timeout, cancellation, drop) still kills the whole group.
    pub fn keep_build_servers(mut self, keep: bool) -> Self {
        self.keep_build_servers = keep;
        self
    }

    /// The program and arguments as one redacted display line (also [`RunOutcome::command_line`]).
    pub fn command_line(&self) -> String {
        redacted_command_line(&self.program.to_string_lossy(), &self.args)
    }

    /// Runs the process to its end, calling `on_line` with each line of stdout and stderr (without
    /// its line ending) in the order they arrive. The process is killed with its whole process
    /// group when the timeout elapses, when `cancel` completes (for example the plugin context's
    /// cancellation signal; pass `std::future::pending()` for none), or when this future is dropped.
    ///
    /// The future is `Send` when `cancel` and `on_line` are.
    pub async fn run<C, F>(&self, cancel: C, on_line: F) -> RunOutcome
    where
        C: Future<Output = ()>,
        F: FnMut(Stream, &str),
    {
        let started = Instant::now();
        let mut collector = Collector::new(on_line, self.max_output_bytes);
        let (program, command) = match self.prepare() {
            Ok(prepared) => prepared,
            Err((end, program)) => return self.outcome(end, program, collector, started),
        };
        // Armed from here until the child is reaped, across every await below.
        let mut tree = match Tree::spawn(command, self.keep_build_servers) {
            Ok(tree) => tree,
            Err(error) => {
                let end = RunEnd::FailedToStart {
                    kind: error.kind(),
                    message: format!("could not start {}: {error}", program.display()),
                };
                return self.outcome(end, Some(program), collector, started);
            }
        };

        let mut stdout = tree.child.stdout().take();
        let mut stderr = tree.child.stderr().take();
        let mut stdout_buf = vec![0; READ_CHUNK];
        let mut stderr_buf = vec![0; READ_CHUNK];
        let mut cancel = pin!(cancel);
        let mut phase = Phase::Running(self.timeout.map(|timeout| started + timeout));
        let end = loop {
            if let Phase::Exited(end, _) = &phase
                && stdout.is_none()
                && stderr.is_none()
            {
                break end.clone();
            }
            tokio::select! {
                read = read_some(&mut stdout, &mut stdout_buf) => match read {
                    Ok(n) if n > 0 => collector.feed(Stream::Stdout, &stdout_buf[..n]),
                    _ => {
                        stdout = None;
                        collector.finish(Stream::Stdout);
                    }
                },
                read = read_some(&mut stderr, &mut stderr_buf) => match read {
                    Ok(n) if n > 0 => collector.feed(Stream::Stderr, &stderr_buf[..n]),
                    _ => {
                        stderr = None;
                        collector.finish(Stream::Stderr);
                    }
                },
                exit = tree.wait(), if !matches!(phase, Phase::Exited(..)) => {
                    phase = phase.exited(exit);
                }
                () = &mut cancel, if matches!(phase, Phase::Running(_)) => {
                    tree.kill();
                    phase = Phase::Killed(RunEnd::Cancelled, Instant::now() + REAP_GRACE);
                }
                () = sleep_opt(phase.deadline()) => match phase {
                    Phase::Running(_) => {
                        tree.kill();
                        phase = Phase::Killed(RunEnd::TimedOut, Instant::now() + REAP_GRACE);
                    }
                    Phase::Killed(end, _) | Phase::Exited(end, _) => break end,
                },
            }
        };
        collector.finish(Stream::Stdout);
        collector.finish(Stream::Stderr);
        self.outcome(end, Some(program), collector, started)
    }

    /// Finds the program and checks the working directory, then builds the command: arguments,
    /// [`PINNED_ENV`] and the extra environment, empty stdin, piped stdout and stderr and (Linux)
    /// the parent-death signal; [`Tree`] and [`SpawnedTree`] add the process tree when they start
    /// it. `Err` says how the run ends instead, with the program when it was found.
    fn prepare(&self) -> Result<(PathBuf, std::process::Command), (RunEnd, Option<PathBuf>)> {
        let path_var = match self.env.iter().rfind(|(key, _)| key == "PATH") {
            Some((_, value)) => Some(OsStr::new(value).to_owned()),
            None => std::env::var_os("PATH"),
        };
        let program = resolve_program(&self.program, path_var.as_deref())
            .map_err(|message| (RunEnd::ProgramNotFound(message), None))?;
        if let Some(dir) = &self.current_dir
            && let Err(end) = check_dir(dir)
        {
            return Err((end, Some(program)));
        }
        let mut command = std::process::Command::new(&program);
        for name in REMOVED_ENV {
            command.env_remove(name);
        }
        command
            .args(&self.args)
            .envs(PINNED_ENV)
            .envs(self.env.iter().map(|(key, value)| (key, value)))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &self.current_dir {
            command.current_dir(dir);
        }
        #[cfg(target_os = "linux")]
        die_with_parent(&mut command);
        Ok((program, command))
    }

    fn outcome<F>(
        &self,
        end: RunEnd,
        program: Option<PathBuf>,
        collector: Collector<F>,
        started: Instant,
    ) -> RunOutcome {
        let sdk_missing = collector.sdk_missing || matches!(end, RunEnd::Exited(HOSTFXR_NO_SDK));
        let [stdout, stderr] = collector.captures.map(Capture::into_kept);
        RunOutcome {
            end,
            command_line: self.command_line(),
            program,
            transcript_streams: transcript_streams(&stdout.lines, &stderr.lines),
            transcript: transcript(&stdout.lines, &stderr.lines),
            stdout: stdout.text(),
            stderr: stderr.text(),
            stdout_dropped_bytes: stdout.dropped_bytes,
            stderr_dropped_bytes: stderr.dropped_bytes,
            sdk_missing,
            elapsed: started.elapsed(),
        }
    }
}

/// A process started in the background by [`Invocation::spawn`], such as a `dotnet run` or
/// `dotnet watch` session that outlives the call that started it.
///
/// A thread of its own starts the process (so the Linux parent-death signal is tied to a thread
/// that lives as long as the process), waits for it and reaps it; two more threads read its
/// output. None of them needs a tokio runtime, so a session does not depend on the runtime of
/// the call that started it. When the process exits, whatever is left of its tree is killed
/// (nothing is orphaned), the output still in the pipes is read for up to [`EXIT_DRAIN`], and
/// only then is the process reaped: until that moment its group id cannot name another group.
/// [`Spawned::kill`] and dropping the `Spawned` kill the whole tree.
pub struct Spawned {
    pid: u32,
    shared: Arc<SpawnShared>,
}

/// What the session thread and the [`Spawned`] handle share.
struct SpawnShared {
    state: Mutex<SpawnState>,
    ended: Condvar,
}

/// Where a background process is.
struct SpawnState {
    /// The process, heading its tree, while it is unreaped.
    child: Option<Box<dyn process_wrap::std::ChildWrapper>>,
    /// The leader has exited (it may not be reaped yet).
    exited: bool,
    /// [`Spawned::kill`] was called while the leader was running.
    killed: bool,
    /// How it ended, once reaped.
    end: Option<RunEnd>,
}

impl Spawned {
    /// The process id (on Unix also its process group id).
    pub fn pid(&self) -> u32 {
        self.pid
    }

    /// How the process ended, or `None` while it runs.
    pub fn end(&self) -> Option<RunEnd> {
        lock(&self.shared.state).end.clone()
    }

    /// Kills the whole tree, unless the process was already reaped. A process killed while it
    /// ran ends with [`RunEnd::Cancelled`].
    pub fn kill(&self) {
        let mut state = lock(&self.shared.state);
        state.killed |= state.child.is_some() && !state.exited;
        if let Some(child) = state.child.as_mut() {
            let _ = child.start_kill();
        }
    }

    /// Waits up to `timeout` for the process to end and be reaped; `None` if it is still running.
    pub fn wait(&self, timeout: Duration) -> Option<RunEnd> {
        let state = lock(&self.shared.state);
        let (state, _) = self
            .shared
            .ended
            .wait_timeout_while(state, timeout, |state| state.end.is_none())
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        state.end.clone()
    }
}

impl Drop for Spawned {
    fn drop(&mut self) {
        self.kill();
    }
}

impl std::fmt::Debug for Spawned {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.debug_struct("Spawned").field("pid", &self.pid).field("end", &self.end()).finish()
    }
}

/// Locks a mutex, recovering the data of a poisoned one (a panicking callback must not wedge the
/// session).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Invocation {
    /// Starts the process in the background and returns once it runs. `on_line` gets each line
    /// of stdout and stderr (without its line ending) in arrival order, one at a time, from the
    /// session's reader threads; `on_end` is called once, after the process was reaped and its
    /// output read and before [`Spawned::end`] and [`Spawned::wait`] report the end, with how it ended ([`RunEnd::Exited`], [`RunEnd::Signalled`], or
    /// [`RunEnd::Cancelled`] after [`Spawned::kill`]). Lines that processes which left the group
    /// write after that are still delivered.
    ///
    /// The invocation's timeout and output cap do not apply: a session runs until it ends or is
    /// killed, and the caller keeps what it wants of the lines. `Err` is
    /// [`RunEnd::ProgramNotFound`] or [`RunEnd::FailedToStart`]. This blocks the calling thread
    /// only while the process starts.
    pub fn spawn<F, E>(&self, on_line: F, on_end: E) -> Result<Spawned, RunEnd>
    where
        F: FnMut(Stream, &str) + Send + 'static,
        E: FnOnce(&RunEnd) + Send + 'static,
    {
        let (program, command) = self.prepare().map_err(|(end, _)| end)?;
        let shared = Arc::new(SpawnShared {
            state: Mutex::new(SpawnState { child: None, exited: false, killed: false, end: None }),
            ended: Condvar::new(),
        });
        let (started_tx, started_rx) = mpsc::sync_channel(1);
        let session = Arc::clone(&shared);
        std::thread::Builder::new()
            .name("dotnet-session".to_owned())
            .spawn(move || {
                let mut child = match spawn_tree(command) {
                    Ok(child) => child,
                    Err(error) => {
                        let message = format!("could not start {}: {error}", program.display());
                        let _ = started_tx.send(Err(RunEnd::FailedToStart { kind: error.kind(), message }));
                        return;
                    }
                };
                let pid = child.id();
                let pipes = [
                    (Stream::Stdout, child.stdout().take().map(|pipe| Box::new(pipe) as Box<dyn io::Read + Send>)),
                    (Stream::Stderr, child.stderr().take().map(|pipe| Box::new(pipe) as Box<dyn io::Read + Send>)),
                ];
                lock(&session.state).child = Some(child);
                let _ = started_tx.send(Ok(pid));
                supervise(pid, pipes, &session, on_line, on_end);
            })
            .map_err(|error| RunEnd::FailedToStart {
                kind: error.kind(),
                message: format!("could not start a thread for the session: {error}"),
            })?;
        match started_rx.recv() {
            Ok(Ok(pid)) => Ok(Spawned { pid, shared }),
            Ok(Err(end)) => Err(end),
            Err(_) => Err(RunEnd::FailedToStart {
                kind: io::ErrorKind::Other,
                message: "the session thread ended before the process started".to_owned(),
            }),
        }
    }
}

/// The output pipes of a background process, by stream.
type Pipes = [(Stream, Option<Box<dyn io::Read + Send>>); 2];

/// The session thread's work once the process runs: read its output, wait for it to exit, kill
/// what is left of its tree, drain the pipes for up to [`EXIT_DRAIN`], reap it, report the end.
fn supervise<F, E>(pid: u32, pipes: Pipes, shared: &SpawnShared, on_line: F, on_end: E)
where
    F: FnMut(Stream, &str) + Send + 'static,
    E: FnOnce(&RunEnd),
{
    let collector = Arc::new(Mutex::new(Collector::new(on_line, 0)));
    let (done_tx, done_rx) = mpsc::channel();
    let mut readers = 0;
    for (stream, pipe) in pipes {
        let Some(mut pipe) = pipe else { continue };
        let collector = Arc::clone(&collector);
        let done = done_tx.clone();
        let reader = std::thread::Builder::new().name(format!("dotnet-session-{}", stream.as_str())).spawn(move || {
            let mut buf = vec![0; READ_CHUNK];
            loop {
                match pipe.read(&mut buf) {
                    Ok(0) => break,
                    Ok(n) => lock(&collector).feed(stream, &buf[..n]),
                    Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                    Err(_) => break,
                }
            }
            lock(&collector).finish(stream);
            let _ = done.send(());
        });
        readers += usize::from(reader.is_ok());
    }
    drop(done_tx);

    wait_exited(pid, shared);
    {
        let mut state = lock(&shared.state);
        state.exited = true;
        // The leader is gone: whatever it left in its tree would be orphaned.
        if let Some(child) = state.child.as_mut() {
            let _ = child.start_kill();
        }
    }
    let drained = std::time::Instant::now() + EXIT_DRAIN;
    for _ in 0..readers {
        if done_rx.recv_timeout(drained.saturating_duration_since(std::time::Instant::now())).is_err() {
            break;
        }
    }
    let end = {
        let mut state = lock(&shared.state);
        // The leader has exited, so this returns at once; the child is forgotten in the same
        // critical section, so `kill` never signals a reaped id.
        let status = match state.child.take() {
            Some(mut child) => child.inner_mut().wait(),
            None => Err(io::Error::other("the session's process was already reaped")),
        };
        if state.killed { RunEnd::Cancelled } else { end_of(status) }
    };
    // Before the end is published, so whoever waits for it sees what `on_end` did.
    on_end(&end);
    lock(&shared.state).end = Some(end);
    shared.ended.notify_all();
}

/// Blocks until the child `pid` has exited, without reaping it (`waitid` with `WNOWAIT`), so its
/// process group id stays reserved.
#[cfg(unix)]
fn wait_exited(id: libc::id_t, _shared: &SpawnShared) {
    loop {
        // SAFETY: an all-zero siginfo_t is a valid value (a plain C struct of integers).
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: waitid writes only into `info`, which we own; WNOWAIT leaves the child unreaped.
        let result = unsafe { libc::waitid(libc::P_PID, id, &mut info, libc::WEXITED | libc::WNOWAIT) };
        if result == 0 || io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            return;
        }
    }
}

/// Blocks until the child has exited. Windows never reuses the id of a process whose handle is
/// open, so asking (which keeps the handle) is safe; it is asked every few milliseconds because
/// `Spawned::kill` needs the child in between.
#[cfg(not(unix))]
fn wait_exited(_pid: u32, shared: &SpawnShared) {
    loop {
        let exited = match lock(&shared.state).child.as_mut() {
            Some(child) => !matches!(child.inner_mut().try_wait(), Ok(None)),
            None => true,
        };
        if exited {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Where a started run is: what it waits for next, and until when.
enum Phase {
    /// The child runs; the optional deadline is the caller's timeout.
    Running(Option<Instant>),
    /// The group was killed for this reason; waiting for the child until the deadline.
    Killed(RunEnd, Instant),
    /// The child was reaped and the run ended like this; reading what is left until the deadline.
    Exited(RunEnd, Instant),
}

impl Phase {
    fn deadline(&self) -> Option<Instant> {
        match self {
            Phase::Running(deadline) => *deadline,
            Phase::Killed(_, deadline) | Phase::Exited(_, deadline) => Some(*deadline),
        }
    }

    /// The phase after the child was reaped: a kill keeps its reason, otherwise the exit status
    /// says how it ended.
    fn exited(self, exit: io::Result<ExitStatus>) -> Phase {
        let drained = Instant::now() + EXIT_DRAIN;
        match self {
            Phase::Killed(end, deadline) => Phase::Exited(end, deadline.min(drained)),
            Phase::Running(_) | Phase::Exited(..) => Phase::Exited(end_of(exit), drained),
        }
    }
}

fn end_of(exit: io::Result<ExitStatus>) -> RunEnd {
    #[cfg(unix)]
    let signal = |status: &ExitStatus| std::os::unix::process::ExitStatusExt::signal(status);
    #[cfg(not(unix))]
    let signal = |_: &ExitStatus| None::<i32>;
    match exit {
        Ok(status) => match (status.code(), signal(&status)) {
            (Some(code), _) => RunEnd::Exited(code),
            (None, Some(signal)) => RunEnd::Signalled(signal),
            (None, None) => RunEnd::FailedToStart {
                kind: io::ErrorKind::Other,
                message: format!("the process ended with an unknown status: {status}"),
            },
        },
        Err(error) => {
            RunEnd::FailedToStart { kind: error.kind(), message: format!("could not wait for the process: {error}") }
        }
    }
}

/// Reads what is available from a pipe that is still open; never completes for a closed one.
async fn read_some<R: AsyncRead + Unpin>(reader: &mut Option<R>, buf: &mut [u8]) -> io::Result<usize> {
    match reader {
        Some(reader) => reader.read(buf).await,
        None => pending().await,
    }
}

/// Completes at `deadline`; never without one.
async fn sleep_opt(deadline: Option<Instant>) {
    match deadline {
        Some(deadline) => sleep_until(deadline).await,
        None => pending().await,
    }
}

/// Finds the file to execute. A name with a folder in it is a path and only has to exist
/// (spawning reports a file that is not executable); a bare name is searched in `path_var`, its
/// empty entries skipped (an empty entry would mean the current folder), by the `which` crate.
fn resolve_program(program: &Path, path_var: Option<&OsStr>) -> Result<PathBuf, String> {
    if program.parent().is_some_and(|parent| !parent.as_os_str().is_empty()) {
        let path = std::path::absolute(program).unwrap_or_else(|_| program.to_owned());
        return match path.try_exists() {
            Ok(true) => Ok(path),
            _ => Err(format!("the program {} does not exist", program.display())),
        };
    }
    if program.as_os_str().is_empty() {
        return Err("no program was given".to_owned());
    }
    let Some(path_var) = path_var else {
        return Err(format!("`{}` was not found: PATH is not set", program.display()));
    };
    let dirs = std::env::join_paths(std::env::split_paths(path_var).filter(|dir| !dir.as_os_str().is_empty()))
        .map_err(|error| format!("PATH cannot be searched: {error}"))?;
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    which::which_in(program, Some(dirs), cwd)
        .map_err(|_| format!("`{}` was not found in any directory on PATH", program.display()))
}

/// Checks the working directory up front, so a missing one is not mistaken for a missing program.
fn check_dir(dir: &Path) -> Result<(), RunEnd> {
    match dir.metadata() {
        Ok(meta) if meta.is_dir() => Ok(()),
        Ok(_) => Err(RunEnd::FailedToStart {
            kind: io::ErrorKind::NotADirectory,
            message: format!("the working directory {} is not a directory", dir.display()),
        }),
        Err(error) => Err(RunEnd::FailedToStart {
            kind: error.kind(),
            message: format!("the working directory {} cannot be used: {error}", dir.display()),
        }),
    }
}

/// Makes the kernel send `SIGKILL` to the child when the thread that spawned it ends, so a host
/// that dies hard takes the child with it. Its descendants are not covered; they share its group.
#[cfg(target_os = "linux")]
fn die_with_parent(command: &mut std::process::Command) {
    use std::os::unix::process::CommandExt;
    let parent = std::process::id() as libc::pid_t;
    // SAFETY: the closure runs in the forked child before exec and only makes the
    // async-signal-safe system calls prctl and getppid; it allocates nothing and takes no lock.
    unsafe {
        command.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong, 0, 0, 0) == -1 {
                return Err(io::Error::last_os_error());
            }
            // The host died between fork and prctl: the signal will never come, so do not run.
            if libc::getppid() != parent {
                return Err(io::Error::from_raw_os_error(libc::ESRCH));
            }
            Ok(())
        });
    }
}

/// A child started by [`Invocation::run`] as the head of a process tree (see the module
/// documentation), killed whole when told and when dropped, until its leader was reaped: from then
/// on a process group id could name another group, so the tree is left alone.
struct Tree {
    child: Box<dyn process_wrap::tokio::ChildWrapper>,
    reaped: bool,
    /// The run killed the group (timeout, cancellation, drop): nothing in it is settled.
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    killed: bool,
    /// With [`Invocation::keep_build_servers`] on Linux: a pidfd of the leader, readable once it
    /// exited (before it is reaped), when the group is settled.
    #[cfg(target_os = "linux")]
    settle: Option<tokio::io::unix::AsyncFd<std::os::fd::OwnedFd>>,
}

impl Tree {
    fn spawn(command: std::process::Command, keep_build_servers: bool) -> io::Result<Tree> {
        let mut wrap = process_wrap::tokio::CommandWrap::from(Command::from(command));
        #[cfg(unix)]
        wrap.wrap(process_wrap::tokio::ProcessGroup::leader());
        // Kill-on-close: the job dies with the host, as the Linux child does with its parent-death signal.
        #[cfg(windows)]
        wrap.wrap(process_wrap::tokio::KillOnDrop).wrap(process_wrap::tokio::JobObject);
        let child = wrap.spawn()?;
        #[cfg(target_os = "linux")]
        let settle = keep_build_servers.then(|| child.id().and_then(exit_watch)).flatten();
        #[cfg(not(target_os = "linux"))]
        let _ = keep_build_servers;
        Ok(Tree {
            child,
            reaped: false,
            killed: false,
            #[cfg(target_os = "linux")]
            settle,
        })
    }

    /// Waits for the leader alone (process-wrap's own `wait` would also wait for a Windows job to
    /// empty, and MSBuild nodes can outlive a build by minutes) and reaps it. A leader that
    /// exited by itself has its group settled first ([`crate::servers::settle`]), while its
    /// unreaped id still names the group.
    async fn wait(&mut self) -> io::Result<ExitStatus> {
        #[cfg(target_os = "linux")]
        if let Some(exited) = &self.settle {
            let _ = exited.readable().await;
            self.settle = None;
            if let (false, Some(pid)) = (self.killed, self.child.id()) {
                crate::servers::settle(pid);
            }
        }
        let exit = self.child.inner_mut().wait().await;
        self.reaped = true;
        exit
    }

    fn kill(&mut self) {
        if !self.reaped {
            self.killed = true;
            let _ = self.child.start_kill();
        }
    }
}

/// A pidfd of the child `pid` (Linux 5.3 and later), registered with the runtime: it turns
/// readable when the child exits, and unlike waiting it does not reap the child. `None` where
/// the kernel has none: the group is then not settled, and what the SDK left there runs on.
#[cfg(target_os = "linux")]
fn exit_watch(pid: u32) -> Option<tokio::io::unix::AsyncFd<std::os::fd::OwnedFd>> {
    use std::os::fd::FromRawFd;
    // SAFETY: pidfd_open takes a pid and flags and returns a new file descriptor or -1.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid as libc::pid_t, 0) };
    let fd = i32::try_from(fd).ok().filter(|&fd| fd >= 0)?;
    // SAFETY: the descriptor was just opened and is owned by nobody else.
    let fd = unsafe { std::os::fd::OwnedFd::from_raw_fd(fd) };
    // SAFETY: the AsyncFd owns the descriptor, which is closed only when it is dropped.
    unsafe { tokio::io::unix::AsyncFd::register_with_interest(fd, tokio::io::Interest::READABLE) }.ok()
}

impl Drop for Tree {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The std counterpart of [`Tree`], for a background session run by threads.
fn spawn_tree(command: std::process::Command) -> io::Result<Box<dyn process_wrap::std::ChildWrapper>> {
    let mut wrap = process_wrap::std::CommandWrap::from(command);
    #[cfg(unix)]
    wrap.wrap(process_wrap::std::ProcessGroup::leader());
    #[cfg(windows)]
    wrap.wrap(process_wrap::std::JobObject);
    wrap.spawn()
}

/// Splits both streams into lines, hands each line to the caller, and keeps capped copies.
struct Collector<F> {
    on_line: F,
    next_seq: u64,
    sdk_missing: bool,
    /// The unfinished last line of each stream.
    pending: [Vec<u8>; 2],
    captures: [Capture; 2],
}

impl<F> Collector<F> {
    fn new(on_line: F, max_bytes: usize) -> Self {
        Collector {
            on_line,
            next_seq: 0,
            sdk_missing: false,
            pending: [Vec::new(), Vec::new()],
            captures: [Capture::new(Stream::Stdout, max_bytes), Capture::new(Stream::Stderr, max_bytes)],
        }
    }
}

impl<F: FnMut(Stream, &str)> Collector<F> {
    /// Takes bytes read from `stream`; delivers every line they complete.
    fn feed(&mut self, stream: Stream, mut bytes: &[u8]) {
        while let Some(newline) = bytes.iter().position(|&b| b == b'\n') {
            self.extend(stream, &bytes[..newline]);
            self.end_line(stream);
            bytes = &bytes[newline + 1..];
        }
        self.extend(stream, bytes);
    }

    /// Delivers the unfinished last line of a stream that ended.
    fn finish(&mut self, stream: Stream) {
        if !self.pending[stream.index()].is_empty() {
            self.end_line(stream);
        }
    }

    /// Appends to the unfinished line, delivering pieces of [`MAX_LINE_BYTES`] while it is longer.
    fn extend(&mut self, stream: Stream, bytes: &[u8]) {
        self.pending[stream.index()].extend_from_slice(bytes);
        while self.pending[stream.index()].len() > MAX_LINE_BYTES {
            let piece = &self.pending[stream.index()];
            // Back up over UTF-8 continuation bytes so a character is not split.
            let cut = (MAX_LINE_BYTES - 3..=MAX_LINE_BYTES)
                .rev()
                .find(|&at| piece[at] & 0xC0 != 0x80)
                .unwrap_or(MAX_LINE_BYTES);
            let piece: Vec<u8> = self.pending[stream.index()].drain(..cut).collect();
            self.deliver(stream, &piece);
        }
    }

    fn end_line(&mut self, stream: Stream) {
        let mut line = std::mem::take(&mut self.pending[stream.index()]);
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        self.deliver(stream, &line);
        line.clear();
        self.pending[stream.index()] = line;
    }

    fn deliver(&mut self, stream: Stream, bytes: &[u8]) {
        let line = String::from_utf8_lossy(bytes);
        (self.on_line)(stream, &line);
        if !self.sdk_missing {
            let trimmed = line.trim_start();
            self.sdk_missing = NO_SDK_MESSAGES.iter().any(|message| trimmed.starts_with(message));
        }
        self.captures[stream.index()].push(self.next_seq, &line);
        self.next_seq += 1;
    }
}

/// The kept lines of one stream: a head from the start and a sliding tail from the end, each with
/// half of the byte budget. Each line is numbered in arrival order across both streams.
struct Capture {
    stream: Stream,
    max_bytes: usize,
    head: Vec<(u64, String)>,
    head_bytes: usize,
    head_closed: bool,
    tail: VecDeque<(u64, String)>,
    tail_bytes: usize,
    dropped_bytes: u64,
    dropped_lines: u64,
    /// Arrival number of the first dropped line: where the marker goes.
    gap: Option<u64>,
}

/// What a [`Capture`] kept, with its marker line in place.
struct Kept {
    lines: Vec<(u64, String)>,
    dropped_bytes: u64,
}

impl Capture {
    fn new(stream: Stream, max_bytes: usize) -> Self {
        Capture {
            stream,
            max_bytes,
            head: Vec::new(),
            head_bytes: 0,
            head_closed: false,
            tail: VecDeque::new(),
            tail_bytes: 0,
            dropped_bytes: 0,
            dropped_lines: 0,
            gap: None,
        }
    }

    fn push(&mut self, seq: u64, line: &str) {
        let cost = line.len() + 1;
        if !self.head_closed && self.head_bytes + cost <= self.max_bytes / 2 {
            self.head.push((seq, line.to_owned()));
            self.head_bytes += cost;
            return;
        }
        // The head stays contiguous: once a line misses it, every later line goes to the tail.
        self.head_closed = true;
        self.tail.push_back((seq, line.to_owned()));
        self.tail_bytes += cost;
        while self.tail_bytes > self.max_bytes - self.max_bytes / 2 {
            let Some((seq, line)) = self.tail.pop_front() else { break };
            self.tail_bytes -= line.len() + 1;
            self.dropped_bytes += line.len() as u64 + 1;
            self.dropped_lines += 1;
            self.gap.get_or_insert(seq);
        }
    }

    fn into_kept(self) -> Kept {
        let mut lines = self.head;
        if let Some(gap) = self.gap {
            let marker = format!(
                "[output truncated: {} bytes in {} lines of {} were dropped here; at most {} bytes are kept per stream]",
                self.dropped_bytes,
                self.dropped_lines,
                self.stream.as_str(),
                self.max_bytes
            );
            lines.push((gap, marker));
        }
        lines.extend(self.tail);
        Kept { lines, dropped_bytes: self.dropped_bytes }
    }
}

impl Kept {
    fn text(&self) -> String {
        let mut text = String::with_capacity(self.lines.iter().map(|(_, line)| line.len() + 1).sum());
        for (_, line) in &self.lines {
            text.push_str(line);
            text.push('\n');
        }
        text
    }
}

/// Both streams' kept lines merged back into arrival order, with the stream of each.
fn merged<'a>(stdout: &'a [(u64, String)], stderr: &'a [(u64, String)]) -> impl Iterator<Item = (Stream, &'a str)> {
    let (mut out, mut err) = (stdout.iter().peekable(), stderr.iter().peekable());
    std::iter::from_fn(move || {
        let (stream, next) = match (out.peek(), err.peek()) {
            (Some((a, _)), Some((b, _))) if a < b => (Stream::Stdout, out.next()),
            (Some(_), Some(_)) | (None, Some(_)) => (Stream::Stderr, err.next()),
            (Some(_), None) => (Stream::Stdout, out.next()),
            (None, None) => return None,
        };
        next.map(|(_, line)| (stream, line.as_str()))
    })
}

/// Both streams' kept lines merged back into arrival order.
fn transcript(stdout: &[(u64, String)], stderr: &[(u64, String)]) -> String {
    let mut text = String::new();
    for (_, line) in merged(stdout, stderr) {
        text.push_str(line);
        text.push('\n');
    }
    text
}

/// The stream of each line of [`transcript`].
fn transcript_streams(stdout: &[(u64, String)], stderr: &[(u64, String)]) -> Vec<Stream> {
    merged(stdout, stderr).map(|(stream, _)| stream).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collect(max_bytes: usize, chunks: &[(Stream, &[u8])]) -> (Vec<(Stream, String)>, RunOutcome) {
        let mut seen = Vec::new();
        let mut collector = Collector::new(|stream, line: &str| seen.push((stream, line.to_owned())), max_bytes);
        for (stream, bytes) in chunks {
            collector.feed(*stream, bytes);
        }
        collector.finish(Stream::Stdout);
        collector.finish(Stream::Stderr);
        let outcome = Invocation::new("x", ["y"]).outcome(RunEnd::Exited(0), None, collector, Instant::now());
        (seen, outcome)
    }

    #[test]
    fn lines_split_across_chunks_crlf_and_missing_final_newline() {
        let (seen, outcome) = collect(
            1024,
            &[
                (Stream::Stdout, b"al"),
                (Stream::Stderr, b"e1\r\ne"),
                (Stream::Stdout, b"pha\nbeta\r\n\ngam"),
                (Stream::Stdout, b"ma"),
            ],
        );
        let expected = [
            (Stream::Stderr, "e1"),
            (Stream::Stdout, "alpha"),
            (Stream::Stdout, "beta"),
            (Stream::Stdout, ""),
            (Stream::Stdout, "gamma"),
            (Stream::Stderr, "e"),
        ];
        assert_eq!(seen, expected.map(|(s, l)| (s, l.to_owned())));
        assert_eq!(outcome.stdout, "alpha\nbeta\n\ngamma\n");
        assert_eq!(outcome.stderr, "e1\ne\n");
        assert_eq!(outcome.transcript, "e1\nalpha\nbeta\n\ngamma\ne\n");
    }

    #[test]
    fn invalid_utf8_is_replaced_not_fatal() {
        let (seen, _) = collect(1024, &[(Stream::Stdout, b"a\xffb\n")]);
        assert_eq!(seen, [(Stream::Stdout, "a\u{fffd}b".to_owned())]);
    }

    #[test]
    fn overlong_line_is_cut_at_a_character_boundary() {
        let mut bytes = vec![b'a'; MAX_LINE_BYTES - 1];
        bytes.extend_from_slice("é".as_bytes()); // straddles the limit
        bytes.extend_from_slice(b"tail\n");
        let (seen, _) = collect(usize::MAX, &[(Stream::Stdout, &bytes)]);
        assert_eq!(seen.len(), 2);
        assert_eq!(seen[0].1.len(), MAX_LINE_BYTES - 1);
        assert_eq!(seen[1].1, "étail");
    }

    #[test]
    fn cap_keeps_head_and_tail_with_one_marker_in_the_gap() {
        let text: String = (0..100).map(|i| format!("line {i:02}\n")).collect(); // 8 bytes a line
        let (seen, outcome) = collect(80, &[(Stream::Stdout, text.as_bytes()), (Stream::Stderr, b"err\n")]);
        assert_eq!(seen.len(), 101, "the callback sees every line");
        let marker = "[output truncated: 720 bytes in 90 lines of stdout were dropped here; \
                      at most 80 bytes are kept per stream]";
        let head: String = (0..5).map(|i| format!("line {i:02}\n")).collect();
        let tail: String = (95..100).map(|i| format!("line {i:02}\n")).collect();
        assert_eq!(outcome.stdout, format!("{head}{marker}\n{tail}"));
        assert_eq!(outcome.stdout_dropped_bytes, 720);
        assert_eq!(outcome.stderr_dropped_bytes, 0);
        assert_eq!(outcome.transcript, format!("{head}{marker}\n{tail}err\n"));
    }

    #[test]
    fn sdk_missing_is_seen_in_any_stream_even_past_the_cap() {
        let line = b"  No .NET SDKs were found.\n";
        let (_, outcome) = collect(0, &[(Stream::Stderr, line)]);
        assert!(outcome.sdk_missing);
        assert_eq!(outcome.stderr_dropped_bytes, line.len() as u64);
        let (_, outcome) = collect(1024, &[(Stream::Stdout, b"It was not possible to find any installed .NET SDKs\n")]);
        assert!(outcome.sdk_missing);
        let (_, outcome) = collect(1024, &[(Stream::Stdout, b"Build succeeded.\n")]);
        assert!(!outcome.sdk_missing);
    }

    #[test]
    #[cfg(unix)]
    fn path_search_skips_directories_non_executables_and_empty_entries() {
        use std::os::unix::fs::PermissionsExt;
        let root = std::env::temp_dir().join(format!("runner-resolve-{}", std::process::id()));
        let (plain, exec) = (root.join("plain"), root.join("exec"));
        std::fs::create_dir_all(plain.join("tool")).unwrap();
        std::fs::create_dir_all(&exec).unwrap();
        std::fs::write(plain.join("prog"), "").unwrap();
        std::fs::write(exec.join("prog"), "").unwrap();
        std::fs::set_permissions(exec.join("prog"), std::fs::Permissions::from_mode(0o755)).unwrap();
        let path_var = std::env::join_paths(["", plain.to_str().unwrap(), exec.to_str().unwrap()]).unwrap();

        assert_eq!(resolve_program(Path::new("prog"), Some(&path_var)), Ok(exec.join("prog")));
        assert!(resolve_program(Path::new("tool"), Some(&path_var)).unwrap_err().contains("not found"));
        assert!(resolve_program(Path::new("prog"), None).unwrap_err().contains("PATH is not set"));
        // A path is taken as is, executable or not.
        assert_eq!(resolve_program(&plain.join("prog"), None), Ok(plain.join("prog")));
        assert!(resolve_program(&plain.join("nope"), None).unwrap_err().contains("does not exist"));
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn exit_codes_of_each_end() {
        assert_eq!(RunEnd::Exited(3).exit_code(), 3);
        assert_eq!(RunEnd::Signalled(15).exit_code(), 143);
        assert_eq!(RunEnd::TimedOut.exit_code(), -1);
        assert!(RunEnd::Exited(0).is_success());
        assert!(!RunEnd::Cancelled.is_success());
    }
}
