//! What the host lends a plugin across the ABI for its whole life
//! ([`HostLink`], the `HostServices` of a plugin in process; a worker's own
//! forwards to one in the host): its configuration, its log, the lock
//! table, what the host serves, and where its announcements go.

use std::sync::Arc;

use abi_stable::{
    sabi_trait::TD_Opaque,
    std_types::{RNone, ROption, RSome, RStr, RString},
};
use async_ffi::FfiFuture;
use mcp_plugin_api::abi::{self, HeldLock, HeldLock_TO, HostServices, LockOutcome};
use serde_json::{Map, Value, json};

use super::{
    Level,
    changes::{Relist, Relisting},
};
use crate::{
    locks::{HeldKey, LockRequest, LockTable},
    logging::PluginLog,
    state::ResourceUpdates,
};

/// What the host lends a plugin for its whole life.
#[derive(Clone)]
pub struct HostLink {
    /// The plugin's name, to tell lock holders apart.
    pub plugin: String,
    /// The plugin's own configuration section.
    pub config: Value,
    /// `Plugins.Config`.
    pub shared: Arc<Map<String, Value>>,
    /// Where the plugin's log records go.
    pub log: PluginLog,
    /// The host-wide lock table.
    pub locks: Arc<LockTable>,
    /// The host's runtime: lock waits run there, since a plugin may poll
    /// from a thread of its own runtime.
    pub runtime: tokio::runtime::Handle,
    /// What the host serves, replaced whenever that changes (start-up, reload).
    pub catalog: Arc<arc_swap::ArcSwap<Value>>,
    /// Where the plugin's resource updates go, to every session.
    pub updates: ResourceUpdates,
    /// Told when the plugin announces that its lists changed (a serving host's reloader).
    pub relist: Option<Relist>,
}

/// An announcement as it crosses the ABI ([`HostServices::announce`]).
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct WireAnnouncement {
    resource_updated: Option<String>,
    #[serde(default)]
    list_changed: Vec<String>,
}

impl HostLink {
    /// Passes a plugin's announcement (its JSON text, [`HostServices::announce`])
    /// on: a resource update to the sessions, a list change to the reloader.
    /// A worker's announcements arrive here too, so both ways of running a
    /// plugin announce alike.
    pub fn pass_on(&self, announcement: &str) {
        let announcement = match serde_json::from_str::<WireAnnouncement>(announcement) {
            Ok(announcement) => announcement,
            Err(error) => {
                tracing::warn!(plugin = %self.plugin, "a malformed announcement was ignored: {error}");
                return;
            }
        };
        if let Some(uri) = announcement.resource_updated {
            tracing::debug!(plugin = %self.plugin, uri, "resource updated");
            self.updates.announce(uri);
        }
        let lists = &announcement.list_changed;
        let (prompts, resources) = (lists.iter().any(|l| l == "prompts"), lists.iter().any(|l| l == "resources"));
        if (prompts || resources)
            && let Some(relist) = &self.relist
        {
            relist(Relisting { plugin: self.plugin.clone(), prompts, resources });
        }
    }
}

impl HostServices for HostLink {
    fn plugin_config(&self) -> RString {
        RString::from(self.config.to_string())
    }

    fn shared_config(&self, key: RStr<'_>) -> ROption<RString> {
        shared_setting(&self.shared, key)
    }

    fn log(&self, level: u8, message: RStr<'_>) {
        self.log.emit(level_from_abi(level), message.as_str());
    }

    fn host_info(&self) -> RString {
        RString::from(self.catalog.load().to_string())
    }

    fn announce(&self, announcement: RString) -> bool {
        self.pass_on(announcement.as_str());
        true
    }

    fn acquire_lock(&self, request: RString) -> FfiFuture<LockOutcome> {
        let refused = |message: String| LockOutcome {
            info: RString::from(json!({ "error": message }).to_string()),
            guard: RNone,
        };
        let request = match serde_json::from_str::<WireLockRequest>(request.as_str()) {
            Ok(request) => request.into_request(),
            Err(error) => {
                let outcome = refused(format!("malformed lock request: {error}"));
                return FfiFuture::new(async move { outcome });
            }
        };
        let table = Arc::clone(&self.locks);
        let plugin = self.plugin.clone();
        let acquiring = self.runtime.spawn(async move { table.acquire(&plugin, request).await });
        FfiFuture::new(async move {
            match acquiring.await {
                Ok((info, held)) => LockOutcome {
                    info: RString::from(info.to_string()),
                    guard: held.map(|held| HeldLock_TO::from_value(AbiHeldKey(held), TD_Opaque)).into(),
                },
                Err(error) => {
                    LockOutcome { info: RString::from(json!({ "error": error.to_string() }).to_string()), guard: RNone }
                }
            }
        })
    }
}

