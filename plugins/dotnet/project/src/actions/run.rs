//! Running the app: Run in the foreground or as a background session, Watch (always a session),
//! and the sessions' Logs, Stop and ListSessions (module `sessions`). A session holds the
//! project lock while it runs.

use std::{path::Path, time::SystemTime};

use dotnet_support::{
    exec::{self, ProgressKind},
    kit::{Outcome, Shape},
    locking::lock_info_schema,
    params::Kind,
    respond::{Failure, Reply},
};
use mcp_plugin_api::locks::LockGuard;
use serde_json::{Value, json};

use super::{Act, command_line, invalid};
use crate::sessions::{self, Start};

/// Longest application output kept in a foreground Run's structured content (its end is kept).
const MAX_RUN_OUTPUT: usize = 16_000;

fn integer() -> Value {
    json!({ "type": "integer" })
}

fn session_fields() -> Value {
    json!({
        "sessionId": { "type": "string" },
        "operation": { "enum": ["run", "watch"] },
        "pid": integer(),
        "command": { "type": "string" },
        "target": { "type": "string" },
        "workingDirectory": { "type": "string" },
        "status": { "enum": ["running", "exited", "stopped"] },
        "exitCode": integer(),
        "startedAt": { "type": "string" },
        "endedAt": { "type": "string" },
        "lineCount": integer()
    })
}

/// Run and Watch in the background: the session started.
pub fn started_shape() -> Shape {
    let mut properties = session_fields();
    properties["lockInfo"] = lock_info_schema();
    properties["summary"] = json!({ "type": "string" });
    Shape::new(properties, &["sessionId", "operation", "pid", "status", "command", "target", "startedAt", "lockInfo"])
}

/// Logs: the lines of a session.
pub fn logs_shape() -> Shape {
    Shape::new(
        json!({
            "sessionId": { "type": "string" },
            "status": { "enum": ["running", "exited", "stopped"] },
            "exitCode": integer(),
            "lines": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "seq": integer(),
                        "at": { "type": "string" },
                        "stream": { "enum": ["stdout", "stderr"] },
                        "text": { "type": "string" }
                    },
                    "required": ["seq", "at", "stream", "text"]
                }
            },
            "returnedLines": integer(),
            "totalLines": integer(),
            "droppedLines": integer()
        }),
        &["sessionId", "status", "lines", "returnedLines", "totalLines", "droppedLines"],
    )
}

/// Stop: the session stopped (or already ended).
pub fn stop_shape() -> Shape {
    Shape::new(
        json!({
            "sessionId": { "type": "string" },
            "status": { "enum": ["running", "exited", "stopped"] },
            "exitCode": integer(),
            "wasRunning": { "type": "boolean" }
        }),
        &["sessionId", "status", "wasRunning"],
    )
}

