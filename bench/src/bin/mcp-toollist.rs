//! `mcp-toollist`: what a stdio MCP server's tool list costs, in bytes, per tool and in total:
//! everything, what a client shows the model (names, titles, descriptions, input schemas) and the
//! output schemas ([`mcp_plugin_bench::toollist`]).
//!
//! ```text
//! mcp-toollist -- target/debug/mcp-plugin-host --config appsettings.json --plugin-dir target/debug
//! ```

use std::{process::ExitCode, time::Duration};

use clap::Parser;
use mcp_plugin_bench::{
    Result, StdioOptions,
    client::{StdioServer, initialize_request, initialized_notification, list_tools_request},
    error,
    toollist::ToolListSize,
};
use serde_json::Value;

/// The bytes of a stdio MCP server's `tools/list`.
#[derive(Debug, Parser)]
#[command(version, about)]
struct Cli {
    #[command(flatten)]
    server: StdioOptions,
}

/// The `result` of `tools/list` (every page).
async fn tool_list(command: &[String], protocol_version: &str) -> Result<Value> {
    let mut server = StdioServer::spawn(command, std::process::Stdio::inherit())?;
    let init = server.request(0, &initialize_request(0, protocol_version)).await?;
    if let Some(problem) = init.get("error") {
        return Err(error(format!("initialize failed: {problem}")));
    }
    server.send(&initialized_notification()).await?;
    let response = server.request(1, &list_tools_request(1)).await?;
    server.shutdown(Duration::from_secs(5)).await?;
    let result = response.get("result").cloned().ok_or_else(|| error(format!("tools/list failed: {response}")))?;
    if result.get("nextCursor").is_some_and(|cursor| !cursor.is_null()) {
        return Err(error("tools/list is paged; this tool measures one page only"));
    }
    Ok(result)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let server = &cli.server;
    let measure = async { ToolListSize::of(&tool_list(&server.command, &server.protocol_version).await?) };
    mcp_plugin_bench::print_report(server.json, measure, |size| println!("{}", size.table()))
}
