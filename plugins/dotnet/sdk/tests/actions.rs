//! Every action of `dotnet_sdk`, run in process against the dotnet test double: the exact
//! argument vector it ran, the structured content (the test kit checks it against the advertised
//! schemas, as the host does), and the error model (no dotnet, runtime only, invalid and
//! smuggling parameters, lock conflicts), redaction, content negotiation and read-only service.
//!
//! Each test has its own scratch folder, invocation log and settings (the double's variables
//! travel in the plugin's `Environment` setting), so tests share no process state.

use dotnet_sdk::DotnetSdk;
use dotnet_support::{
    locking::LockTarget,
    testkit::{Double, Harness, cancel_after, code, failed, parameter, secret_values},
};
use mcp_plugin_api::{Tool, ToolResult, testkit::TestCall};
use serde_json::{Value, json};

/// The family on the double, in its own scratch folder (its working directory).
type Sdk = Harness<DotnetSdk>;

fn setup() -> Sdk {
    Sdk::new()
}

fn setup_with(configure: impl FnOnce(Double) -> Double) -> Sdk {
    Sdk::with(|_, double| configure(double))
}

/// Calls with the client's content-negotiation tags `features`; the prose is not JSON unless the
/// client asked for it.
fn call_with(s: &Sdk, features: &[&str], args: Value) -> ToolResult {
    let result = s.call_with(&TestCall::new().with_features(features), args);
    if !features.contains(&"format=json") {
        assert!(!result.joined_text().starts_with('{'), "prose for the model, not JSON: {}", result.joined_text());
    }
    result
}

/// Calls with arguments the host would refuse, to see the tool's own check; returns the envelope.
fn refused(s: &Sdk, args: Value) -> Value {
    failed(&s.call_with(&TestCall::new().unchecked(), args)).clone()
}

/// Checks what ran since the last check, in order.
fn assert_ran(s: &Sdk, expected: &[&[&str]]) {
    let expected: Vec<Vec<String>> =
        expected.iter().map(|argv| argv.iter().map(|arg| (*arg).to_owned()).collect()).collect();
    assert_eq!(s.argvs(), expected);
    s.double.clear_log();
}

#[test]
fn version_info_and_listings_run_the_host_commands() {
    let s = setup();
    // The double replays what SDK 10.0.401 printed (recordings/sdk): one SDK, two runtimes.
    let version = s.ok(json!({ "action": "Version" }));
    assert_eq!(
        version,
        json!({
            "action": "Version", "success": true, "version": "10.0.401",
            "command": "dotnet --version", "exitCode": 0
        })
    );
    assert_ran(&s, &[&["--version"]]);

    let info = s.ok(json!({ "action": "Info" }));
    assert_eq!(info["sdkVersion"], "10.0.401");
    assert_eq!(info["workloadVersion"], "10.0.400-manifests.63b36e85");
    assert_eq!(info["rid"], "linux-x64");
    assert_eq!((info["hostVersion"].as_str(), info["hostArchitecture"].as_str()), (Some("10.0.12"), Some("x64")));
    assert_eq!(info["sdks"], json!([{ "version": "10.0.401", "path": "/usr/share/dotnet/sdk" }]));
    assert_eq!(info["runtimes"].as_array().unwrap().len(), 2);
    assert_eq!(info["globalJson"], Value::Null);
    assert_ran(&s, &[&["--info"]]);

    let sdks = s.ok(json!({ "action": "ListSdks" }));
    assert_eq!(sdks["sdks"], json!([{ "version": "10.0.401", "path": "/usr/share/dotnet/sdk" }]));
    assert_eq!(sdks["latest"], "10.0.401");
    assert_ran(&s, &[&["--list-sdks"]]);

    let runtimes = s.ok(json!({ "action": "ListRuntimes" }));
    assert_eq!(
        runtimes["runtimes"][1],
        json!({ "name": "Microsoft.NETCore.App", "version": "10.0.12", "path": "/usr/share/dotnet/shared/Microsoft.NETCore.App" })
    );
    assert_ran(&s, &[&["--list-runtimes"]]);
}

