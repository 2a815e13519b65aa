//! The scenarios: each builds a small workspace with the tools themselves and plays the actions
//! that belong there. Together they call every action of every dotnet tool at least once.
//!
//! Checks of what the CLI writes (a project file, a package reference, a nupkg) apply against
//! the real SDK only; against the double, `Runner::as_the_cli_would` writes those files instead,
//! so that the steps after them (which read and edit them) have something to work on.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::{Check, Runner, text_of};

/// The scenarios, by the name of their workspace, in the order they play.
pub const SCENARIOS: [&str; 10] =
    ["sdk", "console", "library", "nuget", "tests", "solution", "file-app", "tools", "secrets", "workloads"];

/// Plays the scenarios named in `only` (every one when it is empty), in order.
pub async fn play(runner: &mut Runner, only: &[String]) {
    let wanted = |name: &str| only.is_empty() || only.iter().any(|o| o == name);
    for name in SCENARIOS.into_iter().filter(|name| wanted(name)) {
        match name {
            "sdk" => sdk_and_host(runner).await,
            "console" => console_project(runner).await,
            "library" => class_library(runner).await,
            "nuget" => nuget_diagnostics(runner).await,
            "tests" => test_projects(runner).await,
            "solution" => solution(runner).await,
            "file-app" => file_based_app(runner).await,
            "tools" => tool_manifest_and_ef(runner).await,
            "secrets" => user_secrets_and_certificates(runner).await,
            _ => workloads(runner).await,
        }
    }
}

/// The target framework of the SDK under test (`net10.0` for SDK 10.0.100).
fn tfm(runner: &Runner) -> String {
    format!("net{}.0", runner.sdk_version.split('.').next().unwrap_or("10"))
}

fn contains(haystack: &str, needle: &str) -> Check {
    if haystack.contains(needle) { Ok(()) } else { Err(format!("the text lacks {needle:?}")) }
}

fn file_contains(path: &Path, needle: &str) -> Check {
    let text = std::fs::read_to_string(path).map_err(|error| format!("{}: {error}", path.display()))?;
    if text.contains(needle) { Ok(()) } else { Err(format!("{} lacks {needle:?}", path.display())) }
}

fn file_lacks(path: &Path, needle: &str) -> Check {
    match file_contains(path, needle) {
        Ok(()) => Err(format!("{} still holds {needle:?}", path.display())),
        Err(_) => Ok(()),
    }
}

fn exists(path: &Path) -> Check {
    if path.exists() { Ok(()) } else { Err(format!("{} was not written", path.display())) }
}

/// The project file of a project `New` created in `dir`/`name`.
fn project_file(dir: &Path, name: &str) -> PathBuf {
    dir.join(name).join(format!("{name}.csproj"))
}

/// `dotnet_project New`: a project from `template` named `name` in `dir`/`name`. Against the
/// double, writes the project file (and source) the template would have.
async fn new_project(runner: &mut Runner, dir: &Path, template: &str, name: &str) -> PathBuf {
    let project = project_file(dir, name);
    let written = project.clone();
    runner
        .effect(
            "dotnet_project",
            "New",
            json!({ "template": template, "name": name, "output": dir.join(name), "workingDirectory": dir }),
            |_| exists(&written),
        )
        .await;
    let tfm = tfm(runner);
    let (properties, items, source) = match template {
        "console" => ("<OutputType>Exe</OutputType>", "", "Console.WriteLine(\"Hello, World!\");\n"),
        "xunit" => (
            "<IsPackable>false</IsPackable>",
            "<ItemGroup>\n    <PackageReference Include=\"xunit\" Version=\"2.9.3\" />\n  </ItemGroup>\n",
            "namespace Tests;\n\npublic class UnitTest1\n{\n    [Fact]\n    public void Test1() { }\n}\n",
        ),
        _ => ("", "", "namespace Lib;\n\npublic class Class1 { }\n"),
    };
    runner.as_the_cli_would(
        &project,
        &format!(
            "<Project Sdk=\"Microsoft.NET.Sdk\">\n\n  <PropertyGroup>\n    {properties}\n    \
             <TargetFramework>{tfm}</TargetFramework>\n    <ImplicitUsings>enable</ImplicitUsings>\n    \
             <Nullable>enable</Nullable>\n  </PropertyGroup>\n\n  {items}\n</Project>\n"
        ),
    );
    runner
        .as_the_cli_would(&dir.join(name).join(if template == "console" { "Program.cs" } else { "Class1.cs" }), source);
    project
}

/// The structured content of a result.
fn structured(result: &Value) -> &Value {
    &result["structuredContent"]
}

/// The first error of an error result.
fn first_error(result: &Value) -> &Value {
    &result["structuredContent"]["errors"][0]
}

/// `value` at `pointer` of the structured content equals `expected`.
fn field(result: &Value, pointer: &str, expected: Value) -> Check {
    let found = structured(result).pointer(pointer).cloned().unwrap_or(Value::Null);
    if found == expected { Ok(()) } else { Err(format!("{pointer} is {found}, expected {expected}")) }
}

/// An error result whose first error has `code` (and, when given, names `file`).
fn error_with(result: &Value, code: &str, file: Option<&str>) -> Check {
    if result["isError"] != true {
        return Err(format!("expected an error {code}, the call succeeded"));
    }
    let errors = structured(result)["errors"].as_array().cloned().unwrap_or_default();
    let found = errors.iter().find(|error| error["code"] == code);
    match (found, file) {
        (None, _) => Err(format!("no error with code {code} among {}", errors.len())),
        (Some(error), Some(file)) if !error.to_string().contains(file) => {
            Err(format!("the {code} error does not name {file}"))
        }
        _ => Ok(()),
    }
}

