//! MSBuild diagnostics: turn the console lines of `dotnet build` / `restore` / `test` / `pack` /
//! `publish` (compiler, analyzer, MSBuild, NuGet and SDK messages) into structured [`Diagnostic`]s,
//! de-duplicated, and count them.
//!
//! Recognised shapes (MSBuild's canonical error format and NuGet's logger format):
//! - `path(line,col): error CS0103: message [project.csproj]`, also `(line)`, `(line-line)`,
//!   `(line,col-col)` and `(line,col,endline,endcol)` locations;
//! - `path : error NU1101: message`, `MSBUILD : error MSB1009: message`, `CSC : error CS2001: ...`;
//! - `error NU1101: message`, `warning NETSDK1138: message`, NuGet's `error: NU1101: message` and
//!   `warn : NU1603: message`;
//! - codes with lower-case or mixed prefixes (`IDE0005`, `CA1822`, `xUnit1004`, `ca2007`, `S1118`);
//! - optional `12>` node prefixes and indentation, a ` [project::TargetFramework=...]` suffix.
//!
//! A line without a code is a diagnostic only when it is an error, or a warning with an origin:
//! NuGet's `info : Restoring packages...` and an application's `warn: Category[0]` console log
//! lines are not diagnostics.

use std::collections::HashSet;
use std::sync::LazyLock;

use regex::Regex;
use serde::{Deserialize, Serialize};

/// How serious a diagnostic is, spelled in JSON as MSBuild prints it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Fails the build.
    Error,
    /// Reported, does not fail the build (unless warnings are errors).
    Warning,
    /// Informational (analyzer suggestions), reported only when it carries a code.
    Info,
}

// A plain string, as MSBuild spells it.
crate::string_enum_schema!(Severity, "Severity", ["error", "warning", "info"]);

/// One diagnostic, with the location and project split out of the message so a client can
/// jump to the file and group by project.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(description = "")]
pub struct Diagnostic {
    /// Source or project file the diagnostic points at; `None` for tool origins such as
    /// `MSBUILD` or `CSC` and for location-less lines.
    #[schemars(description = "")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// 1-based start line, when the location has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<i64>", description = "")]
    pub line: Option<u32>,
    /// 1-based start column, when the location has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<i64>", description = "")]
    pub column: Option<u32>,
    /// End line of a range location.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<i64>", description = "")]
    pub end_line: Option<u32>,
    /// End column of a range location.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<i64>", description = "")]
    pub end_column: Option<u32>,
    /// Error, warning or info.
    #[schemars(description = "")]
    pub severity: Severity,
    /// The diagnostic id as printed (`CS0103`, `NU1101`, `xUnit1004`); empty when the tool gave none.
    #[schemars(description = "")]
    pub code: String,
    /// The message, without the trailing ` [project]` suffix.
    #[schemars(description = "")]
    pub message: String,
    /// The project MSBuild was building when it reported this (the ` [project]` suffix).
    #[schemars(description = "")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project: Option<String>,
}

impl Diagnostic {
    /// The diagnostic as one line for the model, as every family shows one:
    /// `file(line,col): CODE: message`, each part only when known (the severity is the heading's).
    pub fn line(&self) -> String {
        let code = if self.code.is_empty() { String::new() } else { format!("{}: ", self.code) };
        format!("{}{code}{}", self.location(), self.message)
    }

    /// The diagnostic as MSBuild's console prints it, which [`parse_line`] reads back:
    /// `file(line,col): error CODE: message [project]`, each part but the severity and the
    /// message only when known. For a diagnostic read from elsewhere (a NuGet assets file) that
    /// the run's error reporting should read as it reads the console.
    pub fn console_line(&self) -> String {
        let severity = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        };
        let code = if self.code.is_empty() { String::new() } else { format!(" {}", self.code) };
        let project = self.project.as_ref().map(|project| format!(" [{project}]")).unwrap_or_default();
        format!("{}{severity}{code}: {}{project}", self.location(), self.message)
    }

    /// `file(line,col): `, `file(line): `, `file: ` or nothing.
    fn location(&self) -> String {
        match (&self.file, self.line, self.column) {
            (Some(file), Some(line), Some(column)) => format!("{file}({line},{column}): "),
            (Some(file), Some(line), None) => format!("{file}({line}): "),
            (Some(file), None, _) => format!("{file}: "),
            _ => String::new(),
        }
    }
}

