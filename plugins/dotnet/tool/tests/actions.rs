//! `dotnet_tool` in process, against the real test double of dotnet: the exact argument vector
//! of every action, parsed results (the JSON tool list of SDK 9+, the table of SDK 8), failures,
//! locks, elicitation, roots, progress, redaction and read-only service. The test kit checks every
//! result against the advertised schemas, as the host does.

use std::{
    os::unix::fs::PermissionsExt,
    path::PathBuf,
    time::{Duration, Instant},
};

use dotnet_support::{
    locking::LockTarget,
    testkit::{assert_hidden, client, code, failed, parameter, secret_values, succeeded, visible, with_defaults},
};
use mcp_plugin_api::{Tool, testkit::TestCall};
use serde_json::{Value, json};

mod common;

use common::{Tools, harness_with};

fn scenario(name: &'static str) -> Tools {
    harness_with(|double| double.scenario(name))
}

/// The working folder (canonical, as the CLI reports it).
fn work(harness: &Tools) -> PathBuf {
    harness.path().join("work").canonicalize().unwrap()
}

fn last_argv(harness: &Tools) -> Vec<String> {
    harness.argvs().pop().expect("dotnet ran")
}

fn last_cwd(harness: &Tools) -> PathBuf {
    harness.double.invocations().pop().expect("dotnet ran").cwd
}

fn accepting() -> TestCall {
    client(&[], Some(json!({ "action": "accept", "content": { "confirm": true } }))).0
}

