//! `dotnet ef` (the dotnet-ef tool): migrations, database and DbContext commands in text or
//! `--json` form, with the tool's "Build started..." preamble, and with `--prefix-output` each
//! line marked with its kind (`info:    `, `data:    `, `warn:    `, `error:   ` on stdout, as
//! dotnet-ef 10.0.15 prints them). Under `no-ef` the tool is missing and the SDK answers as for
//! any unknown command.
//!
//! Data: `fixtures/ef/migrations.json` (the last migration is pending),
//! `fixtures/ef/dbcontext.json` and `fixtures/ef/script.sql`.

use std::io::BufRead;

use serde::{Deserialize, Serialize};

use crate::args;
use crate::cmd::help;
use crate::ctx::{Ctx, Scenario};
use crate::host;
use crate::out;
use crate::target;

const MIGRATIONS: &str = crate::fixture::body(include_str!("../../fixtures/ef/migrations.json"));
const DBCONTEXT: &str = crate::fixture::body(include_str!("../../fixtures/ef/dbcontext.json"));
const SCRIPT: &str = crate::fixture::body(include_str!("../../fixtures/ef/script.sql"));
const SCAFFOLD_WARNING: &str = crate::fixture::body(include_str!("../../fixtures/ef/scaffold-warning.txt"));

#[derive(Deserialize)]
struct Migration {
    id: String,
    name: String,
    applied: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct MigrationJson<'a> {
    id: &'a str,
    name: &'a str,
    safe_name: &'a str,
    applied: Option<bool>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct MigrationFiles {
    migration_file: String,
    metadata_file: String,
    snapshot_file: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ContextListEntry<'a> {
    full_name: &'a str,
    safe_name: &'a str,
    name: &'a str,
    assembly_qualified_name: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ContextInfo<'a> {
    #[serde(rename = "type")]
    kind: &'a str,
    provider_name: &'a str,
    database_name: &'a str,
    data_source: &'a str,
    options: &'a str,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct DbContext {
    full_name: String,
    name: String,
    assembly: String,
    provider_name: String,
    database_name: String,
    data_source: String,
    options: String,
}

/// How dotnet-ef writes its own lines: as they are (errors on stderr), or, with
/// `--prefix-output`, each on stdout behind its kind padded to nine columns.
struct Say {
    prefixed: bool,
}

impl Say {
    fn kind(&self, tag: &str, text: &str) {
        match self.prefixed {
            true => text.split('\n').for_each(|line| out::line(&format!("{tag:<9}{line}"))),
            false => out::text(text),
        }
    }

    fn info(&self, text: &str) {
        self.kind("info:", text);
    }

    fn warn(&self, text: &str) {
        self.kind("warn:", text);
    }

    /// The payload: JSON or SQL.
    fn data(&self, text: &str) {
        self.kind("data:", text.strip_suffix('\n').unwrap_or(text));
    }

    fn json<T: Serialize>(&self, value: &T) {
        self.data(&serde_json::to_string_pretty(value).expect("fixture data serializes"));
    }

