//! The `dotnet_package` plugin: one tool, `dotnet_package`, for a project's NuGet packages and
//! project references, on the dotnet CLI.
//!
//! | action | runs |
//! |---|---|
//! | Add, Update | `dotnet add [<project>] package <id> [--version <v> \| --prerelease] [--source <s>] [--framework <f>] [--no-restore]` |
//! | Remove | `dotnet remove [<project>] package <id>` |
//! | Search | `dotnet package search <term> [--take N] [--skip N] [--prerelease] [--exact-match] [--source <s>] --format json` |
//! | List | `dotnet list [<project>] package --format json --output-version 1 [--outdated\|--deprecated\|--vulnerable] [--include-transitive] [--framework <f>] [--include-prerelease] [--source <s>]` |
//! | AddReference, RemoveReference | `dotnet add\|remove [<project>] reference <path>` |
//! | ListReferences | `dotnet list [<project>] reference` |
//! | ClearCache | `dotnet nuget locals <cache> --clear` |
//!
//! Every result carries `structuredContent` (the tool's `outputSchema`: one shape per action,
//! or the error envelope) and a short prose account for the model. List and Search read
//! NuGet's JSON reports, not its tables. List keeps the reference server's `filter` (a
//! case-insensitive substring of the id) and `maxResults` (a cap over all packages listed),
//! applied to the report.
//!
//! Decisions the reference left open:
//! - A project that is not named is looked for in the client's roots (List also takes a
//!   solution); with none found the CLI picks the one project in the working directory.
//! - Add, Update, Remove and the reference edits lock the project, as builds of it do, and
//!   report `lockInfo`; ClearCache locks `global` (the caches are the machine's).
//! - Update is `add package` (there is no `update` verb on SDK 8 and 9). Without a version it
//!   moves to the latest (stable unless `prerelease`); the version the project file had before
//!   is reported as `previousVersion` when the file names one.
//! - Annotations: not read-only (most actions edit projects), destructive (Remove,
//!   RemoveReference and ClearCache delete things), not idempotent (Update without a version
//!   follows the feed), open-world (NuGet feeds).

mod command;
mod report;
mod schema;

use dotnet_support::respond::Failure as Failed;
use std::path::{Path, PathBuf};

use dotnet_support::{
    errors::{ErrorResponse, ErrorResult},
    exec::{self, ProgressKind, Ran},
    locking::{self, LockTarget},
    params::{Kind, Params},
    project_file,
    redact::{redact_json, redacted_command_line},
    respond::{self, Presentation, Reply},
    settings::DotnetSettings,
    workspace::{self, Target},
};
use mcp_plugin_api::{
    CallContext, InitError, PluginContext, Tool, ToolOutcome, ToolSpec, export_plugin, locks::LockGuard,
};
use serde_json::{Value, json};

use crate::command::{AddPackage, ListPackages, Report, Search};

export_plugin! {
    name: "dotnet_package",
    version: env!("CARGO_PKG_VERSION"),
    tools: |ctx| Ok(vec![PackageTool::new(ctx)?.into()]),
}

dotnet_support::actions! {
    /// The actions of `dotnet_package`.
    pub enum Action { Add, Remove, Search, Update, List, AddReference, RemoveReference, ListReferences, ClearCache }
}

impl Action {
    /// The parameters the action reads, besides `action`.
    fn parameters(self) -> &'static [&'static str] {
        match self {
            Action::Add | Action::Update => &[
                "packageId",
                "version",
                "project",
                "prerelease",
                "source",
                "framework",
                "noRestore",
                "workingDirectory",
            ],
            Action::Remove => &["packageId", "project", "workingDirectory"],
            Action::Search => &["searchTerm", "take", "skip", "prerelease", "exactMatch", "source", "workingDirectory"],
            Action::List => &[
                "project",
                "outdated",
                "deprecated",
                "vulnerable",
                "includeTransitive",
                "framework",
                "prerelease",
                "source",
                "filter",
                "maxResults",
                "workingDirectory",
            ],
            Action::AddReference | Action::RemoveReference => &["project", "referencePath", "workingDirectory"],
            Action::ListReferences => &["project", "workingDirectory"],
            Action::ClearCache => &["cacheType", "workingDirectory"],
        }
    }
}

/// The `dotnet_package` tool.
pub struct PackageTool {
    plugin: PluginContext,
    settings: DotnetSettings,
}

