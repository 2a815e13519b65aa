//! Install, Update and Uninstall: changes to the SDK installation, under the machine-wide lock.

use dotnet_support::{
    errors::ErrorResponse,
    exec::{ProgressKind, Ran},
    kit::{Call, Consent, Outcome, Reason, Split, invalid, prose::count},
    locking::LockTarget,
    params::{Kind, Params},
    respond::{Failure, Reply},
};
use schemars::JsonSchema;
use serde::Serialize;

use crate::{MAX_WORKLOAD_ID_CHARS, MAX_WORKLOAD_IDS, parse};

/// Install: the workloads and the packs written.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Installed {
    workload_ids: Vec<String>,
    packs: Vec<parse::Pack>,
}

/// Update: the workloads updated.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Updated {
    updated: Vec<String>,
}

/// Uninstall: the workloads removed, and whether the user was asked.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Uninstalled {
    workload_ids: Vec<String>,
    consent: Consent,
}

/// Checks one workload id: letters, digits, `_` and `-`, not starting with `-`.
fn check_workload_id(name: &str, id: &str) -> Result<(), ErrorResponse> {
    let well_formed = id.chars().count() <= MAX_WORKLOAD_ID_CHARS
        && id.starts_with(|c: char| c.is_ascii_alphanumeric())
        && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if well_formed {
        return Ok(());
    }
    let message = format!(
        "Invalid argument '{name}': must be a workload id such as wasm-tools or maui-android: letters, digits, \
         '_' and '-', 1 to {MAX_WORKLOAD_ID_CHARS} characters, not starting with '-' (got {id:?})."
    );
    Err(invalid(name, Reason::Value, message))
}

/// The `workloadIds` (the kit makes sure there is one), each checked.
fn workload_ids(params: &Params) -> Result<Vec<String>, ErrorResponse> {
    let ids = params.list_with("workloadIds", Split::Never, MAX_WORKLOAD_IDS, check_workload_id)?;
    Ok(ids.into_iter().map(str::to_owned).collect())
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

/// `dotnet workload ARGS` under the machine-wide lock, its output lines as progress; a non-zero
/// exit is the contract's error for it.
async fn change(call: &Call<'_>, args: Vec<String>, description: String) -> Result<Ran, Failure> {
    let _guard = call.lock(&LockTarget::global()).await?;
    let mut argv = vec!["workload".to_owned()];
    argv.extend(args);
    call.run_ok(call.command(argv, description).progress(ProgressKind::Lines)).await
}

/// Runs Install.
pub async fn install(call: &Call<'_>) -> Outcome {
    let params = call.params();
    let ids = workload_ids(params)?;
    let listed = ids.join(", ");
    let mut args = vec!["install".to_owned()];
    args.extend(ids.iter().cloned());
    if params.flag("skipManifestUpdate") {
        args.push("--skip-manifest-update".into());
    }
    args.extend(sources(params)?);
    let ran = change(call, args, format!("installing the workload(s) {listed}")).await?;
    let packs = parse::packs(&ran.outcome.stdout);
    let lines = packs.iter().map(|pack| format!("{} {}", pack.id, pack.version)).collect();
    Ok(Reply::new(format!("Installed the workload(s) {listed} ({} written).", count(packs.len(), "pack")))
        .section("Packs", lines)
        .output(ran.outcome.transcript.clone())
        .result(Installed { workload_ids: ids, packs }))
}

/// Runs Update.
pub async fn update(call: &Call<'_>) -> Outcome {
    let mut args = vec!["update".to_owned()];
    args.extend(sources(call.params())?);
    let ran = change(call, args, "updating the installed workloads".to_owned()).await?;
    let updated = parse::updated(&ran.outcome.stdout);
    let summary = if updated.is_empty() {
        "The workloads are up to date.".to_owned()
    } else {
        format!("Updated the workload(s) {}.", updated.join(", "))
    };
    Ok(Reply::new(summary).output(ran.outcome.transcript.clone()).result(Updated { updated }))
}

/// Runs Uninstall, after asking the user.
pub async fn uninstall(call: &Call<'_>) -> Outcome {
    let ids = workload_ids(call.params())?;
    let listed = ids.join(", ");
    let question = format!(
        "Uninstall the .NET SDK workload(s) {listed} from this machine? Projects that need them will not build \
         until they are installed again."
    );
    let consent = call.confirm(&question, &listed).await?;
    let mut args = vec!["uninstall".to_owned()];
    args.extend(ids.iter().cloned());
    let ran = change(call, args, format!("uninstalling the workload(s) {listed}")).await?;
    Ok(Reply::new(format!("Uninstalled the workload(s) {listed}."))
        .output(ran.outcome.transcript.clone())
        .result(Uninstalled { workload_ids: ids, consent }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parameter(error: &ErrorResponse) -> String {
        error.errors[0].data.as_ref().unwrap().additional_data.as_ref().unwrap()["parameter"].clone()
    }

    #[test]
    fn workload_ids_are_plain() {
        for bad in ["--source=x", "wasm tools", "a;b", "maui.android"] {
            let args = json!({ "workloadIds": ["ios", "", bad] });
            assert_eq!(parameter(&workload_ids(&Params::new(&args)).unwrap_err()), "workloadIds[2]", "{bad}");
        }
        let args = json!({ "workloadIds": [7] });
        assert_eq!(parameter(&workload_ids(&Params::new(&args)).unwrap_err()), "workloadIds[0]");
        let args = json!({ "workloadIds": [" wasm-tools", "", "maui_x"] });
        assert_eq!(workload_ids(&Params::new(&args)).unwrap(), ["wasm-tools", "maui_x"], "blank items ask for nothing");
        let many: Vec<String> = (0..=MAX_WORKLOAD_IDS).map(|n| format!("w{n}")).collect();
        let args = json!({ "workloadIds": many });
        assert_eq!(parameter(&workload_ids(&Params::new(&args)).unwrap_err()), "workloadIds");
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
