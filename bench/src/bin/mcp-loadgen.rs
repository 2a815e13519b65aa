//! `mcp-loadgen`: drives an MCP server with pipelined `tools/call` requests of `echo` and reports
//! calls per second, latency quantiles and the server's peak RSS.
//!
//! ```text
//! mcp-loadgen --label host -c 16 -n 20000 -- target/release/mcp-plugin-host --config appsettings.json
//! mcp-loadgen --label host -c 16 -n 20000 --url http://127.0.0.1:8080/mcp --pid 1234 --json
//! ```
//!
//! Over stdio it starts the command itself; over HTTP it talks to a server already running on
//! loopback (any other host is refused). See `mcp_plugin_bench::load` for the method.

use std::{fs::File, path::PathBuf, process::ExitCode, process::Stdio, time::Duration};

use clap::Parser;
use mcp_plugin_bench::{
    client::DEFAULT_PROTOCOL_VERSION,
    load::{self, LoadOptions, LoadReport},
};

/// Load generator for MCP servers: pipelined `tools/call` of `echo`, loopback only.
#[derive(Debug, Parser)]
#[command(version, about)]
struct Cli {
    /// The server's name in reports.
    #[arg(long, default_value = "server")]
    label: String,
    /// Requests in flight at once.
    #[arg(long, short, default_value_t = 16)]
    concurrency: usize,
    /// Measured calls at most.
    #[arg(long, short = 'n', default_value_t = 20_000)]
    calls: u64,
    /// Unmeasured calls sent first.
    #[arg(long, default_value_t = 1_000)]
    warmup: u64,
    /// Measured runs of --calls calls each; the run with the median rate is reported.
    #[arg(long, default_value_t = 1)]
    runs: usize,
    /// The longest the measured calls may run, in seconds.
    #[arg(long, short, default_value_t = 20.0)]
    duration: f64,
    /// The text every call echoes.
    #[arg(long, default_value = "hello, world", conflicts_with = "text_bytes")]
    text: String,
    /// Echo a text of this many bytes instead of --text.
    #[arg(long)]
    text_bytes: Option<usize>,
    /// The protocol version to ask for.
    #[arg(long, default_value = DEFAULT_PROTOCOL_VERSION)]
    protocol_version: String,
    /// Drive this streamable HTTP endpoint (loopback only) instead of starting a command.
    #[arg(long, conflicts_with = "command")]
    url: Option<String>,
    /// With --url: the server's process id, to report its memory.
    #[arg(long, requires = "url")]
    pid: Option<u32>,
    /// With --url: how long to wait for the server to accept connections, in seconds.
    #[arg(long, default_value_t = 30.0)]
    wait: f64,
    /// Without --url: where the server's stderr goes (default: discarded).
    #[arg(long)]
    server_stderr: Option<PathBuf>,
    /// Print one JSON line instead of text.
    #[arg(long)]
    json: bool,
    /// The stdio server's command and arguments, after `--`.
    #[arg(last = true)]
    command: Vec<String>,
}

fn print_text(report: &LoadReport) {
    let latency = &report.latency_us;
    println!("{} over {} ({}): {}", report.label, report.transport, report.server_name, report.target);
    println!(
        "  {} calls, {} in flight, {:.2} s{}: {:.0} calls/s, {} errors",
        report.calls,
        report.concurrency,
        report.seconds,
        if report.stopped_by_time { " (time limit)" } else { "" },
        report.calls_per_sec,
        report.errors
    );
    println!(
        "  latency µs: min {:.0}  p50 {:.0}  p90 {:.0}  p99 {:.0}  max {:.0}  mean {:.0}",
        latency.min, latency.p50, latency.p90, latency.p99, latency.max, latency.mean
    );
    if report.runs_calls_per_sec.len() > 1 {
        println!("  calls/s of each run: {:?} (the median run is reported)", report.runs_calls_per_sec);
    }
    if let Some(cpu) = report.server_cpu_us_per_call {
        println!("  server CPU time: {cpu:.1} µs per call");
    }
    if let Some(memory) = report.memory {
        println!(
            "  server pid {} VmHWM: idle {} kB, after load {} kB (VmRSS {} kB)",
            memory.pid, memory.idle.vm_hwm_kb, memory.loaded.vm_hwm_kb, memory.loaded.vm_rss_kb
        );
    }
    if let Some(problem) = &report.first_error {
        println!("  first error: {problem}");
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let options = LoadOptions {
        label: cli.label.clone(),
        concurrency: cli.concurrency.max(1),
        calls: cli.calls,
        warmup: cli.warmup,
        duration: Duration::from_secs_f64(cli.duration.max(0.0)),
        text: cli.text_bytes.map_or_else(|| cli.text.clone(), |bytes| "x".repeat(bytes)),
        protocol_version: cli.protocol_version.clone(),
        wait: Duration::from_secs_f64(cli.wait.max(0.0)),
        runs: cli.runs.max(1),
    };
    let measure = async {
        match &cli.url {
            Some(url) => load::run_http(url, cli.pid, &options).await,
            None if cli.command.is_empty() => {
                Err(mcp_plugin_bench::error("give a server command after `--`, or --url for HTTP"))
            }
            None => {
                let stderr = match &cli.server_stderr {
                    Some(path) => Stdio::from(File::create(path)?),
                    None => Stdio::null(),
                };
                load::run_stdio(&cli.command, stderr, &options).await
            }
        }
    };
    mcp_plugin_bench::print_report(cli.json, measure, print_text)
}
