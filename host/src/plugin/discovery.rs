//! Finds plugin libraries, loads the enabled ones and builds the tool
//! registry, refusing what cannot be served with one error line each while
//! the rest still serve.

use std::{
    collections::HashMap,
    path::{Path, PathBuf},
    sync::{Arc, OnceLock},
};

use serde::{Deserialize, Serialize};
use serde_json::{Value, value::RawValue};

use super::{
    PluginBackend,
    cache::{CachedLibrary, Offer, PluginCache, config_hash},
    dylib::{DylibPlugin, HostLink, Library, LoadError},
    lazy::LazyPlugin,
};
use mcp_plugin_api::check::descriptor::{self, Problem};
use rmcp::model::Prompt;

use crate::{
    locks::LockTable,
    logging::PluginLog,
    registry::{PromptEntry, Registry, ResourceEntry, ToolEntry},
    settings::PluginSettings,
};

/// Whether a library is served.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
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
#[derive(Debug, Clone, Serialize)]
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
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub prompts: Vec<String>,
    /// The resources (URIs and templates) served from this plugin.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub resources: Vec<String>,
    /// Problems: why the plugin or some of its tools were refused.
    pub problems: Vec<String>,
}

impl PluginReport {
    fn new(file: &Path) -> Self {
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
            problems: Vec::new(),
        }
    }

    fn refuse(&mut self, problem: String) {
        tracing::error!("refused {}: {problem}", self.file);
        self.status = PluginStatus::Refused;
        self.problems.push(problem);
    }
}

/// The outcome of discovery.
pub struct Discovery {
    /// The tools to serve.
    pub registry: Registry,
    /// One report per library found.
    pub reports: Vec<PluginReport>,
    /// Problems that concern no single library (a missing directory).
    pub problems: Vec<String>,
}

/// The plugin libraries in `directory`: files with this platform's
/// dynamic-library extension, sorted by name.
pub fn library_files(directory: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(directory)?
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.is_file() && path.extension().is_some_and(|ext| ext == std::env::consts::DLL_EXTENSION))
        .collect();
    files.sort();
    Ok(files)
}

/// What every plugin shares with the host and the other plugins.
#[derive(Clone, Default)]
pub struct Shared {
    /// The host-wide lock table.
    pub locks: Arc<LockTable>,
    /// The server's name, for plugins that describe the server.
    pub server_name: String,
}

/// How discovery treats a library it has loaded before.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Loading {
    /// Open and create every enabled plugin now, and refresh the plugin
    /// cache (the `plugins` and `check` commands, `Plugins.LazyLoading: false`).
    Eager,
    /// Serve a library the plugin cache knows, unchanged, from the cache and
    /// create it on first use ([`super::lazy`]); load the others now.
    Lazy,
}

/// A library found in the plugin directory: known from the cache, or opened.
enum Found {
    Cached(CachedLibrary),
    Opened(Library),
}

impl Found {
    fn identity(&self) -> (String, String, String) {
        match self {
            Found::Cached(entry) => (entry.name.clone(), entry.version.clone(), entry.abi_version.clone()),
            Found::Opened(library) => (library.name(), library.version(), library.abi_version().to_owned()),
        }
    }
}

