//! Where log records go: the host's `tracing` output on stderr (and a log
//! file, when configured), as text or JSON lines, and, for records a plugin
//! logs through a call's context, the calling client as
//! `notifications/message`.
//!
//! The default filter is quiet: `info` shows the host's own records and its
//! plugins', not the libraries' (rmcp logs every session start and
//! notification at `info`); naming a library in the filter brings its
//! records back.
//!
//! Records a plugin logs through its `PluginContext` logger (its constructor,
//! background work) are the operator's: they go to the host's log only. With
//! lazy creation a constructor runs during some client's first call, and
//! that client has no business reading the plugin's start-up records.
//!
//! A plugin's records are re-emitted under the target `plugin::<name>`.
//! tracing's macros need a target known at compile time, so this module
//! builds one callsite per plugin and level at run time and registers it
//! like any other; `RUST_LOG=plugin::sample=debug` then filters a plugin's
//! records the same way it filters the host's own modules.

// rmcp 3.9 marks MCP logging deprecated (SEP-2577) but clients of the
// protocol versions before 2026-07-28 still use it, so this module does too.
#![allow(deprecated)]

use std::{
    collections::HashMap,
    path::Path,
    sync::{Arc, Mutex, OnceLock, RwLock},
};

use rmcp::model::{LoggingLevel, LoggingMessageNotificationParam};
use tracing::{Level, Subscriber};
use tracing_core::{
    Callsite, Event, Interest, Kind, Metadata,
    callsite::{self, Identifier},
    field::{FieldSet, Value},
};
use tracing_subscriber::{
    EnvFilter, Layer, Registry,
    filter::LevelFilter,
    fmt::{
        MakeWriter,
        writer::{BoxMakeWriter, MakeWriterExt},
    },
    layer::SubscriberExt,
    util::SubscriberInitExt,
};

use crate::settings::{HostSettings, LogFormat};

/// Starts the host's log output: stderr (stdout carries JSON-RPC only) and,
/// when `Host.LogFile` names one, that file too, as text or JSON lines
/// (`Host.LogFormat`). `RUST_LOG`, when set, wins over the configured filter
/// and is taken as written; the configured one is made quiet ([`quiet`]).
pub fn init(host: &HostSettings) -> Result<(), String> {
    let writer = match &host.log_file {
        None => BoxMakeWriter::new(std::io::stderr),
        Some(path) => BoxMakeWriter::new(std::io::stderr.and(open_log_file(path)?)),
    };
    subscriber(host, writer)?.try_init().map_err(|error| error.to_string())
}

/// The host's subscriber (its filter and format) writing to `writer`; the
/// benchmarks measure a call's record with it.
pub fn subscriber(
    host: &HostSettings,
    writer: impl for<'a> MakeWriter<'a> + Send + Sync + 'static,
) -> Result<impl Subscriber + Send + Sync + 'static, String> {
    let filter = match std::env::var("RUST_LOG") {
        Ok(from_env) if !from_env.trim().is_empty() => EnvFilter::try_new(&from_env)
            .map_err(|error| format!("RUST_LOG '{from_env}' is not a valid filter: {error}"))?,
        _ => EnvFilter::try_new(quiet(&host.log_level))
            .map_err(|error| format!("Host.LogLevel '{}' is not a valid filter: {error}", host.log_level))?,
    };
    let layer = tracing_subscriber::fmt::layer().with_writer(writer).with_ansi(false);
    // Each record of a call carries the call's fields (its span), as top-level keys in JSON.
    let layer: Box<dyn Layer<Registry> + Send + Sync> = match host.log_format {
        LogFormat::Text => Box::new(layer),
        LogFormat::Json => Box::new(layer.json().flatten_event(true).with_current_span(true).with_span_list(false)),
    };
    Ok(tracing_subscriber::registry().with(layer).with(filter))
}

/// The host's own targets: its modules and its plugins' records.
const HOST_TARGETS: [&str; 2] = ["mcp_plugin_host", "plugin"];

/// Makes a configured filter quiet: a bare level (`info`) applies to the
/// host's own records and its plugins'; libraries (rmcp, hyper, the
/// OpenTelemetry exporter) stay at `warn` unless the filter names them
/// (`info,rmcp=info` brings rmcp's lines back).
pub fn quiet(configured: &str) -> String {
    let directives: Vec<&str> = configured.split(',').map(str::trim).filter(|part| !part.is_empty()).collect();
    let mut quieted = Vec::with_capacity(directives.len() + HOST_TARGETS.len());
    for directive in &directives {
        let Ok(level) = directive.parse::<LevelFilter>() else {
            quieted.push((*directive).to_owned());
            continue;
        };
        quieted.push(level.min(LevelFilter::WARN).to_string().to_ascii_lowercase());
        for target in HOST_TARGETS {
            let named = directives.iter().any(|other| other.split(['=', '[']).next() == Some(target));
            if !named {
                quieted.push(format!("{target}={level}").to_ascii_lowercase());
            }
        }
    }
    quieted.join(",")
}

/// Opens (creating it and its folder) the log file for appending: one
/// write a record, so lines of concurrent records never interleave, and a
/// rotation by copy-and-truncate loses nothing.
fn open_log_file(path: &Path) -> Result<std::fs::File, String> {
    if let Some(folder) = path.parent().filter(|folder| !folder.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder)
            .map_err(|error| format!("Host.LogFile {}: its folder cannot be created: {error}", path.display()))?;
    }
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|error| format!("Host.LogFile {} cannot be opened: {error}", path.display()))
}

/// A callsite made at run time for one plugin target and level.
struct DynamicCallsite {
    metadata: OnceLock<Metadata<'static>>,
}