    fn error(&self, text: &str) {
        match self.prefixed {
            true => self.kind("error:", text),
            false => out::err(text),
        }
    }
}

/// `dotnet ef ...`.
pub fn ef(ctx: &Ctx, args: &[String]) -> u8 {
    if ctx.has(Scenario::NoEf) {
        return host::command_not_found(ctx, "ef");
    }
    if args.first().is_some_and(|a| a == "--version") {
        out::line("Entity Framework Core .NET Command-line Tools");
        out::line(&help::ef_version(ctx));
        return 0;
    }
    let positionals = args::positionals(args);
    let words: Vec<&str> = positionals.iter().map(String::as_str).collect();
    if words.is_empty() || args::flag(args, &["-h", "--help", "-?"]) {
        return help::print(ctx, "ef");
    }
    if let Some(i) = args.iter().position(|a| a == "--connection")
        && args.get(i + 1).is_none_or(|v| v.starts_with('-'))
    {
        out::err("Missing value for option 'connection'");
        return 1;
    }
    let project = args::value(args, &["-p", "--project"]);
    let target = match target::resolve(ctx, project.as_deref()) {
        Ok(t) => t,
        Err(_) => {
            out::err("No project was found. Change the current working directory or use the --project option.");
            return 1;
        }
    };
    let p = &target.projects[0];
    let vars = p.vars(ctx).with("ef_version", &help::ef_version(ctx));
    let json = args::flag(args, &["--json"]);
    let say = Say { prefixed: args::flag(args, &["--prefix-output"]) };
    if !args::flag(args, &["--no-build"]) {
        say.info("Build started...");
        if ctx.has(Scenario::BuildFail) || ctx.has(Scenario::RestoreFail) {
            say.error("Build failed. Use dotnet build to see the errors.");
            return 1;
        }
        say.info("Build succeeded.");
    }
    out::phase(ctx, "Working...", json);
    let migrations: Vec<Migration> = serde_json::from_str(MIGRATIONS).expect("ef/migrations.json is valid");
    let context: DbContext = serde_json::from_str(&vars.render(DBCONTEXT)).expect("ef/dbcontext.json is valid");
    let no_connect = args::flag(args, &["--no-connect"]);
    match words.as_slice() {
        ["migrations", "list", ..] => {
            if json {
                let list: Vec<MigrationJson> = migrations
                    .iter()
                    .map(|m| MigrationJson {
                        id: &m.id,
                        name: &m.name,
                        safe_name: &m.name,
                        applied: (!no_connect).then_some(m.applied),
                    })
                    .collect();
                say.json(&list);
            } else {
                for m in &migrations {
                    let pending = if m.applied || no_connect { "" } else { " (Pending)" };
                    say.info(&format!("{}{pending}", m.id));
                }
            }
            0
        }
        ["migrations", "add", name, ..] => {
            let dir = args::value(args, &["-o", "--output-dir"]).unwrap_or_else(|| "Migrations".into());
            let base = format!("{}/{dir}/20260115100000_{name}", p.dir().display());
            if json {
                say.json(&MigrationFiles {
                    migration_file: format!("{base}.cs"),
                    metadata_file: format!("{base}.Designer.cs"),
                    snapshot_file: format!("{}/{dir}/{}ModelSnapshot.cs", p.dir().display(), context.name),
                });
            } else {
                say.info("Done. To undo this action, use 'ef migrations remove'");
            }
            0
        }
        ["migrations", "remove", ..] => {
            let last = migrations.last().expect("at least one migration");
            if last.applied && !args::flag(args, &["-f", "--force"]) {
                say.error(&format!(
                    "The migration '{}' has already been applied to the database. Revert it and try again. If the migration has been applied to other databases, consider reverting its changes using a new migration instead.",
                    last.id
                ));
                return 1;
            }
            say.info(&format!("Removing migration '{}'.", last.id));
            say.info("Reverting the model snapshot.");
            say.info("Done.");
            0
        }
        ["migrations", "script", ..] => {
            if args::value(args, &["-o", "--output"]).is_none() {
                say.data(&vars.render(SCRIPT));
            }
            0
        }
        ["database", "update", rest @ ..] => {
            if rest.first() == Some(&"0") {
                for m in migrations.iter().rev().filter(|m| m.applied) {
                    say.info(&format!("Reverting migration '{}'.", m.id));
                }
            } else {
                let pending: Vec<&Migration> = migrations.iter().filter(|m| !m.applied).collect();
                if pending.is_empty() {
                    say.info("No migrations were applied. The database is already up to date.");
                }
                for m in pending {
                    say.info(&format!("Applying migration '{}'.", m.id));
                }
            }
            say.info("Done.");
            0
        }
        ["database", "drop", ..] => drop_database(&say, args, &context),
        ["dbcontext", "list", ..] => {
            if json {
                say.json(&[ContextListEntry {
                    full_name: &context.full_name,
                    safe_name: &context.name,
                    name: &context.name,
                    assembly_qualified_name: format!(
                        "{}, {}, Version=1.0.0.0, Culture=neutral, PublicKeyToken=null",
                        context.full_name, context.assembly
                    ),
                }]);
            } else {
                say.info(&context.full_name);
            }
            0
        }
        ["dbcontext", "info", ..] => {
            if json {
                say.json(&ContextInfo {
                    kind: &context.full_name,
                    provider_name: &context.provider_name,
                    database_name: &context.database_name,
                    data_source: &context.data_source,
                    options: &context.options,
                });
            } else {
                say.info(&format!("Type: {}", context.full_name));
                say.info(&format!("Provider name: {}", context.provider_name));
                say.info(&format!("Database name: {}", context.database_name));
                say.info(&format!("Data source: {}", context.data_source));
                say.info(&format!("Options: {}", context.options));
            }
            0
        }
        ["dbcontext", "scaffold", _connection, _provider, ..] => {
            say.warn(SCAFFOLD_WARNING.trim_end());
            0
        }
        ["dbcontext", "scaffold", ..] => {
            say.error("Missing required argument 'connection'.");
            1
        }
        [_, sub, ..] | [sub] => {
            say.error(&format!("Unrecognized command or argument '{sub}'"));
            1
        }
        [] => help::print(ctx, "ef"),
    }
}

/// `ef database drop [--force] [--dry-run]`: without either it asks on stdin.
fn drop_database(say: &Say, args: &[String], context: &DbContext) -> u8 {
    let (db, server) = (&context.database_name, &context.data_source);
    if args::flag(args, &["--dry-run"]) {
        say.info(&format!("Would drop database '{db}' on server '{server}'."));
        return 0;
    }
    if !args::flag(args, &["-f", "--force"]) {
        say.info(&format!("Are you sure you want to drop the database '{db}' on server '{server}'? (y/N)"));
        let mut answer = String::new();
        let _ = std::io::stdin().lock().read_line(&mut answer);
        if !answer.trim().eq_ignore_ascii_case("y") {
            return 0;
        }
    }
    say.info(&format!("Dropping database '{db}' on server '{server}'."));
    say.info(&format!("Successfully dropped database '{db}' on server '{server}'."));
    0
}
