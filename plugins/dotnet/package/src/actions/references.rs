//! Project references: AddReference and RemoveReference, under the project lock, and
//! ListReferences.

use dotnet_support::{
    exec::ProgressKind,
    kit::{Call, Outcome, TargetParam, prose},
    params::Kind,
    respond::Reply,
};
use schemars::JsonSchema;
use serde::Serialize;

use super::{lock_project, run, target_name};
use crate::{command, parse};

// AddReference and RemoveReference: the reference changed; ListReferences: every reference.
// `project` as passed to the CLI, absent for the working directory's.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Referenced {
    #[serde(skip_serializing_if = "Option::is_none")]
    project: Option<String>,
    references: Vec<String>,
}

/// What AddReference and RemoveReference do to the reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edit {
    /// `add reference`.
    Add,
    /// `remove reference`.
    Remove,
}

/// AddReference and RemoveReference: `add|remove [<project>] reference <path>` under the
/// project lock.
pub async fn edit(edit: Edit, call: &Call<'_>) -> Outcome {
    let reference = call.params().req("referencePath", Kind::ProjectPath)?;
    let project = call.cli_target(TargetParam::project()).await?;
    let _guard = lock_project(call, project.as_deref()).await?;
    let (verb, done) = match edit {
        Edit::Add => ("add", "Added a reference to"),
        Edit::Remove => ("remove", "Removed the reference to"),
    };
    let args = command::reference(verb, project.as_deref(), Some(reference));
    let description = format!("{verb} reference {reference}");
    let ran = run(call, args, &description, ProgressKind::None).await?;
    let summary = format!("{done} {reference} in {}.", target_name(call, project.as_deref()));
    let references = vec![reference.to_owned()];
    Ok(Reply::new(summary).output(ran.outcome.stdout.clone()).result(Referenced { project, references }))
}

/// ListReferences: `list [<project>] reference`.
pub async fn list(call: &Call<'_>) -> Outcome {
    let project = call.cli_target(TargetParam::project()).await?;
    let args = command::reference("list", project.as_deref(), None);
    let ran = run(call, args, "listing project references", ProgressKind::None).await?;
    let references = parse::listed_paths(&ran.outcome.stdout);
    let target = prose::sentence_start(&target_name(call, project.as_deref()));
    let summary = match references.len() {
        0 => format!("{target} has no project references."),
        count => format!("{target} references {}.", prose::count(count, "project")),
    };
    Ok(Reply::new(summary).section("References", references.clone()).result(Referenced { project, references }))
}
