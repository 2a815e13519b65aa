//! Load a built plugin library into the real host binary and talk MCP to
//! it over stdio, from a test.
//!
//! [`TestCall`](super::TestCall) runs a tool in process; this module proves
//! what only the real host can: that the library loads (ABI and layout
//! checks), that its schemas compile, that arguments are validated and
//! results are checked the way clients will see them.
//!
//! ```no_run
//! use mcp_plugin_api::testkit::host::{HostUnderTest, built_library};
//! use serde_json::json;
//!
//! # async fn example() -> Result<(), Box<dyn std::error::Error>> {
//! // In `tests/host.rs` of a plugin crate whose crate-type includes "cdylib":
//! let host = HostUnderTest::builder(built_library(env!("CARGO_PKG_NAME"))?)
//!     .settings("my-plugin", json!({ "Greeting": "Hej" }))
//!     .start()
//!     .await?;
//! let tools = host.list_tools().await?;
//! assert!(tools.iter().any(|tool| tool["name"] == "my_tool"));
//! let result = host.call_tool("my_tool", json!({ "text": "hi" })).await?;
//! assert!(!result.is_error, "{}", result.joined_text());
//! host.shutdown().await?;
//! # Ok(())
//! # }
//! ```
//!
//! # Finding the host binary
//!
//! [`host_binary`] finds a host the way a user has one, and never builds one
//! in a checkout other than the crate's own. In order:
//!
//! 1. the environment variable `MCP_PLUGIN_HOST_BIN` (a path to the binary);
//! 2. for the plugins of a checkout of mcp-plugin-host itself (the crate
//!    under test lies inside the checkout this `mcp-plugin-api` comes from):
//!    that checkout's own build, `cargo build --workspace --bins` there once
//!    per test process (quick when it is up to date);
//! 3. `mcp-plugin-host` on `PATH` (an unpacked release bundle, an install);
//! 4. a release build already in the checkout this `mcp-plugin-api` comes
//!    from, when it is a path dependency or patch (`target/release/`).
//!
//! It says on stderr which one it used; when there is none, the error is one
//! line saying how to get one.
//!
//! # What it runs
//!
//! [`HostBuilder::start`] copies the libraries into a fresh temporary
//! `plugins` folder, writes an `appsettings.json` beside it (the builder's
//! settings merged in), runs `mcp-plugin-host check` on it (so a refused
//! plugin fails with the host's reason), then starts
//! `mcp-plugin-host --config <file>` and initializes an MCP session over
//! newline-delimited JSON-RPC on its stdin and stdout. The host is killed and
//! the folder removed when the [`HostUnderTest`] is dropped.
//!
//! Everything here is async (tokio): use it from `#[tokio::test]`.

