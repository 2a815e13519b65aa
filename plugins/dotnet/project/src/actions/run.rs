//! Running the app: Run in the foreground or as a background session, Watch (always a session),
//! and the sessions' Logs, Stop and ListSessions (module `sessions`). A session holds the
//! project lock while it runs.
//!
//! Run is not declared to run dotnet (the kit's `command` and `exitCode` are those of a command
//! a call ran to its end): its result reports its command itself, the foreground run's or the
//! background session's, as Watch's does.

use std::{path::Path, time::SystemTime};

use dotnet_support::{
    diagnostics::Diagnostic,
    errors::code,
    exec::{self, ProgressKind},
    kit::{ActionResult, Call, Outcome, Reason, invalid, prose},
    params::Kind,
    redact::redacted_command_line,
    respond::{Failure, Reply},
};
use mcp_plugin_api::locks::LockGuard;
use schemars::JsonSchema;
use serde::Serialize;

use super::{Completed, Made, TARGET, app_args, build_options, completed, lock, push, push_flag, run_here};
use crate::{
    DotnetProject,
    sessions::{self, LogEntry, SessionInfo, Start, Status},
};

/// Longest application output kept in a foreground Run's structured content (its end is kept).
const MAX_RUN_OUTPUT: usize = 16_000;
/// The lines of a failed run's output its text shows (the end: where an exception is).
const CRASH_LINES: usize = 20;
/// The hint of a run whose application failed after it was built.
const CRASH_HINT: &str = "The application built, then failed: the end of its output (below) shows why (an unhandled \
     exception names the file and line it was thrown at). Fix the code there, or run it in a debugger to see its state.";

// Run: in the foreground or as a background session.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum RunResult {
    Foreground(RanInForeground),
    Background(Started),
}

// Run in the foreground: what a command reports, with the application's output.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RanInForeground {
    #[serde(flatten)]
    completed: Completed,
    /// The command that ran, redacted.
    command: String,
    exit_code: i32,
}

// Run and Watch in the background: the session started.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Started {
    #[serde(flatten)]
    session: SessionInfo,
    summary: String,
}

// Logs: the lines of a session.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Logs {
    session_id: String,
    status: Status,
    // The session's exit code, once it ended by itself.
    #[serde(skip_serializing_if = "Option::is_none")]
    exit_code: Option<i32>,
    lines: Vec<LogEntry>,
    returned_lines: i64,
    total_lines: i64,
    dropped_lines: i64,
}

// Stop: the session stopped (or already ended).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Stopped {
    session_id: String,
    status: Status,
    // The session's exit code, when it had ended by itself.
    #[serde(skip_serializing_if = "Option::is_none")]
    exit_code: Option<i32>,
    was_running: bool,
}

// ListSessions: every session.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SessionList {
    sessions: Vec<SessionInfo>,
}

/// The last `max` characters of `text`.
fn keep_end(text: &str, max: usize) -> String {
    match text.char_indices().rev().nth(max) {
        Some((cut, c)) => format!("[... earlier output omitted]\n{}", &text[cut + c.len_utf8()..]),
        None => text.to_owned(),
    }
}

/// Whether `target` names a file-based app (a C# file, SDK 10), not a project or solution.
pub(super) fn is_file_based_app(target: &str) -> bool {
    Path::new(target).extension().is_some_and(|ext| ext.eq_ignore_ascii_case("cs"))
}

/// `since`: an RFC 3339 time, or a duration back from now.
fn parse_since(text: &str) -> Option<SystemTime> {
    humantime::parse_rfc3339_weak(text)
        .ok()
        .or_else(|| humantime::parse_duration(text).ok().and_then(|back| SystemTime::now().checked_sub(back)))
}

/// Whether `startMode` asks for a background session.
fn start_mode_background(call: &Call<'_>) -> Result<bool, Failure> {
    match call.params().opt("startMode", Kind::Identifier)? {
        None => Ok(false),
        Some(mode) if mode.eq_ignore_ascii_case("Foreground") => Ok(false),
        Some(mode) if mode.eq_ignore_ascii_case("Background") => Ok(true),
        Some(mode) => {
            let message = format!("Invalid argument 'startMode': must be Foreground or Background (got '{mode}').");
            Err(invalid("startMode", Reason::Value, message).into())
        }
    }
}

/// `--file <app.cs>` for a file-based app, else `--project <target>`.
fn target_option(target: &str) -> String {
    // SDK 10 loads whatever `--project` names as a project file (MSB4025 for a .cs file); a
    // file-based app runs with `--file` (`dotnet watch --help` of 10.0.401 names it too).
    if is_file_based_app(target) { "--file" } else { "--project" }.to_owned()
}

