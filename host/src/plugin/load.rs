//! Loading: each library file into a [`Slot`], with its identity, status,
//! the created plugin (or the plugin cache's stand-in, or a worker) and its
//! offer, each offered item checked once. A library the plugin cache does
//! not know is opened from a private copy ([`super::copies`]), by a probe
//! worker first when any plugin may run in one, so that a `process`
//! plugin's code never runs in the host.

use std::{
    collections::HashMap,
    path::{Path, PathBuf},
    sync::Arc,
};

use arc_swap::ArcSwap;
use serde::Deserialize;
use serde_json::{Map, Value};

use super::{
    PluginBackend,
    cache::{CachedLibrary, Fingerprint, Offer, PluginCache, config_hash},
    changes::{Relist, Withdraw, Withdrawal},
    dylib::{LazyPlugin, Library, LoadError},
    link::HostLink,
    report::{AbiStatus, PluginReport, PluginStatus},
    threads::CallThreads,
};
use mcp_plugin_api::check::{
    ToolSchemas,
    descriptor::{self, Problem},
};
use rmcp::model::Prompt;

use crate::{
    isolation::{self, Identity, ProcessPlugin},
    locks::LockTable,
    logging::PluginLog,
    registry::{ResourceAt, ToolEntry},
    settings::{Isolation, PluginSettings},
    state::ResourceUpdates,
    trust::Trust,
};

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

/// The libraries in `Plugins.Directory`, and the problem when the folder
/// cannot be read (for the caller to log).
pub fn folder(plugins: &PluginSettings) -> (Vec<PathBuf>, Vec<String>) {
    match library_files(&plugins.directory) {
        Ok(files) => (files, Vec::new()),
        Err(error) => {
            (Vec::new(), vec![format!("plugin directory {} cannot be read: {error}", plugins.directory.display())])
        }
    }
}

/// What every plugin shares with the host and the other plugins, across reloads.
#[derive(Clone, Default)]
pub struct Shared {
    /// The host-wide lock table.
    pub locks: Arc<LockTable>,
    /// What plugins read through `PluginContext::host_info`, replaced on every assembly.
    pub catalog: Arc<ArcSwap<Value>>,
    /// Told when a plugin created on first use fails; `None` outside a serving host.
    pub withdraw: Option<Withdraw>,
    /// Where plugins announce resource updates (`PluginContext::announce`).
    pub updates: ResourceUpdates,
    /// Told when a plugin announces that its prompts or resources changed; `None` outside a
    /// serving host.
    pub relist: Option<Relist>,
}

/// How discovery treats a library it has loaded before.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Loading {
    /// Open and create every enabled plugin now, and refresh the plugin
    /// cache (the `plugins` and `check` commands, `Plugins.LazyLoading: false`, reloads).
    Eager,
    /// Serve a library the plugin cache knows, unchanged, from the cache and
    /// create it on first use ([`super::dylib::LazyPlugin`]); load the others now.
    Lazy,
}

/// A library found in the plugin directory: known from the cache, opened,
/// or opened by a probe worker (not in the host).
enum Found {
    Cached(CachedLibrary),
    Opened(Library),
    Probed(Identity),
}

impl Found {
    fn identity(&self) -> (String, String, String) {
        match self {
            Found::Cached(entry) => (entry.name.clone(), entry.version.clone(), entry.abi_version.clone()),
            Found::Opened(library) => (library.name(), library.version(), library.abi_version().to_owned()),
            Found::Probed(identity) => (identity.name.clone(), identity.version.clone(), identity.abi_version.clone()),
        }
    }

    /// The settings schema the plugin declares, when its library was opened or probed.
    fn settings_schema(&self) -> Option<Result<Value, String>> {
        match self {
            Found::Cached(_) => None,
            Found::Opened(library) => library.settings_schema().transpose(),
            Found::Probed(identity) => identity.settings_schema.clone(),
        }
    }
}