use std::{
    collections::HashMap,
    path::{Path, PathBuf},
    process::{ExitStatus, Stdio},
    sync::{
        Arc, Mutex, OnceLock,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use serde_json::{Value, json};
use tokio::{
    io::{AsyncBufReadExt, AsyncWriteExt, BufReader},
    process::{Child, ChildStdin, Command},
    sync::oneshot,
};

use crate::ToolResult;

/// The environment variable that names the host binary.
pub const HOST_BIN_ENV: &str = "MCP_PLUGIN_HOST_BIN";

/// The MCP protocol version the harness asks for.
pub const PROTOCOL_VERSION: &str = "2025-06-18";

/// Why the harness could not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    /// No host binary was found, or it could not be built.
    #[error("the mcp-plugin-host binary was not found: {0}")]
    NoBinary(String),
    /// A plugin library was not found.
    #[error("plugin library not found: {0}")]
    NoLibrary(String),
    /// A file operation or process start failed.
    #[error("{what}: {source}")]
    Io {
        /// What was being done.
        what: String,
        /// The error.
        #[source]
        source: std::io::Error,
    },
    /// `mcp-plugin-host check` found a problem (a refused plugin, a bad
    /// setting); the host's own report follows.
    #[error("the host refused the configuration or a plugin:\n{0}")]
    Refused(String),
    /// The host answered a request with a JSON-RPC error.
    #[error("{method} failed with JSON-RPC error {code}: {message}")]
    Rpc {
        /// The request's method.
        method: String,
        /// The JSON-RPC error code.
        code: i64,
        /// The error message.
        message: String,
    },
    /// The host did not answer in time.
    #[error("no answer to {method} within {timeout:?}; host stderr:\n{stderr}")]
    Timeout {
        /// The request's method.
        method: String,
        /// How long the harness waited.
        timeout: Duration,
        /// What the host wrote to stderr so far.
        stderr: String,
    },
    /// The host exited (or closed stdout) before answering.
    #[error("the host stopped before answering {method}; host stderr:\n{stderr}")]
    Exited {
        /// The request's method.
        method: String,
        /// What the host wrote to stderr.
        stderr: String,
    },
    /// The host's answer was not what MCP says it should be.
    #[error("unexpected answer to {method}: {answer}")]
    Protocol {
        /// The request's method.
        method: String,
        /// The answer.
        answer: String,
    },
}

fn io(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> HostError {
    let what = what.into();
    move |source| HostError::Io { what, source }
}

/// The path of the host binary (see the [module documentation](self) for
/// where it is looked for). The answer is computed once per process.
pub fn host_binary() -> Result<PathBuf, HostError> {
    static FOUND: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    FOUND.get_or_init(find_host_binary).clone().map_err(HostError::NoBinary)
}

fn find_host_binary() -> Result<PathBuf, String> {
    // This copy of mcp-plugin-api inside a checkout of mcp-plugin-host (a path dependency or patch)?
    let checkout = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let checkout = (checkout.join("host").join("Cargo.toml").is_file() && checkout.join("Cargo.toml").is_file())
        .then(|| checkout.canonicalize().unwrap_or(checkout));
    // `cargo test` sets CARGO_MANIFEST_DIR for the test process to the crate under test.
    let under_test = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from).and_then(|dir| dir.canonicalize().ok());
    let own_checkout =
        checkout.as_deref().filter(|checkout| under_test.as_deref().is_some_and(|dir| dir.starts_with(checkout)));
    let search = HostSearch {
        variable: std::env::var_os(HOST_BIN_ENV),
        path: std::env::var_os("PATH"),
        own_checkout,
        api_checkout: checkout.as_deref(),
    };
    let (binary, source) = search.find(build_in_workspace)?;
    eprintln!("testkit: using the mcp-plugin-host at {} ({source})", binary.display());
    Ok(binary)
}

/// Where the harness found the host binary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum HostSource {
    Variable,
    OwnCheckout,
    Path,
    CheckoutRelease,
}

impl std::fmt::Display for HostSource {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str(match self {
            HostSource::Variable => "from MCP_PLUGIN_HOST_BIN",
            HostSource::OwnCheckout => "built in this checkout",
            HostSource::Path => "found on PATH",
            HostSource::CheckoutRelease => "the release build of the checkout mcp-plugin-api comes from",
        })
    }
}

/// What [`HostSearch::find`] looks at (see the [module documentation](self) for the order).
struct HostSearch<'a> {
    variable: Option<std::ffi::OsString>,
    path: Option<std::ffi::OsString>,
    /// The checkout the crate under test belongs to, if it is the one mcp-plugin-api comes from.
    own_checkout: Option<&'a Path>,
    /// The checkout mcp-plugin-api comes from, if any.
    api_checkout: Option<&'a Path>,
}

