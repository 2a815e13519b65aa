//! The `dotnet_tool` plugin: .NET tools through the dotnet CLI, in all three places a tool can
//! live (a local manifest, the user's global tools, a tool path).
//!
//! One tool, `dotnet_tool`, with the actions of the reference server:
//!
//! | action | runs | lock |
//! |---|---|---|
//! | `Install` | `dotnet tool install <packageId> [scope] [--version] [--framework] [--prerelease] [--allow-downgrade] [--add-source] [--configfile]` | the scope's |
//! | `Update` | `dotnet tool update <packageId>` with the same options | the scope's |
//! | `Uninstall` | `dotnet tool uninstall <packageId> [scope]` (asks the user first) | the scope's |
//! | `List` | `dotnet tool list [<packageId>] [--global \| --tool-path <p>] --format json` (SDK 9+; the table on SDK 8) | none |
//! | `Restore` | `dotnet tool restore [--tool-manifest <m>] [--add-source] [--configfile]` | the manifest's folder |
//! | `CreateManifest` | `dotnet new tool-manifest [-o <output>] [--force]` | the new manifest's folder |
//! | `Search` | `dotnet tool search <searchTerm> [--detail] [--take N] [--skip N] [--prerelease]` | none |
//! | `Run` | `dotnet tool run <toolName> [-- <args>...]` | none |
//! | `Exec` | `dotnet tool exec <packageId> [--version] [--prerelease] [--add-source] [--configfile] --yes [-- <args>...]` (SDK 10+) | none |
//!
//! The scope is `--global`, `--tool-path <toolPath>` or `--tool-manifest <manifest>`, at most one;
//! none means the local manifest the CLI finds from the working directory up (`scope.rs`). A
//! global tool locks the machine, a tool path its folder, a local tool its manifest's folder.
//! When the call names no working directory, a local action runs in the client's root that holds
//! a tool manifest, if exactly one does.
//!
//! `List` reads `--format json` (SDK 9.0.100 and later print `{"version":1,"data":[...]}`); an
//! SDK that rejects the option (SDK 8) is asked again for its table, so `List` works on both.
//!
//! Annotations, per action: `List` reads (closed-world) and `Search` reads nuget.org
//! (open-world); `Install` and `Update` write and fetch from NuGet feeds (open-world, not
//! idempotent: without a version they take the latest); `Restore` writes the manifest's pinned
//! versions (open-world, idempotent); `Uninstall` destroys (idempotent); `CreateManifest`
//! destroys too, since `force` overwrites an existing manifest; `Run` starts a tool that may do
//! anything, so it counts as destructive, open-world and not idempotent, and so does `Exec`,
//! which also downloads the package (with `--yes`: no one can answer the CLI's question). The tool is
//! destructive, not idempotent and open-world; with `ReadOnly` (List and Search) it is
//! read-only, idempotent and open-world.

#![deny(missing_docs)]

mod actions;
mod parse;
mod scope;

use actions::{change, list, run};
use dotnet_support::kit::{ActionSpec, ActionTool, Call, Declaration, Family, Lock, Outcome, Param};
use mcp_plugin_api::export_plugin;

export_plugin! {
    name: "dotnet_tool",
    version: env!("CARGO_PKG_VERSION"),
    settings_schema: dotnet_support::settings::settings_schema(),
    tools: |ctx| Ok(vec![ActionTool::new(DotnetTool, ctx)?.into()]),
}

dotnet_support::actions! {
    /// The actions of `dotnet_tool` (the module's table says what each runs).
    pub enum Action {
        /// Installs a tool.
        Install,
        /// The tools installed in a scope.
        List,
        /// Updates a tool.
        Update,
        /// Removes a tool (asks first).
        Uninstall,
        /// Installs the tools a local manifest pins.
        Restore,
        /// Writes a new local tool manifest.
        CreateManifest,
        /// Searches nuget.org for tools.
        Search,
        /// Runs a local tool's command.
        Run,
        /// Runs a tool package once without installing it (SDK 10+).
        Exec,
    }
}

/// Most arguments `Run` and `Exec` pass to a tool.
const MAX_TOOL_ARGS: usize = 64;
/// Longest single argument of `Run` and `Exec`.
const MAX_TOOL_ARG_CHARS: usize = 1024;

/// The `dotnet_tool` family.
#[derive(Debug, Default)]
pub struct DotnetTool;

/// Where a tool lives: at most one of them.
const SCOPE: [&str; 3] = ["global", "toolPath", "manifest"];
/// The options that choose where packages come from.
const SOURCES: [&str; 2] = ["source", "configFile"];

