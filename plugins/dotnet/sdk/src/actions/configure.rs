//! ConfigureGlobalJson: global.json's SDK version, roll-forward policy, prerelease use and test
//! runner, edited in place under the lock of its folder ([`crate::global_json`] keeps comments
//! and formatting).

use std::path::{Path, PathBuf};

use dotnet_support::{
    errors::ErrorResponse,
    kit::{Call, Outcome, Reason, invalid},
    locking::{self, LockTarget},
    params::{Kind, Params},
    respond::Reply,
};
use mcp_plugin_api::locks::LockScope;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use crate::global_json;

/// The values `rollForward` accepts in global.json.
pub const ROLL_FORWARD: [&str; 9] =
    ["patch", "feature", "minor", "major", "latestPatch", "latestFeature", "latestMinor", "latestMajor", "disable"];

/// The test runners global.json's `test.runner` names.
pub const TEST_RUNNERS: [&str; 2] = ["Microsoft.Testing.Platform", "VSTest"];

/// ConfigureGlobalJson: what was written, and how each setting changed.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Configured {
    path: String,
    created: bool,
    changes: Vec<Change>,
    content: String,
}

/// One setting of global.json, before and after.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Change {
    setting: String,
    #[schemars(extend("type" = ["string", "boolean", "null"]))]
    previous: Value,
    #[schemars(extend("type" = ["string", "boolean"]))]
    value: Value,
}

pub async fn configure_global_json(call: &Call<'_>) -> Outcome {
    let (cwd, params) = (call.cwd(), call.params());
    let settings = global_json_settings(params)?;
    let path = global_json_path(cwd, params.opt("globalJsonPath", Kind::Path)?)?;
    let folder = path.parent().map(Path::to_owned).unwrap_or_else(|| cwd.to_owned());
    let target =
        LockTarget { scope: LockScope::WorkingDirectory, key: locking::canonical(&folder).display().to_string() };
    let _guard = call.lock(&target).await?;
    let file_error = |reason: Reason, message: String| invalid("globalJsonPath", reason, message);
    let existing = match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => None,
        Err(error) => {
            return Err(file_error(Reason::NotFound, format!("{} cannot be read: {error}.", path.display())).into());
        }
    };
    let created = existing.is_none();
    let edited = global_json::edit(existing.as_deref(), &settings).map_err(|reason| {
        file_error(Reason::Value, format!("{} cannot be edited: {reason}. Fix or remove it first.", path.display()))
    })?;
    let changed = edited.changed_anything();
    if created || changed {
        std::fs::write(&path, &edited.text)
            .map_err(|error| file_error(Reason::Value, format!("{} cannot be written: {error}.", path.display())))?;
    }
    let lines: Vec<String> = edited
        .changes
        .iter()
        .map(|change| match (&change.previous, change.changed()) {
            (_, false) => format!("{} stays {}", change.setting, change.value),
            (Value::Null, true) => format!("{} set to {}", change.setting, change.value),
            (previous, true) => format!("{}: {previous} -> {}", change.setting, change.value),
        })
        .collect();
    let summary = match (created, changed) {
        (true, _) => format!("Created {}.", path.display()),
        (false, true) => format!("Updated {} (comments and formatting kept).", path.display()),
        (false, false) => format!("{} already had these values; nothing was written.", path.display()),
    };
    let changes = edited
        .changes
        .iter()
        .map(|change| Change {
            setting: change.setting.clone(),
            previous: change.previous.clone(),
            value: change.value.clone(),
        })
        .collect();
    let content = edited.text.clone();
    let configured = Configured { path: path.display().to_string(), created, changes, content };
    Ok(Reply::new(summary).section("Settings", lines).output(edited.text).result(configured))
}

