//! The built `dotnet_sdk` library loaded into the real host binary and called over MCP: the tool
//! is listed with its schemas and annotations, its read-only actions' answers pass the output
//! schema as a client reads it from the tool list, and its resources and prompts are served by
//! the host beside the tool.

use dotnet_support::testkit::Double;
use mcp_plugin_api::{
    check::ToolSchemas,
    testkit::host::{HostUnderTest, built_library},
};
use serde_json::{Value, json};

#[tokio::test]
async fn the_real_host_serves_dotnet_sdk() {
    let dir = tempfile::tempdir().unwrap();
    let double = Double::new(dir.path()).setting("WorkingDirectory", json!(dir.path().display().to_string()));
    let host = HostUnderTest::builder(built_library("dotnet_sdk").unwrap())
        .settings("dotnet_sdk", double.config())
        .start()
        .await
        .unwrap();

    let tools = host.list_tools().await.unwrap();
    let tool = tools.iter().find(|tool| tool["name"] == "dotnet_sdk").expect("dotnet_sdk is listed");
    assert_eq!(tool["inputSchema"]["required"], json!(["action"]));
    assert_eq!(tool["annotations"]["destructiveHint"], true, "ConfigureGlobalJson rewrites a file");
    let schemas = ToolSchemas::compile(&tool["inputSchema"], Some(&tool["outputSchema"])).unwrap();

    for action in ["Version", "Info", "ListSdks", "ListRuntimes", "ListTemplates", "FrameworkInfo"] {
        let result = host.call_tool("dotnet_sdk", json!({ "action": action })).await.unwrap();
        assert!(!result.is_error, "{action}: {}", result.joined_text());
        let structured = result.structured_content.expect("a success carries structured content");
        schemas.check_output(Some(&structured)).unwrap_or_else(|error| panic!("{action}: {error}\n{structured}"));
        assert_eq!(structured["action"], action);
    }
    let refused = host.call_tool("dotnet_sdk", json!({ "action": "TemplateInfo" })).await.unwrap();
    assert!(refused.is_error, "TemplateInfo requires templateShortName");
    schemas.check_output(refused.structured_content.as_ref()).unwrap();

    let listed = host.request("resources/list", json!({})).await.unwrap();
    let uris: Vec<&str> = listed["resources"].as_array().unwrap().iter().filter_map(|r| r["uri"].as_str()).collect();
    for uri in ["dotnet://sdk-info", "dotnet://runtime-info", "dotnet://templates", "dotnet://frameworks"] {
        assert!(uris.contains(&uri), "{uri} is listed: {listed}");
    }
    let read = host.request("resources/read", json!({ "uri": "dotnet://sdk-info" })).await.unwrap();
    let sdk_info: Value = serde_json::from_str(read["contents"][0]["text"].as_str().unwrap()).unwrap();
    assert!(sdk_info["sdks"].as_array().is_some_and(|sdks| !sdks.is_empty()), "{sdk_info}");

    let prompts = host.request("prompts/list", json!({})).await.unwrap();
    assert_eq!(prompts["prompts"].as_array().unwrap().len(), 5, "{prompts}");
    let prompt = host
        .request("prompts/get", json!({ "name": "new_console_app", "arguments": { "projectName": "Hello" } }))
        .await
        .unwrap();
    assert!(prompt["messages"][0]["content"]["text"].as_str().unwrap().contains("Hello"), "{prompt}");

    host.shutdown().await.unwrap();
}
