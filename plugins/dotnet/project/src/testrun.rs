//! `dotnet test`: which test runner the SDK will use, and what its output says.
//!
//! Runner selection, recorded in the contract's test-runner metadata: an explicit `testRunner`
//! parameter (or the deprecated `useLegacyProjectArgument`, which means VSTest) wins; otherwise
//! the nearest `global.json` at or above the folder dotnet runs in decides, as the SDK decides:
//! `"test": { "runner": "Microsoft.Testing.Platform" }` selects Microsoft.Testing.Platform (MTP);
//! otherwise VSTest. Under MTP the project is passed with `--project`, under VSTest positionally.
//!
//! Results are summed over every test assembly: VSTest prints one
//! `Passed!|Failed!  - Failed: x, Passed: y, Skipped: z, Total: t, Duration: d - X.dll (tfm)` line
//! per assembly, MTP one `Test run summary:` block per run: for a run of several modules one
//! indented `<dll> (tfm|arch) passed (d)` line each and a blank line, then `total:`, `failed:`,
//! `succeeded:`, `skipped:`, `duration:` (SDK 10.0.401). Failures come from VSTest's
//! `Failed <name> [d]` blocks (`Error Message:`, `Stack Trace:`) and MTP's `failed <name> (d)`
//! blocks (`from <dll>`, the message indented by two, frames as `    at ... in <file>:<line>`
//! without a header). `--list-tests` gives the test names: VSTest after
//! `The following Tests are available:`, MTP after each `Discovered N tests in assembly - <dll>`.

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
    sync::LazyLock,
};

use dotnet_support::errors::{ErrorResponse, ErrorResult};
use regex::Regex;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

/// A test runner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Runner {
    /// The classic VSTest runner.
    VsTest,
    /// Microsoft.Testing.Platform.
    Mtp,
}

/// Which runner was chosen, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    /// The runner.
    pub runner: Runner,
    /// `testRunner-parameter`, `useLegacyProjectArgument-parameter`, `global.json` or `default`.
    pub source: &'static str,
    /// The global.json that decided, when one did.
    pub global_json: Option<PathBuf>,
}

impl Selection {
    /// The contract's test-runner metadata; `project` is the project or solution passed, if any.
    pub fn metadata(&self, project: Option<&str>) -> BTreeMap<String, String> {
        let runner = match self.runner {
            Runner::Mtp => "microsoft-testing-platform",
            Runner::VsTest => "vstest",
        };
        let style = match (project, self.runner) {
            (None, _) => "none",
            (Some(project), Runner::Mtp) => mtp_target_option(project),
            (Some(_), Runner::VsTest) => "positional",
        };
        let mut metadata = BTreeMap::from([
            ("selectedTestRunner".to_owned(), runner.to_owned()),
            ("projectArgumentStyle".to_owned(), style.to_owned()),
            ("selectionSource".to_owned(), self.source.to_owned()),
        ]);
        if let Some(path) = &self.global_json {
            metadata.insert("globalJson".to_owned(), path.display().to_string());
        }
        metadata
    }
}

/// The option that names `target` to `dotnet test` under Microsoft.Testing.Platform: `--solution`
/// for a solution (`.sln`, `.slnx`, `.slnf`), `--project` otherwise. (SDK 10.0.401 also runs a
/// solution given as `--project`; `--solution` is the documented form.)
pub fn mtp_target_option(target: &str) -> &'static str {
    let solution = Path::new(target)
        .extension()
        .and_then(|ext| ext.to_str())
        .is_some_and(|ext| ["sln", "slnx", "slnf"].iter().any(|known| ext.eq_ignore_ascii_case(known)));
    if solution { "--solution" } else { "--project" }
}

/// Chooses the runner. `explicit` is the `testRunner` parameter (`Auto`,
/// `MicrosoftTestingPlatform`, `VSTest`); `legacy` the deprecated `useLegacyProjectArgument`;
/// `dir` the folder dotnet will run in.
pub fn select(explicit: Option<&str>, legacy: bool, dir: &Path) -> Result<Selection, ErrorResponse> {
    let forced = match explicit.map(str::to_ascii_lowercase).as_deref() {
        None | Some("auto") => None,
        Some("microsofttestingplatform" | "mtp") => Some(Runner::Mtp),
        Some("vstest") => Some(Runner::VsTest),
        Some(other) => {
            return Err(ErrorResult::invalid_params(
                "testRunner",
                "invalid value",
                &format!(
                    "Invalid argument 'testRunner': must be Auto, MicrosoftTestingPlatform or VSTest (got '{other}')."
                ),
            )
            .into());
        }
    };
    if let Some(runner) = forced {
        return Ok(Selection { runner, source: "testRunner-parameter", global_json: None });
    }
    if legacy {
        return Ok(Selection {
            runner: Runner::VsTest,
            source: "useLegacyProjectArgument-parameter",
            global_json: None,
        });
    }
    let found = dir.ancestors().map(|folder| folder.join("global.json")).find(|path| path.is_file());
    if let Some(path) = found {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let runner = serde_json::from_str::<Value>(&strip_json_comments(&text))
            .ok()
            .and_then(|json| json.pointer("/test/runner").and_then(Value::as_str).map(str::to_owned));
        if runner.is_some_and(|runner| runner.eq_ignore_ascii_case("Microsoft.Testing.Platform")) {
            return Ok(Selection { runner: Runner::Mtp, source: "global.json", global_json: Some(path) });
        }
    }
    Ok(Selection { runner: Runner::VsTest, source: "default", global_json: None })
}

