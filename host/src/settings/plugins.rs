//! The `Plugins` section, resolved: where plugins are, which are served,
//! their settings, how each runs and what confines its worker.

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
    time::Duration,
};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{
    keys::{by_name, get_ci},
    raw::{Isolation, RawWorker},
};

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
    pub(super) fn from_raw(base: &Path, raw: RawWorker) -> Self {
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
    pub(super) fn or(self, defaults: &Self) -> Self {
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
