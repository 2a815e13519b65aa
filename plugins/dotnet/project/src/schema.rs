//! The tool's input schema (every parameter of every action) and output schema (every success
//! shape, and the error envelope every failure returns, as an `anyOf`).

use dotnet_support::{errors::error_response_schema, locking::lock_info_schema, params::action_schema, template_help};
use serde_json::{Map, Value, json};

use crate::Action;

fn string(description: &str) -> Value {
    json!({ "type": "string", "description": description })
}

fn boolean(description: &str) -> Value {
    json!({ "type": "boolean", "description": description })
}

fn string_or_list(description: &str) -> Value {
    json!({
        "description": description,
        "anyOf": [
            { "type": "string" },
            { "type": "array", "items": { "type": "string" } }
        ]
    })
}

/// The input schema.
pub fn input() -> Value {
    let properties: Vec<(&str, Value)> = vec![
        ("action", action_schema(Action::NAMES, "What to do.")),
        (
            "project",
            string(
                "Project or solution file (.csproj, .fsproj, .vbproj, .sln, .slnx, a file-based app .cs) or a folder \
             holding one, relative to workingDirectory. When omitted: the one project (or solution) at the top of \
             the client's roots, else the working directory. Evaluation and edit actions need a project file.",
            ),
        ),
        ("projectPath", string("Deprecated alias of 'project'.")),
        (
            "workingDirectory",
            string("Folder the command runs in (relative to the configured WorkingDirectory); it must exist."),
        ),
        (
            "template",
            string("New, ListTemplateOptions: the template's short name (console, classlib, webapi, xunit...)."),
        ),
        ("name", string("New: the name of the project created (-n).")),
        ("output", string("New, Build, Publish, Pack, Clean: the output folder (-o).")),
        ("framework", string("Target framework (-f), for example net10.0.")),
        ("configuration", string("Build configuration (-c): Debug, Release or any custom one.")),
        ("runtime", string("Runtime identifier (-r), for example linux-x64, win-arm64, browser-wasm.")),
        (
            "additionalOptions",
            string_or_list(
                "New: template options (for example ['--use-program-main', '--aot']); a string is split on whitespace. \
             Letters, digits and _ . = : + - only.",
            ),
        ),
        ("noRestore", boolean("Skip the implicit restore (--no-restore).")),
        ("noBuild", boolean("Skip the build (--no-build).")),
        (
            "verbosity",
            json!({ "type": "string", "enum": ["q", "quiet", "m", "minimal", "n", "normal", "d", "detailed", "diag", "diagnostic"], "description": "MSBuild verbosity (-v)." }),
        ),
        ("source", string("Restore: a NuGet source to use (--source).")),
        ("lockedMode", boolean("Restore: fail when the lock file would change (--locked-mode).")),
        ("configFile", string("Restore: the NuGet.config to use (--configfile).")),
        (
            "appArgs",
            string_or_list(
                "Run, Watch (run): arguments for the application, passed after '--'. Use the list form for arguments \
             that contain spaces; a string is split on whitespace.",
            ),
        ),
        (
            "startMode",
            json!({ "type": "string", "enum": ["Foreground", "Background"], "description": "Run: Foreground (default) waits for the app to exit; Background starts a session and returns its sessionId. Watch always runs in the background." }),
        ),
        ("filter", string("Test, Watch (test): test filter expression (--filter).")),
        (
            "collect",
            string(
                "Test: data collector (--collect), for example 'XPlat Code Coverage'. Under Microsoft.Testing.Platform a code-coverage collector becomes --coverage.",
            ),
        ),
        ("resultsDirectory", string("Test: folder for test results (--results-directory).")),
        (
            "logger",
            string(
                "Test: logger (--logger), for example trx. Under Microsoft.Testing.Platform only trx is supported (--report-trx).",
            ),
        ),
        ("blame", boolean("Test: run in blame mode to find crashing tests (--blame; VSTest only).")),
        ("listTests", boolean("Test: list the tests instead of running them (--list-tests).")),
        (
            "testRunner",
            json!({ "type": "string", "enum": ["Auto", "MicrosoftTestingPlatform", "VSTest"], "description": "Test: the runner. Auto (default) reads test.runner from the nearest global.json, else VSTest." }),
        ),
        (
            "useLegacyProjectArgument",
            boolean("Test: deprecated; true selects VSTest (the project passed positionally)."),
        ),
        ("selfContained", boolean("Publish: --self-contained true|false (omit for the SDK's default).")),
        ("arch", string("Publish: target architecture (--arch), for example x64, arm64.")),
        ("os", string("Publish: target operating system (--os), for example linux, win, osx.")),
        ("includeSymbols", boolean("Pack: also create a symbols package (--include-symbols).")),
        ("includeSource", boolean("Pack: include source files in the symbols package (--include-source).")),
        (
            "packageVersion",
            string("Pack: the package version (-p:PackageVersion=...), for example 1.2.3 or 2.0.0-beta.1."),
        ),
        (
            "watchAction",
            json!({ "type": "string", "enum": ["run", "test", "build"], "description": "Watch: what dotnet watch runs on each change (default run)." }),
        ),
        ("noHotReload", boolean("Watch (run): restart instead of hot reload (--no-hot-reload).")),
        ("verify", boolean("Format: only check, change nothing (--verify-no-changes).")),
        ("includeGenerated", boolean("Format: also format generated code (--include-generated).")),
        (
            "diagnostics",
            string_or_list("Format: diagnostic ids to fix (--diagnostics), for example ['IDE0005', 'CA1822']."),
        ),
        (
            "severity",
            json!({ "type": "string", "enum": ["info", "warn", "error"], "description": "Format: lowest severity to fix (--severity)." }),
        ),
        ("sessionId", string("Logs, Stop: the session id that Run or Watch with startMode Background returned.")),
        (
            "tailLines",
            json!({ "type": "integer", "minimum": 1, "maximum": 2000, "description": "Logs: how many of the last lines to return (default 200)." }),
        ),
        (
            "since",
            string(
                "Logs: only lines at or after this time: RFC 3339 (2026-01-15T10:00:00Z) or a duration back from now (30s, 5m, 1h).",
            ),
        ),
        ("propertyName", string("GetProperty, SetProperty, RemoveProperty: the MSBuild property.")),
        ("propertyValue", string("SetProperty: the value (may be empty).")),
        (
            "itemType",
            string(
                "AddItem, RemoveItem, ListItems: the item type (PackageReference, Compile, None...). ListItems without it lists the common types and those the project declares.",
            ),
        ),
        ("include", string("AddItem, RemoveItem: the item's Include.")),
        (
            "metadata",
            json!({ "type": "object", "additionalProperties": { "type": "string" }, "description": "AddItem: metadata written as attributes, for example {\"Version\": \"1.0.0\"}." }),
        ),
    ];
    let properties: Map<String, Value> = properties.into_iter().map(|(key, value)| (key.to_owned(), value)).collect();
    json!({ "type": "object", "properties": properties, "required": ["action"], "additionalProperties": false })
}

