//! Edits through the CLI: Create, Add and Remove, each under the lock of the solution it writes.

use std::path::Path;

use dotnet_support::{
    kit::{Call, Outcome, Shape},
    locking::{LockTarget, canonical, lock_info_schema},
    params::Kind,
    respond::Reply,
};
use mcp_plugin_api::locks::LockScope;
use serde_json::{Value, json};

use super::{fields_of, invalid, plural, projects, run, solution_for_cli, target_name};
use crate::command::{self, Placement};

fn string() -> Value {
    json!({ "type": "string" })
}

fn strings() -> Value {
    json!({ "type": "array", "items": { "type": "string" } })
}

/// Create: the solution created.
pub fn created_shape() -> Shape {
    Shape::new(
        json!({
            "name": string(),
            "solution": { "type": "string", "description": "The file created, when its format is known." },
            "format": { "type": "string", "enum": ["sln", "slnx"] },
            "command": string(),
            "lockInfo": lock_info_schema()
        }),
        &["name", "command", "lockInfo"],
    )
}

/// Add: the projects added.
pub fn added_shape() -> Shape {
    Shape::new(
        json!({
            "solution": string(), "projects": strings(), "added": strings(), "command": string(),
            "lockInfo": lock_info_schema()
        }),
        &["projects", "added", "command", "lockInfo"],
    )
}

/// Remove: the projects removed or not found, and whether the user confirmed.
pub fn removed_shape() -> Shape {
    Shape::new(
        json!({
            "solution": string(),
            "projects": strings(),
            "removed": strings(),
            "notFound": strings(),
            "confirmation": {
                "type": "string",
                "enum": ["confirmed", "notAsked"],
                "description": "Whether the user confirmed through elicitation, or the client cannot be asked."
            },
            "command": string(),
            "lockInfo": lock_info_schema()
        }),
        &["projects", "removed", "notFound", "confirmation", "command", "lockInfo"],
    )
}

/// Create: `new sln -n <name> [-o <output>] [--format <f>]`, locking the file it will write (or
/// the folder, when the SDK chooses the format).
pub async fn create(call: &Call<'_>) -> Outcome {
    let name = call.params().req("name", Kind::Text)?;
    let output = call.params().opt("output", Kind::Path)?;
    let format = match call.params().opt("format", Kind::Identifier)? {
        None => None,
        Some(format) if format.eq_ignore_ascii_case("sln") => Some("sln"),
        Some(format) if format.eq_ignore_ascii_case("slnx") => Some("slnx"),
        Some(other) => {
            let message = format!("Invalid argument 'format': must be sln or slnx (got '{other}').");
            return Err(invalid("format", "invalid value", &message).into());
        }
    };
    let folder = call.cwd().join(output.unwrap_or_default());
    let target = match format {
        Some(format) => LockTarget::for_path(Some(&folder.join(format!("{name}.{format}"))), call.cwd()),
        None => LockTarget { scope: LockScope::WorkingDirectory, key: canonical(&folder).display().to_string() },
    };
    let _guard = call.lock(&target).await?;
    let ran = run(call, command::create(name, output, format), &format!("creating solution {name}")).await?;
    // The file the SDK wrote: the asked format, else whichever exists now.
    let created = match format {
        Some(format) => Some((folder.join(format!("{name}.{format}")), format)),
        None => ["slnx", "sln"]
            .into_iter()
            .map(|format| (folder.join(format!("{name}.{format}")), format))
            .find(|(path, _)| path.is_file()),
    };
    let summary = match &created {
        Some((path, _)) => format!("Created solution {}.", path.display()),
        None => format!("Created solution '{name}' in {}.", folder.display()),
    };
    let structured = fields_of(
        Some(&ran),
        json!({
            "name": name,
            "solution": created.as_ref().map(|(path, _)| path.display().to_string()),
            "format": created.as_ref().map(|(_, format)| *format),
        }),
    );
    Ok(Reply::new(summary).output(ran.outcome.stdout.clone()).structured(structured))
}

/// Add: `sln [<solution>] add <projects...>`, under the solution's lock.
pub async fn add(call: &Call<'_>) -> Outcome {
    let projects = projects(call)?;
    let folder = call.params().opt("solutionFolder", Kind::Path)?;
    let placement = match (folder, call.params().flag("inRoot")) {
        (Some(_), true) => {
            let message = "Give either 'solutionFolder' or 'inRoot', not both.";
            return Err(invalid("inRoot", "conflict", message).into());
        }
        (Some(folder), false) => Placement::Folder(folder),
        (None, true) => Placement::Root,
        (None, false) => Placement::Default,
    };
    let solution = solution_for_cli(call).await?;
    let _guard = call.lock(&LockTarget::for_path(solution.as_deref().map(Path::new), call.cwd())).await?;
    let args = command::add(solution.as_deref(), &projects, placement);
    let ran = run(call, args, "adding projects to the solution").await?;
    let added = command::projects_reported(&ran.outcome.stdout, "added to the solution.");
    let target = target_name(call, solution.as_deref());
    let summary = match added.len() {
        0 => format!("No project was added to {target}."),
        count => format!("Added {} to {target}: {}.", plural(count, "project", "projects"), added.join(", ")),
    };
    let structured = fields_of(Some(&ran), json!({ "solution": solution, "projects": projects, "added": added }));
    Ok(Reply::new(summary).output(ran.outcome.stdout.clone()).structured(structured))
}

/// Remove: `sln [<solution>] remove <projects...>`, after the user confirms, under the
/// solution's lock.
pub async fn remove(call: &Call<'_>) -> Outcome {
    let projects = projects(call)?;
    let solution = solution_for_cli(call).await?;
    let target = target_name(call, solution.as_deref());
    let question = format!(
        "Remove {} from {target}? The project files stay on disk; the solution stops listing them.",
        projects.join(", ")
    );
    let confirmation = call.confirm(&question, &target).await?.as_str();
    let _guard = call.lock(&LockTarget::for_path(solution.as_deref().map(Path::new), call.cwd())).await?;
    let args = command::remove(solution.as_deref(), &projects);
    let ran = run(call, args, "removing projects from the solution").await?;
    let removed = command::projects_reported(&ran.outcome.stdout, "removed from the solution.");
    let not_found = command::projects_reported(&ran.outcome.stdout, "could not be found in the solution.");
    let mut summary = match removed.len() {
        0 => format!("No project was removed from {target}."),
        count => format!("Removed {} from {target}: {}.", plural(count, "project", "projects"), removed.join(", ")),
    };
    if !not_found.is_empty() {
        summary.push_str(&format!(" Not in the solution: {}.", not_found.join(", ")));
    }
    let structured = fields_of(
        Some(&ran),
        json!({
            "solution": solution,
            "projects": projects,
            "removed": removed,
            "notFound": not_found,
            "confirmation": confirmation,
        }),
    );
    Ok(Reply::new(summary).structured(structured))
}
