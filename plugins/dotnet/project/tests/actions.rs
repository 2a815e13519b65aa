//! Every action of `dotnet_project`, run in process through the tool against the dotnet test
//! double: the exact argument vector, the parsed results, every error category the tool
//! produces, cancellation and timeouts that leave no process behind, locks, redaction,
//! background sessions and read-only service. The test kit checks every result against the
//! advertised schemas, as the host does.
#![cfg(target_os = "linux")]

use std::{
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

use dotnet_support::testkit::{assert_dies, code, is_dead, parameter, strings};
use mcp_plugin_api::{Tool, testkit::TestCall};
use serde_json::{Value, json};

/// Generous bound for things that happen in well under a second.
const BOUND: Duration = Duration::from_secs(30);

mod common;

use common::{Fixture, PROJECT, fixture_with};

fn fixture() -> Fixture {
    fixture_with(|double| double)
}

/// A path inside the scratch folder.
fn at(fx: &Fixture, relative: &str) -> PathBuf {
    fx.path().join(relative)
}

/// The canonical path of the project file.
fn app(fx: &Fixture) -> String {
    at(fx, "App/App.csproj").canonicalize().unwrap().display().to_string()
}

/// An argument vector from words separated by single spaces (for arguments without spaces).
fn words(line: &str) -> Vec<String> {
    line.split(' ').map(str::to_owned).collect()
}

/// Waits until `ready` holds.
fn wait_for(what: &str, mut ready: impl FnMut() -> bool) {
    let deadline = Instant::now() + BOUND;
    while !ready() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The `i` of a `Worker running (i/n)` tick line.
fn tick_number(text: &str) -> Option<u64> {
    text.split("Worker running (").nth(1)?.split('/').next()?.parse().ok()
}

fn child_pid(text: &str) -> u32 {
    text.lines()
        .find_map(|line| line.split("double-child-pid: ").nth(1))
        .and_then(|pid| pid.trim().parse().ok())
        .unwrap_or_else(|| panic!("no double-child-pid line in:\n{text}"))
}

/// The PID the double's PID file holds, if it holds one yet.
fn pid_in(path: &Path) -> Option<u32> {
    std::fs::read_to_string(path).ok()?.trim().parse().ok()
}

fn read_pid(path: &Path) -> u32 {
    wait_for("the PID file", || pid_in(path).is_some());
    pid_in(path).unwrap()
}

/// Waits until the double's PID file names the background session's process `pid` (from the
/// start's answer): a background start runs `dotnet --version` first, whose double writes the
/// file too, and the session's double writes it only once it runs, which on a loaded machine
/// can be well after the start has answered.
fn wait_for_session_pid(path: &Path, pid: &Value) -> u32 {
    let pid = u32::try_from(pid.as_u64().expect("the start's answer gives the session's pid")).unwrap();
    wait_for("the session's PID in the PID file", || pid_in(path) == Some(pid));
    pid
}

// --- the command-line actions ------------------------------------------------------------------

#[test]
fn new_passes_every_option_as_its_own_argument() {
    let fx = fixture();
    let structured = fx.ok(json!({
        "action": "New", "template": "console", "name": "My App", "output": "src/MyApp", "framework": "net10.0",
        "noRestore": true, "additionalOptions": ["--use-program-main", "--langVersion=preview"]
    }));
    assert_eq!(
        fx.only_argv(),
        strings(&[
            "new",
            "console",
            "-n",
            "My App",
            "-o",
            "src/MyApp",
            "-f",
            "net10.0",
            "--no-restore",
            "--use-program-main",
            "--langVersion=preview"
        ])
    );
    assert_eq!(structured["summary"], "The template \"Console App\" was created successfully.");
    assert_eq!(structured["template"], "console");
    assert_eq!(structured["lockInfo"]["lockScope"], "workingDirectory");
    assert_eq!(structured["lockInfo"]["lockKey"], at(&fx, "src/MyApp").display().to_string());
    assert!(structured["command"].as_str().unwrap().starts_with("dotnet new console -n \"My App\""));
    // A string of template options is split on whitespace.
    fx.double.clear_log();
    fx.ok(json!({ "action": "New", "template": "classlib", "additionalOptions": "--aot  --no-update-check" }));
    assert_eq!(fx.only_argv(), words("new classlib --aot --no-update-check"));
}

#[test]
fn new_whose_restore_failed_says_so_first() {
    // `dotnet new` exits 0 when the project was written but its restore failed.
    let fx = fixture_with(|double| double.scenario("restore-fail"));
    let result = fx.call(json!({ "action": "New", "template": "console", "output": "src/C1" }));
    assert!(!result.is_error);
    let summary = "The template \"Console App\" was created successfully. Post action failed. Manual instructions: \
                   Run 'dotnet restore'";
    assert_eq!(result.structured_content.clone().unwrap()["summary"], summary);
    assert!(result.joined_text().starts_with(summary), "{}", result.joined_text());
}

#[test]
fn new_with_an_unknown_template_points_to_the_template_search() {
    let fx = fixture();
    let structured = fx.err(json!({ "action": "New", "template": "nosuch" }));
    assert_eq!(structured["exitCode"], 103);
    assert_eq!(code(&structured), "EXIT_103");
    assert!(structured["errors"][0]["alternatives"].to_string().contains("SearchTemplates"));
    assert!(structured["lockInfo"]["lockKey"].is_string());
}

#[test]
fn restore_build_publish_pack_clean_and_format_argv() {
    let fx = fixture();
    let cases = [
        (
            json!({ "action": "Restore", "project": "App/App.csproj", "runtime": "linux-musl-arm64", "verbosity": "minimal", "source": "https://api.nuget.org/v3/index.json", "lockedMode": true, "configFile": "NuGet.config" }),
            words(
                "restore App/App.csproj -r linux-musl-arm64 -v minimal --source https://api.nuget.org/v3/index.json --locked-mode --configfile NuGet.config",
            ),
        ),
        (
            json!({ "action": "Build", "project": "App/App.csproj", "configuration": "Staging", "framework": "net10.0", "runtime": "browser-wasm", "noRestore": true, "verbosity": "q", "output": "out dir" }),
            strings(&[
                "build",
                "App/App.csproj",
                "-c",
                "Staging",
                "-f",
                "net10.0",
                "-r",
                "browser-wasm",
                "--no-restore",
                "-v",
                "q",
                "-o",
                "out dir",
            ]),
        ),
        (
            json!({ "action": "Publish", "project": "App/App.csproj", "configuration": "Release", "output": "pub", "runtime": "linux-x64", "framework": "net10.0", "noRestore": true, "noBuild": true, "selfContained": false, "arch": "x64", "os": "linux", "verbosity": "n" }),
            words(
                "publish App/App.csproj -c Release -o pub -f net10.0 -r linux-x64 --no-restore --no-build --self-contained false --arch x64 --os linux -v n",
            ),
        ),
        (
            json!({ "action": "Pack", "project": "App/App.csproj", "configuration": "Release", "output": "nupkgs", "includeSymbols": true, "includeSource": true, "noBuild": true, "noRestore": true, "verbosity": "m", "packageVersion": "1.2.3-beta.1" }),
            words(
                "pack App/App.csproj -c Release -o nupkgs --include-symbols --include-source --no-build --no-restore -v m -p:PackageVersion=1.2.3-beta.1",
            ),
        ),
        (
            json!({ "action": "Clean", "project": "App/App.csproj", "configuration": "Release", "framework": "net10.0", "runtime": "linux-x64", "output": "out", "verbosity": "d" }),
            words("clean App/App.csproj -c Release -f net10.0 -r linux-x64 -o out -v d"),
        ),
        (
            json!({ "action": "Format", "project": "App/App.csproj", "verify": true, "includeGenerated": true, "diagnostics": "IDE0005 CA1822", "severity": "warn", "verbosity": "diag" }),
            words(
                "format App/App.csproj --verify-no-changes --include-generated --diagnostics IDE0005 CA1822 --severity warn -v diag",
            ),
        ),
    ];
    for (args, expected) in cases {
        fx.double.clear_log();
        let structured = fx.ok(args.clone());
        assert_eq!(fx.only_argv(), expected, "{args}");
        assert_eq!(structured["lockInfo"]["lockKey"], app(&fx), "{args}");
        assert_eq!(structured["lockInfo"]["lockScope"], "project");
        assert_eq!(structured["exitCode"], 0);
    }
}

#[test]
fn publish_and_pack_report_what_they_produced() {
    let fx = fixture();
    let published = fx.ok(json!({ "action": "Publish", "project": "App/App.csproj", "runtime": "linux-x64" }));
    let outputs = published["outputs"].as_array().unwrap();
    assert_eq!(outputs.len(), 1);
    assert_eq!(outputs[0]["project"], "App");
    assert!(outputs[0]["path"].as_str().unwrap().ends_with("/bin/Release/net10.0/linux-x64/publish/"));
    let packed = fx.ok(
        json!({ "action": "Pack", "project": "App/App.csproj", "includeSymbols": true, "packageVersion": "2.0.0" }),
    );
    let packages: Vec<&str> = packed["packages"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    assert_eq!(packages.len(), 2);
    assert!(packages[0].ends_with("App.2.0.0.nupkg") && packages[1].ends_with("App.2.0.0.symbols.nupkg"));
    assert_eq!(packed["warningCount"], 2, "the build's warnings are reported");
}

#[test]
fn build_returns_the_build_result_with_progress_from_the_output() {
    let fx = fixture();
    let call = TestCall::new();
    let result = fx.call_with(&call, json!({ "action": "Build", "project": "App", "configuration": "Release" }));
    assert!(!result.is_error, "{}", result.joined_text());
    let structured = result.structured_content.clone().unwrap();
    assert_eq!(fx.only_argv(), words("build App -c Release"));
    assert_eq!(structured["success"], true);
    assert_eq!(structured["project"], "App");
    assert_eq!(structured["configuration"], "Release");
    assert_eq!((structured["errorCount"].as_u64(), structured["warningCount"].as_u64()), (Some(0), Some(2)));
    assert_eq!(structured["warnings"][0]["code"], "CS0168");
    assert_eq!(structured["warnings"][0]["line"], 12);
    assert_eq!(structured["summary"], "Build succeeded with 2 warnings.");
    assert_eq!(structured["lockInfo"]["lockKey"], app(&fx), "a folder locks as its one project");
    assert!(result.joined_text().starts_with("Build succeeded with 2 warnings."));
    assert!(result.joined_text().contains("CS0168"));
    // Where the assembly went, as the terminal's `App -> path` line says.
    let assembly = structured["outputs"][0]["path"].as_str().unwrap_or_default().to_owned();
    assert!(assembly.ends_with("/bin/Release/net10.0/App.dll"), "{structured}");
    assert_eq!(structured["outputs"][0]["project"], "App");
    assert!(result.joined_text().contains(&format!("\n\nOutputs:\n  App -> {assembly}")), "{}", result.joined_text());

    let call = TestCall::new();
    let progress = {
        let result = call.run(&fx.tool, json!({ "action": "Build", "project": "App/App.csproj" }));
        assert!(!result.is_error);
        call.progress()
    };
    let messages: Vec<String> = progress.iter().filter_map(|report| report.message.clone()).collect();
    assert!(messages.iter().any(|message| message.starts_with("built App")), "{messages:?}");
}

#[test]
fn a_failed_build_is_an_error_with_deduplicated_diagnostics_and_counts() {
    let fx = fixture_with(|double| double.scenario("build-fail"));
    let result = fx.call(json!({ "action": "Build", "project": "App/App.csproj" }));
    assert!(result.is_error);
    let structured = result.structured_content.clone().unwrap();
    assert_eq!(structured["success"], false);
    assert_eq!(structured["exitCode"], 1);
    // SDK 10.0.401's answer (replayed): one CS0103, printed during the build and in the summary.
    let errors = structured["errors"].as_array().unwrap();
    let codes: Vec<&str> = errors.iter().filter_map(|e| e["code"].as_str()).collect();
    assert_eq!(codes, ["CS0103"], "each error once, though MSBuild repeats it");
    assert_eq!(errors[0]["category"], "Compilation");
    assert!(errors[0]["explanation"].is_string());
    let message = errors[0]["message"].as_str().unwrap();
    assert!(message.contains("The name 'undefinedName' does not exist in the current context"), "{message}");
    assert!(errors[0]["rawOutput"].as_str().unwrap().contains("App/Program.cs(1,19): error CS0103"), "{}", errors[0]);
    assert_eq!((structured["errorCount"].as_u64(), structured["warningCount"].as_u64()), (Some(1), Some(0)));
    assert_eq!(structured["warnings"], json!([]));
    assert_eq!(structured["summary"], "Build failed with 1 error and 0 warnings.");
    assert_eq!(structured["lockInfo"]["lockKey"], app(&fx));
    assert!(result.joined_text().contains("CS0103"));
}

#[test]
fn a_failed_build_shows_its_warnings_beside_its_errors() {
    let fx = fixture_with(|double| double.scenario("build-fail"));
    // No recording has this configuration: the double's own failed build, with warnings.
    let result = fx.call(json!({ "action": "Build", "project": "App/App.csproj", "configuration": "Release" }));
    assert!(result.is_error);
    let structured = result.structured_content.clone().unwrap();
    let text = result.joined_text();
    let warnings = structured["warnings"].as_array().unwrap();
    assert!(!warnings.is_empty(), "{structured}");
    assert!(text.contains("\n\nWarnings:\n"), "{text}");
    for warning in warnings {
        let line = format!("{}: {}", warning["code"].as_str().unwrap(), warning["message"].as_str().unwrap());
        assert!(text.contains(&line), "{line} missing from:\n{text}");
    }
}

#[test]
fn a_run_whose_application_crashed_shows_the_end_of_its_output() {
    let fx = fixture_with(|double| double.scenario("app-crash"));
    let result = fx.call(json!({ "action": "Run", "project": "App/App.csproj" }));
    assert!(result.is_error);
    let structured = result.structured_content.clone().unwrap();
    assert_eq!((code(&structured), structured["exitCode"].as_i64()), ("EXIT_134", Some(134)), "{structured}");
    let text = result.joined_text();
    // The frame with the file and line, and what the application printed before it. The line on
    // stdout and the exception on stderr come through two pipes: only each stream's own order is
    // certain.
    let dir = app(&fx).trim_end_matches("/App.csproj").to_owned();
    let frame = format!("\n     at Program.<Main>$(String[] args) in {dir}/Program.cs:line 2");
    let (_, output) = text.split_once("\n\nOutput (its end):\n").unwrap_or_else(|| panic!("{text}"));
    assert!(output.lines().any(|line| line == "  starting"), "{text}");
    let exception = output.find("  Unhandled exception. System.InvalidOperationException: boom");
    assert!(exception.is_some_and(|at| output.find(&frame).is_some_and(|frame_at| at < frame_at)), "{text}");
    // Its hint points at the application's code, not at the arguments and the SDK.
    let hint = structured["errors"][0]["hint"].as_str().unwrap();
    assert!(hint.starts_with("The application built, then failed") && hint.contains("debugger"), "{hint}");
    assert!(text.contains(hint), "{text}");
    assert!(!text.contains("the installed SDK"), "{text}");
    // A run that failed to build keeps its own error.
    let fx = fixture_with(|double| double.scenario("build-fail"));
    let structured = fx.err(json!({ "action": "Run", "project": "App/App.csproj" }));
    assert!(!structured["errors"][0]["hint"].as_str().unwrap_or_default().contains("debugger"), "{structured}");
}

#[test]
fn run_in_the_foreground_passes_app_arguments_after_the_separator() {
    let fx = fixture();
    let structured = fx.ok(json!({
        "action": "Run", "project": "App/App.csproj", "configuration": "Release", "framework": "net10.0",
        "noRestore": true, "appArgs": ["--port", "5000", "two words"]
    }));
    assert_eq!(
        fx.only_argv(),
        strings(&[
            "run",
            "--project",
            "App/App.csproj",
            "-c",
            "Release",
            "-f",
            "net10.0",
            "--no-restore",
            "--",
            "--port",
            "5000",
            "two words"
        ])
    );
    assert!(structured["output"].as_str().unwrap().contains("Hello, World!"));
    assert_eq!(structured["lockInfo"]["lockKey"], app(&fx));
    fx.double.clear_log();
    fx.ok(json!({ "action": "Run", "noBuild": true, "appArgs": "a b" }));
    assert_eq!(fx.only_argv(), words("run --no-build -- a b"));
}

#[test]
fn a_file_based_app_runs_with_file_and_converts_into_a_project() {
    let fx = fixture();
    std::fs::create_dir_all(at(&fx, "file-app")).unwrap();
    std::fs::write(at(&fx, "file-app/app.cs"), "Console.WriteLine(\"hi\");\n").unwrap();
    // SDK 10 reads `--project app.cs` as a project file (MSB4025); the double replays what
    // 10.0.401 printed for `run --file app.cs`.
    let ran = fx.ok(json!({ "action": "Run", "project": "file-app/app.cs" }));
    assert_eq!(fx.only_argv(), words("run --file file-app/app.cs"));
    assert!(ran["output"].as_str().unwrap().contains("Hello from a file-based app, 0 argument(s)"), "{ran}");

    fx.double.clear_log();
    // 10.0.401 prints nothing on success (replayed); the project file is where it writes it.
    let converted = fx.ok(json!({ "action": "Convert", "project": "file-app/app.cs" }));
    assert_eq!(fx.only_argv(), words("project convert file-app/app.cs"));
    let project_file = at(&fx, "file-app").canonicalize().unwrap().join("app/app.csproj");
    assert_eq!(converted["projectFile"], project_file.display().to_string());
    assert!(converted["summary"].as_str().unwrap().starts_with("Converted file-app/app.cs"));
    // The options (no recording holds them: only the argument vector is checked).
    fx.double.clear_log();
    fx.call(json!({ "action": "Convert", "project": "file-app/app.cs", "output": "out", "force": true, "deleteSource": true }));
    assert_eq!(fx.only_argv(), words("project convert file-app/app.cs -o out --force --delete-source"));

    // Convert takes a file-based app only, checked before dotnet runs.
    fx.double.clear_log();
    let refused = fx.err(json!({ "action": "Convert", "project": "App/App.csproj" }));
    assert_eq!((code(&refused), parameter(&refused)), ("INVALID_PARAMS", "project"));
    assert_eq!(fx.runs(), 0);

    let watch = fx.ok(json!({ "action": "Watch", "project": "file-app/app.cs", "watchAction": "build" }));
    let session = watch["sessionId"].as_str().unwrap().to_owned();
    assert!(watch["command"].as_str().unwrap().starts_with("dotnet watch --file file-app/app.cs build"), "{watch}");
    fx.ok(json!({ "action": "Stop", "sessionId": session }));
}

// --- tests ----------------------------------------------------------------------------------------

#[test]
fn vstest_counts_are_summed_over_every_assembly_of_a_solution() {
    let fx = fixture_with(|double| double.scenario("test-fail"));
    std::fs::write(at(&fx, "Shop.sln"), "").unwrap();
    let structured = fx.err(json!({ "action": "Test", "project": "Shop.sln" }));
    let solution = at(&fx, "Shop.sln").canonicalize().unwrap().display().to_string();
    let invocation = fx.double.invocations().pop().unwrap();
    assert_eq!(invocation.argv, strings(&["test", &solution]));
    assert_eq!(invocation.cwd, fx.path().canonicalize().unwrap());
    assert_eq!((structured["passed"].as_u64(), structured["failed"].as_u64()), (Some(58), Some(2)));
    assert_eq!((structured["skipped"].as_u64(), structured["total"].as_u64()), (Some(1), Some(61)));
    assert_eq!(structured["durationMs"], 5000);
    assert_eq!(structured["assemblies"].as_array().unwrap().len(), 2);
    assert_eq!(structured["failures"][0]["testName"], "App.Tests.CalculatorTests.Divide_ByZero_Throws");
    assert!(structured["failures"][1]["message"].as_str().unwrap().contains("Assert.False() Failure"));
    let error = &structured["errors"][0];
    assert_eq!(error["code"], "EXIT_1");
    assert!(error["message"].as_str().unwrap().starts_with("2 of 61 tests failed (58 passed, 1 skipped)"));
    // The model reads each failing test's whole message and where it failed in the user's code.
    let text = fx.call(json!({ "action": "Test", "project": "Shop.sln" })).joined_text();
    // Under its class, named once.
    assert!(text.contains("\n  App.Tests.CalculatorTests:\n    Divide_ByZero_Throws: "), "{text}");
    let line =
        text.lines().find(|line| line.starts_with("    Divide_ByZero_Throws: ")).unwrap_or_else(|| panic!("{text}"));
    assert!(
        line.contains(
            "Assert.Throws() Failure: No exception was thrown; Expected: typeof(System.DivideByZeroException) (at "
        ) && line.ends_with("CalculatorTests.cs:27)"),
        "{text}"
    );
    assert_eq!(structured["metadata"]["selectedTestRunner"], "vstest");
    assert_eq!(structured["metadata"]["projectArgumentStyle"], "positional");
    assert_eq!(structured["metadata"]["selectionSource"], "default");
    assert_eq!(structured["lockInfo"]["lockScope"], "solution");
    // A failed run names its skipped tests and its build's warnings too.
    assert_eq!(structured["skippedTests"], json!(["App.Tests.Integration.DatabaseTests.Migrations_ApplyCleanly"]));
    assert_eq!(structured["warnings"][0]["code"], "CS0168", "{structured}");
    assert!(
        text.contains("\n\nSkipped tests:\n  App.Tests.Integration.DatabaseTests: Migrations_ApplyCleanly"),
        "{text}"
    );
    assert!(text.contains("\n\nWarnings:\n") && text.contains("CS0168: The variable 'ex'"), "{text}");
}

#[test]
fn a_test_run_names_its_skipped_tests_and_its_build_warnings() {
    let fx = fixture();
    let result = fx.call(json!({ "action": "Test", "project": "App/App.csproj" }));
    assert!(!result.is_error, "{result:?}");
    let structured = result.structured_content.clone().unwrap();
    assert_eq!(structured["skipped"], 1);
    assert_eq!(structured["skippedTests"], json!(["App.Integration.DatabaseTests.Migrations_ApplyCleanly"]));
    let codes: Vec<&str> =
        structured["warnings"].as_array().unwrap().iter().map(|w| w["code"].as_str().unwrap()).collect();
    assert_eq!(codes, ["CS0168", "CS8618"], "{structured}");
    let text = result.joined_text();
    assert!(text.contains("\n\nSkipped tests:\n  App.Integration.DatabaseTests: Migrations_ApplyCleanly\n"), "{text}");
    assert!(
        text.contains("\n\nWarnings:\n") && text.contains("CS8618: Non-nullable property 'CustomerName'"),
        "{text}"
    );
}

#[test]
fn vstest_options_and_runner_metadata() {
    let fx = fixture();
    let structured = fx.ok(json!({
        "action": "Test", "project": "App/App.csproj", "configuration": "Debug", "framework": "net10.0",
        "filter": "Category=Unit&Priority!=2", "collect": "XPlat Code Coverage", "resultsDirectory": "results",
        "logger": "trx;LogFileName=out.trx", "noBuild": true, "noRestore": true, "verbosity": "minimal", "blame": true
    }));
    let results = at(&fx, "results").display().to_string();
    assert_eq!(
        fx.only_argv(),
        strings(&[
            "test",
            &app(&fx),
            "-c",
            "Debug",
            "-f",
            "net10.0",
            "--filter",
            "Category=Unit&Priority!=2",
            "--collect",
            "XPlat Code Coverage",
            "--results-directory",
            &results,
            "--logger",
            "trx;LogFileName=out.trx",
            "--no-build",
            "--no-restore",
            "-v",
            "minimal",
            "--blame"
        ])
    );
    assert_eq!(
        (structured["passed"].as_u64(), structured["failed"].as_u64(), structured["total"].as_u64()),
        (Some(42), Some(0), Some(43))
    );
    assert_eq!(structured["metadata"]["selectedTestRunner"], "vstest");
    assert_eq!(structured["summary"], "43 tests: 42 passed, 0 failed, 1 skipped in 1 test run (4.0 s).");
    // With an explicit working directory, the project stays as given.
    fx.double.clear_log();
    fx.ok(json!({ "action": "Test", "project": "App/App.csproj", "workingDirectory": ".", "listTests": true }));
    assert_eq!(fx.only_argv(), words("test App/App.csproj --list-tests"));
}

#[test]
fn microsoft_testing_platform_from_global_json_uses_project_and_its_options() {
    let fx = fixture();
    std::fs::write(at(&fx, "global.json"), r#"{ "test": { "runner": "Microsoft.Testing.Platform" } }"#).unwrap();
    let structured =
        fx.ok(json!({ "action": "Test", "project": "App/App.csproj", "logger": "trx", "collect": "Code Coverage" }));
    assert_eq!(fx.only_argv(), strings(&["test", "--project", &app(&fx), "--coverage", "--report-trx"]));
    assert_eq!(structured["metadata"]["selectedTestRunner"], "microsoft-testing-platform");
    assert_eq!(structured["metadata"]["projectArgumentStyle"], "--project");
    assert_eq!(structured["metadata"]["selectionSource"], "global.json");
    assert_eq!(
        (structured["passed"].as_u64(), structured["skipped"].as_u64(), structured["total"].as_u64()),
        (Some(42), Some(1), Some(43))
    );
    assert_eq!(structured["durationMs"], 4210);
    // VSTest-only options are refused under MTP, and an explicit runner wins over global.json.
    let refused = fx.err(json!({ "action": "Test", "project": "App/App.csproj", "blame": true }));
    assert_eq!(parameter(&refused), "blame");
    fx.double.clear_log();
    let forced = fx.ok(json!({ "action": "Test", "project": "App/App.csproj", "testRunner": "VSTest" }));
    assert_eq!(fx.only_argv(), strings(&["test", &app(&fx)]));
    assert_eq!(forced["metadata"]["selectionSource"], "testRunner-parameter");
}

#[test]
fn failing_mtp_tests_carry_the_runner_metadata_in_the_envelope() {
    let fx = fixture_with(|double| double.scenario("test-fail").env("DOTNET_DOUBLE_TEST_RUNNER", "mtp"));
    let structured =
        fx.err(json!({ "action": "Test", "project": "App/App.csproj", "testRunner": "MicrosoftTestingPlatform" }));
    assert_eq!(structured["metadata"]["selectedTestRunner"], "microsoft-testing-platform");
    assert_eq!((structured["failed"].as_u64(), structured["passed"].as_u64()), (Some(2), Some(40)));
    assert_eq!(structured["failures"].as_array().unwrap().len(), 2);
    assert!(structured["failures"][0]["stackTrace"].as_str().unwrap().contains("CalculatorTests.cs:line 27"));
}

#[test]
fn forcing_a_runner_the_sdk_does_not_use_fails_with_its_metadata() {
    let fx = fixture();
    let structured =
        fx.err(json!({ "action": "Test", "project": "App/App.csproj", "testRunner": "MicrosoftTestingPlatform" }));
    assert_eq!(code(&structured), "MSB1001");
    assert_eq!(structured["metadata"]["selectedTestRunner"], "microsoft-testing-platform");
    assert_eq!(structured["metadata"]["selectionSource"], "testRunner-parameter");
}

/// A scratch folder whose global.json selects Microsoft.Testing.Platform, holding the real-SDK
/// scenario's `Calc.Tests` and `More.Tests` in `Mtp.slnx`: the double replays what SDK 10.0.401
/// printed for them (`recordings/tests`).
fn mtp_fixture(scenario: &str) -> Fixture {
    let scenario = scenario.to_owned();
    Fixture::with(move |dir, double| {
        std::fs::write(dir.join("global.json"), r#"{ "test": { "runner": "Microsoft.Testing.Platform" } }"#).unwrap();
        for project in ["Calc.Tests", "More.Tests"] {
            std::fs::create_dir_all(dir.join(project)).unwrap();
            std::fs::write(dir.join(format!("{project}/{project}.csproj")), PROJECT).unwrap();
        }
        std::fs::write(dir.join("Mtp.slnx"), "<Solution />\n").unwrap();
        if scenario.is_empty() { double } else { double.scenario(&scenario) }
    })
}

#[test]
fn recorded_mtp_failure_has_its_message_and_frames() {
    let fx = mtp_fixture("test-fail");
    let structured = fx.err(json!({ "action": "Test", "project": "Calc.Tests/Calc.Tests.csproj" }));
    let calc = at(&fx, "Calc.Tests/Calc.Tests.csproj").canonicalize().unwrap().display().to_string();
    assert_eq!(fx.only_argv(), strings(&["test", "--project", &calc]));
    assert_eq!(
        (structured["passed"].as_u64(), structured["failed"].as_u64(), structured["skipped"].as_u64()),
        (Some(1), Some(1), Some(1))
    );
    assert_eq!(structured["total"], 3);
    let failure = &structured["failures"][0];
    assert_eq!(failure["testName"], "Tests.CalculatorTests.Divides");
    assert_eq!(failure["message"], "Assert.Equal() Failure: Values differ\nExpected: 3\nActual:   4");
    let frames: Vec<&str> = failure["stackTrace"].as_str().unwrap().lines().collect();
    assert_eq!(frames.len(), 3, "{frames:?}");
    assert!(
        frames[0].starts_with("at Tests.CalculatorTests.Divides() in ") && frames[0].ends_with("CalculatorTests.cs:11")
    );
    assert!(frames[2].starts_with("at System.Reflection.MethodBaseInvoker.InvokeWithNoArgs"));
    assert_eq!(structured["failures"].as_array().unwrap().len(), 1, "the skipped test is no failure");
    assert_eq!(structured["skippedTests"], json!(["Tests.CalculatorTests.Subtracts"]));
    assert_eq!(structured["exitCode"], 2);
    assert!(structured["errors"][0]["message"].as_str().unwrap().starts_with("1 of 3 tests failed"));
}

#[test]
fn recorded_mtp_solution_of_two_sums_the_run_summary() {
    let fx = mtp_fixture("test-fail");
    let structured = fx.err(json!({ "action": "Test", "project": "Mtp.slnx" }));
    let solution = at(&fx, "Mtp.slnx").canonicalize().unwrap().display().to_string();
    assert_eq!(fx.only_argv(), strings(&["test", "--solution", &solution]));
    assert_eq!(structured["metadata"]["projectArgumentStyle"], "--solution");
    assert_eq!(
        (structured["passed"].as_u64(), structured["failed"].as_u64(), structured["skipped"].as_u64()),
        (Some(2), Some(1), Some(1))
    );
    assert_eq!(structured["total"], 4);
    let assemblies = structured["assemblies"].as_array().unwrap();
    assert_eq!(assemblies.len(), 1, "one run summary");
    let name = assemblies[0]["name"].as_str().unwrap();
    assert!(name.contains("More.Tests.dll (net10.0|x64)") && name.contains("Calc.Tests.dll (net10.0|x64)"), "{name}");
    assert_eq!(structured["failures"][0]["testName"], "Tests.CalculatorTests.Divides");
}

#[test]
fn recorded_mtp_listing_names_the_tests() {
    let fx = mtp_fixture("");
    let structured = fx.ok(json!({ "action": "Test", "project": "Calc.Tests/Calc.Tests.csproj", "listTests": true }));
    assert_eq!(
        structured["tests"],
        json!(["Tests.CalculatorTests.Adds", "Tests.CalculatorTests.Divides", "Tests.CalculatorTests.Subtracts"])
    );
    assert_eq!(structured["summary"], "3 tests found.");
}

#[test]
fn listed_tests_are_returned() {
    let fx = fixture();
    let structured = fx.ok(json!({ "action": "Test", "project": "App/App.csproj", "listTests": true }));
    assert_eq!(structured["tests"].as_array().unwrap().len(), 4);
    assert_eq!(structured["total"], 0);
}

// --- evaluation and template options ---------------------------------------------------------------

#[test]
fn analyze_dependencies_and_validate_ask_the_sdk() {
    let fx = fixture();
    let analysis = fx.ok(json!({ "action": "Analyze", "project": "App" }));
    let mut expected = vec!["msbuild".to_owned(), app(&fx)];
    expected.extend(
        [
            "TargetFramework",
            "TargetFrameworks",
            "OutputType",
            "AssemblyName",
            "RootNamespace",
            "Nullable",
            "ImplicitUsings",
            "LangVersion",
            "IsPackable",
            "IsTestProject",
            "PublishAot",
            "InvariantGlobalization",
            "PublishTrimmed",
            "PublishSingleFile",
            "PublishReadyToRun",
            "SelfContained",
            "RuntimeIdentifier",
            "RuntimeIdentifiers",
            "Configuration",
            "Platform",
            "TreatWarningsAsErrors",
            "WarningLevel",
        ]
        .map(|name| format!("-getProperty:{name}")),
    );
    expected.extend(["-getItem:PackageReference", "-getItem:ProjectReference", "-getItem:Analyzer"].map(str::to_owned));
    assert_eq!(fx.only_argv(), expected);
    // What SDK 10.0.401 evaluated for a fresh console app (the double replays the recording).
    assert_eq!(analysis["sdk"], "Microsoft.NET.Sdk");
    assert_eq!(analysis["targetFrameworks"], json!(["net10.0"]));
    assert_eq!(analysis["outputType"], "Exe");
    assert_eq!((analysis["langVersion"].as_str(), analysis["nullable"].as_str()), (Some("14.0"), Some("enable")));
    assert_eq!(analysis["isPackable"], true);
    assert_eq!(analysis["packageReferences"], json!([]));
    assert_eq!(analysis["projectReferences"], json!([]));
    let analyzers = analysis["analyzers"].to_string();
    assert!(analyzers.contains("Microsoft.CodeAnalysis.CSharp.NetAnalyzers"), "{analyzers}");

    fx.double.clear_log();
    let dependencies =
        fx.ok(json!({ "action": "Dependencies", "projectPath": "App/App.csproj", "configuration": "Release" }));
    assert_eq!(
        fx.only_argv(),
        strings(&[
            "msbuild",
            &app(&fx),
            "-getProperty:TargetFramework",
            "-getProperty:TargetFrameworks",
            "-getProperty:ManagePackageVersionsCentrally",
            "-getItem:PackageReference",
            "-getItem:ProjectReference",
            "-p:Configuration=Release"
        ])
    );
    assert_eq!(dependencies["totalDirectDependencies"], 3);

    fx.double.clear_log();
    let validation = fx.ok(json!({ "action": "Validate", "project": "App/App.csproj", "framework": "net10.0" }));
    assert_eq!(fx.only_argv().last().unwrap(), "-p:TargetFramework=net10.0");
    assert_eq!(validation["isValid"], true);
}

#[test]
fn get_property_and_list_items() {
    let fx = fixture();
    let property =
        fx.ok(json!({ "action": "GetProperty", "project": "App/App.csproj", "propertyName": "TargetFramework" }));
    assert_eq!(fx.only_argv(), strings(&["msbuild", &app(&fx), "-getProperty:TargetFramework"]));
    assert_eq!((property["propertyValue"].as_str(), property["isSet"].as_bool()), (Some("net10.0"), Some(true)));
    let unset =
        fx.ok(json!({ "action": "GetProperty", "project": "App/App.csproj", "propertyName": "NoSuchProperty" }));
    assert_eq!(unset["isSet"], false);

    fx.double.clear_log();
    let compile = fx.ok(json!({ "action": "ListItems", "project": "App/App.csproj", "itemType": "Compile" }));
    assert_eq!(fx.only_argv(), strings(&["msbuild", &app(&fx), "-getItem:Compile"]));
    assert_eq!(compile["count"], 2);
    assert_eq!(compile["items"][0]["include"], "Program.cs");
    assert_eq!(compile["items"][0]["metadata"], json!({}));

    fx.double.clear_log();
    let all = fx.ok(json!({ "action": "ListItems", "project": "App" }));
    let types = ["Compile", "PackageReference", "ProjectReference", "Content", "None", "EmbeddedResource", "Using"];
    let mut expected = vec!["msbuild".to_owned(), app(&fx)];
    expected.extend(types.map(|name| format!("-getItem:{name}")));
    assert_eq!(fx.only_argv(), expected);
    assert_eq!(all["count"], 5);
    assert_eq!(all["items"][2]["metadata"]["Version"], "9.0.0");
}

#[test]
fn template_options_are_parsed() {
    let fx = fixture();
    let structured = fx.ok(json!({ "action": "ListTemplateOptions", "template": "console" }));
    assert_eq!(fx.only_argv(), words("new console --help"));
    let options: Vec<&str> =
        structured["options"].as_array().unwrap().iter().filter_map(|o| o["option"].as_str()).collect();
    assert!(options.contains(&"--framework") && options.contains(&"--use-program-main"), "{options:?}");
    let unknown = fx.err(json!({ "action": "ListTemplateOptions", "template": "nosuch" }));
    assert_eq!(unknown["exitCode"], 103);
}

// --- project file edits -----------------------------------------------------------------------------

#[test]
fn property_and_item_edits_keep_the_file_as_written_and_run_no_dotnet() {
    let fx = fixture();
    let file = at(&fx, "App/App.csproj");
    let set = fx.ok(json!({ "action": "SetProperty", "project": "App/App.csproj", "propertyName": "TargetFramework", "propertyValue": "net8.0" }));
    assert_eq!((set["changed"].as_bool(), set["previousValue"].as_str()), (Some(true), Some("net10.0")));
    assert_eq!(set["lockInfo"]["lockKey"], app(&fx));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), PROJECT.replace("net10.0", "net8.0"));

    let added =
        fx.ok(json!({ "action": "SetProperty", "project": "App", "propertyName": "LangVersion", "propertyValue": "" }));
    assert_eq!(added["changed"], true);
    let removed =
        fx.ok(json!({ "action": "RemoveProperty", "project": "App/App.csproj", "propertyName": "langversion" }));
    assert_eq!(removed["removed"], 1);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), PROJECT.replace("net10.0", "net8.0"));

    let item = fx.ok(json!({ "action": "AddItem", "project": "App/App.csproj", "itemType": "PackageReference", "include": "Polly", "metadata": { "Version": "8.4.0" } }));
    assert_eq!(item["changed"], true);
    let expected = PROJECT.replace("net10.0", "net8.0").replace(
        "Version=\"13.0.3\" />\n",
        "Version=\"13.0.3\" />\n    <PackageReference Include=\"Polly\" Version=\"8.4.0\" />\n",
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), expected);
    let again = fx.ok(
        json!({ "action": "AddItem", "project": "App/App.csproj", "itemType": "PackageReference", "include": "polly" }),
    );
    assert_eq!(again["changed"], false);
    let gone = fx.ok(json!({ "action": "RemoveItem", "project": "App/App.csproj", "itemType": "PackageReference", "include": "Polly" }));
    assert_eq!(gone["removed"], 1);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), PROJECT.replace("net10.0", "net8.0"));
    assert!(fx.argvs().is_empty(), "edits run no dotnet");
}

