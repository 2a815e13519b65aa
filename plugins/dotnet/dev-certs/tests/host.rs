//! The built `dotnet_dev_certs` library loaded into the real host binary and called over MCP:
//! the tool is listed with its schemas and annotations, structured results pass the host's
//! outputSchema check, secret values never reach the client, and a declined confirmation
//! refuses the clean.

use dotnet_support::testkit::Double;
use mcp_plugin_api::testkit::host::{HostUnderTest, built_library};
use serde_json::json;

#[tokio::test]
async fn the_real_host_serves_dotnet_dev_certs() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("App.csproj"), "<Project Sdk=\"Microsoft.NET.Sdk.Web\" />").unwrap();
    let double = Double::new(dir.path()).scenario("secrets");
    let host = HostUnderTest::builder(built_library("dotnet_dev_certs").unwrap())
        .settings("dotnet_dev_certs", double.config())
        .capabilities(json!({ "elicitation": {} }))
        .answer("elicitation/create", json!({ "action": "decline" }))
        .start()
        .await
        .unwrap();
    let cwd = dir.path().display().to_string();

    let tools = host.list_tools().await.unwrap();
    let tool = tools.iter().find(|tool| tool["name"] == "dotnet_dev_certs").expect("dotnet_dev_certs is listed");
    assert_eq!(tool["inputSchema"]["properties"]["action"]["enum"].as_array().unwrap().len(), 9);
    assert!(tool["outputSchema"]["anyOf"].is_array());
    assert_eq!(tool["annotations"]["destructiveHint"], true);
    assert_eq!(tool["annotations"]["openWorldHint"], false);

    let result =
        host.call_tool("dotnet_dev_certs", json!({ "action": "SecretsList", "workingDirectory": cwd })).await.unwrap();
    assert!(!result.is_error, "{}", result.joined_text());
    let structured = result.structured_content.clone().unwrap();
    assert_eq!(structured["count"], 6);
    let seen = serde_json::to_string(&result).unwrap();
    for secret in ["hunter2", "Sup3r-Secret-Dbl-Pw!", "sk_live_51DoubleDoubleDoubleDoubleDoubleDouble00"] {
        assert!(!seen.contains(secret), "{secret} leaked: {seen}");
    }

    let value = "Host-Secret-Value-58";
    let result = host
        .call_tool(
            "dotnet_dev_certs",
            json!({ "action": "SecretsSet", "key": "Api:Key", "value": value, "workingDirectory": cwd }),
        )
        .await
        .unwrap();
    assert!(!result.is_error, "{}", result.joined_text());
    assert!(!serde_json::to_string(&result).unwrap().contains(value));
    assert_eq!(double.argvs()[1], ["user-secrets", "set", "Api:Key", value]);

    let result = host.call_tool("dotnet_dev_certs", json!({ "action": "CertificateClean" })).await.unwrap();
    assert!(result.is_error);
    assert_eq!(result.structured_content.unwrap()["errors"][0]["code"], "OPERATION_CANCELLED");
    assert_eq!(double.argvs().len(), 2, "the declined clean ran nothing");

    host.shutdown().await.unwrap();
}
