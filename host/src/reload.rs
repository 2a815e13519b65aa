//! Hot reload: a serving host applies a new or changed plugin library, a
//! removed one, or a changed configuration file without a restart.
//!
//! The [`Reloader`] watches `Plugins.Directory` and the configuration file
//! (unless `Plugins.Watch` is false) and reloads on SIGHUP. After a change
//! it waits until every watched file has kept its size and time for
//! `Plugins.WatchQuietMs`, so a library still being copied in is not taken
//! for a broken one; then it reads the configuration again and rescans the
//! folder:
//!
//! * a library whose file and configuration are unchanged keeps its plugin
//!   (created or not yet: the plugin cache's lazy creation goes on working);
//! * a new or changed library, or one whose configuration changed, is
//!   loaded from a private copy of its own (`crate::plugin::copies`, as
//!   every library is): loading the same path again would only return the
//!   library already mapped, and nothing is ever unloaded, so the old copy
//!   stays mapped but unused;
//! * a replacement that fails (not a library, wrong ABI, its constructor
//!   fails, an item fails the descriptor checks) leaves the version that was
//!   serving in place, and says so in the reports (`refusedOnReload`); a
//!   configuration file that does not parse leaves the configuration in
//!   force; either logs one line.
//!
//! The new [`Generation`] is then put in place at once: calls already
//! running hold on to the plugin they started on and finish there, new
//! calls go to the new one, and every session is told which lists changed.
//! A plugin the cache served whose creation on first use fails is
//! withdrawn the same way, until its library or configuration changes.
//!
//! Every reload reads the lock file again (a change to it is watched like
//! the configuration when it lives in the configuration's folder) and puts
//! new and changed libraries through the same trust checks as a start
//! ([`crate::trust`]), hashing the private copy that is loaded. A library
//! whose entry in the lock changed is checked again even if its file did
//! not; a replacement the lock refuses leaves the pinned version serving,
//! unless the lock no longer vouches for that one either.

use std::{
    collections::HashMap,
    path::{Path, PathBuf},
    sync::{Arc, Weak},
    time::SystemTime,
};

use notify::{RecursiveMode, Watcher};
use tokio::sync::mpsc;

use crate::{
    plugin::{
        assemble::assemble,
        cache::{Fingerprint, Offer, PluginCache},
        changes::{Relist, Relisting, Withdraw, Withdrawal},
        load::{LoadContext, Loading, Shared, Slot, Verdicts, folder, library_files, load_library},
        report::PluginStatus,
    },
    settings::{Overrides, PluginSettings, Settings},
    state::{Generation, HostState},
    status::StatusFile,
    trust::Trust,
};

/// How a report's problem says that the library on disk was refused and
/// an older version goes on serving.
const REFUSED_ON_RELOAD: &str = "refused on reload (the version loaded before goes on serving): ";

/// What sets a reload going.
enum Event {
    /// A watched file changed.
    Changed,
    /// The operator sent SIGHUP.
    Signal,
    /// A plugin's creation on first use failed.
    Withdrawn(Withdrawal),
    /// A plugin announced that its prompts or resources changed.
    Relisted(Relisting),
}

/// Why the reloader serves a new generation.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Cause {
    /// A watched file changed or the operator sent SIGHUP.
    Reload,
    /// A plugin created on first use failed.
    Withdrawal,
    /// A plugin announced that its lists changed.
    Relisting,
}

/// The reloader's inbox, and the watcher that fills it: made before
/// discovery, so that no change after discovery goes unseen and the plugins
/// it serves from the cache can report a failed creation.
pub struct Inbox {
    sender: mpsc::UnboundedSender<Event>,
    receiver: mpsc::UnboundedReceiver<Event>,
    /// The watcher and the plugin folder it watches.
    watcher: Option<(notify::RecommendedWatcher, PathBuf)>,
}

impl Default for Inbox {
    fn default() -> Self {
        let (sender, receiver) = mpsc::unbounded_channel();
        Self { sender, receiver, watcher: None }
    }
}

