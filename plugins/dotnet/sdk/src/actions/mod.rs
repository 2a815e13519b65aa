//! The actions of `dotnet_sdk`: facts of the installation (`host`), templates (`templates`),
//! template packages (`packs`) and global.json (`configure`).

pub mod configure;
pub mod host;
pub mod packs;
pub mod templates;

use dotnet_support::{
    exec::{ProgressKind, Ran},
    kit::Call,
    respond::Failure,
};

/// Runs `dotnet ARGS`; only a run that did not end by itself (no dotnet, no SDK, cancelled,
/// timed out) is an error here.
async fn run(call: &Call<'_>, args: &[&str], progress: ProgressKind) -> Result<Ran, Failure> {
    let args: Vec<String> = args.iter().map(|arg| (*arg).to_owned()).collect();
    let description = format!("dotnet {}", args.join(" "));
    call.run(call.command(args, description).progress(progress)).await
}

/// Runs `dotnet ARGS` and requires exit code 0.
async fn run_ok(call: &Call<'_>, args: &[&str]) -> Result<Ran, Failure> {
    let ran = run(call, args, ProgressKind::None).await?;
    if ran.succeeded() { Ok(ran) } else { Err(ran.failure().into()) }
}
