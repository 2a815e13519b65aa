//! The `dotnet_solution` plugin: one tool, `dotnet_solution`, for `.sln` and `.slnx` solutions.
//!
//! | action | does |
//! |---|---|
//! | Create | `dotnet new sln -n <name> [-o <output>] [--format <sln\|slnx>]` |
//! | Add | `dotnet sln [<solution>] add <projects...> [--solution-folder <f> \| --in-root]` |
//! | List | `dotnet sln [<solution>] list` |
//! | Remove | `dotnet sln [<solution>] remove <projects...>`, after the user confirms |
//! | Analyze | reads the solution and its project files: types, languages, frameworks, packages |
//! | Dependencies | the project reference graph, a build order, cycles, shared packages, version conflicts |
//! | Validate | missing or unreadable projects, broken or outside references, cycles, framework mismatches, version conflicts |
//!
//! Every result carries `structuredContent` (the tool's `outputSchema`: one shape per action,
//! or the error envelope) and a short prose account for the model.
//!
//! Decisions the reference left open:
//! - Analyze, Dependencies and Validate read the files themselves (`.sln` text, `.slnx` XML,
//!   project XML with `Directory.Build.props` and `Directory.Packages.props`) instead of running
//!   dotnet once per project: they are fast, need no SDK, and change nothing. They see what the
//!   files say, not what MSBuild would evaluate (conditions and `$(...)` are not followed).
//! - A solution that is not named is looked for in the client's roots; with none there, the
//!   CLI actions let dotnet pick the one in the working directory, and the reading actions
//!   pick it themselves the same way.
//! - Create passes `--format` only when asked: SDK 8 knows no such option, and SDK 10 writes
//!   `.slnx` by default. Create, Add and Remove lock the solution (Create: the file it will
//!   write, or the output folder when the format is the SDK's choice) and report `lockInfo`.
//! - Remove asks the user through elicitation when the client supports it and runs only on a
//!   clear yes; a client without elicitation is not asked (the tool is marked destructive, so
//!   the client is expected to confirm the call itself), and `confirmation` says which it was.
//! - Annotations: not read-only, destructive (Remove), not idempotent (Create fails the second
//!   time), closed-world (local files only).

mod analysis;
mod command;
mod schema;
mod solution_file;
mod tfm;

use dotnet_support::respond::Failure as Failed;
use std::path::{Path, PathBuf};

use dotnet_support::{
    confirm::{self, Confirmation},
    errors::{ErrorResponse, ErrorResult},
    exec::{self, ProgressKind, Ran},
    locking::{self, LockTarget, canonical},
    params::{self, Kind, Params},
    redact::{redact_json, redacted_command_line},
    respond::{self, Presentation, Reply},
    settings::DotnetSettings,
    workspace::{self, Target},
};
use mcp_plugin_api::{
    CallContext, InitError, PluginContext, Tool, ToolOutcome, ToolSpec, export_plugin,
    locks::{LockGuard, LockScope},
};
use serde_json::{Value, json};

use crate::analysis::Solution;
use crate::command::Placement;

export_plugin! {
    name: "dotnet_solution",
    version: env!("CARGO_PKG_VERSION"),
    tools: |ctx| Ok(vec![SolutionTool::new(ctx)?.into()]),
}

dotnet_support::actions! {
    /// The actions of `dotnet_solution`.
    pub enum Action { Create, Add, List, Remove, Analyze, Dependencies, Validate }
}

impl Action {
    /// The parameters the action reads, besides `action`.
    fn parameters(self) -> &'static [&'static str] {
        match self {
            Action::Create => &["name", "output", "format", "workingDirectory"],
            Action::Add => &["solution", "projects", "solutionFolder", "inRoot", "workingDirectory"],
            Action::Remove => &["solution", "projects", "workingDirectory"],
            Action::List | Action::Analyze | Action::Dependencies | Action::Validate => {
                &["solution", "workingDirectory"]
            }
        }
    }
}

/// The `dotnet_solution` tool.
pub struct SolutionTool {
    plugin: PluginContext,
    settings: DotnetSettings,
}

impl SolutionTool {
    /// The tool with the plugin's settings (see [`DotnetSettings`]); a setting of the wrong type
    /// refuses the plugin with a message naming it.
    pub fn new(ctx: &PluginContext) -> Result<Self, InitError> {
        Ok(Self { plugin: ctx.clone(), settings: DotnetSettings::from_context(ctx)? })
    }
}

