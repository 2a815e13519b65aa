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
//! Every result carries `structuredContent` (one result type per action, with the command run
//! and its exit code, or the error envelope) and a short prose account for the model. [`command`] builds every argument vector; the NuGet
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
//! - List shows the warnings of the restore `list package` runs first (`warnings`, and a "Restore
//!   warnings" section), which its JSON report leaves out and the terminal shows: NuGet keeps them
//!   in each project's assets file, read where NuGet writes it by default (`obj/` beside the
//!   project; see `listing`). When that restore fails, the report says only "Restore failed";
//!   List answers with the restore's errors (NU1101...) from the same files, a solution's
//!   projects found with `dotnet sln <solution> list` (one more process, only then).
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

#![deny(missing_docs)]

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

use actions::{
    cache, listing,
    packages::{self, Change},
    references::{self, Edit},
    why,
};

export_plugin! {
    name: "dotnet_package",
    version: env!("CARGO_PKG_VERSION"),
    settings_schema: dotnet_support::settings::settings_schema(),
    tools: |ctx| Ok(vec![ActionTool::new(DotnetPackage, ctx)?.into()]),
}

dotnet_support::actions! {
    /// The actions of `dotnet_package`.
    pub enum Action {
        /// Adds a package reference to the project (and restores it).
        Add,
        /// Removes a package reference from the project.
        Remove,
        /// Searches the NuGet sources for packages.
        Search,
        /// Moves a package reference to another version (the latest without one).
        Update,
        /// Lists the packages per project and framework, or one of NuGet's audits.
        List,
        /// Adds a project reference.
        AddReference,
        /// Removes a project reference.
        RemoveReference,
        /// Lists the project references.
        ListReferences,
        /// The dependency paths that bring a package into the project.
        Why,
        /// Clears one or all of the machine's NuGet caches.
        ClearCache,
    }
}

/// The `dotnet_package` family.
#[derive(Debug, Default)]
pub struct DotnetPackage;

impl Family for DotnetPackage {
    type Action = Action;

    fn declare() -> Declaration<Action> {
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
        .param(Param::integer("take", 1, Some(1000), "Results to return (Search)."))
        .param(Param::integer("skip", 0, None, "Results to skip (Search)."))
        .param(flag("exactMatch", "Only the package whose id is the search term, with all its versions (Search)."))
        .param(flag("outdated", "List: report the latest version of packages that have a newer one."))
        .param(flag("deprecated", "List: report deprecated packages with their reasons and alternatives."))
        .param(flag("vulnerable", "List: report packages with known vulnerabilities."))
        .param(flag("includeTransitive", "List: include transitive packages."))
        .param(string("filter", "List: keep packages whose id contains this text (case-insensitive)."))
        .param(Param::integer("maxResults", 1, None, "List: return at most this many packages."))
        .param(string("referencePath", "Project to reference or unreference (required by AddReference, RemoveReference)."))
        .param(Param::new(
            "cacheType",
            json!({ "type": "string", "enum": cache::CACHE_TYPES, "default": "all", "description": "ClearCache: which NuGet cache to clear." }),
        ))
        .param(string("workingDirectory", "Folder to run in (relative paths are relative to it)."))
        .common(&["workingDirectory"])
        .each_action(spec)
    }

    async fn run(&self, action: Action, call: &Call<'_>) -> Outcome {
        match action {
            Action::Add => packages::add(Change::Add, call).await,
            Action::Update => packages::add(Change::Update, call).await,
            Action::Remove => packages::remove(call).await,
            Action::Search => listing::search(call).await,
            Action::List => listing::list(call).await,
            Action::AddReference => references::edit(Edit::Add, call).await,
            Action::RemoveReference => references::edit(Edit::Remove, call).await,
            Action::ListReferences => references::list(call).await,
            Action::Why => why::why(call).await,
            Action::ClearCache => cache::clear_cache(call).await,
        }
    }
}

/// What each action takes, needs, locks and answers with. Every action runs dotnet. Add and
/// Update are one command (`add package`), so one declaration and one result.
fn spec(action: Action) -> ActionSpec<Action> {
    // The edits of a project file: under the project's lock, and the workspace resource changes.
    let edits_project = |spec: ActionSpec<Action>| spec.locks(Lock::Target).takes(&["project"]).announces(WORKSPACE);
    let spec = match action {
        Action::Add | Action::Update => edits_project(ActionSpec::writes(action))
            .open_world()
            .requires(&["packageId"])
            .takes(&["version", "prerelease", "source", "framework", "noRestore"])
            .result::<packages::Added>(),
        Action::Remove => edits_project(ActionSpec::destroys(action))
            .idempotent()
            .requires(&["packageId"])
            .result::<packages::Removed>(),
        Action::Search => ActionSpec::reads(action)
            .open_world()
            .requires(&["searchTerm"])
            .takes(&["take", "skip", "prerelease", "exactMatch", "source"])
            .result::<listing::Found>(),
        Action::List => ActionSpec::reads(action)
            .open_world()
            .takes(&["project", "outdated", "deprecated", "vulnerable", "includeTransitive", "framework"])
            .takes(&["prerelease", "source", "filter", "maxResults"])
            .result::<listing::Listed>(),
        Action::AddReference => edits_project(ActionSpec::writes(action))
            .idempotent()
            .requires(&["referencePath"])
            .result::<references::Referenced>(),
        Action::RemoveReference => edits_project(ActionSpec::destroys(action))
            .idempotent()
            .requires(&["referencePath"])
            .result::<references::Referenced>(),
        Action::ListReferences => ActionSpec::reads(action).takes(&["project"]).result::<references::Referenced>(),
        Action::Why => ActionSpec::reads(action)
            .requires(&["packageId"])
            .takes(&["project", "framework"])
            .result::<why::Explained>(),
        Action::ClearCache => ActionSpec::destroys(action)
            .idempotent()
            .locks(Lock::Machine)
            .takes(&["cacheType"])
            .result::<cache::Cleared>(),
    };
    spec.runs_dotnet()
}
