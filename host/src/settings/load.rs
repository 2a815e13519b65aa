//! The host's configuration: `appsettings.json`, overridden by environment
//! variables, overridden by command-line flags.
//!
//! Keys are matched without regard to case, as .NET's configuration does,
//! so `Plugins:Directory` in the file, `MCP_PLUGIN_HOST__PLUGINS__DIRECTORY`
//! in the environment and `--plugin-dir` on the command line all set the
//! same value. Relative paths are resolved against the configuration
//! file's folder, never the working directory, so the same file works from
//! anywhere. Like .NET's `appsettings.json`, the file may carry `//` and
//! `/* */` comments.

use std::{
    collections::BTreeMap,
    net::SocketAddr,
    path::{Path, PathBuf},
    time::Duration,
};

use std::io::Read;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use schemars::JsonSchema;

use crate::{config_schema, surface::Patterns};

/// The prefix of environment variables that override the file; `__`
/// separates the prefix and each level of keys.
pub const ENV_PREFIX: &str = "MCP_PLUGIN_HOST";

/// Default for `Host.MaxMessageBytes`: 16 MiB, the limit rmcp's own transports use, so a
/// message acceptable over HTTP is acceptable over stdio.
pub const DEFAULT_MAX_MESSAGE_BYTES: usize = 16 * 1024 * 1024;

/// Why the configuration could not be used.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    /// The file is not there.
    #[error("configuration file {path} does not exist")]
    Missing {
        /// The path that was tried.
        path: PathBuf,
    },
    /// The file or an override could not be parsed, or a value has the wrong type.
    #[error("configuration file {path} is invalid: {reason}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong, as precisely as the parser says.
        reason: String,
    },
}

/// Everything the host reads from configuration.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The file the settings came from.
    pub path: PathBuf,
    /// Server identity, logging and call limits.
    pub host: HostSettings,
    /// The streamable HTTP transport.
    pub http: HttpSettings,
    /// Where plugins are and which are enabled.
    pub plugins: PluginSettings,
    /// What of the plugins' offer is served, and under which names
    /// (`Tools`, `Prompts` and `Resources` sections).
    pub surface: SurfaceSettings,
    /// Where metrics and traces are exported (`Telemetry` section).
    pub telemetry: TelemetrySettings,
}

/// Server identity, logging and call limits (`Host` section).
#[derive(Debug, Clone)]
pub struct HostSettings {
    /// The name the server gives in `initialize`.
    pub server_name: String,
    /// The host's log filter (`RUST_LOG` syntax); `RUST_LOG` overrides it.
    pub log_level: String,
    /// The longest a tool call may run; `None` means no limit.
    pub tool_timeout: Option<Duration>,
    /// Per-tool limits that override [`Self::tool_timeout`].
    pub tool_timeouts: BTreeMap<String, Duration>,
    /// The longest a prompt may take to render (`prompts/get`); `None` means no limit.
    pub prompt_timeout: Option<Duration>,
    /// The longest a resource read may take (`resources/read`); `None` means no limit.
    pub resource_timeout: Option<Duration>,
    /// The longest a completion may take (`completion/complete`); `None` means no limit.
    pub completion_timeout: Option<Duration>,
    /// How long before its time limit a request is asked to stop (its cancel
    /// signal), so that it can wind down and report partial output by then;
    /// after a client's cancel or at shutdown, how long it may wind down
    /// before the host drops it.
    pub cancel_grace: Duration,
    /// The longest JSON-RPC message accepted on stdio; a longer one is
    /// answered with an error instead of being read into memory.
    pub max_message_bytes: usize,
    /// Where the lock files that plugins' locks take live, shared by every
    /// host process of the user; `None` keeps locks within this process.
    pub lock_directory: Option<PathBuf>,
    /// How each log record is written (`Host.LogFormat`).
    pub log_format: LogFormat,
    /// A file that receives the log besides stderr (`Host.LogFile`), for
    /// clients that hide or drop a server's stderr.
    pub log_file: Option<PathBuf>,
}

/// How log records are written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum LogFormat {
    /// One line of text a record (the default).
    #[default]
    Text,
    /// One JSON object a line, for log collectors.
    Json,
}

/// Where metrics and traces go (`Telemetry` section); see `crate::telemetry`.
#[derive(Debug, Clone, PartialEq)]
pub struct TelemetrySettings {
    /// The OTLP/HTTP collector's base URL (`Telemetry.OtlpEndpoint`, else the
    /// standard `OTEL_EXPORTER_OTLP_ENDPOINT`); `None` exports nothing.
    pub otlp_endpoint: Option<String>,
    /// How OTLP is encoded (`Telemetry.OtlpProtocol`, else the standard
    /// `OTEL_EXPORTER_OTLP_PROTOCOL`; default `http/protobuf`).
    pub otlp_protocol: OtlpProtocol,
    /// How often metrics are pushed, and the longest a finished span waits
    /// to be sent (at most 5 s) (`Telemetry.ExportIntervalSeconds`, default 60).
    pub export_interval: Duration,
}

/// The OTLP encodings the host speaks (both over HTTP).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum OtlpProtocol {
    /// `http/protobuf`, the OTLP default.
    #[default]
    HttpProtobuf,
    /// `http/json`.
    HttpJson,
}

/// The streamable HTTP transport (`Http` section).
#[derive(Debug, Clone)]
pub struct HttpSettings {
    /// Where to listen when `--http` gives no address.
    pub address: SocketAddr,
    /// Extra `Host` header values to accept besides loopback names.
    pub allowed_hosts: Vec<String>,
    /// Browser origins to accept; empty means requests with an `Origin`
    /// header are accepted only from loopback origins.
    pub allowed_origins: Vec<String>,
    /// A bearer token every request must carry; required for a
    /// non-loopback address. From `Http.BearerToken`, or read from the file
    /// `Http.BearerTokenFile` names, so that the token need not sit in the
    /// configuration.
    pub bearer_token: Option<String>,
}

/// Plugin discovery and configuration (`Plugins` section).
#[derive(Debug, Clone)]
pub struct PluginSettings {
    /// The folder scanned for plugin libraries.
    pub directory: PathBuf,
    /// Only these plugins are served; `None` serves all that are found.
    pub enabled: Option<Vec<String>>,
    /// These plugins are never served.
    pub disabled: Vec<String>,
    /// Each plugin's own section, by plugin name.
    pub settings: Map<String, Value>,
    /// `Plugins.Config`: values shared by every plugin.
    pub shared: Map<String, Value>,
    /// Whether a library the plugin cache knows, unchanged, is created on
    /// first use instead of at start-up (`Plugins.LazyLoading`, default true).
    pub lazy_loading: bool,
    /// The plugin cache file (`Plugins.CacheFile`; default under the user's
    /// cache folder; an empty string turns the cache off).
    pub cache_file: Option<PathBuf>,
    /// Whether the serving host watches the plugin folder and the
    /// configuration file and applies changes without a restart
    /// (`Plugins.Watch`, default true; SIGHUP reloads either way).
    pub watch: bool,
    /// How long the watched files must stay unchanged (size and time)
    /// before a change is applied, so a library still being copied in is
    /// not taken for a broken one (`Plugins.WatchQuietMs`, default 300).
    pub watch_quiet: Duration,
    /// How each plugin runs, by name, `*` for the rest (`Plugins.Isolation`).
    pub isolation: BTreeMap<String, Isolation>,
    /// The confinement of each worker, by name, `*` for the defaults (`Plugins.Workers`).
    pub workers: BTreeMap<String, WorkerLimits>,
    /// The lock file pinning each library's bytes and offer (`Plugins.LockFile`;
    /// default `plugins.lock.json` beside the configuration; `None`: no lock).
    pub lock_file: Option<PathBuf>,
    /// Whether a library the lock does not vouch for is refused rather than
    /// served with a warning (`Plugins.RequireLock`); `None` means: refused
    /// once the lock file exists (see `crate::trust`).
    pub require_lock: Option<bool>,
}

