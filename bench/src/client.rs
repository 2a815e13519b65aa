//! A minimal MCP client: JSON-RPC messages over a child's stdio or over streamable HTTP, with
//! just what the bench tools need (the handshake, `tools/list`, pipelined `tools/call`).
//!
//! It is written against the wire format rather than an SDK so that the client's own cost per
//! call stays small and the same for every server measured, and so that the load generator
//! controls exactly how many requests are in flight.
//!
//! HTTP goes to loopback only: [`check_loopback`] refuses any other host before a byte is sent,
//! proxies from the environment are ignored and redirects are not followed.

use std::{
    net::IpAddr,
    process::Stdio,
    time::{Duration, Instant},
};

use reqwest::{
    StatusCode, Url,
    header::{ACCEPT, CONTENT_TYPE},
};
use serde::{Deserialize, de::IgnoredAny};
use serde_json::{Value, json};
use tokio::{
    io::{AsyncBufReadExt, AsyncWriteExt, BufReader, BufWriter},
    process::{Child, ChildStdin, ChildStdout, Command},
};

use crate::{Result, error};

/// The protocol version the bench client asks for; every server measured speaks it.
pub const DEFAULT_PROTOCOL_VERSION: &str = "2025-06-18";

/// The `initialize` request.
pub fn initialize_request(id: u64, protocol_version: &str) -> String {
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "method": "initialize",
        "params": {
            "protocolVersion": protocol_version,
            "capabilities": {},
            "clientInfo": { "name": "mcp-plugin-bench", "version": env!("CARGO_PKG_VERSION") }
        }
    })
    .to_string()
}

/// The `notifications/initialized` notification.
pub fn initialized_notification() -> String {
    json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }).to_string()
}

/// The `tools/list` request.
pub fn list_tools_request(id: u64) -> String {
    json!({ "jsonrpc": "2.0", "id": id, "method": "tools/list", "params": {} }).to_string()
}

/// A `tools/call` request of `echo`; `text_json` is the text as a JSON string literal.
pub fn echo_request(id: u64, text_json: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"echo","arguments":{{"text":{text_json}}}}}}}"#
    )
}

/// How a call ended, as far as the load generator cares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// A result without `isError`.
    Ok,
    /// A result with `isError: true`; the text of its first content block.
    ToolError(String),
    /// A JSON-RPC error; its message.
    RpcError(String),
}

/// A message from the server, read without building the whole result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Incoming {
    /// The response to request `id`.
    Response {
        /// The request's id.
        id: u64,
        /// How it ended.
        outcome: Outcome,
    },
    /// A notification or a request from the server (not answered by the load generator).
    Other,
}

#[derive(Deserialize)]
struct Light {
    #[serde(default)]
    id: Option<Value>,
    #[serde(default)]
    method: Option<IgnoredAny>,
    #[serde(default)]
    result: Option<LightResult>,
    #[serde(default)]
    error: Option<LightError>,
}

#[derive(Deserialize)]
struct LightResult {
    #[serde(rename = "isError", default)]
    is_error: Option<bool>,
    #[serde(default)]
    content: Option<Vec<LightContent>>,
}

#[derive(Deserialize)]
struct LightContent {
    #[serde(default)]
    text: Option<String>,
}

#[derive(Deserialize)]
struct LightError {
    #[serde(default)]
    message: String,
}

/// Classifies one JSON-RPC message, skipping over the body of a result.
pub fn classify(message: &str) -> Result<Incoming> {
    let light: Light = serde_json::from_str(message)
        .map_err(|cause| error(format!("the server sent a message that is not JSON-RPC ({cause}): {message}")))?;
    if light.method.is_some() {
        return Ok(Incoming::Other);
    }
    let Some(id) = light.id.as_ref().and_then(Value::as_u64) else {
        return Err(error(format!("the server sent a response without a numeric id: {message}")));
    };
    let outcome = match (light.error, light.result) {
        (Some(rpc), _) => Outcome::RpcError(rpc.message),
        (None, Some(LightResult { is_error: Some(true), content })) => Outcome::ToolError(
            content.and_then(|blocks| blocks.into_iter().find_map(|block| block.text)).unwrap_or_default(),
        ),
        (None, Some(_)) => Outcome::Ok,
        (None, None) => Outcome::RpcError("a response with neither result nor error".to_owned()),
    };
    Ok(Incoming::Response { id, outcome })
}

