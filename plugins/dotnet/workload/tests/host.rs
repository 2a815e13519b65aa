//! The built `dotnet_workload` library loaded into the real host binary and called over MCP:
//! the tool is listed with its schemas and annotations, structured results pass the host's
//! outputSchema check, the host applies the workload id pattern, and a confirmed uninstall runs.

use dotnet_support::testkit::Double;
use mcp_plugin_api::testkit::host::{HostUnderTest, built_library};
use serde_json::json;

#[tokio::test]
async fn the_real_host_serves_dotnet_workload() {
    let dir = tempfile::tempdir().unwrap();
    let double = Double::new(dir.path());
    let host = HostUnderTest::builder(built_library("dotnet_workload").unwrap())
        .settings("dotnet_workload", double.config())
        .capabilities(json!({ "elicitation": {} }))
        .answer("elicitation/create", json!({ "action": "accept", "content": { "confirm": true } }))
        .start()
        .await
        .unwrap();

    let tools = host.list_tools().await.unwrap();
    let tool = tools.iter().find(|tool| tool["name"] == "dotnet_workload").expect("dotnet_workload is listed");
    assert_eq!(tool["inputSchema"]["required"], json!(["action"]));
    assert_eq!(tool["inputSchema"]["properties"]["action"]["enum"].as_array().unwrap().len(), 6);
    assert_eq!(tool["annotations"]["destructiveHint"], true);
    assert_eq!(tool["annotations"]["openWorldHint"], true);

    for action in ["List", "Info", "Search"] {
        let result = host.call_tool("dotnet_workload", json!({ "action": action })).await.unwrap();
        assert!(!result.is_error, "{action}: {}", result.joined_text());
        assert!(result.structured_content.unwrap()["workloads"].is_array());
    }

    let smuggled = json!({ "action": "Install", "workloadIds": ["--source=evil"] });
    let refused = host.call_tool("dotnet_workload", smuggled).await.unwrap();
    assert!(refused.is_error, "the host applies the workload id pattern");

    // wasm-tools-net8 is installed in the double's hand-made catalogue (no recording of a
    // successful uninstall can exist on a machine whose feeds serve no workload packs).
    let uninstall = json!({ "action": "Uninstall", "workloadIds": ["wasm-tools-net8"] });
    let result = host.call_tool("dotnet_workload", uninstall).await.unwrap();
    assert!(!result.is_error, "{}", result.joined_text());
    let structured = result.structured_content.unwrap();
    assert_eq!(structured["consent"], "confirmed");
    assert_eq!(structured["lockInfo"]["lockScope"], "global");
    assert_eq!(
        double.argvs(),
        [
            vec!["workload", "list"],
            vec!["workload", "--info"],
            vec!["workload", "search"],
            vec!["workload", "uninstall", "wasm-tools-net8"]
        ]
    );

    host.shutdown().await.unwrap();
}
