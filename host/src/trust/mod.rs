//! Plugin trust: a library is served only when the operator pinned it.
//!
//! Opening a native library runs its code with the host's rights, so every
//! check that can come first does, before `dlopen`:
//!
//! 1. **Permissions** ([`permissions`]): the plugin folder, each library
//!    (and the folder a linked library lives in) and the lock file must be
//!    changeable only by the host's user or root. Always refused otherwise.
//! 2. **Bytes**: the library's SHA-256 must be the one the lock file
//!    ([`lockfile`]) pins under its file name. The hash is taken only when
//!    the file's (device, inode, size, mtime, ctime) differ from the last
//!    time it was hashed (recorded in the plugin cache), so an unchanged
//!    folder costs one `stat` per library.
//! 3. **Surface**: what the plugin offers (tools, prompts, resources, every
//!    field) must hash to the pinned surface. It is known only once the
//!    plugin is created, or from the plugin cache's copy of its offer for a
//!    plugin created on first use (which is withdrawn if its real offer then
//!    differs from the cache's). Either way it is checked before any of its
//!    items is registered: a plugin whose surface differs serves nothing.
//!    Same bytes with another surface happen when a plugin describes itself
//!    from its configuration or environment.
//!
//! With `Plugins.RequireLock` (the default once the lock file exists) a
//! library that fails 2 or 3 is refused with one ERROR line saying what
//! differs; without it, it is served with one WARN line. Without a lock
//! file and without `RequireLock`, only the permissions are checked.

pub mod lockfile;
pub mod permissions;

use std::path::{Path, PathBuf};

use lockfile::{LockFile, LockedLibrary, Surface, file_sha256, short};

use crate::{
    plugin::{
        cache::{Fingerprint, Offer, PluginCache},
        report::PluginReport,
    },
    settings::PluginSettings,
};

/// The trust checks one discovery (or reload) applies, with the lock file
/// as it was read when it began.
#[derive(Debug, Default)]
pub struct Trust {
    lock_path: Option<PathBuf>,
    lock: Option<LockFile>,
    require: bool,
    /// Writing the lock (`plugins lock`): hash every library, compare nothing.
    pinning: bool,
    /// Why no library may be served (an unsafe plugin folder or lock file,
    /// an unreadable lock that is required).
    blocked: Option<String>,
    /// Problems that concern every library, logged once.
    pub problems: Vec<String>,
}

/// What [`Trust::admit`] learned of a library before it was opened.
#[derive(Debug, Default)]
pub struct Admitted {
    /// The SHA-256 of the bytes that are loaded, when hashed.
    pub sha256: Option<String>,
    /// The fingerprint the library had when it was verified, when the lock
    /// is in force: a plugin created on first use must still have it.
    pub verified: Option<Fingerprint>,
    pinned: Option<LockedLibrary>,
    /// What differs from the lock so far (served anyway: not required).
    differences: Vec<String>,
}

impl Trust {
    /// The checks for `plugins`: reads the lock file and checks the
    /// permissions of the plugin folder and the lock file.
    pub fn load(plugins: &PluginSettings) -> Self {
        let mut trust = Self::base(plugins, false);
        if let Some(path) = trust.lock_path.clone() {
            let exists = path.exists();
            trust.require = plugins.require_lock.unwrap_or(exists);
            if trust.blocked.is_none()
                && let Some(problem) = permissions::unsafe_file(&path)
            {
                trust.block(format!("the lock file cannot be trusted: {problem}"));
            }
            match LockFile::read(&path) {
                Ok(lock) => {
                    if let Some(lock) = &lock {
                        tracing::info!(
                            "checking libraries against the lock file {} ({} pinned; Plugins.RequireLock {})",
                            path.display(),
                            lock.libraries.len(),
                            if trust.require { "on" } else { "off" }
                        );
                    }
                    trust.lock = lock;
                }
                Err(problem) if trust.require => trust.block(problem),
                Err(problem) => {
                    tracing::warn!("{problem}; libraries are not checked against it (Plugins.RequireLock is false)");
                    trust.problems.push(problem);
                }
            }
        } else {
            trust.require = plugins.require_lock.unwrap_or(false);
        }
        if trust.require && trust.lock.is_none() && trust.blocked.is_none() {
            tracing::warn!(
                "Plugins.RequireLock is on and there is no lock file{}: every library will be refused",
                trust.lock_path.as_ref().map(|path| format!(" at {}", path.display())).unwrap_or_default()
            );
        }
        trust
    }

    /// The checks for writing the lock: permissions only; every library is hashed.
    pub fn pinning(plugins: &PluginSettings) -> Self {
        Self::base(plugins, true)
    }

    fn base(plugins: &PluginSettings, pinning: bool) -> Self {
        let mut trust = Self { lock_path: plugins.lock_file.clone(), pinning, ..Self::default() };
        if let Some(problem) = permissions::unsafe_file(&plugins.directory) {
            trust.block(format!("no plugin is loaded from a folder others can change: {problem}"));
        }
        trust
    }

    fn block(&mut self, problem: String) {
        tracing::error!("{problem}");
        self.problems.push(problem.clone());
        self.blocked = Some(problem);
    }

    /// Whether libraries are compared with a lock (one exists, or is required).
    fn in_force(&self) -> bool {
        !self.pinning && (self.lock.is_some() || self.require)
    }