/// What the handshake learned about the server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Handshake {
    /// The protocol version the server chose.
    pub protocol_version: String,
    /// The server's name (`serverInfo.name`).
    pub server_name: String,
    /// The names of the tools it lists.
    pub tools: Vec<String>,
}

/// The `result` of a response, or its error as an [`Error`](crate::Error).
fn result_of(response: Value, what: &str) -> Result<Value> {
    if let Some(problem) = response.get("error") {
        return Err(error(format!("{what} failed: {problem}")));
    }
    response.get("result").cloned().ok_or_else(|| error(format!("{what} answered without a result: {response}")))
}

/// The protocol version and server name from an `initialize` result.
fn initialize_details(result: &Value) -> (String, String) {
    let text = |value: Option<&Value>| value.and_then(Value::as_str).unwrap_or_default().to_owned();
    (text(result.get("protocolVersion")), text(result.pointer("/serverInfo/name")))
}

/// The tool names from a `tools/list` result.
fn tool_names(result: &Value) -> Vec<String> {
    result
        .get("tools")
        .and_then(Value::as_array)
        .map(|tools| tools.iter().filter_map(|tool| tool.get("name")?.as_str().map(str::to_owned)).collect())
        .unwrap_or_default()
}

/// An MCP server running as a child process, spoken to over its stdin and stdout.
pub struct StdioServer {
    child: Child,
    stdin: Option<BufWriter<ChildStdin>>,
    stdout: BufReader<ChildStdout>,
    line: String,
}

impl StdioServer {
    /// Starts `command` (program and arguments). Its stderr goes to `stderr`.
    pub fn spawn(command: &[String], stderr: Stdio) -> Result<Self> {
        let (program, args) = command.split_first().ok_or_else(|| error("no server command given"))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .kill_on_drop(true)
            .spawn()
            .map_err(|cause| error(format!("cannot start {program}: {cause}")))?;
        let stdin = child.stdin.take().map(|stdin| BufWriter::with_capacity(64 * 1024, stdin));
        let stdout = child.stdout.take().ok_or_else(|| error("the child has no stdout"))?;
        Ok(Self { child, stdin, stdout: BufReader::with_capacity(64 * 1024, stdout), line: String::new() })
    }

    /// The child's process id.
    pub fn pid(&self) -> Option<u32> {
        self.child.id()
    }

    /// Queues one message; [`Self::flush`] sends what is queued.
    pub async fn send(&mut self, message: &str) -> Result<()> {
        let stdin = self.stdin.as_mut().ok_or_else(|| error("stdin is closed"))?;
        stdin.write_all(message.as_bytes()).await?;
        stdin.write_all(b"\n").await?;
        Ok(())
    }

    /// Sends every queued message.
    pub async fn flush(&mut self) -> Result<()> {
        let stdin = self.stdin.as_mut().ok_or_else(|| error("stdin is closed"))?;
        stdin.flush().await.map_err(|cause| error(format!("the server stopped reading its stdin: {cause}")))
    }

    /// Whether a message (or part of one) has been read from the server but not yet returned.
    pub fn has_buffered_input(&self) -> bool {
        !self.stdout.buffer().is_empty()
    }

    /// Reads the next non-empty line the server wrote.
    pub async fn read_line(&mut self) -> Result<&str> {
        loop {
            self.line.clear();
            if self.stdout.read_line(&mut self.line).await? == 0 {
                return Err(error("the server closed its stdout"));
            }
            if !self.line.trim().is_empty() {
                return Ok(self.line.trim_end());
            }
        }
    }

