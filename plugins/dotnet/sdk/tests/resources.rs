//! What `dotnet_sdk` offers beside its tool, in process against the dotnet test double: the four
//! installation resources, the five prompts and the completion of their arguments, and the
//! announcement of `dotnet://templates` after the actions that change the installed templates.

use dotnet_sdk::{DotnetSdk, prompts, resources};
use dotnet_support::{
    resources::{TEMPLATES, block_on},
    settings::DotnetSettings,
    testkit::{Double, Harness},
};
use mcp_plugin_api::{Announcement, BoxedPrompt, BoxedResource, ReadRequest};
use serde_json::{Value, json};

type Sdk = Harness<DotnetSdk>;

fn settings(s: &Sdk) -> DotnetSettings {
    DotnetSettings::from_context(s.plugin.context()).expect("the double's settings are valid")
}

/// Reads `uri` and returns its JSON, after checking the contents' URI and MIME type.
fn read(s: &Sdk, uri: &str) -> Value {
    let resources = resources::all(&settings(s));
    let resource: &BoxedResource = resources
        .iter()
        .find(|resource| serde_json::to_value(resource.spec()).unwrap()["uri"] == uri)
        .unwrap_or_else(|| panic!("no resource at {uri}"));
    let contents = block_on(resource.read(uri.to_owned(), ReadRequest::default())).unwrap().expect("the read succeeds");
    let contents = serde_json::to_value(&contents).unwrap();
    assert_eq!(contents[0]["uri"], uri);
    assert_eq!(contents[0]["mimeType"], "application/json");
    serde_json::from_str(contents[0]["text"].as_str().expect("text contents")).expect("JSON contents")
}

fn prompt(s: &Sdk, name: &str) -> BoxedPrompt {
    prompts::all(&settings(s)).into_iter().find(|prompt| prompt.spec().name() == name).expect("the prompt exists")
}

/// Renders `name` with `arguments` and returns the text of its one user message.
fn render(s: &Sdk, name: &str, arguments: Value) -> Result<String, String> {
    let Value::Object(arguments) = arguments else { panic!("arguments are an object") };
    let rendered = block_on(prompt(s, name).get(arguments)).unwrap().map_err(|error| error.to_string())?;
    let rendered = serde_json::to_value(&rendered).unwrap();
    assert_eq!(rendered["messages"].as_array().unwrap().len(), 1);
    assert_eq!(rendered["messages"][0]["role"], "user");
    Ok(rendered["messages"][0]["content"]["text"].as_str().unwrap().to_owned())
}

#[test]
fn the_four_resources_read_the_installation() {
    let s = Sdk::new();
    let uris: Vec<Value> =
        resources::all(&settings(&s)).iter().map(|r| serde_json::to_value(r.spec()).unwrap()["uri"].clone()).collect();
    assert_eq!(uris, ["dotnet://sdk-info", "dotnet://runtime-info", "dotnet://templates", "dotnet://frameworks"]);

    // The double replays SDK 10.0.401's listings (recordings/sdk): one SDK, two runtimes.
    let sdks = read(&s, "dotnet://sdk-info");
    assert_eq!(sdks["latestSdk"], "10.0.401");
    assert_eq!(sdks["sdks"][0], json!({ "version": "10.0.401", "path": "/usr/share/dotnet/sdk" }));

    let runtimes = read(&s, "dotnet://runtime-info");
    assert_eq!(runtimes["runtimes"].as_array().unwrap().len(), 2);
    assert_eq!(runtimes["runtimes"][0]["name"], "Microsoft.AspNetCore.App");

    let templates = read(&s, "dotnet://templates");
    let console = templates["templates"].as_array().unwrap().iter().find(|t| t["name"] == "Console App").unwrap();
    assert_eq!(console["shortNames"], json!(["console"]));

    let frameworks = read(&s, "dotnet://frameworks");
    assert_eq!(frameworks["installedSdks"], json!(["10.0.401"]));
    assert_eq!(frameworks["latestLts"], "net10.0");
    let modern: Vec<&str> =
        frameworks["modernFrameworks"].as_array().unwrap().iter().map(|f| f["tfm"].as_str().unwrap()).collect();
    assert!(modern.contains(&"net8.0") && !modern.contains(&"netstandard2.0"), "{modern:?}");
    assert_eq!(frameworks["netStandardFrameworks"][0]["family"], "netStandard");
}

#[test]
fn a_resource_read_fails_with_the_contracts_message_when_dotnet_is_missing() {
    let s = Sdk::with(|_, double| double.setting("DotnetPath", json!("/no/such/dotnet")));
    let resources = resources::all(&settings(&s));
    let error = block_on(resources[0].read("dotnet://sdk-info".into(), ReadRequest::default())).unwrap().unwrap_err();
    assert!(error.to_string().contains("CAPABILITY_NOT_AVAILABLE"), "{error}");
    // The framework table needs no dotnet: installed SDKs are unknown, not an error.
    let frameworks = block_on(resources[3].read("dotnet://frameworks".into(), ReadRequest::default())).unwrap();
    let text = serde_json::to_value(frameworks.unwrap()).unwrap()[0]["text"].as_str().unwrap().to_owned();
    assert_eq!(serde_json::from_str::<Value>(&text).unwrap()["installedSdks"], Value::Null);
}

