//! Edits through the CLI: Create, Add and Remove, each under the lock of the solution it writes.

use std::path::Path;

use dotnet_support::{
    kit::{Call, Consent, Outcome, Reason, invalid, prose::count},
    locking::{LockTarget, canonical},
    params::Kind,
    respond::Reply,
};
use mcp_plugin_api::locks::LockScope;
use schemars::JsonSchema;
use serde::Serialize;

use super::{SOLUTION, projects, run, target_name};
use crate::{
    command::{self, Placement},
    solution_file::Format,
};

// Create: the solution created. (The result types carry no description: the action names them.)
#[derive(Debug, Serialize, JsonSchema)]
pub struct Created {
    name: String,
    /// The file created, when its format is known.
    #[serde(skip_serializing_if = "Option::is_none")]
    solution: Option<String>,
    // Absent, never null: the schema is the format's own.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Format")]
    format: Option<Format>,
}

// Add: the projects added; `solution` as given or found in the client's roots, absent when
// dotnet picked the one in the working directory.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Added {
    #[serde(skip_serializing_if = "Option::is_none")]
    solution: Option<String>,
    projects: Vec<String>,
    added: Vec<String>,
}

// Remove: the projects removed or not found, and whether the user confirmed; `solution` as for
// Add.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Removed {
    #[serde(skip_serializing_if = "Option::is_none")]
    solution: Option<String>,
    projects: Vec<String>,
    removed: Vec<String>,
    not_found: Vec<String>,
    /// Whether the user confirmed through elicitation, or the client cannot be asked.
    confirmation: Consent,
}

fn owned(items: &[&str]) -> Vec<String> {
    items.iter().map(|item| (*item).to_owned()).collect()
}

/// Create: `new sln -n <name> [-o <output>] [--format <f>]`, locking the file it will write (or
/// the folder, when the SDK chooses the format).
pub async fn create(call: &Call<'_>) -> Outcome {
    let name = call.params().req("name", Kind::Text)?;
    let output = call.params().opt("output", Kind::Path)?;
    let format = match call.params().opt("format", Kind::Identifier)? {
        None => None,
        Some(format) if format.eq_ignore_ascii_case("sln") => Some(Format::Sln),
        Some(format) if format.eq_ignore_ascii_case("slnx") => Some(Format::Slnx),
        Some(other) => {
            let message = format!("Invalid argument 'format': must be sln or slnx (got '{other}').");
            return Err(invalid("format", Reason::Value, message).into());
        }
    };
    let folder = call.cwd().join(output.unwrap_or_default());
    let file = |format: Format| folder.join(format!("{name}.{}", format.as_str()));
    let target = match format {
        Some(format) => LockTarget::for_path(Some(&file(format)), call.cwd()),
        None => LockTarget { scope: LockScope::WorkingDirectory, key: canonical(&folder).display().to_string() },
    };
    let _guard = call.lock(&target).await?;
    let args = command::create(name, output, format.map(Format::as_str));
    let ran = run(call, args, &format!("creating solution {name}")).await?;
    // The file the SDK wrote: the asked format, else whichever exists now.
    let created = match format {
        Some(format) => Some((file(format), format)),
        None => [Format::Slnx, Format::Sln]
            .into_iter()
            .map(|format| (file(format), format))
            .find(|(path, _)| path.is_file()),
    };
    let summary = match &created {
        Some((path, _)) => format!("Created solution {}.", path.display()),
        None => format!("Created solution '{name}' in {}.", folder.display()),
    };
    Ok(Reply::new(summary).output(ran.outcome.stdout.clone()).result(Created {
        name: name.to_owned(),
        solution: created.as_ref().map(|(path, _)| path.display().to_string()),
        format: created.map(|(_, format)| format),
    }))
}

/// Add: `sln [<solution>] add <projects...>`, under the solution's lock.
pub async fn add(call: &Call<'_>) -> Outcome {
    let projects = projects(call)?;
    let folder = call.params().opt("solutionFolder", Kind::Path)?;
    let placement = match (folder, call.params().flag("inRoot")) {
        (Some(_), true) => {
            let message = "Give either 'solutionFolder' or 'inRoot', not both.";
            return Err(invalid("inRoot", Reason::Conflict, message).into());
        }
        (Some(folder), false) => Placement::Folder(folder),
        (None, true) => Placement::Root,
        (None, false) => Placement::Default,
    };
    let solution = call.cli_target(SOLUTION).await?;
    let _guard = call.lock(&LockTarget::for_path(solution.as_deref().map(Path::new), call.cwd())).await?;
    let args = command::add(solution.as_deref(), &projects, placement);
    let ran = run(call, args, "adding projects to the solution").await?;
    let added = command::projects_reported(&ran.outcome.stdout, "added to the solution.");
    let target = target_name(call, solution.as_deref());
    let summary = match added.len() {
        0 => format!("No project was added to {target}."),
        added_count => format!("Added {} to {target}: {}.", count(added_count, "project"), added.join(", ")),
    };
    Ok(Reply::new(summary).output(ran.outcome.stdout.clone()).result(Added {
        solution,
        projects: owned(&projects),
        added,
    }))
}

/// Remove: `sln [<solution>] remove <projects...>`, after the user confirms, under the
/// solution's lock.
pub async fn remove(call: &Call<'_>) -> Outcome {
    let projects = projects(call)?;
    let solution = call.cli_target(SOLUTION).await?;
    let target = target_name(call, solution.as_deref());
    let question = format!(
        "Remove {} from {target}? The project files stay on disk; the solution stops listing them.",
        projects.join(", ")
    );
    let confirmation = call.confirm(&question, &target).await?;
    let _guard = call.lock(&LockTarget::for_path(solution.as_deref().map(Path::new), call.cwd())).await?;
    let args = command::remove(solution.as_deref(), &projects);
    let ran = run(call, args, "removing projects from the solution").await?;
    let removed = command::projects_reported(&ran.outcome.stdout, "removed from the solution.");
    let not_found = command::projects_reported(&ran.outcome.stdout, "could not be found in the solution.");
    let mut summary = match removed.len() {
        0 => format!("No project was removed from {target}."),
        removed_count => {
            format!("Removed {} from {target}: {}.", count(removed_count, "project"), removed.join(", "))
        }
    };
    if !not_found.is_empty() {
        summary.push_str(&format!(" Not in the solution: {}.", not_found.join(", ")));
    }
    Ok(Reply::new(summary).result(Removed { solution, projects: owned(&projects), removed, not_found, confirmation }))
}
