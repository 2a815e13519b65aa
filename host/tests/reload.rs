//! End-to-end tests of hot reload through the real host binary: a library
//! copied in, replaced, broken or half-written while clients are connected;
//! a changed configuration; a plugin whose creation on first use fails; and
//! the announcement of every change to every session (stdio, HTTP, and the
//! `subscriptions/listen` streams of protocol 2026-07-28).
//!
//! Nothing here sleeps to assert: each test waits, with a time limit, for
//! the notification or the log line that says the host acted.

mod common;

use std::{
    io::Write,
    path::{Path, PathBuf},
    time::Duration,
};

use common::{Client, Setup, fixture_plugins, lib_name, text_of};
use serde_json::{Value, json};

const LIST_CHANGED: &str = "notifications/tools/list_changed";

/// A fixture library (`reload_v1`, `reload_v2`, …).
fn fixture(stem: &str) -> PathBuf {
    fixture_plugins().join(lib_name(stem))
}

/// The plugin folder of `setup`.
fn plugins(setup: &Setup) -> PathBuf {
    setup.dir.path().join("plugins")
}

/// `libreload.so` in the plugin folder.
fn reload_library(setup: &Setup) -> PathBuf {
    plugins(setup).join(lib_name("reload"))
}

/// Puts a library in place the way docs/operating.md says to: written
/// under another name, then renamed over the old one in one step.
fn install(bytes: &[u8], destination: &Path) {
    let staging = destination.with_extension("part");
    std::fs::write(&staging, bytes).unwrap();
    std::fs::rename(&staging, destination).unwrap();
}

/// Waits (at most 30 s) until the call of `reload_wait` told to write `started` has written it.
async fn started_call(client: &Client, started: &Path) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while !started.exists() {
        assert!(tokio::time::Instant::now() < deadline, "the call started: {}", client.stderr());
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// A host that applies changes after 100 ms of quiet, with `config` merged in.
fn setup_with(config: Value) -> Setup {
    let mut settings = json!({ "Plugins": { "WatchQuietMs": 100 } });
    common::merge(&mut settings, config);
    Setup::new(&["sample"], &[], settings)
}

fn tool_names(list: &Value) -> Vec<String> {
    let tools = list["result"]["tools"].as_array().unwrap_or_else(|| panic!("a tool list: {list}"));
    tools.iter().map(|tool| tool["name"].as_str().unwrap().to_owned()).collect()
}

async fn names(client: &Client) -> Vec<String> {
    tool_names(&client.request("tools/list", json!({})).await)
}

/// Waits until the host has applied `count` reloads in all.
async fn reloads(client: &Client, count: usize) {
    let done =
        client.wait_for_stderr(Duration::from_secs(30), |stderr| stderr.matches("reloaded:").count() >= count).await;
    assert!(done, "{count} reload(s) did not happen:\n{}", client.stderr());
}

/// The report on `file` in a list of reports.
fn report<'a>(reports: &'a Value, file: &str) -> &'a Value {
    let reports = reports.as_array().unwrap_or_else(|| panic!("reports: {reports}"));
    reports.iter().find(|report| report["file"] == file).unwrap_or_else(|| panic!("no report on {file}: {reports:?}"))
}

/// What the one running host serving under `setup` reports.
fn serving(setup: &Setup) -> Value {
    let document = setup.plugins_json();
    let hosts = document["serving"].as_array().cloned().unwrap_or_default();
    assert_eq!(hosts.len(), 1, "one host serves this configuration: {document}");
    hosts[0].clone()
}

