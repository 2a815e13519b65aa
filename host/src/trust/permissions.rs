//! File permissions as `ssh` checks its keys and configuration: a file the
//! host trusts (a plugin library, the plugin folder, the lock file, the
//! plugin cache) must be changeable only by the host's own user or by root.
//!
//! A file owned by another user, or writable by its group or by others, is
//! refused with one line naming its mode and path. Root-owned files are
//! accepted, as ssh accepts them: root can change anything on the machine
//! anyway, and system folders (`/usr/lib/…`, `/opt/…`) are root's. Only
//! the file and the folder that holds it are checked, not every folder
//! above them (ssh walks up to the home folder): the parents of a plugin
//! folder are the operator's to keep. Elsewhere than on Unix nothing is
//! checked.

use std::path::Path;

/// Why `path` (symbolic links followed) may be changed by someone other
/// than the host's user or root; `None` when it may not, or cannot be read
/// (the caller's own reading says why).
pub fn unsafe_file(path: &Path) -> Option<String> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let metadata = std::fs::metadata(path).ok()?;
        let mode = metadata.mode() & 0o7777;
        let owner = metadata.uid();
        let host_user = rustix::process::geteuid().as_raw();
        if owner != host_user && owner != 0 {
            return Some(format!(
                "{} (mode {mode:04o}) belongs to uid {owner}, not to the host's user (uid {host_user}) or root",
                path.display()
            ));
        }
        let writers = match (mode & 0o020 != 0, mode & 0o002 != 0) {
            (true, true) => "its group and others",
            (true, false) => "its group",
            (false, true) => "others",
            (false, false) => return None,
        };
        Some(format!("{} (mode {mode:04o}) is writable by {writers}; `chmod go-w` it", path.display()))
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
}

/// Why the library `file` may be changed by others: the file itself, or,
/// when it is a symbolic link, the folder its target lives in (the plugin
/// folder itself is checked once, by the caller).
pub fn unsafe_library(file: &Path) -> Option<String> {
    unsafe_file(file).or_else(|| {
        let linked = std::fs::symlink_metadata(file).ok()?.file_type().is_symlink();
        let target = std::fs::canonicalize(file).ok().filter(|_| linked)?;
        unsafe_file(target.parent()?)
    })
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    #[test]
    fn group_or_world_writable_files_are_named_with_their_mode() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("libdemo.so");
        std::fs::write(&file, b"x").unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert_eq!(unsafe_file(&file), None);
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o666)).unwrap();
        let problem = unsafe_file(&file).expect("world-writable");
        assert!(problem.contains("(mode 0666) is writable by its group and others"), "{problem}");
        assert!(problem.contains("libdemo.so"), "{problem}");
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o620)).unwrap();
        assert!(unsafe_file(&file).unwrap().contains("(mode 0620) is writable by its group;"));
    }

    #[test]
    fn a_link_into_a_world_writable_folder_is_unsafe() {
        let dir = tempfile::tempdir().unwrap();
        let open = dir.path().join("open");
        std::fs::create_dir(&open).unwrap();
        std::fs::write(open.join("libdemo.so"), b"x").unwrap();
        std::fs::set_permissions(open.join("libdemo.so"), std::fs::Permissions::from_mode(0o644)).unwrap();
        std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o777)).unwrap();
        let link = dir.path().join("libdemo.so");
        std::os::unix::fs::symlink(open.join("libdemo.so"), &link).unwrap();
        let problem = unsafe_library(&link).expect("its folder is world-writable");
        assert!(problem.contains("(mode 0777) is writable by its group and others"), "{problem}");
    }
}
