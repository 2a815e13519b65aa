//! Facts of the installation: Version, Info, ListSdks, ListRuntimes and FrameworkInfo.

use dotnet_support::{
    errors::{ErrorResponse, ErrorResult, code},
    exec::ProgressKind,
    frameworks,
    kit::{Call, Outcome, Shape},
    listings,
    params::Kind,
    respond::{Failure, Reply},
};
use serde_json::{Value, json};

use super::{counted, run, run_ok};
use crate::parse;

fn text() -> Value {
    json!({ "type": "string" })
}

/// Version: the SDK in use.
pub fn version_shape() -> Shape {
    Shape::new(json!({ "version": text() }), &["version"])
}

/// Info: what `dotnet --info` says.
pub fn info_shape() -> Shape {
    let text = text();
    Shape::new(
        json!({
            "sdkVersion": text, "commit": text, "workloadVersion": text, "msbuildVersion": text,
            "osName": text, "osVersion": text, "osPlatform": text, "rid": text, "basePath": text,
            "hostVersion": text, "hostArchitecture": text,
            "sdks": { "type": "array", "items": listings::sdk_schema() },
            "runtimes": { "type": "array", "items": listings::runtime_schema() },
            "globalJson": { "type": ["string", "null"], "description": "The global.json in effect, or null." }
        }),
        &["sdks", "runtimes"],
    )
}

/// ListSdks: the installed SDKs and the newest.
pub fn sdks_shape() -> Shape {
    Shape::new(
        json!({ "sdks": { "type": "array", "items": listings::sdk_schema() }, "latest": { "type": ["string", "null"] } }),
        &["sdks"],
    )
}

/// ListRuntimes: the installed runtimes.
pub fn runtimes_shape() -> Shape {
    Shape::new(json!({ "runtimes": { "type": "array", "items": listings::runtime_schema() } }), &["runtimes"])
}

/// FrameworkInfo: the framework table, what to use, what is installed.
pub fn frameworks_shape() -> Shape {
    Shape::new(
        json!({
            "frameworks": { "type": "array", "items": frameworks::framework_schema() },
            "platform": text(),
            "latestRecommended": { "type": ["string", "null"] },
            "latestLts": { "type": ["string", "null"] },
            "installedSdks": { "type": ["array", "null"], "items": { "type": "string" } },
            "sdksNewerThanTable": { "type": "array", "items": { "type": "string" } },
            "asOf": { "type": "string", "format": "date" }
        }),
        &["frameworks", "latestRecommended", "latestLts", "installedSdks", "asOf"],
    )
}

pub async fn version(call: &Call<'_>) -> Outcome {
    let ran = run_ok(call, &["--version"]).await?;
    let version = ran.outcome.stdout.lines().map(str::trim).find(|line| !line.is_empty()).unwrap_or_default();
    Ok(Reply::new(format!("The .NET SDK in use in {} is {version}.", call.cwd().display()))
        .structured(json!({ "version": version })))
}

