//! The argument vector of every action, built from checked parameters. Each value is one
//! argument, never spliced into another, so nothing a caller sends can become an extra option.
//!
//! The verb-first forms (`dotnet add <project> package`, `dotnet list <project> reference`) are
//! used because SDK 8, 9 and 10 all accept them; SDK 10's noun-first forms (`dotnet package
//! add`) are unknown to SDK 8. `dotnet package search` exists since SDK 8.0.200.

use serde::Serialize;

/// How `dotnet list package` reports: every package, or one of NuGet's three audits. List's
/// result names it (`report`) in lower case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Report {
    /// Requested and resolved versions.
    All,
    /// Also the latest version of each package that has a newer one (`--outdated`).
    Outdated,
    /// Deprecated packages with their reasons and alternatives (`--deprecated`).
    Deprecated,
    /// Packages with known vulnerabilities (`--vulnerable`).
    Vulnerable,
}

dotnet_support::string_enum_schema!(Report, "Report", ["all", "outdated", "deprecated", "vulnerable"]);

impl Report {
    fn flag(self) -> Option<&'static str> {
        match self {
            Report::All => None,
            Report::Outdated => Some("--outdated"),
            Report::Deprecated => Some("--deprecated"),
            Report::Vulnerable => Some("--vulnerable"),
        }
    }
}

/// What `add package` is asked to do (Add and Update).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AddPackage<'a> {
    /// The project, or `None` for the CLI's default (the one project in the working directory).
    pub project: Option<&'a str>,
    /// The package id.
    pub id: &'a str,
    /// An exact version or range; without one NuGet picks the latest.
    pub version: Option<&'a str>,
    /// Allow a prerelease when no version is given.
    pub prerelease: bool,
    /// A package source to use.
    pub source: Option<&'a str>,
    /// Add the reference only for this target framework.
    pub framework: Option<&'a str>,
    /// Add the reference without restoring.
    pub no_restore: bool,
}

/// `add [<project>] package <id> [--version <v> | --prerelease] [--source <s>] [--framework <f>] [--no-restore]`.
/// `--prerelease` only matters when no version is pinned, so it is passed only then.
pub fn add_package(add: &AddPackage<'_>) -> Vec<String> {
    let mut args = verb_noun("add", add.project, "package");
    args.push(add.id.to_owned());
    match add.version {
        Some(version) => push_option(&mut args, "--version", version),
        None if add.prerelease => args.push("--prerelease".to_owned()),
        None => {}
    }
    push_optional(&mut args, "--source", add.source);
    push_optional(&mut args, "--framework", add.framework);
    if add.no_restore {
        args.push("--no-restore".to_owned());
    }
    args
}

/// `remove [<project>] package <id>`.
pub fn remove_package(project: Option<&str>, id: &str) -> Vec<String> {
    let mut args = verb_noun("remove", project, "package");
    args.push(id.to_owned());
    args
}

/// What `package search` is asked for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Search<'a> {
    /// The search term.
    pub term: &'a str,
    /// How many results to return.
    pub take: Option<u64>,
    /// How many results to skip.
    pub skip: Option<u64>,
    /// Include prerelease versions.
    pub prerelease: bool,
    /// Only the package whose id is the term, with all its versions.
    pub exact_match: bool,
    /// A package source to search instead of the configured ones.
    pub source: Option<&'a str>,
}

/// `package search <term> [--take N] [--skip N] [--prerelease] [--exact-match] [--source <s>] --format json`.
pub fn search(search: &Search<'_>) -> Vec<String> {
    let mut args = vec!["package".to_owned(), "search".to_owned(), search.term.to_owned()];
    push_optional(&mut args, "--take", search.take.map(|take| take.to_string()).as_deref());
    push_optional(&mut args, "--skip", search.skip.map(|skip| skip.to_string()).as_deref());
    if search.prerelease {
        args.push("--prerelease".to_owned());
    }
    if search.exact_match {
        args.push("--exact-match".to_owned());
    }
    push_optional(&mut args, "--source", search.source);
    args.extend(["--format", "json"].map(str::to_owned));
    args
}

/// What `list package` is asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListPackages<'a> {
    /// The project or solution, or `None` for the CLI's default.
    pub project: Option<&'a str>,
    /// Which report.
    pub report: Report,
    /// Include transitive packages.
    pub transitive: bool,
    /// Only this target framework.
    pub framework: Option<&'a str>,
    /// Consider prerelease versions as newer (outdated report only).
    pub prerelease: bool,
    /// A source to check for newer, deprecated or vulnerable versions (audit reports only).
    pub source: Option<&'a str>,
}