#[test]
fn every_action_runs_its_exact_argument_vector() {
    let harness = scenario("");
    let source = "https://nuget.example/v3/index.json";
    let cases: Vec<(Value, Vec<&str>)> = vec![
        (json!({ "action": "Install", "packageId": "dotnetsay" }), vec!["tool", "install", "dotnetsay"]),
        (
            json!({ "action": "Install", "packageId": "dotnetsay", "global": true, "version": "2.1.7",
                    "framework": "net10.0", "prerelease": true, "allowDowngrade": true, "source": source,
                    "configFile": "NuGet.Config" }),
            vec![
                "tool",
                "install",
                "dotnetsay",
                "--global",
                "--version",
                "2.1.7",
                "--framework",
                "net10.0",
                "--prerelease",
                "--allow-downgrade",
                "--add-source",
                source,
                "--configfile",
                "NuGet.Config",
            ],
        ),
        (
            json!({ "action": "Install", "packageId": "dotnetsay", "toolPath": "tools" }),
            vec!["tool", "install", "dotnetsay", "--tool-path", "tools"],
        ),
        (
            json!({ "action": "Install", "packageId": "dotnetsay", "manifest": ".config/dotnet-tools.json" }),
            vec!["tool", "install", "dotnetsay", "--tool-manifest", ".config/dotnet-tools.json"],
        ),
        (json!({ "action": "Update", "packageId": "csharpier" }), vec!["tool", "update", "csharpier"]),
        (
            json!({ "action": "Update", "packageId": "dotnet-outdated-tool", "global": true, "version": "4.6.8" }),
            vec!["tool", "update", "dotnet-outdated-tool", "--global", "--version", "4.6.8"],
        ),
        (json!({ "action": "Uninstall", "packageId": "csharpier" }), vec!["tool", "uninstall", "csharpier"]),
        (
            json!({ "action": "Uninstall", "packageId": "dotnet-outdated-tool", "global": true }),
            vec!["tool", "uninstall", "dotnet-outdated-tool", "--global"],
        ),
        (json!({ "action": "List" }), vec!["tool", "list", "--format", "json"]),
        (
            json!({ "action": "List", "packageId": "dotnet-outdated-tool", "global": true }),
            vec!["tool", "list", "dotnet-outdated-tool", "--global", "--format", "json"],
        ),
        (
            json!({ "action": "List", "toolPath": "tools" }),
            vec!["tool", "list", "--tool-path", "tools", "--format", "json"],
        ),
        (json!({ "action": "Restore" }), vec!["tool", "restore"]),
        (
            json!({ "action": "Restore", "manifest": ".config/dotnet-tools.json", "source": source, "configFile": "n.config" }),
            vec![
                "tool",
                "restore",
                "--tool-manifest",
                ".config/dotnet-tools.json",
                "--add-source",
                source,
                "--configfile",
                "n.config",
            ],
        ),
        (json!({ "action": "CreateManifest" }), vec!["new", "tool-manifest"]),
        (
            json!({ "action": "CreateManifest", "output": "sub", "force": true }),
            vec!["new", "tool-manifest", "-o", "sub", "--force"],
        ),
        (json!({ "action": "Search", "searchTerm": "ef" }), vec!["tool", "search", "ef"]),
        (
            json!({ "action": "Search", "searchTerm": "ef", "detail": true, "take": 5, "skip": 1, "prerelease": true }),
            vec!["tool", "search", "ef", "--detail", "--take", "5", "--skip", "1", "--prerelease"],
        ),
        (json!({ "action": "Run", "toolName": "dotnet-ef" }), vec!["tool", "run", "dotnet-ef"]),
        (json!({ "action": "Exec", "packageId": "dotnetsay" }), vec!["tool", "exec", "dotnetsay", "--yes"]),
        (
            json!({ "action": "Exec", "packageId": "dotnetsay", "version": "2.1.7", "prerelease": true,
                    "source": source, "configFile": "NuGet.Config", "args": ["--help", "hello world"] }),
            vec![
                "tool",
                "exec",
                "dotnetsay",
                "--version",
                "2.1.7",
                "--prerelease",
                "--add-source",
                source,
                "--configfile",
                "NuGet.Config",
                "--yes",
                "--",
                "--help",
                "hello world",
            ],
        ),
        (
            json!({ "action": "Run", "toolName": "csharpier", "args": ["--check", "src/My App", "--log-level=debug"] }),
            vec!["tool", "run", "csharpier", "--", "--check", "src/My App", "--log-level=debug"],
        ),
    ];
    for (args, expected) in cases {
        let structured = harness.ok(args.clone());
        assert_eq!(structured["action"], args["action"]);
        assert_eq!(last_argv(&harness), expected, "{args}");
        assert_eq!(last_cwd(&harness), work(&harness), "{args}");
    }
    let lower = harness.call_with(&TestCall::new().unchecked(), json!({ "action": "run", "toolName": "csharpier" }));
    assert_eq!(succeeded(&lower)["action"], "Run", "action names are read without regard to case");
}

#[test]
fn defaults_a_client_fills_in_change_nothing() {
    let harness = scenario("");
    // The issue's example: a search with `global: false`, as a form-filling client sends it.
    harness.ok(json!({ "action": "Search", "searchTerm": "x", "global": false }));
    for args in [json!({ "action": "List" }), json!({ "action": "Search", "searchTerm": "ef" })] {
        harness.ok(args.clone());
        let plain = last_argv(&harness);
        let filled = with_defaults(&harness.tool, &args);
        assert_eq!((filled["global"].clone(), filled["args"].clone()), (json!(false), json!([])), "{filled}");
        harness.ok(filled);
        assert_eq!(last_argv(&harness), plain, "{args}");
    }
}

#[test]
fn an_sdk_without_the_json_listing_is_asked_for_its_table() {
    let harness = harness_with(|double| double.env("DOTNET_DOUBLE_SDK_VERSION", "8.0.416"));
    let structured = harness.ok(json!({ "action": "List", "global": true }));
    assert_eq!(
        harness.argvs(),
        [vec!["tool", "list", "--global", "--format", "json"], vec!["tool", "list", "--global"]],
        "SDK 8 refuses --format, so the table is read"
    );
    assert_eq!(
        structured["tools"],
        json!([{ "packageId": "dotnet-outdated-tool", "version": "4.6.8", "commands": ["dotnet-outdated"] }])
    );
    assert_eq!(structured["command"], "dotnet tool list --global");
    let newer = harness_with(|double| double);
    assert_eq!(newer.ok(json!({ "action": "List", "global": true }))["tools"], structured["tools"], "same result");
    assert_eq!(
        newer.ok(json!({ "action": "List", "global": true }))["command"],
        "dotnet tool list --global --format json"
    );
}