#[tokio::test]
async fn a_library_copied_in_is_announced_and_callable_and_loaded_from_a_private_copy() {
    let setup = setup_with(json!({}));
    let client = Client::spawn(&setup.config(), &[]);
    let answer = client
        .request(
            "initialize",
            json!({ "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": { "name": "e2e", "version": "1" } }),
        )
        .await;
    assert_eq!(answer["result"]["capabilities"]["tools"]["listChanged"], true, "{answer}");
    client.notify("notifications/initialized", json!({})).await;
    let before = names(&client).await;
    assert!(!before.iter().any(|name| name.starts_with("reload_")), "{before:?}");

    // A plain copy, as an operator would make it.
    std::fs::copy(fixture("reload_v1"), reload_library(&setup)).unwrap();
    client.expect_notifications(LIST_CHANGED, 1).await;
    let after = names(&client).await;
    for name in before.iter().map(String::as_str).chain(["reload_version", "reload_wait"]) {
        assert!(after.iter().any(|served| served == name), "{name} is served: {after:?}");
    }
    assert_eq!(text_of(&client.call("reload_version", json!({})).await), "v1");

    let maps = std::fs::read_to_string(format!("/proc/{}/maps", client.pid())).unwrap();
    let copy = maps
        .lines()
        .filter_map(|line| line.split_whitespace().nth(5))
        .find(|path| path.contains("/copies/") && path.contains("libreload"))
        .map(PathBuf::from)
        .unwrap_or_else(|| panic!("libreload is mapped from a private copy:\n{maps}"));
    assert!(!maps.contains(&reload_library(&setup).display().to_string()), "the folder's file itself is not mapped");

    // A library removed: its tools go.
    std::fs::remove_file(reload_library(&setup)).unwrap();
    client.expect_notifications(LIST_CHANGED, 2).await;
    assert_eq!(names(&client).await, before);
    assert!(client.close().await.success());
    assert!(!copy.exists(), "the private copies are removed when the host stops: {}", copy.display());
}

#[tokio::test]
async fn a_replaced_library_serves_new_calls_while_a_running_call_finishes_on_the_old_one() {
    let setup = setup_with(json!({}));
    std::fs::copy(fixture("reload_v1"), reload_library(&setup)).unwrap();
    let client = setup.stdio().await;
    assert_eq!(text_of(&client.call("reload_version", json!({})).await), "v1");

    let (started, release) = (setup.dir.path().join("started"), setup.dir.path().join("release"));
    let (_, running) = client
        .start("tools/call", json!({ "name": "reload_wait", "arguments": { "file": release, "started": started } }))
        .await;
    started_call(&client, &started).await;

    install(&std::fs::read(fixture("reload_v2")).unwrap(), &reload_library(&setup));
    client.expect_notifications(LIST_CHANGED, 1).await;
    assert!(names(&client).await.contains(&"reload_added".to_owned()));
    assert_eq!(text_of(&client.call("reload_version", json!({})).await), "v2", "new calls go to the new library");
    assert_eq!(text_of(&client.call("reload_added", json!({})).await), "added in v2");

    std::fs::write(&release, "").unwrap();
    let answer = tokio::time::timeout(Duration::from_secs(30), running).await.expect("the running call ends").unwrap();
    assert_eq!(text_of(&answer["result"]), "v1 finished", "the running call finished on the old library: {answer}");
    let host = serving(&setup);
    assert_eq!(report(&host["plugins"], &lib_name("reload"))["version"], "2.0.0", "{host}");
    assert_eq!(host["reloads"], 1, "{host}");
}

