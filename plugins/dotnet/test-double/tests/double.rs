//! Integration tests of the dotnet test double: they run the built binary the way the plugins'
//! tests do and check the invocation log, every scenario and the output formats.

use std::collections::BTreeMap;
use std::fs;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

const DOUBLE: &str = env!("CARGO_BIN_EXE_dotnet-double");
const SECRET_VALUES: &str = include_str!("../fixtures/secrets/values.txt");

/// Variables that would change the double's behaviour if inherited from the test's environment.
const CONTROL_VARS: &[&str] = &[
    "DOTNET_DOUBLE_LOG",
    "DOTNET_DOUBLE_PID_FILE",
    "DOTNET_DOUBLE_SERVER_PID_FILE",
    "DOTNET_DOUBLE_CHILD_PID_FILE",
    "DOTNET_DOUBLE_SCENARIO",
    "DOTNET_DOUBLE_SDK_VERSION",
    "DOTNET_DOUBLE_RUNTIME_VERSION",
    "DOTNET_DOUBLE_SLOW_SECS",
    "DOTNET_DOUBLE_HOLD",
    "DOTNET_DOUBLE_HOST_STYLE",
    "DOTNET_DOUBLE_TEST_RUNNER",
    "DOTNET_ROOT",
    "UseSharedCompilation",
];

/// A scratch directory under the system temp directory, removed when dropped.
struct Scratch {
    root: PathBuf,
    dir: PathBuf,
}

impl std::ops::Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.dir
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.root);
    }
}

/// A fresh, empty directory.
fn temp_dir(label: &str) -> Scratch {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, Ordering::SeqCst);
    let root = std::env::temp_dir().join(format!("dotnet-double-{label}-{}-{n}", std::process::id()));
    let _ = fs::remove_dir_all(&root);
    fs::create_dir_all(&root).unwrap();
    Scratch { dir: root.clone(), root }
}

/// A directory `App` holding `App.csproj`.
fn project_dir(label: &str) -> Scratch {
    let mut scratch = temp_dir(label);
    scratch.dir = scratch.root.join("App");
    fs::create_dir_all(&scratch.dir).unwrap();
    fs::write(scratch.dir.join("App.csproj"), "<Project Sdk=\"Microsoft.NET.Sdk\" />").unwrap();
    scratch
}

fn command(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Command {
    let mut cmd = Command::new(DOUBLE);
    cmd.args(args).current_dir(dir).stdin(Stdio::null());
    for v in CONTROL_VARS {
        cmd.env_remove(v);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    fn all(&self) -> String {
        format!("{}{}", self.stdout, self.stderr)
    }
}

fn run(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    let Output { status, stdout, stderr } = command(dir, args, env).output().unwrap();
    let run = Run {
        code: status.code().unwrap_or(-1),
        stdout: String::from_utf8(stdout).unwrap(),
        stderr: String::from_utf8(stderr).unwrap(),
    };
    assert_ne!(run.code, 101, "the double panicked on {args:?}: {}", run.stderr);
    assert!(!run.all().contains("{{"), "unrendered placeholder for {args:?}:\n{}", run.all());
    run
}

fn json_after_preamble(stdout: &str) -> serde_json::Value {
    let start = stdout.find(['{', '[']).expect("JSON in output");
    serde_json::from_str(&stdout[start..]).expect("valid JSON")
}

fn alive(pid: u32) -> bool {
    // A zombie still has a /proc entry; count it as gone.
    fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|s| s.split_whitespace().nth(2).is_none_or(|state| state != "Z"))
        .unwrap_or(false)
}

#[test]
fn version_is_configurable() {
    let dir = temp_dir("version");
    // By default the recording of SDK 10.0.401 answers (recordings/sdk).
    assert_eq!(run(&dir, &["--version"], &[]).stdout, "10.0.401\n");
    let r = run(&dir, &["--version"], &[("DOTNET_DOUBLE_SDK_VERSION", "9.0.306")]);
    assert_eq!((r.code, r.stdout.as_str()), (0, "9.0.306\n"));
    let sdks = run(&dir, &["--list-sdks"], &[("DOTNET_DOUBLE_SDK_VERSION", "9.0.306")]).stdout;
    assert_eq!(sdks, "8.0.416 [/usr/share/dotnet/sdk]\n9.0.306 [/usr/share/dotnet/sdk]\n");
}

#[test]
fn host_listings_have_the_real_shapes() {
    let dir = temp_dir("host");
    let simulated = [("DOTNET_DOUBLE_SDK_VERSION", "10.0.100")];
    let runtimes = run(&dir, &["--list-runtimes"], &simulated).stdout;
    assert!(runtimes.lines().all(|l| l.starts_with("Microsoft.") && l.ends_with(']')));
    assert!(runtimes.contains("Microsoft.NETCore.App 10.0.0 [/usr/share/dotnet/shared/Microsoft.NETCore.App]"));
    let info = run(&dir, &["--info"], &[("DOTNET_ROOT", "/opt/dotnet"), simulated[0]]).stdout;
    assert!(info.starts_with(".NET SDK:\n Version:           10.0.100\n"));
    assert!(info.contains(" Base Path:   /opt/dotnet/sdk/10.0.100/"));
    assert!(info.contains("  DOTNET_ROOT       [/opt/dotnet]"));
    assert!(info.contains(".NET SDKs installed:\n  8.0.416 [/opt/dotnet/sdk]\n  10.0.100 [/opt/dotnet/sdk]\n"));
}

#[test]
fn records_every_invocation_as_a_json_line() {
    let dir = temp_dir("log");
    let log = dir.join("calls.jsonl");
    let log_s = log.to_str().unwrap();
    let env = [
        ("DOTNET_DOUBLE_LOG", log_s),
        ("DOTNET_CLI_UI_LANGUAGE", "en"),
        ("MSBUILDTERMINALLOGGER", "off"),
        ("UNRELATED_VARIABLE", "x"),
    ];
    run(&dir, &["build", "App.csproj", "-c", "Release", "a b"], &env);
    run(&dir, &["--version"], &env);
    run(&dir, &["nope"], &[("DOTNET_DOUBLE_LOG", log_s), ("DOTNET_DOUBLE_SCENARIO", "runtime-only")]);
    let lines: Vec<serde_json::Value> =
        fs::read_to_string(&log).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["argv"], serde_json::json!(["build", "App.csproj", "-c", "Release", "a b"]));
    assert_eq!(lines[0]["cwd"], dir.to_str().unwrap());
    let env0: BTreeMap<String, String> = serde_json::from_value(lines[0]["env"].clone()).unwrap();
    assert_eq!(env0.get("DOTNET_CLI_UI_LANGUAGE").map(String::as_str), Some("en"));
    assert_eq!(env0.get("MSBUILDTERMINALLOGGER").map(String::as_str), Some("off"));
    assert!(env0.keys().all(|k| k.starts_with("DOTNET_") || k.starts_with("MSBUILD")), "{env0:?}");
    assert_eq!(lines[1]["argv"], serde_json::json!(["--version"]));
    assert_eq!(lines[2]["env"]["DOTNET_DOUBLE_SCENARIO"], "runtime-only");
}

