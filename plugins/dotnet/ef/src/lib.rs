//! The `dotnet_ef` plugin: one tool, `dotnet_ef`, that runs the Entity Framework Core tools
//! (`dotnet ef`) on a project: migrations, database updates and DbContext commands.
//!
//! | action | command (`C` = `[--project P] [--startup-project S] [--context X] [--framework F]`) | lock |
//! |---|---|---|
//! | `MigrationsAdd` | `ef migrations add NAME C [--output-dir D] [--no-build] --json` | the project |
//! | `MigrationsList` | `ef migrations list C [--connection CONN] [--no-connect] [--no-build] --json` | none |
//! | `MigrationsRemove` | `ef migrations remove C [--force] [--no-build]` (asks the user first) | the project |
//! | `MigrationsScript` | `ef migrations script [FROM [TO]] C [--output O] [--idempotent] [--no-build]` | the project |
//! | `DatabaseUpdate` | `ef database update [MIGRATION] C [--connection CONN] [--no-build]` | the project |
//! | `DatabaseDrop` | `ef database drop C (--dry-run \| --force) [--no-build]` (asks the user first) | the project, unless a dry run |
//! | `DbContextList` | `ef dbcontext list [--project P] [--startup-project S] [--framework F] [--no-build] --json` | none |
//! | `DbContextInfo` | `ef dbcontext info C [--no-build] --json` | none |
//! | `DbContextScaffold` | `ef dbcontext scaffold CONN PROVIDER C [--output-dir D] [--context-dir D] [--table T]... [--schema S]... [--use-database-names] [--force] [--no-build]` | the project |
//!
//! Every command also gets `--prefix-output`, which marks each of the tool's own lines with its
//! kind (`info:`, `data:`, `warn:`, `error:`), so that an app that writes to the console when
//! its DbContext is made (a logger's start-up line) cannot be read as the tool's output.
//! `--json` is used where the tool has it (its document is the `data:` lines), and the other
//! results are read from the `info:` lines and the `data:` SQL ([`request`] builds the argument
//! vectors, `actions` reads the results).
//!
//! Decisions:
//! - Missing tool: a run that fails because `dotnet ef` does not exist is CAPABILITY_NOT_AVAILABLE,
//!   with `dotnet tool install --global dotnet-ef` (or a local tool manifest, or
//!   `dotnet tool restore` when a manifest already lists it).
//! - Connection strings: `connection` is passed as the value of `--connection` (the reference
//!   server emitted a valueless flag), or as the positional argument of `dbcontext scaffold`,
//!   and is declared secret to the runner, so it is masked whole in the echoed command, the
//!   output, progress and errors; everything else goes through the support library's redaction.
//! - Confirmation: `DatabaseDrop` and `MigrationsRemove` ask the user through elicitation when
//!   the client supports it; anything but a clear yes refuses the action (OPERATION_CANCELLED)
//!   and nothing runs. A client that cannot be asked relies on the tool's `destructiveHint`;
//!   `DatabaseDrop` then also needs `force: true` (as the reference server did), because the
//!   CLI's own prompt cannot be answered. `--force` is passed to `database drop` only after a
//!   yes, or with `force` when the client cannot ask; `dryRun` needs no confirmation and wins
//!   over `force`. For `MigrationsRemove`, `force` keeps its EF meaning (also revert an applied
//!   migration) and is passed only once the removal is confirmed (or cannot be asked about).
//! - Locks: the actions that change the project or the database take the shared project lock,
//!   after any confirmation, so they conflict with builds of the same project.
//! - Progress: every action reports the build and each migration applied, reverted or removed.
//! - Annotations, per action: `MigrationsList` (it asks the database which migrations it has,
//!   so open-world), `DbContextList` and `DbContextInfo` read; `MigrationsAdd` writes files (not
//!   idempotent: a second add of the name fails); `MigrationsScript` writes its output file
//!   (idempotent); `DatabaseUpdate` writes the database (open-world, idempotent: it moves to the
//!   target migration); `MigrationsRemove` destroys the last migration (not idempotent: the next
//!   call removes the one before); `DatabaseDrop` destroys the database (open-world, idempotent);
//!   `DbContextScaffold` reads a database and overwrites files with `force` (destroys, open-world,
//!   not idempotent). So the tool is destructive, not idempotent and open-world; with `ReadOnly`
//!   it is read-only, idempotent and open-world.

