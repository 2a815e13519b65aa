//! Reading what the commands print: NuGet's JSON reports (`list package --format json`,
//! `package search --format json`) and the few text lines the other commands print that carry
//! data (the version `add package` chose, the project references, the caches cleared).
//!
//! The JSON readers are lenient where NuGet versions differ (a field missing, `owners` as text
//! or a list, problems as text or objects) and strict where the report is unusable (no JSON at
//! all, no `projects` or `searchResult`).

use std::path::Path;

use dotnet_support::diagnostics::{Diagnostic, Severity};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The first JSON value in `stdout`, skipping any text a CLI printed before it.
fn first_json(stdout: &str) -> Result<Value, String> {
    let start = stdout.find(['{', '[']).ok_or_else(|| "the command printed no JSON".to_owned())?;
    match serde_json::Deserializer::from_str(&stdout[start..]).into_iter::<Value>().next() {
        Some(Ok(value)) => Ok(value),
        Some(Err(error)) => Err(format!("the command's JSON could not be read: {error}")),
        None => Err("the command printed no JSON".to_owned()),
    }
}

/// Problems NuGet reports, as text: `["text", {"level": "...", "text": "..."}]`.
fn problems(value: &Value) -> Vec<String> {
    value
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|problem| match problem {
            Value::String(text) => Some(text.clone()),
            Value::Object(fields) => {
                let text = fields.get("text").or_else(|| fields.get("message")).and_then(Value::as_str)?;
                Some(match fields.get("level").and_then(Value::as_str) {
                    Some(level) => format!("{level}: {text}"),
                    None => text.to_owned(),
                })
            }
            _ => None,
        })
        .collect()
}

fn text(value: &Value, key: &str) -> Option<String> {
    value.get(key).and_then(Value::as_str).map(str::to_owned).filter(|text| !text.is_empty())
}

// One framework of one project in `list package` (line comments on the result types: a doc
// comment would be their description in every client's tool list).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FrameworkPackages {
    pub framework: String,
    #[serde(rename = "topLevelPackages")]
    pub top_level: Vec<Package>,
    // Only when they were asked for (includeTransitive).
    #[serde(rename = "transitivePackages", skip_serializing_if = "Option::is_none")]
    pub transitive: Option<Vec<Package>>,
}

// One project in `list package`: the file as NuGet reports it, its frameworks.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct ProjectPackages {
    pub path: String,
    pub frameworks: Vec<FrameworkPackages>,
    // What NuGet could not do for it (no assets file, no restore): the result's `problems`.
    #[serde(skip)]
    pub problems: Vec<String>,
}

/// The `list package` report.
#[derive(Debug, Clone, PartialEq)]
pub struct PackageList {
    /// The projects.
    pub projects: Vec<ProjectPackages>,
    /// Report-wide problems.
    pub problems: Vec<String>,
    /// The sources NuGet checked (audit reports).
    pub sources: Vec<String>,
}

// A package of the report: its id, then only the fields NuGet reported.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Package {
    pub id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requested_version: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resolved_version: Option<String>,
    /// Only in the outdated report.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latest_version: Option<String>,
    // Present (true) only for a package the SDK references by itself.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub auto_referenced: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deprecation_reasons: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alternative_package: Option<Alternative>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vulnerabilities: Option<Vec<Vulnerability>>,
}

// The package to use instead of a deprecated one.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Alternative {
    pub id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version_range: Option<String>,
}

// A known vulnerability of a package.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Vulnerability {
    pub severity: String,
    pub advisory_url: String,
}

/// A package of the report (NuGet spells `advisoryurl` in lower case and `autoReferenced` as a
/// boolean or a string); `None` without an id.
pub fn package(raw: &Value) -> Option<Package> {
    let auto = raw.get("autoReferenced");
    let auto_referenced = auto.and_then(Value::as_bool) == Some(true) || auto.and_then(Value::as_str) == Some("true");
    let strings = |list: &Vec<Value>| list.iter().filter_map(Value::as_str).map(str::to_owned).collect();
    Some(Package {
        id: text(raw, "id")?,
        requested_version: text(raw, "requestedVersion"),
        resolved_version: text(raw, "resolvedVersion"),
        latest_version: text(raw, "latestVersion"),
        auto_referenced,
        deprecation_reasons: raw.get("deprecationReasons").and_then(Value::as_array).map(strings),
        alternative_package: raw.get("alternativePackage").filter(|alternative| alternative.is_object()).map(
            |alternative| Alternative {
                id: text(alternative, "id").unwrap_or_default(),
                version_range: text(alternative, "versionRange"),
            },
        ),
        vulnerabilities: raw.get("vulnerabilities").and_then(Value::as_array).map(|vulnerabilities| {
            vulnerabilities
                .iter()
                .map(|vulnerability| Vulnerability {
                    severity: text(vulnerability, "severity").unwrap_or_default(),
                    advisory_url: text(vulnerability, "advisoryurl")
                        .or_else(|| text(vulnerability, "advisoryUrl"))
                        .unwrap_or_default(),
                })
                .collect()
        }),
    })
}