#[test]
fn concurrent_invocations_append_whole_lines() {
    let dir = temp_dir("log-concurrent");
    let log = dir.join("calls.jsonl");
    let children: Vec<_> = (0..8)
        .map(|i| {
            command(&dir, &["--version", &format!("call-{i}")], &[("DOTNET_DOUBLE_LOG", log.to_str().unwrap())])
                .stdout(Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut c in children {
        c.wait().unwrap();
    }
    let text = fs::read_to_string(&log).unwrap();
    assert_eq!(text.lines().count(), 8);
    for l in text.lines() {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        assert_eq!(v["argv"][0], "--version");
    }
}

#[test]
fn writes_its_pid_file() {
    let dir = temp_dir("pid");
    let pid_file = dir.join("pid");
    let child = command(&dir, &["--version"], &[("DOTNET_DOUBLE_PID_FILE", pid_file.to_str().unwrap())])
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id();
    child.wait_with_output().unwrap();
    assert_eq!(fs::read_to_string(pid_file).unwrap().trim(), pid.to_string());
}

#[test]
fn unknown_scenarios_are_refused() {
    let r = run(&temp_dir("bad"), &["build"], &[("DOTNET_DOUBLE_SCENARIO", "build-fail,typo")]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("unknown scenario 'typo'"));
}

#[test]
fn runtime_only_fails_every_sdk_command_like_the_host() {
    let dir = project_dir("runtime-only");
    let env = [("DOTNET_DOUBLE_SCENARIO", "runtime-only")];
    for args in [&["build"][..], &["--version"], &["test"], &["new", "list"], &["ef", "migrations", "list"]] {
        let r = run(&dir, args, &env);
        assert_eq!(r.code, 145, "{args:?}");
        assert!(r.stdout.is_empty());
        assert_eq!(
            r.stderr,
            "It was not possible to find any installed .NET SDKs\n  Did you mean to run .NET SDK commands? Install a .NET SDK from:\n      https://aka.ms/dotnet-download\n"
        );
    }
    let net8 = run(&dir, &["build"], &[env[0], ("DOTNET_DOUBLE_HOST_STYLE", "net8")]);
    assert_eq!(net8.code, 145);
    assert!(net8.stderr.starts_with("The command could not be loaded, possibly because:\n"));
    assert!(net8.stderr.contains("      The application 'build' does not exist.\n"));
    assert!(net8.stderr.contains("      No .NET SDKs were found.\n"));
    let net6 = run(&dir, &["run"], &[env[0], ("DOTNET_DOUBLE_HOST_STYLE", "net6")]);
    assert!(net6.stderr.contains("The application 'run' does not exist.\n  * You intended to execute a .NET SDK command:\n      It was not possible to find any installed .NET SDKs."));
    // The host's own commands still work.
    assert_eq!(run(&dir, &["--list-sdks"], &env).stdout, "");
    assert!(run(&dir, &["--list-runtimes"], &env).stdout.contains("Microsoft.NETCore.App 10.0.0"));
    let info = run(&dir, &["--info"], &env);
    assert_eq!(info.code, 0);
    assert!(info.stdout.contains(".NET SDKs installed:\n  No SDKs were found."));
    assert_eq!(run(&dir, &["--help"], &env).code, 129);
}

#[test]
fn build_succeeds_with_warnings_and_the_duplicated_summary() {
    let dir = project_dir("build-ok");
    let r = run(&dir, &["build", "-c", "Release"], &[]);
    assert_eq!(r.code, 0);
    let warning = format!(
        "{}/Program.cs(12,13): warning CS0168: The variable 'ex' is declared but never used [{}/App.csproj]",
        dir.display(),
        dir.display()
    );
    assert_eq!(r.stdout.matches(&warning).count(), 2, "warning and its summary copy");
    assert!(r.stdout.contains(&format!("  App -> {}/bin/Release/net10.0/App.dll\n", dir.display())));
    assert!(r.stdout.contains("\nBuild succeeded.\n\n"));
    assert!(r.stdout.contains("    2 Warning(s)\n    0 Error(s)\n\nTime Elapsed "));
    assert!(r.stderr.is_empty());
}

#[test]
fn build_fail_reports_compiler_and_msbuild_errors() {
    let dir = project_dir("build-fail");
    let env = [("DOTNET_DOUBLE_SCENARIO", "build-fail")];
    let r = run(&dir, &["build"], &env);
    assert_eq!(r.code, 1);
    let errors: Vec<&str> = r.stdout.lines().filter(|l| l.contains(": error ")).collect();
    assert_eq!(errors.len(), 6, "three errors, each repeated in the summary");
    assert!(errors.iter().all(|e| e.contains(": error CS") && e.ends_with(&format!("[{}/App.csproj]", dir.display()))));
    assert!(r.stdout.contains("warning NU1603"));
    assert!(r.stdout.contains("\nBuild FAILED.\n\n"));
    assert!(r.stdout.contains("    3 Warning(s)\n    3 Error(s)\n"));

    // In a solution one project fails in MSBuild (MSB3073) and another in the compiler.
    let sln_dir = temp_dir("build-fail-sln");
    fs::write(sln_dir.join("Shop.sln"), "").unwrap();
    let r = run(&sln_dir, &["build"], &env);
    assert_eq!(r.code, 1);
    assert!(r.stdout.contains(&format!("{0}/src/App/App.csproj(31,5): error MSB3073: ", sln_dir.display())));
    assert!(r.stdout.contains(&format!("{0}/src/Lib/Program.cs(9,51): error CS0246: ", sln_dir.display())));
    assert!(r.stdout.contains("    4 Error(s)\n"));

    // `dotnet run` reports the errors and refuses to start.
    let r = run(&dir, &["run"], &env);
    assert_eq!(r.code, 1);
    assert!(r.stdout.ends_with("\nThe build failed. Fix the build errors and run again.\n"));
}

#[test]
fn restore_fail_and_no_project_fail_like_nuget_and_msbuild() {
    let dir = project_dir("restore-fail");
    let r = run(&dir, &["build"], &[("DOTNET_DOUBLE_SCENARIO", "restore-fail")]);
    assert_eq!(r.code, 1);
    assert!(r.stdout.contains(": error NU1101: Unable to find package Contoso.Internal.Logging."));
    assert!(r.stdout.contains("    0 Warning(s)\n    1 Error(s)\n"));
    let r = run(&dir, &["build"], &[("DOTNET_DOUBLE_SCENARIO", "no-project")]);
    assert_eq!(r.code, 1);
    assert!(r.stdout.starts_with("MSBUILD : error MSB1003: Specify a project or solution file."));
    let two = temp_dir("two-projects");
    fs::write(two.join("A.csproj"), "").unwrap();
    fs::write(two.join("B.csproj"), "").unwrap();
    assert!(run(&two, &["build"], &[]).stdout.contains("error MSB1011"));
}

#[test]
fn vstest_output_per_assembly_with_failures() {
    let dir = temp_dir("vstest");
    fs::write(dir.join("Shop.sln"), "").unwrap();
    let ok = run(&dir, &["test"], &[]);
    assert_eq!(ok.code, 0);
    assert!(ok.stdout.contains(
        "Passed!  - Failed:     0, Passed:    42, Skipped:     1, Total:    43, Duration: 4 s - App.Tests.dll (net10.0)"
    ));
    assert!(ok.stdout.contains(
        "Passed!  - Failed:     0, Passed:    18, Skipped:     0, Total:    18, Duration: 1 s - Lib.Tests.dll (net10.0)"
    ));

    let failed = run(&dir, &["test"], &[("DOTNET_DOUBLE_SCENARIO", "test-fail")]);
    assert_eq!(failed.code, 1);
    assert!(failed.stdout.contains("  Failed App.Tests.CalculatorTests.Divide_ByZero_Throws [4 ms]\n  Error Message:\n   Assert.Throws() Failure: No exception was thrown\n"));
    assert!(failed.stdout.contains("  Stack Trace:\n     at App.Tests.CalculatorTests.Divide_ByZero_Throws() in "));
    assert!(failed.stdout.contains(
        "Failed!  - Failed:     2, Passed:    40, Skipped:     1, Total:    43, Duration: 4 s - App.Tests.dll (net10.0)"
    ));
    // The second assembly still passes, so its summary comes last.
    let summaries: Vec<&str> = failed.stdout.lines().filter(|l| l.contains("!  - Failed:")).collect();
    assert_eq!(summaries.len(), 2);
    assert!(summaries[1].starts_with("Passed!"));

    // VSTest does not know --project.
    let r = run(&dir, &["test", "--project", "tests/App.Tests/App.Tests.csproj"], &[]);
    assert_eq!(r.code, 1);
    assert!(r.stdout.starts_with("MSBUILD : error MSB1001: Unknown switch."));
    assert!(r.stdout.contains("Switch: --project"));
}

#[test]
fn microsoft_testing_platform_is_chosen_by_global_json() {
    let dir = temp_dir("mtp");
    fs::write(dir.join("global.json"), r#"{ "test": { "runner": "Microsoft.Testing.Platform" } }"#).unwrap();
    fs::write(dir.join("Shop.sln"), "").unwrap();
    let r = run(&dir, &["test", "--project", "Shop.sln"], &[("DOTNET_DOUBLE_SCENARIO", "test-fail")]);
    assert_eq!(r.code, 1);
    assert!(r.stdout.contains("failed App.Tests.CalculatorTests.Divide_ByZero_Throws (4ms)\n"));
    assert!(r.stdout.contains(
        "Test run summary: Failed!\n  total: 61\n  failed: 2\n  succeeded: 58\n  skipped: 1\n  duration: 5s 515ms\n"
    ));
    let single = run(&dir, &["test", "--project", "tests/Lib.Tests/Lib.Tests.csproj"], &[]);
    assert_eq!(single.code, 0);
    assert!(single.stdout.contains("Test run summary: Passed! - "));
    assert!(single.stdout.contains("  succeeded: 42\n"));
}

#[test]
fn slow_commands_stream_a_line_every_200_ms() {
    // When a line is read says nothing certain about the gap before it on a loaded machine (a late
    // reader gets two ticks at once). What is certain: no tick comes sooner than the pauses before
    // it allow, and every tick is read while the command still runs (the hold file keeps it
    // waiting after its ticks), so the lines stream rather than come at the end.
    let dir = project_dir("slow");
    let hold = dir.root.join("hold");
    fs::write(&hold, "").unwrap();
    let env = [
        ("DOTNET_DOUBLE_SCENARIO", "slow"),
        ("DOTNET_DOUBLE_SLOW_SECS", "1"),
        ("DOTNET_DOUBLE_HOLD", hold.to_str().unwrap()),
    ];
    let start = Instant::now();
    let mut child = command(&dir, &["build"], &env).stdout(Stdio::piped()).spawn().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut ticks = Vec::new();
    while ticks.len() < 5 {
        let line = lines.next().expect("five ticks before the end of the output").unwrap();
        if line.contains("Building... (") {
            ticks.push(start.elapsed());
            assert!(child.try_wait().unwrap().is_none(), "tick {} was read after the command ended", ticks.len());
        }
    }
    fs::remove_file(&hold).unwrap();
    assert_eq!(lines.map(Result::unwrap).filter(|line| line.contains("Building... (")).count(), 0, "five ticks");
    assert!(child.wait().unwrap().success());
    for (before, tick) in ticks.iter().enumerate() {
        assert!(*tick >= Duration::from_millis(200) * before as u32, "tick {} came too soon: {ticks:?}", before + 1);
    }
    assert!(start.elapsed() >= Duration::from_millis(1000), "five pauses of 200 ms");
}

#[test]
fn a_held_run_lasts_until_its_file_is_removed_simulated_or_replayed() {
    let dir = project_dir("hold");
    let hold = dir.root.join("hold");
    let replay_log = dir.root.join("replayed");
    // `run` in the project's folder is simulated; `run --project App/App.csproj` from above it
    // replays the console recording of a finished run.
    for (cwd, args, replayed) in
        [(&dir.dir, &["run"][..], false), (&dir.root, &["run", "--project", "App/App.csproj"][..], true)]
    {
        fs::write(&hold, "").unwrap();
        let _ = fs::remove_file(&replay_log);
        let env = [
            ("DOTNET_DOUBLE_HOLD", hold.to_str().unwrap()),
            ("DOTNET_DOUBLE_REPLAY_LOG", replay_log.to_str().unwrap()),
        ];
        let mut child = command(cwd, args, &env).stdout(Stdio::null()).spawn().unwrap();
        // Without the hold, either run ends in a few milliseconds.
        std::thread::sleep(Duration::from_millis(500));
        assert!(child.try_wait().unwrap().is_none(), "{args:?}: the held run ended while its file existed");
        fs::remove_file(&hold).unwrap();
        assert!(child.wait().unwrap().success(), "{args:?}");
        assert_eq!(replay_log.exists(), replayed, "{args:?}: replayed or simulated as meant");
    }
}

#[test]
fn slow_commands_can_be_interrupted() {
    let dir = project_dir("slow-kill");
    let mut child =
        command(&dir, &["test"], &[("DOTNET_DOUBLE_SCENARIO", "slow")]).stdout(Stdio::piped()).spawn().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first_tick = lines.by_ref().map(Result::unwrap).find(|l| l.contains("Running tests... ("));
    assert!(first_tick.is_some());
    let start = Instant::now();
    child.kill().unwrap();
    child.wait().unwrap();
    // Far sooner than the 30 s the slow command would run, with room for a loaded machine.
    assert!(start.elapsed() < Duration::from_secs(20));
}

#[test]
fn spawn_child_reports_a_sleeping_child_that_outlives_a_killed_parent() {
    let dir = temp_dir("child");
    let mut parent =
        command(&dir, &["--version"], &[("DOTNET_DOUBLE_SCENARIO", "spawn-child"), ("DOTNET_DOUBLE_SLOW_SECS", "30")])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
    let mut stderr = BufReader::new(parent.stderr.take().unwrap());
    let mut first = String::new();
    stderr.read_line(&mut first).unwrap();
    let pid: u32 = first
        .trim()
        .strip_prefix("double-child-pid: ")
        .unwrap_or_else(|| panic!("unexpected stderr line {first:?}"))
        .parse()
        .unwrap();
    assert!(alive(pid));
    // The parent waits for its child, as the CLI waits for the processes it starts.
    std::thread::sleep(Duration::from_millis(300));
    assert!(parent.try_wait().unwrap().is_none());
    // Killing only the parent leaves the child running: a caller must kill the whole tree.
    parent.kill().unwrap();
    parent.wait().unwrap();
    assert!(alive(pid));
    Command::new("kill").arg(pid.to_string()).status().unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while alive(pid) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(!alive(pid));
}

#[test]
fn secrets_appear_in_every_shape() {
    let dir = project_dir("secrets");
    let env = [("DOTNET_DOUBLE_SCENARIO", "secrets")];
    let r = run(&dir, &["run"], &env);
    for value in SECRET_VALUES.lines() {
        assert!(r.all().contains(value), "missing secret {value}");
    }
    assert!(r.stdout.contains("Authorization: Bearer ey"));
    assert!(r.stdout.contains("-----BEGIN RSA PRIVATE KEY-----"));
    assert!(r.stderr.contains("Password=Sup3r-Secret-Dbl-Pw!"));
    let list = run(&dir, &["user-secrets", "list"], &env).stdout;
    assert!(list.contains(
        "ConnectionStrings:Default = Server=db.internal;Database=app;User Id=sa;Password=Sup3r-Secret-Dbl-Pw!"
    ));
    assert!(list.lines().all(|l| l.contains(" = ")));
    // Machine-readable output stays parseable: the secrets go to stderr there.
    let json = run(&dir, &["list", "package", "--format", "json"], &env);
    serde_json::from_str::<serde_json::Value>(&json.stdout).unwrap();
    assert!(json.stderr.contains("AKIAIOSFODNN7EXAMPLE"));
}

#[test]
fn no_ef_answers_like_a_missing_tool() {
    let dir = project_dir("no-ef");
    let r = run(&dir, &["ef", "migrations", "list"], &[("DOTNET_DOUBLE_SCENARIO", "no-ef")]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.starts_with("Could not execute because the specified command or file was not found.\n"));
    assert!(r.stderr.contains("  * You intended to execute a .NET program, but dotnet-ef does not exist.\n"));
    let unknown = run(&dir, &["frobnicate"], &[]);
    assert_eq!(unknown.code, 1);
    assert!(unknown.stderr.contains("but dotnet-frobnicate does not exist."));
}

#[test]
fn ef_json_outputs_follow_the_build_preamble() {
    let dir = project_dir("ef");
    let r = run(&dir, &["ef", "migrations", "list", "--json"], &[]);
    assert!(r.stdout.starts_with("Build started...\nBuild succeeded.\n"));
    let list = json_after_preamble(&r.stdout);
    assert_eq!(list[2]["id"], "20250301080000_AddCustomerEmail");
    assert_eq!(list[2]["applied"], false);
    let info = json_after_preamble(&run(&dir, &["ef", "dbcontext", "info", "--json"], &[]).stdout);
    assert_eq!(info["type"], "App.Data.AppDbContext");
    let contexts = json_after_preamble(&run(&dir, &["ef", "dbcontext", "list", "--json", "--no-build"], &[]).stdout);
    assert_eq!(contexts[0]["safeName"], "AppDbContext");
    let failed = run(&dir, &["ef", "database", "update"], &[("DOTNET_DOUBLE_SCENARIO", "build-fail")]);
    assert_eq!((failed.code, failed.stderr.as_str()), (1, "Build failed. Use dotnet build to see the errors.\n"));
}

#[test]
fn msbuild_evaluation_prints_values_or_json() {
    let dir = project_dir("msbuild");
    let single = run(&dir, &["msbuild", "App.csproj", "-getProperty:TargetFramework"], &[]);
    assert_eq!(single.stdout, "net10.0\n");
    let r = run(
        &dir,
        &["msbuild", "-getProperty:OutputType,Configuration", "-p:Configuration=Release", "-getItem:Compile"],
        &[],
    );
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["Properties"]["OutputType"], "Exe");
    assert_eq!(v["Properties"]["Configuration"], "Release");
    assert_eq!(v["Items"]["Compile"][0]["FullPath"], format!("{}/Program.cs", dir.display()));
    assert!(r.stdout.starts_with("{\n  \"Properties\": {\n    \"OutputType\": \"Exe\","));
    let sln_dir = temp_dir("msbuild-sln");
    fs::write(sln_dir.join("Shop.sln"), "").unwrap();
    assert_eq!(run(&sln_dir, &["msbuild", "-getProperty:X"], &[]).code, 1);
    // An absolute project path is the project, not a '/' switch, even where the folder alone
    // would be ambiguous (two solutions).
    fs::write(sln_dir.join("Other.slnx"), "").unwrap();
    let project = dir.join("App.csproj").display().to_string();
    let absolute = run(&sln_dir, &["msbuild", &project, "-getProperty:TargetFramework"], &[]);
    assert_eq!((absolute.code, absolute.stdout.as_str()), (0, "net10.0\n"));
}

#[test]
fn tool_listing_in_json_from_sdk_9_and_refused_by_sdk_8() {
    let dir = temp_dir("tool-json");
    let local = run(&dir, &["tool", "list", "--format", "json"], &[("DOTNET_DOUBLE_SDK_VERSION", "10.0.100")]);
    assert_eq!(local.code, 0);
    assert_eq!(local.stdout.lines().count(), 1, "one line, as System.Text.Json writes it: {}", local.stdout);
    let local: serde_json::Value = serde_json::from_str(&local.stdout).unwrap();
    assert_eq!(local["version"], 1);
    assert_eq!(local["data"][1]["packageId"], "csharpier");
    assert_eq!(local["data"][1]["commands"], serde_json::json!(["csharpier"]));
    assert_eq!(local["data"][1]["manifest"], format!("{}/dotnet-tools.json", dir.display()));
    let global: serde_json::Value = serde_json::from_str(
        &run(&dir, &["tool", "list", "-g", "--format", "json"], &[("DOTNET_DOUBLE_SDK_VERSION", "10.0.100")]).stdout,
    )
    .unwrap();
    assert_eq!(
        global["data"],
        serde_json::json!([{ "packageId": "dotnet-outdated-tool", "version": "4.6.8", "commands": ["dotnet-outdated"] }])
    );
    let old = run(&dir, &["tool", "list", "--format", "json"], &[("DOTNET_DOUBLE_SDK_VERSION", "8.0.416")]);
    assert_eq!(old.code, 1);
    assert!(old.stderr.contains("Unrecognized command or argument '--format'."), "{}", old.stderr);
    assert!(old.stderr.contains("Unrecognized command or argument 'json'."), "{}", old.stderr);
}

#[test]
fn package_listing_and_search_in_json_and_text() {
    let dir = project_dir("packages");
    let all: serde_json::Value =
        serde_json::from_str(&run(&dir, &["list", "package", "--format", "json"], &[]).stdout).unwrap();
    assert_eq!(all["version"], 1);
    assert_eq!(all["parameters"], "");
    assert_eq!(all["projects"][0]["frameworks"][0]["topLevelPackages"].as_array().unwrap().len(), 4);
    let outdated: serde_json::Value = serde_json::from_str(
        &run(&dir, &["package", "list", "--outdated", "--include-transitive", "--format", "json"], &[]).stdout,
    )
    .unwrap();
    assert_eq!(outdated["parameters"], "--include-transitive --outdated");
    assert_eq!(outdated["sources"][0], "https://api.nuget.org/v3/index.json");
    let top = &outdated["projects"][0]["frameworks"][0]["topLevelPackages"];
    assert!(top.as_array().unwrap().iter().all(|p| p["latestVersion"] != p["resolvedVersion"]));
    assert!(outdated["projects"][0]["frameworks"][0]["transitivePackages"].is_array());
    let deprecated: serde_json::Value =
        serde_json::from_str(&run(&dir, &["list", "package", "--deprecated", "--format", "json"], &[]).stdout).unwrap();
    assert_eq!(
        deprecated["projects"][0]["frameworks"][0]["topLevelPackages"][0]["alternativePackage"]["id"],
        "Azure.Storage.Blobs"
    );
    let text = run(&dir, &["list", "package", "--vulnerable"], &[]).stdout;
    assert!(text.contains("Project `App` has the following vulnerable packages"));
    assert!(text.contains(
        "   > Newtonsoft.Json      12.0.3      12.0.3     High       https://github.com/advisories/GHSA-5crp-9r3c-p9vr"
    ));

    let search: serde_json::Value = serde_json::from_str(
        &run(&dir, &["package", "search", "serilog", "--take", "2", "--format", "json"], &[]).stdout,
    )
    .unwrap();
    let packages = search["searchResult"][0]["packages"].as_array().unwrap();
    assert_eq!(packages.len(), 2);
    assert_eq!(packages[0]["id"], "Serilog");
    assert!(packages[0]["totalDownloads"].is_u64());
}

#[test]
fn add_package_streams_nuget_output_and_errors_in_order() {
    let dir = project_dir("add-package");
    let ok = run(&dir, &["add", "App.csproj", "package", "Serilog"], &[]);
    assert_eq!(ok.code, 0);
    assert!(ok.stdout.contains("info : PackageReference for package 'Serilog' version '4.3.0' added to file"));
    // Both streams into one file: stdout and stderr lines interleave in the order written.
    let merged = dir.join("merged.txt");
    let file = fs::File::create(&merged).unwrap();
    let status = command(&dir, &["add", "package", "Nope.Missing"], &[])
        .stdout(file.try_clone().unwrap())
        .stderr(file)
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(1));
    let text = fs::read_to_string(merged).unwrap();
    let info = text.find("info :   NotFound https://api.nuget.org/v3-flatcontainer/").unwrap();
    let error = text.find("error: NU1101: Unable to find package Nope.Missing.").unwrap();
    assert!(info < error);
    let version = run(&dir, &["package", "add", "Serilog", "--version", "99.0.0"], &[]);
    assert!(version.stderr.contains("error: NU1102: Unable to find package Serilog with version (>= 99.0.0)"));
}

#[test]
fn templates_list_in_the_real_table_and_exit_103_when_missing() {
    let dir = temp_dir("templates");
    let r = run(&dir, &["new", "list", "console"], &[]);
    assert_eq!(r.code, 0);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines[0], "These templates matched your input: 'console'");
    assert!(lines[2].starts_with("Template Name  Short Name  Language    Tags"));
    assert!(lines[3].starts_with("-------------  ----------  ----------  --------------"));
    assert!(lines[4].starts_with("Console App    console     [C#],F#,VB  Common/Console"));
    let missing = run(&dir, &["new", "nosuchtemplate"], &[]);
    assert_eq!(missing.code, 103);
    assert!(missing.stderr.starts_with("No templates or subcommands found matching: 'nosuchtemplate'."));
    let created = run(&dir, &["new", "webapi", "-n", "Api", "-o", "src/Api"], &[]);
    assert_eq!(created.code, 0);
    assert!(created.stdout.contains(&format!("Restoring {}/src/Api/Api.csproj:", dir.display())));
}

#[test]
fn solutions_list_their_projects() {
    let dir = temp_dir("sln");
    let r = run(&dir, &["sln", "Shop.sln", "list"], &[]);
    assert_eq!(
        r.stdout,
        "Project(s)\n----------\nsrc/App/App.csproj\nsrc/Lib/Lib.csproj\ntests/App.Tests/App.Tests.csproj\ntests/Lib.Tests/Lib.Tests.csproj\n"
    );
    let add = run(&dir, &["solution", "Shop.sln", "add", "src/New/New.csproj"], &[]);
    assert_eq!(add.stdout, "Project `src/New/New.csproj` added to the solution.\n");
}

#[test]
fn every_supported_command_answers_without_placeholders() {
    let dir = project_dir("coverage");
    let commands: &[&[&str]] = &[
        &[],
        &["--help"],
        &["help"],
        &["help", "build"],
        &["build", "--help"],
        &["new"],
        &["new", "--help"],
        &["new", "list", "--columns-all"],
        &["new", "search", "avalonia"],
        &["new", "install", "Avalonia.Templates"],
        &["new", "install", "Avalonia.Templates::11.2.3"],
        &["new", "install", "No.Such.Templates"],
        &["new", "uninstall"],
        &["new", "uninstall", "Avalonia.Templates"],
        &["new", "classlib", "--help"],
        &["new", "gitignore", "-h"],
        &["new", "sln", "-n", "Shop", "--format", "slnx"],
        &["new", "tool-manifest"],
        &["restore"],
        &["publish", "-o", "out"],
        &["pack", "-p:PackageVersion=2.0.0"],
        &["clean"],
        &["format", "--verify-no-changes"],
        &["test", "--list-tests"],
        &["test", "--collect", "XPlat Code Coverage"],
        &["msbuild", "-getTargetResult:Build"],
        &["msbuild"],
        &["remove", "package", "Serilog"],
        &["add", "reference", "../Lib/Lib.csproj"],
        &["remove", "reference", "../Lib/Lib.csproj"],
        &["list", "reference"],
        &["reference", "list", "--project", "App.csproj"],
        &["sln", "remove", "src/App/App.csproj"],
        &["ef"],
        &["ef", "--version"],
        &["ef", "migrations", "add", "AddInvoices", "--json"],
        &["ef", "migrations", "remove"],
        &["ef", "migrations", "script"],
        &["ef", "database", "update", "0"],
        &["ef", "database", "drop", "--force"],
        &["ef", "database", "drop", "--dry-run"],
        &["ef", "dbcontext", "scaffold", "Data Source=app.db", "Microsoft.EntityFrameworkCore.Sqlite"],
        &["tool", "list"],
        &["tool", "list", "-g"],
        &["tool", "install", "dotnetsay"],
        &["tool", "update", "dotnet-ef"],
        &["tool", "uninstall", "csharpier"],
        &["tool", "uninstall", "-g", "nope"],
        &["tool", "restore"],
        &["tool", "search", "report", "--detail"],
        &["tool", "run", "csharpier"],
        &["workload", "list"],
        &["workload", "search"],
        &["workload", "install", "maui", "android"],
        &["workload", "update"],
        &["workload", "uninstall", "wasm-tools"],
        &["workload", "--info"],
        &["workload", "--version"],
        &["dev-certs", "https"],
        &["dev-certs", "https", "--check", "--trust"],
        &["dev-certs", "https", "--trust"],
        &["dev-certs", "https", "--clean"],
        &["dev-certs", "https", "--export-path", "cert.pem", "--format", "Pem", "--password", "pw"],
        &["user-secrets", "init"],
        &["user-secrets", "set", "Api:Key", "value"],
        &["user-secrets", "remove", "Api:Key"],
        &["user-secrets", "clear"],
        &["nuget", "locals", "all", "--list"],
        &["nuget", "locals", "http-cache", "--clear"],
    ];
    for args in commands {
        let r = run(&dir, args, &[("DOTNET_DOUBLE_SLOW_SECS", "0")]);
        assert!(
            !r.all().trim().is_empty()
                || args.contains(&"format")
                || args.contains(&"remove")
                || args.contains(&"clear"),
            "no output for {args:?}"
        );
    }
}

/// Every fixture and recording says where its text comes from: a recording of the real SDK
/// (`## recorded: .NET SDK <version> (<rid>), scenario <name>`) or hand-made (`## hand-made:
/// <why>`: what no recording can capture, or a fixture pending a family's fix), so that no
/// invented wording can hide among real ones. (`secrets/values.txt` is not output: the list of
/// the invented secret values the redaction tests look for.)
#[test]
fn every_fixture_says_whether_it_is_recorded_or_hand_made() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut unmarked = Vec::new();
    let mut recorded = 0;
    let mut stack = vec![crate_dir.join("fixtures"), crate_dir.join("recordings")];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            let name = path.strip_prefix(crate_dir).unwrap().display().to_string();
            if path.is_dir() {
                stack.push(path);
            } else if name != "fixtures/secrets/values.txt" && name != "recordings/PENDING" {
                let first = fs::read_to_string(&path).unwrap().lines().next().unwrap_or_default().to_owned();
                let is_recording = first.starts_with("## recorded: .NET SDK ") && first.contains(", scenario ");
                recorded += usize::from(is_recording);
                let hand_made = first.starts_with("## hand-made: ") || first.starts_with("## hand-made, pending: ");
                if !(is_recording || hand_made) || (is_recording != name.starts_with("recordings/")) {
                    unmarked.push(format!("{name}: {first}"));
                }
            }
        }
    }
    assert!(
        unmarked.is_empty(),
        "fixtures without a recorded or hand-made mark (or a recording outside recordings/):\n{}",
        unmarked.join("\n")
    );
    assert!(recorded > 0, "no recording of the real SDK under recordings/");
}

