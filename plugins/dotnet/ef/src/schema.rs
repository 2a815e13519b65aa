//! The `dotnet_ef` tool's input schema and output schema. The output schema is an `anyOf` of
//! one shape per action (each with its `action` as a constant) and the error envelope, so every
//! result the tool returns, success or failure, validates against it.

use dotnet_support::{errors::error_response_schema, params::action_schema, respond};
use serde_json::{Value, json};

use crate::EfAction;

/// The arguments: the action, then every parameter any action takes (each action refuses the
/// ones it does not take).
pub fn input() -> Value {
    let text = |description: &str| json!({ "type": "string", "description": description });
    let flag = |description: &str| json!({ "type": "boolean", "description": description });
    let list = |description: &str| {
        json!({
            "type": ["array", "string"],
            "items": { "type": "string" },
            "description": description
        })
    };
    json!({
        "type": "object",
        "properties": {
            "action": action_schema(EfAction::NAMES, "The EF Core command to run."),
            "project": text("The project holding the DbContext and migrations (.csproj or its folder). Omitted: the one project in the client's roots, else the working directory's."),
            "startupProject": text("The startup project that configures the DbContext (--startup-project), when it is not the project itself."),
            "context": text("The DbContext type to use, when the project has several (--context). For DbContextScaffold: the name of the class to generate."),
            "framework": text("The target framework of the startup project (--framework), e.g. net10.0."),
            "noBuild": flag("Do not build the project first (--no-build)."),
            "workingDirectory": text("The folder to run in (default: the configured WorkingDirectory, else the server's)."),
            "name": text("MigrationsAdd: the new migration's name, e.g. AddCustomerEmail."),
            "outputDir": text("MigrationsAdd: the folder for the migration files; DbContextScaffold: the folder for the entity classes (--output-dir)."),
            "from": text("MigrationsScript: the migration to start after (name or id; 0 is before the first)."),
            "to": text("MigrationsScript: the last migration to include (default: the latest)."),
            "output": text("MigrationsScript: write the SQL to this file instead of returning it (--output)."),
            "idempotent": flag("MigrationsScript: generate a script that can run on a database at any migration (--idempotent)."),
            "migration": text("DatabaseUpdate: the migration to update (or revert) the database to; 0 reverts every migration. Default: the latest."),
            "connection": text("MigrationsList, DatabaseUpdate: the connection string to use instead of the configured one (--connection). DbContextScaffold: the connection string of the database to scaffold (a `Name=ConnectionStrings:X` reference keeps it out of the generated code). It never appears in any output."),
            "noConnect": flag("MigrationsList: do not connect to the database, so whether migrations are applied is unknown (--no-connect)."),
            "provider": text("DbContextScaffold: the database provider package, e.g. Microsoft.EntityFrameworkCore.SqlServer."),
            "contextDir": text("DbContextScaffold: the folder for the DbContext class (--context-dir)."),
            "tables": list("DbContextScaffold: tables to scaffold (a list, or names separated by commas); default: all."),
            "schemas": list("DbContextScaffold: schemas whose tables to scaffold (a list, or names separated by commas); default: all."),
            "useDatabaseNames": flag("DbContextScaffold: keep table and column names as the database spells them (--use-database-names)."),
            "force": flag("MigrationsRemove: also revert the migration in the database if it was applied (--force). DbContextScaffold: overwrite existing files (--force). DatabaseDrop: the user has confirmed the drop; only needed when the client cannot be asked."),
            "dryRun": flag("DatabaseDrop: only say which database would be dropped (--dry-run); nothing is asked or changed.")
        },
        "required": ["action"],
        "additionalProperties": false
    })
}

/// A success shape of `action` (see [`respond::success_schema`]).
fn success(action: EfAction, properties: Value, required: &[&str]) -> Value {
    respond::success_schema(action.name(), properties, required)
}

/// Every result of the tool: one shape per action, or the error envelope.
pub fn output() -> Value {
    let string = json!({ "type": "string" });
    let maybe_string = json!({ "type": ["string", "null"] });
    let strings = json!({ "type": "array", "items": { "type": "string" } });
    let migration = json!({
        "type": "object",
        "properties": {
            "id": string,
            "name": string,
            "safeName": string,
            "applied": { "type": ["boolean", "null"], "description": "null when the database was not consulted." }
        },
        "required": ["id", "name", "applied"]
    });
    let context_entry = json!({
        "type": "object",
        "properties": {
            "fullName": string,
            "name": string,
            "safeName": string,
            "assemblyQualifiedName": string
        },
        "required": ["fullName", "name"]
    });
    let context_info = json!({
        "type": "object",
        "properties": {
            "type": string,
            "providerName": maybe_string,
            "databaseName": maybe_string,
            "dataSource": maybe_string,
            "options": maybe_string
        },
        "required": ["type"]
    });
    let shapes = [
        success(
            EfAction::MigrationsAdd,
            json!({
                "name": string,
                "migrationFile": string,
                "metadataFile": string,
                "snapshotFile": string
            }),
            &["name", "migrationFile", "metadataFile", "snapshotFile"],
        ),
        success(
            EfAction::MigrationsList,
            json!({
                "migrations": { "type": "array", "items": migration },
                "pendingCount": { "type": ["integer", "null"], "minimum": 0 }
            }),
            &["migrations", "pendingCount"],
        ),
        success(
            EfAction::MigrationsRemove,
            json!({ "removedMigration": maybe_string, "force": { "type": "boolean" } }),
            &["removedMigration", "force"],
        ),
        success(
            EfAction::MigrationsScript,
            json!({
                "script": { "type": "string", "description": "The SQL, when no output file was asked for." },
                "outputFile": { "type": "string", "description": "The file the SQL was written to." },
                "idempotent": { "type": "boolean" },
                "from": string,
                "to": string
            }),
            &["idempotent"],
        ),
        success(
            EfAction::DatabaseUpdate,
            json!({
                "targetMigration": string,
                "appliedMigrations": strings,
                "revertedMigrations": strings,
                "upToDate": { "type": "boolean" }
            }),
            &["appliedMigrations", "revertedMigrations", "upToDate"],
        ),
        success(
            EfAction::DatabaseDrop,
            json!({
                "dryRun": { "type": "boolean" },
                "dropped": { "type": "boolean" },
                "database": maybe_string,
                "server": maybe_string
            }),
            &["dryRun", "dropped", "database", "server"],
        ),
        success(
            EfAction::DbContextList,
            json!({ "contexts": { "type": "array", "items": context_entry } }),
            &["contexts"],
        ),
        success(EfAction::DbContextInfo, json!({ "context": context_info }), &["context"]),
        success(
            EfAction::DbContextScaffold,
            json!({
                "provider": string,
                "outputDir": string,
                "contextDir": string,
                "messages": strings
            }),
            &["provider", "messages"],
        ),
    ];
    let mut any_of: Vec<Value> = shapes.into_iter().collect();
    any_of.push(error_response_schema());
    json!({ "type": "object", "anyOf": any_of })
}
