//! A project's user secrets: SecretsInit, SecretsSet, SecretsList, SecretsRemove and
//! SecretsClear. Changes lock the project (init edits its file) or its secret store.

use std::path::Path;

use dotnet_support::{
    errors::ErrorResult,
    kit::{Call, Outcome, Shape, ran_fields},
    locking::{LockTarget, lock_info_schema},
    params::Kind,
    redact::REDACTED,
    respond::{Failure, Reply},
    workspace::{self, Target},
};
use serde_json::{Value, json};

use super::{messages_schema, secret_text};
use crate::{Action, parse};

fn project_schema() -> Value {
    json!({ "type": ["string", "null"], "description": "The project passed to the CLI; null for the working directory's." })
}

/// SecretsInit: the project's UserSecretsId.
pub fn initialized_shape() -> Shape {
    Shape::new(
        json!({
            "project": project_schema(),
            "userSecretsId": { "type": ["string", "null"] },
            "messages": messages_schema(),
            "lockInfo": lock_info_schema()
        }),
        &["project", "userSecretsId", "messages"],
    )
    .ran()
}

/// SecretsSet and SecretsRemove: the key changed.
pub fn keyed_shape() -> Shape {
    Shape::new(json!({ "project": project_schema(), "key": { "type": "string" } }), &["project", "key"]).ran()
}

/// SecretsList: the keys, with values hidden unless the operator allows them.
pub fn listed_shape() -> Shape {
    let secret = json!({
        "type": "object",
        "properties": {
            "key": { "type": "string" },
            "value": { "type": "string", "description": "[REDACTED] unless the operator set ShowSecretValues." }
        },
        "required": ["key", "value"]
    });
    Shape::new(
        json!({
            "project": project_schema(),
            "secrets": { "type": "array", "items": secret },
            "count": { "type": "integer", "minimum": 0 },
            "valuesShown": { "type": "boolean" }
        }),
        &["project", "secrets", "count", "valuesShown"],
    )
    .ran()
}

/// SecretsClear: the project whose secrets are gone.
pub fn cleared_shape() -> Shape {
    Shape::new(json!({ "project": project_schema() }), &["project"]).ran()
}

/// Runs a secrets action on `project` (the parameter, else the one project in the client's
/// roots, else the working directory's).
pub async fn run(action: Action, call: &Call<'_>) -> Outcome {
    let params = call.params();
    let key = match action {
        Action::SecretsSet | Action::SecretsRemove => Some(params.req("key", Kind::Text)?),
        _ => None,
    };
    let value = match action {
        Action::SecretsSet => Some(secret_text(params, "value")?.ok_or_else(|| {
            ErrorResult::invalid_params(
                "value",
                "required",
                "Invalid argument 'value': is required and cannot be empty.",
            )
        })?),
        _ => None,
    };
    let project = match params.opt("project", Kind::ProjectPath)? {
        Some(project) => Some(project.to_owned()),
        None => {
            workspace::discover(call.ctx(), Target::Project, "project").await?.map(|path| path.display().to_string())
        }
    };
    let mut argv: Vec<String> = vec!["user-secrets".into()];
    match action {
        Action::SecretsInit => argv.push("init".into()),
        Action::SecretsSet => {
            argv.extend(["set".to_owned(), key.unwrap_or_default().to_owned(), value.clone().unwrap_or_default()])
        }
        Action::SecretsList => argv.push("list".into()),
        Action::SecretsRemove => argv.extend(["remove".to_owned(), key.unwrap_or_default().to_owned()]),
        _ => argv.push("clear".into()),
    }
    if let Some(project) = &project {
        argv.extend(["--project".to_owned(), project.clone()]);
    }
    if action == Action::SecretsList {
        argv.push("--json".into());
    }
    let project_target = LockTarget::for_path(project.as_deref().map(Path::new), call.cwd());
    if action == Action::SecretsClear {
        let target = &project_target.key;
        let question = format!("Delete every user secret of {target}? The values cannot be recovered.");
        call.confirm(&question, target).await?;
    }
    let _guard = match action {
        Action::SecretsList => None,
        Action::SecretsInit => Some(call.lock(&project_target).await?),
        _ => {
            let store = LockTarget { scope: project_target.scope, key: format!("{}#user-secrets", project_target.key) };
            Some(call.lock(&store).await?)
        }
    };
    let description = format!("dotnet user-secrets {}", argv[1]);
    let mut command = call.command(argv, description);
    if let Some(value) = &value {
        command = command.secret(value.clone());
    }
    if action == Action::SecretsList {
        command = command.reveal_stdout();
    }
    let ran = call.run_ok(command).await?;
    let mut structured = ran_fields(&ran);
    structured.insert("project".into(), json!(project));
    let messages = parse::messages(&ran.outcome.transcript);
    let reply = match action {
        Action::SecretsInit => {
            let id = parse::user_secrets_id(&ran.outcome.stdout);
            let summary = match &id {
                Some(id) => format!("User secrets are enabled for the project (UserSecretsId {id})."),
                None => "User secrets are enabled for the project.".to_owned(),
            };
            structured.insert("userSecretsId".into(), json!(id));
            structured.insert("messages".into(), json!(messages));
            Reply::new(summary)
        }
        Action::SecretsSet | Action::SecretsRemove => {
            let key = key.unwrap_or_default();
            structured.insert("key".into(), json!(key));
            Reply::new(match action {
                Action::SecretsSet => format!("Saved the secret {key}; its value is not shown."),
                _ => format!("Removed the secret {key}."),
            })
        }
        Action::SecretsList => {
            let show = call.settings().show_secret_values;
            let raw = ran.revealed_stdout.as_deref().unwrap_or_default();
            let hint =
                "Check the .NET SDK version (dotnet --version); user-secrets list --json needs .NET Core 3.0 or later.";
            let secrets = parse::secrets(raw).map_err(|reason| Failure::from(ran.unreadable(&reason, hint)))?;
            let listed: Vec<Value> = secrets
                .iter()
                .map(|(key, value)| json!({ "key": key, "value": if show { value.as_str() } else { REDACTED } }))
                .collect();
            structured.insert("count".into(), json!(secrets.len()));
            structured.insert("valuesShown".into(), json!(show));
            let summary = match (secrets.len(), show) {
                (0, _) => "The project has no user secrets.".to_owned(),
                (count, true) => format!("{count} user secret(s)."),
                (count, false) => format!(
                    "{count} user secret(s); values are hidden (the operator can show them with the \
                     ShowSecretValues setting)."
                ),
            };
            // The list holds keys and either `[REDACTED]` or the values the operator allowed;
            // redacting it by field name would hide the keys too, so it goes out verbatim. The
            // output is the JSON the list was read from: shown only through the list itself.
            let reply = Reply::new(summary).verbatim("secrets", Value::Array(listed));
            return Ok(match show {
                true => reply.verbatim_section(
                    "Secrets",
                    secrets.iter().map(|(key, value)| format!("{key} = {value}")).collect(),
                ),
                false => reply.section("Secrets", secrets.into_iter().map(|(key, _)| key).collect()),
            }
            .structured(Value::Object(structured)));
        }
        _ => Reply::new("Deleted every user secret of the project."),
    };
    Ok(reply.section("Messages", messages).output(ran.outcome.transcript.clone()).structured(Value::Object(structured)))
}