#[test]
fn edits_refuse_bad_names_broken_files_and_solutions() {
    let fx = fixture();
    let bad = fx.err(
        json!({ "action": "SetProperty", "project": "App/App.csproj", "propertyName": "a.b", "propertyValue": "x" }),
    );
    assert_eq!(parameter(&bad), "propertyName");
    let missing = fx.err(json!({ "action": "SetProperty", "project": "App/App.csproj", "propertyName": "A" }));
    assert_eq!(missing["errors"][0]["data"]["additionalData"]["reason"], "required");
    std::fs::write(at(&fx, "Shop.sln"), "").unwrap();
    let solution =
        fx.err(json!({ "action": "AddItem", "project": "Shop.sln", "itemType": "None", "include": "a.txt" }));
    assert_eq!(code(&solution), "INVALID_PARAMS");
    std::fs::write(at(&fx, "App/App.csproj"), "<Project><PropertyGroup></Project>").unwrap();
    let broken = fx.err(json!({ "action": "RemoveProperty", "project": "App/App.csproj", "propertyName": "A" }));
    assert_eq!((code(&broken), broken["errors"][0]["category"].as_str()), ("MSB4025", Some("Build")));
    assert!(broken["lockInfo"].is_object());
}

// --- validation and environment errors -----------------------------------------------------------

