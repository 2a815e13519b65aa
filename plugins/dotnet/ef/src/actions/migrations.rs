//! Migrations: MigrationsAdd, MigrationsList, MigrationsRemove and MigrationsScript, read from
//! `--json` where the tool has it and from its text lines otherwise.

use std::path::Path;

use dotnet_support::{exec::Ran, kit::Shape, respond::Reply};
use serde_json::{Map, Value, json};

use super::set;
use crate::{
    Action,
    parse::{self, Migration, MigrationFiles},
    request::Request,
};

fn string() -> Value {
    json!({ "type": "string" })
}

/// MigrationsAdd: the new migration's files.
pub fn added_shape() -> Shape {
    Shape::new(
        json!({ "name": string(), "migrationFile": string(), "metadataFile": string(), "snapshotFile": string() }),
        &["name", "migrationFile", "metadataFile", "snapshotFile"],
    )
    .ran()
}

/// MigrationsList: the migrations and how many the database lacks.
pub fn listed_shape() -> Shape {
    let migration = json!({
        "type": "object",
        "properties": {
            "id": string(),
            "name": string(),
            "safeName": string(),
            "applied": { "type": ["boolean", "null"], "description": "null when the database was not consulted." }
        },
        "required": ["id", "name", "applied"]
    });
    Shape::new(
        json!({
            "migrations": { "type": "array", "items": migration },
            "pendingCount": { "type": ["integer", "null"], "minimum": 0 }
        }),
        &["migrations", "pendingCount"],
    )
    .ran()
}

/// MigrationsRemove: the migration removed.
pub fn removed_shape() -> Shape {
    Shape::new(
        json!({ "removedMigration": { "type": ["string", "null"] }, "force": { "type": "boolean" } }),
        &["removedMigration", "force"],
    )
    .ran()
}

/// MigrationsScript: the SQL, or the file it went to.
pub fn script_shape() -> Shape {
    Shape::new(
        json!({
            "script": { "type": "string", "description": "The SQL, when no output file was asked for." },
            "outputFile": { "type": "string", "description": "The file the SQL was written to." },
            "idempotent": { "type": "boolean" },
            "from": string(),
            "to": string()
        }),
        &["idempotent"],
    )
    .ran()
}

/// The prose and the fields of a migrations action, read from the output.
pub fn reply(request: &Request<'_>, ran: &Ran, cwd: &Path, out: &mut Map<String, Value>) -> Result<Reply, String> {
    let stdout = &ran.outcome.stdout;
    let mut output = ran.outcome.transcript.clone();
    let reply = match request.action {
        Action::MigrationsAdd => {
            let files: MigrationFiles = parse::json_as(stdout)?;
            let name = request.name.unwrap_or_default();
            set(out, "name", json!(name));
            if let Value::Object(files) = json!(files) {
                out.extend(files);
            }
            Reply::new(format!("Added the migration {name}."))
                .section("Files", vec![files.migration_file, files.metadata_file, files.snapshot_file])
        }
        Action::MigrationsList => {
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
        Action::MigrationsRemove => {
            let removed = parse::quoted_after(stdout, "Removing migration ").into_iter().next();
            set(out, "removedMigration", json!(removed));
            set(out, "force", json!(request.force));
            Reply::new(match &removed {
                Some(id) => format!("Removed the migration {id} and reverted the model snapshot."),
                None => "Removed the last migration.".to_owned(),
            })
        }
        Action::MigrationsScript => {
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
        other => unreachable!("{other:?} is not a migrations action"),
    };
    Ok(reply.output(output))
}
