//! Project references: AddReference and RemoveReference, under the project lock.

use dotnet_support::{
    exec::ProgressKind,
    kit::{Call, Outcome, Shape},
    params::Kind,
    respond::Reply,
    workspace::Target,
};
use serde_json::json;

use super::{fields_of, lock_project, project, run, strings, target_name, with_common};
use crate::{Action, command};

/// AddReference and RemoveReference: the reference changed.
pub fn shape() -> Shape {
    Shape::new(with_common(json!({ "references": strings() })), &["references", "command", "lockInfo"])
}

/// AddReference and RemoveReference: `add|remove [<project>] reference <path>` under the
/// project lock.
pub async fn edit_reference(action: Action, call: &Call<'_>) -> Outcome {
    let reference = call.params().req("referencePath", Kind::ProjectPath)?;
    let project = project(call, Target::Project).await?;
    let _guard = lock_project(call, project.as_deref()).await?;
    let (verb, done) = match action {
        Action::AddReference => ("add", "Added a reference to"),
        _ => ("remove", "Removed the reference to"),
    };
    let args = command::reference(verb, project.as_deref(), Some(reference));
    let description = format!("{verb} reference {reference}");
    let ran = run(call, args, &description, ProgressKind::None).await?;
    let summary = format!("{done} {reference} in {}.", target_name(call, project.as_deref()));
    let structured = fields_of(&ran, json!({ "project": project, "references": [reference] }));
    Ok(Reply::new(summary).output(ran.outcome.stdout.clone()).structured(structured))
}
