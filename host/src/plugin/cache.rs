//! The plugin cache: what each library offered the last time it was
//! loaded, so that the next start can serve its tools without loading it.
//!
//! Loading a plugin library costs about a millisecond and a couple of
//! megabytes (the loader maps and relocates it, the ABI check walks its
//! types, the plugin builds its descriptors); with a dozen plugins that is
//! most of the host's start-up and memory. So, like a shell's plugin
//! registry, the host remembers each library's name, version and offer
//! (tool, prompt and resource descriptors) in one JSON file, and a library
//! whose file and configuration have not changed since is created only
//! when a client first uses it (see [`super::dylib::LazyPlugin`]).
//!
//! An entry is trusted only while everything it was computed from is the
//! same: the file (size, modification time and, on Unix, device, inode and
//! status-change time),
//! the plugin's configuration section and `Plugins.Config` (as a hash, so
//! no configured secret is written to disk), and the host's own version and
//! plugin-API version (the whole file is dropped when they differ). Only
//! libraries that loaded without any problem are remembered with their
//! offer; a refused library is loaded, and refused, again on every start.
//! The cache is an optimisation: an unreadable or unwritable file is logged
//! and the host loads every plugin as if there were none.
//!
//! It also remembers the SHA-256 of each library the lock check hashed, with
//! the fingerprint the file had before it was hashed, so that a start hashes
//! only what changed (see `crate::trust`). Since what the cache says is
//! served and believed, a cache file that users other than the host's owner
//! could write is not read at all.

use std::{
    collections::BTreeMap,
    hash::{Hash, Hasher},
    path::{Path, PathBuf},
    sync::{Arc, OnceLock},
};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, value::RawValue};

/// The cache file's identity line: a file written by another host or
/// plugin-API version is ignored as a whole.
fn host_identity() -> String {
    format!(
        "{} {} (mcp-plugin-api {})",
        env!("CARGO_PKG_NAME"),
        env!("CARGO_PKG_VERSION"),
        mcp_plugin_api::abi::ABI_VERSION
    )
}

/// What identifies one version of a library file on disk.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Fingerprint {
    len: u64,
    modified_secs: u64,
    modified_nanos: u32,
    device: u64,
    inode: u64,
    /// The status-change time (ctime): no user can set it, so a file
    /// rewritten with its old size and modification time still differs.
    #[serde(default)]
    changed_secs: i64,
    #[serde(default)]
    changed_nanos: i64,
}

impl Fingerprint {
    /// The fingerprint of `file` (following symbolic links), if it can be read.
    pub fn of(file: &Path) -> Option<Self> {
        let metadata = std::fs::metadata(file).ok()?;
        let modified = metadata.modified().ok()?.duration_since(std::time::UNIX_EPOCH).ok()?;
        #[cfg(unix)]
        let (device, inode, changed_secs, changed_nanos) = {
            use std::os::unix::fs::MetadataExt;
            (metadata.dev(), metadata.ino(), metadata.ctime(), metadata.ctime_nsec())
        };
        #[cfg(not(unix))]
        let (device, inode, changed_secs, changed_nanos) = (0, 0, 0, 0);
        Some(Self {
            len: metadata.len(),
            modified_secs: modified.as_secs(),
            modified_nanos: modified.subsec_nanos(),
            device,
            inode,
            changed_secs,
            changed_nanos,
        })
    }
}

/// A plugin's tool, prompt and resource descriptors, as it gave them.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Offer {
    /// MCP `Tool` objects, in the plugin's order, as JSON text (the bulk of
    /// the cache: kept as text, they are parsed once, into the registry).
    pub tools: Vec<Box<RawValue>>,
    /// MCP `Prompt` objects.
    #[serde(default)]
    pub prompts: Vec<Value>,
    /// MCP `Resource` and `ResourceTemplate` objects.
    #[serde(default)]
    pub resources: Vec<Value>,
    /// The hash of this offer's surface (see `crate::trust::lockfile::Surface`), once the lock
    /// check has computed it: kept with the offer in the cache, so a start served from the
    /// cache compares it with the lock without hashing every descriptor again.
    #[serde(default, rename = "surfaceSha256", with = "once", skip_serializing_if = "is_unset")]
    pub surface_sha256: OnceLock<String>,
}

