//! `mcp-startup`: times a stdio MCP server from exec to its `initialize` answer and to its
//! `tools/list` answer, over repeated starts.
//!
//! ```text
//! mcp-startup --label host --repeat 20 -- target/release/mcp-plugin-host --config appsettings.json
//! ```

use std::process::ExitCode;

use clap::Parser;
use mcp_plugin_bench::{StdioOptions, startup};

/// Start-up time of a stdio MCP server (median of repeated starts).
#[derive(Debug, Parser)]
#[command(version, about)]
struct Cli {
    /// The server's name in reports.
    #[arg(long, default_value = "server")]
    label: String,
    /// Timed starts.
    #[arg(long, short, default_value_t = 20)]
    repeat: usize,
    /// Untimed starts first (to warm the page cache).
    #[arg(long, default_value_t = 2)]
    warmup: usize,
    #[command(flatten)]
    server: StdioOptions,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let server = &cli.server;
    let measure = startup::measure(&cli.label, &server.command, cli.repeat, cli.warmup, &server.protocol_version);
    mcp_plugin_bench::print_report(server.json, measure, |report| {
        println!("{}: {} tools, {} starts", report.label, report.tools, report.repeat);
        for (what, spread) in [("initialize", report.initialize_ms), ("tools/list", report.tools_list_ms)] {
            println!(
                "  exec → {what} answer: median {:.2} ms (min {:.2}, max {:.2})",
                spread.median, spread.min, spread.max
            );
        }
        println!("  VmHWM after tools/list: {} kB (median)", report.vm_hwm_kb);
    })
}
