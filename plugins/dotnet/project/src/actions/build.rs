//! The build commands: Restore, Build, Publish, Clean (confirmed first), Pack and Format, each
//! under the project lock, with the warnings of its output.

use std::{path::Path, sync::LazyLock};

use dotnet_support::{
    diagnostics::{Diagnostic, DiagnosticSummary},
    exec::ProgressKind,
    kit::{Call, Consent, Outcome, Reason, Split, invalid, prose},
    locking::LockTarget,
    params::{Kind, check},
    respond::{Failure, Reply},
};
use regex::Regex;
use schemars::JsonSchema;
use serde::Serialize;

use super::{MAX_LIST, TARGET, build_options, diagnostics_of, lock, push, push_flag, run_here, simple};

/// A package version for `-p:PackageVersion=`: no `;` or `,`, which would start another property.
static PACKAGE_VERSION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^[0-9]+(\.[0-9]+){1,3}(-[0-9A-Za-z.\-]+)?(\+[0-9A-Za-z.\-]+)?$").expect("version pattern is valid")
});

// What a command that ran reports (New, Restore, Run, Publish, Clean, Pack, Format, Convert):
// its summary, duration and warnings, and what the action made ([`Made`]).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Completed {
    pub(super) summary: String,
    pub(super) duration_ms: i64,
    // The project, solution or app as given or found in the client's roots.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) project: Option<String>,
    pub(super) warning_count: i64,
    pub(super) warnings: Vec<Diagnostic>,
    #[serde(flatten)]
    pub(super) made: Made,
}

// What an action made of its run, beside what every command reports.
#[derive(Debug, Default, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Made {
    /// Run: what the application printed (redacted, capped).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) output: Option<String>,
    /// Convert: the project file written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) project_file: Option<String>,
    // Publish: where each project was published.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) outputs: Option<Vec<Published>>,
    // Pack: the packages created.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) packages: Option<Vec<String>>,
    // New: the template.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) template: Option<String>,
    // New: the name given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) name: Option<String>,
    /// Clean: whether the user confirmed through the client.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Consent")]
    pub(super) consent: Option<Consent>,
}

// Where a build put one project's assembly, or Publish its output folder.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Published {
    project: String,
    path: String,
}

/// What MSBuild says it wrote, one `Project -> path` line each: a build's assemblies (files), or
/// with `folders` a publish's output folders (the paths ending in a separator).
fn written(stdout: &str, folders: bool) -> Vec<Published> {
    stdout
        .lines()
        .filter_map(|line| line.trim().split_once(" -> "))
        .filter(|(_, path)| (path.ends_with('/') || path.ends_with('\\')) == folders)
        .map(|(project, path)| Published { project: project.to_owned(), path: path.to_owned() })
        .collect()
}

// What a build reports, success or failure: the counts and the diagnostics.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BuildCounts {
    project: String,
    configuration: String,
    error_count: i64,
    warning_count: i64,
    summary: String,
    warnings: Vec<Diagnostic>,
}

// Build: the counts, errors and warnings, and the assemblies written.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Built {
    #[serde(flatten)]
    counts: BuildCounts,
    errors: Vec<Diagnostic>,
    duration_ms: i64,
    outputs: Vec<Published>,
}

/// Restore.
pub(super) async fn restore(call: &Call<'_>) -> Outcome {
    let target = call.cli_target(TARGET).await?;
    let mut args = vec!["restore".to_owned()];
    args.extend(target.clone());
    build_options(call, &mut args, &["runtime", "verbosity"])?;
    push(call, &mut args, "--source", "source", Kind::Path)?;
    push_flag(call, &mut args, "--locked-mode", "lockedMode");
    push(call, &mut args, "--configfile", "configFile", Kind::Path)?;
    simple(call, args, target.as_deref(), ProgressKind::Restore, |ran| {
        let restored = ran.outcome.stdout.lines().filter(|line| line.trim_start().starts_with("Restored ")).count();
        let summary = match restored {
            0 => "Restore succeeded: everything was up to date.".to_owned(),
            n => format!("Restore succeeded: {} restored.", prose::count(n, "project")),
        };
        (summary, Made::default())
    })
    .await
}