#[test]
fn invalid_parameters_are_refused_before_anything_runs() {
    let fx = fixture();
    // The tool's own checks, also of arguments the host's schema check refuses first.
    let refused = |args: Value| {
        let result = fx.call_with(&TestCall::new().unchecked(), args.clone());
        assert!(result.is_error, "{args} succeeded: {}", result.joined_text());
        result.structured_content.unwrap()
    };
    let unknown = refused(json!({ "action": "Deploy" }));
    assert!(unknown["errors"][0]["message"].as_str().unwrap().contains("New, Restore, Build"));
    assert_eq!(unknown["errors"][0]["mcpErrorCode"], -32602);
    for (args, parameter, reason) in [
        (json!({ "action": "New" }), "template", "required"),
        (json!({ "action": "New", "template": "console", "name": "--force" }), "name", "invalid characters"),
        (
            json!({ "action": "New", "template": "console", "additionalOptions": ["--output=/etc"] }),
            "additionalOptions[0]",
            "invalid characters",
        ),
        (json!({ "action": "Build", "filter": "x" }), "filter", "not applicable"),
        (json!({ "action": "Build", "project": "notes.txt" }), "project", "invalid value"),
        (json!({ "action": "Build", "framework": "java17" }), "framework", "invalid value"),
        (json!({ "action": "Build", "workingDirectory": "nope" }), "workingDirectory", "not found"),
        (json!({ "action": "Pack", "packageVersion": "1.0;Foo=bar" }), "packageVersion", "invalid value"),
        (json!({ "action": "Run", "appArgs": ["a\nb"] }), "appArgs[0]", "invalid characters"),
        (json!({ "action": "Watch", "startMode": "Foreground" }), "startMode", "invalid value"),
        (json!({ "action": "Watch", "watchAction": "build", "filter": "x" }), "filter", "not applicable"),
        (json!({ "action": "Logs", "sessionId": "nope" }), "sessionId", "not found"),
        (json!({ "action": "Logs" }), "sessionId", "required"),
        (json!({ "action": "Test", "testRunner": "NUnit" }), "testRunner", "invalid value"),
        (
            json!({ "action": "Build", "project": "App/App.csproj", "projectPath": "Other.csproj" }),
            "projectPath",
            "conflict",
        ),
        (json!({ "action": "GetProperty", "propertyName": "A", "project": "Nowhere" }), "project", "not found"),
    ] {
        let structured = refused(args.clone());
        let data = &structured["errors"][0]["data"]["additionalData"];
        assert_eq!((data["parameter"].as_str(), data["reason"].as_str()), (Some(parameter), Some(reason)), "{args}");
        assert_eq!(structured["errors"][0]["category"], "Validation");
        assert_eq!(structured["exitCode"], -1);
    }
    assert!(fx.argvs().is_empty(), "nothing ran");
}