/// Loads every enabled plugin in the configured directory. Must run inside
/// the host's tokio runtime (plugins' lock waits are spawned on it).
pub fn discover(settings: &PluginSettings, shared_services: &Shared, loading: Loading) -> Discovery {
    let mut registry = Registry::default();
    let mut reports = Vec::new();
    let mut problems = Vec::new();
    let files = match library_files(&settings.directory) {
        Ok(files) => files,
        Err(error) => {
            let problem = format!("plugin directory {} cannot be read: {error}", settings.directory.display());
            tracing::error!("{problem}");
            problems.push(problem);
            Vec::new()
        }
    };
    let mut cache = PluginCache::open(settings.cache_file.as_deref());
    let shared = Arc::new(settings.shared.clone());
    let catalog = Arc::new(OnceLock::new());
    let mut plugin_files: HashMap<String, String> = HashMap::new();
    for file in files {
        let mut report = PluginReport::new(&file);
        let cached = if loading == Loading::Lazy { cache.get(&file).cloned() } else { None };
        let found = match cached {
            Some(entry) => Found::Cached(entry),
            None => match open(&file, &mut report) {
                Some(library) => Found::Opened(library),
                None => {
                    cache.forget(&file);
                    reports.push(report);
                    continue;
                }
            },
        };
        let (name, version, abi_version) = found.identity();
        report.plugin = Some(name.clone());
        report.version = Some(version.clone());
        report.abi_version = Some(abi_version.clone());
        report.abi_status = AbiStatus::Compatible;
        if !settings.is_enabled(&name) {
            tracing::info!("plugin {name} ({}) is disabled by configuration", report.file);
            report.status = PluginStatus::Disabled;
            if let Found::Opened(_) = found {
                cache.remember(&file, &name, &version, &abi_version, None);
            }
            reports.push(report);
            continue;
        }
        if let Some(first) = plugin_files.get(&name) {
            report.refuse(format!("a plugin named '{name}' was already loaded from {first}"));
            reports.push(report);
            continue;
        }
        let link = HostLink {
            plugin: name.clone(),
            config: settings.section(&name),
            shared: Arc::clone(&shared),
            log: PluginLog::new(&name),
            locks: Arc::clone(&shared_services.locks),
            runtime: tokio::runtime::Handle::current(),
            catalog: Arc::clone(&catalog),
        };
        let config_hash = config_hash(&link.config, &shared);
        let cached_offer = match &found {
            Found::Cached(entry) => entry.offer_for(&config_hash),
            Found::Opened(_) => None,
        };
        let (plugin, offer, from_cache): (Arc<dyn PluginBackend>, Arc<Offer>, bool) = match (cached_offer, found) {
            (Some(offer), _) => {
                let lazy = LazyPlugin::new(
                    name.clone(),
                    version.clone(),
                    file.clone(),
                    Arc::clone(&offer),
                    settings.cache_file.clone(),
                    link,
                );
                (Arc::new(lazy), offer, true)
            }
            (None, found) => match create_now(&file, found, link, &mut report) {
                Some((plugin, offer)) => (Arc::new(plugin), offer, false),
                None => {
                    cache.forget(&file);
                    reports.push(report);
                    continue;
                }
            },
        };
        plugin_files.insert(name.clone(), report.file.clone());
        register_tools(&mut registry, &plugin, &offer.tools, !from_cache, &mut report);
        register_extras(&mut registry, &plugin, &offer, !from_cache, &mut report);
        if !from_cache {
            let clean = report.problems.is_empty();
            cache.remember(&file, &name, &version, &abi_version, clean.then_some((config_hash, offer)));
        }
        let serves_nothing = report.tools.is_empty() && report.prompts.is_empty() && report.resources.is_empty();
        if serves_nothing && !report.problems.is_empty() {
            report.status = PluginStatus::Refused;
        } else {
            report.status = PluginStatus::Loaded;
            tracing::info!(
                "{} plugin {name} {version} from {} with tools: {}",
                if from_cache { "serving (created on first use)" } else { "loaded" },
                report.file,
                report.tools.join(", ")
            );
        }
        reports.push(report);
    }
    cache.retain_existing();
    cache.save();
    let _ = catalog.set(host_info(&shared_services.server_name, &reports));
    Discovery { registry, reports, problems }
}

/// Creates a plugin now (opening its library first if the cache stood in
/// for it) and reads its offer, or records in `report` why it cannot be.
fn create_now(
    file: &Path,
    found: Found,
    link: HostLink,
    report: &mut PluginReport,
) -> Option<(DylibPlugin, Arc<Offer>)> {
    let library = match found {
        Found::Opened(library) => library,
        Found::Cached(_) => open(file, report)?,
    };
    let plugin = library.create(link).map_err(|error| report.refuse(error.to_string())).ok()?;
    let offer =
        Offer::of(&plugin).map_err(|error| report.refuse(format!("its tool list could not be read: {error}"))).ok()?;
    Some((plugin, Arc::new(offer)))
}

/// Opens a library and checks its ABI, or records in `report` why not.
fn open(file: &Path, report: &mut PluginReport) -> Option<Library> {
    match Library::open(file) {
        Ok(library) => Some(library),
        Err(error) => {
            if let LoadError::IncompatibleAbi { plugin: version, .. }
            | LoadError::LayoutMismatch { declared: version, .. } = &error
            {
                report.abi_status = AbiStatus::Incompatible;
                report.abi_version = Some(version.clone());
            }
            report.refuse(error.to_string());
            None
        }
    }
}

/// What plugins learn of the host through `PluginContext::host_info`.
fn host_info(server_name: &str, reports: &[PluginReport]) -> serde_json::Value {
    let plugins: Vec<serde_json::Value> = reports
        .iter()
        .filter(|report| report.status == PluginStatus::Loaded)
        .map(|report| {
            serde_json::json!({
                "name": report.plugin,
                "version": report.version,
                "tools": report.tools,
                "prompts": report.prompts,
                "resources": report.resources,
            })
        })
        .collect();
    let protocols: Vec<&str> =
        rmcp::model::ProtocolVersion::KNOWN_VERSIONS.iter().map(|version| version.as_str()).collect();
    serde_json::json!({
        "serverName": server_name,
        "hostVersion": env!("CARGO_PKG_VERSION"),
        "pluginApiVersion": mcp_plugin_api::abi::ABI_VERSION,
        "protocolVersions": protocols,
        "plugins": plugins,
    })
}