/// One library in the plugin folder, as loading left it.
#[derive(Clone)]
pub struct Slot {
    /// The file in the plugin folder.
    pub file: PathBuf,
    /// The file's fingerprint when it was loaded.
    pub fingerprint: Option<Fingerprint>,
    /// The hash of the configuration its plugin was (or would be) created with.
    pub config_hash: Option<String>,
    /// Identity, status and the problems of loading; [`assemble`] adds what is served.
    pub report: PluginReport,
    /// The plugin, when it serves.
    pub serving: Option<Serving>,
    /// Refused because another library of the same plugin came first: worth
    /// another try when that one goes.
    pub duplicate: bool,
    /// The SHA-256 of the bytes loaded, when the trust checks hashed them.
    pub sha256: Option<String>,
    /// What the trust checks decided from ([`Trust::key`]): a reload checks
    /// the library again when it differs.
    pub trust_key: String,
    /// The JSON Schema the plugin declares for its settings section, read
    /// when the library was opened (or probed), for `check`; `None` when it
    /// declares none or was not opened (the plugin cache served it).
    pub settings_schema: Option<Result<Value, String>>,
}

impl Slot {
    /// The slot of `file` before anything is known of it.
    pub fn new(file: &Path) -> Self {
        Self {
            file: file.to_owned(),
            fingerprint: Fingerprint::of(file),
            config_hash: None,
            report: PluginReport::new(file),
            serving: None,
            duplicate: false,
            sha256: None,
            trust_key: String::new(),
            settings_schema: None,
        }
    }

    /// This (unchanged) library's plugin, now disabled by configuration:
    /// known by name, not opened again.
    pub fn disabled(&self) -> Self {
        let mut slot = Self::new(&self.file);
        slot.config_hash = self.config_hash.clone();
        slot.sha256 = self.sha256.clone();
        slot.trust_key = self.trust_key.clone();
        slot.report.plugin = self.report.plugin.clone();
        slot.report.version = self.report.version.clone();
        slot.report.abi_version = self.report.abi_version.clone();
        slot.report.abi_status = self.report.abi_status;
        slot.report.status = PluginStatus::Disabled;
        slot
    }

    /// Refuses this library because the plugin `name` is served from `first`.
    pub fn refuse_duplicate(&mut self, name: &str, first: &str) {
        self.serving = None;
        self.duplicate = true;
        self.report.refuse(duplicate(name, first));
    }
}

fn duplicate(name: &str, first: &str) -> String {
    format!("a plugin named '{name}' was already loaded from {first}")
}

/// A created (or ready to be created) plugin and what it offers.
#[derive(Clone)]
pub struct Serving {
    /// The plugin.
    pub plugin: Arc<dyn PluginBackend>,
    /// Its tools, prompts and resources, as it gave them.
    pub offer: Arc<Offer>,
    /// Which of them may be served.
    pub verdicts: Arc<Verdicts>,
}

/// For each item of an offer, in order: `None` when it may be served, or
/// why it is refused. Computed once, when the plugin is created.
#[derive(Debug, Default)]
pub struct Verdicts {
    pub(super) tools: Vec<Option<String>>,
    pub(super) prompts: Vec<Option<String>>,
    pub(super) resources: Vec<Option<String>>,
}

impl Verdicts {
    /// The verdicts on an offer the plugin cache stands for: it passed every check when it was cached.
    fn passed(offer: &Offer) -> Self {
        Self {
            tools: vec![None; offer.tools.len()],
            prompts: vec![None; offer.prompts.len()],
            resources: vec![None; offer.resources.len()],
        }
    }