#[test]
fn a_missing_dotnet_is_a_capability_error_with_alternatives() {
    let fx = fixture_with(|double| double.setting("DotnetPath", json!("/nonexistent/dotnet")));
    for args in [json!({ "action": "Build" }), json!({ "action": "Run", "startMode": "Background" })] {
        let structured = fx.err(args);
        assert_eq!(code(&structured), "CAPABILITY_NOT_AVAILABLE");
        assert_eq!(structured["errors"][0]["category"], "Capability");
        assert_eq!(structured["errors"][0]["mcpErrorCode"], -32001);
        assert!(structured["errors"][0]["alternatives"].as_array().unwrap().len() >= 2);
    }
}

#[test]
fn a_runtime_only_dotnet_says_the_sdk_is_missing() {
    let fx = fixture_with(|double| double.scenario("runtime-only"));
    let structured = fx.err(json!({ "action": "Build", "project": "App/App.csproj" }));
    assert_eq!(code(&structured), "SDK_NOT_FOUND");
    assert_eq!(structured["errors"][0]["category"], "Capability");
    assert!(structured["lockInfo"].is_object());
    // A background start hears it too, instead of "Started a background session".
    for args in [
        json!({ "action": "Run", "project": "App/App.csproj", "startMode": "Background" }),
        json!({ "action": "Watch", "project": "App/App.csproj" }),
    ] {
        let structured = fx.err(args.clone());
        assert_eq!(code(&structured), "SDK_NOT_FOUND", "{args}");
        assert!(structured["errors"][0]["rawOutput"].as_str().unwrap().contains("SDK"), "{structured}");
        assert!(structured.get("sessionId").is_none(), "{structured}");
    }
    // No session was started as far as the client can tell.
    assert_eq!(fx.ok(json!({ "action": "ListSessions" }))["sessions"], json!([]));
}

