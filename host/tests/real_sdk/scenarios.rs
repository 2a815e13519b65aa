//! The scenarios: each builds a small workspace with the tools themselves and plays the actions
//! that belong there. Together they call every action of every dotnet tool at least once.
//!
//! Checks of what the CLI writes (a project file, a package reference, a nupkg) apply against
//! the real SDK only; against the double, `Runner::as_the_cli_would` writes those files instead,
//! so that the steps after them (which read and edit them) have something to work on.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::{Check, Runner, text_of};

/// Plays every scenario in turn.
pub async fn play(runner: &mut Runner) {
    sdk_and_host(runner).await;
    console_project(runner).await;
    class_library(runner).await;
    test_project(runner).await;
    solution(runner).await;
    tool_manifest_and_ef(runner).await;
    user_secrets_and_certificates(runner).await;
    workloads(runner).await;
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

/// The SDK itself, templates, global.json, help and the server's capabilities.
async fn sdk_and_host(runner: &mut Runner) {
    let dir = runner.workspace("sdk");
    let real = runner.real();
    let expected_version = if real { dotnet(&["--version"]).trim().to_owned() } else { String::new() };
    let version = runner
        .call("dotnet_sdk", "Version", json!({}), |result| {
            let version = result["structuredContent"]["version"].as_str().unwrap_or_default();
            match version.split('.').next().map(str::parse::<u32>) {
                Some(Ok(_)) if !real || version == expected_version => Ok(()),
                _ => Err(format!("version {version:?}, expected {expected_version:?}")),
            }
        })
        .await;
    runner.sdk_version = version
        .and_then(|result| result["structuredContent"]["version"].as_str().map(str::to_owned))
        .unwrap_or_else(|| "10.0.100".to_owned());
    let sdk_version = runner.sdk_version.clone();
    runner.call("dotnet_sdk", "Info", json!({}), |result| contains(&text_of(result), &sdk_version)).await;
    let listed = if real { dotnet(&["--list-sdks"]).lines().filter(|line| !line.trim().is_empty()).count() } else { 0 };
    runner
        .call("dotnet_sdk", "ListSdks", json!({}), |result| {
            let sdks = result["structuredContent"]["sdks"].as_array().map(Vec::len).unwrap_or_default();
            if sdks > 0 && (!real || sdks == listed) {
                Ok(())
            } else {
                Err(format!("{sdks} SDKs listed, {listed} installed"))
            }
        })
        .await;
    runner
        .call("dotnet_sdk", "ListRuntimes", json!({}), |result| {
            match result["structuredContent"]["runtimes"].as_array() {
                Some(runtimes) if !runtimes.is_empty() => Ok(()),
                _ => Err("no runtime listed".to_owned()),
            }
        })
        .await;
    runner
        .call("dotnet_sdk", "ListTemplates", json!({ "filter": "console" }), |result| {
            contains(&text_of(result), "console")
        })
        .await;
    runner.ok("dotnet_sdk", "TemplateInfo", json!({ "templateShortName": "console" })).await;
    runner.ok("dotnet_sdk", "ListTemplatePacks", json!({})).await;
    let tfm = tfm(runner);
    runner
        .call("dotnet_sdk", "FrameworkInfo", json!({ "framework": tfm }), |result| contains(&text_of(result), &tfm))
        .await;
    runner
        .beyond_nuget(
            "dotnet_sdk",
            "SearchTemplates",
            json!({ "searchTerm": "nunit" }),
            "dotnet new search downloads its search cache from Microsoft's CDN, not from NuGet",
        )
        .await;
    // A template pack on NuGet that the double lists as installed too.
    runner.ok("dotnet_sdk", "InstallTemplatePack", json!({ "templatePackage": "Avalonia.Templates" })).await;
    runner.ok("dotnet_sdk", "UninstallTemplatePack", json!({ "templatePackage": "Avalonia.Templates" })).await;
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
        .call("dotnet_help", "", json!({ "command": "build" }), |result| contains(&text_of(result), "--configuration"))
        .await;
    runner
        .call("dotnet_server_capabilities", "", json!({}), |result| {
            if result["structuredContent"]["dotnet"]["sdkInstalled"] == true {
                Ok(())
            } else {
                Err("sdkInstalled is not true".to_owned())
            }
        })
        .await;
}

/// A console app: create, build, run (in the foreground and in the background), watch, format,
/// publish, clean; evaluate and edit its project file; a broken build's diagnostics.
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
    runner
        .call("dotnet_project", "Build", json!({ "project": p }), |result| {
            let structured = &result["structuredContent"];
            if structured["success"] == true && structured["errorCount"] == 0 {
                Ok(())
            } else {
                Err("success is not true or errorCount is not 0".to_owned())
            }
        })
        .await;
    runner
        .call("dotnet_project", "Run", json!({ "project": p }), |result| contains(&result.to_string(), "Hello, World!"))
        .await;

    let started = runner.ok("dotnet_project", "Run", json!({ "project": p, "startMode": "Background" })).await;
    let session = session_id(started.as_ref());
    runner.ok("dotnet_project", "Logs", json!({ "sessionId": session })).await;
    let listed = session.clone();
    runner.call("dotnet_project", "ListSessions", json!({}), |result| contains(&result.to_string(), &listed)).await;
    runner.ok("dotnet_project", "Stop", json!({ "sessionId": session })).await;
    let watching = runner.ok("dotnet_project", "Watch", json!({ "project": p, "watchAction": "build" })).await;
    runner.ok("dotnet_project", "Stop", json!({ "sessionId": session_id(watching.as_ref()) })).await;

    runner.ok("dotnet_project", "Format", json!({ "project": p, "verify": true })).await;
    let publish = dir.join("publish");
    let published = publish.join("App.dll");
    runner
        .effect("dotnet_project", "Publish", json!({ "project": p, "output": publish }), |_| exists(&published))
        .await;
    runner.ok("dotnet_project", "Clean", json!({ "project": p })).await;

    runner.ok("dotnet_project", "Analyze", json!({ "project": p })).await;
    runner.ok("dotnet_project", "Dependencies", json!({ "project": p })).await;
    runner.ok("dotnet_project", "Validate", json!({ "project": p })).await;
    let tfm = tfm(runner);
    runner
        .effect("dotnet_project", "GetProperty", json!({ "project": p, "propertyName": "TargetFramework" }), |result| {
            contains(&text_of(result), &tfm)
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
    runner.ok("dotnet_project", "ListItems", json!({ "project": p, "itemType": "None" })).await;
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
        runner.fails("dotnet_project", "Build", json!({ "project": p }), "CS0103").await;
    } else {
        runner.skip(
            "dotnet_project",
            "Build",
            "the double compiles nothing: a broken build's diagnostics come from its build-fail scenario \
             (host/tests/dotnet.rs)",
        );
    }
}

/// A class library with a package reference and a project reference, packed.
async fn class_library(runner: &mut Runner) {
    let dir = runner.workspace("library");
    let project = new_project(runner, &dir, "classlib", "Lib").await;
    let util = new_project(runner, &dir, "classlib", "Util").await;
    let p = json!(project);
    let file = project.clone();
    runner
        .effect(
            "dotnet_package",
            "Add",
            json!({ "project": p, "packageId": "Newtonsoft.Json", "version": "13.0.1" }),
            |_| file_contains(&file, "Newtonsoft.Json"),
        )
        .await;
    runner
        .call("dotnet_package", "List", json!({ "project": p }), |r| contains(&r.to_string(), "Newtonsoft.Json"))
        .await;
    runner
        .effect("dotnet_package", "Update", json!({ "project": p, "packageId": "Newtonsoft.Json" }), |_| {
            file_lacks(&file, "13.0.1")
        })
        .await;
    runner
        .call("dotnet_package", "Search", json!({ "searchTerm": "Newtonsoft.Json", "take": 5 }), |r| {
            contains(&r.to_string(), "Newtonsoft.Json")
        })
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
    runner.ok("dotnet_package", "ListReferences", json!({ "project": p })).await;
    runner
        .effect("dotnet_package", "RemoveReference", json!({ "project": p, "referencePath": util }), |_| {
            file_lacks(&file, "Util.csproj")
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

/// A test project: its tests listed, then run.
async fn test_project(runner: &mut Runner) {
    let dir = runner.workspace("tests");
    let project = new_project(runner, &dir, "xunit", "Tests").await;
    runner
        .call("dotnet_project", "Test", json!({ "project": project, "listTests": true }), |r| {
            contains(&text_of(r), "Test")
        })
        .await;
    runner
        .call("dotnet_project", "Test", json!({ "project": project }), |result| {
            let structured = &result["structuredContent"];
            match (structured["passed"].as_u64(), structured["failed"].as_u64()) {
                (Some(passed), Some(0)) if passed > 0 => Ok(()),
                _ => Err("expected passed tests and none failed".to_owned()),
            }
        })
        .await;
}

/// A solution with a console app and a class library: created, filled, listed, analysed, built,
/// and a project removed again.
async fn solution(runner: &mut Runner) {
    let dir = runner.workspace("solution");
    runner.ok("dotnet_solution", "Create", json!({ "name": "Both", "output": dir, "workingDirectory": dir })).await;
    let app = new_project(runner, &dir, "console", "App").await;
    let lib = new_project(runner, &dir, "classlib", "Lib").await;
    let solution_file = ["Both.slnx", "Both.sln"].iter().map(|name| dir.join(name)).find(|path| path.exists());
    let solution_file = solution_file.unwrap_or_else(|| dir.join("Both.slnx"));
    let s = json!(solution_file);
    runner.ok("dotnet_solution", "Add", json!({ "solution": s, "projects": [app, lib] })).await;
    runner.as_the_cli_would(
        &solution_file,
        "<Solution>\n  <Project Path=\"App/App.csproj\" />\n  <Project Path=\"Lib/Lib.csproj\" />\n</Solution>\n",
    );
    runner
        .call("dotnet_solution", "List", json!({ "solution": s }), |result| {
            let text = result.to_string();
            contains(&text, "App.csproj").and(contains(&text, "Lib.csproj"))
        })
        .await;
    runner.ok("dotnet_solution", "Analyze", json!({ "solution": s })).await;
    runner.ok("dotnet_solution", "Dependencies", json!({ "solution": s })).await;
    runner.ok("dotnet_solution", "Validate", json!({ "solution": s })).await;
    runner.ok("dotnet_project", "Build", json!({ "project": s })).await;
    let listed = solution_file.clone();
    runner
        .effect("dotnet_solution", "Remove", json!({ "solution": s, "projects": [lib] }), |_| {
            file_lacks(&listed, "Lib.csproj")
        })
        .await;
}

/// A local tool manifest with a tool installed, updated, run, restored and uninstalled; then
/// dotnet-ef from it, on an EF Core project over SQLite: migrations, database, DbContext.
async fn tool_manifest_and_ef(runner: &mut Runner) {
    let dir = runner.workspace("tools");
    let real = runner.real();
    let manifest = dir.join(".config/dotnet-tools.json");
    let written = manifest.clone();
    runner.effect("dotnet_tool", "CreateManifest", json!({ "workingDirectory": dir }), |_| exists(&written)).await;
    runner.as_the_cli_would(&manifest, "{\n  \"version\": 1,\n  \"isRoot\": true,\n  \"tools\": {}\n}\n");
    let here = json!(dir);
    runner
        .ok(
            "dotnet_tool",
            "Install",
            json!({ "workingDirectory": here, "packageId": "csharpier", "version": "0.30.6" }),
        )
        .await;
    runner
        .call("dotnet_tool", "List", json!({ "workingDirectory": here }), |r| contains(&r.to_string(), "csharpier"))
        .await;
    runner.ok("dotnet_tool", "Update", json!({ "workingDirectory": here, "packageId": "csharpier" })).await;
    runner
        .ok("dotnet_tool", "Run", json!({ "workingDirectory": here, "toolName": "csharpier", "args": ["--version"] }))
        .await;
    runner.ok("dotnet_tool", "Restore", json!({ "workingDirectory": here })).await;
    runner.ok("dotnet_tool", "Uninstall", json!({ "workingDirectory": here, "packageId": "csharpier" })).await;
    runner
        .beyond_nuget(
            "dotnet_tool",
            "Search",
            json!({ "searchTerm": "csharpier", "take": 5 }),
            "dotnet tool search asks nuget.org's search service itself and takes no other source",
        )
        .await;

    // EF Core: dotnet-ef as a local tool, a console app with a DbContext over SQLite.
    // The newest EF Core of the SDK's major version (NuGet's floating versions); the double knows
    // exact versions only, so it gets the one its catalog has.
    let major = runner.sdk_version.split('.').next().unwrap_or("10").to_owned();
    let range = if real { format!("{major}.*") } else { format!("{major}.0.0") };
    runner
        .ok("dotnet_tool", "Install", json!({ "workingDirectory": here, "packageId": "dotnet-ef", "version": range }))
        .await;
    let project = new_project(runner, &dir, "console", "Data").await;
    let p = json!(project);
    for package in ["Microsoft.EntityFrameworkCore.Sqlite", "Microsoft.EntityFrameworkCore.Design"] {
        runner.ok("dotnet_package", "Add", json!({ "project": p, "packageId": package, "version": range })).await;
    }
    std::fs::write(
        dir.join("Data/Model.cs"),
        "using Microsoft.EntityFrameworkCore;\n\nnamespace Data;\n\npublic class Blog\n{\n    public int Id { get; set; }\n    \
         public string Title { get; set; } = \"\";\n}\n\npublic class BloggingContext : DbContext\n{\n    \
         public DbSet<Blog> Blogs => Set<Blog>();\n\n    protected override void OnConfiguring(DbContextOptionsBuilder options) =>\n        \
         options.UseSqlite(\"Data Source=blogging.db\");\n}\n",
    )
    .unwrap();
    let ef = |extra: Value| {
        let mut args =
            json!({ "project": project, "workingDirectory": project.parent().unwrap(), "context": "BloggingContext" });
        for (key, value) in extra.as_object().unwrap() {
            args[key] = value.clone();
        }
        args
    };
    let migrations = dir.join("Data/Migrations");
    runner.effect("dotnet_ef", "MigrationsAdd", ef(json!({ "name": "Initial" })), |_| exists(&migrations)).await;
    runner.call("dotnet_ef", "MigrationsList", ef(json!({})), |r| contains(&r.to_string(), "Initial")).await;
    runner
        .call("dotnet_ef", "MigrationsScript", ef(json!({ "idempotent": true })), |r| {
            contains(&r.to_string(), "CREATE TABLE")
        })
        .await;
    let database = dir.join("Data/blogging.db");
    runner.effect("dotnet_ef", "DatabaseUpdate", ef(json!({})), |_| exists(&database)).await;
    runner
        .effect(
            "dotnet_ef",
            "DbContextList",
            json!({ "project": project, "workingDirectory": dir.join("Data") }),
            |r| contains(&r.to_string(), "BloggingContext"),
        )
        .await;
    runner.ok("dotnet_ef", "DbContextInfo", ef(json!({}))).await;
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
            }),
            |_| exists(&scaffolded),
        )
        .await;
    runner.ok("dotnet_ef", "DatabaseDrop", ef(json!({ "dryRun": true }))).await;
    runner.ok("dotnet_ef", "DatabaseDrop", ef(json!({}))).await;
    runner.ok("dotnet_ef", "MigrationsRemove", ef(json!({}))).await;
}

/// User secrets of a console app, and the HTTPS development certificate.
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
    runner
        .call("dotnet_dev_certs", "SecretsList", json!({ "project": p }), |result| {
            let text = result.to_string();
            if text.contains(VALUE) {
                Err("the secret's value appears in the answer".to_owned())
            } else if real {
                contains(&text, "Movies:ApiKey")
            } else {
                Ok(())
            }
        })
        .await;
    runner.ok("dotnet_dev_certs", "SecretsRemove", json!({ "project": p, "key": "Movies:ApiKey" })).await;
    runner.ok("dotnet_dev_certs", "SecretsClear", json!({ "project": p })).await;

    let certificate = dir.join("localhost.pem");
    let exported = certificate.clone();
    runner
        .effect(
            "dotnet_dev_certs",
            "CertificateExport",
            json!({ "path": certificate, "format": "pem", "noPassword": true, "workingDirectory": dir }),
            |_| exists(&exported),
        )
        .await;
    runner.ok("dotnet_dev_certs", "CertificateCheck", json!({})).await;
    runner.ok("dotnet_dev_certs", "CertificateTrust", json!({})).await;
    runner.ok("dotnet_dev_certs", "CertificateClean", json!({})).await;
}

