//! Test: `dotnet test` with the runner the project uses (VSTest or Microsoft.Testing.Platform,
//! module `testrun`), run where the SDK sees the project's global.json, under the project lock.

use std::path::Path;

use std::collections::BTreeMap;

use dotnet_support::{
    diagnostics::Diagnostic,
    errors::code,
    exec::ProgressKind,
    kit::{Call, Outcome, Reason, invalid},
    locking,
    params::Kind,
    respond::{self, Failure, Reply},
};
use schemars::JsonSchema;
use serde::Serialize;

use super::{TARGET, build_options, diagnostics_of, lock, push, push_flag, run_in};
use crate::testrun::{self, Assembly, Runner, TrxReport};

// What a test run reports, success or failure: the counts, failures and assemblies.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TestCounts {
    passed: i64,
    failed: i64,
    skipped: i64,
    total: i64,
    duration_ms: i64,
    summary: String,
    failures: Vec<testrun::Failure>,
    // The names of the first `testrun::MAX_SKIPPED` skipped tests (`skipped` counts them all).
    skipped_tests: Vec<String>,
    assemblies: Vec<Assembly>,
    // The warnings the run's build printed, as Build reports them.
    warnings: Vec<Diagnostic>,
    // The project or solution tested, as the runner got it.
    #[serde(skip_serializing_if = "Option::is_none")]
    project: Option<String>,
    // With listTests: the tests listed.
    #[serde(skip_serializing_if = "Option::is_none")]
    tests: Option<Vec<String>>,
    /// With logger trx: each TRX report the run wrote, read back (counts, failures with message
    /// and stack trace).
    #[serde(skip_serializing_if = "Option::is_none")]
    trx: Option<Vec<TrxReport>>,
}

// Test: the counts, failures and the runner chosen.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Tested {
    #[serde(flatten)]
    counts: TestCounts,
    /// Test-runner metadata: selectedTestRunner (microsoft-testing-platform | vstest),
    /// projectArgumentStyle (--project | --solution | positional | none), selectionSource
    /// (testRunner-parameter | useLegacyProjectArgument-parameter | global.json | default),
    /// globalJson.
    metadata: BTreeMap<String, String>,
}