/// JSON with `//` and `/* */` comments (which the SDK accepts in global.json) removed; strings
/// are kept intact.
fn strip_json_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            match c {
                '\\' => out.extend(chars.next()),
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match (c, chars.peek()) {
            ('"', _) => {
                in_string = true;
                out.push(c);
            }
            ('/', Some('/')) => {
                for next in chars.by_ref() {
                    if next == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            ('/', Some('*')) => {
                chars.next();
                let mut last = ' ';
                for next in chars.by_ref() {
                    if last == '*' && next == '/' {
                        break;
                    }
                    last = next;
                }
                out.push(' ');
            }
            _ => out.push(c),
        }
    }
    out
}

// The results of one test assembly (VSTest) or one run summary (MTP).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Assembly {
    // The assembly (`App.Tests.dll (net10.0)`), or the MTP summary's target when it names one.
    pub name: String,
    // Passed tests.
    #[schemars(with = "i64")]
    pub passed: u64,
    // Failed tests.
    #[schemars(with = "i64")]
    pub failed: u64,
    // Skipped tests.
    #[schemars(with = "i64")]
    pub skipped: u64,
    // All tests.
    #[schemars(with = "i64")]
    pub total: u64,
    // Its duration in milliseconds, when printed.
    #[schemars(with = "i64")]
    pub duration_ms: u64,
}

// One failed test.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Failure {
    // The test's full name.
    pub test_name: String,
    // The assertion message (at most 1,000 characters).
    pub message: String,
    // The stack trace (at most 1,000 characters).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub stack_trace: String,
    // How long it ran, in milliseconds, when printed.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<i64>")]
    pub duration_ms: Option<u64>,
}

// One TRX report (VSTest's `--logger trx`, Microsoft.Testing.Platform's `--report-trx`), read
// back: the counts of its `UnitTestResult` elements by outcome, and its failures.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TrxReport {
    // The report file.
    pub file: String,
    // Passed tests.
    #[schemars(with = "i64")]
    pub passed: u64,
    // Failed tests (outcomes Failed, Error, Timeout, Aborted).
    #[schemars(with = "i64")]
    pub failed: u64,
    // Tests not run (NotExecuted, Inconclusive and the like).
    #[schemars(with = "i64")]
    pub skipped: u64,
    // All results.
    #[schemars(with = "i64")]
    pub total: u64,
    // The first 20 failures, with message and stack trace.
    pub failures: Vec<Failure>,
}

/// The TRX reports a run says it wrote: VSTest's `Results File: <path>` lines, and the
/// `- <path>.trx` lines under Microsoft.Testing.Platform's `file artifacts produced:`.
pub fn trx_paths(output: &str) -> Vec<PathBuf> {
    let mut paths = Vec::new();
    let mut artifacts = false;
    for line in output.lines() {
        let trimmed = line.trim();
        if let Some(path) = trimmed.strip_prefix("Results File:") {
            paths.push(PathBuf::from(path.trim()));
        } else if trimmed.ends_with("file artifacts produced:") {
            artifacts = true;
            continue;
        }
        match trimmed.strip_prefix("- ") {
            Some(path) if artifacts => {
                if path.to_ascii_lowercase().ends_with(".trx") {
                    paths.push(PathBuf::from(path));
                }
            }
            _ => artifacts = false,
        }
    }
    paths.dedup();
    paths
}

/// The MTP option that writes a TRX report. Microsoft.Testing.Platform's `--report-trx` needs
/// the Microsoft.Testing.Extensions.TrxReport package; xUnit v3 projects without it have their
/// own `--report-xunit-trx` (SDK 10.0.401 with xunit.v3.mtp-v2 4.0.2 answers `--report-trx` with
/// "Zero tests ran", exit 5). So a project file that references `xunit.v3...` and not the
/// extension gets xUnit's option; everything else (solutions, folders) MTP's.
pub fn mtp_trx_option(project: Option<&Path>) -> &'static str {
    let references: Vec<String> = project
        .filter(|path| path.is_file())
        .and_then(|path| std::fs::read_to_string(path).ok())
        .and_then(|text| dotnet_support::xml::parse(text.trim_start_matches('\u{feff}')).ok())
        .map(|root| {
            root.descendants_named("PackageReference")
                .iter()
                .filter_map(|reference| reference.attribute("Include"))
                .map(str::to_ascii_lowercase)
                .collect()
        })
        .unwrap_or_default();
    let xunit_v3 = references.iter().any(|name| name.starts_with("xunit.v3"));
    let extension = references.iter().any(|name| name == "microsoft.testing.extensions.trxreport");
    if xunit_v3 && !extension { "--report-xunit-trx" } else { "--report-trx" }
}

