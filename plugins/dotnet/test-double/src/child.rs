//! The `spawn-child` scenario: a child process of the double that only sleeps, standing in for
//! the build servers, test hosts and apps that the real CLI leaves running under it.

use std::process::{Child, Command, ExitCode, Stdio};
use std::time::Duration;

use crate::ctx::Ctx;
use crate::out;

/// The hidden first argument that makes the double act as the sleeping child.
const SLEEPER_ARG: &str = "__dotnet-double-sleeper";

/// Whether this process was started as the sleeping child.
pub fn is_sleeper(args: &[String]) -> bool {
    args.first().is_some_and(|a| a == SLEEPER_ARG)
}

/// The sleeping child's whole life: sleep for the number of seconds given after the marker.
pub fn sleep_as_child(args: &[String]) -> ExitCode {
    let secs = args.get(1).and_then(|s| s.parse::<f64>().ok()).unwrap_or(30.0);
    std::thread::sleep(Duration::from_secs_f64(secs.max(0.0)));
    ExitCode::SUCCESS
}

/// Starts the child (it inherits stdout and stderr, like a real build node does, so a reader
/// sees end-of-file only when both are gone), prints `double-child-pid: N` on stderr, then
/// appends N to `DOTNET_DOUBLE_CHILD_PID_FILE`.
pub fn spawn(ctx: &Ctx) -> Option<Child> {
    let exe = std::env::current_exe().ok()?;
    let child = Command::new(exe).arg(SLEEPER_ARG).arg(ctx.slow.as_secs_f64().to_string()).stdin(Stdio::null()).spawn();
    match child {
        Ok(child) => {
            out::err(&format!("double-child-pid: {}", child.id()));
            crate::record::append_child_pid(child.id());
            Some(child)
        }
        Err(e) => {
            out::err(&format!("dotnet-double: cannot start the child process: {e}"));
            None
        }
    }
}
