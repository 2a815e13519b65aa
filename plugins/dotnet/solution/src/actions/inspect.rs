//! Reading: List through the CLI; Analyze, Dependencies and Validate from the solution and
//! project files themselves (module `analysis`), with no SDK needed and nothing changed.

use std::path::Path;

use dotnet_support::{
    kit::{Call, Outcome, Shape},
    respond::Reply,
};
use serde_json::{Value, json};

use super::{
    fields_of, invalid, plural, run, sentence_start, solution_file, solution_for_cli, strings_of, target_name,
};
use crate::{
    Action,
    analysis::{self, Solution, language},
    command,
};

fn string() -> Value {
    json!({ "type": "string" })
}

fn strings() -> Value {
    json!({ "type": "array", "items": { "type": "string" } })
}

fn format_schema() -> Value {
    json!({ "type": "string", "enum": ["sln", "slnx"] })
}

/// Packages two projects or more reference, and those referenced at different versions.
fn packages() -> (Value, Value) {
    let shared = json!({
        "type": "array",
        "description": "Packages referenced by two projects or more.",
        "items": {
            "type": "object",
            "required": ["id", "projects", "versions"],
            "properties": { "id": string(), "projects": strings(), "versions": strings() }
        }
    });
    let conflicts = json!({
        "type": "array",
        "description": "Packages referenced at different versions.",
        "items": {
            "type": "object",
            "required": ["id", "versions"],
            "properties": {
                "id": string(),
                "versions": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["version", "projects"],
                        "properties": { "version": string(), "projects": strings() }
                    }
                }
            }
        }
    });
    (shared, conflicts)
}

/// List: the projects the solution lists.
pub fn listed_shape() -> Shape {
    Shape::new(
        json!({
            "solution": string(),
            "projects": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["path", "name", "language"],
                    "properties": {
                        "path": string(),
                        "name": string(),
                        "language": { "type": "string", "enum": ["C#", "F#", "VB", "other"] }
                    }
                }
            },
            "command": string()
        }),
        &["projects", "command"],
    )
}

/// Analyze: each project's type, frameworks and packages.
pub fn analyzed_shape() -> Shape {
    let (shared, conflicts) = packages();
    let project = json!({
        "type": "object",
        "required": ["name", "path", "language", "exists"],
        "properties": {
            "name": string(),
            "path": { "type": "string", "description": "As written in the solution." },
            "folder": { "type": "string", "description": "The solution folder holding it." },
            "language": { "type": "string", "enum": ["C#", "F#", "VB", "other"] },
            "exists": { "type": "boolean" },
            "projectType": {
                "type": "string",
                "enum": ["test", "web", "blazor", "razor", "worker", "aspire", "console", "windows", "library", "legacy"]
            },
            "sdk": string(),
            "outputType": string(),
            "targetFrameworks": strings(),
            "packageReferences": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["id"],
                    "properties": { "id": string(), "version": string(), "central": { "type": "boolean" } }
                }
            },
            "projectReferences": strings(),
            "error": { "type": "string", "description": "Why the project file could not be read." }
        }
    });
    Shape::new(
        json!({
            "solution": string(),
            "format": format_schema(),
            "projectCount": { "type": "integer", "minimum": 0 },
            "projects": { "type": "array", "items": project },
            "projectTypes": { "type": "object", "additionalProperties": { "type": "integer" } },
            "frameworks": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["framework", "projects"],
                    "properties": { "framework": string(), "projects": strings() }
                }
            },
            "sharedPackages": shared,
            "versionConflicts": conflicts
        }),
        &[
            "solution",
            "format",
            "projectCount",
            "projects",
            "projectTypes",
            "frameworks",
            "sharedPackages",
            "versionConflicts",
        ],
    )
}

/// Dependencies: the project reference graph.
pub fn graph_shape() -> Shape {
    let (shared, conflicts) = packages();
    let project = json!({
        "type": "object",
        "required": ["name", "path", "references", "referencedBy", "externalReferences"],
        "properties": {
            "name": string(),
            "path": string(),
            "references": strings(),
            "referencedBy": strings(),
            "externalReferences": strings()
        }
    });
    Shape::new(
        json!({
            "solution": string(),
            "format": format_schema(),
            "projects": { "type": "array", "items": project },
            "edges": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["from", "to"],
                    "properties": { "from": string(), "to": string() }
                }
            },
            "buildOrder": strings(),
            "cycles": { "type": "array", "items": strings() },
            "sharedPackages": shared,
            "versionConflicts": conflicts
        }),
        &["solution", "format", "projects", "edges", "buildOrder", "cycles", "sharedPackages", "versionConflicts"],
    )
}

