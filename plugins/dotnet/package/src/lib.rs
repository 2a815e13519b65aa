//! The `dotnet_package` plugin: one tool, `dotnet_package`, for a project's NuGet packages and
//! project references, on the dotnet CLI.
//!
//! | action | runs | lock |
//! |---|---|---|
//! | Add, Update | `dotnet add [<project>] package <id> [--version <v> \| --prerelease] [--source <s>] [--framework <f>] [--no-restore]` | the project |
//! | Remove | `dotnet remove [<project>] package <id>` | the project |
//! | Search | `dotnet package search <term> [--take N] [--skip N] [--prerelease] [--exact-match] [--source <s>] --format json` | none |
//! | List | `dotnet list [<project>] package --format json --output-version 1 [--outdated\|--deprecated\|--vulnerable] [--include-transitive] [--framework <f>] [--include-prerelease] [--source <s>]` | none |
//! | AddReference, RemoveReference | `dotnet add\|remove [<project>] reference <path>` | the project |
//! | ListReferences | `dotnet list [<project>] reference` | none |
//! | Why | `dotnet nuget why [<project\|solution>] <id> [--framework <f>]` | none |
//! | ClearCache | `dotnet nuget locals <cache> --clear` | machine |
//!
//! Every result carries `structuredContent` (one shape per action, or the error envelope) and a
//! short prose account for the model. [`command`] builds every argument vector; the NuGet
//! reports are read in `parse`, `nuget why`'s trees in `paths`. List and Search read
//! NuGet's JSON reports, not its tables. List keeps the reference server's `filter` (a
//! case-insensitive substring of the id) and `maxResults` (a cap over all packages listed),
//! applied to the report.
//!
//! Decisions the reference left open:
//! - Add, Update, Remove, AddReference and RemoveReference change a project file, so a success
//!   announces `dotnet://workspace` updated (its package counts). ClearCache announces nothing:
//!   no resource shows the NuGet caches (the reference announced nothing for it either).
//! - A project that is not named is looked for in the client's roots (List also takes a
//!   solution); with none found the CLI picks the one project in the working directory.
//! - Add, Update, Remove and the reference edits lock the project, as builds of it do; ClearCache
//!   locks `global` (the caches are the machine's).
//! - Update is `add package` (there is no `update` verb on SDK 8 and 9). Without a version it
//!   moves to the latest (stable unless `prerelease`); the version the project file had before
//!   is reported as `previousVersion` when the file names one.
//! - Why answers with a result whether or not the package is in the graph (`depends`), as NuGet
//!   does (exit code 0 either way); a project never restored (NuGet prints its advice and exits
//!   0) is the error NETSDK1004 with the restore as its remedy. Each path runs from the project
//!   down to the package; a project reference on the way is a step of kind `project`.
//! - Annotations, per action: Search and List read NuGet feeds (open-world), ListReferences reads
//!   the project, Why its assets file; Add and Update write the project and restore from the
//!   feeds (open-world, not idempotent: without a version they follow the feed); AddReference
//!   writes (idempotent);
//!   Remove, RemoveReference and ClearCache destroy (idempotent). So the tool is destructive, not
//!   idempotent and open-world; with `ReadOnly` it is read-only, idempotent and open-world.

mod actions;
pub mod command;
mod parse;
mod paths;

use dotnet_support::{
    kit::{ActionSpec, ActionTool, Call, Declaration, Family, Lock, Outcome, Param},
    resources::WORKSPACE,
};
use mcp_plugin_api::export_plugin;
use serde_json::json;

use actions::{cache, listing, packages, references, why};

export_plugin! {
    name: "dotnet_package",
    version: env!("CARGO_PKG_VERSION"),
    settings_schema: dotnet_support::settings::settings_schema(),
    tools: |ctx| Ok(vec![ActionTool::new(DotnetPackage, ctx)?.into()]),
}

dotnet_support::actions! {
    /// The actions of `dotnet_package`.
    pub enum Action { Add, Remove, Search, Update, List, AddReference, RemoveReference, ListReferences, Why, ClearCache }
}

/// The `dotnet_package` family.
#[derive(Debug, Default)]
pub struct DotnetPackage;

impl Family for DotnetPackage {
    type Action = Action;