/// The SDK itself, templates (a template pack made, packed and installed from a local feed),
/// global.json, help and the server's capabilities.
async fn sdk_and_host(runner: &mut Runner) {
    let dir = runner.workspace("sdk");
    let real = runner.real();
    let expected_version = if real { dotnet(&["--version"]).trim().to_owned() } else { String::new() };
    let version = runner
        .call("dotnet_sdk", "Version", json!({}), |result| {
            let version = structured(result)["version"].as_str().unwrap_or_default();
            match version.split('.').next().map(str::parse::<u32>) {
                Some(Ok(_)) if !real || version == expected_version => Ok(()),
                _ => Err(format!("version {version:?}, expected {expected_version:?}")),
            }
        })
        .await;
    runner.sdk_version = version
        .and_then(|result| structured(&result)["version"].as_str().map(str::to_owned))
        .unwrap_or_else(|| "10.0.100".to_owned());
    let sdk_version = runner.sdk_version.clone();
    runner.call("dotnet_sdk", "Info", json!({}), |result| contains(&text_of(result), &sdk_version)).await;
    let listed = if real { dotnet(&["--list-sdks"]).lines().filter(|line| !line.trim().is_empty()).count() } else { 0 };
    runner
        .call("dotnet_sdk", "ListSdks", json!({}), |result| {
            let sdks = structured(result)["sdks"].as_array().map(Vec::len).unwrap_or_default();
            if sdks > 0 && (!real || sdks == listed) {
                Ok(())
            } else {
                Err(format!("{sdks} SDKs listed, {listed} installed"))
            }
        })
        .await;
    let runtimes =
        if real { dotnet(&["--list-runtimes"]).lines().filter(|line| !line.trim().is_empty()).count() } else { 0 };
    runner
        .call("dotnet_sdk", "ListRuntimes", json!({}), |result| match structured(result)["runtimes"].as_array() {
            Some(listed) if !listed.is_empty() && (!real || listed.len() == runtimes) => Ok(()),
            listed => Err(format!("{} runtime(s) listed, {runtimes} installed", listed.map(Vec::len).unwrap_or(0))),
        })
        .await;
    runner
        .call("dotnet_sdk", "ListTemplates", json!({ "filter": "console" }), |result| {
            contains(&text_of(result), "console")
        })
        .await;
    runner
        .call("dotnet_sdk", "TemplateInfo", json!({ "templateShortName": "console" }), |result| {
            contains(&result.to_string(), "framework")
        })
        .await;
    runner.ok("dotnet_sdk", "ListTemplatePacks", json!({})).await;
    let tfm = tfm(runner);
    runner
        .call("dotnet_sdk", "FrameworkInfo", json!({ "framework": tfm }), |result| contains(&text_of(result), &tfm))
        .await;
    runner
        .not_possible_here(
            "dotnet_sdk",
            "SearchTemplates",
            json!({ "searchTerm": "nunit" }),
            "dotnet new search reads a search cache from the public NuGet feed's CDN, which this machine does not reach",
        )
        .await;

    // A template pack of our own: packed into a local feed, installed from it as id@version.
    let pack = dir.join("pack");
    write(&pack.join("Scenario.Templates.csproj"), TEMPLATE_PACK_PROJECT);
    write(&pack.join("content/hello/.template.config/template.json"), TEMPLATE_JSON);
    write(&pack.join("content/hello/Hello.csproj"), &console_project_file(&tfm));
    write(&pack.join("content/hello/Program.cs"), "Console.WriteLine(\"Hello from a template\");\n");
    let feed = dir.join("feed");
    let nupkg = feed.join("Scenario.Templates.1.0.0.nupkg");
    runner
        .note("template pack")
        .effect(
            "dotnet_project",
            "Pack",
            json!({ "project": pack.join("Scenario.Templates.csproj"), "packageVersion": "1.0.0", "output": feed }),
            |_| exists(&nupkg),
        )
        .await;
    runner
        .effect(
            "dotnet_sdk",
            "InstallTemplatePack",
            json!({ "templatePackage": "Scenario.Templates", "templateVersion": "1.0.0", "nugetSource": feed }),
            |result| {
                field(result, "/package", json!("Scenario.Templates"))
                    .and(field(result, "/version", json!("1.0.0")))
                    .and(contains(&structured(result)["templates"].to_string(), "scenario-hello"))
            },
        )
        .await;
    runner
        .note("after install")
        .effect("dotnet_sdk", "ListTemplatePacks", json!({}), |result| {
            contains(&result.to_string(), "Scenario.Templates")
        })
        .await;
    runner
        .effect("dotnet_sdk", "UninstallTemplatePack", json!({ "templatePackage": "Scenario.Templates" }), |result| {
            field(result, "/package", json!("Scenario.Templates"))
        })
        .await;
    runner.ok("dotnet_sdk", "ClearTemplateCache", json!({})).await;
    let global_json = dir.join("global.json");
    let pinned = sdk_version.clone();
    runner
        .call(
            "dotnet_sdk",
            "ConfigureGlobalJson",
            json!({ "globalJsonPath": dir, "sdkVersion": sdk_version, "rollForward": "latestFeature" }),
            |_| file_contains(&global_json, &pinned),
        )
        .await;

    runner.call("dotnet_help", "", json!({}), |result| contains(&text_of(result), "build")).await;
    runner
        .note("build")
        .call("dotnet_help", "", json!({ "command": "build" }), |result| contains(&text_of(result), "--configuration"))
        .await;
    runner
        .call("dotnet_server_capabilities", "", json!({}), |result| {
            if structured(result)["dotnet"]["sdkInstalled"] == true {
                Ok(())
            } else {
                Err("sdkInstalled is not true".to_owned())
            }
        })
        .await;
}

/// A template pack project: the templates under `content/` packed as a NuGet package of type
/// Template.
const TEMPLATE_PACK_PROJECT: &str = r#"<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <PackageType>Template</PackageType>
    <PackageId>Scenario.Templates</PackageId>
    <Description>A template pack the real-SDK scenarios make.</Description>
    <Authors>mcp-plugin-host</Authors>
    <TargetFramework>netstandard2.0</TargetFramework>
    <IncludeContentInPack>true</IncludeContentInPack>
    <IncludeBuildOutput>false</IncludeBuildOutput>
    <ContentTargetFolders>content</ContentTargetFolders>
    <NoDefaultExcludes>true</NoDefaultExcludes>
    <NoWarn>$(NoWarn);NU5128</NoWarn>
  </PropertyGroup>
  <ItemGroup>
    <Content Include="content/**/*" Exclude="content/**/bin/**;content/**/obj/**" />
    <Compile Remove="**/*" />
  </ItemGroup>
</Project>
"#;

const TEMPLATE_JSON: &str = r#"{
  "$schema": "http://json.schemastore.org/template",
  "author": "mcp-plugin-host",
  "classifications": ["Console"],
  "identity": "Scenario.Hello",
  "name": "Scenario hello",
  "shortName": "scenario-hello",
  "sourceName": "Hello",
  "tags": { "language": "C#", "type": "project" }
}
"#;

/// The project file `dotnet new console` writes.
fn console_project_file(tfm: &str) -> String {
    format!(
        "<Project Sdk=\"Microsoft.NET.Sdk\">\n\n  <PropertyGroup>\n    <OutputType>Exe</OutputType>\n    \
         <TargetFramework>{tfm}</TargetFramework>\n    <ImplicitUsings>enable</ImplicitUsings>\n    \
         <Nullable>enable</Nullable>\n  </PropertyGroup>\n\n</Project>\n"
    )
}

