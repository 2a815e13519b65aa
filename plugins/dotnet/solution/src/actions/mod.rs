//! The actions of `dotnet_solution`: edits through the CLI (`edit`: Create, Add, Remove;
//! `migrate`: Migrate) and reading (`inspect`: List through the CLI; Analyze, Dependencies and
//! Validate from the files); and what they share: how prose names the solution, the projects
//! given, runs.

pub mod edit;
pub mod inspect;
pub mod migrate;

use dotnet_support::{
    errors::ErrorResponse,
    exec::Ran,
    kit::{Call, Reason, Split, TargetParam, invalid},
    params::Kind,
    respond::Failure,
};

/// The solution parameter, resolved by the kit (the parameter, the client's roots, the working
/// directory).
const SOLUTION: TargetParam = TargetParam::solution();

/// Most projects one Add or Remove may name.
pub const MAX_PROJECTS: usize = 256;

/// How prose names the target solution.
fn target_name(call: &Call<'_>, solution: Option<&str>) -> String {
    match solution {
        Some(solution) => solution.to_owned(),
        None => format!("the solution in {}", call.cwd().display()),
    }
}

/// The `projects` parameter by the kit's list rule: at least one project path (the kit refuses
/// a missing or empty list; a list of blank entries is refused here).
fn projects<'a>(call: &Call<'a>) -> Result<Vec<&'a str>, ErrorResponse> {
    let projects = call.params().list("projects", Kind::ProjectPath, Split::Never, MAX_PROJECTS)?;
    if projects.is_empty() {
        let message = "Invalid argument 'projects': is required and cannot be empty: a list of project files.";
        return Err(invalid("projects", Reason::Required, message));
    }
    Ok(projects)
}

/// Runs dotnet; a non-zero exit is the contract's error for it.
async fn run(call: &Call<'_>, args: Vec<String>, description: &str) -> Result<Ran, Failure> {
    call.run_ok(call.command(args, description)).await
}
