//! `mcp-bench-report`: the markdown report of a bench run, from the JSON lines of `mcp-loadgen`
//! and `mcp-startup` and from criterion's estimates.
//!
//! ```text
//! mcp-bench-report --load load.jsonl --startup startup.jsonl --criterion target/criterion \
//!     --meta "toolchain=rustc 1.95.0" > report.md
//! ```

use std::{path::PathBuf, process::ExitCode};

use clap::Parser;
use mcp_plugin_bench::{
    machine::Machine,
    report::{self, Inputs},
};

/// Writes the bench report (markdown) to stdout.
#[derive(Debug, Parser)]
#[command(version, about)]
struct Cli {
    /// JSON lines of `mcp-loadgen --json`.
    #[arg(long)]
    load: Option<PathBuf>,
    /// JSON lines of `mcp-startup --json`.
    #[arg(long)]
    startup: Option<PathBuf>,
    /// Criterion's output folder (`<target>/criterion`).
    #[arg(long)]
    criterion: Option<PathBuf>,
    /// An extra row for the machine table, as `name=value` (repeatable).
    #[arg(long)]
    meta: Vec<String>,
    /// Mark the report as a smoke test.
    #[arg(long)]
    quick: bool,
    /// Exit non-zero when a target was missed.
    #[arg(long)]
    strict: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let inputs = (|| -> mcp_plugin_bench::Result<Inputs> {
        Ok(Inputs {
            machine: Machine::this(),
            meta: cli
                .meta
                .iter()
                .map(|row| match row.split_once('=') {
                    Some((name, value)) => (name.trim().to_owned(), value.trim().to_owned()),
                    None => (row.clone(), String::new()),
                })
                .collect(),
            quick: cli.quick,
            load: match &cli.load {
                Some(path) => report::read_json_lines(path)?,
                None => Vec::new(),
            },
            startup: match &cli.startup {
                Some(path) => report::read_json_lines(path)?,
                None => Vec::new(),
            },
            criterion: match &cli.criterion {
                Some(path) => report::read_criterion(path)?,
                None => Vec::new(),
            },
        })
    })();
    match inputs {
        Ok(inputs) => {
            print!("{}", report::render(&inputs));
            if cli.strict && inputs.verdicts().iter().any(|verdict| verdict.met == Some(false)) {
                return ExitCode::FAILURE;
            }
            ExitCode::SUCCESS
        }
        Err(cause) => {
            eprintln!("error: {cause}");
            ExitCode::FAILURE
        }
    }
}
