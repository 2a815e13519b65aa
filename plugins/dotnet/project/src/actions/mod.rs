//! The actions of `dotnet_project`, one file per group: creating projects (`templates`),
//! the build commands (`build`), tests (`test`), running the app and its background sessions
//! (`run`), evaluation through MSBuild (`inspect`) and project file edits (`edit`). Each action is
//! a function over the kit's [`Call`]; this module holds what they share: the target, the
//! options every build command passes alike, and the result of a command that ran.

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
    diagnostics::{self, Diagnostic, DiagnosticSummary},
    exec::{ProgressKind, Ran},
    kit::{Call, Outcome, Reason, TargetParam, invalid},
    locking::{self, LockTarget},
    params::Kind,
    respond::{Failure, Reply},
};
use mcp_plugin_api::locks::LockGuard;
use regex::Regex;

use crate::{Action, DotnetProject};

pub use build::{BuildCounts, Built, Completed, Made};
pub use edit::{ItemEdited, PropertyEdited};
pub use inspect::{Items, PropertyValue};
pub use run::{Logs, RunResult, SessionList, Started, Stopped};
pub use templates::TemplateOptions;
pub use test::{TestCounts, Tested};

/// MSBuild property and item names: a letter or `_`, then letters, digits, `_` and `-`.
static MSBUILD_NAME: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^[A-Za-z_][A-Za-z0-9_\-]{0,127}$").expect("name pattern is valid"));

/// What a dotnet command works on: `project` (or `projectPath`), a project, a solution or a
/// file-based app; without it the one project or solution in the client's roots.
const TARGET: TargetParam = TargetParam::project().or_solution().alias("projectPath");

/// At most this many entries in `appArgs`, `additionalOptions` and `diagnostics`.
const MAX_LIST: usize = 256;

/// Runs one checked action.
pub async fn run(family: &DotnetProject, action: Action, call: &Call<'_>) -> Outcome {
    match action {
        Action::New => templates::new_project(call).await,
        Action::Restore => build::restore(call).await,
        Action::Build => build::build(call).await,
        Action::Run => run::run_project(family, call).await,
        Action::Test => test::test(call).await,
        Action::Publish => build::publish(call).await,
        Action::Clean => build::clean(call).await,
        Action::Pack => build::pack(call).await,
        Action::Watch => run::watch(family, call).await,
        Action::Format => build::format(call).await,
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
        Action::Convert => templates::convert(call).await,
        Action::Logs => run::logs(family, call),
        Action::Stop => run::stop(family, call).await,
        Action::ListSessions => Ok(run::list_sessions(family)),
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
    Err(invalid(parameter, Reason::Value, message).into())
}

/// `appArgs`: the application's arguments, passed after `--` (dotnet never reads them).
fn app_args(call: &Call<'_>) -> Result<Vec<String>, Failure> {
    let args = call.params().list("appArgs", Kind::Argument, dotnet_support::kit::Split::Whitespace, MAX_LIST)?;
    Ok(args.into_iter().map(str::to_owned).collect())
}

/// Pushes `flag value` when the parameter is set.
fn push(call: &Call<'_>, args: &mut Vec<String>, flag: &str, name: &str, kind: Kind) -> Result<(), Failure> {
    if let Some(value) = call.params().opt(name, kind)? {
        args.extend([flag.to_owned(), value.to_owned()]);
    }
    Ok(())
}

/// Pushes `flag` when the boolean parameter is true.
fn push_flag(call: &Call<'_>, args: &mut Vec<String>, flag: &str, name: &str) {
    if call.params().flag(name) {
        args.push(flag.to_owned());
    }
}

/// `-c`, `-f`, `-r`, `-v` in this order, when set and named.
fn build_options(call: &Call<'_>, args: &mut Vec<String>, names: &[&str]) -> Result<(), Failure> {
    for (flag, name, kind) in [
        ("-c", "configuration", Kind::Configuration),
        ("-f", "framework", Kind::Framework),
        ("-r", "runtime", Kind::Runtime),
        ("-v", "verbosity", Kind::Verbosity),
    ] {
        if names.contains(&name) {
            push(call, args, flag, name, kind)?;
        }
    }
    Ok(())
}

/// Takes the host-wide lock on `target` (relative to the working directory) for the action.
async fn lock(call: &Call<'_>, target: Option<&Path>) -> Result<LockGuard, Failure> {
    call.lock(&LockTarget::for_path(target, call.cwd())).await
}

/// Runs `dotnet args` in `dir`.
async fn run_in(
    call: &Call<'_>,
    dir: &Path,
    args: Vec<String>,
    description: String,
    progress: ProgressKind,
) -> Result<Ran, Failure> {
    call.run(dotnet_support::exec::Command::new(args, dir, description).progress(progress)).await
}

/// Runs `dotnet args` in the working directory.
async fn run_here(
    call: &Call<'_>,
    args: Vec<String>,
    description: String,
    progress: ProgressKind,
) -> Result<Ran, Failure> {
    run_in(call, call.cwd(), args, description, progress).await
}

/// The errors and warnings a command printed, on either stream, with MSBuild's counts.
fn diagnostics_of(ran: &Ran) -> DiagnosticSummary {
    diagnostics::summarize(ran.outcome.stdout.lines().chain(ran.outcome.stderr.lines()))
}

/// The result of a command that ran: its summary, duration and warnings, the target, and what
/// the action made of it ([`Made`]).
fn completed(ran: &Ran, summary: String, project: Option<&str>, made: Made) -> Completed {
    let found = diagnostics_of(ran);
    Completed {
        summary,
        duration_ms: ran.outcome.elapsed.as_millis() as i64,
        project: project.map(str::to_owned),
        warning_count: found.warning_count as i64,
        warnings: found.warnings,
        made,
    }
}

/// A reply for a command that succeeded: its summary and its warnings. The caller attaches the
/// output, read whole ([`Reply::read_output`]) or not ([`Reply::output`]).
fn command_reply(result: Completed) -> Reply {
    let warnings = result.warnings.iter().map(Diagnostic::line).collect();
    Reply::new(result.summary.clone()).section("Warnings", warnings).result(result)
}

/// A build command that runs once under the project lock and answers with [`Completed`]:
/// `describe` gives the summary and what the action made of the run.
async fn simple(
    call: &Call<'_>,
    args: Vec<String>,
    target: Option<&str>,
    progress: ProgressKind,
    describe: impl FnOnce(&Ran) -> (String, Made),
) -> Outcome {
    let _guard = lock(call, target.map(Path::new)).await?;
    let label = target.unwrap_or("the working directory");
    let description = format!("{} {label}", call.action_name());
    let ran = run_here(call, args, description, progress).await?;
    if !ran.succeeded() {
        return Err(ran.failure().into());
    }
    let (summary, made) = describe(&ran);
    // Each caller reads what its command prints (restored projects, published folders, packages)
    // and `completed` reads every line for warnings: the reply says it all.
    Ok(command_reply(completed(&ran, summary, target, made)).output(ran.outcome.transcript.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn msbuild_names() {
        assert!(MSBUILD_NAME.is_match("TargetFramework") && MSBUILD_NAME.is_match("_Private-1"));
        assert!(!MSBUILD_NAME.is_match("1st") && !MSBUILD_NAME.is_match("a.b") && !MSBUILD_NAME.is_match("a b"));
    }
}
