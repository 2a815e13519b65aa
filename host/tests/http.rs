//! End-to-end tests of the real host binary over streamable HTTP: a
//! session, calls with progress, the guards against DNS rebinding, the
//! bearer token (from the configuration or a file; its challenge), CORS for
//! browser clients, and the refusal of an unprotected public address.

mod common;

use common::{Setup, text_of};
use serde_json::{Value, json};
use tokio::process::Child;

/// The host serving HTTP on a free loopback port.
struct HttpHost {
    _child: Child,
    url: String,
    authority: String,
    http: reqwest::Client,
    session: Option<String>,
    token: Option<String>,
}

impl HttpHost {
    async fn start(setup: &Setup) -> Self {
        let (child, url, _log) = common::spawn_http(&setup.config(), &[]).await;
        let authority = url.trim_start_matches("http://").trim_end_matches("/mcp").to_owned();
        Self { _child: child, url, authority, http: reqwest::Client::new(), session: None, token: None }
    }

    /// POSTs one JSON-RPC message; returns the status and every JSON-RPC
    /// message of the answer (one JSON body, or the events of an SSE stream).
    async fn post_with(&self, body: Value, headers: &[(&str, &str)]) -> (u16, Vec<Value>) {
        let mut request = self
            .http
            .post(&self.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body(body.to_string());
        if let Some(session) = &self.session {
            request = request.header("mcp-session-id", session).header("mcp-protocol-version", "2025-06-18");
        }
        if let Some(token) = &self.token {
            request = request.header("authorization", format!("Bearer {token}"));
        }
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let response = request.send().await.unwrap();
        let status = response.status().as_u16();
        let is_sse = response
            .headers()
            .get("content-type")
            .and_then(|value| value.to_str().ok())
            .is_some_and(|value| value.contains("text/event-stream"));
        let text = response.text().await.unwrap();
        let messages = if is_sse {
            text.lines()
                .filter_map(|line| line.strip_prefix("data:"))
                .filter_map(|data| serde_json::from_str(data.trim()).ok())
                .collect()
        } else {
            serde_json::from_str(&text).into_iter().collect()
        };
        (status, messages)
    }

    async fn initialize(&mut self) {
        let response = self
            .http
            .post(&self.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .headers(self.auth())
            .body(
                json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                    "protocolVersion": "2025-06-18", "capabilities": {},
                    "clientInfo": { "name": "e2e-http", "version": "1" } } })
                .to_string(),
            )
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 200);
        self.session = response.headers().get("mcp-session-id").map(|value| value.to_str().unwrap().to_owned());
        assert!(self.session.is_some(), "a session id is issued");
        let (status, _) = self.post_with(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }), &[]).await;
        assert_eq!(status, 202);
    }

    fn auth(&self) -> reqwest::header::HeaderMap {
        let mut headers = reqwest::header::HeaderMap::new();
        if let Some(token) = &self.token {
            headers.insert("authorization", format!("Bearer {token}").parse().unwrap());
        }
        headers
    }

    async fn request(&self, id: u64, method: &str, params: Value) -> Vec<Value> {
        let (status, messages) =
            self.post_with(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }), &[]).await;
        assert_eq!(status, 200, "{method}: {messages:?}");
        messages
    }
}

fn response(messages: &[Value], id: u64) -> &Value {
    messages.iter().find(|message| message["id"] == id).unwrap_or_else(|| panic!("no response {id} in {messages:?}"))
}

