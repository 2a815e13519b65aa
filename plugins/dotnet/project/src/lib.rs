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
//! | Run | `run [--project <project> \| --file <app.cs>] [-c <cfg>] [-f <fw>] [-r <rid>] [--no-build] [--no-restore] [-- <appArgs>...]` | project (a background session holds it while it runs) |
//! | Test | VSTest: `test [<project>] ...`; MTP: `test [--project <project> \| --solution <solution>] ...`, then `[-c] [-f] [--filter] [--collect] [--results-directory] [--logger] [--no-build] [--no-restore] [-v] [--blame] [--list-tests]` (MTP: `--report-trx`, `--coverage`) | project |
//! | Publish | `publish [<project>] [-c] [-o] [-f] [-r] [--no-restore] [--no-build] [--self-contained true\|false] [--arch <a>] [--os <o>] [-v]` | project |
//! | Clean | `clean [<project>] [-c] [-f] [-r] [-o] [-v]`, after the user confirms (when the client can ask) | project |
//! | Pack | `pack [<project>] [-c] [-o] [--include-symbols] [--include-source] [--no-build] [--no-restore] [-v] [-p:PackageVersion=<v>]` | project |
//! | Watch | `watch [--project <project> \| --file <app.cs>] [--no-hot-reload] <run\|test\|build> [-c] [-f] [--filter] [-- <appArgs>...]`, always a background session | project, while it runs |
//! | Format | `format [<project>] [--verify-no-changes] [--include-generated] [--diagnostics <id>...] [--severity <s>] [-v]` | project |
//! | Analyze, Dependencies, Validate, GetProperty, ListItems | `msbuild <project> -getProperty:<name>... -getItem:<type>... [-p:Configuration=<cfg>] [-p:TargetFramework=<fw>]` | none |
//! | SetProperty, RemoveProperty, AddItem, RemoveItem | none: the project file is edited in place (module `projfile`) | project |
//! | ListTemplateOptions | `new <template> --help` | none |
//! | Convert | `project convert <app.cs> [-o <output>] [--force] [--delete-source]` (SDK 10) | the .cs file |
//! | Logs, Stop, ListSessions | none: background sessions (module `sessions`) | none |
//!
//! # Results
//!
//! Every success returns prose for the model in `content` and data in `structuredContent`, with
//! `success: true` and the `action`; every failure returns `isError: true`, the contract's
//! `ErrorResponse` envelope (`success: false`, `errors[]`, `exitCode`, `metadata?`) as
//! `structuredContent` plus `lockInfo` and, for Build and Test, the counts (derived from the same
//! types as their successes). Each action answers with a Rust result type, declared with
//! `ActionSpec::result` next to the action that builds it (module `actions`); the kit derives
//! the advertised `outputSchema` from the types and adds `success`, `action`, `lockInfo`, and
//! `command` and `exitCode` of the command an action that runs dotnet ran. Run and Watch are not
//! declared to run dotnet: their results report a background session's command line (and Logs
//! and Stop its exit code) themselves, and Run's foreground run its own (module `actions::run`).
//!
//! # Decisions
//!
//! - Annotations, per action: Analyze, Dependencies, Validate, GetProperty, ListItems,
//!   ListTemplateOptions, Logs and ListSessions read (closed-world). New, Restore, Build, Test,
//!   Publish and Pack write and restore from NuGet feeds (open-world; all but New are idempotent).
//!   Format and AddItem write files (idempotent). Clean, SetProperty (it overwrites a value),
//!   RemoveProperty, RemoveItem and Stop (it kills a process) destroy, idempotently; Convert
//!   destroys (`deleteSource` deletes the app's files) and fails when run twice. Run and Watch
//!   start the user's application, which may do anything: destructive, open-world, not
//!   idempotent. So the tool is destructive, not idempotent and open-world; with `ReadOnly` it
//!   is read-only, idempotent and closed-world. Clients that confirm destructive tools ask before
//!   any call.
//! - Clean asks the user through elicitation when the client supports it and refuses when the
//!   user declines; a client without elicitation is not asked (build output is recreated by the
//!   next build, and the destructive annotation already told the client to confirm).
//! - Watch never ends by itself, so it always starts a background session; `startMode:
//!   Foreground` is refused rather than holding the call until the timeout.
//! - Test runs in the project's folder when a project is given and no `workingDirectory`, so that
//!   the SDK reads the same global.json the runner was chosen from.
//! - New, SetProperty, RemoveProperty, AddItem and RemoveItem write project files, so a success
//!   announces `dotnet://workspace` updated; builds and runs leave the project files alone.
//! - Parameters an action does not take are refused (INVALID_PARAMS), never silently ignored.

