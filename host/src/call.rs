//! One tool call from start to finish: the check of its arguments, the
//! session the plugin sees while it runs, the limits that stop it (client
//! cancel, timeout, shutdown), and the checks on what it returns.
//!
//! Notifications a call makes (progress, log records) go through one queue
//! per call and are flushed before the result is returned, so a client
//! always sees them before the response.

// Log notifications are deprecated in rmcp 3.9 (SEP-2577) yet still part
// of the protocol versions most clients speak.
#![allow(deprecated)]

use std::{
    path::PathBuf,
    sync::{Arc, OnceLock},
    time::Duration,
};

use futures::future::BoxFuture;
use rmcp::{
    Peer, RoleServer,
    model::{
        CallToolResult, ClientCapabilities, ContentBlock, CustomRequest, LoggingMessageNotificationParam,
        ProgressNotificationParam, ProgressToken, ResultType, ServerRequest,
    },
    service::RequestContext,
};
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};
use tokio_util::{sync::CancellationToken, task::task_tracker::TaskTrackerToken};
use tracing::Instrument;

use crate::{
    logging::{self, ClientLevel},
    plugin::{CallSession, ClientRequestError, Level},
    registry::ToolEntry,
    roots::SessionRoots,
    state::HostState,
    telemetry::{
        CallRecord,
        call::{Outcome, Request},
    },
};

/// Something to send to the client, in order.
enum Outgoing {
    Progress(ProgressNotificationParam),
    Log(LoggingMessageNotificationParam),
    Flush(oneshot::Sender<()>),
}

/// The host's side of one running call.
struct HostCall {
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
    /// Counts the call in flight for as long as anything holds its session: the host's side,
    /// the plugin's future on its call thread, or the worker that was told to drop it and
    /// has not said it did. Shutdown waits for it (see [`HostState::shut_down`]): dropping
    /// that future is what kills the processes the call started.
    _in_flight: TaskTrackerToken,
}

impl HostCall {
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

/// Why a call stopped before the plugin finished it.
enum Stop {
    ClientCancelled,
    TimedOut(Duration),
    Shutdown,
}

/// Runs one call and records it: a span around it, one log line when it
/// ends, its metrics and trace (see [`CallRecord`]).
pub async fn run(
    state: &HostState,
    entry: Arc<ToolEntry>,
    arguments: serde_json::Map<String, Value>,
    features: Vec<String>,
    level: ClientLevel,
    roots: Arc<SessionRoots>,
    context: RequestContext<RoleServer>,
) -> CallToolResult {
    let record = CallRecord::start(&entry, &Request::of(&context));
    let result = execute(state, entry, arguments, features, (level, roots), context, &record)
        .instrument(record.span().clone())
        .await;
    record.finish(&result);
    result
}

/// Runs one call to completion (or to its stop): the operator's defaults
/// fill in what the call left out, then arguments that do not match the
/// tool's input schema are answered with an error result naming the
/// parameter, and the plugin never sees them. The limits are those of the
/// configuration in force when the call starts.
async fn execute(
    state: &HostState,
    entry: Arc<ToolEntry>,
    arguments: serde_json::Map<String, Value>,
    features: Vec<String>,
    (level, roots): (ClientLevel, Arc<SessionRoots>),
    context: RequestContext<RoleServer>,
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
    let stateless = context
        .protocol_version()
        .is_some_and(|version| version.as_str() >= rmcp::model::ProtocolVersion::V_2026_07_28.as_str());
    let session = Arc::new(HostCall {
        peer: context.peer.clone(),
        progress_token: context.meta.get_progress_token(),
        cancel: CancellationToken::new(),
        features,
        level,
        log_target: logging::plugin_target(entry.plugin.name()),
        capabilities: context.client_capabilities(),
        stateless,
        outgoing: OnceLock::new(),
        runtime: tokio::runtime::Handle::current(),
        roots,
        _in_flight: state.calls.token(),
    });
    let (timeout, grace) =
        state.peek(|current| (current.settings.timeout_for(entry.name()), current.settings.host.cancel_grace));
    let mut call = entry.plugin.call(entry.index, arguments.to_string(), Arc::clone(&session) as Arc<dyn CallSession>);
    let deadline = async {
        match timeout {
            Some(limit) => tokio::time::sleep(limit).await,
            None => std::future::pending().await,
        }
    };
    let stop = tokio::select! {
        json = &mut call => {
            session.flush().await;
            return finish(&entry, &json);
        }
        _ = context.ct.cancelled() => Stop::ClientCancelled,
        _ = deadline => Stop::TimedOut(timeout.unwrap_or_default()),
        _ = state.shutdown.cancelled() => Stop::Shutdown,
    };
    // Ask the plugin to stop, give it the grace period to wind down (a
    // dotnet run kills its process tree and reports partial output), then
    // drop whatever is left.
    record.stopped(match stop {
        Stop::ClientCancelled => Outcome::Cancelled,
        Stop::TimedOut(_) => Outcome::Timeout,
        Stop::Shutdown => Outcome::Shutdown,
    });
    session.cancel.cancel();
    let late = tokio::time::timeout(grace, &mut call).await.ok();
    drop(call);
    session.flush().await;
    let name = entry.name();
    let message = match stop {
        Stop::ClientCancelled => format!("The call of '{name}' was cancelled by the client."),
        Stop::TimedOut(limit) => {
            tracing::warn!(tool = name, limit_secs = limit.as_secs_f64(), "call timed out");
            format!(
                "The call of '{name}' timed out after {} s and was stopped. Retry with a smaller task, or ask the \
                 operator to raise Host.ToolTimeoutSeconds or Host.ToolTimeouts.{name}.",
                limit.as_secs_f64()
            )
        }
        Stop::Shutdown => {
            format!("The call of '{name}' was stopped because the server is shutting down.")
        }
    };
    let mut result = CallToolResult::error(vec![ContentBlock::text(message)]);
    // What the plugin managed to say while stopping (partial output) is kept.
    if let Some(json) = late {
        let partial = finish(&entry, &json);
        result.content.extend(partial.content);
        result.structured_content = partial.structured_content;
    }
    result
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
