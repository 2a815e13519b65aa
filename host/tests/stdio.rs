//! End-to-end tests of the real host binary over stdio: discovery,
//! listing, calls, structured output, progress, cancellation, timeouts,
//! concurrency, and plugins that misbehave.

mod common;

use std::time::{Duration, Instant};

use common::{Setup, text_of};
use serde_json::{Value, json};

fn tool_names(list: &Value) -> Vec<String> {
    list["result"]["tools"].as_array().unwrap().iter().map(|tool| tool["name"].as_str().unwrap().to_owned()).collect()
}

#[tokio::test]
async fn lists_tools_with_titles_annotations_and_schemas() {
    let setup = Setup::new(&["sample"], &[], json!({}));
    let client = setup.stdio().await;
    let list = client.request("tools/list", json!({})).await;
    assert_eq!(tool_names(&list), ["echo", "countdown", "greet"]);
    let echo = &list["result"]["tools"][0];
    assert_eq!(echo["title"], "Echo");
    assert_eq!(echo["annotations"]["readOnlyHint"], true);
    assert_eq!(echo["inputSchema"]["required"], json!(["text"]));
    assert_eq!(echo["outputSchema"]["required"], json!(["text", "length"]));
    assert!(client.not_json().is_empty(), "stdout carried non-JSON: {:?}", client.not_json());
}

#[tokio::test]
async fn initialize_names_this_server() {
    let setup = Setup::new(&["sample"], &[], json!({ "Host": { "ServerName": "my-host" } }));
    let client = common::Client::spawn(&setup.config(), &[]);
    let answer = client
        .request(
            "initialize",
            json!({ "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": { "name": "e2e", "version": "1" } }),
        )
        .await;
    assert_eq!(answer["result"]["serverInfo"]["name"], "my-host");
    assert_eq!(answer["result"]["serverInfo"]["version"], env!("CARGO_PKG_VERSION"));
    assert!(answer["result"]["capabilities"]["tools"].is_object());
    assert!(answer["result"]["capabilities"]["logging"].is_object());
}

#[tokio::test]
async fn calls_a_tool_and_returns_structured_content() {
    let setup = Setup::new(&["sample"], &[], json!({}));
    let client = setup.stdio().await;
    let result = client.call("echo", json!({ "text": "héllo" })).await;
    assert_eq!(text_of(&result), "héllo");
    assert_eq!(result["structuredContent"], json!({ "text": "héllo", "length": 5 }));
    assert!(result.get("isError").is_none() || result["isError"] == false);
}

#[tokio::test]
async fn plugin_configuration_reaches_the_plugin_and_its_logs_reach_stderr() {
    let setup = Setup::new(&["sample"], &[], json!({ "Plugins": { "Settings": { "sample": { "Greeting": "Hej" } } } }));
    // `check` fills the plugin cache, so the server creates the plugin lazily, inside the first call.
    assert!(setup.run(&["check"]).status.success());
    let client = setup.stdio().await;
    let result = client.call("greet", json!({ "name": "Ada" })).await;
    assert_eq!(text_of(&result), "Hej, Ada!");
    assert!(
        client
            .wait_for_notifications(Duration::from_secs(30), |notes| notes
                .iter()
                .any(|note| note["method"] == "notifications/message" && note["params"]["data"] == "greeting Ada"))
            .await,
        "the call's log record reached the client: {:?}",
        client.notifications()
    );
    let stderr = client.stderr();
    assert!(stderr.contains("plugin::sample") && stderr.contains("greeter ready with greeting 'Hej'"), "{stderr}");
    // The constructor's record (logged through the PluginContext, during this client's first call
    // when the plugin is created lazily) is the operator's: it never reaches the client.
    let leaked: Vec<Value> = client
        .notifications()
        .into_iter()
        .filter(|note| note["params"]["data"].as_str().is_some_and(|data| data.contains("greeter ready")))
        .collect();
    assert!(leaked.is_empty(), "a lifetime log record reached the client: {leaked:?}");
}

