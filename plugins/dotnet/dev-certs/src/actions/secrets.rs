//! A project's user secrets: SecretsInit, SecretsSet, SecretsList, SecretsRemove and
//! SecretsClear. Changes lock the project (init edits its file) or its secret store.

use std::path::Path;

use dotnet_support::{
    errors::ErrorResponse,
    exec::Command,
    kit::{Call, Outcome, Reason, TargetParam, invalid, prose},
    locking::LockTarget,
    params::Kind,
    redact::REDACTED,
    respond::{Failure, Reply},
};
use schemars::JsonSchema;
use serde::Serialize;

use super::secret_text;
use crate::parse;

// SecretsInit: the project's UserSecretsId.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Initialized {
    /// The project passed to the CLI; null for the working directory's.
    project: Option<String>,
    user_secrets_id: Option<String>,
    messages: Vec<String>,
}

// SecretsSet and SecretsRemove: the key changed.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Keyed {
    /// The project passed to the CLI; null for the working directory's.
    project: Option<String>,
    key: String,
}

// SecretsList: the keys, with values hidden unless the operator allows them.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Listed {
    /// The project passed to the CLI; null for the working directory's.
    project: Option<String>,
    secrets: Vec<Secret>,
    count: usize,
    values_shown: bool,
}

// One user secret.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Secret {
    key: String,
    /// [REDACTED] unless the operator set ShowSecretValues.
    value: String,
}

// SecretsClear: the project whose secrets are gone.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Cleared {
    /// The project passed to the CLI; null for the working directory's.
    project: Option<String>,
}

/// The project the secrets belong to: the parameter, else the one project in the client's
/// roots, else `None` (the CLI takes the working directory's).
async fn project(call: &Call<'_>) -> Result<Option<String>, ErrorResponse> {
    call.cli_target(TargetParam::project()).await
}

/// `dotnet user-secrets` with `argv`, then `--project` when one is named, then `after`.
fn secrets_command(call: &Call<'_>, argv: Vec<String>, project: Option<&str>, after: &[&str]) -> Command {
    let description = format!("dotnet user-secrets {}", argv[0]);
    let project = project.into_iter().flat_map(|project| ["--project".to_owned(), project.to_owned()]);
    let after = after.iter().map(|arg| (*arg).to_owned());
    call.command(
        std::iter::once("user-secrets".to_owned()).chain(argv).chain(project).chain(after).collect(),
        description,
    )
}

/// The lock on the project's secret store (`<project>#user-secrets`): changes of secrets do not
/// wait for a build or a running app of the project but cannot lose each other's writes.
fn store_lock(call: &Call<'_>, project: Option<&str>) -> LockTarget {
    let project = LockTarget::for_path(project.map(Path::new), call.cwd());
    LockTarget { scope: project.scope, key: format!("{}#user-secrets", project.key) }
}

/// SecretsInit: `user-secrets init` under the project's lock (it edits the project file).
pub async fn init(call: &Call<'_>) -> Outcome {
    let project = project(call).await?;
    let _guard = call.lock(&LockTarget::for_path(project.as_deref().map(Path::new), call.cwd())).await?;
    let ran = call.run_ok(secrets_command(call, vec!["init".into()], project.as_deref(), &[])).await?;
    let id = parse::user_secrets_id(&ran.outcome.stdout);
    let summary = match &id {
        Some(id) => format!("User secrets are enabled for the project (UserSecretsId {id})."),
        None => "User secrets are enabled for the project.".to_owned(),
    };
    let messages = parse::messages(&ran.outcome.transcript);
    Ok(Reply::new(summary)
        .section("Messages", messages.clone())
        .output(ran.outcome.transcript.clone())
        .result(Initialized { project, user_secrets_id: id, messages }))
}

/// SecretsSet: `user-secrets set KEY VALUE`, the value declared secret.
pub async fn set(call: &Call<'_>) -> Outcome {
    let value = secret_text(call.params(), "value")?.ok_or_else(|| {
        invalid("value", Reason::Required, "Invalid argument 'value': is required and cannot be empty.")
    })?;
    change_key(call, "set", Some(value), "Saved the secret {key}; its value is not shown.").await
}

