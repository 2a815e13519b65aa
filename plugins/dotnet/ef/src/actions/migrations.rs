//! Migrations: MigrationsAdd, MigrationsList, MigrationsRemove and MigrationsScript, read from
//! `--json` where the tool has it and from its text lines otherwise.

use std::path::Path;

use dotnet_support::{exec::Ran, kit::prose::count, respond::Reply};
use schemars::JsonSchema;
use serde::Serialize;

use crate::{
    parse::{self, Migration, MigrationFiles},
    request::Request,
};

// MigrationsAdd: the new migration's name and files.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Added {
    name: String,
    #[serde(flatten)]
    files: MigrationFiles,
}

// MigrationsList: the migrations and how many the database lacks.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Listed {
    migrations: Vec<Migration>,
    // `null` when the database was not consulted.
    #[schemars(range(min = 0))]
    pending_count: Option<i64>,
}

// MigrationsRemove: the migration removed (`null` when the tool did not name it).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Removed {
    removed_migration: Option<String>,
    force: bool,
}

// MigrationsScript: the SQL, or the file it went to, and the range asked for.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Script {
    /// The SQL, when no output file was asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    script: Option<String>,
    /// The file the SQL was written to.
    #[serde(skip_serializing_if = "Option::is_none")]
    output_file: Option<String>,
    idempotent: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    from: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    to: Option<String>,
}

/// MigrationsAdd: the files `migrations add --json` reports.
pub fn added(request: &Request<'_>, ran: &Ran) -> Result<Reply, String> {
    let files: MigrationFiles = parse::json_as(&ran.outcome.stdout)?;
    let name = request.name.unwrap_or_default();
    let listed = vec![files.migration_file.clone(), files.metadata_file.clone(), files.snapshot_file.clone()];
    Ok(Reply::new(format!("Added the migration {name}."))
        .section("Files", listed)
        .output(ran.outcome.transcript.clone())
        .result(Added { name: name.to_owned(), files }))
}

/// MigrationsList: the migrations of `migrations list --json`, and whether the database has them.
pub fn listed(ran: &Ran) -> Result<Reply, String> {
    let migrations: Vec<Migration> = parse::json_as(&ran.outcome.stdout)?;
    let known = migrations.iter().all(|migration| migration.applied.is_some());
    let pending = migrations.iter().filter(|migration| migration.applied == Some(false)).count();
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
    let summary = match (migrations.len(), known) {
        (0, _) => "The project has no migrations.".to_owned(),
        (all, true) => format!("{}, {pending} pending.", count(all, "migration")),
        (all, false) => format!("{}; the database was not consulted.", count(all, "migration")),
    };
    let pending_count = known.then(|| i64::try_from(pending).unwrap_or(i64::MAX));
    Ok(Reply::new(summary)
        .section("Migrations", lines)
        .output(ran.outcome.transcript.clone())
        .result(Listed { migrations, pending_count }))
}

/// MigrationsRemove: the migration the tool says it removed.
pub fn removed(request: &Request<'_>, ran: &Ran) -> Result<Reply, String> {
    let removed = parse::quoted_after(&ran.outcome.stdout, "Removing migration ").into_iter().next();
    Ok(Reply::new(match &removed {
        Some(id) => format!("Removed the migration {id} and reverted the model snapshot."),
        None => "Removed the last migration.".to_owned(),
    })
    .output(ran.outcome.transcript.clone())
    .result(Removed { removed_migration: removed, force: request.force }))
}

/// MigrationsScript: the SQL (the script is the output the model sees), or the file it went to.
pub fn script(request: &Request<'_>, ran: &Ran, cwd: &Path) -> Result<Reply, String> {
    let mut script = Script {
        script: None,
        output_file: None,
        idempotent: request.idempotent,
        from: request.from.map(str::to_owned),
        to: request.to.map(str::to_owned),
    };
    let reply = match request.output {
        Some(output) => {
            let file = cwd.join(output).display().to_string();
            let reply = Reply::new(format!("Wrote the SQL script to {file}.")).output(ran.outcome.transcript.clone());
            script.output_file = Some(file);
            reply
        }
        None => {
            let sql = parse::body(&ran.outcome.stdout);
            let reply =
                Reply::new(format!("Generated the SQL script ({} lines).", sql.lines().count())).output(sql.clone());
            script.script = Some(sql);
            reply
        }
    };
    Ok(reply.result(script))
}
