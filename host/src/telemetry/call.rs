//! The record of one tool call: a tracing span (every log record made during
//! the call carries its tool, plugin, request id and session), one INFO line
//! when it ends (outcome, duration, the error code its result carries), its
//! duration in `mcp.server.operation.duration`, and, when traces are
//! exported, a server span `tools/call {tool}` whose parent is the trace the
//! client names in `_meta.traceparent`.
//!
//! Outcomes, which are also the `error.type` of a failed call: `ok`,
//! `tool_error` (a result with `isError`, the host's own argument and
//! output checks included), `timeout`, `cancelled` (by the client, or the
//! call was dropped), `shutdown`.

use std::{
    sync::{
        Arc,
        atomic::{AtomicU8, Ordering},
    },
    time::Instant,
};

use opentelemetry::{
    Context, KeyValue,
    propagation::{Extractor, TextMapPropagator},
    trace::{Span as _, SpanKind, Status, Tracer as _},
};
use opentelemetry_sdk::propagation::TraceContextPropagator;
use rmcp::{
    RoleServer,
    model::{CallToolResult, JsonObject, ProtocolVersion, RequestId},
    service::RequestContext,
};
use serde_json::Value;

use super::{Active, active, metrics::PLUGIN_NAME};
use crate::registry::ToolEntry;

/// How a call ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Outcome {
    /// The tool answered with a result that is not an error.
    Ok = 1,
    /// The result is an error (`isError`).
    ToolError,
    /// The call ran out of time and was stopped.
    Timeout,
    /// The client cancelled the call, or it was dropped unanswered.
    Cancelled,
    /// The host stopped the call because it is shutting down.
    Shutdown,
}

impl Outcome {
    /// The name in logs, and the `error.type` of a failure.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::ToolError => "tool_error",
            Outcome::Timeout => "timeout",
            Outcome::Cancelled => "cancelled",
            Outcome::Shutdown => "shutdown",
        }
    }

    fn from_u8(value: u8) -> Option<Self> {
        [Outcome::Ok, Outcome::ToolError, Outcome::Timeout, Outcome::Cancelled, Outcome::Shutdown]
            .into_iter()
            .find(|outcome| *outcome as u8 == value)
    }
}

/// What a call's record reads of the request that made it.
pub struct Request<'a> {
    /// The JSON-RPC id.
    pub id: &'a RequestId,
    /// The request's `_meta`, which may carry the client's trace context.
    pub meta: &'a JsonObject,
    /// The `Mcp-Session-Id` (streamable HTTP only).
    pub session: Option<&'a str>,
    /// The protocol version in force, when known.
    pub protocol: Option<&'static str>,
}

impl<'a> Request<'a> {
    /// Reads it from rmcp's context of the request.
    pub fn of(context: &'a RequestContext<RoleServer>) -> Self {
        Self {
            id: &context.id,
            meta: &context.meta,
            session: context
                .extensions
                .get::<axum::http::request::Parts>()
                .and_then(|parts| parts.headers.get("mcp-session-id")?.to_str().ok()),
            protocol: context.protocol_version().and_then(|version| known_version(&version)),
        }
    }
}

/// One call being recorded; see the module documentation.
pub struct CallRecord {
    span: tracing::Span,
    started: Instant,
    entry: Arc<ToolEntry>,
    protocol: Option<&'static str>,
    /// Set when the host stops the call, before its (error) result is made.
    stop: AtomicU8,
    trace: Option<opentelemetry_sdk::trace::Span>,
    ended: bool,
}

impl CallRecord {
    /// Starts the record of a call of `entry` made by `request`.
    pub fn start(entry: &Arc<ToolEntry>, request: &Request) -> Self {
        let span = tracing::info_span!(
            "call",
            tool = %entry.name(),
            plugin = %entry.plugin.name(),
            request_id = %request.id,
            session = tracing::field::Empty,
        );
        if let Some(session) = request.session {
            span.record("session", tracing::field::display(session));
        }
        let trace = active().and_then(|active| server_span(active, entry, request));
        Self {
            span,
            started: Instant::now(),
            entry: Arc::clone(entry),
            protocol: request.protocol,
            stop: AtomicU8::new(0),
            trace,
            ended: false,
        }
    }

    /// The span the call runs in.
    pub fn span(&self) -> &tracing::Span {
        &self.span
    }

    /// Notes that the host stopped the call (timeout, cancel, shutdown); the
    /// result it then makes is recorded under this outcome.
    pub fn stopped(&self, outcome: Outcome) {
        self.stop.store(outcome as u8, Ordering::Relaxed);
    }

