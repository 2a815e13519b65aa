//! The actions of `dotnet_project`, one file per group: creating projects (`templates`),
//! the build commands (`build`), tests (`test`), running the app and its background sessions
//! (`run`), evaluation through MSBuild (`inspect`) and project file edits (`edit`). This module
//! holds what they share: [`Act`], one call of one action, with the checked parameters, the
//! target project, locks, runs and the fields every CLI success reports.

mod build;
mod edit;
mod inspect;
mod run;
mod templates;
mod test;

use std::{
    path::{Path, PathBuf},
    sync::LazyLock,
};

use dotnet_support::{
    diagnostics::{self, Diagnostic},
    errors::{ErrorResponse, ErrorResult},
    exec::{Command, ProgressKind, Ran},
    kit::{self, ActionEnum, Call, Outcome, Reason, TargetParam},
    locking::{self, LockTarget},
    params::{Kind, Params},
    redact::redacted_command_line,
    respond::{Failure, Reply},
    workspace::{self, Target},
};
use mcp_plugin_api::{CallContext, locks::LockGuard};
use regex::Regex;
use serde_json::{Map, Value, json};

use crate::{Action, DotnetProject};

pub use build::{build_fields, build_shape, command_shape};
pub use edit::{ItemEdited, PropertyEdited};
pub use inspect::{Items, PropertyValue};
pub use run::{list_sessions_shape, logs_shape, started_shape, stop_shape};
pub use templates::TemplateOptions;
pub use test::{test_fields, test_shape};

/// MSBuild property and item names: a letter or `_`, then letters, digits, `_` and `-`.
static MSBUILD_NAME: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^[A-Za-z_][A-Za-z0-9_\-]{0,127}$").expect("name pattern is valid"));

/// Runs one checked action.
pub async fn run(family: &DotnetProject, action: Action, call: &Call<'_>) -> Outcome {
    let act = Act { call, family, params: call.params(), ctx: call.ctx(), action, cwd: call.cwd().to_owned() };
    match action {
        Action::New => act.new_project().await,
        Action::Restore => act.restore().await,
        Action::Build => act.build().await,
        Action::Run => act.run_project().await,
        Action::Test => act.test().await,
        Action::Publish => act.publish().await,
        Action::Clean => act.clean().await,
        Action::Pack => act.pack().await,
        Action::Watch => act.watch().await,
        Action::Format => act.format().await,
        Action::Analyze => inspect::analyze(call).await,
        Action::Dependencies => inspect::dependencies(call).await,
        Action::Validate => inspect::validate(call).await,
        Action::GetProperty => inspect::get_property(call).await,
        Action::SetProperty => edit::edit_property(call, edit::PropertyEdit::Set).await,
        Action::RemoveProperty => edit::edit_property(call, edit::PropertyEdit::Remove).await,
        Action::AddItem => edit::edit_item(call, edit::ItemEdit::Add).await,
        Action::RemoveItem => edit::edit_item(call, edit::ItemEdit::Remove).await,
        Action::ListItems => inspect::list_items(call).await,
        Action::ListTemplateOptions => templates::template_options(call).await,
        Action::Convert => act.convert().await,
        Action::Logs => act.logs(),
        Action::Stop => act.stop().await,
        Action::ListSessions => Ok(act.list_sessions()),
    }
}

/// The project file an evaluation or edit works on (absolute): `project` (or `projectPath`; a
/// file, or a folder with one project), else the one project in the client's roots, else the one
/// project in the working directory.
async fn project_file(call: &Call<'_>) -> Result<PathBuf, Failure> {
    let file = call.target_file(TargetParam::project().alias("projectPath")).await?;
    Ok(locking::canonical(&file))
}