#[tokio::test]
async fn serves_a_session_with_calls_and_progress() {
    let setup = Setup::new(&["sample"], &["panicky"], json!({}));
    let mut host = HttpHost::start(&setup).await;
    host.initialize().await;
    let list = host.request(1, "tools/list", json!({})).await;
    let names: Vec<&str> = response(&list, 1)["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"echo") && names.contains(&"still_works"), "{names:?}");

    let call = host.request(2, "tools/call", json!({ "name": "echo", "arguments": { "text": "over http" } })).await;
    let result = &response(&call, 2)["result"];
    assert_eq!(text_of(result), "over http");
    assert_eq!(result["structuredContent"]["length"], 9);

    let call = host
        .request(
            3,
            "tools/call",
            json!({ "name": "countdown", "arguments": { "steps": 3, "intervalMs": 5 }, "_meta": { "progressToken": "p" } }),
        )
        .await;
    let progress: Vec<f64> = call
        .iter()
        .filter(|message| message["method"] == "notifications/progress")
        .map(|message| message["params"]["progress"].as_f64().unwrap())
        .collect();
    assert_eq!(progress, vec![1.0, 2.0, 3.0]);
    let last = call.last().unwrap();
    assert_eq!(last["id"], 3, "progress arrives before the response");

    let panicked = host.request(4, "tools/call", json!({ "name": "panic_in_poll", "arguments": {} })).await;
    assert_eq!(response(&panicked, 4)["result"]["isError"], true);
    let after = host.request(5, "tools/call", json!({ "name": "still_works", "arguments": {} })).await;
    assert_eq!(text_of(&response(&after, 5)["result"]), "ok");

    // Ending the session: a status every official client takes as done (the Python SDK only 200 and 204).
    let session = host.session.clone().unwrap();
    let ended = host
        .http
        .delete(&host.url)
        .header("mcp-session-id", &session)
        .header("mcp-protocol-version", "2025-06-18")
        .send()
        .await
        .unwrap();
    assert_eq!(ended.status().as_u16(), 204);
    let (status, _) = host.post_with(json!({ "jsonrpc": "2.0", "id": 6, "method": "ping" }), &[]).await;
    assert_eq!(status, 404, "the session is over");
}

#[tokio::test]
async fn rejects_foreign_hosts_and_origins() {
    let setup = Setup::new(&["sample"], &[], json!({}));
    let mut host = HttpHost::start(&setup).await;
    host.initialize().await;
    let ping = json!({ "jsonrpc": "2.0", "id": 9, "method": "ping" });
    let (status, _) = host.post_with(ping.clone(), &[("host", "evil.example.com")]).await;
    assert!((400..500).contains(&status), "a foreign Host is refused, got {status}");
    let (status, _) = host.post_with(ping.clone(), &[("origin", "http://evil.example.com")]).await;
    assert!((400..500).contains(&status), "a foreign Origin is refused, got {status}");
    let origin = format!("http://{}", host.authority);
    let (status, messages) = host.post_with(ping, &[("origin", origin.as_str())]).await;
    assert_eq!(status, 200, "a loopback Origin is accepted: {messages:?}");
}

#[tokio::test]
async fn a_configured_bearer_token_is_required() {
    let setup = Setup::new(&["sample"], &[], json!({ "Http": { "BearerToken": "s3cret" } }));
    let mut host = HttpHost::start(&setup).await;
    let (status, _) = host.post_with(json!({ "jsonrpc": "2.0", "id": 1, "method": "ping" }), &[]).await;
    assert_eq!(status, 401);
    host.token = Some("wrong".into());
    let (status, _) = host.post_with(json!({ "jsonrpc": "2.0", "id": 1, "method": "ping" }), &[]).await;
    assert_eq!(status, 401);
    host.token = Some("s3cret".into());
    host.initialize().await;
    let call = host.request(1, "tools/call", json!({ "name": "echo", "arguments": { "text": "authorized" } })).await;
    assert_eq!(text_of(&response(&call, 1)["result"]), "authorized");
}

#[tokio::test]
async fn the_token_comes_from_a_file_any_scheme_case_works_and_a_401_says_what_to_send() {
    let setup = Setup::new(&["sample"], &[], json!({ "Http": { "BearerTokenFile": "token.txt" } }));
    std::fs::write(setup.config().parent().unwrap().join("token.txt"), "from-file\n").unwrap();
    let mut host = HttpHost::start(&setup).await;
    let ping = json!({ "jsonrpc": "2.0", "id": 1, "method": "ping" });
    let refused = host.http.post(&host.url).header("content-type", "application/json").body(ping.to_string());
    let refused = refused.send().await.unwrap();
    assert_eq!(refused.status().as_u16(), 401);
    let challenge = refused.headers()["www-authenticate"].to_str().unwrap().to_owned();
    assert!(challenge.starts_with("Bearer realm="), "{challenge}");
    assert!(challenge.contains("Authorization: Bearer <token>"), "{challenge}");
    let body = refused.text().await.unwrap();
    assert!(body.contains("Authorization: Bearer <token>"), "{body}");

    let (status, _) = host.post_with(ping.clone(), &[("authorization", "bearer wrong")]).await;
    assert_eq!(status, 401, "a wrong token is refused whatever the scheme's case");
    host.token = Some("from-file".into());
    host.initialize().await;
    host.token = None;
    let call = json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": { "name": "echo", "arguments": { "text": "lower-case scheme" } } });
    let (status, messages) = host.post_with(call, &[("authorization", "bearer from-file")]).await;
    assert_eq!(status, 200, "{messages:?}");
    assert_eq!(text_of(&response(&messages, 2)["result"]), "lower-case scheme");
}

#[tokio::test]
async fn browser_clients_get_cors_answers_for_allowed_origins_only() {
    let setup = Setup::new(
        &["sample"],
        &[],
        json!({ "Http": { "BearerToken": "s3cret", "AllowedOrigins": ["https://app.example.com:443"] } }),
    );
    let mut host = HttpHost::start(&setup).await;
    let preflight = |origin: &str| {
        host.http
            .request(reqwest::Method::OPTIONS, &host.url)
            .header("origin", origin)
            .header("access-control-request-method", "POST")
            .header("access-control-request-headers", "authorization, content-type, mcp-session-id")
            .send()
    };
    // The preflight carries no token (browsers never send one) and must still be answered.
    let answer = preflight("https://app.example.com").await.unwrap();
    assert!(answer.status().is_success(), "preflight status {}", answer.status());
    let headers = answer.headers();
    assert_eq!(headers["access-control-allow-origin"], "https://app.example.com");
    let methods = headers["access-control-allow-methods"].to_str().unwrap().to_ascii_lowercase();
    assert!(methods.contains("post") && methods.contains("delete"), "{methods}");
    let allowed = headers["access-control-allow-headers"].to_str().unwrap().to_ascii_lowercase();
    for name in ["authorization", "content-type", "mcp-session-id", "mcp-protocol-version"] {
        assert!(allowed.contains(name), "{name} missing from {allowed}");
    }

    let refused = preflight("https://evil.example.com").await.unwrap();
    assert!(refused.headers().get("access-control-allow-origin").is_none(), "a foreign origin gets no CORS answer");

    // The actual request: the browser reads the session id through the exposed headers.
    host.token = Some("s3cret".into());
    let initialize = host
        .http
        .post(&host.url)
        .header("origin", "https://app.example.com")
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .headers(host.auth())
        .body(
            json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": { "name": "browser", "version": "1" } } })
            .to_string(),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(initialize.status().as_u16(), 200);
    let headers = initialize.headers();
    assert_eq!(headers["access-control-allow-origin"], "https://app.example.com");
    let exposed = headers["access-control-expose-headers"].to_str().unwrap().to_ascii_lowercase();
    assert!(exposed.contains("mcp-session-id"), "{exposed}");
    assert!(headers.contains_key("mcp-session-id"));

    // A 401 carries the CORS headers too, so the page can read the challenge.
    host.token = None;
    host.session = None;
    let (status, _) = host.post_with(json!({ "jsonrpc": "2.0", "id": 1, "method": "ping" }), &[]).await;
    assert_eq!(status, 401);
    let unauthorized =
        host.http.post(&host.url).header("origin", "https://app.example.com").body("{}").send().await.unwrap();
    assert_eq!(unauthorized.status().as_u16(), 401);
    assert_eq!(unauthorized.headers()["access-control-allow-origin"], "https://app.example.com");
}

#[tokio::test]
async fn a_public_address_without_a_token_is_refused() {
    let setup = Setup::new(&["sample"], &[], json!({}));
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_mcp-plugin-host"))
        .arg("--config")
        .arg(setup.config())
        .args(["--http", "0.0.0.0:0"])
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("refusing to listen on non-loopback address 0.0.0.0:0 without a bearer token"), "{stderr}");
}

/// `serve --http` listens, as `--http` does.
#[tokio::test]
async fn serve_takes_http_as_the_default_command_does() {
    let setup = Setup::new(&["sample"], &[], json!({}));
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_mcp-plugin-host"))
        .arg("--config")
        .arg(setup.config())
        .args(["serve", "--http", "127.0.0.1:0"])
        .env_remove("RUST_LOG")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    use tokio::io::AsyncBufReadExt;
    let mut lines = tokio::io::BufReader::new(child.stderr.take().unwrap()).lines();
    let listening = tokio::time::timeout(std::time::Duration::from_secs(30), async {
        while let Ok(Some(line)) = lines.next_line().await {
            if line.contains("serving MCP over streamable HTTP at http://127.0.0.1:") {
                return true;
            }
        }
        false
    })
    .await;
    assert_eq!(listening.ok(), Some(true), "serve --http listens");
}
