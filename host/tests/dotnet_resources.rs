//! The dotnet plugins' resources, prompts and completions through the real host binary, against
//! the dotnet test double: every resource listed and read, every prompt got, every completable
//! argument completed, `dotnet://workspace` built from the client's roots, and subscriptions
//! that fire: `notifications/resources/updated` after a template pack install, to the sessions
//! that subscribed (with `resources/subscribe`, or on a 2026-07-28 `subscriptions/listen` stream).

mod common;

use std::path::{Path, PathBuf};

use common::{Client, DOTNET_PLUGINS, Setup};
use serde_json::{Value, json};

const UPDATED: &str = "notifications/resources/updated";

/// A host with every dotnet plugin on the double, working in `project`.
fn setup(project: &Path) -> Setup {
    let mut settings = json!({});
    for plugin in DOTNET_PLUGINS {
        settings[plugin] = json!({ "WorkingDirectory": project });
    }
    let double: PathBuf = common::workspace_plugins().join("dotnet-double");
    Setup::new(&DOTNET_PLUGINS, &[], json!({ "Plugins": { "Settings": settings, "Config": { "DotnetPath": double } } }))
}

/// A folder with a solution of one project.
fn workspace(name: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join(format!("src/{name}/{name}.csproj"));
    std::fs::create_dir_all(project.parent().unwrap()).unwrap();
    std::fs::write(
        &project,
        "<Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup><TargetFramework>net10.0</TargetFramework></PropertyGroup>\
         <ItemGroup><PackageReference Include=\"Serilog\" Version=\"4.3.0\" /></ItemGroup></Project>",
    )
    .unwrap();
    std::fs::write(
        dir.path().join(format!("{name}.slnx")),
        format!("<Solution><Project Path=\"src/{name}/{name}.csproj\" /></Solution>"),
    )
    .unwrap();
    dir
}

/// The JSON a resource read returned.
async fn read(client: &Client, uri: &str) -> Value {
    let answer = client.request("resources/read", json!({ "uri": uri })).await;
    let contents = &answer["result"]["contents"][0];
    assert_eq!(contents["uri"], uri, "{answer}");
    assert_eq!(contents["mimeType"], "application/json");
    serde_json::from_str(contents["text"].as_str().unwrap()).unwrap()
}

async fn complete(client: &Client, prompt: &str, argument: &str, value: &str) -> Vec<String> {
    let answer = client
        .request(
            "completion/complete",
            json!({ "ref": { "type": "ref/prompt", "name": prompt }, "argument": { "name": argument, "value": value } }),
        )
        .await;
    serde_json::from_value(answer["result"]["completion"]["values"].clone()).unwrap_or_else(|_| panic!("{answer}"))
}

/// The tool calls a prompt's message names, written as `` `TOOL` with `ARGUMENTS` ``.
fn named_calls(text: &str) -> Vec<(String, Value)> {
    text.split("`dotnet_")
        .skip(1)
        .filter_map(|rest| {
            let (tool, rest) = rest.split_once("` with `")?;
            let (arguments, _) = rest.split_once('`')?;
            Some((format!("dotnet_{tool}"), serde_json::from_str(arguments).ok()?))
        })
        .collect()
}

/// Fails unless `tool` is served, `call`'s action is one of its actions and every argument one
/// of its parameters (so a prompt cannot name a call the server would refuse by its names).
fn assert_call_fits(tools: &Value, tool: &str, call: &Value) {
    let served = tools.as_array().unwrap().iter().find(|t| t["name"] == tool);
    let schema = &served.unwrap_or_else(|| panic!("a prompt names {tool}, which is not served"))["inputSchema"];
    let actions = schema["properties"]["action"]["enum"].as_array().unwrap();
    assert!(actions.contains(&call["action"]), "{tool} has no action {}", call["action"]);
    for key in call.as_object().unwrap().keys() {
        assert!(schema["properties"].get(key).is_some(), "{tool} has no parameter {key} (in {call})");
    }
}

