//! Every answer of `dotnet_sdk` held against its derived output schema, as the host and the
//! official clients check structured content: each action's successes on the test double (which
//! replays SDK 10.0.401's answers from recordings/sdk where one matches), and its failure modes:
//! the command failing, a search that cannot reach NuGet.org, a runtime-only dotnet, no dotnet,
//! refused arguments and the machine-wide lock held elsewhere.

use dotnet_sdk::{Action, DotnetSdk};
use dotnet_support::{
    kit::ActionEnum,
    locking::LockTarget,
    testkit::{Answers, Harness, code},
};
use serde_json::{Value, json};

type Sdk = Harness<DotnetSdk>;

/// One call of each action that succeeds on the double, with the action's name; every kind of
/// success an action has (a filter, a truncated listing, one framework, a created global.json).
fn successes() -> Vec<(&'static str, Value)> {
    vec![
        ("Version", json!({ "action": "Version" })),
        ("Info", json!({ "action": "Info" })),
        ("ListSdks", json!({ "action": "ListSdks" })),
        ("ListRuntimes", json!({ "action": "ListRuntimes" })),
        ("ListTemplates", json!({ "action": "ListTemplates" })),
        ("ListTemplates", json!({ "action": "ListTemplates", "filter": "console", "maxResults": 1 })),
        ("SearchTemplates", json!({ "action": "SearchTemplates", "searchTerm": "avalonia", "maxResults": 1 })),
        ("TemplateInfo", json!({ "action": "TemplateInfo", "templateShortName": "console", "language": "C#" })),
        ("ListTemplatePacks", json!({ "action": "ListTemplatePacks" })),
        ("InstallTemplatePack", json!({ "action": "InstallTemplatePack", "templatePackage": "MudBlazor.Templates" })),
        (
            "InstallTemplatePack",
            json!({ "action": "InstallTemplatePack", "templatePackage": "Avalonia.Templates@11.2.3" }),
        ),
        (
            "UninstallTemplatePack",
            json!({ "action": "UninstallTemplatePack", "templatePackage": "Avalonia.Templates" }),
        ),
        ("FrameworkInfo", json!({ "action": "FrameworkInfo" })),
        ("FrameworkInfo", json!({ "action": "FrameworkInfo", "framework": "net8.0-windows" })),
        (
            "ConfigureGlobalJson",
            json!({ "action": "ConfigureGlobalJson", "sdkVersion": "10.0.100", "allowPrerelease": true }),
        ),
        ("ClearTemplateCache", json!({ "action": "ClearTemplateCache" })),
    ]
}

#[test]
fn every_action_answers_within_its_derived_schema() {
    let s = Sdk::new();
    let mut answers = Answers::new(&s.tool);
    for (action, args) in successes() {
        let structured = answers.hold(action, s.call(args));
        if !matches!(action, "FrameworkInfo" | "ConfigureGlobalJson") {
            assert!(structured["command"].as_str().unwrap_or_default().starts_with("dotnet "), "{structured}");
            assert!(structured["exitCode"].is_i64(), "{structured}");
        }
    }
    // The command fails, with the lock it held.
    let unknown = s.call(json!({ "action": "InstallTemplatePack", "templatePackage": "No.Such.Templates" }));
    assert_eq!(answers.hold("InstallTemplatePack", unknown)["lockInfo"]["lockKey"], "global");
    let absent = s.call(json!({ "action": "UninstallTemplatePack", "templatePackage": "MudBlazor.Templates" }));
    assert_eq!(code(&answers.hold("UninstallTemplatePack", absent)), "EXIT_103");
    let no_template = s.call(json!({ "action": "TemplateInfo", "templateShortName": "no-such-template" }));
    assert_eq!(code(&answers.hold("TemplateInfo", no_template)), "EXIT_103");
    // NuGet.org's template index out of reach (SDK 10.0.401 offline).
    let offline = s.call(json!({ "action": "SearchTemplates", "searchTerm": "nunit" }));
    assert_eq!(code(&answers.hold("SearchTemplates", offline)), "CAPABILITY_NOT_AVAILABLE");
    // Refused arguments.
    let refused = [
        ("FrameworkInfo", json!({ "action": "FrameworkInfo", "framework": "net12.0" })),
        ("ConfigureGlobalJson", json!({ "action": "ConfigureGlobalJson" })),
        ("ConfigureGlobalJson", json!({ "action": "ConfigureGlobalJson", "sdkVersion": "10" })),
        ("UninstallTemplatePack", json!({ "action": "UninstallTemplatePack", "templatePackage": "Foo@1.0.0" })),
    ];
    for (action, args) in refused {
        assert_eq!(code(&answers.hold(action, s.call(args))), "INVALID_PARAMS");
    }
    for (action, mut args) in successes() {
        args["nugetSource"] = json!("x");
        if action == "InstallTemplatePack" {
            args["framework"] = json!("net10.0");
        }
        assert_eq!(code(&answers.hold(action, s.call(args))), "INVALID_PARAMS");
    }
    // Another operation holds the machine-wide lock of the template engine.
    {
        let _held = s.hold(&LockTarget::global(), "dotnet_workload Install");
        let locking = ["InstallTemplatePack", "UninstallTemplatePack", "ClearTemplateCache"];
        for (action, args) in successes().into_iter().filter(|(action, _)| locking.contains(action)) {
            assert_eq!(code(&answers.hold(action, s.call(args))), "CONCURRENCY_CONFLICT", "{action}");
        }
    }
    // No SDK, and no dotnet at all: every action that runs dotnet fails; FrameworkInfo and
    // ConfigureGlobalJson answer without it (and a runtime-only host still answers --info and the
    // listings).
    let runtime_only = Sdk::with(|_, double| double.scenario("runtime-only"));
    let no_dotnet = Sdk::with(|_, double| double.setting("DotnetPath", json!("/nonexistent/dotnet")));
    for (action, args) in successes() {
        let on_runtime = answers.hold(action, runtime_only.call(args.clone()));
        if !matches!(action, "Info" | "ListSdks" | "ListRuntimes" | "FrameworkInfo" | "ConfigureGlobalJson") {
            assert_eq!(code(&on_runtime), "SDK_NOT_FOUND", "{action}");
        }
        let without = answers.hold(action, no_dotnet.call(args));
        if !matches!(action, "FrameworkInfo" | "ConfigureGlobalJson") {
            assert_eq!(code(&without), "CAPABILITY_NOT_AVAILABLE", "{action}");
        }
    }
    answers.assert_every_action(Action::NAMES);
}
