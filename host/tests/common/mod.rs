//! Shared support for the end-to-end tests: build the plugin libraries,
//! lay out a plugin folder with a configuration file, run the real host
//! binary and talk JSON-RPC to it.
//!
//! The stdio client here is deliberately raw (lines of JSON), so tests can
//! send what a conforming SDK never would: malformed lines, cancellations
//! at chosen moments, many calls at once.

#![allow(dead_code)]

use std::{
    collections::HashMap,
    path::{Path, PathBuf},
    process::Stdio,
    sync::{Arc, Mutex, OnceLock},
    time::Duration,
};

use serde_json::{Value, json};
use tokio::{
    io::{AsyncBufReadExt, AsyncWriteExt, BufReader},
    process::{Child, ChildStdin, Command},
    sync::{Notify, oneshot},
};

/// The workspace root.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_owned()
}

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| workspace_root().join("target"))
}

fn cargo_build(args: &[&str], dir: &Path, target: Option<&Path>) {
    let mut command = std::process::Command::new(env!("CARGO"));
    command.args(["build", "--quiet"]).args(args).current_dir(dir);
    if let Some(target) = target {
        command.env("CARGO_TARGET_DIR", target);
    }
    let status = command.status().expect("cargo runs");
    assert!(status.success(), "cargo build {args:?} in {} failed", dir.display());
}

/// The workspace's plugin packages and the dotnet test double.
const WORKSPACE_PACKAGES: [&str; 13] = [
    "sample-plugin",
    "conformance-plugin",
    "dotnet-test-double",
    "dotnet-sdk-plugin",
    "dotnet-project-plugin",
    "dotnet-package-plugin",
    "dotnet-solution-plugin",
    "dotnet-ef-plugin",
    "dotnet-tool-plugin",
    "dotnet-workload-plugin",
    "dotnet-dev-certs-plugin",
    "dotnet-help-plugin",
    "dotnet-server-capabilities-plugin",
];

/// The dotnet plugins (each serves one tool of the same name).
pub const DOTNET_PLUGINS: [&str; 10] = [
    "dotnet_sdk",
    "dotnet_project",
    "dotnet_package",
    "dotnet_solution",
    "dotnet_ef",
    "dotnet_tool",
    "dotnet_workload",
    "dotnet_dev_certs",
    "dotnet_help",
    "dotnet_server_capabilities",
];

/// Builds the workspace's plugins (and the dotnet test double) once;
/// returns the folder holding them.
pub fn workspace_plugins() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let args: Vec<&str> = WORKSPACE_PACKAGES.iter().flat_map(|package| ["-p", package]).collect();
        cargo_build(&args, &workspace_root(), None);
        target_dir().join("debug")
    })
}

/// Builds the misbehaving fixture plugins (their own workspace) once.
pub fn fixture_plugins() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let target = target_dir().join("fixtures");
        cargo_build(&[], &workspace_root().join("host/tests/fixtures"), Some(&target));
        target.join("debug")
    })
}

/// Builds the `faults` fixture with the `panic-abort` profile (`panic = "abort"`) once;
/// returns the folder holding that `libfaults.so`.
pub fn panic_abort_plugins() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let target = target_dir().join("fixtures");
        cargo_build(
            &["--profile", "panic-abort", "-p", "faults"],
            &workspace_root().join("host/tests/fixtures"),
            Some(&target),
        );
        target.join("panic-abort")
    })
}

/// The platform's file name of a plugin library.
pub fn lib_name(stem: &str) -> String {
    format!("{}{stem}.{}", std::env::consts::DLL_PREFIX, std::env::consts::DLL_EXTENSION)
}

/// A temporary plugin folder and configuration file.
pub struct Setup {
    pub dir: tempfile::TempDir,
}

