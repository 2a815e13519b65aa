//! The tool's input schema and its output schema: one shape per kind of result, each naming
//! its `action`, plus the error envelope (with `lockInfo`) that failed calls carry.

use dotnet_support::{errors::error_response_schema, locking::lock_info_schema, params::action_schema};
use serde_json::{Value, json};

use crate::Action;

/// The cache names `nuget locals` accepts.
pub const CACHE_TYPES: [&str; 5] = ["all", "http-cache", "global-packages", "temp", "plugins-cache"];

/// The arguments: `action` is required; what each action needs is checked when it runs and
/// listed in each parameter's description.
pub fn input() -> Value {
    let string = |description: &str| json!({ "type": "string", "description": description });
    let flag = |description: &str| json!({ "type": "boolean", "description": description });
    json!({
        "type": "object",
        "properties": {
            "action": action_schema(Action::NAMES, "What to do."),
            "packageId": string("NuGet package id (required by Add, Remove, Update)."),
            "version": string("Version or range to add (Add, Update); without it NuGet picks the latest."),
            "project": string(
                "Project file or folder (a solution too for List). Omitted: the one project in the client's roots, \
                 else the dotnet CLI's default (the one project in the working directory)."
            ),
            "source": string("Package source URL, path or name (Add, Update, Search; List with an audit report)."),
            "framework": string("Target framework, e.g. net10.0 (Add, Update: only for it; List: only it)."),
            "prerelease": flag(
                "Allow prerelease versions (Add and Update without a version, Search; List only with outdated)."
            ),
            "noRestore": flag("Add or update the reference without restoring (Add, Update)."),
            "searchTerm": string("What to search for (required by Search)."),
            "take": { "type": "integer", "minimum": 1, "maximum": 1000, "description": "Results to return (Search)." },
            "skip": { "type": "integer", "minimum": 0, "description": "Results to skip (Search)." },
            "exactMatch": flag("Only the package whose id is the search term, with all its versions (Search)."),
            "outdated": flag("List: report the latest version of packages that have a newer one."),
            "deprecated": flag("List: report deprecated packages with their reasons and alternatives."),
            "vulnerable": flag("List: report packages with known vulnerabilities."),
            "includeTransitive": flag("List: include transitive packages."),
            "filter": string("List: keep packages whose id contains this text (case-insensitive)."),
            "maxResults": { "type": "integer", "minimum": 1, "description": "List: return at most this many packages." },
            "referencePath": string("Project to reference or unreference (required by AddReference, RemoveReference)."),
            "cacheType": {
                "type": "string",
                "enum": CACHE_TYPES,
                "default": "all",
                "description": "ClearCache: which NuGet cache to clear."
            },
            "workingDirectory": string("Folder to run in (relative paths are relative to it).")
        },
        "required": ["action"],
        "additionalProperties": false
    })
}

fn strings() -> Value {
    json!({ "type": "array", "items": { "type": "string" } })
}

/// A result of `actions` with the `required` fields among `properties` (plus `action`).
fn shape(actions: &[&str], required: &[&str], mut properties: Value) -> Value {
    properties["action"] = json!({ "type": "string", "enum": actions });
    let mut required: Vec<&str> = required.to_vec();
    required.insert(0, "action");
    json!({ "type": "object", "required": required, "properties": properties })
}

fn package_schema() -> Value {
    json!({
        "type": "object",
        "required": ["id"],
        "properties": {
            "id": { "type": "string" },
            "requestedVersion": { "type": "string" },
            "resolvedVersion": { "type": "string" },
            "latestVersion": { "type": "string", "description": "Only in the outdated report." },
            "autoReferenced": { "type": "boolean" },
            "deprecationReasons": strings(),
            "alternativePackage": {
                "type": "object",
                "required": ["id"],
                "properties": { "id": { "type": "string" }, "versionRange": { "type": "string" } }
            },
            "vulnerabilities": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["severity", "advisoryUrl"],
                    "properties": { "severity": { "type": "string" }, "advisoryUrl": { "type": "string" } }
                }
            }
        }
    })
}