/// SecretsRemove: `user-secrets remove KEY`.
pub async fn remove(call: &Call<'_>) -> Outcome {
    change_key(call, "remove", None, "Removed the secret {key}.").await
}

/// `user-secrets VERB KEY [VALUE]` under the secret store's lock (`value` declared secret);
/// `summary` says what was done, `{key}` standing for the key.
async fn change_key(call: &Call<'_>, verb: &str, value: Option<String>, summary: &str) -> Outcome {
    let key = call.params().req("key", Kind::Text)?.to_owned();
    let project = project(call).await?;
    let _guard = call.lock(&store_lock(call, project.as_deref())).await?;
    let argv = [verb.to_owned(), key.clone()].into_iter().chain(value.clone()).collect();
    let mut command = secrets_command(call, argv, project.as_deref(), &[]);
    if let Some(value) = value {
        command = command.secret(value);
    }
    let ran = call.run_ok(command).await?;
    let messages = parse::messages(&ran.outcome.transcript);
    Ok(Reply::new(summary.replace("{key}", &key))
        .section("Messages", messages)
        .output(ran.outcome.transcript.clone())
        .result(Keyed { project, key }))
}

/// SecretsClear: asks the user, naming the project, then `user-secrets clear`.
pub async fn clear(call: &Call<'_>) -> Outcome {
    let project = project(call).await?;
    let store = store_lock(call, project.as_deref());
    let target = LockTarget::for_path(project.as_deref().map(Path::new), call.cwd()).key;
    let question = format!("Delete every user secret of {target}? The values cannot be recovered.");
    call.confirm(&question, &target).await?;
    let _guard = call.lock(&store).await?;
    let ran = call.run_ok(secrets_command(call, vec!["clear".into()], project.as_deref(), &[])).await?;
    let messages = parse::messages(&ran.outcome.transcript);
    Ok(Reply::new("Deleted every user secret of the project.")
        .section("Messages", messages)
        .output(ran.outcome.transcript.clone())
        .result(Cleared { project }))
}

/// SecretsList: `user-secrets list --json`, read from its unredacted output (kept inside the
/// plugin); every value `[REDACTED]` unless the operator set `ShowSecretValues`.
pub async fn list(call: &Call<'_>) -> Outcome {
    let project = project(call).await?;
    let command = secrets_command(call, vec!["list".into()], project.as_deref(), &["--json"]);
    let ran = call.run_ok(command.reveal_stdout()).await?;
    let show = call.settings().show_secret_values;
    let raw = ran.revealed_stdout.as_deref().unwrap_or_default();
    let hint = "Check the .NET SDK version (dotnet --version); user-secrets list --json needs .NET Core 3.0 or later.";
    let secrets = parse::secrets(raw).map_err(|reason| Failure::from(ran.unreadable(&reason, hint)))?;
    let listed: Vec<Secret> = secrets
        .iter()
        .map(|(key, value)| Secret { key: key.clone(), value: if show { value.clone() } else { REDACTED.to_owned() } })
        .collect();
    let summary = match (secrets.len(), show) {
        (0, _) => "The project has no user secrets.".to_owned(),
        (count, true) => format!("{}.", prose::count(count, "user secret")),
        (count, false) => format!(
            "{}; values are hidden (the operator can show them with the ShowSecretValues setting).",
            prose::count(count, "user secret")
        ),
    };
    let lines = match show {
        true => secrets.iter().map(|(key, value)| format!("{key} = {value}")).collect(),
        false => secrets.iter().map(|(key, _)| key.clone()).collect(),
    };
    // The list holds keys and either `[REDACTED]` or the values the operator allowed; redacting
    // it by field name would hide the keys too, so it goes out verbatim. The output is the JSON
    // the list was read from: shown only through the list itself.
    let verbatim = serde_json::to_value(&listed).expect("a list of strings serializes");
    let reply = Reply::new(summary).verbatim("secrets", verbatim);
    let reply = match show {
        true => reply.verbatim_section("Secrets", lines),
        false => reply.section("Secrets", lines),
    };
    Ok(reply.result(Listed { project, count: listed.len(), secrets: listed, values_shown: show }))
}