/// `list [<project>] package --format json --output-version 1 [--outdated|--deprecated|--vulnerable]
/// [--include-transitive] [--framework <f>] [--include-prerelease] [--source <s>]`.
pub fn list_packages(list: &ListPackages<'_>) -> Vec<String> {
    let mut args = verb_noun("list", list.project, "package");
    args.extend(["--format", "json", "--output-version", "1"].map(str::to_owned));
    args.extend(list.report.flag().map(str::to_owned));
    if list.transitive {
        args.push("--include-transitive".to_owned());
    }
    push_optional(&mut args, "--framework", list.framework);
    if list.prerelease {
        args.push("--include-prerelease".to_owned());
    }
    push_optional(&mut args, "--source", list.source);
    args
}

/// `add|remove [<project>] reference <path>` and `list [<project>] reference`.
pub fn reference(verb: &str, project: Option<&str>, path: Option<&str>) -> Vec<String> {
    let mut args = verb_noun(verb, project, "reference");
    args.extend(path.map(str::to_owned));
    args
}

/// `nuget why [<project>] <package> [--framework <f>]` (SDK 8.0.400 and later).
pub fn why(project: Option<&str>, package: &str, framework: Option<&str>) -> Vec<String> {
    let mut args: Vec<String> =
        ["nuget", "why"].into_iter().chain(project).chain([package]).map(str::to_owned).collect();
    push_optional(&mut args, "--framework", framework);
    args
}

/// `nuget locals <cache> --clear`.
pub fn clear_cache(cache: &str) -> Vec<String> {
    ["nuget", "locals", cache, "--clear"].map(str::to_owned).to_vec()
}

fn verb_noun(verb: &str, project: Option<&str>, noun: &str) -> Vec<String> {
    std::iter::once(verb).chain(project).chain(std::iter::once(noun)).map(str::to_owned).collect()
}

fn push_option(args: &mut Vec<String>, name: &str, value: &str) {
    args.push(name.to_owned());
    args.push(value.to_owned());
}

fn push_optional(args: &mut Vec<String>, name: &str, value: Option<&str>) {
    if let Some(value) = value {
        push_option(args, name, value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|item| (*item).to_owned()).collect()
    }

    #[test]
    fn why_names_the_project_before_the_package() {
        assert_eq!(why(None, "xunit.core", None), strings(&["nuget", "why", "xunit.core"]));
        assert_eq!(
            why(Some("App.slnx"), "xunit.core", Some("net10.0")),
            strings(&["nuget", "why", "App.slnx", "xunit.core", "--framework", "net10.0"])
        );
    }

    #[test]
    fn add_pins_a_version_or_allows_prereleases_never_both() {
        let add = AddPackage { id: "Serilog", prerelease: true, ..AddPackage::default() };
        assert_eq!(add_package(&add), strings(&["add", "package", "Serilog", "--prerelease"]));
        let add = AddPackage {
            project: Some("src/App/App.csproj"),
            id: "Serilog",
            version: Some("4.2.0"),
            prerelease: true,
            source: Some("https://feed.example/v3/index.json"),
            framework: Some("net10.0"),
            no_restore: true,
        };
        assert_eq!(
            add_package(&add),
            strings(&[
                "add",
                "src/App/App.csproj",
                "package",
                "Serilog",
                "--version",
                "4.2.0",
                "--source",
                "https://feed.example/v3/index.json",
                "--framework",
                "net10.0",
                "--no-restore"
            ])
        );
    }

    #[test]
    fn list_always_asks_for_the_json_report() {
        let list = ListPackages {
            project: None,
            report: Report::Outdated,
            transitive: true,
            framework: Some("net8.0"),
            prerelease: true,
            source: None,
        };
        assert_eq!(
            list_packages(&list),
            strings(&[
                "list",
                "package",
                "--format",
                "json",
                "--output-version",
                "1",
                "--outdated",
                "--include-transitive",
                "--framework",
                "net8.0",
                "--include-prerelease"
            ])
        );
    }

    #[test]
    fn search_and_the_small_commands() {
        let search_args = search(&Search { term: "json", take: Some(5), exact_match: true, ..Search::default() });
        assert_eq!(
            search_args,
            strings(&["package", "search", "json", "--take", "5", "--exact-match", "--format", "json"])
        );
        assert_eq!(remove_package(Some("App.csproj"), "X"), strings(&["remove", "App.csproj", "package", "X"]));
        assert_eq!(reference("list", None, None), strings(&["list", "reference"]));
        assert_eq!(
            reference("add", Some("App.csproj"), Some("../Lib/Lib.csproj")),
            strings(&["add", "App.csproj", "reference", "../Lib/Lib.csproj"])
        );
        assert_eq!(clear_cache("http-cache"), strings(&["nuget", "locals", "http-cache", "--clear"]));
    }
}
