//! Every answer of `dotnet_server_capabilities` held against its derived output schema, as the
//! host and the official clients check structured content: with SDKs installed, with a
//! runtime-only dotnet, without dotnet, under a host that describes its plugins and one that does
//! not, and the failure modes: a cancelled and a timed-out `dotnet --list-sdks`.

use std::time::Duration;

use dotnet_server_capabilities::{Action, DotnetServerCapabilities};
use dotnet_support::{
    kit::{ActionEnum, ActionTool},
    testkit::{Answers, Double, Harness, cancel_after, code},
};
use mcp_plugin_api::testkit::{TestCall, TestPluginContext};
use serde_json::{Map, json};

type Setup = Harness<DotnetServerCapabilities>;

#[test]
fn every_answer_holds_against_the_derived_schema() {
    let harness = Setup::new();
    let mut answers = Answers::new(&harness.tool);
    let installed = answers.hold("Capabilities", harness.call(json!({})));
    assert_eq!(installed["dotnet"], json!({ "found": true, "sdkInstalled": true }));
    assert_eq!(installed["hostVersion"], json!(null), "the test kit describes no host");
    let runtime_only = Setup::with(|_, double| double.scenario("runtime-only"));
    assert_eq!(answers.hold("Capabilities", runtime_only.call(json!({})))["dotnet"]["sdkInstalled"], false);
    let no_dotnet = Setup::with(|_, double| double.setting("DotnetPath", json!("/nonexistent/dotnet")));
    assert_eq!(answers.hold("Capabilities", no_dotnet.call(json!({})))["dotnet"]["found"], false);

    // A host that describes itself and its plugins, one of them served changed by the operator.
    let scratch = tempfile::tempdir().unwrap();
    let double = Double::new(scratch.path());
    let host = json!({
        "serverName": "build-agent", "hostVersion": "0.1.0", "protocolVersions": ["2025-06-18", "2025-11-25"],
        "plugins": [
            { "name": "dotnet_server_capabilities", "version": "0.1.0", "tools": ["dotnet_server_capabilities"] },
            { "name": "dotnet_sdk", "version": "0.1.0", "tools": ["sdk"], "prompts": [], "resources": [],
              "hidden": { "tools": [], "prompts": ["p"], "resources": [] }, "renamed": { "dotnet_sdk": "sdk" },
              "overrides": [{ "tool": "sdk", "fields": ["description"], "defaults": ["workingDirectory"] }] }
        ]
    });
    let described = TestPluginContext::with_host_info(double.config(), Map::new(), host);
    let tool = ActionTool::new(DotnetServerCapabilities, described.context()).unwrap();
    let result = TestCall::new().run(&tool, json!({}));
    assert!(result.joined_text().contains("renamed: dotnet_sdk as sdk"), "{}", result.joined_text());
    let caps = answers.hold("Capabilities", result);
    assert_eq!((caps["serverName"].clone(), caps["hostVersion"].clone()), (json!("build-agent"), json!("0.1.0")));
    assert_eq!(caps["loadedPlugins"]["tools"], json!(["dotnet_server_capabilities", "sdk"]));

    // `dotnet --list-sdks` cancelled, and timed out.
    let slow = Setup::with(|_, double| double.scenario("spawn-child").env("DOTNET_DOUBLE_SLOW_SECS", "30"));
    let call = TestCall::new();
    let stopper = cancel_after(&call, Duration::from_millis(300));
    let cancelled = slow.call_with(&call, json!({}));
    stopper.join().unwrap();
    assert_eq!(code(&answers.hold("Capabilities", cancelled)), "OPERATION_CANCELLED");
    let timing_out = Setup::with(|_, double| {
        double.scenario("spawn-child").env("DOTNET_DOUBLE_SLOW_SECS", "30").setting("TimeoutSeconds", json!(0.5))
    });
    assert_eq!(code(&answers.hold("Capabilities", timing_out.call(json!({})))), "OPERATION_CANCELLED");
    answers.assert_every_action(Action::NAMES);
}
