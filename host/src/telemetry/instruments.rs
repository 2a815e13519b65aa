//! The host's instruments, and what `super::init` installed for the hooks
//! to record into: the transport served, the instruments (when a reader
//! reads them), the Prometheus registry and the tracer.

use std::sync::OnceLock;

use opentelemetry::metrics::{Counter, Histogram, Meter, UpDownCounter};
use opentelemetry_sdk::trace::SdkTracer;

/// The transport a serving host speaks, as the semantic conventions name it
/// (`network.transport`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    /// stdio: `pipe`.
    Stdio,
    /// Streamable HTTP: `tcp`.
    Http,
}

impl Transport {
    /// The `network.transport` value.
    pub fn as_str(self) -> &'static str {
        match self {
            Transport::Stdio => "pipe",
            Transport::Http => "tcp",
        }
    }
}

/// What `super::init` installed, for the hooks to use.
pub(super) struct Active {
    pub(super) transport: Transport,
    /// The instruments, when some reader reads them.
    pub(super) instruments: Option<Instruments>,
    /// The registry `/metrics` encodes (HTTP transport only).
    pub(super) prometheus: Option<prometheus::Registry>,
    /// Makes the span of each call, when traces are exported.
    pub(super) tracer: Option<SdkTracer>,
}

static ACTIVE: OnceLock<Active> = OnceLock::new();

/// What is installed, once it is.
pub(super) fn active() -> Option<&'static Active> {
    ACTIVE.get()
}

/// Installs `active` for the process; a second call changes nothing.
pub(super) fn install(active: Active) {
    let _ = ACTIVE.set(active);
}

/// Bucket bounds in seconds, as the MCP semantic conventions advise for
/// `mcp.server.operation.duration` and `mcp.server.session.duration`.
const DURATION_BUCKETS: [f64; 14] = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0];

/// Attribute names of our own, where the conventions have none.
pub(super) const PLUGIN_NAME: &str = "mcp_plugin_host.plugin.name";
pub(super) const PLUGIN_LIBRARY: &str = "mcp_plugin_host.plugin.library";
pub(super) const PLUGIN_OUTCOME: &str = "mcp_plugin_host.plugin.outcome";

/// Every instrument the host records into.
pub(super) struct Instruments {
    /// `mcp.server.operation.duration`: one record a tool call.
    pub operation: Histogram<f64>,
    pub(super) session: Histogram<f64>,
    pub(super) sessions_active: UpDownCounter<i64>,
    pub(super) plugin_loads: Counter<u64>,
}

impl Instruments {
    pub(super) fn new(meter: &Meter) -> Self {
        Self {
            operation: meter
                .f64_histogram("mcp.server.operation.duration")
                .with_unit("s")
                .with_description(
                    "How long MCP requests took, from receipt to answer (tools/call, prompts/get, resources/read, completion/complete, by item and outcome).",
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
