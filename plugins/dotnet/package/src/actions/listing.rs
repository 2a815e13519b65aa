//! NuGet's reports: Search (its JSON search report) and List (its JSON package report).

use std::path::{Path, PathBuf};

use dotnet_support::{
    diagnostics::{Diagnostic, Severity},
    errors::{ErrorResponse, ErrorResult},
    exec::{ProgressKind, Ran},
    kit::{Call, Outcome, Reason, TargetParam, invalid, prose},
    params::Kind,
    respond::Reply,
    workspace,
};
use schemars::JsonSchema;
use serde::Serialize;

use super::{describe, file_name, of_run, run, run_any, thousands, unreadable};
use crate::{
    command::{self, ListPackages, Report, Search},
    parse::{self, Hit, PackageList, ProjectPackages},
};

// Search: the packages found, and the problems the sources reported.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Found {
    search_term: String,
    exact_match: bool,
    packages: Vec<Hit>,
    problems: Vec<String>,
}

// List: the packages per project and framework, after the filter and the cap; `problems` of the
// report and of each project, `sources` that an audit report checked, and the `warnings` of the
// restore that ran first (when there were any).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Listed {
    #[serde(skip_serializing_if = "Option::is_none")]
    project: Option<String>,
    report: Report,
    include_transitive: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    framework: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    filter: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_results: Option<u64>,
    projects: Vec<ProjectPackages>,
    /// Packages that matched the filter.
    total_packages: usize,
    /// Packages returned (after maxResults).
    shown_packages: usize,
    truncated: bool,
    problems: Vec<String>,
    sources: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    warnings: Vec<Diagnostic>,
}

/// Search: `package search <term> ... --format json`.
pub async fn search(call: &Call<'_>) -> Outcome {
    let params = call.params();
    let search = Search {
        term: params.req("searchTerm", Kind::Text)?,
        take: params.opt_u64("take"),
        skip: params.opt_u64("skip"),
        prerelease: params.flag("prerelease"),
        exact_match: params.flag("exactMatch"),
        source: params.opt("source", Kind::Text)?,
    };
    let term = search.term;
    let ran = run(call, command::search(&search), &format!("searching for {term}"), ProgressKind::None).await?;
    let (hits, problems) = parse::search(&ran.outcome.stdout).map_err(|reason| unreadable(&ran, &reason))?;
    if hits.is_empty()
        && let Some(sources) = parse::without_search_service(&ran.outcome.stdout)
    {
        return Err(no_search_service(&ran, &sources).into());
    }
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
    Ok(Reply::new(summary).section("Packages", lines).section("Problems", problems.clone()).result(Found {
        search_term: term.to_owned(),
        exact_match: search.exact_match,
        packages: hits,
        problems,
    }))
}

/// Search when no source has a search service (NuGet exits 0 and says so only in its report):
/// CAPABILITY_NOT_AVAILABLE, with the ways to find a package without one.
fn no_search_service(ran: &Ran, sources: &[String]) -> ErrorResponse {
    let names = sources.join(", ");
    let mut error = ErrorResult::capability_not_available(
        "package search",
        &format!(
            "the package source(s) {names} serve packages but have no search service (NuGet: \"The source does not \
             have a Search service!\")"
        ),
        vec![
            "Search a source that has one: source https://api.nuget.org/v3/index.json (when this machine reaches it)."
                .to_owned(),
            "Find the package id on https://www.nuget.org, then use Add with packageId (and version): adding needs no \
             search service."
                .to_owned(),
        ],
    );
    error.hint =
        Some(format!("{names} cannot search; pass source with a feed that can, or add the package by its exact id."));
    of_run(ran, error)
}

