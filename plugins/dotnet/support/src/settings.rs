//! What an operator configures for the dotnet plugins, read once from the
//! plugin's section of `appsettings.json` (`Plugins.Settings.<plugin>`),
//! with the shared `Plugins.Config` keys as a fallback so one setting can
//! serve every dotnet plugin.
//!
//! | key | default | meaning |
//! |---|---|---|
//! | `DotnetPath` | `dotnet` on `PATH` | the dotnet executable |
//! | `TimeoutSeconds` | none | longest one dotnet command may run (0: no limit); the host's `Host.ToolTimeoutSeconds` bounds every call anyway, so set this only to stop commands sooner |
//! | `MaxOutputBytes` | 4 MiB | output kept per stream; the rest is dropped with a marker |
//! | `LockWaitSeconds` | 0 | how long to wait for a target another operation holds (0: fail fast) |
//! | `WorkingDirectory` | the host's | default folder of commands |
//! | `ShowSecretValues` | false | let `SecretsList` return values (they are redacted otherwise) |
//! | `Environment` | `{}` | extra environment variables for every dotnet command (e.g. `NUGET_PACKAGES`) |
//! | `ReadOnly` | false | offer only the actions that read (see `kit`): the tool is listed read-only and refuses the others with `READ_ONLY` |
//! | `BuildServers` | true | keep the C# compiler server and the MSBuild worker nodes a build starts running for the next build, as a terminal's SDK does (on Linux the plugin adopts the servers its own commands started and stops them when it ends: [`crate::servers`]); `false` switches the compiler server, MSBuild node reuse and the MSBuild server off for every command. `Environment` still wins over either |

use std::{path::PathBuf, time::Duration};

use mcp_plugin_api::PluginContext;
use serde::de::DeserializeOwned;

use crate::runner::DEFAULT_MAX_OUTPUT_BYTES;

/// The dotnet plugins' settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DotnetSettings {
    /// The dotnet executable, when configured.
    pub dotnet_path: Option<PathBuf>,
    /// Longest one command may run; `None` for no limit.
    pub timeout: Option<Duration>,
    /// Output kept per stream.
    pub max_output_bytes: usize,
    /// How long to wait for a busy target.
    pub lock_wait: Duration,
    /// Default working directory.
    pub working_directory: Option<PathBuf>,
    /// Whether secret values may be shown by `SecretsList`.
    pub show_secret_values: bool,
    /// Extra environment variables for every command, applied after the pinned ones.
    pub environment: Vec<(String, String)>,
    /// Whether the tool offers only its actions that read (the operator's safe mode).
    pub read_only: bool,
    /// Whether a build may start the compiler server and leave it running for the next build.
    pub build_servers: bool,
}

impl Default for DotnetSettings {
    fn default() -> Self {
        Self {
            dotnet_path: None,
            timeout: None,
            max_output_bytes: DEFAULT_MAX_OUTPUT_BYTES,
            lock_wait: Duration::ZERO,
            working_directory: None,
            show_secret_values: false,
            environment: Vec::new(),
            read_only: false,
            build_servers: true,
        }
    }
}

impl DotnetSettings {
    /// Reads the settings; an `Err` names the key and why its value does not fit, for the
    /// operator (the plugin is refused with it).
    pub fn from_context(ctx: &PluginContext) -> Result<Self, String> {
        let defaults = Self::default();
        let timeout = match setting::<f64>(ctx, "TimeoutSeconds")? {
            None => defaults.timeout,
            Some(secs) if secs.is_finite() && secs >= 0.0 => {
                Some(Duration::from_secs_f64(secs)).filter(|d| !d.is_zero())
            }
            Some(secs) => return Err(format!("setting 'TimeoutSeconds': {secs} is not a number of seconds")),
        };
        let lock_wait = match setting::<f64>(ctx, "LockWaitSeconds")? {
            None => defaults.lock_wait,
            Some(secs) if secs.is_finite() && secs >= 0.0 => Duration::from_secs_f64(secs),
            Some(secs) => return Err(format!("setting 'LockWaitSeconds': {secs} is not a number of seconds")),
        };
        Ok(Self {
            dotnet_path: setting::<String>(ctx, "DotnetPath")?.filter(|path| !path.is_empty()).map(PathBuf::from),
            timeout,
            max_output_bytes: setting::<usize>(ctx, "MaxOutputBytes")?.unwrap_or(defaults.max_output_bytes),
            lock_wait,
            working_directory: setting::<String>(ctx, "WorkingDirectory")?
                .filter(|dir| !dir.is_empty())
                .map(PathBuf::from),
            show_secret_values: setting::<bool>(ctx, "ShowSecretValues")?.unwrap_or(false),
            environment: setting::<std::collections::BTreeMap<String, String>>(ctx, "Environment")?
                .unwrap_or_default()
                .into_iter()
                .collect(),
            read_only: setting::<bool>(ctx, "ReadOnly")?.unwrap_or(false),
            build_servers: setting::<bool>(ctx, "BuildServers")?.unwrap_or(defaults.build_servers),
        })
    }
}