#[test]
fn list_templates_passes_filters_and_cuts_to_max_results() {
    let s = setup();
    let all = s.ok(json!({ "action": "ListTemplates" }));
    assert_eq!(all["totalCount"], 28);
    assert_eq!(all["truncated"], false);
    let console = all["templates"].as_array().unwrap().iter().find(|t| t["shortNames"] == json!(["console"])).unwrap();
    assert_eq!(console["languages"], json!(["C#", "F#", "VB"]));
    assert_eq!(console["defaultLanguage"], "C#");
    assert_eq!(console["type"], "project");
    assert_eq!(console["tags"], json!(["Common", "Console"]));
    assert_ran(&s, &[&["new", "list", "--columns-all"]]);

    let some = s.ok(json!({
        "action": "ListTemplates", "filter": "web", "language": "C#", "type": "project", "tag": "Web",
        "author": "Microsoft", "maxResults": 2, "forceReload": true
    }));
    assert_eq!(some["templates"].as_array().unwrap().len(), 2);
    assert_eq!(some["truncated"], true);
    assert_eq!(some["filter"], "web");
    assert!(some["totalCount"].as_u64().unwrap() > 2);
    assert_ran(
        &s,
        &[&[
            "new",
            "list",
            "web",
            "--language",
            "C#",
            "--type",
            "project",
            "--tag",
            "Web",
            "--author",
            "Microsoft",
            "--columns-all",
            "--debug:rebuild-cache",
        ]],
    );

    let none = s.ok(json!({ "action": "ListTemplates", "filter": "zzz-no-such" }));
    assert_eq!((none["totalCount"].as_u64(), none["templates"].as_array().map(Vec::len)), (Some(0), Some(0)));
    assert_ran(&s, &[&["new", "list", "zzz-no-such", "--columns-all"]]);
}

#[test]
fn search_templates_asks_nuget_org() {
    let s = setup();
    let found =
        s.ok(json!({ "action": "SearchTemplates", "searchTerm": "avalonia", "language": "F#", "maxResults": 1 }));
    assert_eq!(found["searchTerm"], "avalonia");
    assert_eq!(found["totalCount"], 2);
    assert_eq!(found["truncated"], true);
    assert_eq!(found["templates"][0]["package"], "Avalonia.Templates");
    assert_eq!(found["templates"][0]["downloads"], "2M");
    assert_eq!(found["templates"][0]["source"], "NuGet.org");
    assert_ran(&s, &[&["new", "search", "avalonia", "--language", "F#", "--columns-all"]]);

    let none = s.ok(json!({ "action": "SearchTemplates", "searchTerm": "nothing-like-this" }));
    assert_eq!(none["totalCount"], 0);
    assert_ran(&s, &[&["new", "search", "nothing-like-this", "--columns-all"]]);

    // What SDK 10.0.401 answered offline (recordings/sdk): exit 103, "Search failed: Failed to
    // update search cache. (Name or service not known (go.microsoft.com:443)) ...".
    let offline = s.err(json!({ "action": "SearchTemplates", "searchTerm": "nunit" }));
    assert_eq!((code(&offline), offline["exitCode"].as_i64()), ("CAPABILITY_NOT_AVAILABLE", Some(103)));
    let error = &offline["errors"][0];
    assert!(error["message"].as_str().unwrap().contains("Name or service not known (go.microsoft.com:443)"), "{error}");
    assert!(error["hint"].as_str().unwrap().contains("InstallTemplatePack"), "{error}");
    assert!(error["alternatives"].as_array().unwrap().iter().any(|a| a.as_str().unwrap().contains("ListTemplates")));
    assert_eq!(error["data"]["command"], "dotnet new search nunit --columns-all");
    assert_ran(&s, &[&["new", "search", "nunit", "--columns-all"]]);

    let missing = s.err(json!({ "action": "SearchTemplates" }));
    assert_eq!((code(&missing), parameter(&missing)), ("INVALID_PARAMS", "searchTerm"));
    assert_ran(&s, &[]);
}