/// A full SDK version: `10.0.100`, `10.0.100-rc.2.25502.107`.
fn is_sdk_version(version: &str) -> bool {
    let (core, pre) = version.split_once('-').map_or((version, None), |(core, pre)| (core, Some(pre)));
    let parts: Vec<&str> = core.split('.').collect();
    parts.len() == 3
        && parts.iter().all(|part| !part.is_empty() && part.chars().all(|c| c.is_ascii_digit()))
        && parts[2].len() >= 3
        && pre
            .is_none_or(|pre| !pre.is_empty() && pre.chars().all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-'))
}

/// The settings ConfigureGlobalJson was asked to write, checked and in canonical spelling.
fn global_json_settings<'a>(params: &Params<'a>) -> Result<global_json::Settings<'a>, ErrorResponse> {
    let invalid_value = |name: &str, message: String| invalid(name, Reason::Value, message);
    let sdk_version = params.opt("sdkVersion", Kind::Version)?;
    if let Some(version) = sdk_version.filter(|version| !is_sdk_version(version)) {
        return Err(invalid_value(
            "sdkVersion",
            format!(
                "Invalid argument 'sdkVersion': must be a full SDK version such as 10.0.100 or 10.0.100-rc.2.25502.107 (got '{version}')."
            ),
        ));
    }
    let roll_forward = match params.opt("rollForward", Kind::Identifier)? {
        None => None,
        Some(value) => Some(*ROLL_FORWARD.iter().find(|known| known.eq_ignore_ascii_case(value)).ok_or_else(|| {
            invalid_value(
                "rollForward",
                format!("Invalid argument 'rollForward': must be one of {} (got '{value}').", ROLL_FORWARD.join(", ")),
            )
        })?),
    };
    let test_runner = match params.opt("testRunner", Kind::Identifier)? {
        None => None,
        Some(value) if value.eq_ignore_ascii_case("MicrosoftTestingPlatform") || value.eq_ignore_ascii_case("MTP") => {
            Some(TEST_RUNNERS[0])
        }
        Some(value) => Some(*TEST_RUNNERS.iter().find(|known| known.eq_ignore_ascii_case(value)).ok_or_else(|| {
            invalid_value(
                "testRunner",
                format!("Invalid argument 'testRunner': must be one of {} (got '{value}').", TEST_RUNNERS.join(", ")),
            )
        })?),
    };
    let allow_prerelease = match params.raw("allowPrerelease") {
        None => None,
        Some(Value::Bool(flag)) => Some(*flag),
        Some(other) => {
            return Err(invalid_value(
                "allowPrerelease",
                format!("Invalid argument 'allowPrerelease': must be true or false, not {other}."),
            ));
        }
    };
    let settings = global_json::Settings { sdk_version, roll_forward, allow_prerelease, test_runner };
    if settings.is_empty() {
        return Err(invalid(
            "sdkVersion",
            Reason::Required,
            "ConfigureGlobalJson needs at least one of sdkVersion, rollForward, allowPrerelease or testRunner.",
        ));
    }
    Ok(settings)
}

/// The global.json to edit: `requested` (a file named global.json, or a folder for one) relative
/// to `cwd`, else `cwd/global.json`. Its folder must exist.
fn global_json_path(cwd: &Path, requested: Option<&str>) -> Result<PathBuf, ErrorResponse> {
    let refused = |reason: Reason, message: String| invalid("globalJsonPath", reason, message);
    let path = match requested {
        None => cwd.join("global.json"),
        Some(requested) => {
            let path = cwd.join(requested);
            if path.is_dir() {
                path.join("global.json")
            } else if path.file_name().is_some_and(|name| name == "global.json") {
                path
            } else {
                return Err(refused(
                    Reason::Value,
                    format!(
                        "Invalid argument 'globalJsonPath': must be a file named global.json or an existing folder (got '{requested}')."
                    ),
                ));
            }
        }
    };
    match path.parent() {
        Some(folder) if folder.is_dir() => Ok(path),
        _ => Err(refused(
            Reason::NotFound,
            format!("Invalid argument 'globalJsonPath': the folder of {} does not exist.", path.display()),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sdk_versions_must_be_complete() {
        for good in ["10.0.100", "8.0.416", "10.0.100-rc.2.25502.107", "11.0.100-preview.1"] {
            assert!(is_sdk_version(good), "{good}");
        }
        for bad in ["10", "10.0", "10.0.1", "latest", "10.0.100-", "10.0.x00", "1.2.3.4"] {
            assert!(!is_sdk_version(bad), "{bad}");
        }
    }

    #[test]
    fn global_json_paths_name_the_file_or_its_folder() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(global_json_path(dir.path(), None).unwrap(), dir.path().join("global.json"));
        assert_eq!(global_json_path(dir.path(), Some(".")).unwrap(), dir.path().join(".").join("global.json"));
        assert_eq!(global_json_path(dir.path(), Some("global.json")).unwrap(), dir.path().join("global.json"));
        assert!(global_json_path(dir.path(), Some("settings.json")).is_err());
        assert!(global_json_path(dir.path(), Some("missing/global.json")).is_err());
    }
}
