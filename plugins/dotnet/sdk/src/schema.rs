//! The tool's input schema (one flat object, `action` a required enum) and its output schema:
//! one branch per shape of structured content, each with its `action` as a constant, plus the
//! error envelope every failure returns.

use dotnet_support::{errors, frameworks, listings, locking, params::action_schema, template_help};
use serde_json::{Value, json};

use crate::Action;

/// Which parameters each action takes (besides `action`); anything else is refused.
pub fn parameters(action: Action) -> &'static [&'static str] {
    const FILTERS: [&str; 4] = ["language", "type", "tag", "author"];
    match action {
        Action::Version | Action::Info | Action::ListSdks | Action::ListRuntimes | Action::ListTemplatePacks => {
            &["workingDirectory"]
        }
        Action::ListTemplates => {
            const P: [&str; 8] = [
                "workingDirectory",
                "filter",
                "maxResults",
                "forceReload",
                FILTERS[0],
                FILTERS[1],
                FILTERS[2],
                FILTERS[3],
            ];
            &P
        }
        Action::SearchTemplates => {
            const P: [&str; 7] =
                ["workingDirectory", "searchTerm", "maxResults", FILTERS[0], FILTERS[1], FILTERS[2], FILTERS[3]];
            &P
        }
        Action::TemplateInfo => &["workingDirectory", "templateShortName", "language", "forceReload"],
        Action::InstallTemplatePack => {
            &["workingDirectory", "templatePackage", "templateVersion", "nugetSource", "interactive", "force"]
        }
        Action::UninstallTemplatePack => &["workingDirectory", "templatePackage"],
        Action::FrameworkInfo => &["workingDirectory", "framework"],
        Action::ConfigureGlobalJson => {
            &["workingDirectory", "globalJsonPath", "sdkVersion", "rollForward", "allowPrerelease", "testRunner"]
        }
        Action::ClearTemplateCache => &["workingDirectory"],
    }
}

/// The values `rollForward` accepts in global.json.
pub const ROLL_FORWARD: [&str; 9] =
    ["patch", "feature", "minor", "major", "latestPatch", "latestFeature", "latestMinor", "latestMajor", "disable"];

/// The test runners global.json's `test.runner` names.
pub const TEST_RUNNERS: [&str; 2] = ["Microsoft.Testing.Platform", "VSTest"];

/// The input schema.
pub fn input() -> Value {
    let string = |description: &str| json!({ "type": "string", "description": description });
    let flag = |description: &str| json!({ "type": "boolean", "default": false, "description": description });
    json!({
        "type": "object",
        "properties": {
            "action": action_schema(Action::NAMES, "What to do. Read-only: Version, Info, ListSdks, ListRuntimes, \
                ListTemplates, SearchTemplates, TemplateInfo, ListTemplatePacks, FrameworkInfo. Changing the machine \
                or a file: InstallTemplatePack, UninstallTemplatePack, ClearTemplateCache, ConfigureGlobalJson."),
            "workingDirectory": string("Folder to run in (relative to the configured one); global.json in it or above selects the SDK."),
            "filter": string("ListTemplates: only templates whose name or short name contains this text."),
            "language": string("ListTemplates, SearchTemplates: only templates in this language (C#, F#, VB). TemplateInfo: the language whose options to show."),
            "type": string("ListTemplates, SearchTemplates: only templates of this type (project, item, solution)."),
            "tag": string("ListTemplates, SearchTemplates: only templates with this tag (Web, Test, ...)."),
            "author": string("ListTemplates, SearchTemplates: only templates by this author."),
            "maxResults": { "type": "integer", "minimum": 1, "maximum": 10000, "description": "ListTemplates, SearchTemplates: return at most this many templates (the total is reported)." },
            "forceReload": flag("ListTemplates, TemplateInfo: rebuild the template engine's cache of installed templates first (--debug:rebuild-cache)."),
            "searchTerm": string("SearchTemplates (required): text to search NuGet.org's templates for."),
            "templateShortName": string("TemplateInfo (required): the template's short name, e.g. console or webapi."),
            "templatePackage": string("InstallTemplatePack, UninstallTemplatePack (required): a NuGet package id (optionally id@version or id::version), or for installs a folder or .nupkg file."),
            "templateVersion": string("InstallTemplatePack: the package version to install (default: latest stable)."),
            "nugetSource": string("InstallTemplatePack: an extra NuGet source to install from."),
            "interactive": flag("InstallTemplatePack: let NuGet ask for credentials (device-code sign-in appears in progress messages)."),
            "force": flag("InstallTemplatePack: install even if the package is already installed or conflicts."),
            "framework": string("FrameworkInfo: one target framework to describe (net10.0, net8.0-windows, netstandard2.0); all when absent."),
            "globalJsonPath": string("ConfigureGlobalJson: the global.json file or the folder for it (default: the working directory). Created when missing."),
            "sdkVersion": string("ConfigureGlobalJson: sdk.version, a full SDK version such as 10.0.100."),
            "rollForward": { "type": "string", "enum": ROLL_FORWARD, "description": "ConfigureGlobalJson: sdk.rollForward." },
            "allowPrerelease": { "type": "boolean", "description": "ConfigureGlobalJson: sdk.allowPrerelease." },
            "testRunner": { "type": "string", "enum": TEST_RUNNERS, "description": "ConfigureGlobalJson: test.runner, the runner dotnet test uses (SDK 10+)." }
        },
        "required": ["action"],
        "additionalProperties": false
    })
}