/// Validate: the problems found, and what to do about them.
pub fn validated_shape() -> Shape {
    let issue = json!({
        "type": "object",
        "required": ["severity", "code", "message"],
        "properties": {
            "severity": { "type": "string", "enum": ["error", "warning"] },
            "code": string(),
            "message": string(),
            "project": string()
        }
    });
    Shape::new(
        json!({
            "solution": string(),
            "format": format_schema(),
            "valid": { "type": "boolean", "description": "No error was found (warnings allowed)." },
            "errorCount": { "type": "integer", "minimum": 0 },
            "warningCount": { "type": "integer", "minimum": 0 },
            "issues": { "type": "array", "items": issue },
            "recommendations": strings()
        }),
        &["solution", "format", "valid", "errorCount", "warningCount", "issues", "recommendations"],
    )
}

/// List: `sln [<solution>] list`.
pub async fn list(call: &Call<'_>) -> Outcome {
    let solution = solution_for_cli(call).await?;
    let ran = run(call, command::list(solution.as_deref()), "listing the solution's projects").await?;
    let paths = command::listed_projects(&ran.outcome.stdout);
    let projects: Vec<Value> = paths
        .iter()
        .map(|path| {
            let name = Path::new(path).file_stem().and_then(|stem| stem.to_str()).unwrap_or(path);
            json!({ "path": path, "name": name, "language": language(path) })
        })
        .collect();
    let target = sentence_start(&target_name(call, solution.as_deref()));
    let summary = format!("{target} lists {}.", plural(paths.len(), "project", "projects"));
    let structured = fields_of(Some(&ran), json!({ "solution": solution, "projects": projects }));
    Ok(Reply::new(summary).section("Projects", paths).structured(structured))
}

/// Analyze, Dependencies and Validate: read the solution and its projects.
pub async fn read(action: Action, call: &Call<'_>) -> Outcome {
    let path = solution_file(call).await?;
    let solution = Solution::load(&path)
        .map_err(|reason| invalid("solution", "unreadable", &format!("The solution cannot be read: {reason}")))?;
    let reply = match action {
        Action::Analyze => analyze(&solution),
        Action::Dependencies => dependencies(&solution),
        _ => validate(&solution),
    };
    let (reply, mut fields) = reply;
    fields["solution"] = json!(solution.path.display().to_string());
    fields["format"] = json!(solution.format.as_str());
    Ok(reply.structured(fields_of(None, fields)))
}

/// Analyze: the reply and its structured fields.
fn analyze(solution: &Solution) -> (Reply, Value) {
    let types = solution.project_types();
    let frameworks = solution.frameworks();
    let conflicts = solution.version_conflicts();
    let mut summary = format!("{}: {}", solution.file_name(), plural(solution.members.len(), "project", "projects"));
    if !types.is_empty() {
        let types: Vec<String> = types.iter().map(|(kind, count)| format!("{count} {kind}")).collect();
        summary.push_str(&format!(" ({})", types.join(", ")));
    }
    if !frameworks.is_empty() {
        let list: Vec<String> =
            frameworks.iter().map(|(framework, projects)| format!("{framework} ({})", projects.len())).collect();
        summary.push_str(&format!("; frameworks {}", list.join(", ")));
    }
    summary.push('.');
    if !conflicts.is_empty() {
        summary.push_str(&format!(
            " {}.",
            plural(conflicts.len(), "package version conflict", "package version conflicts")
        ));
    }
    let projects = solution.projects_json();
    let lines = projects
        .iter()
        .map(|project| match project["error"].as_str() {
            Some(error) => format!("{}: {error}", project["name"].as_str().unwrap_or_default()),
            None => {
                let frameworks = strings_of(&project["targetFrameworks"]);
                let references = strings_of(&project["projectReferences"]);
                let packages = project["packageReferences"].as_array().map_or(0, Vec::len);
                let mut line = format!(
                    "{}: {}, {}, {}, {}",
                    project["name"].as_str().unwrap_or_default(),
                    project["projectType"].as_str().unwrap_or_default(),
                    project["language"].as_str().unwrap_or_default(),
                    if frameworks.is_empty() { "no framework found".to_owned() } else { frameworks.join(";") },
                    plural(packages, "package", "packages"),
                );
                if !references.is_empty() {
                    line.push_str(&format!(", references {}", references.join(", ")));
                }
                line
            }
        })
        .collect();
    let frameworks_json: Vec<Value> = frameworks
        .iter()
        .map(|(framework, projects)| json!({ "framework": framework, "projects": projects }))
        .collect();
    let reply = Reply::new(summary).section("Projects", lines).section("Version conflicts", conflict_lines(&conflicts));
    let fields = json!({
        "projectCount": solution.members.len(),
        "projects": projects,
        "projectTypes": types,
        "frameworks": frameworks_json,
        "sharedPackages": solution.shared_packages(),
        "versionConflicts": conflicts,
    });
    (reply, fields)
}

