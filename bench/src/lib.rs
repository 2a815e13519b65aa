//! Benchmarks of `mcp-plugin-host`, side by side with a compiled-in floor and peer MCP servers.
//!
//! The crate holds the measuring tools and their shared code:
//!
//! * `mcp-loadgen` ([`load`]) drives any MCP server command over stdio, or a loopback URL over
//!   streamable HTTP, with pipelined `tools/call` requests of `echo`, and reports calls per second,
//!   latency quantiles and the server's peak RSS;
//! * `mcp-startup` ([`startup`]) times a stdio server from exec to its `initialize` answer and to
//!   its `tools/list` answer;
//! * `mcp-floor` ([`floor`]) is the floor: an rmcp server with `echo` compiled in, on the same
//!   transports and SDK version as the host;
//! * `mcp-toollist` ([`toollist`]) measures the bytes of a stdio server's `tools/list`: in total,
//!   what a client shows the model, and the output schemas, per tool;
//! * `mcp-bench-report` ([`report`]) turns their JSON output and criterion's estimates into the
//!   markdown table of `docs/benchmarks.md`;
//! * the criterion benches `dispatch` (one call through the plugin ABI against the same tool
//!   compiled in) and `output` (redaction and diagnostic parsing over [`buildlog`]).
//!
//! `scripts/bench` runs them all. Every byte of traffic stays on loopback: the HTTP client
//! refuses any other host ([`client::check_loopback`]).

#![warn(missing_docs)]

pub mod buildlog;
pub mod client;
pub mod floor;
pub mod load;
pub mod machine;
pub mod memory;
pub mod report;
pub mod startup;
pub mod stats;
pub mod toollist;

/// The error type of the bench tools: a message for the operator.
pub type Error = Box<dyn std::error::Error + Send + Sync>;

/// The result type of the bench tools.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// An [`Error`] with `message`.
pub fn error(message: impl Into<String>) -> Error {
    message.into().into()
}

/// The options of a tool that measures a stdio server it starts (`mcp-startup`, `mcp-toollist`).
#[derive(Debug, clap::Args)]
pub struct StdioOptions {
    /// The protocol version to ask for.
    #[arg(long, default_value = client::DEFAULT_PROTOCOL_VERSION)]
    pub protocol_version: String,
    /// Print one JSON line instead of text.
    #[arg(long)]
    pub json: bool,
    /// The server's command and arguments, after `--`.
    #[arg(last = true, required = true)]
    pub command: Vec<String>,
}

/// The end of every measuring tool's `main`: runs `measure` on a current-thread runtime and
/// prints its report, one JSON line with `json`, else as `print_text` writes it; a failure goes to
/// stderr and the exit code.
pub fn print_report<T: serde::Serialize>(
    json: bool,
    measure: impl std::future::Future<Output = Result<T>>,
    print_text: impl FnOnce(&T),
) -> std::process::ExitCode {
    let outcome = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|cause| error(format!("cannot start the runtime: {cause}")))
        .and_then(|runtime| runtime.block_on(measure));
    let printed = outcome.and_then(|report| {
        match json {
            true => println!("{}", serde_json::to_string(&report)?),
            false => print_text(&report),
        }
        Ok(())
    });
    match printed {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(cause) => {
            eprintln!("error: {cause}");
            std::process::ExitCode::FAILURE
        }
    }
}
