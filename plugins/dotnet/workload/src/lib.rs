//! The `dotnet_workload` plugin: the optional workloads of the .NET SDK (Android, iOS, MAUI,
//! WebAssembly tools...) through the dotnet CLI.
//!
//! One tool, `dotnet_workload`, with the actions of the reference server:
//!
//! | action | runs | lock |
//! |---|---|---|
//! | `List` | `dotnet workload list` | none |
//! | `Info` | `dotnet workload --info` | none |
//! | `Search` | `dotnet workload search [<searchTerm>]` | none |
//! | `Install` | `dotnet workload install <id>... [--skip-manifest-update] [--include-previews] [--source <s>] [--configfile <f>]` | machine |
//! | `Update` | `dotnet workload update [--include-previews] [--source <s>] [--configfile <f>]` | machine |
//! | `Uninstall` | `dotnet workload uninstall <id>...` (asks the user first) | machine |
//!
//! Workloads belong to the SDK installation, so installs, updates and uninstalls take the
//! machine-wide (`global`) lock. The working directory still matters: a `global.json` there
//! chooses the SDK, and so the feature band, the command acts on. Every action returns
//! structured content: the parsed tables of `List` and `Search`, the blocks of `Info`, and what
//! changed for the others. An install or update that fails because the NuGet feeds do not serve
//! a workload's packs (a mirror, an offline feed) is `CAPABILITY_NOT_AVAILABLE` naming the pack,
//! with the remedy: a `source` or `configFile` that serves them.
//!
//! Annotations, per action: `List`, `Info` and `Search` read what the installed SDK knows
//! (closed-world: `workload search` reads the manifests installed with the SDK); `Install` and
//! `Update` write the SDK installation and download packs from NuGet feeds (open-world; not
//! idempotent, since manifests move to their latest versions); `Uninstall` destroys (projects
//! that need the workload stop building) and is idempotent. So the tool is destructive, not
//! idempotent and open-world; with `ReadOnly` it is read-only, idempotent and closed-world.

#![deny(missing_docs)]

mod actions;
mod parse;

use actions::{change, list};
use dotnet_support::kit::{ActionSpec, ActionTool, Call, Declaration, Family, Lock, Outcome, Param};
use mcp_plugin_api::export_plugin;

export_plugin! {
    name: "dotnet_workload",
    version: env!("CARGO_PKG_VERSION"),
    settings_schema: dotnet_support::settings::settings_schema(),
    tools: |ctx| Ok(vec![ActionTool::new(DotnetWorkload, ctx)?.into()]),
}

dotnet_support::actions! {
    /// The actions of `dotnet_workload` (the module's table says what each runs).
    pub enum Action {
        /// The installed workloads.
        List,
        /// The installed workloads with their manifests.
        Info,
        /// The workloads the SDK could install.
        Search,
        /// Installs workloads.
        Install,
        /// Updates every installed workload.
        Update,
        /// Removes workloads (asks first).
        Uninstall,
    }
}

/// Most workload ids one call may name.
const MAX_WORKLOAD_IDS: usize = 32;
/// Longest workload id.
const MAX_WORKLOAD_ID_CHARS: usize = 64;

/// The `dotnet_workload` family.
#[derive(Debug, Default)]
pub struct DotnetWorkload;

/// The options of Install and Update that choose where packs come from.
const SOURCES: [&str; 3] = ["includePreviews", "source", "configFile"];

/// What each action takes, does, locks and answers.
fn spec(action: Action) -> ActionSpec<Action> {
    match action {
        Action::List | Action::Info => ActionSpec::reads(action).runs_dotnet().result::<list::Installed>(),
        Action::Search => ActionSpec::reads(action).takes(&["searchTerm"]).runs_dotnet().result::<list::Found>(),
        Action::Install => ActionSpec::writes(action)
            .open_world()
            .locks(Lock::Machine)
            .requires(&["workloadIds"])
            .takes(&["skipManifestUpdate"])
            .takes(&SOURCES)
            .runs_dotnet()
            .result::<change::Installed>(),
        Action::Update => ActionSpec::writes(action)
            .open_world()
            .locks(Lock::Machine)
            .takes(&SOURCES)
            .runs_dotnet()
            .result::<change::Updated>(),
        Action::Uninstall => ActionSpec::destroys(action)
            .idempotent()
            .locks(Lock::Machine)
            .requires(&["workloadIds"])
            .runs_dotnet()
            .result::<change::Uninstalled>(),
    }
}

impl Family for DotnetWorkload {
    type Action = Action;

    fn declare() -> Declaration<Action> {
        Declaration::new(
            "dotnet_workload",
            ".NET Workload Manager",
            "Manage .NET SDK workloads: List the installed ones, Info for their details, Search the available \
             ones, Install or Uninstall `workloadIds`, and Update all installed workloads. List, Info and Search \
             return parsed results. Install, Update and Uninstall change the SDK installation for the whole \
             machine; Uninstall asks the user to confirm when the client supports elicitation.",
        )
        .param(Param::string(
            "workingDirectory",
            "Folder the command runs in; a global.json there chooses the SDK whose workloads are managed.",
        ))
        .param(
            Param::strings(
                "workloadIds",
                "Install, Uninstall: workload ids, such as wasm-tools or maui-android (at least one).",
            )
            .max_items(MAX_WORKLOAD_IDS)
            .pattern("^[A-Za-z0-9][A-Za-z0-9_-]*$")
            .max_length(MAX_WORKLOAD_ID_CHARS),
        )
        .param(Param::string("searchTerm", "Text to look for in workload ids and descriptions (Search)."))
        .param(Param::flag("skipManifestUpdate", "Install without updating the workload manifests first."))
        .param(Param::flag("includePreviews", "Allow prerelease workload manifests (Install, Update)."))
        .param(Param::string("source", "NuGet source to get workload packs from (Install, Update)."))
        .param(Param::string("configFile", "NuGet.Config file to use (Install, Update)."))
        .common(&["workingDirectory"])
        .each_action(spec)
    }

    async fn run(&self, action: Action, call: &Call<'_>) -> Outcome {
        match action {
            Action::List => list::installed(call, list::Listing::List).await,
            Action::Info => list::installed(call, list::Listing::Info).await,
            Action::Search => list::search(call).await,
            Action::Install => change::install(call).await,
            Action::Update => change::update(call).await,
            Action::Uninstall => change::uninstall(call).await,
        }
    }
}