/// What confines one plugin's worker process (`Plugins.Workers`), resolved.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkerLimits {
    /// RLIMIT_AS in MiB.
    pub memory_mb: Option<u64>,
    /// RLIMIT_CPU in seconds.
    pub cpu_seconds: Option<u64>,
    /// Whether Landlock confines file access (Linux; `None` means the default, on).
    pub landlock: Option<bool>,
    /// Extra readable paths.
    pub read_paths: Option<Vec<PathBuf>>,
    /// Extra writable paths.
    pub write_paths: Option<Vec<PathBuf>>,
    /// Extra environment variables passed on.
    pub environment: Option<Vec<String>>,
    /// Failures within a minute before the plugin is given up.
    pub max_failures: Option<u32>,
}

impl WorkerLimits {
    fn from_raw(base: &Path, raw: RawWorker) -> Self {
        let paths = |paths: Option<Vec<String>>| paths.map(|paths| paths.iter().map(|path| base.join(path)).collect());
        Self {
            memory_mb: raw.memory_mb,
            cpu_seconds: raw.cpu_seconds,
            landlock: raw.landlock,
            read_paths: paths(raw.read_paths),
            write_paths: paths(raw.write_paths),
            environment: raw.environment,
            max_failures: raw.max_failures,
        }
    }

    /// These limits, with what they leave unset taken from `defaults`.
    fn or(self, defaults: &Self) -> Self {
        Self {
            memory_mb: self.memory_mb.or(defaults.memory_mb),
            cpu_seconds: self.cpu_seconds.or(defaults.cpu_seconds),
            landlock: self.landlock.or(defaults.landlock),
            read_paths: self.read_paths.or_else(|| defaults.read_paths.clone()),
            write_paths: self.write_paths.or_else(|| defaults.write_paths.clone()),
            environment: self.environment.or_else(|| defaults.environment.clone()),
            max_failures: self.max_failures.or(defaults.max_failures),
        }
    }
}

/// The operator's control of what is served (`Tools`, `Prompts`,
/// `Resources` sections); see `crate::surface` for how it applies.
#[derive(Debug, Clone, Default)]
pub struct SurfaceSettings {
    /// Which tools are served (`Tools.Enabled`, `Tools.Disabled`).
    pub tools: ItemFilter,
    /// How tool names are prefixed with their plugin's name (`Tools.Prefix`).
    pub prefix: PrefixSettings,
    /// Title, description, annotations and argument defaults per tool
    /// (`Tools.Overrides`), keyed by served name or `<plugin>/<tool>`.
    pub overrides: BTreeMap<String, ToolOverride>,
    /// Which prompts are served (`Prompts.Enabled`, `Prompts.Disabled`).
    pub prompts: ItemFilter,
    /// Which resources and templates are served (`Resources.Enabled`, `Resources.Disabled`).
    pub resources: ItemFilter,
}

/// Glob patterns that select items: served when some `enabled` pattern
/// matches and no `disabled` one does.
#[derive(Debug, Clone, Default)]
pub struct ItemFilter {
    /// `None` serves every item.
    pub enabled: Option<Patterns>,
    /// Never served.
    pub disabled: Patterns,
}

/// Whether a plugin's tools are served under `<plugin>__<tool>`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PrefixMode {
    /// Never: a tool whose name another plugin took first is refused.
    #[default]
    None,
    /// Always.
    Plugin,
    /// Only a tool whose name another served plugin's tool also has.
    OnCollision,
}

/// `Tools.Prefix`: one mode for all plugins, or one per plugin name.
#[derive(Debug, Clone, Default)]
pub struct PrefixSettings {
    /// The mode of plugins not named in [`Self::per_plugin`] (`"*"` in the map form).
    pub default: PrefixMode,
    /// Modes by plugin name (matched without regard to case).
    pub per_plugin: BTreeMap<String, PrefixMode>,
}

impl PrefixSettings {
    /// The mode for plugin `name`.
    pub fn mode_for(&self, name: &str) -> PrefixMode {
        self.per_plugin
            .iter()
            .find(|(plugin, _)| plugin.eq_ignore_ascii_case(name))
            .map_or(self.default, |(_, mode)| *mode)
    }
}

/// What the operator changes in one tool's description (`Tools.Overrides.<tool>`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ToolOverride {
    /// Replaces the tool's `title`.
    pub title: Option<String>,
    /// Replaces the tool's `description`.
    pub description: Option<String>,
    /// Replaces these annotation hints; the others stay as the plugin set them.
    pub annotations: AnnotationOverrides,
    /// Argument values filled in when a call leaves them out, before the
    /// arguments are validated; listed as `default` in the input schema.
    pub defaults: Map<String, Value>,
}

/// The MCP tool annotation hints an operator may set.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AnnotationOverrides {
    /// `readOnlyHint`.
    pub read_only: Option<bool>,
    /// `destructiveHint`.
    pub destructive: Option<bool>,
    /// `idempotentHint`.
    pub idempotent: Option<bool>,
    /// `openWorldHint`.
    pub open_world: Option<bool>,
}

impl PluginSettings {
    /// Whether a plugin of that name should be served.
    pub fn is_enabled(&self, name: &str) -> bool {
        let listed = |names: &[String]| names.iter().any(|entry| entry.eq_ignore_ascii_case(name));
        let wanted = self.enabled.as_deref().is_none_or(listed);
        wanted && !listed(&self.disabled)
    }

    /// A plugin's own section (an empty object when there is none).
    pub fn section(&self, name: &str) -> Value {
        get_ci(&self.settings, name).cloned().unwrap_or_else(|| Value::Object(Map::new()))
    }

    /// How plugin `name` runs: its own entry in `Plugins.Isolation`, else `*`, else in process.
    pub fn isolation(&self, name: &str) -> Isolation {
        by_name(&self.isolation, name).copied().unwrap_or_default()
    }

