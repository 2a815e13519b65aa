//! `dotnet_package` through the tool, in process, against the dotnet test double: the exact
//! argument vector of every action, roots discovery, lock conflicts, failures, redaction and
//! read-only service. The test kit checks every result against the advertised schemas, as the
//! host does.

use std::time::{Duration, Instant};

use dotnet_package::DotnetPackage;
use dotnet_support::{
    locking::LockTarget,
    testkit::{Double, Harness, client, code, failed, parameter, secret_values, strings, succeeded},
};
use mcp_plugin_api::{Tool, testkit::TestCall};
use serde_json::{Value, json};

/// The project every test works on: `App/App.csproj` referencing two packages.
const APP: &str = r#"<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup><TargetFramework>net10.0</TargetFramework></PropertyGroup>
  <ItemGroup>
    <PackageReference Include="Newtonsoft.Json" Version="12.0.3" />
    <PackageReference Include="Serilog.AspNetCore" Version="9.0.0" />
  </ItemGroup>
</Project>"#;

/// A scratch folder with `App/App.csproj`; `App` is the plugin's working directory.
type Fixture = Harness<DotnetPackage>;

fn fixture() -> Fixture {
    fixture_with(|double| double)
}

fn fixture_with(configure: impl FnOnce(Double) -> Double) -> Fixture {
    Fixture::with(|dir, double| {
        std::fs::create_dir_all(dir.join("App")).unwrap();
        std::fs::write(dir.join("App/App.csproj"), APP).unwrap();
        configure(double.setting("WorkingDirectory", json!(dir.join("App").display().to_string())))
    })
}

fn app(fixture: &Fixture) -> std::path::PathBuf {
    fixture.path().join("App")
}

fn roots(dirs: &[&std::path::Path]) -> TestCall {
    client(dirs, None).0
}

#[test]
fn every_action_runs_exactly_its_command() {
    let cases: Vec<(Value, Vec<String>)> = vec![
        (
            json!({ "action": "Add", "packageId": "Serilog", "version": "4.2.0", "project": "App.csproj",
                    "source": "https://api.nuget.org/v3/index.json", "framework": "net10.0", "noRestore": true }),
            strings(&[
                "add",
                "App.csproj",
                "package",
                "Serilog",
                "--version",
                "4.2.0",
                "--source",
                "https://api.nuget.org/v3/index.json",
                "--framework",
                "net10.0",
                "--no-restore",
            ]),
        ),
        (
            json!({ "action": "Update", "packageId": "Newtonsoft.Json", "prerelease": true }),
            strings(&["add", "package", "Newtonsoft.Json", "--prerelease"]),
        ),
        (
            json!({ "action": "Remove", "packageId": "Newtonsoft.Json", "project": "App.csproj" }),
            strings(&["remove", "App.csproj", "package", "Newtonsoft.Json"]),
        ),
        (
            json!({ "action": "Search", "searchTerm": "serilog", "take": 2, "skip": 1, "prerelease": true,
                    "source": "https://api.nuget.org/v3/index.json" }),
            strings(&[
                "package",
                "search",
                "serilog",
                "--take",
                "2",
                "--skip",
                "1",
                "--prerelease",
                "--source",
                "https://api.nuget.org/v3/index.json",
                "--format",
                "json",
            ]),
        ),
        (
            json!({ "action": "Search", "searchTerm": "Newtonsoft.Json", "exactMatch": true }),
            strings(&["package", "search", "Newtonsoft.Json", "--exact-match", "--format", "json"]),
        ),
        (
            json!({ "action": "List", "project": "App.csproj", "outdated": true, "includeTransitive": true,
                    "framework": "net10.0", "prerelease": true, "source": "https://api.nuget.org/v3/index.json" }),
            strings(&[
                "list",
                "App.csproj",
                "package",
                "--format",
                "json",
                "--output-version",
                "1",
                "--outdated",
                "--include-transitive",
                "--framework",
                "net10.0",
                "--include-prerelease",
                "--source",
                "https://api.nuget.org/v3/index.json",
            ]),
        ),
        (
            json!({ "action": "List", "deprecated": true }),
            strings(&["list", "package", "--format", "json", "--output-version", "1", "--deprecated"]),
        ),
        (
            json!({ "action": "AddReference", "project": "App.csproj", "referencePath": "../Lib/Lib.csproj" }),
            strings(&["add", "App.csproj", "reference", "../Lib/Lib.csproj"]),
        ),
        (
            json!({ "action": "RemoveReference", "referencePath": "../Lib/Lib.csproj" }),
            strings(&["remove", "reference", "../Lib/Lib.csproj"]),
        ),
        (json!({ "action": "ListReferences" }), strings(&["list", "reference"])),
        (json!({ "action": "ClearCache" }), strings(&["nuget", "locals", "all", "--clear"])),
        (
            json!({ "action": "ClearCache", "cacheType": "http-cache" }),
            strings(&["nuget", "locals", "http-cache", "--clear"]),
        ),
    ];
    let fixture = fixture();
    for (args, expected) in cases {
        fixture.double.clear_log();
        let result = fixture.call(args.clone());
        let structured = succeeded(&result);
        let invocations = fixture.double.invocations();
        assert_eq!(invocations.len(), 1, "{args}");
        assert_eq!(invocations[0].argv, expected, "{args}");
        assert_eq!(invocations[0].cwd, app(&fixture).canonicalize().unwrap(), "{args}");
        assert_eq!(structured["action"], args["action"]);
        assert_eq!(structured["command"], format!("dotnet {}", expected.join(" ")), "{args}");
    }
}

