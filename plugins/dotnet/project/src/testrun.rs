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
//! per assembly, MTP one `Test run summary:` block (`total:`, `failed:`, `succeeded:`,
//! `skipped:`, `duration:`) per run. Failures come from VSTest's `Failed <name> [d]` blocks
//! (`Error Message:`, `Stack Trace:`) and MTP's `failed <name> (d)` blocks; `--list-tests`
//! output gives the test names.

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
    sync::LazyLock,
};

use dotnet_support::errors::{ErrorResponse, ErrorResult};
use regex::Regex;
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
    /// The contract's test-runner metadata; `has_project` says whether a project is passed.
    pub fn metadata(&self, has_project: bool) -> BTreeMap<String, String> {
        let runner = match self.runner {
            Runner::Mtp => "microsoft-testing-platform",
            Runner::VsTest => "vstest",
        };
        let style = match (has_project, self.runner) {
            (false, _) => "none",
            (true, Runner::Mtp) => "--project",
            (true, Runner::VsTest) => "positional",
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

/// The results of one test assembly (VSTest) or one run summary (MTP).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Assembly {
    /// The assembly (`App.Tests.dll (net10.0)`), or the MTP summary's target when it names one.
    pub name: String,
    /// Passed tests.
    pub passed: u64,
    /// Failed tests.
    pub failed: u64,
    /// Skipped tests.
    pub skipped: u64,
    /// All tests.
    pub total: u64,
    /// Its duration in milliseconds, when printed.
    pub duration_ms: u64,
}

/// One failed test.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Failure {
    /// The test's full name.
    pub test_name: String,
    /// The assertion message (at most [`MAX_TEXT`] characters).
    pub message: String,
    /// The stack trace (at most [`MAX_TEXT`] characters).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub stack_trace: String,
    /// How long it ran, in milliseconds, when printed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
}

/// Longest message or stack trace kept for one failure.
pub const MAX_TEXT: usize = 1000;
/// Most failures listed; the counts cover them all.
pub const MAX_FAILURES: usize = 20;

/// What a test run printed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// One entry per assembly (VSTest) or run summary (MTP).
    pub assemblies: Vec<Assembly>,
    /// The first [`MAX_FAILURES`] failures.
    pub failures: Vec<Failure>,
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
static VSTEST_FAILED: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*Failed\s+(\S.*?)\s+\[([^\]]*)\]\s*$").expect("VSTest failure pattern is valid"));
static MTP_FAILED: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^failed\s+(\S.*?)\s+\(([^()]*)\)\s*$").expect("MTP failure pattern is valid"));
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
                continue;
            }
            report.assemblies.extend(mtp_block.take());
        }
        if listing {
            match line.strip_prefix("    ") {
                Some(name) if !name.trim().is_empty() => {
                    report.listed.push(name.trim().to_owned());
                    continue;
                }
                _ => listing = false,
            }
        }
        if line.trim_start().starts_with("The following Tests are available:") {
            listing = true;
            continue;
        }
        if let Some(rest) = line.trim_start().strip_prefix("Test run summary:") {
            let name = rest.split_once(" - ").map(|(_, target)| target.trim().to_owned()).unwrap_or_default();
            mtp_block = Some(Assembly { name, ..Assembly::default() });
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
        let vstest = VSTEST_FAILED.captures(line);
        let mtp = if vstest.is_none() { MTP_FAILED.captures(line) } else { None };
        if let Some(caps) = vstest.as_ref().or(mtp.as_ref()) {
            mtp_failure = mtp.is_some();
            failures.push(Failure {
                test_name: caps[1].to_owned(),
                duration_ms: Some(parse_duration(&caps[2])),
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
        assert_eq!(found.metadata(true)["projectArgumentStyle"], "--project");
        let explicit = select(Some("VSTest"), false, &nested).unwrap();
        assert_eq!((explicit.runner, explicit.source), (Runner::VsTest, "testRunner-parameter"));
        assert_eq!(explicit.metadata(false)["projectArgumentStyle"], "none");
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
