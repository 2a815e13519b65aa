//! The actions of `dotnet_package`, by what they touch: package references (`packages`),
//! NuGet's package list and search (`listing`), project references (`references`), the
//! dependency paths to a package (`why`) and NuGet's caches (`cache`); and what they share: how
//! prose names the project, its lock, runs, and the errors of a report that cannot be read.

pub mod cache;
pub mod listing;
pub mod packages;
pub mod references;
pub mod why;

use std::path::Path;

use dotnet_support::{
    errors::{ErrorResponse, ErrorResult},
    exec::{ProgressKind, Ran},
    kit::Call,
    locking::LockTarget,
    redact::redacted_command_line,
    respond::Failure,
};
use mcp_plugin_api::locks::LockGuard;

use crate::parse::Package;

/// How prose names the target: the project as given, or the working directory's project.
fn target_name(call: &Call<'_>, project: Option<&str>) -> String {
    match project {
        Some(project) => project.to_owned(),
        None => format!("the project in {}", call.cwd().display()),
    }
}

/// Takes the lock on the project (as builds of it do).
async fn lock_project(call: &Call<'_>, project: Option<&str>) -> Result<LockGuard, Failure> {
    call.lock(&LockTarget::for_path(project.map(Path::new), call.cwd())).await
}

/// Runs dotnet; a non-zero exit is the contract's error for it.
async fn run(call: &Call<'_>, args: Vec<String>, description: &str, progress: ProgressKind) -> Result<Ran, Failure> {
    call.run_ok(call.command(args, description).progress(progress)).await
}

/// Runs dotnet and returns the run whatever its exit code.
async fn run_any(
    call: &Call<'_>,
    args: Vec<String>,
    description: &str,
    progress: ProgressKind,
) -> Result<Ran, Failure> {
    call.run(call.command(args, description).progress(progress)).await
}

/// A report that exited 0 but could not be read: the SDK lacks the machine-readable output
/// (older than 8.0.200 for search, 7.0.200 for the package list) or printed something else.
fn unreadable(ran: &Ran, reason: &str) -> ErrorResponse {
    let error = ErrorResult::capability_not_available(
        "NuGet JSON report",
        reason,
        vec![
            "Update the .NET SDK: `--format json` needs SDK 7.0.200 (list) or 8.0.200 (search) or later.".to_owned(),
            "Run the command in a terminal to see its output.".to_owned(),
        ],
    );
    of_run(ran, error)
}

/// `error`, about the run `ran`: its command line, exit code and output attached.
fn of_run(ran: &Ran, mut error: ErrorResult) -> ErrorResponse {
    if let Some(data) = error.data.as_mut() {
        data.command = Some(redacted_command_line("dotnet", &ran.argv[1..]));
        data.exit_code = Some(ran.exit_code());
    }
    error.raw_output = ran.outcome.transcript.clone();
    ErrorResponse::new(error, ran.exit_code())
}

/// One package in prose: `Id 1.2.3 (requested 1.2.*, latest 2.0.0; deprecated: Legacy, use X; vulnerable: High <url>)`;
/// `requested` only when it differs from the resolved version.
fn describe(package: &Package) -> String {
    let resolved = package.resolved_version.as_deref();
    let mut line = format!("{} {}", package.id, resolved.unwrap_or("(unresolved)"));
    let mut notes = Vec::new();
    // The requested version only where it says something the resolved one does not (a range, a
    // floating version, a version NuGet could not honour).
    if let Some(requested) = package.requested_version.as_deref().filter(|requested| Some(*requested) != resolved) {
        notes.push(format!("requested {requested}"));
    }
    if let Some(latest) = &package.latest_version {
        notes.push(format!("latest {latest}"));
    }
    if let Some(reasons) = &package.deprecation_reasons {
        let mut note = format!("deprecated: {}", reasons.join(", "));
        if let Some(alternative) = &package.alternative_package {
            note.push_str(&format!(", use {}", alternative.id));
        }
        notes.push(note);
    }
    for vulnerability in package.vulnerabilities.iter().flatten() {
        notes.push(format!("vulnerable: {} {}", vulnerability.severity, vulnerability.advisory_url));
    }
    if !notes.is_empty() {
        line.push_str(&format!(" ({})", notes.join("; ")));
    }
    line
}

fn file_name(path: &str) -> &str {
    Path::new(path).file_name().and_then(|name| name.to_str()).unwrap_or(path)
}

/// The levels of NuGet's logger, which starts each line with one: `info : `, `warn : `,
/// `log  : `, `error: ` (the level padded to five characters).
const NUGET_LEVELS: [&str; 6] = ["info", "warn", "error", "log", "verbose", "debug"];

/// What `add package` said that matters beyond the version: NuGet's warnings and errors, the
/// framework compatibility verdict and the restore (`Restored ...` or `Failed to restore ...`),
/// without the logger's `info :` / `log  :` prefixes. `add package` exits 0 when the reference
/// was written though the restore after it failed (a downgrade, NU1605), so its errors are the
/// only sign of that. The full output stays available at `verbosity=verbose`.
fn notes(stdout: &str, stderr: &str) -> Vec<String> {
    stdout
        .lines()
        .chain(stderr.lines())
        .map(str::trim)
        .filter_map(|line| {
            let (level, text) = match line.split_once(':') {
                Some((level, text)) if NUGET_LEVELS.contains(&level.trim()) => (level.trim(), text.trim()),
                _ => ("", line),
            };
            match level {
                "warn" => Some(format!("warning: {text}")),
                "error" => Some(format!("error: {text}")),
                _ => (text.starts_with("Restored ")
                    || text.starts_with("Failed to restore ")
                    || (text.starts_with("Package '") && text.contains("compatible")))
                .then(|| text.to_owned()),
            }
        })
        .collect()
}