/// Writes `text` to `path`, creating its folder.
fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A console app: create, build, run (in the foreground and in the background), watch, format,
/// publish, clean; evaluate and edit its project file; a broken build's and a badly formatted
/// file's diagnostics.
async fn console_project(runner: &mut Runner) {
    let dir = runner.workspace("console");
    let real = runner.real();
    let project = new_project(runner, &dir, "console", "App").await;
    let p = json!(project);
    runner
        .call("dotnet_project", "ListTemplateOptions", json!({ "template": "console" }), |r| {
            contains(&text_of(r), "framework")
        })
        .await;
    runner.ok("dotnet_project", "Restore", json!({ "project": p })).await;
    let built = dir.join("App/bin/Debug").join(tfm(runner)).join("App.dll");
    runner
        .call("dotnet_project", "Build", json!({ "project": p }), |result| {
            field(result, "/success", json!(true)).and(field(result, "/errorCount", json!(0))).and(if real {
                exists(&built)
            } else {
                Ok(())
            })
        })
        .await;
    runner
        .call("dotnet_project", "Run", json!({ "project": p }), |result| {
            contains(&result.to_string(), "Hello, World!").and(field(result, "/exitCode", json!(0)))
        })
        .await;

    let started = runner.ok("dotnet_project", "Run", json!({ "project": p, "startMode": "Background" })).await;
    let session = session_id(started.as_ref());
    // The session may not have printed anything yet: its log is checked for the session only.
    let logged = session.clone();
    runner
        .call("dotnet_project", "Logs", json!({ "sessionId": session }), |result| {
            contains(&result.to_string(), &logged)
        })
        .await;
    let listed = session.clone();
    runner.call("dotnet_project", "ListSessions", json!({}), |result| contains(&result.to_string(), &listed)).await;
    runner.ok("dotnet_project", "Stop", json!({ "sessionId": session })).await;
    let watching = runner.ok("dotnet_project", "Watch", json!({ "project": p, "watchAction": "build" })).await;
    runner.note("watch").ok("dotnet_project", "Stop", json!({ "sessionId": session_id(watching.as_ref()) })).await;

    runner.note("clean file").ok("dotnet_project", "Format", json!({ "project": p, "verify": true })).await;
    // A file `dotnet format` would change: its diagnostics have ids without digits.
    let messy = dir.join("App/Messy.cs");
    if real {
        write(&messy, "namespace App;\n\npublic static class Messy\n{\n        public static int Two() =>   2;\n}\n");
    }
    runner
        .note("badly formatted file")
        .answer("dotnet_project", "Format", json!({ "project": p, "verify": true }), |result| {
            if real { error_with(result, "WHITESPACE", Some("Messy.cs")) } else { Ok(()) }
        })
        .await;
    let _ = std::fs::remove_file(&messy);
    let publish = dir.join("publish");
    let published = publish.join("App.dll");
    runner
        .effect("dotnet_project", "Publish", json!({ "project": p, "output": publish }), |_| exists(&published))
        .await;
    runner
        .effect("dotnet_project", "Clean", json!({ "project": p }), |_| {
            if built.exists() { Err(format!("{} is still there", built.display())) } else { Ok(()) }
        })
        .await;

    let tfm_listed = json!([tfm(runner)]);
    runner
        .call("dotnet_project", "Analyze", json!({ "project": p }), |result| {
            if !real {
                return Ok(());
            }
            field(result, "/targetFrameworks", tfm_listed).and(field(result, "/outputType", json!("Exe")))
        })
        .await;
    runner.ok("dotnet_project", "Dependencies", json!({ "project": p })).await;
    runner.ok("dotnet_project", "Validate", json!({ "project": p })).await;
    let tfm = tfm(runner);
    let by_hand = if real {
        runner.dotnet_by_hand(&dir, &["msbuild", "App/App.csproj", "-getProperty:TargetFramework"]).1
    } else {
        String::new()
    };
    runner
        .effect("dotnet_project", "GetProperty", json!({ "project": p, "propertyName": "TargetFramework" }), |result| {
            let value = structured(result)["propertyValue"].as_str().unwrap_or_default();
            if value != tfm || value != by_hand.trim() {
                return Err(format!(
                    "propertyValue {value:?}; the project says {tfm:?}, dotnet msbuild -getProperty {:?}",
                    by_hand.trim()
                ));
            }
            field(result, "/isSet", json!(true)).and(contains(&text_of(result), &tfm))
        })
        .await;
    let file = project.clone();
    runner
        .call(
            "dotnet_project",
            "SetProperty",
            json!({ "project": p, "propertyName": "Description", "propertyValue": "played by a scenario" }),
            |_| file_contains(&file, "<Description>played by a scenario</Description>"),
        )
        .await;
    runner
        .call("dotnet_project", "RemoveProperty", json!({ "project": p, "propertyName": "Description" }), |_| {
            file_lacks(&file, "<Description>")
        })
        .await;
    runner
        .call("dotnet_project", "AddItem", json!({ "project": p, "itemType": "None", "include": "notes.txt" }), |_| {
            file_contains(&file, "notes.txt")
        })
        .await;
    runner
        .call("dotnet_project", "ListItems", json!({ "project": p, "itemType": "None" }), |result| {
            contains(&result.to_string(), "notes.txt")
        })
        .await;
    runner
        .call(
            "dotnet_project",
            "RemoveItem",
            json!({ "project": p, "itemType": "None", "include": "notes.txt" }),
            |_| file_lacks(&file, "notes.txt"),
        )
        .await;

    if real {
        std::fs::write(dir.join("App/Program.cs"), "Console.WriteLine(undefinedName);\n").unwrap();
    }
    runner
        .note("broken")
        .replayed_under("build-fail")
        .answer("dotnet_project", "Build", json!({ "project": p }), |result| {
            if real { error_with(result, "CS0103", Some("Program.cs")) } else { Ok(()) }
        })
        .await;
}

/// A class library with a package reference and a project reference, packed.
async fn class_library(runner: &mut Runner) {
    let dir = runner.workspace("library");
    let real = runner.real();
    let project = new_project(runner, &dir, "classlib", "Lib").await;
    let util = new_project(runner, &dir, "classlib", "Util").await;
    let p = json!(project);
    let file = project.clone();
    runner
        .effect(
            "dotnet_package",
            "Add",
            json!({ "project": p, "packageId": "Newtonsoft.Json", "version": "13.0.1" }),
            |_| file_contains(&file, "Include=\"Newtonsoft.Json\" Version=\"13.0.1\""),
        )
        .await;
    runner
        .note("unknown package")
        .replayed_under("restore-fail")
        .answer("dotnet_package", "Add", json!({ "project": p, "packageId": "Contoso.Internal.Logging" }), |result| {
            if real { error_with(result, "NU1101", None) } else { Ok(()) }
        })
        .await;
    runner
        .call("dotnet_package", "List", json!({ "project": p }), |r| {
            contains(&r.to_string(), "Newtonsoft.Json").and(if real {
                contains(&r.to_string(), "13.0.1")
            } else {
                Ok(())
            })
        })
        .await;
    runner
        .effect("dotnet_package", "Update", json!({ "project": p, "packageId": "Newtonsoft.Json" }), |_| {
            file_lacks(&file, "13.0.1").and(file_contains(&file, "Newtonsoft.Json"))
        })
        .await;
    runner
        .not_possible_here(
            "dotnet_package",
            "Search",
            json!({ "searchTerm": "Newtonsoft.Json", "take": 5 }),
            "the NuGet mirror here serves packages but has no search service",
        )
        .await;
    runner
        .effect("dotnet_package", "Remove", json!({ "project": p, "packageId": "Newtonsoft.Json" }), |_| {
            file_lacks(&file, "Newtonsoft.Json")
        })
        .await;
    runner
        .effect("dotnet_package", "AddReference", json!({ "project": p, "referencePath": util }), |_| {
            file_contains(&file, "Util.csproj")
        })
        .await;
    runner
        .call("dotnet_package", "ListReferences", json!({ "project": p }), |result| {
            if real { contains(&result.to_string(), "Util.csproj") } else { Ok(()) }
        })
        .await;
    runner
        .effect("dotnet_package", "RemoveReference", json!({ "project": p, "referencePath": util }), |_| {
            file_lacks(&file, "Util.csproj")
        })
        .await;
    // A project never restored: NuGet has no graph to read and says to restore first.
    let fresh = dir.join("Fresh/Fresh.csproj");
    write(&fresh, &console_project_file(&tfm(runner)));
    runner
        .note("not restored")
        .answer("dotnet_package", "Why", json!({ "project": fresh, "packageId": "Newtonsoft.Json" }), |result| {
            classified(result, "NETSDK1004", false)
        })
        .await;
    runner.ok("dotnet_package", "ClearCache", json!({ "cacheType": "http-cache" })).await;

    let packages = dir.join("packages");
    let nupkg = packages.join("Lib.1.2.3.nupkg");
    runner
        .effect(
            "dotnet_project",
            "Pack",
            json!({ "project": p, "packageVersion": "1.2.3", "output": packages }),
            |_| exists(&nupkg),
        )
        .await;
}

/// An error result whose error `code` comes with a remedy (suggested fixes or a hint), or a
/// success whose warnings hold `code` (with `warning` true).
fn classified(result: &Value, code: &str, warning: bool) -> Check {
    if warning {
        let warnings = structured(result)["warnings"].to_string();
        return contains(&warnings, code).map_err(|_| format!("no warning {code} among {warnings}"));
    }
    error_with(result, code, None)?;
    let errors = structured(result)["errors"].as_array().cloned().unwrap_or_default();
    let error = errors.iter().find(|error| error["code"] == code).cloned().unwrap_or_default();
    let remedy = error["suggestedFixes"].as_array().is_some_and(|fixes| !fixes.is_empty())
        || error["hint"].as_str().is_some_and(|hint| !hint.is_empty());
    if remedy { Ok(()) } else { Err(format!("{code} has no remedy: {error}")) }
}

