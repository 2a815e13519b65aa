//! What every connection of the host shares: the configuration in force and
//! what is served (one [`Generation`], replaced whole on reload), the calls
//! in flight, and the announcements to every session: list changes, and the
//! resources plugins announced updated ([`ResourceUpdates`]).

use std::sync::Arc;

use arc_swap::ArcSwap;
use tokio::sync::broadcast;
use tokio_util::{sync::CancellationToken, task::TaskTracker};

use crate::{plugin::report::PluginReport, registry::Registry, settings::Settings};

/// What is served under one configuration: a call or a list request reads
/// one generation from start to end, so it never sees half of a reload.
pub struct Generation {
    /// The configuration in force.
    pub settings: Settings,
    /// The tools, prompts and resources served.
    pub registry: Registry,
    /// How each plugin library fared, as `plugins` and `check` report it.
    pub reports: Vec<PluginReport>,
    /// Problems that concern no single library (an unreadable folder, a
    /// configuration that could not be applied on reload).
    pub problems: Vec<String>,
}

/// Which lists a new generation changed, for the sessions to be told.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ListChanges {
    /// `tools/list` answers differently, or another plugin version runs a tool.
    pub tools: bool,
    /// `prompts/list` answers differently.
    pub prompts: bool,
    /// `resources/list` or `resources/templates/list` answers differently.
    pub resources: bool,
}

impl ListChanges {
    /// Every list, for a session that missed announcements.
    pub const ALL: Self = Self { tools: true, prompts: true, resources: true };

    /// Whether any list changed.
    pub fn any(&self) -> bool {
        self.tools || self.prompts || self.resources
    }

    /// What changed from `old` to `new`: an item's description, or the plugin behind it.
    pub fn between(old: &Registry, new: &Registry) -> Self {
        Self {
            tools: !same(old.entries(), new.entries(), |old, new| {
                old.tool == new.tool && Arc::ptr_eq(&old.plugin, &new.plugin) && old.index == new.index
            }),
            prompts: !same(old.prompts(), new.prompts(), |old, new| {
                old.prompt == new.prompt && Arc::ptr_eq(&old.plugin, &new.plugin)
            }),
            resources: !same(old.resources(), new.resources(), |old, new| {
                old.descriptor == new.descriptor && Arc::ptr_eq(&old.plugin, &new.plugin)
            }),
        }
    }
}

/// Whether two lists hold the same items, in order.
fn same<T>(old: &[Arc<T>], new: &[Arc<T>], equal: impl Fn(&T, &T) -> bool) -> bool {
    old.len() == new.len() && old.iter().zip(new).all(|(old, new)| equal(old, new))
}

/// The URIs plugins announce updated, to every session (each keeps those it subscribed to).
/// Made before the plugins are loaded, since they hold a sender from their creation on.
#[derive(Clone)]
pub struct ResourceUpdates(broadcast::Sender<String>);

impl Default for ResourceUpdates {
    fn default() -> Self {
        Self(broadcast::channel(64).0)
    }
}

impl ResourceUpdates {
    /// Tells every session that the contents at `uri` changed; from any thread.
    pub fn announce(&self, uri: String) {
        // No receiver means no session is listening: nothing to tell.
        let _ = self.0.send(uri);
    }

    /// The updates announced from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<String> {
        self.0.subscribe()
    }
}

/// How long shutdown waits, after the calls' grace period, for their plugins to drop them
/// (a worker that does not is killed after `isolation::supervisor::DROP_WAIT`); room for a loaded machine.
const DROP_PATIENCE: std::time::Duration = std::time::Duration::from_secs(5);

/// What every connection shares.
pub struct HostState {
    current: ArcSwap<Generation>,
    changes: broadcast::Sender<ListChanges>,
    /// The resources plugins announce updated.
    pub updates: ResourceUpdates,
    /// Fires when the host shuts down, cancelling every running call.
    pub shutdown: CancellationToken,
    /// The calls in flight, so shutdown can wait for them to wind down.
    pub calls: TaskTracker,
}

impl HostState {
    /// The state of a host serving `generation`, whose plugins announce resource updates on `updates`.
    pub fn new(generation: Generation, updates: ResourceUpdates) -> Self {
        Self {
            current: ArcSwap::from_pointee(generation),
            changes: broadcast::channel(16).0,
            updates,
            shutdown: CancellationToken::new(),
            calls: TaskTracker::new(),
        }
    }

    /// What is served now. A call holds on to it until it ends, so it
    /// finishes on the plugin it started on whatever a reload does.
    pub fn current(&self) -> Arc<Generation> {
        self.current.load_full()
    }

    /// Reads the generation in force without holding on to it: cheaper than
    /// [`Self::current`] (no reference count changes) for what a call looks
    /// up before it starts.
    pub fn peek<R>(&self, read: impl FnOnce(&Generation) -> R) -> R {
        read(&self.current.load())
    }

    /// Puts `generation` in place of the current one and tells every
    /// session which lists changed; returns them.
    pub fn publish(&self, generation: Generation) -> ListChanges {
        let new = Arc::new(generation);
        let old = self.current.swap(Arc::clone(&new));
        let changes = ListChanges::between(&old.registry, &new.registry);
        if changes.any() {
            // No receiver means no session is listening: nothing to tell.
            let _ = self.changes.send(changes);
        }
        changes
    }

    /// Announcements of list changes, from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<ListChanges> {
        self.changes.subscribe()
    }

    /// Cancels every running call and waits until each has wound down: its
    /// grace period, then the drop of the plugin's future, on the plugin's
    /// call thread or in its worker process, which is what kills the
    /// processes the call started (a call counts as in flight until then;
    /// see `call::HostCall`). So the host does not exit while they run, nor
    /// longer than the grace period and [`DROP_PATIENCE`] for a plugin that
    /// does not let go.
    pub async fn shut_down(&self) {
        self.shutdown.cancel();
        self.calls.close();
        let patience = self.current().settings.host.cancel_grace + DROP_PATIENCE;
        if tokio::time::timeout(patience, self.calls.wait()).await.is_err() {
            tracing::warn!("{} call(s) did not wind down within {patience:?}", self.calls.len());
        }
    }
}
