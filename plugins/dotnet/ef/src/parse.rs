//! Reading what dotnet-ef prints. Every command runs with `--prefix-output`, so each line of the
//! tool's own output names its kind in a prefix nine columns wide: `info:    ` (the build
//! preamble, the migrations applied, reverted or removed, the database dropped), `data:    ` (the
//! document of `--json`, the SQL of `migrations script`), `warn:    `, `error:   `, `verbose: `.
//! Whatever the app itself writes to the console while the tool runs it (a DbContext that logs
//! at start-up: `[12:00:00 INF] BloggingContext starting`, EF's own `info: <time> ...` log) comes
//! unprefixed, or prefixed otherwise, and is never read as the tool's.
//!
//! Every function takes output that is already redacted; none fails on lines it does not know.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The lines dotnet-ef prints before its own output when it builds the project first.
const PREAMBLE: [&str; 2] = ["Build started...", "Build succeeded."];

/// The kinds of line `--prefix-output` marks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Progress and results in prose.
    Info,
    /// The command's payload: JSON or SQL.
    Data,
    /// Warnings (the scaffolded connection string).
    Warn,
}

impl Kind {
    /// The tag; the prefix is the tag padded with spaces to nine columns.
    fn tag(self) -> &'static str {
        match self {
            Kind::Info => "info:",
            Kind::Data => "data:",
            Kind::Warn => "warn:",
        }
    }
}

/// The width of every prefix, tag and padding.
const PREFIX_WIDTH: usize = 9;

/// The lines of `kind`, without their prefix (a payload's own indentation kept). A line must
/// carry the whole prefix: EF's log written by the app (`info: 27.11.2026 ...`) is not the tool's.
pub fn lines(stdout: &str, kind: Kind) -> Vec<&str> {
    let padding = " ".repeat(PREFIX_WIDTH - kind.tag().len());
    stdout
        .lines()
        .filter_map(|line| {
            let rest = line.strip_prefix(kind.tag())?;
            match rest.strip_prefix(padding.as_str()) {
                Some(text) => Some(text),
                // An empty payload line whose padding was trimmed away.
                None => rest.trim().is_empty().then_some(""),
            }
        })
        .collect()
}

/// The tool's messages: its info and warning lines, without the build preamble or blank lines.
pub fn messages(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter_map(|line| [Kind::Info, Kind::Warn].into_iter().find_map(|kind| lines(line, kind).pop()))
        .map(str::trim)
        .filter(|line| !line.is_empty() && !PREAMBLE.contains(line))
        .map(str::to_owned)
        .collect()
}

/// The JSON value of `--json` output: the `data:` lines; what else the run printed (the build
/// preamble, the app's own logging) is not part of it.
pub fn json_payload(stdout: &str) -> Result<Value, String> {
    let data = lines(stdout, Kind::Data).join("\n");
    if data.trim().is_empty() {
        return Err("it printed no JSON output".to_owned());
    }
    let mut values = serde_json::Deserializer::from_str(&data).into_iter::<Value>();
    match values.next() {
        Some(Ok(value)) => Ok(value),
        Some(Err(error)) => Err(format!("its JSON output is malformed ({error})")),
        None => Err("its JSON output is empty".to_owned()),
    }
}

// One migration of `migrations list --json`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Migration {
    // The migration id (`20250110093000_InitialCreate`), the name given to `migrations add`, and
    // the name as a C# identifier when the tool reports it (plain comments: a doc comment is a
    // description in the output schema).
    pub id: String,
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub safe_name: Option<String>,
    /// null when the database was not consulted.
    pub applied: Option<bool>,
}

// The files `migrations add --json` reports.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MigrationFiles {
    // The migration's code, its designer (metadata) file and the updated model snapshot.
    pub migration_file: String,
    pub metadata_file: String,
    pub snapshot_file: String,
}

// One DbContext of `dbcontext list --json`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContextEntry {
    // The type's full name, name, name as a C# identifier and assembly-qualified name.
    pub full_name: String,
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub safe_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assembly_qualified_name: Option<String>,
}

// What `dbcontext info --json` reports.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContextInfo {
    // The DbContext type, the database provider's assembly name, the database name, the server or
    // file the context connects to, and the context's options.
    #[serde(rename = "type")]
    pub kind: String,
    pub provider_name: Option<String>,
    pub database_name: Option<String>,
    pub data_source: Option<String>,
    pub options: Option<String>,
}

/// Reads `--json` output as `T`.
pub fn json_as<T: serde::de::DeserializeOwned>(stdout: &str) -> Result<T, String> {
    serde_json::from_value(json_payload(stdout)?)
        .map_err(|error| format!("its JSON output has another shape ({error})"))
}

/// The quoted names of the tool's info lines that start with `prefix`, in order:
/// `Applying migration '20250301080000_AddCustomerEmail'.` gives the id.
pub fn quoted_after(stdout: &str, prefix: &str) -> Vec<String> {
    lines(stdout, Kind::Info)
        .into_iter()
        .filter_map(|line| line.trim().strip_prefix(prefix))
        .filter_map(|rest| rest.split('\'').nth(1))
        .map(str::to_owned)
        .collect()
}

