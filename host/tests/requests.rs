//! End-to-end tests of the one guarded path every plugin request takes, through the real host
//! binary: prompts, resource reads and completions that block, spin, panic, crash, wait for
//! their cancel signal or fail in each typed way (fixture `faulty`), in process and in a worker.
//! Each is answered: on schedule when its limit runs out, with the JSON-RPC error its failure
//! calls for, and the plugin hears the client's cancel and its drop.

mod common;

use std::time::{Duration, Instant};

use common::{Client, Setup, text_of};
use serde_json::{Value, json};

/// JSON-RPC's invalid params.
const INVALID_PARAMS: i64 = -32602;
/// JSON-RPC's internal error.
const INTERNAL_ERROR: i64 = -32603;
/// MCP's resource not found.
const RESOURCE_NOT_FOUND: i64 = -32002;

/// A host serving `faulty` with `limit` seconds for prompts, reads and completions, in `isolation`.
fn setup(isolation: &str, limit: u64) -> Setup {
    Setup::new(
        &[],
        &["faulty"],
        json!({
            "Host": {
                "PromptTimeoutSeconds": limit, "ResourceTimeoutSeconds": limit, "CompletionTimeoutSeconds": limit,
                "CancelGraceMs": 400
            },
            "Plugins": {
                "LazyLoading": false,
                "Isolation": { "faulty": isolation },
                "Workers": { "faulty": { "MaxFailures": 50 } }
            }
        }),
    )
}

async fn prompt(client: &Client, mode: &str) -> Value {
    client.request("prompts/get", json!({ "name": "faulty_prompt", "arguments": { "mode": mode } })).await
}

async fn read(client: &Client, mode: &str) -> Value {
    client.request("resources/read", json!({ "uri": format!("faulty://{mode}") })).await
}

async fn complete(client: &Client, value: &str) -> Value {
    client
        .request(
            "completion/complete",
            json!({ "ref": { "type": "ref/prompt", "name": "faulty_prompt" }, "argument": { "name": "mode", "value": value } }),
        )
        .await
}

/// The error of an answer, with its code; panics on a result.
fn error(answer: &Value) -> (i64, String) {
    let error = answer.get("error").unwrap_or_else(|| panic!("an error: {answer}"));
    (error["code"].as_i64().unwrap(), error["message"].as_str().unwrap().to_owned())
}

/// What `faulty` answers and refuses the same way wherever it runs.
async fn answers_and_typed_errors(client: &Client) {
    let rendered = prompt(client, "ok").await;
    assert_eq!(rendered["result"]["messages"][0]["content"]["text"], "rendered ok", "{rendered}");
    let contents = read(client, "ok").await;
    assert_eq!(contents["result"]["contents"][0]["text"], "read ok", "{contents}");
    let completion = complete(client, "sp").await;
    assert_eq!(completion["result"]["completion"]["values"], json!(["spin"]), "{completion}");

    for answer in [prompt(client, "invalid").await, read(client, "invalid").await] {
        let (code, message) = error(&answer);
        assert_eq!(code, INVALID_PARAMS, "{answer}");
        assert!(message.contains("Invalid argument 'mode'"), "{message}");
    }
    for answer in [prompt(client, "fail").await, read(client, "fail").await] {
        let (code, message) = error(&answer);
        assert_eq!(code, INTERNAL_ERROR, "{answer}");
        assert!(message.contains("plugin 'faulty'") && message.contains("failed on purpose"), "{message}");
    }
    let (code, message) = error(&read(client, "missing").await);
    assert_eq!((code, message.as_str()), (RESOURCE_NOT_FOUND, "faulty: nothing here, on purpose"));
    for answer in [prompt(client, "panic").await, read(client, "panic").await, complete(client, "panic").await] {
        let (code, message) = error(&answer);
        assert_eq!(code, INTERNAL_ERROR, "{answer}");
        assert!(message.contains("faulty") && message.contains("panicked on purpose"), "{message}");
    }
}

