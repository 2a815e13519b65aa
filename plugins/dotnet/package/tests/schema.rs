//! Every answer of `dotnet_package` held against its derived output schema, as the host and the
//! official clients check structured content: each action's successes on the test double (every
//! List report, a capped one, Search with and without an exact match, Why's paths replayed from SDK
//! 10.0.401), and its failure modes: the command failing (a package no source serves, a restore
//! that fails, a source without a search service, a project never restored), an SDK-less and a
//! missing dotnet, refused arguments and the project or machine-wide lock held elsewhere.

use dotnet_package::{Action, DotnetPackage};
use dotnet_support::{
    kit::ActionEnum,
    locking::LockTarget,
    testkit::{Answers, Harness, code},
};
use mcp_plugin_api::testkit::TestCall;
use serde_json::{Value, json};

type Package = Harness<DotnetPackage>;

/// `App/App.csproj` (two packages) as the working directory, `App/App.Tests` beside it (Why's
/// recorded trees are for that project), and the double with `scenario` when given.
fn with_project(scenario: Option<&'static str>) -> Package {
    Package::with(|dir, mut double| {
        let app = dir.join("App");
        std::fs::create_dir_all(app.join("App.Tests")).unwrap();
        std::fs::write(
            app.join("App.csproj"),
            r#"<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup><TargetFramework>net10.0</TargetFramework></PropertyGroup>
  <ItemGroup>
    <PackageReference Include="Newtonsoft.Json" Version="12.0.3" />
    <PackageReference Include="Serilog.AspNetCore" Version="9.0.0" />
  </ItemGroup>
</Project>"#,
        )
        .unwrap();
        if let Some(names) = scenario {
            double = double.scenario(names);
        }
        double.setting("WorkingDirectory", json!(app.display().to_string()))
    })
}

/// One call of each action that succeeds on the double, with the action's name; every kind of
/// success an action has (each List report, a filtered and capped list, an exact search).
fn successes() -> Vec<(&'static str, Value)> {
    let why = json!({ "action": "Why", "project": "App.Tests/App.Tests.csproj", "packageId": "xunit.core" });
    vec![
        ("Add", json!({ "action": "Add", "packageId": "Serilog" })),
        ("Update", json!({ "action": "Update", "packageId": "Newtonsoft.Json" })),
        ("Update", json!({ "action": "Update", "packageId": "Newtonsoft.Json", "version": "13.0.1" })),
        ("Remove", json!({ "action": "Remove", "packageId": "Serilog.AspNetCore", "project": "App.csproj" })),
        ("Search", json!({ "action": "Search", "searchTerm": "newtonsoft" })),
        ("Search", json!({ "action": "Search", "searchTerm": "Serilog", "exactMatch": true })),
        ("List", json!({ "action": "List" })),
        ("List", json!({ "action": "List", "outdated": true, "prerelease": true })),
        ("List", json!({ "action": "List", "deprecated": true })),
        ("List", json!({ "action": "List", "vulnerable": true, "includeTransitive": true })),
        ("List", json!({ "action": "List", "includeTransitive": true, "maxResults": 3, "filter": "e" })),
        ("AddReference", json!({ "action": "AddReference", "referencePath": "../Lib/Lib.csproj" })),
        ("RemoveReference", json!({ "action": "RemoveReference", "referencePath": "../Lib/Lib.csproj" })),
        ("ListReferences", json!({ "action": "ListReferences" })),
        ("Why", why.clone()),
        ("Why", json!({ "action": "Why", "project": "App.Tests/App.Tests.csproj", "packageId": "Serilog" })),
        ("ClearCache", json!({ "action": "ClearCache" })),
        ("ClearCache", json!({ "action": "ClearCache", "cacheType": "http-cache" })),
    ]
}