#[tokio::test]
async fn every_resource_is_read_every_prompt_got_and_every_argument_completed() {
    let dir = workspace("Shop");
    let setup = setup(dir.path());
    let client = setup.stdio().await;

    let listed = client.request("resources/list", json!({})).await;
    let mut uris: Vec<&str> =
        listed["result"]["resources"].as_array().unwrap().iter().map(|r| r["uri"].as_str().unwrap()).collect();
    uris.sort();
    assert_eq!(
        uris,
        [
            "dotnet://frameworks",
            "dotnet://runtime-info",
            "dotnet://sdk-info",
            "dotnet://templates",
            "dotnet://workspace"
        ]
    );
    // The double replays SDK 10.0.401's listings (plugins/dotnet/test-double/recordings/sdk).
    assert_eq!(read(&client, "dotnet://sdk-info").await["latestSdk"], "10.0.401");
    assert_eq!(read(&client, "dotnet://runtime-info").await["runtimes"].as_array().unwrap().len(), 2);
    assert!(read(&client, "dotnet://templates").await["templates"].as_array().unwrap().len() > 20);
    assert_eq!(read(&client, "dotnet://frameworks").await["latestLts"], "net10.0");
    // No roots declared: the configured working directory.
    let workspace = read(&client, "dotnet://workspace").await;
    assert_eq!(workspace["folders"][0]["source"], "workingDirectory", "{workspace}");
    assert_eq!(workspace["projects"][0]["name"], "Shop");
    assert_eq!(workspace["projects"][0]["packageCount"], 1);

    let prompts = client.request("prompts/list", json!({})).await;
    let prompts = prompts["result"]["prompts"].as_array().unwrap();
    assert_eq!(prompts.len(), 5);
    let arguments = [
        ("new_console_app", json!({ "projectName": "Hello", "framework": "net10.0", "runtime": "linux-x64" })),
        ("create_new_webapi", json!({ "projectName": "Api", "outputDirectory": "web/Api" })),
        ("new_webapi_with_ef", json!({ "projectName": "Shop", "dbProvider": "PostgreSQL" })),
        (
            "add_package_and_restore",
            json!({ "packageId": "Serilog", "projectPath": "src/Shop/Shop.csproj", "version": "4.3.0", "framework": "net10.0" }),
        ),
        (
            "run_tests_with_coverage",
            json!({ "projectPath": "Shop.slnx", "filter": "A", "configuration": "Release", "framework": "net10.0" }),
        ),
    ];
    let tools = client.request("tools/list", json!({})).await["result"]["tools"].clone();
    for (name, arguments) in arguments {
        let got = client.request("prompts/get", json!({ "name": name, "arguments": arguments })).await;
        let text = got["result"]["messages"][0]["content"]["text"].as_str().unwrap_or_else(|| panic!("{got}"));
        let calls = named_calls(text);
        assert!(!calls.is_empty(), "{name} names tool calls: {text}");
        for (tool, call) in calls {
            assert_call_fits(&tools, &tool, &call);
        }
    }
    let missing = client.request("prompts/get", json!({ "name": "new_console_app", "arguments": {} })).await;
    assert!(missing["error"]["message"].as_str().unwrap().contains("projectName"), "{missing}");

    assert_eq!(complete(&client, "create_new_webapi", "template", "blazorw").await, ["blazorwasm"]);
    assert_eq!(complete(&client, "new_console_app", "framework", "net1").await, ["net10.0"]);
    assert_eq!(complete(&client, "run_tests_with_coverage", "configuration", "D").await, ["Debug"]);
    assert_eq!(complete(&client, "new_console_app", "runtime", "osx").await, ["osx-arm64", "osx-x64"]);
    assert_eq!(complete(&client, "new_webapi_with_ef", "dbProvider", "in").await, ["InMemory"]);
}