/// NuGet's diagnostics of SDK 10, each classified with its remedy: a source that does not
/// answer (NU1301, or NU1900 from the audit when the packages are already at hand), an
/// `http://` source (NU1302), a package reference without a version (NU1015), a reference the
/// SDK prunes (NU1510), and NuGet audit (NU1901-NU1904 where a source serves vulnerability data).
async fn nuget_diagnostics(runner: &mut Runner) {
    let dir = runner.workspace("nuget");
    let real = runner.real();
    let tfm = tfm(runner);
    let project = dir.join("Audit/Audit.csproj");
    let with_packages = |references: &str| {
        console_project_file(&tfm)
            .replace("</Project>", &format!("  <ItemGroup>\n{references}  </ItemGroup>\n\n</Project>"))
    };
    let restore = |source: Option<&str>| {
        let mut args = json!({ "project": project, "workingDirectory": dir });
        if let Some(source) = source {
            args["source"] = json!(source);
        }
        args
    };
    write(&dir.join("Audit/Program.cs"), "Console.WriteLine(\"audit\");\n");
    // A package the global packages folder lacks, from a source that does not answer.
    write(&project, &with_packages("    <PackageReference Include=\"Contoso.Unreachable\" Version=\"1.0.0\" />\n"));
    runner
        .note("source that does not answer")
        .answer("dotnet_project", "Restore", restore(Some("https://127.0.0.1:9/v3/index.json")), |result| {
            if real { classified(result, "NU1301", false) } else { Ok(()) }
        })
        .await;
    // A package the folder holds: the restore succeeds, the audit cannot read vulnerability data.
    write(&project, &with_packages("    <PackageReference Include=\"Newtonsoft.Json\" Version=\"13.0.1\" />\n"));
    runner
        .note("audit source that does not answer")
        .answer("dotnet_project", "Restore", restore(Some("https://127.0.0.1:9/v3/index.json")), |result| {
            if real { classified(result, "NU1900", true) } else { Ok(()) }
        })
        .await;
    runner
        .note("http source")
        .answer("dotnet_project", "Restore", restore(Some("http://127.0.0.1:9/v3/index.json")), |result| {
            if real { classified(result, "NU1302", false) } else { Ok(()) }
        })
        .await;
    write(&project, &with_packages("    <PackageReference Include=\"Newtonsoft.Json\" />\n"));
    runner
        .note("reference without a version")
        .answer("dotnet_project", "Restore", restore(None), |result| {
            if real { classified(result, "NU1015", false) } else { Ok(()) }
        })
        .await;
    write(&project, &with_packages("    <PackageReference Include=\"System.Text.Json\" Version=\"9.0.0\" />\n"));
    runner
        .note("pruned reference")
        .answer("dotnet_project", "Restore", restore(None), |result| {
            if real { classified(result, "NU1510", true) } else { Ok(()) }
        })
        .await;
    // Newtonsoft.Json 12.0.1 has a known high-severity advisory: NU1903 where a source serves
    // vulnerability data. This machine's mirror serves none (and says nothing): the restore
    // succeeds, and an audit warning, if any, is classified.
    write(&project, &with_packages("    <PackageReference Include=\"Newtonsoft.Json\" Version=\"12.0.1\" />\n"));
    runner
        .note("vulnerable package")
        .answer("dotnet_project", "Restore", restore(None), |result| {
            // The double replays the first recorded restore of this project for all three.
            if !real {
                return Ok(());
            }
            field(result, "/success", json!(true))?;
            let warnings = structured(result)["warnings"].to_string();
            match ["NU1901", "NU1902", "NU1903", "NU1904"].iter().find(|code| warnings.contains(*code)) {
                Some(code) if real => classified(result, code, true),
                _ => Ok(()),
            }
        })
        .await;
}

/// The tests every test project holds: one passes, one fails, one is skipped.
const TESTS: &str = "using Xunit;\n\nnamespace Tests;\n\npublic class CalculatorTests\n{\n    [Fact]\n    \
    public void Adds() => Assert.Equal(4, 2 + 2);\n\n    [Fact]\n    public void Divides() => Assert.Equal(3, 7 / 2 + 1);\n\n    \
    [Fact(Skip = \"not written yet\")]\n    public void Subtracts() => Assert.Equal(0, 2 - 2);\n}\n";

/// An xUnit v3 test project on Microsoft.Testing.Platform (v2), written as its template would.
fn mtp_project_file(tfm: &str) -> String {
    format!(
        "<Project Sdk=\"Microsoft.NET.Sdk\">\n\n  <PropertyGroup>\n    <TargetFramework>{tfm}</TargetFramework>\n    \
         <OutputType>Exe</OutputType>\n    <ImplicitUsings>enable</ImplicitUsings>\n    <Nullable>enable</Nullable>\n    \
         <IsPackable>false</IsPackable>\n  </PropertyGroup>\n\n  <ItemGroup>\n    \
         <PackageReference Include=\"xunit.v3.mtp-v2\" Version=\"4.0.2\" />\n  </ItemGroup>\n\n</Project>\n"
    )
}

/// The counts of a test run's result.
fn counts(result: &Value, passed: u64, failed: u64, skipped: u64) -> Check {
    let s = structured(result);
    let found = (s["passed"].as_u64(), s["failed"].as_u64(), s["skipped"].as_u64());
    if found == (Some(passed), Some(failed), Some(skipped)) {
        Ok(())
    } else {
        Err(format!("passed/failed/skipped {found:?}, expected ({passed}, {failed}, {skipped})"))
    }
}

/// The failure of `CalculatorTests.Divides`: its name, xUnit's message, a stack frame.
fn divides_failed(result: &Value) -> Check {
    let failures = structured(result)["failures"].as_array().cloned().unwrap_or_default();
    let Some(failure) =
        failures.iter().find(|f| f["testName"].as_str().unwrap_or_default().ends_with("CalculatorTests.Divides"))
    else {
        return Err(format!("no failure named ...CalculatorTests.Divides among {failures:?}"));
    };
    let message = failure["message"].as_str().unwrap_or_default();
    let stack = failure["stackTrace"].as_str().unwrap_or_default();
    if !message.contains("Assert.Equal() Failure") {
        Err(format!("the failure's message is {message:?}"))
    } else if !stack.contains("CalculatorTests.Divides") {
        Err(format!("the failure's stack trace is {stack:?}"))
    } else {
        Ok(())
    }
}

/// The TRX report of the calculator's run, read back: its counts and the failure of Divides with
/// its message and frames.
fn trx_read_back(result: &Value) -> Check {
    let reports = structured(result)["trx"].as_array().cloned().unwrap_or_default();
    let [report] = reports.as_slice() else { return Err(format!("expected one TRX report, got {reports:?}")) };
    let found = (report["passed"].as_u64(), report["failed"].as_u64(), report["skipped"].as_u64());
    if found != (Some(1), Some(1), Some(1)) {
        return Err(format!("the TRX report's passed/failed/skipped are {found:?}"));
    }
    exists(Path::new(report["file"].as_str().unwrap_or_default()))?;
    divides_failed(&json!({ "structuredContent": report }))
}

/// The three tests' names are listed.
fn listed(result: &Value) -> Check {
    let tests = structured(result)["tests"].to_string();
    ["Adds", "Divides", "Subtracts"].iter().try_for_each(|name| contains(&tests, &format!("CalculatorTests.{name}")))
}

