//! `dotnet_tool` in process, against the real test double of dotnet: the exact argument vector
//! of every action, every structured result against the advertised outputSchema, failures,
//! locks, elicitation, roots, progress and redaction.

use std::{
    path::{Path, PathBuf},
    sync::{Arc, OnceLock},
    time::{Duration, Instant},
};

use dotnet_support::{
    locking::{self, LockTarget},
    testkit::Double,
};
use dotnet_tool::DotnetTool;
use mcp_plugin_api::{
    ToolResult,
    testkit::{TestCall, TestPluginContext},
};
use serde_json::{Value, json};

/// The double with its log in a scratch folder, a working folder holding a local tool manifest,
/// and the tool built from a plugin context pointing at the double.
struct Harness {
    scratch: tempfile::TempDir,
    double: Double,
    plugin: TestPluginContext,
    tool: Arc<DotnetTool>,
}

impl Harness {
    fn new(scenario: &str) -> Self {
        Self::with(|double| double.scenario(scenario))
    }

    fn with(configure: impl FnOnce(Double) -> Double) -> Self {
        let scratch = tempfile::tempdir().unwrap();
        let work = scratch.path().join("work");
        std::fs::create_dir_all(work.join(".config")).unwrap();
        std::fs::write(work.join(".config/dotnet-tools.json"), r#"{"version":1,"isRoot":true,"tools":{}}"#).unwrap();
        let double = configure(Double::new(scratch.path()).env("DOTNET_DOUBLE_SLOW_SECS", "1"));
        let plugin = double.context();
        let tool = Arc::new(DotnetTool::new(plugin.context()).unwrap());
        Self { scratch, double, plugin, tool }
    }

    /// The working folder (canonical, as the CLI reports it).
    fn work(&self) -> PathBuf {
        self.scratch.path().join("work").canonicalize().unwrap()
    }

    fn runs(&self) -> usize {
        self.double.invocations().len()
    }

    fn last_argv(&self) -> Vec<String> {
        self.double.argvs().pop().expect("dotnet ran")
    }

    fn last_cwd(&self) -> PathBuf {
        self.double.invocations().pop().expect("dotnet ran").cwd
    }

    /// Calls the tool with `args` (plus `workingDirectory` = the working folder unless given),
    /// and checks the result against the output schema.
    fn call_with(&self, call: &TestCall, mut args: Value) -> ToolResult {
        if args.get("workingDirectory").is_none() {
            args["workingDirectory"] = json!(self.work());
        }
        let result = call.run(&*self.tool, args);
        assert_matches_schema(&result);
        result
    }

    fn call(&self, args: Value) -> ToolResult {
        self.call_with(&TestCall::new().unchecked(), args)
    }
}

fn assert_matches_schema(result: &ToolResult) {
    use mcp_plugin_api::Tool;
    static VALIDATOR: OnceLock<jsonschema::Validator> = OnceLock::new();
    let validator = VALIDATOR.get_or_init(|| {
        let schema = Harness::new("").tool.spec().get_output_schema().cloned().expect("an output schema");
        jsonschema::validator_for(&schema).expect("the output schema compiles")
    });
    let structured =
        result.structured_content.as_ref().unwrap_or_else(|| panic!("no structured content: {}", result.joined_text()));
    let problems: Vec<String> = validator.iter_errors(structured).map(|error| error.to_string()).collect();
    assert!(problems.is_empty(), "{problems:?}\n{structured:#}");
}

fn ok(result: &ToolResult) -> &Value {
    assert!(!result.is_error, "{}", result.joined_text());
    result.structured_content.as_ref().unwrap()
}

fn error_code(result: &ToolResult) -> String {
    assert!(result.is_error, "{}", result.joined_text());
    let structured = result.structured_content.as_ref().unwrap();
    assert_eq!(structured["success"], false);
    structured["errors"][0]["code"].as_str().unwrap().to_owned()
}

fn parameter(result: &ToolResult) -> String {
    assert_eq!(error_code(result), "INVALID_PARAMS");
    let structured = result.structured_content.as_ref().unwrap();
    structured["errors"][0]["data"]["additionalData"]["parameter"].as_str().unwrap().to_owned()
}

fn accepting() -> TestCall {
    TestCall::new().unchecked().with_client(|method, _| {
        assert_eq!(method, "elicitation/create");
        Ok(json!({ "action": "accept", "content": { "confirm": true } }))
    })
}

#[test]
fn every_action_runs_its_exact_argument_vector() {
    let harness = Harness::new("");
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
        (json!({ "action": "List" }), vec!["tool", "list"]),
        (
            json!({ "action": "List", "packageId": "dotnet-outdated-tool", "global": true }),
            vec!["tool", "list", "dotnet-outdated-tool", "--global"],
        ),
        (json!({ "action": "List", "toolPath": "tools" }), vec!["tool", "list", "--tool-path", "tools"]),
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
        (
            json!({ "action": "run", "toolName": "csharpier", "args": ["--check", "src/My App", "--log-level=debug"] }),
            vec!["tool", "run", "csharpier", "--", "--check", "src/My App", "--log-level=debug"],
        ),
    ];
    for (args, expected) in cases {
        let result = harness.call(args.clone());
        ok(&result);
        assert_eq!(harness.last_argv(), expected, "{args}");
        assert_eq!(harness.last_cwd(), harness.work(), "{args}");
    }
}

