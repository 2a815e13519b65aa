//! The record of one request that runs plugin code (a tool call, a prompt,
//! a resource read, a completion): a tracing span (every log record made
//! during it carries its item, plugin, request id and session), one line
//! when it ends (outcome, duration, the error code a tool's result carries:
//! INFO, or WARN when the limit stopped it or the plugin broke, so each
//! fault is one line), its duration in `mcp.server.operation.duration`, and,
//! when traces are exported, a server span `{method} {item}` whose parent is
//! the trace the client names in `_meta.traceparent`.
//!
//! Outcomes, which are also the `error.type` of a failed request: `ok`,
//! `tool_error` (a tool result with `isError`, the host's own argument and
//! output checks included), `invalid_params`, `not_found`, `plugin_error`
//! (the plugin's own refusal of a prompt, read or completion), `fault` (the
//! plugin broke: a panic, a crash, a malformed answer, threads held),
//! `timeout`, `cancelled` (by the client, or dropped), `shutdown`.

use std::{
    sync::atomic::{AtomicU8, Ordering},
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

use super::instruments::{Active, PLUGIN_NAME, active};
use crate::{plugin::RequestKind, registry::ToolEntry};

/// How a request ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Outcome {
    /// The plugin answered with what was asked (a tool: a result that is not an error).
    Ok = 1,
    /// A tool's result is an error (`isError`).
    ToolError,
    /// The plugin refused the request's arguments.
    InvalidParams,
    /// The plugin has nothing at the address asked.
    NotFound,
    /// The plugin could not serve the request, in its own words.
    PluginError,
    /// The plugin broke or could not be reached.
    Fault,
    /// The request ran out of time and was stopped.
    Timeout,
    /// The client cancelled the request, or it was dropped unanswered.
    Cancelled,
    /// The host stopped the request because it is shutting down.
    Shutdown,
}

impl Outcome {
    const ALL: [Outcome; 9] = [
        Outcome::Ok,
        Outcome::ToolError,
        Outcome::InvalidParams,
        Outcome::NotFound,
        Outcome::PluginError,
        Outcome::Fault,
        Outcome::Timeout,
        Outcome::Cancelled,
        Outcome::Shutdown,
    ];

    /// The name in logs, and the `error.type` of a failure.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::ToolError => "tool_error",
            Outcome::InvalidParams => "invalid_params",
            Outcome::NotFound => "not_found",
            Outcome::PluginError => "plugin_error",
            Outcome::Fault => "fault",
            Outcome::Timeout => "timeout",
            Outcome::Cancelled => "cancelled",
            Outcome::Shutdown => "shutdown",
        }
    }

    fn from_u8(value: u8) -> Option<Self> {
        Self::ALL.into_iter().find(|outcome| *outcome as u8 == value)
    }

    /// Whether the line that ends the record is a warning: the limit stopped it, or the plugin broke.
    fn is_fault(self) -> bool {
        matches!(self, Outcome::Timeout | Outcome::Fault)
    }
}

/// What is recorded: the kind of request, the item it names and the plugin that serves it.
#[derive(Debug, Clone)]
pub struct Operation {
    /// The kind of request.
    pub kind: RequestKind,
    /// The tool's or prompt's served name, or the URI read.
    pub item: String,
    /// What the metrics name it by: the item, or for a read the resource's declared URI or
    /// template (a URI of a template comes from the client, and would make series without end).
    pub series: String,
    /// The plugin's name.
    pub plugin: String,
}

impl Operation {
    /// A call of the tool `entry`.
    pub fn tool(entry: &ToolEntry) -> Self {
        let name = entry.name().to_owned();
        Self { kind: RequestKind::Tool, series: name.clone(), item: name, plugin: entry.plugin.name().to_owned() }
    }
}

/// What a record reads of the request that made it.
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

/// One request being recorded; see the module documentation.
pub struct CallRecord {
    span: tracing::Span,
    started: Instant,
    operation: Operation,
    protocol: Option<&'static str>,
    /// Set when the host stops the request, before its (error) answer is made.
    stop: AtomicU8,
    trace: Option<opentelemetry_sdk::trace::Span>,
    ended: bool,
}

impl CallRecord {
    /// Starts the record of a call of the tool `entry` made by `request`.
    pub fn start(entry: &ToolEntry, request: &Request) -> Self {
        Self::of(Operation::tool(entry), request)
    }

