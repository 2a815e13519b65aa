//! `dotnet_workload` in process, against the real test double of dotnet: the exact argument
//! vector of every action, every structured result against the advertised outputSchema,
//! failures, the machine-wide lock, elicitation, progress and redaction.

use std::{
    sync::{Arc, OnceLock},
    time::{Duration, Instant},
};

use dotnet_support::testkit::Double;
use dotnet_workload::DotnetWorkload;
use mcp_plugin_api::{ToolResult, testkit::TestCall};
use serde_json::{Value, json};

/// The double with its log in a scratch folder, and the tool built from a plugin context
/// pointing at it.
struct Harness {
    scratch: tempfile::TempDir,
    double: Double,
    tool: Arc<DotnetWorkload>,
}

impl Harness {
    fn new(scenario: &str) -> Self {
        Self::with(|double| double.scenario(scenario))
    }

    fn with(configure: impl FnOnce(Double) -> Double) -> Self {
        let scratch = tempfile::tempdir().unwrap();
        let double = configure(Double::new(scratch.path()).env("DOTNET_DOUBLE_SLOW_SECS", "1"));
        let tool = Arc::new(DotnetWorkload::new(double.context().context()).unwrap());
        Self { scratch, double, tool }
    }

    fn runs(&self) -> usize {
        self.double.invocations().len()
    }

    fn last_argv(&self) -> Vec<String> {
        self.double.argvs().pop().expect("dotnet ran")
    }