#[test]
fn template_info_reads_the_template_options() {
    let s = setup();
    let info = s
        .ok(json!({ "action": "TemplateInfo", "templateShortName": "console", "language": "C#", "forceReload": true }));
    assert_eq!(info["shortName"], "console");
    assert_eq!(info["template"]["name"], "Console App");
    assert_eq!(info["template"]["author"], "Microsoft");
    assert_eq!(info["template"]["otherLanguages"], json!(["F#", "VB"]));
    let framework = &info["template"]["options"][0];
    assert_eq!(framework["option"], "--framework");
    assert_eq!(framework["dataType"], "choice");
    assert_eq!(framework["defaultValue"], "net10.0");
    assert_eq!(framework["choices"].as_array().unwrap().len(), 3);
    assert_ran(&s, &[&["new", "console", "--help", "--language", "C#", "--debug:rebuild-cache"]]);

    let unknown = s.call(json!({ "action": "TemplateInfo", "templateShortName": "no-such-template" }));
    assert!(unknown.is_error);
    let envelope = unknown.structured_content.clone().unwrap();
    assert_eq!((code(&envelope), envelope["exitCode"].as_i64()), ("EXIT_103", Some(103)));
    assert!(envelope["errors"][0]["hint"].as_str().unwrap().contains("SearchTemplates"));
    assert!(unknown.joined_text().contains("SearchTemplates"), "{}", unknown.joined_text());
    assert_ran(&s, &[&["new", "no-such-template", "--help"]]);
}

#[test]
fn template_packs_are_listed_installed_and_uninstalled_under_the_global_lock() {
    let s = setup();
    // SDK 10.0.401 with nothing installed (recordings/sdk): "Currently installed items:", "(No Items)".
    let packs = s.ok(json!({ "action": "ListTemplatePacks" }));
    assert_eq!(packs["packs"], json!([]));
    assert_ran(&s, &[&["new", "uninstall"]]);

    let installed = s.ok(json!({
        "action": "InstallTemplatePack", "templatePackage": "MudBlazor.Templates", "templateVersion": "8.2.0",
        "nugetSource": "https://nuget.example.invalid/v3/index.json", "interactive": true, "force": true
    }));
    assert_eq!(installed["package"], "MudBlazor.Templates");
    assert_eq!(installed["version"], "8.2.0");
    assert_eq!(installed["alreadyInstalled"], false);
    assert_eq!(installed["templates"][0]["shortNames"], json!(["mudblazor"]));
    assert_eq!(installed["lockInfo"], json!({ "lockScope": "global", "lockKey": "global" }));
    assert_ran(
        &s,
        &[&[
            "new",
            "install",
            "MudBlazor.Templates@8.2.0",
            "--nuget-source",
            "https://nuget.example.invalid/v3/index.json",
            "--interactive",
            "--force",
        ]],
    );

    let again = s.ok(json!({ "action": "InstallTemplatePack", "templatePackage": "Avalonia.Templates@11.2.3" }));
    assert_eq!((again["alreadyInstalled"].as_bool(), again["version"].as_str()), (Some(true), Some("11.2.3")));
    assert_ran(&s, &[&["new", "install", "Avalonia.Templates@11.2.3"]]);

    let unknown = s.err(json!({ "action": "InstallTemplatePack", "templatePackage": "No.Such.Templates" }));
    assert_eq!(code(&unknown), "EXIT_103");
    assert_eq!(unknown["lockInfo"]["lockKey"], "global");
    assert_ran(&s, &[&["new", "install", "No.Such.Templates"]]);

    let removed = s.ok(json!({ "action": "UninstallTemplatePack", "templatePackage": "Avalonia.Templates" }));
    assert_eq!(
        (removed["package"].as_str(), removed["version"].as_str()),
        (Some("Avalonia.Templates"), Some("11.2.3"))
    );
    assert_eq!(removed["lockInfo"]["lockScope"], "global");
    assert_ran(&s, &[&["new", "uninstall", "Avalonia.Templates"]]);

    let absent = s.err(json!({ "action": "UninstallTemplatePack", "templatePackage": "MudBlazor.Templates" }));
    assert!(absent["errors"][0]["hint"].as_str().unwrap().contains("ListTemplatePacks"));
    assert_ran(&s, &[&["new", "uninstall", "MudBlazor.Templates"]]);
}

