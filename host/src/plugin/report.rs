//! How a library fared: the report `plugins`, `check`, the status file, the
//! metrics and `/readyz` read. A plain type, below the loader that fills it
//! in, so that everything that reads reports need not know how loading works.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::surface::{Hidden, Overridden};

/// Whether a library is served.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PluginStatus {
    /// Its plugin serves (some of) its tools, prompts or resources.
    Loaded,
    /// Configuration switched it off.
    Disabled,
    /// It could not be served; the report's problems say why.
    Refused,
}

/// Whether a library was built against a plugin API this host speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AbiStatus {
    /// Its ABI matches.
    Compatible,
    /// Another major version, or a mismatched layout.
    Incompatible,
    /// Not known: the file is no plugin library, or could not be opened.
    Unknown,
}

impl std::fmt::Display for PluginStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Loaded => "loaded",
            Self::Disabled => "disabled",
            Self::Refused => "refused",
        })
    }
}

impl std::fmt::Display for AbiStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Compatible => "compatible",
            Self::Incompatible => "incompatible",
            Self::Unknown => "unknown",
        })
    }
}

/// How a library fared, for `mcp-plugin-host plugins` and `check`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PluginReport {
    /// The library's file name.
    pub file: String,
    /// The plugin's name, once known.
    pub plugin: Option<String>,
    /// The plugin's version, once known.
    pub version: Option<String>,
    /// The plugin-API version the library was built against, once known.
    pub abi_version: Option<String>,
    /// Whether its ABI matches the host's.
    pub abi_status: AbiStatus,
    /// Whether it is served.
    pub status: PluginStatus,
    /// The tools served from this plugin.
    pub tools: Vec<String>,
    /// The prompts served from this plugin.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub prompts: Vec<String>,
    /// The resources (URIs and templates) served from this plugin.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub resources: Vec<String>,
    /// Tools served under another name than the plugin's own (`Tools.Prefix`): own name → served name.
    #[serde(skip_serializing_if = "BTreeMap::is_empty", default)]
    pub renamed: BTreeMap<String, String>,
    /// Items the operator's filters keep from being served (`Tools`, `Prompts`, `Resources`).
    #[serde(skip_serializing_if = "Hidden::is_empty", default)]
    pub hidden: Hidden,
    /// What the operator changed in served tools (`Tools.Overrides`).
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub overrides: Vec<Overridden>,
    /// Why the library now on disk was not put in place of the version
    /// that goes on serving (set by a reload only).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub refused_on_reload: Option<String>,
    /// How the library differs from the lock file, when it is served anyway
    /// (`Plugins.RequireLock` off); `check` fails on it.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub lock_mismatch: Vec<String>,
    /// Problems: why the plugin or some of its tools were refused.
    pub problems: Vec<String>,
    /// Whether it runs in a worker process of its own (`Plugins.Isolation: process`).
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub isolated: bool,
}

impl PluginReport {
    pub(super) fn new(file: &Path) -> Self {
        Self {
            file: file.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default(),
            plugin: None,
            version: None,
            abi_version: None,
            abi_status: AbiStatus::Unknown,
            status: PluginStatus::Refused,
            tools: Vec::new(),
            prompts: Vec::new(),
            resources: Vec::new(),
            renamed: BTreeMap::new(),
            hidden: Hidden::default(),
            overrides: Vec::new(),
            refused_on_reload: None,
            lock_mismatch: Vec::new(),
            problems: Vec::new(),
            isolated: false,
        }
    }

    /// Records a problem that keeps the plugin, or one of its items, from
    /// being served, and logs it as one line.
    pub fn refuse(&mut self, problem: String) {
        tracing::error!("refused {}: {problem}", self.file);
        self.status = PluginStatus::Refused;
        self.problems.push(problem);
    }
}