#[test]
fn list_and_search_return_the_parsed_tables() {
    let harness = Harness::new("");
    let manifest = harness.work().join(".config/dotnet-tools.json").display().to_string();
    let local = harness.call(json!({ "action": "List" }));
    let structured = ok(&local);
    assert_eq!(structured["scope"], "local");
    assert_eq!(
        structured["tools"],
        json!([
            { "packageId": "dotnet-ef", "version": "10.0.0", "commands": ["dotnet-ef"], "manifest": manifest },
            { "packageId": "csharpier", "version": "1.1.2", "commands": ["csharpier"], "manifest": manifest }
        ])
    );
    assert!(
        local.joined_text().starts_with("2 tools installed in the local tool manifest."),
        "{}",
        local.joined_text()
    );
    assert!(!local.joined_text().contains("\"packageId\""), "prose, not JSON, for the model");

    let global = harness.call(json!({ "action": "List", "global": true }));
    assert_eq!(
        ok(&global)["tools"],
        json!([{ "packageId": "dotnet-outdated-tool", "version": "4.6.8", "commands": ["dotnet-outdated"] }])
    );
    assert_eq!(ok(&global)["scope"], "global");

    let search = harness.call(json!({ "action": "Search", "searchTerm": "ef" }));
    assert_eq!(
        ok(&search)["packages"],
        json!([{ "packageId": "dotnet-ef", "latestVersion": "10.0.0", "authors": "Microsoft",
                 "downloads": 198765432u64, "verified": true }])
    );
    let detail = harness.call(json!({ "action": "Search", "searchTerm": "report", "detail": true }));
    let packages = ok(&detail)["packages"].as_array().unwrap();
    assert_eq!(packages.len(), 1);
    assert_eq!(packages[0]["packageId"], "dotnet-reportgenerator-globaltool");
    assert_eq!(packages[0]["versions"], json!([{ "version": "5.4.18", "downloads": 98765432u64 }]));
    assert!(packages[0]["description"].as_str().unwrap().starts_with("ReportGenerator converts"));
}