#[tokio::test]
async fn rust_log_filters_plugin_records_by_their_target() {
    let setup = Setup::new(&["sample"], &[], json!({ "Host": { "LogLevel": "info,plugin::sample=warn" } }));
    let output = setup.run(&["plugins"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("greeter ready"), "plugin::sample=warn hides its info records: {stderr}");
    let setup = Setup::new(&["sample"], &[], json!({}));
    let output = setup.run(&["plugins"]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("greeter ready"));
}

#[tokio::test]
async fn invalid_arguments_are_rejected_before_the_plugin_runs() {
    let setup = Setup::new(&["sample"], &[], json!({}));
    let client = setup.stdio().await;
    let result = client.call("countdown", json!({ "steps": "many" })).await;
    assert_eq!(result["isError"], true);
    // One wording for the host and typed plugins: the parameter first, then the reason.
    let text = text_of(&result);
    assert!(text.starts_with("Invalid argument 'steps': ") && text.contains("integer"), "{text}");
    let missing = client.call("echo", json!({})).await;
    assert_eq!(missing["isError"], true);
    assert_eq!(text_of(&missing), "Invalid argument 'text': is required but missing");
    let extra = client.call("echo", json!({ "text": "x", "other": 1 })).await;
    assert_eq!(extra["isError"], true);
    assert_eq!(text_of(&extra), "Invalid argument 'other': is not a parameter of this tool");
}

#[tokio::test]
async fn an_unknown_tool_is_a_protocol_error() {
    let setup = Setup::new(&["sample"], &[], json!({}));
    let client = setup.stdio().await;
    let answer = client.request("tools/call", json!({ "name": "no_such_tool", "arguments": {} })).await;
    assert_eq!(answer["error"]["code"], -32602);
    assert!(answer["error"]["message"].as_str().unwrap().contains("no_such_tool"));
}

#[tokio::test]
async fn malformed_json_rpc_gets_an_answer_and_does_not_take_the_host_down() {
    let setup = Setup::new(&["sample"], &[], json!({}));
    let mut client = setup.stdio().await;
    // Not JSON: -32700 with a null id (JSON-RPC 2.0, section 5.1).
    client.send_line("{ this is not json").await;
    let parse_error = |notes: &[Value]| notes.iter().any(|note| note["error"]["code"] == -32700);
    assert!(client.wait_for_notifications(Duration::from_secs(30), parse_error).await, "no -32700 answer");
    let answer = client.notifications().into_iter().find(|note| note["error"]["code"] == -32700).unwrap();
    assert_eq!(answer["id"], Value::Null, "{answer}");
    assert!(answer.as_object().unwrap().contains_key("id"), "the id must be present as null: {answer}");
    // JSON, but not a valid request: -32600 with the request's id.
    let answer = client.request_raw(99, r#"{"jsonrpc":"2.0","id":99,"method":"tools/call","params":"oops"}"#).await;
    assert_eq!(answer["error"]["code"], -32600, "{answer}");
    // A malformed notification is not answered (JSON-RPC never answers notifications).
    client.send_line(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":"oops"}"#).await;
    let result = client.call("echo", json!({ "text": "still here" })).await;
    assert_eq!(text_of(&result), "still here");
    let errors_without_id = client.notifications().iter().filter(|note| note.get("error").is_some()).count();
    assert_eq!(errors_without_id, 1, "{:?}", client.notifications());
    assert!(client.not_json().is_empty(), "{:?}", client.not_json());
    assert!(client.is_running());
}

#[tokio::test]
async fn a_message_over_the_size_limit_is_answered_with_its_id() {
    let setup = Setup::new(&["sample"], &[], json!({ "Host": { "MaxMessageBytes": 4096 } }));
    let mut client = setup.stdio().await;
    let text = "x".repeat(10_000);
    let line = json!({ "jsonrpc": "2.0", "id": 41, "method": "tools/call",
                       "params": { "name": "echo", "arguments": { "id": 5, "text": text } } });
    let answer = client.request_raw(41, &line.to_string()).await;
    assert_eq!(answer["error"]["code"], -32600, "{answer}");
    let message = answer["error"]["message"].as_str().unwrap();
    assert!(message.contains("4096") && message.contains("Host.MaxMessageBytes"), "{message}");
    // A message under the limit still works, and the host lives on.
    let result = client.call("echo", json!({ "text": "small" })).await;
    assert_eq!(text_of(&result), "small");
    assert!(client.is_running());
}

#[tokio::test]
async fn nothing_a_plugin_prints_reaches_the_protocol_stream() {
    // `noisy` prints while it is created and in every call: a partial line, a flood, lines from
    // other threads, raw bytes on descriptor 1. All of it must land in the log, none on stdout.
    let setup = Setup::new(&["sample"], &["noisy"], json!({ "Plugins": { "LazyLoading": false } }));
    let client = setup.stdio().await;
    let printing = [
        ("noisy_partial", json!({})),
        ("noisy_flood", json!({})),
        ("noisy_thread", json!({ "threads": 4 })),
        ("noisy_raw", json!({})),
        ("noisy_stderr", json!({})),
        ("noisy_partial", json!({})),
    ];
    for (tool, arguments) in printing {
        assert_eq!(text_of(&client.call(tool, arguments).await), "ok", "{tool}");
        // The answer after the print arrives whole: nothing was glued to it.
        assert_eq!(text_of(&client.call("echo", json!({ "text": "after" })).await), "after", "after {tool}");
    }
    assert!(client.not_json().is_empty(), "stdout carried non-JSON: {:?}", client.not_json());
    let logged = client
        .wait_for_stderr(Duration::from_secs(30), |stderr| {
            ["noisy: created", "partial", "noisy: flood line 999", "thread 3 line 99 (two writes)", "noisy: raw bytes"]
                .iter()
                .all(|printed| stderr.contains(printed))
        })
        .await;
    assert!(logged, "what the plugin printed is not in the log:\n{}", client.stderr());
    // The commands that load plugins print their report on the same private stdout.
    let plugins = setup.plugins_json();
    assert!(plugins["plugins"].as_array().unwrap().iter().any(|report| report["plugin"] == "noisy"), "{plugins}");
}

#[tokio::test]
async fn progress_tokens_of_both_kinds_become_notifications() {
    let setup = Setup::new(&["sample"], &[], json!({}));
    let client = setup.stdio().await;
    for token in [json!("tok-1"), json!(42)] {
        let answer = client
            .request(
                "tools/call",
                json!({ "name": "countdown", "arguments": { "steps": 3, "intervalMs": 5 }, "_meta": { "progressToken": token } }),
            )
            .await;
        assert_eq!(answer["result"]["structuredContent"]["completed"], 3);
        // Notifications are flushed before the response is written.
        let progress: Vec<f64> = client
            .notifications()
            .iter()
            .filter(|note| note["method"] == "notifications/progress" && note["params"]["progressToken"] == token)
            .map(|note| note["params"]["progress"].as_f64().unwrap())
            .collect();
        assert_eq!(progress, vec![1.0, 2.0, 3.0], "token {token}");
    }
}

#[tokio::test]
async fn cancellation_reaches_the_plugin_and_the_host_keeps_serving() {
    let setup = Setup::new(&["sample"], &[], json!({}));
    let client = setup.stdio().await;
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
                .any(|note| note["method"] == "notifications/progress"))
            .await
    );
    client.notify("notifications/cancelled", json!({ "requestId": id, "reason": "test" })).await;
    // A cancelled request gets no response (MCP); the server stays usable.
    assert!(tokio::time::timeout(Duration::from_secs(1), response).await.is_err(), "a cancelled call was answered");
    let started = Instant::now();
    let result = client.call("echo", json!({ "text": "after cancel" })).await;
    assert_eq!(text_of(&result), "after cancel");
    // Well before the cancelled countdown would have ended (50 s), with room for a loaded machine.
    assert!(started.elapsed() < Duration::from_secs(20));
    let count_after_cancel = client.notifications().len();
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(client.notifications().len(), count_after_cancel, "progress stopped after the cancel");
    assert!(client.stderr().contains("call finished outcome=cancelled"), "{}", client.stderr());
}

#[tokio::test]
async fn a_slow_call_does_not_block_ping_or_other_calls() {
    let setup = Setup::new(&["sample"], &["slow"], json!({}));
    let client = setup.stdio().await;
    // Far longer than the requests below take, even on a loaded machine.
    let (_, mut slow) =
        client.start("tools/call", json!({ "name": "sleep_ignoring_cancel", "arguments": { "ms": 120_000 } })).await;
    let pong = client.request("ping", json!({})).await;
    assert_eq!(pong["result"], json!({}));
    let echoes =
        futures::future::join_all((0..8).map(|n| client.call("echo", json!({ "text": format!("n{n}") })))).await;
    for (n, result) in echoes.iter().enumerate() {
        assert_eq!(text_of(result), format!("n{n}"));
    }
    // All answered while the slow call still runs.
    assert!(slow.try_recv().is_err(), "the slow call ended first");
}

#[tokio::test]
async fn a_timeout_ends_the_call_with_a_clear_error_and_kills_its_child() {
    let setup = Setup::new(
        &[],
        &["slow"],
        json!({ "Host": { "ToolTimeouts": { "sleep_ignoring_cancel": 0.5, "spawn_sleep": 0.5 }, "CancelGraceMs": 200 } }),
    );
    let client = setup.stdio().await;
    let started = Instant::now();
    let result = client.call("sleep_ignoring_cancel", json!({ "ms": 60_000 })).await;
    assert_eq!(result["isError"], true);
    assert!(text_of(&result).contains("timed out after 0.5 s"), "{}", text_of(&result));
    // Well before the call would have ended by itself, with room for a loaded machine.
    assert!(started.elapsed() < Duration::from_secs(30));

    let pid_file = setup.dir.path().join("child.pid");
    let result = client.call("spawn_sleep", json!({ "pidFile": pid_file })).await;
    assert_eq!(result["isError"], true);
    let pid: u32 = std::fs::read_to_string(&pid_file).unwrap().trim().parse().unwrap();
    assert!(common::wait_dead(pid).await, "the plugin's child process {pid} was killed with the call");
}

#[tokio::test]
async fn panics_cost_one_call_not_the_server() {
    let setup = Setup::new(&["sample"], &["panicky"], json!({}));
    let mut client = setup.stdio().await;
    for tool in ["panic_in_call", "panic_in_poll"] {
        let result = client.call(tool, json!({})).await;
        assert_eq!(result["isError"], true, "{tool}");
        assert!(text_of(&result).contains("panicked"), "{tool}: {}", text_of(&result));
    }
    assert_eq!(text_of(&client.call("still_works", json!({})).await), "ok");
    assert_eq!(text_of(&client.call("echo", json!({ "text": "fine" })).await), "fine");
    assert!(client.is_running());
    assert!(client.not_json().is_empty(), "a panic wrote to stdout: {:?}", client.not_json());
}

#[tokio::test]
async fn broken_plugins_are_refused_one_line_each_and_the_rest_serve() {
    let setup = Setup::new(
        &["sample"],
        &["wrong_abi", "wrong_layout", "failing_ctor", "panicking_ctor", "duplicate", "bad_name"],
        json!({}),
    );
    let client = setup.stdio().await;
    let list = client.request("tools/list", json!({})).await;
    let mut names = tool_names(&list);
    names.sort();
    assert_eq!(names, ["bad_name_ok", "countdown", "duplicate_unique", "echo", "greet"]);
    // Libraries load in sorted file order, so libduplicate's `echo` came first.
    assert_eq!(text_of(&client.call("echo", json!({ "text": "x" })).await), "duplicate echo");
    let stderr = client.stderr();
    let refused: Vec<&str> = stderr.lines().filter(|line| line.contains("ERROR") && line.contains("refused")).collect();
    let expect = [
        ("libwrong_abi", "incompatible ABI: built against mcp-plugin-api 2.0.0, this host speaks 1.0.0"),
        ("libwrong_layout", "its types do not match this host's mcp-plugin-api 1.0.0"),
        ("libfailing_ctor", "missing required setting ApiKey"),
        ("libpanicking_ctor", "panicked"),
        ("libsample", "tool 'echo' of plugin 'sample' is refused: plugin 'duplicate' already provides"),
        (
            "libbad_name",
            "tool 'has space/slash' of plugin 'bad_name' is refused, because MCP clients would reject it: field `name`",
        ),
    ];
    for (file, message) in expect {
        let lines: Vec<_> = refused.iter().filter(|line| line.contains(file)).collect();
        assert_eq!(lines.len(), 1, "one line for {file} in:\n{stderr}");
        assert!(lines[0].contains(message), "{file}: {}", lines[0]);
    }
}

#[tokio::test]
async fn descriptors_a_client_would_reject_are_refused_one_line_each_and_the_rest_serve() {
    let setup = Setup::new(&["sample"], &["bad_descriptor"], json!({}));
    // `check` says what is wrong, item by item, and fails.
    let output = setup.run(&["check"]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    let refused: Vec<&str> = stderr.lines().filter(|line| line.contains("ERROR") && line.contains("refused")).collect();
    let expect = [
        ("tool 'bad_descriptor_any_of'", "field `outputSchema.type`: is required and must be \"object\""),
        ("tool 'bad_descriptor_boolean_property'", "field `inputSchema.properties.anything`"),
        ("prompt 'bad_descriptor_prompt'", "field `arguments[1].name`: the argument \"arg\" is declared twice"),
        ("resource \"not a uri\"", "field `uri`"),
    ];
    assert_eq!(refused.len(), expect.len(), "{stderr}");
    for (item, field) in expect {
        let lines: Vec<_> = refused.iter().filter(|line| line.contains(item)).collect();
        assert_eq!(lines.len(), 1, "one line for {item} in:\n{stderr}");
        assert!(
            lines[0].contains("refused libbad_descriptor.so:") && lines[0].contains("of plugin 'bad_descriptor'"),
            "the line names the library and the plugin: {}",
            lines[0]
        );
        assert!(lines[0].contains(field), "{item}: {}", lines[0]);
    }
    // `plugins --json` shows the reasons; the valid items are served.
    let output = setup.run(&["plugins", "--json"]);
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let plugin =
        report["plugins"].as_array().unwrap().iter().find(|p| p["plugin"] == "bad_descriptor").unwrap().clone();
    assert_eq!(plugin["status"], "loaded");
    assert_eq!(plugin["tools"], json!(["bad_descriptor_ok"]));
    assert_eq!(plugin["prompts"], json!(["bad_descriptor_good_prompt"]));
    assert_eq!(plugin["resources"], json!(["fixture://good"]));
    assert_eq!(plugin["problems"].as_array().unwrap().len(), 4, "{plugin}");
    // Over MCP, only what every client accepts is listed.
    let client = setup.stdio().await;
    let mut names = tool_names(&client.request("tools/list", json!({})).await);
    names.sort();
    assert_eq!(names, ["bad_descriptor_ok", "countdown", "echo", "greet"]);
    assert_eq!(text_of(&client.call("bad_descriptor_ok", json!({})).await), "ok");
}

#[tokio::test]
async fn structured_content_that_breaks_the_output_schema_never_reaches_a_client() {
    let setup = Setup::new(&[], &["bad_descriptor"], json!({}));
    let client = setup.stdio().await;
    let good = client.call("bad_descriptor_ok", json!({ "answer": "good" })).await;
    assert_eq!(good["structuredContent"], json!({ "ok": true }));
    // A success that breaks the schema becomes an error naming the plugin.
    let bad = client.call("bad_descriptor_ok", json!({ "answer": "bad-success" })).await;
    assert_eq!(bad["isError"], true);
    assert!(bad.get("structuredContent").is_none(), "{bad}");
    assert!(text_of(&bad).contains("does not match its outputSchema") && text_of(&bad).contains("'bad_descriptor'"));
    // An error keeps its text and loses the data that does not fit (the TypeScript client checks errors too).
    let bad = client.call("bad_descriptor_ok", json!({ "answer": "bad-error" })).await;
    assert_eq!(bad["isError"], true);
    assert_eq!(text_of(&bad), "it failed");
    assert!(bad.get("structuredContent").is_none(), "{bad}");
}

#[tokio::test]
async fn disabled_and_not_enabled_plugins_are_not_served() {
    let setup = Setup::new(&["sample", "conformance"], &[], json!({ "Plugins": { "Disabled": ["conformance"] } }));
    let client = setup.stdio().await;
    assert_eq!(tool_names(&client.request("tools/list", json!({})).await), ["echo", "countdown", "greet"]);
    let setup = Setup::new(&["sample", "conformance"], &[], json!({ "Plugins": { "Enabled": ["conformance"] } }));
    let client = setup.stdio().await;
    let names = tool_names(&client.request("tools/list", json!({})).await);
    assert!(names.iter().all(|name| name.starts_with("test_")), "{names:?}");
}

#[tokio::test]
async fn plugins_command_prints_a_table_and_json() {
    let setup = Setup::new(&["sample"], &["wrong_abi"], json!({}));
    let output = setup.run(&["plugins"]);
    assert!(output.status.success());
    let table = String::from_utf8_lossy(&output.stdout);
    assert!(table.starts_with("FILE"), "{table}");
    assert!(table.contains("libsample.so") && table.contains("echo, countdown, greet"), "{table}");
    assert!(table.contains("incompatible (2.0.0)"), "{table}");
    let output = setup.run(&["plugins", "--json"]);
    let document: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(document["hostAbiVersion"], "1.0.0");
    let plugins = document["plugins"].as_array().unwrap();
    let sample = plugins.iter().find(|plugin| plugin["plugin"] == "sample").unwrap();
    assert_eq!(sample["status"], "loaded");
    assert_eq!(sample["tools"], json!(["echo", "countdown", "greet"]));
}

#[tokio::test]
async fn check_fails_on_any_problem_and_passes_when_clean() {
    let clean = Setup::new(&["sample"], &[], json!({}));
    let output = clean.run(&["check"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let broken = Setup::new(&["sample"], &["failing_ctor"], json!({}));
    let output = broken.run(&["check"]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("missing required setting ApiKey"), "{stderr}");
    // The problem list is printed once (the loading log names each refusal once more, as it happens).
    assert_eq!(stderr.matches("problem(s):").count(), 1, "{stderr}");
}

#[tokio::test]
async fn a_bad_config_is_a_clear_error_and_a_nonzero_exit() {
    let setup = Setup::new(&["sample"], &[], json!({}));
    std::fs::write(setup.config(), "{ \"Host\": { \"LogLevel\": ").unwrap();
    let output = setup.run(&["check"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains(&setup.config().display().to_string()) && stderr.contains("invalid"), "{stderr}");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_mcp-plugin-host"))
        .args(["--config", "/nonexistent/appsettings.json"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("/nonexistent/appsettings.json does not exist"));
}

#[tokio::test]
async fn environment_variables_override_the_file() {
    let setup = Setup::new(&["sample"], &[], json!({}));
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_mcp-plugin-host"))
        .arg("--config")
        .arg(setup.config())
        .args(["plugins", "--json"])
        .env("MCP_PLUGIN_HOST__PLUGINS__DISABLED", "sample")
        .output()
        .unwrap();
    let document: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(document["plugins"][0]["status"], "disabled");
}

#[tokio::test]
async fn closing_stdin_shuts_the_host_down_cleanly() {
    let setup = Setup::new(&["sample"], &[], json!({}));
    let client = setup.stdio().await;
    let (_, _pending) = client
        .start("tools/call", json!({ "name": "countdown", "arguments": { "steps": 1000, "intervalMs": 100 } }))
        .await;
    let status = client.close().await;
    assert!(status.success(), "{status:?}");
}

#[tokio::test]
async fn a_terminated_host_stops_its_calls_and_leaves_no_process_behind() {
    // The plugin drops the call on its own thread, a second after the host let go of it.
    common::a_terminated_host_leaves_no_process_behind(json!({ "Host": { "CancelGraceMs": 200 } }), 1000).await;
}
