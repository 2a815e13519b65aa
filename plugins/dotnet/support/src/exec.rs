//! Running one dotnet command on behalf of a tool call: the configured
//! executable, the call's cancellation, progress read from the output as it
//! arrives, redaction, and the contract's errors for everything that is not
//! a normal exit (no dotnet, no SDK, cancelled, timed out, not started).

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use mcp_plugin_api::CallContext;

use crate::{
    errors::{ErrorResponse, ErrorResult},
    redact::{LineRedactor, mask_known, redact, redacted_command_line},
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
    /// Entity Framework Core tools (`dotnet ef`): the build, then one step per migration applied,
    /// reverted or removed, the snapshot reverted, a database dropped, and the end.
    Ef,
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
            ProgressKind::Ef => ef_milestone(trimmed),
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

/// `Build started...`, `Applying migration '20250301080000_AddCustomerEmail'.`, `Done.` and the
/// other milestones dotnet-ef prints (as they are, or marked `info:    ` by `--prefix-output`).
fn ef_milestone(line: &str) -> Option<String> {
    let line = line.strip_prefix("info:    ").unwrap_or(line);
    const NAMED: [(&str, &str); 4] = [
        ("Applying migration ", "applying migration"),
        ("Reverting migration ", "reverting migration"),
        ("Removing migration ", "removing migration"),
        ("Dropping database ", "dropping database"),
    ];
    match line {
        "Build started..." => Some("building the project".to_owned()),
        "Build succeeded." => Some("project built".to_owned()),
        "Reverting the model snapshot." => Some("reverting the model snapshot".to_owned()),
        "Done." => Some("done".to_owned()),
        _ => NAMED.iter().find_map(|(prefix, verb)| {
            let name = line.strip_prefix(prefix)?.split('\'').nth(1)?;
            Some(format!("{verb} {name}"))
        }),
    }
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
    secrets: Vec<String>,
    reveal_stdout: bool,
}

impl Command {
    /// `dotnet ARGS` in `cwd`; `description` says what it does, for the first progress message.
    pub fn new(args: Vec<String>, cwd: &Path, description: impl Into<String>) -> Self {
        Self {
            args,
            cwd: cwd.to_owned(),
            progress: ProgressKind::None,
            description: description.into(),
            secrets: Vec::new(),
            reveal_stdout: false,
        }
    }

    /// Declares a value the call knows is secret (a password, a connection string, a user
    /// secret's value). It is masked with [`crate::redact::mask_known`] wherever it appears: in
    /// the echoed command line, [`Ran::argv`], progress messages, the output and every error,
    /// even where no pattern of [`crate::redact::redact`] would recognise it (a positional
    /// argument). An empty value is ignored.
    pub fn secret(mut self, value: impl Into<String>) -> Self {
        let value = value.into();
        if !value.is_empty() {
            self.secrets.push(value);
        }
        self
    }

    /// Keeps the process's standard output as it was written, unredacted, in
    /// [`Ran::revealed_stdout`]. Only for output the operator explicitly allowed to show (the
    /// values of `user-secrets list` with `ShowSecretValues`); everything else stays redacted.
    pub fn reveal_stdout(mut self) -> Self {
        self.reveal_stdout = true;
        self
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
    /// `dotnet` and its arguments, as run, with the values declared by [`Command::secret`] masked.
    pub argv: Vec<String>,
    /// The unredacted standard output, when the command asked for it with
    /// [`Command::reveal_stdout`]. Never show it unless the operator allowed it.
    pub revealed_stdout: Option<String>,
}

impl Ran {
    /// The exit code.
    pub fn exit_code(&self) -> i32 {
        self.outcome.end.exit_code()
    }

    /// The command line as a result reports it: the values declared secret masked, the rest
    /// redacted.
    pub fn command_line(&self) -> String {
        redacted_command_line(&self.argv[0], &self.argv[1..])
    }

    /// Whether it exited with 0.
    pub fn succeeded(&self) -> bool {
        self.outcome.end.is_success()
    }

    /// The contract's error for a non-zero exit, classified from its diagnostics.
    pub fn failure(&self) -> ErrorResponse {
        ErrorResponse::from_failed_run(&self.argv, self.exit_code(), &self.outcome.stdout, &self.outcome.stderr)
    }

    /// The error of a run that succeeded but printed something the plugin cannot read (an older
    /// SDK without the machine-readable form, an unexpected layout): `EXIT_<n>` with `reason`,
    /// what to check (`hint`), and the output it could not read.
    pub fn unreadable(&self, reason: &str, hint: &str) -> ErrorResponse {
        let mut error = ErrorResult::new(
            format!("EXIT_{}", self.exit_code()),
            &format!("The command succeeded, but its output could not be read: {reason}."),
        )
        .with_hint(hint);
        error.raw_output = self.outcome.stdout.clone();
        ErrorResponse::new(error, self.exit_code())
    }

    /// The error of a run that failed because this machine lacks what the command needs (a
    /// service it cannot reach, such as NuGet.org's search): `CAPABILITY_NOT_AVAILABLE` with
    /// `reason` and the `alternatives`, keeping the command, exit code, stderr and output.
    pub fn not_available(&self, feature: &str, reason: &str, alternatives: Vec<String>) -> ErrorResponse {
        let failed = self.failure();
        let mut error = ErrorResult::capability_not_available(feature, reason, alternatives);
        if let (Some(data), Some(ran)) = (error.data.as_mut(), failed.errors[0].data.as_ref()) {
            data.command = ran.command.clone();
            data.exit_code = ran.exit_code;
            data.stderr = ran.stderr.clone();
        }
        error.raw_output = self.outcome.transcript.clone();
        ErrorResponse::new(error, self.exit_code())
    }
}

/// `dotnet ARGS` in `cwd` as the settings configure it: the dotnet path, the output cap, the
/// build servers ([`build_server_env`]), then the `Environment` map (so the operator's own values
/// win). No timeout is set: [`run`] adds the configured one, and a background session
/// ([`Invocation::spawn`]) has none.
pub fn invocation(settings: &DotnetSettings, args: Vec<String>, cwd: &Path) -> Invocation {
    // The secret values in effect for this command are known before any of its output is read.
    crate::redact::learn::refresh_for_command(cwd, &args, &settings.environment);
    // `dotnet format` ignores DOTNET_CLI_UI_LANGUAGE and speaks the locale's language (German
    // under LANG=de_DE.UTF-8 on SDK 10.0.401); LC_MESSAGES sets its messages' language alone.
    // Only for it: for an app that `dotnet run` or `dotnet test` starts, LC_MESSAGES would change
    // the culture it formats dates and numbers in.
    let own_language = args.first().is_some_and(|command| command == "format");
    let mut invocation = Invocation::dotnet(settings.dotnet_path.as_deref(), args)
        .current_dir(cwd)
        .max_output_bytes(settings.max_output_bytes)
        .keep_build_servers(settings.build_servers);
    for (key, value) in build_server_env(settings.build_servers) {
        invocation = invocation.env(key, value);
    }
    if own_language {
        invocation = invocation.env("LC_MESSAGES", "en_US.UTF-8");
    }
    for (key, value) in &settings.environment {
        invocation = invocation.env(key, value);
    }
    invocation
}

/// The variables that switch the build servers on or off (`BuildServers`), set explicitly either
/// way so that an environment which switches them off (a CI image's) does not decide for the
/// operator. Off: no MSBuild worker node is reused, no MSBuild server and no compiler server is
/// used, so nothing outlives a command. On: the compiler server (`VBCSCompiler`) serves every
/// build and stays up for the next one, which then skips the compiler's cold start (a build after
/// one changed file takes half the time, docs/benchmarks.md "Build servers"), and MSBuild's
/// worker nodes are reused by the next build (a no-op build of a two-project solution skips
/// starting them); the MSBuild server stays off, as the SDK's default.
pub fn build_server_env(on: bool) -> [(&'static str, &'static str); 3] {
    [
        ("MSBUILDDISABLENODEREUSE", if on { "0" } else { "1" }),
        ("DOTNET_CLI_USE_MSBUILD_SERVER", "0"),
        ("UseSharedCompilation", if on { "true" } else { "false" }),
    ]
}

/// Runs `command` for a call: cancellation from the call, progress to the client, a
/// redacted outcome. A run that did not end by itself is an error of the contract.
pub async fn run(settings: &DotnetSettings, ctx: &CallContext, command: Command) -> Result<Ran, ErrorResponse> {
    run_reporting(settings, ctx.cancelled(), |steps, message| ctx.progress(steps, None, Some(message)), command).await
}

/// Runs `command` for no call (a resource read, a completion): only the configured timeout
/// stops it, nobody hears of its progress, and its outcome is redacted as a call's.
pub async fn run_unattended(settings: &DotnetSettings, command: Command) -> Result<Ran, ErrorResponse> {
    run_reporting(settings, std::future::pending::<()>(), |_, _| {}, command).await
}

/// Runs `command`, stopped when `cancelled` resolves, telling `progress` of each step (already
/// redacted), with a redacted outcome.
async fn run_reporting(
    settings: &DotnetSettings,
    cancelled: impl Future<Output = ()>,
    progress: impl Fn(f64, &str),
    command: Command,
) -> Result<Ran, ErrorResponse> {
    let secrets = &command.secrets;
    let mut invocation = invocation(settings, command.args.clone(), &command.cwd);
    if let Some(timeout) = settings.timeout {
        invocation = invocation.timeout(timeout);
    }
    // The description names what the caller passed (a package, a source URL), so it is masked
    // and redacted like every later message: no progress message leaves unredacted.
    let description = mask_known(&command.description, secrets);
    progress(0.0, &redact(&description));
    let mut reader = ProgressReader::new(command.progress);
    // One redactor per stream: a line inside a private key is secret only in its block's context,
    // and `ProgressKind::Lines` reports every line.
    let (mut stdout_redactor, mut stderr_redactor) = (LineRedactor::new(), LineRedactor::new());
    let mut outcome = invocation
        .run(cancelled, |stream: Stream, line: &str| {
            let redactor = match stream {
                Stream::Stdout => &mut stdout_redactor,
                Stream::Stderr => &mut stderr_redactor,
            };
            let masked = mask_known(line, secrets);
            let Some(line) = redactor.line(&masked) else { return };
            if let Some(message) = reader.step(&line) {
                progress(reader.steps() as f64, &message);
            }
        })
        .await;
    let revealed_stdout = command.reveal_stdout.then(|| outcome.stdout.clone());
    let masked_args: Vec<String> = command.args.iter().map(|arg| mask_known(arg, secrets).into_owned()).collect();
    if !secrets.is_empty() {
        for text in [&mut outcome.stdout, &mut outcome.stderr, &mut outcome.transcript] {
            if let Cow::Owned(masked) = mask_known(text, secrets) {
                *text = masked;
            }
        }
        outcome.command_line = Invocation::dotnet(settings.dotnet_path.as_deref(), masked_args.clone()).command_line();
    }
    let outcome = outcome.into_redacted();
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
            let argv = std::iter::once("dotnet".to_owned()).chain(masked_args).collect();
            Ok(Ran { outcome, argv, revealed_stdout })
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
    sdk_not_found(&outcome.transcript)
}

/// `SDK_NOT_FOUND` with the dotnet host's own words: a runtime-only installation, or a
/// global.json that pins an SDK that is not installed. For commands that are not run to the end
/// (a background session that exited at once), with its output so far.
pub fn sdk_not_found(output: &str) -> ErrorResult {
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
    error.raw_output = output.to_owned();
    error
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_from_lines_never_shows_a_private_key() {
        let settings = DotnetSettings { dotnet_path: Some("/bin/sh".into()), ..DotnetSettings::default() };
        let script = "printf 'Installing pack A...\\n-----BEGIN RSA PRIVATE KEY-----\\nMIIEowKeyBody\\n\
                      -----END RSA PRIVATE KEY-----\\nPassword=hunter2\\nDone.\\n'";
        let command =
            Command::new(vec!["-c".into(), script.into()], Path::new("."), "installing").progress(ProgressKind::Lines);
        let call = mcp_plugin_api::testkit::TestCall::new();
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let ran = runtime.block_on(run(&settings, &call.context(), command)).unwrap();
        assert!(ran.succeeded());
        let messages: Vec<String> = call.progress().into_iter().filter_map(|report| report.message).collect();
        assert_eq!(messages.first().map(String::as_str), Some("installing"));
        assert!(messages.iter().any(|message| message == "Installing pack A..."), "{messages:?}");
        assert!(messages.iter().any(|message| message == "Done."), "{messages:?}");
        assert!(messages.iter().all(|message| !message.contains("MIIEowKeyBody") && !message.contains("hunter2")));
    }

    #[test]
    fn the_invocation_carries_the_settings_and_the_build_server_switches() {
        for (build_servers, node_reuse_disabled, shared_compilation) in [(true, "0", "true"), (false, "1", "false")] {
            let settings = DotnetSettings {
                dotnet_path: Some(PathBuf::from("/opt/dotnet/dotnet")),
                max_output_bytes: 1024,
                environment: vec![
                    ("NUGET_PACKAGES".to_owned(), "/cache".to_owned()),
                    ("UseSharedCompilation".to_owned(), "operator".to_owned()),
                ],
                build_servers,
                ..DotnetSettings::default()
            };
            let built = invocation(&settings, vec!["build".to_owned()], Path::new("/src"));
            let expected = Invocation::dotnet(Some(Path::new("/opt/dotnet/dotnet")), ["build"])
                .current_dir("/src")
                .max_output_bytes(1024)
                .keep_build_servers(build_servers)
                .env("MSBUILDDISABLENODEREUSE", node_reuse_disabled)
                .env("DOTNET_CLI_USE_MSBUILD_SERVER", "0")
                .env("UseSharedCompilation", shared_compilation)
                .env("NUGET_PACKAGES", "/cache")
                // The operator's Environment comes last, so it wins.
                .env("UseSharedCompilation", "operator");
            assert_eq!(built, expected, "BuildServers {build_servers}");
        }
    }

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
    fn ef_output_marks_the_build_and_each_migration() {
        let mut reader = ProgressReader::new(ProgressKind::Ef);
        let lines = [
            "Build started...",
            "info:    Build succeeded.",
            "data:    {",
            "Applying migration '20250301080000_AddCustomerEmail'.",
            "Removing migration '20250301080000_AddCustomerEmail'.",
            "Reverting the model snapshot.",
            "Dropping database 'main' on server 'app.db'.",
            "Done.",
        ];
        let steps: Vec<String> = lines.iter().filter_map(|line| reader.step(line)).collect();
        assert_eq!(
            steps,
            [
                "building the project",
                "project built",
                "applying migration 20250301080000_AddCustomerEmail",
                "removing migration 20250301080000_AddCustomerEmail",
                "reverting the model snapshot",
                "dropping database main",
                "done"
            ]
        );
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
