//! The streamable HTTP transport: rmcp's service mounted at `/mcp` in an
//! axum router, with the host's guards in front of it.
//!
//! Layers, outermost first: CORS for browser clients (the preflight is
//! answered here, before any token is asked for), a bearer token when one is
//! configured (mandatory for a non-loopback address), then rmcp's `Host` and
//! `Origin` checks against DNS rebinding. Loopback names and origins are
//! always allowed; operators add their own in `Http.AllowedHosts` and
//! `Http.AllowedOrigins`, and the same origins get CORS answers.

use std::{net::SocketAddr, sync::Arc, time::Duration};

use axum::{
    Router,
    extract::Request,
    http::{HeaderName, HeaderValue, Method, StatusCode, Uri, header},
    middleware::{self, Next},
    response::{IntoResponse, Response},
    serve::ListenerExt,
};
use rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
};
use tower_http::cors::{AllowOrigin, CorsLayer};

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

/// What a 401 tells the client to send (RFC 6750's challenge, with a
/// description a person can act on).
pub const CHALLENGE: &str = "Bearer realm=\"mcp-plugin-host\", error=\"invalid_token\", \
     error_description=\"send the header 'Authorization: Bearer <token>' with the token of Http.BearerToken or \
     Http.BearerTokenFile\"";

/// Request headers a browser client may send: the MCP transport's own, the token and the body's type.
const CORS_REQUEST_HEADERS: [&str; 6] =
    ["authorization", "content-type", "accept", "mcp-session-id", "mcp-protocol-version", "last-event-id"];

/// Response headers a browser client may read: the session id it must send back, and the challenge.
const CORS_EXPOSED_HEADERS: [&str; 3] = ["mcp-session-id", "mcp-protocol-version", "www-authenticate"];

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
    let mut router =
        Router::new().nest_service("/mcp", service).merge(operator).layer(middleware::from_fn(session_end_status));
    if let Some(token) = http.bearer_token.clone() {
        let expected: Arc<str> = Arc::from(token);
        router = router.layer(middleware::from_fn(move |request: Request, next: Next| {
            let expected = Arc::clone(&expected);
            async move { require_token(&expected, request, next).await }
        }));
    }
    let router = router.layer(cors(&http.allowed_origins));
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

/// Answers a `DELETE` that ended a session `204 No Content`. rmcp answers `202 Accepted`, which
/// the official Python SDK logs as `Session termination failed: 202` at the end of every session
/// (it takes 200 and 204, and 405 for a server that does not end sessions); the TypeScript SDK
/// and rmcp's own client take any 2xx.
async fn session_end_status(request: Request, next: Next) -> Response {
    let deleting = request.method() == Method::DELETE;
    let response = next.run(request).await;
    if !deleting || response.status() != StatusCode::ACCEPTED {
        return response;
    }
    let (mut parts, _) = response.into_parts();
    parts.status = StatusCode::NO_CONTENT;
    parts.headers.remove(header::CONTENT_TYPE);
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, axum::body::Body::empty())
}

/// The `Host` header values accepted: loopback names and the operator's.
fn allowed_hosts(http: &HttpSettings) -> Vec<String> {
    LOOPBACK_HOSTS.iter().map(|host| host.to_string()).chain(http.allowed_hosts.iter().cloned()).collect()
}

/// Rejects a request without the configured bearer token (401, with a
/// challenge that says what to send), comparing the token in constant time.
/// The scheme is matched without regard to case (RFC 9110 §11.1).
async fn require_token(expected: &str, request: Request, next: Next) -> Response {
    let presented = request.headers().get(header::AUTHORIZATION).and_then(|value| value.to_str().ok());
    if presented.and_then(bearer_token).is_some_and(|token| constant_time_eq(token.as_bytes(), expected.as_bytes())) {
        next.run(request).await
    } else {
        let message = "a valid bearer token is required: send the header 'Authorization: Bearer <token>'";
        (StatusCode::UNAUTHORIZED, [(header::WWW_AUTHENTICATE, CHALLENGE)], message).into_response()
    }
}

/// The token of an `Authorization: Bearer <token>` value, whatever the case of the scheme.
fn bearer_token(value: &str) -> Option<&str> {
    let (scheme, token) = value.trim().split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim_start()).filter(|token| !token.is_empty())
}