/// Dependencies: the reply and its structured fields.
fn dependencies(solution: &Solution) -> (Reply, Value) {
    let mut fields = solution.graph_json();
    let edges = fields["edges"].as_array().map_or(0, Vec::len);
    let order = strings_of(&fields["buildOrder"]);
    let cycles: Vec<String> =
        fields["cycles"].as_array().into_iter().flatten().map(|cycle| strings_of(cycle).join(" -> ")).collect();
    let mut summary = format!(
        "{}: {}, {}.",
        solution.file_name(),
        plural(solution.members.len(), "project", "projects"),
        plural(edges, "project reference", "project references")
    );
    if !order.is_empty() {
        summary.push_str(&format!(" Build order: {}.", order.join(", ")));
    }
    if !cycles.is_empty() {
        summary.push_str(&format!(" {} (left out of the build order).", plural(cycles.len(), "cycle", "cycles")));
    }
    let lines = fields["projects"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|project| {
            let mut targets = strings_of(&project["references"]);
            targets.extend(
                strings_of(&project["externalReferences"])
                    .into_iter()
                    .map(|path| format!("{path} (outside the solution)")),
            );
            (!targets.is_empty())
                .then(|| format!("{} -> {}", project["name"].as_str().unwrap_or_default(), targets.join(", ")))
        })
        .collect();
    let shared = solution.shared_packages();
    let shared_lines = shared
        .iter()
        .map(|package| {
            format!(
                "{} ({}): {}",
                package["id"].as_str().unwrap_or_default(),
                strings_of(&package["projects"]).join(", "),
                strings_of(&package["versions"]).join(", ")
            )
        })
        .collect();
    let conflicts = solution.version_conflicts();
    let reply = Reply::new(summary)
        .section("References", lines)
        .section("Cycles", cycles)
        .section("Shared packages", shared_lines)
        .section("Version conflicts", conflict_lines(&conflicts));
    fields["sharedPackages"] = json!(shared);
    fields["versionConflicts"] = json!(conflicts);
    (reply, fields)
}

/// Validate: the reply and its structured fields.
fn validate(solution: &Solution) -> (Reply, Value) {
    let issues = solution.issues();
    let recommendations = solution.recommendations();
    let errors: Vec<String> = issues
        .iter()
        .filter(|issue| issue.severity == "error")
        .map(|issue| format!("{}: {}", issue.code, issue.message))
        .collect();
    let warnings: Vec<String> = issues
        .iter()
        .filter(|issue| issue.severity == "warning")
        .map(|issue| format!("{}: {}", issue.code, issue.message))
        .collect();
    let summary = match (errors.len(), warnings.len()) {
        (0, 0) => format!("{} is valid: no problem found.", solution.file_name()),
        (0, warnings) => {
            format!("{} is valid, with {}.", solution.file_name(), plural(warnings, "warning", "warnings"))
        }
        (errors, warnings) => format!(
            "{} has {} and {}.",
            solution.file_name(),
            plural(errors, "error", "errors"),
            plural(warnings, "warning", "warnings")
        ),
    };
    let fields = json!({
        "valid": errors.is_empty(),
        "errorCount": errors.len(),
        "warningCount": warnings.len(),
        "issues": issues.iter().map(analysis::Issue::to_json).collect::<Vec<_>>(),
        "recommendations": recommendations,
    });
    let reply = Reply::new(summary)
        .section("Errors", errors)
        .section("Warnings", warnings)
        .section("Recommendations", recommendations);
    (reply, fields)
}

fn conflict_lines(conflicts: &[Value]) -> Vec<String> {
    conflicts
        .iter()
        .map(|conflict| {
            let versions: Vec<String> = conflict["versions"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|entry| {
                    format!(
                        "{} ({})",
                        entry["version"].as_str().unwrap_or_default(),
                        strings_of(&entry["projects"]).join(", ")
                    )
                })
                .collect();
            format!("{}: {}", conflict["id"].as_str().unwrap_or_default(), versions.join("; "))
        })
        .collect()
}
