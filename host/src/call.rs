//! Every request that runs plugin code, from start to finish, on one guarded
//! path: a tool call, a prompt's rendering, a resource read, a completion.
//!
//! Each gets the same session ([`CallSession`]: progress, logs, requests to
//! the client, the cancel signal) and the same limits (`guarded`): the
//! operator's time limit for its kind (per tool where configured), the
//! client's `notifications/cancelled`, and shutdown. Stopping is two steps:
//! the request's cancel signal, then, after the grace period, its future is
//! dropped (in process, on the plugin's thread; in a worker, in the worker).
//! A time limit is answered at the limit: the cancel signal fires
//! `Host.CancelGraceMs` before it (at most a quarter of the limit), so that
//! the plugin can wind down and report partial output in time. Every request
//! is counted in flight (shutdown waits for it) and recorded
//! ([`CallRecord`]: a span, one closing line, metrics and a trace).
//!
//! The answer: a tool call is always a result (faults become error results
//! naming the plugin, so the model can read them); the other requests answer
//! the plugin's typed errors ([`PluginError`]) with the matching JSON-RPC
//! error: `-32602` for invalid params, `-32002` for a resource not found,
//! `-32603` naming the plugin for its failures and faults, and for a request
//! stopped by its limit or by shutdown.
//!
//! Notifications a request makes (progress, log records) go through one
//! queue per request and are flushed before its answer, so a client always
//! sees them before the response.

// Log notifications are deprecated in rmcp 3.9 (SEP-2577) yet still part
// of the protocol versions most clients speak.
#![allow(deprecated)]

use std::{
    path::PathBuf,
    sync::{Arc, OnceLock},
    time::Duration,
};

use futures::{FutureExt, future::BoxFuture};
use rmcp::{
    ErrorData as McpError, Peer, RoleServer,
    model::{
        CallToolResult, ClientCapabilities, ContentBlock, CustomRequest, GetPromptResult,
        LoggingMessageNotificationParam, ProgressNotificationParam, ProgressToken, ReadResourceResult, ResultType,
        ServerRequest,
    },
    service::RequestContext,
};
use serde_json::{Map, Value, json};
use tokio::{
    sync::{mpsc, oneshot},
    time::Instant,
};
use tokio_util::{sync::CancellationToken, task::task_tracker::TaskTrackerToken};
use tracing::Instrument;

use crate::{
    logging::{self, ClientLevel},
    plugin::{CallSession, ClientRequestError, Level, PluginError, RequestKind, Requested},
    registry::{PromptEntry, ResourceAt, ResourceEntry, ToolEntry},
    roots::SessionRoots,
    settings::Settings,
    state::HostState,
    telemetry::{
        CallRecord,
        call::{Operation, Outcome, Request},
    },
};

/// What the host knows of the client a request comes from, kept by its session.
pub struct Client {
    /// The client's negotiated feature tags.
    pub features: Vec<String>,
    /// The level of log records the client receives.
    pub level: ClientLevel,
    /// The client's roots, asked once per session.
    pub roots: Arc<SessionRoots>,
}

/// Something to send to the client, in order.
enum Outgoing {
    Progress(ProgressNotificationParam),
    Log(LoggingMessageNotificationParam),
    Flush(oneshot::Sender<()>),
}

/// The host's side of one running request.
struct HostCall {
    requested: Requested,
    peer: Peer<RoleServer>,
    progress_token: Option<ProgressToken>,
    cancel: CancellationToken,
    features: Vec<String>,
    level: ClientLevel,
    log_target: String,
    capabilities: Option<ClientCapabilities>,
    stateless: bool,
    /// The queue to the client, started with the first notification (most calls send none).
    outgoing: OnceLock<mpsc::UnboundedSender<Outgoing>>,
    runtime: tokio::runtime::Handle,
    /// The session's roots, asked of the client once.
    roots: Arc<SessionRoots>,
    /// Counts the request in flight for as long as anything holds its session: the host's
    /// side, the plugin's future on its thread, or the worker that was told to drop it and
    /// has not said it did. Shutdown waits for it (see [`HostState::shut_down`]): dropping
    /// that future is what kills the processes the request started.
    _in_flight: TaskTrackerToken,
}

