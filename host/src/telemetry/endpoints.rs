//! The operator's endpoints of the HTTP transport: `/metrics` (Prometheus
//! text), `/healthz` (the process answers) and `/readyz` (every enabled
//! plugin is served, read from what serves now, so a reload that refuses a
//! plugin makes the host unready and one that fixes it ready again).
//!
//! They sit behind the guards of `/mcp`: the bearer token when one is
//! configured (the transport's layer covers every route), and, here, the
//! same `Host` allow-list that rmcp applies to `/mcp` against DNS rebinding.

use std::sync::Arc;

use axum::{
    Router,
    extract::{Request, State},
    http::{StatusCode, header, uri::Authority},
    middleware::{self, Next},
    response::{IntoResponse, Response},
    routing::get,
};
use serde_json::json;

use super::instruments::active;
use crate::{
    plugin::report::PluginStatus,
    state::{Generation, HostState},
};

/// The three routes, guarded by the `Host` allow-list `allowed_hosts`
/// (names, or `name:port`; compared without regard to case).
pub fn router(state: Arc<HostState>, allowed_hosts: Vec<String>) -> Router {
    let allowed: Arc<[Allowed]> = allowed_hosts.iter().filter_map(|host| Allowed::parse(host)).collect();
    Router::new()
        .route("/metrics", get(metrics))
        .route("/healthz", get(|| async { json_response(StatusCode::OK, &json!({ "status": "ok" })) }))
        .route("/readyz", get(readyz))
        .with_state(state)
        .layer(middleware::from_fn(move |request: Request, next: Next| {
            let allowed = Arc::clone(&allowed);
            async move { check_host(&allowed, request, next).await }
        }))
}

/// One entry of the allow-list.
struct Allowed {
    host: String,
    port: Option<u16>,
}

impl Allowed {
    fn parse(text: &str) -> Option<Self> {
        let text = text.trim();
        if text.is_empty() {
            return None;
        }
        Some(match Authority::try_from(text) {
            Ok(authority) => Self { host: normalize(authority.host()), port: authority.port_u16() },
            Err(_) => Self { host: normalize(text), port: None },
        })
    }
}

fn normalize(host: &str) -> String {
    host.trim_matches(['[', ']']).to_ascii_lowercase()
}

/// Refuses a request whose `Host` (or HTTP/2 authority) is not allowed: 403,
/// as rmcp answers on `/mcp`; 400 when there is none or it is malformed.
async fn check_host(allowed: &[Allowed], request: Request, next: Next) -> Response {
    let named = match request.headers().get(header::HOST) {
        Some(value) => value.to_str().ok().and_then(|text| Authority::try_from(text).ok()),
        None => request.uri().authority().cloned(),
    };
    let Some(authority) = named else {
        return (StatusCode::BAD_REQUEST, "Bad Request: missing or malformed Host header").into_response();
    };
    let host = normalize(authority.host());
    let port = authority.port_u16();
    if allowed.iter().any(|entry| entry.host == host && entry.port.is_none_or(|allowed| Some(allowed) == port)) {
        next.run(request).await
    } else {
        tracing::warn!(host = %authority, "refused a request with a foreign Host header (possible DNS rebinding)");
        (StatusCode::FORBIDDEN, "Forbidden: Host header is not allowed").into_response()
    }
}

/// The instruments' current values in the Prometheus text format.
async fn metrics() -> Response {
    let Some(registry) = active().and_then(|active| active.prometheus.as_ref()) else {
        return (StatusCode::NOT_FOUND, "metrics are not collected in this process").into_response();
    };
    let mut body = String::new();
    match prometheus::TextEncoder::new().encode_utf8(&registry.gather(), &mut body) {
        Ok(()) => ([(header::CONTENT_TYPE, prometheus::TEXT_FORMAT)], body).into_response(),
        Err(error) => {
            (StatusCode::INTERNAL_SERVER_ERROR, format!("metrics could not be encoded: {error}")).into_response()
        }
    }
}

/// 200 when ready, else 503; the body says why not and lists every library.
async fn readyz(State(state): State<Arc<HostState>>) -> Response {
    let generation = state.current();
    let reasons = unready_reasons(&generation, state.shutdown.is_cancelled());
    let plugins: Vec<_> = generation
        .reports
        .iter()
        .map(|report| json!({ "file": report.file, "plugin": report.plugin, "status": report.status }))
        .collect();
    let (status, word) =
        if reasons.is_empty() { (StatusCode::OK, "ready") } else { (StatusCode::SERVICE_UNAVAILABLE, "unready") };
    json_response(status, &json!({ "status": word, "reasons": reasons, "plugins": plugins }))
}

/// Why the host is not ready to serve: it is shutting down, a library that
/// configuration did not disable is refused (withdrawn plugins included), or
/// nothing at all is served. Empty when ready.
pub fn unready_reasons(generation: &Generation, shutting_down: bool) -> Vec<String> {
    let mut reasons = Vec::new();
    if shutting_down {
        reasons.push("the host is shutting down".to_owned());
    }
    for report in generation.reports.iter().filter(|report| report.status == PluginStatus::Refused) {
        let name = report.plugin.as_deref().map(|name| format!(" (plugin {name})")).unwrap_or_default();
        reasons.push(format!("{}{name} is refused: {}", report.file, report.problems.join("; ")));
    }
    if !generation.reports.iter().any(|report| report.status == PluginStatus::Loaded) {
        let mut reason = format!("no plugin is served from {}", generation.settings.plugins.directory.display());
        if !generation.problems.is_empty() {
            reason = format!("{reason} ({})", generation.problems.join("; "));
        }
        reasons.push(reason);
    }
    reasons
}

fn json_response(status: StatusCode, body: &serde_json::Value) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], body.to_string()).into_response()
}
