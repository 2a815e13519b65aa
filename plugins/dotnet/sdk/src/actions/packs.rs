//! Template packages: ListTemplatePacks, InstallTemplatePack and UninstallTemplatePack, the
//! changes under the machine-wide lock (the template engine's state is per user).

use std::path::Path;

use dotnet_support::{
    errors::ErrorResponse,
    exec::ProgressKind,
    kit::{
        Call, Outcome, Reason, invalid,
        prose::{count, count_of},
    },
    locking::LockTarget,
    params::{Kind, Params, check},
    respond::Reply,
};
use schemars::JsonSchema;
use serde::Serialize;

use super::{run, run_ok, templates::template_line};
use crate::parse::{self, Template};

/// ListTemplatePacks: the packages the user installed.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Packs {
    packs: Vec<parse::Pack>,
}

/// InstallTemplatePack: the package, its version and templates.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Installed {
    package: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    version: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    previous_version: Option<String>,
    already_installed: bool,
    templates: Vec<Template>,
}

/// UninstallTemplatePack: the package removed.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Uninstalled {
    package: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    version: Option<String>,
}

pub async fn list_template_packs(call: &Call<'_>) -> Outcome {
    let ran = run_ok(call, &["new", "uninstall"]).await?;
    let packs = parse::template_packs(&ran.outcome.stdout);
    let lines = packs
        .iter()
        .map(|pack| {
            let version = pack.version.as_deref().map(|v| format!(" {v}")).unwrap_or_default();
            format!("{}{version}: {}", pack.id, count(pack.templates.len(), "template"))
        })
        .collect();
    let summary = format!(
        "{} installed (the SDK's own templates are not listed here; ListTemplates shows every template).",
        count_of(packs.len(), "template package is", "template packages are")
    );
    Ok(Reply::new(summary).section("Template packages", lines).result(Packs { packs }))
}

/// The install argument: a path that exists (folder or .nupkg), or `id[@version]` (the form SDK
/// 9.0.200 and later take; SDK 10 warns that `id::version` is deprecated).
fn package_spec(cwd: &Path, params: &Params<'_>) -> Result<String, ErrorResponse> {
    let package = params.req("templatePackage", Kind::Text)?;
    let version = params.opt("templateVersion", Kind::Version)?;
    if looks_like_path(package) {
        if !cwd.join(package).exists() {
            return Err(invalid(
                "templatePackage",
                Reason::NotFound,
                format!(
                    "Invalid argument 'templatePackage': '{package}' looks like a path, but nothing exists there (relative to {}).",
                    cwd.display()
                ),
            ));
        }
        if version.is_some() {
            return Err(invalid(
                "templateVersion",
                Reason::NotApplicable,
                "Invalid argument 'templateVersion': applies to NuGet packages, not to a folder or .nupkg file.",
            ));
        }
        return Ok(package.to_owned());
    }
    let (id, inline) = parse::package_version(package);
    check("templatePackage", Kind::PackageId, id)?;
    if let Some(inline) = inline {
        check("templatePackage", Kind::Version, inline)?;
    }
    let version = match (inline, version) {
        (Some(_), Some(_)) => {
            return Err(invalid(
                "templateVersion",
                Reason::Conflict,
                "Give the version either in 'templatePackage' (id@version) or in 'templateVersion', not both.",
            ));
        }
        (inline, version) => inline.or(version),
    };
    Ok(match version {
        Some(version) => format!("{id}@{version}"),
        None => id.to_owned(),
    })
}

pub async fn install_template_pack(call: &Call<'_>) -> Outcome {
    let (cwd, params) = (call.cwd(), call.params());
    let spec = package_spec(cwd, params)?;
    let mut args = vec!["new", "install", spec.as_str()];
    if let Some(source) = params.opt("nugetSource", Kind::Text)? {
        args.extend(["--nuget-source", source]);
    }
    if params.flag("interactive") {
        args.push("--interactive");
    }
    if params.flag("force") {
        args.push("--force");
    }
    let _guard = call.lock(&LockTarget::global()).await?;
    let ran = run(call, &args, ProgressKind::Lines).await?;
    let already = ran.exit_code() == 106 && ran.outcome.transcript.to_ascii_lowercase().contains("already installed");
    if !ran.succeeded() && !already {
        return Err(ran.failure().into());
    }
    let installed = parse::installed(&ran.outcome.stdout);
    let templates = parse::templates(&ran.outcome.stdout);
    let (id, requested_version) = parse::package_version(&spec);
    let package = installed.package.clone().unwrap_or_else(|| id.to_owned());
    let version = installed.version.clone().or_else(|| requested_version.map(str::to_owned));
    let at = version.as_deref().map(|v| format!(" {v}")).unwrap_or_default();
    let summary = if already {
        format!("{package}{at} was already installed; nothing changed.")
    } else {
        let replaced = installed.previous_version.as_deref().map(|v| format!(" (replacing {v})")).unwrap_or_default();
        format!("Installed {package}{at}{replaced} with {}.", count(templates.len(), "template"))
    };
    let lines = templates.iter().map(template_line).collect();
    let installed = Installed {
        package,
        version,
        previous_version: installed.previous_version,
        already_installed: already,
        templates,
    };
    Ok(Reply::new(summary).section("Templates", lines).output(ran.outcome.transcript.clone()).result(installed))
}

pub async fn uninstall_template_pack(call: &Call<'_>) -> Outcome {
    let params = call.params();
    let package = params.req("templatePackage", Kind::Text)?;
    if parse::package_version(package).1.is_some() {
        return Err(invalid(
            "templatePackage",
            Reason::Value,
            "Invalid argument 'templatePackage': an uninstall takes the package id (or the path it was installed from) \
             without a version; the installed version is removed.",
        )
        .into());
    }
    if !looks_like_path(package) {
        check("templatePackage", Kind::PackageId, package)?;
    }
    let _guard = call.lock(&LockTarget::global()).await?;
    let ran = run(call, &["new", "uninstall", package], ProgressKind::Lines).await?;
    if !ran.succeeded() {
        let mut error = ran.failure();
        if ran.exit_code() == 103 {
            error.errors[0].hint = Some(format!(
                "'{package}' is not installed. ListTemplatePacks shows the packages that can be uninstalled."
            ));
        }
        return Err(error.into());
    }
    let (id, version) = parse::uninstalled(&ran.outcome.stdout).unwrap_or((package.to_owned(), None));
    let at = version.as_deref().map(|v| format!(" {v}")).unwrap_or_default();
    Ok(Reply::new(format!("Uninstalled {id}{at}; its templates are gone."))
        .result(Uninstalled { package: id, version }))
}

/// Whether a template package argument names a folder or file rather than a NuGet id.
fn looks_like_path(package: &str) -> bool {
    package.contains('/')
        || package.contains('\\')
        || package.starts_with('.')
        || package.to_ascii_lowercase().ends_with(".nupkg")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn package_arguments_split_into_id_and_version() {
        assert_eq!(parse::package_version("Foo.Templates@1.2.3"), ("Foo.Templates", Some("1.2.3")));
        assert_eq!(parse::package_version("Foo.Templates::1.2.3"), ("Foo.Templates", Some("1.2.3")));
        assert_eq!(parse::package_version("Foo.Templates"), ("Foo.Templates", None));
        assert_eq!(parse::package_version("/home/me@work/t"), ("/home/me@work/t", None));
        assert!(looks_like_path("./my-templates") && looks_like_path("pkgs/x.nupkg") && looks_like_path("X.NUPKG"));
        assert!(!looks_like_path("MudBlazor.Templates"));
    }
}