impl PackageTool {
    /// The tool with the plugin's settings (see [`DotnetSettings`]); a setting of the wrong type
    /// refuses the plugin with a message naming it.
    pub fn new(ctx: &PluginContext) -> Result<Self, InitError> {
        Ok(Self { plugin: ctx.clone(), settings: DotnetSettings::from_context(ctx)? })
    }
}

impl Tool for PackageTool {
    fn spec(&self) -> ToolSpec {
        ToolSpec::new(
            "dotnet_package",
            "Manage a .NET project's NuGet packages and project references with the dotnet CLI. \
             Add/Update/Remove need packageId (Add and Update take version, prerelease, source, framework, noRestore); \
             Search needs searchTerm (take, skip, prerelease, exactMatch, source); \
             List reports packages per project and framework (outdated | deprecated | vulnerable, includeTransitive, \
             framework, filter, maxResults); AddReference/RemoveReference need referencePath; ListReferences; \
             ClearCache clears NuGet caches (cacheType). project defaults to the one project in the client's roots \
             or the working directory.",
        )
        .title("NuGet Packages and References")
        .input_schema(schema::input())
        .output_schema(schema::output())
        .read_only(false)
        .destructive(true)
        .idempotent(false)
        .open_world(true)
    }

    async fn call(&self, args: Value, ctx: CallContext) -> ToolOutcome {
        let presentation = Presentation::of(&ctx);
        let mut result = respond::finish(self.dispatch(&args, &ctx).await, presentation);
        respond::redact_text(&mut result);
        Ok(result)
    }
}

impl PackageTool {
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
            Action::Add | Action::Update => call.add().await,
            Action::Remove => call.remove().await,
            Action::Search => call.search().await,
            Action::List => call.list().await,
            Action::AddReference | Action::RemoveReference => call.edit_reference().await,
            Action::ListReferences => call.list_references().await,
            Action::ClearCache => call.clear_cache().await,
        }
    }
}

/// One call: the tool, the client, the checked parameters and the working directory.
struct Call<'a> {
    tool: &'a PackageTool,
    ctx: &'a CallContext,
    params: Params<'a>,
    cwd: PathBuf,
    action: Action,
}