#[test]
fn template_packs_are_sent_and_read_as_id_at_version_as_sdk_10_prints_them() {
    // Replayed from recordings/sdk: SDK 10.0.401 installing the scenario's pack from a local feed
    // ("Success: Scenario.Templates@1.0.0 installed the following templates:") and removing it
    // ("Success: Scenario.Templates@1.0.0 was uninstalled.").
    let s = setup();
    let feed = s.path().join("feed").display().to_string();
    let installed = s.ok(json!({
        "action": "InstallTemplatePack", "templatePackage": "Scenario.Templates", "templateVersion": "1.0.0",
        "nugetSource": feed
    }));
    assert_eq!(
        (installed["package"].as_str(), installed["version"].as_str()),
        (Some("Scenario.Templates"), Some("1.0.0"))
    );
    assert_eq!(installed["templates"][0]["shortNames"], json!(["scenario-hello"]));
    assert_ran(&s, &[&["new", "install", "Scenario.Templates@1.0.0", "--nuget-source", &feed]]);

    let removed = s.ok(json!({ "action": "UninstallTemplatePack", "templatePackage": "Scenario.Templates" }));
    assert_eq!((removed["package"].as_str(), removed["version"].as_str()), (Some("Scenario.Templates"), Some("1.0.0")));
    assert_ran(&s, &[&["new", "uninstall", "Scenario.Templates"]]);
}

#[test]
fn template_pack_arguments_are_checked_before_anything_runs() {
    let s = setup();
    std::fs::create_dir(s.path().join("my-templates")).unwrap();
    let local = s.ok(json!({ "action": "InstallTemplatePack", "templatePackage": "./my-templates" }));
    assert_eq!(local["alreadyInstalled"], false);
    assert_ran(&s, &[&["new", "install", "./my-templates"]]);

    for (args, name) in [
        (json!({ "action": "InstallTemplatePack" }), "templatePackage"),
        (json!({ "action": "InstallTemplatePack", "templatePackage": "--add-source=https://evil" }), "templatePackage"),
        (json!({ "action": "InstallTemplatePack", "templatePackage": "Foo Bar" }), "templatePackage"),
        (json!({ "action": "InstallTemplatePack", "templatePackage": "./missing-folder" }), "templatePackage"),
        (
            json!({ "action": "InstallTemplatePack", "templatePackage": "Foo@1.0.0", "templateVersion": "2.0.0" }),
            "templateVersion",
        ),
        (
            json!({ "action": "InstallTemplatePack", "templatePackage": "Foo", "nugetSource": "--interactive" }),
            "nugetSource",
        ),
        (json!({ "action": "UninstallTemplatePack", "templatePackage": "Foo@1.0.0" }), "templatePackage"),
    ] {
        let envelope = s.err(args.clone());
        assert_eq!((code(&envelope), parameter(&envelope)), ("INVALID_PARAMS", name), "{args}");
        assert_eq!(envelope["errors"][0]["mcpErrorCode"], -32602);
    }
    assert_ran(&s, &[]);
}

#[test]
fn a_held_global_lock_refuses_installs_without_running_anything() {
    let s = setup();
    let _held = s.hold(&LockTarget::global(), "dotnet_workload Install");
    for action in ["InstallTemplatePack", "UninstallTemplatePack"] {
        let envelope = s.err(json!({ "action": action, "templatePackage": "MudBlazor.Templates" }));
        assert_eq!(code(&envelope), "CONCURRENCY_CONFLICT");
        assert_eq!(envelope["lockInfo"]["lockContended"], true);
        assert_eq!(envelope["errors"][0]["category"], "Concurrency");
    }
    let envelope = s.err(json!({ "action": "ClearTemplateCache" }));
    assert_eq!(code(&envelope), "CONCURRENCY_CONFLICT");
    assert_ran(&s, &[]);
}