impl Inbox {
    /// Watches the plugin folder and the configuration file `config`'s
    /// folder, if `Plugins.Watch` allows (and not already that folder). Call
    /// it before discovery, so that no change after discovery goes unseen.
    pub fn watch(&mut self, plugins: &PluginSettings, config: &Path) {
        let folder = plugins.directory.clone();
        if !plugins.watch {
            self.watcher = None;
            return;
        }
        if self.watcher.as_ref().is_some_and(|(_, watched)| *watched == folder) {
            return;
        }
        let sender = self.sender.clone();
        let config_name = config.file_name().map(ToOwned::to_owned);
        let lock_name = plugins.lock_file.as_deref().and_then(Path::file_name).map(ToOwned::to_owned);
        let relevant = move |path: &Path| {
            path.file_name() == config_name.as_deref()
                || (lock_name.is_some() && path.file_name() == lock_name.as_deref())
                || path.extension().is_some_and(|ext| ext == std::env::consts::DLL_EXTENSION)
        };
        let watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
            let Ok(event) = event else { return };
            if !matches!(event.kind, notify::EventKind::Access(_)) && event.paths.iter().any(|path| relevant(path)) {
                let _ = sender.send(Event::Changed);
            }
        });
        let config_folder = match config.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent.to_owned(),
            _ => PathBuf::from("."),
        };
        let watched = watcher.and_then(|mut watcher| {
            watcher.watch(&folder, RecursiveMode::NonRecursive)?;
            if config_folder != folder {
                watcher.watch(&config_folder, RecursiveMode::NonRecursive)?;
            }
            Ok(watcher)
        });
        match watched {
            Ok(watcher) => {
                tracing::info!("watching {} and {} for changes", folder.display(), config.display());
                self.watcher = Some((watcher, folder));
            }
            Err(error) => {
                tracing::warn!("cannot watch {} for changes ({error}); SIGHUP still reloads", folder.display());
                self.watcher = None;
            }
        }
    }

    /// The hook discovery gives plugins created on first use (`Shared::withdraw`).
    pub fn withdraw_hook(&self) -> Withdraw {
        let sender = self.sender.clone();
        Arc::new(move |withdrawal| {
            let _ = sender.send(Event::Withdrawn(withdrawal));
        })
    }

    /// The hook plugins' announcements of list changes go through (`Shared::relist`).
    pub fn relist_hook(&self) -> Relist {
        let sender = self.sender.clone();
        Arc::new(move |relisting| {
            let _ = sender.send(Event::Relisted(relisting));
        })
    }
}

/// Keeps what a serving host serves in step with its plugin folder and
/// configuration file.
pub struct Reloader {
    state: Arc<HostState>,
    config: PathBuf,
    overrides: Overrides,
    shared: Shared,
    slots: Vec<Slot>,
    inbox: Inbox,
    status: StatusFile,
    /// SIGHUP, taken over from its default action (ending the process) when the reloader is made.
    hangups: Hangups,
    /// Problems of the last (re)load that concern no library: an unreadable
    /// folder, a configuration not applied. A withdrawal keeps them.
    problems: Vec<String>,
}

impl Reloader {
    /// A reloader for the host `state` started from `slots` (discovery's),
    /// whose configuration came from `config` and the command line's `overrides`.
    pub fn new(
        state: Arc<HostState>,
        inbox: Inbox,
        slots: Vec<Slot>,
        shared: Shared,
        config: PathBuf,
        overrides: Overrides,
        transport: &str,
    ) -> Self {
        let mut status = StatusFile::new(&config, transport);
        let current = state.current();
        status.publish(&current, false);
        let problems = folder(&current.settings.plugins).1;
        Self { state, config, overrides, shared, slots, inbox, status, hangups: hangups(), problems }
    }

