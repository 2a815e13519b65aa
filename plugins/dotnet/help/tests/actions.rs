//! `dotnet_help` in process, against the real test double of dotnet: the exact argument vector,
//! the parsed help, and commands that are refused before anything runs. The test kit checks
//! every result against the advertised schemas, as the host does.

use dotnet_help::DotnetHelp;
use dotnet_support::testkit::{Harness, code, parameter, reason, with_defaults};
use mcp_plugin_api::{Tool, testkit::TestCall};
use serde_json::json;

type Help = Harness<DotnetHelp>;

fn scenario(name: &'static str) -> Help {
    Help::with(|_, double| double.scenario(name))
}

#[test]
fn the_annotations_say_read_only_and_idempotent() {
    let spec = Help::new().tool.spec();
    let annotations = spec.get_annotations();
    assert_eq!(
        (annotations.read_only, annotations.destructive, annotations.idempotent, annotations.open_world),
        (Some(true), Some(false), Some(true), Some(false))
    );
    assert!(spec.get_input_schema()["properties"].get("action").is_none(), "one action, no action parameter");
}

#[test]
fn each_command_runs_its_help_with_the_exact_argument_vector() {
    let harness = Help::new();
    let cases: Vec<(serde_json::Value, Vec<&str>)> = vec![
        (json!({}), vec!["--help"]),
        (json!({ "command": "build" }), vec!["build", "--help"]),
        (json!({ "command": "dotnet Tool Install" }), vec!["tool", "install", "--help"]),
        (json!({ "command": "workload" }), vec!["workload", "--help"]),
        (json!({ "command": "new console" }), vec!["new", "console", "--help"]),
        (json!({ "command": "ef migrations add" }), vec!["ef", "migrations", "add", "--help"]),
        (json!({ "command": "sln" }), vec!["sln", "--help"]),
    ];
    for (args, expected) in cases {
        let structured = harness.ok(args.clone());
        assert!(structured.get("action").is_none(), "a single-action tool names no action: {structured}");
        assert_eq!(harness.argvs().pop().unwrap(), expected, "{args}");
    }
}

#[test]
fn defaults_a_client_fills_in_change_nothing() {
    let harness = Help::new();
    let filled = with_defaults(&harness.tool, &json!({ "command": "build" }));
    assert_eq!(filled["workingDirectory"], "");
    harness.ok(filled);
    assert_eq!(harness.argvs(), [["build", "--help"]]);
}

#[test]
fn the_help_is_text_for_the_model_and_parts_for_programs() {
    let harness = Help::new();
    let tool = harness.call(json!({ "command": "tool" }));
    let structured = tool.structured_content.as_ref().unwrap();
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

    // `dotnet --help` as SDK 10.0.401 prints it (recordings/sdk/): the host's usage for running
    // an app, then the SDK's. `path-to-application:` holds a sentence, not entries: no section.
    let structured = harness.ok(json!({}));
    let titles: Vec<&str> =
        structured["sections"].as_array().unwrap().iter().map(|s| s["title"].as_str().unwrap()).collect();
    assert_eq!(titles, ["runtime-options", "sdk-options", "SDK commands", "Additional commands from bundled tools"]);
    assert_eq!(
        structured["usage"],
        json!([
            "dotnet [runtime-options] [path-to-application] [arguments]",
            "dotnet [sdk-options] [command] [command-options] [arguments]"
        ])
    );
    let sdk_commands = &structured["sections"][2]["entries"];
    assert_eq!(sdk_commands.as_array().unwrap().len(), 21);
    assert_eq!(sdk_commands[0], json!({ "name": "build", "description": "Build a .NET project." }));
    assert_eq!(structured["sections"][3]["entries"][4]["name"], "watch");
    assert_eq!(structured["commandPath"], json!([]));

    let call = TestCall::new().with_features(&["verbosity=compact"]);
    let compact = harness.call_with(&call, json!({ "command": "build" }));
    assert!(!compact.joined_text().contains('\n'), "compact is the summary line: {}", compact.joined_text());
}

#[test]
fn options_unknown_commands_and_smuggling_are_refused_before_anything_runs() {
    let harness = Help::new();
    for command in ["build --output /tmp", "--info", "tool explode", "deploy", "build; rm -rf /", "new console extra"] {
        let envelope = harness.err(json!({ "command": command }));
        assert_eq!((code(&envelope), parameter(&envelope)), ("INVALID_PARAMS", "command"), "{command}");
    }
    let typed = harness.call_with(&TestCall::new().unchecked(), json!({ "command": 42 }));
    assert_eq!(reason(typed.structured_content.as_ref().unwrap()), "invalid type");
    let missing = harness.err(json!({ "command": "build", "workingDirectory": "/nonexistent" }));
    assert_eq!(parameter(&missing), "workingDirectory");
    let stray = harness.call_with(&TestCall::new().unchecked(), json!({ "command": "build", "action": "Help" }));
    assert!(stray.is_error, "a single-action tool has no action parameter");
    assert!(harness.argvs().is_empty(), "nothing ran");
}

#[test]
fn a_missing_ef_tool_or_sdk_is_an_error_with_the_envelope() {
    let no_ef = scenario("no-ef").err(json!({ "command": "ef" }));
    assert!(no_ef["errors"][0]["message"].as_str().unwrap().contains("Could not execute"), "{no_ef}");
    assert_eq!(code(&scenario("runtime-only").err(json!({ "command": "build" }))), "SDK_NOT_FOUND");
    // Without a command, the dotnet host answers with its own usage (exit 129): no SDK either.
    let no_sdk = scenario("runtime-only").err(json!({}));
    assert_eq!(code(&no_sdk), "SDK_NOT_FOUND", "{no_sdk}");
}

#[test]
fn a_read_only_server_serves_help_unchanged() {
    let harness = Help::with(|_, double| double.setting("ReadOnly", json!(true)));
    assert_eq!(harness.tool.spec().get_input_schema(), Help::new().tool.spec().get_input_schema());
    harness.ok(json!({ "command": "build" }));
}
