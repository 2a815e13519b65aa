//! The `dotnet_sdk` plugin: one tool, `dotnet_sdk`, for what is installed and how the SDK is
//! chosen: SDKs and runtimes, templates and template packages, target frameworks, global.json.
//!
//! | action | runs | lock | structured content |
//! |---|---|---|---|
//! | `Version` | `dotnet --version` | none | `{version}` |
//! | `Info` | `dotnet --info` | none | SDK, OS, host fields, `sdks`, `runtimes`, `globalJson` |
//! | `ListSdks` | `dotnet --list-sdks` | none | `{sdks[{version, path}], latest}` |
//! | `ListRuntimes` | `dotnet --list-runtimes` | none | `{runtimes[{name, version, path}]}` |
//! | `ListTemplates` | `dotnet new list [filter] [--language L] [--type T] [--tag G] [--author A] --columns-all [--debug:rebuild-cache]` | none | `{templates[], totalCount, truncated}` |
//! | `SearchTemplates` | `dotnet new search TERM [filters] --columns-all` | none | `{searchTerm, templates[], totalCount, truncated}` |
//! | `TemplateInfo` | `dotnet new SHORT --help [--language L] [--debug:rebuild-cache]` | none | `{shortName, template{name, options[]…}}` |
//! | `ListTemplatePacks` | `dotnet new uninstall` | none | `{packs[{id, version, details, templates[], uninstallCommand}]}` |
//! | `InstallTemplatePack` | `dotnet new install ID[@VERSION] [--nuget-source S] [--interactive] [--force]` | machine | `{package, version, previousVersion, alreadyInstalled, templates[], lockInfo}` |
//! | `UninstallTemplatePack` | `dotnet new uninstall ID` | machine | `{package, version, lockInfo}` |
//! | `FrameworkInfo` | `dotnet --list-sdks` (the table is built in) | none | `{frameworks[], latestRecommended, latestLts, installedSdks, asOf}` |
//! | `ConfigureGlobalJson` | nothing: edits global.json in place | its folder | `{path, created, changes[], content, lockInfo}` |
//! | `ClearTemplateCache` | `dotnet new list --columns-all --debug:rebuild-cache` | machine | `{cacheRebuilt, templateCount, lockInfo}` |
//!
//! Each action's result is a type (in its file under `actions/`, or in `parse.rs` where the parsed
//! type is the answer) whose schema the kit derives; the success of an action that runs dotnet
//! also carries its `command` and `exitCode` (FrameworkInfo answers without dotnet too, so it
//! reports neither).
//!
//! Decisions where the reference server was silent or wrong:
//!
//! - **Annotations**, per action: the listings, `TemplateInfo` and `FrameworkInfo` read the
//!   local installation; `SearchTemplates` reads NuGet.org (open-world). `InstallTemplatePack`
//!   writes and is not idempotent: without a version it takes the latest on the feed, which moves
//!   (open-world). `UninstallTemplatePack` destroys (its templates are gone); `ConfigureGlobalJson`
//!   destroys too, since it overwrites values (the previous ones are returned), and is idempotent;
//!   `ClearTemplateCache` writes a cache the engine rebuilds (idempotent). So the tool is
//!   destructive, not idempotent and open-world; with `ReadOnly` it is read-only, idempotent and
//!   open-world (SearchTemplates).
//! - **Caches.** This plugin keeps no cache: every call asks the CLI. The reference's cache
//!   control maps onto the one cache in play, the template engine's own: `forceReload` and
//!   `ClearTemplateCache` pass its `--debug:rebuild-cache` option. `CacheMetrics` is left out:
//!   with no cache there are no hits or misses to count.
//! - **Searching** asks NuGet.org (`dotnet new search`), as the CLI does; `ListTemplates` with a
//!   `filter` searches what is installed. Where NuGet.org's template index cannot be reached
//!   (`Search failed: ...`, exit 103) the answer is `CAPABILITY_NOT_AVAILABLE` with the remedy
//!   of installing by package id.
//! - **Template package versions** are passed as `id@version`, the form SDK 9.0.200 and later
//!   take (SDK 10 warns that `id::version` is deprecated; SDKs before 9.0.200 read only `::`);
//!   both forms are read back. Exit code 106 is "already installed" only when the output says
//!   so; otherwise it is the failure it is.
//! - **global.json** edits keep comments and formatting; values are checked (a full SDK version,
//!   a known `rollForward` policy, a known test runner) and a file the SDK could not read is
//!   refused rather than rewritten ([`global_json`]).
//! - **Resources, prompts, completions** ([`resources`], [`prompts`]): the reference's four
//!   installation resources (`dotnet://sdk-info`, `runtime-info`, `templates`, `frameworks`) and
//!   its five prompts live here; `dotnet://workspace` is `dotnet_solution`'s. A template pack
//!   install or uninstall and `ClearTemplateCache` announce `dotnet://templates` updated.
//! - **Locks.** Template pack installs, uninstalls and cache rebuilds take the host's `global`
//!   lock (the template engine's state is per user, shared by every SDK); a global.json edit locks
//!   its folder.