    /// Whether some plugin may run in a worker (an entry of `Plugins.Isolation` is `process`):
    /// then a library not known yet is opened in a probe worker first, never in the host.
    pub fn may_isolate(&self) -> bool {
        self.isolation.values().any(|isolation| *isolation == Isolation::Process)
    }

    /// What confines a worker before its plugin is known (a probe): the `*` entry.
    pub fn default_worker_limits(&self) -> WorkerLimits {
        self.workers.get("*").cloned().unwrap_or_default()
    }

    /// What confines plugin `name`'s worker: its own entry over the `*` entry.
    pub fn worker_limits(&self, name: &str) -> WorkerLimits {
        let defaults = self.workers.get("*").cloned().unwrap_or_default();
        let own = self.workers.iter().find(|(key, _)| key.eq_ignore_ascii_case(name) && *key != "*");
        own.map(|(_, limits)| limits.clone()).unwrap_or_default().or(&defaults)
    }
}

/// Overrides that come from command-line flags.
#[derive(Debug, Default, Clone)]
pub struct Overrides {
    /// `--plugin-dir`.
    pub plugin_dir: Option<PathBuf>,
    /// `--log-level`.
    pub log_level: Option<String>,
    /// `--server-name`.
    pub server_name: Option<String>,
    /// `--tool-timeout` in seconds.
    pub tool_timeout_secs: Option<u64>,
}

/// The file's shape: the single source of the settings there are.
///
/// To add a setting, add a field to one of these `Raw*` structs (snake_case: `log_format` is the
/// key `LogFormat`; a field spelled `logformat` would be `Logformat`) with a doc comment (the
/// key's description in the schema), read it in [`Settings::from_raw`] and list it in README.md's
/// table. That is all: the key check (an unknown key is an error naming the closest known one),
/// `config-schema` and the committed `appsettings.schema.json` derive from these types. A new
/// section is a field here holding a new struct with the same derives and serde attributes. Keys
/// that belong to others (plugin or tool names) live in maps, which the key check does not judge.
/// Then run `cargo run -p mcp-plugin-host -- config-schema > appsettings.schema.json`; the
/// host's tests (tests/config.rs) fail until the committed schema and README match. Every field
/// is optional: the defaults live in [`Settings::from_raw`].
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default, rename_all = "PascalCase", deny_unknown_fields)]
#[schemars(
    title = "mcp-plugin-host configuration (appsettings.json)",
    description = "Keys are matched without regard to case; environment variables \
                   MCP_PLUGIN_HOST__<SECTION>__<KEY> override them."
)]
pub(crate) struct Raw {
    /// The JSON Schema this file follows, for editors; the host ignores it.
    #[serde(rename = "$schema")]
    schema: Option<String>,
    /// Server identity, logging and call limits.
    host: RawHost,
    /// The streamable HTTP transport (`mcp-plugin-host --http`).
    http: RawHttp,
    /// Where plugins are, which are served, and their settings.
    plugins: RawPlugins,
    /// Which tools are served, under which names, with which overrides.
    tools: RawTools,
    /// Which prompts are served.
    prompts: RawFilter,
    /// Which resources and resource templates are served.
    resources: RawFilter,
    /// Where the host's metrics and spans are exported over OTLP.
    telemetry: RawTelemetry,
}

/// `Telemetry` section.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default, rename_all = "PascalCase", deny_unknown_fields)]
struct RawTelemetry {
    /// An OTLP/HTTP collector's base URL, such as http://127.0.0.1:4318 (default: none, or
    /// OTEL_EXPORTER_OTLP_ENDPOINT).
    otlp_endpoint: Option<String>,
    /// "http/protobuf" (default) or "http/json" (or OTEL_EXPORTER_OTLP_PROTOCOL).
    otlp_protocol: Option<String>,
    /// How often metrics are pushed, in seconds (default: 60).
    export_interval_seconds: Option<f64>,
}

/// `Tools` section.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default, rename_all = "PascalCase", deny_unknown_fields)]
struct RawTools {
    /// Glob patterns over tool names; only matching tools are served ("*": all).
    enabled: Option<StringList>,
    /// Glob patterns over tool names; matching tools are never served.
    disabled: Option<StringList>,
    /// "none" (default), "plugin" (`<plugin>__<tool>`) or "on-collision"; or an object from
    /// plugin name (or "*") to one of those.
    prefix: Option<RawPrefix>,
    /// Per tool (served name or `<plugin>/<tool>`): title, description, annotations and
    /// argument defaults.
    overrides: BTreeMap<String, RawToolOverride>,
}

/// `Tools.Overrides.<tool>`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default, rename_all = "PascalCase", deny_unknown_fields)]
struct RawToolOverride {
    /// Replaces the tool's title.
    title: Option<String>,
    /// Replaces the tool's description.
    description: Option<String>,
    /// Replaces these MCP annotation hints; the others stay as the plugin set them.
    annotations: RawAnnotations,
    /// Argument values filled in when a call leaves them out (the plugin's argument names).
    defaults: Map<String, Value>,
}

/// `Tools.Overrides.<tool>.Annotations`: the MCP hints, under their MCP names.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
struct RawAnnotations {
    /// The tool does not change its environment.
    read_only_hint: Option<bool>,
    /// The tool may destroy data.
    destructive_hint: Option<bool>,
    /// Calling it twice with the same arguments does no more than once.
    idempotent_hint: Option<bool>,
    /// The tool reaches outside the machine.
    open_world_hint: Option<bool>,
}

/// `Prompts` and `Resources` sections.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default, rename_all = "PascalCase", deny_unknown_fields)]
struct RawFilter {
    /// Glob patterns over names (URIs for resources); only matching items are served ("*": all).
    enabled: Option<StringList>,
    /// Glob patterns over names (URIs for resources); matching items are never served.
    disabled: Option<StringList>,
}

/// `Tools.Prefix`: a mode, or a map from plugin name (or `*`) to mode.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
enum RawPrefix {
    All(String),
    PerPlugin(BTreeMap<String, String>),
}

/// `Host` section.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default, rename_all = "PascalCase", deny_unknown_fields)]
struct RawHost {
    /// The name MCP clients see for this server (default: mcp-plugin-host).
    server_name: Option<String>,
    /// Log filter in RUST_LOG syntax (default: info); RUST_LOG overrides it.
    log_level: Option<String>,
    /// The longest a tool call may run, in seconds; 0 for no limit (default: 600).
    tool_timeout_seconds: Option<f64>,
    /// Per-tool limits in seconds, by tool name, overriding ToolTimeoutSeconds.
    tool_timeouts: BTreeMap<String, f64>,
    /// The longest a prompt may take to render, in seconds; 0 for no limit (default: 60).
    prompt_timeout_seconds: Option<f64>,
    /// The longest a resource read may take, in seconds; 0 for no limit (default: 60).
    resource_timeout_seconds: Option<f64>,
    /// The longest a completion may take, in seconds; 0 for no limit (default: 10).
    completion_timeout_seconds: Option<f64>,
    /// How long before its time limit a request is asked to stop, so it can wind down and report
    /// partial output by the limit (at most a quarter of the limit); after a client's cancel or at
    /// shutdown, how long it may wind down before it is dropped (default: 2000).
    cancel_grace_ms: Option<u64>,
    /// The longest JSON-RPC message accepted on stdio (default: 16 MiB).
    max_message_bytes: Option<u64>,
    /// Where plugins' lock files live, shared by the user's host processes ("" keeps locks
    /// within one process; default: the user's runtime folder).
    lock_directory: Option<String>,
    /// The log's format: "text" (default) or "json", one object per line.
    log_format: Option<String>,
    /// A file the log is written to besides stderr, relative to this file.
    log_file: Option<String>,
}

