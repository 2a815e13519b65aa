//! The lock table that plugins share, so that operations living in
//! different plugins (a package add, a build) never run on the same target
//! at once — in this host, and in every other host process on the machine
//! (each stdio client starts its own host).
//!
//! Keys are opaque canonical strings chosen by plugins. A request either
//! takes a free key, waits for it up to its `waitMs`, or is refused with
//! who holds it. A granted lock is released when the plugin drops its
//! guard, which plugin-api ties to the call's life: success, error, panic,
//! cancellation and timeout all release it.
//!
//! Across processes, each key is an OS file lock on a file named after the
//! key's hash in the lock directory (`Host.LockDirectory`). The holder
//! writes who it is into the file, so a refusal in another process names
//! it. The operating system releases the lock when the holder's process
//! ends, however it ends. Lock files are kept (an unlinked lock file could
//! be locked by two processes at once) and are a few bytes each.

use std::{
    collections::HashMap,
    fs::{File, OpenOptions},
    io::{Read, Seek, Write},
    path::{Path, PathBuf},
    sync::{Arc, Mutex},
    time::{Duration, Instant, SystemTime},
};

use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use tokio::sync::Notify;

/// How often a waiting request looks again at a key another process holds
/// (an OS file lock cannot be awaited; a key this process holds wakes its
/// waiters at once).
const CROSS_PROCESS_POLL: Duration = Duration::from_millis(100);

/// Who holds a key.
#[derive(Debug, Clone)]
struct Holder {
    operation: String,
    plugin: String,
    since: SystemTime,
    /// The holding process, when it is another one.
    process: Option<u32>,
}

impl Holder {
    fn to_json(&self) -> Value {
        let mut holder = json!({
            "operation": self.operation,
            "plugin": self.plugin,
            "since": humantime::format_rfc3339_seconds(self.since).to_string(),
        });
        if let Some(pid) = self.process {
            holder["process"] = json!(pid);
        }
        holder
    }

    /// What another process wrote into a key's lock file, or a holder that
    /// says only that another process has it.
    fn from_file(text: &str) -> Self {
        let record: Value = serde_json::from_str(text).unwrap_or(Value::Null);
        let since = record["since"]
            .as_str()
            .and_then(|since| humantime::parse_rfc3339(since).ok())
            .unwrap_or(SystemTime::UNIX_EPOCH);
        Self {
            operation: record["operation"].as_str().unwrap_or("unknown").to_owned(),
            plugin: record["plugin"].as_str().unwrap_or("unknown (another mcp-plugin-host process)").to_owned(),
            since,
            process: record["pid"].as_u64().map(|pid| pid as u32),
        }
    }
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

/// The locks held right now: this process's, and through the lock
/// directory, every host process's on the machine.
#[derive(Debug, Default)]
pub struct LockTable {
    held: Mutex<HashMap<String, Holder>>,
    released: Notify,
    /// Where the per-key lock files live; `None` keeps locks within this process.
    directory: Option<PathBuf>,
}

/// The outcome of one look at a key.
enum Look {
    Granted(Option<File>),
    Held(Holder),
}

impl LockTable {
    /// A table whose keys are shared with every process that uses `directory`
    /// (created if missing, readable by its owner only).
    pub fn machine_wide(directory: PathBuf) -> std::io::Result<Self> {
        create_private_dir(&directory)?;
        Ok(Self { directory: Some(directory), ..Self::default() })
    }

    /// Takes the key of `request` for `plugin`. Returns the `lockInfo` to
    /// report and, when granted, the guard that holds it.
    pub async fn acquire(self: &Arc<Self>, plugin: &str, request: LockRequest) -> (Value, Option<HeldKey>) {
        let started = Instant::now();
        let patience = request.wait;
        loop {
            // Register interest before looking, so a release between the
            // look and the wait is not missed.
            let released = self.released.notified();
            let holder = match self.look(plugin, &request) {
                Look::Granted(file) => {
                    let mut info = json!({ "lockScope": request.scope, "lockKey": request.key });
                    let waited = started.elapsed().as_millis() as u64;
                    if waited > 0 {
                        info["lockWaitedMs"] = json!(waited);
                    }
                    let guard = HeldKey { key: request.key, table: Arc::clone(self), file };
                    return (info, Some(guard));
                }
                Look::Held(holder) => holder,
            };
            let remaining = patience.saturating_sub(started.elapsed());
            let pause = match holder.process {
                Some(_) => remaining.min(CROSS_PROCESS_POLL),
                None => remaining,
            };
            let woken = !remaining.is_zero() && tokio::time::timeout(pause, released).await.is_ok();
            if !woken && started.elapsed() >= patience {
                let info = json!({
                    "lockScope": request.scope,
                    "lockKey": request.key,
                    "lockContended": true,
                    "lockWaitedMs": started.elapsed().as_millis() as u64,
                    "holder": holder.to_json(),
                });
                return (info, None);
            }
        }
    }