/// Test projects on both runners, with passing, failing and skipped tests: xUnit v2 on VSTest;
/// xUnit v3 on Microsoft.Testing.Platform (global.json `test.runner`), alone and as a solution
/// of two; and an xUnit v3 project where global.json does not select that runner.
async fn test_projects(runner: &mut Runner) {
    let dir = runner.workspace("tests");
    let real = runner.real();
    let tfm = tfm(runner);
    let vstest = new_project(runner, &dir, "xunit", "App.Tests").await;
    if real {
        let _ = std::fs::remove_file(dir.join("App.Tests/UnitTest1.cs"));
        write(&dir.join("App.Tests/CalculatorTests.cs"), TESTS);
    }
    runner
        .note("vstest, list")
        .effect("dotnet_project", "Test", json!({ "project": vstest, "listTests": true }), listed)
        .await;
    runner
        .note("vstest")
        .replayed_under("test-fail")
        .answer("dotnet_project", "Test", json!({ "project": vstest }), |result| {
            if real { counts(result, 1, 1, 1).and(divides_failed(result)) } else { Ok(()) }
        })
        .await;

    // The tests restored the project: `nuget why` reads its graph. xunit.core comes in through
    // the xunit the template references; Serilog is in no graph.
    let (why_tfm, why_project) = (tfm.clone(), vstest.clone());
    runner
        .call("dotnet_package", "Why", json!({ "project": vstest, "packageId": "xunit.core" }), |result| {
            let step = |id: &str, version: Option<&str>| match version {
                Some(version) => json!({ "id": id, "version": version, "kind": "package" }),
                None => json!({ "id": id, "kind": "project" }),
            };
            let path =
                json!([step("App.Tests", None), step("xunit", Some("2.9.3")), step("xunit.core", Some("2.9.3"))]);
            let referenced =
                if real { file_contains(&why_project, "Include=\"xunit\" Version=\"2.9.3\"") } else { Ok(()) };
            referenced
                .and(field(result, "/depends", json!(true)))
                .and(field(result, "/projects/0/frameworks/0/framework", json!(why_tfm)))
                .and(field(result, "/projects/0/frameworks/0/paths", json!([path])))
                .and(contains(&text_of(result), "App.Tests > xunit 2.9.3 > xunit.core 2.9.3"))
        })
        .await;
    runner
        .note("not a dependency")
        .call("dotnet_package", "Why", json!({ "project": vstest, "packageId": "Serilog" }), |result| {
            field(result, "/depends", json!(false)).and(field(
                result,
                "/projects",
                json!([{ "project": "App.Tests", "depends": false, "frameworks": [] }]),
            ))
        })
        .await;

    // The plugin asked for Microsoft.Testing.Platform where global.json does not select it: the
    // SDK (in VSTest mode) refuses `--project`.
    runner
        .note("vstest project, runner asked for mtp")
        .answer(
            "dotnet_project",
            "Test",
            json!({ "project": vstest, "testRunner": "MicrosoftTestingPlatform" }),
            |result| {
                if real { classified(result, "MSB1001", false) } else { Ok(()) }
            },
        )
        .await;

    let mtp = dir.join("mtp");
    write(&mtp.join("global.json"), "{\n  \"test\": {\n    \"runner\": \"Microsoft.Testing.Platform\"\n  }\n}\n");
    write(&mtp.join("Calc.Tests/Calc.Tests.csproj"), &mtp_project_file(&tfm));
    write(&mtp.join("Calc.Tests/CalculatorTests.cs"), TESTS);
    write(&mtp.join("More.Tests/More.Tests.csproj"), &mtp_project_file(&tfm));
    write(
        &mtp.join("More.Tests/MoreTests.cs"),
        "using Xunit;\n\nnamespace More;\n\npublic class MoreTests\n{\n    [Fact]\n    public void Holds() => Assert.True(true);\n}\n",
    );
    write(
        &mtp.join("Mtp.slnx"),
        "<Solution>\n  <Project Path=\"Calc.Tests/Calc.Tests.csproj\" />\n  <Project Path=\"More.Tests/More.Tests.csproj\" />\n</Solution>\n",
    );
    let calc = mtp.join("Calc.Tests/Calc.Tests.csproj");
    runner
        .note("mtp, list")
        .effect("dotnet_project", "Test", json!({ "project": calc, "listTests": true }), listed)
        .await;
    runner
        .note("mtp")
        .replayed_under("test-fail")
        .answer("dotnet_project", "Test", json!({ "project": calc }), |result| {
            if real { counts(result, 1, 1, 1).and(divides_failed(result)) } else { Ok(()) }
        })
        .await;
    runner
        .note("mtp, solution of two")
        .replayed_under("test-fail")
        .answer("dotnet_project", "Test", json!({ "project": mtp.join("Mtp.slnx") }), |result| {
            if real { counts(result, 2, 1, 1).and(divides_failed(result)) } else { Ok(()) }
        })
        .await;
    // The TRX report MTP writes (--report-trx), read back into the result.
    let trx = mtp.join("trx-results");
    runner
        .note("mtp, trx")
        .replayed_under("test-fail")
        .answer(
            "dotnet_project",
            "Test",
            json!({ "project": calc, "logger": "trx", "resultsDirectory": trx, "noBuild": true }),
            |result| if real { trx_read_back(result) } else { Ok(()) },
        )
        .await;

    // A VSTest project (xUnit v2) where global.json selects Microsoft.Testing.Platform.
    let legacy = mtp.join("Legacy.Tests/Legacy.Tests.csproj");
    write(&legacy, &std::fs::read_to_string(&vstest).unwrap_or_else(|_| mtp_project_file(&tfm)));
    write(&mtp.join("Legacy.Tests/CalculatorTests.cs"), TESTS);
    runner
        .note("vstest project under mtp")
        .answer("dotnet_project", "Test", json!({ "project": legacy }), |result| {
            if !real {
                return Ok(());
            }
            let code = first_error(result)["code"].as_str().unwrap_or_default().to_owned();
            if result["isError"] == true && !code.starts_with("EXIT_") {
                Ok(())
            } else {
                Err(format!("expected a classified error, got code {code:?}"))
            }
        })
        .await;

    // xUnit v3 on Microsoft.Testing.Platform v2, where no global.json selects that runner: the
    // SDK refuses to run it under VSTest, and the tool says how to switch.
    let unselected = dir.join("V3.Tests/V3.Tests.csproj");
    write(&unselected, &mtp_project_file(&tfm));
    write(&dir.join("V3.Tests/CalculatorTests.cs"), TESTS);
    runner
        .note("mtp project under vstest")
        .answer("dotnet_project", "Test", json!({ "project": unselected }), |result| {
            if !real {
                return Ok(());
            }
            let error = first_error(result);
            let code = error["code"].as_str().unwrap_or_default();
            if result["isError"] == true
                && !code.starts_with("EXIT_")
                && error.to_string().contains("Microsoft.Testing.Platform")
            {
                Ok(())
            } else {
                Err(format!("expected a classified error that names Microsoft.Testing.Platform; code {code:?}"))
            }
        })
        .await;
}

