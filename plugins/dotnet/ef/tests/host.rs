//! The built `dotnet_ef` library loaded into the real host binary and called over MCP: the tool
//! is listed with its schemas and annotations, a structured result passes the host's
//! outputSchema check, the project comes from the client's roots, a declined confirmation
//! refuses the drop, and the connection string never reaches the client.

use dotnet_support::testkit::Double;
use mcp_plugin_api::testkit::host::{HostUnderTest, built_library};
use serde_json::json;

#[tokio::test]
async fn the_real_host_serves_dotnet_ef() {
    let connection = "Server=db.internal;Database=app;User Id=sa;Password=Host-Conn-Pw-64";
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("App.csproj"), "<Project Sdk=\"Microsoft.NET.Sdk\" />").unwrap();
    let double = Double::new(dir.path());
    let host = HostUnderTest::builder(built_library("dotnet_ef").unwrap())
        .settings("dotnet_ef", double.config())
        .capabilities(json!({ "roots": {}, "elicitation": {} }))
        .answer("roots/list", json!({ "roots": [{ "uri": format!("file://{}", dir.path().display()) }] }))
        .answer("elicitation/create", json!({ "action": "decline" }))
        .start()
        .await
        .unwrap();

    let tools = host.list_tools().await.unwrap();
    let tool = tools.iter().find(|tool| tool["name"] == "dotnet_ef").expect("dotnet_ef is listed");
    assert_eq!(tool["inputSchema"]["required"], json!(["action"]));
    assert_eq!(tool["inputSchema"]["properties"]["action"]["enum"].as_array().unwrap().len(), 9);
    assert!(tool["outputSchema"]["anyOf"].is_array());
    assert_eq!(tool["annotations"]["destructiveHint"], true);
    assert_eq!(tool["annotations"]["readOnlyHint"], false);

    let result =
        host.call_tool("dotnet_ef", json!({ "action": "MigrationsList", "connection": connection })).await.unwrap();
    assert!(!result.is_error, "{}", result.joined_text());
    let structured = result.structured_content.clone().unwrap();
    assert_eq!(structured["pendingCount"], 1);
    let project = dir.path().join("App.csproj").display().to_string();
    let argv = double.argvs();
    assert_eq!(
        argv[0],
        [
            "ef",
            "migrations",
            "list",
            "--project",
            project.as_str(),
            "--connection",
            connection,
            "--prefix-output",
            "--json"
        ]
    );
    let seen = serde_json::to_string(&result).unwrap();
    assert!(!seen.contains("Host-Conn-Pw-64") && !seen.contains("Server=db.internal"), "{seen}");

    let result = host.call_tool("dotnet_ef", json!({ "action": "DatabaseDrop" })).await.unwrap();
    assert!(result.is_error);
    assert_eq!(result.structured_content.unwrap()["errors"][0]["code"], "OPERATION_CANCELLED");
    assert_eq!(double.argvs().len(), 1, "the declined drop ran nothing");

    host.shutdown().await.unwrap();
}