#[tokio::test]
async fn a_broken_library_changes_nothing_and_a_refused_replacement_leaves_the_old_one_serving() {
    let setup = setup_with(json!({}));
    std::fs::copy(fixture("reload_v1"), reload_library(&setup)).unwrap();
    let client = setup.stdio().await;
    let before = names(&client).await;

    // A new file that is no library, then a library replaced by one.
    install(b"this is not a library", &plugins(&setup).join(lib_name("broken")));
    reloads(&client, 1).await;
    install(b"still not a library", &reload_library(&setup));
    reloads(&client, 2).await;
    let stderr = client.stderr();
    let reloaded: Vec<&str> = stderr.lines().filter(|line| line.contains("reloaded:")).collect();
    assert!(reloaded.iter().all(|line| line.contains("no list changed")), "{reloaded:?}");
    let ping = client.request("ping", json!({})).await;
    assert!(ping.get("result").is_some(), "{ping}");
    assert_eq!(client.count(LIST_CHANGED), 0, "nothing changed, nothing announced: {:?}", client.notifications());
    assert_eq!(names(&client).await, before);
    assert_eq!(text_of(&client.call("reload_version", json!({})).await), "v1", "the old library goes on serving");

    for file in ["broken", "reload"] {
        let refused = stderr.lines().filter(|line| line.contains("ERROR") && line.contains(&lib_name(file))).count();
        assert_eq!(refused, 1, "one error line for {file}:\n{stderr}");
    }

    // `plugins` tells the folder from what the host serves.
    let document = setup.plugins_json();
    assert_eq!(report(&document["plugins"], &lib_name("reload"))["status"], "refused", "on disk: {document}");
    let host = &document["serving"][0];
    let served = report(&host["plugins"], &lib_name("reload"));
    assert_eq!(served["status"], "loaded", "{host}");
    assert_eq!(served["version"], "1.0.0");
    assert!(served["refusedOnReload"].as_str().unwrap().contains("not a loadable library"), "{served}");
    assert_eq!(report(&host["plugins"], &lib_name("broken"))["status"], "refused");
    let check = setup.run(&["check"]);
    assert!(!check.status.success());
    let said = String::from_utf8_lossy(&check.stderr);
    assert!(said.contains("refused on reload by the host serving as PID"), "{said}");

    // A library whose items fail the descriptor checks does not replace the one serving either.
    install(&std::fs::read(fixture("bad_descriptor")).unwrap(), &reload_library(&setup));
    reloads(&client, 3).await;
    assert_eq!(text_of(&client.call("reload_version", json!({})).await), "v1");
    let served = report(&serving(&setup)["plugins"], &lib_name("reload")).clone();
    assert!(served["refusedOnReload"].as_str().unwrap().contains("MCP clients would reject it"), "{served}");
    assert_eq!(client.count(LIST_CHANGED), 0);
}

#[tokio::test]
async fn only_the_lists_that_changed_are_announced() {
    let setup = Setup::new(&["conformance"], &[], json!({ "Plugins": { "WatchQuietMs": 100 } }));
    let client = setup.stdio().await;
    let mut config: Value = serde_json::from_str(&std::fs::read_to_string(setup.config()).unwrap()).unwrap();
    config["Prompts"] = json!({ "Disabled": ["*"] });
    std::fs::write(setup.config(), config.to_string()).unwrap();
    client.expect_notifications("notifications/prompts/list_changed", 1).await;
    reloads(&client, 1).await;
    assert!(client.stderr().contains("changed: prompts\n"), "{}", client.stderr());
    let prompts = client.request("prompts/list", json!({})).await;
    assert_eq!(prompts["result"]["prompts"], json!([]), "declared at initialize, so an empty list: {prompts}");
    assert_eq!(client.count(LIST_CHANGED), 0);
    assert_eq!(client.count("notifications/resources/list_changed"), 0);
}

#[tokio::test]
async fn a_library_still_being_written_is_loaded_once_it_is_complete() {
    let setup = setup_with(json!({ "Plugins": { "WatchQuietMs": 1500 } }));
    let client = setup.stdio().await;
    let bytes = std::fs::read(fixture("reload_v1")).unwrap();
    // Written in place in ten pieces, 60 ms apart: the file is incomplete for
    // longer than a reload takes, but never quiet for the quiet period.
    let mut file = std::fs::File::create(reload_library(&setup)).unwrap();
    for piece in bytes.chunks(bytes.len().div_ceil(10)) {
        file.write_all(piece).unwrap();
        file.flush().unwrap();
        tokio::time::sleep(Duration::from_millis(60)).await;
    }
    drop(file);
    client.expect_notifications(LIST_CHANGED, 1).await;
    assert_eq!(text_of(&client.call("reload_version", json!({})).await), "v1");
    assert!(!client.stderr().contains(&format!("refused {}", lib_name("reload"))), "{}", client.stderr());
}

