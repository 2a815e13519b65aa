//! Test: `dotnet test` with the runner the project uses (VSTest or Microsoft.Testing.Platform,
//! module `testrun`), run where the SDK sees the project's global.json, under the project lock.

use std::path::Path;

use std::collections::BTreeMap;

use dotnet_support::{
    errors::code,
    exec::ProgressKind,
    kit::{Call, Outcome, Reason, invalid},
    locking,
    params::Kind,
    respond::{Failure, Reply},
};
use schemars::JsonSchema;
use serde::Serialize;

use super::{TARGET, build_options, lock, push, push_flag, run_in};
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
    assemblies: Vec<Assembly>,
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
            assemblies: report.assemblies.clone(),
            project: project.clone(),
            tests: (!report.listed.is_empty()).then(|| report.listed.clone()),
            trx,
        };
        let failure_lines: Vec<String> = report
            .failures
            .iter()
            .map(|failure| format!("{}: {}", failure.test_name, failure.message.lines().next().unwrap_or_default()))
            .collect();
        if !ran.succeeded() {
            let mut error = ran.failure();
            if report.failed() > 0 && error.errors[0].code.starts_with(code::EXIT_PREFIX) {
                let names: Vec<&str> = report.failures.iter().map(|failure| failure.test_name.as_str()).collect();
                error.errors[0].message =
                    format!("{} of {} tests failed: {}.", report.failed(), report.total(), names.join(", "));
                error.errors[0].hint = Some("Read 'failures' for each test's message and stack trace.".to_owned());
            }
            for (key, value) in &metadata {
                error = error.with_metadata(key.clone(), value);
            }
            return Err(Failure { error, extra: serde_json::to_value(&counts).ok() });
        }
        let tests = report.listed.clone();
        Ok(Reply::new(summary)
            .section("Failed tests", failure_lines)
            .section("Tests", tests)
            .output(ran.outcome.transcript.clone())
            .result(Tested { counts, metadata }))
    }
}
