//! The tool's input schema and its output schema: one shape per kind of result, each naming
//! its `action`, plus the error envelope (with `lockInfo`) that failed calls carry.

use dotnet_support::{errors::error_response_schema, locking::lock_info_schema, params::action_schema};
use serde_json::{Value, json};

use crate::Action;

/// The arguments: `action` is required; what each action needs is checked when it runs and
/// listed in each parameter's description.
pub fn input() -> Value {
    let string = |description: &str| json!({ "type": "string", "description": description });
    json!({
        "type": "object",
        "properties": {
            "action": action_schema(Action::NAMES, "What to do."),
            "solution": string(
                "Solution file (.sln or .slnx) or its folder. Omitted: the one solution in the client's roots, else \
                 the one in the working directory."
            ),
            "name": string("Create: the solution's name (required)."),
            "output": string("Create: the folder to create it in (default: the working directory)."),
            "format": {
                "type": "string",
                "enum": ["sln", "slnx"],
                "description": "Create: the file format (default: the SDK's; .slnx needs SDK 9.0.200 or later)."
            },
            "projects": {
                "type": "array",
                "items": { "type": "string" },
                "minItems": 1,
                "description": "Add, Remove: project files to add to or remove from the solution (required)."
            },
            "solutionFolder": string("Add: the solution folder to put the projects in."),
            "inRoot": { "type": "boolean", "description": "Add: put the projects at the root of the solution." },
            "workingDirectory": string("Folder to run in (relative paths are relative to it).")
        },
        "required": ["action"],
        "additionalProperties": false
    })
}

fn strings() -> Value {
    json!({ "type": "array", "items": { "type": "string" } })
}

fn string() -> Value {
    json!({ "type": "string" })
}

/// A result of `actions` with the `required` fields among `properties` (plus `action`).
fn shape(actions: &[&str], required: &[&str], mut properties: Value) -> Value {
    properties["action"] = json!({ "type": "string", "enum": actions });
    let mut required: Vec<&str> = required.to_vec();
    required.insert(0, "action");
    json!({ "type": "object", "required": required, "properties": properties })
}

fn packages() -> (Value, Value) {
    let shared = json!({
        "type": "array",
        "description": "Packages referenced by two projects or more.",
        "items": {
            "type": "object",
            "required": ["id", "projects", "versions"],
            "properties": { "id": string(), "projects": strings(), "versions": strings() }
        }
    });
    let conflicts = json!({
        "type": "array",
        "description": "Packages referenced at different versions.",
        "items": {
            "type": "object",
            "required": ["id", "versions"],
            "properties": {
                "id": string(),
                "versions": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["version", "projects"],
                        "properties": { "version": string(), "projects": strings() }
                    }
                }
            }
        }
    });
    (shared, conflicts)
}

/// The output schema: every success shape, or the error envelope.
pub fn output() -> Value {
    let (shared, conflicts) = packages();
    let analysed_project = json!({
        "type": "object",
        "required": ["name", "path", "language", "exists"],
        "properties": {
            "name": string(),
            "path": { "type": "string", "description": "As written in the solution." },
            "folder": { "type": "string", "description": "The solution folder holding it." },
            "language": { "type": "string", "enum": ["C#", "F#", "VB", "other"] },
            "exists": { "type": "boolean" },
            "projectType": {
                "type": "string",
                "enum": ["test", "web", "blazor", "razor", "worker", "aspire", "console", "windows", "library", "legacy"]
            },
            "sdk": string(),
            "outputType": string(),
            "targetFrameworks": strings(),
            "packageReferences": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["id"],
                    "properties": { "id": string(), "version": string(), "central": { "type": "boolean" } }
                }
            },
            "projectReferences": strings(),
            "error": { "type": "string", "description": "Why the project file could not be read." }
        }
    });
    let graph_project = json!({
        "type": "object",
        "required": ["name", "path", "references", "referencedBy", "externalReferences"],
        "properties": {
            "name": string(),
            "path": string(),
            "references": strings(),
            "referencedBy": strings(),
            "externalReferences": strings()
        }
    });
    let issue = json!({
        "type": "object",
        "required": ["severity", "code", "message"],
        "properties": {
            "severity": { "type": "string", "enum": ["error", "warning"] },
            "code": string(),
            "message": string(),
            "project": string()
        }
    });
    let format = json!({ "type": "string", "enum": ["sln", "slnx"] });
    let mut error = error_response_schema();
    error["properties"]["lockInfo"] = lock_info_schema();
    json!({
        "type": "object",
        "anyOf": [
            shape(&["Create"], &["name", "command", "lockInfo"], json!({
                "name": string(),
                "solution": { "type": "string", "description": "The file created, when its format is known." },
                "format": format,
                "command": string(),
                "lockInfo": lock_info_schema()
            })),
            shape(&["Add"], &["projects", "added", "command", "lockInfo"], json!({
                "solution": string(),
                "projects": strings(),
                "added": strings(),
                "command": string(),
                "lockInfo": lock_info_schema()
            })),
            shape(&["Remove"], &["projects", "removed", "notFound", "confirmation", "command", "lockInfo"], json!({
                "solution": string(),
                "projects": strings(),
                "removed": strings(),
                "notFound": strings(),
                "confirmation": {
                    "type": "string",
                    "enum": ["confirmed", "notAsked"],
                    "description": "Whether the user confirmed through elicitation, or the client cannot be asked."
                },
                "command": string(),
                "lockInfo": lock_info_schema()
            })),
            shape(&["List"], &["projects", "command"], json!({
                "solution": string(),
                "projects": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["path", "name", "language"],
                        "properties": {
                            "path": string(),
                            "name": string(),
                            "language": { "type": "string", "enum": ["C#", "F#", "VB", "other"] }
                        }
                    }
                },
                "command": string()
            })),
            shape(
                &["Analyze"],
                &["solution", "format", "projectCount", "projects", "projectTypes", "frameworks", "sharedPackages", "versionConflicts"],
                json!({
                    "solution": string(),
                    "format": format,
                    "projectCount": { "type": "integer", "minimum": 0 },
                    "projects": { "type": "array", "items": analysed_project },
                    "projectTypes": { "type": "object", "additionalProperties": { "type": "integer" } },
                    "frameworks": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["framework", "projects"],
                            "properties": { "framework": string(), "projects": strings() }
                        }
                    },
                    "sharedPackages": shared,
                    "versionConflicts": conflicts
                }),
            ),
            shape(
                &["Dependencies"],
                &["solution", "format", "projects", "edges", "buildOrder", "cycles", "sharedPackages", "versionConflicts"],
                json!({
                    "solution": string(),
                    "format": format,
                    "projects": { "type": "array", "items": graph_project },
                    "edges": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["from", "to"],
                            "properties": { "from": string(), "to": string() }
                        }
                    },
                    "buildOrder": strings(),
                    "cycles": { "type": "array", "items": strings() },
                    "sharedPackages": shared,
                    "versionConflicts": conflicts
                }),
            ),
            shape(
                &["Validate"],
                &["solution", "format", "valid", "errorCount", "warningCount", "issues", "recommendations"],
                json!({
                    "solution": string(),
                    "format": format,
                    "valid": { "type": "boolean", "description": "No error was found (warnings allowed)." },
                    "errorCount": { "type": "integer", "minimum": 0 },
                    "warningCount": { "type": "integer", "minimum": 0 },
                    "issues": { "type": "array", "items": issue },
                    "recommendations": strings()
                }),
            ),
            error
        ]
    })
}
