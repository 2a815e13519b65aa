//! The built `dotnet_tool` library loaded into the real host binary and called over MCP: the
//! tool is listed with its schemas and annotations, structured results pass the host's
//! outputSchema check, a local action runs in the client's root that holds a manifest, the host
//! refuses arguments outside the input schema, and a declined confirmation runs nothing.

use dotnet_support::testkit::Double;
use mcp_plugin_api::testkit::host::{HostUnderTest, built_library};
use serde_json::json;

#[tokio::test]
async fn the_real_host_serves_dotnet_tool() {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("repo");
    std::fs::create_dir_all(&work).unwrap();
    std::fs::write(work.join("dotnet-tools.json"), "{}").unwrap();
    let work = work.canonicalize().unwrap();
    let double = Double::new(dir.path());
    let host = HostUnderTest::builder(built_library("dotnet_tool").unwrap())
        .settings("dotnet_tool", double.config())
        .capabilities(json!({ "roots": {}, "elicitation": {} }))
        .answer("roots/list", json!({ "roots": [{ "uri": format!("file://{}", work.display()) }] }))
        .answer("elicitation/create", json!({ "action": "decline" }))
        .start()
        .await
        .unwrap();

    let tools = host.list_tools().await.unwrap();
    let tool = tools.iter().find(|tool| tool["name"] == "dotnet_tool").expect("dotnet_tool is listed");
    assert_eq!(tool["inputSchema"]["required"], json!(["action"]));
    assert_eq!(tool["inputSchema"]["properties"]["action"]["enum"].as_array().unwrap().len(), 9);
    assert!(tool["outputSchema"]["anyOf"].is_array());
    assert_eq!(tool["annotations"]["destructiveHint"], true);
    assert_eq!(tool["annotations"]["readOnlyHint"], false);

    let list = host.call_tool("dotnet_tool", json!({ "action": "List" })).await.unwrap();
    assert!(!list.is_error, "{}", list.joined_text());
    // Replayed from recordings/tools: SDK 10.0.401 listing csharpier 1.1.2.
    assert_eq!(list.structured_content.unwrap()["tools"].as_array().unwrap().len(), 1);
    let invocation = double.invocations().pop().unwrap();
    assert_eq!(invocation.argv, ["tool", "list", "--format", "json"]);
    assert_eq!(invocation.cwd, work, "the root with the manifest is the working directory");

    let install =
        host.call_tool("dotnet_tool", json!({ "action": "Install", "packageId": "dotnetsay", "global": true })).await;
    let structured = install.unwrap().structured_content.unwrap();
    assert_eq!(structured["lockInfo"]["lockKey"], "global");

    let refused = host.call_tool("dotnet_tool", json!({ "action": "List", "verbose": true })).await.unwrap();
    assert!(refused.is_error, "the host checks arguments against the input schema");

    let declined = host.call_tool("dotnet_tool", json!({ "action": "Uninstall", "packageId": "csharpier" })).await;
    let declined = declined.unwrap();
    assert!(declined.is_error);
    assert_eq!(declined.structured_content.unwrap()["errors"][0]["code"], "OPERATION_CANCELLED");
    assert_eq!(double.argvs().len(), 2, "the declined uninstall ran nothing");

    host.shutdown().await.unwrap();
}