#[test]
fn changes_report_versions_manifests_and_locks() {
    let harness = Harness::new("");
    let work = harness.work();
    let manifest = work.join(".config/dotnet-tools.json").display().to_string();
    let config_folder = work.join(".config").display().to_string();

    let install = harness.call(json!({ "action": "Install", "packageId": "dotnetsay" }));
    let structured = ok(&install);
    assert_eq!(structured["version"], "2.1.7");
    assert_eq!(structured["manifest"], manifest);
    assert_eq!(structured["lockInfo"], json!({ "lockScope": "workingDirectory", "lockKey": config_folder }));
    assert_eq!(structured["command"], "dotnet tool install dotnetsay");

    let update = harness.call(json!({ "action": "Update", "packageId": "csharpier" }));
    assert_eq!(ok(&update)["previousVersion"], "0.30.6");
    assert_eq!(ok(&update)["version"], "1.1.2");
    assert!(update.joined_text().starts_with("Updated csharpier from 0.30.6 to 1.1.2"), "{}", update.joined_text());

    let global = harness.call(json!({ "action": "Install", "packageId": "dotnetsay", "global": true }));
    assert_eq!(ok(&global)["lockInfo"], json!({ "lockScope": "global", "lockKey": "global" }));
    assert_eq!(ok(&global)["scope"], "global");

    let path = harness.call(json!({ "action": "Install", "packageId": "dotnetsay", "toolPath": "tools" }));
    assert_eq!(ok(&path)["lockInfo"]["lockKey"], work.join("tools").display().to_string());

    let restore = harness.call(json!({ "action": "Restore" }));
    let tools = ok(&restore)["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 2);
    assert_eq!(tools[1], json!({ "packageId": "csharpier", "version": "1.1.2", "commands": ["csharpier"] }));

    let created = harness.call(json!({ "action": "CreateManifest", "output": "sub" }));
    assert_eq!(ok(&created)["manifest"], work.join("sub/.config/dotnet-tools.json").display().to_string());
    assert_eq!(ok(&created)["lockInfo"]["lockKey"], work.join("sub/.config").display().to_string());

    let run = harness.call(json!({ "action": "Run", "toolName": "csharpier", "args": ["--version"] }));
    assert_eq!(ok(&run)["args"], json!(["--version"]));
    assert!(run.joined_text().contains("1.1.2"), "the tool's output reaches the model: {}", run.joined_text());
}

#[test]
fn uninstall_asks_first_and_a_refusal_runs_nothing() {
    let harness = Harness::new("");
    let declining = TestCall::new().unchecked().with_client(|method, params| {
        assert_eq!(method, "elicitation/create");
        assert!(params["message"].as_str().unwrap().contains("'csharpier'"), "{params}");
        Ok(json!({ "action": "decline" }))
    });
    let refused = harness.call_with(&declining, json!({ "action": "Uninstall", "packageId": "csharpier" }));
    assert_eq!(error_code(&refused), "OPERATION_CANCELLED");
    assert!(refused.joined_text().contains("Nothing was changed"), "{}", refused.joined_text());
    assert_eq!(harness.runs(), 0, "nothing ran after the refusal");

    let confirmed = harness.call_with(&accepting(), json!({ "action": "Uninstall", "packageId": "csharpier" }));
    assert_eq!(ok(&confirmed)["consent"], "confirmed");
    assert_eq!(ok(&confirmed)["version"], "1.1.2");
    assert_eq!(harness.last_argv(), ["tool", "uninstall", "csharpier"]);

    let unasked = harness.call(json!({ "action": "Uninstall", "packageId": "dotnet-outdated-tool", "global": true }));
    assert_eq!(ok(&unasked)["consent"], "notAsked");
}

#[test]
fn failures_are_errors_with_the_envelope() {
    let harness = Harness::new("");
    let missing = harness.call(json!({ "action": "Install", "packageId": "nope" }));
    assert_eq!(error_code(&missing), "EXIT_1");
    let structured = missing.structured_content.as_ref().unwrap();
    assert!(structured["errors"][0]["message"].as_str().unwrap().contains("Unable to find package nope"));
    assert_eq!(structured["lockInfo"]["lockScope"], "workingDirectory", "the lock it held is reported");
    let not_installed = harness.call_with(&accepting(), json!({ "action": "Uninstall", "packageId": "dotnetsay" }));
    assert_eq!(error_code(&not_installed), "EXIT_1");
    let ran = harness.runs();

    assert_eq!(parameter(&harness.call(json!({ "action": "Install" }))), "packageId");
    assert_eq!(parameter(&harness.call(json!({ "action": "Deploy" }))), "action");
    assert_eq!(parameter(&harness.call(json!({ "action": "List", "searchTerm": "x" }))), "searchTerm");
    let both = json!({ "action": "Install", "packageId": "x", "global": true, "manifest": "m.json" });
    assert_eq!(parameter(&harness.call(both)), "manifest");
    let smuggled = json!({ "action": "Run", "toolName": "csharpier", "args": ["ok", "@evil.rsp"] });
    assert_eq!(parameter(&harness.call(smuggled)), "args[1]");
    let glued = json!({ "action": "Run", "toolName": "csharpier", "args": ["--check --write"] });
    assert_eq!(parameter(&harness.call(glued)), "args[0]");
    assert_eq!(parameter(&harness.call(json!({ "action": "Run", "toolName": "--version" }))), "toolName");
    let nowhere = json!({ "action": "List", "workingDirectory": "/nonexistent/folder" });
    assert_eq!(parameter(&harness.call(nowhere)), "workingDirectory");
    assert_eq!(harness.runs(), ran, "no invalid call reached dotnet");

    let no_sdk = Harness::new("runtime-only");
    assert_eq!(error_code(&no_sdk.call(json!({ "action": "List" }))), "SDK_NOT_FOUND");
    let no_dotnet = Harness::with(|double| double.setting("DotnetPath", json!("/nonexistent/dotnet")));
    assert_eq!(error_code(&no_dotnet.call(json!({ "action": "List" }))), "CAPABILITY_NOT_AVAILABLE");
}

#[test]
fn two_installs_at_once_conflict_on_the_shared_lock() {
    let harness = Harness::new("slow");
    let first_call = Arc::new(TestCall::new().unchecked());
    let first = {
        let (call, tool, work) = (Arc::clone(&first_call), Arc::clone(&harness.tool), harness.work());
        std::thread::spawn(move || {
            call.run(
                &*tool,
                json!({ "action": "Install", "packageId": "dotnetsay", "global": true, "workingDirectory": work }),
            )
        })
    };
    // The first progress report comes after the lock is taken, just before dotnet starts.
    let deadline = Instant::now() + Duration::from_secs(30);
    while first_call.progress().is_empty() {
        assert!(Instant::now() < deadline, "the first install never started");
        std::thread::sleep(Duration::from_millis(10));
    }
    let second = harness.call(json!({ "action": "Update", "packageId": "dotnet-outdated-tool", "global": true }));
    assert_eq!(error_code(&second), "CONCURRENCY_CONFLICT");
    let structured = second.structured_content.as_ref().unwrap();
    assert_eq!(structured["lockInfo"]["lockKey"], "global");
    assert_eq!(structured["lockInfo"]["lockContended"], true);
    let first = first.join().unwrap();
    assert_matches_schema(&first);
    assert_eq!(ok(&first)["version"], "2.1.7");
    assert_eq!(harness.runs(), 1, "only the first install ran");

    // Progress came from the real output, one report per line.
    let messages: Vec<String> = first_call.progress().into_iter().filter_map(|report| report.message).collect();
    assert!(messages.iter().any(|message| message.starts_with("Installing... (")), "{messages:?}");
    assert!(messages.iter().any(|message| message.contains("was successfully installed")), "{messages:?}");
}

#[test]
fn local_tools_lock_the_manifest_folder_however_they_are_reached() {
    let harness = Harness::new("");
    let work = harness.work();
    std::fs::create_dir_all(work.join("src/App")).unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let held = runtime
        .block_on(locking::acquire(
            harness.plugin.context(),
            &LockTarget::for_path(Some(Path::new(".config")), &work),
            "a build elsewhere",
            Duration::ZERO,
        ))
        .unwrap();
    let from_below = json!({ "action": "Install", "packageId": "dotnetsay", "workingDirectory": work.join("src/App") });
    assert_eq!(error_code(&harness.call(from_below)), "CONCURRENCY_CONFLICT");
    let by_manifest = json!({ "action": "Restore", "manifest": ".config/dotnet-tools.json" });
    assert_eq!(error_code(&harness.call(by_manifest)), "CONCURRENCY_CONFLICT");
    ok(&harness.call(json!({ "action": "Install", "packageId": "dotnetsay", "global": true })));
    ok(&harness.call(json!({ "action": "List" })));
    drop(held);
    ok(&harness.call(json!({ "action": "Install", "packageId": "dotnetsay" })));
}

#[test]
fn the_clients_root_with_a_manifest_is_the_default_working_directory() {
    let harness = Harness::new("");
    let other = tempfile::tempdir().unwrap();
    let roots = |dirs: Vec<PathBuf>| {
        TestCall::new().unchecked().with_client(move |method, _| {
            assert_eq!(method, "roots/list");
            let roots: Vec<Value> =
                dirs.iter().map(|dir| json!({ "uri": format!("file://{}", dir.display()) })).collect();
            Ok(json!({ "roots": roots }))
        })
    };
    let one = roots(vec![other.path().to_owned(), harness.work()]);
    ok(&one.run(&*harness.tool, json!({ "action": "Restore" })));
    assert_eq!(harness.last_cwd(), harness.work());

    std::fs::write(other.path().join("dotnet-tools.json"), "{}").unwrap();
    let two = roots(vec![other.path().to_owned(), harness.work()]);
    let result = two.run(&*harness.tool, json!({ "action": "List" }));
    assert_matches_schema(&result);
    assert_eq!(parameter(&result), "workingDirectory");
    assert!(result.joined_text().contains("several of the client's roots"), "{}", result.joined_text());
    // Global tools do not depend on the working directory, so the roots are not consulted.
    ok(&two.run(&*harness.tool, json!({ "action": "List", "global": true })));
}

#[test]
fn secrets_never_reach_the_client() {
    let harness = Harness::new("secrets");
    let values = include_str!("../../test-double/fixtures/secrets/values.txt");
    let feed = "https://builder:hunter2-feed-password@feed.example/v3/index.json";
    for args in [
        json!({ "action": "Install", "packageId": "dotnetsay", "source": feed }),
        json!({ "action": "Restore" }),
        json!({ "action": "Run", "toolName": "csharpier", "args": ["--password=hunter3-arg-secret"] }),
    ] {
        let call = TestCall::new().unchecked();
        let result = harness.call_with(&call, args);
        let structured = ok(&result).to_string();
        let text = result.joined_text();
        let progress: Vec<String> = call.progress().into_iter().filter_map(|report| report.message).collect();
        for secret in values
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty())
            .chain(["hunter2-feed-password", "hunter3-arg-secret"])
        {
            assert!(!structured.contains(secret), "{secret} in {structured}");
            assert!(!text.contains(secret), "{secret} in {text}");
            assert!(progress.iter().all(|message| !message.contains(secret)), "{secret} in progress");
        }
    }
}