#[test]
fn framework_info_combines_the_table_with_the_installed_sdks() {
    let s = setup();
    let all = s.ok(json!({ "action": "FrameworkInfo" }));
    assert_eq!(all["latestLts"], "net10.0");
    assert_eq!(all["latestRecommended"], "net10.0");
    assert_eq!(all["installedSdks"], json!(["10.0.401"]));
    let net10 = all["frameworks"].as_array().unwrap().iter().find(|f| f["tfm"] == "net10.0").unwrap();
    assert_eq!((net10["isLts"].as_bool(), net10["targetableByInstalledSdk"].as_bool()), (Some(true), Some(true)));
    let net11 = all["frameworks"].as_array().unwrap().iter().find(|f| f["tfm"] == "net11.0").unwrap();
    assert_eq!(net11["targetableByInstalledSdk"], false);
    assert_ran(&s, &[&["--list-sdks"]]);

    let one = s.ok(json!({ "action": "FrameworkInfo", "framework": "net8.0-windows" }));
    assert_eq!(one["frameworks"].as_array().unwrap().len(), 1);
    assert_eq!((one["frameworks"][0]["tfm"].as_str(), one["platform"].as_str()), (Some("net8.0"), Some("windows")));
    assert_eq!(one["frameworks"][0]["endOfSupport"], "2026-11-10");
    assert_ran(&s, &[&["--list-sdks"]]);

    let unknown = s.err(json!({ "action": "FrameworkInfo", "framework": "net12.0" }));
    assert_eq!((code(&unknown), parameter(&unknown)), ("INVALID_PARAMS", "framework"));
    assert!(unknown["errors"][0]["message"].as_str().unwrap().contains("net10.0"));
    let malformed = s.err(json!({ "action": "FrameworkInfo", "framework": "java17" }));
    assert_eq!(parameter(&malformed), "framework");
    assert_ran(&s, &[]);
}

const COMMENTED: &str = "{\n  // Pinned for CI.\n  \"sdk\": { \"version\": \"8.0.100\" },\n  \"msbuild-sdks\": {}\n}\n";

#[test]
fn configure_global_json_edits_in_place_and_keeps_comments() {
    let s = setup();
    let path = s.path().join("global.json");
    std::fs::write(&path, COMMENTED).unwrap();
    // The tool reads policy and runner names without regard to case, and the MTP abbreviation;
    // the host's schema only lets the canonical spellings through.
    let edited = s.call_with(
        &TestCall::new().unchecked(),
        json!({
            "action": "ConfigureGlobalJson", "sdkVersion": "10.0.100", "rollForward": "LATESTFEATURE",
            "testRunner": "MicrosoftTestingPlatform"
        }),
    );
    let edited = edited.structured_content.unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("// Pinned for CI.") && text.contains("\"msbuild-sdks\": {}"), "{text}");
    assert!(
        text.contains("\"version\": \"10.0.100\"") && text.contains("\"rollForward\": \"latestFeature\""),
        "{text}"
    );
    assert!(text.contains("\"runner\": \"Microsoft.Testing.Platform\""), "{text}");
    assert_eq!(edited["content"], text);
    assert_eq!(edited["created"], false);
    assert_eq!(edited["changes"][0], json!({ "setting": "sdk.version", "previous": "8.0.100", "value": "10.0.100" }));
    assert_eq!(edited["lockInfo"]["lockScope"], "workingDirectory");

    let unchanged = s.call(json!({ "action": "ConfigureGlobalJson", "sdkVersion": "10.0.100" }));
    assert!(unchanged.joined_text().contains("nothing was written"), "{}", unchanged.joined_text());

    std::fs::create_dir(s.path().join("sub")).unwrap();
    let created = s.ok(json!({ "action": "ConfigureGlobalJson", "globalJsonPath": "sub", "allowPrerelease": true }));
    assert_eq!(created["created"], true);
    let new_file = s.path().join("sub/global.json");
    assert_eq!(std::fs::read_to_string(new_file).unwrap(), "{\n  \"sdk\": {\n    \"allowPrerelease\": true\n  }\n}\n");

    std::fs::write(s.path().join("sub/global.json"), "{ sdk: 1 }").unwrap();
    let broken = s
        .err(json!({ "action": "ConfigureGlobalJson", "globalJsonPath": "sub/global.json", "sdkVersion": "10.0.100" }));
    assert_eq!(parameter(&broken), "globalJsonPath");
    assert_eq!(std::fs::read_to_string(s.path().join("sub/global.json")).unwrap(), "{ sdk: 1 }");

    for (args, name) in [
        (json!({ "action": "ConfigureGlobalJson" }), "sdkVersion"),
        (json!({ "action": "ConfigureGlobalJson", "sdkVersion": "10" }), "sdkVersion"),
        (json!({ "action": "ConfigureGlobalJson", "rollForward": "sometimes" }), "rollForward"),
        (json!({ "action": "ConfigureGlobalJson", "testRunner": "NUnit" }), "testRunner"),
        (json!({ "action": "ConfigureGlobalJson", "allowPrerelease": "yes" }), "allowPrerelease"),
        (
            json!({ "action": "ConfigureGlobalJson", "sdkVersion": "10.0.100", "globalJsonPath": "x.json" }),
            "globalJsonPath",
        ),
    ] {
        let envelope = refused(&s, args.clone());
        assert_eq!((code(&envelope), parameter(&envelope)), ("INVALID_PARAMS", name), "{args}");
    }
    assert_ran(&s, &[]);
}

