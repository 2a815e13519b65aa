//! DbContext types: DbContextList, DbContextInfo (from `--json`) and DbContextScaffold.

use std::path::Path;

use dotnet_support::{exec::Ran, kit::prose::count, respond::Reply};
use schemars::JsonSchema;
use serde::Serialize;

use crate::{
    parse::{self, ContextEntry, ContextInfo},
    request::Request,
};

// DbContextList: the DbContext types.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Listed {
    contexts: Vec<ContextEntry>,
}

// DbContextInfo: the provider and database of one DbContext.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Info {
    context: ContextInfo,
}

// DbContextScaffold: the provider, where the classes went, what the tool said.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Scaffolded {
    provider: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    output_dir: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    context_dir: Option<String>,
    messages: Vec<String>,
}

/// DbContextList: the types of `dbcontext list --json`.
pub fn listed(ran: &Ran) -> Result<Reply, String> {
    let contexts: Vec<ContextEntry> = parse::json_as(&ran.outcome.stdout)?;
    let lines = contexts.iter().map(|context| context.full_name.clone()).collect();
    let summary = match contexts.len() {
        0 => "The project has no DbContext.".to_owned(),
        types => format!("{}.", count(types, "DbContext type")),
    };
    Ok(Reply::new(summary)
        .section("DbContexts", lines)
        .output(ran.outcome.transcript.clone())
        .result(Listed { contexts }))
}

/// DbContextInfo: what `dbcontext info --json` reports.
pub fn info(ran: &Ran) -> Result<Reply, String> {
    let info: ContextInfo = parse::json_as(&ran.outcome.stdout)?;
    let or_unknown = |value: &Option<String>| value.clone().unwrap_or_else(|| "unknown".to_owned());
    Ok(Reply::new(format!("{} uses {}.", info.kind, or_unknown(&info.provider_name)))
        .section(
            "Details",
            vec![
                format!("Database name: {}", or_unknown(&info.database_name)),
                format!("Data source: {}", or_unknown(&info.data_source)),
                format!("Options: {}", or_unknown(&info.options)),
            ],
        )
        .output(ran.outcome.transcript.clone())
        .result(Info { context: info }))
}

/// DbContextScaffold: the tool's messages, and the folders the classes went to.
pub fn scaffolded(request: &Request<'_>, ran: &Ran, cwd: &Path) -> Result<Reply, String> {
    let messages = parse::messages(&ran.outcome.stdout);
    let provider = request.provider.unwrap_or_default();
    let folder = |dir: Option<&str>| dir.map(|dir| cwd.join(dir).display().to_string());
    Ok(Reply::new(format!("Scaffolded a DbContext and entity classes from the database ({provider})."))
        .section("Messages", messages.clone())
        .output(ran.outcome.transcript.clone())
        .result(Scaffolded {
            provider: provider.to_owned(),
            output_dir: folder(request.output_dir),
            context_dir: folder(request.context_dir),
            messages,
        }))
}
