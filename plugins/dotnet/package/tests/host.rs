//! The built `dotnet_package` library loaded into the real host binary and called over MCP: the
//! tool is listed with its schemas and annotations, structured results pass the host's
//! outputSchema check, the project comes from the client's roots, and failures carry the
//! error envelope.

use dotnet_support::testkit::Double;
use mcp_plugin_api::testkit::host::{HostUnderTest, built_library};
use serde_json::json;

#[tokio::test]
async fn the_real_host_serves_dotnet_package() {
    let dir = tempfile::tempdir().unwrap();
    let app = dir.path().join("App");
    std::fs::create_dir_all(&app).unwrap();
    std::fs::write(app.join("App.csproj"), "<Project Sdk=\"Microsoft.NET.Sdk\" />").unwrap();
    let double = Double::new(dir.path());
    let host = HostUnderTest::builder(built_library("dotnet_package").unwrap())
        .settings("dotnet_package", double.config())
        .capabilities(json!({ "roots": {} }))
        .answer("roots/list", json!({ "roots": [{ "uri": format!("file://{}", app.display()) }] }))
        .start()
        .await
        .unwrap();

    let tools = host.list_tools().await.unwrap();
    let tool = tools.iter().find(|tool| tool["name"] == "dotnet_package").expect("dotnet_package is listed");
    assert_eq!(tool["inputSchema"]["required"], json!(["action"]));
    assert_eq!(tool["inputSchema"]["properties"]["action"]["enum"].as_array().unwrap().len(), 10);
    assert!(tool["outputSchema"]["anyOf"].is_array());
    assert_eq!(
        tool["annotations"],
        json!({ "readOnlyHint": false, "destructiveHint": true, "idempotentHint": false, "openWorldHint": true })
    );

    let project = app.join("App.csproj").display().to_string();
    let listed = host
        .call_tool("dotnet_package", json!({ "action": "List", "vulnerable": true, "includeTransitive": true }))
        .await
        .unwrap();
    assert!(!listed.is_error, "{}", listed.joined_text());
    let structured = listed.structured_content.clone().unwrap();
    assert_eq!(
        structured["projects"][0]["frameworks"][0]["topLevelPackages"][0]["vulnerabilities"][0]["severity"],
        "High"
    );
    assert_eq!(double.argvs()[0][1], project, "the project came from the roots");

    let found = host.call_tool("dotnet_package", json!({ "action": "Search", "searchTerm": "json" })).await.unwrap();
    assert!(!found.is_error, "{}", found.joined_text());
    assert_eq!(found.structured_content.unwrap()["packages"][0]["id"], "Newtonsoft.Json");

    let added = host.call_tool("dotnet_package", json!({ "action": "Add", "packageId": "Serilog" })).await.unwrap();
    assert!(!added.is_error, "{}", added.joined_text());
    assert_eq!(added.structured_content.unwrap()["lockInfo"]["lockScope"], "project");

    let missing =
        host.call_tool("dotnet_package", json!({ "action": "Add", "packageId": "Contoso.Missing" })).await.unwrap();
    assert!(missing.is_error);
    assert_eq!(missing.structured_content.unwrap()["errors"][0]["code"], "NU1101");

    let refused = host.call_tool("dotnet_package", json!({ "action": "List", "bogus": 1 })).await.unwrap();
    assert!(refused.is_error, "the host checks the input schema: {}", refused.joined_text());
    assert_eq!(double.argvs().len(), 4, "the refused call ran nothing");

    host.shutdown().await.unwrap();
}
