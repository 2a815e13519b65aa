//! The built `dotnet_help` library loaded into the real host binary and called over MCP: listed
//! read-only with its schemas, a parsed help passes the host's outputSchema check, and a refused
//! command is an error result.

use dotnet_support::testkit::Double;
use mcp_plugin_api::testkit::host::{HostUnderTest, built_library};
use serde_json::json;

#[tokio::test]
async fn the_real_host_serves_dotnet_help() {
    let dir = tempfile::tempdir().unwrap();
    let double = Double::new(dir.path());
    let host = HostUnderTest::builder(built_library("dotnet_help").unwrap())
        .settings("dotnet_help", double.config())
        .start()
        .await
        .unwrap();

    let tools = host.list_tools().await.unwrap();
    let tool = tools.iter().find(|tool| tool["name"] == "dotnet_help").expect("dotnet_help is listed");
    assert_eq!(tool["annotations"]["readOnlyHint"], true);
    assert_eq!(tool["annotations"]["idempotentHint"], true);
    assert!(tool["outputSchema"]["anyOf"].is_array());

    let result = host.call_tool("dotnet_help", json!({ "command": "workload install" })).await.unwrap();
    assert!(!result.is_error, "{}", result.joined_text());
    assert_eq!(result.structured_content.unwrap()["commandPath"], json!(["workload", "install"]));
    assert_eq!(double.argvs(), [["workload", "install", "--help"]]);

    let refused = host.call_tool("dotnet_help", json!({ "command": "build --output /tmp" })).await.unwrap();
    assert!(refused.is_error);
    assert_eq!(refused.structured_content.unwrap()["errors"][0]["code"], "INVALID_PARAMS");
    assert_eq!(double.argvs().len(), 1);

    host.shutdown().await.unwrap();
}