    /// Checks every item `plugin` offers: a descriptor a client would
    /// reject, one that does not parse, or a schema that does not compile.
    pub fn check(plugin: &str, offer: &Offer) -> Self {
        let refused = |item: &str, problems: Vec<Problem>| {
            (!problems.is_empty()).then(|| {
                let reasons: Vec<String> = problems.iter().map(Problem::to_string).collect();
                format!(
                    "{item} of plugin '{plugin}' is refused, because MCP clients would reject it: {}",
                    reasons.join("; ")
                )
            })
        };
        let tools = offer
            .tools
            .iter()
            .map(|descriptor| {
                let value: Value = serde_json::from_str(descriptor.get()).unwrap_or(Value::Null);
                let name = value.get("name").and_then(Value::as_str).unwrap_or_default();
                let label = format!("tool '{name}'");
                refused(&label, descriptor::check_tool(&value)).or_else(|| {
                    let problem = ToolEntry::parse(descriptor).and_then(|tool| {
                        let input = Value::Object((*tool.input_schema).clone());
                        let output = tool.output_schema.as_ref().map(|schema| Value::Object((**schema).clone()));
                        ToolSchemas::compile(&input, output.as_ref()).map(drop)
                    });
                    problem.err().map(|error| format!("{label} of plugin '{plugin}' is refused: {error}"))
                })
            })
            .collect();
        let prompts = offer
            .prompts
            .iter()
            .map(|prompt| {
                let label = format!("prompt '{}'", prompt.get("name").and_then(Value::as_str).unwrap_or_default());
                refused(&label, descriptor::check_prompt(prompt)).or_else(|| {
                    Prompt::deserialize(prompt).err().map(|error| {
                        format!("{label} of plugin '{plugin}' is refused: it is not an MCP prompt: {error}")
                    })
                })
            })
            .collect();
        let resources = offer
            .resources
            .iter()
            .map(|resource| {
                let (label, problems) = match resource.get("uriTemplate") {
                    Some(template) => {
                        (format!("resource template {template}"), descriptor::check_resource_template(resource))
                    }
                    None => (
                        format!("resource {}", resource.get("uri").unwrap_or(&Value::Null)),
                        descriptor::check_resource(resource),
                    ),
                };
                refused(&label, problems).or_else(|| {
                    ResourceAt::of(resource)
                        .err()
                        .map(|error| format!("{label} of plugin '{plugin}' is refused: {error}"))
                })
            })
            .collect();
        Self { tools, prompts, resources }
    }

    /// Why items were refused, in offer order.
    pub fn problems(&self) -> impl Iterator<Item = &String> {
        self.tools.iter().chain(&self.prompts).chain(&self.resources).flatten()
    }
}

/// What loading a library needs besides the file.
pub struct LoadContext<'a> {
    /// The `Plugins` section in force.
    pub plugins: &'a PluginSettings,
    /// What the plugins share with the host.
    pub shared: &'a Shared,
    /// `Plugins.Config`, shared by every plugin's link.
    pub config: Arc<Map<String, Value>>,
    /// Whether an unchanged library known to the cache is created on first use.
    pub loading: Loading,
    /// The permission and lock checks every library passes before it is opened.
    pub trust: Trust,
}

impl<'a> LoadContext<'a> {
    /// The context for loading under `plugins`, checked by `trust`.
    pub fn new(plugins: &'a PluginSettings, shared: &'a Shared, loading: Loading, trust: Trust) -> Self {
        Self { plugins, shared, config: Arc::new(plugins.shared.clone()), loading, trust }
    }

    /// The hash of what plugin `name` is configured with.
    pub fn config_hash(&self, name: &str) -> String {
        config_hash(&self.plugins.section(name), &self.config)
    }
}

/// Loads the library `file` into a slot: a library the plugin cache serves
/// is not opened yet (its plugin is created on first use), any other is
/// opened from a private copy ([`super::copies`]). `names` holds the plugins
/// loaded so far by name: a second library of the same plugin is refused.
/// Each load is counted in the host's metrics by how it fared.
pub fn load_library(
    file: &Path,
    context: &LoadContext,
    cache: &mut PluginCache,
    names: &mut HashMap<String, String>,
) -> Slot {
    let slot = load_slot(file, context, cache, names);
    crate::telemetry::plugin_loaded(&slot.report);
    slot
}