/// Reads the TRX report `file`; `None` when it is not a readable TRX document.
pub fn read_trx(file: &Path) -> Option<TrxReport> {
    let text = std::fs::read_to_string(file).ok()?;
    let root = dotnet_support::xml::parse(text.trim_start_matches('\u{feff}')).ok()?;
    if !root.name.eq_ignore_ascii_case("TestRun") {
        return None;
    }
    let mut report = TrxReport { file: file.display().to_string(), ..TrxReport::default() };
    for result in root.descendants_named("UnitTestResult") {
        report.total += 1;
        match result.attribute("outcome").unwrap_or_default().to_ascii_lowercase().as_str() {
            "passed" => report.passed += 1,
            "failed" | "error" | "timeout" | "aborted" => {
                report.failed += 1;
                let text = |name: &str| {
                    let lines =
                        result.descendants_named(name).first().map(|element| element.text()).unwrap_or_default();
                    cap(&lines.lines().map(str::trim).filter(|line| !line.is_empty()).collect::<Vec<_>>().join("\n"))
                };
                report.failures.push(Failure {
                    test_name: result.attribute("testName").unwrap_or_default().to_owned(),
                    message: text("Message"),
                    stack_trace: text("StackTrace"),
                    duration_ms: result.attribute("duration").map(parse_duration),
                });
            }
            _ => report.skipped += 1,
        }
    }
    report.failures.truncate(MAX_FAILURES);
    Some(report)
}

/// Longest message or stack trace kept for one failure.
pub const MAX_TEXT: usize = 1000;
/// Most failures listed; the counts cover them all.
pub const MAX_FAILURES: usize = 20;
/// Most skipped tests named; the counts cover them all.
pub const MAX_SKIPPED: usize = 50;

/// What a test run printed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// One entry per assembly (VSTest) or run summary (MTP).
    pub assemblies: Vec<Assembly>,
    /// The first [`MAX_FAILURES`] failures.
    pub failures: Vec<Failure>,
    /// The names of the first [`MAX_SKIPPED`] skipped tests, in the order the runner reported
    /// them (VSTest's `  Skipped <name> [d]` lines, MTP's `skipped <name> (d)`).
    pub skipped_tests: Vec<String>,
    /// Test names listed by `--list-tests`.
    pub listed: Vec<String>,
}

impl Report {
    fn sum(&self, field: impl Fn(&Assembly) -> u64) -> u64 {
        self.assemblies.iter().map(field).sum()
    }

    /// Passed tests, over every assembly.
    pub fn passed(&self) -> u64 {
        self.sum(|a| a.passed)
    }

    /// Failed tests, over every assembly.
    pub fn failed(&self) -> u64 {
        self.sum(|a| a.failed)
    }

    /// Skipped tests, over every assembly.
    pub fn skipped(&self) -> u64 {
        self.sum(|a| a.skipped)
    }

    /// All tests, over every assembly.
    pub fn total(&self) -> u64 {
        self.sum(|a| a.total)
    }

    /// The summed duration in milliseconds.
    pub fn duration_ms(&self) -> u64 {
        self.sum(|a| a.duration_ms)
    }

    /// One line for the model: `45 tests: 42 passed, 2 failed, 1 skipped in 2 assemblies (5.5 s).`
    pub fn summary(&self) -> String {
        if self.assemblies.is_empty() {
            return if self.listed.is_empty() {
                "No test results were reported (no test project, or every test was filtered out).".to_owned()
            } else {
                format!("{} tests found.", self.listed.len())
            };
        }
        let count = self.assemblies.len();
        format!(
            "{} tests: {} passed, {} failed, {} skipped in {count} {} ({:.1} s).",
            self.total(),
            self.passed(),
            self.failed(),
            self.skipped(),
            if count == 1 { "test run" } else { "test runs" },
            self.duration_ms() as f64 / 1000.0
        )
    }
}

