//! Reading what `dotnet tool` prints: the `tool list` JSON (SDK 9.0.100 and later) and table,
//! the `tool search` table and its `--detail` blocks, and the one-line messages of install,
//! update, uninstall and restore.
//!
//! The table parsers go by header names, not positions, so the `Manifest` column that only local
//! listings have, and columns added by later SDKs, do not disturb them.

use dotnet_support::table;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

// An installed tool.
// From `dotnet tool list` or `dotnet tool restore`; its fields are those of the CLI's `tool list
// --format json` contract (version 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct InstalledTool {
    // The NuGet package id, the version and the commands (plain comments: a doc comment would be
    // a description in the output schema, and the names say it).
    pub package_id: String,
    pub version: String,
    pub commands: Vec<String>,
    /// Local tools only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub manifest: Option<String>,
}

/// What `dotnet tool list --format json` prints: `{"version": 1, "data": [...]}`.
#[derive(Debug, Deserialize)]
struct Listing {
    version: u32,
    data: Vec<InstalledTool>,
}

// One package found by `dotnet tool search` (plain comments where the names say it: a doc comment
// is a description in the output schema).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FoundTool {
    // The NuGet package id, its latest version and authors.
    pub package_id: String,
    pub latest_version: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub authors: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0))]
    pub downloads: Option<i64>,
    // Whether nuget.org marks the owner as verified.
    pub verified: bool,
    // With `detail` only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    // With `detail` only.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub versions: Vec<VersionDownloads>,
}

// One version of a found package.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct VersionDownloads {
    pub version: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0))]
    pub downloads: Option<i64>,
}

/// What an install, update or uninstall reported about the tool it changed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Change {
    /// The version installed, updated to or removed.
    pub version: Option<String>,
    /// The version an update started from.
    pub previous_version: Option<String>,
    /// The manifest file that was changed (local tools).
    pub manifest: Option<String>,
}

/// A count as the CLI prints it, with or without group separators (`2,000`, `2.000`, `2 000`).
fn number(text: &str) -> Option<i64> {
    let digits: String = text.chars().filter(|c| !matches!(c, ',' | '.' | ' ' | '\u{a0}')).collect();
    digits.parse().ok()
}

fn commands(text: &str) -> Vec<String> {
    text.split(',').map(str::trim).filter(|command| !command.is_empty()).map(str::to_owned).collect()
}

/// The tools of a `dotnet tool list` table (empty when the output has no table).
pub fn list(stdout: &str) -> Vec<InstalledTool> {
    let Some(table) = table::parse(stdout) else { return Vec::new() };
    table
        .rows
        .iter()
        .filter_map(|row| {
            Some(InstalledTool {
                package_id: table.cell(row, "Package Id")?.to_owned(),
                version: table.cell(row, "Version").unwrap_or_default().to_owned(),
                commands: commands(table.cell(row, "Commands").unwrap_or_default()),
                manifest: table.cell(row, "Manifest").map(str::to_owned),
            })
        })
        .collect()
}

/// The tools of `dotnet tool list --format json`: the line holding the JSON document (anything
/// printed before it, such as a first-run banner, is skipped). Versions other than 1 are refused
/// rather than misread.
pub fn list_json(stdout: &str) -> Result<Vec<InstalledTool>, String> {
    let start = stdout.find('{').ok_or("no JSON document in the output")?;
    let listing: Listing = serde_json::from_str(stdout[start..].trim_end()).map_err(|error| error.to_string())?;
    match listing.version {
        1 => Ok(listing.data),
        other => Err(format!("the JSON listing has version {other}, and this plugin reads version 1")),
    }
}

/// The packages of `dotnet tool search`: its table, or its `--detail` blocks.
pub fn search(stdout: &str) -> Vec<FoundTool> {
    match table::parse(stdout) {
        Some(table) => table
            .rows
            .iter()
            .filter_map(|row| {
                Some(FoundTool {
                    package_id: table.cell(row, "Package ID")?.to_owned(),
                    latest_version: table.cell(row, "Latest Version").unwrap_or_default().to_owned(),
                    authors: table.cell(row, "Authors").map(str::to_owned),
                    downloads: table.cell(row, "Downloads").and_then(number),
                    verified: table.cell(row, "Verified").is_some(),
                    description: None,
                    versions: Vec::new(),
                })
            })
            .collect(),
        None => detail_blocks(stdout),
    }
}

/// Why `dotnet tool search` could not search at all: the line of its output that says so. It
/// asks NuGet.org's search service itself, whatever sources are configured; against a mirror
/// without that service SDK 10.0.401 crashes (`Unhandled exception: Index was out of range. ...`,
/// exit 1), and an unreachable feed fails to load its service index.
pub fn search_failure(transcript: &str) -> Option<&str> {
    const SIGNS: [&str; 4] =
        ["Unhandled exception", "Unable to load the service index", "Name or service not known", "NU1301"];
    transcript.lines().map(str::trim).find(|line| SIGNS.iter().any(|sign| line.contains(sign)))
}

