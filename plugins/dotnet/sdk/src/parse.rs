//! Parsers of the dotnet CLI output this tool reads, into structured content: the template
//! engine's tables (`new list`, `new search`, `new install`), its list of installed template
//! packages (`new uninstall` with no argument), its install and uninstall messages, and
//! `dotnet --info`. They read text that was already redacted, skip what they do not recognise,
//! and never fail: odd output yields fewer fields, never an error.

use std::collections::BTreeMap;

use dotnet_support::{listings, table};
use schemars::JsonSchema;
use serde::Serialize;

/// One template of a template-engine table (`new list`, `new search`, `new install`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Template {
    pub name: String,
    pub short_names: Vec<String>,
    pub languages: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_language: Option<String>,
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    pub tags: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub package: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub package_version: Option<String>,
    /// As NuGet.org rounds it: 215k, 2M, <1k.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub downloads: Option<String>,
    /// The template source a search result came from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// One template of a template-engine table.
///
/// Columns: `Template Name`, `Short Name` (comma-separated), `Language` (`[C#],F#,VB`: the
/// bracketed one is the default), `Type`, `Author`, `Tags` (slash-separated), and in search
/// results `Package` (`id` or `id::version`) and `Downloads`.
fn template(table: &table::Table, row: &[String], source: Option<&str>) -> Option<Template> {
    let name = table.cell(row, "Template Name")?;
    let list = |column: &str, separator: char| -> Vec<String> {
        table
            .cell(row, column)
            .map(|cell| cell.split(separator).map(|part| part.trim().to_owned()).filter(|p| !p.is_empty()).collect())
            .unwrap_or_default()
    };
    let raw_languages = list("Language", ',');
    let default_language = raw_languages.iter().find_map(|l| l.strip_prefix('[')?.strip_suffix(']'));
    let languages: Vec<String> =
        raw_languages.iter().map(|l| l.trim_start_matches('[').trim_end_matches(']').to_owned()).collect();
    let cell = |column: &str| table.cell(row, column).map(str::to_owned);
    let package = table.cell(row, "Package").map(package_version);
    Some(Template {
        name: name.to_owned(),
        short_names: list("Short Name", ','),
        default_language: default_language.map(str::to_owned),
        languages,
        kind: cell("Type"),
        author: cell("Author"),
        tags: list("Tags", '/'),
        package: package.map(|(id, _)| id.to_owned()),
        package_version: package.and_then(|(_, version)| version).map(str::to_owned),
        downloads: cell("Downloads"),
        source: source.map(str::to_owned),
    })
}

/// A template package as the template engine prints and takes it: `id@version` (SDK 9.0.200
/// and later; SDK 10 warns that `::` is deprecated), `id::version` (earlier SDKs), or an id or a
/// path alone, into the id (or path) and the version.
pub fn package_version(spec: &str) -> (&str, Option<&str>) {
    if spec.contains(['/', '\\']) {
        return (spec, None);
    }
    match spec.split_once("::").or_else(|| spec.rsplit_once('@')) {
        Some((id, version)) => (id, Some(version)),
        None => (spec, None),
    }
}

/// The templates of the first table in `text` (`new list`, `new install`).
pub fn templates(text: &str) -> Vec<Template> {
    table::parse(text)
        .map(|table| table.rows.iter().filter_map(|row| template(&table, row, None)).collect())
        .unwrap_or_default()
}

/// The templates of `new search`: one table per template source, each after a
/// `Matches from template source: <source>` line.
pub fn search_results(text: &str) -> Vec<Template> {
    const MARKER: &str = "Matches from template source:";
    let mut results = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(MARKER) {
        let after = &rest[start + MARKER.len()..];
        let (source, body) = after.split_once('\n').unwrap_or((after, ""));
        let end = body.find(MARKER).unwrap_or(body.len());
        if let Some(table) = table::parse(&body[..end]) {
            results.extend(table.rows.iter().filter_map(|row| template(&table, row, Some(source.trim()))));
        }
        rest = &body[end..];
    }
    results
}