/// Run: in the foreground until the app exits, or as a background session.
pub(super) async fn run_project(family: &DotnetProject, call: &Call<'_>) -> Outcome {
    let background = start_mode_background(call)?;
    let target = call.cli_target(TARGET).await?;
    let mut args = vec!["run".to_owned()];
    if let Some(target) = &target {
        args.extend([target_option(target), target.clone()]);
    }
    build_options(call, &mut args, &["configuration", "framework", "runtime"])?;
    push_flag(call, &mut args, "--no-build", "noBuild");
    push_flag(call, &mut args, "--no-restore", "noRestore");
    let app_args = app_args(call)?;
    if !app_args.is_empty() {
        args.push("--".to_owned());
        args.extend(app_args);
    }
    let guard = lock(call, target.as_deref().map(Path::new)).await?;
    if background {
        let session = start_session(family, call, "run", args, target, guard).await?;
        return Ok(started(session, RunResult::Background));
    }
    let label = target.clone().unwrap_or_else(|| "the project in the working directory".to_owned());
    let ran = run_here(call, args, format!("Running {label}"), ProgressKind::Build).await?;
    if !ran.succeeded() {
        return Err(crashed(Failure::from(ran.failure()), &ran.outcome.transcript));
    }
    let summary = format!("{label} ran and exited with code 0.");
    let made = Made { output: Some(keep_end(&ran.outcome.transcript, MAX_RUN_OUTPUT)), ..Made::default() };
    let result = completed(&ran, summary, target.as_deref(), made);
    let warnings = result.warnings.iter().map(Diagnostic::line).collect();
    let reply = Reply::new(result.summary.clone()).section("Warnings", warnings).output(ran.outcome.transcript.clone());
    let (command, exit_code) = (ran.command_line(), ran.exit_code());
    Ok(reply.result(RunResult::Foreground(RanInForeground { completed: result, command, exit_code })))
}

/// A run that failed without a build error: the application itself exited with another code than
/// 0, and the end of what it printed (an unhandled exception's type, message and frames, the
/// lines before it) is what the terminal shows of why; the model's text gets it after the error,
/// the structured content has it whole (`rawOutput`). Its hint points at the application's code,
/// not at the arguments and the SDK, which did their part.
fn crashed(mut failure: Failure, transcript: &str) -> Failure {
    let Some(error) = failure.error.errors.first_mut().filter(|error| error.code.starts_with(code::EXIT_PREFIX)) else {
        return failure;
    };
    error.hint = Some(CRASH_HINT.to_owned());
    let lines: Vec<&str> = transcript.lines().filter(|line| !line.trim().is_empty()).collect();
    let tail = lines[lines.len().saturating_sub(CRASH_LINES)..].iter().map(|line| line.trim_end().to_owned()).collect();
    failure.section("Output (its end)", tail)
}

/// Starts a background session once `dotnet --version` in the same folder has answered.
/// Without an SDK (or with a global.json pinning a missing one) the session's own process would
/// exit at once with code 145 after the call had already said "started"; `--version` resolves
/// the SDK exactly as the session's command will (from the working directory's global.json), so
/// the caller hears SDK_NOT_FOUND however slowly the machine answers.
async fn start_session(
    family: &DotnetProject,
    call: &Call<'_>,
    operation: &'static str,
    args: Vec<String>,
    target: Option<String>,
    guard: LockGuard,
) -> Result<Started, Failure> {
    let command = redacted_command_line("dotnet", &args);
    let target = target.unwrap_or_else(|| call.cwd().display().to_string());
    let start = Start {
        operation,
        invocation: exec::invocation(call.settings(), args, call.cwd()),
        command,
        target: target.clone(),
        working_directory: call.cwd().to_owned(),
        lock: guard,
    };
    let probe =
        run_here(call, vec!["--version".to_owned()], "Resolving the SDK".to_owned(), ProgressKind::Build).await?;
    if !probe.succeeded() {
        return Err(Failure::from(probe.failure()));
    }
    let session = family.sessions.start(start)?;
    let summary = format!(
        "Started a background {operation} session for {target}: sessionId {}, pid {}. Read its output with action \
         Logs and that sessionId; end it with action Stop.",
        session.id,
        session.pid()
    );
    Ok(Started { session: session.describe(), summary })
}

/// The reply of a started session, with `result` made of it.
fn started<T: ActionResult>(started: Started, result: impl FnOnce(Started) -> T) -> Reply {
    Reply::new(started.summary.clone()).result(result(started)).identifier("sessionId")
}