/// An MSBuild property or item type name.
fn msbuild_name<'a>(call: &Call<'a>, parameter: &str) -> Result<&'a str, Failure> {
    let name = call.params().req(parameter, Kind::Identifier)?;
    if MSBUILD_NAME.is_match(name) {
        return Ok(name);
    }
    let message = format!(
        "Invalid argument '{parameter}': must be an MSBuild name: a letter or '_', then letters, digits, '_' or '-' (got '{name}')."
    );
    Err(kit::invalid(parameter, Reason::Value, message).into())
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

/// One call of one action: the kit's call, the family (its background sessions), and the
/// shorthands every action uses.
struct Act<'c, 'a> {
    call: &'c Call<'a>,
    family: &'c DotnetProject,
    params: &'c Params<'a>,
    ctx: &'a CallContext,
    action: Action,
    cwd: PathBuf,
}

impl Act<'_, '_> {
    /// An optional string parameter of `kind`.
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
                            &format!("Invalid argument '{name}': must be a string or a list of strings."),
                        )
                    })
                })
                .collect::<Result<_, _>>()?,
            Some(_) => {
                return Err(invalid(
                    name,
                    "invalid type",
                    &format!("Invalid argument '{name}': must be a string or a list of strings."),
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
                    "Invalid argument 'appArgs': contains a line break or NUL character.",
                )
                .into())
            } else {
                Ok(())
            }
        })
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

    /// Takes the host-wide lock on `target` (relative to the working directory) for the action.
    async fn lock(&self, target: Option<&Path>) -> Result<LockGuard, Failure> {
        self.call.lock(&LockTarget::for_path(target, &self.cwd)).await
    }

    /// Takes the host-wide lock on `target` for the action.
    async fn lock_target(&self, target: LockTarget) -> Result<LockGuard, Failure> {
        self.call.lock(&target).await
    }

    /// Runs `dotnet args` in `dir`.
    async fn run_in(
        &self,
        dir: &Path,
        args: Vec<String>,
        description: String,
        progress: ProgressKind,
    ) -> Result<Ran, Failure> {
        self.call.run(Command::new(args, dir, description).progress(progress)).await
    }

    /// Runs `dotnet args` in the working directory.
    async fn run(&self, args: Vec<String>, description: String, progress: ProgressKind) -> Result<Ran, Failure> {
        self.run_in(&self.cwd, args, description, progress).await
    }

    /// The structured content every CLI action shares.
    fn command_result(&self, ran: &Ran, args: &[String], summary: &str) -> Map<String, Value> {
        let found = diagnostics::summarize(ran.outcome.stdout.lines().chain(ran.outcome.stderr.lines()));
        let mut result = Map::new();
        result.insert("command".into(), json!(command_line(args)));
        result.insert("exitCode".into(), json!(ran.exit_code()));
        result.insert("summary".into(), json!(summary));
        result.insert("durationMs".into(), json!(ran.outcome.elapsed.as_millis() as u64));
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
        let _guard = self.lock(target.map(Path::new)).await?;
        let label = target.unwrap_or("the working directory");
        let description = format!("{} {label}", self.action.name());
        let ran = self.run(args.clone(), description, progress).await?;
        if !ran.succeeded() {
            return Err(ran.failure().into());
        }
        let (summary, more) = describe(&ran);
        let mut structured = self.command_result(&ran, &args, &summary);
        if let Some(target) = target {
            structured.insert("project".into(), json!(target));
        }
        structured.extend(more);
        Ok(self.command_reply(&ran, summary, structured))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn msbuild_names() {
        assert!(MSBUILD_NAME.is_match("TargetFramework") && MSBUILD_NAME.is_match("_Private-1"));
        assert!(!MSBUILD_NAME.is_match("1st") && !MSBUILD_NAME.is_match("a.b") && !MSBUILD_NAME.is_match("a b"));
    }

    #[test]
    fn diagnostics_read_as_lines() {
        let diagnostic =
            diagnostics::parse_line("/src/App/Program.cs(3,5): warning CS0168: unused [/src/App/App.csproj]").unwrap();
        assert_eq!(diagnostic_line(&diagnostic), "/src/App/Program.cs(3,5): CS0168: unused");
    }
}
