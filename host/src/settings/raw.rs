//! The configuration file's shape: the single source of the settings there
//! are. Every key of `appsettings.json` is a field of one of these structs;
//! the key check, `config-schema` and the committed `appsettings.schema.json`
//! derive from them (`crate::config_schema`), and [`super::load`] resolves
//! them into the sections the host reads.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value};

/// The file's shape: the single source of the settings there are.
///
/// To add a setting, add a field to one of these `Raw*` structs (snake_case: `log_format` is the
/// key `LogFormat`; a field spelled `logformat` would be `Logformat`) with a doc comment (the
/// key's description in the schema), read it in `Settings::from_raw` (`super::load`) and list it in README.md's
/// table. That is all: the key check (an unknown key is an error naming the closest known one),
/// `config-schema` and the committed `appsettings.schema.json` derive from these types. A new
/// section is a field here holding a new struct with the same derives and serde attributes. Keys
/// that belong to others (plugin or tool names) live in maps, which the key check does not judge.
/// Then run `cargo run -p mcp-plugin-host -- config-schema > appsettings.schema.json`; the
/// host's tests (tests/config.rs) fail until the committed schema and README match. Every field
/// is optional: the defaults live in `Settings::from_raw`.
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
    pub(super) schema: Option<String>,
    /// Server identity, logging and call limits.
    pub(super) host: RawHost,
    /// The streamable HTTP transport (`mcp-plugin-host --http`).
    pub(super) http: RawHttp,
    /// Where plugins are, which are served, and their settings.
    pub(super) plugins: RawPlugins,
    /// Which tools are served, under which names, with which overrides.
    pub(super) tools: RawTools,
    /// Which prompts are served.
    pub(super) prompts: RawFilter,
    /// Which resources and resource templates are served.
    pub(super) resources: RawFilter,
    /// Where the host's metrics and spans are exported over OTLP.
    pub(super) telemetry: RawTelemetry,
}

/// `Telemetry` section.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default, rename_all = "PascalCase", deny_unknown_fields)]
pub(super) struct RawTelemetry {
    /// An OTLP/HTTP collector's base URL, such as http://127.0.0.1:4318 (default: none, or
    /// OTEL_EXPORTER_OTLP_ENDPOINT).
    pub(super) otlp_endpoint: Option<String>,
    /// "http/protobuf" (default) or "http/json" (or OTEL_EXPORTER_OTLP_PROTOCOL).
    pub(super) otlp_protocol: Option<String>,
    /// How often metrics are pushed, in seconds (default: 60).
    pub(super) export_interval_seconds: Option<f64>,
}

/// `Tools` section.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default, rename_all = "PascalCase", deny_unknown_fields)]
pub(super) struct RawTools {
    /// Glob patterns over tool names; only matching tools are served ("*": all).
    pub(super) enabled: Option<StringList>,
    /// Glob patterns over tool names; matching tools are never served.
    pub(super) disabled: Option<StringList>,
    /// "none" (default), "plugin" (`<plugin>__<tool>`) or "on-collision"; or an object from
    /// plugin name (or "*") to one of those.
    pub(super) prefix: Option<RawPrefix>,
    /// Per tool (served name or `<plugin>/<tool>`): title, description, annotations and
    /// argument defaults.
    pub(super) overrides: BTreeMap<String, RawToolOverride>,
}

/// `Tools.Overrides.<tool>`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default, rename_all = "PascalCase", deny_unknown_fields)]
pub(super) struct RawToolOverride {
    /// Replaces the tool's title.
    pub(super) title: Option<String>,
    /// Replaces the tool's description.
    pub(super) description: Option<String>,
    /// Replaces these MCP annotation hints; the others stay as the plugin set them.
    pub(super) annotations: RawAnnotations,
    /// Argument values filled in when a call leaves them out (the plugin's argument names).
    pub(super) defaults: Map<String, Value>,
}

/// `Tools.Overrides.<tool>.Annotations`: the MCP hints, under their MCP names.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct RawAnnotations {
    /// The tool does not change its environment.
    pub(super) read_only_hint: Option<bool>,
    /// The tool may destroy data.
    pub(super) destructive_hint: Option<bool>,
    /// Calling it twice with the same arguments does no more than once.
    pub(super) idempotent_hint: Option<bool>,
    /// The tool reaches outside the machine.
    pub(super) open_world_hint: Option<bool>,
}

/// `Prompts` and `Resources` sections.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default, rename_all = "PascalCase", deny_unknown_fields)]
pub(super) struct RawFilter {
    /// Glob patterns over names (URIs for resources); only matching items are served ("*": all).
    pub(super) enabled: Option<StringList>,
    /// Glob patterns over names (URIs for resources); matching items are never served.
    pub(super) disabled: Option<StringList>,
}

/// `Tools.Prefix`: a mode, or a map from plugin name (or `*`) to mode.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub(super) enum RawPrefix {
    All(String),
    PerPlugin(BTreeMap<String, String>),
}