/// `--detail` output: blocks that start after a `----` line with the package id, then
/// `Key: value` lines and an indented `Versions:` list.
fn detail_blocks(stdout: &str) -> Vec<FoundTool> {
    let mut found: Vec<FoundTool> = Vec::new();
    let mut expect_id = false;
    let mut in_versions = false;
    for line in stdout.lines() {
        let trimmed = line.trim();
        if trimmed.len() >= 4 && trimmed.chars().all(|c| c == '-') {
            expect_id = true;
            in_versions = false;
            continue;
        }
        if trimmed.is_empty() {
            continue;
        }
        if expect_id {
            expect_id = false;
            found.push(FoundTool {
                package_id: trimmed.to_owned(),
                latest_version: String::new(),
                authors: None,
                downloads: None,
                verified: false,
                description: None,
                versions: Vec::new(),
            });
            continue;
        }
        let Some(current) = found.last_mut() else { continue };
        if in_versions && line.starts_with(['\t', ' ']) {
            let (version, downloads) = match trimmed.split_once(" Downloads:") {
                Some((version, downloads)) => (version.trim(), number(downloads.trim())),
                None => (trimmed, None),
            };
            current.versions.push(VersionDownloads { version: version.to_owned(), downloads });
            continue;
        }
        in_versions = false;
        match trimmed.split_once(':') {
            Some(("Latest Version", value)) => current.latest_version = value.trim().to_owned(),
            Some(("Authors", value)) => current.authors = Some(value.trim().to_owned()),
            Some(("Downloads", value)) => current.downloads = number(value.trim()),
            Some(("Verified", value)) => current.verified = value.trim().eq_ignore_ascii_case("true"),
            Some(("Description", value)) => current.description = Some(value.trim().to_owned()),
            Some(("Versions", _)) => in_versions = true,
            _ => {}
        }
    }
    found
}

/// The quoted values after each `version '` in `line`, in order.
fn quoted_versions(line: &str) -> Vec<String> {
    line.match_indices("version '")
        .filter_map(|(at, marker)| {
            let rest = &line[at + marker.len()..];
            rest.find('\'').map(|end| rest[..end].to_owned())
        })
        .collect()
}

/// The manifest path after `manifest file ` in `line`, without the sentence's closing `.` or `)`.
fn manifest_in(line: &str) -> Option<String> {
    let (_, rest) = line.split_once("manifest file ")?;
    let path = rest.trim().trim_end_matches(['.', ')']);
    (!path.is_empty()).then(|| path.to_owned())
}

/// What the `Tool '<id>' ...` lines of an install, update or uninstall say.
pub fn change(stdout: &str) -> Change {
    let mut change = Change::default();
    for line in stdout.lines().map(str::trim).filter(|line| line.starts_with("Tool '")) {
        let versions = quoted_versions(line);
        if line.contains("updated from version '") && versions.len() >= 2 {
            change.previous_version = Some(versions[0].clone());
            change.version = Some(versions[1].clone());
        } else if let Some(version) = versions.last() {
            change.version = Some(version.clone());
        }
        if let Some(manifest) = manifest_in(line) {
            change.manifest = Some(manifest);
        }
    }
    change
}

