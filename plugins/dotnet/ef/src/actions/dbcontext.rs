//! DbContext types: DbContextList, DbContextInfo (from `--json`) and DbContextScaffold.

use std::path::Path;

use dotnet_support::{exec::Ran, kit::Shape, respond::Reply};
use serde_json::{Map, Value, json};

use super::set;
use crate::{
    Action,
    parse::{self, ContextEntry, ContextInfo},
    request::Request,
};

fn string() -> Value {
    json!({ "type": "string" })
}

/// DbContextList: the DbContext types.
pub fn listed_shape() -> Shape {
    let entry = json!({
        "type": "object",
        "properties": { "fullName": string(), "name": string(), "safeName": string(), "assemblyQualifiedName": string() },
        "required": ["fullName", "name"]
    });
    Shape::new(json!({ "contexts": { "type": "array", "items": entry } }), &["contexts"]).ran()
}

/// DbContextInfo: the provider and database of one DbContext.
pub fn info_shape() -> Shape {
    let maybe_string = json!({ "type": ["string", "null"] });
    let info = json!({
        "type": "object",
        "properties": {
            "type": string(),
            "providerName": maybe_string,
            "databaseName": maybe_string,
            "dataSource": maybe_string,
            "options": maybe_string
        },
        "required": ["type"]
    });
    Shape::new(json!({ "context": info }), &["context"]).ran()
}

/// DbContextScaffold: the provider, where the classes went, what the tool said.
pub fn scaffolded_shape() -> Shape {
    Shape::new(
        json!({
            "provider": string(),
            "outputDir": string(),
            "contextDir": string(),
            "messages": { "type": "array", "items": { "type": "string" } }
        }),
        &["provider", "messages"],
    )
    .ran()
}

/// The prose and the fields of a DbContext action, read from the output.
pub fn reply(request: &Request<'_>, ran: &Ran, cwd: &Path, out: &mut Map<String, Value>) -> Result<Reply, String> {
    let stdout = &ran.outcome.stdout;
    let output = ran.outcome.transcript.clone();
    let reply = match request.action {
        Action::DbContextList => {
            let contexts: Vec<ContextEntry> = parse::json_as(stdout)?;
            let lines = contexts.iter().map(|context| context.full_name.clone()).collect();
            let summary = match contexts.len() {
                0 => "The project has no DbContext.".to_owned(),
                count => format!("{count} DbContext type(s)."),
            };
            set(out, "contexts", json!(contexts));
            Reply::new(summary).section("DbContexts", lines)
        }
        Action::DbContextInfo => {
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
        Action::DbContextScaffold => {
            let messages = parse::messages(stdout);
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
        other => unreachable!("{other:?} is not a DbContext action"),
    };
    Ok(reply.output(output))
}
