//! The resources of `dotnet_sdk`: `dotnet://sdk-info`, `dotnet://runtime-info`,
//! `dotnet://templates` and `dotnet://frameworks`, the reference server's four installation
//! resources. Each read asks the CLI again (no cache, so no cache block in the contents: the
//! reference's `{data, cache}` wrapper is gone) and is redacted like a tool result.
//!
//! | URI | runs | contents |
//! |---|---|---|
//! | `dotnet://sdk-info` | `dotnet --list-sdks` | `{sdks[{version, path}], latestSdk}`, oldest first |
//! | `dotnet://runtime-info` | `dotnet --list-runtimes` | `{runtimes[{name, version, path}]}` |
//! | `dotnet://templates` | `dotnet new list --columns-all` | `{templates[]}`, as `ListTemplates` gives them |
//! | `dotnet://frameworks` | `dotnet --list-sdks` (the table is built in) | `{modernFrameworks, netCoreFrameworks, netStandardFrameworks, netFrameworkFrameworks, latestRecommended, latestLts, installedSdks, asOf}` |
//!
//! `dotnet://templates` is announced updated after `InstallTemplatePack`, `UninstallTemplatePack`
//! and `ClearTemplateCache` (see the declaration in the front door). The other three change only
//! when an SDK or runtime is installed outside the server, which nothing here can see.

use dotnet_support::{
    frameworks::{self, Family},
    listings,
    resources::{self, FRAMEWORKS, JSON, RUNTIME_INFO, SDK_INFO, TEMPLATES},
    settings::DotnetSettings,
};
use mcp_plugin_api::{BoxedResource, Resource, ResourceContents, ResourceSpec, ToolError};
use serde_json::{Value, json};

use crate::parse;

/// Which of the four resources.
#[derive(Debug, Clone, Copy)]
enum Kind {
    SdkInfo,
    RuntimeInfo,
    Templates,
    Frameworks,
}

/// One resource of the installation, read with the plugin's settings.
struct Installation {
    kind: Kind,
    settings: DotnetSettings,
}

/// The four resources.
pub fn all(settings: &DotnetSettings) -> Vec<BoxedResource> {
    [Kind::SdkInfo, Kind::RuntimeInfo, Kind::Templates, Kind::Frameworks]
        .into_iter()
        .map(|kind| Installation { kind, settings: settings.clone() }.into())
        .collect()
}

impl Resource for Installation {
    fn spec(&self) -> ResourceSpec {
        let (uri, name, title, description) = match self.kind {
            Kind::SdkInfo => (SDK_INFO, "sdk-info", ".NET SDKs", "The installed .NET SDKs and the newest of them."),
            Kind::RuntimeInfo => {
                (RUNTIME_INFO, "runtime-info", ".NET runtimes", "The installed .NET runtimes (shared frameworks).")
            }
            Kind::Templates => (
                TEMPLATES,
                "templates",
                ".NET templates",
                "The installed dotnet new templates: names, short names, languages, types, authors, tags.",
            ),
            Kind::Frameworks => (
                FRAMEWORKS,
                "frameworks",
                ".NET target frameworks",
                "Target frameworks by family, LTS or STS and end of support, which to use for new projects, and the \
                 installed SDKs that build them.",
            ),
        };
        ResourceSpec::at(uri, name).title(title).description(description).mime_type(JSON)
    }

    async fn read(&self, uri: &str) -> Result<Vec<ResourceContents>, ToolError> {
        let contents = match self.kind {
            Kind::SdkInfo => sdk_info(&self.settings).await?,
            Kind::RuntimeInfo => {
                let ran = resources::run_listing(&self.settings, &["--list-runtimes"]).await?;
                json!({ "runtimes": listings::parse_runtimes(&ran.outcome.stdout) })
            }
            Kind::Templates => json!({ "templates": installed_templates(&self.settings).await? }),
            Kind::Frameworks => frameworks_overview(installed_sdks(&self.settings).await.ok().as_deref()),
        };
        Ok(resources::json_contents(uri, contents))
    }
}

/// The installed SDKs, oldest first, and the newest.
async fn sdk_info(settings: &DotnetSettings) -> Result<Value, ToolError> {
    let ran = resources::run_listing(settings, &["--list-sdks"]).await?;
    let mut sdks = listings::parse_sdks(&ran.outcome.stdout);
    sdks.sort_by(|a, b| listings::compare_versions(&a.version, &b.version));
    let latest = listings::newest(sdks.iter().map(|sdk| sdk.version.as_str())).map(str::to_owned);
    Ok(json!({ "sdks": sdks, "latestSdk": latest }))
}

/// The versions of the installed SDKs.
pub async fn installed_sdks(settings: &DotnetSettings) -> Result<Vec<String>, ToolError> {
    let ran = resources::run_listing(settings, &["--list-sdks"]).await?;
    Ok(listings::parse_sdks(&ran.outcome.stdout).into_iter().map(|sdk| sdk.version).collect())
}

/// The installed templates, as `ListTemplates` gives them.
pub async fn installed_templates(settings: &DotnetSettings) -> Result<Vec<parse::Template>, ToolError> {
    let ran = resources::run_listing(settings, &["new", "list", "--columns-all"]).await?;
    Ok(parse::templates(&ran.outcome.stdout))
}

/// The framework table by family, with what to use and what the installed SDKs (`None`: not
/// known, dotnet did not answer) build.
fn frameworks_overview(sdk_versions: Option<&[String]>) -> Value {
    let today = frameworks::today();
    let versions: Option<Vec<&str>> = sdk_versions.map(|v| v.iter().map(String::as_str).collect());
    let family = |family: Family| -> Vec<frameworks::Facts> {
        frameworks::TABLE
            .iter()
            .filter(|framework| framework.family == family)
            .map(|framework| framework.facts(&today, versions.as_deref()))
            .collect()
    };
    json!({
        "modernFrameworks": family(Family::Modern),
        "netCoreFrameworks": family(Family::NetCore),
        "netStandardFrameworks": family(Family::NetStandard),
        "netFrameworkFrameworks": family(Family::NetFramework),
        "latestRecommended": frameworks::recommended(&today, versions.as_deref().unwrap_or_default())
            .map(|(framework, _)| framework.tfm),
        "latestLts": frameworks::newest_supported(&today, Some(frameworks::ReleaseType::Lts))
            .map(|framework| framework.tfm),
        "installedSdks": sdk_versions,
        "sdksNewerThanTable": frameworks::newer_than_table(versions.as_deref().unwrap_or_default()),
        "asOf": frameworks::TABLE_AS_OF,
    })
}

/// The frameworks the installed SDKs build, newest first: the modern ones up to the newest
/// installed SDK, for completing a `framework` argument.
pub fn buildable_frameworks(sdk_versions: &[String]) -> Vec<&'static str> {
    let newest = sdk_versions.iter().filter_map(|version| listings::major(version)).max().unwrap_or(0);
    frameworks::TABLE
        .iter()
        .filter(|framework| framework.family == Family::Modern && framework.targetable_by(newest))
        .map(|framework| framework.tfm)
        .collect()
}
