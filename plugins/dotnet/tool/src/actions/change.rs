//! Install, Update, Uninstall, Restore and CreateManifest: changes to where tools live, each
//! under the lock of its scope.

use std::{path::Path, time::SystemTime};

use dotnet_support::{
    exec::{Command, ProgressKind},
    kit::{Call, Consent, Outcome, Shape, ran_fields},
    locking::lock_info_schema,
    params::{Kind, Params},
    respond::Reply,
};
use serde_json::{Value, json};

use super::{count, installed_schema, scope_schema};
use crate::{
    Action, parse,
    scope::{self, Scope},
};

/// Install and Update: the tool, where it went and which version.
pub fn changed_shape() -> Shape {
    Shape::new(
        json!({
            "packageId": { "type": "string" }, "scope": scope_schema(), "version": { "type": "string" },
            "previousVersion": { "type": "string" }, "manifest": { "type": "string" }, "lockInfo": lock_info_schema()
        }),
        &["packageId", "scope", "lockInfo"],
    )
    .ran()
}

/// Uninstall: the tool removed, and whether the user was asked.
pub fn uninstalled_shape() -> Shape {
    Shape::new(
        json!({
            "packageId": { "type": "string" }, "scope": scope_schema(), "version": { "type": "string" },
            "manifest": { "type": "string" }, "consent": { "enum": ["confirmed", "notAsked"] },
            "lockInfo": lock_info_schema()
        }),
        &["packageId", "scope", "consent", "lockInfo"],
    )
    .ran()
}

/// Restore: the tools restored.
pub fn restored_shape() -> Shape {
    Shape::new(
        json!({
            "scope": scope_schema(),
            "tools": { "type": "array", "items": installed_schema() },
            "lockInfo": lock_info_schema()
        }),
        &["tools", "lockInfo"],
    )
    .ran()
}

/// CreateManifest: the manifest written.
pub fn created_shape() -> Shape {
    Shape::new(json!({ "manifest": { "type": "string" }, "lockInfo": lock_info_schema() }), &["manifest", "lockInfo"])
        .ran()
}

/// Appends `flag value` when the parameter is set.
pub(super) fn push_value(args: &mut Vec<String>, flag: &str, value: Option<&str>) {
    if let Some(value) = value {
        args.extend([flag.to_owned(), value.to_owned()]);
    }
}

/// `--add-source` and `--configfile`, shared by installs, updates, restores and one-shot runs.
pub(super) fn sources(args: &mut Vec<String>, params: &Params) -> Result<(), dotnet_support::errors::ErrorResponse> {
    push_value(args, "--add-source", params.opt("source", Kind::Text)?);
    push_value(args, "--configfile", params.opt("configFile", Kind::Path)?);
    Ok(())
}

