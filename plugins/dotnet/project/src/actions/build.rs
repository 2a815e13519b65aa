//! The build commands: Restore, Build, Publish, Clean (confirmed first), Pack and Format, each
//! under the project lock, with the warnings of its output.

use std::path::Path;

use dotnet_support::{
    diagnostics,
    exec::ProgressKind,
    kit::{Outcome, Shape},
    locking::{LockTarget, lock_info_schema},
    params::{Kind, check},
    respond::{Failure, Reply},
};
use regex::Regex;
use serde_json::{Map, Value, json};
use std::sync::LazyLock;

use super::{Act, command_line, diagnostic_line, invalid};

/// A package version for `-p:PackageVersion=`: no `;` or `,`, which would start another property.
static PACKAGE_VERSION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^[0-9]+(\.[0-9]+){1,3}(-[0-9A-Za-z.\-]+)?(\+[0-9A-Za-z.\-]+)?$").expect("version pattern is valid")
});

fn diagnostic() -> Value {
    json!({
        "type": "object",
        "properties": {
            "file": { "type": "string" },
            "line": { "type": "integer" },
            "column": { "type": "integer" },
            "endLine": { "type": "integer" },
            "endColumn": { "type": "integer" },
            "severity": { "enum": ["error", "warning", "info"] },
            "code": { "type": "string" },
            "message": { "type": "string" },
            "project": { "type": "string" }
        },
        "required": ["severity", "code", "message"]
    })
}

fn integer() -> Value {
    json!({ "type": "integer" })
}

/// What a command that ran reports: its command line, summary, warnings and what it made.
pub fn command_shape() -> Shape {
    Shape::new(
        json!({
            "command": { "type": "string", "description": "The command line, redacted." },
            "exitCode": integer(),
            "summary": { "type": "string" },
            "durationMs": integer(),
            "project": { "type": "string" },
            "lockInfo": lock_info_schema(),
            "warningCount": integer(),
            "warnings": { "type": "array", "items": diagnostic() },
            "output": { "type": "string", "description": "Run: what the application printed (redacted, capped)." },
            "projectFile": { "type": "string", "description": "Convert: the project file written." },
            "outputs": { "type": "array", "items": { "type": "object", "properties": { "project": { "type": "string" }, "path": { "type": "string" } }, "required": ["project", "path"] } },
            "packages": { "type": "array", "items": { "type": "string" } },
            "template": { "type": "string" },
            "name": { "type": "string" },
            "consent": { "enum": ["confirmed", "notAsked"], "description": "Clean: whether the user confirmed through the client." }
        }),
        &["command", "exitCode", "summary", "durationMs"],
    )
}

/// What a build reports, success or failure: the counts and the diagnostics.
pub fn build_fields() -> Value {
    json!({
        "project": { "type": "string" },
        "configuration": { "type": "string" },
        "errorCount": integer(),
        "warningCount": integer(),
        "summary": { "type": "string" },
        "warnings": { "type": "array", "items": diagnostic() }
    })
}

/// Build: the counts, errors and warnings.
pub fn build_shape() -> Shape {
    let mut properties = build_fields();
    properties["errors"] = json!({ "type": "array", "items": diagnostic() });
    properties["lockInfo"] = lock_info_schema();
    properties["command"] = json!({ "type": "string" });
    properties["exitCode"] = integer();
    properties["durationMs"] = integer();
    Shape::new(
        properties,
        &[
            "project",
            "configuration",
            "errorCount",
            "warningCount",
            "summary",
            "errors",
            "warnings",
            "lockInfo",
            "command",
            "exitCode",
        ],
    )
}

