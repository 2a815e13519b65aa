//! The `dotnet_ef` plugin: one tool, `dotnet_ef`, that runs the Entity Framework Core tools
//! (`dotnet ef`) on a project: migrations, database updates and DbContext commands.
//!
//! | action | command (`C` = `[--project P] [--startup-project S] [--context X] [--framework F]`) |
//! |---|---|
//! | `MigrationsAdd` | `ef migrations add NAME C [--output-dir D] [--no-build] --json` |
//! | `MigrationsList` | `ef migrations list C [--connection CONN] [--no-connect] [--no-build] --json` |
//! | `MigrationsRemove` | `ef migrations remove C [--force] [--no-build]` |
//! | `MigrationsScript` | `ef migrations script [FROM [TO]] C [--output O] [--idempotent] [--no-build]` |
//! | `DatabaseUpdate` | `ef database update [MIGRATION] C [--connection CONN] [--no-build]` |
//! | `DatabaseDrop` | `ef database drop C (--dry-run \| --force) [--no-build]` |
//! | `DbContextList` | `ef dbcontext list [--project P] [--startup-project S] [--framework F] [--no-build] --json` |
//! | `DbContextInfo` | `ef dbcontext info C [--no-build] --json` |
//! | `DbContextScaffold` | `ef dbcontext scaffold CONN PROVIDER C [--output-dir D] [--context-dir D] [--table T]... [--schema S]... [--use-database-names] [--force] [--no-build]` |
//!
//! Every success returns structured content (the shapes of [`schema::output`]); `--json` is
//! used where the tool has it, and the other results are read from its text lines.
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
//! - Locks: the actions that change the project or the database (`MigrationsAdd`,
//!   `MigrationsRemove`, `MigrationsScript`, `DatabaseUpdate`, `DatabaseDrop` except a dry run,
//!   and `DbContextScaffold`, which writes classes into the project) take the shared project lock,
//!   after any confirmation, so they conflict with builds of the same project.
//! - Progress: every action reports the build and each migration applied, reverted or removed.

#![deny(missing_docs)]

mod parse;
pub mod schema;

use dotnet_support::respond::Failure;
use std::path::Path;

use dotnet_support::{
    actions,
    confirm::{self, Confirmation},
    errors::{ErrorResponse, ErrorResult},
    exec::{self, Command, ProgressKind, Ran},
    locking::{self, LockTarget},
    params::{Kind, Params, check},
    redact::redacted_command_line,
    respond::{self, Presentation, Reply},
    settings::DotnetSettings,
    workspace::{self, Target},
};
use mcp_plugin_api::{
    CallContext, InitError, PluginContext, Tool, ToolOutcome, ToolSpec, export_plugin, locks::LockGuard,
};
use serde_json::{Map, Value, json};

use crate::parse::{ContextEntry, ContextInfo, Migration, MigrationFiles};

export_plugin! {
    name: "dotnet_ef",
    version: env!("CARGO_PKG_VERSION"),
    tools: |ctx| Ok(vec![EfTool::new(ctx)?.into()]),
}