impl Setup {
    /// Links the named workspace plugins (`sample`, `conformance`) and
    /// fixtures (`panicky`, …) into a fresh folder, and writes
    /// `appsettings.json` with `Plugins.Directory` pointing at it, merged
    /// with `config`.
    pub fn new(workspace: &[&str], fixtures: &[&str], config: Value) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let plugins = dir.path().join("plugins");
        std::fs::create_dir(&plugins).unwrap();
        let sources = workspace
            .iter()
            .map(|stem| (workspace_plugins(), *stem))
            .chain(fixtures.iter().map(|stem| (fixture_plugins(), *stem)));
        for (source, stem) in sources {
            let name = lib_name(stem);
            std::os::unix::fs::symlink(source.join(&name), plugins.join(&name)).unwrap();
        }
        let mut settings = json!({
            // Each test's own lock directory: tests run at once, and lock keys are machine-wide.
            "Host": { "LogLevel": "info", "LockDirectory": "locks" },
            "Plugins": { "Directory": "plugins", "CacheFile": "plugin-cache.json" }
        });
        merge(&mut settings, config);
        std::fs::write(dir.path().join("appsettings.json"), settings.to_string()).unwrap();
        Self { dir }
    }

    /// The configuration file.
    pub fn config(&self) -> PathBuf {
        self.dir.path().join("appsettings.json")
    }

    /// The temporary folder of every host started with this setup's configuration (see
    /// [`host_tmpdir`]): "the system temporary folder" its workers may write.
    pub fn tmp(&self) -> PathBuf {
        host_tmpdir(&self.config())
    }

    /// Runs the host binary with `args` after `--config FILE`, to completion.
    pub fn run(&self, args: &[&str]) -> std::process::Output {
        std::process::Command::new(env!("CARGO_BIN_EXE_mcp-plugin-host"))
            .arg("--config")
            .arg(self.config())
            .args(args)
            .env_remove("RUST_LOG")
            .env("TMPDIR", host_tmpdir(&self.config()))
            .output()
            .unwrap()
    }

    /// `mcp-plugin-host plugins --json`: the folder's reports, and what hosts serving now report.
    pub fn plugins_json(&self) -> Value {
        let output = self.run(&["plugins", "--json"]);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        serde_json::from_slice(&output.stdout).unwrap()
    }

    /// Starts the host over stdio and initializes a session.
    pub async fn stdio(&self) -> Client {
        self.stdio_with(&[], json!({})).await
    }

    /// As [`Self::stdio`], with extra arguments and client capabilities.
    pub async fn stdio_with(&self, args: &[&str], capabilities: Value) -> Client {
        self.stdio_env(args, capabilities, &[]).await
    }

    /// As [`Self::stdio_with`], with `env` set in the host's environment (a scratch `HOME`).
    pub async fn stdio_env(&self, args: &[&str], capabilities: Value, env: &[(&str, &Path)]) -> Client {
        let client = Client::spawn_env(&self.config(), args, env);
        let answer = client
            .request(
                "initialize",
                json!({
                    "protocolVersion": "2025-06-18",
                    "capabilities": capabilities,
                    "clientInfo": { "name": "e2e", "version": "1.0.0" }
                }),
            )
            .await;
        assert!(answer.get("result").is_some(), "initialize failed: {answer}");
        client.notify("notifications/initialized", json!({})).await;
        client
    }
}

/// The temporary folder (`TMPDIR`) of a host started with the configuration file `config`:
/// `tmp/` beside it, created on first use. Each test's hosts get one of their own, so that
/// the folder a worker may write as "the system temporary folder" is the test's, wherever
/// the checkout, the target directory or the test runner's own `TMPDIR` lie (a checkout
/// under `/tmp` must not put a test's "outside" folder inside what workers may write).
pub fn host_tmpdir(config: &Path) -> PathBuf {
    let tmp = config.parent().expect("the configuration file lies in a folder").join("tmp");
    std::fs::create_dir_all(&tmp).expect("the host's temporary folder can be created");
    tmp
}