impl HostCall {
    /// The session of `requested` for the plugin `plugin`, asked by `client` through `context`,
    /// counted in flight by `in_flight`.
    fn new(
        requested: Requested,
        plugin: &str,
        client: Client,
        context: &RequestContext<RoleServer>,
        in_flight: TaskTrackerToken,
    ) -> Self {
        Self {
            requested,
            peer: context.peer.clone(),
            progress_token: context.meta.get_progress_token(),
            cancel: CancellationToken::new(),
            features: client.features,
            level: client.level,
            log_target: logging::plugin_target(plugin),
            capabilities: context.client_capabilities(),
            stateless: is_stateless(context),
            outgoing: OnceLock::new(),
            runtime: tokio::runtime::Handle::current(),
            roots: client.roots,
            _in_flight: in_flight,
        }
    }

    /// Waits until everything queued so far has been handed to the transport.
    async fn flush(&self) {
        let (done, flushed) = oneshot::channel();
        let Some(outgoing) = self.outgoing.get() else { return };
        if outgoing.send(Outgoing::Flush(done)).is_ok() {
            let _ = flushed.await;
        }
    }
}

impl HostCall {
    /// Queues a notification; the first one starts the forwarder on the host's runtime (the
    /// plugin may be calling from a thread of its own runtime).
    fn send(&self, message: Outgoing) {
        let outgoing = self.outgoing.get_or_init(|| start_forwarder(self.peer.clone(), &self.runtime));
        let _ = outgoing.send(message);
    }
}

impl CallSession for HostCall {
    fn requested(&self) -> &Requested {
        &self.requested
    }

    fn progress(&self, progress: f64, total: Option<f64>, message: Option<String>) {
        let Some(token) = &self.progress_token else {
            return;
        };
        let mut param = ProgressNotificationParam::new(token.clone(), progress);
        if let Some(total) = total {
            param = param.with_total(total);
        }
        if let Some(message) = message {
            param = param.with_message(message);
        }
        self.send(Outgoing::Progress(param));
    }

    fn cancellation(&self) -> &CancellationToken {
        &self.cancel
    }

    fn features(&self) -> &[String] {
        &self.features
    }

    fn log(&self, level: Level, message: &str) {
        logging::emit(&self.log_target, level, message);
        if let Some(param) = self.level.message(level, &self.log_target, message) {
            self.send(Outgoing::Log(param));
        }
    }

    fn client_request(&self, method: String, params: Value) -> BoxFuture<'static, Result<Value, ClientRequestError>> {
        let capabilities = self.capabilities.clone().unwrap_or_default();
        let declared = match method.as_str() {
            "elicitation/create" => Some(capabilities.elicitation.is_some()),
            "sampling/createMessage" => Some(capabilities.sampling.is_some()),
            "roots/list" => Some(capabilities.roots.is_some()),
            _ => None,
        };
        let refusal = match declared {
            None => Some(format!("'{method}' is not a request a tool may send to the client")),
            Some(false) => Some(format!("the client did not declare the capability '{method}' needs")),
            Some(true) if self.stateless => {
                Some(format!("'{method}' cannot be sent: protocol 2026-07-28 has no server-to-client requests"))
            }
            Some(true) => None,
        };
        let peer = self.peer.clone();
        Box::pin(async move {
            if let Some(reason) = refusal {
                return Err(ClientRequestError::Unsupported(reason));
            }
            let request = ServerRequest::CustomRequest(CustomRequest::new(method, Some(params)));
            let answer =
                peer.send_request(request).await.map_err(|error| ClientRequestError::Failed(error.to_string()))?;
            serde_json::to_value(answer).map_err(|error| ClientRequestError::Failed(error.to_string()))
        })
    }

    fn roots(&self) -> BoxFuture<'static, Vec<PathBuf>> {
        let askable =
            !self.stateless && self.capabilities.as_ref().is_some_and(|capabilities| capabilities.roots.is_some());
        let (roots, peer) = (Arc::clone(&self.roots), self.peer.clone());
        Box::pin(async move { roots.folders(&peer, askable).await })
    }
}