/// `Http` section.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default, rename_all = "PascalCase", deny_unknown_fields)]
struct RawHttp {
    /// Where `--http` listens when it names no address (default: 127.0.0.1:8080).
    address: Option<String>,
    /// Extra `Host` header values accepted besides loopback names.
    allowed_hosts: Option<StringList>,
    /// Browser origins accepted besides loopback ones.
    allowed_origins: Option<StringList>,
    /// The bearer token every request must carry (required off loopback).
    bearer_token: Option<String>,
    /// A file holding the bearer token, relative to this file.
    bearer_token_file: Option<String>,
}

/// `Plugins` section.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default, rename_all = "PascalCase", deny_unknown_fields)]
struct RawPlugins {
    /// The folder scanned for plugin libraries, relative to this file (default: plugins).
    directory: Option<String>,
    /// Plugins served, by name ("*": every plugin found).
    enabled: Option<StringList>,
    /// Plugins never served, by name.
    disabled: Option<StringList>,
    /// Each plugin's own settings, by plugin name; each plugin declares their schema
    /// (`mcp-plugin-host check` validates them).
    settings: Map<String, Value>,
    /// Settings every plugin sees, e.g. DotnetPath for the dotnet plugins.
    config: Map<String, Value>,
    /// Create a plugin the cache knows, unchanged, on its first use (default: true).
    lazy_loading: Option<bool>,
    /// The plugin cache file ("" turns the cache off; default: the user's cache folder).
    cache_file: Option<String>,
    /// Apply changed libraries and configuration without a restart (default: true).
    watch: Option<bool>,
    /// How long a changed file must stay unchanged before it is applied (default: 300).
    watch_quiet_ms: Option<u64>,
    /// How each plugin runs, by plugin name ("*": every plugin not named): "in-process" (the
    /// default) or "process" (in a worker process of its own, where a crash costs only its calls).
    isolation: BTreeMap<String, Isolation>,
    /// The confinement of plugins that run in a worker process, by plugin name ("*": the
    /// defaults every worker starts from; a plugin's own entry overrides them key by key).
    workers: BTreeMap<String, RawWorker>,
    /// The lock file pinning each library's SHA-256 and offer, relative to this file
    /// (default: plugins.lock.json; "" means no lock); `mcp-plugin-host plugins lock` writes it.
    lock_file: Option<String>,
    /// Refuse a library the lock file does not vouch for, instead of serving it with a warning
    /// (default: true once the lock file exists, false before).
    require_lock: Option<bool>,
}

/// How a plugin runs (`Plugins.Isolation`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Isolation {
    /// Loaded into the host's process: fastest, but a crash of the plugin is a crash of the host.
    #[default]
    InProcess,
    /// Loaded into a confined worker process of its own, reached over a pipe.
    Process,
}

/// One entry of `Plugins.Workers`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(default, rename_all = "PascalCase", deny_unknown_fields)]
pub struct RawWorker {
    /// The worker's address-space limit in MiB (RLIMIT_AS; virtual memory, so leave room for
    /// thread stacks and allocator arenas; default: none).
    memory_mb: Option<u64>,
    /// The CPU time the worker may use over its life, in seconds (RLIMIT_CPU; default: none).
    cpu_seconds: Option<u64>,
    /// Confine the worker's file access with Landlock on Linux (default: true; best effort).
    landlock: Option<bool>,
    /// Paths the worker may read besides its library, the system folders and the dotnet install
    /// (relative to this file).
    read_paths: Option<Vec<String>>,
    /// Paths the worker may write besides the system temporary folder (relative to this file).
    write_paths: Option<Vec<String>>,
    /// Environment variables passed on to the worker besides those every process needs
    /// (PATH, HOME, TMPDIR, LANG, LC_*, USER, DOTNET_*).
    environment: Option<Vec<String>>,
    /// Failures of the worker within a minute after which the plugin is withdrawn, reported
    /// failed, until its library changes or the host restarts (default: 5).
    max_failures: Option<u32>,
}

/// A list given either as a JSON array or, from an environment variable,
/// as a comma-separated string.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
enum StringList {
    List(Vec<String>),
    Text(String),
}

impl StringList {
    fn into_vec(self) -> Vec<String> {
        match self {
            StringList::List(items) => items,
            StringList::Text(text) => {
                text.split(',').map(str::trim).filter(|item| !item.is_empty()).map(str::to_owned).collect()
            }
        }
    }
}

impl Settings {
    /// Reads `path`, applies the environment and then `overrides`. A key
    /// that is not a setting, in the file or the environment, is an error.
    pub fn load(path: &Path, overrides: &Overrides) -> Result<Self, SettingsError> {
        Self::load_with_env(path, overrides, std::env::vars())
    }

    /// As [`Self::load`], with the environment given explicitly (for tests).
    pub fn load_with_env(
        path: &Path,
        overrides: &Overrides,
        env: impl IntoIterator<Item = (String, String)>,
    ) -> Result<Self, SettingsError> {
        let (settings, unknown) = Self::load_listing_unknown(path, overrides, env)?;
        if unknown.is_empty() {
            Ok(settings)
        } else {
            Err(SettingsError::Invalid { path: path.to_owned(), reason: unknown.join("; ") })
        }
    }

