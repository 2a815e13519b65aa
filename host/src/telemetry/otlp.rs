//! The OTLP/HTTP export: metrics pushed by a periodic reader, spans by a
//! batch processor, each on a thread of its own, so a call never waits for
//! the network. A collector that cannot be reached costs one WARN line (and
//! an INFO line when export works again), never a failed call.

use std::{
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::Duration,
};

use opentelemetry_otlp::{Protocol, WithExportConfig};
use opentelemetry_sdk::{
    Resource,
    error::OTelSdkResult,
    metrics::{PeriodicReader, Temporality, data::ResourceMetrics, exporter::PushMetricExporter},
    trace::{BatchConfigBuilder, BatchSpanProcessor, SdkTracerProvider, SpanData, SpanExporter},
};

use crate::settings::{OtlpProtocol, TelemetrySettings};

/// The longest a finished span waits in the batch before it is sent.
const MAX_SPAN_DELAY: Duration = Duration::from_secs(5);

/// The exporters of both signals, built and checked at start.
pub(super) struct Exporters {
    metrics: Watched<opentelemetry_otlp::MetricExporter>,
    spans: Watched<opentelemetry_otlp::SpanExporter>,
    interval: Duration,
}

impl Exporters {
    /// Exporters to the collector at `endpoint` (a base URL: `/v1/metrics`
    /// and `/v1/traces` are appended, as for `OTEL_EXPORTER_OTLP_ENDPOINT`).
    pub(super) fn new(endpoint: &str, settings: &TelemetrySettings) -> Result<Self, String> {
        let protocol = match settings.otlp_protocol {
            OtlpProtocol::HttpProtobuf => Protocol::HttpBinary,
            OtlpProtocol::HttpJson => Protocol::HttpJson,
        };
        let failed = |error: opentelemetry_otlp::ExporterBuildError| {
            format!("the OTLP exporter for {endpoint} could not be built: {error}")
        };
        let metrics = opentelemetry_otlp::MetricExporter::builder()
            .with_http()
            .with_endpoint(format!("{endpoint}/v1/metrics"))
            .with_protocol(protocol)
            .build()
            .map_err(failed)?;
        let spans = opentelemetry_otlp::SpanExporter::builder()
            .with_http()
            .with_endpoint(format!("{endpoint}/v1/traces"))
            .with_protocol(protocol)
            .build()
            .map_err(failed)?;
        let health = Arc::new(Health { endpoint: endpoint.to_owned(), failing: AtomicBool::new(false) });
        Ok(Self {
            metrics: Watched { inner: metrics, health: Arc::clone(&health) },
            spans: Watched { inner: spans, health },
            interval: settings.export_interval,
        })
    }

    /// The reader that pushes every metric each interval, and the provider
    /// whose spans are sent in batches.
    pub(super) fn install(
        self,
        resource: Resource,
    ) -> (PeriodicReader<Watched<opentelemetry_otlp::MetricExporter>>, SdkTracerProvider) {
        let reader = PeriodicReader::builder(self.metrics).with_interval(self.interval).build();
        let batch = BatchConfigBuilder::default().with_scheduled_delay(self.interval.min(MAX_SPAN_DELAY)).build();
        let processor = BatchSpanProcessor::builder(self.spans).with_batch_config(batch).build();
        (reader, SdkTracerProvider::builder().with_resource(resource).with_span_processor(processor).build())
    }
}

/// Whether the collector answers, shared by both signals, so that a
/// collector that is down is reported once, not at every export.
#[derive(Debug)]
struct Health {
    endpoint: String,
    failing: AtomicBool,
}

impl Health {
    fn note(&self, signal: &str, result: &OTelSdkResult) {
        match result {
            Err(error) if !self.failing.swap(true, Ordering::Relaxed) => tracing::warn!(
                "{signal} could not be exported to the OTLP collector at {} ({error}); calls go on, and export \
                 resumes when the collector answers",
                self.endpoint
            ),
            Ok(()) if self.failing.swap(false, Ordering::Relaxed) => {
                tracing::info!("the OTLP collector at {} answers again", self.endpoint)
            }
            _ => {}
        }
    }
}

/// An exporter whose failures are reported through [`Health`].
#[derive(Debug)]
pub(super) struct Watched<E> {
    inner: E,
    health: Arc<Health>,
}

impl PushMetricExporter for Watched<opentelemetry_otlp::MetricExporter> {
    async fn export(&self, metrics: &ResourceMetrics) -> OTelSdkResult {
        let result = self.inner.export(metrics).await;
        self.health.note("metrics", &result);
        result
    }

    fn force_flush(&self) -> OTelSdkResult {
        self.inner.force_flush()
    }

    fn shutdown_with_timeout(&self, timeout: Duration) -> OTelSdkResult {
        self.inner.shutdown_with_timeout(timeout)
    }

    fn temporality(&self) -> Temporality {
        self.inner.temporality()
    }
}

impl SpanExporter for Watched<opentelemetry_otlp::SpanExporter> {
    async fn export(&self, batch: Vec<SpanData>) -> OTelSdkResult {
        let result = self.inner.export(batch).await;
        self.health.note("traces", &result);
        result
    }

    fn shutdown_with_timeout(&self, timeout: Duration) -> OTelSdkResult {
        self.inner.shutdown_with_timeout(timeout)
    }

    fn force_flush(&self) -> OTelSdkResult {
        self.inner.force_flush()
    }

    fn set_resource(&mut self, resource: &Resource) {
        self.inner.set_resource(resource);
    }
}