/// Two solutions, `.slnx` (SDK 10's default) and `.sln`, holding a console app that references a
/// class library: created, filled, listed, analysed, built, and a project removed again.
async fn solution(runner: &mut Runner) {
    let dir = runner.workspace("solution");
    let real = runner.real();
    let slnx = dir.join("Both.slnx");
    let created = slnx.clone();
    runner
        .effect("dotnet_solution", "Create", json!({ "name": "Both", "output": dir, "workingDirectory": dir }), |_| {
            exists(&created)
        })
        .await;
    let sln = dir.join("Classic.sln");
    let created = sln.clone();
    runner
        .note("sln")
        .effect(
            "dotnet_solution",
            "Create",
            json!({ "name": "Classic", "output": dir, "workingDirectory": dir, "format": "sln" }),
            |_| exists(&created),
        )
        .await;
    let app = new_project(runner, &dir, "console", "App").await;
    let lib = new_project(runner, &dir, "classlib", "Lib").await;
    let app_file = app.clone();
    runner
        .note("app to lib")
        .effect("dotnet_package", "AddReference", json!({ "project": app, "referencePath": lib }), |_| {
            file_contains(&app_file, "Lib.csproj")
        })
        .await;
    runner.as_the_cli_would(
        &app,
        &console_project_file(&tfm(runner)).replace(
            "</Project>",
            "  <ItemGroup>\n    <ProjectReference Include=\"..\\Lib\\Lib.csproj\" />\n  </ItemGroup>\n\n</Project>",
        ),
    );
    for (solution, note, text) in [
        (
            &slnx,
            "slnx",
            "<Solution>\n  <Project Path=\"App/App.csproj\" />\n  <Project Path=\"Lib/Lib.csproj\" />\n</Solution>\n",
        ),
        (&sln, "sln", CLASSIC_SLN),
    ] {
        let s = json!(solution);
        let file = solution.to_path_buf();
        runner
            .note(note)
            .effect("dotnet_solution", "Add", json!({ "solution": s, "projects": [app, lib] }), |_| {
                file_contains(&file, "App.csproj").and(file_contains(&file, "Lib.csproj"))
            })
            .await;
        runner.as_the_cli_would(solution, text);
        runner
            .note(note)
            .call("dotnet_solution", "List", json!({ "solution": s }), |result| {
                let text = result.to_string();
                contains(&text, "App.csproj").and(contains(&text, "Lib.csproj"))
            })
            .await;
        runner
            .note(note)
            .call("dotnet_solution", "Dependencies", json!({ "solution": s }), |result| {
                if real { contains(&structured(result)["edges"].to_string(), "Lib") } else { Ok(()) }
            })
            .await;
        runner.note(note).ok("dotnet_solution", "Analyze", json!({ "solution": s })).await;
        runner.note(note).ok("dotnet_solution", "Validate", json!({ "solution": s })).await;
    }
    // Migrate: Classic.sln written again as Classic.slnx beside it, listing the same projects.
    let migrated = dir.join("Classic.slnx");
    let written = migrated.clone();
    runner
        .call("dotnet_solution", "Migrate", json!({ "solution": sln }), |result| {
            let read_back = json!(["App/App.csproj", "Lib/Lib.csproj"]);
            let slnx = structured(result)["slnx"].as_str().unwrap_or_default().to_owned();
            let named = match Path::new(&slnx).canonicalize().ok() == written.canonicalize().ok() || !real {
                true if slnx.ends_with("/Classic.slnx") => Ok(()),
                _ => Err(format!("slnx is {slnx:?}, the SDK wrote {}", written.display())),
            };
            named.and(field(result, "/replaced", json!(false))).and(if real {
                field(result, "/projects", read_back)
                    .and(file_contains(&written, "<Project Path=\"App/App.csproj\" />"))
                    .and(file_contains(&written, "<Project Path=\"Lib/Lib.csproj\" />"))
            } else {
                Ok(())
            })
        })
        .await;
    runner.as_the_cli_would(
        &migrated,
        "<Solution>\n  <Project Path=\"App/App.csproj\" />\n  <Project Path=\"Lib/Lib.csproj\" />\n</Solution>\n",
    );
    // The SDK would overwrite the .slnx without a word: refused unless asked, then replaced.
    runner
        .note("slnx exists")
        .answer("dotnet_solution", "Migrate", json!({ "solution": sln }), |result| {
            error_with(result, "INVALID_PARAMS", Some("overwrite"))
        })
        .await;
    runner
        .note("overwrite")
        .call("dotnet_solution", "Migrate", json!({ "solution": sln, "overwrite": true }), |result| {
            field(result, "/replaced", json!(true)).and(exists(&migrated))
        })
        .await;
    runner
        .note("slnx given")
        .answer("dotnet_solution", "Migrate", json!({ "solution": slnx }), |result| {
            error_with(result, "INVALID_PARAMS", Some("solution"))
        })
        .await;
    let app_dll = dir.join("App/bin/Debug").join(tfm(runner)).join("App.dll");
    let lib_dll = dir.join("Lib/bin/Debug").join(tfm(runner)).join("Lib.dll");
    runner
        .note("slnx")
        .call("dotnet_project", "Build", json!({ "project": slnx }), |result| {
            field(result, "/success", json!(true)).and(if real {
                exists(&app_dll).and(exists(&lib_dll))
            } else {
                Ok(())
            })
        })
        .await;
    let listed = slnx.clone();
    runner
        .note("slnx")
        .effect("dotnet_solution", "Remove", json!({ "solution": slnx, "projects": [lib] }), |_| {
            file_lacks(&listed, "Lib.csproj").and(file_contains(&listed, "App.csproj"))
        })
        .await;
}

/// What `dotnet sln Classic.sln add App Lib` writes (for the double, which writes nothing).
const CLASSIC_SLN: &str = "\u{feff}\nMicrosoft Visual Studio Solution File, Format Version 12.00\n# Visual Studio Version 17\n\
Project(\"{FAE04EC0-301F-11D3-BF4B-00C04F79EFBC}\") = \"App\", \"App\\App.csproj\", \"{11111111-1111-1111-1111-111111111111}\"\nEndProject\n\
Project(\"{FAE04EC0-301F-11D3-BF4B-00C04F79EFBC}\") = \"Lib\", \"Lib\\Lib.csproj\", \"{22222222-2222-2222-2222-222222222222}\"\nEndProject\n\
Global\nEndGlobal\n";

/// A file-based app (`app.cs`, SDK 10): run, built and published without a project file, then
/// converted into a project.
async fn file_based_app(runner: &mut Runner) {
    let dir = runner.workspace("file-app");
    let real = runner.real();
    let app = dir.join("app.cs");
    // Published without native AOT (a file-based app's default), which would take far longer.
    write(
        &app,
        "#:property Nullable=enable\n#:property PublishAot=false\n\nConsole.WriteLine($\"Hello from a file-based app, {args.Length} argument(s)\");\n",
    );
    runner
        .call("dotnet_project", "Run", json!({ "project": app, "workingDirectory": dir }), |result| {
            if real { contains(&result.to_string(), "Hello from a file-based app, 0 argument(s)") } else { Ok(()) }
        })
        .await;
    runner
        .call("dotnet_project", "Build", json!({ "project": app, "workingDirectory": dir }), |result| {
            field(result, "/success", json!(true))
        })
        .await;
    let published = dir.join("artifacts/app/app.dll");
    runner
        .effect("dotnet_project", "Publish", json!({ "project": app, "workingDirectory": dir }), |_| exists(&published))
        .await;
    let converted = dir.join("app/app.csproj");
    runner
        .effect("dotnet_project", "Convert", json!({ "project": app, "workingDirectory": dir }), |result| {
            exists(&converted).and(field(result, "/projectFile", json!(converted.display().to_string())))
        })
        .await;
    runner
        .note("missing file")
        .fails(
            "dotnet_project",
            "Convert",
            json!({ "project": dir.join("missing.cs"), "workingDirectory": dir }),
            "must exist",
        )
        .await;
}

/// The manifest `dotnet new tool-manifest` writes (SDK 10.0.1xx and later: in the folder itself;
/// before: in `.config`).
fn tool_manifest(dir: &Path) -> PathBuf {
    [dir.join("dotnet-tools.json"), dir.join(".config/dotnet-tools.json")]
        .into_iter()
        .find(|path| path.exists())
        .unwrap_or_else(|| dir.join(".config/dotnet-tools.json"))
}

