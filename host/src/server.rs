//! The MCP face of the host: rmcp's `ServerHandler`, written by hand over
//! the dynamic tool registry.
//!
//! One [`McpServer`] serves one client connection (stdio has one; HTTP
//! creates one per session). All of them share the [`HostState`]; each
//! request reads the generation served when it arrives. When a reload
//! changes a list, every session hears of it: sessions that began with
//! `initialize` through a `notifications/*/list_changed`, sessions of
//! protocol 2026-07-28 on their `subscriptions/listen` streams. When a
//! plugin announces a resource updated, each session that subscribed to its
//! URI (`resources/subscribe`, or the stream's `resourceSubscriptions`) gets
//! `notifications/resources/updated`.

// `logging/setLevel` is deprecated in rmcp 3.9 (SEP-2577) yet still part
// of the protocol versions most clients speak.
#![allow(deprecated)]

use std::{
    collections::HashSet,
    sync::{
        Arc, Mutex, OnceLock, RwLock,
        atomic::{AtomicBool, Ordering},
    },
};

use rmcp::{
    ErrorData as McpError, Peer, RoleServer, ServerHandler,
    model::{
        CallToolRequestParams, CallToolResponse, ClientCapabilities, CompleteRequestParams, CompleteResult,
        CompletionInfo, ErrorCode, GetPromptRequestParams, GetPromptResponse, Implementation, InitializeRequestParams,
        InitializeResult, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult,
        LoggingLevel, PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse, Reference,
        ResourceUpdatedNotificationParam, ServerCapabilities, ServerConfig, SetLevelRequestParams,
        SubscribeRequestParams, SubscriptionFilter, Tool, UnsubscribeRequestParams,
    },
    service::{NotificationContext, RequestContext, SubscriptionContext},
};
use serde_json::{Value, json};
use tokio::sync::broadcast;
use tokio_util::sync::{CancellationToken, DropGuard};

use crate::{
    call,
    logging::ClientLevel,
    registry::{Registry, ResourceAt, ResourceEntry},
    roots::{self, SessionRoots},
    state::{HostState, ListChanges},
    telemetry::{self, SessionRecord},
};

/// The MCP extension id of content negotiation.
pub const CONTENT_NEGOTIATION: &str = "io.modelcontextprotocol/content-negotiation";

