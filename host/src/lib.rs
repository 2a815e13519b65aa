//! The library behind the `mcp-plugin-host` binary: configuration,
//! plugin discovery and loading, the MCP handler and its transports.
//!
//! It is a library so that benchmarks and tests can drive the same code the
//! binary runs; the binary (`main.rs`) only parses the command line.

pub mod call;
pub mod cli;
pub mod config_schema;
pub mod fatal;
pub mod http;
pub mod isolation;
pub mod locks;
pub mod logging;
pub mod plugin;
pub mod registry;
pub mod reload;
pub mod roots;
pub mod server;
pub mod settings;
pub mod state;
pub mod status;
pub mod stdio;
pub mod streams;
pub mod surface;
pub mod telemetry;
pub mod trust;