/// A local tool manifest with a tool installed, updated, run, restored and uninstalled, and a
/// tool package run once without an install (SDK 10's `tool exec`); then
/// dotnet-ef from it, on an EF Core project over SQLite whose DbContext logs to stdout:
/// migrations, database, DbContext.
async fn tool_manifest_and_ef(runner: &mut Runner) {
    let dir = runner.workspace("tools");
    let real = runner.real();
    let here = json!(dir);
    let root = dir.clone();
    runner
        .effect("dotnet_tool", "CreateManifest", json!({ "workingDirectory": dir }), |result| {
            // The manifest the tool reports is the one the SDK wrote.
            let reported = structured(result)["manifest"].as_str().unwrap_or_default().to_owned();
            let written = tool_manifest(&root);
            if written.exists() && Path::new(&reported) == written {
                Ok(())
            } else {
                Err(format!("reported manifest {reported:?}; the SDK wrote {}", written.display()))
            }
        })
        .await;
    runner.as_the_cli_would(
        &dir.join("dotnet-tools.json"),
        "{\n  \"version\": 1,\n  \"isRoot\": true,\n  \"tools\": {}\n}\n",
    );
    let manifest = tool_manifest(&dir);
    let file = manifest.clone();
    runner
        .effect(
            "dotnet_tool",
            "Install",
            json!({ "workingDirectory": here, "packageId": "csharpier", "version": "1.1.2" }),
            |_| file_contains(&file, "\"csharpier\"").and(file_contains(&file, "\"1.1.2\"")),
        )
        .await;
    let by_hand = if real { runner.dotnet_by_hand(&dir, &["tool", "list", "--local"]).1 } else { String::new() };
    runner
        .call("dotnet_tool", "List", json!({ "workingDirectory": here }), |result| {
            let text = result.to_string();
            contains(&text, "csharpier").and(if real {
                contains(&by_hand, "1.1.2").and(contains(&text, "1.1.2"))
            } else {
                Ok(())
            })
        })
        .await;
    // The newest csharpier the mirror serves (1.3.0 or later), as the manifest then says.
    let updated = |manifest: &Path| -> Option<String> {
        let text = std::fs::read_to_string(manifest).ok()?;
        let json: Value = serde_json::from_str(&text).ok()?;
        json["tools"]["csharpier"]["version"].as_str().map(str::to_owned)
    };
    runner
        .effect("dotnet_tool", "Update", json!({ "workingDirectory": here, "packageId": "csharpier" }), |result| {
            match updated(&file) {
                Some(version) if version != "1.1.2" => contains(&result.to_string(), &version),
                version => Err(format!("the manifest holds csharpier {version:?}")),
            }
        })
        .await;
    let version = updated(&manifest).unwrap_or_default();
    runner
        .call(
            "dotnet_tool",
            "Run",
            json!({ "workingDirectory": here, "toolName": "csharpier", "args": ["--version"] }),
            |result| {
                if real { contains(&result.to_string(), &version) } else { Ok(()) }
            },
        )
        .await;
    // SDK 10's one-shot tools: a package run without an install (`--yes`), and one no feed has.
    runner
        .call(
            "dotnet_tool",
            "Exec",
            json!({ "workingDirectory": here, "packageId": "csharpier", "version": "1.1.2", "args": ["--version"] }),
            // It runs 1.1.2 and leaves the manifest's (updated) csharpier alone.
            |result| {
                contains(&result.to_string(), "1.1.2").and(if real { file_lacks(&file, "\"1.1.2\"") } else { Ok(()) })
            },
        )
        .await;
    runner
        .fails(
            "dotnet_tool",
            "Exec",
            json!({ "workingDirectory": here, "packageId": "no-such-tool-xyz" }),
            "is not found in NuGet feeds",
        )
        .await;
    runner.ok("dotnet_tool", "Restore", json!({ "workingDirectory": here })).await;
    runner
        .effect("dotnet_tool", "Uninstall", json!({ "workingDirectory": here, "packageId": "csharpier" }), |_| {
            file_lacks(&file, "csharpier")
        })
        .await;
    runner
        .not_possible_here(
            "dotnet_tool",
            "Search",
            json!({ "searchTerm": "csharpier", "take": 5 }),
            "dotnet tool search asks the public NuGet feed's search service itself, which this machine does not reach",
        )
        .await;

    // EF Core: a console app with a DbContext over SQLite that logs to stdout (its own line and
    // EF's log), so EF's JSON output is mixed with the app's.
    let project = new_project(runner, &dir, "console", "Data").await;
    let p = json!(project);
    if real {
        std::fs::write(dir.join("Data/Model.cs"), EF_MODEL).unwrap();
    }
    let ef = |extra: Value| {
        let mut args =
            json!({ "project": project, "workingDirectory": project.parent().unwrap(), "context": "BloggingContext" });
        for (key, value) in extra.as_object().unwrap() {
            args[key] = value.clone();
        }
        args
    };
    runner
        .note("before dotnet-ef is installed")
        .replayed_under("no-ef")
        .answer("dotnet_ef", "MigrationsList", ef(json!({})), |result| {
            if real {
                contains(&result.to_string(), "dotnet-ef").and(if result["isError"] == true {
                    Ok(())
                } else {
                    Err("succeeded".into())
                })
            } else {
                Ok(())
            }
        })
        .await;
    let file = manifest.clone();
    runner
        .note("dotnet-ef")
        .effect(
            "dotnet_tool",
            "Install",
            json!({ "workingDirectory": here, "packageId": "dotnet-ef", "version": "10.0.15" }),
            |_| file_contains(&file, "\"dotnet-ef\""),
        )
        .await;
    for package in ["Microsoft.EntityFrameworkCore.Sqlite", "Microsoft.EntityFrameworkCore.Design"] {
        runner
            .note(package)
            .ok("dotnet_package", "Add", json!({ "project": p, "packageId": package, "version": "10.0.15" }))
            .await;
    }
    let migrations = dir.join("Data/Migrations");
    runner.effect("dotnet_ef", "MigrationsAdd", ef(json!({ "name": "Initial" })), |_| exists(&migrations)).await;
    // This build compiles the new migration; the calls after it need none (noBuild), which
    // saves a build each.
    runner
        .call("dotnet_ef", "MigrationsList", ef(json!({})), |r| {
            if real { contains(&structured(r)["migrations"].to_string(), "Initial") } else { Ok(()) }
        })
        .await;
    let built = json!({ "noBuild": true });
    runner
        .call("dotnet_ef", "MigrationsScript", ef(built.clone()), |r| {
            // The SQL alone: the app's start-up line is not part of it.
            contains(&structured(r)["script"].to_string(), "CREATE TABLE").and(
                match structured(r)["script"].to_string().contains("BloggingContext starting") {
                    true => Err("the app's log line is in the script".into()),
                    false => Ok(()),
                },
            )
        })
        .await;
    let database = dir.join("Data/blogging.db");
    runner.effect("dotnet_ef", "DatabaseUpdate", ef(built.clone()), |_| exists(&database)).await;
    runner
        .call(
            "dotnet_ef",
            "DbContextList",
            json!({ "project": project, "workingDirectory": dir.join("Data"), "noBuild": true }),
            |r| contains(&r.to_string(), "BloggingContext"),
        )
        .await;
    runner
        .call("dotnet_ef", "DbContextInfo", ef(built.clone()), |r| {
            if real { contains(&structured(r).to_string(), "Sqlite") } else { Ok(()) }
        })
        .await;
    let scaffolded = dir.join("Data/Scaffolded");
    runner
        .effect(
            "dotnet_ef",
            "DbContextScaffold",
            json!({
                "project": project,
                "workingDirectory": dir.join("Data"),
                "connection": format!("Data Source={}", database.display()),
                "provider": "Microsoft.EntityFrameworkCore.Sqlite",
                "outputDir": "Scaffolded",
                "context": "ScaffoldedContext",
                "force": true,
                "noBuild": true,
            }),
            |_| exists(&scaffolded.join("ScaffoldedContext.cs")),
        )
        .await;
    runner
        .note("dry run")
        .call("dotnet_ef", "DatabaseDrop", ef(json!({ "dryRun": true, "noBuild": true })), |r| {
            field(r, "/database", json!("main")).and(field(r, "/dropped", json!(false)))
        })
        .await;
    let dropped = database.clone();
    runner
        .effect("dotnet_ef", "DatabaseDrop", ef(built.clone()), |_| {
            if dropped.exists() { Err("the database is still there".into()) } else { Ok(()) }
        })
        .await;
    let migrations_dir = migrations.clone();
    runner
        .effect("dotnet_ef", "MigrationsRemove", ef(built), |_| {
            let left = std::fs::read_dir(&migrations_dir)
                .map(|entries| entries.flatten().any(|e| e.file_name().to_string_lossy().contains("Initial")))
                .unwrap_or(false);
            if left { Err("the migration's files are still there".into()) } else { Ok(()) }
        })
        .await;
}

/// An EF Core model over SQLite whose DbContext logs to stdout when it is made, in the shape of
/// Serilog's console sink (`[12:00:00 INF] ...`), and sends EF's own log there too.
const EF_MODEL: &str = "using Microsoft.EntityFrameworkCore;\n\nnamespace Data;\n\npublic class Blog\n{\n    \
    public int Id { get; set; }\n    public string Title { get; set; } = \"\";\n}\n\npublic class BloggingContext : DbContext\n{\n    \
    public BloggingContext() => Console.WriteLine(\"[12:00:00 INF] BloggingContext starting\");\n\n    \
    public DbSet<Blog> Blogs => Set<Blog>();\n\n    protected override void OnConfiguring(DbContextOptionsBuilder options) =>\n        \
    options.UseSqlite(\"Data Source=blogging.db\").LogTo(Console.WriteLine, Microsoft.Extensions.Logging.LogLevel.Information);\n}\n";