impl Act<'_, '_> {
    pub(super) async fn restore(&self) -> Outcome {
        let target = self.cli_target().await?;
        let mut args = vec!["restore".to_owned()];
        args.extend(target.clone());
        self.build_options(&mut args, &["runtime", "verbosity"])?;
        self.push(&mut args, "--source", "source", Kind::Path)?;
        self.push_flag(&mut args, "--locked-mode", "lockedMode");
        self.push(&mut args, "--configfile", "configFile", Kind::Path)?;
        self.simple(args, target.as_deref(), ProgressKind::Restore, |ran| {
            let restored = ran.outcome.stdout.lines().filter(|line| line.trim_start().starts_with("Restored ")).count();
            let summary = match restored {
                0 => "Restore succeeded: everything was up to date.".to_owned(),
                n => format!("Restore succeeded: {n} project(s) restored."),
            };
            (summary, Map::new())
        })
        .await
    }

    pub(super) async fn build(&self) -> Outcome {
        let target = self.cli_target().await?;
        let mut args = vec!["build".to_owned()];
        args.extend(target.clone());
        self.build_options(&mut args, &["configuration", "framework", "runtime"])?;
        self.push_flag(&mut args, "--no-restore", "noRestore");
        self.build_options(&mut args, &["verbosity"])?;
        self.push(&mut args, "-o", "output", Kind::Path)?;
        let _guard = self.lock(target.as_deref().map(Path::new)).await?;
        let label = target.clone().unwrap_or_else(|| LockTarget::for_path(None, &self.cwd).key);
        let ran = self.run(args.clone(), format!("Building {label}"), ProgressKind::Build).await?;
        let found = diagnostics::summarize(ran.outcome.stdout.lines().chain(ran.outcome.stderr.lines()));
        let configuration = self.opt("configuration", Kind::Configuration)?.unwrap_or("Debug");
        let summary = if ran.succeeded() {
            match found.warning_count {
                0 => "Build succeeded.".to_owned(),
                n => format!("Build succeeded with {n} warning(s)."),
            }
        } else {
            format!("Build failed with {} error(s) and {} warning(s).", found.error_count, found.warning_count)
        };
        let mut fields = json!({
            "project": label,
            "configuration": configuration,
            "errorCount": found.error_count,
            "warningCount": found.warning_count,
            "summary": summary,
            "warnings": found.warnings,
        });
        if !ran.succeeded() {
            return Err(Failure { error: ran.failure(), extra: Some(fields) });
        }
        fields["errors"] = json!(found.errors);
        fields["command"] = json!(command_line(&args));
        fields["exitCode"] = json!(ran.exit_code());
        fields["durationMs"] = json!(ran.outcome.elapsed.as_millis() as u64);
        let warnings = found.warnings.iter().map(diagnostic_line).collect();
        Ok(Reply::new(summary).section("Warnings", warnings).output(ran.outcome.transcript.clone()).structured(fields))
    }

    pub(super) async fn publish(&self) -> Outcome {
        let target = self.cli_target().await?;
        let mut args = vec!["publish".to_owned()];
        args.extend(target.clone());
        self.build_options(&mut args, &["configuration"])?;
        self.push(&mut args, "-o", "output", Kind::Path)?;
        self.build_options(&mut args, &["runtime", "framework"])?;
        self.push_flag(&mut args, "--no-restore", "noRestore");
        self.push_flag(&mut args, "--no-build", "noBuild");
        if let Some(contained) = self.params.raw("selfContained").and_then(Value::as_bool) {
            args.extend(["--self-contained".to_owned(), contained.to_string()]);
        }
        self.push(&mut args, "--arch", "arch", Kind::Identifier)?;
        self.push(&mut args, "--os", "os", Kind::Identifier)?;
        self.build_options(&mut args, &["verbosity"])?;
        self.simple(args, target.as_deref(), ProgressKind::Build, |ran| {
            let outputs: Vec<Value> = ran
                .outcome
                .stdout
                .lines()
                .filter_map(|line| line.trim().split_once(" -> "))
                .filter(|(_, path)| path.ends_with('/') || path.ends_with('\\'))
                .map(|(project, path)| json!({ "project": project, "path": path }))
                .collect();
            let places: Vec<&str> = outputs.iter().filter_map(|output| output["path"].as_str()).collect();
            let summary = match places.as_slice() {
                [] => "Publish succeeded.".to_owned(),
                places => format!("Published to {}.", places.join(", ")),
            };
            (summary, Map::from_iter([("outputs".to_owned(), json!(outputs))]))
        })
        .await
    }

