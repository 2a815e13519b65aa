//! Background sessions: `dotnet run` and `dotnet watch` started with `startMode: Background`,
//! their logs, and stopping them.
//!
//! A session is a process group started with [`Invocation::spawn`]: it runs until it exits or is
//! stopped, whatever happens to the call that started it. Its output is redacted line by line
//! ([`LineRedactor`], one per stream, so private-key blocks split over lines are caught) and kept
//! in a ring buffer of [`MAX_LINES`] lines of at most [`MAX_LINE_CHARS`] characters each, also
//! after the process has exited, so the output of a crashed app can still be read. At most
//! [`MAX_RUNNING`] sessions run at once; of the ended ones, the [`MAX_ENDED`] most recent are
//! kept. Each session holds the lock on its target while its process runs (a running app or a
//! watch that rebuilds on change conflicts with a build of the same project); the lock is
//! released when the process ends or is stopped.
//!
//! Dropping [`Sessions`] (the plugin being dropped when the host shuts down) kills every session's
//! whole process group: nothing is left running.

use std::{
    collections::VecDeque,
    path::PathBuf,
    sync::{
        Arc, Mutex, MutexGuard,
        atomic::{AtomicU64, Ordering},
    },
    time::{Duration, SystemTime},
};

use dotnet_support::{
    errors::{ErrorResponse, ErrorResult},
    redact::LineRedactor,
    runner::{Invocation, RunEnd, Spawned, Stream},
};
use mcp_plugin_api::locks::LockGuard;
use schemars::JsonSchema;
use serde::Serialize;

/// Most lines kept per session; older ones are dropped (and counted).
pub const MAX_LINES: usize = 2000;
/// Longest line kept, in characters; the rest is replaced by a marker.
pub const MAX_LINE_CHARS: usize = 4000;
/// Most sessions running at once.
pub const MAX_RUNNING: usize = 8;
/// Most ended sessions kept for their logs.
pub const MAX_ENDED: usize = 16;
/// How long Stop waits for the killed process to be reaped.
const STOP_WAIT: Duration = Duration::from_secs(5);

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// RFC 3339 UTC with milliseconds.
pub fn timestamp(at: SystemTime) -> String {
    humantime::format_rfc3339_millis(at).to_string()
}

/// One kept line of output.
#[derive(Debug, Clone)]
struct LogLine {
    seq: u64,
    at: SystemTime,
    stream: Stream,
    text: String,
}

/// The redacted output of a session, bounded.
#[derive(Debug, Default)]
struct LogBuffer {
    lines: VecDeque<LogLine>,
    next_seq: u64,
    dropped: u64,
    redactors: [LineRedactor; 2],
}

impl LogBuffer {
    fn push(&mut self, stream: Stream, line: &str) {
        let redactor = &mut self.redactors[usize::from(stream == Stream::Stderr)];
        let Some(text) = redactor.line(line) else { return };
        let text = match text.char_indices().nth(MAX_LINE_CHARS) {
            Some((cut, _)) => format!("{} [line truncated: {} characters]", &text[..cut], text.chars().count()),
            None => text.into_owned(),
        };
        self.lines.push_back(LogLine { seq: self.next_seq, at: SystemTime::now(), stream, text });
        self.next_seq += 1;
        if self.lines.len() > MAX_LINES {
            self.lines.pop_front();
            self.dropped += 1;
        }
    }
}

/// How a session stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Its process runs.
    Running,
    /// Its process exited by itself.
    Exited,
    /// It was stopped.
    Stopped,
}

impl Serialize for Status {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

dotnet_support::string_enum_schema!(Status, "SessionStatus", ["running", "exited", "stopped"]);

// A session as the actions report it: Run and Watch in the background, ListSessions.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SessionInfo {
    session_id: String,
    #[schemars(extend("enum" = ["run", "watch"]))]
    operation: String,
    pid: i64,
    // The command line, redacted.
    command: String,
    // What it runs: the project, or the working directory.
    target: String,
    working_directory: String,
    status: Status,
    // Once it ended by itself.
    #[serde(skip_serializing_if = "Option::is_none")]
    exit_code: Option<i32>,
    // RFC 3339, UTC.
    started_at: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    ended_at: Option<String>,
    // Lines of output so far, dropped ones included.
    line_count: i64,
}

// One line of a session's output.
#[derive(Debug, Serialize, JsonSchema)]
pub struct LogEntry {
    seq: i64,
    // RFC 3339, UTC.
    at: String,
    #[schemars(extend("enum" = ["stdout", "stderr"]))]
    stream: String,
    text: String,
}

impl Status {
    /// The name in structured content.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Running => "running",
            Status::Exited => "exited",
            Status::Stopped => "stopped",
        }
    }
}

