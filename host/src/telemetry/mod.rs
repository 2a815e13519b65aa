//! What the host tells operators about its work, besides its log: metrics
//! and traces (OpenTelemetry), and the health endpoints of the HTTP transport.
//!
//! One set of instruments ([`metrics`]) is read by two readers, so nothing is
//! counted twice: a Prometheus exporter behind `/metrics` on the HTTP
//! transport ([`endpoints`]), and a periodic OTLP push when
//! `Telemetry.OtlpEndpoint` (or `OTEL_EXPORTER_OTLP_ENDPOINT`) is set
//! ([`otlp`]), which also sends one span per tool call. Names follow the
//! OpenTelemetry semantic conventions for MCP where they have one
//! (`mcp.server.operation.duration`, `mcp.server.session.duration`, spans
//! `tools/call {tool}`); the rest live under `mcp_plugin_host.*`
//! (docs/operating.md lists every name).
//!
//! Telemetry is process-wide, like the tracing subscriber: [`init`] installs
//! it once for a serving host; before that (and in the `plugins` and `check`
//! commands) every hook here costs one atomic load and records nothing.
//! Exporting runs on the SDK's own threads and never holds up a call.

pub mod call;
pub mod endpoints;
mod instruments;
mod metrics;
mod otlp;

use std::time::Duration;

use opentelemetry::{InstrumentationScope, KeyValue, metrics::MeterProvider as _, trace::TracerProvider as _};
use opentelemetry_sdk::{Resource, metrics::SdkMeterProvider, trace::SdkTracerProvider};

pub use call::CallRecord;
pub use instruments::Transport;
pub use metrics::{SessionRecord, plugin_loaded, session_started};

use instruments::{Active, Instruments};

use crate::settings::Settings;

/// How long shutdown waits for the last export before giving up on it.
const SHUTDOWN_PATIENCE: Duration = Duration::from_secs(5);

/// The exporters of a serving host, to be flushed when it stops.
#[must_use = "shut telemetry down when the host stops, or the last export is lost"]
pub struct Telemetry {
    meters: Option<SdkMeterProvider>,
    tracers: Option<SdkTracerProvider>,
}

/// Installs metrics (read by `/metrics` over HTTP, pushed over OTLP when
/// configured) and, with OTLP, traces. Call once, before plugins load, so
/// their loads are counted; a second call changes nothing.
pub fn init(settings: &Settings, transport: Transport) -> Result<Telemetry, String> {
    let scope = InstrumentationScope::builder(env!("CARGO_PKG_NAME")).with_version(env!("CARGO_PKG_VERSION")).build();
    let resource = resource(&settings.host.server_name);
    let otlp = match &settings.telemetry.otlp_endpoint {
        Some(endpoint) => Some(otlp::Exporters::new(endpoint, &settings.telemetry)?),
        None => None,
    };
    let (otlp_reader, tracers) = match otlp {
        Some(otlp) => {
            let (reader, tracers) = otlp.install(resource.clone());
            (Some(reader), Some(tracers))
        }
        None => (None, None),
    };
    let prometheus = (transport == Transport::Http).then(prometheus::Registry::new);
    let mut meters = None;
    if otlp_reader.is_some() || prometheus.is_some() {
        let mut builder = SdkMeterProvider::builder().with_resource(resource);
        if let Some(registry) = &prometheus {
            let reader = opentelemetry_prometheus::exporter()
                .with_registry(registry.clone())
                .scope_info_enabled(false)
                .build()
                .map_err(|error| format!("the Prometheus reader could not start: {error}"))?;
            builder = builder.with_reader(reader);
        }
        if let Some(reader) = otlp_reader {
            builder = builder.with_reader(reader);
        }
        meters = Some(builder.build());
    }
    let instruments = meters.as_ref().map(|provider| Instruments::new(&provider.meter_with_scope(scope.clone())));
    let tracer = tracers.as_ref().map(|provider| provider.tracer_with_scope(scope));
    instruments::install(Active { transport, instruments, prometheus, tracer });
    Ok(Telemetry { meters, tracers })
}

/// The resource every metric and span carries: `service.name` is
/// `OTEL_SERVICE_NAME` when set, else the server's name; `service.version`
/// the host's; `OTEL_RESOURCE_ATTRIBUTES` adds the operator's own.
fn resource(server_name: &str) -> Resource {
    let mut builder = Resource::builder();
    if std::env::var_os("OTEL_SERVICE_NAME").is_none_or(|name| name.is_empty()) {
        builder = builder.with_service_name(server_name.to_owned());
    }
    builder.with_attribute(KeyValue::new("service.version", env!("CARGO_PKG_VERSION"))).build()
}

impl Telemetry {
    /// Sends what is still buffered (spans, a last round of metrics), waiting
    /// at most five seconds: a collector that is down does not hold up exit.
    pub async fn shutdown(self) {
        if self.meters.is_none() && self.tracers.is_none() {
            return;
        }
        let (done, finished) = tokio::sync::oneshot::channel();
        // The SDK's shutdown blocks until its threads have exported: off the runtime.
        std::thread::spawn(move || {
            if let Some(tracers) = self.tracers {
                let _ = tracers.shutdown_with_timeout(SHUTDOWN_PATIENCE);
            }
            if let Some(meters) = self.meters {
                let _ = meters.shutdown_with_timeout(SHUTDOWN_PATIENCE);
            }
            let _ = done.send(());
        });
        if tokio::time::timeout(SHUTDOWN_PATIENCE, finished).await.is_err() {
            tracing::warn!("telemetry was not flushed within {SHUTDOWN_PATIENCE:?}; the last export is lost");
        }
    }
}
