//! `dotnet_server_capabilities` in process against the dotnet test double: what it runs, and how
//! it answers without dotnet, without an SDK, when cancelled and when timed out. The test kit
//! checks every result against the advertised schemas, as the host does.

use dotnet_server_capabilities::DotnetServerCapabilities;
use dotnet_support::testkit::{Double, Harness, cancel_after, failed, parameter};
use mcp_plugin_api::{Tool, ToolResult, testkit::TestCall};
use serde_json::{Value, json};

type Setup = Harness<DotnetServerCapabilities>;

fn setup_with(configure: impl FnOnce(Double) -> Double) -> Setup {
    Setup::with(|_, double| configure(double))
}

/// Runs `call`; the result and its structured content.
fn run(s: &Setup, call: &TestCall) -> (ToolResult, Value) {
    let result = s.call_with(call, json!({}));
    let structured = result.structured_content.clone().expect("checked");
    (result, structured)
}

#[test]
fn reports_the_server_and_the_installed_sdks() {
    let s = setup_with(|double| double);
    let (result, caps) = run(&s, &TestCall::new());
    assert!(!result.is_error);
    assert_eq!(s.double.argvs(), [["--list-sdks"]]);
    assert_eq!(
        caps["plugin"],
        json!({ "name": "dotnet_server_capabilities", "version": "0.1.0", "tools": ["dotnet_server_capabilities"] })
    );
    assert_eq!(caps["pluginApiVersion"], mcp_plugin_api::abi::ABI_VERSION);
    assert!(caps["protocolVersions"].as_array().unwrap().contains(&json!("2025-11-25")));
    for supported in [
        "structuredErrors",
        "cancellation",
        "progressNotifications",
        "contentNegotiation",
        "elicitation",
        "sampling",
        "roots",
        "locks",
    ] {
        assert_eq!(caps["supports"][supported], true, "{supported}");
    }
    assert_eq!(caps["supports"]["telemetry"], false);
    assert_eq!(caps["loadedPlugins"]["complete"], false);
    assert_eq!(caps["dotnet"], json!({ "found": true, "sdkInstalled": true }));
    let sdks = &caps["sdkVersions"];
    // The double replays SDK 10.0.401's `--list-sdks` (test-double/recordings/sdk).
    assert_eq!(sdks["installed"], json!(["10.0.401"]));
    assert_eq!(sdks["sdks"][0], json!({ "version": "10.0.401", "path": "/usr/share/dotnet/sdk" }));
    assert_eq!((sdks["recommended"].as_str(), sdks["lts"].as_str()), (Some("net10.0"), Some("net10.0")));
    assert_eq!(sdks["recommendedInstalled"], true);
    // The framework table is dated data, and says so.
    let table_date = dotnet_support::frameworks::TABLE_AS_OF.to_string();
    assert_eq!(sdks["tableAsOf"], table_date);
    let text = result.joined_text();
    assert!(text.contains("SDKs installed: 10.0.401.") && text.contains("Use net10.0 for new projects"), "{text}");
    assert!(text.contains(&format!("Framework facts as of {table_date}.")), "{text}");
    // The test kit's context does not describe a host, so the plugin says what it cannot know.
    assert!(caps["loadedPlugins"]["note"].as_str().unwrap().contains("tools/list"));
}

#[test]
fn without_dotnet_the_capabilities_still_answer() {
    let s = setup_with(|double| double.setting("DotnetPath", json!("/nonexistent/dotnet")));
    let (result, caps) = run(&s, &TestCall::new());
    assert!(!result.is_error);
    assert_eq!(caps["dotnet"]["found"], false);
    assert!(caps["dotnet"]["reason"].as_str().unwrap().contains("/nonexistent/dotnet"));
    assert!(caps["dotnet"]["alternatives"].as_array().unwrap().len() >= 2);
    assert_eq!(caps["sdkVersions"]["installed"], json!([]));
    assert_eq!(caps["sdkVersions"]["recommended"], "net10.0");
    assert_eq!(caps["sdkVersions"]["recommendedInstalled"], false);
    assert!(result.joined_text().contains("dotnet was not found"), "{}", result.joined_text());
}

#[test]
fn a_runtime_only_dotnet_has_no_sdk() {
    let s = setup_with(|double| double.scenario("runtime-only"));
    let (result, caps) = run(&s, &TestCall::new());
    assert!(!result.is_error);
    assert_eq!(caps["dotnet"], json!({ "found": true, "sdkInstalled": false }));
    assert_eq!(caps["sdkVersions"]["installed"], json!([]));
    assert!(result.joined_text().contains("no SDK (runtime only)"), "{}", result.joined_text());
}

#[test]
fn a_cancelled_or_timed_out_listing_is_an_error_envelope() {
    // `spawn-child` keeps every command (and its child) alive for DOTNET_DOUBLE_SLOW_SECS.
    let s = setup_with(|double| double.scenario("spawn-child").env("DOTNET_DOUBLE_SLOW_SECS", "30"));
    let call = TestCall::new();
    let stopper = cancel_after(&call, std::time::Duration::from_millis(300));
    let started = std::time::Instant::now();
    let (result, envelope) = run(&s, &call);
    stopper.join().unwrap();
    assert!(result.is_error);
    assert_eq!(envelope["errors"][0]["code"], "OPERATION_CANCELLED");
    assert!(started.elapsed() < std::time::Duration::from_secs(20));

    let s = setup_with(|double| {
        double.scenario("spawn-child").env("DOTNET_DOUBLE_SLOW_SECS", "30").setting("TimeoutSeconds", json!(0.5))
    });
    let (result, envelope) = run(&s, &TestCall::new());
    assert!(result.is_error);
    assert_eq!(envelope["errors"][0]["code"], "OPERATION_CANCELLED");
    assert!(envelope["errors"][0]["message"].as_str().unwrap().contains("timed out"));
}

#[test]
fn content_negotiation_changes_the_text_not_the_data() {
    let s = setup_with(|double| double);
    let (standard, data) = run(&s, &TestCall::new());
    let (compact, compact_data) = run(&s, &TestCall::new().with_features(&["verbosity=compact"]));
    let (markdown, markdown_data) = run(&s, &TestCall::new().with_features(&["format=markdown"]));
    assert!(standard.joined_text().contains("Supported:\n"));
    assert!(!compact.joined_text().contains('\n'), "{}", compact.joined_text());
    assert!(markdown.joined_text().contains("### Supported"));
    assert_eq!(data, compact_data);
    assert_eq!(data, markdown_data);
}

#[test]
fn the_tool_is_read_only_and_takes_no_arguments() {
    let s = setup_with(|double| double);
    let spec = serde_json::to_value(s.tool.spec()).unwrap();
    assert_eq!(spec["name"], "dotnet_server_capabilities");
    assert_eq!(
        spec["annotations"],
        json!({ "readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false })
    );
    assert_eq!(spec["inputSchema"]["additionalProperties"], false);
    assert_eq!(spec["outputSchema"]["type"], "object");
    let supports = &spec["outputSchema"]["anyOf"][0]["properties"]["supports"];
    assert_eq!(supports["required"].as_array().unwrap().len(), 16, "every support flag is required");
    let stray = s.call_with(&TestCall::new().unchecked(), json!({ "verbose": true }));
    assert_eq!(parameter(failed(&stray)), "verbose");
}
