//! The built `dotnet_solution` library loaded into the real host binary and called over MCP:
//! the tool is listed with its schemas and annotations, every structured result passes the
//! host's outputSchema check, the solution comes from the client's roots, and Remove asks the
//! user through the host's elicitation, refusing when declined and running when accepted.

use dotnet_support::testkit::Double;
use mcp_plugin_api::testkit::host::{HostUnderTest, built_library};
use serde_json::{Value, json};

const PROJECT: &str = "<Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup><TargetFramework>net10.0</TargetFramework>\
                       </PropertyGroup></Project>";

async fn host(root: &std::path::Path, double: &Double, elicitation: Value) -> HostUnderTest {
    HostUnderTest::builder(built_library("dotnet_solution").unwrap())
        .settings("dotnet_solution", double.config())
        .capabilities(json!({ "roots": {}, "elicitation": {} }))
        .answer("roots/list", json!({ "roots": [{ "uri": format!("file://{}", root.display()) }] }))
        .answer("elicitation/create", elicitation)
        .start()
        .await
        .unwrap()
}

#[tokio::test]
async fn the_real_host_serves_dotnet_solution() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("repo");
    for project in ["src/App/App.csproj", "src/Lib/Lib.csproj"] {
        std::fs::create_dir_all(root.join(project).parent().unwrap()).unwrap();
        std::fs::write(root.join(project), PROJECT).unwrap();
    }
    std::fs::write(
        root.join("Shop.slnx"),
        "<Solution><Project Path=\"src/App/App.csproj\" /><Project Path=\"src/Lib/Lib.csproj\" /></Solution>",
    )
    .unwrap();
    let solution = root.join("Shop.slnx").display().to_string();
    let double = Double::new(dir.path());

    let declining = host(&root, &double, json!({ "action": "decline" })).await;
    let tools = declining.list_tools().await.unwrap();
    let tool = tools.iter().find(|tool| tool["name"] == "dotnet_solution").expect("dotnet_solution is listed");
    assert_eq!(tool["inputSchema"]["required"], json!(["action"]));
    assert_eq!(tool["inputSchema"]["properties"]["action"]["enum"].as_array().unwrap().len(), 8);
    assert!(tool["outputSchema"]["anyOf"].is_array());
    assert_eq!(
        tool["annotations"],
        json!({ "readOnlyHint": false, "destructiveHint": true, "idempotentHint": false, "openWorldHint": false })
    );

    for action in ["List", "Analyze", "Dependencies", "Validate"] {
        let result = declining.call_tool("dotnet_solution", json!({ "action": action })).await.unwrap();
        assert!(!result.is_error, "{action}: {}", result.joined_text());
        assert_eq!(result.structured_content.unwrap()["action"], action);
    }
    assert_eq!(double.argvs(), [vec!["sln".to_owned(), solution.clone(), "list".to_owned()]], "from the roots");

    let args = json!({ "action": "Remove", "projects": ["src/Lib/Lib.csproj"] });
    let refused = declining.call_tool("dotnet_solution", args.clone()).await.unwrap();
    assert!(refused.is_error);
    assert_eq!(refused.structured_content.unwrap()["errors"][0]["code"], "OPERATION_CANCELLED");
    assert_eq!(double.argvs().len(), 1, "the declined removal ran nothing");
    declining.shutdown().await.unwrap();

    let accepting = host(&root, &double, json!({ "action": "accept", "content": { "confirm": true } })).await;
    let removed = accepting.call_tool("dotnet_solution", args).await.unwrap();
    assert!(!removed.is_error, "{}", removed.joined_text());
    let structured = removed.structured_content.unwrap();
    assert_eq!(
        (structured["confirmation"].as_str(), structured["removed"][0].as_str()),
        (Some("confirmed"), Some("src/Lib/Lib.csproj"))
    );
    assert_eq!(double.argvs()[1], ["sln", solution.as_str(), "remove", "src/Lib/Lib.csproj"]);
    accepting.shutdown().await.unwrap();
}