/// CORS answers for the loopback origins and `Http.AllowedOrigins`: what a
/// browser client needs to send MCP requests (with a token) and to read the
/// session id. tower-http's layer answers the preflight itself; an origin
/// that is not allowed gets no CORS headers, and rmcp refuses its requests.
fn cors(allowed_origins: &[String]) -> CorsLayer {
    let mut rules: Vec<OriginRule> = LOOPBACK_ORIGINS.iter().filter_map(|entry| OriginRule::parse(entry)).collect();
    for entry in allowed_origins {
        match OriginRule::parse(entry) {
            Some(rule) => rules.push(rule),
            None => tracing::warn!(
                "Http.AllowedOrigins entry '{entry}' is not an origin such as https://app.example.com:443; ignored"
            ),
        }
    }
    let headers = |names: &[&'static str]| names.iter().map(|name| HeaderName::from_static(name)).collect::<Vec<_>>();
    CorsLayer::new()
        .allow_origin(AllowOrigin::predicate(move |origin: &HeaderValue, _| {
            origin.to_str().is_ok_and(|origin| rules.iter().any(|rule| rule.matches(origin)))
        }))
        .allow_methods([Method::GET, Method::POST, Method::DELETE])
        .allow_headers(headers(&CORS_REQUEST_HEADERS))
        .expose_headers(headers(&CORS_EXPOSED_HEADERS))
        .max_age(Duration::from_secs(600))
}

/// One allowed origin, matched as rmcp matches `Origin` headers: scheme and
/// host exactly (without regard to case), the port exactly (an origin
/// without one has its scheme's default), any port for `:*` or for an entry
/// without a port.
#[derive(Debug, Clone, PartialEq)]
struct OriginRule {
    scheme: String,
    host: String,
    port: Option<u16>,
}

impl OriginRule {
    fn parse(entry: &str) -> Option<Self> {
        let entry = entry.trim();
        let (base, any_port) = entry.strip_suffix(":*").map_or((entry, false), |base| (base, true));
        let (scheme, host, port) = origin_parts(base)?;
        Some(Self { scheme, host, port: if any_port { None } else { port } })
    }

    fn matches(&self, origin: &str) -> bool {
        let Some((scheme, host, port)) = origin_parts(origin) else { return false };
        let default_port = |scheme: &str| match scheme {
            "http" => Some(80),
            "https" => Some(443),
            _ => None,
        };
        scheme == self.scheme
            && host == self.host
            && self.port.is_none_or(|allowed| port.or_else(|| default_port(&scheme)) == Some(allowed))
    }
}

/// Scheme, host (both lowercase) and port of an origin such as `https://app.example.com:8443`.
fn origin_parts(origin: &str) -> Option<(String, String, Option<u16>)> {
    let uri: Uri = origin.trim().parse().ok()?;
    let authority = uri.authority()?;
    Some((uri.scheme_str()?.to_ascii_lowercase(), authority.host().to_ascii_lowercase(), authority.port_u16()))
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scheme_is_matched_without_regard_to_case() {
        assert_eq!(bearer_token("Bearer abc"), Some("abc"));
        assert_eq!(bearer_token("bearer abc"), Some("abc"));
        assert_eq!(bearer_token("BEARER   abc"), Some("abc"));
        assert_eq!(bearer_token("Basic abc"), None);
        assert_eq!(bearer_token("Bearer"), None);
        assert_eq!(bearer_token("Bearer "), None);
    }

    #[test]
    fn origins_match_by_scheme_host_and_port() {
        let exact = OriginRule::parse("https://App.example.com:443").unwrap();
        assert!(exact.matches("https://app.example.com"));
        assert!(exact.matches("https://app.example.com:443"));
        assert!(!exact.matches("https://app.example.com:8443"));
        assert!(!exact.matches("http://app.example.com:443"));
        assert!(!exact.matches("https://evil.example.com"));
        let any = OriginRule::parse("http://localhost:*").unwrap();
        assert!(any.matches("http://localhost:6274"));
        assert!(!any.matches("http://localhost.evil.com:6274"));
        assert!(OriginRule::parse("http://[::1]:*").unwrap().matches("http://[::1]:3000"));
        assert_eq!(OriginRule::parse("not an origin"), None);
    }
}
