//! Test: `dotnet test` with the runner the project uses (VSTest or Microsoft.Testing.Platform,
//! module `testrun`), run where the SDK sees the project's global.json, under the project lock.

use std::path::Path;

use dotnet_support::{
    errors::code,
    exec::ProgressKind,
    kit::{Outcome, Shape},
    locking::{self, lock_info_schema},
    params::Kind,
    respond::{Failure, Reply},
};
use serde_json::{Value, json};

use super::{Act, command_line, invalid};
use crate::testrun::{self, Runner};

fn integer() -> Value {
    json!({ "type": "integer" })
}

/// What a test run reports, success or failure: the counts, failures and assemblies.
pub fn test_fields() -> Value {
    let failures = json!({
        "type": "array",
        "items": {
            "type": "object",
            "properties": {
                "testName": { "type": "string" },
                "message": { "type": "string" },
                "stackTrace": { "type": "string" },
                "durationMs": integer()
            },
            "required": ["testName", "message"]
        }
    });
    json!({
        "passed": integer(),
        "failed": integer(),
        "skipped": integer(),
        "total": integer(),
        "durationMs": integer(),
        "summary": { "type": "string" },
        "failures": failures,
        "assemblies": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "name": { "type": "string" },
                    "passed": integer(), "failed": integer(), "skipped": integer(), "total": integer(), "durationMs": integer()
                },
                "required": ["name", "passed", "failed", "skipped", "total", "durationMs"]
            }
        },
        "tests": { "type": "array", "items": { "type": "string" } },
        "trx": {
            "type": "array",
            "description": "With logger trx: each TRX report the run wrote, read back (counts, failures with message and stack trace).",
            "items": {
                "type": "object",
                "properties": {
                    "file": { "type": "string" },
                    "passed": integer(), "failed": integer(), "skipped": integer(), "total": integer(),
                    "failures": failures.clone()
                },
                "required": ["file", "passed", "failed", "skipped", "total", "failures"]
            }
        },
        "metadata": {
            "type": "object",
            "description": "Test-runner metadata: selectedTestRunner (microsoft-testing-platform | vstest), projectArgumentStyle (--project | --solution | positional | none), selectionSource (testRunner-parameter | useLegacyProjectArgument-parameter | global.json | default), globalJson.",
            "additionalProperties": { "type": "string" }
        }
    })
}

/// Test: the counts, failures and the runner chosen.
pub fn test_shape() -> Shape {
    let mut properties = test_fields();
    properties["lockInfo"] = lock_info_schema();
    properties["command"] = json!({ "type": "string" });
    properties["exitCode"] = integer();
    properties["project"] = json!({ "type": "string" });
    Shape::new(
        properties,
        &[
            "passed",
            "failed",
            "skipped",
            "total",
            "durationMs",
            "summary",
            "failures",
            "assemblies",
            "metadata",
            "lockInfo",
            "command",
            "exitCode",
        ],
    )
}