/// Adds a plugin's prompts and resources, refusing each one that a client
/// would reject (when `check` asks for it: what comes from the plugin cache
/// passed when it was cached) or whose name or URI another plugin took.
fn register_extras(
    registry: &mut Registry,
    plugin: &Arc<dyn PluginBackend>,
    offer: &Offer,
    check: bool,
    report: &mut PluginReport,
) {
    for (index, descriptor) in offer.prompts.iter().enumerate() {
        let label = format!("prompt '{}'", descriptor.get("name").and_then(Value::as_str).unwrap_or_default());
        if check && refused(report, plugin, &label, descriptor::check_prompt(descriptor)) {
            continue;
        }
        let prompt = match Prompt::deserialize(descriptor) {
            Ok(prompt) => prompt,
            Err(error) => {
                report.refuse(format!(
                    "{label} of plugin '{}' is refused: it is not an MCP prompt: {error}",
                    plugin.name()
                ));
                continue;
            }
        };
        let name = prompt.name.clone();
        let entry = PromptEntry { prompt, plugin: Arc::clone(plugin), index: index as u32 };
        match registry.insert_prompt(entry) {
            Ok(()) => report.prompts.push(name),
            Err(owner) => report.refuse(format!(
                "prompt '{name}' of plugin '{}' is refused: plugin '{owner}' already provides a prompt of that name",
                plugin.name()
            )),
        }
    }
    for (index, descriptor) in offer.resources.iter().enumerate() {
        let (label, problems) = match descriptor.get("uriTemplate") {
            Some(template) => {
                (format!("resource template {template}"), descriptor::check_resource_template(descriptor))
            }
            None => (
                format!("resource {}", descriptor.get("uri").unwrap_or(&Value::Null)),
                descriptor::check_resource(descriptor),
            ),
        };
        if check && refused(report, plugin, &label, problems) {
            continue;
        }
        let entry = match ResourceEntry::new(Arc::clone(plugin), index as u32, descriptor.clone()) {
            Ok(entry) => entry,
            Err(error) => {
                report.refuse(format!("{label} of plugin '{}' is refused: {error}", plugin.name()));
                continue;
            }
        };
        let key = entry.key().to_owned();
        match registry.insert_resource(entry) {
            Ok(()) => report.resources.push(key),
            Err(owner) => report.refuse(format!(
                "resource '{key}' of plugin '{}' is refused: plugin '{owner}' already provides it",
                plugin.name()
            )),
        }
    }
}

/// Refuses an item of a plugin whose descriptor has `problems`, with one
/// line naming the plugin, the item and every field at fault.
fn refused(report: &mut PluginReport, plugin: &Arc<dyn PluginBackend>, item: &str, problems: Vec<Problem>) -> bool {
    if problems.is_empty() {
        return false;
    }
    let reasons: Vec<String> = problems.iter().map(Problem::to_string).collect();
    report.refuse(format!(
        "{item} of plugin '{}' is refused, because MCP clients would reject it: {}",
        plugin.name(),
        reasons.join("; ")
    ));
    true
}

/// Adds a plugin's tools to the registry, refusing each tool that cannot be
/// served: a descriptor a client would reject, a name another plugin
/// already took, or a schema that does not compile. `check` asks for the
/// descriptor check and the compilation now; what comes from the plugin
/// cache passed both when it was cached, and compiles on its first call.
fn register_tools(
    registry: &mut Registry,
    plugin: &Arc<dyn PluginBackend>,
    descriptors: &[Box<RawValue>],
    check: bool,
    report: &mut PluginReport,
) {
    for (index, descriptor) in descriptors.iter().enumerate() {
        if check {
            let value: Value = serde_json::from_str(descriptor.get()).unwrap_or(Value::Null);
            let label = format!("tool '{}'", value.get("name").and_then(Value::as_str).unwrap_or_default());
            if refused(report, plugin, &label, descriptor::check_tool(&value)) {
                continue;
            }
        }
        let entry = match ToolEntry::new(Arc::clone(plugin), index as u32, descriptor) {
            Ok(entry) => entry,
            Err(error) => {
                /// Just the name of a descriptor that is not a whole tool, for the message.
                #[derive(Deserialize)]
                struct Named {
                    #[serde(default)]
                    name: String,
                }
                let name = serde_json::from_str::<Named>(descriptor.get()).map(|named| named.name).unwrap_or_default();
                report.refuse(format!("tool '{name}' of plugin '{}' is refused: {error}", plugin.name()));
                continue;
            }
        };
        let name = entry.name().to_owned();
        if let Some(owner) = registry.owner_of(&name) {
            report.refuse(format!(
                "tool '{name}' of plugin '{}' is refused: plugin '{owner}' already provides a tool of that name",
                plugin.name()
            ));
            continue;
        }
        if check && let Err(error) = entry.compile() {
            report.refuse(format!("tool '{name}' of plugin '{}' is refused: {error}", plugin.name()));
            continue;
        }
        registry.insert(entry);
        report.tools.push(name);
    }
}