impl HostSearch<'_> {
    fn find(
        &self,
        build_in_checkout: impl FnOnce(&Path) -> Result<PathBuf, String>,
    ) -> Result<(PathBuf, HostSource), String> {
        if let Some(path) = &self.variable {
            let path = PathBuf::from(path);
            return if path.is_file() {
                Ok((path, HostSource::Variable))
            } else {
                Err(format!("{HOST_BIN_ENV} is {}, which is not a file", path.display()))
            };
        }
        if let Some(checkout) = self.own_checkout {
            return build_in_checkout(checkout).map(|path| (path, HostSource::OwnCheckout));
        }
        let name = format!("mcp-plugin-host{}", std::env::consts::EXE_SUFFIX);
        let on_path = self.path.iter().flat_map(std::env::split_paths).map(|dir| dir.join(&name));
        if let Some(found) = on_path.into_iter().find(|candidate| candidate.is_file()) {
            return Ok((found, HostSource::Path));
        }
        let release = self.api_checkout.map(|checkout| checkout.join("target").join("release").join(&name));
        if let Some(release) = release.filter(|release| release.is_file()) {
            return Ok((release, HostSource::CheckoutRelease));
        }
        let build = match self.api_checkout {
            Some(checkout) => {
                format!(", or build one with `cargo build --release -p mcp-plugin-host` in {}", checkout.display())
            }
            None => String::new(),
        };
        Err(format!(
            "no mcp-plugin-host binary: set {HOST_BIN_ENV} to its path, or put it on PATH (unpack a release bundle){build}"
        ))
    }
}

/// Builds the host in its workspace (the crate under test's own checkout) and returns the
/// executable cargo reports.
fn build_in_workspace(workspace: &Path) -> Result<PathBuf, String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = std::process::Command::new(cargo);
    command
        // `--workspace --bins` resolves features as `cargo build --workspace` does, so it reuses
        // that build (a no-op after it) instead of compiling the host's dependencies once more.
        .args(["build", "--quiet", "--workspace", "--bins", "--message-format=json-render-diagnostics"])
        .current_dir(workspace)
        .stderr(Stdio::inherit());
    let output =
        command.output().map_err(|error| format!("cargo could not run in {}: {error}", workspace.display()))?;
    if !output.status.success() {
        return Err(format!(
            "`cargo build --workspace --bins` failed in {} (set {HOST_BIN_ENV} to use a built binary)",
            workspace.display()
        ));
    }
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|message| message["reason"] == "compiler-artifact" && message["target"]["name"] == "mcp-plugin-host")
        .find_map(|message| message["executable"].as_str().map(PathBuf::from))
        .ok_or_else(|| format!("cargo built mcp-plugin-host in {} but named no executable", workspace.display()))
}

/// The plugin library a crate's `cargo test` built, found next to the test
/// binary: pass the package name (`env!("CARGO_PKG_NAME")`) or the library
/// name. The crate's `crate-type` must include `"cdylib"`.
pub fn built_library(name: &str) -> Result<PathBuf, HostError> {
    let file =
        format!("{}{}.{}", std::env::consts::DLL_PREFIX, name.replace('-', "_"), std::env::consts::DLL_EXTENSION);
    let exe = std::env::current_exe().map_err(io("the test binary's path"))?;
    // Test binaries live in `<target>/<profile>/deps`; cargo copies cdylibs up to `<target>/<profile>`.
    let deps = exe.parent().map(Path::to_path_buf).unwrap_or_default();
    let candidates = [deps.parent().map(|profile| profile.join(&file)), Some(deps.join(&file))];
    candidates.iter().flatten().find(|path| path.is_file()).cloned().ok_or_else(|| {
        HostError::NoLibrary(format!(
            "{file} is not next to the test binary {} (is the crate's crate-type [\"cdylib\", \"rlib\"]? does the \
             test run from an integration test under tests/?)",
            exe.display()
        ))
    })
}

/// Deep-merges `patch` into `base`: objects key by key, anything else replaced.
fn merge(base: &mut Value, patch: Value) {
    match (base, patch) {
        (Value::Object(base), Value::Object(patch)) => {
            for (key, value) in patch {
                merge(base.entry(key).or_insert(Value::Null), value);
            }
        }
        (base, patch) => *base = patch,
    }
}