#[tokio::test]
async fn a_plugin_whose_creation_on_first_use_fails_is_withdrawn_until_its_library_changes() {
    let setup = setup_with(json!({}));
    let fail = setup.dir.path().join("fail");
    let mut config: Value = serde_json::from_str(&std::fs::read_to_string(setup.config()).unwrap()).unwrap();
    config["Plugins"]["Settings"] = json!({ "reload": { "FailIfExists": fail } });
    std::fs::write(setup.config(), config.to_string()).unwrap();
    std::fs::copy(fixture("reload_v1"), reload_library(&setup)).unwrap();
    // The cache learns the plugin's clean offer; the next start creates it on first use.
    assert!(setup.run(&["check"]).status.success());
    let client = setup.stdio().await;
    assert!(client.stderr().contains("serving (created on first use) plugin reload"), "{}", client.stderr());

    std::fs::write(&fail, "").unwrap();
    let result = client.call("reload_version", json!({})).await;
    assert_eq!(result["isError"], true, "{result}");
    assert!(text_of(&result).contains("fails on purpose"), "{result}");
    client.expect_notifications(LIST_CHANGED, 1).await;
    let served = names(&client).await;
    assert!(!served.iter().any(|name| name.starts_with("reload_")), "withdrawn: {served:?}");
    assert!(served.contains(&"echo".to_owned()));
    let withdrawn = report(&serving(&setup)["plugins"], &lib_name("reload")).clone();
    assert_eq!(withdrawn["status"], "refused", "{withdrawn}");
    assert!(withdrawn["problems"].to_string().contains("fails on purpose"), "{withdrawn}");

    // A new library (here: the same build again, a new file) is tried again.
    std::fs::remove_file(&fail).unwrap();
    install(&std::fs::read(fixture("reload_v1")).unwrap(), &reload_library(&setup));
    client.expect_notifications(LIST_CHANGED, 2).await;
    assert_eq!(text_of(&client.call("reload_version", json!({})).await), "v1");
}

#[tokio::test]
async fn a_changed_configuration_applies_and_a_broken_one_is_not_applied() {
    let setup = setup_with(json!({}));
    std::fs::copy(fixture("reload_v1"), reload_library(&setup)).unwrap();
    let client = setup.stdio().await;
    let original = std::fs::read_to_string(setup.config()).unwrap();
    let mut config: Value = serde_json::from_str(&original).unwrap();
    config["Tools"] = json!({ "Disabled": ["reload_wait"] });
    config["Plugins"]["Settings"] = json!({ "sample": { "Greeting": "Hej" } });
    std::fs::write(setup.config(), config.to_string()).unwrap();
    client.expect_notifications(LIST_CHANGED, 1).await;
    assert!(!names(&client).await.contains(&"reload_wait".to_owned()));
    assert_eq!(text_of(&client.call("greet", json!({ "name": "Ada" })).await), "Hej, Ada!", "re-created");

    std::fs::write(setup.config(), "{ \"Tools\": ").unwrap();
    let refused = client
        .wait_for_stderr(Duration::from_secs(30), |stderr| stderr.contains("the configuration was not applied"))
        .await;
    assert!(refused, "{}", client.stderr());
    assert_eq!(
        client.stderr().lines().filter(|line| line.contains("the configuration was not applied")).count(),
        1,
        "one line"
    );
    assert_eq!(text_of(&client.call("greet", json!({ "name": "Ada" })).await), "Hej, Ada!", "the old one stays");

    std::fs::write(setup.config(), original).unwrap();
    client.expect_notifications(LIST_CHANGED, 2).await;
    assert!(names(&client).await.contains(&"reload_wait".to_owned()));
    assert_eq!(client.count(LIST_CHANGED), 2, "the broken configuration announced nothing");
}