    /// Ends the record with the call's result.
    pub fn finish(mut self, result: &CallToolResult) {
        let outcome = Outcome::from_u8(self.stop.load(Ordering::Relaxed)).unwrap_or(if result.is_error == Some(true) {
            Outcome::ToolError
        } else {
            Outcome::Ok
        });
        let code = if outcome == Outcome::Ok { None } else { error_code(result) };
        self.end(outcome, code);
    }

    fn end(&mut self, outcome: Outcome, error_code: Option<String>) {
        self.ended = true;
        let elapsed = self.started.elapsed();
        tracing::info!(
            parent: &self.span,
            outcome = %outcome.as_str(),
            duration_ms = elapsed.as_micros() as f64 / 1000.0,
            error_code,
            "call finished"
        );
        let Some(active) = active() else { return };
        let failure = (outcome != Outcome::Ok).then(|| KeyValue::new("error.type", outcome.as_str()));
        if let Some(instruments) = &active.instruments {
            let mut attributes = vec![
                KeyValue::new("mcp.method.name", "tools/call"),
                KeyValue::new("gen_ai.operation.name", "execute_tool"),
                KeyValue::new("gen_ai.tool.name", self.entry.name().to_owned()),
                KeyValue::new(PLUGIN_NAME, self.entry.plugin.name().to_owned()),
                KeyValue::new("network.transport", active.transport.as_str()),
            ];
            attributes.extend(self.protocol.map(|version| KeyValue::new("mcp.protocol.version", version)));
            attributes.extend(failure.clone());
            instruments.operation.record(elapsed.as_secs_f64(), &attributes);
        }
        if let Some(mut trace) = self.trace.take() {
            if let Some(failure) = failure {
                trace.set_attribute(failure);
                if let Some(code) = error_code {
                    trace.set_attribute(KeyValue::new("mcp_plugin_host.tool.error_code", code));
                }
                trace.set_status(Status::error(outcome.as_str()));
            }
            trace.end();
        }
    }
}

impl Drop for CallRecord {
    /// A call dropped before it finished (its client went away) ends as cancelled.
    fn drop(&mut self) {
        if !self.ended {
            self.end(Outcome::Cancelled, None);
        }
    }
}

/// The server span of a call, child of the client's trace when its `_meta`
/// carries a W3C `traceparent`.
fn server_span(active: &Active, entry: &ToolEntry, request: &Request) -> Option<opentelemetry_sdk::trace::Span> {
    let tracer = active.tracer.as_ref()?;
    let parent = TraceContextPropagator::new().extract_with_context(&Context::new(), &MetaCarrier(request.meta));
    let mut attributes = vec![
        KeyValue::new("mcp.method.name", "tools/call"),
        KeyValue::new("gen_ai.operation.name", "execute_tool"),
        KeyValue::new("gen_ai.tool.name", entry.name().to_owned()),
        KeyValue::new(PLUGIN_NAME, entry.plugin.name().to_owned()),
        KeyValue::new("jsonrpc.request.id", request.id.to_string()),
        KeyValue::new("network.transport", active.transport.as_str()),
    ];
    attributes.extend(request.protocol.map(|version| KeyValue::new("mcp.protocol.version", version)));
    attributes.extend(request.session.map(|session| KeyValue::new("mcp.session.id", session.to_owned())));
    Some(
        tracer
            .span_builder(format!("tools/call {}", entry.name()))
            .with_kind(SpanKind::Server)
            .with_attributes(attributes)
            .start_with_context(tracer, &parent),
    )
}

/// A request's `_meta`, read as a carrier of W3C trace context (SEP-414:
/// `traceparent` and `tracestate`, unprefixed).
struct MetaCarrier<'a>(&'a JsonObject);

impl Extractor for MetaCarrier<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key)?.as_str()
    }

    fn keys(&self) -> Vec<&str> {
        self.0.keys().map(String::as_str).collect()
    }
}

/// A known protocol version as a static string (no allocation per call).
fn known_version(version: &ProtocolVersion) -> Option<&'static str> {
    ProtocolVersion::KNOWN_VERSIONS.iter().map(ProtocolVersion::as_str).find(|known| *known == version.as_str())
}

/// The error code an error result carries in its structured content: a
/// `code`, or the `code` of the first of its `errors` (the dotnet plugins'
/// shape).
fn error_code(result: &CallToolResult) -> Option<String> {
    let data = result.structured_content.as_ref()?;
    let code = data.get("code").or_else(|| data.get("errors")?.get(0)?.get("code"))?;
    match code {
        Value::String(text) => Some(text.clone()),
        Value::Number(number) => Some(number.to_string()),
        _ => None,
    }
}