fn is_unset(value: &OnceLock<String>) -> bool {
    value.get().is_none()
}

/// A `OnceLock<String>` as an optional string.
mod once {
    use std::sync::OnceLock;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(value: &OnceLock<String>, serializer: S) -> Result<S::Ok, S::Error> {
        value.get().serialize(serializer)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<OnceLock<String>, D::Error> {
        Ok(Option::<String>::deserialize(deserializer)?.map(OnceLock::from).unwrap_or_default())
    }
}

impl Offer {
    /// Whether two offers are the same, descriptor for descriptor.
    pub fn same_as(&self, other: &Offer) -> bool {
        self.tools.len() == other.tools.len()
            && self.tools.iter().zip(&other.tools).all(|(mine, theirs)| mine.get() == theirs.get())
            && self.prompts == other.prompts
            && self.resources == other.resources
    }
}

/// What the cache knows of one library (cheap to clone: the offer is shared).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CachedLibrary {
    fingerprint: Fingerprint,
    /// The plugin's name.
    pub name: String,
    /// The plugin's version.
    pub version: String,
    /// The plugin-API version it was built against.
    pub abi_version: String,
    /// The offer, if the plugin was created without problems, with the
    /// hash of the configuration it was created with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    offer: Option<CachedOffer>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct CachedOffer {
    config_hash: String,
    offer: Arc<Offer>,
}

impl CachedLibrary {
    /// The offer the plugin made when created with `config_hash`, if known.
    pub fn offer_for(&self, config_hash: &str) -> Option<Arc<Offer>> {
        self.offer.as_ref().filter(|cached| cached.config_hash == config_hash).map(|cached| Arc::clone(&cached.offer))
    }
}

/// A library's SHA-256, as hashed when its file had `fingerprint`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Verified {
    fingerprint: Fingerprint,
    sha256: String,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct CacheFile {
    host: String,
    libraries: BTreeMap<String, CachedLibrary>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    verified: BTreeMap<String, Verified>,
}

/// The cache, read at discovery and written back if anything changed.
pub struct PluginCache {
    path: Option<PathBuf>,
    libraries: BTreeMap<String, CachedLibrary>,
    verified: BTreeMap<String, Verified>,
    changed: bool,
}

impl PluginCache {
    /// Reads the cache at `path`; `None` means caching is off.
    pub fn open(path: Option<&Path>) -> Self {
        let file = path.map(read).unwrap_or_default();
        Self { path: path.map(Path::to_owned), libraries: file.libraries, verified: file.verified, changed: false }
    }

    /// The SHA-256 of `file` when it was last hashed, if its fingerprint is
    /// still `fingerprint`.
    pub fn sha256(&self, file: &Path, fingerprint: &Fingerprint) -> Option<&str> {
        let verified = self.verified.get(&key(file))?;
        (verified.fingerprint == *fingerprint).then_some(verified.sha256.as_str())
    }

    /// Remembers that `file`, while it had `fingerprint`, hashed to `sha256`.
    pub fn remember_sha256(&mut self, file: &Path, fingerprint: &Fingerprint, sha256: &str) {
        if self.path.is_none() {
            return;
        }
        let verified = Verified { fingerprint: fingerprint.clone(), sha256: sha256.to_owned() };
        self.verified.insert(key(file), verified);
        self.changed = true;
    }

    /// What the cache knows of `file`, if the file is unchanged since.
    pub fn get(&self, file: &Path) -> Option<&CachedLibrary> {
        let entry = self.libraries.get(&key(file))?;
        (Fingerprint::of(file)? == entry.fingerprint).then_some(entry)
    }