/// Forwards a call's notifications to the client, one at a time, in order.
fn start_forwarder(peer: Peer<RoleServer>, runtime: &tokio::runtime::Handle) -> mpsc::UnboundedSender<Outgoing> {
    let (sender, mut receiver) = mpsc::unbounded_channel();
    runtime.spawn(async move {
        while let Some(message) = receiver.recv().await {
            match message {
                Outgoing::Progress(param) => {
                    let _ = peer.notify_progress(param).await;
                }
                Outgoing::Log(param) => {
                    #[allow(deprecated)]
                    let _ = peer.notify_logging_message(param).await;
                }
                Outgoing::Flush(done) => {
                    let _ = done.send(());
                }
            }
        }
    });
    sender
}

/// Why a request stopped before the plugin finished it.
#[derive(Debug, Clone, Copy)]
enum Stop {
    ClientCancelled,
    TimedOut(Duration),
    Shutdown,
}

impl Stop {
    fn outcome(self) -> Outcome {
        match self {
            Stop::ClientCancelled => Outcome::Cancelled,
            Stop::TimedOut(_) => Outcome::Timeout,
            Stop::Shutdown => Outcome::Shutdown,
        }
    }
}

/// How a guarded request ended: the plugin's answer, or the stop and what the
/// plugin answered while it wound down, if it did.
enum Ran<T> {
    Done(T),
    Stopped(Stop, Option<T>),
}

/// The time limit of `requested` under `settings`.
fn limit_for(settings: &Settings, requested: &Requested) -> Option<Duration> {
    match requested.kind {
        RequestKind::Tool => settings.timeout_for(&requested.item),
        RequestKind::Prompt => settings.host.prompt_timeout,
        RequestKind::Resource => settings.host.resource_timeout,
        RequestKind::Completion => settings.host.completion_timeout,
    }
}

/// The settings that set the limit of `requested`, for the message that says it ran out.
fn limit_keys(requested: &Requested) -> String {
    match requested.kind {
        RequestKind::Tool => format!("Host.ToolTimeoutSeconds or Host.ToolTimeouts.{}", requested.item),
        RequestKind::Prompt => "Host.PromptTimeoutSeconds".to_owned(),
        RequestKind::Resource => "Host.ResourceTimeoutSeconds".to_owned(),
        RequestKind::Completion => "Host.CompletionTimeoutSeconds".to_owned(),
    }
}

/// Runs the plugin's side of one request under the limits of the configuration in force when
/// it starts (see the module documentation): `start` makes the plugin's future from the
/// request's session. The request counts as in flight until its session is let go (see
/// `HostCall`), so until the plugin has dropped its future.
async fn guarded<T>(
    state: &HostState,
    requested: Requested,
    plugin: &str,
    client: Client,
    context: &RequestContext<RoleServer>,
    record: &CallRecord,
    start: impl FnOnce(Arc<dyn CallSession>) -> BoxFuture<'static, T>,
) -> Ran<T> {
    let (limit, grace) =
        state.peek(|current| (limit_for(&current.settings, &requested), current.settings.host.cancel_grace));
    let session = Arc::new(HostCall::new(requested, plugin, client, context, state.calls.token()));
    let started = Instant::now();
    let mut work = start(Arc::clone(&session) as Arc<dyn CallSession>);
    // The cancel signal comes early enough for the plugin to wind down by the limit.
    let signal = async {
        match limit {
            Some(limit) => tokio::time::sleep_until(started + limit - grace.min(limit / 4)).await,
            None => std::future::pending().await,
        }
    };
    let stop = tokio::select! {
        answer = &mut work => {
            session.flush().await;
            return Ran::Done(answer);
        }
        _ = context.ct.cancelled() => Stop::ClientCancelled,
        _ = signal => Stop::TimedOut(limit.unwrap_or_default()),
        _ = state.shutdown.cancelled() => Stop::Shutdown,
    };
    // Ask the plugin to stop, give it until the limit (or the grace period) to wind down (a
    // dotnet run kills its process tree and reports partial output), then drop what is left.
    record.stopped(stop.outcome());
    session.cancel.cancel();
    let wound_down_by = match stop {
        Stop::TimedOut(limit) => started + limit,
        Stop::ClientCancelled | Stop::Shutdown => Instant::now() + grace,
    };
    let late = tokio::time::timeout_at(wound_down_by, &mut work).await.ok();
    drop(work);
    session.flush().await;
    Ran::Stopped(stop, late)
}

