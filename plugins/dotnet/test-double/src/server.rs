//! The `build-server` scenario: a build leaves a C# compiler server running, as SDK 10.0.401 does
//! when shared compilation is on, so that tests can follow what happens to it after the command.

use std::process::{Command, ExitCode, Stdio};
use std::time::Duration;

use crate::ctx::Ctx;
use crate::out;

/// How long the server lives unless it is killed: the real compiler server's idle timeout (10
/// minutes), far longer than any test waits, so a server that is gone was killed.
const SERVER_LIFE: Duration = Duration::from_secs(600);

/// Whether this process was started as the compiler server: `exec …/VBCSCompiler.dll …`.
pub fn is_server(args: &[String]) -> bool {
    args.first().is_some_and(|arg| arg == "exec") && args.get(1).is_some_and(|dll| dll.ends_with("/VBCSCompiler.dll"))
}

/// The server's whole life: it idles until its timeout (or until it is killed).
pub fn serve() -> ExitCode {
    std::thread::sleep(SERVER_LIFE);
    ExitCode::SUCCESS
}

/// For a `build` with shared compilation on (the real SDK starts no server when the
/// `UseSharedCompilation` property, here from the environment, is `false`): starts the server,
/// with the real one's command line (`<dotnet> exec <root>/sdk/<version>/Roslyn/bincore/VBCSCompiler.dll
/// -pipename:<name>`), in this process's group and holding none of its streams, and does not wait
/// for it. Prints `double-server-pid: N` on stderr and appends `N` as a line to the file named by
/// `DOTNET_DOUBLE_SERVER_PID_FILE`, if set (a build's answer may not carry its output).
pub fn start(ctx: &Ctx) {
    let off = std::env::var("UseSharedCompilation").is_ok_and(|value| value.eq_ignore_ascii_case("false"));
    if ctx.args.first().map(String::as_str) != Some("build") || off {
        return;
    }
    let dll = format!("{}/sdk/{}/Roslyn/bincore/VBCSCompiler.dll", ctx.root, ctx.sdk_version);
    let started = std::env::current_exe().and_then(|exe| {
        Command::new(exe)
            .args(["exec", dll.as_str(), "-pipename:dotnet-double"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
    });
    match started {
        Ok(server) => {
            out::err(&format!("double-server-pid: {}", server.id()));
            crate::record::append_server_pid(server.id());
        }
        Err(e) => out::err(&format!("dotnet-double: cannot start the compiler server: {e}")),
    }
}