/// `Host` section.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default, rename_all = "PascalCase", deny_unknown_fields)]
pub(super) struct RawHost {
    /// The name MCP clients see for this server (default: mcp-plugin-host).
    pub(super) server_name: Option<String>,
    /// Log filter in RUST_LOG syntax (default: info); RUST_LOG overrides it.
    pub(super) log_level: Option<String>,
    /// The longest a tool call may run, in seconds; 0 for no limit (default: 600).
    pub(super) tool_timeout_seconds: Option<f64>,
    /// Per-tool limits in seconds, by tool name, overriding ToolTimeoutSeconds.
    pub(super) tool_timeouts: BTreeMap<String, f64>,
    /// The longest a prompt may take to render, in seconds; 0 for no limit (default: 60).
    pub(super) prompt_timeout_seconds: Option<f64>,
    /// The longest a resource read may take, in seconds; 0 for no limit (default: 60).
    pub(super) resource_timeout_seconds: Option<f64>,
    /// The longest a completion may take, in seconds; 0 for no limit (default: 10).
    pub(super) completion_timeout_seconds: Option<f64>,
    /// How long before its time limit a request is asked to stop, so it can wind down and report
    /// partial output by the limit (at most a quarter of the limit); after a client's cancel or at
    /// shutdown, how long it may wind down before it is dropped (default: 2000).
    pub(super) cancel_grace_ms: Option<u64>,
    /// The longest JSON-RPC message accepted on stdio (default: 16 MiB).
    pub(super) max_message_bytes: Option<u64>,
    /// Where plugins' lock files live, shared by the user's host processes ("" keeps locks
    /// within one process; default: the user's runtime folder).
    pub(super) lock_directory: Option<String>,
    /// The log's format: "text" (default) or "json", one object per line.
    pub(super) log_format: Option<String>,
    /// A file the log is written to besides stderr, relative to this file.
    pub(super) log_file: Option<String>,
}

/// `Http` section.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default, rename_all = "PascalCase", deny_unknown_fields)]
pub(super) struct RawHttp {
    /// Where `--http` listens when it names no address (default: 127.0.0.1:8080).
    pub(super) address: Option<String>,
    /// Extra `Host` header values accepted besides loopback names.
    pub(super) allowed_hosts: Option<StringList>,
    /// Browser origins accepted besides loopback ones.
    pub(super) allowed_origins: Option<StringList>,
    /// The bearer token every request must carry (required off loopback).
    pub(super) bearer_token: Option<String>,
    /// A file holding the bearer token, relative to this file.
    pub(super) bearer_token_file: Option<String>,
}

/// `Plugins` section.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default, rename_all = "PascalCase", deny_unknown_fields)]
pub(super) struct RawPlugins {
    /// The folder scanned for plugin libraries, relative to this file (default: plugins).
    pub(super) directory: Option<String>,
    /// Plugins served, by name ("*": every plugin found).
    pub(super) enabled: Option<StringList>,
    /// Plugins never served, by name.
    pub(super) disabled: Option<StringList>,
    /// Each plugin's own settings, by plugin name; each plugin declares their schema
    /// (`mcp-plugin-host check` validates them).
    pub(super) settings: Map<String, Value>,
    /// Settings every plugin sees, e.g. DotnetPath for the dotnet plugins.
    pub(super) config: Map<String, Value>,
    /// Create a plugin the cache knows, unchanged, on its first use (default: true).
    pub(super) lazy_loading: Option<bool>,
    /// The plugin cache file ("" turns the cache off; default: the user's cache folder).
    pub(super) cache_file: Option<String>,
    /// Apply changed libraries and configuration without a restart (default: true).
    pub(super) watch: Option<bool>,
    /// How long a changed file must stay unchanged before it is applied (default: 300).
    pub(super) watch_quiet_ms: Option<u64>,
    /// How each plugin runs, by plugin name ("*": every plugin not named): "in-process" (the
    /// default) or "process" (in a worker process of its own, where a crash costs only its calls).
    pub(super) isolation: BTreeMap<String, Isolation>,
    /// The confinement of plugins that run in a worker process, by plugin name ("*": the
    /// defaults every worker starts from; a plugin's own entry overrides them key by key).
    pub(super) workers: BTreeMap<String, RawWorker>,
    /// The lock file pinning each library's SHA-256 and offer, relative to this file
    /// (default: plugins.lock.json; "" means no lock); `mcp-plugin-host plugins lock` writes it.
    pub(super) lock_file: Option<String>,
    /// Refuse a library the lock file does not vouch for, instead of serving it with a warning
    /// (default: true once the lock file exists, false before).
    pub(super) require_lock: Option<bool>,
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
    pub(super) memory_mb: Option<u64>,
    /// The CPU time the worker may use over its life, in seconds (RLIMIT_CPU; default: none).
    pub(super) cpu_seconds: Option<u64>,
    /// Confine the worker's file access with Landlock on Linux (default: true; best effort).
    pub(super) landlock: Option<bool>,
    /// Paths the worker may read besides its library, the system folders and the dotnet install
    /// (relative to this file).
    pub(super) read_paths: Option<Vec<String>>,
    /// Paths the worker may write besides the system temporary folder (relative to this file).
    pub(super) write_paths: Option<Vec<String>>,
    /// Environment variables passed on to the worker besides those every process needs
    /// (PATH, HOME, TMPDIR, LANG, LC_*, USER, DOTNET_*).
    pub(super) environment: Option<Vec<String>>,
    /// Failures of the worker within a minute after which the plugin is withdrawn, reported
    /// failed, until its library changes or the host restarts (default: 5).
    pub(super) max_failures: Option<u32>,
}

/// A list given either as a JSON array or, from an environment variable,
/// as a comma-separated string.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub(super) enum StringList {
    List(Vec<String>),
    Text(String),
}

impl StringList {
    pub(super) fn into_vec(self) -> Vec<String> {
        match self {
            StringList::List(items) => items,
            StringList::Text(text) => {
                text.split(',').map(str::trim).filter(|item| !item.is_empty()).map(str::to_owned).collect()
            }
        }
    }
}