    /// As [`Self::load_with_env`], but keys that are not settings are left
    /// out and described, so that `check` can list them with its other problems.
    pub fn load_listing_unknown(
        path: &Path,
        overrides: &Overrides,
        env: impl IntoIterator<Item = (String, String)>,
    ) -> Result<(Self, Vec<String>), SettingsError> {
        if !path.is_file() {
            return Err(SettingsError::Missing { path: path.to_owned() });
        }
        let invalid = |reason: String| SettingsError::Invalid { path: path.to_owned(), reason };
        let text = read_without_comments(path).map_err(|error| invalid(error.to_string()))?;
        let mut tree: Value = config::Config::builder()
            .add_source(config::File::from_str(&text, config::FileFormat::Json))
            .build()
            .and_then(config::Config::try_deserialize)
            .map_err(|error| invalid(error.to_string()))?;
        let schema = config_schema::schema();
        let mut unknown: Vec<String> =
            config_schema::canonicalize(&mut tree, &schema).iter().map(ToString::to_string).collect();
        let env: config::Map<String, String> = env.into_iter().collect();
        let standard_otlp = |name: &str| env.get(name).filter(|value| !value.trim().is_empty()).cloned();
        let (otlp_endpoint, otlp_protocol) =
            (standard_otlp("OTEL_EXPORTER_OTLP_ENDPOINT"), standard_otlp("OTEL_EXPORTER_OTLP_PROTOCOL"));
        let mut from_env: Value = config::Config::builder()
            .add_source(
                config::Environment::with_prefix(ENV_PREFIX)
                    .prefix_separator("__")
                    .separator("__")
                    .try_parsing(true)
                    .source(Some(env)),
            )
            .build()
            .and_then(config::Config::try_deserialize)
            .map_err(|error| invalid(format!("environment override: {error}")))?;
        unknown.extend(config_schema::canonicalize(&mut from_env, &schema).iter().map(|key| {
            let variable: Vec<String> = key.path.iter().map(|part| part.to_ascii_uppercase()).collect();
            format!("environment variable {ENV_PREFIX}__{}: {key}", variable.join("__"))
        }));
        merge_ci(&mut tree, from_env);
        let mut raw: Raw = serde_path_to_error::deserialize(tree)
            .map_err(|error| invalid(format!("{}: {}", error.path(), error.inner())))?;
        // The standard OpenTelemetry variables, where the host's own keys say nothing.
        raw.telemetry.otlp_endpoint = raw.telemetry.otlp_endpoint.or(otlp_endpoint);
        raw.telemetry.otlp_protocol = raw.telemetry.otlp_protocol.or(otlp_protocol);
        let base = path.parent().unwrap_or(Path::new("."));
        Ok((Self::from_raw(path, base, raw, overrides).map_err(invalid)?, unknown))
    }

    fn from_raw(path: &Path, base: &Path, raw: Raw, overrides: &Overrides) -> Result<Self, String> {
        let seconds = |key: &str, value: f64| {
            if value.is_finite() && value >= 0.0 {
                Ok(Duration::from_secs_f64(value))
            } else {
                Err(format!("{key} must be a non-negative number of seconds, not {value}"))
            }
        };
        // A limit in seconds, `default` when unset, none when 0.
        let limit = |key: &str, value: Option<f64>, default: u64| match value {
            None => Ok::<_, String>(Some(Duration::from_secs(default))),
            Some(secs) => Ok(Some(seconds(key, secs)?).filter(|limit: &Duration| !limit.is_zero())),
        };
        let tool_timeout = limit(
            "Host.ToolTimeoutSeconds",
            overrides.tool_timeout_secs.map(|secs| secs as f64).or(raw.host.tool_timeout_seconds),
            600,
        )?;
        let prompt_timeout = limit("Host.PromptTimeoutSeconds", raw.host.prompt_timeout_seconds, 60)?;
        let resource_timeout = limit("Host.ResourceTimeoutSeconds", raw.host.resource_timeout_seconds, 60)?;
        let completion_timeout = limit("Host.CompletionTimeoutSeconds", raw.host.completion_timeout_seconds, 10)?;
        let tool_timeouts = raw
            .host
            .tool_timeouts
            .into_iter()
            .map(|(tool, secs)| Ok((tool.clone(), seconds(&format!("Host.ToolTimeouts.{tool}"), secs)?)))
            .collect::<Result<_, String>>()?;
        let address = raw.http.address.unwrap_or_else(|| "127.0.0.1:8080".to_owned());
        let address = address
            .parse()
            .map_err(|_| format!("Http.Address '{address}' is not an address such as 127.0.0.1:8080"))?;
        let directory = overrides
            .plugin_dir
            .clone()
            .or(raw.plugins.directory.map(PathBuf::from))
            .unwrap_or_else(|| PathBuf::from("plugins"));
        Ok(Self {
            path: path.to_owned(),
            host: HostSettings {
                server_name: overrides
                    .server_name
                    .clone()
                    .or(raw.host.server_name)
                    .unwrap_or_else(|| env!("CARGO_PKG_NAME").to_owned()),
                log_level: overrides.log_level.clone().or(raw.host.log_level).unwrap_or_else(|| "info".to_owned()),
                tool_timeout,
                tool_timeouts,
                prompt_timeout,
                resource_timeout,
                completion_timeout,
                cancel_grace: Duration::from_millis(raw.host.cancel_grace_ms.unwrap_or(2000)),
                max_message_bytes: match raw.host.max_message_bytes {
                    None => DEFAULT_MAX_MESSAGE_BYTES,
                    Some(0) => return Err("Host.MaxMessageBytes must be at least 1".to_owned()),
                    Some(bytes) => usize::try_from(bytes).unwrap_or(usize::MAX),
                },
                lock_directory: match raw.host.lock_directory {
                    Some(directory) if directory.is_empty() => None,
                    Some(directory) => Some(base.join(directory)),
                    None => default_lock_directory(),
                },
                log_format: match raw.host.log_format.as_deref().map(str::to_ascii_lowercase).as_deref() {
                    None | Some("text") => LogFormat::Text,
                    Some("json") => LogFormat::Json,
                    Some(_) => {
                        let text = raw.host.log_format.unwrap_or_default();
                        return Err(format!("Host.LogFormat must be \"text\" or \"json\", not \"{text}\""));
                    }
                },
                log_file: raw.host.log_file.filter(|file| !file.is_empty()).map(|file| base.join(file)),
            },
            http: HttpSettings {
                address,
                allowed_hosts: raw.http.allowed_hosts.map(StringList::into_vec).unwrap_or_default(),
                allowed_origins: raw.http.allowed_origins.map(StringList::into_vec).unwrap_or_default(),
                bearer_token: bearer_token(base, raw.http.bearer_token, raw.http.bearer_token_file)?,
            },
            plugins: PluginSettings {
                directory: base.join(directory),
                enabled: raw
                    .plugins
                    .enabled
                    .map(StringList::into_vec)
                    .filter(|names| !names.iter().any(|name| name == "*")),
                disabled: raw.plugins.disabled.map(StringList::into_vec).unwrap_or_default(),
                settings: raw.plugins.settings,
                shared: raw.plugins.config,
                lazy_loading: raw.plugins.lazy_loading.unwrap_or(true),
                cache_file: match raw.plugins.cache_file {
                    Some(file) if file.is_empty() => None,
                    Some(file) => Some(base.join(file)),
                    None => default_cache_file(),
                },
                watch: raw.plugins.watch.unwrap_or(true),
                watch_quiet: Duration::from_millis(raw.plugins.watch_quiet_ms.unwrap_or(300)),
                isolation: raw.plugins.isolation,
                workers: raw
                    .plugins
                    .workers
                    .into_iter()
                    .map(|(name, raw)| (name, WorkerLimits::from_raw(base, raw)))
                    .collect(),
                lock_file: match raw.plugins.lock_file {
                    Some(file) if file.is_empty() => None,
                    Some(file) => Some(base.join(file)),
                    None => Some(base.join("plugins.lock.json")),
                },
                require_lock: raw.plugins.require_lock,
            },
            surface: SurfaceSettings {
                tools: ItemFilter::from_raw("Tools", raw.tools.enabled, raw.tools.disabled)?,
                prefix: match raw.tools.prefix {
                    None => PrefixSettings::default(),
                    Some(RawPrefix::All(mode)) => {
                        PrefixSettings { default: prefix_mode("Tools.Prefix", &mode)?, per_plugin: BTreeMap::new() }
                    }
                    Some(RawPrefix::PerPlugin(modes)) => {
                        let mut prefix = PrefixSettings::default();
                        for (plugin, mode) in modes {
                            let mode = prefix_mode(&format!("Tools.Prefix.{plugin}"), &mode)?;
                            if plugin == "*" {
                                prefix.default = mode;
                            } else {
                                prefix.per_plugin.insert(plugin, mode);
                            }
                        }
                        prefix
                    }
                },
                overrides: raw.tools.overrides.into_iter().map(|(tool, raw)| (tool, ToolOverride::from(raw))).collect(),
                prompts: ItemFilter::from_raw("Prompts", raw.prompts.enabled, raw.prompts.disabled)?,
                resources: ItemFilter::from_raw("Resources", raw.resources.enabled, raw.resources.disabled)?,
            },
            telemetry: TelemetrySettings::from_raw(raw.telemetry)?,
        })
    }