fn packages(value: Option<&Value>) -> Vec<Package> {
    value.and_then(Value::as_array).into_iter().flatten().filter_map(package).collect()
}

/// Reads the `list package --format json` report (version 1).
pub fn package_list(stdout: &str) -> Result<PackageList, String> {
    let report = first_json(stdout)?;
    // A report whose restore failed (SDK 10.0.401) holds only its problems, no `projects`.
    let projects = match report.get("projects").and_then(Value::as_array) {
        Some(projects) => projects.as_slice(),
        None if report.get("problems").is_some() => &[],
        None => return Err("the package report has no 'projects'".to_owned()),
    };
    let projects = projects
        .iter()
        .map(|project| ProjectPackages {
            path: text(project, "path").unwrap_or_default(),
            frameworks: project
                .get("frameworks")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .map(|framework| FrameworkPackages {
                    framework: text(framework, "framework").unwrap_or_default(),
                    top_level: packages(framework.get("topLevelPackages")),
                    transitive: framework.get("transitivePackages").map(|list| packages(Some(list))),
                })
                .collect(),
            problems: problems(project.get("problems").unwrap_or(&Value::Null)),
        })
        .collect();
    let sources = report
        .get("sources")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect();
    Ok(PackageList { projects, problems: problems(report.get("problems").unwrap_or(&Value::Null)), sources })
}

impl PackageList {
    /// Every problem, report-wide and per project, as one line each.
    pub fn all_problems(&self) -> Vec<String> {
        let per_project =
            self.projects.iter().flat_map(|project| project.problems.iter().map(|p| format!("{}: {p}", project.path)));
        self.problems.iter().cloned().chain(per_project).collect()
    }

    /// Keeps the packages whose id contains `filter` (without regard to case), then at most
    /// `max` of them in report order (each project's frameworks, top-level before transitive).
    /// Returns how many matched the filter before the cap.
    pub fn select(&mut self, filter: Option<&str>, max: Option<u64>) -> usize {
        let filter = filter.map(str::to_lowercase);
        let keep =
            |package: &Package| filter.as_deref().is_none_or(|filter| package.id.to_lowercase().contains(filter));
        let mut matched = 0;
        let mut left = max.map_or(usize::MAX, |max| usize::try_from(max).unwrap_or(usize::MAX));
        for framework in self.projects.iter_mut().flat_map(|project| project.frameworks.iter_mut()) {
            for list in std::iter::once(&mut framework.top_level).chain(framework.transitive.as_mut()) {
                list.retain(|package| {
                    if !keep(package) {
                        return false;
                    }
                    matched += 1;
                    if left == 0 {
                        return false;
                    }
                    left -= 1;
                    true
                });
            }
        }
        matched
    }

    /// How many packages the report holds (top-level and transitive).
    pub fn count(&self) -> usize {
        self.projects
            .iter()
            .flat_map(|project| &project.frameworks)
            .map(|framework| framework.top_level.len() + framework.transitive.as_ref().map_or(0, Vec::len))
            .sum()
    }
}

/// The parts of a project's assets file (`obj/project.assets.json`) that say what its last restore
/// reported; serde skips the rest (targets and libraries, most of the file) without building it.
#[derive(Deserialize)]
struct Assets {
    project: Option<AssetsProject>,
    #[serde(default)]
    logs: Vec<AssetsLog>,
}

