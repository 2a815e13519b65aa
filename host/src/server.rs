//! The MCP face of the host: rmcp's `ServerHandler`, written by hand over
//! the dynamic tool registry.
//!
//! One [`McpServer`] serves one client connection (stdio has one; HTTP
//! creates one per session). All of them share the [`HostState`]: the
//! registry, the settings and the list of clients that receive plugin
//! logs.

// `logging/setLevel` is deprecated in rmcp 3.9 (SEP-2577) yet still part
// of the protocol versions most clients speak.
#![allow(deprecated)]

use std::sync::{Arc, RwLock};

use rmcp::{
    ErrorData as McpError, RoleServer, ServerHandler,
    model::{
        CallToolRequestParams, CallToolResponse, CallToolResult, ClientCapabilities, CompleteRequestMethod,
        CompleteRequestParams, CompleteResult, Implementation, InitializeRequestParams, InitializeResult,
        ListPromptsRequestMethod, ListPromptsResult, ListResourceTemplatesRequestMethod, ListResourceTemplatesResult,
        ListResourcesRequestMethod, ListResourcesResult, ListToolsResult, LoggingLevel, PaginatedRequestParams,
        ServerCapabilities, ServerConfig, SetLevelRequestParams, Tool,
    },
    service::RequestContext,
};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use crate::{
    call,
    logging::{ClientLevel, ClientLogger, Clients},
    registry::Registry,
    settings::Settings,
};

/// The MCP extension id of content negotiation.
pub const CONTENT_NEGOTIATION: &str = "io.modelcontextprotocol/content-negotiation";

/// What every connection shares.
pub struct HostState {
    /// The configuration in force.
    pub settings: Settings,
    /// The tools served.
    pub registry: Registry,
    /// Clients that receive plugin log records.
    pub clients: Arc<Clients>,
    /// Fires when the host shuts down, cancelling every running call.
    pub shutdown: CancellationToken,
}

/// What one connection remembers between requests.
struct Session {
    level: ClientLevel,
    features: RwLock<Vec<String>>,
}

/// The handler of one client connection.
#[derive(Clone)]
pub struct McpServer {
    state: Arc<HostState>,
    session: Arc<Session>,
}

impl McpServer {
    /// A handler for a new connection.
    pub fn new(state: Arc<HostState>) -> Self {
        Self {
            state,
            session: Arc::new(Session {
                level: ClientLevel::new(LoggingLevel::Info),
                features: RwLock::new(Vec::new()),
            }),
        }
    }

    fn features_for(&self, context: &RequestContext<RoleServer>) -> Vec<String> {
        match context.meta.client_capabilities() {
            Some(capabilities) => negotiated_features(&capabilities),
            None => self.session.features.read().unwrap_or_else(|poisoned| poisoned.into_inner()).clone(),
        }
    }
}

/// Reads content-negotiation feature tags from the client's capabilities,
/// under `extensions` or `experimental`. Anything malformed reads as none.
pub fn negotiated_features(capabilities: &ClientCapabilities) -> Vec<String> {
    let Ok(capabilities) = serde_json::to_value(capabilities) else {
        return Vec::new();
    };
    ["extensions", "experimental"]
        .iter()
        .find_map(|section| capabilities.get(section)?.get(CONTENT_NEGOTIATION)?.get("features")?.as_array())
        .map(|tags| tags.iter().filter_map(Value::as_str).map(str::to_owned).collect())
        .unwrap_or_default()
}

impl ServerHandler for McpServer {
    fn get_info(&self) -> ServerConfig {
        let capabilities: ServerCapabilities = serde_json::from_value(json!({
            "tools": { "listChanged": false },
            "logging": {},
            "experimental": { CONTENT_NEGOTIATION: {} },
            "extensions": { CONTENT_NEGOTIATION: {} }
        }))
        .expect("a valid capabilities object");
        InitializeResult::new(capabilities)
            .with_server_info(Implementation::new(
                self.state.settings.host.server_name.clone(),
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions(
                "Tools are provided by plugins. Each tool's description says what it does; \
                 results carry prose in `content` and data in `structuredContent`.",
            )
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, McpError> {
        context.peer.set_peer_info(request.clone());
        *self.session.features.write().unwrap_or_else(|poisoned| poisoned.into_inner()) =
            negotiated_features(&request.capabilities);
        self.state.clients.add(ClientLogger::new(
            context.peer.clone(),
            self.session.level.clone(),
            tokio::runtime::Handle::current(),
        ));
        tracing::info!(
            client = %request.client_info.name,
            version = %request.client_info.version,
            protocol = %request.protocol_version,
            "client connected"
        );
        self.negotiate_initialize(&request)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        let tools: Vec<Tool> = self.state.registry.entries().iter().map(|entry| entry.tool.clone()).collect();
        Ok(ListToolsResult::with_all_items(tools))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.state.registry.get(name).map(|entry| entry.tool.clone())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let Some(entry) = self.state.registry.get(&request.name).cloned() else {
            return Err(McpError::invalid_params(
                format!("Unknown tool: '{}'. tools/list gives the tools this server has.", request.name),
                Some(json!({ "tool": request.name })),
            ));
        };
        let arguments = Value::Object(request.arguments.unwrap_or_default());
        if let Err(problems) = entry.check_arguments(&arguments) {
            return Ok(CallToolResponse::Complete(CallToolResult::error(vec![rmcp::model::ContentBlock::text(
                format!("Invalid arguments for tool '{}': {problems}", entry.name()),
            )])));
        }
        let level = match context.meta.log_level() {
            Some(level) => ClientLevel::new(level),
            None => self.session.level.clone(),
        };
        let features = self.features_for(&context);
        let result = call::run(&self.state, entry, arguments, features, level, context).await;
        Ok(CallToolResponse::Complete(result))
    }

    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        self.session.level.set(request.level);
        Ok(())
    }

    // Plugins provide tools only, so the host declares no prompts,
    // resources or completions and answers those methods as unknown
    // (rmcp's defaults would answer with empty lists).

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, McpError> {
        Err(McpError::method_not_found::<ListPromptsRequestMethod>())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        Err(McpError::method_not_found::<ListResourcesRequestMethod>())
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, McpError> {
        Err(McpError::method_not_found::<ListResourceTemplatesRequestMethod>())
    }

    async fn complete(
        &self,
        _request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, McpError> {
        Err(McpError::method_not_found::<CompleteRequestMethod>())
    }
}