#[test]
fn the_spec_is_honest_and_action_is_a_required_enum() {
    let spec = fixture().tool.spec();
    assert_eq!(spec.name(), "dotnet_package");
    let input = spec.get_input_schema();
    assert_eq!(input["required"], json!(["action"]));
    assert_eq!(input["properties"]["action"]["enum"].as_array().unwrap().len(), 10);
    let annotations = spec.get_annotations();
    assert_eq!(
        (annotations.read_only, annotations.destructive, annotations.idempotent, annotations.open_world),
        (Some(false), Some(true), Some(false), Some(true))
    );
}

#[test]
fn list_returns_packages_per_project_and_framework_with_vulnerabilities() {
    let fixture = fixture();
    let result = fixture.call(json!({ "action": "List", "vulnerable": true, "includeTransitive": true }));
    let structured = succeeded(&result);
    assert_eq!(structured["report"], "vulnerable");
    assert_eq!(structured["sources"], json!(["https://api.nuget.org/v3/index.json"]));
    let project = &structured["projects"][0];
    assert!(project["path"].as_str().unwrap().ends_with("App/App.csproj"));
    let framework = &project["frameworks"][0];
    assert_eq!(framework["framework"], "net10.0");
    assert_eq!(
        framework["topLevelPackages"],
        json!([{ "id": "Newtonsoft.Json", "requestedVersion": "12.0.3", "resolvedVersion": "12.0.3",
                 "vulnerabilities": [{ "severity": "High", "advisoryUrl": "https://github.com/advisories/GHSA-5crp-9r3c-p9vr" }] }])
    );
    assert_eq!(framework["transitivePackages"][0]["id"], "System.Text.Encodings.Web");
    assert_eq!((structured["totalPackages"].as_u64(), structured["truncated"].as_bool()), (Some(2), Some(false)));
    let text = result.joined_text();
    // One framework in every project: said once in the summary, not in each project's heading.
    assert!(
        text.starts_with(
            "2 packages in 1 project (net10.0) have known vulnerabilities. Sources checked: \
             https://api.nuget.org/v3/index.json.\n"
        ),
        "{text}"
    );
    assert!(text.contains("\n\nApp.csproj:\n  Newtonsoft.Json 12.0.3"), "{text}");
    // The requested version is said only where it differs from the resolved one.
    assert!(text.contains("Newtonsoft.Json 12.0.3 (vulnerable: High"), "{text}");
    assert!(!text.contains("\"topLevelPackages\""), "prose, not JSON: {text}");
}

