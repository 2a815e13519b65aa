//! `dotnet_workload` in process, against the real test double of dotnet: the exact argument
//! vector of every action, parsed results, failures, the machine-wide lock, elicitation,
//! progress, redaction and read-only service. The test kit checks every result against the
//! advertised schemas, as the host does.
//!
//! Without a double scenario the double replays what SDK 10.0.401 answered on this project's
//! machine (`test-double/recordings/workloads/`): no workload installed, `search wasm`, an update
//! with nothing to do, an install of wasm-tools whose packs the NuGet mirror does not serve, and
//! an uninstall of wasm-tools that is not installed. A successful install or uninstall cannot be
//! recorded there, so other workload ids (`ios`, `wasm-tools-net8`) meet the double's hand-made
//! catalogue (`fixtures/workload/workloads.json`), as do the calls under a double scenario.

use std::time::{Duration, Instant};

use dotnet_support::testkit::{Harness, assert_hidden, client, code, parameter, secret_values, visible, with_defaults};
use dotnet_workload::DotnetWorkload;
use mcp_plugin_api::{Tool, testkit::TestCall};
use serde_json::{Value, json};

type Workload = Harness<DotnetWorkload>;

/// The double streams for one second in the `slow` scenario.
fn harness(scenario: &'static str) -> Workload {
    Workload::with(|_, double| double.env("DOTNET_DOUBLE_SLOW_SECS", "1").scenario(scenario))
}

fn last_argv(harness: &Workload) -> Vec<String> {
    harness.argvs().pop().expect("dotnet ran")
}

fn answering(answer: Value) -> TestCall {
    client(&[], Some(answer)).0
}

#[test]
fn every_action_runs_its_exact_argument_vector() {
    let harness = harness("");
    let source = "https://nuget.example/v3/index.json";
    let cases: Vec<(Value, Vec<&str>)> = vec![
        (json!({ "action": "List" }), vec!["workload", "list"]),
        (json!({ "action": "Info" }), vec!["workload", "--info"]),
        (json!({ "action": "Search" }), vec!["workload", "search"]),
        (json!({ "action": "Search", "searchTerm": "wasm" }), vec!["workload", "search", "wasm"]),
        (json!({ "action": "Install", "workloadIds": ["ios"] }), vec!["workload", "install", "ios"]),
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
            json!({ "action": "Update", "includePreviews": true, "source": source, "configFile": "n.config" }),
            vec!["workload", "update", "--include-previews", "--source", source, "--configfile", "n.config"],
        ),
        (
            json!({ "action": "Uninstall", "workloadIds": ["wasm-tools-net8"] }),
            vec!["workload", "uninstall", "wasm-tools-net8"],
        ),
    ];
    for (args, expected) in cases {
        let structured = harness.ok(args.clone());
        assert_eq!(structured["action"], args["action"], "{structured}");
        assert_eq!(last_argv(&harness), expected, "{args}");
        let cwd = harness.double.invocations().pop().unwrap().cwd;
        assert_eq!(cwd.canonicalize().unwrap(), harness.path().canonicalize().unwrap());
    }
    let lower = harness.call_with(&TestCall::new().unchecked(), json!({ "action": "update" }));
    assert_eq!(lower.structured_content.unwrap()["action"], "Update", "action names are read without regard to case");
}

#[test]
fn defaults_a_client_fills_in_change_nothing() {
    let harness = harness("");
    for args in [json!({ "action": "List" }), json!({ "action": "Search", "searchTerm": "wasm" })] {
        harness.ok(args.clone());
        let plain = last_argv(&harness);
        let filled = with_defaults(&harness.tool, &args);
        assert_eq!((filled["workloadIds"].clone(), filled["includePreviews"].clone()), (json!([]), json!(false)));
        harness.ok(filled);
        assert_eq!(last_argv(&harness), plain, "{args}");
    }
}