/// Deep-merges `patch` into `base`.
pub fn merge(base: &mut Value, patch: Value) {
    match (base, patch) {
        (Value::Object(base), Value::Object(patch)) => {
            for (key, value) in patch {
                merge(base.entry(key).or_insert(Value::Null), value);
            }
        }
        (base, patch) => *base = patch,
    }
}

#[derive(Default)]
struct Inbox {
    pending: HashMap<u64, oneshot::Sender<Value>>,
    notifications: Vec<Value>,
    requests: Vec<Value>,
    not_json: Vec<String>,
}

/// A raw JSON-RPC client of the host over stdio.
pub struct Client {
    child: Child,
    stdin: Arc<tokio::sync::Mutex<Option<ChildStdin>>>,
    inbox: Arc<Mutex<Inbox>>,
    arrived: Arc<Notify>,
    next_id: Mutex<u64>,
    stderr: Arc<Mutex<String>>,
    /// How this client answers server-to-client requests (by method).
    pub answers: Arc<Mutex<HashMap<String, Value>>>,
    /// How long this client takes to answer server-to-client requests (by method; at once
    /// when absent). The other messages are read and answered meanwhile.
    pub delays: Arc<Mutex<HashMap<String, Duration>>>,
}

impl Client {
    /// Starts the host without initializing a session.
    pub fn spawn(config: &Path, args: &[&str]) -> Self {
        Self::spawn_env(config, args, &[])
    }

