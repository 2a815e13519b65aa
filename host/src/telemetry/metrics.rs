//! The host's instruments and what records into them: call durations (by
//! tool, plugin and outcome), sessions, plugin loads and refusals.

use std::time::Instant;

use opentelemetry::{
    KeyValue,
    metrics::{Counter, Histogram, Meter, UpDownCounter},
};

use super::active;
use crate::plugin::discovery::{PluginReport, PluginStatus};

/// Bucket bounds in seconds, as the MCP semantic conventions advise for
/// `mcp.server.operation.duration` and `mcp.server.session.duration`.
const DURATION_BUCKETS: [f64; 14] = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0];

/// Attribute names of our own, where the conventions have none.
pub(super) const PLUGIN_NAME: &str = "mcp_plugin_host.plugin.name";
const PLUGIN_LIBRARY: &str = "mcp_plugin_host.plugin.library";
const PLUGIN_OUTCOME: &str = "mcp_plugin_host.plugin.outcome";

/// Every instrument the host records into.
pub(super) struct Instruments {
    /// `mcp.server.operation.duration`: one record a tool call.
    pub operation: Histogram<f64>,
    session: Histogram<f64>,
    sessions_active: UpDownCounter<i64>,
    plugin_loads: Counter<u64>,
}

impl Instruments {
    pub(super) fn new(meter: &Meter) -> Self {
        Self {
            operation: meter
                .f64_histogram("mcp.server.operation.duration")
                .with_unit("s")
                .with_description(
                    "How long MCP requests took, from receipt to answer (tools/call, by tool and outcome).",
                )
                .with_boundaries(DURATION_BUCKETS.to_vec())
                .build(),
            session: meter
                .f64_histogram("mcp.server.session.duration")
                .with_unit("s")
                .with_description("How long MCP sessions lasted, from initialize to their end.")
                .with_boundaries(DURATION_BUCKETS.to_vec())
                .build(),
            sessions_active: meter
                .i64_up_down_counter("mcp_plugin_host.sessions.active")
                .with_unit("{session}")
                .with_description("MCP sessions open now (begun with initialize).")
                .build(),
            plugin_loads: meter
                .u64_counter("mcp_plugin_host.plugin.loads")
                .with_unit("{load}")
                .with_description(
                    "Plugin libraries the host loaded (at start and on reload), by outcome: loaded, disabled, refused.",
                )
                .build(),
        }
    }
}

/// Counts a plugin library's load by how it fared; a refusal when a plugin
/// created on first use fails counts as another load, refused.
pub fn plugin_loaded(report: &PluginReport) {
    let Some(instruments) = active().and_then(|active| active.instruments.as_ref()) else { return };
    let outcome = match report.status {
        PluginStatus::Loaded => "loaded",
        PluginStatus::Disabled => "disabled",
        PluginStatus::Refused => "refused",
    };
    let mut attributes =
        vec![KeyValue::new(PLUGIN_LIBRARY, report.file.clone()), KeyValue::new(PLUGIN_OUTCOME, outcome)];
    if let Some(name) = &report.plugin {
        attributes.push(KeyValue::new(PLUGIN_NAME, name.clone()));
    }
    instruments.plugin_loads.add(1, &attributes);
}

/// One open session; its duration is recorded when it is dropped.
pub struct SessionRecord {
    started: Instant,
    attributes: [KeyValue; 2],
}

/// Starts counting a session (at `initialize`) of protocol `version`;
/// `None` when no metrics are read.
pub fn session_started(version: &str) -> Option<SessionRecord> {
    let active = active()?;
    let instruments = active.instruments.as_ref()?;
    let attributes = [
        KeyValue::new("network.transport", active.transport.as_str()),
        KeyValue::new("mcp.protocol.version", version.to_owned()),
    ];
    instruments.sessions_active.add(1, &attributes);
    Some(SessionRecord { started: Instant::now(), attributes })
}

impl Drop for SessionRecord {
    fn drop(&mut self) {
        let Some(instruments) = active().and_then(|active| active.instruments.as_ref()) else { return };
        instruments.sessions_active.add(-1, &self.attributes);
        instruments.session.record(self.started.elapsed().as_secs_f64(), &self.attributes);
    }
}
