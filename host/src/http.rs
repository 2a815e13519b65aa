//! The streamable HTTP transport: rmcp's service mounted at `/mcp` in an
//! axum router, with the host's guards in front of it.
//!
//! Guards, in order: a bearer token when one is configured (mandatory for a
//! non-loopback address), then rmcp's `Host` and `Origin` checks against
//! DNS rebinding. Loopback names and origins are always allowed; operators
//! add their own in `Http.AllowedHosts` and `Http.AllowedOrigins`.

use std::{net::SocketAddr, sync::Arc};

use axum::{
    Router,
    extract::Request,
    http::{StatusCode, header},
    middleware::{self, Next},
    response::{IntoResponse, Response},
    serve::ListenerExt,
};
use rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
};

use crate::{server::McpServer, settings::HttpSettings, state::HostState, telemetry};

/// Loopback names a `Host` header may carry.
const LOOPBACK_HOSTS: [&str; 3] = ["localhost", "127.0.0.1", "::1"];

/// Loopback origins a browser may send, on any port.
const LOOPBACK_ORIGINS: [&str; 6] = [
    "http://localhost:*",
    "http://127.0.0.1:*",
    "http://[::1]:*",
    "https://localhost:*",
    "https://127.0.0.1:*",
    "https://[::1]:*",
];

/// Why the HTTP transport would not start.
#[derive(Debug, thiserror::Error)]
pub enum HttpError {
    /// A public address without a token would serve anyone on the network.
    #[error(
        "refusing to listen on non-loopback address {0} without a bearer token: set Http.BearerToken \
         (or MCP_PLUGIN_HOST__HTTP__BEARERTOKEN)"
    )]
    Unprotected(SocketAddr),
    /// The socket could not be bound or served.
    #[error("HTTP server on {address}: {source}")]
    Io {
        /// The address.
        address: SocketAddr,
        /// The cause.
        source: std::io::Error,
    },
}

/// Serves MCP at `http://ADDRESS/mcp` until the host shuts down.
/// `on_ready` receives the bound address (useful with port 0).
pub async fn serve(
    state: Arc<HostState>,
    address: SocketAddr,
    on_ready: impl FnOnce(SocketAddr),
) -> Result<(), HttpError> {
    let current = state.current();
    let http = &current.settings.http;
    if !address.ip().is_loopback() && http.bearer_token.is_none() {
        return Err(HttpError::Unprotected(address));
    }
    let config = StreamableHttpServerConfig::default()
        .with_allowed_hosts(allowed_hosts(http))
        .with_allowed_origins(
            LOOPBACK_ORIGINS.iter().map(|origin| origin.to_string()).chain(http.allowed_origins.iter().cloned()),
        )
        .with_cancellation_token(state.shutdown.child_token());
    let factory_state = Arc::clone(&state);
    let service = StreamableHttpService::new(
        move || Ok(McpServer::new(Arc::clone(&factory_state))),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let operator = telemetry::endpoints::router(Arc::clone(&state), allowed_hosts(http));
    let mut router = Router::new().nest_service("/mcp", service).merge(operator);
    if let Some(token) = http.bearer_token.clone() {
        let expected: Arc<str> = Arc::from(format!("Bearer {token}"));
        router = router.layer(middleware::from_fn(move |request: Request, next: Next| {
            let expected = Arc::clone(&expected);
            async move { require_token(&expected, request, next).await }
        }));
    }
    let listener = tokio::net::TcpListener::bind(address).await.map_err(|source| HttpError::Io { address, source })?;
    let bound = listener.local_addr().map_err(|source| HttpError::Io { address, source })?;
    tracing::info!("serving MCP over streamable HTTP at http://{bound}/mcp");
    on_ready(bound);
    // An SSE answer is written as headers, then an event: without TCP_NODELAY the event waits in
    // Nagle's algorithm for the client's delayed ACK, about 40 ms per call on Linux.
    let listener = listener.tap_io(|socket| {
        if let Err(error) = socket.set_nodelay(true) {
            tracing::debug!("TCP_NODELAY could not be set: {error}");
        }
    });
    let shutdown = state.shutdown.clone();
    axum::serve(listener, router)
        .with_graceful_shutdown(async move { shutdown.cancelled().await })
        .await
        .map_err(|source| HttpError::Io { address: bound, source })
}

/// The `Host` header values accepted: loopback names and the operator's.
fn allowed_hosts(http: &HttpSettings) -> Vec<String> {
    LOOPBACK_HOSTS.iter().map(|host| host.to_string()).chain(http.allowed_hosts.iter().cloned()).collect()
}

/// Rejects a request without the configured bearer token (401), comparing
/// in constant time.
async fn require_token(expected: &str, request: Request, next: Next) -> Response {
    let presented =
        request.headers().get(header::AUTHORIZATION).and_then(|value| value.to_str().ok()).unwrap_or_default();
    if constant_time_eq(presented.as_bytes(), expected.as_bytes()) {
        next.run(request).await
    } else {
        (StatusCode::UNAUTHORIZED, [(header::WWW_AUTHENTICATE, "Bearer")], "a valid bearer token is required")
            .into_response()
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