/// Test.
pub(super) async fn test(call: &Call<'_>) -> Outcome {
    {
        let target = call.cli_target(TARGET).await?;
        let explicit_dir = call.params().opt("workingDirectory", Kind::Path)?.is_some();
        // Run where the SDK sees the project's global.json, which decides the runner.
        let (dir, project) = match &target {
            Some(target) if !explicit_dir => {
                let absolute = locking::canonical(&call.cwd().join(target));
                let dir = if absolute.is_dir() {
                    absolute.clone()
                } else {
                    absolute.parent().unwrap_or(call.cwd()).to_owned()
                };
                (dir, Some(absolute.display().to_string()))
            }
            _ => (call.cwd().to_owned(), target.clone()),
        };
        let selection = testrun::select(
            call.params().opt("testRunner", Kind::Identifier)?,
            call.params().flag("useLegacyProjectArgument"),
            &dir,
        )?;
        let mtp = selection.runner == Runner::Mtp;
        let mut args = vec!["test".to_owned()];
        if let Some(project) = &project {
            if mtp {
                args.push(testrun::mtp_target_option(project).to_owned());
            }
            args.push(project.clone());
        }
        build_options(call, &mut args, &["configuration", "framework"])?;
        push(call, &mut args, "--filter", "filter", Kind::Text)?;
        if let Some(collect) = call.params().opt("collect", Kind::Text)? {
            match (mtp, collect.to_ascii_lowercase().contains("coverage")) {
                (false, _) => args.extend(["--collect".to_owned(), collect.to_owned()]),
                (true, true) => args.push("--coverage".to_owned()),
                (true, false) => {
                    let message = format!(
                        "Invalid argument 'collect': '{collect}' is a VSTest data collector; under Microsoft.Testing.Platform only code coverage (--coverage) is available."
                    );
                    return Err(invalid("collect", Reason::NotSupported, message).into());
                }
            }
        }
        if let Some(results) = call.params().opt("resultsDirectory", Kind::Path)? {
            let results =
                if dir == call.cwd() { results.to_owned() } else { call.cwd().join(results).display().to_string() };
            args.extend(["--results-directory".to_owned(), results]);
        }
        let trx = call
            .params()
            .opt("logger", Kind::Text)?
            .is_some_and(|logger| logger.to_ascii_lowercase().starts_with("trx"));
        if let Some(logger) = call.params().opt("logger", Kind::Text)? {
            match (mtp, logger.to_ascii_lowercase().starts_with("trx")) {
                (false, _) => args.extend(["--logger".to_owned(), logger.to_owned()]),
                (true, true) => args.push(testrun::mtp_trx_option(project.as_deref().map(Path::new)).to_owned()),
                (true, false) => {
                    let message = format!(
                        "Invalid argument 'logger': '{logger}' is a VSTest logger; under Microsoft.Testing.Platform only trx (--report-trx) is available."
                    );
                    return Err(invalid("logger", Reason::NotSupported, message).into());
                }
            }
        }
        push_flag(call, &mut args, "--no-build", "noBuild");
        push_flag(call, &mut args, "--no-restore", "noRestore");
        build_options(call, &mut args, &["verbosity"])?;
        if call.params().flag("blame") {
            if mtp {
                let message = "Invalid argument 'blame': is a VSTest option; under Microsoft.Testing.Platform add the crash and hang dump extensions to the test project instead.";
                return Err(invalid("blame", Reason::NotSupported, message).into());
            }
            args.push("--blame".to_owned());
        }
        push_flag(call, &mut args, "--list-tests", "listTests");

        let _guard = lock(call, target.as_deref().map(Path::new)).await?;
        let label = project.clone().unwrap_or_else(|| "the working directory".to_owned());
        let ran = run_in(call, &dir, args, format!("Testing {label}"), ProgressKind::Test).await;
        let metadata = selection.metadata(project.as_deref());
        let ran = ran.map_err(|mut failure| {
            for (key, value) in &metadata {
                failure.error = failure.error.clone().with_metadata(key.clone(), value);
            }
            failure
        })?;
        let report = testrun::parse(&ran.outcome.transcript);
        let warnings = diagnostics_of(&ran).warnings;
        let warning_lines: Vec<String> = warnings.iter().map(Diagnostic::line).collect();
        let skipped_lines = skipped_tests(&report.skipped_tests, report.skipped() as usize);
        let summary = report.summary();
        let trx = trx.then(|| {
            testrun::trx_paths(&ran.outcome.transcript)
                .iter()
                .filter_map(|file| testrun::read_trx(&dir.join(file)))
                .collect::<Vec<TrxReport>>()
        });
        let counts = TestCounts {
            passed: report.passed() as i64,
            failed: report.failed() as i64,
            skipped: report.skipped() as i64,
            total: report.total() as i64,
            duration_ms: report.duration_ms() as i64,
            summary: summary.clone(),
            failures: report.failures.clone(),
            skipped_tests: report.skipped_tests.clone(),
            assemblies: report.assemblies.clone(),
            warnings,
            project: project.clone(),
            tests: (!report.listed.is_empty()).then(|| report.listed.clone()),
            trx,
        };
        let (failed_heading, failure_lines) = failed_tests(&report.failures, report.failed() as usize);
        if !ran.succeeded() {
            let mut error = ran.failure();
            if report.failed() > 0 && error.errors[0].code.starts_with(code::EXIT_PREFIX) {
                error.errors[0].message = format!(
                    "{} of {} tests failed ({} passed, {} skipped).",
                    report.failed(),
                    report.total(),
                    report.passed(),
                    report.skipped()
                );
                error.errors[0].hint =
                    Some("Fix the first failure, then run again with 'filter' naming it to check it alone.".to_owned());
            }
            for (key, value) in &metadata {
                error = error.with_metadata(key.clone(), value);
            }
            return Err(Failure::with_fields(error, serde_json::to_value(&counts).ok())
                .section(failed_heading, failure_lines)
                .section("Skipped tests", skipped_lines)
                .section("Warnings", warning_lines));
        }
        let tests = report.listed.clone();
        Ok(Reply::new(summary)
            .section(failed_heading, failure_lines)
            .section("Skipped tests", skipped_lines)
            .section("Warnings", warning_lines)
            .section("Tests", tests)
            .read_output(ran.outcome.transcript.clone())
            .result(Tested { counts, metadata }))
    }
}