/// The errors and warnings of one run, with counts a client can trust.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DiagnosticSummary {
    /// Unique error diagnostics, in first-seen order.
    pub errors: Vec<Diagnostic>,
    /// Unique warning diagnostics, in first-seen order.
    pub warnings: Vec<Diagnostic>,
    /// The larger of MSBuild's own final error count and `errors.len()`.
    pub error_count: usize,
    /// The larger of MSBuild's own final warning count and `warnings.len()`.
    pub warning_count: usize,
}

/// `origin(location): severity code: message`, every part but severity and message optional.
static LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?x)
        ^[\ \t]*(?:\d+>)?[\ \t]*
        (?:
            (?P<origin>(?:[^:\r\n]|:[^\ \t\r\n])*?)
            (?:\((?P<loc>\d+(?:[-,]\d+){0,3})\))?
            [\ \t]*:[\ \t]+
        )?
        (?P<severity>error|warning|warn|info)
        (?:[\ \t]+(?P<code>[A-Za-z][A-Za-z_]*[0-9]+|[A-Z][A-Z_]{2,}))?
        [\ \t]*:[\ \t]*
        (?P<message>.*?)[\ \t\r]*$",
    )
    .expect("diagnostic pattern is valid")
});

/// The diagnostic ids of `dotnet format` that have no digits (its whitespace, final-newline,
/// charset and imports checks; its analyzer checks report `IDE`/`CA` ids). An upper-case word
/// after the severity counts as an id only at a source location, and these are the ones seen.
pub const FORMAT_IDS: [&str; 4] = ["CHARSET", "FINALNEWLINE", "IMPORTS", "WHITESPACE"];

/// NuGet's logger puts the code after the severity's colon: `error: NU1101: message`.
static LEADING_CODE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?P<code>[A-Za-z][A-Za-z_]*[0-9]+):[ \t]*(?P<rest>.*)$").expect("code pattern is valid")
});

/// The ` [path/to/project.csproj]` or ` [App.csproj::TargetFramework=net10.0]` suffix.
static PROJECT_SUFFIX: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?P<message>.*?)[ \t]+\[(?P<project>[^\[\]]+?\.(?:[A-Za-z]*proj|slnx?))(?:::[^\[\]]*)?\]$")
        .expect("project pattern is valid")
});

/// Final counts of the console logger (`    2 Warning(s)`) and of the terminal logger
/// (`Build failed with 1 error(s) and 2 warning(s) in 3.1s`).
static COUNTS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?ix)
        ^[\ \t]*(?P<n>\d+)[\ \t]+(?P<kind>error|warning)\(s\)[\ \t\r]*$
        |
        \b(?:succeeded|failed)\ with\ 
        (?:(?P<e>\d+)\ errors?(?:\(s\))?)?
        (?:(?:\ and\ |,\ )?(?P<w>\d+)\ warnings?(?:\(s\))?)?",
    )
    .expect("count pattern is valid")
});

/// Start/end line and column from an MSBuild location: `l`, `l-el`, `l,c`, `l,c-ec`, `l,c,el,ec`.
fn parse_location(loc: &str) -> [Option<u32>; 4] {
    let num = |s: &str| s.parse::<u32>().ok();
    let parts: Vec<&str> = loc.split(',').collect();
    match parts.as_slice() {
        [line] => match line.split_once('-') {
            Some((start, end)) => [num(start), None, num(end), None],
            None => [num(line), None, None, None],
        },
        [line, column] => match column.split_once('-') {
            Some((start, end)) => [num(line), num(start), num(line), num(end)],
            None => [num(line), num(column), None, None],
        },
        [line, column, end_line, end_column] => [num(line), num(column), num(end_line), num(end_column)],
        _ => [parts.first().and_then(|l| num(l)), None, None, None],
    }
}

