// Roots are deprecated in rmcp 3.9 (SEP-2577) yet part of the protocol versions clients speak.
#![allow(deprecated)]

//! A session's roots (`roots/list`): the client's workspace folders, which
//! a plugin in a worker process may write (see [`crate::isolation::supervisor`]).
//! Asked once per session, on the first call that needs them, and asked
//! again after the client says they changed.
//!
//! Order: rmcp handles every message in a task of its own, so the handler of
//! `notifications/roots/list_changed` may run after a call the client sent
//! after it, and that call would still be routed by the roots from before the
//! change. The stdio transport therefore notes the change as it reads the
//! notification ([`SessionRoots::forget`], marking it [`ChangeNoted`]), before
//! it reads the next message; the handler forgets only a change no transport
//! noted (over HTTP).
//!
//! Waiting: a call that needs the roots waits for the client's answer, at most
//! [`LIST_WAIT`]; calls that arrive meanwhile wait for the same answer instead
//! of asking again.

use std::{
    path::PathBuf,
    sync::atomic::{AtomicU64, Ordering},
    time::Duration,
};

use rmcp::{Peer, RoleServer};

/// How long a call waits for the client to list its roots before it runs
/// without them (under the configured write rules alone). Long, because the
/// call cannot do what its client meant without them (a write into the
/// client's project would be refused); bounded, because a client that never
/// answers must not hold the call forever when no timeout is configured.
pub const LIST_WAIT: Duration = Duration::from_secs(30);

/// Marks a `notifications/roots/list_changed` the transport already noted
/// (see the module documentation).
#[derive(Clone, Copy, Debug)]
pub struct ChangeNoted;

/// What one session learnt of its client's roots.
#[derive(Default)]
pub struct SessionRoots {
    /// The local folders among the roots, once asked, with the count of
    /// changes they answer to. Locked while the client is asked, so that
    /// calls arriving meanwhile wait for that answer.
    known: tokio::sync::Mutex<Option<(u64, Vec<PathBuf>)>>,
    /// Counts the changes the client announced: roots asked before the last one are stale.
    changes: AtomicU64,
}

impl SessionRoots {
    /// The client's roots that are local folders, sorted; empty when the
    /// client may not be asked (`askable` false: no roots capability, or a
    /// protocol without server-to-client requests) or does not answer
    /// within [`LIST_WAIT`].
    pub async fn folders(&self, peer: &Peer<RoleServer>, askable: bool) -> Vec<PathBuf> {
        if !askable {
            return Vec::new();
        }
        let mut known = self.known.lock().await;
        let asked_at = self.changes.load(Ordering::SeqCst);
        if let Some((at, folders)) = &*known
            && *at == asked_at
        {
            return folders.clone();
        }
        match tokio::time::timeout(LIST_WAIT, peer.list_roots()).await {
            Ok(Ok(answer)) => {
                let folders = local_folders(answer.roots.iter().map(|root| root.uri.as_str()));
                // A change announced while the client was asked makes this answer stale for
                // later calls (this call was sent before that change, and keeps it).
                *known = Some((asked_at, folders.clone()));
                folders
            }
            Ok(Err(error)) => {
                tracing::debug!("the client did not list its roots: {error}");
                Vec::new()
            }
            Err(_) => {
                tracing::warn!(
                    "the client did not list its roots within {} s: this call runs without write access to them",
                    LIST_WAIT.as_secs()
                );
                Vec::new()
            }
        }
    }

    /// Forgets the roots, so that the next call asks again (`notifications/roots/list_changed`).
    pub fn forget(&self) {
        self.changes.fetch_add(1, Ordering::SeqCst);
    }

    /// How many changes were noted.
    #[cfg(test)]
    pub fn changes(&self) -> u64 {
        self.changes.load(Ordering::SeqCst)
    }
}

/// The local folders among root URIs (`file://` only), sorted and without repeats.
fn local_folders<'a>(uris: impl Iterator<Item = &'a str>) -> Vec<PathBuf> {
    let mut folders: Vec<PathBuf> = uris.filter_map(|uri| url::Url::parse(uri).ok()?.to_file_path().ok()).collect();
    folders.sort();
    folders.dedup();
    folders
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_local_folders_count_as_roots() {
        let uris = [
            "file:///home/me/b%20c",
            "https://example.com/repo",
            "file:///home/me/a",
            "file:///home/me/a",
            "not a uri",
        ];
        assert_eq!(local_folders(uris.into_iter()), [PathBuf::from("/home/me/a"), PathBuf::from("/home/me/b c")]);
    }
}