#![deny(missing_docs)]

mod actions;
mod parse;
mod request;

use dotnet_support::kit::{ActionSpec, ActionTool, Call, Declaration, Family, Lock, Outcome, Param};
use mcp_plugin_api::export_plugin;

use actions::{database, dbcontext, migrations};

export_plugin! {
    name: "dotnet_ef",
    version: env!("CARGO_PKG_VERSION"),
    settings_schema: dotnet_support::settings::settings_schema(),
    tools: |ctx| Ok(vec![ActionTool::new(DotnetEf, ctx)?.into()]),
}

dotnet_support::actions! {
    /// What the `dotnet_ef` tool can do.
    pub enum Action {
        /// Adds a migration (`ef migrations add`).
        MigrationsAdd,
        /// Lists the migrations and whether the database has them (`ef migrations list`).
        MigrationsList,
        /// Removes the last migration (`ef migrations remove`); destructive, confirmed first.
        MigrationsRemove,
        /// Generates the SQL of a range of migrations (`ef migrations script`).
        MigrationsScript,
        /// Updates the database to a migration (`ef database update`).
        DatabaseUpdate,
        /// Drops the database (`ef database drop`); destructive, confirmed first.
        DatabaseDrop,
        /// Lists the DbContext types (`ef dbcontext list`).
        DbContextList,
        /// Describes a DbContext (`ef dbcontext info`).
        DbContextInfo,
        /// Generates a DbContext and entity classes from a database (`ef dbcontext scaffold`).
        DbContextScaffold,
    }
}

/// The command that installs the EF Core tools for the user.
pub const INSTALL_COMMAND: &str = "dotnet tool install --global dotnet-ef";

const DESCRIPTION: &str = "Entity Framework Core tools (dotnet ef) on a project. \
MigrationsAdd (name), MigrationsList, MigrationsRemove (the last migration; asks the user), MigrationsScript (SQL), \
DatabaseUpdate (to the latest or a given migration), DatabaseDrop (asks the user; dryRun to preview), \
DbContextList, DbContextInfo, DbContextScaffold (connection, provider). \
The project defaults to the one in the client's roots. Needs the dotnet-ef tool (dotnet tool install --global dotnet-ef). \
Connection strings are never echoed.";

/// The `dotnet_ef` family.
#[derive(Debug, Default)]
pub struct DotnetEf;

/// Most tables or schemas one DbContextScaffold names.
const MAX_NAMES: usize = 256;

/// What every action that works on a DbContext takes.
const TARGET: [&str; 5] = ["project", "startupProject", "context", "framework", "noBuild"];

/// What each action takes, does, locks and answers.
fn spec(action: Action) -> ActionSpec<Action> {
    let spec = match action {
        Action::MigrationsAdd => ActionSpec::writes(action)
            .locks(Lock::Target)
            .takes(&TARGET)
            .requires(&["name"])
            .takes(&["outputDir"])
            .result::<migrations::Added>(),
        Action::MigrationsList => ActionSpec::reads(action)
            .open_world()
            .takes(&TARGET)
            .takes(&["connection", "noConnect"])
            .result::<migrations::Listed>(),
        Action::MigrationsRemove => ActionSpec::destroys(action)
            .locks(Lock::Target)
            .takes(&TARGET)
            .takes(&["force"])
            .result::<migrations::Removed>(),
        Action::MigrationsScript => ActionSpec::writes(action)
            .idempotent()
            .locks(Lock::Target)
            .takes(&TARGET)
            .takes(&["from", "to", "output", "idempotent"])
            .result::<migrations::Script>(),
        Action::DatabaseUpdate => ActionSpec::writes(action)
            .idempotent()
            .open_world()
            .locks(Lock::Target)
            .takes(&TARGET)
            .takes(&["migration", "connection"])
            .result::<database::Updated>(),
        Action::DatabaseDrop => ActionSpec::destroys(action)
            .idempotent()
            .open_world()
            .locks(Lock::Target)
            .takes(&TARGET)
            .takes(&["force", "dryRun"])
            .result::<database::Dropped>(),
        Action::DbContextList => ActionSpec::reads(action)
            .takes(&["project", "startupProject", "framework", "noBuild"])
            .result::<dbcontext::Listed>(),
        Action::DbContextInfo => ActionSpec::reads(action).takes(&TARGET).result::<dbcontext::Info>(),
        Action::DbContextScaffold => ActionSpec::destroys(action)
            .open_world()
            .locks(Lock::Target)
            .takes(&TARGET)
            .requires(&["connection", "provider"])
            .takes(&["outputDir", "contextDir", "tables", "schemas", "useDatabaseNames", "force"])
            .result::<dbcontext::Scaffolded>(),
    };
    spec.runs_dotnet()
}

