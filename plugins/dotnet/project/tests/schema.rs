//! Every answer of `dotnet_project` held against its derived output schema, as the host and the
//! official clients check structured content: each action's successes on the test double (every
//! kind: foreground and background runs, a file-based app, a listed and a failing test run with a
//! TRX report, each edit), and its failure modes: a failed build and test run with their counts,
//! a failed restore, a runtime-only dotnet, no dotnet, the project's lock held elsewhere, the
//! user refusing a clean, a session that does not exist, and refused arguments.
#![cfg(target_os = "linux")]

use std::time::{Duration, Instant};

use dotnet_project::Action;
use dotnet_support::{
    kit::ActionEnum,
    locking::LockTarget,
    testkit::{Answers, Double, client, code},
};
use serde_json::{Value, json};

mod common;

use common::Fixture;

/// The shared fixture, with the file-based app `file-app/app.cs` beside the project.
fn fixture_with(configure: impl FnOnce(Double) -> Double) -> Fixture {
    let fx = common::fixture_with(configure);
    std::fs::create_dir_all(fx.path().join("file-app")).unwrap();
    std::fs::write(fx.path().join("file-app/app.cs"), "Console.WriteLine(\"hi\");\n").unwrap();
    fx
}

/// One call of each action that succeeds on the double, with the action's name; every kind of
/// success an action has.
fn successes() -> Vec<(&'static str, Value)> {
    let project = "App/App.csproj";
    vec![
        ("New", json!({ "action": "New", "template": "console", "name": "Made", "output": "Made" })),
        ("Restore", json!({ "action": "Restore", "project": project })),
        ("Build", json!({ "action": "Build", "project": project })),
        ("Run", json!({ "action": "Run", "project": project, "appArgs": ["a", "b"] })),
        ("Run", json!({ "action": "Run", "project": "file-app/app.cs" })),
        ("Test", json!({ "action": "Test", "project": project, "testRunner": "VSTest" })),
        ("Test", json!({ "action": "Test", "project": project, "listTests": true })),
        ("Publish", json!({ "action": "Publish", "project": project, "runtime": "linux-x64" })),
        ("Clean", json!({ "action": "Clean", "project": project })),
        ("Pack", json!({ "action": "Pack", "project": project, "packageVersion": "1.2.3" })),
        ("Format", json!({ "action": "Format", "project": project, "verify": true })),
        ("Analyze", json!({ "action": "Analyze", "project": "App" })),
        ("Dependencies", json!({ "action": "Dependencies", "project": project })),
        ("Validate", json!({ "action": "Validate", "project": project })),
        ("GetProperty", json!({ "action": "GetProperty", "project": project, "propertyName": "TargetFramework" })),
        ("ListItems", json!({ "action": "ListItems", "project": project })),
        ("ListItems", json!({ "action": "ListItems", "project": project, "itemType": "Compile" })),
        ("ListTemplateOptions", json!({ "action": "ListTemplateOptions", "template": "console" })),
        (
            "SetProperty",
            json!({ "action": "SetProperty", "project": project, "propertyName": "Nullable", "propertyValue": "enable" }),
        ),
        (
            "SetProperty",
            json!({ "action": "SetProperty", "project": project, "propertyName": "Nullable", "propertyValue": "disable" }),
        ),
        ("RemoveProperty", json!({ "action": "RemoveProperty", "project": project, "propertyName": "Nullable" })),
        (
            "AddItem",
            json!({ "action": "AddItem", "project": project, "itemType": "PackageReference", "include": "Polly",
                    "metadata": { "Version": "8.4.0" } }),
        ),
        (
            "RemoveItem",
            json!({ "action": "RemoveItem", "project": project, "itemType": "PackageReference", "include": "Polly" }),
        ),
        ("Convert", json!({ "action": "Convert", "project": "file-app/app.cs" })),
        ("ListSessions", json!({ "action": "ListSessions" })),
    ]
}