/// One branch of the output schema: `action` fixed, `success: true`, and `properties`.
fn branch(actions: &[Action], properties: Value, required: &[&str]) -> Value {
    let mut properties = properties;
    let names: Vec<&str> = actions.iter().map(|action| action.name()).collect();
    properties["action"] = json!({ "enum": names });
    properties["success"] = json!({ "const": true });
    let mut required: Vec<&str> = required.to_vec();
    required.extend(["action", "success"]);
    json!({ "type": "object", "properties": properties, "required": required })
}

/// A template row of `dotnet new list` / `search` / `install`.
fn template_schema() -> Value {
    let strings = json!({ "type": "array", "items": { "type": "string" } });
    json!({
        "type": "object",
        "properties": {
            "name": { "type": "string" },
            "shortNames": strings,
            "languages": strings,
            "defaultLanguage": { "type": "string" },
            "type": { "type": "string" },
            "author": { "type": "string" },
            "tags": strings,
            "package": { "type": "string" },
            "packageVersion": { "type": "string" },
            "downloads": { "type": "string", "description": "As NuGet.org rounds it: 215k, 2M, <1k." },
            "source": { "type": "string", "description": "The template source a search result came from." }
        },
        "required": ["name", "shortNames", "languages", "tags"]
    })
}

/// The output schema: every success shape, or the error envelope.
pub fn output() -> Value {
    let sdks = json!({ "type": "array", "items": listings::sdk_schema() });
    let runtimes = json!({ "type": "array", "items": listings::runtime_schema() });
    let templates = json!({ "type": "array", "items": template_schema() });
    let count = json!({ "type": "integer", "minimum": 0 });
    let text = json!({ "type": "string" });
    let lock_info = locking::lock_info_schema();
    let listing = |extra: Value| {
        let mut properties = json!({
            "templates": templates,
            "totalCount": count,
            "truncated": { "type": "boolean" }
        });
        if let (Some(properties), Value::Object(extra)) = (properties.as_object_mut(), extra) {
            properties.extend(extra);
        }
        properties
    };
    let branches = vec![
        branch(&[Action::Version], json!({ "version": text }), &["version"]),
        branch(
            &[Action::Info],
            json!({
                "sdkVersion": text, "commit": text, "workloadVersion": text, "msbuildVersion": text,
                "osName": text, "osVersion": text, "osPlatform": text, "rid": text, "basePath": text,
                "hostVersion": text, "hostArchitecture": text,
                "sdks": sdks, "runtimes": runtimes,
                "globalJson": { "type": ["string", "null"], "description": "The global.json in effect, or null." }
            }),
            &["sdks", "runtimes"],
        ),
        branch(&[Action::ListSdks], json!({ "sdks": sdks, "latest": { "type": ["string", "null"] } }), &["sdks"]),
        branch(&[Action::ListRuntimes], json!({ "runtimes": runtimes }), &["runtimes"]),
        branch(&[Action::ListTemplates], listing(json!({ "filter": text })), &["templates", "totalCount", "truncated"]),
        branch(
            &[Action::SearchTemplates],
            listing(json!({ "searchTerm": text })),
            &["searchTerm", "templates", "totalCount", "truncated"],
        ),
        branch(
            &[Action::TemplateInfo],
            json!({ "shortName": text, "template": template_help::schema() }),
            &["shortName", "template"],
        ),
        branch(
            &[Action::ListTemplatePacks],
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
        ),
        branch(
            &[Action::InstallTemplatePack],
            json!({
                "package": text, "version": text, "previousVersion": text,
                "alreadyInstalled": { "type": "boolean" }, "templates": templates, "lockInfo": lock_info
            }),
            &["package", "alreadyInstalled", "templates", "lockInfo"],
        ),
        branch(
            &[Action::UninstallTemplatePack],
            json!({ "package": text, "version": text, "lockInfo": lock_info }),
            &["package", "lockInfo"],
        ),
        branch(
            &[Action::FrameworkInfo],
            json!({
                "frameworks": { "type": "array", "items": frameworks::framework_schema() },
                "platform": text,
                "latestRecommended": { "type": ["string", "null"] },
                "latestLts": { "type": ["string", "null"] },
                "installedSdks": { "type": ["array", "null"], "items": { "type": "string" } },
                "sdksNewerThanTable": { "type": "array", "items": { "type": "string" } },
                "asOf": { "type": "string", "format": "date" }
            }),
            &["frameworks", "latestRecommended", "latestLts", "installedSdks", "asOf"],
        ),
        branch(
            &[Action::ConfigureGlobalJson],
            json!({
                "path": text,
                "created": { "type": "boolean" },
                "changes": { "type": "array", "items": {
                    "type": "object",
                    "properties": {
                        "setting": text,
                        "previous": { "type": ["string", "boolean", "null"] },
                        "value": { "type": ["string", "boolean"] }
                    },
                    "required": ["setting", "previous", "value"]
                } },
                "content": text,
                "lockInfo": lock_info
            }),
            &["path", "created", "changes", "content", "lockInfo"],
        ),
        branch(
            &[Action::ClearTemplateCache],
            json!({ "cacheRebuilt": { "const": true }, "templateCount": count, "lockInfo": lock_info }),
            &["cacheRebuilt", "templateCount", "lockInfo"],
        ),
        errors::error_response_schema(),
    ];
    json!({ "type": "object", "anyOf": branches })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_has_one_output_branch_and_the_envelope_is_last() {
        let schema = output();
        let branches = schema["anyOf"].as_array().unwrap();
        assert_eq!(branches.len(), Action::NAMES.len() + 1);
        for (name, branch) in Action::NAMES.iter().zip(branches) {
            assert_eq!(branch["properties"]["action"]["enum"], json!([name]));
        }
        assert_eq!(branches.last().unwrap()["properties"]["success"]["const"], false);
    }

    #[test]
    fn every_parameter_an_action_takes_is_in_the_input_schema() {
        let schema = input();
        for name in Action::NAMES {
            let action = Action::parse(name).unwrap();
            for parameter in parameters(action) {
                assert!(schema["properties"].get(*parameter).is_some(), "{name}: {parameter}");
            }
        }
        let declared = schema["properties"].as_object().unwrap().len();
        let used: std::collections::BTreeSet<&str> =
            Action::NAMES.iter().flat_map(|name| parameters(Action::parse(name).unwrap()).iter().copied()).collect();
        assert_eq!(declared, used.len() + 1, "every declared parameter is used by some action");
    }
}