#[test]
fn list_shows_the_warnings_of_the_restore_it_ran_first_once() {
    let fixture = fixture();
    let clean = fixture.call(json!({ "action": "List" }));
    assert!(succeeded(&clean).get("warnings").is_none(), "{}", clean.joined_text());
    assert!(!clean.joined_text().contains("Restore warnings"), "{}", clean.joined_text());
    // The assets file SDK 10.0.401 wrote for a project whose restore warned (NU1603), moved to the
    // project the double lists.
    let project = app(&fixture).join("App.csproj").display().to_string();
    let recorded = include_str!("fixtures/api.assets.json").replace("/src/Shop/Api/Api.csproj", &project);
    std::fs::create_dir_all(app(&fixture).join("obj")).unwrap();
    std::fs::write(app(&fixture).join("obj/project.assets.json"), recorded).unwrap();
    let result = fixture.call(json!({ "action": "List" }));
    let structured = succeeded(&result);
    let message = "Microsoft.AspNetCore.OpenApi 10.0.12 depends on Microsoft.OpenApi (>= 2.12.0 && < 3.0.0) but \
                   Microsoft.OpenApi 2.12.0 was not found. Microsoft.OpenApi 2.12.1 was resolved instead.";
    assert_eq!(
        structured["warnings"],
        json!([{ "file": project, "severity": "warning", "code": "NU1603", "message": message, "project": project }])
    );
    let text = result.joined_text();
    assert!(text.contains(&format!("\n\nRestore warnings:\n  App.csproj: NU1603: {message}")), "{text}");
    assert_eq!(text.matches("NU1603").count(), 1, "{text}");
}

#[test]
fn a_list_whose_restore_failed_gives_the_restores_errors() {
    let fixture = fixture_with(|double| double.scenario("restore-fail"));
    // The assets file SDK 10.0.401 wrote for a project referencing a package no source serves,
    // moved to the project the double lists.
    let project = app(&fixture).join("App.csproj").display().to_string();
    let recorded = include_str!("fixtures/bad.assets.json").replace("/src/Bad/Bad.csproj", &project);
    std::fs::create_dir_all(app(&fixture).join("obj")).unwrap();
    std::fs::write(app(&fixture).join("obj/project.assets.json"), recorded).unwrap();
    for args in [json!({ "action": "List" }), json!({ "action": "List", "project": "App.csproj" })] {
        let list = fixture.call(args);
        let structured = failed(&list);
        let first = &structured["errors"][0];
        assert_eq!((first["code"].as_str(), first["mcpErrorCode"].as_i64()), (Some("NU1101"), Some(-32002)), "{first}");
        assert_eq!(
            first["message"],
            "Unable to find package Contoso.Internal.Logging. No packages exist with this id in source(s): nuget.org"
        );
        assert_eq!(first["data"]["additionalData"]["project"], project.as_str());
        // NuGet's own sentence stays, after the errors it stands for.
        assert_eq!(
            structured["errors"][1]["message"],
            "Restore failed. Run `dotnet restore` for more details on the issue."
        );
        assert!(
            list.joined_text().contains("NU1101: Unable to find package Contoso.Internal.Logging."),
            "{}",
            list.joined_text()
        );
    }
    // A solution's: its projects as `sln list` lists them (the double's solution holds
    // src/App/App.csproj), each one's assets file.
    let root = fixture.path().join("Root");
    let project = root.join("src/App/App.csproj").display().to_string();
    std::fs::create_dir_all(root.join("src/App/obj")).unwrap();
    std::fs::write(root.join("Root.slnx"), "<Solution />").unwrap();
    std::fs::write(root.join("src/App/App.csproj"), APP).unwrap();
    let recorded = include_str!("fixtures/bad.assets.json").replace("/src/Bad/Bad.csproj", &project);
    std::fs::write(root.join("src/App/obj/project.assets.json"), recorded).unwrap();
    fixture.double.clear_log();
    let solution = root.join("Root.slnx").display().to_string();
    let list = fixture.call(json!({ "action": "List", "project": solution }));
    let structured = failed(&list);
    assert_eq!(structured["errors"][0]["code"], "NU1101", "{structured}");
    assert_eq!(structured["errors"][0]["data"]["additionalData"]["project"], project.as_str());
    let argvs = fixture.double.argvs();
    assert_eq!(argvs.len(), 2, "the listing, then the solution's projects: {argvs:?}");
    assert_eq!(argvs[1], strings(&["sln", &solution, "list"]));
}

