//! `dotnet_help` in process, against the real test double of dotnet: the exact argument vector,
//! the parsed help against the advertised outputSchema, and commands that are refused before
//! anything runs.

use std::sync::OnceLock;

use dotnet_help::DotnetHelp;
use dotnet_support::testkit::Double;
use mcp_plugin_api::{Tool, ToolResult, testkit::TestCall};
use serde_json::{Value, json};

struct Harness {
    _scratch: tempfile::TempDir,
    double: Double,
    tool: DotnetHelp,
}

impl Harness {
    fn new(scenario: &str) -> Self {
        let scratch = tempfile::tempdir().unwrap();
        let double = Double::new(scratch.path()).scenario(scenario);
        let tool = DotnetHelp::new(double.context().context()).unwrap();
        Self { _scratch: scratch, double, tool }
    }

    fn call(&self, args: Value) -> ToolResult {
        let result = TestCall::new().unchecked().run(&self.tool, args);
        assert_matches_schema(&result);
        result
    }
}

fn assert_matches_schema(result: &ToolResult) {
    static VALIDATOR: OnceLock<jsonschema::Validator> = OnceLock::new();
    let validator = VALIDATOR.get_or_init(|| {
        let schema = Harness::new("").tool.spec().get_output_schema().cloned().expect("an output schema");
        jsonschema::validator_for(&schema).expect("the output schema compiles")
    });
    let structured = result.structured_content.as_ref().expect("every result has structured content");
    let problems: Vec<String> = validator.iter_errors(structured).map(|error| error.to_string()).collect();
    assert!(problems.is_empty(), "{problems:?}\n{structured:#}");
}

fn ok(result: &ToolResult) -> &Value {
    assert!(!result.is_error, "{}", result.joined_text());
    result.structured_content.as_ref().unwrap()
}

fn error(result: &ToolResult) -> &Value {
    assert!(result.is_error, "{}", result.joined_text());
    &result.structured_content.as_ref().unwrap()["errors"][0]
}

#[test]
fn the_annotations_say_read_only_and_idempotent() {
    let spec = Harness::new("").tool.spec();
    let annotations = spec.get_annotations();
    assert_eq!(
        (annotations.read_only, annotations.destructive, annotations.idempotent, annotations.open_world),
        (Some(true), Some(false), Some(true), Some(false))
    );
}

#[test]
fn each_command_runs_its_help_with_the_exact_argument_vector() {
    let harness = Harness::new("");
    let cases: Vec<(Value, Vec<&str>)> = vec![
        (json!({}), vec!["--help"]),
        (json!({ "command": "build" }), vec!["build", "--help"]),
        (json!({ "command": "dotnet Tool Install" }), vec!["tool", "install", "--help"]),
        (json!({ "command": "workload" }), vec!["workload", "--help"]),
        (json!({ "command": "new console" }), vec!["new", "console", "--help"]),
        (json!({ "command": "ef migrations add" }), vec!["ef", "migrations", "add", "--help"]),
        (json!({ "command": "sln" }), vec!["sln", "--help"]),
    ];
    for (args, expected) in cases {
        ok(&harness.call(args.clone()));
        assert_eq!(harness.double.argvs().pop().unwrap(), expected, "{args}");
    }
}

#[test]
fn the_help_is_text_for_the_model_and_parts_for_programs() {
    let harness = Harness::new("");
    let tool = harness.call(json!({ "command": "tool" }));
    let structured = ok(&tool);
    assert_eq!(structured["command"], "dotnet tool --help");
    assert_eq!(structured["commandPath"], json!(["tool"]));
    assert_eq!(structured["usage"], json!(["dotnet tool [command] [options]"]));
    assert_eq!(structured["description"], "Install or work with tools that extend the .NET experience.");
    let commands =
        structured["sections"].as_array().unwrap().iter().find(|section| section["title"] == "Commands").unwrap();
    assert_eq!(commands["entries"][0]["name"], "install <PACKAGE_ID>");
    assert_eq!(commands["entries"].as_array().unwrap().len(), 8);
    let text = tool.joined_text();
    assert!(text.starts_with("Help for 'dotnet tool'. Usage: dotnet tool [command] [options]"), "{text}");
    assert!(text.contains("run <COMMAND_NAME>      Run a local tool."), "the help text itself: {text}");

    let sdk = harness.call(json!({}));
    let structured = ok(&sdk);
    let titles: Vec<&str> =
        structured["sections"].as_array().unwrap().iter().map(|s| s["title"].as_str().unwrap()).collect();
    assert_eq!(titles, ["sdk-options", "SDK commands", "Additional commands from bundled tools"]);
    assert_eq!(structured["commandPath"], json!([]));

    let compact = TestCall::new()
        .unchecked()
        .with_features(&["verbosity=compact"])
        .run(&harness.tool, json!({ "command": "build" }));
    assert!(!compact.joined_text().contains('\n'), "compact is the summary line: {}", compact.joined_text());
}

#[test]
fn options_unknown_commands_and_smuggling_are_refused_before_anything_runs() {
    let harness = Harness::new("");
    for command in ["build --output /tmp", "--info", "tool explode", "deploy", "build; rm -rf /", "new console extra"] {
        let result = harness.call(json!({ "command": command }));
        let first = error(&result);
        assert_eq!(first["code"], "INVALID_PARAMS", "{command}");
        assert_eq!(first["data"]["additionalData"]["parameter"], "command", "{command}");
    }
    assert_eq!(error(&harness.call(json!({ "command": 42 })))["data"]["additionalData"]["reason"], "invalid type");
    let missing = harness.call(json!({ "command": "build", "workingDirectory": "/nonexistent" }));
    assert_eq!(error(&missing)["data"]["additionalData"]["parameter"], "workingDirectory");
    assert!(harness.double.argvs().is_empty(), "nothing ran");
}

#[test]
fn a_missing_ef_tool_or_sdk_is_an_error_with_the_envelope() {
    let no_ef = Harness::new("no-ef");
    let result = no_ef.call(json!({ "command": "ef" }));
    assert!(error(&result)["message"].as_str().unwrap().contains("Could not execute"), "{}", result.joined_text());
    let no_sdk = Harness::new("runtime-only");
    assert_eq!(error(&no_sdk.call(json!({ "command": "build" })))["code"], "SDK_NOT_FOUND");
}