/// A temporary folder, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> Result<Self, HostError> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let base = std::env::temp_dir();
        loop {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|elapsed| elapsed.subsec_nanos())
                .unwrap_or_default();
            let name =
                format!("mcp-plugin-host-test-{}-{}-{nanos}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed));
            let path = base.join(name);
            match std::fs::create_dir(&path) {
                Ok(()) => return Ok(Self(path)),
                Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(error) => return Err(io(format!("creating a folder in {}", base.display()))(error)),
            }
        }
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Configures a [`HostUnderTest`] before it starts.
pub struct HostBuilder {
    libraries: Vec<PathBuf>,
    config: Value,
    binary: Option<PathBuf>,
    timeout: Duration,
    capabilities: Value,
    answers: HashMap<String, Value>,
    args: Vec<String>,
}

impl HostBuilder {
    /// Also loads `library` (another plugin the test needs beside the first).
    pub fn library(mut self, library: impl Into<PathBuf>) -> Self {
        self.libraries.push(library.into());
        self
    }

    /// Sets the plugin's own section, `Plugins.Settings.<plugin>`.
    pub fn settings(self, plugin: &str, section: Value) -> Self {
        self.config(json!({ "Plugins": { "Settings": { plugin: section } } }))
    }

    /// Merges `patch` into the `appsettings.json` the host reads, e.g.
    /// `json!({ "Plugins": { "Config": { "Region": "eu" } } })` or
    /// `json!({ "Host": { "ToolTimeoutSeconds": 5 } })`.
    pub fn config(mut self, patch: Value) -> Self {
        merge(&mut self.config, patch);
        self
    }

    /// Uses this host binary instead of looking for one.
    pub fn host_binary(mut self, path: impl Into<PathBuf>) -> Self {
        self.binary = Some(path.into());
        self
    }

    /// How long to wait for each answer (30 seconds by default).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Extra command-line arguments for the host (after `--config FILE`).
    pub fn arg(mut self, arg: impl Into<String>) -> Self {
        self.args.push(arg.into());
        self
    }

    /// Declares client capabilities at `initialize`, e.g.
    /// `json!({ "roots": {} })`. Pair it with [`Self::answer`].
    pub fn capabilities(mut self, capabilities: Value) -> Self {
        self.capabilities = capabilities;
        self
    }

    /// Answers every server-to-client request of `method` (`roots/list`,
    /// `sampling/createMessage`, `elicitation/create`) with `result`. Other
    /// requests get a "method not found" error.
    pub fn answer(mut self, method: impl Into<String>, result: Value) -> Self {
        self.answers.insert(method.into(), result);
        self
    }

    /// Lays out the folder, checks the configuration with the host, starts
    /// it and initializes an MCP session.
    pub async fn start(self) -> Result<HostUnderTest, HostError> {
        let binary = match self.binary {
            Some(binary) => binary,
            None => host_binary()?,
        };
        let dir = TempDir::new()?;
        let plugins = dir.0.join("plugins");
        std::fs::create_dir(&plugins).map_err(io("creating the plugins folder"))?;
        for library in &self.libraries {
            let name = library.file_name().ok_or_else(|| HostError::NoLibrary(library.display().to_string()))?;
            if !library.is_file() {
                return Err(HostError::NoLibrary(library.display().to_string()));
            }
            std::fs::copy(library, plugins.join(name)).map_err(io(format!("copying {}", library.display())))?;
        }
        let mut config = json!({
            "Host": { "LogLevel": "info" },
            "Plugins": { "Directory": "plugins", "CacheFile": "plugin-cache.json" }
        });
        merge(&mut config, self.config);
        let config_file = dir.0.join("appsettings.json");
        let text = serde_json::to_string_pretty(&config).unwrap_or_default();
        std::fs::write(&config_file, text).map_err(io("writing appsettings.json"))?;

        let check = Command::new(&binary)
            .arg("--config")
            .arg(&config_file)
            .arg("check")
            .output()
            .await
            .map_err(io(format!("running {} check", binary.display())))?;
        if !check.status.success() {
            return Err(HostError::Refused(format!(
                "{}{}",
                String::from_utf8_lossy(&check.stdout),
                String::from_utf8_lossy(&check.stderr)
            )));
        }

        let mut child = Command::new(&binary)
            .arg("--config")
            .arg(&config_file)
            .args(&self.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .map_err(io(format!("starting {}", binary.display())))?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let shared = Arc::new(Shared::default());
        let writer = Arc::new(tokio::sync::Mutex::new(Some(stdin)));
        tokio::spawn(read_stdout(stdout, Arc::clone(&shared), Arc::clone(&writer), self.answers));
        let stderr_sink = Arc::clone(&shared);
        tokio::spawn(async move {
            let mut lines = BufReader::new(stderr).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                let mut text = lock(&stderr_sink.stderr);
                text.push_str(&line);
                text.push('\n');
            }
        });

        let mut host = HostUnderTest {
            child,
            writer,
            shared,
            next_id: AtomicU64::new(0),
            timeout: self.timeout,
            initialize: Value::Null,
            config_file,
            _dir: dir,
        };
        let initialize = host
            .request(
                "initialize",
                json!({
                    "protocolVersion": PROTOCOL_VERSION,
                    "capabilities": self.capabilities,
                    "clientInfo": { "name": "mcp-plugin-api-testkit", "version": env!("CARGO_PKG_VERSION") }
                }),
            )
            .await?;
        host.initialize = initialize;
        host.notify("notifications/initialized", json!({})).await?;
        Ok(host)
    }
}