/// Parses one console line; `None` when the line is not a diagnostic.
pub fn parse_line(line: &str) -> Option<Diagnostic> {
    let caps = LINE.captures(line)?;
    let severity = match &caps["severity"] {
        "error" => Severity::Error,
        "warning" | "warn" => Severity::Warning,
        _ => Severity::Info,
    };
    let mut code = caps.name("code").map_or("", |m| m.as_str());
    let mut message = &caps["message"];
    // An id without digits (`dotnet format`'s `WHITESPACE`) only where a location says it is
    // about source; elsewhere the word belongs to the message (`error ABC: ...`).
    if !code.is_empty() && !code.contains(|c: char| c.is_ascii_digit()) && caps.name("loc").is_none() {
        let start = caps.name("code").map_or(0, |m| m.start());
        message = line[start..].trim_end();
        code = "";
    }
    if code.is_empty()
        && let Some(leading) = LEADING_CODE.captures(message)
    {
        code = leading.name("code").map_or("", |m| m.as_str());
        message = leading.name("rest").map_or("", |m| m.as_str());
    }
    let origin = caps.name("origin").map_or("", |m| m.as_str().trim());
    // Without a code, only `error:` (NuGet) or a located line is a diagnostic: `info :` is NuGet
    // chatter and `warn: Category[0]` is an application's console log.
    if code.is_empty() && (severity == Severity::Info || (severity == Severity::Warning && origin.is_empty())) {
        return None;
    }
    let mut project = None;
    if let Some(suffix) = PROJECT_SUFFIX.captures(message) {
        project = Some(suffix["project"].to_owned());
        message = suffix.name("message").map_or("", |m| m.as_str());
    }
    let loc = caps.name("loc").map(|m| m.as_str());
    // A bare word without location, path separator or extension is a tool (MSBUILD, CSC), not a file.
    let is_tool = loc.is_none() && !origin.contains(['/', '\\', '.']);
    let file = (!origin.is_empty() && !is_tool).then(|| origin.to_owned());
    let [line, column, end_line, end_column] = loc.map_or([None; 4], parse_location);
    Some(Diagnostic {
        file,
        line,
        column,
        end_line,
        end_column,
        severity,
        code: code.to_owned(),
        message: message.to_owned(),
        project,
    })
}

/// Parses every line and drops repeats (MSBuild prints each diagnostic during the build and again
/// in its final summary), keeping first-seen order.
pub fn parse<I, S>(lines: I) -> Vec<Diagnostic>
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    summarize_parts(lines).0
}

/// Unique diagnostics plus the last final counts (errors, warnings) the loggers printed.
fn summarize_parts<I, S>(lines: I) -> (Vec<Diagnostic>, Option<usize>, Option<usize>)
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    let mut seen = HashSet::new();
    let mut unique = Vec::new();
    let (mut errors, mut warnings) = (None, None);
    for line in lines {
        let line = line.as_ref();
        if let Some(diagnostic) = parse_line(line) {
            if seen.insert(diagnostic.clone()) {
                unique.push(diagnostic);
            }
        } else if let Some(caps) = COUNTS.captures(line) {
            let n = |name: &str| caps.name(name).and_then(|m| m.as_str().parse::<usize>().ok());
            match (n("n"), caps.name("kind").map(|m| m.as_str().to_ascii_lowercase())) {
                (Some(count), Some(kind)) if kind == "error" => errors = Some(count),
                (Some(count), Some(_)) => warnings = Some(count),
                _ => {
                    errors = n("e").or(errors);
                    warnings = n("w").or(warnings);
                }
            }
        }
    }
    (unique, errors, warnings)
}

