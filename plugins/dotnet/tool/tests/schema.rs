//! Every answer of `dotnet_tool` held against its derived output schema, as the host and the
//! official clients check structured content: each action's successes on the test double (which
//! replays SDK 10.0.401's answers from recordings/tools where one matches), and its failure
//! modes: the command failing, an SDK that lacks the command (SDK 8's table listing, SDK 9's
//! missing `tool exec`), a search that cannot reach NuGet.org, a runtime-only dotnet, no dotnet,
//! refused arguments, the scope's lock held elsewhere, and the user refusing an uninstall.

use dotnet_support::{
    kit::ActionEnum,
    locking::LockTarget,
    testkit::{Answers, client, code},
};
use dotnet_tool::Action;
use serde_json::{Value, json};

mod common;

use common::harness_with as tools;

/// One call of each action that succeeds on the double, with the action's name; every kind of
/// success an action has (each scope, a filtered list, a detailed search, arguments).
fn successes() -> Vec<(&'static str, Value)> {
    vec![
        ("Install", json!({ "action": "Install", "packageId": "dotnetsay" })),
        ("Install", json!({ "action": "Install", "packageId": "dotnetsay", "global": true })),
        ("Install", json!({ "action": "Install", "packageId": "dotnetsay", "toolPath": "tools" })),
        ("Update", json!({ "action": "Update", "packageId": "csharpier" })),
        ("Uninstall", json!({ "action": "Uninstall", "packageId": "csharpier" })),
        ("Uninstall", json!({ "action": "Uninstall", "packageId": "dotnet-outdated-tool", "global": true })),
        ("List", json!({ "action": "List" })),
        ("List", json!({ "action": "List", "packageId": "dotnet-outdated-tool", "global": true })),
        ("Restore", json!({ "action": "Restore" })),
        ("CreateManifest", json!({ "action": "CreateManifest", "output": "sub" })),
        ("Search", json!({ "action": "Search", "searchTerm": "ef" })),
        ("Search", json!({ "action": "Search", "searchTerm": "report", "detail": true })),
        ("Run", json!({ "action": "Run", "toolName": "csharpier", "args": ["--version"] })),
        ("Exec", json!({ "action": "Exec", "packageId": "csharpier", "version": "1.1.2", "args": ["--version"] })),
    ]
}

#[test]
fn every_action_answers_within_its_derived_schema() {
    let harness = tools(|double| double);
    let mut answers = Answers::new(&harness.tool);
    for (action, args) in successes() {
        let structured = answers.hold(action, harness.call(args));
        let command = structured["command"].as_str().unwrap_or_default();
        assert!(command.starts_with("dotnet tool") || command.starts_with("dotnet new tool-manifest"), "{command}");
        assert_eq!(structured["exitCode"], 0);
    }
    let (confirming, _) = client(&[], Some(json!({ "action": "accept", "content": { "confirm": true } })));
    let uninstall = json!({ "action": "Uninstall", "packageId": "csharpier" });
    assert_eq!(answers.hold("Uninstall", harness.call_with(&confirming, uninstall.clone()))["consent"], "confirmed");

    // The command fails, with the lock it held.
    let failed = harness.call(json!({ "action": "Install", "packageId": "nope" }));
    assert_eq!(answers.hold("Install", failed)["lockInfo"]["lockScope"], "workingDirectory");
    let not_installed = harness.call(json!({ "action": "Uninstall", "packageId": "dotnetsay" }));
    assert_eq!(code(&answers.hold("Uninstall", not_installed)), "EXIT_1");
    let unknown = harness.call(json!({ "action": "Exec", "packageId": "no-such-tool-xyz" }));
    assert_eq!(code(&answers.hold("Exec", unknown)), "EXIT_1");
    // NuGet.org's search service out of reach (SDK 10.0.401's crash against the mirror).
    let crashed = harness.call(json!({ "action": "Search", "searchTerm": "csharpier", "take": 5 }));
    assert_eq!(code(&answers.hold("Search", crashed)), "CAPABILITY_NOT_AVAILABLE");
    // An SDK 8 lists its table; an SDK 9 has no `tool exec`.
    let sdk8 = tools(|double| double.env("DOTNET_DOUBLE_SDK_VERSION", "8.0.416"));
    let table = answers.hold("List", sdk8.call(json!({ "action": "List", "global": true })));
    assert_eq!(table["command"], "dotnet tool list --global");
    let sdk9 = tools(|double| double.env("DOTNET_DOUBLE_SDK_VERSION", "9.0.300"));
    let no_exec = sdk9.call(json!({ "action": "Exec", "packageId": "dotnetsay" }));
    assert_eq!(code(&answers.hold("Exec", no_exec)), "CAPABILITY_NOT_AVAILABLE");
    // The user says no.
    let (refusing, _) = client(&[], Some(json!({ "action": "decline" })));
    assert_eq!(code(&answers.hold("Uninstall", harness.call_with(&refusing, uninstall))), "OPERATION_CANCELLED");
    // Another operation holds the machine-wide lock of global tools.
    {
        let _held = harness.hold(&LockTarget::global(), "dotnet_workload Install");
        for action in ["Install", "Update", "Uninstall"] {
            let args = json!({ "action": action, "packageId": "dotnetsay", "global": true });
            assert_eq!(code(&answers.hold(action, harness.call(args))), "CONCURRENCY_CONFLICT");
        }
    }
    // Arguments the action does not take, or two scopes at once.
    for (action, mut args) in successes() {
        args["allowDowngrade"] = json!(true);
        if matches!(action, "Install" | "Update") {
            args["toolName"] = json!("x");
        }
        assert_eq!(code(&answers.hold(action, harness.call(args))), "INVALID_PARAMS");
    }
    let two_scopes = json!({ "action": "Install", "packageId": "x", "manifest": "dotnet-tools.json", "global": true });
    assert_eq!(code(&answers.hold("Install", harness.call(two_scopes))), "INVALID_PARAMS");
    // No SDK, and no dotnet at all.
    let runtime_only = tools(|double| double.scenario("runtime-only"));
    let no_dotnet = tools(|double| double.setting("DotnetPath", json!("/nonexistent/dotnet")));
    for (action, args) in successes() {
        assert_eq!(code(&answers.hold(action, runtime_only.call(args.clone()))), "SDK_NOT_FOUND");
        assert_eq!(code(&answers.hold(action, no_dotnet.call(args))), "CAPABILITY_NOT_AVAILABLE");
    }
    answers.assert_every_action(Action::NAMES);
}
