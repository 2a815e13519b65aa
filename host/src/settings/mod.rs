//! The host's configuration: `appsettings.json`, overridden by environment
//! variables, overridden by command-line flags.
//!
//! Split by phase and section: [`raw`] is the file's shape (the single source
//! of the keys there are, from which `crate::config_schema` derives the
//! schema), [`load`] reads the file and the environment and resolves them
//! into one section each ([`host`], [`http`], [`plugins`], [`surface`],
//! [`telemetry`]); [`keys`] and [`paths`] are what several of them need.
//! This module only names what the rest of the host uses; nothing here
//! imports it back.

mod host;
mod http;
mod keys;
mod load;
mod paths;
mod plugins;
pub(crate) mod raw;
mod surface;
mod telemetry;

pub use host::{DEFAULT_MAX_MESSAGE_BYTES, HostSettings, LogFormat};
pub use http::HttpSettings;
pub use keys::get_ci;
pub use load::{ENV_PREFIX, Overrides, Settings, SettingsError};
pub use paths::{copies_dir, default_cache_file, default_lock_directory, project_dirs, serving_dir};
pub use plugins::{PluginSettings, WorkerLimits};
pub use raw::{Isolation, RawWorker};
pub use surface::{
    AnnotationOverrides, ItemFilter, Patterns, PrefixMode, PrefixSettings, SurfaceSettings, ToolOverride,
};
pub use telemetry::{OtlpProtocol, TelemetrySettings};
