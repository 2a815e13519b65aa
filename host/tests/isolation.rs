//! `Plugins.Isolation: process` through the real binary: a plugin in a
//! worker process serves as it does in process, a fault in the worker costs
//! only the calls in flight in it (answered with the plugin's name and the
//! cause) and the host goes on serving, and workers do not outlive the host.

#![cfg(target_os = "linux")]

mod common;

use std::time::Duration;

use common::{Client, Setup, children, text_of};
use serde_json::{Value, json};

/// Every plugin in a worker process, with room for the faults one test provokes.
fn in_workers(extra: Value) -> Value {
    let mut config = json!({
        "Plugins": { "Isolation": { "*": "process" }, "Workers": { "*": { "MaxFailures": 20 } } }
    });
    common::merge(&mut config, extra);
    config
}

/// Whether process `pid` is gone (a zombie counts as gone: it runs nothing).
fn gone(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat.rsplit(')').next().is_some_and(|rest| rest.trim_start().starts_with('Z')),
    }
}

/// A folder of the test that no worker of its host may write: a sibling of the host's own
/// temporary folder, of the `WritePaths` and of the client roots these tests give, all of
/// which lie in other folders of the setup, so it holds wherever the checkout lies.
fn outside(setup: &Setup) -> std::path::PathBuf {
    let outside = setup.dir.path().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    assert!(!outside.starts_with(setup.tmp()));
    outside.join("file")
}

fn is_error(result: &Value) -> bool {
    result["isError"] == true
}

/// The host still serves: a ping, the sample's echo and the faults plugin's own `faults_ok`.
async fn still_serving(client: &Client) {
    assert_eq!(client.request("ping", json!({})).await["result"], json!({}), "{}", client.stderr());
    let echo = client.call("echo", json!({ "text": "still here" })).await;
    assert_eq!(text_of(&echo), "still here", "{}", client.stderr());
    let ok = client.call("faults_ok", json!({})).await;
    assert_eq!(text_of(&ok), "ok", "{}", client.stderr());
}

#[tokio::test]
async fn the_sample_plugin_in_a_worker_answers_echo_progress_and_cancellation() {
    let setup = Setup::new(&["sample"], &[], in_workers(json!({})));
    let client = setup.stdio().await;
    let echo = client.call("echo", json!({ "text": "through the pipe" })).await;
    assert_eq!(text_of(&echo), "through the pipe");
    assert_eq!(echo["structuredContent"]["text"], "through the pipe", "{echo}");
    let workers = children(client.pid());
    assert_eq!(workers.len(), 1, "one worker for the one plugin: {workers:?}");

    let answer = client
        .request(
            "tools/call",
            json!({ "name": "countdown", "arguments": { "steps": 3, "intervalMs": 5 }, "_meta": { "progressToken": "p" } }),
        )
        .await;
    assert_eq!(answer["result"]["structuredContent"]["completed"], 3, "{answer}");
    let progress: Vec<f64> = client
        .notifications()
        .iter()
        .filter(|note| note["method"] == "notifications/progress" && note["params"]["progressToken"] == "p")
        .map(|note| note["params"]["progress"].as_f64().unwrap())
        .collect();
    assert_eq!(progress, vec![1.0, 2.0, 3.0]);

    // Calls run at once in the worker.
    let echoes =
        futures::future::join_all((0..8).map(|n| client.call("echo", json!({ "text": format!("n{n}") })))).await;
    for (n, result) in echoes.iter().enumerate() {
        assert_eq!(text_of(result), format!("n{n}"));
    }

    let (id, response) = client
        .start(
            "tools/call",
            json!({ "name": "countdown", "arguments": { "steps": 1000, "intervalMs": 50 }, "_meta": { "progressToken": "c" } }),
        )
        .await;
    assert!(
        client
            .wait_for_notifications(Duration::from_secs(30), |notes| notes
                .iter()
                .any(|note| note["params"]["progressToken"] == "c"))
            .await
    );
    client.notify("notifications/cancelled", json!({ "requestId": id, "reason": "test" })).await;
    assert!(tokio::time::timeout(Duration::from_secs(1), response).await.is_err(), "a cancelled call was answered");
    let after = client.call("echo", json!({ "text": "after cancel" })).await;
    assert_eq!(text_of(&after), "after cancel");
    assert!(client.stderr().contains("call finished outcome=cancelled"), "{}", client.stderr());
    // The cancelled call stopped in the worker: the same worker serves on.
    assert_eq!(children(client.pid()), workers, "the worker was not replaced");
    assert!(client.stderr().contains("file-system confinement"), "{}", client.stderr());
}

