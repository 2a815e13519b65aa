//! Locks shared by every plugin of a host, so that operations living in
//! different plugins (adding a package, building the same project) never
//! run on the same target at once.
//!
//! A lock is named by a canonical key chosen by the plugin (an absolute
//! project path, a solution path, `global`) and a scope that says what the
//! key names. Taking a lock either succeeds at once, waits up to the
//! requested time, or reports who holds it. The lock is released when the
//! [`LockGuard`] is dropped: on success, error, panic, cancellation or
//! timeout alike.

use std::time::Duration;

use abi_stable::std_types::{ROption, RString};
use serde::{Deserialize, Serialize};

use crate::abi::HeldLockBox;

/// What a lock's key names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum LockScope {
    /// A project file.
    Project,
    /// A solution file.
    Solution,
    /// A working directory, when no project or solution was named.
    WorkingDirectory,
    /// The whole machine (SDK-wide operations such as workload installs).
    Global,
}

/// A request for a lock.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LockRequest {
    /// What the key names.
    pub scope: LockScope,
    /// The canonical key.
    pub key: String,
    /// The operation that wants it, shown to whoever is refused.
    pub operation: String,
    /// How long to wait for a held lock; zero fails at once.
    #[serde(rename = "waitMs", serialize_with = "as_millis")]
    pub wait: Duration,
}

fn as_millis<S: serde::Serializer>(wait: &Duration, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_u64(wait.as_millis().min(u128::from(u64::MAX)) as u64)
}

/// Who holds a contended lock.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LockHolder {
    /// The holder's operation.
    pub operation: String,
    /// The plugin that holds it.
    pub plugin: String,
    /// When it was taken (RFC 3339, UTC).
    pub since: String,
    /// The process id of the host that holds it, when that is another host
    /// process (each stdio client starts its own host; locks are machine-wide).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub process: Option<u32>,
}

/// What the host says about a lock, in the contract's `lockInfo` shape.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LockInfo {
    /// What the key names.
    pub lock_scope: LockScope,
    /// The canonical key.
    pub lock_key: String,
    /// Present and true when the lock could not be taken.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lock_contended: Option<bool>,
    /// How long the request waited, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lock_waited_ms: Option<u64>,
    /// Who holds it, when contended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub holder: Option<LockHolder>,
}

/// A held lock. Dropping it releases the lock.
pub struct LockGuard {
    info: LockInfo,
    _held: HeldLockBox,
}

impl std::fmt::Debug for LockGuard {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.debug_struct("LockGuard").field("info", &self.info).finish_non_exhaustive()
    }
}

impl LockGuard {
    /// What the host said when it granted the lock.
    pub fn info(&self) -> &LockInfo {
        &self.info
    }
}

/// Why a lock was not granted.
#[derive(Debug, Clone, thiserror::Error)]
pub enum LockError {
    /// Another operation holds it (after waiting, if asked to).
    #[error("'{}' is locked by '{}' (plugin {}) since {}",
        .0.lock_key,
        .0.holder.as_ref().map_or("another operation", |holder| holder.operation.as_str()),
        .0.holder.as_ref().map_or("unknown", |holder| holder.plugin.as_str()),
        .0.holder.as_ref().map_or("an unknown time", |holder| holder.since.as_str()))]
    Contended(LockInfo),
    /// The host offers no lock service (it predates it).
    #[error("the host does not offer locks")]
    Unsupported,
}

/// Decodes the host's answer to a lock request.
// A contended lock is an ordinary answer, returned once per call, and its `LockInfo` is what the
// caller reports; boxing it would change the variant plugins match on.
#[allow(clippy::result_large_err)]
pub(crate) fn decode(info: RString, guard: ROption<HeldLockBox>) -> Result<LockGuard, LockError> {
    let info: LockInfo = match serde_json::from_str(info.as_str()) {
        Ok(info) => info,
        Err(_) => return Err(LockError::Unsupported),
    };
    match guard.into_option() {
        Some(held) => Ok(LockGuard { info, _held: held }),
        None => Err(LockError::Contended(info)),
    }
}