#[test]
fn list_reports_latest_versions_and_deprecations() {
    let fixture = fixture();
    let outdated = fixture.call(json!({ "action": "List", "outdated": true }));
    let packages = &succeeded(&outdated)["projects"][0]["frameworks"][0]["topLevelPackages"];
    assert_eq!(
        packages[0],
        json!({ "id": "Microsoft.EntityFrameworkCore.Sqlite", "requestedVersion": "9.0.0", "resolvedVersion": "9.0.0", "latestVersion": "10.0.0" })
    );
    let deprecated = fixture.call(json!({ "action": "List", "deprecated": true }));
    let packages = &succeeded(&deprecated)["projects"][0]["frameworks"][0]["topLevelPackages"];
    assert_eq!(packages[0]["deprecationReasons"], json!(["Legacy"]));
    assert_eq!(packages[0]["alternativePackage"], json!({ "id": "Azure.Storage.Blobs", "versionRange": "[0.0.0,)" }));
    assert!(
        deprecated.joined_text().contains("deprecated: Legacy, use Azure.Storage.Blobs"),
        "{}",
        deprecated.joined_text()
    );
}

#[test]
fn list_keeps_filter_and_max_results() {
    let fixture = fixture();
    let result = fixture.call(json!({ "action": "List", "filter": "SERILOG" }));
    let structured = succeeded(&result);
    let ids: Vec<&str> = structured["projects"][0]["frameworks"][0]["topLevelPackages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|package| package["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["Serilog.AspNetCore"]);
    assert_eq!(structured["filter"], "SERILOG");
    let capped = fixture.call(json!({ "action": "List", "includeTransitive": true, "maxResults": 3 }));
    let structured = succeeded(&capped);
    assert_eq!((structured["totalPackages"].as_u64(), structured["shownPackages"].as_u64()), (Some(7), Some(3)));
    assert_eq!(structured["truncated"], true);
    assert_eq!(structured["maxResults"], 3);
    assert!(
        capped.joined_text().contains("Showing 3 of 7; raise maxResults to see the rest."),
        "{}",
        capped.joined_text()
    );
}

#[test]
fn list_refuses_options_nuget_cannot_combine_before_running_anything() {
    let fixture = fixture();
    for (args, named) in [
        (json!({ "action": "List", "outdated": true, "vulnerable": true }), "outdated"),
        (json!({ "action": "List", "prerelease": true }), "prerelease"),
        (json!({ "action": "List", "source": "https://example.invalid/index.json" }), "source"),
        (json!({ "action": "List", "searchTerm": "x" }), "searchTerm"),
    ] {
        let result = fixture.call(args);
        let structured = failed(&result);
        assert_eq!(code(structured), "INVALID_PARAMS");
        assert_eq!(parameter(structured), named);
    }
    assert!(fixture.argvs().is_empty());
}

#[test]
fn search_returns_id_version_and_downloads() {
    let fixture = fixture();
    let result = fixture.call(json!({ "action": "Search", "searchTerm": "newtonsoft" }));
    let structured = succeeded(&result);
    assert_eq!(
        structured["packages"][0],
        json!({ "id": "Newtonsoft.Json", "version": "13.0.3", "downloads": 6123456789u64,
                "owners": "dotnetfoundation, jamesnk, newtonsoft", "source": "nuget.org" })
    );
    assert_eq!(structured["packages"].as_array().unwrap().len(), 2);
    assert!(result.joined_text().starts_with("Found 2 packages for 'newtonsoft'."), "{}", result.joined_text());
    let exact = fixture.call(json!({ "action": "Search", "searchTerm": "Serilog", "exactMatch": true }));
    let versions: Vec<&str> =
        succeeded(&exact)["packages"].as_array().unwrap().iter().map(|hit| hit["version"].as_str().unwrap()).collect();
    assert_eq!(versions, ["4.3.0", "4.2.0", "4.1.0", "4.0.0", "3.1.1"]);
    let none = fixture.call(json!({ "action": "Search", "searchTerm": "no-such-thing" }));
    assert_eq!(succeeded(&none)["packages"], json!([]));
}