/// List: `list [<project>] package --format json --output-version 1 ...`, filtered and capped.
pub async fn list(call: &Call<'_>) -> Outcome {
    let params = call.params();
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
                Reason::Conflict,
                "Choose one of outdated, deprecated and vulnerable: NuGet reports one of them at a time.",
            )
            .into());
        }
    };
    let prerelease = params.flag("prerelease");
    if prerelease && report != Report::Outdated {
        return Err(invalid(
            "prerelease",
            Reason::NotApplicable,
            "Invalid argument 'prerelease': applies to List only together with outdated.",
        )
        .into());
    }
    let source = params.opt("source", Kind::Text)?;
    if source.is_some() && report == Report::All {
        return Err(invalid(
            "source",
            Reason::NotApplicable,
            "Invalid argument 'source': applies to List only with outdated, deprecated or vulnerable.",
        )
        .into());
    }
    let framework = params.opt("framework", Kind::Framework)?;
    let filter = params.opt_any("filter").filter(|filter| !filter.is_empty());
    let max = params.opt_u64("maxResults");
    let transitive = params.flag("includeTransitive");
    let project = call.cli_target(TargetParam::project().or_solution()).await?;
    let list = ListPackages { project: project.as_deref(), report, transitive, framework, prerelease, source };
    let ran = run_any(call, command::list_packages(&list), "listing packages", ProgressKind::None).await?;
    let parsed = parse::package_list(&ran.outcome.stdout);
    if !ran.succeeded() {
        // With --format json, NuGet reports what went wrong as problems inside the report; of a
        // failed restore only "Restore failed", its errors (NU1101...) are in the assets file.
        let problems = parsed.as_ref().map(parse::PackageList::all_problems).unwrap_or_default();
        let restore = failed_restore(call, project.as_deref()).await;
        let problems: Vec<String> = restore.iter().map(Diagnostic::console_line).chain(problems).collect();
        return Err(match problems.is_empty() {
            true => ran.failure(),
            false => {
                ErrorResponse::from_failed_run(&ran.argv, ran.exit_code(), &problems.join("\n"), &ran.outcome.stderr)
            }
        }
        .into());
    }
    let mut listed = parsed.map_err(|reason| unreadable(&ran, &reason))?;
    let matched = listed.select(filter, max);
    let shown = listed.count();
    let warnings = restore_warnings(&mut listed);
    let problems = listed.all_problems();
    // The framework is said once, here, when every project has that one only; otherwise each
    // project's heading names its framework.
    let frameworks: Vec<&str> = listed
        .projects
        .iter()
        .flat_map(|project| project.frameworks.iter().map(|framework| framework.framework.as_str()))
        .collect();
    let one_framework = listed.projects.iter().all(|project| project.frameworks.len() == 1)
        && frameworks.iter().all(|framework| Some(framework) == frameworks.first());
    let mut summary =
        format!("{} in {}", prose::count(shown, "package"), prose::count(listed.projects.len(), "project"));
    if let (true, Some(framework)) = (one_framework, frameworks.first()) {
        summary.push_str(&format!(" ({framework})"));
    }
    summary.push_str(match report {
        Report::All => ".",
        Report::Outdated => " have newer versions.",
        Report::Deprecated => " are deprecated.",
        Report::Vulnerable => " have known vulnerabilities.",
    });
    // An audit is as good as the sources it asked (NuGet: "given the current sources").
    if !listed.sources.is_empty() {
        summary.push_str(&format!(" Sources checked: {}.", listed.sources.join(", ")));
    }
    if shown < matched {
        summary.push_str(&format!(" Showing {shown} of {matched}; raise maxResults to see the rest."));
    }
    let mut reply = Reply::new(summary);
    for project in &listed.projects {
        for framework in &project.frameworks {
            let transitive =
                framework.transitive.iter().flatten().map(|package| format!("{} (transitive)", describe(package)));
            let lines = framework.top_level.iter().map(describe).chain(transitive).collect();
            let heading = match one_framework {
                true => file_name(&project.path).to_owned(),
                false => format!("{} [{}]", file_name(&project.path), framework.framework),
            };
            reply = reply.section(heading, lines);
        }
    }
    let reply = reply.section("Problems", problems.clone());
    // Each warning names its project by file name, as the headings do; `warnings` has the path.
    let lines = warnings
        .iter()
        .map(|warning| Diagnostic {
            file: warning.file.as_deref().map(|file| file_name(file).to_owned()),
            ..warning.clone()
        })
        .map(|warning| warning.line())
        .collect();
    Ok(reply.section("Restore warnings", lines).result(Listed {
        project,
        report,
        include_transitive: transitive,
        framework: framework.map(str::to_owned),
        filter: filter.map(str::to_owned),
        max_results: max,
        projects: listed.projects,
        total_packages: matched,
        shown_packages: shown,
        truncated: shown < matched,
        problems,
        sources: listed.sources,
        warnings,
    }))
}