/// What a request stopped by `stop` is answered with.
fn stop_message(requested: &Requested, stop: Stop) -> String {
    match (requested.kind, stop) {
        (RequestKind::Tool, Stop::ClientCancelled) => {
            format!("The call of '{}' was cancelled by the client.", requested.item)
        }
        (RequestKind::Tool, Stop::TimedOut(limit)) => format!(
            "The call of '{}' timed out after {} s and was stopped. Retry with a smaller task, or ask the operator \
             to raise {}.",
            requested.item,
            limit.as_secs_f64(),
            limit_keys(requested)
        ),
        (RequestKind::Tool, Stop::Shutdown) => {
            format!("The call of '{}' was stopped because the server is shutting down.", requested.item)
        }
        (_, Stop::ClientCancelled) => format!("{requested} was cancelled by the client."),
        (_, Stop::TimedOut(limit)) => format!(
            "{requested} timed out after {} s and was stopped; the operator can raise {}.",
            limit.as_secs_f64(),
            limit_keys(requested)
        ),
        (_, Stop::Shutdown) => format!("{requested} was stopped because the server is shutting down."),
    }
}

/// Runs one tool call and records it: the operator's defaults fill in what
/// the call left out, then arguments that do not match the tool's input
/// schema are answered with an error result naming the parameter, and the
/// plugin never sees them.
pub async fn tool(
    state: &HostState,
    entry: Arc<ToolEntry>,
    arguments: Map<String, Value>,
    client: Client,
    context: RequestContext<RoleServer>,
) -> CallToolResult {
    let record = CallRecord::start(&entry, &Request::of(&context));
    let result = run_tool(state, entry, arguments, client, &context, &record).instrument(record.span().clone()).await;
    record.finish(&result);
    result
}

async fn run_tool(
    state: &HostState,
    entry: Arc<ToolEntry>,
    arguments: Map<String, Value>,
    client: Client,
    context: &RequestContext<RoleServer>,
    record: &CallRecord,
) -> CallToolResult {
    if let Err(problem) = entry.compile() {
        let problem = format!("Tool '{}' cannot be called: {problem}", entry.name());
        tracing::error!("{problem}");
        return CallToolResult::error(vec![ContentBlock::text(problem)]);
    }
    let mut arguments = arguments;
    entry.fill_defaults(&mut arguments);
    let arguments = Value::Object(arguments);
    if let Err(problems) = entry.check_arguments(&arguments) {
        return CallToolResult::error(vec![ContentBlock::text(problems)]);
    }
    let requested = Requested { kind: RequestKind::Tool, item: entry.name().to_owned() };
    let plugin = Arc::clone(&entry.plugin);
    let ran = guarded(state, requested.clone(), plugin.name(), client, context, record, |session| {
        plugin.call(entry.index, arguments.to_string(), session)
    })
    .await;
    let answer = |answer: Result<String, PluginError>| match answer {
        Ok(json) => finish(&entry, &json),
        Err(fault) => {
            record.stopped(Outcome::Fault);
            CallToolResult::error(vec![ContentBlock::text(fault.message())])
        }
    };
    match ran {
        Ran::Done(done) => answer(done),
        Ran::Stopped(stop, late) => {
            let mut result = CallToolResult::error(vec![ContentBlock::text(stop_message(&requested, stop))]);
            // What the plugin managed to say while stopping (partial output) is kept.
            if let Some(Ok(json)) = late {
                let partial = finish(&entry, &json);
                result.content.extend(partial.content);
                result.structured_content = partial.structured_content;
            }
            result
        }
    }
}