#![deny(missing_docs)]

mod actions;
mod evaluate;
mod projfile;
mod sessions;
mod testrun;

use dotnet_support::{
    kit::{ActionSpec, ActionTool, Call, Declaration, Family, Lock, Outcome, Param},
    resources::WORKSPACE,
};
use mcp_plugin_api::export_plugin;
use serde_json::json;

export_plugin! {
    name: "dotnet_project",
    version: env!("CARGO_PKG_VERSION"),
    settings_schema: dotnet_support::settings::settings_schema(),
    tools: |ctx| Ok(vec![ActionTool::new(DotnetProject::default(), ctx)?.into()]),
}

dotnet_support::actions! {
    /// The actions of `dotnet_project`.
    pub enum Action {
        /// Creates a project from a template.
        New,
        /// Restores the packages and tools of a project or solution.
        Restore,
        /// Builds a project or solution.
        Build,
        /// Runs an app, in the foreground or as a background session.
        Run,
        /// Runs the tests of a project or solution.
        Test,
        /// Publishes an app for deployment.
        Publish,
        /// Deletes build output (asks first).
        Clean,
        /// Packs a project into a NuGet package.
        Pack,
        /// Rebuilds, reruns or retests on every change, as a background session.
        Watch,
        /// Formats the code, or verifies that it is formatted.
        Format,
        /// Describes a project as MSBuild evaluates it.
        Analyze,
        /// The package and project references of a project.
        Dependencies,
        /// Checks a project for common problems.
        Validate,
        /// Reads MSBuild properties.
        GetProperty,
        /// Sets a property in the project file.
        SetProperty,
        /// Removes a property from the project file.
        RemoveProperty,
        /// Adds an item to the project file.
        AddItem,
        /// Removes an item from the project file.
        RemoveItem,
        /// Lists the items of a type as MSBuild evaluates them.
        ListItems,
        /// The options a template takes.
        ListTemplateOptions,
        /// Turns a file-based app into a project (SDK 10).
        Convert,
        /// The output of a background session.
        Logs,
        /// Stops a background session and its process tree.
        Stop,
        /// Every background session, running or ended.
        ListSessions,
    }
}

/// The `dotnet_project` family. Dropping it (the plugin being dropped) kills every background
/// session it started.
#[derive(Default)]
pub struct DotnetProject {
    sessions: sessions::Sessions,
}