#[test]
fn search_where_no_source_has_a_search_service_is_not_available_here() {
    // The double replays the real SDK 10.0.401 against this machine's NuGet mirror: exit 0, and
    // "The source does not have a Search service!" in the report.
    let fixture = fixture();
    let result = fixture.call(json!({ "action": "Search", "searchTerm": "Newtonsoft.Json", "take": 5 }));
    let error = &failed(&result)["errors"][0];
    assert_eq!(error["code"], "CAPABILITY_NOT_AVAILABLE");
    assert!(error["message"].as_str().unwrap().contains("nuget.org"), "{error}");
    assert!(error["hint"].as_str().unwrap().contains("exact id"), "{error}");
    assert_eq!(error["alternatives"].as_array().unwrap().len(), 2, "{error}");
    assert_eq!(error["data"]["exitCode"], 0);
}

#[test]
fn add_reports_the_version_written_with_progress_and_the_lock() {
    let fixture = fixture();
    let call = TestCall::new();
    let result = fixture.call_with(&call, json!({ "action": "Add", "packageId": "Serilog" }));
    let structured = succeeded(&result);
    let project_file = app(&fixture).canonicalize().unwrap().join("App.csproj").display().to_string();
    assert_eq!(structured["version"], "4.3.0");
    assert_eq!(structured["projectFile"], project_file);
    assert_eq!(structured["lockInfo"], json!({ "lockScope": "project", "lockKey": project_file }));
    assert_eq!(
        result.joined_text().lines().next(),
        Some(format!("Added package Serilog version 4.3.0 to {project_file}.").as_str())
    );
    let messages: Vec<String> = call.progress().into_iter().filter_map(|report| report.message).collect();
    assert_eq!(messages[0], "adding package Serilog");
    assert!(messages.iter().any(|message| message.starts_with("info : Installed Serilog 4.3.0")), "{messages:?}");
    assert!(messages.iter().any(|message| message.starts_with("log  : Restored")), "{messages:?}");
}

#[test]
fn update_reports_the_version_the_project_had() {
    let fixture = fixture();
    let result = fixture.call(json!({ "action": "Update", "packageId": "newtonsoft.json" }));
    let structured = succeeded(&result);
    assert_eq!(
        (structured["previousVersion"].as_str(), structured["version"].as_str()),
        (Some("12.0.3"), Some("13.0.3"))
    );
    assert!(
        result.joined_text().starts_with("Updated package newtonsoft.json from 12.0.3 to version 13.0.3"),
        "{}",
        result.joined_text()
    );
    let pinned = fixture.call(json!({ "action": "Update", "packageId": "Newtonsoft.Json", "version": "13.0.1" }));
    assert_eq!(succeeded(&pinned)["requestedVersion"], "13.0.1");
    assert_eq!(succeeded(&pinned)["version"], "13.0.1");
    assert_eq!(succeeded(&pinned)["restoreFailed"], false);
}

#[test]
fn a_reference_written_though_its_restore_failed_says_so() {
    // SDK 10.0.401 writes a downgrading reference, fails the restore (NU1605) and exits 0.
    let fixture = fixture_with(|double| double.scenario("package-downgrade"));
    for action in ["Add", "Update"] {
        let result = fixture.call(json!({ "action": action, "packageId": "Newtonsoft.Json", "version": "13.0.1" }));
        let structured = succeeded(&result);
        assert_eq!(
            (structured["version"].as_str(), structured["restoreFailed"].as_bool()),
            (Some("13.0.1"), Some(true))
        );
        let text = result.joined_text();
        assert!(
            text.lines()
                .next()
                .unwrap()
                .ends_with("The restore after it failed (see Notes): the project does not build until that is fixed."),
            "{text}"
        );
        assert!(
            text.contains(
                "error: NU1605: Warning As Error: Detected package downgrade: Newtonsoft.Json from 13.0.3 to 13.0.1."
            ),
            "{text}"
        );
    }
    let latest = fixture.call(json!({ "action": "Add", "packageId": "Newtonsoft.Json" }));
    assert_eq!(succeeded(&latest)["restoreFailed"], false, "the latest version downgrades nothing");
}