#[test]
fn a_background_start_hears_a_missing_sdk_however_late_the_host_answers() {
    // The dotnet host of a loaded machine takes 2 s to say it has no SDK: a start that waited a
    // fixed moment for the session's process to exit would report "started".
    let fx = fixture_with(|double| double.scenario("runtime-only,slow").env("DOTNET_DOUBLE_SLOW_SECS", "2"));
    let structured = fx.err(json!({ "action": "Run", "project": "App/App.csproj", "startMode": "Background" }));
    assert_eq!(code(&structured), "SDK_NOT_FOUND", "{structured}");
    assert_eq!(fx.ok(json!({ "action": "ListSessions" }))["sessions"], json!([]));
}

#[test]
fn a_failed_restore_is_a_package_error() {
    let fx = fixture_with(|double| double.scenario("restore-fail"));
    let structured = fx.err(json!({ "action": "Restore" }));
    assert_eq!(code(&structured), "NU1101");
    assert_eq!(structured["errors"][0]["category"], "Package");
    assert_eq!(structured["errors"][0]["mcpErrorCode"], -32002);
    assert_eq!(fx.only_argv(), words("restore"));
}

#[test]
fn no_project_is_a_build_error() {
    let fx = fixture_with(|double| double.scenario("no-project"));
    let structured = fx.err(json!({ "action": "Build" }));
    assert_eq!(code(&structured), "MSB1003");
    assert_eq!(structured["errors"][0]["category"], "Build");
}