#[derive(Default)]
struct Shared {
    pending: Mutex<HashMap<u64, oneshot::Sender<Value>>>,
    notifications: Mutex<Vec<Value>>,
    stderr: Mutex<String>,
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

type Writer = Arc<tokio::sync::Mutex<Option<ChildStdin>>>;

/// Routes each line the host writes: responses to their waiting request,
/// server-to-client requests to a canned answer, notifications to the list.
async fn read_stdout(
    stdout: tokio::process::ChildStdout,
    shared: Arc<Shared>,
    writer: Writer,
    answers: HashMap<String, Value>,
) {
    let mut lines = BufReader::new(stdout).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        let Ok(message) = serde_json::from_str::<Value>(&line) else {
            // stdout must carry JSON-RPC only; keep the evidence where a failing test shows it.
            lock(&shared.stderr).push_str(&format!("[testkit] non-JSON line on the host's stdout: {line}\n"));
            continue;
        };
        match (message.get("id"), message.get("method")) {
            (Some(id), Some(method)) => {
                let method = method.as_str().unwrap_or_default();
                let reply = match answers.get(method) {
                    Some(result) => json!({ "jsonrpc": "2.0", "id": id, "result": result }),
                    None => json!({ "jsonrpc": "2.0", "id": id, "error": {
                        "code": -32601, "message": format!("the test client does not answer {method}") } }),
                };
                if let Some(stdin) = writer.lock().await.as_mut() {
                    let _ = stdin.write_all(format!("{reply}\n").as_bytes()).await;
                    let _ = stdin.flush().await;
                }
            }
            (Some(id), None) => {
                let sender = id.as_u64().and_then(|id| lock(&shared.pending).remove(&id));
                if let Some(sender) = sender {
                    let _ = sender.send(message);
                }
            }
            _ => lock(&shared.notifications).push(message),
        }
    }
    // The host closed stdout: fail whoever still waits.
    lock(&shared.pending).clear();
}

/// The real host, running with the plugin libraries under test, and an
/// initialized MCP session with it over stdio.
pub struct HostUnderTest {
    child: Child,
    writer: Writer,
    shared: Arc<Shared>,
    next_id: AtomicU64,
    timeout: Duration,
    initialize: Value,
    config_file: PathBuf,
    // Dropped last: the folder outlives the process that reads it.
    _dir: TempDir,
}

impl HostUnderTest {
    /// Starts the host with one plugin library and default settings.
    pub async fn start(library: impl Into<PathBuf>) -> Result<Self, HostError> {
        Self::builder(library).start().await
    }

