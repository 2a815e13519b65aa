//! The `dotnet_solution` plugin: one tool, `dotnet_solution`, for `.sln` and `.slnx` solutions.
//!
//! | action | does | lock |
//! |---|---|---|
//! | Create | `dotnet new sln -n <name> [-o <output>] [--format <sln\|slnx>]` | the file it writes (or its folder) |
//! | Add | `dotnet sln [<solution>] add <projects...> [--solution-folder <f> \| --in-root]` | the solution |
//! | List | `dotnet sln [<solution>] list` | none |
//! | Remove | `dotnet sln [<solution>] remove <projects...>`, after the user confirms | the solution |
//! | Migrate | `dotnet sln <file.sln> migrate`: the `.sln` written again as `.slnx` beside it | the `.sln`, then the `.slnx` |
//! | Analyze | reads the solution and its project files: types, languages, frameworks, packages | none |
//! | Dependencies | the project reference graph, a build order, cycles, shared packages, version conflicts | none |
//! | Validate | missing or unreadable projects, broken or outside references, cycles, framework mismatches, version conflicts | none |
//!
//! Every result carries `structuredContent` (one result type per action, whose schema is derived,
//! or the error envelope) and a short prose account for the model. `command` builds the argument vectors; `analysis` with
//! `solution_file` and `tfm` reads solutions and projects without dotnet.
//!
//! Decisions the reference left open:
//! - The plugin serves the `dotnet://workspace` resource ([`resource`]: the solutions and
//!   projects in the client's roots); Create, Add and Remove announce it updated.
//! - Analyze, Dependencies and Validate read the files themselves (`.sln` text, `.slnx` XML,
//!   project XML with `Directory.Build.props` and `Directory.Packages.props`) instead of running
//!   dotnet once per project: they are fast, need no SDK, and change nothing. They see what the
//!   files say, not what MSBuild would evaluate (conditions and `$(...)` are not followed).
//! - A solution that is not named is looked for in the client's roots; with none there, the
//!   CLI actions let dotnet pick the one in the working directory, and the reading actions
//!   pick it themselves the same way.
//! - Create passes `--format` only when asked: SDK 8 knows no such option, and SDK 10 writes
//!   `.slnx` by default. Create, Add and Remove lock the solution (Create: the file it will
//!   write, or the output folder when the format is the SDK's choice).
//! - Remove asks the user through elicitation when the client supports it and runs only on a
//!   clear yes; a client without elicitation is not asked (the tool is marked destructive, so
//!   the client is expected to confirm the call itself), and `confirmation` says which it was.
//! - Migrate refuses to replace an existing `.slnx` (which may hold edits of its own) unless
//!   `overwrite` is set: the SDK would overwrite it silently. It refuses a `.slnx` before running
//!   (the SDK's exit 1). The result names the `.slnx` written and the projects read back from it.
//! - Annotations, per action: List, Analyze, Dependencies and Validate read; Create writes (not
//!   idempotent: it fails the second time); Add writes (idempotent); Remove destroys (idempotent);
//!   Migrate destroys (it may replace a `.slnx`, with `overwrite`; idempotent).
//!   Everything is local files, so closed-world. The tool is destructive and not idempotent; with
//!   `ReadOnly` it is read-only and idempotent.

#![deny(missing_docs)]

mod actions;
mod analysis;
mod command;
pub mod resource;
mod solution_file;
mod tfm;

use dotnet_support::{
    kit::{ActionSpec, ActionTool, Call, Declaration, Family, Lock, Outcome, Param},
    resources::WORKSPACE,
    settings::DotnetSettings,
};
use mcp_plugin_api::export_plugin;

use actions::{edit, inspect, migrate};

export_plugin! {
    name: "dotnet_solution",
    version: env!("CARGO_PKG_VERSION"),
    settings_schema: dotnet_support::settings::settings_schema(),
    tools: |ctx| Ok(vec![ActionTool::new(DotnetSolution, ctx)?.into()]),
    resources: |ctx| Ok(vec![resource::WorkspaceResource::new(DotnetSettings::from_context(ctx)?).into()]),
}

