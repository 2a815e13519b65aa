//! Install, Update and Uninstall: changes to the SDK installation, under the machine-wide lock.

use dotnet_support::{
    errors::{ErrorResponse, ErrorResult},
    exec::ProgressKind,
    kit::{Call, Outcome, Shape, ran_fields},
    locking::{LockTarget, lock_info_schema},
    params::{Kind, Params},
    respond::Reply,
};
use serde_json::{Value, json};

use super::count;
use crate::{Action, MAX_WORKLOAD_ID_CHARS, MAX_WORKLOAD_IDS, parse};

fn strings() -> Value {
    json!({ "type": "array", "items": { "type": "string" } })
}

/// Install: the workloads and the packs written.
pub fn install_shape() -> Shape {
    let pack = json!({
        "type": "object",
        "required": ["id", "version"],
        "properties": { "id": { "type": "string" }, "version": { "type": "string" } }
    });
    Shape::new(
        json!({ "workloadIds": strings(), "packs": { "type": "array", "items": pack }, "lockInfo": lock_info_schema() }),
        &["workloadIds", "packs", "lockInfo"],
    )
    .ran()
}

/// Update: the workloads updated.
pub fn update_shape() -> Shape {
    Shape::new(json!({ "updated": strings(), "lockInfo": lock_info_schema() }), &["updated", "lockInfo"]).ran()
}

/// Uninstall: the workloads removed, and whether the user was asked.
pub fn uninstall_shape() -> Shape {
    Shape::new(
        json!({
            "workloadIds": strings(),
            "consent": { "enum": ["confirmed", "notAsked"] },
            "lockInfo": lock_info_schema()
        }),
        &["workloadIds", "consent", "lockInfo"],
    )
    .ran()
}

fn invalid(parameter: &str, reason: &str, message: String) -> ErrorResponse {
    ErrorResponse::from(ErrorResult::invalid_params(parameter, reason, &message))
}

/// Checks one workload id: letters, digits, `_` and `-`, not starting with `-`.
fn check_workload_id(index: usize, id: &str) -> Result<(), ErrorResponse> {
    let name = format!("workloadIds[{index}]");
    let well_formed = !id.is_empty()
        && id.chars().count() <= MAX_WORKLOAD_ID_CHARS
        && id.starts_with(|c: char| c.is_ascii_alphanumeric())
        && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if well_formed {
        Ok(())
    } else {
        Err(invalid(
            &name,
            "invalid value",
            format!(
                "Invalid argument '{name}': must be a workload id such as wasm-tools or maui-android: letters, digits, \
                 '_' and '-', 1 to {MAX_WORKLOAD_ID_CHARS} characters, not starting with '-' (got {id:?})."
            ),
        ))
    }
}

/// The `workloadIds` (present: the kit requires them), each checked.
fn workload_ids(params: &Params) -> Result<Vec<String>, ErrorResponse> {
    let Some(Value::Array(items)) = params.raw("workloadIds") else {
        return Err(invalid(
            "workloadIds",
            "invalid type",
            "Invalid argument 'workloadIds': must be an array of workload ids.".to_owned(),
        ));
    };
    if items.len() > MAX_WORKLOAD_IDS {
        return Err(invalid(
            "workloadIds",
            "too many",
            format!("Invalid argument 'workloadIds': names more than {MAX_WORKLOAD_IDS} workloads."),
        ));
    }
    items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            let id = item.as_str().unwrap_or_default();
            check_workload_id(index, id).map(|()| id.to_owned())
        })
        .collect()
}

/// The options Install and Update share.
fn sources(params: &Params) -> Result<Vec<String>, ErrorResponse> {
    let mut args = Vec::new();
    if params.flag("includePreviews") {
        args.push("--include-previews".into());
    }
    if let Some(source) = params.opt("source", Kind::Text)? {
        args.extend(["--source".into(), source.to_owned()]);
    }
    if let Some(file) = params.opt("configFile", Kind::Path)? {
        args.extend(["--configfile".into(), file.to_owned()]);
    }
    Ok(args)
}