/// Build: the diagnostics with counts, on success and failure.
pub(super) async fn build(call: &Call<'_>) -> Outcome {
    let target = call.cli_target(TARGET).await?;
    let mut args = vec!["build".to_owned()];
    args.extend(target.clone());
    build_options(call, &mut args, &["configuration", "framework", "runtime"])?;
    push_flag(call, &mut args, "--no-restore", "noRestore");
    build_options(call, &mut args, &["verbosity"])?;
    push(call, &mut args, "-o", "output", Kind::Path)?;
    let _guard = lock(call, target.as_deref().map(Path::new)).await?;
    let label = target.clone().unwrap_or_else(|| LockTarget::for_path(None, call.cwd()).key);
    let ran = run_here(call, args, format!("Building {label}"), ProgressKind::Build).await?;
    let found = diagnostics_of(&ran);
    let configuration = call.params().opt("configuration", Kind::Configuration)?.unwrap_or("Debug");
    let summary = build_summary(ran.succeeded(), &found);
    let warnings = found.warnings.iter().map(Diagnostic::line).collect();
    let counts = BuildCounts {
        project: label,
        configuration: configuration.to_owned(),
        error_count: found.error_count as i64,
        warning_count: found.warning_count as i64,
        summary: summary.clone(),
        warnings: found.warnings,
    };
    if !ran.succeeded() {
        // The warnings too, as the terminal shows them beside the errors.
        return Err(
            Failure::with_fields(ran.failure(), serde_json::to_value(&counts).ok()).section("Warnings", warnings)
        );
    }
    // What the terminal shows of a build beside its diagnostics: where each assembly went.
    let outputs = written(&ran.outcome.stdout, false);
    let lines = outputs.iter().map(|output| format!("{} -> {}", output.project, output.path)).collect();
    let built = Built { counts, errors: found.errors, duration_ms: ran.outcome.elapsed.as_millis() as i64, outputs };
    let reply = Reply::new(summary).section("Warnings", warnings).section("Outputs", lines);
    Ok(reply.read_output(ran.outcome.transcript.clone()).result(built))
}

/// What a build says of itself: succeeded or failed, with MSBuild's counts. MSBuild counts a
/// warning each time it is printed, and a restore warning (NU1603) is printed by the restore and
/// again by the build (SDK 10.0.401: `3 Warning(s)` for two), so a count larger than the warnings
/// listed says how many are distinct.
fn build_summary(succeeded: bool, found: &DiagnosticSummary) -> String {
    let mut warnings = prose::count(found.warning_count, "warning");
    if found.warning_count > found.warnings.len() {
        warnings.push_str(&format!(" ({} distinct)", found.warnings.len()));
    }
    match (succeeded, found.warning_count) {
        (true, 0) => "Build succeeded.".to_owned(),
        (true, _) => format!("Build succeeded with {warnings}."),
        (false, _) => format!("Build failed with {} and {warnings}.", prose::count(found.error_count, "error")),
    }
}

/// Publish: where each project went.
pub(super) async fn publish(call: &Call<'_>) -> Outcome {
    let target = call.cli_target(TARGET).await?;
    let mut args = vec!["publish".to_owned()];
    args.extend(target.clone());
    build_options(call, &mut args, &["configuration"])?;
    push(call, &mut args, "-o", "output", Kind::Path)?;
    build_options(call, &mut args, &["runtime", "framework"])?;
    push_flag(call, &mut args, "--no-restore", "noRestore");
    push_flag(call, &mut args, "--no-build", "noBuild");
    if let Some(contained) = call.params().raw("selfContained").and_then(serde_json::Value::as_bool) {
        args.extend(["--self-contained".to_owned(), contained.to_string()]);
    }
    push(call, &mut args, "--arch", "arch", Kind::Identifier)?;
    push(call, &mut args, "--os", "os", Kind::Identifier)?;
    build_options(call, &mut args, &["verbosity"])?;
    simple(call, args, target.as_deref(), ProgressKind::Build, |ran| {
        let outputs = written(&ran.outcome.stdout, true);
        let places: Vec<&str> = outputs.iter().map(|output| output.path.as_str()).collect();
        let summary = match places.as_slice() {
            [] => "Publish succeeded.".to_owned(),
            places => format!("Published to {}.", places.join(", ")),
        };
        (summary, Made { outputs: Some(outputs), ..Made::default() })
    })
    .await
}

