//! NuGet commands: `list package` (NuGet's text tables and its `--format json` report, with
//! `--outdated`, `--deprecated`, `--vulnerable` and `--include-transitive`), `package search`
//! (table or `--format json`), `add package` / `remove package` (with NU1101 / NU1102 for
//! unknown packages and versions) and `nuget locals`.
//!
//! Package data: `fixtures/packages/references.json` (what each project references; test
//! projects get the `testProject` entry) and `fixtures/packages/catalog.json` (what nuget.org
//! offers, for search and add).

use serde::{Deserialize, Serialize};

use crate::args;
use crate::ctx::{Ctx, Scenario};
use crate::out;
use crate::target::{self, Target};

const REFERENCES: &str = crate::fixture::body(include_str!("../../fixtures/packages/references.json"));
const CATALOG: &str = crate::fixture::body(include_str!("../../fixtures/packages/catalog.json"));
const ADD: &str = crate::fixture::body(include_str!("../../fixtures/packages/add.txt"));
const ADD_NOT_FOUND: &str = crate::fixture::body(include_str!("../../fixtures/packages/add-not-found.txt"));
const ADD_NO_VERSION: &str = crate::fixture::body(include_str!("../../fixtures/packages/add-no-version.txt"));
const ADD_DOWNGRADE: &str = crate::fixture::body(include_str!("../../fixtures/packages/add-downgrade.txt"));
const LOCALS: &str = crate::fixture::body(include_str!("../../fixtures/packages/locals.txt"));
const LIST_RESTORE_FAILED: &str =
    crate::fixture::body(include_str!("../../fixtures/packages/list-restore-failed.json"));
const SOURCE_URL: &str = "https://api.nuget.org/v3/index.json";

#[derive(Deserialize, Serialize, Clone)]
#[serde(rename_all = "camelCase")]
struct Framework {
    framework: String,
    top_level_packages: Vec<PackageRef>,
    #[serde(skip_serializing_if = "Option::is_none")]
    transitive_packages: Option<Vec<PackageRef>>,
}

#[derive(Deserialize, Serialize, Clone)]
#[serde(rename_all = "camelCase")]
struct PackageRef {
    id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    requested_version: Option<String>,
    resolved_version: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    latest_version: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    deprecation_reasons: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    alternative_package: Option<Alternative>,
    #[serde(skip_serializing_if = "Option::is_none")]
    vulnerabilities: Option<Vec<Vulnerability>>,
}

#[derive(Deserialize, Serialize, Clone)]
#[serde(rename_all = "camelCase")]
struct Alternative {
    id: String,
    version_range: String,
}

#[derive(Deserialize, Serialize, Clone)]
struct Vulnerability {
    severity: String,
    advisoryurl: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct References {
    project: Vec<Framework>,
    test_project: Vec<Framework>,
}

#[derive(Deserialize, Clone)]
#[serde(rename_all = "camelCase")]
struct CatalogEntry {
    id: String,
    latest_version: String,
    total_downloads: u64,
    owners: String,
    versions: Vec<String>,
}

fn catalog() -> Vec<CatalogEntry> {
    serde_json::from_str(CATALOG).expect("packages/catalog.json is valid")
}

/// Which report `list package` prints.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    All,
    Outdated,
    Deprecated,
    Vulnerable,
}

impl Mode {
    fn keeps(self, p: &PackageRef) -> bool {
        match self {
            Mode::All => true,
            Mode::Outdated => p.latest_version.as_deref().is_some_and(|l| l != p.resolved_version),
            Mode::Deprecated => p.deprecation_reasons.is_some(),
            Mode::Vulnerable => p.vulnerabilities.is_some(),
        }
    }

