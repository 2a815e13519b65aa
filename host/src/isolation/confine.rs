//! What confines a plugin's worker process (`Plugins.Workers`): its
//! environment, chosen by the host when it starts the worker
//! ([`environment`]), and the limits the worker puts on itself before it
//! loads the library ([`confine`]): rlimits on address space and CPU time,
//! `PR_SET_NO_NEW_PRIVS`, and on Linux Landlock rules on the file system.
//!
//! Landlock is best effort: a kernel without it (or with an older ABI)
//! confines less, and the worker says what it got in one log line. What the
//! worker may read: its library's folder, the system folders, the host's
//! executable, the dotnet install and the folders the operator lists; write:
//! the system temporary folder, `/dev/null` and the like, and the folders
//! in `WritePaths`, to which the host adds the calling client's roots when it
//! starts a worker for them (Landlock rules can only be tightened, so each set
//! of roots has a worker of its own; see [`super::supervisor`]).

use std::path::{Path, PathBuf};

use crate::settings::WorkerLimits;

/// The variables every worker gets from the host's environment, whatever
/// the operator lists: what a process needs to find programs, its home,
/// its temporary folder and its locale, and the dotnet CLI's own settings.
const PASSED: &[&str] = &["PATH", "HOME", "TMPDIR", "TEMP", "TMP", "LANG", "LANGUAGE", "USER", "LOGNAME", "TZ"];

/// Variable name prefixes passed on as [`PASSED`] is.
const PASSED_PREFIXES: &[&str] = &["LC_", "DOTNET_", "NUGET_", "MSBUILD"];

/// The environment of a worker: the host's variables that [`PASSED`] names
/// or the operator lists in `Environment`, and nothing else.
pub fn environment(limits: &WorkerLimits) -> Vec<(String, String)> {
    passed_on(std::env::vars(), limits)
}

/// Those of `variables` a worker under `limits` gets.
fn passed_on(variables: impl Iterator<Item = (String, String)>, limits: &WorkerLimits) -> Vec<(String, String)> {
    let listed = limits.environment.as_deref().unwrap_or_default();
    variables
        .filter(|(name, _)| {
            PASSED.contains(&name.as_str())
                || PASSED_PREFIXES.iter().any(|prefix| name.starts_with(prefix))
                || listed.iter().any(|wanted| wanted == name)
        })
        .collect()
}

/// Makes the kernel kill this process when the host (`parent`) goes, even by
/// SIGKILL, and checks the host did not go before that was in force.
#[cfg(target_os = "linux")]
pub fn die_with_parent(parent: u32) -> Result<(), String> {
    nix::sys::prctl::set_pdeathsig(nix::sys::signal::Signal::SIGKILL)
        .map_err(|error| format!("cannot ask to die with the host: {error}"))?;
    if nix::unistd::getppid().as_raw() as u32 != parent {
        return Err(format!("the host (process {parent}) is gone"));
    }
    Ok(())
}

/// Elsewhere the worker ends when its stdin closes, which the host's exit does.
#[cfg(not(target_os = "linux"))]
pub fn die_with_parent(_parent: u32) -> Result<(), String> {
    Ok(())
}