/// Whether the notes of `add package` say its restore failed.
fn restore_failed(notes: &[String]) -> bool {
    notes.iter().any(|note| note.starts_with("error: ") || note.starts_with("Failed to restore "))
}

/// `6123456789` → `6,123,456,789`.
fn thousands(count: u64) -> String {
    let digits = count.to_string();
    let mut grouped = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    grouped
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::parse;

    #[test]
    fn a_package_names_its_requested_version_only_where_it_differs() {
        let floating = json!({ "id": "Serilog", "requestedVersion": "4.*", "resolvedVersion": "4.2.0" });
        assert_eq!(describe(&parse::package(&floating).unwrap()), "Serilog 4.2.0 (requested 4.*)");
        let pinned = json!({ "id": "Serilog", "requestedVersion": "4.2.0", "resolvedVersion": "4.2.0" });
        assert_eq!(describe(&parse::package(&pinned).unwrap()), "Serilog 4.2.0");
    }

    #[test]
    fn add_notes_keep_warnings_compatibility_and_the_restore() {
        let stdout = "  Determining projects to restore...\n\
                      info : GET https://api.nuget.org/v3/index.json\n\
                      warn : NU1603: App depends on Serilog (>= 4.2.0) but Serilog 4.2.0 was not found.\n\
                      info : Package 'Serilog' is compatible with all the specified frameworks in project 'App.csproj'.\n\
                      log  : Restored /src/App/App.csproj (in 1.06 sec).\n";
        assert_eq!(
            notes(stdout, ""),
            [
                "warning: NU1603: App depends on Serilog (>= 4.2.0) but Serilog 4.2.0 was not found.",
                "Package 'Serilog' is compatible with all the specified frameworks in project 'App.csproj'.",
                "Restored /src/App/App.csproj (in 1.06 sec).",
            ]
        );
    }

    #[test]
    fn add_notes_keep_the_errors_of_a_restore_that_failed_though_the_reference_was_added() {
        // SDK 10.0.401: `dotnet add Api/Api.csproj package Newtonsoft.Json --version 13.0.1`
        // where EF Core's design package needs 13.0.4 (exit code 0).
        let stdout = "info : Adding PackageReference for package 'Newtonsoft.Json' into project 'Api/Api.csproj'.\n\
info : Restoring packages for /src/Shop/Api/Api.csproj...\n\
info :   CACHE https://api.nuget.org/v3-flatcontainer/microsoft.openapi/index.json\n\
warn : NU1603: Microsoft.AspNetCore.OpenApi 10.0.12 depends on Microsoft.OpenApi (>= 2.12.0 && < 3.0.0) but Microsoft.OpenApi 2.12.0 was not found. Microsoft.OpenApi 2.12.1 was resolved instead.\n\
error: NU1605: Warning As Error: Detected package downgrade: Newtonsoft.Json from 13.0.4 to 13.0.1. Reference the package directly from the project to select a different version. \n\
error:  Api -> Microsoft.EntityFrameworkCore.Design 10.0.15 -> Newtonsoft.Json (>= 13.0.4) \n\
error:  Api -> Newtonsoft.Json (>= 13.0.1)\n\
info : Package 'Newtonsoft.Json' is compatible with all the specified frameworks in project 'Api/Api.csproj'.\n\
info : PackageReference for package 'Newtonsoft.Json' version '13.0.1' added to file '/src/Shop/Api/Api.csproj'.\n\
info : Writing assets file to disk. Path: /src/Shop/Api/obj/project.assets.json\n\
log  : Failed to restore /src/Shop/Api/Api.csproj (in 228 ms).\n";
        let notes = notes(stdout, "");
        assert_eq!(
            notes,
            [
                "warning: NU1603: Microsoft.AspNetCore.OpenApi 10.0.12 depends on Microsoft.OpenApi (>= 2.12.0 && < 3.0.0) \
                 but Microsoft.OpenApi 2.12.0 was not found. Microsoft.OpenApi 2.12.1 was resolved instead.",
                "error: NU1605: Warning As Error: Detected package downgrade: Newtonsoft.Json from 13.0.4 to 13.0.1. \
                 Reference the package directly from the project to select a different version.",
                "error: Api -> Microsoft.EntityFrameworkCore.Design 10.0.15 -> Newtonsoft.Json (>= 13.0.4)",
                "error: Api -> Newtonsoft.Json (>= 13.0.1)",
                "Package 'Newtonsoft.Json' is compatible with all the specified frameworks in project 'Api/Api.csproj'.",
                "Failed to restore /src/Shop/Api/Api.csproj (in 228 ms).",
            ]
        );
        assert!(restore_failed(&notes));
        assert!(!restore_failed(&notes[..1]));
    }

    #[test]
    fn downloads_are_grouped_in_thousands() {
        assert_eq!(thousands(6_123_456_789), "6,123,456,789");
        assert_eq!(thousands(999), "999");
    }
}