    /// The package as this report shows it: only the fields the report carries.
    fn shape(self, p: &PackageRef) -> PackageRef {
        PackageRef {
            latest_version: if self == Mode::Outdated { p.latest_version.clone() } else { None },
            deprecation_reasons: if self == Mode::Deprecated { p.deprecation_reasons.clone() } else { None },
            alternative_package: if self == Mode::Deprecated { p.alternative_package.clone() } else { None },
            vulnerabilities: if self == Mode::Vulnerable { p.vulnerabilities.clone() } else { None },
            ..p.clone()
        }
    }
}

#[derive(Serialize)]
struct Report {
    version: u32,
    parameters: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    sources: Option<Vec<String>>,
    projects: Vec<ProjectReport>,
}

#[derive(Serialize)]
struct ProjectReport {
    path: String,
    frameworks: Vec<Framework>,
}

/// `dotnet list [<project>] package [...]` and `dotnet package list [--project <p>] [...]`.
pub fn list(ctx: &Ctx, project: Option<String>, args: &[String]) -> u8 {
    let target = match target::resolve(ctx, project.as_deref()) {
        Ok(t) => t,
        Err(m) => return m.report_cli(),
    };
    let json = args::value(args, &["--format"]).is_some_and(|f| f.eq_ignore_ascii_case("json"));
    if ctx.has(Scenario::RestoreFail) {
        // SDK 10 restores first; its JSON report then holds only NuGet's sentence.
        if json {
            out::text(LIST_RESTORE_FAILED);
            return 1;
        }
        out::err(&format!(
            "No assets file was found for `{}`. Please run restore before running this command.",
            target.projects[0].path.display()
        ));
        return 1;
    }
    let transitive = args::flag(args, &["--include-transitive"]);
    let mut parameters = Vec::new();
    if transitive {
        parameters.push("--include-transitive");
    }
    let mode = if args::flag(args, &["--outdated"]) {
        parameters.push("--outdated");
        Mode::Outdated
    } else if args::flag(args, &["--deprecated"]) {
        parameters.push("--deprecated");
        Mode::Deprecated
    } else if args::flag(args, &["--vulnerable"]) {
        parameters.push("--vulnerable");
        Mode::Vulnerable
    } else {
        Mode::All
    };
    let framework_filter = args::value(args, &["--framework"]);
    if let Some(f) = &framework_filter {
        parameters.push("--framework");
        parameters.push(f);
    }
    let report = build_report(ctx, &target, mode, transitive, framework_filter.as_deref(), parameters.join(" "));
    out::phase(ctx, "Fetching package metadata...", json);
    if json {
        out::json(&report);
    } else {
        print_text(&report, mode, transitive);
    }
    0
}

fn build_report(
    ctx: &Ctx,
    target: &Target,
    mode: Mode,
    transitive: bool,
    framework_filter: Option<&str>,
    parameters: String,
) -> Report {
    let refs: References = serde_json::from_str(REFERENCES).expect("packages/references.json is valid");
    let vars = ctx.vars();
    let projects = target
        .projects
        .iter()
        .map(|p| {
            let frameworks = if p.is_test() { &refs.test_project } else { &refs.project };
            let frameworks = frameworks
                .iter()
                .map(|f| Framework {
                    framework: vars.render(&f.framework),
                    top_level_packages: f
                        .top_level_packages
                        .iter()
                        .filter(|x| mode.keeps(x))
                        .map(|x| mode.shape(x))
                        .collect(),
                    transitive_packages: transitive.then(|| {
                        f.transitive_packages
                            .iter()
                            .flatten()
                            .filter(|x| mode.keeps(x))
                            .map(|x| mode.shape(x))
                            .collect()
                    }),
                })
                .filter(|f| framework_filter.is_none_or(|w| w == f.framework))
                .collect();
            ProjectReport { path: p.path.display().to_string(), frameworks }
        })
        .collect();
    Report { version: 1, parameters, sources: (mode != Mode::All).then(|| vec![SOURCE_URL.to_string()]), projects }
}