    /// Serves reloads until the host shuts down (its status file goes with it).
    pub async fn run(mut self) {
        let shutdown = self.state.shutdown.clone();
        loop {
            let event = tokio::select! {
                _ = shutdown.cancelled() => break,
                event = self.inbox.receiver.recv() => event,
                Some(()) = next_hangup(&mut self.hangups) => Some(Event::Signal),
            };
            match event {
                None => break,
                Some(Event::Withdrawn(withdrawal)) => self.withdraw(withdrawal),
                Some(Event::Relisted(relisting)) => self.relist(relisting),
                Some(Event::Changed | Event::Signal) => {
                    if !self.settle().await {
                        break;
                    }
                    tokio::task::block_in_place(|| self.reload());
                }
            }
        }
    }

    /// Waits until no watched file has changed size or time for the quiet
    /// period. Withdrawals that arrive meanwhile are applied. `false` when
    /// the host shuts down meanwhile.
    async fn settle(&mut self) -> bool {
        let quiet = self.state.current().settings.plugins.watch_quiet;
        let mut before = self.snapshot();
        loop {
            tokio::select! {
                _ = self.state.shutdown.cancelled() => return false,
                _ = tokio::time::sleep(quiet) => {}
            }
            let mut changed = false;
            while let Ok(event) = self.inbox.receiver.try_recv() {
                match event {
                    Event::Withdrawn(withdrawal) => self.withdraw(withdrawal),
                    Event::Relisted(relisting) => self.relist(relisting),
                    Event::Changed | Event::Signal => changed = true,
                }
            }
            let after = self.snapshot();
            if !changed && after == before {
                return true;
            }
            before = after;
        }
    }

    /// Size and time of the configuration file, the lock file and every library.
    fn snapshot(&self) -> Vec<(PathBuf, Option<(u64, SystemTime)>)> {
        let plugins = &self.state.current().settings.plugins;
        let files = library_files(&plugins.directory).unwrap_or_default();
        std::iter::once(self.config.clone())
            .chain(plugins.lock_file.clone())
            .chain(files)
            .map(|file| {
                let stat = std::fs::metadata(&file).ok().and_then(|meta| Some((meta.len(), meta.modified().ok()?)));
                (file, stat)
            })
            .collect()
    }

    /// Reads the configuration again, rescans the folder and serves the result.
    fn reload(&mut self) {
        let current = self.state.current();
        let mut problems = Vec::new();
        let settings = match Settings::load(&self.config, &self.overrides) {
            Ok(settings) => {
                warn_of_restart(&current.settings, &settings);
                settings
            }
            Err(error) => {
                let problem = format!("the configuration was not applied, the one in force stays: {error}");
                tracing::error!("{problem}");
                problems.push(problem);
                current.settings.clone()
            }
        };
        let slots = self.rescan(&settings, &mut problems);
        self.slots = slots;
        self.problems = problems;
        self.inbox.watch(&settings.plugins, &self.config);
        self.publish(settings, Cause::Reload);
    }

    /// Builds the registry from the slots under `settings` and serves it.
    fn publish(&mut self, settings: Settings, cause: Cause) {
        let reloaded = cause == Cause::Reload;
        let assembly = assemble(&self.slots, &settings, &self.shared);
        let mut problems = self.problems.clone();
        problems.extend(assembly.problems);
        let generation = Generation { settings, registry: assembly.registry, reports: assembly.reports, problems };
        let tools = generation.registry.entries().len();
        let plugins = generation.reports.iter().filter(|report| report.status == PluginStatus::Loaded).count();
        self.status.publish(&generation, reloaded);
        let changes = self.state.publish(generation);
        let changed: Vec<&str> =
            [("tools", changes.tools), ("prompts", changes.prompts), ("resources", changes.resources)]
                .into_iter()
                .filter_map(|(list, changed)| changed.then_some(list))
                .collect();
        tracing::info!(
            "{}: {tools} tools from {plugins} plugins; {}",
            match cause {
                Cause::Reload => "reloaded",
                Cause::Withdrawal => "withdrawn",
                Cause::Relisting => "relisted",
            },
            if changed.is_empty() { "no list changed".to_owned() } else { format!("changed: {}", changed.join(", ")) }
        );
    }