/// Clean, once the user confirmed (when the client can ask).
pub(super) async fn clean(call: &Call<'_>) -> Outcome {
    let target = call.cli_target(TARGET).await?;
    let label = target.clone().unwrap_or_else(|| call.cwd().display().to_string());
    let message = format!("Delete the build output (the files a build wrote to bin/ and obj/) of {label}?");
    let consent = call.confirm(&message, &label).await?;
    let mut args = vec!["clean".to_owned()];
    args.extend(target.clone());
    build_options(call, &mut args, &["configuration", "framework", "runtime"])?;
    push(call, &mut args, "-o", "output", Kind::Path)?;
    build_options(call, &mut args, &["verbosity"])?;
    simple(call, args, target.as_deref(), ProgressKind::Build, |_| {
        (format!("Cleaned the build output of {label}."), Made { consent: Some(consent), ..Made::default() })
    })
    .await
}

/// Pack: the packages created.
pub(super) async fn pack(call: &Call<'_>) -> Outcome {
    let target = call.cli_target(TARGET).await?;
    let mut args = vec!["pack".to_owned()];
    args.extend(target.clone());
    build_options(call, &mut args, &["configuration"])?;
    push(call, &mut args, "-o", "output", Kind::Path)?;
    push_flag(call, &mut args, "--include-symbols", "includeSymbols");
    push_flag(call, &mut args, "--include-source", "includeSource");
    push_flag(call, &mut args, "--no-build", "noBuild");
    push_flag(call, &mut args, "--no-restore", "noRestore");
    build_options(call, &mut args, &["verbosity"])?;
    if let Some(version) = call.params().opt("packageVersion", Kind::Version)? {
        if !PACKAGE_VERSION.is_match(version) {
            let message = format!(
                "Invalid argument 'packageVersion': must be a version such as 1.2.3 or 2.0.0-beta.1 (got '{version}')."
            );
            return Err(invalid("packageVersion", Reason::Value, message).into());
        }
        args.push(format!("-p:PackageVersion={version}"));
    }
    simple(call, args, target.as_deref(), ProgressKind::Build, |ran| {
        let (summary, packages) = packed(&ran.outcome.stdout);
        (summary, Made { packages: Some(packages), ..Made::default() })
    })
    .await
}

/// What Pack says of its run, and the packages it wrote (`Successfully created package '...'.`).
/// A pack that wrote none succeeded all the same: the project is not packable, or its package
/// is current (SDK 10.0.401 writes it again only when its inputs changed, and then says nothing).
fn packed(stdout: &str) -> (String, Vec<String>) {
    let packages: Vec<String> = stdout
        .lines()
        .filter_map(|line| line.split_once("Successfully created package '"))
        .filter_map(|(_, rest)| rest.split_once('\'').map(|(path, _)| path.to_owned()))
        .collect();
    let summary = match packages.len() {
        0 => "Pack succeeded without writing a package: the project is not packable, or the package an earlier \
              pack wrote is up to date."
            .to_owned(),
        count => format!("Created {}.", prose::count(count, "package")),
    };
    (summary, packages)
}