#![deny(missing_docs)]

mod actions;
mod global_json;
mod parse;
pub mod prompts;
pub mod resources;

use dotnet_support::{
    kit::{ActionSpec, ActionTool, Call, Declaration, Family, Lock, Outcome, Param},
    resources::TEMPLATES,
    settings::DotnetSettings,
};
use mcp_plugin_api::export_plugin;
use serde_json::json;

use actions::{configure, host, packs, templates};

export_plugin! {
    name: "dotnet_sdk",
    version: env!("CARGO_PKG_VERSION"),
    settings_schema: dotnet_support::settings::settings_schema(),
    tools: |ctx| Ok(vec![ActionTool::new(DotnetSdk, ctx)?.into()]),
    prompts: |ctx| Ok(prompts::all(&DotnetSettings::from_context(ctx)?)),
    resources: |ctx| Ok(resources::all(&DotnetSettings::from_context(ctx)?)),
}

dotnet_support::actions! {
    /// The actions of `dotnet_sdk`.
    pub enum Action {
        /// The SDK version in use in the working directory (`dotnet --version`).
        Version,
        /// Everything `dotnet --info` says: SDK, OS, host, SDKs, runtimes, global.json.
        Info,
        /// The installed SDKs (`dotnet --list-sdks`).
        ListSdks,
        /// The installed runtimes (`dotnet --list-runtimes`).
        ListRuntimes,
        /// The installed templates (`dotnet new list`), filtered.
        ListTemplates,
        /// Templates on NuGet.org (`dotnet new search`).
        SearchTemplates,
        /// One template's options (`dotnet new <template> --help`).
        TemplateInfo,
        /// The template packages the user installed (`dotnet new uninstall`).
        ListTemplatePacks,
        /// Installs a template package (`dotnet new install`).
        InstallTemplatePack,
        /// Uninstalls a template package (`dotnet new uninstall <id>`).
        UninstallTemplatePack,
        /// Target frameworks: LTS or STS, support dates, the one to use.
        FrameworkInfo,
        /// Sets global.json's SDK version, roll-forward policy, prerelease use or test runner.
        ConfigureGlobalJson,
        /// Rebuilds the template engine's cache (`--debug:rebuild-cache`).
        ClearTemplateCache,
    }
}

/// What each action takes, does, locks and answers with.
fn spec(action: Action) -> ActionSpec<Action> {
    const FILTERS: [&str; 4] = ["language", "type", "tag", "author"];
    match action {
        Action::Version => ActionSpec::reads(action).runs_dotnet().result::<host::Version>(),
        Action::Info => ActionSpec::reads(action).runs_dotnet().result::<parse::Info>(),
        Action::ListSdks => ActionSpec::reads(action).runs_dotnet().result::<host::Sdks>(),
        Action::ListRuntimes => ActionSpec::reads(action).runs_dotnet().result::<host::Runtimes>(),
        Action::ListTemplates => ActionSpec::reads(action)
            .takes(&["filter", "maxResults", "forceReload"])
            .takes(&FILTERS)
            .runs_dotnet()
            .result::<templates::Listed>(),
        Action::SearchTemplates => ActionSpec::reads(action)
            .open_world()
            .requires(&["searchTerm"])
            .takes(&["maxResults"])
            .takes(&FILTERS)
            .runs_dotnet()
            .result::<templates::Found>(),
        Action::TemplateInfo => ActionSpec::reads(action)
            .requires(&["templateShortName"])
            .takes(&["language", "forceReload"])
            .runs_dotnet()
            .result::<templates::Info>(),
        Action::ListTemplatePacks => ActionSpec::reads(action).runs_dotnet().result::<packs::Packs>(),
        Action::InstallTemplatePack => ActionSpec::writes(action)
            .open_world()
            .locks(Lock::Machine)
            .requires(&["templatePackage"])
            .takes(&["templateVersion", "nugetSource", "interactive", "force"])
            .runs_dotnet()
            .result::<packs::Installed>()
            .announces(TEMPLATES),
        Action::UninstallTemplatePack => ActionSpec::destroys(action)
            .idempotent()
            .locks(Lock::Machine)
            .requires(&["templatePackage"])
            .runs_dotnet()
            .result::<packs::Uninstalled>()
            .announces(TEMPLATES),
        // FrameworkInfo asks `--list-sdks` only when dotnet is there, and answers without it.
        Action::FrameworkInfo => ActionSpec::reads(action).takes(&["framework"]).result::<host::Frameworks>(),
        Action::ConfigureGlobalJson => ActionSpec::destroys(action)
            .idempotent()
            .locks(Lock::Target)
            .takes(&["globalJsonPath", "sdkVersion", "rollForward", "allowPrerelease", "testRunner"])
            .result::<configure::Configured>(),
        Action::ClearTemplateCache => ActionSpec::writes(action)
            .idempotent()
            .locks(Lock::Machine)
            .runs_dotnet()
            .result::<templates::CacheRebuilt>()
            .announces(TEMPLATES),
    }
}