fn load_slot(file: &Path, context: &LoadContext, cache: &mut PluginCache, names: &mut HashMap<String, String>) -> Slot {
    let mut slot = Slot::new(file);
    slot.trust_key = context.trust.key(file);
    let cached = if context.loading == Loading::Lazy { cache.get(file).cloned() } else { None };
    // What is opened is a copy that holds the bytes the file had at the copy's fingerprint.
    let copy = match cached {
        Some(_) => None,
        None => match super::copies::copy(file) {
            Ok(copy) => {
                slot.fingerprint = copy.fingerprint.clone();
                Some(copy.path)
            }
            Err(problem) => {
                slot.report.refuse(problem);
                return slot;
            }
        },
    };
    let open_from = copy.as_deref().unwrap_or(file);
    let Some(mut admitted) = context.trust.admit(file, open_from, slot.fingerprint.as_ref(), cache, &mut slot.report)
    else {
        return slot;
    };
    slot.sha256 = admitted.sha256.clone();
    let report = &mut slot.report;
    let found = match cached {
        Some(entry) => Some(Found::Cached(entry)),
        None if context.plugins.may_isolate() => probe(open_from, context.plugins, report).map(Found::Probed),
        None => open(open_from, report).map(Found::Opened),
    };
    let Some(found) = found else {
        cache.forget(file);
        return slot;
    };
    let (name, version, abi_version) = found.identity();
    slot.settings_schema = found.settings_schema();
    let report = &mut slot.report;
    report.plugin = Some(name.clone());
    report.version = Some(version.clone());
    report.abi_version = Some(abi_version.clone());
    report.abi_status = AbiStatus::Compatible;
    let config_hash = context.config_hash(&name);
    slot.config_hash = Some(config_hash.clone());
    if !context.plugins.is_enabled(&name) {
        tracing::info!("plugin {name} ({}) is disabled by configuration", report.file);
        report.status = PluginStatus::Disabled;
        if !matches!(found, Found::Cached(_)) {
            cache.remember(file, &name, &version, &abi_version, None);
        }
        return slot;
    }
    if let Some(first) = names.get(&name) {
        slot.duplicate = true;
        report.refuse(duplicate(&name, first));
        return slot;
    }
    let link = HostLink {
        plugin: name.clone(),
        config: context.plugins.section(&name),
        shared: Arc::clone(&context.config),
        log: PluginLog::new(&name),
        locks: Arc::clone(&context.shared.locks),
        runtime: tokio::runtime::Handle::current(),
        catalog: Arc::clone(&context.shared.catalog),
        updates: context.shared.updates.clone(),
        relist: context.shared.relist.clone(),
    };
    let isolation = context.plugins.isolation(&name);
    let cached_offer = match &found {
        Found::Cached(entry) => entry.offer_for(&config_hash),
        _ => None,
    };
    let (serving, from_cache) = match (cached_offer, found) {
        (Some(offer), _) => {
            let withdraw = withdrawer(context, file, &offer);
            let plugin: Arc<dyn PluginBackend> = match isolation {
                Isolation::InProcess => Arc::new(
                    LazyPlugin::new(
                        name.clone(),
                        version.clone(),
                        file.to_owned(),
                        Arc::clone(&offer),
                        context.plugins.cache_file.clone(),
                        link,
                        withdraw,
                    )
                    .verified_as(admitted.verified.clone()),
                ),
                Isolation::Process => {
                    let limits = context.plugins.worker_limits(&name);
                    match ProcessPlugin::new(
                        file.to_owned(),
                        link,
                        limits,
                        version.clone(),
                        Arc::clone(&offer),
                        withdraw,
                    ) {
                        Ok(plugin) => Arc::new(plugin),
                        Err(problem) => {
                            report.refuse(problem);
                            return slot;
                        }
                    }
                }
            };
            let verdicts = Arc::new(Verdicts::passed(&offer));
            (Serving { plugin, offer, verdicts }, true)
        }
        (None, found) => match create_now((file, open_from), found, link, isolation, context, report) {
            Some((plugin, offer)) => {
                let verdicts = Verdicts::check(&name, &offer);
                for problem in verdicts.problems() {
                    report.refuse(problem.clone());
                }
                let clean = report.problems.is_empty();
                cache.remember(file, &name, &version, &abi_version, clean.then(|| (config_hash, Arc::clone(&offer))));
                (Serving { plugin, offer, verdicts: Arc::new(verdicts) }, false)
            }
            None => {
                cache.forget(file);
                return slot;
            }
        },
    };
    let hashed_before = serving.offer.surface_sha256.get().is_some();
    let accepted = context.trust.accept_surface(&mut admitted, &serving.offer, report);
    if from_cache && !hashed_before && serving.offer.surface_sha256.get().is_some() {
        cache.mark_changed();
    }
    if !accepted {
        return slot;
    }
    names.insert(name.clone(), report.file.clone());
    report.status = PluginStatus::Loaded;
    report.isolated = isolation == Isolation::Process;
    let offered: Vec<String> = serving
        .offer
        .tools
        .iter()
        .filter_map(|tool| serde_json::from_str::<Named>(tool.get()).ok().map(|named| named.name))
        .collect();
    tracing::info!(
        "{} plugin {name} {version} from {} offering tools: {}",
        if from_cache { "serving (created on first use)" } else { "loaded" },
        report.file,
        offered.join(", ")
    );
    slot.serving = Some(serving);
    slot
}

