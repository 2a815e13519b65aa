//! Reading: List through the CLI; Analyze, Dependencies and Validate from the solution and
//! project files themselves (module `analysis`), with no SDK needed and nothing changed.

use std::collections::BTreeMap;
use std::path::Path;

use dotnet_support::{
    errors::ErrorResponse,
    kit::{
        Call, Outcome, Reason, invalid,
        prose::{count, sentence_start},
    },
    respond::Reply,
};
use schemars::JsonSchema;
use serde::Serialize;

use super::{SOLUTION, run, target_name};
use crate::{
    analysis::{
        AnalyzedProject, Edge, FrameworkUse, Graph, GraphProject, Issue, Language, Severity, SharedPackage, Solution,
        VersionConflict,
    },
    command,
    solution_file::Format,
};

// List: the projects the solution lists; `solution` as given or found in the client's roots,
// absent when dotnet picked the one in the working directory. (The result types carry no
// description: the action names them.)
#[derive(Debug, Serialize, JsonSchema)]
pub struct Listed {
    #[serde(skip_serializing_if = "Option::is_none")]
    solution: Option<String>,
    projects: Vec<ListedProject>,
}

// A project as the solution lists it.
#[derive(Debug, Serialize, JsonSchema)]
struct ListedProject {
    path: String,
    name: String,
    language: Language,
}

// Analyze: each project's type, frameworks and packages.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Analyzed {
    solution: String,
    format: Format,
    project_count: usize,
    projects: Vec<AnalyzedProject>,
    // How many readable projects are of each type.
    project_types: BTreeMap<&'static str, usize>,
    frameworks: Vec<FrameworkUse>,
    /// Packages referenced by two projects or more.
    shared_packages: Vec<SharedPackage>,
    /// Packages referenced at different versions.
    version_conflicts: Vec<VersionConflict>,
}

// Dependencies: the project reference graph.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Graphed {
    solution: String,
    format: Format,
    projects: Vec<GraphProject>,
    edges: Vec<Edge>,
    build_order: Vec<String>,
    cycles: Vec<Vec<String>>,
    /// Packages referenced by two projects or more.
    shared_packages: Vec<SharedPackage>,
    /// Packages referenced at different versions.
    version_conflicts: Vec<VersionConflict>,
}

// Validate: the problems found, and what to do about them.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Validated {
    solution: String,
    format: Format,
    /// No error was found (warnings allowed).
    valid: bool,
    error_count: usize,
    warning_count: usize,
    issues: Vec<Issue>,
    recommendations: Vec<String>,
}

/// List: `sln [<solution>] list`.
pub async fn list(call: &Call<'_>) -> Outcome {
    let solution = call.cli_target(SOLUTION).await?;
    let ran = run(call, command::list(solution.as_deref()), "listing the solution's projects").await?;
    let paths = command::listed_projects(&ran.outcome.stdout);
    let projects = paths
        .iter()
        .map(|path| {
            let name = Path::new(path).file_stem().and_then(|stem| stem.to_str()).unwrap_or(path);
            ListedProject { path: path.clone(), name: name.to_owned(), language: Language::of(path) }
        })
        .collect();
    let target = sentence_start(&target_name(call, solution.as_deref()));
    let summary = format!("{target} lists {}.", count(paths.len(), "project"));
    Ok(Reply::new(summary).section("Projects", paths).result(Listed { solution, projects }))
}

/// The solution named or found, and its projects, read from the files.
async fn load(call: &Call<'_>) -> Result<Solution, ErrorResponse> {
    let path = call.target_file(SOLUTION).await?;
    Solution::load(&path).map_err(|reason| {
        invalid(
            "solution",
            Reason::Value,
            format!("Invalid argument 'solution': the solution cannot be read: {reason}"),
        )
    })
}

/// The solution's path, as results give it.
fn path_of(solution: &Solution) -> String {
    solution.path.display().to_string()
}

/// Analyze: each project's type, frameworks and packages.
pub async fn analyze(call: &Call<'_>) -> Outcome {
    let solution = load(call).await?;
    let types = solution.project_types();
    let frameworks = solution.frameworks();
    let conflicts = solution.version_conflicts();
    let mut summary = format!("{}: {}", solution.file_name(), count(solution.members.len(), "project"));
    if !types.is_empty() {
        let types: Vec<String> = types.iter().map(|(kind, count)| format!("{count} {kind}")).collect();
        summary.push_str(&format!(" ({})", types.join(", ")));
    }
    if !frameworks.is_empty() {
        let list: Vec<String> =
            frameworks.iter().map(|used| format!("{} ({})", used.framework, used.projects.len())).collect();
        summary.push_str(&format!("; frameworks {}", list.join(", ")));
    }
    summary.push('.');
    if !conflicts.is_empty() {
        summary.push_str(&format!(" {}.", count(conflicts.len(), "package version conflict")));
    }
    let projects = solution.projects();
    let lines = projects.iter().map(project_line).collect();
    let reply = Reply::new(summary).section("Projects", lines).section("Version conflicts", conflict_lines(&conflicts));
    Ok(reply.result(Analyzed {
        solution: path_of(&solution),
        format: solution.format,
        project_count: solution.members.len(),
        projects,
        project_types: types,
        frameworks,
        shared_packages: solution.shared_packages(),
        version_conflicts: conflicts,
    }))
}

