//! The contract that [mcp-plugin-host] plugins are built against.
//!
//! A plugin is a `cdylib` crate that depends on this crate, implements
//! [`Tool`] for each of its tools and exports them with [`export_plugin!`].
//! The host loads the library, checks that it was built against a
//! compatible version of this crate, hands it a [`PluginContext`]
//! (configuration and a logger) and serves its tools to MCP clients.
//!
//! ```ignore
//! use mcp_plugin_api::{CallContext, Tool, ToolOutcome, ToolResult, ToolSpec, export_plugin};
//! use serde_json::{Value, json};
//!
//! struct Echo;
//!
//! impl Tool for Echo {
//!     fn spec(&self) -> ToolSpec {
//!         ToolSpec::new("echo", "Returns the text it is given.")
//!             .input_schema(json!({
//!                 "type": "object",
//!                 "properties": { "text": { "type": "string" } },
//!                 "required": ["text"]
//!             }))
//!             .read_only(true)
//!     }
//!
//!     async fn call(&self, args: Value, _ctx: CallContext) -> ToolOutcome {
//!         Ok(ToolResult::text(args["text"].as_str().unwrap_or_default()))
//!     }
//! }
//!
//! export_plugin! {
//!     name: "echo",
//!     version: env!("CARGO_PKG_VERSION"),
//!     tools: |_ctx| Ok(vec![Echo.into()]),
//! }
//! ```
//!
//! # What this crate guarantees
//!
//! * A panic anywhere in a plugin (its initialisation, a call, a poll of a
//!   call's future) becomes an error for that call; the host keeps serving.
//! * Calls run inside a tokio runtime owned by the plugin, so `tokio::time`,
//!   `tokio::process` and `tokio::spawn` work as usual.
//! * Plugins built against 1.x load into any host built against 1.y: the
//!   binary contract in [`abi`] only grows by appending.
//!
//! [mcp-plugin-host]: https://github.com/mcp-plugin-host/mcp-plugin-host

pub mod abi;
pub mod check;
mod context;
mod export;
pub mod locks;
mod prompt;
mod resource;
mod result;
#[cfg(feature = "testkit")]
pub mod testkit;
mod tool;
#[cfg(feature = "typed")]
mod typed;
/// The plugin authoring guide (`docs/plugin-authoring.md`), compiled here so
/// that every Rust sample in it is a doc test.
#[cfg(all(doctest, feature = "typed", feature = "testkit"))]
#[doc = include_str!("../../docs/plugin-authoring.md")]
mod plugin_authoring_guide {}

pub use context::{Announcement, CallContext, ClientError, ElicitResponse, Level, Logger, PluginContext, Root};
pub use export::{InitError, Plugin};
pub use prompt::{BoxedPrompt, Prompt, PromptArgument, PromptMessage, PromptResult, PromptSpec, Role};
pub use resource::{
    BoxedResource, ReadRequest, Resource, ResourceAddress, ResourceContents, ResourceSpec, template_values,
};
pub use result::{Content, EmbeddedResource, ToolResult};
/// The schemars version typed tools derive their schemas with.
#[cfg(feature = "typed")]
pub use schemars;
pub use tool::{Annotations, BoxedTool, Tool, ToolError, ToolOutcome, ToolSpec};
#[cfg(feature = "typed")]
pub use typed::{
    NoArgs, SchemaError, Structured, ToolOutput, TypedTool, input_schema_for, output_schema_for,
    output_schema_settings, parse_arguments, schema_settings,
};

/// Items the export macro expands to; not part of the public API.
#[doc(hidden)]
pub mod __private {
    pub use crate::export::{create, root_module};
    pub use abi_stable::library::{__call_root_module_loader, CheckTypeLayout, LibHeader, RootModuleResult};
    pub use serde_json::Value;
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_export_macro_names_the_symbol_abi_stable_looks_up() {
        assert_eq!(crate::abi::ROOT_SYMBOL, "_1as_0lib_1header_0root_bmodule_bloader");
    }
}
