//! Private copies: a plugin library is never executed from the file an
//! operator may overwrite.
//!
//! A loaded library is mapped from its file, and writing into that file in
//! place (`cp new/libx.so plugins/`, which truncates and rewrites the same
//! inode) changes the code under the running plugin: the next instruction
//! fetched from a changed page crashes the process. So every library the
//! host (or a worker) opens is first copied into a folder of this process's
//! own, `<cache>/copies/<pid>/<n>/<file name>` (mode 0700, the copy 0500), and
//! opened from there; the operator's file is only ever read. A new copy gets
//! a new path, which also lets a changed library load beside the version
//! already mapped (nothing is ever unloaded, and opening a path again would
//! only return the library mapped under it).
//!
//! A copy is taken only while the file stands still: its fingerprint (size,
//! times, inode) before and after the copy must agree, else it is taken
//! again; the copy's fingerprint is that of the bytes it holds, so the trust
//! checks and the plugin cache can go on keying what they know of a
//! library by the fingerprint of the operator's file.
//!
//! Copies cost a read and a write of each library opened (not of those the
//! plugin cache serves until their first use; docs/benchmarks.md has the
//! figures). The folder goes when the process ends ([`remove_all`]); folders
//! of processes that ended without removing theirs are removed by the next
//! process that copies.

use std::{
    path::{Path, PathBuf},
    sync::{
        OnceLock,
        atomic::{AtomicU64, Ordering},
    },
};

use super::cache::Fingerprint;
use crate::{settings::copies_dir, status::is_running};

/// How often a copy is taken again while the file keeps changing under it.
const ATTEMPTS: usize = 3;

/// A private copy of a library.
#[derive(Debug, Clone)]
pub struct PrivateCopy {
    /// Where the copy is.
    pub path: PathBuf,
    /// The fingerprint the operator's file had while it was copied: the copy holds its bytes.
    pub fingerprint: Option<Fingerprint>,
}

/// This process's copies.
struct Copies {
    folder: PathBuf,
    made: AtomicU64,
}

static COPIES: OnceLock<Copies> = OnceLock::new();

fn copies() -> &'static Copies {
    COPIES.get_or_init(|| {
        let base = copies_dir();
        remove_stale(&base);
        Copies { folder: base.join(std::process::id().to_string()), made: AtomicU64::new(0) }
    })
}

/// Copies `file` to a path of this process's own that no copy had before.
pub fn copy(file: &Path) -> Result<PrivateCopy, String> {
    let copies = copies();
    let name = file.file_name().ok_or_else(|| format!("{} names no file", file.display()))?;
    for _ in 0..ATTEMPTS {
        let started = std::time::Instant::now();
        let before = Fingerprint::of(file);
        let folder = copies.folder.join(copies.made.fetch_add(1, Ordering::Relaxed).to_string());
        let path = folder.join(name);
        create_private_dir(&folder).map_err(|error| format!("no folder for its private copy: {error}"))?;
        let bytes =
            std::fs::copy(file, &path).map_err(|error| format!("it could not be copied for loading: {error}"))?;
        if before.is_some() && Fingerprint::of(file) == before {
            make_read_only(&path);
            tracing::debug!(
                "copied {} ({bytes} bytes) to {} in {:.2} ms",
                file.display(),
                path.display(),
                started.elapsed().as_secs_f64() * 1000.0
            );
            return Ok(PrivateCopy { path, fingerprint: before });
        }
        let _ = std::fs::remove_dir_all(&folder);
    }
    Err(format!(
        "it changed while it was being copied for loading ({ATTEMPTS} times); it is loaded once it stays unchanged"
    ))
}

/// Removes this process's copies (a mapped library stays mapped; its file goes). Called when the
/// process ends.
pub fn remove_all() {
    if let Some(copies) = COPIES.get()
        && copies.made.load(Ordering::Relaxed) > 0
    {
        let _ = std::fs::remove_dir_all(&copies.folder);
    }
}

#[cfg(unix)]
fn create_private_dir(folder: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new().recursive(true).mode(0o700).create(folder)
}

#[cfg(not(unix))]
fn create_private_dir(folder: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(folder)
}

/// The copy is for reading and executing only.
fn make_read_only(path: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o500));
    }
    #[cfg(not(unix))]
    if let Ok(metadata) = std::fs::metadata(path) {
        let mut permissions = metadata.permissions();
        permissions.set_readonly(true);
        let _ = std::fs::set_permissions(path, permissions);
    }
}

/// Removes the copy folders of processes that no longer run (where a
/// process can be looked up: Linux).
fn remove_stale(base: &Path) {
    let Ok(entries) = std::fs::read_dir(base) else { return };
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|name| name.parse::<u32>().ok()) else { continue };
        if !is_running(pid, None) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}
