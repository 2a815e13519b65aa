//! What records into the host's instruments besides requests: sessions,
//! plugin loads and refusals.

use std::time::Instant;

use opentelemetry::KeyValue;

use super::instruments::{PLUGIN_LIBRARY, PLUGIN_NAME, PLUGIN_OUTCOME, active};
use crate::plugin::report::{PluginReport, PluginStatus};

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
