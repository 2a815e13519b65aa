//! `mcp-dist`: writes the release's MCPB manifest and `server.json` from
//! the host's `Cargo.toml`, and validates a `server.json`. `scripts/dist`
//! runs it; see the library for what each file holds.

use std::{path::PathBuf, process::ExitCode};

use clap::{Parser, Subcommand};
use mcp_plugin_host_dist::{Package, Platform, bundled_libraries, mcpb_manifest, server_json, validate_server_json};
use serde_json::Value;

/// Release metadata of mcp-plugin-host.
#[derive(Debug, Parser)]
struct Cli {
    /// The workspace's Cargo.toml (default: the one cargo finds from the current folder).
    #[arg(long, global = true)]
    manifest_path: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print the MCPB manifest.json for a bundle built for TARGET (a Rust target triple).
    McpbManifest {
        #[arg(long)]
        target: String,
    },
    /// Print the MCP registry's server.json for the MCPB bundle FILE (its name) with SHA-256 HEX.
    ServerJson {
        #[arg(long, value_name = "FILE")]
        mcpb: String,
        #[arg(long, value_name = "HEX")]
        sha256: String,
    },
    /// Validate a server.json against the registry's schema.
    ValidateServerJson { file: PathBuf },
    /// Print the release's name for TARGET: mcp-plugin-host-<version>-<target>.
    ReleaseName {
        #[arg(long)]
        target: String,
    },
    /// Print the file names of the plugin libraries a bundle for TARGET carries, one a line.
    BundledLibraries {
        #[arg(long)]
        target: String,
    },
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("mcp-dist: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<(), String> {
    let document = match cli.command {
        Command::McpbManifest { target } => {
            mcpb_manifest(&host(&metadata(cli.manifest_path)?)?, Platform::of_target(&target)?)
        }
        Command::ServerJson { mcpb, sha256 } => server_json(&host(&metadata(cli.manifest_path)?)?, &mcpb, &sha256)?,
        Command::ReleaseName { target } => {
            let host = host(&metadata(cli.manifest_path)?)?;
            println!("{}-{}-{target}", host.name, host.version);
            return Ok(());
        }
        Command::BundledLibraries { target } => {
            for library in bundled_libraries(&metadata(cli.manifest_path)?, Platform::of_target(&target)?) {
                println!("{library}");
            }
            return Ok(());
        }
        Command::ValidateServerJson { file } => {
            let text = std::fs::read_to_string(&file).map_err(|error| format!("{}: {error}", file.display()))?;
            let document: Value =
                serde_json::from_str(&text).map_err(|error| format!("{} is not JSON: {error}", file.display()))?;
            validate_server_json(&document)?;
            eprintln!("mcp-dist: {} is valid", file.display());
            return Ok(());
        }
    };
    println!("{}", serde_json::to_string_pretty(&document).expect("JSON values serialize"));
    Ok(())
}

/// The host package.
fn host(metadata: &Value) -> Result<Package, String> {
    Package::from_metadata(metadata, "mcp-plugin-host")
}

/// `cargo metadata` of the workspace (its own packages only).
fn metadata(manifest_path: Option<PathBuf>) -> Result<Value, String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = std::process::Command::new(cargo);
    command.args(["metadata", "--format-version", "1", "--no-deps", "--offline"]);
    if let Some(path) = manifest_path {
        command.arg("--manifest-path").arg(path);
    }
    let output = command.output().map_err(|error| format!("cargo metadata could not run: {error}"))?;
    if !output.status.success() {
        return Err(format!("cargo metadata failed: {}", String::from_utf8_lossy(&output.stderr).trim()));
    }
    serde_json::from_slice(&output.stdout).map_err(|error| format!("cargo metadata printed no JSON: {error}"))
}