/// The JSON Schema of a dotnet plugin's own section (`Plugins.Settings.<plugin>`), which every
/// dotnet plugin declares so that `mcp-plugin-host check` names a misspelled key or a value of the
/// wrong type. It lists exactly the keys [`DotnetSettings::from_context`] reads (a test holds the
/// two together); the host matches the keys without regard to case, as `from_context` does, and
/// `null` stands for an absent key.
pub fn settings_schema() -> serde_json::Value {
    let seconds = |what: &str| serde_json::json!({ "type": ["number", "null"], "minimum": 0, "description": what });
    serde_json::json!({
        "type": "object",
        "properties": {
            "DotnetPath": { "type": ["string", "null"], "description": "The dotnet executable (default: dotnet on PATH)." },
            "TimeoutSeconds": seconds("The longest one dotnet command may run (0: no limit)."),
            "MaxOutputBytes": { "type": ["integer", "null"], "minimum": 0, "description": "Output kept per stream (default: 4 MiB)." },
            "LockWaitSeconds": seconds("How long to wait for a target another operation holds (default: 0, fail fast)."),
            "WorkingDirectory": { "type": ["string", "null"], "description": "The default folder of commands." },
            "ShowSecretValues": { "type": ["boolean", "null"], "description": "Let SecretsList return values (default: false)." },
            "Environment": {
                "type": ["object", "null"],
                "additionalProperties": { "type": "string" },
                "description": "Extra environment variables for every dotnet command."
            },
            "ReadOnly": { "type": ["boolean", "null"], "description": "Offer only the actions that read (default: false)." },
            "BuildServers": { "type": ["boolean", "null"], "description": "Keep the C# compiler server and MSBuild nodes running between builds, as a terminal does (default: true); false starts every build cold." }
        },
        "additionalProperties": false
    })
}

/// A key of the plugin's own section (case-insensitively), else of `Plugins.Config`.
fn setting<T: DeserializeOwned>(ctx: &PluginContext, key: &str) -> Result<Option<T>, String> {
    let own = ctx.config().as_object().and_then(|section| {
        section.iter().find(|(name, _)| name.eq_ignore_ascii_case(key)).map(|(_, value)| value.clone())
    });
    let value = match own {
        Some(value) => value,
        None => match ctx.get_config(key) {
            // Shared values arrive as text; numbers and booleans are parsed from it.
            Some(text) => serde_json::from_str(&text).unwrap_or(serde_json::Value::String(text)),
            None => return Ok(None),
        },
    };
    if value.is_null() {
        return Ok(None);
    }
    serde_json::from_value(value.clone()).map(Some).map_err(|error| format!("setting '{key}' ({value}): {error}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_plugin_api::testkit::TestPluginContext;
    use serde_json::json;

    #[test]
    fn reads_the_plugin_section_without_regard_to_case_and_falls_back_to_shared_config() {
        let mut shared = serde_json::Map::new();
        shared.insert("DotnetPath".into(), json!("/opt/dotnet/dotnet"));
        shared.insert("LockWaitSeconds".into(), json!("2.5"));
        shared.insert("ReadOnly".into(), json!(true));
        shared.insert("BuildServers".into(), json!("false"));
        let plugin = TestPluginContext::new(
            json!({ "timeoutseconds": 0, "ShowSecretValues": true, "Environment": { "NUGET_PACKAGES": "/cache" } }),
            shared,
        );
        let settings = DotnetSettings::from_context(plugin.context()).unwrap();
        assert_eq!(settings.dotnet_path, Some(PathBuf::from("/opt/dotnet/dotnet")));
        assert_eq!(settings.timeout, None);
        assert_eq!(settings.lock_wait, Duration::from_millis(2500));
        assert!(settings.show_secret_values);
        assert!(settings.read_only, "ReadOnly in Plugins.Config holds for every dotnet plugin");
        assert!(!settings.build_servers, "BuildServers in Plugins.Config holds for every dotnet plugin");
        let plain = DotnetSettings::from_context(TestPluginContext::new(json!({}), Default::default()).context());
        assert!(plain.unwrap().build_servers, "build servers are on unless switched off");
        assert_eq!(settings.environment, [("NUGET_PACKAGES".to_owned(), "/cache".to_owned())]);
    }

    #[test]
    fn the_settings_schema_lists_exactly_the_keys_that_are_read() {
        let schema = settings_schema();
        let valid = json!({
            "DotnetPath": "/opt/dotnet/dotnet", "TimeoutSeconds": 5, "MaxOutputBytes": 1024, "LockWaitSeconds": 1.5,
            "WorkingDirectory": "/work", "ShowSecretValues": true, "Environment": { "A": "b" }, "ReadOnly": true,
            "BuildServers": false
        });
        let properties = schema["properties"].as_object().unwrap();
        assert_eq!(properties.len(), valid.as_object().unwrap().len(), "one example per declared key");
        assert!(mcp_plugin_api::testkit::settings_problems(&schema, &valid).is_empty());
        let read = DotnetSettings::from_context(TestPluginContext::new(valid.clone(), Default::default()).context());
        assert_ne!(read.unwrap(), DotnetSettings::default());
        // Each declared key is one from_context reads: a value of the wrong type there refuses the section.
        for key in properties.keys() {
            let mut wrong = valid.clone();
            wrong[key] = json!([]);
            let context = TestPluginContext::new(wrong.clone(), Default::default());
            let error = DotnetSettings::from_context(context.context()).unwrap_err();
            assert!(error.contains(key.as_str()), "{key}: {error}");
            let problems = mcp_plugin_api::testkit::settings_problems(&schema, &wrong);
            assert!(problems.iter().any(|problem| problem.contains(key.as_str())), "{key}: {problems:?}");
        }
    }

    #[test]
    fn a_value_of_the_wrong_type_is_named() {
        let plugin = TestPluginContext::new(json!({ "MaxOutputBytes": "lots" }), Default::default());
        let error = DotnetSettings::from_context(plugin.context()).unwrap_err();
        assert!(error.contains("MaxOutputBytes"), "{error}");
    }
}