impl Tool for SolutionTool {
    fn spec(&self) -> ToolSpec {
        ToolSpec::new(
            "dotnet_solution",
            "Manage .NET solutions (.sln and .slnx). Create needs name (output, format); Add and Remove need \
             projects (Add: solutionFolder or inRoot; Remove asks the user to confirm); List lists the projects; \
             Analyze reports each project's type, frameworks and packages; Dependencies the project reference \
             graph, build order, cycles, shared packages and version conflicts; Validate finds missing projects, \
             broken references, cycles and framework mismatches. solution defaults to the one solution in the \
             client's roots or the working directory.",
        )
        .title(".NET Solutions")
        .input_schema(schema::input())
        .output_schema(schema::output())
        .read_only(false)
        .destructive(true)
        .idempotent(false)
        .open_world(false)
    }

    async fn call(&self, args: Value, ctx: CallContext) -> ToolOutcome {
        let presentation = Presentation::of(&ctx);
        let mut result = respond::finish(self.dispatch(&args, &ctx).await, presentation);
        respond::redact_text(&mut result);
        Ok(result)
    }
}

impl SolutionTool {
    async fn dispatch(&self, args: &Value, ctx: &CallContext) -> Result<Reply, Failed> {
        let params = Params::new(args);
        let action = params.action(Action::parse)?;
        params.allow_only(action.name(), action.parameters())?;
        let cwd = workspace::working_directory(
            params.opt("workingDirectory", Kind::Path)?,
            self.settings.working_directory.as_deref(),
        )?;
        let call = Call { tool: self, ctx, params, cwd, action };
        match action {
            Action::Create => call.create().await,
            Action::Add => call.add().await,
            Action::List => call.list().await,
            Action::Remove => call.remove().await,
            Action::Analyze | Action::Dependencies | Action::Validate => call.read().await,
        }
    }
}

/// One call: the tool, the client, the checked parameters and the working directory.
struct Call<'a> {
    tool: &'a SolutionTool,
    ctx: &'a CallContext,
    params: Params<'a>,
    cwd: PathBuf,
    action: Action,
}

fn invalid(parameter: &str, reason: &str, message: &str) -> ErrorResponse {
    ErrorResponse::from(ErrorResult::invalid_params(parameter, reason, message))
}

fn plural(count: usize, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

fn language(path: &str) -> &'static str {
    match Path::new(path).extension().and_then(|ext| ext.to_str()).map(str::to_ascii_lowercase).as_deref() {
        Some("csproj") => "C#",
        Some("fsproj") => "F#",
        Some("vbproj") => "VB",
        _ => "other",
    }
}

