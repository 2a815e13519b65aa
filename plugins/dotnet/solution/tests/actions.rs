//! `dotnet_solution` through the tool, in process, against the dotnet test double: the exact
//! argument vector of every action, .sln and .slnx, roots discovery, lock conflicts,
//! elicitation, redaction and read-only service. The test kit checks every result against the
//! advertised schemas, as the host does.

use std::path::{Path, PathBuf};

use dotnet_solution::DotnetSolution;
use dotnet_support::{
    locking::LockTarget,
    testkit::{Double, Harness, client, code, failed, parameter, strings, succeeded},
};
use mcp_plugin_api::{Tool, testkit::TestCall};
use serde_json::{Value, json};

/// The four projects the double lists for every solution, written as real files:
/// App (console, net10.0) → Lib; Lib (library, net10.0); the tests reference what they test.
const PROJECTS: [(&str, &str); 4] = [
    (
        "src/App/App.csproj",
        r#"<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><OutputType>Exe</OutputType><TargetFramework>net10.0</TargetFramework></PropertyGroup>
           <ItemGroup><PackageReference Include="Serilog" Version="4.3.0" /><ProjectReference Include="..\Lib\Lib.csproj" /></ItemGroup></Project>"#,
    ),
    (
        "src/Lib/Lib.csproj",
        r#"<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>net10.0</TargetFramework></PropertyGroup>
           <ItemGroup><PackageReference Include="Serilog" Version="4.3.0" /></ItemGroup></Project>"#,
    ),
    (
        "tests/App.Tests/App.Tests.csproj",
        r#"<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>net10.0</TargetFramework></PropertyGroup>
           <ItemGroup><PackageReference Include="Microsoft.NET.Test.Sdk" Version="17.14.1" /><PackageReference Include="xunit" Version="2.9.3" />
           <ProjectReference Include="../../src/App/App.csproj" /></ItemGroup></Project>"#,
    ),
    (
        "tests/Lib.Tests/Lib.Tests.csproj",
        r#"<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>net10.0</TargetFramework></PropertyGroup>
           <ItemGroup><PackageReference Include="Microsoft.NET.Test.Sdk" Version="17.14.1" /><PackageReference Include="xunit" Version="2.9.2" />
           <ProjectReference Include="../../src/Lib/Lib.csproj" /></ItemGroup></Project>"#,
    ),
];

const SLNX: &str = r#"<Solution>
  <Folder Name="/src/">
    <Project Path="src/App/App.csproj" />
    <Project Path="src/Lib/Lib.csproj" />
  </Folder>
  <Folder Name="/tests/">
    <Project Path="tests/App.Tests/App.Tests.csproj" />
    <Project Path="tests/Lib.Tests/Lib.Tests.csproj" />
  </Folder>
</Solution>"#;

