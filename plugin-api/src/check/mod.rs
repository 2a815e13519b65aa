//! What the host checks in what a plugin offers and returns, in one place,
//! so that the test kit applies exactly the host's checks and a plugin
//! author sees a failure in `cargo test` before any host refuses it.
//!
//! * [`descriptor`]: every tool, prompt, resource and resource template a
//!   plugin offers must be one that every MCP client accepts, for every
//!   protocol version the host serves (the official SDK clients reject a
//!   whole `tools/list` answer when one tool is malformed).
//! * `ToolSchemas` (feature `validation`): a call's arguments against the
//!   tool's input schema, and its `structuredContent` against its output
//!   schema; `check_settings`: a plugin's section of the host's configuration
//!   against the schema the plugin declares.

pub mod descriptor;
#[cfg(feature = "validation")]
mod schema;

#[cfg(feature = "validation")]
pub use schema::{ToolSchemas, check_settings};
