//! Package references: Add, Update and Remove, under the project lock.

use dotnet_support::{
    exec::ProgressKind,
    kit::{Call, Outcome, TargetParam},
    params::Kind,
    project_file,
    respond::Reply,
};
use schemars::JsonSchema;
use serde::Serialize;

use super::{lock_project, notes, restore_failed, run, target_name};
use crate::{
    command::{self, AddPackage},
    parse,
};

// Add and Update: the package, the version asked for, the one written and the one before.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Added {
    // The project as passed to the CLI; absent for the working directory's.
    #[serde(skip_serializing_if = "Option::is_none")]
    project: Option<String>,
    package_id: String,
    /// The version or range asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    requested_version: Option<String>,
    /// The version written to the project.
    #[serde(skip_serializing_if = "Option::is_none")]
    version: Option<String>,
    /// Update: the version the project file had.
    #[serde(skip_serializing_if = "Option::is_none")]
    previous_version: Option<String>,
    /// The project file the reference went into.
    #[serde(skip_serializing_if = "Option::is_none")]
    project_file: Option<String>,
    /// Whether the restore after writing the reference failed (`add package` exits 0 then, and
    /// the project does not build until it is fixed).
    restore_failed: bool,
}

// Remove: the package removed.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Removed {
    #[serde(skip_serializing_if = "Option::is_none")]
    project: Option<String>,
    package_id: String,
}

/// What `add package` does for the caller: Add a reference, or Update one (which also reports
/// the version the project file had).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// A new reference.
    Add,
    /// Another version of a reference.
    Update,
}

/// Add and Update: `add [<project>] package <id> ...` under the project lock.
pub async fn add(change: Change, call: &Call<'_>) -> Outcome {
    let params = call.params();
    let id = params.req("packageId", Kind::PackageId)?;
    let version = params.opt("version", Kind::Version)?;
    let add = AddPackage {
        project: None,
        id,
        version,
        prerelease: params.flag("prerelease"),
        source: params.opt("source", Kind::Text)?,
        framework: params.opt("framework", Kind::Framework)?,
        no_restore: params.flag("noRestore"),
    };
    let project = call.cli_target(TargetParam::project()).await?;
    let previous = match change {
        Change::Add => None,
        Change::Update => version_before(call, id).await,
    };
    let _guard = lock_project(call, project.as_deref()).await?;
    let args = command::add_package(&AddPackage { project: project.as_deref(), ..add });
    let verb = match change {
        Change::Add => "adding",
        Change::Update => "updating",
    };
    let ran = run(call, args, &format!("{verb} package {id}"), ProgressKind::Lines).await?;
    let added = parse::added(&ran.outcome.stdout);
    let target = added.project_file.clone().unwrap_or_else(|| target_name(call, project.as_deref()));
    let written = added.version.clone().map_or_else(|| "its latest version".to_owned(), |v| format!("version {v}"));
    let mut summary = match (change, &previous) {
        (Change::Add, _) => format!("Added package {id} {written} to {target}."),
        (Change::Update, Some(previous)) => format!("Updated package {id} from {previous} to {written} in {target}."),
        (Change::Update, None) => {
            format!("Updated package {id} to {written} in {target} (the project file named no earlier version of it).")
        }
    };
    let notes = notes(&ran.outcome.stdout, &ran.outcome.stderr);
    let restore_failed = restore_failed(&notes);
    if restore_failed {
        summary.push_str(" The restore after it failed (see Notes): the project does not build until that is fixed.");
    }
    Ok(Reply::new(summary).section("Notes", notes).output(ran.outcome.stdout.clone()).result(Added {
        project,
        package_id: id.to_owned(),
        requested_version: version.map(str::to_owned),
        version: added.version,
        previous_version: previous,
        project_file: added.project_file,
        restore_failed,
    }))
}

/// The version of `id` the project file names before an update, when it names one (a lenient
/// look-up: no project file to read is no earlier version).
async fn version_before(call: &Call<'_>, id: &str) -> Option<String> {
    let file = call.target_file(TargetParam::project()).await.ok()?;
    project_file::read(&file).ok()?.package(id)?.version.clone()
}

/// Remove: `remove [<project>] package <id>` under the project lock.
pub async fn remove(call: &Call<'_>) -> Outcome {
    let id = call.params().req("packageId", Kind::PackageId)?;
    let project = call.cli_target(TargetParam::project()).await?;
    let _guard = lock_project(call, project.as_deref()).await?;
    let args = command::remove_package(project.as_deref(), id);
    let ran = run(call, args, &format!("removing package {id}"), ProgressKind::None).await?;
    let summary = format!("Removed package {id} from {}.", target_name(call, project.as_deref()));
    Ok(Reply::new(summary).output(ran.outcome.stdout.clone()).result(Removed { project, package_id: id.to_owned() }))
}