/// Renders a prompt and records it. Its arguments were checked for the required ones.
pub async fn prompt(
    state: &HostState,
    entry: Arc<PromptEntry>,
    arguments: Map<String, Value>,
    client: Client,
    context: RequestContext<RoleServer>,
) -> Result<GetPromptResult, McpError> {
    let requested = Requested { kind: RequestKind::Prompt, item: entry.prompt.name.clone() };
    let operation = operation(&requested, &requested.item, entry.plugin.name());
    let plugin = Arc::clone(&entry.plugin);
    let rendered = answer(state, requested, operation, client, &context, |session| {
        plugin.get_prompt(entry.index, Value::Object(arguments), session)
    })
    .await?;
    let mut result: GetPromptResult = serde_json::from_value(rendered).map_err(|error| {
        McpError::internal_error(format!("plugin '{}' rendered a malformed prompt: {error}", entry.plugin.name()), None)
    })?;
    // As for tool results: rmcp strips it again for older protocol versions.
    result.result_type.get_or_insert(ResultType::COMPLETE);
    Ok(result)
}

/// Completion values for `argument` of a prompt, and records the request.
pub async fn complete(
    state: &HostState,
    entry: Arc<PromptEntry>,
    (argument, value): (String, String),
    client: Client,
    context: RequestContext<RoleServer>,
) -> Result<Vec<String>, McpError> {
    let requested = Requested { kind: RequestKind::Completion, item: entry.prompt.name.clone() };
    let operation = operation(&requested, &requested.item, entry.plugin.name());
    let plugin = Arc::clone(&entry.plugin);
    answer(state, requested, operation, client, &context, |session| {
        plugin.complete_prompt(entry.index, argument, value, session)
    })
    .await
}

/// Reads `uri` through a resource and records the read. A read has no call through which the
/// plugin could ask the client for its roots, so the host asks and passes them on.
pub async fn read(
    state: &HostState,
    entry: Arc<ResourceEntry>,
    uri: String,
    client: Client,
    context: RequestContext<RoleServer>,
) -> Result<ReadResourceResult, McpError> {
    let requested = Requested { kind: RequestKind::Resource, item: uri.clone() };
    let declared = match &entry.address {
        ResourceAt::Uri(uri) | ResourceAt::Template(uri) => uri.clone(),
    };
    let operation = operation(&requested, &declared, entry.plugin.name());
    let peer = context.peer.clone();
    let askable = roots_askable(&context);
    let (plugin, index) = (Arc::clone(&entry.plugin), entry.index);
    let contents = answer(state, requested, operation, client, &context, move |session| {
        async move {
            let about_client = json!({ "roots": client_roots(&peer, askable).await });
            plugin.read_resource(index, uri, about_client, session).await
        }
        .boxed()
    })
    .await?;
    let contents = serde_json::from_value(Value::Array(contents)).map_err(|error| {
        McpError::internal_error(format!("plugin '{}' read malformed contents: {error}", entry.plugin.name()), None)
    })?;
    Ok(ReadResourceResult::new(contents))
}

/// What is recorded of `requested`, named `series` in the metrics.
fn operation(requested: &Requested, series: &str, plugin: &str) -> Operation {
    Operation {
        kind: requested.kind,
        item: requested.item.clone(),
        series: series.to_owned(),
        plugin: plugin.to_owned(),
    }
}