    /// Starts the record of `operation` made by `request`.
    pub fn of(operation: Operation, request: &Request) -> Self {
        let (item, plugin, id) = (&operation.item, &operation.plugin, request.id);
        let span = match operation.kind {
            RequestKind::Tool => {
                tracing::info_span!("call", tool = %item, plugin = %plugin, request_id = %id, session = tracing::field::Empty)
            }
            RequestKind::Prompt => {
                tracing::info_span!("prompt", prompt = %item, plugin = %plugin, request_id = %id, session = tracing::field::Empty)
            }
            RequestKind::Resource => {
                tracing::info_span!("read", uri = %item, plugin = %plugin, request_id = %id, session = tracing::field::Empty)
            }
            RequestKind::Completion => tracing::info_span!(
                "complete",
                prompt = %item,
                plugin = %plugin,
                request_id = %id,
                session = tracing::field::Empty
            ),
        };
        if let Some(session) = request.session {
            span.record("session", tracing::field::display(session));
        }
        let trace = active().and_then(|active| server_span(active, &operation, request));
        Self {
            span,
            started: Instant::now(),
            operation,
            protocol: request.protocol,
            stop: AtomicU8::new(0),
            trace,
            ended: false,
        }
    }

    /// The span the request runs in.
    pub fn span(&self) -> &tracing::Span {
        &self.span
    }

    /// Notes that the host stopped the request (timeout, cancel, shutdown); the
    /// answer it then makes is recorded under this outcome.
    pub fn stopped(&self, outcome: Outcome) {
        self.stop.store(outcome as u8, Ordering::Relaxed);
    }

    /// Ends the record of a tool call with its result.
    pub fn finish(mut self, result: &CallToolResult) {
        let outcome = Outcome::from_u8(self.stop.load(Ordering::Relaxed)).unwrap_or(if result.is_error == Some(true) {
            Outcome::ToolError
        } else {
            Outcome::Ok
        });
        let code = if outcome == Outcome::Ok { None } else { error_code(result) };
        self.end(outcome, code);
    }

    /// Ends the record with `outcome`, unless the host stopped the request (then with that).
    pub fn finish_as(mut self, outcome: Outcome) {
        let outcome = Outcome::from_u8(self.stop.load(Ordering::Relaxed)).unwrap_or(outcome);
        self.end(outcome, None);
    }

    fn end(&mut self, outcome: Outcome, error_code: Option<String>) {
        self.ended = true;
        let elapsed = self.started.elapsed();
        let duration_ms = elapsed.as_micros() as f64 / 1000.0;
        let message = if self.operation.kind == RequestKind::Tool { "call finished" } else { "request finished" };
        if outcome.is_fault() {
            tracing::warn!(parent: &self.span, outcome = %outcome.as_str(), duration_ms, error_code, "{message}");
        } else {
            tracing::info!(parent: &self.span, outcome = %outcome.as_str(), duration_ms, error_code, "{message}");
        }
        let Some(active) = active() else { return };
        let failure = (outcome != Outcome::Ok).then(|| KeyValue::new("error.type", outcome.as_str()));
        if let Some(instruments) = &active.instruments {
            let mut attributes = item_attributes(&self.operation, &self.operation.series);
            attributes.push(KeyValue::new("network.transport", active.transport.as_str()));
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
    /// A request dropped before it finished (its client went away) ends as cancelled.
    fn drop(&mut self) {
        if !self.ended {
            self.end(Outcome::Cancelled, None);
        }
    }
}

/// The attributes that say what was asked of which plugin: the method, the item (named `item`,
/// the served name or, for metrics of a read, the declared URI) and the plugin.
fn item_attributes(operation: &Operation, item: &str) -> Vec<KeyValue> {
    let method = KeyValue::new("mcp.method.name", operation.kind.method());
    let plugin = KeyValue::new(PLUGIN_NAME, operation.plugin.clone());
    match operation.kind {
        RequestKind::Tool => vec![
            method,
            KeyValue::new("gen_ai.operation.name", "execute_tool"),
            KeyValue::new("gen_ai.tool.name", item.to_owned()),
            plugin,
        ],
        RequestKind::Prompt | RequestKind::Completion => {
            vec![method, KeyValue::new("gen_ai.prompt.name", item.to_owned()), plugin]
        }
        RequestKind::Resource => vec![method, KeyValue::new("mcp.resource.uri", item.to_owned()), plugin],
    }
}

/// The server span of a request, child of the client's trace when its `_meta`
/// carries a W3C `traceparent`.
fn server_span(active: &Active, operation: &Operation, request: &Request) -> Option<opentelemetry_sdk::trace::Span> {
    let tracer = active.tracer.as_ref()?;
    let parent = TraceContextPropagator::new().extract_with_context(&Context::new(), &MetaCarrier(request.meta));
    let mut attributes = item_attributes(operation, &operation.item);
    attributes.push(KeyValue::new("jsonrpc.request.id", request.id.to_string()));
    attributes.push(KeyValue::new("network.transport", active.transport.as_str()));
    attributes.extend(request.protocol.map(|version| KeyValue::new("mcp.protocol.version", version)));
    attributes.extend(request.session.map(|session| KeyValue::new("mcp.session.id", session.to_owned())));
    // A URI comes from the client: it is an attribute, not part of the span's name.
    let name = match operation.kind {
        RequestKind::Resource => operation.kind.method().to_owned(),
        _ => format!("{} {}", operation.kind.method(), operation.item),
    };
    Some(
        tracer
            .span_builder(name)
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