#[tokio::test]
async fn a_configuration_with_a_key_that_is_not_a_setting_is_refused_on_reload() {
    let setup = setup_with(json!({}));
    let client = setup.stdio().await;
    let before = names(&client).await;
    let mut config: Value = serde_json::from_str(&std::fs::read_to_string(setup.config()).unwrap()).unwrap();
    config["Tools"] = json!({ "Disable": ["greet"] });
    std::fs::write(setup.config(), config.to_string()).unwrap();
    let refused = client
        .wait_for_stderr(Duration::from_secs(30), |stderr| stderr.contains("the configuration was not applied"))
        .await;
    assert!(refused, "{}", client.stderr());
    let lines: Vec<String> = client
        .stderr()
        .lines()
        .filter(|line| line.contains("the configuration was not applied"))
        .map(str::to_owned)
        .collect();
    assert_eq!(lines.len(), 1, "one line: {lines:?}");
    assert!(lines[0].contains("`Tools.Disable` is not a setting; did you mean `Tools.Disabled`?"), "{lines:?}");
    assert_eq!(names(&client).await, before, "what is served stays");
    assert_eq!(client.count(LIST_CHANGED), 0);
}

#[tokio::test]
async fn without_watching_sighup_reloads() {
    let setup = setup_with(json!({ "Plugins": { "Watch": false } }));
    let client = setup.stdio().await;
    std::fs::copy(fixture("reload_v1"), reload_library(&setup)).unwrap();
    assert!(!client.stderr().contains("watching"), "{}", client.stderr());
    let status = std::process::Command::new("kill").args(["-HUP", &client.pid().to_string()]).status().unwrap();
    assert!(status.success());
    client.expect_notifications(LIST_CHANGED, 1).await;
    assert_eq!(text_of(&client.call("reload_version", json!({})).await), "v1");
}

