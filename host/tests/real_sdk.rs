//! Scenarios against a real .NET SDK, through the real host. They are
//! `#[ignore]`d so that a machine without an SDK reports them as not run
//! rather than passed; `scripts/real-sdk` runs them (`--ignored`) whenever
//! `dotnet --list-sdks` finds an SDK on `PATH`.

mod common;

use common::{Setup, text_of};
use serde_json::json;

const PLUGINS: [&str; 3] = ["dotnet_sdk", "dotnet_project", "dotnet_server_capabilities"];

fn setup(dir: &std::path::Path) -> Setup {
    let mut settings = json!({});
    for plugin in PLUGINS {
        settings[plugin] = json!({ "WorkingDirectory": dir });
    }
    Setup::new(&PLUGINS, &[], json!({ "Host": { "ToolTimeoutSeconds": 900 }, "Plugins": { "Settings": settings } }))
}

fn dotnet(args: &[&str]) -> String {
    let output = std::process::Command::new("dotnet").args(args).output().expect("dotnet is on PATH");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[tokio::test]
#[ignore = "needs a .NET SDK on PATH; run by scripts/real-sdk"]
async fn version_and_listings_match_the_sdk() {
    let dir = tempfile::tempdir().unwrap();
    let client = setup(dir.path()).stdio().await;
    let version = client.call("dotnet_sdk", json!({ "action": "Version" })).await;
    assert_eq!(version["structuredContent"]["version"], dotnet(&["--version"]).trim());
    let sdks = client.call("dotnet_sdk", json!({ "action": "ListSdks" })).await;
    let listed = sdks["structuredContent"]["sdks"].as_array().unwrap().len();
    assert_eq!(listed, dotnet(&["--list-sdks"]).lines().filter(|line| !line.trim().is_empty()).count());
    let runtimes = client.call("dotnet_sdk", json!({ "action": "ListRuntimes" })).await;
    assert!(!runtimes["structuredContent"]["runtimes"].as_array().unwrap().is_empty());
    let capabilities = client.call("dotnet_server_capabilities", json!({})).await;
    assert_eq!(capabilities["structuredContent"]["dotnet"]["sdkInstalled"], true);
}

#[tokio::test]
#[ignore = "needs a .NET SDK on PATH; run by scripts/real-sdk"]
async fn a_new_console_app_builds_and_a_broken_one_reports_its_diagnostics() {
    let dir = tempfile::tempdir().unwrap();
    let client = setup(dir.path()).stdio().await;
    let created = client
        .call("dotnet_project", json!({ "action": "New", "template": "console", "name": "App", "output": "App" }))
        .await;
    assert!(created["isError"].is_null() || created["isError"] == false, "{created}");
    let project = dir.path().join("App/App.csproj");
    let built = client.call("dotnet_project", json!({ "action": "Build", "project": project })).await;
    assert_eq!(built["structuredContent"]["success"], true, "{}", text_of(&built));
    assert_eq!(built["structuredContent"]["errorCount"], 0);

    std::fs::write(dir.path().join("App/Program.cs"), "Console.WriteLine(undefinedName);\n").unwrap();
    let broken = client.call("dotnet_project", json!({ "action": "Build", "project": project })).await;
    assert_eq!(broken["isError"], true);
    let codes: Vec<&str> = broken["structuredContent"]["errors"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["code"].as_str())
        .collect::<Vec<_>>();
    assert!(codes.contains(&"CS0103"), "{broken}");
}