/// Where a recording of the real SDK matches, the double replays it: its output and exit code,
/// the recording's paths mapped onto the invocation's, and its failure recordings only under
/// the double scenario they were made for.
#[test]
fn replays_the_real_sdk_with_the_invocations_paths() {
    let dir = project_dir("replay");
    let project = dir.join("App.csproj").display().to_string();
    let built = run(&dir, &["build", &project], &[]);
    assert_eq!(built.code, 0, "{}", built.all());
    assert!(
        built.stdout.contains(&format!("  App -> {}/bin/Debug/net10.0/App.dll\n", dir.display())),
        "{}",
        built.stdout
    );
    assert!(!built.all().contains("{{"), "a placeholder left: {}", built.all());

    let library = dir.join("Lib.csproj").display().to_string();
    let missing = ["add", library.as_str(), "package", "Contoso.Internal.Logging"];
    let unknown = run(&dir, &missing, &[("DOTNET_DOUBLE_SCENARIO", "restore-fail")]);
    assert_eq!(unknown.code, 1);
    let error =
        format!("info : Adding PackageReference for package 'Contoso.Internal.Logging' into project '{library}'.");
    assert!(unknown.stdout.contains(&error), "{}", unknown.stdout);
    assert!(
        unknown.stdout.contains("error: There are no versions available for the package 'Contoso.Internal.Logging'.")
    );
    // Without the scenario it was recorded for, a failure recording is not replayed.
    let simulated = run(&dir, &missing, &[]);
    assert!(!simulated.all().contains("There are no versions available"), "{}", simulated.all());

    // Another SDK version than the recordings' is simulated.
    let simulated = run(&dir, &["build", &project], &[("DOTNET_DOUBLE_SDK_VERSION", "9.0.306")]);
    assert!(simulated.stdout.contains("net9.0"), "{}", simulated.stdout);
}

