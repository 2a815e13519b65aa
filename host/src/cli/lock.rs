//! `plugins lock`: the lock file written from what the plugin folder holds.

use std::io::Write;

use crate::{
    plugin::{
        discovery,
        load::{Loading, Shared},
        report::PluginStatus,
    },
    settings::Settings,
    trust::{
        Trust,
        lockfile::{LockFile, LockedLibrary, Surface},
    },
};

/// `plugins lock`: loads every library in the folder (checking permissions,
/// not the old lock), pins what loaded and says what changed since the
/// last lock. Fails when a library could not be pinned (it is left out).
pub fn lock(settings: &Settings, out: &mut dyn Write) -> Result<(), String> {
    let path = settings.plugins.lock_file.clone().ok_or("Plugins.LockFile is \"\": there is no lock file to write")?;
    let discovery =
        discovery::discover(settings, &Shared::default(), Loading::Eager, Trust::pinning(&settings.plugins));
    let mut lock = LockFile::new();
    let mut unpinned = Vec::new();
    for slot in &discovery.slots {
        let report = &slot.report;
        let known = (slot.serving.is_some() || report.status == PluginStatus::Disabled)
            .then_some(())
            .and(slot.sha256.clone().zip(report.plugin.clone()))
            .zip(report.version.clone().zip(report.abi_version.clone()));
        match known {
            Some(((sha256, plugin), (version, abi_version))) => {
                let surface = slot.serving.as_ref().map(|serving| Surface::of(&serving.offer));
                lock.libraries
                    .insert(report.file.clone(), LockedLibrary { sha256, plugin, version, abi_version, surface });
            }
            None => unpinned.push(format!("{}: not pinned: {}", report.file, report.problems.join("; "))),
        }
    }
    let before = LockFile::read(&path).unwrap_or_else(|problem| {
        let _ = writeln!(out, "{problem}; writing it afresh");
        None
    });
    let changes = lock.changes_from(&before.unwrap_or_default());
    lock.write(&path).map_err(|error| format!("the lock file {} could not be written: {error}", path.display()))?;
    for line in &changes {
        let _ = writeln!(out, "{line}");
    }
    let _ = writeln!(
        out,
        "{}: {} libraries pinned, {}",
        path.display(),
        lock.libraries.len(),
        if changes.is_empty() { "no change".to_owned() } else { format!("{} change(s)", changes.len()) }
    );
    for problem in discovery.problems.iter().chain(&unpinned) {
        let _ = writeln!(out, "  {problem}");
    }
    if unpinned.is_empty() && discovery.problems.is_empty() {
        Ok(())
    } else {
        Err(format!("{} libraries could not be pinned", unpinned.len()))
    }
}
