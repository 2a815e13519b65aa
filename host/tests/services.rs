//! End-to-end tests of what the host offers plugins beyond tool calls:
//! requests back to the client (elicitation, sampling, roots), prompts,
//! resources and completion, and locks shared across plugins.

mod common;

use std::time::Duration;

use common::{Client, Setup, text_of};
use serde_json::{Value, json};

#[tokio::test]
async fn elicitation_is_asked_of_the_client_and_its_answer_reaches_the_tool() {
    let setup = Setup::new(&["conformance"], &[], json!({}));
    let client = setup.stdio_with(&[], json!({ "elicitation": {} })).await;
    client.answers.lock().unwrap().insert(
        "elicitation/create".into(),
        json!({ "action": "accept", "content": { "username": "ada", "email": "ada@example.com" } }),
    );
    let result = client.call("test_elicitation", json!({ "message": "Who are you?" })).await;
    assert!(text_of(&result).contains("action=accept") && text_of(&result).contains("ada@example.com"), "{result}");
    let requests = client.server_requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0]["method"], "elicitation/create");
    assert_eq!(requests[0]["params"]["message"], "Who are you?");
    assert_eq!(requests[0]["params"]["requestedSchema"]["required"], json!(["username", "email"]));

    client.answers.lock().unwrap().insert("elicitation/create".into(), json!({ "action": "decline" }));
    let declined = client.call("test_elicitation", json!({ "message": "Again?" })).await;
    assert!(text_of(&declined).contains("action=decline"), "{declined}");
}

#[tokio::test]
async fn a_client_without_the_capability_is_not_asked() {
    let setup = Setup::new(&["conformance"], &[], json!({}));
    let client = setup.stdio().await;
    for (tool, arguments) in
        [("test_elicitation", json!({ "message": "m" })), ("test_sampling", json!({ "prompt": "p" }))]
    {
        let result = client.call(tool, arguments).await;
        assert_eq!(result["isError"], true, "{tool}");
        assert!(text_of(&result).contains("does not support"), "{tool}: {}", text_of(&result));
    }
    assert!(client.server_requests().is_empty(), "nothing was sent: {:?}", client.server_requests());
}

#[tokio::test]
async fn sampling_goes_to_the_client_model() {
    let setup = Setup::new(&["conformance"], &[], json!({}));
    let client = setup.stdio_with(&[], json!({ "sampling": {} })).await;
    client.answers.lock().unwrap().insert(
        "sampling/createMessage".into(),
        json!({ "role": "assistant", "content": { "type": "text", "text": "forty-two" }, "model": "m", "stopReason": "endTurn" }),
    );
    let result = client.call("test_sampling", json!({ "prompt": "The answer?" })).await;
    assert_eq!(text_of(&result), "LLM response: forty-two");
    let request = &client.server_requests()[0];
    assert_eq!(request["params"]["messages"][0]["content"]["text"], "The answer?");
    assert!(request["params"]["maxTokens"].is_u64());
}