    /// The time limit for one call of `tool`.
    pub fn timeout_for(&self, tool: &str) -> Option<Duration> {
        self.host.tool_timeouts.get(tool).copied().or(self.host.tool_timeout)
    }
}

impl TelemetrySettings {
    fn from_raw(raw: RawTelemetry) -> Result<Self, String> {
        let otlp_endpoint = match raw.otlp_endpoint.map(|url| url.trim().trim_end_matches('/').to_owned()) {
            None => None,
            Some(url) if url.is_empty() => None,
            Some(url) if url.starts_with("http://") => Some(url),
            Some(url) => {
                return Err(format!(
                    "Telemetry.OtlpEndpoint must be an http:// URL such as http://127.0.0.1:4318, not \"{url}\" (the \
                     host speaks OTLP over plain HTTP; for TLS, export to a local collector that forwards)"
                ));
            }
        };
        let otlp_protocol = match raw.otlp_protocol.as_deref().map(str::trim) {
            None | Some("http/protobuf") => OtlpProtocol::HttpProtobuf,
            Some("http/json") => OtlpProtocol::HttpJson,
            Some(other) => {
                return Err(format!(
                    "Telemetry.OtlpProtocol must be \"http/protobuf\" or \"http/json\", not \"{other}\""
                ));
            }
        };
        let export_interval = match raw.export_interval_seconds {
            None => Duration::from_secs(60),
            Some(secs) if secs.is_finite() && secs >= 0.05 => Duration::from_secs_f64(secs),
            Some(secs) => {
                return Err(format!("Telemetry.ExportIntervalSeconds must be at least 0.05, not {secs}"));
            }
        };
        Ok(Self { otlp_endpoint, otlp_protocol, export_interval })
    }
}

impl ItemFilter {
    fn from_raw(section: &str, enabled: Option<StringList>, disabled: Option<StringList>) -> Result<Self, String> {
        let enabled = enabled.map(StringList::into_vec).filter(|patterns| !patterns.iter().any(|p| p == "*"));
        Ok(Self {
            enabled: enabled.map(|patterns| Patterns::new(&format!("{section}.Enabled"), patterns)).transpose()?,
            disabled: Patterns::new(
                &format!("{section}.Disabled"),
                disabled.map(StringList::into_vec).unwrap_or_default(),
            )?,
        })
    }
}

fn prefix_mode(key: &str, text: &str) -> Result<PrefixMode, String> {
    match text.to_ascii_lowercase().as_str() {
        "none" => Ok(PrefixMode::None),
        "plugin" => Ok(PrefixMode::Plugin),
        "on-collision" => Ok(PrefixMode::OnCollision),
        _ => Err(format!("{key} must be \"none\", \"plugin\" or \"on-collision\", not \"{text}\"")),
    }
}

impl From<RawToolOverride> for ToolOverride {
    fn from(raw: RawToolOverride) -> Self {
        let hints = raw.annotations;
        Self {
            title: raw.title,
            description: raw.description,
            annotations: AnnotationOverrides {
                read_only: hints.read_only_hint,
                destructive: hints.destructive_hint,
                idempotent: hints.idempotent_hint,
                open_world: hints.open_world_hint,
            },
            defaults: raw.defaults,
        }
    }
}

/// The file's text with its comments blanked out (line and column numbers
/// are kept, so parse errors still point at the right place).
fn read_without_comments(path: &Path) -> std::io::Result<String> {
    let mut text = String::new();
    json_comments::StripComments::new(std::fs::File::open(path)?).read_to_string(&mut text)?;
    Ok(text)
}

/// The HTTP bearer token: `Http.BearerToken`, or the contents of
/// `Http.BearerTokenFile` (surrounding whitespace, such as the final newline
/// an editor adds, is not part of it). Naming both is an error, as is a file
/// that cannot be read or holds no token.
fn bearer_token(base: &Path, token: Option<String>, file: Option<String>) -> Result<Option<String>, String> {
    let token = token.filter(|token| !token.is_empty());
    let Some(file) = file.filter(|file| !file.is_empty()) else { return Ok(token) };
    if token.is_some() {
        return Err("Http.BearerToken and Http.BearerTokenFile are both set; keep one".to_owned());
    }
    let file = base.join(file);
    let text = std::fs::read_to_string(&file)
        .map_err(|error| format!("Http.BearerTokenFile {} cannot be read: {error}", file.display()))?;
    match text.trim() {
        "" => Err(format!("Http.BearerTokenFile {} is empty", file.display())),
        token => Ok(Some(token.to_owned())),
    }
}

/// Where the plugin cache lives when `Plugins.CacheFile` does not say: the
/// platform's cache folder for this program (`$XDG_CACHE_HOME/mcp-plugin-host`
/// on Linux, `~/Library/Caches/mcp-plugin-host` on macOS, `%LOCALAPPDATA%` on
/// Windows), file `plugins.json`. `None` when the platform names no home.
pub fn default_cache_file() -> Option<PathBuf> {
    Some(project_dirs()?.cache_dir().join("plugins.json"))
}

/// Where lock files live when `Host.LockDirectory` does not say: the user's
/// runtime folder (`$XDG_RUNTIME_DIR/mcp-plugin-host`, emptied at logout) where
/// the platform has one, else `locks` in the cache folder.
pub fn default_lock_directory() -> Option<PathBuf> {
    let dirs = project_dirs()?;
    Some(dirs.runtime_dir().map_or_else(|| dirs.cache_dir().join("locks"), |runtime| runtime.join("locks")))
}