/// Runs a prompt, resource or completion request guarded and recorded, and turns its end into
/// the answer: the plugin's, or the JSON-RPC error its failure or stop calls for.
async fn answer<T>(
    state: &HostState,
    requested: Requested,
    operation: Operation,
    client: Client,
    context: &RequestContext<RoleServer>,
    start: impl FnOnce(Arc<dyn CallSession>) -> BoxFuture<'static, Result<T, PluginError>>,
) -> Result<T, McpError> {
    let plugin = operation.plugin.clone();
    let record = CallRecord::of(operation, &Request::of(context));
    let ran = guarded(state, requested.clone(), &plugin, client, context, &record, start)
        .instrument(record.span().clone())
        .await;
    let data = json!({ "plugin": plugin, "request": requested.kind.method(), "item": requested.item });
    let (outcome, answer) = match ran {
        Ran::Done(Ok(answer)) => (Outcome::Ok, Ok(answer)),
        Ran::Done(Err(error)) => match error {
            PluginError::InvalidParams(message) => {
                (Outcome::InvalidParams, Err(McpError::invalid_params(message, Some(data))))
            }
            PluginError::NotFound(message) if requested.kind == RequestKind::Resource => {
                (Outcome::NotFound, Err(McpError::resource_not_found(message, Some(json!({ "uri": requested.item })))))
            }
            PluginError::NotFound(message) => (Outcome::NotFound, Err(McpError::invalid_params(message, Some(data)))),
            PluginError::Failed(message) => (
                Outcome::PluginError,
                Err(McpError::internal_error(
                    format!("plugin '{plugin}' could not serve {requested}: {message}"),
                    Some(data),
                )),
            ),
            PluginError::Fault(message) => (Outcome::Fault, Err(McpError::internal_error(message, Some(data)))),
        },
        Ran::Stopped(stop, _) => {
            let mut data = data;
            data["reason"] = json!(stop.outcome().as_str());
            (stop.outcome(), Err(McpError::internal_error(stop_message(&requested, stop), Some(data))))
        }
    };
    record.finish_as(outcome);
    answer
}

/// Whether the client of `context` may be asked for its roots: it declared them, and its
/// protocol has server-to-client requests (2026-07-28 has none).
fn roots_askable(context: &RequestContext<RoleServer>) -> bool {
    let declared = context.client_capabilities().is_some_and(|capabilities| capabilities.roots.is_some());
    declared && !is_stateless(context)
}

/// Whether the request comes from a client of protocol 2026-07-28 or later, which has no
/// session and no server-to-client requests.
fn is_stateless(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_some_and(|version| version.as_str() >= rmcp::model::ProtocolVersion::V_2026_07_28.as_str())
}

/// The reading client's workspace folders, for a resource whose contents depend on them (a read
/// has no call through which the plugin could ask), asked under the read's own limits. `None`
/// when the client may not be asked or does not answer with a list.
async fn client_roots(peer: &Peer<RoleServer>, askable: bool) -> Option<Value> {
    if !askable {
        return None;
    }
    match peer.list_roots().await {
        Ok(answer) => serde_json::to_value(answer.roots).ok(),
        Err(error) => {
            tracing::debug!("the client did not list its roots for a resource read: {error}");
            None
        }
    }
}

/// Decodes a plugin's result and checks it against the tool's output schema.
fn finish(entry: &ToolEntry, json: &str) -> CallToolResult {
    let mut result: CallToolResult = match serde_json::from_str(json) {
        Ok(result) => result,
        Err(error) => {
            tracing::error!(tool = entry.name(), "the plugin returned a malformed result: {error}");
            return CallToolResult::error(vec![ContentBlock::text(format!(
                "The tool '{}' returned a malformed result ({error}); this is a bug in its plugin '{}'.",
                entry.name(),
                entry.plugin.name()
            ))]);
        }
    };
    // Plugins speak the protocol-neutral shape; rmcp strips the discriminator
    // again for clients of protocol versions before 2026-07-28.
    result.result_type.get_or_insert(ResultType::COMPLETE);
    if result.is_error == Some(true) {
        // The TypeScript SDK client checks an error's structuredContent against the outputSchema too
        // and rejects the whole answer on a mismatch: an error keeps its text, and loses data that
        // does not fit.
        if result.structured_content.is_some()
            && let Err(problem) = entry.check_output(result.structured_content.as_ref())
        {
            tracing::error!(
                tool = entry.name(),
                "an error result's structured content does not match the outputSchema and was dropped: {problem}"
            );
            result.structured_content = None;
        }
        return result;
    }
    if let Err(problem) = entry.check_output(result.structured_content.as_ref()) {
        tracing::error!(tool = entry.name(), "structured content does not match the outputSchema: {problem}");
        return CallToolResult::error(vec![ContentBlock::text(format!(
            "The tool '{}' returned structured content that does not match its outputSchema ({problem}); this is \
             a bug in its plugin '{}'.",
            entry.name(),
            entry.plugin.name()
        ))]);
    }
    result
}
