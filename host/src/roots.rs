// Roots are deprecated in rmcp 3.9 (SEP-2577) yet part of the protocol versions clients speak.
#![allow(deprecated)]

//! A session's roots (`roots/list`): the client's workspace folders, which
//! a plugin in a worker process may write (see [`crate::isolation::supervisor`]).
//! Asked once per session, on the first call that needs them, and asked
//! again after the client says they changed.

use std::{
    path::PathBuf,
    sync::{
        Mutex,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use rmcp::{Peer, RoleServer};

/// How long the host waits for a client to list its roots before it goes on without them.
const LIST_WAIT: Duration = Duration::from_secs(5);

/// What one session learnt of its client's roots.
#[derive(Default)]
pub struct SessionRoots {
    /// The local folders among the roots, once asked; `None` before, or after a change.
    known: Mutex<Option<Vec<PathBuf>>>,
    /// Counts the changes the client announced: an answer asked for before one is not kept.
    changes: AtomicU64,
}

impl SessionRoots {
    /// The client's roots that are local folders, sorted; empty when the
    /// client may not be asked (`askable` false: no roots capability, or a
    /// protocol without server-to-client requests) or does not answer.
    pub async fn folders(&self, peer: &Peer<RoleServer>, askable: bool) -> Vec<PathBuf> {
        if !askable {
            return Vec::new();
        }
        if let Some(folders) = &*self.known.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) {
            return folders.clone();
        }
        let asked_at = self.changes.load(Ordering::SeqCst);
        match tokio::time::timeout(LIST_WAIT, peer.list_roots()).await {
            Ok(Ok(answer)) => {
                let folders = local_folders(answer.roots.iter().map(|root| root.uri.as_str()));
                let mut known = self.known.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                if self.changes.load(Ordering::SeqCst) == asked_at {
                    *known = Some(folders.clone());
                }
                folders
            }
            Ok(Err(error)) => {
                tracing::debug!("the client did not list its roots: {error}");
                Vec::new()
            }
            Err(_) => {
                tracing::debug!("the client did not list its roots within {} s", LIST_WAIT.as_secs());
                Vec::new()
            }
        }
    }

    /// Forgets the roots, so that the next call asks again (`notifications/roots/list_changed`).
    pub fn forget(&self) {
        let mut known = self.known.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        self.changes.fetch_add(1, Ordering::SeqCst);
        *known = None;
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