/// NuGet's text tables: three spaces between columns, cells padded, a `>` before each id.
fn print_text(report: &Report, mode: Mode, transitive: bool) {
    if report.sources.is_some() {
        out::line("");
        out::line("The following sources were used:");
        out::line(&format!("   {SOURCE_URL}"));
        out::line("");
    }
    for project in &report.projects {
        let name = std::path::Path::new(&project.path)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let empty = project
            .frameworks
            .iter()
            .all(|f| f.top_level_packages.is_empty() && f.transitive_packages.as_ref().is_none_or(Vec::is_empty));
        let (heading, none) = match mode {
            Mode::All => (format!("Project '{name}' has the following package references"), String::new()),
            Mode::Outdated => (
                format!("Project `{name}` has the following updates to its packages"),
                format!("The given project `{name}` has no updates given the current sources."),
            ),
            Mode::Deprecated => (
                format!("Project `{name}` has the following deprecated packages"),
                format!("The given project `{name}` has no deprecated packages given the current sources."),
            ),
            Mode::Vulnerable => (
                format!("Project `{name}` has the following vulnerable packages"),
                format!("The given project `{name}` has no vulnerable packages given the current sources."),
            ),
        };
        if empty && mode != Mode::All {
            out::line(&none);
            out::line("");
            continue;
        }
        out::line(&heading);
        for f in &project.frameworks {
            out::line(&format!("   [{}]: ", f.framework));
            print_table("Top-level Package", &f.top_level_packages, mode, true);
            if transitive {
                out::line("");
                print_table("Transitive Package", f.transitive_packages.as_deref().unwrap_or(&[]), mode, false);
            }
            out::line("");
        }
    }
}