// --- cancellation, timeouts, locks ---------------------------------------------------------------

#[test]
fn a_cancelled_build_kills_the_whole_process_tree_and_releases_the_lock() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("double.pid");
    let child_file = dir.path().join("child.pid");
    let fx = fixture_with(|double| {
        double
            .scenario("slow,spawn-child")
            .env("DOTNET_DOUBLE_SLOW_SECS", "30")
            .env("DOTNET_DOUBLE_PID_FILE", &pid_file.display().to_string())
            .env("DOTNET_DOUBLE_CHILD_PID_FILE", &child_file.display().to_string())
    });
    let call = TestCall::new();
    let cancel = call.cancel_handle();
    let canceller = std::thread::spawn({
        let pid_file = pid_file.clone();
        move || {
            let pid = read_pid(&pid_file);
            // The double has started its child and written `double-child-pid` on stderr (it names
            // the child in its file after the line, not a pause later): the tree is whole, and the
            // line is in the pipe, which a cancelled run still reads to its end.
            read_pid(&child_file);
            cancel.cancel();
            pid
        }
    });
    let started = Instant::now();
    let result = fx.call_with(&call, json!({ "action": "Build", "project": "App/App.csproj" }));
    let double_pid = canceller.join().unwrap();
    assert!(started.elapsed() < Duration::from_secs(20), "the cancel did not stop the build");
    assert!(result.is_error);
    let structured = result.structured_content.clone().unwrap();
    assert_eq!(code(&structured), "OPERATION_CANCELLED");
    assert_eq!(structured["errors"][0]["category"], "Cancellation");
    assert_eq!(structured["lockInfo"]["lockKey"], app(&fx));
    let child = child_pid(structured["errors"][0]["rawOutput"].as_str().unwrap());
    assert_dies(double_pid);
    assert_dies(child);
    // The lock was released: an edit of the same project goes through.
    fx.ok(json!({ "action": "SetProperty", "project": "App/App.csproj", "propertyName": "A", "propertyValue": "1" }));
}