/// Applies `limits` to this process, which is about to load `library`;
/// returns what was and was not put in force, one line each, for the host's log.
pub fn confine(library: &Path, limits: &WorkerLimits) -> Vec<String> {
    let mut notes = Vec::new();
    rlimits(limits, &mut notes);
    #[cfg(target_os = "linux")]
    {
        if limits.landlock.unwrap_or(true) {
            notes.push(landlock_rules(library, limits));
        }
        match nix::sys::prctl::set_no_new_privs() {
            Ok(()) => notes.push("no new privileges: set".to_owned()),
            Err(error) => notes.push(format!("no new privileges: could not be set: {error}")),
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = library;
        if limits.landlock.unwrap_or(true) {
            notes.push("file-system confinement: not available on this platform (Landlock is Linux only)".to_owned());
        }
    }
    notes
}

/// The address-space and CPU-time limits.
fn rlimits(limits: &WorkerLimits, notes: &mut Vec<String>) {
    use nix::sys::resource::{Resource, setrlimit};
    if let Some(megabytes) = limits.memory_mb {
        let bytes = megabytes.saturating_mul(1024 * 1024);
        match setrlimit(Resource::RLIMIT_AS, bytes, bytes) {
            Ok(()) => notes.push(format!("address space limited to {megabytes} MiB")),
            Err(error) => notes.push(format!("address space limit of {megabytes} MiB could not be set: {error}")),
        }
    }
    if let Some(seconds) = limits.cpu_seconds {
        // SIGXCPU at the soft limit, SIGKILL a second later if it is caught.
        match setrlimit(Resource::RLIMIT_CPU, seconds, seconds.saturating_add(1)) {
            Ok(()) => notes.push(format!("CPU time limited to {seconds} s")),
            Err(error) => notes.push(format!("CPU time limit of {seconds} s could not be set: {error}")),
        }
    }
}

/// Folders every worker may read (and execute from): the system's.
#[cfg(target_os = "linux")]
const SYSTEM_READ: &[&str] =
    &["/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin", "/etc", "/opt", "/proc", "/sys", "/dev", "/run"];

/// Files every worker may write: the harmless devices.
#[cfg(target_os = "linux")]
const SYSTEM_WRITE: &[&str] = &["/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/shm"];

/// Restricts file access with Landlock; says what the kernel granted.
#[cfg(target_os = "linux")]
fn landlock_rules(library: &Path, limits: &WorkerLimits) -> String {
    use landlock::{
        ABI, Access, AccessFs, LandlockStatus, Ruleset, RulesetAttr, RulesetCreatedAttr, RulesetStatus,
        path_beneath_rules,
    };
    let abi = ABI::V6;
    let mut read: Vec<PathBuf> = SYSTEM_READ.iter().map(PathBuf::from).collect();
    // The folder the host found the library in, and the one it really is in (a link may point elsewhere).
    read.extend(library.parent().map(Path::to_owned));
    read.extend(library.canonicalize().ok().and_then(|real| real.parent().map(Path::to_owned)));
    read.extend(std::env::current_exe().ok().and_then(|exe| exe.parent().map(Path::to_owned)));
    read.extend(dotnet_install());
    read.extend(limits.read_paths.iter().flatten().cloned());
    let mut write: Vec<PathBuf> = SYSTEM_WRITE.iter().map(PathBuf::from).collect();
    write.push(std::env::temp_dir());
    write.extend(limits.write_paths.iter().flatten().cloned());
    let existing = |paths: Vec<PathBuf>| paths.into_iter().filter(|path| path.exists()).collect::<Vec<_>>();
    let restricted = Ruleset::default()
        .handle_access(AccessFs::from_all(abi))
        .and_then(|ruleset| ruleset.create())
        .and_then(|ruleset| ruleset.add_rules(path_beneath_rules(existing(read), AccessFs::from_read(abi))))
        .and_then(|ruleset| ruleset.add_rules(path_beneath_rules(existing(write), AccessFs::from_all(abi))))
        .and_then(|ruleset| ruleset.restrict_self());
    match restricted {
        Ok(status) => {
            let level = match status.landlock {
                LandlockStatus::Available { effective_abi, .. } => format!("ABI {}", effective_abi as i32),
                LandlockStatus::NotEnabled => "Landlock is built into the kernel but not enabled".to_owned(),
                LandlockStatus::NotImplemented => "the kernel has no Landlock".to_owned(),
            };
            match status.ruleset {
                RulesetStatus::FullyEnforced => format!("file-system confinement: fully enforced ({level})"),
                RulesetStatus::PartiallyEnforced => {
                    format!("file-system confinement: partly enforced, as far as the kernel allows ({level})")
                }
                RulesetStatus::NotEnforced => {
                    format!(
                        "file-system confinement: NOT enforced ({level}); the worker can reach every file the host can"
                    )
                }
            }
        }
        Err(error) => format!("file-system confinement: NOT enforced, Landlock failed: {error}"),
    }
}

/// The dotnet install the dotnet plugins run: `DOTNET_ROOT`, else the
/// folder of the `dotnet` found on PATH (links followed).
#[cfg(target_os = "linux")]
fn dotnet_install() -> Option<PathBuf> {
    if let Some(root) = std::env::var_os("DOTNET_ROOT") {
        return Some(PathBuf::from(root));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|folder| folder.join("dotnet"))
        .find(|candidate| candidate.is_file())
        .and_then(|dotnet| dotnet.canonicalize().ok())
        .and_then(|dotnet| dotnet.parent().map(Path::to_owned))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_worker_gets_what_every_process_needs_and_what_the_operator_lists_and_nothing_else() {
        let host = [
            ("PATH", "/usr/bin"),
            ("HOME", "/home/me"),
            ("LC_ALL", "C.UTF-8"),
            ("DOTNET_ROOT", "/opt/dotnet"),
            ("GITHUB_TOKEN", "secret"),
            ("AWS_SECRET_ACCESS_KEY", "secret"),
        ]
        .map(|(name, value)| (name.to_owned(), value.to_owned()));
        let names = |limits: &WorkerLimits| -> Vec<String> {
            passed_on(host.clone().into_iter(), limits).into_iter().map(|(name, _)| name).collect()
        };
        assert_eq!(names(&WorkerLimits::default()), ["PATH", "HOME", "LC_ALL", "DOTNET_ROOT"]);
        let listed = WorkerLimits { environment: Some(vec!["GITHUB_TOKEN".to_owned()]), ..WorkerLimits::default() };
        assert_eq!(names(&listed), ["PATH", "HOME", "LC_ALL", "DOTNET_ROOT", "GITHUB_TOKEN"]);
    }
}
