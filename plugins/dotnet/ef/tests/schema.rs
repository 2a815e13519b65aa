//! Every answer of `dotnet_ef` held against its derived output schema, as the host and the
//! official clients check structured content: each action's successes on the test double (every
//! kind: a database consulted or not, SQL returned or written, a dry run), and its failure modes:
//! the command failing, the dotnet-ef tool missing, a runtime-only dotnet, no dotnet, refused
//! arguments, the project lock held elsewhere, the user refusing a destructive action, and a drop
//! nobody could confirm.

use dotnet_ef::Action;
use dotnet_support::{
    kit::ActionEnum,
    locking::LockTarget,
    testkit::{Answers, client, code},
};
use serde_json::{Value, json};

mod common;

use common::{plain as setup, with_project};

/// One call of each action that succeeds on the double without asking, with the action's name.
fn successes() -> Vec<(&'static str, Value)> {
    let scaffold = json!({ "action": "DbContextScaffold", "connection": "Data Source=app.db",
                           "provider": "Microsoft.EntityFrameworkCore.Sqlite", "outputDir": "Models", "tables": "a,b" });
    vec![
        ("MigrationsAdd", json!({ "action": "MigrationsAdd", "name": "AddCustomerEmail", "project": "App.csproj" })),
        ("MigrationsList", json!({ "action": "MigrationsList" })),
        ("MigrationsList", json!({ "action": "MigrationsList", "noConnect": true })),
        ("MigrationsRemove", json!({ "action": "MigrationsRemove", "force": true })),
        ("MigrationsScript", json!({ "action": "MigrationsScript", "from": "InitialCreate", "to": "AddOrders" })),
        ("MigrationsScript", json!({ "action": "MigrationsScript", "output": "out.sql", "idempotent": true })),
        ("DatabaseUpdate", json!({ "action": "DatabaseUpdate" })),
        ("DatabaseUpdate", json!({ "action": "DatabaseUpdate", "migration": "0" })),
        ("DatabaseDrop", json!({ "action": "DatabaseDrop", "dryRun": true })),
        ("DatabaseDrop", json!({ "action": "DatabaseDrop", "force": true })),
        ("DbContextList", json!({ "action": "DbContextList" })),
        ("DbContextInfo", json!({ "action": "DbContextInfo" })),
        ("DbContextScaffold", scaffold),
    ]
}

#[test]
fn every_action_answers_within_its_derived_schema() {
    let harness = setup(None);
    let mut answers = Answers::new(&harness.tool);
    for (action, args) in successes() {
        let structured = answers.hold(action, harness.call(args));
        assert!(structured["command"].as_str().is_some_and(|command| command.starts_with("dotnet ef")));
        assert_eq!(structured["exitCode"], 0);
    }
    // The user confirms a drop and a removal.
    let (confirming, _) = client(&[], Some(json!({ "action": "accept", "content": { "confirm": true } })));
    for (action, args) in [
        ("DatabaseDrop", json!({ "action": "DatabaseDrop" })),
        ("MigrationsRemove", json!({ "action": "MigrationsRemove" })),
    ] {
        answers.hold(action, harness.call_with(&confirming, args));
    }
    // The user says no; a drop nobody can confirm needs force.
    let (refusing, _) = client(&[], Some(json!({ "action": "decline" })));
    let drop = json!({ "action": "DatabaseDrop" });
    assert_eq!(code(&answers.hold("DatabaseDrop", harness.call_with(&refusing, drop.clone()))), "OPERATION_CANCELLED");
    assert_eq!(code(&answers.hold("DatabaseDrop", harness.call(drop))), "INVALID_PARAMS");
    // Another operation holds the project's lock.
    {
        let project = harness.path().join("App.csproj");
        let _held = harness.hold(&LockTarget::for_path(Some(&project), harness.path()), "dotnet_project Build");
        let add = json!({ "action": "MigrationsAdd", "name": "X", "project": "App.csproj" });
        assert_eq!(code(&answers.hold("MigrationsAdd", harness.call(add))), "CONCURRENCY_CONFLICT");
    }
    // Arguments the action does not take.
    for (action, mut args) in successes() {
        args["dryRun"] = json!(true);
        if action == "DatabaseDrop" {
            args["name"] = json!("x");
        }
        assert_eq!(code(&answers.hold(action, harness.call(args))), "INVALID_PARAMS");
    }
    // The build fails; the dotnet-ef tool is missing; no SDK; no dotnet at all.
    let failing = setup(Some("build-fail"));
    let no_ef = setup(Some("no-ef"));
    let runtime_only = setup(Some("runtime-only"));
    let no_dotnet = with_project(|double| double.setting("DotnetPath", json!("/nonexistent/dotnet")));
    for (action, args) in successes() {
        assert_eq!(code(&answers.hold(action, failing.call(args.clone()))), "EXIT_1", "{args}");
        assert_eq!(code(&answers.hold(action, no_ef.call(args.clone()))), "CAPABILITY_NOT_AVAILABLE", "{args}");
        assert_eq!(code(&answers.hold(action, runtime_only.call(args.clone()))), "SDK_NOT_FOUND", "{args}");
        assert_eq!(code(&answers.hold(action, no_dotnet.call(args))), "CAPABILITY_NOT_AVAILABLE");
    }
    answers.assert_every_action(Action::NAMES);
}