/// Where serving hosts say what they serve, one file each, for the
/// `plugins` and `check` commands: the platform's runtime folder for this
/// program (`$XDG_RUNTIME_DIR/mcp-plugin-host` on Linux), else its cache
/// folder, else the temporary folder; then `serving/`.
pub fn serving_dir() -> PathBuf {
    let dirs = project_dirs();
    let base = dirs.as_ref().and_then(|dirs| dirs.runtime_dir().map(Path::to_owned));
    let base = base.or_else(|| dirs.as_ref().map(|dirs| dirs.cache_dir().join("run")));
    base.unwrap_or_else(|| std::env::temp_dir().join(env!("CARGO_PKG_NAME"))).join("serving")
}

/// Where a serving host puts the private copies of libraries it loads on
/// reload: the platform's cache folder for this program, then `copies/`
/// (not the runtime or temporary folder, which may not allow running code).
pub fn copies_dir() -> PathBuf {
    let base = project_dirs().map(|dirs| dirs.cache_dir().to_owned());
    base.unwrap_or_else(|| std::env::temp_dir().join(env!("CARGO_PKG_NAME"))).join("copies")
}

/// This program's folders on this platform, by the platform's conventions.
pub fn project_dirs() -> Option<directories::ProjectDirs> {
    directories::ProjectDirs::from("", "", env!("CARGO_PKG_NAME"))
}

/// The entry for `name` (without regard to case), else the `*` entry.
fn by_name<'a, T>(map: &'a BTreeMap<String, T>, name: &str) -> Option<&'a T> {
    map.iter().find(|(key, _)| key.eq_ignore_ascii_case(name)).map(|(_, value)| value).or_else(|| map.get("*"))
}

/// Looks a key up without regard to ASCII case.
pub fn get_ci<'a>(map: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    map.get(key).or_else(|| map.iter().find(|(name, _)| name.eq_ignore_ascii_case(key)).map(|(_, value)| value))
}