#[test]
fn references_and_caches_are_structured() {
    let fixture = fixture();
    let listed = fixture.call(json!({ "action": "ListReferences" }));
    assert_eq!(succeeded(&listed)["references"], json!(["../Lib/Lib.csproj"]));
    assert!(
        listed.joined_text().starts_with(&format!("The project in {} references 1 project.", app(&fixture).display()))
    );
    let added = fixture.call(json!({ "action": "AddReference", "referencePath": "../Lib/Lib.csproj" }));
    assert_eq!(succeeded(&added)["references"], json!(["../Lib/Lib.csproj"]));
    assert_eq!(succeeded(&added)["lockInfo"]["lockScope"], "project");
    let cleared = fixture.call(json!({ "action": "ClearCache", "cacheType": "global-packages" }));
    let structured = succeeded(&cleared);
    assert_eq!(structured["cleared"][0]["cache"], "NuGet global packages folder");
    assert_eq!(structured["lockInfo"], json!({ "lockScope": "global", "lockKey": "global" }));
}

#[test]
fn failures_are_errors_with_the_envelope() {
    let fixture = fixture();
    let missing = fixture.call(json!({ "action": "Add", "packageId": "Contoso.Missing" }));
    let structured = failed(&missing);
    assert_eq!(structured["errors"][0]["code"], "NU1101");
    assert_eq!(structured["errors"][0]["mcpErrorCode"], -32002);
    assert_eq!(structured["exitCode"], 1);
    assert_eq!(structured["lockInfo"]["lockScope"], "project", "a failed locked operation reports its lock");
    assert!(missing.joined_text().contains("Unable to find package Contoso.Missing"), "{}", missing.joined_text());

    let fixture = fixture_with(|double| double.scenario("restore-fail"));
    let list = fixture.call(json!({ "action": "List" }));
    let structured = failed(&list);
    assert_eq!(
        structured["errors"][0]["message"], "Restore failed. Run `dotnet restore` for more details on the issue.",
        "{structured}"
    );

    for (args, named) in [
        (json!({ "action": "Deploy" }), "action"),
        (json!({ "action": "Add" }), "packageId"),
        (json!({ "action": "Add", "packageId": "--interactive" }), "packageId"),
        (json!({ "action": "Search", "searchTerm": "x", "project": "App.csproj" }), "project"),
        (json!({ "action": "ClearCache", "cacheType": "everything" }), "cacheType"),
        (json!({ "action": "ListReferences", "workingDirectory": "nowhere" }), "workingDirectory"),
        (json!({ "action": "AddReference", "referencePath": "notes.txt" }), "referencePath"),
    ] {
        // The tool's own check, also of arguments the host's schema check refuses first.
        let result = fixture.call_with(&TestCall::new().unchecked(), args.clone());
        let structured = failed(&result);
        assert_eq!(code(structured), "INVALID_PARAMS", "{args}");
        assert_eq!(parameter(structured), named, "{args}");
    }
}

#[test]
fn a_missing_project_is_found_in_the_roots() {
    let fixture = fixture();
    let root = tempfile::tempdir().unwrap();
    std::fs::write(root.path().join("Api.csproj"), "<Project Sdk=\"Microsoft.NET.Sdk\" />").unwrap();
    let result = fixture.call_with(&roots(&[root.path()]), json!({ "action": "Remove", "packageId": "Serilog" }));
    let api = root.path().join("Api.csproj").display().to_string();
    assert_eq!(succeeded(&result)["project"], api);
    assert_eq!(fixture.argvs().pop().unwrap(), strings(&["remove", &api, "package", "Serilog"]));

    // List also takes a solution: one beside its projects is the target.
    std::fs::write(root.path().join("Api.slnx"), "<Solution />").unwrap();
    let listed = fixture.call_with(&roots(&[root.path()]), json!({ "action": "List" }));
    assert_eq!(succeeded(&listed)["projects"].as_array().unwrap().len(), 4, "the double's solution has four projects");
    assert_eq!(fixture.argvs().pop().unwrap()[1], root.path().join("Api.slnx").display().to_string());

    let other = tempfile::tempdir().unwrap();
    std::fs::write(other.path().join("Web.csproj"), "<Project />").unwrap();
    fixture.double.clear_log();
    let ambiguous = fixture.call_with(&roots(&[root.path(), other.path()]), json!({ "action": "ListReferences" }));
    let structured = failed(&ambiguous);
    let message = structured["errors"][0]["message"].as_str().unwrap();
    assert!(message.contains("Api.csproj") && message.contains("Web.csproj"), "{message}");
    assert!(fixture.argvs().is_empty());

    let empty = tempfile::tempdir().unwrap();
    let default = fixture.call_with(&roots(&[empty.path()]), json!({ "action": "ListReferences" }));
    succeeded(&default);
    assert_eq!(fixture.argvs().pop().unwrap(), strings(&["list", "reference"]), "no candidate: the CLI's default");
}