actions! {
    /// What the `dotnet_ef` tool can do.
    pub enum EfAction {
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

/// The `dotnet_ef` tool.
pub struct EfTool {
    settings: DotnetSettings,
    plugin: PluginContext,
}

impl EfTool {
    /// Reads the dotnet settings of the plugin's section; a bad value refuses the plugin.
    pub fn new(ctx: &PluginContext) -> Result<Self, InitError> {
        Ok(Self { settings: DotnetSettings::from_context(ctx)?, plugin: ctx.clone() })
    }
}

impl Tool for EfTool {
    fn spec(&self) -> ToolSpec {
        ToolSpec::new("dotnet_ef", DESCRIPTION)
            .title("Entity Framework Core")
            .input_schema(schema::input())
            .output_schema(schema::output())
            .read_only(false)
            .destructive(true)
            .idempotent(false)
            .open_world(true)
    }

    async fn call(&self, args: Value, ctx: CallContext) -> ToolOutcome {
        let presentation = Presentation::of(&ctx);
        Ok(respond::finish(self.execute(&args, &ctx).await, presentation))
    }
}

/// The parameters each action takes besides `action`.
fn allowed(action: EfAction) -> Vec<&'static str> {
    const COMMON: [&str; 6] = ["project", "startupProject", "context", "framework", "noBuild", "workingDirectory"];
    let own: &[&str] = match action {
        EfAction::MigrationsAdd => &["name", "outputDir"],
        EfAction::MigrationsList => &["connection", "noConnect"],
        EfAction::MigrationsRemove => &["force"],
        EfAction::MigrationsScript => &["from", "to", "output", "idempotent"],
        EfAction::DatabaseUpdate => &["migration", "connection"],
        EfAction::DatabaseDrop => &["force", "dryRun"],
        EfAction::DbContextList | EfAction::DbContextInfo => &[],
        EfAction::DbContextScaffold => {
            &["connection", "provider", "outputDir", "contextDir", "tables", "schemas", "useDatabaseNames", "force"]
        }
    };
    let common = COMMON.iter().filter(|name| !(action == EfAction::DbContextList && **name == "context"));
    common.chain(own).copied().collect()
}

/// A list parameter: an array of strings, or one string of comma-separated names.
fn names<'a>(params: &Params<'a>, name: &str) -> Result<Vec<&'a str>, ErrorResponse> {
    let items: Vec<&'a str> = match params.raw(name) {
        None => return Ok(Vec::new()),
        Some(Value::String(text)) => text.split(',').map(str::trim).filter(|item| !item.is_empty()).collect(),
        Some(Value::Array(items)) => {
            let mut list = Vec::new();
            for item in items {
                let Some(text) = item.as_str() else {
                    let message = format!("Parameter '{name}' must hold strings only, not {item}.");
                    return Err(ErrorResult::invalid_params(name, "invalid type", &message).into());
                };
                if !text.trim().is_empty() {
                    list.push(text.trim());
                }
            }
            list
        }
        Some(other) => {
            let message = format!("Parameter '{name}' must be a list of strings, not {other}.");
            return Err(ErrorResult::invalid_params(name, "invalid type", &message).into());
        }
    };
    for item in &items {
        check(name, Kind::Text, item)?;
    }
    Ok(items)
}

/// One call's checked parameters.
struct Request<'a> {
    action: EfAction,
    startup_project: Option<&'a str>,
    context: Option<&'a str>,
    framework: Option<&'a str>,
    no_build: bool,
    name: Option<&'a str>,
    output_dir: Option<&'a str>,
    from: Option<&'a str>,
    to: Option<&'a str>,
    output: Option<&'a str>,
    idempotent: bool,
    migration: Option<&'a str>,
    connection: Option<&'a str>,
    no_connect: bool,
    provider: Option<&'a str>,
    context_dir: Option<&'a str>,
    tables: Vec<&'a str>,
    schemas: Vec<&'a str>,
    use_database_names: bool,
    force: bool,
    dry_run: bool,
}

impl<'a> Request<'a> {
    /// Reads and checks every parameter `action` takes; required ones must be there.
    fn read(action: EfAction, params: &Params<'a>) -> Result<Self, ErrorResponse> {
        let required = |name: &str, kind: Kind| params.req(name, kind).map(Some);
        Ok(Self {
            action,
            startup_project: params.opt("startupProject", Kind::ProjectPath)?,
            context: params.opt("context", Kind::Identifier)?,
            framework: params.opt("framework", Kind::Framework)?,
            no_build: params.flag("noBuild"),
            name: match action {
                EfAction::MigrationsAdd => required("name", Kind::Identifier)?,
                _ => None,
            },
            output_dir: params.opt("outputDir", Kind::Path)?,
            from: params.opt("from", Kind::Identifier)?,
            to: params.opt("to", Kind::Identifier)?,
            output: params.opt("output", Kind::Path)?,
            idempotent: params.flag("idempotent"),
            migration: params.opt("migration", Kind::Identifier)?,
            connection: match action {
                EfAction::DbContextScaffold => required("connection", Kind::Text)?,
                _ => params.opt("connection", Kind::Text)?,
            },
            no_connect: params.flag("noConnect"),
            provider: match action {
                EfAction::DbContextScaffold => required("provider", Kind::PackageId)?,
                _ => None,
            },
            context_dir: params.opt("contextDir", Kind::Path)?,
            tables: names(params, "tables")?,
            schemas: names(params, "schemas")?,
            use_database_names: params.flag("useDatabaseNames"),
            force: params.flag("force"),
            dry_run: params.flag("dryRun"),
        })
    }

