//! The database: DatabaseUpdate and DatabaseDrop, read from the tool's text lines.

use dotnet_support::{exec::Ran, kit::prose::count, respond::Reply};
use schemars::JsonSchema;
use serde::Serialize;

use crate::{parse, request::Request};

// DatabaseUpdate: the migrations applied and reverted.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Updated {
    #[serde(skip_serializing_if = "Option::is_none")]
    target_migration: Option<String>,
    applied_migrations: Vec<String>,
    reverted_migrations: Vec<String>,
    up_to_date: bool,
}

// DatabaseDrop: what was (or would be) dropped; the database and server as the tool named them.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Dropped {
    dry_run: bool,
    dropped: bool,
    database: Option<String>,
    server: Option<String>,
}

/// DatabaseUpdate: the migrations the tool says it applied or reverted.
pub fn updated(request: &Request<'_>, ran: &Ran) -> Result<Reply, String> {
    let stdout = &ran.outcome.stdout;
    let applied = parse::quoted_after(stdout, "Applying migration ");
    let reverted = parse::quoted_after(stdout, "Reverting migration ");
    let up_to_date = parse::up_to_date(stdout) || (applied.is_empty() && reverted.is_empty());
    let summary = match (applied.len(), reverted.len()) {
        (0, 0) => "The database is already up to date.".to_owned(),
        (up, 0) => format!("Applied {} to the database.", count(up, "migration")),
        (0, down) => format!("Reverted {} in the database.", count(down, "migration")),
        (up, down) => format!("Applied {} and reverted {}.", count(up, "migration"), count(down, "migration")),
    };
    Ok(Reply::new(summary)
        .section("Applied", applied.clone())
        .section("Reverted", reverted.clone())
        .output(ran.outcome.transcript.clone())
        .result(Updated {
            target_migration: request.migration.map(str::to_owned),
            applied_migrations: applied,
            reverted_migrations: reverted,
            up_to_date,
        }))
}

/// DatabaseDrop: what the tool says it dropped (or would drop, in a dry run).
pub fn dropped(request: &Request<'_>, ran: &Ran) -> Result<Reply, String> {
    let outcome = parse::drop_outcome(&ran.outcome.stdout);
    let database = outcome.database.as_deref().unwrap_or("the database");
    let server = outcome.server.as_deref().map(|server| format!(" on server '{server}'")).unwrap_or_default();
    let summary = if request.dry_run {
        format!("Dry run: would drop {database}{server}; nothing was changed.")
    } else if outcome.dropped {
        format!("Dropped {database}{server}.")
    } else {
        format!("Nothing was dropped: {database}{server} did not exist.")
    };
    Ok(Reply::new(summary).output(ran.outcome.transcript.clone()).result(Dropped {
        dry_run: request.dry_run,
        dropped: outcome.dropped,
        database: outcome.database,
        server: outcome.server,
    }))
}