    /// As [`Self::spawn`], with `env` set in the host's environment.
    pub fn spawn_env(config: &Path, args: &[&str], env: &[(&str, &Path)]) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-plugin-host"))
            .arg("--config")
            .arg(config)
            .args(args)
            .envs(env.iter().copied())
            .env_remove("RUST_LOG")
            .env("TMPDIR", host_tmpdir(config))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("the host binary starts");
        let stdin = Arc::new(tokio::sync::Mutex::new(child.stdin.take()));
        let inbox = Arc::new(Mutex::new(Inbox::default()));
        let arrived = Arc::new(Notify::new());
        let answers: Arc<Mutex<HashMap<String, Value>>> = Arc::default();
        let delays: Arc<Mutex<HashMap<String, Duration>>> = Arc::default();
        let stderr = Arc::new(Mutex::new(String::new()));
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let (reader_inbox, reader_arrived, reader_stdin, reader_answers, reader_delays) =
            (inbox.clone(), arrived.clone(), stdin.clone(), answers.clone(), delays.clone());
        tokio::spawn(async move {
            while let Ok(Some(line)) = lines.next_line().await {
                let Ok(message) = serde_json::from_str::<Value>(&line) else {
                    reader_inbox.lock().unwrap().not_json.push(line);
                    continue;
                };
                let is_request = message.get("method").is_some() && message.get("id").is_some();
                if is_request {
                    let method = message["method"].as_str().unwrap_or_default().to_owned();
                    let answer = reader_answers.lock().unwrap().get(&method).cloned();
                    reader_inbox.lock().unwrap().requests.push(message.clone());
                    let reply = match answer {
                        Some(result) => {
                            json!({ "jsonrpc": "2.0", "id": message["id"], "result": result })
                        }
                        None => json!({ "jsonrpc": "2.0", "id": message["id"],
                                        "error": { "code": -32601, "message": "not answered by the test client" } }),
                    };
                    let delay = reader_delays.lock().unwrap().get(&method).copied();
                    let stdin = reader_stdin.clone();
                    let send = async move {
                        if let Some(delay) = delay {
                            tokio::time::sleep(delay).await;
                        }
                        if let Some(stdin) = stdin.lock().await.as_mut() {
                            let _ = stdin.write_all(format!("{reply}\n").as_bytes()).await;
                        }
                    };
                    match delay {
                        Some(_) => drop(tokio::spawn(send)),
                        None => send.await,
                    }
                } else if let Some(id) = message.get("id").and_then(Value::as_u64) {
                    if let Some(sender) = reader_inbox.lock().unwrap().pending.remove(&id) {
                        let _ = sender.send(message);
                    }
                } else {
                    reader_inbox.lock().unwrap().notifications.push(message);
                }
                reader_arrived.notify_waiters();
            }
        });
        let mut err_lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let err_sink = stderr.clone();
        tokio::spawn(async move {
            while let Ok(Some(line)) = err_lines.next_line().await {
                let mut text = err_sink.lock().unwrap();
                text.push_str(&line);
                text.push('\n');
            }
        });
        Self { child, stdin, inbox, arrived, next_id: Mutex::new(1), stderr, answers, delays }
    }

    /// Writes one raw line to the host.
    pub async fn send_line(&self, line: &str) {
        let mut stdin = self.stdin.lock().await;
        let stdin = stdin.as_mut().expect("stdin is open");
        stdin.write_all(line.as_bytes()).await.unwrap();
        stdin.write_all(b"\n").await.unwrap();
        stdin.flush().await.unwrap();
    }

    /// Sends a raw line the caller says carries request id `id`, and waits for the answer to it.
    pub async fn request_raw(&self, id: u64, line: &str) -> Value {
        let (sender, receiver) = oneshot::channel();
        self.inbox.lock().unwrap().pending.insert(id, sender);
        self.send_line(line).await;
        wait(receiver, &format!("the raw request with id {id}"), self, Duration::from_secs(60)).await
    }

    /// Sends a notification.
    pub async fn notify(&self, method: &str, params: Value) {
        self.send_line(&json!({ "jsonrpc": "2.0", "method": method, "params": params }).to_string()).await;
    }

    /// Sends a request and returns its id and a receiver of the response.
    pub async fn start(&self, method: &str, params: Value) -> (u64, oneshot::Receiver<Value>) {
        self.start_after(&[], method, params).await
    }

    /// Sends the notifications `before` (method, params) and then a request, in one write, so
    /// that the host reads them back to back; returns the request's id and a receiver of the
    /// response.
    pub async fn start_after(
        &self,
        before: &[(&str, Value)],
        method: &str,
        params: Value,
    ) -> (u64, oneshot::Receiver<Value>) {
        let id = {
            let mut next = self.next_id.lock().unwrap();
            *next += 1;
            *next
        };
        let (sender, receiver) = oneshot::channel();
        self.inbox.lock().unwrap().pending.insert(id, sender);
        let mut lines: Vec<String> = before
            .iter()
            .map(|(method, params)| json!({ "jsonrpc": "2.0", "method": method, "params": params }).to_string())
            .collect();
        lines.push(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }).to_string());
        self.send_line(&lines.join("\n")).await;
        (id, receiver)
    }

    /// Sends the notifications `before` and then calls a tool, in one write (see
    /// [`Self::start_after`]); returns the JSON-RPC `result` (panics on a protocol error).
    pub async fn call_after(&self, before: &[(&str, Value)], tool: &str, arguments: Value) -> Value {
        let (id, receiver) =
            self.start_after(before, "tools/call", json!({ "name": tool, "arguments": arguments })).await;
        let answer = wait(receiver, &format!("tools/call {tool} (id {id})"), self, Duration::from_secs(60)).await;
        answer.get("result").cloned().unwrap_or_else(|| panic!("tools/call {tool} failed: {answer}"))
    }

    /// Sends a request and waits (at most 60 s) for its response.
    pub async fn request(&self, method: &str, params: Value) -> Value {
        self.request_within(method, params, Duration::from_secs(60)).await
    }

    /// Sends a request and waits at most `limit` for its response.
    pub async fn request_within(&self, method: &str, params: Value, limit: Duration) -> Value {
        let (id, receiver) = self.start(method, params).await;
        wait(receiver, &format!("{method} (id {id})"), self, limit).await
    }

    /// Calls a tool and returns the JSON-RPC `result` (panics on a protocol error).
    pub async fn call(&self, tool: &str, arguments: Value) -> Value {
        let answer = self.request("tools/call", json!({ "name": tool, "arguments": arguments })).await;
        answer.get("result").cloned().unwrap_or_else(|| panic!("tools/call {tool} failed: {answer}"))
    }

    /// Notifications received so far.
    pub fn notifications(&self) -> Vec<Value> {
        self.inbox.lock().unwrap().notifications.clone()
    }

    /// Server-to-client requests received so far.
    pub fn server_requests(&self) -> Vec<Value> {
        self.inbox.lock().unwrap().requests.clone()
    }

    /// Lines on stdout that were not JSON (there must be none).
    pub fn not_json(&self) -> Vec<String> {
        self.inbox.lock().unwrap().not_json.clone()
    }

    /// What the host wrote to stderr so far.
    pub fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// Waits until `predicate` holds for the notifications, at most `limit`.
    pub async fn wait_for_notifications(&self, limit: Duration, predicate: impl Fn(&[Value]) -> bool) -> bool {
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            let notified = self.arrived.notified();
            if predicate(&self.notifications()) {
                return true;
            }
            if tokio::time::timeout_at(deadline, notified).await.is_err() {
                return predicate(&self.notifications());
            }
        }
    }

    /// Waits until the host's stderr satisfies `predicate`, at most `limit`.
    pub async fn wait_for_stderr(&self, limit: Duration, predicate: impl Fn(&str) -> bool) -> bool {
        let deadline = tokio::time::Instant::now() + limit;
        while tokio::time::Instant::now() < deadline {
            if predicate(&self.stderr()) {
                return true;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        predicate(&self.stderr())
    }

    /// How many notifications of `method` arrived so far.
    pub fn count(&self, method: &str) -> usize {
        self.notifications().iter().filter(|notification| notification["method"] == method).count()
    }

    /// Waits (at most 30 s) until `count` notifications of `method` have
    /// arrived; panics with the host's stderr otherwise.
    pub async fn expect_notifications(&self, method: &str, count: usize) {
        let arrived = self
            .wait_for_notifications(Duration::from_secs(30), |notifications| {
                notifications.iter().filter(|notification| notification["method"] == method).count() >= count
            })
            .await;
        assert!(arrived, "{count} × {method} did not arrive; host stderr:\n{}", self.stderr());
    }

    /// The host's process id.
    pub fn pid(&self) -> u32 {
        self.child.id().expect("the host is running")
    }

    /// Waits (at most 30 s) for the host to exit by itself.
    pub async fn wait_exit(mut self) -> std::process::ExitStatus {
        tokio::time::timeout(Duration::from_secs(30), self.child.wait()).await.expect("the host exits").unwrap()
    }

    /// Whether the host process is still running.
    pub fn is_running(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }

    /// Closes stdin and waits for the host to exit.
    pub async fn close(mut self) -> std::process::ExitStatus {
        drop(self.stdin.lock().await.take());
        tokio::time::timeout(Duration::from_secs(30), self.child.wait())
            .await
            .expect("the host exits when stdin closes")
            .unwrap()
    }
}

/// Starts the host over streamable HTTP on a free loopback port with
/// `args` after `--config FILE`; returns the process and the `/mcp` URL.
/// Its stderr is drained in the background, and kept in the returned log.
pub async fn spawn_http(config: &Path, args: &[&str]) -> (Child, String, Arc<Mutex<String>>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-plugin-host"))
        .arg("--config")
        .arg(config)
        .args(["--http", "127.0.0.1:0"])
        .args(args)
        .env_remove("RUST_LOG")
        .env("TMPDIR", host_tmpdir(config))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let log = Arc::new(Mutex::new(String::new()));
    let url = tokio::time::timeout(Duration::from_secs(30), async {
        while let Some(line) = lines.next_line().await.unwrap() {
            log.lock().unwrap().push_str(&format!("{line}\n"));
            if let Some((_, url)) = line.split_once("streamable HTTP at ") {
                return url.trim().to_owned();
            }
        }
        panic!("the host exited before listening: {}", log.lock().unwrap());
    })
    .await
    .expect("the host starts listening");
    let sink = Arc::clone(&log);
    tokio::spawn(async move {
        while let Ok(Some(line)) = lines.next_line().await {
            sink.lock().unwrap().push_str(&format!("{line}\n"));
        }
    });
    (child, url, log)
}

async fn wait(receiver: oneshot::Receiver<Value>, what: &str, client: &Client, limit: Duration) -> Value {
    match tokio::time::timeout(limit, receiver).await {
        Ok(Ok(answer)) => answer,
        _ => panic!("no answer to {what}; host stderr:\n{}", client.stderr()),
    }
}

/// The text of a tool result's content blocks, joined.
pub fn text_of(result: &Value) -> String {
    result["content"]
        .as_array()
        .map(|blocks| blocks.iter().filter_map(|block| block["text"].as_str()).collect::<Vec<_>>().join("\n"))
        .unwrap_or_default()
}

/// The process ids of the children of process `pid` (a host's workers).
pub fn children(pid: u32) -> Vec<u32> {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).unwrap();
    tasks
        .filter_map(Result::ok)
        .filter_map(|task| std::fs::read_to_string(task.path().join("children")).ok())
        .flat_map(|children| children.split_whitespace().map(|pid| pid.parse().unwrap()).collect::<Vec<u32>>())
        .collect()
}

