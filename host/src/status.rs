//! What a serving host publishes about itself, so that `mcp-plugin-host
//! plugins` and `check`, run beside it, can report what is serving now: a
//! reload may keep an older version of a library serving (its replacement
//! was refused) or withdraw a plugin whose creation failed, and neither
//! shows in the plugin folder.
//!
//! Each serving host writes one JSON file, `<pid>.json` in
//! [`crate::settings::serving_dir`], at start and after every reload, and
//! removes it when it stops. A reader keeps the files of hosts using the
//! same configuration file, and deletes those whose process is gone (on
//! Linux, where a process can be looked up; elsewhere a file left by a host
//! that was killed stays until a host of the same PID replaces it).

use std::{
    path::{Path, PathBuf},
    time::SystemTime,
};

use serde::{Deserialize, Serialize};

use crate::{plugin::report::PluginReport, settings::serving_dir, state::Generation};

/// One serving host, as it describes itself.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServingHost {
    /// Its process id.
    pub pid: u32,
    /// When its process started, in the system's clock ticks since boot
    /// (Linux), so a reused PID is not taken for the host.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub process_start: Option<u64>,
    /// Its configuration file (canonical path).
    pub config: PathBuf,
    /// `stdio` or `http`.
    pub transport: String,
    /// When it started serving (RFC 3339).
    pub since: String,
    /// When what it serves last changed (RFC 3339).
    pub updated: String,
    /// How many reloads it applied.
    pub reloads: u64,
    /// How each plugin library fares in it.
    pub plugins: Vec<PluginReport>,
    /// Problems that concern no single library.
    #[serde(default)]
    pub problems: Vec<String>,
}

/// This host's file, removed when dropped.
pub struct StatusFile {
    path: PathBuf,
    host: ServingHost,
}

impl StatusFile {
    /// Starts describing this process, serving under `config` over
    /// `transport`; removes the files of hosts that no longer run.
    pub fn new(config: &Path, transport: &str) -> Self {
        let _ = read_all();
        let pid = std::process::id();
        let now = humantime::format_rfc3339_seconds(SystemTime::now()).to_string();
        Self {
            path: serving_dir().join(format!("{pid}.json")),
            host: ServingHost {
                pid,
                process_start: process_start(pid),
                config: canonical(config),
                transport: transport.to_owned(),
                since: now.clone(),
                updated: now,
                reloads: 0,
                plugins: Vec::new(),
                problems: Vec::new(),
            },
        }
    }

    /// Writes what `generation` serves (atomically: a reader sees the old
    /// file or the new one). `reloaded` counts a reload.
    pub fn publish(&mut self, generation: &Generation, reloaded: bool) {
        self.host.reloads += u64::from(reloaded);
        self.host.updated = humantime::format_rfc3339_seconds(SystemTime::now()).to_string();
        self.host.plugins = generation.reports.clone();
        self.host.problems = generation.problems.clone();
        if let Err(error) = self.write() {
            tracing::debug!("{} could not be written: {error}", self.path.display());
        }
    }

    fn write(&self) -> std::io::Result<()> {
        if let Some(folder) = self.path.parent() {
            std::fs::create_dir_all(folder)?;
        }
        let staging = self.path.with_extension("json.tmp");
        std::fs::write(&staging, serde_json::to_vec_pretty(&self.host).map_err(std::io::Error::other)?)?;
        std::fs::rename(&staging, &self.path)
    }
}

impl Drop for StatusFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// The hosts serving now under the configuration file `config`, by PID.
pub fn serving_hosts(config: &Path) -> Vec<ServingHost> {
    let config = canonical(config);
    let mut hosts: Vec<ServingHost> = read_all().into_iter().filter(|host| host.config == config).collect();
    hosts.sort_by_key(|host| host.pid);
    hosts
}

/// Every serving host's file; those of hosts that no longer run are removed.
fn read_all() -> Vec<ServingHost> {
    let Ok(entries) = std::fs::read_dir(serving_dir()) else { return Vec::new() };
    entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .filter_map(|path| {
            let host: ServingHost = serde_json::from_slice(&std::fs::read(&path).ok()?).ok()?;
            if !alive(&host) {
                let _ = std::fs::remove_file(&path);
                return None;
            }
            Some(host)
        })
        .collect()
}

fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned())
}

/// Whether the host that wrote `host` still runs.
fn alive(host: &ServingHost) -> bool {
    is_running(host.pid, host.process_start)
}

/// Whether process `pid` runs, and started at `started` when that is known
/// (a PID may have been reused). Only Linux can tell; elsewhere every
/// process counts as running.
pub fn is_running(pid: u32, started: Option<u64>) -> bool {
    if !cfg!(target_os = "linux") {
        return true;
    }
    let start = process_start(pid);
    start.is_some() && (started.is_none() || start == started)
}

/// When process `pid` started (field 22 of `/proc/<pid>/stat`), on Linux.
fn process_start(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
    let after_name = &stat[stat.rfind(')')? + 1..];
    after_name.split_whitespace().nth(19)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(target_os = "linux")]
    #[test]
    fn this_process_has_a_start_time_and_is_alive() {
        let pid = std::process::id();
        let start = process_start(pid).expect("readable on Linux");
        let host = |process_start| ServingHost {
            pid,
            process_start,
            config: PathBuf::new(),
            transport: "stdio".into(),
            since: String::new(),
            updated: String::new(),
            reloads: 0,
            plugins: Vec::new(),
            problems: Vec::new(),
        };
        assert!(alive(&host(Some(start))));
        assert!(!alive(&host(Some(start + 1))), "a reused PID is another process");
    }
}