#[derive(Deserialize)]
struct AssetsProject {
    restore: Option<AssetsRestore>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct AssetsRestore {
    project_path: Option<String>,
}

/// One entry of `logs`: NuGet writes its restore's warnings and errors (`level` `Warning` or
/// `Error`) with their code and message, and replays them on a restore that had nothing to do.
#[derive(Deserialize)]
struct AssetsLog {
    #[serde(default)]
    code: String,
    #[serde(default)]
    level: String,
    #[serde(default)]
    message: String,
}

/// The warnings and errors of `project`'s last restore, from its assets file's `logs`, each as the
/// console prints it (`/src/Api/Api.csproj : warning NU1603: ...`, the project as NuGet spells it
/// as its origin and its project), without repeats. `dotnet list package --format json` restores before it lists
/// and keeps what the restore said out of its report, while the terminal's table shows it.
/// Nothing when the file cannot be read as an assets file or was written for another project
/// (a project's `obj` folder copied from another).
pub fn restore_logs(assets: &str, project: &str) -> Vec<Diagnostic> {
    let Ok(assets) = serde_json::from_str::<Assets>(assets) else { return Vec::new() };
    let written_for = assets.project.and_then(|written| written.restore).and_then(|restore| restore.project_path);
    let Some(project) = written_for.filter(|path| same_file(Path::new(path), Path::new(project))) else {
        return Vec::new();
    };
    let mut found: Vec<Diagnostic> = Vec::new();
    for log in assets.logs {
        let severity = match log.level.to_ascii_lowercase().as_str() {
            "error" => Severity::Error,
            "warning" => Severity::Warning,
            _ => continue,
        };
        let diagnostic = Diagnostic {
            file: Some(project.clone()),
            line: None,
            column: None,
            end_line: None,
            end_column: None,
            severity,
            code: log.code,
            message: log.message,
            project: Some(project.clone()),
        };
        if !found.contains(&diagnostic) {
            found.push(diagnostic);
        }
    }
    found
}

/// Whether two paths name one file: equal as written, or once links and `..` are resolved on disk
/// (NuGet writes the path as MSBuild saw it, a caller may give another spelling of it).
fn same_file(one: &Path, other: &Path) -> bool {
    one == other || one.canonicalize().is_ok_and(|one| other.canonicalize().is_ok_and(|other| one == other))
}

// One package found by `package search`: its owners comma-separated, its description only at
// detailed verbosity, the source it was found in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Hit {
    pub id: String,
    /// The latest version, or the version of an exact match.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub downloads: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owners: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub source: String,
}

/// Reads the `package search --format json` report (version 2): the hits of every source and
/// the problems reported (report-wide and per source).
pub fn search(stdout: &str) -> Result<(Vec<Hit>, Vec<String>), String> {
    let report = first_json(stdout)?;
    let Some(sources) = report.get("searchResult").and_then(Value::as_array) else {
        return Err("the search report has no 'searchResult'".to_owned());
    };
    let mut all_problems = problems(report.get("problems").unwrap_or(&Value::Null));
    let mut hits = Vec::new();
    for source in sources {
        let name = text(source, "sourceName").unwrap_or_default();
        all_problems.extend(
            problems(source.get("problems").unwrap_or(&Value::Null)).into_iter().map(|p| format!("{name}: {p}")),
        );
        for found in source.get("packages").and_then(Value::as_array).into_iter().flatten() {
            let Some(id) = text(found, "id") else { continue };
            let owners = match found.get("owners") {
                Some(Value::Array(owners)) => {
                    Some(owners.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(", "))
                        .filter(|o| !o.is_empty())
                }
                _ => text(found, "owners"),
            };
            hits.push(Hit {
                id,
                version: text(found, "latestVersion").or_else(|| text(found, "version")),
                downloads: found.get("totalDownloads").and_then(Value::as_u64),
                owners,
                description: text(found, "description"),
                source: name.clone(),
            });
        }
    }
    Ok((hits, all_problems))
}

/// The sources of a `package search --format json` report when none of them has a search
/// service: a feed that serves packages but not search (a mirror, many private feeds) reports
/// `The source does not have a Search service!` as its problem, and NuGet still exits 0.
pub fn without_search_service(stdout: &str) -> Option<Vec<String>> {
    let report = first_json(stdout).ok()?;
    let sources = report.get("searchResult").and_then(Value::as_array).filter(|sources| !sources.is_empty())?;
    sources
        .iter()
        .map(|source| {
            let problems = problems(source.get("problems").unwrap_or(&Value::Null));
            problems
                .iter()
                .any(|problem| problem.contains("does not have a Search service"))
                .then(|| text(source, "sourceName").unwrap_or_default())
        })
        .collect()
}

