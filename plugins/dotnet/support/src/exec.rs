//! Running one dotnet command on behalf of a tool call: the configured
//! executable, the call's cancellation, progress read from the output as it
//! arrives, redaction, and the contract's errors for everything that is not
//! a normal exit (no dotnet, no SDK, cancelled, timed out, not started).

use std::path::{Path, PathBuf};

use mcp_plugin_api::CallContext;

use crate::{
    errors::{ErrorResponse, ErrorResult},
    runner::{Invocation, RunEnd, RunOutcome, Stream},
    settings::DotnetSettings,
};

/// What the output of a command says about its progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProgressKind {
    /// Report nothing but the start.
    None,
    /// Restore: one step per project restored.
    Restore,
    /// Build (and publish, pack): one step per project restored or built.
    Build,
    /// Test: builds, then one step per test assembly and per reported test.
    Test,
    /// Installs (packages, tools, workloads, template packs): one step per line of output.
    Lines,
}

/// Reads milestones from output lines and reports them as progress.
#[derive(Debug)]
pub struct ProgressReader {
    kind: ProgressKind,
    steps: u64,
}

impl ProgressReader {
    /// A reader for `kind` of output.
    pub fn new(kind: ProgressKind) -> Self {
        Self { kind, steps: 0 }
    }

    /// The message for one line, when it marks a step.
    pub fn step(&mut self, line: &str) -> Option<String> {
        let trimmed = line.trim();
        let milestone = match self.kind {
            ProgressKind::None => None,
            ProgressKind::Lines => (!trimmed.is_empty()).then(|| trimmed.to_owned()),
            ProgressKind::Restore | ProgressKind::Build | ProgressKind::Test => {
                restored(trimmed).or_else(|| built(trimmed)).or_else(|| match self.kind {
                    ProgressKind::Test => tested(trimmed),
                    _ => None,
                })
            }
        }?;
        self.steps += 1;
        Some(milestone)
    }

    /// How many steps have been reported.
    pub fn steps(&self) -> u64 {
        self.steps
    }
}

/// `Restored /src/App/App.csproj (in 1.2 sec).`
fn restored(line: &str) -> Option<String> {
    let project = line.strip_prefix("Restored ")?;
    let project = project.split(" (in").next().unwrap_or(project).trim_end_matches('.');
    Some(format!("restored {}", file_name(project)))
}

/// `App -> /src/App/bin/Debug/net10.0/App.dll`
fn built(line: &str) -> Option<String> {
    let (project, output) = line.split_once(" -> ")?;
    (!project.contains(' ') && !project.is_empty()).then(|| format!("built {project} ({})", file_name(output)))
}

/// VSTest and Microsoft Testing Platform summaries and per-test lines.
fn tested(line: &str) -> Option<String> {
    if let Some(rest) = line.strip_prefix("Passed!").or_else(|| line.strip_prefix("Failed!")) {
        let assembly = rest.rsplit(" - ").next().unwrap_or(rest).trim();
        let verdict = if line.starts_with("Passed!") { "passed" } else { "failed" };
        return Some(format!("test assembly {verdict}: {assembly}"));
    }
    for (prefix, verdict) in
        [("Passed ", "passed"), ("Failed ", "failed"), ("passed ", "passed"), ("failed ", "failed")]
    {
        if let Some(name) = line.strip_prefix(prefix)
            && !name.starts_with('!')
            && !name.contains(':')
        {
            let name = name.split(" [").next().unwrap_or(name).split(" (").next().unwrap_or(name);
            return Some(format!("{verdict} {name}"));
        }
    }
    line.starts_with("Test run summary:").then(|| line.to_owned())
}

fn file_name(path: &str) -> &str {
    Path::new(path.trim()).file_name().and_then(|name| name.to_str()).unwrap_or(path)
}

/// A dotnet command to run for a call.
#[derive(Debug, Clone)]
pub struct Command {
    args: Vec<String>,
    cwd: PathBuf,
    progress: ProgressKind,
    description: String,
}

impl Command {
    /// `dotnet ARGS` in `cwd`; `description` says what it does, for the first progress message.
    pub fn new(args: Vec<String>, cwd: &Path, description: impl Into<String>) -> Self {
        Self { args, cwd: cwd.to_owned(), progress: ProgressKind::None, description: description.into() }
    }

    /// Reads progress of `kind` from the output.
    pub fn progress(mut self, kind: ProgressKind) -> Self {
        self.progress = kind;
        self
    }

    /// The arguments.
    pub fn args(&self) -> &[String] {
        &self.args
    }
}

/// A command that ran to its end (whatever its exit code), with redacted output.
#[derive(Debug, Clone)]
pub struct Ran {
    /// The redacted outcome.
    pub outcome: RunOutcome,
    /// `dotnet` and its arguments, as run.
    pub argv: Vec<String>,
}

impl Ran {
    /// The exit code.
    pub fn exit_code(&self) -> i32 {
        self.outcome.end.exit_code()
    }

    /// Whether it exited with 0.
    pub fn succeeded(&self) -> bool {
        self.outcome.end.is_success()
    }

    /// The contract's error for a non-zero exit, classified from its diagnostics.
    pub fn failure(&self) -> ErrorResponse {
        ErrorResponse::from_failed_run(&self.argv, self.exit_code(), &self.outcome.stdout, &self.outcome.stderr)
    }
}