/// Why `dotnet new search` failed to search at all: the text after `Search failed: ` (SDK
/// 10.0.401 offline: `Failed to update search cache. (Name or service not known
/// (go.microsoft.com:443)) ...`, exit 103).
pub fn search_failure(text: &str) -> Option<&str> {
    text.lines().find_map(|line| line.trim().strip_prefix("Search failed: ")).map(str::trim)
}

/// A template package the user installed, as `dotnet new uninstall` lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Pack {
    pub id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<BTreeMap<String, String>>,
    pub templates: Vec<PackTemplate>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uninstall_command: Option<String>,
}

/// A template of an installed package.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PackTemplate {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub short_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
}

/// `Avalonia .NET App (avalonia.app) C#` → name, short name, language.
fn pack_template(line: &str) -> PackTemplate {
    let line = line.trim();
    match (line.rfind(" ("), line.rfind(')')) {
        (Some(open), Some(close)) if close > open => {
            let language = line[close + 1..].trim();
            PackTemplate {
                name: line[..open].trim().to_owned(),
                short_name: Some(line[open + 2..close].to_owned()),
                language: (!language.is_empty()).then(|| language.to_owned()),
            }
        }
        _ => PackTemplate { name: line.to_owned(), short_name: None, language: None },
    }
}

/// The installed template packages listed by `dotnet new uninstall` (no argument):
///
/// ```text
/// Currently installed items:
///    Avalonia.Templates
///       Version: 11.2.3
///       Details:
///          Author: AvaloniaUI
///       Templates:
///          Avalonia .NET App (avalonia.app) C#
///       Uninstall Command:
///          dotnet new uninstall Avalonia.Templates
/// ```
pub fn template_packs(text: &str) -> Vec<Pack> {
    #[derive(PartialEq)]
    enum Section {
        None,
        Details,
        Templates,
        Uninstall,
    }
    let mut packs: Vec<Pack> = Vec::new();
    let mut pack_indent = None;
    let mut section = Section::None;
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() || !line.starts_with(' ') || trimmed == "(No Items)" {
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        if pack_indent.is_none_or(|pack| indent <= pack) {
            pack_indent = Some(indent);
            packs.push(Pack {
                id: trimmed.to_owned(),
                version: None,
                details: None,
                templates: Vec::new(),
                uninstall_command: None,
            });
            section = Section::None;
            continue;
        }
        let Some(pack) = packs.last_mut() else { continue };
        match trimmed {
            "Details:" => section = Section::Details,
            "Templates:" => section = Section::Templates,
            "Uninstall Command:" => section = Section::Uninstall,
            _ => match (&section, trimmed.split_once(": ")) {
                (Section::None, Some(("Version", version))) => {
                    pack.version = Some(version.trim().to_owned());
                }
                (Section::Details, Some((key, value))) => {
                    pack.details.get_or_insert_default().insert(key.trim().to_owned(), value.trim().to_owned());
                }
                (Section::Templates, _) => pack.templates.push(pack_template(trimmed)),
                (Section::Uninstall, _) => {
                    pack.uninstall_command = Some(trimmed.to_owned());
                }
                _ => {}
            },
        }
    }
    packs
}

/// What `dotnet new install` reports.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Installed {
    /// The package id (or the path installed from).
    pub package: Option<String>,
    /// The installed version.
    pub version: Option<String>,
    /// The version it replaced.
    pub previous_version: Option<String>,
}

/// Reads `Success: <id>@<version> installed the following templates:` (`<id>::<version>` before
/// SDK 9.0.200) and
/// `<id> is already installed, version: <v>, it will be replaced with version <w>.`.
pub fn installed(text: &str) -> Installed {
    let mut installed = Installed::default();
    for line in text.lines().map(str::trim) {
        if let Some(spec) =
            line.strip_prefix("Success: ").and_then(|rest| rest.strip_suffix(" installed the following templates:"))
        {
            let (package, version) = package_version(spec);
            installed.package = Some(package.to_owned());
            installed.version = version.map(str::to_owned);
        } else if let Some((_, rest)) = line.split_once(" is already installed, version: ") {
            installed.previous_version = rest.split(',').next().map(|v| v.trim().to_owned());
        }
    }
    installed
}

