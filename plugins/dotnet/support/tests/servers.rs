//! Build servers kept by a run ([`Invocation::keep_build_servers`], [`dotnet_support::servers`])
//! against real processes: a copy of `sleep` named `VBCSCompiler` stands in for the compiler
//! server (it is recognised by its command line, as the real one is). One test, run in order,
//! since the adopted servers are the process's. Linux: processes are read from /proc.
#![cfg(target_os = "linux")]

use std::path::Path;

use dotnet_support::{
    runner::{Invocation, RunEnd, Stream},
    servers,
    testkit::{assert_dies, is_dead},
};

/// Runs `sh -c script` to its end (or until it prints `cancel`, with `cancel_on_line`), with
/// build servers kept; returns the end and the `name pid` lines it printed.
fn run(script: &str, keep: bool, cancel_on_line: bool) -> (RunEnd, Vec<(String, u32)>) {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let (cancel_tx, cancel_rx) = tokio::sync::oneshot::channel::<()>();
    let mut cancel_tx = Some(cancel_tx);
    let mut printed = Vec::new();
    let outcome = runtime.block_on(Invocation::new("sh", ["-c", script]).keep_build_servers(keep).run(
        async move {
            let _ = cancel_rx.await;
        },
        |stream, line: &str| {
            assert_eq!(stream, Stream::Stdout, "{line}");
            if let Some((name, pid)) = line.split_once(' ') {
                printed.push((name.to_owned(), pid.parse().unwrap()));
            }
            if cancel_on_line && line.starts_with("cancel") {
                cancel_tx.take().map(|tx| tx.send(()));
            }
        },
    ));
    (outcome.end, printed)
}

fn pid_of(printed: &[(String, u32)], name: &str) -> u32 {
    printed.iter().find(|(printed, _)| printed == name).map(|(_, pid)| *pid).unwrap()
}

fn adopted(pid: u32) -> bool {
    servers::adopted().iter().any(|known| known.pid == pid)
}

#[test]
fn servers_left_by_a_command_are_adopted_the_rest_killed_and_only_ours_shut_down() {
    let scratch = tempfile::tempdir().unwrap();
    let compiler = scratch.path().join("VBCSCompiler");
    std::fs::copy(Path::new("/bin/sleep"), &compiler).unwrap();
    let compiler = compiler.display().to_string();
    let quiet = ">/dev/null 2>&1 </dev/null";

    // A command that exits by itself and leaves a compiler server and something else in its group.
    // Each background child is waited for until it has executed its program (as .NET's
    // Process.Start does), so the group is settled with its real command lines.
    let execd = r#"execd() { while [ "$(readlink /proc/$1/exe)" = "$(readlink /proc/$$/exe)" ]; do :; done; }"#;
    let script = format!(
        "{execd}; {compiler} 300 {quiet} & execd $!; echo server $!; sleep 300 {quiet} & execd $!; echo other $!; exit 0"
    );
    let (end, printed) = run(&script, true, false);
    assert_eq!(end, RunEnd::Exited(0));
    let (server, other) = (pid_of(&printed, "server"), pid_of(&printed, "other"));
    assert!(adopted(server), "the server is adopted: {:?}", servers::adopted());
    assert!(!is_dead(server), "the adopted server runs on");
    assert!(!adopted(other));
    assert_dies(other);

    // Without keep_build_servers the group is left alone, as before: nothing adopted, nothing killed.
    let (_, printed) = run(&format!("{compiler} 300 {quiet} & echo server $!; exit 0"), false, false);
    let untracked = pid_of(&printed, "server");
    assert!(!adopted(untracked) && !is_dead(untracked));
    // SAFETY: kill has no memory effects; the process is our own, still alive.
    unsafe { libc::kill(untracked as i32, libc::SIGKILL) };
    assert_dies(untracked);

    // A cancelled command: its whole group is killed, the server it started included, and nothing is adopted.
    let script = format!("{compiler} 300 {quiet} & echo server $!; echo cancel; exec sleep 300");
    let (end, printed) = run(&script, true, true);
    assert_eq!(end, RunEnd::Cancelled);
    let cancelled = pid_of(&printed, "server");
    assert_dies(cancelled);
    assert!(!adopted(cancelled));

    // The user's own server (not started by a command of ours) is never touched.
    let mut users = std::process::Command::new(&compiler).arg("300").spawn().unwrap();
    assert_eq!(servers::shut_down(), 1, "exactly our one server is shut down");
    assert_dies(server);
    assert!(users.try_wait().unwrap().is_none(), "the user's server still runs");
    assert!(servers::adopted().is_empty());
    users.kill().unwrap();
    users.wait().unwrap();
}
