//! The `Telemetry` section, resolved: where metrics and traces go.

use std::time::Duration;

use super::raw::RawTelemetry;

/// Where metrics and traces go (`Telemetry` section); see `crate::telemetry`.
#[derive(Debug, Clone, PartialEq)]
pub struct TelemetrySettings {
    /// The OTLP/HTTP collector's base URL (`Telemetry.OtlpEndpoint`, else the
    /// standard `OTEL_EXPORTER_OTLP_ENDPOINT`); `None` exports nothing.
    pub otlp_endpoint: Option<String>,
    /// How OTLP is encoded (`Telemetry.OtlpProtocol`, else the standard
    /// `OTEL_EXPORTER_OTLP_PROTOCOL`; default `http/protobuf`).
    pub otlp_protocol: OtlpProtocol,
    /// How often metrics are pushed, and the longest a finished span waits
    /// to be sent (at most 5 s) (`Telemetry.ExportIntervalSeconds`, default 60).
    pub export_interval: Duration,
}

/// The OTLP encodings the host speaks (both over HTTP).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum OtlpProtocol {
    /// `http/protobuf`, the OTLP default.
    #[default]
    HttpProtobuf,
    /// `http/json`.
    HttpJson,
}

impl TelemetrySettings {
    pub(super) fn from_raw(raw: RawTelemetry) -> Result<Self, String> {
        let otlp_endpoint = match raw.otlp_endpoint.map(|url| url.trim().trim_end_matches('/').to_owned()) {
            None => None,
            Some(url) if url.is_empty() => None,
            Some(url) if url.starts_with("http://") => Some(url),
            Some(url) => {
                return Err(format!(
                    "Telemetry.OtlpEndpoint must be an http:// URL such as http://127.0.0.1:4318, not \"{url}\" (the \
                     host speaks OTLP over plain HTTP; for TLS, export to a local collector that forwards)"
                ));
            }
        };
        let otlp_protocol = match raw.otlp_protocol.as_deref().map(str::trim) {
            None | Some("http/protobuf") => OtlpProtocol::HttpProtobuf,
            Some("http/json") => OtlpProtocol::HttpJson,
            Some(other) => {
                return Err(format!(
                    "Telemetry.OtlpProtocol must be \"http/protobuf\" or \"http/json\", not \"{other}\""
                ));
            }
        };
        let export_interval = match raw.export_interval_seconds {
            None => Duration::from_secs(60),
            Some(secs) if secs.is_finite() && secs >= 0.05 => Duration::from_secs_f64(secs),
            Some(secs) => {
                return Err(format!("Telemetry.ExportIntervalSeconds must be at least 0.05, not {secs}"));
            }
        };
        Ok(Self { otlp_endpoint, otlp_protocol, export_interval })
    }
}
