//! End-to-end tests of what the real host binary tells operators: the quiet
//! default log with one line per call, JSON logs and the log file,
//! `/metrics`, `/healthz` and `/readyz` behind the HTTP transport's guards,
//! and the OTLP export to a collector started here, on loopback.

mod common;

use std::{
    sync::{Arc, Mutex},
    time::Duration,
};

use axum::{
    Router,
    body::Bytes,
    extract::Path,
    http::{HeaderMap, StatusCode, header},
    routing::post,
};
use common::{Setup, text_of};
use serde_json::{Value, json};

/// A host serving streamable HTTP, and a raw client of its routes.
struct HttpHost {
    _child: tokio::process::Child,
    base: String,
    http: reqwest::Client,
    token: Option<&'static str>,
    session: Option<String>,
}

impl HttpHost {
    async fn start(setup: &Setup, token: Option<&'static str>) -> Self {
        let (child, url, _log) = common::spawn_http(&setup.config(), &[]).await;
        let base = url.trim_end_matches("/mcp").to_owned();
        Self { _child: child, base, http: reqwest::Client::new(), token, session: None }
    }

    /// GETs `path` with the token (when the host has one) and `headers`.
    async fn get(&self, path: &str, headers: &[(&str, &str)]) -> (u16, String) {
        let mut request = self.http.get(format!("{}{path}", self.base));
        if let Some(token) = self.token {
            request = request.bearer_auth(token);
        }
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let response = request.send().await.unwrap();
        (response.status().as_u16(), response.text().await.unwrap())
    }

    /// POSTs one JSON-RPC message to `/mcp`; returns the answer to it, if any.
    async fn rpc(&mut self, message: Value) -> Option<Value> {
        let mut request = self
            .http
            .post(format!("{}/mcp", self.base))
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body(message.to_string());
        if let Some(token) = self.token {
            request = request.bearer_auth(token);
        }
        if let Some(session) = &self.session {
            request = request.header("mcp-session-id", session).header("mcp-protocol-version", "2025-06-18");
        }
        let response = request.send().await.unwrap();
        if let Some(session) = response.headers().get("mcp-session-id") {
            self.session = Some(session.to_str().unwrap().to_owned());
        }
        let text = response.text().await.unwrap();
        let mut messages = text.lines().filter_map(|line| line.strip_prefix("data:")).chain([text.as_str()]);
        messages.find_map(|data| {
            serde_json::from_str::<Value>(data.trim()).ok().filter(|answer| answer["id"] == message["id"])
        })
    }

    async fn initialize(&mut self) {
        let answer = self
            .rpc(json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": { "name": "e2e-telemetry", "version": "1" } } }))
            .await;
        assert!(answer.is_some_and(|answer| answer.get("result").is_some()), "initialize failed");
        self.rpc(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" })).await;
    }

    async fn call(&mut self, id: u64, tool: &str, arguments: Value) -> Value {
        let answer = self
            .rpc(json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call",
                         "params": { "name": tool, "arguments": arguments } }))
            .await
            .expect("an answer");
        answer["result"].clone()
    }
}

/// The value of the sample whose name and labels match, from Prometheus text.
fn sample(text: &str, name: &str, labels: &[&str]) -> Option<f64> {
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .filter(|line| line.split(['{', ' ']).next() == Some(name))
        .find(|line| labels.iter().all(|label| line.contains(label)))
        .and_then(|line| line.rsplit(' ').next()?.parse().ok())
}