static VSTEST_SUMMARY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^\s*(?:Passed|Failed|Skipped)!\s*-\s*Failed:\s*(\d+),\s*Passed:\s*(\d+),\s*Skipped:\s*(\d+),\s*Total:\s*(\d+)(?:,\s*Duration:\s*(.*?))?(?:\s+-\s+(\S.*?))?\s*$",
    )
    .expect("VSTest summary pattern is valid")
});
/// VSTest's line for one test's outcome, `  Failed <name> [d]` (also `Passed` and `Skipped`, which
/// follow a failure's stack trace without a blank line on SDK 10.0.401 and end its block).
static VSTEST_RESULT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(Failed|Passed|Skipped)\s+(\S.*?)\s+\[([^\]]*)\]\s*$").expect("VSTest result pattern is valid")
});
/// MTP's line for a failed or skipped test, `failed <name> (d)`, `skipped <name>` (SDK 10.0.401
/// prints no duration for a skipped test; its reason follows, indented).
static MTP_RESULT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(failed|skipped)\s+(\S.*?)(?:\s+\(([^()]*)\))?\s*$").expect("MTP result pattern is valid")
});
static MTP_MODULE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(\S.*?\([^()|]+\|[^()|]+\))\s+(?:passed|failed|skipped|aborted|crashed|canceled|cancelled)\b.*\([^()]*\)\s*$")
        .expect("MTP module result pattern is valid")
});
static MTP_COUNT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s+(total|failed|succeeded|skipped|duration):\s*(.*?)\s*$").expect("MTP count pattern is valid")
});
static DURATION_PART: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(\d+(?:\.\d+)?)\s*(ms|h|m|s)\b").expect("duration pattern is valid"));

/// Milliseconds of a printed duration: `4 s`, `842 ms`, `< 1 ms`, `1 m 5 s`, `4s 210ms`,
/// `1m 05s 120ms`, `00:00:04.21`.
pub fn parse_duration(text: &str) -> u64 {
    let text = text.trim();
    if text.starts_with('<') {
        return 0;
    }
    if text.contains(':') {
        let parts: Vec<f64> = text.split(':').filter_map(|part| part.trim().parse().ok()).collect();
        let seconds = parts.iter().fold(0.0, |total, part| total * 60.0 + part);
        return (seconds * 1000.0).round() as u64;
    }
    DURATION_PART
        .captures_iter(text)
        .map(|caps| {
            let value: f64 = caps[1].parse().unwrap_or(0.0);
            let unit = match &caps[2] {
                "h" => 3_600_000.0,
                "m" => 60_000.0,
                "s" => 1000.0,
                _ => 1.0,
            };
            (value * unit).round() as u64
        })
        .sum()
}

fn cap(text: &str) -> String {
    match text.char_indices().nth(MAX_TEXT) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

/// Where the failure parser is inside a failure block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Block {
    Outside,
    Message,
    Stack,
}