#[test]
fn list_info_and_search_return_parsed_results() {
    // SDK 10.0.401 with no workload installed (recordings/workloads/).
    let harness = harness("");
    let list = harness.call(json!({ "action": "List" }));
    let structured = list.structured_content.as_ref().unwrap();
    assert_eq!(structured["workloads"], json!([]));
    assert_eq!(structured["workloadVersion"], "10.0.400-manifests.63b36e85");
    assert_eq!(
        list.joined_text().lines().next().unwrap(),
        "0 workloads installed (workload version 10.0.400-manifests.63b36e85)."
    );

    let structured = harness.ok(json!({ "action": "Info" }));
    assert_eq!(structured["workloadVersion"], "10.0.400-manifests.63b36e85");
    assert_eq!(structured["workloads"], json!([]));

    let structured = harness.ok(json!({ "action": "Search", "searchTerm": "wasm" }));
    assert_eq!(structured["searchTerm"], "wasm");
    let found = structured["workloads"].as_array().unwrap();
    assert_eq!(found.len(), 9, "{found:?}");
    assert_eq!(found[0], json!({ "id": "wasm-experimental", "description": ".NET WebAssembly experimental tooling" }));
    assert_eq!(found[4], json!({ "id": "wasm-tools", "description": ".NET WebAssembly build tools" }));
    assert_eq!(
        found[8],
        json!({ "id": "wasm-tools-net9", "description": ".NET WebAssembly build tools for .NET 9.0" })
    );

    // A workload installed: the double's hand-made catalogue, which answers under any double
    // scenario (the recordings were made without one): manifest version, source, and --info's
    // manifest path and install type.
    let installed = self::harness("slow");
    let list = installed.ok(json!({ "action": "List" }));
    assert_eq!(
        list["workloads"][0],
        json!({ "id": "wasm-tools", "manifestVersion": "10.0.0/10.0.100", "installationSource": "SDK 10.0.100" })
    );
    let info = installed.ok(json!({ "action": "Info" }));
    assert_eq!(info["workloads"][0]["installType"], "FileBased");
    assert!(info["workloads"][0]["manifestPath"].as_str().unwrap().ends_with("/WorkloadManifest.json"));
    let all = harness.ok(json!({ "action": "Search" }));
    assert_eq!(all["workloads"].as_array().unwrap().len(), 11);
    assert!(all.get("searchTerm").is_none());
}

#[test]
fn an_empty_list_is_said_once_and_its_table_kept_for_verbose() {
    // SDK 10.0.401 with no workload installed (recordings/workloads/): the summary says it all.
    let harness = harness("");
    let standard = harness.call(json!({ "action": "List" }));
    assert_eq!(standard.joined_text(), "0 workloads installed (workload version 10.0.400-manifests.63b36e85).");
    let verbose = TestCall::new().with_features(&["verbosity=verbose"]);
    let text = harness.call_with(&verbose, json!({ "action": "List" })).joined_text();
    assert!(text.contains("Installed Workload Id") && text.contains("dotnet workload search"), "{text}");
}

#[test]
fn installs_updates_and_uninstalls_take_the_global_lock() {
    let harness = harness("");
    let structured = harness.ok(json!({ "action": "Install", "workloadIds": ["ios"] }));
    assert_eq!(structured["workloadIds"], json!(["ios"]));
    assert_eq!(
        structured["packs"],
        json!([{ "id": "Microsoft.iOS.Sdk", "version": "10.0.0" }, { "id": "Microsoft.iOS.Templates", "version": "10.0.0" }])
    );
    assert_eq!(structured["lockInfo"], json!({ "lockScope": "global", "lockKey": "global" }));

    // SDK 10.0.401 with none installed: "Successfully updated workload(s): ." (recorded).
    let update = harness.call(json!({ "action": "Update" }));
    assert!(update.joined_text().starts_with("The workloads are up to date."), "{}", update.joined_text());
    let update = update.structured_content.unwrap();
    assert_eq!(update["updated"], json!([]));
    assert_eq!(update["lockInfo"]["lockKey"], "global");

    let uninstall = harness.ok(json!({ "action": "Uninstall", "workloadIds": ["wasm-tools-net8"] }));
    assert_eq!(uninstall["consent"], "notAsked");
    assert_eq!(uninstall["lockInfo"]["lockScope"], "global");

    assert!(harness.ok(json!({ "action": "List" })).get("lockInfo").is_none(), "reading takes no lock");
}