#[test]
fn a_timeout_stops_the_command() {
    let fx = fixture_with(|double| {
        double.scenario("slow").env("DOTNET_DOUBLE_SLOW_SECS", "30").setting("TimeoutSeconds", json!(1))
    });
    let started = Instant::now();
    let structured = fx.err(json!({ "action": "Build", "project": "App/App.csproj" }));
    assert!(started.elapsed() < Duration::from_secs(20));
    assert_eq!(code(&structured), "OPERATION_CANCELLED");
    assert!(structured["errors"][0]["message"].as_str().unwrap().contains("timed out"));
}

#[test]
fn two_calls_on_the_same_project_conflict() {
    let fx = fixture_with(|double| double.scenario("slow").env("DOTNET_DOUBLE_SLOW_SECS", "30"));
    let first = TestCall::new();
    let cancel = first.cancel_handle();
    std::thread::scope(|scope| {
        let running = scope.spawn(|| fx.call_with(&first, json!({ "action": "Build", "project": "App/App.csproj" })));
        wait_for("the first build to start", || !fx.argvs().is_empty());
        // The same project, named by its folder, from another action.
        let refused = fx.err(json!({ "action": "Test", "project": "App" }));
        assert_eq!(code(&refused), "CONCURRENCY_CONFLICT");
        assert_eq!(refused["errors"][0]["category"], "Concurrency");
        assert_eq!(refused["lockInfo"]["lockKey"], app(&fx));
        assert_eq!(refused["lockInfo"]["lockContended"], true);
        assert_eq!(fx.argvs().len(), 1, "the refused call ran nothing");
        cancel.cancel();
        assert!(running.join().unwrap().is_error);
    });
}

// --- redaction -------------------------------------------------------------------------------------

fn secret_values() -> Vec<String> {
    let values = include_str!("../../test-double/fixtures/secrets/values.txt");
    values.lines().map(str::trim).filter(|line| !line.is_empty()).map(str::to_owned).collect()
}

fn assert_no_secret(text: &str) {
    for secret in secret_values() {
        assert!(!text.contains(&secret), "secret {secret} leaked in:\n{text}");
    }
}

#[test]
fn secrets_in_the_output_are_redacted_everywhere() {
    let fx = fixture_with(|double| double.scenario("secrets"));
    let call = TestCall::new().with_features(&["verbosity=verbose"]);
    let result = fx.call_with(&call, json!({ "action": "Build", "project": "App/App.csproj" }));
    assert!(!result.is_error);
    let text = result.joined_text();
    assert!(text.contains("[REDACTED]"), "{text}");
    assert_no_secret(&text);
    assert_no_secret(&result.structured_content.unwrap().to_string());
    let failed = fixture_with(|double| double.scenario("secrets,build-fail"));
    let result = failed.call(json!({ "action": "Build", "project": "App/App.csproj" }));
    assert!(result.is_error);
    assert_no_secret(&result.joined_text());
    assert_no_secret(&result.structured_content.unwrap().to_string());
}

// --- background sessions ----------------------------------------------------------------------------

#[test]
fn background_run_then_logs_then_stop() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("double.pid");
    let fx = fixture_with(|double| {
        double
            .scenario("slow,spawn-child,secrets")
            .env("DOTNET_DOUBLE_SLOW_SECS", "30")
            .env("DOTNET_DOUBLE_PID_FILE", &pid_file.display().to_string())
    });
    let started = fx.ok(json!({ "action": "Run", "project": "App/App.csproj", "startMode": "Background", "appArgs": ["--urls", "http://localhost:5000"] }));
    let id = started["sessionId"].as_str().unwrap().to_owned();
    assert_eq!(started["status"], "running");
    assert_eq!(started["operation"], "run");
    assert_eq!(started["lockInfo"]["lockKey"], app(&fx));
    // The session's process is the double itself (no shell between them).
    let double_pid = wait_for_session_pid(&pid_file, &started["pid"]);
    // A background start asks `dotnet --version` first, so that a missing SDK is heard.
    wait_for("the argv log", || fx.argvs().len() == 2);
    assert_eq!(fx.argvs(), [words("--version"), words("run --project App/App.csproj -- --urls http://localhost:5000")]);

    // The session holds the project's lock while it runs.
    let refused = fx.err(json!({ "action": "Build", "project": "App/App.csproj" }));
    assert_eq!(code(&refused), "CONCURRENCY_CONFLICT");

    // Both streams have been read into the log: a tick (stdout) and the child's pid (stderr).
    wait_for("ticks and the child's pid in the log", || {
        let logs = fx.ok(json!({ "action": "Logs", "sessionId": id, "tailLines": 2000 }));
        let texts: Vec<&str> =
            logs["lines"].as_array().unwrap().iter().map(|line| line["text"].as_str().unwrap()).collect();
        texts.iter().any(|text| text.contains("Worker running (2/"))
            && texts.iter().any(|text| text.contains("double-child-pid: "))
    });
    // stdout and stderr are read apart, so a late stderr line may land after the first ticks;
    // once the ticks lead, the last three lines are three consecutive ticks, in order.
    let mut tail = Vec::new();
    wait_for("three ticks at the end of the log", || {
        let result = fx.call(json!({ "action": "Logs", "sessionId": id, "tailLines": 3 }));
        let logs = result.structured_content.clone().unwrap();
        assert_eq!((logs["returnedLines"].as_u64(), logs["status"].as_str()), (Some(3), Some("running")));
        tail = logs["lines"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|line| tick_number(line["text"].as_str().unwrap()))
            .collect();
        tail.len() == 3 && result.joined_text().contains("Worker running")
    });
    assert!(tail.windows(2).all(|pair| pair[1] == pair[0] + 1), "not the last three ticks in order: {tail:?}");
    let all = fx.call(json!({ "action": "Logs", "sessionId": id, "tailLines": 2000 }));
    let all_text = all.joined_text();
    assert!(all_text.contains("[REDACTED]") && all_text.contains("[stderr] "), "{all_text}");
    assert_no_secret(&all_text);
    assert_no_secret(&all.structured_content.unwrap().to_string());
    let child = child_pid(&all_text);
    let future = fx.ok(json!({ "action": "Logs", "sessionId": id, "since": "2999-01-01T00:00:00Z" }));
    assert_eq!(future["returnedLines"], 0);
    let recent = fx.ok(json!({ "action": "Logs", "sessionId": id, "since": "1h" }));
    assert!(recent["returnedLines"].as_u64().unwrap() > 0);

    let listed = fx.ok(json!({ "action": "ListSessions" }));
    assert_eq!(listed["sessions"][0]["sessionId"], id.as_str());
    assert_eq!(listed["sessions"][0]["status"], "running");

    let stopped = fx.ok(json!({ "action": "Stop", "sessionId": id }));
    assert_eq!((stopped["wasRunning"].as_bool(), stopped["status"].as_str()), (Some(true), Some("stopped")));
    assert_dies(double_pid);
    assert_dies(child);
    // The logs are kept after the process ended, and the lock is free again.
    let kept = fx.ok(json!({ "action": "Logs", "sessionId": id }));
    assert_eq!(kept["status"], "stopped");
    assert!(kept["returnedLines"].as_u64().unwrap() > 0);
    let again = fx.ok(json!({ "action": "Stop", "sessionId": id }));
    assert_eq!(again["wasRunning"], false);
    fx.ok(json!({ "action": "SetProperty", "project": "App/App.csproj", "propertyName": "A", "propertyValue": "1" }));
}

