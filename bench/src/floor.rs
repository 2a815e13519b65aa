//! The floor: the least an MCP server can do to serve `echo` with the same SDK (rmcp 3.9.0), the
//! same transports and the same HTTP settings as the host, with the tool compiled in.
//!
//! The tool has the sample plugin's descriptor and answers as it does (the text as content, and
//! `{text, length}` as structured content), but nothing is checked against a schema, nothing
//! crosses a library boundary and no JSON text is produced in between: whatever the host spends
//! beyond this is the cost of being a plugin host.

use std::{net::SocketAddr, sync::Arc};

use axum::serve::ListenerExt;

use rmcp::{
    ErrorData as McpError, RoleServer, ServerHandler, ServiceExt,
    model::{
        CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation, InitializeResult,
        JsonObject, ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
    },
    service::RequestContext,
    transport::streamable_http_server::{
        StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
    },
};
use serde_json::json;
use tokio_util::sync::CancellationToken;

use crate::{Result, error};

/// The echo tool's descriptor: the sample plugin's, field for field.
pub fn echo_descriptor() -> serde_json::Value {
    json!({
        "name": "echo",
        "title": "Echo",
        "description": "Returns the text it is given, unchanged, with its length.",
        "inputSchema": {
            "type": "object",
            "properties": { "text": { "type": "string", "description": "The text to return." } },
            "required": ["text"],
            "additionalProperties": false
        },
        "outputSchema": {
            "type": "object",
            "properties": {
                "text": { "type": "string" },
                "length": { "type": "integer", "minimum": 0 }
            },
            "required": ["text", "length"]
        },
        "annotations": { "readOnlyHint": true, "idempotentHint": true, "openWorldHint": false }
    })
}

/// The echo logic, compiled in: the text back as content and as `{text, length}`.
pub fn echo(arguments: Option<&JsonObject>) -> Result<CallToolResult, McpError> {
    let Some(text) = arguments.and_then(|arguments| arguments.get("text")).and_then(|text| text.as_str()) else {
        return Err(McpError::invalid_params("echo needs a string argument 'text'", None));
    };
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    result.structured_content = Some(json!({ "text": text, "length": text.chars().count() }));
    Ok(result)
}

/// The floor's MCP handler.
#[derive(Clone)]
pub struct Floor {
    tool: Arc<Tool>,
}

impl Default for Floor {
    fn default() -> Self {
        Self::new()
    }
}

impl Floor {
    /// A handler serving `echo`.
    pub fn new() -> Self {
        let tool = serde_json::from_value(echo_descriptor()).expect("the echo descriptor is a valid MCP tool");
        Self { tool: Arc::new(tool) }
    }
}

impl ServerHandler for Floor {
    fn get_info(&self) -> ServerConfig {
        InitializeResult::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("mcp-floor", env!("CARGO_PKG_VERSION")))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(vec![(*self.tool).clone()]))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        (name == "echo").then(|| (*self.tool).clone())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        if request.name != "echo" {
            return Err(McpError::invalid_params(format!("Unknown tool: '{}'", request.name), None));
        }
        echo(request.arguments.as_ref()).map(CallToolResponse::Complete)
    }
}

/// Serves over stdio until the client closes stdin.
///
/// With `pipes`, stdin and stdout go through rmcp's `stdio_pipes()`: non-blocking pipes on
/// tokio's reactor. Without it, through `stdio()` (the host's choice today), where every read and
/// every write is handed to tokio's blocking thread pool and back, which costs two thread
/// wake-ups per message.
pub async fn serve_stdio(pipes: bool) -> Result<()> {
    let service = if pipes {
        Floor::new().serve(rmcp::transport::stdio_pipes()).await?
    } else {
        Floor::new().serve(rmcp::transport::stdio()).await?
    };
    service.waiting().await?;
    Ok(())
}

/// Serves streamable HTTP at `http://ADDRESS/mcp` (loopback only) until `shutdown` fires;
/// `on_ready` receives the bound address.
///
/// With `nodelay` every accepted socket gets `TCP_NODELAY`. Without it (axum's default, and the
/// host's today) an SSE answer, written as headers and then an event, waits in Nagle's algorithm
/// for the client's delayed ACK: about 40 ms a call on Linux loopback.
pub async fn serve_http(
    address: SocketAddr,
    nodelay: bool,
    shutdown: CancellationToken,
    on_ready: impl FnOnce(SocketAddr),
) -> Result<()> {
    if !address.ip().is_loopback() {
        return Err(error(format!("refusing to listen on {address}: the floor serves loopback only")));
    }
    let config = StreamableHttpServerConfig::default().with_cancellation_token(shutdown.child_token());
    let service = StreamableHttpService::new(|| Ok(Floor::new()), Arc::new(LocalSessionManager::default()), config);
    let router = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind(address).await?;
    on_ready(listener.local_addr()?);
    let stop = async move { shutdown.cancelled().await };
    if nodelay {
        let listener = listener.tap_io(|socket| {
            let _ = socket.set_nodelay(true);
        });
        axum::serve(listener, router).with_graceful_shutdown(stop).await?;
    } else {
        axum::serve(listener, router).with_graceful_shutdown(stop).await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn echo_answers_like_the_sample_plugin() {
        let arguments = json!({ "text": "héllo" });
        let result = echo(arguments.as_object()).expect("echo");
        let wire = serde_json::to_value(&result).expect("serializes");
        assert_eq!(wire["content"][0]["text"], "héllo");
        assert_eq!(wire["structuredContent"], json!({ "text": "héllo", "length": 5 }));
        assert!(echo(None).is_err());
    }

    #[test]
    fn descriptor_is_a_tool() {
        let floor = Floor::new();
        assert_eq!(floor.get_tool("echo").map(|tool| tool.name.to_string()), Some("echo".to_owned()));
        assert!(floor.get_tool("other").is_none());
    }
}