/// Runs `command` for a call: cancellation from the call, progress to the client, a
/// redacted outcome. A run that did not end by itself is an error of the contract.
pub async fn run(settings: &DotnetSettings, ctx: &CallContext, command: Command) -> Result<Ran, ErrorResponse> {
    // MSBuild worker nodes and the compiler server outlive a build by design; with them off, a
    // command leaves no process behind once it has exited.
    let mut invocation = Invocation::dotnet(settings.dotnet_path.as_deref(), command.args.clone())
        .current_dir(&command.cwd)
        .env("MSBUILDDISABLENODEREUSE", "1")
        .env("DOTNET_CLI_USE_MSBUILD_SERVER", "0")
        .env("UseSharedCompilation", "false")
        .max_output_bytes(settings.max_output_bytes);
    for (key, value) in &settings.environment {
        invocation = invocation.env(key, value);
    }
    if let Some(timeout) = settings.timeout {
        invocation = invocation.timeout(timeout);
    }
    ctx.progress(0.0, None, Some(&command.description));
    let mut reader = ProgressReader::new(command.progress);
    let outcome = invocation
        .run(ctx.cancelled(), |_stream: Stream, line: &str| {
            if let Some(message) = reader.step(line) {
                let message = crate::redact::redact(&message);
                ctx.progress(reader.steps() as f64, None, Some(&message));
            }
        })
        .await
        .into_redacted();
    let command_line = outcome.command_line.clone();
    match &outcome.end {
        RunEnd::ProgramNotFound(where_looked) => Err(ErrorResponse::from(dotnet_missing(where_looked))),
        _ if outcome.sdk_missing => Err(ErrorResponse::from(sdk_missing(&outcome))),
        RunEnd::Cancelled => {
            Err(ErrorResponse::from(ErrorResult::operation_cancelled(Some(&command_line), &outcome.transcript)))
        }
        RunEnd::TimedOut => {
            let mut error = ErrorResult::operation_cancelled(Some(&command_line), &outcome.transcript);
            let limit = settings.timeout.map(|limit| limit.as_secs_f64()).unwrap_or_default();
            error.message =
                format!("The command timed out after {limit} s and was stopped with its whole process tree.");
            error.hint =
                Some("Raise TimeoutSeconds in the plugin's settings, or run a smaller part of the work.".into());
            Err(ErrorResponse::from(error))
        }
        RunEnd::FailedToStart { message, .. } => {
            let mut error = ErrorResult::new("EXIT_-1", &format!("dotnet could not be started: {message}"));
            error.hint = Some("Check that the working directory exists and that dotnet is executable.".into());
            Err(ErrorResponse::from(error))
        }
        RunEnd::Exited(_) | RunEnd::Signalled(_) => {
            let argv = std::iter::once("dotnet".to_owned()).chain(command.args).collect();
            Ok(Ran { outcome, argv })
        }
    }
}

/// No dotnet executable at all.
pub fn dotnet_missing(where_looked: &str) -> ErrorResult {
    ErrorResult::capability_not_available(
        "dotnet",
        &format!("the dotnet CLI was not found ({where_looked})"),
        vec![
            "Install the .NET SDK: https://dotnet.microsoft.com/download".to_owned(),
            "Set DotnetPath in the plugin's settings (Plugins.Settings.<plugin>.DotnetPath) to the dotnet executable."
                .to_owned(),
            "Put the folder holding dotnet on the PATH of the server process.".to_owned(),
        ],
    )
}

/// dotnet is there, but only runtimes: no SDK.
fn sdk_missing(outcome: &RunOutcome) -> ErrorResult {
    let mut error = ErrorResult::capability_not_available(
        "dotnet SDK",
        "dotnet is installed but has no SDK (a runtime-only installation), so SDK commands cannot run",
        vec![
            "Install a .NET SDK (not only a runtime): https://dotnet.microsoft.com/download".to_owned(),
            "If an SDK is installed elsewhere, point DotnetPath at that installation's dotnet.".to_owned(),
            "If a global.json pins an SDK version that is not installed, change or remove it.".to_owned(),
        ],
    );
    error.code = "SDK_NOT_FOUND".to_owned();
    error.raw_output = outcome.transcript.clone();
    error
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn build_output_marks_restore_and_build_steps() {
        let mut reader = ProgressReader::new(ProgressKind::Build);
        let lines = [
            "  Determining projects to restore...",
            "  Restored /src/App/App.csproj (in 120 ms).",
            "  App -> /src/App/bin/Debug/net10.0/App.dll",
            "Build succeeded.",
        ];
        let steps: Vec<String> = lines.iter().filter_map(|line| reader.step(line)).collect();
        assert_eq!(steps, ["restored App.csproj", "built App (App.dll)"]);
    }

    #[test]
    fn test_output_marks_assemblies_and_tests() {
        let mut reader = ProgressReader::new(ProgressKind::Test);
        let lines = [
            "  Failed App.Tests.MathTests.Adds [8 ms]",
            "  Error Message:",
            "Failed!  - Failed:     1, Passed:     4, Skipped:     0, Total:     5, Duration: 12 ms - App.Tests.dll (net10.0)",
            "Test run summary: Passed!",
        ];
        let steps: Vec<String> = lines.iter().filter_map(|line| reader.step(line)).collect();
        assert_eq!(
            steps,
            [
                "failed App.Tests.MathTests.Adds",
                "test assembly failed: App.Tests.dll (net10.0)",
                "Test run summary: Passed!"
            ]
        );
    }
}