    pub(super) async fn clean(&self) -> Outcome {
        let target = self.cli_target().await?;
        let label = target.clone().unwrap_or_else(|| self.cwd.display().to_string());
        let message = format!("Delete the build output (the files a build wrote to bin/ and obj/) of {label}?");
        let consent = self.call.confirm(&message, &label).await?.as_str();
        let mut args = vec!["clean".to_owned()];
        args.extend(target.clone());
        self.build_options(&mut args, &["configuration", "framework", "runtime"])?;
        self.push(&mut args, "-o", "output", Kind::Path)?;
        self.build_options(&mut args, &["verbosity"])?;
        self.simple(args, target.as_deref(), ProgressKind::Build, |_| {
            (format!("Cleaned the build output of {label}."), Map::from_iter([("consent".to_owned(), json!(consent))]))
        })
        .await
    }

    pub(super) async fn pack(&self) -> Outcome {
        let target = self.cli_target().await?;
        let mut args = vec!["pack".to_owned()];
        args.extend(target.clone());
        self.build_options(&mut args, &["configuration"])?;
        self.push(&mut args, "-o", "output", Kind::Path)?;
        self.push_flag(&mut args, "--include-symbols", "includeSymbols");
        self.push_flag(&mut args, "--include-source", "includeSource");
        self.push_flag(&mut args, "--no-build", "noBuild");
        self.push_flag(&mut args, "--no-restore", "noRestore");
        self.build_options(&mut args, &["verbosity"])?;
        if let Some(version) = self.opt("packageVersion", Kind::Version)? {
            if !PACKAGE_VERSION.is_match(version) {
                return Err(invalid(
                    "packageVersion",
                    "invalid value",
                    &format!(
                        "Invalid argument 'packageVersion': must be a version such as 1.2.3 or 2.0.0-beta.1 (got '{version}')."
                    ),
                ));
            }
            args.push(format!("-p:PackageVersion={version}"));
        }
        self.simple(args, target.as_deref(), ProgressKind::Build, |ran| {
            let packages: Vec<String> = ran
                .outcome
                .stdout
                .lines()
                .filter_map(|line| line.split_once("Successfully created package '"))
                .filter_map(|(_, rest)| rest.split_once('\'').map(|(path, _)| path.to_owned()))
                .collect();
            let summary = format!("Created {} package(s).", packages.len());
            (summary, Map::from_iter([("packages".to_owned(), json!(packages))]))
        })
        .await
    }

    pub(super) async fn format(&self) -> Outcome {
        let target = self.cli_target().await?;
        let mut args = vec!["format".to_owned()];
        args.extend(target.clone());
        self.push_flag(&mut args, "--verify-no-changes", "verify");
        self.push_flag(&mut args, "--include-generated", "includeGenerated");
        let ids = self.list("diagnostics", |id| check("diagnostics", Kind::Identifier, id))?;
        if !ids.is_empty() {
            args.push("--diagnostics".to_owned());
            args.extend(ids);
        }
        if let Some(severity) = self.opt("severity", Kind::Identifier)? {
            if !matches!(severity, "info" | "warn" | "error") {
                return Err(invalid(
                    "severity",
                    "invalid value",
                    &format!("Invalid argument 'severity': must be info, warn or error (got '{severity}')."),
                ));
            }
            args.extend(["--severity".to_owned(), severity.to_owned()]);
        }
        self.build_options(&mut args, &["verbosity"])?;
        let verify = self.params.flag("verify");
        self.simple(args, target.as_deref(), ProgressKind::None, move |_| {
            let summary = if verify { "No formatting changes are needed." } else { "Formatting applied." };
            (summary.to_owned(), Map::new())
        })
        .await
    }
}
