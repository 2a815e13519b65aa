//! Reading what dotnet-ef prints: the JSON of `--json` (after the tool's `Build started...` /
//! `Build succeeded.` preamble), and the few text lines that say which migrations were applied,
//! reverted or removed, which database was dropped, and the SQL of `migrations script`.
//!
//! Every function takes output that is already redacted; none fails on lines it does not know.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The lines dotnet-ef prints before its own output when it builds the project first.
const PREAMBLE: [&str; 2] = ["Build started...", "Build succeeded."];

/// The JSON value of `--json` output: the first line that opens an array or an object starts
/// it; what follows the value (log lines) is ignored.
pub fn json_payload(stdout: &str) -> Result<Value, String> {
    let mut offset = 0;
    for line in stdout.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if trimmed.starts_with('[') || trimmed.starts_with('{') {
            let start = offset + (line.len() - trimmed.len());
            let mut values = serde_json::Deserializer::from_str(&stdout[start..]).into_iter::<Value>();
            return match values.next() {
                Some(Ok(value)) => Ok(value),
                Some(Err(error)) => Err(format!("its JSON output is malformed ({error})")),
                None => Err("its JSON output is empty".to_owned()),
            };
        }
        offset += line.len();
    }
    Err("it printed no JSON output".to_owned())
}

/// One migration of `migrations list --json`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Migration {
    /// The migration id (`20250110093000_InitialCreate`).
    pub id: String,
    /// The name given to `migrations add`.
    pub name: String,
    /// The name as a C# identifier, when the tool reports it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub safe_name: Option<String>,
    /// Whether the database has it; `null` when the database was not consulted (`--no-connect`,
    /// or no connection).
    #[serde(default)]
    pub applied: Option<bool>,
}

/// The files `migrations add --json` reports.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MigrationFiles {
    /// The migration's code.
    pub migration_file: String,
    /// Its designer (metadata) file.
    pub metadata_file: String,
    /// The updated model snapshot.
    pub snapshot_file: String,
}

/// One DbContext of `dbcontext list --json`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContextEntry {
    /// The type's full name.
    pub full_name: String,
    /// The type's name.
    pub name: String,
    /// The name as a C# identifier.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub safe_name: Option<String>,
    /// The assembly-qualified type name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assembly_qualified_name: Option<String>,
}

/// What `dbcontext info --json` reports.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContextInfo {
    /// The DbContext type.
    #[serde(rename = "type")]
    pub kind: String,
    /// The database provider's assembly name.
    #[serde(default)]
    pub provider_name: Option<String>,
    /// The database name.
    #[serde(default)]
    pub database_name: Option<String>,
    /// The server or file the context connects to.
    #[serde(default)]
    pub data_source: Option<String>,
    /// The context's options.
    #[serde(default)]
    pub options: Option<String>,
}

/// Reads `--json` output as `T`.
pub fn json_as<T: serde::de::DeserializeOwned>(stdout: &str) -> Result<T, String> {
    serde_json::from_value(json_payload(stdout)?)
        .map_err(|error| format!("its JSON output has another shape ({error})"))
}

/// The quoted names of the lines that start with `prefix`, in order:
/// `Applying migration '20250301080000_AddCustomerEmail'.` gives the id.
pub fn quoted_after(stdout: &str, prefix: &str) -> Vec<String> {
    stdout
        .lines()
        .filter_map(|line| line.trim().strip_prefix(prefix))
        .filter_map(|rest| rest.split('\'').nth(1))
        .map(str::to_owned)
        .collect()
}

/// Whether `database update` found nothing to do.
pub fn up_to_date(stdout: &str) -> bool {
    stdout.lines().any(|line| line.contains("The database is already up to date"))
}

/// The output without the build preamble and blank edges: the SQL of `migrations script`, or
/// the messages of a command that prints prose.
pub fn body(stdout: &str) -> String {
    let mut lines: Vec<&str> = stdout.lines().skip_while(|line| PREAMBLE.contains(&line.trim())).collect();
    while lines.last().is_some_and(|line| line.trim().is_empty()) {
        lines.pop();
    }
    lines.join("\n").trim_start_matches('\n').to_owned()
}

/// What `database drop` said.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DropOutcome {
    /// The database was dropped.
    pub dropped: bool,
    /// The database's name, when named.
    pub database: Option<String>,
    /// Its server, when named.
    pub server: Option<String>,
}

/// Reads `Successfully dropped database 'db' on server 'srv'.`, `Would drop database ...` (a
/// dry run) or `Database 'db' on server 'srv' did not exist, no action was taken.`.
pub fn drop_outcome(stdout: &str) -> DropOutcome {
    const NAMING: [&str; 4] =
        ["Successfully dropped database ", "Would drop database ", "Dropping database ", "Database "];
    let mut outcome = DropOutcome {
        dropped: stdout.lines().any(|line| line.trim().starts_with("Successfully dropped database ")),
        ..DropOutcome::default()
    };
    if let Some(line) = stdout.lines().map(str::trim).find(|line| NAMING.iter().any(|prefix| line.starts_with(prefix)))
    {
        let quoted: Vec<&str> = line.split('\'').collect();
        outcome.database = quoted.get(1).map(|name| (*name).to_owned());
        outcome.server = quoted.get(3).map(|name| (*name).to_owned());
    }
    outcome
}