#[test]
fn build_server_leaves_a_compiler_server_unless_shared_compilation_is_off() {
    let dir = project_dir("server");
    let scenario = ("DOTNET_DOUBLE_SCENARIO", "build-server");
    let pid_file = dir.join("servers.pid");
    let pid_var = ("DOTNET_DOUBLE_SERVER_PID_FILE", pid_file.to_str().unwrap());
    let built = run(&dir, &["build", "App.csproj"], &[scenario, pid_var, ("DOTNET_ROOT", "/usr/share/dotnet")]);
    assert_eq!(built.code, 0, "{}", built.stderr);
    let pid: u32 = built
        .stderr
        .lines()
        .find_map(|line| line.strip_prefix("double-server-pid: "))
        .unwrap_or_else(|| panic!("no double-server-pid line in:\n{}", built.stderr))
        .parse()
        .unwrap();
    assert_eq!(fs::read_to_string(&pid_file).unwrap(), format!("{pid}\n"));
    // The build returned (its streams closed) while the server runs on, with the real one's command line.
    assert!(alive(pid));
    // The build may return while the server is still inside its exec (glibc's posix_spawn wakes
    // the parent once the new program's memory replaces the old, before its arguments are set up,
    // and a loaded machine widens that window): its command line reads empty until then.
    let deadline = Instant::now() + Duration::from_secs(10);
    let cmdline = loop {
        let cmdline = fs::read(format!("/proc/{pid}/cmdline")).unwrap();
        if !cmdline.is_empty() || Instant::now() > deadline {
            break cmdline;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let args: Vec<&[u8]> = cmdline.split(|&b| b == 0).filter(|arg| !arg.is_empty()).collect();
    assert!(!args.is_empty(), "the server's command line stayed empty for 10 s");
    assert_eq!(args[0], fs::canonicalize(DOUBLE).unwrap().as_os_str().as_encoded_bytes());
    let dll = b"/usr/share/dotnet/sdk/10.0.100/Roslyn/bincore/VBCSCompiler.dll".as_slice();
    assert_eq!(args[1..], [b"exec".as_slice(), dll, b"-pipename:dotnet-double".as_slice()]);
    Command::new("kill").arg(pid.to_string()).status().unwrap();

    let off = run(&dir, &["build", "App.csproj"], &[scenario, pid_var, ("UseSharedCompilation", "false")]);
    assert_eq!(off.code, 0, "{}", off.stderr);
    assert!(!off.stderr.contains("double-server-pid"), "{}", off.stderr);
    assert_eq!(fs::read_to_string(&pid_file).unwrap(), format!("{pid}\n"), "no server started");
}
