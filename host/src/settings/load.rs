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
    io::Read,
    path::{Path, PathBuf},
    time::Duration,
};

use serde_json::{Map, Value};

use super::{
    host::{DEFAULT_MAX_MESSAGE_BYTES, HostSettings, LogFormat},
    http::{HttpSettings, bearer_token},
    paths::{default_cache_file, default_lock_directory},
    plugins::{PluginSettings, WorkerLimits},
    raw::{Raw, RawPrefix, StringList},
    surface::{ItemFilter, PrefixSettings, SurfaceSettings, ToolOverride, prefix_mode},
    telemetry::TelemetrySettings,
};
use crate::config_schema;

/// The prefix of environment variables that override the file; `__`
/// separates the prefix and each level of keys.
pub const ENV_PREFIX: &str = "MCP_PLUGIN_HOST";

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

/// The file's text with its comments blanked out (line and column numbers
/// are kept, so parse errors still point at the right place).
fn read_without_comments(path: &Path) -> std::io::Result<String> {
    let mut text = String::new();
    json_comments::StripComments::new(std::fs::File::open(path)?).read_to_string(&mut text)?;
    Ok(text)
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
    use crate::settings::{Isolation, OtlpProtocol};
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