#[tokio::test]
async fn metrics_count_calls_and_errors_behind_the_guards_of_mcp() {
    let setup = Setup::new(&["sample"], &[], json!({ "Http": { "BearerToken": "s3cret" } }));
    let mut host = HttpHost::start(&setup, None).await;
    for path in ["/metrics", "/healthz", "/readyz"] {
        assert_eq!(host.get(path, &[]).await.0, 401, "{path} needs the token");
    }
    host.token = Some("s3cret");
    for path in ["/metrics", "/healthz", "/readyz"] {
        assert_eq!(host.get(path, &[("host", "evil.example.com")]).await.0, 403, "{path} refuses a foreign Host");
    }
    let (status, body) = host.get("/healthz", &[]).await;
    assert_eq!((status, body.as_str()), (200, r#"{"status":"ok"}"#));

    host.initialize().await;
    assert_eq!(text_of(&host.call(1, "echo", json!({ "text": "counted" })).await), "counted");
    let refused = host.call(2, "echo", json!({})).await;
    assert_eq!(refused["isError"], true, "{refused}");

    let (status, text) = host.get("/metrics", &[]).await;
    assert_eq!(status, 200, "{text}");
    let echo = ["gen_ai_tool_name=\"echo\"", "mcp_plugin_host_plugin_name=\"sample\"", "network_transport=\"tcp\""];
    let count = "mcp_server_operation_duration_seconds_count";
    let failed = [&echo[..], &["error_type=\"tool_error\""]].concat();
    assert_eq!(sample(&text, count, &failed), Some(1.0), "one failed call:\n{text}");
    let all: f64 = text
        .lines()
        .filter(|line| line.starts_with(count) && echo.iter().all(|label| line.contains(label)))
        .map(|line| line.rsplit(' ').next().unwrap().parse::<f64>().unwrap())
        .sum();
    assert_eq!(all, 2.0, "two calls of echo, one without error.type:\n{text}");
    assert!(text.contains("mcp_server_operation_duration_seconds_bucket{"), "a histogram:\n{text}");
    let loaded = ["mcp_plugin_host_plugin_name=\"sample\"", "mcp_plugin_host_plugin_outcome=\"loaded\""];
    assert_eq!(sample(&text, "mcp_plugin_host_plugin_loads_total", &loaded), Some(1.0), "{text}");
    assert_eq!(sample(&text, "mcp_plugin_host_sessions_active", &["network_transport=\"tcp\""]), Some(1.0), "{text}");
}

#[tokio::test]
async fn prompts_reads_and_completions_are_counted_per_item_and_outcome() {
    let setup = Setup::new(&[], &["faulty"], json!({}));
    let mut host = HttpHost::start(&setup, None).await;
    host.initialize().await;
    let ask = |id: u64, method: &str, params: Value| json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
    let prompt = |mode: &str| json!({ "name": "faulty_prompt", "arguments": { "mode": mode } });
    host.rpc(ask(1, "prompts/get", prompt("ok"))).await.expect("an answer");
    host.rpc(ask(2, "prompts/get", prompt("invalid"))).await.expect("an answer");
    host.rpc(ask(3, "resources/read", json!({ "uri": "faulty://ok" }))).await.expect("an answer");
    host.rpc(ask(4, "resources/read", json!({ "uri": "faulty://fail" }))).await.expect("an answer");
    let completion = json!({ "ref": { "type": "ref/prompt", "name": "faulty_prompt" }, "argument": { "name": "mode", "value": "o" } });
    host.rpc(ask(5, "completion/complete", completion)).await.expect("an answer");

    let (_, text) = host.get("/metrics", &[]).await;
    let count = "mcp_server_operation_duration_seconds_count";
    let prompt = [
        "mcp_method_name=\"prompts/get\"",
        "gen_ai_prompt_name=\"faulty_prompt\"",
        "mcp_plugin_host_plugin_name=\"faulty\"",
    ];
    assert_eq!(sample(&text, count, &[&prompt[..], &["error_type=\"invalid_params\""]].concat()), Some(1.0), "{text}");
    // The URI series is the resource's template: a client's URIs make no new series.
    let read = ["mcp_method_name=\"resources/read\"", "mcp_resource_uri=\"faulty://{mode}\""];
    assert_eq!(sample(&text, count, &[&read[..], &["error_type=\"plugin_error\""]].concat()), Some(1.0), "{text}");
    let all_reads: f64 = text
        .lines()
        .filter(|line| line.starts_with(count) && read.iter().all(|label| line.contains(label)))
        .map(|line| line.rsplit(' ').next().unwrap().parse::<f64>().unwrap())
        .sum();
    assert_eq!(all_reads, 2.0, "{text}");
    let completion = ["mcp_method_name=\"completion/complete\"", "gen_ai_prompt_name=\"faulty_prompt\""];
    assert_eq!(sample(&text, count, &completion), Some(1.0), "{text}");
}

#[tokio::test]
async fn readyz_is_ready_when_every_enabled_plugin_serves_and_says_why_not() {
    let ready = Setup::new(&["sample"], &["failing_ctor"], json!({ "Plugins": { "Disabled": ["failing_ctor"] } }));
    let host = HttpHost::start(&ready, None).await;
    let (status, body) = host.get("/readyz", &[]).await;
    assert_eq!(status, 200, "a disabled plugin does not count: {body}");
    let body: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(body["status"], "ready");

    let refused = Setup::new(&["sample"], &["failing_ctor"], json!({}));
    let host = HttpHost::start(&refused, None).await;
    let (status, body) = host.get("/readyz", &[]).await;
    assert_eq!(status, 503, "{body}");
    let body: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(body["status"], "unready");
    let reasons = body["reasons"].to_string();
    assert!(reasons.contains("failing_ctor") && reasons.contains("missing required setting ApiKey"), "{reasons}");
    let (status, _) = host.get("/healthz", &[]).await;
    assert_eq!(status, 200, "an unready host is alive");
    let (_, metrics) = host.get("/metrics", &[]).await;
    let refusal = ["mcp_plugin_host_plugin_outcome=\"refused\"", "mcp_plugin_host_plugin_library=\"libfailing_ctor"];
    assert_eq!(sample(&metrics, "mcp_plugin_host_plugin_loads_total", &refusal), Some(1.0), "{metrics}");
}

#[tokio::test]
async fn the_default_log_is_quiet_with_one_line_a_call_and_libraries_are_one_filter_away() {
    let setup = Setup::new(&["sample"], &[], json!({}));
    let client = setup.stdio().await;
    client.call("echo", json!({ "text": "logged" })).await;
    client.call("echo", json!({})).await;
    assert!(client.wait_for_stderr(Duration::from_secs(30), |log| log.matches("call finished").count() == 2).await);
    let log = client.stderr();
    assert!(!log.contains("rmcp"), "no rmcp line at the default level:\n{log}");
    let calls: Vec<&str> = log.lines().filter(|line| line.contains("call finished")).collect();
    assert!(calls.iter().all(|line| line.contains(" INFO call{tool=echo plugin=sample request_id=")), "{calls:#?}");
    assert!(calls[0].contains("outcome=ok duration_ms="), "{}", calls[0]);
    assert!(calls[1].contains("outcome=tool_error duration_ms="), "{}", calls[1]);

    let setup = Setup::new(&["sample"], &[], json!({ "Host": { "LogLevel": "info,rmcp=info" } }));
    let client = setup.stdio().await;
    client.call("echo", json!({ "text": "logged" })).await;
    assert!(
        client.wait_for_stderr(Duration::from_secs(30), |log| log.contains(" rmcp::")).await,
        "naming rmcp brings its lines back:\n{}",
        client.stderr()
    );
}

#[tokio::test]
async fn json_logs_carry_the_call_and_the_log_file_gets_every_record() {
    let setup = Setup::new(&["sample"], &[], json!({ "Host": { "LogFormat": "json", "LogFile": "logs/host.log" } }));
    let client = setup.stdio().await;
    let answer = client.request("tools/call", json!({ "name": "echo", "arguments": { "text": "as json" } })).await;
    assert_eq!(text_of(&answer["result"]), "as json");
    assert!(client.wait_for_stderr(Duration::from_secs(30), |log| log.contains("call finished")).await);
    let log = client.stderr();
    let records: Vec<Value> = log
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|error| panic!("not JSON ({error}): {line}")))
        .collect();
    let call = records.iter().find(|record| record["message"] == "call finished").expect("the call's line");
    assert_eq!(call["level"], "INFO");
    assert_eq!(call["outcome"], "ok");
    assert!(call["duration_ms"].as_f64().is_some(), "{call}");
    assert_eq!(call["span"]["tool"], "echo", "{call}");
    assert_eq!(call["span"]["plugin"], "sample", "{call}");
    assert_eq!(call["span"]["request_id"], answer["id"].to_string(), "{call}");
    let plugin = records.iter().find(|record| record["target"] == "plugin::sample");
    assert!(plugin.is_some_and(|record| record["message"] == "greeter ready with greeting 'Hello'"), "{log}");

    // Both receive each record in one write: the file holds the same lines (one may be ahead).
    let written = std::fs::read_to_string(setup.dir.path().join("logs/host.log")).unwrap();
    let shared = written.lines().count().min(log.lines().count());
    assert!(written.contains("\"message\":\"call finished\""), "{written}");
    assert!(written.lines().take(shared).eq(log.lines().take(shared)), "file:\n{written}\nstderr:\n{log}");
}