/// One background session.
pub struct Session {
    /// Its id.
    pub id: String,
    /// `run` or `watch`.
    pub operation: &'static str,
    /// The command line, redacted.
    pub command: String,
    /// What it runs (the project, or the working directory).
    pub target: String,
    /// Where it runs.
    pub working_directory: PathBuf,
    started: SystemTime,
    ended: Arc<Mutex<Option<SystemTime>>>,
    log: Arc<Mutex<LogBuffer>>,
    process: Spawned,
}

impl Session {
    /// The process id.
    pub fn pid(&self) -> u32 {
        self.process.pid()
    }

    /// How it stands, and its exit code once ended.
    pub fn status(&self) -> (Status, Option<i32>) {
        match self.process.end() {
            None => (Status::Running, None),
            Some(RunEnd::Cancelled) => (Status::Stopped, None),
            Some(end) => (Status::Exited, Some(end.exit_code())),
        }
    }

    /// The session as listed: id, operation, pid, command, target, folder, status, times.
    pub fn describe(&self) -> SessionInfo {
        let (status, exit_code) = self.status();
        SessionInfo {
            session_id: self.id.clone(),
            operation: self.operation.to_owned(),
            pid: i64::from(self.pid()),
            command: self.command.clone(),
            target: self.target.clone(),
            working_directory: self.working_directory.display().to_string(),
            status,
            exit_code,
            started_at: timestamp(self.started),
            ended_at: lock(&self.ended).map(timestamp),
            line_count: lock(&self.log).next_seq as i64,
        }
    }

    /// The kept lines at or after `since`, the last `tail` of them: structured entries and the
    /// plain text (`[stderr] ` marks stderr lines).
    pub fn logs(&self, tail: usize, since: Option<SystemTime>) -> (Vec<LogEntry>, String, u64, u64) {
        let log = lock(&self.log);
        let selected: Vec<&LogLine> =
            log.lines.iter().filter(|line| since.is_none_or(|since| line.at >= since)).collect();
        let from = selected.len().saturating_sub(tail);
        let mut text = String::new();
        let entries = selected[from..]
            .iter()
            .map(|line| {
                if line.stream == Stream::Stderr {
                    text.push_str("[stderr] ");
                }
                text.push_str(&line.text);
                text.push('\n');
                LogEntry {
                    seq: line.seq as i64,
                    at: timestamp(line.at),
                    stream: line.stream.as_str().to_owned(),
                    text: line.text.clone(),
                }
            })
            .collect();
        (entries, text, log.next_seq, log.dropped)
    }

    /// Kills the session's process group and waits (up to 5 s) for it to be reaped. Returns
    /// whether it was running.
    pub fn stop(&self) -> bool {
        let running = self.process.end().is_none();
        self.process.kill();
        self.process.wait(STOP_WAIT);
        running
    }
}

/// A session to start.
pub struct Start {
    /// `run` or `watch`.
    pub operation: &'static str,
    /// The dotnet invocation.
    pub invocation: Invocation,
    /// The command line to show, redacted.
    pub command: String,
    /// What it runs.
    pub target: String,
    /// Where it runs.
    pub working_directory: PathBuf,
    /// The lock on the target, held while the process runs.
    pub lock: LockGuard,
}

/// Every session of the plugin.
#[derive(Default)]
pub struct Sessions {
    sessions: Mutex<Vec<Arc<Session>>>,
    counter: AtomicU64,
}

impl Sessions {
    /// Starts a session; the error is the contract's (dotnet missing, could not start, too many
    /// sessions running).
    pub fn start(&self, start: Start) -> Result<Arc<Session>, ErrorResponse> {
        let mut sessions = lock(&self.sessions);
        let running = sessions.iter().filter(|session| session.process.end().is_none()).count();
        if running >= MAX_RUNNING {
            return Err(ErrorResult::capability_not_available(
                "another background session",
                &format!("{running} sessions are running, the most this server keeps at once"),
                vec![
                    "Stop a session you no longer need (action Stop with its sessionId).".to_owned(),
                    "List the sessions with action ListSessions.".to_owned(),
                ],
            )
            .into());
        }
        let log = Arc::new(Mutex::new(LogBuffer::default()));
        let ended = Arc::new(Mutex::new(None));
        let held = Mutex::new(Some(start.lock));
        let on_line = {
            let log = Arc::clone(&log);
            move |stream: Stream, line: &str| lock(&log).push(stream, line)
        };
        let on_end = {
            let ended = Arc::clone(&ended);
            move |_: &RunEnd| {
                *lock(&ended) = Some(SystemTime::now());
                // The target is free again once the process has ended.
                lock(&held).take();
            }
        };
        let process = start.invocation.spawn(on_line, on_end).map_err(|end| not_started(&end))?;
        let session = Arc::new(Session {
            id: self.new_id(),
            operation: start.operation,
            command: start.command,
            target: start.target,
            working_directory: start.working_directory,
            started: SystemTime::now(),
            ended,
            log,
            process,
        });
        sessions.push(Arc::clone(&session));
        // Keep the most recent ended sessions only.
        let ended_count = sessions.iter().filter(|session| session.process.end().is_some()).count();
        let mut excess = ended_count.saturating_sub(MAX_ENDED);
        sessions.retain(|session| {
            let evict = excess > 0 && session.process.end().is_some();
            excess -= usize::from(evict);
            !evict
        });
        Ok(session)
    }