#[tokio::test]
async fn each_fault_in_a_worker_costs_one_call_and_is_answered_with_its_cause() {
    let setup = Setup::new(&["sample"], &["faults"], in_workers(json!({})));
    let client = setup.stdio().await;
    let faults = [
        ("abort", "SIGABRT"),
        ("null_write", "SIGSEGV"),
        ("stack_overflow", "stack overflow"),
        ("exit3", "exited with code 3"),
        ("alloc_huge", "out of memory"),
    ];
    for (tool, cause) in faults {
        let result = client.call(tool, json!({})).await;
        let text = text_of(&result);
        assert!(is_error(&result), "{tool}: {result}");
        assert!(text.contains("'faults'") && text.contains(cause), "{tool}: {text}");
        still_serving(&client).await;
    }
}

#[tokio::test]
async fn a_panic_in_a_plugin_built_with_panic_abort_costs_one_call_in_a_worker() {
    let setup = Setup::new(&["sample"], &[], in_workers(json!({})));
    let name = common::lib_name("faults");
    std::os::unix::fs::symlink(common::panic_abort_plugins().join(&name), setup.dir.path().join("plugins").join(&name))
        .unwrap();
    let client = setup.stdio().await;
    let result = client.call("panic", json!({})).await;
    let text = text_of(&result);
    assert!(is_error(&result) && text.contains("'faults'") && text.contains("SIGABRT"), "{text}");
    assert!(client.stderr().contains("faults: panic on purpose"), "the worker's stderr reaches the host log");
    still_serving(&client).await;
}

#[tokio::test]
async fn an_address_space_limit_turns_a_4_gib_allocation_into_out_of_memory() {
    let config = in_workers(json!({ "Plugins": { "Workers": { "faults": { "MemoryMb": 1024 } } } }));
    let setup = Setup::new(&["sample"], &["faults"], config);
    let client = setup.stdio().await;
    let result = client.call("alloc_4g", json!({})).await;
    let text = text_of(&result);
    assert!(is_error(&result) && text.contains("out of memory"), "{text}");
    assert!(client.stderr().contains("address space limited to 1024 MiB"), "{}", client.stderr());
    still_serving(&client).await;
}

#[tokio::test]
async fn a_call_that_blocks_its_worker_times_out_and_the_worker_is_replaced() {
    let config = in_workers(json!({
        "Host": { "ToolTimeouts": { "busy_loop": 2, "blocking_sleep": 2 }, "CancelGraceMs": 200 }
    }));
    let setup = Setup::new(&["sample"], &["faults"], config);
    let client = setup.stdio().await;
    for tool in ["busy_loop", "blocking_sleep"] {
        let result = client.call(tool, json!({})).await;
        let text = text_of(&result);
        assert!(is_error(&result) && text.contains("timed out"), "{tool}: {text}");
        still_serving(&client).await;
    }
    let killed =
        client.wait_for_stderr(Duration::from_secs(30), |stderr| stderr.contains("was still running 1 s later")).await;
    assert!(killed, "{}", client.stderr());
}

#[tokio::test]
async fn workers_die_with_the_host_even_when_it_is_killed() {
    let setup = Setup::new(&["sample"], &["faults"], in_workers(json!({})));
    let client = setup.stdio().await;
    let workers = children(client.pid());
    assert_eq!(workers.len(), 2, "one worker per plugin: {workers:?}");
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(client.pid() as i32), nix::sys::signal::Signal::SIGKILL).unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while !workers.iter().all(|pid| gone(*pid)) && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let left: Vec<u32> = workers.into_iter().filter(|pid| !gone(*pid)).collect();
    assert!(left.is_empty(), "workers outlived the host: {left:?}");
}