    /// Sends request `message` with id `id` and returns the whole response, skipping whatever
    /// the server sends in between.
    pub async fn request(&mut self, id: u64, message: &str) -> Result<Value> {
        self.send(message).await?;
        self.flush().await?;
        loop {
            let line = self.read_line().await?;
            let value: Value = serde_json::from_str(line)
                .map_err(|cause| error(format!("the server wrote a line that is not JSON ({cause}): {line}")))?;
            if value.get("method").is_none() && value.get("id").and_then(Value::as_u64) == Some(id) {
                return Ok(value);
            }
        }
    }

    /// `initialize`, `notifications/initialized`, then `tools/list` (ids 0 and 1).
    pub async fn handshake(&mut self, protocol_version: &str) -> Result<Handshake> {
        let init = result_of(self.request(0, &initialize_request(0, protocol_version)).await?, "initialize")?;
        let (protocol_version, server_name) = initialize_details(&init);
        self.send(&initialized_notification()).await?;
        let list = result_of(self.request(1, &list_tools_request(1)).await?, "tools/list")?;
        Ok(Handshake { protocol_version, server_name, tools: tool_names(&list) })
    }

    /// Closes the server's stdin (an MCP stdio server exits then) and waits up to `grace` for
    /// it to exit before killing it.
    pub async fn shutdown(mut self, grace: Duration) -> Result<()> {
        if let Some(mut stdin) = self.stdin.take() {
            let _ = stdin.flush().await;
        }
        if tokio::time::timeout(grace, self.child.wait()).await.is_err() {
            self.child.kill().await?;
        }
        Ok(())
    }
}

/// Refuses any URL that does not name a loopback host over plain HTTP: an IPv4 address in
/// 127.0.0.0/8, `[::1]`, or `localhost` when every address it resolves to is loopback.
pub async fn check_loopback(url: &Url) -> Result<()> {
    if url.scheme() != "http" {
        return Err(error(format!("refusing {url}: only http:// on loopback is allowed")));
    }
    let host = url.host_str().unwrap_or_default();
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    let loopback = match bare.parse::<IpAddr>() {
        Ok(address) => address.is_loopback(),
        Err(_) if bare.eq_ignore_ascii_case("localhost") => {
            let port = url.port_or_known_default().unwrap_or(80);
            let addresses: Vec<_> = tokio::net::lookup_host((bare, port)).await?.collect();
            !addresses.is_empty() && addresses.iter().all(|address| address.ip().is_loopback())
        }
        Err(_) => false,
    };
    if loopback {
        Ok(())
    } else {
        Err(error(format!("refusing {url}: the load generator only sends traffic to loopback (127.0.0.0/8, ::1)")))
    }
}

/// Splits a `text/event-stream` body into the data of its events, as chunks arrive.
#[derive(Debug, Default)]
pub struct SseParser {
    pending: Vec<u8>,
    data: Option<String>,
}

impl SseParser {
    /// Feeds a chunk; returns the data of every event the chunk completed (events without data,
    /// such as priming events and comments, yield nothing).
    pub fn feed(&mut self, chunk: &[u8]) -> Vec<String> {
        self.pending.extend_from_slice(chunk);
        let mut events = Vec::new();
        while let Some(end) = self.pending.iter().position(|&byte| byte == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=end).collect();
            let line = String::from_utf8_lossy(&line);
            let line = line.trim_end_matches(['\n', '\r']);
            if line.is_empty() {
                if let Some(data) = self.data.take().filter(|data| !data.is_empty()) {
                    events.push(data);
                }
            } else if let Some(value) = line.strip_prefix("data:") {
                let value = value.strip_prefix(' ').unwrap_or(value);
                match &mut self.data {
                    Some(data) => {
                        data.push('\n');
                        data.push_str(value);
                    }
                    None => self.data = Some(value.to_owned()),
                }
            }
        }
        events
    }

    /// The data of an event the stream ended without a blank line after.
    pub fn finish(&mut self) -> Option<String> {
        let rest = std::mem::take(&mut self.pending);
        if !rest.is_empty() {
            let mut events = self.feed(&rest);
            events.extend(self.feed(b"\n"));
            if let Some(event) = events.pop() {
                return Some(event);
            }
        }
        self.data.take().filter(|data| !data.is_empty())
    }
}

