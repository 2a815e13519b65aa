//! Facts of the installation: Version, Info, ListSdks, ListRuntimes and FrameworkInfo.

use dotnet_support::{
    errors::code,
    exec::ProgressKind,
    frameworks,
    kit::{
        Call, Outcome, Reason, invalid,
        prose::{count, count_of},
    },
    listings,
    params::Kind,
    respond::{Failure, Reply},
};
use schemars::JsonSchema;
use serde::Serialize;

use super::{run, run_ok};
use crate::parse;

/// Version: the SDK in use.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Version {
    version: String,
}

/// ListSdks: the installed SDKs and the newest.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Sdks {
    sdks: Vec<listings::Sdk>,
    /// The newest, null when none is installed.
    latest: Option<String>,
}

/// ListRuntimes: the installed runtimes.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Runtimes {
    runtimes: Vec<listings::Runtime>,
}

/// FrameworkInfo: the framework table, what to use, what is installed.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Frameworks {
    frameworks: Vec<frameworks::Facts>,
    /// The platform suffix of the framework asked about (`windows` of `net8.0-windows`).
    #[serde(skip_serializing_if = "Option::is_none")]
    platform: Option<String>,
    latest_recommended: Option<&'static str>,
    latest_lts: Option<&'static str>,
    /// Null when dotnet was not there to ask.
    installed_sdks: Option<Vec<String>>,
    sdks_newer_than_table: Vec<String>,
    as_of: frameworks::NaiveDate,
}

pub async fn version(call: &Call<'_>) -> Outcome {
    let ran = run_ok(call, &["--version"]).await?;
    let version = ran.outcome.stdout.lines().map(str::trim).find(|line| !line.is_empty()).unwrap_or_default();
    Ok(Reply::new(format!("The .NET SDK in use in {} is {version}.", call.cwd().display()))
        .result(Version { version: version.to_owned() }))
}

pub async fn info(call: &Call<'_>) -> Outcome {
    let ran = run_ok(call, &["--info"]).await?;
    let info = parse::info(&ran.outcome.stdout);
    let in_use = match &info.sdk_version {
        Some(version) => format!(".NET SDK {version} in use"),
        None => "No .NET SDK in use".to_owned(),
    };
    let platform =
        [&info.os_name, &info.os_version, &info.rid].into_iter().flatten().cloned().collect::<Vec<_>>().join(" ");
    let summary = format!(
        "{in_use}{}; {} and {} installed.",
        if platform.is_empty() { String::new() } else { format!(" on {platform}") },
        count(info.sdks.len(), "SDK"),
        count(info.runtimes.len(), "runtime"),
    );
    let global_json = info.global_json.as_ref().map(|path| format!("global.json in effect: {path}"));
    let sdks = info.sdks.iter().map(|sdk| format!("{} [{}]", sdk.version, sdk.path)).collect();
    let runtimes = info.runtimes.iter().map(|r| format!("{} {} [{}]", r.name, r.version, r.path)).collect();
    Ok(Reply::new(summary)
        .section("global.json", global_json.into_iter().collect())
        .section("SDKs", sdks)
        .section("Runtimes", runtimes)
        .output(ran.outcome.stdout.clone())
        .result(info))
}

pub async fn list_sdks(call: &Call<'_>) -> Outcome {
    let ran = run_ok(call, &["--list-sdks"]).await?;
    let sdks = listings::parse_sdks(&ran.outcome.stdout);
    let latest = listings::newest(sdks.iter().map(|sdk| sdk.version.as_str()));
    let summary = match latest {
        Some(latest) => format!("{} installed; the newest is {latest}.", count_of(sdks.len(), "SDK is", "SDKs are")),
        None => "No .NET SDK is installed (a runtime-only installation): SDK commands cannot run here. \
                 Install an SDK from https://dotnet.microsoft.com/download."
            .to_owned(),
    };
    let lines = sdks.iter().map(|sdk| format!("{} [{}]", sdk.version, sdk.path)).collect();
    let latest = latest.map(str::to_owned);
    Ok(Reply::new(summary).section("SDKs", lines).result(Sdks { sdks, latest }))
}

pub async fn list_runtimes(call: &Call<'_>) -> Outcome {
    let ran = run_ok(call, &["--list-runtimes"]).await?;
    let runtimes = listings::parse_runtimes(&ran.outcome.stdout);
    let lines = runtimes.iter().map(|r| format!("{} {} [{}]", r.name, r.version, r.path)).collect();
    Ok(Reply::new(format!("{} installed.", count_of(runtimes.len(), "runtime is", "runtimes are")))
        .section("Runtimes", lines)
        .result(Runtimes { runtimes }))
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
            invalid(
                "framework",
                Reason::Value,
                format!(
                    "Invalid argument 'framework': '{tfm}' is not a framework this server knows. Known: {}.",
                    known.join(", ")
                ),
            )
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
    let result = Frameworks {
        frameworks: shown.iter().map(|f| f.facts(&today, versions.as_deref())).collect(),
        platform: requested.and_then(|(_, platform)| platform).map(str::to_owned),
        latest_recommended: recommended.map(|(framework, _)| framework.tfm),
        latest_lts: latest_lts.map(|framework| framework.tfm),
        installed_sdks: sdk_versions.clone(),
        sdks_newer_than_table: newer.iter().map(|version| (*version).to_owned()).collect(),
        as_of: today,
    };
    let mut notes: Vec<String> = shown.iter().map(|framework| describe(framework)).collect();
    if !newer.is_empty() {
        notes.push(format!(
            "Installed SDKs newer than this table: {} (its facts may be out of date).",
            newer.join(", ")
        ));
    }
    Ok(Reply::new(summary.trim().to_owned()).section("Frameworks", notes).result(result))
}