/// Reads `Success: <id>@<version> was uninstalled.` (`::` before SDK 9.0.200): the id and version.
pub fn uninstalled(text: &str) -> Option<(String, Option<String>)> {
    text.lines().map(str::trim).find_map(|line| {
        let spec = line.strip_prefix("Success: ")?.strip_suffix(" was uninstalled.")?;
        let (id, version) = package_version(spec);
        Some((id.to_owned(), version.map(str::to_owned)))
    })
}

/// `dotnet --info`, parsed: the SDK, runtime environment and host sections' fields, the SDKs
/// and runtimes installed, and the global.json in effect. Sections are lines ending with `:` at
/// the start of a line; fields are indented `Key: value` lines.
pub fn info(text: &str) -> Info {
    let mut sections: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    let mut current = "";
    for line in text.lines() {
        if line.trim().is_empty() {
            continue;
        }
        if !line.starts_with(' ') && line.trim_end().ends_with(':') {
            current = line.trim_end().trim_end_matches(':');
            continue;
        }
        sections.entry(current).or_default().push(line);
    }
    let field = |section: &str, key: &str| -> Option<String> {
        sections.get(section)?.iter().find_map(|line| {
            let (name, value) = line.trim().split_once(':')?;
            (name.trim() == key).then(|| value.trim().to_owned()).filter(|value| !value.is_empty())
        })
    };
    let block = |section: &str| sections.get(section).map(|lines| lines.join("\n")).unwrap_or_default();
    let global_json = sections.get("global.json file").and_then(|lines| lines.first()).map(|line| line.trim());
    Info {
        sdk_version: field(".NET SDK", "Version"),
        commit: field(".NET SDK", "Commit"),
        workload_version: field(".NET SDK", "Workload version"),
        msbuild_version: field(".NET SDK", "MSBuild version"),
        os_name: field("Runtime Environment", "OS Name"),
        os_version: field("Runtime Environment", "OS Version"),
        os_platform: field("Runtime Environment", "OS Platform"),
        rid: field("Runtime Environment", "RID"),
        base_path: field("Runtime Environment", "Base Path"),
        host_version: field("Host", "Version"),
        host_architecture: field("Host", "Architecture"),
        sdks: listings::parse_sdks(&block(".NET SDKs installed")),
        runtimes: listings::parse_runtimes(&block(".NET runtimes installed")),
        global_json: global_json.filter(|path| *path != "Not found").map(str::to_owned),
    }
}