/// What `add package` reported: the version it wrote and the file it wrote it to, from
/// `PackageReference for package 'Id' version '1.2.3' added to file '/src/App/App.csproj'.`
/// (or `updated in file`; with Central Package Management the version line names
/// `PackageVersion` and `Directory.Packages.props`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Added {
    /// The version written.
    pub version: Option<String>,
    /// The project file the reference went into.
    pub project_file: Option<String>,
}

/// Reads [`Added`] from the output of `add package`.
pub fn added(output: &str) -> Added {
    let mut found = Added::default();
    for line in output.lines() {
        let Some(at) = line.find("for package '") else { continue };
        let parts: Vec<&str> = line[at..].split('\'').collect();
        // ["for package ", id, " version ", version, " added to file ", file, "."]
        let mut index = 2;
        if parts.get(index).is_some_and(|part| part.trim() == "version") {
            found.version = parts.get(index + 1).map(|version| (*version).to_owned());
            index += 2;
        }
        let into_file = parts.get(index).is_some_and(|part| part.contains(" file"));
        if into_file && line.contains("PackageReference for package") {
            found.project_file = parts.get(index + 1).map(|file| (*file).to_owned());
        }
    }
    found
}

/// The paths `list reference` (a project's references) and `sln list` (a solution's projects)
/// print: the lines under their dashed rule, `/`-separated (none when they say there are none).
pub fn listed_paths(output: &str) -> Vec<String> {
    let mut lines = output.lines().map(str::trim);
    if !lines.by_ref().any(|line| line.len() >= 3 && line.chars().all(|c| c == '-')) {
        return Vec::new();
    }
    lines.filter(|line| !line.is_empty()).map(|line| line.replace('\\', "/")).collect()
}

// A NuGet cache cleared: its name as NuGet says it (`NuGet HTTP cache`) and its folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Cache {
    pub cache: String,
    pub path: String,
}