    /// Calls the tool in the scratch folder and checks the result against the output schema.
    fn call_with(&self, call: &TestCall, mut args: Value) -> ToolResult {
        if args.get("workingDirectory").is_none() {
            args["workingDirectory"] = json!(self.scratch.path());
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

fn answering(answer: Value) -> TestCall {
    TestCall::new().unchecked().with_client(move |method, params| {
        assert_eq!(method, "elicitation/create");
        assert!(params["message"].as_str().unwrap().contains("wasm-tools"), "{params}");
        Ok(answer.clone())
    })
}

#[test]
fn every_action_runs_its_exact_argument_vector() {
    let harness = Harness::new("");
    let source = "https://nuget.example/v3/index.json";
    let cases: Vec<(Value, Vec<&str>)> = vec![
        (json!({ "action": "List" }), vec!["workload", "list"]),
        (json!({ "action": "Info" }), vec!["workload", "--info"]),
        (json!({ "action": "Search" }), vec!["workload", "search"]),
        (json!({ "action": "Search", "searchTerm": "wasm" }), vec!["workload", "search", "wasm"]),
        (json!({ "action": "Install", "workloadIds": ["wasm-tools"] }), vec!["workload", "install", "wasm-tools"]),
        (
            json!({ "action": "Install", "workloadIds": ["maui", "wasm-tools"], "skipManifestUpdate": true,
                    "includePreviews": true, "source": source, "configFile": "NuGet.Config" }),
            vec![
                "workload",
                "install",
                "maui",
                "wasm-tools",
                "--skip-manifest-update",
                "--include-previews",
                "--source",
                source,
                "--configfile",
                "NuGet.Config",
            ],
        ),
        (json!({ "action": "Update" }), vec!["workload", "update"]),
        (
            json!({ "action": "update", "includePreviews": true, "source": source, "configFile": "n.config" }),
            vec!["workload", "update", "--include-previews", "--source", source, "--configfile", "n.config"],
        ),
        (json!({ "action": "Uninstall", "workloadIds": ["wasm-tools"] }), vec!["workload", "uninstall", "wasm-tools"]),
    ];
    for (args, expected) in cases {
        ok(&harness.call(args.clone()));
        assert_eq!(harness.last_argv(), expected, "{args}");
        let cwd = harness.double.invocations().pop().unwrap().cwd;
        assert_eq!(cwd.canonicalize().unwrap(), harness.scratch.path().canonicalize().unwrap());
    }
}

#[test]
fn list_info_and_search_return_parsed_results() {
    let harness = Harness::new("");
    let list = harness.call(json!({ "action": "List" }));
    assert_eq!(
        ok(&list)["workloads"],
        json!([{ "id": "wasm-tools", "manifestVersion": "10.0.0/10.0.100", "installationSource": "SDK 10.0.100" }])
    );
    assert!(list.joined_text().starts_with("1 workload installed."), "{}", list.joined_text());

    let info = harness.call(json!({ "action": "Info" }));
    let structured = ok(&info);
    assert_eq!(structured["workloadVersion"], "10.0.100-manifests.5fb86115");
    assert_eq!(structured["workloads"][0]["id"], "wasm-tools");
    assert_eq!(structured["workloads"][0]["installType"], "FileBased");
    assert!(structured["workloads"][0]["manifestPath"].as_str().unwrap().ends_with("/WorkloadManifest.json"));

    let search = harness.call(json!({ "action": "Search", "searchTerm": "wasm" }));
    let structured = ok(&search);
    assert_eq!(structured["searchTerm"], "wasm");
    assert_eq!(
        structured["workloads"],
        json!([
            { "id": "wasm-experimental", "description": ".NET WebAssembly experimental tooling" },
            { "id": "wasm-tools", "description": ".NET WebAssembly build tools" },
            { "id": "wasm-tools-net8", "description": ".NET WebAssembly build tools for net8.0" }
        ])
    );
    let all = harness.call(json!({ "action": "Search" }));
    assert_eq!(ok(&all)["workloads"].as_array().unwrap().len(), 11);
    assert!(ok(&all).get("searchTerm").is_none());
}

#[test]
fn installs_updates_and_uninstalls_take_the_global_lock() {
    let harness = Harness::new("");
    let install = harness.call(json!({ "action": "Install", "workloadIds": ["ios"] }));
    let structured = ok(&install);
    assert_eq!(structured["workloadIds"], json!(["ios"]));
    assert_eq!(
        structured["packs"],
        json!([{ "id": "Microsoft.iOS.Sdk", "version": "10.0.0" }, { "id": "Microsoft.iOS.Templates", "version": "10.0.0" }])
    );
    assert_eq!(structured["lockInfo"], json!({ "lockScope": "global", "lockKey": "global" }));

    let update = harness.call(json!({ "action": "Update" }));
    assert_eq!(ok(&update)["updated"], json!(["wasm-tools"]));
    assert_eq!(ok(&update)["lockInfo"]["lockKey"], "global");

    let uninstall = harness.call(json!({ "action": "Uninstall", "workloadIds": ["wasm-tools"] }));
    assert_eq!(ok(&uninstall)["consent"], "notAsked");
    assert_eq!(ok(&uninstall)["lockInfo"]["lockScope"], "global");

    let list = harness.call(json!({ "action": "List" }));
    assert!(ok(&list).get("lockInfo").is_none(), "reading takes no lock");
}

#[test]
fn uninstall_asks_first_and_a_refusal_runs_nothing() {
    let harness = Harness::new("");
    for answer in [json!({ "action": "decline" }), json!({ "action": "accept", "content": { "confirm": false } })] {
        let refused =
            harness.call_with(&answering(answer), json!({ "action": "Uninstall", "workloadIds": ["wasm-tools"] }));
        assert_eq!(error_code(&refused), "OPERATION_CANCELLED");
        assert!(refused.joined_text().contains("Nothing was changed"), "{}", refused.joined_text());
    }
    assert_eq!(harness.runs(), 0, "nothing ran after a refusal");
    let accepted = answering(json!({ "action": "accept", "content": { "confirm": true } }));
    let confirmed = harness.call_with(&accepted, json!({ "action": "Uninstall", "workloadIds": ["wasm-tools"] }));
    assert_eq!(ok(&confirmed)["consent"], "confirmed");
    assert_eq!(harness.last_argv(), ["workload", "uninstall", "wasm-tools"]);
}

#[test]
fn failures_are_errors_with_the_envelope() {
    let harness = Harness::new("");
    let unknown = harness.call(json!({ "action": "Install", "workloadIds": ["nope"] }));
    assert_eq!(error_code(&unknown), "EXIT_1");
    let structured = unknown.structured_content.as_ref().unwrap();
    assert_eq!(structured["errors"][0]["message"], "Workload ID nope is not recognized.");
    assert_eq!(structured["lockInfo"]["lockKey"], "global");
    let not_installed = harness.call(json!({ "action": "Uninstall", "workloadIds": ["maui"] }));
    assert_eq!(error_code(&not_installed), "EXIT_1");
    let ran = harness.runs();

    assert_eq!(parameter(&harness.call(json!({ "action": "Install" }))), "workloadIds");
    assert_eq!(
        parameter(&harness.call(json!({ "action": "Install", "workloadIds": ["ios", "--source=x"] }))),
        "workloadIds[1]"
    );
    assert_eq!(parameter(&harness.call(json!({ "action": "Repair" }))), "action");
    assert_eq!(parameter(&harness.call(json!({ "action": "List", "workloadIds": ["ios"] }))), "workloadIds");
    assert_eq!(parameter(&harness.call(json!({ "action": "Update", "source": "--interactive" }))), "source");
    assert_eq!(
        parameter(&harness.call(json!({ "action": "List", "workingDirectory": "/nonexistent" }))),
        "workingDirectory"
    );
    assert_eq!(harness.runs(), ran, "no invalid call reached dotnet");

    assert_eq!(error_code(&Harness::new("runtime-only").call(json!({ "action": "List" }))), "SDK_NOT_FOUND");
    let no_dotnet = Harness::with(|double| double.setting("DotnetPath", json!("/nonexistent/dotnet")));
    assert_eq!(error_code(&no_dotnet.call(json!({ "action": "Info" }))), "CAPABILITY_NOT_AVAILABLE");
}

#[test]
fn two_installs_at_once_conflict_and_progress_follows_the_output() {
    let harness = Harness::new("slow");
    let first_call = Arc::new(TestCall::new().unchecked());
    let first = {
        let (call, tool, dir) = (Arc::clone(&first_call), Arc::clone(&harness.tool), harness.scratch.path().to_owned());
        std::thread::spawn(move || {
            call.run(&*tool, json!({ "action": "Install", "workloadIds": ["wasm-tools"], "workingDirectory": dir }))
        })
    };
    let deadline = Instant::now() + Duration::from_secs(30);
    while first_call.progress().is_empty() {
        assert!(Instant::now() < deadline, "the first install never started");
        std::thread::sleep(Duration::from_millis(10));
    }
    let second = harness.call(json!({ "action": "Install", "workloadIds": ["ios"] }));
    assert_eq!(error_code(&second), "CONCURRENCY_CONFLICT");
    let structured = second.structured_content.as_ref().unwrap();
    assert_eq!(structured["lockInfo"]["lockContended"], true);
    assert!(structured["errors"][0]["message"].as_str().unwrap().contains("dotnet_workload Install"));
    let first = first.join().unwrap();
    assert_matches_schema(&first);
    ok(&first);
    assert_eq!(harness.runs(), 1, "only the first install ran");

    let messages: Vec<String> = first_call.progress().into_iter().filter_map(|report| report.message).collect();
    assert_eq!(messages[0], "installing the workload(s) wasm-tools");
    assert!(messages.iter().any(|message| message.starts_with("Downloading packs... (")), "{messages:?}");
    assert!(
        messages.iter().any(|message| message.starts_with("Installing pack Microsoft.NET.Runtime.WebAssembly.Sdk"))
    );
    assert!(messages.iter().any(|message| message == "Successfully installed workload(s) wasm-tools."), "{messages:?}");
}

#[test]
fn secrets_never_reach_the_client() {
    let harness = Harness::new("secrets");
    let values = include_str!("../../test-double/fixtures/secrets/values.txt");
    let feed = "https://ci:feed-Pa55word@pkgs.example/v3/index.json";
    for args in [
        json!({ "action": "Install", "workloadIds": ["wasm-tools"], "source": feed }),
        json!({ "action": "Update", "source": feed }),
    ] {
        let call = TestCall::new().unchecked();
        let result = harness.call_with(&call, args);
        let structured = ok(&result).to_string();
        let text = result.joined_text();
        let progress: Vec<String> = call.progress().into_iter().filter_map(|report| report.message).collect();
        for secret in values.lines().map(str::trim).filter(|line| !line.is_empty()).chain(["feed-Pa55word"]) {
            assert!(!structured.contains(secret), "{secret} in {structured}");
            assert!(!text.contains(secret), "{secret} in {text}");
            assert!(progress.iter().all(|message| !message.contains(secret)), "{secret} in progress");
        }
    }
}