/// The parameters of `dotnet_project`.
fn parameters() -> Vec<Param> {
    let string = Param::string;
    let flag = Param::flag;
    vec![
        string(
            "project",
            "Project or solution (.csproj, .fsproj, .vbproj, .sln, .slnx), file-based app (.cs) or a folder \
             holding one, relative to workingDirectory. Omitted: the one at the top of the client's roots, else \
             the working directory's. Evaluations and edits need a project file, Convert a file-based app.",
        ),
        string("projectPath", "Deprecated alias of 'project'."),
        string(
            "workingDirectory",
            "Folder the command runs in (relative to the configured WorkingDirectory); it must exist.",
        ),
        string(
            "template",
            "New, ListTemplateOptions: the template's short name (console, classlib, webapi, xunit...).",
        ),
        string("name", "New: the name of the project created (-n)."),
        string("output", "New, Build, Publish, Pack, Clean, Convert: the output folder (-o)."),
        string("framework", "Target framework (-f), for example net10.0."),
        string("configuration", "Build configuration (-c): Debug, Release or any custom one."),
        string("runtime", "Runtime identifier (-r), for example linux-x64, win-arm64, browser-wasm."),
        Param::string_or_list(
            "additionalOptions",
            "New: template options (for example ['--use-program-main', '--aot']); a string is split on whitespace. \
             Letters, digits and _ . = : + - only.",
        ),
        flag("noRestore", "Skip the implicit restore (--no-restore)."),
        flag("noBuild", "Skip the build (--no-build)."),
        Param::choice(
            "verbosity",
            &["q", "quiet", "m", "minimal", "n", "normal", "d", "detailed", "diag", "diagnostic"],
            "MSBuild verbosity (-v).",
        ),
        string("source", "Restore: a NuGet source to use (--source)."),
        flag("lockedMode", "Restore: fail when the lock file would change (--locked-mode)."),
        string("configFile", "Restore: the NuGet.config to use (--configfile)."),
        Param::string_or_list(
            "appArgs",
            "Run, Watch (run): arguments for the application, passed after '--'. Use the list form for arguments \
             that contain spaces; a string is split on whitespace.",
        ),
        Param::choice(
            "startMode",
            &["Foreground", "Background"],
            "Run: Foreground (default) waits for the app to exit; Background starts a session and returns its sessionId. Watch always runs in the background.",
        ),
        string("filter", "Test, Watch (test): test filter expression (--filter)."),
        string(
            "collect",
            "Test: data collector (--collect), for example 'XPlat Code Coverage'. Under Microsoft.Testing.Platform a code-coverage collector becomes --coverage.",
        ),
        string("resultsDirectory", "Test: folder for test results (--results-directory)."),
        string(
            "logger",
            "Test: logger (--logger), for example trx. Under Microsoft.Testing.Platform only trx is supported (--report-trx; --report-xunit-trx for an xUnit v3 project without the Microsoft.Testing.Extensions.TrxReport package). The TRX reports the run names are read back into 'trx'.",
        ),
        flag("blame", "Test: run in blame mode to find crashing tests (--blame; VSTest only)."),
        flag("listTests", "Test: list the tests instead of running them (--list-tests)."),
        Param::choice(
            "testRunner",
            &["Auto", "MicrosoftTestingPlatform", "VSTest"],
            "Test: the runner. Auto (default) reads test.runner from the nearest global.json, else VSTest.",
        ),
        flag("useLegacyProjectArgument", "Test: deprecated; true selects VSTest (the project passed positionally)."),
        flag("selfContained", "Publish: --self-contained true|false (omit for the SDK's default)."),
        string("arch", "Publish: target architecture (--arch), for example x64, arm64."),
        string("os", "Publish: target operating system (--os), for example linux, win, osx."),
        flag("force", "Convert: convert even when the file's #: directives are malformed (--force)."),
        flag("deleteSource", "Convert: delete the file-based app's source files after converting (--delete-source)."),
        flag("includeSymbols", "Pack: also create a symbols package (--include-symbols)."),
        flag("includeSource", "Pack: include source files in the symbols package (--include-source)."),
        string(
            "packageVersion",
            "Pack: the package version (-p:PackageVersion=...), for example 1.2.3 or 2.0.0-beta.1.",
        ),
        Param::choice(
            "watchAction",
            &["run", "test", "build"],
            "Watch: what dotnet watch runs on each change (default run).",
        ),
        flag("noHotReload", "Watch (run): restart instead of hot reload (--no-hot-reload)."),
        flag("verify", "Format: only check, change nothing (--verify-no-changes)."),
        flag("includeGenerated", "Format: also format generated code (--include-generated)."),
        Param::string_or_list(
            "diagnostics",
            "Format: diagnostic ids to fix (--diagnostics), for example ['IDE0005', 'CA1822'].",
        ),
        Param::choice("severity", &["info", "warn", "error"], "Format: lowest severity to fix (--severity)."),
        string("sessionId", "Logs, Stop: the session id that Run or Watch with startMode Background returned."),
        Param::new(
            "tailLines",
            json!({ "type": "integer", "minimum": 1, "maximum": 2000, "description": "Logs: how many of the last lines to return (default 200)." }),
        ),
        string(
            "since",
            "Logs: only lines at or after this time: RFC 3339 (2026-01-15T10:00:00Z) or a duration back from now (30s, 5m, 1h).",
        ),
        string("propertyName", "GetProperty, SetProperty, RemoveProperty: the MSBuild property."),
        string("propertyValue", "SetProperty: the value (may be empty)."),
        string(
            "itemType",
            "AddItem, RemoveItem, ListItems: the item type (PackageReference, Compile, None...). ListItems without it lists the common types and those the project declares.",
        ),
        string("include", "AddItem, RemoveItem: the item's Include."),
        Param::new(
            "metadata",
            json!({ "type": "object", "additionalProperties": { "type": "string" }, "description": "AddItem: metadata written as attributes, for example {\"Version\": \"1.0.0\"}." }),
        ),
    ]
}

