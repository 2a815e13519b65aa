//! Package references: Add, Update and Remove, under the project lock.

use dotnet_support::{
    exec::ProgressKind,
    kit::{Call, Outcome, Shape},
    params::Kind,
    respond::Reply,
    workspace::Target,
};
use serde_json::json;

use super::{fields_of, lock_project, notes, project, run, target_name, version_before, with_common};
use crate::{
    Action,
    command::{self, AddPackage},
    parse,
};

/// Add and Update: the package, the version asked for, the one written and the one before.
pub fn added_shape() -> Shape {
    Shape::new(
        with_common(json!({
            "packageId": { "type": "string" },
            "requestedVersion": { "type": "string", "description": "The version or range asked for." },
            "version": { "type": "string", "description": "The version written to the project." },
            "previousVersion": { "type": "string", "description": "Update: the version the project file had." },
            "projectFile": { "type": "string", "description": "The project file the reference went into." }
        })),
        &["packageId", "command", "lockInfo"],
    )
}

/// Remove: the package removed.
pub fn removed_shape() -> Shape {
    Shape::new(with_common(json!({ "packageId": { "type": "string" } })), &["packageId", "command", "lockInfo"])
}

/// Add and Update: `add [<project>] package <id> ...` under the project lock.
pub async fn add(action: Action, call: &Call<'_>) -> Outcome {
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
    let project = project(call, Target::Project).await?;
    let update = action == Action::Update;
    let previous = if update { version_before(call, project.as_deref(), id) } else { None };
    let _guard = lock_project(call, project.as_deref()).await?;
    let args = command::add_package(&AddPackage { project: project.as_deref(), ..add });
    let verb = if update { "updating" } else { "adding" };
    let ran = run(call, args, &format!("{verb} package {id}"), ProgressKind::Lines).await?;
    let added = parse::added(&ran.outcome.stdout);
    let target = added.project_file.clone().unwrap_or_else(|| target_name(call, project.as_deref()));
    let written = added.version.clone().map_or_else(|| "its latest version".to_owned(), |v| format!("version {v}"));
    let summary = match (update, &previous) {
        (false, _) => format!("Added package {id} {written} to {target}."),
        (true, Some(previous)) => format!("Updated package {id} from {previous} to {written} in {target}."),
        (true, None) => {
            format!("Updated package {id} to {written} in {target} (the project file named no earlier version of it).")
        }
    };
    let notes = notes(&ran.outcome.stdout, &ran.outcome.stderr);
    let structured = fields_of(
        &ran,
        json!({
            "project": project,
            "packageId": id,
            "requestedVersion": version,
            "version": added.version,
            "previousVersion": previous,
            "projectFile": added.project_file,
        }),
    );
    Ok(Reply::new(summary).section("Notes", notes).output(ran.outcome.stdout.clone()).structured(structured))
}

/// Remove: `remove [<project>] package <id>` under the project lock.
pub async fn remove(call: &Call<'_>) -> Outcome {
    let id = call.params().req("packageId", Kind::PackageId)?;
    let project = project(call, Target::Project).await?;
    let _guard = lock_project(call, project.as_deref()).await?;
    let args = command::remove_package(project.as_deref(), id);
    let ran = run(call, args, &format!("removing package {id}"), ProgressKind::None).await?;
    let summary = format!("Removed package {id} from {}.", target_name(call, project.as_deref()));
    let structured = fields_of(&ran, json!({ "project": project, "packageId": id }));
    Ok(Reply::new(summary).output(ran.outcome.stdout.clone()).structured(structured))
}