    /// Whether the action changes the project or the database, and so takes the project lock.
    fn mutates(&self) -> bool {
        match self.action {
            EfAction::MigrationsAdd
            | EfAction::MigrationsRemove
            | EfAction::MigrationsScript
            | EfAction::DatabaseUpdate
            | EfAction::DbContextScaffold => true,
            EfAction::DatabaseDrop => !self.dry_run,
            EfAction::MigrationsList | EfAction::DbContextList | EfAction::DbContextInfo => false,
        }
    }

    /// The argument vector after `dotnet`.
    fn argv(&self, project: Option<&str>) -> Vec<String> {
        let mut argv: Vec<String> = vec!["ef".into()];
        let mut push = |items: &[&str]| argv.extend(items.iter().map(|item| (*item).to_owned()));
        match self.action {
            EfAction::MigrationsAdd => push(&["migrations", "add", self.name.unwrap_or_default()]),
            EfAction::MigrationsList => push(&["migrations", "list"]),
            EfAction::MigrationsRemove => push(&["migrations", "remove"]),
            EfAction::MigrationsScript => {
                push(&["migrations", "script"]);
                match (self.from, self.to) {
                    (Some(from), Some(to)) => push(&[from, to]),
                    (Some(from), None) => push(&[from]),
                    (None, Some(to)) => push(&["0", to]),
                    (None, None) => {}
                }
            }
            EfAction::DatabaseUpdate => {
                push(&["database", "update"]);
                push(self.migration.as_slice());
            }
            EfAction::DatabaseDrop => push(&["database", "drop"]),
            EfAction::DbContextList => push(&["dbcontext", "list"]),
            EfAction::DbContextInfo => push(&["dbcontext", "info"]),
            EfAction::DbContextScaffold => {
                push(&["dbcontext", "scaffold", self.connection.unwrap_or_default(), self.provider.unwrap_or_default()])
            }
        }
        let options = [
            ("--project", project),
            ("--startup-project", self.startup_project),
            ("--context", self.context),
            ("--framework", self.framework),
            ("--output-dir", self.output_dir),
            ("--context-dir", self.context_dir),
            ("--output", self.output),
        ];
        for (option, value) in options {
            if let Some(value) = value {
                argv.extend([option.to_owned(), value.to_owned()]);
            }
        }
        if self.action != EfAction::DbContextScaffold
            && let Some(connection) = self.connection
        {
            argv.extend(["--connection".to_owned(), connection.to_owned()]);
        }
        for (option, values) in [("--table", &self.tables), ("--schema", &self.schemas)] {
            for value in values {
                argv.extend([option.to_owned(), (*value).to_owned()]);
            }
        }
        let flags = [
            ("--no-connect", self.no_connect),
            ("--idempotent", self.idempotent),
            ("--use-database-names", self.use_database_names),
            ("--dry-run", self.action == EfAction::DatabaseDrop && self.dry_run),
            ("--force", self.passes_force()),
            ("--no-build", self.no_build),
            ("--json", self.uses_json()),
        ];
        argv.extend(flags.into_iter().filter(|(_, on)| *on).map(|(flag, _)| flag.to_owned()));
        argv
    }

    /// `--force`: always for a confirmed drop (the CLI would otherwise ask on its stdin), else as
    /// the caller asked (reached only once a destructive action is confirmed or cannot be asked).
    fn passes_force(&self) -> bool {
        match self.action {
            EfAction::DatabaseDrop => !self.dry_run,
            EfAction::MigrationsRemove | EfAction::DbContextScaffold => self.force,
            _ => false,
        }
    }