/// The model's list of failing tests, and its heading: each class named once with its failing
/// tests under it, each test's whole message on one line, and its first frame with a source
/// location (the user's code: framework frames have none), the file named from the folder all
/// those frames share, which the heading names once. When the run failed more tests than were
/// kept (`testrun::MAX_FAILURES`), the last line says how many are left out and how to see them.
/// Full stack traces stay in `failures`.
fn failed_tests(failures: &[testrun::Failure], failed: usize) -> (String, Vec<String>) {
    let frames: Vec<Option<(&str, &str)>> =
        failures.iter().map(|failure| first_located_frame(&failure.stack_trace)).collect();
    let base = respond::common_folder(frames.iter().flatten().map(|(file, _)| *file));
    let tests = failures.iter().zip(&frames).map(|(failure, frame)| {
        let message: Vec<&str> = failure.message.lines().map(str::trim).filter(|line| !line.is_empty()).collect();
        let at = frame.map_or_else(String::new, |(file, line)| {
            format!(" (at {}:{line})", file.strip_prefix(base.as_str()).unwrap_or(file))
        });
        let (class, test) = split_test_name(&failure.test_name);
        (class, format!("{test}: {}{at}", message.join("; ")))
    });
    // Classes in the order their first failure came, each with its tests.
    let mut lines: Vec<String> = respond::group_in_order(tests, |(class, _)| *class)
        .into_iter()
        .flat_map(|(class, tests)| {
            let tests = tests.into_iter().map(|(_, test)| test);
            match class {
                "" => tests.collect::<Vec<_>>(),
                class => std::iter::once(format!("{class}:")).chain(tests.map(|test| format!("  {test}"))).collect(),
            }
        })
        .collect();
    if failed > failures.len() {
        lines.push(format!(
            "... and {} more failing tests not listed (the first {} are); run again with 'filter' to see them.",
            failed - failures.len(),
            failures.len()
        ));
    }
    let heading =
        if base.is_empty() { "Failed tests".to_owned() } else { format!("Failed tests (files under {base})") };
    (heading, lines)
}

/// The model's list of skipped tests: one line per class, `Class: Test1, Test2`, in the order
/// the runner reported them; when the run skipped more than were named
/// (`testrun::MAX_SKIPPED`), the last line says how many more.
fn skipped_tests(names: &[String], skipped: usize) -> Vec<String> {
    let tests = names.iter().map(|name| split_test_name(name));
    let mut lines: Vec<String> = respond::group_in_order(tests, |(class, _)| *class)
        .into_iter()
        .map(|(class, tests)| {
            let tests: Vec<&str> = tests.into_iter().map(|(_, test)| test).collect();
            match class {
                "" => tests.join(", "),
                class => format!("{class}: {}", tests.join(", ")),
            }
        })
        .collect();
    if !names.is_empty() && skipped > names.len() {
        lines.push(format!("... and {} more skipped tests not named.", skipped - names.len()));
    }
    lines
}