/// What every result can carry: the command as run (redacted) and the lock it held.
fn common() -> Value {
    json!({ "command": { "type": "string" }, "lockInfo": lock_info_schema(), "project": { "type": "string" } })
}

fn with_common(mut properties: Value) -> Value {
    if let (Some(target), Value::Object(common)) = (properties.as_object_mut(), common()) {
        for (key, value) in common {
            target.entry(key).or_insert(value);
        }
    }
    properties
}

/// The output schema: every success shape, or the error envelope.
pub fn output() -> Value {
    let packages = json!({ "type": "array", "items": package_schema() });
    let mut error = error_response_schema();
    error["properties"]["lockInfo"] = lock_info_schema();
    json!({
        "type": "object",
        "anyOf": [
            shape(&["Add", "Update"], &["packageId", "command", "lockInfo"], with_common(json!({
                "packageId": { "type": "string" },
                "requestedVersion": { "type": "string", "description": "The version or range asked for." },
                "version": { "type": "string", "description": "The version written to the project." },
                "previousVersion": { "type": "string", "description": "Update: the version the project file had." },
                "projectFile": { "type": "string", "description": "The project file the reference went into." }
            }))),
            shape(&["Remove"], &["packageId", "command", "lockInfo"], with_common(json!({
                "packageId": { "type": "string" }
            }))),
            shape(&["Search"], &["searchTerm", "packages", "problems", "command"], with_common(json!({
                "searchTerm": { "type": "string" },
                "exactMatch": { "type": "boolean" },
                "packages": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["id", "source"],
                        "properties": {
                            "id": { "type": "string" },
                            "version": { "type": "string", "description": "The latest version, or the version of an exact match." },
                            "downloads": { "type": "integer", "minimum": 0 },
                            "owners": { "type": "string" },
                            "description": { "type": "string" },
                            "source": { "type": "string" }
                        }
                    }
                },
                "problems": strings()
            }))),
            shape(
                &["List"],
                &["report", "includeTransitive", "projects", "totalPackages", "shownPackages", "truncated", "problems", "command"],
                with_common(json!({
                    "report": { "type": "string", "enum": ["all", "outdated", "deprecated", "vulnerable"] },
                    "includeTransitive": { "type": "boolean" },
                    "framework": { "type": "string" },
                    "filter": { "type": "string" },
                    "maxResults": { "type": "integer" },
                    "projects": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["path", "frameworks"],
                            "properties": {
                                "path": { "type": "string" },
                                "frameworks": {
                                    "type": "array",
                                    "items": {
                                        "type": "object",
                                        "required": ["framework", "topLevelPackages"],
                                        "properties": {
                                            "framework": { "type": "string" },
                                            "topLevelPackages": packages,
                                            "transitivePackages": packages
                                        }
                                    }
                                }
                            }
                        }
                    },
                    "totalPackages": { "type": "integer", "minimum": 0, "description": "Packages that matched the filter." },
                    "shownPackages": { "type": "integer", "minimum": 0, "description": "Packages returned (after maxResults)." },
                    "truncated": { "type": "boolean" },
                    "problems": strings(),
                    "sources": strings()
                })),
            ),
            shape(&["AddReference", "RemoveReference"], &["references", "command", "lockInfo"], with_common(json!({
                "references": strings()
            }))),
            shape(&["ListReferences"], &["references", "command"], with_common(json!({ "references": strings() }))),
            shape(&["ClearCache"], &["cacheType", "cleared", "command", "lockInfo"], with_common(json!({
                "cacheType": { "type": "string", "enum": CACHE_TYPES },
                "cleared": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["cache", "path"],
                        "properties": { "cache": { "type": "string" }, "path": { "type": "string" } }
                    }
                }
            }))),
            error
        ]
    })
}
