//! Every answer of `dotnet_workload` held against its derived output schema, as the host and the
//! official clients check structured content: each action's successes on the test double, and its
//! failure modes: the command failing, a runtime-only dotnet, no dotnet, refused arguments, the
//! machine-wide lock held elsewhere, the user refusing an uninstall, and (replayed from SDK
//! 10.0.401) packs the NuGet feeds do not serve and an uninstall of a workload not installed.

use dotnet_support::{
    kit::ActionEnum,
    locking::LockTarget,
    testkit::{Answers, Harness, client, code},
};
use dotnet_workload::{Action, DotnetWorkload};
use serde_json::{Value, json};

type Workload = Harness<DotnetWorkload>;

/// One call of each action that succeeds on the double, with the action's name (an install
/// or uninstall that succeeds meets the double's hand-made catalogue: none can be recorded here).
fn successes() -> Vec<(&'static str, Value)> {
    let ids = json!(["wasm-tools-net8"]);
    vec![
        ("List", json!({ "action": "List" })),
        ("Info", json!({ "action": "Info" })),
        ("Search", json!({ "action": "Search" })),
        ("Search", json!({ "action": "Search", "searchTerm": "wasm" })),
        ("Install", json!({ "action": "Install", "workloadIds": ids, "skipManifestUpdate": true })),
        ("Update", json!({ "action": "Update", "includePreviews": true })),
        ("Uninstall", json!({ "action": "Uninstall", "workloadIds": ids })),
    ]
}

#[test]
fn every_action_answers_within_its_derived_schema() {
    let harness = Workload::new();
    let mut answers = Answers::new(&harness.tool);
    for (action, args) in successes() {
        let structured = answers.hold(action, harness.call(args));
        assert!(structured["command"].as_str().is_some_and(|command| command.starts_with("dotnet workload")));
        assert_eq!(structured["exitCode"], 0);
    }
    let (confirming, _) = client(&[], Some(json!({ "action": "accept", "content": { "confirm": true } })));
    let uninstall = json!({ "action": "Uninstall", "workloadIds": ["wasm-tools-net8"] });
    assert_eq!(answers.hold("Uninstall", harness.call_with(&confirming, uninstall.clone()))["consent"], "confirmed");

    // The command fails (an unknown workload), with the lock it held.
    let failed = harness.call(json!({ "action": "Install", "workloadIds": ["nope"] }));
    assert_eq!(answers.hold("Install", failed)["lockInfo"]["lockScope"], "global");
    assert_eq!(
        code(&answers.hold("Uninstall", harness.call(json!({ "action": "Uninstall", "workloadIds": ["wasm-tools"] })))),
        "EXIT_1"
    );
    // The feeds do not serve the packs (SDK 10.0.401's recorded answer).
    let no_packs = harness.call(json!({ "action": "Install", "workloadIds": ["wasm-tools"] }));
    assert_eq!(code(&answers.hold("Install", no_packs)), "CAPABILITY_NOT_AVAILABLE");
    // The user says no.
    let (refusing, _) = client(&[], Some(json!({ "action": "decline" })));
    assert_eq!(code(&answers.hold("Uninstall", harness.call_with(&refusing, uninstall))), "OPERATION_CANCELLED");
    // Another operation holds the machine-wide lock.
    {
        let _held = harness.hold(&LockTarget::global(), "dotnet_sdk InstallTemplatePack");
        for (action, args) in
            successes().into_iter().filter(|(action, _)| ["Install", "Update", "Uninstall"].contains(action))
        {
            assert_eq!(code(&answers.hold(action, harness.call(args))), "CONCURRENCY_CONFLICT");
        }
    }
    // Arguments the action does not take.
    for (action, mut args) in successes() {
        args["configFile"] = json!("x.config");
        if action == "Install" || action == "Update" {
            args["searchTerm"] = json!("x");
        }
        assert_eq!(code(&answers.hold(action, harness.call(args))), "INVALID_PARAMS");
    }
    // No SDK, and no dotnet at all.
    let runtime_only = Workload::with(|_, double| double.scenario("runtime-only"));
    let no_dotnet = Workload::with(|_, double| double.setting("DotnetPath", json!("/nonexistent/dotnet")));
    for (action, args) in successes() {
        assert_eq!(code(&answers.hold(action, runtime_only.call(args.clone()))), "SDK_NOT_FOUND");
        assert_eq!(code(&answers.hold(action, no_dotnet.call(args))), "CAPABILITY_NOT_AVAILABLE");
    }
    answers.assert_every_action(Action::NAMES);
}
