//! The `dotnet_project` plugin: one tool, `dotnet_project`, for everything done to a .NET
//! project: create, restore, build, run, test, publish, clean, pack, watch and format it;
//! evaluate it through the SDK; edit its project file; and run it in the background.
//!
//! # Actions and the command each runs
//!
//! `dotnet` gets an argument vector, never a joined string. `[..]` appears only when its
//! parameter is set; `<project>` is the `project` parameter, or the one project or solution
//! found at the top of the client's roots, or nothing (the CLI's own default: the working
//! directory).
//!
//! | action | dotnet arguments | lock |
//! |---|---|---|
//! | New | `new <template> [-n <name>] [-o <output>] [-f <framework>] [--no-restore] [<additionalOptions>...]` | output folder |
//! | Restore | `restore [<project>] [-r <runtime>] [-v <verbosity>] [--source <source>] [--locked-mode] [--configfile <configFile>]` | project |
//! | Build | `build [<project>] [-c <cfg>] [-f <fw>] [-r <rid>] [--no-restore] [-v <v>] [-o <output>]` | project |
//! | Run | `run [--project <project>] [-c <cfg>] [-f <fw>] [-r <rid>] [--no-build] [--no-restore] [-- <appArgs>...]` | project (a background session holds it while it runs) |
//! | Test | VSTest: `test [<project>] ...`; MTP: `test [--project <project>] ...`, then `[-c] [-f] [--filter] [--collect] [--results-directory] [--logger] [--no-build] [--no-restore] [-v] [--blame] [--list-tests]` (MTP: `--report-trx`, `--coverage`) | project |
//! | Publish | `publish [<project>] [-c] [-o] [-f] [-r] [--no-restore] [--no-build] [--self-contained true\|false] [--arch <a>] [--os <o>] [-v]` | project |
//! | Clean | `clean [<project>] [-c] [-f] [-r] [-o] [-v]`, after the user confirms (when the client can ask) | project |
//! | Pack | `pack [<project>] [-c] [-o] [--include-symbols] [--include-source] [--no-build] [--no-restore] [-v] [-p:PackageVersion=<v>]` | project |
//! | Watch | `watch [--project <project>] [--no-hot-reload] <run\|test\|build> [-c] [-f] [--filter] [-- <appArgs>...]`, always a background session | project, while it runs |
//! | Format | `format [<project>] [--verify-no-changes] [--include-generated] [--diagnostics <id>...] [--severity <s>] [-v]` | project |
//! | Analyze, Dependencies, Validate, GetProperty, ListItems | `msbuild <project> -getProperty:<name>... -getItem:<type>... [-p:Configuration=<cfg>] [-p:TargetFramework=<fw>]` | none (read-only) |
//! | SetProperty, RemoveProperty, AddItem, RemoveItem | none: the project file is edited in place (module `projfile`) | project |
//! | ListTemplateOptions | `new <template> --help` | none |
//! | Logs, Stop, ListSessions | none: background sessions (module `sessions`) | none |
//!
//! # Results
//!
//! Every success returns prose for the model in `content` and data in `structuredContent`, with
//! `success: true` and the `action`; every failure returns `isError: true`, the contract's
//! `ErrorResponse` envelope (`success: false`, `errors[]`, `exitCode`, `metadata?`) as
//! `structuredContent` plus `lockInfo` and, for Build and Test, the counts. The advertised
//! `outputSchema` is an `anyOf` of every success shape and the envelope (module `schema`).
//!
//! # Decisions
//!
//! - Annotations: the tool mixes read-only actions (Analyze, GetProperty, Logs) with actions
//!   that change files (New, SetProperty, Clean deletes build output) and reach the network
//!   (Restore and every implicit restore), so it is marked not read-only, destructive, not
//!   idempotent and open-world. Clients that confirm destructive tools ask before any call.
//! - Clean asks the user through elicitation when the client supports it and refuses when the
//!   user declines; a client without elicitation is not asked (build output is recreated by the
//!   next build, and the destructive annotation already told the client to confirm).
//! - Watch never ends by itself, so it always starts a background session; `startMode:
//!   Foreground` is refused rather than holding the call until the timeout.
//! - Test runs in the project's folder when a project is given and no `workingDirectory`, so that
//!   the SDK reads the same global.json the runner was chosen from.
//! - Parameters an action does not take are refused (INVALID_PARAMS), never silently ignored.

mod actions;
mod evaluate;
mod projfile;
mod schema;
mod sessions;
mod testrun;

use dotnet_support::{
    respond::{self, Presentation},
    settings::DotnetSettings,
};
use mcp_plugin_api::{CallContext, InitError, PluginContext, Tool, ToolOutcome, ToolSpec, export_plugin};
use serde_json::Value;

export_plugin! {
    name: "dotnet_project",
    version: env!("CARGO_PKG_VERSION"),
    tools: |ctx| Ok(vec![ProjectTool::new(ctx)?.into()]),
}

dotnet_support::actions! {
    /// The actions of `dotnet_project`.
    pub enum Action {
        New, Restore, Build, Run, Test, Publish, Clean, Pack, Watch, Format, Analyze, Dependencies, Validate,
        GetProperty, SetProperty, RemoveProperty, AddItem, RemoveItem, ListItems, ListTemplateOptions, Logs, Stop,
        ListSessions,
    }
}

/// The `dotnet_project` tool. Dropping it (the plugin being dropped) kills every background
/// session it started.
pub struct ProjectTool {
    settings: DotnetSettings,
    plugin: PluginContext,
    sessions: sessions::Sessions,
}

impl ProjectTool {
    /// Reads the dotnet settings of the plugin's section; a bad value refuses the plugin.
    pub fn new(ctx: &PluginContext) -> Result<Self, InitError> {
        let settings = DotnetSettings::from_context(ctx)?;
        Ok(Self { settings, plugin: ctx.clone(), sessions: sessions::Sessions::default() })
    }
}

impl Tool for ProjectTool {
    fn spec(&self) -> ToolSpec {
        ToolSpec::new(
            "dotnet_project",
            "Work on a .NET project or solution with the dotnet CLI: New, Restore, Build, Run, Test, Publish, \
             Clean, Pack, Watch, Format; evaluate it (Analyze, Dependencies, Validate, GetProperty, ListItems); edit \
             its project file (SetProperty, RemoveProperty, AddItem, RemoveItem); template options \
             (ListTemplateOptions); background sessions (Run or Watch with startMode Background, then Logs, Stop, \
             ListSessions). Build and Test return diagnostics and summed test counts as structured content.",
        )
        .title(".NET Project")
        .input_schema(schema::input())
        .output_schema(schema::output())
        .read_only(false)
        .destructive(true)
        .idempotent(false)
        .open_world(true)
    }

    async fn call(&self, args: Value, ctx: CallContext) -> ToolOutcome {
        let presentation = Presentation::of(&ctx);
        Ok(respond::finish(actions::dispatch(self, &args, &ctx).await, presentation))
    }
}