#[test]
fn two_edits_of_one_project_conflict() {
    let fixture = fixture_with(|double| double.scenario("slow").env("DOTNET_DOUBLE_SLOW_SECS", "30"));
    let first_call = TestCall::new();
    let cancel = first_call.cancel_handle();
    std::thread::scope(|scope| {
        let first = scope.spawn(|| first_call.run(&fixture.tool, json!({ "action": "Add", "packageId": "Serilog" })));
        let deadline = Instant::now() + Duration::from_secs(30);
        while fixture.argvs().is_empty() {
            assert!(Instant::now() < deadline, "the first add never started");
            std::thread::sleep(Duration::from_millis(20));
        }
        // The same project, named by its file this time.
        let second = fixture.call(json!({ "action": "Remove", "packageId": "Serilog", "project": "App.csproj" }));
        let structured = failed(&second);
        assert_eq!(structured["errors"][0]["code"], "CONCURRENCY_CONFLICT");
        let key = app(&fixture).canonicalize().unwrap().join("App.csproj").display().to_string();
        assert_eq!(structured["lockInfo"]["lockKey"], key);
        assert_eq!(structured["lockInfo"]["lockContended"], true);
        cancel.cancel();
        let first = first.join().unwrap();
        assert_eq!(failed(&first)["errors"][0]["code"], "OPERATION_CANCELLED");
    });
    assert_eq!(fixture.argvs().len(), 1, "the refused call ran nothing");
}

#[test]
fn an_edit_conflicts_with_a_build_of_the_same_project_and_reads_do_not_lock() {
    let fixture = fixture();
    // Another plugin builds the project, naming its folder.
    let _held = fixture.hold(&LockTarget::for_path(None, &app(&fixture)), "dotnet_project Build");
    let refused = fixture.call(json!({ "action": "Update", "packageId": "Serilog", "project": "App.csproj" }));
    assert_eq!(failed(&refused)["errors"][0]["code"], "CONCURRENCY_CONFLICT");
    succeeded(&fixture.call(json!({ "action": "List" })));
    succeeded(&fixture.call(json!({ "action": "ListReferences" })));
    assert_eq!(fixture.argvs().len(), 2);
}

#[test]
fn secrets_in_the_output_never_reach_the_client() {
    let fixture = fixture_with(|double| double.scenario("secrets"));
    let secrets = secret_values();
    for args in [
        json!({ "action": "Add", "packageId": "Serilog" }),
        json!({ "action": "List", "includeTransitive": true }),
        json!({ "action": "Search", "searchTerm": "serilog" }),
        json!({ "action": "Add", "packageId": "Contoso.Missing" }),
    ] {
        for features in [&[][..], &["verbosity=verbose"][..], &["format=json"][..]] {
            let call = TestCall::new().with_features(features);
            let result = fixture.call_with(&call, args.clone());
            let progress: Vec<String> = call.progress().into_iter().filter_map(|report| report.message).collect();
            let everything = format!(
                "{}\n{}\n{}",
                result.joined_text(),
                result.structured_content.as_ref().unwrap(),
                progress.join("\n")
            );
            for secret in &secrets {
                assert!(!everything.contains(secret), "{args} {features:?} leaked {secret}:\n{everything}");
            }
        }
    }
    let verbose = fixture.call_with(
        &TestCall::new().with_features(&["verbosity=verbose"]),
        json!({ "action": "Add", "packageId": "Serilog" }),
    );
    assert!(verbose.joined_text().contains("[REDACTED]"), "the output is shown, redacted");
}

