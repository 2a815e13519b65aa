//! The host-wide lock table that plugins share, so that operations living
//! in different plugins (a package add, a build) never run on the same
//! target at once.
//!
//! Keys are opaque canonical strings chosen by plugins. A request either
//! takes a free key, waits for it up to its `waitMs`, or is refused with
//! who holds it. A granted lock is released when the plugin drops its
//! guard, which plugin-api ties to the call's life: success, error, panic,
//! cancellation and timeout all release it.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::{Duration, Instant, SystemTime},
};

use serde_json::{Value, json};
use tokio::sync::Notify;

/// Who holds a key.
#[derive(Debug, Clone)]
struct Holder {
    operation: String,
    plugin: String,
    since: SystemTime,
}

/// What a plugin asks for.
#[derive(Debug, Clone)]
pub struct LockRequest {
    /// What the key stands for (`project`, `global`, …), reported back as `lockScope`.
    pub scope: Value,
    /// The canonical key.
    pub key: String,
    /// What the holder is doing, told to whoever it refuses.
    pub operation: String,
    /// How long to wait for a held key before giving up.
    pub wait: Duration,
}

/// The locks held right now, across all plugins.
#[derive(Debug, Default)]
pub struct LockTable {
    held: Mutex<HashMap<String, Holder>>,
    released: Notify,
}

impl LockTable {
    /// Takes the key of `request` for `plugin`. Returns the `lockInfo` to
    /// report and, when granted, the guard that holds it.
    pub async fn acquire(self: &Arc<Self>, plugin: &str, request: LockRequest) -> (Value, Option<HeldKey>) {
        let started = Instant::now();
        let patience = request.wait;
        loop {
            // Register interest before looking, so a release between the
            // look and the wait is not missed.
            let released = self.released.notified();
            let holder = {
                let mut held = self.held.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                match held.get(&request.key) {
                    Some(holder) => holder.clone(),
                    None => {
                        held.insert(
                            request.key.clone(),
                            Holder {
                                operation: request.operation.clone(),
                                plugin: plugin.to_owned(),
                                since: SystemTime::now(),
                            },
                        );
                        let mut info = json!({ "lockScope": request.scope, "lockKey": request.key });
                        let waited = started.elapsed().as_millis() as u64;
                        if waited > 0 {
                            info["lockWaitedMs"] = json!(waited);
                        }
                        let guard = HeldKey { key: request.key, table: Arc::clone(self) };
                        return (info, Some(guard));
                    }
                }
            };
            let remaining = patience.saturating_sub(started.elapsed());
            if remaining.is_zero() || tokio::time::timeout(remaining, released).await.is_err() {
                let info = json!({
                    "lockScope": request.scope,
                    "lockKey": request.key,
                    "lockContended": true,
                    "lockWaitedMs": started.elapsed().as_millis() as u64,
                    "holder": {
                        "operation": holder.operation,
                        "plugin": holder.plugin,
                        "since": humantime::format_rfc3339_seconds(holder.since).to_string(),
                    }
                });
                return (info, None);
            }
        }
    }

    fn release(&self, key: &str) {
        self.held.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).remove(key);
        self.released.notify_waiters();
    }

    /// How many keys are held (for tests and diagnostics).
    pub fn held_count(&self) -> usize {
        self.held.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).len()
    }
}

/// A granted key; dropping it releases the key and wakes waiters.
pub struct HeldKey {
    key: String,
    table: Arc<LockTable>,
}

impl HeldKey {
    /// The key held.
    pub fn key(&self) -> &str {
        &self.key
    }
}

impl Drop for HeldKey {
    fn drop(&mut self) {
        self.table.release(&self.key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(key: &str, wait_ms: u64) -> LockRequest {
        LockRequest {
            scope: json!("project"),
            key: key.to_owned(),
            operation: "build".to_owned(),
            wait: Duration::from_millis(wait_ms),
        }
    }

    #[tokio::test]
    async fn a_held_key_is_refused_with_its_holder_and_freed_on_drop() {
        let table = Arc::new(LockTable::default());
        let (info, first) = table.acquire("a", request("/p.csproj", 0)).await;
        assert!(first.is_some());
        assert_eq!(info["lockKey"], "/p.csproj");
        assert!(info.get("lockContended").is_none());
        let (info, second) = table.acquire("b", request("/p.csproj", 0)).await;
        assert!(second.is_none());
        assert_eq!(info["lockContended"], true);
        assert_eq!(info["holder"]["plugin"], "a");
        assert_eq!(info["holder"]["operation"], "build");
        drop(first);
        assert_eq!(table.held_count(), 0);
        let (_, third) = table.acquire("b", request("/p.csproj", 0)).await;
        assert!(third.is_some());
    }

    #[tokio::test]
    async fn a_waiting_request_gets_the_key_when_it_is_released() {
        let table = Arc::new(LockTable::default());
        let (_, first) = table.acquire("a", request("k", 0)).await;
        let waiter = {
            let table = Arc::clone(&table);
            tokio::spawn(async move { table.acquire("b", request("k", 5_000)).await })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        drop(first);
        let (info, guard) = waiter.await.unwrap();
        assert!(guard.is_some(), "{info}");
        assert!(info["lockWaitedMs"].as_u64().unwrap() >= 40, "{info}");
    }

    #[tokio::test]
    async fn a_wait_that_runs_out_reports_contention() {
        let table = Arc::new(LockTable::default());
        let (_, _first) = table.acquire("a", request("k", 0)).await;
        let (info, guard) = table.acquire("b", request("k", 30)).await;
        assert!(guard.is_none());
        assert_eq!(info["lockContended"], true);
        assert!(info["lockWaitedMs"].as_u64().unwrap() >= 30);
    }
}