/// What the restore that `list package` runs first reported, which its JSON report leaves out and
/// the terminal shows: the warnings, returned, and the errors, added to their project's problems.
/// Each project's assets file is read where NuGet writes it by default, `obj/project.assets.json`
/// beside the project. A project that moves it (`BaseIntermediateOutputPath`,
/// `MSBuildProjectExtensionsPath` or `ProjectAssetsFile` set) has nothing there and shows no
/// restore warnings here (or those of an older assets file it left in `obj`); asking MSBuild
/// where the file is would cost a `dotnet msbuild -getProperty:ProjectAssetsFile` per project,
/// 0.3 s each against 1.4 s for the whole listing of a two-project solution (SDK 10.0.401).
fn restore_warnings(listed: &mut PackageList) -> Vec<Diagnostic> {
    let mut warnings = Vec::new();
    for project in &mut listed.projects {
        for log in restore_logs(Path::new(&project.path)) {
            if log.severity != Severity::Error {
                warnings.push(log);
                continue;
            }
            // A problem as the report words one (`error: text`), the project put before it by
            // `all_problems`.
            let text = match log.code.is_empty() {
                true => log.message,
                false => format!("{}: {}", log.code, log.message),
            };
            project.problems.push(format!("error: {text}"));
        }
    }
    warnings
}

/// What the last restore of `project` reported, from its assets file where NuGet writes it by
/// default (see [`restore_warnings`]).
fn restore_logs(project: &Path) -> Vec<Diagnostic> {
    let file = project.parent().map(|dir| dir.join("obj").join("project.assets.json"));
    let assets = file.and_then(|file| std::fs::read_to_string(file).ok()).unwrap_or_default();
    parse::restore_logs(&assets, &project.to_string_lossy())
}

/// The errors of the restore a List that failed ran first, which its report leaves out (it says
/// only "Restore failed. Run `dotnet restore` for more details on the issue."): read from the
/// assets files of the projects listed: the project given, a solution's projects, or what the
/// folder given (the working directory without one) holds of either.
async fn failed_restore(call: &Call<'_>, target: Option<&str>) -> Vec<Diagnostic> {
    let path = target.map_or_else(|| call.cwd().to_owned(), |target| call.cwd().join(target));
    let file = match path.is_dir() {
        true => match workspace::candidates_in(&path, workspace::Target::ProjectOrSolution).as_slice() {
            [one] => one.clone(),
            _ => return Vec::new(),
        },
        false => path,
    };
    let projects = match workspace::is_target(&file, workspace::Target::Solution) {
        true => solution_projects(call, &file).await,
        false => vec![file],
    };
    projects
        .iter()
        .filter(|project| workspace::is_target(project, workspace::Target::Project))
        .flat_map(|project| restore_logs(project))
        .filter(|log| log.severity == Severity::Error)
        .collect()
}

/// The projects of `solution` as `dotnet sln <solution> list` lists them: one more process, run
/// only when a solution's List failed. None when it fails too.
async fn solution_projects(call: &Call<'_>, solution: &Path) -> Vec<PathBuf> {
    let args = vec!["sln".to_owned(), solution.display().to_string(), "list".to_owned()];
    let Ok(ran) = run_any(call, args, "listing the solution's projects", ProgressKind::None).await else {
        return Vec::new();
    };
    let dir = solution.parent().unwrap_or(Path::new(""));
    match ran.succeeded() {
        true => parse::listed_paths(&ran.outcome.stdout).into_iter().map(|project| dir.join(project)).collect(),
        false => Vec::new(),
    }
}