/// A `wait_cancel` request cancelled by the client: the plugin sees the cancel signal, then the
/// drop, for each kind of request.
async fn cancellation_and_drop_reach_the_plugin(client: &Client) {
    let requests = [
        ("prompts/get", json!({ "name": "faulty_prompt", "arguments": { "mode": "wait_cancel" } })),
        ("resources/read", json!({ "uri": "faulty://wait_cancel" })),
        (
            "completion/complete",
            json!({ "ref": { "type": "ref/prompt", "name": "faulty_prompt" }, "argument": { "name": "mode", "value": "wait_cancel" } }),
        ),
    ];
    for (round, (method, params)) in requests.into_iter().enumerate() {
        let count = round + 1;
        let (id, _answer) = client.start(method, params).await;
        wait_for_stats(client, |stats| stats["started"] == count).await;
        client.notify("notifications/cancelled", json!({ "requestId": id, "reason": "test" })).await;
        wait_for_stats(client, |stats| stats["cancelled"] == count && stats["dropped"] == count).await;
        // Stopped by the client's cancel, not by its time limit.
        let cancelled = client
            .wait_for_stderr(Duration::from_secs(30), |stderr| {
                stderr.matches("request finished outcome=cancelled").count() == count
            })
            .await;
        assert!(cancelled, "{method}:\n{}", client.stderr());
    }
}

