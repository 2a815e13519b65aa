//! The built `dotnet_server_capabilities` library loaded into the real host binary beside
//! `dotnet_help` and called over MCP: listed read-only without arguments, and its answer (the
//! host's own description: server name, protocol versions, both plugins and their tools) passes
//! the host's outputSchema check and the schema as a client reads it from the tool list.

use dotnet_support::testkit::Double;
use mcp_plugin_api::{
    check::ToolSchemas,
    testkit::host::{HostUnderTest, built_library},
};
use serde_json::json;

#[tokio::test]
async fn the_real_host_serves_dotnet_server_capabilities() {
    let dir = tempfile::tempdir().unwrap();
    let double = Double::new(dir.path());
    let host = HostUnderTest::builder(built_library("dotnet_server_capabilities").unwrap())
        .library(built_library("dotnet_help").unwrap())
        .settings("dotnet_server_capabilities", double.config())
        .start()
        .await
        .unwrap();

    let tools = host.list_tools().await.unwrap();
    let tool = tools.iter().find(|tool| tool["name"] == "dotnet_server_capabilities").expect("it is listed");
    assert_eq!(tool["annotations"]["readOnlyHint"], true);
    assert_eq!(tool["inputSchema"]["properties"], json!({}), "no arguments");
    assert_eq!(tool["outputSchema"]["type"], "object");
    let schemas = ToolSchemas::compile(&tool["inputSchema"], Some(&tool["outputSchema"])).unwrap();

    let result = host.call_tool("dotnet_server_capabilities", json!({})).await.unwrap();
    assert!(!result.is_error, "{}", result.joined_text());
    let caps = result.structured_content.unwrap();
    schemas.check_output(Some(&caps)).unwrap();
    assert_eq!(caps["serverName"], "mcp-plugin-host");
    assert!(caps["hostVersion"].is_string(), "the host says its version: {caps}");
    assert_eq!(caps["loadedPlugins"]["complete"], true);
    assert_eq!(caps["loadedPlugins"]["known"], json!(["dotnet_help", "dotnet_server_capabilities"]));
    assert!(caps["loadedPlugins"]["tools"].as_array().unwrap().contains(&json!("dotnet_help")));
    assert!(caps["protocolVersions"].as_array().unwrap().contains(&json!("2025-11-25")));
    assert_eq!(caps["dotnet"], json!({ "found": true, "sdkInstalled": true }));
    assert_eq!(double.argvs(), [["--list-sdks"]]);

    host.shutdown().await.unwrap();
}
