//! The actions: parameters checked, the target found, the lock taken, dotnet run (or the project
//! file edited, or a session consulted), and the reply shaped.

pub use dotnet_support::respond::Failure;
use std::{
    path::{Path, PathBuf},
    sync::LazyLock,
    time::SystemTime,
};

use dotnet_support::{
    confirm::{self, Confirmation},
    diagnostics::{self, Diagnostic},
    errors::{ErrorResponse, ErrorResult, code},
    exec::{self, ProgressKind, Ran},
    frameworks,
    locking::{self, LockTarget},
    params::{Kind, Params, check},
    project_file,
    redact::redacted_command_line,
    respond::Reply,
    template_help,
    workspace::{self, Target},
};
use mcp_plugin_api::{
    CallContext,
    locks::{LockGuard, LockScope},
};
use regex::Regex;
use serde_json::{Map, Value, json};

use crate::{
    Action, ProjectTool,
    evaluate::{self, Evaluation},
    projfile::{self, ProjectText},
    sessions::{self, Start},
    testrun::{self, Runner},
};

type Outcome = Result<Reply, Failure>;

/// MSBuild property and item names: a letter or `_`, then letters, digits, `_` and `-`.
static MSBUILD_NAME: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^[A-Za-z_][A-Za-z0-9_\-]{0,127}$").expect("name pattern is valid"));
/// One template option token of `dotnet new`.
static TEMPLATE_OPTION: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^[A-Za-z0-9_.=:+\-]{1,200}$").expect("template option pattern is valid"));
/// A package version for `-p:PackageVersion=`: no `;` or `,`, which would start another property.
static PACKAGE_VERSION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^[0-9]+(\.[0-9]+){1,3}(-[0-9A-Za-z.\-]+)?(\+[0-9A-Za-z.\-]+)?$").expect("version pattern is valid")
});

/// Longest application output kept in a foreground Run's structured content (its end is kept).
const MAX_RUN_OUTPUT: usize = 16_000;

/// The parameters each action takes besides `action` and `workingDirectory`.
fn allowed(action: Action) -> &'static [&'static str] {
    match action {
        Action::New => &["template", "name", "output", "framework", "noRestore", "additionalOptions"],
        Action::Restore => &["project", "projectPath", "runtime", "verbosity", "source", "lockedMode", "configFile"],
        Action::Build => {
            &["project", "projectPath", "configuration", "framework", "runtime", "noRestore", "verbosity", "output"]
        }
        Action::Run => &[
            "project",
            "projectPath",
            "configuration",
            "framework",
            "runtime",
            "noBuild",
            "noRestore",
            "appArgs",
            "startMode",
        ],
        Action::Test => &[
            "project",
            "projectPath",
            "configuration",
            "framework",
            "filter",
            "collect",
            "resultsDirectory",
            "logger",
            "noBuild",
            "noRestore",
            "verbosity",
            "blame",
            "listTests",
            "testRunner",
            "useLegacyProjectArgument",
        ],
        Action::Publish => &[
            "project",
            "projectPath",
            "configuration",
            "output",
            "runtime",
            "framework",
            "noRestore",
            "noBuild",
            "selfContained",
            "arch",
            "os",
            "verbosity",
        ],
        Action::Clean => &["project", "projectPath", "configuration", "framework", "runtime", "output", "verbosity"],
        Action::Pack => &[
            "project",
            "projectPath",
            "configuration",
            "output",
            "includeSymbols",
            "includeSource",
            "noBuild",
            "noRestore",
            "verbosity",
            "packageVersion",
        ],
        Action::Watch => &[
            "project",
            "projectPath",
            "watchAction",
            "appArgs",
            "noHotReload",
            "filter",
            "configuration",
            "framework",
            "startMode",
        ],
        Action::Format => {
            &["project", "projectPath", "verify", "includeGenerated", "diagnostics", "severity", "verbosity"]
        }
        Action::Analyze | Action::Dependencies | Action::Validate => {
            &["project", "projectPath", "configuration", "framework"]
        }
        Action::GetProperty => &["project", "projectPath", "propertyName", "configuration", "framework"],
        Action::SetProperty => &["project", "projectPath", "propertyName", "propertyValue"],
        Action::RemoveProperty => &["project", "projectPath", "propertyName"],
        Action::AddItem => &["project", "projectPath", "itemType", "include", "metadata"],
        Action::RemoveItem => &["project", "projectPath", "itemType", "include"],
        Action::ListItems => &["project", "projectPath", "itemType", "configuration", "framework"],
        Action::ListTemplateOptions => &["template"],
        Action::Logs => &["sessionId", "tailLines", "since"],
        Action::Stop => &["sessionId"],
        Action::ListSessions => &[],
    }
}

/// Runs one call of the tool.
pub async fn dispatch(tool: &ProjectTool, args: &Value, ctx: &CallContext) -> Outcome {
    let params = Params::new(args);
    let action = params.action(Action::parse)?;
    let mut takes = allowed(action).to_vec();
    takes.push("workingDirectory");
    params.allow_only(action.name(), &takes)?;
    let cwd = workspace::working_directory(
        params.opt("workingDirectory", Kind::Path)?,
        tool.settings.working_directory.as_deref(),
    )?;
    let call = Call { tool, ctx, params, action, cwd };
    match action {
        Action::New => call.new_project().await,
        Action::Restore => call.restore().await,
        Action::Build => call.build().await,
        Action::Run => call.run_project().await,
        Action::Test => call.test().await,
        Action::Publish => call.publish().await,
        Action::Clean => call.clean().await,
        Action::Pack => call.pack().await,
        Action::Watch => call.watch().await,
        Action::Format => call.format().await,
        Action::Analyze | Action::Dependencies | Action::Validate => call.analyze().await,
        Action::GetProperty => call.get_property().await,
        Action::SetProperty | Action::RemoveProperty => call.edit_property().await,
        Action::AddItem | Action::RemoveItem => call.edit_item().await,
        Action::ListItems => call.list_items().await,
        Action::ListTemplateOptions => call.template_options().await,
        Action::Logs => call.logs(),
        Action::Stop => call.stop().await,
        Action::ListSessions => Ok(call.list_sessions()),
    }
}

fn invalid(parameter: &str, reason: &str, message: &str) -> Failure {
    ErrorResponse::from(ErrorResult::invalid_params(parameter, reason, message)).into()
}

/// `dotnet` and `args` as one redacted display line.
fn command_line(args: &[String]) -> String {
    redacted_command_line("dotnet", args)
}

/// One diagnostic as a line for the model.
fn diagnostic_line(diagnostic: &Diagnostic) -> String {
    let location = match (&diagnostic.file, diagnostic.line, diagnostic.column) {
        (Some(file), Some(line), Some(column)) => format!("{file}({line},{column}): "),
        (Some(file), Some(line), None) => format!("{file}({line}): "),
        (Some(file), None, _) => format!("{file}: "),
        _ => String::new(),
    };
    let code = if diagnostic.code.is_empty() { String::new() } else { format!("{}: ", diagnostic.code) };
    format!("{location}{code}{}", diagnostic.message)
}