/// Asks `faulty_stats` until its answer satisfies `done`.
async fn wait_for_stats(client: &Client, done: impl Fn(&Value) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let stats = client.call("faulty_stats", json!({})).await["structuredContent"].clone();
        if done(&stats) {
            return;
        }
        assert!(Instant::now() < deadline, "the plugin saw {stats}\n{}", client.stderr());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Requests that never return are answered at their limit (2 s), all three at once.
async fn blocked_requests_are_answered_at_their_limit(client: &Client) {
    let stuck = [
        client.start("prompts/get", json!({ "name": "faulty_prompt", "arguments": { "mode": "block" } })).await.1,
        client.start("resources/read", json!({ "uri": "faulty://spin" })).await.1,
        client
            .start(
                "completion/complete",
                json!({ "ref": { "type": "ref/prompt", "name": "faulty_prompt" }, "argument": { "name": "mode", "value": "block" } }),
            )
            .await
            .1,
    ];
    for answer in stuck {
        let answer = tokio::time::timeout(Duration::from_secs(60), answer).await.expect("answered").unwrap();
        let (code, message) = error(&answer);
        assert_eq!(code, INTERNAL_ERROR, "{answer}");
        assert!(message.contains("timed out after 2 s"), "{message}");
        assert_eq!(answer["error"]["data"]["reason"], "timeout", "{answer}");
        assert_eq!(answer["error"]["data"]["plugin"], "faulty", "{answer}");
    }
}

#[tokio::test]
async fn every_request_is_guarded_in_process() {
    // Limits no request here reaches (a panic's backtrace, under RUST_BACKTRACE, takes a while).
    let setup = setup("in-process", 60);
    let client = setup.stdio().await;
    answers_and_typed_errors(&client).await;
    cancellation_and_drop_reach_the_plugin(&client).await;
    let stderr = client.stderr();
    assert!(stderr.contains("request finished outcome=invalid_params"), "{stderr}");
    assert!(stderr.contains("request finished outcome=plugin_error"), "{stderr}");
    assert!(stderr.contains("request finished outcome=fault"), "{stderr}");
    assert!(stderr.contains("request finished outcome=not_found"), "{stderr}");
    assert!(client.close().await.success());
}

#[tokio::test]
async fn requests_that_never_return_hold_threads_but_never_starve_tool_calls() {
    let setup = setup("in-process", 2);
    let client = setup.stdio().await;
    blocked_requests_are_answered_at_their_limit(&client).await;

    // Three threads are held by the stopped requests; the last is kept for tool calls.
    let (code, message) = error(&prompt(&client, "ok").await);
    assert_eq!(code, INTERNAL_ERROR);
    assert!(message.contains("3 of its 4 call threads are held (the last is kept for tool calls)"), "{message}");
    assert!(message.contains("prompts/get 'faulty_prompt'") && message.contains("resources/read 'faulty://spin'"));
    assert_eq!(text_of(&client.call("faulty_ok", json!({})).await), "ok", "tool calls still run");

    // One line per fault: the request that ran out of time, and the thread it left held.
    let logged = client
        .wait_for_stderr(Duration::from_secs(30), |stderr| {
            stderr.matches("still holds one of its call threads").count() >= 3
        })
        .await;
    assert!(logged, "{}", client.stderr());
    let stderr = client.stderr();
    let timeouts: Vec<&str> = stderr.lines().filter(|line| line.contains("outcome=timeout")).collect();
    assert_eq!(timeouts.len(), 3, "{timeouts:#?}");
    assert!(timeouts.iter().all(|line| line.contains(" WARN ") && line.contains("request finished")), "{timeouts:#?}");
    assert!(timeouts.iter().any(|line| line.contains("prompt{prompt=faulty_prompt plugin=faulty")), "{timeouts:#?}");
    assert!(timeouts.iter().any(|line| line.contains("read{uri=faulty://spin plugin=faulty")), "{timeouts:#?}");
    assert!(client.close().await.success(), "the host exits although threads are held");
}

#[tokio::test]
async fn every_request_is_guarded_in_a_worker() {
    // Limits no request here reaches: a worker's restart pause counts against them.
    let setup = setup("process", 60);
    let client = setup.stdio().await;
    answers_and_typed_errors(&client).await;
    cancellation_and_drop_reach_the_plugin(&client).await;
    // A crash costs the request in flight, answered as the plugin's fault, never as bad params.
    for answer in [prompt(&client, "crash").await, read(&client, "crash").await, complete(&client, "crash").await] {
        let (code, message) = error(&answer);
        assert_eq!(code, INTERNAL_ERROR, "{answer}");
        assert!(message.contains("'faulty'") && message.contains("SIGSEGV"), "{message}");
    }
    assert_eq!(read(&client, "ok").await["result"]["contents"][0]["text"], "read ok");
    assert!(client.close().await.success());
}

#[tokio::test]
async fn requests_that_never_return_cost_a_worker_and_one_line() {
    let setup = setup("process", 2);
    let client = setup.stdio().await;
    // Three requests that never return, and ten more that spin, all in the one worker at once.
    let mut spinning = Vec::new();
    for _ in 0..10 {
        spinning.push(client.start("resources/read", json!({ "uri": "faulty://spin" })).await.1);
    }
    blocked_requests_are_answered_at_their_limit(&client).await;
    for answer in spinning {
        let answer = tokio::time::timeout(Duration::from_secs(60), answer).await.expect("answered").unwrap();
        assert_eq!(answer["error"]["data"]["reason"], "timeout", "{answer}");
    }
    let killed = "was still running 1 s later";
    let logged = client.wait_for_stderr(Duration::from_secs(30), |stderr| stderr.contains(killed)).await;
    assert!(logged, "{}", client.stderr());
    // The next request gets a new worker.
    let rendered = prompt(&client, "ok").await;
    assert_eq!(rendered["result"]["messages"][0]["content"]["text"], "rendered ok", "{rendered}");
    assert_eq!(client.stderr().matches(killed).count(), 1, "one line for the worker killed:\n{}", client.stderr());
    assert!(client.close().await.success());
}

#[tokio::test]
async fn a_time_limit_is_answered_at_the_limit_not_after_the_grace_period() {
    // A grace period longer than the limit: the cancel signal comes a quarter of the limit
    // early, and the answer at the limit. Waiting the grace after the limit would take 14 s.
    let setup = Setup::new(
        &[],
        &["faulty", "slow"],
        json!({
            "Host": { "PromptTimeoutSeconds": 4, "ToolTimeouts": { "sleep_ignoring_cancel": 4 }, "CancelGraceMs": 10000 },
            "Plugins": { "LazyLoading": false }
        }),
    );
    let client = setup.stdio().await;
    let started = Instant::now();
    let answer = prompt(&client, "spin").await;
    let took = started.elapsed();
    assert_eq!(answer["error"]["data"]["reason"], "timeout", "{answer}");
    assert!(took >= Duration::from_secs(4) && took < Duration::from_secs(12), "answered after {took:?}");

    let started = Instant::now();
    let result = client.call("sleep_ignoring_cancel", json!({ "ms": 60000 })).await;
    let took = started.elapsed();
    assert!(text_of(&result).contains("timed out after 4 s"), "{result}");
    assert!(took >= Duration::from_secs(4) && took < Duration::from_secs(12), "answered after {took:?}");
}

#[tokio::test]
async fn shutdown_stops_requests_in_flight() {
    let setup = setup("in-process", 60);
    let client = setup.stdio().await;
    let (_, _answer) =
        client.start("prompts/get", json!({ "name": "faulty_prompt", "arguments": { "mode": "wait_cancel" } })).await;
    let (_, _read) = client.start("resources/read", json!({ "uri": "faulty://block" })).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(client.close().await.success(), "the host exits with requests in flight");
}