#[test]
fn clear_template_cache_rebuilds_the_template_engine_cache() {
    let s = setup();
    let cleared = s.ok(json!({ "action": "ClearTemplateCache" }));
    assert_eq!(cleared["cacheRebuilt"], true);
    // SDK 10.0.401's 47 templates (recordings/sdk).
    assert_eq!(cleared["templateCount"], 47);
    assert_eq!(cleared["lockInfo"]["lockKey"], "global");
    assert_ran(&s, &[&["new", "list", "--columns-all", "--debug:rebuild-cache"]]);
}

#[test]
fn a_missing_dotnet_is_capability_not_available_with_alternatives() {
    let s = setup_with(|double| double.setting("DotnetPath", json!("/nonexistent/dotnet")));
    for action in ["Version", "ListSdks", "ListTemplates"] {
        let envelope = s.err(json!({ "action": action }));
        let error = &envelope["errors"][0];
        assert_eq!(
            (error["code"].as_str(), error["category"].as_str()),
            (Some("CAPABILITY_NOT_AVAILABLE"), Some("Capability"))
        );
        assert_eq!(error["mcpErrorCode"], -32001);
        assert!(error["alternatives"].as_array().unwrap().len() >= 2);
    }
    // The framework table does not need dotnet; it says what it could not learn.
    let frameworks = s.ok(json!({ "action": "FrameworkInfo" }));
    assert_eq!(frameworks["installedSdks"], Value::Null);
    assert_eq!(frameworks["latestLts"], "net10.0");
}

#[test]
fn a_runtime_only_dotnet_is_sdk_not_found_but_still_lists() {
    for style in ["netcore3", "net5", "net6", "net8"] {
        let s = setup_with(|double| double.scenario("runtime-only").env("DOTNET_DOUBLE_HOST_STYLE", style));
        for args in [json!({ "action": "Version" }), json!({ "action": "ListTemplates" })] {
            let envelope = s.err(args.clone());
            let error = &envelope["errors"][0];
            assert_eq!(error["code"], "SDK_NOT_FOUND", "{style} {args}");
            assert_eq!(envelope["exitCode"], -1, "{style}");
            assert!(error["alternatives"][0].as_str().unwrap().contains("Install a .NET SDK"));
        }
        let sdks = s.call(json!({ "action": "ListSdks" }));
        assert!(!sdks.is_error);
        assert_eq!(sdks.structured_content.clone().unwrap()["sdks"], json!([]));
        assert!(sdks.joined_text().contains("No .NET SDK is installed"), "{}", sdks.joined_text());
        let info = s.ok(json!({ "action": "Info" }));
        assert_eq!(info["sdks"], json!([]));
        assert_eq!(info["hostVersion"], "10.0.0");
    }
}