fn sln() -> String {
    let mut text =
        "Microsoft Visual Studio Solution File, Format Version 12.00\n# Visual Studio Version 17\n".to_owned();
    for (index, (path, _)) in PROJECTS.iter().enumerate() {
        let name = Path::new(path).file_stem().unwrap().to_str().unwrap();
        text.push_str(&format!(
            "Project(\"{{FAE04EC0-301F-11D3-BF4B-00C04F79EFBC}}\") = \"{name}\", \"{}\", \"{{00000000-0000-0000-0000-00000000000{index}}}\"\nEndProject\n",
            path.replace('/', "\\")
        ));
    }
    text + "Global\nEndGlobal\n"
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A folder with the four projects and `solution_name` (`Shop.slnx` or `Shop.sln`).
fn workspace(dir: &Path, solution_name: &str) {
    for (path, text) in PROJECTS {
        write(&dir.join(path), text);
    }
    let solution = if solution_name.ends_with(".slnx") { SLNX.to_owned() } else { sln() };
    write(&dir.join(solution_name), &solution);
}

/// A scratch folder holding `repo/` with `Shop.slnx` and its projects: the plugin's working
/// directory.
type Fixture = Harness<DotnetSolution>;

fn fixture() -> Fixture {
    fixture_with(|double| double)
}

fn fixture_with(configure: impl FnOnce(Double) -> Double) -> Fixture {
    Fixture::with(|dir, double| {
        let root = dir.join("repo");
        workspace(&root, "Shop.slnx");
        configure(double.setting("WorkingDirectory", json!(root.display().to_string())))
    })
}

fn root(fixture: &Fixture) -> PathBuf {
    fixture.path().join("repo")
}

#[test]
fn every_action_runs_exactly_its_command() {
    let cases: Vec<(Value, Option<Vec<String>>)> = vec![
        (
            json!({ "action": "Create", "name": "Store", "output": "store", "format": "slnx" }),
            Some(strings(&["new", "sln", "-n", "Store", "-o", "store", "--format", "slnx"])),
        ),
        (json!({ "action": "Create", "name": "Store" }), Some(strings(&["new", "sln", "-n", "Store"]))),
        (
            json!({ "action": "Add", "solution": "Shop.slnx", "projects": ["src/Web/Web.csproj", "src/Api/Api.csproj"], "inRoot": true }),
            Some(strings(&["sln", "Shop.slnx", "add", "src/Web/Web.csproj", "src/Api/Api.csproj", "--in-root"])),
        ),
        (
            json!({ "action": "Add", "projects": ["src/Web/Web.csproj"], "solutionFolder": "web" }),
            Some(strings(&["sln", "add", "src/Web/Web.csproj", "--solution-folder", "web"])),
        ),
        (json!({ "action": "List" }), Some(strings(&["sln", "list"]))),
        (json!({ "action": "List", "solution": "Shop.slnx" }), Some(strings(&["sln", "Shop.slnx", "list"]))),
        (
            json!({ "action": "Remove", "solution": "Shop.slnx", "projects": ["src/Lib/Lib.csproj"] }),
            Some(strings(&["sln", "Shop.slnx", "remove", "src/Lib/Lib.csproj"])),
        ),
        (json!({ "action": "Analyze" }), None),
        (json!({ "action": "Dependencies", "solution": "Shop.slnx" }), None),
        (json!({ "action": "Validate", "solution": "." }), None),
    ];
    let fixture = fixture();
    for (args, expected) in cases {
        fixture.double.clear_log();
        let result = fixture.call(args.clone());
        let structured = succeeded(&result);
        assert_eq!(structured["action"], args["action"]);
        let invocations = fixture.double.invocations();
        match expected {
            Some(expected) => {
                assert_eq!(invocations.len(), 1, "{args}");
                assert_eq!(invocations[0].argv, expected, "{args}");
                assert_eq!(invocations[0].cwd, root(&fixture).canonicalize().unwrap(), "{args}");
                assert_eq!(structured["command"], format!("dotnet {}", expected.join(" ")), "{args}");
            }
            None => assert!(invocations.is_empty(), "{args} reads files and runs nothing"),
        }
    }
}

#[test]
fn the_spec_is_honest_and_action_is_a_required_enum() {
    let spec = fixture().tool.spec();
    assert_eq!(spec.name(), "dotnet_solution");
    assert_eq!(spec.get_input_schema()["required"], json!(["action"]));
    assert_eq!(
        spec.get_input_schema()["properties"]["action"]["enum"],
        json!(["Create", "Add", "List", "Remove", "Migrate", "Analyze", "Dependencies", "Validate"])
    );
    let annotations = spec.get_annotations();
    assert_eq!(
        (annotations.read_only, annotations.destructive, annotations.idempotent, annotations.open_world),
        (Some(false), Some(true), Some(false), Some(false))
    );
}

#[test]
fn create_add_and_list_report_what_happened() {
    let fixture = fixture();
    let created = fixture.call(json!({ "action": "Create", "name": "Store", "format": "slnx" }));
    let store = root(&fixture).join("Store.slnx").display().to_string();
    assert_eq!(succeeded(&created)["solution"], store);
    assert_eq!(succeeded(&created)["lockInfo"]["lockScope"], "solution");
    assert_eq!(created.joined_text().lines().next().unwrap(), format!("Created solution {store}."));

    let added = fixture.call(json!({ "action": "Add", "projects": ["src/Web/Web.csproj"] }));
    let structured = succeeded(&added);
    assert_eq!(structured["added"], json!(["src/Web/Web.csproj"]));
    let key = root(&fixture).canonicalize().unwrap().join("Shop.slnx").display().to_string();
    assert_eq!(structured["lockInfo"], json!({ "lockScope": "solution", "lockKey": key }));

    let listed = fixture.call(json!({ "action": "List" }));
    let structured = succeeded(&listed);
    assert_eq!(structured["projects"][0], json!({ "path": "src/App/App.csproj", "name": "App", "language": "C#" }));
    assert_eq!(structured["projects"].as_array().unwrap().len(), 4);
    assert!(listed.joined_text().contains("lists 4 projects."), "{}", listed.joined_text());
}

#[test]
fn analyze_reports_types_frameworks_and_packages_for_sln_and_slnx() {
    for solution in ["Shop.slnx", "Shop.sln"] {
        let fixture = fixture();
        if solution == "Shop.sln" {
            std::fs::remove_file(root(&fixture).join("Shop.slnx")).unwrap();
            workspace(&root(&fixture), "Shop.sln");
        }
        let result = fixture.call(json!({ "action": "Analyze" }));
        let structured = succeeded(&result);
        assert_eq!(structured["format"], solution.rsplit('.').next().unwrap());
        assert_eq!(structured["projectCount"], 4);
        assert_eq!(structured["projectTypes"], json!({ "console": 1, "library": 1, "test": 2 }));
        assert_eq!(
            structured["frameworks"],
            json!([{ "framework": "net10.0", "projects": ["App", "Lib", "App.Tests", "Lib.Tests"] }])
        );
        let app = &structured["projects"][0];
        assert_eq!(app["projectType"], "console");
        assert_eq!(app["projectReferences"], json!(["Lib"]));
        assert_eq!(app["packageReferences"], json!([{ "id": "Serilog", "version": "4.3.0" }]));
        let shared: Vec<&str> =
            structured["sharedPackages"].as_array().unwrap().iter().map(|p| p["id"].as_str().unwrap()).collect();
        assert_eq!(shared, ["Microsoft.NET.Test.Sdk", "Serilog", "xunit"]);
        assert_eq!(
            structured["versionConflicts"],
            json!([{ "id": "xunit", "versions": [
                { "version": "2.9.2", "projects": ["Lib.Tests"] }, { "version": "2.9.3", "projects": ["App.Tests"] } ] }])
        );
        let text = result.joined_text();
        assert!(
            text.starts_with(&format!(
                "{solution}: 4 projects (1 console, 1 library, 2 test); frameworks net10.0 (4)."
            )),
            "{text}"
        );
        assert!(text.contains("xunit: 2.9.2 (Lib.Tests); 2.9.3 (App.Tests)"), "{text}");
    }
}

#[test]
fn dependencies_give_the_graph_and_a_build_order() {
    let fixture = fixture();
    let result = fixture.call(json!({ "action": "Dependencies" }));
    let structured = succeeded(&result);
    assert_eq!(structured["buildOrder"], json!(["Lib", "App", "App.Tests", "Lib.Tests"]));
    assert_eq!(
        structured["edges"],
        json!([{ "from": "App", "to": "Lib" }, { "from": "App.Tests", "to": "App" }, { "from": "Lib.Tests", "to": "Lib" }])
    );
    assert_eq!(structured["projects"][1]["referencedBy"], json!(["App", "Lib.Tests"]));
    assert_eq!(structured["cycles"], json!([]));
    assert!(result.joined_text().contains("Build order: Lib, App, App.Tests, Lib.Tests."), "{}", result.joined_text());
}

#[test]
fn validate_reports_errors_warnings_and_advice() {
    let fixture = fixture();
    let clean = fixture.call(json!({ "action": "Validate" }));
    let structured = succeeded(&clean);
    assert_eq!(structured["valid"], true);
    assert_eq!(structured["warningCount"], 1, "the xunit version conflict");
    // Break it: Lib moves to net8.0 (App.Tests is fine, App on net10.0 too), Lib.Tests goes missing,
    // and Lib now references App, closing a cycle.
    write(
        &root(&fixture).join("src/Lib/Lib.csproj"),
        r#"<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>net8.0</TargetFramework></PropertyGroup>
           <ItemGroup><ProjectReference Include="../App/App.csproj" /></ItemGroup></Project>"#,
    );
    std::fs::remove_file(root(&fixture).join("tests/Lib.Tests/Lib.Tests.csproj")).unwrap();
    let broken = fixture.call(json!({ "action": "Validate" }));
    let structured = succeeded(&broken);
    assert_eq!(structured["valid"], false);
    let codes: Vec<&str> =
        structured["issues"].as_array().unwrap().iter().map(|i| i["code"].as_str().unwrap()).collect();
    assert_eq!(codes, ["INCOMPATIBLE_FRAMEWORK", "PROJECT_NOT_FOUND", "REFERENCE_CYCLE"]);
    assert!(broken.joined_text().starts_with("Shop.slnx has 3 errors and 0 warnings."), "{}", broken.joined_text());
    let dependencies = fixture.call(json!({ "action": "Dependencies" }));
    assert_eq!(succeeded(&dependencies)["cycles"], json!([["App", "Lib"]]));
}

#[test]
fn remove_asks_and_runs_only_on_a_clear_yes() {
    let fixture = fixture();
    let args = json!({ "action": "Remove", "projects": ["src/Lib/Lib.csproj"] });

    let (accepting, asked) = client(&[], Some(json!({ "action": "accept", "content": { "confirm": true } })));
    let removed = fixture.call_with(&accepting, args.clone());
    let structured = succeeded(&removed);
    assert_eq!(structured["confirmation"], "confirmed");
    assert_eq!(structured["removed"], json!(["src/Lib/Lib.csproj"]));
    let question = asked.lock().unwrap()[0].clone();
    assert!(question.contains("src/Lib/Lib.csproj"), "{question}");
    assert_eq!(fixture.argvs().len(), 1);

    for answer in [
        json!({ "action": "decline" }),
        json!({ "action": "cancel" }),
        json!({ "action": "accept", "content": { "confirm": false } }),
    ] {
        fixture.double.clear_log();
        let (call, _) = client(&[], Some(answer.clone()));
        let refused = fixture.call_with(&call, args.clone());
        let structured = failed(&refused);
        assert_eq!(structured["errors"][0]["code"], "OPERATION_CANCELLED", "{answer}");
        assert!(refused.joined_text().contains("Nothing was changed"), "{}", refused.joined_text());
        assert!(fixture.argvs().is_empty(), "{answer}: nothing ran");
    }

    let unknown = fixture.call(json!({ "action": "Remove", "projects": ["src/Nope/Nope.csproj"] }));
    let structured = succeeded(&unknown);
    assert_eq!(structured["confirmation"], "notAsked");
    assert_eq!(structured["notFound"], json!(["src/Nope/Nope.csproj"]));
    assert!(unknown.joined_text().contains("Not in the solution: src/Nope/Nope.csproj."), "{}", unknown.joined_text());
}

#[test]
fn a_missing_solution_is_found_in_the_roots() {
    let fixture = fixture();
    let elsewhere = tempfile::tempdir().unwrap();
    workspace(elsewhere.path(), "Other.sln");
    let other = elsewhere.path().join("Other.sln").display().to_string();

    let (call, _) = client(&[elsewhere.path()], None);
    let listed = fixture.call_with(&call, json!({ "action": "List" }));
    assert_eq!(succeeded(&listed)["solution"], other);
    assert_eq!(fixture.argvs().pop().unwrap(), strings(&["sln", &other, "list"]));
    let (call, _) = client(&[elsewhere.path()], None);
    let analyzed = fixture.call_with(&call, json!({ "action": "Analyze" }));
    assert_eq!(
        succeeded(&analyzed)["solution"],
        elsewhere.path().canonicalize().unwrap().join("Other.sln").display().to_string()
    );

    fixture.double.clear_log();
    let (call, _) = client(&[elsewhere.path(), &root(&fixture)], None);
    let ambiguous = fixture.call_with(&call, json!({ "action": "Add", "projects": ["x.csproj"] }));
    let message = failed(&ambiguous)["errors"][0]["message"].as_str().unwrap().to_owned();
    assert!(message.contains("Other.sln") && message.contains("Shop.slnx"), "{message}");
    assert!(fixture.argvs().is_empty());

    let empty = tempfile::tempdir().unwrap();
    let (call, _) = client(&[empty.path()], None);
    succeeded(&fixture.call_with(&call, json!({ "action": "List" })));
    assert_eq!(fixture.argvs().pop().unwrap(), strings(&["sln", "list"]), "no candidate: the CLI's default");
    let (call, _) = client(&[empty.path()], None);
    let analyzed = fixture.call_with(&call, json!({ "action": "Validate" }));
    assert!(
        succeeded(&analyzed)["solution"].as_str().unwrap().ends_with("Shop.slnx"),
        "the working directory's solution"
    );
}

#[test]
fn edits_conflict_with_other_operations_on_the_solution() {
    let fixture = fixture();
    // A build of the solution (another plugin) holds it, named by its folder.
    let held = fixture.hold(&LockTarget::for_path(None, &root(&fixture)), "dotnet_project Build");
    for args in [
        json!({ "action": "Add", "projects": ["src/Web/Web.csproj"] }),
        json!({ "action": "Remove", "solution": "Shop.slnx", "projects": ["src/Lib/Lib.csproj"] }),
    ] {
        let refused = fixture.call(args.clone());
        let structured = failed(&refused);
        assert_eq!(structured["errors"][0]["code"], "CONCURRENCY_CONFLICT", "{args}");
        assert_eq!(structured["lockInfo"]["lockScope"], "solution");
        assert_eq!(structured["lockInfo"]["lockContended"], true);
    }
    succeeded(&fixture.call(json!({ "action": "List" })));
    succeeded(&fixture.call(json!({ "action": "Analyze" })));
    assert_eq!(fixture.argvs(), [strings(&["sln", "list"])], "only the read ran");
    drop(held);
    succeeded(&fixture.call(json!({ "action": "Add", "projects": ["src/Web/Web.csproj"] })));
}

#[test]
fn failures_are_errors_with_the_envelope() {
    let fixture = fixture();
    for (args, named) in [
        (json!({ "action": "Rename" }), "action"),
        (json!({ "action": "Create" }), "name"),
        (json!({ "action": "Create", "name": "X", "format": "json" }), "format"),
        (json!({ "action": "Add" }), "projects"),
        (json!({ "action": "Add", "projects": [] }), "projects"),
        (json!({ "action": "Add", "projects": ["  "] }), "projects"),
        (json!({ "action": "Add", "projects": ["a.csproj", 7] }), "projects[1]"),
        (json!({ "action": "Add", "projects": ["--interactive"] }), "projects[0]"),
        (json!({ "action": "Add", "projects": ["a.csproj"], "solutionFolder": "x", "inRoot": true }), "inRoot"),
        (json!({ "action": "List", "solution": "App.csproj" }), "solution"),
        (json!({ "action": "List", "name": "x" }), "name"),
        (json!({ "action": "Analyze", "solution": "Missing.slnx" }), "solution"),
        (json!({ "action": "Analyze", "solution": "src" }), "solution"),
        (json!({ "action": "Validate", "workingDirectory": "nowhere" }), "workingDirectory"),
    ] {
        // The tool's own check, also of arguments the host's schema check refuses first.
        let result = fixture.call_with(&TestCall::new().unchecked(), args.clone());
        let structured = failed(&result);
        assert_eq!(code(structured), "INVALID_PARAMS", "{args}");
        assert_eq!(parameter(structured), named, "{args}");
    }
    // A single string would be one project by the kit's list rule, but the input schema takes only
    // a list, so the host refuses it before the tool sees it.
    assert_eq!(fixture.tool.spec().get_input_schema()["properties"]["projects"]["type"], "array");
    assert!(fixture.argvs().is_empty());

    write(&root(&fixture).join("Broken.slnx"), "<Solution><Project Path='a.csproj'>");
    let broken = fixture.call(json!({ "action": "Analyze", "solution": "Broken.slnx" }));
    assert!(
        failed(&broken)["errors"][0]["message"].as_str().unwrap().contains("not closed"),
        "{}",
        broken.joined_text()
    );

    let fixture = fixture_with(|double| double.scenario("no-project"));
    let listed = fixture.call(json!({ "action": "List" }));
    let structured = failed(&listed);
    assert_eq!(structured["errors"][0]["code"], "EXIT_1");
    assert!(structured["errors"][0]["message"].as_str().unwrap().contains("no solution file"), "{structured}");
}

#[test]
fn credentials_in_what_the_caller_passed_are_redacted() {
    let fixture = fixture();
    let solution = "https://deploy:Hunter2-Dbl-Url@registry.example.com/Shop.sln";
    for features in [&[][..], &["verbosity=verbose"][..], &["format=json"][..]] {
        let call = TestCall::new().with_features(features);
        let result = fixture.call_with(&call, json!({ "action": "List", "solution": solution }));
        let everything = format!("{}\n{}", result.joined_text(), result.structured_content.as_ref().unwrap());
        assert!(!everything.contains("Hunter2-Dbl-Url"), "{features:?}: {everything}");
        assert!(everything.contains("[REDACTED]"), "{everything}");
    }
    assert_eq!(fixture.argvs()[0][1], solution, "dotnet itself gets the real value");
}

#[test]
fn defaults_a_client_fills_in_change_nothing() {
    let fixture = fixture();
    fixture.ok(json!({ "action": "List" }));
    let filled = dotnet_support::testkit::with_defaults(&fixture.tool, &json!({ "action": "List" }));
    assert_eq!((filled["inRoot"].clone(), filled["projects"].clone()), (json!(false), json!([])), "{filled}");
    fixture.ok(filled);
    let argvs = fixture.argvs();
    assert_eq!(argvs[0], argvs[1]);
}

#[test]
fn a_read_only_server_lists_and_analyzes_only() {
    let fixture = fixture_with(|double| double.setting("ReadOnly", json!(true)));
    let spec = fixture.tool.spec();
    assert_eq!(
        spec.get_input_schema()["properties"]["action"]["enum"],
        json!(["List", "Analyze", "Dependencies", "Validate"])
    );
    let annotations = spec.get_annotations();
    assert_eq!((annotations.read_only, annotations.destructive), (Some(true), Some(false)));
    let refused = fixture.call_with(&TestCall::new().unchecked(), json!({ "action": "Create", "name": "X" }));
    assert_eq!(failed(&refused)["errors"][0]["code"], "READ_ONLY");
    assert!(fixture.argvs().is_empty());
}

/// Reads `dotnet://workspace` as the host would for a client with `roots` (none: `None`).
fn read_workspace(fixture: &Fixture, roots: Option<Vec<&Path>>) -> Value {
    use mcp_plugin_api::{ReadRequest, Resource, Root};
    let settings = dotnet_support::settings::DotnetSettings::from_context(fixture.plugin.context()).unwrap();
    let resource = dotnet_solution::resource::WorkspaceResource::new(settings);
    let roots = roots
        .map(|roots| roots.iter().map(|path| Root { uri: format!("file://{}", path.display()), name: None }).collect());
    let request = ReadRequest { roots };
    let contents = dotnet_support::resources::block_on(resource.read_in("dotnet://workspace", &request))
        .unwrap()
        .expect("the read succeeds");
    let contents = serde_json::to_value(contents).unwrap();
    assert_eq!(contents[0]["mimeType"], "application/json");
    serde_json::from_str(contents[0]["text"].as_str().unwrap()).unwrap()
}

fn project_names(workspace: &Value) -> Vec<&str> {
    workspace["projects"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect()
}

#[test]
fn the_workspace_resource_reads_the_clients_roots() {
    let fixture = fixture();
    let other = fixture.path().join("other");
    write(
        &other.join("Tool/Tool.fsproj"),
        r#"<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>net8.0</TargetFramework></PropertyGroup></Project>"#,
    );
    // Build output and hidden folders are not the workspace.
    write(&other.join("Tool/obj/Stale.csproj"), "<Project />");
    write(&other.join(".git/Hidden.csproj"), "<Project />");

    let workspace = read_workspace(&fixture, Some(vec![&root(&fixture), &other]));
    assert_eq!(workspace["folders"][0]["source"], "roots");
    assert_eq!(workspace["solutions"][0]["format"], "slnx");
    assert_eq!(workspace["solutions"][0]["projectCount"], 4);
    assert_eq!(project_names(&workspace), ["App", "Lib", "App.Tests", "Lib.Tests", "Tool"]);
    let app_tests = &workspace["projects"][2];
    assert_eq!(app_tests["isTestProject"], true);
    assert_eq!(app_tests["packageCount"], 2);
    assert_eq!(app_tests["targetFrameworks"], json!(["net10.0"]));
    assert_eq!(app_tests["solutions"].as_array().unwrap().len(), 1);
    let tool = &workspace["projects"][4];
    assert_eq!((tool["isTestProject"].clone(), tool["solutions"].clone()), (json!(false), json!([])));
    assert_eq!(workspace["truncated"], false);
}

#[test]
fn without_roots_the_workspace_is_the_configured_folder_and_never_the_servers() {
    let fixture = fixture();
    let workspace = read_workspace(&fixture, None);
    assert_eq!(workspace["folders"][0]["source"], "workingDirectory");
    assert_eq!(project_names(&workspace).len(), 4);

    let unconfigured = Fixture::with(|_, double| double.setting("WorkingDirectory", Value::Null));
    let empty = read_workspace(&unconfigured, Some(Vec::new()));
    assert_eq!((empty["folders"].clone(), empty["projects"].clone()), (json!([]), json!([])));
}

#[test]
fn solution_edits_announce_the_workspace() {
    use mcp_plugin_api::Announcement;
    let fixture = fixture();
    fixture.ok(json!({ "action": "Add", "solution": "Shop.slnx", "projects": ["src/App/App.csproj"] }));
    assert_eq!(fixture.plugin.announcements(), [Announcement::ResourceUpdated("dotnet://workspace".into())]);
    fixture.plugin.clear_announcements();
    fixture.ok(json!({ "action": "List", "solution": "Shop.slnx" }));
    assert_eq!(fixture.plugin.announcements(), []);
}

#[test]
fn migrate_writes_a_slnx_beside_the_sln_and_replaces_one_only_when_asked() {
    let fixture = fixture();
    let classic = root(&fixture).join("Classic.sln");
    write(&classic, &sln());
    let migrate = |mut args: Value| {
        fixture.double.clear_log();
        args["action"] = json!("Migrate");
        if args.get("solution").is_none() {
            args["solution"] = json!("Classic.sln");
        }
        fixture.call(args)
    };
    // The double replays what SDK 10.0.401 printed for the solution scenario's Classic.sln.
    let value = succeeded(&migrate(json!({}))).clone();
    let classic_text = classic.canonicalize().unwrap().display().to_string();
    assert_eq!(fixture.double.argvs(), [strings(&["sln", &classic_text, "migrate"])]);
    assert!(value["slnx"].as_str().unwrap().ends_with("/Classic.slnx"), "{value}");
    assert_eq!((value["solution"].as_str(), value["replaced"].as_bool()), (Some(classic_text.as_str()), Some(false)));

    // The SDK would overwrite an existing .slnx silently: refused unless `overwrite`.
    write(&root(&fixture).join("Classic.slnx"), SLNX);
    let refused = migrate(json!({}));
    assert_eq!((code(failed(&refused)), parameter(failed(&refused))), ("INVALID_PARAMS", "overwrite"));
    assert!(fixture.double.argvs().is_empty());
    let value = succeeded(&migrate(json!({ "overwrite": true }))).clone();
    assert_eq!(value["replaced"], true);
    assert_eq!(value["projects"].as_array().map(Vec::len), Some(4), "read back from the .slnx: {value}");

    // Only a .sln migrates (the SDK exits 1 on a .slnx): said before running.
    let refused = migrate(json!({ "solution": "Shop.slnx" }));
    assert_eq!(parameter(failed(&refused)), "solution");
    assert!(fixture.double.argvs().is_empty());
}