/// Reads the output of `dotnet test` (either runner).
pub fn parse(output: &str) -> Report {
    let mut report = Report::default();
    let mut failures: Vec<Failure> = Vec::new();
    let mut block = Block::Outside;
    let mut mtp_block: Option<Assembly> = None;
    // Whether the MTP summary block has given a count yet (module lines and a blank line come
    // before the counts when several modules ran).
    let mut mtp_counted = false;
    // The modules MTP reported a result for, which name a summary that names no target.
    let mut mtp_modules: Vec<String> = Vec::new();
    let mut listing = false;
    // Whether the current failure block is MTP's, whose message lines are all indented (VSTest
    // prints message lines after the first one without indentation).
    let mut mtp_failure = false;
    for line in output.lines() {
        if let Some(assembly) = mtp_block.as_mut() {
            if let Some(caps) = MTP_COUNT.captures(line) {
                let number = caps[2].parse::<u64>().unwrap_or(0);
                match &caps[1] {
                    "total" => assembly.total = number,
                    "failed" => assembly.failed = number,
                    "succeeded" => assembly.passed = number,
                    "skipped" => assembly.skipped = number,
                    _ => assembly.duration_ms = parse_duration(&caps[2]),
                }
                mtp_counted = true;
                continue;
            }
            if !mtp_counted && (line.trim().is_empty() || line.starts_with(' ')) {
                continue;
            }
            report.assemblies.extend(mtp_block.take());
        }
        if listing {
            // VSTest indents the names by four, MTP by two; VSTest ends the list with an
            // unindented line, MTP with a blank one.
            if line.starts_with(' ') && !line.trim().is_empty() {
                report.listed.push(line.trim().to_owned());
                continue;
            }
            listing = false;
        }
        let trimmed = line.trim_start();
        if trimmed.starts_with("The following Tests are available:")
            || (trimmed.starts_with("Discovered ") && trimmed.contains(" tests in assembly - "))
        {
            listing = true;
            continue;
        }
        if let Some(caps) = MTP_MODULE.captures(line) {
            mtp_modules.push(caps[1].to_owned());
        }
        if let Some(rest) = trimmed.strip_prefix("Test run summary:") {
            let modules = std::mem::take(&mut mtp_modules);
            let name = match rest.split_once(" - ") {
                Some((_, target)) => target.trim().to_owned(),
                None => modules.join(", "),
            };
            mtp_block = Some(Assembly { name, ..Assembly::default() });
            mtp_counted = false;
            block = Block::Outside;
            continue;
        }
        if let Some(caps) = VSTEST_SUMMARY.captures(line) {
            let number = |index: usize| caps.get(index).and_then(|m| m.as_str().parse::<u64>().ok()).unwrap_or(0);
            report.assemblies.push(Assembly {
                name: caps.get(6).map(|m| m.as_str().to_owned()).unwrap_or_default(),
                failed: number(1),
                passed: number(2),
                skipped: number(3),
                total: number(4),
                duration_ms: caps.get(5).map_or(0, |m| parse_duration(m.as_str())),
            });
            block = Block::Outside;
            continue;
        }
        let vstest = VSTEST_RESULT.captures(line);
        let mtp = if vstest.is_none() { MTP_RESULT.captures(line) } else { None };
        if let Some(caps) = vstest.as_ref().or(mtp.as_ref()).filter(|caps| !caps[1].eq_ignore_ascii_case("failed")) {
            if caps[1].eq_ignore_ascii_case("skipped") && report.skipped_tests.len() < MAX_SKIPPED {
                report.skipped_tests.push(caps[2].to_owned());
            }
            block = Block::Outside;
            continue;
        }
        let vstest = vstest.map(|caps| (caps.get(2), caps.get(3)));
        let mtp = mtp.map(|caps| (caps.get(2), caps.get(3)));
        if let Some((Some(name), Some(duration))) = vstest.or(mtp) {
            mtp_failure = vstest.is_none();
            failures.push(Failure {
                test_name: name.as_str().to_owned(),
                duration_ms: Some(parse_duration(duration.as_str())),
                ..Failure::default()
            });
            block = Block::Message;
            continue;
        }
        let Some(current) = failures.last_mut().filter(|_| block != Block::Outside) else { continue };
        let trimmed = line.trim();
        if trimmed == "Error Message:" {
            block = Block::Message;
        } else if trimmed == "Stack Trace:" {
            block = Block::Stack;
        } else if mtp_failure && block == Block::Message && current.message.is_empty() && line.starts_with("  from ") {
            // MTP names the module the failed test is in before the message.
        } else if mtp_failure && block == Block::Message && line.starts_with("    at ") {
            // MTP prints no header before the frames: its first frame starts the stack trace.
            block = Block::Stack;
            current.stack_trace.push_str(trimmed);
        } else if trimmed.is_empty()
            || !(line.starts_with(' ') || line.starts_with('\t') || (block == Block::Message && !mtp_failure))
        {
            block = Block::Outside;
        } else {
            let text = if block == Block::Message { &mut current.message } else { &mut current.stack_trace };
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(trimmed);
        }
    }
    report.assemblies.extend(mtp_block);
    for failure in &mut failures {
        failure.message = cap(&failure.message);
        failure.stack_trace = cap(&failure.stack_trace);
    }
    failures.truncate(MAX_FAILURES);
    report.failures = failures;
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    const VSTEST: &str = "\
Test run for /src/App.Tests/bin/Debug/net10.0/App.Tests.dll (.NETCoreApp,Version=v10.0)
A total of 1 test files matched the specified pattern.
  Failed App.Tests.CalculatorTests.Divide_ByZero_Throws [4 ms]
  Error Message:
   Assert.Throws() Failure: No exception was thrown
Expected: typeof(System.DivideByZeroException)
  Stack Trace:
     at App.Tests.CalculatorTests.Divide_ByZero_Throws() in /src/CalculatorTests.cs:line 27
   at System.RuntimeMethodHandle.InvokeMethod(Object target)

  Skipped App.Tests.Integration.DatabaseTests.Migrations_ApplyCleanly [1 ms]

Failed!  - Failed:     2, Passed:    40, Skipped:     1, Total:    43, Duration: 4 s - App.Tests.dll (net10.0)
Test run for /src/Lib.Tests/bin/Debug/net10.0/Lib.Tests.dll (.NETCoreApp,Version=v10.0)

Passed!  - Failed:     0, Passed:    18, Skipped:     0, Total:    18, Duration: 1 s - Lib.Tests.dll (net10.0)
";

    const MTP: &str = "\
Running tests from /src/App/bin/Debug/net10.0/App.dll (net10.0|x64)
failed App.CalculatorTests.Divide_ByZero_Throws (4ms)
  Assert.Throws() Failure: No exception was thrown
  Expected: typeof(System.DivideByZeroException)
  Stack Trace:
    at App.CalculatorTests.Divide_ByZero_Throws() in /src/CalculatorTests.cs:line 27
skipped App.Integration.DatabaseTests.Migrations_ApplyCleanly (0ms)
/src/App/bin/Debug/net10.0/App.dll (net10.0|x64) failed with 1 error(s) (4s 210ms)

Test run summary: Failed! - /src/App/bin/Debug/net10.0/App.dll (net10.0|x64)
  total: 43
  failed: 1
  succeeded: 41
  skipped: 1
  duration: 4s 210ms
";

    #[test]
    fn vstest_counts_are_summed_over_every_assembly() {
        let report = parse(VSTEST);
        assert_eq!(report.assemblies.len(), 2);
        assert_eq!((report.passed(), report.failed(), report.skipped(), report.total()), (58, 2, 1, 61));
        assert_eq!(report.duration_ms(), 5000);
        assert_eq!(report.assemblies[1].name, "Lib.Tests.dll (net10.0)");
        assert_eq!(report.failures.len(), 1);
        let failure = &report.failures[0];
        assert_eq!(failure.test_name, "App.Tests.CalculatorTests.Divide_ByZero_Throws");
        assert_eq!(
            failure.message,
            "Assert.Throws() Failure: No exception was thrown\nExpected: typeof(System.DivideByZeroException)"
        );
        assert!(
            failure.stack_trace.starts_with("at App.Tests.CalculatorTests")
                && failure.stack_trace.contains("\nat System")
        );
        assert_eq!(failure.duration_ms, Some(4));
        assert_eq!(report.summary(), "61 tests: 58 passed, 2 failed, 1 skipped in 2 test runs (5.0 s).");
        assert_eq!(report.skipped_tests, ["App.Tests.Integration.DatabaseTests.Migrations_ApplyCleanly"]);
    }

    #[test]
    fn skipped_tests_are_named_as_the_runner_lists_them() {
        // SDK 10.0.401, xunit 2.9.3 (VSTest): three skipped tests, one of them a theory; the
        // adapter's own `[SKIP]` lines come first and name them again.
        let output = "\
/tmp/xt/UnitTest1.cs(8,13): warning CS0168: The variable 'unused' is declared but never used [/tmp/xt/Xt.csproj]
  Xt -> /tmp/xt/bin/Debug/net10.0/Xt.dll
Test run for /tmp/xt/bin/Debug/net10.0/Xt.dll (.NETCoreApp,Version=v10.0)
A total of 1 test files matched the specified pattern.
[xUnit.net 00:00:00.22]     Xt.UnitTest1.SkippedTwo [SKIP]
[xUnit.net 00:00:00.24]     Xt.UnitTest1.SkippedOne [SKIP]
[xUnit.net 00:00:00.24]     Xt.UnitTest1.SkippedTheory [SKIP]
  Skipped Xt.UnitTest1.SkippedTwo [1 ms]
  Skipped Xt.UnitTest1.SkippedOne [1 ms]
  Skipped Xt.UnitTest1.SkippedTheory [1 ms]

Passed!  - Failed:     0, Passed:     1, Skipped:     3, Total:     4, Duration: 29 ms - Xt.dll (net10.0)
";
        let report = parse(output);
        assert_eq!(
            report.skipped_tests,
            ["Xt.UnitTest1.SkippedTwo", "Xt.UnitTest1.SkippedOne", "Xt.UnitTest1.SkippedTheory"]
        );
        assert_eq!((report.skipped(), report.failures.len()), (3, 0));
        assert_eq!(parse(MTP).skipped_tests, ["App.Integration.DatabaseTests.Migrations_ApplyCleanly"]);
        // SDK 10.0.401, MTP: no duration, the reason and the module on the lines after.
        let mtp = "\
skipped Tests.CalculatorTests.Subtracts
  not written yet
  from /w/Calc.Tests/bin/Debug/net10.0/Calc.Tests.dll (net10.0|x64)
skipped Tests.CalculatorTests.Sums(a: 1) (0ms)
failed Tests.CalculatorTests.Divides (1ms)
  from /w/Calc.Tests/bin/Debug/net10.0/Calc.Tests.dll (net10.0|x64)
  Assert.Equal() Failure: Values differ
";
        let report = parse(mtp);
        assert_eq!(report.skipped_tests, ["Tests.CalculatorTests.Subtracts", "Tests.CalculatorTests.Sums(a: 1)"]);
        assert_eq!(report.failures.len(), 1);
        assert_eq!(report.failures[0].message, "Assert.Equal() Failure: Values differ");
        let many: String = (0..MAX_SKIPPED + 5).map(|n| format!("  Skipped T.C.Case{n} [1 ms]\n")).collect();
        let named = parse(&many).skipped_tests;
        assert_eq!((named.len(), named.last().map(String::as_str)), (MAX_SKIPPED, Some("T.C.Case49")));
    }

    #[test]
    fn a_skipped_test_right_after_a_stack_trace_ends_it() {
        // SDK 10.0.401, xunit 2.9.3: `dotnet test` of a theory failing once and a skipped fact.
        let output = "\
  Failed Api.Tests.UnitTest1.Adds(a: 2, b: 3) [23 ms]
  Error Message:
   Assert.Equal() Failure: Values differ
Expected: 2
Actual:   3
  Stack Trace:
     at Api.Tests.UnitTest1.Adds(Int32 a, Int32 b) in /src/Shop/Api.Tests/UnitTest1.cs:line 19
   at InvokeStub_UnitTest1.Adds(Object, Span`1)
  Skipped Api.Tests.UnitTest1.Skipped [1 ms]

Failed!  - Failed:     1, Passed:     2, Skipped:     1, Total:     4, Duration: 99 ms - Api.Tests.dll (net10.0)
";
        let report = parse(output);
        assert_eq!(report.failures.len(), 1);
        assert_eq!(
            report.failures[0].stack_trace,
            "at Api.Tests.UnitTest1.Adds(Int32 a, Int32 b) in /src/Shop/Api.Tests/UnitTest1.cs:line 19\n\
             at InvokeStub_UnitTest1.Adds(Object, Span`1)"
        );
        assert_eq!((report.failed(), report.skipped()), (1, 1));
    }

    #[test]
    fn mtp_summary_blocks_give_the_counts() {
        let report = parse(MTP);
        assert_eq!(report.assemblies.len(), 1);
        let summary = &report.assemblies[0];
        assert_eq!((summary.total, summary.failed, summary.passed, summary.skipped), (43, 1, 41, 1));
        assert_eq!(summary.duration_ms, 4210);
        assert_eq!(summary.name, "/src/App/bin/Debug/net10.0/App.dll (net10.0|x64)");
        assert_eq!(report.failures[0].test_name, "App.CalculatorTests.Divide_ByZero_Throws");
        assert!(report.failures[0].message.ends_with("DivideByZeroException)"));
        assert!(report.failures[0].stack_trace.starts_with("at App.CalculatorTests"));
        let twice = parse(&format!("{MTP}\n{MTP}"));
        assert_eq!((twice.total(), twice.failed()), (86, 2));
    }

    #[test]
    fn listed_tests_and_an_empty_run() {
        let report = parse("Test run for x.dll\n\nThe following Tests are available:\n    A.B.C\n    A.B.D\nafter\n");
        assert_eq!(report.listed, ["A.B.C", "A.B.D"]);
        assert_eq!(report.summary(), "2 tests found.");
        assert!(parse("Build succeeded.").summary().starts_with("No test results"));
    }

    /// What SDK 10.0.401 printed and wrote for the real-SDK scenario's calculator tests (xUnit v3
    /// on Microsoft.Testing.Platform, `--report-xunit-trx`), its folder normalised to `/src`.
    const RECORDED_TRX: &str = include_str!("../tests/fixtures/xunit-v3-mtp.trx");

    #[test]
    fn a_recorded_trx_report_is_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("run.trx");
        std::fs::write(&file, RECORDED_TRX).unwrap();
        let report = read_trx(&file).unwrap();
        assert_eq!((report.passed, report.failed, report.skipped, report.total), (1, 1, 1, 3));
        let [failure] = report.failures.as_slice() else { panic!("{:?}", report.failures) };
        assert_eq!(failure.test_name, "Tests.CalculatorTests.Divides");
        assert_eq!(failure.message, "Assert.Equal() Failure: Values differ\nExpected: 3\nActual:   4");
        let frames: Vec<&str> = failure.stack_trace.lines().collect();
        assert_eq!(frames[0], "at Tests.CalculatorTests.Divides() in /src/Calc.Tests/CalculatorTests.cs:line 11");
        assert_eq!(frames.len(), 3);
        assert_eq!(failure.duration_ms, Some(185));
        std::fs::write(&file, "<Project />").unwrap();
        assert!(read_trx(&file).is_none(), "not a TRX document");
        assert!(read_trx(&dir.path().join("missing.trx")).is_none());
    }

    #[test]
    fn trx_paths_come_from_either_runners_output() {
        let mtp = "Exit code: 2\n\n  In process file artifacts produced:\n    - /r/root_vm_2026.trx\n    - /r/x.log\n\nTest run summary: Failed!\n";
        assert_eq!(trx_paths(mtp), [PathBuf::from("/r/root_vm_2026.trx")]);
        let vstest = "Results File: /src/TestResults/a.trx\nFailed!  - Failed: 1\n";
        assert_eq!(trx_paths(vstest), [PathBuf::from("/src/TestResults/a.trx")]);
        assert!(trx_paths("- /not/after/a/header.trx").is_empty());
    }

    #[test]
    fn xunit_v3_projects_get_xunits_trx_option() {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().join("Calc.Tests.csproj");
        let write = |references: &str| {
            std::fs::write(
                &project,
                format!("<Project Sdk=\"Microsoft.NET.Sdk\"><ItemGroup>{references}</ItemGroup></Project>"),
            )
            .unwrap()
        };
        write(r#"<PackageReference Include="xunit.v3.mtp-v2" Version="4.0.2" />"#);
        assert_eq!(mtp_trx_option(Some(&project)), "--report-xunit-trx");
        write(
            r#"<PackageReference Include="xunit.v3" /><PackageReference Include="Microsoft.Testing.Extensions.TrxReport" />"#,
        );
        assert_eq!(mtp_trx_option(Some(&project)), "--report-trx");
        write(r#"<PackageReference Include="MSTest" Version="4.0.0" />"#);
        assert_eq!(mtp_trx_option(Some(&project)), "--report-trx");
        assert_eq!(mtp_trx_option(Some(&dir.path().join("All.slnx"))), "--report-trx");
        assert_eq!(mtp_trx_option(None), "--report-trx");
    }

    /// The recorded MTP output of the real-SDK scenario `tests` (`recordings/tests`): the run of
    /// one module, `--list-tests`, and a solution of two modules.
    fn recorded(argv_ends_with: &str, scenario: Option<&str>) -> String {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../test-double/recordings/tests");
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().flatten().map(|entry| entry.path()).collect();
        files.sort();
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            let header = |name: &str| {
                text.lines().find_map(|line| line.strip_prefix(&format!("## {name}: ")).map(str::to_owned))
            };
            let argv = header("argv").unwrap_or_default();
            if argv.ends_with(argv_ends_with) && header("double-scenario").as_deref() == scenario {
                let body = text.lines().filter(|line| !line.starts_with("## "));
                return body.map(|line| line.strip_prefix("2> ").unwrap_or(line)).collect::<Vec<_>>().join("\n");
            }
        }
        panic!("no recording in {} whose argv ends with {argv_ends_with}", dir.display());
    }

    #[test]
    fn recorded_mtp_outputs_are_read() {
        let run = parse(&recorded(r#"Calc.Tests/Calc.Tests.csproj"]"#, Some("test-fail")));
        assert_eq!((run.passed(), run.failed(), run.skipped(), run.total()), (1, 1, 1, 3));
        let failure = &run.failures[0];
        assert_eq!(failure.message, "Assert.Equal() Failure: Values differ\nExpected: 3\nActual:   4");
        assert!(failure.stack_trace.starts_with("at Tests.CalculatorTests.Divides() in "));
        assert_eq!(failure.stack_trace.lines().count(), 3);
        assert_eq!(run.failures.len(), 1);

        let listed = parse(&recorded(r#"Calc.Tests/Calc.Tests.csproj","--list-tests"]"#, None));
        assert_eq!(
            listed.listed,
            ["Tests.CalculatorTests.Adds", "Tests.CalculatorTests.Divides", "Tests.CalculatorTests.Subtracts"]
        );
        assert!(listed.assemblies.is_empty());

        let solution = parse(&recorded(r#"Mtp.slnx"]"#, Some("test-fail")));
        assert_eq!((solution.passed(), solution.failed(), solution.skipped(), solution.total()), (2, 1, 1, 4));
        assert_eq!(solution.assemblies.len(), 1);
        assert!(solution.assemblies[0].name.contains("More.Tests.dll (net10.0|x64)"));
    }

    #[test]
    fn durations_in_every_runner_format() {
        for (text, ms) in [
            ("4 s", 4000),
            ("842 ms", 842),
            ("< 1 ms", 0),
            ("1 m 5 s", 65_000),
            ("4s 210ms", 4210),
            ("1m 05s 120ms", 65_120),
            ("00:00:04.21", 4210),
            ("1.5 s", 1500),
            ("2h", 7_200_000),
        ] {
            assert_eq!(parse_duration(text), ms, "{text}");
        }
    }

    #[test]
    fn runner_selection_order() {
        let dir = tempfile::tempdir().unwrap();
        let nested = dir.path().join("src/App.Tests");
        std::fs::create_dir_all(&nested).unwrap();
        let default = select(None, false, &nested).unwrap();
        assert_eq!((default.runner, default.source), (Runner::VsTest, "default"));
        std::fs::write(
            dir.path().join("global.json"),
            "{\n  // the SDK reads comments\n  \"sdk\": { \"version\": \"10.0.100\" /* pinned */ },\n  \"test\": { \"runner\": \"Microsoft.Testing.Platform\" }\n}",
        )
        .unwrap();
        let found = select(Some("Auto"), false, &nested).unwrap();
        assert_eq!((found.runner, found.source), (Runner::Mtp, "global.json"));
        assert_eq!(found.global_json.as_deref(), Some(dir.path().join("global.json").as_path()));
        assert_eq!(found.metadata(Some("A.csproj"))["projectArgumentStyle"], "--project");
        assert_eq!(found.metadata(Some("All.slnx"))["projectArgumentStyle"], "--solution");
        let explicit = select(Some("VSTest"), false, &nested).unwrap();
        assert_eq!((explicit.runner, explicit.source), (Runner::VsTest, "testRunner-parameter"));
        assert_eq!(explicit.metadata(None)["projectArgumentStyle"], "none");
        let legacy = select(None, true, &nested).unwrap();
        assert_eq!(legacy.source, "useLegacyProjectArgument-parameter");
        assert!(select(Some("nunit"), false, &nested).is_err());
    }

    #[test]
    fn comments_are_stripped_outside_strings() {
        assert_eq!(strip_json_comments("{\"a\": \"//x\" // c\n}"), "{\"a\": \"//x\" \n}");
        assert_eq!(strip_json_comments("{/* c */\"b\":\"\\\"/*\"}"), "{ \"b\":\"\\\"/*\"}");
    }
}