fn diagnostic() -> Value {
    json!({
        "type": "object",
        "properties": {
            "file": { "type": "string" },
            "line": { "type": "integer" },
            "column": { "type": "integer" },
            "endLine": { "type": "integer" },
            "endColumn": { "type": "integer" },
            "severity": { "enum": ["error", "warning", "info"] },
            "code": { "type": "string" },
            "message": { "type": "string" },
            "project": { "type": "string" }
        },
        "required": ["severity", "code", "message"]
    })
}

fn strings() -> Value {
    json!({ "type": "array", "items": { "type": "string" } })
}

fn objects() -> Value {
    json!({ "type": "array", "items": { "type": "object" } })
}

fn integer() -> Value {
    json!({ "type": "integer" })
}

/// A success branch: `success: true`, `action` one of `actions`, the given properties.
fn branch(actions: &[&str], properties: Value, required: &[&str]) -> Value {
    let mut all = Map::new();
    all.insert("success".into(), json!({ "const": true }));
    all.insert("action".into(), json!({ "enum": actions }));
    if let Value::Object(more) = properties {
        all.extend(more);
    }
    let mut needed = vec!["success", "action"];
    needed.extend_from_slice(required);
    json!({ "type": "object", "properties": all, "required": needed })
}

fn test_fields() -> Value {
    json!({
        "passed": integer(),
        "failed": integer(),
        "skipped": integer(),
        "total": integer(),
        "durationMs": integer(),
        "summary": { "type": "string" },
        "failures": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "testName": { "type": "string" },
                    "message": { "type": "string" },
                    "stackTrace": { "type": "string" },
                    "durationMs": integer()
                },
                "required": ["testName", "message"]
            }
        },
        "assemblies": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "name": { "type": "string" },
                    "passed": integer(), "failed": integer(), "skipped": integer(), "total": integer(), "durationMs": integer()
                },
                "required": ["name", "passed", "failed", "skipped", "total", "durationMs"]
            }
        },
        "tests": strings(),
        "metadata": {
            "type": "object",
            "description": "Test-runner metadata: selectedTestRunner (microsoft-testing-platform | vstest), projectArgumentStyle (--project | positional | none), selectionSource (testRunner-parameter | useLegacyProjectArgument-parameter | global.json | default), globalJson.",
            "additionalProperties": { "type": "string" }
        }
    })
}