/// An OTLP/HTTP receiver on loopback that keeps every request it gets.
struct Collector {
    url: String,
    received: Arc<Mutex<Vec<Export>>>,
}

#[derive(Clone, Debug)]
struct Export {
    signal: String,
    content_type: String,
    body: Vec<u8>,
}

impl Collector {
    async fn start() -> Self {
        let received: Arc<Mutex<Vec<Export>>> = Arc::default();
        let store = Arc::clone(&received);
        let app = Router::new().route(
            "/v1/{signal}",
            post(move |Path(signal): Path<String>, headers: HeaderMap, body: Bytes| async move {
                let content_type =
                    headers.get(header::CONTENT_TYPE).and_then(|value| value.to_str().ok()).unwrap_or("").to_owned();
                store.lock().unwrap().push(Export { signal, content_type: content_type.clone(), body: body.to_vec() });
                // An empty export response: `{}` in JSON, no bytes in protobuf.
                let answer = if content_type.contains("json") { "{}" } else { "" };
                (StatusCode::OK, [(header::CONTENT_TYPE, content_type)], answer)
            }),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        Self { url, received }
    }

    fn exports(&self, signal: &str) -> Vec<Export> {
        self.received.lock().unwrap().iter().filter(|export| export.signal == signal).cloned().collect()
    }

    /// Waits (at most 60 s) until `found` finds something in the JSON exports of `signal`.
    async fn wait_for<T>(&self, signal: &str, found: impl Fn(&[Value]) -> Option<T>) -> T {
        for _ in 0..600 {
            let bodies: Vec<Value> =
                self.exports(signal).iter().filter_map(|export| serde_json::from_slice(&export.body).ok()).collect();
            if let Some(value) = found(&bodies) {
                return value;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("the collector did not get what was expected on /v1/{signal}: {:?}", self.exports(signal));
    }
}

/// Every item under `path` (arrays at each step) in the OTLP JSON bodies.
fn items<'a>(bodies: &'a [Value], path: &[&str]) -> Vec<&'a Value> {
    let mut level: Vec<&Value> = bodies.iter().collect();
    for key in path {
        level = level.iter().filter_map(|value| value[*key].as_array()).flatten().collect();
    }
    level
}

/// An OTLP attribute's value, as text.
fn attribute(item: &Value, key: &str) -> Option<String> {
    let value = &item["attributes"].as_array()?.iter().find(|attribute| attribute["key"] == key)?["value"];
    let value = value.get("stringValue").or_else(|| value.get("intValue"))?;
    Some(value.as_str().map(str::to_owned).unwrap_or_else(|| value.to_string()))
}

#[tokio::test]
async fn spans_and_metrics_reach_an_otlp_collector() {
    let collector = Collector::start().await;
    let setup = Setup::new(
        &["sample"],
        &[],
        json!({ "Telemetry": { "OtlpEndpoint": collector.url, "OtlpProtocol": "http/json", "ExportIntervalSeconds": 0.2 } }),
    );
    let client = setup.stdio().await;
    let traced = json!({ "name": "echo", "arguments": { "text": "traced" },
                         "_meta": { "traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" } });
    let answer = client.request("tools/call", traced).await;
    assert_eq!(text_of(&answer["result"]), "traced");
    client.call("echo", json!({})).await;

    let spans = collector
        .wait_for("traces", |bodies| {
            let spans: Vec<Value> = items(bodies, &["resourceSpans", "scopeSpans", "spans"])
                .into_iter()
                .filter(|span| span["name"] == "tools/call echo")
                .cloned()
                .collect();
            (spans.len() == 2).then_some(spans)
        })
        .await;
    let traced = spans
        .iter()
        .find(|span| span["traceId"] == "4bf92f3577b34da6a3ce929d0e0e4736")
        .expect("a child of the client's trace");
    assert_eq!(traced["parentSpanId"], "00f067aa0ba902b7");
    assert!(traced["kind"] == 2 || traced["kind"] == "SPAN_KIND_SERVER", "a server span: {traced}");
    for (key, value) in [
        ("mcp.method.name", "tools/call"),
        ("gen_ai.tool.name", "echo"),
        ("gen_ai.operation.name", "execute_tool"),
        ("mcp_plugin_host.plugin.name", "sample"),
        ("network.transport", "pipe"),
        ("mcp.protocol.version", "2025-06-18"),
    ] {
        assert_eq!(attribute(traced, key).as_deref(), Some(value), "{key} of {traced}");
    }
    assert!(attribute(traced, "jsonrpc.request.id").is_some(), "{traced}");
    assert_eq!(attribute(traced, "error.type"), None);
    let failed = spans.iter().find(|span| span["traceId"] != traced["traceId"]).unwrap();
    assert_eq!(attribute(failed, "error.type").as_deref(), Some("tool_error"), "{failed}");
    assert!(failed["status"]["code"] == 2 || failed["status"]["code"] == "STATUS_CODE_ERROR", "{failed}");

    let points = collector
        .wait_for("metrics", |bodies| {
            let metrics = items(bodies, &["resourceMetrics", "scopeMetrics", "metrics"]);
            let duration = metrics.iter().rev().find(|metric| metric["name"] == "mcp.server.operation.duration")?;
            assert_eq!(duration["unit"], "s");
            let points = duration["histogram"]["dataPoints"].as_array()?.clone();
            (points.len() == 2).then_some(points)
        })
        .await;
    for point in &points {
        assert_eq!(attribute(point, "gen_ai.tool.name").as_deref(), Some("echo"), "{point}");
        let count = &point["count"];
        assert!(count == 1 || count == "1", "one call each: {point}");
    }
    assert!(points.iter().any(|point| attribute(point, "error.type").as_deref() == Some("tool_error")));
    let stderr = client.stderr();
    assert!(!stderr.contains("could not be exported"), "{stderr}");
}

#[tokio::test]
async fn shutdown_flushes_protobuf_exports_and_a_collector_that_is_down_costs_one_warning() {
    let collector = Collector::start().await;
    // The default protocol and interval: nothing is sent before the host stops, and all of it then.
    let setup = Setup::new(&["sample"], &[], json!({ "Telemetry": { "OtlpEndpoint": collector.url } }));
    let client = setup.stdio().await;
    assert_eq!(text_of(&client.call("echo", json!({ "text": "flushed" })).await), "flushed");
    assert!(client.close().await.success());
    let contains = |body: &[u8], text: &str| body.windows(text.len()).any(|window| window == text.as_bytes());
    let spans = collector.exports("traces");
    assert!(spans.iter().all(|export| export.content_type == "application/x-protobuf"), "{spans:?}");
    assert!(spans.iter().any(|export| contains(&export.body, "tools/call echo")), "{spans:?}");
    let metrics = collector.exports("metrics");
    assert!(metrics.iter().any(|export| contains(&export.body, "mcp.server.operation.duration")), "{metrics:?}");

    let closed = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let nobody = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let setup =
        Setup::new(&["sample"], &[], json!({ "Telemetry": { "OtlpEndpoint": nobody, "ExportIntervalSeconds": 0.1 } }));
    let client = setup.stdio().await;
    for n in 0..5 {
        let text = format!("call {n}");
        assert_eq!(text_of(&client.call("echo", json!({ "text": text })).await), text);
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
    let warned = |log: &str| log.matches("could not be exported to the OTLP collector").count();
    assert!(client.wait_for_stderr(Duration::from_secs(30), |log| warned(log) >= 1).await, "{}", client.stderr());
    tokio::time::sleep(Duration::from_millis(500)).await;
    let log = client.stderr();
    assert_eq!(warned(&log), 1, "one warning for many failed exports:\n{log}");
    assert!(log.lines().any(|line| line.contains(" WARN ") && line.contains(&nobody)), "{log}");
}