    /// Whether the command has a `--json` form this plugin reads.
    fn uses_json(&self) -> bool {
        matches!(
            self.action,
            EfAction::MigrationsAdd | EfAction::MigrationsList | EfAction::DbContextList | EfAction::DbContextInfo
        )
    }
}

impl EfTool {
    async fn execute(&self, args: &Value, ctx: &CallContext) -> Result<Reply, Failure> {
        let params = Params::new(args);
        let action = params.action(EfAction::parse)?;
        params.allow_only(action.name(), &allowed(action))?;
        let cwd = workspace::working_directory(
            params.opt("workingDirectory", Kind::Path)?,
            self.settings.working_directory.as_deref(),
        )?;
        let request = Request::read(action, &params)?;
        let project = match params.opt("project", Kind::ProjectPath)? {
            Some(project) => Some(project.to_owned()),
            None => workspace::discover(ctx, Target::Project, "project").await?.map(|path| path.display().to_string()),
        };
        let target = LockTarget::for_path(project.as_deref().map(Path::new), &cwd);
        self.confirm(&request, &target.key, ctx).await?;
        let lock = match request.mutates() {
            true => Some(
                locking::acquire(
                    &self.plugin,
                    &target,
                    &format!("dotnet_ef {}", action.name()),
                    self.settings.lock_wait,
                )
                .await
                .map_err(|(error, extra)| Failure { error, extra: Some(extra) })?,
            ),
            false => None,
        };
        let lock_info =
            lock.as_ref().map(|guard: &LockGuard| json!({ "lockInfo": locking::lock_info_json(guard.info()) }));
        let argv = request.argv(project.as_deref());
        let description = format!("dotnet {}", argv[..3].join(" "));
        let mut command = Command::new(argv, &cwd, description).progress(ProgressKind::Ef);
        if let Some(connection) = request.connection {
            command = command.secret(connection);
        }
        let ran = exec::run(&self.settings, ctx, command).await?;
        drop(lock);
        let fail = |error: ErrorResponse| Failure { error, extra: lock_info.clone() };
        if !ran.succeeded() {
            return Err(fail(failure_of(&ran)));
        }
        let mut structured = Map::new();
        structured.insert("success".into(), json!(true));
        structured.insert("action".into(), json!(action.name()));
        structured.insert("command".into(), json!(redacted_command_line(&ran.argv[0], &ran.argv[1..])));
        structured.insert("exitCode".into(), json!(ran.exit_code()));
        if let Some(Value::Object(info)) = lock_info.clone() {
            structured.extend(info);
        }
        let reply =
            respond_to(&request, &ran, &cwd, &mut structured).map_err(|reason| fail(unreadable(&ran, &reason)))?;
        let mut structured = Value::Object(structured);
        dotnet_support::redact::redact_json(&mut structured);
        Ok(reply.structured(structured))
    }

    /// Asks before a destructive action; `Err` when the action must not run.
    async fn confirm(&self, request: &Request<'_>, target: &str, ctx: &CallContext) -> Result<(), Failure> {
        let (question, needs_force) = match request.action {
            EfAction::DatabaseDrop if !request.dry_run => {
                let context = request.context.unwrap_or("the project's DbContext");
                (
                    format!(
                        "Drop the database of {context} used by {target}? The database and all its data are \
                         deleted; this cannot be undone."
                    ),
                    true,
                )
            }
            EfAction::MigrationsRemove => {
                let revert = if request.force {
                    " Because force is set, it is also reverted in the database if it was applied."
                } else {
                    ""
                };
                (
                    format!(
                        "Remove the last migration of {target}? Its migration files are deleted and the model \
                         snapshot is reverted.{revert}"
                    ),
                    false,
                )
            }
            _ => return Ok(()),
        };
        match confirm::confirm(ctx, &question).await {
            Confirmation::Confirmed => Ok(()),
            Confirmation::Refused(reason) => Err(confirm::refused(request.action.name(), target, &reason).into()),
            Confirmation::NotAsked if !needs_force || request.force => Ok(()),
            Confirmation::NotAsked => Err(ErrorResponse::from(ErrorResult::invalid_params(
                "force",
                "confirmation required",
                "DatabaseDrop deletes the database and all its data, and this client cannot be asked to confirm it. \
                 Ask the user, then call again with force=true; or call with dryRun=true to see which database \
                 would be dropped.",
            ))
            .into()),
        }
    }
}