fn build_fields() -> Value {
    json!({
        "project": { "type": "string" },
        "configuration": { "type": "string" },
        "errorCount": integer(),
        "warningCount": integer(),
        "summary": { "type": "string" },
        "warnings": { "type": "array", "items": diagnostic() }
    })
}

/// The output schema: one branch per success shape, and the error envelope.
pub fn output() -> Value {
    let lock = lock_info_schema();
    let command = branch(
        &["New", "Restore", "Run", "Publish", "Clean", "Pack", "Format"],
        json!({
            "command": { "type": "string", "description": "The command line, redacted." },
            "exitCode": integer(),
            "summary": { "type": "string" },
            "durationMs": integer(),
            "project": { "type": "string" },
            "lockInfo": lock,
            "warningCount": integer(),
            "warnings": { "type": "array", "items": diagnostic() },
            "output": { "type": "string", "description": "Run: what the application printed (redacted, capped)." },
            "outputs": { "type": "array", "items": { "type": "object", "properties": { "project": { "type": "string" }, "path": { "type": "string" } }, "required": ["project", "path"] } },
            "packages": strings(),
            "template": { "type": "string" },
            "name": { "type": "string" },
            "consent": { "enum": ["confirmed", "notAsked"], "description": "Clean: whether the user confirmed through the client." }
        }),
        &["command", "exitCode", "summary", "durationMs"],
    );
    let mut build_properties = build_fields();
    build_properties["errors"] = json!({ "type": "array", "items": diagnostic() });
    build_properties["lockInfo"] = lock.clone();
    build_properties["command"] = json!({ "type": "string" });
    build_properties["exitCode"] = integer();
    build_properties["durationMs"] = integer();
    let build = branch(
        &["Build"],
        build_properties,
        &[
            "project",
            "configuration",
            "errorCount",
            "warningCount",
            "summary",
            "errors",
            "warnings",
            "lockInfo",
            "command",
            "exitCode",
        ],
    );
    let mut test_properties = test_fields();
    test_properties["lockInfo"] = lock.clone();
    test_properties["command"] = json!({ "type": "string" });
    test_properties["exitCode"] = integer();
    test_properties["project"] = json!({ "type": "string" });
    let test = branch(
        &["Test"],
        test_properties,
        &[
            "passed",
            "failed",
            "skipped",
            "total",
            "durationMs",
            "summary",
            "failures",
            "assemblies",
            "metadata",
            "lockInfo",
            "command",
            "exitCode",
        ],
    );
    let session_fields = json!({
        "sessionId": { "type": "string" },
        "operation": { "enum": ["run", "watch"] },
        "pid": integer(),
        "command": { "type": "string" },
        "target": { "type": "string" },
        "workingDirectory": { "type": "string" },
        "status": { "enum": ["running", "exited", "stopped"] },
        "exitCode": integer(),
        "startedAt": { "type": "string" },
        "endedAt": { "type": "string" },
        "lineCount": integer()
    });
    let mut started_properties = session_fields.clone();
    started_properties["lockInfo"] = lock.clone();
    started_properties["summary"] = json!({ "type": "string" });
    let started = branch(
        &["Run", "Watch"],
        started_properties,
        &["sessionId", "operation", "pid", "status", "command", "target", "startedAt", "lockInfo"],
    );
    let logs = branch(
        &["Logs"],
        json!({
            "sessionId": { "type": "string" },
            "status": { "enum": ["running", "exited", "stopped"] },
            "exitCode": integer(),
            "lines": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "seq": integer(),
                        "at": { "type": "string" },
                        "stream": { "enum": ["stdout", "stderr"] },
                        "text": { "type": "string" }
                    },
                    "required": ["seq", "at", "stream", "text"]
                }
            },
            "returnedLines": integer(),
            "totalLines": integer(),
            "droppedLines": integer()
        }),
        &["sessionId", "status", "lines", "returnedLines", "totalLines", "droppedLines"],
    );
    let stop = branch(
        &["Stop"],
        json!({
            "sessionId": { "type": "string" },
            "status": { "enum": ["running", "exited", "stopped"] },
            "exitCode": integer(),
            "wasRunning": { "type": "boolean" }
        }),
        &["sessionId", "status", "wasRunning"],
    );
    let list = branch(
        &["ListSessions"],
        json!({ "sessions": { "type": "array", "items": { "type": "object", "properties": session_fields, "required": ["sessionId", "operation", "pid", "status", "command", "target", "startedAt"] } } }),
        &["sessions"],
    );
    let get_property = branch(
        &["GetProperty"],
        json!({
            "projectPath": { "type": "string" },
            "propertyName": { "type": "string" },
            "propertyValue": { "type": "string" },
            "isSet": { "type": "boolean" }
        }),
        &["projectPath", "propertyName", "propertyValue", "isSet"],
    );
    let edit_property = branch(
        &["SetProperty", "RemoveProperty"],
        json!({
            "projectPath": { "type": "string" },
            "propertyName": { "type": "string" },
            "propertyValue": { "type": "string" },
            "previousValue": { "type": "string" },
            "changed": { "type": "boolean" },
            "removed": integer(),
            "conditionalDefinitionsLeft": integer(),
            "lockInfo": lock
        }),
        &["projectPath", "propertyName", "changed", "lockInfo"],
    );
    let edit_item = branch(
        &["AddItem", "RemoveItem"],
        json!({
            "projectPath": { "type": "string" },
            "itemType": { "type": "string" },
            "include": { "type": "string" },
            "metadata": { "type": "object", "additionalProperties": { "type": "string" } },
            "changed": { "type": "boolean" },
            "removed": integer(),
            "conditionalDefinitionsLeft": integer(),
            "lockInfo": lock
        }),
        &["projectPath", "itemType", "include", "changed", "lockInfo"],
    );
    let list_items = branch(
        &["ListItems"],
        json!({
            "projectPath": { "type": "string" },
            "itemType": { "type": "string" },
            "itemTypes": strings(),
            "count": integer(),
            "items": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "itemType": { "type": "string" },
                        "include": { "type": "string" },
                        "fullPath": { "type": "string" },
                        "metadata": { "type": "object", "additionalProperties": { "type": "string" } }
                    },
                    "required": ["itemType", "include", "metadata"]
                }
            }
        }),
        &["projectPath", "itemTypes", "count", "items"],
    );
    let nullable_string = json!({ "type": ["string", "null"] });
    let analyze = branch(
        &["Analyze"],
        json!({
            "projectPath": { "type": "string" },
            "projectName": { "type": "string" },
            "sdk": { "type": "string" },
            "targetFrameworks": strings(),
            "outputType": nullable_string,
            "assemblyName": nullable_string,
            "rootNamespace": nullable_string,
            "nullable": nullable_string,
            "implicitUsings": nullable_string,
            "langVersion": nullable_string,
            "isPackable": { "type": "boolean" },
            "isTestProject": { "type": "boolean" },
            "packageReferences": objects(),
            "projectReferences": objects(),
            "analyzers": objects(),
            "buildProperties": { "type": "object" },
            "notes": strings()
        }),
        &[
            "projectPath",
            "projectName",
            "targetFrameworks",
            "packageReferences",
            "projectReferences",
            "analyzers",
            "buildProperties",
        ],
    );
    let dependencies = branch(
        &["Dependencies"],
        json!({
            "projectPath": { "type": "string" },
            "targetFrameworks": strings(),
            "directPackageDependencies": objects(),
            "directProjectDependencies": objects(),
            "totalDirectDependencies": integer(),
            "notes": strings()
        }),
        &[
            "projectPath",
            "targetFrameworks",
            "directPackageDependencies",
            "directProjectDependencies",
            "totalDirectDependencies",
            "notes",
        ],
    );
    let validate = branch(
        &["Validate"],
        json!({
            "projectPath": { "type": "string" },
            "isValid": { "type": "boolean" },
            "errors": strings(),
            "warnings": strings(),
            "recommendations": strings()
        }),
        &["projectPath", "isValid", "errors", "warnings", "recommendations"],
    );
    let help = template_help::schema();
    let mut help_properties = help["properties"].clone();
    help_properties["template"] = json!({ "type": "string" });
    let template_options = branch(&["ListTemplateOptions"], help_properties, &["template", "name", "options"]);

    let mut envelope = error_response_schema();
    if let Some(properties) = envelope["properties"].as_object_mut() {
        properties.insert("lockInfo".into(), lock_info_schema());
        if let Value::Object(build) = build_fields() {
            properties.extend(build);
        }
        if let Value::Object(test) = test_fields() {
            for (key, value) in test {
                // The envelope's own `metadata` (a string map) already covers the test runner's.
                if key != "metadata" && key != "summary" {
                    properties.insert(key, value);
                }
            }
        }
    }
    json!({
        "type": "object",
        "anyOf": [
            command, build, test, started, logs, stop, list, get_property, edit_property, edit_item, list_items,
            analyze, dependencies, validate, template_options, envelope
        ]
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_is_in_the_input_schema_and_has_a_success_shape() {
        let input = input();
        assert_eq!(input["properties"]["action"]["enum"].as_array().unwrap().len(), Action::NAMES.len());
        let output = output();
        let covered: Vec<&str> = output["anyOf"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|branch| branch["properties"]["action"]["enum"].as_array())
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        for action in Action::NAMES {
            assert!(covered.contains(action), "{action} has no success shape");
        }
    }
}