#[test]
fn an_empty_list_is_said_once_and_its_report_kept_for_verbose() {
    // What SDK 10.0.401 printed for an empty global list, and SDK 8's table (headers and rule).
    for (sdk, report) in
        [("10.0.401", r#"{"version":1,"data":[]}"#), ("8.0.416", "Package Id      Version      Commands")]
    {
        let harness = harness_with(|double| double.env("DOTNET_DOUBLE_SDK_VERSION", sdk));
        let args = json!({ "action": "List", "global": true, "packageId": "dotnetsay" });
        let standard = harness.call(args.clone());
        assert_eq!(succeeded(&standard)["tools"], json!([]), "SDK {sdk}");
        assert_eq!(standard.joined_text(), "0 tools installed globally.", "SDK {sdk}: the report is read, not shown");
        let verbose = harness.call_with(&TestCall::new().with_features(&["verbosity=verbose"]), args);
        assert!(verbose.joined_text().contains(report), "SDK {sdk}: {}", verbose.joined_text());
    }
}

#[test]
fn list_and_search_return_the_parsed_tables() {
    let harness = scenario("");
    let manifest = work(&harness).join("dotnet-tools.json").display().to_string();
    let local = harness.call(json!({ "action": "List" }));
    let structured = succeeded(&local);
    assert_eq!(structured["scope"], "local");
    assert_eq!(
        structured["tools"],
        json!([{ "packageId": "csharpier", "version": "1.1.2", "commands": ["csharpier"], "manifest": manifest }])
    );
    assert!(local.joined_text().starts_with("1 tool installed in the local tool manifest."), "{}", local.joined_text());
    assert!(!local.joined_text().contains("\"packageId\""), "prose, not JSON, for the model");

    let global = harness.call(json!({ "action": "List", "global": true }));
    assert_eq!(
        succeeded(&global)["tools"],
        json!([{ "packageId": "dotnet-outdated-tool", "version": "4.6.8", "commands": ["dotnet-outdated"] }])
    );
    assert_eq!(succeeded(&global)["scope"], "global");

    let search = harness.call(json!({ "action": "Search", "searchTerm": "ef" }));
    assert_eq!(
        succeeded(&search)["packages"],
        json!([{ "packageId": "dotnet-ef", "latestVersion": "10.0.0", "authors": "Microsoft",
                 "downloads": 198765432u64, "verified": true }])
    );
    let detail = harness.call(json!({ "action": "Search", "searchTerm": "report", "detail": true }));
    let packages = succeeded(&detail)["packages"].as_array().unwrap();
    assert_eq!(packages.len(), 1);
    assert_eq!(packages[0]["packageId"], "dotnet-reportgenerator-globaltool");
    assert_eq!(packages[0]["versions"], json!([{ "version": "5.4.18", "downloads": 98765432u64 }]));
    assert!(packages[0]["description"].as_str().unwrap().starts_with("ReportGenerator converts"));

    // What SDK 10.0.401 did against the mirror (recordings/tools): "Unhandled exception: Index was
    // out of range. ..." on stderr, exit 1: not possible here, with a remedy.
    let crashed = harness.err(json!({ "action": "Search", "searchTerm": "csharpier", "take": 5 }));
    assert_eq!((code(&crashed), crashed["exitCode"].as_i64()), ("CAPABILITY_NOT_AVAILABLE", Some(1)));
    let error = &crashed["errors"][0];
    assert!(error["message"].as_str().unwrap().contains("Unhandled exception: Index was out of range"), "{error}");
    assert!(error["hint"].as_str().unwrap().contains("Install"), "{error}");
    assert_eq!(error["data"]["command"], "dotnet tool search csharpier --take 5");
}

#[test]
fn changes_report_versions_manifests_and_locks() {
    let harness = scenario("");
    let work = work(&harness);
    let manifest = work.join("dotnet-tools.json").display().to_string();
    let folder = work.display().to_string();

    let install = harness.call(json!({ "action": "Install", "packageId": "dotnetsay" }));
    let structured = succeeded(&install);
    assert_eq!(structured["version"], "2.1.7");
    assert_eq!(structured["manifest"], manifest);
    assert_eq!(structured["lockInfo"], json!({ "lockScope": "workingDirectory", "lockKey": folder }));
    assert_eq!(structured["command"], "dotnet tool install dotnetsay");

    // Replayed: "Tool 'csharpier' was successfully updated from version '1.1.2' to version '1.4.0'
    // (manifest file <work>/dotnet-tools.json)."
    let update = harness.call(json!({ "action": "Update", "packageId": "csharpier" }));
    assert_eq!(succeeded(&update)["previousVersion"], "1.1.2");
    assert_eq!(succeeded(&update)["version"], "1.4.0");
    assert_eq!(succeeded(&update)["manifest"], manifest);
    assert!(update.joined_text().starts_with("Updated csharpier from 1.1.2 to 1.4.0"), "{}", update.joined_text());

    let global = harness.call(json!({ "action": "Install", "packageId": "dotnetsay", "global": true }));
    assert_eq!(succeeded(&global)["lockInfo"], json!({ "lockScope": "global", "lockKey": "global" }));
    assert_eq!(succeeded(&global)["scope"], "global");

    let path = harness.call(json!({ "action": "Install", "packageId": "dotnetsay", "toolPath": "tools" }));
    assert_eq!(succeeded(&path)["lockInfo"]["lockKey"], work.join("tools").display().to_string());

    let restore = harness.call(json!({ "action": "Restore" }));
    assert_eq!(
        succeeded(&restore)["tools"],
        json!([{ "packageId": "csharpier", "version": "1.4.0", "commands": ["csharpier"] }])
    );

    // The double writes no manifest: the SDK 10 place is reported, under the folder's lock.
    let created = harness.call(json!({ "action": "CreateManifest", "output": "sub" }));
    assert_eq!(succeeded(&created)["manifest"], work.join("sub/dotnet-tools.json").display().to_string());
    assert_eq!(succeeded(&created)["lockInfo"]["lockKey"], work.join("sub").display().to_string());

    let run = harness.call(json!({ "action": "Run", "toolName": "csharpier", "args": ["--version"] }));
    assert_eq!(succeeded(&run)["args"], json!(["--version"]));
    assert!(run.joined_text().contains("1.4.0"), "the tool's output reaches the model: {}", run.joined_text());
}

#[test]
fn create_manifest_reports_the_file_the_sdk_wrote() {
    // A stand-in for an SDK before 10, which writes .config/dotnet-tools.json: the plugin reports
    // the place that changed, not the one SDK 10 uses.
    let harness = Tools::with(|dir, double| {
        let work = dir.join("work");
        std::fs::create_dir_all(&work).unwrap();
        let script = dir.join("dotnet-9.sh");
        std::fs::write(
            &script,
            "#!/bin/sh\nmkdir -p \"$4/.config\" && echo '{}' > \"$4/.config/dotnet-tools.json\"\n\
             echo 'The template \"Dotnet local tool manifest file\" was created successfully.'\n",
        )
        .unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        double.setting("WorkingDirectory", json!(work)).setting("DotnetPath", json!(script))
    });
    let work = work(&harness);
    let created = harness.call(json!({ "action": "CreateManifest", "output": "old" }));
    assert_eq!(succeeded(&created)["manifest"], work.join("old/.config/dotnet-tools.json").display().to_string());
    assert_eq!(succeeded(&created)["lockInfo"]["lockKey"], work.join("old").display().to_string());
}

#[test]
fn exec_runs_a_tool_package_once_without_installing_it() {
    let harness = scenario("");
    // Replayed from recordings/tools: SDK 10.0.401 ran csharpier 1.1.2 from the mirror.
    let ran =
        harness.ok(json!({ "action": "Exec", "packageId": "csharpier", "version": "1.1.2", "args": ["--version"] }));
    assert_eq!((ran["packageId"].as_str(), ran["version"].as_str()), (Some("csharpier"), Some("1.1.2")));
    assert_eq!(ran["args"], json!(["--version"]));
    assert_eq!(ran["command"], "dotnet tool exec csharpier --version 1.1.2 --yes -- --version");
    let text =
        harness.call(json!({ "action": "Exec", "packageId": "csharpier", "version": "1.1.2", "args": ["--version"] }));
    assert!(text.joined_text().contains("1.1.2"), "the tool's output reaches the model: {}", text.joined_text());

    // Replayed: "no-such-tool-xyz is not found in NuGet feeds https://api.nuget.org/v3/index.json." (exit 1).
    let unknown = harness.err(json!({ "action": "Exec", "packageId": "no-such-tool-xyz" }));
    assert_eq!(code(&unknown), "EXIT_1");
    assert!(unknown["errors"][0]["message"].as_str().unwrap().contains("is not found in NuGet feeds"), "{unknown}");

    // SDK 9 and earlier have no `tool exec`.
    let old = harness_with(|double| double.env("DOTNET_DOUBLE_SDK_VERSION", "9.0.300"));
    let refused = old.err(json!({ "action": "Exec", "packageId": "dotnetsay" }));
    assert_eq!(code(&refused), "CAPABILITY_NOT_AVAILABLE");
    assert!(refused["errors"][0]["message"].as_str().unwrap().contains("SDK 10"), "{refused}");
}

#[test]
fn uninstall_asks_first_and_a_refusal_runs_nothing() {
    let harness = scenario("");
    let (declining, questions) = client(&[], Some(json!({ "action": "decline" })));
    let refused = harness.call_with(&declining, json!({ "action": "Uninstall", "packageId": "csharpier" }));
    assert!(questions.lock().unwrap()[0].contains("'csharpier'"), "{:?}", questions.lock().unwrap());
    assert_eq!(code(failed(&refused)), "OPERATION_CANCELLED");
    assert!(refused.joined_text().contains("Nothing was changed"), "{}", refused.joined_text());
    assert_eq!(harness.runs(), 0, "nothing ran after the refusal");

    // Replayed: "Tool 'csharpier' was successfully uninstalled and removed from manifest file
    // <work>/dotnet-tools.json." (no version).
    let confirmed = harness.call_with(&accepting(), json!({ "action": "Uninstall", "packageId": "csharpier" }));
    assert_eq!(succeeded(&confirmed)["consent"], "confirmed");
    assert_eq!(succeeded(&confirmed)["manifest"], work(&harness).join("dotnet-tools.json").display().to_string());
    assert_eq!(last_argv(&harness), ["tool", "uninstall", "csharpier"]);

    let unasked = harness.call(json!({ "action": "Uninstall", "packageId": "dotnet-outdated-tool", "global": true }));
    assert_eq!(succeeded(&unasked)["consent"], "notAsked");
}

#[test]
fn failures_are_errors_with_the_envelope() {
    let harness = scenario("");
    let missing = harness.call(json!({ "action": "Install", "packageId": "nope" }));
    assert_eq!(code(failed(&missing)), "EXIT_1");
    let structured = missing.structured_content.as_ref().unwrap();
    assert!(structured["errors"][0]["message"].as_str().unwrap().contains("Unable to find package nope"));
    assert_eq!(structured["lockInfo"]["lockScope"], "workingDirectory", "the lock it held is reported");
    let not_installed = harness.call_with(&accepting(), json!({ "action": "Uninstall", "packageId": "dotnetsay" }));
    assert_eq!(code(failed(&not_installed)), "EXIT_1");
    let ran = harness.runs();

    assert_eq!(parameter(&harness.err(json!({ "action": "Install" }))), "packageId");
    let unknown = harness.call_with(&TestCall::new().unchecked(), json!({ "action": "Deploy" }));
    assert_eq!(parameter(failed(&unknown)), "action");
    assert_eq!(parameter(&harness.err(json!({ "action": "List", "searchTerm": "x" }))), "searchTerm");
    let both = json!({ "action": "Install", "packageId": "x", "global": true, "manifest": "m.json" });
    assert_eq!(parameter(&harness.err(both)), "manifest");
    let smuggled = json!({ "action": "Run", "toolName": "csharpier", "args": ["ok", "@evil.rsp"] });
    assert_eq!(parameter(&harness.err(smuggled)), "args[1]");
    let glued = json!({ "action": "Run", "toolName": "csharpier", "args": ["--check --write"] });
    assert_eq!(parameter(&harness.err(glued)), "args[0]");
    assert_eq!(parameter(&harness.err(json!({ "action": "Run", "toolName": "--version" }))), "toolName");
    let nowhere = json!({ "action": "List", "workingDirectory": "/nonexistent/folder" });
    assert_eq!(parameter(&harness.err(nowhere)), "workingDirectory");
    assert_eq!(harness.runs(), ran, "no invalid call reached dotnet");

    let no_sdk = scenario("runtime-only");
    assert_eq!(code(failed(&no_sdk.call(json!({ "action": "List" })))), "SDK_NOT_FOUND");
    let no_dotnet = harness_with(|double| double.setting("DotnetPath", json!("/nonexistent/dotnet")));
    assert_eq!(code(failed(&no_dotnet.call(json!({ "action": "List" })))), "CAPABILITY_NOT_AVAILABLE");
}

#[test]
fn two_installs_at_once_conflict_on_the_shared_lock() {
    // The first install waits after its second of ticks while the hold file exists: a second of
    // ticks alone is no certain window for the second call on a loaded machine.
    let scratch = tempfile::tempdir().unwrap();
    let hold = scratch.path().join("hold");
    std::fs::write(&hold, "").unwrap();
    let harness = harness_with(|double| double.scenario("slow").env("DOTNET_DOUBLE_HOLD", hold.to_str().unwrap()));
    let first_call = TestCall::new();
    std::thread::scope(|scope| {
        let install = json!({ "action": "Install", "packageId": "dotnetsay", "global": true });
        let first = scope.spawn(|| harness.call_with(&first_call, install));
        // The first progress report comes after the lock is taken, just before dotnet starts.
        let deadline = Instant::now() + Duration::from_secs(30);
        while first_call.progress().is_empty() {
            assert!(Instant::now() < deadline, "the first install never started");
            std::thread::sleep(Duration::from_millis(10));
        }
        // Released before anything is asserted, so that a failing assertion does not leave the
        // first install waiting for the scope's end.
        let second = harness.call(json!({ "action": "Update", "packageId": "dotnet-outdated-tool", "global": true }));
        std::fs::remove_file(&hold).unwrap();
        let second = failed(&second);
        assert_eq!(code(second), "CONCURRENCY_CONFLICT");
        assert_eq!(second["lockInfo"]["lockKey"], "global");
        assert_eq!(second["lockInfo"]["lockContended"], true);
        assert_eq!(succeeded(&first.join().unwrap())["version"], "2.1.7");
    });
    assert_eq!(harness.runs(), 1, "only the first install ran");

    // Progress came from the real output, one report per line.
    let messages: Vec<String> = first_call.progress().into_iter().filter_map(|report| report.message).collect();
    assert!(messages.iter().any(|message| message.starts_with("Installing... (")), "{messages:?}");
    assert!(messages.iter().any(|message| message.contains("was successfully installed")), "{messages:?}");
}

#[test]
fn local_tools_lock_the_manifest_folder_however_they_are_reached() {
    let harness = scenario("");
    let work = work(&harness);
    std::fs::create_dir_all(work.join("src/App")).unwrap();
    let held = harness.hold(&LockTarget::for_path(None, &work), "a build elsewhere");
    let from_below = json!({ "action": "Install", "packageId": "dotnetsay", "workingDirectory": work.join("src/App") });
    assert_eq!(code(failed(&harness.call(from_below))), "CONCURRENCY_CONFLICT");
    let by_manifest = json!({ "action": "Restore", "manifest": "dotnet-tools.json" });
    assert_eq!(code(failed(&harness.call(by_manifest))), "CONCURRENCY_CONFLICT");
    // A manifest in .config (where SDKs before 10 wrote it) belongs to the same folder.
    std::fs::create_dir_all(work.join(".config")).unwrap();
    std::fs::copy(work.join("dotnet-tools.json"), work.join(".config/dotnet-tools.json")).unwrap();
    let by_manifest = json!({ "action": "Restore", "manifest": ".config/dotnet-tools.json" });
    assert_eq!(code(failed(&harness.call(by_manifest))), "CONCURRENCY_CONFLICT");
    succeeded(&harness.call(json!({ "action": "Install", "packageId": "dotnetsay", "global": true })));
    succeeded(&harness.call(json!({ "action": "List" })));
    drop(held);
    succeeded(&harness.call(json!({ "action": "Install", "packageId": "dotnetsay" })));
}

#[test]
fn the_clients_root_with_a_manifest_is_the_default_working_directory() {
    let harness = harness_with(|double| double.setting("WorkingDirectory", Value::Null));
    let other = tempfile::tempdir().unwrap();
    let work = work(&harness);
    let one = client(&[other.path(), &work], None).0;
    succeeded(&harness.call_with(&one, json!({ "action": "Restore" })));
    assert_eq!(last_cwd(&harness), work);

    std::fs::write(other.path().join("dotnet-tools.json"), "{}").unwrap();
    let two = client(&[other.path(), &work], None).0;
    let result = harness.call_with(&two, json!({ "action": "List" }));
    assert_eq!(parameter(failed(&result)), "workingDirectory");
    assert!(result.joined_text().contains("several of the client's roots"), "{}", result.joined_text());
    // Global tools do not depend on the working directory, so the roots are not consulted.
    succeeded(&harness.call_with(&two, json!({ "action": "List", "global": true })));
}

#[test]
fn secrets_never_reach_the_client() {
    let harness = scenario("secrets");
    let feed = "https://builder:hunter2-feed-password@feed.example/v3/index.json";
    let mut secrets = secret_values();
    secrets.extend(["hunter2-feed-password", "hunter3-arg-secret"]);
    for args in [
        json!({ "action": "Install", "packageId": "dotnetsay", "source": feed }),
        json!({ "action": "Restore" }),
        json!({ "action": "Run", "toolName": "csharpier", "args": ["--password=hunter3-arg-secret"] }),
    ] {
        let call = TestCall::new();
        let result = harness.call_with(&call, args);
        succeeded(&result);
        assert_hidden(&visible(&call, &result), &secrets);
    }
}

#[test]
fn a_read_only_server_offers_list_and_search_only() {
    let harness = harness_with(|double| double.setting("ReadOnly", json!(true)));
    let spec = harness.tool.spec();
    assert_eq!(spec.get_input_schema()["properties"]["action"]["enum"], json!(["List", "Search"]));
    let annotations = spec.get_annotations();
    assert_eq!(
        (annotations.read_only, annotations.destructive, annotations.idempotent, annotations.open_world),
        (Some(true), Some(false), Some(true), Some(true)),
        "Search reaches nuget.org"
    );
    succeeded(&harness.call(json!({ "action": "List" })));
    let refused = harness.call_with(&TestCall::new().unchecked(), json!({ "action": "Run", "toolName": "csharpier" }));
    assert_eq!(code(failed(&refused)), "READ_ONLY");
    assert_eq!(harness.runs(), 1, "only the listing ran");
}