/// Workloads: what is installed and available; installing one is left to the double.
async fn workloads(runner: &mut Runner) {
    runner.ok("dotnet_workload", "List", json!({})).await;
    runner.ok("dotnet_workload", "Info", json!({})).await;
    runner.ok("dotnet_workload", "Search", json!({ "searchTerm": "wasm" })).await;
    let reason = "installs a workload: downloads its packs and changes the SDK's own folder";
    runner.beyond_nuget("dotnet_workload", "Install", json!({ "workloadIds": ["wasm-tools"] }), reason).await;
    runner.beyond_nuget("dotnet_workload", "Update", json!({}), reason).await;
    runner.beyond_nuget("dotnet_workload", "Uninstall", json!({ "workloadIds": ["wasm-tools"] }), reason).await;
}

/// The session id a background Run or Watch returned (empty when it failed, so that the calls
/// after it fail too, visibly).
fn session_id(result: Option<&Value>) -> String {
    result.and_then(|result| result["structuredContent"]["sessionId"].as_str()).unwrap_or_default().to_owned()
}

/// What the real `dotnet` prints on stdout for `args`.
fn dotnet(args: &[&str]) -> String {
    let output = std::process::Command::new("dotnet").args(args).output().expect("dotnet is on PATH");
    String::from_utf8_lossy(&output.stdout).into_owned()
}
