//! The `dotnet_server_capabilities` plugin: one read-only tool that tells a client what this
//! server offers and what it finds on the machine, so an agent can plan before it calls anything.
//!
//! It reports:
//! - the plugin's own name, version and tools, and the plugin API (ABI) version it was built
//!   against: any 1.y host loads it;
//! - the MCP protocol versions the host release it ships with speaks ([`PROTOCOL_VERSIONS`]);
//! - what is supported (`supports`), as facts of the host and its plugin API: structured errors
//!   and content, cancellation that kills the process tree, timeouts, progress, logging, content
//!   negotiation (the extension and its tags), elicitation, sampling and roots
//!   (forwarded to clients that declare them), cross-plugin locks, secret redaction. Features this
//!   server does not have (telemetry, metrics, token savings, MCP tasks) are reported `false`;
//! - the installed .NET SDKs (`dotnet --list-sdks`, parsed), the framework recommended for new
//!   projects, the newest LTS and the newest supported release (`dotnet_support::frameworks`),
//!   and the day that framework table's facts were last checked (`tableAsOf`).
//!
//! The server's name, the protocol versions it speaks and every loaded plugin with its tools,
//! prompts and resources come from the host (`PluginContext::host_info`). A host that predates
//! that service is answered from what this plugin knows alone, and `loadedPlugins.complete`
//! says so. The protocol version a client negotiated is not visible to plugins.
//!
//! A missing dotnet does not make the tool fail: the server's capabilities stand without it, and
//! `dotnet.found` is false with the reason and what to do. Only a cancelled or timed-out
//! `dotnet --list-sdks` is an error (the contract's envelope).
//!
//! | action | runs | lock |
//! |---|---|---|
//! | (capabilities) | `dotnet --list-sdks` | none |
//!
//! Annotations: read-only, not destructive, idempotent, closed-world — it reports, and changes
//! nothing. One action, so the tool has no `action` parameter.

#![deny(missing_docs)]

mod actions;

use dotnet_support::kit::{ActionSpec, ActionTool, Call, Declaration, Family, Outcome};
use mcp_plugin_api::export_plugin;

export_plugin! {
    name: PLUGIN_NAME,
    version: env!("CARGO_PKG_VERSION"),
    settings_schema: dotnet_support::settings::settings_schema(),
    tools: |ctx| Ok(vec![ActionTool::new(DotnetServerCapabilities, ctx)?.into()]),
}

/// The plugin's name, as operators enable it.
pub const PLUGIN_NAME: &str = "dotnet_server_capabilities";

/// The tool's name.
pub const TOOL_NAME: &str = "dotnet_server_capabilities";

/// The MCP protocol versions of the host release these plugins ship with (mcp-plugin-host on
/// rmcp 3.9: 2024-11-05 to 2026-07-28), for a host too old to say so itself.
pub const PROTOCOL_VERSIONS: [&str; 5] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"];

dotnet_support::actions! {
    /// The one action of `dotnet_server_capabilities`.
    pub enum Action {
        /// What the server supports and finds on the machine.
        Capabilities,
    }
}

/// The `dotnet_server_capabilities` family.
#[derive(Debug, Default)]
pub struct DotnetServerCapabilities;

/// What the action does and answers. It runs `dotnet --list-sdks` but does not report the command:
/// without dotnet it still answers, with nothing run.
fn spec(action: Action) -> ActionSpec<Action> {
    match action {
        Action::Capabilities => ActionSpec::reads(action).result::<actions::capabilities::Capabilities>(),
    }
}

impl Family for DotnetServerCapabilities {
    type Action = Action;

    fn declare() -> Declaration<Action> {
        Declaration::new(
            TOOL_NAME,
            "Server Capabilities",
            "What this .NET MCP server supports (structured errors, cancellation, progress, content negotiation, \
             elicitation, sampling, roots, locks...), the MCP protocol versions it speaks, and the .NET SDKs \
             installed here with the target framework to use for new projects and the newest LTS. Call it first \
             to plan; it changes nothing.",
        )
        .single_action()
        .each_action(spec)
    }

    async fn run(&self, action: Action, call: &Call<'_>) -> Outcome {
        match action {
            Action::Capabilities => actions::capabilities::run(call).await,
        }
    }
}