/// The caches `nuget locals <cache> --clear` cleared: `Clearing NuGet HTTP cache: /path`.
pub fn cleared(output: &str) -> Vec<Cache> {
    output
        .lines()
        .filter_map(|line| line.trim().strip_prefix("Clearing "))
        .filter_map(|rest| rest.split_once(": "))
        .map(|(cache, path)| Cache { cache: cache.trim().to_owned(), path: path.trim().to_owned() })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    const LIST: &str = r#"Fetching package metadata...
{
  "version": 1,
  "parameters": "--include-transitive --vulnerable",
  "sources": ["https://api.nuget.org/v3/index.json"],
  "projects": [
    {
      "path": "/src/App/App.csproj",
      "frameworks": [
        {
          "framework": "net10.0",
          "topLevelPackages": [
            { "id": "Newtonsoft.Json", "requestedVersion": "12.0.3", "resolvedVersion": "12.0.3",
              "vulnerabilities": [ { "severity": "High", "advisoryurl": "https://github.com/advisories/GHSA-5crp-9r3c-p9vr" } ] },
            { "id": "WindowsAzure.Storage", "requestedVersion": "9.3.3", "resolvedVersion": "9.3.3", "autoReferenced": "true",
              "deprecationReasons": ["Legacy"], "alternativePackage": { "id": "Azure.Storage.Blobs", "versionRange": "[0.0.0,)" } }
          ],
          "transitivePackages": [ { "id": "System.Text.Encodings.Web", "resolvedVersion": "4.5.0", "latestVersion": "10.0.0" } ]
        }
      ]
    },
    { "path": "/src/Broken/Broken.csproj", "problems": [ { "level": "error", "text": "No assets file was found." } ] }
  ]
}"#;

    #[test]
    fn reads_the_package_report_with_every_kind_of_detail() {
        let list = package_list(LIST).unwrap();
        assert_eq!(list.sources, ["https://api.nuget.org/v3/index.json"]);
        assert_eq!(list.count(), 3);
        let framework = &list.projects[0].frameworks[0];
        let json = |package: &Package| serde_json::to_value(package).unwrap();
        assert_eq!(
            json(&framework.top_level[0]),
            json!({ "id": "Newtonsoft.Json", "requestedVersion": "12.0.3", "resolvedVersion": "12.0.3",
                    "vulnerabilities": [ { "severity": "High", "advisoryUrl": "https://github.com/advisories/GHSA-5crp-9r3c-p9vr" } ] })
        );
        assert_eq!(
            json(&framework.top_level[1]),
            json!({ "id": "WindowsAzure.Storage", "requestedVersion": "9.3.3", "resolvedVersion": "9.3.3", "autoReferenced": true,
                    "deprecationReasons": ["Legacy"], "alternativePackage": { "id": "Azure.Storage.Blobs", "versionRange": "[0.0.0,)" } })
        );
        assert_eq!(framework.transitive.as_ref().unwrap()[0].latest_version.as_deref(), Some("10.0.0"));
        assert_eq!(list.all_problems(), ["/src/Broken/Broken.csproj: error: No assets file was found."]);
        assert!(list.projects[1].frameworks.is_empty());
    }

    #[test]
    fn filter_and_cap_keep_the_reference_semantics() {
        let mut list = package_list(LIST).unwrap();
        assert_eq!(list.select(Some("JSON"), None), 1);
        assert_eq!(list.count(), 1);
        let mut list = package_list(LIST).unwrap();
        assert_eq!(list.select(None, Some(2)), 3);
        assert_eq!(list.count(), 2);
        assert_eq!(list.projects[0].frameworks[0].transitive.as_ref().unwrap().len(), 0);
    }

    #[test]
    fn a_report_whose_restore_failed_holds_only_its_problems() {
        // `dotnet list package --format json` of SDK 10.0.401 for a reference no source serves, exit 1.
        let report = "{\n   \"version\": 1,\n   \"problems\": [\n      {\n         \"text\": \"Restore failed. Run `dotnet restore` for more details on the issue.\",\n         \"level\": \"error\"\n      }\n   ]\n}\n";
        let list = package_list(report).unwrap();
        assert!(list.projects.is_empty());
        assert_eq!(list.all_problems(), ["error: Restore failed. Run `dotnet restore` for more details on the issue."]);
    }

    /// `obj/project.assets.json` of the web API of bench/economy.py, as SDK 10.0.401 restored it
    /// (its `targets`, `libraries` and most of `project` left out; the scratch folder is `/src`).
    const API_ASSETS: &str = include_str!("../tests/fixtures/api.assets.json");

    #[test]
    fn a_restore_warning_is_read_from_the_assets_file_as_the_console_prints_it() {
        let project = "/src/Shop/Api/Api.csproj";
        let logs = restore_logs(API_ASSETS, project);
        let console = format!(
            "{project} : warning NU1603: Microsoft.AspNetCore.OpenApi 10.0.12 depends on Microsoft.OpenApi (>= 2.12.0 \
             && < 3.0.0) but Microsoft.OpenApi 2.12.0 was not found. Microsoft.OpenApi 2.12.1 was resolved instead. \
             [{project}]"
        );
        assert_eq!(logs, [dotnet_support::diagnostics::parse_line(&console).unwrap()]);
        // Another project's file (an obj folder copied), or no assets file at all: nothing.
        assert!(restore_logs(API_ASSETS, "/src/Shop/Api.Tests/Api.Tests.csproj").is_empty());
        assert!(restore_logs("not json", project).is_empty());
    }

    #[test]
    fn errors_are_kept_and_repeats_and_other_levels_are_not() {
        let assets = json!({
            "project": { "restore": { "projectPath": "/src/App/App.csproj" } },
            "logs": [
                { "code": "NU1101", "level": "Error", "message": "Unable to find package Nope." },
                { "code": "NU1101", "level": "Error", "message": "Unable to find package Nope." },
                { "code": "NU1000", "level": "Information", "message": "chatter" },
            ]
        });
        let logs = restore_logs(&assets.to_string(), "/src/App/App.csproj");
        assert_eq!(logs.len(), 1, "{logs:?}");
        assert_eq!((logs[0].severity, logs[0].code.as_str()), (Severity::Error, "NU1101"));
        let clean = json!({ "project": { "restore": { "projectPath": "/src/App/App.csproj" } } });
        assert!(restore_logs(&clean.to_string(), "/src/App/App.csproj").is_empty());
    }

    #[test]
    fn unusable_reports_say_why() {
        assert!(package_list("error: no such option").unwrap_err().contains("no JSON"));
        assert!(package_list("{ \"version\": 1 }").unwrap_err().contains("projects"));
        assert!(package_list("{ \"version\": ").unwrap_err().contains("could not be read"));
    }

    #[test]
    fn a_source_without_a_search_service_as_sdk_10_reports_it() {
        // dotnet package search against this machine's NuGet mirror (SDK 10.0.401, exit 0).
        let report = r#"{
  "version": 2,
  "problems": [],
  "searchResult": [
    {
      "sourceName": "nuget.org",
      "problems": [
        {
          "text": "The source does not have a Search service!",
          "problemType": "Error"
        }
      ],
      "packages": []
    }
  ]
}"#;
        assert_eq!(without_search_service(report), Some(vec!["nuget.org".to_owned()]));
        let (hits, problems) = search(report).unwrap();
        assert!(hits.is_empty());
        assert_eq!(problems, ["nuget.org: The source does not have a Search service!"]);
        let other = r#"{"version": 2, "searchResult": [
            {"sourceName": "mirror", "problems": [{"text": "The source does not have a Search service!"}], "packages": []},
            {"sourceName": "nuget.org", "packages": [{"id": "Newtonsoft.Json", "latestVersion": "13.0.4"}]}]}"#;
        assert_eq!(without_search_service(other), None);
        assert_eq!(without_search_service(r#"{"version": 2, "searchResult": []}"#), None);
    }

    #[test]
    fn reads_search_results_of_every_source() {
        let stdout = r#"{ "version": 2, "problems": [],
          "searchResult": [
            { "sourceName": "nuget.org", "packages": [
              { "id": "Newtonsoft.Json", "latestVersion": "13.0.3", "totalDownloads": 6123456789, "owners": "jamesnk, newtonsoft" },
              { "id": "Newtonsoft.Json", "version": "13.0.2", "owners": ["jamesnk"] } ] },
            { "sourceName": "local", "problems": [ "The source is offline." ], "packages": [ { "id": "Local.Pkg" } ] } ] }"#;
        let (hits, problems) = search(stdout).unwrap();
        assert_eq!(hits.len(), 3);
        let json = |hit: &Hit| serde_json::to_value(hit).unwrap();
        assert_eq!(
            json(&hits[0]),
            json!({ "id": "Newtonsoft.Json", "version": "13.0.3", "downloads": 6123456789u64, "owners": "jamesnk, newtonsoft", "source": "nuget.org" })
        );
        assert_eq!(hits[1].version.as_deref(), Some("13.0.2"));
        assert_eq!(hits[1].owners.as_deref(), Some("jamesnk"));
        assert_eq!(json(&hits[2]), json!({ "id": "Local.Pkg", "source": "local" }));
        assert_eq!(problems, ["local: The source is offline."]);
        assert!(search("{}").unwrap_err().contains("searchResult"));
    }

    #[test]
    fn reads_the_version_add_package_wrote() {
        let output = "info : Adding PackageReference for package 'Serilog' into project '/src/App/App.csproj'.\n\
                      info : PackageReference for package 'Serilog' version '4.3.0' added to file '/src/App/App.csproj'.\n";
        assert_eq!(
            added(output),
            Added { version: Some("4.3.0".into()), project_file: Some("/src/App/App.csproj".into()) }
        );
        let central = "info : PackageReference for package 'Serilog' added to file '/src/App/App.csproj'.\n\
                       info : PackageVersion for package 'Serilog' version '4.3.0' added to file '/src/Directory.Packages.props'.\n";
        assert_eq!(
            added(central),
            Added { version: Some("4.3.0".into()), project_file: Some("/src/App/App.csproj".into()) }
        );
        let updated =
            "info : PackageReference for package 'Serilog' version '4.3.0' updated in file '/src/App/App.csproj'.";
        assert_eq!(added(updated).project_file.as_deref(), Some("/src/App/App.csproj"));
        assert_eq!(added("nothing here"), Added::default());
    }

    #[test]
    fn reads_references_and_cleared_caches() {
        let listed = "Project reference(s)\n--------------------\n..\\Lib\\Lib.csproj\n../Core/Core.csproj\n";
        assert_eq!(listed_paths(listed), ["../Lib/Lib.csproj", "../Core/Core.csproj"]);
        // `dotnet sln Shop.slnx list` (SDK 10.0.401).
        let solution = "Project(s)\n----------\nApi.Tests/Api.Tests.csproj\nApi/Api.csproj\n";
        assert_eq!(listed_paths(solution), ["Api.Tests/Api.Tests.csproj", "Api/Api.csproj"]);
        assert!(listed_paths("There are no Project to Project references in project /src/App/App.csproj.").is_empty());
        let output = "Clearing NuGet HTTP cache: /home/u/.local/share/NuGet/http-cache\nLocal resources cleared.\n";
        assert_eq!(
            cleared(output),
            [Cache { cache: "NuGet HTTP cache".to_owned(), path: "/home/u/.local/share/NuGet/http-cache".to_owned() }]
        );
    }
}
