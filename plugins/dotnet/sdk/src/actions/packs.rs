//! Template packages: ListTemplatePacks, InstallTemplatePack and UninstallTemplatePack, the
//! changes under the machine-wide lock (the template engine's state is per user).

use std::path::Path;

use dotnet_support::{
    errors::{ErrorResponse, ErrorResult},
    exec::ProgressKind,
    kit::{Call, Outcome, Shape},
    locking::{LockTarget, lock_info_schema},
    params::{Kind, Params, check},
    respond::{Failure, Reply},
};
use serde_json::json;

use super::{
    counted, run, run_ok,
    templates::{template_line, template_schema},
};
use crate::parse;

/// ListTemplatePacks: the packages the user installed.
pub fn listed_shape() -> Shape {
    let text = json!({ "type": "string" });
    Shape::new(
        json!({ "packs": { "type": "array", "items": {
            "type": "object",
            "properties": {
                "id": text,
                "version": text,
                "details": { "type": "object", "additionalProperties": { "type": "string" } },
                "templates": { "type": "array", "items": {
                    "type": "object",
                    "properties": { "name": text, "shortName": text, "language": text },
                    "required": ["name"]
                } },
                "uninstallCommand": text
            },
            "required": ["id", "templates"]
        } } }),
        &["packs"],
    )
}

/// InstallTemplatePack: the package, its version and templates.
pub fn installed_shape() -> Shape {
    let text = json!({ "type": "string" });
    Shape::new(
        json!({
            "package": text, "version": text, "previousVersion": text,
            "alreadyInstalled": { "type": "boolean" },
            "templates": { "type": "array", "items": template_schema() },
            "lockInfo": lock_info_schema()
        }),
        &["package", "alreadyInstalled", "templates", "lockInfo"],
    )
}

/// UninstallTemplatePack: the package removed.
pub fn uninstalled_shape() -> Shape {
    let text = json!({ "type": "string" });
    Shape::new(json!({ "package": text, "version": text, "lockInfo": lock_info_schema() }), &["package", "lockInfo"])
}

pub async fn list_template_packs(call: &Call<'_>) -> Outcome {
    let ran = run_ok(call, &["new", "uninstall"]).await?;
    let packs = parse::template_packs(&ran.outcome.stdout);
    let lines = packs
        .iter()
        .map(|pack| {
            let templates = pack["templates"].as_array().map_or(0, Vec::len);
            let version = pack["version"].as_str().map(|v| format!(" {v}")).unwrap_or_default();
            format!(
                "{}{version}: {}",
                pack["id"].as_str().unwrap_or_default(),
                counted(templates, "template", "templates")
            )
        })
        .collect();
    let summary = format!(
        "{} installed (the SDK's own templates are not listed here; ListTemplates shows every template).",
        counted(packs.len(), "template package is", "template packages are")
    );
    Ok(Reply::new(summary).section("Template packages", lines).structured(json!({ "packs": packs })))
}

/// The install argument: a path that exists (folder or .nupkg), or `id[@version]` (the form SDK
/// 9.0.200 and later take; SDK 10 warns that `id::version` is deprecated).
fn package_spec(cwd: &Path, params: &Params<'_>) -> Result<String, ErrorResponse> {
    let package = params.req("templatePackage", Kind::Text)?;
    let version = params.opt("templateVersion", Kind::Version)?;
    if looks_like_path(package) {
        if !cwd.join(package).exists() {
            return Err(ErrorResult::invalid_params(
                "templatePackage",
                "not found",
                &format!("Invalid argument 'templatePackage': '{package}' looks like a path, but nothing exists there (relative to {}).", cwd.display()),
            )
            .into());
        }
        if version.is_some() {
            return Err(ErrorResult::invalid_params(
                "templateVersion",
                "not applicable",
                "Invalid argument 'templateVersion': applies to NuGet packages, not to a folder or .nupkg file.",
            )
            .into());
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
            return Err(ErrorResult::invalid_params(
                "templateVersion",
                "conflict",
                "Give the version either in 'templatePackage' (id@version) or in 'templateVersion', not both.",
            )
            .into());
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
        format!("Installed {package}{at}{replaced} with {}.", counted(templates.len(), "template", "templates"))
    };
    let mut fields = json!({
    "package": package,
    "alreadyInstalled": already,
    "templates": templates,
        });
    if let Some(version) = version {
        fields["version"] = json!(version);
    }
    if let Some(previous) = installed.previous_version {
        fields["previousVersion"] = json!(previous);
    }
    let lines = templates.iter().map(template_line).collect();
    Ok(Reply::new(summary).section("Templates", lines).output(ran.outcome.transcript.clone()).structured(fields))
}

pub async fn uninstall_template_pack(call: &Call<'_>) -> Outcome {
    let params = call.params();
    let package = params.req("templatePackage", Kind::Text)?;
    if parse::package_version(package).1.is_some() {
        return Err(Failure::from(ErrorResponse::from(ErrorResult::invalid_params(
            "templatePackage",
            "invalid value",
            "Invalid argument 'templatePackage': an uninstall takes the package id (or the path it was installed from) \
             without a version; the installed version is removed.",
        ))));
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
    let mut fields = json!({ "package": id });
    if let Some(version) = version {
        fields["version"] = json!(version);
    }
    Ok(Reply::new(format!("Uninstalled {id}{at}; its templates are gone.")).structured(fields))
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