/// Just the name of a descriptor, for messages.
#[derive(Deserialize)]
struct Named {
    #[serde(default)]
    name: String,
}

/// Tells a serving host to withdraw the plugin of `file` that stands for
/// `offer` when it fails after start-up (a creation on first use, a worker
/// that keeps failing).
fn withdrawer(context: &LoadContext, file: &Path, offer: &Arc<Offer>) -> Option<Box<dyn Fn(String) + Send + Sync>> {
    context.shared.withdraw.clone().map(|withdraw| {
        let (file, stood_for) = (file.to_owned(), Arc::downgrade(offer));
        Box::new(move |problem: String| withdraw(Withdrawal { file: file.clone(), offer: stood_for.clone(), problem }))
            as Box<dyn Fn(String) + Send + Sync>
    })
}

/// Creates the plugin of `file` now, in process (opening its library from
/// `open_from`, its private copy, first if the cache stood in for it) or in
/// a worker process (which loads `open_from`), and reads its offer, or
/// records in `report` why it cannot be.
fn create_now(
    (file, open_from): (&Path, &Path),
    found: Found,
    link: HostLink,
    isolation: Isolation,
    context: &LoadContext,
    report: &mut PluginReport,
) -> Option<(Arc<dyn PluginBackend>, Arc<Offer>)> {
    if isolation == Isolation::Process {
        let limits = context.plugins.worker_limits(&link.plugin);
        // The withdrawal needs the offer, known only once the worker answers: it is tied to it after.
        let offer_slot: Arc<std::sync::OnceLock<Arc<Offer>>> = Arc::default();
        let on_failure = context.shared.withdraw.clone().map(|withdraw| {
            let (file, offer_slot) = (file.to_owned(), Arc::clone(&offer_slot));
            Box::new(move |problem: String| {
                let offer = offer_slot.get().map(Arc::downgrade).unwrap_or_default();
                withdraw(Withdrawal { file: file.clone(), offer, problem })
            }) as Box<dyn Fn(String) + Send + Sync>
        });
        let started = ProcessPlugin::start(open_from.to_owned(), link, limits, on_failure);
        let (plugin, offer) = started.map_err(|problem| report.refuse(problem)).ok()?;
        let _ = offer_slot.set(Arc::clone(&offer));
        return Some((Arc::new(plugin), offer));
    }
    let library = match found {
        Found::Opened(library) => library,
        // Known to be an in-process plugin now: it may be opened here.
        _ => open(open_from, report)?,
    };
    if library.name() != link.plugin {
        report.refuse(format!("the library changed while it was loaded: it now holds plugin '{}'", library.name()));
        return None;
    }
    let threads = CallThreads::new(&link.plugin);
    let plugin = library.create(link, threads).map_err(|error| report.refuse(error.to_string())).ok()?;
    let offer = plugin
        .current_offer()
        .map_err(|error| report.refuse(format!("its tool list could not be read: {error}")))
        .ok()?;
    Some((Arc::new(plugin), Arc::new(offer)))
}

/// Learns which plugin a library holds from a probe worker (so none of its
/// code runs in the host before its isolation is known), or records in
/// `report` why it cannot be served: the same lines as [`open`].
fn probe(file: &Path, plugins: &PluginSettings, report: &mut PluginReport) -> Option<Identity> {
    match isolation::probe(file, &plugins.default_worker_limits()) {
        Ok(identity) => Some(identity),
        Err(refusal) => {
            if let Some(version) = refusal.incompatible_abi {
                report.abi_status = AbiStatus::Incompatible;
                report.abi_version = Some(version);
            }
            report.refuse(refusal.message);
            None
        }
    }
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