fn print_table(title: &str, packages: &[PackageRef], mode: Mode, top_level: bool) {
    let mut headers: Vec<&str> = vec![title, ""];
    if top_level {
        headers.push("Requested");
    }
    headers.push("Resolved");
    match mode {
        Mode::All => {}
        Mode::Outdated => headers.push("Latest"),
        Mode::Deprecated => headers.extend(["Reason(s)", "Alternative"]),
        Mode::Vulnerable => headers.extend(["Severity", "Advisory URL"]),
    }
    let mut rows: Vec<Vec<String>> = Vec::new();
    for p in packages {
        let mut row = vec![format!("> {}", p.id), String::new()];
        if top_level {
            row.push(p.requested_version.clone().unwrap_or_default());
        }
        row.push(p.resolved_version.clone());
        match mode {
            Mode::All => rows.push(row),
            Mode::Outdated => {
                row.push(p.latest_version.clone().unwrap_or_default());
                rows.push(row);
            }
            Mode::Deprecated => {
                row.push(p.deprecation_reasons.clone().unwrap_or_default().join(","));
                row.push(
                    p.alternative_package
                        .as_ref()
                        .map(|a| format!("{} >= {}", a.id, a.version_range.trim_matches(['[', ',', ')'])))
                        .unwrap_or_default(),
                );
                rows.push(row);
            }
            Mode::Vulnerable => {
                let width = row.len();
                for (i, v) in p.vulnerabilities.iter().flatten().enumerate() {
                    let mut r = if i == 0 { row.clone() } else { vec![String::new(); width] };
                    r.push(v.severity.clone());
                    r.push(v.advisoryurl.clone());
                    rows.push(r);
                }
            }
        }
    }
    let mut widths: Vec<usize> = headers.iter().map(|h| h.len()).collect();
    for r in &rows {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(c.len());
        }
    }
    let line = |cells: Vec<&str>| {
        let text = cells.iter().zip(&widths).map(|(c, w)| format!("{c:<w$}")).collect::<Vec<_>>().join("   ");
        out::line(&format!("   {text}"));
    };
    line(headers.clone());
    for r in &rows {
        line(r.iter().map(String::as_str).collect());
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SearchReport {
    version: u32,
    problems: Vec<String>,
    search_result: Vec<SourceResult>,
}

#[derive(Serialize)]
struct SourceResult {
    #[serde(rename = "sourceName")]
    source_name: String,
    packages: Vec<SearchHit>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SearchHit {
    id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    latest_version: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    version: Option<String>,
    total_downloads: u64,
    owners: String,
}

fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `dotnet package search <term> [--take N] [--skip N] [--exact-match] [--format json]`.
pub fn search(ctx: &Ctx, args: &[String]) -> u8 {
    let term = args::positionals(args).into_iter().next().unwrap_or_default();
    let take: usize = args::value(args, &["--take"]).and_then(|t| t.parse().ok()).unwrap_or(20);
    let skip: usize = args::value(args, &["--skip"]).and_then(|t| t.parse().ok()).unwrap_or(0);
    let exact = args::flag(args, &["--exact-match"]);
    let json = args::value(args, &["--format"]).is_some_and(|f| f.eq_ignore_ascii_case("json"));
    let lower = term.to_lowercase();
    let hits: Vec<SearchHit> = if exact {
        catalog()
            .into_iter()
            .filter(|c| c.id.eq_ignore_ascii_case(&term))
            .flat_map(|c| {
                c.versions
                    .iter()
                    .rev()
                    .map(move |v| SearchHit {
                        id: c.id.clone(),
                        latest_version: None,
                        version: Some(v.clone()),
                        total_downloads: c.total_downloads,
                        owners: c.owners.clone(),
                    })
                    .collect::<Vec<_>>()
            })
            .collect()
    } else {
        catalog()
            .into_iter()
            .filter(|c| c.id.to_lowercase().contains(&lower))
            .skip(skip)
            .take(take)
            .map(|c| SearchHit {
                id: c.id,
                latest_version: Some(c.latest_version),
                version: None,
                total_downloads: c.total_downloads,
                owners: c.owners,
            })
            .collect()
    };
    out::phase(ctx, "Searching...", json);
    if json {
        out::json(&SearchReport {
            version: 2,
            problems: Vec::new(),
            search_result: vec![SourceResult { source_name: "nuget.org".into(), packages: hits }],
        });
        return 0;
    }
    out::line("Source: nuget.org");
    if hits.is_empty() {
        out::line("No results found.");
        return 0;
    }
    let version_header = if exact { "Version" } else { "Latest Version" };
    let headers = ["Package ID", version_header, "Owners", "Total Downloads"];
    let rows: Vec<[String; 4]> = hits
        .iter()
        .map(|h| {
            [
                h.id.clone(),
                h.latest_version.clone().or_else(|| h.version.clone()).unwrap_or_default(),
                h.owners.clone(),
                thousands(h.total_downloads),
            ]
        })
        .collect();
    let mut widths = headers.map(str::len);
    for r in &rows {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(c.len());
        }
    }
    let row = |cells: [&str; 4]| {
        let inner = cells.iter().zip(widths).map(|(c, w)| format!(" {c:<w$} ")).collect::<Vec<_>>().join("|");
        out::line(&format!("|{inner}|"));
    };
    row(headers);
    out::line(&format!("|{}|", widths.iter().map(|w| "-".repeat(w + 2)).collect::<Vec<_>>().join("|")));
    for r in &rows {
        row([&r[0], &r[1], &r[2], &r[3]]);
    }
    0
}

fn project_target(ctx: &Ctx, project: Option<&str>) -> Result<Target, u8> {
    target::resolve(ctx, project).map_err(|m| m.report_cli())
}

/// `dotnet add [<project>] package <id> [--version V] [--prerelease] ...` (and `package add`).
pub fn add(ctx: &Ctx, project: Option<String>, id: Option<String>, args: &[String]) -> u8 {
    let Some(id) = id else {
        out::err("Required argument missing for command: 'package'.");
        return 1;
    };
    let target = match project_target(ctx, project.as_deref()) {
        Ok(t) => t,
        Err(code) => return code,
    };
    let p = &target.projects[0];
    let entry = catalog().into_iter().find(|c| c.id.eq_ignore_ascii_case(&id));
    let requested = args::value(args, &["-v", "--version"]);
    let vars = p
        .vars(ctx)
        .with("id", entry.as_ref().map_or(id.as_str(), |e| e.id.as_str()))
        .with("id_lower", &id.to_lowercase());
    out::phase(ctx, "info : Restoring packages...", false);
    let Some(entry) = entry.filter(|_| !ctx.has(Scenario::RestoreFail)) else {
        out::text(&vars.render(ADD_NOT_FOUND));
        return 1;
    };
    let version = requested.clone().unwrap_or_else(|| entry.latest_version.clone());
    if requested.is_some() && !entry.versions.contains(&version) {
        let nearest = entry.versions.last().cloned().unwrap_or_default();
        let vars =
            vars.with("version", &version).with("count", &entry.versions.len().to_string()).with("nearest", &nearest);
        out::text(&vars.render(ADD_NO_VERSION));
        return 1;
    }
    let vars = vars.with("version", &version);
    if ctx.has(Scenario::PackageDowngrade) && version != entry.latest_version {
        // Another reference needs the latest version: the reference is written, the restore fails.
        out::text(&vars.with("latest", &entry.latest_version).render(ADD_DOWNGRADE));
        return 0;
    }
    out::text(&vars.render(ADD));
    0
}

/// `dotnet remove [<project>] package <id>` (and `package remove`).
pub fn remove(ctx: &Ctx, project: Option<String>, id: Option<String>) -> u8 {
    let Some(id) = id else {
        out::err("Required argument missing for command: 'package'.");
        return 1;
    };
    let target = match project_target(ctx, project.as_deref()) {
        Ok(t) => t,
        Err(code) => return code,
    };
    out::line(&format!(
        "info : Removing PackageReference for package '{id}' from project '{}'.",
        target.projects[0].path.display()
    ));
    0
}

/// `dotnet nuget locals <all|http-cache|global-packages|temp|plugins-cache> --clear|--list`.
pub fn locals(ctx: &Ctx, args: &[String]) -> u8 {
    let user = std::env::var("USER").unwrap_or_else(|_| "root".into());
    let rendered = ctx.vars().with("user", &user).render(LOCALS);
    let known: Vec<(&str, &str)> = rendered.lines().filter_map(|l| l.split_once(": ")).collect();
    let Some(kind) = args::positionals(args).into_iter().next() else {
        out::err("error: No Cache Location(s) specified.");
        return 1;
    };
    let selected: Vec<(&str, &str)> =
        if kind == "all" { known.clone() } else { known.iter().copied().filter(|(k, _)| *k == kind).collect() };
    if selected.is_empty() {
        out::err(
            "error: An invalid local resource name was provided. Provide one of the following values: http-cache, temp, global-packages, plugins-cache, all.",
        );
        return 1;
    }
    if args::flag(args, &["-l", "--list"]) {
        selected.iter().for_each(|(k, v)| out::line(&format!("{k}: {v}")));
        return 0;
    }
    if !args::flag(args, &["-c", "--clear"]) {
        out::err("error: Please specify an operation i.e. --list or --clear.");
        return 1;
    }
    for (k, v) in &selected {
        let label = match *k {
            "http-cache" => "NuGet HTTP cache",
            "global-packages" => "NuGet global packages folder",
            "temp" => "NuGet Temp cache",
            _ => "NuGet plugins cache",
        };
        out::line(&format!("Clearing {label}: {v}"));
    }
    out::line("Local resources cleared.");
    0
}

#[cfg(test)]
mod tests {
    use super::thousands;

    #[test]
    fn groups_thousands() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(6_123_456_789), "6,123,456,789");
    }
}