    /// The slots for the folder as it is now, reusing what did not change.
    fn rescan(&mut self, settings: &Settings, problems: &mut Vec<String>) -> Vec<Slot> {
        let (files, unreadable) = folder(&settings.plugins);
        unreadable.iter().for_each(|problem| tracing::error!("{problem}"));
        problems.extend(unreadable);
        let mut trust = Trust::load(&settings.plugins);
        problems.append(&mut trust.problems);
        let context = LoadContext::new(&settings.plugins, &self.shared, Loading::Eager, trust);
        let mut cache = PluginCache::open(settings.plugins.cache_file.as_deref());
        let mut names = HashMap::new();
        let mut previous: HashMap<PathBuf, Slot> =
            std::mem::take(&mut self.slots).into_iter().map(|slot| (slot.file.clone(), slot)).collect();
        let mut slots = Vec::with_capacity(files.len());
        for file in files {
            let before = previous.remove(&file);
            let fingerprint = Fingerprint::of(&file);
            let slot = match before {
                Some(before)
                    if fingerprint.is_some() && before.fingerprint == fingerprint && unchanged(&before, &context) =>
                {
                    keep(before, &mut names)
                }
                before => load(&file, before, &context, &mut cache, &mut names),
            };
            slots.push(slot);
        }
        for gone in previous.values().filter(|slot| slot.serving.is_some()) {
            tracing::info!(
                "{} was removed: plugin {} is no longer served",
                gone.report.file,
                gone.report.plugin.as_deref().unwrap_or("?")
            );
        }
        cache.retain_existing();
        cache.save();
        slots
    }

    /// Reads again the prompts or resources of the plugin that announced they changed, checks
    /// them as at load, and serves them; sessions hear of the lists that differ.
    fn relist(&mut self, relisting: Relisting) {
        let mut found = false;
        for serving in self.slots.iter_mut().filter_map(|slot| slot.serving.as_mut()) {
            if serving.plugin.name() != relisting.plugin {
                continue;
            }
            let mut offer = Offer::clone(&serving.offer);
            if relisting.prompts {
                offer.prompts = serving.plugin.prompts();
            }
            if relisting.resources {
                offer.resources = serving.plugin.resources();
            }
            serving.verdicts = Arc::new(Verdicts::check(&relisting.plugin, &offer));
            serving.offer = Arc::new(offer);
            found = true;
        }
        if found {
            let settings = self.state.current().settings.clone();
            self.publish(settings, Cause::Relisting);
        }
    }

    /// Withdraws the plugin a failed creation on first use stood for, if it
    /// is still the one serving.
    fn withdraw(&mut self, withdrawal: Withdrawal) {
        let stood_for = |slot: &Slot| {
            slot.file == withdrawal.file
                && slot
                    .serving
                    .as_ref()
                    .is_some_and(|serving| Weak::ptr_eq(&Arc::downgrade(&serving.offer), &withdrawal.offer))
        };
        let Some(slot) = self.slots.iter_mut().find(|slot| stood_for(slot)) else { return };
        slot.serving = None;
        slot.report.status = PluginStatus::Refused;
        slot.report.problems.push(withdrawal.problem);
        crate::telemetry::plugin_loaded(&slot.report);
        tracing::warn!(
            "plugin {} ({}) is withdrawn until its library or configuration changes",
            slot.report.plugin.as_deref().unwrap_or("?"),
            slot.report.file
        );
        let current = self.state.current();
        self.publish(current.settings.clone(), Cause::Withdrawal);
    }
}

