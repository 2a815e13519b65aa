//! List and Search: what is installed in a scope, and what nuget.org offers.

use dotnet_support::{
    errors::ErrorResponse,
    exec::{Command, Ran},
    kit::{Call, Outcome, prose::count},
    params::Kind,
    respond::Reply,
};
use schemars::JsonSchema;
use serde::Serialize;

use crate::{
    parse::{self, FoundTool, InstalledTool},
    scope::{self, ScopeKind},
};

// List: the tools of a scope.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Listed {
    scope: ScopeKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    package_id: Option<String>,
    tools: Vec<InstalledTool>,
}

// Search: the packages found.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Found {
    search_term: String,
    packages: Vec<FoundTool>,
}

/// The option an SDK without `tool list --format` rejects (SDK 8).
const FORMAT_UNKNOWN: &str = "Unrecognized command or argument '--format'";

/// Lists the tools of a scope: `--format json` first, the table when the SDK predates it.
pub async fn list(call: &Call<'_>) -> Outcome {
    let scope = scope::Scope::read(call.params())?;
    let cwd = scope::folder(call, scope == scope::Scope::Local(None)).await?;
    let id = call.params().opt("packageId", Kind::PackageId)?;
    let mut args = vec!["tool".to_owned(), "list".to_owned()];
    args.extend(id.map(str::to_owned));
    args.extend(scope.args());
    let description = format!("listing the tools installed {}", scope.describe());
    let mut json_args = args.clone();
    json_args.extend(["--format".to_owned(), "json".to_owned()]);
    let ran = call.run(Command::new(json_args, &cwd, description.clone())).await?;
    let (ran, tools) = if !ran.succeeded() && ran.outcome.transcript.contains(FORMAT_UNKNOWN) {
        let ran = call.run_ok(Command::new(args, &cwd, description)).await?;
        let tools = parse::list(&ran.outcome.stdout);
        (ran, tools)
    } else if ran.succeeded() {
        let hint = "Check the .NET SDK version (dotnet --version); run the command in a terminal to see its output.";
        let tools = parse::list_json(&ran.outcome.stdout).map_err(|reason| ran.unreadable(&reason, hint))?;
        (ran, tools)
    } else {
        return Err(ran.failure().into());
    };
    let lines = tools
        .iter()
        .map(|tool| {
            let manifest = tool.manifest.as_ref().map(|m| format!(", manifest {m}")).unwrap_or_default();
            format!("{} {} (commands: {}{manifest})", tool.package_id, tool.version, tool.commands.join(", "))
        })
        .collect();
    let summary = format!("{} installed {}.", count(tools.len(), "tool"), scope.describe());
    Ok(Reply::new(summary).section("Tools", lines).read_output(ran.outcome.transcript.clone()).result(Listed {
        scope: scope.kind(),
        package_id: id.map(str::to_owned),
        tools,
    }))
}

/// Searches nuget.org for tools.
pub async fn search(call: &Call<'_>) -> Outcome {
    let params = call.params();
    let term = params.req("searchTerm", Kind::Text)?;
    let mut args = vec!["tool".to_owned(), "search".to_owned(), term.to_owned()];
    if params.flag("detail") {
        args.push("--detail".into());
    }
    for name in ["take", "skip"] {
        if let Some(count) = params.opt_u64(name) {
            args.extend([format!("--{name}"), count.to_string()]);
        }
    }
    if params.flag("prerelease") {
        args.push("--prerelease".into());
    }
    let description = format!("searching nuget.org for tools matching '{term}'");
    let ran = call.run(call.command(args.clone(), description)).await?;
    if !ran.succeeded() {
        return Err(match parse::search_failure(&ran.outcome.transcript) {
            Some(why) => search_unreachable(&ran, why),
            None => ran.failure(),
        }
        .into());
    }
    let found = parse::search(&ran.outcome.stdout);
    let lines = found
        .iter()
        .map(|tool| {
            let mut line = format!("{} {}", tool.package_id, tool.latest_version);
            if let Some(authors) = &tool.authors {
                line.push_str(&format!(" by {authors}"));
            }
            if let Some(downloads) = tool.downloads {
                line.push_str(&format!(", {downloads} downloads"));
            }
            if tool.verified {
                line.push_str(", verified");
            }
            if let Some(description) = &tool.description {
                line.push_str(&format!(": {description}"));
            }
            line
        })
        .collect();
    Ok(Reply::new(format!("{} found for '{term}'.", count(found.len(), "tool")))
        .section("Tools", lines)
        .read_output(ran.outcome.transcript.clone())
        .result(Found { search_term: term.to_owned(), packages: found }))
}

/// A search that could not reach NuGet.org's search service (see [`parse::search_failure`]):
/// not possible here, and tools can still be installed by id.
fn search_unreachable(ran: &Ran, why: &str) -> ErrorResponse {
    let mut error = ran.not_available(
        "Search",
        &format!(
            "dotnet tool search asks NuGet.org's search service itself (not the configured sources), which is not \
             reachable from here: {why}"
        ),
        vec![
            "Install the tool by its package id with Install (packageId, version; source for a feed or mirror \
             that serves it)."
                .to_owned(),
            "List shows the tools installed already.".to_owned(),
            "Search https://www.nuget.org/packages?packagetype=dotnettool from a machine with internet access."
                .to_owned(),
        ],
    );
    error.errors[0].hint = Some(
        "Tool search needs NuGet.org's search service; install the tool by its package id with Install instead."
            .to_owned(),
    );
    error
}