#[tokio::test]
async fn a_listen_stream_of_protocol_2026_07_28_hears_of_changes() {
    let setup = setup_with(json!({}));
    let client = Client::spawn(&setup.config(), &[]);
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { "name": "e2e", "version": "1" },
        "io.modelcontextprotocol/clientCapabilities": {}
    });
    let (id, _stream) = client
        .start("subscriptions/listen", json!({ "_meta": meta, "notifications": { "toolsListChanged": true } }))
        .await;
    client.expect_notifications("notifications/subscriptions/acknowledged", 1).await;
    std::fs::copy(fixture("reload_v1"), reload_library(&setup)).unwrap();
    client.expect_notifications(LIST_CHANGED, 1).await;
    let announced = client.notifications().into_iter().find(|notification| notification["method"] == LIST_CHANGED);
    assert_eq!(announced.unwrap()["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], id);
}

/// A streamable HTTP session with its standalone SSE stream open.
struct HttpSession {
    events: std::sync::Arc<std::sync::Mutex<String>>,
}

impl HttpSession {
    async fn open(http: &reqwest::Client, url: &str) -> Self {
        let initialize = json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": { "name": "e2e-http", "version": "1" } } });
        let post = |body: Value, session: Option<&str>| {
            let mut request = http
                .post(url)
                .header("content-type", "application/json")
                .header("accept", "application/json, text/event-stream")
                .body(body.to_string());
            if let Some(session) = session {
                request = request.header("mcp-session-id", session).header("mcp-protocol-version", "2025-06-18");
            }
            request.send()
        };
        let answer = post(initialize, None).await.unwrap();
        let session = answer.headers()["mcp-session-id"].to_str().unwrap().to_owned();
        answer.text().await.unwrap();
        let initialized = post(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }), Some(&session));
        assert_eq!(initialized.await.unwrap().status().as_u16(), 202);
        let mut stream = http
            .get(url)
            .header("accept", "text/event-stream")
            .header("mcp-session-id", &session)
            .header("mcp-protocol-version", "2025-06-18")
            .send()
            .await
            .unwrap();
        assert_eq!(stream.status().as_u16(), 200);
        let events = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let sink = std::sync::Arc::clone(&events);
        tokio::spawn(async move {
            while let Ok(Some(chunk)) = stream.chunk().await {
                sink.lock().unwrap().push_str(&String::from_utf8_lossy(&chunk));
            }
        });
        Self { events }
    }

    async fn heard(&self, method: &str) -> bool {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
        while tokio::time::Instant::now() < deadline {
            if self.events.lock().unwrap().contains(method) {
                return true;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        false
    }
}

#[tokio::test]
async fn every_http_session_hears_of_a_change() {
    let setup = setup_with(json!({}));
    let (_host, url, log) = common::spawn_http(&setup.config(), &[]).await;
    let http = reqwest::Client::new();
    let sessions = [HttpSession::open(&http, &url).await, HttpSession::open(&http, &url).await];
    std::fs::copy(fixture("reload_v1"), reload_library(&setup)).unwrap();
    for (number, session) in sessions.iter().enumerate() {
        assert!(
            session.heard(LIST_CHANGED).await,
            "session {number} heard nothing; host log:\n{}",
            log.lock().unwrap()
        );
    }
}

/// Overwrites the loaded library in place 20 times (`cp` over it: same file, new bytes, v1 and v2
/// in turn) while calls run, one of them across each overwrite; every overwrite is a change the
/// host reloads, and no call fails.
async fn overwritten_in_place_during_calls(isolation: &str) {
    let setup = setup_with(json!({ "Plugins": { "Isolation": { "*": isolation } } }));
    std::fs::copy(fixture("reload_v1"), reload_library(&setup)).unwrap();
    let client = setup.stdio().await;
    assert_eq!(text_of(&client.call("reload_version", json!({})).await), "v1");
    for round in 1..=20 {
        let (from, to) = if round % 2 == 1 { ("v1", "v2") } else { ("v2", "v1") };
        // In the host's temporary folder, which a worker may write (the test's own folder it may not).
        let (started, release) =
            (setup.tmp().join(format!("started-{round}")), setup.tmp().join(format!("release-{round}")));
        let (_, across) = client
            .start("tools/call", json!({ "name": "reload_wait", "arguments": { "file": release, "started": started } }))
            .await;
        started_call(&client, &started).await;
        let mut during = Vec::new();
        for _ in 0..4 {
            during.push(client.start("tools/call", json!({ "name": "reload_version", "arguments": {} })).await.1);
        }
        // What the README tells authors not to do, and what they do anyway: `cp` over the file.
        let copied = std::process::Command::new("cp")
            .arg(fixture(&format!("reload_{to}")))
            .arg(reload_library(&setup))
            .status()
            .unwrap();
        assert!(copied.success());
        for _ in 0..4 {
            during.push(client.start("tools/call", json!({ "name": "reload_version", "arguments": {} })).await.1);
        }
        client.expect_notifications(LIST_CHANGED, round).await;
        assert_eq!(text_of(&client.call("reload_version", json!({})).await), to, "round {round}: reloaded");
        std::fs::write(&release, "").unwrap();
        let answer = tokio::time::timeout(Duration::from_secs(30), across).await.expect("answered").unwrap();
        assert_eq!(text_of(&answer["result"]), format!("{from} finished"), "round {round}: {answer}");
        for answer in during {
            let answer = tokio::time::timeout(Duration::from_secs(30), answer).await.expect("answered").unwrap();
            let version = text_of(&answer["result"]);
            assert!(version == from || version == to, "round {round}: a call during the overwrite: {answer}");
        }
    }
    assert_eq!(serving(&setup)["reloads"], 20);
    let stderr = client.stderr();
    assert!(client.close().await.success(), "the host exits cleanly:\n{stderr}");
}

#[tokio::test]
async fn twenty_in_place_overwrites_during_calls_are_reloaded_and_never_crash_the_host() {
    overwritten_in_place_during_calls("in-process").await;
}

#[tokio::test]
async fn twenty_in_place_overwrites_during_calls_are_reloaded_and_never_crash_a_worker() {
    overwritten_in_place_during_calls("process").await;
}
