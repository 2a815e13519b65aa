//! `dotnet-double`: a test double of the `dotnet` CLI.
//!
//! The dotnet plugins of mcp-plugin-host drive the `dotnet` CLI, and the machines that build
//! and test this project have no .NET SDK. The plugins' tests run this program in its place.
//! It answers the commands the plugins run in the real CLI's output formats (SDK 8, 9 and 10),
//! from the recordings of the real SDK under `recordings/` (`replay`) and, for what no
//! recording covers, from the fixture files under `fixtures/`; it records every invocation (`DOTNET_DOUBLE_LOG`);
//! and scenarios (`DOTNET_DOUBLE_SCENARIO`) switch on failure modes: no SDK, build and test
//! failures, slow streaming output, a child process, a compiler server left running, secrets in the output, a missing
//! dotnet-ef tool. README.md lists every command, variable and scenario.

mod args;
mod child;
mod cli;
mod cmd;
mod ctx;
mod fixture;
mod host;
mod json;
mod out;
mod record;
// Shared with `dotnet-record`, which writes recordings (this binary only reads them).
#[allow(dead_code)]
mod recording;
mod replay;
mod server;
mod table;
mod target;

use std::process::ExitCode;

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args_os().skip(1).map(|a| a.to_string_lossy().into_owned()).collect();
    if child::is_sleeper(&argv) {
        return child::sleep_as_child(&argv);
    }
    if server::is_server(&argv) {
        return server::serve();
    }
    record::write_pid_file();
    record::log_invocation(&argv);
    let ctx = match ctx::Ctx::from_env(argv) {
        Ok(ctx) => ctx,
        Err(message) => {
            out::err(&format!("dotnet-double: {message}"));
            return ExitCode::from(2);
        }
    };
    let child = if ctx.has(ctx::Scenario::SpawnChild) { child::spawn(&ctx) } else { None };
    if ctx.has(ctx::Scenario::BuildServer) {
        server::start(&ctx);
    }
    let code = replay::replay(&ctx).unwrap_or_else(|| cli::run(&ctx));
    if let Some(mut child) = child {
        let _ = child.wait();
    }
    ExitCode::from(code)
}
