//! Reading: Search (NuGet's JSON search report), List (NuGet's JSON package report) and
//! ListReferences.

use dotnet_support::{
    errors::{ErrorResponse, ErrorResult},
    exec::{ProgressKind, Ran},
    kit::{Call, Outcome, Shape},
    params::Kind,
    respond::Reply,
    workspace::Target,
};
use serde_json::{Value, json};

use super::{
    describe, fields_of, file_name, invalid, of_run, plural, project, run, run_any, sentence_start, strings,
    target_name, thousands, unreadable, with_common,
};
use crate::{
    command::{self, ListPackages, Report, Search},
    parse,
};

fn package_schema() -> Value {
    json!({
        "type": "object",
        "required": ["id"],
        "properties": {
            "id": { "type": "string" },
            "requestedVersion": { "type": "string" },
            "resolvedVersion": { "type": "string" },
            "latestVersion": { "type": "string", "description": "Only in the outdated report." },
            "autoReferenced": { "type": "boolean" },
            "deprecationReasons": strings(),
            "alternativePackage": {
                "type": "object",
                "required": ["id"],
                "properties": { "id": { "type": "string" }, "versionRange": { "type": "string" } }
            },
            "vulnerabilities": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["severity", "advisoryUrl"],
                    "properties": { "severity": { "type": "string" }, "advisoryUrl": { "type": "string" } }
                }
            }
        }
    })
}

/// Search: the packages found.
pub fn found_shape() -> Shape {
    Shape::new(
        with_common(json!({
            "searchTerm": { "type": "string" },
            "exactMatch": { "type": "boolean" },
            "packages": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["id", "source"],
                    "properties": {
                        "id": { "type": "string" },
                        "version": { "type": "string", "description": "The latest version, or the version of an exact match." },
                        "downloads": { "type": "integer", "minimum": 0 },
                        "owners": { "type": "string" },
                        "description": { "type": "string" },
                        "source": { "type": "string" }
                    }
                }
            },
            "problems": strings()
        })),
        &["searchTerm", "packages", "problems", "command"],
    )
}

/// List: the packages per project and framework.
pub fn listed_shape() -> Shape {
    let packages = json!({ "type": "array", "items": package_schema() });
    Shape::new(
        with_common(json!({
            "report": { "type": "string", "enum": ["all", "outdated", "deprecated", "vulnerable"] },
            "includeTransitive": { "type": "boolean" },
            "framework": { "type": "string" },
            "filter": { "type": "string" },
            "maxResults": { "type": "integer" },
            "projects": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["path", "frameworks"],
                    "properties": {
                        "path": { "type": "string" },
                        "frameworks": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "required": ["framework", "topLevelPackages"],
                                "properties": {
                                    "framework": { "type": "string" },
                                    "topLevelPackages": packages,
                                    "transitivePackages": packages
                                }
                            }
                        }
                    }
                }
            },
            "totalPackages": { "type": "integer", "minimum": 0, "description": "Packages that matched the filter." },
            "shownPackages": { "type": "integer", "minimum": 0, "description": "Packages returned (after maxResults)." },
            "truncated": { "type": "boolean" },
            "problems": strings(),
            "sources": strings()
        })),
        &[
            "report",
            "includeTransitive",
            "projects",
            "totalPackages",
            "shownPackages",
            "truncated",
            "problems",
            "command",
        ],
    )
}

/// ListReferences: the project references.
pub fn references_shape() -> Shape {
    Shape::new(with_common(json!({ "references": strings() })), &["references", "command"])
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
    let packages: Vec<Value> = hits.iter().map(parse::Hit::to_json).collect();
    let structured = fields_of(
        &ran,
        json!({ "searchTerm": term, "exactMatch": search.exact_match, "packages": packages, "problems": problems }),
    );
    Ok(Reply::new(summary).section("Packages", lines).section("Problems", problems).structured(structured))
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
            "Invalid argument 'prerelease': applies to List only together with outdated.",
        )
        .into());
    }
    let source = params.opt("source", Kind::Text)?;
    if source.is_some() && report == Report::All {
        return Err(invalid(
            "source",
            "not applicable",
            "Invalid argument 'source': applies to List only with outdated, deprecated or vulnerable.",
        )
        .into());
    }
    let framework = params.opt("framework", Kind::Framework)?;
    let filter = params.opt_any("filter").filter(|filter| !filter.is_empty());
    let max = params.opt_u64("maxResults");
    let transitive = params.flag("includeTransitive");
    let project = project(call, Target::ProjectOrSolution).await?;
    let list = ListPackages { project: project.as_deref(), report, transitive, framework, prerelease, source };
    let ran = run_any(call, command::list_packages(&list), "listing packages", ProgressKind::None).await?;
    let parsed = parse::package_list(&ran.outcome.stdout);
    if !ran.succeeded() {
        // With --format json, NuGet reports what went wrong as problems inside the report.
        let problems = parsed.as_ref().map(parse::PackageList::all_problems).unwrap_or_default();
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
    let structured = fields_of(
        &ran,
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

/// ListReferences: `list [<project>] reference`.
pub async fn list_references(call: &Call<'_>) -> Outcome {
    let project = project(call, Target::Project).await?;
    let args = command::reference("list", project.as_deref(), None);
    let ran = run(call, args, "listing project references", ProgressKind::None).await?;
    let references = parse::references(&ran.outcome.stdout);
    let target = target_name(call, project.as_deref());
    let summary = match references.len() {
        0 => format!("{} has no project references.", sentence_start(&target)),
        count => format!("{} references {count} project{}.", sentence_start(&target), plural(count)),
    };
    let structured = fields_of(&ran, json!({ "project": project, "references": references }));
    Ok(Reply::new(summary).section("References", references).structured(structured))
}