/// What each action takes, does, locks and answers with.
fn spec(action: Action) -> ActionSpec<Action> {
    /// What names the project, and how it is built.
    const TARGET: [&str; 2] = ["project", "projectPath"];
    const BUILD: [&str; 3] = ["configuration", "framework", "runtime"];
    const EVALUATE: [&str; 4] = ["project", "projectPath", "configuration", "framework"];
    match action {
        Action::New => ActionSpec::writes(Action::New)
            .open_world()
            .locks(Lock::Target)
            .requires(&["template"])
            .takes(&["name", "output", "framework", "noRestore", "additionalOptions"])
            .result::<actions::Completed>()
            .runs_dotnet()
            .announces(WORKSPACE),
        Action::Restore => ActionSpec::writes(Action::Restore)
            .idempotent()
            .open_world()
            .locks(Lock::Target)
            .takes(&TARGET)
            .takes(&["runtime", "verbosity", "source", "lockedMode", "configFile"])
            .result::<actions::Completed>()
            .runs_dotnet(),
        Action::Build => ActionSpec::writes(Action::Build)
            .idempotent()
            .open_world()
            .locks(Lock::Target)
            .takes(&TARGET)
            .takes(&BUILD)
            .takes(&["noRestore", "verbosity", "output"])
            .result::<actions::Built>()
            .runs_dotnet(),
        Action::Run => ActionSpec::destroys(Action::Run)
            .open_world()
            .locks(Lock::Target)
            .takes(&TARGET)
            .takes(&BUILD)
            .takes(&["noBuild", "noRestore", "appArgs", "startMode"])
            .result::<actions::RunResult>(),
        Action::Test => ActionSpec::writes(Action::Test)
            .idempotent()
            .open_world()
            .locks(Lock::Target)
            .takes(&TARGET)
            .takes(&["configuration", "framework", "filter", "collect", "resultsDirectory", "logger"])
            .takes(&["noBuild", "noRestore", "verbosity", "blame", "listTests", "testRunner"])
            .takes(&["useLegacyProjectArgument"])
            .result::<actions::Tested>()
            .runs_dotnet(),
        Action::Publish => ActionSpec::writes(Action::Publish)
            .idempotent()
            .open_world()
            .locks(Lock::Target)
            .takes(&TARGET)
            .takes(&BUILD)
            .takes(&["output", "noRestore", "noBuild", "selfContained", "arch", "os", "verbosity"])
            .result::<actions::Completed>()
            .runs_dotnet(),
        Action::Clean => ActionSpec::destroys(Action::Clean)
            .idempotent()
            .locks(Lock::Target)
            .takes(&TARGET)
            .takes(&BUILD)
            .takes(&["output", "verbosity"])
            .result::<actions::Completed>()
            .runs_dotnet(),
        Action::Pack => ActionSpec::writes(Action::Pack)
            .idempotent()
            .open_world()
            .locks(Lock::Target)
            .takes(&TARGET)
            .takes(&["configuration", "output", "includeSymbols", "includeSource", "noBuild", "noRestore"])
            .takes(&["verbosity", "packageVersion"])
            .result::<actions::Completed>()
            .runs_dotnet(),
        Action::Watch => ActionSpec::destroys(Action::Watch)
            .open_world()
            .locks(Lock::Target)
            .takes(&TARGET)
            .takes(&["watchAction", "appArgs", "noHotReload", "filter", "configuration", "framework", "startMode"])
            .result::<actions::Started>(),
        Action::Format => ActionSpec::writes(Action::Format)
            .idempotent()
            .locks(Lock::Target)
            .takes(&TARGET)
            .takes(&["verify", "includeGenerated", "diagnostics", "severity", "verbosity"])
            .result::<actions::Completed>()
            .runs_dotnet(),
        Action::Analyze => ActionSpec::reads(Action::Analyze).takes(&EVALUATE).result::<evaluate::Analysis>(),
        Action::Dependencies => {
            ActionSpec::reads(Action::Dependencies).takes(&EVALUATE).result::<evaluate::Dependencies>()
        }
        Action::Validate => ActionSpec::reads(Action::Validate).takes(&EVALUATE).result::<evaluate::Validation>(),
        Action::GetProperty => ActionSpec::reads(Action::GetProperty)
            .requires(&["propertyName"])
            .takes(&EVALUATE)
            .result::<actions::PropertyValue>(),
        Action::SetProperty => ActionSpec::destroys(Action::SetProperty)
            .idempotent()
            .locks(Lock::Target)
            .requires(&["propertyName"])
            .takes(&TARGET)
            .takes(&["propertyValue"])
            .result::<actions::PropertyEdited>()
            .announces(WORKSPACE),
        Action::RemoveProperty => ActionSpec::destroys(Action::RemoveProperty)
            .idempotent()
            .locks(Lock::Target)
            .requires(&["propertyName"])
            .takes(&TARGET)
            .result::<actions::PropertyEdited>()
            .announces(WORKSPACE),
        Action::AddItem => ActionSpec::writes(Action::AddItem)
            .idempotent()
            .locks(Lock::Target)
            .requires(&["itemType", "include"])
            .takes(&TARGET)
            .takes(&["metadata"])
            .result::<actions::ItemEdited>()
            .announces(WORKSPACE),
        Action::RemoveItem => ActionSpec::destroys(Action::RemoveItem)
            .idempotent()
            .locks(Lock::Target)
            .requires(&["itemType", "include"])
            .takes(&TARGET)
            .result::<actions::ItemEdited>()
            .announces(WORKSPACE),
        Action::ListItems => {
            ActionSpec::reads(Action::ListItems).takes(&EVALUATE).takes(&["itemType"]).result::<actions::Items>()
        }
        Action::ListTemplateOptions => {
            ActionSpec::reads(Action::ListTemplateOptions).requires(&["template"]).result::<actions::TemplateOptions>()
        }
        Action::Convert => ActionSpec::destroys(Action::Convert)
            .locks(Lock::Target)
            .requires(&["project"])
            .takes(&["output", "force", "deleteSource"])
            .result::<actions::Completed>()
            .runs_dotnet()
            .announces(WORKSPACE),
        Action::Logs => ActionSpec::reads(Action::Logs)
            .requires(&["sessionId"])
            .takes(&["tailLines", "since"])
            .result::<actions::Logs>(),
        Action::Stop => {
            ActionSpec::destroys(Action::Stop).idempotent().requires(&["sessionId"]).result::<actions::Stopped>()
        }
        Action::ListSessions => ActionSpec::reads(Action::ListSessions).result::<actions::SessionList>(),
    }
}

impl Family for DotnetProject {
    type Action = Action;

    fn declare() -> Declaration<Action> {
        let declaration = Declaration::new(
            "dotnet_project",
            ".NET Project",
            "Work on a .NET project or solution with the dotnet CLI: New, Restore, Build, Run, Test, Publish, \
             Clean, Pack, Watch, Format; evaluate it (Analyze, Dependencies, Validate, GetProperty, ListItems); edit \
             its project file (SetProperty, RemoveProperty, AddItem, RemoveItem); template options \
             (ListTemplateOptions); turn a file-based app (app.cs, SDK 10) into a project (Convert); background \
             sessions (Run or Watch with startMode Background, then Logs, Stop, ListSessions).",
        );
        let declaration = parameters().into_iter().fold(declaration, Declaration::param);
        // A failed build or test run carries its counts beside the error envelope.
        declaration
            .failure_fields::<actions::BuildCounts>()
            .failure_fields::<actions::TestCounts>()
            .common(&["workingDirectory"])
            .each_action(spec)
    }

    async fn run(&self, action: Action, call: &Call<'_>) -> Outcome {
        actions::run(self, action, call).await
    }
}
