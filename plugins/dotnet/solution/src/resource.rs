//! The `dotnet://workspace` resource: the solutions and projects in the client's workspace,
//! read from the files (no dotnet), redacted like a tool result.
//!
//! Decisions, where the reference server scanned its own current folder:
//! - **Which folders.** A read is no call, so the plugin cannot ask the client for its roots;
//!   the host asks on the read's behalf and hands them over (`ReadRequest::roots`). Its `file://`
//!   roots are the folders; a client without roots gets the operator's `WorkingDirectory`; with
//!   neither, no folder is scanned (never the server's current folder, which is wherever the
//!   client happened to start the server). `folders[].source` says which it was.
//! - **What is found.** Every `.sln` and `.slnx` at the top of a folder (not only the first),
//!   with its projects read from the solution (both formats, and `.fsproj`/`.vbproj` as well
//!   as `.csproj`); then every project file under the folder, down to six levels, skipping
//!   `bin`, `obj`, `node_modules` and hidden folders, at most 500. Each project appears once,
//!   with the solutions that list it.
//! - **A test project** is what the project file says (`IsTestProject`, the MSTest SDK, a
//!   reference to Microsoft.NET.Test.Sdk), not a `.Tests` name.
//! - **Freshness.** No cache: every read scans again, so a project file changed by hand is
//!   seen at the next read. Changes made through the tools (a new project, a package added, a
//!   project added to a solution) are announced to subscribers (each family declares which of
//!   its actions announce `dotnet://workspace`); edits made outside the server are not watched.

use std::path::{Path, PathBuf};

use dotnet_support::{
    project_file,
    resources::{self, JSON, WORKSPACE},
    settings::DotnetSettings,
    workspace::{self, Target},
};
use mcp_plugin_api::{ReadRequest, Resource, ResourceContents, ResourceSpec, ToolError};
use serde_json::{Value, json};

use crate::analysis::{Solution, project_type};

/// How deep the project scan goes below a folder.
const MAX_DEPTH: usize = 6;
/// How many project files the scan reports at most.
const MAX_PROJECTS: usize = 500;
/// Folders the scan never enters (build output, JavaScript packages).
const SKIPPED: [&str; 3] = ["bin", "obj", "node_modules"];

/// `dotnet://workspace`, read with the plugin's settings.
pub struct WorkspaceResource {
    settings: DotnetSettings,
}

impl WorkspaceResource {
    /// The resource, for the plugin's settings.
    pub fn new(settings: DotnetSettings) -> Self {
        Self { settings }
    }
}

impl Resource for WorkspaceResource {
    fn spec(&self) -> ResourceSpec {
        ResourceSpec::at(WORKSPACE, "workspace")
            .title(".NET workspace")
            .description(
                "The solutions and projects in the client's workspace folders (its roots): each project's target \
                 frameworks, package count and whether it is a test project.",
            )
            .mime_type(JSON)
    }

    async fn read(&self, uri: &str) -> Result<Vec<ResourceContents>, ToolError> {
        self.read_in(uri, &ReadRequest::default()).await
    }

    async fn read_in(&self, uri: &str, request: &ReadRequest) -> Result<Vec<ResourceContents>, ToolError> {
        let folders = folders(request, &self.settings);
        Ok(resources::json_contents(uri, scan(&folders)))
    }
}

/// The folders to scan and where each came from.
fn folders(request: &ReadRequest, settings: &DotnetSettings) -> Vec<(PathBuf, &'static str)> {
    let roots: Vec<(PathBuf, &'static str)> = request
        .roots
        .iter()
        .flatten()
        .filter_map(|root| workspace::file_uri_path(&root.uri))
        .map(|path| (path, "roots"))
        .collect();
    if !roots.is_empty() {
        return roots;
    }
    settings.working_directory.iter().map(|dir| (dir.clone(), "workingDirectory")).collect()
}

/// The solutions and projects of `folders`.
fn scan(folders: &[(PathBuf, &str)]) -> Value {
    let mut solutions = Vec::new();
    let mut projects: Vec<(PathBuf, Vec<String>)> = Vec::new();
    for (folder, _) in folders {
        for path in workspace::candidates_in(folder, Target::Solution) {
            match Solution::load(&path) {
                Ok(solution) => {
                    for member in &solution.members {
                        note(&mut projects, member.full_path.clone(), Some(&solution.path));
                    }
                    solutions.push(json!({
                        "path": solution.path.display().to_string(),
                        "format": solution.format.as_str(),
                        "projectCount": solution.members.len(),
                    }));
                }
                Err(error) => solutions.push(json!({ "path": path.display().to_string(), "error": error })),
            }
        }
    }
    let mut truncated = false;
    for (folder, _) in folders {
        let mut found = Vec::new();
        truncated |= !project_files(folder, 0, &mut found);
        for path in found {
            note(&mut projects, dotnet_support::locking::canonical(&path), None);
        }
    }
    let projects: Vec<Value> = projects.into_iter().map(|(path, solutions)| project(&path, solutions)).collect();
    json!({
        "folders": folders.iter().map(|(path, source)| json!({ "path": path.display().to_string(), "source": source })).collect::<Vec<_>>(),
        "solutions": solutions,
        "projects": projects,
        "truncated": truncated,
        "generatedAt": resources::generated_at(),
    })
}

/// Adds the project at `path` (once), with `solution` among the solutions that list it.
fn note(projects: &mut Vec<(PathBuf, Vec<String>)>, path: PathBuf, solution: Option<&Path>) {
    let index = match projects.iter().position(|(known, _)| *known == path) {
        Some(index) => index,
        None => {
            projects.push((path, Vec::new()));
            projects.len() - 1
        }
    };
    if let Some(solution) = solution {
        projects[index].1.push(solution.display().to_string());
    }
}

/// One project as the resource shows it.
fn project(path: &Path, solutions: Vec<String>) -> Value {
    let name = path.file_stem().map(|stem| stem.to_string_lossy().into_owned()).unwrap_or_default();
    let mut value = json!({ "name": name, "path": path.display().to_string(), "solutions": solutions });
    match project_file::read(path) {
        Ok(file) => {
            value["projectType"] = json!(project_type(&file));
            value["targetFrameworks"] = json!(file.target_frameworks);
            value["packageCount"] = json!(file.package_references.len());
            value["isTestProject"] = json!(file.is_test_project);
        }
        Err(error) => value["error"] = json!(error),
    }
    value
}

/// Adds the project files under `dir` (to [`MAX_DEPTH`]) to `found`, sorted per folder; `false`
/// when [`MAX_PROJECTS`] cut the scan short.
fn project_files(dir: &Path, depth: usize, found: &mut Vec<PathBuf>) -> bool {
    found.extend(workspace::candidates_in(dir, Target::Project));
    if found.len() > MAX_PROJECTS {
        found.truncate(MAX_PROJECTS);
        return false;
    }
    if depth >= MAX_DEPTH {
        return true;
    }
    let Ok(entries) = std::fs::read_dir(dir) else { return true };
    let mut subfolders: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_dir()))
        .filter(|entry| {
            let name = entry.file_name().to_string_lossy().to_lowercase();
            !name.starts_with('.') && !SKIPPED.contains(&name.as_str())
        })
        .map(|entry| entry.path())
        .collect();
    subfolders.sort();
    subfolders.into_iter().all(|sub| project_files(&sub, depth + 1, found))
}
