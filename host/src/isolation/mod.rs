//! Process isolation (`Plugins.Isolation = "process"`): a plugin run in a
//! confined worker process of its own, this same executable started as
//! `mcp-plugin-host plugin-worker`.
//!
//! Both sides of it live here: [`supervisor`] is the host's (the
//! `ProcessPlugin` backend, which starts, routes to, restarts and kills
//! workers, and probes a library no worker serves yet), [`worker`] is the
//! worker process's, [`wire`] the messages between them, and [`confine`]
//! what a worker does to itself before it opens a library.
//!
//! This module is the one platform seam: the rest of the host uses only
//! what it names here. Where there are no worker processes (anything but
//! Unix), the same names exist and refuse, each with one reason.

#[cfg(unix)]
pub mod confine;
#[cfg(unix)]
pub mod supervisor;
pub mod wire;
#[cfg(unix)]
pub mod worker;

#[cfg(unix)]
pub use supervisor::{MAX_WORKERS, ProcessPlugin, Refusal, probe};
pub use wire::Identity;
#[cfg(unix)]
pub use worker::run as run_worker;

#[cfg(not(unix))]
pub use unsupported::{MAX_WORKERS, ProcessPlugin, Refusal, probe, run_worker};

/// The seam where there are no worker processes: every way in says so.
#[cfg(not(unix))]
mod unsupported {
    use std::{path::PathBuf, process::ExitCode, sync::Arc};

    use futures::future::BoxFuture;
    use serde_json::Value;

    use super::wire::Identity;
    use crate::{
        plugin::{CallSession, PluginBackend, PluginError, cache::Offer, link::HostLink},
        settings::WorkerLimits,
    };

    /// Why nothing here runs.
    const UNSUPPORTED: &str = "Plugins.Isolation \"process\" is not available on this platform yet";

    /// The most workers a plugin runs (none here).
    pub const MAX_WORKERS: usize = 0;

    /// Why a library was not identified.
    pub struct Refusal {
        /// The reason.
        pub message: String,
        /// The plugin-API version the library declares, when its ABI was the reason.
        pub incompatible_abi: Option<String>,
    }

    /// No probe worker can start here.
    pub fn probe(_file: &std::path::Path, _limits: &WorkerLimits) -> Result<Identity, Refusal> {
        Err(Refusal { message: UNSUPPORTED.to_owned(), incompatible_abi: None })
    }

    /// No worker process runs here.
    pub fn run_worker(_parent: u32) -> ExitCode {
        eprintln!("error: {UNSUPPORTED}");
        ExitCode::FAILURE
    }

    /// A plugin that would run in a worker: never made here.
    pub enum ProcessPlugin {}

    impl ProcessPlugin {
        /// Refuses: there are no worker processes.
        pub fn start(
            _copy: PathBuf,
            _link: HostLink,
            _limits: WorkerLimits,
            _on_failure: Option<Box<dyn Fn(String) + Send + Sync>>,
        ) -> Result<(Self, Arc<Offer>), String> {
            Err(UNSUPPORTED.to_owned())
        }

        /// Refuses: there are no worker processes.
        pub fn new(
            _file: PathBuf,
            _link: HostLink,
            _limits: WorkerLimits,
            _version: String,
            _offer: Arc<Offer>,
            _on_failure: Option<Box<dyn Fn(String) + Send + Sync>>,
        ) -> Result<Self, String> {
            Err(UNSUPPORTED.to_owned())
        }
    }

    impl PluginBackend for ProcessPlugin {
        fn name(&self) -> &str {
            match *self {}
        }

        fn version(&self) -> &str {
            match *self {}
        }

        fn call(&self, _: u32, _: String, _: Arc<dyn CallSession>) -> BoxFuture<'static, Result<String, PluginError>> {
            match *self {}
        }

        fn get_prompt(
            &self,
            _: u32,
            _: Value,
            _: Arc<dyn CallSession>,
        ) -> BoxFuture<'static, Result<Value, PluginError>> {
            match *self {}
        }

        fn complete_prompt(
            &self,
            _: u32,
            _: String,
            _: String,
            _: Arc<dyn CallSession>,
        ) -> BoxFuture<'static, Result<Vec<String>, PluginError>> {
            match *self {}
        }

        fn read_resource(
            &self,
            _: u32,
            _: String,
            _: Value,
            _: Arc<dyn CallSession>,
        ) -> BoxFuture<'static, Result<Vec<Value>, PluginError>> {
            match *self {}
        }
    }
}