/// What `dotnet --info` says; a field it did not print is absent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Info {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sdk_version: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workload_version: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub msbuild_version: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub os_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub os_version: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub os_platform: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rid: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base_path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host_version: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host_architecture: Option<String>,
    pub sdks: Vec<listings::Sdk>,
    pub runtimes: Vec<listings::Runtime>,
    /// The global.json in effect, or null.
    pub global_json: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn json_of<T: Serialize>(value: T) -> Value {
        serde_json::to_value(value).unwrap()
    }

    const LIST: &str = "These templates matched your input: 'web'\n\n\
Template Name                                 Short Name    Language  Type     Author     Tags                          \n\
--------------------------------------------  ------------  --------  -------  ---------  ------------------------------\n\
ASP.NET Core Empty                            web           [C#],F#   project  Microsoft  Web/Empty                     \n\
ASP.NET Core Web App (Razor Pages)            webapp,razor  [C#]      project  Microsoft  Web/MVC/Razor Pages           \n\
Web Config                                    webconfig               item     Microsoft  Config                        \n";

    #[test]
    fn list_tables_become_templates() {
        let templates: Vec<Value> = templates(LIST).into_iter().map(json_of).collect();
        assert_eq!(templates.len(), 3);
        assert_eq!(
            templates[0],
            json!({
                "name": "ASP.NET Core Empty", "shortNames": ["web"], "languages": ["C#", "F#"],
                "defaultLanguage": "C#", "type": "project", "author": "Microsoft", "tags": ["Web", "Empty"]
            })
        );
        assert_eq!(templates[1]["shortNames"], json!(["webapp", "razor"]));
        assert_eq!(templates[1]["tags"], json!(["Web", "MVC", "Razor Pages"]));
        assert_eq!(templates[2]["languages"], json!([]));
        assert!(templates[2].get("defaultLanguage").is_none());
        assert!(super::templates("No templates found matching: 'zzz'.\n").is_empty());
    }

    #[test]
    fn search_tables_carry_package_downloads_and_source() {
        let text = "Searching for the templates...\nMatches from template source: NuGet.org\n\
These templates matched your input: 'blazor'\n\n\
Template Name        Short Name  Author     Language  Package                     Downloads\n\
-------------------  ----------  ---------  --------  --------------------------  ---------\n\
MudBlazor Templates  mudblazor   MudBlazor  [C#]      MudBlazor.Templates::8.2.0       215k\n\
\nTo use the template, run the following command to install the package:\n   dotnet new install <PACKAGE_ID>\n";
        let results: Vec<Value> = search_results(text).into_iter().map(json_of).collect();
        assert_eq!(results.len(), 1);
        assert_eq!(results[0]["package"], "MudBlazor.Templates");
        assert_eq!(results[0]["packageVersion"], "8.2.0");
        assert_eq!(results[0]["downloads"], "215k");
        assert_eq!(results[0]["source"], "NuGet.org");
        assert_eq!(results[0]["author"], "MudBlazor");
    }

    #[test]
    fn installed_packs_are_listed_with_their_templates() {
        let text = "Currently installed items:\n   Avalonia.Templates\n      Version: 11.2.3\n      Details:\n\
                    \x20        Author: AvaloniaUI\n         NuGetSource: https://api.nuget.org/v3/index.json\n\
                    \x20     Templates:\n         Avalonia .NET App (avalonia.app) C#\n         dotnet gitignore file (gitignore)\n\
                    \x20     Uninstall Command:\n         dotnet new uninstall Avalonia.Templates\n\n   /src/my-templates\n\
                    \x20     Templates:\n         My Template (mine) C#\n";
        let packs: Vec<Value> = template_packs(text).into_iter().map(json_of).collect();
        assert_eq!(packs.len(), 2);
        assert_eq!(packs[0]["id"], "Avalonia.Templates");
        assert_eq!(packs[0]["version"], "11.2.3");
        assert_eq!(packs[0]["details"]["NuGetSource"], "https://api.nuget.org/v3/index.json");
        assert_eq!(
            packs[0]["templates"],
            json!([
                { "name": "Avalonia .NET App", "shortName": "avalonia.app", "language": "C#" },
                { "name": "dotnet gitignore file", "shortName": "gitignore" }
            ])
        );
        assert_eq!(packs[0]["uninstallCommand"], "dotnet new uninstall Avalonia.Templates");
        assert_eq!(packs[1]["id"], "/src/my-templates");
        assert!(template_packs("Currently installed items:\n(No Items)\n").is_empty());
    }

    #[test]
    fn sdk_10_listing_of_an_installed_pack() {
        // `dotnet new uninstall` on SDK 10.0.401 after the real-SDK scenario's install
        // (recordings/sdk).
        let text = "Currently installed items:\n   Scenario.Templates\n      Version: 1.0.0\n      Details:\n\
                    \x20        Author: mcp-plugin-host\n         Reserved: ✘\n         NuGetSource: /w/sdk/feed\n\
                    \x20     Templates:\n         Scenario hello (scenario-hello) C#\n      Uninstall Command:\n\
                    \x20        dotnet new uninstall Scenario.Templates\n\n";
        assert_eq!(
            json_of(template_packs(text)),
            json!([{
                "id": "Scenario.Templates", "version": "1.0.0",
                "details": { "Author": "mcp-plugin-host", "Reserved": "✘", "NuGetSource": "/w/sdk/feed" },
                "templates": [{ "name": "Scenario hello", "shortName": "scenario-hello", "language": "C#" }],
                "uninstallCommand": "dotnet new uninstall Scenario.Templates"
            }])
        );
    }

    #[test]
    fn sdk_10_search_failure_offline() {
        // `dotnet new search nunit --columns-all` on SDK 10.0.401 without internet (recordings/sdk).
        let text = "Searching for the templates...\nMatches from template source: NuGet.org\nSearch failed: Failed to \
                    update search cache. (Name or service not known (go.microsoft.com:443)) (Name or service not known \
                    (go.microsoft.com:443))\n\nFor details on the exit code, refer to https://aka.ms/templating-exit-codes#103\n";
        assert!(search_failure(text).unwrap().starts_with("Failed to update search cache. (Name or service not known"));
        assert_eq!(search_failure("No templates found matching: 'zzz'."), None);
    }

    #[test]
    fn install_and_uninstall_messages() {
        let text = "MudBlazor.Templates is already installed, version: 7.0.0, it will be replaced with version 8.2.0.\n\
                    MudBlazor.Templates::7.0.0 was successfully uninstalled.\n\
                    Success: MudBlazor.Templates::8.2.0 installed the following templates:\n";
        assert_eq!(
            installed(text),
            Installed {
                package: Some("MudBlazor.Templates".into()),
                version: Some("8.2.0".into()),
                previous_version: Some("7.0.0".into())
            }
        );
        let local = installed("Success: /src/t installed the following templates:\n");
        assert_eq!((local.package.as_deref(), local.version), (Some("/src/t"), None));
        assert_eq!(
            uninstalled("Success: Avalonia.Templates::11.2.3 was uninstalled.\n"),
            Some(("Avalonia.Templates".into(), Some("11.2.3".into())))
        );
        // SDK 9.0.200 and later (recorded on 10.0.401).
        let sdk10 = installed("Success: Scenario.Templates@1.0.0 installed the following templates:\n");
        assert_eq!((sdk10.package.as_deref(), sdk10.version.as_deref()), (Some("Scenario.Templates"), Some("1.0.0")));
        assert_eq!(
            uninstalled("Success: Scenario.Templates@1.0.0 was uninstalled.\n"),
            Some(("Scenario.Templates".into(), Some("1.0.0".into())))
        );
        assert_eq!(uninstalled("nothing"), None);
    }

    #[test]
    fn info_sections_become_fields() {
        let text = ".NET SDK:\n Version:           10.0.100\n Commit:            b0f34d51fc\n\
                    \x20Workload version:  10.0.100-manifests.5fb86115\n MSBuild version:   18.0.2\n\n\
                    Runtime Environment:\n OS Name:     ubuntu\n RID:         linux-x64\n Base Path:   /usr/share/dotnet/sdk/10.0.100/\n\n\
                    Host:\n  Version:      10.0.0\n  Architecture: x64\n\n\
                    .NET SDKs installed:\n  8.0.416 [/usr/share/dotnet/sdk]\n  10.0.100 [/usr/share/dotnet/sdk]\n\n\
                    .NET runtimes installed:\n  Microsoft.NETCore.App 10.0.0 [/usr/share/dotnet/shared/Microsoft.NETCore.App]\n\n\
                    global.json file:\n  Not found\n";
        let value = json_of(info(text));
        assert_eq!(value["sdkVersion"], "10.0.100");
        assert_eq!(value["workloadVersion"], "10.0.100-manifests.5fb86115");
        assert_eq!(value["rid"], "linux-x64");
        assert_eq!(value["hostVersion"], "10.0.0");
        assert_eq!(value["sdks"].as_array().unwrap().len(), 2);
        assert_eq!(value["runtimes"][0]["name"], "Microsoft.NETCore.App");
        assert_eq!(value["globalJson"], Value::Null);
        let no_sdk = json_of(info(
            "Host:\n  Version:      10.0.0\n\n.NET SDKs installed:\n  No SDKs were found.\n\nglobal.json file:\n  /src/global.json\n",
        ));
        assert_eq!(no_sdk["sdks"], json!([]));
        assert!(no_sdk.get("sdkVersion").is_none());
        assert_eq!(no_sdk["globalJson"], "/src/global.json");
    }
}