/// User secrets of a console app, and the HTTPS development certificate on this headless Linux.
async fn user_secrets_and_certificates(runner: &mut Runner) {
    let dir = runner.workspace("secrets");
    let real = runner.real();
    let project = new_project(runner, &dir, "console", "Secrets").await;
    let p = json!(project);
    let file = project.clone();
    runner
        .effect("dotnet_dev_certs", "SecretsInit", json!({ "project": p }), |_| file_contains(&file, "<UserSecretsId>"))
        .await;
    const VALUE: &str = "scenario-secret-4711";
    runner.ok("dotnet_dev_certs", "SecretsSet", json!({ "project": p, "key": "Movies:ApiKey", "value": VALUE })).await;
    let by_hand = if real {
        runner.dotnet_by_hand(&dir, &["user-secrets", "list", "--project", "Secrets/Secrets.csproj"]).1
    } else {
        String::new()
    };
    runner
        .call("dotnet_dev_certs", "SecretsList", json!({ "project": p }), |result| {
            let text = result.to_string();
            if text.contains(VALUE) {
                Err("the secret's value appears in the answer".to_owned())
            } else if real {
                contains(&text, "Movies:ApiKey").and(contains(&by_hand, VALUE))
            } else {
                Ok(())
            }
        })
        .await;
    let secrets_of = |runner: &Runner| {
        if real {
            runner.dotnet_by_hand(&dir, &["user-secrets", "list", "--project", "Secrets/Secrets.csproj"]).1
        } else {
            String::new()
        }
    };
    runner
        .ok("dotnet_dev_certs", "SecretsSet", json!({ "project": p, "key": "Other", "value": "kept-until-clear" }))
        .await;
    runner.ok("dotnet_dev_certs", "SecretsRemove", json!({ "project": p, "key": "Movies:ApiKey" })).await;
    let left = secrets_of(runner);
    if real && (left.contains("Movies:ApiKey") || !left.contains("Other")) {
        runner.note("by hand after Remove").record_failure(
            "dotnet_dev_certs",
            "SecretsRemove",
            &format!("user-secrets list now says: {left}"),
        );
    }
    runner.ok("dotnet_dev_certs", "SecretsClear", json!({ "project": p })).await;
    let left = secrets_of(runner);
    if real && !left.contains("No secrets configured") {
        runner.note("by hand after Clear").record_failure(
            "dotnet_dev_certs",
            "SecretsClear",
            &format!("user-secrets list now says: {left}"),
        );
    }

    let certificate = dir.join("localhost.pem");
    let exported = certificate.clone();
    runner
        .effect(
            "dotnet_dev_certs",
            "CertificateExport",
            json!({ "path": certificate, "format": "pem", "noPassword": true, "workingDirectory": dir }),
            |_| file_contains(&exported, "-----BEGIN CERTIFICATE-----"),
        )
        .await;
    // SDK 10's machine-readable check: the certificate just made, not trusted yet.
    let by_hand = if real { runner.dotnet_by_hand(&dir, &["dev-certs", "https", "--check"]).1 } else { String::new() };
    runner
        .call("dotnet_dev_certs", "CertificateCheck", json!({}), |result| {
            let thumbprint =
                structured(result)["certificates"][0]["thumbprint"].as_str().unwrap_or("(none)").to_owned();
            field(result, "/valid", json!(true))
                .and(field(result, "/trusted", json!(false)))
                .and(field(result, "/trustLevel", json!("None")))
                .and(field(result, "/certificates/0/trustLevel", json!("None")))
                .and(if real { contains(&by_hand, &thumbprint) } else { Ok(()) })
        })
        .await;
    // A headless Linux trusts partly (exit 4): a result with the SDK's SSL_CERT_DIR remedy.
    runner.call("dotnet_dev_certs", "CertificateTrust", json!({}), trusted_as_reported).await;
    // Against the double this replays the first check's recording (same command): checked on the
    // real SDK only.
    runner
        .note("after a partial trust")
        .effect("dotnet_dev_certs", "CertificateCheck", json!({}), trusted_as_reported)
        .await;
    runner.ok("dotnet_dev_certs", "CertificateClean", json!({})).await;
    let (code, _) =
        if real { runner.dotnet_by_hand(&dir, &["dev-certs", "https", "--check"]) } else { (6, String::new()) };
    if code == 0 {
        runner.note("by hand after Clean").record_failure(
            "dotnet_dev_certs",
            "CertificateClean",
            "dev-certs https --check still finds a certificate",
        );
    }
}

/// A certificate trust as CertificateTrust and CertificateCheck report it: Partial (not
/// `trusted`, with the SSL_CERT_DIR remedy) on a headless Linux, Full (`trusted`) where
/// SSL_CERT_DIR already lists the SDK's trust folder.
fn trusted_as_reported(result: &Value) -> Check {
    let fields = structured(result);
    match fields["trustLevel"].as_str() {
        Some("Full") => field(result, "/trusted", json!(true)),
        Some("Partial") => field(result, "/trusted", json!(false))
            .and(contains(fields["remedy"].as_str().unwrap_or_default(), "SSL_CERT_DIR")),
        _ => Err(format!("trustLevel is {}", fields["trustLevel"])),
    }
}

/// Workloads: what is installed and available; installing, updating and uninstalling need
/// workload packs this machine's NuGet mirror does not serve.
async fn workloads(runner: &mut Runner) {
    runner.workspace("workloads");
    let real = runner.real();
    // `dotnet workload list` by hand: the rows of its table, between the dashes and the hint.
    let by_hand = if real { runner.dotnet_by_hand(&runner.root_dir(), &["workload", "list"]).1 } else { String::new() };
    let installed = by_hand
        .lines()
        .skip_while(|line| !line.starts_with("---"))
        .skip(1)
        .take_while(|line| !line.starts_with("Use `dotnet workload search`"))
        .filter(|line| !line.trim().is_empty())
        .count();
    runner
        .call("dotnet_workload", "List", json!({}), |result| {
            let listed = structured(result)["workloads"].as_array().map(Vec::len).unwrap_or_default();
            if !real || listed == installed {
                Ok(())
            } else {
                Err(format!("{listed} listed, {installed} installed: {by_hand}"))
            }
        })
        .await;
    runner
        .call("dotnet_workload", "Info", json!({}), |result| {
            if real { contains(&result.to_string(), "10.0.400-manifests") } else { Ok(()) }
        })
        .await;
    runner
        .call("dotnet_workload", "Search", json!({ "searchTerm": "wasm" }), |result| {
            contains(&result.to_string(), "wasm-tools")
        })
        .await;
    // With none installed, an update finds nothing to do (it asks the NuGet source for the
    // feature band's workload manifests, which the mirror answers).
    runner
        .call("dotnet_workload", "Update", json!({}), |result| {
            if real { contains(&result.to_string(), "No workload update found") } else { Ok(()) }
        })
        .await;
    let reason = "workload packs are not served by this machine's NuGet mirror";
    runner.not_possible_here("dotnet_workload", "Install", json!({ "workloadIds": ["wasm-tools"] }), reason).await;
    runner
        .note("not installed")
        .answer("dotnet_workload", "Uninstall", json!({ "workloadIds": ["wasm-tools"] }), |result| {
            if result["isError"] == true || !real {
                contains(&result.to_string(), "wasm-tools")
            } else {
                Err("succeeded".into())
            }
        })
        .await;
}

/// The session id a background Run or Watch returned (empty when it failed, so that the calls
/// after it fail too, visibly).
fn session_id(result: Option<&Value>) -> String {
    result.and_then(|result| result["structuredContent"]["sessionId"].as_str()).unwrap_or_default().to_owned()
}

/// What the real `dotnet` prints on stdout for `args`.
pub fn dotnet(args: &[&str]) -> String {
    let output = std::process::Command::new("dotnet").args(args).output().expect("dotnet is on PATH");
    String::from_utf8_lossy(&output.stdout).into_owned()
}