#[test]
fn uninstall_asks_first_and_a_refusal_runs_nothing() {
    let harness = harness("");
    for answer in [json!({ "action": "decline" }), json!({ "action": "accept", "content": { "confirm": false } })] {
        let refused =
            harness.call_with(&answering(answer), json!({ "action": "Uninstall", "workloadIds": ["wasm-tools-net8"] }));
        assert_eq!(code(refused.structured_content.as_ref().unwrap()), "OPERATION_CANCELLED");
        assert!(refused.joined_text().contains("Nothing was changed"), "{}", refused.joined_text());
    }
    assert_eq!(harness.runs(), 0, "nothing ran after a refusal");
    let accepted = answering(json!({ "action": "accept", "content": { "confirm": true } }));
    let confirmed = harness.call_with(&accepted, json!({ "action": "Uninstall", "workloadIds": ["wasm-tools-net8"] }));
    assert_eq!(confirmed.structured_content.unwrap()["consent"], "confirmed");
    assert_eq!(last_argv(&harness), ["workload", "uninstall", "wasm-tools-net8"]);
}

#[test]
fn failures_are_errors_with_the_envelope() {
    let harness = harness("");
    let unknown = harness.err(json!({ "action": "Install", "workloadIds": ["nope"] }));
    assert_eq!(code(&unknown), "EXIT_1");
    assert_eq!(unknown["errors"][0]["message"], "Workload ID nope is not recognized.");
    assert_eq!(unknown["lockInfo"]["lockKey"], "global");
    // SDK 10.0.401 (recorded): uninstalling a workload that is not installed.
    let missing = harness.err(json!({ "action": "Uninstall", "workloadIds": ["wasm-tools"] }));
    assert_eq!(code(&missing), "EXIT_1");
    assert!(missing.to_string().contains("Couldn't find workload ID(s): wasm-tools"), "{missing}");
    let ran = harness.runs();

    let unchecked = |args: Value| {
        let result = harness.call_with(&TestCall::new().unchecked(), args);
        assert!(result.is_error);
        parameter(result.structured_content.as_ref().unwrap()).to_owned()
    };
    assert_eq!(parameter(&harness.err(json!({ "action": "Install" }))), "workloadIds");
    assert_eq!(parameter(&harness.err(json!({ "action": "Install", "workloadIds": [] }))), "workloadIds");
    assert_eq!(unchecked(json!({ "action": "Install", "workloadIds": ["ios", "--source=x"] })), "workloadIds[1]");
    assert_eq!(unchecked(json!({ "action": "Repair" })), "action");
    assert_eq!(parameter(&harness.err(json!({ "action": "List", "workloadIds": ["ios"] }))), "workloadIds");
    assert_eq!(parameter(&harness.err(json!({ "action": "Update", "source": "--interactive" }))), "source");
    assert_eq!(
        parameter(&harness.err(json!({ "action": "List", "workingDirectory": "/nonexistent" }))),
        "workingDirectory"
    );
    assert_eq!(harness.runs(), ran, "no invalid call reached dotnet");

    assert_eq!(code(&harness_runtime_only().err(json!({ "action": "List" }))), "SDK_NOT_FOUND");
    let no_dotnet = Workload::with(|_, double| double.setting("DotnetPath", json!("/nonexistent/dotnet")));
    assert_eq!(code(&no_dotnet.err(json!({ "action": "Info" }))), "CAPABILITY_NOT_AVAILABLE");
}

#[test]
fn packs_the_feeds_do_not_serve_are_a_missing_capability_with_its_remedy() {
    // SDK 10.0.401 against a NuGet mirror without the packs (recordings/workloads/): exit 1 with
    // "Version 10.0.12 of package microsoft.net.runtime.emscripten.3.1.56.node.linux-x64 is not
    // found in NuGet feeds https://api.nuget.org/v3/index.json."
    let harness = harness("");
    let failed = harness.err(json!({ "action": "Install", "workloadIds": ["wasm-tools"] }));
    let error = &failed["errors"][0];
    assert_eq!(code(&failed), "CAPABILITY_NOT_AVAILABLE");
    let package = "microsoft.net.runtime.emscripten.3.1.56.node.linux-x64";
    assert!(error["message"].as_str().unwrap().contains(&format!("version 10.0.12 of the workload pack {package}")));
    assert!(error["hint"].as_str().unwrap().contains("`source`"), "{error}");
    assert_eq!(error["alternatives"].as_array().unwrap().len(), 2);
    assert_eq!(error["data"]["additionalData"]["package"], package);
    assert_eq!(error["data"]["command"], "dotnet workload install wasm-tools");
    assert_eq!(error["data"]["exitCode"], 1);
    assert!(error["data"]["stderr"].as_str().unwrap().contains("is not found in NuGet feeds"));
    assert_eq!(failed["lockInfo"]["lockScope"], "global");
}