/// The tools of `dotnet tool restore`: `Tool '<id>' (version '<v>') was restored. Available
/// commands: a, b`.
pub fn restored(stdout: &str) -> Vec<InstalledTool> {
    stdout
        .lines()
        .map(str::trim)
        .filter(|line| line.starts_with("Tool '") && line.contains("was restored"))
        .filter_map(|line| {
            let id = line.strip_prefix("Tool '")?.split('\'').next()?;
            Some(InstalledTool {
                package_id: id.to_owned(),
                version: quoted_versions(line).pop().unwrap_or_default(),
                commands: line.split_once("Available commands:").map(|(_, list)| commands(list)).unwrap_or_default(),
                manifest: None,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOCAL_LIST: &str = "Package Id      Version      Commands       Manifest\n\
        -----------------------------------------------------------------------------\n\
        dotnet-ef       10.0.0       dotnet-ef      /src/My App/.config/dotnet-tools.json\n\
        csharpier       1.1.2        csharpier      /src/My App/.config/dotnet-tools.json\n";

    #[test]
    fn local_and_global_lists() {
        let tools = list(LOCAL_LIST);
        assert_eq!(tools.len(), 2);
        assert_eq!(tools[0].package_id, "dotnet-ef");
        assert_eq!(tools[1].manifest.as_deref(), Some("/src/My App/.config/dotnet-tools.json"));
        let global = "Package Id                Version      Commands       \n\
            ------------------------------------------------------\n\
            dotnet-outdated-tool      4.6.8        dotnet-outdated, outdated\n";
        assert_eq!(
            list(global),
            [InstalledTool {
                package_id: "dotnet-outdated-tool".into(),
                version: "4.6.8".into(),
                commands: vec!["dotnet-outdated".into(), "outdated".into()],
                manifest: None
            }]
        );
        assert!(list("Package Id   Version   Commands\n--------------------------------\n").is_empty());
        assert!(list("No tools installed.\n").is_empty());
    }

    #[test]
    fn json_lists_of_sdk_9_and_later() {
        let local = "{\"version\":1,\"data\":[{\"packageId\":\"dotnet-ef\",\"version\":\"10.0.0\",\"commands\":[\"dotnet-ef\"],\
            \"manifest\":\"/src/My App/.config/dotnet-tools.json\"}]}\n";
        let tools = list_json(local).unwrap();
        assert_eq!(tools[0].manifest.as_deref(), Some("/src/My App/.config/dotnet-tools.json"));
        assert_eq!(tools[0].commands, ["dotnet-ef"]);
        let global = "{\"version\":1,\"data\":[{\"packageId\":\"x\",\"version\":\"1.0.0\",\"commands\":[\"x\"]}]}";
        assert_eq!(list_json(global).unwrap()[0].manifest, None);
        assert!(list_json("{\"version\":2,\"data\":[]}").unwrap_err().contains("version 2"));
        assert!(list_json("Package Id   Version   Commands\n").is_err());
    }

    #[test]
    fn search_table_and_detail_blocks() {
        let table = "Package ID      Latest Version      Authors        Downloads      Verified\n\
            --------------------------------------------------------------------------\n\
            dotnet-ef       10.0.0              Microsoft      198765432      x       \n\
            csharpier       1.1.2               CSharpier      8765432                \n";
        let found = search(table);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].downloads, Some(198_765_432));
        assert!(found[0].verified && !found[1].verified);
        assert_eq!(found[1].authors.as_deref(), Some("CSharpier"));

        let detail = "----------------\ndotnet-ef\nLatest Version: 10.0.0\nAuthors: Microsoft\nDownloads: 198765432\n\
            Verified: True\nDescription: Entity Framework Core Tools.\nVersions:\n\t10.0.0 Downloads: 1000\n\
            \t9.0.1 Downloads: 2,000\n\n----------------\ndotnetsay\nLatest Version: 2.1.7\nVerified: False\n";
        let found = search(detail);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].latest_version, "10.0.0");
        assert_eq!(found[0].description.as_deref(), Some("Entity Framework Core Tools."));
        assert_eq!(
            found[0].versions,
            [
                VersionDownloads { version: "10.0.0".into(), downloads: Some(1000) },
                VersionDownloads { version: "9.0.1".into(), downloads: Some(2000) }
            ]
        );
        assert_eq!(found[1].package_id, "dotnetsay");
        assert!(!found[1].verified);
    }

    #[test]
    fn install_update_and_uninstall_messages() {
        let installed = change(
            "You can invoke the tool from this directory using the following commands: 'dotnet tool run x'.\n\
             Tool 'dotnetsay' (version '2.1.7') was successfully installed. Entry is added to the manifest file /w/.config/dotnet-tools.json.\n",
        );
        assert_eq!(installed.version.as_deref(), Some("2.1.7"));
        assert_eq!(installed.manifest.as_deref(), Some("/w/.config/dotnet-tools.json"));
        let updated = change(
            "Tool 'csharpier' was successfully updated from version '0.30.6' to version '1.1.2' (manifest file /w/.config/dotnet-tools.json).\n",
        );
        assert_eq!(updated.previous_version.as_deref(), Some("0.30.6"));
        assert_eq!(updated.version.as_deref(), Some("1.1.2"));
        assert_eq!(updated.manifest.as_deref(), Some("/w/.config/dotnet-tools.json"));
        let global = change("Tool 'dotnetsay' (version '2.1.7') was successfully uninstalled.\n");
        assert_eq!(global, Change { version: Some("2.1.7".into()), ..Change::default() });
        assert_eq!(change("Restore was successful."), Change::default());
    }

    #[test]
    fn restore_lines() {
        let tools = restored(
            "Tool 'dotnet-ef' (version '10.0.0') was restored. Available commands: dotnet-ef\n\
             Tool 'x' (version '1.0.0') was restored. Available commands: a, b\n\nRestore was successful.\n",
        );
        assert_eq!(tools.len(), 2);
        assert_eq!(tools[1].commands, ["a", "b"]);
        assert_eq!(tools[0].version, "10.0.0");
    }
}
