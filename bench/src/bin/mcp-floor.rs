//! `mcp-floor`: the floor server, an rmcp server with `echo` compiled in.
//!
//! ```text
//! mcp-floor                      # stdio (non-blocking pipes)
//! mcp-floor --blocking-stdio     # stdio through tokio's blocking pool, as the host serves today
//! mcp-floor --http 127.0.0.1:0   # streamable HTTP at /mcp, loopback only; prints the URL
//! mcp-floor --http 127.0.0.1:0 --nagle   # the same without TCP_NODELAY, as the host serves today
//! ```

use std::{net::SocketAddr, process::ExitCode};

use clap::Parser;
use mcp_plugin_bench::floor;
use tokio_util::sync::CancellationToken;

/// The floor: `echo` compiled into a minimal rmcp server.
#[derive(Debug, Parser)]
#[command(version, about)]
struct Cli {
    /// Serve streamable HTTP at this loopback address (at `/mcp`) instead of stdio.
    #[arg(long)]
    http: Option<SocketAddr>,
    /// Leave Nagle's algorithm on (no TCP_NODELAY), as axum's default and the host do.
    #[arg(long, requires = "http")]
    nagle: bool,
    /// Over stdio, use rmcp's blocking `stdio()` handles (as the host does) instead of
    /// `stdio_pipes()`.
    #[arg(long, conflicts_with = "http")]
    blocking_stdio: bool,
}

#[tokio::main]
async fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.http {
        None => floor::serve_stdio(!cli.blocking_stdio).await,
        Some(address) => {
            let shutdown = CancellationToken::new();
            let stop = shutdown.clone();
            tokio::spawn(async move {
                wait_for_signal().await;
                stop.cancel();
            });
            floor::serve_http(address, !cli.nagle, shutdown, |bound| eprintln!("mcp-floor serving http://{bound}/mcp"))
                .await
        }
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(cause) => {
            eprintln!("error: {cause}");
            ExitCode::FAILURE
        }
    }
}

async fn wait_for_signal() {
    use tokio::signal::unix::{SignalKind, signal};
    match signal(SignalKind::terminate()) {
        Ok(mut terminate) => {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = terminate.recv() => {}
            }
        }
        Err(_) => {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}