impl Call<'_> {
    /// The `project` parameter, else the one `target` in the client's roots, else `None` (the
    /// CLI's default).
    async fn project(&self, target: Target) -> Result<Option<String>, ErrorResponse> {
        if let Some(project) = self.params.opt("project", Kind::ProjectPath)? {
            return Ok(Some(project.to_owned()));
        }
        let found = workspace::discover(self.ctx, target, "project").await?;
        Ok(found.map(|path| path.display().to_string()))
    }

    /// How prose names the target: the project as given, or the working directory's project.
    fn target_name(&self, project: Option<&str>) -> String {
        match project {
            Some(project) => project.to_owned(),
            None => format!("the project in {}", self.cwd.display()),
        }
    }

    async fn lock(&self, target: LockTarget) -> Result<LockGuard, Failed> {
        let operation = format!("dotnet_package {}", self.action.name());
        locking::acquire(&self.tool.plugin, &target, &operation, self.tool.settings.lock_wait)
            .await
            .map_err(Failed::from)
    }

    async fn lock_project(&self, project: Option<&str>) -> Result<LockGuard, Failed> {
        self.lock(LockTarget::for_path(project.map(Path::new), &self.cwd)).await
    }

    /// Runs dotnet; a non-zero exit is the contract's error for it.
    async fn run(&self, args: Vec<String>, description: &str, progress: ProgressKind) -> Result<Ran, ErrorResponse> {
        let ran = self.run_any(args, description, progress).await?;
        if ran.succeeded() { Ok(ran) } else { Err(ran.failure()) }
    }

    /// Runs dotnet and returns the run whatever its exit code.
    async fn run_any(
        &self,
        args: Vec<String>,
        description: &str,
        progress: ProgressKind,
    ) -> Result<Ran, ErrorResponse> {
        let command = exec::Command::new(args, &self.cwd, description).progress(progress);
        exec::run(&self.tool.settings, self.ctx, command).await
    }

    /// The structured content of a run: `fields`, the action, the command as run (redacted),
    /// the lock held, then redacted as a whole.
    fn structured(&self, ran: &Ran, guard: Option<&LockGuard>, mut fields: Value) -> Value {
        fields["action"] = json!(self.action.name());
        fields["command"] = json!(redacted_command_line("dotnet", &ran.argv[1..]));
        if let Some(guard) = guard {
            fields["lockInfo"] = locking::lock_info_json(guard.info());
        }
        if let Some(object) = fields.as_object_mut() {
            object.retain(|_, value| !value.is_null());
        }
        redact_json(&mut fields);
        fields
    }

    /// The version of `id` in the project file before an update, when the file names one.
    fn version_before(&self, project: Option<&str>, id: &str) -> Option<String> {
        let path = project.map_or_else(|| self.cwd.clone(), |project| self.cwd.join(project));
        let file = if path.is_dir() {
            match workspace::candidates_in(&path, Target::Project).as_slice() {
                [only] => only.clone(),
                _ => return None,
            }
        } else {
            path
        };
        project_file::read(&file).ok()?.package(id)?.version.clone()
    }

    async fn add(&self) -> Result<Reply, Failed> {
        let params = &self.params;
        let id = params.req("packageId", Kind::PackageId)?;
        let version = params.opt("version", Kind::Version)?;
        let add = AddPackage {
            project: None,
            id,
            version,
            prerelease: params.flag("prerelease"),
            source: params.opt("source", Kind::Text)?,
            framework: params.opt("framework", Kind::Framework)?,
            no_restore: params.flag("noRestore"),
        };
        let project = self.project(Target::Project).await?;
        let update = self.action == Action::Update;
        let previous = if update { self.version_before(project.as_deref(), id) } else { None };
        let guard = self.lock_project(project.as_deref()).await?;
        let args = command::add_package(&AddPackage { project: project.as_deref(), ..add });
        let verb = if update { "updating" } else { "adding" };
        let ran = self
            .run(args, &format!("{verb} package {id}"), ProgressKind::Lines)
            .await
            .map_err(Failed::holding(&guard))?;
        let added = report::added(&ran.outcome.stdout);
        let target = added.project_file.clone().unwrap_or_else(|| self.target_name(project.as_deref()));
        let written = added.version.clone().map_or_else(|| "its latest version".to_owned(), |v| format!("version {v}"));
        let summary = match (update, &previous) {
            (false, _) => format!("Added package {id} {written} to {target}."),
            (true, Some(previous)) => format!("Updated package {id} from {previous} to {written} in {target}."),
            (true, None) => format!(
                "Updated package {id} to {written} in {target} (the project file named no earlier version of it)."
            ),
        };
        let notes = notes(&ran.outcome.stdout, &ran.outcome.stderr);
        let structured = self.structured(
            &ran,
            Some(&guard),
            json!({
                "project": project,
                "packageId": id,
                "requestedVersion": version,
                "version": added.version,
                "previousVersion": previous,
                "projectFile": added.project_file,
            }),
        );
        Ok(Reply::new(summary).section("Notes", notes).output(ran.outcome.stdout.clone()).structured(structured))
    }

    async fn remove(&self) -> Result<Reply, Failed> {
        let id = self.params.req("packageId", Kind::PackageId)?;
        let project = self.project(Target::Project).await?;
        let guard = self.lock_project(project.as_deref()).await?;
        let args = command::remove_package(project.as_deref(), id);
        let ran = self
            .run(args, &format!("removing package {id}"), ProgressKind::None)
            .await
            .map_err(Failed::holding(&guard))?;
        let summary = format!("Removed package {id} from {}.", self.target_name(project.as_deref()));
        let structured = self.structured(&ran, Some(&guard), json!({ "project": project, "packageId": id }));
        Ok(Reply::new(summary).output(ran.outcome.stdout.clone()).structured(structured))
    }

    async fn search(&self) -> Result<Reply, Failed> {
        let params = &self.params;
        let search = Search {
            term: params.req("searchTerm", Kind::Text)?,
            take: params.opt_u64("take"),
            skip: params.opt_u64("skip"),
            prerelease: params.flag("prerelease"),
            exact_match: params.flag("exactMatch"),
            source: params.opt("source", Kind::Text)?,
        };
        let term = search.term;
        let ran = self.run(command::search(&search), &format!("searching for {term}"), ProgressKind::None).await?;
        let (hits, problems) = report::search(&ran.outcome.stdout).map_err(|reason| unreadable(&ran, &reason))?;
        let summary = match hits.len() {
            0 => format!("No package matches '{term}'."),
            1 => format!("Found 1 package for '{term}'."),
            count => format!("Found {count} packages for '{term}'."),
        };
        let lines = hits
            .iter()
            .map(|hit| {
                let mut line = format!("{} {}", hit.id, hit.version.as_deref().unwrap_or("(no version)"));
                if let Some(downloads) = hit.downloads {
                    line.push_str(&format!(", {} downloads", thousands(downloads)));
                }
                if let Some(owners) = &hit.owners {
                    line.push_str(&format!(", by {owners}"));
                }
                line.push_str(&format!(" ({})", hit.source));
                line
            })
            .collect();
        let packages: Vec<Value> = hits.iter().map(report::Hit::to_json).collect();
        let structured = self.structured(
            &ran,
            None,
            json!({ "searchTerm": term, "exactMatch": search.exact_match, "packages": packages, "problems": problems }),
        );
        Ok(Reply::new(summary).section("Packages", lines).section("Problems", problems).structured(structured))
    }

    async fn list(&self) -> Result<Reply, Failed> {
        let params = &self.params;
        let reports: Vec<Report> =
            [("outdated", Report::Outdated), ("deprecated", Report::Deprecated), ("vulnerable", Report::Vulnerable)]
                .into_iter()
                .filter(|(name, _)| params.flag(name))
                .map(|(_, report)| report)
                .collect();
        let report = match reports.as_slice() {
            [] => Report::All,
            [one] => *one,
            _ => {
                return Err(invalid(
                    "outdated",
                    "conflict",
                    "Choose one of outdated, deprecated and vulnerable: NuGet reports one of them at a time.",
                )
                .into());
            }
        };
        let prerelease = params.flag("prerelease");
        if prerelease && report != Report::Outdated {
            return Err(invalid(
                "prerelease",
                "not applicable",
                "Parameter 'prerelease' applies to List only together with outdated.",
            )
            .into());
        }
        let source = params.opt("source", Kind::Text)?;
        if source.is_some() && report == Report::All {
            return Err(invalid(
                "source",
                "not applicable",
                "Parameter 'source' applies to List only with outdated, deprecated or vulnerable.",
            )
            .into());
        }
        let framework = params.opt("framework", Kind::Framework)?;
        let filter = params.opt_any("filter").filter(|filter| !filter.is_empty());
        let max = params.opt_u64("maxResults");
        let transitive = params.flag("includeTransitive");
        let project = self.project(Target::ProjectOrSolution).await?;
        let list = ListPackages { project: project.as_deref(), report, transitive, framework, prerelease, source };
        let ran = self.run_any(command::list_packages(&list), "listing packages", ProgressKind::None).await?;
        let parsed = report::package_list(&ran.outcome.stdout);
        if !ran.succeeded() {
            // With --format json, NuGet reports what went wrong as problems inside the report.
            let problems = parsed.as_ref().map(report::PackageList::all_problems).unwrap_or_default();
            return Err(match problems.is_empty() {
                true => ran.failure(),
                false => ErrorResponse::from_failed_run(
                    &ran.argv,
                    ran.exit_code(),
                    &problems.join("\n"),
                    &ran.outcome.stderr,
                ),
            }
            .into());
        }
        let mut listed = parsed.map_err(|reason| unreadable(&ran, &reason))?;
        let matched = listed.select(filter, max);
        let shown = listed.count();
        let problems = listed.all_problems();
        let mut summary = format!(
            "{shown} package{} in {} project{}",
            plural(shown),
            listed.projects.len(),
            plural(listed.projects.len())
        );
        summary.push_str(match report {
            Report::All => ".",
            Report::Outdated => " have newer versions.",
            Report::Deprecated => " are deprecated.",
            Report::Vulnerable => " have known vulnerabilities.",
        });
        if shown < matched {
            summary.push_str(&format!(" Showing {shown} of {matched} (maxResults)."));
        }
        let mut reply = Reply::new(summary);
        for project in &listed.projects {
            for framework in &project.frameworks {
                let transitive =
                    framework.transitive.iter().flatten().map(|package| format!("{} (transitive)", describe(package)));
                let lines = framework.top_level.iter().map(describe).chain(transitive).collect();
                reply = reply.section(format!("{} [{}]", file_name(&project.path), framework.framework), lines);
            }
        }
        let structured = self.structured(
            &ran,
            None,
            json!({
                "project": project,
                "report": report.as_str(),
                "includeTransitive": transitive,
                "framework": framework,
                "filter": filter,
                "maxResults": max,
                "projects": listed.projects_json(),
                "totalPackages": matched,
                "shownPackages": shown,
                "truncated": shown < matched,
                "problems": problems,
                "sources": listed.sources,
            }),
        );
        Ok(reply.section("Problems", problems).structured(structured))
    }

    async fn edit_reference(&self) -> Result<Reply, Failed> {
        let reference = self.params.req("referencePath", Kind::ProjectPath)?;
        let project = self.project(Target::Project).await?;
        let guard = self.lock_project(project.as_deref()).await?;
        let (verb, done) = match self.action {
            Action::AddReference => ("add", "Added a reference to"),
            _ => ("remove", "Removed the reference to"),
        };
        let args = command::reference(verb, project.as_deref(), Some(reference));
        let description = format!("{verb} reference {reference}");
        let ran = self.run(args, &description, ProgressKind::None).await.map_err(Failed::holding(&guard))?;
        let summary = format!("{done} {reference} in {}.", self.target_name(project.as_deref()));
        let structured = self.structured(&ran, Some(&guard), json!({ "project": project, "references": [reference] }));
        Ok(Reply::new(summary).output(ran.outcome.stdout.clone()).structured(structured))
    }

    async fn list_references(&self) -> Result<Reply, Failed> {
        let project = self.project(Target::Project).await?;
        let args = command::reference("list", project.as_deref(), None);
        let ran = self.run(args, "listing project references", ProgressKind::None).await?;
        let references = report::references(&ran.outcome.stdout);
        let target = self.target_name(project.as_deref());
        let summary = match references.len() {
            0 => format!("{} has no project references.", sentence_start(&target)),
            count => format!("{} references {count} project{}.", sentence_start(&target), plural(count)),
        };
        let structured = self.structured(&ran, None, json!({ "project": project, "references": references }));
        Ok(Reply::new(summary).section("References", references).structured(structured))
    }

    async fn clear_cache(&self) -> Result<Reply, Failed> {
        let cache = self.params.opt("cacheType", Kind::Identifier)?.unwrap_or("all");
        if !schema::CACHE_TYPES.contains(&cache) {
            let message =
                format!("Parameter 'cacheType' must be one of {} (got '{cache}').", schema::CACHE_TYPES.join(", "));
            return Err(invalid("cacheType", "invalid value", &message).into());
        }
        let guard = self.lock(LockTarget::global()).await?;
        let ran = self
            .run(command::clear_cache(cache), &format!("clearing the NuGet cache '{cache}'"), ProgressKind::Lines)
            .await
            .map_err(Failed::holding(&guard))?;
        let cleared = report::cleared(&ran.outcome.stdout);
        let summary = match cleared.len() {
            0 => format!("Cleared the NuGet cache '{cache}'."),
            count => format!("Cleared {count} NuGet cache{}.", if count == 1 { "" } else { "s" }),
        };
        let lines = cleared.iter().map(|(name, path)| format!("{name}: {path}")).collect();
        let cleared: Vec<Value> = cleared.iter().map(|(name, path)| json!({ "cache": name, "path": path })).collect();
        let structured = self.structured(&ran, Some(&guard), json!({ "cacheType": cache, "cleared": cleared }));
        Ok(Reply::new(summary).section("Cleared", lines).structured(structured))
    }
}