#[test]
fn invalid_actions_and_stray_or_smuggling_parameters_are_refused() {
    let s = setup();
    let envelope = refused(&s, json!({ "action": "CacheMetrics" }));
    assert_eq!((code(&envelope), parameter(&envelope)), ("INVALID_PARAMS", "action"));
    let message = envelope["errors"][0]["message"].as_str().unwrap();
    assert!(message.contains("Version, Info, ListSdks") && message.contains("ClearTemplateCache"), "{message}");

    let missing = refused(&s, json!({}));
    assert_eq!(parameter(&missing), "action");

    for (args, name) in [
        (json!({ "action": "Version", "framework": "net8.0" }), "framework"),
        (json!({ "action": "ListTemplates", "filter": "--output" }), "filter"),
        (json!({ "action": "ListTemplates", "language": "C#\n--force" }), "language"),
        (json!({ "action": "SearchTemplates", "searchTerm": "-h" }), "searchTerm"),
        (json!({ "action": "TemplateInfo", "templateShortName": "console --force" }), "templateShortName"),
        (json!({ "action": "Version", "workingDirectory": "no/such/folder" }), "workingDirectory"),
    ] {
        let envelope = s.err(args.clone());
        assert_eq!((code(&envelope), parameter(&envelope)), ("INVALID_PARAMS", name), "{args}");
        assert_eq!(envelope["exitCode"], -1);
    }
    assert_ran(&s, &[]);

    // Defaults a client filled in for parameters the action does not take ask for nothing.
    s.ok(json!({ "action": "Version", "force": false, "filter": "" }));
    assert_ran(&s, &[&["--version"]]);
}

#[test]
fn secrets_in_the_output_never_reach_the_client() {
    let s = setup_with(|double| double.scenario("secrets"));
    let verbose = ["verbosity=verbose"];
    let results = [
        call_with(&s, &verbose, json!({ "action": "InstallTemplatePack", "templatePackage": "MudBlazor.Templates" })),
        call_with(&s, &verbose, json!({ "action": "InstallTemplatePack", "templatePackage": "No.Such.Templates" })),
        call_with(&s, &verbose, json!({ "action": "SearchTemplates", "searchTerm": "blazor" })),
        call_with(&s, &["format=json"], json!({ "action": "SearchTemplates", "searchTerm": "blazor" })),
    ];
    assert!(results[0].joined_text().contains("[REDACTED]"), "the secrets were printed: {}", results[0].joined_text());
    assert!(results[1].is_error);
    for result in &results {
        let everything = serde_json::to_string(result).unwrap();
        for secret in secret_values() {
            assert!(!everything.contains(secret), "secret {secret:?} leaked: {everything}");
        }
    }
    assert_eq!(results[2].structured_content.as_ref().unwrap()["totalCount"], 1);
}

#[test]
fn content_negotiation_changes_the_text_not_the_data() {
    let s = setup();
    let args = json!({ "action": "ListSdks" });
    let render = |features: &[&str]| call_with(&s, features, args.clone());
    let standard = render(&[]);
    let compact = render(&["verbosity=compact"]);
    let markdown = render(&["format=markdown"]);
    let json_text = render(&["format=json", "verbosity=verbose"]);
    assert_eq!(compact.joined_text(), "1 SDK is installed; the newest is 10.0.401.");
    assert!(standard.joined_text().contains("SDKs:\n  10.0.401 [/usr/share/dotnet/sdk]"), "{}", standard.joined_text());
    assert!(markdown.joined_text().starts_with("**1 SDK") && markdown.joined_text().contains("### SDKs"));
    let data: Value = serde_json::from_str(&json_text.joined_text()).unwrap();
    assert_eq!(Some(&data), standard.structured_content.as_ref());
    for other in [&compact, &markdown, &json_text] {
        assert_eq!(other.structured_content, standard.structured_content);
    }
    let failure =
        s.call_with(&TestCall::new().unchecked().with_features(&["format=markdown"]), json!({ "action": "Nope" }));
    assert!(failure.joined_text().starts_with("**Invalid argument 'action':"), "{}", failure.joined_text());
}