/// Runs Install, Update or Uninstall: asks first for an uninstall, then locks the machine.
pub async fn run(action: Action, call: &Call<'_>) -> Outcome {
    let params = call.params();
    let ids = match action {
        Action::Update => Vec::new(),
        _ => workload_ids(params)?,
    };
    let listed = ids.join(", ");
    let mut args: Vec<String> = vec!["workload".into()];
    let description = match action {
        Action::Install => {
            args.push("install".into());
            args.extend(ids.iter().cloned());
            if params.flag("skipManifestUpdate") {
                args.push("--skip-manifest-update".into());
            }
            args.extend(sources(params)?);
            format!("installing the workload(s) {listed}")
        }
        Action::Update => {
            args.push("update".into());
            args.extend(sources(params)?);
            "updating the installed workloads".to_owned()
        }
        _ => {
            args.push("uninstall".into());
            args.extend(ids.iter().cloned());
            format!("uninstalling the workload(s) {listed}")
        }
    };
    let consent = match action {
        Action::Uninstall => {
            let question = format!(
                "Uninstall the .NET SDK workload(s) {listed} from this machine? Projects that need them will not \
                 build until they are installed again."
            );
            Some(call.confirm(&question, &listed).await?)
        }
        _ => None,
    };
    let _guard = call.lock(&LockTarget::global()).await?;
    let ran = call.run_ok(call.command(args.clone(), description).progress(ProgressKind::Lines)).await?;
    let stdout = &ran.outcome.stdout;
    let mut structured = ran_fields(&ran);
    let reply = match (action, consent) {
        (Action::Install, _) => {
            let packs = parse::packs(stdout);
            let lines = packs.iter().map(|pack| format!("{} {}", pack.id, pack.version)).collect();
            structured.insert("workloadIds".into(), json!(ids));
            structured.insert("packs".into(), json!(packs));
            Reply::new(format!("Installed the workload(s) {listed} ({} written).", count(packs.len(), "pack")))
                .section("Packs", lines)
        }
        (Action::Update, _) => {
            let updated = parse::updated(stdout);
            let summary = if updated.is_empty() {
                "The workloads are up to date.".to_owned()
            } else {
                format!("Updated the workload(s) {}.", updated.join(", "))
            };
            structured.insert("updated".into(), json!(updated));
            Reply::new(summary)
        }
        (_, consent) => {
            structured.insert("workloadIds".into(), json!(ids));
            structured.insert("consent".into(), json!(consent.map(|consent| consent.as_str())));
            Reply::new(format!("Uninstalled the workload(s) {listed}."))
        }
    };
    Ok(reply.output(ran.outcome.transcript.clone()).structured(Value::Object(structured)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parameter(error: &ErrorResponse) -> String {
        error.errors[0].data.as_ref().unwrap().additional_data.as_ref().unwrap()["parameter"].clone()
    }

    #[test]
    fn workload_ids_are_plain() {
        for bad in ["--source=x", "wasm tools", "a;b", "", "maui.android"] {
            let args = json!({ "workloadIds": ["ios", bad] });
            assert_eq!(parameter(&workload_ids(&Params::new(&args)).unwrap_err()), "workloadIds[1]", "{bad}");
        }
        let args = json!({ "workloadIds": "ios" });
        assert_eq!(parameter(&workload_ids(&Params::new(&args)).unwrap_err()), "workloadIds");
        let args = json!({ "workloadIds": ["wasm-tools", "maui_x"] });
        assert_eq!(workload_ids(&Params::new(&args)).unwrap(), ["wasm-tools", "maui_x"]);
    }

    #[test]
    fn sources_are_options_in_a_fixed_order() {
        let args = json!({ "configFile": "n.config", "source": "https://feed/v3/index.json", "includePreviews": true });
        assert_eq!(
            sources(&Params::new(&args)).unwrap(),
            ["--include-previews", "--source", "https://feed/v3/index.json", "--configfile", "n.config"]
        );
        let args = json!({ "source": "--interactive" });
        assert_eq!(parameter(&sources(&Params::new(&args)).unwrap_err()), "source");
    }
}