/// Splits unique diagnostics into errors and warnings and counts them. When the output has
/// MSBuild's final `N Error(s)` / `N Warning(s)` lines (or the terminal logger's
/// `failed with N error(s)`), the last ones printed are used, but a count is never smaller than
/// the number of unique diagnostics listed (two MSBuild runs in one output each print a total).
pub fn summarize<I, S>(lines: I) -> DiagnosticSummary
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    let (unique, reported_errors, reported_warnings) = summarize_parts(lines);
    let (errors, rest): (Vec<_>, Vec<_>) = unique.into_iter().partition(|d| d.severity == Severity::Error);
    let warnings: Vec<_> = rest.into_iter().filter(|d| d.severity == Severity::Warning).collect();
    DiagnosticSummary {
        error_count: reported_errors.unwrap_or(0).max(errors.len()),
        warning_count: reported_warnings.unwrap_or(0).max(warnings.len()),
        errors,
        warnings,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diag(line: &str) -> Diagnostic {
        parse_line(line).unwrap_or_else(|| panic!("not parsed: {line}"))
    }

    #[test]
    fn compiler_error_with_location_and_project() {
        let d = diag(
            "/src/App/Program.cs(9,51): error CS0246: The type or namespace name 'Foo' could not be found (are you missing a using directive or an assembly reference?) [/src/App/App.csproj]",
        );
        assert_eq!(
            d,
            Diagnostic {
                file: Some("/src/App/Program.cs".into()),
                line: Some(9),
                column: Some(51),
                end_line: None,
                end_column: None,
                severity: Severity::Error,
                code: "CS0246".into(),
                message: "The type or namespace name 'Foo' could not be found (are you missing a using directive or an assembly reference?)".into(),
                project: Some("/src/App/App.csproj".into()),
            }
        );
    }

    #[test]
    fn a_diagnostic_reads_as_one_line() {
        let located = diag("/src/App/Program.cs(3,5): warning CS0168: unused [/src/App/App.csproj]");
        assert_eq!(located.line(), "/src/App/Program.cs(3,5): CS0168: unused");
        assert_eq!(diag("App.csproj(12): error MSB4025: bad").line(), "App.csproj(12): MSB4025: bad");
        let nuget = diag("/src/App/App.csproj : warning NU1603: App depends on Bar (>= 1.0.0) [/src/App/App.csproj]");
        assert_eq!(nuget.line(), "/src/App/App.csproj: NU1603: App depends on Bar (>= 1.0.0)");
        assert_eq!(diag("error: Restore failed.").line(), "Restore failed.");
    }

    #[test]
    fn a_diagnostic_prints_as_the_console_line_it_is_read_from() {
        for line in [
            "/src/App/Program.cs(3,5): warning CS0168: unused [/src/App/App.csproj]",
            "App.csproj(12): error MSB4025: bad",
            "/src/App/App.csproj: error NU1101: Unable to find package Nope. [/src/App/App.csproj]",
            "error: Restore failed.",
        ] {
            let diagnostic = diag(line);
            assert_eq!(diagnostic.console_line(), line);
            assert_eq!(diag(&diagnostic.console_line()), diagnostic);
        }
    }

    #[test]
    fn range_locations() {
        let d = diag("Program.cs(5,9,5,16): warning CS0168: The variable 'e' is declared but never used [App.csproj]");
        assert_eq!((d.line, d.column, d.end_line, d.end_column), (Some(5), Some(9), Some(5), Some(16)));
        assert_eq!(d.severity, Severity::Warning);
        let d = diag("Program.cs(7,3-12): error CS1002: ; expected");
        assert_eq!((d.line, d.column, d.end_line, d.end_column), (Some(7), Some(3), Some(7), Some(12)));
        let d = diag("App.csproj(12): error MSB4025: The project file could not be loaded.");
        assert_eq!((d.line, d.column), (Some(12), None));
        let d = diag("Big.cs(10-20): warning CA1502: Method is too complex");
        assert_eq!((d.line, d.end_line), (Some(10), Some(20)));
    }

    #[test]
    fn windows_paths_and_node_prefixes() {
        let d = diag(
            r"  3>C:\src\App\Program.cs(5,9): error CS0103: The name 'Console' does not exist in the current context [C:\src\App\App.csproj]",
        );
        assert_eq!(d.file.as_deref(), Some(r"C:\src\App\Program.cs"));
        assert_eq!(d.project.as_deref(), Some(r"C:\src\App\App.csproj"));
        assert_eq!(d.code, "CS0103");
    }

    #[test]
    fn file_without_location() {
        let d = diag(
            "/src/App/App.csproj : error NU1101: Unable to find package Foo. No packages exist with this id in source(s): nuget.org",
        );
        assert_eq!(d.file.as_deref(), Some("/src/App/App.csproj"));
        assert_eq!(d.line, None);
        assert_eq!(d.code, "NU1101");
        assert_eq!(d.message, "Unable to find package Foo. No packages exist with this id in source(s): nuget.org");
        let d = diag("/src/App: error MSB1009: Project file does not exist.");
        assert_eq!(d.file.as_deref(), Some("/src/App"));
    }

    #[test]
    fn tool_origins_have_no_file() {
        let d = diag(
            "MSBUILD : error MSB1003: Specify a project or solution file. The current working directory does not contain a project or solution file.",
        );
        assert_eq!((d.file, d.code.as_str(), d.severity), (None, "MSB1003", Severity::Error));
        let d = diag("CSC : error CS2001: Source file '/src/Missing.cs' could not be found.");
        assert_eq!((d.file, d.code.as_str()), (None, "CS2001"));
    }

    #[test]
    fn location_less_and_nuget_logger_forms() {
        let d = diag("error NU1101: Unable to find package NonExistentPackage.");
        assert_eq!((d.file.clone(), d.code.as_str(), d.severity), (None, "NU1101", Severity::Error));
        let d = diag(
            "warning NETSDK1138: The target framework 'net5.0' is out of support and will not receive security updates in the future.",
        );
        assert_eq!((d.code.as_str(), d.severity), ("NETSDK1138", Severity::Warning));
        let d = diag("error: NU1101: Unable to find package Foo.");
        assert_eq!((d.code.as_str(), d.message.as_str()), ("NU1101", "Unable to find package Foo."));
        let d = diag("warn : NU1603: App depends on Bar (>= 1.0.0) but Bar 1.0.0 was not found.");
        assert_eq!((d.code.as_str(), d.severity), ("NU1603", Severity::Warning));
        let d = diag("error: Package 'Foo' is incompatible with 'all' frameworks in project '/src/App/App.csproj'.");
        assert_eq!((d.code.as_str(), d.severity), ("", Severity::Error));
    }

    #[test]
    fn analyzer_ids_in_any_case() {
        for (line, code) in [
            ("A.cs(1,1): warning IDE0005: Using directive is unnecessary. [A.csproj]", "IDE0005"),
            ("A.cs(3,17): warning CA1822: Member 'Run' does not access instance data [A.csproj]", "CA1822"),
            ("T.cs(8,6): warning xUnit1004: Test methods should not be skipped [T.csproj]", "xUnit1004"),
            ("T.cs(8,6): warning xunit1004: Test methods should not be skipped [T.csproj]", "xunit1004"),
            ("A.cs(2,14): warning S1118: Add a 'protected' constructor [A.csproj]", "S1118"),
            ("A.cs(9,13): error ca2007: Consider calling ConfigureAwait [A.csproj]", "ca2007"),
            ("A.cs(4,5): info IDE0290: Use primary constructor [A.csproj]", "IDE0290"),
        ] {
            assert_eq!(diag(line).code, code, "{line}");
        }
    }

    #[test]
    fn multi_targeting_suffix_and_codeless_error() {
        let d = diag(
            "/src/A/A.cs(1,1): warning CS8618: Non-nullable property 'Name' must contain a non-null value [/src/A/A.csproj::TargetFramework=net8.0]",
        );
        assert_eq!(d.project.as_deref(), Some("/src/A/A.csproj"));
        let d = diag("/src/A/A.csproj(20,5): error : Custom check failed");
        assert_eq!((d.code.as_str(), d.message.as_str(), d.line), ("", "Custom check failed", Some(20)));
    }

    #[test]
    fn non_diagnostics_are_ignored() {
        for line in [
            "  Determining projects to restore...",
            "info : Adding PackageReference for package 'Serilog' into project 'App.csproj'.",
            "warn: Microsoft.AspNetCore.DataProtection.KeyManagement.XmlKeyManager[35]",
            "info: Microsoft.Hosting.Lifetime[14]",
            "Build FAILED.",
            "    1 Error(s)",
            "  App -> /src/App/bin/Debug/net10.0/App.dll",
            "  Error Message:",
            "   Assert.Equal() Failure: Values differ",
            "Note: this error CS1234: is prose",
            "Time Elapsed 00:00:01.92",
            "",
        ] {
            assert_eq!(parse_line(line), None, "{line}");
        }
    }

    const FAILED_BUILD: &str = "\
  Determining projects to restore...
  All projects are up-to-date for restore.
/src/App/Program.cs(3,1): warning IDE0005: Using directive is unnecessary. [/src/App/App.csproj]
/src/App/Program.cs(9,51): error CS0246: The type or namespace name 'Foo' could not be found (are you missing a using directive or an assembly reference?) [/src/App/App.csproj]
/src/App/Program.cs(12,9): error CS0103: The name 'bar' does not exist in the current context [/src/App/App.csproj]

Build FAILED.

/src/App/Program.cs(3,1): warning IDE0005: Using directive is unnecessary. [/src/App/App.csproj]
/src/App/Program.cs(9,51): error CS0246: The type or namespace name 'Foo' could not be found (are you missing a using directive or an assembly reference?) [/src/App/App.csproj]
/src/App/Program.cs(12,9): error CS0103: The name 'bar' does not exist in the current context [/src/App/App.csproj]
    1 Warning(s)
    2 Error(s)

Time Elapsed 00:00:01.92
";

    #[test]
    fn build_summary_is_deduplicated_in_order() {
        let summary = summarize(FAILED_BUILD.lines());
        let codes: Vec<_> = summary.errors.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(codes, ["CS0246", "CS0103"]);
        assert_eq!(summary.warnings.len(), 1);
        assert_eq!((summary.error_count, summary.warning_count), (2, 1));
        assert_eq!(parse(FAILED_BUILD.lines()).len(), 3);
    }

    #[test]
    fn reported_counts_win_when_larger() {
        // Two target frameworks report the same warning; MSBuild counts it twice.
        let output = "\
A.cs(1,1): warning CS8618: Non-nullable property 'Name' [A.csproj::TargetFramework=net8.0]
A.cs(1,1): warning CS8618: Non-nullable property 'Name' [A.csproj::TargetFramework=net10.0]
Build succeeded.
    2 Warning(s)
    0 Error(s)";
        let summary = summarize(output.lines());
        assert_eq!((summary.warnings.len(), summary.warning_count, summary.error_count), (1, 2, 0));
    }

    #[test]
    fn counts_never_below_listed_diagnostics() {
        let output =
            "error NU1101: Unable to find package Foo.\nerror NU1101: Unable to find package Bar.\n    1 Error(s)";
        assert_eq!(summarize(output.lines()).error_count, 2);
    }

    #[test]
    fn terminal_logger_counts() {
        let summary = summarize(["Build failed with 3 error(s) and 2 warning(s) in 4.2s"]);
        assert_eq!((summary.error_count, summary.warning_count), (3, 2));
        let summary = summarize(["Build succeeded with 1 warning(s) in 0.9s"]);
        assert_eq!((summary.error_count, summary.warning_count), (0, 1));
    }

    #[test]
    fn serializes_camel_case_without_empty_fields() {
        let d = diag("Program.cs(5,9,5,16): error CS0103: The name 'x' does not exist");
        let json = serde_json::to_value(&d).expect("serializes");
        assert_eq!(
            json,
            serde_json::json!({
                "file": "Program.cs", "line": 5, "column": 9, "endLine": 5, "endColumn": 16,
                "severity": "error", "code": "CS0103", "message": "The name 'x' does not exist"
            })
        );
        let summary = serde_json::to_value(summarize(["error NU1101: x"])).expect("serializes");
        assert_eq!(summary["errorCount"], 1);
        assert_eq!(summary["warningCount"], 0);
    }
}