/// Watch: always a background session.
pub(super) async fn watch(family: &DotnetProject, call: &Call<'_>) -> Outcome {
    let params = call.params();
    if params.opt("startMode", Kind::Identifier)?.is_some_and(|mode| mode.eq_ignore_ascii_case("Foreground")) {
        let message = "Watch runs until it is stopped, so it always starts a background session: omit startMode or pass Background, then read its output with Logs and end it with Stop.";
        return Err(invalid("startMode", Reason::Value, message).into());
    }
    start_mode_background(call)?;
    let sub = params.opt("watchAction", Kind::Identifier)?.unwrap_or("run").to_ascii_lowercase();
    if !matches!(sub.as_str(), "run" | "test" | "build") {
        let message = format!("Invalid argument 'watchAction': must be run, test or build (got '{sub}').");
        return Err(invalid("watchAction", Reason::Value, message).into());
    }
    let only = |name: &str, wanted: &str| -> Result<(), Failure> {
        if params.raw(name).is_some() && sub != wanted {
            let message = format!("Invalid argument '{name}': applies to watchAction '{wanted}' only.");
            Err(invalid(name, Reason::NotApplicable, message).into())
        } else {
            Ok(())
        }
    };
    only("noHotReload", "run")?;
    only("appArgs", "run")?;
    only("filter", "test")?;
    let target = call.cli_target(TARGET).await?;
    let mut args = vec!["watch".to_owned()];
    if let Some(target) = &target {
        args.extend([target_option(target), target.clone()]);
    }
    push_flag(call, &mut args, "--no-hot-reload", "noHotReload");
    args.push(sub);
    build_options(call, &mut args, &["configuration", "framework"])?;
    push(call, &mut args, "--filter", "filter", Kind::Text)?;
    let app_args = app_args(call)?;
    if !app_args.is_empty() {
        args.push("--".to_owned());
        args.extend(app_args);
    }
    let guard = lock(call, target.as_deref().map(Path::new)).await?;
    let session = start_session(family, call, "watch", args, target, guard).await?;
    Ok(started(session, |started| started))
}

/// The session `sessionId` names.
fn session(family: &DotnetProject, call: &Call<'_>) -> Result<std::sync::Arc<sessions::Session>, Failure> {
    let id = call.params().req("sessionId", Kind::Identifier)?;
    Ok(family.sessions.get(id)?)
}

/// Logs: the last lines of a session, optionally since a time.
pub(super) fn logs(family: &DotnetProject, call: &Call<'_>) -> Outcome {
    let session = session(family, call)?;
    let tail = call.params().opt_u64("tailLines").unwrap_or(200).clamp(1, sessions::MAX_LINES as u64) as usize;
    let since = match call.params().opt("since", Kind::Text)? {
        None => None,
        Some(text) => Some(parse_since(text).ok_or_else(|| {
            let message = format!(
                "Invalid argument 'since': must be an RFC 3339 time (2026-01-15T10:00:00Z) or a duration such as 30s, 5m or 1h (got '{text}')."
            );
            invalid("since", Reason::Value, message)
        })?),
    };
    let (lines, text, total, dropped) = session.logs(tail, since);
    let (status, exit_code) = session.status();
    let ended = exit_code.map(|code| format!(", exit code {code}")).unwrap_or_default();
    let summary = format!(
        "Session {} ({} of {}, pid {}) is {}{ended}: {} shown of {total} kept{}.",
        session.id,
        session.operation,
        session.target,
        session.pid(),
        status.as_str(),
        prose::count(lines.len(), "line"),
        if dropped > 0 {
            format!(", {} dropped", prose::count_of(dropped as usize, "older line", "older lines"))
        } else {
            String::new()
        }
    );
    let logs = Logs {
        session_id: session.id.clone(),
        status,
        exit_code,
        returned_lines: lines.len() as i64,
        total_lines: total as i64,
        dropped_lines: dropped as i64,
        lines,
    };
    Ok(Reply::new(summary).output(text).result(logs).identifier("sessionId"))
}

/// Stop: kills the session's whole process tree.
pub(super) async fn stop(family: &DotnetProject, call: &Call<'_>) -> Outcome {
    let session = session(family, call)?;
    let stopping = std::sync::Arc::clone(&session);
    let was_running = tokio::task::spawn_blocking(move || stopping.stop()).await.unwrap_or(false);
    let (status, exit_code) = session.status();
    let summary = if was_running {
        format!(
            "Stopped session {} ({} of {}); its whole process tree was killed.",
            session.id, session.operation, session.target
        )
    } else {
        format!("Session {} had already ended ({}); its logs are still available.", session.id, status.as_str())
    };
    let stopped = Stopped { session_id: session.id.clone(), status, exit_code, was_running };
    Ok(Reply::new(summary).result(stopped).identifier("sessionId"))
}

/// ListSessions: every session, running or ended.
pub(super) fn list_sessions(family: &DotnetProject) -> Reply {
    let sessions = family.sessions.list();
    let lines = sessions
        .iter()
        .map(|session| {
            let (status, _) = session.status();
            format!(
                "{} {} {} (pid {}): {}",
                session.id,
                session.operation,
                session.target,
                session.pid(),
                status.as_str()
            )
        })
        .collect();
    let running = sessions.iter().filter(|session| session.status().0 == Status::Running).count();
    let summary = format!("{}, {running} running.", prose::count(sessions.len(), "session"));
    let described = sessions.iter().map(|session| session.describe()).collect();
    Reply::new(summary).section("Sessions", lines).result(SessionList { sessions: described }).identifier("sessionId")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn since_takes_times_and_durations() {
        assert!(parse_since("2026-01-15T10:00:00Z").is_some());
        assert!(parse_since("2026-01-15T10:00:00.250Z").is_some());
        let five_minutes_ago = parse_since("5m").unwrap();
        let elapsed = SystemTime::now().duration_since(five_minutes_ago).unwrap();
        assert!(elapsed.as_secs() >= 299 && elapsed.as_secs() < 400, "{elapsed:?}");
        assert!(parse_since("yesterday").is_none());
    }
}