impl Call<'_> {
    /// The `solution` parameter: a `.sln` or `.slnx` file, or a folder.
    fn solution_param(&self) -> Result<Option<&str>, ErrorResponse> {
        let Some(solution) = self.params.opt("solution", Kind::ProjectPath)? else { return Ok(None) };
        match Path::new(solution).extension().and_then(|ext| ext.to_str()) {
            Some(ext) if !ext.eq_ignore_ascii_case("sln") && !ext.eq_ignore_ascii_case("slnx") => Err(invalid(
                "solution",
                "invalid value",
                &format!("Parameter 'solution' must be a .sln or .slnx file or a folder, not a .{ext} file."),
            )),
            _ => Ok(Some(solution)),
        }
    }

    /// The solution for a dotnet command: the parameter, else the one in the client's roots,
    /// else `None` (dotnet's default: the one in the working directory).
    async fn solution_for_cli(&self) -> Result<Option<String>, ErrorResponse> {
        if let Some(solution) = self.solution_param()? {
            return Ok(Some(solution.to_owned()));
        }
        let found = workspace::discover(self.ctx, Target::Solution, "solution").await?;
        Ok(found.map(|path| path.display().to_string()))
    }

    /// The solution file to read: the parameter (a folder stands for the one solution in it),
    /// else the one in the client's roots, else the one in the working directory.
    async fn solution_file(&self) -> Result<PathBuf, ErrorResponse> {
        let path = match self.solution_param()? {
            Some(given) => self.cwd.join(given),
            None => match workspace::discover(self.ctx, Target::Solution, "solution").await? {
                Some(found) => found,
                None => self.cwd.clone(),
            },
        };
        if path.is_file() {
            return Ok(path);
        }
        if !path.is_dir() {
            let message = format!("Parameter 'solution': the file '{}' does not exist.", path.display());
            return Err(invalid("solution", "not found", &message));
        }
        match workspace::candidates_in(&path, Target::Solution).as_slice() {
            [only] => Ok(only.clone()),
            [] => Err(invalid(
                "solution",
                "not found",
                &format!("There is no .sln or .slnx file in '{}'; name one with 'solution'.", path.display()),
            )),
            several => Err(invalid(
                "solution",
                "ambiguous",
                &format!(
                    "'{}' holds several solutions: {}. Name one with 'solution'.",
                    path.display(),
                    several.iter().map(|path| path.display().to_string()).collect::<Vec<_>>().join(", ")
                ),
            )),
        }
    }

    /// How prose names the target solution.
    fn target_name(&self, solution: Option<&str>) -> String {
        match solution {
            Some(solution) => solution.to_owned(),
            None => format!("the solution in {}", self.cwd.display()),
        }
    }

    /// The `projects` parameter: one or more project paths.
    fn projects(&self) -> Result<Vec<&str>, ErrorResponse> {
        let required = || invalid("projects", "required", "Parameter 'projects' is required: a list of project files.");
        let items = match self.params.raw("projects") {
            None => return Err(required()),
            Some(Value::Array(items)) if items.is_empty() => return Err(required()),
            Some(Value::Array(items)) => items,
            Some(other) => {
                let message = format!("Parameter 'projects' must be a list of project files, not {other}.");
                return Err(invalid("projects", "invalid type", &message));
            }
        };
        items
            .iter()
            .map(|item| {
                let path = item.as_str().filter(|path| !path.trim().is_empty()).ok_or_else(|| {
                    invalid("projects", "invalid type", "Every item of 'projects' must be a non-empty string.")
                })?;
                params::check("projects", Kind::ProjectPath, path)?;
                Ok(path)
            })
            .collect()
    }

    async fn lock(&self, target: LockTarget) -> Result<LockGuard, Failed> {
        let operation = format!("dotnet_solution {}", self.action.name());
        locking::acquire(&self.tool.plugin, &target, &operation, self.tool.settings.lock_wait)
            .await
            .map_err(Failed::from)
    }

    /// Runs dotnet; a non-zero exit is the contract's error for it.
    async fn run(&self, args: Vec<String>, description: &str) -> Result<Ran, ErrorResponse> {
        let command = exec::Command::new(args, &self.cwd, description).progress(ProgressKind::None);
        let ran = exec::run(&self.tool.settings, self.ctx, command).await?;
        if ran.succeeded() { Ok(ran) } else { Err(ran.failure()) }
    }

    /// Finishes structured content: the action, the command as run (redacted), the lock held,
    /// nulls dropped, everything redacted.
    fn structured(&self, ran: Option<&Ran>, guard: Option<&LockGuard>, mut fields: Value) -> Value {
        fields["action"] = json!(self.action.name());
        if let Some(ran) = ran {
            fields["command"] = json!(redacted_command_line("dotnet", &ran.argv[1..]));
        }
        if let Some(guard) = guard {
            fields["lockInfo"] = locking::lock_info_json(guard.info());
        }
        if let Some(object) = fields.as_object_mut() {
            object.retain(|_, value| !value.is_null());
        }
        redact_json(&mut fields);
        fields
    }

    async fn create(&self) -> Result<Reply, Failed> {
        let name = self.params.req("name", Kind::Text)?;
        let output = self.params.opt("output", Kind::Path)?;
        let format = match self.params.opt("format", Kind::Identifier)? {
            None => None,
            Some(format) if format.eq_ignore_ascii_case("sln") => Some("sln"),
            Some(format) if format.eq_ignore_ascii_case("slnx") => Some("slnx"),
            Some(other) => {
                let message = format!("Parameter 'format' must be sln or slnx (got '{other}').");
                return Err(invalid("format", "invalid value", &message).into());
            }
        };
        let folder = self.cwd.join(output.unwrap_or_default());
        let target = match format {
            Some(format) => LockTarget::for_path(Some(&folder.join(format!("{name}.{format}"))), &self.cwd),
            None => LockTarget { scope: LockScope::WorkingDirectory, key: canonical(&folder).display().to_string() },
        };
        let guard = self.lock(target).await?;
        let ran = self
            .run(command::create(name, output, format), &format!("creating solution {name}"))
            .await
            .map_err(Failed::holding(&guard))?;
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
        let structured = self.structured(
            Some(&ran),
            Some(&guard),
            json!({
                "name": name,
                "solution": created.as_ref().map(|(path, _)| path.display().to_string()),
                "format": created.as_ref().map(|(_, format)| *format),
            }),
        );
        Ok(Reply::new(summary).output(ran.outcome.stdout.clone()).structured(structured))
    }

    async fn add(&self) -> Result<Reply, Failed> {
        let projects = self.projects()?;
        let folder = self.params.opt("solutionFolder", Kind::Path)?;
        let placement = match (folder, self.params.flag("inRoot")) {
            (Some(_), true) => {
                let message = "Give either 'solutionFolder' or 'inRoot', not both.";
                return Err(invalid("inRoot", "conflict", message).into());
            }
            (Some(folder), false) => Placement::Folder(folder),
            (None, true) => Placement::Root,
            (None, false) => Placement::Default,
        };
        let solution = self.solution_for_cli().await?;
        let guard = self.lock(LockTarget::for_path(solution.as_deref().map(Path::new), &self.cwd)).await?;
        let args = command::add(solution.as_deref(), &projects, placement);
        let ran = self.run(args, "adding projects to the solution").await.map_err(Failed::holding(&guard))?;
        let added = command::projects_reported(&ran.outcome.stdout, "added to the solution.");
        let target = self.target_name(solution.as_deref());
        let summary = match added.len() {
            0 => format!("No project was added to {target}."),
            count => format!("Added {} to {target}: {}.", plural(count, "project", "projects"), added.join(", ")),
        };
        let structured = self.structured(
            Some(&ran),
            Some(&guard),
            json!({ "solution": solution, "projects": projects, "added": added }),
        );
        Ok(Reply::new(summary).output(ran.outcome.stdout.clone()).structured(structured))
    }

    async fn remove(&self) -> Result<Reply, Failed> {
        let projects = self.projects()?;
        let solution = self.solution_for_cli().await?;
        let target = self.target_name(solution.as_deref());
        let question = format!(
            "Remove {} from {target}? The project files stay on disk; the solution stops listing them.",
            projects.join(", ")
        );
        let confirmation = match confirm::confirm(self.ctx, &question).await {
            Confirmation::Confirmed => "confirmed",
            Confirmation::NotAsked => "notAsked",
            Confirmation::Refused(reason) => {
                return Err(confirm::refused("dotnet_solution Remove", &target, &reason).into());
            }
        };
        let guard = self.lock(LockTarget::for_path(solution.as_deref().map(Path::new), &self.cwd)).await?;
        let args = command::remove(solution.as_deref(), &projects);
        let ran = self.run(args, "removing projects from the solution").await.map_err(Failed::holding(&guard))?;
        let removed = command::projects_reported(&ran.outcome.stdout, "removed from the solution.");
        let not_found = command::projects_reported(&ran.outcome.stdout, "could not be found in the solution.");
        let mut summary = match removed.len() {
            0 => format!("No project was removed from {target}."),
            count => format!("Removed {} from {target}: {}.", plural(count, "project", "projects"), removed.join(", ")),
        };
        if !not_found.is_empty() {
            summary.push_str(&format!(" Not in the solution: {}.", not_found.join(", ")));
        }
        let structured = self.structured(
            Some(&ran),
            Some(&guard),
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

    async fn list(&self) -> Result<Reply, Failed> {
        let solution = self.solution_for_cli().await?;
        let ran = self.run(command::list(solution.as_deref()), "listing the solution's projects").await?;
        let paths = command::listed_projects(&ran.outcome.stdout);
        let projects: Vec<Value> = paths
            .iter()
            .map(|path| {
                let name = Path::new(path).file_stem().and_then(|stem| stem.to_str()).unwrap_or(path);
                json!({ "path": path, "name": name, "language": language(path) })
            })
            .collect();
        let target = sentence_start(&self.target_name(solution.as_deref()));
        let summary = format!("{target} lists {}.", plural(paths.len(), "project", "projects"));
        let structured = self.structured(Some(&ran), None, json!({ "solution": solution, "projects": projects }));
        Ok(Reply::new(summary).section("Projects", paths).structured(structured))
    }

    /// Analyze, Dependencies and Validate: read the solution and its projects.
    async fn read(&self) -> Result<Reply, Failed> {
        let path = self.solution_file().await?;
        let solution = Solution::load(&path)
            .map_err(|reason| invalid("solution", "unreadable", &format!("The solution cannot be read: {reason}")))?;
        let reply = match self.action {
            Action::Analyze => analyze(&solution),
            Action::Dependencies => dependencies(&solution),
            _ => validate(&solution),
        };
        let (reply, mut fields) = reply;
        fields["solution"] = json!(solution.path.display().to_string());
        fields["format"] = json!(solution.format.as_str());
        Ok(reply.structured(self.structured(None, None, fields)))
    }
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
                let frameworks = strings(&project["targetFrameworks"]);
                let references = strings(&project["projectReferences"]);
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
    let order = strings(&fields["buildOrder"]);
    let cycles: Vec<String> =
        fields["cycles"].as_array().into_iter().flatten().map(|cycle| strings(cycle).join(" -> ")).collect();
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
            let mut targets = strings(&project["references"]);
            targets.extend(
                strings(&project["externalReferences"])
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
                strings(&package["projects"]).join(", "),
                strings(&package["versions"]).join(", ")
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

/// `text` with its first letter in upper case, to start a sentence.
fn sentence_start(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map(|first| first.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

fn strings(list: &Value) -> Vec<String> {
    list.as_array().into_iter().flatten().filter_map(Value::as_str).map(str::to_owned).collect()
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
                        strings(&entry["projects"]).join(", ")
                    )
                })
                .collect();
            format!("{}: {}", conflict["id"].as_str().unwrap_or_default(), versions.join("; "))
        })
        .collect()
}