/// An MCP server behind a streamable HTTP endpoint on loopback.
pub struct HttpServer {
    client: reqwest::Client,
    url: Url,
    session: Option<String>,
    protocol_version: Option<String>,
}

/// What one POST answered: the session id header, if any, and the messages of its body.
struct Reply {
    session: Option<String>,
    messages: Vec<String>,
}

impl HttpServer {
    /// A client for `url`, which must be on loopback, keeping up to `connections` connections.
    pub async fn new(url: &str, connections: usize) -> Result<Self> {
        let url: Url = url.parse().map_err(|cause| error(format!("'{url}' is not a URL: {cause}")))?;
        check_loopback(&url).await?;
        let client = reqwest::Client::builder()
            .no_proxy()
            .redirect(reqwest::redirect::Policy::none())
            .pool_max_idle_per_host(connections.max(1))
            .tcp_nodelay(true)
            .build()?;
        Ok(Self { client, url, session: None, protocol_version: None })
    }

    /// The endpoint.
    pub fn url(&self) -> &Url {
        &self.url
    }

    async fn post(&self, body: String) -> Result<Reply> {
        let mut request = self
            .client
            .post(self.url.clone())
            .header(CONTENT_TYPE, "application/json")
            .header(ACCEPT, "application/json, text/event-stream")
            .body(body);
        if let Some(session) = &self.session {
            request = request.header("mcp-session-id", session);
        }
        if let Some(version) = &self.protocol_version {
            request = request.header("mcp-protocol-version", version);
        }
        let mut response = request.send().await?;
        let status = response.status();
        let header = |name: &str| response.headers().get(name).and_then(|value| value.to_str().ok()).map(str::to_owned);
        let session = header("mcp-session-id");
        let content_type = header(CONTENT_TYPE.as_str()).unwrap_or_default();
        if status == StatusCode::ACCEPTED {
            return Ok(Reply { session, messages: Vec::new() });
        }
        if !status.is_success() {
            let text = response.text().await.unwrap_or_default();
            return Err(error(format!("HTTP {status} from {}: {text}", self.url)));
        }
        let mut messages = Vec::new();
        if content_type.starts_with("text/event-stream") {
            let mut parser = SseParser::default();
            while let Some(chunk) = response.chunk().await? {
                messages.extend(parser.feed(&chunk));
            }
            messages.extend(parser.finish());
        } else {
            let body = response.bytes().await?;
            let text = String::from_utf8_lossy(&body).trim().to_owned();
            if !text.is_empty() {
                messages.push(text);
            }
        }
        Ok(Reply { session, messages })
    }

    async fn request(&self, id: u64, message: String) -> Result<(Option<String>, Value)> {
        let reply = self.post(message).await?;
        for text in &reply.messages {
            let value: Value = serde_json::from_str(text)
                .map_err(|cause| error(format!("the server sent an event that is not JSON ({cause}): {text}")))?;
            if value.get("method").is_none() && value.get("id").and_then(Value::as_u64) == Some(id) {
                return Ok((reply.session, value));
            }
        }
        Err(error(format!("the server's reply carried no response to request {id}: {:?}", reply.messages)))
    }

    /// `initialize`, `notifications/initialized`, then `tools/list` (ids 0 and 1). While the
    /// server refuses connections it is retried until `wait` has passed (it may be starting).
    pub async fn handshake(&mut self, protocol_version: &str, wait: Duration) -> Result<Handshake> {
        let deadline = Instant::now() + wait;
        let (session, init) = loop {
            match self.request(0, initialize_request(0, protocol_version)).await {
                Ok(answer) => break answer,
                Err(cause) if Instant::now() < deadline && is_connect_error(&cause) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                Err(cause) => return Err(cause),
            }
        };
        let init = result_of(init, "initialize")?;
        let (version, server_name) = initialize_details(&init);
        self.session = session;
        self.protocol_version = Some(version.clone());
        self.post(initialized_notification()).await?;
        let (_, list) = self.request(1, list_tools_request(1)).await?;
        let list = result_of(list, "tools/list")?;
        Ok(Handshake { protocol_version: version, server_name, tools: tool_names(&list) })
    }

