//! Where log records go: the host's `tracing` output on stderr, and, for
//! records a plugin logs through a call's context, the calling client as
//! `notifications/message`.
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
    sync::{Arc, Mutex, OnceLock, RwLock},
};

use rmcp::model::{LoggingLevel, LoggingMessageNotificationParam};
use tracing::Level;
use tracing_core::{
    Callsite, Event, Interest, Kind, Metadata,
    callsite::{self, Identifier},
    field::{FieldSet, Value},
};
use tracing_subscriber::EnvFilter;

/// Starts the host's log output on stderr (stdout carries JSON-RPC only).
/// `RUST_LOG`, when set, wins over the configured filter.
pub fn init(configured: &str) -> Result<(), String> {
    let filter = match std::env::var("RUST_LOG") {
        Ok(from_env) if !from_env.trim().is_empty() => EnvFilter::try_new(&from_env)
            .map_err(|error| format!("RUST_LOG '{from_env}' is not a valid filter: {error}"))?,
        _ => EnvFilter::try_new(configured)
            .map_err(|error| format!("Host.LogLevel '{configured}' is not a valid filter: {error}"))?,
    };
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_env_filter(filter)
        .try_init()
        .map_err(|error| error.to_string())
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
