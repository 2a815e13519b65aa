//! Install, Update and Uninstall: changes to the SDK installation, under the machine-wide lock.

use dotnet_support::{
    errors::{ErrorResponse, ErrorResult},
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
/// exit is the contract's error for it ([`failure`]).
async fn change(call: &Call<'_>, args: Vec<String>, description: String) -> Result<Ran, Failure> {
    let _guard = call.lock(&LockTarget::global()).await?;
    let mut argv = vec!["workload".to_owned()];
    argv.extend(args);
    let ran = call.run(call.command(argv, description).progress(ProgressKind::Lines)).await?;
    if ran.succeeded() { Ok(ran) } else { Err(failure(&ran).into()) }
}

/// The error of a failed install or update. A pack the NuGet feeds do not serve (a mirror or an
/// offline feed; SDK 10.0.401 ends with `Workload installation failed: ... (Version 10.0.12 of
/// package <pack> is not found in NuGet feeds <feeds>.)`, exit 1) is CAPABILITY_NOT_AVAILABLE
/// with the remedy, keeping the run's command, exit code and stderr; anything else is the
/// contract's error for the exit code.
fn failure(ran: &Ran) -> ErrorResponse {
    let mut response = ran.failure();
    let output = format!("{}\n{}", ran.outcome.stdout, ran.outcome.stderr);
    let Some(missing) = parse::missing_pack(&output) else { return response };
    let reason = format!(
        "version {} of the workload pack {} is not on the NuGet feeds this machine uses ({})",
        missing.version, missing.package, missing.feeds
    );
    let alternatives = vec![
        "Call Install again with `source` (or `configFile`) naming a NuGet feed that serves the workload's packs."
            .into(),
        "Install the workload where nuget.org is reachable, or add the packs to this machine's feed or mirror.".into(),
    ];
    let mut error = ErrorResult::capability_not_available("workload packs", &reason, alternatives).with_hint(
        "The NuGet feeds this machine uses do not serve the workload's packs: give Install a `source` or \
         `configFile` with a feed that has them (nuget.org does), or install the workload on a machine that \
         reaches nuget.org.",
    );
    let first = &response.errors[0];
    if let (Some(data), Some(ran_data)) = (error.data.as_mut(), first.data.as_ref()) {
        data.command = ran_data.command.clone();
        data.exit_code = ran_data.exit_code;
        data.stderr = ran_data.stderr.clone();
        data.additional_data.get_or_insert_with(Default::default).insert("package".into(), missing.package.clone());
    }
    error.raw_output = first.raw_output.clone();
    response.errors = vec![error];
    response
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