/// What one connection remembers between requests.
struct Session {
    level: ClientLevel,
    features: RwLock<Vec<String>>,
    /// Whether `initialize` declared prompts and resources: the session may
    /// use them (and hears of their changes) even if a reload empties them.
    declared_prompts: AtomicBool,
    declared_resources: AtomicBool,
    /// The resource URIs the session subscribed to (`resources/subscribe`).
    subscribed: Mutex<HashSet<String>>,
    /// Stops the session's announcer of list changes when the session ends.
    announcer: Mutex<Option<DropGuard>>,
    /// The session's metrics, from `initialize` until the session ends.
    telemetry: OnceLock<Option<SessionRecord>>,
    /// The client's roots, asked on the first call that needs them.
    roots: Arc<SessionRoots>,
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
                declared_prompts: AtomicBool::new(false),
                declared_resources: AtomicBool::new(false),
                subscribed: Mutex::new(HashSet::new()),
                announcer: Mutex::new(None),
                telemetry: OnceLock::new(),
                roots: Arc::default(),
            }),
        }
    }

    /// The session's roots, for a transport that notes their changes as it reads them.
    pub fn roots(&self) -> Arc<SessionRoots> {
        Arc::clone(&self.session.roots)
    }

    /// What a request of `context` tells the plugin of its client: its feature tags and log
    /// level (from the request's `_meta` when it carries them, else the session's) and roots.
    fn client(&self, context: &RequestContext<RoleServer>) -> call::Client {
        let features = match context.meta.client_capabilities() {
            Some(capabilities) => negotiated_features(&capabilities),
            None => self.session.features.read().unwrap_or_else(|poisoned| poisoned.into_inner()).clone(),
        };
        let level = match context.meta.log_level() {
            Some(level) => ClientLevel::new(level),
            None => self.session.level.clone(),
        };
        call::Client { features, level, roots: Arc::clone(&self.session.roots) }
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

impl Session {
    fn subscriptions(&self) -> std::sync::MutexGuard<'_, HashSet<String>> {
        self.subscribed.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// What an announcer or a subscription stream tells its session next.
enum News {
    Lists(ListChanges),
    Updated(String),
    Over,
}

/// The next list change or resource update; `Over` when the host stops announcing.
async fn next_news(changes: &mut broadcast::Receiver<ListChanges>, updates: &mut broadcast::Receiver<String>) -> News {
    tokio::select! {
        received = changes.recv() => match received {
            Ok(changed) => News::Lists(changed),
            // Announcements were missed: every list may have changed.
            Err(broadcast::error::RecvError::Lagged(_)) => News::Lists(ListChanges::ALL),
            Err(broadcast::error::RecvError::Closed) => News::Over,
        },
        received = updates.recv() => match received {
            Ok(uri) => News::Updated(uri),
            // Updates were missed; which ones is unknown, and a list change says "read again" to all.
            Err(broadcast::error::RecvError::Lagged(_)) => {
                News::Lists(ListChanges { tools: false, prompts: false, resources: true })
            }
            Err(broadcast::error::RecvError::Closed) => News::Over,
        },
    }
}

/// Tells one session (begun with `initialize`) of list changes and of updates of the resources
/// it subscribed to, until it ends or the host shuts down (as a `subscriptions/listen` stream).
fn announce(peer: Peer<RoleServer>, state: &HostState, session: Arc<Session>, stop: CancellationToken) {
    let (mut changes, mut updates) = (state.subscribe(), state.updates.subscribe());
    let (prompts, resources) =
        (session.declared_prompts.load(Ordering::Relaxed), session.declared_resources.load(Ordering::Relaxed));
    let shutdown = state.shutdown.clone();
    tokio::spawn(async move {
        loop {
            let news = tokio::select! {
                _ = stop.cancelled() => return,
                _ = shutdown.cancelled() => return,
                news = next_news(&mut changes, &mut updates) => news,
            };
            let changed = match news {
                News::Over => return,
                News::Lists(changed) => changed,
                News::Updated(uri) => {
                    if session.subscriptions().contains(&uri)
                        && peer.notify_resource_updated(ResourceUpdatedNotificationParam::new(uri)).await.is_err()
                    {
                        return;
                    }
                    continue;
                }
            };
            let sent = async {
                if changed.tools {
                    peer.notify_tool_list_changed().await?;
                }
                if changed.prompts && prompts {
                    peer.notify_prompt_list_changed().await?;
                }
                if changed.resources && resources {
                    peer.notify_resource_list_changed().await?;
                }
                Ok::<(), rmcp::service::ServiceError>(())
            };
            if sent.await.is_err() {
                // The session's transport is gone.
                return;
            }
        }
    });
}

impl ServerHandler for McpServer {
    fn get_info(&self) -> ServerConfig {
        let current = self.state.current();
        let mut capabilities = json!({
            "tools": { "listChanged": true },
            "logging": {},
            "experimental": { CONTENT_NEGOTIATION: {} },
            "extensions": { CONTENT_NEGOTIATION: {} }
        });
        if !current.registry.prompts().is_empty() {
            capabilities["prompts"] = json!({ "listChanged": true });
            capabilities["completions"] = json!({});
        }
        if !current.registry.resources().is_empty() {
            capabilities["resources"] = json!({ "subscribe": true, "listChanged": true });
        }
        let capabilities: ServerCapabilities =
            serde_json::from_value(capabilities).expect("a valid capabilities object");
        InitializeResult::new(capabilities)
            .with_server_info(Implementation::new(current.settings.host.server_name.clone(), env!("CARGO_PKG_VERSION")))
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
        tracing::info!(
            client = %request.client_info.name,
            version = %request.client_info.version,
            protocol = %request.protocol_version,
            "client connected"
        );
        let result = self.negotiate_initialize(&request)?;
        let _ = self.session.telemetry.set(telemetry::session_started(result.protocol_version.as_str()));
        self.session.declared_prompts.store(result.capabilities.prompts.is_some(), Ordering::Relaxed);
        self.session.declared_resources.store(result.capabilities.resources.is_some(), Ordering::Relaxed);
        Ok(result)
    }

    async fn on_roots_list_changed(&self, context: NotificationContext<RoleServer>) {
        // The stdio transport noted it as it read it, in order with the messages after it.
        if context.extensions.get::<roots::ChangeNoted>().is_none() {
            self.session.roots.forget();
        }
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        let stop = CancellationToken::new();
        announce(context.peer, &self.state, Arc::clone(&self.session), stop.clone());
        *self.session.announcer.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(stop.drop_guard());
    }

    fn accepted_subscription_filter(&self, requested: &SubscriptionFilter) -> Option<SubscriptionFilter> {
        // A stream hears of updates of the resources it names that exist.
        let current = self.state.current();
        let existing = requested
            .resource_subscriptions
            .iter()
            .flatten()
            .filter(|uri| current.registry.resource_for(uri).is_some());
        Some(
            SubscriptionFilter::builder()
                .tools_list_changed()
                .prompts_list_changed()
                .resources_list_changed()
                .resource_subscriptions(existing.cloned())
                .build(),
        )
    }

    async fn listen(&self, subscription: SubscriptionContext) -> Result<(), McpError> {
        let (mut changes, mut updates) = (self.state.subscribe(), self.state.updates.subscribe());
        let accepted = subscription.accepted().clone();
        let watched: HashSet<&String> = accepted.resource_subscriptions.iter().flatten().collect();
        loop {
            let news = tokio::select! {
                _ = subscription.cancelled() => return Ok(()),
                _ = self.state.shutdown.cancelled() => return Ok(()),
                news = next_news(&mut changes, &mut updates) => news,
            };
            let sink = subscription.sink();
            let changed = match news {
                News::Over => return Ok(()),
                News::Lists(changed) => changed,
                News::Updated(uri) => {
                    if watched.contains(&uri) && sink.notify_resource_updated(uri).await.is_err() {
                        return Ok(());
                    }
                    continue;
                }
            };
            let sent = async {
                if changed.tools && accepted.tools_list_changed == Some(true) {
                    sink.notify_tool_list_changed().await?;
                }
                if changed.prompts && accepted.prompts_list_changed == Some(true) {
                    sink.notify_prompt_list_changed().await?;
                }
                if changed.resources && accepted.resources_list_changed == Some(true) {
                    sink.notify_resource_list_changed().await?;
                }
                Ok::<(), rmcp::service::SubscriptionSendError>(())
            };
            if sent.await.is_err() {
                return Ok(());
            }
        }
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        let tools: Vec<Tool> = self.state.current().registry.entries().iter().map(|entry| entry.tool.clone()).collect();
        Ok(ListToolsResult::with_all_items(tools))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.state.peek(|current| current.registry.get(name).map(|entry| entry.tool.clone()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let Some(entry) = self.state.peek(|current| current.registry.get(&request.name).cloned()) else {
            return Err(McpError::invalid_params(
                format!("Unknown tool: '{}'. tools/list gives the tools this server has.", request.name),
                Some(json!({ "tool": request.name })),
            ));
        };
        let arguments = request.arguments.unwrap_or_default();
        let result = call::tool(&self.state, entry, arguments, self.client(&context), context).await;
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

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, McpError> {
        let current = self.state.current();
        self.require_prompts(&current.registry, "prompts/list")?;
        Ok(ListPromptsResult::with_all_items(
            current.registry.prompts().iter().map(|entry| entry.prompt.clone()).collect(),
        ))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, McpError> {
        let Some(entry) = self.state.current().registry.prompt(&request.name).cloned() else {
            return Err(McpError::invalid_params(
                format!("Unknown prompt: '{}'. prompts/list gives the prompts this server has.", request.name),
                None,
            ));
        };
        let arguments = request.arguments.unwrap_or_default();
        let missing: Vec<&str> = entry
            .prompt
            .arguments
            .iter()
            .flatten()
            .filter(|argument| argument.required == Some(true) && !arguments.contains_key(&argument.name))
            .map(|argument| argument.name.as_str())
            .collect();
        if !missing.is_empty() {
            return Err(McpError::invalid_params(
                format!("Prompt '{}' needs the argument(s): {}", request.name, missing.join(", ")),
                None,
            ));
        }
        let result = call::prompt(&self.state, entry, arguments, self.client(&context), context).await?;
        Ok(GetPromptResponse::Complete(result))
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, McpError> {
        let current = self.state.current();
        self.require_prompts(&current.registry, "completion/complete")?;
        let mut values = match &request.r#ref {
            Reference::Prompt(reference) => match current.registry.prompt(&reference.name) {
                Some(entry) => {
                    let asked = (request.argument.name.clone(), request.argument.value.clone());
                    call::complete(&self.state, Arc::clone(entry), asked, self.client(&context), context).await?
                }
                None => {
                    return Err(McpError::invalid_params(format!("Unknown prompt: '{}'", reference.name), None));
                }
            },
            // Resource templates and any future reference kind: nothing to suggest.
            _ => Vec::new(),
        };
        let total = values.len() as u32;
        values.truncate(CompletionInfo::MAX_VALUES);
        let has_more = (values.len() as u32) < total;
        let completion = CompletionInfo::with_pagination(values, Some(total), has_more)
            .map_err(|error| McpError::internal_error(error, None))?;
        Ok(CompleteResult::new(completion))
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        self.require_resources(&self.state.current().registry, "resources/list")?;
        let resources = self.descriptors(|entry| matches!(entry.address, ResourceAt::Uri(_)))?;
        Ok(ListResourcesResult::with_all_items(resources))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, McpError> {
        self.require_resources(&self.state.current().registry, "resources/templates/list")?;
        let templates = self.descriptors(|entry| matches!(entry.address, ResourceAt::Template(_)))?;
        Ok(ListResourceTemplatesResult::with_all_items(templates))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        let entry = self.resource(&request.uri)?;
        let result = call::read(&self.state, entry, request.uri, self.client(&context), context).await?;
        Ok(ReadResourceResponse::Complete(result))
    }

    // A subscription is kept per session, for a URI some resource serves; the plugin behind it
    // announces updates (`PluginContext::announce`) and the session's announcer passes them on.
    #[allow(deprecated)]
    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        self.resource(&request.uri)?;
        self.session.subscriptions().insert(request.uri);
        Ok(())
    }

    #[allow(deprecated)]
    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        self.resource(&request.uri)?;
        self.session.subscriptions().remove(&request.uri);
        Ok(())
    }
}

impl McpServer {
    /// Answers "method not found" for a feature no plugin provides, as for
    /// a capability the server does not declare; a session that was told of
    /// prompts gets an empty list when a reload took them all away.
    fn require(&self, provided: bool, declared: &AtomicBool, method: &'static str) -> Result<(), McpError> {
        if provided || declared.load(Ordering::Relaxed) {
            Ok(())
        } else {
            Err(McpError::new(ErrorCode::METHOD_NOT_FOUND, method, None))
        }
    }

    fn require_prompts(&self, registry: &Registry, method: &'static str) -> Result<(), McpError> {
        self.require(!registry.prompts().is_empty(), &self.session.declared_prompts, method)
    }

    fn require_resources(&self, registry: &Registry, method: &'static str) -> Result<(), McpError> {
        self.require(!registry.resources().is_empty(), &self.session.declared_resources, method)
    }

    fn resource(&self, uri: &str) -> Result<Arc<ResourceEntry>, McpError> {
        self.state.current().registry.resource_for(uri).cloned().ok_or_else(|| {
            McpError::resource_not_found(format!("No resource at '{uri}'."), Some(json!({ "uri": uri })))
        })
    }

    fn descriptors<T: serde::de::DeserializeOwned>(
        &self,
        keep: impl Fn(&ResourceEntry) -> bool,
    ) -> Result<Vec<T>, McpError> {
        self.state
            .current()
            .registry
            .resources()
            .iter()
            .filter(|entry| keep(entry))
            .map(|entry| {
                serde_json::from_value(entry.descriptor.clone()).map_err(|error| {
                    McpError::internal_error(
                        format!("plugin '{}' described a resource badly: {error}", entry.plugin.name()),
                        None,
                    )
                })
            })
            .collect()
    }
}
