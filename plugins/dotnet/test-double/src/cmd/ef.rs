//! `dotnet ef` (the dotnet-ef tool): migrations, database and DbContext commands in text or
//! `--json` form, with the tool's "Build started..." preamble. Under `no-ef` the tool is
//! missing and the SDK answers as for any unknown command.
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
    if !args::flag(args, &["--no-build"]) {
        out::line("Build started...");
        if ctx.has(Scenario::BuildFail) || ctx.has(Scenario::RestoreFail) {
            out::err("Build failed. Use dotnet build to see the errors.");
            return 1;
        }
        out::line("Build succeeded.");
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
                out::json(&list);
            } else {
                for m in &migrations {
                    let pending = if m.applied || no_connect { "" } else { " (Pending)" };
                    out::line(&format!("{}{pending}", m.id));
                }
            }
            0
        }
        ["migrations", "add", name, ..] => {
            let dir = args::value(args, &["-o", "--output-dir"]).unwrap_or_else(|| "Migrations".into());
            let base = format!("{}/{dir}/20260115100000_{name}", p.dir().display());
            if json {
                out::json(&MigrationFiles {
                    migration_file: format!("{base}.cs"),
                    metadata_file: format!("{base}.Designer.cs"),
                    snapshot_file: format!("{}/{dir}/{}ModelSnapshot.cs", p.dir().display(), context.name),
                });
            } else {
                out::line("Done. To undo this action, use 'ef migrations remove'");
            }
            0
        }
        ["migrations", "remove", ..] => {
            let last = migrations.last().expect("at least one migration");
            if last.applied && !args::flag(args, &["-f", "--force"]) {
                out::err(&format!(
                    "The migration '{}' has already been applied to the database. Revert it and try again. If the migration has been applied to other databases, consider reverting its changes using a new migration instead.",
                    last.id
                ));
                return 1;
            }
            out::line(&format!("Removing migration '{}'.", last.id));
            out::line("Reverting the model snapshot.");
            out::line("Done.");
            0
        }
        ["migrations", "script", ..] => {
            if args::value(args, &["-o", "--output"]).is_none() {
                out::text(&vars.render(SCRIPT));
            }
            0
        }
        ["database", "update", rest @ ..] => {
            if rest.first() == Some(&"0") {
                for m in migrations.iter().rev().filter(|m| m.applied) {
                    out::line(&format!("Reverting migration '{}'.", m.id));
                }
            } else {
                let pending: Vec<&Migration> = migrations.iter().filter(|m| !m.applied).collect();
                if pending.is_empty() {
                    out::line("No migrations were applied. The database is already up to date.");
                }
                for m in pending {
                    out::line(&format!("Applying migration '{}'.", m.id));
                }
            }
            out::line("Done.");
            0
        }
        ["database", "drop", ..] => drop_database(args, &context),
        ["dbcontext", "list", ..] => {
            if json {
                out::json(&[ContextListEntry {
                    full_name: &context.full_name,
                    safe_name: &context.name,
                    name: &context.name,
                    assembly_qualified_name: format!(
                        "{}, {}, Version=1.0.0.0, Culture=neutral, PublicKeyToken=null",
                        context.full_name, context.assembly
                    ),
                }]);
            } else {
                out::line(&context.full_name);
            }
            0
        }
        ["dbcontext", "info", ..] => {
            if json {
                out::json(&ContextInfo {
                    kind: &context.full_name,
                    provider_name: &context.provider_name,
                    database_name: &context.database_name,
                    data_source: &context.data_source,
                    options: &context.options,
                });
            } else {
                out::line(&format!("Type: {}", context.full_name));
                out::line(&format!("Provider name: {}", context.provider_name));
                out::line(&format!("Database name: {}", context.database_name));
                out::line(&format!("Data source: {}", context.data_source));
                out::line(&format!("Options: {}", context.options));
            }
            0
        }
        ["dbcontext", "scaffold", _connection, _provider, ..] => {
            out::text(SCAFFOLD_WARNING);
            0
        }
        ["dbcontext", "scaffold", ..] => {
            out::err("Missing required argument 'connection'.");
            1
        }
        [_, sub, ..] | [sub] => {
            out::err(&format!("Unrecognized command or argument '{sub}'"));
            1
        }
        [] => help::print(ctx, "ef"),
    }
}

/// `ef database drop [--force] [--dry-run]`: without either it asks on stdin.
fn drop_database(args: &[String], context: &DbContext) -> u8 {
    let (db, server) = (&context.database_name, &context.data_source);
    if args::flag(args, &["--dry-run"]) {
        out::line(&format!("Would drop database '{db}' on server '{server}'."));
        return 0;
    }
    if !args::flag(args, &["-f", "--force"]) {
        out::line(&format!("Are you sure you want to drop the database '{db}' on server '{server}'? (y/N)"));
        let mut answer = String::new();
        let _ = std::io::stdin().lock().read_line(&mut answer);
        if !answer.trim().eq_ignore_ascii_case("y") {
            return 0;
        }
    }
    out::line(&format!("Dropping database '{db}' on server '{server}'."));
    out::line(&format!("Successfully dropped database '{db}' on server '{server}'."));
    0
}
