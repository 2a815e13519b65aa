//! Where the host keeps its own files by default, by the platform's
//! conventions: the plugin cache, lock files, status files, private copies.

use std::path::{Path, PathBuf};

/// Where the plugin cache lives when `Plugins.CacheFile` does not say: the
/// platform's cache folder for this program (`$XDG_CACHE_HOME/mcp-plugin-host`
/// on Linux, `~/Library/Caches/mcp-plugin-host` on macOS, `%LOCALAPPDATA%` on
/// Windows), file `plugins.json`. `None` when the platform names no home.
pub fn default_cache_file() -> Option<PathBuf> {
    Some(project_dirs()?.cache_dir().join("plugins.json"))
}

/// Where lock files live when `Host.LockDirectory` does not say: the user's
/// runtime folder (`$XDG_RUNTIME_DIR/mcp-plugin-host`, emptied at logout) where
/// the platform has one, else `locks` in the cache folder.
pub fn default_lock_directory() -> Option<PathBuf> {
    let dirs = project_dirs()?;
    Some(dirs.runtime_dir().map_or_else(|| dirs.cache_dir().join("locks"), |runtime| runtime.join("locks")))
}

/// Where serving hosts say what they serve, one file each, for the
/// `plugins` and `check` commands: the platform's runtime folder for this
/// program (`$XDG_RUNTIME_DIR/mcp-plugin-host` on Linux), else its cache
/// folder, else the temporary folder; then `serving/`.
pub fn serving_dir() -> PathBuf {
    let dirs = project_dirs();
    let base = dirs.as_ref().and_then(|dirs| dirs.runtime_dir().map(Path::to_owned));
    let base = base.or_else(|| dirs.as_ref().map(|dirs| dirs.cache_dir().join("run")));
    base.unwrap_or_else(|| std::env::temp_dir().join(env!("CARGO_PKG_NAME"))).join("serving")
}

/// Where a serving host puts the private copies of libraries it loads on
/// reload: the platform's cache folder for this program, then `copies/`
/// (not the runtime or temporary folder, which may not allow running code).
pub fn copies_dir() -> PathBuf {
    let base = project_dirs().map(|dirs| dirs.cache_dir().to_owned());
    base.unwrap_or_else(|| std::env::temp_dir().join(env!("CARGO_PKG_NAME"))).join("copies")
}

/// This program's folders on this platform, by the platform's conventions.
pub fn project_dirs() -> Option<directories::ProjectDirs> {
    directories::ProjectDirs::from("", "", env!("CARGO_PKG_NAME"))
}