    /// A builder, to add settings, libraries or client capabilities first.
    pub fn builder(library: impl Into<PathBuf>) -> HostBuilder {
        HostBuilder {
            libraries: vec![library.into()],
            config: json!({}),
            binary: None,
            timeout: Duration::from_secs(30),
            capabilities: json!({}),
            answers: HashMap::new(),
            args: Vec::new(),
        }
    }

    /// The host's answer to `initialize` (server info, capabilities).
    pub fn initialize_result(&self) -> &Value {
        &self.initialize
    }

    /// The `appsettings.json` the host was started with.
    pub fn config_file(&self) -> &Path {
        &self.config_file
    }

    /// Sends a request and returns its `result`; a JSON-RPC error becomes
    /// [`HostError::Rpc`].
    pub async fn request(&self, method: &str, params: Value) -> Result<Value, HostError> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed) + 1;
        let (sender, receiver) = oneshot::channel();
        lock(&self.shared.pending).insert(id, sender);
        let message = json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
        if self.send(&message).await.is_err() {
            lock(&self.shared.pending).remove(&id);
            return Err(HostError::Exited { method: method.to_owned(), stderr: self.stderr() });
        }
        let answer = match tokio::time::timeout(self.timeout, receiver).await {
            Ok(Ok(answer)) => answer,
            Ok(Err(_)) => return Err(HostError::Exited { method: method.to_owned(), stderr: self.stderr() }),
            Err(_) => {
                lock(&self.shared.pending).remove(&id);
                return Err(HostError::Timeout {
                    method: method.to_owned(),
                    timeout: self.timeout,
                    stderr: self.stderr(),
                });
            }
        };
        if let Some(error) = answer.get("error") {
            return Err(HostError::Rpc {
                method: method.to_owned(),
                code: error["code"].as_i64().unwrap_or_default(),
                message: error["message"].as_str().unwrap_or_default().to_owned(),
            });
        }
        answer
            .get("result")
            .cloned()
            .ok_or_else(|| HostError::Protocol { method: method.to_owned(), answer: answer.to_string() })
    }

    /// Sends a notification (`notifications/cancelled`, …).
    pub async fn notify(&self, method: &str, params: Value) -> Result<(), HostError> {
        let message = json!({ "jsonrpc": "2.0", "method": method, "params": params });
        self.send(&message).await.map_err(|_| HostError::Exited { method: method.to_owned(), stderr: self.stderr() })
    }

    async fn send(&self, message: &Value) -> std::io::Result<()> {
        let mut writer = self.writer.lock().await;
        let stdin = writer.as_mut().ok_or_else(|| std::io::Error::other("stdin is closed"))?;
        stdin.write_all(format!("{message}\n").as_bytes()).await?;
        stdin.flush().await
    }

    /// Every tool the host serves, as `tools/list` describes them (all pages).
    pub async fn list_tools(&self) -> Result<Vec<Value>, HostError> {
        let mut tools = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let params = match &cursor {
                Some(cursor) => json!({ "cursor": cursor }),
                None => json!({}),
            };
            let page = self.request("tools/list", params).await?;
            let listed = page["tools"]
                .as_array()
                .ok_or_else(|| HostError::Protocol { method: "tools/list".to_owned(), answer: page.to_string() })?;
            tools.extend(listed.iter().cloned());
            match page.get("nextCursor").and_then(Value::as_str) {
                Some(next) => cursor = Some(next.to_owned()),
                None => return Ok(tools),
            }
        }
    }

    /// Calls a tool and returns its result as the client sees it (an error
    /// result, such as invalid arguments, is `Ok` with `is_error` set).
    pub async fn call_tool(&self, name: &str, arguments: Value) -> Result<ToolResult, HostError> {
        let result = self.request("tools/call", json!({ "name": name, "arguments": arguments })).await?;
        serde_json::from_value(result.clone())
            .map_err(|_| HostError::Protocol { method: "tools/call".to_owned(), answer: result.to_string() })
    }

    /// The notifications received so far (`notifications/message`,
    /// `notifications/progress`, …), in order.
    pub fn notifications(&self) -> Vec<Value> {
        lock(&self.shared.notifications).clone()
    }

    /// What the host wrote to stderr so far (its log).
    pub fn stderr(&self) -> String {
        lock(&self.shared.stderr).clone()
    }

    /// Closes the host's stdin, which ends the session, and waits (up to
    /// ten seconds) for it to exit.
    pub async fn shutdown(mut self) -> Result<ExitStatus, HostError> {
        drop(self.writer.lock().await.take());
        match tokio::time::timeout(Duration::from_secs(10), self.child.wait()).await {
            Ok(status) => status.map_err(io("waiting for the host to exit")),
            Err(_) => Err(HostError::Timeout {
                method: "shutdown".to_owned(),
                timeout: Duration::from_secs(10),
                stderr: self.stderr(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn never_build(_: &Path) -> Result<PathBuf, String> {
        panic!("no build may happen here")
    }

    /// A folder with an executable-named file in `bin/` and a checkout with a release build.
    fn layout() -> (TempDir, PathBuf, PathBuf) {
        let dir = TempDir::new().unwrap();
        let name = format!("mcp-plugin-host{}", std::env::consts::EXE_SUFFIX);
        let bin = dir.0.join("bin");
        let release = dir.0.join("checkout").join("target").join("release");
        std::fs::create_dir_all(&bin).unwrap();
        std::fs::create_dir_all(&release).unwrap();
        std::fs::write(bin.join(&name), "").unwrap();
        std::fs::write(release.join(&name), "").unwrap();
        (dir, bin.join(&name), release.join(&name))
    }

    #[test]
    fn the_variable_then_path_then_the_checkouts_release_build() {
        let (dir, on_path, release) = layout();
        let checkout = dir.0.join("checkout");
        let mut search = HostSearch {
            variable: Some(on_path.clone().into_os_string()),
            path: Some(std::env::join_paths([dir.0.join("empty"), dir.0.join("bin")]).unwrap()),
            own_checkout: None,
            api_checkout: Some(&checkout),
        };
        assert_eq!(search.find(never_build).unwrap(), (on_path.clone(), HostSource::Variable));
        search.variable = None;
        assert_eq!(search.find(never_build).unwrap(), (on_path, HostSource::Path));
        search.path = None;
        assert_eq!(search.find(never_build).unwrap(), (release, HostSource::CheckoutRelease));
    }

    #[test]
    fn a_plugin_of_another_checkout_never_builds_a_host_and_is_told_how_to_get_one() {
        let (dir, _, _) = layout();
        let checkout = dir.0.join("no-build-here");
        let search = HostSearch { variable: None, path: None, own_checkout: None, api_checkout: Some(&checkout) };
        let error = search.find(never_build).unwrap_err();
        assert!(!error.contains('\n'), "one line: {error}");
        assert!(error.contains(HOST_BIN_ENV) && error.contains("PATH"), "{error}");
        assert!(error.contains(&format!("cargo build --release -p mcp-plugin-host` in {}", checkout.display())));
        let registry = HostSearch { variable: None, path: None, own_checkout: None, api_checkout: None };
        assert!(!registry.find(never_build).unwrap_err().contains("cargo build"));
    }

    #[test]
    fn the_checkouts_own_plugins_use_its_own_build_and_a_bad_variable_is_named() {
        let (dir, _, _) = layout();
        let checkout = dir.0.join("checkout");
        let search =
            HostSearch { variable: None, path: None, own_checkout: Some(&checkout), api_checkout: Some(&checkout) };
        let built = search.find(|at| Ok(at.join("built"))).unwrap();
        assert_eq!(built, (checkout.join("built"), HostSource::OwnCheckout));
        let bad =
            HostSearch { variable: Some("/no/such/host".into()), path: None, own_checkout: None, api_checkout: None };
        assert!(bad.find(never_build).unwrap_err().contains("/no/such/host"));
    }
}