/// The last `max` characters of `text`.
fn keep_end(text: &str, max: usize) -> String {
    match text.char_indices().rev().nth(max) {
        Some((cut, c)) => format!("[... earlier output omitted]\n{}", &text[cut + c.len_utf8()..]),
        None => text.to_owned(),
    }
}

/// One call: the tool, the client, the checked arguments and the folder it works in.
struct Call<'a> {
    tool: &'a ProjectTool,
    ctx: &'a CallContext,
    params: Params<'a>,
    action: Action,
    cwd: PathBuf,
}

impl Call<'_> {
    // --- parameters ------------------------------------------------------------------------

    fn opt(&self, name: &str, kind: Kind) -> Result<Option<&str>, Failure> {
        Ok(self.params.opt(name, kind)?)
    }

    /// `project`, or its deprecated alias `projectPath`.
    fn project_param(&self) -> Result<Option<&str>, Failure> {
        let project = self.opt("project", Kind::ProjectPath)?;
        let alias = self.opt("projectPath", Kind::ProjectPath)?;
        match (project, alias) {
            (Some(a), Some(b)) if a != b => Err(invalid(
                "projectPath",
                "conflict",
                "Parameters 'project' and 'projectPath' name different projects; give only 'project'.",
            )),
            (Some(path), _) | (None, Some(path)) => Ok(Some(path)),
            (None, None) => Ok(None),
        }
    }

    /// What a CLI action works on: the project parameter, else the one project or solution at
    /// the top of the client's roots, else nothing (the CLI looks in the working directory).
    async fn cli_target(&self) -> Result<Option<String>, Failure> {
        if let Some(project) = self.project_param()? {
            return Ok(Some(project.to_owned()));
        }
        let found = workspace::discover(self.ctx, Target::ProjectOrSolution, "project").await?;
        Ok(found.map(|path| path.display().to_string()))
    }

    /// The project file an evaluation or edit works on (absolute): the project parameter (a file,
    /// or a folder with one project), else the one project in the client's roots, else the one
    /// project in the working directory.
    async fn project_file(&self) -> Result<PathBuf, Failure> {
        let path = match self.project_param()? {
            Some(project) => self.cwd.join(project),
            None => match workspace::discover(self.ctx, Target::Project, "project").await? {
                Some(found) => found,
                None => self.cwd.clone(),
            },
        };
        let file = if path.is_dir() {
            match workspace::candidates_in(&path, Target::Project).as_slice() {
                [only] => only.clone(),
                [] => {
                    return Err(invalid(
                        "project",
                        if self.project_param()?.is_some() { "not found" } else { "required" },
                        &format!(
                            "No project file (.csproj, .fsproj, .vbproj) in '{}': name the project with 'project'.",
                            path.display()
                        ),
                    ));
                }
                several => {
                    let names: Vec<String> = several.iter().map(|p| p.display().to_string()).collect();
                    return Err(invalid(
                        "project",
                        "ambiguous",
                        &format!("'{}' holds several projects: {}. Name one.", path.display(), names.join(", ")),
                    ));
                }
            }
        } else {
            path
        };
        let extension = file.extension().and_then(|ext| ext.to_str()).unwrap_or_default().to_ascii_lowercase();
        if extension.starts_with("sln") {
            return Err(invalid(
                "project",
                "invalid value",
                &format!("Action '{}' works on a project file, not a solution.", self.action.name()),
            ));
        }
        if !file.is_file() {
            return Err(invalid(
                "project",
                "not found",
                &format!("The project file '{}' does not exist.", file.display()),
            ));
        }
        Ok(locking::canonical(&file))
    }

    /// A list parameter: a string split on whitespace, or an array of strings; each checked.
    fn list(&self, name: &str, check_one: impl Fn(&str) -> Result<(), ErrorResponse>) -> Result<Vec<String>, Failure> {
        let values: Vec<String> = match self.params.raw(name) {
            None => Vec::new(),
            Some(Value::String(text)) => text.split_whitespace().map(str::to_owned).collect(),
            Some(Value::Array(items)) => items
                .iter()
                .map(|item| {
                    item.as_str().map(str::to_owned).ok_or_else(|| {
                        invalid(
                            name,
                            "invalid type",
                            &format!("Parameter '{name}' must be a string or a list of strings."),
                        )
                    })
                })
                .collect::<Result<_, _>>()?,
            Some(_) => {
                return Err(invalid(
                    name,
                    "invalid type",
                    &format!("Parameter '{name}' must be a string or a list of strings."),
                ));
            }
        };
        for value in &values {
            check_one(value)?;
        }
        Ok(values)
    }

    /// `appArgs`: anything but NUL and line breaks; they follow `--`, so dotnet never reads them.
    fn app_args(&self) -> Result<Vec<String>, Failure> {
        self.list("appArgs", |value| {
            if value.contains(['\0', '\n', '\r']) {
                Err(ErrorResult::invalid_params(
                    "appArgs",
                    "invalid characters",
                    "Parameter 'appArgs' contains a line break or NUL character.",
                )
                .into())
            } else {
                Ok(())
            }
        })
    }

    /// An MSBuild property or item type name.
    fn msbuild_name(&self, parameter: &str) -> Result<&str, Failure> {
        let name = self.params.req(parameter, Kind::Identifier)?;
        if MSBUILD_NAME.is_match(name) {
            Ok(name)
        } else {
            Err(invalid(
                parameter,
                "invalid value",
                &format!(
                    "Parameter '{parameter}' must be an MSBuild name: a letter or '_', then letters, digits, '_' or '-' (got '{name}')."
                ),
            ))
        }
    }

    /// Pushes `flag value` when the parameter is set.
    fn push(&self, args: &mut Vec<String>, flag: &str, name: &str, kind: Kind) -> Result<(), Failure> {
        if let Some(value) = self.opt(name, kind)? {
            args.extend([flag.to_owned(), value.to_owned()]);
        }
        Ok(())
    }

    /// Pushes `flag` when the boolean parameter is true.
    fn push_flag(&self, args: &mut Vec<String>, flag: &str, name: &str) {
        if self.params.flag(name) {
            args.push(flag.to_owned());
        }
    }

    /// `-c`, `-f`, `-r`, `-v` in this order, when set.
    fn build_options(&self, args: &mut Vec<String>, names: &[&str]) -> Result<(), Failure> {
        for (flag, name, kind) in [
            ("-c", "configuration", Kind::Configuration),
            ("-f", "framework", Kind::Framework),
            ("-r", "runtime", Kind::Runtime),
            ("-v", "verbosity", Kind::Verbosity),
        ] {
            if names.contains(&name) {
                self.push(args, flag, name, kind)?;
            }
        }
        Ok(())
    }

    // --- locks and runs -----------------------------------------------------------------------

    /// Takes the host-wide lock on `target` (relative to the working directory) for the action.
    async fn lock(&self, target: Option<&Path>) -> Result<(LockGuard, Value), Failure> {
        self.lock_target(LockTarget::for_path(target, &self.cwd)).await
    }

    /// Takes the host-wide lock on `target` for the action.
    async fn lock_target(&self, target: LockTarget) -> Result<(LockGuard, Value), Failure> {
        let operation = self.action.name().to_ascii_lowercase();
        match locking::acquire(&self.tool.plugin, &target, &operation, self.tool.settings.lock_wait).await {
            Ok(guard) => {
                let info = locking::lock_info_json(guard.info());
                Ok((guard, info))
            }
            Err((error, extra)) => Err(Failure { error, extra: Some(extra) }),
        }
    }

    /// Runs `dotnet args` in `dir`; an error keeps `lockInfo` beside the envelope.
    async fn run_in(
        &self,
        dir: &Path,
        args: Vec<String>,
        description: String,
        progress: ProgressKind,
        lock_info: Option<&Value>,
    ) -> Result<Ran, Failure> {
        let command = exec::Command::new(args, dir, description).progress(progress);
        exec::run(&self.tool.settings, self.ctx, command)
            .await
            .map_err(|error| Failure { error, extra: lock_info.map(|info| json!({ "lockInfo": info })) })
    }

    async fn run(
        &self,
        args: Vec<String>,
        description: String,
        progress: ProgressKind,
        lock_info: Option<&Value>,
    ) -> Result<Ran, Failure> {
        self.run_in(&self.cwd, args, description, progress, lock_info).await
    }

    /// The failure of a run that exited non-zero, with `extra` merged.
    fn failed(ran: &Ran, extra: Value) -> Failure {
        Failure { error: ran.failure(), extra: Some(extra) }
    }

    /// The structured content every CLI action shares.
    fn command_result(
        &self,
        ran: &Ran,
        args: &[String],
        summary: &str,
        lock_info: Option<&Value>,
    ) -> Map<String, Value> {
        let found = diagnostics::summarize(ran.outcome.stdout.lines().chain(ran.outcome.stderr.lines()));
        let mut result = Map::new();
        result.insert("success".into(), json!(true));
        result.insert("action".into(), json!(self.action.name()));
        result.insert("command".into(), json!(command_line(args)));
        result.insert("exitCode".into(), json!(ran.exit_code()));
        result.insert("summary".into(), json!(summary));
        result.insert("durationMs".into(), json!(ran.outcome.elapsed.as_millis() as u64));
        if let Some(info) = lock_info {
            result.insert("lockInfo".into(), info.clone());
        }
        result.insert("warningCount".into(), json!(found.warning_count));
        result.insert("warnings".into(), json!(found.warnings));
        result
    }

    /// A reply for a CLI action that succeeded: its summary, its warnings, its output.
    fn command_reply(&self, ran: &Ran, summary: String, structured: Map<String, Value>) -> Reply {
        let warnings: Vec<String> =
            serde_json::from_value::<Vec<Diagnostic>>(structured.get("warnings").cloned().unwrap_or_default())
                .unwrap_or_default()
                .iter()
                .map(diagnostic_line)
                .collect();
        Reply::new(summary)
            .section("Warnings", warnings)
            .output(ran.outcome.transcript.clone())
            .structured(Value::Object(structured))
    }

    /// A CLI action that runs one command under the project lock and reports the common shape.
    async fn simple(
        &self,
        args: Vec<String>,
        target: Option<&str>,
        progress: ProgressKind,
        describe: impl FnOnce(&Ran) -> (String, Map<String, Value>),
    ) -> Outcome {
        let (_guard, lock_info) = self.lock(target.map(Path::new)).await?;
        let label = target.unwrap_or("the working directory");
        let description = format!("{} {label}", self.action.name());
        let ran = self.run(args.clone(), description, progress, Some(&lock_info)).await?;
        if !ran.succeeded() {
            return Err(Self::failed(&ran, json!({ "lockInfo": lock_info })));
        }
        let (summary, more) = describe(&ran);
        let mut structured = self.command_result(&ran, &args, &summary, Some(&lock_info));
        if let Some(target) = target {
            structured.insert("project".into(), json!(target));
        }
        structured.extend(more);
        Ok(self.command_reply(&ran, summary, structured))
    }

    // --- CLI actions ------------------------------------------------------------------------

    async fn new_project(&self) -> Outcome {
        let template = self.params.req("template", Kind::Identifier)?;
        let mut args = vec!["new".to_owned(), template.to_owned()];
        self.push(&mut args, "-n", "name", Kind::Text)?;
        self.push(&mut args, "-o", "output", Kind::Path)?;
        self.push(&mut args, "-f", "framework", Kind::Framework)?;
        self.push_flag(&mut args, "--no-restore", "noRestore");
        args.extend(self.list("additionalOptions", |token| {
            if TEMPLATE_OPTION.is_match(token) {
                Ok(())
            } else {
                Err(ErrorResult::invalid_params(
                    "additionalOptions",
                    "invalid characters",
                    &format!("Parameter 'additionalOptions': '{token}' may hold only letters, digits and _ . = : + -."),
                )
                .into())
            }
        })?);
        // The folder the template writes to, whether it exists yet or not.
        let folder = locking::canonical(&self.cwd.join(self.opt("output", Kind::Path)?.unwrap_or(".")));
        let target = LockTarget { scope: LockScope::WorkingDirectory, key: folder.display().to_string() };
        let (_guard, lock_info) = self.lock_target(target).await?;
        let ran = self
            .run(args.clone(), format!("Creating a '{template}' project"), ProgressKind::Lines, Some(&lock_info))
            .await?;
        if !ran.succeeded() {
            let mut failure = Self::failed(&ran, json!({ "lockInfo": lock_info }));
            template_not_found(&mut failure.error, template);
            return Err(failure);
        }
        let summary = ran
            .outcome
            .stdout
            .lines()
            .find(|line| line.contains("was created successfully"))
            .map_or_else(|| format!("The '{template}' template ran."), |line| line.trim().to_owned());
        let mut structured = self.command_result(&ran, &args, &summary, Some(&lock_info));
        structured.insert("template".into(), json!(template));
        if let Some(name) = self.opt("name", Kind::Text)? {
            structured.insert("name".into(), json!(name));
        }
        Ok(self.command_reply(&ran, summary, structured))
    }

    async fn restore(&self) -> Outcome {
        let target = self.cli_target().await?;
        let mut args = vec!["restore".to_owned()];
        args.extend(target.clone());
        self.build_options(&mut args, &["runtime", "verbosity"])?;
        self.push(&mut args, "--source", "source", Kind::Path)?;
        self.push_flag(&mut args, "--locked-mode", "lockedMode");
        self.push(&mut args, "--configfile", "configFile", Kind::Path)?;
        self.simple(args, target.as_deref(), ProgressKind::Restore, |ran| {
            let restored = ran.outcome.stdout.lines().filter(|line| line.trim_start().starts_with("Restored ")).count();
            let summary = match restored {
                0 => "Restore succeeded: everything was up to date.".to_owned(),
                n => format!("Restore succeeded: {n} project(s) restored."),
            };
            (summary, Map::new())
        })
        .await
    }

    async fn build(&self) -> Outcome {
        let target = self.cli_target().await?;
        let mut args = vec!["build".to_owned()];
        args.extend(target.clone());
        self.build_options(&mut args, &["configuration", "framework", "runtime"])?;
        self.push_flag(&mut args, "--no-restore", "noRestore");
        self.build_options(&mut args, &["verbosity"])?;
        self.push(&mut args, "-o", "output", Kind::Path)?;
        let (_guard, lock_info) = self.lock(target.as_deref().map(Path::new)).await?;
        let label = target.clone().unwrap_or_else(|| LockTarget::for_path(None, &self.cwd).key);
        let ran = self.run(args.clone(), format!("Building {label}"), ProgressKind::Build, Some(&lock_info)).await?;
        let found = diagnostics::summarize(ran.outcome.stdout.lines().chain(ran.outcome.stderr.lines()));
        let configuration = self.opt("configuration", Kind::Configuration)?.unwrap_or("Debug");
        let summary = if ran.succeeded() {
            match found.warning_count {
                0 => "Build succeeded.".to_owned(),
                n => format!("Build succeeded with {n} warning(s)."),
            }
        } else {
            format!("Build failed with {} error(s) and {} warning(s).", found.error_count, found.warning_count)
        };
        let mut fields = json!({
            "project": label,
            "configuration": configuration,
            "errorCount": found.error_count,
            "warningCount": found.warning_count,
            "summary": summary,
            "warnings": found.warnings,
            "lockInfo": lock_info,
        });
        if !ran.succeeded() {
            return Err(Self::failed(&ran, fields));
        }
        fields["success"] = json!(true);
        fields["action"] = json!("Build");
        fields["errors"] = json!(found.errors);
        fields["command"] = json!(command_line(&args));
        fields["exitCode"] = json!(ran.exit_code());
        fields["durationMs"] = json!(ran.outcome.elapsed.as_millis() as u64);
        let warnings = found.warnings.iter().map(diagnostic_line).collect();
        Ok(Reply::new(summary).section("Warnings", warnings).output(ran.outcome.transcript.clone()).structured(fields))
    }

    fn start_mode_background(&self) -> Result<bool, Failure> {
        match self.opt("startMode", Kind::Identifier)? {
            None => Ok(false),
            Some(mode) if mode.eq_ignore_ascii_case("Foreground") => Ok(false),
            Some(mode) if mode.eq_ignore_ascii_case("Background") => Ok(true),
            Some(mode) => Err(invalid(
                "startMode",
                "invalid value",
                &format!("Parameter 'startMode' must be Foreground or Background (got '{mode}')."),
            )),
        }
    }

    async fn run_project(&self) -> Outcome {
        let background = self.start_mode_background()?;
        let target = self.cli_target().await?;
        let mut args = vec!["run".to_owned()];
        if let Some(target) = &target {
            args.extend(["--project".to_owned(), target.clone()]);
        }
        self.build_options(&mut args, &["configuration", "framework", "runtime"])?;
        self.push_flag(&mut args, "--no-build", "noBuild");
        self.push_flag(&mut args, "--no-restore", "noRestore");
        let app_args = self.app_args()?;
        if !app_args.is_empty() {
            args.push("--".to_owned());
            args.extend(app_args);
        }
        let (guard, lock_info) = self.lock(target.as_deref().map(Path::new)).await?;
        if background {
            return self.start_session("run", args, target, guard, lock_info);
        }
        let label = target.clone().unwrap_or_else(|| "the project in the working directory".to_owned());
        let ran = self.run(args.clone(), format!("Running {label}"), ProgressKind::Build, Some(&lock_info)).await?;
        if !ran.succeeded() {
            return Err(Self::failed(&ran, json!({ "lockInfo": lock_info })));
        }
        let summary = format!("{label} ran and exited with code 0.");
        let mut structured = self.command_result(&ran, &args, &summary, Some(&lock_info));
        if let Some(target) = &target {
            structured.insert("project".into(), json!(target));
        }
        structured.insert("output".into(), json!(keep_end(&ran.outcome.transcript, MAX_RUN_OUTPUT)));
        Ok(self.command_reply(&ran, summary, structured))
    }

    fn start_session(
        &self,
        operation: &'static str,
        args: Vec<String>,
        target: Option<String>,
        guard: LockGuard,
        lock_info: Value,
    ) -> Outcome {
        let command = command_line(&args);
        let target = target.unwrap_or_else(|| self.cwd.display().to_string());
        let start = Start {
            operation,
            invocation: exec::invocation(&self.tool.settings, args, &self.cwd),
            command,
            target: target.clone(),
            working_directory: self.cwd.clone(),
            lock: guard,
        };
        let session = self
            .tool
            .sessions
            .start(start)
            .map_err(|error| Failure { error, extra: Some(json!({ "lockInfo": lock_info })) })?;
        let summary = format!(
            "Started a background {operation} session for {target}: sessionId {}, pid {}. Read its output with action \
             Logs and that sessionId; end it with action Stop.",
            session.id,
            session.pid()
        );
        let mut structured = session.describe();
        structured["success"] = json!(true);
        structured["action"] = json!(self.action.name());
        structured["lockInfo"] = lock_info;
        structured["summary"] = json!(summary);
        Ok(Reply::new(summary).structured(structured))
    }

    async fn test(&self) -> Outcome {
        let target = self.cli_target().await?;
        let explicit_dir = self.params.raw("workingDirectory").is_some();
        // Run where the SDK sees the project's global.json, which decides the runner.
        let (dir, project) = match &target {
            Some(target) if !explicit_dir => {
                let absolute = locking::canonical(&self.cwd.join(target));
                let dir = if absolute.is_dir() {
                    absolute.clone()
                } else {
                    absolute.parent().unwrap_or(&self.cwd).to_owned()
                };
                (dir, Some(absolute.display().to_string()))
            }
            _ => (self.cwd.clone(), target.clone()),
        };
        let selection = testrun::select(
            self.opt("testRunner", Kind::Identifier)?,
            self.params.flag("useLegacyProjectArgument"),
            &dir,
        )?;
        let mtp = selection.runner == Runner::Mtp;
        let mut args = vec!["test".to_owned()];
        if let Some(project) = &project {
            if mtp {
                args.push("--project".to_owned());
            }
            args.push(project.clone());
        }
        self.build_options(&mut args, &["configuration", "framework"])?;
        self.push(&mut args, "--filter", "filter", Kind::Text)?;
        if let Some(collect) = self.opt("collect", Kind::Text)? {
            match (mtp, collect.to_ascii_lowercase().contains("coverage")) {
                (false, _) => args.extend(["--collect".to_owned(), collect.to_owned()]),
                (true, true) => args.push("--coverage".to_owned()),
                (true, false) => {
                    return Err(invalid(
                        "collect",
                        "not supported",
                        &format!(
                            "Parameter 'collect': '{collect}' is a VSTest data collector; under Microsoft.Testing.Platform only code coverage (--coverage) is available."
                        ),
                    ));
                }
            }
        }
        if let Some(results) = self.opt("resultsDirectory", Kind::Path)? {
            let results =
                if dir == self.cwd { results.to_owned() } else { self.cwd.join(results).display().to_string() };
            args.extend(["--results-directory".to_owned(), results]);
        }
        if let Some(logger) = self.opt("logger", Kind::Text)? {
            match (mtp, logger.to_ascii_lowercase().starts_with("trx")) {
                (false, _) => args.extend(["--logger".to_owned(), logger.to_owned()]),
                (true, true) => args.push("--report-trx".to_owned()),
                (true, false) => {
                    return Err(invalid(
                        "logger",
                        "not supported",
                        &format!(
                            "Parameter 'logger': '{logger}' is a VSTest logger; under Microsoft.Testing.Platform only trx (--report-trx) is available."
                        ),
                    ));
                }
            }
        }
        self.push_flag(&mut args, "--no-build", "noBuild");
        self.push_flag(&mut args, "--no-restore", "noRestore");
        self.build_options(&mut args, &["verbosity"])?;
        if self.params.flag("blame") {
            if mtp {
                return Err(invalid(
                    "blame",
                    "not supported",
                    "Parameter 'blame' is a VSTest option; under Microsoft.Testing.Platform add the crash and hang dump extensions to the test project instead.",
                ));
            }
            args.push("--blame".to_owned());
        }
        self.push_flag(&mut args, "--list-tests", "listTests");

        let (_guard, lock_info) = self.lock(target.as_deref().map(Path::new)).await?;
        let label = project.clone().unwrap_or_else(|| "the working directory".to_owned());
        let ran =
            self.run_in(&dir, args.clone(), format!("Testing {label}"), ProgressKind::Test, Some(&lock_info)).await;
        let metadata = selection.metadata(project.is_some());
        let ran = ran.map_err(|mut failure| {
            for (key, value) in &metadata {
                failure.error = failure.error.clone().with_metadata(key.clone(), value);
            }
            failure
        })?;
        let report = testrun::parse(&ran.outcome.transcript);
        let summary = report.summary();
        let mut fields = json!({
            "passed": report.passed(),
            "failed": report.failed(),
            "skipped": report.skipped(),
            "total": report.total(),
            "durationMs": report.duration_ms(),
            "failures": report.failures,
            "assemblies": report.assemblies,
            "lockInfo": lock_info,
        });
        if let Some(project) = &project {
            fields["project"] = json!(project);
        }
        if !report.listed.is_empty() {
            fields["tests"] = json!(report.listed);
        }
        let failure_lines: Vec<String> = report
            .failures
            .iter()
            .map(|failure| format!("{}: {}", failure.test_name, failure.message.lines().next().unwrap_or_default()))
            .collect();
        if !ran.succeeded() {
            let mut error = ran.failure();
            if report.failed() > 0 && error.errors[0].code.starts_with(code::EXIT_PREFIX) {
                let names: Vec<&str> = report.failures.iter().map(|failure| failure.test_name.as_str()).collect();
                error.errors[0].message =
                    format!("{} of {} tests failed: {}.", report.failed(), report.total(), names.join(", "));
                error.errors[0].hint = Some("Read 'failures' for each test's message and stack trace.".to_owned());
            }
            for (key, value) in &metadata {
                error = error.with_metadata(key.clone(), value);
            }
            fields["summary"] = json!(summary);
            return Err(Failure { error, extra: Some(fields) });
        }
        fields["success"] = json!(true);
        fields["action"] = json!("Test");
        fields["summary"] = json!(summary);
        fields["metadata"] = json!(metadata);
        fields["command"] = json!(command_line(&args));
        fields["exitCode"] = json!(ran.exit_code());
        let tests = report.listed.clone();
        Ok(Reply::new(summary)
            .section("Failed tests", failure_lines)
            .section("Tests", tests)
            .output(ran.outcome.transcript.clone())
            .structured(fields))
    }

    async fn publish(&self) -> Outcome {
        let target = self.cli_target().await?;
        let mut args = vec!["publish".to_owned()];
        args.extend(target.clone());
        self.build_options(&mut args, &["configuration"])?;
        self.push(&mut args, "-o", "output", Kind::Path)?;
        self.build_options(&mut args, &["runtime", "framework"])?;
        self.push_flag(&mut args, "--no-restore", "noRestore");
        self.push_flag(&mut args, "--no-build", "noBuild");
        if let Some(contained) = self.params.raw("selfContained").and_then(Value::as_bool) {
            args.extend(["--self-contained".to_owned(), contained.to_string()]);
        }
        self.push(&mut args, "--arch", "arch", Kind::Identifier)?;
        self.push(&mut args, "--os", "os", Kind::Identifier)?;
        self.build_options(&mut args, &["verbosity"])?;
        self.simple(args, target.as_deref(), ProgressKind::Build, |ran| {
            let outputs: Vec<Value> = ran
                .outcome
                .stdout
                .lines()
                .filter_map(|line| line.trim().split_once(" -> "))
                .filter(|(_, path)| path.ends_with('/') || path.ends_with('\\'))
                .map(|(project, path)| json!({ "project": project, "path": path }))
                .collect();
            let places: Vec<&str> = outputs.iter().filter_map(|output| output["path"].as_str()).collect();
            let summary = match places.as_slice() {
                [] => "Publish succeeded.".to_owned(),
                places => format!("Published to {}.", places.join(", ")),
            };
            (summary, Map::from_iter([("outputs".to_owned(), json!(outputs))]))
        })
        .await
    }

    async fn clean(&self) -> Outcome {
        let target = self.cli_target().await?;
        let label = target.clone().unwrap_or_else(|| self.cwd.display().to_string());
        let message = format!("Delete the build output (the files a build wrote to bin/ and obj/) of {label}?");
        let consent = match confirm::confirm(self.ctx, &message).await {
            Confirmation::Confirmed => "confirmed",
            Confirmation::NotAsked => "notAsked",
            Confirmation::Refused(reason) => return Err(confirm::refused("Clean", &label, &reason).into()),
        };
        let mut args = vec!["clean".to_owned()];
        args.extend(target.clone());
        self.build_options(&mut args, &["configuration", "framework", "runtime"])?;
        self.push(&mut args, "-o", "output", Kind::Path)?;
        self.build_options(&mut args, &["verbosity"])?;
        self.simple(args, target.as_deref(), ProgressKind::Build, |_| {
            (format!("Cleaned the build output of {label}."), Map::from_iter([("consent".to_owned(), json!(consent))]))
        })
        .await
    }

    async fn pack(&self) -> Outcome {
        let target = self.cli_target().await?;
        let mut args = vec!["pack".to_owned()];
        args.extend(target.clone());
        self.build_options(&mut args, &["configuration"])?;
        self.push(&mut args, "-o", "output", Kind::Path)?;
        self.push_flag(&mut args, "--include-symbols", "includeSymbols");
        self.push_flag(&mut args, "--include-source", "includeSource");
        self.push_flag(&mut args, "--no-build", "noBuild");
        self.push_flag(&mut args, "--no-restore", "noRestore");
        self.build_options(&mut args, &["verbosity"])?;
        if let Some(version) = self.opt("packageVersion", Kind::Version)? {
            if !PACKAGE_VERSION.is_match(version) {
                return Err(invalid(
                    "packageVersion",
                    "invalid value",
                    &format!(
                        "Parameter 'packageVersion' must be a version such as 1.2.3 or 2.0.0-beta.1 (got '{version}')."
                    ),
                ));
            }
            args.push(format!("-p:PackageVersion={version}"));
        }
        self.simple(args, target.as_deref(), ProgressKind::Build, |ran| {
            let packages: Vec<String> = ran
                .outcome
                .stdout
                .lines()
                .filter_map(|line| line.split_once("Successfully created package '"))
                .filter_map(|(_, rest)| rest.split_once('\'').map(|(path, _)| path.to_owned()))
                .collect();
            let summary = format!("Created {} package(s).", packages.len());
            (summary, Map::from_iter([("packages".to_owned(), json!(packages))]))
        })
        .await
    }

    async fn watch(&self) -> Outcome {
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
                &format!("Parameter 'watchAction' must be run, test or build (got '{sub}')."),
            ));
        }
        let only = |name: &str, wanted: &str| -> Result<(), Failure> {
            if self.params.raw(name).is_some() && sub != wanted {
                Err(invalid(
                    name,
                    "not applicable",
                    &format!("Parameter '{name}' applies to watchAction '{wanted}' only."),
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
            args.extend(["--project".to_owned(), target.clone()]);
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
        let (guard, lock_info) = self.lock(target.as_deref().map(Path::new)).await?;
        self.start_session("watch", args, target, guard, lock_info)
    }

    async fn format(&self) -> Outcome {
        let target = self.cli_target().await?;
        let mut args = vec!["format".to_owned()];
        args.extend(target.clone());
        self.push_flag(&mut args, "--verify-no-changes", "verify");
        self.push_flag(&mut args, "--include-generated", "includeGenerated");
        let ids = self.list("diagnostics", |id| check("diagnostics", Kind::Identifier, id))?;
        if !ids.is_empty() {
            args.push("--diagnostics".to_owned());
            args.extend(ids);
        }
        if let Some(severity) = self.opt("severity", Kind::Identifier)? {
            if !matches!(severity, "info" | "warn" | "error") {
                return Err(invalid(
                    "severity",
                    "invalid value",
                    &format!("Parameter 'severity' must be info, warn or error (got '{severity}')."),
                ));
            }
            args.extend(["--severity".to_owned(), severity.to_owned()]);
        }
        self.build_options(&mut args, &["verbosity"])?;
        let verify = self.params.flag("verify");
        self.simple(args, target.as_deref(), ProgressKind::None, move |_| {
            let summary = if verify { "No formatting changes are needed." } else { "Formatting applied." };
            (summary.to_owned(), Map::new())
        })
        .await
    }

    async fn template_options(&self) -> Outcome {
        let template = self.params.req("template", Kind::Identifier)?;
        let args = vec!["new".to_owned(), template.to_owned(), "--help".to_owned()];
        let ran =
            self.run(args.clone(), format!("Reading the options of '{template}'"), ProgressKind::None, None).await?;
        if !ran.succeeded() {
            let mut failure = Self::failed(&ran, json!({}));
            template_not_found(&mut failure.error, template);
            return Err(failure);
        }
        let help = template_help::parse(&ran.outcome.stdout);
        let lines: Vec<String> = help
            .options
            .iter()
            .map(|option| {
                let default =
                    option.default_value.as_ref().map(|value| format!(" (default {value})")).unwrap_or_default();
                format!("{}: {}{default}", option.option, option.description)
            })
            .collect();
        let summary = format!("'{template}' ({}) has {} template option(s).", help.name, help.options.len());
        let mut structured = serde_json::to_value(&help).unwrap_or_else(|_| json!({}));
        structured["success"] = json!(true);
        structured["action"] = json!("ListTemplateOptions");
        structured["template"] = json!(template);
        Ok(Reply::new(summary).section("Options", lines).structured(structured))
    }

    // --- evaluation ---------------------------------------------------------------------------

    /// `-p:Configuration=` and `-p:TargetFramework=` for an evaluation.
    fn globals(&self) -> Result<Vec<(&'static str, &str)>, Failure> {
        let mut globals = Vec::new();
        if let Some(configuration) = self.opt("configuration", Kind::Configuration)? {
            globals.push(("Configuration", configuration));
        }
        if let Some(framework) = self.opt("framework", Kind::Framework)? {
            globals.push(("TargetFramework", framework));
        }
        Ok(globals)
    }

    async fn evaluate(&self, project: &Path, properties: &[&str], items: &[&str]) -> Result<Evaluation, Failure> {
        let globals = self.globals()?;
        let args = evaluate::args(&project.display().to_string(), properties, items, &globals);
        let description = format!("Evaluating {}", project.display());
        let ran = self.run(args, description, ProgressKind::None, None).await?;
        if !ran.succeeded() {
            return Err(ran.failure().into());
        }
        evaluate::parse(&ran.outcome.stdout, properties, items).map_err(|problem| {
            let mut error = ErrorResult::new(format!("{}{}", code::EXIT_PREFIX, ran.exit_code()), &problem);
            error.raw_output = ran.outcome.transcript.clone();
            ErrorResponse::from(error).into()
        })
    }

    async fn analyze(&self) -> Outcome {
        let project = self.project_file().await?;
        let (properties, items): (&[&str], &[&str]) = match self.action {
            Action::Analyze => (evaluate::ANALYZE_PROPERTIES, evaluate::ANALYZE_ITEMS),
            Action::Dependencies => (evaluate::DEPENDENCY_PROPERTIES, evaluate::DEPENDENCY_ITEMS),
            _ => (evaluate::VALIDATE_PROPERTIES, evaluate::DEPENDENCY_ITEMS),
        };
        let evaluation = self.evaluate(&project, properties, items).await?;
        let name = evaluate::project_name(&project);
        let (mut structured, summary, sections) = match self.action {
            Action::Analyze => {
                let file = project_file::read(&project).ok();
                let result = Value::Object(evaluate::analyze(&project, &evaluation, file.as_ref()));
                let summary = format!(
                    "{name}: {} targeting {}, {} package and {} project reference(s).",
                    result["outputType"].as_str().unwrap_or("a project"),
                    evaluation.target_frameworks().join(", "),
                    result["packageReferences"].as_array().map_or(0, Vec::len),
                    result["projectReferences"].as_array().map_or(0, Vec::len)
                );
                (result, summary, Vec::new())
            }
            Action::Dependencies => {
                let result = Value::Object(evaluate::dependencies(&project, &evaluation));
                let lines = result["directPackageDependencies"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|package| {
                        format!(
                            "{} {}",
                            package["name"].as_str().unwrap_or_default(),
                            package["version"].as_str().unwrap_or("(no version)")
                        )
                    })
                    .chain(
                        result["directProjectDependencies"]
                            .as_array()
                            .into_iter()
                            .flatten()
                            .map(|project| format!("project {}", project["path"].as_str().unwrap_or_default())),
                    )
                    .collect();
                let summary = format!("{name} has {} direct dependencies.", result["totalDirectDependencies"]);
                (result, summary, vec![("Dependencies", lines)])
            }
            _ => {
                let file = project_file::read(&project);
                let result = Value::Object(evaluate::validate(
                    &project,
                    &evaluation,
                    file.as_ref().map_err(String::as_str),
                    &frameworks::today(),
                ));
                let texts = |key: &str| -> Vec<String> {
                    result[key].as_array().into_iter().flatten().filter_map(Value::as_str).map(str::to_owned).collect()
                };
                let sections = vec![
                    ("Errors", texts("errors")),
                    ("Warnings", texts("warnings")),
                    ("Recommendations", texts("recommendations")),
                ];
                let summary = if result["isValid"] == json!(true) {
                    format!("{name} is valid.")
                } else {
                    format!("{name} has problems that need fixing.")
                };
                (result, summary, sections)
            }
        };
        structured["success"] = json!(true);
        structured["action"] = json!(self.action.name());
        let mut reply = Reply::new(summary);
        for (heading, lines) in sections {
            reply = reply.section(heading, lines);
        }
        Ok(reply.structured(structured))
    }

    async fn get_property(&self) -> Outcome {
        let project = self.project_file().await?;
        let name = self.msbuild_name("propertyName")?;
        let evaluation = self.evaluate(&project, &[name], &[]).await?;
        let value = evaluation.property(name).to_owned();
        let is_set = !value.is_empty();
        let summary = if is_set { format!("{name} = {value}") } else { format!("{name} is not set (empty).") };
        Ok(Reply::new(summary).structured(json!({
            "success": true,
            "action": "GetProperty",
            "projectPath": project.display().to_string(),
            "propertyName": name,
            "propertyValue": value,
            "isSet": is_set,
        })))
    }

    async fn list_items(&self) -> Outcome {
        let project = self.project_file().await?;
        let types: Vec<String> = match self.params.raw("itemType") {
            Some(_) => vec![self.msbuild_name("itemType")?.to_owned()],
            None => {
                let mut types: Vec<String> = evaluate::COMMON_ITEMS.iter().map(|name| (*name).to_owned()).collect();
                let declared = std::fs::read_to_string(&project)
                    .ok()
                    .and_then(|text| ProjectText::parse(&text).ok())
                    .map(|file| file.item_types())
                    .unwrap_or_default();
                for name in declared {
                    if MSBUILD_NAME.is_match(&name) && !types.iter().any(|known| known.eq_ignore_ascii_case(&name)) {
                        types.push(name);
                    }
                }
                types
            }
        };
        let names: Vec<&str> = types.iter().map(String::as_str).collect();
        let evaluation = self.evaluate(&project, &[], &names).await?;
        let items: Vec<Value> = names
            .iter()
            .flat_map(|item_type| evaluation.items(item_type).iter().map(|item| evaluate::item_json(item_type, item)))
            .collect();
        let lines = items
            .iter()
            .map(|item| {
                format!(
                    "{} {}",
                    item["itemType"].as_str().unwrap_or_default(),
                    item["include"].as_str().unwrap_or_default()
                )
            })
            .collect();
        let summary = format!("{} item(s) in {}.", items.len(), evaluate::project_name(&project));
        let mut structured = json!({
            "success": true,
            "action": "ListItems",
            "projectPath": project.display().to_string(),
            "itemTypes": names,
            "count": items.len(),
            "items": items,
        });
        if self.params.raw("itemType").is_some() {
            structured["itemType"] = json!(names[0]);
        }
        Ok(Reply::new(summary).section("Items", lines).structured(structured))
    }

    // --- project file edits -------------------------------------------------------------------

    /// Reads the project file, applies `edit`, writes it back when something changed; all
    /// under the project's lock.
    async fn edit(
        &self,
        edit: impl FnOnce(&ProjectText) -> projfile::Outcome,
    ) -> Result<(PathBuf, projfile::Outcome, Value), Failure> {
        let project = self.project_file().await?;
        let (_guard, lock_info) = self.lock(Some(&project)).await?;
        let with_lock =
            |error: ErrorResult| Failure { error: error.into(), extra: Some(json!({ "lockInfo": lock_info })) };
        let text = std::fs::read_to_string(&project).map_err(|error| {
            with_lock(ErrorResult::new(
                "EXIT_-1",
                &format!("The project file '{}' cannot be read: {error}", project.display()),
            ))
        })?;
        let parsed = ProjectText::parse(&text).map_err(|problem| {
            with_lock(
                ErrorResult::new(
                    "MSB4025",
                    &format!("The project file '{}' could not be loaded: {problem}", project.display()),
                )
                .with_code_details(),
            )
        })?;
        let outcome = edit(&parsed);
        if let Some(new_text) = &outcome.text {
            std::fs::write(&project, new_text).map_err(|error| {
                with_lock(ErrorResult::new(
                    "EXIT_-1",
                    &format!("The project file '{}' cannot be written: {error}", project.display()),
                ))
            })?;
        }
        Ok((project, outcome, lock_info))
    }

    async fn edit_property(&self) -> Outcome {
        let name = self.msbuild_name("propertyName")?.to_owned();
        let value = if self.action == Action::SetProperty {
            match self.params.raw("propertyValue") {
                Some(Value::String(value)) if !value.contains('\0') => Some(value.clone()),
                Some(_) => {
                    return Err(invalid(
                        "propertyValue",
                        "invalid value",
                        "Parameter 'propertyValue' must be a string without NUL characters.",
                    ));
                }
                None => {
                    return Err(invalid(
                        "propertyValue",
                        "required",
                        "Parameter 'propertyValue' is required (it may be empty).",
                    ));
                }
            }
        } else {
            None
        };
        let (project, outcome, lock_info) = self
            .edit(|file| match &value {
                Some(value) => file.set_property(&name, value),
                None => file.remove_property(&name),
            })
            .await?;
        let file_name = evaluate::project_name(&project);
        let mut structured = json!({
            "success": true,
            "action": self.action.name(),
            "projectPath": project.display().to_string(),
            "propertyName": name,
            "changed": outcome.changed > 0,
            "conditionalDefinitionsLeft": outcome.conditioned,
            "lockInfo": lock_info,
        });
        let summary = match &value {
            Some(value) => {
                structured["propertyValue"] = json!(value);
                if let Some(previous) = &outcome.previous {
                    structured["previousValue"] = json!(previous);
                }
                match (&outcome.previous, outcome.changed) {
                    (_, 0) => format!("{name} already is '{value}' in {file_name}; nothing changed."),
                    (Some(previous), _) => format!("{name} changed from '{previous}' to '{value}' in {file_name}."),
                    (None, _) => format!("{name} = '{value}' added to {file_name}."),
                }
            }
            None => {
                structured["removed"] = json!(outcome.changed);
                match outcome.changed {
                    0 => format!("{name} is not defined (without a condition) in {file_name}; nothing changed."),
                    n => format!("Removed {n} definition(s) of {name} from {file_name}."),
                }
            }
        };
        let mut note = Vec::new();
        if outcome.conditioned > 0 {
            note.push(format!("{} definition(s) under a Condition were left as they are.", outcome.conditioned));
        }
        Ok(Reply::new(summary).section("Note", note).structured(structured))
    }

    async fn edit_item(&self) -> Outcome {
        let item_type = self.msbuild_name("itemType")?.to_owned();
        let include = self.params.req("include", Kind::Path)?.to_owned();
        let mut metadata = Vec::new();
        if let Some(raw) = self.params.raw("metadata") {
            let Some(object) = raw.as_object() else {
                return Err(invalid("metadata", "invalid type", "Parameter 'metadata' must be an object of strings."));
            };
            for (key, value) in object {
                let value = value.as_str().filter(|value| !value.contains('\0')).ok_or_else(|| {
                    invalid(
                        "metadata",
                        "invalid value",
                        &format!("Parameter 'metadata': the value of '{key}' must be a string."),
                    )
                })?;
                if !MSBUILD_NAME.is_match(key) || key.eq_ignore_ascii_case("Include") {
                    return Err(invalid(
                        "metadata",
                        "invalid value",
                        &format!("Parameter 'metadata': '{key}' is not a metadata name."),
                    ));
                }
                metadata.push((key.clone(), value.to_owned()));
            }
        }
        let adding = self.action == Action::AddItem;
        let (project, outcome, lock_info) = self
            .edit(|file| {
                if adding {
                    file.add_item(&item_type, &include, &metadata)
                } else {
                    file.remove_item(&item_type, &include)
                }
            })
            .await?;
        let file_name = evaluate::project_name(&project);
        let mut structured = json!({
            "success": true,
            "action": self.action.name(),
            "projectPath": project.display().to_string(),
            "itemType": item_type,
            "include": include,
            "changed": outcome.changed > 0,
            "conditionalDefinitionsLeft": outcome.conditioned,
            "lockInfo": lock_info,
        });
        let summary = if adding {
            structured["metadata"] = Value::Object(metadata.iter().map(|(k, v)| (k.clone(), json!(v))).collect());
            match outcome.changed {
                0 => format!("{file_name} already has {item_type} '{include}'; nothing changed."),
                _ => format!("Added {item_type} '{include}' to {file_name}."),
            }
        } else {
            structured["removed"] = json!(outcome.changed);
            match outcome.changed {
                0 => format!("{file_name} has no {item_type} '{include}' (without a condition); nothing changed."),
                n => format!("Removed {n} {item_type} '{include}' from {file_name}."),
            }
        };
        Ok(Reply::new(summary).structured(structured))
    }

    // --- sessions -------------------------------------------------------------------------------

    fn session(&self) -> Result<std::sync::Arc<sessions::Session>, Failure> {
        let id = self.params.req("sessionId", Kind::Identifier)?;
        Ok(self.tool.sessions.get(id)?)
    }

    fn logs(&self) -> Outcome {
        let session = self.session()?;
        let tail = self.params.opt_u64("tailLines").unwrap_or(200).clamp(1, sessions::MAX_LINES as u64) as usize;
        let since = match self.opt("since", Kind::Text)? {
            None => None,
            Some(text) => Some(parse_since(text).ok_or_else(|| {
                invalid(
                    "since",
                    "invalid value",
                    &format!("Parameter 'since' must be an RFC 3339 time (2026-01-15T10:00:00Z) or a duration such as 30s, 5m or 1h (got '{text}')."),
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
            "success": true,
            "action": "Logs",
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
        Ok(Reply::new(summary).output(text).structured(structured))
    }

    async fn stop(&self) -> Outcome {
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
            "success": true,
            "action": "Stop",
            "sessionId": session.id,
            "status": status.as_str(),
            "wasRunning": was_running,
        });
        if let Some(code) = exit_code {
            structured["exitCode"] = json!(code);
        }
        Ok(Reply::new(summary).structured(structured))
    }

    fn list_sessions(&self) -> Reply {
        let sessions = self.tool.sessions.list();
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
            .structured(json!({ "success": true, "action": "ListSessions", "sessions": described }))
    }
}

/// `since`: an RFC 3339 time, or a duration back from now.
fn parse_since(text: &str) -> Option<SystemTime> {
    humantime::parse_rfc3339_weak(text)
        .ok()
        .or_else(|| humantime::parse_duration(text).ok().and_then(|back| SystemTime::now().checked_sub(back)))
}

/// Adds the way out to a `dotnet new` failure for an unknown template (exit code 103).
fn template_not_found(error: &mut ErrorResponse, template: &str) {
    if error.exit_code != 103 {
        return;
    }
    let first = &mut error.errors[0];
    first.hint = Some(format!("No installed template is named '{template}'."));
    first.alternatives = Some(vec![
        "List the installed templates: dotnet_sdk with action ListTemplates.".to_owned(),
        format!("Search NuGet.org for a template package: dotnet_sdk with action SearchTemplates and '{template}'."),
    ]);
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

    #[test]
    fn names_and_template_tokens() {
        assert!(MSBUILD_NAME.is_match("TargetFramework") && MSBUILD_NAME.is_match("_Private-1"));
        assert!(!MSBUILD_NAME.is_match("1st") && !MSBUILD_NAME.is_match("a.b") && !MSBUILD_NAME.is_match("a b"));
        assert!(TEMPLATE_OPTION.is_match("--use-program-main") && TEMPLATE_OPTION.is_match("--langVersion=12"));
        assert!(!TEMPLATE_OPTION.is_match("--output=/etc") && !TEMPLATE_OPTION.is_match("a;b"));
        assert!(PACKAGE_VERSION.is_match("1.2.3") && PACKAGE_VERSION.is_match("2.0.0-beta.1+sha.5"));
        assert!(!PACKAGE_VERSION.is_match("1.0;Foo=bar") && !PACKAGE_VERSION.is_match("1,2"));
    }

    #[test]
    fn diagnostics_read_as_lines() {
        let diagnostic =
            diagnostics::parse_line("/src/App/Program.cs(3,5): warning CS0168: unused [/src/App/App.csproj]").unwrap();
        assert_eq!(diagnostic_line(&diagnostic), "/src/App/Program.cs(3,5): CS0168: unused");
    }
}