/// A lock request as it crosses the ABI: JSON `{scope, key, operation, waitMs}`.
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct WireLockRequest {
    scope: Value,
    key: String,
    operation: String,
    #[serde(default)]
    wait_ms: u64,
}

impl WireLockRequest {
    pub(crate) fn into_request(self) -> LockRequest {
        LockRequest {
            scope: self.scope,
            key: self.key,
            operation: self.operation,
            wait: std::time::Duration::from_millis(self.wait_ms),
        }
    }
}

/// A granted key as the ABI's held-lock object; the plugin drops it to release the key.
struct AbiHeldKey(HeldKey);

impl HeldLock for AbiHeldKey {
    fn key(&self) -> RString {
        RString::from(self.0.key())
    }
}

/// Maps tracing's level onto the ABI's (a worker sends its plugin's call logs this way).
pub fn level_to_abi(level: Level) -> u8 {
    match level {
        Level::TRACE => abi::level::TRACE,
        Level::DEBUG => abi::level::DEBUG,
        Level::INFO => abi::level::INFO,
        Level::WARN => abi::level::WARN,
        _ => abi::level::ERROR,
    }
}

/// Maps the ABI's log level onto tracing's.
pub fn level_from_abi(level: u8) -> Level {
    match level {
        abi::level::TRACE => Level::TRACE,
        abi::level::DEBUG => Level::DEBUG,
        abi::level::INFO => Level::INFO,
        abi::level::WARN => Level::WARN,
        _ => Level::ERROR,
    }
}

/// `Plugins.Config.<key>` (without regard to case) as it crosses the ABI, for
/// a plugin in process and in a worker alike.
pub(crate) fn shared_setting(shared: &Map<String, Value>, key: RStr<'_>) -> ROption<RString> {
    match crate::settings::get_ci(shared, key.as_str()) {
        Some(value) => RSome(RString::from(value.to_string())),
        None => RNone,
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;

    fn link(relisted: Arc<Mutex<Vec<Relisting>>>) -> HostLink {
        HostLink {
            plugin: "notes".to_owned(),
            config: json!({}),
            shared: Arc::new(Map::new()),
            log: PluginLog::new("notes"),
            locks: Arc::default(),
            runtime: tokio::runtime::Handle::current(),
            catalog: Arc::default(),
            updates: ResourceUpdates::default(),
            relist: Some(Arc::new(move |relisting| relisted.lock().unwrap().push(relisting))),
        }
    }

    #[tokio::test]
    async fn announcements_go_to_the_sessions_and_the_reloader() {
        let relisted = Arc::new(Mutex::new(Vec::new()));
        let link = link(Arc::clone(&relisted));
        let mut updates = link.updates.subscribe();
        assert!(link.announce(RString::from(r#"{"resourceUpdated":"notes://1"}"#)));
        assert_eq!(updates.try_recv().unwrap(), "notes://1");
        assert!(link.announce(RString::from(r#"{"listChanged":["resources"]}"#)));
        let relisted = relisted.lock().unwrap();
        assert_eq!((relisted[0].plugin.as_str(), relisted[0].prompts, relisted[0].resources), ("notes", false, true));
    }

    #[tokio::test]
    async fn a_malformed_announcement_is_dropped_without_harm() {
        let relisted = Arc::new(Mutex::new(Vec::new()));
        let link = link(Arc::clone(&relisted));
        let mut updates = link.updates.subscribe();
        for malformed in ["not json", r#"{"resourceUpdated":42}"#, r#"{"somethingElse":true}"#] {
            // Heard (the host takes announcements), but nothing is passed on.
            assert!(link.announce(RString::from(malformed)));
        }
        assert!(updates.try_recv().is_err());
        assert!(relisted.lock().unwrap().is_empty());
    }
}