    /// Remembers a library's identity, and its offer when it was created
    /// without problems under configuration `config_hash`.
    pub fn remember(
        &mut self,
        file: &Path,
        name: &str,
        version: &str,
        abi_version: &str,
        offer: Option<(String, Arc<Offer>)>,
    ) {
        if self.path.is_none() {
            return;
        }
        let Some(fingerprint) = Fingerprint::of(file) else { return };
        let entry = CachedLibrary {
            fingerprint,
            name: name.to_owned(),
            version: version.to_owned(),
            abi_version: abi_version.to_owned(),
            offer: offer.map(|(config_hash, offer)| CachedOffer { config_hash, offer }),
        };
        self.libraries.insert(key(file), entry);
        self.changed = true;
    }

    /// Has the cache written back although no entry was replaced: a cached
    /// offer gained its surface hash.
    pub fn mark_changed(&mut self) {
        self.changed |= self.path.is_some();
    }

    /// Forgets `file` (it is not loadable, or not a plugin any more).
    pub fn forget(&mut self, file: &Path) {
        self.forget_key(&key(file));
    }

    /// Forgets the library cached under `key` (see [`key`]).
    fn forget_key(&mut self, key: &str) {
        self.changed |= self.libraries.remove(key).is_some();
    }

    /// Forgets libraries that are no longer on disk.
    pub fn retain_existing(&mut self) {
        let before = self.libraries.len() + self.verified.len();
        self.libraries.retain(|file, _| Path::new(file).is_file());
        self.verified.retain(|file, _| Path::new(file).is_file());
        self.changed |= self.libraries.len() + self.verified.len() != before;
    }

    /// Writes the cache back if it changed (atomically: a concurrent host
    /// reads the old file or the new one, never half of one).
    pub fn save(&self) {
        let Some(path) = self.path.as_deref().filter(|_| self.changed) else { return };
        if let Err(error) = write(path, &self.libraries, &self.verified) {
            tracing::warn!(
                "the plugin cache {} could not be written ({error}); every start will load every plugin",
                path.display()
            );
        }
    }

    /// Removes the library cached under `key` from the cache at `path` on
    /// disk: its entry proved wrong after the host had started.
    pub fn forget_on_disk(path: &Path, key: &str) {
        let mut cache = Self::open(Some(path));
        cache.forget_key(key);
        cache.save();
    }
}

/// The cache key of a library: its canonical path (so taken when the
/// library is found: a symbolic link may point elsewhere later).
pub fn key(file: &Path) -> String {
    std::fs::canonicalize(file).unwrap_or_else(|_| file.to_owned()).to_string_lossy().into_owned()
}

fn read(path: &Path) -> CacheFile {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return CacheFile::default(),
        Err(error) => {
            tracing::warn!("the plugin cache {} cannot be read ({error}); loading every plugin", path.display());
            return CacheFile::default();
        }
    };
    if let Some(problem) = crate::trust::permissions::unsafe_file(path) {
        tracing::warn!("the plugin cache is not read: {problem}; loading every plugin");
        return CacheFile::default();
    }
    match serde_json::from_str::<CacheFile>(&text) {
        Ok(file) if file.host == host_identity() => file,
        Ok(file) => {
            tracing::debug!("the plugin cache {} was written by {}; starting afresh", path.display(), file.host);
            CacheFile::default()
        }
        Err(error) => {
            tracing::warn!("the plugin cache {} is malformed ({error}); it will be rebuilt", path.display());
            CacheFile::default()
        }
    }
}