/// ListSessions: every session.
pub fn list_sessions_shape() -> Shape {
    Shape::new(
        json!({ "sessions": { "type": "array", "items": {
            "type": "object",
            "properties": session_fields(),
            "required": ["sessionId", "operation", "pid", "status", "command", "target", "startedAt"]
        } } }),
        &["sessions"],
    )
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

impl Act<'_, '_> {
    fn start_mode_background(&self) -> Result<bool, Failure> {
        match self.opt("startMode", Kind::Identifier)? {
            None => Ok(false),
            Some(mode) if mode.eq_ignore_ascii_case("Foreground") => Ok(false),
            Some(mode) if mode.eq_ignore_ascii_case("Background") => Ok(true),
            Some(mode) => Err(invalid(
                "startMode",
                "invalid value",
                &format!("Invalid argument 'startMode': must be Foreground or Background (got '{mode}')."),
            )),
        }
    }

    pub(super) async fn run_project(&self) -> Outcome {
        let background = self.start_mode_background()?;
        let target = self.cli_target().await?;
        let mut args = vec!["run".to_owned()];
        if let Some(target) = &target {
            // SDK 10 loads whatever `--project` names as a project file (MSB4025 for a .cs file);
            // a file-based app runs with `--file`.
            let option = if is_file_based_app(target) { "--file" } else { "--project" };
            args.extend([option.to_owned(), target.clone()]);
        }
        self.build_options(&mut args, &["configuration", "framework", "runtime"])?;
        self.push_flag(&mut args, "--no-build", "noBuild");
        self.push_flag(&mut args, "--no-restore", "noRestore");
        let app_args = self.app_args()?;
        if !app_args.is_empty() {
            args.push("--".to_owned());
            args.extend(app_args);
        }
        let guard = self.lock(target.as_deref().map(Path::new)).await?;
        if background {
            return self.start_session("run", args, target, guard).await;
        }
        let label = target.clone().unwrap_or_else(|| "the project in the working directory".to_owned());
        let ran = self.run(args.clone(), format!("Running {label}"), ProgressKind::Build).await?;
        if !ran.succeeded() {
            return Err(Failure::from(ran.failure()));
        }
        let summary = format!("{label} ran and exited with code 0.");
        let mut structured = self.command_result(&ran, &args, &summary);
        if let Some(target) = &target {
            structured.insert("project".into(), json!(target));
        }
        structured.insert("output".into(), json!(keep_end(&ran.outcome.transcript, MAX_RUN_OUTPUT)));
        Ok(self.command_reply(&ran, summary, structured))
    }

    /// Starts a background session once `dotnet --version` in the same folder has answered.
    /// Without an SDK (or with a global.json pinning a missing one) the session's own process
    /// would exit at once with code 145 after the call had already said "started"; `--version`
    /// resolves the SDK exactly as the session's command will (from the working directory's
    /// global.json), so the caller hears SDK_NOT_FOUND however slowly the machine answers.
    async fn start_session(
        &self,
        operation: &'static str,
        args: Vec<String>,
        target: Option<String>,
        guard: LockGuard,
    ) -> Outcome {
        let command = command_line(&args);
        let target = target.unwrap_or_else(|| self.cwd.display().to_string());
        let start = Start {
            operation,
            invocation: exec::invocation(self.call.settings(), args, &self.cwd),
            command,
            target: target.clone(),
            working_directory: self.cwd.clone(),
            lock: guard,
        };
        let probe = self.run(vec!["--version".to_owned()], "Resolving the SDK".to_owned(), ProgressKind::Build).await?;
        if !probe.succeeded() {
            return Err(Failure::from(probe.failure()));
        }
        let session = self.family.sessions.start(start)?;
        let summary = format!(
            "Started a background {operation} session for {target}: sessionId {}, pid {}. Read its output with action \
             Logs and that sessionId; end it with action Stop.",
            session.id,
            session.pid()
        );
        let mut structured = session.describe();
        structured["summary"] = json!(summary);
        Ok(Reply::new(summary).structured(structured).identifier("sessionId"))
    }

    pub(super) async fn watch(&self) -> Outcome {
        if self.opt("startMode", Kind::Identifier)?.is_some_and(|mode| mode.eq_ignore_ascii_case("Foreground")) {
            return Err(invalid(
                "startMode",
                "invalid value",
                "Watch runs until it is stopped, so it always starts a background session: omit startMode or pass Background, then read its output with Logs and end it with Stop.",
            ));
        }
        self.start_mode_background()?;
        let sub = self.opt("watchAction", Kind::Identifier)?.unwrap_or("run").to_ascii_lowercase();
        if !matches!(sub.as_str(), "run" | "test" | "build") {
            return Err(invalid(
                "watchAction",
                "invalid value",
                &format!("Invalid argument 'watchAction': must be run, test or build (got '{sub}')."),
            ));
        }
        let only = |name: &str, wanted: &str| -> Result<(), Failure> {
            if self.params.raw(name).is_some() && sub != wanted {
                Err(invalid(
                    name,
                    "not applicable",
                    &format!("Invalid argument '{name}': applies to watchAction '{wanted}' only."),
                ))
            } else {
                Ok(())
            }
        };
        only("noHotReload", "run")?;
        only("appArgs", "run")?;
        only("filter", "test")?;
        let target = self.cli_target().await?;
        let mut args = vec!["watch".to_owned()];
        if let Some(target) = &target {
            // `dotnet watch --help` (10.0.401) names `--file <FILE_PATH>` for a file-based app.
            let option = if is_file_based_app(target) { "--file" } else { "--project" };
            args.extend([option.to_owned(), target.clone()]);
        }
        self.push_flag(&mut args, "--no-hot-reload", "noHotReload");
        args.push(sub);
        self.build_options(&mut args, &["configuration", "framework"])?;
        self.push(&mut args, "--filter", "filter", Kind::Text)?;
        let app_args = self.app_args()?;
        if !app_args.is_empty() {
            args.push("--".to_owned());
            args.extend(app_args);
        }
        let guard = self.lock(target.as_deref().map(Path::new)).await?;
        self.start_session("watch", args, target, guard).await
    }

    // --- sessions -------------------------------------------------------------------------------

    fn session(&self) -> Result<std::sync::Arc<sessions::Session>, Failure> {
        let id = self.params.req("sessionId", Kind::Identifier)?;
        Ok(self.family.sessions.get(id)?)
    }

    pub(super) fn logs(&self) -> Outcome {
        let session = self.session()?;
        let tail = self.params.opt_u64("tailLines").unwrap_or(200).clamp(1, sessions::MAX_LINES as u64) as usize;
        let since = match self.opt("since", Kind::Text)? {
            None => None,
            Some(text) => Some(parse_since(text).ok_or_else(|| {
                invalid(
                    "since",
                    "invalid value",
                    &format!("Invalid argument 'since': must be an RFC 3339 time (2026-01-15T10:00:00Z) or a duration such as 30s, 5m or 1h (got '{text}')."),
                )
            })?),
        };
        let (lines, text, total, dropped) = session.logs(tail, since);
        let (status, exit_code) = session.status();
        let ended = exit_code.map(|code| format!(", exit code {code}")).unwrap_or_default();
        let summary = format!(
            "Session {} ({} of {}, pid {}) is {}{ended}: {} line(s) shown of {total} kept{}.",
            session.id,
            session.operation,
            session.target,
            session.pid(),
            status.as_str(),
            lines.len(),
            if dropped > 0 { format!(", {dropped} older line(s) dropped") } else { String::new() }
        );
        let mut structured = json!({
            "sessionId": session.id,
            "status": status.as_str(),
            "returnedLines": lines.len(),
            "totalLines": total,
            "droppedLines": dropped,
            "lines": lines,
        });
        if let Some(code) = exit_code {
            structured["exitCode"] = json!(code);
        }
        Ok(Reply::new(summary).output(text).structured(structured).identifier("sessionId"))
    }

    pub(super) async fn stop(&self) -> Outcome {
        let session = self.session()?;
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
        let mut structured = json!({
            "sessionId": session.id,
            "status": status.as_str(),
            "wasRunning": was_running,
        });
        if let Some(code) = exit_code {
            structured["exitCode"] = json!(code);
        }
        Ok(Reply::new(summary).structured(structured).identifier("sessionId"))
    }

    pub(super) fn list_sessions(&self) -> Reply {
        let sessions = self.family.sessions.list();
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
        let running = sessions.iter().filter(|session| session.status().0 == sessions::Status::Running).count();
        let summary = format!("{} session(s), {running} running.", sessions.len());
        let described: Vec<Value> = sessions.iter().map(|session| session.describe()).collect();
        Reply::new(summary)
            .section("Sessions", lines)
            .structured(json!({ "sessions": described }))
            .identifier("sessionId")
    }
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