#[tokio::test]
async fn prompts_resources_and_completion_are_served_from_plugins() {
    let setup = Setup::new(&["conformance"], &[], json!({}));
    let client = setup.stdio().await;
    let prompts = client.request("prompts/list", json!({})).await;
    let names: Vec<&str> = prompts["result"]["prompts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|prompt| prompt["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"test_prompt_with_arguments"), "{names:?}");

    let rendered = client
        .request(
            "prompts/get",
            json!({ "name": "test_prompt_with_arguments", "arguments": { "arg1": "A", "arg2": "B" } }),
        )
        .await;
    let text = rendered["result"]["messages"][0]["content"]["text"].as_str().unwrap();
    assert_eq!(text, "Prompt with arguments: arg1='A', arg2='B'");
    let missing = client.request("prompts/get", json!({ "name": "test_prompt_with_arguments", "arguments": {} })).await;
    assert_eq!(missing["error"]["code"], -32602);
    assert!(missing["error"]["message"].as_str().unwrap().contains("arg1"), "{missing}");

    let completion = client
        .request(
            "completion/complete",
            json!({ "ref": { "type": "ref/prompt", "name": "test_prompt_with_arguments" }, "argument": { "name": "arg1", "value": "test" } }),
        )
        .await;
    assert_eq!(completion["result"]["completion"]["values"], json!(["test", "testValue1"]));

    let text = client.request("resources/read", json!({ "uri": "test://static-text" })).await;
    assert_eq!(text["result"]["contents"][0]["mimeType"], "text/plain");
    let templated = client.request("resources/read", json!({ "uri": "test://template/77/data" })).await;
    let body: Value = serde_json::from_str(templated["result"]["contents"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(body["id"], "77");
    let unknown = client.request("resources/read", json!({ "uri": "test://nowhere" })).await;
    assert!(unknown["error"]["message"].as_str().unwrap().contains("test://nowhere"), "{unknown}");
    let templates = client.request("resources/templates/list", json!({})).await;
    assert_eq!(templates["result"]["resourceTemplates"][0]["uriTemplate"], "test://template/{id}/data");
}

#[tokio::test]
async fn a_tools_only_host_declares_and_answers_no_prompts_or_resources() {
    let setup = Setup::new(&["sample"], &[], json!({}));
    let client = common::Client::spawn(&setup.config(), &[]);
    let init = client
        .request(
            "initialize",
            json!({ "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": { "name": "e2e", "version": "1" } }),
        )
        .await;
    let capabilities = &init["result"]["capabilities"];
    assert!(capabilities.get("prompts").is_none() && capabilities.get("resources").is_none(), "{capabilities}");
    client.notify("notifications/initialized", json!({})).await;
    for method in ["prompts/list", "resources/list", "resources/templates/list"] {
        let answer = client.request(method, json!({})).await;
        assert_eq!(answer["error"]["code"], -32601, "{method}: {answer}");
    }
}

#[tokio::test]
async fn locks_conflict_across_plugins_and_are_released_on_every_path() {
    locks_conflict_and_are_released(json!({})).await;
}

#[tokio::test]
async fn a_lock_held_in_a_worker_process_conflicts_and_is_released_alike() {
    // locker runs in a worker, slow in process: both use the host's one lock table.
    locks_conflict_and_are_released(json!({ "Plugins": { "Isolation": { "locker": "process" } } })).await;
}

/// Waits until `locker` says it holds a lock for the `count`th time.
async fn lock_held(client: &Client, count: usize) {
    let logged = client.wait_for_stderr(Duration::from_secs(60), |log| log.matches("locker: holding").count() >= count);
    assert!(logged.await, "the lock was not taken:\n{}", client.stderr());
}

/// How long a `locker_hold` that must end by itself holds: room for the few quick requests the
/// tests make meanwhile, on a loaded machine too.
const HOLD_MS: u64 = 5000;

/// A key held by `locker` is refused to `slow` with the holder named and released on success,
/// panic and cancel, under `config`.
async fn locks_conflict_and_are_released(config: Value) {
    let setup = Setup::new(&[], &["locker", "slow"], config);
    let client = setup.stdio().await;
    let key = "/work/app/app.csproj";

    // Held by one plugin, refused to another, with the holder named.
    let (_, holding) =
        client.start("tools/call", json!({ "name": "locker_hold", "arguments": { "key": key, "ms": HOLD_MS } })).await;
    lock_held(&client, 1).await;
    let refused = client.call("slow_try_lock", json!({ "key": key })).await;
    assert_eq!(refused["isError"], true);
    let info = &refused["structuredContent"];
    assert_eq!(info["lockContended"], true);
    assert_eq!(info["lockKey"], key);
    assert_eq!(info["lockScope"], "project");
    assert_eq!(info["holder"]["plugin"], "locker");
    // Another key is free meanwhile.
    assert_eq!(text_of(&client.call("slow_try_lock", json!({ "key": "/other.csproj" })).await), "granted");

    // A waiting request gets it once the holder is done (success path).
    let waited = client.call("locker_try", json!({ "key": key, "waitMs": 60_000 })).await;
    assert_eq!(text_of(&waited), "granted");
    assert!(waited["structuredContent"]["lockWaitedMs"].as_u64().unwrap() > 0);
    let held = holding.await.unwrap();
    assert_eq!(held["result"]["structuredContent"]["lockKey"], key);

    // Released after a panic while holding.
    let panicked = client.call("locker_hold", json!({ "key": key, "panic": true })).await;
    assert!(text_of(&panicked).contains("panicked"));
    assert_eq!(text_of(&client.call("slow_try_lock", json!({ "key": key })).await), "granted");

    // Released after a client cancel.
    let (id, _) =
        client.start("tools/call", json!({ "name": "locker_hold", "arguments": { "key": key, "ms": 600_000 } })).await;
    lock_held(&client, 2).await;
    assert_eq!(client.call("slow_try_lock", json!({ "key": key })).await["isError"], true);
    client.notify("notifications/cancelled", json!({ "requestId": id })).await;
    // Released once the plugin has let go of the call, which takes what a loaded machine takes.
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    let mut answer = String::new();
    while answer != "granted" && std::time::Instant::now() < deadline {
        answer = text_of(&client.call("slow_try_lock", json!({ "key": key })).await);
        if answer != "granted" {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    assert_eq!(answer, "granted", "{}", client.stderr());
}

#[tokio::test]
async fn two_host_processes_contend_for_one_project_lock() {
    // Two clients on one machine each start their own host; the lock directory is what they share.
    let shared = tempfile::tempdir().unwrap();
    let config = json!({ "Host": { "LockDirectory": shared.path() } });
    let (first, second) = (Setup::new(&[], &["locker"], config.clone()), Setup::new(&[], &["locker"], config));
    let holder = first.stdio().await;
    let other = second.stdio().await;
    let key = "/work/app/app.csproj";

    let (_, holding) =
        holder.start("tools/call", json!({ "name": "locker_hold", "arguments": { "key": key, "ms": HOLD_MS } })).await;
    lock_held(&holder, 1).await;
    let refused = other.call("locker_try", json!({ "key": key })).await;
    assert!(text_of(&refused).starts_with("contended"), "{refused}");
    let info = &refused["structuredContent"];
    assert_eq!(info["lockContended"], true);
    assert_eq!(info["holder"]["plugin"], "locker");
    assert_eq!(info["holder"]["operation"], "hold");
    assert_eq!(info["holder"]["process"], holder.pid(), "the refusal names the other host process");
    // A wait across processes ends when the holder is done.
    let waited = other.call("locker_try", json!({ "key": key, "waitMs": 60_000 })).await;
    assert_eq!(text_of(&waited), "granted", "{waited}");
    holding.await.unwrap();

    // A holder killed outright (no cleanup at all) releases its keys with its process.
    let (_, _held) =
        holder.start("tools/call", json!({ "name": "locker_hold", "arguments": { "key": key, "ms": 600_000 } })).await;
    lock_held(&holder, 2).await;
    assert!(text_of(&other.call("locker_try", json!({ "key": key })).await).starts_with("contended"));
    let pid = holder.pid();
    std::process::Command::new("kill").args(["-KILL", &pid.to_string()]).status().unwrap();
    let status = holder.wait_exit().await;
    assert!(!status.success(), "{status}");
    assert_eq!(text_of(&other.call("locker_try", json!({ "key": key })).await), "granted");
}

#[tokio::test]
async fn content_negotiation_features_reach_the_plugin() {
    let setup = Setup::new(&[], &["introspect"], json!({}));
    let tags = json!(["agent", "format=json", "verbosity=compact"]);
    for section in ["extensions", "experimental"] {
        let capabilities = json!({ section: { "io.modelcontextprotocol/content-negotiation": { "features": tags } } });
        let client = setup.stdio_with(&[], capabilities).await;
        let result = client.call("introspect_features", json!({})).await;
        assert_eq!(result["structuredContent"]["features"], tags, "{section}");
        assert_eq!(result["structuredContent"]["format"], "json", "{section}");
    }
    let plain = setup.stdio().await;
    assert_eq!(plain.call("introspect_features", json!({})).await["structuredContent"]["features"], json!([]));
}

#[tokio::test]
async fn roots_come_from_the_client_when_it_has_them() {
    let setup = Setup::new(&[], &["introspect"], json!({}));
    let client = setup.stdio_with(&[], json!({ "roots": { "listChanged": false } })).await;
    client
        .answers
        .lock()
        .unwrap()
        .insert("roots/list".into(), json!({ "roots": [{ "uri": "file:///work/app", "name": "app" }] }));
    let result = client.call("introspect_roots", json!({})).await;
    assert_eq!(result["structuredContent"]["roots"], json!(["file:///work/app"]));
    let without = setup.stdio().await;
    let result = without.call("introspect_roots", json!({})).await;
    assert_eq!(result["isError"], true);
    assert!(text_of(&result).contains("does not support"), "{}", text_of(&result));
}

#[tokio::test]
async fn announcements_reach_the_sessions_that_asked_for_them() {
    announcements_reach_the_sessions(json!({})).await;
}

#[tokio::test]
async fn announcements_of_a_plugin_in_a_worker_process_reach_the_sessions_alike() {
    announcements_reach_the_sessions(json!({ "Plugins": { "Isolation": { "announcer": "process" } } })).await;
}

/// Subscribes, has the `announcer` fixture announce an update and a list
/// change, and checks what the session hears, under `config`.
async fn announcements_reach_the_sessions(config: Value) {
    let setup = Setup::new(&[], &["announcer"], config);
    let client = setup.stdio().await;
    let uris = |listed: Value| -> Vec<Value> {
        listed["result"]["resources"].as_array().unwrap().iter().map(|r| r["uri"].clone()).collect()
    };
    assert_eq!(uris(client.request("resources/list", json!({})).await), [json!("test://announcer/v1")]);

    // An update announced from a plugin's own thread reaches the subscribed session.
    let subscribed = client.request("resources/subscribe", json!({ "uri": "test://announcer/v1" })).await;
    assert!(subscribed.get("result").is_some(), "{subscribed}");
    client.call("announcer_touch", json!({ "uri": "test://announcer/v1" })).await;
    client.expect_notifications("notifications/resources/updated", 1).await;

    // A changed list is read again and announced; the new URI is served.
    assert_eq!(text_of(&client.call("announcer_bump", json!({})).await), "v2");
    client.expect_notifications("notifications/resources/list_changed", 1).await;
    assert_eq!(uris(client.request("resources/list", json!({})).await), [json!("test://announcer/v2")]);
    let read = client.request("resources/read", json!({ "uri": "test://announcer/v2" })).await;
    assert_eq!(read["result"]["contents"][0]["text"], "version 2", "{read}");
    assert!(client.stderr().contains("relisted"), "{}", client.stderr());
}