    /// Takes the key now if this process and no other holds it.
    fn look(&self, plugin: &str, request: &LockRequest) -> Look {
        let mut held = self.held.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(holder) = held.get(&request.key) {
            return Look::Held(holder.clone());
        }
        let holder = Holder {
            operation: request.operation.clone(),
            plugin: plugin.to_owned(),
            since: SystemTime::now(),
            process: None,
        };
        let file = match &self.directory {
            None => None,
            Some(directory) => match take_file_lock(directory, &request.key, &holder) {
                Ok(Some(file)) => Some(file),
                Ok(None) => return Look::Held(read_holder(directory, &request.key)),
                Err(error) => {
                    // A lock directory that cannot be used must not stop the work: the key is still
                    // exclusive within this process.
                    tracing::warn!(
                        "the lock directory {} cannot be used ({error}); locking within this process only",
                        directory.display()
                    );
                    None
                }
            },
        };
        held.insert(request.key.clone(), holder);
        Look::Granted(file)
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

/// The lock file of `key`: a hash, so any key makes a valid file name.
fn lock_file(directory: &Path, key: &str) -> PathBuf {
    let digest = Sha256::digest(key.as_bytes());
    let name: String = digest.iter().take(16).map(|byte| format!("{byte:02x}")).collect();
    directory.join(format!("{name}.lock"))
}

/// Locks `key`'s file without waiting and writes `holder` into it; `None`
/// when another process holds it.
fn take_file_lock(directory: &Path, key: &str, holder: &Holder) -> std::io::Result<Option<File>> {
    let mut file =
        OpenOptions::new().read(true).write(true).create(true).truncate(false).open(lock_file(directory, key))?;
    match file.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => return Ok(None),
        Err(std::fs::TryLockError::Error(error)) => return Err(error),
    }
    let record = json!({
        "key": key,
        "operation": holder.operation,
        "plugin": holder.plugin,
        "pid": std::process::id(),
        "since": humantime::format_rfc3339_seconds(holder.since).to_string(),
    });
    file.set_len(0)?;
    file.rewind()?;
    file.write_all(record.to_string().as_bytes())?;
    Ok(Some(file))
}

/// Who holds `key` in another process, as far as its lock file says.
fn read_holder(directory: &Path, key: &str) -> Holder {
    let mut text = String::new();
    let _ = File::open(lock_file(directory, key)).and_then(|mut file| file.read_to_string(&mut text));
    let mut holder = Holder::from_file(&text);
    holder.process.get_or_insert(0);
    holder
}

/// Creates the lock directory, private to its owner.
fn create_private_dir(directory: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(directory)
}

/// A granted key; dropping it releases the key (and its file lock) and
/// wakes waiters.
pub struct HeldKey {
    key: String,
    table: Arc<LockTable>,
    /// Closing the file releases the OS lock.
    file: Option<File>,
}

impl HeldKey {
    /// The key held.
    pub fn key(&self) -> &str {
        &self.key
    }
}

impl Drop for HeldKey {
    fn drop(&mut self) {
        // The file first: a waiter in this process woken by the release must find it free.
        drop(self.file.take());
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
    async fn tables_sharing_a_directory_exclude_each_other_and_name_the_holder() {
        // Two tables on one directory stand for two host processes: OS file locks are per open file.
        let directory = tempfile::tempdir().unwrap();
        let first = Arc::new(LockTable::machine_wide(directory.path().join("locks")).unwrap());
        let second = Arc::new(LockTable::machine_wide(directory.path().join("locks")).unwrap());
        let (_, held) = first.acquire("dotnet_project", request("/p/app.csproj", 0)).await;
        assert!(held.is_some());
        let (info, refused) = second.acquire("dotnet_package", request("/p/app.csproj", 0)).await;
        assert!(refused.is_none(), "{info}");
        assert_eq!(info["lockContended"], true);
        assert_eq!(info["holder"]["plugin"], "dotnet_project");
        assert_eq!(info["holder"]["operation"], "build");
        assert_eq!(info["holder"]["process"], std::process::id());
        // A waiter in the other table gets the key soon after it is released.
        let waiter = {
            let second = Arc::clone(&second);
            tokio::spawn(async move { second.acquire("dotnet_package", request("/p/app.csproj", 5_000)).await })
        };
        tokio::time::sleep(Duration::from_millis(150)).await;
        drop(held);
        let (info, granted) = waiter.await.unwrap();
        assert!(granted.is_some(), "{info}");
        // Keys are independent.
        let (_, other) = first.acquire("dotnet_project", request("/p/other.csproj", 0)).await;
        assert!(other.is_some());
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