fn invalid(parameter: &str, reason: &str, message: &str) -> ErrorResponse {
    ErrorResponse::from(ErrorResult::invalid_params(parameter, reason, message))
}

/// A report that exited 0 but could not be read: the SDK lacks the machine-readable output
/// (older than 8.0.200 for search, 7.0.200 for the package list) or printed something else.
fn unreadable(ran: &Ran, reason: &str) -> ErrorResponse {
    let mut error = ErrorResult::capability_not_available(
        "NuGet JSON report",
        reason,
        vec![
            "Update the .NET SDK: `--format json` needs SDK 7.0.200 (list) or 8.0.200 (search) or later.".to_owned(),
            "Run the command in a terminal to see its output.".to_owned(),
        ],
    );
    if let Some(data) = error.data.as_mut() {
        data.command = Some(redacted_command_line("dotnet", &ran.argv[1..]));
        data.exit_code = Some(ran.exit_code());
    }
    error.raw_output = ran.outcome.transcript.clone();
    ErrorResponse::new(error, ran.exit_code())
}

/// One package in prose: `Id 1.2.3 (requested 1.2.*, latest 2.0.0; deprecated: Legacy, use X; vulnerable: High <url>)`.
fn describe(package: &Value) -> String {
    let field = |key: &str| package[key].as_str();
    let mut line =
        format!("{} {}", field("id").unwrap_or_default(), field("resolvedVersion").unwrap_or("(unresolved)"));
    let mut notes = Vec::new();
    if let Some(requested) = field("requestedVersion") {
        notes.push(format!("requested {requested}"));
    }
    if let Some(latest) = field("latestVersion") {
        notes.push(format!("latest {latest}"));
    }
    if let Some(reasons) = package["deprecationReasons"].as_array() {
        let reasons: Vec<&str> = reasons.iter().filter_map(Value::as_str).collect();
        let mut note = format!("deprecated: {}", reasons.join(", "));
        if let Some(alternative) = package["alternativePackage"]["id"].as_str() {
            note.push_str(&format!(", use {alternative}"));
        }
        notes.push(note);
    }
    for vulnerability in package["vulnerabilities"].as_array().into_iter().flatten() {
        let severity = vulnerability["severity"].as_str().unwrap_or_default();
        let url = vulnerability["advisoryUrl"].as_str().unwrap_or_default();
        notes.push(format!("vulnerable: {severity} {url}"));
    }
    if !notes.is_empty() {
        line.push_str(&format!(" ({})", notes.join("; ")));
    }
    line
}

