//! The built `dotnet_project` library loaded into the real host binary and called over MCP: the
//! tool is listed with its schemas and annotations, and a build, a foreground run and a
//! background session (started, read until its app exits, stopped) answer through the host, each
//! answer passing the output schema as a client reads it from the tool list.

mod common;

use std::time::{Duration, Instant};

use common::fixture_with;
use dotnet_support::testkit::is_dead;
use mcp_plugin_api::{
    ToolResult,
    check::ToolSchemas,
    testkit::host::{HostUnderTest, built_library},
};
use serde_json::{Value, json};

/// The structured content of a call that succeeded and passes the tool's output schema.
fn checked(schemas: &ToolSchemas, what: &str, result: ToolResult) -> Value {
    assert!(!result.is_error, "{what}: {}", result.joined_text());
    let structured = result.structured_content.expect("a success carries structured content");
    schemas.check_output(Some(&structured)).unwrap_or_else(|error| panic!("{what}: {error}\n{structured}"));
    structured
}

#[tokio::test]
async fn the_real_host_serves_dotnet_project() {
    // The scratch folder with App/App.csproj and the double's settings the in-process tests use.
    let mut config = Value::Null;
    let fixture = fixture_with(|double| {
        config = double.config();
        double
    });
    // The background session's app runs while this file exists (the double holds it), so the
    // start answers "running" however loaded the machine is, and ends when the test removes it.
    let hold = fixture.path().join("hold-the-app");
    config["Environment"]["DOTNET_DOUBLE_HOLD"] = json!(hold.display().to_string());
    let host = HostUnderTest::builder(built_library("dotnet_project").unwrap())
        .settings("dotnet_project", config)
        .start()
        .await
        .unwrap();

    let tools = host.list_tools().await.unwrap();
    let tool = tools.iter().find(|tool| tool["name"] == "dotnet_project").expect("dotnet_project is listed");
    assert_eq!(tool["inputSchema"]["required"], json!(["action"]));
    for action in ["Build", "Run", "Watch", "Logs", "Stop", "ListSessions"] {
        assert!(tool["inputSchema"]["properties"]["action"]["enum"].as_array().unwrap().contains(&json!(action)));
    }
    assert_eq!(tool["annotations"]["destructiveHint"], true);
    assert_eq!(tool["annotations"]["openWorldHint"], true);
    let schemas = ToolSchemas::compile(&tool["inputSchema"], Some(&tool["outputSchema"])).unwrap();
    let call = |args: Value| host.call_tool("dotnet_project", args);

    let built =
        checked(&schemas, "Build", call(json!({ "action": "Build", "project": "App/App.csproj" })).await.unwrap());
    assert_eq!((built["action"].as_str(), built["exitCode"].as_i64()), (Some("Build"), Some(0)));
    assert!(built["command"].as_str().unwrap().starts_with("dotnet build"), "{built}");

    // Run reports its command itself (it is not declared to run dotnet): the foreground run's...
    let ran = checked(&schemas, "Run", call(json!({ "action": "Run", "project": "App/App.csproj" })).await.unwrap());
    assert_eq!(ran["exitCode"], 0);
    assert!(ran["command"].as_str().unwrap().starts_with("dotnet run --project App/App.csproj"), "{ran}");
    assert!(ran["output"].is_string(), "the app's output: {ran}");

    // ...and the background session's, whose process the session's calls follow until it ends.
    std::fs::write(&hold, "").unwrap();
    let background = json!({ "action": "Run", "project": "App/App.csproj", "startMode": "Background" });
    let started = checked(&schemas, "Run in the background", call(background).await.unwrap());
    assert_eq!((started["operation"].as_str(), started["status"].as_str()), (Some("run"), Some("running")));
    assert!(started["command"].as_str().unwrap().starts_with("dotnet run --project App/App.csproj"), "{started}");
    assert!(started.get("exitCode").is_none(), "a running session has no exit code yet: {started}");
    std::fs::remove_file(&hold).unwrap();
    let id = started["sessionId"].clone();
    let deadline = Instant::now() + Duration::from_secs(120);
    let ended = loop {
        let logs = checked(&schemas, "Logs", call(json!({ "action": "Logs", "sessionId": id })).await.unwrap());
        if logs["status"] == "exited" {
            break logs;
        }
        assert!(Instant::now() < deadline, "the session's app did not exit: {logs}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(ended["exitCode"], 0, "{ended}");
    assert!(is_dead(started["pid"].as_u64().unwrap() as u32));
    let listed = checked(&schemas, "ListSessions", call(json!({ "action": "ListSessions" })).await.unwrap());
    assert_eq!(listed["sessions"][0]["sessionId"], id);
    let stopped = checked(&schemas, "Stop", call(json!({ "action": "Stop", "sessionId": id })).await.unwrap());
    assert_eq!((stopped["wasRunning"].as_bool(), stopped["exitCode"].as_i64()), (Some(false), Some(0)));

    let unknown = call(json!({ "action": "Logs", "sessionId": "nope" })).await.unwrap();
    assert!(unknown.is_error, "an unknown session is an error");
    schemas.check_output(unknown.structured_content.as_ref()).unwrap();

    host.shutdown().await.unwrap();
}