#[tokio::test]
async fn the_workspace_is_built_from_the_clients_roots() {
    let configured = workspace("Configured");
    let rooted = workspace("Rooted");
    let setup = setup(configured.path());
    let client = Client::spawn(&setup.config(), &[]);
    let root = format!("file://{}", rooted.path().display());
    client.answers.lock().unwrap().insert("roots/list".into(), json!({ "roots": [{ "uri": root, "name": "rooted" }] }));
    let init = client
        .request(
            "initialize",
            json!({ "protocolVersion": "2025-06-18", "capabilities": { "roots": {} },
                    "clientInfo": { "name": "e2e", "version": "1" } }),
        )
        .await;
    assert!(init.get("result").is_some(), "{init}");
    client.notify("notifications/initialized", json!({})).await;

    let workspace = read(&client, "dotnet://workspace").await;
    assert_eq!(workspace["folders"], json!([{ "path": rooted.path().display().to_string(), "source": "roots" }]));
    assert_eq!(workspace["projects"][0]["name"], "Rooted");
    assert_eq!(workspace["solutions"][0]["projectCount"], 1);
}

#[tokio::test]
async fn a_subscription_hears_of_a_template_pack_install_and_only_of_what_it_subscribed_to() {
    let dir = workspace("Shop");
    let setup = setup(dir.path());
    let client = setup.stdio().await;
    let initialized = client.request("resources/list", json!({})).await;
    assert!(initialized.get("result").is_some());
    let unknown = client.request("resources/subscribe", json!({ "uri": "dotnet://nothing" })).await;
    assert!(unknown.get("error").is_some(), "{unknown}");

    let subscribed = client.request("resources/subscribe", json!({ "uri": "dotnet://templates" })).await;
    assert!(subscribed.get("result").is_some(), "{subscribed}");
    let installed = client
        .call("dotnet_sdk", json!({ "action": "InstallTemplatePack", "templatePackage": "MudBlazor.Templates" }))
        .await;
    assert_eq!(installed["structuredContent"]["success"], true, "{installed}");
    client.expect_notifications(UPDATED, 1).await;
    let update = client.notifications().into_iter().find(|n| n["method"] == UPDATED).unwrap();
    assert_eq!(update["params"]["uri"], "dotnet://templates");

    // Unsubscribed from the templates and subscribed to the workspace: the next install is not
    // announced to this session, and the solution edit after it is. The session's updates arrive
    // in order, so once the workspace's is there, a templates one would have come before it.
    client.request("resources/unsubscribe", json!({ "uri": "dotnet://templates" })).await;
    client.request("resources/subscribe", json!({ "uri": "dotnet://workspace" })).await;
    client
        .call("dotnet_sdk", json!({ "action": "InstallTemplatePack", "templatePackage": "MudBlazor.Templates" }))
        .await;
    let added = client
        .call(
            "dotnet_solution",
            json!({ "action": "Add", "solution": "Shop.slnx", "projects": ["src/Shop/Shop.csproj"] }),
        )
        .await;
    assert_eq!(added["structuredContent"]["success"], true, "{added}");
    client.expect_notifications(UPDATED, 2).await;
    let uris: Vec<Value> = client
        .notifications()
        .into_iter()
        .filter(|n| n["method"] == UPDATED)
        .map(|n| n["params"]["uri"].clone())
        .collect();
    assert_eq!(uris, [json!("dotnet://templates"), json!("dotnet://workspace")]);
}

#[tokio::test]
async fn a_listen_stream_of_protocol_2026_07_28_hears_of_the_resources_it_names() {
    let dir = workspace("Shop");
    let setup = setup(dir.path());
    let client = Client::spawn(&setup.config(), &[]);
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { "name": "e2e", "version": "1" },
        "io.modelcontextprotocol/clientCapabilities": {}
    });
    let (id, _stream) = client
        .start(
            "subscriptions/listen",
            json!({ "_meta": meta, "notifications": { "resourceSubscriptions": ["dotnet://templates"] } }),
        )
        .await;
    client.expect_notifications("notifications/subscriptions/acknowledged", 1).await;
    let call = json!({ "_meta": meta, "name": "dotnet_sdk",
                       "arguments": { "action": "UninstallTemplatePack", "templatePackage": "Avalonia.Templates" } });
    let answer = client.request("tools/call", call).await;
    assert_eq!(answer["result"]["structuredContent"]["success"], true, "{answer}");
    client.expect_notifications(UPDATED, 1).await;
    let update = client.notifications().into_iter().find(|n| n["method"] == UPDATED).unwrap();
    assert_eq!(update["params"]["uri"], "dotnet://templates");
    assert_eq!(update["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], id);
}
