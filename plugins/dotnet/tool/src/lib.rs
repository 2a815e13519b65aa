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
//! none means the local manifest the CLI finds from the working directory up ([`scope`]). A
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

mod actions;
mod parse;
pub mod scope;

use dotnet_support::kit::{ActionSpec, ActionTool, Call, Declaration, Family, Lock, Outcome, Param};
use mcp_plugin_api::export_plugin;
use serde_json::json;

export_plugin! {
    name: "dotnet_tool",
    version: env!("CARGO_PKG_VERSION"),
    settings_schema: dotnet_support::settings::settings_schema(),
    tools: |ctx| Ok(vec![ActionTool::new(DotnetTool, ctx)?.into()]),
}

dotnet_support::actions! {
    /// The actions of `dotnet_tool`.
    pub enum Action { Install, List, Update, Uninstall, Restore, CreateManifest, Search, Run, Exec }
}

/// The `dotnet_tool` family.
#[derive(Debug, Default)]
pub struct DotnetTool;

impl Family for DotnetTool {
    type Action = Action;

    fn declare() -> Declaration<Action> {
        const SCOPE: [&str; 3] = ["global", "toolPath", "manifest"];
        const SOURCES: [&str; 2] = ["source", "configFile"];
        // Install and Update take the same options and report the same change.
        let install = |action| {
            ActionSpec::writes(action)
                .open_world()
                .locks(Lock::Target)
                .requires(&["packageId"])
                .takes(&SCOPE)
                .takes(&["version", "framework", "prerelease", "allowDowngrade"])
                .takes(&SOURCES)
                .returns(actions::change::changed_shape())
        };
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
        .param(Param::flag("global", "The user's global tools instead of the local manifest (Install, Update, Uninstall, List)."))
        .param(Param::string("toolPath", "Install into, list or remove from this folder instead of the local manifest."))
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
        .param(Param::new(
            "take",
            json!({ "type": "integer", "minimum": 1, "maximum": 1000, "description": "How many search results to return (the CLI's default: 20)." }),
        ))
        .param(Param::new("skip", json!({ "type": "integer", "minimum": 0, "description": "How many search results to skip." })))
        .param(Param::string("toolName", "Command of the local tool to run (Run), such as dotnet-ef."))
        .param(Param::new(
            "args",
            json!({
                "type": "array",
                "maxItems": 64,
                "items": { "type": "string", "minLength": 1, "maxLength": 1024 },
                "description": "Arguments for the tool (Run, Exec), one per entry: letters, digits and \" _.,:=/\\+@%~-\"; options as single tokens (-v, --check, --format=json); no @response files."
            }),
        ))
        .param(Param::string(
            "output",
            "Folder to create the tool manifest in (CreateManifest): SDK 10 writes dotnet-tools.json in the folder \
             itself, earlier SDKs .config/dotnet-tools.json; the result names the file written.",
        ))
        .param(Param::flag("force", "Overwrite an existing manifest (CreateManifest)."))
        .common(&["workingDirectory"])
        .action(install(Action::Install))
        .action(
            ActionSpec::reads(Action::List)
                .takes(&["packageId", "global", "toolPath"])
                .returns(actions::list::listed_shape()),
        )
        .action(install(Action::Update))
        .action(
            ActionSpec::destroys(Action::Uninstall)
                .idempotent()
                .locks(Lock::Target)
                .requires(&["packageId"])
                .takes(&SCOPE)
                .returns(actions::change::uninstalled_shape()),
        )
        .action(
            ActionSpec::writes(Action::Restore)
                .idempotent()
                .open_world()
                .locks(Lock::Target)
                .takes(&["manifest"])
                .takes(&SOURCES)
                .returns(actions::change::restored_shape()),
        )
        .action(
            ActionSpec::destroys(Action::CreateManifest)
                .locks(Lock::Target)
                .takes(&["output", "force"])
                .returns(actions::change::created_shape()),
        )
        .action(
            ActionSpec::reads(Action::Search)
                .open_world()
                .requires(&["searchTerm"])
                .takes(&["detail", "take", "skip", "prerelease"])
                .returns(actions::list::found_shape()),
        )
        .action(
            ActionSpec::destroys(Action::Run)
                .open_world()
                .requires(&["toolName"])
                .takes(&["args"])
                .returns(actions::run::shape()),
        )
        .action(
            ActionSpec::destroys(Action::Exec)
                .open_world()
                .requires(&["packageId"])
                .takes(&["version", "prerelease", "args"])
                .takes(&SOURCES)
                .returns(actions::run::exec_shape()),
        )
    }

    async fn run(&self, action: Action, call: &Call<'_>) -> Outcome {
        match action {
            Action::List => actions::list::list(call).await,
            Action::Search => actions::list::search(call).await,
            Action::Run => actions::run::run(call).await,
            Action::Exec => actions::run::exec(call).await,
            Action::Install | Action::Update | Action::Uninstall | Action::Restore | Action::CreateManifest => {
                actions::change::run(action, call).await
            }
        }
    }
}