impl Callsite for DynamicCallsite {
    fn set_interest(&self, _interest: Interest) {}

    fn metadata(&self) -> &Metadata<'_> {
        self.metadata.get().expect("metadata is set before the callsite is registered")
    }
}

static FIELDS: &[&str] = &["message"];

fn callsite_for(target: &str, level: Level) -> &'static DynamicCallsite {
    static CALLSITES: OnceLock<Mutex<HashMap<(String, Level), &'static DynamicCallsite>>> = OnceLock::new();
    let mut callsites = CALLSITES.get_or_init(Default::default).lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(callsite) = callsites.get(&(target.to_owned(), level)) {
        return callsite;
    }
    // Leaked on purpose: a callsite must live as long as the subscriber,
    // and there are at most five per plugin.
    let callsite: &'static DynamicCallsite = Box::leak(Box::new(DynamicCallsite { metadata: OnceLock::new() }));
    let target: &'static str = Box::leak(target.to_owned().into_boxed_str());
    let metadata = Metadata::new(
        "plugin log",
        target,
        level,
        None,
        None,
        None,
        FieldSet::new(FIELDS, Identifier(callsite)),
        Kind::EVENT,
    );
    // The cell was created just above and is set exactly once.
    let _ = callsite.metadata.set(metadata);
    callsite::register(callsite);
    callsites.insert((target.to_owned(), level), callsite);
    callsite
}

/// Emits `message` at `level` under `target` through the current subscriber.
pub fn emit(target: &str, level: Level, message: &str) {
    if tracing::level_filters::LevelFilter::current() < level {
        return;
    }
    let callsite = callsite_for(target, level);
    let metadata = callsite.metadata();
    tracing_core::dispatcher::get_default(|dispatch| {
        if dispatch.enabled(metadata) {
            let fields = metadata.fields();
            let field = fields.field("message").expect("the message field is declared");
            let values = [(&field, Some(&message as &dyn Value))];
            dispatch.event(&Event::new(metadata, &fields.value_set(&values)));
        }
    });
}

/// Maps a tracing level onto MCP's syslog-style levels.
pub fn mcp_level(level: Level) -> LoggingLevel {
    match level {
        Level::TRACE | Level::DEBUG => LoggingLevel::Debug,
        Level::INFO => LoggingLevel::Info,
        Level::WARN => LoggingLevel::Warning,
        Level::ERROR => LoggingLevel::Error,
    }
}

/// MCP levels in increasing severity, for comparisons.
fn severity(level: LoggingLevel) -> u8 {
    match level {
        LoggingLevel::Debug => 0,
        LoggingLevel::Info => 1,
        LoggingLevel::Notice => 2,
        LoggingLevel::Warning => 3,
        LoggingLevel::Error => 4,
        LoggingLevel::Critical => 5,
        LoggingLevel::Alert => 6,
        LoggingLevel::Emergency => 7,
    }
}

/// The lowest MCP level a client wants, as `logging/setLevel` set it.
#[derive(Clone)]
pub struct ClientLevel(Arc<RwLock<LoggingLevel>>);

impl ClientLevel {
    /// A client that receives `initial` and above until it says otherwise.
    pub fn new(initial: LoggingLevel) -> Self {
        Self(Arc::new(RwLock::new(initial)))
    }

    /// Applies `logging/setLevel`.
    pub fn set(&self, level: LoggingLevel) {
        *self.0.write().unwrap_or_else(|poisoned| poisoned.into_inner()) = level;
    }

    /// The record to send for a tracing-level record, if the client wants it.
    pub fn message(&self, level: Level, logger: &str, message: &str) -> Option<LoggingMessageNotificationParam> {
        let level = mcp_level(level);
        let minimum = *self.0.read().unwrap_or_else(|poisoned| poisoned.into_inner());
        (severity(level) >= severity(minimum)).then(|| {
            LoggingMessageNotificationParam::new(level, serde_json::Value::String(message.to_owned()))
                .with_logger(logger.to_owned())
        })
    }
}

/// The tracing target of plugin `name`'s records.
pub fn plugin_target(name: &str) -> String {
    format!("plugin::{name}")
}

/// The lifetime log of one plugin: the host's tracing output under the
/// plugin's target.
#[derive(Clone)]
pub struct PluginLog {
    target: Arc<str>,
}

impl PluginLog {
    /// The log of plugin `name`.
    pub fn new(name: &str) -> Self {
        Self { target: Arc::from(plugin_target(name)) }
    }

    /// Emits a record from the plugin's lifetime logger.
    pub fn emit(&self, level: Level, message: &str) {
        emit(&self.target, level, message);
    }
}

#[cfg(test)]
mod tests {
    use super::quiet;

    #[test]
    fn a_bare_level_applies_to_the_host_and_its_plugins_and_libraries_stay_at_warn() {
        assert_eq!(quiet("info"), "warn,mcp_plugin_host=info,plugin=info");
        assert_eq!(quiet("debug,rmcp=info"), "warn,mcp_plugin_host=debug,plugin=debug,rmcp=info");
        assert_eq!(quiet("error"), "error,mcp_plugin_host=error,plugin=error");
    }

    #[test]
    fn targets_the_filter_names_keep_their_level() {
        assert_eq!(quiet("info,plugin=debug"), "warn,mcp_plugin_host=info,plugin=debug");
        assert_eq!(quiet("rmcp=debug"), "rmcp=debug");
        assert_eq!(quiet("info,plugin::sample=trace"), "warn,mcp_plugin_host=info,plugin=info,plugin::sample=trace");
    }
}