#[tokio::test]
async fn a_plugin_whose_worker_keeps_failing_is_withdrawn_and_the_others_serve_on() {
    let config = in_workers(json!({ "Plugins": { "Workers": { "faults": { "MaxFailures": 2 } } } }));
    let setup = Setup::new(&["sample"], &["faults"], config);
    let client = setup.stdio().await;
    let first = client.call("abort", json!({})).await;
    assert!(text_of(&first).contains("restarted on the next call"), "{first}");
    let second = client.call("abort", json!({})).await;
    assert!(text_of(&second).contains("withdrawn"), "{second}");
    client.expect_notifications("notifications/tools/list_changed", 1).await;
    let tools = client.request("tools/list", json!({})).await;
    let names: Vec<&str> =
        tools["result"]["tools"].as_array().unwrap().iter().map(|tool| tool["name"].as_str().unwrap()).collect();
    assert!(names.contains(&"echo") && !names.contains(&"abort"), "{names:?}");
    assert_eq!(text_of(&client.call("echo", json!({ "text": "on" })).await), "on");
    // `plugins`, run beside the serving host, reports it failed.
    let document = setup.plugins_json();
    let host = &document["serving"][0];
    let faults = host["plugins"].as_array().unwrap().iter().find(|report| report["plugin"] == "faults").unwrap();
    assert_eq!(faults["status"], "refused", "{faults}");
    let sample = host["plugins"].as_array().unwrap().iter().find(|report| report["plugin"] == "sample").unwrap();
    assert_eq!((&sample["status"], &sample["isolated"]), (&json!("loaded"), &json!(true)), "{sample}");
    assert!(faults["problems"].to_string().contains("failed 2 times within 60 s"), "{faults}");
}

