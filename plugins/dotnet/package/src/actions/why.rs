//! Why: `dotnet nuget why`, the paths through which a package (often a transitive one) enters a
//! project's dependency graph, per target framework.

use dotnet_support::{
    errors::{ErrorData, ErrorResponse, ErrorResult},
    exec::ProgressKind,
    kit::{Call, Outcome, TargetParam, prose::count},
    params::Kind,
    respond::Reply,
};
use schemars::JsonSchema;
use serde::Serialize;

use super::{of_run, run_any, target_name};
use crate::{
    command,
    paths::{self, ProjectGraph, Step},
};

/// What NuGet prints, exit code 0, for a project it was never restored: the action's error.
const NOT_RESTORED: &str = "No assets file was found";

/// Why: the paths that bring the package in, per project and target framework.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Explained {
    /// The package asked about.
    package_id: String,
    /// The project or solution asked about; absent for the working directory's.
    #[serde(skip_serializing_if = "Option::is_none")]
    project: Option<String>,
    /// The target framework asked about, when one was.
    #[serde(skip_serializing_if = "Option::is_none")]
    framework: Option<String>,
    /// Whether any project's graph holds the package.
    depends: bool,
    /// Each project NuGet looked at (every project of a solution), with its paths.
    projects: Vec<ProjectGraph>,
    /// NuGet's other messages, such as a framework the project's assets file lacks.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    warnings: Vec<String>,
}

/// A path in prose: `App > xunit 2.9.3 > xunit.core 2.9.3`.
fn describe(path: &[Step]) -> String {
    let steps: Vec<String> = path
        .iter()
        .map(|step| match &step.version {
            Some(version) => format!("{} {version}", step.id),
            None => step.id.clone(),
        })
        .collect();
    steps.join(" > ")
}

/// Runs Why.
pub async fn why(call: &Call<'_>) -> Outcome {
    let package = call.params().req("packageId", Kind::Identifier)?;
    let framework = call.params().opt("framework", Kind::Framework)?;
    let project = call.cli_target(TargetParam::project().or_solution()).await?;
    let args = command::why(project.as_deref(), package, framework);
    let ran = run_any(call, args, &format!("explaining why {package} is a dependency"), ProgressKind::None).await?;
    // NuGet colours its text even into a pipe: nothing it printed reaches the client with escapes.
    let plain = |text: &str| paths::without_escapes(text);
    if !ran.succeeded() {
        let (stdout, stderr) = (plain(&ran.outcome.stdout), plain(&ran.outcome.stderr));
        return Err(ErrorResponse::from_failed_run(&ran.argv, ran.exit_code(), &stdout, &stderr).into());
    }
    let transcript = plain(&ran.outcome.transcript);
    let read = paths::read(&ran.outcome.stdout, package);
    if read.projects.is_empty()
        && let Some(message) = read.messages.iter().find(|message| message.contains(NOT_RESTORED))
    {
        let error = ErrorResult::new("NETSDK1004", message).with_code_details().with_data(ErrorData::default());
        let mut response = of_run(&ran, error);
        response.errors[0].raw_output = transcript;
        return Err(response.into());
    }
    let depends = read.projects.iter().any(|graph| graph.depends);
    let mut lines = Vec::new();
    for graph in &read.projects {
        if !graph.depends {
            lines.push(format!("{}: no dependency on {package}", graph.project));
        }
        for framework in &graph.frameworks {
            match framework.paths.as_slice() {
                [] => lines.push(format!("{} [{}]: none", graph.project, framework.framework)),
                paths => lines.extend(paths.iter().map(|path| format!("[{}] {}", framework.framework, describe(path)))),
            }
        }
    }
    let target = target_name(call, project.as_deref());
    let paths: usize =
        read.projects.iter().flat_map(|graph| &graph.frameworks).map(|framework| framework.paths.len()).sum();
    let summary = match depends {
        true => format!("{package} is in the dependency graph of {target} through {}.", count(paths, "path")),
        false => format!("{package} is not in the dependency graph of {target}."),
    };
    Ok(Reply::new(summary)
        .section("Paths", lines)
        .section("Warnings", read.messages.clone())
        .output(transcript)
        .result(Explained {
            package_id: package.to_owned(),
            project,
            framework: framework.map(str::to_owned),
            depends,
            projects: read.projects,
            warnings: read.messages,
        }))
}
