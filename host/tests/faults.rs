//! Faults of in-process plugins, through the real host binary, with the `faults` fixture.
//!
//! What in-process mode promises: a plugin that blocks or spins inside its call costs that
//! call (answered "timed out" on schedule) and, at worst, its own threads; `ping`,
//! `tools/list` and other plugins keep being answered and the host still shuts down. A fault
//! that ends the process (abort, bad pointer, stack overflow, `exit()`, a panic in a plugin
//! built with `panic = "abort"`) takes the host down, and leaves its cause on stderr.

mod common;

use std::{os::unix::process::ExitStatusExt, time::Duration};

use common::{Client, Setup, lib_name, panic_abort_plugins, text_of};
use serde_json::json;

/// A host serving `sample` and `faults`, with 2 s limits on the two tools that never return.
fn setup() -> Setup {
    Setup::new(
        &["sample"],
        &["faults"],
        json!({ "Host": { "ToolTimeouts": { "busy_loop": 2, "blocking_sleep": 2 }, "CancelGraceMs": 200 } }),
    )
}

/// `ping`, `tools/list` and the sample plugin's `echo` are answered (within a generous bound:
/// when a plugin thread stalls the host, they are not answered at all).
async fn host_answers(client: &Client) {
    let limit = Duration::from_secs(20);
    let ping = client.request_within("ping", json!({}), limit).await;
    assert!(ping.get("result").is_some(), "ping: {ping}");
    let list = client.request_within("tools/list", json!({}), limit).await;
    assert!(list["result"]["tools"].as_array().is_some_and(|tools| tools.len() > 3), "tools/list: {list}");
    let echo = client
        .request_within("tools/call", json!({ "name": "echo", "arguments": { "text": "still here" } }), limit)
        .await;
    assert_eq!(text_of(&echo["result"]), "still here", "echo: {echo}");
}

/// Calls `tool` of a plugin that never returns and checks that the host goes on serving. With
/// `lazily`, the plugin cache is filled first, so the host creates the plugin on this first call
/// (the lazy backend, which wraps the in-process one).
async fn blocked_call_is_timed_out_and_the_host_serves(tool: &str, lazily: bool) {
    let setup = setup();
    if lazily {
        assert!(setup.run(&["plugins"]).status.success());
    }
    let client = setup.stdio().await;
    let (_, blocked) = client.start("tools/call", json!({ "name": tool, "arguments": {} })).await;
    // Once the plugin's thread is blocking, ask the host for other things.
    let blocking = format!("{tool} blocks its thread now");
    assert!(client.wait_for_stderr(Duration::from_secs(60), |stderr| stderr.contains(&blocking)).await);
    host_answers(&client).await;
    let answer = tokio::time::timeout(Duration::from_secs(30), blocked)
        .await
        .unwrap_or_else(|_| panic!("{tool} got no timeout answer; stderr:\n{}", client.stderr()))
        .unwrap();
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    assert!(text_of(&answer["result"]).contains("timed out after 2 s"), "{answer}");
    // The plugin's other threads serve its next call while one is still stuck.
    assert_eq!(text_of(&client.call("faults_ok", json!({})).await), "ok");
    host_answers(&client).await;
    assert_eq!(client.stderr().contains("created plugin faults"), lazily, "{}", client.stderr());
    let status = client.close().await;
    assert!(status.success(), "the host exits cleanly with a plugin thread still stuck: {status:?}");
}

#[tokio::test]
async fn a_busy_loop_in_a_call_is_timed_out_while_the_host_keeps_serving() {
    blocked_call_is_timed_out_and_the_host_serves("busy_loop", false).await;
}

#[tokio::test]
async fn a_blocking_sleep_in_a_call_of_a_lazily_created_plugin_is_timed_out_while_the_host_keeps_serving() {
    blocked_call_is_timed_out_and_the_host_serves("blocking_sleep", true).await;
}

#[tokio::test]
async fn a_plugin_whose_threads_are_all_stuck_refuses_its_next_call_and_the_others_serve() {
    let setup = setup();
    let client = setup.stdio().await;
    let mut blocked = Vec::new();
    for _ in 0..mcp_plugin_host::plugin::threads::CALL_THREADS {
        let (_, answer) =
            client.start("tools/call", json!({ "name": "blocking_sleep", "arguments": { "ms": 600_000 } })).await;
        blocked.push(answer);
    }
    for answer in blocked {
        let answer = tokio::time::timeout(Duration::from_secs(30), answer).await.unwrap().unwrap();
        assert!(text_of(&answer["result"]).contains("timed out after 2 s"), "{answer}");
    }
    let refused = client.call("faults_ok", json!({})).await;
    assert_eq!(refused["isError"], true, "{refused}");
    assert!(
        text_of(&refused).contains("all 4 of its call threads are held by requests that were stopped"),
        "{}",
        text_of(&refused)
    );
    host_answers(&client).await;
    assert!(client.close().await.success());
}

#[tokio::test]
async fn shutdown_does_not_wait_for_a_call_spinning_without_a_time_limit() {
    let setup = Setup::new(&["sample"], &["faults"], json!({ "Host": { "CancelGraceMs": 200 } }));
    let client = setup.stdio().await;
    let (_, spinning) = client.start("tools/call", json!({ "name": "busy_loop", "arguments": {} })).await;
    // The call is on the plugin's thread, spinning, when the client goes away.
    assert!(client.wait_for_stderr(Duration::from_secs(60), |stderr| stderr.contains("busy_loop blocks")).await);
    host_answers(&client).await;
    let status = client.close().await;
    assert!(status.success(), "the host exits by itself, leaving the spinning thread behind: {status:?}");
    drop(spinning);
}