/// Merges environment overrides (whose keys the `config` crate lowercases)
/// into the file's tree, matching existing keys without regard to case.
fn merge_ci(tree: &mut Value, overrides: Value) {
    let Value::Object(overrides) = overrides else {
        *tree = overrides;
        return;
    };
    if !tree.is_object() {
        *tree = Value::Object(Map::new());
    }
    let map = tree.as_object_mut().expect("just made an object");
    for (key, value) in overrides {
        let key = map.keys().find(|existing| existing.eq_ignore_ascii_case(&key)).cloned().unwrap_or(key);
        let slot = map.entry(key).or_insert(Value::Null);
        merge_ci(slot, value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn write(json: &str) -> tempfile::NamedTempFile {
        let mut file = tempfile::Builder::new().suffix(".json").tempfile().unwrap();
        file.write_all(json.as_bytes()).unwrap();
        file
    }

    fn load(json: &str, env: &[(&str, &str)]) -> Result<Settings, SettingsError> {
        let file = write(json);
        let env = env.iter().map(|(k, v)| (k.to_string(), v.to_string()));
        Settings::load_with_env(file.path(), &Overrides::default(), env)
    }

    #[test]
    fn reads_pascal_case_keys_and_resolves_the_plugin_dir_against_the_file() {
        let file = write(r#"{"Host": {"ServerName": "x", "ToolTimeoutSeconds": 5}, "Plugins": {"Directory": "libs"}}"#);
        let settings = Settings::load_with_env(file.path(), &Overrides::default(), []).unwrap();
        assert_eq!(settings.host.server_name, "x");
        assert_eq!(settings.host.tool_timeout, Some(Duration::from_secs(5)));
        assert_eq!(settings.plugins.directory, file.path().parent().unwrap().join("libs"));
    }

    #[test]
    fn environment_overrides_the_file_and_keeps_types() {
        let settings = load(
            r#"{"Host": {"LogLevel": "info"}, "Plugins": {"Settings": {"sample": {"Greeting": "Hi"}}}}"#,
            &[
                ("MCP_PLUGIN_HOST__HOST__LOGLEVEL", "debug"),
                ("MCP_PLUGIN_HOST__HOST__TOOLTIMEOUTSECONDS", "0"),
                ("MCP_PLUGIN_HOST__PLUGINS__DISABLED", "a, b"),
                ("MCP_PLUGIN_HOST__PLUGINS__SETTINGS__sample__GREETING", "Hej"),
            ],
        )
        .unwrap();
        assert_eq!(settings.host.log_level, "debug");
        assert_eq!(settings.host.tool_timeout, None);
        assert_eq!(settings.plugins.disabled, vec!["a", "b"]);
        assert_eq!(settings.plugins.section("sample")["Greeting"], "Hej");
    }

    #[test]
    fn isolation_and_worker_limits_resolve_by_plugin_name_over_the_star_entry() {
        let file = write(
            r#"{"Plugins": {
                "Isolation": {"*": "process", "Sample": "in-process"},
                "Workers": {"*": {"MemoryMb": 2048, "WritePaths": ["out"]}, "faults": {"MemoryMb": 512, "CpuSeconds": 9}}
            }}"#,
        );
        let settings = Settings::load_with_env(file.path(), &Overrides::default(), []).unwrap();
        let plugins = &settings.plugins;
        assert_eq!(plugins.isolation("sample"), Isolation::InProcess, "names match without regard to case");
        assert_eq!(plugins.isolation("other"), Isolation::Process);
        let faults = plugins.worker_limits("faults");
        assert_eq!((faults.memory_mb, faults.cpu_seconds), (Some(512), Some(9)));
        assert_eq!(faults.write_paths, Some(vec![file.path().parent().unwrap().join("out")]), "inherited from *");
        assert_eq!(plugins.worker_limits("other").memory_mb, Some(2048));

        let wrong = load(r#"{"Plugins": {"Isolation": {"*": "sandbox"}}}"#, &[]).unwrap_err().to_string();
        assert!(wrong.contains("sandbox") && wrong.contains("in-process"), "{wrong}");
        let unknown = load(r#"{"Plugins": {"Workers": {"*": {"MemoryLimit": 1}}}}"#, &[]).unwrap_err().to_string();
        assert!(unknown.contains("MemoryMb"), "{unknown}");
    }

    #[test]
    fn flags_override_the_environment() {
        let file = write(r#"{}"#);
        let overrides = Overrides { log_level: Some("trace".into()), ..Overrides::default() };
        let env = [("MCP_PLUGIN_HOST__HOST__LOGLEVEL".to_owned(), "debug".to_owned())];
        let settings = Settings::load_with_env(file.path(), &overrides, env).unwrap();
        assert_eq!(settings.host.log_level, "trace");
    }

    #[test]
    fn enabling_and_disabling_by_name() {
        let settings = load(r#"{"Plugins": {"Enabled": ["Sample", "other"], "Disabled": ["other"]}}"#, &[]).unwrap();
        assert!(settings.plugins.is_enabled("sample"));
        assert!(!settings.plugins.is_enabled("other"));
        assert!(!settings.plugins.is_enabled("third"));
        let all = load(r#"{"Plugins": {"Enabled": ["*"]}}"#, &[]).unwrap();
        assert!(all.plugins.is_enabled("third"));
    }

    #[test]
    fn a_missing_file_names_the_path() {
        let error = Settings::load_with_env(Path::new("/nonexistent/appsettings.json"), &Overrides::default(), [])
            .unwrap_err()
            .to_string();
        assert!(error.contains("/nonexistent/appsettings.json"), "{error}");
        assert!(error.contains("does not exist"), "{error}");
    }

    #[test]
    fn malformed_json_names_the_path_and_the_position() {
        let error = load(r#"{"Host": {"LogLevel": }"#, &[]).unwrap_err().to_string();
        assert!(error.contains("is invalid"), "{error}");
        assert!(error.contains("line 1"), "{error}");
    }

    #[test]
    fn comments_are_allowed_and_error_positions_survive_them() {
        let settings =
            load("// a comment\n{ /* inline */ \"Host\": { \"LogLevel\": \"debug\" } // trailing\n}", &[]).unwrap();
        assert_eq!(settings.host.log_level, "debug");
        let error = load("// one\n// two\n{ \"Host\": }", &[]).unwrap_err().to_string();
        assert!(error.contains("line 3"), "{error}");
    }

    #[test]
    fn the_bearer_token_can_come_from_a_file_beside_the_configuration() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("token.txt"), "s3cret\n").unwrap();
        let config = dir.path().join("appsettings.json");
        std::fs::write(&config, r#"{"Http": {"BearerTokenFile": "token.txt"}}"#).unwrap();
        let settings = Settings::load_with_env(&config, &Overrides::default(), []).unwrap();
        assert_eq!(settings.http.bearer_token.as_deref(), Some("s3cret"));

        std::fs::write(&config, r#"{"Http": {"BearerTokenFile": "missing.txt"}}"#).unwrap();
        let error = Settings::load_with_env(&config, &Overrides::default(), []).unwrap_err().to_string();
        assert!(error.contains("Http.BearerTokenFile") && error.contains("missing.txt"), "{error}");

        std::fs::write(dir.path().join("empty.txt"), " \n").unwrap();
        std::fs::write(&config, r#"{"Http": {"BearerTokenFile": "empty.txt"}}"#).unwrap();
        let error = Settings::load_with_env(&config, &Overrides::default(), []).unwrap_err().to_string();
        assert!(error.contains("is empty"), "{error}");

        std::fs::write(&config, r#"{"Http": {"BearerToken": "x", "BearerTokenFile": "token.txt"}}"#).unwrap();
        let error = Settings::load_with_env(&config, &Overrides::default(), []).unwrap_err().to_string();
        assert!(error.contains("both set"), "{error}");
    }

    #[test]
    fn a_value_of_the_wrong_type_is_named() {
        let error = load(r#"{"Host": {"ToolTimeoutSeconds": "soon"}}"#, &[]).unwrap_err().to_string();
        assert!(error.contains("Host.ToolTimeoutSeconds"), "{error}");
        let error = load(r#"{"Http": {"Address": "everywhere"}}"#, &[]).unwrap_err().to_string();
        assert!(error.contains("Http.Address"), "{error}");
    }

    #[test]
    fn log_format_and_file_are_read_and_checked() {
        let file = write(r#"{"Host": {"LogFormat": "JSON", "LogFile": "logs/host.log"}}"#);
        let settings = Settings::load_with_env(file.path(), &Overrides::default(), []).unwrap();
        assert_eq!(settings.host.log_format, LogFormat::Json);
        assert_eq!(settings.host.log_file, Some(file.path().parent().unwrap().join("logs/host.log")));
        let defaults = load("{}", &[]).unwrap();
        assert_eq!((defaults.host.log_format, defaults.host.log_file), (LogFormat::Text, None));
        let error = load(r#"{"Host": {"LogFormat": "xml"}}"#, &[]).unwrap_err().to_string();
        assert!(error.contains(r#"Host.LogFormat must be "text" or "json", not "xml""#), "{error}");
    }

    #[test]
    fn telemetry_keys_win_over_the_standard_otel_variables() {
        let otel =
            [("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318/"), ("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json")];
        let from_env = load("{}", &otel).unwrap().telemetry;
        assert_eq!(from_env.otlp_endpoint.as_deref(), Some("http://collector:4318"));
        assert_eq!(from_env.otlp_protocol, OtlpProtocol::HttpJson);
        assert_eq!(from_env.export_interval, Duration::from_secs(60));
        let configured = load(
            r#"{"Telemetry": {"OtlpEndpoint": "http://127.0.0.1:4318", "OtlpProtocol": "http/protobuf",
                "ExportIntervalSeconds": 0.5}}"#,
            &otel,
        )
        .unwrap()
        .telemetry;
        assert_eq!(configured.otlp_endpoint.as_deref(), Some("http://127.0.0.1:4318"));
        assert_eq!(configured.otlp_protocol, OtlpProtocol::HttpProtobuf);
        assert_eq!(configured.export_interval, Duration::from_millis(500));
        assert_eq!(load("{}", &[]).unwrap().telemetry.otlp_endpoint, None);
    }

    #[test]
    fn telemetry_values_the_host_cannot_use_are_named() {
        for (json, expected) in [
            (r#"{"Telemetry": {"OtlpEndpoint": "https://c:4318"}}"#, "must be an http:// URL"),
            (
                r#"{"Telemetry": {"OtlpProtocol": "grpc"}}"#,
                r#"Telemetry.OtlpProtocol must be "http/protobuf" or "http/json", not "grpc""#,
            ),
            (r#"{"Telemetry": {"ExportIntervalSeconds": 0}}"#, "Telemetry.ExportIntervalSeconds must be at least 0.05"),
        ] {
            let error = load(json, &[]).unwrap_err().to_string();
            assert!(error.contains(expected), "{json}: {error}");
        }
    }

    #[test]
    fn an_unknown_key_in_the_file_or_the_environment_is_an_error_naming_the_closest_setting() {
        let error = load(r#"{"plugins": {"disable": ["sample"]}}"#, &[]).unwrap_err().to_string();
        assert!(error.ends_with("`Plugins.disable` is not a setting; did you mean `Plugins.Disabled`?"), "{error}");
        let error = load("{}", &[("MCP_PLUGIN_HOST__HOST__LOGLEVLE", "debug")]).unwrap_err().to_string();
        assert!(
            error.ends_with(
                "environment variable MCP_PLUGIN_HOST__HOST__LOGLEVLE: `Host.loglevle` is not a setting; \
                 did you mean `Host.LogLevel`?"
            ),
            "{error}"
        );
        let file = write(r#"{"Host": {"LogLevel": "debug", "Servername": "x", "Colour": 1}}"#);
        let (settings, unknown) = Settings::load_listing_unknown(file.path(), &Overrides::default(), []).unwrap();
        assert_eq!(settings.host.server_name, "x");
        assert_eq!(unknown.len(), 1, "{unknown:?}");
    }
}
