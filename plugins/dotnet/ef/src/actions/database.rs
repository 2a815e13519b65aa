//! The database: DatabaseUpdate and DatabaseDrop, read from the tool's text lines.

use dotnet_support::{exec::Ran, kit::Shape, respond::Reply};
use serde_json::{Map, Value, json};

use super::set;
use crate::{Action, parse, request::Request};

fn strings() -> Value {
    json!({ "type": "array", "items": { "type": "string" } })
}

/// DatabaseUpdate: the migrations applied and reverted.
pub fn updated_shape() -> Shape {
    Shape::new(
        json!({
            "targetMigration": { "type": "string" },
            "appliedMigrations": strings(),
            "revertedMigrations": strings(),
            "upToDate": { "type": "boolean" }
        }),
        &["appliedMigrations", "revertedMigrations", "upToDate"],
    )
    .ran()
}

/// DatabaseDrop: what was (or would be) dropped.
pub fn dropped_shape() -> Shape {
    let maybe_string = json!({ "type": ["string", "null"] });
    Shape::new(
        json!({
            "dryRun": { "type": "boolean" },
            "dropped": { "type": "boolean" },
            "database": maybe_string,
            "server": maybe_string
        }),
        &["dryRun", "dropped", "database", "server"],
    )
    .ran()
}

/// The prose and the fields of a database action, read from the output.
pub fn reply(request: &Request<'_>, ran: &Ran, out: &mut Map<String, Value>) -> Result<Reply, String> {
    let stdout = &ran.outcome.stdout;
    let output = ran.outcome.transcript.clone();
    let reply = match request.action {
        Action::DatabaseUpdate => {
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
        Action::DatabaseDrop => {
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
        other => unreachable!("{other:?} is not a database action"),
    };
    Ok(reply.output(output))
}