#[test]
fn credentials_in_a_source_are_redacted_but_reach_dotnet() {
    let fixture = fixture();
    let source = "https://deploy:Hunter2-Dbl-Url@feed.example/v3/index.json";
    for args in [
        json!({ "action": "Add", "packageId": "Serilog", "source": source }),
        json!({ "action": "Search", "searchTerm": "serilog", "source": source }),
        json!({ "action": "List", "outdated": true, "source": source }),
        json!({ "action": "Add", "packageId": "Contoso.Missing", "source": source }),
    ] {
        fixture.double.clear_log();
        let result = fixture.call_with(&TestCall::new().with_features(&["verbosity=verbose"]), args.clone());
        let everything = format!("{}\n{}", result.joined_text(), result.structured_content.as_ref().unwrap());
        assert!(!everything.contains("Hunter2-Dbl-Url"), "{args}: {everything}");
        assert!(fixture.argvs()[0].iter().any(|arg| arg == source), "{args}: dotnet gets the real value");
    }
}

#[test]
fn defaults_a_client_fills_in_change_nothing() {
    let fixture = fixture();
    for args in [json!({ "action": "List" }), json!({ "action": "Search", "searchTerm": "serilog" })] {
        fixture.ok(args.clone());
        let plain = fixture.argvs().pop().unwrap();
        let filled = dotnet_support::testkit::with_defaults(&fixture.tool, &args);
        assert_eq!((filled["outdated"].clone(), filled["version"].clone()), (json!(false), json!("")), "{filled}");
        fixture.ok(filled);
        assert_eq!(fixture.argvs().pop().unwrap(), plain, "{args}");
    }
}

#[test]
fn a_read_only_server_searches_lists_and_explains_only() {
    let fixture = fixture_with(|double| double.setting("ReadOnly", json!(true)));
    let spec = fixture.tool.spec();
    assert_eq!(
        spec.get_input_schema()["properties"]["action"]["enum"],
        json!(["Search", "List", "ListReferences", "Why"])
    );
    assert!(spec.get_input_schema()["properties"].get("referencePath").is_none());
    let annotations = spec.get_annotations();
    assert_eq!((annotations.read_only, annotations.destructive), (Some(true), Some(false)));
    let refused =
        fixture.call_with(&TestCall::new().unchecked(), json!({ "action": "Remove", "packageId": "Serilog" }));
    assert_eq!(failed(&refused)["errors"][0]["code"], "READ_ONLY");
    assert!(fixture.argvs().is_empty());
}

#[test]
fn why_gives_the_paths_from_the_project_to_the_package() {
    // The double replays SDK 10.0.401's trees, recorded by the real-SDK scenarios (`tests`,
    // `library`) for these project names.
    let fixture = fixture();
    std::fs::create_dir_all(app(&fixture).join("App.Tests")).unwrap();
    let why = |project: &str, package: &str| {
        fixture.double.clear_log();
        fixture.call(json!({ "action": "Why", "project": project, "packageId": package }))
    };
    let result = why("App.Tests/App.Tests.csproj", "xunit.core");
    let value = succeeded(&result).clone();
    assert_eq!(fixture.double.argvs(), [strings(&["nuget", "why", "App.Tests/App.Tests.csproj", "xunit.core"])]);
    assert_eq!((value["depends"].as_bool(), value["packageId"].as_str()), (Some(true), Some("xunit.core")));
    assert_eq!(
        value["projects"],
        json!([{ "project": "App.Tests", "depends": true, "frameworks": [{ "framework": "net10.0", "paths": [[
            { "id": "App.Tests", "kind": "project" },
            { "id": "xunit", "version": "2.9.3", "kind": "package" },
            { "id": "xunit.core", "version": "2.9.3", "kind": "package" }
        ]] }] }])
    );
    assert!(result.joined_text().contains("App.Tests > xunit 2.9.3 > xunit.core 2.9.3"), "{}", result.joined_text());

    let value = succeeded(&why("App.Tests/App.Tests.csproj", "Serilog")).clone();
    assert_eq!(value["depends"], false);
    assert_eq!(value["projects"], json!([{ "project": "App.Tests", "depends": false, "frameworks": [] }]));

    // Never restored: NuGet exits 0 with its advice; the tool answers NETSDK1004 and its remedy.
    let result = why("Fresh/Fresh.csproj", "Newtonsoft.Json");
    assert_eq!(code(failed(&result)), "NETSDK1004");
    assert!(failed(&result)["errors"][0]["suggestedFixes"].to_string().contains("dotnet restore"));
}