#[test]
fn every_action_answers_within_its_derived_schema() {
    let s = with_project(None);
    let mut answers = Answers::new(&s.tool);
    for (action, args) in successes() {
        let structured = answers.hold(action, s.call(args));
        assert!(structured["command"].as_str().unwrap_or_default().starts_with("dotnet "), "{structured}");
        assert_eq!(structured["exitCode"], 0, "{structured}");
    }
    // The command fails: a package no source serves (NU1101, with the project lock it held), a
    // search where no source has a search service (SDK 10.0.401 against this machine's mirror), a
    // project never restored (Why), a restore that fails (List).
    let missing = answers.hold("Add", s.call(json!({ "action": "Add", "packageId": "Contoso.Missing" })));
    assert_eq!((code(&missing), &missing["lockInfo"]["lockScope"]), ("NU1101", &json!("project")));
    let search = json!({ "action": "Search", "searchTerm": "Newtonsoft.Json", "take": 5 });
    assert_eq!(code(&answers.hold("Search", s.call(search))), "CAPABILITY_NOT_AVAILABLE");
    let fresh = json!({ "action": "Why", "project": "Fresh/Fresh.csproj", "packageId": "Newtonsoft.Json" });
    assert_eq!(code(&answers.hold("Why", s.call(fresh))), "NETSDK1004");
    let restore_fail = with_project(Some("restore-fail"));
    assert_eq!(code(&answers.hold("List", restore_fail.call(json!({ "action": "List" })))), "EXIT_1");
    // A reference written though its restore failed (exit 0) is a success that says so.
    let downgrade = with_project(Some("package-downgrade"));
    let written =
        answers.hold("Add", downgrade.call(json!({ "action": "Add", "packageId": "Serilog", "version": "4.2.0" })));
    assert_eq!(written["restoreFailed"], true, "{written}");
    // Refused arguments (by the tool's own check: the host's schema check refuses an unknown
    // cacheType first), and a parameter the action does not take.
    let refused = [
        ("Add", json!({ "action": "Add", "packageId": "--interactive" })),
        ("Update", json!({ "action": "Update", "packageId": "Serilog", "version": "-1" })),
        ("List", json!({ "action": "List", "outdated": true, "vulnerable": true })),
        ("List", json!({ "action": "List", "prerelease": true })),
        ("ClearCache", json!({ "action": "ClearCache", "cacheType": "everything" })),
        ("AddReference", json!({ "action": "AddReference", "referencePath": "notes.txt" })),
    ];
    for (action, args) in refused {
        let refusal = s.call_with(&TestCall::new().unchecked(), args);
        assert_eq!(code(&answers.hold(action, refusal)), "INVALID_PARAMS", "{action}");
    }
    for (action, mut args) in successes() {
        match action {
            "Search" => args["project"] = json!("App.csproj"),
            _ => args["searchTerm"] = json!("x"),
        }
        assert_eq!(code(&answers.hold(action, s.call(args))), "INVALID_PARAMS", "{action}");
    }
    // Another operation holds the project (a build of it), or the machine's NuGet caches.
    {
        let _held = s.hold(&LockTarget::for_path(None, &s.path().join("App")), "dotnet_project Build");
        let _machine = s.hold(&LockTarget::global(), "another ClearCache");
        for (action, args) in successes() {
            if ["Add", "Update", "Remove", "AddReference", "RemoveReference", "ClearCache"].contains(&action) {
                assert_eq!(code(&answers.hold(action, s.call(args))), "CONCURRENCY_CONFLICT", "{action}");
            }
        }
    }
    // No SDK, and no dotnet at all: every action fails.
    let runtime_only = with_project(Some("runtime-only"));
    let no_dotnet = Package::with(|_, double| double.setting("DotnetPath", json!("/nonexistent/dotnet")));
    for (action, args) in successes() {
        assert_eq!(code(&answers.hold(action, runtime_only.call(args.clone()))), "SDK_NOT_FOUND", "{action}");
        assert_eq!(code(&answers.hold(action, no_dotnet.call(args))), "CAPABILITY_NOT_AVAILABLE", "{action}");
    }
    answers.assert_every_action(Action::NAMES);
}