#[tokio::test]
async fn a_panic_in_a_call_costs_that_call() {
    let setup = setup();
    let mut client = setup.stdio().await;
    let result = client.call("panic", json!({})).await;
    assert_eq!(result["isError"], true);
    assert!(text_of(&result).contains("faults: panic on purpose"), "{}", text_of(&result));
    assert_eq!(text_of(&client.call("faults_ok", json!({})).await), "ok");
    assert!(client.is_running());
}

#[tokio::test]
async fn a_4_gib_allocation_that_fits_costs_nothing() {
    // Touching 4 GiB on a machine without it would bring in the OOM killer, for this host or another
    // process: only where 8 GiB are available does the test say what it means to.
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let available_kib: u64 = meminfo
        .lines()
        .find_map(|line| line.strip_prefix("MemAvailable:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0);
    if available_kib < 8 << 20 {
        eprintln!("skipped: {available_kib} KiB available, the test needs 8 GiB");
        return;
    }
    let setup = setup();
    let mut client = setup.stdio().await;
    // Touching 4 GiB takes 10 s a GiB where the hypervisor backs each new page (a 2-core VM),
    // and longer under load: a deadline for that, not a speed the test asserts.
    let answer = client
        .request_within("tools/call", json!({ "name": "alloc_4g", "arguments": {} }), Duration::from_secs(600))
        .await;
    let result = &answer["result"];
    assert_eq!(text_of(result), "touched 1048576 pages", "{result}");
    host_answers(&client).await;
    assert!(client.is_running());
}

/// Calls `tool`, which ends the process, and returns how the host ended and its stderr.
async fn host_taken_down_by(setup: &Setup, tool: &str, cause: &str) -> (std::process::ExitStatus, String) {
    let client = setup.stdio().await;
    let _ = client.start("tools/call", json!({ "name": tool, "arguments": {} })).await;
    let logged = client.wait_for_stderr(Duration::from_secs(60), |stderr| stderr.contains(cause)).await;
    let stderr = client.stderr();
    assert!(logged, "{tool}: no '{cause}' on stderr:\n{stderr}");
    let status = client.wait_exit().await;
    (status, stderr)
}

const ISOLATION_HINT: &str = "code of an in-process plugin may be the cause";

#[tokio::test]
async fn abort_takes_the_host_down_and_names_the_signal() {
    let (status, stderr) = host_taken_down_by(&setup(), "abort", "fatal signal SIGABRT").await;
    assert_eq!(status.signal(), Some(libc::SIGABRT), "{status:?}");
    assert!(stderr.contains(ISOLATION_HINT), "{stderr}");
}

#[tokio::test]
async fn a_null_write_takes_the_host_down_and_names_the_signal() {
    let (status, stderr) = host_taken_down_by(&setup(), "null_write", "fatal signal SIGSEGV").await;
    assert_eq!(status.signal(), Some(libc::SIGSEGV), "{status:?}");
    assert!(stderr.contains(ISOLATION_HINT), "{stderr}");
}

#[tokio::test]
async fn a_stack_overflow_takes_the_host_down_and_rust_still_names_the_thread() {
    let (status, stderr) = host_taken_down_by(&setup(), "stack_overflow", "has overflowed its stack").await;
    assert!(status.signal().is_some(), "ended by a signal: {status:?}");
    assert!(stderr.contains("fatal signal SIGSEGV"), "{stderr}");
    // It overflowed on one of the plugin's call threads, not on a worker of the host.
    let overflow = stderr.lines().find(|line| line.contains("has overflowed its stack")).unwrap_or_default();
    assert!(overflow.starts_with("thread 'calls-faults'"), "{stderr}");
}

#[tokio::test]
async fn exit_from_a_plugin_takes_the_host_down_with_its_code_logged() {
    let (status, stderr) =
        host_taken_down_by(&setup(), "exit3", "exiting with code 3 through exit() called outside the host").await;
    assert_eq!(status.code(), Some(3), "{status:?}");
    assert!(stderr.contains("ERROR"), "{stderr}");
}

#[tokio::test]
async fn a_failed_huge_allocation_takes_the_host_down_and_names_the_signal() {
    let (status, stderr) = host_taken_down_by(&setup(), "alloc_huge", "fatal signal SIGABRT").await;
    assert_eq!(status.signal(), Some(libc::SIGABRT), "{status:?}");
    assert!(stderr.contains("memory allocation of"), "{stderr}");
}

#[tokio::test]
async fn a_panic_in_a_plugin_built_with_panic_abort_takes_the_host_down_and_names_the_signal() {
    let setup = Setup::new(&["sample"], &[], json!({}));
    let name = lib_name("faults");
    std::os::unix::fs::symlink(panic_abort_plugins().join(&name), setup.dir.path().join("plugins").join(&name))
        .unwrap();
    let (status, stderr) = host_taken_down_by(&setup, "panic", "fatal signal SIGABRT").await;
    assert_eq!(status.signal(), Some(libc::SIGABRT), "{status:?}");
    assert!(stderr.contains("faults: panic on purpose"), "{stderr}");
}