/// The error of a failed run: the missing dotnet-ef tool, or what the output says.
fn failure_of(ran: &Ran) -> ErrorResponse {
    let Some(manifest_lists_it) = parse::ef_missing(&ran.outcome.transcript) else {
        return ran.failure();
    };
    let reason = if manifest_lists_it {
        "the repository's tool manifest lists dotnet-ef, but it is not restored; run `dotnet tool restore`".to_owned()
    } else {
        format!("the dotnet-ef tool is not installed; install it with `{INSTALL_COMMAND}`")
    };
    let mut alternatives = vec![
        format!("Install the EF Core tools for the user: {INSTALL_COMMAND}"),
        "Or as a local tool of the repository: dotnet new tool-manifest (once), then dotnet tool install dotnet-ef"
            .to_owned(),
    ];
    if manifest_lists_it {
        alternatives.insert(0, "Restore the tools of the repository's manifest: dotnet tool restore".to_owned());
    }
    let mut error = ErrorResult::capability_not_available("dotnet-ef", &reason, alternatives);
    error.hint = Some(if manifest_lists_it {
        "Run `dotnet tool restore`, then call again.".to_owned()
    } else {
        format!("Run `{INSTALL_COMMAND}`, then call again.")
    });
    error.raw_output = ran.outcome.transcript.clone();
    if let Some(data) = error.data.as_mut() {
        data.command = Some(redacted_command_line(&ran.argv[0], &ran.argv[1..]));
        data.exit_code = Some(ran.exit_code());
        let install = if manifest_lists_it { "dotnet tool restore" } else { INSTALL_COMMAND };
        data.additional_data.get_or_insert_with(Default::default).insert("installCommand".into(), install.into());
    }
    ErrorResponse::from(error)
}

/// The error of a run that succeeded but printed something this plugin cannot read.
fn unreadable(ran: &Ran, reason: &str) -> ErrorResponse {
    let mut error = ErrorResult::new(
        format!("EXIT_{}", ran.exit_code()),
        &format!("dotnet ef succeeded, but its output could not be read: {reason}."),
    )
    .with_hint("Check the version of dotnet-ef (dotnet ef --version); this plugin reads the --json output of EF Core 5 and later.");
    error.raw_output = ran.outcome.stdout.clone();
    ErrorResponse::new(error, ran.exit_code())
}