#[test]
fn template_changes_announce_the_templates_resource() {
    let s = Sdk::new();
    s.ok(json!({ "action": "InstallTemplatePack", "templatePackage": "MudBlazor.Templates" }));
    assert_eq!(s.plugin.announcements(), [Announcement::ResourceUpdated(TEMPLATES.into())]);
    s.plugin.clear_announcements();

    s.ok(json!({ "action": "UninstallTemplatePack", "templatePackage": "Avalonia.Templates" }));
    s.ok(json!({ "action": "ClearTemplateCache" }));
    assert_eq!(s.plugin.announcements().len(), 2);
    s.plugin.clear_announcements();

    // A failure and a reading action change nothing, and announce nothing.
    s.err(json!({ "action": "InstallTemplatePack", "templatePackage": "No.Such.Templates" }));
    s.ok(json!({ "action": "ListTemplates" }));
    assert_eq!(s.plugin.announcements(), []);
}

#[test]
fn the_five_prompts_name_real_tool_calls() {
    let s = Sdk::new();
    let names: Vec<String> = prompts::all(&settings(&s)).iter().map(|p| p.spec().name().to_owned()).collect();
    assert_eq!(
        names,
        [
            "new_console_app",
            "create_new_webapi",
            "new_webapi_with_ef",
            "add_package_and_restore",
            "run_tests_with_coverage"
        ]
    );

    let console = render(&s, "new_console_app", json!({ "projectName": "Hello", "runtime": "linux-x64" })).unwrap();
    assert!(
        console.contains(
            r#"`dotnet_project` with `{"action":"New","name":"Hello","output":"Hello","template":"console"}`"#
        ),
        "{console}"
    );
    assert!(console.contains(r#""action":"Publish""#) && console.contains(r#""runtime":"linux-x64""#), "{console}");

    let webapi = render(&s, "create_new_webapi", json!({ "projectName": "Api", "framework": "net8.0" })).unwrap();
    assert!(webapi.contains(r#""framework":"net8.0""#) && webapi.contains(r#""startMode":"Background""#), "{webapi}");

    let ef = render(&s, "new_webapi_with_ef", json!({ "projectName": "Shop", "dbProvider": "sqlite" })).unwrap();
    assert!(ef.contains("Microsoft.EntityFrameworkCore.Sqlite") && ef.contains(r#""action":"MigrationsAdd""#), "{ef}");
    assert!(ef.contains(r#"`dotnet_tool` with `{"action":"Install","global":true,"packageId":"dotnet-ef"}`"#), "{ef}");
    let in_memory =
        render(&s, "new_webapi_with_ef", json!({ "projectName": "Shop", "dbProvider": "InMemory" })).unwrap();
    assert!(!in_memory.contains("DatabaseUpdate"), "an in-memory database is not updated: {in_memory}");

    let package = render(&s, "add_package_and_restore", json!({ "packageId": "Serilog", "version": "4.3.0" })).unwrap();
    assert!(package.contains(r#"{"action":"Add","packageId":"Serilog","version":"4.3.0"}"#), "{package}");
    assert!(package.contains(r#"{"action":"Restore"}"#), "{package}");

    let tests = render(&s, "run_tests_with_coverage", json!({ "configuration": "Release", "filter": "Category=Unit" }))
        .unwrap();
    assert!(
        tests.contains(r#""collect":"XPlat Code Coverage""#) && tests.contains(r#""configuration":"Release""#),
        "{tests}"
    );
}

#[test]
fn prompt_arguments_are_checked_before_they_reach_a_message() {
    let s = Sdk::new();
    let smuggled = render(&s, "new_console_app", json!({ "projectName": "x --force" })).unwrap_err();
    assert!(smuggled.contains("projectName"), "{smuggled}");
    let provider =
        render(&s, "new_webapi_with_ef", json!({ "projectName": "Shop", "dbProvider": "Oracle" })).unwrap_err();
    assert!(provider.contains("dbProvider") && provider.contains("SQLite"), "{provider}");
    let not_text = render(&s, "add_package_and_restore", json!({ "packageId": 42 })).unwrap_err();
    assert!(not_text.contains("packageId"), "{not_text}");
}

#[test]
fn completions_are_keyed_by_prompt_and_argument() {
    let s = Sdk::new();
    let complete = |name: &str, argument: &str, value: &str| prompt(&s, name).complete(argument, value);

    assert_eq!(complete("create_new_webapi", "template", "webapi"), ["webapi", "webapiaot"]);
    assert!(complete("create_new_webapi", "template", "").contains(&"avalonia.app".to_owned()));
    // Frameworks the installed SDKs (8 and 10) build, newest first; net11.0 needs SDK 11.
    assert_eq!(complete("new_console_app", "framework", "NET1"), ["net10.0"]);
    assert_eq!(complete("run_tests_with_coverage", "framework", "net")[..3], ["net10.0", "net9.0", "net8.0"]);
    assert_eq!(complete("run_tests_with_coverage", "configuration", "r"), ["Release"]);
    assert_eq!(complete("new_console_app", "runtime", "linux-musl"), ["linux-musl-arm64", "linux-musl-x64"]);
    assert_eq!(complete("new_webapi_with_ef", "dbProvider", "s"), ["SqlServer", "SQLite"]);
    assert!(complete("new_console_app", "runtime", "").len() == 10);
    // An argument the prompt does not have, or one with no known values, gets nothing.
    assert!(complete("add_package_and_restore", "template", "").is_empty());
    assert!(complete("new_console_app", "projectName", "").is_empty());
}

#[test]
fn completions_without_dotnet_fall_back_to_the_framework_table() {
    let s = Sdk::with(|_, double: Double| double.setting("DotnetPath", json!("/no/such/dotnet")));
    let complete = |name: &str, argument: &str| prompt(&s, name).complete(argument, "");
    assert!(complete("create_new_webapi", "template").is_empty());
    assert!(complete("new_console_app", "framework").contains(&"net10.0".to_owned()));
}
