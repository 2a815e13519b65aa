//! Test helpers for the dotnet plugins (feature `testkit`, for dev-dependencies only): the
//! dotnet test double built once per test process, a plugin context whose settings point at
//! it, and its invocation log.
//!
//! ```no_run
//! use dotnet_support::testkit::Double;
//!
//! let scratch = std::env::temp_dir().join("my-plugin-test");
//! std::fs::create_dir_all(&scratch).unwrap();
//! let double = Double::new(&scratch).scenario("restore-fail");
//! let plugin = double.context(); // DotnetPath, Environment {DOTNET_DOUBLE_LOG, DOTNET_DOUBLE_SCENARIO}
//! // ... build the plugin's tool from plugin.context() and call it ...
//! assert!(double.argvs().is_empty());
//! ```

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
    process::{Command, Stdio},
    sync::OnceLock,
};

use mcp_plugin_api::testkit::TestPluginContext;
use serde_json::{Map, Value, json};

/// The test double's executable (`target/debug/dotnet-double`), built on first use with the
/// cargo that is running the tests. Panics, with cargo's messages on stderr, if it cannot be
/// built.
pub fn dotnet_double() -> &'static Path {
    static DOUBLE: OnceLock<PathBuf> = OnceLock::new();
    DOUBLE.get_or_init(|| {
        let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..");
        let output = Command::new(env!("CARGO"))
            .args(["build", "-p", "dotnet-test-double", "--message-format=json-render-diagnostics"])
            .current_dir(&workspace)
            .stdin(Stdio::null())
            .stderr(Stdio::inherit())
            .output()
            .expect("cargo runs to build the dotnet test double");
        assert!(output.status.success(), "building the dotnet test double failed");
        String::from_utf8_lossy(&output.stdout)
            .lines()
            .filter_map(|line| serde_json::from_str::<Value>(line).ok())
            .filter(|message| message["reason"] == "compiler-artifact" && message["target"]["name"] == "dotnet-double")
            .find_map(|message| message["executable"].as_str().map(PathBuf::from))
            .expect("cargo reports the dotnet-double executable")
    })
}

/// One invocation of the double, from its log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invocation {
    /// The arguments after the program name.
    pub argv: Vec<String>,
    /// The working directory it ran in.
    pub cwd: PathBuf,
    /// Its `DOTNET_*` and `MSBUILD*` variables.
    pub env: BTreeMap<String, String>,
}

/// The settings of a plugin under test that runs the double: `DotnetPath`, and `Environment`
/// with the invocation log (in a folder the caller owns), scenarios and any other variables.
#[derive(Debug, Clone)]
pub struct Double {
    log: PathBuf,
    environment: Map<String, Value>,
    settings: Map<String, Value>,
}

impl Double {
    /// A double that logs to `dir/dotnet-double.log` (emptied now), with no scenario.
    pub fn new(dir: &Path) -> Self {
        let log = dir.join("dotnet-double.log");
        let _ = std::fs::remove_file(&log);
        let mut environment = Map::new();
        environment.insert("DOTNET_DOUBLE_LOG".into(), json!(log.display().to_string()));
        let mut settings = Map::new();
        settings.insert("DotnetPath".into(), json!(dotnet_double().display().to_string()));
        Self { log, environment, settings }
    }

    /// Switches on scenarios (`DOTNET_DOUBLE_SCENARIO`, comma-separated names).
    pub fn scenario(self, names: &str) -> Self {
        self.env("DOTNET_DOUBLE_SCENARIO", names)
    }

    /// Adds a variable to the plugin's `Environment` setting.
    pub fn env(mut self, key: &str, value: &str) -> Self {
        self.environment.insert(key.to_owned(), json!(value));
        self
    }

    /// Sets another key of the plugin's section (`WorkingDirectory`, `LockWaitSeconds`...).
    pub fn setting(mut self, key: &str, value: Value) -> Self {
        self.settings.insert(key.to_owned(), value);
        self
    }

    /// The plugin's section as configured.
    pub fn config(&self) -> Value {
        let mut settings = self.settings.clone();
        settings.insert("Environment".into(), Value::Object(self.environment.clone()));
        Value::Object(settings)
    }

    /// A plugin context with [`Self::config`] as the plugin's section.
    pub fn context(&self) -> TestPluginContext {
        TestPluginContext::new(self.config(), Map::new())
    }

    /// Every invocation logged so far, in order.
    pub fn invocations(&self) -> Vec<Invocation> {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        text.lines()
            .filter_map(|line| serde_json::from_str::<Value>(line).ok())
            .map(|record| Invocation {
                argv: record["argv"]
                    .as_array()
                    .map(|args| args.iter().filter_map(Value::as_str).map(str::to_owned).collect())
                    .unwrap_or_default(),
                cwd: PathBuf::from(record["cwd"].as_str().unwrap_or_default()),
                env: serde_json::from_value(record["env"].clone()).unwrap_or_default(),
            })
            .collect()
    }

    /// The argument vectors logged so far, in order.
    pub fn argvs(&self) -> Vec<Vec<String>> {
        self.invocations().into_iter().map(|invocation| invocation.argv).collect()
    }

    /// Forgets the invocations logged so far.
    pub fn clear_log(&self) {
        let _ = std::fs::remove_file(&self.log);
    }
}