#[test]
fn an_ended_session_keeps_its_output_and_exit_code() {
    let fx = fixture();
    let started = fx.ok(json!({ "action": "Run", "startMode": "Background" }));
    let id = started["sessionId"].as_str().unwrap().to_owned();
    wait_for("the app to exit", || fx.ok(json!({ "action": "Logs", "sessionId": id }))["status"] == "exited");
    let logs = fx.ok(json!({ "action": "Logs", "sessionId": id }));
    assert_eq!(logs["exitCode"], 0);
    assert!(logs["lines"].to_string().contains("Hello, World!"));
    let listed = fx.ok(json!({ "action": "ListSessions" }));
    assert!(listed["sessions"][0]["endedAt"].is_string());
}

#[test]
fn watch_always_runs_in_the_background() {
    let fx = fixture_with(|double| double.env("DOTNET_DOUBLE_SLOW_SECS", "30"));
    let started = fx.ok(json!({ "action": "Watch", "project": "App/App.csproj", "watchAction": "test", "filter": "Category=Unit", "configuration": "Debug" }));
    assert_eq!(started["operation"], "watch");
    // A background start asks `dotnet --version` first, so that a missing SDK is heard.
    wait_for("the argv log", || fx.argvs().len() == 2);
    assert_eq!(
        fx.argvs(),
        [words("--version"), words("watch --project App/App.csproj test -c Debug --filter Category=Unit")]
    );
    let id = started["sessionId"].as_str().unwrap();
    fx.double.clear_log();
    let run = fx.err(json!({ "action": "Watch", "project": "App/App.csproj", "noHotReload": true, "appArgs": ["x"] }));
    assert_eq!(code(&run), "CONCURRENCY_CONFLICT", "the first watch holds the project");
    let stopped = fx.ok(json!({ "action": "Stop", "sessionId": id }));
    assert_eq!(stopped["wasRunning"], true);
    let other = fx.ok(json!({ "action": "Watch", "noHotReload": true, "appArgs": ["x"] }));
    // A background start asks `dotnet --version` first, so that a missing SDK is heard.
    wait_for("the argv log", || fx.argvs().len() == 2);
    assert_eq!(fx.argvs(), [words("--version"), words("watch --no-hot-reload run -- x")]);
    fx.ok(json!({ "action": "Stop", "sessionId": other["sessionId"] }));
}

#[test]
fn dropping_the_tool_kills_its_sessions() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("double.pid");
    let fx = fixture_with(|double| {
        double
            .scenario("slow")
            .env("DOTNET_DOUBLE_SLOW_SECS", "30")
            .env("DOTNET_DOUBLE_PID_FILE", &pid_file.display().to_string())
    });
    let started = fx.ok(json!({ "action": "Run", "startMode": "Background" }));
    let pid = wait_for_session_pid(&pid_file, &started["pid"]);
    assert!(!is_dead(pid));
    drop(fx);
    assert_dies(pid);
}

// --- clean, roots, presentation -----------------------------------------------------------------------

#[test]
fn clean_asks_first_and_refuses_when_declined() {
    let fx = fixture();
    let yes = TestCall::new().with_client(|method, params| {
        assert_eq!(method, "elicitation/create");
        assert!(params["message"].as_str().unwrap().contains("App/App.csproj"));
        Ok(json!({ "action": "accept", "content": { "confirm": true } }))
    });
    let result = fx.call_with(&yes, json!({ "action": "Clean", "project": "App/App.csproj" }));
    assert!(!result.is_error);
    assert_eq!(result.structured_content.unwrap()["consent"], "confirmed");
    assert_eq!(fx.only_argv(), words("clean App/App.csproj"));

    fx.double.clear_log();
    let no = TestCall::new().with_client(|_, _| Ok(json!({ "action": "decline" })));
    let result = fx.call_with(&no, json!({ "action": "Clean", "project": "App/App.csproj" }));
    assert!(result.is_error);
    assert_eq!(code(&result.structured_content.unwrap()), "OPERATION_CANCELLED");
    assert!(fx.argvs().is_empty(), "nothing ran");

    let unasked = fx.ok(json!({ "action": "Clean" }));
    assert_eq!(unasked["consent"], "notAsked");
    assert_eq!(fx.only_argv(), words("clean"));
}

#[test]
fn the_project_is_found_in_the_clients_roots() {
    let fx = fixture();
    let root = at(&fx, "App");
    let roots = TestCall::new().with_client(move |method, _| {
        assert_eq!(method, "roots/list");
        Ok(json!({ "roots": [{ "uri": format!("file://{}", root.display()) }] }))
    });
    let result = fx.call_with(&roots, json!({ "action": "Build" }));
    assert!(!result.is_error);
    assert_eq!(fx.only_argv(), strings(&["build", &at(&fx, "App/App.csproj").display().to_string()]));
}

#[test]
fn content_negotiation_changes_the_prose_only() {
    let fx = fixture();
    let compact = fx.call_with(
        &TestCall::new().with_features(&["verbosity=compact"]),
        json!({ "action": "Build", "project": "App" }),
    );
    assert_eq!(compact.joined_text(), "Build succeeded with 2 warnings.");
    let as_json =
        fx.call_with(&TestCall::new().with_features(&["format=json"]), json!({ "action": "Build", "project": "App" }));
    let parsed: Value = serde_json::from_str(&as_json.joined_text()).unwrap();
    assert_eq!(parsed["warningCount"], 2);
    assert_eq!(
        compact.structured_content.unwrap()["warningCount"],
        as_json.structured_content.unwrap()["warningCount"]
    );
}

#[test]
fn the_tool_is_described_honestly() {
    let fx = fixture();
    let spec = fx.tool.spec();
    assert_eq!(spec.name(), "dotnet_project");
    let annotations = spec.get_annotations();
    assert_eq!(
        (annotations.read_only, annotations.destructive, annotations.idempotent, annotations.open_world),
        (Some(false), Some(true), Some(false), Some(true))
    );
    assert_eq!(spec.get_input_schema()["required"], json!(["action"]));
    mcp_plugin_api::testkit::assert_descriptor_accepted(&spec);
}

#[test]
fn defaults_a_client_fills_in_change_nothing() {
    let fx = fixture();
    let args = json!({ "action": "Build", "project": "App/App.csproj" });
    fx.ok(args.clone());
    let filled = dotnet_support::testkit::with_defaults(&fx.tool, &args);
    assert_eq!((filled["noBuild"].clone(), filled["sessionId"].clone()), (json!(false), json!("")), "{filled}");
    fx.ok(filled);
    let argvs = fx.argvs();
    assert_eq!(argvs[0], argvs[1]);
}

#[test]
fn a_read_only_server_evaluates_and_reads_sessions_only() {
    let fx = fixture_with(|double| double.setting("ReadOnly", json!(true)));
    let spec = fx.tool.spec();
    assert_eq!(
        spec.get_input_schema()["properties"]["action"]["enum"],
        json!([
            "Analyze",
            "Dependencies",
            "Validate",
            "GetProperty",
            "ListItems",
            "ListTemplateOptions",
            "Logs",
            "ListSessions"
        ])
    );
    let annotations = spec.get_annotations();
    assert_eq!(
        (annotations.read_only, annotations.destructive, annotations.idempotent, annotations.open_world),
        (Some(true), Some(false), Some(true), Some(false))
    );
    fx.ok(json!({ "action": "GetProperty", "propertyName": "TargetFramework", "project": "App/App.csproj" }));
    let refused = fx.call_with(&TestCall::new().unchecked(), json!({ "action": "Build" }));
    assert_eq!(code(refused.structured_content.as_ref().unwrap()), "READ_ONLY");
    let edit = json!({ "action": "SetProperty", "propertyName": "Nullable", "propertyValue": "disable" });
    assert!(fx.call_with(&TestCall::new().unchecked(), edit).is_error);
    assert_eq!(std::fs::read_to_string(at(&fx, "App/App.csproj")).unwrap(), PROJECT, "the file is untouched");
    assert_eq!(fx.argvs().len(), 1, "only the evaluation ran");
}
