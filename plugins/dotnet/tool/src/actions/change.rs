//! Install, Update, Uninstall, Restore and CreateManifest: changes to where tools live, each
//! under the lock of its scope.

use std::{
    path::{Path, PathBuf},
    time::SystemTime,
};

use dotnet_support::{
    errors::ErrorResponse,
    exec::{Command, ProgressKind, Ran},
    kit::{Call, Consent, Outcome, prose::count},
    params::{Kind, Params},
    respond::{Failure, Reply},
};
use schemars::JsonSchema;
use serde::Serialize;

use crate::{
    parse::{self, InstalledTool},
    scope::{self, Scope, ScopeKind},
};

// Install and Update: the tool, where it went and which version.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Changed {
    package_id: String,
    scope: ScopeKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    version: Option<String>,
    // The version an update started from.
    #[serde(skip_serializing_if = "Option::is_none")]
    previous_version: Option<String>,
    // The manifest changed (local tools).
    #[serde(skip_serializing_if = "Option::is_none")]
    manifest: Option<String>,
}

// Uninstall: the tool removed, and whether the user was asked.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Uninstalled {
    package_id: String,
    scope: ScopeKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    version: Option<String>,
    // The manifest changed (local tools).
    #[serde(skip_serializing_if = "Option::is_none")]
    manifest: Option<String>,
    consent: Consent,
}

// Restore: the tools restored.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Restored {
    scope: ScopeKind,
    tools: Vec<InstalledTool>,
}

// CreateManifest: the manifest written.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Created {
    manifest: String,
}

/// Install or Update: what Install and Update share differs only in the command's verb.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// `dotnet tool install`.
    Install,
    /// `dotnet tool update`.
    Update,
}

/// Appends `flag value` when the parameter is set.
pub(super) fn push_value(args: &mut Vec<String>, flag: &str, value: Option<&str>) {
    if let Some(value) = value {
        args.extend([flag.to_owned(), value.to_owned()]);
    }
}

/// `--add-source` and `--configfile`, shared by installs, updates, restores and one-shot runs.
pub(super) fn sources(args: &mut Vec<String>, params: &Params) -> Result<(), ErrorResponse> {
    push_value(args, "--add-source", params.opt("source", Kind::Text)?);
    push_value(args, "--configfile", params.opt("configFile", Kind::Path)?);
    Ok(())
}

/// The scope the call names and the folder it runs in (for the local manifest the CLI finds,
/// the client's root that holds one).
async fn scope_and_folder(call: &Call<'_>) -> Result<(Scope, PathBuf), Failure> {
    let scope = Scope::read(call.params())?;
    let cwd = scope::folder(call, scope == Scope::Local(None)).await?;
    Ok((scope, cwd))
}

/// `dotnet tool ARGS` in `cwd` under the scope's lock, its output lines as progress, exit code 0
/// required.
async fn change(
    call: &Call<'_>,
    scope: &Scope,
    cwd: &Path,
    args: Vec<String>,
    description: String,
) -> Result<Ran, Failure> {
    let _guard = call.lock(&scope.lock(cwd)).await?;
    call.run_ok(Command::new(args, cwd, description).progress(ProgressKind::Lines)).await
}

/// `how`, the tool and the scope in words: `Installed dotnetsay 2.1.7 globally.`.
fn changed_line(how: &str, id: &str, scope: &Scope, change: &parse::Change) -> String {
    let version = match (&change.previous_version, &change.version) {
        (Some(from), Some(to)) => format!(" from {from} to {to}"),
        (None, Some(version)) => format!(" {version}"),
        _ => String::new(),
    };
    let manifest = change.manifest.as_ref().map(|m| format!(" ({m})")).unwrap_or_default();
    format!("{how} {id}{version} {}{manifest}.", scope.describe())
}

/// Install or Update: `dotnet tool install|update <packageId> [scope] [--version]
/// [--framework] [--prerelease] [--allow-downgrade] [--add-source] [--configfile]`.
pub async fn install(call: &Call<'_>, which: Change) -> Outcome {
    let params = call.params();
    let (scope, cwd) = scope_and_folder(call).await?;
    let id = params.req("packageId", Kind::PackageId)?;
    let (verb, how, done) = match which {
        Change::Install => ("install", "installing", "Installed"),
        Change::Update => ("update", "updating", "Updated"),
    };
    let mut args = vec!["tool".to_owned(), verb.to_owned(), id.to_owned()];
    args.extend(scope.args());
    push_value(&mut args, "--version", params.opt("version", Kind::Version)?);
    push_value(&mut args, "--framework", params.opt("framework", Kind::Framework)?);
    if params.flag("prerelease") {
        args.push("--prerelease".into());
    }
    if params.flag("allowDowngrade") {
        args.push("--allow-downgrade".into());
    }
    sources(&mut args, params)?;
    let description = format!("{how} the tool {id} {}", scope.describe());
    let ran = change(call, &scope, &cwd, args, description).await?;
    let change = parse::change(&ran.outcome.stdout);
    Ok(Reply::new(changed_line(done, id, &scope, &change)).output(ran.outcome.transcript.clone()).result(Changed {
        package_id: id.to_owned(),
        scope: scope.kind(),
        version: change.version,
        previous_version: change.previous_version,
        manifest: change.manifest,
    }))
}