pub async fn info(call: &Call<'_>) -> Outcome {
    let ran = run_ok(call, &["--info"]).await?;
    let fields = parse::info(&ran.outcome.stdout);
    let sdks = fields["sdks"].as_array().map_or(0, Vec::len);
    let runtimes = fields["runtimes"].as_array().map_or(0, Vec::len);
    let in_use = match fields["sdkVersion"].as_str() {
        Some(version) => format!(".NET SDK {version} in use"),
        None => "No .NET SDK in use".to_owned(),
    };
    let platform = [&fields["osName"], &fields["osVersion"], &fields["rid"]]
        .iter()
        .filter_map(|field| field.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    let summary = format!(
        "{in_use}{}; {} and {} installed.",
        if platform.is_empty() { String::new() } else { format!(" on {platform}") },
        counted(sdks, "SDK", "SDKs"),
        counted(runtimes, "runtime", "runtimes"),
    );
    let global_json = fields["globalJson"].as_str().map(|path| format!("global.json in effect: {path}"));
    let listed = |key: &str| -> Vec<String> {
        fields[key]
            .as_array()
            .into_iter()
            .flatten()
            .map(|item| {
                let name = item["name"].as_str().map(|name| format!("{name} ")).unwrap_or_default();
                format!(
                    "{name}{} [{}]",
                    item["version"].as_str().unwrap_or_default(),
                    item["path"].as_str().unwrap_or_default()
                )
            })
            .collect()
    };
    Ok(Reply::new(summary)
        .section("global.json", global_json.into_iter().collect())
        .section("SDKs", listed("sdks"))
        .section("Runtimes", listed("runtimes"))
        .output(ran.outcome.stdout.clone())
        .structured(fields))
}

pub async fn list_sdks(call: &Call<'_>) -> Outcome {
    let ran = run_ok(call, &["--list-sdks"]).await?;
    let sdks = listings::parse_sdks(&ran.outcome.stdout);
    let latest = listings::newest(sdks.iter().map(|sdk| sdk.version.as_str()));
    let summary = match latest {
        Some(latest) => format!("{} installed; the newest is {latest}.", counted(sdks.len(), "SDK is", "SDKs are")),
        None => "No .NET SDK is installed (a runtime-only installation): SDK commands cannot run here. \
                 Install an SDK from https://dotnet.microsoft.com/download."
            .to_owned(),
    };
    let lines = sdks.iter().map(|sdk| format!("{} [{}]", sdk.version, sdk.path)).collect();
    Ok(Reply::new(summary).section("SDKs", lines).structured(json!({ "sdks": sdks, "latest": latest })))
}

pub async fn list_runtimes(call: &Call<'_>) -> Outcome {
    let ran = run_ok(call, &["--list-runtimes"]).await?;
    let runtimes = listings::parse_runtimes(&ran.outcome.stdout);
    let lines = runtimes.iter().map(|r| format!("{} {} [{}]", r.name, r.version, r.path)).collect();
    Ok(Reply::new(format!("{} installed.", counted(runtimes.len(), "runtime is", "runtimes are")))
        .section("Runtimes", lines)
        .structured(json!({ "runtimes": runtimes })))
}

/// The installed SDK versions, or `None` when dotnet is not there to ask.
async fn sdk_versions(call: &Call<'_>) -> Result<Option<Vec<String>>, Failure> {
    match run(call, &["--list-sdks"], ProgressKind::None).await {
        Ok(ran) if ran.succeeded() => {
            Ok(Some(listings::parse_sdks(&ran.outcome.stdout).into_iter().map(|sdk| sdk.version).collect()))
        }
        Ok(_) => Ok(None),
        Err(Failure { error, .. }) if error.errors[0].code == code::CAPABILITY_NOT_AVAILABLE => Ok(None),
        Err(failure) => Err(failure),
    }
}

pub async fn framework_info(call: &Call<'_>) -> Outcome {
    let params = call.params();
    let requested = match params.opt("framework", Kind::Framework)? {
        Some(tfm) => Some(frameworks::lookup(tfm).ok_or_else(|| {
            let known: Vec<&str> = frameworks::TABLE.iter().map(|framework| framework.tfm).collect();
            ErrorResponse::from(ErrorResult::invalid_params(
                "framework",
                "unknown value",
                &format!(
                    "Invalid argument 'framework': '{tfm}' is not a framework this server knows. Known: {}.",
                    known.join(", ")
                ),
            ))
        })?),
        None => None,
    };
    let sdk_versions = sdk_versions(call).await?;
    let today = frameworks::today();
    let versions: Option<Vec<&str>> = sdk_versions.as_ref().map(|v| v.iter().map(String::as_str).collect());
    let recommended = frameworks::recommended(&today, versions.as_deref().unwrap_or_default());
    let latest_lts = frameworks::newest_supported(&today, Some(frameworks::ReleaseType::Lts));
    let shown: Vec<&frameworks::Framework> = match requested {
        Some((framework, _)) => vec![framework],
        None => frameworks::TABLE.iter().collect(),
    };
    let describe = |framework: &frameworks::Framework| {
        let mut line = format!("{}: {}", framework.tfm, framework.description);
        if let Some(kind) = framework.release_type {
            line.push_str(if kind == frameworks::ReleaseType::Lts { ", LTS" } else { ", STS" });
        }
        match (framework.status(&today), framework.end_of_support) {
            (frameworks::Status::Supported, Some(end)) => line.push_str(&format!(", supported until {end}")),
            (frameworks::Status::EndOfSupport, Some(end)) => line.push_str(&format!(", out of support since {end}")),
            (frameworks::Status::Preview, _) => line.push_str(", not released yet"),
            _ => {}
        }
        line
    };
    let mut summary = match requested {
        Some((framework, _)) => format!("{}.", describe(framework)),
        None => String::new(),
    };
    if let Some((framework, installed)) = recommended {
        if !summary.is_empty() {
            summary.push(' ');
        }
        summary.push_str(&format!("Recommended for new projects: {} (the newest supported LTS)", framework.tfm));
        summary.push_str(if installed || sdk_versions.is_none() {
            "."
        } else {
            "; no installed SDK can build for it yet."
        });
    }
    if sdk_versions.is_none() {
        summary.push_str(" dotnet was not found, so installed SDKs are unknown.");
    }
    let newer = frameworks::newer_than_table(versions.as_deref().unwrap_or_default());
    let mut fields = json!({
        "frameworks": shown.iter().map(|f| f.to_json(&today, versions.as_deref())).collect::<Vec<_>>(),
        "latestRecommended": recommended.map(|(framework, _)| framework.tfm),
        "latestLts": latest_lts.map(|framework| framework.tfm),
        "installedSdks": sdk_versions,
        "sdksNewerThanTable": newer,
        "asOf": today,
    });
    if let Some((_, Some(platform))) = requested {
        fields["platform"] = json!(platform);
    }
    let mut notes: Vec<String> = shown.iter().map(|framework| describe(framework)).collect();
    if !newer.is_empty() {
        notes.push(format!(
            "Installed SDKs newer than this table: {} (its facts may be out of date).",
            newer.join(", ")
        ));
    }
    Ok(Reply::new(summary.trim().to_owned()).section("Frameworks", notes).structured(fields))
}