/// Loads `file` (from a private copy); keeps `before` serving if it
/// served and the new library is refused.
fn load(
    file: &Path,
    before: Option<Slot>,
    context: &LoadContext,
    cache: &mut PluginCache,
    names: &mut HashMap<String, String>,
) -> Slot {
    if let Some(before) = &before
        && before.fingerprint == Fingerprint::of(file)
        && before.report.plugin.as_ref().is_some_and(|name| !context.plugins.is_enabled(name))
    {
        tracing::info!(
            "plugin {} ({}) is disabled by configuration",
            before.report.plugin.as_deref().unwrap_or("?"),
            before.report.file
        );
        return before.disabled();
    }
    let fresh = load_library(file, context, cache, names);
    // The version serving goes on only while the lock says of it what it said when it was checked.
    let Some(mut kept) =
        before.filter(|before| before.serving.is_some() && before.trust_key == context.trust.key(file))
    else {
        return fresh;
    };
    let refused = match &fresh.serving {
        None => fresh.report.status != PluginStatus::Disabled,
        Some(serving) => serving.verdicts.problems().next().is_some(),
    };
    let name = kept.report.plugin.clone().unwrap_or_default();
    let taken = names.get(&name).is_some_and(|first| *first != kept.report.file);
    if !refused || taken {
        return fresh;
    }
    names.insert(name.clone(), kept.report.file.clone());
    let reason = fresh.report.problems.join("; ");
    tracing::info!(
        "{}: plugin {name} {} loaded before goes on serving",
        kept.report.file,
        kept.report.version.as_deref().unwrap_or_default()
    );
    kept.fingerprint = fresh.fingerprint;
    kept.config_hash = fresh.config_hash.or(kept.config_hash);
    kept.report.problems.retain(|problem| !problem.starts_with(REFUSED_ON_RELOAD));
    kept.report.problems.push(format!("{REFUSED_ON_RELOAD}{reason}"));
    kept.report.refused_on_reload = Some(reason);
    kept
}

/// Whether a slot still stands for its (unchanged) file under the
/// configuration in `context`.
fn unchanged(before: &Slot, context: &LoadContext) -> bool {
    let Some(name) = &before.report.plugin else {
        // Still the same file that is no plugin library (or refused before it was opened).
        return before.trust_key == context.trust.key(&before.file);
    };
    if before.duplicate || before.trust_key != context.trust.key(&before.file) {
        return false;
    }
    let enabled = context.plugins.is_enabled(name);
    match before.report.status {
        PluginStatus::Disabled => !enabled,
        _ => enabled && before.config_hash.as_deref() == Some(context.config_hash(name).as_str()),
    }
}

/// Keeps a slot as it was, unless another library of its plugin came first.
fn keep(mut slot: Slot, names: &mut HashMap<String, String>) -> Slot {
    if let (Some(name), true) = (slot.report.plugin.clone(), slot.serving.is_some()) {
        match names.get(&name) {
            Some(first) => slot.refuse_duplicate(&name, &first.clone()),
            None => {
                names.insert(name, slot.report.file.clone());
            }
        }
    }
    slot
}

/// Logs the settings that changed but apply only at the next start.
fn warn_of_restart(old: &Settings, new: &Settings) {
    let changed: Vec<&str> = [
        ("Host.LogLevel", old.host.log_level != new.host.log_level),
        ("Host.LogFormat", old.host.log_format != new.host.log_format),
        ("Host.LogFile", old.host.log_file != new.host.log_file),
        ("Telemetry", old.telemetry != new.telemetry),
        ("Host.MaxMessageBytes", old.host.max_message_bytes != new.host.max_message_bytes),
        ("Http.Address", old.http.address != new.http.address),
        ("Http.AllowedHosts", old.http.allowed_hosts != new.http.allowed_hosts),
        ("Http.AllowedOrigins", old.http.allowed_origins != new.http.allowed_origins),
        ("Http.BearerToken", old.http.bearer_token != new.http.bearer_token),
    ]
    .into_iter()
    .filter_map(|(key, changed)| changed.then_some(key))
    .collect();
    if !changed.is_empty() {
        tracing::warn!("{} changed; they apply at the next start", changed.join(", "));
    }
}

/// SIGHUP, where there is such a thing.
#[cfg(unix)]
type Hangups = Option<tokio::signal::unix::Signal>;
#[cfg(not(unix))]
type Hangups = Option<()>;

#[cfg(unix)]
fn hangups() -> Hangups {
    tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup()).ok()
}

#[cfg(not(unix))]
fn hangups() -> Hangups {
    None
}

/// The next SIGHUP; never, without a handler.
async fn next_hangup(hangups: &mut Hangups) -> Option<()> {
    #[cfg(unix)]
    if let Some(signal) = hangups {
        return signal.recv().await;
    }
    let _ = hangups;
    std::future::pending().await
}
