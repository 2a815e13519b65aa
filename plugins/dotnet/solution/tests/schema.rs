//! Every answer of `dotnet_solution` held against its derived output schema, as the host and the
//! official clients check structured content: each action's successes on the test double (Create
//! in both formats and in the SDK's, Add and Remove with and without a named solution, the user
//! confirming, Migrate replaying SDK 10.0.401's answer, the readings of a solution with a missing
//! project, a cycle, an outside reference and a version conflict), and its failure modes: the
//! command failing, no dotnet, refused arguments, a held lock, a declined Remove, an unreadable
//! solution.

use std::path::Path;

use dotnet_solution::{Action, DotnetSolution};
use dotnet_support::{
    kit::ActionEnum,
    locking::LockTarget,
    testkit::{Answers, Harness, client, code},
};
use mcp_plugin_api::testkit::TestCall;
use serde_json::{Value, json};

type Solution = Harness<DotnetSolution>;

const PROJECT: &str = r#"<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>net10.0</TargetFramework></PropertyGroup><ItemGroup>
    <PackageReference Include="Serilog" Version="4.3.0" /><ProjectReference Include="../Lib/Lib.csproj" /></ItemGroup></Project>"#;
const LIBRARY: &str = r#"<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>net8.0</TargetFramework></PropertyGroup><ItemGroup>
    <PackageReference Include="Serilog" Version="4.2.0" /><ProjectReference Include="../App/App.csproj" />
    <ProjectReference Include="../../Outside/Outside.csproj" /></ItemGroup></Project>"#;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A working directory with `Shop.slnx` (App and Lib referencing each other, a missing project,
/// a project outside the solution, Serilog at two versions) and `Classic.sln`.
fn solution(configure: impl FnOnce(dotnet_support::testkit::Double) -> dotnet_support::testkit::Double) -> Solution {
    Solution::with(|dir, double| {
        write(&dir.join("src/App/App.csproj"), PROJECT);
        write(&dir.join("src/Lib/Lib.csproj"), LIBRARY);
        write(&dir.join("Outside/Outside.csproj"), "<Project />");
        write(
            &dir.join("Shop.slnx"),
            r#"<Solution><Folder Name="/src/"><Project Path="src/App/App.csproj" /><Project Path="src/Lib/Lib.csproj" />
               <Project Path="src/Gone/Gone.csproj" /></Folder></Solution>"#,
        );
        write(
            &dir.join("Classic.sln"),
            "Microsoft Visual Studio Solution File, Format Version 12.00\n\
             Project(\"{FAE04EC0-301F-11D3-BF4B-00C04F79EFBC}\") = \"App\", \"src\\App\\App.csproj\", \"{00000000-0000-0000-0000-000000000001}\"\nEndProject\n\
             Global\nEndGlobal\n",
        );
        configure(double)
    })
}

/// One call of each action that succeeds on the double, with the action's name; every kind of
/// success an action has.
fn successes() -> Vec<(&'static str, Value)> {
    vec![
        ("Create", json!({ "action": "Create", "name": "Store", "format": "slnx" })),
        ("Create", json!({ "action": "Create", "name": "Old", "output": "old", "format": "sln" })),
        ("Create", json!({ "action": "Create", "name": "Chosen", "output": "chosen" })),
        (
            "Add",
            json!({ "action": "Add", "solution": "Shop.slnx", "projects": ["src/Web/Web.csproj"], "inRoot": true }),
        ),
        ("List", json!({ "action": "List", "solution": "Shop.slnx" })),
        ("Remove", json!({ "action": "Remove", "solution": "Shop.slnx", "projects": ["src/Lib/Lib.csproj"] })),
        ("Migrate", json!({ "action": "Migrate", "solution": "Classic.sln", "overwrite": true })),
        ("Analyze", json!({ "action": "Analyze", "solution": "Shop.slnx" })),
        ("Analyze", json!({ "action": "Analyze", "solution": "Classic.sln" })),
        ("Dependencies", json!({ "action": "Dependencies", "solution": "Shop.slnx" })),
        ("Validate", json!({ "action": "Validate", "solution": "Shop.slnx" })),
        ("Validate", json!({ "action": "Validate", "solution": "Classic.sln" })),
    ]
}

/// Whether the action runs dotnet (the others read the files).
fn runs_dotnet(action: &str) -> bool {
    !["Analyze", "Dependencies", "Validate"].contains(&action)
}