/// What each action takes, does, locks and answers.
fn spec(action: Action) -> ActionSpec<Action> {
    match action {
        // Install and Update take the same options and report the same change.
        Action::Install | Action::Update => ActionSpec::writes(action)
            .open_world()
            .locks(Lock::Target)
            .requires(&["packageId"])
            .takes(&SCOPE)
            .takes(&["version", "framework", "prerelease", "allowDowngrade"])
            .takes(&SOURCES)
            .runs_dotnet()
            .result::<change::Changed>(),
        Action::List => {
            ActionSpec::reads(action).takes(&["packageId", "global", "toolPath"]).runs_dotnet().result::<list::Listed>()
        }
        Action::Uninstall => ActionSpec::destroys(action)
            .idempotent()
            .locks(Lock::Target)
            .requires(&["packageId"])
            .takes(&SCOPE)
            .runs_dotnet()
            .result::<change::Uninstalled>(),
        Action::Restore => ActionSpec::writes(action)
            .idempotent()
            .open_world()
            .locks(Lock::Target)
            .takes(&["manifest"])
            .takes(&SOURCES)
            .runs_dotnet()
            .result::<change::Restored>(),
        Action::CreateManifest => ActionSpec::destroys(action)
            .locks(Lock::Target)
            .takes(&["output", "force"])
            .runs_dotnet()
            .result::<change::Created>(),
        Action::Search => ActionSpec::reads(action)
            .open_world()
            .requires(&["searchTerm"])
            .takes(&["detail", "take", "skip", "prerelease"])
            .runs_dotnet()
            .result::<list::Found>(),
        Action::Run => ActionSpec::destroys(action)
            .open_world()
            .requires(&["toolName"])
            .takes(&["args"])
            .runs_dotnet()
            .result::<run::ToolRan>(),
        Action::Exec => ActionSpec::destroys(action)
            .open_world()
            .requires(&["packageId"])
            .takes(&["version", "prerelease", "args"])
            .takes(&SOURCES)
            .runs_dotnet()
            .result::<run::Executed>(),
    }
}

impl Family for DotnetTool {
    type Action = Action;

    fn declare() -> Declaration<Action> {
        Declaration::new(
            "dotnet_tool",
            ".NET Tool Manager",
            "Manage .NET tools: Install, Update and Uninstall a tool (local manifest by default, `global`, or \
             `toolPath`), List installed tools, Restore a manifest's tools, CreateManifest, Search nuget.org, \
             Run a local tool with `args`, and Exec a tool package once without installing it (SDK 10+, \
             `dotnet tool exec --yes`). List and Search return the parsed tables. Uninstall asks the user \
             to confirm when the client supports elicitation.",
        )
        .param(Param::string(
            "workingDirectory",
            "Folder the command runs in (default: the client's root holding a tool manifest, else the server's).",
        ))
        .param(Param::string(
            "packageId",
            "NuGet package id of the tool (Install, Update, Uninstall, Exec; a filter for List).",
        ))
        .param(Param::flag(
            "global",
            "The user's global tools instead of the local manifest (Install, Update, Uninstall, List).",
        ))
        .param(Param::string(
            "toolPath",
            "Install into, list or remove from this folder instead of the local manifest.",
        ))
        .param(Param::string(
            "manifest",
            "Path of the local tool manifest (dotnet-tools.json) to use (Install, Update, Uninstall, Restore).",
        ))
        .param(Param::string("version", "Version or version range to install, update to or Exec."))
        .param(Param::string("framework", "Target framework to install the tool for, such as net10.0."))
        .param(Param::flag("prerelease", "Allow prerelease versions (Install, Update, Search, Exec)."))
        .param(Param::flag("allowDowngrade", "Allow installing or updating to a lower version."))
        .param(Param::string("source", "An extra NuGet source (URL or folder) to look for the tool in."))
        .param(Param::string("configFile", "NuGet.Config file to use."))
        .param(Param::string("searchTerm", "What to search nuget.org for (Search)."))
        .param(Param::flag("detail", "Show descriptions and versions of the search results."))
        .param(Param::integer("take", 1, Some(1000), "How many search results to return (the CLI's default: 20)."))
        .param(Param::integer("skip", 0, None, "How many search results to skip."))
        .param(Param::string("toolName", "Command of the local tool to run (Run), such as dotnet-ef."))
        .param(
            Param::strings(
                "args",
                "Arguments for the tool (Run, Exec), one per entry: letters, digits and \" _.,:=/\\+@%~-\"; options \
                 as single tokens (-v, --check, --format=json); no @response files.",
            )
            .max_items(MAX_TOOL_ARGS)
            .max_length(MAX_TOOL_ARG_CHARS),
        )
        .param(Param::string(
            "output",
            "CreateManifest: the folder for the manifest (SDK 10 writes dotnet-tools.json in it, earlier SDKs \
             .config/dotnet-tools.json).",
        ))
        .param(Param::flag("force", "Overwrite an existing manifest (CreateManifest)."))
        .common(&["workingDirectory"])
        .each_action(spec)
    }

    async fn run(&self, action: Action, call: &Call<'_>) -> Outcome {
        match action {
            Action::Install => change::install(call, change::Change::Install).await,
            Action::Update => change::install(call, change::Change::Update).await,
            Action::Uninstall => change::uninstall(call).await,
            Action::Restore => change::restore(call).await,
            Action::CreateManifest => change::create_manifest(call).await,
            Action::List => list::list(call).await,
            Action::Search => list::search(call).await,
            Action::Run => run::run(call).await,
            Action::Exec => run::exec(call).await,
        }
    }
}