/// Whether `database update` found nothing to do.
pub fn up_to_date(stdout: &str) -> bool {
    lines(stdout, Kind::Info).into_iter().any(|line| line.contains("The database is already up to date"))
}

/// The payload of a command that prints text (the SQL of `migrations script`), without blank
/// edges.
pub fn body(stdout: &str) -> String {
    let mut data = lines(stdout, Kind::Data);
    while data.last().is_some_and(|line| line.trim().is_empty()) {
        data.pop();
    }
    let first = data.iter().position(|line| !line.trim().is_empty()).unwrap_or(data.len());
    data[first..].join("\n")
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

/// Reads `Dropping database 'db' on server 'srv'.` and `Successfully dropped database 'db'.`,
/// `This would drop the database 'db' on server 'srv'.` (a dry run; older tools: `Would drop
/// database ...`) or `Database 'db' on server 'srv' did not exist, no action was taken.`.
pub fn drop_outcome(stdout: &str) -> DropOutcome {
    const NAMING: [&str; 5] = [
        "Dropping database ",
        "Successfully dropped database ",
        "This would drop the database ",
        "Would drop database ",
        "Database ",
    ];
    let info = lines(stdout, Kind::Info);
    let mut outcome = DropOutcome {
        dropped: info.iter().any(|line| line.trim().starts_with("Successfully dropped database ")),
        ..DropOutcome::default()
    };
    if let Some(line) =
        info.iter().map(|line| line.trim()).find(|line| NAMING.iter().any(|prefix| line.starts_with(prefix)))
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

    /// Prefixes each line as `--prefix-output` does.
    fn prefixed(tag: &str, text: &str) -> String {
        text.lines().map(|line| format!("{tag:<9}{line}\n")).collect()
    }

    const PREAMBLE_LINES: &str = "info:    Build started...\ninfo:    Build succeeded.\n";

    #[test]
    fn json_is_read_from_the_data_lines_only() {
        let list = format!(
            "{PREAMBLE_LINES}[12:00:00 INF] BloggingContext starting\n{}info: 27.11.2026 18:20:05.290 CoreEventId.ContextInitialized[10403]\n",
            prefixed(
                "data:",
                "[\n  {\n    \"id\": \"20250110093000_InitialCreate\",\n    \"name\": \"InitialCreate\",\n    \"safeName\": \"InitialCreate\",\n    \"applied\": true\n  },\n  {\n    \"id\": \"20250301080000_AddCustomerEmail\",\n    \"name\": \"AddCustomerEmail\",\n    \"applied\": null\n  }\n]"
            )
        );
        let migrations: Vec<Migration> = json_as(&list).unwrap();
        assert_eq!(migrations.len(), 2);
        assert_eq!(migrations[0].applied, Some(true));
        assert_eq!(migrations[1].applied, None);
        assert_eq!(serde_json::to_value(&migrations[1]).unwrap()["applied"], Value::Null);
        assert_eq!(json_payload("data:    [\ndata:    ]\n").unwrap(), json!([]));
        // A payload line whose padding was trimmed is an empty line of the payload.
        assert_eq!(json_payload("data:    {\ndata:\ndata:    }\n").unwrap(), json!({}));
        assert!(json_payload(PREAMBLE_LINES).unwrap_err().contains("no JSON"));
        // Unprefixed JSON (the app's own, or a tool run without --prefix-output) is not the tool's.
        assert!(json_payload("{ \"type\": \"App.Db\" }\n").unwrap_err().contains("no JSON"));
        assert!(json_payload("data:    [ { \"id\": \n").unwrap_err().contains("malformed"));
        assert!(json_as::<Vec<Migration>>("data:    { \"a\": 1 }\n").unwrap_err().contains("another shape"));
    }

    #[test]
    fn the_real_tool_s_output_with_an_app_that_logs_at_start_up() {
        // dotnet-ef 10.0.15, `migrations add Initial --json --prefix-output`, on a DbContext
        // whose constructor writes a line in Serilog's console shape.
        let add = "info:    Build started...\ninfo:    Build succeeded.\n[12:00:00 INF] BloggingContext starting\n\
data:    {\ndata:      \"migrationFile\": \"/w/Data/Migrations/20261127201639_Initial.cs\",\n\
data:      \"metadataFile\": \"/w/Data/Migrations/20261127201639_Initial.Designer.cs\",\n\
data:      \"snapshotFile\": \"/w/Data/Migrations/BloggingContextModelSnapshot.cs\"\ndata:    }\n";
        let files: MigrationFiles = json_as(add).unwrap();
        assert_eq!(files.snapshot_file, "/w/Data/Migrations/BloggingContextModelSnapshot.cs");
        let info = "[12:00:00 INF] BloggingContext starting\ndata:    {\ndata:      \"type\": \"Data.BloggingContext\",\n\
data:      \"providerName\": \"Microsoft.EntityFrameworkCore.Sqlite\",\ndata:      \"databaseName\": \"main\",\n\
data:      \"dataSource\": \"blogging.db\",\ndata:      \"options\": \"None\"\ndata:    }\n";
        let context: ContextInfo = json_as(info).unwrap();
        assert_eq!(context.data_source.as_deref(), Some("blogging.db"));
    }

    #[test]
    fn context_list_and_info_read_the_tool_s_field_names() {
        let list: Vec<ContextEntry> = json_as(&prefixed(
            "data:",
            "[{\"fullName\":\"App.Data.AppDbContext\",\"safeName\":\"AppDbContext\",\"name\":\"AppDbContext\",\"assemblyQualifiedName\":\"App.Data.AppDbContext, App\"}]",
        ))
        .unwrap();
        assert_eq!(list[0].full_name, "App.Data.AppDbContext");
        let info: ContextInfo = json_as(&prefixed(
            "data:",
            "{\"type\":\"App.Data.AppDbContext\",\"providerName\":\"Microsoft.EntityFrameworkCore.Sqlite\",\"databaseName\":\"main\",\"dataSource\":\"app.db\",\"options\":\"None\"}",
        ))
        .unwrap();
        assert_eq!((info.kind.as_str(), info.database_name.as_deref()), ("App.Data.AppDbContext", Some("main")));
        let files: MigrationFiles = json_as(&prefixed(
            "data:",
            "{\"migrationFile\":\"a.cs\",\"metadataFile\":\"a.Designer.cs\",\"snapshotFile\":\"S.cs\"}",
        ))
        .unwrap();
        assert_eq!(files.snapshot_file, "S.cs");
    }

    #[test]
    fn migration_lines_name_what_was_applied_reverted_or_removed() {
        let update = format!(
            "{PREAMBLE_LINES}{}",
            prefixed(
                "info:",
                "Applying migration '20250201141500_AddOrders'.\nApplying migration '20250301080000_AddCustomerEmail'.\nDone."
            )
        );
        assert_eq!(
            quoted_after(&update, "Applying migration "),
            ["20250201141500_AddOrders", "20250301080000_AddCustomerEmail"]
        );
        assert!(quoted_after(&update, "Reverting migration ").is_empty());
        assert!(!up_to_date(&update));
        assert!(up_to_date(
            "info:    No migrations were applied. The database is already up to date.\ninfo:    Done.\n"
        ));
        // The app's own line is not the tool's.
        assert!(quoted_after("Applying migration 'X'.\n", "Applying migration ").is_empty());
        let remove = prefixed(
            "info:",
            "Removing migration '20250301080000_AddCustomerEmail'.\nReverting the model snapshot.\nDone.",
        );
        assert_eq!(quoted_after(&remove, "Removing migration "), ["20250301080000_AddCustomerEmail"]);
    }

    #[test]
    fn the_body_is_the_data_without_blank_edges() {
        let script = format!(
            "{PREAMBLE_LINES}[12:00:00 INF] BloggingContext starting\n{}",
            prefixed("data:", "CREATE TABLE \"Customers\" (\n    \"Id\" INTEGER\n);\n\nCOMMIT;\n\n")
        );
        assert_eq!(body(&script), "CREATE TABLE \"Customers\" (\n    \"Id\" INTEGER\n);\n\nCOMMIT;");
        assert_eq!(body("data:    \ndata:    CREATE TABLE x;\n"), "CREATE TABLE x;");
        assert_eq!(body(PREAMBLE_LINES), "");
    }

    #[test]
    fn messages_are_the_tool_s_info_and_warnings() {
        let scaffold = "info:    Build started...\ninfo:    Build succeeded.\n[12:00:00 INF] starting\nwarn:    To protect potentially sensitive information in your connection string, you should move it out of source code.\n";
        assert_eq!(
            messages(scaffold),
            [
                "To protect potentially sensitive information in your connection string, you should move it out of source code."
            ]
        );
    }

    #[test]
    fn drop_outcomes() {
        // dotnet-ef 10.0.15's wordings.
        let dropped = drop_outcome(&prefixed(
            "info:",
            "Dropping database 'main' on server 'blogging.db'.\nSuccessfully dropped database 'main'.",
        ));
        assert_eq!(
            dropped,
            DropOutcome { dropped: true, database: Some("main".into()), server: Some("blogging.db".into()) }
        );
        let dry =
            drop_outcome("[12:00:00 INF] x\ninfo:    This would drop the database 'main' on server 'blogging.db'.\n");
        assert_eq!(
            dry,
            DropOutcome { dropped: false, database: Some("main".into()), server: Some("blogging.db".into()) }
        );
        let absent = drop_outcome("info:    Database 'main' on server 'app.db' did not exist, no action was taken.\n");
        assert_eq!((absent.dropped, absent.server.as_deref()), (false, Some("app.db")));
        assert_eq!(drop_outcome("info:    Done.\n"), DropOutcome::default());
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