/// Whether a failed run says that the dotnet-ef tool is missing, and if so whether a tool
/// manifest lists it (so `dotnet tool restore` is the fix).
pub fn ef_missing(output: &str) -> Option<bool> {
    if output.contains("dotnet tool restore") && output.contains("dotnet-ef") {
        Some(true)
    } else if output.contains("dotnet-ef does not exist")
        || output.contains("Could not execute because the specified command or file was not found")
    {
        Some(false)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const LIST: &str = "Build started...\nBuild succeeded.\n[\n  {\n    \"id\": \"20250110093000_InitialCreate\",\n    \"name\": \"InitialCreate\",\n    \"safeName\": \"InitialCreate\",\n    \"applied\": true\n  },\n  {\n    \"id\": \"20250301080000_AddCustomerEmail\",\n    \"name\": \"AddCustomerEmail\",\n    \"safeName\": \"AddCustomerEmail\",\n    \"applied\": null\n  }\n]\n";

    #[test]
    fn json_follows_the_build_preamble_and_may_be_followed_by_log_lines() {
        let migrations: Vec<Migration> = json_as(LIST).unwrap();
        assert_eq!(migrations.len(), 2);
        assert_eq!(migrations[0].applied, Some(true));
        assert_eq!(migrations[1].applied, None);
        assert_eq!(serde_json::to_value(&migrations[1]).unwrap()["applied"], Value::Null);
        let trailing = "{ \"type\": \"App.Db\" }\ninfo: done\n";
        assert_eq!(json_payload(trailing).unwrap(), json!({ "type": "App.Db" }));
        assert!(json_payload("Build started...\nBuild succeeded.\n").unwrap_err().contains("no JSON"));
        assert!(json_payload("[ { \"id\": ").unwrap_err().contains("malformed"));
        assert!(json_as::<Vec<Migration>>("{ \"a\": 1 }").unwrap_err().contains("another shape"));
    }

    #[test]
    fn context_list_and_info_read_the_tool_s_field_names() {
        let list: Vec<ContextEntry> = json_as(
            "[{\"fullName\":\"App.Data.AppDbContext\",\"safeName\":\"AppDbContext\",\"name\":\"AppDbContext\",\"assemblyQualifiedName\":\"App.Data.AppDbContext, App\"}]",
        )
        .unwrap();
        assert_eq!(list[0].full_name, "App.Data.AppDbContext");
        let info: ContextInfo = json_as(
            "{\"type\":\"App.Data.AppDbContext\",\"providerName\":\"Microsoft.EntityFrameworkCore.Sqlite\",\"databaseName\":\"main\",\"dataSource\":\"app.db\",\"options\":\"None\"}",
        )
        .unwrap();
        assert_eq!((info.kind.as_str(), info.database_name.as_deref()), ("App.Data.AppDbContext", Some("main")));
        let files: MigrationFiles =
            json_as("{\"migrationFile\":\"a.cs\",\"metadataFile\":\"a.Designer.cs\",\"snapshotFile\":\"S.cs\"}")
                .unwrap();
        assert_eq!(files.snapshot_file, "S.cs");
    }

    #[test]
    fn migration_lines_name_what_was_applied_reverted_or_removed() {
        let update = "Build started...\nBuild succeeded.\nApplying migration '20250201141500_AddOrders'.\nApplying migration '20250301080000_AddCustomerEmail'.\nDone.\n";
        assert_eq!(
            quoted_after(update, "Applying migration "),
            ["20250201141500_AddOrders", "20250301080000_AddCustomerEmail"]
        );
        assert!(quoted_after(update, "Reverting migration ").is_empty());
        assert!(!up_to_date(update));
        assert!(up_to_date("No migrations were applied. The database is already up to date.\nDone.\n"));
        let remove = "Removing migration '20250301080000_AddCustomerEmail'.\nReverting the model snapshot.\nDone.\n";
        assert_eq!(quoted_after(remove, "Removing migration "), ["20250301080000_AddCustomerEmail"]);
    }

    #[test]
    fn the_body_is_the_output_without_the_preamble() {
        let script =
            "Build started...\nBuild succeeded.\nCREATE TABLE \"Customers\" (\n    \"Id\" INTEGER\n);\n\nCOMMIT;\n\n";
        assert_eq!(body(script), "CREATE TABLE \"Customers\" (\n    \"Id\" INTEGER\n);\n\nCOMMIT;");
        assert_eq!(body("CREATE TABLE x;\n"), "CREATE TABLE x;");
        assert_eq!(body("Build started...\nBuild succeeded.\n"), "");
    }

    #[test]
    fn drop_outcomes() {
        let dropped = drop_outcome(
            "Dropping database 'main' on server 'app.db'.\nSuccessfully dropped database 'main' on server 'app.db'.\n",
        );
        assert_eq!(
            dropped,
            DropOutcome { dropped: true, database: Some("main".into()), server: Some("app.db".into()) }
        );
        let dry = drop_outcome("Build succeeded.\nWould drop database 'main' on server 'app.db'.\n");
        assert_eq!((dry.dropped, dry.database.as_deref()), (false, Some("main")));
        let absent = drop_outcome("Database 'main' on server 'app.db' did not exist, no action was taken.\n");
        assert_eq!((absent.dropped, absent.server.as_deref()), (false, Some("app.db")));
        assert_eq!(drop_outcome("Done.\n"), DropOutcome::default());
    }

    #[test]
    fn a_missing_ef_tool_is_recognised() {
        let not_found = "Could not execute because the specified command or file was not found.\nPossible reasons for this include:\n  * You intended to execute a .NET program, but dotnet-ef does not exist.\n";
        assert_eq!(ef_missing(not_found), Some(false));
        let manifest = "Run \"dotnet tool restore\" to make the \"dotnet-ef\" command available.\n";
        assert_eq!(ef_missing(manifest), Some(true));
        assert_eq!(ef_missing("Build failed. Use dotnet build to see the errors.\n"), None);
    }
}