    /// Calls `echo` as request `id` and classifies the answer.
    pub async fn call_echo(&self, id: u64, text_json: &str) -> Result<Outcome> {
        let reply = self.post(echo_request(id, text_json)).await?;
        for text in &reply.messages {
            if let Incoming::Response { id: answered, outcome } = classify(text)?
                && answered == id
            {
                return Ok(outcome);
            }
        }
        Err(error(format!("the server's reply carried no response to call {id}")))
    }

    /// Ends the session (`DELETE`), ignoring a server that does not support it.
    pub async fn close(&self) {
        if let Some(session) = &self.session {
            let _ = self.client.delete(self.url.clone()).header("mcp-session-id", session).send().await;
        }
    }
}

fn is_connect_error(cause: &crate::Error) -> bool {
    cause.downcast_ref::<reqwest::Error>().is_some_and(reqwest::Error::is_connect)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn echo_request_is_valid_json() {
        let text = serde_json::to_string("a \"quoted\" text").unwrap();
        let value: Value = serde_json::from_str(&echo_request(7, &text)).unwrap();
        assert_eq!(value["id"], 7);
        assert_eq!(value["params"]["name"], "echo");
        assert_eq!(value["params"]["arguments"]["text"], "a \"quoted\" text");
    }

    #[test]
    fn classifies_messages() {
        let ok = r#"{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"hi"}],"structuredContent":{"text":"hi","length":2}}}"#;
        assert_eq!(classify(ok).unwrap(), Incoming::Response { id: 3, outcome: Outcome::Ok });
        let tool_error =
            r#"{"jsonrpc":"2.0","id":4,"result":{"isError":true,"content":[{"type":"text","text":"bad"}]}}"#;
        assert_eq!(
            classify(tool_error).unwrap(),
            Incoming::Response { id: 4, outcome: Outcome::ToolError("bad".into()) }
        );
        let rpc_error = r#"{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"Unknown tool"}}"#;
        assert_eq!(
            classify(rpc_error).unwrap(),
            Incoming::Response { id: 5, outcome: Outcome::RpcError("Unknown tool".into()) }
        );
        let note = r#"{"jsonrpc":"2.0","method":"notifications/message","params":{}}"#;
        assert_eq!(classify(note).unwrap(), Incoming::Other);
        assert!(classify("not json").is_err());
    }

    #[test]
    fn sse_events_across_chunks_and_line_endings() {
        let mut parser = SseParser::default();
        assert!(parser.feed(b"id: 0\r\nretry: 3000\r\ndata:\r\n\r\n").is_empty());
        assert!(parser.feed(b"event: message\ndata: {\"a\":").is_empty());
        assert_eq!(parser.feed(b"1}\n\n: comment\n\n"), vec![r#"{"a":1}"#.to_owned()]);
        assert_eq!(parser.feed(b"data: x\ndata: y\n\n"), vec!["x\ny".to_owned()]);
        assert!(parser.feed(b"data: tail").is_empty());
        assert_eq!(parser.finish().as_deref(), Some("tail"));
    }

    #[tokio::test]
    async fn only_loopback_is_allowed() {
        for url in ["http://127.0.0.1:8080/mcp", "http://127.1.2.3/mcp", "http://[::1]:9/mcp", "http://localhost:1/"] {
            check_loopback(&url.parse().unwrap()).await.unwrap_or_else(|cause| panic!("{url}: {cause}"));
        }
        for url in [
            "http://10.0.0.1/mcp",
            "http://192.168.1.1/mcp",
            "http://example.com/mcp",
            "https://127.0.0.1/mcp",
            "http://0.0.0.0:80/mcp",
            "http://[::2]/mcp",
        ] {
            assert!(check_loopback(&url.parse().unwrap()).await.is_err(), "{url} was allowed");
        }
    }
}