/// A test's class and its name in the class: `Ns.Class.Method(x: 1.5)` is `Ns.Class` and
/// `Method(x: 1.5)` (a theory's arguments may hold dots). A name without a class is its own test.
fn split_test_name(name: &str) -> (&str, &str) {
    let end = name.find('(').unwrap_or(name.len());
    match name[..end].rfind('.') {
        Some(dot) => (&name[..dot], &name[dot + 1..]),
        None => ("", name),
    }
}

/// The file and line of the first stack frame that has them (`at M() in FILE:line N`).
fn first_located_frame(stack_trace: &str) -> Option<(&str, &str)> {
    stack_trace.lines().find_map(|frame| {
        let (_, location) = frame.split_once(" in ")?;
        let (file, line) = location.rsplit_once(":line ")?;
        Some((file.trim(), line.trim()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn failure(name: &str, message: &str, file: &str, line: u32) -> testrun::Failure {
        testrun::Failure {
            test_name: name.to_owned(),
            message: message.to_owned(),
            stack_trace: format!("   at {name}() in {file}:line {line}\n   at System.Reflection.X()"),
            duration_ms: None,
        }
    }

    #[test]
    fn failing_tests_are_listed_under_their_class_once() {
        let failures = [
            failure(
                "Tests.Suite3.Case187",
                "Assert.Equal() Failure\nExpected: 189\nActual:   188",
                "/src/Tests/Suite3.cs",
                268,
            ),
            failure("Tests.Suite0.Case007", "boom", "/src/Tests/Suite0.cs", 58),
            failure("Tests.Suite3.Sum(a: 1.5, b: 2)", "bad", "/src/Tests/Deep/Suite3.cs", 9),
            failure("Loose", "odd", "/src/Tests/Loose.cs", 1),
        ];
        let (heading, lines) = failed_tests(&failures, 4);
        assert_eq!(heading, "Failed tests (files under /src/Tests/)");
        assert_eq!(
            lines,
            [
                "Tests.Suite3:",
                "  Case187: Assert.Equal() Failure; Expected: 189; Actual:   188 (at Suite3.cs:268)",
                "  Sum(a: 1.5, b: 2): bad (at Deep/Suite3.cs:9)",
                "Tests.Suite0:",
                "  Case007: boom (at Suite0.cs:58)",
                "Loose: odd (at Loose.cs:1)",
            ]
        );
    }

    #[test]
    fn skipped_tests_are_named_under_their_class_once() {
        let names: Vec<String> =
            ["Xt.UnitTest1.SkippedTwo", "Xt.Other.Later(x: 1.5)", "Xt.UnitTest1.SkippedOne", "Loose"]
                .map(str::to_owned)
                .to_vec();
        assert_eq!(
            skipped_tests(&names, 4),
            ["Xt.UnitTest1: SkippedTwo, SkippedOne", "Xt.Other: Later(x: 1.5)", "Loose"]
        );
        let lines = skipped_tests(&names[..1], 60);
        assert_eq!(lines, ["Xt.UnitTest1: SkippedTwo", "... and 59 more skipped tests not named."]);
        assert!(skipped_tests(&[], 3).is_empty(), "a runner that names none (MTP by default) adds nothing");
    }

    #[test]
    fn failing_tests_left_out_are_counted_with_the_way_to_see_them() {
        let failures: Vec<testrun::Failure> = (0..testrun::MAX_FAILURES)
            .map(|n| failure(&format!("T.C.Case{n}"), "no", "/src/C.cs", n as u32 + 1))
            .collect();
        let (_, lines) = failed_tests(&failures, testrun::MAX_FAILURES + 7);
        assert_eq!(
            lines.last().map(String::as_str),
            Some("... and 7 more failing tests not listed (the first 20 are); run again with 'filter' to see them.")
        );
        let (_, all) = failed_tests(&failures, testrun::MAX_FAILURES);
        assert!(all.last().is_some_and(|line| line.starts_with("  Case19:")), "{all:?}");
    }
}
