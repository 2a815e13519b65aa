//! What a serving plugin tells the host after it was loaded: that its
//! prompts or resources changed ([`Relisting`]), or that it failed after
//! start-up and must be withdrawn ([`Withdrawal`]). The reloader acts on
//! both (`crate::reload`); the backends only send them, so they sit below
//! the loader and the reloader.

use std::{
    path::PathBuf,
    sync::{Arc, Weak},
};

use super::cache::Offer;

/// Called when a plugin served from the cache could not be created on its
/// first use, so that its items stop being served.
pub type Withdraw = Arc<dyn Fn(Withdrawal) + Send + Sync>;

/// A plugin whose creation on first use failed.
#[derive(Debug, Clone)]
pub struct Withdrawal {
    /// Its library, in the plugin folder.
    pub file: PathBuf,
    /// The offer it stood for: whatever has replaced the plugin since (a
    /// reload) has another, and is not withdrawn.
    pub offer: Weak<Offer>,
    /// Why it failed.
    pub problem: String,
}

/// Called when a plugin announces that its prompts or resources changed.
pub type Relist = Arc<dyn Fn(Relisting) + Send + Sync>;

/// A plugin's announcement that its lists changed.
#[derive(Debug, Clone)]
pub struct Relisting {
    /// The plugin's name.
    pub plugin: String,
    /// Its prompts changed.
    pub prompts: bool,
    /// Its resources changed.
    pub resources: bool,
}