/// Uninstall: `dotnet tool uninstall <packageId> [scope]`, after the user confirmed.
pub async fn uninstall(call: &Call<'_>) -> Outcome {
    let (scope, cwd) = scope_and_folder(call).await?;
    let id = call.params().req("packageId", Kind::PackageId)?;
    let mut args = vec!["tool".to_owned(), "uninstall".to_owned(), id.to_owned()];
    args.extend(scope.args());
    let question = format!(
        "Uninstall the .NET tool '{id}' {}? Its commands will no longer be available{}.",
        scope.describe(),
        if matches!(scope, Scope::Local(_)) { " and its entry leaves the manifest" } else { "" }
    );
    let consent = call.confirm(&question, id).await?;
    let description = format!("uninstalling the tool {id} {}", scope.describe());
    let ran = change(call, &scope, &cwd, args, description).await?;
    let change = parse::change(&ran.outcome.stdout);
    Ok(Reply::new(changed_line("Uninstalled", id, &scope, &change)).output(ran.outcome.transcript.clone()).result(
        Uninstalled {
            package_id: id.to_owned(),
            scope: scope.kind(),
            version: change.version,
            manifest: change.manifest,
            consent,
        },
    ))
}

/// Restore: `dotnet tool restore [--tool-manifest <m>] [--add-source] [--configfile]`.
pub async fn restore(call: &Call<'_>) -> Outcome {
    let (scope, cwd) = scope_and_folder(call).await?;
    let mut args = vec!["tool".to_owned(), "restore".to_owned()];
    args.extend(scope.args());
    sources(&mut args, call.params())?;
    let description = format!("restoring the tools {}", scope.describe());
    let ran = change(call, &scope, &cwd, args, description).await?;
    let tools = parse::restored(&ran.outcome.stdout);
    let lines = tools
        .iter()
        .map(|tool| format!("{} {} (commands: {})", tool.package_id, tool.version, tool.commands.join(", ")))
        .collect();
    Ok(Reply::new(format!("Restored {} from the local tool manifest.", count(tools.len(), "tool")))
        .section("Tools", lines)
        .output(ran.outcome.transcript.clone())
        .result(Restored { scope: scope.kind(), tools }))
}

/// CreateManifest: `dotnet new tool-manifest [-o <output>] [--force]`, locking the folder the
/// manifest belongs to, and reporting the manifest the SDK wrote: `dotnet-tools.json` in the
/// folder itself on SDK 10, `.config/dotnet-tools.json` before (the one of the two places that
/// changed; the SDK 10 place when neither did, as against the test double, which writes nothing).
pub async fn create_manifest(call: &Call<'_>) -> Outcome {
    let params = call.params();
    // The working directory as given or configured: a new manifest does not look for another.
    let cwd = call.cwd();
    let output = params.opt("output", Kind::Path)?;
    let mut args = vec!["new".to_owned(), "tool-manifest".to_owned()];
    push_value(&mut args, "-o", output);
    if params.flag("force") {
        args.push("--force".into());
    }
    let folder = output.map_or_else(|| cwd.to_owned(), |output| cwd.join(output));
    let _guard = call.lock(&scope::folder_lock(&folder)).await?;
    let places = scope::manifest_places(&folder);
    let before = places.each_ref().map(|place| modified(place));
    let description = format!("creating a tool manifest in {}", folder.display());
    let ran = call.run_ok(Command::new(args, cwd, description)).await?;
    let written =
        places.iter().zip(before).find(|(place, before)| modified(place).is_some_and(|now| Some(now) != *before));
    let manifest = written.map_or(&places[1], |(place, _)| place).display().to_string();
    Ok(Reply::new(format!("Created the tool manifest {manifest}."))
        .output(ran.outcome.transcript.clone())
        .result(Created { manifest }))
}

/// When `path` was last written, if it is there.
fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|meta| meta.modified()).ok()
}