fn harness_runtime_only() -> Workload {
    harness("runtime-only")
}

#[test]
fn two_installs_at_once_conflict_and_progress_follows_the_output() {
    // The first install waits after its second of ticks while the hold file exists: a second of
    // ticks alone is no certain window for the second call on a loaded machine.
    let harness = Workload::with(|dir, double| {
        let hold = dir.join("hold").display().to_string();
        double.env("DOTNET_DOUBLE_SLOW_SECS", "1").scenario("slow").env("DOTNET_DOUBLE_HOLD", &hold)
    });
    let hold = harness.path().join("hold");
    std::fs::write(&hold, "").unwrap();
    let first_call = TestCall::new();
    std::thread::scope(|scope| {
        let first = scope
            .spawn(|| harness.call_with(&first_call, json!({ "action": "Install", "workloadIds": ["wasm-tools"] })));
        let deadline = Instant::now() + Duration::from_secs(30);
        while first_call.progress().is_empty() {
            assert!(Instant::now() < deadline, "the first install never started");
            std::thread::sleep(Duration::from_millis(10));
        }
        // Released before anything is asserted, so that a failing assertion does not leave the
        // first install waiting for the scope's end.
        let second = harness.call(json!({ "action": "Install", "workloadIds": ["ios"] }));
        std::fs::remove_file(&hold).unwrap();
        assert!(second.is_error, "{}", second.joined_text());
        let second = second.structured_content.unwrap();
        assert_eq!(code(&second), "CONCURRENCY_CONFLICT");
        assert_eq!(second["lockInfo"]["lockContended"], true);
        assert!(second["errors"][0]["message"].as_str().unwrap().contains("dotnet_workload Install"));
        assert!(!first.join().unwrap().is_error);
    });
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
    let harness = harness("secrets");
    let feed = "https://ci:feed-Pa55word@pkgs.example/v3/index.json";
    let mut secrets = secret_values();
    secrets.push("feed-Pa55word");
    for args in [
        json!({ "action": "Install", "workloadIds": ["wasm-tools"], "source": feed }),
        json!({ "action": "Update", "source": feed }),
    ] {
        let call = TestCall::new();
        let result = harness.call_with(&call, args);
        assert!(!result.is_error, "{}", result.joined_text());
        assert_hidden(&visible(&call, &result), &secrets);
    }
}

#[test]
fn a_read_only_server_offers_what_reads_and_refuses_the_rest() {
    let harness = Workload::with(|_, double| double.setting("ReadOnly", json!(true)));
    let spec = harness.tool.spec();
    assert_eq!(spec.get_input_schema()["properties"]["action"]["enum"], json!(["List", "Info", "Search"]));
    assert!(spec.get_input_schema()["properties"].get("workloadIds").is_none());
    let annotations = spec.get_annotations();
    assert_eq!(
        (annotations.read_only, annotations.destructive, annotations.idempotent, annotations.open_world),
        (Some(true), Some(false), Some(true), Some(false))
    );
    harness.ok(json!({ "action": "List" }));
    let refused =
        harness.call_with(&TestCall::new().unchecked(), json!({ "action": "Install", "workloadIds": ["ios"] }));
    assert_eq!(code(refused.structured_content.as_ref().unwrap()), "READ_ONLY");
    assert_eq!(harness.argvs(), [["workload", "list"]], "the refused install ran nothing");
    let full = harness_runtime_only().tool.spec();
    assert_eq!(full.get_annotations().destructive, Some(true));
}