/// Waits until `ready` holds, or panics after a bound that holds on a loaded machine.
fn wait_for(what: &str, mut ready: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !ready() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn every_action_answers_within_its_derived_schema() {
    let fx = fixture_with(|double| double);
    let mut answers = Answers::new(&fx.tool);
    for (action, args) in successes() {
        let structured = answers.hold(action, fx.call(args));
        let ran = structured.get("command").and_then(Value::as_str);
        if let Some(command) = ran {
            assert!(command.starts_with("dotnet "), "{action}: {command}");
            assert_eq!(structured["exitCode"], 0, "{action}");
        }
    }
    // The user confirms a clean.
    let (confirming, _) = client(&[], Some(json!({ "action": "accept", "content": { "confirm": true } })));
    let clean = json!({ "action": "Clean", "project": "App/App.csproj" });
    assert_eq!(answers.hold("Clean", fx.call_with(&confirming, clean.clone()))["consent"], "confirmed");

    // Background sessions: started, logged, listed, stopped, and stopped again.
    let started = answers
        .hold("Run", fx.call(json!({ "action": "Run", "project": "App/App.csproj", "startMode": "Background" })));
    let id = started["sessionId"].as_str().unwrap().to_owned();
    answers.hold("Logs", fx.call(json!({ "action": "Logs", "sessionId": id, "tailLines": 5 })));
    answers.hold("ListSessions", fx.call(json!({ "action": "ListSessions" })));
    assert_eq!(answers.hold("Stop", fx.call(json!({ "action": "Stop", "sessionId": id })))["sessionId"], id);
    answers.hold("Stop", fx.call(json!({ "action": "Stop", "sessionId": id })));
    let watched = answers
        .hold("Watch", fx.call(json!({ "action": "Watch", "project": "App/App.csproj", "watchAction": "build" })));
    let watch_id = watched["sessionId"].as_str().unwrap().to_owned();
    answers.hold("Stop", fx.call(json!({ "action": "Stop", "sessionId": watch_id })));
    // A session that ended by itself reports its exit code.
    let ended = answers.hold("Run", fx.call(json!({ "action": "Run", "startMode": "Background" })));
    let ended_id = ended["sessionId"].as_str().unwrap().to_owned();
    wait_for("the app to exit", || fx.ok(json!({ "action": "Logs", "sessionId": ended_id }))["status"] == "exited");
    let logs = answers.hold("Logs", fx.call(json!({ "action": "Logs", "sessionId": ended_id })));
    assert!(logs["exitCode"].is_i64(), "{logs}");
    answers.hold("ListSessions", fx.call(json!({ "action": "ListSessions" })));

    // Failures: sessions that do not exist, arguments refused.
    for action in ["Logs", "Stop"] {
        let missing = answers.hold(action, fx.call(json!({ "action": action, "sessionId": "nope" })));
        assert_eq!(code(&missing), "INVALID_PARAMS");
    }
    let stray = answers.hold("ListSessions", fx.call(json!({ "action": "ListSessions", "sessionId": "x" })));
    assert_eq!(code(&stray), "INVALID_PARAMS");
    // The user says no to a clean.
    let (refusing, _) = client(&[], Some(json!({ "action": "decline" })));
    assert_eq!(code(&answers.hold("Clean", fx.call_with(&refusing, clean))), "OPERATION_CANCELLED");
    // Another operation holds the project's lock: every action that locks it is refused.
    {
        let target = LockTarget::for_path(Some(std::path::Path::new("App/App.csproj")), fx.path());
        let _held = fx.hold(&target, "dotnet_package Add");
        for (action, args) in [
            (
                "SetProperty",
                json!({ "action": "SetProperty", "project": "App/App.csproj", "propertyName": "A", "propertyValue": "1" }),
            ),
            ("RemoveProperty", json!({ "action": "RemoveProperty", "project": "App/App.csproj", "propertyName": "A" })),
            (
                "AddItem",
                json!({ "action": "AddItem", "project": "App/App.csproj", "itemType": "None", "include": "a.txt" }),
            ),
            (
                "RemoveItem",
                json!({ "action": "RemoveItem", "project": "App/App.csproj", "itemType": "None", "include": "a.txt" }),
            ),
            ("Pack", json!({ "action": "Pack", "project": "App/App.csproj" })),
        ] {
            assert_eq!(code(&answers.hold(action, fx.call(args))), "CONCURRENCY_CONFLICT", "{action}");
        }
    }

    // A failed build and test run carry their counts beside the envelope.
    let failing = fixture_with(|double| double.scenario("build-fail"));
    let built = answers.hold("Build", failing.call(json!({ "action": "Build", "project": "App/App.csproj" })));
    assert!(built["errorCount"].as_i64().unwrap() > 0, "{built}");
    let failing = fixture_with(|double| double.scenario("test-fail"));
    let tested =
        answers.hold("Test", failing.call(json!({ "action": "Test", "project": "App/App.csproj", "logger": "trx" })));
    assert!(tested["failed"].as_i64().unwrap() > 0, "{tested}");
    let failing = fixture_with(|double| double.scenario("restore-fail"));
    assert_eq!(code(&answers.hold("Restore", failing.call(json!({ "action": "Restore" })))), "NU1101");

    // A runtime-only dotnet: every action that runs dotnet hears that the SDK is missing.
    let runtime_only = fixture_with(|double| double.scenario("runtime-only"));
    for (action, args) in successes() {
        let runs_dotnet =
            !matches!(action, "SetProperty" | "RemoveProperty" | "AddItem" | "RemoveItem" | "ListSessions");
        if runs_dotnet {
            let answer = answers.hold(action, runtime_only.call(args));
            assert_eq!(code(&answer), "SDK_NOT_FOUND", "{action}: {answer}");
        }
    }
    let watch = json!({ "action": "Watch", "project": "App/App.csproj" });
    assert_eq!(code(&answers.hold("Watch", runtime_only.call(watch.clone()))), "SDK_NOT_FOUND");
    // No dotnet at all.
    let missing = fixture_with(|double| double.setting("DotnetPath", json!("/nonexistent/dotnet")));
    for args in [json!({ "action": "Build" }), watch] {
        let action = args["action"].as_str().unwrap();
        assert_eq!(code(&answers.hold(action, missing.call(args.clone()))), "CAPABILITY_NOT_AVAILABLE");
    }
    answers.assert_every_action(Action::NAMES);
}