    /// The session with `id`, or the INVALID_PARAMS error naming the known ones.
    pub fn get(&self, id: &str) -> Result<Arc<Session>, ErrorResponse> {
        let sessions = lock(&self.sessions);
        if let Some(session) = sessions.iter().find(|session| session.id == id) {
            return Ok(Arc::clone(session));
        }
        let known: Vec<&str> = sessions.iter().map(|session| session.id.as_str()).collect();
        let known =
            if known.is_empty() { "there are no sessions".to_owned() } else { format!("known: {}", known.join(", ")) };
        Err(ErrorResult::invalid_params(
            "sessionId",
            "not found",
            &format!(
                "Invalid argument 'sessionId': no session '{id}' ({known}). Ended sessions are kept only for a while."
            ),
        )
        .into())
    }

    /// Every session, oldest first.
    pub fn list(&self) -> Vec<Arc<Session>> {
        lock(&self.sessions).clone()
    }

    /// A fresh session id: 32 hex digits in the 8-4-4-4-12 layout, from the process's random
    /// hash keys, the time and a counter.
    fn new_id(&self) -> String {
        use std::hash::{BuildHasher, Hasher};
        let count = self.counter.fetch_add(1, Ordering::Relaxed);
        let nanos = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).map_or(0, |since| since.as_nanos());
        let mut halves = [0u64; 2];
        for (index, half) in halves.iter_mut().enumerate() {
            let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
            hasher.write_u64(count);
            hasher.write_u128(nanos);
            hasher.write_usize(index);
            *half = hasher.finish();
        }
        let hex = format!("{:016x}{:016x}", halves[0], halves[1]);
        format!("{}-{}-{}-{}-{}", &hex[..8], &hex[8..12], &hex[12..16], &hex[16..20], &hex[20..])
    }
}

/// The contract's error for a session whose process could not start.
fn not_started(end: &RunEnd) -> ErrorResponse {
    match end {
        RunEnd::ProgramNotFound(where_looked) => dotnet_support::exec::dotnet_missing(where_looked).into(),
        other => {
            let message = match other {
                RunEnd::FailedToStart { message, .. } => message.clone(),
                other => format!("{other:?}"),
            };
            ErrorResult::new("EXIT_-1", &format!("dotnet could not be started: {message}"))
                .with_hint("Check that the working directory exists and that dotnet is executable.")
                .into()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_is_redacted_bounded_and_ordered() {
        let mut log = LogBuffer::default();
        log.push(Stream::Stdout, "Password=hunter2x");
        log.push(Stream::Stderr, "-----BEGIN PRIVATE KEY-----");
        log.push(Stream::Stderr, "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC");
        log.push(Stream::Stdout, "between");
        log.push(Stream::Stderr, "-----END PRIVATE KEY-----");
        log.push(Stream::Stdout, &"x".repeat(MAX_LINE_CHARS + 10));
        let texts: Vec<&str> = log.lines.iter().map(|line| line.text.as_str()).collect();
        assert_eq!(texts[0], "Password=[REDACTED]");
        assert_eq!(texts[1], "-----BEGIN PRIVATE KEY-----\n[REDACTED]");
        assert_eq!(texts[2], "between");
        assert_eq!(texts[3], "-----END PRIVATE KEY-----");
        assert!(texts[4].ends_with(&format!("[line truncated: {} characters]", MAX_LINE_CHARS + 10)));
        for index in 0..MAX_LINES {
            log.push(Stream::Stdout, &format!("line {index}"));
        }
        assert_eq!(log.lines.len(), MAX_LINES);
        assert_eq!(log.dropped, 5);
        assert_eq!(log.lines.back().unwrap().seq, log.next_seq - 1);
    }

    #[test]
    fn ids_are_unique_and_shaped_like_guids() {
        let sessions = Sessions::default();
        let (a, b) = (sessions.new_id(), sessions.new_id());
        assert_ne!(a, b);
        assert_eq!(a.len(), 36);
        assert_eq!(a.matches('-').count(), 4);
    }
}
