//! Finds plugin libraries, loads the enabled ones and builds the registry,
//! refusing what cannot be served with one error line each while the rest
//! still serve.
//!
//! Two steps, so that a reload can redo the second alone: loading
//! ([`super::load`]) turns each file into a [`Slot`] (identity, status, the
//! created plugin and its offer, each offered item checked once), and
//! assembling ([`super::assemble`]) builds the registry from the slots under
//! the operator's surface rules (filters, prefixes, overrides; see
//! [`crate::surface`]).

use std::collections::HashMap;

use super::{
    assemble::assemble,
    cache::PluginCache,
    load::{LoadContext, Loading, Shared, Slot, folder, load_library},
    report::PluginReport,
};
use crate::{registry::Registry, settings::Settings, trust::Trust};

/// The outcome of discovery.
pub struct Discovery {
    /// The tools, prompts and resources to serve.
    pub registry: Registry,
    /// One report per library found.
    pub reports: Vec<PluginReport>,
    /// Problems that concern no single library (a missing directory, an
    /// override that matches no tool).
    pub problems: Vec<String>,
    /// Each library as loading left it, for a reload to start from.
    pub slots: Vec<Slot>,
}

/// Loads every enabled plugin in the configured directory that passes the
/// `trust` checks, and builds the registry. Must run inside the host's
/// tokio runtime (plugins' lock waits are spawned on it).
pub fn discover(settings: &Settings, shared: &Shared, loading: Loading, mut trust: Trust) -> Discovery {
    let (files, mut problems) = folder(&settings.plugins);
    problems.iter().for_each(|problem| tracing::error!("{problem}"));
    problems.append(&mut trust.problems);
    let context = LoadContext::new(&settings.plugins, shared, loading, trust);
    let mut cache = PluginCache::open(settings.plugins.cache_file.as_deref());
    let mut names = HashMap::new();
    let slots: Vec<Slot> = files.iter().map(|file| load_library(file, &context, &mut cache, &mut names)).collect();
    cache.retain_existing();
    cache.save();
    let assembly = assemble(&slots, settings, shared);
    problems.extend(assembly.problems);
    Discovery { registry: assembly.registry, reports: assembly.reports, problems, slots }
}