    fn declare() -> Declaration<Action> {
        // Add and Update are one command (`add package`), so one declaration.
        let add = |action| {
            ActionSpec::writes(action)
                .open_world()
                .locks(Lock::Target)
                .requires(&["packageId"])
                .takes(&["version", "project", "prerelease", "source", "framework", "noRestore"])
                .returns(packages::added_shape())
                .announces(WORKSPACE)
        };
        let string = Param::string;
        let flag = Param::flag;
        Declaration::new(
            "dotnet_package",
            "NuGet Packages and References",
            "A .NET project's NuGet packages and project references, with the dotnet CLI: Add, Update, Remove, \
             Search, List (per project and framework; outdated, deprecated or vulnerable ones), Why (the \
             dependency paths that bring a package in), AddReference, RemoveReference, ListReferences, \
             ClearCache. Each parameter names the actions that take it. The project defaults to the one in the \
             client's roots, else the working directory's.",
        )
        .param(string("packageId", "NuGet package id (required by Add, Remove, Update, Why)."))
        .param(string("version", "Version or range to add (Add, Update); without it NuGet picks the latest."))
        .param(string(
            "project",
            "Project file or folder (a solution too for List and Why). Omitted: the one project in the client's roots, \
             else the dotnet CLI's default (the one project in the working directory).",
        ))
        .param(string("source", "Package source URL, path or name (Add, Update, Search; List with an audit report)."))
        .param(string("framework", "Target framework, e.g. net10.0 (Add, Update: only for it; List, Why: only it)."))
        .param(flag("prerelease", "Allow prerelease versions (Add and Update without a version, Search; List only with outdated)."))
        .param(flag("noRestore", "Add or update the reference without restoring (Add, Update)."))
        .param(string("searchTerm", "What to search for (required by Search)."))
        .param(Param::new("take", json!({ "type": "integer", "minimum": 1, "maximum": 1000, "description": "Results to return (Search)." })))
        .param(Param::new("skip", json!({ "type": "integer", "minimum": 0, "description": "Results to skip (Search)." })))
        .param(flag("exactMatch", "Only the package whose id is the search term, with all its versions (Search)."))
        .param(flag("outdated", "List: report the latest version of packages that have a newer one."))
        .param(flag("deprecated", "List: report deprecated packages with their reasons and alternatives."))
        .param(flag("vulnerable", "List: report packages with known vulnerabilities."))
        .param(flag("includeTransitive", "List: include transitive packages."))
        .param(string("filter", "List: keep packages whose id contains this text (case-insensitive)."))
        .param(Param::new("maxResults", json!({ "type": "integer", "minimum": 1, "description": "List: return at most this many packages." })))
        .param(string("referencePath", "Project to reference or unreference (required by AddReference, RemoveReference)."))
        .param(Param::new(
            "cacheType",
            json!({ "type": "string", "enum": cache::CACHE_TYPES, "default": "all", "description": "ClearCache: which NuGet cache to clear." }),
        ))
        .param(string("workingDirectory", "Folder to run in (relative paths are relative to it)."))
        .common(&["workingDirectory"])
        .action(add(Action::Add))
        .action(
            ActionSpec::destroys(Action::Remove)
                .idempotent()
                .locks(Lock::Target)
                .requires(&["packageId"])
                .takes(&["project"])
                .returns(packages::removed_shape())
                .announces(WORKSPACE),
        )
        .action(
            ActionSpec::reads(Action::Search)
                .open_world()
                .requires(&["searchTerm"])
                .takes(&["take", "skip", "prerelease", "exactMatch", "source"])
                .returns(listing::found_shape()),
        )
        .action(add(Action::Update))
        .action(
            ActionSpec::reads(Action::List)
                .open_world()
                .takes(&["project", "outdated", "deprecated", "vulnerable", "includeTransitive", "framework"])
                .takes(&["prerelease", "source", "filter", "maxResults"])
                .returns(listing::listed_shape()),
        )
        .action(
            ActionSpec::writes(Action::AddReference)
                .idempotent()
                .locks(Lock::Target)
                .requires(&["referencePath"])
                .takes(&["project"])
                .returns(references::shape())
                .announces(WORKSPACE),
        )
        .action(
            ActionSpec::destroys(Action::RemoveReference)
                .idempotent()
                .locks(Lock::Target)
                .requires(&["referencePath"])
                .takes(&["project"])
                .returns(references::shape())
                .announces(WORKSPACE),
        )
        .action(ActionSpec::reads(Action::ListReferences).takes(&["project"]).returns(listing::references_shape()))
        .action(
            ActionSpec::reads(Action::Why)
                .requires(&["packageId"])
                .takes(&["project", "framework"])
                .runs_dotnet()
                .result::<why::Explained>(),
        )
        .action(
            ActionSpec::destroys(Action::ClearCache)
                .idempotent()
                .locks(Lock::Machine)
                .takes(&["cacheType"])
                .returns(cache::shape()),
        )
    }

    async fn run(&self, action: Action, call: &Call<'_>) -> Outcome {
        match action {
            Action::Add | Action::Update => packages::add(action, call).await,
            Action::Remove => packages::remove(call).await,
            Action::Search => listing::search(call).await,
            Action::List => listing::list(call).await,
            Action::AddReference | Action::RemoveReference => references::edit_reference(action, call).await,
            Action::ListReferences => listing::list_references(call).await,
            Action::Why => why::why(call).await,
            Action::ClearCache => cache::clear_cache(call).await,
        }
    }
}