/// The `dotnet_sdk` family.
#[derive(Debug, Default)]
pub struct DotnetSdk;

impl Family for DotnetSdk {
    type Action = Action;

    fn declare() -> Declaration<Action> {
        let string = Param::string;
        let flag = |name, description: &str| {
            Param::new(name, json!({ "type": "boolean", "default": false, "description": description }))
        };
        Declaration::new(
            "dotnet_sdk",
            ".NET SDK & Templates",
            "The .NET SDK installation: the SDK version in use, `dotnet --info`, installed SDKs and runtimes, \
             templates (list installed ones, search NuGet.org, show a template's options), template packages \
             (list, install, uninstall), target frameworks (which are LTS, which are still supported, which to \
             use) and global.json (pin the SDK version, roll-forward policy, test runner; comments are kept).",
        )
        .action_help(
            "What to do. InstallTemplatePack, UninstallTemplatePack, ClearTemplateCache and ConfigureGlobalJson \
             change the machine or a file; the others only read.",
        )
        .param(string("workingDirectory", "Folder to run in (relative to the configured one); global.json in it or above selects the SDK."))
        .param(string("filter", "ListTemplates: only templates whose name or short name contains this text."))
        .param(string("language", "ListTemplates, SearchTemplates: only templates in this language (C#, F#, VB). TemplateInfo: the language whose options to show."))
        .param(string("type", "ListTemplates, SearchTemplates: only templates of this type (project, item, solution)."))
        .param(string("tag", "ListTemplates, SearchTemplates: only templates with this tag (Web, Test, ...)."))
        .param(string("author", "ListTemplates, SearchTemplates: only templates by this author."))
        .param(Param::new(
            "maxResults",
            json!({ "type": "integer", "minimum": 1, "maximum": 10000, "description": "ListTemplates, SearchTemplates: return at most this many templates (the total is reported)." }),
        ))
        .param(flag("forceReload", "ListTemplates, TemplateInfo: rebuild the template engine's cache of installed templates first (--debug:rebuild-cache)."))
        .param(string(
            "searchTerm",
            "SearchTemplates (required): text to search NuGet.org's templates for (needs internet access to NuGet.org).",
        ))
        .param(string("templateShortName", "TemplateInfo (required): the template's short name, e.g. console or webapi."))
        .param(string("templatePackage", "InstallTemplatePack, UninstallTemplatePack (required): a NuGet package id (optionally id@version), or for installs a folder or .nupkg file."))
        .param(string("templateVersion", "InstallTemplatePack: the package version to install (default: latest stable)."))
        .param(string("nugetSource", "InstallTemplatePack: an extra NuGet source to install from."))
        .param(flag("interactive", "InstallTemplatePack: let NuGet ask for credentials (device-code sign-in appears in progress messages)."))
        .param(flag("force", "InstallTemplatePack: install even if the package is already installed or conflicts."))
        .param(string("framework", "FrameworkInfo: one target framework to describe (net10.0, net8.0-windows, netstandard2.0); all when absent."))
        .param(string("globalJsonPath", "ConfigureGlobalJson: the global.json file or the folder for it (default: the working directory). Created when missing."))
        .param(string("sdkVersion", "ConfigureGlobalJson: sdk.version, a full SDK version such as 10.0.100."))
        .param(Param::choice("rollForward", &configure::ROLL_FORWARD, "ConfigureGlobalJson: sdk.rollForward."))
        .param(Param::new("allowPrerelease", json!({ "type": "boolean", "description": "ConfigureGlobalJson: sdk.allowPrerelease." })))
        .param(Param::choice("testRunner", &configure::TEST_RUNNERS, "ConfigureGlobalJson: test.runner, the runner dotnet test uses (SDK 10+)."))
        .common(&["workingDirectory"])
        .each_action(spec)
    }

    async fn run(&self, action: Action, call: &Call<'_>) -> Outcome {
        match action {
            Action::Version => host::version(call).await,
            Action::Info => host::info(call).await,
            Action::ListSdks => host::list_sdks(call).await,
            Action::ListRuntimes => host::list_runtimes(call).await,
            Action::FrameworkInfo => host::framework_info(call).await,
            Action::ListTemplates => templates::list_templates(call).await,
            Action::SearchTemplates => templates::search_templates(call).await,
            Action::TemplateInfo => templates::template_info(call).await,
            Action::ClearTemplateCache => templates::clear_template_cache(call).await,
            Action::ListTemplatePacks => packs::list_template_packs(call).await,
            Action::InstallTemplatePack => packs::install_template_pack(call).await,
            Action::UninstallTemplatePack => packs::uninstall_template_pack(call).await,
            Action::ConfigureGlobalJson => configure::configure_global_json(call).await,
        }
    }
}