/// Format, or with `verify` only the check.
pub(super) async fn format(call: &Call<'_>) -> Outcome {
    let target = call.cli_target(TARGET).await?;
    let mut args = vec!["format".to_owned()];
    args.extend(target.clone());
    push_flag(call, &mut args, "--verify-no-changes", "verify");
    push_flag(call, &mut args, "--include-generated", "includeGenerated");
    let ids = call
        .params()
        .list_with("diagnostics", Split::Whitespace, MAX_LIST, |name, id| check(name, Kind::Identifier, id))?;
    if !ids.is_empty() {
        args.push("--diagnostics".to_owned());
        args.extend(ids.into_iter().map(str::to_owned));
    }
    if let Some(severity) = call.params().opt("severity", Kind::Identifier)? {
        if !matches!(severity, "info" | "warn" | "error") {
            let message = format!("Invalid argument 'severity': must be info, warn or error (got '{severity}').");
            return Err(invalid("severity", Reason::Value, message).into());
        }
        args.extend(["--severity".to_owned(), severity.to_owned()]);
    }
    build_options(call, &mut args, &["verbosity"])?;
    let verify = call.params().flag("verify");
    simple(call, args, target.as_deref(), ProgressKind::None, move |_| {
        let summary = if verify { "No formatting changes are needed." } else { "Formatting applied." };
        (summary.to_owned(), Made::default())
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use dotnet_support::diagnostics;

    #[test]
    fn a_build_count_larger_than_its_warnings_says_how_many_are_distinct() {
        // SDK 10.0.401, `dotnet build` of a web API whose restore warns (NU1603) with one
        // compiler warning: NU1603 twice during the build and twice in the summary.
        let nu1603 = "/src/Api/Api.csproj : warning NU1603: Microsoft.AspNetCore.OpenApi 10.0.12 depends on \
                      Microsoft.OpenApi (>= 2.12.0 && < 3.0.0) but Microsoft.OpenApi 2.12.0 was not found. \
                      Microsoft.OpenApi 2.12.1 was resolved instead.";
        let cs0168 = "/src/Api/Program.cs(43,31): warning CS0168: The variable 'x' is declared but never used \
                      [/src/Api/Api.csproj]";
        let output = [nu1603, "  All projects are up-to-date for restore.", nu1603, cs0168, "", "Build succeeded."]
            .into_iter()
            .chain([nu1603, nu1603, cs0168, "    3 Warning(s)", "    0 Error(s)"]);
        let found = diagnostics::summarize(output);
        assert_eq!(build_summary(true, &found), "Build succeeded with 3 warnings (2 distinct).");
        assert_eq!(build_summary(false, &found), "Build failed with 0 errors and 3 warnings (2 distinct).");
        let once = diagnostics::summarize([cs0168, "    1 Warning(s)", "    0 Error(s)"]);
        assert_eq!(build_summary(true, &once), "Build succeeded with 1 warning.");
        assert_eq!(build_summary(true, &diagnostics::summarize(["Build succeeded."])), "Build succeeded.");
    }

    #[test]
    fn a_build_names_the_assemblies_it_wrote_and_a_publish_its_folders() {
        // SDK 10.0.401, `dotnet publish App -c Release` (recordings/console/010-publish.txt): the
        // build's assembly, then the folder it published to.
        let stdout = "  Restored /src/App/App.csproj (in 1.2 sec).\n  App -> /src/App/bin/Release/net10.0/App.dll\n\
                      \x20 App -> /src/publish/\n";
        let paths = |folders| -> Vec<(String, String)> {
            written(stdout, folders).into_iter().map(|output| (output.project, output.path)).collect()
        };
        assert_eq!(paths(false), [("App".to_owned(), "/src/App/bin/Release/net10.0/App.dll".to_owned())]);
        assert_eq!(paths(true), [("App".to_owned(), "/src/publish/".to_owned())]);
    }

    #[test]
    fn a_pack_that_wrote_no_package_does_not_say_it_created_none() {
        // SDK 10.0.401, `dotnet pack pk` twice: the second run writes nothing and says nothing.
        let first = "  Restored /src/pk/pk.csproj (in 167 ms).\n  pk -> /src/pk/bin/Release/net10.0/pk.dll\n\
                     \x20 Successfully created package '/src/pk/bin/Release/pk.1.0.0-beta.nupkg'.\n";
        assert_eq!(
            packed(first),
            ("Created 1 package.".to_owned(), vec!["/src/pk/bin/Release/pk.1.0.0-beta.nupkg".to_owned()])
        );
        let again = "  Determining projects to restore...\n  All projects are up-to-date for restore.\n\
                     \x20 pk -> /src/pk/bin/Release/net10.0/pk.dll\n";
        let (summary, packages) = packed(again);
        assert!(packages.is_empty());
        assert!(summary.starts_with("Pack succeeded without writing a package"), "{summary}");
    }
}