/// Whether a process with this PID is alive (and not a zombie).
pub fn process_alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat.split(") ").nth(1).is_some_and(|rest| rest.starts_with('Z')),
        Err(_) => false,
    }
}

/// Waits until process `pid` is gone (at most 30 s, room for a loaded machine); whether it is.
pub async fn wait_dead(pid: u32) -> bool {
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while process_alive(pid) && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    !process_alive(pid)
}

/// Sends SIGTERM to a host serving the `slow` fixture (under `config`) while a
/// `spawn_sleep` call is in flight whose drop takes `drop_delay_ms` before it
/// kills the call's child (a slow cleanup, or a loaded machine where the
/// plugin's thread gets to the drop late, made deterministic), and checks that
/// the host exits cleanly and that the child was killed before it did: a
/// child left behind lives 300 s, a killed one is gone at once (the deadline
/// after the exit is only room for the kernel on a loaded machine).
pub async fn a_terminated_host_leaves_no_process_behind(config: Value, drop_delay_ms: u64) {
    let setup = Setup::new(&[], &["slow"], config);
    let client = setup.stdio().await;
    // In the host's temporary folder, which a worker may write.
    let pid_file = setup.tmp().join("child.pid");
    let arguments = json!({ "pidFile": pid_file, "dropDelayMs": drop_delay_ms });
    let (_, _pending) = client.start("tools/call", json!({ "name": "spawn_sleep", "arguments": arguments })).await;
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while !pid_file.exists() && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let child: u32 = std::fs::read_to_string(&pid_file)
        .unwrap_or_else(|_| panic!("the call started no child; host stderr:\n{}", client.stderr()))
        .trim()
        .parse()
        .unwrap();
    assert!(process_alive(child));
    let status = std::process::Command::new("kill").arg("-TERM").arg(client.pid().to_string()).status().unwrap();
    assert!(status.success());
    let stderr = Arc::clone(&client.stderr);
    let exit = client.wait_exit().await;
    assert!(exit.success(), "{exit:?}: {}", stderr.lock().unwrap());
    let alive = !wait_dead(child).await;
    if alive {
        let _ = std::process::Command::new("kill").arg("-KILL").arg(child.to_string()).status();
    }
    assert!(!alive, "the call's child process {child} outlived the host:\n{}", stderr.lock().unwrap());
}