dotnet_support::actions! {
    /// The actions of `dotnet_solution`.
    pub enum Action {
        /// Creates a solution.
        Create,
        /// Adds projects to a solution.
        Add,
        /// Lists a solution's projects.
        List,
        /// Removes projects from a solution (asks first).
        Remove,
        /// Writes a `.sln` again as `.slnx` beside it.
        Migrate,
        /// Reads each project's type, frameworks and packages.
        Analyze,
        /// The project reference graph, build order, cycles and shared packages.
        Dependencies,
        /// Finds missing projects, broken references, cycles and mismatches.
        Validate,
    }
}

/// What each action takes, does, locks and answers.
fn spec(action: Action) -> ActionSpec<Action> {
    match action {
        Action::Create => ActionSpec::writes(action)
            .locks(Lock::Target)
            .requires(&["name"])
            .takes(&["output", "format"])
            .runs_dotnet()
            .result::<edit::Created>()
            .announces(WORKSPACE),
        Action::Add => ActionSpec::writes(action)
            .idempotent()
            .locks(Lock::Target)
            .requires(&["projects"])
            .takes(&["solution", "solutionFolder", "inRoot"])
            .runs_dotnet()
            .result::<edit::Added>()
            .announces(WORKSPACE),
        Action::List => ActionSpec::reads(action).takes(&["solution"]).runs_dotnet().result::<inspect::Listed>(),
        Action::Remove => ActionSpec::destroys(action)
            .idempotent()
            .locks(Lock::Target)
            .requires(&["projects"])
            .takes(&["solution"])
            .runs_dotnet()
            .result::<edit::Removed>()
            .announces(WORKSPACE),
        Action::Migrate => ActionSpec::destroys(action)
            .idempotent()
            .locks(Lock::Target)
            .takes(&["solution", "overwrite"])
            .runs_dotnet()
            .result::<migrate::Migrated>()
            .announces(WORKSPACE),
        Action::Analyze => ActionSpec::reads(action).takes(&["solution"]).result::<inspect::Analyzed>(),
        Action::Dependencies => ActionSpec::reads(action).takes(&["solution"]).result::<inspect::Graphed>(),
        Action::Validate => ActionSpec::reads(action).takes(&["solution"]).result::<inspect::Validated>(),
    }
}

/// The `dotnet_solution` family.
#[derive(Debug, Default)]
pub struct DotnetSolution;

impl Family for DotnetSolution {
    type Action = Action;

    fn declare() -> Declaration<Action> {
        Declaration::new(
            "dotnet_solution",
            ".NET Solutions",
            "Manage .NET solutions (.sln and .slnx): Create, Add and Remove projects (Remove asks the user), \
             List, Migrate (a .sln to .slnx beside it), Analyze (each project's type, frameworks and packages), \
             Dependencies (reference graph, build order, cycles, shared packages, version conflicts), Validate \
             (missing projects, broken references, cycles, framework mismatches). Each parameter names the actions \
             that take it. The solution defaults to the one in the client's roots, else the working directory's.",
        )
        .param(Param::string(
            "solution",
            "Solution file (.sln or .slnx) or its folder. Omitted: the one solution in the client's roots, else the \
             one in the working directory.",
        ))
        .param(Param::string("name", "Create: the solution's name (required)."))
        .param(Param::string("output", "Create: the folder to create it in (default: the working directory)."))
        .param(Param::choice(
            "format",
            &["sln", "slnx"],
            "Create: the file format (default: the SDK's; .slnx needs SDK 9.0.200 or later).",
        ))
        .param(
            Param::strings("projects", "Add, Remove: the project files to add or remove (required).")
                .max_items(actions::MAX_PROJECTS),
        )
        .param(Param::string("solutionFolder", "Add: the solution folder to put the projects in."))
        .param(Param::flag("inRoot", "Add: put the projects at the root of the solution."))
        .param(Param::flag("overwrite", "Migrate: replace the .slnx of the same name when there is one."))
        .param(Param::string("workingDirectory", "Folder to run in (relative paths are relative to it)."))
        .common(&["workingDirectory"])
        .each_action(spec)
    }

    async fn run(&self, action: Action, call: &Call<'_>) -> Outcome {
        match action {
            Action::Create => edit::create(call).await,
            Action::Add => edit::add(call).await,
            Action::Remove => edit::remove(call).await,
            Action::List => inspect::list(call).await,
            Action::Migrate => migrate::migrate(call).await,
            Action::Analyze => inspect::analyze(call).await,
            Action::Dependencies => inspect::dependencies(call).await,
            Action::Validate => inspect::validate(call).await,
        }
    }
}