impl Family for DotnetEf {
    type Action = Action;

    fn declare() -> Declaration<Action> {
        let text = Param::string;
        let flag = Param::flag;
        let list = |name, description: &str| Param::string_or_list(name, description).max_items(MAX_NAMES);
        Declaration::new("dotnet_ef", "Entity Framework Core", DESCRIPTION)
            .action_help("The EF Core command to run.")
            .param(text("project", "The project holding the DbContext and migrations (.csproj or its folder). Omitted: the one project in the client's roots, else the working directory's."))
            .param(text("startupProject", "The startup project that configures the DbContext (--startup-project), when it is not the project itself."))
            .param(text("context", "The DbContext type to use, when the project has several (--context). For DbContextScaffold: the name of the class to generate."))
            .param(text("framework", "The target framework of the startup project (--framework), e.g. net10.0."))
            .param(flag("noBuild", "Do not build the project first (--no-build)."))
            .param(text("workingDirectory", "The folder to run in (default: the configured WorkingDirectory, else the server's)."))
            .param(text("name", "MigrationsAdd: the new migration's name, e.g. AddCustomerEmail."))
            .param(text("outputDir", "MigrationsAdd: the folder for the migration files; DbContextScaffold: the folder for the entity classes (--output-dir)."))
            .param(text("from", "MigrationsScript: the migration to start after (name or id; 0 is before the first)."))
            .param(text("to", "MigrationsScript: the last migration to include (default: the latest)."))
            .param(text("output", "MigrationsScript: write the SQL to this file instead of returning it (--output)."))
            .param(flag("idempotent", "MigrationsScript: generate a script that can run on a database at any migration (--idempotent)."))
            .param(text("migration", "DatabaseUpdate: the migration to update (or revert) the database to; 0 reverts every migration. Default: the latest."))
            .param(text("connection", "--connection. MigrationsList, DatabaseUpdate: a connection string instead of the configured one; DbContextScaffold: the database's (a `Name=ConnectionStrings:X` reference keeps it out of the generated code). Never echoed."))
            .param(flag("noConnect", "MigrationsList: do not connect to the database, so whether migrations are applied is unknown (--no-connect)."))
            .param(text("provider", "DbContextScaffold: the database provider package, e.g. Microsoft.EntityFrameworkCore.SqlServer."))
            .param(text("contextDir", "DbContextScaffold: the folder for the DbContext class (--context-dir)."))
            .param(list("tables", "DbContextScaffold: tables to scaffold (a list, or names separated by commas); default: all."))
            .param(list("schemas", "DbContextScaffold: schemas whose tables to scaffold (a list, or names separated by commas); default: all."))
            .param(flag("useDatabaseNames", "DbContextScaffold: keep table and column names as the database spells them (--use-database-names)."))
            .param(flag("force", "--force. MigrationsRemove: also revert the migration if it was applied; DbContextScaffold: overwrite files; DatabaseDrop: the user confirmed the drop (only when the client cannot be asked)."))
            .param(flag("dryRun", "DatabaseDrop: only say which database would be dropped (--dry-run); nothing is asked or changed."))
            .common(&["workingDirectory"])
            .each_action(spec)
    }

    async fn run(&self, action: Action, call: &Call<'_>) -> Outcome {
        let (request, ran) = actions::run(action, call).await?;
        let (request, ran, cwd) = (&request, &ran, call.cwd());
        let replied = match action {
            Action::MigrationsAdd => migrations::added(request, ran),
            Action::MigrationsList => migrations::listed(ran),
            Action::MigrationsRemove => migrations::removed(request, ran),
            Action::MigrationsScript => migrations::script(request, ran, cwd),
            Action::DatabaseUpdate => database::updated(request, ran),
            Action::DatabaseDrop => database::dropped(request, ran),
            Action::DbContextList => dbcontext::listed(ran),
            Action::DbContextInfo => dbcontext::info(ran),
            Action::DbContextScaffold => dbcontext::scaffolded(request, ran, cwd),
        };
        actions::answer(ran, replied)
    }
}