    /// What these checks would decide from for the library named `file`: a
    /// slot checked under the same key needs no new check on reload.
    pub fn key(&self, file: &Path) -> String {
        let pinned = self.lock.as_ref().and_then(|lock| lock.libraries.get(&file_name(file)));
        format!(
            "{}|{}|{}|{}",
            self.in_force(),
            self.require,
            self.blocked.as_deref().unwrap_or_default(),
            pinned.map(|entry| serde_json::to_string(entry).unwrap_or_default()).unwrap_or_default()
        )
    }

    /// The checks that come before `file` is opened (from `open_from`: its
    /// private copy, or the file itself while the plugin cache serves it):
    /// permissions, then its bytes against the lock. `None` when it is
    /// refused (recorded in `report`).
    pub fn admit(
        &self,
        file: &Path,
        open_from: &Path,
        fingerprint: Option<&Fingerprint>,
        cache: &mut PluginCache,
        report: &mut PluginReport,
    ) -> Option<Admitted> {
        if let Some(blocked) = &self.blocked {
            // Logged once, when the checks were loaded.
            report.problems.push(blocked.clone());
            return None;
        }
        if let Some(problem) = permissions::unsafe_library(file) {
            report.refuse(format!("it is not loaded: {problem}"));
            return None;
        }
        if !self.in_force() && !self.pinning {
            return Some(Admitted::default());
        }
        let sha256 = match hash(file, open_from, fingerprint, cache) {
            Ok(sha256) => sha256,
            Err(error) => {
                report.refuse(format!("it could not be read to check its SHA-256: {error}"));
                return None;
            }
        };
        let mut admitted = Admitted { sha256: Some(sha256.clone()), ..Admitted::default() };
        if self.pinning {
            return Some(admitted);
        }
        admitted.verified = fingerprint.cloned();
        let lock = self.lock_path.as_deref().map(Path::display);
        let lock = lock.map(|path| path.to_string()).unwrap_or_else(|| "the lock file".to_owned());
        match self.lock.as_ref().and_then(|lock| lock.libraries.get(&report.file)) {
            None => admitted.differences.push(format!(
                "it is not pinned in {lock} (`mcp-plugin-host plugins lock` pins what the folder holds)"
            )),
            Some(pinned) => {
                if pinned.sha256 != sha256 {
                    admitted.differences.push(format!(
                        "its SHA-256 {} differs from the {} pinned in {lock}",
                        short(&sha256),
                        short(&pinned.sha256)
                    ));
                }
                admitted.pinned = Some(pinned.clone());
            }
        }
        if !admitted.differences.is_empty() && self.require {
            self.verdict(&admitted.differences, report);
            return None;
        }
        Some(admitted)
    }

    /// The check that comes once the plugin's offer is known, before any of
    /// it is served: its surface against the lock. Says what differed, in
    /// one line (ERROR and refused when the lock is required, else WARN).
    /// `false` when the plugin is refused.
    pub fn accept_surface(&self, admitted: &mut Admitted, offer: &Offer, report: &mut PluginReport) -> bool {
        if self.pinning {
            // Computed now, so that the plugin cache keeps it for the starts that follow.
            Surface::sha256_of(offer);
            return true;
        }
        if !self.in_force() {
            return true;
        }
        if let Some(pinned) = &admitted.pinned {
            let lock = self.lock_path.as_deref().map(Path::display).map(|path| path.to_string()).unwrap_or_default();
            match &pinned.surface {
                None => admitted
                    .differences
                    .push(format!("its surface is not pinned in {lock} (the plugin was disabled when locked)")),
                Some(then) if then.sha256 != Surface::sha256_of(offer) => admitted.differences.push(format!(
                    "it offers another surface than pinned in {lock}: {}",
                    Surface::of(offer).differences(then).join(", ")
                )),
                Some(_) => {}
            }
        }
        if admitted.differences.is_empty() {
            return true;
        }
        self.verdict(&admitted.differences, report);
        !self.require
    }

    /// Refuses (required) or warns of (not required) what differs from the lock.
    fn verdict(&self, differences: &[String], report: &mut PluginReport) {
        let what = differences.join("; ");
        if self.require {
            report.refuse(format!("{what} (Plugins.RequireLock is on)"));
        } else {
            tracing::warn!("serving {} although {what} (Plugins.RequireLock is off)", report.file);
            report.lock_mismatch = differences.to_vec();
        }
    }
}

/// The SHA-256 of the bytes loaded for `file` (from `open_from`: the file, or its private copy,
/// which holds the bytes the file had at `fingerprint`): hashed only when the plugin cache does not
/// know the hash of the file at that fingerprint.
fn hash(
    file: &Path,
    open_from: &Path,
    fingerprint: Option<&Fingerprint>,
    cache: &mut PluginCache,
) -> std::io::Result<String> {
    if let Some(fingerprint) = fingerprint
        && let Some(known) = cache.sha256(file, fingerprint)
    {
        return Ok(known.to_owned());
    }
    let sha256 = file_sha256(open_from)?;
    if let Some(fingerprint) = fingerprint {
        cache.remember_sha256(file, fingerprint, &sha256);
    }
    Ok(sha256)
}

fn file_name(file: &Path) -> String {
    file.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default()
}