/// A project of Analyze in one line of prose.
fn project_line(project: &AnalyzedProject) -> String {
    if let Some(error) = &project.error {
        return format!("{}: {error}", project.name);
    }
    let frameworks = project.target_frameworks.as_deref().unwrap_or_default();
    let references = project.project_references.as_deref().unwrap_or_default();
    let packages = project.package_references.as_ref().map_or(0, Vec::len);
    let mut line = format!(
        "{}: {}, {}, {}, {}",
        project.name,
        project.project_type.map(|kind| kind.as_str()).unwrap_or_default(),
        project.language.as_str(),
        if frameworks.is_empty() { "no framework found".to_owned() } else { frameworks.join(";") },
        count(packages, "package"),
    );
    if !references.is_empty() {
        line.push_str(&format!(", references {}", references.join(", ")));
    }
    line
}

/// Dependencies: the project reference graph, its build order and cycles, and the packages
/// shared.
pub async fn dependencies(call: &Call<'_>) -> Outcome {
    let solution = load(call).await?;
    let Graph { projects, edges, build_order, cycles } = solution.graph();
    let cycle_lines: Vec<String> = cycles.iter().map(|cycle| cycle.join(" -> ")).collect();
    let mut summary = format!(
        "{}: {}, {}.",
        solution.file_name(),
        count(solution.members.len(), "project"),
        count(edges.len(), "project reference")
    );
    if !build_order.is_empty() {
        summary.push_str(&format!(" Build order: {}.", build_order.join(", ")));
    }
    if !cycles.is_empty() {
        summary.push_str(&format!(" {} (left out of the build order).", count(cycles.len(), "cycle")));
    }
    let lines = projects
        .iter()
        .filter_map(|project| {
            let mut targets = project.references.clone();
            targets.extend(project.external_references.iter().map(|path| format!("{path} (outside the solution)")));
            (!targets.is_empty()).then(|| format!("{} -> {}", project.name, targets.join(", ")))
        })
        .collect();
    let shared = solution.shared_packages();
    let shared_lines = shared
        .iter()
        .map(|package| format!("{} ({}): {}", package.id, package.projects.join(", "), package.versions.join(", ")))
        .collect();
    let conflicts = solution.version_conflicts();
    let reply = Reply::new(summary)
        .section("References", lines)
        .section("Cycles", cycle_lines)
        .section("Shared packages", shared_lines)
        .section("Version conflicts", conflict_lines(&conflicts));
    Ok(reply.result(Graphed {
        solution: path_of(&solution),
        format: solution.format,
        projects,
        edges,
        build_order,
        cycles,
        shared_packages: shared,
        version_conflicts: conflicts,
    }))
}

/// Validate: the problems a build would hit, and advice.
pub async fn validate(call: &Call<'_>) -> Outcome {
    let solution = load(call).await?;
    let issues = solution.issues();
    let recommendations = solution.recommendations();
    let lines = |severity: Severity| -> Vec<String> {
        issues
            .iter()
            .filter(|issue| issue.severity == severity)
            .map(|issue| format!("{}: {}", issue.code, issue.message))
            .collect()
    };
    let (errors, warnings) = (lines(Severity::Error), lines(Severity::Warning));
    let name = solution.file_name();
    let summary = match (errors.len(), warnings.len()) {
        (0, 0) => format!("{name} is valid: no problem found."),
        (0, warnings) => format!("{name} is valid, with {}.", count(warnings, "warning")),
        (errors, warnings) => format!("{name} has {} and {}.", count(errors, "error"), count(warnings, "warning")),
    };
    let result = Validated {
        solution: path_of(&solution),
        format: solution.format,
        valid: errors.is_empty(),
        error_count: errors.len(),
        warning_count: warnings.len(),
        issues,
        recommendations: recommendations.clone(),
    };
    let reply = Reply::new(summary)
        .section("Errors", errors)
        .section("Warnings", warnings)
        .section("Recommendations", recommendations);
    Ok(reply.result(result))
}

/// Each conflicting package in one line: `Serilog: 4.2.0 (App); 4.10.0 (Lib)`.
fn conflict_lines(conflicts: &[VersionConflict]) -> Vec<String> {
    conflicts
        .iter()
        .map(|conflict| {
            let versions: Vec<String> = conflict
                .versions
                .iter()
                .map(|entry| format!("{} ({})", entry.version, entry.projects.join(", ")))
                .collect();
            format!("{}: {}", conflict.id, versions.join("; "))
        })
        .collect()
}
