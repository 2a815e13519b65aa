//! A plugin served from the plugin cache and created on first use.
//!
//! Until a client calls one of its tools, reads one of its resources or
//! gets one of its prompts, a [`LazyPlugin`] answers from the descriptors
//! the cache holds and its library is not even opened. The first use opens
//! the library (a private copy of it, [`super::copies`]), checks its ABI,
//! creates the plugin with its configuration and compares its offer with
//! the cached one; every later use goes
//! straight to the created plugin. If the library cannot be loaded any
//! more, or offers something else than the cache said (a plugin whose offer
//! does not depend only on its file and configuration), each use fails with
//! a message saying so, the cache entry is dropped so the next start loads
//! the library afresh, and a serving host withdraws the plugin's items
//! (see `crate::reload`) until its library changes.

use std::{
    path::PathBuf,
    sync::{Arc, Mutex, OnceLock},
    time::Instant,
};

use futures::{FutureExt, future::BoxFuture};
use serde_json::{Value, value::RawValue};

use super::{
    CallSession, PluginBackend, PluginError,
    cache::{self, Fingerprint, Offer, PluginCache},
    copies,
    dylib::{DylibPlugin, HostLink, Library},
    threads::CallThreads,
};

/// A plugin whose library is loaded on first use.
pub struct LazyPlugin {
    name: String,
    version: String,
    file: PathBuf,
    offer: Arc<Offer>,
    cache_entry: Option<(PathBuf, String)>,
    link: Mutex<Option<HostLink>>,
    created: OnceLock<Result<DylibPlugin, String>>,
    on_failure: Option<Box<dyn Fn(String) + Send + Sync>>,
    verified: Option<Fingerprint>,
}

impl LazyPlugin {
    /// A plugin named `name` in `file` that offered `offer` when last loaded.
    /// `on_failure` hears why, if its creation fails (a serving host then
    /// stops listing its items).
    pub fn new(
        name: String,
        version: String,
        file: PathBuf,
        offer: Arc<Offer>,
        cache_file: Option<PathBuf>,
        link: HostLink,
        on_failure: Option<Box<dyn Fn(String) + Send + Sync>>,
    ) -> Self {
        let cache_entry = cache_file.map(|cache_file| (cache_file, cache::key(&file)));
        Self {
            name,
            version,
            file,
            offer,
            cache_entry,
            link: Mutex::new(Some(link)),
            created: OnceLock::new(),
            on_failure,
            verified: None,
        }
    }

    /// With the lock file in force: the library must still have
    /// `fingerprint`, the one it had when it was checked against the lock,
    /// when the plugin is created.
    pub fn verified_as(mut self, fingerprint: Option<Fingerprint>) -> Self {
        self.verified = fingerprint;
        self
    }

    /// The created plugin, creating it on the first call.
    fn created(&self) -> Result<&DylibPlugin, String> {
        let created = self.created.get_or_init(|| {
            let started = Instant::now();
            let created = self.create();
            match &created {
                Ok(_) => tracing::info!(
                    "created plugin {} from {} on first use in {:.1} ms",
                    self.name,
                    self.file.display(),
                    started.elapsed().as_secs_f64() * 1000.0
                ),
                Err(problem) => {
                    tracing::error!("{problem}");
                    if let Some((cache_file, key)) = &self.cache_entry {
                        PluginCache::forget_on_disk(cache_file, key);
                    }
                    if let Some(on_failure) = &self.on_failure {
                        on_failure(problem.clone());
                    }
                }
            }
            created
        });
        created.as_ref().map_err(Clone::clone)
    }

    fn create(&self) -> Result<DylibPlugin, String> {
        let failed =
            |problem: String| format!("plugin {} ({}) could not be loaded: {problem}", self.name, self.file.display());
        let copy = copies::copy(&self.file).map_err(failed)?;
        if let Some(verified) = &self.verified
            && copy.fingerprint.as_ref() != Some(verified)
        {
            return Err(failed(
                "its library changed after the host checked it against the lock file; it is withdrawn until a \
                 reload checks it again"
                    .to_owned(),
            ));
        }
        let library = Library::open(&copy.path).map_err(|error| failed(error.to_string()))?;
        if library.name() != self.name {
            return Err(failed(format!(
                "the library now holds plugin '{}'; it is withdrawn until its library changes or the host restarts",
                library.name()
            )));
        }
        let link = self.link.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).take();
        let link = link.ok_or_else(|| failed("an earlier attempt failed".to_owned()))?;
        let plugin = library.create(link, CallThreads::new(&self.name)).map_err(|error| failed(error.to_string()))?;
        if !Offer::of(&plugin).map_err(failed)?.same_as(&self.offer) {
            return Err(failed(
                "it offers other tools, prompts or resources than when the host started; it is withdrawn until its \
                 library changes or the host restarts"
                    .to_owned(),
            ));
        }
        Ok(plugin)
    }
}

impl PluginBackend for LazyPlugin {
    fn name(&self) -> &str {
        &self.name
    }

    fn version(&self) -> &str {
        &self.version
    }

    fn tools(&self) -> Result<Vec<Box<RawValue>>, String> {
        Ok(self.offer.tools.clone())
    }

    fn call(
        &self,
        index: u32,
        arguments: String,
        session: Arc<dyn CallSession>,
    ) -> BoxFuture<'static, Result<String, PluginError>> {
        match self.created() {
            Ok(plugin) => plugin.call(index, arguments, session),
            Err(problem) => unavailable(problem),
        }
    }

    fn prompts(&self) -> Vec<Value> {
        self.offer.prompts.clone()
    }

    fn get_prompt(
        &self,
        index: u32,
        arguments: Value,
        session: Arc<dyn CallSession>,
    ) -> BoxFuture<'static, Result<Value, PluginError>> {
        match self.created() {
            Ok(plugin) => plugin.get_prompt(index, arguments, session),
            Err(problem) => unavailable(problem),
        }
    }

    fn complete_prompt(
        &self,
        index: u32,
        argument: String,
        value: String,
        session: Arc<dyn CallSession>,
    ) -> BoxFuture<'static, Result<Vec<String>, PluginError>> {
        match self.created() {
            Ok(plugin) => plugin.complete_prompt(index, argument, value, session),
            Err(problem) => unavailable(problem),
        }
    }

    fn resources(&self) -> Vec<Value> {
        self.offer.resources.clone()
    }

    fn read_resource(
        &self,
        index: u32,
        uri: String,
        request: Value,
        session: Arc<dyn CallSession>,
    ) -> BoxFuture<'static, Result<Vec<Value>, PluginError>> {
        match self.created() {
            Ok(plugin) => plugin.read_resource(index, uri, request, session),
            Err(problem) => unavailable(problem),
        }
    }
}

/// The answer to every request of a plugin that could not be created.
fn unavailable<T: Send + 'static>(problem: String) -> BoxFuture<'static, Result<T, PluginError>> {
    futures::future::ready(Err(PluginError::Fault(problem))).boxed()
}
