//! List, Info and Search: what is installed, and what could be.

use dotnet_support::{
    kit::{Call, Outcome, prose::count},
    params::Kind,
    respond::Reply,
};
use schemars::JsonSchema;
use serde::Serialize;

use crate::parse::{self, FoundWorkload, InstalledWorkload};

/// List and Info: the installed workloads.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Installed {
    workloads: Vec<InstalledWorkload>,
    /// The workload set version, when the SDK prints one.
    #[serde(skip_serializing_if = "Option::is_none")]
    workload_version: Option<String>,
}

/// Search: the workloads found.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Found {
    #[serde(skip_serializing_if = "Option::is_none")]
    search_term: Option<String>,
    workloads: Vec<FoundWorkload>,
}

/// Where the installed workloads are read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Listing {
    /// `dotnet workload list`: ids, manifest versions and sources.
    List,
    /// `dotnet workload --info`: also the manifest paths and install types.
    Info,
}

/// Runs List or Info.
pub async fn installed(call: &Call<'_>, listing: Listing) -> Outcome {
    let (verb, description) = match listing {
        Listing::List => ("list", "listing the installed workloads"),
        Listing::Info => ("--info", "reading the installed workloads' details"),
    };
    let ran = call.run_ok(call.command(vec!["workload".into(), verb.into()], description)).await?;
    let stdout = &ran.outcome.stdout;
    let workloads = match listing {
        Listing::List => parse::list(stdout),
        Listing::Info => parse::info(stdout),
    };
    let lines = workloads
        .iter()
        .map(|workload| {
            let details: Vec<&str> =
                [&workload.manifest_version, &workload.installation_source, &workload.install_type]
                    .into_iter()
                    .flatten()
                    .map(String::as_str)
                    .collect();
            if details.is_empty() { workload.id.clone() } else { format!("{} ({})", workload.id, details.join(", ")) }
        })
        .collect();
    let workload_version = parse::workload_version(stdout);
    let version = workload_version.as_ref().map(|version| format!(" (workload version {version})")).unwrap_or_default();
    Ok(Reply::new(format!("{} installed{version}.", count(workloads.len(), "workload")))
        .section("Workloads", lines)
        .read_output(ran.outcome.transcript.clone())
        .result(Installed { workloads, workload_version }))
}

/// Runs Search.
pub async fn search(call: &Call<'_>) -> Outcome {
    let term = call.params().opt("searchTerm", Kind::Text)?;
    let mut args = vec!["workload".to_owned(), "search".to_owned()];
    args.extend(term.map(str::to_owned));
    let ran = call.run_ok(call.command(args, "searching the available workloads")).await?;
    let workloads = parse::search(&ran.outcome.stdout);
    let lines = workloads.iter().map(|workload| format!("{}: {}", workload.id, workload.description)).collect();
    let found = count(workloads.len(), "workload");
    let summary = match term {
        Some(term) => format!("{found} available for '{term}'."),
        None => format!("{found} available."),
    };
    Ok(Reply::new(summary)
        .section("Workloads", lines)
        .read_output(ran.outcome.transcript.clone())
        .result(Found { search_term: term.map(str::to_owned), workloads }))
}