/// Runs a change: the argument vector, the confirmation of an uninstall, the scope's lock, the
/// run, and what it reported.
pub async fn run(action: Action, call: &Call<'_>) -> Outcome {
    let params = call.params();
    let scope = Scope::read(params)?;
    let local = action != Action::CreateManifest && scope == Scope::Local(None);
    let cwd = scope::folder(call, local).await?;
    if action == Action::CreateManifest {
        return create_manifest(call, &cwd).await;
    }
    let id = match action {
        Action::Restore => None,
        _ => Some(params.req("packageId", Kind::PackageId)?),
    };
    let subject = id.unwrap_or_default();
    let (verb, mut args) = match action {
        Action::Install => ("installing", vec!["tool".to_owned(), "install".to_owned(), subject.to_owned()]),
        Action::Update => ("updating", vec!["tool".to_owned(), "update".to_owned(), subject.to_owned()]),
        Action::Uninstall => ("uninstalling", vec!["tool".to_owned(), "uninstall".to_owned(), subject.to_owned()]),
        _ => ("restoring", vec!["tool".to_owned(), "restore".to_owned()]),
    };
    args.extend(scope.args());
    if matches!(action, Action::Install | Action::Update) {
        push_value(&mut args, "--version", params.opt("version", Kind::Version)?);
        push_value(&mut args, "--framework", params.opt("framework", Kind::Framework)?);
        if params.flag("prerelease") {
            args.push("--prerelease".into());
        }
        if params.flag("allowDowngrade") {
            args.push("--allow-downgrade".into());
        }
    }
    if matches!(action, Action::Install | Action::Update | Action::Restore) {
        sources(&mut args, params)?;
    }
    let description = match id {
        Some(id) => format!("{verb} the tool {id} {}", scope.describe()),
        None => format!("{verb} the tools {}", scope.describe()),
    };
    let consent = match action {
        Action::Uninstall => {
            let question = format!(
                "Uninstall the .NET tool '{subject}' {}? Its commands will no longer be available{}.",
                scope.describe(),
                if matches!(scope, Scope::Local(_)) { " and its entry leaves the manifest" } else { "" }
            );
            Some(call.confirm(&question, subject).await?)
        }
        _ => None,
    };
    let _guard = call.lock(&scope.lock(&cwd)).await?;
    let command = Command::new(args.clone(), &cwd, description).progress(ProgressKind::Lines);
    let ran = call.run_ok(command).await?;
    let stdout = &ran.outcome.stdout;
    let mut structured = ran_fields(&ran);
    structured.insert("scope".into(), json!(scope.name()));
    let reply = if action == Action::Restore {
        let tools = parse::restored(stdout);
        let lines = tools
            .iter()
            .map(|tool| format!("{} {} (commands: {})", tool.package_id, tool.version, tool.commands.join(", ")))
            .collect();
        structured.insert("tools".into(), json!(tools));
        Reply::new(format!("Restored {} from the local tool manifest.", count(tools.len(), "tool")))
            .section("Tools", lines)
    } else {
        changed(action, subject, &scope, consent, stdout, &mut structured)
    };
    Ok(reply.output(ran.outcome.transcript.clone()).structured(Value::Object(structured)))
}

/// The reply of an install, update or uninstall, from the `Tool '<id>' ...` lines.
fn changed(
    action: Action,
    subject: &str,
    scope: &Scope,
    consent: Option<Consent>,
    stdout: &str,
    structured: &mut serde_json::Map<String, Value>,
) -> Reply {
    let change = parse::change(stdout);
    structured.insert("packageId".into(), json!(subject));
    for (key, value) in
        [("version", &change.version), ("previousVersion", &change.previous_version), ("manifest", &change.manifest)]
    {
        if let Some(value) = value {
            structured.insert(key.into(), json!(value));
        }
    }
    if let Some(consent) = consent {
        structured.insert("consent".into(), json!(consent.as_str()));
    }
    let verb = match action {
        Action::Install => "Installed",
        Action::Update => "Updated",
        _ => "Uninstalled",
    };
    let version = match (&change.previous_version, &change.version) {
        (Some(from), Some(to)) => format!(" from {from} to {to}"),
        (None, Some(version)) => format!(" {version}"),
        _ => String::new(),
    };
    let manifest = change.manifest.as_ref().map(|m| format!(" ({m})")).unwrap_or_default();
    Reply::new(format!("{verb} {subject}{version} {}{manifest}.", scope.describe()))
}

/// CreateManifest: `dotnet new tool-manifest [-o <output>] [--force]`, locking the folder the
/// manifest belongs to, and reporting the manifest the SDK wrote: `dotnet-tools.json` in the
/// folder itself on SDK 10, `.config/dotnet-tools.json` before (the one of the two places that
/// changed; the SDK 10 place when neither did, as against the test double, which writes nothing).
async fn create_manifest(call: &Call<'_>, cwd: &Path) -> Outcome {
    let params = call.params();
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
    let ran = call.run_ok(Command::new(args.clone(), cwd, description)).await?;
    let written =
        places.iter().zip(before).find(|(place, before)| modified(place).is_some_and(|now| Some(now) != *before));
    let manifest = written.map_or(&places[1], |(place, _)| place).display().to_string();
    let mut structured = ran_fields(&ran);
    structured.insert("manifest".into(), json!(manifest));
    Ok(Reply::new(format!("Created the tool manifest {manifest}."))
        .output(ran.outcome.transcript.clone())
        .structured(Value::Object(structured)))
}

/// When `path` was last written, if it is there.
fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|meta| meta.modified()).ok()
}