#[test]
fn every_action_answers_within_its_derived_schema() {
    let s = solution(|double| double);
    let mut answers = Answers::new(&s.tool);
    for (action, args) in successes() {
        let structured = answers.hold(action, s.call(args));
        if runs_dotnet(action) {
            assert!(structured["command"].as_str().unwrap_or_default().starts_with("dotnet "), "{structured}");
            assert_eq!(structured["exitCode"], 0, "{structured}");
        } else {
            assert!(structured.get("command").is_none() && structured.get("exitCode").is_none(), "{structured}");
        }
    }
    // What the readings find in Shop.slnx: every optional field on one answer or another.
    let analyzed = answers.hold("Analyze", s.call(json!({ "action": "Analyze", "solution": "Shop.slnx" })));
    assert_eq!(analyzed["projects"][2]["exists"], false);
    assert!(analyzed["projects"][2]["error"].is_string(), "{analyzed}");
    assert_eq!(analyzed["versionConflicts"][0]["id"], "Serilog");
    let graph = answers.hold("Dependencies", s.call(json!({ "action": "Dependencies", "solution": "Shop.slnx" })));
    assert_eq!(graph["cycles"], json!([["App", "Lib"]]));
    assert_eq!(graph["projects"][1]["externalReferences"], json!(["Outside/Outside.csproj"]));
    let validated = answers.hold("Validate", s.call(json!({ "action": "Validate", "solution": "Shop.slnx" })));
    assert_eq!(validated["valid"], false);
    assert!(validated["issues"].as_array().unwrap().iter().any(|issue| issue.get("project").is_none()), "{validated}");
    // Add and List without a solution: dotnet picks the one in the working directory.
    for (action, args) in [
        ("Add", json!({ "action": "Add", "projects": ["src/Web/Web.csproj"], "solutionFolder": "web" })),
        ("List", json!({ "action": "List" })),
    ] {
        assert!(answers.hold(action, s.call(args)).get("solution").is_none());
    }
    // The user confirms a Remove, or declines it.
    let remove = json!({ "action": "Remove", "solution": "Shop.slnx", "projects": ["src/Lib/Lib.csproj"] });
    let (confirming, _) = client(&[], Some(json!({ "action": "accept", "content": { "confirm": true } })));
    assert_eq!(answers.hold("Remove", s.call_with(&confirming, remove.clone()))["confirmation"], "confirmed");
    let (declining, _) = client(&[], Some(json!({ "action": "decline" })));
    assert_eq!(code(&answers.hold("Remove", s.call_with(&declining, remove))), "OPERATION_CANCELLED");

    // The command fails: no solution in the working directory.
    let no_project = solution(|double| double.scenario("no-project"));
    for action in ["Add", "List", "Remove"] {
        let mut args = json!({ "action": action });
        if action != "List" {
            args["projects"] = json!(["src/App/App.csproj"]);
        }
        assert_eq!(code(&answers.hold(action, no_project.call(args))), "EXIT_1", "{action}");
    }
    // Refused arguments, and a solution that cannot be read.
    write(&s.path().join("Broken.slnx"), "<Solution><Project Path='a.csproj'>");
    let refused = [
        ("Create", json!({ "action": "Create", "name": "X", "format": "json" })),
        ("Add", json!({ "action": "Add", "projects": ["a.csproj"], "solutionFolder": "x", "inRoot": true })),
        ("List", json!({ "action": "List", "solution": "App.csproj" })),
        ("Remove", json!({ "action": "Remove", "projects": ["--interactive"] })),
        ("Migrate", json!({ "action": "Migrate", "solution": "Shop.slnx" })),
        ("Migrate", json!({ "action": "Migrate", "solution": "Missing.sln" })),
        ("Analyze", json!({ "action": "Analyze", "solution": "Broken.slnx" })),
        ("Dependencies", json!({ "action": "Dependencies", "solution": "src" })),
        ("Validate", json!({ "action": "Validate", "solution": "Missing.slnx" })),
    ];
    // The tool's own check, also of arguments the host's schema check refuses first (a format
    // outside the enum).
    let unchecked = TestCall::new().unchecked();
    for (action, args) in refused {
        assert_eq!(code(&answers.hold(action, s.call_with(&unchecked, args))), "INVALID_PARAMS", "{action}");
    }
    // A parameter the action does not take.
    for (action, mut args) in successes() {
        args["overwrite"] = json!(true);
        if action == "Migrate" {
            args["name"] = json!("x");
        }
        assert_eq!(code(&answers.hold(action, s.call(args))), "INVALID_PARAMS", "{action}");
    }
    // Another operation holds the solution.
    {
        let _held = s.hold(&LockTarget::for_path(Some(&s.path().join("Shop.slnx")), s.path()), "dotnet_project Build");
        for action in ["Add", "Remove"] {
            let args = json!({ "action": action, "solution": "Shop.slnx", "projects": ["src/App/App.csproj"] });
            assert_eq!(code(&answers.hold(action, s.call(args))), "CONCURRENCY_CONFLICT", "{action}");
        }
    }
    // No dotnet at all: the actions that run it fail; the readings still answer.
    let no_dotnet = solution(|double| double.setting("DotnetPath", json!("/nonexistent/dotnet")));
    for (action, args) in successes() {
        let structured = answers.hold(action, no_dotnet.call(args));
        match runs_dotnet(action) {
            true => assert_eq!(code(&structured), "CAPABILITY_NOT_AVAILABLE", "{action}"),
            false => assert_eq!(structured["success"], true, "{action}"),
        }
    }
    answers.assert_every_action(Action::NAMES);
}