fn file_name(path: &str) -> &str {
    Path::new(path).file_name().and_then(|name| name.to_str()).unwrap_or(path)
}

fn plural(count: usize) -> &'static str {
    if count == 1 { "" } else { "s" }
}

/// What `add package` said that matters beyond the version: NuGet's warnings, the framework
/// compatibility verdict and the restore, without the `info :` / `log  :` prefixes. The full
/// output stays available at `verbosity=verbose`.
fn notes(stdout: &str, stderr: &str) -> Vec<String> {
    stdout
        .lines()
        .chain(stderr.lines())
        .map(str::trim)
        .filter_map(|line| {
            let (level, text) = line.split_once(" : ").map_or(("", line), |(level, text)| (level.trim(), text.trim()));
            let keep = level.eq_ignore_ascii_case("warn")
                || text.starts_with("Restored ")
                || (text.starts_with("Package '") && text.contains("compatible"));
            keep.then(|| if level.eq_ignore_ascii_case("warn") { format!("warning: {text}") } else { text.to_owned() })
        })
        .collect()
}

/// `6123456789` → `6,123,456,789`.
fn thousands(count: u64) -> String {
    let digits = count.to_string();
    let mut grouped = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    grouped
}

/// `text` with its first letter in upper case, to start a sentence.
fn sentence_start(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map(|first| first.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn add_notes_keep_warnings_compatibility_and_the_restore() {
        let stdout = "  Determining projects to restore...\n\
                      info : GET https://api.nuget.org/v3/index.json\n\
                      warn : NU1603: App depends on Serilog (>= 4.2.0) but Serilog 4.2.0 was not found.\n\
                      info : Package 'Serilog' is compatible with all the specified frameworks in project 'App.csproj'.\n\
                      log  : Restored /src/App/App.csproj (in 1.06 sec).\n";
        assert_eq!(
            notes(stdout, ""),
            [
                "warning: NU1603: App depends on Serilog (>= 4.2.0) but Serilog 4.2.0 was not found.",
                "Package 'Serilog' is compatible with all the specified frameworks in project 'App.csproj'.",
                "Restored /src/App/App.csproj (in 1.06 sec).",
            ]
        );
    }

    #[test]
    fn prose_helpers() {
        assert_eq!(thousands(6_123_456_789), "6,123,456,789");
        assert_eq!(thousands(999), "999");
        assert_eq!(sentence_start("the project in /src"), "The project in /src");
        assert_eq!(sentence_start(""), "");
    }
}