/// The prose and the action's own structured fields, read from the output.
fn respond_to(request: &Request<'_>, ran: &Ran, cwd: &Path, out: &mut Map<String, Value>) -> Result<Reply, String> {
    let stdout = &ran.outcome.stdout;
    let mut output = ran.outcome.transcript.clone();
    let reply = match request.action {
        EfAction::MigrationsAdd => {
            let files: MigrationFiles = parse::json_as(stdout)?;
            let name = request.name.unwrap_or_default();
            set(out, "name", json!(name));
            if let Value::Object(files) = json!(files) {
                out.extend(files);
            }
            Reply::new(format!("Added the migration {name}."))
                .section("Files", vec![files.migration_file, files.metadata_file, files.snapshot_file])
        }
        EfAction::MigrationsList => {
            let migrations: Vec<Migration> = parse::json_as(stdout)?;
            let known = migrations.iter().all(|migration| migration.applied.is_some());
            let pending = migrations.iter().filter(|migration| migration.applied == Some(false)).count();
            set(out, "pendingCount", if known { json!(pending) } else { Value::Null });
            let lines = migrations
                .iter()
                .map(|migration| {
                    let state = match migration.applied {
                        Some(true) => "applied",
                        Some(false) => "pending",
                        None => "state unknown",
                    };
                    format!("{} ({state})", migration.id)
                })
                .collect();
            set(out, "migrations", json!(migrations));
            let summary = match (migrations.len(), known) {
                (0, _) => "The project has no migrations.".to_owned(),
                (count, true) => format!("{count} migration(s), {pending} pending."),
                (count, false) => format!("{count} migration(s); the database was not consulted."),
            };
            Reply::new(summary).section("Migrations", lines)
        }
        EfAction::MigrationsRemove => {
            let removed = parse::quoted_after(stdout, "Removing migration ").into_iter().next();
            set(out, "removedMigration", json!(removed));
            set(out, "force", json!(request.force));
            Reply::new(match &removed {
                Some(id) => format!("Removed the migration {id} and reverted the model snapshot."),
                None => "Removed the last migration.".to_owned(),
            })
        }
        EfAction::MigrationsScript => {
            set(out, "idempotent", json!(request.idempotent));
            if let Some(from) = request.from {
                set(out, "from", json!(from));
            }
            if let Some(to) = request.to {
                set(out, "to", json!(to));
            }
            match request.output {
                Some(output) => {
                    let file = cwd.join(output).display().to_string();
                    set(out, "outputFile", json!(file));
                    Reply::new(format!("Wrote the SQL script to {file}."))
                }
                None => {
                    let script = parse::body(stdout);
                    let lines = script.lines().count();
                    set(out, "script", json!(script));
                    output = script;
                    Reply::new(format!("Generated the SQL script ({lines} lines)."))
                }
            }
        }
        EfAction::DatabaseUpdate => {
            let applied = parse::quoted_after(stdout, "Applying migration ");
            let reverted = parse::quoted_after(stdout, "Reverting migration ");
            let up_to_date = parse::up_to_date(stdout) || (applied.is_empty() && reverted.is_empty());
            if let Some(migration) = request.migration {
                set(out, "targetMigration", json!(migration));
            }
            let summary = match (applied.len(), reverted.len()) {
                (0, 0) => "The database is already up to date.".to_owned(),
                (count, 0) => format!("Applied {count} migration(s) to the database."),
                (0, count) => format!("Reverted {count} migration(s) in the database."),
                (up, down) => format!("Applied {up} and reverted {down} migration(s)."),
            };
            let reply = Reply::new(summary).section("Applied", applied.clone()).section("Reverted", reverted.clone());
            set(out, "appliedMigrations", json!(applied));
            set(out, "revertedMigrations", json!(reverted));
            set(out, "upToDate", json!(up_to_date));
            reply
        }
        EfAction::DatabaseDrop => {
            let outcome = parse::drop_outcome(stdout);
            let database = outcome.database.as_deref().unwrap_or("the database");
            let server = outcome.server.as_deref().map(|server| format!(" on server '{server}'")).unwrap_or_default();
            let summary = if request.dry_run {
                format!("Dry run: would drop {database}{server}; nothing was changed.")
            } else if outcome.dropped {
                format!("Dropped {database}{server}.")
            } else {
                format!("Nothing was dropped: {database}{server} did not exist.")
            };
            set(out, "dryRun", json!(request.dry_run));
            set(out, "dropped", json!(outcome.dropped));
            set(out, "database", json!(outcome.database));
            set(out, "server", json!(outcome.server));
            Reply::new(summary)
        }
        EfAction::DbContextList => {
            let contexts: Vec<ContextEntry> = parse::json_as(stdout)?;
            let lines = contexts.iter().map(|context| context.full_name.clone()).collect();
            let summary = match contexts.len() {
                0 => "The project has no DbContext.".to_owned(),
                count => format!("{count} DbContext type(s)."),
            };
            set(out, "contexts", json!(contexts));
            Reply::new(summary).section("DbContexts", lines)
        }
        EfAction::DbContextInfo => {
            let info: ContextInfo = parse::json_as(stdout)?;
            let or_unknown = |value: &Option<String>| value.clone().unwrap_or_else(|| "unknown".to_owned());
            let reply = Reply::new(format!("{} uses {}.", info.kind, or_unknown(&info.provider_name))).section(
                "Details",
                vec![
                    format!("Database name: {}", or_unknown(&info.database_name)),
                    format!("Data source: {}", or_unknown(&info.data_source)),
                    format!("Options: {}", or_unknown(&info.options)),
                ],
            );
            set(out, "context", json!(info));
            reply
        }
        EfAction::DbContextScaffold => {
            let messages: Vec<String> =
                parse::body(stdout).lines().map(str::trim).filter(|line| !line.is_empty()).map(str::to_owned).collect();
            let provider = request.provider.unwrap_or_default();
            set(out, "provider", json!(provider));
            if let Some(dir) = request.output_dir {
                set(out, "outputDir", json!(cwd.join(dir).display().to_string()));
            }
            if let Some(dir) = request.context_dir {
                set(out, "contextDir", json!(cwd.join(dir).display().to_string()));
            }
            set(out, "messages", json!(messages));
            Reply::new(format!("Scaffolded a DbContext and entity classes from the database ({provider})."))
                .section("Messages", messages)
        }
    };
    Ok(reply.output(output))
}