#[tokio::test]
async fn client_requests_prompts_resources_completion_and_host_info_cross_the_pipe() {
    let setup = Setup::new(&["conformance"], &["introspect"], in_workers(json!({})));
    let capabilities = json!({ "elicitation": {}, "sampling": {}, "roots": { "listChanged": false } });
    let client = setup.stdio_with(&[], capabilities).await;
    {
        let mut answers = client.answers.lock().unwrap();
        answers.insert("elicitation/create".into(), json!({ "action": "accept", "content": { "username": "ada" } }));
        answers.insert(
            "sampling/createMessage".into(),
            json!({ "role": "assistant", "content": { "type": "text", "text": "forty-two" }, "model": "m" }),
        );
        answers.insert("roots/list".into(), json!({ "roots": [{ "uri": "file:///work/app", "name": "app" }] }));
    }
    let elicited = client.call("test_elicitation", json!({ "message": "Who are you?" })).await;
    assert!(text_of(&elicited).contains("action=accept") && text_of(&elicited).contains("ada"), "{elicited}");
    let sampled = client.call("test_sampling", json!({ "prompt": "The answer?" })).await;
    assert_eq!(text_of(&sampled), "LLM response: forty-two");
    let roots = client.call("introspect_roots", json!({})).await;
    assert_eq!(roots["structuredContent"]["roots"], json!(["file:///work/app"]));
    let methods: Vec<Value> = client.server_requests().iter().map(|request| request["method"].clone()).collect();
    // The host asks for the session's roots once, before its first call (the worker's write rules);
    // the plugin's own request is passed on to the client as it is.
    assert_eq!(methods, ["roots/list", "elicitation/create", "sampling/createMessage", "roots/list"]);

    let rendered = client
        .request(
            "prompts/get",
            json!({ "name": "test_prompt_with_arguments", "arguments": { "arg1": "A", "arg2": "B" } }),
        )
        .await;
    assert_eq!(rendered["result"]["messages"][0]["content"]["text"], "Prompt with arguments: arg1='A', arg2='B'");
    let completion = client
        .request(
            "completion/complete",
            json!({ "ref": { "type": "ref/prompt", "name": "test_prompt_with_arguments" }, "argument": { "name": "arg1", "value": "test" } }),
        )
        .await;
    assert_eq!(completion["result"]["completion"]["values"], json!(["test", "testValue1"]));
    let templated = client.request("resources/read", json!({ "uri": "test://template/77/data" })).await;
    let body: Value = serde_json::from_str(templated["result"]["contents"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(body["id"], "77");

    let info = client.call("introspect_host_info", json!({})).await;
    let plugins = info["structuredContent"]["hostInfo"]["plugins"].as_array().unwrap();
    assert!(plugins.iter().any(|plugin| plugin["name"] == "conformance"), "{info}");
}

#[tokio::test]
async fn a_terminated_host_waits_for_its_workers_to_drop_their_calls() {
    // The worker drops the call 300 ms after it was told to (within the 1 s it has before it is
    // killed for not dropping it); the host exits only after that.
    let config = json!({ "Host": { "CancelGraceMs": 200 }, "Plugins": { "Isolation": { "slow": "process" } } });
    common::a_terminated_host_leaves_no_process_behind(config, 300).await;
}

#[tokio::test]
async fn a_reload_replaces_the_worker_and_the_old_one_goes() {
    let setup = Setup::new(&["sample"], &[], in_workers(json!({ "Plugins": { "WatchQuietMs": 100 } })));
    let library = setup.dir.path().join("plugins").join(common::lib_name("reload"));
    let install = |stem: &str| {
        let staging = library.with_extension("part");
        std::fs::copy(common::fixture_plugins().join(common::lib_name(stem)), &staging).unwrap();
        std::fs::rename(&staging, &library).unwrap();
    };
    let client = setup.stdio().await;
    install("reload_v1");
    assert!(client.wait_for_stderr(Duration::from_secs(30), |stderr| stderr.contains("reloaded:")).await);
    assert_eq!(text_of(&client.call("reload_version", json!({})).await), "v1");
    let before = children(client.pid());
    assert_eq!(before.len(), 2, "sample's worker and reload's: {before:?}");

    install("reload_v2");
    assert!(
        client.wait_for_stderr(Duration::from_secs(30), |stderr| stderr.matches("reloaded:").count() >= 2).await,
        "{}",
        client.stderr()
    );
    assert_eq!(text_of(&client.call("reload_version", json!({})).await), "v2");
    // Until the old worker is reaped: killed, it stays the host's child (a zombie) until then.
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    let mut after = children(client.pid());
    while (after.len() != 2 || before.iter().all(|pid| after.contains(pid))) && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
        after = children(client.pid());
    }
    assert_eq!(after.len(), 2, "{after:?}");
    assert_eq!(before.iter().filter(|pid| after.contains(pid)).count(), 1, "only sample's worker is the same");
}

#[tokio::test]
async fn a_plugin_the_cache_knows_starts_its_worker_on_first_use() {
    let setup = Setup::new(&["sample"], &[], in_workers(json!({})));
    let first = setup.stdio().await;
    assert_eq!(children(first.pid()).len(), 1, "the first start loads the plugin in its worker");
    drop(first);
    let client = setup.stdio().await;
    let tools = client.request("tools/list", json!({})).await;
    assert_eq!(tools["result"]["tools"].as_array().unwrap().len(), 3, "{tools}");
    assert!(children(client.pid()).is_empty(), "served from the cache, no worker yet");
    assert_eq!(text_of(&client.call("echo", json!({ "text": "now" })).await), "now");
    assert_eq!(children(client.pid()).len(), 1);
}

#[tokio::test]
async fn a_worker_writes_only_where_allowed_sees_only_the_variables_passed_and_its_stdout_is_logged() {
    let listed = "CARGO_MANIFEST_DIR";
    let value = std::env::var(listed).expect("cargo sets CARGO_MANIFEST_DIR for tests");
    let config = json!({ "Plugins": {
        "Isolation": { "confined": "process" },
        "Workers": { "confined": { "WritePaths": ["allowed"] } }
    } });
    let setup = Setup::new(&["sample"], &["confined"], config);
    let allowed = setup.dir.path().join("allowed");
    std::fs::create_dir(&allowed).unwrap();
    let client = setup.stdio().await;
    let write = |path: std::path::PathBuf| {
        let client = &client;
        async move { text_of(&client.call("confined_write", json!({ "path": path, "text": "x" })).await) }
    };
    assert_eq!(write(allowed.join("file")).await, "written");
    assert_eq!(write(setup.tmp().join("file")).await, "written", "the host's temporary folder");
    let outside = outside(&setup);
    if client.stderr().contains("file-system confinement: fully enforced") {
        let refused = write(outside.clone()).await;
        assert!(refused.starts_with("not written") && refused.contains("ermission denied"), "{refused}");
        assert!(!outside.exists());
    } else {
        eprintln!("skipped the write refusal: this kernel does not enforce Landlock\n{}", client.stderr());
    }

    let env = |name: &str| {
        let client = &client;
        let name = name.to_owned();
        async move { text_of(&client.call("confined_env", json!({ "name": name })).await) }
    };
    assert_ne!(env("PATH").await, "unset");
    assert_eq!(env(listed).await, "unset", "a variable nobody listed is not passed");

    assert_eq!(text_of(&client.call("confined_print", json!({})).await), "printed");
    assert!(
        client.wait_for_stderr(Duration::from_secs(30), |stderr| stderr.contains("confined: printed to stdout")).await,
        "{}",
        client.stderr()
    );
    assert!(client.not_json().is_empty(), "{:?}", client.not_json());
    assert_eq!(text_of(&client.call("echo", json!({ "text": "after print" })).await), "after print");

    let config = json!({ "Plugins": {
        "Isolation": { "confined": "process" },
        "Workers": { "confined": { "Environment": [listed] } }
    } });
    let listing = Setup::new(&[], &["confined"], config);
    let client = listing.stdio().await;
    assert_eq!(text_of(&client.call("confined_env", json!({ "name": listed })).await), value);
}

#[tokio::test]
async fn a_cpu_time_limit_ends_a_spinning_worker_with_its_cause() {
    let config = in_workers(json!({ "Plugins": { "Workers": { "faults": { "CpuSeconds": 1 } } } }));
    let setup = Setup::new(&["sample"], &["faults"], config);
    let client = setup.stdio().await;
    let result = client.call("busy_loop", json!({ "ms": 60000 })).await;
    let text = text_of(&result);
    assert!(is_error(&result) && text.contains("'faults'") && text.contains("CPU time limit"), "{text}");
    still_serving(&client).await;
}

#[tokio::test]
async fn a_constructor_that_fails_or_panics_in_a_worker_is_refused_one_line_and_the_rest_serve() {
    let setup = Setup::new(&["sample"], &["failing_ctor", "panicking_ctor"], in_workers(json!({})));
    let client = setup.stdio().await;
    assert_eq!(text_of(&client.call("echo", json!({ "text": "served" })).await), "served");
    let stderr = client.stderr();
    let refused: Vec<&str> = stderr.lines().filter(|line| line.contains("ERROR") && line.contains("refused")).collect();
    for (file, message) in [("libfailing_ctor", "missing required setting ApiKey"), ("libpanicking_ctor", "panicked")] {
        let lines: Vec<_> = refused.iter().filter(|line| line.contains(file)).collect();
        assert_eq!(lines.len(), 1, "one line for {file} in:\n{stderr}");
        assert!(lines[0].contains(message), "{file}: {}", lines[0]);
    }
    assert_eq!(client.request("ping", json!({})).await["result"], json!({}));
}

/// The process ids the `confined` fixture's initialiser printed (`confined: opened in process N`)
/// in the host's log: every process that opened its library.
fn opened_in(stderr: &str) -> Vec<u32> {
    stderr
        .lines()
        .filter_map(|line| line.split("confined: opened in process ").nth(1))
        .filter_map(|rest| rest.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok())
        .collect()
}

#[tokio::test]
async fn a_process_mode_library_is_never_opened_in_the_host_at_first_start_or_at_reload() {
    let config = json!({ "Plugins": { "Isolation": { "confined": "process" }, "WatchQuietMs": 100 } });
    let setup = Setup::new(&["sample"], &["confined"], config);
    let client = setup.stdio().await;
    assert_eq!(text_of(&client.call("confined_print", json!({})).await), "printed");
    let opened = opened_in(&client.stderr());
    assert!(!opened.is_empty(), "the probe and the worker opened it: {}", client.stderr());
    assert!(!opened.contains(&client.pid()), "opened in the host ({}): {}", client.pid(), client.stderr());

    // A new file in its place: the reload opens the library again, not in the host.
    let library = setup.dir.path().join("plugins").join(common::lib_name("confined"));
    let staging = library.with_extension("part");
    std::fs::copy(common::fixture_plugins().join(common::lib_name("confined")), &staging).unwrap();
    std::fs::rename(&staging, &library).unwrap();
    assert!(
        client.wait_for_stderr(Duration::from_secs(30), |stderr| stderr.contains("reloaded:")).await,
        "{}",
        client.stderr()
    );
    assert_eq!(text_of(&client.call("confined_print", json!({})).await), "printed");
    let reopened = opened_in(&client.stderr());
    assert!(reopened.len() > opened.len(), "the reload opened it again: {}", client.stderr());
    assert!(!reopened.contains(&client.pid()), "opened in the host at reload: {}", client.stderr());
    drop(client);

    // The same library in process is opened by the host (the probe still runs first: some plugin
    // may be isolated), which shows the check above can see the host.
    let config = json!({ "Plugins": { "Isolation": { "sample": "process" } } });
    let in_process = Setup::new(&["sample"], &["confined"], config);
    let client = in_process.stdio().await;
    assert_eq!(text_of(&client.call("confined_print", json!({})).await), "printed");
    assert!(opened_in(&client.stderr()).contains(&client.pid()), "{}", client.stderr());
}

#[tokio::test]
async fn a_library_for_another_abi_is_refused_with_one_line_when_plugins_may_run_in_workers() {
    let setup = Setup::new(&["sample"], &["wrong_abi", "wrong_layout"], in_workers(json!({})));
    let client = setup.stdio().await;
    assert_eq!(text_of(&client.call("echo", json!({ "text": "x" })).await), "x");
    let stderr = client.stderr();
    let refused: Vec<&str> = stderr.lines().filter(|line| line.contains("ERROR") && line.contains("refused")).collect();
    let expect = [
        ("libwrong_abi", "incompatible ABI: built against mcp-plugin-api 2.0.0, this host speaks 1.0.0"),
        ("libwrong_layout", "its types do not match this host's mcp-plugin-api 1.0.0"),
    ];
    for (file, message) in expect {
        let lines: Vec<_> = refused.iter().filter(|line| line.contains(file)).collect();
        assert_eq!(lines.len(), 1, "one line for {file} in:\n{stderr}");
        assert!(lines[0].contains(message), "{file}: {}", lines[0]);
    }
    assert_eq!(client.request("ping", json!({})).await["result"], json!({}));
    let reports = setup.plugins_json();
    let abi: Vec<(&str, &str)> = reports["plugins"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|report| report["file"].as_str().unwrap().contains("wrong"))
        .map(|report| (report["abiStatus"].as_str().unwrap(), report["abiVersion"].as_str().unwrap_or("?")))
        .collect();
    assert_eq!(abi, [("incompatible", "2.0.0"), ("incompatible", "1.0.0")], "{reports}");
}

/// How often the host asked the client for its roots.
fn roots_asked(client: &Client) -> usize {
    client.server_requests().iter().filter(|request| request["method"] == "roots/list").count()
}

/// What the `confined` fixture says when asked to write `path`.
async fn write(client: &Client, path: std::path::PathBuf) -> String {
    text_of(&client.call("confined_write", json!({ "path": path, "text": "x" })).await)
}

/// A client's roots: the one folder `folder`.
fn roots(folder: &std::path::Path) -> Value {
    json!({ "roots": [{ "uri": format!("file://{}", folder.display()) }] })
}

/// What the `confined` fixture says when asked to write `path` in a call sent right after the
/// client said its roots changed (in the same write, so the host reads both back to back).
async fn write_after_roots_changed(client: &Client, path: std::path::PathBuf) -> String {
    let changed = [("notifications/roots/list_changed", json!({}))];
    text_of(&client.call_after(&changed, "confined_write", json!({ "path": path, "text": "x" })).await)
}

/// Waits (on a loaded machine too) until the host has `count` worker processes; returns how many it has.
async fn workers_become(client: &Client, count: usize) -> usize {
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while children(client.pid()).len() != count && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    children(client.pid()).len()
}

#[tokio::test]
async fn a_worker_writes_in_the_client_roots_and_nowhere_else_and_follows_a_change_of_roots() {
    let setup = Setup::new(&[], &["confined"], json!({ "Plugins": { "Isolation": { "confined": "process" } } }));
    let (first, second) = (setup.dir.path().join("first"), setup.dir.path().join("second"));
    std::fs::create_dir(&first).unwrap();
    std::fs::create_dir(&second).unwrap();
    let client = setup.stdio_with(&[], json!({ "roots": { "listChanged": true } })).await;
    client.answers.lock().unwrap().insert("roots/list".into(), roots(&first));
    assert_eq!(write(&client, first.join("a")).await, "written", "{}", client.stderr());
    assert!(first.join("a").exists());
    let enforced = client.stderr().contains("file-system confinement: fully enforced");
    if enforced {
        let refused = write(&client, second.join("a")).await;
        assert!(refused.starts_with("not written") && refused.contains("ermission denied"), "{refused}");
        assert!(write(&client, outside(&setup)).await.starts_with("not written"));
    } else {
        eprintln!("skipped the refusals: this kernel does not enforce Landlock\n{}", client.stderr());
    }
    assert_eq!(write(&client, first.join("b")).await, "written");
    assert_eq!(roots_asked(&client), 1, "the roots are asked once per session");

    // The client's roots change: the call it sends right after saying so writes in the new root only.
    client.answers.lock().unwrap().insert("roots/list".into(), roots(&second));
    assert_eq!(write_after_roots_changed(&client, second.join("b")).await, "written", "{}", client.stderr());
    if enforced {
        let refused = write(&client, first.join("c")).await;
        assert!(refused.starts_with("not written"), "{refused}");
    }
    assert_eq!(roots_asked(&client), 2, "asked again after the change, once");
    drop(client);

    // A client without roots: today's rules, the temporary folder but not the folders above.
    let client = setup.stdio().await;
    assert_eq!(write(&client, setup.tmp().join("file")).await, "written");
    if enforced {
        assert!(write(&client, first.join("d")).await.starts_with("not written"));
    }
    assert!(client.server_requests().iter().all(|request| request["method"] != "roots/list"));
}

#[tokio::test]
async fn every_call_sent_right_after_a_change_of_roots_runs_with_the_new_roots() {
    let setup = Setup::new(&[], &["confined"], json!({ "Plugins": { "Isolation": { "confined": "process" } } }));
    let folders = [setup.dir.path().join("a"), setup.dir.path().join("b")];
    for folder in &folders {
        std::fs::create_dir(folder).unwrap();
    }
    let client = setup.stdio_with(&[], json!({ "roots": { "listChanged": true } })).await;
    // The host handles messages concurrently: a call read right after the notification must
    // still see the change (once the two workers run, each round is one quick round trip).
    for round in 0..40 {
        let root = &folders[round % 2];
        client.answers.lock().unwrap().insert("roots/list".into(), roots(root));
        let written = write_after_roots_changed(&client, root.join(format!("file{round}"))).await;
        assert_eq!(written, "written", "round {round}: {}", client.stderr());
        assert_eq!(roots_asked(&client), round + 1, "round {round}: asked once per change");
    }
}

#[tokio::test]
async fn a_call_waits_for_a_slow_client_to_list_its_roots_and_calls_meanwhile_wait_for_the_same_answer() {
    let setup = Setup::new(&[], &["confined"], json!({ "Plugins": { "Isolation": { "confined": "process" } } }));
    let project = setup.dir.path().join("project");
    std::fs::create_dir(&project).unwrap();
    let client = setup.stdio_with(&[], json!({ "roots": {} })).await;
    client.answers.lock().unwrap().insert("roots/list".into(), roots(&project));
    // Slower than the 5 s the host once waited before it ran the call without the roots.
    client.delays.lock().unwrap().insert("roots/list".into(), Duration::from_secs(8));
    let (a, b) = tokio::join!(write(&client, project.join("a")), write(&client, project.join("b")));
    assert_eq!((a.as_str(), b.as_str()), ("written", "written"), "{}", client.stderr());
    assert_eq!(roots_asked(&client), 1, "the second call waited for the answer to the first one's question");
}

#[tokio::test]
async fn a_plugin_keeps_at_most_four_workers_one_per_set_of_roots_closing_the_idle_one_used_longest_ago() {
    let setup = Setup::new(&[], &["confined"], json!({ "Plugins": { "Isolation": { "confined": "process" } } }));
    let client = setup.stdio_with(&[], json!({ "roots": { "listChanged": true } })).await;
    assert_eq!(children(client.pid()).len(), 1, "the worker started at load, for no roots");
    for round in 0..6 {
        let root = setup.dir.path().join(format!("root{round}"));
        std::fs::create_dir(&root).unwrap();
        client.answers.lock().unwrap().insert("roots/list".into(), roots(&root));
        // The call sent right after the change runs in a worker for the new roots.
        let written = write_after_roots_changed(&client, root.join("file")).await;
        assert_eq!(written, "written", "round {round}: {}", client.stderr());
        assert_eq!(roots_asked(&client), round + 1, "round {round}");
        let expected = (round + 2).min(4);
        assert_eq!(workers_become(&client, expected).await, expected, "round {round}");
    }
    assert!(!client.stderr().contains("worker process was stopped"), "closing to make room is no failure");
    // The first roots again: their worker was closed to make room, and a new one starts for them.
    let first = setup.dir.path().join("root0");
    client.answers.lock().unwrap().insert("roots/list".into(), roots(&first));
    assert_eq!(write_after_roots_changed(&client, first.join("again")).await, "written", "{}", client.stderr());
    assert_eq!(workers_become(&client, 4).await, 4);
}