impl Act<'_, '_> {
    pub(super) async fn test(&self) -> Outcome {
        let target = self.cli_target().await?;
        let explicit_dir = self.opt("workingDirectory", Kind::Path)?.is_some();
        // Run where the SDK sees the project's global.json, which decides the runner.
        let (dir, project) = match &target {
            Some(target) if !explicit_dir => {
                let absolute = locking::canonical(&self.cwd.join(target));
                let dir = if absolute.is_dir() {
                    absolute.clone()
                } else {
                    absolute.parent().unwrap_or(&self.cwd).to_owned()
                };
                (dir, Some(absolute.display().to_string()))
            }
            _ => (self.cwd.clone(), target.clone()),
        };
        let selection = testrun::select(
            self.opt("testRunner", Kind::Identifier)?,
            self.params.flag("useLegacyProjectArgument"),
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
        self.build_options(&mut args, &["configuration", "framework"])?;
        self.push(&mut args, "--filter", "filter", Kind::Text)?;
        if let Some(collect) = self.opt("collect", Kind::Text)? {
            match (mtp, collect.to_ascii_lowercase().contains("coverage")) {
                (false, _) => args.extend(["--collect".to_owned(), collect.to_owned()]),
                (true, true) => args.push("--coverage".to_owned()),
                (true, false) => {
                    return Err(invalid(
                        "collect",
                        "not supported",
                        &format!(
                            "Invalid argument 'collect': '{collect}' is a VSTest data collector; under Microsoft.Testing.Platform only code coverage (--coverage) is available."
                        ),
                    ));
                }
            }
        }
        if let Some(results) = self.opt("resultsDirectory", Kind::Path)? {
            let results =
                if dir == self.cwd { results.to_owned() } else { self.cwd.join(results).display().to_string() };
            args.extend(["--results-directory".to_owned(), results]);
        }
        let trx = self.opt("logger", Kind::Text)?.is_some_and(|logger| logger.to_ascii_lowercase().starts_with("trx"));
        if let Some(logger) = self.opt("logger", Kind::Text)? {
            match (mtp, logger.to_ascii_lowercase().starts_with("trx")) {
                (false, _) => args.extend(["--logger".to_owned(), logger.to_owned()]),
                (true, true) => args.push(testrun::mtp_trx_option(project.as_deref().map(Path::new)).to_owned()),
                (true, false) => {
                    return Err(invalid(
                        "logger",
                        "not supported",
                        &format!(
                            "Invalid argument 'logger': '{logger}' is a VSTest logger; under Microsoft.Testing.Platform only trx (--report-trx) is available."
                        ),
                    ));
                }
            }
        }
        self.push_flag(&mut args, "--no-build", "noBuild");
        self.push_flag(&mut args, "--no-restore", "noRestore");
        self.build_options(&mut args, &["verbosity"])?;
        if self.params.flag("blame") {
            if mtp {
                return Err(invalid(
                    "blame",
                    "not supported",
                    "Invalid argument 'blame': is a VSTest option; under Microsoft.Testing.Platform add the crash and hang dump extensions to the test project instead.",
                ));
            }
            args.push("--blame".to_owned());
        }
        self.push_flag(&mut args, "--list-tests", "listTests");

        let _guard = self.lock(target.as_deref().map(Path::new)).await?;
        let label = project.clone().unwrap_or_else(|| "the working directory".to_owned());
        let ran = self.run_in(&dir, args.clone(), format!("Testing {label}"), ProgressKind::Test).await;
        let metadata = selection.metadata(project.as_deref());
        let ran = ran.map_err(|mut failure| {
            for (key, value) in &metadata {
                failure.error = failure.error.clone().with_metadata(key.clone(), value);
            }
            failure
        })?;
        let report = testrun::parse(&ran.outcome.transcript);
        let summary = report.summary();
        let mut fields = json!({
            "passed": report.passed(),
            "failed": report.failed(),
            "skipped": report.skipped(),
            "total": report.total(),
            "durationMs": report.duration_ms(),
            "failures": report.failures,
            "assemblies": report.assemblies,
        });
        if let Some(project) = &project {
            fields["project"] = json!(project);
        }
        if !report.listed.is_empty() {
            fields["tests"] = json!(report.listed);
        }
        if trx {
            let reports: Vec<testrun::TrxReport> = testrun::trx_paths(&ran.outcome.transcript)
                .iter()
                .filter_map(|file| testrun::read_trx(&dir.join(file)))
                .collect();
            fields["trx"] = json!(reports);
        }
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
            fields["summary"] = json!(summary);
            return Err(Failure { error, extra: Some(fields) });
        }
        fields["summary"] = json!(summary);
        fields["metadata"] = json!(metadata);
        fields["command"] = json!(command_line(&args));
        fields["exitCode"] = json!(ran.exit_code());
        let tests = report.listed.clone();
        Ok(Reply::new(summary)
            .section("Failed tests", failure_lines)
            .section("Tests", tests)
            .output(ran.outcome.transcript.clone())
            .structured(fields))
    }
}