fn write(
    path: &Path,
    libraries: &BTreeMap<String, CachedLibrary>,
    verified: &BTreeMap<String, Verified>,
) -> std::io::Result<()> {
    if let Some(folder) = path.parent() {
        std::fs::create_dir_all(folder)?;
    }
    let document = CacheFile { host: host_identity(), libraries: libraries.clone(), verified: verified.clone() };
    let text = serde_json::to_string(&document).map_err(std::io::Error::other)?;
    let staging = path.with_extension(format!("json.{}.tmp", std::process::id()));
    std::fs::write(&staging, text)?;
    std::fs::rename(&staging, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&staging);
    })
}

/// A hash of what a plugin is configured with (its own section and
/// `Plugins.Config`): the cache stores this, never the values.
pub fn config_hash(section: &Value, shared: &Map<String, Value>) -> String {
    let mut hasher = std::hash::DefaultHasher::new();
    section.to_string().hash(&mut hasher);
    Value::Object(shared.clone()).to_string().hash(&mut hasher);
    format!("{:016x}", hasher.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn library(dir: &Path) -> PathBuf {
        let file = dir.join("libdemo.so");
        std::fs::write(&file, b"not really a library").unwrap();
        file
    }

    fn offer() -> Offer {
        Offer { tools: vec![RawValue::from_string(r#"{"name":"echo"}"#.to_owned()).unwrap()], ..Offer::default() }
    }

    #[test]
    fn an_entry_survives_a_round_trip_and_is_trusted_only_for_the_same_file_and_configuration() {
        let dir = tempfile::tempdir().unwrap();
        let file = library(dir.path());
        let path = dir.path().join("cache/plugins.json");
        let mut cache = PluginCache::open(Some(&path));
        cache.remember(&file, "demo", "1.0.0", "1.0.0", Some(("abc".to_owned(), Arc::new(offer()))));
        cache.save();

        let cache = PluginCache::open(Some(&path));
        let entry = cache.get(&file).expect("the entry was saved");
        assert_eq!(entry.name, "demo");
        assert!(entry.offer_for("abc").is_some_and(|cached| cached.same_as(&offer())));
        assert!(entry.offer_for("other configuration").is_none());

        std::fs::write(&file, b"a rebuilt library, longer than before").unwrap();
        assert!(cache.get(&file).is_none(), "a changed file is not trusted");
    }

    #[test]
    fn a_malformed_or_foreign_cache_is_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let file = library(dir.path());
        let path = dir.path().join("plugins.json");
        std::fs::write(&path, "{ not json").unwrap();
        assert!(PluginCache::open(Some(&path)).get(&file).is_none());

        let mut cache = PluginCache::open(Some(&path));
        cache.remember(&file, "demo", "1.0.0", "1.0.0", Some(("abc".to_owned(), Arc::new(offer()))));
        cache.save();
        let text = std::fs::read_to_string(&path).unwrap().replace(&host_identity(), "another host 9.9.9");
        std::fs::write(&path, text).unwrap();
        assert!(PluginCache::open(Some(&path)).get(&file).is_none(), "another host's entries are not trusted");
    }

    #[test]
    fn the_configuration_hash_changes_with_either_section_and_hides_the_values() {
        let shared = Map::new();
        let one = config_hash(&serde_json::json!({ "Password": "hunter2" }), &shared);
        let two = config_hash(&serde_json::json!({ "Password": "hunter3" }), &shared);
        assert_ne!(one, two);
        assert!(!one.contains("hunter"));
        let mut other_shared = Map::new();
        other_shared.insert("Key".to_owned(), Value::from(1));
        assert_ne!(one, config_hash(&serde_json::json!({ "Password": "hunter2" }), &other_shared));
    }

    #[test]
    fn without_a_path_nothing_is_remembered_or_written() {
        let dir = tempfile::tempdir().unwrap();
        let file = library(dir.path());
        let mut cache = PluginCache::open(None);
        cache.remember(&file, "demo", "1.0.0", "1.0.0", Some(("abc".to_owned(), Arc::new(offer()))));
        cache.save();
        assert!(cache.get(&file).is_none());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