/// Sets one field of the structured content.
fn set(out: &mut Map<String, Value>, key: &str, value: Value) {
    out.insert(key.to_owned(), value);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(action: EfAction, args: Value) -> Vec<String> {
        let params = Params::new(&args);
        Request::read(action, &params).unwrap().argv(Some("App.csproj"))
    }

    #[test]
    fn argument_vectors_put_positionals_first_and_json_last() {
        assert_eq!(
            request(
                EfAction::MigrationsAdd,
                json!({ "name": "Init", "outputDir": "Data/Migrations", "noBuild": true })
            ),
            [
                "ef",
                "migrations",
                "add",
                "Init",
                "--project",
                "App.csproj",
                "--output-dir",
                "Data/Migrations",
                "--no-build",
                "--json"
            ]
        );
        assert_eq!(
            request(EfAction::MigrationsScript, json!({ "to": "AddOrders", "idempotent": true })),
            ["ef", "migrations", "script", "0", "AddOrders", "--project", "App.csproj", "--idempotent"]
        );
        assert_eq!(
            request(EfAction::DatabaseDrop, json!({ "dryRun": true, "force": true })),
            ["ef", "database", "drop", "--project", "App.csproj", "--dry-run"]
        );
        assert_eq!(
            request(
                EfAction::DbContextScaffold,
                json!({ "connection": "Data Source=x.db", "provider": "P", "tables": "a, b", "force": true })
            ),
            [
                "ef",
                "dbcontext",
                "scaffold",
                "Data Source=x.db",
                "P",
                "--project",
                "App.csproj",
                "--table",
                "a",
                "--table",
                "b",
                "--force"
            ]
        );
    }

    #[test]
    fn list_parameters_accept_arrays_and_comma_separated_text() {
        let args = json!({ "tables": ["dbo.Blogs", " ", "Posts"], "schemas": "dbo,sales", "bad": [1] });
        let params = Params::new(&args);
        assert_eq!(names(&params, "tables").unwrap(), ["dbo.Blogs", "Posts"]);
        assert_eq!(names(&params, "schemas").unwrap(), ["dbo", "sales"]);
        assert!(names(&params, "missing").unwrap().is_empty());
        assert!(names(&params, "bad").is_err());
        let injected = json!({ "tables": ["--force"] });
        assert!(names(&Params::new(&injected), "tables").is_err());
    }

    #[test]
    fn each_action_takes_its_own_parameters() {
        assert!(allowed(EfAction::DbContextList).iter().all(|name| *name != "context"));
        assert!(allowed(EfAction::DbContextScaffold).contains(&"tables"));
        assert!(!allowed(EfAction::MigrationsList).contains(&"force"));
    }
}
