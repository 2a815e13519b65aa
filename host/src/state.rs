//! What every connection of the host shares: the configuration in force,
//! what is served, and the calls in flight.

use tokio_util::{sync::CancellationToken, task::TaskTracker};

use crate::{registry::Registry, settings::Settings};

/// What every connection shares.
pub struct HostState {
    /// The configuration in force.
    pub settings: Settings,
    /// The tools served.
    pub registry: Registry,
    /// Fires when the host shuts down, cancelling every running call.
    pub shutdown: CancellationToken,
    /// The calls in flight, so shutdown can wait for them to wind down.
    pub calls: TaskTracker,
}

impl HostState {
    /// The state of a host serving `registry` under `settings`.
    pub fn new(settings: Settings, registry: Registry) -> Self {
        Self { settings, registry, shutdown: CancellationToken::new(), calls: TaskTracker::new() }
    }

    /// Cancels every running call and waits until each has wound down (its
    /// grace period, then its drop), so that no process a plugin started
    /// outlives the host.
    pub async fn shut_down(&self) {
        self.shutdown.cancel();
        self.calls.close();
        let patience = self.settings.host.cancel_grace + std::time::Duration::from_secs(2);
        if tokio::time::timeout(patience, self.calls.wait()).await.is_err() {
            tracing::warn!("{} call(s) did not wind down within {patience:?}", self.calls.len());
        }
    }
}