#[test]
fn the_spec_declares_honest_annotations_and_a_required_action_enum() {
    let s = setup();
    let spec = serde_json::to_value(s.tool.spec()).unwrap();
    assert_eq!(spec["name"], "dotnet_sdk");
    assert_eq!(spec["inputSchema"]["required"], json!(["action"]));
    assert_eq!(spec["inputSchema"]["properties"]["action"]["enum"].as_array().unwrap().len(), 13);
    assert_eq!(
        spec["annotations"],
        json!({ "readOnlyHint": false, "destructiveHint": true, "idempotentHint": false, "openWorldHint": true }),
        "InstallTemplatePack takes the latest version, so the tool is not idempotent"
    );
    assert_eq!(spec["outputSchema"]["type"], "object");
    mcp_plugin_api::testkit::assert_descriptor_accepted(&s.tool.spec());
}

#[test]
fn cancellation_and_timeouts_stop_the_command() {
    // `spawn-child` keeps every command (and a child of it) alive for DOTNET_DOUBLE_SLOW_SECS.
    let s = setup_with(|double| double.scenario("spawn-child").env("DOTNET_DOUBLE_SLOW_SECS", "30"));
    let call = TestCall::new();
    let stopper = cancel_after(&call, std::time::Duration::from_millis(300));
    let result = call.run(&s.tool, json!({ "action": "ListTemplates" }));
    stopper.join().unwrap();
    let envelope = result.structured_content.unwrap();
    assert_eq!(
        (code(&envelope), envelope["errors"][0]["category"].as_str()),
        ("OPERATION_CANCELLED", Some("Cancellation"))
    );

    let s = setup_with(|double| {
        double.scenario("spawn-child").env("DOTNET_DOUBLE_SLOW_SECS", "30").setting("TimeoutSeconds", json!(0.5))
    });
    let envelope = s.err(json!({ "action": "Version" }));
    assert_eq!(code(&envelope), "OPERATION_CANCELLED");
    assert!(envelope["errors"][0]["message"].as_str().unwrap().contains("timed out"));
}

#[test]
fn installs_report_progress_from_their_output() {
    let s = setup();
    let call = TestCall::new();
    let result =
        call.run(&s.tool, json!({ "action": "InstallTemplatePack", "templatePackage": "MudBlazor.Templates" }));
    assert!(!result.is_error);
    let messages: Vec<String> = call.progress().into_iter().filter_map(|report| report.message).collect();
    assert_eq!(messages[0], "dotnet new install MudBlazor.Templates");
    assert!(messages.iter().any(|m| m.starts_with("Success: MudBlazor.Templates@8.2.0")), "{messages:?}");
}

#[test]
fn defaults_a_client_fills_in_change_nothing() {
    let s = setup();
    for args in [json!({ "action": "Version" }), json!({ "action": "ListTemplates", "filter": "web" })] {
        s.ok(args.clone());
        let plain = s.argvs();
        s.double.clear_log();
        let filled = dotnet_support::testkit::with_defaults(&s.tool, &args);
        assert_eq!(filled["force"], false, "{filled}");
        s.ok(filled);
        assert_eq!(s.argvs(), plain, "{args}");
        s.double.clear_log();
    }
}

#[test]
fn a_read_only_server_offers_the_nine_reading_actions() {
    let s = setup_with(|double| double.setting("ReadOnly", json!(true)));
    let spec = s.tool.spec();
    let offered = spec.get_input_schema()["properties"]["action"]["enum"].as_array().unwrap().len();
    assert_eq!(offered, 9);
    assert!(spec.get_input_schema()["properties"].get("templatePackage").is_none());
    let annotations = spec.get_annotations();
    assert_eq!(
        (annotations.read_only, annotations.destructive, annotations.idempotent),
        (Some(true), Some(false), Some(true))
    );
    s.ok(json!({ "action": "ListSdks" }));
    let envelope = refused(&s, json!({ "action": "ConfigureGlobalJson", "sdkVersion": "10.0.100" }));
    assert_eq!(code(&envelope), "READ_ONLY");
    assert!(!s.path().join("global.json").exists(), "nothing was written");
}
